//! Signature help inside a CEL call: the overloads of the function being called (member or
//! global style, as written) and the argument the cursor is on. Works on unclosed calls: the
//! call is found by lexing back from the cursor to the unmatched `(`. The active overload is the
//! first whose receiver and parameters accept the types of the receiver and of the arguments
//! finished so far (see [`super::signature_types`]).

use crate::cel::library;
use crate::cel::token::{Token, TokenKind};
use crate::text::TextSize;

use super::signature_types::{call_types, fits};
use super::{Analysis, DiagnosticsConfig, FileId};

/// The signatures of the call around the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// One entry per overload.
    pub signatures: Vec<Signature>,
    /// The index of the argument the cursor is in (receiver excluded).
    pub active_parameter: u32,
    /// The overload that fits the receiver and the arguments typed so far, if one does.
    pub active_signature: Option<u32>,
}

/// One overload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `fn string.startsWith(string) -> bool`.
    pub label: String,
    /// The argument types, as they appear in `label`.
    pub parameters: Vec<String>,
    /// The function's documentation.
    pub documentation: String,
}

impl Analysis {
    /// Signature help at `offset` of `file`, when the cursor is inside a call's parentheses.
    pub fn signature_help(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Option<SignatureHelp> {
        let cursor = self.file_context(file, config)?.cel_at(offset)?;
        let before = cursor.site.text.get(..usize::from(cursor.offset))?;
        let (tokens, _) = crate::cel::tokenize(before);
        let (open, active) = open_call(&tokens)?;
        let name_token = tokens.get(open.checked_sub(1)?)?;
        if name_token.kind != TokenKind::Ident {
            return None;
        }
        let name = before.get(std::ops::Range::<usize>::from(name_token.range))?;
        let member = open
            .checked_sub(2)
            .and_then(|i| tokens.get(i))
            .is_some_and(|t| t.kind == TokenKind::Dot);
        // (name, documentation, overload): the libraries' declarations, then the functions the
        // site's environment declares besides (a family's own, such as Kyverno's).
        let mut overloads: Vec<(&str, &str, &library::Overload)> =
            library::lookup(name, &cursor.env.libraries)
                .flat_map(|decl| {
                    decl.overloads
                        .iter()
                        .filter(move |o| o.member == member)
                        .map(move |o| (decl.name, decl.doc, o))
                })
                .collect();
        for function in cursor.env.functions.iter().filter(|f| f.name == name) {
            let doc = function.doc.as_deref().unwrap_or("");
            let declared = function.overloads.iter().filter(|o| o.member == member);
            overloads.extend(declared.map(|o| (function.name.as_str(), doc, o)));
        }
        let typed = call_types(&cursor, before, &tokens, open, name_token.range.start());
        let active_signature = overloads
            .iter()
            .position(|(_, _, o)| fits(o, &typed, active))
            .and_then(|i| u32::try_from(i).ok());
        let signatures: Vec<Signature> = overloads
            .iter()
            .map(|(name, doc, o)| Signature {
                label: o.signature(name),
                parameters: o
                    .arguments()
                    .iter()
                    .map(|t| t.short().to_string())
                    .collect(),
                documentation: (*doc).to_owned(),
            })
            .collect();
        (!signatures.is_empty()).then_some(SignatureHelp {
            signatures,
            active_parameter: active,
            active_signature,
        })
    }
}

/// The index of the unmatched `(` before the end, and the number of commas at its depth.
fn open_call(tokens: &[Token]) -> Option<(usize, u32)> {
    let mut depth = 0u32;
    let mut commas = 0u32;
    for (i, token) in tokens.iter().enumerate().rev() {
        match token.kind {
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => depth += 1,
            TokenKind::LBracket | TokenKind::LBrace if depth == 0 => return None,
            TokenKind::LParen if depth == 0 => return Some((i, commas)),
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth -= 1,
            TokenKind::Comma if depth == 0 => commas += 1,
            _ => {}
        }
    }
    None
}
