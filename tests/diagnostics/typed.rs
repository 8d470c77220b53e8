//! The typed check: `object` typed from the matched kinds, `params` from the paramKind (bundled or
//! a CRD of another file), mutations against the kind's schema, and the acceptance codes.

use crate::{check_diagnostics, check_diagnostics_with};
use admission_ls::ide::{DiagnosticsConfig, KubeVersion};
use expect_test::expect;

#[test]
fn typo_in_a_deployment_field() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replica <= 5
"#,
        expect![[r#"
            policy.yaml:9:29: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'replica'; did you mean 'replicas'? (in apps/v1, Kind=Deployment)
              |
            9 |   - expression: object.spec.replica <= 5
              |                             ^^^^^^^
        "#]],
    );
}

#[test]
fn wrong_type_compare_on_a_pod_field() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: object.spec.hostNetwork == 'true'
"#,
        expect![[r#"
            policy.yaml:9:41: warning[cel-no-overload] (typed check only): spec.validations[0].expression: found no matching overload for '_==_' applied to '(bool, string)' (in /v1, Kind=Pod)
              |
            9 |   - expression: object.spec.hostNetwork == 'true'
              |                                         ^^
        "#]],
    );
}

#[test]
fn config_map_param_used_as_an_int() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= params.data.maxReplicas
"#,
        expect![[r#"
            policy.yaml:10:38: error[cel-no-overload] (fails at admission): spec.validations[0].expression: found no matching overload for '_<=_' applied to '(int, string)' (in apps/v1, Kind=Deployment)
               |
            10 |   - expression: object.spec.replicas <= params.data.maxReplicas
               |                                      ^^
        "#]],
    );
}

#[test]
fn crd_param_field_from_another_file() {
    check_diagnostics(
        r#"
#- /crds/limits.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: replicalimits.policy.example.com}
spec:
  group: policy.example.com
  names: {kind: ReplicaLimit, plural: replicalimits}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          maxReplicas: {type: integer}
#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  paramKind: {apiVersion: policy.example.com/v1, kind: ReplicaLimit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= params.maxReplica
  - expression: object.spec.replicas <= params.maxReplicas
"#,
        expect![[r#"
            policy.yaml:10:48: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'maxReplica'; did you mean 'maxReplicas'? (in apps/v1, Kind=Deployment)
               |
            10 |   - expression: object.spec.replicas <= params.maxReplica
               |                                                ^^^^^^^^^^
        "#]],
    );
}

#[test]
fn cronjob_nested_field_in_a_policy_matching_several_kinds() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [batch], apiVersions: [v1], operations: [CREATE], resources: [cronjobs, jobs]}
  validations:
  - expression: object.spec.jobTemplate.spec.template.spec.containers.all(c, has(c.image))
  - expression: object.spec.template.spec.containers.all(c, c.imagePullPolicy == 'Always')
"#,
        expect![[r#"
            policy.yaml:9:29: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'jobTemplate' (in batch/v1, Kind=Job)
              |
            9 |   - expression: object.spec.jobTemplate.spec.template.spec.containers.all(c, has(c.image))
              |                             ^^^^^^^^^^^
            policy.yaml:10:29: error[cel-undefined-field] (fails at admission): spec.validations[1].expression: undefined field 'template' (in batch/v1, Kind=CronJob)
               |
            10 |   - expression: object.spec.template.spec.containers.all(c, c.imagePullPolicy == 'Always')
               |                             ^^^^^^^^
        "#]],
    );
}

#[test]
fn bare_field_is_not_a_bool() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.paused
    messageExpression: object.metadata.name
  auditAnnotations:
  - {key: replicas, valueExpression: "object.spec.replicas"}
"#,
        expect![[r#"
            policy.yaml:9:17: error[cel-result-type] (refused on create): spec.validations[0].expression: must evaluate to bool but got dyn
              |
            9 |   - expression: object.spec.paused
              |                 ^^^^^^^^^^^^^^^^^^
            policy.yaml:10:24: error[cel-result-type] (refused on create): spec.validations[0].messageExpression: must evaluate to string but got dyn
               |
            10 |     messageExpression: object.metadata.name
               |                        ^^^^^^^^^^^^^^^^^^^^
            policy.yaml:12:39: error[cel-result-type] (refused on create): spec.auditAnnotations[0].valueExpression: must evaluate to one of [string null_type] but got dyn
               |
            12 |   - {key: replicas, valueExpression: "object.spec.replicas"}
               |                                       ^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn function_too_new_for_the_target_version() {
    let config = DiagnosticsConfig {
        kube_version: KubeVersion::parse("1.30").unwrap(),
        ..DiagnosticsConfig::default()
    };
    check_diagnostics_with(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [services]}
  validations:
  - expression: isCIDR(object.spec.clusterIP + '/32')
  - expression: object.metadata.name.lowerAscii() == object.metadata.name
  - expression: object.spec.clusterIp != 'None'
"#,
        &config,
        expect![[r#"
            policy.yaml:9:17: error[cel-version] (refused on create): spec.validations[0].expression: 'isCIDR' is only available to stored expressions in Kubernetes 1.30; new expressions may use it from Kubernetes 1.31
              |
            9 |   - expression: isCIDR(object.spec.clusterIP + '/32')
              |                 ^^^^^^
            policy.yaml:11:29: error[cel-undefined-field] (fails at admission): spec.validations[2].expression: undefined field 'clusterIp'; did you mean 'clusterIP'? (in /v1, Kind=Service)
               |
            11 |   - expression: object.spec.clusterIp != 'None'
               |                             ^^^^^^^^^
        "#]],
    );
}

#[test]
fn environments_per_field() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  matchConditions:
  - {name: uses-variables, expression: "variables.replicas > 1"}
  - {name: uses-params, expression: "params.x == 1"}
  variables:
  - {name: early, expression: "variables.late > 0"}
  - {name: late, expression: "object.spec.replicas"}
  - {name: limit, expression: "quantity('1Gi')"}
  validations:
  - expression: "variables.late + 1 > 2 && variables.limit.isInteger()"
    messageExpression: "authorizer.requestResource.check('get').allowed() ? 'a' : 'b'"
  - expression: "Object{} == Object{}"
  - expression: "request.userInfo.usrname == 'x' && namespaceObject.metadata.labels.env == 1"
"#,
        expect![[r#"
            policy.yaml:9:41: error[cel-undeclared] (refused on create): spec.matchConditions[0].expression: undeclared reference to 'variables' (in container '')
              |
            9 |   - {name: uses-variables, expression: "variables.replicas > 1"}
              |                                         ^^^^^^^^^
            policy.yaml:10:38: error[cel-undeclared] (refused on create): spec.matchConditions[1].expression: undeclared reference to 'params' (in container '')
               |
            10 |   - {name: uses-params, expression: "params.x == 1"}
               |                                      ^^^^^^
            policy.yaml:12:42: error[cel-undefined-field] (refused on create): spec.variables[0].expression: undefined field 'late'; variables.late is declared after this variable; a variable can only use the variables before it
               |
            12 |   - {name: early, expression: "variables.late > 0"}
               |                                          ^^^^
            policy.yaml:17:25: error[cel-undeclared] (refused on create): spec.validations[0].messageExpression: undeclared reference to 'authorizer' (in container '')
               |
            17 |     messageExpression: "authorizer.requestResource.check('get').allowed() ? 'a' : 'b'"
               |                         ^^^^^^^^^^
            policy.yaml:18:18: error[cel-undeclared] (refused on create): spec.validations[1].expression: undeclared reference to 'Object' (in container '')
               |
            18 |   - expression: "Object{} == Object{}"
               |                  ^^^^^^
            policy.yaml:18:30: error[cel-undeclared] (refused on create): spec.validations[1].expression: undeclared reference to 'Object' (in container '')
               |
            18 |   - expression: "Object{} == Object{}"
               |                              ^^^^^^
            policy.yaml:19:35: error[cel-undefined-field] (refused on create): spec.validations[2].expression: undefined field 'usrname'; did you mean 'username'?
               |
            19 |   - expression: "request.userInfo.usrname == 'x' && namespaceObject.metadata.labels.env == 1"
               |                                   ^^^^^^^
            policy.yaml:19:89: error[cel-no-overload] (refused on create): spec.validations[2].expression: found no matching overload for '_==_' applied to '(string, int)'
               |
            19 |   - expression: "request.userInfo.usrname == 'x' && namespaceObject.metadata.labels.env == 1"
               |                                                                                         ^^
        "#]],
    );
}

#[test]
fn unresolved_param_kind_and_policy() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  paramKind: {apiVersion: example.com/v1, kind: Missing}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= int(params.max)
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: demo}
spec:
  policyName: demo-typo
  validationActions: [Deny]
"#,
        expect![[r#"
            policy.yaml:5:14: warning[unresolved-reference] (accepted): spec.paramKind: example.com/v1, Kind=Missing is neither a bundled kind nor a CustomResourceDefinition in the workspace; params is untyped
              |
            5 |   paramKind: {apiVersion: example.com/v1, kind: Missing}
              |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:16:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo-typo' in the workspace
               |
            16 |   policyName: demo-typo
               |               ^^^^^^^^^
        "#]],
    );
}

#[test]
fn broken_crd_is_reported_on_its_file() {
    check_diagnostics(
        r#"
#- /crd.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets}
  scope: Namespaced
  versions: []
#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= 5
"#,
        expect![[r#"
            crd.yaml:6:10: error[invalid] (refused on create): CustomResourceDefinition spec.names.kind: required; its kinds are untyped
              |
            6 |   names: {plural: widgets}
              |          ^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn date_time_fields_are_strings_at_admission_time() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
  validations:
  - expression: "object.metadata.creationTimestamp < request.options.now"
  - expression: "oldObject == null || object.metadata.creationTimestamp == oldObject.metadata.creationTimestamp"
  - expression: "timestamp(object.metadata.creationTimestamp) < timestamp('2030-01-01T00:00:00Z')"
  - expression: "object.metadata.deletionTimestamp != null || object.metadata.creationTimestamp == timestamp('2030-01-01T00:00:00Z')"
  - expression: "!has(object.metadata.deletionTimestamp) || object.metadata.deletionTimestamp.getFullYear() > 2000"
"#,
        expect![[r#"
            policy.yaml:9:34: warning[cel-type] (typed check only): spec.validations[0].expression: 'creationTimestamp' is typed timestamp (format date-time) but is a string at admission time, where this use fails or never matches; convert it first: timestamp(…)
              |
            9 |   - expression: "object.metadata.creationTimestamp < request.options.now"
              |                                  ^^^^^^^^^^^^^^^^^
            policy.yaml:12:79: warning[cel-type] (typed check only): spec.validations[3].expression: 'creationTimestamp' is typed timestamp (format date-time) but is a string at admission time, where this use fails or never matches; convert it first: timestamp(…)
               |
            12 |   - expression: "object.metadata.deletionTimestamp != null || object.metadata.creationTimestamp == timestamp('2030-01-01T00:00:00Z')"
               |                                                                               ^^^^^^^^^^^^^^^^^
            policy.yaml:13:77: warning[cel-type] (typed check only): spec.validations[4].expression: 'deletionTimestamp' is typed timestamp (format date-time) but is a string at admission time, where this use fails or never matches; convert it first: timestamp(…)
               |
            13 |   - expression: "!has(object.metadata.deletionTimestamp) || object.metadata.deletionTimestamp.getFullYear() > 2000"
               |                                                                             ^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn an_error_for_several_kinds_is_reported_once_naming_them() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments, statefulsets, replicasets]}
  validations:
  - expression: object.spec.replica <= 5
"#,
        expect![[r#"
            policy.yaml:9:29: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'replica'; did you mean 'replicas'? (in apps/v1, Kind=Deployment and apps/v1, Kind=ReplicaSet and apps/v1, Kind=StatefulSet)
              |
            9 |   - expression: object.spec.replica <= 5
              |                             ^^^^^^^
        "#]],
    );
}

#[test]
fn rules_that_match_nothing_say_so_with_a_did_you_mean() {
    // Resolution per src/schema/resources.rs: deployments are served by group "apps", not core;
    // a rule names plurals; apps/v1beta1 deployments are no longer served.
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [deployments, pods/status, deployment, podz]}
    - {apiGroups: [apps], apiVersions: [v1beta1], operations: [CREATE], resources: [deployments]}
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
    - {apiGroups: ["*"], apiVersions: [v1], operations: [CREATE], resources: [anything]}
  validations:
  - expression: "true"
"#,
        expect![[r#"
            policy.yaml:7:78: warning[unresolved-reference] (accepted): spec.matchConstraints.resourceRules[0].resources[0]: no resource 'deployments' in API group "" version v1 of Kubernetes 1.37 (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it; did you mean apiGroups: ["apps"]?
              |
            7 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [deployments, pods/status, deployment, podz]}
              |                                                                              ^^^^^^^^^^^
            policy.yaml:7:104: warning[unresolved-reference] (accepted): spec.matchConstraints.resourceRules[0].resources[2]: no resource 'deployment' in API group "" version v1 of Kubernetes 1.37 (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it; did you mean `deployments` in apiGroups: ["apps"]?
              |
            7 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [deployments, pods/status, deployment, podz]}
              |                                                                                                        ^^^^^^^^^^
            policy.yaml:7:116: warning[unresolved-reference] (accepted): spec.matchConstraints.resourceRules[0].resources[3]: no resource 'podz' in API group "" version v1 of Kubernetes 1.37 (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it; did you mean `pods`?
              |
            7 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [deployments, pods/status, deployment, podz]}
              |                                                                                                                    ^^^^
            policy.yaml:8:85: warning[unresolved-reference] (accepted): spec.matchConstraints.resourceRules[1].resources[0]: no resource 'deployments' in API group "apps" version v1beta1 of Kubernetes 1.37 (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it; did you mean apiVersions: ["v1"]?
              |
            8 |     - {apiGroups: [apps], apiVersions: [v1beta1], operations: [CREATE], resources: [deployments]}
              |                                                                                     ^^^^^^^^^^^
            policy.yaml:9:87: warning[unresolved-reference] (accepted): spec.matchConstraints.resourceRules[2].resources[0]: no CustomResourceDefinition in the checked files serves 'widgets' in API group "example.com" version v1, so the typed check could not run for it (the rule is fine if the CRD is installed in the cluster); add the CRD's file to the checked paths or pass it with --schema FILE|DIR
              |
            9 |     - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
              |                                                                                       ^^^^^^^
        "#]],
    );
}
