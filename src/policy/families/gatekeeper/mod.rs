//! Gatekeeper's CEL: ConstraintTemplates (`templates.gatekeeper.sh`) whose code has an
//! `engine: K8sNativeValidation` entry, and the Constraints (`constraints.gatekeeper.sh`) that bind
//! them. The authorities are open-policy-agent/gatekeeper `pkg/drivers/k8scel` (the source fields,
//! the reserved names, the environment the driver compiles in, `transform/cel_snippets.go` for
//! `variables.anyObject` and `variables.params`) and open-policy-agent/frameworks
//! `constraint/pkg/client` (the template's metadata and targets, the constraint CRD a template
//! creates: `crds/schema.go`, `crds/crds.go`).
//!
//! A template's `spec.crd.spec.validation.openAPIV3Schema` becomes, through the workspace, the
//! CRD of its Constraint kind ([`crd`]), so that a Constraint in another file is checked against
//! it and `variables.params` is typed from it. Rego code entries are not this engine's and are
//! left alone.
//!
//! What is reported, and how severe:
//! - an unknown version or kind of the groups, a template frameworks refuses (no CRD kind, a name
//!   that is not the kind in lower case, not exactly one target, an unknown target), a schema the
//!   API server would not accept for the CRD, a source the driver refuses (reserved names, a
//!   failure policy other than `Fail`/`Ignore`, a field of the wrong type): errors;
//! - a source field the driver does not read (it is dropped when the source is decoded): a
//!   warning;
//! - a CEL syntax error, or a compile error in the driver's environment (`object` as `dyn`): an
//!   error that fails every evaluation (the driver compiles when the template is added and keeps
//!   the error for admission time);
//! - typed-only findings (with `object` typed from the kinds the template's Constraints match):
//!   warnings, except an undefined field every matched kind agrees on (an error at admission);
//! - a Constraint's parameters or match against the CRD its template creates: the API server's
//!   schema errors, unknown fields as warnings (pruned).

pub mod constraint;
pub mod crd;
pub mod gator;
pub mod matching;
mod sites;
mod template;
mod typed;
mod vap;
mod vap_check;
pub mod verdict;

use super::{Family, FamilySite};
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::yaml::Node;

/// The API group of ConstraintTemplates.
pub const TEMPLATES: &str = "templates.gatekeeper.sh";
/// The API group of Constraints.
pub const CONSTRAINTS: &str = "constraints.gatekeeper.sh";
/// The API group of gator suites (read by the test runner, not checked here).
pub const TESTS: &str = "test.gatekeeper.sh";
/// The name of the CEL engine (`pkg/drivers/k8scel/schema/schema.go` `Name`).
pub const ENGINE: &str = "K8sNativeValidation";

/// The versions Gatekeeper serves ConstraintTemplates in.
const TEMPLATE_VERSIONS: &[&str] = &["v1", "v1beta1", "v1alpha1"];

/// The family of Gatekeeper's templates and constraints.
pub struct Gatekeeper;

impl Family for Gatekeeper {
    fn groups(&self) -> &'static [&'static str] {
        &[TEMPLATES, CONSTRAINTS, TESTS]
    }

    fn suites(&self) -> Option<&'static dyn super::Suites> {
        Some(&gator::GatorSuites)
    }

    fn claims(&self, api_version: &str, _kind: &str) -> bool {
        matches!(group_of(api_version), Some(TEMPLATES | CONSTRAINTS))
    }

    /// The ConstraintTemplate (with its Constraint as `params`).
    fn evaluated(&self, root: &Node) -> bool {
        is_template(root)
    }

    fn check(&self, root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        let api_version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
        if group_of(api_version) == Some(CONSTRAINTS) {
            constraint::check(root, workspace, out);
        } else if served_template(root, out) {
            template::check(root, minor, workspace, out);
        }
    }

    fn sites(&self, root: &Node) -> Vec<FamilySite> {
        sites::collect(root)
    }

    fn editor_env(
        &self,
        root: &Node,
        sites: &[FamilySite],
        parsed: &[Option<crate::cel::ast::Ast>],
        index: usize,
        minor: u32,
        workspace: &Workspace,
    ) -> Option<crate::cel::check::Env> {
        typed::editor_env(root, sites, parsed, index, minor, workspace)
    }
}

/// The group of an `apiVersion` written `group/version`.
fn group_of(api_version: &str) -> Option<&str> {
    api_version.split_once('/').map(|(group, _)| group)
}

/// Whether the template document at `root` is a kind and version Gatekeeper serves; otherwise
/// reports what is served.
fn served_template(root: &Node, out: &mut Vec<Diagnostic>) -> bool {
    let Some(api_version) = root.get("apiVersion") else {
        return false;
    };
    let version = api_version
        .as_str()
        .and_then(|v| v.split_once('/'))
        .map_or("", |(_, v)| v);
    let kind_node = root.get("kind");
    let kind = kind_node.and_then(Node::as_str).unwrap_or("");
    if kind != "ConstraintTemplate" {
        let range = kind_node.map_or(api_version.range, |n| n.range);
        let message = format!(
            "kind: Unsupported value: \"{kind}\": {TEMPLATES} serves the kind ConstraintTemplate"
        );
        out.push(Diagnostic::new(Code::NotSupported, range, message));
        return false;
    }
    if !TEMPLATE_VERSIONS.contains(&version) {
        let message = format!(
            "apiVersion: Unsupported value: \"{TEMPLATES}/{version}\": Gatekeeper serves ConstraintTemplate in {}",
            TEMPLATE_VERSIONS.join(", ")
        );
        out.push(Diagnostic::new(
            Code::NotSupported,
            api_version.range,
            message,
        ));
        return false;
    }
    true
}

/// The `code` entries of a template's first target that run on this engine, with their index.
fn cel_code(root: &Node) -> impl Iterator<Item = (usize, &Node)> {
    let code = root
        .get("spec")
        .and_then(|spec| spec.get("targets"))
        .and_then(Node::as_sequence)
        .and_then(|targets| targets.first())
        .and_then(|target| target.get("code"))
        .and_then(Node::as_sequence)
        .unwrap_or(&[]);
    code.iter()
        .enumerate()
        .filter(|(_, entry)| entry.get("engine").and_then(Node::as_str) == Some(ENGINE))
        // The driver reads the first entry of its engine only (`GetSourceFromTemplate`).
        .take(1)
}

/// The CRD kind (`spec.crd.spec.names.kind`) of a template, when written.
pub fn template_kind(root: &Node) -> Option<&str> {
    root.get("spec")?
        .get("crd")?
        .get("spec")?
        .get("names")?
        .get("kind")?
        .as_str()
        .filter(|kind| !kind.is_empty())
}

/// Whether `root` is a ConstraintTemplate of a served version.
pub fn is_template(root: &Node) -> bool {
    let api_version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
    let kind = root.get("kind").and_then(Node::as_str);
    group_of(api_version) == Some(TEMPLATES) && kind == Some("ConstraintTemplate")
}

/// Whether `root` is a Constraint.
pub fn is_constraint(root: &Node) -> bool {
    let api_version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
    group_of(api_version) == Some(CONSTRAINTS)
}
