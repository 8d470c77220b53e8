//! The facts on the disk that decide how a file is read (`ide::origin` decides): whether a
//! `Chart.yaml` makes it a Helm chart template, and whether a kustomization in its folder or a
//! few folders up names it as a patch. The server and the command line both ask here; what was
//! read is kept per folder, so a scan of many files reads each kustomization once.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::ide::origin::{self, kustomize};
use crate::ide::{FileOrigin, PatchKind, PathFacts};

use super::disk::{self, Bounds};

/// How many folders up from a file a kustomization naming it is looked for (`../patches/x.yaml`
/// is the usual layout; kustomize itself allows any relative path).
const KUSTOMIZATION_LEVELS: usize = 3;

/// Finds the origin of files, remembering what it read of each folder.
#[derive(Debug, Default)]
pub struct OriginFinder {
    /// Whether a folder holds a `Chart.yaml`.
    charts: HashMap<PathBuf, bool>,
    /// The patch files a folder's kustomization names (resolved), with how.
    patches: HashMap<PathBuf, Vec<(PathBuf, PatchKind)>>,
}

impl OriginFinder {
    /// A finder that has read nothing yet.
    pub fn new() -> OriginFinder {
        OriginFinder::default()
    }

    /// How the file at `path` is read.
    pub fn origin(&mut self, path: &Path) -> FileOrigin {
        let in_chart = origin::chart_candidates(path)
            .into_iter()
            .any(|folder| self.has_chart(&folder));
        let facts = PathFacts {
            in_chart,
            patch: self.patch_kind(path),
        };
        origin::origin_of(path, facts)
    }

    fn has_chart(&mut self, folder: &Path) -> bool {
        *self
            .charts
            .entry(folder.to_owned())
            .or_insert_with(|| folder.join("Chart.yaml").is_file())
    }

    /// How a kustomization in the file's folder or above names it, if one does.
    fn patch_kind(&mut self, path: &Path) -> Option<PatchKind> {
        let file = resolved(path);
        let folders = file.ancestors().skip(1).take(KUSTOMIZATION_LEVELS);
        let folders: Vec<PathBuf> = folders.map(Path::to_owned).collect();
        folders.iter().find_map(|folder| {
            self.named_patches(folder)
                .iter()
                .find(|(patch, _)| *patch == file)
                .map(|(_, kind)| *kind)
        })
    }

    /// The patches the kustomization of `folder` names, read on first use.
    fn named_patches(&mut self, folder: &Path) -> &[(PathBuf, PatchKind)] {
        self.patches
            .entry(folder.to_owned())
            .or_insert_with(|| read_patches(folder))
    }
}

/// The patches named by the kustomization in `folder`, resolved against it; none when there is no
/// readable kustomization.
fn read_patches(folder: &Path) -> Vec<(PathBuf, PatchKind)> {
    let Some(text) = kustomize::FILE_NAMES
        .iter()
        .map(|name| folder.join(name))
        .filter(|path| path.is_file())
        .find_map(|path| disk::read_text(&path, Bounds::named()).ok())
    else {
        return Vec::new();
    };
    kustomize::patch_files(&text)
        .into_iter()
        .map(|(relative, kind)| (resolved(&folder.join(relative)), kind))
        .collect()
}

/// `path` made absolute against the working folder, with `.` and `..` resolved by name (not by
/// following links), so two spellings of one path compare equal.
fn resolved(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_owned())
    };
    normalize(&absolute)
}

/// `path` with `.` and `..` resolved by name (not by following links).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
