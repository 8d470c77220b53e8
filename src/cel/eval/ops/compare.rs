//! Equality and ordering with cel-go's runtime semantics: heterogeneous numeric equality and
//! ordering (`1 == 1u`, `1 < 1.5`), NaN never equal nor ordered, structural equality of lists,
//! maps, optionals and objects, false (not an error) across unrelated types.

use std::cmp::Ordering;

use crate::cel::eval::value::Value;

/// A number on a common line, for cross-type comparison.
enum Num {
    I(i128),
    D(f64),
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Int(i) => Some(Num::I(i128::from(*i))),
        Value::Uint(u) => Some(Num::I(i128::from(*u))),
        Value::Double(d) => Some(Num::D(*d)),
        _ => None,
    }
}

fn cmp_int_double(i: i128, d: f64) -> Option<Ordering> {
    // cel-go converts the integer to a double (lossily) before comparing.
    (i as f64).partial_cmp(&d)
}

fn cmp_num(a: &Num, b: &Num) -> Option<Ordering> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => Some(x.cmp(y)),
        (Num::D(x), Num::D(y)) => x.partial_cmp(y),
        (Num::I(x), Num::D(y)) => cmp_int_double(*x, *y),
        (Num::D(x), Num::I(y)) => cmp_int_double(*y, *x).map(Ordering::reverse),
    }
}

/// CEL equality (never an error).
pub fn equals(a: &Value, b: &Value) -> bool {
    use Value::*;
    // Metered: a spent budget makes the interpreter stop right after this call.
    if !crate::cel::eval::work::tick() {
        return false;
    }
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        return cmp_num(&x, &y) == Some(Ordering::Equal);
    }
    match (a, b) {
        (Null, Null) => true,
        (Bool(x), Bool(y)) => x == y,
        (String(x), String(y)) => x == y,
        (Bytes(x), Bytes(y)) => x == y,
        (Duration(x), Duration(y)) => x == y,
        (Timestamp(x), Timestamp(y)) => x == y,
        (Type(x), Type(y)) => x == y,
        (List(x), List(y)) => crate::cel::eval::list::lists_equal(x, y),
        (Map(x), Map(y)) => {
            x.len() == y.len()
                && x.entries()
                    .iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w)))
        }
        (Optional(x), Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(p), Some(q)) => equals(p, q),
            _ => false,
        },
        (Object(x), Object(y)) => {
            x.type_name == y.type_name
                && x.fields.len() == y.fields.len()
                && x.fields
                    .iter()
                    .all(|(n, v)| y.field(n).is_some_and(|w| equals(v, w)))
        }
        (Opaque(x), Opaque(y)) => x.type_name() == y.type_name() && x.equals(&**y),
        _ => false,
    }
}

/// Ordering for `<`, `<=`, `>`, `>=`: `Err(())` when the types are not comparable (no such
/// overload), `Ok(None)` when unordered (NaN).
#[allow(clippy::result_unit_err)]
pub fn compare(a: &Value, b: &Value) -> Result<Option<Ordering>, ()> {
    use Value::*;
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        return Ok(cmp_num(&x, &y));
    }
    match (a, b) {
        (Bool(x), Bool(y)) => Ok(Some(x.cmp(y))),
        (String(x), String(y)) => Ok(Some(x.cmp(y))),
        (Bytes(x), Bytes(y)) => Ok(Some(x.cmp(y))),
        (Duration(x), Duration(y)) => Ok(Some(x.cmp(y))),
        (Timestamp(x), Timestamp(y)) => Ok(Some(x.cmp(y))),
        _ => Err(()),
    }
}

/// `a in b`.
pub fn contains(collection: &Value, item: &Value) -> Value {
    match collection {
        Value::List(items) => Value::Bool(items.iter().any(|v| equals(v, item))),
        Value::Map(m) => Value::Bool(m.get(item).is_some()),
        _ => Value::no_overload(),
    }
}
