//! Types as cel-go's checker prints them in messages (`FormatCELType`): `null`, `timestamp`,
//! `duration`, `optional_type(T)`, `!error!`, type parameters by name.

use crate::cel::types::Type;

/// `ty` spelled as cel-go's checker messages spell it.
pub fn cel_go_type(ty: &Type) -> String {
    let mut out = String::new();
    write(ty, &mut out);
    out
}

fn write(ty: &Type, out: &mut String) {
    match ty {
        Type::Null => out.push_str("null"),
        Type::Duration => out.push_str("duration"),
        Type::Timestamp => out.push_str("timestamp"),
        Type::List(elem) => wrap("list", &[elem], out),
        Type::Map(key, value) => wrap("map", &[key, value], out),
        Type::Optional(inner) => wrap("optional_type", &[inner], out),
        Type::TypeOf(Some(inner)) => wrap("type", &[inner], out),
        other => out.push_str(&other.to_string()),
    }
}

fn wrap(name: &str, params: &[&Type], out: &mut String) {
    out.push_str(name);
    out.push('(');
    for (index, param) in params.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        write(param, out);
    }
    out.push(')');
}

/// cel-go's rendering of call argument types in "no matching overload" messages: `(A, B)` for a
/// global call, `R.(A, B)` for a receiver call.
pub(super) fn call_signature(args: &[Type], member: bool) -> String {
    let (receiver, rest) = match args.split_first() {
        Some((first, rest)) if member => (Some(first), rest),
        _ => (None, args),
    };
    let mut out = String::new();
    if let Some(receiver) = receiver {
        write(receiver, &mut out);
        out.push('.');
    }
    out.push('(');
    for (index, arg) in rest.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        write(arg, &mut out);
    }
    out.push(')');
    out
}

/// cel-go's rendering of issues (`Issues.String()`), as the API server quotes it after
/// `compilation failed: `: for each error `ERROR: <input>:LINE:COL: message`, the source line after
/// ` | ` and a caret line of dots; errors joined by newlines. Columns count code points from 1.
pub fn cel_go_report(src: &str, errors: &[super::CheckError]) -> String {
    let mut reports = Vec::new();
    for error in errors {
        let offset = usize::from(error.anchor).min(src.len());
        let prefix = src.get(..offset).unwrap_or("");
        let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
        let line_no = prefix.matches('\n').count() + 1;
        let col = prefix.get(line_start..).map_or(0, |s| s.chars().count());
        let line = src
            .get(line_start..)
            .and_then(|rest| rest.split('\n').next())
            .unwrap_or("");
        reports.push(format!(
            "ERROR: <input>:{line_no}:{}: {}\n | {line}\n | {}^",
            col + 1,
            error.message,
            ".".repeat(col)
        ));
    }
    reports.join("\n")
}
