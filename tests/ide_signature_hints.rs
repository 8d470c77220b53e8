//! Signature-help and inlay-hint fixtures: `$0` marks the cursor (for hints, anywhere: hints of
//! the whole file are shown, each as `line:text-before-it|label`). The active signature is marked
//! with `>`.

mod ide_support;

use admission_ls::ide::{TextRange, TextSize};
use expect_test::{Expect, expect};

#[track_caller]
fn check_signature(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let actual = match loaded
        .analysis
        .signature_help(loaded.file, loaded.offset, &loaded.config)
    {
        Some(help) => {
            let mut out = format!("active parameter {}\n", help.active_parameter);
            for (i, signature) in help.signatures.into_iter().enumerate() {
                let active = help.active_signature == Some(i as u32);
                out.push_str(&format!(
                    "{}{} [{}]\n",
                    if active { "> " } else { "" },
                    signature.label,
                    signature.parameters.join(", ")
                ));
            }
            out
        }
        None => "no signature\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

#[track_caller]
fn check_hints(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let whole = TextRange::new(TextSize::from(0), TextSize::of(&*text));
    let mut actual = String::new();
    for hint in loaded
        .analysis
        .inlay_hints(loaded.file, whole, &loaded.config)
    {
        let at = usize::from(hint.offset);
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = text[..at].matches('\n').count() + 1;
        actual.push_str(&format!(
            "{line}:{}|{}\n",
            &text[line_start..at],
            hint.label
        ));
    }
    expect.assert_eq(&actual);
}

const HEAD: &str = "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
";

#[test]
fn member_call_second_argument_unclosed() {
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: \"object.metadata.name.replace('a', $0\"\n"
        ),
        expect![[r#"
            active parameter 1
            > fn string.replace(string, string) -> string [string, string]
            fn string.replace(string, string, int) -> string [string, string, int]
        "#]],
    );
}

#[test]
fn global_call_and_outside_calls() {
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: size(object.spec.template.spec.containers$0) > 0\n"
        ),
        expect![[r#"
            active parameter 0
            fn size(bytes) -> int [bytes]
            > fn size(list(A)) -> int [list(A)]
            fn size(map(A, B)) -> int [map(A, B)]
            fn size(string) -> int [string]
        "#]],
    );
    check_signature(
        &format!("{HEAD}  validations:\n  - expression: object.spec.replicas$0 > 0\n"),
        expect![[r#"
            no signature
        "#]],
    );
}

#[test]
fn variable_types() {
    check_hints(
        &format!(
            "{HEAD}  variables:\n  - name: replicas\n    expression: object.spec.replicas\n  - {{name: names, expression: \"object.spec.template.spec.containers.map(c, c.name)\"}}\n  - {{name: broken, expression: \"object.(\"}}$0\n"
        ),
        expect![[r#"
            9:  - name: replicas|: int
            11:  - {name: names|: list(string)
        "#]],
    );
}

#[test]
fn expression_types_where_not_obvious() {
    check_hints(
        &format!(
            "{HEAD}  validations:\n  - expression: object.spec.replicas <= 5\n    messageExpression: \"'too many: ' + string(object.spec.replicas)\"\n  - expression: object.metadata.annotations\n  auditAnnotations:\n  - key: replicas\n    valueExpression: |\n      string(object.spec.replicas)\n  matchConditions:\n  - {{name: any, expression: 'true'}}$0\n"
        ),
        expect![[r#"
            10:    messageExpression: "'too many: ' + string(object.spec.replicas)"|: string
            11:  - expression: object.metadata.annotations|: map(string, string)
            15:      string(object.spec.replicas)|: string
        "#]],
    );
}

#[test]
fn mutation_expression_types() {
    check_hints(
        "
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{spec: Object.spec{replicas: 1}}'
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        [JSONPatch{op: 'add', path: '/spec/paused', value: true}]$0
",
        expect![[r#"
            12:      expression: 'Object{spec: Object.spec{replicas: 1}}'|: Object
            16:        [JSONPatch{op: 'add', path: '/spec/paused', value: true}]|: list(JSONPatch)
        "#]],
    );
}

#[test]
fn overload_from_the_receiver_type() {
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: \"object.spec.template.spec.containers.map(c, c.name).indexOf($0\"\n"
        ),
        expect![[r#"
            active parameter 0
            fn string.indexOf(string) -> int [string]
            fn string.indexOf(string, int) -> int [string, int]
            > fn list(A).indexOf(A) -> int [A]
        "#]],
    );
    check_signature(
        &format!("{HEAD}  validations:\n  - expression: \"object.metadata.name.indexOf($0\"\n"),
        expect![[r#"
            active parameter 0
            > fn string.indexOf(string) -> int [string]
            fn string.indexOf(string, int) -> int [string, int]
            fn list(A).indexOf(A) -> int [A]
        "#]],
    );
}

#[test]
fn overload_from_the_finished_arguments() {
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: \"object.metadata.name.indexOf('a', $0\"\n"
        ),
        expect![[r#"
            active parameter 1
            fn string.indexOf(string) -> int [string]
            > fn string.indexOf(string, int) -> int [string, int]
            fn list(A).indexOf(A) -> int [A]
        "#]],
    );
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: \"size(object.metadata.name.replace('a', 'b', $0)) > 0\"\n"
        ),
        expect![[r#"
            active parameter 2
            fn string.replace(string, string) -> string [string, string]
            > fn string.replace(string, string, int) -> string [string, string, int]
        "#]],
    );
    check_signature(
        &format!("{HEAD}  validations:\n  - expression: \"[1, quantity($0\"\n"),
        expect![[r#"
            active parameter 0
            > fn quantity(string) -> kubernetes.Quantity [string]
        "#]],
    );
}

#[test]
fn overload_of_a_global_by_argument_type() {
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: \"object.spec.template.spec.containers.all(c, string(c.ports[0].containerPort$0\"\n"
        ),
        expect![[r#"
            active parameter 0
            fn string(string) -> string [string]
            fn string(bool) -> string [bool]
            > fn string(int) -> string [int]
            fn string(uint) -> string [uint]
            fn string(double) -> string [double]
            fn string(bytes) -> string [bytes]
            fn string(timestamp) -> string [timestamp]
            fn string(duration) -> string [duration]
            fn string(net.IP) -> string [net.IP]
            fn string(net.CIDR) -> string [net.CIDR]
        "#]],
    );
    check_signature(
        &format!("{HEAD}  validations:\n  - expression: \"int(object.spec.replicas, $0\"\n"),
        expect![[r#"
            active parameter 1
            fn int(int) -> int [int]
            fn int(uint) -> int [uint]
            fn int(double) -> int [double]
            fn int(string) -> int [string]
            fn int(timestamp) -> int [timestamp]
            fn int(duration) -> int [duration]
        "#]],
    );
}

#[test]
fn overload_of_a_kubernetes_library_function() {
    check_signature(
        &format!(
            "{HEAD}  validations:\n  - expression: \"cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')$0\"\n"
        ),
        expect![[r#"
            active parameter 0
            fn net.CIDR.containsIP(string) -> bool [string]
            > fn net.CIDR.containsIP(net.IP) -> bool [net.IP]
        "#]],
    );
}

/// Each CRD rule and messageExpression shows its estimated cost (times how often its node can
/// occur), what the API server compares with its limits when the CRD is written (issue 16).
#[test]
fn crd_rules_show_their_estimated_cost() {
    check_hints(
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
              hosts:
                type: array
                maxItems: 10
                items: {type: string, maxLength: 64}
                x-kubernetes-validations:
                - rule: self.all(h, h.endsWith('.example.com'))
                  messageExpression: "'bad hosts: ' + self.join(', ')"
              names:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: "self.all(n, n.matches('^[a-z]+$'))"
                - rule: |
                    self.size() <= 100$0
"#,
        expect![[r#"
            24:                - rule: self.all(h, h.endsWith('.example.com'))| cost 62
            25:                  messageExpression: "'bad hosts: ' + self.join(', ')"| cost 518
            30:                - rule: "self.all(n, n.matches('^[a-z]+$'))"| cost 659,710,961,252
            32:                    self.size() <= 100| cost 3
        "#]],
    );
}

/// Inside a Kyverno policy, Kyverno's context functions show their declared overloads (from the
/// site's environment, not the library tables).
#[test]
fn kyverno_library_signature() {
    check_signature(
        "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  validations:
  - expression: resource.Get('v1', $0) != null
",
        expect![[r#"
            active parameter 1
            > fn resource.Context.Get(string, string, string) -> map(string, dyn) [string, string, string]
            fn resource.Context.Get(schema.GroupVersionResource, string) -> map(string, dyn) [schema.GroupVersionResource, string]
            fn resource.Context.Get(string, string, string, string) -> map(string, dyn) [string, string, string, string]
            fn resource.Context.Get(schema.GroupVersionResource, string, string) -> map(string, dyn) [schema.GroupVersionResource, string, string]
            fn http.Context.Get(string) -> dyn [string]
            fn http.Context.Get(string, map(string, string)) -> dyn [string, map(string, string)]
            fn globalcontext.Context.Get(string) -> dyn [string]
            fn globalcontext.Context.Get(string, string) -> dyn [string, string]
        "#]],
    );
}

#[test]
fn webhook_match_condition_call() {
    check_signature(
        "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: demo}
webhooks:
- name: demo.example.com
  matchConditions:
  - name: not-system
    expression: \"!request.userInfo.username.startsWith($0\"
",
        expect![[r#"
            active parameter 0
            > fn string.startsWith(string) -> bool [string]
        "#]],
    );
}
