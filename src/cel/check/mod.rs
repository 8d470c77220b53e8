//! The CEL type checker, modelled on cel-go's `checker` package: every node of a parsed [`Ast`]
//! gets a type, every identifier, selection and call a [`Reference`], and every problem a
//! [`CheckError`] at the exact characters. Checking never fails: a broken subtree gets the `error`
//! type, which is assignable to and from everything, so one mistake gives one diagnostic.
//!
//! - [`Env`] holds variables, libraries, type providers, the container and the version target;
//!   [`Env::kubernetes`] builds the admission environment of a version, [`Env::declare_admission`]
//!   its variables, [`Env::enable_mutation`] the mutation-only types;
//! - [`check`] gives [`Checked`] (types and references per `ExprId`, the result type, errors);
//! - [`result_type_error`] applies the API server's exact result-type rule;
//! - [`ObjectTypes`] declares object types by hand (`kubernetes.variables`, untyped `params`),
//!   [`Env::variable_type`] converts a variable's checked type as the API server does;
//! - macros are checked as cel-go checks their expansions, without expanding them.

mod admission;
mod calls;
mod env;
mod format;
mod literals;
mod macros;
mod objects;
mod resolve;
mod result_type;
pub mod suggest;
mod validators;
mod versions;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::cel::ast::{Ast, ExprId, ExprKind, Literal};
use crate::cel::types::{Substitution, Type, substitute};
use crate::text::{TextRange, TextSize};

pub use admission::AdmissionVariables;
pub use env::{ChainProvider, CustomFunction, Env, SharedProvider, Variable, VersionTarget};
pub use format::{cel_go_report, cel_go_type};
pub use objects::ObjectTypes;
pub use result_type::result_type_error;
pub use suggest::closest;

/// What an identifier, selection, call or macro resolved to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// A declared variable.
    Variable {
        /// Its full name.
        name: String,
        /// Its documentation.
        doc: Option<Arc<str>>,
    },
    /// A variable bound by a macro (`x` in `l.all(x, …)`).
    Local {
        /// Its name.
        name: String,
        /// Where it is declared.
        declared_at: TextRange,
    },
    /// A field of an object type.
    Field {
        /// The object type's name (shared with the type it was selected on).
        owner: Arc<str>,
        /// The field name.
        name: String,
        /// Its documentation.
        doc: Option<Arc<str>>,
    },
    /// A function or operator call: the name and the overloads that matched.
    Function {
        /// The resolved (possibly qualified) function name, or the operator's internal name.
        name: String,
        /// The ids of the overloads that match the argument types.
        overloads: Vec<Arc<str>>,
    },
    /// A name that denotes a type (`int`, `net.IP`, `Object`).
    Type(Type),
    /// A macro call (`all`, `has`, …).
    Macro(String),
}

/// The category of a checker error; the policy layer maps each to a diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckErrorKind {
    /// `cel-undeclared`: an unknown variable or function.
    Undeclared,
    /// `cel-undefined-field`: an object type has no such field.
    UndefinedField,
    /// `cel-no-overload`: no overload accepts the argument types.
    NoOverload,
    /// `cel-type`: any other type error.
    Type,
    /// `cel-version`: available only in a later Kubernetes version (or environment).
    Version,
}

impl CheckErrorKind {
    /// The diagnostic code of the kind.
    pub fn code(self) -> &'static str {
        match self {
            CheckErrorKind::Undeclared => "cel-undeclared",
            CheckErrorKind::UndefinedField => "cel-undefined-field",
            CheckErrorKind::NoOverload => "cel-no-overload",
            CheckErrorKind::Type => "cel-type",
            CheckErrorKind::Version => "cel-version",
        }
    }
}

/// One checker error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// Its category.
    pub kind: CheckErrorKind,
    /// The characters to underline (byte range of the expression text): the name for undeclared
    /// names and undefined fields, the operator or function name for overload errors.
    pub span: TextRange,
    /// The offset cel-go reports the error at (for `<input>:line:col` messages).
    pub anchor: TextSize,
    /// The message, worded as cel-go's where it has one.
    pub message: String,
    /// A near-miss name the user probably meant.
    pub suggestion: Option<String>,
}

/// How the errors the API server finds when it builds the program (not when it checks) begin.
pub const PROGRAM_INSTANTIATION_FAILED: &str = "program instantiation failed: ";

impl CheckError {
    /// Whether cel-go finds this error when building the program (a literal `find` pattern Go
    /// refuses), after a clean check: the API server reports it without the `compilation failed`
    /// issue list (apiextensions-apiserver `pkg/apiserver/schema/cel/compilation.go`).
    pub fn at_program_build(&self) -> bool {
        self.message.starts_with(PROGRAM_INSTANTIATION_FAILED)
    }
}

/// The result of checking: a type and a reference per node, the result type and the errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The type of each node, indexed by `ExprId` (`error` for nodes that could not be typed).
    pub types: Vec<Type>,
    /// What each identifier, selection, call or macro node resolved to.
    pub references: Vec<Option<Reference>>,
    /// The type of the whole expression.
    pub result: Type,
    /// Errors in source order.
    pub errors: Vec<CheckError>,
}

impl Checked {
    /// The type of node `id` (`error` for a foreign id).
    pub fn type_of(&self, id: ExprId) -> &Type {
        self.types.get(id.index()).unwrap_or(&Type::Error)
    }

    /// The reference of node `id`, if any.
    pub fn reference(&self, id: ExprId) -> Option<&Reference> {
        self.references.get(id.index()).and_then(Option::as_ref)
    }
}

/// Deeper trees are typed `error` without looking further. The parser bounds depth at 250, so
/// this only guards hand-built trees; it keeps the recursion within a 2 MiB debug stack.
const MAX_DEPTH: u32 = 300;

/// Checks `ast` in `env`. Never fails; see [`Checked`].
pub fn check(ast: &Ast, env: &Env) -> Checked {
    let mut checker = Checker::new(ast, env);
    checker.check_expr(ast.root);
    checker.finish()
}

/// A local variable bound by a macro.
struct Local {
    name: String,
    ty: Type,
    declared_at: TextRange,
}

/// The state of one check.
struct Checker<'a> {
    ast: &'a Ast,
    env: &'a Env,
    types: Vec<Type>,
    refs: Vec<Option<Reference>>,
    errors: Vec<CheckError>,
    subst: Substitution,
    next_var: u32,
    locals: Vec<Local>,
    depth: u32,
    /// Suggestions still to compute: each scans every candidate name, so a hostile expression
    /// with many unknown names against thousands of variables stays bounded.
    suggestions_left: u32,
}

impl<'a> Checker<'a> {
    fn new(ast: &'a Ast, env: &'a Env) -> Self {
        Checker {
            ast,
            env,
            types: vec![Type::Error; ast.len()],
            refs: vec![None; ast.len()],
            errors: Vec::new(),
            subst: Substitution::new(),
            next_var: 0,
            locals: Vec::new(),
            depth: 0,
            suggestions_left: 16,
        }
    }

    fn finish(mut self) -> Checked {
        // A type without parameters stays as it is: replacing it by its copy cost a clone and a
        // drop per node.
        for ty in self.types.iter_mut().filter(|ty| ty.has_params()) {
            *ty = substitute(&self.subst, ty, true);
        }
        if validators::may_report(self.ast) {
            self.validate();
        }
        self.errors.sort_by_key(|e| (e.span.start(), e.anchor));
        let result = self
            .types
            .get(self.ast.root.index())
            .cloned()
            .unwrap_or(Type::Error);
        Checked {
            types: self.types,
            references: self.refs,
            result,
            errors: self.errors,
        }
    }

    /// Runs the three validators over one walk of the tree.
    fn validate(&mut self) {
        let order = self.ast.preorder(self.ast.root);
        if self.env.homogeneous_literals {
            literals::validate_homogeneous(self.ast, &order, &self.types, &mut self.errors);
        }
        if self.env.literal_validators {
            validators::validate_literals(self.ast, &order, &mut self.errors);
        }
        if crate::cel::library::is_enabled(crate::cel::library::Library::Regex, &self.env.libraries)
        {
            validators::validate_regex_programs(self.ast, &order, &mut self.errors);
        }
    }

    /// Types `id` and everything under it.
    fn check_expr(&mut self, id: ExprId) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        let ty = self.infer(id);
        self.depth -= 1;
        self.set_type(id, ty);
    }

    fn infer(&mut self, id: ExprId) -> Type {
        let expr = self.ast.expr(id);
        match &expr.kind {
            ExprKind::Error { parts } => {
                parts.iter().for_each(|&part| self.check_expr(part));
                Type::Error
            }
            ExprKind::Literal(literal) => literal_type(literal),
            ExprKind::Ident(name) => self.check_ident(id, name),
            ExprKind::Select {
                operand,
                field,
                optional,
            } => self.check_select(id, *operand, field, *optional),
            ExprKind::Index {
                operand,
                index,
                optional,
            } => self.check_index(id, *operand, *index, *optional),
            ExprKind::Call {
                target,
                function,
                args,
            } => self.check_call(id, *target, function, args),
            ExprKind::Unary { op, operand } => self.check_unary(id, *op, *operand),
            ExprKind::Binary { op, lhs, rhs } => self.check_binary(id, *op, *lhs, *rhs),
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => self.check_conditional(id, *cond, *then, *otherwise),
            ExprKind::List { elements } => self.check_list(elements),
            ExprKind::Map { entries } => self.check_map(entries),
            ExprKind::Struct { type_name, fields } => self.check_struct(id, type_name, fields),
            ExprKind::Macro(call) => self.check_macro(id, call),
        }
    }

    fn set_type(&mut self, id: ExprId, ty: Type) {
        if let Some(slot) = self.types.get_mut(id.index()) {
            *slot = ty;
        }
    }

    fn set_ref(&mut self, id: ExprId, reference: Reference) {
        if let Some(slot) = self.refs.get_mut(id.index()) {
            *slot = Some(reference);
        }
    }

    fn type_of(&self, id: ExprId) -> Type {
        self.types.get(id.index()).cloned().unwrap_or(Type::Error)
    }

    /// A fresh type variable, numbered like cel-go's (`_var0`, `_var1`, …).
    fn fresh_var(&mut self) -> Type {
        let var = Type::fresh_var(self.next_var);
        self.next_var = self.next_var.wrapping_add(1);
        var
    }

    /// cel-go's `isAssignable(t1, t2)`: may a `t1` stand where a `t2` is, binding parameters.
    fn assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        crate::cel::types::is_assignable(t2, t1, &mut self.subst)
    }

    /// `ty` with the parameters bound so far replaced.
    fn resolved(&self, ty: &Type) -> Type {
        substitute(&self.subst, ty, false)
    }

    fn error(&mut self, kind: CheckErrorKind, span: TextRange, anchor: TextSize, message: String) {
        self.errors.push(CheckError {
            kind,
            span,
            anchor,
            message,
            suggestion: None,
        });
    }

    /// Reports `expected type 'X' but found 'Y'` at node `id`.
    fn type_mismatch(&mut self, id: ExprId, expected: &Type, found: &Type) {
        let expr = self.ast.expr(id);
        let message = format!(
            "expected type '{}' but found '{}'",
            cel_go_type(expected),
            cel_go_type(found)
        );
        self.error(CheckErrorKind::Type, expr.span, expr.anchor, message);
    }
}

fn literal_type(literal: &Literal) -> Type {
    match literal {
        Literal::Null => Type::Null,
        Literal::Bool(_) => Type::Bool,
        Literal::Int(_) => Type::Int,
        Literal::Uint(_) => Type::Uint,
        Literal::Double(_) => Type::Double,
        Literal::String(_) => Type::String,
        Literal::Bytes(_) => Type::Bytes,
    }
}
