//! A readable rendering of values for messages and test snapshots: CEL literal syntax where there
//! is one (`[1, 'a']`, `{'k': 2u}`, `b'\x01'`), `timestamp('…')`, `duration('…')` otherwise.

use std::fmt::{self, Write};

use super::functions::convert::format_double;
use super::time;
use super::value::Value;

/// Writes `v` to `f`.
pub fn write_value(f: &mut fmt::Formatter<'_>, v: &Value) -> fmt::Result {
    match v {
        Value::Null => f.write_str("null"),
        Value::Bool(b) => write!(f, "{b}"),
        Value::Int(i) => write!(f, "{i}"),
        Value::Uint(u) => write!(f, "{u}u"),
        Value::Double(d) => write!(f, "{}", format_double(*d)),
        Value::String(s) => write!(f, "{:?}", &**s),
        Value::Bytes(b) => {
            f.write_str("b\"")?;
            for byte in b.iter() {
                if byte.is_ascii_graphic() || *byte == b' ' {
                    f.write_char(char::from(*byte))?;
                } else {
                    write!(f, "\\x{byte:02x}")?;
                }
            }
            f.write_str("\"")
        }
        Value::Duration(d) => write!(f, "duration({:?})", time::format_duration(*d)),
        Value::Timestamp(t) => write!(f, "timestamp({:?})", time::format_timestamp_utc(*t)),
        Value::List(items) => {
            f.write_str("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_value(f, item)?;
            }
            f.write_str("]")
        }
        Value::Map(m) => {
            f.write_str("{")?;
            for (i, (k, val)) in m.entries().iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_value(f, k)?;
                f.write_str(": ")?;
                write_value(f, val)?;
            }
            f.write_str("}")
        }
        Value::Type(t) => f.write_str(t),
        Value::Optional(None) => f.write_str("optional.none()"),
        Value::Optional(Some(inner)) => {
            f.write_str("optional.of(")?;
            write_value(f, inner)?;
            f.write_str(")")
        }
        Value::Object(o) => {
            write!(f, "{}{{", o.type_name)?;
            for (i, (k, val)) in o.fields.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{k}: ")?;
                write_value(f, val)?;
            }
            f.write_str("}")
        }
        Value::Opaque(o) => f.write_str(&o.render()),
        Value::Error(e) => write!(f, "error: {}", e.message),
    }
}
