//! Both type checks (the acceptance check and the typed check) over the expression sites of one policy.
//!
//! 1. **Acceptance**: every site compiled as the API server does on write (`object`, `oldObject`,
//!    `params` as `dyn`, the NewExpressions environment of the target version) with the exact
//!    result-type rule. Errors mean the API server rejects the policy.
//! 2. **Typed**: the same sites once per matched kind ([`kinds::matched_kinds`]) with `object` and
//!    `oldObject` typed from the kind's schema, `params` from the paramKind (a bundled kind or a
//!    CRD of the workspace; `dyn` plus an `unresolved-reference` warning otherwise), and, in a
//!    mutating policy, `Object…` typed from the kind ([`mutation::MutationTypes`]). An error found
//!    for several kinds is reported once naming them; an error the acceptance check already
//!    reported at the same characters is not repeated. The result-type rule is not applied again.

mod atomic;
mod classify;
mod cost;
mod guards;
mod jsonpatch;
mod kinds;
mod lints;
mod mutation;
mod pass;
mod report;
mod unmatched;
mod variable_order;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::model::{MatchResources, Opt, ParamKind};
use super::model_kinds::PolicyDocument;
use super::sites::ExpressionSite;
use super::workspace::Workspace;
use super::{Code, Diagnostic};
use crate::cel::ast::Ast;
use crate::cel::check::{CheckErrorKind, Checked, SharedProvider};
use crate::cel::types::{OBJECT, Type, TypeProvider};
use crate::schema::{Gvk, SchemaTypes};
use pass::Typing;

pub(crate) use cost::shown as thousands;
pub(crate) use kinds::param_gvk;
pub use kinds::{MAX_KINDS, kind_label, matched_kinds};
pub(crate) use report::code as error_code;

/// Adds the diagnostics of both checks of `document`'s `sites` (parsed: `None` for a site with
/// syntax errors, reported elsewhere).
pub(crate) fn check(
    document: &PolicyDocument,
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let (constraints, param_kind, mutating, variables) = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => {
            let spec = &spec.value;
            let variables = &spec.variables;
            (&spec.match_constraints, &spec.param_kind, false, variables)
        }
        PolicyDocument::MutatingPolicy(_, spec) => {
            let spec = &spec.value;
            let variables = &spec.variables;
            (&spec.match_constraints, &spec.param_kind, true, variables)
        }
        _ => return,
    };
    let names = super::sites::variable_names(variables);
    let accepted = pass::run(sites, parsed, minor, &Typing::untyped());
    let mut lints = Lints::new();
    lints.add(parsed, &accepted);
    let mut reported = BTreeSet::new();
    for (i, (site, checked)) in sites.iter().zip(&accepted).enumerate() {
        let (Some(checked), Some(ast)) = (checked, parsed.get(i).and_then(Option::as_ref)) else {
            continue;
        };
        for error in &checked.errors {
            reported.insert((i, error.span.start(), error.span.end()));
            let hint = variable_order::hint(site, ast, checked, error, &names);
            out.push(report::diagnostic(site, error, &hint));
        }
        if checked.errors.is_empty() {
            out.extend(report::result_type(site, checked));
        }
    }
    let types = workspace.types(schema_minor(minor));
    let params = params_type(param_kind, &types, out);
    let typed = Typed {
        sites,
        parsed,
        minor,
        types: &types,
        params,
        mutating,
    };
    typed.report(constraints, workspace, &reported, &mut lints, out);
    for ((i, start, end), message) in lints {
        let Some(site) = sites.get(i) else { continue };
        let range = site.to_file_range(crate::text::TextRange::new(start, end));
        let message = format!("{}: {message}", site.path);
        out.push(Diagnostic::new(Code::CelType, range, message).typed_only());
    }
}

/// The environment and check result of site `index` of `document` for the editor: typed for the
/// first matched kind that has a schema, else the acceptance environment (`dyn` everywhere).
/// `parsed` should hold a (recovered) tree for every site so that half-typed text is typed too.
pub(crate) fn site_env(
    document: &PolicyDocument,
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    index: usize,
    minor: u32,
    workspace: &Workspace,
) -> Option<(crate::cel::check::Env, Checked)> {
    let typing = editor_typing(document, sites, parsed, minor, workspace)?;
    pass::env_at(sites, parsed, minor, &typing, index)
}

/// The check results of every site of `document` with the editor's typing (see [`site_env`]).
pub(crate) fn site_results(
    document: &PolicyDocument,
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
) -> Vec<Option<Checked>> {
    match editor_typing(document, sites, parsed, minor, workspace) {
        Some(typing) => pass::run(sites, parsed, minor, &typing),
        None => Vec::new(),
    }
}

/// The schema registry the editor's typing of target 1.`minor` reads fields from (the nearest
/// bundled version, with the workspace's CRDs), for facts the checker's types do not carry, such as
/// whether a field is required.
pub(crate) fn editor_schema_types(workspace: &Workspace, minor: u32) -> Arc<SchemaTypes> {
    workspace.types(schema_minor(minor))
}

/// The typing the editor features show: the first matched kind with a schema, else `dyn`.
fn editor_typing(
    document: &PolicyDocument,
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
) -> Option<Typing> {
    let (constraints, param_kind, mutating) = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => {
            (&spec.value.match_constraints, &spec.value.param_kind, false)
        }
        PolicyDocument::MutatingPolicy(_, spec) => {
            (&spec.value.match_constraints, &spec.value.param_kind, true)
        }
        _ => return None,
    };
    let types = workspace.types(schema_minor(minor));
    let params = params_type(param_kind, &types, &mut Vec::new());
    let typed = Typed {
        sites,
        parsed,
        minor,
        types: &types,
        params,
        mutating,
    };
    let typing = matched_kinds(types.minor(), constraints, workspace)
        .iter()
        .find_map(|gvk| typed.kind_typing(gvk))
        .unwrap_or_else(|| Typing {
            params: typed.params.clone(),
            providers: vec![types.clone() as SharedProvider],
            ..Typing::untyped()
        });
    Some(typing)
}

/// Runtime-shape warnings by site and span, once each whatever the number of passes.
type Lints = BTreeMap<(usize, crate::text::TextSize, crate::text::TextSize), String>;

trait AddLints {
    fn add(&mut self, parsed: &[Option<Ast>], results: &[Option<Checked>]);
}

impl AddLints for Lints {
    fn add(&mut self, parsed: &[Option<Ast>], results: &[Option<Checked>]) {
        for (i, (ast, checked)) in parsed.iter().zip(results).enumerate() {
            let (Some(ast), Some(checked)) = (ast, checked) else {
                continue;
            };
            for (span, message) in lints::runtime_strings(ast, checked) {
                self.entry((i, span.start(), span.end())).or_insert(message);
            }
        }
    }
}

/// The typed-check errors of each site, with the kinds each was found for (what the kind guards
/// read to tell that a `has()` is false for a kind).
fn errors_by_site(
    found: &BTreeMap<ErrorKey, Vec<String>>,
) -> BTreeMap<usize, Vec<(crate::text::TextRange, Vec<String>)>> {
    let mut by_site: BTreeMap<usize, Vec<_>> = BTreeMap::new();
    for ((i, start, end, ..), labels) in found {
        let span = crate::text::TextRange::new((*start).into(), (*end).into());
        by_site.entry(*i).or_default().push((span, labels.clone()));
    }
    by_site
}

/// The bundled schema version used for a target version: the nearest bundled one (schemas are
/// bundled from 1.30; an older target is typed with the oldest bundle rather than not at all).
pub(crate) fn schema_minor(minor: u32) -> u32 {
    let versions = crate::schema::bundled::versions();
    let oldest = versions.first().copied().unwrap_or(minor);
    let newest = versions.last().copied().unwrap_or(minor);
    minor.clamp(oldest.min(newest), newest.max(oldest))
}

/// The type of `params`: the paramKind's schema type, or `dyn` with a warning when no bundled kind
/// or workspace CRD has that name.
fn params_type(
    param_kind: &Opt<ParamKind>,
    types: &SchemaTypes,
    out: &mut Vec<Diagnostic>,
) -> Type {
    let Some(param) = param_kind else {
        return Type::Dyn;
    };
    let Some(gvk) = kinds::param_gvk(&param.value) else {
        return Type::Dyn; // missing fields are structural errors
    };
    if let Some(ty) = types.kind_type(&gvk) {
        return ty;
    }
    out.push(Diagnostic::new(
        Code::UnresolvedReference,
        param.value.place.range,
        format!(
            "spec.paramKind: {} is neither a bundled kind nor a CustomResourceDefinition in the workspace; params is untyped",
            kind_label(&gvk)
        ),
    ));
    Type::Dyn
}

/// The typed check of one policy.
struct Typed<'a> {
    sites: &'a [ExpressionSite],
    parsed: &'a [Option<Ast>],
    minor: u32,
    types: &'a Arc<SchemaTypes>,
    params: Type,
    mutating: bool,
}

/// An error of the typed check: site, span, kind and message (without the kinds).
type ErrorKey = (usize, u32, u32, CheckErrorKind, String);

impl Typed<'_> {
    fn report(
        &self,
        constraints: &Opt<MatchResources>,
        workspace: &Workspace,
        reported: &BTreeSet<(usize, crate::text::TextSize, crate::text::TextSize)>,
        lints: &mut Lints,
        out: &mut Vec<Diagnostic>,
    ) {
        let mut found: BTreeMap<ErrorKey, Vec<String>> = BTreeMap::new();
        let mut costs = cost::Costs::new();
        let kinds = matched_kinds(self.types.minor(), constraints, workspace);
        let mut passes = 0;
        // Each typed pass's kind and results: the cost estimate for the largest request reads
        // them again after the loop, and the kind guards read a validating policy's.
        let mut typed_passes: Vec<(&Gvk, String, Vec<Option<Checked>>)> = Vec::new();
        for gvk in &kinds {
            let Some(typing) = self.kind_typing(gvk) else {
                continue;
            };
            passes += 1;
            let results = pass::run(self.sites, self.parsed, self.minor, &typing);
            lints.add(self.parsed, &results);
            let root = gvk.type_name();
            cost::add_ordinary(
                self.sites,
                self.parsed,
                &results,
                (self.types, &root),
                &mut costs,
            );
            let label = kind_label(gvk);
            self.collect(&results, &label, reported, &mut found);
            if self.mutating {
                self.json_patches(&results, gvk, &mut found);
                self.apply_configurations(gvk, &mut found);
            }
            typed_passes.push((gvk, label, results));
        }
        if costs.over_limit() {
            // A warning is possible: estimate again, both sizes, as the message shows them.
            costs = cost::Costs::new();
            for (gvk, _, results) in &typed_passes {
                let root = gvk.type_name();
                cost::add(
                    self.sites,
                    self.parsed,
                    results,
                    (self.types, &root),
                    &mut costs,
                );
            }
        }
        // Validation runs after the object passed schema validation, so a required field is
        // there; a mutation may run before: only a validating policy's kinds say what is required.
        let per_kind: BTreeMap<String, Vec<Option<Checked>>> = if self.mutating {
            BTreeMap::new()
        } else {
            typed_passes
                .into_iter()
                .map(|(_, label, results)| (label, results))
                .collect()
        };
        if passes == 0 && self.params != Type::Dyn {
            // No typed kind, but typed params are still worth a pass.
            let typing = Typing {
                params: self.params.clone(),
                providers: vec![self.types.clone() as SharedProvider],
                ..Typing::untyped()
            };
            let results = pass::run(self.sites, self.parsed, self.minor, &typing);
            lints.add(self.parsed, &results);
            self.collect(&results, "", reported, &mut found);
        }
        cost::report(self.sites, &costs, out);
        out.extend(unmatched::unmatched_rules(
            self.types.minor(),
            constraints,
            workspace,
        ));
        let by_site = errors_by_site(&found);
        for (key, labels) in &found {
            let (i, start, end, kind, message) = key.clone();
            let span = crate::text::TextRange::new(start.into(), end.into());
            let Some(site) = self.sites.get(i) else {
                continue;
            };
            let mut labels = labels.clone();
            if labels.len() < passes {
                // Found for some kinds only: report it for the kinds its guards let through.
                let Some(ast) = self.parsed.get(i).and_then(Option::as_ref) else {
                    continue;
                };
                let errors = by_site.get(&i).map_or(&[][..], Vec::as_slice);
                let required =
                    |label: &str, select| self.required(&per_kind, i, ast, label, select);
                labels = guards::Guards::new(ast, errors, &required).reaching(span, &labels);
                if labels.is_empty() {
                    continue;
                }
            }
            let labels: Vec<String> = labels.into_iter().filter(|l| !l.is_empty()).collect();
            let error = crate::cel::check::CheckError {
                kind,
                span,
                anchor: start.into(),
                message,
                suggestion: None,
            };
            let suffix = report::null_field_hint(site, &error) + &report::kinds_suffix(&labels);
            let diagnostic = report::diagnostic(site, &error, &suffix);
            out.push(match classify::prediction(&error) {
                super::diagnostic::Prediction::TypedCheck => diagnostic.typed_only(),
                _ => diagnostic.at_runtime(),
            });
        }
    }

    /// The schema problems of the `JSONPatch` literals of the jsonPatch sites, for `gvk`.
    fn json_patches(
        &self,
        results: &[Option<Checked>],
        gvk: &Gvk,
        found: &mut BTreeMap<ErrorKey, Vec<String>>,
    ) {
        let root = gvk.type_name();
        for (i, (ast, checked)) in self.parsed.iter().zip(results).enumerate() {
            let (Some(ast), Some(checked)) = (ast, checked) else {
                continue;
            };
            if self.sites.get(i).map(|s| s.role) != Some(super::sites::SiteRole::JsonPatch) {
                continue;
            }
            for (span, kind, message) in jsonpatch::check(ast, checked, self.types, &root) {
                let key = (i, span.start().into(), span.end().into(), kind, message);
                found.entry(key).or_default().push(kind_label(gvk));
            }
        }
    }

    /// The atomic parts that the `Object…{…}` literals of the applyConfiguration sites set, for
    /// `gvk` (see [`atomic`]).
    fn apply_configurations(&self, gvk: &Gvk, found: &mut BTreeMap<ErrorKey, Vec<String>>) {
        let root = gvk.type_name();
        for (i, ast) in self.parsed.iter().enumerate() {
            let Some(ast) = ast else { continue };
            let role = self.sites.get(i).map(|s| s.role);
            if role != Some(super::sites::SiteRole::ApplyConfiguration) {
                continue;
            }
            for (span, kind, message) in atomic::check(ast, self.types, &root) {
                let key = (i, span.start().into(), span.end().into(), kind, message);
                found.entry(key).or_default().push(kind_label(gvk));
            }
        }
    }

    /// Whether the field `select` (an `a.b` selection of site `i`) is required in the schema of
    /// kind `label`; `None` when that is not known.
    fn required(
        &self,
        per_kind: &BTreeMap<String, Vec<Option<Checked>>>,
        i: usize,
        ast: &Ast,
        label: &str,
        select: crate::cel::ast::ExprId,
    ) -> Option<bool> {
        let checked = per_kind.get(label)?.get(i)?.as_ref()?;
        let crate::cel::ast::ExprKind::Select { operand, field, .. } = &ast.expr(select).kind
        else {
            return None;
        };
        let Type::Object(owner) = checked.type_of(*operand) else {
            return None;
        };
        let infos = self.types.field_infos(owner);
        let (_, info) = infos.iter().find(|(name, _)| **name == *field.text)?;
        Some(info.required)
    }

    /// How `object` is typed for `gvk`, or `None` when no schema describes it.
    fn kind_typing(&self, gvk: &Gvk) -> Option<Typing> {
        let ty = self.types.kind_type(gvk)?;
        if ty.is_dyn_or_error() {
            return None;
        }
        let schema: SharedProvider = self.types.clone();
        if !self.mutating {
            return Some(Typing {
                object: ty,
                params: self.params.clone(),
                providers: vec![schema],
                replaces_builtin: false,
            });
        }
        let mutation = mutation::MutationTypes {
            root: gvk.type_name(),
            schema: self.types.clone(),
        };
        Some(Typing {
            object: Type::object(OBJECT),
            params: self.params.clone(),
            providers: vec![Arc::new(mutation), schema],
            replaces_builtin: true,
        })
    }

    /// Whether a typed `cel-no-overload` error only mixes two schema object types, such as
    /// `object.spec.containers + object.spec.initContainers`: the API server names the types by
    /// path, so they differ, but at runtime both are the same JSON shape and the call works. A
    /// runtime-irrelevant error is a false positive, so it is dropped.
    fn twin_types(&self, error: &crate::cel::check::CheckError) -> bool {
        if error.kind != CheckErrorKind::NoOverload {
            return false;
        }
        let Some((_, args)) = error.message.split_once(" applied to ") else {
            return false;
        };
        let names: BTreeSet<&str> = args
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
            .filter(|t| t.contains('.'))
            .collect();
        let objects = names
            .iter()
            .filter(|n| n.starts_with(OBJECT) || !self.types.fields(n).is_empty())
            .count();
        objects >= 2
    }

    fn collect(
        &self,
        results: &[Option<Checked>],
        label: &str,
        reported: &BTreeSet<(usize, crate::text::TextSize, crate::text::TextSize)>,
        found: &mut BTreeMap<ErrorKey, Vec<String>>,
    ) {
        for (i, (site, checked)) in self.sites.iter().zip(results).enumerate() {
            let Some(checked) = checked else { continue };
            for error in &checked.errors {
                if reported.contains(&(i, error.span.start(), error.span.end()))
                    || self.twin_types(error)
                {
                    continue;
                }
                let message = report::message(site, error, "");
                let message = message
                    .strip_prefix(&format!("{}: ", site.path))
                    .unwrap_or(&message)
                    .to_string();
                let key = (
                    i,
                    error.span.start().into(),
                    error.span.end().into(),
                    error.kind,
                    message,
                );
                found.entry(key).or_default().push(label.to_string());
            }
        }
    }
}
