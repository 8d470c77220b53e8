//! Queries shared across the snapshots of a host: a file's parse is made once per text and read by
//! every feature, and a hover or quick fix reads the diagnostics of the last run instead of
//! checking the file again.

use std::sync::Arc;

use super::{AnalysisHost, DiagnosticsConfig, FileId, TextRange, TextSize};

const FILE: FileId = FileId(1);

const POLICY: &str = "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  validations:
  - expression: object.metadata.name == 1
";

fn host(text: &str) -> AnalysisHost {
    let mut host = AnalysisHost::new();
    host.set_file(FILE, Arc::from(text));
    host
}

#[test]
fn snapshots_of_the_same_text_share_one_parse() {
    let mut host = host(POLICY);
    let first = host.snapshot().parsed(FILE).expect("parsed");
    let again = host.snapshot().parsed(FILE).expect("parsed");
    assert!(Arc::ptr_eq(&first, &again));
    host.set_file(FILE, Arc::from(POLICY.replace("== 1", "== 2")));
    let edited = host.snapshot().parsed(FILE).expect("parsed");
    assert!(!Arc::ptr_eq(&first, &edited));
    assert!(host.snapshot().parsed(FileId(7)).is_none());
}

#[test]
fn snapshots_of_the_same_text_share_one_line_index() {
    let mut host = host(POLICY);
    let first = host.snapshot().line_index(FILE).expect("indexed");
    assert!(Arc::ptr_eq(
        &first,
        &host.snapshot().line_index(FILE).expect("indexed")
    ));
    let line = first.line_col(TextSize::from(POLICY.len() as u32), super::Encoding::Utf8);
    assert_eq!(line.line, 6);
    host.set_file(FILE, Arc::from(POLICY.replace("== 1", "== 2")));
    let edited = host.snapshot().line_index(FILE).expect("indexed");
    assert!(!Arc::ptr_eq(&first, &edited));
    assert!(host.snapshot().line_index(FileId(7)).is_none());
}

#[test]
fn hover_and_quick_fixes_read_the_last_run_s_diagnostics() {
    let host = host(POLICY);
    let config = DiagnosticsConfig::default();
    let diagnostics = host.snapshot().diagnostics(FILE, &config);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(host.snapshot().checked_documents(FILE), Some(1));

    let offset = diagnostics[0].range.start();
    let hover = host.snapshot().hover(FILE, offset, &config);
    let markdown = hover.map(|h| h.markdown).unwrap_or_default();
    assert!(markdown.contains(&diagnostics[0].message), "{markdown}");
    assert_eq!(host.snapshot().checked_documents(FILE), Some(0));
    let everywhere = TextRange::new(TextSize::from(0), TextSize::from(POLICY.len() as u32));
    host.snapshot().code_actions(FILE, everywhere, &config);
    assert_eq!(host.snapshot().checked_documents(FILE), Some(0));

    // Other settings are other inputs: the file is checked again.
    let older = DiagnosticsConfig {
        kube_version: crate::schema::KubeVersion::parse("1.30").unwrap_or_default(),
        ..DiagnosticsConfig::default()
    };
    assert_eq!(host.snapshot().diagnostics(FILE, &older), diagnostics);
    assert_eq!(host.snapshot().checked_documents(FILE), Some(1));
}

#[test]
fn snapshots_share_the_index_and_an_edit_keeps_the_converted_schema_types() {
    let mut host = host(POLICY);
    let minor = DiagnosticsConfig::default().minor();
    let first = host.snapshot().workspace();
    let types = first.types(minor);
    assert!(Arc::ptr_eq(&first, &host.snapshot().workspace()));

    // A new text is a new index, but with the same CRDs (none) the types carry over.
    host.set_file(FILE, Arc::from(POLICY.replace("== 1", "== 2")));
    let edited = host.snapshot().workspace();
    assert!(!Arc::ptr_eq(&first, &edited));
    assert!(Arc::ptr_eq(&types, &edited.types(minor)));

    // A CRD changes what the types are: they are built again.
    let crd = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
";
    host.set_file(FileId(2), Arc::from(crd));
    let with_crd = host.snapshot().workspace();
    assert!(!Arc::ptr_eq(&types, &with_crd.types(minor)));
}
