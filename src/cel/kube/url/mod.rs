//! `kubernetes.URL`: the Kubernetes URL library over Go's `net/url` (not WHATWG: no host
//! lower-casing, no default-port removal, no path normalisation). `url(s)` accepts what
//! `url.ParseRequestURI` accepts (an absolute URL or an absolute path) and then keeps what
//! `url.Parse` makes of it (so a `#fragment` is split off). Equality compares Go's `String()`.
//!
//! Go strings may hold any bytes; decoded parts that are not UTF-8 are shown lossily (U+FFFD).

mod escape;
mod parse;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

pub use parse::parse_request_uri;

use escape::{Mode, escape as go_escape, unescape, valid_encoded};

/// A parsed URL, field for field like Go's `url.URL` (decoded parts as bytes).
#[derive(Clone, Debug, Default)]
pub struct Url {
    scheme: String,
    opaque: String,
    /// User name and optional password, decoded.
    user: Option<(Vec<u8>, Option<Vec<u8>>)>,
    host: Vec<u8>,
    path: Vec<u8>,
    raw_path: String,
    omit_host: bool,
    force_query: bool,
    raw_query: String,
    fragment: Vec<u8>,
    raw_fragment: String,
}

const WRAP: &str = "URL parse error during conversion from string: ";

/// `url(string)`: the URL, or upstream's error text.
pub fn parse_url(s: &str) -> Result<Url, String> {
    parse_request_uri(s).map_err(|e| format!("{WRAP}{e}"))?;
    parse::parse_any(s).map_err(|e| format!("{WRAP}{e}"))
}

/// `isURL(string)`.
pub fn is_url(s: &str) -> bool {
    parse_request_uri(s).is_ok()
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `splitHostPort`: a valid numeric `:port` is split off, then brackets are removed.
fn split_host_port(host_port: &[u8]) -> (&[u8], &[u8]) {
    let mut host = host_port;
    let mut port: &[u8] = b"";
    if let Some(colon) = host.iter().rposition(|&b| b == b':')
        && host[colon + 1..].iter().all(u8::is_ascii_digit)
    {
        (host, port) = (&host_port[..colon], &host_port[colon + 1..]);
    }
    if host.len() >= 2 && host.starts_with(b"[") && host.ends_with(b"]") {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

impl Url {
    /// `getScheme()` (lower-cased by the parser).
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// `getHost()`: host and port as written, IPv6 brackets kept.
    pub fn host(&self) -> String {
        lossy(&self.host)
    }

    /// `getHostname()`: the host without port and brackets.
    pub fn hostname(&self) -> String {
        lossy(split_host_port(&self.host).0)
    }

    /// `getPort()`: the numeric port, or empty.
    pub fn port(&self) -> String {
        lossy(split_host_port(&self.host).1)
    }

    /// `getEscapedPath()`: the path as written when that is a valid encoding, else re-escaped.
    pub fn escaped_path(&self) -> String {
        let raw = self.raw_path.as_bytes();
        if !raw.is_empty()
            && valid_encoded(raw, Mode::Path)
            && unescape(raw, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == b"*" {
            return "*".to_owned();
        }
        go_escape(&self.path, Mode::Path)
    }

    /// `getQuery()`: Go's `url.ParseQuery` of the raw query, malformed pairs dropped.
    pub fn query(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for pair in self.raw_query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(k), Ok(v)) = (
                unescape(k.as_bytes(), Mode::QueryComponent),
                unescape(v.as_bytes(), Mode::QueryComponent),
            ) else {
                continue;
            };
            out.entry(lossy(&k)).or_default().push(lossy(&v));
        }
        out
    }

    fn escaped_fragment(&self) -> String {
        let raw = self.raw_fragment.as_bytes();
        if !raw.is_empty()
            && valid_encoded(raw, Mode::Fragment)
            && unescape(raw, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        go_escape(&self.fragment, Mode::Fragment)
    }

    fn write_authority(&self, out: &mut String) {
        if self.omit_host && self.host.is_empty() && self.user.is_none() {
            return;
        }
        if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
            out.push_str("//");
        }
        if let Some((name, password)) = &self.user {
            out.push_str(&go_escape(name, Mode::UserPassword));
            if let Some(p) = password {
                out.push(':');
                out.push_str(&go_escape(p, Mode::UserPassword));
            }
            out.push('@');
        }
        out.push_str(&go_escape(&self.host, Mode::Host));
    }
}

impl std::fmt::Display for Url {
    /// Go's `URL.String()`, which CEL equality compares.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::new();
        if !self.scheme.is_empty() {
            out.push_str(&self.scheme);
            out.push(':');
        }
        if !self.opaque.is_empty() {
            out.push_str(&self.opaque);
        } else {
            if !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some() {
                self.write_authority(&mut out);
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                out.push('/');
            }
            if out.is_empty() && path.split('/').next().is_some_and(|s| s.contains(':')) {
                out.push_str("./");
            }
            out.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push('?');
            out.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            out.push('#');
            out.push_str(&self.escaped_fragment());
        }
        f.write_str(&out)
    }
}

/// CEL `==` on URLs: equal `String()` forms.
impl PartialEq for Url {
    fn eq(&self, other: &Url) -> bool {
        self.to_string() == other.to_string()
    }
}
