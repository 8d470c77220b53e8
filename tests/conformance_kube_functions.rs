//! Conformance: every function name of the Kubernetes known-functions set
//! (`../shared/conformance/kubernetes-cel-library/known_functions.json`, from the API server's
//! `library_compatibility_test.go`) is declared in the StoredExpressions environment of the release
//! that lists it and of every later release. Prints a pass rate; skips with a notice when the
//! conformance data is absent.

mod conformance_support;

use std::collections::BTreeMap;

use admission_ls::cel::library::{NEWEST_MINOR, libraries_for, lookup};
use conformance_support::{data_path, read_json};

/// `"1.31"` → 31.
fn minor_of(release: &str) -> Option<u32> {
    release.strip_prefix("1.")?.parse().ok()
}

/// Declared by a Kubernetes library (not only by the standard library or a cel-go extension) in
/// the stored environment of 1.`minor` and of every later release.
fn declared_from(name: &str, minor: u32) -> Result<(), String> {
    for later in minor..=NEWEST_MINOR {
        let libraries = libraries_for(later, true);
        let by_kubernetes =
            lookup(name, &libraries).any(|decl| decl.library.name().starts_with("kubernetes"));
        if !by_kubernetes {
            return Err(format!(
                "`{name}` (listed under 1.{minor}) is not declared by a Kubernetes library in 1.{later}"
            ));
        }
    }
    Ok(())
}

#[test]
fn known_functions_are_declared_from_their_release() {
    let Some(path) = data_path("kubernetes-cel-library/known_functions.json") else {
        return;
    };
    let json = read_json(&path);
    let by_release = json["by_release"]
        .as_object()
        .expect("by_release is an object");

    // A name may be listed under several releases (the semver names under 1.31 and 1.33); the
    // latest listing is the one that matches the environment, the earlier one is reported only.
    let mut latest: BTreeMap<&str, u32> = BTreeMap::new();
    let mut pairs = Vec::new();
    for (release, names) in by_release {
        let minor = minor_of(release).expect("release keys look like 1.NN");
        for name in names.as_array().expect("names are a list") {
            let name = name.as_str().expect("names are strings");
            pairs.push((minor, name));
            let entry = latest.entry(name).or_insert(minor);
            *entry = (*entry).max(minor);
        }
    }

    let (mut passed, mut checked, mut strict_passed) = (0, 0, 0);
    let mut failures = Vec::new();
    for &(minor, name) in &pairs {
        let result = declared_from(name, minor);
        if result.is_ok() {
            strict_passed += 1;
        }
        if latest.get(name) != Some(&minor) {
            println!(
                "notice: `{name}` is also listed under 1.{minor}, checked at its later listing ({})",
                result
                    .err()
                    .unwrap_or_else(|| "declared there too".to_string())
            );
            continue;
        }
        checked += 1;
        match result {
            Ok(()) => passed += 1,
            Err(message) => failures.push(message),
        }
    }
    println!(
        "known_functions: {passed}/{checked} names declared from their release ({:.1}%); strict, counting every listing: {strict_passed}/{}",
        100.0 * passed as f64 / checked.max(1) as f64,
        pairs.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
