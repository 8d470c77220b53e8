//! Timestamps and durations: RFC 3339 parsing and printing, Go duration syntax (`1h2m3.5s`),
//! range checks (timestamps 0001-01-01 … 9999-12-31, durations within Go's `time.Duration`),
//! arithmetic, and calendar accessors in UTC, fixed offsets or IANA time zones.

use jiff::tz::{Offset, TimeZone};

use super::civil;
use super::value::{Duration, ErrorKind, Timestamp, Value};

/// cel-go's `errTimestampOverflow` (`common/types/err.go`), for conversions and arithmetic alike.
fn range_error() -> Value {
    Value::error(ErrorKind::Overflow, "timestamp overflow")
}

/// A timestamp from seconds and nanoseconds since the epoch, range-checked.
pub fn from_parts(seconds: i64, nanos: i64) -> Value {
    Timestamp::new(seconds, nanos)
        .map(Value::Timestamp)
        .unwrap_or_else(range_error)
}

/// `timestamp('2009-02-13T23:31:30Z')`: RFC 3339 as Go's `time.Parse` takes it, keeping the
/// offset written (`+01:00`) as Go's fixed zone.
pub fn parse_timestamp(text: &str) -> Value {
    match civil::parse_rfc3339(text) {
        Some((seconds, nanos, offset)) => match Timestamp::new(seconds, i64::from(nanos)) {
            Some(t) => Value::Timestamp(t.with_offset(offset)),
            None => range_error(),
        },
        None => conversion_error("google.protobuf.Timestamp"),
    }
}

/// RFC 3339 with nanoseconds trimmed of trailing zeros, in the timestamp's zone, as Go's
/// `t.Format(time.RFC3339Nano)` (`string(t)`).
pub fn format_timestamp(t: Timestamp) -> String {
    civil::format_rfc3339(t.seconds, t.nanos, t.offset)
}

/// [`format_timestamp`] in UTC, as cel-go prints a timestamp value in messages (`format`).
pub fn format_timestamp_utc(t: Timestamp) -> String {
    civil::format_rfc3339(t.seconds, t.nanos, 0)
}

/// `t + d` (nanoseconds), range-checked, in `t`'s zone (Go's `Time.Add` keeps the location).
pub fn add(t: Timestamp, nanos: i64) -> Value {
    let total = t.total_nanos() + i128::from(nanos);
    let seconds = total.div_euclid(1_000_000_000);
    let sub = total.rem_euclid(1_000_000_000);
    match (i64::try_from(seconds), i64::try_from(sub)) {
        (Ok(s), Ok(n)) => match Timestamp::new(s, n) {
            Some(sum) => Value::Timestamp(sum.with_offset(t.offset)),
            None => range_error(),
        },
        _ => range_error(),
    }
}

/// `a - b` for timestamps: a duration, overflow-checked.
pub fn difference(a: Timestamp, b: Timestamp) -> Value {
    match i64::try_from(a.total_nanos() - b.total_nanos()) {
        Ok(n) => Value::Duration(Duration { nanos: n }),
        Err(_) => Value::overflow(),
    }
}

/// `duration('1h2m3.5s')`: Go's `time.ParseDuration` syntax.
pub fn parse_duration(text: &str) -> Value {
    match go_duration(text) {
        Some(n) => Value::Duration(Duration { nanos: n }),
        None => conversion_error("google.protobuf.Duration"),
    }
}

/// cel-go's message for a string `time.Parse` or `time.ParseDuration` refuses
/// (`common/types/string.go`).
fn conversion_error(target: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("type conversion error from 'string' to '{target}'"),
    )
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

/// A timestamp accessor (`getHours`, `getDayOfWeek`, …) in the timestamp's own zone (UTC unless
/// it was written with an offset) or the named zone.
pub fn timestamp_accessor(function: &str, t: Timestamp, tz: Option<&str>) -> Value {
    let tz = match tz {
        None => match Offset::from_seconds(t.offset) {
            Ok(offset) => TimeZone::fixed(offset),
            Err(_) => TimeZone::UTC,
        },
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
    let local = t.seconds + offset_seconds(&tz, t);
    let c = civil::civil(local);
    let days = local.div_euclid(86_400);
    let v = match function {
        "getFullYear" => c.year,
        "getMonth" => i64::from(c.month) - 1,
        "getDayOfYear" => days - civil::days_from_civil(c.year, 1, 1),
        "getDayOfMonth" => i64::from(c.day) - 1,
        "getDate" => i64::from(c.day),
        "getDayOfWeek" => (days + 4).rem_euclid(7),
        "getHours" => i64::from(c.hour),
        "getMinutes" => i64::from(c.minute),
        "getSeconds" => i64::from(c.second),
        "getMilliseconds" => i64::from(t.nanos / 1_000_000),
        _ => return Value::no_overload(),
    };
    Value::Int(v)
}

/// The zone's UTC offset at `t`, in seconds. Instants beyond the zone library's range use the
/// offset at its edge (no zone has transitions scheduled that far out).
fn offset_seconds(tz: &TimeZone, t: Timestamp) -> i64 {
    let clamped = t.seconds.clamp(
        jiff::Timestamp::MIN.as_second() + 86_400,
        jiff::Timestamp::MAX.as_second() - 86_400,
    );
    let instant = jiff::Timestamp::from_second(clamped).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    i64::from(tz.to_offset(instant).seconds())
}

/// A duration accessor: the whole duration in hours, minutes, seconds or milliseconds (cel-go
/// `common/types/duration.go` `durationGetMilliseconds` is Go's `Duration.Milliseconds()`, the
/// total, not the millisecond component cel-spec describes).
pub fn duration_accessor(function: &str, d: Duration) -> Value {
    let n = d.nanos;
    let v = match function {
        "getHours" => n / 3_600_000_000_000,
        "getMinutes" => n / 60_000_000_000,
        "getSeconds" => n / 1_000_000_000,
        "getMilliseconds" => n / 1_000_000,
        _ => return Value::no_overload(),
    };
    Value::Int(v)
}
