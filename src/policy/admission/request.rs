//! The admission request under evaluation, built from sample objects: its kind and resource (from
//! the object's `apiVersion`/`kind` and the bundled resource table), operation, name, namespace and
//! user; and its JSON shape for the `request` variable (empty fields omitted, as the API server's
//! unstructured conversion does).

use serde_json::{Map, Value as Json, json};

use super::json::str_at;
use crate::policy::report::quote;
use crate::schema::resources::plural;

/// A request as the evaluator sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// Group of the object's kind.
    pub group: String,
    /// Version of the object's kind.
    pub version: String,
    /// Kind.
    pub kind: String,
    /// Plural resource.
    pub resource: String,
    /// Subresource (`""` for none).
    pub sub_resource: String,
    /// `CREATE`, `UPDATE`, `DELETE` or `CONNECT`.
    pub operation: String,
    /// Object name.
    pub name: String,
    /// Namespace (`""` for cluster-scoped).
    pub namespace: String,
    /// The new object (absent for DELETE).
    pub object: Option<Json>,
    /// The old object (absent for CREATE).
    pub old_object: Option<Json>,
    /// The namespace object of a namespaced request.
    pub namespace_object: Option<Json>,
    /// `userInfo.username`.
    pub user: String,
    /// `userInfo.groups`.
    pub groups: Vec<String>,
}

impl Request {
    /// A request for `object`/`old_object`; the operation is inferred when `operation` is `None`
    /// (object only → CREATE, both → UPDATE, old object only → DELETE).
    pub fn new(object: Option<Json>, old_object: Option<Json>, operation: Option<&str>) -> Request {
        let inferred = match (&object, &old_object) {
            (Some(_), Some(_)) => "UPDATE",
            (None, Some(_)) => "DELETE",
            _ => "CREATE",
        };
        let source = object
            .as_ref()
            .or(old_object.as_ref())
            .cloned()
            .unwrap_or(Json::Null);
        let (group, version) = split_api_version(str_at(&source, &["apiVersion"]));
        let kind = str_at(&source, &["kind"]).to_string();
        Request {
            resource: plural(&kind),
            group,
            version,
            kind,
            operation: operation.unwrap_or(inferred).to_string(),
            name: str_at(&source, &["metadata", "name"]).to_string(),
            namespace: str_at(&source, &["metadata", "namespace"]).to_string(),
            object,
            old_object,
            ..Request::default()
        }
    }

    /// The new object, or the old one for DELETE.
    pub fn object_or_old(&self) -> Option<&Json> {
        self.object.as_ref().or(self.old_object.as_ref())
    }

    /// `<resource>.<group>` as API errors name it (`deployments.apps`, `pods`).
    pub fn qualified_resource(&self) -> String {
        if self.group.is_empty() {
            self.resource.clone()
        } else {
            format!("{}.{}", self.resource, self.group)
        }
    }

    /// `message` as `admission.NewForbidden` wraps it (`k8s.io/apiserver pkg/admission/errors.go`
    /// `extractResourceName`, apimachinery `errors.NewForbidden`): the request's name, else the
    /// object's `generateName`, else `Unknown`.
    pub fn forbidden(&self, message: &str) -> String {
        let object_name = |key: &str| {
            self.object
                .as_ref()
                .map(|o| str_at(o, &["metadata", key]))
                .filter(|n| !n.is_empty())
        };
        let name = match self.name.as_str() {
            "" if self.object.is_some() => object_name("name")
                .or_else(|| object_name("generateName"))
                .unwrap_or("Unknown"),
            name => name,
        };
        let resource = self.qualified_resource();
        match (resource.as_str(), name) {
            ("", _) => format!("forbidden: {message}"),
            (_, "") => format!("{resource} is forbidden: {message}"),
            _ => format!("{resource} {} is forbidden: {message}", quote(name)),
        }
    }

    /// The `request` variable, with `kind`/`resource` reporting the matched version.
    pub fn to_json(&self, matched_version: &str, matched_resource: &str) -> Json {
        let mut map = Map::new();
        let gvk =
            |version: &str| json!({"group": self.group, "version": version, "kind": self.kind});
        let gvr = |version: &str, resource: &str| json!({"group": self.group, "version": version, "resource": resource});
        map.insert("kind".into(), gvk(matched_version));
        map.insert("resource".into(), gvr(matched_version, matched_resource));
        map.insert("requestKind".into(), gvk(&self.version));
        map.insert("requestResource".into(), gvr(&self.version, &self.resource));
        let mut put = |key: &str, value: &str| {
            if !value.is_empty() {
                map.insert(key.into(), Json::from(value));
            }
        };
        put("subResource", &self.sub_resource);
        put("requestSubResource", &self.sub_resource);
        put("name", &self.name);
        put("namespace", &self.namespace);
        put("operation", &self.operation);
        let mut user = Map::new();
        if !self.user.is_empty() {
            user.insert("username".into(), Json::from(self.user.as_str()));
        }
        if !self.groups.is_empty() {
            user.insert("groups".into(), json!(self.groups));
        }
        map.insert("userInfo".into(), Json::Object(user));
        // The API server always sets dryRun (a pointer) on admission requests.
        map.insert("dryRun".into(), Json::Bool(false));
        Json::Object(map)
    }
}

/// `apps/v1` → (`apps`, `v1`); `v1` → (``, `v1`).
pub fn split_api_version(api_version: &str) -> (String, String) {
    match api_version.split_once('/') {
        Some((g, v)) => (g.to_string(), v.to_string()),
        None => (String::new(), api_version.to_string()),
    }
}
