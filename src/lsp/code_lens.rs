//! `textDocument/codeLens`: the `ide` lenses of a document ("Evaluate…" on each policy, "Run tests"
//! and "Run case" on suites and cases) as LSP code lenses whose command arguments carry the
//! document's URI and path.

use serde_json::Value;
use tower_lsp_server::ls_types::{CodeLens, Command, Uri};

use super::encoding::to_proto;
use crate::ide::lenses::lenses;
use crate::ide::{Encoding, LineIndex};

/// The code lenses of the document `uri` with `text`.
pub fn code_lenses(uri: &Uri, text: &str, encoding: Encoding) -> Vec<CodeLens> {
    let path = uri
        .to_file_path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| uri.as_str().to_owned());
    let index = LineIndex::new(text);
    lenses(&path, text)
        .into_iter()
        .map(|lens| {
            let mut arguments = lens.arguments;
            if let Value::Object(map) = &mut arguments {
                map.insert("uri".into(), Value::from(uri.as_str()));
            }
            CodeLens {
                range: to_proto::range(&index, lens.range, encoding),
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
