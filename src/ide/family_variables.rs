//! The variables of a Kyverno CEL policy (`spec.variables`, each used as `variables.NAME` in the
//! policy's expressions), found as an admission policy's are, for references, highlights and
//! rename.

use crate::policy::families::expression_sites;
use crate::text::{TextRange, TextSize};
use crate::yaml::{Node, ScalarStyle, YamlFile};

use super::references::add_variable_selects;

/// A variable of the Kyverno policy under a cursor.
pub(super) struct FamilyVariable {
    /// Its name.
    pub name: String,
    /// Its definition's name (inside any quotes), then every `variables.NAME`.
    pub uses: Vec<TextRange>,
    /// The definition's whole scalar, when it is a plain one.
    pub plain_definition: Option<TextRange>,
    /// The policy's other variables.
    pub others: Vec<String>,
}

/// The variable whose definition or use is at `offset` of `yaml`, in a Kyverno CEL policy.
pub(super) fn at(yaml: &YamlFile, offset: TextSize) -> Option<FamilyVariable> {
    let document = yaml
        .documents
        .iter()
        .find(|d| d.range.contains_inclusive(offset))?;
    let root = crate::policy::checked_root(document)?;
    let api_version = root.get("apiVersion").and_then(Node::as_str)?;
    if !api_version.starts_with("policies.kyverno.io/") {
        return None;
    }
    let items = root.get("spec")?.get("variables")?.as_sequence()?;
    let names: Vec<&Node> = items.iter().filter_map(|item| item.get("name")).collect();
    let mut uses: Vec<(String, Vec<TextRange>)> = names
        .iter()
        .filter_map(|node| Some((node.as_str()?.to_owned(), vec![content_range(node)?])))
        .collect();
    let sites: Vec<_> = expression_sites(yaml)
        .into_iter()
        .filter(|site| root.range.contains_range(site.range))
        .collect();
    let trees: Vec<_> = sites
        .iter()
        .map(|s| crate::cel::parse(&s.text).ast)
        .collect();
    add_variable_selects(&mut uses, sites.iter().zip(&trees));
    let others = uses
        .iter()
        .map(|(name, _)| name.clone())
        .collect::<Vec<_>>();
    let (name, ranges) = uses
        .into_iter()
        .find(|(_, ranges)| ranges.iter().any(|r| r.contains_inclusive(offset)))?;
    let definition = names.iter().find(|n| n.as_str() == Some(name.as_str()));
    let plain = |node: &&&Node| {
        node.as_scalar()
            .is_some_and(|s| s.style == ScalarStyle::Plain)
    };
    Some(FamilyVariable {
        others: others.into_iter().filter(|o| *o != name).collect(),
        plain_definition: definition.filter(plain).map(|node| node.range),
        name,
        uses: ranges,
    })
}

/// The characters of a scalar's value (inside its quotes).
fn content_range(node: &Node) -> Option<TextRange> {
    let scalar = node.as_scalar()?;
    let decoded = TextRange::up_to(TextSize::of(scalar.value.as_str()));
    Some(scalar.source_map.to_file_range(decoded))
}
