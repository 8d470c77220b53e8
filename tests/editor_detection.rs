//! The editor clients attach to the files of every API group the server reads: each group of
//! `policy::markers` (the built-in ones and every family's) has a case of the clients' shared
//! detection data (`editors/testdata/detection.json`) whose file attaches, and every text that case
//! attaches holds a document the workspace scan reads too.

use admission_ls::policy::markers::{holds_document, marker_groups};

/// The shared cases: (name, text, attach).
fn cases() -> Vec<(String, String, bool)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/editors/testdata/detection.json"
    );
    let text = std::fs::read_to_string(path).expect("read detection.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("detection.json is JSON");
    let cases = json["cases"].as_array().expect("a cases array");
    cases
        .iter()
        .map(|case| {
            let field = |name: &str| case[name].as_str().unwrap_or_default().to_owned();
            let attach = case["attach"].as_bool().expect("attach is a boolean");
            (field("name"), field("text"), attach)
        })
        .collect()
}

#[test]
fn every_group_the_server_reads_has_a_case_the_clients_attach() {
    let cases = cases();
    let missing: Vec<&str> = marker_groups()
        .filter(|group| {
            let api_version = format!("apiVersion: {group}/");
            !cases
                .iter()
                .any(|(_, text, attach)| *attach && text.contains(&api_version))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "groups the workspace scan reads but no attaching case of detection.json has: {missing:?}"
    );
}

#[test]
fn the_scan_reads_every_family_document_the_clients_attach() {
    let unread: Vec<String> = cases()
        .into_iter()
        .filter(|(_, text, attach)| *attach && !holds_document(text))
        .map(|(name, _, _)| name)
        .collect();
    // The clients attach suites and the groups of families still to come; the scan reads what
    // the checker has diagnostics for: the built-in groups, CRDs and every registered family.
    let expected_unread = |name: &str| {
        [
            "PolicyTest",
            "CLI test suite",
            "Gatekeeper",
            "gator",
            "DRA",
            "Authentication",
            "Authorization",
        ]
        .iter()
        .any(|part| name.contains(part))
    };
    let surprising: Vec<&String> = unread
        .iter()
        .filter(|name| !expected_unread(name))
        .collect();
    assert!(
        surprising.is_empty(),
        "attached by the clients, not read by the scan: {surprising:?}"
    );
}
