//! A readable line diff of two JSON documents (pretty-printed), for failing expectations: `-` lines
//! are expected, `+` lines actual, with two lines of context around each change.

use serde_json::Value as Json;

/// The most lines compared with the quadratic diff; longer documents are shown whole.
const MAX_LINES: usize = 2_000;

/// The diff of `expected` and `actual` as lines.
pub fn json_diff(expected: &Json, actual: &Json) -> Vec<String> {
    let pretty = |j: &Json| serde_json::to_string_pretty(j).unwrap_or_default();
    let (a, b) = (pretty(expected), pretty(actual));
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    if a.len() > MAX_LINES || b.len() > MAX_LINES {
        let mut out: Vec<String> = a.iter().map(|l| format!("-{l}")).collect();
        out.extend(b.iter().map(|l| format!("+{l}")));
        return out;
    }
    with_context(&edits(&a, &b))
}

fn edits(a: &[&str], b: &[&str]) -> Vec<String> {
    // Longest common subsequence table, from the ends.
    let mut table = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i][j] = if a[i] == b[j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(format!(" {}", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || table[i][j + 1] >= table[i + 1][j]) {
            out.push(format!("+{}", b[j]));
            j += 1;
        } else {
            out.push(format!("-{}", a[i]));
            i += 1;
        }
    }
    out
}

fn with_context(lines: &[String]) -> Vec<String> {
    let changed: Vec<bool> = lines.iter().map(|l| !l.starts_with(' ')).collect();
    let near = |i: usize| {
        let lo = i.saturating_sub(2);
        let hi = (i + 3).min(lines.len());
        changed[lo..hi].iter().any(|c| *c)
    };
    let mut out = Vec::new();
    let mut skipped = false;
    for (i, line) in lines.iter().enumerate() {
        if near(i) {
            if skipped {
                out.push(" …".to_string());
                skipped = false;
            }
            out.push(line.clone());
        } else {
            skipped = true;
        }
    }
    out
}
