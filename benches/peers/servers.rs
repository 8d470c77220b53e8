//! The two language servers under one driver: admission-ls (the release binary) and
//! yaml-language-server from npm (installed into `target/` on first use, or skipped with a notice),
//! both spoken to by the end-to-end tests' LSP client. yaml-language-server is started through a
//! small wrapper script so that the client's `serve --stdio` arguments reach it as `--stdio`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How to start a server, and how it is configured after `initialize`.
pub struct Server {
    /// Name in the table.
    pub name: &'static str,
    /// What `Client::spawn` runs (it appends `serve --stdio`).
    pub program: PathBuf,
    /// The `workspace/didChangeConfiguration` settings sent after `initialized` (or null).
    pub settings: serde_json::Value,
}

/// yaml-language-server's `node_modules/.bin` entry under `dir`, installing it with npm if absent.
fn yaml_language_server(dir: &Path) -> Option<PathBuf> {
    if let Ok(path) = std::env::var("YAML_LANGUAGE_SERVER") {
        return Some(PathBuf::from(path));
    }
    let bin = dir.join("node_modules/.bin/yaml-language-server");
    if !bin.exists() {
        println!(
            "installing yaml-language-server@2 with npm into {}",
            dir.display()
        );
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(dir)
            .arg("yaml-language-server@2")
            .status();
        if !matches!(status, Ok(s) if s.success()) {
            println!("NOTICE: npm could not install yaml-language-server; its columns are skipped");
            return None;
        }
    }
    bin.exists().then_some(bin)
}

/// yaml-language-server, configured to validate `*.yaml` against `schema`.
pub fn yaml_ls(npm_dir: &Path, work: &Path, schema: &Path) -> Option<Server> {
    let bin = yaml_language_server(npm_dir)?;
    let wrapper = work.join("yaml-language-server-stdio.sh");
    let script = format!("#!/bin/sh\nexec \"{}\" --stdio\n", bin.display());
    std::fs::write(&wrapper, script).ok()?;
    make_executable(&wrapper)?;
    let schema_uri = format!("file://{}", schema.display());
    let settings = serde_json::json!({"yaml": {
        "validate": true, "hover": true, "completion": true, "format": {"enable": false},
        "schemas": {schema_uri: ["*.yaml"]}}});
    Some(Server {
        name: "yaml-language-server",
        program: wrapper,
        settings,
    })
}

fn make_executable(path: &Path) -> Option<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).ok()
}

/// admission-ls, default settings.
pub fn admission_ls(binary: &str) -> Server {
    Server {
        name: "admission-ls",
        program: PathBuf::from(binary),
        settings: serde_json::Value::Null,
    }
}
