//! Kyverno's CEL policies (`policies.kyverno.io`, the first member of the document families):
//! kinds and versions as kyverno/kyverno `config/crds/policies.kyverno.io` serves them, fields as
//! their `openAPIV3Schema`s (unknown fields pruned with a warning, enums and required fields
//! enforced), CEL syntax as Kyverno's compiler (`pkg/cel/policies/*/compiler`) parses it, and typed
//! CEL with Kyverno's libraries (kyverno/sdk `extensions/cel/libs`) as warnings.

use crate::{check_diagnostics, check_diagnostics_with};
use admission_ls::ide::{DiagnosticsConfig, KyvernoVersion};
use expect_test::expect;

/// A ValidatingPolicy in the style of kyverno/policies, with Kyverno library calls and the
/// cel-go extensions Kyverno enables (math, base64, regex): clean.
#[test]
fn published_style_validating_policy_is_clean() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: restrict-image-registries
spec:
  validationActions: [Audit]
  evaluation:
    background:
      enabled: true
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [pods]
  variables:
    - name: containers
      expression: object.spec.containers + object.spec.?initContainers.orValue([])
    - name: cm
      expression: resource.Get('v1', 'configmaps', 'kyverno', 'allowed-registries')
  validations:
    - expression: >-
        variables.containers.all(c, image(c.image).registry() in ['ghcr.io', 'docker.io']
        && isImage(c.image) && sha256(c.name) != '')
      messageExpression: "'image from ' + string(variables.containers.size()) + ' containers'"
    - expression: "variables.cm.data.registries.split(',').size() > 0"
      message: registries must be listed
    - expression: >-
        math.greatest(1, 2.5) > 0 && math.round(2.567, 2) == math.round(2.57)
        && string(base64.decode('YQ==')) == 'a' && regex.replace('a-b', '-', '_') == 'a_b'
        && regex.extract('v1.2', '[0-9]+').orValue('') == '1' && math.sqrt(4) == 2.0
"#,
        expect![[r#""#]],
    );
}

/// A misspelled field is caught at its characters, a value outside an enum and a value of the
/// wrong kind are refused.
#[test]
fn misspelled_field_enum_and_wrong_kind() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1alpha1
kind: ValidatingPolicy
metadata:
  name: check
spec:
  validationActions: [Deny, Block]
  failurePolicy: Ignore
  evaluation:
    mode: Kubernetes
    admision:
      enabled: true
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expresion: "object.metadata.name != ''"
---
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata:
  name: wrong-kind
spec:
  mutations: "none"
"#,
        expect![[r#"
            policy.yaml:6:29: error[not-supported] (refused on create): spec.validationActions[1]: Unsupported value: "Block": supported values: "Deny", "Audit", "Warn"
              |
            6 |   validationActions: [Deny, Block]
              |                             ^^^^^
            policy.yaml:10:5: warning[unknown-field] (accepted): unknown field "spec.evaluation.admision" (did you mean "admission"?)
               |
            10 |     admision:
               |     ^^^^^^^^
            policy.yaml:19:7: warning[unknown-field] (accepted): unknown field "spec.validations[0].expresion" (did you mean "expression"?)
               |
            19 |     - expresion: "object.metadata.name != ''"
               |       ^^^^^^^^^
            policy.yaml:19:7: error[required] (refused on create): spec.validations[0].expression: Required value
               |
            19 |     - expresion: "object.metadata.name != ''"
               |       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:25:1: error[required] (refused on create): spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required
               |
            25 | spec:
               | ^^^^
            policy.yaml:26:14: error[invalid] (refused on create): spec.mutations: Invalid value: "none": expected a list of MutatingPolicy, not a string
               |
            26 |   mutations: "none"
               |              ^^^^^^
        "#]],
    );
}

/// An unknown version or kind of the group is reported once, with what Kyverno serves.
#[test]
fn unknown_version_and_kind() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v2
kind: ValidatingPolicy
metadata:
  name: a
spec:
  validations:
    - expression: "nonsense ==="
---
apiVersion: policies.kyverno.io/v1alpha1
kind: NamespacedValidatingPolicy
metadata:
  name: b
---
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolcy
metadata:
  name: c
"#,
        expect![[r#"
            policy.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "policies.kyverno.io/v2": Kyverno serves ValidatingPolicy in v1alpha1, v1beta1, v1
              |
            1 | apiVersion: policies.kyverno.io/v2
              |             ^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:9:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "policies.kyverno.io/v1alpha1": Kyverno serves NamespacedValidatingPolicy in v1beta1, v1
              |
            9 | apiVersion: policies.kyverno.io/v1alpha1
              |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:15:7: error[not-supported] (refused on create): kind: Unsupported value: "ValidatingPolcy": policies.kyverno.io serves the kinds ValidatingPolicy, MutatingPolicy, GeneratingPolicy, DeletingPolicy, ImageValidatingPolicy, NamespacedValidatingPolicy, NamespacedMutatingPolicy, NamespacedGeneratingPolicy, NamespacedDeletingPolicy, NamespacedImageValidatingPolicy, PolicyException
               |
            15 | kind: ValidatingPolcy
               |       ^^^^^^^^^^^^^^^
        "#]],
    );
}

/// CEL syntax errors are errors (Kyverno's compiler refuses the policy); typed findings are
/// warnings: a misspelled field of the matched kind, a variable that is not declared.
#[test]
fn cel_syntax_is_an_error_and_typed_findings_are_warnings() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: typed
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [deployments]
  variables:
    - name: replicas
      expression: object.spec.replicas
  validations:
    - expression: "object.spec.replicaz > 1 && variables.replicas > 1 && variables.replica > 0"
    - expression: "object.metadata.name =="
"#,
        expect![[r#"
            policy.yaml:16:32: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'replicaz'; did you mean 'replicas'?
               |
            16 |     - expression: "object.spec.replicaz > 1 && variables.replicas > 1 && variables.replica > 0"
               |                                ^^^^^^^^
            policy.yaml:16:84: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'replica'; did you mean 'replicas'?
               |
            16 |     - expression: "object.spec.replicaz > 1 && variables.replicas > 1 && variables.replica > 0"
               |                                                                                    ^^^^^^^
            policy.yaml:17:43: error[cel-syntax] (refused on create): spec.validations[1].expression: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            17 |     - expression: "object.metadata.name =="
               |                                           ^
        "#]],
    );
}

/// Every kind's expression sites are checked: mutations, generate, deletion conditions, image
/// references; their context libraries (`generator`, image verification) are declared.
#[test]
fn every_kind_has_its_sites() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata:
  name: add-label
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: "Object{metadata: Object.metadata{labels: {'team': 'a'}}}"
    - patchType: JSONPatch
      jsonPatch:
        expression: "[JSONPatch{op: 'add', path: '/metadata/labels/x', value: 'y'}"
---
apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: gen
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [namespaces]
  variables:
    - name: nsName
      expression: object.metadata.name
  generate:
    - expression: "generator.Apply(variables.nsName, [{'kind': 'ConfigMap'}])"
    - expression: "generator.Apply(variables.nsName"
---
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata:
  name: cleanup
spec:
  schedule: "*/5 * * * *"
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        resources: [pods]
  conditions:
    - name: old
      expression: "time.now() - timestamp(object.metadata.creationTimestamp) > duration('24h')"
    - name: broken
      expression: "object.metadata.("
---
apiVersion: policies.kyverno.io/v1
kind: ImageValidatingPolicy
metadata:
  name: verify
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  matchImageReferences:
    - glob: "ghcr.io/*"
  attestors:
    - name: cosign
      cosign:
        key:
          data: "-----BEGIN PUBLIC KEY-----"
  validations:
    - expression: "images.containers.map(i, verifyImageSignatures(i, [attestors.cosign])).all(n, n > 0)"
    - expression: "images.containers.map(i, verifyImageSignatures(i [attestors.cosign]))"
"#,
        expect![[r#"
            policy.yaml:18:83: error[cel-syntax] (refused on create): spec.mutations[1].jsonPatch.expression: Syntax error: missing ']' at '<EOF>'
               |
            18 |         expression: "[JSONPatch{op: 'add', path: '/metadata/labels/x', value: 'y'}"
               |                                                                                   ^
            policy.yaml:36:52: error[cel-syntax] (refused on create): spec.generate[1].expression: Syntax error: missing ')' at '<EOF>'
               |
            36 |     - expression: "generator.Apply(variables.nsName"
               |                                                    ^
            policy.yaml:53:36: error[cel-syntax] (refused on create): spec.conditions[1].expression: Syntax error: no viable alternative at input '.('
               |
            53 |       expression: "object.metadata.("
               |                                    ^
            policy.yaml:53:37: error[cel-syntax] (refused on create): spec.conditions[1].expression: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            53 |       expression: "object.metadata.("
               |                                     ^
            policy.yaml:75:45: error[cel-no-overload] (fails at admission): spec.validations[1].expression: found no matching overload for 'verifyImageSignatures' applied to '(dyn)'
               |
            75 |     - expression: "images.containers.map(i, verifyImageSignatures(i [attestors.cosign]))"
               |                                             ^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// Autogen (kyverno/kyverno `pkg/cel/autogen`): a policy on Pods only is also applied to the Pod
/// controllers with `object.spec`/`object.metadata` rewritten; a field none of them has is
/// reported on the original characters, `.namespace` stays on the controller, and
/// `spec.autogen.podControllers.controllers` narrows the controllers.
#[test]
fn autogen_rewrites_are_checked_against_the_controllers() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: running-pods
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [pods]
  validations:
    - expression: "object.status.phase == 'Running' && object.metadata.namespace != ''"
    - expression: "object.spec.containers.all(c, c.name != '') && object.metadata.labels.size() > 0"
---
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: jobs-only
spec:
  autogen:
    podControllers:
      controllers: [jobs]
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expression: "object.spec.activeDeadlineSeconds > 0 && object.status.phase != ''"
"#,
        expect![[r#"
            policy.yaml:13:34: error[cel-undefined-field] (fails at admission): spec.validations[0].expression (autogen for DaemonSet, Deployment, ReplicaSet, StatefulSet, Job, CronJob): undefined field 'phase'
               |
            13 |     - expression: "object.status.phase == 'Running' && object.metadata.namespace != ''"
               |                                  ^^^^^
            policy.yaml:31:75: error[cel-undefined-field] (fails at admission): spec.validations[0].expression (autogen for Job): undefined field 'phase'
               |
            31 |     - expression: "object.spec.activeDeadlineSeconds > 0 && object.status.phase != ''"
               |                                                                           ^^^^^
        "#]],
    );
}

/// In JSON mode the object is any JSON document: `object` stays `dyn` whatever the match
/// constraints say (no typed findings, no autogen); Kyverno's environment is otherwise the same.
#[test]
fn json_mode_objects_are_dyn() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: terraform-plan
spec:
  evaluation:
    mode: JSON
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expression: "object.planned_values.root_module.resources.all(r, r.type != 'aws_s3_bucket')"
    - expression: "undeclaredName > 0"
"#,
        expect![[r#"
            policy.yaml:16:20: error[cel-undeclared] (fails at admission): spec.validations[1].expression: undeclared reference to 'undeclaredName' (in container '')
               |
            16 |     - expression: "undeclaredName > 0"
               |                    ^^^^^^^^^^^^^^
        "#]],
    );
}

/// A ValidatingPolicy in the `Envoy` or `HTTP` evaluation mode is run by kyverno-authz (the CLI
/// hands it to `kyverno-authz/pkg/engine/compiler`: kyverno/kyverno
/// `cmd/cli/kubectl-kyverno/policy/load.go`, `processor/authz_processor.go`), where `object` is the
/// request and `envoy`, `jwt` and `http` are its own libraries: no Kubernetes typed check, no
/// resource rule required; a CEL syntax error is still refused by its compiler.
#[test]
fn envoy_and_http_modes_are_checked_for_syntax_only() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: envoy-jwt
spec:
  evaluation:
    mode: Envoy
  variables:
    - name: token
      expression: jwt.Decode(object.attributes.request.http.headers[?"authorization"].orValue(""), "secret")
  validations:
    - expression: "!variables.token.Valid ? envoy.Denied(401).Response() : null"
    - expression: "envoy.Allowed().Response("
---
apiVersion: policies.kyverno.io/v1alpha1
kind: ValidatingPolicy
metadata:
  name: http-deny
spec:
  evaluation:
    mode: HTTP
  validations:
    - expression: http.Denied("not allowed").Response()
"#,
        expect![[r#"
            policy.yaml:13:45: error[cel-syntax] (refused on create): spec.validations[1].expression: Syntax error: missing ')' at '<EOF>'
               |
            13 |     - expression: "envoy.Allowed().Response("
               |                                             ^
        "#]],
    );
}

/// The `generator` library takes the policy's namespace (kyverno/kyverno
/// `pkg/cel/policies/gpol/compiler/compiler.go`; kyverno/sdk `extensions/cel/libs/generator/lib.go`):
/// a GeneratingPolicy calls `generator.Apply(namespace, objects)`, a NamespacedGeneratingPolicy
/// `generator.Apply(objects)` only, and its compiler refuses the two-argument form (kyverno/kyverno
/// `test/conformance/chainsaw/namespaced-generating-policies/data/cross-namespace-denied`).
#[test]
fn namespaced_generating_policies_apply_into_their_own_namespace() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: NamespacedGeneratingPolicy
metadata:
  name: generate-cm
  namespace: team
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [configmaps]
  generate:
    - expression: 'generator.apply([{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name": "copy"})}])'
    - expression: 'generator.apply("kube-system", [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap")}])'
---
apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: generate-cm
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [namespaces]
  generate:
    - expression: 'generator.Apply(object.metadata.name, [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap")}])'
    - expression: 'generator.Apply([{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap")}])'
"#,
        expect![[r#"
    policy.yaml:15:30: error[cel-no-overload] (fails at admission): spec.generate[1].expression: found no matching overload for 'apply' applied to 'generator.Context.(string, list(map(string, dyn)))'
       |
    15 |     - expression: 'generator.apply("kube-system", [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap")}])'
       |                              ^^^^^
    policy.yaml:30:30: error[cel-no-overload] (fails at admission): spec.generate[1].expression: found no matching overload for 'Apply' applied to 'generator.Context.(list(map(string, dyn)))'
       |
    30 |     - expression: 'generator.Apply([{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap")}])'
       |                              ^^^^^
"#]],
    );
}

/// `metadata` is decoded as `ObjectMeta` (apiextensions-apiserver
/// `pkg/apiserver/schema/objectmeta/coerce.go`): a misspelled key is unknown there and dropped,
/// and without `name` or `generateName` the API server refuses the object (apimachinery
/// `ValidateObjectMetaAccessor`, from `pkg/registry/customresource/validator.go`).
#[test]
fn metadata_is_object_meta_with_a_name() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  nam: require-team
  labels:
    team: a
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expression: "true"
---
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  generateName: require-team-
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expression: "true"
"#,
        expect![[r#"
            policy.yaml:3:1: error[required] (refused on create): metadata.name: Required value: name or generateName is required
              |
            3 | metadata:
              | ^^^^^^^^
            policy.yaml:4:3: warning[unknown-field] (accepted): unknown field "metadata.nam"
              |
            4 |   nam: require-team
              |   ^^^
        "#]],
    );
}

/// What Kyverno's policy webhook refuses besides schema and compiler, in its wording
/// (`pkg/cel/policies/*/validate.go`): no resource rule, a DeletingPolicy without schedule, a
/// MutatingPolicy with both evaluation modes off, `http` in a namespaced policy.
#[test]
fn kyverno_webhook_rules() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: no-rules
spec:
  validations:
    - expression: "true"
---
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata:
  name: no-schedule
spec:
  schedule: ""
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        resources: [pods]
---
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata:
  name: never
spec:
  evaluation:
    admission:
      enabled: false
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
---
apiVersion: policies.kyverno.io/v1
kind: NamespacedValidatingPolicy
metadata:
  name: calls-out
  namespace: team-a
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expression: "http.Get('https://example.com/allowed').allowed == true"
"#,
        expect![[r#"
            policy.yaml:5:1: error[required] (refused on create): spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required
              |
            5 | spec:
              | ^^^^
            policy.yaml:14:3: error[required] (refused on create): spec.schedule: Required value: schedule is required
               |
            14 |   schedule: ""
               |   ^^^^^^^^
            policy.yaml:26:3: error[forbidden] (refused on create): spec.evaluation: Forbidden: disabling both admission and mutateExisting evaluation modes is not allowed
               |
            26 |   evaluation:
               |   ^^^^^^^^^^
            policy.yaml:49:20: error[forbidden] (refused on create): spec: Forbidden: http.* is not allowed in namespaced policies; set --allowHTTPInNamespacedPolicies to enable
               |
            49 |     - expression: "http.Get('https://example.com/allowed').allowed == true"
               |                    ^^^^
        "#]],
    );
}

/// A DeletingPolicy's schedule is parsed by the cron parser of Kyverno's cleanup controller
/// (`pkg/cel/policies/dpol/validate.go`, aptible/supercronic `cronexpr`); a schedule it refuses is
/// refused on create in Kyverno's wording, with the parser's message.
#[test]
fn deleting_policy_schedules_in_cron_format() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata:
  name: every-minute-sixty
spec:
  schedule: "*/60 * * * *"
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        resources: [pods]
---
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata:
  name: aliases-and-names
spec:
  schedule: "@daily"
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        resources: [pods]
---
apiVersion: policies.kyverno.io/v1
kind: NamespacedDeletingPolicy
metadata:
  name: weekdays
  namespace: team-a
spec:
  schedule: "0 2 * * MON-FRI,SUN#2 extra"
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        resources: [pods]
"#,
        expect![[r#"
            policy.yaml:6:13: error[invalid] (refused on create): spec.schedule: Invalid value: "*/60 * * * *": schedule spec in the deletingPolicy is not in proper cron format: invalid interval */60
              |
            6 |   schedule: "*/60 * * * *"
              |             ^^^^^^^^^^^^^^
            policy.yaml:31:13: error[invalid] (refused on create): spec.schedule: Invalid value: "0 2 * * MON-FRI,SUN#2 extra": schedule spec in the deletingPolicy is not in proper cron format: syntax error in year field: 'extra'
               |
            31 |   schedule: "0 2 * * MON-FRI,SUN#2 extra"
               |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// Kyverno's `request` has the request's `object` and `oldObject` (`pkg/cel/compiler/request.go`),
/// and a mutate-existing policy's variables, target conditions and mutations also run with an
/// existing target of another kind as `object` (`mpol/compiler/policy.go`, target mode): neither
/// is an error.
#[test]
fn request_object_and_mutate_existing_targets() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata:
  name: label-configmaps
spec:
  evaluation:
    mutateExisting:
      enabled: true
  matchConstraints:
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [deployments]
  targetMatchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [configmaps]
  targetMatchConditions:
    - name: has-data
      expression: "has(object.data) && object.metadata.namespace == request.object.metadata.namespace"
  mutations:
    - patchType: JSONPatch
      jsonPatch:
        expression: "[JSONPatch{op: 'add', path: '/data/by', value: request.object.metadata.name}]"
"#,
        expect![[r#""#]],
    );
}

/// Kyverno's result-type rule (`pkg/cel/compiler/compiler.go`, `IsExactType`): a concrete
/// result of the wrong type is refused in Kyverno's wording; a `dyn` result is not (Kyverno may
/// know it precisely).
#[test]
fn result_types_as_kyverno_requires_them() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: results
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  matchConditions:
    - name: count
      expression: "size(object.metadata.name)"
  validations:
    - expression: "object.metadata.name"
      messageExpression: "size(object.metadata.name)"
    - expression: "object.metadata.labels['allowed']"
      messageExpression: "object.metadata.name"
  auditAnnotations:
    - key: who
      valueExpression: "null"
"#,
        expect![[r#"
            policy.yaml:14:19: error[cel-result-type] (refused on create): spec.matchConditions[0].expression: Invalid value: "size(object.metadata.name)": output is expected to be of type bool
               |
            14 |       expression: "size(object.metadata.name)"
               |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:17:26: error[cel-result-type] (refused on create): spec.validations[0].messageExpression: Invalid value: "size(object.metadata.name)": output is expected to be of type string
               |
            17 |       messageExpression: "size(object.metadata.name)"
               |                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// A variable keeps the output type of its expression (kyverno/kyverno `pkg/cel/compiler/
/// compiler.go` registers `ast.OutputType()` for `variables.x`): a variable holding an image
/// reference is a `kyverno.image`, not `dyn` as a ValidatingAdmissionPolicy variable of a library
/// type would be, so its functions are known and a comparison with a number is reported.
#[test]
fn variables_keep_library_types() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: image-variable
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [deployments]
  variables:
    - name: image
      expression: "image(object.spec.template.spec.containers[0].image)"
    - name: maybe
      expression: "optional.of(image('nginx'))"
  validations:
    - expression: "variables.image.registry() != 'example.com'"
    - expression: "variables.maybe.hasValue() && variables.maybe.value().tag() != 'latest'"
    - expression: "variables.image == 1"
"#,
        expect![[r#"
            policy.yaml:20:36: error[cel-no-overload] (fails at admission): spec.validations[2].expression: found no matching overload for '_==_' applied to '(kyverno.image, int)'
               |
            20 |     - expression: "variables.image == 1"
               |                                    ^^
        "#]],
    );
}

/// A PolicyException (`policies.kyverno.io`, `config/crds/policies.kyverno.io/
/// policies.kyverno.io_policyexceptions.yaml`): its fields against the CRD schema (a misspelled
/// field, a missing required one), and its matchConditions compiled as Kyverno's compilers
/// compile them (`engine.CompileMatchConditions`): a syntax error and a result that is not a
/// bool are errors; no rule of a policy (such as matchConstraints) applies to it.
#[test]
fn policy_exception_fields_and_match_conditions() {
    check_diagnostics(
        r#"
apiVersion: policies.kyverno.io/v1
kind: PolicyException
metadata:
  name: legacy
spec:
  policyRefs:
    - name: require-team
      kind: ValidatingPolicy
    - kind: MutatingPolicy
  reportResults: pass
  matchConditions:
    - name: legacy-name
      expression: "object.metadata.name.startsWith('legacy-')"
    - name: broken
      expression: "object.metadata.name.startsWith("
    - name: not-bool
      expression: "size(object.metadata.name)"
"#,
        expect![[r#"
            policy.yaml:9:7: error[required] (refused on create): spec.policyRefs[1].name: Required value
              |
            9 |     - kind: MutatingPolicy
              |       ^^^^^^^^^^^^^^^^^^^^
            policy.yaml:10:3: warning[unknown-field] (accepted): unknown field "spec.reportResults" (did you mean "reportResult"?)
               |
            10 |   reportResults: pass
               |   ^^^^^^^^^^^^^
            policy.yaml:15:52: error[cel-syntax] (refused on create): spec.matchConditions[1].expression: Syntax error: missing ')' at '<EOF>'
               |
            15 |       expression: "object.metadata.name.startsWith("
               |                                                    ^
            policy.yaml:17:19: error[cel-result-type] (refused on create): spec.matchConditions[2].expression: Invalid value: "size(object.metadata.name)": output is expected to be of type bool
               |
            17 |       expression: "size(object.metadata.name)"
               |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// `--kyverno-version 1.17` (`kyvernoVersion`): a function a later release added is an unknown
/// function there (Kyverno compiles with its release's libraries, `Latest()` in
/// `pkg/cel/policies/*/compiler`; kyverno/sdk gates the prefixed names with `AtLeast(1.18)`),
/// reported at its characters with the release that added it; the 1.17 functions are not.
#[test]
fn functions_later_than_the_target_kyverno_release_are_undeclared() {
    let config = DiagnosticsConfig {
        kyverno_version: KyvernoVersion::parse("1.17").unwrap_or_default(),
        ..DiagnosticsConfig::default()
    };
    check_diagnostics_with(
        r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata:
  name: hashes
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [pods]
  validations:
    - expression: "sha256(object.metadata.name) != hash.sha256(object.metadata.name)"
    - expression: "resource.get('v1', 'configmaps', 'a', 'b').data.x == resource.Get('v1', 'configmaps', 'a', 'b').data.x"
    - expression: "regex.replace(object.metadata.name, 'a', 'b') != ''"
"#,
        &config,
        expect![[r#"
            policy.yaml:13:52: error[cel-undeclared] (refused on create): spec.validations[0].expression: undeclared reference to 'hash.sha256' (in container '') (Kyverno 1.18 and later; the project targets Kyverno 1.17)
               |
            13 |     - expression: "sha256(object.metadata.name) != hash.sha256(object.metadata.name)"
               |                                                    ^^^^^^^^^^^
            policy.yaml:14:29: error[cel-undeclared] (refused on create): spec.validations[1].expression: undeclared reference to 'get' (in container '') (Kyverno 1.18 and later; the project targets Kyverno 1.17)
               |
            14 |     - expression: "resource.get('v1', 'configmaps', 'a', 'b').data.x == resource.Get('v1', 'configmaps', 'a', 'b').data.x"
               |                             ^^^
            policy.yaml:15:20: error[cel-undeclared] (refused on create): spec.validations[2].expression: undeclared reference to 'regex.replace' (in container '') (Kyverno 1.19 and later; the project targets Kyverno 1.17)
               |
            15 |     - expression: "regex.replace(object.metadata.name, 'a', 'b') != ''"
               |                    ^^^^^^^^^^^^^
        "#]],
    );
}
