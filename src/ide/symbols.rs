//! Document symbols: each policy or binding of a file, with its validations, variables,
//! match conditions and mutations as children.

use crate::policy::model::{MatchCondition, Opt, Variable};
use crate::policy::{Field, List, PolicyDocument, Text};
use crate::text::TextRange;

use super::{Analysis, FileId};

/// What a symbol is; the front-end maps it to its icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A policy or binding document.
    Document,
    /// A variable.
    Variable,
    /// A validation, match condition or mutation.
    Rule,
}

/// One symbol and the symbols inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name shown.
    pub name: String,
    /// The kind of document or item (`ValidatingAdmissionPolicy`, `validation`).
    pub detail: String,
    /// What it is.
    pub kind: SymbolKind,
    /// Its whole range.
    pub range: TextRange,
    /// The range of its name (within `range`).
    pub focus: TextRange,
    /// Nested symbols.
    pub children: Vec<Symbol>,
}

impl Analysis {
    /// The symbols of `file`, in document order.
    pub fn document_symbols(&self, file: FileId) -> Vec<Symbol> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        parsed
            .all_models()
            .map(|model| document_symbol(&model.document))
            .collect()
    }
}

fn document_symbol(document: &PolicyDocument) -> Symbol {
    let header = document.header();
    let (name, focus) = header.name().map_or_else(
        || ("(unnamed)".to_owned(), header.kind_range),
        |n| (n.value.value.clone(), n.value.range),
    );
    let children = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => {
            let spec = &spec.value;
            let mut children = conditions_and_variables(&spec.match_conditions, &spec.variables);
            children.extend(items(
                &spec.validations,
                "validation",
                |v| &v.expression,
                |v| v.place.range,
            ));
            children
        }
        PolicyDocument::MutatingPolicy(_, spec) => {
            let spec = &spec.value;
            let mut children = conditions_and_variables(&spec.match_conditions, &spec.variables);
            children.extend(items(
                &spec.mutations,
                "mutation",
                |m| &m.patch_type,
                |m| m.place.range,
            ));
            children
        }
        _ => Vec::new(),
    };
    Symbol {
        name,
        detail: header.kind.name().to_owned(),
        kind: SymbolKind::Document,
        range: header.range,
        focus,
        children,
    }
}

/// The symbols both policy kinds share: their matchConditions, then their variables.
fn conditions_and_variables(
    conditions: &Opt<List<MatchCondition>>,
    variables: &Opt<List<Variable>>,
) -> Vec<Symbol> {
    let mut symbols = items(conditions, "matchCondition", |c| &c.name, |c| c.place.range);
    symbols.extend(items(variables, "variable", |v| &v.name, |v| v.place.range));
    symbols
}

/// One symbol per item of `list`, named by the `label` field (or its position).
fn items<T>(
    list: &Option<Field<List<T>>>,
    detail: &str,
    label: impl Fn(&T) -> &Option<Field<Text>>,
    range: impl Fn(&T) -> TextRange,
) -> Vec<Symbol> {
    let Some(list) = list else {
        return Vec::new();
    };
    let kind = if detail == "variable" {
        SymbolKind::Variable
    } else {
        SymbolKind::Rule
    };
    list.value
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let whole = range(item);
            let (name, focus) = label(item).as_ref().map_or_else(
                || (format!("#{i}"), whole),
                |f| (first_line(&f.value.value), f.value.range),
            );
            Symbol {
                name,
                detail: detail.to_owned(),
                kind,
                range: whole,
                focus,
                children: Vec::new(),
            }
        })
        .collect()
}

/// The first line of a name or expression, shortened for an outline.
fn first_line(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or_default();
    match line.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}
