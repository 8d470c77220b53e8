//! A CustomResourceDefinition whose schema the API server would refuse gets diagnostics on the
//! offending fields of the CRD; the policy that uses it is still checked against what is usable.

use crate::check_diagnostics;
use admission_ls::ide::{DiagnosticsConfig, diagnostics_for_files};
use expect_test::expect;

const POLICY: &str = r#"#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: widgets}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
  validations:
  - expression: object.spec.size > 0 && object.spec.sise > 0
"#;

#[test]
fn schema_rules_of_the_api_server() {
    let crd = r#"#- /crd.yaml
apiVersion: apiextensions.k8s.io/v1
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
      openAPIV3Schema:
        type: object
        definitions: {}
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              parent: {$ref: '#/properties/spec'}
              nothing: {type: "null"}
              label: {type: strin}
              ports: {type: array, items: [{type: integer}]}
              labels: {type: object, properties: [a, b]}
              open: {type: object, x-kubernetes-preserve-unknown-fields: "yes"}
"#;
    check_diagnostics(
        &format!("{POLICY}{crd}"),
        expect![[r#"
            policy.yaml:9:53: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'sise'; did you mean 'size'? (in example.com/v1, Kind=Widget)
              |
            9 |   - expression: object.spec.size > 0 && object.spec.sise > 0
              |                                                     ^^^^
            crd.yaml:15:9: error[forbidden] (refused on create): spec.versions[0].schema.openAPIV3Schema.definitions: Forbidden: definitions is not supported
               |
            15 |         definitions: {}
               |         ^^^^^^^^^^^
            crd.yaml:21:24: error[forbidden] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[parent].$ref: Forbidden: $ref is not supported
               |
            21 |               parent: {$ref: '#/properties/spec'}
               |                        ^^^^
            crd.yaml:22:25: error[forbidden] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[nothing].type: Forbidden: type cannot be set to null, use nullable as an alternative
               |
            22 |               nothing: {type: "null"}
               |                         ^^^^
            crd.yaml:23:23: error[not-supported] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[label].type: Unsupported value: "strin": supported values: "array", "boolean", "integer", "number", "object", "string"
               |
            23 |               label: {type: strin}
               |                       ^^^^
            crd.yaml:24:36: error[forbidden] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ports].items: Forbidden: items must be a schema object and not an array
               |
            24 |               ports: {type: array, items: [{type: integer}]}
               |                                    ^^^^^
            crd.yaml:25:38: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[labels].properties: Invalid value: ["a","b"]: must be a map of schemas
               |
            25 |               labels: {type: object, properties: [a, b]}
               |                                      ^^^^^^^^^^
            crd.yaml:26:36: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[open].x-kubernetes-preserve-unknown-fields: Invalid value: "yes": must be a boolean
               |
            26 |               open: {type: object, x-kubernetes-preserve-unknown-fields: "yes"}
               |                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn an_enum_over_the_bound_is_a_warning() {
    let values: Vec<String> = (0..10_001).map(|n| format!("v{n}")).collect();
    let crd = format!(
        r#"#- /crd.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: Widget, plural: widgets}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {{type: integer}}
              mode: {{type: string, enum: [{}]}}
"#,
        values.join(", ")
    );
    // The enum line is too long to show as a snippet: code, position and message only.
    let files: Vec<std::sync::Arc<str>> = vec![crd.as_str().into()];
    let found = diagnostics_for_files(&files, &[], &DiagnosticsConfig::default());
    let lines: Vec<String> = found[0]
        .iter()
        .map(|d| {
            let at: usize = d.range.start().into();
            let line = crd[..at].matches('\n').count() + 1;
            let severity = format!("{:?}", d.severity).to_lowercase();
            format!(
                "crd.yaml:{line}: {severity}[{}]: {}",
                d.code.as_str(),
                d.message
            )
        })
        .collect();
    expect!["crd.yaml:21: warning[too-many]: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[mode].enum: Too many: 10001: must have at most 10000 items (admission-ls's bound; the enum is ignored)"].assert_eq(&lines.join("\n"));
}
