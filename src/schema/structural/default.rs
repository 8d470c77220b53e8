//! Structural defaulting (`pkg/apiserver/schema/defaulting/algorithm.go`, `Default`) and the
//! `null` pruning that precedes it (`prunenulls.go`, `PruneNonNullableNullsWithoutDefaults`).
//!
//! Defaults apply top-down: in an object, every declared property with a `default` that is absent
//! (or a `null` the schema does not allow) gets a copy of it, then every field is visited with its
//! schema, so defaults inside a just-defaulted value apply too, but nothing is created under an
//! object that does not exist. A map value (`additionalProperties`) and a list item get their
//! schema's default only when they are a non-nullable `null`.

use serde_json::Value as Json;

use super::{MAX_DEPTH, PathBuf, Schema};

/// Whether `value` is a `null` that `schema` does not allow (`isNonNullableNull`).
fn is_non_nullable_null(value: &Json, schema: Option<Schema<'_>>) -> bool {
    value.is_null() && schema.is_some_and(|s| !s.nullable())
}

/// Applies the defaults of `schema` to `object`; returns the paths it set.
pub fn apply_defaults(object: &mut Json, schema: Option<Schema<'_>>) -> Vec<String> {
    let mut walk = Walk {
        path: PathBuf::default(),
        out: Vec::new(),
    };
    walk.default(object, schema, 0);
    walk.out
}

struct Walk {
    path: PathBuf,
    out: Vec<String>,
}

impl Walk {
    fn default(&mut self, x: &mut Json, s: Option<Schema<'_>>, depth: usize) {
        let Some(s) = s else { return };
        if depth > MAX_DEPTH {
            return;
        }
        let mark = self.path.len();
        match x {
            Json::Object(map) => {
                if let Some(properties) = s.properties() {
                    let mut names: Vec<&String> = properties.keys().collect();
                    names.sort();
                    for name in names {
                        let Some(property) = s.property(name) else {
                            continue;
                        };
                        let Some(default) = property.default() else {
                            continue;
                        };
                        let unset = match map.get(name.as_str()) {
                            None => true,
                            Some(value) => is_non_nullable_null(value, Some(property)),
                        };
                        if unset {
                            map.insert(name.clone(), default.clone());
                            self.out.push(self.path.with_key(name));
                        }
                    }
                }
                let mut keys: Vec<String> = map.keys().cloned().collect();
                keys.sort();
                for key in keys {
                    let Some(value) = map.get_mut(&key) else {
                        continue;
                    };
                    let child = match (s.property(&key), s.additional_properties()) {
                        (Some(property), _) => Some(property),
                        (None, Some(Some(values))) => {
                            if is_non_nullable_null(value, Some(values))
                                && let Some(default) = values.default()
                            {
                                *value = default.clone();
                                self.out.push(self.path.with_key(&key));
                            }
                            Some(values)
                        }
                        _ => None,
                    };
                    self.path.push_key(&key);
                    self.default(value, child, depth + 1);
                    self.path.truncate(mark);
                }
            }
            Json::Array(items) => {
                let item_schema = s.items();
                for (i, item) in items.iter_mut().enumerate() {
                    self.path.push_index(i);
                    if is_non_nullable_null(item, item_schema)
                        && let Some(default) = item_schema.and_then(Schema::default)
                    {
                        *item = default.clone();
                        self.out.push(self.path.render());
                    }
                    self.default(item, item_schema, depth + 1);
                    self.path.truncate(mark);
                }
            }
            _ => {}
        }
    }
}

/// Drops `null`s of non-nullable fields that have no default (they would otherwise be decoded into
/// the zero value; the ones with a default are left for defaulting). Returns their paths.
pub fn prune_non_nullable_nulls(object: &mut Json, schema: Option<Schema<'_>>) -> Vec<String> {
    let mut walk = Walk {
        path: PathBuf::default(),
        out: Vec::new(),
    };
    walk.prune_nulls(object, schema, 0);
    walk.out.sort();
    walk.out
}

impl Walk {
    fn prune_nulls(&mut self, x: &mut Json, s: Option<Schema<'_>>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mark = self.path.len();
        match x {
            Json::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                for key in keys {
                    let field_schema = s.and_then(|s| match s.property(&key) {
                        Some(property) => Some(property),
                        None => s.additional_properties().flatten(),
                    });
                    let drop = map.get(&key).is_some_and(|value| {
                        is_non_nullable_null(value, field_schema)
                            && field_schema.and_then(Schema::default).is_none()
                    });
                    if drop {
                        map.remove(&key);
                        self.out.push(self.path.with_key(&key));
                    } else if let Some(value) = map.get_mut(&key) {
                        self.path.push_key(&key);
                        self.prune_nulls(value, field_schema, depth + 1);
                        self.path.truncate(mark);
                    }
                }
            }
            Json::Array(items) => {
                let item_schema = s.and_then(Schema::items);
                for (i, item) in items.iter_mut().enumerate() {
                    self.path.push_index(i);
                    self.prune_nulls(item, item_schema, depth + 1);
                    self.path.truncate(mark);
                }
            }
            _ => {}
        }
    }
}
