//! List values and their `x-kubernetes-list-type`: a list read from a custom resource through a
//! schema with `x-kubernetes-list-type: set` or `map` compares and concatenates as the API server's
//! `unstructuredSetList` / `unstructuredMapList` do (apiserver `pkg/cel/common/values.go`):
//!
//! - `==` on a set list ignores order: same size and every element of the other list is in it;
//! - `==` on a map list ignores order: same size and every element of the other list has an
//!   element under the same key values here that equals it;
//! - `X + Y` on a set list is a union: `X` in order, then the elements of `Y` not yet present;
//! - `X + Y` on a map list is a merge: `X`'s positions kept, their values replaced by `Y`'s where
//!   the keys meet, the rest of `Y` appended in order.
//!
//! As there, the left operand decides (`[…] == self.set` compares in order), and the result of
//! `+` keeps the left operand's list type.

use std::ops::Deref;
use std::sync::Arc;

use super::ops::compare::equals;
use super::value::Value;

/// How a list compares and concatenates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ListKind {
    /// Ordered (`atomic`, list literals, every list that is not a custom resource's set or map).
    #[default]
    Atomic,
    /// `x-kubernetes-list-type: set`.
    Set,
    /// `x-kubernetes-list-type: map` with its (escaped) `x-kubernetes-list-map-keys`.
    Map(Arc<[Arc<str>]>),
}

/// A list: its elements and its kind.
#[derive(Clone, Debug, Default)]
pub struct ListValue {
    items: Vec<Value>,
    kind: ListKind,
}

impl ListValue {
    /// A list of `kind`.
    pub fn new(items: Vec<Value>, kind: ListKind) -> Self {
        ListValue { items, kind }
    }

    /// The list's kind.
    pub fn kind(&self) -> &ListKind {
        &self.kind
    }
}

impl From<Vec<Value>> for ListValue {
    fn from(items: Vec<Value>) -> Self {
        ListValue::new(items, ListKind::Atomic)
    }
}

impl Deref for ListValue {
    type Target = Vec<Value>;

    fn deref(&self) -> &Vec<Value> {
        &self.items
    }
}

/// `left == right` for two lists, by the left list's kind.
pub fn lists_equal(left: &ListValue, right: &ListValue) -> bool {
    if left.len() != right.len() {
        return false;
    }
    match &left.kind {
        ListKind::Atomic => left.iter().zip(right.iter()).all(|(p, q)| equals(p, q)),
        ListKind::Set => right.iter().all(|q| left.iter().any(|p| equals(p, q))),
        ListKind::Map(keys) => right.iter().all(|q| {
            let key = map_key(keys, q);
            key.is_some()
                && left
                    .iter()
                    .find(|p| same_key(&map_key(keys, p), &key))
                    .is_some_and(|p| equals(p, q))
        }),
    }
}

/// `left + right` for two lists, by the left list's kind.
pub fn concat(left: &Arc<ListValue>, right: &Arc<ListValue>) -> Value {
    let items: Vec<Value> = match &left.kind {
        ListKind::Atomic if right.is_empty() => return Value::List(left.clone()),
        ListKind::Atomic if left.is_empty() => return Value::List(right.clone()),
        ListKind::Atomic => left.iter().chain(right.iter()).cloned().collect(),
        ListKind::Set => {
            let mut items = left.items.clone();
            for item in right.iter() {
                if !items.iter().any(|present| equals(present, item)) {
                    items.push(item.clone());
                }
            }
            items
        }
        ListKind::Map(keys) => merge(keys, &left.items, right),
    };
    Value::List(Arc::new(ListValue::new(items, left.kind.clone())))
}

/// A map list's merge: `right`'s elements replace `left`'s under the same key, or are appended.
fn merge(keys: &[Arc<str>], left: &[Value], right: &[Value]) -> Vec<Value> {
    let mut items = left.to_vec();
    let left_keys: Vec<_> = left.iter().map(|item| map_key(keys, item)).collect();
    for item in right {
        let key = map_key(keys, item);
        let at = key
            .as_ref()
            .and_then(|_| left_keys.iter().position(|k| same_key(k, &key)));
        match at.and_then(|i| items.get_mut(i)) {
            Some(slot) => *slot = item.clone(),
            None => items.push(item.clone()),
        }
    }
    items
}

/// The values of a map list element's key fields (an absent field is `None`); `None` when the
/// element is not a map, whose key then matches nothing (`toMapKey` returns an error there).
fn map_key(keys: &[Arc<str>], item: &Value) -> Option<Vec<Option<Value>>> {
    let Value::Map(map) = item else { return None };
    Some(
        keys.iter()
            .map(|k| map.get(&Value::String(k.clone())).cloned())
            .collect(),
    )
}

fn same_key(a: &Option<Vec<Option<Value>>>, b: &Option<Vec<Option<Value>>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => equals(x, y),
            (None, None) => true,
            _ => false,
        }),
        _ => false,
    }
}
