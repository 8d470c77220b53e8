//! Tests of the declaration tables: unique overload ids, the library set of every Kubernetes
//! version, counts per library, and the signature format hover and completion show.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use expect_test::expect;

use super::*;
use crate::cel::types::Type;

#[test]
fn overload_ids_are_unique() {
    let mut seen = BTreeSet::new();
    let mut duplicates = Vec::new();
    for decl in all_functions() {
        for overload in &decl.overloads {
            if !seen.insert(&*overload.id) {
                duplicates.push(format!("{} ({})", overload.id, decl.name));
            }
        }
    }
    assert!(
        duplicates.is_empty(),
        "duplicate overload ids: {duplicates:?}"
    );
}

#[test]
fn declarations_are_well_formed() {
    for decl in all_functions() {
        assert!(!decl.doc.is_empty(), "{} has no doc", decl.name);
        assert!(!decl.overloads.is_empty(), "{} has no overload", decl.name);
        if !decl.is_internal() {
            assert!(!decl.examples.is_empty(), "{} has no example", decl.name);
        }
        for overload in &decl.overloads {
            assert!(
                !overload.member || !overload.params.is_empty(),
                "member overload {} has no receiver",
                overload.id
            );
            let mut mentioned = Vec::new();
            for ty in overload.params.iter().chain([&overload.result]) {
                ty.collect_params(&mut mentioned);
            }
            assert_eq!(mentioned, overload.type_params, "{}", overload.id);
        }
    }
    for decl in all_macros() {
        assert!(
            !decl.doc.is_empty() && !decl.examples.is_empty(),
            "{}",
            decl.name
        );
    }
}

#[test]
fn library_set_per_version() {
    let mut out = String::new();
    for minor in 27..=NEWEST_MINOR {
        for stored in [false, true] {
            let names: Vec<&str> = libraries_for(minor, stored)
                .into_iter()
                .filter(|library| *library != Library::Standard)
                .map(Library::name)
                .collect();
            let env = if stored { "stored" } else { "new   " };
            let _ = writeln!(out, "1.{minor} {env}: {}", names.join(", "));
        }
    }
    expect![[r#"
        1.27 new   : ext.Strings v0, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz
        1.27 stored: ext.Strings v0, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz
        1.28 new   : ext.Strings v0, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz
        1.28 stored: cel cross-type numeric comparisons, cel optional types v0, ext.Strings v0, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.quantity
        1.29 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v0, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.quantity
        1.29 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.quantity
        1.30 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.quantity
        1.30 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr
        1.31 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr
        1.31 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format
        1.32 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.jsonpatch
        1.32 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, ext.Strings v2, ext.Sets, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.jsonpatch
        1.33 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.jsonpatch
        1.33 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.34 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.34 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.35 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.35 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.36 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.36 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.37 new   : cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v0, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
        1.37 stored: cel cross-type numeric comparisons, cel optional types v0, cel optional types v1, cel optional types v2, ext.Strings v2, ext.Sets, ext.Lists v3, ext.TwoVarComprehensions, kubernetes.lists v1, kubernetes.regex, kubernetes.urls, kubernetes.authz, kubernetes.authzSelectors, kubernetes.quantity, kubernetes.net.ip, kubernetes.net.cidr, kubernetes.format, kubernetes.Semver v1, kubernetes.jsonpatch
    "#]].assert_eq(&out);
}

#[test]
fn counts_per_library() {
    let mut functions: BTreeMap<Library, (usize, usize)> = BTreeMap::new();
    for decl in all_functions() {
        let entry = functions.entry(decl.library).or_default();
        entry.0 += 1;
        entry.1 += decl.overloads.len();
    }
    let mut macros: BTreeMap<Library, usize> = BTreeMap::new();
    for decl in all_macros() {
        *macros.entry(decl.library).or_default() += 1;
    }
    let mut out = String::new();
    for library in Library::ALL {
        let (decls, overloads) = functions.get(&library).copied().unwrap_or_default();
        let macro_count = macros.get(&library).copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "{}: {decls} functions, {overloads} overloads, {macro_count} macros",
            library.name()
        );
    }
    let names: BTreeSet<&str> = all_functions().iter().map(|decl| decl.name).collect();
    let overloads: usize = all_functions()
        .iter()
        .map(|decl| decl.overloads.len())
        .sum();
    let _ = writeln!(
        out,
        "total: {} declarations, {} distinct names, {overloads} overloads, {} macros",
        all_functions().len(),
        names.len(),
        all_macros().len()
    );
    expect![[r#"
        cel standard library: 44 functions, 138 overloads, 6 macros
        cel cross-type numeric comparisons: 4 functions, 24 overloads, 0 macros
        cel optional types v0: 10 functions, 14 overloads, 1 macros
        cel optional types v1: 0 functions, 0 overloads, 1 macros
        cel optional types v2: 4 functions, 4 overloads, 0 macros
        ext.Strings v0: 10 functions, 16 overloads, 0 macros
        ext.Strings v1: 2 functions, 2 overloads, 0 macros
        ext.Strings v2: 0 functions, 0 overloads, 0 macros
        ext.Sets: 3 functions, 3 overloads, 0 macros
        ext.Lists v3: 7 functions, 22 overloads, 1 macros
        ext.TwoVarComprehensions: 1 functions, 2 overloads, 7 macros
        kubernetes.lists v0: 6 functions, 30 overloads, 0 macros
        kubernetes.lists v1: 1 functions, 1 overloads, 0 macros
        kubernetes.regex: 2 functions, 3 overloads, 0 macros
        kubernetes.urls: 8 functions, 8 overloads, 0 macros
        kubernetes.authz: 12 functions, 13 overloads, 0 macros
        kubernetes.authzSelectors: 2 functions, 2 overloads, 0 macros
        kubernetes.quantity: 11 functions, 13 overloads, 0 macros
        kubernetes.net.ip: 10 functions, 10 overloads, 0 macros
        kubernetes.net.cidr: 8 functions, 10 overloads, 0 macros
        kubernetes.format: 15 functions, 15 overloads, 0 macros
        kubernetes.Semver v1: 8 functions, 10 overloads, 0 macros
        kubernetes.jsonpatch: 1 functions, 1 overloads, 0 macros
        total: 169 declarations, 156 distinct names, 341 overloads, 16 macros
    "#]]
    .assert_eq(&out);
}

#[test]
fn signatures_render_for_hover_and_completion() {
    let libraries = libraries_for(NEWEST_MINOR, true);
    let mut out = String::new();
    for name in [
        "startsWith",
        "size",
        "indexOf",
        "getHours",
        "_+_",
        "quantity",
        "sign",
        "optional.of",
        "validate",
        "sets.contains",
    ] {
        for decl in lookup(name, &libraries) {
            for overload in &decl.overloads {
                let _ = writeln!(out, "{}", overload.signature(decl.name));
            }
        }
    }
    if let Some(decl) = lookup("startsWith", &libraries).next() {
        for overload in &decl.overloads {
            let _ = writeln!(out, "completion: {}", overload.label(decl.name));
        }
    }
    for name in ["has", "map", "transformList"] {
        for decl in macros(&libraries).filter(|decl| decl.name == name) {
            let _ = writeln!(out, "{}", decl.signature());
        }
    }
    expect![[r#"
        fn string.startsWith(string) -> bool
        fn size(bytes) -> int
        fn bytes.size() -> int
        fn size(list(A)) -> int
        fn list(A).size() -> int
        fn size(map(A, B)) -> int
        fn map(A, B).size() -> int
        fn size(string) -> int
        fn string.size() -> int
        fn string.indexOf(string) -> int
        fn string.indexOf(string, int) -> int
        fn list(A).indexOf(A) -> int
        fn timestamp.getHours() -> int
        fn timestamp.getHours(string) -> int
        fn duration.getHours() -> int
        fn _+_(bytes, bytes) -> bytes
        fn _+_(double, double) -> double
        fn _+_(duration, duration) -> duration
        fn _+_(duration, timestamp) -> timestamp
        fn _+_(timestamp, duration) -> timestamp
        fn _+_(int, int) -> int
        fn _+_(list(A), list(A)) -> list(A)
        fn _+_(string, string) -> string
        fn _+_(uint, uint) -> uint
        fn quantity(string) -> kubernetes.Quantity
        fn sign(kubernetes.Quantity) -> int
        fn optional.of(V) -> optional_type(V)
        fn kubernetes.NamedFormat.validate(string) -> optional_type(list(string))
        fn sets.contains(list(T), list(T)) -> bool
        completion: fn startsWith(string) -> bool
        macro has(_)
        macro _.map(_, _) | macro _.map(_, _, _)
        macro _.transformList(_, _, _) | macro _.transformList(_, _, _, _)
    "#]]
    .assert_eq(&out);
}

#[test]
fn version_gating_of_names() {
    let show = |name: &str| {
        let new = first_minor_with(name, false).map_or("-".to_string(), |m| format!("1.{m}"));
        let stored = first_minor_with(name, true).map_or("-".to_string(), |m| format!("1.{m}"));
        format!("{name}: new {new}, stored {stored}")
    };
    let out: Vec<String> = [
        "startsWith",
        "isSorted",
        "check",
        "quantity",
        "optional.of",
        "format",
        "charAt",
        "sets.contains",
        "ip",
        "format.named",
        "fieldSelector",
        "cel.@mapInsert",
        "semver",
        "first",
        "slice",
        "includes",
        "jsonpatch.escapeKey",
        "reverse",
    ]
    .iter()
    .map(|name| show(name))
    .collect();
    let out: Vec<String> = out
        .into_iter()
        .chain([
            format!(
                "overload semver_is_greater_than: new {:?}",
                first_minor_with_overload("semver_is_greater_than", false)
            ),
            format!(
                "overload quantity_is_greater_than: new {:?}",
                first_minor_with_overload("quantity_is_greater_than", false)
            ),
            format!(
                "macro two-variable all: stored {:?}",
                first_minor_with_macro("all", true, 3, true)
            ),
        ])
        .collect();
    expect![[r#"
        startsWith: new 1.24, stored 1.24
        isSorted: new 1.24, stored 1.24
        check: new 1.27, stored 1.27
        quantity: new 1.29, stored 1.28
        optional.of: new 1.29, stored 1.28
        format: new 1.30, stored 1.29
        charAt: new 1.24, stored 1.24
        sets.contains: new 1.30, stored 1.29
        ip: new 1.31, stored 1.30
        format.named: new 1.32, stored 1.31
        fieldSelector: new 1.32, stored 1.31
        cel.@mapInsert: new 1.33, stored 1.32
        semver: new 1.34, stored 1.33
        first: new 1.33, stored 1.33
        slice: new 1.35, stored 1.34
        includes: new -, stored 1.37
        jsonpatch.escapeKey: new 1.32, stored 1.32
        reverse: new 1.35, stored 1.34
        overload semver_is_greater_than: new Some(34)
        overload quantity_is_greater_than: new Some(29)
        macro two-variable all: stored Some(32)"#]]
    .assert_eq(&out.join("\n"));
}

#[test]
fn later_library_versions_keep_earlier_declarations() {
    let stored_37 = libraries_for(37, true);
    assert!(!stored_37.contains(&Library::KubeListsV0));
    assert!(lookup("isSorted", &stored_37).next().is_some());
    assert!(lookup("includes", &stored_37).next().is_some());
    let new_37 = libraries_for(37, false);
    assert!(lookup("includes", &new_37).next().is_none());
    let stored_29 = libraries_for(29, true);
    assert!(!stored_29.contains(&Library::StringsV0));
    assert!(lookup("charAt", &stored_29).next().is_some());
    assert!(lookup("format", &stored_29).next().is_some());
    assert!(lookup("format", &libraries_for(29, false)).next().is_none());
}

#[test]
fn macros_resolve_by_style_and_arity() {
    let libraries = libraries_for(NEWEST_MINOR, false);
    let found = |name: &str, member: bool, args: usize| {
        lookup_macro(name, member, args, &libraries).map(|decl| decl.library.name())
    };
    assert_eq!(found("all", true, 2), Some("cel standard library"));
    assert_eq!(found("all", true, 3), Some("ext.TwoVarComprehensions"));
    assert_eq!(found("all", false, 2), None);
    assert_eq!(found("has", false, 1), Some("cel standard library"));
    assert_eq!(found("map", true, 4), None);
    assert_eq!(found("optFlatMap", true, 2), Some("cel optional types v1"));
    let old = libraries_for(28, false);
    assert!(lookup_macro("optMap", true, 2, &old).is_none());
    assert!(lookup_macro("transformList", true, 3, &old).is_none());
}

#[test]
fn type_identifiers_follow_libraries() {
    let names = |minor: u32| {
        let libraries = libraries_for(minor, true);
        type_identifiers(&libraries)
            .map(|ident| format!("{}: {}", ident.name, Type::type_of(ident.denotes.clone())))
            .collect::<Vec<_>>()
            .join("\n")
    };
    expect![[r#"
        bool: type(bool)
        bytes: type(bytes)
        double: type(double)
        google.protobuf.Duration: type(google.protobuf.Duration)
        int: type(int)
        list: type(list(dyn))
        map: type(map(dyn, dyn))
        null_type: type(null_type)
        string: type(string)
        google.protobuf.Timestamp: type(google.protobuf.Timestamp)
        type: type(type)
        uint: type(uint)
        optional_type: type(optional_type(dyn))
        kubernetes.URL: type(kubernetes.URL)
        kubernetes.Quantity: type(kubernetes.Quantity)
        net.IP: type(net.IP)
        net.CIDR: type(net.CIDR)
        kubernetes.NamedFormat: type(kubernetes.NamedFormat)
        kubernetes.Semver: type(kubernetes.Semver)
        kubernetes.authorization.Authorizer: type(kubernetes.authorization.Authorizer)
        kubernetes.authorization.PathCheck: type(kubernetes.authorization.PathCheck)
        kubernetes.authorization.GroupCheck: type(kubernetes.authorization.GroupCheck)
        kubernetes.authorization.ResourceCheck: type(kubernetes.authorization.ResourceCheck)
        kubernetes.authorization.Decision: type(kubernetes.authorization.Decision)"#]]
    .assert_eq(&names(NEWEST_MINOR));
    assert!(!names(29).contains("net.IP"));
}

#[test]
fn instantiation_gives_fresh_type_parameters() {
    let libraries = libraries_for(NEWEST_MINOR, true);
    let Some(index) = lookup("_[_]", &libraries).next() else {
        panic!("_[_] is declared");
    };
    let mut next_var = 7;
    let rendered: Vec<String> = index
        .overloads
        .iter()
        .map(|overload| {
            let (params, result) = overload.instantiate(&mut next_var);
            let params: Vec<String> = params.iter().map(ToString::to_string).collect();
            format!("{}: ({}) -> {result}", overload.id, params.join(", "))
        })
        .collect();
    expect![[r#"
        index_list: (list(_var7), int) -> _var7
        index_map: (map(_var8, _var9), _var8) -> _var9"#]]
    .assert_eq(&rendered.join("\n"));
    assert_eq!(next_var, 10);
}
