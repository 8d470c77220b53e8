//! Document families: each family of CEL-bearing documents (Kyverno's policies, DRA device
//! selectors, authentication and authorization configuration, Gatekeeper, and the built-in
//! Kubernetes admission policies, CRD validation rules and webhook configurations) declares in its
//! own module which documents it claims, how they are checked (structure, CEL syntax, typed CEL)
//! and what their expression sites are, behind the [`Family`] trait. The checker asks
//! [`claiming`] once per document, the editor features [`site_at`] and [`expression_sites`], the
//! test runs and the test explorer [`suites`]; a new family is one module and one line in
//! [`FAMILIES`].

pub mod apiserver_config;
pub mod crd_rules;
pub mod dra;
pub mod evaluation;
pub mod gatekeeper;
pub mod kubernetes;
pub mod kyverno;
pub mod suites;
#[cfg(test)]
mod tests;
pub mod webhooks;

pub use suites::Suites;

use super::sites::{ExpressionSite, ResultType, SiteRole};
use super::workspace::Workspace;
use super::{Diagnostic, PolicyKind};
use crate::cel::check::Env;
use crate::text::{TextRange, TextSize};
use crate::yaml::{Node, SourceMap, YamlFile};

/// One CEL expression of a family's document, for the checker and the editor features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySite {
    /// The field path, e.g. `spec.validations[0].expression`.
    pub path: String,
    /// The name of the variable or match condition, if it has one.
    pub name: Option<String>,
    /// What the expression is for, in the family's words (`validation`, `variable`…).
    pub role: &'static str,
    /// The text the family's engine compiles.
    pub text: String,
    /// Decoded scalar offsets → file offsets.
    pub source_map: SourceMap,
    /// The scalar's range in the file.
    pub range: TextRange,
}

/// A family of documents: what it claims and how its documents are checked.
pub trait Family: Sync {
    /// The API groups the family's documents are written in (for "no policy here" notes and the
    /// server's workspace scan, `policy/markers.rs`; the editor clients need a case of each in
    /// `editors/testdata/detection.json`, `tests/editor_detection.rs`).
    fn groups(&self) -> &'static [&'static str];
    /// Whether a document of `api_version` and `kind` belongs to the family (also when the version
    /// or kind is unknown to it: it reports those itself).
    fn claims(&self, api_version: &str, kind: &str) -> bool;
    /// Whether the document at `root` belongs to the family: by default, its `apiVersion` (which
    /// must be written) and `kind` are [`Family::claims`]'s; a family that recognises its documents
    /// otherwise (by kind alone, by typed scalars) says so here.
    fn claims_root(&self, root: &Node) -> bool {
        let Some(api_version) = root.get("apiVersion").and_then(Node::as_str) else {
            return false;
        };
        let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
        self.claims(api_version, kind)
    }
    /// Every diagnostic of a claimed document: structure, CEL syntax, typed CEL.
    fn check(&self, root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>);
    /// The expression sites of a claimed document, in field order (a family that gives the
    /// editor its sites otherwise, by [`Family::site_at`] and [`Family::expression_sites`], may
    /// leave this empty).
    fn sites(&self, _root: &Node) -> Vec<FamilySite> {
        Vec::new()
    }
    /// The environment the editor checks site `index` of `sites` in (`parsed`: a recovered tree
    /// for every site).
    fn editor_env(
        &self,
        _root: &Node,
        _sites: &[FamilySite],
        _parsed: &[Option<crate::cel::ast::Ast>],
        _index: usize,
        _minor: u32,
        _workspace: &Workspace,
    ) -> Option<Env> {
        None
    }
    /// The expression site under `offset` in the claimed document `root`, for the editor: the
    /// site, the environment it is checked in, and the cursor as an offset into the site's text.
    /// By default, from [`Family::sites`] and [`Family::editor_env`].
    fn site_at(
        &self,
        root: &Node,
        offset: TextSize,
        minor: u32,
        workspace: &Workspace,
    ) -> Option<(ExpressionSite, Env, TextSize)> {
        let sites = self.sites(root);
        let (index, at) = sites.iter().enumerate().find_map(|(i, site)| {
            let at = site.source_map.to_decoded(offset)?;
            (usize::from(at) <= site.text.len()).then_some((i, at))
        })?;
        let parsed: Vec<_> = sites
            .iter()
            .map(|site| Some(crate::cel::parse(&site.text).ast))
            .collect();
        let env = self.editor_env(root, &sites, &parsed, index, minor, workspace)?;
        let site = sites.get(index)?;
        Some((site.to_expression_site(site.builtin_role()), env, at))
    }
    /// Every expression site of the claimed document `root` as the editor features' sites (for
    /// the semantic tokens). By default, [`Family::sites`] with their nearest built-in roles.
    fn expression_sites(&self, root: &Node) -> Vec<ExpressionSite> {
        self.sites(root)
            .iter()
            .map(|site| site.to_expression_site(site.builtin_role()))
            .collect()
    }
    /// Whether the claimed document `root` is one `eval` and the editor's evaluate command run
    /// (a policy kind the family evaluates, not a binding, an exception or a kind not evaluated
    /// yet): the evaluate lens is shown on it. The built-in admission policies answer `false`:
    /// the lens reads them itself.
    fn evaluated(&self, _root: &Node) -> bool {
        false
    }
    /// What the family's [`Family::evaluated`] documents are evaluated against.
    fn evaluated_against(&self) -> EvaluatedAgainst {
        EvaluatedAgainst::Request
    }
    /// Whether `eval` gives this family's documents to [`Family::evaluate`]; the built-in
    /// admission kinds answer `false`, their evaluation (`policy::admission`) having its own
    /// request and outcome.
    fn evaluates(&self) -> bool {
        true
    }
    /// The family's verdicts for a claimed document and a request: `None` when the family does
    /// not evaluate documents of this kind, `Err` when the document cannot be evaluated (why).
    fn evaluate(
        &self,
        _root: &Node,
        _input: &evaluation::EvalInput,
    ) -> Option<Result<Vec<evaluation::FamilyOutcome>, String>> {
        None
    }
    /// The family's test suites (the documents of its component's test format), if it has any:
    /// `admission-ls test`, the test explorer and the run command reach them through [`suites`].
    fn suites(&self) -> Option<&'static dyn Suites> {
        None
    }
}

/// What `eval` and the editor's evaluate command run a family's document against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvaluatedAgainst {
    /// An admission request (`--object`, `--old-object`…): the policies' verdicts.
    Request,
    /// The devices of a file of ResourceSlices (DRA device selectors).
    ResourceSlices,
    /// A token's claims (the API server's authentication configuration).
    TokenClaims,
}

impl FamilySite {
    /// The site as the editor features' [`ExpressionSite`]: `role` is the nearest built-in role
    /// (for the features that tell roles apart, such as the result type shown).
    pub fn to_expression_site(&self, role: SiteRole) -> ExpressionSite {
        let result = match role {
            SiteRole::MatchCondition | SiteRole::Validation => ResultType::Bool,
            SiteRole::MessageExpression => ResultType::String,
            SiteRole::AuditAnnotation => ResultType::StringOrNull,
            _ => ResultType::Any,
        };
        ExpressionSite {
            role,
            // Unused for a family's sites (the role says where the expression is).
            policy: PolicyKind::ValidatingPolicy,
            path: self.path.clone(),
            name: self.name.clone(),
            text: self.text.clone(),
            offset: TextSize::from(0),
            source_map: self.source_map.clone(),
            range: self.range,
            has_params: false,
            has_authorizer: false,
            sees_variables: true,
            variables: Vec::new(),
            has_patch_types: matches!(role, SiteRole::ApplyConfiguration | SiteRole::JsonPatch),
            result,
        }
    }

    /// The nearest built-in role of a family role.
    pub fn builtin_role(&self) -> SiteRole {
        match self.role {
            "matchCondition" | "targetMatchCondition" | "condition" => SiteRole::MatchCondition,
            "variable" | "claimMapping" => SiteRole::Variable,
            "messageExpression" => SiteRole::MessageExpression,
            "auditAnnotation" => SiteRole::AuditAnnotation,
            "applyConfiguration" => SiteRole::ApplyConfiguration,
            "jsonPatch" => SiteRole::JsonPatch,
            _ => SiteRole::Validation,
        }
    }
}

/// Every registered family; the one place a family is added.
pub static FAMILIES: &[&dyn Family] = &[
    &kyverno::Kyverno,
    &dra::Dra,
    &apiserver_config::ApiserverConfig,
    &gatekeeper::Gatekeeper,
    &kubernetes::Kubernetes,
    &crd_rules::CrdRules,
    &webhooks::Webhooks,
];

/// The family that claims the document at `root`, if any.
pub fn claiming(root: &Node) -> Option<&'static dyn Family> {
    FAMILIES
        .iter()
        .copied()
        .find(|family| family.claims_root(root))
}

/// The API groups of every family (`policies.kyverno.io`…).
pub fn groups() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .flat_map(|family| family.groups().iter().copied())
}

/// The roots of `yaml`'s clean documents that a family claims, with their family.
fn claimed(yaml: &YamlFile) -> impl Iterator<Item = (&'static dyn Family, &Node)> {
    yaml.documents
        .iter()
        .filter_map(super::checked_root)
        .filter_map(|root| Some((claiming(root)?, root)))
}

/// The family expression site under `offset` in `yaml`, for the editor: the site, the environment
/// it is checked in, and the cursor as an offset into the site's text.
pub fn site_at(
    yaml: &YamlFile,
    offset: TextSize,
    minor: u32,
    workspace: &Workspace,
) -> Option<(ExpressionSite, Env, TextSize)> {
    let (family, root) = claimed(yaml).find(|(_, root)| root.range.contains_inclusive(offset))?;
    family.site_at(root, offset, minor, workspace)
}

/// Every family expression site of `yaml` (for the semantic tokens).
pub fn expression_sites(yaml: &YamlFile) -> Vec<ExpressionSite> {
    claimed(yaml)
        .flat_map(|(family, root)| family.expression_sites(root))
        .collect()
}

/// What the evaluated documents of `text` are run against: the first, in [`FAMILIES`] order, of
/// the families that take something other than a request (device selectors before an
/// authentication configuration), else a request.
pub fn evaluated_against(text: &str) -> EvaluatedAgainst {
    let yaml = crate::yaml::parse(text);
    let found: Vec<EvaluatedAgainst> = claimed(&yaml)
        .filter(|(family, root)| family.evaluated(root))
        .map(|(family, _)| family.evaluated_against())
        .collect();
    FAMILIES
        .iter()
        .map(|family| family.evaluated_against())
        .find(|against| *against != EvaluatedAgainst::Request && found.contains(against))
        .unwrap_or(EvaluatedAgainst::Request)
}

/// The version of `api_version` when it names `group` (`group/version`), otherwise `None`.
pub(crate) fn version_in<'a>(api_version: &'a str, group: &str) -> Option<&'a str> {
    api_version.strip_prefix(group)?.strip_prefix('/')
}

/// Parses and checks `site` in `env`, reporting its syntax errors (then `None`) and its check
/// errors as the API server words a compile failure; the tree and the check result for what the
/// family checks next (result type, cost).
pub(crate) fn compile_site(
    site: &FamilySite,
    env: &crate::cel::check::Env,
    out: &mut Vec<Diagnostic>,
) -> Option<(crate::cel::ast::Ast, crate::cel::check::Checked)> {
    let parsed = crate::cel::parse(&site.text);
    for error in &parsed.errors {
        let range = site.source_map.to_file_range(error.span);
        let message = format!("{}: compilation failed: {}", site.path, error.message);
        out.push(Diagnostic::new(super::Code::CelSyntax, range, message));
    }
    if !parsed.errors.is_empty() {
        return None;
    }
    let checked = crate::cel::check::check(&parsed.ast, env);
    for error in &checked.errors {
        let range = site.source_map.to_file_range(error.span);
        let code = super::typecheck::error_code(error.kind);
        out.push(Diagnostic::new(
            code,
            range,
            compile_message(&site.path, error),
        ));
    }
    Some((parsed.ast, checked))
}

/// `compilation failed: …` with the checker's suggestion, unless the message already has one.
fn compile_message(path: &str, error: &crate::cel::check::CheckError) -> String {
    let mut text = format!("{path}: compilation failed: {}", error.message);
    if let Some(name) = &error.suggestion
        && !text.contains("did you mean")
    {
        text.push_str(&format!("; did you mean '{name}'?"));
    }
    text
}
