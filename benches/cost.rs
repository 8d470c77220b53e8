//! Benchmark of the static cost estimator (`cel::cost`): the time to estimate one checked
//! expression, over a set of typical admission expressions (comprehensions, string and Kubernetes
//! library calls). Parsing and checking are done once, outside the measurement.
//! Run with `cargo bench --bench cost`.

#[path = "support/stats.rs"]
mod stats;

use std::time::Instant;

use admission_ls::cel::check::{Env, check};
use admission_ls::cel::cost::{NoSizes, estimate};
use admission_ls::cel::parse;
use admission_ls::cel::types::Type;
use stats::{Stats, header, row};

const EXPRESSIONS: &[&str] = &[
    "object.spec.replicas <= 5",
    "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
    "object.spec.containers.all(c, object.spec.containers.all(d, c == d || c.name != d.name))",
    "object.metadata.labels.exists(k, k.matches('^team-[a-z]+$'))",
    "quantity(object.spec.resources.limits.memory).compareTo(quantity('2Gi')) <= 0",
    "['a', 'b', 'c'].map(x, x.upperAscii()).join(',').size() < 10",
    "authorizer.group('apps').resource('deployments').check('create').allowed()",
    "cel.bind(names, object.spec.containers.map(c, c.name), names.all(n, n.size() < 64))",
];
const ROUNDS: usize = 2_000;
const RUNS: usize = 15;

fn main() {
    let env = Env::kubernetes(33, true)
        .with_variable("object", Type::Dyn)
        .with_variable(
            "authorizer",
            Type::object(admission_ls::cel::types::AUTHORIZER),
        );
    let checked: Vec<_> = EXPRESSIONS
        .iter()
        .map(|src| {
            let parsed = parse(src);
            let checked = check(&parsed.ast, &env);
            (parsed.ast, checked)
        })
        .collect();
    header();
    let mut samples = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        for _ in 0..ROUNDS {
            for (ast, checked) in &checked {
                std::hint::black_box(estimate(ast, checked, &NoSizes));
            }
        }
        samples.push(start.elapsed() / (ROUNDS * EXPRESSIONS.len()) as u32);
    }
    let stats = Stats::of(samples);
    row("cost estimate: one checked expression", &stats, "");
    println!(
        "cost estimate: median {:.2} µs, p95 {:.2} µs per expression",
        stats.median.as_secs_f64() * 1e6,
        stats.p95.as_secs_f64() * 1e6
    );
}
