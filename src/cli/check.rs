//! `admission-ls check`: reads every file, loads them all (and the `--schema` files) into one
//! analysis so that cross-file references resolve (a binding's policy, a CRD typing a policy),
//! runs the same diagnostics as the language server (two threads), and prints them in a
//! deterministic order as text, JSON, SARIF or GitHub workflow commands. A path that cannot be read
//! is reported on stderr as `path: error: message` and, in the machine formats, as an entry with an
//! `io-error` diagnostic; it makes the exit status 2. Paths that hold no admission policy or binding
//! are said to.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use admission_ls::ide::{
    self, Analysis, AnalysisHost, Diagnostic, DiagnosticsConfig, FileId, ProjectConfig,
    RenderOptions, Severity,
};
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::lsp::origin::OriginFinder;

use super::{CheckArgs, EXIT_USAGE, Format, annotations, json, out, project, walk};

/// A path that could not be read, with the reason.
#[derive(Debug)]
pub struct Unreadable {
    /// The path as printed.
    pub path: String,
    /// Why, lower case.
    pub message: String,
}

/// Worker threads: `check` is budgeted for two cores.
const MAX_THREADS: usize = 2;

/// A file that was read and checked.
#[derive(Debug)]
pub struct Checked {
    /// The path as printed.
    pub path: String,
    /// The file's text.
    pub text: String,
    /// Its diagnostics, sorted.
    pub diagnostics: Vec<Diagnostic>,
    /// Why it was not checked (a Helm helper, a JSON 6902 patch, a template that does not parse
    /// once masked), if it was not; it then has no diagnostics.
    pub skipped: Option<String>,
}

/// Runs `check` and returns the exit status: 2 if a path could not be read (the check is incomplete),
/// else 1 if any diagnostic is an error, else 0 (warnings alone pass).
pub fn run(args: &CheckArgs) -> i32 {
    keep_freed_memory();
    let mut unreadable = Vec::new();
    let project = load_project(args, &mut unreadable);
    let config = diagnostics_config(args, project.as_ref().map(|p| &p.config));
    let (inputs, walk_errors) = inputs(&args.paths, &args.exclude, project.as_ref());
    unreadable.extend(walk_errors);
    let mut schemas = args.schemas.clone();
    if let Some(project) = &project {
        schemas.extend(
            project
                .config
                .schema_paths
                .iter()
                .map(|p| project.resolve(p)),
        );
    }
    let (schema_paths, schema_errors) = walk::collect(&schemas);
    unreadable.extend(schema_errors.into_iter().map(Unreadable::from));
    let mut host = AnalysisHost::new();
    let mut files = Vec::with_capacity(inputs.len());
    let mut origins = OriginFinder::new();
    for (i, input) in inputs.iter().enumerate() {
        match input.read() {
            Ok(text) => {
                if let Input::File(path) = input {
                    host.set_origin(FileId(file_id(i)), origins.origin(path));
                }
                host.set_file(FileId(file_id(i)), text.as_str().into());
                files.push((i, input.name(), text));
            }
            Err(message) => unreadable.push(Unreadable {
                path: input.name(),
                message,
            }),
        }
    }
    for (i, path) in schema_paths.iter().enumerate() {
        match read_text(path) {
            Ok(text) => host.set_file(FileId(file_id(inputs.len() + i)), text.as_str().into()),
            Err(message) => unreadable.push(Unreadable {
                path: path.display().to_string(),
                message,
            }),
        }
    }
    let groups = project
        .as_ref()
        .map(|p| static_groups(p, &files))
        .unwrap_or_default();
    let analysis = host.snapshot();
    let mut checked = check_all(&analysis, files, &config);
    add_static_findings(&analysis, &groups, &config, &mut checked);
    if let Some(project) = project.filter(|p| !p.diagnostics.is_empty()) {
        // The configuration file's own problems come first, as the settings of everything else.
        checked.insert(0, project.into_checked());
    }
    // The process ends after the report: freeing every file's tree, model and cache one node at
    // a time took a twentieth of the CPU time of checking 10,000 documents, for nothing.
    std::mem::forget(analysis);
    std::mem::forget(host);
    let summary = Summary::of(&checked);
    for u in &unreadable {
        out::error(&format!("{}: error: {}", u.path, u.message));
    }
    let report = match args.format {
        Format::Text => text_report(&checked, &summary, unreadable.len()),
        Format::Json => format!("{}\n", json::report(&checked, &unreadable, &summary)),
        Format::Sarif => annotations::sarif(&checked, &unreadable),
        Format::Github => annotations::github(&checked, &unreadable),
    };
    out::emit(&report, exit_status(&summary, unreadable.len()))
}

/// Memory freed stays with the allocator until the process ends. The binary returns freed pages
/// to the system at once for the server's sake (`main.rs`); a check, which ends after one report,
/// then paid for giving back the pages of every document's temporary values and for faulting them
/// in again for the next document: a quarter more page faults and about 5% of the CPU time of
/// checking 10,000 documents, for a peak RSS 2-3% lower. A `MIMALLOC_PURGE_DELAY` in the
/// environment is overridden.
fn keep_freed_memory() {
    /// mimalloc's value for "never purge".
    const NEVER: std::os::raw::c_long = -1;
    // SAFETY: sets an option's value; mimalloc reads options with no other precondition, and no
    // thread of ours is running yet.
    unsafe { libmimalloc_sys::mi_option_set(crate::PURGE_DELAY, NEVER) };
}

/// One input of `check`: a file, or standard input (`-`).
enum Input {
    File(PathBuf),
    Stdin,
}

/// The name standard input is reported under.
const STDIN_NAME: &str = "<stdin>";

impl Input {
    fn name(&self) -> String {
        match self {
            Input::File(path) => path.display().to_string(),
            Input::Stdin => STDIN_NAME.to_owned(),
        }
    }

    fn read(&self) -> Result<String, String> {
        match self {
            Input::File(path) => read_text(path),
            // Bounded as every other read: `check -` has the cap of a file a command reads.
            Input::Stdin => disk::read_stream(std::io::stdin().lock(), disk::COMMAND_CAP)
                .map_err(|refused| refused.to_string()),
        }
    }
}

impl From<walk::WalkError> for Unreadable {
    fn from(error: walk::WalkError) -> Unreadable {
        Unreadable {
            path: error.path.display().to_string(),
            message: error.message,
        }
    }
}

/// The project configuration file of the run (see `project.rs`); one that exists but cannot be
/// read is an unreadable path (the run is incomplete: the team's settings are not applied).
fn load_project(args: &CheckArgs, unreadable: &mut Vec<Unreadable>) -> Option<project::Loaded> {
    let lookup = project::Lookup {
        named: args.config.as_deref(),
        disabled: args.no_config,
        paths: &args.paths,
    };
    project::load(&lookup).unwrap_or_else(|(path, message)| {
        unreadable.push(Unreadable { path, message });
        None
    })
}

/// The settings of the run: a flag given overrides the configuration file's value.
fn diagnostics_config(args: &CheckArgs, file: Option<&ProjectConfig>) -> DiagnosticsConfig {
    DiagnosticsConfig {
        kube_version: args
            .kube_version
            .or_else(|| file.and_then(|f| f.kube_version))
            .unwrap_or_default(),
        disabled: file.and_then(|f| f.disabled.clone()).unwrap_or_default(),
        strict: args.strict || file.and_then(|f| f.strict).unwrap_or(false),
        kyverno_version: args
            .kyverno_version
            .or_else(|| file.and_then(|f| f.kyverno_version))
            .unwrap_or_default(),
    }
}

impl project::Loaded {
    /// The configuration file as a checked file, to print its problems with the others.
    fn into_checked(self) -> Checked {
        let mut diagnostics = self.diagnostics;
        admission_ls::policy::diagnostic::sort(&mut diagnostics);
        Checked {
            path: self.path,
            text: self.text,
            diagnostics,
            skipped: None,
        }
    }
}

/// A folder of static manifests: its checked files as (position among the read files, id, path),
/// in the order the API server reads them (by file name).
type StaticGroup = Vec<(usize, FileId, String)>;

/// The read files of each `staticManifests` folder of the configuration.
fn static_groups(project: &project::Loaded, files: &[(usize, String, String)]) -> Vec<StaticGroup> {
    let mut groups: Vec<StaticGroup> = vec![Vec::new(); project.config.static_manifests.len()];
    for (position, (i, path, _)) in files.iter().enumerate() {
        let folder = project.static_folder(Path::new(path));
        if let Some(group) = folder.and_then(|k| groups.get_mut(k)) {
            group.push((position, FileId(file_id(*i)), path.clone()));
        }
    }
    for group in &mut groups {
        group.sort_by(|a, b| a.2.cmp(&b.2));
    }
    groups
}

/// Adds the static-manifest findings of each folder to its files; a finding the name suffix
/// already gave is not repeated.
fn add_static_findings(
    analysis: &Analysis,
    groups: &[StaticGroup],
    config: &DiagnosticsConfig,
    checked: &mut [Checked],
) {
    for group in groups.iter().filter(|g| !g.is_empty()) {
        let files: Vec<(FileId, String)> = group
            .iter()
            .map(|(_, id, path)| (*id, path.clone()))
            .collect();
        let found = analysis.static_manifest_diagnostics(&files, config);
        for ((position, _, _), findings) in group.iter().zip(found) {
            let Some(file) = checked.get_mut(*position) else {
                continue;
            };
            for finding in findings {
                if !file.diagnostics.contains(&finding) {
                    file.diagnostics.push(finding);
                }
            }
            admission_ls::policy::diagnostic::sort(&mut file.diagnostics);
        }
    }
}

/// The inputs named by `paths` in order, folders walked leaving out what `exclude` and the
/// configuration file's globs match; `-` is standard input, read once however often it is named.
fn inputs(
    paths: &[PathBuf],
    exclude: &[String],
    project: Option<&project::Loaded>,
) -> (Vec<Input>, Vec<Unreadable>) {
    let mut inputs = Vec::new();
    let mut unreadable = Vec::new();
    let mut stdin_named = false;
    for path in paths {
        if path.as_os_str() == "-" {
            if !stdin_named {
                inputs.push(Input::Stdin);
            }
            stdin_named = true;
            continue;
        }
        let (found, errors) = walk::collect_excluding(std::slice::from_ref(path), exclude);
        // A file named on the command line is always read, as with `--exclude`.
        let walked = path.is_dir();
        inputs.extend(
            found
                .into_iter()
                .filter(|file| !(walked && project.is_some_and(|p| p.excludes(file))))
                .map(Input::File),
        );
        unreadable.extend(errors.into_iter().map(Unreadable::from));
    }
    (inputs, unreadable)
}

/// The top-level `apiVersion` values of a text (quotes and spaces trimmed), as the editor clients
/// recognise a policy file: a line that starts with `apiVersion:`. The text is searched for the
/// key rather than split into lines, once per file: the summary of 10,000 documents read every
/// line of every file several times, on the one thread that runs after the check.
fn api_versions(text: &str) -> impl Iterator<Item = &str> {
    const KEY: &str = "apiVersion:";
    // memchr's searcher rather than `str::match_indices`: this reads every byte of every file on
    // the thread that writes the report, and the latter took three times as long.
    memchr::memmem::find_iter(text.as_bytes(), KEY)
        .filter(|at| *at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n'))
        .filter_map(move |at| text.get(at + KEY.len()..))
        .map(|rest| rest.split('\n').next().unwrap_or(""))
        .map(|value| value.trim().trim_matches(['"', '\'']))
}

/// What a file holds, for the summary: an admission policy or binding (an apiVersion of a
/// family's group), a CustomResourceDefinition (`apiextensions.k8s.io/`, whose validation rules
/// are checked too).
fn holdings(text: &str, family_prefixes: &[String]) -> (bool, bool) {
    let (mut policy, mut crd) = (false, false);
    for version in api_versions(text) {
        policy |= family_prefixes
            .iter()
            .any(|p| version.starts_with(p.as_str()));
        crd |= version.starts_with("apiextensions.k8s.io/");
        if policy && crd {
            break;
        }
    }
    (policy, crd)
}

fn exit_status(summary: &Summary, n_unreadable: usize) -> i32 {
    if n_unreadable > 0 {
        EXIT_USAGE
    } else if summary.errors > 0 {
        1
    } else {
        0
    }
}

/// Counts of a run.
#[derive(Debug)]
pub struct Summary {
    /// Files read and checked.
    pub files: usize,
    /// Diagnostics of severity error.
    pub errors: usize,
    /// Diagnostics of severity warning.
    pub warnings: usize,
    /// Files holding an admission policy or binding.
    pub policy_files: usize,
    /// Files holding a CustomResourceDefinition (its rules are checked; no note is due).
    pub crd_files: usize,
    /// Files read but not checked, each with a note saying why.
    pub skipped: usize,
}

impl Summary {
    fn of(checked: &[Checked]) -> Summary {
        let all = || checked.iter().flat_map(|file| &file.diagnostics);
        let count = |severity| all().filter(|d| d.severity == severity).count();
        let prefixes: Vec<String> = admission_ls::policy::families::groups()
            .map(|group| format!("{group}/"))
            .collect();
        let holds: Vec<(bool, bool)> = checked
            .iter()
            .map(|file| holdings(&file.text, &prefixes))
            .collect();
        Summary {
            files: checked.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            policy_files: holds.iter().filter(|h| h.0).count(),
            crd_files: holds.iter().filter(|h| h.1).count(),
            skipped: checked.iter().filter(|f| f.skipped.is_some()).count(),
        }
    }
}

/// `work` applied to every item, spread over a few threads that take the next item as they finish
/// one; the results in input order.
fn for_each_shared<T: Sync, R: Send + Default + Clone>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let n_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n_threads = n_threads.min(MAX_THREADS).min(items.len()).max(1);
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(k) else {
                return done;
            };
            done.push((k, work(item)));
        }
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n_threads).map(|_| scope.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    });
    let mut in_order = vec![R::default(); items.len()];
    for (k, result) in results {
        if let Some(slot) = in_order.get_mut(k) {
            *slot = result;
        }
    }
    in_order
}

/// The file id of the `i`th input (inputs beyond `u32` are not addressable; they share the last id).
fn file_id(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Checks every read file in `analysis`, spread over a few threads; results come back in input
/// order. Each file is parsed once: a first pass reads what every file contributes from its
/// shared tree (which the check then reuses), so the workspace index built next, once, for all
/// threads, parses nothing again.
fn check_all(
    analysis: &Analysis,
    files: Vec<(usize, String, String)>,
    config: &DiagnosticsConfig,
) -> Vec<Checked> {
    let ids: Vec<FileId> = files.iter().map(|(i, _, _)| FileId(file_id(*i))).collect();
    for_each_shared(&ids, |id| {
        analysis.contribution(*id);
    });
    let _ = analysis.workspace();
    let results = for_each_shared(&ids, |id| {
        (analysis.diagnostics(*id, config), analysis.skipped(*id))
    });
    files
        .into_iter()
        .zip(results)
        .map(|((_, path, text), (diagnostics, skipped))| Checked {
            path,
            text,
            diagnostics,
            skipped,
        })
        .collect()
}

fn read_text(path: &Path) -> Result<String, String> {
    disk::read_text(path, Bounds::named()).map_err(|refused| refused.to_string())
}

fn text_report(checked: &[Checked], summary: &Summary, n_unreadable: usize) -> String {
    let mut out = String::new();
    // A clean file renders as nothing, and its line table would be built for nothing.
    for file in checked.iter().filter(|f| !f.diagnostics.is_empty()) {
        let options = RenderOptions { snippets: true };
        out.push_str(&ide::render_diagnostics(
            &file.path,
            &file.text,
            &file.diagnostics,
            options,
        ));
    }
    for file in checked {
        if let Some(reason) = &file.skipped {
            let _ = writeln!(out, "{}: note: skipped: {reason}", file.path);
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = write!(
        out,
        "checked {}: {}, {}",
        plural(summary.files, "file"),
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning")
    );
    if summary.skipped > 0 {
        let _ = write!(out, "; {} skipped", plural(summary.skipped, "file"));
    }
    if n_unreadable > 0 {
        let _ = write!(out, "; {} could not be read", plural(n_unreadable, "path"));
    }
    out.push('\n');
    if summary.policy_files == 0 && summary.crd_files == 0 && summary.files > summary.skipped {
        out.push_str(
            "note: none of these files holds an admission policy or binding (an admissionregistration.k8s.io apiVersion)\n",
        );
    }
    out
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::{api_versions, holdings};

    #[test]
    fn api_versions_are_the_values_of_top_level_keys_only() {
        let text = "apiVersion: \"apps/v1\"\r\nkind: X\n  apiVersion: nested/v1\n---\napiVersion:'v1'\nx: apiVersion: no\napiVersion:";
        let found: Vec<&str> = api_versions(text).collect();
        assert_eq!(found, ["apps/v1", "v1", ""]);
    }

    #[test]
    fn holdings_tell_policies_from_crds() {
        let prefixes = ["admissionregistration.k8s.io/".to_string()];
        let policy =
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n";
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n";
        let both = format!("{policy}---\n{crd}");
        assert_eq!(holdings(policy, &prefixes), (true, false));
        assert_eq!(holdings(crd, &prefixes), (false, true));
        assert_eq!(holdings(&both, &prefixes), (true, true));
        assert_eq!(holdings("kind: ConfigMap\n", &prefixes), (false, false));
    }
}
