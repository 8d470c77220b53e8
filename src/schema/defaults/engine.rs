//! The interpreter of the defaulting tables.
//!
//! A table describes one Go type as the generated `SetObjectDefaults_*` function of
//! `pkg/apis/<group>/<version>/zz_generated.defaults.go` walks it: the type's own defaulter
//! (`SetDefaults_<Type>`, written here as [`Step::Set`] rows, [`Step::If`] blocks and, where the
//! rule is more than "if absent, set", a named [`Step::Call`]), then its fields' declarative
//! `+default=` markers and the nested types, in field order ([`Step::Walk`]).
//!
//! The object is JSON as the request carries it, so Go's zero values are read back from JSON: a
//! pointer field is unset when it is absent or `null` ([`When::Nil`]); a value field (string,
//! number, bool, slice, map) when it is absent, `null` or its zero value ([`When::Zero`]), because
//! the API server decodes `""`, `0`, `false`, `[]` and `{}` into the zero value and then defaults
//! it. A non-pointer struct field that is absent is walked as an empty object and kept only if a
//! default lands in it (the API server always has the struct; an empty one changes nothing a
//! policy can test with `has()` on its fields).

use serde_json::{Map, Value as Json};

use super::Defaulted;

/// A value a row sets.
#[derive(Clone, Copy, Debug)]
pub(super) enum V {
    /// A string.
    Str(&'static str),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// `{}`: a pointer to an empty struct (`securityContext`, `emptyDir`).
    EmptyObject,
    /// Any other JSON, written out (lists, nested objects).
    Json(&'static str),
}

impl V {
    pub(super) fn to_json(self) -> Json {
        match self {
            V::Str(s) => Json::from(s),
            V::Int(i) => Json::from(i),
            V::Bool(b) => Json::Bool(b),
            V::EmptyObject => Json::Object(Map::new()),
            V::Json(text) => serde_json::from_str(text).unwrap_or(Json::Null),
        }
    }
}

/// When a field counts as unset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum When {
    /// A pointer (`if obj.X == nil`): absent or `null`.
    Nil,
    /// A value (`if obj.X == ""`, `== 0`, `len(obj.X) == 0`): absent, `null` or the zero value.
    Zero,
}

/// A condition of an [`Step::If`] block, on fields relative to the current object.
#[derive(Clone, Copy, Debug)]
pub(super) enum Cond {
    /// The field holds this value.
    Equals(&'static str, V),
    /// The field is unset in the sense of [`When`].
    Unset(&'static str, When),
    /// The field is set (not absent, not `null`).
    Present(&'static str),
    /// Every condition holds.
    All(&'static [Cond]),
    /// Some condition holds.
    Any(&'static [Cond]),
}

/// How a walked field holds its nested type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A non-pointer struct: walked even when absent (as an empty object, kept only if filled).
    Struct,
    /// A pointer to a struct: walked only when present.
    Pointer,
    /// A slice of structs: every element that is an object.
    List,
}

/// A named conditional defaulter: it reads and writes the current object and reports what it set
/// with [`Ctx::record`].
pub(super) type Func = fn(&mut Ctx, &mut Map<String, Json>);

/// One step of a type's defaulting.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    /// `if <field> is unset { <field> = <value> }`; `field` may be a dotted path through non-pointer
    /// structs (`spec.replicas`), created as needed.
    Set {
        field: &'static str,
        value: V,
        when: When,
        source: &'static str,
    },
    /// Steps that run only when the condition holds.
    If { cond: Cond, then: &'static [Step] },
    /// Steps that run only from Kubernetes 1.`since` (a feature gate on by default from then).
    Since {
        since: u32,
        gate: &'static str,
        then: &'static [Step],
    },
    /// A named function, for a rule that is more than "if absent, set"; `writes` says which fields
    /// (relative, for the table's documentation).
    Call {
        name: &'static str,
        writes: &'static str,
        run: Func,
        source: &'static str,
    },
    /// The nested type at `field` (a dotted path; segments before the last are non-pointer
    /// structs).
    Walk {
        field: &'static str,
        shape: Shape,
        ty: &'static TypeDef,
    },
}

/// The defaulting of one Go type.
#[derive(Debug)]
pub(super) struct TypeDef {
    /// The Go type (`PodSpec`).
    pub name: &'static str,
    /// What runs, in order.
    pub steps: &'static [Step],
}

/// `Step::Set` with `When::Nil` (a pointer field).
pub(super) const fn nil(field: &'static str, value: V, source: &'static str) -> Step {
    Step::Set {
        field,
        value,
        when: When::Nil,
        source,
    }
}

/// `Step::Set` with `When::Zero` (a value field).
pub(super) const fn zero(field: &'static str, value: V, source: &'static str) -> Step {
    Step::Set {
        field,
        value,
        when: When::Zero,
        source,
    }
}

/// `Step::Walk`.
pub(super) const fn walk(field: &'static str, shape: Shape, ty: &'static TypeDef) -> Step {
    Step::Walk { field, shape, ty }
}

/// `Step::Call`.
pub(super) const fn call(
    name: &'static str,
    writes: &'static str,
    run: Func,
    source: &'static str,
) -> Step {
    Step::Call {
        name,
        writes,
        run,
        source,
    }
}

/// One segment of a reported path.
#[derive(Clone, Debug)]
enum Seg {
    Field(String),
    Index(usize),
}

/// The state of one defaulting run: the target version, where the walk is, what was set.
pub(super) struct Ctx {
    /// Target Kubernetes minor version.
    pub minor: u32,
    path: Vec<Seg>,
    out: Vec<Defaulted>,
}

impl Ctx {
    pub(super) fn new(minor: u32) -> Ctx {
        Ctx {
            minor,
            path: Vec::new(),
            out: Vec::new(),
        }
    }

    pub(super) fn finish(self) -> Vec<Defaulted> {
        self.out
    }

    /// Records that `relative` (a dotted path from the current object, may end in `[key]` for a
    /// map entry or `[i]` for a list element) was set or cleared.
    pub(super) fn record(&mut self, relative: &str) {
        let mut path = render(&self.path);
        if !relative.is_empty() {
            if !path.is_empty() && !relative.starts_with('[') {
                path.push('.');
            }
            path.push_str(relative);
        }
        self.out.push(Defaulted { path });
    }

    fn enter(&mut self, field: &str) -> usize {
        let depth = self.path.len();
        self.path
            .extend(field.split('.').map(|s| Seg::Field(s.to_string())));
        depth
    }

    fn leave(&mut self, depth: usize) {
        self.path.truncate(depth);
    }
}

fn render(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Runs `ty` on `object`.
pub(super) fn run(ctx: &mut Ctx, ty: &TypeDef, object: &mut Map<String, Json>) {
    run_steps(ctx, ty.steps, object);
}

fn run_steps(ctx: &mut Ctx, steps: &[Step], object: &mut Map<String, Json>) {
    for step in steps {
        match step {
            Step::Set {
                field, value, when, ..
            } => {
                if set_if_unset(object, field, *value, *when) {
                    ctx.record(field);
                }
            }
            Step::If { cond, then } => {
                if holds(object, cond) {
                    run_steps(ctx, then, object);
                }
            }
            Step::Since { since, then, .. } => {
                if ctx.minor >= *since {
                    run_steps(ctx, then, object);
                }
            }
            Step::Call { run, .. } => run(ctx, object),
            Step::Walk { field, shape, ty } => walk_into(ctx, object, field, *shape, ty),
        }
    }
}

/// Whether `value` is unset in the sense of `when`.
pub(super) fn is_unset(value: Option<&Json>, when: When) -> bool {
    match value {
        None | Some(Json::Null) => true,
        Some(v) if when == When::Zero => is_zero(v),
        Some(_) => false,
    }
}

/// Go's zero value as JSON decodes into it.
fn is_zero(value: &Json) -> bool {
    match value {
        Json::Null => true,
        Json::Bool(b) => !b,
        Json::Number(n) => n.as_f64() == Some(0.0),
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
    }
}

/// The value at a dotted path, if every segment is there.
pub(super) fn get<'a>(object: &'a Map<String, Json>, field: &str) -> Option<&'a Json> {
    let mut parts = field.split('.');
    let first = parts.next()?;
    let mut current = object.get(first)?;
    for part in parts {
        current = current.as_object()?.get(part)?;
    }
    Some(current)
}

/// The object at a dotted path, created through absent or `null` segments; `None` where a segment
/// holds something else (the API server would fail to decode it).
pub(super) fn object_at<'a>(
    object: &'a mut Map<String, Json>,
    field: &str,
) -> Option<&'a mut Map<String, Json>> {
    let mut current = object;
    for part in field.split('.') {
        let slot = current
            .entry(part.to_string())
            .or_insert_with(|| Json::Object(Map::new()));
        if slot.is_null() {
            *slot = Json::Object(Map::new());
        }
        current = slot.as_object_mut()?;
    }
    Some(current)
}

/// Sets `field` to `value` when it is unset; `true` when it did.
pub(super) fn set_if_unset(
    object: &mut Map<String, Json>,
    field: &str,
    value: V,
    when: When,
) -> bool {
    if !is_unset(get(object, field), when) {
        return false;
    }
    // Every segment before the last must be an object (or absent) for the set to land.
    let (parent_path, leaf) = match field.rsplit_once('.') {
        Some((parent, leaf)) => (Some(parent), leaf),
        None => (None, field),
    };
    if let Some(parent_path) = parent_path
        && !path_is_open(object, parent_path)
    {
        return false;
    }
    let parent = match parent_path {
        Some(p) => match object_at(object, p) {
            Some(parent) => parent,
            None => return false,
        },
        None => object,
    };
    parent.insert(leaf.to_string(), value.to_json());
    true
}

/// Whether every segment of `field` is an object, absent or `null` (so it can be created).
fn path_is_open(object: &Map<String, Json>, field: &str) -> bool {
    let mut current = Some(object);
    for part in field.split('.') {
        match current.and_then(|o| o.get(part)) {
            None | Some(Json::Null) => return true,
            Some(Json::Object(next)) => current = Some(next),
            Some(_) => return false,
        }
    }
    true
}

pub(super) fn holds(object: &Map<String, Json>, cond: &Cond) -> bool {
    match cond {
        Cond::Equals(field, v) => get(object, field) == Some(&v.to_json()),
        Cond::Unset(field, when) => is_unset(get(object, field), *when),
        Cond::Present(field) => !is_unset(get(object, field), When::Nil),
        Cond::All(conds) => conds.iter().all(|c| holds(object, c)),
        Cond::Any(conds) => conds.iter().any(|c| holds(object, c)),
    }
}

fn walk_into(
    ctx: &mut Ctx,
    object: &mut Map<String, Json>,
    field: &str,
    shape: Shape,
    ty: &TypeDef,
) {
    match shape {
        Shape::Struct => with_struct(object, field, |child| {
            let depth = ctx.enter(field);
            run(ctx, ty, child);
            ctx.leave(depth);
        }),
        Shape::Pointer => {
            if let Some(child) = get_object_mut(object, field) {
                let depth = ctx.enter(field);
                run(ctx, ty, child);
                ctx.leave(depth);
            }
        }
        Shape::List => {
            let Some(Json::Array(items)) = get_mut(object, field) else {
                return;
            };
            let depth = ctx.enter(field);
            for (i, item) in items.iter_mut().enumerate() {
                if let Json::Object(element) = item {
                    ctx.path.push(Seg::Index(i));
                    run(ctx, ty, element);
                    ctx.path.pop();
                }
            }
            ctx.leave(depth);
        }
    }
}

fn get_mut<'a>(object: &'a mut Map<String, Json>, field: &str) -> Option<&'a mut Json> {
    let mut parts = field.split('.');
    let first = parts.next()?;
    let mut current = object.get_mut(first)?;
    for part in parts {
        current = current.as_object_mut()?.get_mut(part)?;
    }
    Some(current)
}

fn get_object_mut<'a>(
    object: &'a mut Map<String, Json>,
    field: &str,
) -> Option<&'a mut Map<String, Json>> {
    get_mut(object, field)?.as_object_mut()
}

/// Runs `f` on the struct at `field`, walked as an empty object where it is absent or `null`;
/// segments that were created and stay empty are taken out again, so nothing changes unless a
/// default lands.
fn with_struct(
    object: &mut Map<String, Json>,
    field: &str,
    f: impl FnOnce(&mut Map<String, Json>),
) {
    let (head, rest) = match field.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (field, None),
    };
    let before = object.get(head).cloned();
    match object.get(head) {
        None | Some(Json::Null) => {
            object.insert(head.to_string(), Json::Object(Map::new()));
        }
        Some(Json::Object(_)) => {}
        Some(_) => return,
    }
    if let Some(Json::Object(child)) = object.get_mut(head) {
        match rest {
            Some(rest) => with_struct(child, rest, f),
            None => f(child),
        }
    }
    let created = !matches!(before, Some(Json::Object(_)));
    let still_empty = object
        .get(head)
        .and_then(Json::as_object)
        .is_some_and(Map::is_empty);
    if created && still_empty {
        match before {
            Some(original) => object.insert(head.to_string(), original),
            None => object.remove(head),
        };
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    static INNER: TypeDef = TypeDef {
        name: "Inner",
        steps: &[zero("mode", V::Str("On"), "test")],
    };

    static OUTER: TypeDef = TypeDef {
        name: "Outer",
        steps: &[
            nil("spec.count", V::Int(1), "test"),
            walk("spec.inner", Shape::Struct, &INNER),
            walk("spec.ptr", Shape::Pointer, &INNER),
            walk("spec.items", Shape::List, &INNER),
            Step::If {
                cond: Cond::Equals("spec.count", V::Int(1)),
                then: &[nil("spec.one", V::Bool(true), "test")],
            },
            Step::Since {
                since: 35,
                gate: "Test",
                then: &[nil("spec.late", V::Bool(true), "test")],
            },
        ],
    };

    fn apply(minor: u32, mut value: Json) -> (Json, Vec<String>) {
        let mut ctx = Ctx::new(minor);
        if let Json::Object(map) = &mut value {
            run(&mut ctx, &OUTER, map);
        }
        let paths = ctx.finish().into_iter().map(|d| d.path).collect();
        (value, paths)
    }

    #[test]
    fn unset_means_absent_or_null_for_pointers_and_also_zero_for_values() {
        let (out, paths) = apply(
            30,
            json!({"spec": {"count": null, "inner": {"mode": ""}, "items": [{"mode": "Off"}, 3, {}]}}),
        );
        assert_eq!(
            out,
            json!({"spec": {"count": 1, "one": true, "inner": {"mode": "On"}, "items": [{"mode": "Off"}, 3, {"mode": "On"}]}})
        );
        assert_eq!(
            paths,
            [
                "spec.count",
                "spec.inner.mode",
                "spec.items[2].mode",
                "spec.one"
            ]
        );
    }

    #[test]
    fn a_pointer_is_walked_only_when_present_and_a_struct_always() {
        let (out, _) = apply(30, json!({"spec": {"count": 2, "ptr": {}}}));
        assert_eq!(
            out,
            json!({"spec": {"count": 2, "inner": {"mode": "On"}, "ptr": {"mode": "On"}}})
        );
        let (out, paths) = apply(30, json!({}));
        assert_eq!(
            out,
            json!({"spec": {"count": 1, "one": true, "inner": {"mode": "On"}}})
        );
        assert_eq!(paths, ["spec.count", "spec.inner.mode", "spec.one"]);
    }

    #[test]
    fn a_segment_of_the_wrong_kind_stops_the_default() {
        let (out, paths) = apply(30, json!({"spec": "text"}));
        assert_eq!(out, json!({"spec": "text"}));
        assert!(paths.is_empty());
    }

    #[test]
    fn version_gated_steps_follow_the_target_minor() {
        let (out, _) = apply(35, json!({"spec": {"count": 3}}));
        assert_eq!(out["spec"]["late"], json!(true));
        let (out, _) = apply(34, json!({"spec": {"count": 3}}));
        assert!(out["spec"].get("late").is_none());
    }
}
