//! Container image references as Kyverno's image library reads them (kyverno/sdk
//! `extensions/cel/libs/image/impl.go`: `image`, `parseImageReference`, `isImage` and the
//! accessors). Kyverno parses with go-containerregistry `name.ParseReference` under its default
//! weak validation: a tag reference if the text is one, else a digest reference, else the error
//! `could not parse reference: TEXT`. The registry defaults to Docker Hub (`index.docker.io`,
//! also for `docker.io`), whose one-part repositories live under `library/`.

use std::any::Any;
use std::sync::Arc;

use crate::cel::eval::{ErrorKind, Opaque, Value};

/// Docker Hub as go-containerregistry names it.
const DEFAULT_REGISTRY: &str = "index.docker.io";
/// The characters a tag may hold (go-containerregistry `pkg/name/tag.go`).
const TAG_CHARS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";
/// The characters a repository may hold (`pkg/name/repository.go`).
const REPOSITORY_CHARS: &str = "abcdefghijklmnopqrstuvwxyz0123456789_-./";

/// What names the image within its repository.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identifier {
    /// A tag reference; "" when none was written (it reads as `latest`).
    Tag(String),
    /// A digest reference (`sha256:…`); a tag written before it is dropped.
    Digest(String),
}

/// A parsed image reference, the value of `image(…)` (`kyverno.image`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    original: String,
    registry: String,
    repository: String,
    identifier: Identifier,
}

impl Opaque for ImageRef {
    fn type_name(&self) -> &str {
        "kyverno.image"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other.as_any().downcast_ref::<ImageRef>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn render(&self) -> String {
        format!("image({:?})", self.original)
    }
}

impl ImageRef {
    /// `text` as `name.ParseReference` reads it: a tag reference, else a digest reference.
    pub fn parse(text: &str) -> Result<ImageRef, String> {
        tag_reference(text)
            .or_else(|_| digest_reference(text))
            .map_err(|_| format!("could not parse reference: {text}"))
    }

    /// The repository as `RepositoryStr` gives it (`library/` added on Docker Hub).
    fn repository_str(&self) -> String {
        if self.registry == DEFAULT_REGISTRY && !self.repository.contains('/') {
            format!("library/{}", self.repository)
        } else {
            self.repository.clone()
        }
    }

    /// The accessor `member` of the image library, `None` for another function.
    fn member(&self, member: &str) -> Option<Value> {
        let digest = match &self.identifier {
            Identifier::Digest(d) => d.as_str(),
            Identifier::Tag(_) => "",
        };
        let tag = match &self.identifier {
            Identifier::Tag(t) if t.is_empty() => "latest",
            Identifier::Tag(t) => t.as_str(),
            Identifier::Digest(_) => "",
        };
        Some(match member {
            "registry" => Value::string(&self.registry),
            "repository" => Value::string(&self.repository_str()),
            "identifier" if digest.is_empty() => Value::string(tag),
            "identifier" => Value::string(digest),
            "tag" => Value::string(tag),
            "digest" => Value::string(digest),
            "containsDigest" => Value::Bool(!digest.is_empty()),
            _ => return None,
        })
    }
}

/// The image library's global functions: `image`, `parseImageReference`, `isImage`.
pub fn global(name: &str, args: &[Value]) -> Option<Value> {
    if !matches!(name, "image" | "parseImageReference" | "isImage") {
        return None;
    }
    let [Value::String(text)] = args else {
        return Some(Value::no_overload());
    };
    let parsed = ImageRef::parse(text);
    Some(match (name, parsed) {
        ("isImage", parsed) => Value::Bool(parsed.is_ok()),
        (_, Ok(image)) => Value::Opaque(Arc::new(image)),
        (_, Err(message)) => Value::error(ErrorKind::InvalidArgument, message),
    })
}

/// The accessor `name` on `target` when it is an image with no arguments.
pub fn member(name: &str, target: &Value, args: &[Value]) -> Option<Value> {
    let Value::Opaque(opaque) = target else {
        return None;
    };
    let image = opaque.as_any().downcast_ref::<ImageRef>()?;
    if !args.is_empty() {
        return Some(Value::no_overload());
    }
    image.member(name)
}

/// `NewTag`: a tag after the last `:` unless that part holds a `/` (then it is a port).
fn tag_reference(name: &str) -> Result<ImageRef, String> {
    let (base, tag) = match name.rsplit_once(':') {
        Some((_, "")) => return Err(format!("{name} must specify a tag name after the colon")),
        Some((base, tag)) if !tag.contains('/') => (base, tag),
        _ => (name, ""),
    };
    if !tag.is_empty() {
        check_element("tag", tag, TAG_CHARS, 1, 128)?;
    }
    let (registry, repository) = repository_of(base)?;
    Ok(ImageRef {
        original: name.to_string(),
        registry,
        repository,
        identifier: Identifier::Tag(tag.to_string()),
    })
}

/// `NewDigest`: exactly one `@`, a sha256 digest after it, and a repository (with an optional
/// tag, dropped) before it.
fn digest_reference(name: &str) -> Result<ImageRef, String> {
    let mut parts = name.split('@');
    let (Some(base), Some(digest), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err("a digest must contain exactly one '@' separator".to_string());
    };
    let Some(hex) = digest.strip_prefix("sha256:") else {
        return Err(format!("unsupported digest algorithm: {digest}"));
    };
    if hex.len() != 64 {
        return Err("invalid checksum digest length".to_string());
    }
    if !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return Err("invalid checksum digest format".to_string());
    }
    let (registry, repository) = match tag_reference(base) {
        Ok(tagged) => (tagged.registry, tagged.repository),
        Err(_) => repository_of(base)?,
    };
    Ok(ImageRef {
        original: name.to_string(),
        registry,
        repository,
        identifier: Identifier::Digest(digest.to_string()),
    })
}

/// `NewRepository`: the first part is the registry when it holds a `.` or a `:`.
fn repository_of(name: &str) -> Result<(String, String), String> {
    if name.is_empty() {
        return Err("a repository name must be specified".to_string());
    }
    let (registry, repository) = match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) => (first, rest),
        _ => ("", name),
    };
    check_element("repository", repository, REPOSITORY_CHARS, 2, 255)?;
    check_registry(registry)?;
    let registry = match registry {
        "" | "docker.io" => DEFAULT_REGISTRY,
        other => other,
    };
    Ok((registry.to_string(), repository.to_string()))
}

/// `checkRegistry`: the name must read back whole as a URI authority (`//NAME`), so no user
/// part, path, query or fragment, and a port of digits only.
fn check_registry(registry: &str) -> Result<(), String> {
    let bad = || {
        Err(format!(
            "registries must be valid RFC 3986 URI authorities: {registry}"
        ))
    };
    if registry
        .chars()
        .any(|c| matches!(c, '@' | '/' | '?' | '#' | '\\') || c.is_whitespace() || c.is_control())
    {
        return bad();
    }
    let host_end = registry.rfind(']').unwrap_or(0);
    if let Some(colon) = registry[host_end..].rfind(':') {
        let port = &registry[host_end + colon + 1..];
        if !port.bytes().all(|b| b.is_ascii_digit()) {
            return bad();
        }
    }
    Ok(())
}

/// `checkElement`: a length in characters within bounds, and only the allowed characters.
fn check_element(
    what: &str,
    element: &str,
    allowed: &str,
    min: usize,
    max: usize,
) -> Result<(), String> {
    let count = element.chars().count();
    if count < min || count > max {
        return Err(format!(
            "{what} must be between {min} and {max} characters in length: {element}"
        ));
    }
    if element.chars().any(|c| !allowed.contains(c)) {
        return Err(format!(
            "{what} can only contain the characters `{allowed}`: {element}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "sha256:6aefddb645ee6963afd681b1845c661d0ea4c3b20ab9db86d9e753b203d385f2";

    fn accessor(reference: &str, name: &str) -> String {
        let image = match global("parseImageReference", &[Value::string(reference)]) {
            Some(image) => image,
            None => return "no function".to_string(),
        };
        match member(name, &image, &[]) {
            Some(Value::String(s)) => s.to_string(),
            Some(other) => other.to_string(),
            None => format!("not an image: {image}"),
        }
    }

    /// The cases of kyverno/sdk `extensions/cel/libs/image/lib_test.go`, as (reference,
    /// accessor, expected).
    #[test]
    fn accessors_give_what_the_image_library_tests_expect() {
        let apiserver = "registry.k8s.io/kube-apiserver-arm64";
        let with_digest = format!("{apiserver}@{DIGEST}");
        let tagged_digest = format!("{apiserver}:latest@{DIGEST}");
        let tagged = format!("{apiserver}:testtag");
        let cases: Vec<(&str, &str, &str)> = vec![
            (apiserver, "containsDigest", "false"),
            (&tagged, "containsDigest", "false"),
            (&with_digest, "containsDigest", "true"),
            (&tagged_digest, "containsDigest", "true"),
            (apiserver, "registry", "registry.k8s.io"),
            (apiserver, "repository", "kube-apiserver-arm64"),
            (&tagged, "identifier", "testtag"),
            (apiserver, "identifier", "latest"),
            (&with_digest, "identifier", DIGEST),
            (&tagged_digest, "identifier", DIGEST),
            (&tagged, "tag", "testtag"),
            (apiserver, "tag", "latest"),
            (&with_digest, "tag", ""),
            (apiserver, "digest", ""),
            (&tagged, "digest", ""),
            (&with_digest, "digest", DIGEST),
            (&tagged_digest, "digest", DIGEST),
        ];
        for (reference, name, want) in cases {
            assert_eq!(accessor(reference, name), want, "{reference}.{name}()");
        }
    }

    #[test]
    fn docker_hub_is_the_default_registry_with_its_library_namespace() {
        assert_eq!(accessor("nginx", "registry"), "index.docker.io");
        assert_eq!(accessor("nginx:1.25", "repository"), "library/nginx");
        assert_eq!(accessor("docker.io/nginx", "registry"), "index.docker.io");
        assert_eq!(accessor("bitnami/nginx", "repository"), "bitnami/nginx");
        assert_eq!(accessor("localhost:5000/app", "registry"), "localhost:5000");
        assert_eq!(accessor("localhost:5000/app", "tag"), "latest");
        assert_eq!(
            accessor("corp.reg.com/team/app:v1", "registry"),
            "corp.reg.com"
        );
    }

    #[test]
    fn a_bad_reference_is_the_error_kyverno_gives_and_not_an_image() {
        let bad = "registry.k8s.io/kube-apiserver-arm64:@";
        let parsed = global("parseImageReference", &[Value::string(bad)]);
        let text = parsed.map(|v| v.to_string()).unwrap_or_default();
        assert!(
            text.contains(&format!("could not parse reference: {bad}")),
            "{text}"
        );
        for (reference, valid) in [
            ("registry.k8s.io/kube-apiserver-arm64:latest", true),
            (bad, false),
            ("Nginx", false),
            ("a", false),
            ("nginx@sha256:abc", false),
            ("nginx:1.0:2.0", false),
        ] {
            let is_image = global("isImage", &[Value::string(reference)]);
            assert_eq!(
                is_image.map(|v| v.to_string()),
                Some(valid.to_string()),
                "{reference}"
            );
        }
        let not_a_string = global("isImage", &[Value::Int(0)]).map(|v| v.is_error());
        assert_eq!(not_a_string, Some(true));
    }

    #[test]
    fn other_functions_and_other_receivers_are_left_to_the_evaluator() {
        assert!(global("size", &[Value::string("x")]).is_none());
        assert!(member("registry", &Value::string("nginx"), &[]).is_none());
    }
}
