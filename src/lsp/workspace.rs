//! The workspace scan at `initialized`: a bounded walk of the workspace folders for YAML files that
//! hold admission documents, documents of a family (Kyverno's policies…) or CustomResourceDefinitions
//! (which type the policies of other files), by the one marker test of `policy/markers.rs`, so that
//! their diagnostics show before they are opened; plus the files of the `schemaPaths`
//! setting (files or folders); then the files holding objects of the kinds those policies take
//! as params, so that `paramRef`s resolve.
//!
//! Bounded so that opening a huge folder (a home directory, a monorepo) costs little: hidden
//! directories, `node_modules` and `target` are skipped, and the walk stops at a depth, a number of
//! YAML files and a file size, all set for a large monorepo; what the bounds left out is counted
//! in [`Skipped`], for the server to report.

use std::fs;
use std::path::{Path, PathBuf};

use super::disk::{self, Bounds, Refused};
use crate::ide::Analysis;

/// Directories never entered besides hidden ones.
const SKIPPED_DIRS: &[&str] = &["node_modules", "target"];
/// How many YAML files the walk lists at most (only YAML files count); a 20,000-file workspace
/// scans in about 0.1 s and all its diagnostics are out in about 6 s (`cargo bench --bench
/// scale`).
pub const MAX_FILES: usize = 50_000;
/// How large a file the walk reads: above the largest CRD bundles projects ship in one file.
pub const MAX_FILE_BYTES: u64 = 8 << 20;
/// How deep the walk descends.
pub const MAX_DEPTH: usize = 24;
/// How many skipped paths of each kind a report names.
const NAMED: usize = 5;

/// What the walk's bounds left out.
#[derive(Debug, Default)]
pub struct Skipped {
    /// YAML files over [`MAX_FILE_BYTES`] (the first few named) and how many.
    pub too_large: (Vec<PathBuf>, usize),
    /// Folders deeper than [`MAX_DEPTH`] (the first few named) and how many.
    pub too_deep: (Vec<PathBuf>, usize),
    /// YAML files that could not be read as text (the first few named) and how many.
    pub unreadable: (Vec<PathBuf>, usize),
    /// The walk stopped at [`MAX_FILES`] YAML files.
    pub stopped_at_limit: bool,
}

impl Skipped {
    /// Nothing was left out.
    pub fn is_empty(&self) -> bool {
        self.too_large.1 == 0
            && self.too_deep.1 == 0
            && self.unreadable.1 == 0
            && !self.stopped_at_limit
    }

    /// Adds what another walk left out.
    pub fn merge(&mut self, other: Skipped) {
        for (mine, theirs) in [
            (&mut self.too_large, other.too_large),
            (&mut self.too_deep, other.too_deep),
            (&mut self.unreadable, other.unreadable),
        ] {
            let unnamed = theirs.1.saturating_sub(theirs.0.len());
            for path in theirs.0 {
                note(mine, path);
            }
            mine.1 += unnamed;
        }
        self.stopped_at_limit |= other.stopped_at_limit;
    }

    /// One line per kind of skip, for the log and the message to the user.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let named = |(paths, count): &(Vec<PathBuf>, usize), what: &str| {
            let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            let more = count.saturating_sub(paths.len());
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!("{count} {what} ({}{more})", names.join(", "))
        };
        if self.too_large.1 > 0 {
            let what = format!("YAML files over {} MiB not read", MAX_FILE_BYTES >> 20);
            lines.push(named(&self.too_large, &what));
        }
        if self.unreadable.1 > 0 {
            lines.push(named(
                &self.unreadable,
                "YAML files not readable as UTF-8 text",
            ));
        }
        if self.too_deep.1 > 0 {
            let what = "folders beyond the depth limit not entered";
            lines.push(named(&self.too_deep, what));
        }
        if self.stopped_at_limit {
            lines.push("the scan stopped at its limit of YAML files".to_owned());
        }
        lines
    }
}

/// Counts `path` in `kind`, naming it if fewer than [`NAMED`] are named.
fn note(kind: &mut (Vec<PathBuf>, usize), path: PathBuf) {
    if kind.0.len() < NAMED {
        kind.0.push(path);
    }
    kind.1 += 1;
}

/// A file found by the scan.
#[derive(Debug)]
pub struct ScannedFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// What one walk of the workspace found.
#[derive(Debug, Default)]
pub struct Scan {
    /// The admission and CRD files, with their texts.
    pub files: Vec<ScannedFile>,
    /// The other YAML files, by path only: which of them hold param objects is known only once
    /// the policies are loaded ([`read_params`]).
    pub other_yaml: Vec<PathBuf>,
    /// How many YAML files the walk listed.
    pub yaml_files: usize,
    /// What the bounds left out.
    pub skipped: Skipped,
}

/// What the analysis takes a file for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// An admission or CRD file: an input whose diagnostics are published.
    Workspace,
    /// A file holding param objects: an input only.
    Params,
}

/// Every YAML file under `roots` (folders, or single files as `schemaPaths` may name), in a
/// deterministic order: the admission and CRD files read, the others listed; unreadable entries
/// are skipped.
pub fn scan(roots: &[PathBuf]) -> Scan {
    scan_within(roots, Limits::MONOREPO)
}

/// How far a walk goes.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// YAML files listed at most.
    pub files: usize,
    /// Folder levels entered at most.
    pub depth: usize,
}

impl Limits {
    /// The bounds of the workspace scan.
    pub const MONOREPO: Limits = Limits {
        files: MAX_FILES,
        depth: MAX_DEPTH,
    };
}

/// [`scan`] within `limits`.
pub fn scan_within(roots: &[PathBuf], limits: Limits) -> Scan {
    let mut scan = Scan::default();
    let mut walk = Walk {
        limits,
        found: Vec::new(),
        skipped: Skipped::default(),
    };
    let mut named = Vec::new();
    for root in roots {
        if root.is_file() {
            // A file named by a setting is read wherever it is (still bounded).
            named.push(root.clone());
        } else {
            walk.dir(root, 0);
        }
    }
    let yaml_paths = walk.found;
    scan.skipped = walk.skipped;
    scan.yaml_files = yaml_paths.len() + named.len();
    let walked = yaml_paths.into_iter().map(|path| (path, roots));
    let named = named.into_iter().map(|path| (path, &[][..]));
    for (path, inside) in named.chain(walked) {
        match read_or_log(&path, inside) {
            Ok(file) if is_admission_text(&file.text) => scan.files.push(file),
            Ok(_) => scan.other_yaml.push(path),
            Err(refused) => not_read(path, &refused, &mut scan.skipped),
        }
    }
    scan
}

/// Counts a file the scan did not read under the reason the bounded read gave.
fn not_read(path: PathBuf, refused: &Refused, skipped: &mut Skipped) {
    match refused {
        Refused::TooLarge(_) => note(&mut skipped.too_large, path),
        _ => note(&mut skipped.unreadable, path),
    }
}

/// The files of `paths` that hold an object of one of `kinds` (a `kind:` line with that value):
/// the param objects that bindings' `paramRef`s name, so that they resolve and can be navigated
/// to before they are opened.
pub fn read_params(paths: &[PathBuf], kinds: &[String], roots: &[PathBuf]) -> Vec<ScannedFile> {
    if kinds.is_empty() {
        return Vec::new();
    }
    paths
        .iter()
        .filter_map(|path| read_bounded(path, roots))
        .filter(|file| names_a_kind(&file.text, kinds))
        .collect()
}

/// The files of the scan that hold test suites (PolicyTest, kaptest, gator), whose cases the
/// live verdicts of the policies they test show: among the other YAML files, read now, and
/// among the admission files, whose texts the scan has (a gator Suite is a Gatekeeper document,
/// so it is scanned as one).
pub fn suite_files(scan: &Scan, roots: &[PathBuf]) -> Vec<PathBuf> {
    let looks_like_suite = |file: &ScannedFile| crate::ide::live::looks_like_suite(&file.text);
    let scanned = scan.files.iter().filter(|file| looks_like_suite(file));
    let mut suites: Vec<PathBuf> = scanned.map(|file| file.path.clone()).collect();
    let others = scan
        .other_yaml
        .iter()
        .filter_map(|path| read_bounded(path, roots));
    suites.extend(
        others
            .filter(|file| looks_like_suite(file))
            .map(|file| file.path),
    );
    suites
}

/// The kinds (by name) the policies of `analysis` take as params.
pub fn param_kind_names(analysis: &Analysis) -> Vec<String> {
    let workspace = analysis.workspace();
    let kinds = workspace.param_kinds();
    kinds.iter().map(|gvk| gvk.kind.clone()).collect()
}

/// What `text` is to the analysis, given the param kinds' names.
pub fn role_of(text: &str, param_kinds: &[String]) -> Option<FileRole> {
    if is_admission_text(text) {
        Some(FileRole::Workspace)
    } else if names_a_kind(text, param_kinds) {
        Some(FileRole::Params)
    } else {
        None
    }
}

/// Whether a line of `text` reads `kind: K` (quoted or not) for one of `kinds`.
fn names_a_kind(text: &str, kinds: &[String]) -> bool {
    text.lines().any(|line| {
        let Some(value) = line.trim_start().strip_prefix("kind:") else {
            return false;
        };
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        kinds.iter().any(|kind| kind == value)
    })
}

/// A walk in progress: the YAML files found and what its limits left out.
struct Walk {
    limits: Limits,
    found: Vec<PathBuf>,
    skipped: Skipped,
}

impl Walk {
    fn dir(&mut self, dir: &Path, depth: usize) {
        if depth > self.limits.depth {
            note(&mut self.skipped.too_deep, dir.to_owned());
            return;
        }
        if self.found.len() >= self.limits.files {
            self.skipped.stopped_at_limit = true;
            return;
        }
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            // The file type of a symlink is the link's own, so linked directories are not followed
            // and a link cycle can't trap the walk.
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            if file_type.is_dir() && !SKIPPED_DIRS.contains(&name.as_ref()) {
                self.dir(&entry.path(), depth + 1);
            } else if file_type.is_file() && is_yaml(&name) {
                if self.found.len() >= self.limits.files {
                    self.skipped.stopped_at_limit = true;
                    return;
                }
                self.found.push(entry.path());
            }
        }
    }
}

/// Whether a file name has a YAML extension.
pub fn is_yaml(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

/// Whether a file's text holds a document the analysis checks (the scan's cheap test, the same for
/// every family: `policy/markers.rs`).
fn is_admission_text(text: &str) -> bool {
    crate::ide::holds_document(text)
}

/// The file at `path` if it is a regular file within the size bound, is text, and (when `roots`
/// are given) is really inside one of them; otherwise the reason is logged and the file skipped.
pub fn read_bounded(path: &Path, roots: &[PathBuf]) -> Option<ScannedFile> {
    read_or_log(path, roots).ok()
}

/// [`read_bounded`], keeping the reason a file was not read (already logged unless it is a plain
/// I/O failure) so that the scan counts it without looking at the file again.
fn read_or_log(path: &Path, roots: &[PathBuf]) -> Result<ScannedFile, Refused> {
    let bounds = Bounds {
        cap: MAX_FILE_BYTES,
        roots,
    };
    let refused = match disk::read_text(path, bounds) {
        Ok(text) => {
            return Ok(ScannedFile {
                path: path.to_owned(),
                text,
            });
        }
        Err(refused) => refused,
    };
    if !matches!(refused, Refused::Io(_)) {
        eprintln!("admission-ls: skipped {}: {refused}", path.display());
    }
    Err(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder.
    fn folder(label: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("admission-ls-{label}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create the folder");
        dir
    }

    fn write(path: &Path, bytes: &[u8]) {
        fs::create_dir_all(path.parent().expect("a parent")).expect("create the parent");
        fs::write(path, bytes).expect("write");
    }

    #[test]
    fn what_the_limits_leave_out_is_counted_and_named() {
        let dir = folder("scan-limits");
        let policy =
            b"apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n";
        for i in 0..4 {
            write(&dir.join(format!("a/p{i}.yaml")), policy);
        }
        write(&dir.join("a/notes.json"), b"{}");
        write(&dir.join("b/c/d/deep.yaml"), policy);
        write(&dir.join("b/binary.yaml"), &[0xff, 0xfe]);
        let large = vec![b'#'; usize::try_from(MAX_FILE_BYTES).expect("fits") + 1];
        write(&dir.join("b/large.yaml"), &large);
        let scan = scan_within(std::slice::from_ref(&dir), Limits { files: 3, depth: 2 });
        assert_eq!(
            scan.yaml_files, 3,
            "only YAML files count: {:?}",
            scan.files
        );
        let lines = scan.skipped.lines();
        let shown: Vec<String> = lines
            .iter()
            .map(|l| l.replace(&dir.display().to_string(), "DIR"))
            .collect();
        assert_eq!(
            shown,
            ["the scan stopped at its limit of YAML files"],
            "the files limit is reached in a/, before b/ is entered"
        );

        let scan = scan_within(
            std::slice::from_ref(&dir),
            Limits {
                files: 10,
                depth: 2,
            },
        );
        let shown: Vec<String> = scan
            .skipped
            .lines()
            .iter()
            .map(|l| l.replace(&dir.display().to_string(), "DIR"))
            .collect();
        assert_eq!(
            shown,
            [
                "1 YAML files over 8 MiB not read (DIR/b/large.yaml)",
                "1 YAML files not readable as UTF-8 text (DIR/b/binary.yaml)",
                "1 folders beyond the depth limit not entered (DIR/b/c/d)",
            ]
        );
        assert_eq!(scan.files.len(), 4);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_scan_reads_the_files_of_every_family_and_lists_the_rest() {
        let dir = folder("scan-families");
        let kyverno = b"apiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\n";
        write(&dir.join("kyverno/policy.yaml"), kyverno);
        let listed = b"kind: List\nitems:\n- {apiVersion: policies.kyverno.io/v1alpha1, kind: MutatingPolicy}\n";
        write(&dir.join("kyverno/list.yml"), listed);
        let vap = b"apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n";
        write(&dir.join("vap.yaml"), vap);
        write(
            &dir.join("deploy.yaml"),
            b"apiVersion: apps/v1\nkind: Deployment\n",
        );
        let scan = scan(std::slice::from_ref(&dir));
        let names = |paths: Vec<&PathBuf>| -> Vec<String> {
            let shown = paths.iter().map(|p| p.strip_prefix(&dir).unwrap_or(p));
            shown.map(|p| p.display().to_string()).collect()
        };
        let read = names(scan.files.iter().map(|f| &f.path).collect());
        assert_eq!(
            read,
            ["kyverno/list.yml", "kyverno/policy.yaml", "vap.yaml"]
        );
        assert_eq!(names(scan.other_yaml.iter().collect()), ["deploy.yaml"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn merged_skips_keep_their_counts_and_name_a_few() {
        let mut all = Skipped::default();
        for i in 0..4 {
            let mut one = Skipped::default();
            for j in 0..3 {
                note(&mut one.too_large, PathBuf::from(format!("{i}-{j}.yaml")));
            }
            all.merge(one);
        }
        assert_eq!(all.too_large.1, 12);
        assert_eq!(all.too_large.0.len(), NAMED);
        assert!(all.lines()[0].ends_with("and 7 more)"), "{:?}", all.lines());
    }
}
