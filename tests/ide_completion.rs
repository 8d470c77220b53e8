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
            ky auditAnnotations []AuditAnnotation
            ky failurePolicy string
            ky matchConditions []MatchCondition
            ky paramKind ParamKind
            ky variables []Variable
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
            ky auditAnnotations []AuditAnnotation
            ky failurePolicy string
            ky matchConditions []MatchCondition
            ky paramKind ParamKind
            ky variables []Variable
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

/// Like [`check_completions`] for YAML keys: `ky label detail`, the documentation's first words.
#[track_caller]
fn check_keys(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let items = loaded
        .analysis
        .completions(loaded.file, loaded.offset, &loaded.config);
    let mut actual = String::new();
    for item in items.iter().filter(|i| i.kind.tag() == "ky") {
        let detail = item.detail.clone().unwrap_or_default();
        let doc = item.documentation.clone().unwrap_or_default();
        let words: Vec<&str> = doc.split_whitespace().take(6).collect();
        let insert = item.insert.clone().unwrap_or_default();
        actual.push_str(&format!(
            "{} {} {detail} {insert:?} — {}\n",
            item.kind.tag(),
            item.label,
            words.join(" ")
        ));
    }
    expect.assert_eq(&actual);
}

#[test]
fn keys_of_a_validation_not_yet_written_required_first() {
    check_keys(
        &policy("  validations:\n  - message: hi\n    $0\n"),
        expect![[r#"
            ky expression string (required) "expression: " — expression represents the expression which will
            ky messageExpression string "messageExpression: " — messageExpression declares a CEL expression that
            ky reason string "reason: " — reason represents a machine-readable description of
        "#]],
    );
}

#[test]
fn keys_on_a_half_typed_key() {
    check_keys(
        &policy("  fail$0\n"),
        expect![[r#"
        ky auditAnnotations []AuditAnnotation "auditAnnotations: " — auditAnnotations contains CEL expressions which are
        ky failurePolicy string "failurePolicy: " — failurePolicy defines how to handle failures
        ky matchConditions []MatchCondition "matchConditions: " — matchConditions is a list of conditions
        ky paramKind ParamKind "paramKind: " — paramKind specifies the kind of resources
        ky validations []Validation "validations: " — validations contain CEL expressions which is
        ky variables []Variable "variables: " — variables contain definitions of variables that
    "#]],
    );
}

#[test]
fn keys_on_a_new_list_item_and_in_a_flow_mapping() {
    check_keys(
        &policy("  matchConditions:\n  - $0\n"),
        expect![[r#"
            ky expression string (required) "expression: " — expression represents the expression which will
            ky name string (required) "name: " — name is an identifier for this
        "#]],
    );
    check_keys(
        &policy("  variables:\n  - {name: a, $0}\n"),
        expect![[r#"
            ky expression string (required) "expression: " — expression is the expression that will
        "#]],
    );
}

#[test]
fn keys_of_a_binding_at_the_document_root() {
    check_keys(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n$0\n",
        expect![[r#"
            ky spec ValidatingAdmissionPolicyBindingSpec (required) "spec: " — spec defines the desired behavior of
            ky metadata ObjectMeta "metadata: " — metadata is the standard object metadata;
        "#]],
    );
}

#[test]
fn key_under_the_cursor_is_replaced_whole() {
    let loaded = ide_support::load(&policy("  failure$0Policy: Fail\n"));
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let items = loaded
        .analysis
        .completions(loaded.file, loaded.offset, &loaded.config);
    let replaced: Vec<&str> = items.iter().map(|i| &text[i.replace]).collect();
    assert!(!items.is_empty());
    assert!(
        replaced.iter().all(|r| *r == "failurePolicy"),
        "{replaced:?}"
    );
    // The key itself stays on offer (the client filters on what is typed); its siblings do not.
    assert!(items.iter().any(|i| i.label == "failurePolicy"));
    assert!(!items.iter().any(|i| i.label == "matchConstraints"));
}

#[test]
fn enum_values_of_scalar_fields() {
    check_completions(
        &policy("  failurePolicy: $0\n"),
        expect![[r#"
        ev Fail 
        ev Ignore 
    "#]],
    );
    check_completions(
        &policy("  failurePolicy: Ig$0\n"),
        expect![[r#"
        ev Fail 
        ev Ignore 
    "#]],
    );
    check_completions(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  mutations:\n  - patchType: $0\n",
        expect![[r#"
            ev ApplyConfiguration 
            ev JSONPatch 
        "#]],
    );
    check_completions(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  reinvocationPolicy: N$0\n",
        expect![[r#"
            ev IfNeeded 
            ev Never 
        "#]],
    );
}

#[test]
fn enum_values_of_list_items() {
    check_completions(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  policyName: demo\n  validationActions: [Deny, $0]\n",
        expect![[r#"
            ev Audit 
            ev Deny 
            ev Warn 
        "#]],
    );
    check_completions(
        &policy(
            "  matchConditions: []\n  matchConstraints:\n    resourceRules:\n    - operations:\n      - $0\n",
        ),
        expect![[r#"
            ev * 
            ev CONNECT 
            ev CREATE 
            ev DELETE 
            ev UPDATE 
        "#]],
    );
}

#[test]
fn mutating_policies_never_offer_delete() {
    check_completions(
        "#- /m.yaml k8s:1.34\napiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  matchConstraints:\n    resourceRules:\n    - operations: [$0]\n",
        expect![[r#"
            ev * 
            ev CONNECT 
            ev CREATE 
            ev UPDATE 
        "#]],
    );
}

#[test]
fn no_values_for_a_list_field_itself_or_free_text() {
    check_completions(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  validationActions: $0\n",
        expect![[r#""#]],
    );
    check_completions(
        &policy("  validations:\n  - message: $0\n"),
        expect![[r#""#]],
    );
}

#[test]
fn yaml_keys_never_inside_cel() {
    check_completions_of(
        "ky",
        &policy("  validations:\n  - expression: |\n      object.spec.replicas > 1 &&\n      $0\n"),
        expect![[r#""#]],
    );
}

/// A CRD with a rule on `spec`: `self` is the node's type.
const CRD_HEAD: &str = "
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
              replicas: {type: integer, description: How many.}
              mode: {type: string}
            x-kubernetes-validations:
";

/// Inside a CRD's `x-kubernetes-validations` rule, `self.` completes the fields of the node the
/// rule is on (issue 16).
#[test]
fn crd_rule_fields_of_self() {
    check_completions_of(
        "fd",
        &format!("{CRD_HEAD}            - rule: self.$0\n"),
        expect![[r#"
            fd mode string
            fd replicas int
        "#]],
    );
}

/// `oldSelf` is declared in a CRD rule and in its messageExpression.
#[test]
fn crd_rule_variables() {
    check_completions_of(
        "va",
        &format!("{CRD_HEAD}            - rule: 'true'\n              messageExpression: o$0\n"),
        expect![[r#"
            va oldSelf example.com.v1.Widget.spec
            va self example.com.v1.Widget.spec
        "#]],
    );
}

/// Inside a Kyverno policy: the fields of the matched kind after `object.spec.`, Kyverno's
/// context variables among the names, the fields of Kyverno's `request`.
#[test]
fn kyverno_policy_fields_and_context_variables() {
    let head = "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  validations:
";
    check_completions_of(
        "fd",
        &format!("{head}  - expression: object.spec.rep$0\n"),
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
    check_completions_of(
        "va",
        &format!("{head}  - expression: $0\n"),
        expect![[r#"
            va exceptions dyn
            va globalContext globalcontext.Context
            va http http.Context
            va image imagedata.Context
            va json json.Json
            va namespaceObject kubernetes.Namespace
            va object apps.v1.Deployment
            va oldObject apps.v1.Deployment
            va request kubernetes.AdmissionRequest
            va resource resource.Context
            va variables kyverno.variables
            va yaml yaml.Yaml
        "#]],
    );
    // Kyverno's request has the request's objects besides the API server's fields
    // (kyverno/kyverno `pkg/cel/compiler/request.go`).
    check_completions_of(
        "fd",
        &format!("{head}  - expression: request.$0\n"),
        expect![[r#"
            fd dryRun bool
            fd kind kubernetes.GroupVersionKind
            fd name string
            fd namespace string
            fd object dyn
            fd oldObject dyn
            fd operation string
            fd options dyn
            fd requestKind kubernetes.GroupVersionKind
            fd requestResource kubernetes.GroupVersionResource
            fd requestSubResource string
            fd resource kubernetes.GroupVersionResource
            fd subResource string
            fd userInfo kubernetes.UserInfo
        "#]],
    );
}

/// Kyverno's member functions complete after a context variable.
#[test]
fn kyverno_context_functions() {
    check_completions_of(
        "fn",
        "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  validations:
  - expression: globalContext.$0
",
        expect![[r#"
            fn Get (string) -> dyn
            fn get (string) -> dyn
            fn includes (dyn) -> bool
        "#]],
    );
}

/// After a variable that holds a Kyverno image, the image's member functions (its type comes from
/// the variable's expression), not every member function.
#[test]
fn kyverno_variable_of_a_library_type() {
    let head = "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  variables:
  - name: image
    expression: image(object.spec.template.spec.containers[0].image)
  validations:
";
    check_completions_of(
        "fn",
        &format!("{head}  - expression: variables.image.$0\n"),
        expect![[r#"
            fn containsDigest () -> bool
            fn digest () -> string
            fn identifier () -> string
            fn includes (dyn) -> bool
            fn registry () -> string
            fn repository () -> string
            fn tag () -> string
        "#]],
    );
    check_completions_of(
        "fn",
        &format!("{head}  - expression: \"variables.image.$0registry() != 'example.com'\"\n"),
        expect![[r#"
            fn containsDigest () -> bool
            fn digest () -> string
            fn identifier () -> string
            fn includes (dyn) -> bool
            fn registry () -> string
            fn repository () -> string
            fn tag () -> string
        "#]],
    );
}

#[test]
fn webhook_match_condition_offers_its_environment() {
    // A webhook's condition is compiled as a policy's (apiserver
    // `pkg/admission/plugin/cel/compile.go`, `createEnvForOpts`): no `params`, no `variables`.
    check_completions_of(
        "va",
        "
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: demo}
webhooks:
- name: demo.example.com
  rules:
  - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  matchConditions:
  - name: any
    expression: '$0'
",
        expect![[r#"
            va authorizer kubernetes.authorization.Authorizer
            va namespaceObject kubernetes.Namespace
            va object apps.v1.Deployment
            va oldObject apps.v1.Deployment
            va request kubernetes.AdmissionRequest
        "#]],
    );
}
