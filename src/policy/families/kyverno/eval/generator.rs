//! `generator.Apply(namespace, [objects])`, in a namespaced policy `generator.Apply([objects])` (and
//! `generator.apply` from Kyverno 1.18), as Kyverno's
//! CLI runs it: kyverno/sdk `extensions/cel/libs/generator/impl.go` hands the objects to the
//! context's `GenerateResources` (kyverno/kyverno `pkg/cel/libs/context.go`), which in CLI
//! evaluation records each resource instead of creating it: a `…List` object stands for its
//! `items`; a cluster-scoped kind gets no namespace (and is refused for a namespaced policy that
//! named a namespace, which can be its own only); a resource generated into another namespace
//! than its own loses its `ownerReferences`; then `uid`, `managedFields`, `annotations`,
//! `resourceVersion` and `creationTimestamp` are cleared and the namespace set. The call returns
//! `true`.

use std::sync::Mutex;

use serde_json::{Map, Value as Json};

use crate::cel::eval::{ErrorKind, Value};
use crate::policy::admission::json::str_at;
use crate::policy::admission::request::split_api_version;
use crate::schema::resources::is_namespaced;

/// Where the resources one evaluation generates are recorded.
#[derive(Debug, Default)]
pub struct Sink {
    /// The namespace of a namespaced policy ("" for a cluster-wide one).
    policy_namespace: String,
    resources: Mutex<Vec<Json>>,
}

impl Sink {
    /// A sink for a policy in `policy_namespace` ("" when cluster-wide).
    pub fn new(policy_namespace: &str) -> Sink {
        Sink {
            policy_namespace: policy_namespace.to_string(),
            resources: Mutex::new(Vec::new()),
        }
    }

    /// The resources generated so far, in the order of the calls.
    pub fn resources(&self) -> Vec<Json> {
        match self.resources.lock() {
            Ok(list) => list.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// `apply_generator_string_list` (a cluster-wide policy: the namespace and the objects) or
    /// `apply_generator_list` (a namespaced policy: the objects, generated into its namespace).
    pub fn apply(&self, args: &[Value]) -> Value {
        let (namespace, objects) = match args {
            [Value::String(namespace), objects @ Value::List(_)] => {
                (namespace.to_string(), objects)
            }
            [objects @ Value::List(_)] if !self.policy_namespace.is_empty() => {
                (self.policy_namespace.clone(), objects)
            }
            _ => return Value::no_overload(),
        };
        let namespace = namespace.as_str();
        // A namespaced policy's library generates into its own namespace only (kyverno/sdk
        // `libs/generator` `namespacedImpl`, the version Kyverno pins).
        if !self.policy_namespace.is_empty() && namespace != self.policy_namespace {
            return Value::error(
                ErrorKind::InvalidArgument,
                format!(
                    "cross-namespace generation denied: policy in \"{}\" cannot generate into \"{namespace}\"",
                    self.policy_namespace
                ),
            );
        }
        let objects = match objects.to_json() {
            Ok(Json::Array(items)) => items,
            Ok(_) => return Value::no_overload(),
            Err(e) => return failed(&e.message),
        };
        match self.generate(namespace, objects) {
            Ok(generated) => {
                match self.resources.lock() {
                    Ok(mut list) => list.extend(generated),
                    Err(poisoned) => poisoned.into_inner().extend(generated),
                }
                Value::Bool(true)
            }
            Err(e) => failed(&e),
        }
    }

    /// `GenerateResources` in CLI evaluation: the resources recorded for `objects`.
    fn generate(&self, namespace: &str, objects: Vec<Json>) -> Result<Vec<Json>, String> {
        let mut out = Vec::new();
        for object in objects {
            for item in items_of(object) {
                out.push(self.prepare(namespace, item)?);
            }
        }
        Ok(out)
    }

    fn prepare(&self, namespace: &str, mut item: Json) -> Result<Json, String> {
        let api_version = str_at(&item, &["apiVersion"]).to_string();
        let kind = str_at(&item, &["kind"]).to_string();
        let mut target = namespace.to_string();
        if !namespaced(&api_version, &kind) {
            if !namespace.is_empty() && !self.policy_namespace.is_empty() {
                return Err(format!(
                    "cross-scope generation denied: a policy scoped to namespace \"{}\" cannot generate cluster-scoped resource {api_version}/{kind}",
                    self.policy_namespace
                ));
            }
            target.clear();
        }
        let source = str_at(&item, &["metadata", "namespace"]).to_string();
        let Some(Json::Object(metadata)) = item.get_mut("metadata") else {
            return Ok(item);
        };
        if !source.is_empty() && source != target {
            metadata.remove("ownerReferences");
        }
        for field in [
            "uid",
            "managedFields",
            "annotations",
            "resourceVersion",
            "creationTimestamp",
        ] {
            metadata.remove(field);
        }
        set_namespace(metadata, &target);
        Ok(item)
    }
}

/// `Unstructured.IsList` and `ToList`: an object whose `items` is a list stands for its items.
fn items_of(object: Json) -> Vec<Json> {
    match object {
        Json::Object(mut map) if matches!(map.get("items"), Some(Json::Array(_))) => {
            match map.remove("items") {
                Some(Json::Array(items)) => items,
                _ => Vec::new(),
            }
        }
        other => vec![other],
    }
}

/// `isNamespacedResource`: unknown kinds are namespaced, as the context provider assumes.
fn namespaced(api_version: &str, kind: &str) -> bool {
    if api_version.is_empty() || kind.is_empty() {
        return true;
    }
    let (group, _) = split_api_version(api_version);
    is_namespaced(&group, kind)
}

/// `SetNamespace`: an empty namespace removes the field.
fn set_namespace(metadata: &mut Map<String, Json>, namespace: &str) {
    if namespace.is_empty() {
        metadata.remove("namespace");
    } else {
        metadata.insert("namespace".into(), Json::from(namespace));
    }
}

/// The call's error, worded as the generator library's.
fn failed(reason: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("failed to generate resources: {reason}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn apply(sink: &Sink, namespace: &str, objects: Json) -> Value {
        let objects = Value::from_json(&objects).unwrap_or(Value::Null);
        sink.apply(&[Value::string(namespace), objects])
    }

    #[test]
    fn records_resources_as_the_cli_context_does() {
        let sink = Sink::new("");
        let list = json!([
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "src",
                "uid": "1", "annotations": {"x": "y"}, "ownerReferences": [{"name": "o"}]}},
            {"apiVersion": "v1", "kind": "List", "items": [
                {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                    "metadata": {"name": "r"}}]}
        ]);
        assert!(matches!(apply(&sink, "team", list), Value::Bool(true)));
        assert_eq!(
            sink.resources(),
            vec![
                json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "a", "namespace": "team"}}),
                json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                    "metadata": {"name": "r"}}),
            ]
        );
    }

    #[test]
    fn a_namespaced_policy_cannot_generate_a_cluster_scoped_resource() {
        let sink = Sink::new("team");
        let list = json!([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n"}}]);
        let error = apply(&sink, "team", list).to_string();
        assert!(error.contains("cross-scope generation denied"), "{error}");
        assert!(sink.resources().is_empty());
        let elsewhere =
            json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}]);
        let error = apply(&sink, "team-b", elsewhere).to_string();
        assert!(
            error.contains(r#"cross-namespace generation denied: policy in "team" cannot generate into "team-b""#),
            "{error}"
        );
        let wrong = sink.apply(&[Value::Int(1)]);
        assert!(wrong.to_string().contains("no such overload"), "{wrong}");
    }

    #[test]
    fn a_namespaced_policy_generates_into_its_own_namespace_from_the_objects_alone() {
        let list = json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}]);
        let objects = Value::from_json(&list).unwrap_or(Value::Null);
        let sink = Sink::new("team");
        assert!(matches!(
            sink.apply(std::slice::from_ref(&objects)),
            Value::Bool(true)
        ));
        let generated = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "namespace": "team"}});
        assert_eq!(sink.resources(), vec![generated]);
        // A cluster-wide policy has no namespace to generate into: it must name one.
        let cluster = Sink::new("");
        let wrong = cluster.apply(&[objects]);
        assert!(wrong.to_string().contains("no such overload"), "{wrong}");
    }
}
