//! The typed check of MutatingAdmissionPolicy mutations: `Object{…}` literals and `JSONPatch`
//! literals against the matched kind's schema.

use crate::check_diagnostics;
use expect_test::expect;

#[test]
fn mutation_field_typo() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{replica: 1}}"
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{replicas: 'one'}}"
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{replicas: 2, template: object.spec.template}}"
"#,
        expect![[r#"
            policy.yaml:12:45: error[cel-undefined-field] (fails at admission): spec.mutations[0].applyConfiguration.expression: undefined field 'replica'; did you mean 'replicas'? (in apps/v1, Kind=Deployment)
               |
            12 |       expression: "Object{spec: Object.spec{replica: 1}}"
               |                                             ^^^^^^^
            policy.yaml:15:45: error[cel-type] (fails at admission): spec.mutations[1].applyConfiguration.expression: expected type of field 'replicas' is 'int' but provided type is 'string' (in apps/v1, Kind=Deployment)
               |
            15 |       expression: "Object{spec: Object.spec{replicas: 'one'}}"
               |                                             ^^^^^^^^
        "#]],
    );
}

/// `null` for a field of an apply configuration: the API server accepts the policy (every field of
/// an `Object` type is `dyn` to its compiler) but fails the mutation at runtime, because the null
/// reaches server-side apply as no value of the field's type (see the `null-replicas` case of
/// tests/suites/mutating/mutations.test.yaml). So it stays an error, and says why.
#[test]
fn apply_configuration_null_fields() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{replicas: null}}"
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
        containers: [Object.spec.template.spec.containers{name: 'app', command: null}]}}}}
"#,
        expect![[r#"
            policy.yaml:12:45: error[cel-type] (fails at admission): spec.mutations[0].applyConfiguration.expression: expected type of field 'replicas' is 'int' but provided type is 'null'; a null in an apply configuration does not remove the field: the API server fails the mutation (a JSON Patch `remove` removes a field) (in apps/v1, Kind=Deployment)
               |
            12 |       expression: "Object{spec: Object.spec{replicas: null}}"
               |                                             ^^^^^^^^
            policy.yaml:17:72: error[cel-type] (fails at admission): spec.mutations[1].applyConfiguration.expression: expected type of field 'command' is 'list(string)' but provided type is 'null'; a null in an apply configuration does not remove the field: the API server fails the mutation (a JSON Patch `remove` removes a field) (in apps/v1, Kind=Deployment)
               |
            17 |         containers: [Object.spec.template.spec.containers{name: 'app', command: null}]}}}}
               |                                                                        ^^^^^^^
        "#]],
    );
}

#[test]
fn json_patch_literals_against_the_schema() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: >-
        [
          JSONPatch{op: "insert", path: "/spec/replicas", value: 1},
          JSONPatch{op: "replace", path: "/spec/replica", value: 1},
          JSONPatch{op: "replace", path: "/spec/replicas", value: "3"},
          JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: {"name": "x"}},
          JSONPatch{op: "add", path: "/spec/template/spec/containers/first/image", value: "x"},
          JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/team"), value: "a"},
          JSONPatch{op: "remove", path: "/spec/paused"},
          JSONPatch{op: "copy", from: "/spec/minReadySecond", path: "/spec/progressDeadlineSeconds"}
        ]
"#,
        expect![[r#"
            policy.yaml:14:25: error[cel-type] (fails at admission): spec.mutations[0].jsonPatch.expression: JSONPatch op 'insert' is not one of add, remove, replace, move, copy, test (in apps/v1, Kind=Deployment)
               |
            14 |           JSONPatch{op: "insert", path: "/spec/replicas", value: 1},
               |                         ^^^^^^^^
            policy.yaml:15:42: error[cel-undefined-field] (fails at admission): spec.mutations[0].jsonPatch.expression: JSONPatch path '/spec/replica': no field 'replica' in 'apps.v1.Deployment.spec'; did you mean 'replicas'? (in apps/v1, Kind=Deployment)
               |
            15 |           JSONPatch{op: "replace", path: "/spec/replica", value: 1},
               |                                          ^^^^^^^^^^^^^^^
            policy.yaml:16:67: error[cel-type] (fails at admission): spec.mutations[0].jsonPatch.expression: JSONPatch value of type 'string' does not fit '/spec/replicas' of type 'int' (in apps/v1, Kind=Deployment)
               |
            16 |           JSONPatch{op: "replace", path: "/spec/replicas", value: "3"},
               |                                                                   ^^^
            policy.yaml:18:38: error[cel-undefined-field] (fails at admission): spec.mutations[0].jsonPatch.expression: JSONPatch path '/spec/template/spec/containers/first/image': 'first' is not a list index or '-' (in apps/v1, Kind=Deployment)
               |
            18 |           JSONPatch{op: "add", path: "/spec/template/spec/containers/first/image", value: "x"},
               |                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:21:39: error[cel-undefined-field] (fails at admission): spec.mutations[0].jsonPatch.expression: JSONPatch path '/spec/minReadySecond': no field 'minReadySecond' in 'apps.v1.Deployment.spec'; did you mean 'minReadySeconds'? (in apps/v1, Kind=Deployment)
               |
            21 |           JSONPatch{op: "copy", from: "/spec/minReadySecond", path: "/spec/progressDeadlineSeconds"}
               |                                       ^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn apply_configuration_setting_atomic_parts() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}'
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
          nodeSelector: {"disk": "ssd"},
          imagePullSecrets: [Object.spec.template.spec.imagePullSecrets{name: "pull"}],
          containers: [
            Object.spec.template.spec.containers{name: "a", image: "a:1"},
            Object.spec.template.spec.containers{name: "b", command: ["sleep"]}
          ]
        }}}}
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
          containers: object.spec.template.spec.containers.map(c,
            Object.spec.template.spec.containers{name: c.name, securityContext:
              Object.spec.template.spec.containers.securityContext{
                capabilities: Object.spec.template.spec.containers.securityContext.capabilities{drop: ["ALL"]}}})
        }}}}
"#,
        expect![[r#"
            policy.yaml:12:45: error[cel-type] (fails at admission): spec.mutations[0].applyConfiguration.expression: may not mutate atomic arrays, maps or structs: .spec.selector (in apps/v1, Kind=Deployment)
               |
            12 |       expression: 'Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}'
               |                                             ^^^^^^^^
            policy.yaml:17:11: error[cel-type] (fails at admission): spec.mutations[1].applyConfiguration.expression: may not mutate atomic arrays, maps or structs: .spec.template.spec.nodeSelector (in apps/v1, Kind=Deployment)
               |
            17 |           nodeSelector: {"disk": "ssd"},
               |           ^^^^^^^^^^^^
            policy.yaml:18:11: error[cel-type] (fails at admission): spec.mutations[1].applyConfiguration.expression: may not mutate atomic arrays, maps or structs: .spec.template.spec.imagePullSecrets[0] (in apps/v1, Kind=Deployment)
               |
            18 |           imagePullSecrets: [Object.spec.template.spec.imagePullSecrets{name: "pull"}],
               |           ^^^^^^^^^^^^^^^^
            policy.yaml:21:61: error[cel-type] (fails at admission): spec.mutations[1].applyConfiguration.expression: may not mutate atomic arrays, maps or structs: .spec.template.spec.containers[1].command (in apps/v1, Kind=Deployment)
               |
            21 |             Object.spec.template.spec.containers{name: "b", command: ["sleep"]}
               |                                                             ^^^^^^^
            policy.yaml:31:97: error[cel-type] (fails at admission): spec.mutations[2].applyConfiguration.expression: may not mutate atomic arrays, maps or structs: .spec.template.spec.containers[*].securityContext.capabilities.drop (in apps/v1, Kind=Deployment)
               |
            31 |                 capabilities: Object.spec.template.spec.containers.securityContext.capabilities{drop: ["ALL"]}}})
               |                                                                                                 ^^^^
        "#]],
    );
}

#[test]
fn apply_configuration_merging_granular_parts_is_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{
          metadata: Object.metadata{labels: {"team": "a"}, finalizers: ["example.com/keep"]},
          spec: Object.spec{replicas: 2, template: Object.spec.template{
            metadata: Object.spec.template.metadata{annotations: {"a": "b"}},
            spec: Object.spec.template.spec{
              containers: [Object.spec.template.spec.containers{
                name: "a",
                image: "a:1",
                env: [Object.spec.template.spec.containers.env{name: "X", value: "1"}],
                resources: Object.spec.template.spec.containers.resources{limits: {"cpu": "1"}}
              }]
            }
          }}
        }
"#,
        expect![[r#""#]],
    );
}

/// A map-typed field written as an `Object.…` literal: the API server's compiler types every field
/// of an `Object` type `dyn` (apiserver `pkg/cel/mutation/typeresolver.go`) and server-side apply
/// takes `Object.metadata.labels{foo: "bar"}` as the map `{foo: "bar"}`, so it checks clean and
/// its values are checked against the map's value type (`string` for labels and annotations).
#[test]
fn map_typed_fields_as_object_literals() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: Object.metadata.labels{foo: "bar"}}}'
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{spec: Object.spec{template: Object.spec.template{metadata:
        Object.spec.template.metadata{annotations: Object.spec.template.metadata.annotations{a: "b"}}}}}
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: Object.metadata.labels{replicas: 3}}}'
"#,
        expect![[r#"
            policy.yaml:20:84: error[cel-type] (fails at admission): spec.mutations[2].applyConfiguration.expression: expected type of field 'replicas' is 'string' but provided type is 'int' (in apps/v1, Kind=Deployment)
               |
            20 |       expression: 'Object{metadata: Object.metadata{labels: Object.metadata.labels{replicas: 3}}}'
               |                                                                                    ^^^^^^^^
        "#]],
    );
}
