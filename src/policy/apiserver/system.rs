//! The metadata the API server manages itself (`k8s.io/apiserver pkg/registry/rest/meta.go`,
//! `pkg/storage/names/generate.go`), with deterministic placeholders where the server would draw
//! random or clock values:
//!
//! - `uid`: `uuid.NewUUID()` upstream (random, version 4); here a version-4-shaped UUID derived
//!   from the object's apiVersion, kind, namespace and name (or generateName), so that the same
//!   object gets the same uid in every run and different objects get different ones;
//! - `creationTimestamp`: `metav1.Now()` upstream; here [`CREATION_TIMESTAMP`], the Unix epoch;
//! - a `generateName` becomes the name followed by five characters of `utilrand.String`'s
//!   alphabet (`bcdfghjklmnpqrstvwxz2456789`), the base cut to 58 characters as
//!   `SimpleNameGenerator` does; here the five characters are derived from the same identity.

use serde_json::{Map, Value as Json};

/// The creation timestamp given to created objects.
pub const CREATION_TIMESTAMP: &str = "1970-01-01T00:00:00Z";

/// `utilrand.String`'s alphabet (no vowels, no confusable digits).
const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `names.MaxGeneratedNameLength`: 63 minus the five random characters.
const MAX_GENERATED_NAME_BASE: usize = 58;

/// FNV-1a, 64 bits, from `seed`.
fn fnv(seed: u64, text: &str) -> u64 {
    let mut hash = seed;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The identity the placeholders are derived from.
pub(super) fn identity(object: &Map<String, Json>) -> String {
    let text = |path: &[&str]| {
        let mut value = object.get(path[0]);
        for key in &path[1..] {
            value = value.and_then(|v| v.get(key));
        }
        value.and_then(Json::as_str).unwrap_or("").to_string()
    };
    let name = text(&["metadata", "name"]);
    let name = if name.is_empty() {
        text(&["metadata", "generateName"])
    } else {
        name
    };
    format!(
        "{}/{}/{}/{}",
        text(&["apiVersion"]),
        text(&["kind"]),
        text(&["metadata", "namespace"]),
        name
    )
}

/// A version-4-shaped UUID derived from `identity`.
pub fn uid_for(identity: &str) -> String {
    let high = fnv(FNV_OFFSET, identity);
    let low = fnv(FNV_OFFSET ^ 0x9e37_79b9_7f4a_7c15, identity);
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&high.to_be_bytes());
    bytes[8..].copy_from_slice(&low.to_be_bytes());
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// `SimpleNameGenerator.GenerateName(base)` with a suffix derived from `identity`.
pub fn generated_name(base: &str, identity: &str) -> String {
    let mut cut = base.len().min(MAX_GENERATED_NAME_BASE);
    while !base.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut hash = fnv(FNV_OFFSET, &format!("name:{identity}"));
    let mut suffix = String::new();
    for _ in 0..5 {
        let index = (hash % NAME_ALPHABET.len() as u64) as usize;
        suffix.push(char::from(NAME_ALPHABET[index]));
        hash /= NAME_ALPHABET.len() as u64;
    }
    format!("{}{suffix}", &base[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_are_stable_distinct_and_shaped_like_version_4() {
        let a = uid_for("apps/v1/Deployment/shop/web");
        assert_eq!(a, uid_for("apps/v1/Deployment/shop/web"));
        assert_ne!(a, uid_for("apps/v1/Deployment/shop/api"));
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"));
    }

    #[test]
    fn generated_names_add_five_characters_of_the_alphabet_to_a_cut_base() {
        let name = generated_name("web-", "id");
        assert!(name.starts_with("web-"));
        assert_eq!(name.len(), 9);
        assert!(name[4..].bytes().all(|b| NAME_ALPHABET.contains(&b)));
        let long = generated_name(&"x".repeat(80), "id");
        assert_eq!(long.len(), 63);
    }
}
