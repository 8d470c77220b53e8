//! The sharing of documents' models (`models.rs`), shown by how many models and sets of CEL trees
//! each request reads: every feature on a document shares one read, a request on a large file
//! reads the document it is about only, an edit keeps the models of the documents it did not
//! move, and a hover before the diagnostics run checks no other document. Every answer given from
//! a shared model is compared with a fresh host's.

use std::sync::Arc;

use expect_test::{Expect, expect};

use super::{Analysis, AnalysisHost, DiagnosticsConfig, FileId, TextRange, TextSize};

const FILE: FileId = FileId(1);

fn policy(name: &str, prefix: &str) -> String {
    format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {name}
spec:
  variables:
  - name: who
    expression: object.metadata.name
  validations:
  - expression: variables.who.startsWith({prefix})
"
    )
}

/// `count` policies, the one at `odd` with `odd_prefix` as its argument.
fn policies(count: usize, odd: usize, odd_prefix: &str) -> String {
    let documents: Vec<String> = (0..count)
        .map(|i| policy(&format!("p{i}"), if i == odd { odd_prefix } else { "'a'" }))
        .collect();
    documents.join("---\n")
}

/// The offset just after the `nth` occurrence of `needle` in `text`.
fn after(text: &str, needle: &str, nth: usize) -> TextSize {
    let at = text.match_indices(needle).nth(nth).map_or(0, |(i, _)| i);
    TextSize::from((at + needle.len()) as u32)
}

/// One request at the `nth` expression of the file and a summary of its answer.
type Request = fn(&Analysis, &str, usize) -> String;

const HOVER: Request = |analysis, text, nth| {
    let hover = analysis.hover(FILE, after(text, "startsW", nth), &config());
    let markdown = hover.map(|h| h.markdown).unwrap_or_default();
    format!("hover {:?}", markdown.lines().nth(1).unwrap_or_default())
};

const COMPLETION: Request = |analysis, text, nth| {
    let items = analysis.completions(FILE, after(text, "variables.who.", nth), &config());
    format!("{} items", items.len())
};

const SIGNATURE: Request = |analysis, text, nth| {
    let help = analysis.signature_help(FILE, after(text, "startsWith(", nth), &config());
    format!("{:?} signatures", help.map_or(0, |h| h.signatures.len()))
};

const HINTS: Request = |analysis, text, nth| {
    let start = after(text, "kind: ValidatingAdmissionPolicy", nth);
    let range = TextRange::new(start, after(text, "startsWith(", nth));
    let hints = analysis.inlay_hints(FILE, range, &config());
    let labels: Vec<String> = hints.into_iter().map(|h| h.label).collect();
    format!("hints {labels:?}")
};

const REFERENCES: Request = |analysis, text, nth| {
    let found = analysis.references(FILE, after(text, "variables.", nth));
    format!("{} references", found.len())
};

const DEFINITION: Request = |analysis, text, nth| {
    let found = analysis.goto_definition(FILE, after(text, "variables.", nth), &config());
    format!("{} definitions", found.len())
};

const TOKENS: Request = |analysis, _, _| {
    let tokens = analysis.semantic_tokens(FILE);
    format!("{} tokens", tokens.len())
};

fn config() -> DiagnosticsConfig {
    DiagnosticsConfig::default()
}

/// Runs each request on a new snapshot of `host` at the `nth` expression, checks its answer
/// against a fresh host's, and lists how many models and trees it read, and a summary of the answer.
fn reads(host: &AnalysisHost, requests: &[(&str, Request, usize)]) -> String {
    let mut out = String::new();
    for (name, request, nth) in requests {
        let analysis = host.snapshot();
        let text = analysis.file_text(FILE).unwrap_or_else(|| Arc::from(""));
        let before = analysis.model_reads();
        let answer = request(&analysis, &text, *nth);
        let after = analysis.model_reads();
        let mut fresh = AnalysisHost::new();
        fresh.set_file(FILE, text.clone());
        assert_eq!(answer, request(&fresh.snapshot(), &text, *nth), "{name}");
        let (models, trees) = (after.models - before.models, after.trees - before.trees);
        out.push_str(&format!(
            "{name} #{nth}: models +{models}, trees +{trees} ({answer})\n"
        ));
    }
    out
}

fn check(host: &AnalysisHost, requests: &[(&str, Request, usize)], expect: Expect) {
    expect.assert_eq(&reads(host, requests));
}

fn host(text: &str) -> AnalysisHost {
    let mut host = AnalysisHost::new();
    host.set_file(FILE, Arc::from(text));
    host
}

#[test]
fn every_feature_on_a_document_shares_one_read_of_its_model() {
    let host = host(&policies(1, 0, "'a'"));
    let requests = [
        ("hover", HOVER, 0),
        ("completion", COMPLETION, 0),
        ("signature help", SIGNATURE, 0),
        ("inlay hints", HINTS, 0),
        ("references", REFERENCES, 0),
        ("definition", DEFINITION, 0),
        ("semantic tokens", TOKENS, 0),
        ("hover again", HOVER, 0),
    ];
    check(
        &host,
        &requests,
        expect![[r#"
            hover #0: models +1, trees +1 (hover "bool")
            completion #0: models +0, trees +0 (99 items)
            signature help #0: models +0, trees +0 (1 signatures)
            inlay hints #0: models +0, trees +0 (hints [": dyn"])
            references #0: models +0, trees +0 (2 references)
            definition #0: models +0, trees +0 (1 definitions)
            semantic tokens #0: models +0, trees +0 (7 tokens)
            hover again #0: models +0, trees +0 (hover "bool")
        "#]],
    );
}

#[test]
fn a_request_on_a_large_file_reads_the_document_it_is_about_only() {
    let host = host(&policies(1_000, 0, "'a'"));
    // Semantic tokens cover the whole file: they read every model but keep none (a thousand
    // kept models would outweigh the time), so a second request reads them again, except the
    // one a hover has kept.
    let requests = [
        ("hover", HOVER, 500),
        ("completion", COMPLETION, 500),
        ("signature help", SIGNATURE, 500),
        ("inlay hints", HINTS, 500),
        ("semantic tokens", TOKENS, 0),
        ("semantic tokens again", TOKENS, 0),
        ("hover elsewhere", HOVER, 20),
    ];
    check(
        &host,
        &requests,
        expect![[r#"
            hover #500: models +1, trees +1 (hover "bool")
            completion #500: models +0, trees +0 (99 items)
            signature help #500: models +0, trees +0 (1 signatures)
            inlay hints #500: models +0, trees +0 (hints [": dyn"])
            semantic tokens #0: models +999, trees +0 (7000 tokens)
            semantic tokens again #0: models +999, trees +0 (7000 tokens)
            hover elsewhere #20: models +1, trees +1 (hover "bool")
        "#]],
    );
}

#[test]
fn an_edit_keeps_the_models_of_the_documents_it_neither_changed_nor_moved() {
    let mut host = host(&policies(3, 2, "'a'"));
    let first = reads(&host, &[("hover", HOVER, 0), ("hover", HOVER, 2)]);
    expect![[r#"
        hover #0: models +1, trees +1 (hover "bool")
        hover #2: models +1, trees +1 (hover "bool")
    "#]]
    .assert_eq(&first);

    // The last document changes: the first is where it was, its model is reused.
    host.set_file(FILE, Arc::from(policies(3, 2, "'abc'")));
    let requests = [("hover", HOVER, 0), ("hover", HOVER, 2)];
    check(
        &host,
        &requests,
        expect![[r#"
            hover #0: models +0, trees +0 (hover "bool")
            hover #2: models +1, trees +1 (hover "bool")
        "#]],
    );

    // A line above every document moves them all: their ranges changed, so their models are
    // read again (only when a request needs them).
    let moved = format!("# moved\n{}", policies(3, 2, "'abc'"));
    host.set_file(FILE, Arc::from(moved));
    check(
        &host,
        &requests,
        expect![[r#"
            hover #0: models +1, trees +1 (hover "bool")
            hover #2: models +1, trees +1 (hover "bool")
        "#]],
    );
}

#[test]
fn a_hover_before_the_diagnostics_run_checks_the_document_under_the_cursor_only() {
    let text = policies(1_000, 500, "1");
    let host = host(&text);
    let offset = after(&text, "startsW", 500);
    let hover = host.snapshot().hover(FILE, offset, &config());
    let markdown = hover.map(|h| h.markdown).unwrap_or_default();
    // No run: the document cache was not filled, the memo not written.
    assert_eq!(host.snapshot().checked_documents(FILE), None);

    // The run's diagnostic at the cursor is the one the hover showed.
    let diagnostics = host.snapshot().diagnostics(FILE, &config());
    assert_eq!(host.snapshot().checked_documents(FILE), Some(1_000));
    let under: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d.range.contains_inclusive(offset))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(under.len(), 1, "{} diagnostics", diagnostics.len());
    assert!(markdown.contains(under[0]), "{markdown}");
}

/// The hover (range and text) on each document's expression of `host`'s file; every model is
/// kept afterwards.
fn hovers(host: &AnalysisHost, count: usize) -> Vec<Option<super::HoverResult>> {
    let analysis = host.snapshot();
    let text = analysis.file_text(FILE).unwrap_or_else(|| Arc::from(""));
    let offsets = (0..count).map(|nth| after(&text, "startsW", nth));
    offsets
        .map(|at| analysis.hover(FILE, at, &config()))
        .collect()
}

#[test]
fn models_carried_over_any_one_line_edit_answer_as_a_fresh_host_does() {
    let text = policies(3, 1, "'b'");
    let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
    let edits = line_starts.flat_map(|at| {
        // A line inserted (what follows moves), and a character replaced in place (nothing moves).
        let inserted = format!("{}# note\n{}", &text[..at], &text[at..]);
        let replaced = match text[at..].chars().next() {
            Some(c) if c.is_ascii_alphabetic() => {
                let other = if c == 'x' { "y" } else { "x" };
                Some(format!("{}{other}{}", &text[..at], &text[at + 1..]))
            }
            _ => None,
        };
        std::iter::once(inserted).chain(replaced)
    });
    let mut carried = 0;
    for edited in edits {
        let mut warm = host(&text);
        hovers(&warm, 3);
        let before = warm.snapshot().model_reads().models;
        warm.set_file(FILE, Arc::from(edited.as_str()));
        let answers = hovers(&warm, 3);
        carried += 3 - (warm.snapshot().model_reads().models - before);
        assert_eq!(answers, hovers(&host(&edited), 3), "{edited}");
    }
    // Edits below or beside a document, and those in place, leave its model to be carried.
    assert!(carried > 0);
}
