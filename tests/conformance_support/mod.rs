//! Helpers shared by the conformance runners: where the upstream data is (skipping with a notice
//! when it is absent), reading its JSON, comparing pass counts with a recorded baseline, and
//! cel-go's 1-based line:column.

// Each runner uses a different part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

pub fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("conformance data not found at {}; skipping", dir.display());
        None
    }
}

/// `../shared/conformance/<relative>` (a file or folder), or `None` with a notice when it is
/// absent, so that the runner skips.
pub fn data_path(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance")
        .join(relative);
    if path.exists() {
        Some(path)
    } else {
        println!("conformance data not found at {}; skipping", path.display());
        None
    }
}

/// The text of a data file (a test failure when it cannot be read).
pub fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

pub fn read_json(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// The recorded baseline `tests/conformance/<file>`.
fn baseline(file: &str) -> Value {
    read_json(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/conformance")
            .join(file),
    )
}

/// The array under `key` of a JSON object, empty when the key is absent or not an array.
pub fn array_at(value: &Value, key: &str) -> Vec<Value> {
    value
        .get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The groups of `kubernetes-cel-library/crd_validation_rules.json`, read by two runners; `None`
/// (with the notice) when the data is absent.
pub fn crd_rule_groups() -> Option<Vec<Value>> {
    let path = data_path("kubernetes-cel-library/crd_validation_rules.json")?;
    Some(array_at(&read_json(&path), "groups"))
}

/// Compares `passed` with the baseline recorded in `file` for `key`; returns a failure line if it
/// dropped.
pub fn against_baseline(
    file: &str,
    section: &str,
    key: &str,
    passed: u64,
    total: u64,
) -> Option<String> {
    let recorded = baseline(file)[section][key].as_u64().unwrap_or(0);
    println!("{section}/{key}: {passed}/{total} (baseline {recorded})");
    if passed > recorded {
        println!("  notice: {section}/{key} rose above the baseline; raise it to {passed}");
    }
    (passed < recorded).then(|| format!("{section}/{key}: {passed} < baseline {recorded}"))
}

/// Compares `passed` with the flat baseline `tests/conformance/<file>` (`{"key": passed}`);
/// returns a failure line if it dropped.
pub fn against_flat_baseline(file: &str, key: &str, passed: u64, total: u64) -> Option<String> {
    let recorded = baseline(file)[key].as_u64().unwrap_or(0);
    println!("{key}: {passed}/{total} (baseline {recorded})");
    if passed > recorded {
        println!("  notice: {key} rose above the baseline; raise it to {passed} in {file}");
    }
    (passed < recorded).then(|| format!("{key}: {passed} < baseline {recorded}"))
}

/// 1-based line and column in code points, as cel-go reports them.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let prefix = src.get(..offset).unwrap_or(src);
    let line = prefix.matches('\n').count() + 1;
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let col = prefix.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}
