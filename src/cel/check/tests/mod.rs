//! Checker snapshot tests. `check_types` prints the typed tree, one node per line in pre-order:
//! the node, `~type` and `^reference`; `check_errors` prints each error as a code frame with
//! carets under its span. A small hand-built provider supplies a Deployment-like `object` and a
//! `params` type. Update snapshots with `UPDATE_EXPECT=1 cargo test --lib cel::check`.

mod bounds;
mod calls;
mod literals;
mod macros;
mod names;
mod policies;
mod versions;

use std::sync::Arc;

use expect_test::Expect;

use super::{Checked, Env, Reference, check};
use crate::cel::ast::{Ast, ExprId, ExprKind, Literal};
use crate::cel::parse;
use crate::cel::types::{FieldType, Type, TypeProvider};

/// Deployment-like object types for tests.
struct TestProvider;

fn field(ty: Type) -> Option<FieldType> {
    Some(FieldType {
        ty,
        doc: Some(Arc::from("test field")),
    })
}

impl TestProvider {
    fn table(type_name: &str) -> Vec<(&'static str, Type)> {
        let obj = Type::object;
        match type_name {
            "Deployment" => vec![
                ("metadata", obj("Deployment.metadata")),
                ("spec", obj("Deployment.spec")),
            ],
            "Deployment.metadata" => vec![
                ("labels", Type::map(Type::String, Type::String)),
                ("name", Type::String),
            ],
            "Deployment.spec" => vec![
                ("paused", Type::Bool),
                ("replicas", Type::Int),
                ("template", obj("Deployment.spec.template")),
            ],
            "Deployment.spec.template" => vec![("spec", obj("PodSpec"))],
            "PodSpec" => vec![("containers", Type::list(obj("Container")))],
            "Container" => vec![("image", Type::String), ("name", Type::String)],
            "Params" => vec![("maxReplicas", Type::Int), ("registry", Type::String)],
            _ => Vec::new(),
        }
    }
}

impl TypeProvider for TestProvider {
    fn field(&self, type_name: &str, name: &str) -> Option<FieldType> {
        let table = TestProvider::table(type_name);
        let ty = table.into_iter().find(|(n, _)| *n == name)?.1;
        field(ty)
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        TestProvider::table(type_name)
            .into_iter()
            .filter_map(|(n, ty)| Some((Arc::from(n), field(ty)?)))
            .collect()
    }
}

/// The Kubernetes 1.37 stored environment with a typed `object`, `params` and `request`.
fn env() -> Env {
    let mut env = Env::kubernetes(37, true);
    env.push_provider(Arc::new(TestProvider));
    env.declare("object", Type::object("Deployment"), Some("The object."));
    env.declare("oldObject", Type::object("Deployment"), None);
    env.declare("params", Type::object("Params"), None);
    env.declare(
        "request",
        Type::object(crate::cel::types::provider::ADMISSION_REQUEST),
        None,
    );
    env.declare(
        "authorizer",
        Type::object(crate::cel::types::AUTHORIZER),
        None,
    );
    env.declare(
        "authorizer.requestResource",
        Type::object(crate::cel::types::RESOURCE_CHECK),
        None,
    );
    env
}

/// [`env`] for a MutatingAdmissionPolicy mutation: `Object`, `JSONPatch`, `jsonpatch.escapeKey`.
fn mutation_env() -> Env {
    let mut env = env();
    env.libraries.push(crate::cel::library::Library::JsonPatch);
    env
}

/// The untyped acceptance environment: `object` is `dyn`.
fn dyn_env(minor: u32, stored: bool) -> Env {
    let mut env = Env::kubernetes(minor, stored);
    env.declare("object", Type::Dyn, None);
    env
}

fn checked(src: &str, env: &Env) -> (Ast, Checked) {
    let parsed = parse(src);
    assert!(
        parsed.errors.is_empty(),
        "parse errors: {:?}",
        parsed.errors
    );
    let checked = check(&parsed.ast, env);
    (parsed.ast, checked)
}

fn node_label(ast: &Ast, id: ExprId) -> String {
    match &ast.expr(id).kind {
        ExprKind::Error { .. } => "error".into(),
        ExprKind::Literal(Literal::String(s)) => format!("{s:?}"),
        ExprKind::Literal(l) => format!("{l:?}"),
        ExprKind::Ident(n) => n.text.clone(),
        ExprKind::Select {
            field, optional, ..
        } => {
            format!(".{}{}", if *optional { "?" } else { "" }, field.text)
        }
        ExprKind::Index { .. } => "[]".into(),
        ExprKind::Call { function, .. } => format!("{}()", function.text),
        ExprKind::Unary { op, .. } => op.symbol().into(),
        ExprKind::Binary { op, .. } => op.symbol().into(),
        ExprKind::Conditional { .. } => "?:".into(),
        ExprKind::List { .. } => "[..]".into(),
        ExprKind::Map { .. } => "{..}".into(),
        ExprKind::Struct { type_name, .. } => format!("{}{{..}}", type_name.text),
        ExprKind::Macro(call) => format!("{}!", call.function.text),
    }
}

fn reference_label(reference: &Reference) -> String {
    match reference {
        Reference::Variable { name, .. } => format!("var {name}"),
        Reference::Local { name, .. } => format!("local {name}"),
        Reference::Field { owner, name, .. } => format!("field {owner}.{name}"),
        Reference::Function { overloads, .. } => overloads.join("|"),
        Reference::Type(ty) => format!("type {ty}"),
        Reference::Macro(name) => format!("macro {name}"),
    }
}

/// The typed tree, indented by depth.
fn render_types(ast: &Ast, checked: &Checked) -> String {
    let mut out = String::new();
    let mut stack = vec![(ast.root, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let mut line = format!(
            "{}{} ~{}",
            "  ".repeat(depth),
            node_label(ast, id),
            checked.type_of(id)
        );
        if let Some(reference) = checked.reference(id) {
            line.push_str(&format!(" ^{}", reference_label(reference)));
        }
        out.push_str(&line);
        out.push('\n');
        let children = ast.children(id);
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

fn render_errors(src: &str, checked: &Checked) -> String {
    let mut out = String::new();
    for error in &checked.errors {
        let start = usize::from(error.span.start());
        let end = usize::from(error.span.end());
        let line_start = src
            .get(..start)
            .and_then(|s| s.rfind('\n'))
            .map_or(0, |i| i + 1);
        let line_end = src
            .get(start..)
            .and_then(|s| s.find('\n'))
            .map_or(src.len(), |i| start + i);
        let col = src.get(line_start..start).map_or(0, |s| s.chars().count());
        let width = src
            .get(start..end.min(line_end))
            .map_or(1, |s| s.chars().count().max(1));
        out.push_str(&format!(
            "{}: {}\n  | {}\n  | {}{}\n",
            error.kind.code(),
            error.message,
            src.get(line_start..line_end).unwrap_or(""),
            " ".repeat(col),
            "^".repeat(width)
        ));
    }
    out
}

#[track_caller]
fn check_types(src: &str, env: &Env, expect: Expect) {
    let (ast, checked) = checked(src, env);
    let mut out = render_types(&ast, &checked);
    out.push_str(&render_errors(src, &checked));
    expect.assert_eq(&out);
}

#[track_caller]
fn check_errors(src: &str, env: &Env, expect: Expect) {
    let (_, checked) = checked(src, env);
    expect.assert_eq(&render_errors(src, &checked));
}

/// Just the result type (and errors, if any).
#[track_caller]
fn check_result(src: &str, env: &Env, expect: Expect) {
    let (_, checked) = checked(src, env);
    let mut out = format!("{}\n", checked.result);
    out.push_str(&render_errors(src, &checked));
    expect.assert_eq(&out);
}
