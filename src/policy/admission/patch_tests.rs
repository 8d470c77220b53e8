//! RFC 6902 apply and diff: escaped keys, `-` appends, failing `test`, error texts, and diffs that
//! turn the input into the output.

use serde_json::json;

use super::patch::{Operation, PatchError, apply, diff};

fn op(op: &str, path: &str, value: Option<serde_json::Value>) -> Operation {
    Operation {
        op: op.into(),
        path: path.into(),
        from: String::new(),
        value,
    }
}

#[test]
fn escaped_keys_and_appends() {
    let doc = json!({"metadata": {"labels": {}}, "list": [1]});
    let ops = [
        op(
            "add",
            "/metadata/labels/example.com~1team",
            Some(json!("a")),
        ),
        op("add", "/metadata/labels/t~0x", Some(json!("b"))),
        op("add", "/list/-", Some(json!(2))),
        op("add", "/list/0", Some(json!(0))),
    ];
    let out = apply(&doc, &ops);
    assert_eq!(
        out,
        Ok(
            json!({"metadata": {"labels": {"example.com/team": "a", "t~x": "b"}}, "list": [0, 1, 2]})
        )
    );
}

#[test]
fn failing_test_and_errors() {
    let doc = json!({"spec": {"replicas": 1}});
    let ops = [op("test", "/spec/replicas", Some(json!(2)))];
    assert_eq!(apply(&doc, &ops), Err(PatchError::TestFailed));
    let ops = [op("replace", "/spec/containers/-", Some(json!({})))];
    assert_eq!(
        apply(&doc, &ops),
        Err(PatchError::Failed(
            "replace operation does not apply: doc is missing key: /spec/containers/-: missing value".into()
        ))
    );
    let ops = [
        op("remove", "/spec/replicas", None),
        op("remove", "/spec/replicas", None),
    ];
    assert!(matches!(apply(&doc, &ops), Err(PatchError::Failed(_))));
}

#[test]
fn diff_turns_input_into_output() {
    let cases = [
        (
            json!({"a": 1, "b": [1, 2, 3]}),
            json!({"a": 2, "b": [1], "c/d": {"e": null}}),
        ),
        (
            json!({"x": [{"n": 1}]}),
            json!({"x": [{"n": 1, "m": 2}, {"n": 3}]}),
        ),
        (json!([1, 2]), json!({"a": 1})),
    ];
    for (from, to) in cases {
        let ops: Vec<Operation> = diff(&from, &to)
            .iter()
            .map(|o| Operation {
                op: o["op"].as_str().unwrap_or("").into(),
                path: o["path"].as_str().unwrap_or("").into(),
                from: String::new(),
                value: o.get("value").cloned(),
            })
            .collect();
        assert_eq!(apply(&from, &ops), Ok(to.clone()), "{from} → {to}");
    }
}
