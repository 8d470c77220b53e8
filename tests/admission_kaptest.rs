//! Runs every kaptest manifest in `../shared/conformance/kaptest/` (as it is) and checks that every
//! expectation matches; prints the count. Skipped with a notice when the folder is absent.

use std::path::{Path, PathBuf};

use admission_ls::ide::run::run_tests;

fn manifests(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            manifests(&path, out);
        } else if path.file_name().is_some_and(|n| n == "kaptest.yaml") {
            out.push(path);
        }
    }
}

#[test]
fn every_kaptest_expectation_matches() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/kaptest");
    if !root.is_dir() {
        println!("skipped: {} is absent", root.display());
        return;
    }
    let mut paths = Vec::new();
    manifests(&root, &mut paths);
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            (p.display().to_string(), text)
        })
        .collect();
    let load = |p: &str| std::fs::read_to_string(p).map_err(|e| e.to_string());
    let reports = run_tests(&files, &load);
    let mut failures = Vec::new();
    let (mut total, mut passed) = (0, 0);
    for report in &reports {
        failures.extend(
            report
                .errors
                .iter()
                .map(|e| format!("{}: {e}", report.path)),
        );
        for case in &report.cases {
            total += 1;
            if case.passed {
                passed += 1;
            } else {
                failures.push(format!(
                    "{}: {}: {:?} {:?}",
                    report.path, case.name, case.error, case.failures
                ));
            }
        }
    }
    println!(
        "kaptest: {passed}/{total} expectations match ({} manifests)",
        reports.len()
    );
    assert_eq!(reports.len(), 7, "expected 7 kaptest manifests");
    assert_eq!(total, 27, "expected 27 expectations");
    assert!(failures.is_empty(), "{failures:#?}");
}
