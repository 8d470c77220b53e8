//! The estimator against Kubernetes' own estimated costs: the cases of
//! `kubernetes/kubernetes` `staging/src/k8s.io/apiserver/pkg/cel/library/cost_test.go`
//! (TestListsCost, TestIndexOfCost, TestURLsCost, TestIPCost, TestIPIsCanonicalCost, TestCIDRCost,
//! TestStringLibrary, TestAuthzLibrary, TestQuantityCost, TestNameFormatCost, TestSetsCost,
//! TestSemverCost, TestTwoVariableComprehensionCost), transcribed as data: expression and the
//! expected estimated `[min, max]`. Like the upstream test, strings and bytes whose size the
//! expression does not fix are taken to hold at most 12 characters.

use super::{Cost, Path, Size, SizeEstimator, estimate};
use crate::cel::check::{Env, check};
use crate::cel::parse;
use crate::cel::types::{self, Type};

/// The upstream `testCostEstimator`: strings and bytes of 0 to 12 units, nothing else.
struct UpstreamSizes;

impl SizeEstimator for UpstreamSizes {
    fn size(&self, _: Option<&Path>, ty: &Type) -> Option<Size> {
        matches!(ty, Type::String | Type::Bytes).then_some(Size { min: 0, max: 12 })
    }
}

const INTS: &str = "[1, 2, 3, 4, 5]";
const UINTS: &str = "[uint(1), uint(2), uint(3), uint(4), uint(5)]";
const DOUBLES: &str = "[1.0, 2.0, 3.0, 4.0, 5.0]";
const BOOLS: &str = "[false, true, false, true, false]";
const STRINGS: &str =
    "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const BYTES: &str = "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
const DURATIONS: &str =
    "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const TIMESTAMPS: &str = "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]";
const LONG: &str = "'01234567890123456789012345678901234567890123456789'";
const URL: &str = "url('https:://kubernetes.io/')";
const IP4: &str = "ip('192.168.0.1')";
const IP6: &str = "ip('2001:db8:3333:4444:5555:6666:7777:8888')";
const CIDR4: &str = "cidr('192.168.0.0/16')";
const CIDR6: &str = "cidr('2001:db8::/32')";

/// Every case: the expression and the expected estimate.
fn cases() -> Vec<(String, u64, u64)> {
    let mut out: Vec<(String, u64, u64)> = Vec::new();
    let mut add = |e: String, min: u64, max: u64| out.push((e, min, max));
    // TestListsCost
    for (list, min, max) in [
        (INTS, 15, 15),
        (UINTS, 20, 20),
        (DOUBLES, 15, 15),
        (DURATIONS, 20, 20),
    ] {
        add(format!("{list}.sum()"), min, max);
    }
    for op in [".isSorted()", ".max()", ".min()"] {
        for (list, min, max) in [
            (INTS, 15, 15),
            (UINTS, 20, 20),
            (DOUBLES, 15, 15),
            (BOOLS, 15, 15),
            (STRINGS, 15, 25),
            (BYTES, 25, 35),
            (DURATIONS, 20, 20),
            (TIMESTAMPS, 20, 20),
        ] {
            add(format!("{list}{op}"), min, max);
        }
    }
    // TestIndexOfCost
    for op in ["indexOf", "lastIndexOf"] {
        for (list, param, min, max) in [
            (INTS, "3", 15, 15),
            (UINTS, "uint(3)", 21, 21),
            (DOUBLES, "3.0", 15, 15),
            (BOOLS, "true", 15, 15),
            (STRINGS, "'x'", 15, 25),
            (BYTES, "bytes('x')", 26, 36),
            (DURATIONS, "duration('3s')", 21, 21),
            (
                TIMESTAMPS,
                "timestamp('2011-01-03T00:00:00.000+01:00')",
                21,
                21,
            ),
            (LONG, "'123'", 5, 5),
        ] {
            add(format!("{list}.{op}({param})"), min, max);
        }
    }
    // TestURLsCost
    for op in [
        ".getScheme()",
        ".getHostname()",
        ".getHost()",
        ".getPort()",
        ".getEscapedPath()",
        ".getQuery()",
    ] {
        add(format!("{URL}{op}"), 4, 4);
    }
    add(format!("{URL} == url('https:://kubernetes.io/')"), 7, 9);
    add(format!("{URL} == url('http://x.b')"), 5, 5);
    // TestIPCost
    for (ip, base) in [(IP4, 2), (IP6, 4)] {
        add(ip.to_string(), base, base);
        for op in [
            ".family()",
            ".isUnspecified()",
            ".isLoopback()",
            ".isLinkLocalMulticast()",
            ".isLinkLocalUnicast()",
            ".isGlobalUnicast()",
        ] {
            add(format!("{ip}{op}"), base + 1, base + 1);
        }
        add(format!("{ip} == ip('192.168.0.1')"), base + 3, base + 3);
    }
    // TestIPIsCanonicalCost
    add("ip.isCanonical('192.168.0.1')".into(), 3, 3);
    add(
        "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')".into(),
        8,
        8,
    );
    add("ip.isCanonical('2001:db8::abcd')".into(), 3, 3);
    // TestCIDRCost (both bases are 2)
    for cidr in [CIDR4, CIDR6] {
        add(cidr.to_string(), 2, 2);
        for op in [".ip()", ".prefixLength()", ".masked()"] {
            add(format!("{cidr}{op}"), 3, 3);
        }
        add(format!("{cidr} == cidr('2001:db8::/32')"), 5, 5);
    }
    for (op, min, max) in [
        (".containsCIDR(cidr('192.0.0.0/30'))", 5, 9),
        (".containsCIDR(cidr('192.168.0.0/16'))", 5, 9),
        (".containsCIDR('192.0.0.0/30')", 5, 9),
        (".containsCIDR('192.168.0.0/16')", 5, 9),
        (".containsIP(ip('192.0.0.1'))", 2, 5),
        (".containsIP(ip('192.169.0.1'))", 3, 6),
        (".containsIP(ip('192.169.169.250'))", 3, 6),
        (".containsIP('192.0.0.1')", 2, 5),
        (".containsIP('192.169.0.1')", 3, 6),
    ] {
        add(format!("{CIDR4}{op}"), 2 + min, 2 + max);
    }
    for (op, min, max) in [
        (".containsCIDR(cidr('2001:db8::/126'))", 5, 9),
        (".containsCIDR(cidr('2001:db8::/32'))", 5, 9),
        (".containsCIDR('2001:db8::/126')", 5, 9),
        (".containsCIDR('2001:db8::/32')", 5, 9),
        (
            ".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
            5,
            8,
        ),
        (".containsIP(ip('2001:db8::1'))", 3, 6),
        (
            ".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')",
            5,
            8,
        ),
        (".containsIP('2001:db8::1')", 3, 6),
    ] {
        add(format!("{CIDR6}{op}"), 2 + min, 2 + max);
    }
    // TestStringLibrary, TestAuthzLibrary, TestQuantityCost, TestNameFormatCost, TestSemverCost,
    // TestTwoVariableComprehensionCost
    let fixed: &[(&str, u64, u64)] = &[
        ("'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3, 3),
        (
            "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()",
            7,
            9,
        ),
        ("'ABCDEFGHIJ abcdefghij'.upperAscii()", 3, 3),
        (
            "'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()",
            7,
            9,
        ),
        ("strings.quote('ABCDEFGHIJ abcdefghij')", 3, 3),
        (
            "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
            7,
            11,
        ),
        ("'abc 123 def 123'.replace('123', '456')", 3, 3),
        ("'abc 123 def 123'.replace('', 'x')", 3, 3),
        ("'abc 123 def 123'.replace('123', '')", 3, 3),
        ("'abc 123 def 123'.replace('123', '456', 1)", 3, 3),
        ("'abc 123 def 123'.split(' ')", 3, 3),
        ("'abc 123 def 123'.split(' ', 1)", 3, 3),
        ("'abc 123 def 123'.substring(5)", 2, 2),
        ("'abc 123 def 123'.substring(5, 8)", 2, 2),
        ("'  abc 123 def 123  '.trim()", 2, 2),
        (
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')",
            11,
            23,
        ),
        (
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()",
            10,
            22,
        ),
        ("'abc 123 def 123'.find('123')", 2, 2),
        ("'abc 123 def 123'.findAll('123')", 2, 2),
        ("'abc 123 def 123'.findAll('123', 1)", 2, 2),
        ("jsonpatch.escapeKey('abc/def~ abc/def~')", 2, 2),
        ("authorizer.path('/healthz')", 2, 2),
        (
            "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')",
            6,
            6,
        ),
        (
            "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
            1821,
            1821,
        ),
        (
            "authorizer.group('').resource('pods').labelSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
            1821,
            1821,
        ),
        (
            "authorizer.path('/healthz').check('get').allowed()",
            350003,
            350003,
        ),
        (
            "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
            350007,
            350007,
        ),
        (
            "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').errored()",
            350007,
            350007,
        ),
        (
            "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').error()",
            350007,
            350007,
        ),
        ("quantity(\"12Mi\")", 1, 1),
        ("isQuantity(\"20\")", 1, 1),
        ("isQuantity(\"20M\")", 1, 1),
        ("quantity(\"200M\") == quantity(\"200M\")", 3, 3),
        (
            "quantity(\"200M\") == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")",
            3,
            6,
        ),
        (
            "quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") && quantity(\"0.002G\") == quantity(\"2000k\")",
            3,
            9,
        ),
        ("quantity(\"50M\").isLessThan(quantity(\"50Mi\"))", 3, 3),
        ("quantity(\"50Mi\").isGreaterThan(quantity(\"50M\"))", 3, 3),
        ("quantity(\"200M\").compareTo(quantity(\"0.2G\")) > 0", 4, 4),
        (
            "quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")",
            5,
            5,
        ),
        (
            "quantity(\"50k\").sub(quantity(\"20\")) == quantity(\"49.98k\")",
            5,
            5,
        ),
        ("quantity(\"50k\").sub(20) == quantity(\"49980\")", 4, 4),
        (
            "quantity(\"50k\").add(20).sub(quantity(\"100k\")).asInteger() > 0",
            6,
            6,
        ),
        (
            "quantity(\"50k\").add(20).sub(quantity(\"100k\")).sub(-50000).asInteger() > 0",
            7,
            7,
        ),
        ("quantity(\"50k\").asInteger() > 0", 3, 3),
        ("quantity(\"50\").isInteger()", 2, 2),
        ("quantity(\"50.703k\").asApproximateFloat() > 0.0", 3, 3),
        ("format.named(\"dns1123subdomain\")", 1, 1),
        (
            "format.named(\"dns1123Subdomain\").value().validate(\"my-name\")",
            34,
            34,
        ),
        (
            "format.named(\"dns1123Label\").value().validate(\"my-name\")",
            34,
            34,
        ),
        (
            "format.named(\"dns1123Label\").value() == format.named(\"dns1123Label\").value()",
            5,
            11,
        ),
        ("semver(\"1.0.0\")", 1, 1),
        ("semver(\"1234.56789012345.67890123456789\")", 4, 4),
        ("isSemver(\"1.0.0\")", 1, 1),
        ("isSemver(\"1234.56789012345.67890123456789\")", 4, 4),
        ("semver(\"1.2.3\").major()", 2, 2),
        ("semver(\"1.2.3\").minor()", 2, 2),
        ("semver(\"1.2.3\").patch()", 2, 2),
        ("semver(\"1.0.0\").isLessThan(semver(\"1.1.0\"))", 3, 3),
        ("semver(\"1.1.0\").isGreaterThan(semver(\"1.0.0\"))", 3, 3),
        ("semver(\"1.0.0\").compareTo(semver(\"1.2.3\"))", 3, 3),
        ("{'a': 1, 'b': 2}.all(k, v, v > 0)", 37, 41),
        ("{'a': 1, 'b': 2}.exists(k, v, v > 0)", 39, 43),
        ("{'a': 1, 'b': 2}.existsOne(k, v, v > 0)", 38, 40),
        ("{'a': 1, 'b': 2}.transformMap(k, v, v + 1)", 71, 71),
        ("{'a': 1, 'b': 2}.transformMap(k, v, v < 5, v + 1)", 67, 75),
        (
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, {k: v + 1})",
            131,
            131,
        ),
        (
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, v < 5, {k: v + 1})",
            67,
            135,
        ),
        ("[1, 2].all(i, v, v > 0)", 17, 21),
        ("[1, 2].exists(i, v, v > 0)", 19, 23),
        ("[1, 2].existsOne(i, v, v > 0)", 18, 20),
        ("[1, 2].transformList(i, v, v + 1)", 49, 49),
        ("[1, 2].transformList(i, v, v < 5, v + 1)", 27, 53),
    ];
    for &(e, min, max) in fixed {
        add(e.to_string(), min, max);
    }
    // TestSetsCost
    let sets: &[(&str, u64)] = &[
        ("sets.contains([], [])", 21),
        ("sets.contains([1], [])", 21),
        ("sets.contains([1], [1])", 22),
        ("sets.contains([1], [1, 1])", 23),
        ("sets.contains([1, 1], [1])", 23),
        ("sets.contains([2, 1], [1])", 23),
        ("sets.contains([1, 2, 3, 4], [2, 3])", 29),
        ("sets.contains([1], [1.0, 1])", 23),
        ("sets.contains([1, 2], [2u, 2.0])", 25),
        ("sets.contains([1, 2u], [2, 2.0])", 25),
        ("sets.contains([1, 2.0, 3u], [1.0, 2u, 3])", 30),
        ("sets.contains([[1], [2, 3]], [[2, 3.0]])", 53),
        ("!sets.contains([1], [2])", 23),
        ("!sets.contains([1], [1, 2])", 24),
        ("!sets.contains([1], [\"1\", 1])", 24),
        ("!sets.contains([1], [1.1, 1u])", 24),
        ("sets.equivalent([], [])", 21),
        ("sets.equivalent([1], [1])", 23),
        ("sets.equivalent([1], [1, 1])", 25),
        ("sets.equivalent([1, 1], [1])", 25),
        ("sets.equivalent([1], [1u, 1.0])", 25),
        ("sets.equivalent([1, 2, 3], [3u, 2.0, 1])", 39),
        ("sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])", 69),
        ("!sets.equivalent([2, 1], [1])", 26),
        ("!sets.equivalent([1], [1, 2])", 26),
        ("!sets.equivalent([1, 2], [2u, 2, 2.0])", 34),
        ("!sets.equivalent([1, 2], [1u, 2, 2.3])", 34),
        ("sets.intersects([1], [1])", 22),
        ("sets.intersects([1], [1, 1])", 23),
        ("sets.intersects([1, 1], [1])", 23),
        ("sets.intersects([2, 1], [1])", 23),
        ("sets.intersects([1], [1, 2])", 23),
        ("sets.intersects([1], [1.0, 2])", 23),
        ("sets.intersects([1, 2], [2u, 2, 2.0])", 27),
        ("sets.intersects([1, 2], [1u, 2, 2.3])", 27),
        ("sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])", 65),
        ("!sets.intersects([], [])", 22),
        ("!sets.intersects([1], [])", 22),
        ("!sets.intersects([1], [2])", 23),
        ("!sets.intersects([1], [\"1\", 2])", 24),
        ("!sets.intersects([1], [1.1, 2u])", 24),
    ];
    for &(e, cost) in sets {
        add(e.to_string(), cost, cost);
    }
    out
}

/// The upstream test's environment: every library, `authorizer` declared, mixed literals allowed
/// (the sets cases mix numeric types).
fn env() -> Env {
    let mut env = Env::kubernetes(37, true);
    env.homogeneous_literals = false;
    env.libraries.push(crate::cel::library::Library::JsonPatch);
    env.declare("authorizer", Type::object(types::AUTHORIZER), None);
    env
}

fn estimated(src: &str, env: &Env) -> Result<Cost, String> {
    let parsed = parse(src);
    if !parsed.errors.is_empty() {
        return Err(format!("parse errors: {:?}", parsed.errors));
    }
    let checked = check(&parsed.ast, env);
    if let Some(error) = checked.errors.first() {
        return Err(format!("check error: {}", error.message));
    }
    Ok(estimate(&parsed.ast, &checked, &UpstreamSizes))
}

#[test]
fn estimates_match_kubernetes_cost_tests() {
    let env = env();
    let cases = cases();
    let mut failures = Vec::new();
    for (src, min, max) in &cases {
        match estimated(src, &env) {
            Ok(cost)
                if cost
                    == (Cost {
                        min: *min,
                        max: *max,
                    }) => {}
            Ok(cost) => failures.push(format!(
                "{src}: expected {min}..{max}, got {}..{}",
                cost.min, cost.max
            )),
            Err(e) => failures.push(format!("{src}: {e}")),
        }
    }
    let passed = cases.len() - failures.len();
    assert!(
        failures.is_empty(),
        "{passed}/{} upstream cases; failing:\n{}",
        cases.len(),
        failures.join("\n")
    );
    assert_eq!(cases.len(), 213, "the transcribed table has 213 cases");
}

/// The deepest trees the parser accepts are estimated on a 2 MiB stack (a debug build's thread
/// default), so a hostile expression cannot overflow the stack through the estimator.
#[test]
fn deep_trees_fit_a_small_stack() {
    let sources = [
        format!("{}1{}", "[".repeat(240), "]".repeat(240)),
        format!("{}true", "!".repeat(240)),
        format!("{}1{}", "int(".repeat(240), ")".repeat(240)),
        format!("{}true{}", "[1].all(x, ".repeat(120), ")".repeat(120)),
        format!("{}1{}", "cel.bind(v, ".repeat(80), ", v)".repeat(80)),
    ];
    let run = move || {
        let env = env();
        for src in &sources {
            let parsed = parse(src);
            let checked = check(&parsed.ast, &env);
            let cost = estimate(&parsed.ast, &checked, &UpstreamSizes);
            assert!(cost.max >= cost.min, "{src}");
        }
    };
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(run)
        .expect("thread");
    assert!(handle.join().is_ok());
}
