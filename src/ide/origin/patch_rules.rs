//! The CEL syntax of the validation rules a strategic-merge patch of a CRD adds. A patch has no
//! `group` or `names` of its own, so it is no CRD the rule checker can read; its rules and
//! messageExpressions are parsed where they stand (a syntax error is one whatever the base
//! supplies), and nothing about their types is said.

use crate::policy::{Code, Diagnostic};
use crate::yaml::{Node, NodeKind, YamlFile};

/// The keys of a validation rule entry that hold CEL
/// (apiextensions `ValidationRule.Rule`, `ValidationRule.MessageExpression`).
const CEL_KEYS: &[&str] = &["rule", "messageExpression"];

/// Bound on the nesting walked (the tree's own depth is bounded by the parser).
const MAX_DEPTH: usize = crate::yaml::MAX_DEPTH + 2;

/// The `cel-syntax` diagnostics of every rule in the CRD documents of `yaml`.
pub(super) fn rule_syntax(yaml: &YamlFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let crds = yaml
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .filter(|root| root.get("kind").and_then(Node::as_str) == Some("CustomResourceDefinition"));
    for root in crds {
        walk(root, "", 0, &mut out);
    }
    out
}

fn walk(node: &Node, path: &str, depth: usize, out: &mut Vec<Diagnostic>) {
    if depth > MAX_DEPTH {
        return;
    }
    match &node.kind {
        NodeKind::Scalar(_) => {}
        NodeKind::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{path}[{i}]"), depth + 1, out);
            }
        }
        NodeKind::Mapping(entries) => {
            for entry in entries {
                let Some(key) = entry.key.as_str() else {
                    continue;
                };
                let here = if path.is_empty() {
                    key.to_owned()
                } else {
                    format!("{path}.{key}")
                };
                if key == "x-kubernetes-validations" {
                    check_rules(&entry.value, &here, out);
                } else {
                    walk(&entry.value, &here, depth + 1, out);
                }
            }
        }
    }
}

/// The syntax errors of each entry's rule and messageExpression.
fn check_rules(rules: &Node, path: &str, out: &mut Vec<Diagnostic>) {
    for (i, entry) in rules.as_sequence().unwrap_or_default().iter().enumerate() {
        for key in CEL_KEYS {
            let Some(scalar) = entry.get(key).and_then(Node::as_scalar) else {
                continue;
            };
            let parsed = crate::cel::parse(&scalar.value);
            for error in parsed.errors {
                out.push(Diagnostic::new(
                    Code::CelSyntax,
                    scalar.source_map.to_file_range(error.span),
                    format!("{path}[{i}].{key}: {}", error.message),
                ));
            }
        }
    }
}
