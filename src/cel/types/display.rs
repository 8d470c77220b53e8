//! Printing types: `Display` uses cel-go's spelling (`list(int)`, `map(string, dyn)`,
//! `optional_type(string)`, `type(int)`, `google.protobuf.Timestamp`, `!error!`); [`Short`] prints
//! `timestamp`/`duration` instead, for signatures shown to people.

use std::fmt;

use super::Type;

/// Prints a type with the short names of the well-known time types.
pub struct Short<'a>(pub(super) &'a Type);

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(self, f, false)
    }
}

impl fmt::Display for Short<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(self.0, f, true)
    }
}

fn write_type(ty: &Type, f: &mut fmt::Formatter<'_>, short: bool) -> fmt::Result {
    match ty {
        Type::Int => f.write_str("int"),
        Type::Uint => f.write_str("uint"),
        Type::Double => f.write_str("double"),
        Type::Bool => f.write_str("bool"),
        Type::String => f.write_str("string"),
        Type::Bytes => f.write_str("bytes"),
        Type::Null => f.write_str("null_type"),
        Type::Duration if short => f.write_str("duration"),
        Type::Duration => f.write_str("google.protobuf.Duration"),
        Type::Timestamp if short => f.write_str("timestamp"),
        Type::Timestamp => f.write_str("google.protobuf.Timestamp"),
        Type::Dyn => f.write_str("dyn"),
        Type::Error => f.write_str("!error!"),
        Type::List(elem) => {
            f.write_str("list(")?;
            write_type(elem, f, short)?;
            f.write_str(")")
        }
        Type::Map(key, value) => {
            f.write_str("map(")?;
            write_type(key, f, short)?;
            f.write_str(", ")?;
            write_type(value, f, short)?;
            f.write_str(")")
        }
        Type::Param(name) => f.write_str(name),
        Type::Optional(inner) => {
            f.write_str("optional_type(")?;
            write_type(inner, f, short)?;
            f.write_str(")")
        }
        Type::TypeOf(None) => f.write_str("type"),
        Type::TypeOf(Some(inner)) => {
            f.write_str("type(")?;
            write_type(inner, f, short)?;
            f.write_str(")")
        }
        Type::Object(name) | Type::Opaque(name) => f.write_str(name),
    }
}
