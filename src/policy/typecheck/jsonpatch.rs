//! `JSONPatch{…}` literals of a mutation checked against the matched kind's schema, as far as they
//! are static (the API server checks none of this before runtime):
//!
//! - `op` written as a string literal must be one of the six RFC 6902 operations;
//! - `path` written as a string literal, or literals joined with `+` and
//!   `jsonpatch.escapeKey('literal')`, must exist in the schema: every object step names a property,
//!   every list step is an index or `-`, map steps are any key. A step into a part the schema leaves
//!   open (free-form objects, `x-kubernetes-preserve-unknown-fields`) ends the check;
//! - `from` of `move` and `copy`, when static, must exist the same way;
//! - `value` (for `add`, `replace`, `test`) must fit the type at `path` when both are known
//!   scalars or a scalar meets a list (numbers: int and double are both JSON numbers).

use crate::cel::ast::{Ast, BinaryOp, ExprId, ExprKind, Literal};
use crate::cel::check::{CheckErrorKind, Checked, closest};
use crate::cel::types::{JSON_PATCH, Type, TypeProvider};
use crate::schema::SchemaTypes;
use crate::schema::escape::escape;
use crate::text::TextRange;

const OPS: &[&str] = &["add", "remove", "replace", "move", "copy", "test"];

/// One problem of a `JSONPatch` literal: span, kind and message.
pub type Problem = (TextRange, CheckErrorKind, String);

/// The problems of every `JSONPatch{…}` literal of `ast`, for a kind whose root type is `root`.
pub fn check(ast: &Ast, checked: &Checked, types: &SchemaTypes, root: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    for id in ast.preorder(ast.root) {
        let ExprKind::Struct { type_name, fields } = &ast.expr(id).kind else {
            continue;
        };
        if type_name.text.trim_start_matches('.') != JSON_PATCH {
            continue;
        }
        let get = |name: &str| fields.iter().find(|f| f.name.text == name).map(|f| f.value);
        let op = get("op").and_then(|v| literal_string(ast, v));
        if let (Some(op), Some(op_id)) = (&op, get("op"))
            && !OPS.contains(&op.as_str())
        {
            let message =
                format!("JSONPatch op '{op}' is not one of add, remove, replace, move, copy, test");
            out.push((ast.expr(op_id).span, CheckErrorKind::Type, message));
        }
        if matches!(op.as_deref(), Some("move" | "copy"))
            && let Some(from_id) = get("from")
            && let Some(from) = static_string(ast, from_id, 0)
            && let Err(message) = resolve(types, root, &from)
        {
            out.push((
                ast.expr(from_id).span,
                CheckErrorKind::UndefinedField,
                message,
            ));
        }
        let Some(path_id) = get("path") else { continue };
        let Some(path) = static_string(ast, path_id, 0) else {
            continue;
        };
        let target = match resolve(types, root, &path) {
            Ok(target) => target,
            Err(message) => {
                let span = ast.expr(path_id).span;
                out.push((span, CheckErrorKind::UndefinedField, message));
                continue;
            }
        };
        let takes_value = matches!(op.as_deref(), Some("add" | "replace" | "test"));
        if let (true, Some(value_id), Some(target)) = (takes_value, get("value"), target) {
            let value = checked.type_of(value_id);
            if !fits(&target, value) {
                let message = format!(
                    "JSONPatch value of type '{value}' does not fit '{path}' of type '{target}'"
                );
                out.push((ast.expr(value_id).span, CheckErrorKind::Type, message));
            }
        }
    }
    out
}

fn literal_string(ast: &Ast, id: ExprId) -> Option<String> {
    match &ast.expr(id).kind {
        ExprKind::Literal(Literal::String(text)) => Some(text.clone()),
        _ => None,
    }
}

/// The value of a path built from literals, `+` and `jsonpatch.escapeKey(literal)`.
fn static_string(ast: &Ast, id: ExprId, depth: u32) -> Option<String> {
    if depth > 64 {
        return None;
    }
    match &ast.expr(id).kind {
        ExprKind::Literal(Literal::String(text)) => Some(text.clone()),
        ExprKind::Binary {
            op: BinaryOp::Add,
            lhs,
            rhs,
        } => Some(static_string(ast, *lhs, depth + 1)? + &static_string(ast, *rhs, depth + 1)?),
        ExprKind::Call {
            target: Some(target),
            function,
            args,
        } if function.text == "escapeKey" && args.len() == 1 => {
            let ExprKind::Ident(name) = &ast.expr(*target).kind else {
                return None;
            };
            let key = (name.text == "jsonpatch").then(|| literal_string(ast, args[0]))??;
            Some(key.replace('~', "~0").replace('/', "~1"))
        }
        _ => None,
    }
}

/// The type at a JSON pointer: `Ok(Some(type))`, `Ok(None)` when the schema stops describing it,
/// `Err(message)` when a step does not exist.
fn resolve(types: &SchemaTypes, root: &str, path: &str) -> Result<Option<Type>, String> {
    let Some(rest) = path.strip_prefix('/') else {
        return if path.is_empty() {
            Ok(Some(Type::object(root)))
        } else {
            Err(format!("JSONPatch path '{path}' must start with '/'"))
        };
    };
    let mut current = Type::object(root);
    for raw in rest.split('/') {
        let step = raw.replace("~1", "/").replace("~0", "~");
        current = match current {
            Type::Object(name) => {
                if types.fields(&name).is_empty() {
                    return Ok(None);
                }
                let Some(field) = escape(&step).and_then(|f| types.field(&name, &f)) else {
                    let fields = types.fields(&name);
                    let hint = closest(&step, fields.iter().map(|(n, _)| &**n))
                        .map_or(String::new(), |n| format!("; did you mean '{n}'?"));
                    return Err(format!(
                        "JSONPatch path '{path}': no field '{step}' in '{name}'{hint}"
                    ));
                };
                field.ty
            }
            Type::List(elem) => {
                if step != "-" && step.parse::<usize>().is_err() {
                    return Err(format!(
                        "JSONPatch path '{path}': '{step}' is not a list index or '-'"
                    ));
                }
                (*elem).clone()
            }
            Type::Map(_, value) => (*value).clone(),
            _ => return Ok(None),
        };
    }
    Ok(Some(current))
}

/// Whether a value of type `value` may be written where the schema has `target`.
fn fits(target: &Type, value: &Type) -> bool {
    let scalar = |t: &Type| match t {
        Type::Int | Type::Uint | Type::Double => Some("number"),
        Type::String => Some("string"),
        Type::Bool => Some("bool"),
        _ => None,
    };
    match (target, value) {
        (Type::List(_), v) => scalar(v).is_none(),
        (t, Type::List(_)) => scalar(t).is_none(),
        (t, v) => match (scalar(t), scalar(v)) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        },
    }
}
