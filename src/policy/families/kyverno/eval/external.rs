//! The recorded answers of Kyverno's calls that reach outside the cluster's objects: HTTP
//! responses for `http.Get`/`http.Post` (a suite's `apiCallResponses`) and the data of global
//! context entries for `globalContext.Get` (a suite's `globalContextEntries`), read as Kyverno's
//! CLI reads them (kyverno/kyverno `cmd/cli/kubectl-kyverno/apis/v1alpha1/test.go`,
//! `commands/test/test.go` `buildHTTPMockIndex`, `store/gctx_resolve.go`,
//! `pkg/cel/libs/http_mock.go`, `pkg/cel/libs/fake_context.go`). `kyverno apply` has no such
//! data, so a `--context` Context file may carry the same lists under `spec` (admission-ls
//! fields).

use serde_json::{Map, Value as Json, json};

use crate::policy::admission::json::str_at;

/// The recorded HTTP responses and global context entries, with where each came from.
#[derive(Debug, Default)]
pub struct External {
    /// `METHOD:url` (or a bare `url`, matching any method) → `{body, statusCode}`.
    responses: Vec<(String, Json)>,
    /// Where the responses come from, when any list was given.
    http_source: Option<String>,
    /// Entry name → its resolved data (after `fieldPath` and `projections`), or why it has none.
    globals: Vec<(String, Result<Json, String>)>,
    /// Where the entries come from, when any list was given.
    global_source: Option<String>,
}

/// Where a call's data can be given, for the error of a call without data.
const HTTP_HINT: &str = "give its response in the suite's apiCallResponses (url, method, response.body, response.statusCode), or in the spec.apiCallResponses of the Context given with `eval --context FILE` (an admission-ls field)";
const GLOBAL_HINT: &str = "give the entry in the suite's globalContextEntries (name, data or resources, projections), or in the spec.globalContextEntries of the Context given with `eval --context FILE` (an admission-ls field)";

impl External {
    /// Reads the lists `apiCallResponses` and `globalContextEntries` of `holder` (a Test
    /// document, or a Context's `spec`); `label` names a field where it was given.
    pub fn read(&mut self, holder: &Json, label: &dyn Fn(&str) -> String) {
        if let Some(Json::Array(entries)) = holder.get("apiCallResponses") {
            self.http_source = Some(label("apiCallResponses"));
            self.responses.extend(entries.iter().filter_map(response));
        }
        if let Some(Json::Array(entries)) = holder.get("globalContextEntries") {
            self.global_source = Some(label("globalContextEntries"));
            for entry in entries {
                let name = str_at(entry, &["name"]).trim().to_string();
                self.globals.push((name, resolve(entry)));
            }
        }
    }

    /// `http.Get`/`http.Post` of `url`: the recorded `{body, statusCode}`, the method's entry
    /// first, then one for any method (`findMockResponse`).
    pub fn http(&self, call: &str, method: &str, url: &str) -> Result<Json, String> {
        let Some(source) = &self.http_source else {
            return Err(format!("{call}: no data; {HTTP_HINT}"));
        };
        let keyed = format!("{method}:{url}");
        let found = self
            .responses
            .iter()
            .find(|(key, _)| *key == keyed)
            .or_else(|| self.responses.iter().find(|(key, _)| key == url));
        match found {
            Some((_, response)) => Ok(response.clone()),
            // The CLI would send the request; offline there is no answer.
            None => Err(format!(
                "{call}: no recorded response for {method} {url} in {source}"
            )),
        }
    }

    /// `globalContext.Get(name, projection)` as the CLI's fake context answers it: an entry
    /// the list does not have is null; a projection is a key of the entry's data.
    pub fn global(&self, call: &str, name: &str, projection: &str) -> Result<Json, String> {
        if self.global_source.is_none() {
            return Err(format!("{call}: no data; {GLOBAL_HINT}"));
        }
        let Some((_, data)) = self.globals.iter().find(|(n, _)| n == name) else {
            return Ok(Json::Null);
        };
        let data = data.as_ref().map_err(|e| format!("{call}: {e}"))?;
        if projection.is_empty() {
            return Ok(data.clone());
        }
        match data {
            Json::Object(map) => map.get(projection).cloned().ok_or_else(|| {
                format!(
                    "failed to get global reference: projection \"{projection}\" not found in global context entry \"{name}\""
                )
            }),
            _ => Err(format!(
                "failed to get global reference: projection \"{projection}\" not found in global context entry \"{name}\": stored value is not an object"
            )),
        }
    }
}

/// What Kyverno's CLI refuses in a Test's lists before running it, in its words (the first
/// problem, as `ValidateAPICallResponses` and `ValidateGlobalContextEntries` return it).
pub fn problem(test: &Json) -> Option<String> {
    let list = |field: &str| match test.get(field) {
        Some(Json::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    let responses = list("apiCallResponses");
    let mut seen = Vec::new();
    for (i, entry) in responses.iter().enumerate() {
        if let Some(problem) = response_problem(i, entry) {
            return Some(problem);
        }
        let (key, _) = response(entry)?;
        if seen.contains(&key) {
            let url = resolved_url(entry);
            return Some(format!(
                "apiCallResponses: duplicate entry for \"{url}\" (key \"{key}\") — each method+url combination must be unique"
            ));
        }
        seen.push(key);
    }
    let mut names = Vec::new();
    for entry in list("globalContextEntries") {
        if let Some(problem) = entry_problem(&entry, &names) {
            return Some(problem);
        }
        names.push(str_at(&entry, &["name"]).trim().to_string());
    }
    None
}

/// `validateAPICallResponseEntry`, for the checks that need no URL parser beyond the scheme and
/// host.
fn response_problem(i: usize, entry: &Json) -> Option<String> {
    let (url, path) = (
        str_at(entry, &["url"]).trim(),
        str_at(entry, &["urlPath"]).trim(),
    );
    if url.is_empty() && path.is_empty() {
        return Some(format!(
            "apiCallResponses[{i}]: either url or urlPath is required"
        ));
    }
    if !url.is_empty() && !path.is_empty() {
        return Some(format!(
            "apiCallResponses[{i}]: url and urlPath are mutually exclusive"
        ));
    }
    if !url.is_empty() {
        let Some((scheme, rest)) = url.split_once("://") else {
            return Some(format!(
                "apiCallResponses[{i}]: url \"{url}\" must be an absolute https/http URL"
            ));
        };
        if scheme != "http" && scheme != "https" {
            return Some(format!(
                "apiCallResponses[{i}]: url \"{url}\" must be an absolute https/http URL"
            ));
        }
        if rest.split(['/', '?', '#']).next().unwrap_or("").is_empty() {
            return Some(format!(
                "apiCallResponses[{i}]: url \"{url}\" has scheme but no host"
            ));
        }
    }
    if !path.is_empty() && !path.starts_with('/') {
        return Some(format!(
            "apiCallResponses[{i}]: urlPath \"{path}\" must be an absolute path starting with '/'"
        ));
    }
    let method = str_at(entry, &["method"]).trim().to_ascii_uppercase();
    if !matches!(method.as_str(), "" | "GET" | "POST") {
        return Some(format!("apiCallResponses[{i}]: method must be GET or POST"));
    }
    let label = if url.is_empty() { path } else { url };
    let response = entry.get("response");
    match response.and_then(|r| r.get("body")) {
        None | Some(Json::Null) => {
            return Some(format!(
                "apiCallResponses[{i}] \"{label}\": response.body is required"
            ));
        }
        Some(Json::Object(_)) => {}
        Some(_) => {
            return Some(format!(
                "apiCallResponses[{i}] \"{label}\": response.body must be a JSON object"
            ));
        }
    }
    let status = response
        .and_then(|r| r.get("statusCode"))
        .and_then(Json::as_i64)
        .unwrap_or(0);
    if status != 0 && !(100..=599).contains(&status) {
        return Some(format!(
            "apiCallResponses[{i}] \"{label}\": statusCode {status} must be between 100 and 599"
        ));
    }
    None
}

/// `ValidateGlobalContextEntries` for one entry, given the names before it.
fn entry_problem(entry: &Json, names: &[String]) -> Option<String> {
    let name = str_at(entry, &["name"]).trim();
    if name.is_empty() {
        return Some("globalContextEntries: name is required".to_string());
    }
    if names.iter().any(|n| n == name) {
        return Some(format!("globalContextEntries: duplicate name \"{name}\""));
    }
    if let Some(Json::Array(projections)) = entry.get("projections") {
        for p in projections {
            let key = str_at(p, &["name"]).trim();
            if key.is_empty() {
                return Some(format!(
                    "globalContextEntries entry \"{name}\": projection name is required"
                ));
            }
            if str_at(p, &["path"]).trim().is_empty() {
                return Some(format!(
                    "globalContextEntries entry \"{name}\" projection \"{key}\": path is required"
                ));
            }
        }
    }
    let data = !matches!(entry.get("data"), None | Some(Json::Null));
    let sources = [
        data,
        entry.get("resources").is_some(),
        entry.get("resourceFiles").is_some(),
    ];
    match sources.iter().filter(|s| **s).count() {
        0 => Some(format!(
            "globalContextEntries entry \"{name}\": one of data, resources, or resourceFiles is required"
        )),
        1 if data && !entry.get("data").is_some_and(Json::is_object) => Some(format!(
            "globalContextEntries entry \"{name}\": data must be a JSON object"
        )),
        1 => None,
        _ => Some(format!(
            "globalContextEntries entry \"{name}\": data, resources, and resourceFiles are mutually exclusive"
        )),
    }
}

/// An `apiCallResponses` entry as its index key and wrapped response (`buildHTTPMockIndex`,
/// `wrapHTTPResponse`: a status of 0 or none is 200).
fn response(entry: &Json) -> Option<(String, Json)> {
    let url = resolved_url(entry);
    if url.is_empty() {
        return None;
    }
    let method = str_at(entry, &["method"]).trim().to_ascii_uppercase();
    let key = if method.is_empty() {
        url.to_string()
    } else {
        format!("{method}:{url}")
    };
    let body = entry
        .get("response")
        .and_then(|r| r.get("body"))
        .cloned()
        .unwrap_or(Json::Null);
    let status = match entry
        .get("response")
        .and_then(|r| r.get("statusCode"))
        .and_then(Json::as_i64)
    {
        None | Some(0) => 200,
        Some(code) => code,
    };
    Some((key, json!({ "body": body, "statusCode": status })))
}

/// `url`, else `urlPath` (`ResolvedURL`).
fn resolved_url(entry: &Json) -> &str {
    match str_at(entry, &["url"]).trim() {
        "" => str_at(entry, &["urlPath"]).trim(),
        url => url,
    }
}

/// An entry's data: `resources` (already read from `resourceFiles` by the suite) as a list,
/// else `data`, then its `fieldPath` and `projections` (`resolveGlobalContextMockData`).
fn resolve(entry: &Json) -> Result<Json, String> {
    let name = str_at(entry, &["name"]);
    let mut root = match (entry.get("resources"), entry.get("data")) {
        (Some(Json::Array(items)), _) => Json::Array(items.clone()),
        (_, Some(data)) => data.clone(),
        _ => Json::Null,
    };
    let field_path = str_at(entry, &["fieldPath"]);
    if !field_path.is_empty() {
        root = search(field_path, &root)
            .map_err(|e| format!("globalContextEntries \"{name}\" fieldPath: {e}"))?;
    }
    let Some(Json::Array(projections)) = entry.get("projections") else {
        return Ok(root);
    };
    let mut out = Map::new();
    for projection in projections {
        let (key, path) = (str_at(projection, &["name"]), str_at(projection, &["path"]));
        let value = search(path, &root).map_err(|e| {
            format!("globalContextEntries \"{name}\" projection \"{key}\" path \"{path}\": {e}")
        })?;
        out.insert(key.to_string(), value);
    }
    Ok(Json::Object(out))
}

/// A JMESPath of field names (`a.b.c`, `@`) over `root`: a missing field is null, as in
/// JMESPath. Other expressions are refused rather than guessed.
fn search(path: &str, root: &Json) -> Result<Json, String> {
    let path = path.trim();
    if path == "@" {
        return Ok(root.clone());
    }
    let mut current = root;
    for field in path.split('.') {
        let field = field.trim();
        let simple = field
            .chars()
            .enumerate()
            .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
        if field.is_empty() || !simple {
            return Err(format!(
                "admission-ls evaluates JMESPath field paths only (a.b.c), not {path:?}"
            ));
        }
        match current.get(field) {
            Some(next) => current = next,
            None => return Ok(Json::Null),
        }
    }
    Ok(current.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_document() -> Json {
        json!({
            "apiCallResponses": [
                {"url": "https://a.example/x", "method": "POST", "response": {"body": {"ok": true}}},
                {"url": "https://a.example/y", "response": {"body": {"ok": false}, "statusCode": 503}}
            ],
            "globalContextEntries": [
                {"name": "d", "data": {"deployments": [{"name": "a"}]}, "projections": [{"name": "items", "path": "deployments"}]},
                {"name": "r", "resources": [{"kind": "Pod"}]},
                {"name": "j", "data": {"a": 1}, "fieldPath": "a[0]"}
            ]
        })
    }

    #[test]
    fn responses_match_by_method_then_by_url_alone() {
        let mut external = External::default();
        external.read(&test_document(), &|f| format!("the suite's {f}"));
        let post = external.http("c", "POST", "https://a.example/x");
        assert_eq!(post, Ok(json!({"body": {"ok": true}, "statusCode": 200})));
        assert!(external.http("c", "GET", "https://a.example/x").is_err());
        let any = external.http("c", "GET", "https://a.example/y");
        assert_eq!(any, Ok(json!({"body": {"ok": false}, "statusCode": 503})));
    }

    #[test]
    fn entries_resolve_projections_and_unknown_names_are_null() {
        let mut external = External::default();
        external.read(&test_document(), &|f| format!("the suite's {f}"));
        let items = external.global("c", "d", "items");
        assert_eq!(items, Ok(json!([{"name": "a"}])));
        assert_eq!(external.global("c", "r", ""), Ok(json!([{"kind": "Pod"}])));
        assert_eq!(external.global("c", "nope", ""), Ok(Json::Null));
        assert!(external.global("c", "d", "other").is_err());
        let refused = external.global("c", "j", "").unwrap_err();
        assert!(refused.contains("JMESPath field paths only"), "{refused}");
    }

    #[test]
    fn what_the_cli_refuses_before_a_run_is_said_in_its_words() {
        assert_eq!(problem(&test_document()), None);
        let refused = |doc: Json| problem(&doc).unwrap_or_default();
        expect_test::expect![[
            r#"apiCallResponses[0]: url "ftp://x/y" must be an absolute https/http URL"#
        ]]
        .assert_eq(&refused(
            json!({"apiCallResponses": [{"url": "ftp://x/y", "response": {"body": {}}}]}),
        ));
        expect_test::expect![[
            r#"apiCallResponses[0] "https://x/y": response.body must be a JSON object"#
        ]]
        .assert_eq(&refused(
            json!({"apiCallResponses": [{"url": "https://x/y", "response": {"body": [1]}}]}),
        ));
        let twice = json!({"url": "https://x/y", "method": "get", "response": {"body": {}}});
        expect_test::expect![[r#"apiCallResponses: duplicate entry for "https://x/y" (key "GET:https://x/y") — each method+url combination must be unique"#]]
            .assert_eq(&refused(json!({"apiCallResponses": [twice, twice]})));
        expect_test::expect![[r#"globalContextEntries entry "g": data, resources, and resourceFiles are mutually exclusive"#]]
            .assert_eq(&refused(json!({"globalContextEntries": [{"name": "g", "data": {}, "resources": []}]})));
        expect_test::expect![[r#"globalContextEntries entry "g": one of data, resources, or resourceFiles is required"#]]
            .assert_eq(&refused(json!({"globalContextEntries": [{"name": "g"}]})));
    }

    #[test]
    fn calls_without_lists_name_the_fields() {
        let external = External::default();
        let http = external.http("http.Get('u')", "GET", "u").unwrap_err();
        assert!(http.contains("http.Get('u'): no data"), "{http}");
        assert!(http.contains("apiCallResponses"), "{http}");
        let global = external.global("globalContext.Get('g', '')", "g", "");
        let global = global.unwrap_err();
        assert!(global.contains("globalContextEntries"), "{global}");
    }
}
