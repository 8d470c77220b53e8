//! `core/v1` defaulting: `pkg/apis/core/v1/defaults.go` (`SetDefaults_*`), the `+default=` markers
//! of `k8s.io/api/core/v1/types.go`, walked as `pkg/apis/core/v1/zz_generated.defaults.go`
//! (`SetObjectDefaults_*`) walks them. The pod spec tables are shared with every workload's pod
//! template (apps, batch).
//!
//! Not reproduced: `SetDefaults_ResourceList` (quantities rounded up to milli precision and
//! re-serialised in canonical form), and the pod-level resources defaults of `SetDefaults_Pod`
//! (`PodLevelResources`, on from 1.34: pod requests and limits aggregated from the containers).

use serde_json::{Map, Value as Json};

use super::engine::{
    Cond, Ctx, Shape, Step, TypeDef, V, When, call, get, is_unset, nil, object_at, walk, zero,
};
use super::image;

/// `ObjectFieldSelector`: `SetDefaults_ObjectFieldSelector`.
static OBJECT_FIELD_SELECTOR: TypeDef = TypeDef {
    name: "ObjectFieldSelector",
    steps: &[zero(
        "apiVersion",
        V::Str("v1"),
        "pkg/apis/core/v1/defaults.go SetDefaults_ObjectFieldSelector",
    )],
};

/// `DownwardAPIVolumeFile` (volume and projection items).
static DOWNWARD_API_FILE: TypeDef = TypeDef {
    name: "DownwardAPIVolumeFile",
    steps: &[walk("fieldRef", Shape::Pointer, &OBJECT_FIELD_SELECTOR)],
};

static HOST_PATH: TypeDef = TypeDef {
    name: "HostPathVolumeSource",
    steps: &[nil(
        "type",
        V::Str(""),
        "pkg/apis/core/v1/defaults.go SetDefaults_HostPathVolumeSource (HostPathUnset)",
    )],
};

static SECRET_VOLUME: TypeDef = TypeDef {
    name: "SecretVolumeSource",
    steps: &[nil(
        "defaultMode",
        V::Int(0o644),
        "pkg/apis/core/v1/defaults.go SetDefaults_SecretVolumeSource (SecretVolumeSourceDefaultMode 0644)",
    )],
};

static CONFIG_MAP_VOLUME: TypeDef = TypeDef {
    name: "ConfigMapVolumeSource",
    steps: &[nil(
        "defaultMode",
        V::Int(0o644),
        "pkg/apis/core/v1/defaults.go SetDefaults_ConfigMapVolumeSource (ConfigMapVolumeSourceDefaultMode 0644)",
    )],
};

static DOWNWARD_API_VOLUME: TypeDef = TypeDef {
    name: "DownwardAPIVolumeSource",
    steps: &[
        nil(
            "defaultMode",
            V::Int(0o644),
            "pkg/apis/core/v1/defaults.go SetDefaults_DownwardAPIVolumeSource (DownwardAPIVolumeSourceDefaultMode 0644)",
        ),
        walk("items", Shape::List, &DOWNWARD_API_FILE),
    ],
};

static DOWNWARD_API_PROJECTION: TypeDef = TypeDef {
    name: "DownwardAPIProjection",
    steps: &[walk("items", Shape::List, &DOWNWARD_API_FILE)],
};

static SERVICE_ACCOUNT_TOKEN: TypeDef = TypeDef {
    name: "ServiceAccountTokenProjection",
    steps: &[nil(
        "expirationSeconds",
        V::Int(3600),
        "pkg/apis/core/v1/defaults.go SetDefaults_ServiceAccountTokenProjection (one hour)",
    )],
};

static VOLUME_PROJECTION: TypeDef = TypeDef {
    name: "VolumeProjection",
    steps: &[
        walk("downwardAPI", Shape::Pointer, &DOWNWARD_API_PROJECTION),
        walk(
            "serviceAccountToken",
            Shape::Pointer,
            &SERVICE_ACCOUNT_TOKEN,
        ),
    ],
};

static PROJECTED_VOLUME: TypeDef = TypeDef {
    name: "ProjectedVolumeSource",
    steps: &[
        nil(
            "defaultMode",
            V::Int(0o644),
            "pkg/apis/core/v1/defaults.go SetDefaults_ProjectedVolumeSource (ProjectedVolumeSourceDefaultMode 0644)",
        ),
        walk("sources", Shape::List, &VOLUME_PROJECTION),
    ],
};

/// `ISCSIVolumeSource` and `ISCSIPersistentVolumeSource`.
static ISCSI: TypeDef = TypeDef {
    name: "ISCSIVolumeSource",
    steps: &[zero(
        "iscsiInterface",
        V::Str("default"),
        "k8s.io/api core/v1 types.go ISCSIVolumeSource.ISCSIInterface +default=\"default\" (1.30: SetDefaults_ISCSIVolumeSource)",
    )],
};

/// `RBDVolumeSource` and `RBDPersistentVolumeSource`.
static RBD: TypeDef = TypeDef {
    name: "RBDVolumeSource",
    steps: &[
        zero(
            "pool",
            V::Str("rbd"),
            "k8s.io/api core/v1 types.go RBDVolumeSource.RBDPool +default=\"rbd\" (1.30: SetDefaults_RBDVolumeSource)",
        ),
        zero(
            "user",
            V::Str("admin"),
            "k8s.io/api core/v1 types.go RBDVolumeSource.RadosUser +default=\"admin\"",
        ),
        zero(
            "keyring",
            V::Str("/etc/ceph/keyring"),
            "k8s.io/api core/v1 types.go RBDVolumeSource.Keyring +default=\"/etc/ceph/keyring\"",
        ),
    ],
};

static AZURE_DISK: TypeDef = TypeDef {
    name: "AzureDiskVolumeSource",
    steps: &[
        nil(
            "cachingMode",
            V::Str("ReadWrite"),
            "k8s.io/api core/v1 types.go AzureDiskVolumeSource.CachingMode +default=ref(AzureDataDiskCachingReadWrite) (1.30: SetDefaults_AzureDiskVolumeSource)",
        ),
        nil(
            "fsType",
            V::Str("ext4"),
            "k8s.io/api core/v1 types.go AzureDiskVolumeSource.FSType +default=\"ext4\"",
        ),
        nil(
            "readOnly",
            V::Bool(false),
            "k8s.io/api core/v1 types.go AzureDiskVolumeSource.ReadOnly +default=false",
        ),
        nil(
            "kind",
            V::Str("Shared"),
            "k8s.io/api core/v1 types.go AzureDiskVolumeSource.Kind +default=ref(AzureSharedBlobDisk)",
        ),
    ],
};

/// `ScaleIOVolumeSource` and `ScaleIOPersistentVolumeSource`.
static SCALE_IO: TypeDef = TypeDef {
    name: "ScaleIOVolumeSource",
    steps: &[
        zero(
            "storageMode",
            V::Str("ThinProvisioned"),
            "k8s.io/api core/v1 types.go ScaleIOVolumeSource.StorageMode +default=\"ThinProvisioned\" (1.30: SetDefaults_ScaleIOVolumeSource)",
        ),
        zero(
            "fsType",
            V::Str("xfs"),
            "k8s.io/api core/v1 types.go ScaleIOVolumeSource.FSType +default=\"xfs\"",
        ),
    ],
};

/// `PersistentVolumeClaimSpec`: `SetDefaults_PersistentVolumeClaimSpec`.
pub(super) static PVC_SPEC: TypeDef = TypeDef {
    name: "PersistentVolumeClaimSpec",
    steps: &[nil(
        "volumeMode",
        V::Str("Filesystem"),
        "pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolumeClaimSpec",
    )],
};

static PVC_TEMPLATE: TypeDef = TypeDef {
    name: "PersistentVolumeClaimTemplate",
    steps: &[walk("spec", Shape::Struct, &PVC_SPEC)],
};

static EPHEMERAL_VOLUME: TypeDef = TypeDef {
    name: "EphemeralVolumeSource",
    steps: &[walk("volumeClaimTemplate", Shape::Pointer, &PVC_TEMPLATE)],
};

/// `Volume`: `SetDefaults_Volume`, then the defaulters of its source.
static VOLUME: TypeDef = TypeDef {
    name: "Volume",
    steps: &[
        call(
            "emptyDir when no source is set",
            "emptyDir",
            volume_source,
            "pkg/apis/core/v1/defaults.go SetDefaults_Volume (ptr.AllPtrFieldsNil(&obj.VolumeSource))",
        ),
        Step::Since {
            since: 35,
            gate: "ImageVolume",
            then: &[call(
                "image volume pull policy",
                "image.pullPolicy",
                image_volume_pull_policy,
                "pkg/apis/core/v1/defaults.go SetDefaults_Volume (ImageVolume: beta, on by default from 1.35)",
            )],
        },
        walk("hostPath", Shape::Pointer, &HOST_PATH),
        walk("secret", Shape::Pointer, &SECRET_VOLUME),
        walk("iscsi", Shape::Pointer, &ISCSI),
        walk("rbd", Shape::Pointer, &RBD),
        walk("downwardAPI", Shape::Pointer, &DOWNWARD_API_VOLUME),
        walk("configMap", Shape::Pointer, &CONFIG_MAP_VOLUME),
        walk("azureDisk", Shape::Pointer, &AZURE_DISK),
        walk("projected", Shape::Pointer, &PROJECTED_VOLUME),
        walk("scaleIO", Shape::Pointer, &SCALE_IO),
        walk("ephemeral", Shape::Pointer, &EPHEMERAL_VOLUME),
    ],
};

static CONTAINER_PORT: TypeDef = TypeDef {
    name: "ContainerPort",
    steps: &[zero(
        "protocol",
        V::Str("TCP"),
        "k8s.io/api core/v1 types.go ContainerPort.Protocol +default=\"TCP\"",
    )],
};

static FILE_KEY_SELECTOR: TypeDef = TypeDef {
    name: "FileKeySelector",
    steps: &[nil(
        "optional",
        V::Bool(false),
        "k8s.io/api core/v1 types.go FileKeySelector.Optional +default=false (field new in 1.34)",
    )],
};

static ENV_VAR_SOURCE: TypeDef = TypeDef {
    name: "EnvVarSource",
    steps: &[
        walk("fieldRef", Shape::Pointer, &OBJECT_FIELD_SELECTOR),
        Step::Since {
            since: 34,
            gate: "EnvFiles (the field)",
            then: &[walk("fileKeyRef", Shape::Pointer, &FILE_KEY_SELECTOR)],
        },
    ],
};

static ENV_VAR: TypeDef = TypeDef {
    name: "EnvVar",
    steps: &[walk("valueFrom", Shape::Pointer, &ENV_VAR_SOURCE)],
};

/// `HTTPGetAction`: `SetDefaults_HTTPGetAction`.
static HTTP_GET: TypeDef = TypeDef {
    name: "HTTPGetAction",
    steps: &[
        zero(
            "path",
            V::Str("/"),
            "pkg/apis/core/v1/defaults.go SetDefaults_HTTPGetAction",
        ),
        zero(
            "scheme",
            V::Str("HTTP"),
            "pkg/apis/core/v1/defaults.go SetDefaults_HTTPGetAction",
        ),
    ],
};

static GRPC: TypeDef = TypeDef {
    name: "GRPCAction",
    steps: &[nil(
        "service",
        V::Str(""),
        "k8s.io/api core/v1 types.go GRPCAction.Service +default=\"\"",
    )],
};

/// `Probe`: `SetDefaults_Probe`, then its handler.
static PROBE: TypeDef = TypeDef {
    name: "Probe",
    steps: &[
        zero(
            "timeoutSeconds",
            V::Int(1),
            "pkg/apis/core/v1/defaults.go SetDefaults_Probe",
        ),
        zero(
            "periodSeconds",
            V::Int(10),
            "pkg/apis/core/v1/defaults.go SetDefaults_Probe",
        ),
        zero(
            "successThreshold",
            V::Int(1),
            "pkg/apis/core/v1/defaults.go SetDefaults_Probe",
        ),
        zero(
            "failureThreshold",
            V::Int(3),
            "pkg/apis/core/v1/defaults.go SetDefaults_Probe",
        ),
        walk("httpGet", Shape::Pointer, &HTTP_GET),
        walk("grpc", Shape::Pointer, &GRPC),
    ],
};

static LIFECYCLE_HANDLER: TypeDef = TypeDef {
    name: "LifecycleHandler",
    steps: &[walk("httpGet", Shape::Pointer, &HTTP_GET)],
};

static LIFECYCLE: TypeDef = TypeDef {
    name: "Lifecycle",
    steps: &[
        walk("postStart", Shape::Pointer, &LIFECYCLE_HANDLER),
        walk("preStop", Shape::Pointer, &LIFECYCLE_HANDLER),
    ],
};

/// `Container` (and `EphemeralContainer`, whose `SetDefaults_EphemeralContainer` calls
/// `SetDefaults_Container`).
static CONTAINER: TypeDef = TypeDef {
    name: "Container",
    steps: &[
        call(
            "imagePullPolicy by tag",
            "imagePullPolicy",
            image_pull_policy,
            "pkg/apis/core/v1/defaults.go SetDefaults_Container (parsers.ParseImageName)",
        ),
        zero(
            "terminationMessagePath",
            V::Str("/dev/termination-log"),
            "pkg/apis/core/v1/defaults.go SetDefaults_Container (TerminationMessagePathDefault)",
        ),
        zero(
            "terminationMessagePolicy",
            V::Str("File"),
            "pkg/apis/core/v1/defaults.go SetDefaults_Container (TerminationMessageReadFile)",
        ),
        walk("ports", Shape::List, &CONTAINER_PORT),
        walk("env", Shape::List, &ENV_VAR),
        walk("livenessProbe", Shape::Pointer, &PROBE),
        walk("readinessProbe", Shape::Pointer, &PROBE),
        walk("startupProbe", Shape::Pointer, &PROBE),
        walk("lifecycle", Shape::Pointer, &LIFECYCLE),
    ],
};

/// `PodSpec`: `SetDefaults_PodSpec`, then volumes and containers. Shared by every pod template.
pub(super) static POD_SPEC: TypeDef = TypeDef {
    name: "PodSpec",
    steps: &[
        zero(
            "dnsPolicy",
            V::Str("ClusterFirst"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PodSpec",
        ),
        zero(
            "restartPolicy",
            V::Str("Always"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PodSpec",
        ),
        nil(
            "securityContext",
            V::EmptyObject,
            "pkg/apis/core/v1/defaults.go SetDefaults_PodSpec",
        ),
        nil(
            "terminationGracePeriodSeconds",
            V::Int(30),
            "pkg/apis/core/v1/defaults.go SetDefaults_PodSpec (DefaultTerminationGracePeriodSeconds)",
        ),
        zero(
            "schedulerName",
            V::Str("default-scheduler"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PodSpec (DefaultSchedulerName)",
        ),
        walk("volumes", Shape::List, &VOLUME),
        walk("initContainers", Shape::List, &CONTAINER),
        walk("containers", Shape::List, &CONTAINER),
        walk("ephemeralContainers", Shape::List, &CONTAINER),
    ],
};

/// `PodTemplateSpec`, as workloads embed it.
pub(super) static POD_TEMPLATE_SPEC: TypeDef = TypeDef {
    name: "PodTemplateSpec",
    steps: &[walk("spec", Shape::Struct, &POD_SPEC)],
};

/// `Pod`: `SetDefaults_Pod` (only for pods, not templates), then the pod spec.
pub(super) static POD: TypeDef = TypeDef {
    name: "Pod",
    steps: &[
        call(
            "requests from limits",
            "spec.containers[*].resources.requests, spec.initContainers[*].resources.requests",
            requests_from_limits,
            "pkg/apis/core/v1/defaults.go SetDefaults_Pod",
        ),
        nil(
            "spec.enableServiceLinks",
            V::Bool(true),
            "pkg/apis/core/v1/defaults.go SetDefaults_Pod (DefaultEnableServiceLinks)",
        ),
        call(
            "host ports under hostNetwork",
            "spec.containers[*].ports[*].hostPort, spec.initContainers[*].ports[*].hostPort",
            host_network_ports,
            "pkg/apis/core/v1/defaults.go SetDefaults_Pod (defaultHostNetworkPorts)",
        ),
        walk("spec", Shape::Struct, &POD_SPEC),
    ],
};

pub(super) static POD_TEMPLATE: TypeDef = TypeDef {
    name: "PodTemplate",
    steps: &[walk("template", Shape::Struct, &POD_TEMPLATE_SPEC)],
};

pub(super) static REPLICATION_CONTROLLER: TypeDef = TypeDef {
    name: "ReplicationController",
    steps: &[
        call(
            "selector and labels from the template",
            "spec.selector, metadata.labels",
            replication_controller_labels,
            "pkg/apis/core/v1/defaults.go SetDefaults_ReplicationController",
        ),
        nil(
            "spec.replicas",
            V::Int(1),
            "k8s.io/api core/v1 types.go ReplicationControllerSpec.Replicas +default=1 (1.30–1.32: SetDefaults_ReplicationController)",
        ),
        walk("spec.template", Shape::Pointer, &POD_TEMPLATE_SPEC),
    ],
};

static SERVICE_PORT: TypeDef = TypeDef {
    name: "ServicePort",
    steps: &[
        zero(
            "protocol",
            V::Str("TCP"),
            "pkg/apis/core/v1/defaults.go SetDefaults_Service; k8s.io/api ServicePort.Protocol +default=\"TCP\"",
        ),
        call(
            "targetPort from port",
            "targetPort",
            target_port,
            "pkg/apis/core/v1/defaults.go SetDefaults_Service (TargetPort 0 or \"\")",
        ),
    ],
};

/// Service types `internalTrafficPolicy` is defaulted for.
const CLUSTER_TYPES: &[Cond] = &[
    Cond::Equals("spec.type", V::Str("NodePort")),
    Cond::Equals("spec.type", V::Str("LoadBalancer")),
    Cond::Equals("spec.type", V::Str("ClusterIP")),
];

pub(super) static SERVICE: TypeDef = TypeDef {
    name: "Service",
    steps: &[
        zero("spec.sessionAffinity", V::Str("None"), SERVICE_SOURCE),
        Step::If {
            cond: Cond::Equals("spec.sessionAffinity", V::Str("None")),
            then: &[call(
                "no sessionAffinityConfig without affinity",
                "spec.sessionAffinityConfig (cleared)",
                clear_session_affinity_config,
                SERVICE_SOURCE,
            )],
        },
        Step::If {
            cond: Cond::Equals("spec.sessionAffinity", V::Str("ClientIP")),
            then: &[call(
                "ClientIP timeout",
                "spec.sessionAffinityConfig",
                client_ip_timeout,
                "pkg/apis/core/v1/defaults.go SetDefaults_Service (DefaultClientIPServiceAffinitySeconds)",
            )],
        },
        zero("spec.type", V::Str("ClusterIP"), SERVICE_SOURCE),
        walk("spec.ports", Shape::List, &SERVICE_PORT),
        call(
            "externalTrafficPolicy of an externally accessible service",
            "spec.externalTrafficPolicy",
            external_traffic_policy,
            "pkg/apis/core/v1/defaults.go SetDefaults_Service (service.ExternallyAccessible)",
        ),
        Step::If {
            cond: Cond::Any(CLUSTER_TYPES),
            then: &[nil(
                "spec.internalTrafficPolicy",
                V::Str("Cluster"),
                SERVICE_SOURCE,
            )],
        },
        Step::If {
            cond: Cond::Equals("spec.type", V::Str("LoadBalancer")),
            then: &[
                nil(
                    "spec.allocateLoadBalancerNodePorts",
                    V::Bool(true),
                    SERVICE_SOURCE,
                ),
                call(
                    "load-balancer ingress ipMode",
                    "status.loadBalancer.ingress[*].ipMode",
                    load_balancer_ip_mode,
                    "pkg/apis/core/v1/defaults.go SetDefaults_Service (LoadBalancerIPModeVIP)",
                ),
            ],
        },
    ],
};

const SERVICE_SOURCE: &str = "pkg/apis/core/v1/defaults.go SetDefaults_Service";

static NAMESPACE_STATUS: TypeDef = TypeDef {
    name: "NamespaceStatus",
    steps: &[zero(
        "phase",
        V::Str("Active"),
        "pkg/apis/core/v1/defaults.go SetDefaults_NamespaceStatus",
    )],
};

pub(super) static NAMESPACE: TypeDef = TypeDef {
    name: "Namespace",
    steps: &[
        call(
            "kubernetes.io/metadata.name label",
            "metadata.labels[kubernetes.io/metadata.name]",
            namespace_name_label,
            "pkg/apis/core/v1/defaults.go SetDefaults_Namespace (LabelMetadataName)",
        ),
        walk("status", Shape::Struct, &NAMESPACE_STATUS),
    ],
};

pub(super) static SECRET: TypeDef = TypeDef {
    name: "Secret",
    steps: &[zero(
        "type",
        V::Str("Opaque"),
        "pkg/apis/core/v1/defaults.go SetDefaults_Secret",
    )],
};

static ENDPOINT_PORT: TypeDef = TypeDef {
    name: "EndpointPort",
    steps: &[zero(
        "protocol",
        V::Str("TCP"),
        "pkg/apis/core/v1/defaults.go SetDefaults_Endpoints",
    )],
};

static ENDPOINT_SUBSET: TypeDef = TypeDef {
    name: "EndpointSubset",
    steps: &[walk("ports", Shape::List, &ENDPOINT_PORT)],
};

pub(super) static ENDPOINTS: TypeDef = TypeDef {
    name: "Endpoints",
    steps: &[walk("subsets", Shape::List, &ENDPOINT_SUBSET)],
};

static LIMIT_RANGE_ITEM: TypeDef = TypeDef {
    name: "LimitRangeItem",
    steps: &[Step::If {
        cond: Cond::Equals("type", V::Str("Container")),
        then: &[call(
            "container limits from max, min and default",
            "default, defaultRequest",
            limit_range_item,
            "pkg/apis/core/v1/defaults.go SetDefaults_LimitRangeItem",
        )],
    }],
};

pub(super) static LIMIT_RANGE: TypeDef = TypeDef {
    name: "LimitRange",
    steps: &[walk("spec.limits", Shape::List, &LIMIT_RANGE_ITEM)],
};

pub(super) static PERSISTENT_VOLUME: TypeDef = TypeDef {
    name: "PersistentVolume",
    steps: &[
        zero(
            "status.phase",
            V::Str("Pending"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolume",
        ),
        zero(
            "spec.persistentVolumeReclaimPolicy",
            V::Str("Retain"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolume",
        ),
        nil(
            "spec.volumeMode",
            V::Str("Filesystem"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolume",
        ),
        walk("spec.hostPath", Shape::Pointer, &HOST_PATH),
        walk("spec.rbd", Shape::Pointer, &RBD),
        walk("spec.iscsi", Shape::Pointer, &ISCSI),
        walk("spec.azureDisk", Shape::Pointer, &AZURE_DISK),
        walk("spec.scaleIO", Shape::Pointer, &SCALE_IO),
    ],
};

/// `PersistentVolumeClaim`, also the element of a StatefulSet's `volumeClaimTemplates`.
pub(super) static PERSISTENT_VOLUME_CLAIM: TypeDef = TypeDef {
    name: "PersistentVolumeClaim",
    steps: &[
        zero(
            "status.phase",
            V::Str("Pending"),
            "pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolumeClaim",
        ),
        walk("spec", Shape::Struct, &PVC_SPEC),
    ],
};

pub(super) static NODE: TypeDef = TypeDef {
    name: "Node",
    steps: &[call(
        "allocatable from capacity",
        "status.allocatable",
        node_allocatable,
        "pkg/apis/core/v1/defaults.go SetDefaults_NodeStatus",
    )],
};

/// `SetDefaults_Container`: `imagePullPolicy` from the image's tag.
fn image_pull_policy(ctx: &mut Ctx, container: &mut Map<String, Json>) {
    if !is_unset(container.get("imagePullPolicy"), When::Zero) {
        return;
    }
    let image = container.get("image").and_then(Json::as_str).unwrap_or("");
    let policy = image::pull_policy(image);
    container.insert("imagePullPolicy".into(), Json::from(policy));
    ctx.record("imagePullPolicy");
}

/// `SetDefaults_Volume`: an image volume's `pullPolicy` from its reference's tag (only `latest`,
/// written or implied, pulls `Always`).
fn image_volume_pull_policy(ctx: &mut Ctx, volume: &mut Map<String, Json>) {
    let Some(Json::Object(source)) = volume.get_mut("image") else {
        return;
    };
    if !is_unset(source.get("pullPolicy"), When::Zero) {
        return;
    }
    let reference = source.get("reference").and_then(Json::as_str).unwrap_or("");
    source.insert(
        "pullPolicy".into(),
        Json::from(image::pull_policy(reference)),
    );
    ctx.record("image.pullPolicy");
}

/// `SetDefaults_Volume`: a volume with no source set is an `emptyDir`. Every field of a volume but
/// `name` is a pointer of `VolumeSource`.
fn volume_source(ctx: &mut Ctx, volume: &mut Map<String, Json>) {
    let has_source = volume
        .iter()
        .any(|(key, value)| key != "name" && !value.is_null());
    if !has_source {
        volume.insert("emptyDir".into(), Json::Object(Map::new()));
        ctx.record("emptyDir");
    }
}

/// `SetDefaults_Pod`: a container's requests default to its limits, key by key.
fn requests_from_limits(ctx: &mut Ctx, pod: &mut Map<String, Json>) {
    for list in ["containers", "initContainers"] {
        let Some(Json::Array(containers)) = pod.get_mut("spec").and_then(|s| s.get_mut(list))
        else {
            continue;
        };
        for (i, container) in containers.iter_mut().enumerate() {
            let Some(resources) = container.get_mut("resources").and_then(Json::as_object_mut)
            else {
                continue;
            };
            let Some(Json::Object(limits)) = resources.get("limits").cloned() else {
                continue;
            };
            let requests = resources
                .get("requests")
                .and_then(Json::as_object)
                .cloned()
                .unwrap_or_default();
            let missing: Vec<(String, Json)> = limits
                .into_iter()
                .filter(|(key, _)| !requests.contains_key(key))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let mut merged = requests;
            for (key, value) in missing {
                ctx.record(&format!("spec.{list}[{i}].resources.requests[{key}]"));
                merged.insert(key, value);
            }
            resources.insert("requests".into(), Json::Object(merged));
        }
    }
}

/// `SetDefaults_Pod` (`defaultHostNetworkPorts`): with `hostNetwork`, every port's `hostPort`
/// defaults to its `containerPort`.
fn host_network_ports(ctx: &mut Ctx, pod: &mut Map<String, Json>) {
    if get(pod, "spec.hostNetwork") != Some(&Json::Bool(true)) {
        return;
    }
    for list in ["containers", "initContainers"] {
        let Some(Json::Array(containers)) = pod.get_mut("spec").and_then(|s| s.get_mut(list))
        else {
            continue;
        };
        for (i, container) in containers.iter_mut().enumerate() {
            let Some(Json::Array(ports)) = container.get_mut("ports") else {
                continue;
            };
            for (j, port) in ports.iter_mut().enumerate() {
                let Some(port) = port.as_object_mut() else {
                    continue;
                };
                let container_port = port.get("containerPort").cloned();
                let usable = container_port
                    .as_ref()
                    .is_some_and(|p| p.as_i64().is_some_and(|n| n != 0));
                if usable && is_unset(port.get("hostPort"), When::Zero) {
                    port.insert("hostPort".into(), container_port.unwrap_or(Json::Null));
                    ctx.record(&format!("spec.{list}[{i}].ports[{j}].hostPort"));
                }
            }
        }
    }
}

/// `SetDefaults_ReplicationController`: with template labels, an empty selector and empty labels
/// take them.
fn replication_controller_labels(ctx: &mut Ctx, rc: &mut Map<String, Json>) {
    let Some(Json::Object(labels)) = get(rc, "spec.template.metadata.labels").cloned() else {
        return;
    };
    if labels.is_empty() {
        // An empty map is omitted when the object is serialised: nothing to see.
        return;
    }
    if is_unset(get(rc, "spec.selector"), When::Zero)
        && let Some(spec) = object_at(rc, "spec")
    {
        spec.insert("selector".into(), Json::Object(labels.clone()));
        ctx.record("spec.selector");
    }
    copy_labels_to_metadata(ctx, rc, labels);
}

/// `obj.Labels = labels` when the object has none (ReplicationController and Job).
pub(super) fn copy_labels_to_metadata(
    ctx: &mut Ctx,
    object: &mut Map<String, Json>,
    labels: Map<String, Json>,
) {
    if is_unset(get(object, "metadata.labels"), When::Zero)
        && let Some(metadata) = object_at(object, "metadata")
    {
        metadata.insert("labels".into(), Json::Object(labels));
        ctx.record("metadata.labels");
    }
}

/// `SetDefaults_Service`: without session affinity, `sessionAffinityConfig` is cleared.
fn clear_session_affinity_config(ctx: &mut Ctx, service: &mut Map<String, Json>) {
    if let Some(Json::Object(spec)) = service.get_mut("spec")
        && spec.remove("sessionAffinityConfig").is_some()
    {
        ctx.record("spec.sessionAffinityConfig");
    }
}

/// `SetDefaults_Service`: `ClientIP` affinity without a timeout gets a config with the default
/// timeout (the whole config is replaced).
fn client_ip_timeout(ctx: &mut Ctx, service: &mut Map<String, Json>) {
    let timeout = get(
        service,
        "spec.sessionAffinityConfig.clientIP.timeoutSeconds",
    );
    if !is_unset(timeout, When::Nil) {
        return;
    }
    if let Some(spec) = object_at(service, "spec") {
        let config = serde_json::json!({"clientIP": {"timeoutSeconds": 10800}});
        spec.insert("sessionAffinityConfig".into(), config);
        ctx.record("spec.sessionAffinityConfig");
    }
}

/// `SetDefaults_Service`: a port's `targetPort` defaults to its `port` when it is `0` or `""`.
fn target_port(ctx: &mut Ctx, port: &mut Map<String, Json>) {
    let unset = match port.get("targetPort") {
        None | Some(Json::Null) => true,
        Some(Json::String(s)) => s.is_empty(),
        Some(Json::Number(n)) => n.as_i64() == Some(0),
        Some(_) => false,
    };
    let Some(number) = port.get("port").filter(|p| p.as_i64().is_some()).cloned() else {
        return;
    };
    if unset {
        port.insert("targetPort".into(), number);
        ctx.record("targetPort");
    }
}

/// `SetDefaults_Service`: `externalTrafficPolicy: Cluster` for a service reachable from outside
/// (`service.ExternallyAccessible`: LoadBalancer, NodePort, or ClusterIP with external IPs).
fn external_traffic_policy(ctx: &mut Ctx, service: &mut Map<String, Json>) {
    let kind = get(service, "spec.type")
        .and_then(Json::as_str)
        .unwrap_or("");
    let external_ips = get(service, "spec.externalIPs")
        .and_then(Json::as_array)
        .is_some_and(|ips| !ips.is_empty());
    let accessible =
        matches!(kind, "LoadBalancer" | "NodePort") || (kind == "ClusterIP" && external_ips);
    if accessible
        && super::engine::set_if_unset(
            service,
            "spec.externalTrafficPolicy",
            V::Str("Cluster"),
            When::Zero,
        )
    {
        ctx.record("spec.externalTrafficPolicy");
    }
}

/// `SetDefaults_Service`: a load balancer's ingress points with an IP get `ipMode: VIP`.
fn load_balancer_ip_mode(ctx: &mut Ctx, service: &mut Map<String, Json>) {
    let Some(Json::Object(status)) = service.get_mut("status") else {
        return;
    };
    let Some(Json::Array(ingress)) = status
        .get_mut("loadBalancer")
        .and_then(|lb| lb.get_mut("ingress"))
    else {
        return;
    };
    for (i, point) in ingress.iter_mut().enumerate() {
        let Some(point) = point.as_object_mut() else {
            continue;
        };
        let has_ip = point
            .get("ip")
            .and_then(Json::as_str)
            .is_some_and(|ip| !ip.is_empty());
        if has_ip && is_unset(point.get("ipMode"), When::Nil) {
            point.insert("ipMode".into(), Json::from("VIP"));
            ctx.record(&format!("status.loadBalancer.ingress[{i}].ipMode"));
        }
    }
}

/// `SetDefaults_Namespace`: a named namespace carries `kubernetes.io/metadata.name: <name>`.
fn namespace_name_label(ctx: &mut Ctx, namespace: &mut Map<String, Json>) {
    let Some(name) = get(namespace, "metadata.name")
        .and_then(Json::as_str)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
    else {
        return;
    };
    if set_label(namespace, "kubernetes.io/metadata.name", &name) {
        ctx.record("metadata.labels[kubernetes.io/metadata.name]");
    }
}

/// Sets a label (creating `metadata.labels`); `true` when it changed anything.
pub(super) fn set_label(object: &mut Map<String, Json>, key: &str, value: &str) -> bool {
    let Some(metadata) = object_at(object, "metadata") else {
        return false;
    };
    let labels = metadata
        .entry("labels")
        .or_insert_with(|| Json::Object(Map::new()));
    if labels.is_null() {
        *labels = Json::Object(Map::new());
    }
    let Some(labels) = labels.as_object_mut() else {
        return false;
    };
    if labels.get(key).and_then(Json::as_str) == Some(value) {
        return false;
    }
    labels.insert(key.to_string(), Json::from(value));
    true
}

/// `SetDefaults_LimitRangeItem` for `type: Container`: `default` from `max`, then
/// `defaultRequest` from `default`, then from `min`, key by key.
fn limit_range_item(ctx: &mut Ctx, item: &mut Map<String, Json>) {
    let list = |item: &Map<String, Json>, key: &str| {
        item.get(key)
            .and_then(Json::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let fill = |ctx: &mut Ctx, item: &mut Map<String, Json>, target: &str, from: &str| {
        let source = list(item, from);
        let mut current = list(item, target);
        let mut changed = false;
        for (key, value) in source {
            if !current.contains_key(&key) {
                ctx.record(&format!("{target}[{key}]"));
                current.insert(key, value);
                changed = true;
            }
        }
        if changed {
            item.insert(target.to_string(), Json::Object(current));
        }
    };
    fill(ctx, item, "default", "max");
    fill(ctx, item, "defaultRequest", "default");
    fill(ctx, item, "defaultRequest", "min");
}

/// `SetDefaults_NodeStatus`: `allocatable` defaults to `capacity`.
fn node_allocatable(ctx: &mut Ctx, node: &mut Map<String, Json>) {
    let Some(Json::Object(capacity)) = get(node, "status.capacity").cloned() else {
        return;
    };
    if capacity.is_empty() || !is_unset(get(node, "status.allocatable"), When::Nil) {
        return;
    }
    if let Some(status) = object_at(node, "status") {
        status.insert("allocatable".into(), Json::Object(capacity));
        ctx.record("status.allocatable");
    }
}

/// The kinds of `core/v1` with defaults, by kind.
pub(super) const KINDS: &[(&str, &TypeDef)] = &[
    ("Endpoints", &ENDPOINTS),
    ("LimitRange", &LIMIT_RANGE),
    ("Namespace", &NAMESPACE),
    ("Node", &NODE),
    ("PersistentVolume", &PERSISTENT_VOLUME),
    ("PersistentVolumeClaim", &PERSISTENT_VOLUME_CLAIM),
    ("Pod", &POD),
    ("PodTemplate", &POD_TEMPLATE),
    ("ReplicationController", &REPLICATION_CONTROLLER),
    ("Secret", &SECRET),
    ("Service", &SERVICE),
];
