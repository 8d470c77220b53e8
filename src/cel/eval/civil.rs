//! Proleptic Gregorian calendar arithmetic for timestamps over CEL's whole range (years 1 to
//! 9999), RFC 3339 parsing as Go's `time.Parse(time.RFC3339, …)` accepts it, and printing as
//! `RFC3339Nano`. Kept here rather than in a date library because CEL's range reaches
//! 9999-12-31T23:59:59.999999999Z, beyond what offset-aware libraries represent.

/// A civil date and time of day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    /// Year (1 … 9999 inside CEL's range).
    pub year: i64,
    /// Month, 1 … 12.
    pub month: u32,
    /// Day of month, 1 … 31.
    pub day: u32,
    /// Hour, minute, second.
    pub hour: u32,
    /// Minute.
    pub minute: u32,
    /// Second.
    pub second: u32,
}

/// Days since 1970-01-01 of a civil date.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The civil time of `seconds` since the epoch (already shifted by any offset).
pub fn civil(seconds: i64) -> Civil {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400) as u32;
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

fn digits(s: &[u8], at: usize, n: usize) -> Option<u32> {
    let part = s.get(at..at + n)?;
    part.iter().try_fold(0u32, |acc, b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`,` for the point too) into seconds and nanoseconds since the epoch.
pub fn parse_rfc3339(text: &str) -> Option<(i64, u32, i32)> {
    let s = text.as_bytes();
    let year = i64::from(digits(s, 0, 4)?);
    let month = digits(s, 5, 2)?;
    let day = digits(s, 8, 2)?;
    let (hour, minute, second) = (digits(s, 11, 2)?, digits(s, 14, 2)?, digits(s, 17, 2)?);
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if seps.iter().any(|&(i, c)| s.get(i) != Some(&c)) {
        return None;
    }
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut at = 19;
    let mut nanos = 0u32;
    // Go's `time.Parse` takes a comma for the point too (its general parser, `commaOrPeriod`).
    if matches!(s.get(at), Some(b'.' | b',')) {
        at += 1;
        let start = at;
        while s.get(at).is_some_and(u8::is_ascii_digit) {
            if at - start < 9 {
                nanos = nanos * 10 + u32::from(s[at] - b'0');
            }
            at += 1;
        }
        if at == start {
            return None;
        }
        nanos *= 10u32.pow(9u32.saturating_sub((at - start) as u32));
    }
    let offset = match s.get(at..)? {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let hh = digits(&[*h1, *h2], 0, 2)?;
            let mm = digits(&[*m1, *m2], 0, 2)?;
            if hh > 23 || mm > 59 {
                return None;
            }
            let off = i64::from(hh * 3600 + mm * 60);
            if *sign == b'-' { -off } else { off }
        }
        _ => return None,
    };
    let local =
        days_from_civil(year, month, day) * 86_400 + i64::from(hour * 3600 + minute * 60 + second);
    Some((local - offset, nanos, i32::try_from(offset).ok()?))
}

/// `RFC3339Nano` in the zone `offset` seconds east of UTC: fraction trimmed of trailing zeros,
/// `Z` for UTC, else `±hh:mm` as Go prints a fixed zone.
pub fn format_rfc3339(seconds: i64, nanos: u32, offset: i32) -> String {
    let c = civil(seconds + i64::from(offset));
    let mut out = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        c.year, c.month, c.day, c.hour, c.minute, c.second
    );
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    if offset == 0 {
        out.push('Z');
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.unsigned_abs() / 60;
        out.push_str(&format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60));
    }
    out
}
