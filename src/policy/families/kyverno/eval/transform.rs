//! Kyverno's transform library (kyverno/sdk `extensions/cel/libs/transform/impl.go`):
//! `listObjToMap(keys, values, keyField, valueField)` (also `transform.listObjToMap`) pairs the
//! i-th object of `keys` with the i-th of `values` into a map from the first's `keyField` (a
//! string) to the second's `valueField` (null when absent); a later key replaces an earlier one.

use std::sync::Arc;

use crate::cel::eval::{ErrorKind, MapValue, Value};

/// The function `name` of the transform library, `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    if !is_function(name) {
        return None;
    }
    Some(match args {
        [
            Value::List(keys),
            Value::List(values),
            Value::String(key),
            Value::String(value),
        ] => list_obj_to_map(keys, values, key, value)
            .unwrap_or_else(|message| Value::error(ErrorKind::InvalidArgument, message)),
        _ => Value::no_overload(),
    })
}

/// Whether `name` is a function of this library.
pub fn is_function(name: &str) -> bool {
    matches!(name, "listObjToMap" | "transform.listObjToMap")
}

fn list_obj_to_map(
    keys: &[Value],
    values: &[Value],
    key_field: &str,
    value_field: &str,
) -> Result<Value, String> {
    if keys.len() != values.len() {
        return Err(format!(
            "listObjToMap must take lists of equal length. list1: {}, list2: {}",
            keys.len(),
            values.len()
        ));
    }
    let mut out = MapValue::with_capacity(keys.len());
    for (key_object, value_object) in keys.iter().zip(values) {
        let Value::Map(key_object) = key_object else {
            return Err(
                "object cannot be handled as a map string to any in the key object list"
                    .to_string(),
            );
        };
        let Some(Value::String(key)) = key_object.get_str(key_field) else {
            return Err(
                "the passed key name cannot be handled as a string in the key object list"
                    .to_string(),
            );
        };
        let Value::Map(value_object) = value_object else {
            return Err(
                "object cannot be handled as a map string to any in the value object list"
                    .to_string(),
            );
        };
        let value = value_object
            .get_str(value_field)
            .cloned()
            .unwrap_or(Value::Null);
        out.insert_str(key, value);
    }
    Ok(Value::Map(Arc::new(out)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(keys: serde_json::Value, values: serde_json::Value) -> String {
        let [Ok(keys), Ok(values)] = [&keys, &values].map(Value::from_json) else {
            return "bad test input".to_string();
        };
        let args = [keys, values, Value::string("name"), Value::string("value")];
        match call("transform.listObjToMap", &args) {
            Some(value) => match value.to_json() {
                Ok(json) => json.to_string(),
                Err(_) => value.to_string(),
            },
            None => "not a transform function".to_string(),
        }
    }

    #[test]
    fn pairs_objects_by_position_the_last_key_winning() {
        let out = run(
            json!([{"name": "a"}, {"name": "b"}, {"name": "a"}]),
            json!([{"value": 1}, {"other": 2}, {"value": 3}]),
        );
        assert_eq!(out, r#"{"a":3,"b":null}"#);
    }

    #[test]
    fn mismatches_are_errors() {
        let out = run(json!([{"name": "a"}]), json!([]));
        assert!(out.contains("list1: 1, list2: 0"), "{out}");
        let out = run(json!([{"name": 1}]), json!([{"value": 1}]));
        assert!(out.contains("cannot be handled as a string"), "{out}");
        let out = run(json!(["a"]), json!([{"value": 1}]));
        assert!(out.contains("key object list"), "{out}");
    }
}
