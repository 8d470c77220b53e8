//! The pure functions of Kyverno's time library (kyverno/sdk `extensions/cel/libs/time/lib.go`):
//! `time.toCron` (a timestamp as the cron line "minute hour day month weekday" of its own zone,
//! Go's `Time.Minute` … `Weekday`, Sunday 0) and `time.truncate` (Go's `Time.Truncate`: rounded
//! down to a multiple of the duration since 0001-01-01 UTC, the zone kept; a duration of zero
//! or less leaves it as it is). `time.now` reads the caller's clock, so the library holds it.

use crate::cel::eval::{Duration, Timestamp, Value};

/// Seconds from 0001-01-01T00:00:00Z, Go's zero time, to the Unix epoch.
const ZERO_TO_EPOCH: i128 = 62_135_596_800;

/// The function `name` of the time library (but `time.now`), `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    match (name, args) {
        ("time.toCron", [Value::Timestamp(at)]) => Some(Value::string(&to_cron(*at))),
        ("time.truncate", [Value::Timestamp(at), Value::Duration(step)]) => {
            Some(Value::Timestamp(truncate(*at, *step)))
        }
        ("time.toCron" | "time.truncate", _) => Some(Value::no_overload()),
        _ => None,
    }
}

/// Whether `name` is one of these functions.
pub fn is_function(name: &str) -> bool {
    matches!(name, "time.toCron" | "time.truncate")
}

fn to_cron(at: Timestamp) -> String {
    let local = at.seconds + i64::from(at.offset);
    let days = local.div_euclid(86_400);
    let second_of_day = local.rem_euclid(86_400);
    let (_, month, day) = civil_from_days(days);
    // 1970-01-01 was a Thursday (4).
    let weekday = (days + 4).rem_euclid(7);
    format!(
        "{} {} {day} {month} {weekday}",
        second_of_day % 3600 / 60,
        second_of_day / 3600
    )
}

/// The proleptic Gregorian (year, month, day) of `days` since 1970-01-01 (H. Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn truncate(at: Timestamp, step: Duration) -> Timestamp {
    if step.nanos <= 0 {
        return at;
    }
    let since_zero = at.total_nanos() + ZERO_TO_EPOCH * 1_000_000_000;
    let kept = since_zero - since_zero.rem_euclid(i128::from(step.nanos));
    let unix = kept - ZERO_TO_EPOCH * 1_000_000_000;
    let seconds = unix.div_euclid(1_000_000_000) as i64;
    let nanos = unix.rem_euclid(1_000_000_000) as u32;
    Timestamp {
        seconds,
        nanos,
        offset: at.offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64, offset: i32) -> Timestamp {
        Timestamp {
            seconds,
            nanos: 0,
            offset,
        }
    }

    #[test]
    fn cron_lines_use_the_timestamps_zone() {
        // 2025-03-14T09:26:53Z, a Friday; as Go's time package gives the fields.
        assert_eq!(to_cron(at(1_741_944_413, 0)), "26 9 14 3 5");
        // 23:30 on Saturday 2024-12-31 … in UTC-2 it is still the 31st.
        assert_eq!(to_cron(at(1_735_695_000, -7200)), "30 23 31 12 2");
        assert_eq!(to_cron(at(0, 0)), "0 0 1 1 4");
    }

    #[test]
    fn truncation_counts_from_year_one() {
        let hour = Duration {
            nanos: 3_600_000_000_000,
        };
        let t = Timestamp {
            seconds: 1_741_944_413,
            nanos: 5,
            offset: 3600,
        };
        assert_eq!(truncate(t, hour), at(1_741_942_800, 3600));
        // A week from year one is not a week from the epoch: Go gives Monday 2025-03-10.
        let week = Duration {
            nanos: 7 * 86_400 * 1_000_000_000,
        };
        assert_eq!(truncate(t, week).seconds, 1_741_564_800);
        assert_eq!(truncate(t, Duration { nanos: 0 }), t);
    }
}
