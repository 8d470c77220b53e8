//! The Kubernetes authorizer library (`authorizer.group('apps').resource('deployments')
//! .namespace('ns').check('create').allowed()`) over a mock whose decisions come from the caller:
//! builders collect an [`AuthzRequest`], `check(verb)` asks the [`Authorizer`], and the decision's
//! accessors read the answer. The values are opaque, as in the API server.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use super::value::{ErrorKind, Opaque, Value};
use crate::cel::types;

/// What an authorization check asks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuthzRequest {
    /// `serviceAccount(namespace, name)`: check as this service account instead of the user.
    pub service_account: Option<(String, String)>,
    /// `path(p)`: a non-resource URL check.
    pub path: Option<String>,
    /// API group (`''` is core).
    pub group: String,
    /// Resource (plural).
    pub resource: String,
    /// Subresource (`''` for none).
    pub subresource: String,
    /// Namespace (`''` for cluster-wide).
    pub namespace: String,
    /// Object name (`''` for any).
    pub name: String,
    /// Field selector, when set.
    pub field_selector: Option<String>,
    /// Label selector, when set.
    pub label_selector: Option<String>,
    /// The verb (`get`, `create`, …).
    pub verb: String,
}

/// An authorizer's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuthzDecision {
    /// Whether the request is allowed.
    pub allowed: bool,
    /// The reason given.
    pub reason: String,
    /// The error, when the check failed.
    pub error: Option<String>,
}

/// The decisions of the mocked authorizer, supplied by the caller (test cases, the CLI).
pub trait Authorizer: fmt::Debug + Send + Sync {
    /// Decides a request.
    fn authorize(&self, request: &AuthzRequest) -> AuthzDecision;
}

#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Authorizer,
    Path,
    Group,
    Resource,
    Decision(AuthzDecision),
}

/// An authorizer value at some stage of building a check.
#[derive(Debug)]
pub struct AuthzValue {
    stage: Stage,
    request: AuthzRequest,
    authorizer: Arc<dyn Authorizer>,
}

impl Opaque for AuthzValue {
    fn type_name(&self) -> &str {
        match self.stage {
            Stage::Authorizer => types::AUTHORIZER,
            Stage::Path => types::PATH_CHECK,
            Stage::Group => types::GROUP_CHECK,
            Stage::Resource => types::RESOURCE_CHECK,
            Stage::Decision(_) => types::DECISION,
        }
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<AuthzValue>()
            .is_some_and(|o| o.stage == self.stage && o.request == self.request)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn render(&self) -> String {
        format!("{}({:?})", self.type_name(), self.request)
    }
}

/// The `authorizer` variable.
pub fn authorizer_value(authorizer: Arc<dyn Authorizer>) -> Value {
    Value::Opaque(Arc::new(AuthzValue {
        stage: Stage::Authorizer,
        request: AuthzRequest::default(),
        authorizer,
    }))
}

/// The `authorizer.requestResource` variable: a resource check for the admitted request.
pub fn request_resource_value(authorizer: Arc<dyn Authorizer>, request: AuthzRequest) -> Value {
    Value::Opaque(Arc::new(AuthzValue {
        stage: Stage::Resource,
        request,
        authorizer,
    }))
}

fn next(from: &AuthzValue, stage: Stage, edit: impl FnOnce(&mut AuthzRequest)) -> Value {
    let mut request = from.request.clone();
    edit(&mut request);
    Value::Opaque(Arc::new(AuthzValue {
        stage,
        request,
        authorizer: from.authorizer.clone(),
    }))
}

fn empty(what: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("{what} must not be empty"),
    )
}

/// A member call on an authorizer value; `None` when no overload matches.
pub fn member(function: &str, v: &AuthzValue, args: &[Value]) -> Option<Value> {
    use Value::String as S;
    let s = |x: &str| x.to_string();
    Some(match (&v.stage, function, args) {
        (Stage::Authorizer, "serviceAccount", [S(ns), S(name)]) => {
            next(v, Stage::Authorizer, |r| {
                r.service_account = Some((s(ns), s(name)))
            })
        }
        (Stage::Authorizer, "path", [S(p)]) if p.is_empty() => empty("path"),
        (Stage::Authorizer, "path", [S(p)]) => next(v, Stage::Path, |r| r.path = Some(s(p))),
        (Stage::Authorizer, "group", [S(g)]) => next(v, Stage::Group, |r| r.group = s(g)),
        (Stage::Group, "resource", [S(x)]) if x.is_empty() => empty("resource"),
        (Stage::Group, "resource", [S(x)]) => next(v, Stage::Resource, |r| r.resource = s(x)),
        (Stage::Resource, "subresource", [S(x)]) => {
            next(v, Stage::Resource, |r| r.subresource = s(x))
        }
        (Stage::Resource, "namespace", [S(x)]) => next(v, Stage::Resource, |r| r.namespace = s(x)),
        (Stage::Resource, "name", [S(x)]) => next(v, Stage::Resource, |r| r.name = s(x)),
        (Stage::Resource, "fieldSelector", [S(x)]) => {
            next(v, Stage::Resource, |r| r.field_selector = Some(s(x)))
        }
        (Stage::Resource, "labelSelector", [S(x)]) => {
            next(v, Stage::Resource, |r| r.label_selector = Some(s(x)))
        }
        (Stage::Path | Stage::Resource, "check", [S(verb)]) => {
            let mut request = v.request.clone();
            request.verb = s(verb);
            let decision = v.authorizer.authorize(&request);
            next(v, Stage::Decision(decision), |r| r.verb = s(verb))
        }
        (Stage::Decision(d), "allowed", []) => Value::Bool(d.allowed),
        (Stage::Decision(d), "reason", []) => Value::string(&d.reason),
        (Stage::Decision(d), "errored", []) => Value::Bool(d.error.is_some()),
        (Stage::Decision(d), "error", []) => Value::string(d.error.as_deref().unwrap_or("")),
        _ => return None,
    })
}

/// Whether `v` is an authorizer value (for the cost of `check`).
pub fn is_authz(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Opaque(o)) if o.as_any().is::<AuthzValue>())
}
