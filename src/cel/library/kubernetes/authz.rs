//! Kubernetes authorizer library (`authz.go`, 1.27; `errored`/`error` 1.28) and its selectors
//! (`fieldSelector`, `labelSelector`, 1.31).

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::{AUTHORIZER, DECISION, GROUP_CHECK, PATH_CHECK, RESOURCE_CHECK, Type};

const AUTHZ: Library = Library::Authz;

/// The authorizer functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let authorizer = || Type::object(AUTHORIZER);
    let path = || Type::object(PATH_CHECK);
    let group = || Type::object(GROUP_CHECK);
    let resource = || Type::object(RESOURCE_CHECK);
    let decision = || Type::object(DECISION);
    vec![
        func(AUTHZ, "path", "Starts an authorization check of a non-resource URL path for the requesting user; the path must not be empty.", &["authorizer.path('/healthz').check('get').allowed()"])
            .member("authorizer_path", [authorizer(), STRING], path())
            .done(),
        func(AUTHZ, "group", "Starts an authorization check of a resource in an API group ('' is the core group).", &["authorizer.group('apps').resource('deployments').check('create').allowed()"])
            .member("authorizer_group", [authorizer(), STRING], group())
            .done(),
        func(AUTHZ, "serviceAccount", "An authorizer that checks as the service account with the given namespace and name instead of the requesting user.", &["authorizer.serviceAccount('default', 'builder').group('').resource('pods').check('list').allowed()"])
            .member("authorizer_serviceaccount", [authorizer(), STRING, STRING], authorizer())
            .done(),
        func(AUTHZ, "resource", "Names the resource (plural, e.g. 'deployments') of a group check; must not be empty.", &["authorizer.group('apps').resource('deployments')"])
            .member("groupcheck_resource", [group(), STRING], resource())
            .done(),
        func(AUTHZ, "subresource", "Sets the subresource of a resource check ('' for none).", &["authorizer.group('').resource('pods').subresource('exec')"])
            .member("resourcecheck_subresource", [resource(), STRING], resource())
            .done(),
        func(AUTHZ, "namespace", "Sets the namespace of a resource check ('' for cluster-wide).", &["authorizer.group('').resource('secrets').namespace('kube-system')"])
            .member("resourcecheck_namespace", [resource(), STRING], resource())
            .done(),
        func(AUTHZ, "name", "Sets the object name of a resource check ('' for any).", &["authorizer.group('').resource('configmaps').name('settings')"])
            .member("resourcecheck_name", [resource(), STRING], resource())
            .done(),
        func(AUTHZ, "check", "Asks the authorizer whether the verb is allowed on the path or resource, giving a decision.", &["authorizer.requestResource.check('delete').allowed()"])
            .member("pathcheck_check", [path(), STRING], decision())
            .member("resourcecheck_check", [resource(), STRING], decision())
            .done(),
        func(AUTHZ, "allowed", "Whether the decision allows the request.", &["authorizer.path('/metrics').check('get').allowed()"])
            .member("decision_allowed", [decision()], BOOL)
            .done(),
        func(AUTHZ, "reason", "The reason the authorizer gave for its decision.", &["authorizer.requestResource.check('update').reason()"])
            .member("decision_reason", [decision()], STRING)
            .done(),
        func(AUTHZ, "errored", "Whether the authorization check failed with an error (Kubernetes 1.28+).", &["authorizer.requestResource.check('get').errored()"])
            .member("decision_errored", [decision()], BOOL)
            .done(),
        func(AUTHZ, "error", "The error of a failed authorization check, or '' (Kubernetes 1.28+).", &["authorizer.requestResource.check('get').error()"])
            .member("decision_error", [decision()], STRING)
            .done(),
        func(Library::AuthzSelectors, "fieldSelector", "Adds a field selector to a resource check; an unparsable selector adds no requirement.", &["authorizer.group('').resource('pods').fieldSelector('spec.nodeName=node-1')"])
            .member("authorizer_fieldselector", [resource(), STRING], resource())
            .done(),
        func(Library::AuthzSelectors, "labelSelector", "Adds a label selector to a resource check; an unparsable selector adds no requirement.", &["authorizer.group('').resource('pods').labelSelector('app=web')"])
            .member("authorizer_labelselector", [resource(), STRING], resource())
            .done(),
    ]
}
