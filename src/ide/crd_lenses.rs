//! Code lenses that validate custom resources against the CustomResourceDefinitions of the
//! workspace (command `admission-ls.validate`): "Validate against CRD <name>" on each document of
//! the file whose `apiVersion` and `kind` a workspace CRD serves, and "Validate N custom resources
//! in the workspace" on each CRD. Documents are read through the YAML document model (no JSON),
//! and only files that mention a CRD's group are read when counting its custom resources. The
//! files of an analysis are read from the snapshot's shared trees ([`Analysis::crd_lenses`]),
//! which the diagnostics runs have usually built already; texts of their own are parsed
//! ([`crd_lenses`]).

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::lenses::Lens;
use super::{Analysis, AnalysisHost, FileId};
use crate::policy::admission::json::node_to_json;
use crate::text::TextRange;
use crate::yaml::Node;

/// The command that validates custom resources against their CRDs.
pub const VALIDATE_COMMAND: &str = "admission-ls.validate";

/// One file of the workspace: its path and text (shared with the analysis, not copied).
pub type WorkspaceFile = (String, Arc<str>);

/// One file of the workspace in an analysis: its path and its id there.
pub type AnalysisFile = (String, FileId);

/// A CustomResourceDefinition document of the workspace: what it serves and where it is.
#[derive(Clone, Debug, PartialEq)]
struct ServedCrd {
    /// The file holding it.
    path: String,
    /// `metadata.name`.
    name: String,
    /// `spec.group`.
    group: String,
    /// `spec.names.kind`.
    kind: String,
    /// The `spec.versions[*].name` with `served: true`.
    versions: Vec<String>,
    /// The document's range.
    range: TextRange,
}

impl ServedCrd {
    /// Whether the document `root` is a custom resource this CRD serves.
    fn serves(&self, root: &Node) -> bool {
        let Some((group, version)) = str_at(root, &["apiVersion"]).and_then(|a| a.rsplit_once('/'))
        else {
            return false;
        };
        group == self.group
            && str_at(root, &["kind"]) == Some(self.kind.as_str())
            && self.versions.iter().any(|v| v == version)
    }
}

/// The scalar at `path` under `node`, if there is one.
fn str_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n str> {
    path.iter()
        .try_fold(node, |node, key| node.get(key))
        .and_then(Node::as_str)
}

/// The CRD that `root` is, when it is one with a name, a group, a kind and a served version.
fn served_crd(path: &str, root: &Node) -> Option<ServedCrd> {
    if str_at(root, &["kind"]) != Some("CustomResourceDefinition") {
        return None;
    }
    let spec = root.get("spec")?;
    let versions: Vec<String> = spec
        .get("versions")
        .and_then(Node::as_sequence)
        .unwrap_or_default()
        .iter()
        // `served: yes` is true too: the scalar resolves as the API server's YAML decoder does.
        .filter(|v| v.get("served").map(node_to_json) == Some(Json::Bool(true)))
        .filter_map(|v| str_at(v, &["name"]).map(str::to_owned))
        .collect();
    let name = str_at(root, &["metadata", "name"]).filter(|n| !n.is_empty())?;
    if versions.is_empty() {
        return None;
    }
    Some(ServedCrd {
        path: path.to_owned(),
        name: name.to_owned(),
        group: str_at(spec, &["group"])?.to_owned(),
        kind: str_at(spec, &["names", "kind"])?.to_owned(),
        versions,
        range: root.range,
    })
}

impl Analysis {
    /// The validate lenses of `file`, at `path`, given every file of the workspace (this one
    /// included) as files of this snapshot: their trees are the ones the snapshot shares.
    pub fn crd_lenses(&self, file: FileId, path: &str, workspace: &[AnalysisFile]) -> Vec<Lens> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        let mut crds = self.workspace_crds(workspace);
        // When several CRDs serve a kind, the one in this file wins, then the first by path.
        crds.sort_by(|a, b| (a.path != path, &a.path).cmp(&(b.path != path, &b.path)));
        let mut out = Vec::new();
        for (index, document) in parsed.yaml.documents.iter().enumerate() {
            let Some(root) = &document.root else { continue };
            if let Some(crd) = crds.iter().find(|crd| crd.serves(root)) {
                out.push(resource_lens(path, index, root.range, crd));
            }
        }
        for crd in crds.iter().filter(|crd| crd.path == path) {
            out.push(crd_lens(crd, &self.custom_resource_files(crd, workspace)));
        }
        out.sort_by_key(|l| l.range.start());
        out
    }

    /// Every served CRD of the files that mention one (a cheap filter before reading trees).
    fn workspace_crds(&self, workspace: &[AnalysisFile]) -> Vec<ServedCrd> {
        let mut out = Vec::new();
        for (path, file) in workspace {
            let mentions = self.file_text(*file);
            if !mentions.is_some_and(|text| text.contains("CustomResourceDefinition")) {
                continue;
            }
            let Some(parsed) = self.parsed(*file) else {
                continue;
            };
            let roots = parsed.yaml.documents.iter().filter_map(|d| d.root.as_ref());
            out.extend(roots.filter_map(|root| served_crd(path, root)));
        }
        out
    }

    /// The files holding custom resources of `crd`, with how many each holds, by path.
    fn custom_resource_files(
        &self,
        crd: &ServedCrd,
        workspace: &[AnalysisFile],
    ) -> Vec<(String, usize)> {
        let mentions = |text: &str| text.contains(crd.group.as_str()) && text.contains(&crd.kind);
        let mut files: Vec<(String, usize)> = workspace
            .iter()
            .filter(|(_, file)| self.file_text(*file).is_some_and(|text| mentions(&text)))
            .filter_map(|(path, file)| {
                let parsed = self.parsed(*file)?;
                let roots = parsed.yaml.documents.iter().filter_map(|d| d.root.as_ref());
                let count = roots.filter(|root| crd.serves(root)).count();
                (count > 0).then(|| (path.clone(), count))
            })
            .collect();
        files.sort();
        files
    }
}

/// The validate lenses of the file `path` with `text`, given every file of the workspace (this
/// one included, as the editor has it), outside an analysis: the texts are put in a host of their
/// own, which parses each once, when a lens needs it.
pub fn crd_lenses(path: &str, text: &str, workspace: &[WorkspaceFile]) -> Vec<Lens> {
    let mut host = AnalysisHost::new();
    let mut files = Vec::new();
    for (id, (file_path, file_text)) in (0u32..).zip(workspace) {
        host.set_file(FileId(id), file_text.clone());
        files.push((file_path.clone(), FileId(id)));
    }
    // This file is usually one of the workspace's: the same text is not parsed twice.
    let same = |(p, t): &(String, FileId)| p == path && host.file_text(*t).as_deref() == Some(text);
    let this = match files.iter().find(|f| same(f)) {
        Some((_, file)) => *file,
        None => {
            host.set_file(FileId(u32::MAX), Arc::from(text));
            FileId(u32::MAX)
        }
    };
    host.snapshot().crd_lenses(this, path, &files)
}

fn resource_lens(path: &str, index: usize, range: TextRange, crd: &ServedCrd) -> Lens {
    Lens {
        range,
        title: format!("Validate against CRD {}", crd.name),
        command: VALIDATE_COMMAND,
        arguments: json!({"path": path, "document": index, "crds": [crd.path], "crd": crd.name}),
    }
}

fn crd_lens(crd: &ServedCrd, files: &[(String, usize)]) -> Lens {
    let count: usize = files.iter().map(|(_, n)| n).sum();
    let noun = if count == 1 { "resource" } else { "resources" };
    let objects: Vec<Json> = files.iter().map(|(p, _)| Json::from(p.as_str())).collect();
    Lens {
        range: crd.range,
        title: format!("Validate {count} custom {noun} in the workspace"),
        command: VALIDATE_COMMAND,
        arguments: json!({"path": crd.path, "crds": [crd.path], "crd": crd.name, "objects": objects}),
    }
}
