//! Times `test` on a generated suite of 500 cases (250 validating cases over the bundled
//! required-labels and image-registry examples, 250 mutating cases over the sidecar example), run
//! through the same `ide::run::run_tests` the command uses. Prints the median of 5 runs.

use std::time::Instant;

use admission_ls::ide::run::run_tests;

const CASES: usize = 500;

fn suite() -> String {
    let mut text = String::from(
        "apiVersion: admission-ls.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: generated}\n\
         policies: [required-labels.yaml, image-registry.yaml, sidecar-injection.yaml]\n\
         resources: [tests/namespaces.yaml]\ncases:\n",
    );
    for i in 0..CASES {
        let case = match i % 4 {
            0 => format!(
                "  - name: labels {i}\n    policy: required-labels\n    object: {{apiVersion: apps/v1, kind: Deployment, metadata: {{name: d{i}, namespace: shop, labels: {{app.kubernetes.io/name: x}}}}}}\n    expect: {{decision: deny}}\n"
            ),
            1 => format!(
                "  - name: images {i}\n    policy: allowed-registries\n    object: {{apiVersion: v1, kind: Pod, metadata: {{name: p{i}, namespace: shop}}, spec: {{containers: [{{name: c, image: registry.example.com/a:{i}}}]}}}}\n    expect: {{decision: allow}}\n"
            ),
            _ => format!(
                "  - name: sidecar {i}\n    policy: logging-sidecar\n    namespace: {{apiVersion: v1, kind: Namespace, metadata: {{name: shop, labels: {{environment: prod}}}}}}\n    object: {{apiVersion: v1, kind: Pod, metadata: {{name: p{i}, namespace: shop, labels: {{logging: enabled}}}}, spec: {{containers: [{{name: app, image: nginx}}]}}}}\n    expect: {{decision: allow}}\n"
            ),
        };
        text.push_str(&case);
    }
    text
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let path = root.join("generated.test.yaml").display().to_string();
    let files = vec![(path, suite())];
    let load = |p: &str| std::fs::read_to_string(p).map_err(|e| e.to_string());
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let reports = run_tests(&files, &load);
        times.push(start.elapsed());
        let cases: usize = reports.iter().map(|r| r.cases.len()).sum();
        let passed: usize = reports
            .iter()
            .map(|r| r.cases.iter().filter(|c| c.passed).count())
            .sum();
        assert_eq!(
            (cases, passed),
            (CASES, CASES),
            "every generated case passes"
        );
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "test, {CASES} cases: median {:.1} ms ({:.1} us/case), min {:.1} ms, max {:.1} ms",
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e6 / CASES as f64,
        times[0].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
