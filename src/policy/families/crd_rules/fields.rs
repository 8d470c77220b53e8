//! The API server's checks of one `x-kubernetes-validations` entry that need no compiler:
//! `rule` present, `message` non-blank and on one line (and required for a multi-line rule),
//! `messageExpression` non-blank, `reason` one of the four allowed, `fieldPath` non-blank, on one
//! line and naming a field of the schema node.
//!
//! Follows `ValidateCustomResourceDefinitionOpenAPISchema` in apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go` (wording and field paths) and `ValidFieldPath`
//! in `pkg/apiserver/schema/cel/validation.go` (only field and map accessors).

use crate::policy::node::{entries, lookup, scalar};
use crate::policy::{Code, Diagnostic};
use crate::yaml::Node;

/// The reasons a rule may give (`supportedValidationReason`), sorted as the API server lists them.
pub const REASONS: &[&str] = &[
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// One entry's fields as written: each scalar node, if present.
pub struct RuleFields<'a> {
    /// The entry itself (a mapping).
    pub entry: &'a Node,
    /// `rule`.
    pub rule: Option<&'a Node>,
    /// `message`.
    pub message: Option<&'a Node>,
    /// `messageExpression`.
    pub message_expression: Option<&'a Node>,
    /// `reason`.
    pub reason: Option<&'a Node>,
    /// `fieldPath`.
    pub field_path: Option<&'a Node>,
    /// `optionalOldSelf`.
    pub optional_old_self: Option<&'a Node>,
}

impl<'a> RuleFields<'a> {
    /// The fields of `entry`.
    pub fn of(entry: &'a Node) -> Self {
        let field = |key: &str| lookup(entry, key).map(|e| &e.value);
        Self {
            entry,
            rule: field("rule"),
            message: field("message"),
            message_expression: field("messageExpression"),
            reason: field("reason"),
            field_path: field("fieldPath"),
            optional_old_self: field("optionalOldSelf"),
        }
    }

    /// Whether `optionalOldSelf: true` is written.
    pub fn optional_old_self(&self) -> bool {
        self.optional_old_self
            .and_then(scalar)
            .is_some_and(|s| s.value == "true")
    }
}

/// The text of a scalar node (empty for anything else).
pub fn text(node: Option<&Node>) -> &str {
    node.and_then(scalar).map_or("", |s| s.value.as_str())
}

fn has_newlines(text: &str) -> bool {
    text.contains(['\n', '\r'])
}

/// The diagnostics of the fields of one entry at `path`
/// (`….x-kubernetes-validations[0]`); `schema` is the node the entry is on.
pub fn check(fields: &RuleFields, path: &str, schema: &Node, out: &mut Vec<Diagnostic>) {
    let range = |node: Option<&Node>| node.map_or(fields.entry.range, |n| n.range);
    let rule = text(fields.rule).trim();
    let message = text(fields.message);
    let mut push = |code: Code, node: Option<&Node>, message: String| {
        out.push(Diagnostic::new(code, range(node), message));
    };
    if rule.is_empty() {
        push(
            Code::Required,
            fields.rule,
            format!("{path}.rule: Required value: rule is not specified"),
        );
    } else if !message.is_empty() && message.trim().is_empty() {
        push(
            Code::Invalid,
            fields.message,
            format!(
                "{path}.message: Invalid value: {message:?}: message must be non-empty if specified"
            ),
        );
    } else if has_newlines(message.trim()) {
        push(
            Code::Invalid,
            fields.message,
            format!(
                "{path}.message: Invalid value: {message:?}: message must not contain line breaks"
            ),
        );
    } else if has_newlines(rule) && message.trim().is_empty() {
        push(
            Code::Required,
            fields.rule,
            format!(
                "{path}.message: Required value: message must be specified if rule contains line breaks"
            ),
        );
    }
    let expression = text(fields.message_expression);
    if fields.message_expression.is_some() && !expression.is_empty() && expression.trim().is_empty()
    {
        push(
            Code::Required,
            fields.message_expression,
            format!(
                "{path}.messageExpression: Required value: messageExpression must be non-empty if specified"
            ),
        );
    }
    if let Some(reason) = fields.reason.and_then(scalar)
        && !REASONS.contains(&reason.value.as_str())
    {
        let supported: Vec<String> = REASONS.iter().map(|r| format!("{r:?}")).collect();
        push(
            Code::NotSupported,
            fields.reason,
            format!(
                "{path}.reason: Unsupported value: {:?}: supported values: {}",
                reason.value,
                supported.join(", ")
            ),
        );
    }
    field_path(fields, path, schema, &mut push);
}

fn field_path(
    fields: &RuleFields,
    path: &str,
    schema: &Node,
    push: &mut impl FnMut(Code, Option<&Node>, String),
) {
    let Some(value) = fields.field_path.and_then(scalar).map(|s| s.value.as_str()) else {
        return;
    };
    let invalid = |detail: &str| format!("{path}.fieldPath: Invalid value: {value:?}: {detail}");
    if !value.is_empty() && value.trim().is_empty() {
        push(
            Code::Invalid,
            fields.field_path,
            invalid("fieldPath must be non-empty if specified"),
        );
    }
    if has_newlines(value) {
        push(
            Code::Invalid,
            fields.field_path,
            invalid("fieldPath must not contain line breaks"),
        );
    }
    if !value.is_empty() && !valid_field_path(value, schema) {
        push(
            Code::Invalid,
            fields.field_path,
            invalid("fieldPath must be a valid path"),
        );
    }
}

/// Whether `path` (`.spec.x`, `.labels['a.b']`) reaches a field of `schema`: each `.name` or
/// `['name']` names a property, or any key of a map (`additionalProperties`).
pub fn valid_field_path(path: &str, schema: &Node) -> bool {
    let mut node = schema;
    let mut rest = path;
    while !rest.is_empty() {
        let (name, after) = if let Some(quoted) = rest.strip_prefix("['") {
            match quoted.find("']") {
                Some(end) => (&quoted[..end], &quoted[end + 2..]),
                None => return false,
            }
        } else if let Some(dotted) = rest.strip_prefix('.') {
            let end = dotted.find(['.', '[']).unwrap_or(dotted.len());
            (&dotted[..end], &dotted[end..])
        } else {
            return false;
        };
        if name.is_empty() {
            return false;
        }
        let Some(next) = step(node, name) else {
            return false;
        };
        node = next;
        rest = after;
    }
    true
}

/// The schema of field `name` of `node`: a property, or the value schema of a map.
fn step<'a>(node: &'a Node, name: &str) -> Option<&'a Node> {
    if let Some(properties) = lookup(node, "properties") {
        return entries(&properties.value)?
            .iter()
            .find(|e| crate::policy::node::key_text(e) == Some(name))
            .map(|e| &e.value);
    }
    lookup(node, "additionalProperties")
        .map(|e| &e.value)
        .filter(|v| entries(v).is_some())
}
