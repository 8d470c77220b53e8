//! Convenience accessors on the tree, for the layers that read it (policy model, IDE features).

use super::{Document, Entry, Node, NodeKind, Scalar, ScalarStyle, YamlFile};

impl YamlFile {
    /// Whether any document has a syntax error.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }
}

impl Document {
    /// The root if it is a mapping.
    pub fn root_mapping(&self) -> Option<&[Entry]> {
        self.root.as_ref()?.as_mapping()
    }
}

impl Entry {
    /// The key's text, if the key is a scalar.
    pub fn key_str(&self) -> Option<&str> {
        self.key.as_str()
    }
}

impl Node {
    /// The scalar, if this node is one.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.kind {
            NodeKind::Scalar(scalar) => Some(scalar),
            _ => None,
        }
    }

    /// The decoded text, if this node is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        self.as_scalar().map(|scalar| scalar.value.as_str())
    }

    /// The entries, if this node is a mapping.
    pub fn as_mapping(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Mapping(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items, if this node is a sequence.
    pub fn as_sequence(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Sequence(items) => Some(items),
            _ => None,
        }
    }

    /// The value of the first entry whose key is a scalar equal to `key`, if this is a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|entry| &entry.value)
    }

    /// The first entry whose key is a scalar equal to `key`, if this is a mapping.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.as_mapping()?
            .iter()
            .find(|entry| entry.key.as_str() == Some(key))
    }

    /// Whether this node is an untagged empty plain scalar (what the parser reports for nothing).
    pub(crate) fn is_empty_plain(&self) -> bool {
        self.tag.is_none()
            && self
                .as_scalar()
                .is_some_and(|s| s.value.is_empty() && s.style == ScalarStyle::Plain)
    }

    /// Whether this node is a null scalar (plain `""`, `~`, `null`, `Null`, `NULL`, or tagged `!!null`).
    pub fn is_null(&self) -> bool {
        match self.as_scalar() {
            Some(scalar) => {
                self.tag.as_deref() == Some("!!null") || (self.tag.is_none() && scalar.is_null())
            }
            None => false,
        }
    }

    /// What the node holds, in words for messages: `"null"`, `"boolean"`, `"integer"`, `"number"`,
    /// `"string"`, `"mapping"` or `"sequence"` (a plain scalar is typed by the YAML 1.2 core schema).
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Mapping(_) => "mapping",
            NodeKind::Sequence(_) => "sequence",
            NodeKind::Scalar(scalar) => match self.tag.as_deref() {
                Some("!!str") => "string",
                Some("!!null") => "null",
                Some("!!bool") => "boolean",
                Some("!!int") => "integer",
                Some("!!float") => "number",
                _ => scalar.kind_name(),
            },
        }
    }
}

impl Scalar {
    /// Whether the scalar is a plain null: empty, `~`, `null`, `Null` or `NULL`.
    pub fn is_null(&self) -> bool {
        self.style == ScalarStyle::Plain
            && matches!(self.value.as_str(), "" | "~" | "null" | "Null" | "NULL")
    }

    /// Whether the scalar is a plain boolean of the YAML 1.2 core schema.
    pub fn as_bool(&self) -> Option<bool> {
        if self.style != ScalarStyle::Plain {
            return None;
        }
        match self.value.as_str() {
            "true" | "True" | "TRUE" => Some(true),
            "false" | "False" | "FALSE" => Some(false),
            _ => None,
        }
    }

    /// The value as an integer if the scalar is a plain integer of the YAML 1.2 core schema
    /// (decimal, `0o` octal or `0x` hexadecimal).
    pub fn as_i64(&self) -> Option<i64> {
        if self.style != ScalarStyle::Plain {
            return None;
        }
        let v = self.value.as_str();
        let (negative, digits) = match v.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, v.strip_prefix('+').unwrap_or(v)),
        };
        let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
            (!negative && v == digits)
                .then(|| i64::from_str_radix(hex, 16).ok())
                .flatten()?
        } else if let Some(oct) = digits.strip_prefix("0o") {
            (!negative && v == digits)
                .then(|| i64::from_str_radix(oct, 8).ok())
                .flatten()?
        } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse::<i64>().ok()?
        } else {
            return None;
        };
        Some(if negative { -magnitude } else { magnitude })
    }

    /// Whether the scalar is a plain floating-point number of the YAML 1.2 core schema (integers excluded).
    pub fn is_float(&self) -> bool {
        if self.style != ScalarStyle::Plain || self.as_i64().is_some() {
            return false;
        }
        let v = self.value.trim_start_matches(['-', '+']);
        matches!(v, ".inf" | ".Inf" | ".INF")
            || matches!(self.value.as_str(), ".nan" | ".NaN" | ".NAN")
            || is_decimal(v)
    }

    /// Whether the scalar is a string (quoted, block, or plain text that is not a null, boolean or number).
    pub fn is_string(&self) -> bool {
        self.kind_name() == "string"
    }

    /// `"null"`, `"boolean"`, `"integer"`, `"number"` or `"string"`.
    pub fn kind_name(&self) -> &'static str {
        if self.style != ScalarStyle::Plain {
            "string"
        } else if self.is_null() {
            "null"
        } else if self.as_bool().is_some() {
            "boolean"
        } else if self.as_i64().is_some() {
            "integer"
        } else if self.is_float() {
            "number"
        } else {
            "string"
        }
    }
}

/// `[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?` with at least one digit before the exponent.
fn is_decimal(v: &str) -> bool {
    let (mantissa, exponent) = match v.find(['e', 'E']) {
        Some(at) => (v.get(..at).unwrap_or(""), v.get(at + 1..)),
        None => (v, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = digits(int) && digits(frac) && int.len() + frac.len() > 0;
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}
