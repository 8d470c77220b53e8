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

/// A schema field written as `null` is absent: Go's encoding/json leaves the field of
/// apiextensions `JSONSchemaProps` at its zero value. Reduced from openshift/api
/// `route/v1/zz_generated.crd-manifests/routes.crd.yaml` (`spec.port.targetPort`), which
/// controller-gen writes with `anyOf: null` and which installs on every OpenShift cluster.
#[test]
fn null_schema_fields_are_absent() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: routes.example.com}
spec:
  group: example.com
  names: {kind: Route, plural: routes}
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
              targetPort:
                allOf:
                - not:
                    enum: [0]
                - not:
                    enum: [""]
                anyOf: null
                x-kubernetes-int-or-string: true
"#,
        expect![[r#""#]],
    );
}

/// `x-kubernetes-validations` inside `allOf`, `anyOf`, `oneOf` or `not` is not structural: the
/// API server forbids it in every value validation (apiextensions-apiserver
/// `pkg/apiserver/schema/validation.go` `validateValueValidation` turns `AllowNestedXValidations`
/// off for them, and `ValidateStructural` never turns it on), with `must be empty to be structural`.
#[test]
fn rules_inside_value_validations_are_not_structural() {
    check_diagnostics(
        r#"
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
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
            anyOf:
            - x-kubernetes-validations:
              - rule: self.replicas > 0
            not:
              properties:
                replicas:
                  x-kubernetes-validations:
                  - rule: self < 100
"#,
        expect![[r#"
            policy.yaml:21:15: error[forbidden] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural
               |
            21 |             - x-kubernetes-validations:
               |               ^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:26:19: error[forbidden] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].not.properties[replicas].x-kubernetes-validations: Forbidden: must be empty to be structural
               |
            26 |                   x-kubernetes-validations:
               |                   ^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// An `x-kubernetes-map-type` other than `atomic` or `granular` is refused (apiextensions-apiserver
/// `pkg/apis/apiextensions/validation/validation.go`, `field.NotSupported`), and with it the node's
/// rules are not compiled, so a transition rule there is refused through its schema.
#[test]
fn unrecognised_map_type_is_refused() {
    check_diagnostics(
        r#"
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
        properties:
          spec:
            type: object
            x-kubernetes-map-type: foo
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: self.replicas >= oldSelf.replicas
"#,
        expect![[r#"
            policy.yaml:18:13: error[not-supported] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-map-type: Unsupported value: "foo": supported values: "atomic", "granular"
               |
            18 |             x-kubernetes-map-type: foo
               |             ^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}
