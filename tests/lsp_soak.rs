//! A short soak of the language server (the full one is `cargo bench --bench soak`): 400 random
//! edits across 20 open files, sent as fast as an editor would, including renames of policies and
//! of the names their bindings give, whose effect crosses files. Afterwards the server's
//! diagnostics of every file must equal those of a fresh server opened with the final texts.

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/soak.rs"]
mod soak;

use std::time::Duration;

use lsp_client::Client;
use serde_json::{Value, json};
use soak::{Random, Workspace};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

#[test]
fn random_edits_across_files_end_with_the_diagnostics_of_a_fresh_server() {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    let mut workspace = Workspace::new();
    workspace.open_all(&mut client);
    let mut random = Random::new(15);
    for _ in 0..400 {
        workspace.edit(&mut random, &mut client);
    }
    let quiet = Duration::from_millis(300);
    let edited = soak::settled(&mut client, &workspace.files, quiet);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    let fresh = soak::fresh(BINARY, &workspace.files);
    assert_eq!(edited.len(), soak::FILES);
    // The run really crossed files: some binding lost its policy on the way.
    let unresolved = edited
        .values()
        .flat_map(|d| d.as_array().cloned().unwrap_or_default())
        .filter(|d| d["code"] == "unresolved-reference")
        .count();
    assert!(unresolved > 0, "{edited:#?}");
    for (uri, diagnostics) in &fresh {
        assert_eq!(edited.get(uri), Some(diagnostics), "{uri}");
    }
}
