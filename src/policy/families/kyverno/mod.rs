//! Kyverno's CEL policies (`policies.kyverno.io`): ValidatingPolicy, MutatingPolicy,
//! GeneratingPolicy, DeletingPolicy, ImageValidatingPolicy, their namespaced variants and the
//! PolicyExceptions that name them, in every version Kyverno serves. The authority is kyverno/kyverno: the kinds and versions are those of
//! `config/crds/policies.kyverno.io`, the field sets their `openAPIV3Schema` (bundled in
//! `schemas.json` without descriptions), the expression sites and environments those of
//! `pkg/cel/policies/*/compiler`, the functions those of kyverno/sdk `extensions/cel/libs`.
//!
//! What is reported, and how severe:
//! - an unknown version or kind of the group: an error (the API server serves no such resource);
//! - an unknown field: a warning (the API server prunes it from a structural custom resource);
//! - a value of the wrong kind, a value outside a schema enum, a missing required field: errors
//!   (the API server's schema validation refuses the object);
//! - a CEL syntax error, or a result of the wrong concrete type: an error (Kyverno's compiler
//!   refuses the policy);
//! - what Kyverno's policy webhook refuses besides (`rules.rs`): errors in its wording;
//! - a typed-CEL disagreement: a warning (see `typed.rs`);
//! - a policy in the `Envoy` or `HTTP` evaluation mode (`mode.rs`): its syntax and schema only.

mod autogen;
pub mod cli_test;
mod cron;
pub mod eval;
mod library;
mod mode;
mod result_type;
mod rules;
mod schema;
mod sites;
mod typed;
mod versions;

pub use versions::{KyvernoVersion, gate as version_gate, refusals as version_refusals};

use super::evaluation::{EvalInput, FamilyOutcome};
use super::{Family, FamilySite};
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::yaml::Node;

/// The API group of Kyverno's CEL policies.
pub const GROUP: &str = "policies.kyverno.io";

/// A kind of the group with the versions that serve it (`config/crds/policies.kyverno.io`).
struct KindVersions {
    kind: &'static str,
    versions: &'static [&'static str],
}

const ALL: &[&str] = &["v1alpha1", "v1beta1", "v1"];
const SINCE_BETA: &[&str] = &["v1beta1", "v1"];

/// Every kind of the group and its versions.
const KINDS: &[KindVersions] = &[
    KindVersions {
        kind: "ValidatingPolicy",
        versions: ALL,
    },
    KindVersions {
        kind: "MutatingPolicy",
        versions: ALL,
    },
    KindVersions {
        kind: "GeneratingPolicy",
        versions: ALL,
    },
    KindVersions {
        kind: "DeletingPolicy",
        versions: ALL,
    },
    KindVersions {
        kind: "ImageValidatingPolicy",
        versions: ALL,
    },
    KindVersions {
        kind: "NamespacedValidatingPolicy",
        versions: SINCE_BETA,
    },
    KindVersions {
        kind: "NamespacedMutatingPolicy",
        versions: SINCE_BETA,
    },
    KindVersions {
        kind: "NamespacedGeneratingPolicy",
        versions: SINCE_BETA,
    },
    KindVersions {
        kind: "NamespacedDeletingPolicy",
        versions: SINCE_BETA,
    },
    KindVersions {
        kind: "NamespacedImageValidatingPolicy",
        versions: SINCE_BETA,
    },
    KindVersions {
        kind: "PolicyException",
        versions: ALL,
    },
];

/// The kinds `eval` and the evaluate lens run (those [`eval::evaluate`] runs; a test of the
/// lenses keeps the two in step).
const EVALUATED: &[&str] = &[
    "ValidatingPolicy",
    "NamespacedValidatingPolicy",
    "MutatingPolicy",
    "NamespacedMutatingPolicy",
    "GeneratingPolicy",
    "NamespacedGeneratingPolicy",
    "DeletingPolicy",
    "NamespacedDeletingPolicy",
    "ImageValidatingPolicy",
    "NamespacedImageValidatingPolicy",
];

/// The family of Kyverno's CEL policies.
pub struct Kyverno;

impl Family for Kyverno {
    fn groups(&self) -> &'static [&'static str] {
        &[GROUP]
    }

    fn suites(&self) -> Option<&'static dyn super::Suites> {
        Some(&cli_test::suites::KyvernoSuites)
    }

    fn claims(&self, api_version: &str, _kind: &str) -> bool {
        super::version_in(api_version, GROUP).is_some()
    }

    /// The kinds [`eval::evaluate`] runs.
    fn evaluated(&self, root: &Node) -> bool {
        let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
        EVALUATED.contains(&kind)
    }

    fn check(&self, root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        let Some((kind, version)) = served(root, out) else {
            return;
        };
        schema::check(root, kind, version, out);
        let sites = sites::collect(root);
        let parsed: Vec<_> = sites.iter().map(|site| parse(site, out)).collect();
        // A PolicyException's matchConditions are compiled in the environment of the policy it
        // names (`engine.CompileMatchConditions` in each compiler); it has no rules of its own.
        if kind != "PolicyException" {
            rules::check(root, kind, &sites, &parsed, out);
        }
        // kyverno-authz compiles an Envoy or HTTP policy in its own environment, which this
        // checker does not declare: its syntax is checked, not its types.
        if mode::Mode::of(root) != mode::Mode::Authz {
            typed::check(root, kind, &sites, &parsed, minor, workspace, out);
        }
    }

    fn sites(&self, root: &Node) -> Vec<FamilySite> {
        sites::collect(root)
    }

    fn editor_env(
        &self,
        root: &Node,
        sites: &[FamilySite],
        parsed: &[Option<crate::cel::ast::Ast>],
        index: usize,
        minor: u32,
        workspace: &Workspace,
    ) -> Option<crate::cel::check::Env> {
        let kind = root.get("kind").and_then(Node::as_str)?;
        typed::editor_env(root, kind, sites, parsed, index, minor, workspace)
    }

    fn evaluate(
        &self,
        root: &Node,
        input: &EvalInput,
    ) -> Option<Result<Vec<FamilyOutcome>, String>> {
        let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
        let responses = eval::evaluate(root, kind, input);
        Some(responses.map(|r| r.into_iter().map(|r| r.outcome).collect()))
    }
}

/// The kind and version of a claimed document when Kyverno serves them; otherwise reports the
/// unknown kind or version once, with what is served.
fn served<'r>(root: &'r Node, out: &mut Vec<Diagnostic>) -> Option<(&'r str, &'r str)> {
    let api_version = root.get("apiVersion")?;
    let version = super::version_in(api_version.as_str()?, GROUP)?;
    let kind_node = root.get("kind");
    let kind = kind_node.and_then(Node::as_str).unwrap_or("");
    let Some(known) = KINDS.iter().find(|k| k.kind == kind) else {
        let names: Vec<&str> = KINDS.iter().map(|k| k.kind).collect();
        let range = kind_node.map_or(api_version.range, |n| n.range);
        let message = format!(
            "kind: Unsupported value: \"{kind}\": {GROUP} serves the kinds {}",
            names.join(", ")
        );
        out.push(Diagnostic::new(Code::NotSupported, range, message));
        return None;
    };
    if !known.versions.contains(&version) {
        let message = format!(
            "apiVersion: Unsupported value: \"{GROUP}/{version}\": Kyverno serves {kind} in {}",
            known.versions.join(", ")
        );
        out.push(Diagnostic::new(
            Code::NotSupported,
            api_version.range,
            message,
        ));
        return None;
    }
    Some((kind, version))
}

/// Parses a site, reporting its syntax errors (Kyverno's compiler refuses the policy); the tree when
/// it parsed cleanly.
fn parse(site: &FamilySite, out: &mut Vec<Diagnostic>) -> Option<crate::cel::ast::Ast> {
    let parsed = crate::cel::parse(&site.text);
    for error in &parsed.errors {
        out.push(Diagnostic::new(
            Code::CelSyntax,
            site.source_map.to_file_range(error.span),
            format!("{}: {}", site.path, error.message),
        ));
    }
    parsed.errors.is_empty().then_some(parsed.ast)
}
