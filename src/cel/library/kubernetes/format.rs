//! Kubernetes named-format library (`format.go`, 1.31): `format.named`, `validate` and one
//! zero-argument function per built-in format (`format.dns1123Label()`…), whose overload id is the
//! function name itself.

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::Type;

const FORMAT: Library = Library::Format;

/// (function name, doc, example) of each constant format.
const CONSTANTS: [(&str, &str, &[&str]); 13] = [
    (
        "format.dns1123Label",
        "A DNS-1123 label: at most 63 lower-case alphanumerics or '-', starting and ending alphanumeric.",
        &["format.dns1123Label().validate('my-name') // optional.none()"],
    ),
    (
        "format.dns1123Subdomain",
        "A DNS-1123 subdomain: at most 253 characters of dot-separated DNS-1123 labels.",
        &["format.dns1123Subdomain().validate('example.com') // optional.none()"],
    ),
    (
        "format.dns1035Label",
        "A DNS-1035 label: like a DNS-1123 label but starting with a letter.",
        &["format.dns1035Label().validate('1abc').hasValue() // true"],
    ),
    (
        "format.qualifiedName",
        "A qualified name as used for label keys: an optional DNS subdomain prefix and '/', then a name of at most 63 characters.",
        &["format.qualifiedName().validate('app.kubernetes.io/name') // optional.none()"],
    ),
    (
        "format.dns1123LabelPrefix",
        "A prefix that can still become a DNS-1123 label (a trailing '-' is allowed), as used by generateName.",
        &["format.dns1123LabelPrefix().validate('web-') // optional.none()"],
    ),
    (
        "format.dns1123SubdomainPrefix",
        "A prefix that can still become a DNS-1123 subdomain, as used by generateName.",
        &["format.dns1123SubdomainPrefix().validate('web.') // optional.none()"],
    ),
    (
        "format.dns1035LabelPrefix",
        "A prefix that can still become a DNS-1035 label, as used by generateName.",
        &["format.dns1035LabelPrefix().validate('web-') // optional.none()"],
    ),
    (
        "format.labelValue",
        "A label value: empty, or at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric.",
        &["format.labelValue().validate('v1.2') // optional.none()"],
    ),
    (
        "format.uri",
        "A URI as accepted by Go's url.ParseRequestURI.",
        &["format.uri().validate('https://example.com') // optional.none()"],
    ),
    (
        "format.uuid",
        "A UUID in its canonical 8-4-4-4-12 hexadecimal form.",
        &["format.uuid().validate('not-a-uuid').hasValue() // true"],
    ),
    (
        "format.byte",
        "Base64-encoded data.",
        &["format.byte().validate('aGVsbG8=') // optional.none()"],
    ),
    (
        "format.date",
        "A full date as in RFC 3339 (YYYY-MM-DD).",
        &["format.date().validate('2024-05-01') // optional.none()"],
    ),
    (
        "format.datetime",
        "A date-time as in RFC 3339.",
        &["format.datetime().validate('2024-05-01T10:00:00Z') // optional.none()"],
    ),
];

/// The format functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let format = Type::named_format;
    let mut out = vec![
        func(FORMAT, "format.named", "The built-in format with the given name (such as 'dns1123Label'), or `optional.none()` for an unknown name.", &["format.named('uuid').hasValue() // true"])
            .global("format-named", [STRING], opt(format()))
            .done(),
        func(FORMAT, "validate", "Checks a string against the format: `optional.none()` when it is valid, otherwise an optional list of the error messages.", &["format.dns1123Label().validate('Bad_Name').hasValue() // true"])
            .member("format-validate", [format(), STRING], opt(list(STRING)))
            .done(),
    ];
    for (name, doc, examples) in CONSTANTS {
        out.push(
            func(FORMAT, name, doc, examples)
                .global(name, [], format())
                .done(),
        );
    }
    out
}
