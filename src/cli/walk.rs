//! Finds the files `check` reads: named files as given, folders walked recursively for `*.yaml` and
//! `*.yml` in sorted order, hidden entries, `target` and `node_modules` skipped. Problems (a missing
//! path, an unreadable folder) are collected, not fatal, so one bad path doesn't hide the rest.

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
    let walker = Walker { exclude };
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walker.walk_dir(path, &mut files, &mut errors),
            Ok(_) => files.push(tidy(path)),
            Err(error) => errors.push(WalkError {
                path: path.clone(),
                message: io_message(&error),
            }),
        }
    }
    (files, errors)
}

/// What a walk leaves out besides hidden and build folders.
struct Walker<'a> {
    exclude: &'a [String],
}

impl Walker<'_> {
    fn walk_dir(&self, dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<WalkError>) {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) => {
                errors.push(WalkError {
                    path: tidy(dir),
                    message: io_message(&error),
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
            if super::glob::excluded(&tidy(&path), self.exclude) {
                continue;
            }
            if file_type.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_ref()) {
                    self.walk_dir(&path, files, errors);
                }
            } else if is_yaml(&name) && (file_type.is_file() || path.is_file()) {
                files.push(tidy(&path));
            }
        }
    }
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
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        _ => error.to_string(),
    }
}
