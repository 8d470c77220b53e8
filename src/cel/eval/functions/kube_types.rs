//! The Kubernetes library types as evaluator values: each `cel::kube` type wrapped as an
//! [`Opaque`] with its CEL type name and equality.

use std::any::Any;
use std::sync::Arc;

use crate::cel::eval::value::{Opaque, Value};
use crate::cel::kube::{cidr::Cidr, format::NamedFormat, ip::Ip, quantity::Quantity};
use crate::cel::kube::{semver::Semver, url::Url};
use crate::cel::types;

/// A Kubernetes library value.
#[derive(Debug)]
pub struct Kube<T>(pub T);

macro_rules! opaque {
    ($t:ty, $name:expr, $render:expr) => {
        impl Opaque for Kube<$t> {
            fn type_name(&self) -> &str {
                $name
            }
            fn equals(&self, other: &dyn Opaque) -> bool {
                other
                    .as_any()
                    .downcast_ref::<Kube<$t>>()
                    .is_some_and(|o| o.0 == self.0)
            }
            fn as_any(&self) -> &dyn Any {
                self
            }
            fn render(&self) -> String {
                let render: fn(&$t) -> String = $render;
                render(&self.0)
            }
        }
    };
}

opaque!(Quantity, types::QUANTITY, |q| format!(
    "quantity({:?})",
    q.to_string()
));
opaque!(Ip, types::IP, |i| format!("ip({:?})", i.to_string()));
opaque!(Cidr, types::CIDR, |c| format!("cidr({:?})", c.to_string()));
opaque!(Semver, types::SEMVER, |v| format!(
    "semver({:?})",
    v.to_string()
));
opaque!(Url, types::URL, |u| format!("url({:?})", u.to_string()));
opaque!(NamedFormat, types::NAMED_FORMAT, |f| format!(
    "format.{}()",
    f.cel_name()
));

/// Wraps a library value.
pub fn wrap<T>(v: T) -> Value
where
    Kube<T>: Opaque + 'static,
{
    Value::Opaque(Arc::new(Kube(v)))
}

/// The library value inside `v`, if it is of type `T`.
pub fn get<T: 'static>(v: &Value) -> Option<&T> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Kube<T>>().map(|k| &k.0),
        _ => None,
    }
}

/// The library value of an opaque receiver, if it is of type `T`.
pub fn get_dyn<T: 'static>(o: &dyn Opaque) -> Option<&T> {
    o.as_any().downcast_ref::<Kube<T>>().map(|k| &k.0)
}
