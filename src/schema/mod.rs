//! OpenAPI and CRD schemas as CEL types (issue 4).
//!
//! - [`api_docs`]: the documentation of a bundled kind's fields along a key path, for the editor.
//! - [`bundled`]: the Kubernetes OpenAPI definitions of every supported minor version, embedded
//!   compressed and decoded lazily (one index per version, one definition at a time).
//! - [`resources`]: group/version/resource → kind resolution for `matchConstraints.resourceRules`,
//!   with plurals, wildcards and subresources.
//! - [`escape`]: the API server's property-name escaping.
//! - [`SchemaTypes`]: a [`crate::cel::types::TypeProvider`] over schema-derived object types, built
//!   lazily as the checker asks for fields.
//! - [`sizes`]: the largest sizes schemas allow, for cost estimation.
//! - [`KubeVersion`]: the target Kubernetes version, parsed one way for every front end.
//! - [`defaults`]: the API server's defaulting of built-in kinds; [`structural`]: the pruning,
//!   metadata coercion and defaulting of custom resources by their CRD's structural schema.
//! - [`from_crd_json`]: the served versions of a `CustomResourceDefinition`;
//!   [`crd_check`]: the API server's rules for CRD schemas (`$ref` forbidden…), so that a broken
//!   CRD gets a diagnostic on itself.
//!
//! Type names: a kind's root object type is `<group>.<version>.<Kind>` with the core group spelled
//! `core` (`apps.v1.Deployment`, `core.v1.Pod`); a nested object type appends the escaped property
//! path (`apps.v1.Deployment.spec.template`). List items and map values have no path segment of
//! their own: the element type of `spec.template.spec.containers` is
//! `apps.v1.Deployment.spec.template.spec.containers`. Names are stable across runs, so a bundled
//! kind's types can be asked for by name alone; the registry registers the root on first mention.

pub mod api_docs;
pub mod bundled;
mod convert;
mod crd;
pub mod crd_check;
pub mod defaults;
pub mod escape;
mod registry;
pub mod resources;
pub mod sizes;
pub mod structural;
mod version;

pub use crd::{CrdError, CrdKind, Scope, from_crd_json};
pub use registry::{FieldInfo, ListType, SchemaTypes};
pub use resources::{Resolved, resolve_resources};
pub use version::{KubeVersion, VersionError};

/// A group, version and kind. The core group is the empty string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gvk {
    /// API group (`""` for the core group).
    pub group: String,
    /// API version (`v1`, `v1beta1`…).
    pub version: String,
    /// Kind (`Deployment`).
    pub kind: String,
}

impl Gvk {
    /// A GVK from its parts.
    pub fn new(group: &str, version: &str, kind: &str) -> Self {
        Self {
            group: group.to_string(),
            version: version.to_string(),
            kind: kind.to_string(),
        }
    }

    /// The root object type name of this kind, `<group>.<version>.<Kind>` (`core` for the core
    /// group).
    pub fn type_name(&self) -> String {
        let group = if self.group.is_empty() {
            "core"
        } else {
            &self.group
        };
        format!("{group}.{}.{}", self.version, self.kind)
    }
}

impl std::fmt::Display for Gvk {
    /// apimachinery's spelling, as the API server's type-checking warnings use it:
    /// `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
    }
}
