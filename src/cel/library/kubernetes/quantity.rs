//! Kubernetes quantity library (`quantity.go`, 1.28). `sign` is declared as a global overload
//! only, so `q.sign()` does not type-check while `sign(q)` does.

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::Type;

const QUANTITY: Library = Library::Quantity;

/// The quantity functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let q = Type::quantity;
    vec![
        func(QUANTITY, "quantity", "Parses a Kubernetes resource quantity such as '500m', '1.5Gi' or '2e3'; an error when malformed.", &["quantity('1Gi').isGreaterThan(quantity('512Mi')) // true"])
            .global("string_to_quantity", [STRING], q())
            .done(),
        func(QUANTITY, "isQuantity", "Whether `quantity()` would accept the string.", &["isQuantity('250m') // true"])
            .global("is_quantity_string", [STRING], BOOL)
            .done(),
        func(QUANTITY, "sign", "-1, 0 or 1 for a negative, zero or positive quantity. Global call style only: `sign(q)`.", &["sign(quantity('-1')) // -1"])
            .global("quantity_sign", [q()], INT)
            .done(),
        func(QUANTITY, "isGreaterThan", "Whether the quantity is larger than the argument.", &["quantity('1Gi').isGreaterThan(quantity('1G')) // true"])
            .member("quantity_is_greater_than", [q(), q()], BOOL)
            .done(),
        func(QUANTITY, "isLessThan", "Whether the quantity is smaller than the argument.", &["quantity('100m').isLessThan(quantity('1')) // true"])
            .member("quantity_is_less_than", [q(), q()], BOOL)
            .done(),
        func(QUANTITY, "compareTo", "-1, 0 or 1 as the quantity is smaller than, equal to or larger than the argument.", &["quantity('1').compareTo(quantity('1000m')) // 0"])
            .member("quantity_compare_to", [q(), q()], INT)
            .done(),
        func(QUANTITY, "asApproximateFloat", "The quantity as a double, possibly losing precision.", &["quantity('1.5').asApproximateFloat() // 1.5"])
            .member("quantity_get_float", [q()], DOUBLE)
            .done(),
        func(QUANTITY, "asInteger", "The quantity as an int; an error when it is fractional or out of range (check with `isInteger`).", &["quantity('1k').asInteger() // 1000"])
            .member("quantity_get_int", [q()], INT)
            .done(),
        func(QUANTITY, "isInteger", "Whether `asInteger` would succeed.", &["quantity('500m').isInteger() // false"])
            .member("quantity_is_integer", [q()], BOOL)
            .done(),
        func(QUANTITY, "add", "The sum of the quantity and another quantity or an int.", &["quantity('1Gi').add(quantity('512Mi')) == quantity('1536Mi') // true"])
            .member("quantity_add", [q(), q()], q())
            .member("quantity_add_int", [q(), INT], q())
            .done(),
        func(QUANTITY, "sub", "The difference of the quantity and another quantity or an int.", &["quantity('2').sub(1) == quantity('1') // true"])
            .member("quantity_sub", [q(), q()], q())
            .member("quantity_sub_int", [q(), INT], q())
            .done(),
    ]
}
