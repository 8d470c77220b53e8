//! Kubernetes semver library, version 1 (`semverlib.go`, 1.33): `semver`, `isSemver` (with the
//! `normalize` overloads of version 1), comparisons and the version parts.

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::Type;

const SEMVER: Library = Library::SemverV1;

/// The semver functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let v = Type::semver;
    vec![
        func(SEMVER, "semver", "Parses a semantic version such as '1.2.3-rc.1'; with `true` as second argument, also accepts a 'v' prefix, missing minor or patch parts and leading zeros, normalising them.", &["semver('1.2.3').major() // 1", "semver('v1.2', true) == semver('1.2.0') // true"])
            .global("string_to_semver", [STRING], v())
            .global("string_bool_to_semver", [STRING, BOOL], v())
            .done(),
        func(SEMVER, "isSemver", "Whether `semver()` would accept the string (with the same optional normalisation flag).", &["isSemver('1.2.3') // true", "isSemver('v1.0', true) // true"])
            .global("is_semver_string", [STRING], BOOL)
            .global("is_semver_string_bool", [STRING, BOOL], BOOL)
            .done(),
        func(SEMVER, "isGreaterThan", "Whether the version is higher than the argument by semantic-version precedence.", &["semver('1.10.0').isGreaterThan(semver('1.9.0')) // true"])
            .member("semver_is_greater_than", [v(), v()], BOOL)
            .done(),
        func(SEMVER, "isLessThan", "Whether the version is lower than the argument by semantic-version precedence.", &["semver('1.0.0-alpha').isLessThan(semver('1.0.0')) // true"])
            .member("semver_is_less_than", [v(), v()], BOOL)
            .done(),
        func(SEMVER, "compareTo", "-1, 0 or 1 as the version is lower than, equal to or higher than the argument.", &["semver('1.2.3').compareTo(semver('1.2.3')) // 0"])
            .member("semver_compare_to", [v(), v()], INT)
            .done(),
        func(SEMVER, "major", "The major version number.", &["semver('2.5.1').major() // 2"])
            .member("semver_major", [v()], INT)
            .done(),
        func(SEMVER, "minor", "The minor version number.", &["semver('2.5.1').minor() // 5"])
            .member("semver_minor", [v()], INT)
            .done(),
        func(SEMVER, "patch", "The patch version number.", &["semver('2.5.1').patch() // 1"])
            .member("semver_patch", [v()], INT)
            .done(),
    ]
}
