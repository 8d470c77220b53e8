//! `validate`: custom resources checked against their CRDs as the API server checks them on
//! create and update ([`crate::policy::families::crd_rules::validate_custom_resource`]), from texts, with
//! the JSON report the CLI prints (and an editor command could return). The editor's command reads
//! the object files the analysis has from their shared trees ([`Analysis::validate_files`]).

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::Analysis;
use super::crd_lenses::AnalysisFile;
use super::parsed::Parsed;
use crate::policy::admission::explain::{self, Explained};
use crate::policy::admission::json::{documents, node_to_json};
use crate::policy::families::crd_rules::validate_custom_resource;
use crate::schema::{CrdKind, Gvk, KubeVersion, from_crd_json};

/// What to validate.
#[derive(Clone, Debug)]
pub struct ValidateRequest {
    /// Texts holding the CustomResourceDefinitions, with their names for messages.
    pub crds: Vec<(String, String)>,
    /// The custom resource(s), YAML or JSON; each document is validated on its own.
    pub object: String,
    /// The old object (an update), if any.
    pub old_object: Option<String>,
    /// Target Kubernetes version.
    pub kube_version: KubeVersion,
}

/// The report of each object (in document order), or what is wrong with the input.
pub fn validate(request: &ValidateRequest) -> Result<Vec<Json>, String> {
    let reports = validate_explained(request)?;
    Ok(reports.into_iter().map(|(report, _)| report).collect())
}

/// [`validate`] with the traces of the rules each object's validation evaluated (its
/// `x-kubernetes-validations` rules and the messageExpressions of those that failed), inside an
/// [`explain::capture`] only (`validate --explain`); empty otherwise.
pub fn validate_explained(
    request: &ValidateRequest,
) -> Result<Vec<(Json, Vec<Explained>)>, String> {
    let kinds = crd_kinds(&request.crds)?;
    let objects = documents(&request.object).map_err(|e| format!("object: {e}"))?;
    if objects.is_empty() {
        return Err("object: no document".to_string());
    }
    let old = match &request.old_object {
        Some(text) => {
            let docs = documents(text).map_err(|e| format!("--old: {e}"))?;
            Some(docs.into_iter().next().ok_or("--old: no document")?)
        }
        None => None,
    };
    let minor = request.kube_version.minor();
    objects
        .iter()
        .map(|object| {
            let kind = kind_of(&kinds, object)?;
            Ok(report(kind, object, old.as_ref(), minor))
        })
        .collect()
}

/// Whether every report is valid.
pub fn all_valid(reports: &[Json]) -> bool {
    reports.iter().all(|r| r["valid"] == Json::Bool(true))
}

fn crd_kinds(crds: &[(String, String)]) -> Result<Vec<CrdKind>, String> {
    crd_kinds_named(crds, None)
}

/// The kinds the CRDs in `crds` serve; only those of the CRD named `only` when given.
fn crd_kinds_named(crds: &[(String, String)], only: Option<&str>) -> Result<Vec<CrdKind>, String> {
    let mut kinds = Vec::new();
    for (name, text) in crds {
        let docs = documents(text).map_err(|e| format!("{name}: {e}"))?;
        for doc in docs.iter().filter(|d| {
            d["kind"] == "CustomResourceDefinition"
                && only.is_none_or(|n| d["metadata"]["name"] == n)
        }) {
            let served =
                from_crd_json(doc).map_err(|e| format!("{name}: {}: {}", e.path, e.message))?;
            kinds.extend(served);
        }
    }
    if kinds.is_empty() {
        return Err("no CustomResourceDefinition in the --crd files".to_string());
    }
    Ok(kinds)
}

fn kind_of<'a>(kinds: &'a [CrdKind], object: &Json) -> Result<&'a CrdKind, String> {
    served_kind(kinds, object).ok_or_else(|| {
        format!(
            "no CustomResourceDefinition in the --crd files serves {}",
            gvk_of(object)
        )
    })
}

fn served_kind<'a>(kinds: &'a [CrdKind], object: &Json) -> Option<&'a CrdKind> {
    let gvk = gvk_of(object);
    kinds.iter().find(|k| k.gvk == gvk)
}

fn gvk_of(object: &Json) -> Gvk {
    let api_version = object["apiVersion"].as_str().unwrap_or("");
    let kind = object["kind"].as_str().unwrap_or("");
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    Gvk::new(group, version, kind)
}

fn report(kind: &CrdKind, object: &Json, old: Option<&Json>, minor: u32) -> (Json, Vec<Explained>) {
    let (checked, explained) =
        explain::traced(|| validate_custom_resource(kind, object, old, minor));
    let errors: Vec<Json> = checked
        .errors
        .iter()
        .map(|e| json!({"field": e.field, "type": e.kind, "message": e.message}))
        .collect();
    let report = json!({
        "apiVersion": object["apiVersion"],
        "kind": object["kind"],
        "name": object["metadata"]["name"],
        "operation": if old.is_some() { "UPDATE" } else { "CREATE" },
        "valid": errors.is_empty(),
        "errors": errors,
        "defaulted": checked.decoded.defaulted,
        "pruned": checked.decoded.pruned,
        "object": checked.object,
    });
    (report, explained)
}

/// What the editor command validates: the custom resources of some files against some CRDs.
#[derive(Clone, Debug)]
pub struct FilesRequest {
    /// Texts holding the CustomResourceDefinitions, with their paths.
    pub crds: Vec<(String, String)>,
    /// Only the kinds of the CRD with this `metadata.name`, when given.
    pub crd: Option<String>,
    /// The files holding custom resources (path, text); documents no CRD serves are skipped.
    pub objects: Vec<(String, String)>,
    /// Only this document (its index among the file's documents), when given.
    pub document: Option<usize>,
    /// Target Kubernetes version.
    pub kube_version: KubeVersion,
}

/// `{"reports": [report + "path" + "document"], "summary": {"objects", "valid", "invalid"}}`: each
/// served custom resource of the files validated on create; `Err` is bad input (unreadable CRDs,
/// a chosen document that no CRD serves).
pub fn validate_files(request: &FilesRequest) -> Result<Json, String> {
    validate_trees(request, |_, text| Tree::Own(crate::yaml::parse(text)))
}

impl Analysis {
    /// [`validate_files`], reading each object file that is one of `files` of this snapshot, with
    /// the same text, from the tree the snapshot shares instead of parsing it again.
    pub fn validate_files(
        &self,
        request: &FilesRequest,
        files: &[AnalysisFile],
    ) -> Result<Json, String> {
        validate_trees(request, |path, text| {
            let file = files.iter().find(|(p, _)| p == path);
            let parsed = file.and_then(|(_, id)| self.parsed(*id));
            match parsed.filter(|parsed| &*parsed.text == text) {
                Some(parsed) => Tree::Shared(parsed),
                None => Tree::Own(crate::yaml::parse(text)),
            }
        })
    }
}

/// The tree of an object file: the analysis's shared one, or one parsed for the request.
enum Tree {
    Shared(Arc<Parsed>),
    Own(crate::yaml::YamlFile),
}

impl Tree {
    fn yaml(&self) -> &crate::yaml::YamlFile {
        match self {
            Tree::Shared(parsed) => &parsed.yaml,
            Tree::Own(yaml) => yaml,
        }
    }
}

/// [`validate_files`] with the tree of each object file (path, text) from `tree_of`.
fn validate_trees(
    request: &FilesRequest,
    tree_of: impl Fn(&str, &str) -> Tree,
) -> Result<Json, String> {
    let kinds = crd_kinds_named(&request.crds, request.crd.as_deref())?;
    let minor = request.kube_version.minor();
    let mut reports = Vec::new();
    for (path, text) in &request.objects {
        let tree = tree_of(path, text);
        let file = tree.yaml();
        if let Some(error) = file.errors.first() {
            return Err(format!("{path}: YAML syntax error: {}", error.message));
        }
        for (index, document) in file.documents.iter().enumerate() {
            if request.document.is_some_and(|d| d != index) {
                continue;
            }
            let Some(root) = &document.root else { continue };
            let object = node_to_json(root);
            let Some(kind) = served_kind(&kinds, &object) else {
                if request.document.is_none() {
                    continue; // not a custom resource of these CRDs
                }
                let gvk = gvk_of(&object);
                return Err(format!(
                    "{path}: no CustomResourceDefinition given serves {gvk}"
                ));
            };
            let (mut one, _) = report(kind, &object, None, minor);
            one["path"] = Json::from(path.as_str());
            one["document"] = Json::from(index);
            reports.push(one);
        }
    }
    let valid = reports
        .iter()
        .filter(|r| r["valid"] == Json::Bool(true))
        .count();
    let summary =
        json!({"objects": reports.len(), "valid": valid, "invalid": reports.len() - valid});
    Ok(json!({"reports": reports, "summary": summary}))
}

/// The text form of one report: a header line, then one line per error.
pub fn report_text(report: &Json) -> String {
    let name = report["name"].as_str().unwrap_or("");
    let kind = report["kind"].as_str().unwrap_or("");
    let operation = report["operation"].as_str().unwrap_or("");
    let errors = report["errors"].as_array().map_or(&[][..], Vec::as_slice);
    let verdict = if errors.is_empty() {
        "valid".to_string()
    } else {
        let n = errors.len();
        format!("invalid ({n} error{})", if n == 1 { "" } else { "s" })
    };
    let mut out = format!("{kind}/{name} ({operation}): {verdict}\n");
    for error in errors {
        out.push_str(&format!("  {}\n", error["message"].as_str().unwrap_or("")));
    }
    for field in report["pruned"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "  note: unknown field {} pruned\n",
            field.as_str().unwrap_or("")
        ));
    }
    out
}
