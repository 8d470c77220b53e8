//! `test --format junit`: JUnit XML as CI servers read it (the Jenkins xUnit plugin's
//! `junit-10.xsd`, which Ant, Maven Surefire and most CI systems write and read): `<testsuites>` with
//! one `<testsuite name tests failures errors skipped time>` per suite, one `<testcase name
//! classname time>` per case, `<failure message type>` with the whole diff as text for a case that
//! ran and did not meet its expectation, `<error message type>` for one that could not run. A
//! suite's own problems (unreadable files, unknown keys) become one errored `<testcase>` named
//! after the suite file, so CI lists them.

use std::fmt::Write as _;
use std::time::Duration;

use admission_ls::ide::run::{SuiteReport, Tally};
use admission_ls::policy::suite::CaseResult;

/// Escapes text for an XML attribute or element; characters XML 1.0 cannot hold become U+FFFD.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// `SUREFIRE_TIME`: seconds with three decimals.
fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The whole report.
pub fn render(reports: &[SuiteReport], total: Duration) -> String {
    let tally = Tally::of(reports);
    let suite_errors = reports.iter().filter(|r| !r.errors.is_empty()).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"admission-ls test\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\">",
        tally.cases() + suite_errors,
        tally.failed,
        tally.errored + suite_errors,
        seconds(total)
    );
    for report in reports {
        render_suite(&mut out, report);
    }
    out.push_str("</testsuites>\n");
    out
}

fn render_suite(out: &mut String, report: &SuiteReport) {
    let tally = Tally::of(std::slice::from_ref(report));
    let extra = usize::from(!report.errors.is_empty());
    let time: Duration = report.cases.iter().map(|c| c.duration).sum();
    let name = if report.name == report.path {
        report.path.clone()
    } else {
        format!("{} ({})", report.path, report.name)
    };
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\" file=\"{}\">",
        xml(&name),
        tally.cases() + extra,
        tally.failed,
        tally.errored + extra,
        seconds(time),
        xml(&report.path)
    );
    if !report.errors.is_empty() {
        let text = report.errors.join("\n");
        let first = report.errors.first().map_or("", String::as_str);
        let _ = writeln!(
            out,
            "    <testcase name=\"{}\" classname=\"{}\" time=\"0.000\">\n      <error message=\"{}\" type=\"suite\">{}</error>\n    </testcase>",
            xml(&report.path),
            xml(&report.name),
            xml(first),
            xml(&text)
        );
    }
    for case in &report.cases {
        render_case(out, case);
    }
    out.push_str("  </testsuite>\n");
}

fn render_case(out: &mut String, case: &CaseResult) {
    let _ = write!(
        out,
        "    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"",
        xml(&case.name),
        xml(&case.policy),
        seconds(case.duration)
    );
    if case.passed {
        out.push_str("/>\n");
        return;
    }
    let (element, kind, lines): (&str, &str, Vec<&str>) = match &case.error {
        Some(error) => ("error", "setup", vec![error.as_str()]),
        None => (
            "failure",
            "expectation",
            case.failures.iter().map(String::as_str).collect(),
        ),
    };
    let first = lines
        .first()
        .and_then(|t| t.lines().next())
        .unwrap_or("failed");
    let _ = write!(
        out,
        ">\n      <{element} message=\"{}\" type=\"{kind}\">{}</{element}>\n    </testcase>\n",
        xml(first),
        xml(&lines.join("\n"))
    );
}
