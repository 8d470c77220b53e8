//! A readable dump of a tree for snapshot tests: one node per line, indented by depth, with its
//! byte span. Bound macro variables and field names are printed inline.

use std::fmt::Write;

use super::ast::{Ast, ExprId, ExprKind, Literal, Name};

/// Dumps the tree under the root.
pub fn debug_tree(ast: &Ast) -> String {
    let mut out = String::new();
    node(ast, ast.root, 0, "", &mut out);
    out
}

fn node(ast: &Ast, id: ExprId, depth: usize, prefix: &str, out: &mut String) {
    let expr = ast.expr(id);
    let span = expr.span;
    let label = label(&expr.kind);
    let _ = writeln!(
        out,
        "{:indent$}{prefix}{label} @{:?}",
        "",
        span,
        indent = depth * 2
    );
    match &expr.kind {
        ExprKind::List { elements } => {
            for element in elements {
                node(
                    ast,
                    element.value,
                    depth + 1,
                    if element.optional { "?" } else { "" },
                    out,
                );
            }
        }
        ExprKind::Map { entries } => {
            for entry in entries {
                let marker = if entry.optional { "?key " } else { "key " };
                node(ast, entry.key, depth + 1, marker, out);
                node(ast, entry.value, depth + 1, "value ", out);
            }
        }
        ExprKind::Struct { fields, .. } => {
            for field in fields {
                let marker = format!(
                    "{}{}: ",
                    if field.optional { "?" } else { "" },
                    name(&field.name)
                );
                node(ast, field.value, depth + 1, &marker, out);
            }
        }
        kind => kind.for_each_child(|child| node(ast, child, depth + 1, "", out)),
    }
}

fn label(kind: &ExprKind) -> String {
    match kind {
        ExprKind::Error { .. } => "error".to_string(),
        ExprKind::Literal(literal) => literal_label(literal),
        ExprKind::Ident(n) => format!("ident {}", name(n)),
        ExprKind::Select {
            field, optional, ..
        } => {
            format!(
                "select {}{}",
                if *optional { ".?" } else { "." },
                name(field)
            )
        }
        ExprKind::Index { optional, .. } => {
            (if *optional { "index ?" } else { "index" }).to_string()
        }
        ExprKind::Call {
            target, function, ..
        } => {
            format!(
                "call {}{}",
                if target.is_some() { "." } else { "" },
                name(function)
            )
        }
        ExprKind::Unary { op, .. } => format!("unary {}", op.function_name()),
        ExprKind::Binary { op, .. } => format!("binary {}", op.function_name()),
        ExprKind::Conditional { .. } => "conditional".to_string(),
        ExprKind::List { .. } => "list".to_string(),
        ExprKind::Map { .. } => "map".to_string(),
        ExprKind::Struct { type_name, .. } => format!("struct {}", name(type_name)),
        ExprKind::Macro(call) => {
            let vars: Vec<&str> = call.vars.iter().map(|v| v.text.as_str()).collect();
            let target = if call.target.is_some() { "." } else { "" };
            format!(
                "macro {:?} {target}{}({})",
                call.kind,
                call.function.text,
                vars.join(", ")
            )
        }
    }
}

fn name(n: &Name) -> String {
    if n.is_missing() {
        "<missing>".to_string()
    } else {
        n.text.clone()
    }
}

fn literal_label(literal: &Literal) -> String {
    match literal {
        Literal::Null => "null".to_string(),
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => format!("int {i}"),
        Literal::Uint(u) => format!("uint {u}"),
        Literal::Double(d) => format!("double {d:?}"),
        Literal::String(s) => format!("string {s:?}"),
        Literal::Bytes(b) => format!("bytes b\"{}\"", b.escape_ascii()),
    }
}
