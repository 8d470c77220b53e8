//! Snapshot tests of the CEL parser: trees (`check_parse`) and errors (`check_errors`).

use expect_test::{Expect, expect};

#[track_caller]
fn check_parse(src: &str, expect: Expect) {
    let parsed = super::parse(src);
    let mut out = parsed.ast.debug_tree();
    for error in &parsed.errors {
        out.push_str(&format!("error @{:?}: {}\n", error.span, error.message));
    }
    expect.assert_eq(&out);
}

#[test]
fn smoke() {
    check_parse(
        "a + 1",
        expect![[r#"
        binary _+_ @0..5
          ident a @0..1
          int 1 @4..5
    "#]],
    );
}
