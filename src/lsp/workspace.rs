//! The workspace scan at `initialized`: a bounded walk of the workspace folders for YAML files that
//! hold admission documents or CustomResourceDefinitions (which type the policies of other files),
//! so that their diagnostics show before they are opened; plus the files of the `schemaPaths`
//! setting (files or folders); then the files holding objects of the kinds those policies take
//! as params, so that `paramRef`s resolve.
//!
//! Bounded so that opening a huge folder (a home directory, a monorepo) costs little: hidden
//! directories, `node_modules` and `target` are skipped, and the walk stops at a depth, a number of
//! files and a file size.

use std::fs;
use std::path::{Path, PathBuf};

use super::disk::{self, Bounds, Refused};
use crate::ide::Analysis;

/// Directories never entered besides hidden ones.
const SKIPPED_DIRS: &[&str] = &["node_modules", "target"];
/// How many YAML files the walk reads at most.
const MAX_FILES: usize = 2_000;
/// How large a file the walk reads.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// How deep the walk descends.
const MAX_DEPTH: usize = 12;
/// The cheap test for a file worth analysing: every admission document names this API group, and
/// every CRD its kind.
const MARKERS: &[&str] = &["admissionregistration.k8s.io", "CustomResourceDefinition"];

/// A file found by the scan.
#[derive(Debug)]
pub struct ScannedFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// What one walk of the workspace found.
#[derive(Debug, Default)]
pub struct Scan {
    /// The admission and CRD files, with their texts.
    pub files: Vec<ScannedFile>,
    /// The other YAML files, by path only: which of them hold param objects is known only once
    /// the policies are loaded ([`read_params`]).
    pub other_yaml: Vec<PathBuf>,
}

/// What the analysis takes a file for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// An admission or CRD file: an input whose diagnostics are published.
    Workspace,
    /// A file holding param objects: an input only.
    Params,
}

/// Every YAML file under `roots` (folders, or single files as `schemaPaths` may name), in a
/// deterministic order: the admission and CRD files read, the others listed; unreadable entries
/// are skipped.
pub fn scan(roots: &[PathBuf]) -> Scan {
    let mut yaml_paths = Vec::new();
    for root in roots {
        if root.is_file() {
            // A file named by a setting is read wherever it is (still bounded).
            yaml_paths.push((root.clone(), &[][..]));
        } else {
            let mut found = Vec::new();
            walk(root, 0, &mut found);
            yaml_paths.extend(found.into_iter().map(|path| (path, roots)));
        }
    }
    let mut scan = Scan::default();
    for (path, inside) in yaml_paths {
        match read_bounded(&path, inside) {
            Some(file) if is_admission_text(&file.text) => scan.files.push(file),
            Some(_) => scan.other_yaml.push(path),
            None => {}
        }
    }
    scan
}

/// The files of `paths` that hold an object of one of `kinds` (a `kind:` line with that value):
/// the param objects that bindings' `paramRef`s name, so that they resolve and can be navigated
/// to before they are opened.
pub fn read_params(paths: &[PathBuf], kinds: &[String], roots: &[PathBuf]) -> Vec<ScannedFile> {
    if kinds.is_empty() {
        return Vec::new();
    }
    paths
        .iter()
        .filter_map(|path| read_bounded(path, roots))
        .filter(|file| names_a_kind(&file.text, kinds))
        .collect()
}

/// The kinds (by name) the policies of `analysis` take as params.
pub fn param_kind_names(analysis: &Analysis) -> Vec<String> {
    let workspace = analysis.workspace();
    let kinds = workspace.param_kinds();
    kinds.iter().map(|gvk| gvk.kind.clone()).collect()
}

/// What `text` is to the analysis, given the param kinds' names.
pub fn role_of(text: &str, param_kinds: &[String]) -> Option<FileRole> {
    if is_admission_text(text) {
        Some(FileRole::Workspace)
    } else if names_a_kind(text, param_kinds) {
        Some(FileRole::Params)
    } else {
        None
    }
}

/// Whether a line of `text` reads `kind: K` (quoted or not) for one of `kinds`.
fn names_a_kind(text: &str, kinds: &[String]) -> bool {
    text.lines().any(|line| {
        let Some(value) = line.trim_start().strip_prefix("kind:") else {
            return false;
        };
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        kinds.iter().any(|kind| kind == value)
    })
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_DEPTH || out.len() >= MAX_FILES {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // The file type of a symlink is the link's own, so linked directories are not followed and
        // a link cycle can't trap the walk.
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        if file_type.is_dir() && !SKIPPED_DIRS.contains(&name.as_ref()) {
            walk(&entry.path(), depth + 1, out);
        } else if file_type.is_file() && is_yaml(&name) && out.len() < MAX_FILES {
            out.push(entry.path());
        }
    }
}

/// Whether a file name has a YAML extension.
pub fn is_yaml(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

/// Whether a file's text holds an admission document or a CRD (the scan's cheap test).
fn is_admission_text(text: &str) -> bool {
    MARKERS.iter().any(|m| text.contains(m))
}

/// The file at `path` if it is a regular file within the size bound, is text, and (when `roots`
/// are given) is really inside one of them; otherwise the reason is logged and the file skipped.
pub fn read_bounded(path: &Path, roots: &[PathBuf]) -> Option<ScannedFile> {
    let bounds = Bounds {
        cap: MAX_FILE_BYTES,
        roots,
    };
    match disk::read_text(path, bounds) {
        Ok(text) => Some(ScannedFile {
            path: path.to_owned(),
            text,
        }),
        Err(Refused::Io(_)) => None,
        Err(refused) => {
            eprintln!("admission-ls: skipped {}: {refused}", path.display());
            None
        }
    }
}
