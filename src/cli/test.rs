//! `admission-ls test [PATH…]`: finds suite files (`*.yaml`, `*.yml`, recursively; files that are
//! not suites are skipped), runs the cases `--run` selects, prints the results (text with a diff for
//! each failing case, JSON or JUnit XML; durations per case and in total) and exits 1 if any case
//! failed or errored or a suite could not be read, 2 on usage or I/O errors and when the paths hold
//! no test case at all (a run that tested nothing is not a pass).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use admission_ls::ide::KubeVersion;
use admission_ls::ide::run::{RunOptions, SuiteReport, Tally, run_tests_with, tests_json_with};
use admission_ls::ide::test_explorer::line_column;
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::policy::admission::explain;
use admission_ls::policy::suite::{Case, CaseResult, RunHooks, Suite};
use clap::ValueEnum;
use regex::Regex;

use super::{EXIT_USAGE, junit, out, test_compact, walk};
use admission_ls::ide::origin;
use admission_ls::lsp::origin::OriginFinder;
use admission_ls::lsp::test_explorer;

/// Arguments of `test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Suite files and folders.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TestFormat::Text)]
    pub format: TestFormat,
    /// Run only the cases whose name, or whose suite's name or path, matches this regular
    /// expression.
    #[arg(long = "run", value_name = "REGEX")]
    pub run: Option<String>,
    /// Print only the cases that failed or errored (and the summary).
    #[arg(short, long, visible_alias = "fail-only")]
    pub quiet: bool,
    /// Print each case's details: its decision, messages and warnings.
    #[arg(short, long)]
    pub verbose: bool,
    /// Colour in the text output: `auto` on a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Run every suite against this Kubernetes version instead of its own `kubeVersion`.
    #[arg(long, value_name = "1.NN")]
    pub kube_version: Option<KubeVersion>,
    /// Run Kyverno suites as this Kyverno release, such as 1.17: a policy calling a library
    /// function a later release added does not compile there, and its cases are errors.
    #[arg(long, value_name = "1.NN")]
    pub kyverno_version: Option<admission_ls::ide::KyvernoVersion>,
}

/// Output formats of `test`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TestFormat {
    /// Readable lines with diffs.
    Text,
    /// One JSON object.
    Json,
    /// JUnit XML.
    Junit,
    /// One `path:line:column: error: …` line per failing case, for an editor's compilation or
    /// quickfix list.
    Compact,
}

/// When the text output is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the NO_COLOR environment variable is set (and not empty).
    Auto,
    /// Always (even with NO_COLOR: an explicit option wins).
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !no_color && std::io::stdout().is_terminal()
            }
        }
    }
}

/// The suite candidates' paths and texts: a named file as it is, the `*.yaml`/`*.yml` files of a
/// named folder as `check` walks it (hidden folders, `node_modules` and `target` skipped, folder
/// symlinks not followed, so a link to a parent cannot run a suite twice). A named file that
/// cannot be read is an error; a file found in a folder that cannot be read (a FIFO, a device, one
/// over the size cap) is skipped with a warning.
fn read_files(paths: &[PathBuf]) -> Result<Vec<(String, String)>, String> {
    let mut files = Vec::new();
    for path in paths {
        let (found, errors) = walk::collect(std::slice::from_ref(path));
        // An empty folder is reported below as "no test cases found", in the test command's words.
        for error in errors.iter().filter(|e| !e.nothing_found) {
            let message = format!("{}: {}", error.path.display(), error.message);
            if error.path == *path {
                return Err(format!("cannot read {message}"));
            }
            out::error(&format!("admission-ls test: warning: {message}; skipped"));
        }
        let named = !path.is_dir();
        let mut found = found;
        if path.is_dir() {
            // Kyverno keeps its suites in hidden folders (`.kyverno-test/kyverno-test.yaml`):
            // the files a family names as its suites are found there too.
            test_explorer::hidden_suites(path, 0, &mut found);
        }
        let mut origins = OriginFinder::new();
        for file in found {
            match disk::read_text(&file, Bounds::named()) {
                // A chart template found in a folder is no suite: its actions would be evaluated
                // as text (a file named on the command line is still read).
                Ok(text) if !named && origin::is_go_template(origins.origin(&file), &text) => {}
                Ok(text) => files.push((file.display().to_string(), text)),
                Err(e) if named => return Err(format!("cannot read {}: {e}", file.display())),
                Err(e) => out::error(&format!(
                    "admission-ls test: warning: {}: {e}; skipped",
                    file.display()
                )),
            }
        }
    }
    Ok(files)
}

/// Runs `test`.
pub fn run(args: &TestArgs) -> i32 {
    let usage = |message: String| {
        out::error(&format!("admission-ls test: error: {message}"));
        EXIT_USAGE
    };
    let filter = match args.run.as_deref().map(Regex::new).transpose() {
        Ok(filter) => filter,
        Err(e) => return usage(format!("--run: {e}")),
    };
    let files = match read_files(&args.paths) {
        Ok(files) => files,
        Err(message) => return usage(message),
    };
    let load = |p: &str| disk::read_text(Path::new(p), Bounds::named()).map_err(|e| e.to_string());
    let start = Instant::now();
    let clock = || start.elapsed();
    let select = |path: &str, suite: &Suite, case: &Case| {
        filter.as_ref().is_none_or(|re| {
            re.is_match(&case.name) || re.is_match(&suite.name) || re.is_match(path)
        })
    };
    let options = RunOptions {
        hooks: RunHooks {
            select: &select,
            clock: &clock,
        },
        kube_version: args.kube_version,
        now: super::eval::now(),
        kyverno_version: args.kyverno_version,
    };
    // `-v` shows the trace of a failing case's expressions: evaluate traced.
    let mut reports = if args.verbose {
        explain::capture(|| run_tests_with(&files, &load, options)).0
    } else {
        run_tests_with(&files, &load, options)
    };
    if filter.is_some() {
        reports.retain(|r| !r.cases.is_empty() || !r.errors.is_empty());
    }
    let total = start.elapsed();
    for path in args.paths.iter().filter(|p| p.is_file()) {
        let name = path.display().to_string();
        if !reports.iter().any(|r| r.path == name) && filter.is_none() {
            out::error(&format!(
                "admission-ls test: warning: {name} holds no `kind: PolicyTest` document and no kaptest manifest; skipped"
            ));
        }
    }
    if reports
        .iter()
        .all(|r| r.cases.is_empty() && r.errors.is_empty())
    {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        let matching = args
            .run
            .as_ref()
            .map(|re| format!(" matching --run {re}"))
            .unwrap_or_default();
        return usage(format!(
            "no test cases found in {}{matching} (suites are `kind: PolicyTest` documents, kaptest manifests and gator `Suite`s)",
            paths.join(", ")
        ));
    }
    let text_of = |path: &str| {
        files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, text)| text.clone())
    };
    let text = match args.format {
        TestFormat::Text => render_text(&reports, &TextOptions::of(args), total),
        TestFormat::Json => {
            let place = |report: &SuiteReport, case: &CaseResult| {
                let text = text_of(&report.path).unwrap_or_default();
                let (line, column) = line_column(&text, case.range.start());
                let mut fields = serde_json::Map::new();
                fields.insert("line".into(), line.into());
                fields.insert("column".into(), column.into());
                fields
            };
            let mut json = tests_json_with(&reports, &place);
            json["summary"]["durationMs"] = serde_json::json!(millis(total));
            format!(
                "{}\n",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            )
        }
        TestFormat::Junit => junit::render(&reports, total),
        TestFormat::Compact => test_compact::render(&reports, &text_of, total),
    };
    out::emit(&text, i32::from(!reports.iter().all(SuiteReport::passed)))
}

/// How the text report is printed.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions {
    /// Only failing and errored cases.
    pub quiet: bool,
    /// Every case's decision, messages and warnings.
    pub verbose: bool,
    /// ANSI colours.
    pub color: bool,
}

impl TextOptions {
    fn of(args: &TestArgs) -> TextOptions {
        TextOptions {
            quiet: args.quiet,
            verbose: args.verbose,
            color: args.color.enabled(),
        }
    }
}

/// `text` in an ANSI colour (`code` such as `32` for green) when colours are on.
fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// A duration as the reports print it: milliseconds below a second, else seconds.
pub fn duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{:.1}ms", d.as_secs_f64() * 1000.0)
    } else {
        format!("{:.2}s", d.as_secs_f64())
    }
}

fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// The text report.
pub fn render_text(reports: &[SuiteReport], options: &TextOptions, total: Duration) -> String {
    let mut out = String::new();
    for report in reports {
        if options.quiet && report.passed() {
            continue;
        }
        if report.name == report.path {
            let _ = writeln!(out, "{}", report.path);
        } else {
            let _ = writeln!(out, "{} ({})", report.path, report.name);
        }
        for e in &report.errors {
            let _ = writeln!(out, "  {} {e}", paint("error:", "31;1", options.color));
        }
        for case in &report.cases {
            if !(options.quiet && case.passed) {
                render_case(&mut out, case, options);
            }
        }
    }
    let tally = Tally::of(reports);
    let mut summary = format!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.errored > 0 {
        let _ = write!(summary, ", {} errored", tally.errored);
    }
    let _ = writeln!(out, "{summary} in {}", duration(total));
    out
}

fn render_case(out: &mut String, case: &CaseResult, options: &TextOptions) {
    let (label, colour) = match (case.passed, case.error.is_some()) {
        (true, _) => ("ok   ", "32"),
        (false, true) => ("ERROR", "31;1"),
        (false, false) => ("FAIL ", "31"),
    };
    let _ = writeln!(
        out,
        "  {} {} ({})",
        paint(label, colour, options.color),
        case.name,
        duration(case.duration)
    );
    let mut details: Vec<String> = case.error.iter().chain(&case.failures).cloned().collect();
    if options.verbose
        && let Some(outcome) = &case.outcome
    {
        details.push(format!("decision: {}", outcome.decision.as_str()));
        details.extend(outcome.messages.iter().map(|m| format!("message: {m}")));
        details.extend(outcome.warnings.iter().map(|w| format!("warning: {w}")));
        if !case.passed {
            details.push(super::eval::render_traces(&outcome.explained, ""));
        }
    }
    for line in details.iter().flat_map(|t| t.lines()) {
        let _ = writeln!(out, "        {line}");
    }
}
