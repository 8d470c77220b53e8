//! Runtime values of the evaluator: every CEL value kind, errors that flow as values until they
//! decide a result, and the extension point for the opaque Kubernetes types.

use std::fmt;
use std::sync::Arc;

use super::list::{ListKind, ListValue};
use super::map::MapValue;

/// A CEL timestamp: an instant with nanosecond precision, 0001-01-01 … 9999-12-31, and the UTC
/// offset it was written with. Like Go's `time.Time` in cel-go (`common/types/timestamp.go`), the
/// offset only shows where the value is printed or read without a time zone (`string(t)`,
/// `t.getHours()`); equality and ordering compare instants.
#[derive(Clone, Copy, Debug)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub seconds: i64,
    /// Nanoseconds within the second, 0 … 999,999,999.
    pub nanos: u32,
    /// Seconds east of UTC of the zone the timestamp is in (0: UTC).
    pub offset: i32,
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.seconds, self.nanos).cmp(&(other.seconds, other.nanos))
    }
}

impl std::hash::Hash for Timestamp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.seconds, self.nanos).hash(state);
    }
}

impl Timestamp {
    /// Seconds of 0001-01-01T00:00:00Z.
    pub const MIN_SECONDS: i64 = -62_135_596_800;
    /// Seconds of 9999-12-31T23:59:59Z.
    pub const MAX_SECONDS: i64 = 253_402_300_799;

    /// A UTC timestamp, if inside CEL's range (nanoseconds may be any value; they are normalised).
    pub fn new(seconds: i64, nanos: i64) -> Option<Timestamp> {
        let seconds = seconds.checked_add(nanos.div_euclid(1_000_000_000))?;
        let nanos = nanos.rem_euclid(1_000_000_000) as u32;
        (Self::MIN_SECONDS..=Self::MAX_SECONDS)
            .contains(&seconds)
            .then_some(Timestamp {
                seconds,
                nanos,
                offset: 0,
            })
    }

    /// The same instant in the zone `offset` seconds east of UTC.
    pub fn with_offset(self, offset: i32) -> Timestamp {
        Timestamp { offset, ..self }
    }

    /// Nanoseconds since the epoch.
    pub fn total_nanos(self) -> i128 {
        i128::from(self.seconds) * 1_000_000_000 + i128::from(self.nanos)
    }
}

/// A CEL duration: signed nanoseconds, the range of Go's `time.Duration` as cel-go uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    /// Nanoseconds.
    pub nanos: i64,
}

/// A runtime value. Cheap to clone: aggregates sit behind `Arc`.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`
    Null,
    /// `bool`
    Bool(bool),
    /// `int`
    Int(i64),
    /// `uint`
    Uint(u64),
    /// `double`
    Double(f64),
    /// `string`
    String(Arc<str>),
    /// `bytes`
    Bytes(Arc<[u8]>),
    /// `google.protobuf.Duration`
    Duration(Duration),
    /// `google.protobuf.Timestamp`
    Timestamp(Timestamp),
    /// `list(T)`, with the `x-kubernetes-list-type` it was read under, if any.
    List(Arc<ListValue>),
    /// `map(K, V)`
    Map(Arc<MapValue>),
    /// A type value (`type(1) == int`), by its CEL name.
    Type(Arc<str>),
    /// `optional_type(T)`: `None` is `optional.none()`.
    Optional(Option<Arc<Value>>),
    /// An object built with `Name{field: …}` (`Object{…}`, `JSONPatch{…}`), fields in order.
    Object(Arc<ObjectValue>),
    /// A value of a Kubernetes library type (quantity, URL, IP, CIDR, semver, format, authorizer…).
    Opaque(Arc<dyn Opaque>),
    /// An evaluation error, carried as a value until it decides the result.
    Error(Arc<EvalError>),
}

/// A value of an opaque library type. The Kubernetes library implements it for its types; the
/// evaluator only needs the type name, equality and (for `<`) an optional ordering.
pub trait Opaque: fmt::Debug + Send + Sync {
    /// The CEL type name (`kubernetes.Quantity`, `net.IP`, …), also the result of `type(x)`.
    fn type_name(&self) -> &str;
    /// Equality with another opaque value (same type name already checked by the caller).
    fn equals(&self, other: &dyn Opaque) -> bool;
    /// Downcasting hook for library functions.
    fn as_any(&self) -> &dyn std::any::Any;
    /// How the value prints in messages and snapshots (`quantity("1Gi")`).
    fn render(&self) -> String {
        format!("{self:?}")
    }
}

/// A constructed object: its type name and fields in the order written.
#[derive(Clone, Debug)]
pub struct ObjectValue {
    /// The type name as resolved (`Object`, `Object.spec`, `JSONPatch`, …).
    pub type_name: Arc<str>,
    /// The fields set, in order.
    pub fields: Vec<(Arc<str>, Value)>,
}

impl ObjectValue {
    /// The value of field `name`, if set.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }
}

/// What kind of failure an error is; the message carries cel-go's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No overload for the runtime argument types.
    NoSuchOverload,
    /// Integer overflow, or a conversion out of range.
    Overflow,
    /// Division or modulus by zero.
    DivisionByZero,
    /// A map key or object field that is absent.
    NoSuchKey,
    /// A list index outside the list.
    IndexOutOfBounds,
    /// An undeclared variable or attribute.
    NoSuchAttribute,
    /// Any invalid argument (bad format string, bad regex, bad timestamp text…).
    InvalidArgument,
    /// The cost limit was exceeded; evaluation stops.
    CostLimit,
    /// Evaluation went deeper than the evaluator allows; evaluation stops.
    Depth,
}

/// An evaluation error: message and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// The message, worded like cel-go's.
    pub message: String,
    /// The kind.
    pub kind: ErrorKind,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl EvalError {
    /// A new error.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        EvalError {
            message: message.into(),
            kind,
        }
    }
}

impl Value {
    /// A string value.
    pub fn string(s: &str) -> Value {
        Value::String(Arc::from(s))
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(ListValue::from(items)))
    }

    /// A list value that compares and concatenates as `kind` says.
    pub fn typed_list(items: Vec<Value>, kind: ListKind) -> Value {
        Value::List(Arc::new(ListValue::new(items, kind)))
    }

    /// An error value.
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> Value {
        Value::Error(Arc::new(EvalError::new(kind, message)))
    }

    /// cel-go's "no such overload" error.
    pub fn no_overload() -> Value {
        Value::error(ErrorKind::NoSuchOverload, "no such overload")
    }

    /// cel-go's overflow error (`types.errIntOverflow`, the text the API server reports).
    pub fn overflow() -> Value {
        Value::error(ErrorKind::Overflow, "integer overflow")
    }

    /// Whether this is an error value.
    pub fn is_error(&self) -> bool {
        matches!(self, Value::Error(_))
    }

    /// The CEL type name of the value, as `type(x)` reports it.
    pub fn type_name(&self) -> Arc<str> {
        let name = match self {
            Value::Null => "null_type",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint(_) => "uint",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::Duration(_) => "google.protobuf.Duration",
            Value::Timestamp(_) => "google.protobuf.Timestamp",
            Value::List(_) => "list",
            Value::Map(_) => "map",
            Value::Type(_) => "type",
            Value::Optional(_) => "optional_type",
            Value::Object(o) => return o.type_name.clone(),
            Value::Opaque(o) => o.type_name(),
            Value::Error(_) => "error",
        };
        Arc::from(name)
    }

    /// The size as cel-go's cost tracker sees it: length of strings (code points), bytes, lists and
    /// maps; 1 for everything else.
    pub fn cost_size(&self) -> u64 {
        match self {
            Value::String(s) => s.chars().count() as u64,
            Value::Bytes(b) => b.len() as u64,
            Value::List(l) => l.len() as u64,
            Value::Map(m) => m.len() as u64,
            _ => 1,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::display::write_value(f, self)
    }
}
