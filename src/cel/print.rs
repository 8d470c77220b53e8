//! Printing a tree back to CEL source. Parenthesises by precedence so that parsing the output gives
//! the same tree; used for the round-trip test and by later features (quick fixes, hover).

use super::ast::{Ast, ExprId, ExprKind, Literal, Name, UnaryOp};
use super::macros::MacroKind;
use super::token::{RESERVED_WORDS, TokenKind};

/// Precedence of the printed form: what an operand needs to avoid parentheses.
const CONDITIONAL: u8 = 0;
const MEMBER: u8 = 7;
const UNARY: u8 = 6;

/// Prints the whole tree.
pub fn to_cel_string(ast: &Ast) -> String {
    let mut out = String::new();
    Printer { ast, out: &mut out }.expr(ast.root);
    out
}

struct Printer<'a> {
    ast: &'a Ast,
    out: &'a mut String,
}

impl Printer<'_> {
    fn kind(&self, id: ExprId) -> &ExprKind {
        &self.ast.expr(id).kind
    }

    /// Binding strength of a node's printed form.
    fn strength(&self, id: ExprId) -> u8 {
        match self.kind(id) {
            ExprKind::Conditional { .. } => CONDITIONAL,
            ExprKind::Binary { op, .. } => op.precedence(),
            ExprKind::Unary { .. } => UNARY,
            _ => MEMBER,
        }
    }

    /// Prints `id`, in parentheses if it binds looser than `min`.
    fn operand(&mut self, id: ExprId, min: u8) {
        if self.strength(id) < min {
            self.out.push('(');
            self.expr(id);
            self.out.push(')');
        } else {
            self.expr(id);
        }
    }

    fn expr(&mut self, id: ExprId) {
        match self.kind(id).clone() {
            ExprKind::Error { .. } => self.out.push_str("<error>"),
            ExprKind::Literal(literal) => print_literal(self.out, &literal),
            ExprKind::Ident(name) => self.out.push_str(&name.text),
            ExprKind::Select {
                operand,
                field,
                optional,
            } => {
                self.operand(operand, MEMBER);
                self.out.push_str(if optional { ".?" } else { "." });
                self.field(&field);
            }
            ExprKind::Index {
                operand,
                index,
                optional,
            } => {
                self.operand(operand, MEMBER);
                self.out.push_str(if optional { "[?" } else { "[" });
                self.expr(index);
                self.out.push(']');
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(target, &function.text, &[], &args),
            ExprKind::Unary { op, operand } => self.unary(op, operand),
            ExprKind::Binary { op, lhs, rhs } => {
                self.operand(lhs, op.precedence());
                self.out.push_str(&format!(" {} ", op.symbol()));
                self.operand(rhs, op.precedence() + 1);
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => {
                self.operand(cond, 1);
                self.out.push_str(" ? ");
                self.operand(then, 1);
                self.out.push_str(" : ");
                self.expr(otherwise);
            }
            ExprKind::List { elements } => {
                self.out.push('[');
                for (i, element) in elements.iter().enumerate() {
                    self.separator(i);
                    self.out.push_str(if element.optional { "?" } else { "" });
                    self.expr(element.value);
                }
                self.out.push(']');
            }
            ExprKind::Map { entries } => {
                self.out.push('{');
                for (i, entry) in entries.iter().enumerate() {
                    self.separator(i);
                    self.out.push_str(if entry.optional { "?" } else { "" });
                    self.expr(entry.key);
                    self.out.push_str(": ");
                    self.expr(entry.value);
                }
                self.out.push('}');
            }
            ExprKind::Struct { type_name, fields } => {
                self.out.push_str(&type_name.text);
                self.out.push('{');
                for (i, field) in fields.iter().enumerate() {
                    self.separator(i);
                    self.out.push_str(if field.optional { "?" } else { "" });
                    self.field(&field.name);
                    self.out.push_str(": ");
                    self.expr(field.value);
                }
                self.out.push('}');
            }
            ExprKind::Macro(call) => {
                let target = if call.kind == MacroKind::Bind {
                    None
                } else {
                    call.target
                };
                let function = if call.kind == MacroKind::Bind {
                    "cel.bind"
                } else {
                    call.function.text.as_str()
                };
                self.call(target, function, &call.vars, &call.args);
            }
        }
    }

    fn separator(&mut self, index: usize) {
        if index > 0 {
            self.out.push_str(", ");
        }
    }

    /// A field name, backtick-escaped when it is not a plain identifier.
    fn field(&mut self, name: &Name) {
        let plain = name
            .text
            .chars()
            .next()
            .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
            && name
                .text
                .chars()
                .all(|c| c == '_' || c.is_ascii_alphanumeric())
            && (TokenKind::of_word(&name.text) == TokenKind::Ident
                || RESERVED_WORDS.contains(&name.text.as_str()));
        if plain {
            self.out.push_str(&name.text);
        } else {
            self.out.push_str(&format!("`{}`", name.text));
        }
    }

    fn call(&mut self, target: Option<ExprId>, function: &str, vars: &[Name], args: &[ExprId]) {
        if let Some(target) = target {
            self.operand(target, MEMBER);
            self.out.push('.');
        }
        self.out.push_str(function);
        self.out.push('(');
        for (i, var) in vars.iter().enumerate() {
            self.separator(i);
            self.out.push_str(&var_source(&var.text));
        }
        for (i, &arg) in args.iter().enumerate() {
            self.separator(i + vars.len());
            self.expr(arg);
        }
        self.out.push(')');
    }

    /// `-x`, `!x`. The operand is parenthesised when it is not a member expression, and also when
    /// its text would merge with the operator (`-(1)` is not the literal `-1`, `-(-x)` not `x`).
    fn unary(&mut self, op: UnaryOp, operand: ExprId) {
        self.out.push_str(op.symbol());
        let mut text = String::new();
        Printer {
            ast: self.ast,
            out: &mut text,
        }
        .operand(operand, MEMBER);
        let merges = text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '!' | '.'));
        if merges {
            self.out.push_str(&format!("({text})"));
        } else {
            self.out.push_str(&text);
        }
    }
}

/// A macro variable as written: cel.block's `@it:i:j` / `@ac:i:j` names come from
/// `cel.iterVar(i, j)` / `cel.accuVar(i, j)`.
fn var_source(name: &str) -> String {
    let block = |prefix: &str, function: &str| {
        let rest = name.strip_prefix(prefix)?;
        let (i, j) = rest.split_once(':')?;
        Some(format!("cel.{function}({i}, {j})"))
    };
    block("@it:", "iterVar")
        .or_else(|| block("@ac:", "accuVar"))
        .unwrap_or_else(|| name.to_string())
}

fn print_literal(out: &mut String, literal: &Literal) {
    match literal {
        Literal::Null => out.push_str("null"),
        Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Literal::Int(i) => out.push_str(&i.to_string()),
        Literal::Uint(u) => out.push_str(&format!("{u}u")),
        Literal::Double(d) => out.push_str(&format_double(*d)),
        Literal::String(s) => quote(out, s.chars().map(u32::from), ""),
        Literal::Bytes(b) => quote(out, b.iter().map(|&b| u32::from(b)), "b"),
    }
}

/// A double that reads back as the same value and lexes as a double (always a `.` or exponent).
fn format_double(value: f64) -> String {
    let text = format!("{value:?}");
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// A double-quoted literal; `units` are code points (strings) or bytes (bytes literals).
fn quote(out: &mut String, units: impl Iterator<Item = u32>, prefix: &str) {
    let bytes = !prefix.is_empty();
    out.push_str(prefix);
    out.push('"');
    for unit in units {
        match char::from_u32(unit) {
            Some('"') => out.push_str("\\\""),
            Some('\\') => out.push_str("\\\\"),
            Some('\n') => out.push_str("\\n"),
            Some('\r') => out.push_str("\\r"),
            Some('\t') => out.push_str("\\t"),
            Some(c) if (' '..='~').contains(&c) => out.push(c),
            Some(c) if !bytes && !c.is_control() => out.push(c),
            _ if bytes => out.push_str(&format!("\\x{unit:02x}")),
            _ => out.push_str(&format!("\\u{unit:04x}")),
        }
    }
    out.push('"');
}
