//! End-to-end: the built binary driven over stdio as an editor would drive it. Checks the
//! capabilities and the negotiated encoding, version-tagged diagnostics on open, a burst of 300
//! incremental edits whose final diagnostics equal those of `check`, close, hostile input, and a clean
//! shutdown. Every wait has a timeout (see `support/lsp_client.rs`).

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use admission_ls::ide::{DiagnosticsConfig, Encoding, LineIndex, TextSize, diagnostics_for_text};
use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [\"apps\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\", \"UPDATE\"]
      resources: [\"deployments\"]
  validations:
  - expression: \"object.spec.replicas <= 5\"
    message: \"too many replicas\"
  - expression: \"true\"
    message: \"m\"
";

fn utf16_capabilities() -> Value {
    json!({})
}

fn utf8_capabilities() -> Value {
    json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
}

fn start(capabilities: Value) -> (Client, Value) {
    let mut client = Client::spawn(BINARY);
    let response = client.initialize(capabilities, Value::Null, Value::Null);
    (client, response)
}

/// The diagnostics the server must publish for `text`: the library's, in the protocol's shape.
fn expected(text: &str, encoding: Encoding) -> Value {
    let index = LineIndex::new(text);
    let position = |offset: TextSize| {
        let at = index.line_col(offset, encoding);
        json!({"line": at.line, "character": at.col})
    };
    let diagnostics = diagnostics_for_text(text, &DiagnosticsConfig::default());
    let severity = |s: admission_ls::ide::Severity| s as i64 + 1;
    Value::Array(
        diagnostics
            .iter()
            .map(|d| {
                json!({"range": {"start": position(d.range.start()), "end": position(d.range.end())},
                    "severity": severity(d.severity), "code": d.code.as_str(),
                    "source": "admission-ls", "message": d.message,
                    "data": {"prediction": d.prediction.as_str()}})
            })
            .collect(),
    )
}

fn open(client: &mut Client, uri: &str, version: i64, text: &str) {
    let document = json!({"uri": uri, "languageId": "yaml", "version": version, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
}

fn change(client: &mut Client, uri: &str, version: i64, changes: Value) {
    let document = json!({"uri": uri, "version": version});
    let params = json!({"textDocument": document, "contentChanges": changes});
    client.notify("textDocument/didChange", params);
}

#[test]
fn initialize_negotiates_the_encoding_and_shuts_down_cleanly() {
    let (client, response) = start(utf16_capabilities());
    let result = &response["result"];
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(result["capabilities"]["textDocumentSync"]["change"], 2);
    assert_eq!(
        result["capabilities"]["textDocumentSync"]["openClose"],
        true
    );
    assert_eq!(result["serverInfo"]["name"], "admission-ls");
    assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));

    let (client, response) = start(utf8_capabilities());
    assert_eq!(
        response["result"]["capabilities"]["positionEncoding"],
        "utf-8"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn exit_without_shutdown_exits_with_status_1() {
    let (mut client, _) = start(utf16_capabilities());
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit().code(), Some(1));
}

#[test]
fn open_publishes_diagnostics_tagged_with_the_version_and_close_clears_them() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/open-close/policy.yaml";
    open(&mut client, uri, 7, POLICY);
    let published = client.diagnostics_at(uri, 7);
    assert_eq!(published["diagnostics"], expected(POLICY, Encoding::Utf16));

    let broken = "kind: [\n";
    change(&mut client, uri, 8, json!([{"text": broken}]));
    let published = client.diagnostics_at(uri, 8);
    assert_eq!(published["diagnostics"], expected(broken, Encoding::Utf16));
    assert_ne!(published["diagnostics"], json!([]));

    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let closed = client.diagnostics_where(uri, |p| p["version"].is_null());
    assert_eq!(closed["diagnostics"], json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A local mirror of the document, producing the LSP edits an editor would send.
struct Editor {
    text: String,
    cursor: usize,
    encoding: Encoding,
}

impl Editor {
    fn position(&self, offset: usize) -> Value {
        let at = LineIndex::new(&self.text).line_col(TextSize::from(offset as u32), self.encoding);
        json!({"line": at.line, "character": at.col})
    }

    fn type_char(&mut self, ch: char) -> Value {
        let at = self.position(self.cursor);
        self.text.insert(self.cursor, ch);
        self.cursor += ch.len_utf8();
        json!([{"range": {"start": at, "end": at}, "text": ch.to_string()}])
    }

    fn backspace(&mut self) -> Value {
        let previous = self.text[..self.cursor]
            .chars()
            .next_back()
            .map_or(0, char::len_utf8);
        let start = self.cursor - previous;
        let range = json!({"start": self.position(start), "end": self.position(self.cursor)});
        self.text.replace_range(start..self.cursor, "");
        self.cursor = start;
        json!([{"range": range, "text": ""}])
    }

    fn move_to(&mut self, needle: &str) {
        self.cursor = self.text.rfind(needle).expect("needle in text");
    }
}

/// The edits of someone typing an expression and a non-ASCII message, with typos fixed as they go.
fn typing_script(editor: &mut Editor) -> Vec<Value> {
    let mut edits = Vec::new();
    editor.move_to("true\"");
    for _ in 0..4 {
        editor.cursor += 1;
        edits.push(editor.backspace());
    }
    let expression = "object.metadata.name.startsWith('prod-') && object.spec.replicas < 10 \
        && size(object.spec.template.spec.containers) > 0 && object.foo.bar == 'é'";
    for (i, ch) in expression.chars().enumerate() {
        if i % 15 == 7 {
            edits.push(editor.type_char('x'));
            edits.push(editor.backspace());
        }
        edits.push(editor.type_char(ch));
    }
    editor.move_to("m\"\n");
    editor.cursor += 1;
    for ch in " répliques 😀 limitées — équipe".chars() {
        edits.push(editor.type_char(ch));
    }
    while edits.len() < 300 {
        edits.push(editor.backspace());
        let ch = if edits.len() % 2 == 0 { '😀' } else { 'e' };
        edits.push(editor.type_char(ch));
    }
    // Junk after the message's closing quote, on a line with non-ASCII text before it, so that the
    // final diagnostics have a column that differs between UTF-8 and UTF-16.
    let closing_quote = editor.text[editor.cursor..]
        .find('"')
        .expect("closing quote");
    editor.cursor += closing_quote + 1;
    edits.push(editor.type_char(' '));
    edits.push(editor.type_char('}'));
    edits
}

#[test]
fn three_hundred_rapid_edits_end_with_the_diagnostics_of_the_final_text() {
    for (capabilities, encoding) in [
        (utf16_capabilities(), Encoding::Utf16),
        (utf8_capabilities(), Encoding::Utf8),
    ] {
        let (mut client, _) = start(capabilities);
        let uri = "file:///tmp/typing/policy.yaml";
        open(&mut client, uri, 0, POLICY);
        let mut editor = Editor {
            text: POLICY.to_owned(),
            cursor: 0,
            encoding,
        };
        let edits = typing_script(&mut editor);
        let last = edits.len() as i64;
        for (version, edit) in edits.into_iter().enumerate() {
            change(&mut client, uri, version as i64 + 1, edit);
        }
        let published = client.diagnostics_at(uri, last);
        assert_eq!(published["diagnostics"], expected(&editor.text, encoding));
        assert_eq!(
            published["diagnostics"],
            check_as_lsp(&editor.text, encoding)
        );
        assert_ne!(published["diagnostics"], json!([]));
        assert_versions_increase(&mut client, uri, last);
        assert_eq!(client.shutdown_and_exit().code(), Some(0));
    }
}

/// Every diagnostics notification received so far for `uri` has a version no older than the one
/// before it.
fn assert_versions_increase(client: &mut Client, uri: &str, last: i64) {
    let mut versions = Vec::new();
    // The pending queue holds everything received before the final publication, in order.
    while let Some(message) = take_pending(client, uri) {
        versions.push(message["params"]["version"].as_i64().unwrap_or(-1));
    }
    versions.push(last);
    assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
}

fn take_pending(client: &mut Client, uri: &str) -> Option<Value> {
    let accept =
        |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
    client.take_pending(accept)
}

/// The diagnostics `admission-ls check --format json` gives for `text`, in the protocol's shape.
fn check_as_lsp(text: &str, encoding: Encoding) -> Value {
    let dir = TempDir::new("e2e-check");
    let path = dir.write("final.yaml", text);
    let output = std::process::Command::new(BINARY)
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .expect("run check");
    let report: Value = serde_json::from_slice(&output.stdout).expect("json report");
    let severities = ["error", "warning", "information", "hint"];
    let mut diagnostics = report["files"][0]["diagnostics"].clone();
    for diagnostic in diagnostics.as_array_mut().into_iter().flatten() {
        let name = diagnostic["severity"].as_str().unwrap_or("");
        let number = severities
            .iter()
            .position(|s| *s == name)
            .map_or(0, |i| i + 1);
        diagnostic["severity"] = json!(number);
        // The JSON report has the prediction beside the code; the LSP diagnostic in `data`.
        if let Some(object) = diagnostic.as_object_mut()
            && let Some(prediction) = object.remove("prediction")
        {
            object.insert("data".into(), json!({ "prediction": prediction }));
        }
        if encoding == Encoding::Utf8 {
            // `check` always counts UTF-16; recompute the columns the way the UTF-8 session does.
            diagnostic["range"] = utf16_range_to_utf8(text, &diagnostic["range"]);
        }
    }
    diagnostics
}

fn utf16_range_to_utf8(text: &str, range: &Value) -> Value {
    let index = LineIndex::new(text);
    let convert = |p: &Value| {
        let line = p["line"].as_u64().unwrap_or(0) as u32;
        let col = p["character"].as_u64().unwrap_or(0) as u32;
        let at = admission_ls::ide::LineCol { line, col };
        let offset = index.offset(at, Encoding::Utf16);
        let back = index.line_col(offset, Encoding::Utf8);
        json!({"line": back.line, "character": back.col})
    };
    json!({"start": convert(&range["start"]), "end": convert(&range["end"])})
}

#[test]
fn hostile_input_does_not_stop_the_server() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/hostile/policy.yaml";
    open(&mut client, uri, 1, POLICY);
    client.diagnostics_at(uri, 1);
    let far = json!({"line": 4_000_000_000u32, "character": 4_000_000_000u32});
    let reversed =
        json!({"start": {"line": 9, "character": 3}, "end": {"line": 2, "character": 0}});
    change(
        &mut client,
        uri,
        2,
        json!([{"range": {"start": far, "end": far}, "text": "x"}]),
    );
    change(
        &mut client,
        uri,
        3,
        json!([{"range": reversed, "text": "é\r"}]),
    );
    change(
        &mut client,
        "file:///never/opened.yaml",
        1,
        json!([{"text": "a"}]),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": 42}));
    let junk: String = (0u8..=255).cycle().take(4096).map(|b| b as char).collect();
    open(&mut client, "file:///tmp/hostile/junk.yaml", 1, &junk);
    let big = "a: b\n".repeat(4 << 20);
    open(&mut client, "file:///tmp/hostile/big.yaml", 1, &big);

    let after = "file:///tmp/hostile/after.yaml";
    open(&mut client, after, 5, POLICY);
    let published = client.diagnostics_at(after, 5);
    assert_eq!(published["diagnostics"], expected(POLICY, Encoding::Utf16));
    let stderr = client.stderr();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn workspace_admission_files_are_checked_at_startup() {
    let dir = TempDir::new("e2e-workspace");
    dir.write("policies/policy.yaml", POLICY);
    dir.write(".hidden/policy.yaml", POLICY);
    dir.write("other.yaml", "just: data\n");
    let mut client = Client::spawn(BINARY);
    let root = file_uri(dir.path());
    client.initialize(utf16_capabilities(), json!(root), Value::Null);
    let uri = format!("{root}/policies/policy.yaml");
    let published = client.diagnostics_where(&uri, |p| p["version"].is_null());
    assert_eq!(published["diagnostics"], expected(POLICY, Encoding::Utf16));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn configuration_changes_apply_to_open_documents() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/config/policy.yaml";
    let broken = "kind: [\n";
    open(&mut client, uri, 1, broken);
    let before = client.diagnostics_at(uri, 1);
    assert_eq!(before["diagnostics"][0]["code"], "yaml-syntax", "{before}");
    let settings = json!({"admissionLs": {"kubernetesVersion": "1.30",
        "diagnostics": {"disabled": ["yaml-syntax"]}}});
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": settings}),
    );
    let published = client.diagnostics_at(uri, 1);
    let codes: Vec<&Value> = published["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| &d["code"])
        .collect();
    assert!(!codes.contains(&&json!("yaml-syntax")), "{published}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A CRD open in the editor types a policy open beside it; editing the CRD re-checks the policy.
#[test]
fn editing_a_crd_rechecks_the_policy_that_uses_it() {
    let (mut client, _) = start(utf16_capabilities());
    let crd = |property: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: widgets.example.com}}\nspec:\n  group: example.com\n  names: {{kind: Widget, plural: widgets}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              {property}: {{type: integer}}\n"
        )
    };
    let policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: widgets}\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}\n  validations:\n  - expression: object.spec.size <= 10\n";
    let (crd_uri, policy_uri) = ("file:///ws/crd.yaml", "file:///ws/policy.yaml");
    open(&mut client, crd_uri, 1, &crd("size"));
    open(&mut client, policy_uri, 1, policy);
    let clean = client.diagnostics_at(policy_uri, 1);
    assert_eq!(clean["diagnostics"], json!([]));
    change(&mut client, crd_uri, 2, json!([{"text": crd("count")}]));
    let typed = client.diagnostics_where(policy_uri, |p| {
        p["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
    });
    let message = typed["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(message.contains("undefined field 'size'"), "{typed}");
    client.shutdown_and_exit();
}

/// `ide` says which files an edit affects (`Analysis::affected_by`): renaming a policy leaves the
/// binding that names it, open in another file, unresolved; renaming it back resolves it again.
/// Kubernetes binds by `spec.policyName` (admissionregistration/v1 types.go,
/// ValidatingAdmissionPolicyBindingSpec.PolicyName).
#[test]
fn renaming_a_policy_rechecks_the_binding_in_another_open_file() {
    let (mut client, _) = start(utf16_capabilities());
    let policy = |name: &str| {
        format!(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {{name: {name}}}\nspec:\n  validations:\n  - expression: 'true'\n"
        )
    };
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: limits-binding}\nspec:\n  policyName: limits\n  validationActions: [Deny]\n";
    let (policy_uri, binding_uri) = ("file:///rename/policy.yaml", "file:///rename/binding.yaml");
    open(&mut client, policy_uri, 1, &policy("limits"));
    open(&mut client, binding_uri, 1, binding);
    let resolved = |p: &Value| codes(p).is_empty();
    client.diagnostics_where(binding_uri, resolved);

    change(
        &mut client,
        policy_uri,
        2,
        json!([{"text": policy("limit")}]),
    );
    let unresolved =
        client.diagnostics_where(binding_uri, |p| codes(p) == ["unresolved-reference"]);
    assert_eq!(unresolved["version"], 1, "{unresolved}");
    let message = unresolved["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(message.contains("limits"), "{unresolved}");

    change(
        &mut client,
        policy_uri,
        3,
        json!([{"text": policy("limits")}]),
    );
    client.diagnostics_where(binding_uri, resolved);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// Closing a workspace file with unsaved edits returns the analysis to the text on disk: the
/// binding in another (closed) file that the edit left unresolved resolves again.
#[test]
fn closing_an_unsaved_workspace_file_returns_the_others_to_its_saved_text() {
    let dir = TempDir::new("close-unsaved");
    let policy = |name: &str| {
        format!(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {{name: {name}}}\nspec:\n  validations:\n  - expression: 'true'\n"
        )
    };
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: limits-binding}\nspec:\n  policyName: limits\n  validationActions: [Deny]\n";
    dir.write("policy.yaml", policy("limits"));
    dir.write("binding.yaml", binding);
    let mut client = Client::spawn(BINARY);
    let root = file_uri(dir.path());
    client.initialize(utf16_capabilities(), json!(root), Value::Null);
    let (policy_uri, binding_uri) = (
        format!("{root}/policy.yaml"),
        format!("{root}/binding.yaml"),
    );
    let resolved = |p: &Value| codes(p).is_empty();
    client.diagnostics_where(&binding_uri, resolved);

    open(&mut client, &policy_uri, 1, &policy("limits"));
    change(
        &mut client,
        &policy_uri,
        2,
        json!([{"text": policy("limit")}]),
    );
    client.diagnostics_where(&binding_uri, |p| codes(p) == ["unresolved-reference"]);

    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": policy_uri}}),
    );
    client.diagnostics_where(&binding_uri, resolved);
    let names = client.request("workspace/symbol", json!({"query": "limit"}));
    let names: Vec<&str> = names["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(
        names.contains(&"limits") && !names.contains(&"limit"),
        "{names:?}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A policy whose expression follows an emoji on the same line, so UTF-16 and UTF-8 columns differ.
const EMOJI_POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  variables:
  - {name: few, expression: \"object.spec.replicas < 5\"}
  validations:
  - {message: \"😀\", expression: \"variables.few && object.spec.replicas < 5 && object.spec.\"}
";

/// The UTF-16 position of the first `needle` in [`EMOJI_POLICY`], plus `delta` bytes.
fn emoji_position(needle: &str, delta: usize) -> Value {
    let offset = EMOJI_POLICY.find(needle).unwrap_or(0) + delta;
    let at = LineIndex::new(EMOJI_POLICY).line_col(TextSize::from(offset as u32), Encoding::Utf16);
    json!({"line": at.line, "character": at.col})
}

fn feature_request(method: &str, extra: Value) -> Value {
    let (mut client, response) = start(utf16_capabilities());
    assert!(response["result"]["capabilities"].is_object());
    let uri = "file:///tmp/features/policy.yaml";
    open(&mut client, uri, 1, EMOJI_POLICY);
    let mut params = json!({"textDocument": {"uri": uri}});
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    let answer = client.request(method, params);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    answer["result"].clone()
}

#[test]
fn hover_answers_in_utf16_after_an_emoji() {
    let position = emoji_position("replicas < 5 &&", 2);
    let result = feature_request("textDocument/hover", json!({"position": position}));
    let markdown = result["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("int"), "{result}");
    assert_eq!(
        result["range"]["start"],
        emoji_position("replicas < 5 &&", 0)
    );
    assert_eq!(result["range"]["end"], emoji_position("replicas < 5 &&", 8));
}

#[test]
fn completion_after_a_half_typed_dot_replaces_nothing() {
    let position = emoji_position("spec.\"", 5);
    let result = feature_request("textDocument/completion", json!({"position": position}));
    let items = result.as_array().cloned().unwrap_or_default();
    let replicas = items.iter().find(|i| i["label"] == "replicas");
    let replicas = replicas.unwrap_or_else(|| panic!("no replicas in {result}"));
    assert_eq!(replicas["detail"], "int");
    assert_eq!(replicas["textEdit"]["range"]["start"], position);
    assert_eq!(replicas["textEdit"]["range"]["end"], position);
}

#[test]
fn definition_of_a_variable_after_an_emoji() {
    let position = emoji_position("few &&", 1);
    let result = feature_request("textDocument/definition", json!({"position": position}));
    let link = &result[0];
    assert_eq!(
        link["targetUri"], "file:///tmp/features/policy.yaml",
        "{result}"
    );
    assert_eq!(
        link["targetSelectionRange"]["start"],
        emoji_position("few,", 0)
    );
}

#[test]
fn document_symbols_outline_the_policy() {
    let result = feature_request("textDocument/documentSymbol", json!({}));
    assert_eq!(result[0]["name"], "demo", "{result}");
    let children = result[0]["children"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = children.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "few",
            "variables.few && object.spec.replicas < 5 && object.spec."
        ]
    );
}

#[test]
fn semantic_tokens_are_relative_and_in_utf16() {
    let result = feature_request("textDocument/semanticTokens/full", json!({}));
    let data: Vec<u64> = result["data"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    assert!(data.len() >= 5 && data.len().is_multiple_of(5), "{result}");
    // Decode the stream and find the token of `variables` on the emoji line.
    let (mut line, mut column) = (0, 0);
    let mut found = false;
    for token in data.chunks(5) {
        if token[0] > 0 {
            column = 0;
        }
        line += token[0];
        column += token[1];
        let start = emoji_position("variables.few", 0);
        if json!({"line": line, "character": column}) == start {
            assert_eq!(token[2], "variables".len() as u64);
            assert_eq!(token[3], 0, "variable type");
            found = true;
        }
    }
    assert!(found, "{data:?}");
}

#[test]
fn signature_help_inside_a_call() {
    // `variables.few && object.spec.replicas < 5 && object.spec.` has no call: none.
    let position = emoji_position("few &&", 1);
    let result = feature_request("textDocument/signatureHelp", json!({"position": position}));
    assert!(result.is_null(), "{result}");
}

#[test]
fn signature_help_picks_the_overload_of_the_arguments() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/features/overload.yaml";
    let text = EMOJI_POLICY.replace(
        " && object.spec.\"",
        " && object.metadata.name.indexOf('a', \"",
    );
    open(&mut client, uri, 1, &text);
    let cursor = text.find("'a', ").unwrap_or(0) + "'a', ".len();
    let at = LineIndex::new(&text).line_col(TextSize::from(cursor as u32), Encoding::Utf16);
    let params = json!({"textDocument": {"uri": uri},
        "position": {"line": at.line, "character": at.col}});
    let result = client.request("textDocument/signatureHelp", params)["result"].clone();
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    assert_eq!(result["activeParameter"], 1, "{result}");
    let active = result["activeSignature"].as_u64().unwrap_or(u64::MAX) as usize;
    assert_eq!(
        result["signatures"][active]["label"], "fn string.indexOf(string, int) -> int",
        "{result}"
    );
}

#[test]
fn code_action_rewrites_an_optional_field_as_an_optional_chain() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/features/optional.yaml";
    let text = EMOJI_POLICY.replace(
        " && object.spec.\"",
        " && object.spec.template.spec.securityContext.runAsNonRoot\"",
    );
    open(&mut client, uri, 1, &text);
    let cursor = text.find("runAsNonRoot").unwrap_or(0);
    let at = LineIndex::new(&text).line_col(TextSize::from(cursor as u32), Encoding::Utf16);
    let position = json!({"line": at.line, "character": at.col});
    let params = json!({"textDocument": {"uri": uri}, "range": {"start": position, "end": position},
        "context": {"diagnostics": []}});
    let result = client.request("textDocument/codeAction", params)["result"].clone();
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    let actions = result.as_array().cloned().unwrap_or_default();
    let chain = actions
        .iter()
        .find(|a| a["title"] == "Rewrite as an optional chain with orValue()");
    let edit = chain.map(|a| a["edit"]["changes"][uri][0].clone());
    let new_text = edit.as_ref().map(|e| e["newText"].clone());
    assert_eq!(
        new_text,
        Some(json!(
            "object.spec.template.?spec.?securityContext.?runAsNonRoot.orValue(false)"
        )),
        "{result}"
    );
}

#[test]
fn inlay_hint_shows_the_variable_type() {
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}});
    let result = feature_request("textDocument/inlayHint", json!({"range": range}));
    assert_eq!(result[0]["label"], ": bool", "{result}");
    assert_eq!(result[0]["position"], emoji_position("few,", 3));
}

#[test]
fn code_action_applies_a_did_you_mean() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/features/typo.yaml";
    // The trailing half-typed `object.spec.` is a syntax error, which would stop the type check.
    let text = EMOJI_POLICY
        .replace("spec.replicas < 5 &&", "spec.replicaz < 5 &&")
        .replace(" && object.spec.\"", "\"");
    open(&mut client, uri, 1, &text);
    let start = text.find("replicaz").unwrap_or(0);
    let at = LineIndex::new(&text).line_col(TextSize::from(start as u32), Encoding::Utf16);
    let position = json!({"line": at.line, "character": at.col});
    let params = json!({"textDocument": {"uri": uri}, "range": {"start": position, "end": position},
        "context": {"diagnostics": []}});
    let result = client.request("textDocument/codeAction", params)["result"].clone();
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    let edit = &result[0]["edit"]["changes"][uri][0];
    assert_eq!(edit["newText"], "replicas", "{result}");
    assert_eq!(edit["range"]["start"], position);
}

#[test]
fn references_of_a_variable() {
    let position = emoji_position("few,", 1);
    let result = feature_request(
        "textDocument/references",
        json!({"position": position,
        "context": {"includeDeclaration": true}}),
    );
    let starts: Vec<Value> = result
        .as_array()
        .map(|a| a.iter().map(|l| l["range"]["start"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(
        starts,
        [emoji_position("few,", 0), emoji_position("few &&", 0)],
        "{result}"
    );
}

#[test]
fn rename_a_variable_after_an_emoji_and_highlight_it() {
    let (mut client, response) = start(utf16_capabilities());
    let capabilities = &response["result"]["capabilities"];
    assert_eq!(capabilities["renameProvider"]["prepareProvider"], true);
    assert_eq!(capabilities["documentHighlightProvider"], true);
    let uri = "file:///tmp/features/policy.yaml";
    open(&mut client, uri, 1, EMOJI_POLICY);
    let at = |position: Value| json!({"textDocument": {"uri": uri}, "position": position});
    let use_site = emoji_position("few &&", 1);
    let prepared =
        client.request("textDocument/prepareRename", at(use_site.clone()))["result"].clone();
    let mut rename = at(use_site.clone());
    rename["newName"] = json!("small");
    let edit = client.request("textDocument/rename", rename)["result"].clone();
    let highlights =
        client.request("textDocument/documentHighlight", at(use_site))["result"].clone();
    let refused = client.request(
        "textDocument/prepareRename",
        at(emoji_position("replicas < 5 &&", 2)),
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    let range = |start: Value, end: Value| json!({"start": start, "end": end});
    let use_range = range(emoji_position("few &&", 0), emoji_position("few &&", 3));
    let definition = range(emoji_position("few,", 0), emoji_position("few,", 3));
    assert_eq!(prepared, json!({"range": use_range, "placeholder": "few"}));
    assert_eq!(
        edit,
        json!({"changes": {uri: [
            {"range": definition, "newText": "small"},
            {"range": use_range, "newText": "small"},
        ]}})
    );
    assert_eq!(
        highlights,
        json!([{"range": definition, "kind": 3}, {"range": use_range, "kind": 2}])
    );
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    let reason = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        reason.contains("`replicas` is a field of `apps.v1.Deployment.spec`"),
        "{refused}"
    );
}

#[test]
fn rename_a_policy_edits_its_binding_in_another_document() {
    let (mut client, _) = start(utf16_capabilities());
    let policy_uri = "file:///tmp/features/policy.yaml";
    let binding_uri = "file:///tmp/features/binding.yaml";
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n\
        metadata: {name: demo-binding}\nspec: {policyName: demo, validationActions: [Deny]}\n";
    open(&mut client, policy_uri, 1, EMOJI_POLICY);
    open(&mut client, binding_uri, 1, binding);
    let params = json!({"textDocument": {"uri": policy_uri},
        "position": emoji_position("demo}", 1), "newName": "small-replicas"});
    let edit = client.request("textDocument/rename", params.clone())["result"].clone();
    let mut bad = params;
    bad["newName"] = json!("Small");
    let refused = client.request("textDocument/rename", bad);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    let line_range = |line: u32, start: u32| json!({"start": {"line": line, "character": start}, "end": {"line": line, "character": start + 4}});
    assert_eq!(
        edit,
        json!({"changes": {
            policy_uri: [{"range": line_range(2, 17), "newText": "small-replicas"}],
            binding_uri: [{"range": line_range(3, 19), "newText": "small-replicas"}],
        }})
    );
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
}

#[test]
fn rename_a_param_kind_edits_the_crd_and_the_params() {
    let (mut client, _) = start(utf16_capabilities());
    let policy_uri = "file:///tmp/features/param-policy.yaml";
    let crd_uri = "file:///tmp/features/crd.yaml";
    let policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n\
        metadata: {name: limits}\nspec:\n  paramKind: {apiVersion: example.com/v1, kind: Limit}\n\
        \x20 validations: [{expression: 'true'}]\n---\napiVersion: example.com/v1\nkind: Limit\nmetadata: {name: l}\n";
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
        metadata: {name: limits.example.com}\nspec:\n  group: example.com\n\
        \x20 names: {kind: Limit, listKind: LimitList, plural: limits}\n  scope: Namespaced\n\
        \x20 versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n";
    open(&mut client, policy_uri, 1, policy);
    open(&mut client, crd_uri, 1, crd);
    let params = json!({"textDocument": {"uri": policy_uri},
        "position": {"line": 4, "character": 51}, "newName": "Quota"});
    let edit = client.request("textDocument/rename", params)["result"].clone();
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    let range = |line: u32, start: u32, end: u32| json!({"start": {"line": line, "character": start}, "end": {"line": line, "character": end}});
    assert_eq!(
        edit,
        json!({"changes": {
            policy_uri: [
                {"range": range(4, 48, 53), "newText": "Quota"},
                {"range": range(8, 6, 11), "newText": "Quota"},
            ],
            crd_uri: [
                {"range": range(5, 16, 21), "newText": "Quota"},
                {"range": range(5, 33, 38), "newText": "Quota"},
            ],
        }})
    );
}

#[test]
fn workspace_symbols_find_open_policies() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/features/policy.yaml";
    open(&mut client, uri, 1, EMOJI_POLICY);
    let result = client.request("workspace/symbol", json!({"query": "dem"}))["result"].clone();
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    assert_eq!(result[0]["name"], "demo", "{result}");
    assert_eq!(result[0]["location"]["uri"], uri);
}

#[test]
fn pull_diagnostics_for_a_client_that_asks() {
    let (mut client, response) = start(json!({"textDocument": {"diagnostic": {}}}));
    assert!(response["result"]["capabilities"]["diagnosticProvider"].is_object());
    let uri = "file:///tmp/features/pulled.yaml";
    open(&mut client, uri, 1, POLICY);
    let result = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    assert_eq!(result["result"]["kind"], "full");
    assert_eq!(result["result"]["items"], expected(POLICY, Encoding::Utf16));
}

#[test]
fn a_pulling_client_loses_the_pushed_diagnostics_of_a_workspace_file_it_opens() {
    // vscode-languageclient keeps pushed and pulled diagnostics in two collections: the list pushed
    // for the closed file must be cleared on open, or it stays beside the pulled one after a fix.
    let dir = TempDir::new("e2e-pull-workspace");
    dir.write("policy.yaml", POLICY_WITH_TYPO);
    let mut client = Client::spawn(BINARY);
    let root = file_uri(dir.path());
    client.initialize(
        json!({"textDocument": {"diagnostic": {}}}),
        json!(root),
        Value::Null,
    );
    let uri = format!("{root}/policy.yaml");
    let pushed = client.diagnostics_where(&uri, |p| p["version"].is_null());
    let errors = expected(POLICY_WITH_TYPO, Encoding::Utf16);
    assert!(errors.as_array().is_some_and(|e| !e.is_empty()));
    assert_eq!(pushed["diagnostics"], errors);
    open(&mut client, &uri, 1, POLICY_WITH_TYPO);
    let cleared = client.diagnostics_at(&uri, 1);
    assert_eq!(cleared["diagnostics"], json!([]));
    let pulled = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(pulled["result"]["items"], errors);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_client_that_pulls_workspace_diagnostics_gets_the_closed_files_and_no_more_pushes() {
    // LSP 3.17 workspace/diagnostic: reports for the files that are not open; once the client
    // pulls them, the server stops pushing them and clears what it pushed at the scan.
    let dir = TempDir::new("e2e-pull-workspace-report");
    dir.write("policy.yaml", POLICY_WITH_TYPO);
    let mut client = Client::spawn(BINARY);
    let root = file_uri(dir.path());
    let response = client.initialize(
        json!({"textDocument": {"diagnostic": {}}}),
        json!(root),
        Value::Null,
    );
    let provider = &response["result"]["capabilities"]["diagnosticProvider"];
    assert_eq!(provider["workspaceDiagnostics"], true, "{response}");
    let uri = format!("{root}/policy.yaml");
    let errors = expected(POLICY_WITH_TYPO, Encoding::Utf16);
    client.diagnostics_where(&uri, |p| p["diagnostics"] == errors);

    let report = client.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = &report["result"]["items"];
    assert_eq!(items.as_array().map(Vec::len), Some(1), "{report}");
    assert_eq!(items[0]["uri"], uri.as_str());
    assert_eq!(items[0]["kind"], "full");
    assert_eq!(items[0]["items"], errors);
    let cleared = client.diagnostics_where(&uri, |p| p["diagnostics"] == json!([]));
    assert!(cleared["version"].is_null(), "{cleared}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_settings_change_asks_a_pulling_client_to_pull_again() {
    // A pulling client asks for diagnostics after its own edits only: new settings must make the
    // server send workspace/diagnostic/refresh, after which a pull reflects them.
    let capabilities = json!({"textDocument": {"diagnostic": {}},
        "workspace": {"diagnostics": {"refreshSupport": true}}});
    let (mut client, _) = start(capabilities);
    let uri = "file:///tmp/pull-refresh/policy.yaml";
    open(&mut client, uri, 1, POLICY_WITH_TYPO);
    let pull = |client: &mut Client| {
        let report = client.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        );
        codes(&json!({"diagnostics": report["result"]["items"]}))
    };
    assert!(pull(&mut client).contains(&"not-supported".to_owned()));
    let settings = json!({"admissionLs": {"diagnostics": {"disabled": ["not-supported"]}}});
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": settings}),
    );
    client.wait_for_server_request("workspace/diagnostic/refresh");
    assert!(!pull(&mut client).contains(&"not-supported".to_owned()));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A policy with errors: no matchConstraints, an unsupported failurePolicy.
const POLICY_WITH_TYPO: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: typo.example.com
spec:
  failurePolicy: Sometimes
  validations:
  - expression: \"true\"
";

#[test]
fn no_pull_diagnostics_for_a_client_that_does_not_ask() {
    let (client, response) = start(utf16_capabilities());
    assert!(response["result"]["capabilities"]["diagnosticProvider"].is_null());
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A policy being written: a key after an emoji, an unsupported value, a validation without its
/// required `expression`.
const YAML_POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  failurePolicy: Sometimes
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  validations:
  - {message: \"😀\", reason: Invalid, expression: \"true\"}
  - message: no expression
";

/// The UTF-16 position of the first `needle` in [`YAML_POLICY`], plus `delta` bytes.
fn yaml_position(needle: &str, delta: usize) -> Value {
    let offset = YAML_POLICY.find(needle).unwrap_or(0) + delta;
    let at = LineIndex::new(YAML_POLICY).line_col(TextSize::from(offset as u32), Encoding::Utf16);
    json!({"line": at.line, "character": at.col})
}

/// The result of one `method` request on [`YAML_POLICY`].
fn yaml_request(method: &str, extra: Value) -> Value {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/features/keys.yaml";
    open(&mut client, uri, 1, YAML_POLICY);
    let mut params = json!({"textDocument": {"uri": uri}});
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    let answer = client.request(method, params);
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    answer["result"].clone()
}

#[test]
fn hover_on_a_policy_key_after_an_emoji_shows_its_schema_doc() {
    let position = yaml_position("reason:", 2);
    let result = yaml_request("textDocument/hover", json!({"position": position}));
    let markdown = result["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("reason: string"), "{result}");
    assert!(markdown.contains("`Forbidden`, `Invalid`"), "{result}");
    assert_eq!(result["range"]["start"], yaml_position("reason:", 0));
    assert_eq!(result["range"]["end"], yaml_position("reason:", 6));
}

#[test]
fn hover_on_a_diagnostic_explains_its_code() {
    let position = yaml_position("Sometimes", 3);
    let result = yaml_request("textDocument/hover", json!({"position": position}));
    let markdown = result["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("**error[not-supported]**"), "{result}");
    assert!(
        markdown.contains("a value outside the allowed set"),
        "{result}"
    );
}

#[test]
fn completion_of_enum_values_and_keys() {
    let position = yaml_position("Sometimes", 0);
    let result = yaml_request("textDocument/completion", json!({"position": position}));
    let labels: Vec<&str> = result
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(labels, ["Fail", "Ignore"], "{result}");
    assert_eq!(result[0]["kind"], 20, "an enum member: {result}");
    assert_eq!(
        result[0]["textEdit"]["range"]["end"],
        yaml_position("Sometimes", 9)
    );

    let position = yaml_position("  - message: no", 4);
    let result = yaml_request("textDocument/completion", json!({"position": position}));
    let expression = result
        .as_array()
        .and_then(|items| items.iter().find(|i| i["label"] == "expression").cloned());
    let expression = expression.unwrap_or_else(|| panic!("no expression key in {result}"));
    assert_eq!(expression["kind"], 10, "a property: {result}");
    assert_eq!(expression["detail"], "string (required)");
}

#[test]
fn code_action_adds_a_missing_required_field() {
    let position = yaml_position("message: no", 0);
    let result = yaml_request(
        "textDocument/codeAction",
        json!({"range": {"start": position, "end": position}, "context": {"diagnostics": []}}),
    );
    let actions = result.as_array().cloned().unwrap_or_default();
    let add = actions
        .iter()
        .find(|a| a["title"] == "Add required field 'expression'")
        .unwrap_or_else(|| panic!("no fix in {result}"));
    let edit = &add["edit"]["changes"]["file:///tmp/features/keys.yaml"][0];
    assert_eq!(edit["newText"], "\n    expression: \"\"", "{result}");
    assert_eq!(edit["range"]["start"], yaml_position("no expression", 13));
}

/// A policy with a two-variable `all` (Kubernetes 1.32+, accepted in new expressions from 1.33):
/// clean for the newest version, `cel-version` for 1.30.
const TWO_VARIABLE_ALL: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: labels}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  validations:
  - expression: \"object.metadata.labels.all(k, v, v != '')\"
";

/// The codes of a `publishDiagnostics`.
fn codes(published: &Value) -> Vec<String> {
    let list = published["diagnostics"].as_array().cloned();
    let codes = list.unwrap_or_default().into_iter();
    codes
        .filter_map(|d| d["code"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn initialization_options_set_the_version_and_the_disabled_codes() {
    let mut client = Client::spawn(BINARY);
    let options = json!({"admissionLs": {"kubernetesVersion": "1.30"}});
    client.initialize(utf16_capabilities(), Value::Null, options);
    let uri = "file:///tmp/options/policy.yaml";
    open(&mut client, uri, 1, TWO_VARIABLE_ALL);
    let published = client.diagnostics_at(uri, 1);
    assert_eq!(codes(&published), ["cel-version"], "{published}");
    let message = published["diagnostics"][0]["message"].as_str();
    assert!(
        message.is_some_and(|m| m.contains("not available in Kubernetes 1.30")),
        "{published}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));

    let mut client = Client::spawn(BINARY);
    let options =
        json!({"kubernetesVersion": "1.30", "diagnostics": {"disabled": ["cel-version"]}});
    client.initialize(utf16_capabilities(), Value::Null, options);
    open(&mut client, uri, 1, TWO_VARIABLE_ALL);
    let published = client.diagnostics_at(uri, 1);
    assert_eq!(published["diagnostics"], json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// `workspace/didChangeConfiguration` without settings: the server asks for section
/// `admissionLs` with `workspace/configuration` and applies the answer.
#[test]
fn configuration_is_pulled_when_the_change_has_no_settings() {
    let (mut client, _) = start(utf16_capabilities());
    client.answer(
        "workspace/configuration",
        json!([{"kubernetesVersion": "1.30"}]),
    );
    let uri = "file:///tmp/pulled-config/policy.yaml";
    open(&mut client, uri, 1, TWO_VARIABLE_ALL);
    let newest = client.diagnostics_at(uri, 1);
    assert_eq!(newest["diagnostics"], json!([]));
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    let published = client.diagnostics_where(uri, |p| {
        !p["diagnostics"].as_array().is_none_or(Vec::is_empty)
    });
    assert_eq!(codes(&published), ["cel-version"], "{published}");
    let asked = client
        .server_requests
        .iter()
        .find(|r| r["method"] == "workspace/configuration")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        asked["params"]["items"],
        json!([{"section": "admissionLs"}]),
        "{asked}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// `schemaPaths` in the settings: a CRD outside the workspace types the policy.
#[test]
fn schema_paths_type_the_policy_with_an_outside_crd() {
    let dir = TempDir::new("e2e-schema-paths");
    let crd = dir.write(
        "schemas/widgets.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              count: {type: integer}\n",
    );
    let policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: widgets}\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}\n  validations:\n  - expression: object.spec.size <= 10\n";
    let mut client = Client::spawn(BINARY);
    let options = json!({"schemaPaths": [crd.display().to_string()]});
    client.initialize(utf16_capabilities(), Value::Null, options);
    let uri = "file:///tmp/schema-paths/policy.yaml";
    open(&mut client, uri, 1, policy);
    // Until the schema paths are read, the rule's resource matches nothing (a warning); then the
    // CRD types the policy.
    let typed = client.diagnostics_where(uri, |p| {
        p["diagnostics"]
            .as_array()
            .is_some_and(|d| d.iter().any(|d| d["code"] == "cel-undefined-field"))
    });
    assert_eq!(codes(&typed), ["cel-undefined-field"], "{typed}");
    let message = typed["diagnostics"][0]["message"].as_str();
    assert!(
        message.is_some_and(|m| m.contains("undefined field 'size'")),
        "{typed}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn save_publishes_the_diagnostics_of_the_current_version_again() {
    let (mut client, _) = start(utf16_capabilities());
    let uri = "file:///tmp/save/policy.yaml";
    open(&mut client, uri, 3, POLICY);
    let opened = client.diagnostics_at(uri, 3);
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    );
    let saved = client.diagnostics_at(uri, 3);
    assert_eq!(saved, opened);
    assert_eq!(saved["diagnostics"], expected(POLICY, Encoding::Utf16));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// Go to definition across open files: a binding's `policyName` to the policy, its
/// `paramRef.name` to the param object (in the namespace the `paramRef` names).
#[test]
fn definition_of_a_binding_s_policy_and_param_object_in_other_files() {
    let policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: limits}\nspec:\n  paramKind: {apiVersion: v1, kind: ConfigMap}\n  validations:\n  - expression: 'true'\n";
    let params = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits-config, namespace: team-a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits-config, namespace: team-b}\n";
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: limits-binding}\nspec:\n  policyName: limits\n  validationActions: [Deny]\n  paramRef: {name: limits-config, namespace: team-b, parameterNotFoundAction: Deny}\n";
    let (mut client, _) = start(utf16_capabilities());
    let uris = [
        "file:///ws/policy.yaml",
        "file:///ws/params.yaml",
        "file:///ws/binding.yaml",
    ];
    for (uri, text) in uris.iter().zip([policy, params, binding]) {
        open(&mut client, uri, 1, text);
    }
    let at = |text: &str, needle: &str| {
        let offset = text.find(needle).unwrap_or(0);
        let at = LineIndex::new(text).line_col(TextSize::from(offset as u32), Encoding::Utf16);
        json!({"line": at.line, "character": at.col})
    };
    let mut definition = |needle: &str| {
        let params = json!({"textDocument": {"uri": uris[2]}, "position": at(binding, needle)});
        client.request("textDocument/definition", params)["result"].clone()
    };
    let to_policy = definition("limits\n");
    let to_params = definition("limits-config");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    assert_eq!(to_policy[0]["targetUri"], uris[0], "{to_policy}");
    assert_eq!(
        to_policy[0]["targetSelectionRange"]["start"],
        at(policy, "limits}")
    );
    let team_b = params.find("---").unwrap_or(0);
    let second = &params[team_b..];
    let start = second.find("limits-config").unwrap_or(0) + team_b;
    let start = LineIndex::new(params).line_col(TextSize::from(start as u32), Encoding::Utf16);
    assert_eq!(to_params.as_array().map(Vec::len), Some(1), "{to_params}");
    assert_eq!(to_params[0]["targetUri"], uris[1], "{to_params}");
    assert_eq!(
        to_params[0]["targetSelectionRange"],
        json!({"start": {"line": start.line, "character": start.col},
            "end": {"line": start.line, "character": start.col + 13}})
    );
}

/// A CRD saved on disk outside the editor (`workspace/didChangeWatchedFiles`): the server asks the
/// client to watch the workspace's YAML files, re-reads the CRD when told it was created, changed
/// or deleted, and checks the open policy again each time.
#[test]
fn crd_changed_on_disk_rechecks_the_open_policy() {
    let dir = TempDir::new("e2e-watch");
    let crd = |field: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: gadgets.example.com}}\nspec:\n  group: example.com\n  names: {{kind: Gadget, plural: gadgets}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              {field}: {{type: integer}}\n"
        )
    };
    let policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: gadgets}\nspec:\n  paramKind: {apiVersion: example.com/v1, kind: Gadget}\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n  validations:\n  - expression: params.spec.size <= 10\n";
    let mut client = Client::spawn(BINARY);
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    client.initialize(capabilities, json!(file_uri(dir.path())), Value::Null);
    let uri = file_uri(&dir.path().join("policy.yaml"));
    open(&mut client, &uri, 1, policy);
    // No CRD yet: params is untyped, with a warning on the paramKind.
    let untyped = client.diagnostics_where(&uri, |p| codes(p) == ["unresolved-reference"]);
    assert_eq!(codes(&untyped), ["unresolved-reference"], "{untyped}");
    let registered = client
        .server_requests
        .iter()
        .any(|r| r["method"] == "client/registerCapability");
    assert!(registered, "{:?}", client.server_requests);

    let crd_path = dir.write("crds/gadgets.yaml", crd("count"));
    let event = |kind: u8| json!({"changes": [{"uri": file_uri(&crd_path), "type": kind}]});
    client.notify("workspace/didChangeWatchedFiles", event(1));
    let typed = client.diagnostics_where(&uri, |p| codes(p) == ["cel-undefined-field"]);
    let message = typed["diagnostics"][0]["message"].as_str();
    assert!(message.is_some_and(|m| m.contains("'size'")), "{typed}");

    std::fs::write(&crd_path, crd("size")).expect("rewrite the CRD");
    client.notify("workspace/didChangeWatchedFiles", event(2));
    let clean = client.diagnostics_where(&uri, |p| codes(p).is_empty());
    assert_eq!(clean["diagnostics"], json!([]));

    std::fs::remove_file(&crd_path).expect("delete the CRD");
    client.notify("workspace/didChangeWatchedFiles", event(3));
    let again = client.diagnostics_where(&uri, |p| codes(p) == ["unresolved-reference"]);
    assert_eq!(codes(&again), ["unresolved-reference"], "{again}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// Param objects in files that are neither open nor policies: the workspace scan reads the files
/// holding objects of the kinds the policies take as params, so a binding's `paramRef.name` leads
/// to its ConfigMap before that file is ever opened.
#[test]
fn scanned_param_object_is_a_definition_target_before_it_is_opened() {
    let dir = TempDir::new("e2e-param-scan");
    dir.write(
        "policy.yaml",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: limits}\nspec:\n  paramKind: {apiVersion: v1, kind: ConfigMap}\n  validations:\n  - expression: 'true'\n",
    );
    let params = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: limits-config\n  namespace: team-a\ndata: {max: \"3\"}\n";
    let params_path = dir.write("config/limits.yaml", params);
    dir.write(
        "config/unrelated.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: limits-config, namespace: team-a}\n",
    );
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: limits-binding}\nspec:\n  policyName: limits\n  validationActions: [Deny]\n  paramRef: {name: limits-config, namespace: team-a, parameterNotFoundAction: Deny}\n";
    let binding_path = dir.write("binding.yaml", binding);
    let mut client = Client::spawn(BINARY);
    client.initialize(
        utf16_capabilities(),
        json!(file_uri(dir.path())),
        Value::Null,
    );
    let uri = file_uri(&binding_path);
    open(&mut client, &uri, 1, binding);
    let offset = binding.find("limits-config").unwrap_or(0);
    let at = LineIndex::new(binding).line_col(TextSize::from(offset as u32), Encoding::Utf16);
    let params_json =
        json!({"textDocument": {"uri": uri}, "position": {"line": at.line, "character": at.col}});
    // The scan runs in the background after `initialized`: ask until it has been read.
    let mut found = Value::Null;
    for _ in 0..100 {
        found = client.request("textDocument/definition", params_json.clone())["result"].clone();
        if found.as_array().is_some_and(|a| !a.is_empty()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{found}");
    assert_eq!(
        found[0]["targetUri"],
        json!(file_uri(&params_path)),
        "{found}"
    );
    assert_eq!(
        found[0]["targetSelectionRange"]["start"],
        json!({"line": 3, "character": 8})
    );
}

/// A param object created on disk (`workspace/didChangeWatchedFiles`) resolves the open binding's
/// `paramRef`, and deleting it brings the warning back.
#[test]
fn param_object_created_on_disk_resolves_the_open_binding() {
    let dir = TempDir::new("e2e-watch-params");
    dir.write(
        "policy.yaml",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: limits}\nspec:\n  paramKind: {apiVersion: v1, kind: ConfigMap}\n  validations:\n  - expression: 'true'\n",
    );
    dir.write(
        "config/other.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: team-a}\n",
    );
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: limits-binding}\nspec:\n  policyName: limits\n  validationActions: [Deny]\n  paramRef: {name: limits-config, namespace: team-a, parameterNotFoundAction: Deny}\n";
    let binding_path = dir.write("binding.yaml", binding);
    let mut client = Client::spawn(BINARY);
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    client.initialize(capabilities, json!(file_uri(dir.path())), Value::Null);
    let uri = file_uri(&binding_path);
    open(&mut client, &uri, 1, binding);
    // Once the scan has read `other`, the workspace holds ConfigMaps but not `limits-config`.
    let names_the_param = |p: &Value| {
        let message = p["diagnostics"][0]["message"].as_str();
        codes(p) == ["unresolved-reference"] && message.is_some_and(|m| m.contains("limits-config"))
    };
    let missing = client.diagnostics_where(&uri, names_the_param);
    assert!(names_the_param(&missing), "{missing}");
    // Earlier publishes (from before the scan) must not answer the waits below.
    std::thread::sleep(std::time::Duration::from_millis(300));
    client.clear_pending();

    let created = dir.write(
        "config/limits.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits-config, namespace: team-a}\n",
    );
    let event = |kind: u8| json!({"changes": [{"uri": file_uri(&created), "type": kind}]});
    client.notify("workspace/didChangeWatchedFiles", event(1));
    let resolved = client.diagnostics_where(&uri, |p| codes(p).is_empty());
    assert_eq!(resolved["diagnostics"], json!([]));

    std::fs::remove_file(&created).expect("delete the ConfigMap");
    client.notify("workspace/didChangeWatchedFiles", event(3));
    let again = client.diagnostics_where(&uri, names_the_param);
    assert!(names_the_param(&again), "{again}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A document under a chart's `templates/` (a `Chart.yaml` on the disk above it) is read as a
/// Helm template: its actions are no syntax error and the CEL around them is checked; the same
/// text outside a chart is plain YAML.
#[test]
fn a_chart_template_is_masked_and_a_plain_file_is_not() {
    let dir = TempDir::new("e2e-helm");
    dir.write(
        "chart/Chart.yaml",
        "apiVersion: v2\nname: c\nversion: 1.0.0\n",
    );
    let template = format!(
        "{{{{- if .Values.enabled }}}}\n{}  - expression: \"object.x ==\"\n{{{{- end }}}}\n",
        POLICY.replace("replica-limit.example.com", "{{ .Release.Name }}")
    );
    let (mut client, _) = start(utf16_capabilities());
    let codes = |client: &mut Client, uri: &str| -> Vec<String> {
        let published = client.diagnostics_at(uri, 1);
        published["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["code"].as_str().map(str::to_owned))
            .collect()
    };
    let in_chart = format!("{}/chart/templates/policy.yaml", file_uri(dir.path()));
    open(&mut client, &in_chart, 1, &template);
    assert_eq!(codes(&mut client, &in_chart), ["cel-syntax"]);
    let plain = format!("{}/elsewhere/templates/policy.yaml", file_uri(dir.path()));
    open(&mut client, &plain, 1, &template);
    assert!(codes(&mut client, &plain).contains(&"yaml-syntax".to_owned()));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
