//! The schema nodes of one served version that carry `x-kubernetes-validations`, found at any
//! depth (`properties`, `items`, `additionalProperties`), each with what its rules are compiled
//! against: the CEL type of `self`, whether `oldSelf` can be correlated there, and how many values
//! the node can have in one object (for the cost limit).
//!
//! Follows apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`: a list that
//! is not `x-kubernetes-list-type: map` makes everything below it uncorrelatable, and the error
//! names the highest such list's `items` (`withForbidOldSelfValidations` keeps the first path).

use crate::cel::types::{Type, TypeProvider};
use crate::policy::node::{entries, key_text, lookup, lookup_str, scalar};
use crate::schema::SchemaTypes;
use crate::schema::escape::escape;
use crate::yaml::Node;

/// Deeper schema levels are not searched for rules (the type conversion stops at 64 too).
const MAX_DEPTH: usize = 64;

/// A schema node with rules.
pub struct RuleNode<'a> {
    /// The node (its `x-kubernetes-validations` holds the rules).
    pub schema: &'a Node,
    /// Its field path as the API server writes it
    /// (`spec.versions[0].schema.openAPIV3Schema.properties[spec]`).
    pub path: String,
    /// The type of `self`.
    pub self_type: Type,
    /// The path of the highest list above the node that cannot correlate old and new items.
    pub uncorrelatable: Option<String>,
    /// The product of the `maxItems`/`maxProperties` of the lists and maps above the node, `None`
    /// when one of them is unbounded.
    pub cardinality: Option<u64>,
}

/// Where the walk is: the node's path, type, correlation and cardinality.
#[derive(Clone)]
struct At {
    path: String,
    ty: Type,
    uncorrelatable: Option<String>,
    cardinality: Option<u64>,
}

/// Every node of the schema rooted at `root` (typed `root_type`) that has rules, in document order.
pub fn rule_nodes<'a>(
    root: &'a Node,
    path: &str,
    root_type: Type,
    types: &SchemaTypes,
) -> Vec<RuleNode<'a>> {
    let mut out = Vec::new();
    let at = At {
        path: path.to_string(),
        ty: root_type,
        uncorrelatable: None,
        cardinality: Some(1),
    };
    visit(root, &at, types, 0, &mut out);
    out
}

fn visit<'a>(
    node: &'a Node,
    at: &At,
    types: &SchemaTypes,
    depth: usize,
    out: &mut Vec<RuleNode<'a>>,
) {
    if depth > MAX_DEPTH || entries(node).is_none() {
        return;
    }
    if lookup(node, "x-kubernetes-validations").is_some() {
        out.push(RuleNode {
            schema: node,
            path: at.path.clone(),
            self_type: at.ty.clone(),
            uncorrelatable: at.uncorrelatable.clone(),
            cardinality: at.cardinality,
        });
    }
    if let Some(properties) = lookup(node, "properties").and_then(|e| entries(&e.value)) {
        for entry in properties {
            let Some(name) = key_text(entry) else {
                continue;
            };
            let child = At {
                path: format!("{}.properties[{name}]", at.path),
                ty: property_type(&at.ty, name, types),
                ..at.clone()
            };
            visit(&entry.value, &child, types, depth + 1, out);
        }
    }
    if let Some(items) = lookup(node, "items") {
        let path = format!("{}.items", at.path);
        let correlatable = lookup_str(node, "x-kubernetes-list-type") == Some("map");
        let child = At {
            uncorrelatable: at
                .uncorrelatable
                .clone()
                .or_else(|| (!correlatable).then(|| path.clone())),
            ty: match &at.ty {
                Type::List(elem) => (**elem).clone(),
                _ => Type::Dyn,
            },
            cardinality: times(at.cardinality, bound(node, "maxItems")),
            path,
        };
        visit(&items.value, &child, types, depth + 1, out);
    }
    if let Some(values) = lookup(node, "additionalProperties") {
        let child = At {
            path: format!("{}.additionalProperties", at.path),
            ty: match &at.ty {
                Type::Map(_, value) => (**value).clone(),
                _ => Type::Dyn,
            },
            cardinality: times(at.cardinality, bound(node, "maxProperties")),
            uncorrelatable: at.uncorrelatable.clone(),
        };
        visit(&values.value, &child, types, depth + 1, out);
    }
}

/// The type of property `name` of a value of type `ty` (`dyn` where the schema types none, or
/// the name cannot be escaped and so is not accessible).
fn property_type(ty: &Type, name: &str, types: &SchemaTypes) -> Type {
    let Type::Object(owner) = ty else {
        return Type::Dyn;
    };
    escape(name)
        .and_then(|escaped| types.field(owner, &escaped))
        .map_or(Type::Dyn, |field| field.ty)
}

/// A non-negative integer bound (`maxItems`…) written on `node`.
pub fn bound(node: &Node, key: &str) -> Option<u64> {
    let entry = lookup(node, key)?;
    scalar(&entry.value)?.value.parse::<u64>().ok()
}

fn times(cardinality: Option<u64>, bound: Option<u64>) -> Option<u64> {
    Some(cardinality?.saturating_mul(bound?))
}
