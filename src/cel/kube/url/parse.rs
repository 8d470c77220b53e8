//! Go `net/url` parsing (`parse`, `Parse`, `ParseRequestURI`) as of the Go releases current
//! Kubernetes builds with: bracketed hosts must be IPv6 literals, `http`/`https` hosts may hold one
//! colon only, an empty authority after a scheme sets `OmitHost`.

use super::Url;
use super::escape::{Mode, escape, unescape};
use crate::cel::kube::go::quote;
use crate::cel::kube::ip::netip_parse_addr;

/// `getScheme`: the scheme and the rest, or "missing protocol scheme".
fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// Go's internal `parse`; the error is the bare message (callers wrap it in `url.Error`).
pub(super) fn parse(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".to_owned());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        url.raw_query = query.to_owned();
        rest = before;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".to_owned());
        }
        if rest.split('/').next().is_some_and(|seg| seg.contains(':')) {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    let has_scheme = !url.scheme.is_empty();
    if (has_scheme || !via_request && !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        parse_authority(&mut url, authority)?;
        rest = path;
    } else if has_scheme && rest.starts_with('/') {
        url.omit_host = true;
    }
    set_path(&mut url, rest)?;
    Ok(url)
}

fn set_path(url: &mut Url, p: &str) -> Result<(), String> {
    let path = unescape(p.as_bytes(), Mode::Path)?;
    url.raw_path = if escape(&path, Mode::Path) == p {
        String::new()
    } else {
        p.to_owned()
    };
    url.path = path;
    Ok(())
}

fn set_fragment(url: &mut Url, f: &str) -> Result<(), String> {
    let frag = unescape(f.as_bytes(), Mode::Fragment)?;
    url.raw_fragment = if escape(&frag, Mode::Fragment) == f {
        String::new()
    } else {
        f.to_owned()
    };
    url.fragment = frag;
    Ok(())
}

fn valid_userinfo(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
}

fn parse_authority(url: &mut Url, authority: &str) -> Result<(), String> {
    let at = authority.rfind('@');
    let host_part = at.map_or(authority, |i| &authority[i + 1..]);
    url.host = parse_host(&url.scheme, host_part)?;
    let Some(i) = at else {
        return Ok(());
    };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".to_owned());
    }
    url.user = Some(match userinfo.split_once(':') {
        None => (unescape(userinfo.as_bytes(), Mode::UserPassword)?, None),
        Some((name, password)) => (
            unescape(name.as_bytes(), Mode::UserPassword)?,
            Some(unescape(password.as_bytes(), Mode::UserPassword)?),
        ),
    });
    Ok(())
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

fn invalid_port(colon_port: &str) -> String {
    format!("invalid port {} after host", quote(colon_port))
}

fn parse_host(scheme: &str, host: &str) -> Result<Vec<u8>, String> {
    match host.rfind('[') {
        Some(i) if i > 0 => Err("invalid IP-literal".to_owned()),
        Some(_) => parse_ip_literal(host),
        None => {
            if let Some(first) = host.find(':') {
                let last = host.rfind(':').unwrap_or(first);
                let i = if last != first && scheme != "http" && scheme != "https" {
                    last
                } else {
                    first
                };
                if !valid_optional_port(&host[i..]) {
                    return Err(invalid_port(&host[i..]));
                }
            }
            unescape(host.as_bytes(), Mode::Host)
        }
    }
}

/// `[v6addr%25zone]:port`: the address must be IPv6 (Go rejects IPv4 in brackets).
fn parse_ip_literal(host: &str) -> Result<Vec<u8>, String> {
    let Some(close) = host.rfind(']') else {
        return Err("missing ']' in host".to_owned());
    };
    let colon_port = &host[close + 1..];
    if !valid_optional_port(colon_port) {
        return Err(invalid_port(colon_port));
    }
    let port = unescape(colon_port.as_bytes(), Mode::Host)?;
    let hostname = &host[1..close];
    let mut unescaped = match hostname.find("%25") {
        Some(z) => {
            let mut h = unescape(&hostname.as_bytes()[..z], Mode::Host)?;
            h.extend(unescape(&hostname.as_bytes()[z..], Mode::Zone)?);
            h
        }
        None => unescape(hostname.as_bytes(), Mode::Host)?,
    };
    let text = String::from_utf8_lossy(&unescaped).into_owned();
    match netip_parse_addr(&text) {
        Err(e) => return Err(format!("invalid host: {e}")),
        Ok((ip, _)) if ip.family() == 4 => return Err("invalid IP-literal".to_owned()),
        Ok(_) => {}
    }
    let mut out = b"[".to_vec();
    out.append(&mut unescaped);
    out.push(b']');
    out.extend(port);
    Ok(out)
}

fn url_error(raw: &str, msg: &str) -> String {
    format!("parse {}: {msg}", quote(raw))
}

/// `url.ParseRequestURI`: an absolute URL or an absolute path, no fragment splitting.
pub fn parse_request_uri(raw: &str) -> Result<Url, String> {
    parse(raw, true).map_err(|e| url_error(raw, &e))
}

/// `url.Parse`: any URL reference, fragment split off first.
pub fn parse_any(raw: &str) -> Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse(u, false).map_err(|e| url_error(u, &e))?;
    if !frag.is_empty() {
        set_fragment(&mut url, frag).map_err(|e| url_error(raw, &e))?;
    }
    Ok(url)
}
