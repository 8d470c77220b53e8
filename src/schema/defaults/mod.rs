//! Defaulting of built-in kinds as the API server does it on decode, before admission: the
//! defaulters the scheme registers for `core/v1`, `apps/v1`, `batch/v1`, `networking/v1`,
//! `policy/v1` and `autoscaling/v2` (`pkg/apis/<group>/<version>/defaults.go` and the declarative
//! `+default=` markers, walked as `zz_generated.defaults.go` walks them), pod templates included.
//!
//! The defaults are data, one table per group ([`core`], [`apps`], [`batch`], [`networking`],
//! [`policy`], [`autoscaling`]), each row citing its upstream function, interpreted by [`engine`];
//! rules that are more than "if absent, set" are small named functions next to their table.
//! Version-dependent rules (feature gates on by default from a given minor) follow the target
//! version.
//!
//! Custom resources are defaulted and pruned by their CRD's structural schema in
//! [`crate::schema::structural`].

mod apps;
mod autoscaling;
mod batch;
mod core;
mod describe;
mod engine;
mod image;
mod networking;
mod policy;

use serde_json::Value as Json;

pub use describe::Rule;

use super::Gvk;

/// One field the defaulters set (or, for `sessionAffinityConfig` without affinity, cleared).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defaulted {
    /// The field's path: `.` between fields, `[i]` for a list element, `[key]` for a map entry
    /// (`spec.template.spec.containers[0].imagePullPolicy`,
    /// `metadata.labels[kubernetes.io/metadata.name]`).
    pub path: String,
}

/// The kinds of one group version with their tables.
type KindTable = &'static [(&'static str, &'static engine::TypeDef)];

/// The group versions covered, with their kinds.
const GROUPS: &[(&str, &str, KindTable)] = &[
    ("", "v1", core::KINDS),
    ("apps", "v1", apps::KINDS),
    ("batch", "v1", batch::KINDS),
    ("networking.k8s.io", "v1", networking::KINDS),
    ("policy", "v1", policy::KINDS),
    ("autoscaling", "v2", autoscaling::KINDS),
];

fn group_kinds(gvk: &Gvk) -> Option<KindTable> {
    GROUPS
        .iter()
        .find(|(group, version, _)| *group == gvk.group && *version == gvk.version)
        .map(|(_, _, kinds)| *kinds)
}

/// The defaulting table of a built-in kind, if it has one.
fn table(gvk: &Gvk) -> Option<&'static engine::TypeDef> {
    group_kinds(gvk)?
        .iter()
        .find(|(kind, _)| *kind == gvk.kind)
        .map(|(_, ty)| *ty)
}

/// Whether `gvk` belongs to a group version the defaulting tables cover (a kind without
/// defaulters there, such as `policy/v1 PodDisruptionBudget`, counts as covered).
pub fn covers(gvk: &Gvk) -> bool {
    group_kinds(gvk).is_some()
}

/// Applies the registered defaulters of the built-in kind `gvk` to `object` as Kubernetes
/// 1.`minor` does, returning what was set, in the order the defaulters ran. A kind without
/// defaulters, or an object that is not a JSON object, is left as it is.
pub fn default_builtin(gvk: &Gvk, object: &mut Json, minor: u32) -> Vec<Defaulted> {
    let (Some(ty), Json::Object(map)) = (table(gvk), object) else {
        return Vec::new();
    };
    let mut ctx = engine::Ctx::new(minor);
    engine::run(&mut ctx, ty, map);
    ctx.finish()
}

/// The built-in kinds with defaulters, in table order, for documentation and tests.
pub fn defaulted_kinds() -> Vec<Gvk> {
    GROUPS
        .iter()
        .flat_map(|(group, version, kinds)| {
            kinds
                .iter()
                .map(move |(kind, _)| Gvk::new(group, version, kind))
        })
        .collect()
}

/// Every rule of the defaulting of `gvk` (empty for a kind without defaulters).
pub fn rules(gvk: &Gvk) -> Vec<Rule> {
    table(gvk).map(describe::rules).unwrap_or_default()
}
