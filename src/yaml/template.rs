//! Go template actions (`{{ … }}`, as Helm chart templates hold them) masked out of a text: each
//! action is replaced by text of the same length that the YAML parser reads as something neutral,
//! so every offset of the file stays exact and the YAML around the actions can be read.
//!
//! The scanner follows text/template's lexer (`text/template/parse/lex.go`): an action starts at
//! `{{` and ends at the first `}}` outside a quoted string, raw string or character constant; a
//! comment is `{{/* … */}}` (with optional trim markers `{{- ` and ` -}}`). An action alone on its
//! lines (with only blanks and other actions around it) becomes blanks: its lines read as empty.
//! An output action among other text becomes `_` characters on its first line (a plain word in
//! YAML, a name in CEL) and blanks on its other lines; a control action or comment there writes
//! nothing and becomes blanks (`- {{- if .X }}` leaves `- ` before the item's lines).

use crate::text::{TextRange, TextSize};

/// What an action does to the output where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// A comment: writes nothing.
    Comment,
    /// `if`, `else`, `end`, `range`, `with`, `define`, `block`, `break`, `continue` or a variable
    /// declaration: writes nothing itself, but selects or repeats the text around it.
    Control,
    /// Writes a value (`{{ .Values.x }}`, `{{ include … }}`, `{{ toYaml … }}`).
    Output,
}

/// One action of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    /// From `{{` to the end of `}}` (to the end of the text when unclosed).
    pub range: TextRange,
    /// What it does.
    pub kind: ActionKind,
    /// Whether it stands alone on its lines: an output action there writes whole lines (a block
    /// of YAML, typically `{{ toYaml … | nindent 4 }}`).
    pub alone: bool,
}

/// A text with its template actions masked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Masked {
    /// The text of the same length with every action replaced.
    pub text: String,
    /// The actions, in order.
    pub actions: Vec<Action>,
}

/// Whether `text` holds a template action at all.
pub fn has_actions(text: &str) -> bool {
    text.contains("{{")
}

/// `text` with its template actions masked.
pub fn mask(text: &str) -> Masked {
    let spans = action_spans(text);
    let mut bytes = text.as_bytes().to_vec();
    let mut actions = Vec::with_capacity(spans.len());
    let alone_flags = alone_flags(text, &spans);
    for (&(start, end), &alone) in spans.iter().zip(&alone_flags) {
        let kind = kind_of(&text[start..end]);
        // Only an output among other text leaves a word; the rest writes nothing there.
        let replacement = if alone || kind != ActionKind::Output {
            b' '
        } else {
            b'_'
        };
        let mut first_line = true;
        for byte in bytes.iter_mut().take(end).skip(start) {
            if *byte == b'\n' {
                first_line = false;
                continue;
            }
            // Blanks after the first line: a continuation of `_` at column 0 would end the mapping.
            *byte = if first_line { replacement } else { b' ' };
        }
        actions.push(Action {
            range: range(start, end),
            kind,
            alone,
        });
    }
    // Only ASCII bytes of whole characters were replaced, so the bytes are still UTF-8.
    let text = String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned());
    Masked { text, actions }
}

fn range(start: usize, end: usize) -> TextRange {
    let offset = |n: usize| TextSize::from(u32::try_from(n).unwrap_or(u32::MAX));
    TextRange::new(offset(start), offset(end))
}

/// The byte spans of the actions of `text`, in order.
fn action_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("{{") {
        let start = from + found;
        let end = action_end(text, start + 2);
        spans.push((start, end));
        from = end;
    }
    spans
}

/// The end of the action whose body starts at `body` (just after `{{`): after its `}}`, or the
/// end of the text when it is not closed.
fn action_end(text: &str, body: usize) -> usize {
    let rest = &text[body..];
    let inner = rest.trim_start_matches('-').trim_start();
    if inner.starts_with("/*") {
        let comment_at = body + (rest.len() - inner.len());
        return match text[comment_at..].find("*/") {
            Some(close) => closing_braces(text, comment_at + close + 2),
            None => text.len(),
        };
    }
    let bytes = text.as_bytes();
    let mut i = body;
    while i < bytes.len() {
        match bytes[i] {
            b'}' if bytes.get(i + 1) == Some(&b'}') => return i + 2,
            quote @ (b'"' | b'\'' | b'`') => i = string_end(bytes, i, quote),
            _ => i += 1,
        }
    }
    text.len()
}

/// After a comment's `*/`: past the `}}` that closes it (blanks and a trim marker may come first).
fn closing_braces(text: &str, from: usize) -> usize {
    let rest = &text[from..];
    let trimmed = rest.trim_start().trim_start_matches('-');
    match trimmed.strip_prefix("}}") {
        Some(after) => text.len() - after.len(),
        None => from,
    }
}

/// The index after the string that opens with `quote` at `open`; a raw string (`` ` ``) has no
/// escapes, the others end at the line's end when unclosed (the lexer's error; the action goes on).
fn string_end(bytes: &[u8], open: usize, quote: u8) -> usize {
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote != b'`' => i += 2,
            b'\n' if quote != b'`' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// For each action, whether it shares its lines with nothing but blanks and other actions. Actions
/// whose lines overlap form one group that is alone or not as a whole; linear in the text.
fn alone_flags(text: &str, spans: &[(usize, usize)]) -> Vec<bool> {
    let mut flags = vec![false; spans.len()];
    let mut first = 0;
    while first < spans.len() {
        let line_start = text[..spans[first].0].rfind('\n').map_or(0, |n| n + 1);
        let mut last = first;
        let mut line_end = line_end_after(text, spans[first].1);
        while let Some(next) = spans.get(last + 1).filter(|next| next.0 < line_end) {
            last += 1;
            // Only an action running past the line's end moves it (no rescan per action).
            if next.1 > line_end {
                line_end = line_end_after(text, next.1);
            }
        }
        let group = &spans[first..=last];
        let mut at = line_start;
        let mut alone = true;
        for &(start, end) in group {
            alone &= text[at..start].trim().is_empty();
            at = end;
        }
        alone &= text[at.min(line_end)..line_end].trim().is_empty();
        flags[first..=last].fill(alone);
        first = last + 1;
    }
    flags
}

/// The end of the line `at` is on (its line break, or the end of the text).
fn line_end_after(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |n| at + n)
}

/// Text/template's keywords that write nothing themselves.
const CONTROL_WORDS: &[&str] = &[
    "if", "else", "end", "range", "with", "define", "block", "break", "continue",
];

/// What the action `source` (from `{{` to `}}`) does.
fn kind_of(source: &str) -> ActionKind {
    let body = source
        .trim_start_matches('{')
        .trim_start_matches('-')
        .trim();
    if body.starts_with("/*") {
        return ActionKind::Comment;
    }
    let first = body
        .split(|c: char| c.is_whitespace() || c == '}')
        .next()
        .unwrap_or("");
    let declares = first.starts_with('$') && {
        let after = body[first.len()..].trim_start();
        after.starts_with(":=") || (after.starts_with('=') && !after.starts_with("=="))
    };
    if CONTROL_WORDS.contains(&first) || declares {
        ActionKind::Control
    } else {
        ActionKind::Output
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(text: &str) -> String {
        mask(text).text
    }

    #[test]
    fn an_action_alone_on_its_line_becomes_blanks() {
        let text = "a:\n  {{- include \"x\" . | nindent 2 }}\nb: 1\n";
        let out = mask(text);
        assert_eq!(out.text.len(), text.len());
        assert_eq!(out.text, format!("a:\n{}\nb: 1\n", " ".repeat(34)));
        assert_eq!(out.actions.len(), 1);
        assert!(out.actions[0].alone);
        assert_eq!(out.actions[0].kind, ActionKind::Output);
    }

    #[test]
    fn an_inline_action_becomes_a_word() {
        assert_eq!(
            masked("name: {{ .Release.Name }}-x\n"),
            format!("name: {}-x\n", "_".repeat("{{ .Release.Name }}".len()))
        );
        assert_eq!(masked("k: \"{{ .V }}\"\n"), "k: \"________\"\n");
    }

    #[test]
    fn braces_inside_strings_do_not_close_the_action() {
        let text = "k: {{ printf \"}}\" `}}` '}' }}x\n";
        let out = mask(text);
        assert_eq!(out.actions.len(), 1);
        assert_eq!(out.text, format!("k: {}x\n", "_".repeat(text.len() - 5)));
    }

    #[test]
    fn comments_and_controls_are_recognised() {
        let text = "{{/* a }} b */}}\n{{- if .X }}\n{{ $v := 1 }}\n{{- end -}}\n{{ .Y }}\n";
        let kinds: Vec<_> = mask(text).actions.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [
                ActionKind::Comment,
                ActionKind::Control,
                ActionKind::Control,
                ActionKind::Control,
                ActionKind::Output
            ]
        );
        assert!(masked(text).trim().is_empty());
    }

    #[test]
    fn a_control_action_among_text_becomes_blanks() {
        let text = "- {{- if .A }}\n  image: x\n";
        assert_eq!(masked(text), format!("- {}\n  image: x\n", " ".repeat(12)));
    }

    #[test]
    fn a_multi_line_action_keeps_its_line_breaks() {
        let text = "k: {{ include \"x\"\n  (dict) }}\nz: 1\n";
        assert_eq!(
            masked(text),
            format!("k: {}\n{}\nz: 1\n", "_".repeat(14), " ".repeat(11))
        );
    }

    #[test]
    fn an_unclosed_action_runs_to_the_end() {
        let out = mask("a: 1\nb: {{ .X \nc");
        assert_eq!(out.text, "a: 1\nb: ______\n ");
        assert_eq!(out.actions.len(), 1);
    }

    proptest::proptest! {
        /// Any text: the same length, line breaks where they were, and outside the actions
        /// every byte unchanged.
        #[test]
        fn masking_keeps_every_position(text in "([-{}/*'\"`\\\\ a-z:.|$=\n]|é|\\{\\{|\\}\\}){0,80}") {
            let out = mask(&text);
            proptest::prop_assert_eq!(out.text.len(), text.len());
            let inside = |i: usize| out.actions.iter().any(|a| {
                usize::from(a.range.start()) <= i && i < usize::from(a.range.end())
            });
            for (i, (a, b)) in text.bytes().zip(out.text.bytes()).enumerate() {
                proptest::prop_assert!(a == b || (inside(i) && a != b'\n' && b.is_ascii()));
            }
        }
    }

    #[test]
    fn several_actions_alone_on_one_line() {
        let out = mask("{{- if .A }}{{ .B }}\n");
        assert!(out.actions.iter().all(|a| a.alone));
    }
}
