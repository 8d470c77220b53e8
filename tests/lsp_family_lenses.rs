//! The evaluate and run lenses of every document family, end to end over stdio: each family's
//! document (a Kyverno ValidatingPolicy, a Gatekeeper ConstraintTemplate, DRA claims and classes,
//! an AuthenticationConfiguration) gets an "Evaluate …" lens whose `admission-ls.evaluate` answers
//! the JSON `admission-ls eval --format json` prints for the same files; a Kyverno CLI
//! `kyverno-test.yaml` and a gator suite get run lenses answering as `admission-ls test --format
//! json`. One row of [`EVALUATIONS`] or [`SUITES`] per family.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use std::path::PathBuf;
use std::process::Command;

use lsp_client::{Client, file_uri};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// One family document: its lens titles, the lens clicked, and the files of the request.
struct Evaluation {
    file: &'static str,
    titles: &'static [&'static str],
    clicked: usize,
    /// The command's file arguments and the `eval` flag of each (`object` is `--object`…).
    files: &'static [(&'static str, &'static str, &'static str)],
}

const OBJECT: (&str, &str) = ("object", "--object");
const PARAMS: (&str, &str) = ("params", "--params");

const EVALUATIONS: &[Evaluation] = &[
    Evaluation {
        file: "tests/suites/kyverno/require-team.yaml",
        titles: &["Evaluate require-team…", "Evaluate broken-expression…"],
        clicked: 0,
        files: &[(
            OBJECT.0,
            OBJECT.1,
            "tests/cli_fixtures/kyverno/bad-pod.yaml",
        )],
    },
    Evaluation {
        file: "tests/suites/gatekeeper/template.yaml",
        titles: &["Evaluate k8srequiredlabels…"],
        clicked: 0,
        files: &[
            (
                OBJECT.0,
                OBJECT.1,
                "tests/suites/gatekeeper/deployment.yaml",
            ),
            (
                PARAMS.0,
                PARAMS.1,
                "tests/suites/gatekeeper/constraint.yaml",
            ),
        ],
    },
    Evaluation {
        file: "tests/cli_fixtures/dra/gpu-claims.yaml",
        titles: &["Evaluate gpu.example.com…", "Evaluate big-gpu…"],
        clicked: 1,
        files: &[(OBJECT.0, OBJECT.1, "tests/cli_fixtures/dra/gpu-slices.yaml")],
    },
    Evaluation {
        file: "tests/cli_fixtures/authn/authentication-config.yaml",
        titles: &["Evaluate AuthenticationConfiguration…"],
        clicked: 0,
        files: &[(OBJECT.0, OBJECT.1, "tests/cli_fixtures/authn/claims.json")],
    },
    // An AuthorizationConfiguration is checked, not evaluated: no lens.
    Evaluation {
        file: "tests/cli_fixtures/authn/authorization-config.yaml",
        titles: &[],
        clicked: 0,
        files: &[],
    },
];

/// One suite: the title of its first lens (which runs the whole suite) and how many lenses it has.
struct Suite {
    file: &'static str,
    first: &'static str,
    count: usize,
}

const SUITES: &[Suite] = &[
    Suite {
        file: "tests/suites/kyverno/.kyverno-test/kyverno-test.yaml",
        first: "Run tests",
        count: 1,
    },
    Suite {
        file: "tests/suites/gatekeeper/requiredlabels.test.yaml",
        first: "Run 13 tests",
        count: 14,
    },
];

fn absolute(path: &str) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn open(client: &mut Client, path: &PathBuf) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let uri = file_uri(path);
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
    uri
}

fn lenses(client: &mut Client, uri: &str) -> Vec<Value> {
    let answer = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    answer["result"].as_array().cloned().unwrap_or_default()
}

fn titles(lenses: &[Value]) -> Vec<&str> {
    lenses
        .iter()
        .filter_map(|l| l["command"]["title"].as_str())
        .collect()
}

fn cli_json(args: &[String]) -> Value {
    let output = Command::new(BINARY)
        .args(args)
        .output()
        .expect("the binary runs");
    serde_json::from_slice(&output.stdout).unwrap_or(Value::Null)
}

/// `value` without its `durationMs` fields.
fn timeless(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "durationMs")
                .map(|(k, v)| (k.clone(), timeless(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(timeless).collect()),
        other => other.clone(),
    }
}

/// A `runTests` answer without each case's `uri` and `range` (which only the editor gets).
fn placeless(value: &Value) -> Value {
    let mut value = value.clone();
    for suite in value["suites"].as_array_mut().into_iter().flatten() {
        for case in suite["cases"].as_array_mut().into_iter().flatten() {
            if let Some(case) = case.as_object_mut() {
                case.remove("uri");
                case.remove("range");
            }
        }
    }
    value
}

/// Clicks `lens` with the request's files added to its arguments, and runs `eval` on the same.
fn click_and_eval(client: &mut Client, lens: &Value, row: &Evaluation) -> (Value, Value) {
    let command = &lens["command"];
    let mut arguments = command["arguments"][0].clone();
    let file = absolute(row.file).display().to_string();
    let mut cli = vec!["eval".to_string(), file];
    if let Some(policy) = arguments["policy"].as_str() {
        cli.extend(["--policy".to_string(), policy.to_string()]);
    }
    for (key, flag, path) in row.files {
        let path = absolute(path).display().to_string();
        arguments[*key] = json!(path);
        cli.extend([flag.to_string(), path]);
    }
    cli.extend(["--format".to_string(), "json".to_string()]);
    let params = json!({"command": command["command"], "arguments": [arguments]});
    let answer = client.request("workspace/executeCommand", params);
    (answer["result"].clone(), cli_json(&cli))
}

#[test]
fn every_family_document_has_an_evaluate_lens_answering_as_eval() {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    for row in EVALUATIONS {
        let uri = open(&mut client, &absolute(row.file));
        let lenses = lenses(&mut client, &uri);
        let evaluate: Vec<Value> = lenses
            .into_iter()
            .filter(|l| l["command"]["command"] == "admission-ls.evaluate")
            .collect();
        assert_eq!(titles(&evaluate), row.titles, "{}", row.file);
        let Some(lens) = evaluate.get(row.clicked) else {
            continue;
        };
        let (served, printed) = click_and_eval(&mut client, lens, row);
        assert_ne!(printed, Value::Null, "{}: eval printed no JSON", row.file);
        assert_eq!(served, printed, "{}", row.file);
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn kyverno_and_gator_suites_have_run_lenses_answering_as_test() {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    for row in SUITES {
        let path = absolute(row.file);
        let uri = open(&mut client, &path);
        let lenses = lenses(&mut client, &uri);
        let titles = titles(&lenses);
        assert_eq!(titles.first(), Some(&row.first), "{}", row.file);
        assert_eq!(titles.len(), row.count, "{}", row.file);
        let command = &lenses[0]["command"];
        assert_eq!(command["command"], "admission-ls.runTests", "{}", row.file);
        let params = json!({"command": command["command"], "arguments": command["arguments"]});
        let ran = client.request("workspace/executeCommand", params);
        let file = path.display().to_string();
        let cli = cli_json(&["test".into(), file, "--format".into(), "json".into()]);
        assert!(cli["summary"]["cases"].as_u64() > Some(0), "{}", row.file);
        // The server adds each case's `uri` and LSP `range` for the editor.
        let place = &ran["result"]["suites"][0]["cases"][0];
        assert!(
            place["uri"].is_string() && place["range"].is_object(),
            "{place}"
        );
        assert_eq!(
            timeless(&placeless(&ran["result"])),
            timeless(&cli),
            "{}",
            row.file
        );
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
