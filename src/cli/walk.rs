//! Finds the files `check` reads: named files as given, folders walked recursively for `*.yaml` and
//! `*.yml` in sorted order, hidden entries, `target` and `node_modules` skipped, linked folders not
//! entered, linked files followed only when they resolve inside the folder named. Problems (a
//! missing path, an unreadable folder, a link out of the folder) are collected, not fatal, so one
//! bad path doesn't hide the rest. A folder with no YAML file to read is one of them: a CI job
//! pointed at the wrong folder fails instead of passing having checked nothing.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// Folder names never entered besides hidden ones: build output and dependencies.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// A path that could not be used, with the reason.
#[derive(Debug)]
pub struct WalkError {
    /// The path as the user will recognise it.
    pub path: PathBuf,
    /// What went wrong, lower case.
    pub message: String,
    /// The path is a folder that holds no file to read (a command that reports its own "nothing
    /// found", as `test` does, leaves this one out).
    pub nothing_found: bool,
}

/// The files under `paths`, in argument order, each folder's files in sorted order.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<WalkError>) {
    collect_excluding(paths, &[])
}

/// The files under `paths` as `collect` finds them, leaving out the files and folders found in a
/// folder that an `exclude` glob matches (a path named on the command line is always read).
pub fn collect_excluding(paths: &[PathBuf], exclude: &[String]) -> (Vec<PathBuf>, Vec<WalkError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let root = path.canonicalize().unwrap_or_else(|_| path.clone());
                let before = files.len();
                let walk = Walk {
                    root: &root,
                    exclude,
                };
                walk_dir(path, &walk, &mut files, &mut errors);
                if files.len() == before {
                    errors.push(nothing_to_check(path));
                }
            }
            Ok(_) => files.push(tidy(path)),
            Err(error) => errors.push(WalkError {
                path: path.clone(),
                message: io_message(&error),
                nothing_found: false,
            }),
        }
    }
    (files, errors)
}

/// The problem of a folder where the walk found no file to check.
fn nothing_to_check(dir: &Path) -> WalkError {
    WalkError {
        path: tidy(dir),
        message: "nothing to check: no .yaml or .yml file in the folder (hidden folders, \
                  node_modules and target are skipped)"
            .to_owned(),
        nothing_found: true,
    }
}

/// What one folder walk needs besides the folder: the folder named (links must resolve inside it)
/// and the globs that leave entries out.
struct Walk<'a> {
    root: &'a Path,
    exclude: &'a [String],
}

fn walk_dir(dir: &Path, walk: &Walk, files: &mut Vec<PathBuf>, errors: &mut Vec<WalkError>) {
    let root = walk.root;
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) => {
            errors.push(WalkError {
                path: tidy(dir),
                message: io_message(&error),
                nothing_found: false,
            });
            return;
        }
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        // The entry's own type: a symlinked folder is not followed, so a link cycle can't loop.
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if admission_ls::lsp::glob::excluded(&tidy(&path), walk.exclude) {
            continue;
        }
        if file_type.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref()) {
                walk_dir(&path, walk, files, errors);
            }
        } else if is_yaml(&name) && (file_type.is_file() || path.is_file()) {
            match link_outside(&path, file_type, root) {
                Some(target) => errors.push(WalkError {
                    path: tidy(&path),
                    message: format!(
                        "is a link to {}, outside {}",
                        target.display(),
                        root.display()
                    ),
                    nothing_found: false,
                }),
                None => files.push(tidy(&path)),
            }
        }
    }
}

/// Where a linked file found in a folder really is, when that is outside the folder named (a link
/// in a cloned repository must not make `check` print a file from elsewhere on the machine).
fn link_outside(path: &Path, file_type: fs::FileType, root: &Path) -> Option<PathBuf> {
    if !file_type.is_symlink() {
        return None;
    }
    let target = path.canonicalize().ok()?;
    (!target.starts_with(root)).then_some(target)
}

fn is_yaml(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

/// Drops leading `./` so that `check` with the default path prints `a.yaml`, not `./a.yaml`.
fn tidy(path: &Path) -> PathBuf {
    let tidied: PathBuf = path
        .components()
        .skip_while(|c| *c == Component::CurDir)
        .collect();
    if tidied.as_os_str().is_empty() {
        path.to_owned()
    } else {
        tidied
    }
}

/// An I/O error in the lower-case style of the other messages, without the OS error number.
pub fn io_message(error: &std::io::Error) -> String {
    admission_ls::lsp::disk::io_message(error)
}
