//! Names: identifiers (macro variables first, then declared variables, type names, provider
//! types, each tried in the container's candidate order), dotted names given as selection chains
//! (`authorizer.requestResource`, `net.IP`), and field selection on maps, objects and `dyn`.

use std::ops::Bound;
use std::sync::Arc;

use super::{CheckErrorKind, Checker, Reference, cel_go_type, closest};
use crate::cel::ast::{ExprId, ExprKind, Name};
use crate::cel::library::{Library, is_enabled, type_identifier};
use crate::cel::types::provider::is_dynamic_object;
use crate::cel::types::{FieldType, JSON_PATCH, Type, TypeProvider};

/// Whether `name` is `root` followed by a dot and more.
fn is_dotted_under(name: &str, root: &str) -> bool {
    name.as_bytes().get(root.len()) == Some(&b'.') && name.starts_with(root)
}

/// A resolved global name.
pub(super) struct Resolved {
    pub ty: Type,
    pub reference: Reference,
}

impl Checker<'_> {
    pub(super) fn check_ident(&mut self, id: ExprId, name: &Name) -> Type {
        if name.is_missing() {
            return Type::Error;
        }
        if let Some(resolved) = self.resolve_simple(&name.text) {
            self.set_ref(id, resolved.reference);
            return resolved.ty;
        }
        self.undeclared(&name.text, name.span, self.ast.expr(id).anchor, false);
        Type::Error
    }

    /// A single identifier: a macro variable (unless written `.x`), else a global name.
    pub(super) fn resolve_simple(&self, text: &str) -> Option<Resolved> {
        let local = (!text.starts_with('.'))
            .then(|| self.locals.iter().rev().find(|l| l.name == text))
            .flatten();
        if let Some(local) = local {
            return Some(Resolved {
                ty: local.ty.clone(),
                reference: Reference::Local {
                    name: local.name.clone(),
                    declared_at: local.declared_at,
                },
            });
        }
        self.resolve_global(text)
    }

    /// A global name in container order: variables, type identifiers, provider object types.
    pub(super) fn resolve_global(&self, text: &str) -> Option<Resolved> {
        self.env
            .find_candidate(text, |candidate| self.global_candidate(candidate))
    }

    fn global_candidate(&self, name: &str) -> Option<Resolved> {
        if let Some(variable) = self.env.variables.get(name) {
            return Some(Resolved {
                ty: variable.ty.clone(),
                reference: Reference::Variable {
                    name: name.to_string(),
                    doc: variable.doc.clone(),
                },
            });
        }
        let denotes = type_identifier(name, &self.env.libraries)
            .map(|ident| ident.denotes.clone())
            .or_else(|| self.find_object_type(name))?;
        Some(Resolved {
            ty: Type::type_of(denotes.clone()),
            reference: Reference::Type(denotes),
        })
    }

    /// An object type by name from the providers. The apply-configuration types (`Object`,
    /// `Object.spec`…) and `JSONPatch` exist only where the JSON Patch library is enabled, i.e. in
    /// MutatingAdmissionPolicy mutations.
    pub(super) fn find_object_type(&self, name: &str) -> Option<Type> {
        let mutation_type = is_dynamic_object(name) || name == JSON_PATCH;
        if mutation_type && !is_enabled(Library::JsonPatch, &self.env.libraries) {
            return None;
        }
        self.env.providers.find_type(name)
    }

    /// The dotted name a selection chain spells (`a.b.c`), if it is one: only plain selections
    /// down to an identifier.
    pub(super) fn qualified_name(&self, id: ExprId) -> Option<Vec<&str>> {
        // Sized for the usual chain, so that it does not grow while walking.
        let mut parts = Vec::with_capacity(8);
        let mut current = id;
        loop {
            match &self.ast.expr(current).kind {
                ExprKind::Select {
                    operand,
                    field,
                    optional: false,
                } if !field.is_missing() => {
                    parts.push(field.text.as_str());
                    current = *operand;
                }
                ExprKind::Ident(name) if !name.is_missing() => {
                    parts.push(name.text.as_str());
                    parts.reverse();
                    return Some(parts);
                }
                _ => return None,
            }
        }
    }

    /// cel-go's `resolveQualifiedIdent`: a dotted global name, unless its first part is a macro
    /// variable (then it is a field selection).
    fn resolve_qualified(&self, parts: &[&str]) -> Option<Resolved> {
        match parts {
            [single] => self.resolve_simple(single),
            [_, ..] if self.no_dotted_prefix_resolves(parts) => None,
            [_, ..] => self.resolve_global(&parts.join(".")),
            [] => None,
        }
    }

    /// Whether the dotted name `parts` (two parts or more) may name a variable, a type identifier
    /// or a provider's type; `false` only when none can be, so the name is not built and looked
    /// up. A container prefixes the names tried, so with one the answer is always `true`.
    fn may_name_global(&self, parts: &[&str]) -> bool {
        if !self.env.container.is_empty() {
            return true;
        }
        let root = crate::cel::types::provider::root_part(parts);
        // The names that start with `root` are together in the map's order, from `root` on.
        let variable = self
            .env
            .variables
            .range::<str, _>((Bound::Included(root), Bound::Unbounded))
            .map(|(name, _)| name)
            .take_while(|name| name.starts_with(root))
            .any(|name| is_dotted_under(name, root));
        variable
            || crate::cel::library::is_type_identifier_root(root)
            || self.env.providers.may_name_type(parts)
    }

    pub(super) fn check_select(
        &mut self,
        id: ExprId,
        operand: ExprId,
        field: &Name,
        optional: bool,
    ) -> Type {
        let parts = (!optional).then(|| self.qualified_name(id)).flatten();
        if let Some(parts) = parts {
            if parts.len() >= 2 && self.no_dotted_prefix_resolves(&parts) {
                return self.check_field_chain(id);
            }
            if let Some(resolved) = self.resolve_qualified(&parts) {
                self.set_ref(id, resolved.reference);
                self.type_name_parts(operand);
                return resolved.ty;
            }
        }
        self.check_expr(operand);
        if field.is_missing() {
            return Type::Error;
        }
        if optional && !self.optional_enabled() {
            self.optional_syntax_error(id);
        }
        self.select_field(id, operand, field, optional)
    }

    /// Whether no dotted prefix of `parts` (two parts or more) can name anything: its first part
    /// is a macro variable, or nothing may be named under its first part. Both hold for every
    /// prefix alike, so the selections below need not try their own names.
    fn no_dotted_prefix_resolves(&self, parts: &[&str]) -> bool {
        let first = parts.first().copied().unwrap_or("");
        let local_first = !first.starts_with('.') && self.locals.iter().any(|l| l.name == first);
        local_first || !self.may_name_global(parts)
    }

    /// Types the plain selection chain `x.a.b…` ending at `id` as field selections, bottom up:
    /// what the recursive check does when no dotted prefix resolves, without trying each prefix
    /// as a name again.
    fn check_field_chain(&mut self, id: ExprId) -> Type {
        let ast = self.ast;
        let mut chain = Vec::with_capacity(8);
        let mut current = id;
        while let ExprKind::Select { operand, field, .. } = &ast.expr(current).kind {
            chain.push((current, *operand, field));
            current = *operand;
        }
        self.check_expr(current);
        let mut ty = Type::Error;
        for &(select, operand, field) in chain.iter().rev() {
            ty = self.select_field(select, operand, field, false);
            if select != id {
                self.set_type(select, ty.clone());
            }
        }
        ty
    }

    /// Types the prefix nodes of a resolved dotted name: those that are names themselves get
    /// their type and reference (hover on `authorizer` in `authorizer.requestResource`), the rest
    /// stay `error` without a diagnostic.
    pub(super) fn type_name_parts(&mut self, id: ExprId) {
        let mut current = id;
        while let Some(parts) = self.qualified_name(current) {
            if let Some(resolved) = self.resolve_qualified(&parts) {
                self.set_ref(current, resolved.reference);
                self.set_type(current, resolved.ty);
            }
            match &self.ast.expr(current).kind {
                ExprKind::Select { operand, .. } => current = *operand,
                _ => break,
            }
        }
    }

    /// The type of `operand.field` (optional in, optional out), reporting what cel-go reports.
    fn select_field(&mut self, id: ExprId, operand: ExprId, field: &Name, optional: bool) -> Type {
        let operand_type = self.resolved(&self.type_of(operand));
        let (target, was_optional) = match &operand_type {
            Type::Optional(inner) => ((**inner).clone(), true),
            other => (other.clone(), false),
        };
        let result = match &target {
            Type::Map(_, value) => (**value).clone(),
            Type::Object(name) => self.object_field(id, name, field),
            Type::Param(_) => {
                self.assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            Type::Dyn | Type::Error => Type::Dyn,
            other => {
                let message = format!(
                    "type '{}' does not support field selection",
                    cel_go_type(other)
                );
                let anchor = self.ast.expr(id).anchor;
                self.error(CheckErrorKind::Type, field.span, anchor, message);
                Type::Dyn
            }
        };
        if was_optional || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    /// The type of field `field` of object type `owner`, or an `undefined field` error.
    pub(super) fn object_field(&mut self, id: ExprId, owner: &Arc<str>, field: &Name) -> Type {
        match self.env.providers.field(owner, &field.text) {
            Some(FieldType { ty, doc }) => {
                self.set_ref(
                    id,
                    Reference::Field {
                        owner: owner.clone(),
                        name: field.text.clone(),
                        doc,
                    },
                );
                ty
            }
            None => {
                self.undefined_field(id, owner, field);
                Type::Error
            }
        }
    }

    fn undefined_field(&mut self, id: ExprId, owner: &str, field: &Name) {
        let names = if self.suggestions_left > 0 {
            self.suggestions_left -= 1;
            self.env.providers.fields(owner)
        } else {
            Vec::new()
        };
        let suggestion = closest(&field.text, names.iter().map(|(name, _)| &**name));
        let anchor = self.ast.expr(id).anchor;
        let message = format!("undefined field '{}'", field.text);
        self.error(CheckErrorKind::UndefinedField, field.span, anchor, message);
        self.suggest(suggestion);
    }

    /// Attaches a suggestion to the last error and mentions it in the message.
    pub(super) fn suggest(&mut self, suggestion: Option<String>) {
        if let (Some(name), Some(error)) = (suggestion, self.errors.last_mut()) {
            error.message.push_str(&format!("; did you mean '{name}'?"));
            error.suggestion = Some(name);
        }
    }

    /// Reports an undeclared variable (`function == false`) or function, with a suggestion.
    pub(super) fn undeclared(
        &mut self,
        name: &str,
        span: crate::text::TextRange,
        anchor: crate::text::TextSize,
        function: bool,
    ) {
        let message = format!(
            "undeclared reference to '{name}' (in container '{}')",
            self.env.container
        );
        self.error(CheckErrorKind::Undeclared, span, anchor, message);
        let bare = name.trim_start_matches('.');
        if self.suggestions_left == 0 {
            return;
        }
        self.suggestions_left -= 1;
        let suggestion = if function {
            let names = self.function_names();
            closest(bare, names.iter().map(String::as_str))
        } else {
            let mut names: Vec<&str> = self.locals.iter().map(|l| l.name.as_str()).collect();
            names.extend(self.env.variables.keys().map(String::as_str));
            closest(bare, names)
        };
        self.suggest(suggestion);
    }
}
