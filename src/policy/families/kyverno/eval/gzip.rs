//! Kyverno's gzip library (kyverno/sdk `extensions/cel/libs/gzip/impl.go`): `gzip.compress`
//! (a string to the bytes of one gzip member, modification time 0 as Kyverno sets it) and
//! `gzip.decompress` (bytes to the string they hold; concatenated members are read in turn, as
//! Go's `compress/gzip` reader does). The deflate data comes from miniz_oxide, so compressed
//! bytes round-trip through both tools but need not equal Go's byte for byte. Decompression
//! stops at `MAX_OUTPUT` bytes: a small input must not grow without bound.

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

use crate::cel::eval::{ErrorKind, Value};

/// The most bytes a decompression may produce.
const MAX_OUTPUT: usize = 16 << 20;

/// The function `name` of the gzip library, `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    match (name, args) {
        ("gzip.compress", [Value::String(text)]) => {
            Some(Value::Bytes(compress(text.as_bytes()).into()))
        }
        ("gzip.decompress", [Value::Bytes(data)]) => Some(match decompress_all(data) {
            Ok(out) => Value::string(&String::from_utf8_lossy(&out)),
            Err(message) => Value::error(ErrorKind::InvalidArgument, message),
        }),
        ("gzip.compress" | "gzip.decompress", _) => Some(Value::no_overload()),
        _ => None,
    }
}

/// Whether `name` is a function of this library.
pub fn is_function(name: &str) -> bool {
    matches!(name, "gzip.compress" | "gzip.decompress")
}

/// One gzip member (RFC 1952) holding `data`: Go's header for a zero modification time and the
/// default level (no flags, XFL 0, OS 255 "unknown"), then the deflate data, CRC-32 and size.
fn compress(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    out.extend(miniz_oxide::deflate::compress_to_vec(data, 6));
    out.extend(crc32(data).to_le_bytes());
    out.extend((data.len() as u32).to_le_bytes());
    out
}

/// Every member of `data` decompressed, or the error Go's reader gives.
fn decompress_all(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let body = skip_header(data)?;
        let (member, consumed) = inflate_raw(body, MAX_OUTPUT - out.len())?;
        let trailer = body
            .get(consumed..consumed + 8)
            .ok_or_else(|| "unexpected EOF".to_string())?;
        let word = |at: usize| {
            u32::from_le_bytes([
                trailer[at],
                trailer[at + 1],
                trailer[at + 2],
                trailer[at + 3],
            ])
        };
        if word(0) != crc32(&member) || word(4) != member.len() as u32 {
            return Err("gzip: invalid checksum".to_string());
        }
        out.extend(member);
        data = &body[consumed + 8..];
        if data.is_empty() {
            return Ok(out);
        }
    }
}

/// The deflate data after a member's header (RFC 1952 2.3: the optional extra field, name,
/// comment and header CRC skipped).
fn skip_header(data: &[u8]) -> Result<&[u8], String> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    let eof = || "unexpected EOF".to_string();
    let header = data.get(..10).ok_or_else(eof)?;
    if header[..3] != [0x1f, 0x8b, 8] {
        return Err("gzip: invalid header".to_string());
    }
    let flags = header[3];
    let mut rest = &data[10..];
    if flags & FEXTRA != 0 {
        let len = rest.get(..2).ok_or_else(eof)?;
        let len = usize::from(u16::from_le_bytes([len[0], len[1]]));
        rest = rest.get(2 + len..).ok_or_else(eof)?;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let end = rest.iter().position(|b| *b == 0).ok_or_else(eof)?;
            rest = &rest[end + 1..];
        }
    }
    if flags & FHCRC != 0 {
        rest = rest.get(2..).ok_or_else(eof)?;
    }
    Ok(rest)
}

/// The raw deflate stream at the start of `data` inflated (at most `limit` bytes), with how
/// many bytes of `data` it took.
fn inflate_raw(data: &[u8], limit: usize) -> Result<(Vec<u8>, usize), String> {
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut out = vec![0; (data.len() * 4).clamp(64, limit.max(64))];
    let mut state = Box::<DecompressorOxide>::default();
    let (mut read_total, mut written) = (0, 0);
    loop {
        let input = data.get(read_total..).unwrap_or_default();
        let (status, read, wrote) = decompress(&mut state, input, &mut out, written, flags);
        read_total += read;
        written += wrote;
        match status {
            TINFLStatus::Done => {
                out.truncate(written);
                return Ok((out, read_total));
            }
            TINFLStatus::HasMoreOutput if out.len() < limit => {
                out.resize((out.len() * 2).min(limit), 0);
            }
            TINFLStatus::HasMoreOutput => {
                return Err(format!(
                    "gzip: the decompressed data is larger than {} MiB, the most admission-ls reads",
                    MAX_OUTPUT >> 20
                ));
            }
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err("unexpected EOF".to_string());
            }
            _ => return Err(format!("flate: corrupt input before offset {read_total}")),
        }
    }
}

/// The CRC-32 of gzip (IEEE 802.3, reflected, polynomial 0xEDB88320).
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in data {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn text(value: Option<Value>) -> String {
        value.map(|v| v.to_string()).unwrap_or_default()
    }

    #[test]
    fn compressed_text_decompresses_to_itself() {
        let compressed = call("gzip.compress", &[Value::string("hello world")]);
        let Some(Value::Bytes(bytes)) = compressed else {
            panic!("bytes expected");
        };
        assert_eq!(&bytes[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
        let back = call("gzip.decompress", &[Value::Bytes(bytes)]);
        assert_eq!(text(back), "\"hello world\"");
    }

    #[test]
    fn go_output_decompresses() {
        // `gzip.compress("hello world")` as Kyverno's Go code writes it (compress/gzip, level
        // 6, ModTime 0), twice: concatenated members are read in turn.
        let go = base64::engine::general_purpose::STANDARD
            .decode("H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQQAAP//hRFKDQsAAAA=")
            .unwrap_or_default();
        let twice = [go.clone(), go].concat();
        let back = call("gzip.decompress", &[Value::Bytes(twice.into())]);
        assert_eq!(text(back), "\"hello worldhello world\"");
    }

    #[test]
    fn broken_input_is_an_error_not_a_panic() {
        for (input, message) in [
            (&b"not gzip at all"[..], "gzip: invalid header"),
            (&[0x1f, 0x8b, 8, 0][..], "unexpected EOF"),
            (
                &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 0xff, 0xff][..],
                "flate: corrupt input",
            ),
        ] {
            let out = text(call("gzip.decompress", &[Value::Bytes(input.into())]));
            assert!(out.contains(message), "{out}");
        }
        let mut good = compress(b"abc");
        let last = good.len() - 5;
        good[last] ^= 1;
        let out = text(call("gzip.decompress", &[Value::Bytes(good.into())]));
        assert!(out.contains("gzip: invalid checksum"), "{out}");
    }
}
