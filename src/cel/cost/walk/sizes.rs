//! The walk's bookkeeping: sizes, element sizes and paths are kept per node in side tables, and the
//! variables that macros and `cel.bind` introduce on a scope stack.

use super::{Entry, Local, Walker};
use crate::cel::ast::{Ast, ExprId, ExprKind, Literal};
use crate::cel::cost::{Path, Size};
use crate::cel::types::Type;

impl Walker<'_> {
    pub(super) fn local(&self, name: &str) -> Option<&Local> {
        self.locals.iter().rev().find(|l| l.name == name)
    }

    pub fn path(&self, id: ExprId) -> Option<Path> {
        if let ExprKind::Ident(name) = &self.ast.expr(id).kind
            && let Some(local) = self.local(&name.text)
        {
            return local.path.clone();
        }
        self.paths.get(id.index()).cloned().flatten()
    }

    pub(super) fn set_path(&mut self, id: ExprId, path: Option<Path>) {
        if let Some(slot) = self.paths.get_mut(id.index()) {
            *slot = path;
        }
    }

    pub fn set_size(&mut self, id: ExprId, size: Option<Size>) {
        if let (Some(slot), Some(size)) = (self.computed.get_mut(id.index()), size) {
            *slot = Some(size);
        }
    }

    pub fn set_entry(&mut self, id: ExprId, entry: Option<Entry>) {
        if let (Some(slot), Some(entry)) = (self.entries.get_mut(id.index()), entry) {
            *slot = Some(entry);
        }
    }

    pub(super) fn copy_sizes(&mut self, to: ExprId, from: ExprId) {
        let size = self.size(from);
        let entry = self.entry(from);
        self.set_size(to, size);
        self.set_entry(to, entry);
    }

    /// The element sizes of a list or map node, if the expression fixes them.
    pub fn entry(&self, id: ExprId) -> Option<Entry> {
        if let Some(entry) = self.entries.get(id.index()).copied().flatten() {
            return Some(entry);
        }
        match &self.ast.expr(id).kind {
            ExprKind::Ident(name) => self.local(&name.text).and_then(|l| l.entry),
            _ => None,
        }
    }

    /// cel-go's `computeSize`: a computed size, the size of a literal, the estimator's answer, 1
    /// for scalars, the size of a bound variable.
    pub fn size(&mut self, id: ExprId) -> Option<Size> {
        if let Some(size) = self.computed.get(id.index()).copied().flatten() {
            return Some(size);
        }
        if let Some(size) = literal_size(self.ast, id) {
            return Some(size);
        }
        let ty = self.checked.type_of(id).clone();
        let path = self.path(id);
        if let Some(size) = self.sizes.size(path.as_ref(), &ty) {
            self.set_size(id, Some(size));
            return Some(size);
        }
        if is_scalar(&ty) {
            return Some(Size::fixed(1));
        }
        match &self.ast.expr(id).kind {
            ExprKind::Ident(name) => self.local(&name.text).and_then(|l| l.size),
            _ => None,
        }
    }

    /// [`Walker::size`], or the unknown size, for bookkeeping (element sizes, results).
    pub fn size_or_unknown(&mut self, id: ExprId) -> Size {
        self.size(id).unwrap_or(Size::UNKNOWN)
    }

    /// [`Walker::size`] of a value a cost depends on; an unknown size is noted in the result.
    pub fn size_for_cost(&mut self, id: ExprId) -> Size {
        let size = self.size_or_unknown(id);
        if size.max == u64::MAX {
            self.unknown = true;
        }
        size
    }

    /// Notes that an unknown size was used.
    pub fn used_unknown(&mut self) {
        self.unknown = true;
    }
}

/// The size a literal, list or map node fixes.
fn literal_size(ast: &Ast, id: ExprId) -> Option<Size> {
    let n = match &ast.expr(id).kind {
        ExprKind::Literal(Literal::String(s)) => s.chars().count() as u64,
        ExprKind::Literal(Literal::Bytes(b)) => b.len() as u64,
        ExprKind::Literal(_) => 1,
        ExprKind::List { elements } => elements.len() as u64,
        ExprKind::Map { entries } => entries.len() as u64,
        _ => return None,
    };
    Some(Size::fixed(n))
}

/// Types of a fixed size (cel-go's `isScalar`).
fn is_scalar(ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        Type::Optional(inner) => is_scalar(inner),
        _ => false,
    }
}
