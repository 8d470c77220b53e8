//! Fixture tests of what admission sees: each case is an operation, a stage and YAML objects
//! (`object`, then `oldObject` after a `---`); the snapshot shows the request's name and namespace,
//! the changed paths and the prepared objects. Each case names the upstream code it follows.

use expect_test::{Expect, expect};
use serde_json::Value as Json;

use super::{Stage, prepare};
use crate::policy::admission::Request;
use crate::policy::admission::json::documents;
use crate::schema::{CrdKind, from_crd_json};

const WIDGET_CRD: &str = r#"
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
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, default: 3}
          status:
            type: object
            properties:
              ready: {type: boolean}
"#;

fn crds() -> Vec<CrdKind> {
    let docs = documents(WIDGET_CRD).expect("CRD YAML");
    from_crd_json(&docs[0]).expect("valid CRD")
}

#[track_caller]
fn check(operation: &str, stage: Stage, yaml: &str, expect: Expect) {
    let docs = documents(yaml).expect("fixture YAML");
    let mut docs = docs.into_iter();
    let object = docs.next();
    let old = docs.next();
    let (object, old) = match operation {
        "DELETE" => (None, object),
        _ => (object, old),
    };
    let mut request = Request::new(object, old, Some(operation));
    let prepared = prepare(&mut request, stage, &crds(), 37);
    let mut out = format!(
        "request: name={:?} namespace={:?}\n",
        request.name, request.namespace
    );
    for (label, list) in [
        ("changed", &prepared.defaulted),
        ("pruned", &prepared.pruned),
        ("errors", &prepared.errors),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("{label}:\n"));
            for path in list {
                out.push_str(&format!("  {path}\n"));
            }
        }
    }
    for (label, value) in [
        ("object", &request.object),
        ("oldObject", &request.old_object),
    ] {
        if let Some(value) = value {
            let text = serde_json::to_string(&strip_spec_template(value)).unwrap_or_default();
            out.push_str(&format!("{label}: {text}\n"));
        }
    }
    expect.assert_eq(&out);
}

/// Pod template defaults are covered by the defaulting fixtures; left out here for brevity.
fn strip_spec_template(value: &Json) -> Json {
    let mut value = value.clone();
    if let Some(spec) = value.get_mut("spec").and_then(Json::as_object_mut) {
        spec.remove("template");
    }
    value
}

const DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  generateName: web-
  namespace: shop
  uid: from-the-client
  creationTimestamp: "2020-01-01T00:00:00Z"
  selfLink: /apis/apps/v1/x
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.25"}]
status:
  replicas: 7
"#;

#[test]
fn mutating_admission_on_create_sees_wiped_system_fields() {
    // handlers/create.go: rest.WipeObjectMetaSystemFields before admission; the decoded object
    // is defaulted (apps/v1 SetDefaults_Deployment).
    check(
        "CREATE",
        Stage::Mutating,
        DEPLOYMENT,
        expect![[r#"
            request: name="" namespace="shop"
            changed:
              spec.strategy.type
              spec.strategy.rollingUpdate
              spec.strategy.rollingUpdate.maxUnavailable
              spec.strategy.rollingUpdate.maxSurge
              spec.revisionHistoryLimit
              spec.progressDeadlineSeconds
              spec.template.spec.dnsPolicy
              spec.template.spec.restartPolicy
              spec.template.spec.securityContext
              spec.template.spec.terminationGracePeriodSeconds
              spec.template.spec.schedulerName
              spec.template.spec.containers[0].imagePullPolicy
              spec.template.spec.containers[0].terminationMessagePath
              spec.template.spec.containers[0].terminationMessagePolicy
              metadata.uid
              metadata.selfLink
              metadata.creationTimestamp
            object: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":null,"generateName":"web-","namespace":"shop"},"spec":{"progressDeadlineSeconds":600,"replicas":2,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}},"status":{"replicas":7}}
        "#]],
    );
}

#[test]
fn validating_admission_on_create_sees_the_prepared_object() {
    // registry/store.go create: FillObjectMetaSystemFields, GenerateName, then BeforeCreate with
    // deployment strategy PrepareForCreate (Status = {}, Generation = 1).
    check(
        "CREATE",
        Stage::Validating,
        DEPLOYMENT,
        expect![[r#"
            request: name="web-r9xww" namespace="shop"
            changed:
              spec.strategy.type
              spec.strategy.rollingUpdate
              spec.strategy.rollingUpdate.maxUnavailable
              spec.strategy.rollingUpdate.maxSurge
              spec.revisionHistoryLimit
              spec.progressDeadlineSeconds
              spec.template.spec.dnsPolicy
              spec.template.spec.restartPolicy
              spec.template.spec.securityContext
              spec.template.spec.terminationGracePeriodSeconds
              spec.template.spec.schedulerName
              spec.template.spec.containers[0].imagePullPolicy
              spec.template.spec.containers[0].terminationMessagePath
              spec.template.spec.containers[0].terminationMessagePolicy
              metadata.uid
              metadata.selfLink
              metadata.creationTimestamp
              metadata.name
              status
              metadata.generation
            object: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generateName":"web-","generation":1,"name":"web-r9xww","namespace":"shop","uid":"7185413d-eca6-406c-960b-ed3160b19091"},"spec":{"progressDeadlineSeconds":600,"replicas":2,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}},"status":{}}
        "#]],
    );
}

#[test]
fn a_job_gets_its_generated_selector_with_the_placeholder_uid() {
    // batch job strategy PrepareForCreate: generateSelectorIfNeeded, Status = {}, Generation = 1.
    check(
        "CREATE",
        Stage::Validating,
        r#"
apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: shop}
spec:
  template:
    metadata: {labels: {app: once}}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: "busybox:1.36"}]
"#,
        expect![[r#"
            request: name="once" namespace="shop"
            changed:
              spec.completions
              spec.parallelism
              spec.backoffLimit
              metadata.labels
              spec.completionMode
              spec.suspend
              spec.podReplacementPolicy
              spec.manualSelector
              spec.template.spec.dnsPolicy
              spec.template.spec.securityContext
              spec.template.spec.terminationGracePeriodSeconds
              spec.template.spec.schedulerName
              spec.template.spec.containers[0].imagePullPolicy
              spec.template.spec.containers[0].terminationMessagePath
              spec.template.spec.containers[0].terminationMessagePolicy
              metadata.creationTimestamp
              metadata.uid
              spec.template.metadata.labels[job-name]
              spec.template.metadata.labels[batch.kubernetes.io/job-name]
              spec.template.metadata.labels[controller-uid]
              spec.template.metadata.labels[batch.kubernetes.io/controller-uid]
              spec.selector.matchLabels[batch.kubernetes.io/controller-uid]
              metadata.labels[job-name]
              metadata.labels[batch.kubernetes.io/job-name]
              metadata.labels[controller-uid]
              metadata.labels[batch.kubernetes.io/controller-uid]
              status
              metadata.generation
            object: {"apiVersion":"batch/v1","kind":"Job","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generation":1,"labels":{"app":"once","batch.kubernetes.io/controller-uid":"864dcbf2-306e-4086-a1f7-30394c4e6f8b","batch.kubernetes.io/job-name":"once","controller-uid":"864dcbf2-306e-4086-a1f7-30394c4e6f8b","job-name":"once"},"name":"once","namespace":"shop","uid":"864dcbf2-306e-4086-a1f7-30394c4e6f8b"},"spec":{"backoffLimit":6,"completionMode":"NonIndexed","completions":1,"manualSelector":false,"parallelism":1,"podReplacementPolicy":"TerminatingOrFailed","selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"864dcbf2-306e-4086-a1f7-30394c4e6f8b"}},"suspend":false},"status":{}}
        "#]],
    );
}

#[test]
fn a_pod_is_pending_with_its_qos_class_and_generation() {
    // core pod strategy PrepareForCreate: Generation = 1, Status{Phase: Pending, QOSClass}; the
    // requests were defaulted from the limits first (SetDefaults_Pod), so the pod is Guaranteed.
    check(
        "CREATE",
        Stage::Validating,
        r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers:
  - name: web
    image: "nginx:1.25"
    resources:
      limits: {cpu: "1", memory: 1Gi}
"#,
        expect![[r#"
            request: name="web" namespace="shop"
            changed:
              spec.containers[0].resources.requests[cpu]
              spec.containers[0].resources.requests[memory]
              spec.enableServiceLinks
              spec.dnsPolicy
              spec.restartPolicy
              spec.securityContext
              spec.terminationGracePeriodSeconds
              spec.schedulerName
              spec.containers[0].imagePullPolicy
              spec.containers[0].terminationMessagePath
              spec.containers[0].terminationMessagePolicy
              metadata.creationTimestamp
              metadata.uid
              status
              metadata.generation
            object: {"apiVersion":"v1","kind":"Pod","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generation":1,"name":"web","namespace":"shop","uid":"9475a035-2bfd-4d38-8a8c-81898de1bcbf"},"spec":{"containers":[{"image":"nginx:1.25","imagePullPolicy":"IfNotPresent","name":"web","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30},"status":{"phase":"Pending","qosClass":"Guaranteed"}}
        "#]],
    );
}

#[test]
fn a_namespace_gets_the_kubernetes_finalizer_and_its_name_label() {
    // core namespace strategy PrepareForCreate (finalizer, Status Active) and Canonicalize (label
    // from the generated name).
    check(
        "CREATE",
        Stage::Validating,
        "apiVersion: v1\nkind: Namespace\nmetadata: {generateName: tmp-}\n",
        expect![[r#"
            request: name="tmp-44qnj" namespace=""
            changed:
              status.phase
              metadata.creationTimestamp
              metadata.uid
              metadata.name
              spec.finalizers
              metadata.labels[kubernetes.io/metadata.name]
            object: {"apiVersion":"v1","kind":"Namespace","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generateName":"tmp-","labels":{"kubernetes.io/metadata.name":"tmp-44qnj"},"name":"tmp-44qnj","uid":"498352d3-dfa6-49ba-9b93-534bf53a296b"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}
        "#]],
    );
}

#[test]
fn a_cluster_scoped_object_loses_its_namespace() {
    // rest.EnsureObjectNamespaceMatchesRequestNamespace: cluster-scoped, clear namespace.
    check(
        "CREATE",
        Stage::Mutating,
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r, namespace: shop}\n",
        expect![[r#"
            request: name="r" namespace=""
            changed:
              metadata.namespace
            object: {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"creationTimestamp":null,"name":"r"}}
        "#]],
    );
}

#[test]
fn a_custom_resource_is_pruned_defaulted_and_loses_its_status_on_create() {
    // customresource strategy PrepareForCreate: status dropped with the status subresource,
    // generation 1; decoding pruned the unknown field and applied the schema default.
    check(
        "CREATE",
        Stage::Validating,
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop}\nspec: {colour: red}\nstatus: {ready: true}\n",
        expect![[r#"
            request: name="w" namespace="shop"
            changed:
              spec.size
              metadata.creationTimestamp
              metadata.uid
              status
              metadata.generation
            pruned:
              spec.colour
            object: {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generation":1,"name":"w","namespace":"shop","uid":"cb3487c1-3252-481a-bdbf-798a5049da8f"},"spec":{"size":3}}
        "#]],
    );
}

#[test]
fn an_update_keeps_status_and_identity_and_bumps_generation_on_a_spec_change() {
    // rest.BeforeUpdate (generation, uid, creationTimestamp from the old object) and the deployment
    // strategy PrepareForUpdate (Status from the old object, Generation + 1 on a spec change).
    check(
        "UPDATE",
        Stage::Validating,
        r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.25"}]
status: {replicas: 9}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  uid: 11111111-2222-4333-8444-555555555555
  creationTimestamp: "2024-01-01T00:00:00Z"
  generation: 4
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.25"}]
status: {replicas: 2, readyReplicas: 2}
"#,
        expect![[r#"
            request: name="web" namespace="shop"
            changed:
              spec.strategy.type
              spec.strategy.rollingUpdate
              spec.strategy.rollingUpdate.maxUnavailable
              spec.strategy.rollingUpdate.maxSurge
              spec.revisionHistoryLimit
              spec.progressDeadlineSeconds
              spec.template.spec.dnsPolicy
              spec.template.spec.restartPolicy
              spec.template.spec.securityContext
              spec.template.spec.terminationGracePeriodSeconds
              spec.template.spec.schedulerName
              spec.template.spec.containers[0].imagePullPolicy
              spec.template.spec.containers[0].terminationMessagePath
              spec.template.spec.containers[0].terminationMessagePolicy
              oldObject.spec.strategy.type
              oldObject.spec.strategy.rollingUpdate
              oldObject.spec.strategy.rollingUpdate.maxUnavailable
              oldObject.spec.strategy.rollingUpdate.maxSurge
              oldObject.spec.revisionHistoryLimit
              oldObject.spec.progressDeadlineSeconds
              oldObject.spec.template.spec.dnsPolicy
              oldObject.spec.template.spec.restartPolicy
              oldObject.spec.template.spec.securityContext
              oldObject.spec.template.spec.terminationGracePeriodSeconds
              oldObject.spec.template.spec.schedulerName
              oldObject.spec.template.spec.containers[0].imagePullPolicy
              oldObject.spec.template.spec.containers[0].terminationMessagePath
              oldObject.spec.template.spec.containers[0].terminationMessagePolicy
              metadata.generation
              status
              metadata.uid
              metadata.creationTimestamp
            object: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":"2024-01-01T00:00:00Z","generation":5,"name":"web","namespace":"shop","uid":"11111111-2222-4333-8444-555555555555"},"spec":{"progressDeadlineSeconds":600,"replicas":3,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}},"status":{"readyReplicas":2,"replicas":2}}
            oldObject: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":"2024-01-01T00:00:00Z","generation":4,"name":"web","namespace":"shop","uid":"11111111-2222-4333-8444-555555555555"},"spec":{"progressDeadlineSeconds":600,"replicas":2,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}},"status":{"readyReplicas":2,"replicas":2}}
        "#]],
    );
}

#[test]
fn an_update_of_a_custom_resource_without_changes_keeps_the_generation() {
    // customresource strategy PrepareForUpdate: only changes outside metadata bump the generation;
    // the old object, a sample without server fields, gets placeholders as a stored object has them.
    check(
        "UPDATE",
        Stage::Validating,
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop, labels: {a: b}}\nspec: {size: 3}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop}\nspec: {}\n",
        expect![[r#"
            request: name="w" namespace="shop"
            changed:
              oldObject.spec.size
              oldObject.metadata.uid
              oldObject.metadata.creationTimestamp
              oldObject.metadata.generation
              metadata.generation
              metadata.uid
              metadata.creationTimestamp
            object: {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generation":1,"labels":{"a":"b"},"name":"w","namespace":"shop","uid":"cb3487c1-3252-481a-bdbf-798a5049da8f"},"spec":{"size":3}}
            oldObject: {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","generation":1,"name":"w","namespace":"shop","uid":"cb3487c1-3252-481a-bdbf-798a5049da8f"},"spec":{"size":3}}
        "#]],
    );
}

#[test]
fn the_old_object_of_a_delete_is_the_stored_one() {
    check(
        "DELETE",
        Stage::Validating,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\ndata: {a: b}\n",
        expect![[r#"
            request: name="c" namespace="shop"
            changed:
              oldObject.metadata.uid
              oldObject.metadata.creationTimestamp
            oldObject: {"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"creationTimestamp":"1970-01-01T00:00:00Z","name":"c","namespace":"shop","uid":"9aa66084-d63e-4ed6-85c0-4b8d107e1c8d"}}
        "#]],
    );
}

#[test]
fn the_reproduced_strategies_with_their_sources() {
    expect![[r#"
        apps/Deployment: status {}; generation 1 — pkg/registry/apps/deployment/strategy.go PrepareForCreate, PrepareForUpdate
        apps/ReplicaSet: status {"replicas": 0}; generation 1 — pkg/registry/apps/replicaset/strategy.go PrepareForCreate (ReplicaSetStatus.Replicas has no omitempty)
        apps/StatefulSet: status {"replicas": 0, "availableReplicas": 0}; generation 1 — pkg/registry/apps/statefulset/strategy.go PrepareForCreate
        apps/DaemonSet: status {"currentNumberScheduled": 0, "numberMisscheduled": 0, "desiredNumberScheduled": 0, "numberReady": 0}; generation 1 — pkg/registry/apps/daemonset/strategy.go PrepareForCreate
        batch/Job: status {}; generation 1 — pkg/registry/batch/job/strategy.go PrepareForCreate (generateSelectorIfNeeded), PrepareForUpdate
        batch/CronJob: status {}; generation 1 — pkg/registry/batch/cronjob/strategy.go PrepareForCreate
        core/ReplicationController: status {"replicas": 0}; generation 1 — pkg/registry/core/replicationcontroller/strategy.go PrepareForCreate
        core/Pod: status {"phase": "Pending", "qosClass": …}; generation 1 from 1.33 — pkg/registry/core/pod/strategy.go PrepareForCreate (Generation = 1 from 1.33, kubernetes/kubernetes#130181; Status = {Phase: Pending, QOSClass: GetPodQOS})
        core/Service: status {"loadBalancer": {}}; generation not set — pkg/registry/core/service/strategy.go PrepareForCreate
        core/Namespace: status {"phase": "Active"}; generation not set — pkg/registry/core/namespace/strategy.go PrepareForCreate (kubernetes finalizer), Canonicalize (name label)
        networking.k8s.io/Ingress: status {"loadBalancer": {}}; generation 1 — pkg/registry/networking/ingress/strategy.go PrepareForCreate
        networking.k8s.io/NetworkPolicy: status kept; generation 1 — pkg/registry/networking/networkpolicy/strategy.go PrepareForCreate
        policy/PodDisruptionBudget: status {"disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0}; generation 1 — pkg/registry/policy/poddisruptionbudget/strategy.go PrepareForCreate"#]].assert_eq(&super::strategy::describe().join("\n"));
}
