//! The defaulting tables written out, one line per rule: the field (a path from the kind's root,
//! `[*]` for every list element), the value, when it applies and the upstream source. The test
//! `defaults_table` keeps `src/schema/defaults/TABLE.md` equal to it, so the tables double as
//! their documentation.

use super::engine::{Cond, Step, TypeDef, V, When};

/// One rule of a kind's defaulting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The Go type whose defaulter it is (`PodSpec`).
    pub go_type: String,
    /// Where it writes, from the kind's root.
    pub path: String,
    /// What it writes (a value, or the name of the conditional function).
    pub value: String,
    /// When it applies, beyond "the field is unset".
    pub condition: String,
    /// The upstream function or marker.
    pub source: String,
}

fn value_text(value: V) -> String {
    match value {
        V::Str(s) => format!("\"{s}\""),
        V::Int(i) => i.to_string(),
        V::Bool(b) => b.to_string(),
        V::EmptyObject => "{}".to_string(),
        V::Json(text) => text.to_string(),
    }
}

fn cond_text(cond: &Cond) -> String {
    match cond {
        Cond::Equals(field, v) => format!("{field} == {}", value_text(*v)),
        Cond::Unset(field, When::Nil) => format!("{field} unset"),
        Cond::Unset(field, When::Zero) => format!("{field} empty"),
        Cond::Present(field) => format!("{field} set"),
        Cond::All(conds) => conds
            .iter()
            .map(cond_text)
            .collect::<Vec<_>>()
            .join(" and "),
        Cond::Any(conds) => conds.iter().map(cond_text).collect::<Vec<_>>().join(" or "),
    }
}

fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_string()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Every rule of `ty`, with paths from `prefix`.
pub(super) fn rules(ty: &TypeDef) -> Vec<Rule> {
    let mut out = Vec::new();
    collect(ty.name, ty.steps, "", &[], &mut out);
    out
}

fn collect(
    go_type: &str,
    steps: &[Step],
    prefix: &str,
    conditions: &[String],
    out: &mut Vec<Rule>,
) {
    for step in steps {
        match step {
            Step::Set {
                field,
                value,
                when,
                source,
            } => {
                let unset = match when {
                    When::Nil => "unset",
                    When::Zero => "empty",
                };
                let mut condition = vec![unset.to_string()];
                condition.extend(conditions.iter().cloned());
                out.push(Rule {
                    go_type: go_type.to_string(),
                    path: join(prefix, field),
                    value: value_text(*value),
                    condition: condition.join("; "),
                    source: (*source).to_string(),
                });
            }
            Step::If { cond, then } => {
                let mut inner = conditions.to_vec();
                let relative = cond_text(cond);
                inner.push(if prefix.is_empty() {
                    format!("if {relative}")
                } else {
                    format!("if {relative} (in {prefix})")
                });
                collect(go_type, then, prefix, &inner, out);
            }
            Step::Since { since, gate, then } => {
                let mut inner = conditions.to_vec();
                inner.push(format!("from 1.{since} ({gate})"));
                collect(go_type, then, prefix, &inner, out);
            }
            Step::Call {
                name,
                writes,
                source,
                ..
            } => out.push(Rule {
                go_type: go_type.to_string(),
                path: writes
                    .split(", ")
                    .map(|w| match w.strip_prefix('[') {
                        Some(_) => format!("{prefix}{w}"),
                        None => join(prefix, w),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                value: format!("({name})"),
                condition: conditions.join("; "),
                source: (*source).to_string(),
            }),
            Step::Walk { field, shape, ty } => {
                let path = match shape {
                    super::engine::Shape::List => format!("{}[*]", join(prefix, field)),
                    _ => join(prefix, field),
                };
                collect(ty.name, ty.steps, &path, conditions, out);
            }
        }
    }
}
