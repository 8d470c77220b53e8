//! Typed CEL of a Kyverno policy, with the environment of kyverno/kyverno
//! `pkg/cel/policies/{vpol,mpol,gpol,dpol}/compiler/compiler.go`: `object` and `oldObject`
//! (`dyn` there; also typed here from each matched kind that has a schema), `request` (with
//! Kyverno's `object` and `oldObject` fields),
//! `namespaceObject`, `variables` (the earlier variables with their types), `exceptions`, the
//! Kubernetes libraries with `cel.bind`, and Kyverno's own libraries (`library.rs`). Image
//! policies add `images`, `attestors`, `attestations`, `ref` and the image-verification functions.
//!
//! Every finding is a warning: a library result this checker declares `dyn` (a native struct, an
//! `Any`) may be typed precisely by Kyverno, so a finding here is not proof that Kyverno's
//! compiler refuses the policy, and a typed-only disagreement is not a refusal.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{autogen, library};
use crate::cel::ast::Ast;
use crate::cel::check::{
    AdmissionVariables, CheckError, CheckErrorKind, Checked, Env, ObjectTypes, check as check_ast,
};
use crate::cel::library::NEWEST_MINOR;
use crate::cel::types::Type;
use crate::policy::families::FamilySite;
use crate::policy::model::Field;
use crate::policy::read::{Fields, match_resources};
use crate::policy::typecheck::{MAX_KINDS, error_code, matched_kinds, schema_minor};
use crate::policy::workspace::Workspace;
use crate::policy::{Diagnostic, Severity};
use crate::schema::SchemaTypes;
use crate::text::TextSize;
use crate::yaml::Node;

/// The object type whose fields are the policy's variables.
const VARIABLES: &str = "kyverno.variables";

/// Adds a warning for every checker error of the parsed `sites` of the document at `root`: the
/// errors of Kyverno's own environment (`object` as `dyn`), then the undefined fields of `object`
/// that every matched kind with a schema agrees on (a field one kind lacks is usually guarded by
/// `object.kind`, and other typed-only disagreements, such as comparing a typed list with `null`,
/// compile in Kyverno's `dyn` environment).
pub(super) fn check(
    root: &Node,
    kind: &str,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let base = base_env(kind);
    let mut walker = Walker::new(&base, Type::Dyn);
    let accepted: Vec<Option<Checked>> = sites
        .iter()
        .zip(parsed)
        .map(|(site, ast)| ast.as_ref().map(|ast| walker.check(site, ast)))
        .collect();
    let mut found: BTreeMap<Spot, &CheckError> = BTreeMap::new();
    for (i, (site, checked)) in sites.iter().zip(&accepted).enumerate() {
        let Some(checked) = checked else { continue };
        for error in &checked.errors {
            found.entry(spot(i, error)).or_insert(error);
        }
        if checked.errors.is_empty() {
            out.extend(super::result_type::check(site, &checked.result));
        }
    }
    // In JSON mode the object is any JSON document, not a Kubernetes resource: `dyn` only
    // (`compileForJSON` in pkg/cel/policies/vpol/compiler/compiler.go), and no autogen.
    if json_mode(root) {
        for ((i, _, _), error) in found {
            if let Some(site) = sites.get(i) {
                out.push(warning(site, error));
            }
        }
        return;
    }
    let typed = typed_passes(root, &base, sites, parsed, minor, workspace);
    let mut agreed = agreed_undefined_fields(&typed);
    for (key, error) in &mut agreed {
        found.entry(*key).or_insert(error);
    }
    let reported: BTreeSet<Spot> = found.keys().copied().collect();
    for ((i, _, _), error) in found {
        if let Some(site) = sites.get(i) {
            out.push(warning(site, error));
        }
    }
    let autogen = Autogen {
        root,
        kind,
        minor,
        workspace,
    };
    autogen.check(&base, sites, &reported, out);
}

/// What the autogen check reads besides the sites: the document and where it is checked.
struct Autogen<'a> {
    root: &'a Node,
    kind: &'a str,
    minor: u32,
    workspace: &'a Workspace,
}

impl Autogen<'_> {
    /// The autogen rules' findings: each rewrite of the sites is checked against its controllers,
    /// and an undefined field every controller agrees on is reported on the original characters
    /// (Kyverno evaluates the rewritten expression against them: the field is missing there).
    fn check(
        &self,
        base: &Env,
        sites: &[FamilySite],
        reported: &BTreeSet<Spot>,
        out: &mut Vec<Diagnostic>,
    ) {
        let types = self.workspace.types(schema_minor(self.minor));
        let mut env = base.clone();
        env.push_provider(types.clone());
        let mut merged: BTreeMap<Spot, (CheckError, Vec<String>)> = BTreeMap::new();
        for rewrite in autogen::rewrites(self.root, self.kind) {
            let rewritten: Vec<_> = sites.iter().map(|site| rewrite.apply(&site.text)).collect();
            let rewritten_sites: Vec<FamilySite> = sites
                .iter()
                .zip(&rewritten)
                .map(|(site, r)| FamilySite {
                    text: r.text.clone(),
                    ..site.clone()
                })
                .collect();
            let parsed: Vec<Option<Ast>> = rewritten_sites
                .iter()
                .map(|site| {
                    let parsed = crate::cel::parse(&site.text);
                    parsed.errors.is_empty().then_some(parsed.ast)
                })
                .collect();
            let objects: Vec<Type> = rewrite
                .kinds
                .iter()
                .filter_map(|gvk| types.kind_type(gvk).filter(|ty| !ty.is_dyn_or_error()))
                .collect();
            let passes: Vec<_> = objects
                .into_iter()
                .map(|object| pass(&env, object, &rewritten_sites, &parsed))
                .collect();
            for ((i, _, _), error) in agreed_undefined_fields(&passes) {
                let Some(map) = rewritten.get(i) else {
                    continue;
                };
                let original = map.original(error.span);
                let key = (i, original.start(), original.end());
                if reported.contains(&key) {
                    continue;
                }
                let entry = merged.entry(key).or_insert_with(|| {
                    let error = CheckError {
                        span: original,
                        ..error
                    };
                    (error, Vec::new())
                });
                entry
                    .1
                    .extend(rewrite.kinds.iter().map(|gvk| gvk.kind.clone()));
            }
        }
        for ((i, _, _), (error, kinds)) in merged {
            let Some(site) = sites.get(i) else { continue };
            let mut diagnostic = warning(site, &error);
            let rest = diagnostic
                .message
                .strip_prefix(site.path.as_str())
                .unwrap_or("");
            diagnostic.message = format!("{} (autogen for {}){rest}", site.path, kinds.join(", "));
            out.push(diagnostic);
        }
    }
}

/// The undefined-field errors found at the same characters by every typed pass.
fn agreed_undefined_fields(typed: &[Vec<Vec<CheckError>>]) -> BTreeMap<Spot, CheckError> {
    let mut agreed = BTreeMap::new();
    let Some((first, others)) = typed.split_first() else {
        return agreed;
    };
    for (i, errors) in first.iter().enumerate() {
        for error in errors {
            if error.kind != CheckErrorKind::UndefinedField {
                continue;
            }
            let everywhere = others.iter().all(|pass| {
                pass.get(i)
                    .is_some_and(|errors| errors.iter().any(|e| e.span == error.span))
            });
            if everywhere {
                agreed.insert(spot(i, error), error.clone());
            }
        }
    }
    agreed
}

/// Where an error is: its site and the characters of its text.
type Spot = (usize, TextSize, TextSize);

fn spot(site: usize, error: &CheckError) -> Spot {
    (site, error.span.start(), error.span.end())
}

fn warning(site: &FamilySite, error: &CheckError) -> Diagnostic {
    let mut message = format!("{}: {}", site.path, error.message);
    if let Some(name) = &error.suggestion
        && !message.contains("did you mean")
    {
        message.push_str(&format!("; did you mean '{name}'?"));
    }
    let range = site.source_map.to_file_range(error.span);
    let mut diagnostic = Diagnostic::new(error_code(error.kind), range, message);
    diagnostic.severity = Severity::Warning;
    diagnostic.at_runtime()
}

/// Checks every site in order with `object` of type `object`, each seeing the variables before it
/// with their checked types; the errors of each site.
fn pass(
    base: &Env,
    object: Type,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
) -> Vec<Vec<CheckError>> {
    let mut walker = Walker::new(base, object);
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
    env: Env,
    variables: ObjectTypes,
}

impl Walker {
    fn new(base: &Env, object: Type) -> Walker {
        let mut env = base.clone();
        env.declare_admission(&AdmissionVariables {
            object,
            params: None,
            variables: Some(Type::object(VARIABLES)),
            authorizer: false,
        });
        let request = request_fields(&env);
        env.push_provider(Arc::new(request));
        let mut variables = ObjectTypes::new();
        variables.add_type(VARIABLES);
        Walker { env, variables }
    }

    /// The environment of `site`: the variables checked so far, the mutation types in mutations.
    fn site_env(&self, site: &FamilySite) -> Env {
        let mut env = self.env.clone();
        env.push_provider(Arc::new(self.variables.clone()));
        if matches!(site.role, "applyConfiguration" | "jsonPatch") {
            env.enable_mutation();
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
            let ty = if checked.errors.is_empty() {
                variable_type(&env, &checked.result)
            } else {
                Type::Dyn
            };
            self.variables.add_field(VARIABLES, name, ty, None);
        }
        checked
    }
}

/// Kyverno's `request`: the API server's fields (as `env` knows them) and the request's `object`
/// and `oldObject`, both `dyn` (kyverno/kyverno `pkg/cel/compiler/request.go` `BuildRequestType`).
fn request_fields(env: &Env) -> ObjectTypes {
    use crate::cel::types::TypeProvider;
    let mut request = ObjectTypes::new();
    let (object, old) = ("object", "oldObject");
    let request_type = crate::cel::types::provider::ADMISSION_REQUEST;
    for (name, field) in env.providers.fields(request_type) {
        request.add_field(request_type, &name, field.ty, field.doc.as_deref());
    }
    request.add_field(
        request_type,
        object,
        Type::Dyn,
        Some("The request's object."),
    );
    request.add_field(
        request_type,
        old,
        Type::Dyn,
        Some("The request's old object."),
    );
    request
}

/// The type `variables.x` has for a variable whose expression checked as `ty`: Kyverno registers
/// the compiled expression's output type as is (kyverno/kyverno `pkg/cel/compiler/compiler.go`,
/// `RegisterField(variable.Name, ast.OutputType())` on its `VariablesProvider`), without the API
/// server's conversion to a declared type, so a library value (`image(…)`, an optional) keeps its
/// type and functions; scalars and schema objects are what the API server's conversion gives.
fn variable_type(env: &Env, ty: &Type) -> Type {
    match ty {
        Type::Opaque(_) => ty.clone(),
        Type::Optional(inner) => Type::optional(variable_type(env, inner)),
        Type::List(elem) => Type::list(variable_type(env, elem)),
        Type::Map(key, value) => Type::map(variable_type(env, key), variable_type(env, value)),
        _ => env.variable_type(ty),
    }
}

/// The environment of site `index` for the editor (hover, completion): `object` typed from the
/// first matched kind that has a schema, the earlier variables checked first so that
/// `variables.x` has its type. `parsed` holds a (recovered) tree for every site.
pub(super) fn editor_env(
    root: &Node,
    kind: &str,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    index: usize,
    minor: u32,
    workspace: &Workspace,
) -> Option<Env> {
    let mut base = base_env(kind);
    let typed = if json_mode(root) {
        None
    } else {
        matched_types(root, minor, workspace)
    };
    let object = match typed {
        Some((types, mut kinds)) if !kinds.is_empty() => {
            base.push_provider(types);
            kinds.swap_remove(0)
        }
        _ => Type::Dyn,
    };
    let mut walker = Walker::new(&base, object);
    for (site, ast) in sites.iter().zip(parsed).take(index) {
        if let Some(ast) = ast {
            walker.check(site, ast);
        }
    }
    Some(walker.site_env(sites.get(index)?))
}

/// Kyverno's environment before the policy's own variables: the Kubernetes libraries of the
/// newest release (Kyverno ships its own cel-go, not the cluster's), `cel.bind`, and its libraries.
fn base_env(kind: &str) -> Env {
    let mut env = Env::kubernetes(NEWEST_MINOR, true);
    env.target = None;
    env.bindings = true;
    library::declare(&mut env, library::Generating::of(kind));
    env.declare("exceptions", Type::Dyn, None);
    if kind.ends_with("ImageValidatingPolicy") {
        library::declare_image_verification(&mut env);
    }
    env
}

/// One pass per kind `spec.matchConstraints` matches that has a schema, with `object` typed
/// from the kind; none when no matched kind has a schema.
fn typed_passes(
    root: &Node,
    base: &Env,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    minor: u32,
    workspace: &Workspace,
) -> Vec<Vec<Vec<CheckError>>> {
    let Some((types, kinds)) = matched_types(root, minor, workspace) else {
        return Vec::new();
    };
    let mut env = base.clone();
    env.push_provider(types);
    kinds
        .into_iter()
        .map(|object| pass(&env, object, sites, parsed))
        .collect()
}

/// The schema registry and the types of the kinds `spec.matchConstraints` matches that have a
/// schema (at most [`MAX_KINDS`]); none for a mutate-existing MutatingPolicy, whose variables,
/// mutations and target conditions also run with an existing target as `object`
/// (`mpol/compiler/policy.go` in target mode), of another kind than the trigger's.
fn matched_types(
    root: &Node,
    minor: u32,
    workspace: &Workspace,
) -> Option<(Arc<SchemaTypes>, Vec<Type>)> {
    if super::eval::mutates_existing(root) {
        return None;
    }
    let node = root.get("spec")?.get("matchConstraints")?;
    let fields = Fields::new(node, node.range);
    let constraints = Some(Field {
        key: node.range,
        value: match_resources(&fields),
    });
    let types = workspace.types(schema_minor(minor));
    let kinds = matched_kinds(types.minor(), &constraints, workspace)
        .iter()
        .take(MAX_KINDS)
        .filter_map(|gvk| types.kind_type(gvk).filter(|ty| !ty.is_dyn_or_error()))
        .collect();
    Some((types, kinds))
}

/// Whether the policy evaluates JSON documents (`spec.evaluation.mode: JSON`).
fn json_mode(root: &Node) -> bool {
    super::mode::Mode::of(root) == super::mode::Mode::Json
}
