//! Writes a parsed Go pattern in the `regex` crate's syntax, spelling every character as
//! `\x{…}` and every class as explicit ranges or `\p{gc=…}` / `\p{sc=…}`, so no difference
//! between the two syntaxes (what `\w` or `\s` means, which escapes exist) can leak through.
//! Word boundaries are ASCII (`(?-u:\b)`), as Go's are.

use std::fmt::Write;

use super::names::ClassName;
use super::parse::{ClassItem, Node};

/// The `regex` crate pattern that matches what Go's `regexp` matches for `tree`.
pub(super) fn emit(tree: &Node) -> String {
    let mut out = String::new();
    node(&mut out, tree, Place::Branch, false);
    out
}

/// `emit`, with Go's capturing groups kept as the crate's, numbered alike (for the functions
/// that read submatches).
pub(super) fn emit_with_captures(tree: &Node) -> String {
    let mut out = String::new();
    node(&mut out, tree, Place::Branch, true);
    out
}

/// Where a node is written, which decides whether it needs a group around it. Unless asked for
/// (`emit_with_captures`), captures are written as plain groups or not at all, and
/// sequences and alternatives flatten as Go's own parser flattens them: the crate's nesting
/// (and recursion) then grows only where precedence needs a group.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// An alternative of an alternation (or the whole pattern).
    Branch,
    /// An item of a sequence.
    Item,
    /// The operand of a repetition.
    Operand,
}

fn node(out: &mut String, n: &Node, place: Place, captures: bool) {
    match n {
        Node::Empty => out.push_str("(?:)"),
        Node::Literal(c, fold) => folded(out, *fold, |out| character(out, *c)),
        Node::Class {
            items,
            negated,
            fold,
        } => folded(out, *fold, |out| class(out, items, *negated)),
        Node::AnyChar => out.push_str("(?s:.)"),
        Node::AnyCharNotNl => out.push_str("(?-s:.)"),
        Node::BeginLine => out.push_str("(?m:^)"),
        Node::EndLine => out.push_str("(?m:$)"),
        Node::BeginText => out.push_str("\\A"),
        Node::EndText => out.push_str("\\z"),
        Node::WordBoundary => out.push_str("(?-u:\\b)"),
        Node::NoWordBoundary => out.push_str("(?-u:\\B)"),
        Node::Capture(sub) if captures => {
            out.push('(');
            node(out, sub, Place::Branch, captures);
            out.push(')');
        }
        Node::Capture(sub) => node(out, sub, place, captures),
        Node::Repeat {
            min,
            max,
            greedy,
            sub,
            ..
        } => grouped(out, place == Place::Operand, |out| {
            node(out, sub, Place::Operand, captures);
            let _ = match max {
                None => write!(out, "{{{min},}}"),
                Some(max) => write!(out, "{{{min},{max}}}"),
            };
            if !greedy {
                out.push('?');
            }
        }),
        Node::Concat(items) => grouped(out, place == Place::Operand, |out| {
            items
                .iter()
                .for_each(|item| node(out, item, Place::Item, captures));
        }),
        Node::Alternate(branches) => grouped(out, place != Place::Branch, |out| {
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                node(out, branch, Place::Branch, captures);
            }
        }),
    }
}

fn grouped(out: &mut String, group: bool, body: impl FnOnce(&mut String)) {
    if group {
        out.push_str("(?:");
    }
    body(out);
    if group {
        out.push(')');
    }
}

/// Case folding as Go's `(?i)`: Unicode simple folding, which the crate's `(?i)` also applies.
fn folded(out: &mut String, fold: bool, body: impl FnOnce(&mut String)) {
    if fold {
        out.push_str("(?i:");
        body(out);
        out.push(')');
    } else {
        body(out);
    }
}

fn character(out: &mut String, c: char) {
    let _ = write!(out, "\\x{{{:X}}}", c as u32);
}

fn class(out: &mut String, items: &[ClassItem], negated: bool) {
    out.push('[');
    if negated {
        out.push('^');
    }
    for item in items {
        match item {
            ClassItem::Range(lo, hi) => range(out, *lo, *hi),
            ClassItem::Ascii(ranges, negated) => {
                out.push('[');
                if *negated {
                    out.push('^');
                }
                ranges.iter().for_each(|&(lo, hi)| range(out, lo, hi));
                out.push(']');
            }
            ClassItem::Unicode(name, negated) => unicode(out, *name, *negated),
        }
    }
    out.push(']');
}

fn range(out: &mut String, lo: char, hi: char) {
    character(out, lo);
    out.push('-');
    character(out, hi);
}

fn unicode(out: &mut String, name: ClassName, negated: bool) {
    out.push('[');
    if negated {
        out.push('^');
    }
    match name {
        ClassName::Any => range(out, '\0', char::MAX),
        // Go's `C` leaves out unassigned code points (`Cn`), which Unicode's `C` includes, and no
        // string holds a surrogate (`Cs`), which the crate refuses to match.
        ClassName::Category("C") => out.push_str("\\p{gc=Cc}\\p{gc=Cf}\\p{gc=Co}"),
        ClassName::Category("Cs") => out.push_str("[^\\x{0}-\\x{10FFFF}]"),
        ClassName::Category(category) => {
            let _ = write!(out, "\\p{{gc={category}}}");
        }
        ClassName::Script(script) => {
            let _ = write!(out, "\\p{{sc={script}}}");
        }
    }
    out.push(']');
}
