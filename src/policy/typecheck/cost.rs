//! The `cel-cost` advisory: the estimated cost of an expression ([`crate::cel::cost`]) against the
//! per-expression runtime limit the API server enforces (`PerCallLimit`, 1,000,000).
//! The API server estimates nothing for admission policies at write time, so an expression over
//! the limit is accepted and then fails at admission ("operation cancelled: actual cost limit
//! exceeded") once a request is large enough; hence a warning, not an error.
//!
//! Sizes come from the matched kind's schema (`maxItems`, `maxLength`, `maxProperties`), else from
//! the API server's request-size rule: as many elements as fit in the request. With the 3 MiB
//! maximum that rule makes any pass over `containers` (242k of them) cost more than the limit, so
//! the warning would fire on every loop; it is therefore decided for an ordinary large request
//! ([`ORDINARY_REQUEST`], 64 KiB), where a single pass stays far below the limit and a nested one
//! over the same data does not. The message gives both estimates. Strings without `maxLength`
//! inside unbounded lists get their share of the request, since the elements share one request.
//!
//! Only the typed passes are estimated, and an estimate that depends on a value of unknown size
//! (`dyn`) is not reported: a guess would be a false alarm.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::cel::ast::Ast;
use crate::cel::check::Checked;
use crate::cel::cost::{self, Estimate, PER_CALL_LIMIT, Path, PathRoot, Size, SizeEstimator, Step};
use crate::cel::types::Type;
use crate::policy::sites::{ExpressionSite, SiteRole};
use crate::policy::{Code, Diagnostic};
use crate::schema::SchemaTypes;
use crate::schema::sizes::REQUEST_BUDGET;
use crate::text::{TextRange, TextSize};

use super::mutation::object_path;

/// The request size the warning is decided for: a large but ordinary object (64 KiB).
pub const ORDINARY_REQUEST: u64 = 64 * 1024;

/// How many owner types' shares one pass's estimates keep ([`SchemaSizes::share`]).
const MAX_SHARES_KEPT: usize = 32;

/// The type `variables` has in a typed pass.
const VARIABLES: &str = "kubernetes.variables";

/// The largest estimates of each site (by index) over the typed passes: for an ordinary request
/// and for the largest one.
#[derive(Default)]
pub(super) struct Costs {
    by_site: BTreeMap<usize, (u64, u64)>,
}

impl Costs {
    pub(super) fn new() -> Costs {
        Costs::default()
    }

    /// Whether some site's estimate for an ordinary request, as [`add_ordinary`] keeps it,
    /// exceeds the limit: only then can [`report`] warn, and only then does it need both
    /// estimates of every pass ([`add`]).
    pub(super) fn over_limit(&self) -> bool {
        self.by_site
            .values()
            .any(|&(ordinary, _)| ordinary > PER_CALL_LIMIT)
    }
}

/// Estimates every checked site of one typed pass for an ordinary request only (`root`: the
/// matched kind's type name, which `Object.x` types of a mutating policy stand for) and keeps the
/// largest estimate per site: an upper bound of what [`add`] keeps, so that when it stays under
/// the limit nothing is reported and the walk for the largest request, which only a warning's
/// message shows, is not needed. Walking both on every pass doubled the estimates' cost.
pub(super) fn add_ordinary(
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    results: &[Option<Checked>],
    pass: (&SchemaTypes, &str),
    costs: &mut Costs,
) {
    let ordinary = estimates(sites, parsed, results, pass, ORDINARY_REQUEST);
    for (i, estimate) in ordinary.into_iter().enumerate() {
        let Some(estimate) = estimate else { continue };
        let slot = costs.by_site.entry(i).or_insert((0, 0));
        slot.0 = slot.0.max(estimate);
    }
}

/// Estimates every checked site of one typed pass for an ordinary and for the largest request and
/// keeps the largest estimates per site, where both are meaningful.
pub(super) fn add(
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    results: &[Option<Checked>],
    pass: (&SchemaTypes, &str),
    costs: &mut Costs,
) {
    let ordinary = estimates(sites, parsed, results, pass, ORDINARY_REQUEST);
    let largest = estimates(sites, parsed, results, pass, REQUEST_BUDGET);
    for (i, (a, b)) in ordinary.into_iter().zip(largest).enumerate() {
        let (Some(a), Some(b)) = (a, b) else { continue };
        let slot = costs.by_site.entry(i).or_insert((0, 0));
        *slot = (slot.0.max(a), slot.1.max(b));
    }
}

/// The estimated maximum of each error-free site for a request budget of `budget` bytes. Sites
/// come in evaluation order, so each variable's estimated size is known to the sites after it.
fn estimates(
    sites: &[ExpressionSite],
    parsed: &[Option<Ast>],
    results: &[Option<Checked>],
    pass: (&SchemaTypes, &str),
    budget: u64,
) -> Vec<Option<u64>> {
    let mut sizes = SchemaSizes {
        types: pass.0,
        root: pass.1,
        budget,
        variables: BTreeMap::new(),
        shares: RefCell::new(Vec::new()),
    };
    let mut out = Vec::with_capacity(sites.len());
    for ((site, ast), checked) in sites.iter().zip(parsed).zip(results) {
        let (Some(ast), Some(checked)) = (ast, checked) else {
            out.push(None);
            continue;
        };
        let estimate = cost::estimate_value(ast, checked, &sizes);
        if let (SiteRole::Variable, Some(name)) = (site.role, &site.name) {
            sizes.variables.insert(name.clone(), estimate);
        }
        // A broken expression has no meaningful cost of its own (its variable size still helps),
        // nor has one whose cost depends on a size nothing bounds.
        let meaningful = checked.errors.is_empty() && !estimate.unknown;
        out.push(meaningful.then_some(estimate.cost.max));
    }
    out
}

/// A warning for every site whose estimate for an ordinary request exceeds the limit, over the
/// whole expression.
pub(super) fn report(sites: &[ExpressionSite], costs: &Costs, out: &mut Vec<Diagnostic>) {
    for (&i, &(ordinary, largest)) in &costs.by_site {
        let Some(site) = sites.get(i) else { continue };
        if ordinary <= PER_CALL_LIMIT {
            continue;
        }
        let message = format!(
            "{}: the estimated cost {} for a {} KiB request exceeds the per-expression runtime limit of {} ({} for the largest, 3 MiB, request); such a request can fail with 'operation cancelled: actual cost limit exceeded' (the estimate is a worst case: it cannot see early exits or guards). Avoid iterating inside an iteration, or bound the lists with maxItems",
            site.path,
            shown(ordinary),
            ORDINARY_REQUEST / 1024,
            shown(PER_CALL_LIMIT),
            shown(largest),
        );
        let end = TextSize::from(u32::try_from(site.text.len()).unwrap_or(0));
        let range = site.to_file_range(TextRange::new(TextSize::from(0), end));
        // An estimate, not a certainty: evaluation may stay under the limit.
        out.push(Diagnostic::new(Code::CelCost, range, message).typed_only());
    }
}

/// A cost with thousands separators; `u64::MAX` (a saturated estimate) as "unbounded".
pub(crate) fn shown(n: u64) -> String {
    if n == u64::MAX {
        return "unbounded".to_string();
    }
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Sizes from the schema of the matched kind and from the estimates of earlier variables, else
/// from the request-size rule by type, for a request of `budget` bytes.
struct SchemaSizes<'a> {
    types: &'a SchemaTypes,
    root: &'a str,
    budget: u64,
    variables: BTreeMap<String, Estimate>,
    /// [`SchemaSizes::share`] by owner type, as computed so far: the sites of a policy read the
    /// same few object types again and again, and each share walks the type's dotted name up
    /// through the schema.
    shares: RefCell<Vec<(String, u64)>>,
}

impl SizeEstimator for SchemaSizes<'_> {
    /// A value without a path is computed (a call result the estimator has no size for): its size
    /// is unknown, as Kubernetes' estimator has it, rather than the whole request.
    fn size(&self, path: Option<&Path>, ty: &Type) -> Option<Size> {
        let path = path?;
        let size = self
            .known_size(path)
            .or_else(|| self.request_size(ty).map(|max| Size { min: 0, max }));
        match (size, label_bound(path)) {
            (Some(size), Some(bound)) => Some(Size {
                min: size.min.min(bound),
                max: size.max.min(bound),
            }),
            (None, Some(bound)) => Some(Size { min: 0, max: bound }),
            (size, None) => size,
        }
    }

    fn computed_elements(&self) -> bool {
        true
    }
}

impl SchemaSizes<'_> {
    /// The size a variable's estimate or the schema gives the value at `path`.
    fn known_size(&self, path: &Path) -> Option<Size> {
        let PathRoot::Field { owner, field } = &path.root else {
            return None;
        };
        if &**owner == VARIABLES {
            let estimate = self.variables.get(field)?;
            let size = match path.steps.len() {
                0 => estimate.size,
                1 => estimate.elements,
                _ => None,
            };
            // An unknown size stays unknown, rather than becoming a bound of u64::MAX.
            return size.filter(|s| s.max != u64::MAX);
        }
        let owner = self.schema_name(owner);
        let max_sizes = self
            .types
            .with_field(&owner, field, |info| info.max_sizes.clone())?;
        // The budget of the field's value, then of its elements, level by level.
        let mut budget = self.share(&owner);
        let mut sizes = max_sizes.iter();
        let mut max = sizes.next()?.at(budget);
        for step in &path.steps {
            budget /= max.max(1);
            max = match step {
                Step::Keys => budget,
                Step::Items | Step::Values => sizes.next()?.at(budget),
            };
        }
        Some(Size { min: 0, max })
    }

    /// The schema type an `Object.x` type of a mutating policy stands for.
    fn schema_name<'n>(&self, name: &'n str) -> Cow<'n, str> {
        match object_path(name) {
            Some(rest) => Cow::Owned(format!("{}{rest}", self.root)),
            None => Cow::Borrowed(name),
        }
    }

    /// The part of the request the fields of `owner` share. Elements of a list or map share the
    /// budget of the collection: with as many elements as fit, each has the size of the smallest
    /// one. (Giving every element the whole request, as the API server's per-value rule does, makes
    /// a pass over `containers` and their `env` look quadratic when it reads the request once.)
    fn share(&self, owner: &str) -> u64 {
        if let Some(&(_, share)) = self.shares.borrow().iter().find(|(name, _)| name == owner) {
            return share;
        }
        let share = self.compute_share(owner);
        let mut shares = self.shares.borrow_mut();
        // Bounded, so that the search stays short when an expression reads hundreds of types.
        if shares.len() < MAX_SHARES_KEPT {
            shares.push((owner.to_string(), share));
        }
        share
    }

    /// [`SchemaSizes::share`], computed.
    fn compute_share(&self, owner: &str) -> u64 {
        let mut levels = Vec::new();
        let mut name = owner;
        while let Some((parent, field)) = name.rsplit_once('.') {
            let collection_size = self.types.with_field(parent, field, |info| {
                match (&info.ty, info.max_sizes.first()) {
                    (Type::List(_) | Type::Map(..), Some(size)) => Some(*size),
                    _ => None,
                }
            });
            if let Some(Some(size)) = collection_size {
                levels.push(size);
            }
            name = parent;
        }
        levels
            .iter()
            .rev()
            .fold(self.budget, |budget, size| budget / size.at(budget).max(1))
            .max(1)
    }

    /// What fits in the request for a value of type `ty` when no schema bounds it: every byte
    /// of a string, or as many of the smallest elements as fit. `None` for scalars, objects and
    /// `dyn` (unknown).
    fn request_size(&self, ty: &Type) -> Option<u64> {
        match ty {
            Type::String | Type::Bytes => Some(self.budget),
            Type::List(elem) => Some(self.budget / (min_json_size(elem) + 1)),
            Type::Map(_, value) => Some(self.budget / (min_json_size(value) + 6)),
            // An object is a map of its fields at runtime; equality walks them.
            Type::Object(name) => {
                let fields = self.types.field_infos(&self.schema_name(name)).len() as u64;
                (fields > 0).then_some(fields)
            }
            _ => None,
        }
    }
}

/// The longest label key (a 253-character DNS prefix, `/`, a 63-character name).
const LABEL_KEY: u64 = 253 + 1 + 63;
/// The longest label value.
const LABEL_VALUE: u64 = 63;

/// The longest a label key or value of any object's metadata can be (the request's, a pod template's,
/// the namespace's). The schema leaves them unbounded, but the API server validates labels
/// (apimachinery `ValidateLabels`) before validating admission runs, and a stored namespace was
/// validated, so a label value is never the whole request: reading it as such made
/// `c.image.startsWith(namespaceObject.metadata.labels['env'])` in a loop look 500 times dearer.
fn label_bound(path: &Path) -> Option<u64> {
    let PathRoot::Field { owner, field } = &path.root else {
        return None;
    };
    let metadata = owner.ends_with(".metadata") || &**owner == "kubernetes.NamespaceMetadata";
    if !metadata || field != "labels" {
        return None;
    }
    match path.steps.as_slice() {
        [Step::Values] => Some(LABEL_VALUE),
        [Step::Keys] => Some(LABEL_KEY),
        _ => None,
    }
}

/// The shortest JSON encoding of a value of `ty` (`0`, `""`, `[]`, `{}`, `true`).
fn min_json_size(ty: &Type) -> u64 {
    match ty {
        Type::Bool => 4,
        Type::String | Type::Bytes | Type::List(_) | Type::Map(..) | Type::Object(_) => 2,
        _ => 1,
    }
}
