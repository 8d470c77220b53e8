//! In-process throughput per expression: parse + typed check against the bundled Deployment schema
//! (the admission environment of Kubernetes 1.31), and evaluation of the parsed expression against
//! a Deployment object with the API server's per-call cost limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use admission_ls::cel::check::{AdmissionVariables, Env, SharedProvider, check};
use admission_ls::cel::eval::{Activation, EvalOptions, Value, evaluate};
use admission_ls::cel::{parse, types::Type};
use admission_ls::schema::{Gvk, SchemaTypes};
use serde_json::json;

const EXPRESSIONS: &[&str] = &[
    "object.spec.replicas <= 5",
    "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
    "has(object.metadata.labels) && 'team' in object.metadata.labels",
    "object.metadata.name.matches('^[a-z0-9-]+$') && size(object.metadata.name) < 64",
    "object.spec.template.spec.containers.map(c, c.name).size() == 1",
];

fn env() -> Env {
    let types = Arc::new(SchemaTypes::new(31));
    let object = types
        .kind_type(&Gvk::new("apps", "v1", "Deployment"))
        .unwrap_or(Type::Dyn);
    let mut env = Env::kubernetes(31, false);
    let provider: SharedProvider = types;
    env.push_provider(provider);
    env.declare_admission(&AdmissionVariables {
        object,
        params: None,
        variables: None,
        authorizer: true,
    });
    env
}

fn deployment() -> Value {
    let containers: Vec<_> = (0..3)
        .map(
            |i| json!({"name": format!("c{i}"), "image": format!("registry.example.com/app{i}:1")}),
        )
        .collect();
    let object = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web-1", "labels": {"team": "a"}},
        "spec": {"replicas": 3, "template": {"spec": {"containers": containers}}}});
    Value::from_json(&object).unwrap_or(Value::Null)
}

/// Median and 95th percentile of the time per call of `work`, over 40 batches of 200 calls.
fn per_call(mut work: impl FnMut()) -> (Duration, Duration) {
    let mut batches: Vec<Duration> = (0..40)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..200 {
                work();
            }
            start.elapsed() / 200
        })
        .collect();
    batches.sort();
    let p95 = (batches.len() * 95).div_ceil(100).saturating_sub(1);
    (batches[batches.len() / 2], batches[p95])
}

/// `median µs (p95 µs)`.
fn micros((median, p95): (Duration, Duration)) -> String {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    format!("{:.3} µs (p95 {:.3})", us(median), us(p95))
}

/// Adds one row per expression and measurement through `add(what, value, note)`.
pub fn rows(add: &mut dyn FnMut(&str, String, &str)) {
    let env = env();
    let object = deployment();
    let mut activation = Activation::new();
    activation
        .bind("object", object.clone())
        .bind("oldObject", object);
    let options = EvalOptions::default();
    for expression in EXPRESSIONS {
        let checked = per_call(|| {
            let parsed = parse(expression);
            std::hint::black_box(check(&parsed.ast, &env));
        });
        let parsed = parse(expression);
        let evaluated = per_call(|| {
            std::hint::black_box(evaluate(&parsed.ast, &activation, &options));
        });
        let short: String = expression.chars().take(60).collect();
        add(
            &format!("parse + typed check: `{short}`"),
            micros(checked),
            "target ≤ 3 µs (issue 15)",
        );
        add(
            &format!("evaluate: `{short}`"),
            micros(evaluated),
            "Deployment with 3 containers",
        );
    }
}
