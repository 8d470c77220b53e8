//! The functions of Kyverno's CEL libraries that evaluation runs, asked before the evaluator's
//! own (`Activation::with_functions`): `parseServiceAccount` (kyverno/sdk
//! `extensions/cel/libs/user/impl.go`), and the lookups that read the request's context data as
//! Kyverno's CLI reads a test's `context` file (kyverno/kyverno `pkg/cel/libs/fake_context.go`):
//! `resource.Get`, `resource.List` (by apiVersion and plural resource, in exactly the namespace
//! given) and `image.GetMetadata` (the `images` entry of that reference), `http.Get`,
//! `http.Post`, `http.Client` and `globalContext.Get` (the recorded answers of `external`), and
//! `generator.Apply`, which records into the evaluation's `generator::Sink`. A lookup without
//! context data is an error naming the call and where its data comes from, and is recorded
//! (`ContextData::unavailable`) so that a suite reports the row as not evaluated. The pure functions
//! live in their own modules (`image_ref`, `encoding`, `hash`, `math_ext`, `regex_ext`, `gzip`,
//! `transform`, `time_ext`, `x509`).

use std::sync::{Arc, Mutex};

use serde_json::{Value as Json, json};

use super::external::External;
use super::generator::Sink;
use super::value_of;
use super::{encoding, gzip, hash, image_ref, math_ext, regex_ext, time_ext, transform, x509};
use crate::cel::eval::{ErrorKind, ExternalFunctions, Opaque, Timestamp, Value};
use crate::policy::admission::json::str_at;
use crate::policy::admission::request::split_api_version;
use crate::schema::resources::plural;

/// The objects and image data lookups return.
#[derive(Debug, Default)]
pub struct ContextData {
    /// `spec.resources` of a `cli.kyverno.io` Context, and any other object given.
    resources: Vec<Json>,
    /// `spec.images`.
    images: Vec<Json>,
    /// `spec.verifications` (an admission-ls field: the outcome of image signature checks).
    verifications: Vec<Json>,
    /// Whether any context was given, and where it comes from (for messages).
    source: Option<String>,
    /// What `time.now()` returns.
    now: Option<Timestamp>,
    /// Recorded HTTP responses and global context entries.
    external: External,
    /// The calls that found no data, in order: an error they cause is this tool's lack of data,
    /// not the policy's (`unavailable`).
    missed: Mutex<Vec<String>>,
}

impl ContextData {
    /// The data the request `input` names: its context documents, their source and its clock.
    pub fn of(input: &super::EvalInput) -> ContextData {
        ContextData::new(&input.context, input.context_source.clone(), input.now)
    }

    /// The data of `documents` (Kyverno `Context` documents or plain objects), given by `source`
    /// (`--context FILE`, the suite's `context` file); no documents and no source: no data.
    pub fn new(documents: &[Json], source: Option<String>, now: Option<Timestamp>) -> ContextData {
        let mut data = ContextData {
            source,
            now,
            ..ContextData::default()
        };
        for doc in documents {
            if str_at(doc, &["kind"]) == "Context" {
                let list = |key: &str| match doc.get("spec").and_then(|s| s.get(key)) {
                    Some(Json::Array(items)) => items.clone(),
                    _ => Vec::new(),
                };
                data.resources.extend(list("resources"));
                data.images.extend(list("images"));
                data.verifications.extend(list("verifications"));
                let of = data.source.clone().unwrap_or_else(|| "the context".into());
                if let Some(spec) = doc.get("spec") {
                    data.external
                        .read(spec, &|field| format!("the spec.{field} of {of}"));
                }
            } else if is_suite_data(doc) {
                // The suite's own lists (`apiCallResponses`, `globalContextEntries`).
                data.external
                    .read(doc, &|field| format!("the suite's {field}"));
            } else if doc.is_object() && !super::exceptions::is_exception(doc) {
                data.resources.push(doc.clone());
            }
        }
        data
    }

    /// The `spec.verifications` entry of `image`.
    pub fn verification(&self, image: &str) -> Option<&Json> {
        self.verifications
            .iter()
            .find(|v| str_at(v, &["image"]) == image)
    }

    /// What an image verification says when the context has no entry for its image.
    pub fn missing_verification(&self, call: &str) -> Value {
        let hint = match &self.source {
            Some(source) => format!("the image has no entry in the spec.verifications of {source}"),
            None => "give the outcome of its signature checks in a context file's spec.verifications (an admission-ls field: image, signatures, attestations, payloads): `eval --context FILE`, or the `context` field of a kyverno-test.yaml".to_string(),
        };
        let message = format!("{call}: signatures cannot be verified offline; {hint}");
        self.record(&message);
        Value::error(ErrorKind::InvalidArgument, message)
    }

    /// What a lookup says when it has no data.
    fn missing(&self, call: &str) -> Value {
        let hint = match &self.source {
            Some(source) => format!("; it is not in {source}"),
            None => "; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)".to_string(),
        };
        let message = format!("{call}: no data{hint}");
        self.record(&message);
        Value::error(ErrorKind::InvalidArgument, message)
    }

    fn record(&self, message: &str) {
        match self.missed.lock() {
            Ok(mut list) => list.push(message.to_string()),
            Err(poisoned) => poisoned.into_inner().push(message.to_string()),
        }
    }

    /// [`Self::unavailable`] for a policy that ended with `status`: only an error can be one a
    /// lookup without data caused, and then it is this tool's, not the policy's.
    pub fn unavailable_after(&self, status: super::Status) -> Option<String> {
        (status == super::Status::Error)
            .then(|| self.unavailable())
            .flatten()
    }

    /// The first call that found no data, when one did: a result that is an error then says
    /// that this tool could not evaluate the policy offline, not what Kyverno would decide.
    pub fn unavailable(&self) -> Option<String> {
        match self.missed.lock() {
            Ok(list) => list.first().cloned(),
            Err(poisoned) => poisoned.into_inner().first().cloned(),
        }
    }
}

/// Whether `doc` is a suite's own lists (a `cli.kyverno.io` Test), not an object of the cluster.
pub fn is_suite_data(doc: &Json) -> bool {
    str_at(doc, &["kind"]) == "Test" && str_at(doc, &["apiVersion"]).starts_with("cli.kyverno.io/")
}

/// Kyverno's functions over `data`.
pub struct Library {
    data: Arc<ContextData>,
    /// Where `generator.Apply` records what it generates (a GeneratingPolicy's evaluation only).
    generated: Option<Arc<Sink>>,
}

impl Library {
    /// The library reading `data`.
    pub fn new(data: Arc<ContextData>) -> Library {
        Library {
            data,
            generated: None,
        }
    }

    /// The library reading `data`, for an activation.
    pub fn shared(data: Arc<ContextData>) -> Arc<dyn ExternalFunctions> {
        Arc::new(Library {
            data,
            generated: None,
        })
    }

    /// The library of a GeneratingPolicy: `generator.Apply` records into `sink`.
    pub fn generating(data: Arc<ContextData>, sink: Arc<Sink>) -> Arc<dyn ExternalFunctions> {
        Arc::new(Library {
            data,
            generated: Some(sink),
        })
    }

    fn get(&self, args: &[Value]) -> Value {
        let [api_version, resource, namespace, name] = args else {
            return Value::no_overload();
        };
        let (Some(v), Some(r), Some(ns), Some(n)) = (
            text(api_version),
            text(resource),
            text(namespace),
            text(name),
        ) else {
            return Value::no_overload();
        };
        let call = format!("resource.Get('{v}', '{r}', '{ns}', '{n}')");
        if self.data.source.is_none() {
            return self.data.missing(&call);
        }
        let found = self.of_resource(v, r).find(|o| {
            str_at(o, &["metadata", "namespace"]) == ns && str_at(o, &["metadata", "name"]) == n
        });
        match found {
            Some(object) => value_of(Some(object)),
            None => Value::error(
                ErrorKind::InvalidArgument,
                format!(
                    "failed to get resource: {} \"{n}\" not found",
                    group_resource(v, r)
                ),
            ),
        }
    }

    fn list(&self, args: &[Value]) -> Value {
        let (Some(v), Some(r), Some(ns)) = (
            args.first().and_then(text),
            args.get(1).and_then(text),
            args.get(2).and_then(text),
        ) else {
            return Value::no_overload();
        };
        if !(3..=4).contains(&args.len()) {
            return Value::no_overload();
        }
        let call = format!("resource.List('{v}', '{r}', '{ns}')");
        if self.data.source.is_none() {
            return self.data.missing(&call);
        }
        let all: Vec<&Json> = self.of_resource(v, r).collect();
        if all.is_empty() {
            return Value::error(
                ErrorKind::InvalidArgument,
                format!(
                    "failed to list resource: {} resource not found",
                    group_resource(v, r)
                ),
            );
        }
        let items: Vec<Json> = all
            .into_iter()
            .filter(|o| str_at(o, &["metadata", "namespace"]) == ns)
            .cloned()
            .collect();
        value_of(Some(&json!({ "items": items })))
    }

    fn image_data(&self, args: &[Value]) -> Value {
        let [image] = args else {
            return Value::no_overload();
        };
        let Some(image) = text(image) else {
            return Value::no_overload();
        };
        if self.data.source.is_none() {
            return self.data.missing(&format!("image.GetMetadata('{image}')"));
        }
        match self
            .data
            .images
            .iter()
            .find(|i| str_at(i, &["image"]) == image)
        {
            Some(data) => value_of(Some(data)),
            None => Value::error(
                ErrorKind::InvalidArgument,
                format!(
                    "failed to get image data: image data for {image} not found in the context"
                ),
            ),
        }
    }

    /// `http.Get(url, headers?)`, `http.Post(url, body, headers?)`, also on a client of
    /// `http.Client(caBundle)` (whose mocks are the same: `http_mock.go` `Client`).
    fn http(&self, member: &str, args: &[Value]) -> Value {
        let (method, arity) = match member {
            "Get" | "get" => ("GET", 1..=2),
            "Post" | "post" => ("POST", 2..=3),
            _ => return Value::no_overload(),
        };
        let Some(url) = args.first().and_then(text) else {
            return Value::no_overload();
        };
        if !arity.contains(&args.len()) {
            return Value::no_overload();
        }
        let call = format!("{}('{url}')", canonical(&format!("http.{member}")));
        answer(self.data.external.http(&call, method, url))
    }

    /// `globalContext.Get(name, projection?)`.
    fn global(&self, args: &[Value]) -> Value {
        let (Some(name), projection) = (args.first().and_then(text), args.get(1)) else {
            return Value::no_overload();
        };
        let projection = match projection {
            None if args.len() == 1 => "",
            Some(p) if args.len() == 2 => match text(p) {
                Some(p) => p,
                None => return Value::no_overload(),
            },
            _ => return Value::no_overload(),
        };
        let call = format!("globalContext.Get('{name}', '{projection}')");
        answer(self.data.external.global(&call, name, projection))
    }

    /// The context objects of `api_version` whose kind's plural is `resource`.
    fn of_resource<'d>(
        &'d self,
        api_version: &'d str,
        resource: &'d str,
    ) -> impl Iterator<Item = &'d Json> {
        self.data.resources.iter().filter(move |o| {
            str_at(o, &["apiVersion"]) == api_version && plural(str_at(o, &["kind"])) == resource
        })
    }
}

/// A recorded answer as a CEL value, or its error.
fn answer(found: Result<Json, String>) -> Value {
    match found {
        Ok(json) => value_of(Some(&json)),
        Err(message) => Value::error(ErrorKind::InvalidArgument, message),
    }
}

/// An `http.Client(caBundle)`: the recorded responses answer it as they answer `http`.
#[derive(Debug, PartialEq)]
struct HttpClient;

impl Opaque for HttpClient {
    fn type_name(&self) -> &str {
        "http.Context"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other.as_any().downcast_ref::<HttpClient>().is_some()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Kyverno's qualified functions this tool does not evaluate, with where their data would
/// come from in a suite ("" when they need none).
const NOT_EVALUATED: &[(&str, &str)] = &[
    // The CLI's fake context does not implement it either (`fake_context.go` `PostResource`).
    ("resource.Post", ""),
    // Random by design (kyverno/sdk `libs/random`): no result a test could expect.
    ("random", ""),
    ("random.random", ""),
];

/// `ns.get` as `ns.Get`: the context libraries register both spellings (kyverno/sdk
/// `extensions/cel/libs/*/lib.go`).
fn canonical(name: &str) -> String {
    const CONTEXTS: &[&str] = &["resource", "image", "http", "globalContext", "generator"];
    match name.split_once('.') {
        Some((ns, member)) if CONTEXTS.contains(&ns) => {
            let mut chars = member.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            format!(
                "{ns}.{}{}",
                first.map(String::from).unwrap_or_default(),
                chars.as_str()
            )
        }
        _ => name.to_string(),
    }
}

/// The error of a library function this tool does not evaluate.
fn not_evaluated(name: &str, source: &str) -> Value {
    let data = if source.is_empty() {
        String::new()
    } else {
        format!(" (its data comes from {source}, which admission-ls does not read yet)")
    };
    Value::error(
        ErrorKind::InvalidArgument,
        format!("{name}: a Kyverno library function admission-ls does not evaluate yet{data}"),
    )
}

/// `pods`, `deployments.apps`: a group resource as the API machinery prints it.
fn group_resource(api_version: &str, resource: &str) -> String {
    let (group, _) = split_api_version(api_version);
    if group.is_empty() {
        resource.to_string()
    } else {
        format!("{resource}.{group}")
    }
}

fn text(value: &Value) -> Option<&str> {
    match value {
        Value::String(s) => Some(s),
        _ => None,
    }
}

/// `parseServiceAccount`: `system:serviceaccount:NS:NAME` → its namespace and name (empty for
/// another user), with the Go field names the policies read (`Namespace`, `Name`).
fn parse_service_account(args: &[Value]) -> Value {
    let [Value::String(user)] = args else {
        return Value::no_overload();
    };
    let (namespace, name) = user
        .strip_prefix("system:serviceaccount:")
        .and_then(|rest| rest.split_once(':'))
        .unwrap_or(("", ""));
    value_of(Some(&json!({ "Namespace": namespace, "Name": name })))
}

impl ExternalFunctions for Library {
    fn call(&self, name: &str, target: Option<&Value>, args: &[Value]) -> Option<Value> {
        if let Some(target) = target {
            if let Value::Opaque(o) = target
                && o.as_any().downcast_ref::<HttpClient>().is_some()
            {
                return Some(self.http(name, args));
            }
            return image_ref::member(name, target, args);
        }
        if let Some(value) = image_ref::global(name, args)
            .or_else(|| encoding::call(name, args))
            .or_else(|| hash::call(name, args))
            .or_else(|| math_ext::call(name, args))
            .or_else(|| regex_ext::call(name, args))
            .or_else(|| gzip::call(name, args))
            .or_else(|| transform::call(name, args))
            .or_else(|| time_ext::call(name, args))
            .or_else(|| x509::call(name, args))
        {
            return Some(value);
        }
        Some(match canonical(name).as_str() {
            "parseServiceAccount" => parse_service_account(args),
            "resource.Get" => self.get(args),
            "resource.List" => self.list(args),
            "image.GetMetadata" => self.image_data(args),
            "http.Get" => self.http("Get", args),
            "http.Post" => self.http("Post", args),
            "http.Client" => match args {
                [Value::String(_)] => Value::Opaque(Arc::new(HttpClient)),
                _ => Value::no_overload(),
            },
            "globalContext.Get" => self.global(args),
            "generator.Apply" => match &self.generated {
                Some(sink) => sink.apply(args),
                // Only a GeneratingPolicy's environment declares `generator`.
                None => Value::error(
                    ErrorKind::InvalidArgument,
                    "generator.Apply: only a GeneratingPolicy can generate resources".to_string(),
                ),
            },
            // kyverno/sdk `libs/time`: the current time (the caller's clock).
            "time.now" if args.is_empty() => match self.data.now {
                Some(now) => Value::Timestamp(now),
                None => not_evaluated("time.now", ""),
            },
            other => match NOT_EVALUATED.iter().find(|(n, _)| *n == other) {
                Some((_, source)) => not_evaluated(other, source),
                None => return None,
            },
        })
    }

    fn is_qualified(&self, name: &str) -> bool {
        let name = canonical(name);
        matches!(
            name.as_str(),
            "resource.Get"
                | "resource.List"
                | "image.GetMetadata"
                | "time.now"
                | "generator.Apply"
                | "http.Get"
                | "http.Post"
                | "http.Client"
                | "globalContext.Get"
        ) || encoding::is_function(&name)
            || math_ext::is_function(&name)
            || regex_ext::is_function(&name)
            || gzip::is_function(&name)
            || transform::is_function(&name)
            || time_ext::is_function(&name)
            || name == "x509.decode"
            || matches!(name.as_str(), "hash.sha1" | "hash.sha256" | "hash.md5")
            || NOT_EVALUATED.iter().any(|(n, _)| *n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_accounts_parse_as_the_user_library_does() {
        let sa = parse_service_account(&[Value::string("system:serviceaccount:ns:dev")]);
        assert_eq!(
            sa.to_json().ok(),
            Some(json!({"Namespace": "ns", "Name": "dev"}))
        );
        let user = parse_service_account(&[Value::string("alice")]);
        assert_eq!(
            user.to_json().ok(),
            Some(json!({"Namespace": "", "Name": ""}))
        );
    }

    #[test]
    fn lookups_without_data_name_the_call_and_the_flag() {
        let library = Library::shared(Arc::new(ContextData::new(&[], None, None)));
        let args = [
            Value::string("v1"),
            Value::string("pods"),
            Value::string("ns"),
            Value::string("p"),
        ];
        let result = library
            .call("resource.Get", None, &args)
            .map(|v| v.to_string());
        let text = result.unwrap_or_default();
        assert!(
            text.contains("resource.Get('v1', 'pods', 'ns', 'p'): no data"),
            "{text}"
        );
        assert!(text.contains("--context FILE"), "{text}");
        let lower = library
            .call("resource.get", None, &args)
            .map(|v| v.to_string());
        assert_eq!(lower.unwrap_or_default(), text, "both spellings");
        let now = library.call("time.now", None, &[]).map(|v| v.to_string());
        let now = now.unwrap_or_default();
        assert!(
            now.contains("time.now: a Kyverno library function"),
            "{now}"
        );
        let random = library.call("random", None, &[]).map(|v| v.to_string());
        let random = random.unwrap_or_default();
        assert!(
            random.contains("random: a Kyverno library function"),
            "{random}"
        );
        assert!(library.is_qualified("x509.decode"));
        assert!(library.is_qualified("transform.listObjToMap"));
    }
}
