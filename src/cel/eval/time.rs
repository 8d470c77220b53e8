//! Timestamps and durations: RFC 3339 parsing and printing, Go duration syntax (`1h2m3.5s`),
//! range checks (timestamps 0001-01-01 … 9999-12-31, durations within Go's `time.Duration`),
//! arithmetic, and calendar accessors in UTC, fixed offsets or IANA time zones.

use jiff::tz::{Offset, TimeZone};

use super::value::{Duration, ErrorKind, Timestamp, Value};

/// Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
const MIN_SECONDS: i64 = -62_135_596_800;
const MAX_SECONDS: i64 = 253_402_300_799;

fn range_error() -> Value {
    Value::error(ErrorKind::Overflow, "timestamp out of range")
}

/// A timestamp value, range-checked.
pub fn timestamp_value(t: Timestamp) -> Value {
    let s = t.as_second();
    let below = s < MIN_SECONDS || (s == MIN_SECONDS && t.subsec_nanosecond() < 0);
    if below || s > MAX_SECONDS {
        return range_error();
    }
    Value::Timestamp(t)
}

/// A timestamp from seconds and nanoseconds since the epoch.
pub fn from_parts(seconds: i64, nanos: i32) -> Value {
    match Timestamp::new(seconds, nanos) {
        Ok(t) => timestamp_value(t),
        Err(_) => range_error(),
    }
}

/// `timestamp('2009-02-13T23:31:30Z')`.
pub fn parse_timestamp(text: &str) -> Value {
    // RFC 3339 requires the `T`/`Z` forms Go's parser takes; jiff also takes them.
    match text.parse::<Timestamp>() {
        Ok(t) => timestamp_value(t),
        Err(e) => Value::error(
            ErrorKind::InvalidArgument,
            format!("timestamp conversion error: {e}"),
        ),
    }
}

/// RFC 3339 with nanoseconds trimmed of trailing zeros, as Go's `RFC3339Nano`.
pub fn format_timestamp(t: Timestamp) -> String {
    let dt = t.to_zoned(TimeZone::UTC).datetime();
    let mut out = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second()
    );
    let nanos = dt.subsec_nanosecond();
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('Z');
    out
}

/// `t + d` (nanoseconds), range-checked.
pub fn add(t: Timestamp, nanos: i64) -> Value {
    let total = i128::from(t.as_second()) * 1_000_000_000
        + i128::from(t.subsec_nanosecond())
        + i128::from(nanos);
    let seconds = total.div_euclid(1_000_000_000);
    let sub = total.rem_euclid(1_000_000_000);
    match (i64::try_from(seconds), i32::try_from(sub)) {
        (Ok(s), Ok(n)) => from_parts(s, n),
        _ => range_error(),
    }
}

/// `a - b` for timestamps: a duration, overflow-checked.
pub fn difference(a: Timestamp, b: Timestamp) -> Value {
    let nanos = |t: Timestamp| {
        i128::from(t.as_second()) * 1_000_000_000 + i128::from(t.subsec_nanosecond())
    };
    match i64::try_from(nanos(a) - nanos(b)) {
        Ok(n) => Value::Duration(Duration { nanos: n }),
        Err(_) => Value::overflow(),
    }
}

/// `duration('1h2m3.5s')`: Go's `time.ParseDuration` syntax.
pub fn parse_duration(text: &str) -> Value {
    match go_duration(text) {
        Some(n) => Value::Duration(Duration { nanos: n }),
        None => Value::error(
            ErrorKind::InvalidArgument,
            format!("duration conversion error: invalid duration {text:?}"),
        ),
    }
}

fn unit_nanos(unit: &str) -> Option<i128> {
    Some(match unit {
        "ns" => 1,
        "us" | "µs" | "μs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

fn go_duration(text: &str) -> Option<i64> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(num_end);
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_end);
        total = total.checked_add(scaled_number(number, unit_nanos(unit)?)?)?;
        rest = next;
    }
    let signed = if negative { -total } else { total };
    i64::try_from(signed).ok()
}

/// `12.5` × unit, exactly (fraction digits beyond nanoseconds are dropped, as Go does).
fn scaled_number(number: &str, unit: i128) -> Option<i128> {
    let (int_part, frac_part) = number.split_once('.').unwrap_or((number, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let whole: i128 = if int_part.is_empty() {
        0
    } else {
        int_part.parse().ok()?
    };
    let mut value = whole.checked_mul(unit)?;
    let mut scale = unit;
    for digit in frac_part.bytes() {
        scale /= 10;
        value += i128::from(digit - b'0') * scale;
    }
    Some(value)
}

/// `string(duration)`: seconds with the shortest fraction, then `s` (cel-go's form).
pub fn format_duration(d: Duration) -> String {
    let sign = if d.nanos < 0 { "-" } else { "" };
    let abs = d.nanos.unsigned_abs();
    let (secs, nanos) = (abs / 1_000_000_000, abs % 1_000_000_000);
    if nanos == 0 {
        return format!("{sign}{secs}s");
    }
    let frac = format!("{nanos:09}");
    format!("{sign}{secs}.{}s", frac.trim_end_matches('0'))
}

/// A time zone from cel-go's forms: IANA names, `UTC`, or a `±HH:MM` offset.
fn zone(name: &str) -> Option<TimeZone> {
    if let Some(rest) = name.strip_prefix('+').or_else(|| name.strip_prefix('-')) {
        let (h, m) = rest.split_once(':')?;
        let seconds = h.parse::<i32>().ok()? * 3600 + m.parse::<i32>().ok()? * 60;
        let seconds = if name.starts_with('-') {
            -seconds
        } else {
            seconds
        };
        return Some(TimeZone::fixed(Offset::from_seconds(seconds).ok()?));
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return zone(&format!("+{name}"));
    }
    if name.eq_ignore_ascii_case("utc") {
        return Some(TimeZone::UTC);
    }
    TimeZone::get(name).ok()
}

/// A timestamp accessor (`getHours`, `getDayOfWeek`, …) in UTC or the named zone.
pub fn timestamp_accessor(function: &str, t: Timestamp, tz: Option<&str>) -> Value {
    let tz = match tz {
        None => TimeZone::UTC,
        Some(name) => match zone(name) {
            Some(z) => z,
            None => {
                return Value::error(
                    ErrorKind::InvalidArgument,
                    format!("unknown time zone {name:?}"),
                );
            }
        },
    };
    let dt = t.to_zoned(tz).datetime();
    let v = match function {
        "getFullYear" => i64::from(dt.year()),
        "getMonth" => i64::from(dt.month()) - 1,
        "getDayOfYear" => i64::from(dt.day_of_year()) - 1,
        "getDayOfMonth" => i64::from(dt.day()) - 1,
        "getDate" => i64::from(dt.day()),
        "getDayOfWeek" => i64::from(dt.weekday().to_sunday_zero_offset()),
        "getHours" => i64::from(dt.hour()),
        "getMinutes" => i64::from(dt.minute()),
        "getSeconds" => i64::from(dt.second()),
        "getMilliseconds" => i64::from(dt.subsec_nanosecond() / 1_000_000),
        _ => return Value::no_overload(),
    };
    Value::Int(v)
}

/// A duration accessor: totals for hours, minutes and seconds; the millisecond component.
pub fn duration_accessor(function: &str, d: Duration) -> Value {
    let n = d.nanos;
    let v = match function {
        "getHours" => n / 3_600_000_000_000,
        "getMinutes" => n / 60_000_000_000,
        "getSeconds" => n / 1_000_000_000,
        "getMilliseconds" => (n / 1_000_000) % 1_000,
        _ => return Value::no_overload(),
    };
    Value::Int(v)
}
