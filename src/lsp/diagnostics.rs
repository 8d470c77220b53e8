//! Diagnostics runs: the analysis on a blocking thread against a snapshot, panics caught per file, and
//! the results converted to the protocol in the negotiated encoding. Results go to one publisher task
//! that sends them only if the document is still at the version they were computed for, and, being a
//! single task, in the order they were computed.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use tokio::sync::mpsc;
use tower_lsp_server::ls_types::{self as lsp, Uri};

use super::encoding::to_proto;
use crate::ide::{Analysis, DiagnosticsConfig, Encoding, FileId};

/// What a diagnostics run needs: a snapshot, the files to check, and the settings.
#[derive(Debug)]
pub struct Job {
    /// The inputs, frozen.
    pub analysis: Analysis,
    /// The files to check, with the URI to publish each under.
    pub files: Vec<(Uri, FileId)>,
    /// The settings at the time the run was scheduled.
    pub config: DiagnosticsConfig,
    /// The encoding for ranges.
    pub encoding: Encoding,
    /// The files of each `staticManifests` folder of the project configuration, as the API
    /// server reads them (by name): their documents get the manifest loader's rules.
    pub static_groups: Arc<Vec<Vec<(FileId, String)>>>,
}

/// When a result may be published.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// While the document is open at this version (the version is sent with the diagnostics).
    OpenAt(i32),
    /// While the document is not open (workspace files, and the empty list sent on close).
    NotOpen,
}

/// One result on its way to the client.
#[derive(Debug)]
pub struct Publish {
    /// The document.
    pub uri: Uri,
    /// The diagnostics, in the protocol's form.
    pub diagnostics: Vec<lsp::Diagnostic>,
    /// When it may still be sent.
    pub guard: Guard,
}

/// Sends results to the publisher task.
pub type PublishSender = mpsc::UnboundedSender<Publish>;

/// Threads one step of the diagnostics runner uses: a large file in the step holds up one of them,
/// not the others.
const STEP_THREADS: usize = 2;

/// Runs a job here on up to [`STEP_THREADS`] threads, handing each file's result to `done` as soon
/// as it is computed (a large file does not hold up the small ones of its step). A file whose
/// analysis panicked is logged and left out.
pub fn compute_each(job: &Job, done: &(dyn Fn(Uri, Vec<lsp::Diagnostic>) + Sync)) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || {
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some((uri, file)) = job.files.get(i) else {
                return;
            };
            match catch_unwind(AssertUnwindSafe(|| diagnostics_of(job, uri, *file))) {
                Ok(diagnostics) => done(uri.clone(), diagnostics),
                Err(panic) => eprintln!(
                    "admission-ls: analysis of {} panicked: {}",
                    uri.as_str(),
                    panic_message(panic.as_ref())
                ),
            }
        }
    };
    let threads = STEP_THREADS.min(job.files.len());
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(worker);
        }
        worker();
    });
}

/// Runs a job here, on the caller's thread (a request already off the serve task).
pub fn compute_now(job: &Job) -> Vec<(Uri, Vec<lsp::Diagnostic>)> {
    let mut results = Vec::with_capacity(job.files.len());
    for (uri, file) in &job.files {
        match catch_unwind(AssertUnwindSafe(|| diagnostics_of(job, uri, *file))) {
            Ok(diagnostics) => results.push((uri.clone(), diagnostics)),
            Err(panic) => eprintln!(
                "admission-ls: analysis of {} panicked: {}",
                uri.as_str(),
                panic_message(panic.as_ref())
            ),
        }
    }
    results
}

fn diagnostics_of(job: &Job, uri: &Uri, file: FileId) -> Vec<lsp::Diagnostic> {
    let diagnostics = if is_config_file(uri) {
        // An open project configuration file: its problems as the editor's text has them.
        let text = job.analysis.file_text(file).unwrap_or_default();
        crate::ide::parse_project_config(&text).1
    } else {
        let mut diagnostics = job.analysis.diagnostics(file, &job.config);
        add_static_findings(job, file, &mut diagnostics);
        diagnostics
    };
    if diagnostics.is_empty() {
        return Vec::new();
    }
    let Some(index) = job.analysis.line_index(file) else {
        return Vec::new();
    };
    diagnostics
        .iter()
        .map(|d| to_proto::diagnostic(&index, d, job.encoding))
        .collect()
}

/// Adds the findings of the static manifests folder `file` is in, if any; a finding its name
/// suffix already gave is not repeated.
fn add_static_findings(job: &Job, file: FileId, diagnostics: &mut Vec<crate::ide::Diagnostic>) {
    for group in job.static_groups.iter() {
        let Some(position) = group.iter().position(|(id, _)| *id == file) else {
            continue;
        };
        let found = job.analysis.static_manifest_diagnostics(group, &job.config);
        for finding in found.into_iter().nth(position).unwrap_or_default() {
            if !diagnostics.contains(&finding) {
                diagnostics.push(finding);
            }
        }
        crate::ide::sort_diagnostics(diagnostics);
    }
}

/// Whether the document is a project configuration file (by its name).
fn is_config_file(uri: &Uri) -> bool {
    let path = uri.path().as_str();
    let name = path.rsplit('/').next().unwrap_or(path);
    crate::ide::is_config_file_name(name)
}

/// The text of a panic's payload.
pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    if let Some(message) = panic.downcast_ref::<&str>() {
        message
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message
    } else {
        "non-string panic payload"
    }
}
