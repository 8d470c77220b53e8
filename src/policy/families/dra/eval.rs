//! Runs the device selectors of a DRA document against the devices of ResourceSlices, as the
//! scheduler's allocator does (`staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go`,
//! `DeviceMatches`): each device becomes the `device` variable (its slice's driver; each attribute
//! under its domain, the driver's when the name has none; capacities as quantities; a version
//! attribute parsed as semver, an unparsable one an error for that device), the selectors of a
//! request (or of a DeviceClass) are evaluated in order, each with the selector cost limit, and a
//! device matches when every one is true. A selector that fails for a device is reported for that
//! device (the allocator gives up the claim on it). A request's DeviceClass selectors run first
//! when the class is in the same file.
//!
//! Looking up a domain the device has no attribute in gives an empty map upstream, not an error;
//! here the domains a selector names with a literal (`device.attributes["dra.example.com"]`) are
//! given that empty map.

use std::sync::Arc;

use super::typed::MAX_COST;
use super::{Dra, sites};
use crate::cel::ast::{Ast, ExprKind, Literal};
use crate::cel::eval::functions::kube_types::wrap;
use crate::cel::eval::{Activation, EvalOptions, MapValue, Value};
use crate::cel::kube::{quantity, semver};
use crate::policy::admission::explain::{self, Explained};
use crate::policy::families::{Family, FamilySite};
use crate::text::{Encoding, LineIndex};
use crate::yaml::Node;

/// What a selector group decided for one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every selector is true.
    Match,
    /// The selector at this path is false.
    NoMatch(String),
    /// The device could not be judged: a selector failed (its path and the error) or the device
    /// could not be read (no path).
    Error(Option<String>, String),
}

/// One device's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceVerdict {
    /// The ResourceSlice's name.
    pub slice: String,
    /// The device's name.
    pub device: String,
    /// What the selectors decided.
    pub verdict: Verdict,
    /// The traces of the selectors run on this device, in order, labelled with their paths
    /// (inside an [`explain::capture`] only; empty otherwise).
    pub explained: Vec<Explained>,
}

/// The selectors that decide together: a DeviceClass's, or one request's or sub-request's.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectorGroup {
    /// The request (`request` or `request/subrequest`); `None` for a DeviceClass.
    pub request: Option<String>,
    /// A request's DeviceClass, and whether its selectors (from a DeviceClass of the same file)
    /// were run first, as the allocator runs the class's selectors before the request's.
    pub class: Option<(String, bool)>,
    /// The paths of its selectors, in order.
    pub selectors: Vec<String>,
    /// The verdict for every device, in slice and device order.
    pub devices: Vec<DeviceVerdict>,
}

/// The run of one document's selectors.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectorRun {
    /// The document's kind.
    pub kind: String,
    /// Its `metadata.name`.
    pub name: String,
    /// Its selector groups, in field order.
    pub groups: Vec<SelectorGroup>,
}

/// The devices of the slices file and the slices that could not be read.
pub struct Devices {
    devices: Vec<Device>,
    /// Each slice document without devices, or that is not a ResourceSlice: `line:column: why`.
    pub errors: Vec<String>,
}

/// One device as the `device` variable, or why it cannot be.
struct Device {
    slice: String,
    name: String,
    value: Result<Value, String>,
}

/// Whether a document of `api_version` and `kind` holds device selectors.
pub fn is_selector_document(api_version: &str, kind: &str) -> bool {
    Dra.claims(api_version, kind)
}

/// Reads the devices of every ResourceSlice in `text` (YAML or JSON, several documents allowed).
pub fn read_devices(text: &str) -> Devices {
    let yaml = crate::yaml::parse(text);
    let lines = LineIndex::new(text);
    let at = |node: &Node| {
        let pos = lines.line_col(node.range.start(), Encoding::Utf8);
        format!("{}:{}", pos.line + 1, pos.col + 1)
    };
    let mut devices = Devices {
        devices: Vec::new(),
        errors: Vec::new(),
    };
    for error in &yaml.errors {
        let pos = lines.line_col(error.range.start(), Encoding::Utf8);
        let line = pos.line + 1;
        let col = pos.col + 1;
        devices
            .errors
            .push(format!("{line}:{col}: {}", error.message));
    }
    for root in yaml
        .documents
        .iter()
        .filter_map(crate::policy::checked_root)
    {
        let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
        if kind != "ResourceSlice" {
            let error = format!("{}: a {} is not a ResourceSlice", at(root), kind_or(kind));
            devices.errors.push(error);
            continue;
        }
        let slice = name_of(root);
        let spec = root.get("spec");
        let driver = spec
            .and_then(|s| s.get("driver"))
            .and_then(Node::as_str)
            .unwrap_or("");
        let items = spec
            .and_then(|s| s.get("devices"))
            .and_then(Node::as_sequence)
            .filter(|items| !items.is_empty());
        let Some(items) = items else {
            let node = spec.and_then(|s| s.get("devices")).or(spec).unwrap_or(root);
            let error = format!(
                "{}: ResourceSlice {slice} has no devices (spec.devices is empty): nothing to select from",
                at(node)
            );
            devices.errors.push(error);
            continue;
        };
        for item in items {
            devices.devices.push(Device {
                slice: slice.clone(),
                name: name_of(item),
                value: device_value(item, driver),
            });
        }
    }
    devices
}

fn kind_or(kind: &str) -> &str {
    if kind.is_empty() {
        "document without kind"
    } else {
        kind
    }
}

fn name_of(node: &Node) -> String {
    node.get("metadata")
        .unwrap_or(node)
        .get("name")
        .and_then(Node::as_str)
        .unwrap_or("<unnamed>")
        .to_string()
}

/// The `device` variable of a ResourceSlice device (v1beta1 and v1alpha3 keep the attributes
/// and capacity under `basic`).
fn device_value(item: &Node, driver: &str) -> Result<Value, String> {
    let fields = item.get("basic").unwrap_or(item);
    let mut attributes = ByDomain::default();
    for (name, value) in entries(fields.get("attributes")) {
        let value = attribute_value(value).map_err(|e| format!("attribute {name}: {e}"))?;
        attributes.insert(name, driver, value);
    }
    let mut capacity = ByDomain::default();
    for (name, value) in entries(fields.get("capacity")) {
        // v1alpha3 gives the quantity itself, later versions `{value: quantity}`.
        let raw = value.get("value").unwrap_or(value);
        let text = raw.as_str().unwrap_or("");
        let parsed = quantity::parse(text).map_err(|e| format!("capacity {name}: {e:?}"))?;
        capacity.insert(name, driver, wrap(parsed));
    }
    let mut device = MapValue::with_capacity(4);
    device.insert_str("driver", Value::String(Arc::from(driver)));
    device.insert_str("attributes", attributes.into_value());
    device.insert_str("capacity", capacity.into_value());
    let multiple = fields
        .get("allowMultipleAllocations")
        .and_then(|n| n.as_scalar())
        .and_then(|s| s.as_bool())
        .unwrap_or(false);
    device.insert_str("allowMultipleAllocations", Value::Bool(multiple));
    Ok(Value::Map(Arc::new(device)))
}

/// The entries of a mapping node with scalar keys.
fn entries(node: Option<&Node>) -> impl Iterator<Item = (&str, &Node)> {
    node.and_then(Node::as_mapping)
        .unwrap_or(&[])
        .iter()
        .filter_map(|entry| Some((entry.key_str()?, &entry.value)))
}

/// An attribute's one value (`getAttributeValue`): int, bool, string or version.
fn attribute_value(node: &Node) -> Result<Value, String> {
    let scalar = |key: &str| node.get(key).and_then(Node::as_scalar);
    if let Some(int) = scalar("int") {
        let value = int.as_i64().ok_or("int is not an integer")?;
        return Ok(Value::Int(value));
    }
    if let Some(flag) = scalar("bool") {
        let value = flag.as_bool().ok_or("bool is not a boolean")?;
        return Ok(Value::Bool(value));
    }
    if let Some(text) = scalar("string") {
        return Ok(Value::String(Arc::from(text.value.as_str())));
    }
    if let Some(version) = scalar("version") {
        let parsed =
            semver::parse(&version.value).map_err(|e| format!("parse semantic version: {e}"))?;
        return Ok(wrap(parsed));
    }
    Err("unsupported attribute value".to_string())
}

/// Values by domain and identifier.
#[derive(Default)]
struct ByDomain {
    domains: Vec<(String, MapValue)>,
}

impl ByDomain {
    /// Adds `name` (`domain/id`, or `id` in the driver's domain).
    fn insert(&mut self, name: &str, driver: &str, value: Value) {
        let (domain, id) = name.split_once('/').unwrap_or((driver, name));
        let index = match self.domains.iter().position(|(d, _)| d == domain) {
            Some(index) => index,
            None => {
                self.domains.push((domain.to_string(), MapValue::default()));
                self.domains.len() - 1
            }
        };
        if let Some((_, map)) = self.domains.get_mut(index) {
            map.insert_str(id, value);
        }
    }

    fn into_value(self) -> Value {
        let mut outer = MapValue::with_capacity(self.domains.len());
        for (domain, inner) in self.domains {
            outer.insert_str(&domain, Value::Map(Arc::new(inner)));
        }
        Value::Map(Arc::new(outer))
    }
}

/// Runs the selectors of every DRA document of `policy` (only the one named `name`, if given)
/// against `devices`.
pub fn run(policy: &str, name: Option<&str>, devices: &Devices) -> Vec<SelectorRun> {
    let yaml = crate::yaml::parse(policy);
    let documents: Vec<&Node> = yaml
        .documents
        .iter()
        .filter_map(crate::policy::checked_root)
        .filter(|root| {
            let api_version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
            let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
            is_selector_document(api_version, kind)
        })
        .collect();
    let classes: Vec<(String, Vec<FamilySite>)> = documents
        .iter()
        .filter(|root| root.get("kind").and_then(Node::as_str) == Some("DeviceClass"))
        .map(|root| {
            let name = name_of(root);
            let sites = sites::collect(root, super::shape_of(root))
                .into_iter()
                .map(|site| FamilySite {
                    path: format!("DeviceClass {name} {}", site.path),
                    ..site
                })
                .collect();
            (name, sites)
        })
        .collect();
    documents
        .iter()
        .filter(|root| name.is_none_or(|wanted| name_of(root) == wanted))
        .map(|root| run_document(root, &classes, devices))
        .collect()
}

fn run_document(
    root: &Node,
    classes: &[(String, Vec<FamilySite>)],
    devices: &Devices,
) -> SelectorRun {
    let sites = sites::collect(root, super::shape_of(root));
    let mut groups: Vec<(Option<String>, Vec<&FamilySite>)> = Vec::new();
    if root.get("kind").and_then(Node::as_str) == Some("DeviceClass") {
        groups.push((None, sites.iter().collect()));
    }
    for request in request_names(root) {
        let class = class_of(root, &request);
        let class_sites = class
            .and_then(|class| classes.iter().find(|(name, _)| *name == class))
            .map(|(_, sites)| sites.as_slice())
            .unwrap_or(&[]);
        let own = sites.iter().filter(|s| s.name.as_deref() == Some(&request));
        let members: Vec<&FamilySite> = class_sites.iter().chain(own).collect();
        groups.push((Some(request), members));
    }
    groups.retain(|(_, members)| !members.is_empty());
    SelectorRun {
        kind: root
            .get("kind")
            .and_then(Node::as_str)
            .unwrap_or("")
            .to_string(),
        name: name_of(root),
        groups: groups
            .into_iter()
            .map(|(request, members)| {
                let class = request.as_deref().and_then(|r| class_of(root, r)).map(|c| {
                    let found = classes.iter().any(|(name, _)| *name == c);
                    (c, found)
                });
                SelectorGroup {
                    class,
                    ..run_group(request, &members, devices)
                }
            })
            .collect(),
    }
}

/// The requests of a claim or claim template, a `firstAvailable` request as each of its
/// sub-requests (`request/subrequest`), in order.
fn request_names(root: &Node) -> Vec<String> {
    let Some(spec) = claim_spec(root) else {
        return Vec::new();
    };
    let requests = spec
        .get("devices")
        .and_then(|d| d.get("requests"))
        .and_then(Node::as_sequence)
        .unwrap_or(&[]);
    let mut names = Vec::new();
    for request in requests {
        let name = name_of(request);
        let subrequests = request
            .get("firstAvailable")
            .and_then(Node::as_sequence)
            .unwrap_or(&[]);
        if subrequests.is_empty() {
            names.push(name);
        } else {
            names.extend(
                subrequests
                    .iter()
                    .map(|sub| format!("{name}/{}", name_of(sub))),
            );
        }
    }
    names
}

/// The claim spec of a ResourceClaim (`spec`) or ResourceClaimTemplate (`spec.spec`).
fn claim_spec(root: &Node) -> Option<&Node> {
    let spec = root.get("spec")?;
    match root.get("kind").and_then(Node::as_str) {
        Some("ResourceClaimTemplate") => spec.get("spec"),
        Some("ResourceClaim") => Some(spec),
        _ => None,
    }
}

/// The `deviceClassName` of request `request` (`name` or `name/subrequest`) of a claim or
/// claim template.
fn class_of(root: &Node, request: &str) -> Option<String> {
    let requests = claim_spec(root)?
        .get("devices")?
        .get("requests")?
        .as_sequence()?;
    let (parent, sub) = match request.split_once('/') {
        Some((parent, sub)) => (parent, Some(sub)),
        None => (request, None),
    };
    let node = requests.iter().find(|r| name_of(r) == parent)?;
    let owner = match sub {
        Some(sub) => node
            .get("firstAvailable")?
            .as_sequence()?
            .iter()
            .find(|s| name_of(s) == sub)?,
        None => node.get("exactly").unwrap_or(node),
    };
    owner
        .get("deviceClassName")
        .and_then(Node::as_str)
        .map(str::to_string)
}

fn run_group(request: Option<String>, sites: &[&FamilySite], devices: &Devices) -> SelectorGroup {
    let compiled: Vec<(&FamilySite, Result<Ast, String>)> = sites
        .iter()
        .map(|site| {
            let parsed = crate::cel::parse(&site.text);
            let ast = match parsed.errors.first() {
                Some(error) => Err(format!("compilation failed: {}", error.message)),
                None => Ok(parsed.ast),
            };
            (*site, ast)
        })
        .collect();
    let verdicts = devices
        .devices
        .iter()
        .map(|device| {
            // Each device keeps the traces of its own selector runs.
            let (verdict, explained) = explain::traced(|| judge(&compiled, &device.value));
            DeviceVerdict {
                slice: device.slice.clone(),
                device: device.name.clone(),
                verdict,
                explained,
            }
        })
        .collect();
    SelectorGroup {
        request,
        class: None,
        selectors: sites.iter().map(|site| site.path.clone()).collect(),
        devices: verdicts,
    }
}

/// The selectors in order against one device: the first false or failing one decides.
fn judge(
    selectors: &[(&FamilySite, Result<Ast, String>)],
    device: &Result<Value, String>,
) -> Verdict {
    let device = match device {
        Ok(device) => device,
        Err(error) => return Verdict::Error(None, error.clone()),
    };
    let options = EvalOptions {
        cost_limit: Some(MAX_COST),
        ..EvalOptions::default()
    };
    for (site, ast) in selectors {
        let path = site.path.clone();
        let ast = match ast {
            Ok(ast) => ast,
            Err(error) => return Verdict::Error(Some(path), error.clone()),
        };
        let device = with_named_domains(ast, device);
        let mut activation = Activation::new();
        activation.bind("device", device);
        let label = || path.clone();
        match explain::evaluate(label, &site.text, ast, &activation, &options).result {
            Ok(Value::Bool(true)) => {}
            Ok(Value::Bool(false)) => return Verdict::NoMatch(path),
            Ok(other) => {
                let message = format!(
                    "CEL result of type {} could not be converted to bool",
                    other.type_name()
                );
                return Verdict::Error(Some(path), message);
            }
            Err(error) => return Verdict::Error(Some(path), error.message),
        }
    }
    Verdict::Match
}

/// `device` with an empty map for each domain `ast` looks up with a literal in `attributes` or
/// `capacity` that the device lacks (upstream's map lookup gives an empty map for a missing key).
fn with_named_domains(ast: &Ast, device: &Value) -> Value {
    let Value::Map(map) = device else {
        return device.clone();
    };
    let mut named: Vec<(&str, &str)> = Vec::new();
    for expr in &ast.exprs {
        let ExprKind::Index { operand, index, .. } = &expr.kind else {
            continue;
        };
        let ExprKind::Select {
            operand: var,
            field,
            ..
        } = &ast.expr(*operand).kind
        else {
            continue;
        };
        let is_device =
            matches!(&ast.expr(*var).kind, ExprKind::Ident(name) if name.text == "device");
        let ExprKind::Literal(Literal::String(domain)) = &ast.expr(*index).kind else {
            continue;
        };
        if is_device && matches!(field.text.as_str(), "attributes" | "capacity") {
            named.push((field.text.as_str(), domain.as_str()));
        }
    }
    if named.is_empty() {
        return device.clone();
    }
    let mut copy = (**map).clone();
    for field in ["attributes", "capacity"] {
        let Some(Value::Map(domains)) = copy.get_str(field) else {
            continue;
        };
        let mut domains = (**domains).clone();
        for (_, domain) in named.iter().filter(|(f, _)| *f == field) {
            if domains.get_str(domain).is_none() {
                domains.insert_str(domain, Value::Map(Arc::new(MapValue::default())));
            }
        }
        copy.insert_str(field, Value::Map(Arc::new(domains)));
    }
    Value::Map(Arc::new(copy))
}
