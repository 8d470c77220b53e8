//! Completion: in CEL — after `receiver.` the fields of the receiver's type (with types and
//! docs) and the functions and macros that apply to it; elsewhere in an expression the variables
//! of the site's environment and the global functions and macros; inside `Type{` the fields of
//! that type. Outside expressions — the policy's YAML keys and allowed values, and snippets for a
//! new validation, variable, matchCondition, mutation or binding. Half-typed text works: the
//! cursor maps through the site's source map and the parser recovers `object.spec.` as a
//! selection with a missing field.

use crate::cel::ast::ExprKind;
use crate::cel::library::{self, Overload};
use crate::cel::types::{Substitution, Type, TypeProvider};
use crate::text::{TextRange, TextSize};

use super::cursor::{CelCursor, FileContext, cel_in};
use super::{Analysis, DiagnosticsConfig, FileId};

/// What a completion item is; the front-end maps it to its icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CompletionKind {
    /// A field of an object type.
    Field,
    /// A variable of the environment.
    Variable,
    /// A function.
    Function,
    /// A macro.
    Macro,
    /// A YAML snippet.
    Snippet,
    /// A key of a policy document's object.
    Key,
    /// An allowed value of a policy document's field.
    Value,
}

impl CompletionKind {
    /// A short tag for snapshots: `fd`, `va`, `fn`, `ma`, `sn`, `ky`, `ev`.
    pub fn tag(self) -> &'static str {
        match self {
            CompletionKind::Field => "fd",
            CompletionKind::Variable => "va",
            CompletionKind::Function => "fn",
            CompletionKind::Macro => "ma",
            CompletionKind::Snippet => "sn",
            CompletionKind::Key => "ky",
            CompletionKind::Value => "ev",
        }
    }
}

/// One completion proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    /// What it is.
    pub kind: CompletionKind,
    /// The text shown and, unless `insert` says otherwise, inserted.
    pub label: String,
    /// A type or signature shown next to the label.
    pub detail: Option<String>,
    /// Markdown documentation.
    pub documentation: Option<String>,
    /// A snippet (`$1`, `$0` placeholders) to insert instead of the label.
    pub insert: Option<String>,
    /// The file range the insertion replaces (the partly typed word).
    pub replace: TextRange,
}

impl Analysis {
    /// Completions at `offset` of `file`, in the order a client shows them.
    pub fn completions(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Vec<CompletionItem> {
        let Some(context) = self.file_context(file, config) else {
            return Vec::new();
        };
        let cursor = context
            .cel_at(offset)
            .or_else(|| in_empty_expression(&context, offset));
        let Some(cursor) = cursor else {
            // Outside CEL: policy keys and values (in the order they come), then snippets.
            let text = &context.text;
            let parsed = &context.parsed;
            let mut items = super::key_completion::completions(parsed, offset, context.minor);
            let mut snippets = super::snippets::completions(text, offset);
            snippets.sort_by(|a, b| a.label.cmp(&b.label));
            items.extend(snippets);
            return items;
        };
        let mut items = cel_completions(&cursor);
        items.sort_by(|a, b| (a.kind, &a.label).cmp(&(b.kind, &b.label)));
        items.dedup_by(|a, b| a.kind == b.kind && a.label == b.label);
        items
    }
}

/// An empty expression is no expression site; with a placeholder character typed at the cursor
/// it becomes one, and everything before the cursor is unchanged.
fn in_empty_expression(context: &FileContext, offset: TextSize) -> Option<CelCursor> {
    let text = &context.text;
    let at = usize::from(offset);
    let (before, after) = (text.get(..at)?, text.get(at..)?);
    let (minor, workspace) = (context.minor, &context.workspace);
    let edited = format!("{before}x{after}");
    let yaml = context.parsed.edited(&edited);
    let cursor = cel_in(&yaml, offset, minor, workspace)?;
    cursor.site.text.trim().eq("x").then_some(cursor)
}

fn cel_completions(cursor: &CelCursor) -> Vec<CompletionItem> {
    let text = cursor.site.text.as_str();
    let Some(before) = text.get(..usize::from(cursor.offset)) else {
        return Vec::new();
    };
    let word = before.len() - before.trim_end_matches(is_ident_char).len();
    let start = cursor.offset - TextSize::from(word as u32);
    let replace = cursor.file_range(TextRange::new(start, cursor.offset));
    let before_word = &before[..before.len() - word];
    let context = Context { cursor, replace };
    if let Some(operand) = before_word.strip_suffix('.') {
        return context.members(TextSize::from(operand.len() as u32));
    }
    let opens_field = before_word.trim_end().ends_with(['{', ',']);
    if let Some(fields) = context.struct_fields().filter(|_| opens_field) {
        return fields;
    }
    context.globals()
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

struct Context<'a> {
    cursor: &'a CelCursor,
    replace: TextRange,
}

impl Context<'_> {
    fn item(&self, kind: CompletionKind, label: &str, detail: Option<String>) -> CompletionItem {
        CompletionItem {
            kind,
            label: label.to_owned(),
            detail,
            documentation: None,
            insert: None,
            replace: self.replace,
        }
    }

    /// After `operand.`: the operand is the widest node that ends at the dot.
    fn members(&self, dot: TextSize) -> Vec<CompletionItem> {
        let ast = &self.cursor.ast;
        let operand = (0..ast.exprs.len())
            .filter_map(|i| Some((i, ast.exprs.get(i)?)))
            .filter(|(_, e)| e.span.end() == dot && e.span.start() < dot)
            .max_by_key(|(i, e)| (e.span.len(), *i));
        let Some((index, _)) = operand else {
            return Vec::new();
        };
        let id = crate::cel::ast::ExprId(u32::try_from(index).unwrap_or(0));
        let ty = self.cursor.checked.type_of(id).clone();
        let mut items = self.fields_of(&ty);
        items.extend(self.functions(Some(&ty)));
        items.extend(self.macros(Some(&ty)));
        items
    }

    fn fields_of(&self, ty: &Type) -> Vec<CompletionItem> {
        let Type::Object(name) = ty else {
            return Vec::new();
        };
        let fields = self.cursor.env.providers.fields(name);
        fields
            .into_iter()
            .map(|(field, info)| {
                let mut item = self.item(
                    CompletionKind::Field,
                    &field,
                    Some(info.ty.short().to_string()),
                );
                item.documentation = info.doc.map(|d| d.to_string());
                item
            })
            .collect()
    }

    /// Inside `Type{…}` where a field name goes: the fields of the constructed type.
    fn struct_fields(&self) -> Option<Vec<CompletionItem>> {
        let ast = &self.cursor.ast;
        let offset = self.cursor.offset;
        let (index, _) = ast
            .exprs
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.kind, ExprKind::Struct { .. }))
            .filter(|(_, e)| e.anchor < offset && e.span.contains_inclusive(offset))
            .min_by_key(|(_, e)| e.span.len())?;
        let id = crate::cel::ast::ExprId(u32::try_from(index).ok()?);
        Some(self.fields_of(self.cursor.checked.type_of(id)))
    }

    /// In an expression position: variables, global functions and macros.
    fn globals(&self) -> Vec<CompletionItem> {
        let mut items: Vec<CompletionItem> = self
            .cursor
            .env
            .variables
            .iter()
            .filter(|(name, _)| !name.contains('.'))
            .map(|(name, var)| {
                let mut item = self.item(
                    CompletionKind::Variable,
                    name,
                    Some(var.ty.short().to_string()),
                );
                item.documentation = var.doc.as_ref().map(|d| d.to_string());
                item
            })
            .collect();
        items.extend(self.functions(None));
        items.extend(self.macros(None));
        items
    }

    /// Member functions applicable to `receiver`, or global functions when `None`.
    fn functions(&self, receiver: Option<&Type>) -> Vec<CompletionItem> {
        let libraries = &self.cursor.env.libraries;
        let mut items = Vec::new();
        for decl in library::functions(libraries) {
            if !decl.name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue; // operators
            }
            let Some(overload) = decl.overloads.iter().find(|o| applies(o, receiver)) else {
                continue;
            };
            let label = overload.label(decl.name);
            let detail = label
                .strip_prefix(&format!("fn {}", decl.name))
                .map(str::to_owned);
            let mut item = self.item(CompletionKind::Function, decl.name, detail);
            item.documentation = Some(decl.doc.to_owned()).filter(|d| !d.is_empty());
            item.insert = Some(format!("{}($0)", decl.name));
            items.push(item);
        }
        // Functions the site's environment declares besides the libraries (a family's own,
        // such as Kyverno's `resource.Get`).
        for function in &self.cursor.env.functions {
            let name = function.name.as_str();
            let Some(overload) = function.overloads.iter().find(|o| applies(o, receiver)) else {
                continue;
            };
            let label = overload.label(name);
            let detail = label.strip_prefix(&format!("fn {name}")).map(str::to_owned);
            let mut item = self.item(CompletionKind::Function, name, detail);
            item.documentation = function.doc.as_deref().map(str::to_owned);
            item.insert = Some(format!("{name}($0)"));
            items.push(item);
        }
        items
    }

    fn macros(&self, receiver: Option<&Type>) -> Vec<CompletionItem> {
        let collection = match receiver {
            Some(ty) => matches!(ty, Type::List(_) | Type::Map(..) | Type::Dyn),
            None => true,
        };
        if !collection {
            return Vec::new();
        }
        library::macros(&self.cursor.env.libraries)
            .filter(|decl| decl.member == receiver.is_some())
            .map(|decl| {
                let mut item = self.item(CompletionKind::Macro, decl.name, Some(decl.signature()));
                item.documentation = Some(decl.doc.to_owned()).filter(|d| !d.is_empty());
                item.insert = Some(format!("{}($0)", decl.name));
                item
            })
            .collect()
    }
}

/// Whether `overload` can be called on `receiver` (`None`: as a global function).
fn applies(overload: &Overload, receiver: Option<&Type>) -> bool {
    match receiver {
        None => !overload.member,
        Some(ty) => {
            overload.member
                && overload
                    .params
                    .first()
                    .is_some_and(|param| param.is_assignable_from(ty, &mut Substitution::default()))
        }
    }
}
