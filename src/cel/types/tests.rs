//! Snapshot tests of type printing, assignability, unification and the builtin provider.

use expect_test::{Expect, expect};

use super::*;

fn p(name: &str) -> Type {
    Type::param(name)
}

/// Renders `to <- from: ok {bindings}` or `FAIL` for each case, threading no state between cases.
#[track_caller]
fn check_assignable(cases: &[(Type, Type)], expect: Expect) {
    let mut out = String::new();
    for (to, from) in cases {
        let mut subst = Substitution::new();
        let verdict = if is_assignable(to, from, &mut subst) {
            let bindings: Vec<String> = subst.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("ok {{{}}}", bindings.join(", "))
        } else {
            "FAIL".to_string()
        };
        out.push_str(&format!("{to} <- {from}: {verdict}\n"));
    }
    expect.assert_eq(&out);
}

#[test]
fn display_uses_cel_go_spelling() {
    let types = [
        Type::list(Type::Int),
        Type::map(Type::String, Type::Dyn),
        Type::optional(Type::String),
        Type::type_of(Type::Int),
        Type::TypeOf(None),
        Type::Timestamp,
        Type::Null,
        Type::Error,
        Type::list(Type::optional(p("V"))),
        Type::ip(),
        Type::quantity(),
    ];
    let shown: Vec<String> = types.iter().map(|t| t.to_string()).collect();
    expect![[r#"list(int) | map(string, dyn) | optional_type(string) | type(int) | type | google.protobuf.Timestamp | null_type | !error! | list(optional_type(V)) | net.IP | kubernetes.Quantity"#]]
        .assert_eq(&shown.join(" | "));
    expect!["map(string, list(timestamp))"].assert_eq(
        &Type::map(Type::String, Type::list(Type::Timestamp))
            .short()
            .to_string(),
    );
}

#[test]
fn simple_and_wildcard_assignability() {
    check_assignable(
        &[
            (Type::Int, Type::Int),
            (Type::Int, Type::Uint),
            (Type::Double, Type::Int),
            (Type::Int, Type::Dyn),
            (Type::Dyn, Type::String),
            (Type::Bool, Type::Error),
            (Type::Error, Type::list(Type::Int)),
            (Type::list(Type::Int), Type::list(Type::Dyn)),
            (Type::list(Type::Int), Type::list(Type::String)),
            (
                Type::map(Type::String, Type::Int),
                Type::map(Type::String, Type::Int),
            ),
            (
                Type::map(Type::String, Type::Int),
                Type::map(Type::Int, Type::Int),
            ),
            (Type::quantity(), Type::quantity()),
            (Type::quantity(), Type::semver()),
            (Type::ip(), Type::ip()),
            (Type::ip(), Type::object(IP)),
            (Type::type_of(Type::Int), Type::type_of(Type::String)),
            (Type::TypeOf(None), Type::Int),
        ],
        expect![[r#"
            int <- int: ok {}
            int <- uint: FAIL
            double <- int: FAIL
            int <- dyn: ok {}
            dyn <- string: ok {}
            bool <- !error!: ok {}
            !error! <- list(int): ok {}
            list(int) <- list(dyn): ok {}
            list(int) <- list(string): FAIL
            map(string, int) <- map(string, int): ok {}
            map(string, int) <- map(int, int): FAIL
            kubernetes.Quantity <- kubernetes.Quantity: ok {}
            kubernetes.Quantity <- kubernetes.Semver: FAIL
            net.IP <- net.IP: ok {}
            net.IP <- net.IP: FAIL
            type(int) <- type(string): ok {}
            type <- int: FAIL
        "#]],
    );
}

#[test]
fn null_assignability_follows_legacy_nullability() {
    check_assignable(
        &[
            (Type::Null, Type::Null),
            (Type::object("k8s.Pod"), Type::Null),
            (Type::Null, Type::object("k8s.Pod")),
            (Type::Timestamp, Type::Null),
            (Type::Duration, Type::Null),
            (Type::ip(), Type::Null),
            (Type::optional(Type::Int), Type::Null),
            (Type::Int, Type::Null),
            (Type::String, Type::Null),
            (Type::list(Type::Int), Type::Null),
            (Type::Dyn, Type::Null),
        ],
        expect![[r#"
            null_type <- null_type: ok {}
            k8s.Pod <- null_type: ok {}
            null_type <- k8s.Pod: ok {}
            google.protobuf.Timestamp <- null_type: ok {}
            google.protobuf.Duration <- null_type: ok {}
            net.IP <- null_type: ok {}
            optional_type(int) <- null_type: ok {}
            int <- null_type: FAIL
            string <- null_type: FAIL
            list(int) <- null_type: FAIL
            dyn <- null_type: ok {}
        "#]],
    );
}

#[test]
fn type_parameters_bind_and_nest() {
    check_assignable(
        &[
            (p("A"), Type::Int),
            (Type::list(p("A")), Type::list(Type::String)),
            (
                Type::map(p("K"), p("V")),
                Type::map(Type::String, Type::list(Type::Int)),
            ),
            (Type::optional(p("V")), Type::optional(Type::Bool)),
            (Type::optional(p("V")), Type::Int),
            (Type::list(p("A")), Type::Dyn),
            (Type::list(p("A")), Type::list(Type::Dyn)),
            (p("A"), Type::list(p("A"))),
            (Type::type_of(p("A")), Type::type_of(Type::Int)),
            (Type::Int, p("A")),
        ],
        expect![[r#"
            A <- int: ok {A=int}
            list(A) <- list(string): ok {A=string}
            map(K, V) <- map(string, list(int)): ok {K=string, V=list(int)}
            optional_type(V) <- optional_type(bool): ok {V=bool}
            optional_type(V) <- int: FAIL
            list(A) <- dyn: ok {}
            list(A) <- list(dyn): ok {A=dyn}
            A <- list(A): FAIL
            type(A) <- type(int): ok {}
            int <- A: ok {A=int}
        "#]],
    );
}

/// Unifies argument lists the way overload resolution does (`_==_(A, A)`, `@in(A, list(A))`...).
#[track_caller]
fn check_overload(params: &[Type], args: &[Type], result: &Type, expect: Expect) {
    let mut subst = Substitution::new();
    let out = if unify::is_assignable_list(params, args, &mut subst) {
        format!("ok -> {}", substitute(&subst, result, true))
    } else {
        "no overload".to_string()
    };
    expect.assert_eq(&out);
}

#[test]
fn overload_style_unification() {
    let a = p("A");
    check_overload(
        &[a.clone(), a.clone()],
        &[Type::Int, Type::Int],
        &Type::Bool,
        expect!["ok -> bool"],
    );
    check_overload(
        &[a.clone(), a.clone()],
        &[Type::Int, Type::String],
        &Type::Bool,
        expect!["no overload"],
    );
    check_overload(
        &[a.clone(), a.clone()],
        &[Type::Int, Type::Dyn],
        &a,
        expect!["ok -> dyn"],
    );
    check_overload(
        &[a.clone(), a.clone()],
        &[Type::Dyn, Type::Int],
        &a,
        expect!["ok -> dyn"],
    );
    // As in cel-go's mostGeneral: neither null nor Quantity is less specific, so the first binding
    // (null) stays; the comparison still type-checks.
    check_overload(
        &[a.clone(), a.clone()],
        &[Type::Null, Type::quantity()],
        &a,
        expect!["ok -> null_type"],
    );
    check_overload(
        &[a.clone(), Type::list(a.clone())],
        &[Type::String, Type::list(Type::String)],
        &Type::Bool,
        expect!["ok -> bool"],
    );
    check_overload(
        &[a.clone(), Type::list(a.clone())],
        &[Type::String, Type::list(Type::Int)],
        &Type::Bool,
        expect!["no overload"],
    );
    check_overload(
        &[Type::Bool, a.clone(), a.clone()],
        &[Type::Bool, Type::list(Type::Int), Type::list(Type::Dyn)],
        &a,
        expect!["ok -> list(dyn)"],
    );
    check_overload(
        &[Type::list(a.clone())],
        &[Type::list(Type::Error)],
        &a,
        expect!["ok -> !error!"],
    );
    check_overload(
        &[Type::map(a.clone(), p("B")), a.clone()],
        &[Type::map(Type::String, Type::Int), Type::String],
        &p("B"),
        expect!["ok -> int"],
    );
    check_overload(
        &[Type::list(a.clone())],
        &[Type::list(Type::Int)],
        &p("Z"),
        expect!["ok -> dyn"],
    );
    check_overload(
        &[Type::Int],
        &[Type::Int, Type::Int],
        &Type::Int,
        expect!["no overload"],
    );
}

#[test]
fn failed_attempt_leaves_substitution_untouched() {
    let mut subst = Substitution::new();
    assert!(is_assignable(&p("A"), &Type::Int, &mut subst));
    let before = subst.clone();
    assert!(!is_assignable(
        &Type::list(p("A")),
        &Type::list(Type::String),
        &mut subst
    ));
    assert_eq!(subst, before);
    assert!(is_assignable(&p("A"), &Type::Dyn, &mut subst));
    expect!["dyn"].assert_eq(&substitute(&subst, &p("A"), false).to_string());
}

#[test]
fn builtin_provider_knows_request_namespace_and_patch_types() {
    let provider = BuiltinProvider;
    let show = |type_name: &str, field: &str| match provider.field(type_name, field) {
        Some(field) => field.ty.to_string(),
        None => "undefined".to_string(),
    };
    let out = [
        show(provider::ADMISSION_REQUEST, "userInfo"),
        show("kubernetes.UserInfo", "extra"),
        show(provider::ADMISSION_REQUEST, "uid"),
        show(provider::NAMESPACE, "metadata"),
        show("kubernetes.NamespaceMetadata", "creationTimestamp"),
        show(JSON_PATCH, "value"),
        show(OBJECT, "anything"),
        show("Object.spec.template", "spec"),
        show("Objectx", "spec"),
    ];
    expect![[r#"kubernetes.UserInfo | map(string, list(string)) | undefined | kubernetes.NamespaceMetadata | google.protobuf.Timestamp | dyn | dyn | dyn | undefined"#]]
        .assert_eq(&out.join(" | "));
    let names: Vec<String> = provider
        .fields("kubernetes.GroupVersionKind")
        .into_iter()
        .map(|(name, _)| name.to_string())
        .collect();
    expect!["group kind version"].assert_eq(&names.join(" "));
    assert_eq!(
        provider.find_type("Object.spec"),
        Some(Type::object("Object.spec"))
    );
    assert_eq!(provider.find_type("Nope"), None);
}

/// `could_accept` may only rule out what `is_assignable_list` refuses: overload resolution skips
/// an overload on its answer, so a wrong `false` would lose a match.
#[test]
fn could_accept_never_refuses_an_assignable_argument() {
    use super::unify::{could_accept, is_assignable_list};
    let param = || Type::param("A");
    let object = || Type::object("apps.v1.Deployment");
    let types = [
        Type::Int,
        Type::Uint,
        Type::Double,
        Type::String,
        Type::Bool,
        Type::Null,
        Type::Dyn,
        Type::Error,
        Type::Timestamp,
        param(),
        object(),
        Type::object("kubernetes.Quantity"),
        Type::ip(),
        Type::list(Type::Int),
        Type::list(param()),
        Type::list(Type::Dyn),
        Type::map(Type::String, Type::Int),
        Type::map(param(), Type::param("B")),
        Type::optional(Type::String),
        Type::optional(param()),
        Type::type_of(Type::Int),
        Type::TypeOf(None),
    ];
    for to in &types {
        for from in &types {
            let (to, from) = (std::slice::from_ref(to), std::slice::from_ref(from));
            let assignable = is_assignable_list(to, from, &mut Substitution::new());
            assert!(!assignable || could_accept(to, from), "{to:?} <- {from:?}");
        }
    }
}
