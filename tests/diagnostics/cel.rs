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
        expect![[r#"
            policy.yaml:10:29: error[cel-syntax] (refused on create): spec.matchConditions[0].expression: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            10 |     expression: object.x == )
               |                             ^
            policy.yaml:12:39: error[cel-syntax] (refused on create): spec.matchConditions[1].expression: Syntax error: mismatched input ']' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            12 |     expression: 'object.y == ''a'' && ]'
               |                                       ^
            policy.yaml:14:31: error[cel-syntax] (refused on create): spec.matchConditions[2].expression: Syntax error: token recognition error at: 'é'
               |
            14 |     expression: "\"tab\t\" == \u00e9 ]"
               |                               ^^^^^^
            policy.yaml:14:38: error[cel-syntax] (refused on create): spec.matchConditions[2].expression: Syntax error: mismatched input ']' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            14 |     expression: "\"tab\t\" == \u00e9 ]"
               |                                      ^
            policy.yaml:18:32: error[cel-syntax] (refused on create): spec.validations[0].expression: Syntax error: token recognition error at: '#'
               |
            18 |         object.spec.replicas < # no operand
               |                                ^
            policy.yaml:18:37: error[cel-syntax] (refused on create): spec.validations[0].expression: Syntax error: extraneous input 'operand' expecting <EOF>
               |
            18 |         object.spec.replicas < # no operand
               |                                     ^^^^^^^
            policy.yaml:21:9: error[cel-syntax] (refused on create): spec.validations[1].expression: Syntax error: extraneous input '}' expecting <EOF>
               |
            21 |       1 }
               |         ^
            policy.yaml:22:41: error[cel-syntax] (refused on create): spec.validations[1].messageExpression: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            22 |     messageExpression: "   'trimmed' +  "
               |                                         ^
        "#]],
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
            // The whole compiled text maps back to exactly its characters in the file.
            let end = admission_ls::text::TextSize::of(site.text.as_str());
            let mapped = &text[site.to_file_range(admission_ls::text::TextRange::up_to(end))];
            out.push_str(&format!(
                "{:?} {} name={:?} text={:?} params={} authorizer={} variables={:?}/{} patch={} result={:?} at {range:?} maps to {mapped:?}\n",
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
    expect![[r#"
        MatchCondition spec.matchConditions[0].expression name=Some("m") text="true" params=true authorizer=true variables=[]/false patch=false result=Bool at "\"true\"" maps to "true"
        Variable spec.variables[0].expression name=Some("x") text="1" params=true authorizer=true variables=[]/true patch=false result=Any at "\"1\"" maps to "1"
        Variable spec.variables[1].expression name=Some("y") text="  variables.x  " params=true authorizer=true variables=["x"]/true patch=false result=Any at "\"  variables.x  \"" maps to "  variables.x  "
        Validation spec.validations[0].expression name=None text="variables.y > 0" params=true authorizer=true variables=["x", "y"]/true patch=false result=Bool at "\"variables.y > 0\"" maps to "variables.y > 0"
        MessageExpression spec.validations[0].messageExpression name=None text="'m'" params=true authorizer=false variables=["x", "y"]/true patch=false result=String at "\"'m'\"" maps to "'m'"
        AuditAnnotation spec.auditAnnotations[0].valueExpression name=Some("k") text="'v'" params=true authorizer=true variables=["x", "y"]/true patch=false result=StringOrNull at "\" 'v' \"" maps to "'v'"
        ApplyConfiguration spec.mutations[0].applyConfiguration.expression name=None text="Object{}" params=false authorizer=true variables=[]/true patch=true result=Object at "\" Object{} \"" maps to "Object{}"
        JsonPatch spec.mutations[1].jsonPatch.expression name=None text="[]" params=false authorizer=true variables=[]/true patch=true result=JsonPatchList at "\"[]\"" maps to "[]"
    "#]].assert_eq(&out);
}
