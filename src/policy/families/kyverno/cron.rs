//! A DeletingPolicy's `schedule` read as Kyverno reads it: `pkg/cel/policies/dpol/validate.go`
//! parses it with the parser its cleanup controller schedules with, aptible/supercronic
//! `cronexpr` (`cronexpr.go` `Parse`, `cronexpr_parse.go`): the `@yearly`… aliases, 5 to 7
//! whitespace-separated fields (7: seconds first; 6: a year last; more than 7: the rest ignored),
//! each a comma-separated list of `*`/`?`, a value, a range, and a step after `*`, a value or a
//! range; `L`, `LW` and `NW` in the day of month, `NL` and `N#K` in the day of week; month and
//! day names in any case. The error is the parser's own message.

/// One field's name, bounds and how its values are spelled (the `fieldDescriptor`s).
struct Field {
    name: &'static str,
    min: i32,
    max: i32,
    names: &'static [&'static str],
    /// How many digits a value has (1 or 2, or exactly 4 for the year).
    year: bool,
}

const SECOND: Field = numeric("second", 0, 59);
const MINUTE: Field = numeric("minute", 0, 59);
const HOUR: Field = numeric("hour", 0, 23);
const DAY_OF_MONTH: Field = numeric("day-of-month", 1, 31);
const MONTH: Field = Field {
    names: &[
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ],
    ..numeric("month", 1, 12)
};
/// The pattern admits 7 (Sunday); the field's maximum stays 6.
const DAY_OF_WEEK: Field = Field {
    names: &[
        "sun",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sunday",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
    ],
    ..numeric("day-of-week", 0, 6)
};
const YEAR: Field = Field {
    year: true,
    ..numeric("year", 1970, 2099)
};

const fn numeric(name: &'static str, min: i32, max: i32) -> Field {
    Field {
        name,
        min,
        max,
        names: &[],
        year: false,
    }
}

/// The aliases, replaced before the fields are read (`cronNormalizer`).
const ALIASES: &[(&str, &str)] = &[
    ("@yearly", "0 0 0 1 1 * *"),
    ("@annually", "0 0 0 1 1 * *"),
    ("@monthly", "0 0 0 1 * * *"),
    ("@weekly", "0 0 0 * * 0 *"),
    ("@daily", "0 0 0 * * * *"),
    ("@hourly", "0 0 * * * * *"),
];

/// Parses `schedule` as `cronexpr.Parse` does: `Err` with the parser's message.
pub fn parse(schedule: &str) -> Result<(), String> {
    let mut text = schedule.to_string();
    for (alias, replacement) in ALIASES {
        text = text.replace(alias, replacement);
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 5 {
        return Err("missing field(s)".into());
    }
    let count = fields.len().min(7);
    let mut order: Vec<&Field> = Vec::new();
    if count == 7 {
        order.push(&SECOND);
    }
    order.extend([&MINUTE, &HOUR, &DAY_OF_MONTH, &MONTH, &DAY_OF_WEEK]);
    if order.len() < count {
        order.push(&YEAR);
    }
    for (field, text) in order.into_iter().zip(fields) {
        read_field(field, text)?;
    }
    Ok(())
}

/// One field: every comma-separated entry read first (`genericFieldParse`, whose interval
/// errors come before any syntax error), then the entries no layout matched, in order. A field
/// without `L`/`W`/`#` forms stops at its first `*` (`genericFieldHandler` returns the whole
/// range there), so what follows it is not looked at.
fn read_field(field: &Field, text: &str) -> Result<(), String> {
    let entries: Vec<&str> = text.split(',').filter(|e| !e.is_empty()).collect();
    if entries.is_empty() {
        return Err(format!("{} field: missing directive", field.name));
    }
    let mut matched = Vec::with_capacity(entries.len());
    for entry in &entries {
        matched.push(directive(field, &entry.to_lowercase())?);
    }
    let has_special = field.name == DAY_OF_MONTH.name || field.name == DAY_OF_WEEK.name;
    for (entry, matched) in entries.into_iter().zip(matched) {
        let lower = entry.to_lowercase();
        if !has_special && matches!(lower.as_str(), "*" | "?") {
            return Ok(());
        }
        if !matched && !special(field, &lower) {
            return Err(format!("syntax error in {} field: '{entry}'", field.name));
        }
    }
    Ok(())
}

/// The layouts every field has: `Ok(false)` when the entry is none of them.
fn directive(field: &Field, entry: &str) -> Result<bool, String> {
    if entry == "*" || entry == "?" || value(field, entry).is_some() {
        return Ok(true);
    }
    if let Some((first, last)) = range(field, entry) {
        if last < first {
            return Err(format!(
                "invalid interval {entry} (normalized to {first}-{last})"
            ));
        }
        return Ok(true);
    }
    let Some((start, step)) = entry.split_once('/') else {
        return Ok(false);
    };
    let start_ok = start == "*" || value(field, start).is_some() || range(field, start).is_some();
    if !start_ok || step.is_empty() || !step.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(false);
    }
    let step = number_token(step);
    if step < 1 || step > field.max {
        return Err(format!("invalid interval {entry}"));
    }
    Ok(true)
}

/// What only the day of month (`L`, `LW`, `NW`) and the day of week (`NL`, `N#K`) accept.
fn special(field: &Field, entry: &str) -> bool {
    if field.name == DAY_OF_MONTH.name {
        return entry == "l"
            || entry == "lw"
            || entry
                .strip_suffix('w')
                .is_some_and(|v| value(field, v).is_some());
    }
    if field.name == DAY_OF_WEEK.name {
        let last = entry
            .strip_suffix('l')
            .is_some_and(|v| value(field, v).is_some());
        let nth = entry.split_once('#').is_some_and(|(v, k)| {
            value(field, v).is_some() && matches!(k, "1" | "2" | "3" | "4" | "5")
        });
        return last || nth;
    }
    false
}

/// `V-V`: both values, as the field's `atoi` reads them.
fn range(field: &Field, entry: &str) -> Option<(i32, i32)> {
    let (first, last) = entry.split_once('-')?;
    Some((value(field, first)?, value(field, last)?))
}

/// A value of the field's pattern, as its `atoi` reads it; `None` when the pattern rejects it.
fn value(field: &Field, text: &str) -> Option<i32> {
    if let Some(index) = field.names.iter().position(|n| *n == text) {
        return Some(name_value(field, index));
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: i32 = text.parse().ok()?;
    let digits_ok = if field.year {
        text.len() == 4
    } else {
        text.len() <= 2
    };
    // The day-of-week pattern admits 7 (`0?[0-7]`), read as Sunday.
    let max = if field.name == DAY_OF_WEEK.name {
        7
    } else {
        field.max
    };
    if !digits_ok || number < field.min || number > max {
        return None;
    }
    Some(if field.name == DAY_OF_WEEK.name {
        // `dowTokens` has `0`…`7` only (`7` is Sunday); `05` reads as 0.
        if text.len() == 1 { number % 7 } else { 0 }
    } else {
        number
    })
}

/// The value of the name at `index` of the field's list (the full names follow the short ones).
fn name_value(field: &Field, index: usize) -> i32 {
    let index = i32::try_from(index).unwrap_or(0);
    if field.name == MONTH.name {
        // jan…dec, then january…april (1-4) and june…december (6-12): `may` is listed once.
        match index {
            0..=11 => index + 1,
            12..=15 => index - 11,
            _ => index - 10,
        }
    } else {
        index % 7
    }
}

/// `atoi` of the step: the tokens `0`…`59`, `00`…`09` and the years; anything else is 0.
fn number_token(text: &str) -> i32 {
    let Ok(number) = text.parse::<i32>() else {
        return 0;
    };
    let plain = text.len() <= 2
        && (0..=59).contains(&number)
        && (text.len() == 1 || number >= 10 || text.starts_with('0'));
    let year = text.len() == 4 && (1970..=2099).contains(&number);
    if plain || year { number } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn schedules_the_parser_accepts() {
        for ok in [
            "*/5 * * * *",
            "0 0 * * *",
            "@daily",
            "@hourly",
            "0 30 2 * * ? 2030",
            "0 2 L * *",
            "0 2 LW * *",
            "0 2 15W * *",
            "0 2 * * 5L",
            "0 2 * * MON#2",
            "0 2 * JAN-MAR sun,sat",
            "0-30/10 1,2 * * 7",
            "0 0 1 1 * 2025",
            "0 0 0 1 1 * 2030 extra ignored",
            "0 * ,1 * *",
            "*,x * * * *",
        ] {
            assert_eq!(parse(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn schedules_the_parser_refuses_with_its_message() {
        for (bad, message) in [
            ("", "missing field(s)"),
            ("* * * *", "missing field(s)"),
            ("60 * * * *", "syntax error in minute field: '60'"),
            ("* 24 * * *", "syntax error in hour field: '24'"),
            ("* * 0 * *", "syntax error in day-of-month field: '0'"),
            ("* * * 13 *", "syntax error in month field: '13'"),
            ("* * * * 8", "syntax error in day-of-week field: '8'"),
            (
                "* * * * MON#6",
                "syntax error in day-of-week field: 'MON#6'",
            ),
            ("*/0 * * * *", "invalid interval */0"),
            ("*/60 * * * *", "invalid interval */60"),
            (
                "30-10 * * * *",
                "invalid interval 30-10 (normalized to 30-10)",
            ),
            ("* * * * * 1969", "syntax error in year field: '1969'"),
            ("* * , * *", "day-of-month field: missing directive"),
            ("every day", "missing field(s)"),
            ("1 2 3 4 5 6 7 8 9", "syntax error in year field: '7'"),
            ("abc,*/0 * * * *", "invalid interval */0"),
            ("* * * * 1-7", "invalid interval 1-7 (normalized to 1-0)"),
            ("* * * * *,x", "syntax error in day-of-week field: 'x'"),
        ] {
            assert_eq!(parse(bad), Err(message.to_string()), "{bad}");
        }
    }
}
