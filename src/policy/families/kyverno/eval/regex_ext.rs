//! cel-go's regex extension, which Kyverno's environment enables from 1.19 (kyverno/kyverno
//! `pkg/cel/compiler/env.go`: `ext.Regex(ext.RegexVersion(1))`): `regex.replace`,
//! `regex.extract` and `regex.extractAll`, as cel-go `ext/regex.go` defines them, over Go's
//! regular expressions (`crate::cel::re2`).

use regex::Captures;

use crate::cel::eval::{ErrorKind, Value};
use crate::cel::re2;

/// The function `name` of the extension, `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    let member = name.strip_prefix("regex.")?;
    Some(match (member, args) {
        ("replace", [Value::String(s), Value::String(re), Value::String(with)]) => {
            replace(s, re, with, -1)
        }
        (
            "replace",
            [
                Value::String(s),
                Value::String(re),
                Value::String(with),
                Value::Int(n),
            ],
        ) => replace(s, re, with, *n),
        ("extract", [Value::String(s), Value::String(re)]) => extract(s, re),
        ("extractAll", [Value::String(s), Value::String(re)]) => extract_all(s, re),
        ("replace" | "extract" | "extractAll", _) => Value::no_overload(),
        _ => return None,
    })
}

/// Whether `name` is one of the extension's functions (`regex` is a namespace).
pub fn is_function(name: &str) -> bool {
    matches!(name, "regex.replace" | "regex.extract" | "regex.extractAll")
}

fn invalid(message: String) -> Value {
    Value::error(ErrorKind::InvalidArgument, message)
}

fn compile(re: &str) -> Result<re2::Regex, Value> {
    re2::compile_with_captures(re).map_err(|e| invalid(e.to_string()))
}

/// `regReplaceN`: the first `count` matches (all when negative) replaced, `\N` in the
/// replacement standing for group N and `\\` for a backslash.
fn replace(s: &str, re: &str, with: &str, count: i64) -> Value {
    if count == 0 {
        return Value::string(s);
    }
    let re = match compile(re) {
        Ok(re) => re,
        Err(e) => return e,
    };
    let limit = usize::try_from(count).ok();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for found in all_captures(&re, s, limit) {
        let Some(whole) = found.get(0) else { continue };
        match expand(&found, with, re.captures_len() - 1) {
            Ok(replacement) => {
                out.push_str(&s[last..whole.start()]);
                out.push_str(&replacement);
                last = whole.end();
            }
            Err(message) => return invalid(message),
        }
    }
    out.push_str(&s[last..]);
    Value::string(&out)
}

/// `replaceStrValidator`: the replacement of one match, with cel-go's errors.
fn expand(found: &Captures<'_>, with: &str, groups: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = with.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            None => {
                return Err(format!(
                    "invalid replacement string: '{with}' \\ not allowed at end"
                ));
            }
            Some('\\') => out.push('\\'),
            Some(d) => {
                let Some(group) = d.to_digit(10).filter(|_| d.is_ascii_digit()) else {
                    return Err(format!(
                        "invalid replacement string: '{with}' \\ must be followed by a digit or \\"
                    ));
                };
                let group = group as usize;
                if group > groups {
                    return Err(format!(
                        "replacement string references group {group} but regex has only {groups} group(s)"
                    ));
                }
                out.push_str(found.get(group).map_or("", |m| m.as_str()));
            }
        }
    }
    Ok(out)
}

/// `extract`: the first match, or its one capturing group; none when nothing matches or the
/// group is empty.
fn extract(s: &str, re: &str) -> Value {
    let re = match one_group(re) {
        Ok(re) => re,
        Err(e) => return e,
    };
    let found = re.captures(s).and_then(|c| {
        let text = if re.captures_len() > 1 {
            c.get(1).map_or("", |m| m.as_str())
        } else {
            c.get(0).map_or("", |m| m.as_str())
        };
        (re.captures_len() == 1 || !text.is_empty()).then(|| Value::string(text))
    });
    Value::Optional(found.map(std::sync::Arc::new))
}

/// `extractAll`: every match, or every non-empty capture of its one group.
fn extract_all(s: &str, re: &str) -> Value {
    let re = match one_group(re) {
        Ok(re) => re,
        Err(e) => return e,
    };
    let group = usize::from(re.captures_len() > 1);
    let items = all_captures(&re, s, None)
        .iter()
        .filter_map(|c| {
            let text = c.get(group).map_or("", |m| m.as_str());
            (group == 0 || !text.is_empty()).then(|| Value::string(text))
        })
        .collect();
    Value::list(items)
}

/// A pattern with at most one capturing group, as `extract` and `extractAll` require.
fn one_group(re: &str) -> Result<re2::Regex, Value> {
    let compiled = compile(re)?;
    if compiled.captures_len() > 2 {
        return Err(invalid(format!(
            "regular expression has more than one capturing group: {re:?}"
        )));
    }
    Ok(compiled)
}

/// Go's `FindAllStringSubmatch(s, -1)` (`regexp.go` `allMatches`): non-overlapping matches left
/// to right, where an empty match right after the previous match is skipped.
fn all_captures<'s>(re: &re2::Regex, s: &'s str, limit: Option<usize>) -> Vec<Captures<'s>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut previous_end: Option<usize> = None;
    while at <= s.len() && limit.is_none_or(|n| out.len() < n) {
        let Some(found) = re.captures_at(s, at) else {
            break;
        };
        let Some(whole) = found.get(0) else { break };
        let (start, end) = (whole.start(), whole.end());
        let empty = start == end;
        let accepted = !(empty && previous_end == Some(start));
        previous_end = Some(end);
        at = if empty {
            // Step over one character, as Go advances by the width of the rune.
            end + s[end..].chars().next().map_or(1, char::len_utf8)
        } else {
            end
        };
        if accepted {
            out.push(found);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(name: &str, args: &[&str]) -> String {
        let args: Vec<Value> = args.iter().map(|a| Value::string(a)).collect();
        call(name, &args).map(|v| v.to_string()).unwrap_or_default()
    }

    #[test]
    fn replace_expands_groups_as_cel_go_does() {
        assert_eq!(
            text(
                "regex.replace",
                &["docker.io/nginx", r"^docker\.io/(.*)", r"my.io/\1"]
            ),
            text("regex.replace", &["my.io/nginx", "x^", ""]),
        );
        assert!(text("regex.replace", &["abc", "(b)", r"\2"]).contains("only 1 group(s)"));
        assert!(text("regex.replace", &["abc", "b", "x\\"]).contains("not allowed at end"));
        let counted = call(
            "regex.replace",
            &[
                Value::string("aaa"),
                Value::string("a"),
                Value::string("b"),
                Value::Int(2),
            ],
        );
        assert_eq!(
            counted.map(|v| v.to_string()),
            Some(Value::string("bba").to_string())
        );
    }

    #[test]
    fn extract_gives_the_group_or_none() {
        assert_eq!(
            text("regex.extract", &["item-42", r"(\d+)"]),
            Value::Optional(Some(std::sync::Arc::new(Value::string("42")))).to_string()
        );
        assert_eq!(
            text("regex.extract", &["item", r"(\d*)"]),
            Value::Optional(None).to_string()
        );
        assert!(text("regex.extract", &["ab", "(a)(b)"]).contains("more than one capturing group"));
        assert_eq!(
            text("regex.extractAll", &["a1b22c", r"\d+"]),
            Value::list(vec![Value::string("1"), Value::string("22")]).to_string()
        );
    }
}
