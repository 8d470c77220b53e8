//! Indexing a file for the workspace: its CustomResourceDefinitions (YAML → JSON →
//! [`crate::schema::from_crd_json`]), the names and paramKinds of its policies, and the identity
//! and place of every object (the objects a `paramRef` may name), the CRDs of Gatekeeper's
//! Constraint kinds its ConstraintTemplates create and the kinds its Constraints match. A CRD that cannot be read gets
//! one clear diagnostic on its file; the rest of the workspace keeps working without it.

use super::admission::json::yaml_to_json;
use super::families::gatekeeper;

use super::workspace::{ParamObject, Workspace};
use super::{Code, Diagnostic, read_kinds};
use crate::schema::Gvk;
use crate::schema::crd_check::{ProblemKind, SchemaProblem, Step, check_crd_schemas};
use crate::yaml::{Node, YamlFile};

/// Adds the CRDs and policy names of one parsed file to `workspace`; returns the diagnostics of
/// CRDs that cannot be used.
pub fn index_file(yaml: &YamlFile, workspace: &mut Workspace) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let roots = yaml
        .documents
        .iter()
        .filter(|d| !d.has_errors)
        .filter_map(|d| d.root.as_ref())
        .flat_map(super::list::objects);
    for root in roots {
        if let Some(object) = object_identity(root) {
            workspace.add_object(object);
        }
        let kind = root.get("kind").and_then(Node::as_str);
        if kind == Some("CustomResourceDefinition") {
            index_crd(root, workspace, &mut out);
        } else if gatekeeper::is_template(root) {
            workspace.add_crd_kinds(gatekeeper::crd::kinds(root));
        } else if gatekeeper::is_constraint(root) {
            if let Some(kind) = kind {
                workspace.add_constraint_match(kind, gatekeeper::crd::match_kinds(root));
            }
        } else if let Some((kind, _)) = read_kinds::recognise(root) {
            let (name, param_kind) = read_kinds::name_and_param_kind(root, kind);
            if let Some(name) = name {
                let param_kind = param_kind.and_then(|p| super::typecheck::param_gvk(&p.value));
                workspace.add_policy(kind, &name, param_kind);
            }
        }
    }
    out
}

/// `apiVersion`, `kind`, `metadata.name` and `metadata.namespace` of a document, with its place.
fn object_identity(root: &Node) -> Option<ParamObject> {
    let api_version = root.get("apiVersion").and_then(Node::as_str)?;
    let kind = root.get("kind").and_then(Node::as_str)?;
    let metadata = root.get("metadata")?;
    let name_node = metadata.get("name")?;
    let name = name_node.as_str().filter(|n| !n.is_empty())?;
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    Some(ParamObject {
        gvk: Gvk::new(group, version, kind),
        name: name.to_string(),
        namespace: metadata
            .get("namespace")
            .and_then(Node::as_str)
            .map(str::to_string),
        file: 0,
        range: root.range,
        name_range: name_node.range,
    })
}

fn index_crd(root: &Node, workspace: &mut Workspace, out: &mut Vec<Diagnostic>) {
    let Some(mut json) = yaml_to_json(root) else {
        out.push(Diagnostic::new(
            Code::Invalid,
            root.range,
            "CustomResourceDefinition: nested too deeply to read; its kinds are untyped",
        ));
        return;
    };
    for problem in check_crd_schemas(&mut json) {
        out.push(schema_problem(root, problem));
    }
    match crate::schema::from_crd_json(&json) {
        Ok(kinds) => workspace.add_crd_kinds(kinds),
        Err(error) => {
            let range = locate(root, &error.path).map_or(root.range, |n| n.range);
            out.push(Diagnostic::new(
                Code::Invalid,
                range,
                format!(
                    "CustomResourceDefinition {}: {}; its kinds are untyped",
                    error.path, error.message
                ),
            ));
        }
    }
}

/// A schema problem as a diagnostic on the offending field's key (the value's node when the path
/// ends at a list item or a property's schema).
pub(crate) fn schema_problem(root: &Node, problem: SchemaProblem) -> Diagnostic {
    let range = locate_steps(root, &problem.path);
    let (code, warning) = match problem.kind {
        ProblemKind::Forbidden => (Code::Forbidden, false),
        ProblemKind::NotSupported => (Code::NotSupported, false),
        ProblemKind::Invalid => (Code::Invalid, false),
        ProblemKind::TooMany => (Code::TooMany, true),
    };
    let diagnostic = Diagnostic::new(code, range, problem.message);
    if warning {
        return diagnostic.advice();
    }
    diagnostic
}

/// The range of the field at `path`: its key when the last step is a key, as far as it exists.
fn locate_steps(root: &Node, path: &[Step]) -> crate::text::TextRange {
    let mut node = root;
    let mut range = root.range;
    for step in path {
        match step {
            Step::Key(key) | Step::Property(key) => {
                let Some(entry) = node.entry(key) else { break };
                range = entry.key.range;
                node = &entry.value;
            }
            Step::Index(i) => {
                let Some(item) = node.as_sequence().and_then(|items| items.get(*i)) else {
                    break;
                };
                range = item.range;
                node = item;
            }
        }
    }
    range
}

/// The node at a dotted path (`spec.names.kind`, `spec.versions[0].schema`), as far as it exists.
fn locate<'a>(root: &'a Node, path: &str) -> Option<&'a Node> {
    let mut node = root;
    for segment in path.split('.') {
        let (key, index) = match segment.split_once('[') {
            Some((key, rest)) => (key, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (segment, None),
        };
        let Some(next) = node.get(key) else { break };
        node = next;
        if let Some(i) = index {
            match node.as_sequence().and_then(|items| items.get(i)) {
                Some(item) => node = item,
                None => break,
            }
        }
    }
    Some(node)
}
