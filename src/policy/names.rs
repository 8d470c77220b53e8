//! Name validators with the API server's messages (apimachinery `pkg/util/validation`): qualified
//! names, DNS-1123 subdomains and labels, DNS-1035 labels, label values, path segments and CEL
//! identifiers. Each returns the list of problems, empty when the name is valid.
//!
//! Written by hand over bytes (no regex): every accepted character is ASCII.

const QUALIFIED_NAME_MAX: usize = 63;
const DNS1123_SUBDOMAIN_MAX: usize = 253;
const DNS_LABEL_MAX: usize = 63;
const LABEL_VALUE_MAX: usize = 63;

const QUALIFIED_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

/// apimachinery's regex message: the rule, examples, and the regex itself.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let mut out = format!("{msg} (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{example}', "));
    }
    out.push_str(&format!("regex used for validation is '{fmt}')"));
    out
}

fn max_len_error(max: usize) -> String {
    format!("must be no more than {max} characters")
}

fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`: alphanumeric ends, `-_.` allowed inside.
fn matches_qualified_part(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last)) => {
            is_alnum(first)
                && is_alnum(last)
                && bytes
                    .iter()
                    .all(|&b| is_alnum(b) || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns1123_label(name: &str) -> bool {
    let bytes = name.as_bytes();
    let lower_alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last)) => {
            lower_alnum(first)
                && lower_alnum(last)
                && bytes.iter().all(|&b| lower_alnum(b) || b == b'-')
        }
        _ => false,
    }
}

/// A label value: empty, or the qualified-name part pattern.
pub fn label_value(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errors.push(max_len_error(LABEL_VALUE_MAX));
    }
    if !value.is_empty() && !matches_qualified_part(value) {
        errors.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errors
}

/// A qualified name (also a label key): an optional DNS subdomain prefix and `/`, then a name part.
pub fn qualified_name(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_string());
            } else {
                errors.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            let regex = regex_error(
                QUALIFIED_NAME_MSG,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"],
            );
            errors.push(format!(
                "a qualified name {regex} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ));
            return errors;
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".to_string());
    } else if name.len() > QUALIFIED_NAME_MAX {
        errors.push(format!("name part {}", max_len_error(QUALIFIED_NAME_MAX)));
    }
    if !matches_qualified_part(name) {
        let regex = regex_error(
            QUALIFIED_NAME_MSG,
            QUALIFIED_NAME_FMT,
            &["MyName", "my.name", "123-abc"],
        );
        errors.push(format!("name part {regex}"));
    }
    errors
}

/// A DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errors.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    if !value.split('.').all(matches_dns1123_label) {
        errors.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errors
}

/// A DNS-1123 label: lower-case alphanumerics and `-`, at most 63 characters.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS_LABEL_MAX {
        errors.push(max_len_error(DNS_LABEL_MAX));
    }
    if !matches_dns1123_label(value) {
        errors.push(regex_error(
            DNS1123_LABEL_MSG,
            DNS1123_LABEL_FMT,
            &["my-name", "123-abc"],
        ));
    }
    errors
}

/// A DNS-1035 label: like a DNS-1123 label but starting with a letter.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS_LABEL_MAX {
        errors.push(max_len_error(DNS_LABEL_MAX));
    }
    let starts_with_letter = value
        .as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_lowercase());
    if !starts_with_letter || !matches_dns1123_label(value) {
        errors.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errors
}

/// A name that can be one segment of a URL path: not `.` or `..`, no `/` or `%`.
pub fn path_segment(value: &str) -> Vec<String> {
    if value == "." || value == ".." {
        return vec![format!("may not be '{value}'")];
    }
    ["/", "%"]
        .iter()
        .filter(|bad| value.contains(*bad))
        .map(|bad| format!("may not contain '{bad}'"))
        .collect()
}

/// A CEL identifier: `[_a-zA-Z][_a-zA-Z0-9]*` and not a reserved word.
pub fn is_cel_identifier(value: &str) -> bool {
    let bytes = value.as_bytes();
    let Some(&first) = bytes.first() else {
        return false;
    };
    (first == b'_' || first.is_ascii_alphabetic())
        && bytes
            .iter()
            .all(|&b| b == b'_' || b.is_ascii_alphanumeric())
        && !crate::cel::token::is_keyword_or_reserved(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names() {
        assert!(qualified_name("example.com/My_name-1").is_empty());
        assert!(qualified_name("a").is_empty());
        assert_eq!(qualified_name("").len(), 2);
        assert_eq!(qualified_name("bad name!").len(), 1);
        assert_eq!(
            qualified_name("/x"),
            vec!["prefix part must be non-empty".to_string()]
        );
        assert_eq!(qualified_name("a/b/c").len(), 1);
        assert_eq!(qualified_name(&"a".repeat(64)).len(), 1);
        assert!(qualified_name("Example.com/x")[0].starts_with("prefix part a lowercase RFC 1123"));
    }

    #[test]
    fn dns_names() {
        assert!(dns1123_subdomain("my-policy.example.com").is_empty());
        assert!(!dns1123_subdomain("My-Policy").is_empty());
        assert!(!dns1123_subdomain("a..b").is_empty());
        assert!(!dns1123_subdomain("").is_empty());
        assert!(dns1035_label("v1beta1").is_empty());
        assert!(!dns1035_label("1v").is_empty());
        assert!(dns1123_label("1v").is_empty());
    }

    #[test]
    fn label_values_segments_identifiers() {
        assert!(label_value("").is_empty());
        assert!(label_value("a.b_c-d").is_empty());
        assert!(!label_value("-a").is_empty());
        assert_eq!(path_segment(".."), vec!["may not be '..'".to_string()]);
        assert_eq!(path_segment("a/%").len(), 2);
        assert!(is_cel_identifier("_x1"));
        assert!(!is_cel_identifier("1x"));
        assert!(!is_cel_identifier("namespace"));
        assert!(!is_cel_identifier("a-b"));
    }
}
