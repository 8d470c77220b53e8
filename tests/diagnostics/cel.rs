//! CEL syntax errors at the exact characters, whatever the scalar style, and the expression sites.

use crate::check_diagnostics;
use admission_ls::policy::{self, SiteRole};
use expect_test::expect;

#[test]
fn syntax_errors_in_every_scalar_style() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  matchConditions:
  - name: plain
    expression: object.x == )
  - name: single
    expression: 'object.y == ''a'' && ]'
  - name: double
    expression: "\"tab\t\" == \u00e9 ]"
  validations:
  - expression: |
      object.spec.replicas > 1 &&
        object.spec.replicas < # no operand
  - expression: >
      object.a ==
      1 }
    messageExpression: "   'trimmed' +  "
"#,
        expect![[r#""#]],
    );
}

#[test]
fn expression_sites_record_role_path_and_environment() {
    let text = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConditions: [{name: m, expression: "true"}]
  variables: [{name: x, expression: "1"}, {name: y, expression: "  variables.x  "}]
  validations: [{expression: "variables.y > 0", messageExpression: "'m'"}]
  auditAnnotations: [{key: k, valueExpression: " 'v' "}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: b}
spec:
  mutations:
  - {patchType: ApplyConfiguration, applyConfiguration: {expression: " Object{} "}}
  - {patchType: JSONPatch, jsonPatch: {expression: "[]"}}
"#;
    let yaml = admission_ls::yaml::parse(text);
    let mut out = String::new();
    for document in policy::read_file(text, &yaml) {
        for site in document.expression_sites() {
            let range = &text[site.range];
            out.push_str(&format!(
                "{:?} {} name={:?} text={:?} params={} authorizer={} variables={:?}/{} patch={} result={:?} at {range:?}\n",
                site.role,
                site.path,
                site.name,
                site.text,
                site.has_params,
                site.has_authorizer,
                site.variables,
                site.sees_variables,
                site.has_patch_types,
                site.result,
            ));
            assert!(site.role != SiteRole::JsonPatch || site.has_patch_types);
        }
    }
    expect![[r#""#]].assert_eq(&out);
}
