//! One pass of the checker over every expression site of a policy, in field order, with the
//! environment of each site: `params` only with a paramKind, `variables` holding
//! the earlier variables with the types the API server converts them to, `authorizer` except in
//! messageExpression, the mutation types only in mutations.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use super::super::sites::{ExpressionSite, SiteRole};
use crate::cel::ast::Ast;
use crate::cel::check::{AdmissionVariables, Checked, Env, SharedProvider, check};
use crate::cel::types::{FieldType, Type, TypeProvider};

/// The name of the object type that holds the policy's variables.
const VARIABLES: &str = "kubernetes.variables";

/// How `object`, `oldObject` and `params` are typed in a pass, and the providers that know them.
#[derive(Clone)]
pub struct Typing {
    /// Type of `object` and `oldObject`.
    pub object: Type,
    /// Type of `params` where it is declared.
    pub params: Type,
    /// Providers asked before the builtin one (schema types, typed `Object`).
    pub providers: Vec<SharedProvider>,
    /// The first provider replaces the builtin one (it answers the builtin types itself): the
    /// builtin provider answers every `Object…` field with `dyn`, which would hide unknown fields.
    pub replaces_builtin: bool,
}

impl Typing {
    /// The API server's acceptance typing: everything `dyn`.
    pub fn untyped() -> Typing {
        Typing {
            object: Type::Dyn,
            params: Type::Dyn,
            providers: Vec::new(),
            replaces_builtin: false,
        }
    }
}

/// Checks every parsed site (`None`: a syntax error, reported elsewhere) and returns the results
/// in site order.
pub fn run(
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    minor: u32,
    typing: &Typing,
) -> Vec<Option<Checked>> {
    let mut out = Vec::with_capacity(sites.len());
    walk(sites, parsed, minor, typing, |_, _, checked| {
        out.push(checked);
        true
    });
    out
}

/// The environment and check result of site `index`, for the editor features (hover,
/// completion): the earlier variables are checked first so that `variables.x` has its type.
pub fn env_at(
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    minor: u32,
    typing: &Typing,
    index: usize,
) -> Option<(Env, Checked)> {
    let mut found = None;
    walk(sites, parsed, minor, typing, |i, env, checked| {
        if i != index {
            return true;
        }
        found = env.cloned().zip(checked);
        false
    });
    found
}

/// Checks the sites in order, handing each result and its environment to `visit` until it
/// returns `false`.
fn walk(
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    minor: u32,
    typing: &Typing,
    mut visit: impl FnMut(usize, Option<&Env>, Option<Checked>) -> bool,
) {
    let mut base = Env::kubernetes(minor, false);
    if typing.replaces_builtin {
        base.providers.providers.clear();
    }
    for provider in typing.providers.iter().rev() {
        base.push_provider(provider.clone());
    }
    // What every site of the pass sees, declared once rather than per environment.
    base.declare_request(&typing.object);
    let mut variables: BTreeMap<&str, Type> = BTreeMap::new();
    let settled = Settled::default();
    // Sites with the same environment share one: every validation of a policy usually does, and
    // building an environment costs more than checking a short expression.
    let mut envs: BTreeMap<EnvKey, Env> = BTreeMap::new();
    for (i, (site, ast)) in sites.iter().zip(parsed).enumerate() {
        let name = site.name.as_deref().unwrap_or("");
        let Some(ast) = ast else {
            if site.role == SiteRole::Variable {
                variables.insert(name, Type::Dyn);
            }
            if !visit(i, None, None) {
                return;
            }
            continue;
        };
        let key = EnvKey {
            patch: site.has_patch_types,
            authorizer: site.has_authorizer,
            params: site.has_params,
            variables: site.sees_variables.then_some(site.variables.len()),
        };
        let env = envs
            .entry(key)
            .or_insert_with(|| site_env(&base, site, typing, &variables, &settled));
        let checked = check(ast, env);
        if site.role == SiteRole::Variable {
            variables.insert(name, env.variable_type_of(&checked));
        }
        if !visit(i, Some(env), Some(checked)) {
            return;
        }
    }
}

/// What makes two sites' environments differ. The types of the visible variables are settled
/// before any site that sees them is checked (variables precede every other site that sees
/// them), and a site sees a prefix of the policy's variables, so their number identifies them
/// (comparing the names made 5,000 variables quadratic).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct EnvKey {
    patch: bool,
    authorizer: bool,
    params: bool,
    variables: Option<usize>,
}

/// The policy's variables with their settled types, in declaration order, shared by every
/// environment of a pass; each environment sees a prefix ([`Visible`]). Shared rather than copied
/// per site, because each variable sees all the earlier ones: copies made n variables cost n².
#[derive(Clone, Default)]
struct Settled {
    inner: Arc<RwLock<SettledInner>>,
}

#[derive(Default)]
struct SettledInner {
    fields: Vec<(Arc<str>, FieldType)>,
    /// Positions of each name in `fields` (a name declared twice has two).
    by_name: HashMap<Arc<str>, Vec<usize>>,
}

impl Settled {
    /// Appends the variables of `names` not yet listed, typed as `seen` says (`dyn` if unknown).
    fn extend(&self, names: &[String], seen: &BTreeMap<&str, Type>) {
        let Ok(mut inner) = self.inner.write() else {
            return;
        };
        for name in names.iter().skip(inner.fields.len()) {
            let ty = seen.get(name.as_str()).cloned().unwrap_or(Type::Dyn);
            let name: Arc<str> = Arc::from(name.as_str());
            let at = inner.fields.len();
            inner.by_name.entry(name.clone()).or_default().push(at);
            inner.fields.push((name, FieldType { ty, doc: None }));
        }
    }
}

/// The first `count` settled variables, as the fields of `kubernetes.variables`; a name declared
/// twice answers with its last visible declaration.
struct Visible {
    settled: Settled,
    count: usize,
}

impl TypeProvider for Visible {
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType> {
        if type_name != VARIABLES {
            return None;
        }
        let inner = self.settled.inner.read().ok()?;
        let at = inner
            .by_name
            .get(field)?
            .iter()
            .rev()
            .find(|&&i| i < self.count)?;
        Some(inner.fields[*at].1.clone())
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        let Ok(inner) = self.settled.inner.read() else {
            return Vec::new();
        };
        if type_name != VARIABLES {
            return Vec::new();
        }
        let visible = &inner.fields[..self.count.min(inner.fields.len())];
        let by_name: BTreeMap<&Arc<str>, &FieldType> =
            visible.iter().map(|(n, t)| (n, t)).collect();
        by_name
            .into_iter()
            .map(|(n, t)| (n.clone(), t.clone()))
            .collect()
    }

    fn find_type(&self, type_name: &str) -> Option<Type> {
        (type_name == VARIABLES).then(|| Type::object(VARIABLES))
    }

    fn may_name_type(&self, parts: &[&str]) -> bool {
        crate::cel::types::provider::root_part(parts) == "kubernetes"
    }
}

fn site_env(
    base: &Env,
    site: &ExpressionSite,
    typing: &Typing,
    seen: &BTreeMap<&str, Type>,
    settled: &Settled,
) -> Env {
    let mut env = base.clone();
    if site.has_patch_types {
        env.enable_mutation();
    }
    if site.sees_variables {
        settled.extend(&site.variables, seen);
        let visible = Visible {
            settled: settled.clone(),
            count: site.variables.len(),
        };
        env.push_provider(Arc::new(visible));
    }
    env.declare_site_variables(&AdmissionVariables {
        object: typing.object.clone(),
        params: site.has_params.then(|| typing.params.clone()),
        variables: site.sees_variables.then(|| Type::object(VARIABLES)),
        authorizer: site.has_authorizer,
    });
    env
}
