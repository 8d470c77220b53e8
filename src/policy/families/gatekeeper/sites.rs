//! The CEL expression sites of a ConstraintTemplate: the `source` of its first
//! `K8sNativeValidation` code entry, as `pkg/drivers/k8scel/schema/schema.go` `Source` decodes it
//! (`variables`, `matchCondition` — singular, its JSON name —, `validations` with `expression` and
//! `messageExpression`). Variables come first: the others read them.

use crate::policy::families::FamilySite;
use crate::yaml::Node;

/// The lists of the source with the role of their expressions, in the order the driver compiles
/// them.
const LISTS: &[(&str, &str, &str)] = &[
    ("variables", "expression", "variable"),
    ("matchCondition", "expression", "matchCondition"),
    ("validations", "expression", "validation"),
    ("validations", "messageExpression", "messageExpression"),
];

/// Every non-blank CEL expression of the template at `root`.
pub(super) fn collect(root: &Node) -> Vec<FamilySite> {
    let mut sites = Vec::new();
    for (index, code) in super::cel_code(root) {
        let Some(source) = code.get("source") else {
            continue;
        };
        let prefix = format!("spec.targets[0].code[{index}].source");
        for (list, field, role) in LISTS {
            let items = source.get(list).and_then(Node::as_sequence).unwrap_or(&[]);
            for (i, item) in items.iter().enumerate() {
                let Some(node) = item.get(field) else {
                    continue;
                };
                let name = item.get("name").and_then(Node::as_str).map(str::to_string);
                let path = format!("{prefix}.{list}[{i}].{field}");
                push(&mut sites, node, path, name, role);
            }
        }
    }
    sites
}

fn push(
    sites: &mut Vec<FamilySite>,
    node: &Node,
    path: String,
    name: Option<String>,
    role: &'static str,
) {
    let Some(scalar) = node.as_scalar() else {
        return;
    };
    if node.is_null() || scalar.value.trim().is_empty() {
        return;
    }
    sites.push(FamilySite {
        path,
        name,
        role,
        text: scalar.value.clone(),
        source_map: scalar.source_map.clone(),
        range: node.range,
    });
}
