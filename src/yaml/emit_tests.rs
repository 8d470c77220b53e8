//! A small YAML scalar emitter for the property test: writes a string in a given style (choosing
//! among equivalent spellings at random) and records, for every character of the string, the offset
//! of the source text that represents it.

use super::ScalarStyle;

/// A written scalar.
pub(super) struct Emitted {
    /// The scalar's source text, from its first character (quote, `|`, `>` or content).
    pub(super) text: String,
    /// For each character of the value, in order, the offset in `text` of its source.
    pub(super) offsets: Vec<usize>,
    /// Just past the source of the last character.
    pub(super) end: usize,
}

/// Where the scalar goes: the parent mapping's column and the line break in use.
pub(super) struct Context<'a> {
    pub(super) parent: usize,
    pub(super) newline: &'a str,
    /// Random bytes steering the choices between equivalent spellings.
    pub(super) choices: &'a [u8],
}

/// Writes `value` in `style` as a mapping value, or `None` if the style cannot express it.
pub(super) fn emit(value: &str, style: ScalarStyle, cx: &Context<'_>) -> Option<Emitted> {
    let mut w = Writer {
        text: String::new(),
        offsets: Vec::new(),
        end: 0,
        cx,
        next: 0,
    };
    let chars: Vec<char> = value.chars().collect();
    match style {
        ScalarStyle::Plain => w.flow(&chars, Quote::None)?,
        ScalarStyle::SingleQuoted => w.flow(&chars, Quote::Single)?,
        ScalarStyle::DoubleQuoted => w.flow(&chars, Quote::Double)?,
        ScalarStyle::Literal => w.block(&chars, true)?,
        ScalarStyle::Folded => w.block(&chars, false)?,
    }
    Some(Emitted {
        text: w.text,
        offsets: w.offsets,
        end: w.end,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

struct Writer<'a> {
    text: String,
    offsets: Vec<usize>,
    end: usize,
    cx: &'a Context<'a>,
    next: usize,
}

fn is_ws(c: Option<&char>) -> bool {
    matches!(c, Some(' ' | '\t'))
}

impl Writer<'_> {
    /// A random choice among `n`.
    fn choose(&mut self, n: u8) -> u8 {
        let byte = self
            .cx
            .choices
            .get(self.next % self.cx.choices.len().max(1))
            .copied()
            .unwrap_or(0);
        self.next += 1;
        byte % n.max(1)
    }

    /// Writes `s` as the source of one value character.
    fn char_source(&mut self, s: &str) {
        self.offsets.push(self.text.len());
        self.text.push_str(s);
        self.end = self.text.len();
    }

    /// Records the line break at `at` as the source of one value character.
    fn break_source(&mut self, at: usize) {
        self.offsets.push(at);
        self.end = at + self.cx.newline.len();
    }

    fn newline(&mut self) -> usize {
        let at = self.text.len();
        self.text.push_str(self.cx.newline);
        at
    }

    fn indent(&mut self, extra: usize) {
        self.text.push_str(&" ".repeat(self.cx.parent + 2 + extra));
    }

    fn flow(&mut self, chars: &[char], quote: Quote) -> Option<()> {
        if quote == Quote::None && !plain_ok(chars) {
            return None;
        }
        match quote {
            Quote::Single => self.text.push('\''),
            Quote::Double => self.text.push('"'),
            Quote::None => {}
        }
        let mut i = 0;
        let mut escape_next = false;
        while let Some(&c) = chars.get(i) {
            let (prev, next) = (
                i.checked_sub(1).and_then(|p| chars.get(p)),
                chars.get(i + 1),
            );
            if c == '\n' {
                let run = chars[i..].iter().take_while(|c| **c == '\n').count();
                let after = chars.get(i + run);
                let breakable = !is_ws(prev) && !is_ws(after);
                if quote == Quote::Double && (!breakable || self.choose(2) == 0) {
                    self.char_source("\\n");
                    i += 1;
                    continue;
                }
                if !breakable {
                    return None;
                }
                self.newline();
                for _ in 0..run {
                    if self.choose(2) == 0 {
                        self.text.push(' ');
                    }
                    let at = self.newline();
                    self.break_source(at);
                }
                let extra = usize::from(self.choose(2));
                self.indent(extra);
                i += run;
                continue;
            }
            let foldable = c == ' '
                && !escape_next
                && prev.is_some_and(|p| !is_ws(Some(p)) && *p != '\n')
                && next.is_some_and(|n| {
                    if quote == Quote::None {
                        n.is_alphanumeric()
                    } else {
                        !is_ws(Some(n)) && *n != '\n'
                    }
                });
            if foldable && self.choose(3) == 0 {
                let at = self.newline();
                self.break_source(at);
                let extra = usize::from(self.choose(2));
                self.indent(extra);
            } else if quote == Quote::Double {
                self.double_char(c, std::mem::take(&mut escape_next));
                if self.choose(6) == 0 && next.is_some_and(|n| *n != '\n') {
                    self.escaped_break();
                    escape_next = is_ws(next);
                }
            } else if quote == Quote::Single && c == '\'' {
                self.char_source("''");
            } else {
                self.char_source(c.encode_utf8(&mut [0; 4]));
            }
            i += 1;
        }
        match quote {
            Quote::Single => self.text.push('\''),
            Quote::Double => self.text.push('"'),
            Quote::None => {}
        }
        Some(())
    }

    /// One character inside double quotes, escaped or not.
    fn double_char(&mut self, c: char, force: bool) {
        let pick = if force { 0 } else { self.choose(3) };
        let escaped = match c {
            '"' => "\\\"".to_owned(),
            '\\' => "\\\\".to_owned(),
            '\t' if pick == 0 => "\\t".to_owned(),
            ' ' if pick == 0 => "\\ ".to_owned(),
            '/' if pick == 0 => "\\/".to_owned(),
            c if pick == 1 && (c as u32) < 0x100 => format!("\\x{:02x}", c as u32),
            c if pick == 1 && (c as u32) < 0x10000 => format!("\\u{:04X}", c as u32),
            c if pick == 1 => format!("\\U{:08x}", c as u32),
            c => c.to_string(),
        };
        self.char_source(&escaped);
    }

    /// A `\` line break inside double quotes (the caller escapes a white space character after
    /// it, since leading white space of a line is not content).
    fn escaped_break(&mut self) {
        self.text.push('\\');
        self.newline();
        let extra = usize::from(self.choose(2));
        self.indent(extra);
    }
}

impl Writer<'_> {
    fn block(&mut self, chars: &[char], literal: bool) -> Option<()> {
        if chars.first() == Some(&'\t') {
            return None;
        }
        let trailing = chars.iter().rev().take_while(|c| **c == '\n').count();
        let body = &chars[..chars.len() - trailing];
        let lines: Vec<&[char]> = if body.is_empty() {
            Vec::new()
        } else {
            body.split(|c| *c == '\n').collect()
        };
        let chomp = match (lines.is_empty(), trailing) {
            (_, 0) => "-",
            (false, 1) => "",
            _ => "+",
        };
        let first = lines.iter().find(|l| !l.is_empty());
        let indicator = first.is_some_and(|l| is_ws(l.first())) || self.choose(3) == 0;
        self.text.push(if literal { '|' } else { '>' });
        self.text.push_str(if indicator { "2" } else { "" });
        self.text.push_str(chomp);
        if self.choose(3) == 0 {
            self.text.push_str("  # comment");
        }
        self.newline();
        let normal = |l: &[char]| !l.is_empty() && !is_ws(l.first());
        for (k, line) in lines.iter().enumerate() {
            if !line.is_empty() {
                self.block_line(line, literal);
            } else if self.choose(2) == 0 {
                self.indent(0);
            }
            let at = self.newline();
            let next = lines
                .get(k + 1..)
                .and_then(|rest| rest.iter().find(|l| !l.is_empty()));
            if !literal && normal(line) && next.is_some_and(|n| normal(n)) {
                // Folding absorbs the break between two normal lines: the value's line feed is
                // written as an extra empty line.
                let extra = self.newline();
                self.break_source(extra);
            } else if k + 1 < lines.len() || trailing > 0 {
                self.break_source(at);
            }
        }
        for _ in 0..trailing.saturating_sub(usize::from(!lines.is_empty())) {
            let at = self.newline();
            self.break_source(at);
        }
        Some(())
    }

    fn block_line(&mut self, line: &[char], literal: bool) {
        self.indent(0);
        let starts_normal = !is_ws(line.first());
        for (i, &c) in line.iter().enumerate() {
            let prev = i.checked_sub(1).and_then(|p| line.get(p));
            let foldable = !literal
                && starts_normal
                && c == ' '
                && !is_ws(prev)
                && line.get(i + 1).is_some_and(|n| !is_ws(Some(n)));
            if foldable && self.choose(3) == 0 {
                let at = self.newline();
                self.break_source(at);
                self.indent(0);
            } else {
                self.char_source(c.encode_utf8(&mut [0; 4]));
            }
        }
    }
}

/// Whether a string can be a plain scalar (conservatively).
fn plain_ok(chars: &[char]) -> bool {
    let Some(first) = chars.first() else {
        return false;
    };
    let lines: Vec<&[char]> = chars.split(|c| *c == '\n').collect();
    let line_ok = |line: &&[char]| {
        line.is_empty()
            || (line.first().is_some_and(|c| c.is_alphanumeric())
                && !is_ws(line.last())
                && !line.contains(&'\t')
                && !line.windows(2).any(|w| w == [':', ' '] || w == [' ', '#'])
                && line.last() != Some(&':'))
    };
    first.is_alphanumeric() && chars.last().is_some_and(|c| *c != '\n') && lines.iter().all(line_ok)
}
