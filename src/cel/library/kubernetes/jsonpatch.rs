//! Kubernetes JSON Patch library (`jsonpatch.go`): `jsonpatch.escapeKey`, declared only for
//! MutatingAdmissionPolicy mutation expressions.

use super::super::build::*;
use super::super::{FunctionDecl, Library};

/// The JSON Patch functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    vec![
        func(Library::JsonPatch, "jsonpatch.escapeKey", "Escapes a map key for use in a JSON Pointer path: '~' becomes '~0' and '/' becomes '~1'.", &["'/metadata/labels/' + jsonpatch.escapeKey('example.com/team') // '/metadata/labels/example.com~1team'"])
            .global("string_jsonpatch_escapeKey_string", [STRING], STRING)
            .done(),
    ]
}
