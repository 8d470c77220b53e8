//! Hostile input: every input named in the foundation issue's "Bad input" section goes through the
//! same diagnostics the CLI and the server produce, on a thread with the default 2 MiB stack. Each
//! must come back (no panic, no stack overflow, no hang) with the diagnostic that explains it.
//!
//! The guard against hangs is a generous deadline on the worker thread; speed itself is measured by
//! the benches, never here.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use admission_ls::ide::{DiagnosticsConfig, LineIndex, diagnostics_for_text};
use expect_test::{Expect, expect};

/// Runs the diagnostics of `text` on a fresh thread and summarises them: the count per code and the
/// 1-based line of the first diagnostic of each code.
#[track_caller]
fn check_survives(text: String, expect: Expect) {
    let (sender, receiver) = mpsc::channel();
    let worker = thread::spawn(move || {
        let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
        let index = LineIndex::new(&text);
        let mut summary: Vec<(String, usize, u32)> = Vec::new();
        for diagnostic in &diagnostics {
            let line = index
                .line_col(diagnostic.range.start(), admission_ls::ide::Encoding::Utf8)
                .line
                + 1;
            match summary
                .iter_mut()
                .find(|(code, _, _)| code == diagnostic.code.as_str())
            {
                Some(entry) => entry.1 += 1,
                None => summary.push((diagnostic.code.as_str().to_string(), 1, line)),
            }
        }
        let _ = sender.send(summary);
    });
    let summary = match receiver.recv_timeout(Duration::from_secs(120)) {
        Ok(summary) => summary,
        Err(_) => panic!("diagnostics did not come back: the worker panicked, overflowed or hung"),
    };
    let _ = worker.join();
    let rendered: String = summary
        .iter()
        .map(|(code, count, line)| format!("{code} x{count}, first on line {line}\n"))
        .collect();
    expect.assert_eq(&rendered);
}

const POLICY_HEAD: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  validations:
";

#[test]
fn binary_junk() {
    let junk: String = (0u32..4096)
        .filter_map(|n| char::from_u32((n * 7919) % 0x3000))
        .collect();
    check_survives(
        junk,
        expect![[r#"
        yaml-syntax x1, first on line 1
    "#]],
    );
}

#[test]
fn invalid_utf8_decoded_lossily() {
    let bytes: Vec<u8> = (0u8..=255).cycle().take(10_000).collect();
    check_survives(
        String::from_utf8_lossy(&bytes).into_owned(),
        expect![[r#"
            yaml-syntax x1, first on line 1
        "#]],
    );
}

/// 20 MB of validations with 4 KB expressions (about 5,000 of them). Many short validations are
/// `tests/hostile_scale.rs`' job: 20 MB of 86-byte ones (about 244,000 typed checks) takes some
/// 11 s in a release build and over two minutes unoptimised, which no hang guard should have to
/// allow for.
#[test]
fn a_20_mb_file() {
    let mut text = String::from(POLICY_HEAD);
    let line = format!(
        "  - expression: object.metadata.name != '{}' && object.spec.replicas <= 5\n",
        "x".repeat(4_000)
    );
    while text.len() < 20 * 1024 * 1024 {
        text.push_str(&line);
    }
    check_survives(text, expect![[r#""#]]);
}

#[test]
fn ten_thousand_documents() {
    let mut text = String::new();
    for n in 0..10_000 {
        text.push_str(&POLICY_HEAD.replace("name: demo", &format!("name: demo-{n}")));
        text.push_str("  - expression: object.spec.replicas <= 5\n---\n");
    }
    text.push_str("key: [unclosed\n");
    check_survives(
        text,
        expect![[r#"
        yaml-syntax x1, first on line 110002
    "#]],
    );
}

#[test]
fn yaml_nested_ten_thousand_deep() {
    let flow = format!("a: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    check_survives(
        flow,
        expect![[r#"
        yaml-syntax x1, first on line 1
    "#]],
    );
    let mut block = String::new();
    for depth in 0..10_000 {
        block.push_str(&" ".repeat(depth));
        block.push_str("k:\n");
    }
    check_survives(
        block,
        expect![[r#"
        yaml-syntax x1, first on line 1001
    "#]],
    );
}

#[test]
fn alias_bomb() {
    let mut text = String::from(
        "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    let names = ["b", "c", "d", "e", "f", "g", "h", "i"];
    let mut previous = "a";
    for name in names {
        let list = vec![format!("*{previous}"); 9].join(", ");
        text.push_str(&format!("{name}: &{name} [{list}]\n"));
        previous = name;
    }
    check_survives(
        text,
        expect![[r#"
            yaml-syntax x1, first on line 4
        "#]],
    );
}

#[test]
fn cel_with_100_000_nested_parentheses() {
    let expression = format!("{}true{}", "(".repeat(100_000), ")".repeat(100_000));
    check_survives(
        format!("{POLICY_HEAD}  - expression: {expression}\n"),
        expect![[r#"
            cel-syntax x1, first on line 10
        "#]],
    );
}

#[test]
fn half_typed_expression_on_every_keystroke() {
    let expression =
        "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))";
    let mut codes_per_prefix = Vec::new();
    for end in 0..=expression.len() {
        let text = format!(
            "{POLICY_HEAD}  - expression: |\n      {}\n",
            &expression[..end]
        );
        let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
        let mut codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
        codes.dedup();
        codes_per_prefix.push(format!(
            "{:>2} {:<40} {}",
            end,
            &expression[end.saturating_sub(40)..end],
            codes.join(",")
        ));
    }
    let rendered = codes_per_prefix.join("\n");
    expect![[r#"
         0                                          required
         1 o                                        cel-undeclared
         2 ob                                       cel-undeclared
         3 obj                                      cel-undeclared
         4 obje                                     cel-undeclared
         5 objec                                    cel-undeclared
         6 object                                   cel-result-type
         7 object.                                  cel-syntax
         8 object.s                                 cel-result-type,cel-undefined-field
         9 object.sp                                cel-result-type,cel-undefined-field
        10 object.spe                               cel-result-type,cel-undefined-field
        11 object.spec                              cel-result-type
        12 object.spec.                             cel-syntax
        13 object.spec.t                            cel-result-type,cel-undefined-field
        14 object.spec.te                           cel-result-type,cel-undefined-field
        15 object.spec.tem                          cel-result-type,cel-undefined-field
        16 object.spec.temp                         cel-result-type,cel-undefined-field
        17 object.spec.templ                        cel-result-type,cel-undefined-field
        18 object.spec.templa                       cel-result-type,cel-undefined-field
        19 object.spec.templat                      cel-result-type,cel-undefined-field
        20 object.spec.template                     cel-result-type
        21 object.spec.template.                    cel-syntax
        22 object.spec.template.s                   cel-result-type,cel-undefined-field
        23 object.spec.template.sp                  cel-result-type,cel-undefined-field
        24 object.spec.template.spe                 cel-result-type,cel-undefined-field
        25 object.spec.template.spec                cel-result-type
        26 object.spec.template.spec.               cel-syntax
        27 object.spec.template.spec.c              cel-result-type,cel-undefined-field
        28 object.spec.template.spec.co             cel-result-type,cel-undefined-field
        29 object.spec.template.spec.con            cel-result-type,cel-undefined-field
        30 object.spec.template.spec.cont           cel-result-type,cel-undefined-field
        31 object.spec.template.spec.conta          cel-result-type,cel-undefined-field
        32 object.spec.template.spec.contai         cel-result-type,cel-undefined-field
        33 object.spec.template.spec.contain        cel-result-type,cel-undefined-field
        34 object.spec.template.spec.containe       cel-result-type,cel-undefined-field
        35 object.spec.template.spec.container      cel-result-type,cel-undefined-field
        36 object.spec.template.spec.containers     cel-result-type
        37 object.spec.template.spec.containers.    cel-syntax
        38 object.spec.template.spec.containers.a   cel-result-type,cel-type
        39 object.spec.template.spec.containers.al  cel-result-type,cel-type
        40 object.spec.template.spec.containers.all cel-result-type,cel-type
        41 bject.spec.template.spec.containers.all( cel-syntax
        42 ject.spec.template.spec.containers.all(c cel-syntax
        43 ect.spec.template.spec.containers.all(c, cel-syntax
        44 ct.spec.template.spec.containers.all(c,  cel-syntax
        45 t.spec.template.spec.containers.all(c, c cel-syntax
        46 .spec.template.spec.containers.all(c, c. cel-syntax
        47 spec.template.spec.containers.all(c, c.i cel-syntax
        48 pec.template.spec.containers.all(c, c.im cel-syntax
        49 ec.template.spec.containers.all(c, c.ima cel-syntax
        50 c.template.spec.containers.all(c, c.imag cel-syntax
        51 .template.spec.containers.all(c, c.image cel-syntax
        52 template.spec.containers.all(c, c.image. cel-syntax
        53 emplate.spec.containers.all(c, c.image.s cel-syntax
        54 mplate.spec.containers.all(c, c.image.st cel-syntax
        55 plate.spec.containers.all(c, c.image.sta cel-syntax
        56 late.spec.containers.all(c, c.image.star cel-syntax
        57 ate.spec.containers.all(c, c.image.start cel-syntax
        58 te.spec.containers.all(c, c.image.starts cel-syntax
        59 e.spec.containers.all(c, c.image.startsW cel-syntax
        60 .spec.containers.all(c, c.image.startsWi cel-syntax
        61 spec.containers.all(c, c.image.startsWit cel-syntax
        62 pec.containers.all(c, c.image.startsWith cel-syntax
        63 ec.containers.all(c, c.image.startsWith( cel-syntax
        64 c.containers.all(c, c.image.startsWith(' cel-syntax
        65 .containers.all(c, c.image.startsWith('r cel-syntax
        66 containers.all(c, c.image.startsWith('re cel-syntax
        67 ontainers.all(c, c.image.startsWith('reg cel-syntax
        68 ntainers.all(c, c.image.startsWith('regi cel-syntax
        69 tainers.all(c, c.image.startsWith('regis cel-syntax
        70 ainers.all(c, c.image.startsWith('regist cel-syntax
        71 iners.all(c, c.image.startsWith('registr cel-syntax
        72 ners.all(c, c.image.startsWith('registry cel-syntax
        73 ers.all(c, c.image.startsWith('registry. cel-syntax
        74 rs.all(c, c.image.startsWith('registry.e cel-syntax
        75 s.all(c, c.image.startsWith('registry.ex cel-syntax
        76 .all(c, c.image.startsWith('registry.exa cel-syntax
        77 all(c, c.image.startsWith('registry.exam cel-syntax
        78 ll(c, c.image.startsWith('registry.examp cel-syntax
        79 l(c, c.image.startsWith('registry.exampl cel-syntax
        80 (c, c.image.startsWith('registry.example cel-syntax
        81 c, c.image.startsWith('registry.example. cel-syntax
        82 , c.image.startsWith('registry.example.c cel-syntax
        83  c.image.startsWith('registry.example.co cel-syntax
        84 c.image.startsWith('registry.example.com cel-syntax
        85 .image.startsWith('registry.example.com/ cel-syntax
        86 image.startsWith('registry.example.com/' cel-syntax
        87 mage.startsWith('registry.example.com/') cel-syntax
        88 age.startsWith('registry.example.com/')) "#]]
    .assert_eq(&rendered);
}

/// A Kyverno Pod policy (a document family) whose expression autogen rewrites 5,000 times, and
/// one nested 5,000 deep under `spec`: each comes back with what explains it.
#[test]
fn kyverno_policy_rewritten_and_nested() {
    let head = "apiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n  validations:\n";
    let expression = format!("size([{}]) > 0", vec!["object.spec.x"; 5_000].join(", "));
    check_survives(
        format!("{head}  - expression: \"{expression}\"\n"),
        expect![[r#"
            cel-undefined-field x5000, first on line 9
        "#]],
    );
    let mut nested = String::from(head);
    nested.push_str("  - expression: 'true'\n  evaluation:\n");
    for depth in 2..5_000 {
        nested.push_str(&" ".repeat(depth));
        nested.push_str("k:\n");
    }
    check_survives(
        nested,
        expect![[r#"
        yaml-syntax x1, first on line 1010
    "#]],
    );
}
