//! Expression sites: every CEL expression of a document with its role, field path, decoded text, map
//! back to the file, and the environment it is compiled in, for the checkers.

use super::model::*;
use super::model_kinds::*;
use crate::text::{TextRange, TextSize};
use crate::yaml::SourceMap;

/// What an expression is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SiteRole {
    /// `spec.matchConditions[i].expression`
    MatchCondition,
    /// `spec.variables[i].expression`
    Variable,
    /// `spec.validations[i].expression`
    Validation,
    /// `spec.validations[i].messageExpression`
    MessageExpression,
    /// `spec.auditAnnotations[i].valueExpression`
    AuditAnnotation,
    /// `spec.mutations[i].applyConfiguration.expression`
    ApplyConfiguration,
    /// `spec.mutations[i].jsonPatch.expression`
    JsonPatch,
    /// `x-kubernetes-validations[i].rule` of a CRD schema node (`self`, `oldSelf`).
    CrdRule,
    /// `x-kubernetes-validations[i].messageExpression` of a CRD schema node.
    CrdMessageExpression,
}

/// The type an expression must evaluate to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResultType {
    /// `bool`.
    Bool,
    /// `string`.
    String,
    /// `string` or `null_type`.
    StringOrNull,
    /// Any type (variables).
    Any,
    /// Exactly `Object` (MAP apply configurations).
    Object,
    /// Exactly `list(JSONPatch)`.
    JsonPatchList,
}

/// One CEL expression in a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpressionSite {
    /// What the expression is for.
    pub role: SiteRole,
    /// Which kind of policy it is in.
    pub policy: PolicyKind,
    /// The field path, e.g. `spec.validations[0].expression`.
    pub path: String,
    /// The name of the match condition or variable.
    pub name: Option<String>,
    /// The text the API server compiles: the decoded scalar, trimmed where the API server trims.
    pub text: String,
    /// Where `text` starts in the decoded scalar (non-zero when leading whitespace was trimmed).
    pub offset: TextSize,
    /// Decoded scalar offsets → file offsets.
    pub source_map: SourceMap,
    /// The scalar's range in the file.
    pub range: TextRange,
    /// Whether `params` is declared (the policy has a `paramKind`).
    pub has_params: bool,
    /// Whether `authorizer` and `authorizer.requestResource` are declared.
    pub has_authorizer: bool,
    /// Whether `variables` is declared.
    pub sees_variables: bool,
    /// The variables visible through `variables`, in declaration order (earlier ones only, for a variable).
    pub variables: Vec<String>,
    /// Whether the MAP mutation types (`Object`, `JSONPatch`, `jsonpatch.escapeKey`) are declared.
    pub has_patch_types: bool,
    /// The type the expression must evaluate to.
    pub result: ResultType,
}

impl ExpressionSite {
    /// The file range of a byte range of `text` (e.g. a CEL error span).
    pub fn to_file_range(&self, span: TextRange) -> TextRange {
        self.source_map.to_file_range(span + self.offset)
    }
}

/// Longer audit-annotation value expressions are rejected before compilation.
const MAX_VALUE_EXPRESSION_BYTES: usize = 5120;

/// What every site of one policy shares.
struct Env<'a> {
    policy: PolicyKind,
    has_params: bool,
    variables: &'a [String],
    sites: Vec<ExpressionSite>,
}

/// How a site is compiled: whether the text is trimmed first and what it sees.
#[derive(Clone, Copy)]
struct SiteSpec {
    role: SiteRole,
    trimmed: bool,
    has_authorizer: bool,
    result: ResultType,
}

impl Env<'_> {
    fn add(
        &mut self,
        spec: SiteSpec,
        text: &Opt<Text>,
        path: String,
        name: Option<String>,
        sees: Option<usize>,
    ) {
        let Some(field) = text else { return };
        let value = &field.value.value;
        if value.trim().is_empty() {
            return; // reported as a missing expression; nothing to compile.
        }
        if spec.role == SiteRole::AuditAnnotation && value.trim().len() > MAX_VALUE_EXPRESSION_BYTES
        {
            return; // the API server rejects it for its length and never compiles it.
        }
        let (offset, text) = if spec.trimmed {
            let start = value.len() - value.trim_start().len();
            (start, value.trim().to_string())
        } else {
            (0, value.clone())
        };
        let visible = sees.map_or(&[][..], |n| &self.variables[..n.min(self.variables.len())]);
        self.sites.push(ExpressionSite {
            role: spec.role,
            policy: self.policy,
            path,
            name,
            text,
            offset: TextSize::from(u32::try_from(offset).unwrap_or(0)),
            source_map: field.value.source_map.clone(),
            range: field.value.range,
            has_params: self.has_params,
            has_authorizer: spec.has_authorizer,
            sees_variables: sees.is_some(),
            variables: visible.to_vec(),
            has_patch_types: matches!(
                spec.role,
                SiteRole::ApplyConfiguration | SiteRole::JsonPatch
            ),
            result: spec.result,
        });
    }

    fn match_conditions(&mut self, list: &Opt<List<MatchCondition>>) {
        let spec = SiteSpec {
            role: SiteRole::MatchCondition,
            trimmed: true,
            has_authorizer: true,
            result: ResultType::Bool,
        };
        for (i, c) in items(list).iter().enumerate() {
            let name = c.name.as_ref().map(|n| n.value.value.clone());
            // Match conditions are compiled without `variables` (stateless compiler).
            self.add(
                spec,
                &c.expression,
                format!("spec.matchConditions[{i}].expression"),
                name,
                None,
            );
        }
    }

    fn variables(&mut self, list: &Opt<List<Variable>>) {
        let spec = SiteSpec {
            role: SiteRole::Variable,
            trimmed: false,
            has_authorizer: true,
            result: ResultType::Any,
        };
        for (i, v) in items(list).iter().enumerate() {
            let name = v.name.as_ref().map(|n| n.value.value.clone());
            self.add(
                spec,
                &v.expression,
                format!("spec.variables[{i}].expression"),
                name,
                Some(i),
            );
        }
    }
}

fn items<T>(list: &Opt<List<T>>) -> &[T] {
    list.as_ref().map_or(&[], |f| f.value.items.as_slice())
}

/// The names of a policy's variables, in order (empty for a variable without one).
pub(crate) fn variable_names(list: &Opt<List<Variable>>) -> Vec<String> {
    items(list)
        .iter()
        .map(|v| {
            v.name
                .as_ref()
                .map_or(String::new(), |n| n.value.value.clone())
        })
        .collect()
}

impl PolicyDocument {
    /// Every CEL expression of the document, in field order.
    pub fn expression_sites(&self) -> Vec<ExpressionSite> {
        match self {
            PolicyDocument::ValidatingPolicy(_, spec) => vap_sites(&spec.value),
            PolicyDocument::MutatingPolicy(_, spec) => map_sites(&spec.value),
            PolicyDocument::ValidatingBinding(..) | PolicyDocument::MutatingBinding(..) => {
                Vec::new()
            }
        }
    }
}

fn vap_sites(spec: &ValidatingPolicySpec) -> Vec<ExpressionSite> {
    let names = variable_names(&spec.variables);
    let mut env = Env {
        policy: PolicyKind::ValidatingPolicy,
        has_params: spec.param_kind.is_some(),
        variables: &names,
        sites: Vec::new(),
    };
    env.match_conditions(&spec.match_conditions);
    env.variables(&spec.variables);
    // `variables` is declared for validations only when the policy has at least one variable.
    let sees = (!names.is_empty()).then_some(names.len());
    for (i, v) in items(&spec.validations).iter().enumerate() {
        let path = format!("spec.validations[{i}]");
        let check = SiteSpec {
            role: SiteRole::Validation,
            trimmed: false,
            has_authorizer: true,
            result: ResultType::Bool,
        };
        env.add(
            check,
            &v.expression,
            format!("{path}.expression"),
            None,
            sees,
        );
        // Message expressions see no authorizer; compiled untrimmed so columns stay right.
        let message = SiteSpec {
            role: SiteRole::MessageExpression,
            trimmed: false,
            has_authorizer: false,
            result: ResultType::String,
        };
        env.add(
            message,
            &v.message_expression,
            format!("{path}.messageExpression"),
            None,
            sees,
        );
    }
    for (i, a) in items(&spec.audit_annotations).iter().enumerate() {
        let spec = SiteSpec {
            role: SiteRole::AuditAnnotation,
            trimmed: true,
            has_authorizer: true,
            result: ResultType::StringOrNull,
        };
        let key = a.key.as_ref().map(|k| k.value.value.clone());
        env.add(
            spec,
            &a.value_expression,
            format!("spec.auditAnnotations[{i}].valueExpression"),
            key,
            sees,
        );
    }
    env.sites
}

fn map_sites(spec: &MutatingPolicySpec) -> Vec<ExpressionSite> {
    let names = variable_names(&spec.variables);
    let mut env = Env {
        policy: PolicyKind::MutatingPolicy,
        has_params: spec.param_kind.is_some(),
        variables: &names,
        sites: Vec::new(),
    };
    env.match_conditions(&spec.match_conditions);
    env.variables(&spec.variables);
    for (i, m) in items(&spec.mutations).iter().enumerate() {
        let path = format!("spec.mutations[{i}]");
        // Mutations always use the composited compiler: `variables` is declared even when empty.
        let apply = SiteSpec {
            role: SiteRole::ApplyConfiguration,
            trimmed: true,
            has_authorizer: true,
            result: ResultType::Object,
        };
        if let Some(ac) = &m.apply_configuration {
            env.add(
                apply,
                &ac.value.expression,
                format!("{path}.applyConfiguration.expression"),
                None,
                Some(names.len()),
            );
        }
        let patch = SiteSpec {
            role: SiteRole::JsonPatch,
            trimmed: true,
            has_authorizer: true,
            result: ResultType::JsonPatchList,
        };
        if let Some(jp) = &m.json_patch {
            env.add(
                patch,
                &jp.value.expression,
                format!("{path}.jsonPatch.expression"),
                None,
                Some(names.len()),
            );
        }
    }
    env.sites
}
