//! Which params an invocation runs with (`generic/policy_dispatcher.go` `CollectParams`): none
//! without `paramKind`; `null` without `paramRef`; the named object, or every object the selector
//! matches (the policy then runs once per param); nothing found → `parameterNotFoundAction`
//! (only `Deny` refuses).

use serde_json::Value as Json;

use super::Input;
use super::json::{at, str_at};
use super::matching::selector_matches;
use super::request::split_api_version;
use super::view::{Binding, Policy};
use crate::policy::ApiVersion;
use crate::schema::resources::is_namespaced;

/// The params of each invocation (`None` = `params` is null), or a configuration error.
pub fn resolve(
    policy: &Policy,
    binding: Option<&Binding>,
    input: &Input,
) -> Result<Vec<Option<Json>>, String> {
    let Some(kind) = &policy.param_kind else {
        return Ok(vec![None]);
    };
    if let Some(params) = &input.params {
        return Ok(vec![Some(params.clone())]);
    }
    let Some(reference) = binding.and_then(|b| b.param_ref.as_ref()) else {
        return Ok(vec![None]);
    };
    let (group, _) = split_api_version(&kind.api_version);
    let namespaced = is_namespaced(&group, &kind.kind);
    let namespace = match reference.namespace.as_str() {
        "" => input.request.namespace.as_str(),
        _ if !namespaced => {
            return Err(
                "paramRef.namespace must not be provided for a cluster-scoped `paramKind`".into(),
            );
        }
        ns => ns,
    };
    if namespaced && namespace.is_empty() {
        return Err(
            "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources".into(),
        );
    }
    let name = reference.name.as_str();
    let selector = reference.selector.as_ref();
    match (name.is_empty(), selector.is_some()) {
        (false, true) => {
            return Err("paramRef.name and paramRef.selector are mutually exclusive".into());
        }
        (true, false) => return Err("one of name or selector must be provided".into()),
        _ => {}
    }
    let found: Vec<Option<Json>> = input
        .param_pool
        .iter()
        .filter(|p| str_at(p, &["kind"]) == kind.kind)
        .filter(|p| str_at(p, &["apiVersion"]) == kind.api_version)
        .filter(|p| {
            let ns = str_at(p, &["metadata", "namespace"]);
            ns.is_empty() || namespace.is_empty() || ns == namespace
        })
        .filter(|p| match selector {
            Some(s) => {
                let labels = at(p, &["metadata", "labels"]).and_then(Json::as_object);
                selector_matches(s, labels)
            }
            None => str_at(p, &["metadata", "name"]) == name,
        })
        .map(|p| Some(p.clone()))
        .collect();
    if !found.is_empty() {
        return Ok(found);
    }
    // Only `Deny` refuses; v1alpha1 defaults the action to `Deny` (`v1alpha1/defaults.go`).
    let action = match reference.parameter_not_found_action.as_str() {
        "" if binding.is_some_and(|b| b.version == ApiVersion::V1alpha1) => "Deny",
        action => action,
    };
    match action {
        "Deny" => {
            Err("no params found for policy binding with `Deny` parameterNotFoundAction".into())
        }
        _ => Ok(Vec::new()),
    }
}
