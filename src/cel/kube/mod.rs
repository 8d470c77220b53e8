//! Runtime semantics of the Kubernetes CEL libraries, as plain Rust types and functions that the
//! evaluator binds to CEL overloads. Nothing here knows CEL values; errors carry upstream's text.
//!
//! | CEL | Rust |
//! | --- | --- |
//! | `quantity(s)`, `isQuantity(s)` | [`quantity::parse`] (`Err` → runtime error text, `is_ok` → bool) |
//! | `sign(q)`, `q.isInteger()`, `q.asInteger()`, `q.asApproximateFloat()` | [`quantity::Quantity::sign`], `is_integer`, `as_integer`, `as_approximate_float` |
//! | `q.add(q2\|int)`, `q.sub(q2\|int)` | `add`, `add_int`, `sub`, `sub_int` |
//! | `q.isGreaterThan`, `q.isLessThan`, `q.compareTo`, `==` | `is_greater_than`, `is_less_than`, `compare_to`, `PartialEq` |

mod bigint;
pub mod quantity;
