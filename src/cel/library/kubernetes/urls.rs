//! Kubernetes URLs library (`urls.go`): `url`, `isURL` and the `kubernetes.URL` accessors.

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::Type;

const URLS: Library = Library::Urls;

/// The URL functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let url = Type::url;
    vec![
        func(URLS, "url", "Parses an absolute URL or an absolute path into a `kubernetes.URL`; an error when the string is neither.", &["url('https://example.com:8080/path').getHost() // 'example.com:8080'"])
            .global("string_to_url", [STRING], url())
            .done(),
        func(URLS, "isURL", "Whether `url()` would accept the string.", &["isURL('https://example.com') // true", "isURL('not a url') // false"])
            .global("is_url_string", [STRING], BOOL)
            .done(),
        func(URLS, "getScheme", "The scheme of the URL, or '' for a path.", &["url('https://example.com').getScheme() // 'https'"])
            .member("url_get_scheme", [url()], STRING)
            .done(),
        func(URLS, "getHost", "The host of the URL with its port, if any; IPv6 addresses keep their brackets.", &["url('https://[::1]:80/').getHost() // '[::1]:80'"])
            .member("url_get_host", [url()], STRING)
            .done(),
        func(URLS, "getHostname", "The host of the URL without the port; IPv6 addresses lose their brackets.", &["url('https://[::1]:80/').getHostname() // '::1'"])
            .member("url_get_hostname", [url()], STRING)
            .done(),
        func(URLS, "getPort", "The port of the URL as a string, or '' when none is given.", &["url('https://example.com:8443').getPort() // '8443'"])
            .member("url_get_port", [url()], STRING)
            .done(),
        func(URLS, "getEscapedPath", "The path of the URL, percent-encoded.", &["url('https://example.com/a%20b').getEscapedPath() // '/a%20b'"])
            .member("url_get_escaped_path", [url()], STRING)
            .done(),
        func(URLS, "getQuery", "The query parameters of the URL, each name mapped to its list of values.", &["url('https://example.com/?k=a&k=b').getQuery() // {'k': ['a', 'b']}"])
            .member("url_get_query", [url()], map(STRING, list(STRING)))
            .done(),
    ]
}
