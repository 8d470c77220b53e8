//! RFC 6902 JSON Patch: applying a patch the way the API server's `evanphx/json-patch` does (with the
//! same error texts, and a failing `test` reported separately so the caller can make the whole
//! patch a no-op), and computing a patch from one document to another for output.

use serde_json::{Map, Value as Json};

/// One patch operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    /// `add`, `remove`, `replace`, `move`, `copy` or `test`.
    pub op: String,
    /// The JSON pointer it applies to.
    pub path: String,
    /// The source pointer of `move` and `copy`.
    pub from: String,
    /// The value of `add`, `replace` and `test`.
    pub value: Option<Json>,
}

/// Why a patch did not apply.
#[derive(Clone, Debug, PartialEq)]
pub enum PatchError {
    /// A `test` operation did not match: the API server then leaves the object unchanged.
    TestFailed,
    /// Any other failure, worded as `evanphx/json-patch` does.
    Failed(String),
}

/// Applies `ops` to `doc`, all or nothing.
pub fn apply(doc: &Json, ops: &[Operation]) -> Result<Json, PatchError> {
    let mut out = doc.clone();
    for op in ops {
        apply_one(&mut out, op)?;
    }
    Ok(out)
}

fn failed(text: String) -> PatchError {
    PatchError::Failed(text)
}

fn apply_one(doc: &mut Json, op: &Operation) -> Result<(), PatchError> {
    let value = || op.value.clone().unwrap_or(Json::Null);
    match op.op.as_str() {
        "add" => add(doc, &op.path, value()).map_err(|_| {
            failed(format!(
                "add operation does not apply: doc is missing path: \"{}\": missing value",
                op.path
            ))
        }),
        "remove" => remove(doc, &op.path).map(|_| ()).map_err(|_| {
            failed(format!(
                "remove operation does not apply: doc is missing path: \"{}\": missing value",
                op.path
            ))
        }),
        "replace" => {
            let slot = pointer_mut(doc, &op.path).ok_or_else(|| {
                failed(format!(
                    "replace operation does not apply: doc is missing key: {}: missing value",
                    op.path
                ))
            })?;
            *slot = value();
            Ok(())
        }
        "move" => {
            let moved = remove(doc, &op.from).map_err(|_| {
                failed(format!(
                    "move operation does not apply: doc is missing from path: {}: missing value",
                    op.from
                ))
            })?;
            add(doc, &op.path, moved)
                .map_err(|_| failed(format!("move operation does not apply: doc is missing destination path: {}: missing value", op.path)))
        }
        "copy" => {
            let copied = doc.pointer(&op.from).cloned().ok_or_else(|| {
                failed(format!("copy operation does not apply: doc is missing from path: \"{}\": missing value", op.from))
            })?;
            add(doc, &op.path, copied)
                .map_err(|_| failed(format!("copy operation does not apply: doc is missing destination path: {}: missing value", op.path)))
        }
        "test" => match doc.pointer(&op.path) {
            Some(v) if *v == value() => Ok(()),
            None if op.value.as_ref().is_none_or(Json::is_null) => Ok(()),
            _ => Err(PatchError::TestFailed),
        },
        other => Err(failed(format!("Unexpected kind: {other}"))),
    }
}

/// Splits a pointer into its parent pointer and its last, unescaped token.
fn split(path: &str) -> Option<(&str, String)> {
    let at = path.rfind('/')?;
    let token = path[at + 1..].replace("~1", "/").replace("~0", "~");
    Some((&path[..at], token))
}

fn pointer_mut<'a>(doc: &'a mut Json, path: &str) -> Option<&'a mut Json> {
    if path.is_empty() {
        return Some(doc);
    }
    doc.pointer_mut(path)
}

fn add(doc: &mut Json, path: &str, value: Json) -> Result<(), ()> {
    if path.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (parent, token) = split(path).ok_or(())?;
    match pointer_mut(doc, parent).ok_or(())? {
        Json::Object(map) => {
            map.insert(token, value);
            Ok(())
        }
        Json::Array(items) => {
            let index = if token == "-" {
                items.len()
            } else {
                index_of(&token).filter(|i| *i <= items.len()).ok_or(())?
            };
            items.insert(index, value);
            Ok(())
        }
        _ => Err(()),
    }
}

fn remove(doc: &mut Json, path: &str) -> Result<Json, ()> {
    let (parent, token) = split(path).ok_or(())?;
    match pointer_mut(doc, parent).ok_or(())? {
        Json::Object(map) => map.remove(&token).ok_or(()),
        Json::Array(items) => {
            let index = index_of(&token).filter(|i| *i < items.len()).ok_or(())?;
            Ok(items.remove(index))
        }
        _ => Err(()),
    }
}

fn index_of(token: &str) -> Option<usize> {
    let leading_zero = token.len() > 1 && token.starts_with('0');
    (!leading_zero && token.bytes().all(|b| b.is_ascii_digit()))
        .then(|| token.parse().ok())
        .flatten()
}

/// Escapes one pointer token (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The operations that turn `from` into `to`, as JSON (deterministic: keys in map order, removals
/// from the end of lists first).
pub fn diff(from: &Json, to: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    diff_at("", from, to, &mut out);
    out
}

fn op(op: &str, path: &str, value: Option<&Json>) -> Json {
    let mut map = Map::new();
    map.insert("op".into(), Json::from(op));
    map.insert("path".into(), Json::from(path));
    if let Some(v) = value {
        map.insert("value".into(), v.clone());
    }
    Json::Object(map)
}

fn diff_at(path: &str, from: &Json, to: &Json, out: &mut Vec<Json>) {
    if from == to {
        return;
    }
    match (from, to) {
        (Json::Object(a), Json::Object(b)) => {
            for (key, old) in a {
                let child = format!("{path}/{}", escape(key));
                match b.get(key) {
                    Some(new) => diff_at(&child, old, new, out),
                    None => out.push(op("remove", &child, None)),
                }
            }
            for (key, new) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                out.push(op("add", &format!("{path}/{}", escape(key)), Some(new)));
            }
        }
        (Json::Array(a), Json::Array(b)) => {
            for (i, (old, new)) in a.iter().zip(b).enumerate() {
                diff_at(&format!("{path}/{i}"), old, new, out);
            }
            for i in (b.len()..a.len()).rev() {
                out.push(op("remove", &format!("{path}/{i}"), None));
            }
            for new in b.iter().skip(a.len()) {
                out.push(op("add", &format!("{path}/-"), Some(new)));
            }
        }
        _ => out.push(op("replace", path, Some(to))),
    }
}
