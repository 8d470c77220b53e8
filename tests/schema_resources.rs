//! Group/version/resource → kind resolution over the bundled kinds: plurals, wildcards and
//! subresources as `matchConstraints.resourceRules` name them.

use std::fmt::Write;

use admission_ls::schema::bundled;
use admission_ls::schema::resources::{self, is_namespaced, plural, resolve_resources};
use expect_test::{Expect, expect};

fn check(group: &str, version: &str, resource: &str, expect: Expect) {
    let mut out = String::new();
    for r in resolve_resources(bundled::newest(), group, version, resource) {
        let sub = if r.subresource.is_empty() {
            String::new()
        } else {
            format!("/{}", r.subresource)
        };
        writeln!(
            out,
            "{}/{} {}{sub} -> {}",
            r.group, r.version, r.resource, r.kind
        )
        .unwrap();
    }
    expect.assert_eq(&out);
}

#[test]
fn named_resources() {
    check(
        "apps",
        "v1",
        "deployments",
        expect![[r#"
            apps/v1 deployments -> apps/v1, Kind=Deployment
        "#]],
    );
    check(
        "",
        "v1",
        "configmaps",
        expect![[r#"
            /v1 configmaps -> /v1, Kind=ConfigMap
        "#]],
    );
    check("apps", "v1", "nosuchthings", expect![""]);
}

#[test]
fn subresources() {
    check(
        "",
        "v1",
        "pods/status",
        expect![[r#"
            /v1 pods/status -> /v1, Kind=Pod
        "#]],
    );
    check(
        "apps",
        "v1",
        "deployments/scale",
        expect![[r#"
            apps/v1 deployments/scale -> autoscaling/v1, Kind=Scale
        "#]],
    );
    check(
        "",
        "v1",
        "pods/*",
        expect![[r#"
            /v1 pods/attach -> /v1, Kind=PodAttachOptions
            /v1 pods/binding -> /v1, Kind=Binding
            /v1 pods/ephemeralcontainers -> /v1, Kind=Pod
            /v1 pods/eviction -> policy/v1, Kind=Eviction
            /v1 pods/exec -> /v1, Kind=PodExecOptions
            /v1 pods/portforward -> /v1, Kind=PodPortForwardOptions
            /v1 pods/proxy -> /v1, Kind=PodProxyOptions
            /v1 pods/resize -> /v1, Kind=Pod
            /v1 pods/status -> /v1, Kind=Pod
        "#]],
    );
    check(
        "apps",
        "*",
        "*/scale",
        expect![[r#"
            apps/v1 deployments/scale -> autoscaling/v1, Kind=Scale
            apps/v1 replicasets/scale -> autoscaling/v1, Kind=Scale
            apps/v1 statefulsets/scale -> autoscaling/v1, Kind=Scale
        "#]],
    );
}

#[test]
fn wildcards() {
    check(
        "apps",
        "v1",
        "*",
        expect![[r#"
            apps/v1 controllerrevisions -> apps/v1, Kind=ControllerRevision
            apps/v1 daemonsets -> apps/v1, Kind=DaemonSet
            apps/v1 deployments -> apps/v1, Kind=Deployment
            apps/v1 replicasets -> apps/v1, Kind=ReplicaSet
            apps/v1 statefulsets -> apps/v1, Kind=StatefulSet
        "#]],
    );
    let everything = resolve_resources(bundled::newest(), "*", "*", "*");
    let all = resolve_resources(bundled::newest(), "*", "*", "*/*");
    assert!(everything.len() > 90, "{}", everything.len());
    assert!(everything.iter().all(|r| r.subresource.is_empty()));
    assert!(all.len() > everything.len());
    assert!(
        all.iter()
            .any(|r| r.resource == "pods" && r.subresource.is_empty())
    );
}

#[test]
fn plurals_of_built_in_kinds() {
    let kinds = [
        "Endpoints",
        "Ingress",
        "NetworkPolicy",
        "PodSecurityPolicy",
        "StorageClass",
        "PriorityClass",
        "Lease",
        "EndpointSlice",
        "ComponentStatus",
        "CSIStorageCapacity",
        "IPAddress",
        "Gateway",
        "ResourceClaimParameters",
    ];
    let out: Vec<String> = kinds.iter().map(|k| plural(k)).collect();
    expect![[r#"endpoints ingresses networkpolicies podsecuritypolicies storageclasses priorityclasses leases endpointslices componentstatuses csistoragecapacities ipaddresses gateways resourceclaimparameters"#]]
        .assert_eq(&out.join(" "));
}

#[test]
fn every_resource_of_the_newest_version() {
    let mut out = String::new();
    for (gvk, plural) in resources::resources(bundled::newest()) {
        let scope = if is_namespaced(&gvk.group, &gvk.kind) {
            ""
        } else {
            " (cluster)"
        };
        writeln!(
            out,
            "{}/{} {plural} {}{scope}",
            gvk.group, gvk.version, gvk.kind
        )
        .unwrap();
    }
    expect![[r#"
        /v1 bindings Binding
        /v1 componentstatuses ComponentStatus (cluster)
        /v1 configmaps ConfigMap
        /v1 endpoints Endpoints
        /v1 events Event
        /v1 limitranges LimitRange
        /v1 namespaces Namespace (cluster)
        /v1 nodes Node (cluster)
        /v1 persistentvolumeclaims PersistentVolumeClaim
        /v1 persistentvolumes PersistentVolume (cluster)
        /v1 pods Pod
        /v1 podtemplates PodTemplate
        /v1 replicationcontrollers ReplicationController
        /v1 resourcequotas ResourceQuota
        /v1 secrets Secret
        /v1 serviceaccounts ServiceAccount
        /v1 services Service
        admissionregistration.k8s.io/v1 mutatingadmissionpolicies MutatingAdmissionPolicy (cluster)
        admissionregistration.k8s.io/v1 mutatingadmissionpolicybindings MutatingAdmissionPolicyBinding (cluster)
        admissionregistration.k8s.io/v1 mutatingwebhookconfigurations MutatingWebhookConfiguration (cluster)
        admissionregistration.k8s.io/v1 validatingadmissionpolicies ValidatingAdmissionPolicy (cluster)
        admissionregistration.k8s.io/v1 validatingadmissionpolicybindings ValidatingAdmissionPolicyBinding (cluster)
        admissionregistration.k8s.io/v1 validatingwebhookconfigurations ValidatingWebhookConfiguration (cluster)
        admissionregistration.k8s.io/v1alpha1 mutatingadmissionpolicies MutatingAdmissionPolicy (cluster)
        admissionregistration.k8s.io/v1alpha1 mutatingadmissionpolicybindings MutatingAdmissionPolicyBinding (cluster)
        admissionregistration.k8s.io/v1beta1 mutatingadmissionpolicies MutatingAdmissionPolicy (cluster)
        admissionregistration.k8s.io/v1beta1 mutatingadmissionpolicybindings MutatingAdmissionPolicyBinding (cluster)
        apiextensions.k8s.io/v1 customresourcedefinitions CustomResourceDefinition (cluster)
        apiregistration.k8s.io/v1 apiservices APIService (cluster)
        apps/v1 controllerrevisions ControllerRevision
        apps/v1 daemonsets DaemonSet
        apps/v1 deployments Deployment
        apps/v1 replicasets ReplicaSet
        apps/v1 statefulsets StatefulSet
        authentication.k8s.io/v1 selfsubjectreviews SelfSubjectReview (cluster)
        authentication.k8s.io/v1 tokenreviews TokenReview (cluster)
        authorization.k8s.io/v1 localsubjectaccessreviews LocalSubjectAccessReview
        authorization.k8s.io/v1 selfsubjectaccessreviews SelfSubjectAccessReview (cluster)
        authorization.k8s.io/v1 selfsubjectrulesreviews SelfSubjectRulesReview (cluster)
        authorization.k8s.io/v1 subjectaccessreviews SubjectAccessReview (cluster)
        autoscaling/v1 horizontalpodautoscalers HorizontalPodAutoscaler
        autoscaling/v2 horizontalpodautoscalers HorizontalPodAutoscaler
        batch/v1 cronjobs CronJob
        batch/v1 jobs Job
        certificates.k8s.io/v1 certificatesigningrequests CertificateSigningRequest (cluster)
        certificates.k8s.io/v1 clustertrustbundles ClusterTrustBundle (cluster)
        certificates.k8s.io/v1 podcertificaterequests PodCertificateRequest
        certificates.k8s.io/v1beta1 clustertrustbundles ClusterTrustBundle (cluster)
        certificates.k8s.io/v1beta1 podcertificaterequests PodCertificateRequest
        coordination.k8s.io/v1 leases Lease
        coordination.k8s.io/v1alpha2 leasecandidates LeaseCandidate
        coordination.k8s.io/v1beta1 leasecandidates LeaseCandidate
        discovery.k8s.io/v1 endpointslices EndpointSlice
        events.k8s.io/v1 events Event
        flowcontrol.apiserver.k8s.io/v1 flowschemas FlowSchema (cluster)
        flowcontrol.apiserver.k8s.io/v1 prioritylevelconfigurations PriorityLevelConfiguration (cluster)
        internal.apiserver.k8s.io/v1alpha1 storageversions StorageVersion (cluster)
        lifecycle.k8s.io/v1alpha1 evictionrequests EvictionRequest
        lifecycle.k8s.io/v1alpha1 evictions Eviction
        networking.k8s.io/v1 ingressclasses IngressClass (cluster)
        networking.k8s.io/v1 ingresses Ingress
        networking.k8s.io/v1 ipaddresses IPAddress (cluster)
        networking.k8s.io/v1 networkpolicies NetworkPolicy
        networking.k8s.io/v1 servicecidrs ServiceCIDR (cluster)
        node.k8s.io/v1 runtimeclasses RuntimeClass (cluster)
        policy/v1 poddisruptionbudgets PodDisruptionBudget
        rbac.authorization.k8s.io/v1 clusterrolebindings ClusterRoleBinding (cluster)
        rbac.authorization.k8s.io/v1 clusterroles ClusterRole (cluster)
        rbac.authorization.k8s.io/v1 rolebindings RoleBinding
        rbac.authorization.k8s.io/v1 roles Role
        resource.k8s.io/v1 deviceclasses DeviceClass (cluster)
        resource.k8s.io/v1 devicetaintrules DeviceTaintRule (cluster)
        resource.k8s.io/v1 resourceclaims ResourceClaim
        resource.k8s.io/v1 resourceclaimtemplates ResourceClaimTemplate
        resource.k8s.io/v1 resourceslices ResourceSlice (cluster)
        resource.k8s.io/v1alpha3 devicetaintrules DeviceTaintRule (cluster)
        resource.k8s.io/v1alpha3 resourcepoolstatusrequests ResourcePoolStatusRequest
        resource.k8s.io/v1beta1 deviceclasses DeviceClass (cluster)
        resource.k8s.io/v1beta1 resourceclaims ResourceClaim
        resource.k8s.io/v1beta1 resourceclaimtemplates ResourceClaimTemplate
        resource.k8s.io/v1beta1 resourceslices ResourceSlice (cluster)
        resource.k8s.io/v1beta2 deviceclasses DeviceClass (cluster)
        resource.k8s.io/v1beta2 devicetaintrules DeviceTaintRule (cluster)
        resource.k8s.io/v1beta2 resourceclaims ResourceClaim
        resource.k8s.io/v1beta2 resourceclaimtemplates ResourceClaimTemplate
        resource.k8s.io/v1beta2 resourceslices ResourceSlice (cluster)
        scheduling.k8s.io/v1 priorityclasses PriorityClass (cluster)
        scheduling.k8s.io/v1alpha3 compositepodgroups CompositePodGroup
        scheduling.k8s.io/v1alpha3 podgroups PodGroup
        scheduling.k8s.io/v1alpha3 workloads Workload
        scheduling.k8s.io/v1beta1 podgroups PodGroup
        scheduling.k8s.io/v1beta1 workloads Workload
        storage.k8s.io/v1 csidrivers CSIDriver (cluster)
        storage.k8s.io/v1 csinodes CSINode (cluster)
        storage.k8s.io/v1 csistoragecapacities CSIStorageCapacity
        storage.k8s.io/v1 storageclasses StorageClass (cluster)
        storage.k8s.io/v1 volumeattachments VolumeAttachment (cluster)
        storage.k8s.io/v1 volumeattributesclasses VolumeAttributesClass (cluster)
        storagemigration.k8s.io/v1 storageversionmigrations StorageVersionMigration (cluster)
        storagemigration.k8s.io/v1beta1 storageversionmigrations StorageVersionMigration (cluster)
    "#]].assert_eq(&out);
}

#[test]
fn equivalent_resources_for_match_policy_equivalent() {
    let render = |group: &str, resource: &str| {
        resources::equivalent_resources(bundled::newest(), group, resource)
            .iter()
            .map(|(gvk, plural)| format!("{}/{} {plural}", gvk.group, gvk.version))
            .collect::<Vec<_>>()
            .join(", ")
    };
    expect!["autoscaling/v1 horizontalpodautoscalers, autoscaling/v2 horizontalpodautoscalers"]
        .assert_eq(&render("autoscaling", "horizontalpodautoscalers"));
    expect!["/v1 events, events.k8s.io/v1 events"].assert_eq(&render("", "events"));
    expect!["apps/v1 deployments"].assert_eq(&render("apps", "deployments"));
}
