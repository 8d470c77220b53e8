//! Kyverno's CEL libraries as checker declarations: the context variables (`resource`, `http`,
//! `globalContext`, `image`, `json`, `yaml`, `generator`) and every function of kyverno/sdk
//! `extensions/cel/libs/*/lib.go` with its declared overloads. Context functions are declared in
//! both spellings the libraries register (`Get` and `get`). A native struct result
//! (`user.ServiceAccount`) is declared `dyn`: its fields are not modelled here. The cel-go
//! extensions Kyverno enables besides Kubernetes' (math, base64, regex) are declared here too.

use std::sync::Arc;

use crate::cel::check::{CustomFunction, Env};
use crate::cel::library::Overload;
use crate::cel::types::Type;

const S: Type = Type::String;
const D: Type = Type::Dyn;

fn opaque(name: &str) -> Type {
    Type::opaque(name)
}

fn string_map() -> Type {
    Type::map(S, S)
}

fn any_map() -> Type {
    Type::map(S, D)
}

/// Which `generator` library a policy kind compiles with (kyverno/sdk
/// `extensions/cel/libs/generator/lib.go`, given the policy's namespace by
/// `pkg/cel/policies/gpol/compiler/compiler.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Generating {
    /// Not a GeneratingPolicy: no `generator`.
    No,
    /// A GeneratingPolicy: `generator.Apply(namespace, objects)`.
    ClusterWide,
    /// A NamespacedGeneratingPolicy: `generator.Apply(objects)`, into its own namespace only.
    Namespaced,
}

impl Generating {
    /// The library of the policy `kind`.
    pub(super) fn of(kind: &str) -> Generating {
        match kind {
            "GeneratingPolicy" => Generating::ClusterWide,
            "NamespacedGeneratingPolicy" => Generating::Namespaced,
            _ => Generating::No,
        }
    }
}

/// Declares Kyverno's variables and functions in `env`; `generator` only where `generating`.
pub(super) fn declare(env: &mut Env, generating: Generating) {
    let contexts = [
        (
            "resource",
            "resource.Context",
            "Reads Kubernetes resources: `resource.Get(apiVersion, resource, namespace, name)`, `resource.List(…)`, `resource.Post(…)`.",
        ),
        (
            "http",
            "http.Context",
            "HTTP calls: `http.Get(url)`, `http.Post(url, body)`, `http.Client(caBundle)`.",
        ),
        (
            "globalContext",
            "globalcontext.Context",
            "Reads a GlobalContextEntry: `globalContext.Get(name, projection)`.",
        ),
        (
            "image",
            "imagedata.Context",
            "Reads image metadata from the registry: `image.GetMetadata(reference)`.",
        ),
        (
            "json",
            "json.Json",
            "JSON: `json.unmarshal(text)`, `json.marshal(value)`.",
        ),
        ("yaml", "yaml.Yaml", "YAML: `yaml.parse(text)`."),
    ];
    for (name, ty, doc) in contexts {
        env.declare(name, opaque(ty), Some(doc));
    }
    if generating != Generating::No {
        let doc = "Creates resources: `generator.Apply(namespace, [objects])`, `generator.Apply([objects])` in a namespaced policy.";
        env.declare("generator", opaque("generator.Context"), Some(doc));
    }
    for function in functions(generating) {
        env.add_function(function);
    }
}

/// One overload: `member` with the receiver first in `params`.
fn overload(id: &str, member: bool, params: Vec<Type>, result: Type) -> Overload {
    Overload {
        id: Arc::from(id),
        member,
        params,
        result,
        type_params: Vec::new(),
    }
}

fn function(name: &str, overloads: Vec<Overload>) -> CustomFunction {
    let doc = doc_of(name).map(|doc| match since(name) {
        Some(release) => format!("{doc} Kyverno {release} and later."),
        None => doc.to_owned(),
    });
    CustomFunction {
        name: name.to_string(),
        overloads,
        doc: doc.map(Arc::from),
    }
}

/// The Kyverno release that added a function under this name, when later than 1.14 (the first with
/// CEL policies): from the libraries of kyverno/kyverno's tags (`pkg/cel/libs`, then kyverno/sdk
/// `extensions/cel/libs` with its `AtLeast(1.18)` gates) and `pkg/cel/compiler/env.go` (`ext.Regex`
/// from 1.19). Kyverno compiles with its own release's libraries, so a policy for an older Kyverno
/// must not call these. `math.round` is left out: cel-go's one-argument form is older than
/// Kyverno's two-argument one.
pub(super) fn since(name: &str) -> Option<&'static str> {
    let release = match name {
        "parseImageReference" | "Apply" => "1.15",
        "ToGVR" => "1.16",
        "sha1" | "sha256" | "md5" | "unmarshal" | "marshal" | "parse" | "random" | "time.now"
        | "time.toCron" | "time.truncate" | "listObjToMap" | "x509.decode" => "1.17",
        "list"
        | "get"
        | "post"
        | "toGVR"
        | "client"
        | "getMetadata"
        | "apply"
        | "hash.sha1"
        | "hash.sha256"
        | "hash.md5"
        | "random.random"
        | "transform.listObjToMap"
        | "user.parseServiceAccount"
        | "gzip.compress"
        | "gzip.decompress" => "1.18",
        "regex.replace" | "regex.extract" | "regex.extractAll" => "1.19",
        _ => return None,
    };
    Some(release)
}

/// A one-line description of each function, for hover and completion: the functions of cel-go's
/// extensions and the prefixed names that mean something else unprefixed by their full name, the
/// others by their name, either spelling, with or without the library prefix.
fn doc_of(name: &str) -> Option<&'static str> {
    if let Some(doc) = extension_doc(name) {
        return Some(doc);
    }
    let short = name.rsplit('.').next().unwrap_or(name);
    let doc = match short.to_ascii_lowercase().as_str() {
        "list" => "Lists the resources of an apiVersion and resource (in a namespace).",
        "get" => {
            "Reads one object (resource), the body of an HTTP GET (http), or a GlobalContextEntry (globalContext)."
        }
        "post" => {
            "Creates an object (resource) or sends an HTTP POST (http); returns the response."
        }
        "togvr" => "The GroupVersionResource of an apiVersion and kind.",
        "client" => "An HTTP client that trusts the given CA bundle.",
        "getmetadata" => "The registry metadata of an image reference (manifest, config, digest).",
        "apply" => "Creates the given objects in a namespace (GeneratingPolicy).",
        "unmarshal" => "Parses JSON text into a value.",
        "marshal" => "Renders a value as JSON text.",
        "parse" => "Parses YAML text into a value.",
        "image" | "parseimagereference" => {
            "Parses an image reference (registry, repository, tag, digest)."
        }
        "isimage" => "Whether a string is a valid image reference.",
        "containsdigest" => "Whether the image reference has a digest.",
        "registry" => "The registry of the image reference.",
        "repository" => "The repository of the image reference.",
        "identifier" => "The tag or digest of the image reference.",
        "tag" => "The tag of the image reference.",
        "digest" => "The digest of the image reference.",
        "parseserviceaccount" => "Splits a service account user name into namespace and name.",
        "sha1" | "sha256" | "md5" => "The hex digest of a string.",
        "round" => "A double rounded half away from zero to the given number of decimal places.",
        "decode" => "Decodes a PEM certificate into its fields.",
        "now" => "The current time.",
        "tocron" => "A cron expression for the given time.",
        "truncate" => "The time rounded down to a multiple of the duration.",
        "listobjtomap" => "Merges two lists of objects into a map by key and value fields.",
        "decompress" => "Decompresses gzip bytes into a string.",
        "compress" => "Compresses a value with gzip.",
        "random" => "A random string matching a pattern (default `[0-9a-z]{8}`).",
        "verifyimagesignatures" => "The number of attestors that verified the image's signatures.",
        "verifyattestationsignatures" => {
            "The number of attestors that verified the image's attestation."
        }
        "getimagedata" => "The registry metadata of an image reference.",
        "extractpayload" => "The payload of an image's attestation.",
        _ => return None,
    };
    Some(doc)
}

/// The functions of cel-go's `ext.Encoders`, `ext.Math` and `ext.Regex` (cel-go `ext/encoders.go`,
/// `ext/math.go`, `ext/regex.go`), by their full name; `math.round` with two arguments is
/// Kyverno's, with one cel-go's, and one description says both.
fn extension_doc(name: &str) -> Option<&'static str> {
    let doc = match name {
        "base64.decode" => "Decodes base64 text (padded or not) into bytes.",
        "base64.encode" => "Encodes bytes as base64 text.",
        "math.greatest" => "The greatest of the numbers given, or of a list of numbers.",
        "math.least" => "The least of the numbers given, or of a list of numbers.",
        "math.ceil" => "The smallest whole number not less than the double.",
        "math.floor" => "The largest whole number not greater than the double.",
        "math.round" => {
            "The double rounded half away from zero: to a whole number (one argument) or to the given number of decimal places (Kyverno's two-argument form)."
        }
        "math.trunc" => "The double with its fractional part dropped.",
        "math.isInf" => "Whether the double is positive or negative infinity.",
        "math.isNaN" => "Whether the double is NaN.",
        "math.isFinite" => "Whether the double is neither infinite nor NaN.",
        "math.abs" => "The absolute value of the number.",
        "math.sign" => {
            "-1, 0 or 1, of the number's type, as the number is negative, zero or positive."
        }
        "math.sqrt" => "The square root of the number, as a double.",
        "math.bitAnd" => "The bitwise AND of two ints or two uints.",
        "math.bitOr" => "The bitwise OR of two ints or two uints.",
        "math.bitXor" => "The bitwise exclusive OR of two ints or two uints.",
        "math.bitNot" => "The bitwise complement of an int or a uint.",
        "math.bitShiftLeft" => "The int or uint shifted left by the given number of bits.",
        "math.bitShiftRight" => {
            "The int or uint shifted right by the given number of bits (zeros shifted in, also for a negative int)."
        }
        "regex.replace" => {
            "The text with the matches of an RE2 pattern replaced (`\\1` names a group), all of them or at most the given count."
        }
        "regex.extract" => {
            "The first match of an RE2 pattern in the text (or its one capture group), as an optional: none when nothing matches."
        }
        "regex.extractAll" => {
            "Every match of an RE2 pattern in the text (or of its one capture group), as a list."
        }
        _ => return None,
    };
    Some(doc)
}

/// A context function under both names the library registers (`Get` and `get`).
fn both(out: &mut Vec<CustomFunction>, pascal: &str, overloads: Vec<Overload>) {
    let mut camel = pascal.to_string();
    if let Some(first) = camel.get(..1) {
        camel = first.to_lowercase() + camel.get(1..).unwrap_or("");
    }
    out.push(function(&camel, overloads.clone()));
    out.push(function(pascal, overloads));
}

fn functions(generating: Generating) -> Vec<CustomFunction> {
    let mut out = Vec::new();
    cel_go_extensions(&mut out);
    resource(&mut out);
    http(&mut out);
    contexts(&mut out, generating);
    image(&mut out);
    plain(&mut out);
    out
}

/// `resource.*`: the union of the namespaced and the cluster-wide library (kyverno/sdk
/// `extensions/cel/libs/resource/lib.go`).
fn resource(out: &mut Vec<CustomFunction>) {
    let ctx = || opaque("resource.Context");
    let gvr = || opaque("schema.GroupVersionResource");
    let m = |id: &str, params: Vec<Type>| overload(id, true, params, any_map());
    both(
        out,
        "List",
        vec![
            m("resource_list_string_string", vec![ctx(), S, S]),
            m(
                "resource_list_string_string_map",
                vec![ctx(), S, S, string_map()],
            ),
            m("resource_list_gvr", vec![ctx(), gvr()]),
            m("resource_list_gvr_map", vec![ctx(), gvr(), string_map()]),
            m("resource_list_string_string_string", vec![ctx(), S, S, S]),
            m(
                "resource_list_string_string_string_map",
                vec![ctx(), S, S, S, string_map()],
            ),
            m("resource_list_gvr_string", vec![ctx(), gvr(), S]),
            m(
                "resource_list_gvr_string_map",
                vec![ctx(), gvr(), S, string_map()],
            ),
        ],
    );
    both(
        out,
        "Get",
        vec![
            m("resource_get_string_string_string", vec![ctx(), S, S, S]),
            m("resource_get_gvr_string", vec![ctx(), gvr(), S]),
            m(
                "resource_get_string_string_string_string",
                vec![ctx(), S, S, S, S],
            ),
            m("resource_get_gvr_string_string", vec![ctx(), gvr(), S, S]),
        ],
    );
    both(
        out,
        "Post",
        vec![
            m(
                "resource_post_string_string_map",
                vec![ctx(), S, S, any_map()],
            ),
            m(
                "resource_post_string_string_string_map",
                vec![ctx(), S, S, S, any_map()],
            ),
        ],
    );
    both(
        out,
        "ToGVR",
        vec![overload("resource_togvr", true, vec![ctx(), S, S], gvr())],
    );
}

/// `http.*` (kyverno/sdk `extensions/cel/libs/http/lib.go`).
fn http(out: &mut Vec<CustomFunction>) {
    let ctx = || opaque("http.Context");
    both(
        out,
        "Get",
        vec![
            overload("http_get_string", true, vec![ctx(), S], D),
            overload(
                "http_get_string_headers",
                true,
                vec![ctx(), S, string_map()],
                D,
            ),
        ],
    );
    both(
        out,
        "Post",
        vec![
            overload("http_post_string_any", true, vec![ctx(), S, D], D),
            overload(
                "http_post_string_any_headers",
                true,
                vec![ctx(), S, D, string_map()],
                D,
            ),
        ],
    );
    both(
        out,
        "Client",
        vec![overload("http_client_string", true, vec![ctx(), S], ctx())],
    );
}

/// `globalContext.Get`, `image.GetMetadata`, `generator.Apply`, `json.*`, `yaml.parse`.
fn contexts(out: &mut Vec<CustomFunction>, generating: Generating) {
    let gctx = || opaque("globalcontext.Context");
    both(
        out,
        "Get",
        vec![
            overload("globalcontext_get_string", true, vec![gctx(), S], D),
            overload(
                "globalcontext_get_string_string",
                true,
                vec![gctx(), S, S],
                D,
            ),
        ],
    );
    let ictx = opaque("imagedata.Context");
    both(
        out,
        "GetMetadata",
        vec![overload("imagedata_get_string", true, vec![ictx, S], D)],
    );
    let gen_ctx = opaque("generator.Context");
    let objects = Type::list(any_map());
    let apply = match generating {
        Generating::No => None,
        Generating::ClusterWide => Some(overload(
            "generator_apply_string_list",
            true,
            vec![gen_ctx, S, objects],
            Type::Bool,
        )),
        // The namespaced library generates into the policy's namespace, which it is not given.
        Generating::Namespaced => Some(overload(
            "generator_apply_list",
            true,
            vec![gen_ctx, objects],
            Type::Bool,
        )),
    };
    if let Some(apply) = apply {
        both(out, "Apply", vec![apply]);
    }
    let json = || opaque("json.Json");
    out.push(function(
        "unmarshal",
        vec![overload("unmarshal_string_dyn", true, vec![json(), D], D)],
    ));
    out.push(function(
        "marshal",
        vec![overload("marshal_dyn_string", true, vec![json(), D], S)],
    ));
    let yaml = opaque("yaml.Yaml");
    out.push(function(
        "parse",
        vec![overload("parse_string_dyn", true, vec![yaml, S], D)],
    ));
}

/// `image(…)`, `parseImageReference(…)`, `isImage(…)` and the image's members (kyverno/sdk
/// `extensions/cel/libs/image/lib.go`).
fn image(out: &mut Vec<CustomFunction>) {
    let image = || opaque("kyverno.image");
    out.push(function(
        "image",
        vec![overload(
            "string_to_image_deprecated",
            false,
            vec![S],
            image(),
        )],
    ));
    out.push(function(
        "parseImageReference",
        vec![overload("string_to_image", false, vec![S], image())],
    ));
    out.push(function(
        "isImage",
        vec![overload("is_image_string", false, vec![S], Type::Bool)],
    ));
    out.push(function(
        "containsDigest",
        vec![overload(
            "image_contains_digest",
            true,
            vec![image()],
            Type::Bool,
        )],
    ));
    for member in ["registry", "repository", "identifier", "tag", "digest"] {
        let id = format!("image_{member}");
        out.push(function(
            member,
            vec![overload(&id, true, vec![image()], S)],
        ));
    }
}

/// The global functions with a plain and (most) a prefixed name: user, hash, math, random, x509,
/// time, transform, gzip.
fn plain(out: &mut Vec<CustomFunction>) {
    let global = |id: &str, params: Vec<Type>, result: Type| overload(id, false, params, result);
    let mut add = |names: &[&str], id: &str, params: Vec<Type>, result: Type| {
        for name in names {
            out.push(function(
                name,
                vec![global(id, params.clone(), result.clone())],
            ));
        }
    };
    add(
        &["parseServiceAccount", "user.parseServiceAccount"],
        "parse_service_account_string",
        vec![S],
        D,
    );
    add(&["sha1", "hash.sha1"], "sha1_string", vec![S], S);
    add(&["sha256", "hash.sha256"], "sha256_string", vec![S], S);
    add(&["md5", "hash.md5"], "md5_string", vec![S], S);
    add(
        &["math.round"],
        "math_round_float_int",
        vec![Type::Double, Type::Int],
        Type::Double,
    );
    add(&["x509.decode"], "x509_decode_string", vec![S], D);
    add(&["time.now"], "time_now", vec![], Type::Timestamp);
    add(&["time.toCron"], "time_to_cron", vec![Type::Timestamp], S);
    add(
        &["time.truncate"],
        "time_truncate",
        vec![Type::Timestamp, Type::Duration],
        Type::Timestamp,
    );
    let list = || Type::list(D);
    add(
        &["listObjToMap", "transform.listObjToMap"],
        "list_of_object_to_map",
        vec![list(), list(), S, S],
        Type::map(D, D),
    );
    add(
        &["gzip.decompress"],
        "decompress_bytes_string",
        vec![Type::Bytes],
        S,
    );
    add(
        &["gzip.compress"],
        "compress_any_bytes",
        vec![D],
        Type::Bytes,
    );
    for name in ["random", "random.random"] {
        out.push(function(
            name,
            vec![
                global("random_string", vec![S], S),
                global("random_string_default_expr", vec![], S),
            ],
        ));
    }
}

/// The variables and functions of image policies (kyverno/kyverno `pkg/cel/libs/imageverify/lib.go`,
/// `pkg/cel/compiler/env.go`): `images`, `attestors`, `attestations`, `ref`, and the verification
/// functions.
pub(super) fn declare_image_verification(env: &mut Env) {
    for name in ["images", "attestors", "attestations"] {
        env.declare(name, D, None);
    }
    env.declare("ref", S, Some("The image reference being matched."));
    let global = |id: &str, params: Vec<Type>, result: Type| overload(id, false, params, result);
    let dyn_list = || Type::list(D);
    let declared = [
        (
            "verifyImageSignatures",
            global(
                "verify_image_signatures_string_stringarray",
                vec![S, dyn_list()],
                Type::Int,
            ),
        ),
        (
            "verifyAttestationSignatures",
            global(
                "verify_image_attestations_string_string_stringarray",
                vec![S, S, dyn_list()],
                Type::Int,
            ),
        ),
        ("getImageData", global("get_image_data_string", vec![S], D)),
        (
            "extractPayload",
            global("extract_payload_string", vec![S, S], D),
        ),
    ];
    for (name, overload) in declared {
        env.add_function(function(name, vec![overload]));
    }
}

/// The cel-go extensions Kyverno enables and Kubernetes does not (`DefaultEnvOptions` in
/// kyverno/kyverno `pkg/cel/compiler/env.go`): `ext.Encoders`, `ext.Math`, `ext.Regex` v1, with
/// cel-go's overloads. `math.greatest` and `math.least` are macros in cel-go over any number of
/// numbers or a list; they are declared here for up to six arguments of any type.
fn cel_go_extensions(out: &mut Vec<CustomFunction>) {
    let global = |id: &str, params: Vec<Type>, result: Type| overload(id, false, params, result);
    let (int, uint, double) = (Type::Int, Type::Uint, Type::Double);
    out.push(function(
        "base64.decode",
        vec![global("base64_decode_string", vec![S], Type::Bytes)],
    ));
    out.push(function(
        "base64.encode",
        vec![global("base64_encode_bytes", vec![Type::Bytes], S)],
    ));
    for name in ["math.greatest", "math.least"] {
        let overloads = (1..=6)
            .map(|n| global(&format!("{name}_{n}"), vec![D; n], D))
            .collect();
        out.push(function(name, overloads));
    }
    for name in ["ceil", "floor", "round", "trunc"] {
        let id = format!("math_{name}_double");
        out.push(function(
            &format!("math.{name}"),
            vec![global(&id, vec![double.clone()], double.clone())],
        ));
    }
    for name in ["isInf", "isNaN", "isFinite"] {
        let id = format!("math_{name}_double");
        out.push(function(
            &format!("math.{name}"),
            vec![global(&id, vec![double.clone()], Type::Bool)],
        ));
    }
    for name in ["abs", "sign"] {
        let overloads = [
            ("int", int.clone()),
            ("uint", uint.clone()),
            ("double", double.clone()),
        ]
        .into_iter()
        .map(|(t, ty)| global(&format!("math_{name}_{t}"), vec![ty.clone()], ty))
        .collect();
        out.push(function(&format!("math.{name}"), overloads));
    }
    let sqrt = [
        ("int", int.clone()),
        ("uint", uint.clone()),
        ("double", double.clone()),
    ]
    .into_iter()
    .map(|(t, ty)| global(&format!("math_sqrt_{t}"), vec![ty], double.clone()))
    .collect();
    out.push(function("math.sqrt", sqrt));
    for name in ["bitAnd", "bitOr", "bitXor"] {
        let overloads = [("int", int.clone()), ("uint", uint.clone())]
            .into_iter()
            .map(|(t, ty)| {
                global(
                    &format!("math_{name}_{t}_{t}"),
                    vec![ty.clone(), ty.clone()],
                    ty,
                )
            })
            .collect();
        out.push(function(&format!("math.{name}"), overloads));
    }
    let bit_not = [("int", int.clone()), ("uint", uint.clone())]
        .into_iter()
        .map(|(t, ty)| global(&format!("math_bitNot_{t}"), vec![ty.clone()], ty))
        .collect();
    out.push(function("math.bitNot", bit_not));
    for name in ["bitShiftLeft", "bitShiftRight"] {
        let overloads = [("int", int.clone()), ("uint", uint.clone())]
            .into_iter()
            .map(|(t, ty)| {
                global(
                    &format!("math_{name}_{t}_int"),
                    vec![ty.clone(), int.clone()],
                    ty,
                )
            })
            .collect();
        out.push(function(&format!("math.{name}"), overloads));
    }
    out.push(function(
        "regex.replace",
        vec![
            global("regex_replace_string_string_string", vec![S, S, S], S),
            global(
                "regex_replace_string_string_string_int",
                vec![S, S, S, int.clone()],
                S,
            ),
        ],
    ));
    out.push(function(
        "regex.extract",
        vec![global(
            "regex_extract_string_string",
            vec![S, S],
            Type::optional(S),
        )],
    ));
    out.push(function(
        "regex.extractAll",
        vec![global(
            "regex_extractAll_string_string",
            vec![S, S],
            Type::list(S),
        )],
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_function_has_a_description() {
        let undocumented: Vec<String> = functions(Generating::ClusterWide)
            .into_iter()
            .filter(|function| function.doc.is_none())
            .map(|function| function.name)
            .collect();
        assert!(undocumented.is_empty(), "{undocumented:?}");
        for name in [
            "verifyImageSignatures",
            "verifyAttestationSignatures",
            "getImageData",
            "extractPayload",
        ] {
            assert!(doc_of(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_function_added_after_the_first_cel_release_says_which_release() {
        let described = |name: &str| {
            let all = functions(Generating::ClusterWide);
            let function = all.into_iter().find(|f| f.name == name);
            function.and_then(|f| f.doc).map(|doc| doc.to_string())
        };
        let sha = described("sha256").unwrap_or_default();
        let prefixed = described("hash.sha256").unwrap_or_default();
        let camel = described("get").unwrap_or_default();
        let pascal = described("Get").unwrap_or_default();
        assert!(sha.ends_with("Kyverno 1.17 and later."), "{sha}");
        assert!(prefixed.ends_with("Kyverno 1.18 and later."), "{prefixed}");
        assert!(camel.ends_with("Kyverno 1.18 and later."), "{camel}");
        assert!(!pascal.contains("Kyverno 1."), "{pascal}");
    }

    #[test]
    fn a_prefixed_name_that_means_something_else_has_its_own_description() {
        let base64 = doc_of("base64.decode").unwrap_or_default();
        let x509 = doc_of("x509.decode").unwrap_or_default();
        assert!(
            base64.contains("base64") && x509.contains("PEM"),
            "{base64} / {x509}"
        );
    }
}
