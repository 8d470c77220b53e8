//! `cel-version` diagnostics: a function, an overload, a macro or optional syntax that the target
//! Kubernetes version does not have but a later one (or its stored-expression environment) does,
//! following "introduced in V, accepted in new expressions from V+1".

use super::format::call_signature;
use super::{CheckErrorKind, Checker};
use crate::cel::ast::ExprId;
use crate::cel::library::{
    Library, all_functions, first_minor_with, first_minor_with_overload, is_enabled, lookup,
};
use crate::cel::types::Type;
use crate::cel::types::unify::is_assignable_list;

impl Checker<'_> {
    /// When an overload of `name` from a library that is not enabled accepts the arguments, the
    /// `cel-version` message naming the version that brings it.
    pub(super) fn overload_version_message(
        &self,
        name: &str,
        member: bool,
        args: &[Type],
    ) -> Option<String> {
        let target = self.env.target?;
        let mut scratch = self.subst.clone();
        let mut counter = self.next_var;
        let overload = all_functions()
            .iter()
            .filter(|decl| decl.name == name && !decl.library.mutation_only())
            .filter(|decl| !is_enabled(decl.library, &self.env.libraries))
            .flat_map(|decl| decl.overloads.iter())
            .filter(|o| o.member == member)
            .find(|o| {
                let (params, _) = o.instantiate(&mut counter);
                is_assignable_list(&params, args, &mut scratch)
            })?;
        let introduced = first_minor_with_overload(&overload.id, true)?;
        let accepted = first_minor_with_overload(&overload.id, false);
        let subject = format!("'{name}' applied to '{}'", call_signature(args, member));
        version_text(&subject, target.minor, target.stored, introduced, accepted)
    }

    /// The `cel-version` message for function `name`, when some Kubernetes version declares it
    /// but the target environment does not.
    pub(super) fn version_message(&self, name: &str) -> Option<String> {
        let target = self.env.target?;
        let mutation_only = lookup(name, &Library::ALL).all(|decl| decl.library.mutation_only());
        if mutation_only {
            return None;
        }
        let introduced = first_minor_with(name, true)?;
        let accepted = first_minor_with(name, false);
        version_text(
            &format!("'{name}'"),
            target.minor,
            target.stored,
            introduced,
            accepted,
        )
    }

    /// Whether optional syntax and functions are enabled.
    pub(super) fn optional_enabled(&self) -> bool {
        is_enabled(Library::Optional, &self.env.libraries)
    }

    /// Reports `.?`, `[?` or a `?` entry when optional types are not enabled.
    pub(super) fn optional_syntax_error(&mut self, id: ExprId) {
        let expr = self.ast.expr(id);
        let (span, anchor) = (expr.span, expr.anchor);
        let message = self
            .version_message("optional.of")
            .map(|m| m.replacen("'optional.of'", "optional syntax", 1));
        match message {
            Some(message) => self.error(CheckErrorKind::Version, span, anchor, message),
            None => {
                let message = "optional syntax is not enabled".to_string();
                self.error(CheckErrorKind::Type, span, anchor, message);
            }
        }
    }
}

/// The wording of a `cel-version` message, or `None` when the target already has the subject.
pub(super) fn version_text(
    subject: &str,
    minor: u32,
    stored: bool,
    introduced: u32,
    accepted: Option<u32>,
) -> Option<String> {
    if stored || introduced > minor {
        if introduced <= minor {
            return None;
        }
        let mut text = format!(
            "{subject} is not available in Kubernetes 1.{minor}; it was introduced in Kubernetes 1.{introduced}"
        );
        if !stored {
            match accepted {
                Some(v) => {
                    text.push_str(&format!(" and is accepted in new expressions from 1.{v}"))
                }
                None => text.push_str(" and is not yet accepted in new expressions"),
            }
        }
        return Some(text);
    }
    match accepted {
        Some(v) if v <= minor => None,
        Some(v) => Some(format!(
            "{subject} is only available to stored expressions in Kubernetes 1.{minor}; new expressions may use it from Kubernetes 1.{v}"
        )),
        None => Some(format!(
            "{subject} is only available to stored expressions in Kubernetes 1.{minor}"
        )),
    }
}
