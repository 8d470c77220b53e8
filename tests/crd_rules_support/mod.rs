//! Reads the Go source kept in `crd_validation_rules.json` (`obj_go`, `schema_go`, `oldObj_go`,
//! `rule_go`): a small parser for the Go literals and helper calls of apiextensions-apiserver
//! `pkg/apiserver/schema/cel/validation_test.go`, and their meaning as JSON values and OpenAPI
//! schemas (the helpers `objs`, `schemas`, `objectType`, `listType`, `listSetType`,
//! `listMapType`, `mapType`, `withNullable`, `withDefault`, `intOrStringType`,
//! `ValsEqualThemselvesAndDataLiteral`, the named scalar schemas, and `schema.Structural{…}`).
//! Anything else is an error naming what was not understood.

use serde_json::{Map, Value as Json, json};

/// A Go expression, as far as these literals need.
#[derive(Clone, Debug)]
pub enum Go {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A name: `stringType`, `math.MaxInt64`.
    Name(String),
    /// `f(args)`.
    Call(String, Vec<Go>),
    /// `T{a, b}` or `{a, b}`.
    List(Vec<Go>),
    /// `T{k: v}` or `{Field: v}` (keys as expressions; struct fields are names).
    Keyed(Vec<(Go, Go)>),
}

struct Parser<'a> {
    src: &'a [u8],
    at: usize,
}

pub fn parse(src: &str) -> Result<Go, String> {
    let mut p = Parser {
        src: src.as_bytes(),
        at: 0,
    };
    let expr = p.expr(0)?;
    p.skip_space();
    if p.at < p.src.len() {
        return Err(format!("trailing text at {}: {}", p.at, &src[p.at..]));
    }
    Ok(expr)
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.at < self.src.len() {
            let c = self.src[self.at];
            if c.is_ascii_whitespace() {
                self.at += 1;
            } else if self.src[self.at..].starts_with(b"//") {
                while self.at < self.src.len() && self.src[self.at] != b'\n' {
                    self.at += 1;
                }
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.src.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{}' at {}", c as char, self.at))
        }
    }

    fn ident(&mut self) -> String {
        self.skip_space();
        let start = self.at;
        while self.at < self.src.len()
            && (self.src[self.at].is_ascii_alphanumeric()
                || matches!(self.src[self.at], b'_' | b'.'))
        {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.src[start..self.at]).into_owned()
    }

    /// A type: `[]T`, `*T`, `map[K]V`, `interface{}`, a name.
    fn skip_type(&mut self) -> Result<(), String> {
        if self.eat(b'[') {
            self.expect(b']')?;
            return self.skip_type();
        }
        if self.eat(b'*') {
            return self.skip_type();
        }
        let name = self.ident();
        if name == "map" {
            self.expect(b'[')?;
            self.skip_type()?;
            self.expect(b']')?;
            return self.skip_type();
        }
        if name == "interface" {
            self.expect(b'{')?;
            self.expect(b'}')?;
        }
        if name.is_empty() {
            return Err(format!("expected a type at {}", self.at));
        }
        Ok(())
    }

    fn expr(&mut self, depth: usize) -> Result<Go, String> {
        if depth > 64 {
            return Err("nested too deeply".into());
        }
        match self.peek() {
            None => Err("unexpected end".into()),
            Some(b'&') => {
                self.at += 1;
                self.expr(depth + 1)
            }
            Some(b'"') => self.string().map(Go::Str),
            Some(b'`') => self.raw_string().map(Go::Str),
            Some(b'{') => self.composite(depth),
            Some(b'[') => {
                self.skip_type()?;
                self.composite(depth)
            }
            Some(c) if c.is_ascii_digit() || c == b'-' => self.number(),
            Some(_) => {
                let start = self.at;
                let name = self.ident();
                match name.as_str() {
                    "" => {
                        return Err(format!(
                            "unexpected '{}' at {}",
                            self.src[self.at] as char, self.at
                        ));
                    }
                    "nil" => return Ok(Go::Nil),
                    "true" => return Ok(Go::Bool(true)),
                    "false" => return Ok(Go::Bool(false)),
                    "map" | "interface" => {
                        self.at = start;
                        self.skip_type()?;
                        // `map[string]interface{}{}` is an empty map, not an empty list.
                        return match self.composite(depth)? {
                            Go::List(items) if items.is_empty() => Ok(Go::Keyed(Vec::new())),
                            other => Ok(other),
                        };
                    }
                    _ => {}
                }
                if self.eat(b'(') {
                    let mut args = Vec::new();
                    while !self.eat(b')') {
                        args.push(self.expr(depth + 1)?);
                        self.eat(b',');
                    }
                    return Ok(Go::Call(name, args));
                }
                if self.peek() == Some(b'{')
                    && name.starts_with(|c: char| c.is_ascii_uppercase() || c == 's')
                    && name.contains('.')
                {
                    return self.composite(depth);
                }
                Ok(Go::Name(name))
            }
        }
    }

    /// `{…}`: a list of values, or `key: value` pairs.
    fn composite(&mut self, depth: usize) -> Result<Go, String> {
        self.expect(b'{')?;
        let mut values = Vec::new();
        let mut pairs = Vec::new();
        while !self.eat(b'}') {
            let first = self.expr(depth + 1)?;
            if self.eat(b':') {
                pairs.push((first, self.expr(depth + 1)?));
            } else {
                values.push(first);
            }
            self.eat(b',');
        }
        Ok(if pairs.is_empty() {
            Go::List(values)
        } else {
            Go::Keyed(pairs)
        })
    }

    fn number(&mut self) -> Result<Go, String> {
        let start = self.at;
        self.at += 1;
        while self.at < self.src.len()
            && (self.src[self.at].is_ascii_alphanumeric()
                || matches!(self.src[self.at], b'.' | b'_'))
        {
            self.at += 1;
        }
        let text = String::from_utf8_lossy(&self.src[start..self.at]).replace('_', "");
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Go::Int(i));
        }
        text.parse::<f64>()
            .map(Go::Float)
            .map_err(|_| format!("bad number {text}"))
    }

    fn raw_string(&mut self) -> Result<String, String> {
        self.at += 1;
        let start = self.at;
        while self.at < self.src.len() && self.src[self.at] != b'`' {
            self.at += 1;
        }
        let text = String::from_utf8_lossy(&self.src[start..self.at]).into_owned();
        self.at += 1;
        Ok(text)
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        while self.at < self.src.len() {
            let c = self.src[self.at];
            self.at += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = self.src.get(self.at).copied().ok_or("bad escape")?;
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'\\' => out.push(b'\\'),
                        b'"' => out.push(b'"'),
                        b'\'' => out.push(b'\''),
                        b'x' => {
                            let hex = std::str::from_utf8(&self.src[self.at..self.at + 2])
                                .map_err(|e| e.to_string())?;
                            out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
                            self.at += 2;
                        }
                        b'u' | b'U' => {
                            let n = if e == b'u' { 4 } else { 8 };
                            let hex = std::str::from_utf8(&self.src[self.at..self.at + n])
                                .map_err(|e| e.to_string())?;
                            let c = u32::from_str_radix(hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or("bad \\u")?;
                            out.extend(c.to_string().as_bytes());
                            self.at += n;
                        }
                        other => return Err(format!("unknown escape \\{}", other as char)),
                    }
                }
                _ => out.push(c),
            }
        }
        Err("unterminated string".into())
    }
}

fn named_number(name: &str) -> Option<Json> {
    Some(match name {
        "math.MaxInt64" => json!(i64::MAX),
        "math.MaxInt32" => json!(i32::MAX),
        "math.MaxFloat64" => json!(f64::MAX),
        "math.MaxFloat32" => json!(f64::from(f32::MAX)),
        _ => return None,
    })
}

/// The JSON value a Go value literal (`obj_go`) denotes.
pub fn value(go: &Go) -> Result<Json, String> {
    Ok(match go {
        Go::Nil => Json::Null,
        Go::Bool(b) => json!(b),
        Go::Int(i) => json!(i),
        Go::Float(f) => json!(f),
        Go::Str(s) => json!(s),
        Go::Name(n) => named_number(n).ok_or(format!("unknown value {n}"))?,
        Go::List(items) => Json::Array(items.iter().map(value).collect::<Result<_, _>>()?),
        Go::Keyed(pairs) => {
            let mut map = Map::new();
            for (k, v) in pairs {
                let Go::Str(k) = k else {
                    return Err(format!("map key {k:?}"));
                };
                map.insert(k.clone(), value(v)?);
            }
            Json::Object(map)
        }
        Go::Call(f, args) => match (f.as_str(), args.as_slice()) {
            ("int64" | "int32" | "int", [a]) => value(a)?,
            // An interface holding a nil slice: no value, as the group's name says.
            ("nilInterfaceOfStringSlice", []) => Json::Null,
            ("float64", [a]) => json!(value(a)?.as_f64().ok_or("float64 of a non-number")?),
            ("float32", [a]) => json!(f64::from(
                value(a)?.as_f64().ok_or("float32 of a non-number")? as f32
            )),
            ("objs", args) => {
                let mut map = Map::new();
                for (i, a) in args.iter().enumerate() {
                    map.insert(format!("val{}", i + 1), value(a)?);
                }
                Json::Object(map)
            }
            _ => return Err(format!("unknown call {f}")),
        },
    })
}

fn scalar_schema(name: &str) -> Option<Json> {
    let typed = |t: &str| json!({"type": t});
    let formatted = |t: &str, f: &str| json!({"type": t, "format": f});
    Some(match name {
        "stringType" => typed("string"),
        "integerType" => typed("integer"),
        "int32Type" => formatted("integer", "int32"),
        "int64Type" => formatted("integer", "int64"),
        "numberType" => typed("number"),
        "floatType" => formatted("number", "float"),
        "doubleType" => formatted("number", "double"),
        "booleanType" => typed("boolean"),
        "byteType" => formatted("string", "byte"),
        "durationFormat" => formatted("string", "duration"),
        "dateFormat" => formatted("string", "date"),
        "dateTimeFormat" => formatted("string", "date-time"),
        _ => return None,
    })
}

fn properties(go: &Go) -> Result<Json, String> {
    let Go::Keyed(pairs) = go else {
        return Err(format!("properties {go:?}"));
    };
    let mut map = Map::new();
    for (k, v) in pairs {
        let Go::Str(k) = k else {
            return Err(format!("property name {k:?}"));
        };
        map.insert(k.clone(), schema(v)?);
    }
    Ok(Json::Object(map))
}

fn with(mut base: Json, key: &str, extra: Json) -> Json {
    if let Some(object) = base.as_object_mut() {
        object.insert(key.to_string(), extra);
    }
    base
}

fn list(list_type: Option<&str>, items: &Go, keys: Option<&Go>) -> Result<Json, String> {
    let mut out = json!({"type": "array", "items": schema(items)?});
    if let Some(t) = list_type {
        out = with(out, "x-kubernetes-list-type", json!(t));
    }
    if let Some(keys) = keys {
        out = with(out, "x-kubernetes-list-map-keys", value(keys)?);
    }
    Ok(out)
}

/// The OpenAPI schema a Go schema expression (`schema_go`) denotes.
pub fn schema(go: &Go) -> Result<Json, String> {
    match go {
        Go::Name(n) => scalar_schema(n).ok_or(format!("unknown schema {n}")),
        Go::Keyed(fields) => structural(fields),
        Go::Call(f, args) => match (f.as_str(), args.as_slice()) {
            ("schemas", args) => {
                let mut map = Map::new();
                for (i, a) in args.iter().enumerate() {
                    map.insert(format!("val{}", i + 1), schema(a)?);
                }
                Ok(json!({"type": "object", "properties": map}))
            }
            ("objectType" | "objectTypePtr", [p]) => {
                Ok(json!({"type": "object", "properties": properties(p)?}))
            }
            ("listType" | "listTypePtr", [items]) => list(None, items, None),
            ("listSetType", [items]) => list(Some("set"), items, None),
            ("listMapType" | "listMapTypePtr", [keys, items]) => {
                list(Some("map"), items, Some(keys))
            }
            ("mapType" | "mapTypePtr", [values]) => {
                Ok(json!({"type": "object", "additionalProperties": schema(values)?}))
            }
            ("withNullable" | "withNullablePtr", [b, s]) => {
                Ok(with(schema(s)?, "nullable", value(b)?))
            }
            ("withDefault", [d, s]) => Ok(with(schema(s)?, "default", value(d)?)),
            ("intOrStringType", []) => Ok(json!({"x-kubernetes-int-or-string": true})),
            _ => Err(format!("unknown schema call {f}")),
        },
        other => Err(format!("unknown schema {other:?}")),
    }
}

/// `schema.Structural{Generic: …, Extensions: …, Properties: …, Items: …, ValueValidation: …}`.
fn structural(fields: &[(Go, Go)]) -> Result<Json, String> {
    let mut out = Map::new();
    for (k, v) in fields {
        let Go::Name(k) = k else {
            return Err(format!("field {k:?}"));
        };
        match (k.as_str(), v) {
            ("Generic" | "Extensions" | "ValueValidation", Go::Keyed(inner)) => {
                for (ik, iv) in inner {
                    let Go::Name(ik) = ik else {
                        return Err(format!("field {ik:?}"));
                    };
                    let (key, val) = match ik.as_str() {
                        "Type" => ("type", value(iv)?),
                        "Nullable" => ("nullable", value(iv)?),
                        "XPreserveUnknownFields" => {
                            ("x-kubernetes-preserve-unknown-fields", value(iv)?)
                        }
                        "XEmbeddedResource" => ("x-kubernetes-embedded-resource", value(iv)?),
                        "XIntOrString" => ("x-kubernetes-int-or-string", value(iv)?),
                        "Enum" => ("enum", enum_values(iv)?),
                        other => return Err(format!("unknown field {other}")),
                    };
                    out.insert(key.to_string(), val);
                }
            }
            ("Properties", p) => {
                out.insert("properties".into(), properties(p)?);
            }
            ("Items", items) => {
                out.insert("items".into(), schema(items)?);
            }
            (other, _) => return Err(format!("unknown field {other}")),
        }
    }
    Ok(Json::Object(out))
}

/// `[]schema.JSON{{Object: "a"}, …}`.
fn enum_values(go: &Go) -> Result<Json, String> {
    let Go::List(items) = go else {
        return Err("enum".into());
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            Go::Keyed(pairs) => match pairs.as_slice() {
                [(Go::Name(n), v)] if n == "Object" => out.push(value(v)?),
                _ => return Err("enum item".into()),
            },
            _ => return Err("enum item".into()),
        }
    }
    Ok(Json::Array(out))
}

/// The rule a `rule_go` expression builds: `ValsEqualThemselvesAndDataLiteral(a, b, lit)` is
/// `a == lit && lit == a && a == b`; `fmt.Sprintf` with `%d`/`%f`/`%s` formats its arguments.
pub fn rule(go: &Go) -> Result<String, String> {
    match go {
        Go::Str(s) => Ok(s.clone()),
        Go::Call(f, args) => match (f.as_str(), args.as_slice()) {
            ("ValsEqualThemselvesAndDataLiteral", [a, b, lit]) => {
                let (a, b, lit) = (rule(a)?, rule(b)?, rule(lit)?);
                Ok(format!("{a} == {lit} && {lit} == {a} && {a} == {b}"))
            }
            ("fmt.Sprintf", [format, args @ ..]) => sprintf(&rule(format)?, args),
            _ => Err(format!("unknown rule call {f}")),
        },
        other => Err(format!("unknown rule {other:?}")),
    }
}

fn sprintf(format: &str, args: &[Go]) -> Result<String, String> {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let verb = chars.next().ok_or("dangling %")?;
        let arg = value(args.next().ok_or("missing argument")?)?;
        match verb {
            'd' => out.push_str(&arg.as_i64().ok_or("%d of a non-integer")?.to_string()),
            // Go's %f: six decimals, no exponent.
            'f' => out.push_str(&format!("{:.6}", arg.as_f64().ok_or("%f of a non-number")?)),
            's' => out.push_str(arg.as_str().ok_or("%s of a non-string")?),
            other => return Err(format!("unknown verb %{other}")),
        }
    }
    Ok(out)
}
