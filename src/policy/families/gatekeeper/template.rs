//! A ConstraintTemplate checked as frameworks and Gatekeeper's CEL driver accept it: the CRD kind
//! and the template's name (frameworks `constraint/pkg/client/client.go`
//! `validateTemplateMetadata`), exactly one target and a known one (`crds/validate.go`
//! `ValidateTargets`, `client.go` `getTargetHandler`), the parameters' schema as the API server
//! checks the CRD made of it, and the `source` of the `K8sNativeValidation` code entry
//! (`pkg/drivers/k8scel/schema/schema.go`: its fields, reserved names and failure policy), then
//! its CEL.

use super::{ENGINE, sites, typed};
use crate::policy::admission::json::yaml_to_json;
use crate::policy::families::FamilySite;
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::schema::crd_check::check_crd_schemas;
use crate::yaml::Node;

/// The one target Gatekeeper registers (`pkg/target/target.go`).
const TARGET: &str = "admission.k8s.gatekeeper.sh";
/// The prefix no user variable or match condition may have (`ReservedPrefix`).
const RESERVED_PREFIX: &str = "gatekeeper_internal_";
/// The fields of `Source`, with their JSON names.
const SOURCE_FIELDS: &[&str] = &[
    "validations",
    "failurePolicy",
    "matchCondition",
    "variables",
    "generateVAP",
];

/// Every diagnostic of a served ConstraintTemplate.
pub(super) fn check(root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
    metadata(root, out);
    targets(root, out);
    schema(root, out);
    for (index, code) in super::cel_code(root) {
        source(code, index, out);
    }
    let sites = sites::collect(root);
    let parsed: Vec<_> = sites.iter().map(|site| parse(site, out)).collect();
    let own = super::crd::kinds(root);
    if types_own_kind(workspace, &own) {
        typed::check(root, &sites, &parsed, minor, workspace, out);
    } else {
        // Another template of the workspace creates the kind with another schema (versions of one
        // template side by side): this one is typed from its own.
        let mut private = Workspace::new();
        private.extend(workspace);
        private.add_crd_kinds(own);
        typed::check(root, &sites, &parsed, minor, &private, out);
    }
}

/// Whether the workspace types the template's Constraint kind from the template's own schema.
fn types_own_kind(workspace: &Workspace, own: &[crate::schema::CrdKind]) -> bool {
    let Some(first) = own.first() else {
        return true;
    };
    let gvk = &first.gvk;
    let typed = workspace.crd_kinds(&gvk.group, &gvk.version, &gvk.kind);
    typed.last().is_some_and(|crd| crd.schema == first.schema)
}

/// The CRD kind is required and the template's name is that kind in lower case.
fn metadata(root: &Node, out: &mut Vec<Diagnostic>) {
    let name_node = root.get("metadata").and_then(|m| m.get("name"));
    let name = name_node.and_then(Node::as_str).unwrap_or("");
    let Some(kind) = super::template_kind(root) else {
        let range = root
            .get("spec")
            .and_then(|s| s.get("crd"))
            .map_or(root.range, |n| n.range);
        let message = format!(
            "invalid ConstraintTemplate: ConstraintTemplate \"{name}\" does not specify CRD Kind (spec.crd.spec.names.kind)"
        );
        out.push(Diagnostic::new(Code::Required, range, message));
        return;
    };
    if let Some(node) = name_node
        && !name.eq_ignore_ascii_case(kind)
    {
        let message = format!(
            "invalid ConstraintTemplate: the ConstraintTemplate's name \"{name}\" is not equal to the lowercase of CRD's Kind: \"{}\"",
            kind.to_lowercase()
        );
        out.push(Diagnostic::new(Code::Invalid, node.range, message));
    }
}

/// Exactly one target, and the one Gatekeeper knows.
fn targets(root: &Node, out: &mut Vec<Diagnostic>) {
    let spec = root.get("spec");
    let Some(node) = spec.and_then(|s| s.get("targets")) else {
        let range = spec.map_or(root.range, |n| n.range);
        let message = "invalid ConstraintTemplate: field \"targets\" not specified in ConstraintTemplate spec";
        out.push(Diagnostic::new(Code::Required, range, message));
        return;
    };
    let targets = node.as_sequence().unwrap_or(&[]);
    let problem = match targets.len() {
        0 => "no targets specified: ConstraintTemplate must specify one target",
        1 => "",
        _ => "multi-target templates are not currently supported",
    };
    if !problem.is_empty() {
        let message = format!("invalid ConstraintTemplate: {problem}");
        out.push(Diagnostic::new(Code::Invalid, node.range, message));
        return;
    }
    let Some(target) = targets.first().and_then(|t| t.get("target")) else {
        return;
    };
    let name = target.as_str().unwrap_or("");
    if name != TARGET {
        let message = format!(
            "invalid ConstraintTemplate: target \"{name}\" not recognized, known targets [{TARGET}]"
        );
        out.push(Diagnostic::new(Code::NotSupported, target.range, message));
    }
}

/// The parameters' schema as the API server checks the constraint CRD made of it (a schema that
/// is not structural is refused with the template).
fn schema(root: &Node, out: &mut Vec<Diagnostic>) {
    let Some(crd) = root.get("spec").and_then(|s| s.get("crd")) else {
        return;
    };
    let Some(mut json) = yaml_to_json(crd) else {
        return;
    };
    for problem in check_crd_schemas(&mut json) {
        out.push(crate::policy::crds::schema_problem(crd, problem));
    }
}

/// The `source` of a CEL code entry as `GetSource` decodes and `Validate` checks it.
fn source(code: &Node, index: usize, out: &mut Vec<Diagnostic>) {
    let prefix = format!("spec.targets[0].code[{index}].source");
    let Some(source) = code.get("source") else {
        let message = format!("{prefix}: Required value: the {ENGINE} engine needs a source");
        out.push(Diagnostic::new(Code::Required, code.range, message));
        return;
    };
    let Some(entries) = source.as_mapping() else {
        let message = format!("{prefix}: could not recognize the type");
        out.push(Diagnostic::new(Code::Invalid, source.range, message));
        return;
    };
    for entry in entries {
        let key = entry.key.as_str().unwrap_or("");
        if !SOURCE_FIELDS.contains(&key) {
            out.push(unknown_field(&entry.key, &prefix, key, SOURCE_FIELDS));
        }
    }
    named_items(source, "variables", &prefix, out);
    named_items(source, "matchCondition", &prefix, out);
    validations(source, &prefix, out);
    failure_policy(source, &prefix, out);
    if let Some(node) = source.get("generateVAP")
        && node.as_scalar().and_then(|s| s.as_bool()).is_none()
        && !node.is_null()
    {
        let message = format!("{prefix}.generateVAP: Invalid value: must be a boolean");
        out.push(Diagnostic::new(Code::Invalid, node.range, message));
    }
}

/// A field the driver's decoder drops, with the field it probably meant.
fn unknown_field(key: &Node, prefix: &str, name: &str, known: &[&str]) -> Diagnostic {
    let hint = match name {
        "matchConditions" => "; the driver reads \"matchCondition\"".to_string(),
        _ => crate::cel::check::suggest::closest(name, known.iter().copied())
            .map_or(String::new(), |k| format!("; did you mean \"{k}\"?")),
    };
    let message = format!(
        "{prefix}.{name}: unknown field \"{name}\": the {ENGINE} driver does not read it and drops it{hint}"
    );
    Diagnostic::new(Code::UnknownField, key.range, message)
}

/// `variables` and `matchCondition` items: `name` and `expression`, no reserved name.
fn named_items(source: &Node, list: &str, prefix: &str, out: &mut Vec<Diagnostic>) {
    let Some(items) = source.get(list).and_then(Node::as_sequence) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let path = format!("{prefix}.{list}[{i}]");
        keys(item, &path, &["name", "expression"], out);
        let Some(name_node) = item.get("name") else {
            continue;
        };
        let name = name_node.as_str().unwrap_or("");
        let problem = if name.starts_with(RESERVED_PREFIX) {
            let what = if list == "variables" {
                "invalid variable definition"
            } else {
                "invalid match condition"
            };
            let noun = if list == "variables" {
                "variable"
            } else {
                "match condition"
            };
            Some(format!(
                "{what}: {name} is not a valid {noun}; cannot have \"{RESERVED_PREFIX}\" as a prefix"
            ))
        } else if list == "variables" && matches!(name, "params" | "anyObject") {
            Some(format!(
                "invalid variable definition: {name} an invalid variable name, \"{name}\" is a reserved keyword"
            ))
        } else {
            None
        };
        if let Some(problem) = problem {
            let message = format!("{path}.name: {problem}");
            out.push(Diagnostic::new(Code::Invalid, name_node.range, message));
        }
    }
}

/// `validations` items: `expression`, `message`, `messageExpression`.
fn validations(source: &Node, prefix: &str, out: &mut Vec<Diagnostic>) {
    let items = source
        .get("validations")
        .and_then(Node::as_sequence)
        .unwrap_or(&[]);
    for (i, item) in items.iter().enumerate() {
        let path = format!("{prefix}.validations[{i}]");
        keys(
            item,
            &path,
            &["expression", "message", "messageExpression"],
            out,
        );
    }
}

/// Warns of the keys of `item` outside `known`.
fn keys(item: &Node, path: &str, known: &[&str], out: &mut Vec<Diagnostic>) {
    for entry in item.as_mapping().unwrap_or(&[]) {
        let key = entry.key.as_str().unwrap_or("");
        if !known.contains(&key) {
            out.push(unknown_field(&entry.key, path, key, known));
        }
    }
}

/// `failurePolicy`: `Fail` or `Ignore` (`validateFailurePolicy`).
fn failure_policy(source: &Node, prefix: &str, out: &mut Vec<Diagnostic>) {
    let Some(node) = source.get("failurePolicy") else {
        return;
    };
    let value = node.as_str().unwrap_or("");
    if !matches!(value, "Fail" | "Ignore") {
        let message = format!(
            "{prefix}.failurePolicy: invalid failure policy: unrecognized failure policy: {value}"
        );
        out.push(Diagnostic::new(Code::NotSupported, node.range, message));
    }
}

/// Parses a site, reporting its syntax errors (every evaluation of the template fails); the tree
/// when it parsed cleanly.
fn parse(site: &FamilySite, out: &mut Vec<Diagnostic>) -> Option<crate::cel::ast::Ast> {
    let parsed = crate::cel::parse(&site.text);
    for error in &parsed.errors {
        let diagnostic = Diagnostic::new(
            Code::CelSyntax,
            site.source_map.to_file_range(error.span),
            format!("{}: {}", site.path, error.message),
        );
        out.push(diagnostic.at_runtime());
    }
    parsed.errors.is_empty().then_some(parsed.ast)
}
