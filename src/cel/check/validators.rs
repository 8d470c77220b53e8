//! The literal validators the Kubernetes environment adds from 1.29 (cel-go `cel/validator.go`):
//! `duration('…')` and `timestamp('…')` with a literal string must parse, and `timestamp(n)` with
//! a literal int must be in range (the validator evaluates the call), or the API server rejects
//! the expression with "invalid duration argument" / "invalid timestamp argument". The parsers
//! follow Go's `time.ParseDuration` and RFC 3339 `time.Parse`, erring on the side of accepting.
//! The third, `ValidateRegexLiterals`, compiles the first literal argument of every `matches`
//! call with Go's `regexp.Compile` ("invalid matches argument"); like cel-go's `formatValidator`
//! it looks at the call's first argument, which for the global `matches(s, re)` is `s`.
//!
//! Independently of the version, the Kubernetes regex library compiles a literal pattern of
//! `find` and `findAll` when the program is built (`library/regex.go`, `cel.OptimizeRegex`), so a
//! pattern Go refuses fails the expression's compilation: "program instantiation failed: …".

use super::{CheckError, CheckErrorKind, PROGRAM_INSTANTIATION_FAILED};
use crate::cel::ast::{Ast, ExprId, ExprKind, Literal};

/// Reports literal arguments of `duration` and `timestamp` calls that would fail to convert,
/// and literal `matches` patterns Go refuses.
/// `order` is every node of `ast` in pre-order.
pub(super) fn validate_literals(ast: &Ast, order: &[ExprId], errors: &mut Vec<CheckError>) {
    for &id in order {
        let ExprKind::Call {
            target,
            function,
            args,
        } = &ast.expr(id).kind
        else {
            continue;
        };
        if target.is_some() && function.text != "matches" {
            continue;
        }
        let Some(arg) = args.first().map(|&a| ast.expr(a)) else {
            continue;
        };
        let valid = match (&arg.kind, function.text.as_str()) {
            (ExprKind::Literal(Literal::String(text)), "duration") => {
                parse_duration_nanos(text).is_some()
            }
            (ExprKind::Literal(Literal::String(text)), "timestamp") => is_rfc3339(text),
            // cel-go evaluates the call: seconds outside 0001-01-01 … 9999-12-31 fail.
            (ExprKind::Literal(Literal::Int(seconds)), "timestamp") => {
                crate::cel::eval::Timestamp::new(*seconds, 0).is_some()
            }
            (ExprKind::Literal(Literal::String(text)), "matches") => {
                crate::cel::re2::check(text).is_ok()
            }
            _ => continue,
        };
        if !valid {
            errors.push(CheckError {
                kind: CheckErrorKind::Type,
                span: arg.span,
                anchor: arg.anchor,
                message: format!("invalid {} argument", function.text),
                suggestion: None,
            });
        }
    }
}

/// Reports literal `find` / `findAll` patterns Go's `regexp.Compile` refuses.
pub(super) fn validate_regex_programs(ast: &Ast, order: &[ExprId], errors: &mut Vec<CheckError>) {
    for &id in order {
        let ExprKind::Call {
            target: Some(_),
            function,
            args,
        } = &ast.expr(id).kind
        else {
            continue;
        };
        if !matches!(function.text.as_str(), "find" | "findAll") {
            continue;
        }
        let Some(arg) = args.first().map(|&a| ast.expr(a)) else {
            continue;
        };
        let ExprKind::Literal(Literal::String(pattern)) = &arg.kind else {
            continue;
        };
        if let Err(refused) = crate::cel::re2::check(pattern) {
            errors.push(CheckError {
                kind: CheckErrorKind::Type,
                span: arg.span,
                anchor: arg.anchor,
                message: format!("{PROGRAM_INSTANTIATION_FAILED}{refused}"),
                suggestion: None,
            });
        }
    }
}

/// Go's `time.ParseDuration`: `[-+]?(number unit)+` or `0`; units ns, us, µs, μs, ms, s, m, h.
/// The magnitude in nanoseconds, `None` when malformed or beyond an `i64`.
fn parse_duration_nanos(text: &str) -> Option<u128> {
    let rest = text.strip_prefix(['-', '+']).unwrap_or(text);
    if rest == "0" {
        return Some(0);
    }
    let mut rest = rest;
    let mut total: u128 = 0;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let int_len = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (int_part, after) = rest.split_at(int_len);
        let (frac_part, after) = match after.strip_prefix('.') {
            Some(after) => {
                let len = after
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(after.len());
                after.split_at(len)
            }
            None => ("", after),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_len);
        let scale: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        let whole: u128 = if int_part.is_empty() {
            0
        } else {
            int_part.parse::<u128>().ok()?
        };
        total = total.checked_add(whole.checked_mul(scale)?)?;
        if !frac_part.is_empty() {
            let digits = frac_part.get(..frac_part.len().min(30)).unwrap_or("");
            let fraction: f64 = format!("0.{digits}").parse().ok()?;
            total = total.checked_add((fraction * scale as f64) as u128)?;
        }
        if total > i64::MAX as u128 + 1 {
            return None;
        }
        rest = after;
    }
    Some(total)
}

/// RFC 3339 as Go's `time.Parse(time.RFC3339, …)` reads it: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`
/// with real calendar dates.
fn is_rfc3339(text: &str) -> bool {
    let bytes = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = text.get(from..from + len)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let at = |i: usize| bytes.get(i).copied();
    let (Some(year), Some(month), Some(day)) = (num(0, 4), num(5, 2), num(8, 2)) else {
        return false;
    };
    let (Some(hour), Some(minute), Some(second)) = (num(11, 2), num(14, 2), num(17, 2)) else {
        return false;
    };
    let separators = at(4) == Some(b'-')
        && at(7) == Some(b'-')
        && matches!(at(10), Some(b'T' | b't'))
        && at(13) == Some(b':')
        && at(16) == Some(b':');
    let in_range = (1..=12).contains(&month)
        && day >= 1
        && day <= days_in_month(year, month)
        && hour < 24
        && minute < 60
        && second < 60;
    if !separators || !in_range {
        return false;
    }
    let mut i = 19;
    if matches!(at(i), Some(b'.' | b',')) {
        let digits = bytes.get(i + 1..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        });
        if digits == 0 {
            return false;
        }
        i += 1 + digits;
    }
    match at(i) {
        Some(b'Z' | b'z') => i + 1 == bytes.len(),
        Some(b'+' | b'-') => {
            let zone = (num(i + 1, 2), at(i + 3), num(i + 4, 2));
            matches!(zone, (Some(h), Some(b':'), Some(m)) if h < 24 && m < 60)
                && i + 6 == bytes.len()
        }
        _ => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::{is_rfc3339, parse_duration_nanos};

    #[test]
    fn durations() {
        for ok in [
            "0", "1h", "-1.5h", "1h30m", "2.5s", "10ms", "1us", "1µs", "3ns", ".5s", "+2m",
        ] {
            assert!(parse_duration_nanos(ok).is_some(), "{ok}");
        }
        for bad in ["", "1", "5 minutes", "1d", "h", "1.s.", "-", "9999999999h"] {
            assert!(parse_duration_nanos(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn timestamps() {
        for ok in [
            "2024-01-01T00:00:00Z",
            "2024-02-29T23:59:59.123456789+05:30",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
        ] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in [
            "2023-02-29T00:00:00Z",
            "2024-01-01",
            "2024-01-01 00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.Z",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }
}
