//! `kubernetes.NamedFormat`: `format.named(name)`, the `format.<name>()` constants and
//! `validate(string)`, which gives `None` for a valid string and otherwise upstream's messages.
//! The OpenAPI formats (`uuid`, `byte`, `date`, `datetime`) follow kube-openapi's `strfmt`
//! checks; `uri` reports Go's `url.ParseRequestURI` error.

mod names;
#[cfg(test)]
mod tests;

use super::url::parse_request_uri;

/// One of the named formats. CEL equality compares names, so `PartialEq` is enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NamedFormat {
    /// `format.dns1123Label()`.
    Dns1123Label,
    /// `format.dns1123Subdomain()`.
    Dns1123Subdomain,
    /// `format.dns1035Label()`.
    Dns1035Label,
    /// `format.qualifiedName()`.
    QualifiedName,
    /// `format.dns1123LabelPrefix()`.
    Dns1123LabelPrefix,
    /// `format.dns1123SubdomainPrefix()`.
    Dns1123SubdomainPrefix,
    /// `format.dns1035LabelPrefix()`.
    Dns1035LabelPrefix,
    /// `format.labelValue()`.
    LabelValue,
    /// `format.uri()`.
    Uri,
    /// `format.uuid()`.
    Uuid,
    /// `format.byte()`.
    Byte,
    /// `format.date()`.
    Date,
    /// `format.datetime()`.
    Datetime,
}

/// Every format with its CEL name (`format.<name>()` and `format.named("<name>")`).
pub const ALL: [(&str, NamedFormat); 13] = [
    ("dns1123Label", NamedFormat::Dns1123Label),
    ("dns1123Subdomain", NamedFormat::Dns1123Subdomain),
    ("dns1035Label", NamedFormat::Dns1035Label),
    ("qualifiedName", NamedFormat::QualifiedName),
    ("dns1123LabelPrefix", NamedFormat::Dns1123LabelPrefix),
    (
        "dns1123SubdomainPrefix",
        NamedFormat::Dns1123SubdomainPrefix,
    ),
    ("dns1035LabelPrefix", NamedFormat::Dns1035LabelPrefix),
    ("labelValue", NamedFormat::LabelValue),
    ("uri", NamedFormat::Uri),
    ("uuid", NamedFormat::Uuid),
    ("byte", NamedFormat::Byte),
    ("date", NamedFormat::Date),
    ("datetime", NamedFormat::Datetime),
];

/// `format.named(name)`: the format, or `None` (CEL `optional.none()`).
pub fn named(name: &str) -> Option<NamedFormat> {
    ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

const UUID_PATTERN: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
const DATE_TIME_PATTERN: &str =
    "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";

impl NamedFormat {
    /// The CEL name (`dns1123Label`, …).
    pub fn cel_name(self) -> &'static str {
        ALL.iter().find(|(_, f)| *f == self).map_or("", |(n, _)| n)
    }

    /// `MaxRegexSize`, which the cost model charges `validate` with.
    pub fn max_regex_size(self) -> usize {
        use NamedFormat::*;
        match self {
            Dns1123Label | Dns1035Label | Dns1123LabelPrefix | Dns1035LabelPrefix => 30,
            Dns1123Subdomain | QualifiedName | Dns1123SubdomainPrefix => 60,
            LabelValue => 40,
            Uri => 1103,
            Uuid => UUID_PATTERN.len(),
            Byte => 84,
            Date | Datetime => DATE_TIME_PATTERN.len(),
        }
    }

    /// `f.validate(s)`: `None` when valid, else the messages (CEL `optional.of(list)`).
    pub fn validate(self, s: &str) -> Option<Vec<String>> {
        use NamedFormat::*;
        let b = s.as_bytes();
        let one = |ok: bool, msg: &str| if ok { Vec::new() } else { vec![msg.to_owned()] };
        let errs = match self {
            Dns1123Label => names::dns1123_label(b),
            Dns1123Subdomain => names::dns1123_subdomain(b),
            Dns1035Label => names::dns1035_label(b),
            QualifiedName => names::qualified_name(b),
            Dns1123LabelPrefix => names::dns1123_label(&names::mask_trailing_dash(b)),
            Dns1123SubdomainPrefix => names::dns1123_subdomain(&names::mask_trailing_dash(b)),
            Dns1035LabelPrefix => names::dns1035_label(&names::mask_trailing_dash(b)),
            LabelValue => names::label_value(b),
            Uri => parse_request_uri(s).err().into_iter().collect(),
            Uuid => one(is_uuid(b), "does not match the UUID format"),
            Byte => one(is_base64(b), "invalid base64"),
            Date => one(is_date(b), "invalid date"),
            Datetime => one(is_date_time(s), "invalid datetime"),
        };
        (!errs.is_empty()).then_some(errs)
    }
}

/// The UUID pattern: hex groups 8-4-4-4-12, each dash optional, any case.
fn is_uuid(s: &[u8]) -> bool {
    let mut rest = s;
    for (i, len) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            rest = rest.strip_prefix(b"-").unwrap_or(rest);
        }
        if rest.len() < len || !rest[..len].iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        rest = &rest[len..];
    }
    rest.is_empty()
}

/// govalidator's base64 pattern: whole quads, padding only at the end, at least one quad.
fn is_base64(s: &[u8]) -> bool {
    let alpha = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    if s.is_empty() || !s.len().is_multiple_of(4) {
        return false;
    }
    let (body, last) = s.split_at(s.len() - 4);
    body.iter().all(alpha)
        && match last {
            [a, b, b'=', b'='] => alpha(a) && alpha(b),
            [a, b, c, b'='] => alpha(a) && alpha(b) && alpha(c),
            quad => quad.iter().all(alpha),
        }
}

/// `time.Parse("2006-01-02", s)`: four-digit year, two-digit month and day, day in month.
fn is_date(s: &[u8]) -> bool {
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |a, d| a * 10 + u32::from(d - b'0')))
    };
    if s.len() != 10 || s[4] != b'-' || s[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// strfmt's `IsDateTime`: lower-cased, split at `t`, a date, then `DateTimePattern` on the part
/// after the first `t` with hour ≤ 23, minute and second ≤ 59.
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date.as_bytes()) {
        return false;
    }
    let b = time.as_bytes();
    let two = |i: usize| b.get(i..i + 2).filter(|d| d.iter().all(u8::is_ascii_digit));
    let (Some(h), Some(m), Some(sec)) = (two(0), two(3), two(6)) else {
        return false;
    };
    if b[2] != b':' || b[5] != b':' || !time_tail(&time[8..]) {
        return false;
    }
    h <= b"23".as_slice() && m <= b"59".as_slice() && sec <= b"59".as_slice()
}

/// `(.[0-9]+)?(z|[+-][0-9]{2}:[0-9]{2})$`, where `.` is any character but a newline.
fn time_tail(rest: &str) -> bool {
    let zone = |z: &str| {
        let b = z.as_bytes();
        z == "z"
            || b.len() == 6
                && matches!(b[0], b'+' | b'-')
                && b[1..3].iter().all(u8::is_ascii_digit)
                && b[3] == b':'
                && b[4..6].iter().all(u8::is_ascii_digit)
    };
    if zone(rest) {
        return true;
    }
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if c != '\n' => {
            let after = chars.as_str();
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && zone(&after[digits..])
        }
        _ => false,
    }
}
