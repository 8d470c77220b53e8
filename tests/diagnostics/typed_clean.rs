//! The false-positive guard of the typed check: realistic policies in the style of the Kubernetes
//! documentation and of pod-security libraries (containers, initContainers, ephemeralContainers
//! with `has()` and `.?`), checked against the real schemas, must be clean.

use crate::check_diagnostics;
use expect_test::expect;

#[test]
fn kubernetes_docs_policies_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo-policy.example.com}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments", "statefulsets", "replicasets"]
  matchConditions:
  - name: exclude-leases
    expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")'
  - name: exclude-kubelet-requests
    expression: '!("system:nodes" in request.userInfo.groups)'
  - name: 'rbac'
    expression: 'request.resource.group != "rbac.authorization.k8s.io"'
  variables:
  - name: replicas
    expression: "object.spec.replicas"
  - name: maxReplicas
    expression: "int(params.data.maxReplicas)"
  - name: labels
    expression: "object.metadata.?labels.orValue({})"
  validations:
  - expression: "variables.replicas <= variables.maxReplicas"
    messageExpression: "'object.spec.replicas must be no greater than ' + string(variables.maxReplicas)"
    reason: Invalid
  - expression: "!has(object.spec.template.metadata.labels) || 'app' in object.spec.template.metadata.labels"
  - expression: "'env' in variables.labels && variables.labels['env'] in ['prod', 'staging']"
  - expression: "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"
  - expression: "object.metadata.name.matches('^[a-z0-9-]+$') && size(object.metadata.name) < 64"
  - expression: "oldObject == null || object.spec.selector == oldObject.spec.selector"
  - expression: "authorizer.group('apps').resource('deployments').namespace(request.namespace).check('update').allowed()"
  auditAnnotations:
  - key: high-replica-count
    valueExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)"
"#,
        expect![[r#""#]],
    );
}

#[test]
fn pod_security_style_policies_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: pod-security}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
  variables:
  - name: allContainers
    expression: >-
      object.spec.containers +
      (has(object.spec.initContainers) ? object.spec.initContainers : []) +
      (has(object.spec.ephemeralContainers) ? object.spec.ephemeralContainers : [])
  validations:
  - expression: >-
      variables.allContainers.all(c, !has(c.securityContext) ||
      !has(c.securityContext.privileged) || c.securityContext.privileged == false)
    message: privileged containers are not allowed
  - expression: "!has(object.spec.hostNetwork) || !object.spec.hostNetwork"
  - expression: >-
      object.spec.containers.all(c, c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false)
  - expression: >-
      object.spec.?securityContext.?runAsNonRoot.orValue(false) ||
      object.spec.containers.all(c, c.?securityContext.?runAsNonRoot.orValue(false))
  - expression: >-
      object.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.capabilities) ||
      !has(c.securityContext.capabilities.add) ||
      c.securityContext.capabilities.add.all(cap, cap in ['NET_BIND_SERVICE']))
  - expression: >-
      !has(object.spec.volumes) || object.spec.volumes.all(v, !has(v.hostPath))
  - expression: >-
      object.spec.containers.all(c, has(c.resources) && has(c.resources.limits) &&
      'memory' in c.resources.limits &&
      quantity(string(c.resources.limits['memory'])).compareTo(quantity('2Gi')) <= 0)
  - expression: >-
      object.spec.containers.all(c, !has(c.ports) || c.ports.all(p, !has(p.hostPort) || p.hostPort == 0))
  - expression: >-
      object.metadata.?annotations[?'seccomp'].orValue('') != 'unconfined' &&
      object.spec.?securityContext.?seccompProfile.?type.orValue('RuntimeDefault') in ['RuntimeDefault', 'Localhost']
  - expression: "object.spec.containers.exists_one(c, c.name == 'app') || size(object.spec.containers) > 1"
"#,
        expect![[r#""#]],
    );
}

#[test]
fn workload_policies_across_kinds_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: workloads}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments, daemonsets, statefulsets]}
    excludeResourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [daemonsets]}
  validations:
  - expression: "object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.requests))"
  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
  - expression: "object.spec.selector.?matchLabels.orValue({}).size() > 0"
  - expression: "!has(object.spec.template.spec.serviceAccountName) || object.spec.template.spec.serviceAccountName != 'default'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: services-and-ingresses}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [services]}
  validations:
  - expression: "object.spec.type != 'LoadBalancer' || has(object.metadata.annotations)"
  - expression: "!has(object.spec.ports) || object.spec.ports.all(p, p.port > 1024 && (!has(p.nodePort) || p.nodePort >= 30000))"
  - expression: "!has(object.spec.externalIPs) || object.spec.externalIPs.all(ip, isIP(ip) && !ip(ip).isLoopback())"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: namespaces}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE, DELETE], resources: [namespaces]}
  validations:
  - expression: "request.operation == 'DELETE' || object.metadata.name.size() <= 63"
  - expression: "oldObject == null || !has(oldObject.metadata.labels) || oldObject.metadata.labels == object.metadata.labels"
"#,
        expect![[r#""#]],
    );
}

#[test]
fn mutating_policies_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: defaults}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  variables:
  - {name: replicas, expression: "has(object.spec.replicas) ? object.spec.replicas : 1"}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{
          metadata: Object.metadata{labels: {"managed": "true"}},
          spec: Object.spec{
            replicas: variables.replicas,
            template: Object.spec.template{
              spec: Object.spec.template.spec{
                containers: object.spec.template.spec.containers.map(c,
                  Object.spec.template.spec.containers{name: c.name, imagePullPolicy: "Always"})
              }
            }
          }
        }
  - patchType: JSONPatch
    jsonPatch:
      expression: >-
        has(object.metadata.annotations) ? [] : [
          JSONPatch{op: "add", path: "/metadata/annotations", value: {}},
          JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/x"), value: "y"}
        ]
"#,
        expect![[r#""#]],
    );
}

#[test]
fn pod_controller_policies_guarded_by_kind_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: pod-controllers}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments, statefulsets, daemonsets]}
    - {apiGroups: [batch], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [jobs, cronjobs]}
  variables:
  - name: podSpec
    expression: >-
      object.kind == 'Pod' ? object.spec :
      object.kind == 'CronJob' ? object.spec.jobTemplate.spec.template.spec :
      object.spec.template.spec
  - name: templateLabels
    expression: >-
      has(object.spec.template) ? object.spec.template.metadata.?labels.orValue({}) : {}
  validations:
  - expression: "variables.podSpec.containers.all(c, c.image.contains('@sha256:'))"
  - expression: "!has(variables.podSpec.hostPID) || !variables.podSpec.hostPID"
  - expression: "request.kind.kind != 'Deployment' || object.spec.replicas <= 10"
  - expression: "'app' in variables.templateLabels || object.kind == 'Pod'"
"#,
        expect![[r#""#]],
    );
}

/// Quantity fields (`resources.limits`, `requests`) are strings in the admission object (a
/// built-in Quantity always serialises as a string), so `quantity(…)` takes them; int-or-string
/// fields are `dyn` and take either comparison. Comparing a Quantity string with a number is the
/// runtime's `no such overload`.
#[test]
fn quantity_and_int_or_string_fields() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: resources}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: >-
      object.spec.template.spec.containers.all(c,
        has(c.resources.limits) && 'cpu' in c.resources.limits &&
        quantity(c.resources.limits['cpu']).isLessThan(quantity('2')))
  - expression: "isQuantity(object.spec.template.spec.containers[0].resources.requests['memory'])"
  - expression: >-
      !has(object.spec.strategy.rollingUpdate) ||
      object.spec.strategy.rollingUpdate.maxSurge == 1 ||
      object.spec.strategy.rollingUpdate.maxSurge == '25%'
  - expression: "object.spec.template.spec.containers[0].resources.limits['cpu'] < 2"
"#,
        expect![[r#"
            policy.yaml:18:82: error[cel-no-overload] (fails at admission): spec.validations[3].expression: found no matching overload for '_<_' applied to '(string, int)' (in apps/v1, Kind=Deployment)
               |
            18 |   - expression: "object.spec.template.spec.containers[0].resources.limits['cpu'] < 2"
               |                                                                                  ^
        "#]],
    );
}
