//! The project configuration file for `check`: found upward from the first checked path (or named
//! with `--config`), read with the bounded reads of every other file, and merged under the flags:
//! a flag given overrides the file's value, `--schema` and `--exclude` add to its lists. The search
//! stops at the folder holding `.git` (a repository's settings never come from a folder above it)
//! or at the filesystem root.

use std::path::{Path, PathBuf};

use admission_ls::ide::{self, Diagnostic, ProjectConfig};
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::lsp::origin::normalize;

/// The largest configuration file read: a settings file is a few lines.
const CONFIG_CAP: u64 = 1 << 20;

/// A configuration file that was found and read.
#[derive(Debug)]
pub struct Loaded {
    /// The file, as printed (relative to the current folder when it is under it).
    pub path: String,
    /// Its text, for the snippets of its diagnostics.
    pub text: String,
    /// Its folder (absolute): relative paths and globs of the file are relative to it.
    pub dir: PathBuf,
    /// What it sets.
    pub config: ProjectConfig,
    /// Its problems (`config` diagnostics).
    pub diagnostics: Vec<Diagnostic>,
}

/// Where the configuration comes from: the flags `--config` and `--no-config`, and the paths checked.
pub struct Lookup<'a> {
    /// `--config FILE`.
    pub named: Option<&'a Path>,
    /// `--no-config`.
    pub disabled: bool,
    /// The paths given to `check` (the first one that is not `-` starts the search).
    pub paths: &'a [PathBuf],
}

/// The configuration file of a run, if any: `Ok(None)` when there is none or it is turned off;
/// `Err` (path, reason) when the file exists but cannot be read.
pub fn load(lookup: &Lookup) -> Result<Option<Loaded>, (String, String)> {
    if lookup.disabled {
        return Ok(None);
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let (file, bounds_root) = match lookup.named {
        Some(named) => (absolute(&cwd, named), None),
        None => {
            let start = lookup
                .paths
                .iter()
                .find(|p| p.as_os_str() != "-")
                .map_or_else(|| cwd.clone(), |p| absolute(&cwd, p));
            match find_upward(&start) {
                Some(found) => {
                    let dir = found.parent().map(Path::to_path_buf);
                    (found, dir)
                }
                None => return Ok(None),
            }
        }
    };
    let printed = printed(&cwd, &file);
    let roots: Vec<PathBuf> = bounds_root.into_iter().collect();
    let bounds = Bounds {
        cap: CONFIG_CAP,
        roots: &roots,
    };
    let text =
        disk::read_text(&file, bounds).map_err(|refused| (printed.clone(), refused.to_string()))?;
    let (config, diagnostics) = ide::parse_project_config(&text);
    Ok(Some(Loaded {
        path: printed,
        text,
        dir: file.parent().map(Path::to_path_buf).unwrap_or(cwd),
        config,
        diagnostics,
    }))
}

/// The configuration file in `start` (or its folder, for a file) or the nearest folder above,
/// not above the folder that holds `.git`.
fn find_upward(start: &Path) -> Option<PathBuf> {
    let mut dir = if start.is_dir() {
        Some(start)
    } else {
        start.parent()
    };
    while let Some(folder) = dir {
        for name in ide::project_config::CONFIG_FILE_NAMES {
            let candidate = folder.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        if folder.join(".git").exists() {
            return None;
        }
        dir = folder.parent();
    }
    None
}

impl Loaded {
    /// A path of the file (`schemaPaths`, `staticManifests`) as a path to read: relative ones are
    /// taken from the file's folder, and printed relative to the current folder when under it.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let cwd = std::env::current_dir().unwrap_or_default();
        let joined = normalize(&self.dir.join(path));
        match joined.strip_prefix(&cwd) {
            Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
            Ok(rel) => rel.to_path_buf(),
            Err(_) => joined,
        }
    }

    /// Whether a file a folder walk found is left out by the file's `exclude` globs, which are
    /// matched against the path relative to the file's folder.
    pub fn excludes(&self, found: &Path) -> bool {
        if self.config.exclude.is_empty() {
            return false;
        }
        let cwd = std::env::current_dir().unwrap_or_default();
        let absolute = absolute(&cwd, found);
        let relative = absolute.strip_prefix(&self.dir).unwrap_or(&absolute);
        admission_ls::lsp::glob::excluded(relative, &self.config.exclude)
    }
}

impl Loaded {
    /// Which of the file's `staticManifests` folders holds `file` directly (the API server reads
    /// only the files of the folder itself, not of its subfolders).
    pub fn static_folder(&self, file: &Path) -> Option<usize> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let file = absolute(&cwd, file);
        let parent = file.parent()?;
        self.config
            .static_manifests
            .iter()
            .position(|folder| normalize(&self.dir.join(folder)) == parent)
    }
}

/// `path` made absolute against `cwd` and without `.` and `..` components (lexically: a link is
/// not resolved, so the printed paths stay the user's).
fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    normalize(&cwd.join(path))
}

/// A path as printed: relative to the current folder when under it.
fn printed(cwd: &Path, path: &Path) -> String {
    path.strip_prefix(cwd).unwrap_or(path).display().to_string()
}
