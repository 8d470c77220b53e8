//! The `yaml` module through its public API only, as the policy layer uses it: documents, lookups,
//! and mapping an offset inside a CEL expression back to the file.

use admission_ls::text::{TextRange, TextSize};
use admission_ls::yaml::{self, ScalarStyle};

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo
spec:
  validations:
  - expression: >-
      object.spec.replicas <= 5 &&
      object.metadata.name != \"x\"
    message: \"caf\\u00e9 is closed\"
---
kind: Broken
spec: [unclosed
---
kind: ValidatingAdmissionPolicyBinding
";

#[test]
fn reads_policies_around_a_broken_document() {
    let file = yaml::parse(POLICY);
    assert_eq!(file.documents.len(), 3);
    assert_eq!(file.errors.len(), 1);
    let flags: Vec<bool> = file.documents.iter().map(|d| d.has_errors).collect();
    assert_eq!(flags, [false, true, false]);
    let kind = |i: usize| {
        file.documents
            .get(i)
            .and_then(|d| d.root.as_ref())
            .and_then(|r| r.get("kind"))
            .and_then(|k| k.as_str())
    };
    assert_eq!(kind(0), Some("ValidatingAdmissionPolicy"));
    assert_eq!(kind(1), Some("Broken"));
    assert_eq!(kind(2), Some("ValidatingAdmissionPolicyBinding"));
}

#[test]
fn maps_expression_offsets_to_the_file() {
    let file = yaml::parse(POLICY);
    let root = file.documents.first().and_then(|d| d.root.as_ref());
    let validation = root
        .and_then(|r| r.get("spec"))
        .and_then(|s| s.get("validations"))
        .and_then(|v| v.as_sequence())
        .and_then(|v| v.first());
    let expression = validation
        .and_then(|v| v.get("expression"))
        .and_then(|e| e.as_scalar());
    let Some(expression) = expression else {
        panic!("no expression")
    };
    assert_eq!(expression.style, ScalarStyle::Folded);
    assert_eq!(
        expression.value,
        "object.spec.replicas <= 5 && object.metadata.name != \"x\""
    );
    // `object.metadata` on the second line of the folded scalar.
    let at = expression
        .value
        .find("object.metadata")
        .map(|i| TextSize::from(i as u32));
    let Some(at) = at else {
        panic!("no object.metadata")
    };
    let range = expression
        .source_map
        .to_file_range(TextRange::at(at, TextSize::from(15)));
    assert_eq!(&POLICY[range], "object.metadata");
    assert_eq!(expression.source_map.to_decoded(range.start()), Some(at));

    let message = validation
        .and_then(|v| v.get("message"))
        .and_then(|m| m.as_scalar());
    let Some(message) = message else {
        panic!("no message")
    };
    assert_eq!(message.value, "café is closed");
    let e_acute = TextRange::at(TextSize::from(3), TextSize::from(2));
    assert_eq!(
        &POLICY[message.source_map.to_file_range(e_acute)],
        "\\u00e9"
    );
}
