//! What a rename at a cursor renames, and where that name is written: a policy's variable (in
//! its document), a policy name (policies and bindings in every file) or a param kind (policies'
//! `paramKind`, objects of the kind, the CRD that defines it). At a cursor where nothing can be
//! renamed the answer is the reason (a CEL function, a field of `object`, a variable the API
//! server declares…), which the editor shows.

use crate::cel::check::Reference;
use crate::policy::model::Text;
use crate::policy::names::{dns1035_label, dns1123_subdomain, is_cel_identifier};
use crate::policy::{PolicyDocument, PolicyKind};
use crate::text::{TextRange, TextSize};
use crate::yaml::{Node, ScalarStyle};

use super::cursor::CelCursor;
use super::references::variable_names;
use super::{Analysis, DiagnosticsConfig, FileId};

/// A name and where the cursor is on it.
pub(crate) struct Target {
    /// What is renamed.
    pub symbol: Symbol,
    /// The name's characters at the cursor.
    pub range: TextRange,
}

/// What a rename renames.
pub(crate) enum Symbol {
    /// A variable of one policy, with every place its name is written.
    Variable {
        /// Its name.
        name: String,
        /// The policy's other variables.
        others: Vec<String>,
        /// Its definition's name and every `variables.NAME`.
        uses: Vec<Occurrence>,
    },
    /// A policy of `kind` (validating or mutating) named `name`.
    Policy {
        /// `ValidatingAdmissionPolicy` or `MutatingAdmissionPolicy`.
        kind: PolicyKind,
        /// Its name.
        name: String,
    },
    /// A macro's variable, in one expression.
    Local {
        /// Its name.
        name: String,
        /// Its declaration and every use bound to it.
        uses: Vec<Occurrence>,
        /// The names a new name must not be (see [`super::rename_local`]).
        taken: Vec<String>,
    },
    /// The kind `kind` of group-version `api_version`, as a policy's `paramKind` names it.
    ParamKind {
        /// `paramKind.apiVersion`.
        api_version: String,
        /// `paramKind.kind`.
        kind: String,
    },
}

/// One place a name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Occurrence {
    /// The file.
    pub file: FileId,
    /// The name's characters.
    pub range: TextRange,
    /// The whole scalar, when the name is all of a plain scalar (a new name may need quotes).
    pub plain_scalar: Option<TextRange>,
}

impl Symbol {
    /// The current name.
    pub fn name(&self) -> &str {
        match self {
            Symbol::Variable { name, .. }
            | Symbol::Policy { name, .. }
            | Symbol::Local { name, .. } => name,
            Symbol::ParamKind { kind, .. } => kind,
        }
    }

    /// Whether the API server takes `new_name` for this field; the reason when it does not.
    pub fn check_new_name(&self, new_name: &str) -> Result<(), String> {
        let errors = match self {
            // kubernetes pkg/apis/admissionregistration/validation/validation.go, validateVariable:
            // "name is not a valid CEL identifier".
            Symbol::Variable { .. } | Symbol::Local { .. } if !is_cel_identifier(new_name) => {
                vec![format!(
                    "`{new_name}` is not a valid CEL identifier (a letter or `_`, then letters, \
                 digits or `_`; not a CEL reserved word)"
                )]
            }
            Symbol::Variable { .. } | Symbol::Local { .. } => Vec::new(),
            // metadata.name of both policy kinds: ValidateObjectMeta with NameIsDNSSubdomain.
            Symbol::Policy { .. } => dns1123_subdomain(new_name),
            // apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
            // ValidateCustomResourceDefinitionNames: the lowercased kind is a DNS-1035 label.
            Symbol::ParamKind { .. } => dns1035_label(&new_name.to_lowercase())
                .into_iter()
                .map(|e| format!("may have mixed case, but should otherwise match: {e}"))
                .collect(),
        };
        match errors.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "`{new_name}` cannot be the new name: {}",
                errors.join("; ")
            )),
        }
    }
}

impl Analysis {
    /// What can be renamed at `offset` of `file`, or the reason nothing there can be.
    pub(super) fn target_at(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Result<Target, String> {
        let context = self.file_context(file, config).ok_or_else(nothing_here)?;
        for model in context.parsed.models_in(TextRange::empty(offset)) {
            if let Some(target) = variable_target(file, model, offset) {
                return Ok(target);
            }
            if let Some(target) = name_target(&model.document, offset) {
                return Ok(target);
            }
        }
        if let Some(variable) = super::family_variables::at(&context.parsed.yaml, offset) {
            return Ok(family_variable_target(file, variable, offset));
        }
        let cursor = context.cel_at(offset).ok_or_else(nothing_here)?;
        super::rename_local::local_target(file, &cursor).ok_or_else(|| refusal_in_cel(&cursor))
    }

    /// Every place the name of `symbol` is written, in the snapshot's files.
    pub(super) fn occurrences(&self, symbol: &Symbol) -> Vec<Occurrence> {
        match symbol {
            Symbol::Variable { uses, .. } | Symbol::Local { uses, .. } => uses.clone(),
            Symbol::Policy { kind, name } => {
                let mut out = self.policy_name_occurrences(*kind, name);
                out.extend(self.suite_policy_occurrences(*kind, name));
                out
            }
            Symbol::ParamKind { api_version, kind } => {
                let mut out = self.param_kind_occurrences(api_version, kind);
                out.extend(self.object_kind_occurrences(api_version, kind));
                out
            }
        }
    }

    /// Whether a policy of `kind` named `name` is in some file.
    pub(super) fn policy_exists(&self, kind: PolicyKind, name: &str) -> bool {
        self.parsed_mentioning(&[name]).any(|(_, parsed)| {
            parsed.all_models().any(|m| {
                let header = m.document.header();
                header.kind == kind && header.name().is_some_and(|n| n.value.value == name)
            })
        })
    }

    /// Every policy of `kind` named `name` and every binding of it, in any file.
    fn policy_name_occurrences(&self, kind: PolicyKind, name: &str) -> Vec<Occurrence> {
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&[name]) {
            for model in parsed.all_models() {
                let field = policy_name_field(&model.document, kind);
                if let Some(text) = field.filter(|t| t.value == name) {
                    out.push(occurrence(file, text));
                }
            }
        }
        out
    }

    /// The `policy` of every test suite case naming a policy of `kind` called `name`: a
    /// PolicyTest's `cases[].policy`, a kaptest manifest's `vapTestSuites[].policy` and
    /// `testSuites[].policy` (validating) or `mapTestSuites[].policy` (mutating).
    fn suite_policy_occurrences(&self, kind: PolicyKind, name: &str) -> Vec<Occurrence> {
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&[name, "policy"]) {
            for root in parsed.yaml.documents.iter().filter_map(|d| d.root.as_ref()) {
                let named = suite_policy_fields(root, kind)
                    .into_iter()
                    .filter(|node| node.as_str() == Some(name));
                out.extend(named.filter_map(|node| node_occurrence(file, node)));
            }
        }
        out
    }

    /// Every policy's `paramKind.kind` naming `kind` of `api_version`, in any file.
    fn param_kind_occurrences(&self, api_version: &str, kind: &str) -> Vec<Occurrence> {
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&[kind]) {
            for model in parsed.all_models() {
                let Some((version, text)) = param_kind_of(&model.document) else {
                    continue;
                };
                if version == api_version && text.value == kind {
                    out.push(occurrence(file, text));
                }
            }
        }
        out
    }

    /// The `kind` of every object of `kind` in `api_version` (the params), and `spec.names.kind`
    /// (with a `listKind` of `<kind>List`) of every CRD that serves that group and version.
    fn object_kind_occurrences(&self, api_version: &str, kind: &str) -> Vec<Occurrence> {
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&[kind]) {
            for root in parsed.yaml.documents.iter().filter_map(|d| d.root.as_ref()) {
                if root.get("apiVersion").and_then(Node::as_str) == Some(api_version)
                    && let Some(node) = root.get("kind").filter(|k| k.as_str() == Some(kind))
                {
                    out.extend(node_occurrence(file, node));
                }
                out.extend(crd_kind_occurrences(file, root, api_version, kind));
            }
        }
        out
    }
}

/// The variable whose definition or `variables.NAME` use is at `offset` in `model`.
fn variable_target(
    file: FileId,
    model: &super::models::DocumentModel,
    offset: TextSize,
) -> Option<Target> {
    let variables = variable_names(model);
    let uses = super::references::variable_uses(model);
    let (name, ranges) = uses
        .into_iter()
        .find(|(_, ranges)| ranges.iter().any(|r| r.contains_inclusive(offset)))?;
    let range = *ranges.iter().find(|r| r.contains_inclusive(offset))?;
    let definition = variables.iter().find(|v| v.value == name);
    let uses = ranges
        .iter()
        .map(|&range| Occurrence {
            file,
            range,
            plain_scalar: definition
                .filter(|d| content_range(d) == range && d.style == ScalarStyle::Plain)
                .map(|d| d.range),
        })
        .collect();
    let others = variables
        .iter()
        .map(|v| v.value.clone())
        .filter(|v| *v != name)
        .collect();
    Some(Target {
        symbol: Symbol::Variable { name, others, uses },
        range,
    })
}

/// The target of a Kyverno policy's variable at `offset`.
fn family_variable_target(
    file: FileId,
    variable: super::family_variables::FamilyVariable,
    offset: TextSize,
) -> Target {
    let definition = variable.uses.first().copied();
    let range = variable
        .uses
        .iter()
        .copied()
        .find(|r| r.contains_inclusive(offset))
        .unwrap_or_default();
    let uses = variable
        .uses
        .iter()
        .map(|&range| Occurrence {
            file,
            range,
            plain_scalar: variable
                .plain_definition
                .filter(|_| Some(range) == definition),
        })
        .collect();
    Target {
        symbol: Symbol::Variable {
            name: variable.name,
            others: variable.others,
            uses,
        },
        range,
    }
}

/// The policy name (a policy's `metadata.name`, a binding's `policyName`) or param kind
/// (`paramKind.kind`) at `offset` of `document`.
fn name_target(document: &PolicyDocument, offset: TextSize) -> Option<Target> {
    let at = |text: &Text| content_range(text).contains_inclusive(offset);
    let header = document.header();
    let policy = match document {
        PolicyDocument::ValidatingBinding(..) => PolicyKind::ValidatingPolicy,
        PolicyDocument::MutatingBinding(..) => PolicyKind::MutatingPolicy,
        _ => header.kind,
    };
    if let Some(text) = policy_name_field(document, policy).filter(|t| at(t)) {
        let symbol = Symbol::Policy {
            kind: policy,
            name: text.value.clone(),
        };
        return Some(Target {
            symbol,
            range: content_range(text),
        });
    }
    let (api_version, text) = param_kind_of(document).filter(|(_, t)| at(t))?;
    Some(Target {
        symbol: Symbol::ParamKind {
            api_version: api_version.to_owned(),
            kind: text.value.clone(),
        },
        range: content_range(text),
    })
}

/// The field holding the name of a policy of `kind`: the policy's `metadata.name`, or the
/// `policyName` of a binding of it.
fn policy_name_field(document: &PolicyDocument, kind: PolicyKind) -> Option<&Text> {
    match document {
        PolicyDocument::ValidatingBinding(_, spec) if kind == PolicyKind::ValidatingPolicy => {
            spec.value.policy_name.as_ref().map(|f| &f.value)
        }
        PolicyDocument::MutatingBinding(_, spec) if kind == PolicyKind::MutatingPolicy => {
            spec.value.policy_name.as_ref().map(|f| &f.value)
        }
        PolicyDocument::ValidatingPolicy(header, _) | PolicyDocument::MutatingPolicy(header, _)
            if header.kind == kind =>
        {
            header.name().map(|f| &f.value)
        }
        _ => None,
    }
}

/// A policy's `paramKind`: its `apiVersion` and its `kind` field.
fn param_kind_of(document: &PolicyDocument) -> Option<(&str, &Text)> {
    let param = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => spec.value.param_kind.as_ref(),
        PolicyDocument::MutatingPolicy(_, spec) => spec.value.param_kind.as_ref(),
        _ => None,
    }?;
    let version = param.value.api_version.as_ref()?;
    let kind = param.value.kind.as_ref()?;
    Some((version.value.value.as_str(), &kind.value))
}

/// The `policy` fields of the suite cases of `root` that can name a policy of `kind`.
fn suite_policy_fields(root: &Node, kind: PolicyKind) -> Vec<&Node> {
    let items = |key: &str| {
        let list = root.get(key).and_then(Node::as_sequence);
        list.unwrap_or_default()
            .iter()
            .filter_map(|item| item.get("policy"))
    };
    if root.get("kind").and_then(Node::as_str) == Some("PolicyTest") {
        // A PolicyTest case names a policy of either kind from its `policies` files.
        return items("cases").collect();
    }
    match kind {
        PolicyKind::MutatingPolicy => items("mapTestSuites").collect(),
        _ => items("vapTestSuites").chain(items("testSuites")).collect(),
    }
}

/// `spec.names.kind` (and `listKind` when it is `<kind>List`) of `root` when it is a CRD of the
/// group of `api_version` serving its version.
fn crd_kind_occurrences(
    file: FileId,
    root: &Node,
    api_version: &str,
    kind: &str,
) -> Vec<Occurrence> {
    let Some((group, version)) = api_version.split_once('/') else {
        return Vec::new();
    };
    let is_crd = root.get("kind").and_then(Node::as_str) == Some("CustomResourceDefinition");
    let spec = root.get("spec");
    let in_group = spec.and_then(|s| s.get("group")).and_then(Node::as_str) == Some(group);
    let versions = spec
        .and_then(|s| s.get("versions"))
        .and_then(Node::as_sequence);
    let serves = versions
        .unwrap_or_default()
        .iter()
        .any(|v| v.get("name").and_then(Node::as_str) == Some(version))
        || spec.and_then(|s| s.get("version")).and_then(Node::as_str) == Some(version);
    let names = spec.and_then(|s| s.get("names"));
    if !(is_crd && in_group && serves) {
        return Vec::new();
    }
    let list_kind = format!("{kind}List");
    let mut out = Vec::new();
    if let Some(node) = names
        .and_then(|n| n.get("kind"))
        .filter(|k| k.as_str() == Some(kind))
    {
        out.extend(node_occurrence(file, node));
    }
    let list = names.and_then(|n| n.get("listKind"));
    if let Some(node) = list.filter(|k| k.as_str() == Some(list_kind.as_str())) {
        // Only the kind's part of `<kind>List` is renamed.
        out.extend(node_occurrence(file, node).map(|mut o| {
            let end = o.range.start() + TextSize::of(kind);
            o.range = TextRange::new(o.range.start(), end.min(o.range.end()));
            o.plain_scalar = None;
            o
        }));
    }
    out
}

/// The characters of a scalar's value (inside its quotes).
pub(crate) fn content_range(text: &Text) -> TextRange {
    let decoded = TextRange::up_to(TextSize::of(text.value.as_str()));
    text.source_map.to_file_range(decoded)
}

fn occurrence(file: FileId, text: &Text) -> Occurrence {
    let range = content_range(text);
    Occurrence {
        file,
        range,
        plain_scalar: (text.style == ScalarStyle::Plain).then_some(text.range),
    }
}

fn node_occurrence(file: FileId, node: &Node) -> Option<Occurrence> {
    let scalar = node.as_scalar()?;
    let decoded = TextRange::up_to(TextSize::of(scalar.value.as_str()));
    let range = scalar.source_map.to_file_range(decoded);
    Some(Occurrence {
        file,
        range,
        plain_scalar: (scalar.style == ScalarStyle::Plain).then_some(node.range),
    })
}

fn nothing_here() -> String {
    "nothing to rename here: a policy's variables, a policy's name (or a binding's policyName) \
     and a paramKind's kind can be renamed"
        .to_owned()
}

/// Why the CEL name at the cursor cannot be renamed.
fn refusal_in_cel(cursor: &CelCursor) -> String {
    let id = cursor.node();
    let reference = id.and_then(|id| cursor.checked.reference(id));
    let selected = id.and_then(|id| match &cursor.ast.expr(id).kind {
        crate::cel::ast::ExprKind::Select { field, .. } => Some(field.text.clone()),
        _ => None,
    });
    match reference {
        // A field of an object whose type is not known (`dyn`) has no reference.
        None if selected.is_some() => format!(
            "`{}` is a field of the object at its left: its name comes from that object's \
             schema, not from this file",
            selected.unwrap_or_default()
        ),
        Some(Reference::Function { name, .. }) => {
            format!("`{name}` is a CEL function: its name is fixed by the library that declares it")
        }
        Some(Reference::Macro(name)) => format!("`{name}` is a CEL macro: its name is fixed"),
        Some(Reference::Field { owner, name, .. }) if &**owner == "kubernetes.variables" => {
            format!("`variables.{name}` names no variable of this policy")
        }
        Some(Reference::Field { owner, name, .. }) => format!(
            "`{name}` is a field of `{owner}`: its name comes from the object's schema, not \
             from this file"
        ),
        Some(Reference::Variable { name, .. }) => format!(
            "`{name}` is a variable the API server declares for the expression: its name is fixed"
        ),
        Some(Reference::Local { name, .. }) => format!("`{name}` is a macro's variable"),
        Some(Reference::Type(_)) => "a type name: fixed by CEL".to_owned(),
        None => "nothing to rename here: a literal or an operator".to_owned(),
    }
}
