//! The Kyverno release a project targets (`--kyverno-version`, `kyvernoVersion` in
//! `.admission-ls.yaml`, the editor setting `admissionLs.kyvernoVersion`): Kyverno compiles every
//! policy with its own release's libraries (`Latest()` in `pkg/cel/policies/*/compiler`), so a
//! call of a function a later release added (`library.rs` `since`) does not compile there. Each
//! such call is reported at its characters as the compiler words an unknown function,
//! "undeclared reference to …", with the release that added it. The default is the newest
//! release, for which nothing is reported.

use super::sites;
use crate::cel::ast::{Ast, ExprKind};
use crate::policy::families::FamilySite;
use crate::policy::{Code, Diagnostic};
use crate::text::TextRange;
use crate::yaml::{Node, YamlFile};

/// A Kyverno release, by its minor version (1.x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KyvernoVersion {
    minor: u32,
}

impl KyvernoVersion {
    /// The first release with CEL policies.
    pub const OLDEST: KyvernoVersion = KyvernoVersion { minor: 14 };
    /// The newest release whose libraries are declared (1.19 adds cel-go's regex).
    pub const NEWEST: KyvernoVersion = KyvernoVersion { minor: 19 };

    /// `1.17`, `v1.17` or `1.17.2`; another text or a release outside 1.14 … 1.19 is an error
    /// saying what is accepted.
    pub fn parse(text: &str) -> Result<KyvernoVersion, String> {
        let bad = || {
            format!(
                "expected a Kyverno release from {} to {} (such as \"1.17\"), found \"{text}\"",
                KyvernoVersion::OLDEST,
                KyvernoVersion::NEWEST
            )
        };
        let trimmed = text.trim().trim_start_matches('v');
        let mut parts = trimmed.split('.');
        let (Some("1"), Some(minor)) = (parts.next(), parts.next()) else {
            return Err(bad());
        };
        let minor: u32 = minor.parse().map_err(|_| bad())?;
        if parts
            .next()
            .is_some_and(|patch| patch.parse::<u32>().is_err())
        {
            return Err(bad());
        }
        let version = KyvernoVersion { minor };
        if !(KyvernoVersion::OLDEST..=KyvernoVersion::NEWEST).contains(&version) {
            return Err(bad());
        }
        Ok(version)
    }
}

impl Default for KyvernoVersion {
    fn default() -> Self {
        KyvernoVersion::NEWEST
    }
}

impl std::str::FromStr for KyvernoVersion {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        KyvernoVersion::parse(text)
    }
}

impl std::fmt::Display for KyvernoVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

/// The calls in the Kyverno documents of `file` of functions later than `version`.
pub fn gate(file: &YamlFile, version: KyvernoVersion) -> Vec<Diagnostic> {
    if version >= KyvernoVersion::NEWEST {
        return Vec::new();
    }
    file.documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .flat_map(|root| refusals(root, version))
        .collect()
}

/// The calls of functions later than `version` in the document at `root`, if it is Kyverno's.
pub fn refusals(root: &Node, version: KyvernoVersion) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if version >= KyvernoVersion::NEWEST || !is_kyverno(root) {
        return out;
    }
    for site in sites::collect(root) {
        let parsed = crate::cel::parse(&site.text);
        if parsed.errors.is_empty() {
            later_calls(&site, &parsed.ast, version, &mut out);
        }
    }
    out
}

fn is_kyverno(root: &Node) -> bool {
    root.get("apiVersion")
        .and_then(Node::as_str)
        .and_then(|v| crate::policy::families::version_in(v, super::GROUP))
        .is_some()
}

/// Each call of `ast` whose function came after `version`.
fn later_calls(site: &FamilySite, ast: &Ast, version: KyvernoVersion, out: &mut Vec<Diagnostic>) {
    for id in ast.preorder(ast.root) {
        let ExprKind::Call {
            target, function, ..
        } = &ast.expr(id).kind
        else {
            continue;
        };
        // `hash.sha1(x)` parses as a member call on `hash`; the library declares `hash.sha1`.
        let namespace = target.and_then(|t| match &ast.expr(t).kind {
            ExprKind::Ident(name) => Some(name.text.trim_start_matches('.').to_string()),
            _ => None,
        });
        let qualified = namespace
            .as_ref()
            .map(|ns| format!("{ns}.{}", function.text));
        let (name, release) = match qualified
            .as_ref()
            .and_then(|q| super::library::since(q).map(|r| (q.clone(), r)))
        {
            Some(found) => found,
            None => match super::library::since(&function.text) {
                Some(release) => (function.text.clone(), release),
                None => continue,
            },
        };
        let Ok(added) = KyvernoVersion::parse(release) else {
            continue;
        };
        if added <= version {
            continue;
        }
        let start = match (&namespace, target) {
            (Some(_), Some(t)) if name.contains('.') => ast.expr(*t).span.start(),
            _ => function.span.start(),
        };
        let span = TextRange::new(start, function.span.end().max(start));
        let message = format!(
            "{}: undeclared reference to '{name}' (in container '') (Kyverno {added} and later; the project targets Kyverno {version})",
            site.path
        );
        out.push(Diagnostic::new(
            Code::CelUndeclared,
            site.source_map.to_file_range(span),
            message,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_in_their_written_forms() {
        assert_eq!(KyvernoVersion::parse("1.17").map(|v| v.minor), Ok(17));
        assert_eq!(KyvernoVersion::parse("v1.18.2").map(|v| v.minor), Ok(18));
        for bad in ["1.13", "1.20", "2.1", "latest", "1.x"] {
            assert!(KyvernoVersion::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(KyvernoVersion::default().to_string(), "1.19");
    }
}
