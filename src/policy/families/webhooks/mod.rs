//! ValidatingWebhookConfiguration and MutatingWebhookConfiguration: each webhook validated structurally as the API server does (k/k
//! `pkg/apis/admissionregistration/validation/validation.go`, `validateWebhook`), and its
//! `matchConditions` compiled as the API server compiles them (apiserver
//! `pkg/admission/plugin/cel/compile.go`, `createEnvForOpts`): `object`, `oldObject`, `request`,
//! `namespaceObject` (always null there) and `authorizer` declared, no `params` and no
//! `variables`, the result exactly `bool`; then typed
//! against the kinds the webhook's `rules` match, as a policy's conditions are against its
//! `matchConstraints` (the same acceptance and typed checks, see `policy/typecheck`).

mod validate;

use super::Family;
use crate::cel::check::Env;
use crate::policy::model::*;
use crate::policy::model_kinds::{Header, PolicyDocument, Spec, ValidatingPolicySpec};
use crate::policy::read::{self, Fields};
use crate::policy::sites::{ExpressionSite, ResultType, SiteRole};
use crate::policy::workspace::Workspace;
use crate::policy::{Diagnostic, cel_syntax};
use crate::text::TextSize;
use crate::yaml::Node;

/// One `webhooks` item, as far as the API server validates it.
pub(crate) struct Webhook {
    /// Where it is.
    pub place: Place,
    /// `name`.
    pub name: Opt<Text>,
    /// `clientConfig`.
    pub client_config: Opt<ClientConfig>,
    /// `rules`.
    pub rules: Opt<List<NamedRule>>,
    /// `failurePolicy`.
    pub failure_policy: Opt<Text>,
    /// `matchPolicy`.
    pub match_policy: Opt<Text>,
    /// `sideEffects`.
    pub side_effects: Opt<Text>,
    /// `timeoutSeconds`.
    pub timeout_seconds: Opt<Text>,
    /// `admissionReviewVersions`.
    pub admission_review_versions: Opt<List<Text>>,
    /// `reinvocationPolicy` (mutating webhooks).
    pub reinvocation_policy: Opt<Text>,
    /// `matchConditions`.
    pub match_conditions: Opt<List<MatchCondition>>,
}

/// `clientConfig`: where the webhook is called.
pub(crate) struct ClientConfig {
    /// Where it is.
    pub place: Place,
    /// `url`.
    pub url: Opt<Text>,
    /// The `service` key, when written.
    pub service: Option<crate::text::TextRange>,
}

/// The API group of the webhook configurations.
const GROUP: &str = "admissionregistration.k8s.io";

/// The admission webhook configurations and their `matchConditions`.
pub struct Webhooks;

impl Family for Webhooks {
    fn groups(&self) -> &'static [&'static str] {
        &[GROUP]
    }

    /// Every version: the kinds are those of `admissionregistration.k8s.io/v1`.
    fn claims(&self, api_version: &str, kind: &str) -> bool {
        super::version_in(api_version, GROUP).is_some() && mutating_kind(kind).is_some()
    }

    fn check(&self, root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        if let Some(mutating) = recognise(root) {
            check(root, mutating, minor, workspace, out);
        }
    }

    /// The match condition under the cursor, in the environment its webhook compiles it in: a
    /// policy's match condition typed against the kinds of the webhook's `rules`.
    fn site_at(
        &self,
        root: &Node,
        offset: TextSize,
        minor: u32,
        workspace: &Workspace,
    ) -> Option<(ExpressionSite, Env, TextSize)> {
        let hooks = webhooks(root);
        let (i, hook) = hooks
            .iter()
            .enumerate()
            .find(|(_, hook)| hook.place.range.contains_inclusive(offset))?;
        let sites = condition_sites(hook, &format!("webhooks[{i}]"));
        let (index, at) = sites.iter().enumerate().find_map(|(j, site)| {
            let decoded = site.source_map.to_decoded(offset)?;
            let at = decoded.checked_sub(site.offset)?;
            (usize::from(at) <= site.text.len()).then_some((j, at))
        })?;
        // Recovered trees: the expression under the cursor is usually half typed.
        let parsed: Vec<_> = sites
            .iter()
            .map(|site| Some(crate::cel::parse(&site.text).ast))
            .collect();
        let document = as_policy(hook);
        let (env, _) =
            crate::policy::site_env(&document, &sites, &parsed, index, minor, workspace)?;
        Some((sites.get(index)?.clone(), env, at))
    }

    /// The `matchConditions` of every webhook, for the semantic tokens.
    fn expression_sites(&self, root: &Node) -> Vec<ExpressionSite> {
        let hooks = webhooks(root);
        let per_hook = hooks.iter().enumerate();
        per_hook
            .flat_map(|(i, hook)| condition_sites(hook, &format!("webhooks[{i}]")))
            .collect()
    }

    /// Not evaluated: `eval` runs policies, and a webhook's verdict is its server's.
    fn evaluates(&self) -> bool {
        false
    }
}

/// Whether `root` is a webhook configuration, and whether it is the mutating one.
fn recognise(root: &Node) -> Option<bool> {
    let api_version = root.get("apiVersion").and_then(Node::as_str)?;
    if !api_version.starts_with("admissionregistration.k8s.io/") {
        return None;
    }
    mutating_kind(root.get("kind").and_then(Node::as_str)?)
}

/// Whether `kind` is a webhook configuration's, and whether it is the mutating one.
fn mutating_kind(kind: &str) -> Option<bool> {
    match kind {
        "ValidatingWebhookConfiguration" => Some(false),
        "MutatingWebhookConfiguration" => Some(true),
        _ => None,
    }
}

fn webhook(f: &Fields) -> Webhook {
    Webhook {
        place: f.place,
        name: f.text("name"),
        client_config: f.object("clientConfig", |c| ClientConfig {
            place: c.place,
            url: c.text("url"),
            service: c.key_range("service"),
        }),
        rules: f.objects("rules", read::named_rule),
        failure_policy: f.text("failurePolicy"),
        match_policy: f.text("matchPolicy"),
        side_effects: f.text("sideEffects"),
        timeout_seconds: f.text("timeoutSeconds"),
        admission_review_versions: f.texts("admissionReviewVersions"),
        reinvocation_policy: f.text("reinvocationPolicy"),
        match_conditions: f.objects("matchConditions", read::match_condition),
    }
}

/// The webhooks of the configuration `root`.
pub(crate) fn webhooks(root: &Node) -> Vec<Webhook> {
    let top = Fields::new(root, root.range);
    top.objects("webhooks", webhook)
        .map(|list| list.value.items)
        .unwrap_or_default()
}

/// Adds the diagnostics of the webhook configuration `root` (`mutating` or validating).
fn check(
    root: &Node,
    mutating: bool,
    minor: u32,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let hooks = webhooks(root);
    {
        let mut report = crate::policy::report::Report::new(out);
        validate::webhooks(&hooks, mutating, &mut report);
    }
    for (i, hook) in hooks.iter().enumerate() {
        match_conditions(hook, &format!("webhooks[{i}]"), minor, workspace, out);
    }
}

/// The match conditions of one webhook as expression sites, compiled and typed.
fn match_conditions(
    hook: &Webhook,
    path: &str,
    minor: u32,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let sites = condition_sites(hook, path);
    if sites.is_empty() {
        return;
    }
    let parsed: Vec<_> = sites.iter().map(|s| cel_syntax::parse(s, out)).collect();
    // The checks of a policy whose matchConstraints are the webhook's rules and whose
    // matchConditions are the webhook's: the API server compiles both in one environment
    // (apiserver `pkg/admission/plugin/cel/compile.go` `createEnvForOpts`), `namespaceObject`
    // included, which a webhook's condition sees as null.
    let document = as_policy(hook);
    let mut found = Vec::new();
    crate::policy::typecheck::check(&document, &sites, &parsed, minor, workspace, &mut found);
    let rules_path = format!("{path}.rules[");
    for mut diagnostic in found {
        // The typed check names a rule by the policy's path; a webhook's rules are `rules`.
        if let Some(rest) = diagnostic
            .message
            .strip_prefix("spec.matchConstraints.resourceRules[")
        {
            diagnostic.message = format!("{rules_path}{rest}");
        }
        out.push(diagnostic);
    }
}

/// The expression sites of the match conditions of the webhook at `path`.
fn condition_sites(hook: &Webhook, path: &str) -> Vec<ExpressionSite> {
    let conditions = hook
        .match_conditions
        .as_ref()
        .map_or(&[][..], |l| &l.value.items);
    conditions
        .iter()
        .enumerate()
        .filter_map(|(j, c)| site(c, &format!("{path}.matchConditions[{j}].expression")))
        .collect()
}

/// The site of one condition: the text the API server compiles (trimmed) and its place.
fn site(condition: &MatchCondition, path: &str) -> Option<ExpressionSite> {
    let field = condition.expression.as_ref()?;
    let value = &field.value.value;
    if value.trim().is_empty() {
        return None; // reported as a missing expression
    }
    let start = value.len() - value.trim_start().len();
    Some(ExpressionSite {
        role: SiteRole::MatchCondition,
        policy: PolicyKind::ValidatingPolicy,
        path: path.to_string(),
        name: condition.name.as_ref().map(|n| n.value.value.clone()),
        text: value.trim().to_string(),
        offset: TextSize::from(u32::try_from(start).unwrap_or(0)),
        source_map: field.value.source_map.clone(),
        range: field.value.range,
        has_params: false,
        has_authorizer: true,
        sees_variables: false,
        variables: Vec::new(),
        has_patch_types: false,
        result: ResultType::Bool,
    })
}

/// A ValidatingAdmissionPolicy with the webhook's rules as `matchConstraints.resourceRules`.
fn as_policy(hook: &Webhook) -> PolicyDocument {
    let constraints = hook.rules.as_ref().map(|rules| Field {
        key: rules.key,
        value: MatchResources {
            place: hook.place,
            namespace_selector: None,
            object_selector: None,
            resource_rules: Some(rules.clone()),
            exclude_resource_rules: None,
            match_policy: None,
        },
    });
    let header = Header {
        version: ApiVersion::V1,
        kind: PolicyKind::ValidatingPolicy,
        range: hook.place.range,
        kind_range: hook.place.anchor,
        metadata: None,
        metadata_key: None,
    };
    let spec = ValidatingPolicySpec {
        place: hook.place,
        param_kind: None,
        match_constraints: constraints,
        validations: None,
        failure_policy: None,
        audit_annotations: None,
        match_conditions: None,
        variables: None,
    };
    PolicyDocument::ValidatingPolicy(
        header,
        Spec {
            key: None,
            value: spec,
        },
    )
}
