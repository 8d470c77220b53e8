//! What an edit invalidates ([`Analysis::affected_by`]): an edit that keeps a file's contribution
//! (its CRDs, policy names and paramKinds, named objects) affects no other file; one that changes
//! it affects every other file; a file that contributes nothing has [`Contribution::NONE`].

use std::sync::Arc;

use super::{Analysis, AnalysisHost, Contribution, FileId};

const EDITED: FileId = FileId(1);
const OTHER: FileId = FileId(2);

const POLICY: &str = "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: limits}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  validations:
  - expression: 'true'
";

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, properties: {size: {type: integer}}}
";

const BINDING: &str = "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: limits, validationActions: [Deny]}
";

fn snapshot(edited: &str) -> Analysis {
    let mut host = AnalysisHost::new();
    host.set_file(EDITED, Arc::from(edited));
    host.set_file(OTHER, Arc::from(BINDING));
    host.snapshot()
}

/// The files an edit from `before` to `after` of [`EDITED`] affects.
fn affected(before: &str, after: &str) -> Vec<FileId> {
    let contributed = snapshot(before).contribution(EDITED);
    snapshot(after).affected_by(EDITED, contributed)
}

#[test]
fn edits_that_keep_the_contribution_affect_no_other_file() {
    let cases = [
        (POLICY, POLICY.replace("'true'", "'false'")),
        (
            CRD,
            CRD.replace("scope: Namespaced", "scope: Namespaced # a comment"),
        ),
        (BINDING, BINDING.replace("[Deny]", "[Warn]")),
    ];
    for (before, after) in cases {
        assert_eq!(affected(before, &after), [], "{after}");
    }
}

#[test]
fn edits_that_change_the_contribution_affect_the_other_files() {
    let cases = [
        POLICY.replace("name: limits", "name: limit"),
        POLICY.replace("kind: ConfigMap", "kind: Secret"),
        CRD.replace("type: integer", "type: string"),
        CRD.replace("plural: widgets", "plural: gadgets"),
        POLICY.replace("{name: limits}", "{name: limits, namespace: n}"),
    ];
    for after in cases {
        let before = if after.contains("CustomResourceDefinition") {
            CRD
        } else {
            POLICY
        };
        assert_eq!(affected(before, &after), [OTHER], "{after}");
    }
}

#[test]
fn a_file_that_contributes_nothing_has_no_contribution() {
    assert_eq!(snapshot("a: 1\n").contribution(EDITED), Contribution::NONE);
    assert_eq!(
        snapshot("a: 1\n").contribution(FileId(9)),
        Contribution::NONE
    );
    assert_ne!(snapshot(POLICY).contribution(EDITED), Contribution::NONE);
    // A new file that contributes something affects the others; one that does not, none.
    assert_eq!(
        snapshot(POLICY).affected_by(EDITED, Contribution::NONE),
        [OTHER]
    );
    assert_eq!(
        snapshot("a: 1\n").affected_by(EDITED, Contribution::NONE),
        []
    );
}

#[test]
fn an_older_snapshot_answers_its_contribution_without_taking_the_newer_tree() {
    // The server asks a run's snapshot for its contribution after publishing, when the run of the
    // next keystroke may already have parsed the newer text.
    let mut host = AnalysisHost::new();
    host.set_file(EDITED, Arc::from(POLICY));
    let config = super::DiagnosticsConfig::default();
    let older = host.snapshot();
    older.diagnostics(EDITED, &config);
    let renamed = POLICY.replace("name: limits", "name: quotas");
    host.set_file(EDITED, Arc::from(renamed.as_str()));
    let newer = host.snapshot();
    newer.diagnostics(EDITED, &config);
    let tree_before = newer.line_index(EDITED);

    assert_eq!(
        older.contribution(EDITED),
        snapshot(POLICY).contribution(EDITED)
    );
    assert_ne!(older.contribution(EDITED), newer.contribution(EDITED));
    let tree_after = newer.line_index(EDITED);
    let same = tree_before
        .zip(tree_after)
        .is_some_and(|(a, b)| Arc::ptr_eq(&a, &b));
    assert!(same, "the newer text's parse was kept, not read again");
}
