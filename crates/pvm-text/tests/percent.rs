//! Replays CPython 3.11 `str % args` cases through a miniature "core" that does the argument
//! matching exactly as documented in `pvm_text::percent`, exercising the whole API.

mod common;

use common::*;
use num_bigint::BigInt;
use pvm_float::F64;
use pvm_text::percent::{self, Count, PercentPiece};
use pvm_text::{TextError, format_float, repr};
use serde_json::{Value, json};

#[derive(Clone, Debug)]
enum V {
    Int(BigInt),
    Float(F64),
    Str(String),
    Bytes(Vec<u8>),
}

fn val(v: &Value) -> V {
    if let Some(t) = v.as_str() {
        return V::Str(t.to_owned());
    }
    if v.get("b").is_some() {
        return V::Bytes(b(v));
    }
    if let Some(i) = v.get("i") {
        return V::Int(s(i).parse().expect("int"));
    }
    V::Float(F64(u64::from_str_radix(s(&v["f"]), 16).expect("bits")))
}

fn type_name(v: &V) -> &'static str {
    match v {
        V::Int(_) => "int",
        V::Float(_) => "float",
        V::Str(_) => "str",
        V::Bytes(_) => "bytes",
    }
}

fn py_str(v: &V) -> String {
    match v {
        V::Int(n) => n.to_string(),
        V::Float(x) => x.repr(),
        V::Str(t) => t.clone(),
        V::Bytes(x) => repr::bytes_repr(x, "b"),
    }
}

fn py_repr(v: &V) -> String {
    match v {
        V::Str(t) => repr::str_repr(t),
        other => py_str(other),
    }
}

enum Args {
    Tuple(Vec<V>),
    Map(Vec<(String, V)>),
    One(V),
}

struct Ctx {
    args: Args,
    /// CPython's argidx/arglen protocol; `current` is the single/looked-up value.
    idx: i64,
    len: i64,
    current: Option<V>,
}

impl Ctx {
    fn next(&mut self) -> Result<V, TextError> {
        if self.idx < self.len {
            self.idx += 1;
            if self.len < 0 {
                return self
                    .current
                    .clone()
                    .ok_or_else(|| TextError::type_error("mapping as value"));
            }
            if let Args::Tuple(t) = &self.args {
                return Ok(t[(self.idx - 1) as usize].clone());
            }
        }
        Err(percent::not_enough_arguments())
    }

    fn lookup(&mut self, key: &str) -> Result<(), TextError> {
        let Args::Map(m) = &self.args else {
            return Err(percent::format_requires_mapping());
        };
        let v = m
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| TextError::new(pvm_text::ErrorKind::Key, repr::str_repr(key)))?;
        self.current = Some(v);
        self.idx = -2;
        self.len = -1;
        Ok(())
    }

    fn star(&mut self) -> Result<BigInt, TextError> {
        match self.next()? {
            V::Int(n) => Ok(n),
            _ => Err(percent::star_wants_int()),
        }
    }
}

fn to_int_bytes(v: &V, conv: char) -> Result<BigInt, TextError> {
    match v {
        V::Str(_) | V::Bytes(_) => Err(percent::number_required_bytes(conv, type_name(v))),
        _ => to_int(v, conv),
    }
}

fn to_int(v: &V, conv: char) -> Result<BigInt, TextError> {
    match v {
        V::Int(n) => Ok(n.clone()),
        V::Float(x) if !matches!(conv, 'o' | 'x' | 'X') => {
            let (neg, limbs) = x.trunc_to_int_parts().map_err(|e| match e {
                pvm_float::FloatError::Overflow(m) => TextError::overflow(m),
                other => TextError::value(other.message()),
            })?;
            let mag = num_bigint::BigUint::new(
                limbs
                    .iter()
                    .flat_map(|l| [*l as u32, (*l >> 32) as u32])
                    .collect(),
            );
            let sign = if neg {
                num_bigint::Sign::Minus
            } else {
                num_bigint::Sign::Plus
            };
            Ok(BigInt::from_biguint(sign, mag))
        }
        other => Err(percent::number_required(conv, type_name(other))),
    }
}

fn new_ctx(args: Args) -> (Ctx, bool) {
    let (idx, len, current) = match &args {
        Args::Tuple(t) => (0, t.len() as i64, None),
        Args::Map(_) => (-2, -1, None),
        Args::One(v) => (-2, -1, Some(v.clone())),
    };
    let is_map = matches!(args, Args::Map(_));
    (
        Ctx {
            args,
            idx,
            len,
            current,
        },
        is_map,
    )
}

/// `bytes % args` with tuple / single-value arguments.
fn run_bytes(template: &[u8], args: Args) -> Result<Vec<u8>, TextError> {
    let (mut ctx, _) = new_ctx(args);
    let mut out = Vec::new();
    for piece in percent::parse_percent_bytes(template) {
        match piece {
            PercentPiece::Literal(t) => out.extend(percent::latin1_to_bytes(&t)),
            PercentPiece::Error {
                key_started,
                stars,
                error,
                ..
            } => {
                if key_started {
                    return Err(percent::format_requires_mapping());
                }
                for _ in 0..stars {
                    ctx.star()?;
                }
                return Err(error);
            }
            PercentPiece::Conversion(spec) => {
                if spec.literal_percent {
                    out.push(b'%');
                    continue;
                }
                if spec.key.is_some() {
                    return Err(percent::format_requires_mapping());
                }
                let w = if spec.width == Some(Count::Star) {
                    Some(ctx.star()?)
                } else {
                    None
                };
                let p = if spec.precision == Some(Count::Star) {
                    Some(ctx.star()?)
                } else {
                    None
                };
                let f = spec.resolve(w.as_ref(), p.as_ref())?;
                let v = ctx.next()?;
                let piece: Vec<u8> = match spec.conv {
                    'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
                        percent::format_percent_int(&to_int_bytes(&v, spec.conv)?, &f).into_bytes()
                    }
                    'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                        let x = match &v {
                            V::Float(x) => *x,
                            V::Int(n) => format_float::bigint_to_f64(n)?,
                            other => {
                                return Err(percent::float_argument_required(type_name(other)));
                            }
                        };
                        percent::format_percent_float(x, &f).into_bytes()
                    }
                    's' | 'b' => match &v {
                        V::Bytes(x) => percent::format_percent_bytes(x, &f),
                        other => return Err(percent::bytes_like_required(type_name(other))),
                    },
                    'r' | 'a' => percent::format_percent_bytes(ascii_of(&v).as_bytes(), &f),
                    'c' => {
                        let byte = match &v {
                            V::Int(n) => percent::percent_byte_from_int(n)?,
                            V::Bytes(x) if x.len() == 1 => x[0],
                            _ => return Err(percent::byte_char_required()),
                        };
                        percent::format_percent_bytes(&[byte], &f)
                    }
                    other => {
                        let byte = u8::try_from(u32::from(other)).unwrap_or(0xff);
                        return Err(percent::unsupported_format_character_bytes(
                            byte, spec.index,
                        ));
                    }
                };
                out.extend(piece);
            }
        }
    }
    if ctx.idx < ctx.len {
        return Err(percent::not_all_converted_bytes());
    }
    Ok(out)
}

fn run(template: &str, args: Args) -> Result<String, TextError> {
    let (idx, len, current) = match &args {
        Args::Tuple(t) => (0, t.len() as i64, None),
        Args::Map(_) => (-2, -1, None),
        Args::One(v) => (-2, -1, Some(v.clone())),
    };
    let is_map = matches!(args, Args::Map(_));
    let mut ctx = Ctx {
        args,
        idx,
        len,
        current,
    };
    let mut out = String::new();
    for piece in percent::parse_percent(template) {
        match piece {
            PercentPiece::Literal(t) => out.push_str(&t),
            PercentPiece::Error {
                key_started,
                key,
                stars,
                error,
            } => {
                if key_started && !is_map {
                    return Err(percent::format_requires_mapping());
                }
                if let Some(k) = key {
                    ctx.lookup(&k)?;
                }
                for _ in 0..stars {
                    ctx.star()?;
                }
                return Err(error);
            }
            PercentPiece::Conversion(spec) => {
                if spec.literal_percent {
                    out.push('%');
                    continue;
                }
                if let Some(k) = &spec.key {
                    ctx.lookup(k)?;
                }
                let w = if spec.width == Some(Count::Star) {
                    Some(ctx.star()?)
                } else {
                    None
                };
                let p = if spec.precision == Some(Count::Star) {
                    Some(ctx.star()?)
                } else {
                    None
                };
                let f = spec.resolve(w.as_ref(), p.as_ref())?;
                let v = ctx.next()?;
                let text = match spec.conv {
                    'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
                        percent::format_percent_int(&to_int(&v, spec.conv)?, &f)
                    }
                    'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                        let x = match &v {
                            V::Float(x) => *x,
                            V::Int(n) => format_float::bigint_to_f64(n)?,
                            other => return Err(percent::real_number_required(type_name(other))),
                        };
                        percent::format_percent_float(x, &f)
                    }
                    's' => percent::format_percent_str(&py_str(&v), &f),
                    'r' => percent::format_percent_str(&py_repr(&v), &f),
                    'a' => percent::format_percent_str(&ascii_of(&v), &f),
                    'c' => {
                        let ch = match &v {
                            V::Int(n) => percent::percent_char_from_int(n)?,
                            V::Str(t) if t.chars().count() == 1 => t.chars().next().unwrap_or(' '),
                            _ => return Err(percent::char_required()),
                        };
                        percent::format_percent_str(&ch.to_string(), &f)
                    }
                    other => return Err(percent::unsupported_format_character(other, spec.index)),
                };
                out.push_str(&text);
            }
        }
    }
    if ctx.idx < ctx.len && !is_map {
        return Err(percent::not_all_converted());
    }
    Ok(out)
}

#[test]
fn percent_matches_cpython() {
    replay("percent", |f, a| {
        if f != "percent" && f != "percent_bytes" {
            return None;
        }
        let args = if let Some(list) = a[1].as_array() {
            Args::Tuple(list.iter().map(val).collect())
        } else if let Some(m) = a[1].get("map") {
            Args::Map(
                m.as_object()
                    .expect("map")
                    .iter()
                    .map(|(k, v)| (k.clone(), val(v)))
                    .collect(),
            )
        } else {
            Args::One(val(&a[1]["one"]))
        };
        if f == "percent_bytes" {
            return Some(run_bytes(&b(&a[0]), args).map(|v| jb(&v)).map_err(err));
        }
        Some(run(s(&a[0]), args).map(|v| json!(v)).map_err(err))
    });
}

/// `ascii(v)`: the repr with non-ASCII escaped (ints/floats are ASCII already).
fn ascii_of(v: &V) -> String {
    match v {
        V::Str(t) => repr::str_ascii(t),
        V::Bytes(x) => repr::bytes_repr(x, "b"),
        other => py_str(other),
    }
}
