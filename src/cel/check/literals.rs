//! List, map and message literals. Element types join to their most general common type (to
//! `dyn` when they do not unify, as cel-go's checker does); the homogeneous-literal rule of the
//! Kubernetes environment is cel-go's validator, run over the final types; message construction
//! goes through the type providers (fields must exist, values must be assignable).

use super::{CheckError, CheckErrorKind, Checker, Reference, cel_go_type};
use crate::cel::ast::{Ast, ExprId, ExprKind, FieldInit, ListElement, MapEntry, Name};
use std::sync::Arc;

use crate::cel::types::provider::is_dynamic_object;
use crate::cel::types::{Type, TypeProvider, most_general};

impl Checker<'_> {
    pub(super) fn check_list(&mut self, elements: &[ListElement]) -> Type {
        let mut joined: Option<Type> = None;
        for element in elements {
            self.check_expr(element.value);
            let ty = self.entry_type(element.value, element.optional);
            joined = Some(self.join(joined, ty));
        }
        let elem = joined.unwrap_or_else(|| self.fresh_var());
        Type::list(elem)
    }

    pub(super) fn check_map(&mut self, entries: &[MapEntry]) -> Type {
        let mut keys: Option<Type> = None;
        let mut values: Option<Type> = None;
        for entry in entries {
            self.check_expr(entry.key);
            let key = self.type_of(entry.key);
            keys = Some(self.join(keys, key));
            self.check_expr(entry.value);
            let value = self.entry_type(entry.value, entry.optional);
            values = Some(self.join(values, value));
        }
        match (keys, values) {
            (Some(key), Some(value)) => Type::map(key, value),
            _ => {
                let key = self.fresh_var();
                Type::map(key, self.fresh_var())
            }
        }
    }

    /// The type an entry contributes: for `?e` the optional's inner type (an error when `e` is
    /// not optional).
    fn entry_type(&mut self, id: ExprId, optional: bool) -> Type {
        let ty = self.type_of(id);
        if !optional {
            return ty;
        }
        if !self.optional_enabled() {
            self.optional_syntax_error(id);
            return Type::Error;
        }
        match ty {
            Type::Optional(inner) => (*inner).clone(),
            Type::Dyn | Type::Error => ty,
            other => {
                self.type_mismatch(id, &Type::optional(other.clone()), &other);
                other
            }
        }
    }

    /// cel-go's `joinTypes` with dynamic aggregate element types.
    fn join(&mut self, previous: Option<Type>, current: Type) -> Type {
        match previous {
            None => current,
            Some(previous) if self.assignable(&previous, &current) => {
                most_general(&previous, &current).clone()
            }
            Some(_) => Type::Dyn,
        }
    }

    pub(super) fn check_struct(
        &mut self,
        id: ExprId,
        type_name: &Name,
        fields: &[FieldInit],
    ) -> Type {
        let literal = self.struct_type(id, type_name);
        for field in fields {
            self.check_expr(field.value);
            let value = self.entry_type(field.value, field.optional);
            let declared = match &literal {
                None => continue,
                Some(StructLiteral::Map(_, values)) => (**values).clone(),
                Some(StructLiteral::Object(owner)) => {
                    match self.env.providers.field(owner, &field.name.text) {
                        Some(declared) => declared.ty,
                        None => {
                            self.struct_field_undefined(owner, &field.name);
                            continue;
                        }
                    }
                }
            };
            if !self.assignable(&declared, &value) {
                let message = format!(
                    "expected type of field '{}' is '{}' but provided type is '{}'",
                    field.name.text,
                    cel_go_type(&declared),
                    cel_go_type(&value)
                );
                let span = field.name.span;
                self.error(CheckErrorKind::Type, span, span.end(), message);
            }
        }
        match literal {
            Some(StructLiteral::Object(name)) => Type::object(&name),
            Some(StructLiteral::Map(keys, values)) => Type::Map(keys, values),
            None => Type::Error,
        }
    }

    /// The object type a message construction names, or `None` after reporting why not.
    fn struct_type(&mut self, id: ExprId, type_name: &Name) -> Option<StructLiteral> {
        let anchor = self.ast.expr(id).anchor;
        let found = self.env.find_candidate(&type_name.text, |candidate| {
            self.find_object_type(candidate)
                .or_else(|| self.type_ident(candidate))
        });
        let Some(ty) = found else {
            // No suggestion: variable names would be wrong here, and type names are open-ended.
            let message = format!(
                "undeclared reference to '{}' (in container '{}')",
                type_name.text, self.env.container
            );
            self.error(CheckErrorKind::Undeclared, type_name.span, anchor, message);
            return None;
        };
        self.set_ref(id, Reference::Type(ty.clone()));
        match ty {
            Type::Object(object) => Some(StructLiteral::Object(object.to_string())),
            // Only an apply configuration's `Object.…` type can be a map (a map-typed field).
            Type::Map(keys, values) if is_dynamic_object(&type_name.text) => {
                Some(StructLiteral::Map(keys, values))
            }
            other => {
                let message = format!("'{}' is not a message type", cel_go_type(&other));
                self.error(CheckErrorKind::Type, type_name.span, anchor, message);
                None
            }
        }
    }

    fn type_ident(&self, name: &str) -> Option<Type> {
        crate::cel::library::type_identifiers(&self.env.libraries)
            .find(|ident| ident.name == name)
            .map(|ident| ident.denotes.clone())
    }

    fn struct_field_undefined(&mut self, owner: &str, field: &Name) {
        let names = if self.suggestions_left > 0 {
            self.suggestions_left -= 1;
            self.env.providers.fields(owner)
        } else {
            Vec::new()
        };
        let suggestion = super::closest(&field.text, names.iter().map(|(n, _)| &**n));
        let message = format!("undefined field '{}'", field.text);
        self.error(
            CheckErrorKind::UndefinedField,
            field.span,
            field.span.end(),
            message,
        );
        self.suggest(suggestion);
    }
}

/// What a message construction builds: an object, or (an apply configuration's `Object.…` literal
/// of a map-typed field) a map whose values the fields are.
enum StructLiteral {
    Object(String),
    Map(Arc<Type>, Arc<Type>),
}

/// cel-go's homogeneous aggregate literal validator over the final types: every element of a
/// list literal, and every key and every value of a map literal, must have the type of the first
/// (`?e` entries compared by their inner type). Literals inside `format(...)` calls are exempt;
/// entries already typed `error` are skipped so one mistake stays one diagnostic.
/// `order` is every node of `ast` in pre-order.
pub(super) fn validate_homogeneous(
    ast: &Ast,
    order: &[ExprId],
    types: &[Type],
    errors: &mut Vec<CheckError>,
) {
    let is_literal = |id: &ExprId| {
        matches!(
            ast.expr(*id).kind,
            ExprKind::List { .. } | ExprKind::Map { .. }
        )
    };
    if !order.iter().any(is_literal) {
        return;
    }
    let exempt = exempt_nodes(ast, order);
    let ty = |id: ExprId, optional: bool| {
        let t = types.get(id.index()).cloned().unwrap_or(Type::Error);
        match (optional, t) {
            (true, Type::Optional(inner)) => (*inner).clone(),
            (_, t) => t,
        }
    };
    for &id in order {
        if exempt.get(id.index()).copied().unwrap_or(false) {
            continue;
        }
        match &ast.expr(id).kind {
            ExprKind::List { elements } => {
                let typed: Vec<(ExprId, Type)> = elements
                    .iter()
                    .map(|e| (e.value, ty(e.value, e.optional)))
                    .collect();
                if let Some(error) = first_mismatch(ast, &typed) {
                    errors.push(error);
                }
            }
            ExprKind::Map { entries } => {
                let keys: Vec<(ExprId, Type)> =
                    entries.iter().map(|e| (e.key, ty(e.key, false))).collect();
                let values: Vec<(ExprId, Type)> = entries
                    .iter()
                    .map(|e| (e.value, ty(e.value, e.optional)))
                    .collect();
                errors.extend(all_mismatches(ast, &keys));
                errors.extend(all_mismatches(ast, &values));
            }
            _ => {}
        }
    }
}

fn first_mismatch(ast: &Ast, typed: &[(ExprId, Type)]) -> Option<CheckError> {
    all_mismatches(ast, typed).into_iter().next()
}

fn all_mismatches(ast: &Ast, typed: &[(ExprId, Type)]) -> Vec<CheckError> {
    let Some((_, first)) = typed.first() else {
        return Vec::new();
    };
    if first.is_error() {
        return Vec::new();
    }
    typed
        .iter()
        .skip(1)
        .filter(|(_, ty)| !ty.is_error() && ty != first)
        .map(|(id, ty)| {
            let expr = ast.expr(*id);
            CheckError {
                kind: CheckErrorKind::Type,
                span: expr.span,
                anchor: expr.anchor,
                message: format!(
                    "expected type '{}' but found '{}'",
                    cel_go_type(first),
                    cel_go_type(ty)
                ),
                suggestion: None,
            }
        })
        .collect()
}

/// Nodes inside a `format(...)` call (string formatting takes mixed lists).
fn exempt_nodes(ast: &Ast, order: &[ExprId]) -> Vec<bool> {
    let mut exempt = vec![false; ast.len()];
    for &id in order {
        let is_format = matches!(&ast.expr(id).kind, ExprKind::Call { function, .. } if function.text == "format");
        if is_format && !exempt.get(id.index()).copied().unwrap_or(true) {
            for inner in ast.preorder(id) {
                if let Some(slot) = exempt.get_mut(inner.index()) {
                    *slot = true;
                }
            }
        }
    }
    exempt
}
