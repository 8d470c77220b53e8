//! `admission-ls test [PATH…] [--format text|json|junit]`: finds suite files (`*.yaml`, `*.yml`,
//! recursively; files that are not suites are skipped), runs them, prints the results with a diff
//! for each failing case, and exits 1 if any case failed, 2 on usage or I/O errors.

use std::path::{Path, PathBuf};

use admission_ls::ide::run::{SuiteReport, run_tests, tests_json};
use clap::ValueEnum;

/// Arguments of `test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Suite files and folders.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TestFormat::Text)]
    pub format: TestFormat,
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
}

/// Suite candidates under `path`: a named file as it is, `*.yaml`/`*.yml` files in folders.
fn walk(path: &Path, named: bool, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for entry in entries {
            walk(&entry, false, out)?;
        }
    } else if named || path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// Runs `test`.
pub fn run(args: &TestArgs) -> i32 {
    let mut files = Vec::new();
    for path in &args.paths {
        let mut found = Vec::new();
        if let Err(e) = walk(path, true, &mut found) {
            eprintln!(
                "admission-ls test: error: cannot read {}: {e}",
                path.display()
            );
            return 2;
        }
        for file in found {
            match std::fs::read_to_string(&file) {
                Ok(text) => files.push((file.display().to_string(), text)),
                Err(e) => {
                    eprintln!(
                        "admission-ls test: error: cannot read {}: {e}",
                        file.display()
                    );
                    return 2;
                }
            }
        }
    }
    let load = |p: &str| std::fs::read_to_string(p).map_err(|e| e.to_string());
    let reports = run_tests(&files, &load);
    match args.format {
        TestFormat::Text => print!("{}", render_text(&reports)),
        TestFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&tests_json(&reports)).unwrap_or_default()
        ),
        TestFormat::Junit => print!("{}", render_junit(&reports)),
    }
    i32::from(!reports.iter().all(SuiteReport::passed))
}

/// The text report.
pub fn render_text(reports: &[SuiteReport]) -> String {
    let mut out = String::new();
    let (mut passed, mut failed) = (0, 0);
    for report in reports {
        if report.name == report.path {
            out.push_str(&format!("{}\n", report.path));
        } else {
            out.push_str(&format!("{} ({})\n", report.path, report.name));
        }
        for e in &report.errors {
            out.push_str(&format!("  error: {e}\n"));
        }
        for case in &report.cases {
            if case.passed {
                passed += 1;
                out.push_str(&format!("  ok    {}\n", case.name));
                continue;
            }
            failed += 1;
            out.push_str(&format!("  FAIL  {}\n", case.name));
            for line in case
                .error
                .iter()
                .chain(&case.failures)
                .flat_map(|t| t.lines())
            {
                out.push_str(&format!("        {line}\n"));
            }
        }
    }
    out.push_str(&format!("{passed} passed, {failed} failed\n"));
    out
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The JUnit XML report.
pub fn render_junit(reports: &[SuiteReport]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for report in reports {
        let failures = report.cases.iter().filter(|c| !c.passed).count();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\">\n",
            xml(&report.path),
            report.cases.len(),
            report.errors.len()
        ));
        for case in &report.cases {
            out.push_str(&format!(
                "    <testcase name=\"{}\" classname=\"{}\"",
                xml(&case.name),
                xml(&case.policy)
            ));
            if case.passed {
                out.push_str("/>\n");
                continue;
            }
            let text: Vec<&str> = case
                .error
                .iter()
                .chain(&case.failures)
                .map(String::as_str)
                .collect();
            let first = text
                .first()
                .and_then(|t| t.lines().next())
                .unwrap_or("failed");
            out.push_str(&format!(
                ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                xml(first),
                xml(&text.join("\n"))
            ));
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
