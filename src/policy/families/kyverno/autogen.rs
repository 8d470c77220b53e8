//! Autogen: a ValidatingPolicy or ImageValidatingPolicy on Pods is also applied to the Pod
//! controllers, with its expressions rewritten (kyverno/kyverno `pkg/cel/autogen`:
//! `support.go` `CanAutoGen`, `data.go` the controllers and their replacements, `replacement.go`
//! the rewrite, `pkg/cel/policies/vpol/autogen/autogen.go` the controllers a policy selects).
//! Here each rewritten expression is checked against the controllers' schemas, and what it gets
//! wrong is reported on the original characters.

use crate::schema::Gvk;
use crate::text::{TextRange, TextSize};
use crate::yaml::{Node, NodeKind};

/// A Pod controller autogen targets: its resource name (as `spec.autogen.podControllers` names
/// it), its kind, and whether it is rewritten the CronJob way.
struct Controller {
    resource: &'static str,
    group: &'static str,
    kind: &'static str,
    cronjob: bool,
}

const CONTROLLERS: &[Controller] = &[
    Controller {
        resource: "daemonsets",
        group: "apps",
        kind: "DaemonSet",
        cronjob: false,
    },
    Controller {
        resource: "deployments",
        group: "apps",
        kind: "Deployment",
        cronjob: false,
    },
    Controller {
        resource: "replicasets",
        group: "apps",
        kind: "ReplicaSet",
        cronjob: false,
    },
    Controller {
        resource: "statefulsets",
        group: "apps",
        kind: "StatefulSet",
        cronjob: false,
    },
    Controller {
        resource: "jobs",
        group: "batch",
        kind: "Job",
        cronjob: false,
    },
    Controller {
        resource: "cronjobs",
        group: "batch",
        kind: "CronJob",
        cronjob: true,
    },
];

/// One rewrite of the policy: the replacements and the controllers it is checked against.
pub(super) struct Rewrite {
    /// The autogen configuration's name (`defaults`, `cronjobs`: `data.go` `ReplacementsMap`).
    pub config: &'static str,
    /// `(from, to)` after `object.` and `oldObject.`.
    replacements: [(&'static str, &'static str); 2],
    /// The controllers, by kind.
    pub kinds: Vec<Gvk>,
}

const DEFAULTS: [(&str, &str); 2] = [
    ("spec", "spec.template.spec"),
    ("metadata", "spec.template.metadata"),
];
const CRONJOBS: [(&str, &str); 2] = [
    ("spec", "spec.jobTemplate.spec.template.spec"),
    ("metadata", "spec.jobTemplate.spec.template.metadata"),
];

/// The rewrites Kyverno generates for the document at `root` of `kind`: none unless the policy
/// validates Pods only (`CanAutoGen`).
pub(super) fn rewrites(root: &Node, kind: &str) -> Vec<Rewrite> {
    let autogen_kind = matches!(
        kind,
        "ValidatingPolicy"
            | "NamespacedValidatingPolicy"
            | "ImageValidatingPolicy"
            | "NamespacedImageValidatingPolicy"
    );
    if !autogen_kind {
        return Vec::new();
    }
    pod_rewrites(root)
}

/// The controllers and configurations of the policy at `root` whatever its kind: none unless
/// its match constraints select Pods only (`CanAutoGen`). MutatingPolicy evaluation uses them
/// with its own rewrite (`pkg/cel/policies/mpol/autogen/autogen.go`).
pub(super) fn pod_rewrites(root: &Node) -> Vec<Rewrite> {
    let Some(spec) = root.get("spec") else {
        return Vec::new();
    };
    if !can_autogen(spec.get("matchConstraints")) {
        return Vec::new();
    }
    let selected = selected_controllers(spec);
    let chosen = |cronjob: bool| -> Vec<Gvk> {
        CONTROLLERS
            .iter()
            .filter(|c| c.cronjob == cronjob)
            .filter(|c| {
                selected
                    .as_ref()
                    .is_none_or(|s| s.iter().any(|r| r == c.resource))
            })
            .map(|c| Gvk::new(c.group, "v1", c.kind))
            .collect()
    };
    [
        ("defaults", DEFAULTS, chosen(false)),
        ("cronjobs", CRONJOBS, chosen(true)),
    ]
    .into_iter()
    .filter(|(_, _, kinds)| !kinds.is_empty())
    .map(|(config, replacements, kinds)| Rewrite {
        config,
        replacements,
        kinds,
    })
    .collect()
}

/// `spec.autogen.podControllers.controllers`, when set: the controllers the policy selects.
fn selected_controllers(spec: &Node) -> Option<Vec<String>> {
    let list = spec
        .get("autogen")?
        .get("podControllers")?
        .get("controllers")?;
    let NodeKind::Sequence(items) = &list.kind else {
        return Some(Vec::new());
    };
    Some(
        items
            .iter()
            .filter_map(Node::as_str)
            .map(str::to_string)
            .collect(),
    )
}

/// Whether the match constraints select Pods only, with no object selector, exclusion or names.
pub(super) fn can_autogen(constraints: Option<&Node>) -> bool {
    let Some(constraints) = constraints.filter(|c| !c.is_null()) else {
        return false;
    };
    let selector = constraints.get("objectSelector");
    let selects = |key: &str| selector.and_then(|s| s.get(key)).is_some_and(non_empty);
    if selects("matchLabels") || selects("matchExpressions") {
        return false;
    }
    if constraints
        .get("excludeResourceRules")
        .is_some_and(non_empty)
    {
        return false;
    }
    let Some(NodeKind::Sequence(rules)) = constraints.get("resourceRules").map(|r| &r.kind) else {
        return false;
    };
    let [rule] = rules.as_slice() else {
        return false;
    };
    !rule.get("resourceNames").is_some_and(non_empty)
        && only(rule.get("apiGroups"), "")
        && only(rule.get("apiVersions"), "v1")
        && only(rule.get("resources"), "pods")
}

fn non_empty(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Sequence(items) => !items.is_empty(),
        NodeKind::Mapping(entries) => !entries.is_empty(),
        _ => !node.is_null(),
    }
}

/// Whether `node` is a list of exactly one string, `value`.
fn only(node: Option<&Node>, value: &str) -> bool {
    let Some(NodeKind::Sequence(items)) = node.map(|n| &n.kind) else {
        return false;
    };
    matches!(items.as_slice(), [item] if item.as_str() == Some(value))
}

/// An expression rewritten, with the way back to the original's offsets.
pub(super) struct Rewritten {
    /// The rewritten text.
    pub text: String,
    /// `(rewritten start, rewritten length, original start, original length)` of each replaced
    /// occurrence, in order.
    edits: Vec<(usize, usize, usize, usize)>,
}

impl Rewritten {
    /// The original range of a range of the rewritten text: a range inside an inserted path maps
    /// to the occurrence it replaced.
    pub fn original(&self, span: TextRange) -> TextRange {
        let start = self.map(usize::from(span.start()));
        let end = self.map(usize::from(span.end())).max(start);
        let at = |n: usize| TextSize::from(u32::try_from(n).unwrap_or(u32::MAX));
        TextRange::new(at(start), at(end))
    }

    fn map(&self, offset: usize) -> usize {
        let mut shift: isize = 0;
        for &(new_start, new_len, old_start, old_len) in &self.edits {
            if offset < new_start {
                break;
            }
            if offset < new_start + new_len {
                return old_start + (offset - new_start).min(old_len);
            }
            shift = (new_start + new_len) as isize - (old_start + old_len) as isize;
        }
        offset.saturating_add_signed(-shift)
    }
}

impl Rewrite {
    /// `text` with Kyverno's replacements applied (`autogen.Apply`: `object.` and `oldObject.`
    /// followed by each `from`, except before `.namespace`). One left-to-right scan gives the
    /// same text as Kyverno's replacements one after the other: no replacement's output holds
    /// the pattern of a later one.
    pub fn apply(&self, text: &str) -> Rewritten {
        let mut out = String::with_capacity(text.len() * 2);
        let mut edits = Vec::new();
        let mut i = 0;
        while i < text.len() {
            if let Some((from_len, to)) = self.match_at(text, i) {
                edits.push((out.len(), to.len(), i, from_len));
                out.push_str(&to);
                i += from_len;
                continue;
            }
            let step = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + step]);
            i += step;
        }
        Rewritten { text: out, edits }
    }

    /// The replacement that applies at byte `i` of `text`: the length replaced and the new text.
    fn match_at(&self, text: &str, i: usize) -> Option<(usize, String)> {
        let rest = text.get(i..)?;
        for root in ["oldObject.", "object."] {
            for (from, to) in self.replacements {
                let Some(after) = rest.strip_prefix(root).and_then(|r| r.strip_prefix(from)) else {
                    continue;
                };
                if protected(after) {
                    return None;
                }
                return Some((root.len() + from.len(), format!("{root}{to}")));
            }
        }
        None
    }
}

/// `replacement.go` `isProtected`: the occurrence is followed by `.namespace` as a whole segment.
fn protected(rest: &str) -> bool {
    rest.strip_prefix(".namespace")
        .is_some_and(|next| !next.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Rewrite {
        Rewrite {
            config: "defaults",
            replacements: DEFAULTS,
            kinds: Vec::new(),
        }
    }

    #[test]
    fn rewrites_as_replacement_go_and_maps_back() {
        let text = "object.spec.x && oldObject.metadata.name && object.metadata.namespace";
        let rewritten = defaults().apply(text);
        assert_eq!(
            rewritten.text,
            "object.spec.template.spec.x && oldObject.spec.template.metadata.name && object.metadata.namespace"
        );
        // `x` after the first insertion maps back to `x` in the original.
        let x = rewritten.text.find(".x").map(|i| i + 1).unwrap_or(0);
        let at = |n: usize| TextSize::from(n as u32);
        let span = TextRange::new(at(x), at(x + 1));
        assert_eq!(rewritten.original(span), TextRange::new(at(12), at(13)));
        // A range inside an inserted path maps into the occurrence it replaced.
        let inside = TextRange::new(at(12), at(20));
        assert_eq!(rewritten.original(inside), TextRange::new(at(11), at(11)));
    }
}
