//! apimachinery's name validators with their exact messages: DNS-1123 labels and subdomains,
//! DNS-1035 labels (`k8s.io/apimachinery/pkg/util/validation`, lengths in "characters") and label
//! keys / values (`pkg/api/validate/content`, lengths in "bytes"). Inputs are bytes because
//! `maskTrailingDash` may split a UTF-8 sequence, as Go does.

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case \
    alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
    alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric \
    characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must \
    start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric \
    characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `RegexError`: the message, the examples (each followed by `", "`, joined with `" or "`, hence
/// the double spaces upstream has) and the pattern.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let examples: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{fmt}')",
        examples.join(" or ")
    )
}

fn max_len(n: usize, unit: &str) -> String {
    format!("must be no more than {n} {unit}")
}

/// Non-empty, characters from `inner`, first from `first`, last alphanumeric of `inner`'s kind.
fn run(s: &[u8], first: fn(u8) -> bool, inner: fn(u8) -> bool, last: fn(u8) -> bool) -> bool {
    match (s.first(), s.last()) {
        (Some(&f), Some(&l)) => first(f) && last(l) && s.iter().all(|&c| inner(c)),
        _ => false,
    }
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

fn is_label(s: &[u8]) -> bool {
    run(s, lower_alnum, |c| lower_alnum(c) || c == b'-', lower_alnum)
}

fn is_subdomain(s: &[u8]) -> bool {
    s.split(|&c| c == b'.').all(is_label)
}

fn is_1035(s: &[u8]) -> bool {
    run(
        s,
        |c| c.is_ascii_lowercase(),
        |c| lower_alnum(c) || c == b'-',
        lower_alnum,
    )
}

fn is_label_key_name(s: &[u8]) -> bool {
    let inner = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.');
    run(
        s,
        |c| c.is_ascii_alphanumeric(),
        inner,
        |c| c.is_ascii_alphanumeric(),
    )
}

/// `maskTrailingDash`: for prefixes, a trailing dash (and the byte before it) becomes `a`.
pub fn mask_trailing_dash(s: &[u8]) -> Vec<u8> {
    if s.len() > 1 && s.ends_with(b"-") {
        let mut out = s[..s.len() - 2].to_vec();
        out.push(b'a');
        return out;
    }
    s.to_vec()
}

/// `validation.IsDNS1123Label`.
pub fn dns1123_label(s: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63, "characters"));
    }
    if !is_label(s) {
        if is_subdomain(s) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`; `unit` is "characters" (util/validation) or "bytes" (content).
fn subdomain_with(s: &[u8], unit: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len(253, unit));
    }
    if !is_subdomain(s) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `validation.IsDNS1123Subdomain`.
pub fn dns1123_subdomain(s: &[u8]) -> Vec<String> {
    subdomain_with(s, "characters")
}

/// `validation.IsDNS1035Label`.
pub fn dns1035_label(s: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63, "characters"));
    }
    if !is_1035(s) {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

fn label_key_regex_error() -> String {
    regex_error(
        LABEL_KEY_MSG,
        LABEL_KEY_FMT,
        &["MyName", "my.name", "123-abc"],
    )
}

/// `content.IsLabelKey` (= `IsQualifiedName`): `[prefix/]name`.
pub fn qualified_name(s: &[u8]) -> Vec<String> {
    let parts: Vec<&[u8]> = s.split(|&c| c == b'/').collect();
    let mut errs = Vec::new();
    let name = match parts[..] {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                errs.extend(
                    subdomain_with(prefix, "bytes")
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            let suffix =
                " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
            return vec![format!(
                "a valid label key {}{suffix}",
                label_key_regex_error()
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len(63, "bytes")));
    }
    if !is_label_key_name(name) {
        errs.push(format!("name part {}", label_key_regex_error()));
    }
    errs
}

/// `content.IsLabelValue`.
pub fn label_value(s: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63, "bytes"));
    }
    if !s.is_empty() && !is_label_key_name(s) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}
