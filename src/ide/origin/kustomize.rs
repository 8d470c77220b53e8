//! What a kustomization (`kustomization.yaml`, `kustomization.yml` or `Kustomization`) says about
//! the files beside it: which it names as patches, and how. Kustomize reads `patches` entries
//! with a `path` (a strategic-merge or JSON 6902 patch, told apart by content),
//! `patchesStrategicMerge` (paths, or inline patches) and `patchesJson6902` entries with a `path`
//! (sigs.k8s.io/kustomize `api/types/kustomization.go`, `api/types/patch.go`).

use super::PatchKind;
use crate::yaml::{self, Node, NodeKind};

/// The file names kustomize recognises as a kustomization
/// (`api/konfig/general.go`, `RecognizedKustomizationFileNames`).
pub const FILE_NAMES: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Whether a file named `name` is a kustomization.
pub fn is_kustomization(name: &str) -> bool {
    FILE_NAMES.contains(&name)
}

/// The patch files a kustomization's `text` names, as written (relative to its folder), with
/// how each is named.
pub fn patch_files(text: &str) -> Vec<(String, PatchKind)> {
    let file = yaml::parse(text);
    let mut found = Vec::new();
    for root in file.documents.iter().filter_map(|d| d.root.as_ref()) {
        found.extend(entry_paths(root.get("patches")).map(|p| (p, PatchKind::Either)));
        found.extend(entry_paths(root.get("patchesJson6902")).map(|p| (p, PatchKind::Json6902)));
        let merges = items(root.get("patchesStrategicMerge")).filter_map(Node::as_str);
        found.extend(
            merges
                .filter(|p| !is_inline_patch(p))
                .map(|p| (p.trim().to_owned(), PatchKind::StrategicMerge)),
        );
    }
    found
}

/// Whether a `patchesStrategicMerge` entry is a patch written inline rather than a path: YAML
/// of a mapping (a line break, a `key: value`, a flow mapping).
fn is_inline_patch(entry: &str) -> bool {
    let entry = entry.trim();
    entry.is_empty() || entry.contains('\n') || entry.contains(": ") || entry.starts_with('{')
}

/// The `path` of every entry of a list of patch entries.
fn entry_paths(list: Option<&Node>) -> impl Iterator<Item = String> + '_ {
    items(list)
        .filter_map(|entry| entry.get("path")?.as_str())
        .filter(|p| !p.trim().is_empty())
        .map(|p| p.trim().to_owned())
}

fn items(list: Option<&Node>) -> impl Iterator<Item = &Node> {
    list.and_then(Node::as_sequence).into_iter().flatten()
}

/// Whether `text` is a list of JSON 6902 operations rather than an object to merge.
pub fn is_operation_list(text: &str) -> bool {
    let file = yaml::parse(text);
    file.documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .any(|root| matches!(root.kind, NodeKind::Sequence(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_patch_entry_is_found() {
        let text = "\
resources: [a.yaml]
patches:
- path: patches/one.yaml
- patch: |-
    inline
  target: {kind: X}
patchesStrategicMerge:
- two.yaml
- |-
  apiVersion: v1
patchesJson6902:
- target: {kind: CustomResourceDefinition}
  path: three.yaml
";
        assert_eq!(
            patch_files(text),
            [
                ("patches/one.yaml".to_owned(), PatchKind::Either),
                ("three.yaml".to_owned(), PatchKind::Json6902),
                ("two.yaml".to_owned(), PatchKind::StrategicMerge),
            ]
        );
    }

    #[test]
    fn a_list_of_operations_is_a_json_patch() {
        assert!(is_operation_list("- op: add\n  path: /x\n  value: 1\n"));
        assert!(is_operation_list(
            "[{\"op\": \"remove\", \"path\": \"/x\"}]"
        ));
        assert!(!is_operation_list("apiVersion: v1\nkind: X\n"));
    }
}
