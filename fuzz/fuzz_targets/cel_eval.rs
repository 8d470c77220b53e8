//! Parse + evaluate with a small cost budget against a small Kubernetes-like object. The input is
//! `expression \0 json`: without a NUL (or with unusable JSON) the fixed object below is used.
#![no_main]

use admission_ls::cel;
use admission_ls::cel::eval::{Activation, EvalOptions, Value, evaluate};
use libfuzzer_sys::fuzz_target;

const OBJECT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
 "metadata":{"name":"web","namespace":"prod","labels":{"team":"a","env":"prod"}},
 "spec":{"replicas":3,"template":{"spec":{"containers":[
   {"name":"app","image":"registry.example.com/app:1.2","resources":{"limits":{"cpu":"500m","memory":"1Gi"}}},
   {"name":"side","image":"busybox","ports":[{"containerPort":8080}]}]}}}}"#;

fn object(json: &[u8]) -> Value {
    let parsed = serde_json::from_slice(json)
        .ok()
        .or_else(|| serde_json::from_str(OBJECT).ok());
    parsed
        .and_then(|json| Value::from_json(&json).ok())
        .unwrap_or(Value::Null)
}

fuzz_target!(|data: &[u8]| {
    let (expr, json) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    let Ok(src) = std::str::from_utf8(expr) else {
        return;
    };
    let parsed = cel::parse(src);
    if !parsed.is_ok() {
        return;
    }
    let object = object(json);
    let mut activation = Activation::new();
    activation
        .bind("object", object.clone())
        .bind("oldObject", object);
    // A small budget keeps each run short; cost errors are expected results, not findings.
    let options = EvalOptions {
        cost_limit: Some(20_000),
        ..EvalOptions::default()
    };
    let _ = evaluate(&parsed.ast, &activation, &options);
});
