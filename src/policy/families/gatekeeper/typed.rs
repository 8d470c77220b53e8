//! Typed CEL of a ConstraintTemplate's `K8sNativeValidation` source, in the environment of
//! gatekeeper `pkg/drivers/k8scel/driver.go` `AddTemplate`: the Kubernetes libraries of the base
//! environment, `object`, `oldObject`, `request` and `namespaceObject`; `variables` with the
//! driver's own `anyObject` and `params` first (`transform/cel_snippets.go`) and then the
//! template's; `params` (the whole Constraint) only in variables, which the driver compiles with
//! parameters, while validations, messageExpressions and matchConditions are compiled without.
//!
//! The driver's own pass has the objects and the Constraint `dyn`: what fails there fails every
//! evaluation. The typed findings come from the generated policy ([`super::vap_check`]); the
//! editor's environment here is typed like it: `variables.params` and `params` from the
//! Constraint CRD the template creates, `object` from the first kind the template's Constraints
//! match (`dyn` when the workspace has none).

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::cel::ast::Ast;
use crate::cel::check::{
    AdmissionVariables, CheckError, CheckErrorKind, Checked, Env, ObjectTypes, check as check_ast,
};
use crate::cel::library::NEWEST_MINOR;
use crate::cel::types::Type;
use crate::cel::types::TypeProvider;
use crate::policy::Diagnostic;
use crate::policy::families::FamilySite;
use crate::policy::typecheck::{MAX_KINDS, error_code, schema_minor};
use crate::policy::workspace::Workspace;
use crate::schema::{Gvk, SchemaTypes};
use crate::text::TextSize;
use crate::yaml::Node;

/// The object type whose fields are the source's variables.
const VARIABLES: &str = "gatekeeper.variables";

/// The types of one pass: the request objects, the Constraint and its parameters.
#[derive(Clone)]
struct Types {
    object: Type,
    constraint: Type,
    parameters: Type,
}

impl Types {
    fn dynamic() -> Types {
        Types {
            object: Type::Dyn,
            constraint: Type::Dyn,
            parameters: Type::Dyn,
        }
    }
}

/// Reports the compile errors of the driver's pass, then the typed findings of the policy
/// Gatekeeper generates ([`super::vap_check`]) at other characters.
pub(super) fn check(
    root: &Node,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let driver = pass(&base_env(), &Types::dynamic(), sites, parsed);
    let mut reported: BTreeSet<Spot> = BTreeSet::new();
    let mut ranges = Vec::new();
    for (i, errors) in driver.iter().enumerate() {
        for error in errors {
            if reported.insert(spot(i, error))
                && let Some(site) = sites.get(i)
            {
                let found = diagnostic(site, error).at_runtime();
                ranges.push(found.range);
                out.push(found);
            }
        }
    }
    parameter_fields(root, sites, parsed, minor, workspace, &mut ranges, out);
    super::vap_check::check(root, sites, minor, workspace, &ranges, out);
}

/// The fields of `variables.params` its schema does not have: the Constraint's parameters are
/// pruned to the template's schema, so such a field is `no such key` whenever it is reached. (The
/// generated policy does not see these: its `params` variable is a conditional with `null`, which
/// the API server's variable types make `dyn`.)
fn parameter_fields(
    root: &Node,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
    ranges: &mut Vec<crate::text::TextRange>,
    out: &mut Vec<Diagnostic>,
) {
    let (registry, passes) = typed_types(root, minor, workspace);
    let Some(first) = passes.into_iter().next() else {
        return;
    };
    if first.parameters.is_dyn_or_error() {
        return;
    }
    let types = Types {
        object: Type::Dyn,
        ..first
    };
    let mut env = base_env();
    env.push_provider(registry);
    for (i, errors) in pass(&env, &types, sites, parsed).iter().enumerate() {
        let Some(site) = sites.get(i) else { continue };
        for error in errors
            .iter()
            .filter(|e| e.kind == CheckErrorKind::UndefinedField)
        {
            let found = diagnostic(site, error).at_runtime();
            if !ranges.contains(&found.range) {
                ranges.push(found.range);
                out.push(found);
            }
        }
    }
}

/// Where an error is: its site and the characters of its text.
type Spot = (usize, TextSize, TextSize);

fn spot(site: usize, error: &CheckError) -> Spot {
    (site, error.span.start(), error.span.end())
}

fn diagnostic(site: &FamilySite, error: &CheckError) -> Diagnostic {
    let mut message = format!("{}: {}", site.path, error.message);
    if let Some(name) = &error.suggestion
        && !message.contains("did you mean")
    {
        message.push_str(&format!("; did you mean '{name}'?"));
    }
    let range = site.source_map.to_file_range(error.span);
    Diagnostic::new(error_code(error.kind), range, message)
}

/// Checks every site in order; the errors of each.
fn pass(
    base: &Env,
    types: &Types,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
) -> Vec<Vec<CheckError>> {
    let mut walker = Walker::new(base, types);
    sites
        .iter()
        .zip(parsed)
        .map(|(site, ast)| match ast {
            Some(ast) => walker.check(site, ast).errors,
            None => Vec::new(),
        })
        .collect()
}

/// Checks sites in order, keeping the types of the variables checked so far.
struct Walker {
    base: Env,
    constraint: Type,
    variables: ObjectTypes,
}

impl Walker {
    fn new(base: &Env, types: &Types) -> Walker {
        let mut variables = ObjectTypes::new();
        variables.add_type(VARIABLES);
        let doc = Some("The object of the request, or the old object on DELETE.");
        variables.add_field(VARIABLES, "anyObject", types.object.clone(), doc);
        let doc = Some("The Constraint's spec.parameters (null when it has none).");
        variables.add_field(VARIABLES, "params", types.parameters.clone(), doc);
        let mut env = base.clone();
        env.declare_admission(&AdmissionVariables {
            object: types.object.clone(),
            params: None,
            variables: Some(Type::object(VARIABLES)),
            authorizer: false,
        });
        Walker {
            base: env,
            constraint: types.constraint.clone(),
            variables,
        }
    }

    /// The environment of `site`: `params` in variables only.
    fn site_env(&self, site: &FamilySite) -> Env {
        let mut env = self.base.clone();
        env.push_provider(Arc::new(self.variables.clone()));
        if site.role == "variable" {
            let doc = Some("The Constraint (its spec.parameters are variables.params).");
            env.declare("params", self.constraint.clone(), doc);
        }
        env
    }

    /// Checks `site`, recording a variable's type for the sites after it.
    fn check(&mut self, site: &FamilySite, ast: &Ast) -> Checked {
        let env = self.site_env(site);
        let checked = check_ast(ast, &env);
        if site.role == "variable"
            && let Some(name) = &site.name
        {
            let ty = env.variable_type_of(&checked);
            self.variables.add_field(VARIABLES, name, ty, None);
        }
        checked
    }
}

/// The environment of site `index` for the editor: the first typed pass, the earlier variables
/// checked first.
pub(super) fn editor_env(
    root: &Node,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    index: usize,
    minor: u32,
    workspace: &Workspace,
) -> Option<Env> {
    let (registry, passes) = typed_types(root, minor, workspace);
    let mut base = base_env();
    base.push_provider(registry);
    let types = passes.into_iter().next().unwrap_or_else(Types::dynamic);
    let mut walker = Walker::new(&base, &types);
    for (site, ast) in sites.iter().zip(parsed).take(index) {
        if let Some(ast) = ast {
            walker.check(site, ast);
        }
    }
    Some(walker.site_env(sites.get(index)?))
}

/// The driver's environment before the template's variables: the Kubernetes libraries of the
/// newest release (Gatekeeper ships its own apiserver libraries, not the cluster's).
fn base_env() -> Env {
    let mut env = Env::kubernetes(NEWEST_MINOR, true);
    env.target = None;
    env
}

/// The schema registry and the types of each typed pass: one per matched kind with a schema
/// (at most [`MAX_KINDS`]), or one with `object` as `dyn`.
fn typed_types(root: &Node, minor: u32, workspace: &Workspace) -> (Arc<SchemaTypes>, Vec<Types>) {
    let registry = workspace.types(schema_minor(minor));
    let kind = super::template_kind(root).unwrap_or("");
    let constraint = workspace
        .crd_kinds(super::CONSTRAINTS, super::crd::VERSIONS[0], kind)
        .last()
        .map_or(Type::Dyn, |crd| registry.register_crd(crd));
    let parameters = field_type(&registry, &constraint, "spec")
        .and_then(|spec| field_type(&registry, &spec, "parameters"))
        .unwrap_or(Type::Dyn);
    let objects: Vec<Type> = matched_kinds(workspace, kind, registry.minor())
        .iter()
        .filter_map(|gvk| registry.kind_type(gvk).filter(|ty| !ty.is_dyn_or_error()))
        .take(MAX_KINDS)
        .collect();
    let objects = if objects.is_empty() {
        vec![Type::Dyn]
    } else {
        objects
    };
    let passes = objects
        .into_iter()
        .map(|object| Types {
            object,
            constraint: constraint.clone(),
            parameters: parameters.clone(),
        })
        .collect();
    (registry, passes)
}

/// The type of `field` of an object type.
fn field_type(registry: &SchemaTypes, ty: &Type, field: &str) -> Option<Type> {
    let Type::Object(name) = ty else { return None };
    registry.field(name, field).map(|found| found.ty)
}

/// The bundled kinds the Constraints of `kind` match.
fn matched_kinds(workspace: &Workspace, kind: &str, minor: u32) -> Vec<Gvk> {
    super::vap_check::matched_rules(workspace, kind, minor)
        .into_iter()
        .filter_map(|(group, version, resource)| {
            crate::schema::resources::kind_for(minor, &group, &version, &resource)
        })
        .collect()
}
