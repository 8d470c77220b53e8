//! Completion fixtures: `$0` marks the cursor; one line per item, `kind label detail`, in the
//! order the client shows them.

mod ide_support;

use expect_test::{Expect, expect};

#[track_caller]
fn check_completions(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let items = loaded
        .analysis
        .completions(loaded.file, loaded.offset, &loaded.config);
    let mut actual = String::new();
    for item in items {
        let detail = item.detail.unwrap_or_default();
        actual.push_str(&format!("{} {} {detail}\n", item.kind.tag(), item.label));
    }
    expect.assert_eq(&actual);
}

/// Like [`check_completions`] but keeps only the lines that start with `filter`.
#[track_caller]
fn check_completions_of(filter: &str, fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let items = loaded
        .analysis
        .completions(loaded.file, loaded.offset, &loaded.config);
    let mut actual = String::new();
    for item in items.iter().filter(|i| i.kind.tag() == filter) {
        let detail = item.detail.clone().unwrap_or_default();
        actual.push_str(&format!("{} {} {detail}\n", item.kind.tag(), item.label));
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

fn policy(tail: &str) -> String {
    format!("{HEAD}{tail}")
}

#[test]
fn fields_after_a_half_typed_dot() {
    check_completions_of(
        "fd",
        &policy("  validations:\n  - expression: object.spec.$0\n"),
        expect![[r#"
            fd minReadySeconds int
            fd paused bool
            fd progressDeadlineSeconds int
            fd replicas int
            fd revisionHistoryLimit int
            fd selector apps.v1.Deployment.spec.selector
            fd strategy apps.v1.Deployment.spec.strategy
            fd template apps.v1.Deployment.spec.template
        "#]],
    );
}

#[test]
fn fields_in_a_block_scalar_with_a_partial_word() {
    check_completions_of(
        "fd",
        &policy("  validations:\n  - expression: |\n      object.metadata.na$0 == 'x'\n"),
        expect![[r#"
            fd __namespace__ string
            fd annotations map(string, string)
            fd creationTimestamp timestamp
            fd deletionGracePeriodSeconds int
            fd deletionTimestamp timestamp
            fd finalizers list(string)
            fd generateName string
            fd generation int
            fd labels map(string, string)
            fd managedFields list(apps.v1.Deployment.metadata.managedFields)
            fd name string
            fd ownerReferences list(apps.v1.Deployment.metadata.ownerReferences)
            fd resourceVersion string
            fd selfLink string
            fd uid string
        "#]],
    );
}

#[test]
fn string_receiver_gets_string_functions() {
    check_completions_of(
        "fn",
        &policy("  validations:\n  - expression: object.metadata.name.$0\n"),
        expect![[r#"
            fn charAt (int) -> string
            fn contains (string) -> bool
            fn endsWith (string) -> bool
            fn find (string) -> string
            fn findAll (string) -> list(string)
            fn format (list(dyn)) -> string
            fn indexOf (string) -> int
            fn lastIndexOf (string) -> int
            fn lowerAscii () -> string
            fn matches (string) -> bool
            fn replace (string, string) -> string
            fn size () -> int
            fn split (string) -> list(string)
            fn startsWith (string) -> bool
            fn substring (int) -> string
            fn trim () -> string
            fn upperAscii () -> string
        "#]],
    );
}

#[test]
fn list_receiver_gets_macros() {
    check_completions_of(
        "ma",
        &policy("  validations:\n  - expression: object.spec.template.spec.containers.$0\n"),
        expect![[r#"
            ma all macro _.all(_, _)
            ma exists macro _.exists(_, _)
            ma existsOne macro _.existsOne(_, _, _)
            ma exists_one macro _.exists_one(_, _)
            ma filter macro _.filter(_, _)
            ma map macro _.map(_, _) | macro _.map(_, _, _)
            ma optFlatMap macro _.optFlatMap(_, _)
            ma optMap macro _.optMap(_, _)
            ma sortBy macro _.sortBy(_, _)
            ma transformList macro _.transformList(_, _, _) | macro _.transformList(_, _, _, _)
            ma transformMap macro _.transformMap(_, _, _) | macro _.transformMap(_, _, _, _)
            ma transformMapEntry macro _.transformMapEntry(_, _, _) | macro _.transformMapEntry(_, _, _, _)
        "#]],
    );
}

#[test]
fn variables_of_the_policy() {
    check_completions(
        &policy(
            "  variables:\n  - {name: replicas, expression: object.spec.replicas}\n  validations:\n  - expression: variables.$0\n",
        ),
        expect![[r#"
            fd replicas int
        "#]],
    );
}

#[test]
fn empty_expression_offers_the_environment() {
    check_completions_of(
        "va",
        &policy("  validations:\n  - expression: '$0'\n"),
        expect![[r#"
            va authorizer kubernetes.authorization.Authorizer
            va namespaceObject kubernetes.Namespace
            va object apps.v1.Deployment
            va oldObject apps.v1.Deployment
            va request kubernetes.AdmissionRequest
        "#]],
    );
}

#[test]
fn object_construction_in_a_mutation() {
    check_completions_of(
        "fd",
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
      expression: 'Object{spec: Object.spec{$0}}'
",
        expect![[r#"
            fd minReadySeconds int
            fd paused bool
            fd progressDeadlineSeconds int
            fd replicas int
            fd revisionHistoryLimit int
            fd selector Object.spec.selector
            fd strategy Object.spec.strategy
            fd template Object.spec.template
        "#]],
    );
}

#[test]
fn snippets_outside_expressions() {
    check_completions(
        &policy("  validations:\n  $0\n"),
        expect![[r#"
        sn binding a ValidatingAdmissionPolicyBinding document
        sn matchCondition a new item of spec.matchConditions
        sn mutation a new item of spec.mutations (ApplyConfiguration)
        sn validation a new item of spec.validations
        sn variable a new item of spec.variables
    "#]],
    );
    check_completions(
        &policy("  validations:\n  - expression: 'true'\n  va$0\n"),
        expect![[r#"
        sn validation a new item of spec.validations
        sn variable a new item of spec.variables
    "#]],
    );
    check_completions("# 😀 $0", expect![[r#""#]]);
}

#[test]
fn empty_plain_expression_and_variables() {
    check_completions_of(
        "va",
        &policy(
            "  variables:\n  - {name: replicas, expression: object.spec.replicas}\n  validations:\n  - expression: $0\n",
        ),
        expect![[r#"
            va authorizer kubernetes.authorization.Authorizer
            va namespaceObject kubernetes.Namespace
            va object apps.v1.Deployment
            va oldObject apps.v1.Deployment
            va request kubernetes.AdmissionRequest
            va variables kubernetes.variables
        "#]],
    );
}
