//! Selector cost estimates and compile results against the figures of upstream's selector tests
//! (`staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go`, `testcases`: each
//! expression's `expectCost` is the estimated worst case; the figures are facts taken from it).

use super::typed::{env, estimated_cost};

/// (expression, estimated worst-case cost) pairs of the upstream tests without list-type
/// attributes.
const COSTS: &[(&str, u64)] = &[
    (r#""no-such-domain" in device.attributes"#, 3),
    (r#"device.driver == """#, 2),
    (r#"device.driver == "dra.example.com""#, 4),
    (r#"device.attributes["dra.example.com"].name"#, 4),
    (r#"device.attributes["dra.example.com"]["name"]"#, 4),
    (
        r#"cel.bind(dra, device.attributes["dra.example.com"], dra.name)"#,
        15,
    ),
    (r#"device.attributes["dra.example.com"].name > 0"#, 5),
    (r#"device.attributes["dra.example.com"].name == "fish""#, 5),
    (
        r#"device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))"#,
        6,
    ),
    (
        r#"device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))"#,
        6,
    ),
    (
        r#"device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)"#,
        7,
    ),
    (
        r#"device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))"#,
        6,
    ),
    (
        r#""name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))"#,
        10,
    ),
    (
        r#"!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))"#,
        11,
    ),
    (
        r#"device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c"#,
        12,
    ),
    (
        r#"device.attributes.exists_one(x, x == "dra.example.com")"#,
        164,
    ),
    (
        r#"device.attributes["dra.example.com"].exists_one(x, x == "services")"#,
        133,
    ),
    (
        r#"device.attributes["dra.example.com"].services.split("example").size() >= 2"#,
        19,
    ),
    (
        r#"device.attributes["dra.example.com"].services.matches("[^a]?sym")"#,
        18,
    ),
    (
        r#"device.capacity.exists_one(x, x == "dra.example.com")"#,
        164,
    ),
    (
        r#"device.capacity["dra.example.com"].exists_one(x, x == "memory")"#,
        133,
    ),
    (
        r#"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))"#,
        85_555_551,
    ),
    ("device.allowMultipleAllocations == true", 3),
];

#[test]
fn estimated_costs_equal_upstream_figures() {
    let env = env(36);
    let mut wrong = Vec::new();
    for (expression, expected) in COSTS {
        let actual = estimated_cost(expression, &env);
        if actual != Some(*expected) {
            wrong.push(format!("{expression}: expected {expected}, got {actual:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
