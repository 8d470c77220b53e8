//! Kyverno's `x509.decode` (kyverno/sdk `extensions/cel/libs/x509/impl.go`): the first PEM
//! block of a string, a `CERTIFICATE` or a `CERTIFICATE REQUEST` with an RSA key, as the map
//! Kyverno returns, which is Go's `encoding/json` of its `CertificateOutput` (a certificate)
//! or of `x509.CertificateRequest` (a request) read back into a map: Go's field names, bytes
//! as base64, the public key as `{N: decimal, E}`, every number a double (JSON numbers read
//! into `any` are float64), and lists Go leaves nil as null. The fields come from
//! `crypto/x509/parser.go`; `der.rs` reads the encoding, `extensions.rs` the extensions.

mod der;
mod extensions;

use base64::Engine;
use serde_json::{Value as Json, json};

use crate::cel::eval::{ErrorKind, Value};
use der::{Element, Reader};

/// The function `name` of the x509 library, `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    if name != "x509.decode" {
        return None;
    }
    let [Value::String(text)] = args else {
        return Some(Value::no_overload());
    };
    Some(match decode(text).map(|json| Value::from_json(&json)) {
        Ok(Ok(value)) => value,
        Ok(Err(error)) => Value::error(ErrorKind::InvalidArgument, error.to_string()),
        Err(message) => Value::error(ErrorKind::InvalidArgument, message),
    })
}

fn decode(text: &str) -> Result<Json, String> {
    let (kind, der) = pem_block(text).ok_or("failed to decode PEM block")?;
    let json = match kind.as_str() {
        "CERTIFICATE" => certificate(&der)?,
        "CERTIFICATE REQUEST" => request(&der)?,
        _ => {
            return Err(
                "PEM block neither contains a CERTIFICATE or CERTIFICATE REQUEST".to_string(),
            );
        }
    };
    Ok(as_go_numbers(json))
}

/// The type and bytes of the first PEM block (RFC 7468) in `text`.
fn pem_block(text: &str) -> Option<(String, Vec<u8>)> {
    let start = text.find("-----BEGIN ")?;
    let rest = &text[start + "-----BEGIN ".len()..];
    let (kind, rest) = rest.split_once("-----")?;
    let end = rest.find(&format!("-----END {kind}-----"))?;
    let body: String = rest[..end]
        .lines()
        .filter(|line| !line.contains(':'))
        .flat_map(|line| line.chars().filter(|c| !c.is_whitespace()))
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body)
        .ok()?;
    Some((kind.to_string(), bytes))
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A `net.IP` as Go's `MarshalText` writes it; `None` for a length that is no address.
fn ip_text(bytes: &[u8]) -> Option<String> {
    match bytes.len() {
        4 => Some(std::net::Ipv4Addr::new(bytes[0], bytes[1], bytes[2], bytes[3]).to_string()),
        16 => {
            let mut octets = [0u8; 16];
            octets.copy_from_slice(bytes);
            let v6 = std::net::Ipv6Addr::from(octets);
            Some(match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => v6.to_string(),
            })
        }
        _ => None,
    }
}

fn certificate(der: &[u8]) -> Result<Json, String> {
    let outer = Reader::new(der).expect(der::SEQUENCE, "certificate")?;
    let mut parts = Reader::new(outer.contents);
    let tbs = parts.expect(der::SEQUENCE, "tbs certificate")?;
    parts.expect(der::SEQUENCE, "signature algorithm identifier")?;
    let signature = der::bit_string(parts.expect(der::BIT_STRING, "signature")?.contents)?;
    let mut fields = Reader::new(tbs.contents);
    fields.optional(0xa0)?;
    let serial = fields.expect(der::INTEGER, "serial number")?;
    fields.expect(der::SEQUENCE, "signature algorithm identifier")?;
    let issuer = fields.expect(der::SEQUENCE, "issuer")?;
    let validity = fields.expect(der::SEQUENCE, "validity")?;
    let subject = fields.expect(der::SEQUENCE, "subject")?;
    let key = fields.expect(der::SEQUENCE, "spki")?;
    fields.optional(0x81)?;
    fields.optional(0x82)?;
    let mut parsed = extensions::Parsed::default();
    if let Some(wrapper) = fields.optional(0xa3)? {
        let list = Reader::new(wrapper.contents).expect(der::SEQUENCE, "extensions")?;
        extensions::read(list.contents, &mut parsed)?;
    }
    let (algorithm, public_key) = rsa_key(&key)?;
    let mut times = Reader::new(validity.contents);
    let not_before = der::time(&times.any()?)?;
    let not_after = der::time(&times.any()?)?;
    let mut out = json!({
        "Raw": base64(outer.raw),
        "RawTBSCertificate": base64(tbs.raw),
        "RawSubjectPublicKeyInfo": base64(key.raw),
        "RawSubject": base64(subject.raw),
        "RawIssuer": base64(issuer.raw),
        "Signature": base64(signature),
        "PublicKeyAlgorithm": algorithm,
        "PublicKey": public_key,
        "SerialNumber": serial_int64(serial.contents)?,
        "Issuer": name(issuer.contents)?,
        "NotBefore": not_before,
        "NotAfter": not_after,
        "KeyUsage": 0,
        "Extensions": null,
        "ExtraExtensions": null,
        "ExtKeyUsage": null,
        "BasicConstraintsValid": false,
        "IsCA": false,
        "MaxPathLen": 0,
        "MaxPathLenZero": false,
        "AuthorityKeyId": null,
        "OCSPServer": null,
        "IssuingCertificateURL": null,
        "DNSNames": null,
        "EmailAddresses": null,
        "IPAddresses": null,
        "PermittedDNSDomainsCritical": false,
        "PermittedDNSDomains": null,
        "ExcludedDNSDomains": null,
        "PermittedIPRanges": null,
        "ExcludedIPRanges": null,
        "PermittedEmailAddresses": null,
        "ExcludedEmailAddresses": null,
        "PermittedURIDomains": null,
        "ExcludedURIDomains": null,
        "CRLDistributionPoints": null,
        "PolicyIdentifiers": null,
    });
    merge_extensions(&mut out, parsed, |field| field != "URIs");
    Ok(out)
}

/// The extension fields over Go's zero values (only those `keep` lets through).
fn merge_extensions(out: &mut Json, parsed: extensions::Parsed, keep: impl Fn(&str) -> bool) {
    let Json::Object(map) = out else {
        return;
    };
    if !parsed.all.is_empty() {
        map.insert("Extensions".into(), Json::Array(parsed.all));
    }
    for (field, value) in parsed.fields {
        if keep(&field) {
            map.insert(field, value);
        }
    }
}

fn request(der: &[u8]) -> Result<Json, String> {
    let outer = Reader::new(der).expect(der::SEQUENCE, "certificate request")?;
    let mut parts = Reader::new(outer.contents);
    let info = parts.expect(der::SEQUENCE, "certificate request")?;
    let signature_algorithm = parts.expect(der::SEQUENCE, "signature algorithm identifier")?;
    let signature = der::bit_string(parts.expect(der::BIT_STRING, "signature")?.contents)?;
    let mut fields = Reader::new(info.contents);
    let version = der::small_integer(fields.expect(der::INTEGER, "version")?.contents)?;
    let subject = fields.expect(der::SEQUENCE, "subject")?;
    let key = fields.expect(der::SEQUENCE, "spki")?;
    let (attributes, parsed) = match fields.optional(0xa0)? {
        Some(attributes) => request_attributes(attributes.contents)?,
        None => (Json::Null, extensions::Parsed::default()),
    };
    let (algorithm, public_key) = rsa_key(&key)?;
    let mut out = json!({
        "Raw": base64(outer.raw),
        "RawTBSCertificateRequest": base64(info.raw),
        "RawSubjectPublicKeyInfo": base64(key.raw),
        "RawSubject": base64(subject.raw),
        "Version": version,
        "Signature": base64(signature),
        "SignatureAlgorithm": signature_algorithm_number(signature_algorithm.contents),
        "PublicKeyAlgorithm": algorithm,
        "PublicKey": public_key,
        "Subject": name(subject.contents)?,
        "Attributes": attributes,
        "Extensions": null,
        "ExtraExtensions": null,
        "DNSNames": null,
        "EmailAddresses": null,
        "IPAddresses": null,
        "URIs": null,
    });
    let san = ["DNSNames", "EmailAddresses", "IPAddresses", "URIs"];
    merge_extensions(&mut out, parsed, |field| san.contains(&field));
    if let Some(uris) = out.get_mut("URIs") {
        *uris = uri_fields(uris.take());
    }
    Ok(out)
}

/// A request's attributes as Go's deprecated `Attributes` field reads them (those that decode
/// as SET OF SEQUENCE OF type and value; the others are left out, as `parseRawAttributes`
/// does), and the extensions of its `extensionRequest` attribute.
fn request_attributes(contents: &[u8]) -> Result<(Json, extensions::Parsed), String> {
    let mut parsed = extensions::Parsed::default();
    let mut kept = Vec::new();
    let mut attributes = Reader::new(contents);
    while !attributes.is_empty() {
        let attribute = attributes.expect(der::SEQUENCE, "attribute")?;
        let mut fields = Reader::new(attribute.contents);
        let id = der::oid(fields.expect(der::OID, "attribute")?.contents)?;
        let values = fields.expect(der::SET, "attribute")?;
        if id == [1, 2, 840, 113549, 1, 9, 14] {
            let mut sets = Reader::new(values.contents);
            let list = sets.expect(der::SEQUENCE, "extension request")?;
            extensions::read(list.contents, &mut parsed)?;
        }
        if let Some(value) = attribute_value_sets(values.contents) {
            kept.push(json!({ "Type": id, "Value": value }));
        }
    }
    let attributes = if kept.is_empty() {
        Json::Null
    } else {
        Json::Array(kept)
    };
    Ok((attributes, parsed))
}

/// `[][]AttributeTypeAndValue`: each SEQUENCE of the set, each of its SEQUENCEs a type and a
/// value (further elements ignored, as Go's `encoding/asn1` ignores a struct's extra ones).
fn attribute_value_sets(contents: &[u8]) -> Option<Json> {
    let mut sets = Vec::new();
    let mut reader = Reader::new(contents);
    while !reader.is_empty() {
        let set = reader.expect(der::SEQUENCE, "attribute").ok()?;
        let mut pairs = Vec::new();
        let mut inner = Reader::new(set.contents);
        while !inner.is_empty() {
            let pair = inner.expect(der::SEQUENCE, "attribute").ok()?;
            let mut fields = Reader::new(pair.contents);
            let id = der::oid(fields.expect(der::OID, "attribute").ok()?.contents).ok()?;
            let value = asn1_any(&fields.any().ok()?)?;
            pairs.push(json!({ "Type": id, "Value": value }));
        }
        sets.push(Json::Array(pairs));
    }
    Some(Json::Array(sets))
}

/// An element decoded into Go's `any` by `encoding/asn1`, for the types it knows.
fn asn1_any(element: &Element) -> Option<Json> {
    Some(match element.tag {
        der::BOOLEAN => json!(element.contents.first().is_some_and(|b| *b != 0)),
        der::INTEGER => json!(der::small_integer(element.contents).ok()?),
        der::OCTET_STRING => json!(base64(element.contents)),
        der::OID => json!(der::oid(element.contents).ok()?),
        0x0c | 0x13 | 0x16 | 0x14 => json!(String::from_utf8_lossy(element.contents)),
        _ => return None,
    })
}

/// Go's `url.URL` encoded, for the URIs of a request's alternative names.
fn uri_fields(uris: Json) -> Json {
    let Json::Array(uris) = uris else {
        return Json::Null;
    };
    let parsed = uris
        .iter()
        .filter_map(Json::as_str)
        .map(|uri| {
            let (scheme, rest) = uri.split_once(':').unwrap_or(("", uri));
            let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
            let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
            let (host, path, opaque) = match rest.strip_prefix("//") {
                Some(authority) => {
                    let cut = authority.find('/').unwrap_or(authority.len());
                    (&authority[..cut], &authority[cut..], "")
                }
                None => ("", "", rest),
            };
            json!({
                "Scheme": scheme, "Opaque": opaque, "User": null, "Host": host, "Path": path,
                "RawPath": "", "OmitHost": false, "ForceQuery": false, "RawQuery": query,
                "Fragment": fragment, "RawFragment": "",
            })
        })
        .collect();
    Json::Array(parsed)
}

/// Go's `SignatureAlgorithm` number of an AlgorithmIdentifier (0: unknown).
fn signature_algorithm_number(contents: &[u8]) -> u32 {
    let mut fields = Reader::new(contents);
    let Some(id) = fields
        .expect(der::OID, "algorithm")
        .ok()
        .and_then(|e| der::oid(e.contents).ok())
    else {
        return 0;
    };
    match id.as_slice() {
        [1, 2, 840, 113549, 1, 1, n @ (2 | 4 | 5 | 11 | 12 | 13)] => match n {
            2 => 1,
            4 => 2,
            5 => 3,
            11 => 4,
            12 => 5,
            _ => 6,
        },
        [1, 3, 14, 3, 2, 29] => 3,
        [1, 2, 840, 113549, 1, 1, 10] => pss_number(fields),
        [1, 2, 840, 10040, 4, 3] => 7,
        [2, 16, 840, 1, 101, 3, 4, 3, 2] => 8,
        [1, 2, 840, 10045, 4, 1] => 9,
        [1, 2, 840, 10045, 4, 3, n @ 2..=4] => 8 + *n as u32,
        [1, 3, 101, 112] => 16,
        _ => 0,
    }
}

/// RSA-PSS by the hash of its parameters (SHA-256, -384, -512: 13, 14, 15).
fn pss_number(mut fields: Reader) -> u32 {
    let hash = fields
        .expect(der::SEQUENCE, "pss")
        .ok()
        .and_then(|params| Reader::new(params.contents).optional(0xa0).ok().flatten())
        .and_then(|explicit| {
            Reader::new(explicit.contents)
                .expect(der::SEQUENCE, "pss")
                .ok()
        })
        .and_then(|algorithm| Reader::new(algorithm.contents).expect(der::OID, "pss").ok())
        .and_then(|id| der::oid(id.contents).ok());
    match hash.as_deref() {
        Some([2, 16, 840, 1, 101, 3, 4, 2, n @ 1..=3]) => 12 + *n as u32,
        _ => 0,
    }
}

/// Go's `PublicKeyAlgorithm` and Kyverno's `{N, E}` of an RSA key; any other key is refused as
/// Kyverno refuses it.
fn rsa_key(spki: &Element) -> Result<(u32, Json), String> {
    let mut fields = Reader::new(spki.contents);
    let algorithm = fields.expect(der::SEQUENCE, "spki")?;
    let id = der::oid(
        Reader::new(algorithm.contents)
            .expect(der::OID, "spki")?
            .contents,
    )?;
    if id != [1, 2, 840, 113549, 1, 1, 1] {
        return Err("certificate should use rsa algorithm".to_string());
    }
    let bits = der::bit_string(fields.expect(der::BIT_STRING, "spki")?.contents)?;
    let key = Reader::new(bits).expect(der::SEQUENCE, "RSA public key")?;
    let mut numbers = Reader::new(key.contents);
    let (negative, modulus) = der::integer(numbers.expect(der::INTEGER, "RSA modulus")?.contents)?;
    if negative || modulus.is_empty() {
        return Err("x509: RSA modulus is not a positive number".to_string());
    }
    let exponent = der::small_integer(numbers.expect(der::INTEGER, "RSA exponent")?.contents)?;
    Ok((1, json!({ "N": der::decimal(&modulus), "E": exponent })))
}

/// `big.Int.Int64`: the low 64 bits of the magnitude. A negative serial number is refused, as
/// Go's parser does since go1.23 (`crypto/x509/parser.go`, without `x509negativeserial=1`).
fn serial_int64(contents: &[u8]) -> Result<i64, String> {
    let (negative, magnitude) = der::integer(contents)?;
    if negative {
        return Err("x509: negative serial number".to_string());
    }
    let low = magnitude
        .iter()
        .rev()
        .take(8)
        .rev()
        .fold(0u64, |n, b| (n << 8) | u64::from(*b));
    Ok(low as i64)
}

/// A `pkix.Name` filled from an RDN sequence (`FillFromRDNSequence`): every attribute in
/// `Names`, the known ones also in their fields.
fn name(contents: &[u8]) -> Result<Json, String> {
    let mut lists: [(&str, Vec<String>); 7] = [
        ("Country", Vec::new()),
        ("Organization", Vec::new()),
        ("OrganizationalUnit", Vec::new()),
        ("Locality", Vec::new()),
        ("Province", Vec::new()),
        ("StreetAddress", Vec::new()),
        ("PostalCode", Vec::new()),
    ];
    let (mut serial, mut common, mut names) = (String::new(), String::new(), Vec::new());
    let mut rdns = Reader::new(contents);
    while !rdns.is_empty() {
        let rdn = rdns.expect(der::SET, "RDN")?;
        let mut atvs = Reader::new(rdn.contents);
        while !atvs.is_empty() {
            let atv = atvs.expect(der::SEQUENCE, "RDN")?;
            let mut fields = Reader::new(atv.contents);
            let id = der::oid(fields.expect(der::OID, "RDN")?.contents)?;
            let value = string_value(&fields.any()?)?;
            names.push(json!({ "Type": id, "Value": value }));
            let slot = match id.as_slice() {
                [2, 5, 4, 3] => {
                    common = value;
                    continue;
                }
                [2, 5, 4, 5] => {
                    serial = value;
                    continue;
                }
                [2, 5, 4, 6] => 0,
                [2, 5, 4, 10] => 1,
                [2, 5, 4, 11] => 2,
                [2, 5, 4, 7] => 3,
                [2, 5, 4, 8] => 4,
                [2, 5, 4, 9] => 5,
                [2, 5, 4, 17] => 6,
                _ => continue,
            };
            lists[slot].1.push(value);
        }
    }
    let mut out = serde_json::Map::new();
    for (field, values) in lists {
        let value = if values.is_empty() {
            Json::Null
        } else {
            json!(values)
        };
        out.insert(field.into(), value);
    }
    out.insert("SerialNumber".into(), json!(serial));
    out.insert("CommonName".into(), json!(common));
    let names = if names.is_empty() {
        Json::Null
    } else {
        Json::Array(names)
    };
    out.insert("Names".into(), names);
    out.insert("ExtraNames".into(), Json::Null);
    Ok(Json::Object(out))
}

/// An attribute value of a name: the string types Go's `parseASN1String` reads.
fn string_value(element: &Element) -> Result<String, String> {
    match element.tag {
        // UTF8String, PrintableString, T61String, IA5String, NumericString.
        0x0c | 0x13 | 0x14 | 0x16 | 0x12 => Ok(String::from_utf8_lossy(element.contents).into()),
        // BMPString: UTF-16, big-endian.
        0x1e if element.contents.len().is_multiple_of(2) => {
            let units: Vec<u16> = element
                .contents
                .chunks_exact(2)
                .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
                .collect();
            Ok(String::from_utf16_lossy(&units))
        }
        tag => Err(format!("x509: unsupported string type: {tag}")),
    }
}

/// Every number as a double: Go's JSON read back into `any` gives float64s.
fn as_go_numbers(json: Json) -> Json {
    match json {
        Json::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Json::Null, Json::Number),
        Json::Array(items) => Json::Array(items.into_iter().map(as_go_numbers).collect()),
        Json::Object(map) => Json::Object(
            map.into_iter()
                .map(|(k, v)| (k, as_go_numbers(v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests;
