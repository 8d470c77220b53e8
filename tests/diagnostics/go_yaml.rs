//! YAML read as kubectl reads it: go-yaml v2 (go.yaml.in/yaml/v2, through sigs.k8s.io/yaml) and
//! apimachinery's document splitting. Each expectation is what kubectl does with the same text.

use crate::check_diagnostics;
use expect_test::expect;

/// Merge keys bring in the anchored mapping's fields (go.yaml.in/yaml/v2 `decode.go` `merge`):
/// no unknown `<<` field, and the required fields the merge supplies are there.
#[test]
fn merge_keys_supply_fields() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: merged}
spec:
  matchConstraints:
    resourceRules:
    - &rule {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
    - <<: *rule
      resources: [statefulsets]
  validations:
  - &check
    expression: "object.spec.replicas <= 5"
    message: too many replicas
  - <<: *check
    expression: "object.spec.replicas >= 'one'"
"#,
        expect![[r#"
            policy.yaml:15:39: error[cel-no-overload] (fails at admission): spec.validations[1].expression: found no matching overload for '_>=_' applied to '(int, string)' (in apps/v1, Kind=Deployment and apps/v1, Kind=StatefulSet)
               |
            15 |     expression: "object.spec.replicas >= 'one'"
               |                                       ^^
        "#]],
    );
}

/// A merge of a scalar fails go-yaml's decoding, so kubectl refuses the document.
#[test]
fn a_merge_of_a_scalar_is_refused() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: merged}
spec:
  failurePolicy: &fail Fail
  matchConstraints:
    <<: *fail
"#,
        expect![[r#"
            policy.yaml:7:9: error[yaml-syntax] (refused on create): map merge requires map or sequence of maps as the value
              |
            7 |     <<: *fail
              |         ^
        "#]],
    );
}

/// kubectl splits the file at lines starting with `---` and refuses one with content after the
/// dashes (apimachinery `pkg/util/yaml/decoder.go` `YAMLReader`); a `%YAML` directive is then
/// alone before its `---`, which go-yaml refuses ("did not find expected <document start>").
#[test]
fn document_separators_kubectl_refuses() {
    check_diagnostics(
        r#"
%YAML 1.1
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: a}
spec: {policyName: a, validationActions: [Deny]}
--- # a comment is fine
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: b, validationActions: [Deny]}
--- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
"#,
        expect![[r#"
            policy.yaml:1:1: error[yaml-syntax] (refused on create): did not find expected <document start>
              |
            1 | %YAML 1.1
              | ^
            policy.yaml:11:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'b' in the workspace
               |
            11 | spec: {policyName: b, validationActions: [Deny]}
               |                    ^
            policy.yaml:12:5: error[yaml-syntax] (refused on create): invalid Yaml document separator: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
               |
            12 | --- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
               |     ^
        "#]],
    );
}

/// go-yaml v2 resolves `.inf`, `-.Inf`, `.NaN` (go.yaml.in/yaml/v2 `resolve.go`) to floats that
/// `encoding/json` cannot write, so sigs.k8s.io/yaml (`yaml.go` `yamlToJSONTarget`) fails and
/// kubectl refuses the document; as a key (`convertToJSONableObject`), quoted, or overwritten by
/// a later value of the same key, it is fine.
#[test]
fn infinity_and_nan_values_are_refused() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: a
  annotations: {b: ".nan"}
spec: {policyName: a, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: b
  labels: [-.Inf]
spec: {policyName: b, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: c, annotations: {x: !!float .NaN}}
spec: {policyName: c, validationActions: [Deny]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: d}
data: {.inf: key, c: .nan, c: fine}
"#,
        expect![[r#"
            policy.yaml:6:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'a' in the workspace
              |
            6 | spec: {policyName: a, validationActions: [Deny]}
              |                    ^
            policy.yaml:12:12: error[yaml-syntax] (refused on create): json: unsupported value: -Inf
               |
            12 |   labels: [-.Inf]
               |            ^^^^^
            policy.yaml:17:46: error[yaml-syntax] (refused on create): json: unsupported value: NaN
               |
            17 | metadata: {name: c, annotations: {x: !!float .NaN}}
               |                                              ^^^^
        "#]],
    );
}

/// kubectl cuts the stream at `---` lines only (apimachinery `pkg/util/yaml/decoder.go`
/// `YAMLReader`) and go-yaml v2 reads one document of each chunk, stopping at its `...`
/// (go.yaml.in/yaml/v2 `yaml.go` `unmarshal`): what follows, up to the next `---`, is never
/// read, broken or not. A chunk that starts with `...` is refused (`parserc.go`
/// `yaml_parser_parse_node`: "did not find expected node content").
#[test]
fn content_after_a_document_end_is_not_read() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: a}
spec: {policyName: a, validationActions: [Deny]}
...
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: not-read}
spec: {policyName: [unclosed
%YAML 1.1
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: b, validationActions: [Deny]}
---
# a chunk whose first token ends the document
...
"#,
        expect![[r#"
            policy.yaml:4:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'a' in the workspace
              |
            4 | spec: {policyName: a, validationActions: [Deny]}
              |                    ^
            policy.yaml:15:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'b' in the workspace
               |
            15 | spec: {policyName: b, validationActions: [Deny]}
               |                    ^
            policy.yaml:18:1: error[yaml-syntax] (refused on create): did not find expected node content
               |
            18 | ...
               | ^
        "#]],
    );
}

/// go-yaml v2 refuses a document whose decoding is mostly alias expansion: past 1,000 decodes
/// and 100 of them inside aliases, more than 99% from aliases (go.yaml.in/yaml/v2 `decode.go`
/// `unmarshal`, `allowedAliasRatio`). Here the fourth `*c` passes it.
#[test]
fn excessive_aliasing_is_refused() {
    check_diagnostics(
        r#"
apiVersion: v1
kind: ConfigMap
metadata: {name: laughs}
data:
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
"#,
        expect![[r#"
            policy.yaml:8:19: error[yaml-syntax] (refused on create): document contains excessive aliasing
              |
            8 |   d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
              |                   ^
        "#]],
    );
}

/// Files joined with `---` lines keep their byte order marks: kubectl hands go-yaml the text
/// after each `---` line as a new stream (apimachinery `pkg/util/yaml/decoder.go` `YAMLReader`),
/// whose leading mark go-yaml skips (go.yaml.in/yaml/v2 `readerc.go`
/// `yaml_parser_determine_encoding`), so the document reads as if the mark were not there.
#[test]
fn a_byte_order_mark_starting_a_document_is_skipped() {
    check_diagnostics(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n\u{feff}apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: b, validationActions: [Deny], extra: 1}\n",
        expect![[r#"
            policy.yaml:8:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'b' in the workspace
              |
            8 | spec: {policyName: b, validationActions: [Deny], extra: 1}
              |                    ^
            policy.yaml:8:50: warning[unknown-field] (accepted): unknown field "spec.extra"
              |
            8 | spec: {policyName: b, validationActions: [Deny], extra: 1}
              |                                                  ^^^^^
        "#]],
    );
}

/// go-yaml v2 decodes a `!!binary` scalar with Go's `base64.StdEncoding`, which skips line
/// breaks and nothing else, and refuses the document when that fails (go.yaml.in/yaml/v2
/// `decode.go` `scalar`: "!!binary value contains invalid base64 data").
#[test]
fn binary_scalars_must_be_base64() {
    check_diagnostics(
        r#"
apiVersion: v1
kind: ConfigMap
metadata: {name: good}
data:
  a: !!binary |
    aGVs
    bG8=
---
apiVersion: v1
kind: ConfigMap
metadata: {name: bad}
data:
  a: !!binary aGVs bG8=
"#,
        expect![[r#"
            policy.yaml:13:15: error[yaml-syntax] (refused on create): !!binary value contains invalid base64 data
               |
            13 |   a: !!binary aGVs bG8=
               |               ^^^^^^^^^
        "#]],
    );
}
