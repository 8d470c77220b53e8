//! Snapshot tests of layouts: errors amid documents, node properties, unusual block structures and a
//! policy written with CRLF line ends.

use expect_test::expect;

use super::tests::check;

#[test]
fn error_documents_keep_their_place() {
    check(
        "# head\n\t- x\n---\na: 1\n",
        expect![[r#"
        doc 1:1-1:4
          seq 1:1-1:4
            Plain 1:3-1:4 "x"
        doc 2:0-3:4
          map 3:0-3:4
            Plain 3:0-3:1 "a"
              Plain 3:3-3:4 "1"
    "#]],
    );
    check(
        "a: 1\n...\n# c\nb: \"open\n---\nc: [1, {d: e\n...\nf: g\n",
        expect![[r#"
            doc 0:0-1:3
              map 0:0-0:4
                Plain 0:0-0:1 "a"
                  Plain 0:3-0:4 "1"
            doc 4:0-6:1 (errors)
              map 5:0-5:12
                Plain 5:0-5:1 "c"
                  seq 5:3-5:12
                    Plain 5:4-5:5 "1"
                    map 5:7-5:12
                      Plain 5:8-5:9 "d"
                        Plain 5:11-5:12 "e"
            error 6:0-6:1: while parsing a flow mapping, did not find expected ',' or '}'
        "#]],
    );
    check(
        "a: &x 1\nb: *y\n",
        expect![[r#"
            doc 0:0-1:4 (errors)
              map 0:0-1:2
                Plain 0:0-0:1 "a"
                  Plain 0:6-0:7 "1"
                Plain 1:0-1:1 "b"
                  Plain 1:2-1:2 ""
            error 1:3-1:4: while parsing node, found unknown anchor
        "#]],
    );
    check(
        "a: !!str\nb: !t\n  - 1\n",
        expect![[r#"
        doc 0:0-2:5
          map 0:0-2:5
            Plain 0:0-0:1 "a"
              Plain !!str 0:8-0:8 ""
            Plain 1:0-1:1 "b"
              seq !t 2:2-2:5
                Plain 2:4-2:5 "1"
    "#]],
    );
}

#[test]
fn properties_and_odd_layouts() {
    check(
        "a: !!map\n  b: c\nd: &s\n  - 1\n? [k, l]\n: v\n",
        expect![[r#"
            doc 0:0-5:3 (errors)
              map 0:0-5:3
                Plain 0:0-0:1 "a"
                  map !!map 1:2-1:6
                    Plain 1:2-1:3 "b"
                      Plain 1:5-1:6 "c"
                Plain 2:0-2:1 "d"
                  seq 3:2-3:5
                    Plain 3:4-3:5 "1"
                seq 4:2-4:8
                  Plain 4:3-4:4 "k"
                  Plain 4:6-4:7 "l"
                  Plain 5:2-5:3 "v"
            error 4:2-4:3: invalid map key
        "#]],
    );
    check(
        "%YAML 1.2\n--- |\nraw\n text\n--- >1\n  x\n y\n...\n",
        expect![[r#"
            doc 1:0-3:5 (errors)
              Literal 1:4-3:5 "raw\n text\n"
            doc 4:0-7:3 (errors)
              Folded 4:4-6:2 " x\ny\n"
            error 0:0-0:1: did not find expected <document start>
            error 1:4-1:5: invalid Yaml document separator: |
            error 4:4-4:5: invalid Yaml document separator: >1
        "#]],
    );
    check(
        "a:\n- |1\n  x\n- !!str >2\n   y\n",
        expect![[r#"
        doc 0:0-4:4
          map 0:0-4:4
            Plain 0:0-0:1 "a"
              seq 1:0-4:4
                Literal 1:2-2:3 " x\n"
                Folded !!str 3:8-4:4 " y\n"
    "#]],
    );
    check(
        "- |1\n  a\n- - >\n    b\n  - !!str |\n    c\n",
        expect![[r#"
        doc 0:0-5:5
          seq 0:0-5:5
            Literal 0:2-1:3 " a\n"
            seq 2:2-5:5
              Folded 2:4-3:5 "b\n"
              Literal !!str 4:10-5:5 "c\n"
    "#]],
    );
    check(
        "k: # c\n  # d\n  v # e\n# f\nl: [a, # g\n  b]\n",
        expect![[r#"
        doc 0:0-5:4
          map 0:0-5:4
            Plain 0:0-0:1 "k"
              Plain 2:2-2:3 "v"
            Plain 4:0-4:1 "l"
              seq 4:3-5:4
                Plain 4:4-4:5 "a"
                Plain 5:2-5:3 "b"
    "#]],
    );
}

#[test]
fn policy_with_crlf() {
    let yaml = "# policy\r\napiVersion: admissionregistration.k8s.io/v1\r\nkind: ValidatingAdmissionPolicy\r\nspec:\r\n  validations:\r\n  - expression: >-\r\n      object.spec.replicas <= 5 &&\r\n      object.metadata.name != 'x'\r\n    message: \"too many: \\u00e9\"\r\n";
    check(
        yaml,
        expect![[r#"
            doc 1:0-8:31
              map 1:0-8:31
                Plain 1:0-1:10 "apiVersion"
                  Plain 1:12-1:43 "admissionregistration.k8s.io/v1"
                Plain 2:0-2:4 "kind"
                  Plain 2:6-2:31 "ValidatingAdmissionPolicy"
                Plain 3:0-3:4 "spec"
                  map 4:2-8:31
                    Plain 4:2-4:13 "validations"
                      seq 5:2-8:31
                        map 5:4-8:31
                          Plain 5:4-5:14 "expression"
                            Folded 5:16-7:33 "object.spec.replicas <= 5 && object.metadata.name != 'x'"
                          Plain 8:4-8:11 "message"
                            DoubleQuoted 8:13-8:31 "too many: é"
        "#]],
    );
}
