//! The tag of a container image reference, as `pkg/util/parsers.ParseImageName` finds it with
//! `github.com/distribution/reference.ParseNormalizedNamed`: the grammar of `regexp.go`
//! (`ReferenceRegexp`), the lowercase rule for the repository, the 255-character name limit, the
//! 64-hex identifier refusal and the digest check (`sha256`, `sha384`, `sha512` with an encoded part
//! of the algorithm's length). A reference without tag and digest gets the tag `latest`.
//!
//! `SetDefaults_Container` ignores the parse error, so an unparsable image (empty, uppercase,
//! malformed) has no tag and is pulled `IfNotPresent`.

use std::sync::OnceLock;

use regex::Regex;

/// `ReferenceRegexp`, anchored: name, optional `:tag`, optional `@digest` (ASCII classes: Go's
/// `\w` is ASCII, unlike the Rust crate's).
fn reference() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let alphanumeric = "[a-z0-9]+";
        let separator = "(?:[._]|__|[-]+)";
        let path_component = format!("{alphanumeric}(?:{separator}{alphanumeric})*");
        let domain_component = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
        let domain_name = format!(r"{domain_component}(?:\.{domain_component})*");
        let ipv6 = r"\[(?:[a-fA-F0-9:]+)\]";
        let domain = format!("(?:{domain_name}|{ipv6})(?::[0-9]+)?");
        let name = format!("(?:{domain}/)?{path_component}(?:/{path_component})*");
        let tag = "[0-9A-Za-z_][0-9A-Za-z_.-]{0,127}";
        let digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
        let pattern = format!("^({name})(?::({tag}))?(?:@({digest}))?$");
        Regex::new(&pattern).expect("the reference grammar is a valid regular expression")
    })
}

/// `anchoredIdentifierRegexp`: a bare image ID, which `ParseNormalizedNamed` refuses.
fn is_identifier(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `splitDockerDomain`: the remainder after the domain (a first component counts as a domain when
/// it has a `.` or `:`, is `localhost`, or has an uppercase letter).
fn remainder(name: &str) -> &str {
    match name.split_once('/') {
        Some((first, rest))
            if first.contains(['.', ':'])
                || first == "localhost"
                || first.to_lowercase() != first =>
        {
            rest
        }
        _ => name,
    }
}

/// `digest.Parse`: a supported algorithm with an encoded part of its exact length, lowercase hex.
fn digest_is_valid(digest: &str) -> bool {
    let Some((algorithm, encoded)) = digest.split_once(':') else {
        return false;
    };
    let size = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return false,
    };
    encoded.len() == size
        && encoded
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The tag `ParseImageName` returns for `image`: the written tag, `latest` when there is neither
/// tag nor digest, `""` for a digest-only reference; `None` when it fails to parse.
pub(super) fn tag(image: &str) -> Option<String> {
    if is_identifier(image) {
        return None;
    }
    let rest = remainder(image);
    let repository = rest.split_once(':').map_or(rest, |(repo, _)| repo);
    if repository.to_lowercase() != repository {
        return None;
    }
    let captures = reference().captures(image)?;
    let name = captures.get(1)?.as_str();
    // The normalized name adds `docker.io/` (and `library/`), which counts towards the limit.
    if normalized_len(name) > 255 {
        return None;
    }
    if let Some(digest) = captures.get(3)
        && !digest_is_valid(digest.as_str())
    {
        return None;
    }
    let tag = captures.get(2).map(|m| m.as_str().to_string());
    Some(match (tag, captures.get(3)) {
        (Some(tag), _) => tag,
        (None, Some(_)) => String::new(),
        (None, None) => "latest".to_string(),
    })
}

/// The length of the name after `ParseNormalizedNamed` prefixes the default domain.
fn normalized_len(name: &str) -> usize {
    let rest = remainder(name);
    if rest.len() != name.len() {
        return name.len();
    }
    let library = if rest.contains('/') {
        0
    } else {
        "library/".len()
    };
    "docker.io/".len() + library + name.len()
}

/// `SetDefaults_Container`'s rule: `Always` for the tag `latest` (written or implied), else
/// `IfNotPresent` (also when the reference does not parse).
pub(super) fn pull_policy(image: &str) -> &'static str {
    match tag(image).as_deref() {
        Some("latest") => "Always",
        _ => "IfNotPresent",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_as_parse_image_name_returns_them() {
        let sha = "a".repeat(64);
        let cases = [
            ("nginx", Some("latest")),
            ("nginx:latest", Some("latest")),
            ("nginx:1.25", Some("1.25")),
            ("library/nginx:1.25-alpine", Some("1.25-alpine")),
            ("registry.example.com:5000/team/app", Some("latest")),
            ("registry.example.com:5000/team/app:v2", Some("v2")),
            ("localhost/app:dev", Some("dev")),
            ("[::1]:5000/app:x", Some("x")),
            (&*format!("nginx@sha256:{sha}"), Some("")),
            (&*format!("nginx:1.0@sha256:{sha}"), Some("1.0")),
            // Unparsable: the error is ignored and there is no tag.
            ("", None),
            ("Nginx", None),
            ("nginx:", None),
            ("nginx@sha256:abc", None),
            (&*format!("nginx@md5:{}", "a".repeat(32)), None),
            (&*sha, None),
            ("-nginx", None),
        ];
        for (image, want) in cases {
            assert_eq!(tag(image).as_deref(), want, "{image:?}");
        }
    }

    #[test]
    fn an_uppercase_domain_is_allowed_but_not_an_uppercase_repository() {
        assert_eq!(tag("Registry.Example.com/app:1").as_deref(), Some("1"));
        assert_eq!(tag("registry.example.com/App:1"), None);
        // The tag may have uppercase letters.
        assert_eq!(tag("app:V1").as_deref(), Some("V1"));
    }

    #[test]
    fn the_pull_policy_follows_the_tag() {
        assert_eq!(pull_policy("nginx"), "Always");
        assert_eq!(pull_policy("nginx:latest"), "Always");
        assert_eq!(pull_policy("nginx:1.25"), "IfNotPresent");
        assert_eq!(pull_policy("NGINX"), "IfNotPresent");
        let digest = format!("nginx@sha256:{}", "0".repeat(64));
        assert_eq!(pull_policy(&digest), "IfNotPresent");
    }
}
