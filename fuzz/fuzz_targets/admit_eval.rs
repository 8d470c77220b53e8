//! Admission evaluation as the `eval` command runs it (`ide::run::evaluate`): the input is
//! `policy file \0 object document`, both decoded lossily; without a NUL a fixed Deployment is the
//! object. Bad input must come back as `Err(message)` or an outcome, never a panic or a hang (the
//! evaluator's cost limits bound every expression).
#![no_main]

use admission_ls::ide::run::{EvalRequest, evaluate};
use libfuzzer_sys::fuzz_target;

const OBJECT: &str = "apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod, labels: {team: a}}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - {name: app, image: registry.example.com/app:1}
";

fuzz_target!(|data: &[u8]| {
    let (policy, object) = match data.iter().position(|b| *b == 0) {
        Some(i) => (
            &data[..i],
            String::from_utf8_lossy(&data[i + 1..]).into_owned(),
        ),
        None => (data, OBJECT.to_string()),
    };
    let request = EvalRequest {
        policy_path: "fuzz.yaml".into(),
        policy_text: String::from_utf8_lossy(policy).into_owned(),
        object: Some(object),
        ..EvalRequest::default()
    };
    let _ = evaluate(&request);
});
