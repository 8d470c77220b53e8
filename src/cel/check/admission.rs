//! The variables the admission environment declares, with their documentation
//! for hover, so the policy layer only decides which ones a field sees (by the field's role) and how `object` and
//! `params` are typed (`dyn` for the acceptance check, schema types for the typed check).

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

impl Env {
    /// Declares the admission variables described by `vars`.
    pub fn declare_admission(&mut self, vars: &AdmissionVariables) {
        let object = Some(
            "The object from the incoming request (null for DELETE), converted to the matched version.",
        );
        self.declare("object", vars.object.clone(), object);
        let old = Some("The existing object (null for CREATE and CONNECT).");
        self.declare("oldObject", vars.object.clone(), old);
        let request =
            Some("Attributes of the admission request (kind, resource, user, operation…).");
        self.declare("request", Type::object(ADMISSION_REQUEST), request);
        let namespace = Some(
            "The namespace of the object (null for cluster-scoped objects and in match conditions).",
        );
        self.declare("namespaceObject", Type::object(NAMESPACE), namespace);
        if let Some(params) = &vars.params {
            let doc =
                Some("The parameter resource referred to by the binding (null without paramRef).");
            self.declare("params", params.clone(), doc);
        }
        if let Some(variables) = &vars.variables {
            let doc = Some("The policy's variables, each evaluated lazily at most once.");
            self.declare("variables", variables.clone(), doc);
        }
        if vars.authorizer {
            let doc = Some("Authorization checks for the requesting user.");
            self.declare("authorizer", Type::object(AUTHORIZER), doc);
            let doc = Some("A resource check pre-populated with the request's resource.");
            self.declare(
                "authorizer.requestResource",
                Type::object(RESOURCE_CHECK),
                doc,
            );
        }
    }

    /// Enables what only MutatingAdmissionPolicy mutations have: the `Object`/`JSONPatch` types
    /// and `jsonpatch.escapeKey` (present from Kubernetes 1.32, when mutating policies appeared).
    pub fn enable_mutation(&mut self) {
        if !self.libraries.contains(&Library::JsonPatch) {
            self.libraries.push(Library::JsonPatch);
        }
    }
}
