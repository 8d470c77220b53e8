//! `workspace/executeCommand`: `admission-ls.evaluate` and `admission-ls.runTests`, returning the
//! same JSON as `admission-ls eval --format json` and `admission-ls test --format json` (for every
//! family: a Kyverno policy, a Gatekeeper template, DRA selectors over the ResourceSlices of
//! `object`, an AuthenticationConfiguration over the claims of `object`). Arguments
//! are one object: `{uri | path, policy?, binding?, object?, oldObject?, params?, namespace?,
//! operation?, user?, groups?, kubeVersion?, authorizer?, schemas?: [path], defaults?: bool}`
//! (file paths; `defaults: false` is `eval --no-defaults`) for evaluate, `{uri | path, suite?,
//! case?}` (or nothing: the workspace's suites) for runTests and `listTests` (`test_explorer.rs`), `{uri | path, crds?: [path], crd?, objects?: [path], document?, kubeVersion?}` for
//! validate (the CRD files and the object files default to the target file; `crd` keeps one CRD's
//! kinds, `document` one document: the arguments the validate lenses send), answering
//! `{"reports": [...], "summary": {...}}` with `validate --format json`'s reports. All run off the serve task, at most two at a time; a cancelled `runTests` skips its remaining cases, a cancelled `evaluate` is not evaluated after its files are read. Open documents are read from the editor, other files from disk. Failing cases come
//! back as diagnostics on the cases, for the server to publish.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use tower_lsp_server::ls_types::{Diagnostic, Uri};

use super::disk::{self, Bounds, local_path};
use super::server::Cancel;
use super::test_explorer::{self, LIST_TESTS_COMMAND};
use crate::ide::crd_lenses::AnalysisFile;
use crate::ide::crd_lenses::VALIDATE_COMMAND;
use crate::ide::lenses::{EVALUATE_COMMAND, RUN_TESTS_COMMAND};
use crate::ide::run::EvalRequest;
use crate::ide::run::wall_clock;
use crate::ide::run_families::evaluate_json;
use crate::ide::validate::FilesRequest;
use crate::ide::{Analysis, Encoding, KubeVersion};

/// The commands the server offers.
pub const COMMANDS: [&str; 4] = [
    EVALUATE_COMMAND,
    RUN_TESTS_COMMAND,
    VALIDATE_COMMAND,
    LIST_TESTS_COMMAND,
];

/// What a command produced: its JSON, and diagnostics to publish for a suite file.
pub struct Outcome {
    /// The command's result.
    pub result: Value,
    /// Diagnostics on failing cases (each suite file's URI and its list; empty when all pass).
    pub publish: Vec<(Uri, Vec<Diagnostic>)>,
}

/// Open documents by file path, so commands see unsaved edits.
pub type OpenTexts = HashMap<PathBuf, String>;

/// The analysis snapshot, and the paths of its files: a command reads the trees of the files it
/// has instead of parsing them again.
pub struct Snapshot {
    /// The analysis.
    pub analysis: Analysis,
    /// Its files, by path.
    pub files: Vec<AnalysisFile>,
    /// The workspace folders (where the test commands look for suites).
    pub roots: Vec<PathBuf>,
}

/// Runs `command`; `Err` is a message for an invalid request.
pub fn execute(
    command: &str,
    arguments: &[Value],
    open: &OpenTexts,
    snapshot: &Snapshot,
    encoding: Encoding,
    cancel: &Cancel,
) -> Result<Outcome, String> {
    let args = arguments.first().cloned().unwrap_or(Value::Null);
    match command {
        EVALUATE_COMMAND => evaluate_command(&args, open, cancel),
        RUN_TESTS_COMMAND => {
            test_explorer::run_tests(&args, open, &snapshot.roots, encoding, cancel, now())
        }
        LIST_TESTS_COMMAND => test_explorer::list_tests(&args, open, &snapshot.roots, encoding),
        VALIDATE_COMMAND => validate_command(&args, open, snapshot),
        other => Err(format!("unknown command {other}")),
    }
}

pub(super) fn target(args: &Value) -> Result<(PathBuf, Option<Uri>), String> {
    let uri = args
        .get("uri")
        .and_then(Value::as_str)
        .and_then(|u| u.parse::<Uri>().ok());
    let from_uri = match &uri {
        Some(u) => Some(local_path(u).ok_or_else(|| not_local(u.as_str()))?),
        None => None,
    };
    let path = from_uri
        .or_else(|| args.get("path").and_then(Value::as_str).map(PathBuf::from))
        .ok_or("the command needs a `uri` or `path` argument")?;
    Ok((path, uri))
}

/// A file argument as a path: clients send either a plain path or a `file:` URI. A URI of another
/// scheme, or a `file:` URI naming another host, names no local file (a one-letter "scheme" is a
/// Windows drive).
fn file_path(arg: &str) -> Result<PathBuf, String> {
    match arg.parse::<Uri>() {
        Ok(uri) if uri.scheme().as_str().len() > 1 => {
            local_path(&uri).ok_or_else(|| not_local(arg))
        }
        _ => Ok(PathBuf::from(arg)),
    }
}

fn not_local(uri: &str) -> String {
    format!(
        "{uri} is not a local file (only file: URIs without a host, or with localhost, are read)"
    )
}

pub(super) fn read(path: &str, open: &OpenTexts) -> Result<String, String> {
    let path = file_path(path)?;
    if let Some(text) = open.get(&path) {
        return Ok(text.clone());
    }
    let bounds = Bounds::named();
    disk::read_text(&path, bounds).map_err(|e| e.to_string())
}

fn evaluate_command(args: &Value, open: &OpenTexts, cancel: &Cancel) -> Result<Outcome, String> {
    let (path, _) = target(args)?;
    let text = |key: &str| -> Result<Option<String>, String> {
        match args.get(key).and_then(Value::as_str) {
            None => Ok(None),
            Some(p) => read(p, open)
                .map(Some)
                .map_err(|e| format!("cannot read {key} {p}: {e}")),
        }
    };
    let string = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_owned);
    let path_text = path.display().to_string();
    let request = EvalRequest {
        policy_text: read(&path_text, open).map_err(|e| format!("cannot read {path_text}: {e}"))?,
        policy_path: path_text,
        object: text("object")?,
        old_object: text("oldObject")?,
        params: text("params")?,
        namespace: text("namespace")?,
        policy: string("policy"),
        binding: string("binding"),
        operation: string("operation"),
        user: string("user"),
        groups: args
            .get("groups")
            .and_then(Value::as_array)
            .map(|g| {
                g.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
        kube_version: match string("kubeVersion") {
            Some(text) => KubeVersion::parse(&text).map_err(|e| format!("kubeVersion: {e}"))?,
            None => KubeVersion::default(),
        },
        authorizer: text("authorizer")?,
        context: text("context")?,
        now: now(),
        schemas: schema_files(args, open)?,
        no_defaults: args.get("defaults").and_then(Value::as_bool) == Some(false),
    };
    // Reading the files is the part that can wait on the disk; the evaluation itself is bounded
    // by the policy's cost budget. A request cancelled meanwhile is not evaluated.
    if cancel.is_cancelled() {
        return Err("cancelled".into());
    }
    let object_path = string("object").unwrap_or_default();
    Ok(Outcome {
        result: evaluate_json(&request, &object_path)?,
        publish: Vec::new(),
    })
}

/// The `schemas` argument: CRD files (paths or `file:` URIs), read as `eval --schema` reads them.
fn schema_files(args: &Value, open: &OpenTexts) -> Result<Vec<(String, String)>, String> {
    Ok(file_list(args, "schemas", "schema", open)?.unwrap_or_default())
}

/// The files of the list argument `key` (paths or `file:` URIs, each `what` in messages) with their
/// texts; `None` when the argument is absent.
fn file_list(
    args: &Value,
    key: &str,
    what: &str,
    open: &OpenTexts,
) -> Result<Option<Vec<(String, String)>>, String> {
    let Some(list) = args.get(key) else {
        return Ok(None);
    };
    let not_a_list = || format!("`{key}` must be a list of file paths");
    let paths = list.as_array().ok_or_else(not_a_list)?;
    paths
        .iter()
        .map(|p| {
            let p = p.as_str().ok_or_else(not_a_list)?;
            let text = read(p, open).map_err(|e| format!("cannot read {what} {p}: {e}"))?;
            Ok((p.to_string(), text))
        })
        .collect::<Result<Vec<_>, String>>()
        .map(Some)
}

fn validate_command(
    args: &Value,
    open: &OpenTexts,
    snapshot: &Snapshot,
) -> Result<Outcome, String> {
    let (path, _) = target(args)?;
    let path_text = path.display().to_string();
    let target_file = || -> Result<Vec<(String, String)>, String> {
        let text = read(&path_text, open).map_err(|e| format!("cannot read {path_text}: {e}"))?;
        Ok(vec![(path_text.clone(), text)])
    };
    let crds = match file_list(args, "crds", "CRD file", open)? {
        Some(files) => files,
        None => target_file()?,
    };
    let objects = match file_list(args, "objects", "object file", open)? {
        Some(files) => files,
        None => target_file()?,
    };
    let document = match args.get("document") {
        None => None,
        Some(n) => Some(n.as_u64().ok_or("`document` must be a document index")? as usize),
    };
    let request = FilesRequest {
        crds,
        crd: args.get("crd").and_then(Value::as_str).map(str::to_owned),
        objects,
        document,
        kube_version: match args.get("kubeVersion").and_then(Value::as_str) {
            Some(text) => KubeVersion::parse(text).map_err(|e| format!("kubeVersion: {e}"))?,
            None => KubeVersion::default(),
        },
    };
    Ok(Outcome {
        result: snapshot
            .analysis
            .validate_files(&request, &snapshot.files)?,
        publish: Vec::new(),
    })
}

/// The wall clock, for library functions that return the current time (Kyverno's `time.now()`).
fn now() -> Option<crate::ide::run::Timestamp> {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.ok().and_then(wall_clock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_evaluation_is_not_run() {
        let policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n\
                      metadata: {name: p}\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}\n  validations:\n  - expression: 'true'\n";
        let object = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
        let open = OpenTexts::from([
            (PathBuf::from("/e/policy.yaml"), policy.to_owned()),
            (PathBuf::from("/e/object.yaml"), object.to_owned()),
        ]);
        let args = serde_json::json!({"path": "/e/policy.yaml", "object": "/e/object.yaml"});
        let ran = evaluate_command(&args, &open, &Cancel::default());
        assert!(ran.is_ok(), "{:?}", ran.err());
        let cancelled = evaluate_command(&args, &open, &Cancel::raised());
        assert_eq!(cancelled.err().as_deref(), Some("cancelled"));
    }
}
