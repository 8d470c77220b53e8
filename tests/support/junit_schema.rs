//! A test-only validator for JUnit XML against the rules of the Jenkins xUnit plugin's
//! `junit-10.xsd` (jenkinsci/xunit-plugin, `src/main/resources/org/jenkinsci/plugins/xunit/types/
//! model/xsd/junit-10.xsd`, MIT licence): the schema CI servers read JUnit reports with. The
//! schema file is not vendored; its rules are written out here as data: for each element, the
//! attributes it may have, those it must have, and the child elements it may contain; `time` is a
//! `SUREFIRE_TIME` (digits with an optional fraction).

use roxmltree::{Document, Node};

/// An element's rules: its name, the attributes it may have, those it must have, and the child
/// elements it may contain.
type ElementRule = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

const ELEMENTS: &[ElementRule] = &[
    (
        "testsuites",
        &["name", "time", "tests", "failures", "errors"],
        &[],
        &["testsuite"],
    ),
    (
        "testsuite",
        &[
            "name",
            "tests",
            "failures",
            "errors",
            "group",
            "time",
            "skipped",
            "timestamp",
            "hostname",
            "id",
            "package",
            "file",
            "log",
            "url",
        ],
        &["name", "tests", "failures", "errors"],
        &[
            "testsuite",
            "properties",
            "testcase",
            "system-out",
            "system-err",
        ],
    ),
    (
        "testcase",
        &["name", "time", "classname", "group"],
        &["name"],
        &[
            "skipped",
            "error",
            "failure",
            "rerunFailure",
            "rerunError",
            "flakyFailure",
            "flakyError",
            "system-out",
            "system-err",
        ],
    ),
    ("failure", &["type", "message"], &[], &[]),
    ("error", &["type", "message"], &[], &[]),
    ("skipped", &["type", "message"], &[], &[]),
    ("properties", &[], &[], &["property"]),
    ("property", &["name", "value"], &["name", "value"], &[]),
    ("system-out", &[], &[], &[]),
    ("system-err", &[], &[], &[]),
];

/// `SUREFIRE_TIME`: `(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?`, i.e. digits (optionally
/// grouped by commas) with an optional fraction.
fn is_surefire_time(text: &str) -> bool {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    whole.chars().all(|c| c.is_ascii_digit() || c == ',')
        && fraction.chars().all(|c| c.is_ascii_digit())
}

/// Every violation of the schema in `xml`, as readable lines (empty: valid).
pub fn violations(xml: &str) -> Vec<String> {
    let document = match Document::parse(xml) {
        Ok(document) => document,
        Err(e) => return vec![format!("not well-formed XML: {e}")],
    };
    let root = document.root_element();
    let mut found = Vec::new();
    if !matches!(root.tag_name().name(), "testsuites" | "testsuite") {
        found.push(format!("root element <{}>", root.tag_name().name()));
    }
    check(root, &mut found);
    found
}

fn check(node: Node<'_, '_>, found: &mut Vec<String>) {
    let name = node.tag_name().name();
    let Some((_, allowed, required, children)) = ELEMENTS.iter().find(|(n, ..)| *n == name) else {
        found.push(format!("<{name}> is not an element of the schema"));
        return;
    };
    for attribute in node.attributes() {
        if !allowed.contains(&attribute.name()) {
            found.push(format!("<{name}> has attribute {}", attribute.name()));
        }
        if attribute.name() == "time"
            && (name == "testsuite" || name == "testsuites")
            && !is_surefire_time(attribute.value())
        {
            found.push(format!(
                "<{name} time=\"{}\"> is not a SUREFIRE_TIME",
                attribute.value()
            ));
        }
    }
    for attribute in *required {
        if node.attribute(*attribute).is_none() {
            found.push(format!("<{name}> lacks required attribute {attribute}"));
        }
    }
    for child in node.children().filter(Node::is_element) {
        if !children.contains(&child.tag_name().name()) {
            found.push(format!("<{}> inside <{name}>", child.tag_name().name()));
        }
        check(child, found);
    }
}
