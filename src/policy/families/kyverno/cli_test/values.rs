//! The `variables` (a `Values` file) and `userinfo` (a `UserInfo` file) of a suite, as far as
//! Kyverno's CEL engines read them (`cmd/cli/kubectl-kyverno/variables/variables.go`): the
//! Namespace objects a request's namespace resolves to (`namespaces`, then `namespaceSelector`
//! names with their labels; `Namespace`), the operation of every request (`globalValues`
//! `request.operation`; `GlobalOperation`), and the requesting user (`userInfo.username`,
//! `userInfo.groups`), and the subresources a resource's kind stands for (`subresources`: the
//! CLI then requests it as its parent's subresource, `processor/policy_processor.go`). Per-resource `policies[].resources[].values` feed only Kyverno's older
//! policies' variables, not CEL policies.

use serde_json::{Value as Json, json};

use crate::policy::admission::json::str_at;
use crate::policy::admission::request::Request;
use crate::schema::resources::plural;

/// One `subresources` entry: its `subresource`'s group, version and kind, and its
/// `parentResource`'s with the part of the subresource's `name` after the slash.
fn subresource(entry: &Json) -> ([String; 3], [String; 4]) {
    let gvk = |key: &str| {
        ["group", "version", "kind"].map(|field| str_at(entry, &[key, field]).to_string())
    };
    let [group, version, kind] = gvk("parentResource");
    let name = str_at(entry, &["subresource", "name"]);
    let sub = name.split_once('/').map_or("", |(_, s)| s).to_string();
    (gvk("subresource"), [group, version, kind, sub])
}

/// What the values and user info files give the requests.
#[derive(Clone, Debug, Default)]
pub struct Values {
    /// `namespaces` objects, then `namespaceSelector` entries as Namespaces with their labels.
    namespaces: Vec<Json>,
    /// `globalValues["request.operation"]`.
    pub operation: Option<String>,
    /// `userInfo.username`.
    pub user: String,
    /// `userInfo.groups`.
    pub groups: Vec<String>,
    /// The documents of the suite's `context` file.
    pub context: Vec<Json>,
    /// Where they come from, for messages.
    pub context_source: Option<String>,
    /// The wall-clock time `time.now()` returns.
    pub now: Option<crate::cel::eval::Timestamp>,
    /// `subresources`: the (group, version, kind) of a subresource's objects, and the
    /// (group, version, kind, subresource) the request names instead.
    subresources: Vec<([String; 3], [String; 4])>,
}

impl Values {
    /// Reads a values document (`Values`/`Value`); `Err` for an operation Kyverno refuses
    /// (`NormalizeValuesOperation`).
    pub fn read_values(&mut self, doc: &Json) -> Result<(), String> {
        if let Some(Json::Array(items)) = doc.get("namespaces") {
            self.namespaces.extend(items.iter().cloned());
        }
        if let Some(Json::Array(items)) = doc.get("namespaceSelector") {
            for item in items {
                let name = str_at(item, &["name"]);
                let labels = item.get("labels").cloned().unwrap_or(json!({}));
                self.namespaces
                    .push(json!({"apiVersion": "v1", "kind": "Namespace",
                    "metadata": {"name": name, "labels": labels}}));
            }
        }
        if let Some(Json::Array(items)) = doc.get("subresources") {
            self.subresources.extend(items.iter().map(subresource));
        }
        if let Some(op) = doc
            .get("globalValues")
            .and_then(|g| g.get("request.operation"))
        {
            let op = op.as_str().unwrap_or("");
            if !matches!(op, "" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT") {
                return Err(format!(
                    "invalid request.operation value \"{op}\", must be one of CREATE, UPDATE, DELETE, CONNECT"
                ));
            }
            self.operation = (!op.is_empty()).then(|| op.to_string());
        }
        Ok(())
    }

    /// A request for an object of a subresource's kind names the parent's kind and resource
    /// and the subresource, as the CLI's processor does when not run against a cluster (the
    /// last matching entry wins, as its loop has no break).
    pub fn as_subresource(&self, request: &mut Request) {
        let own = [&request.group, &request.version, &request.kind];
        let Some((_, [group, version, kind, sub])) = self
            .subresources
            .iter()
            .rev()
            .find(|(gvk, _)| gvk.iter().zip(own).all(|(a, b)| a == b))
        else {
            return;
        };
        request.resource = plural(kind);
        request.group = group.clone();
        request.version = version.clone();
        request.kind = kind.clone();
        request.sub_resource = sub.clone();
    }

    /// Reads a `UserInfo` document.
    pub fn read_user_info(&mut self, doc: &Json) {
        self.user = str_at(doc, &["userInfo", "username"]).to_string();
        if let Some(Json::Array(groups)) = doc.get("userInfo").and_then(|u| u.get("groups")) {
            self.groups = groups
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect();
        }
    }

    /// The Namespace `name` resolves to: a `namespaces` object first, then a `namespaceSelector`
    /// entry (`Variables.Namespace`).
    pub fn namespace(&self, name: &str) -> Option<&Json> {
        self.namespaces
            .iter()
            .find(|n| str_at(n, &["metadata", "name"]) == name)
    }
}
