//! Signatures as people read them in hover, completion and signature help:
//! `fn string.startsWith(string) -> bool`, `fn size(list(A)) -> int`, `macro _.all(_, _)`.
//! Types use the short spelling (`timestamp`, `duration`).

use std::fmt::Write;

use super::{FunctionDecl, MacroDecl, Overload};
use crate::cel::types::Type;

fn join(types: &[Type]) -> String {
    let mut out = String::new();
    for (index, ty) in types.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", ty.short());
    }
    out
}

impl Overload {
    /// The full signature with the receiver: `fn string.startsWith(string) -> bool`.
    pub fn signature(&self, name: &str) -> String {
        match self.params.split_first() {
            Some((receiver, rest)) if self.member => format!(
                "fn {}.{name}({}) -> {}",
                receiver.short(),
                join(rest),
                self.result.short()
            ),
            _ => format!(
                "fn {name}({}) -> {}",
                join(&self.params),
                self.result.short()
            ),
        }
    }

    /// The signature without the receiver, as a completion label after `.`:
    /// `fn startsWith(string) -> bool`.
    pub fn label(&self, name: &str) -> String {
        format!(
            "fn {name}({}) -> {}",
            join(self.arguments()),
            self.result.short()
        )
    }

    /// The argument types a call passes explicitly (the receiver excluded).
    pub fn arguments(&self) -> &[Type] {
        if self.member {
            self.params.get(1..).unwrap_or_default()
        } else {
            &self.params
        }
    }
}

impl FunctionDecl {
    /// One [`Overload::signature`] per overload, in declaration order.
    pub fn signatures(&self) -> Vec<String> {
        self.overloads
            .iter()
            .map(|overload| overload.signature(self.name))
            .collect()
    }
}

impl MacroDecl {
    /// One line per accepted arity: `macro _.map(_, _) | macro _.map(_, _, _)`.
    pub fn signature(&self) -> String {
        let receiver = if self.member { "_." } else { "" };
        let forms: Vec<String> = self
            .arg_counts
            .iter()
            .map(|&count| {
                let args = vec!["_"; count].join(", ");
                format!("macro {receiver}{}({args})", self.name)
            })
            .collect();
        forms.join(" | ")
    }
}
