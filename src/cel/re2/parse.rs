//! The parser of Go's `regexp/syntax` (`parse.go`, Perl flags as `regexp.Compile` sets them): the
//! same syntax accepted, the same refused, with Go's error code and offending text. It builds a
//! small tree for `emit`; errors are found in the same left-to-right order as Go's parser.

use std::fmt;

use super::names::{self, ClassName};

/// Go's `maxRepeat`: the largest count in `x{n,m}`, and of the product of nested counts.
const MAX_REPEAT: u32 = 1000;
/// Go's `maxHeight`: the deepest parse tree.
const MAX_HEIGHT: usize = 1000;
/// Go's `maxSize`: 128 MB of 40-byte instructions.
const MAX_SIZE: u64 = (128 << 20) / 40;

/// A pattern Go refuses: `error parsing regexp: <code>: `<text>``.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Go's `ErrorCode` text (`missing closing )`, `invalid escape sequence`, …).
    pub code: &'static str,
    /// The offending part of the pattern, as Go quotes it.
    pub text: String,
}

impl Error {
    fn new(code: &'static str, text: &str) -> Error {
        Error {
            code,
            text: text.to_string(),
        }
    }

    /// `ErrNestingDepth` for the whole pattern.
    pub(super) fn too_deep(pattern: &str) -> Error {
        Error::new("expression nests too deeply", pattern)
    }

    /// `ErrLarge` for the whole pattern.
    pub(super) fn too_large(pattern: &str) -> Error {
        Error::new("expression too large", pattern)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.text)
    }
}

/// One member of a bracket class (or a class escape outside one).
#[derive(Clone, Debug)]
pub(super) enum ClassItem {
    /// `lo-hi` (a single character is `c-c`).
    Range(char, char),
    /// A Perl or POSIX ASCII group (`\d`, `[:alpha:]`), maybe negated.
    Ascii(&'static [(char, char)], bool),
    /// A Unicode class (`\pL`, `\p{Greek}`), maybe negated.
    Unicode(ClassName, bool),
}

/// A node of the parse tree; flags are resolved into the nodes (`fold`, line or text anchors,
/// greediness), so emitting needs no flag state.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Empty,
    Literal(char, bool),
    Class {
        items: Vec<ClassItem>,
        negated: bool,
        fold: bool,
    },
    AnyChar,
    AnyCharNotNl,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture(Box<Node>),
    Repeat {
        min: u32,
        max: Option<u32>,
        greedy: bool,
        /// Written `{n,m}` (Go's `OpRepeat`), as opposed to `*`, `+`, `?`.
        counted: bool,
        sub: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
}

#[derive(Clone, Copy, Default)]
struct Flags {
    fold: bool,
    multi_line: bool,
    dot_nl: bool,
    non_greedy: bool,
}

/// Parses `pattern` as Go's `regexp.Compile` does.
pub(super) fn parse(pattern: &str) -> Result<Node, Error> {
    let mut parser = Parser {
        whole: pattern,
        at: 0,
        flags: Flags::default(),
        open: vec![Group::new(Flags::default(), false)],
        last_repeat: None,
    };
    let tree = parser.run()?;
    if height(&tree) > MAX_HEIGHT {
        return Err(Error::too_deep(pattern));
    }
    if size(&tree) > MAX_SIZE {
        return Err(Error::too_large(pattern));
    }
    Ok(tree)
}

/// A repetition's minimum (`None`: too big to read), maximum (`None`: unbounded), and whether it
/// was written as a count.
type Bounds = (Option<u32>, Option<u32>, bool);

/// A group being parsed (the whole pattern is the outermost): its finished alternatives and the
/// items of the current one. An explicit stack, as Go's parser keeps, so nesting costs no
/// recursion.
struct Group {
    /// The flags to restore at its `)`.
    saved: Flags,
    capture: bool,
    branches: Vec<Node>,
    items: Vec<Node>,
}

impl Group {
    fn new(saved: Flags, capture: bool) -> Group {
        Group {
            saved,
            capture,
            branches: Vec::new(),
            items: Vec::new(),
        }
    }

    fn end_branch(&mut self) {
        let mut items = std::mem::take(&mut self.items);
        self.branches.push(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(items),
        });
    }

    fn finish(mut self) -> Node {
        self.end_branch();
        let mut branches = self.branches;
        let inner = if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alternate(branches)
        };
        if self.capture {
            Node::Capture(Box::new(inner))
        } else {
            inner
        }
    }
}

struct Parser<'a> {
    whole: &'a str,
    at: usize,
    flags: Flags,
    /// Open groups, innermost last; never empty.
    open: Vec<Group>,
    /// Where the previous token began, if it was a repetition operator (Go's "a**" check).
    last_repeat: Option<usize>,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.whole[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.rest().as_bytes().get(n).copied()
    }

    /// Consumes and returns the next character.
    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn items(&mut self) -> &mut Vec<Node> {
        let last = self.open.len() - 1;
        &mut self.open[last].items
    }

    /// Go's main loop: one token at a time onto the innermost open group.
    fn run(&mut self) -> Result<Node, Error> {
        while let Some(c) = self.peek() {
            let start = self.at;
            if self.repetition()? {
                self.last_repeat = Some(start);
                continue;
            }
            self.last_repeat = None;
            match c {
                '|' => {
                    self.at += 1;
                    if let Some(group) = self.open.last_mut() {
                        group.end_branch();
                    }
                }
                ')' => self.close_group()?,
                _ => self.atom()?,
            }
        }
        if self.open.len() > 1 {
            return Err(Error::new("missing closing )", self.whole));
        }
        Ok(self.open.pop().map_or(Node::Empty, Group::finish))
    }

    fn open_group(&mut self, saved: Flags, capture: bool) -> Result<(), Error> {
        if self.open.len() > MAX_HEIGHT {
            return Err(Error::new("expression nests too deeply", self.whole));
        }
        self.open.push(Group::new(saved, capture));
        Ok(())
    }

    fn close_group(&mut self) -> Result<(), Error> {
        if self.open.len() < 2 {
            return Err(Error::new("unexpected )", self.whole));
        }
        self.at += 1;
        let Some(group) = self.open.pop() else {
            return Ok(());
        };
        self.flags = group.saved;
        let node = group.finish();
        self.items().push(node);
        Ok(())
    }

    /// A repetition operator applied to the last item, if one starts here.
    fn repetition(&mut self) -> Result<bool, Error> {
        let start = self.at;
        let (min, max, counted) = match self.peek() {
            Some('*') => (Some(0), None, false),
            Some('+') => (Some(1), None, false),
            Some('?') => (Some(0), Some(1), false),
            Some('{') => match self.counted_repeat() {
                Some(bounds) => bounds,
                None => return Ok(false),
            },
            _ => return Ok(false),
        };
        if !counted {
            self.at += 1;
        }
        let op_text = &self.whole[start..self.at];
        if counted && !valid_bounds(min, max) {
            return Err(Error::new("invalid repeat count", op_text));
        }
        let mut greedy = !self.flags.non_greedy;
        if self.peek() == Some('?') {
            self.at += 1;
            greedy = !greedy;
        }
        if let Some(first) = self.last_repeat {
            let text = &self.whole[first..self.at];
            return Err(Error::new("invalid nested repetition operator", text));
        }
        let Some(sub) = self.items().pop() else {
            let text = &self.whole[start..self.at];
            return Err(Error::new("missing argument to repetition operator", text));
        };
        let (min, max) = (min.unwrap_or(0), max);
        let node = Node::Repeat {
            min,
            max,
            greedy,
            counted,
            sub: Box::new(sub),
        };
        let nested_too_big = counted
            && (min >= 2 || max.is_some_and(|m| m >= 2))
            && !repeat_is_valid(&node, MAX_REPEAT);
        if nested_too_big {
            let text = &self.whole[start..self.at];
            return Err(Error::new("invalid repeat count", text));
        }
        self.items().push(node);
        Ok(true)
    }

    /// `{n}`, `{n,}` or `{n,m}` (Go's `parseRepeat`); `None` leaves `{` a literal. The minimum
    /// is `None` when a count is too big to read, which `valid_bounds` refuses as Go does.
    fn counted_repeat(&mut self) -> Option<Bounds> {
        let s = self.rest().as_bytes();
        let mut i = 1;
        let (mut min, used) = parse_int(s.get(i..)?)?;
        i += used;
        let max = if *s.get(i)? == b',' {
            i += 1;
            if *s.get(i)? == b'}' {
                None
            } else {
                let (max, used) = parse_int(s.get(i..)?)?;
                i += used;
                if max.is_none() {
                    min = None;
                }
                Some(max.unwrap_or(0))
            }
        } else {
            Some(min.unwrap_or(0))
        };
        if *s.get(i)? != b'}' {
            return None;
        }
        self.at += i + 1;
        Some((min, max, true))
    }

    /// One atom pushed onto `items`: a literal, class, group, anchor or escape. A bare flag
    /// group and an empty `\Q\E` push nothing; `\Q…\E` pushes one literal per character.
    fn atom(&mut self) -> Result<(), Error> {
        let flags = self.flags;
        let Some(c) = self.next() else {
            return Ok(());
        };
        let node = match c {
            '(' => return self.group(),
            '^' if flags.multi_line => Some(Node::BeginLine),
            '^' => Some(Node::BeginText),
            '$' if flags.multi_line => Some(Node::EndLine),
            '$' => Some(Node::EndText),
            '.' if flags.dot_nl => Some(Node::AnyChar),
            '.' => Some(Node::AnyCharNotNl),
            '[' => {
                self.at -= 1;
                Some(self.class()?)
            }
            '\\' if self.peek() == Some('Q') => {
                let quoted = self.quoted();
                self.items().extend(quoted);
                None
            }
            '\\' => {
                self.at -= 1;
                Some(self.escape_atom()?)
            }
            c => Some(Node::Literal(c, flags.fold)),
        };
        self.items().extend(node);
        Ok(())
    }

    /// After `(`: a capture, a named capture, a non-capturing group or a flag change.
    fn group(&mut self) -> Result<(), Error> {
        let open = self.at - 1;
        if self.peek() == Some('?') {
            if self.named_capture(open)? {
                return Ok(());
            }
            return self.perl_flags(open);
        }
        self.open_group(self.flags, true)
    }

    /// `(?P<name>` or `(?<name>`: names are `[A-Za-z0-9_]+`.
    fn named_capture(&mut self, open: usize) -> Result<bool, Error> {
        let t = &self.whole[open..];
        let bytes = t.as_bytes();
        let with_p = bytes.len() > 4 && bytes[2] == b'P' && bytes[3] == b'<';
        let bare = bytes.len() > 3 && bytes[2] == b'<';
        if !with_p && !bare {
            return Ok(false);
        }
        let Some(end) = t.find('>') else {
            return Err(Error::new("invalid named capture", t));
        };
        let name = &t[if with_p { 4 } else { 3 }..end];
        if name.is_empty() || !name.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()) {
            return Err(Error::new("invalid named capture", &t[..=end]));
        }
        self.at = open + end + 1;
        self.open_group(self.flags, true)?;
        Ok(true)
    }

    /// `(?flags)`, `(?flags:…)`, `(?:…)`: flags `i m s U`, `-` to clear.
    fn perl_flags(&mut self, open: usize) -> Result<(), Error> {
        self.at = open + 2;
        let saved = self.flags;
        let mut flags = self.flags;
        let mut negate = false;
        let mut saw_flag = false;
        while let Some(c) = self.next() {
            let on = !negate;
            match c {
                'i' => flags.fold = on,
                'm' => flags.multi_line = on,
                's' => flags.dot_nl = on,
                'U' => flags.non_greedy = on,
                '-' if !negate => {
                    negate = true;
                    saw_flag = false;
                    continue;
                }
                ':' | ')' if !negate || saw_flag => {
                    self.flags = flags;
                    if c == ')' {
                        return Ok(());
                    }
                    return self.open_group(saved, false);
                }
                _ => break,
            }
            saw_flag = true;
        }
        let text = &self.whole[open..self.at];
        Err(Error::new("invalid or unsupported Perl syntax", text))
    }

    /// A backslash outside a class: an assertion, `\Q…\E`, a class escape or a character.
    fn escape_atom(&mut self) -> Result<Node, Error> {
        let start = self.at;
        let fold = self.flags.fold;
        let simple = match self.peek_at(1) {
            Some(b'A') => Some(Node::BeginText),
            Some(b'z') => Some(Node::EndText),
            Some(b'b') => Some(Node::WordBoundary),
            Some(b'B') => Some(Node::NoWordBoundary),
            Some(b'C') => return Err(Error::new("invalid escape sequence", "\\C")),
            _ => None,
        };
        if let Some(node) = simple {
            self.at += 2;
            return Ok(node);
        }
        if let Some(item) = self.class_escape()? {
            return Ok(Node::Class {
                items: vec![item],
                negated: false,
                fold,
            });
        }
        self.at = start;
        let c = self.escape()?;
        Ok(Node::Literal(c, fold))
    }

    /// After `\`, on `Q`: `\Q…\E` (or to the end), every character literal.
    fn quoted(&mut self) -> Vec<Node> {
        self.at += 1;
        let rest = self.rest();
        let (text, used) = match rest.find("\\E") {
            Some(end) => (&rest[..end], end + 2),
            None => (rest, rest.len()),
        };
        self.at += used;
        let fold = self.flags.fold;
        text.chars().map(|c| Node::Literal(c, fold)).collect()
    }

    /// `\pX`, `\p{Name}`, `\PX`, `\d \D \s \S \w \W` at the cursor, if one is there.
    fn class_escape(&mut self) -> Result<Option<ClassItem>, Error> {
        match self.peek_at(1) {
            Some(b'p' | b'P') => self.unicode_class().map(Some),
            Some(letter) => Ok(names::perl_group(letter).map(|(ranges, negated)| {
                self.at += 2;
                ClassItem::Ascii(ranges, negated)
            })),
            None => Ok(None),
        }
    }

    /// Go's `parseUnicodeClass`, with the cursor on the backslash.
    fn unicode_class(&mut self) -> Result<ClassItem, Error> {
        let s = self.rest();
        let mut negated = s.as_bytes()[1] == b'P';
        let after = &s[2..];
        let (seq, name) = match after.chars().next() {
            Some('{') => {
                let Some(end) = s.find('}') else {
                    return Err(Error::new("invalid character class range", s));
                };
                (&s[..=end], &s[3..end])
            }
            Some(c) => (&s[..2 + c.len_utf8()], &s[2..2 + c.len_utf8()]),
            None => (&s[..2], ""),
        };
        let name = match name.strip_prefix('^') {
            Some(inner) => {
                negated = !negated;
                inner
            }
            None => name,
        };
        let Some(class) = names::unicode_class(name) else {
            return Err(Error::new("invalid character class range", seq));
        };
        self.at += seq.len();
        Ok(ClassItem::Unicode(class, negated))
    }

    /// Go's `parseEscape`: a single escaped character, with the cursor on the backslash.
    fn escape(&mut self) -> Result<char, Error> {
        let start = self.at;
        self.at += 1;
        let Some(c) = self.next() else {
            return Err(Error::new("trailing backslash at end of expression", ""));
        };
        let invalid = |p: &Parser| Error::new("invalid escape sequence", &p.whole[start..p.at]);
        let is_octal = |b: Option<u8>| b.is_some_and(|b| (b'0'..=b'7').contains(&b));
        match c {
            '1'..='7' if !is_octal(self.peek_at(0)) => Err(invalid(self)),
            '0'..='7' => {
                let mut value = c as u32 - '0' as u32;
                for _ in 1..3 {
                    match self.peek_at(0) {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            self.at += 1;
                        }
                        _ => break,
                    }
                }
                Ok(char::from_u32(value).unwrap_or('\0'))
            }
            'x' => self.hex_escape().ok_or_else(|| invalid(self)),
            'a' => Ok('\u{7}'),
            'f' => Ok('\u{c}'),
            'n' => Ok('\n'),
            'r' => Ok('\r'),
            't' => Ok('\t'),
            'v' => Ok('\u{b}'),
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(c),
            _ => Err(invalid(self)),
        }
    }

    /// After `\x`: two hex digits or `{hex…}` up to U+10FFFF; `None` leaves the cursor where Go
    /// stopped reading, for the error text.
    fn hex_escape(&mut self) -> Option<char> {
        if self.peek()? == '{' {
            self.at += 1;
            let mut value: u32 = 0;
            let mut digits = 0;
            loop {
                let c = self.next()?;
                if c == '}' {
                    break;
                }
                value = value * 16 + c.to_digit(16)?;
                if value > 0x10FFFF {
                    return None;
                }
                digits += 1;
            }
            // Surrogates are not characters; Go would accept them but no string holds one.
            return (digits > 0).then(|| char::from_u32(value).unwrap_or('\u{FFFD}'));
        }
        let high = self.next()?.to_digit(16);
        let low = self.next()?.to_digit(16);
        char::from_u32(high? * 16 + low?)
    }

    /// Go's `parseClass`: `[…]` with ranges, escapes, `[:name:]`, `\p…` and Perl groups.
    fn class(&mut self) -> Result<Node, Error> {
        let whole_class = self.rest();
        let fold = self.flags.fold;
        self.at += 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            match self.peek() {
                None => return Err(Error::new("missing closing ]", whole_class)),
                Some(']') if !first => break,
                _ => {}
            }
            first = false;
            let posix = self.rest().starts_with("[:") && self.rest().len() > 2;
            if posix && let Some(item) = self.posix_class()? {
                items.push(item);
                continue;
            }
            if self.peek() == Some('\\')
                && let Some(item) = self.class_escape()?
            {
                items.push(item);
                continue;
            }
            let range_start = self.at;
            let lo = self.class_char(whole_class)?;
            let mut hi = lo;
            let rest = self.rest().as_bytes();
            if rest.len() >= 2 && rest[0] == b'-' && rest[1] != b']' {
                self.at += 1;
                hi = self.class_char(whole_class)?;
                if hi < lo {
                    let text = &self.whole[range_start..self.at];
                    return Err(Error::new("invalid character class range", text));
                }
            }
            items.push(ClassItem::Range(lo, hi));
        }
        self.at += 1;
        Ok(Node::Class {
            items,
            negated,
            fold,
        })
    }

    /// `[:alpha:]` and `[:^alpha:]`; `None` when there is no closing `:]`.
    fn posix_class(&mut self) -> Result<Option<ClassItem>, Error> {
        let rest = self.rest();
        let Some(end) = rest[2..].find(":]") else {
            return Ok(None);
        };
        let name = &rest[..end + 4];
        let Some((ranges, negated)) = names::posix_group(name) else {
            return Err(Error::new("invalid character class range", name));
        };
        self.at += name.len();
        Ok(Some(ClassItem::Ascii(ranges, negated)))
    }

    fn class_char(&mut self, whole_class: &str) -> Result<char, Error> {
        match self.peek() {
            None => Err(Error::new("missing closing ]", whole_class)),
            Some('\\') => self.escape(),
            Some(c) => {
                self.at += c.len_utf8();
                Ok(c)
            }
        }
    }
}

/// Go's `parseInt`: decimal digits without a leading zero; `None` when there are none. The
/// value is `None` (too big) from 1e8 on; the second element is the number of bytes read.
fn parse_int(s: &[u8]) -> Option<(Option<u32>, usize)> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || (digits >= 2 && s[0] == b'0') {
        return None;
    }
    let mut value: u32 = 0;
    for &d in &s[..digits] {
        if value >= 100_000_000 {
            return Some((None, digits));
        }
        value = value * 10 + u32::from(d - b'0');
    }
    Some((Some(value), digits))
}

/// `{n,m}` bounds Go accepts before looking at the nesting.
fn valid_bounds(min: Option<u32>, max: Option<u32>) -> bool {
    match (min, max) {
        (None, _) => false,
        (Some(min), _) if min > MAX_REPEAT => false,
        (_, Some(max)) if max > MAX_REPEAT => false,
        (Some(min), Some(max)) => min <= max,
        (Some(_), None) => true,
    }
}

/// Go's `repeatIsValid`: nested counted repetitions multiply to at most `n` copies.
fn repeat_is_valid(node: &Node, mut n: u32) -> bool {
    if let Node::Repeat {
        min,
        max,
        counted: true,
        ..
    } = node
    {
        let m = max.unwrap_or(*min);
        if max == &Some(0) {
            return true;
        }
        if m > n {
            return false;
        }
        n = n.checked_div(m).unwrap_or(n);
    }
    children(node).iter().all(|sub| repeat_is_valid(sub, n))
}

fn children(node: &Node) -> &[Node] {
    match node {
        Node::Capture(sub) | Node::Repeat { sub, .. } => std::slice::from_ref(sub),
        Node::Concat(items) | Node::Alternate(items) => items,
        _ => &[],
    }
}

/// The height of Go's tree: runs of literals are one node in Go, and a group is transparent.
fn height(node: &Node) -> usize {
    let below = children(node).iter().map(height).max().unwrap_or(0);
    match node {
        Node::Concat(items) if items.iter().all(|n| matches!(n, Node::Literal(..))) => 1,
        _ if below == 0 => 1,
        _ => below + 1,
    }
}

/// Go's `calcSize`: the estimated number of instructions.
fn size(node: &Node) -> u64 {
    let total = match node {
        Node::Literal(..) => 1,
        Node::Capture(sub) => 2 + size(sub),
        Node::Concat(items) => items.iter().map(size).sum(),
        Node::Alternate(items) => items.iter().map(size).sum::<u64>() + items.len() as u64 - 1,
        Node::Repeat { min, max, sub, .. } => {
            let sub = size(sub);
            match max {
                None if *min == 0 => 2 + sub,
                None => 1 + u64::from(*min) * sub,
                Some(max) => u64::from(*max) * sub + u64::from(max - min),
            }
        }
        _ => 1,
    };
    total.max(1)
}
