//! The apply-configuration rule of a MutatingAdmissionPolicy, found statically: the API server
//! rejects, at runtime, an `ApplyConfiguration` whose value holds any atomic list, map or struct
//! ("may not mutate atomic arrays, maps or structs: .spec.selector"), because server-side apply
//! replaces an atomic part whole and would silently drop what the patch does not repeat.
//!
//! The rule is the one [`crate::policy::admission::merge`] applies at evaluation (and upstream
//! `patch/smd.go` before merging): a value is atomic when
//! - it is a list whose `x-kubernetes-list-type` is `atomic` or absent (`command`, `args`);
//! - it is a struct or map with `x-kubernetes-map-type: atomic` (`LabelSelector`);
//! - it is an item of a list whose items are atomic structs (`imagePullSecrets`).
//!
//! It holds wherever the value is, new list items included, so every `Object…{field: value}` entry
//! whose field is atomic is reported at the field name, unless the value is the literal `null`
//! (which sets nothing). Paths are the runtime's: list positions are known for items written in a
//! list literal and written `[*]` otherwise.

use crate::cel::ast::{Ast, ExprId, ExprKind, FieldInit, Literal};
use crate::cel::check::CheckErrorKind;
use crate::cel::types::Type;
use crate::schema::{FieldInfo, ListType, SchemaTypes};
use crate::text::TextRange;

use super::jsonpatch::Problem;
use super::mutation::object_path;

/// Struct literals nested deeper than this are not followed (the parser bounds nesting too).
const MAX_DEPTH: usize = 128;

/// The atomic parts set by the `Object…{…}` literals of `ast`, for a kind whose root type is
/// `root`.
pub fn check(ast: &Ast, types: &SchemaTypes, root: &str) -> Vec<Problem> {
    let mut walk = Walk {
        ast,
        types,
        root,
        out: Vec::new(),
    };
    walk.expr(ast.root, None, 0);
    walk.out
}

struct Walk<'a> {
    ast: &'a Ast,
    types: &'a SchemaTypes,
    root: &'a str,
    out: Vec<Problem>,
}

impl Walk<'_> {
    /// Visits `id`; `path` is its runtime path when the literal structure above it says so.
    fn expr(&mut self, id: ExprId, path: Option<String>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match &self.ast.expr(id).kind {
            ExprKind::Struct { type_name, fields } => {
                let name = type_name.text.trim_start_matches('.');
                if let Some(rest) = object_path(name) {
                    let real = format!("{}{rest}", self.root);
                    let path = path.unwrap_or_else(|| self.path_of(rest));
                    for field in fields {
                        self.field(&real, &path, field, depth);
                    }
                    return;
                }
                for field in fields {
                    self.expr(field.value, None, depth + 1);
                }
            }
            ExprKind::List { elements } => {
                for (i, element) in elements.iter().enumerate() {
                    let item = path.as_ref().map(|p| format!("{p}[{i}]"));
                    self.expr(element.value, item, depth + 1);
                }
            }
            _ => {
                for child in self.ast.children(id) {
                    self.expr(child, None, depth + 1);
                }
            }
        }
    }

    fn field(&mut self, real: &str, path: &str, field: &FieldInit, depth: usize) {
        let value = field.value;
        let Some(info) = self.types.field_info(real, &field.name.text) else {
            // Unknown fields are the checker's to report.
            return self.expr(value, None, depth + 1);
        };
        let child = format!("{path}.{}", info.property);
        if self.is_null(value) {
            return;
        }
        if is_atomic(&info) {
            self.report(field, &child);
        } else if info.item_map_type.as_deref() == Some("atomic") {
            self.atomic_items(field, &child);
        }
        self.expr(value, Some(child), depth + 1);
    }

    /// Items of a list whose item type is an atomic struct: each item written is reported.
    fn atomic_items(&mut self, field: &FieldInit, path: &str) {
        match &self.ast.expr(field.value).kind {
            ExprKind::List { elements } => {
                for (i, element) in elements.iter().enumerate() {
                    if !self.is_null(element.value) {
                        self.report(field, &format!("{path}[{i}]"));
                    }
                }
            }
            _ => self.report(field, &format!("{path}[*]")),
        }
    }

    fn report(&mut self, field: &FieldInit, path: &str) {
        let message = format!("may not mutate atomic arrays, maps or structs: {path}");
        let span: TextRange = field.name.span;
        self.out.push((span, CheckErrorKind::Type, message));
    }

    fn is_null(&self, id: ExprId) -> bool {
        matches!(self.ast.expr(id).kind, ExprKind::Literal(Literal::Null))
    }

    /// The runtime path of the object type `Object<rest>` (`.spec.template`), with `[*]` after
    /// each list, whose position is not known here.
    fn path_of(&self, rest: &str) -> String {
        let mut path = String::new();
        let mut type_name = self.root.to_string();
        for segment in rest.split('.').filter(|s| !s.is_empty()) {
            let info = self.types.field_info(&type_name, segment);
            let property = info.as_ref().map_or(segment, |i| &*i.property);
            path.push('.');
            path.push_str(property);
            if matches!(info.map(|i| i.ty), Some(Type::List(_))) {
                path.push_str("[*]");
            }
            type_name.push('.');
            type_name.push_str(segment);
        }
        path
    }
}

/// Whether server-side apply treats a value of this field as one atomic piece.
fn is_atomic(info: &FieldInfo) -> bool {
    match &info.ty {
        Type::List(_) => !matches!(info.list_type, Some(ListType::Map | ListType::Set)),
        Type::Object(_) | Type::Map(..) => info.map_type.as_deref() == Some("atomic"),
        _ => false,
    }
}
