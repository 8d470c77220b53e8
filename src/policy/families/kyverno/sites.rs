//! The CEL expression sites of a Kyverno policy: every field the CRD schemas of
//! `config/crds/policies.kyverno.io` describe as a CEL expression. Variables come first: every
//! other expression may read them (MutatingPolicy compiles its variables before its match
//! conditions, `pkg/cel/policies/mpol/compiler/compiler.go`, and published policies rely on it).

use crate::policy::families::FamilySite;
use crate::yaml::{Node, NodeKind};

/// One step of a site's path: a field, or every item of a list.
#[derive(Clone, Copy)]
enum Step {
    Key(&'static str),
    Each,
}

use Step::{Each, Key};

/// A kind of expression site: its role and where it is under the root.
struct SitePattern {
    role: &'static str,
    steps: &'static [Step],
}

/// Every CEL field of every kind, in the order Kyverno compiles them.
const PATTERNS: &[SitePattern] = &[
    SitePattern {
        role: "variable",
        steps: &[Key("spec"), Key("variables"), Each, Key("expression")],
    },
    SitePattern {
        role: "matchCondition",
        steps: &[Key("spec"), Key("matchConditions"), Each, Key("expression")],
    },
    SitePattern {
        role: "matchImageReference",
        steps: &[
            Key("spec"),
            Key("matchImageReferences"),
            Each,
            Key("expression"),
        ],
    },
    SitePattern {
        role: "images",
        steps: &[Key("spec"), Key("images"), Each, Key("expression")],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("cosign"),
            Key("key"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("cosign"),
            Key("certificate"),
            Key("cert"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("cosign"),
            Key("certificate"),
            Key("certChain"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("cosign"),
            Key("trustedRoot"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("cosign"),
            Key("keyless"),
            Key("identities"),
            Each,
            Key("subjectExpression"),
        ],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("notary"),
            Key("certs"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "attestor",
        steps: &[
            Key("spec"),
            Key("attestors"),
            Each,
            Key("notary"),
            Key("tsaCerts"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "validation",
        steps: &[Key("spec"), Key("validations"), Each, Key("expression")],
    },
    SitePattern {
        role: "messageExpression",
        steps: &[
            Key("spec"),
            Key("validations"),
            Each,
            Key("messageExpression"),
        ],
    },
    SitePattern {
        role: "auditAnnotation",
        steps: &[
            Key("spec"),
            Key("auditAnnotations"),
            Each,
            Key("valueExpression"),
        ],
    },
    SitePattern {
        role: "targetMatchConstraints",
        steps: &[
            Key("spec"),
            Key("targetMatchConstraints"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "targetMatchCondition",
        steps: &[
            Key("spec"),
            Key("targetMatchConditions"),
            Each,
            Key("expression"),
        ],
    },
    SitePattern {
        role: "applyConfiguration",
        steps: &[
            Key("spec"),
            Key("mutations"),
            Each,
            Key("applyConfiguration"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "jsonPatch",
        steps: &[
            Key("spec"),
            Key("mutations"),
            Each,
            Key("jsonPatch"),
            Key("expression"),
        ],
    },
    SitePattern {
        role: "generate",
        steps: &[Key("spec"), Key("generate"), Each, Key("expression")],
    },
    SitePattern {
        role: "condition",
        steps: &[Key("spec"), Key("conditions"), Each, Key("expression")],
    },
];

/// Every non-blank CEL expression of the document at `root`, in [`PATTERNS`] order.
pub(super) fn collect(root: &Node) -> Vec<FamilySite> {
    let mut sites = Vec::new();
    for pattern in PATTERNS {
        let mut found = Found {
            role: pattern.role,
            sites: &mut sites,
        };
        found.walk(root, pattern.steps, String::new(), None);
    }
    sites
}

struct Found<'s> {
    role: &'static str,
    sites: &'s mut Vec<FamilySite>,
}

impl Found<'_> {
    /// Follows `steps` from `node`; `name` is the `name` of the innermost list item passed.
    fn walk(&mut self, node: &Node, steps: &[Step], path: String, name: Option<String>) {
        let Some((step, rest)) = steps.split_first() else {
            return self.site(node, path, name);
        };
        match *step {
            Key(key) => {
                if let Some(child) = node.get(key) {
                    let path = if path.is_empty() {
                        key.to_string()
                    } else {
                        format!("{path}.{key}")
                    };
                    self.walk(child, rest, path, name);
                }
            }
            Each => {
                let NodeKind::Sequence(items) = &node.kind else {
                    return;
                };
                for (i, item) in items.iter().enumerate() {
                    let item_name = item.get("name").and_then(Node::as_str).map(str::to_string);
                    self.walk(
                        item,
                        rest,
                        format!("{path}[{i}]"),
                        item_name.or(name.clone()),
                    );
                }
            }
        }
    }

    fn site(&mut self, node: &Node, path: String, name: Option<String>) {
        let Some(scalar) = node.as_scalar() else {
            return;
        };
        if node.is_null() || scalar.value.trim().is_empty() {
            return;
        }
        self.sites.push(FamilySite {
            path,
            name,
            role: self.role,
            text: scalar.value.clone(),
            source_map: scalar.source_map.clone(),
            range: node.range,
        });
    }
}
