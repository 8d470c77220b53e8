//! Map values: entries in insertion order plus a hash index on a normalised key, so that `1`, `1u`
//! and `1.0` find the same entry (cel-go's heterogeneous key lookup).

use std::collections::HashMap;
use std::sync::Arc;

use super::value::Value;

/// A normalised map key: numbers meet on one integer line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A bool key.
    Bool(bool),
    /// An int or uint key (or a double with an integral value, for lookup).
    Num(i128),
    /// A string key.
    Str(Arc<str>),
}

impl Key {
    /// The key for a value usable as a map key (bool, int, uint, string); `None` otherwise.
    pub fn of(value: &Value) -> Option<Key> {
        match value {
            Value::Bool(b) => Some(Key::Bool(*b)),
            Value::Int(i) => Some(Key::Num(i128::from(*i))),
            Value::Uint(u) => Some(Key::Num(i128::from(*u))),
            Value::String(s) => Some(Key::Str(s.clone())),
            _ => None,
        }
    }

    /// The key to look up: like `of`, plus doubles with an integral value (`m[1.0]`).
    pub fn lookup(value: &Value) -> Option<Key> {
        match value {
            Value::Double(d) if d.fract() == 0.0 && d.abs() < 1.8e19 => Some(Key::Num(*d as i128)),
            _ => Key::of(value),
        }
    }
}

/// A map: entries in order, indexed by normalised key.
#[derive(Clone, Debug, Default)]
pub struct MapValue {
    entries: Vec<(Value, Value)>,
    // String keys apart, so a lookup by `&str` needs no allocation.
    strings: HashMap<Arc<str>, usize>,
    others: HashMap<Key, usize>,
}

impl MapValue {
    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        MapValue {
            entries: Vec::with_capacity(n),
            strings: HashMap::with_capacity(n),
            others: HashMap::new(),
        }
    }

    /// Inserts an entry; `Err(())` when the key is not a valid key type, `Ok(false)` when it is
    /// already present (the map is unchanged).
    #[allow(clippy::result_unit_err)]
    pub fn insert(&mut self, key: Value, value: Value) -> Result<bool, ()> {
        let norm = Key::of(&key).ok_or(())?;
        if self.position(&norm).is_some() {
            return Ok(false);
        }
        let at = self.entries.len();
        match norm {
            Key::Str(s) => self.strings.insert(s, at),
            other => self.others.insert(other, at),
        };
        self.entries.push((key, value));
        Ok(true)
    }

    /// Inserts a string-keyed entry, replacing an existing one.
    pub fn insert_str(&mut self, key: &str, value: Value) {
        if let Some(&i) = self.strings.get(key) {
            if let Some(slot) = self.entries.get_mut(i) {
                slot.1 = value;
            }
            return;
        }
        let key: Arc<str> = Arc::from(key);
        self.strings.insert(key.clone(), self.entries.len());
        self.entries.push((Value::String(key), value));
    }

    /// The value for `key` (numeric keys compare numerically).
    pub fn get(&self, key: &Value) -> Option<&Value> {
        if let Value::String(s) = key {
            return self.get_str(s);
        }
        let i = self.position(&Key::lookup(key)?)?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// The value for a string key.
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        self.strings
            .get(key)
            .and_then(|&i| self.entries.get(i))
            .map(|(_, v)| v)
    }

    fn position(&self, key: &Key) -> Option<usize> {
        match key {
            Key::Str(s) => self.strings.get(&**s).copied(),
            other => self.others.get(other).copied(),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in insertion order.
    pub fn entries(&self) -> &[(Value, Value)] {
        &self.entries
    }

    /// The keys in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|(k, _)| k)
    }
}
