//! The certificate extensions Go's `crypto/x509` parser reads into fields
//! (`crypto/x509/parser.go` `processExtensions`), as Kyverno's `x509.decode` shows them: key
//! usage, extended key usage, basic constraints, subject alternative names, name constraints,
//! CRL distribution points, the authority key id, authority information access and the
//! certificate policies. Each list stays absent (null) until an entry is read, as Go's nil
//! slices are encoded.

use serde_json::{Value as Json, json};

use super::der::{self, Element, Reader};
use super::ip_text;

/// What the extensions set; the JSON field names are Go's.
#[derive(Debug, Default)]
pub struct Parsed {
    pub fields: serde_json::Map<String, Json>,
    /// `Extensions`: every extension as read.
    pub all: Vec<Json>,
}

impl Parsed {
    fn push(&mut self, field: &str, value: Json) {
        match self.fields.entry(field).or_insert_with(|| json!([])) {
            Json::Array(items) => items.push(value),
            other => *other = json!([value]),
        }
    }
}

/// Reads the `Extensions` SEQUENCE of a certificate or request.
pub fn read(sequence: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut reader = Reader::new(sequence);
    while !reader.is_empty() {
        let extension = reader.expect(der::SEQUENCE, "extension")?;
        let mut fields = Reader::new(extension.contents);
        let id = der::oid(fields.expect(der::OID, "extension")?.contents)?;
        let critical = match fields.optional(der::BOOLEAN)? {
            Some(flag) => flag.contents.first().is_some_and(|b| *b != 0),
            None => false,
        };
        let value = fields.expect(der::OCTET_STRING, "extension")?.contents;
        out.all.push(json!({
            "Id": id,
            "Critical": critical,
            "Value": super::base64(value),
        }));
        apply(&id, critical, value, out)?;
    }
    Ok(())
}

fn apply(id: &[u64], critical: bool, value: &[u8], out: &mut Parsed) -> Result<(), String> {
    match id {
        [2, 5, 29, 15] => key_usage(value, out),
        [2, 5, 29, 17] => alternative_names(value, out),
        [2, 5, 29, 19] => basic_constraints(value, out),
        [2, 5, 29, 30] => name_constraints(value, critical, out),
        [2, 5, 29, 31] => crl_points(value, out),
        [2, 5, 29, 32] => policies(value, out),
        [2, 5, 29, 35] => authority_key_id(value, out),
        [2, 5, 29, 37] => ext_key_usage(value, out),
        [1, 3, 6, 1, 5, 5, 7, 1, 1] => authority_info(value, out),
        _ => Ok(()),
    }
}

fn sequence_of<'d>(value: &'d [u8], what: &str) -> Result<Reader<'d>, String> {
    let mut outer = Reader::new(value);
    Ok(Reader::new(outer.expect(der::SEQUENCE, what)?.contents))
}

fn text(element: &Element, what: &str) -> Result<String, String> {
    std::str::from_utf8(element.contents)
        .map(str::to_string)
        .map_err(|_| der::malformed(what))
}

/// Go's `KeyUsage`: bit i of the bit string (from the most significant) is `1 << i`.
fn key_usage(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let bits = der::bit_string(
        Reader::new(value)
            .expect(der::BIT_STRING, "key usage")?
            .contents,
    )?;
    let mut usage = 0u32;
    for i in 0..9 {
        let set = bits.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0);
        if set {
            usage |= 1 << i;
        }
    }
    out.fields
        .insert("KeyUsage".into(), json!(f64::from(usage)));
    Ok(())
}

fn basic_constraints(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut fields = sequence_of(value, "basic constraints")?;
    let is_ca = match fields.optional(der::BOOLEAN)? {
        Some(flag) => flag.contents.first().is_some_and(|b| *b != 0),
        None => false,
    };
    let max_path = match fields.optional(der::INTEGER)? {
        Some(n) => der::small_integer(n.contents)?,
        None => -1,
    };
    out.fields
        .insert("BasicConstraintsValid".into(), json!(true));
    out.fields.insert("IsCA".into(), json!(is_ca));
    out.fields
        .insert("MaxPathLen".into(), json!(max_path as f64));
    out.fields
        .insert("MaxPathLenZero".into(), json!(max_path == 0));
    Ok(())
}

/// GeneralNames: rfc822Name [1], dNSName [2], URI [6], iPAddress [7].
fn alternative_names(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut names = sequence_of(value, "SAN extension")?;
    while !names.is_empty() {
        let name = names.any()?;
        match name.tag {
            0x81 => out.push("EmailAddresses", json!(text(&name, "SAN rfc822Name")?)),
            0x82 => out.push("DNSNames", json!(text(&name, "SAN dNSName")?)),
            0x86 => out.push("URIs", json!(text(&name, "SAN uniformResourceIdentifier")?)),
            0x87 => {
                let ip = ip_text(name.contents).ok_or_else(|| {
                    format!(
                        "x509: cannot parse IP address of length {}",
                        name.contents.len()
                    )
                })?;
                out.push("IPAddresses", json!(ip));
            }
            _ => {}
        }
    }
    Ok(())
}

fn name_constraints(value: &[u8], critical: bool, out: &mut Parsed) -> Result<(), String> {
    out.fields
        .insert("PermittedDNSDomainsCritical".into(), json!(critical));
    let mut fields = sequence_of(value, "name constraints")?;
    for (tag, prefix) in [(0xa0, "Permitted"), (0xa1, "Excluded")] {
        let Some(subtrees) = fields.optional(tag)? else {
            continue;
        };
        let mut subtrees = Reader::new(subtrees.contents);
        while !subtrees.is_empty() {
            let subtree = subtrees.expect(der::SEQUENCE, "NameConstraints")?;
            let base = Reader::new(subtree.contents).any()?;
            let (field, value) = match base.tag {
                0x81 => ("EmailAddresses", json!(text(&base, "NameConstraints")?)),
                0x82 => ("DNSDomains", json!(text(&base, "NameConstraints")?)),
                0x86 => ("URIDomains", json!(text(&base, "NameConstraints")?)),
                0x87 => {
                    let half = base.contents.len() / 2;
                    let (Some(ip), true) = (
                        ip_text(&base.contents[..half]),
                        matches!(base.contents.len(), 8 | 32),
                    ) else {
                        return Err(format!(
                            "x509: IP constraint contained value of length {}",
                            base.contents.len()
                        ));
                    };
                    let mask = super::base64(&base.contents[half..]);
                    ("IPRanges", json!({ "IP": ip, "Mask": mask }))
                }
                _ if critical => {
                    return Err("x509: unhandled critical name constraint".to_string());
                }
                _ => continue,
            };
            out.push(&format!("{prefix}{field}"), value);
        }
    }
    Ok(())
}

/// The URIs of each distribution point's full name.
fn crl_points(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut points = sequence_of(value, "CRL distribution points")?;
    while !points.is_empty() {
        let point = points.expect(der::SEQUENCE, "CRL distribution point")?;
        let Some(name) = Reader::new(point.contents).optional(0xa0)? else {
            continue;
        };
        let Some(full) = Reader::new(name.contents).optional(0xa0)? else {
            continue;
        };
        let mut names = Reader::new(full.contents);
        while !names.is_empty() {
            let general = names.any()?;
            if general.tag == 0x86 {
                out.push("CRLDistributionPoints", json!(text(&general, "URI")?));
            }
        }
    }
    Ok(())
}

fn policies(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut infos = sequence_of(value, "certificate policies")?;
    while !infos.is_empty() {
        let info = infos.expect(der::SEQUENCE, "certificate policies")?;
        let id = Reader::new(info.contents).expect(der::OID, "certificate policies")?;
        out.push("PolicyIdentifiers", json!(der::oid(id.contents)?));
    }
    Ok(())
}

fn authority_key_id(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut fields = sequence_of(value, "authority key identifier")?;
    if let Some(id) = fields.optional(0x80)? {
        out.fields
            .insert("AuthorityKeyId".into(), json!(super::base64(id.contents)));
    }
    Ok(())
}

/// Go's `ExtKeyUsage` numbers by OID (`crypto/x509/x509.go` `extKeyUsageOIDs`); others are
/// Go's `UnknownExtKeyUsage`, which the output leaves out.
fn ext_key_usage(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut ids = sequence_of(value, "extended key usages")?;
    while !ids.is_empty() {
        let id = der::oid(ids.expect(der::OID, "extended key usages")?.contents)?;
        let known: Option<u32> = match id.as_slice() {
            [2, 5, 29, 37, 0] => Some(0),
            [1, 3, 6, 1, 5, 5, 7, 3, n @ 1..=9] => Some(*n as u32),
            [1, 3, 6, 1, 4, 1, 311, 10, 3, 3] => Some(10),
            [2, 16, 840, 1, 113730, 4, 1] => Some(11),
            [1, 3, 6, 1, 4, 1, 311, 2, 1, 22] => Some(12),
            [1, 3, 6, 1, 4, 1, 311, 61, 1, 1] => Some(13),
            _ => None,
        };
        if let Some(n) = known {
            out.push("ExtKeyUsage", json!(f64::from(n)));
        }
    }
    Ok(())
}

/// OCSP servers and issuer URLs (`id-ad-ocsp`, `id-ad-caIssuers`).
fn authority_info(value: &[u8], out: &mut Parsed) -> Result<(), String> {
    let mut descriptions = sequence_of(value, "authority info access")?;
    while !descriptions.is_empty() {
        let description = descriptions.expect(der::SEQUENCE, "authority info access")?;
        let mut fields = Reader::new(description.contents);
        let method = der::oid(fields.expect(der::OID, "authority info access")?.contents)?;
        let location = fields.any()?;
        if location.tag != 0x86 {
            continue;
        }
        let field = match method.as_slice() {
            [1, 3, 6, 1, 5, 5, 7, 48, 1] => "OCSPServer",
            [1, 3, 6, 1, 5, 5, 7, 48, 2] => "IssuingCertificateURL",
            _ => continue,
        };
        out.push(field, json!(text(&location, "URI")?));
    }
    Ok(())
}
