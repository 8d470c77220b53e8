//! `textDocument/codeLens`: the `ide` lenses of a document ("Evaluate…" on each policy, "Run tests"
//! and "Run case" on suites and cases, "Validate…" on custom resources and CRDs against the files
//! the server knows) as LSP code lenses whose command arguments carry the document's URI and path.
//! The lenses are read from the request's snapshot, whose trees the diagnostics runs share.

use serde_json::Value;
use tower_lsp_server::ls_types::{CodeLens, Command, Uri};

use super::encoding::to_proto;
use super::features::Request;
use super::state::State;
use crate::ide::crd_lenses::AnalysisFile;

/// The file path of `uri`, or the URI itself when it names no file.
fn path_of(uri: &Uri) -> String {
    uri.to_file_path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| uri.as_str().to_owned())
}

/// The files the server knows, for the validate lenses: the open documents (the host has their
/// text as edited once a request's snapshot is taken), then the workspace scan's admission, CRD
/// and param files that are not open.
pub fn workspace_files(state: &State) -> Vec<AnalysisFile> {
    let open = state
        .documents
        .iter()
        .map(|(uri, doc)| (path_of(uri), doc.file));
    let scanned = state
        .workspace
        .iter()
        .chain(&state.param_files)
        .filter(|(uri, _)| !state.documents.contains_key(*uri))
        .map(|(uri, file)| (path_of(uri), *file));
    open.chain(scanned).collect()
}

/// The code lenses of the document `uri` of `request`, given the files of the workspace.
pub fn code_lenses(uri: &Uri, request: &Request, workspace: &[AnalysisFile]) -> Vec<CodeLens> {
    let (analysis, file) = (&request.analysis, request.file);
    let Some(index) = analysis.line_index(file) else {
        return Vec::new();
    };
    let path = path_of(uri);
    let mut all = analysis.lenses(file, &path);
    all.extend(analysis.crd_lenses(file, &path, workspace));
    all.sort_by_key(|l| l.range.start());
    all.into_iter()
        .map(|lens| {
            let mut arguments = lens.arguments;
            if let Value::Object(map) = &mut arguments {
                map.insert("uri".into(), Value::from(uri.as_str()));
            }
            CodeLens {
                range: to_proto::range(&index, lens.range, request.encoding),
                command: Some(Command {
                    title: lens.title,
                    command: lens.command.to_owned(),
                    arguments: Some(vec![arguments]),
                }),
                data: None,
            }
        })
        .collect()
}
