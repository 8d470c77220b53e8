//! The objects admission sees, as the API server prepares them: decoded (built-in kinds defaulted,
//! custom resources pruned, coerced and defaulted by their CRD), then the fields the server sets
//! itself before each admission stage.
//!
//! On CREATE (`k8s.io/apiserver pkg/endpoints/handlers/create.go`, then
//! `pkg/registry/generic/registry/store.go` `create`):
//! - **mutating admission** sees the decoded object after `rest.WipeObjectMetaSystemFields` (no
//!   `uid`, `deletionTimestamp`, `deletionGracePeriodSeconds`, `selfLink`; `creationTimestamp` is
//!   the zero time, written `null`) and `EnsureObjectNamespaceMatchesRequestNamespace` (a
//!   cluster-scoped object loses its namespace);
//! - **validating admission** sees it after `rest.FillObjectMetaSystemFields` (`uid`,
//!   `creationTimestamp`), name generation from `generateName` (the request's name is the
//!   generated one), and `rest.BeforeCreate`: the kind's `PrepareForCreate` (status reset,
//!   `generation: 1`, a Job's generated selector, a Pod's phase and QoS class) and `Canonicalize`.
//!   Placeholders replace the random and clock values ([`system`]).
//!
//! On UPDATE mutating admission sees the decoded object as sent; validating admission sees it
//! after `rest.BeforeUpdate`: generation, uid, creation and deletion timestamps from the old object,
//! the kind's `PrepareForUpdate` (status from the old object, generation bumped on a spec change).
//! The old object is the stored one: decoded and defaulted like the new one, with a uid, a
//! creation time and (for kinds that track it) a generation filled in when the sample has none.
//!
//! Not reproduced: `managedFields` (the field manager records the request before mutating
//! admission), `resourceVersion`, a Service's allocations in `BeginCreate` (cluster IPs, IP
//! families, node ports, which depend on the cluster), fields dropped for disabled feature gates,
//! and a Pod's scheduling-gated condition.

mod qos;
pub mod strategy;
pub mod system;

use serde_json::{Map, Value as Json};

use crate::policy::admission::view::{Binding, Policy};
use crate::policy::admission::{self, Input, Outcome, Request, patch};
use crate::schema::defaults::default_builtin;
use crate::schema::resources::is_namespaced;
use crate::schema::structural::{decode_crd_object, default_custom};
use crate::schema::{CrdKind, Gvk, Scope};

/// The admission stage an object is prepared for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// What a MutatingAdmissionPolicy sees.
    Mutating,
    /// What a ValidatingAdmissionPolicy sees.
    Validating,
}

/// What preparing a request changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prepared {
    /// Fields filled in or changed: defaults, then the server-set fields; the old object's paths
    /// are prefixed `oldObject.`.
    pub defaulted: Vec<String>,
    /// Unknown fields of a custom resource that decoding dropped (the API server warns about them,
    /// or refuses the request when the client asks for strict field validation, as kubectl does).
    pub pruned: Vec<String>,
    /// Why the API server would refuse to decode an object.
    pub errors: Vec<String>,
}

/// The kind of a request's objects: a CRD of the evaluation, else a built-in kind.
#[derive(Clone, Copy, Debug)]
enum Kind<'a> {
    Custom(&'a CrdKind),
    Builtin,
}

fn kind_of<'a>(gvk: &Gvk, crds: &'a [CrdKind]) -> Kind<'a> {
    crds.iter()
        .find(|c| c.gvk == *gvk)
        .map_or(Kind::Builtin, Kind::Custom)
}

fn request_gvk(request: &Request) -> Gvk {
    Gvk::new(&request.group, &request.version, &request.kind)
}

/// Decodes one object: defaults for a built-in kind, prune + coerce + defaults for a custom one.
fn decode(
    object: &mut Json,
    gvk: &Gvk,
    kind: Kind<'_>,
    minor: u32,
    prefix: &str,
    out: &mut Prepared,
) {
    let with = |p: String| format!("{prefix}{p}");
    match kind {
        Kind::Custom(crd) => {
            let decoded = decode_crd_object(crd, object);
            out.defaulted
                .extend(decoded.defaulted.into_iter().map(with));
            out.pruned.extend(decoded.pruned.into_iter().map(with));
            out.errors.extend(decoded.errors.into_iter().map(with));
        }
        Kind::Builtin => {
            let defaulted = default_builtin(gvk, object, minor);
            out.defaulted
                .extend(defaulted.into_iter().map(|d| with(d.path)));
        }
    }
}

/// Prepares `request`'s objects for `stage`: decodes both, then applies the server-set fields of
/// the operation (see the module documentation). `request.name` becomes the generated name on
/// CREATE for validating admission, and `request.namespace` is empty for a cluster-scoped kind.
pub fn prepare(request: &mut Request, stage: Stage, crds: &[CrdKind], minor: u32) -> Prepared {
    let gvk = request_gvk(request);
    let kind = kind_of(&gvk, crds);
    let mut out = Prepared::default();
    if let Some(object) = request.object.as_mut() {
        decode(object, &gvk, kind, minor, "", &mut out);
    }
    if let Some(old) = request.old_object.as_mut() {
        decode(old, &gvk, kind, minor, "oldObject.", &mut out);
    }
    if !out.errors.is_empty() {
        return out;
    }
    let namespaced = match kind {
        Kind::Custom(crd) => crd.scope == Scope::Namespaced,
        Kind::Builtin => is_namespaced(&gvk.group, &gvk.kind),
    };
    if !namespaced {
        request.namespace.clear();
    }
    let strategy = match kind {
        Kind::Custom(crd) => Some(strategy::Kind::Custom(strategy::Custom {
            status_subresource: crd.subresources.iter().any(|s| s == "status"),
        })),
        Kind::Builtin => strategy::builtin(&gvk).map(strategy::Kind::Builtin),
    };
    if let Some(Json::Object(old)) = request.old_object.as_mut() {
        fill_stored_fields(old, strategy, minor, &mut out.defaulted);
    }
    let old = request.old_object.clone();
    let Some(Json::Object(object)) = request.object.as_mut() else {
        return out;
    };
    if !namespaced
        && let Some(Json::Object(meta)) = object.get_mut("metadata")
        && meta.remove("namespace").is_some()
    {
        out.defaulted.push("metadata.namespace".into());
    }
    match (request.operation.as_str(), stage) {
        ("CREATE", Stage::Mutating) => wipe_system_fields(object, &mut out.defaulted),
        ("CREATE", Stage::Validating) => {
            wipe_system_fields(object, &mut out.defaulted);
            fill_system_fields(object, &mut out.defaulted);
            if let Some(name) = generate_name(object, &mut out.defaulted) {
                request.name = name;
            }
            let labels_from_template = out.defaulted.iter().any(|p| p == "metadata.labels");
            if let Some(strategy) = strategy {
                strategy::prepare_for_create(
                    strategy,
                    object,
                    minor,
                    labels_from_template,
                    &mut out.defaulted,
                );
            }
        }
        ("UPDATE", Stage::Validating) => {
            if let Some(Json::Object(old)) = old.as_ref() {
                before_update(object, old, strategy, minor, &mut out.defaulted);
            }
        }
        _ => {}
    }
    dedupe(&mut out.defaulted);
    out
}

/// Keeps the first mention of each path (a wiped field filled again is one change).
fn dedupe(paths: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    paths.retain(|p| seen.insert(p.clone()));
}

/// The metadata map of an object, created if absent or not an object.
fn metadata(object: &mut Map<String, Json>) -> Option<&mut Map<String, Json>> {
    strategy::map_at(object, &["metadata"])
}

/// `rest.WipeObjectMetaSystemFields`, as the unstructured object then reads (a zero
/// `creationTimestamp` is written `null`).
fn wipe_system_fields(object: &mut Map<String, Json>, out: &mut Vec<String>) {
    let Some(meta) = metadata(object) else { return };
    for key in [
        "uid",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "selfLink",
    ] {
        if meta.remove(key).is_some() {
            out.push(format!("metadata.{key}"));
        }
    }
    if meta.get("creationTimestamp") != Some(&Json::Null) {
        let had = meta.insert("creationTimestamp".into(), Json::Null);
        if had.is_some() {
            out.push("metadata.creationTimestamp".into());
        }
    }
}

/// `rest.FillObjectMetaSystemFields`: a uid and the creation time (placeholders).
fn fill_system_fields(object: &mut Map<String, Json>, out: &mut Vec<String>) {
    let identity = system::identity(object);
    let Some(meta) = metadata(object) else { return };
    meta.insert(
        "creationTimestamp".into(),
        Json::from(system::CREATION_TIMESTAMP),
    );
    meta.insert("uid".into(), Json::from(system::uid_for(&identity)));
    out.push("metadata.creationTimestamp".into());
    out.push("metadata.uid".into());
}

/// `Store.create`: a `generateName` without a name becomes the name; returns it.
fn generate_name(object: &mut Map<String, Json>, out: &mut Vec<String>) -> Option<String> {
    let identity = system::identity(object);
    let meta = metadata(object)?;
    let has_name = meta
        .get("name")
        .and_then(Json::as_str)
        .is_some_and(|n| !n.is_empty());
    let base = meta
        .get("generateName")
        .and_then(Json::as_str)
        .filter(|b| !b.is_empty())?
        .to_string();
    if has_name {
        return None;
    }
    let name = system::generated_name(&base, &identity);
    meta.insert("name".into(), Json::from(name.as_str()));
    out.push("metadata.name".into());
    Some(name)
}

/// The old object is the stored one, which always carries a uid and a creation time, and a
/// generation for kinds that track it: placeholders fill them in where the sample has none.
fn fill_stored_fields(
    old: &mut Map<String, Json>,
    strategy: Option<strategy::Kind>,
    minor: u32,
    out: &mut Vec<String>,
) {
    let identity = system::identity(old);
    let tracks_generation = match strategy {
        Some(strategy::Kind::Custom(_)) => true,
        Some(strategy::Kind::Builtin(s)) => s.generation_since.is_some_and(|since| minor >= since),
        None => false,
    };
    let Some(meta) = metadata(old) else { return };
    let unset = |meta: &Map<String, Json>, key: &str| {
        meta.get(key)
            .is_none_or(|v| v.is_null() || v == "" || v == 0)
    };
    let mut fill = |key: &str, value: Json, meta: &mut Map<String, Json>| {
        meta.insert(key.to_string(), value);
        out.push(format!("oldObject.metadata.{key}"));
    };
    if unset(meta, "uid") {
        fill("uid", Json::from(system::uid_for(&identity)), meta);
    }
    if unset(meta, "creationTimestamp") {
        fill(
            "creationTimestamp",
            Json::from(system::CREATION_TIMESTAMP),
            meta,
        );
    }
    if tracks_generation && unset(meta, "generation") {
        fill("generation", Json::from(1), meta);
    }
}

/// `rest.BeforeUpdate`: generation from the old object, the kind's `PrepareForUpdate`, then the
/// uid, creation and deletion timestamps the update cannot change.
fn before_update(
    object: &mut Map<String, Json>,
    old: &Map<String, Json>,
    strategy: Option<strategy::Kind>,
    minor: u32,
    out: &mut Vec<String>,
) {
    let old_meta = old
        .get("metadata")
        .and_then(Json::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(meta) = metadata(object) {
        let generation = old_meta.get("generation").filter(|g| !g.is_null()).cloned();
        if meta.get("generation") != generation.as_ref() {
            match generation {
                Some(g) => meta.insert("generation".into(), g),
                None => meta.remove("generation"),
            };
            out.push("metadata.generation".into());
        }
    }
    if let Some(strategy) = strategy {
        strategy::prepare_for_update(strategy, object, old, minor, out);
    }
    let Some(meta) = metadata(object) else { return };
    let carry =
        |key: &str, only_if_unset: bool, meta: &mut Map<String, Json>, out: &mut Vec<String>| {
            let Some(value) = old_meta.get(key).filter(|v| !v.is_null()) else {
                return;
            };
            let unset = meta.get(key).is_none_or(|v| v.is_null() || v == "");
            if (!only_if_unset || unset) && meta.get(key) != Some(value) {
                meta.insert(key.to_string(), value.clone());
                out.push(format!("metadata.{key}"));
            }
        };
    carry("uid", true, meta, out);
    carry("creationTimestamp", false, meta, out);
    carry("deletionTimestamp", false, meta, out);
    carry("deletionGracePeriodSeconds", true, meta, out);
}

/// Evaluates `policy` for `input` as the API server does it, objects included: unless
/// `defaults` is off, the request's objects are prepared for the policy's stage first
/// ([`prepare`]; a mutating policy's result is defaulted again, [`finish_mutation`]) and the
/// outcome lists what was filled in. `Err` when the API server would refuse to decode an object.
pub fn evaluate(
    policy: &Policy,
    binding: Option<&Binding>,
    mut input: Input,
    crds: &[CrdKind],
    defaults: bool,
) -> Result<Outcome, String> {
    if !defaults {
        return Ok(admission::evaluate(policy, binding, &input));
    }
    let minor = input.schemas.minor();
    let stage = if policy.kind.is_mutating() {
        Stage::Mutating
    } else {
        Stage::Validating
    };
    let prepared = prepare(&mut input.request, stage, crds, minor);
    // The namespace object is the stored one, defaulted like any stored object.
    if let Some(namespace) = input.request.namespace_object.as_mut() {
        default_builtin(&namespace_gvk(), namespace, minor);
    }
    if let Some(error) = prepared.errors.first() {
        return Err(format!("the API server would refuse the object: {error}"));
    }
    let mut outcome = admission::evaluate(policy, binding, &input);
    if let Some(before) = input.request.object.as_ref() {
        finish_mutation(&mut outcome, before, crds, minor);
    }
    outcome.defaulted = prepared.defaulted;
    outcome.pruned = prepared.pruned;
    Ok(outcome)
}

/// The Namespace named `name` as the API server holds it when a request in that namespace is
/// admitted: the namespace exists (the `NamespaceLifecycle` admission plugin refuses requests in
/// one that does not) and, stored, carries its defaults: the `kubernetes.io/metadata.name` label
/// and `status.phase: Active` (`pkg/apis/core/v1/defaults.go` `SetDefaults_Namespace`,
/// `SetDefaults_NamespaceStatus`). For a request whose namespace nobody described.
pub fn stored_namespace(name: &str, minor: u32) -> Json {
    let mut namespace = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": name},
    });
    default_builtin(&namespace_gvk(), &mut namespace, minor);
    namespace
}

fn namespace_gvk() -> Gvk {
    Gvk::new("", "v1", "Namespace")
}

/// What the API server does with a mutating policy's result (`mutating/dispatcher.go`
/// `dispatchOne`): the object is defaulted again (a custom resource by its schema's defaults,
/// without pruning). The outcome's patch is recomputed from `input`.
pub fn finish_mutation(outcome: &mut Outcome, input: &Json, crds: &[CrdKind], minor: u32) {
    let Some(object) = outcome.object.as_mut() else {
        return;
    };
    let gvk = object_gvk(object);
    match kind_of(&gvk, crds) {
        Kind::Custom(crd) => {
            if let Some(schema) = crd.schema.as_deref() {
                default_custom(schema, object);
            }
        }
        Kind::Builtin => {
            default_builtin(&gvk, object, minor);
        }
    }
    outcome.patch = Some(patch::diff(input, object));
}

/// The kind an object declares (`apiVersion`, `kind`).
fn object_gvk(object: &Json) -> Gvk {
    let api_version = object
        .get("apiVersion")
        .and_then(Json::as_str)
        .unwrap_or("");
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let kind = object.get("kind").and_then(Json::as_str).unwrap_or("");
    Gvk::new(group, version, kind)
}

/// An object given as what a mutating policy should produce (a test's expected object), prepared
/// as the request's object is for mutating admission and defaulted again as the result is, so
/// that it compares with [`finish_mutation`]'s output without spelling out defaults.
pub fn prepare_expected(object: &mut Json, operation: &str, crds: &[CrdKind], minor: u32) {
    let mut request = Request::new(Some(object.clone()), None, Some(operation));
    prepare(&mut request, Stage::Mutating, crds, minor);
    if let Some(prepared) = request.object {
        *object = prepared;
    }
}

#[cfg(test)]
mod tests;
