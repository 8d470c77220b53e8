//! Pruning of unknown fields, as `pkg/apiserver/schema/pruning/algorithm.go` (`PruneWithOptions`,
//! `prune`, `skipPrune`) does it: a field the schema does not declare (by `properties` or
//! `additionalProperties`) is dropped, except under `x-kubernetes-preserve-unknown-fields`, where
//! only the declared parts are pruned further; `apiVersion`, `kind` and `metadata` of the root and
//! of every embedded resource are left to the metadata coercion.

use serde_json::Value as Json;

use super::{MAX_DEPTH, PathBuf, Schema};

const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

/// Prunes `object` by `schema`; `is_resource_root` treats the root as an embedded resource (as
/// the API server does for the object itself). Returns the dropped fields' paths, sorted.
pub fn prune(object: &mut Json, schema: Option<Schema<'_>>, is_resource_root: bool) -> Vec<String> {
    let mut pruner = Pruner {
        path: PathBuf::default(),
        unknown: Vec::new(),
    };
    pruner.prune(object, schema, is_resource_root, 0);
    pruner.unknown.sort();
    pruner.unknown
}

struct Pruner {
    path: PathBuf,
    unknown: Vec<String>,
}

impl Pruner {
    fn record(&mut self, key: &str) {
        self.unknown.push(self.path.with_key(key));
    }

    fn prune(&mut self, x: &mut Json, s: Option<Schema<'_>>, embedded_root: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(s) = s
            && s.preserves_unknown_fields()
        {
            self.skip_prune(x, s, embedded_root, depth);
            return;
        }
        let mark = self.path.len();
        match x {
            Json::Object(map) => {
                let Some(s) = s else {
                    // No schema: everything is unknown (but a resource root's meta fields).
                    let keys: Vec<String> = map.keys().cloned().collect();
                    for key in keys {
                        if embedded_root && META_FIELDS.contains(&key.as_str()) {
                            continue;
                        }
                        self.record(&key);
                        map.remove(&key);
                    }
                    return;
                };
                self.prune_fields(map, s, embedded_root, true, depth);
            }
            Json::Array(items) => {
                let item_schema = s.and_then(Schema::items);
                for (i, item) in items.iter_mut().enumerate() {
                    self.path.push_index(i);
                    self.prune(item, item_schema, false, depth + 1);
                    self.path.truncate(mark);
                }
            }
            _ => {}
        }
    }

    /// The fields of an object with schema `s`: declared ones (by `properties` or
    /// `additionalProperties`) are pruned by their schema, unknown ones dropped when `drop_unknown`
    /// (`prune`) or kept (`skipPrune`); an embedded resource's meta fields are left alone.
    fn prune_fields(
        &mut self,
        map: &mut serde_json::Map<String, Json>,
        s: Schema<'_>,
        embedded_root: bool,
        drop_unknown: bool,
        depth: usize,
    ) {
        let mark = self.path.len();
        let embedded = embedded_root || s.embedded_resource();
        let keys: Vec<String> = map.keys().cloned().collect();
        for key in keys {
            if embedded && META_FIELDS.contains(&key.as_str()) {
                continue;
            }
            let child = match (s.property(&key), s.additional_properties()) {
                (Some(property), _) => Some(property),
                (None, Some(values)) => values,
                (None, None) if drop_unknown => {
                    // A meta field at the root is kept silently (never reached: the root is
                    // embedded); anywhere else it is unknown like any other.
                    if !META_FIELDS.contains(&key.as_str()) || !self.path.is_empty() {
                        self.record(&key);
                    }
                    map.remove(&key);
                    continue;
                }
                (None, None) => continue,
            };
            self.path.push_key(&key);
            if let Some(value) = map.get_mut(&key) {
                self.prune(value, child, false, depth + 1);
            }
            self.path.truncate(mark);
        }
    }

    /// Under `x-kubernetes-preserve-unknown-fields`: unknown fields stay, declared ones are pruned
    /// by their own schema.
    fn skip_prune(&mut self, x: &mut Json, s: Schema<'_>, embedded_root: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mark = self.path.len();
        match x {
            Json::Object(map) => self.prune_fields(map, s, embedded_root, false, depth),
            Json::Array(items) => {
                let Some(item_schema) = s.items() else {
                    return;
                };
                for (i, item) in items.iter_mut().enumerate() {
                    self.path.push_index(i);
                    self.skip_prune(item, item_schema, false, depth + 1);
                    self.path.truncate(mark);
                }
            }
            _ => {}
        }
    }
}
