//! The autogen variants of a MutatingPolicy on Pods, as kyverno/kyverno
//! `pkg/cel/policies/mpol/autogen/autogen.go` generates them: per configuration (`defaults`,
//! `cronjobs`) the controllers' match constraints, and in the matchConditions and the
//! ApplyConfiguration expressions (not the variables, not JSONPatch) `object.spec`,
//! `oldObject.spec` and `Object.spec` (where a word starts) pointed at the pod template, and
//! `metadata.labels`/`metadata.annotations` likewise (`convertPodToTemplateExpression`), the
//! root `Object{…}` wrapped in the template's own `Object.spec…{…}` initializers.

use super::super::autogen::{self, Rewrite};
use super::validating::controller_constraints;
use crate::policy::admission::view::Policy;
use crate::yaml::Node;

/// The roots the rewrite follows (`\b(object|oldObject|Object)`).
const ROOTS: [&str; 3] = ["object.", "oldObject.", "Object."];

/// Each variant: its name (`autogen-defaults`…) and the rewritten policy, in sorted order of
/// the configurations (`generateRuleForControllers`).
pub(super) fn variants(root: &Node, policy: &Policy) -> Vec<(String, Policy)> {
    let mut rewrites = autogen::pod_rewrites(root);
    rewrites.sort_by_key(|r| r.config);
    rewrites
        .iter()
        .map(|rewrite| {
            let cronjob = rewrite.config == "cronjobs";
            (
                format!("autogen-{}", rewrite.config),
                rewritten(policy, rewrite, cronjob),
            )
        })
        .collect()
}

fn rewritten(policy: &Policy, rewrite: &Rewrite, cronjob: bool) -> Policy {
    let mut out = policy.clone();
    for condition in &mut out.match_conditions {
        condition.expression = paths(&condition.expression, cronjob);
    }
    for mutation in &mut out.mutations {
        if !mutation.apply_configuration.is_empty() {
            let text = paths(&mutation.apply_configuration, cronjob);
            mutation.apply_configuration = wrap_root(&text, cronjob);
        }
    }
    out.match_constraints = controller_constraints(policy.match_constraints.as_ref(), rewrite);
    out
}

/// The three regular-expression replacements of `convertPodToTemplateExpression`, in one pass
/// (their matches cannot overlap, and a replacement is not matched again).
fn paths(text: &str, cronjob: bool) -> String {
    let template = if cronjob {
        "spec.jobTemplate.spec.template"
    } else {
        "spec.template"
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((index, c)) = rest.char_indices().next() {
        let starts_word = out.chars().last().is_none_or(|p| !is_word(p));
        let root = ROOTS
            .iter()
            .find(|r| rest.starts_with(**r))
            .filter(|_| starts_word);
        if let Some(root) = root {
            let after = &rest[root.len()..];
            let replaced = if after.starts_with("spec") {
                Some(("spec", format!("{template}.spec")))
            } else if after.starts_with("metadata.labels") {
                Some(("metadata.labels", format!("{template}.metadata.labels")))
            } else if after.starts_with("metadata.annotations") {
                Some((
                    "metadata.annotations",
                    format!("{template}.metadata.annotations"),
                ))
            } else {
                None
            };
            if let Some((from, to)) = replaced {
                out.push_str(root);
                out.push_str(&to);
                rest = &after[from.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[index + c.len_utf8()..];
    }
    out
}

/// A character of a regular expression's word (`\w`).
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The root `Object{…}` (spaces allowed before `{`) with its fields moved into the template's
/// initializers; any other text as it is.
fn wrap_root(text: &str, cronjob: bool) -> String {
    let Some(rest) = text.trim().strip_prefix("Object") else {
        return text.to_string();
    };
    let Some(content) = rest.trim_start().strip_prefix('{') else {
        return text.to_string();
    };
    let mut depth = 1usize;
    let mut end = None;
    for (i, c) in content.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    // `endIndex > 0`: an empty `Object{}` is left as it is.
    let Some(end) = end.filter(|e| *e > 0) else {
        return text.to_string();
    };
    let (wrapper, closing) = if cronjob {
        (
            "Object{spec: Object.spec{jobTemplate: Object.spec.jobTemplate{spec: Object.spec.jobTemplate.spec{template: Object.spec.jobTemplate.spec.template{",
            "}}}}}",
        )
    } else {
        (
            "Object{spec: Object.spec{template: Object.spec.template{",
            "}}}",
        )
    };
    format!(
        "{wrapper}{}{closing}{}",
        &content[..end],
        &content[end + 1..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_template_where_a_word_starts() {
        assert_eq!(
            paths(
                "object.spec.x + oldObject.metadata.labels + myobject.spec",
                false
            ),
            "object.spec.template.spec.x + oldObject.spec.template.metadata.labels + myobject.spec"
        );
        assert_eq!(
            paths("Object.metadata.annotations", true),
            "Object.spec.jobTemplate.spec.template.metadata.annotations"
        );
    }

    #[test]
    fn the_root_object_is_wrapped_in_the_template() {
        assert_eq!(
            wrap_root(" Object {metadata: Object.metadata{}} ", false),
            "Object{spec: Object.spec{template: Object.spec.template{metadata: Object.metadata{}}}}"
        );
        assert_eq!(wrap_root("Object{}", false), "Object{}");
    }
}
