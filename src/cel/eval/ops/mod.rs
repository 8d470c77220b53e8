//! Operators: arithmetic and comparison on runtime values.

pub mod arith;
pub mod compare;
