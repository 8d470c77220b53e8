//! `!!binary` scalars as go-yaml v2 decodes them (go.yaml.in/yaml/v2 `decode.go` `scalar`): the
//! text is read with Go's `base64.StdEncoding.DecodeString`, which skips line breaks (so a
//! literal block `!!binary |` works) but nothing else, wants the padding `=`, and lets the unused
//! bits of the last character be anything; anything else is refused ("!!binary value contains
//! invalid base64 data"). The bytes become a Go string, which `encoding/json` writes with each
//! byte that is not part of valid UTF-8 replaced by U+FFFD.

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// go-yaml's message for a `!!binary` scalar that is not base64.
pub(crate) const INVALID: &str = "!!binary value contains invalid base64 data";

/// Go's `base64.StdEncoding` for decoding: padded, lenient about the unused bits.
const GO_STD: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// Whether a node's tag, as written, is `!!binary`.
pub(crate) fn is_binary_tag(tag: &str) -> bool {
    tag.trim_start_matches("tag:yaml.org,2002:")
        .trim_start_matches('!')
        == "binary"
}

/// The text kubectl's JSON holds for the `!!binary` scalar `text`, or `None` when go-yaml
/// refuses it.
pub(crate) fn decoded(text: &str) -> Option<String> {
    let without_breaks: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    let bytes = GO_STD.decode(without_breaks).ok()?;
    Some(as_json_text(&bytes))
}

/// `encoding/json`'s coercion of a Go string to UTF-8: each invalid byte becomes U+FFFD.
fn as_json_text(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(valid) => {
                out.push_str(valid);
                return out;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push(char::REPLACEMENT_CHARACTER);
                bytes = rest.get(1..).unwrap_or_default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decoded;

    /// Go: `base64.StdEncoding.DecodeString` then `json.Marshal` of the string.
    #[test]
    fn decodes_as_go_does() {
        assert_eq!(decoded("aGVsbG8="), Some("hello".to_owned()));
        assert_eq!(decoded("aGVs\nbG8=\n"), Some("hello".to_owned()));
        assert_eq!(decoded(""), Some(String::new()));
        // Unused bits set: Go's non-strict encoding takes it.
        assert_eq!(decoded("aGVsbG9="), Some("hello".to_owned()));
        assert_eq!(decoded("4oI="), Some("\u{fffd}\u{fffd}".to_owned()));
        assert_eq!(decoded("aGVsbG8"), None);
        assert_eq!(decoded("aGVs bG8="), None);
        assert_eq!(decoded("not base64!"), None);
    }
}
