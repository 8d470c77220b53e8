//! The CEL of a device selector, compiled as the API server compiles a new one
//! (`staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go`, `CompileCELExpression` with
//! `NewExpressions`, called by `validateCELExpression` in `pkg/apis/resource/validation`):
//!
//! - the Kubernetes base environment of the release, `cel.bind`, the semver library (declared
//!   unversioned from 1.31), and one variable, `device`, of type `kubernetes.DRADevice`: `driver`
//!   (string), `attributes` (map of domain to map of identifier to a value of unknown type),
//!   `capacity` (map of domain to map of identifier to `kubernetes.Quantity`), and
//!   `allowMultipleAllocations` (bool) from 1.36, where the `DRAConsumableCapacity` gate that
//!   declares it is on by default (`pkg/features/kube_features.go`: alpha 1.34, beta 1.36);
//! - the result must be `bool` or of the attribute value type (`must evaluate to bool or the
//!   unknown type`);
//! - an expression longer than `CELSelectorExpressionMaxLength` (10 KiB) is refused before it is
//!   compiled, and one whose estimated cost exceeds `CELSelectorExpressionMaxCost` (1,000,000) is
//!   refused as too complex, with the sizes `compile.go`'s `sizeEstimator` gives the `device` paths
//!   (limits from `k8s.io/api/resource/v1/types.go`).

use std::sync::Arc;

use crate::cel::check::{Env, ObjectTypes};
use crate::cel::cost::{self, Path, PathRoot, Size, SizeEstimator, Step};
use crate::cel::library::Library;
use crate::cel::types::Type;
use crate::policy::families::{FamilySite, compile_site};
use crate::policy::{Code, Diagnostic};
use crate::text::{TextRange, TextSize};

/// The object type of `device`.
pub(super) const DEVICE_TYPE: &str = "kubernetes.DRADevice";

/// `CELSelectorExpressionMaxLength`.
pub(super) const MAX_LENGTH: usize = 10 * 1024;
/// `CELSelectorExpressionMaxCost`: also the runtime cost limit of one evaluation.
pub const MAX_COST: u64 = 1_000_000;

/// `ResourceSliceMaxAttributesAndCapacitiesPerDevice`.
const MAX_ATTRIBUTES: u64 = 32;
/// `DeviceAttributeMaxValueLength`.
const MAX_VALUE_LENGTH: u64 = 64;
/// `DeviceMaxDomainLength`.
const MAX_DOMAIN_LENGTH: u64 = 63;
/// `DeviceMaxIDLength`.
const MAX_ID_LENGTH: u64 = 32;
/// `DriverNameMaxLength`.
const MAX_DRIVER_LENGTH: u64 = 63;

/// The first release whose default gates declare `device.allowMultipleAllocations`.
const MULTI_ALLOCATION_SINCE: u32 = 36;

const DEVICE_DOC: &str = "The device a selector is evaluated for: `driver`, `attributes` and \
                          `capacity` by domain (an attribute without a domain is in the driver's).";

/// The environment a selector is compiled in for release 1.`minor`.
pub fn env(minor: u32) -> Env {
    let mut env = Env::kubernetes(minor, false);
    env.bindings = true;
    if !env.libraries.contains(&Library::SemverV1) {
        env.libraries.push(Library::SemverV1);
    }
    let mut types = ObjectTypes::new();
    let by_domain = |value: Type| Type::map(Type::String, Type::map(Type::String, value));
    types.add_field(
        DEVICE_TYPE,
        "driver",
        Type::String,
        Some("The device's driver."),
    );
    types.add_field(
        DEVICE_TYPE,
        "attributes",
        by_domain(Type::Dyn),
        Some("The device's attributes: domain → identifier → value (int, bool, string or semver)."),
    );
    types.add_field(
        DEVICE_TYPE,
        "capacity",
        by_domain(Type::quantity()),
        Some("The device's capacity: domain → identifier → quantity."),
    );
    if minor >= MULTI_ALLOCATION_SINCE {
        types.add_field(
            DEVICE_TYPE,
            "allowMultipleAllocations",
            Type::Bool,
            Some("Whether the device may be allocated to several claims at once."),
        );
    }
    env.push_provider(Arc::new(types));
    env.declare("device", Type::object(DEVICE_TYPE), Some(DEVICE_DOC));
    env
}

/// Reports every refusal of the selector `sites` for release 1.`minor`.
pub(super) fn check(sites: &[FamilySite], minor: u32, out: &mut Vec<Diagnostic>) {
    let env = env(minor);
    for site in sites {
        check_site(site, &env, out);
    }
}

fn check_site(site: &FamilySite, env: &Env, out: &mut Vec<Diagnostic>) {
    let whole = site
        .source_map
        .to_file_range(TextRange::up_to(TextSize::of(site.text.as_str())));
    if site.text.len() > MAX_LENGTH {
        let message = format!(
            "{}: Too long: may not be more than {MAX_LENGTH} bytes",
            site.path
        );
        out.push(Diagnostic::new(Code::Invalid, whole, message));
        return;
    }
    let Some((ast, checked)) = compile_site(site, env, out) else {
        return;
    };
    if !checked.errors.is_empty() {
        return;
    }
    if !matches!(checked.result, Type::Bool | Type::Dyn | Type::Error) {
        let message = format!(
            "{}: must evaluate to bool or the unknown type, not {}",
            site.path, checked.result
        );
        out.push(Diagnostic::new(Code::CelResultType, whole, message));
        return;
    }
    let estimate = cost::estimate_value(&ast, &checked, &DeviceSizes);
    if !estimate.unknown && estimate.cost.max > MAX_COST {
        let message = format!(
            "{}: Forbidden: too complex, exceeds cost limit (estimated cost {} > {MAX_COST})",
            site.path, estimate.cost.max
        );
        out.push(Diagnostic::new(Code::CelCost, whole, message));
    }
}

/// The sizes of the `device` paths, as `compile.go`'s `sizeEstimator` reads them from the
/// declared type: each map holds at most 32 entries, domains, identifiers, the driver and
/// attribute values have their maximum lengths.
struct DeviceSizes;

impl SizeEstimator for DeviceSizes {
    fn size(&self, path: Option<&Path>, _: &Type) -> Option<Size> {
        let path = path?;
        let max = match &path.root {
            PathRoot::Variable(name) if name == "device" => 0,
            PathRoot::Field { owner, field } if &**owner == DEVICE_TYPE => {
                field_size(field, &path.steps)?
            }
            _ => return None,
        };
        Some(Size { min: 0, max })
    }

    fn map_select_reaches_values(&self) -> bool {
        true
    }
}

/// The maximum size of the value reached from `device.<field>` through `steps`.
fn field_size(field: &str, steps: &[Step]) -> Option<u64> {
    match (field, steps) {
        ("driver", []) => Some(MAX_DRIVER_LENGTH),
        ("allowMultipleAllocations", []) => Some(1),
        ("attributes" | "capacity", [] | [Step::Values]) => Some(MAX_ATTRIBUTES),
        ("attributes" | "capacity", [Step::Keys]) => Some(MAX_DOMAIN_LENGTH),
        ("attributes" | "capacity", [Step::Values, Step::Keys]) => Some(MAX_ID_LENGTH),
        ("attributes", [Step::Values, Step::Values, ..]) => Some(MAX_VALUE_LENGTH),
        ("capacity", [Step::Values, Step::Values]) => Some(0),
        _ => None,
    }
}

/// The estimated worst-case cost of `expression` in `env`, when it compiles and every size is
/// known.
#[cfg(test)]
pub(super) fn estimated_cost(expression: &str, env: &Env) -> Option<u64> {
    let parsed = crate::cel::parse(expression);
    if !parsed.errors.is_empty() {
        return None;
    }
    let checked = crate::cel::check::check(&parsed.ast, env);
    if !checked.errors.is_empty() {
        return None;
    }
    let estimate = cost::estimate_value(&parsed.ast, &checked, &DeviceSizes);
    (!estimate.unknown).then_some(estimate.cost.max)
}
