//! [`SchemaTypes`]: the object types derived from schemas for one Kubernetes version, as a
//! [`TypeProvider`] for the checker. Roots are registered by kind (bundled) or schema (CRDs); nested
//! object types are converted lazily, the first time their fields are asked for, and cached.

use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::{FxHashMap, FxHashSet};

use serde_json::Value;

use super::convert::{self, Ctx, Loc, ObjectType, Pending};
use super::escape::is_reserved;
use super::{CrdKind, Gvk, bundled};
use crate::cel::types::{FieldType, Type, TypeProvider};

/// `x-kubernetes-list-type` of a list field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListType {
    /// Replaced as a whole on merge.
    Atomic,
    /// Items are unique scalars.
    Set,
    /// Items are objects keyed by `x-kubernetes-list-map-keys`.
    Map,
}

/// One field of a schema-derived object type: its CEL type and what the schema says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The field's CEL type.
    pub ty: Type,
    /// The schema's description, for hover.
    pub doc: Option<Arc<str>>,
    /// Whether the schema lists the property as required.
    pub required: bool,
    /// The property name before escaping (`x-prop` for the field `x__dash__prop`).
    pub property: Arc<str>,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<ListType>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<Arc<str>>,
    /// `x-kubernetes-map-type` (`atomic` or `granular`).
    pub map_type: Option<Arc<str>>,
    /// For a list, the `x-kubernetes-map-type` of its items (`atomic` for items such as
    /// `LocalObjectReference`, which server-side apply replaces as a whole).
    pub item_map_type: Option<Arc<str>>,
    /// `x-kubernetes-patch-strategy`.
    pub patch_strategy: Option<Arc<str>>,
    /// `x-kubernetes-patch-merge-key`.
    pub patch_merge_key: Option<Arc<str>>,
    /// The largest size of the value and of its nested elements ([`super::sizes::max_sizes`]).
    pub max_sizes: Vec<super::sizes::MaxSize>,
}

impl FieldInfo {
    /// A field of type `ty` read from the property schema `prop` (with `resolved`, the definition
    /// it refers to, for extensions set on the definition such as `map-type: atomic`).
    pub(crate) fn new(
        ty: Type,
        doc: Option<Arc<str>>,
        required: bool,
        property: &str,
        prop: &Value,
        resolved: Option<&Value>,
    ) -> Self {
        let ext = |key: &str| {
            convert::string_ext(prop, key)
                .or_else(|| resolved.and_then(|r| convert::string_ext(r, key)))
        };
        Self {
            ty,
            doc,
            required,
            property: Arc::from(property),
            list_type: convert::list_type(prop).or_else(|| resolved.and_then(convert::list_type)),
            list_map_keys: convert::list_map_keys(prop),
            map_type: ext("x-kubernetes-map-type"),
            item_map_type: None,
            patch_strategy: ext("x-kubernetes-patch-strategy"),
            patch_merge_key: ext("x-kubernetes-patch-merge-key"),
            max_sizes: Vec::new(),
        }
    }
}

enum Entry {
    Pending(Pending),
    Ready(Arc<ObjectType>),
}

/// Schema-derived object types for one Kubernetes minor version (see the module docs of
/// [`crate::schema`] for the naming scheme). Cheap to share; safe to use from several threads.
pub struct SchemaTypes {
    minor: u32,
    /// A fast hash: the checker asks for a type on every field selection and dotted name, and
    /// SipHash of the name was most of that.
    entries: Mutex<Entries>,
}

/// The registered types, and the first dotted segment of every name ever registered.
#[derive(Default)]
struct Entries {
    by_name: FxHashMap<Arc<str>, Entry>,
    /// Never shrinks: it only rules names out (no registered name starts `object.`, so neither
    /// `object.spec` nor any of its ancestors is a type), and a stale root only costs a walk.
    roots: FxHashSet<Box<str>>,
}

impl Entries {
    fn get(&self, name: &str) -> Option<&Entry> {
        self.by_name.get(name)
    }

    fn contains_key(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Inserts or replaces `name`.
    fn insert(&mut self, name: Arc<str>, entry: Entry) {
        self.note_root(&name);
        self.by_name.insert(name, entry);
    }

    /// Inserts `name` unless it is there already.
    fn insert_absent(&mut self, name: Arc<str>, entry: Entry) {
        self.note_root(&name);
        self.by_name.entry(name).or_insert(entry);
    }

    fn note_root(&mut self, name: &str) {
        let root = first_segment(name);
        if !self.roots.contains(root) {
            self.roots.insert(root.into());
        }
    }

    /// Whether some registered name starts with `name`'s first segment.
    fn has_root_of(&self, name: &str) -> bool {
        self.roots.contains(first_segment(name))
    }
}

/// `name` up to its first dot.
fn first_segment(name: &str) -> &str {
    name.split_once('.').map_or(name, |(first, _)| first)
}

impl SchemaTypes {
    /// An empty registry whose `$ref`s resolve against the bundled definitions of `minor`.
    pub fn new(minor: u32) -> Self {
        Self {
            minor,
            entries: Mutex::new(Entries::default()),
        }
    }

    /// The minor version this registry resolves against.
    pub fn minor(&self) -> u32 {
        self.minor
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        // A panic elsewhere cannot leave the map half-updated (inserts are single calls).
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The type of `object` for a bundled kind: its root object type, `dyn` if its schema has no
    /// type, `None` when the version has no such kind.
    pub fn kind_type(&self, gvk: &Gvk) -> Option<Type> {
        let name = gvk.type_name();
        if self.lock().contains_key(name.as_str()) {
            return Some(Type::object(&name));
        }
        let kind = bundled::lookup_kind(self.minor, &gvk.group, &gvk.version, &gvk.kind)?;
        let ancestors = [kind.entry.definition.clone()];
        Some(self.register_at(&name, Loc::root(kind.schema), &ancestors, true))
    }

    /// Registers the bundled kind whose type name is `name` (`apps.v1.Deployment`), if any.
    fn register_bundled(&self, name: &str) -> bool {
        let Some((rest, kind)) = name.rsplit_once('.') else {
            return false;
        };
        let Some((group, version)) = rest.rsplit_once('.') else {
            return false;
        };
        let group = if group == "core" { "" } else { group };
        let is_kind = |first: Option<char>| first.is_some_and(|c| c.is_ascii_uppercase());
        is_kind(kind.chars().next())
            && matches!(
                self.kind_type(&Gvk::new(group, version, kind)),
                Some(Type::Object(_))
            )
    }

    /// Registers `schema` as a resource root named `name` (replacing an earlier registration and
    /// its nested types) and returns its type: an object type, or `dyn` if the schema has no type.
    pub fn register_root(&self, name: &str, schema: Arc<Value>) -> Type {
        self.register_schema(name, schema, true)
    }

    /// Registers `schema` under `name` as [`register_root`](Self::register_root) does; a schema
    /// that is not a `resource_root` gets no `apiVersion`/`kind`/`metadata` of its own (a CRD
    /// rule's `self` below the root, as the API server types it).
    pub fn register_schema(&self, name: &str, schema: Arc<Value>, resource_root: bool) -> Type {
        {
            let mut entries = self.lock();
            let prefix = format!("{name}.");
            entries
                .by_name
                .retain(|key, _| &**key != name && !key.starts_with(&prefix));
        }
        self.register_at(name, Loc::root(schema), &[], resource_root)
    }

    /// Registers a served CRD version under its type name (see [`register_root`](Self::register_root));
    /// a version without a schema is `dyn`.
    pub fn register_crd(&self, crd: &CrdKind) -> Type {
        match &crd.schema {
            Some(schema) => self.register_root(&crd.type_name(), schema.clone()),
            None => Type::Dyn,
        }
    }

    fn register_at(&self, name: &str, loc: Loc, ancestors: &[Arc<str>], root: bool) -> Type {
        let mut ctx = Ctx {
            minor: self.minor,
            found: Vec::new(),
        };
        let ty = ctx.convert(loc, name, ancestors, 0, root);
        self.store(ctx.found);
        ty.unwrap_or(Type::Dyn)
    }

    fn store(&self, found: Vec<(Arc<str>, Option<Pending>)>) {
        let mut entries = self.lock();
        for (name, pending) in found {
            let entry = match pending {
                Some(pending) => Entry::Pending(pending),
                None => Entry::Ready(Arc::new(ObjectType::default())),
            };
            // Never clobber a type another thread already converted: the result is the same.
            entries.insert_absent(name, entry);
        }
    }

    /// The converted object type `name`, converting it now if it is pending. A nested name whose
    /// parents were never converted (asked for directly, say from a previous analysis) is reached
    /// by converting the parents along its path first.
    fn object(&self, name: &str) -> Option<Arc<ObjectType>> {
        // The hot path (every field selection the checker types): one lock for a converted type.
        let registered = match self.lock().get(name) {
            Some(Entry::Ready(object)) => return Some(object.clone()),
            Some(Entry::Pending(_)) => true,
            None => false,
        };
        if !registered {
            let (mut missing, mut known) = self.nearest_known_ancestor(name)?;
            // A bundled kind's root is registered on first mention of any of its type names.
            if known.is_none() {
                known = missing.iter().copied().find(|n| self.register_bundled(n));
                let found = known?;
                missing.truncate(missing.iter().position(|n| *n == found).unwrap_or(0));
                if missing.is_empty() {
                    return self.converted(found);
                }
            }
            // Convert from the nearest known ancestor down; each step registers the next name.
            self.converted(known?)?;
            for parent in missing.iter().skip(1).rev() {
                self.converted(parent)?;
            }
        }
        self.converted(name)
    }

    /// The names from `name` up to (not including) its nearest registered ancestor, and that
    /// ancestor if there is one; `None` for a hostile name deeper than any type. One lock for the
    /// whole walk: names that are no type at all (`object.spec`, tried by the checker for dotted
    /// identifiers) walk every parent.
    fn nearest_known_ancestor<'n>(&self, name: &'n str) -> Option<(Vec<&'n str>, Option<&'n str>)> {
        let entries = self.lock();
        if !could_be_type(&entries, name) {
            return None;
        }
        let mut missing = vec![name];
        while let Some(parent) = missing.last().and_then(|n| parent_name(n)) {
            if entries.contains_key(parent) {
                return Some((missing, Some(parent)));
            }
            missing.push(parent);
            // Type names are at most a root and MAX_DEPTH segments deep; stop at hostile ones.
            if missing.len() > convert::MAX_DEPTH + 8 {
                return None;
            }
        }
        Some((missing, None))
    }

    /// The converted object type `name` if it is registered, converting it now if it is pending.
    fn converted(&self, name: &str) -> Option<Arc<ObjectType>> {
        let pending = match self.lock().get(name)? {
            Entry::Ready(object) => return Some(object.clone()),
            Entry::Pending(pending) => pending.clone(),
        };
        let mut ctx = Ctx {
            minor: self.minor,
            found: Vec::new(),
        };
        let object = Arc::new(ctx.build_object(name, &pending));
        self.store(ctx.found);
        self.lock()
            .insert(Arc::from(name), Entry::Ready(object.clone()));
        Some(object)
    }

    /// Everything the schema says about field `field` of `type_name`; a reserved word that is not
    /// found falls back to its escaped form (`namespace` → `__namespace__`). The API server does this
    /// from compatibility version 1.31 on; it is applied to every version here, since older servers
    /// accept only the escaped spelling in typed checks while the unescaped one is what works at
    /// runtime.
    pub fn field_info(&self, type_name: &str, field: &str) -> Option<FieldInfo> {
        self.with_field(type_name, field, FieldInfo::clone)
    }

    /// `read` applied to the schema facts of field `field` of `type_name` (found as
    /// [`field_info`](Self::field_info) finds it), without copying them.
    pub fn with_field<R>(
        &self,
        type_name: &str,
        field: &str,
        read: impl FnOnce(&FieldInfo) -> R,
    ) -> Option<R> {
        let object = self.object(type_name)?;
        let info = match object.fields.get(field) {
            Some(info) => info,
            None if is_reserved(field) => object.fields.get(format!("__{field}__").as_str())?,
            None => return None,
        };
        Some(read(info))
    }

    /// Every field of `type_name` with its schema facts, ordered by escaped name.
    pub fn field_infos(&self, type_name: &str) -> Vec<(Arc<str>, FieldInfo)> {
        self.object(type_name)
            .map(|o| {
                o.fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// How many object types have had their fields converted (for tests of laziness).
    pub fn converted_types(&self) -> usize {
        self.lock()
            .by_name
            .values()
            .filter(|e| matches!(e, Entry::Ready(_)))
            .count()
    }
}

/// `name` without its last dotted segment, if it has more than one.
fn parent_name(name: &str) -> Option<&str> {
    let dot = name.as_bytes().iter().rposition(|&b| b == b'.')?;
    name.get(..dot)
}

/// Whether a part after the second of a dotted name starts with a capital letter, as the kind of
/// a bundled kind's type name does (`apps.v1.Deployment…`); split on bytes by `could_be_type`,
/// which sees every name the checker asks about.
fn spelled_like_kind<P: AsRef<[u8]>>(parts: impl Iterator<Item = P>) -> bool {
    parts
        .skip(2)
        .any(|part| part.as_ref().first().is_some_and(u8::is_ascii_uppercase))
}

/// Whether `name` may be a type of `entries`: it has a registered ancestor, or one of its prefixes
/// is spelled like a bundled kind (`group.version.Kind…`, which is registered on first mention).
/// Most names the checker asks about are neither (`object.spec`, every dotted prefix of a field
/// selection); answering them without building the ancestor list keeps the check fast.
fn could_be_type(entries: &Entries, name: &str) -> bool {
    // A segment after the second dot that starts with a capital letter.
    if spelled_like_kind(name.as_bytes().split(|&b| b == b'.')) {
        return true;
    }
    if !entries.has_root_of(name) {
        return false;
    }
    let mut at = name;
    let mut depth = 0;
    while let Some(parent) = parent_name(at) {
        if entries.contains_key(parent) {
            return true;
        }
        depth += 1;
        if depth > convert::MAX_DEPTH + 8 {
            return false;
        }
        at = parent;
    }
    false
}

impl TypeProvider for SchemaTypes {
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType> {
        // Not through `field_info`: cloning every schema fact for the type and doc alone showed
        // in the profile.
        self.with_field(type_name, field, |info| FieldType {
            ty: info.ty.clone(),
            doc: info.doc.clone(),
        })
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        self.field_infos(type_name)
            .into_iter()
            .map(|(name, info)| {
                let field = FieldType {
                    ty: info.ty,
                    doc: info.doc,
                };
                (name, field)
            })
            .collect()
    }

    fn find_type(&self, type_name: &str) -> Option<Type> {
        self.object(type_name).map(|_| Type::object(type_name))
    }

    fn may_name_type(&self, parts: &[&str]) -> bool {
        // As `could_be_type`, on the parts: a registered root, or a part after the second
        // spelled like a kind (a bundled kind is registered on first mention).
        let root = crate::cel::types::provider::root_part(parts);
        spelled_like_kind(parts.iter()) || self.lock().has_root_of(root)
    }
}
