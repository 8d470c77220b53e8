//! What the registry does to an object between mutating and validating admission
//! (`k8s.io/apiserver pkg/registry/generic/registry/store.go` `create`/`Update`,
//! `pkg/registry/rest/create.go` `BeforeCreate`, `update.go` `BeforeUpdate`) and the kinds'
//! strategies (`pkg/registry/<group>/<kind>/strategy.go` `PrepareForCreate`, `PrepareForUpdate`,
//! `Canonicalize`), as a table per kind.
//!
//! On CREATE the status is reset to the status type's zero value as the unstructured converter
//! writes it (fields without `omitempty` appear as `0`, non-pointer structs as `{}`), and kinds that
//! track it get `generation: 1`. On UPDATE the status is carried over from the old object and the
//! generation bumped when the spec changed.

use serde_json::{Map, Value as Json, json};

use super::qos;
use crate::schema::Gvk;

/// How one kind's strategy treats status and generation.
#[derive(Clone, Copy, Debug)]
pub struct Strategy {
    /// Group and kind.
    pub group: &'static str,
    pub kind: &'static str,
    /// The status written on create (JSON), or `None` when the strategy leaves it.
    pub status_on_create: Option<&'static str>,
    /// `metadata.generation` is 1 on create from this minor on (0: every version), and bumped on
    /// spec changes.
    pub generation_since: Option<u32>,
    /// The annotations also bump the generation (Deployment).
    pub annotations_bump_generation: bool,
    /// The upstream function.
    pub source: &'static str,
}

const fn strategy(
    group: &'static str,
    kind: &'static str,
    status_on_create: Option<&'static str>,
    generation_since: Option<u32>,
    source: &'static str,
) -> Strategy {
    Strategy {
        group,
        kind,
        status_on_create,
        generation_since,
        annotations_bump_generation: false,
        source,
    }
}

/// The strategies reproduced; other kinds get only the generic metadata handling.
const STRATEGIES: &[Strategy] = &[
    Strategy {
        annotations_bump_generation: true,
        ..strategy(
            "apps",
            "Deployment",
            Some("{}"),
            Some(0),
            "pkg/registry/apps/deployment/strategy.go PrepareForCreate, PrepareForUpdate",
        )
    },
    strategy(
        "apps",
        "ReplicaSet",
        Some(r#"{"replicas": 0}"#),
        Some(0),
        "pkg/registry/apps/replicaset/strategy.go PrepareForCreate (ReplicaSetStatus.Replicas has no omitempty)",
    ),
    strategy(
        "apps",
        "StatefulSet",
        Some(r#"{"replicas": 0, "availableReplicas": 0}"#),
        Some(0),
        "pkg/registry/apps/statefulset/strategy.go PrepareForCreate",
    ),
    strategy(
        "apps",
        "DaemonSet",
        Some(
            r#"{"currentNumberScheduled": 0, "numberMisscheduled": 0, "desiredNumberScheduled": 0, "numberReady": 0}"#,
        ),
        Some(0),
        "pkg/registry/apps/daemonset/strategy.go PrepareForCreate",
    ),
    strategy(
        "batch",
        "Job",
        Some("{}"),
        Some(0),
        "pkg/registry/batch/job/strategy.go PrepareForCreate (generateSelectorIfNeeded), PrepareForUpdate",
    ),
    strategy(
        "batch",
        "CronJob",
        Some("{}"),
        Some(0),
        "pkg/registry/batch/cronjob/strategy.go PrepareForCreate",
    ),
    strategy(
        "",
        "ReplicationController",
        Some(r#"{"replicas": 0}"#),
        Some(0),
        "pkg/registry/core/replicationcontroller/strategy.go PrepareForCreate",
    ),
    strategy(
        "",
        "Pod",
        None,
        Some(33),
        "pkg/registry/core/pod/strategy.go PrepareForCreate (Generation = 1 from 1.33, kubernetes/kubernetes#130181; Status = {Phase: Pending, QOSClass: GetPodQOS})",
    ),
    strategy(
        "",
        "Service",
        Some(r#"{"loadBalancer": {}}"#),
        None,
        "pkg/registry/core/service/strategy.go PrepareForCreate",
    ),
    strategy(
        "",
        "Namespace",
        Some(r#"{"phase": "Active"}"#),
        None,
        "pkg/registry/core/namespace/strategy.go PrepareForCreate (kubernetes finalizer), Canonicalize (name label)",
    ),
    strategy(
        "networking.k8s.io",
        "Ingress",
        Some(r#"{"loadBalancer": {}}"#),
        Some(0),
        "pkg/registry/networking/ingress/strategy.go PrepareForCreate",
    ),
    strategy(
        "networking.k8s.io",
        "NetworkPolicy",
        None,
        Some(0),
        "pkg/registry/networking/networkpolicy/strategy.go PrepareForCreate",
    ),
    strategy(
        "policy",
        "PodDisruptionBudget",
        Some(
            r#"{"disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0}"#,
        ),
        Some(0),
        "pkg/registry/policy/poddisruptionbudget/strategy.go PrepareForCreate",
    ),
];

/// The strategy of a built-in kind, if reproduced.
pub(super) fn builtin(gvk: &Gvk) -> Option<&'static Strategy> {
    STRATEGIES
        .iter()
        .find(|s| s.group == gvk.group && s.kind == gvk.kind)
}

/// How a custom resource's strategy behaves (`apiextensions-apiserver
/// pkg/registry/customresource/strategy.go`): generation always, status dropped on create and
/// carried over on update when the CRD enables the status subresource.
#[derive(Clone, Copy, Debug)]
pub(super) struct Custom {
    pub status_subresource: bool,
}

/// Which strategy applies.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Builtin(&'static Strategy),
    Custom(Custom),
}

fn set(map: &mut Map<String, Json>, key: &str, value: Json, out: &mut Vec<String>, path: &str) {
    if map.get(key) != Some(&value) {
        map.insert(key.to_string(), value);
        out.push(path.to_string());
    }
}

/// Sets `metadata.generation` (creating `metadata`).
fn set_generation(object: &mut Map<String, Json>, generation: i64, out: &mut Vec<String>) {
    if let Some(meta) = map_at(object, &["metadata"]) {
        set(
            meta,
            "generation",
            json!(generation),
            out,
            "metadata.generation",
        );
    }
}

/// `PrepareForCreate` (and, for Namespace, `Canonicalize`).
///
/// `labels_from_template`: the object's labels were defaulted from its template (`SetDefaults_Job`
/// assigns the template's label map itself, so the Job's selector generation writes into both).
pub(super) fn prepare_for_create(
    kind: Kind,
    object: &mut Map<String, Json>,
    minor: u32,
    labels_from_template: bool,
    out: &mut Vec<String>,
) {
    match kind {
        Kind::Custom(custom) => {
            if custom.status_subresource && object.remove("status").is_some() {
                out.push("status".into());
            }
            set_generation(object, 1, out);
        }
        Kind::Builtin(strategy) => {
            if strategy.kind == "Job" {
                generate_job_selector(object, labels_from_template, out);
            }
            if strategy.kind == "Pod" {
                let class = qos::pod_qos(object, minor);
                let status = json!({"phase": "Pending", "qosClass": class});
                set(object, "status", status, out, "status");
            }
            if let Some(status) = strategy.status_on_create {
                let status: Json = serde_json::from_str(status).unwrap_or(Json::Null);
                set(object, "status", status, out, "status");
            }
            if strategy
                .generation_since
                .is_some_and(|since| minor >= since)
            {
                set_generation(object, 1, out);
            }
            if strategy.kind == "Namespace" {
                namespace_on_create(object, out);
            }
        }
    }
}

/// `generateSelector` of the Job strategy, unless `spec.manualSelector` is true: the template
/// gets the job-name and controller-uid labels (legacy and prefixed), the selector the prefixed
/// controller-uid. When the Job's labels are its template's map (`aliased`), they get them too, as
/// a Job created without labels shows them.
fn generate_job_selector(job: &mut Map<String, Json>, aliased: bool, out: &mut Vec<String>) {
    let manual = job
        .get("spec")
        .and_then(|s| s.get("manualSelector"))
        .and_then(Json::as_bool)
        == Some(true);
    if manual {
        return;
    }
    let name = meta_string(job, "name");
    let uid = meta_string(job, "uid");
    let Some(spec) = job.get_mut("spec").and_then(Json::as_object_mut) else {
        return;
    };
    let labels = [
        ("job-name", &name),
        ("batch.kubernetes.io/job-name", &name),
        ("controller-uid", &uid),
        ("batch.kubernetes.io/controller-uid", &uid),
    ];
    let mut added = Vec::new();
    if let Some(template_labels) = map_at(spec, &["template", "metadata", "labels"]) {
        for (key, value) in labels {
            if !template_labels.contains_key(key) {
                template_labels.insert(key.to_string(), Json::from(value.as_str()));
                out.push(format!("spec.template.metadata.labels[{key}]"));
                added.push((key, value.clone()));
            }
        }
    }
    if let Some(match_labels) = map_at(spec, &["selector", "matchLabels"]) {
        let key = "batch.kubernetes.io/controller-uid";
        if !match_labels.contains_key(key) {
            match_labels.insert(key.to_string(), Json::from(uid.as_str()));
            out.push(format!("spec.selector.matchLabels[{key}]"));
        }
    }
    if aliased && let Some(job_labels) = map_at(job, &["metadata", "labels"]) {
        for (key, value) in added {
            job_labels.insert(key.to_string(), Json::from(value));
            out.push(format!("metadata.labels[{key}]"));
        }
    }
}

/// A string field of `metadata`, or `""`.
fn meta_string(object: &Map<String, Json>, key: &str) -> String {
    object
        .get("metadata")
        .and_then(|m| m.get(key))
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string()
}

/// The map at `path`, created through absent, `null` or non-object segments.
pub(super) fn map_at<'a>(
    object: &'a mut Map<String, Json>,
    path: &[&str],
) -> Option<&'a mut Map<String, Json>> {
    let mut current = object;
    for key in path {
        let slot = current
            .entry((*key).to_string())
            .or_insert_with(|| Json::Object(Map::new()));
        if slot.is_null() {
            *slot = Json::Object(Map::new());
        }
        current = slot.as_object_mut()?;
    }
    Some(current)
}

/// The Namespace strategy on create: the `kubernetes` finalizer is required, and `Canonicalize`
/// labels the namespace with its (possibly generated) name.
fn namespace_on_create(namespace: &mut Map<String, Json>, out: &mut Vec<String>) {
    if let Some(spec) = map_at(namespace, &["spec"]) {
        let finalizers = spec
            .entry("finalizers")
            .or_insert_with(|| Json::Array(Vec::new()));
        if let Json::Array(list) = finalizers
            && !list.iter().any(|f| f == "kubernetes")
        {
            list.push(Json::from("kubernetes"));
            out.push("spec.finalizers".into());
        }
    }
    let name = meta_string(namespace, "name");
    if !name.is_empty()
        && let Some(labels) = map_at(namespace, &["metadata", "labels"])
        && labels
            .get("kubernetes.io/metadata.name")
            .and_then(Json::as_str)
            != Some(&name)
    {
        labels.insert("kubernetes.io/metadata.name".into(), Json::from(name));
        out.push("metadata.labels[kubernetes.io/metadata.name]".into());
    }
}

/// `PrepareForUpdate`: status from the old object, generation bumped when the spec (or, for a
/// custom resource, anything but the metadata) changed.
pub(super) fn prepare_for_update(
    kind: Kind,
    object: &mut Map<String, Json>,
    old: &Map<String, Json>,
    minor: u32,
    out: &mut Vec<String>,
) {
    let old_generation = old
        .get("metadata")
        .and_then(|m| m.get("generation"))
        .and_then(Json::as_i64)
        .unwrap_or(0);
    let (keeps_status, bumps) = match kind {
        Kind::Custom(custom) => {
            if custom.status_subresource {
                carry_status(object, old, out);
            }
            let changed = without_metadata(object) != without_metadata(old);
            (false, changed)
        }
        Kind::Builtin(strategy) => {
            let tracks = strategy
                .generation_since
                .is_some_and(|since| minor >= since);
            let spec_changed = object.get("spec") != old.get("spec");
            let annotations_changed =
                strategy.annotations_bump_generation && annotations(object) != annotations(old);
            let keeps = strategy.status_on_create.is_some() || strategy.kind == "Pod";
            (keeps, tracks && (spec_changed || annotations_changed))
        }
    };
    if keeps_status {
        carry_status(object, old, out);
    }
    if bumps {
        set_generation(object, old_generation + 1, out);
    }
    if let (Kind::Builtin(strategy), Some(Json::Object(old_spec))) = (kind, old.get("spec"))
        && strategy.kind == "Namespace"
        && let Some(finalizers) = old_spec.get("finalizers")
        && let Some(spec) = map_at(object, &["spec"])
    {
        // The namespace strategy keeps the finalizers (only the finalize subresource changes them).
        set(
            spec,
            "finalizers",
            finalizers.clone(),
            out,
            "spec.finalizers",
        );
    }
}

/// `newX.Status = oldX.Status`: the old object's status, or none.
fn carry_status(object: &mut Map<String, Json>, old: &Map<String, Json>, out: &mut Vec<String>) {
    match old.get("status") {
        Some(status) => set(object, "status", status.clone(), out, "status"),
        None => {
            if object.remove("status").is_some() {
                out.push("status".into());
            }
        }
    }
}

fn without_metadata(object: &Map<String, Json>) -> Map<String, Json> {
    object
        .iter()
        .filter(|(k, _)| *k != "metadata")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn annotations(object: &Map<String, Json>) -> Option<&Json> {
    object.get("metadata").and_then(|m| m.get("annotations"))
}

/// One line per reproduced strategy (kind, status on create, generation, source), for the
/// documentation and its test.
pub fn describe() -> Vec<String> {
    STRATEGIES
        .iter()
        .map(|s| {
            let group = if s.group.is_empty() { "core" } else { s.group };
            let status = s.status_on_create.unwrap_or(match s.kind {
                "Pod" => r#"{"phase": "Pending", "qosClass": …}"#,
                _ => "kept",
            });
            let generation = match s.generation_since {
                Some(0) => "1".to_string(),
                Some(since) => format!("1 from 1.{since}"),
                None => "not set".to_string(),
            };
            format!(
                "{group}/{}: status {status}; generation {generation} — {}",
                s.kind, s.source
            )
        })
        .collect()
}
