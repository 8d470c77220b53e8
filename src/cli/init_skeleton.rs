//! The objects `init` writes into a new suite: a skeleton of the kind the policy matches (with the
//! labels its `objectSelector` asks for, and a `spec` with the fields the kind requires), the
//! params object for a policy with a `paramKind`, and the custom resource of a CRD found beside the
//! policy. Skeletons are starting points the user edits; they only need to be valid enough for the
//! policy to run on them.

use std::path::{Path, PathBuf};

use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::policy::admission::json::{documents, str_at};
use admission_ls::policy::admission::view::{ParamKind, Selector};
use admission_ls::schema::resources::is_namespaced;
use serde_json::{Map, Value as Json, json};

/// A kind as `init` writes it.
#[derive(Debug, Clone)]
pub struct Kind {
    /// `group/version`, or `version` for the core group.
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// Whether objects of the kind live in a namespace.
    pub namespaced: bool,
    /// The `spec` skeleton, if the kind has a spec.
    pub spec: Option<Json>,
}

/// A CustomResourceDefinition found beside the policy, serving the matched resource.
#[derive(Debug, Clone)]
pub struct FoundCrd {
    /// The file it is in.
    pub path: PathBuf,
    /// That file's text (for the evaluation's schemas).
    pub text: String,
    /// The kind it serves.
    pub kind: Kind,
}

/// The `spec` of a built-in kind that needs one for a policy to read it: workloads have a pod
/// template with one container, a Pod one container.
pub fn builtin_spec(group: &str, kind: &str) -> Option<Json> {
    let container = json!([{"name": "app", "image": "registry.example.com/app:1.0"}]);
    let labels = json!({"app": "example"});
    let template = json!({"metadata": {"labels": labels}, "spec": {"containers": container}});
    match (group, kind) {
        ("", "Pod") => Some(json!({"containers": container})),
        ("apps", "Deployment" | "StatefulSet" | "ReplicaSet" | "DaemonSet") => {
            Some(json!({"selector": {"matchLabels": labels}, "template": template}))
        }
        ("batch", "Job") => {
            let mut template = template;
            template["spec"]["restartPolicy"] = json!("Never");
            Some(json!({"template": template}))
        }
        _ => None,
    }
}

/// Labels that satisfy `selectors`: every `matchLabels` pair, and for `matchExpressions` the first
/// value of an `In` and `"true"` for an `Exists` (`NotIn` and `DoesNotExist` hold without a label).
pub fn labels_for(selectors: &[&Selector]) -> Map<String, Json> {
    let mut labels = Map::new();
    for selector in selectors {
        for (key, value) in selector.match_labels.iter().flatten() {
            labels.insert(key.clone(), json!(value));
        }
        for requirement in selector.match_expressions.iter().flatten() {
            let value = match requirement.operator.as_str() {
                "In" => requirement.values.first().cloned(),
                "Exists" => Some("true".to_owned()),
                _ => None,
            };
            if let Some(value) = value {
                labels.insert(requirement.key.clone(), json!(value));
            }
        }
    }
    labels
}

/// The request's Namespace `default` with the labels the namespace selectors require, if any.
pub fn namespace(selectors: &[&Selector]) -> Option<Json> {
    let labels = labels_for(selectors);
    (!labels.is_empty()).then(|| {
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default", "labels": labels}})
    })
}

/// The object skeleton of `kind`: name, namespace, the labels `selectors` require, and the spec.
pub fn object(kind: &Kind, selectors: &[&Selector]) -> Json {
    let mut metadata = json!({"name": "example"});
    if kind.namespaced {
        metadata["namespace"] = json!("default");
    }
    let labels = labels_for(selectors);
    if !labels.is_empty() {
        metadata["labels"] = Json::Object(labels);
    }
    let mut object =
        json!({"apiVersion": kind.api_version, "kind": kind.kind, "metadata": metadata});
    if let Some(spec) = &kind.spec {
        object["spec"] = spec.clone();
    }
    object
}

/// The params object of a policy with a `paramKind`: a ConfigMap with an empty `data`, any other
/// kind with an empty `spec` to fill in.
pub fn params(param_kind: &ParamKind) -> Json {
    let (group, _) = param_kind
        .api_version
        .rsplit_once('/')
        .unwrap_or(("", &param_kind.api_version));
    let mut metadata = json!({"name": "example-params"});
    if is_namespaced(group, &param_kind.kind) {
        metadata["namespace"] = json!("default");
    }
    let mut params = json!({
        "apiVersion": param_kind.api_version,
        "kind": param_kind.kind,
        "metadata": metadata,
    });
    let body = if group.is_empty() && param_kind.kind == "ConfigMap" {
        "data"
    } else {
        "spec"
    };
    params[body] = json!({});
    params
}

/// The CRD among the YAML files of `dir` (the policy's folder, not its subfolders) that serves
/// `resource` of `group`, preferring `version`; files that cannot be read are passed over.
pub fn find_crd(dir: &Path, group: &str, version: &str, resource: &str) -> Option<FoundCrd> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    paths.sort();
    paths.into_iter().find_map(|path| {
        let text = disk::read_text(&path, Bounds::named()).ok()?;
        let kind = documents(&text)
            .ok()?
            .iter()
            .find_map(|doc| crd_kind(doc, group, version, resource))?;
        Some(FoundCrd { path, text, kind })
    })
}

/// The kind `doc` serves if it is a CRD of `group` with plural `resource`.
fn crd_kind(doc: &Json, group: &str, version: &str, resource: &str) -> Option<Kind> {
    let serves = str_at(doc, &["kind"]) == "CustomResourceDefinition"
        && str_at(doc, &["spec", "group"]) == group
        && str_at(doc, &["spec", "names", "plural"]) == resource;
    if !serves {
        return None;
    }
    let versions = doc["spec"]["versions"].as_array()?;
    let chosen = versions
        .iter()
        .find(|v| str_at(v, &["name"]) == version)
        .or_else(|| versions.iter().find(|v| v["storage"] == json!(true)))
        .or(versions.first())?;
    let schema = &chosen["schema"]["openAPIV3Schema"]["properties"]["spec"];
    Some(Kind {
        api_version: format!("{group}/{}", str_at(chosen, &["name"])),
        kind: str_at(doc, &["spec", "names", "kind"]).to_owned(),
        namespaced: str_at(doc, &["spec", "scope"]) != "Cluster",
        spec: Some(required_skeleton(schema, 0)),
    })
}

/// A value of `schema`'s type holding its required properties, each a skeleton of its own type.
fn required_skeleton(schema: &Json, depth: usize) -> Json {
    // Deep enough for any real spec; the bound keeps a hostile schema from recursing forever.
    const MAX_DEPTH: usize = 16;
    match str_at(schema, &["type"]) {
        "string" => json!(""),
        "integer" | "number" => json!(0),
        "boolean" => json!(false),
        "array" => json!([]),
        _ if depth >= MAX_DEPTH => json!({}),
        _ => {
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            let fields: Map<String, Json> = required
                .iter()
                .filter_map(Json::as_str)
                .map(|name| {
                    let property = &schema["properties"][name];
                    (name.to_owned(), required_skeleton(property, depth + 1))
                })
                .collect();
            Json::Object(fields)
        }
    }
}
