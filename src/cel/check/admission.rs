//! The variables the admission environment declares, with their documentation
//! for hover, so the policy layer only decides which ones a field sees (by the field's role) and how `object` and
//! `params` are typed (`dyn` for the acceptance check, schema types for the typed check).

use std::sync::Arc;

use super::Env;
use crate::cel::library::Library;
use crate::cel::types::provider::{ADMISSION_REQUEST, NAMESPACE};
use crate::cel::types::{AUTHORIZER, RESOURCE_CHECK, Type};

/// Which admission variables an expression site sees, and their types.
#[derive(Clone, Debug, PartialEq)]
pub struct AdmissionVariables {
    /// Type of `object` and `oldObject` (`dyn` for the API server's acceptance check).
    pub object: Type,
    /// Type of `params`; `None` when the policy has no `paramKind` (then `params` is undeclared).
    pub params: Option<Type>,
    /// Type of `variables` (an object type whose fields are the variables visible here); `None`
    /// where `variables` is undeclared (match conditions, policies without variables).
    pub variables: Option<Type>,
    /// Whether `authorizer` and `authorizer.requestResource` are declared (not in
    /// `messageExpression`).
    pub authorizer: bool,
}

/// The documentation of each admission variable, by name.
const DOCS: [(&str, &str); 8] = [
    (
        "object",
        "The object from the incoming request (null for DELETE), converted to the matched version.",
    ),
    (
        "oldObject",
        "The existing object (null for CREATE and CONNECT).",
    ),
    (
        "request",
        "Attributes of the admission request (kind, resource, user, operation…).",
    ),
    (
        "namespaceObject",
        "The namespace of the object (null for cluster-scoped objects and in match conditions).",
    ),
    (
        "params",
        "The parameter resource referred to by the binding (null without paramRef).",
    ),
    (
        "variables",
        "The policy's variables, each evaluated lazily at most once.",
    ),
    (
        "authorizer",
        "Authorization checks for the requesting user.",
    ),
    (
        "authorizer.requestResource",
        "A resource check pre-populated with the request's resource.",
    ),
];

thread_local! {
    /// [`DOCS`] made shareable once per thread: every site's environment declares these
    /// variables, and copying each text into a new allocation showed in the check's profile.
    static SHARED_DOCS: Vec<(&'static str, Arc<str>)> =
        DOCS.iter().map(|&(name, doc)| (name, Arc::from(doc))).collect();
}

impl Env {
    /// Declares the admission variables described by `vars`.
    pub fn declare_admission(&mut self, vars: &AdmissionVariables) {
        self.declare_request(&vars.object);
        self.declare_site_variables(vars);
    }

    /// Declares what every admission expression sees: `object` and `oldObject` (of type
    /// `object`), `request` and `namespaceObject`. Several environments built from one with these
    /// declared need not declare them again ([`Env::declare_site_variables`]).
    pub fn declare_request(&mut self, object: &Type) {
        self.declare_documented("object", object.clone());
        self.declare_documented("oldObject", object.clone());
        self.declare_documented("request", Type::object(ADMISSION_REQUEST));
        self.declare_documented("namespaceObject", Type::object(NAMESPACE));
    }

    /// Declares the admission variables that depend on the expression's field: `params`,
    /// `variables` and `authorizer`, as `vars` says (its `object` is not read).
    pub fn declare_site_variables(&mut self, vars: &AdmissionVariables) {
        if let Some(params) = &vars.params {
            self.declare_documented("params", params.clone());
        }
        if let Some(variables) = &vars.variables {
            self.declare_documented("variables", variables.clone());
        }
        if vars.authorizer {
            self.declare_documented("authorizer", Type::object(AUTHORIZER));
            self.declare_documented("authorizer.requestResource", Type::object(RESOURCE_CHECK));
        }
    }

    /// Declares admission variable `name` (an entry of [`DOCS`]) with its documentation.
    fn declare_documented(&mut self, name: &str, ty: Type) {
        let doc = SHARED_DOCS.with(|docs| {
            docs.iter()
                .find(|(known, _)| *known == name)
                .map(|(_, doc)| doc.clone())
        });
        self.variables
            .insert(name.to_string(), super::Variable { ty, doc });
    }

    /// Enables what only MutatingAdmissionPolicy mutations have: the `Object`/`JSONPatch` types
    /// and `jsonpatch.escapeKey` (present from Kubernetes 1.32, when mutating policies appeared).
    pub fn enable_mutation(&mut self) {
        if !self.libraries.contains(&Library::JsonPatch) {
            self.libraries.push(Library::JsonPatch);
        }
    }
}
