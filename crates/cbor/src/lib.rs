//! `cowboy-cbor`: the canonical CBOR encoding of actor values — handler arguments and
//! results, storage values, event payloads — shared by the PVM, the node and the SDKs
//! (`ts/sdk/src/cbor.ts`, `python/cowboy_py/cbor.py` implement the same rules).
//!
//! Invariants: every [`Value`] has exactly one encoding; [`decode`] accepts only that
//! encoding (so `encode(decode(b)) == b` whenever `decode(b)` succeeds) and never panics or
//! allocates more than the input can justify.
//!
//! Rules (RFC 8949 major types):
//! - integers in the shortest head form; beyond 64 bits tag 2/3 with a big-endian
//!   magnitude without leading zeros, at most [`MAX_BIGNUM_BYTES`] (4096 bits);
//! - floats always as float64 (`fb`), NaN only as `7ff8000000000000` — a deliberate departure
//!   from RFC 8949 §4.2.2 "preferred" floats: the bits stay exactly as computed;
//! - text (valid UTF-8) and byte strings; arrays; maps with keys sorted by their encoded
//!   bytes and no duplicates (RFC 8949 §4.2.1); sets as tag 258 over an array sorted the
//!   same way; `false`, `true`, `null`;
//! - refused: indefinite lengths, non-shortest heads, other tags and simple values,
//!   float16/float32, trailing bytes, nesting deeper than [`MAX_DEPTH`].

use std::fmt;

/// Deepest nesting of arrays, maps and sets.
pub const MAX_DEPTH: usize = 64;
/// Largest bignum magnitude in bytes (4096 bits, the PVM's integer cap).
pub const MAX_BIGNUM_BYTES: usize = 512;
const SET_TAG: u64 = 258;
const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A value of the canonical data model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `null` (Python `None`)
    Null,
    /// `true` / `false`
    Bool(bool),
    /// a non-negative integer < 2^64
    Uint(u64),
    /// the negative integer `-1 - n` for `n` < 2^64
    Nint(u64),
    /// a non-negative integer ≥ 2^64: big-endian magnitude, no leading zero byte
    BigUint(Vec<u8>),
    /// the negative integer `-1 - m` for a magnitude `m` ≥ 2^64 (big-endian, no leading zero)
    BigNint(Vec<u8>),
    /// a float64, by its bits (NaN is always [`CANONICAL_NAN`] after [`Value::float`])
    Float(u64),
    /// a UTF-8 text string
    Text(String),
    /// a byte string
    Bytes(Vec<u8>),
    /// an array (Python list or tuple)
    Array(Vec<Value>),
    /// a map; [`encode`] sorts it, [`decode`] returns it sorted
    Map(Vec<(Value, Value)>),
    /// a set (tag 258); [`encode`] sorts it, [`decode`] returns it sorted
    Set(Vec<Value>),
}

impl Value {
    /// A float from its bits, with NaN canonicalised.
    pub fn float(bits: u64) -> Value {
        Value::Float(canonical_float_bits(bits))
    }

    /// An integer from an `i128` (covers every i64 and u64).
    pub fn int(n: i128) -> Value {
        if n >= 0 {
            if n <= u64::MAX as i128 {
                Value::Uint(n as u64)
            } else {
                Value::BigUint(trim(&(n as u128).to_be_bytes()))
            }
        } else {
            let m = -1 - n; // ≥ 0
            if m <= u64::MAX as i128 {
                Value::Nint(m as u64)
            } else {
                Value::BigNint(trim(&(m as u128).to_be_bytes()))
            }
        }
    }
}

fn trim(b: &[u8]) -> Vec<u8> {
    let first = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    b[first..].to_vec()
}

/// Why bytes are not a canonical encoding, or a value cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CborError {
    /// stable rule name, shared with the TypeScript and Python implementations
    pub code: &'static str,
    /// what was wrong
    pub message: String,
    /// byte offset in the input, for decoding errors
    pub offset: Option<usize>,
}

impl CborError {
    fn at(code: &'static str, message: impl Into<String>, offset: usize) -> Self {
        CborError {
            code,
            message: message.into(),
            offset: Some(offset),
        }
    }
    fn new(code: &'static str, message: impl Into<String>) -> Self {
        CborError {
            code,
            message: message.into(),
            offset: None,
        }
    }
}

impl fmt::Display for CborError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{}: {} (at byte {o})", self.code, self.message),
            None => write!(f, "{}: {}", self.code, self.message),
        }
    }
}

impl std::error::Error for CborError {}

fn head(out: &mut Vec<u8>, major: u8, arg: u64) {
    let m = major << 5;
    if arg < 24 {
        out.push(m | arg as u8);
    } else if arg <= 0xff {
        out.extend_from_slice(&[m | 24, arg as u8]);
    } else if arg <= 0xffff {
        out.push(m | 25);
        out.extend_from_slice(&(arg as u16).to_be_bytes());
    } else if arg <= 0xffff_ffff {
        out.push(m | 26);
        out.extend_from_slice(&(arg as u32).to_be_bytes());
    } else {
        out.push(m | 27);
        out.extend_from_slice(&arg.to_be_bytes());
    }
}

/// Encodes `value` canonically.
pub fn encode(value: &Value) -> Result<Vec<u8>, CborError> {
    let mut out = Vec::new();
    write(&mut out, value, 0)?;
    Ok(out)
}

fn check_bignum(mag: &[u8]) -> Result<(), CborError> {
    if mag.len() > MAX_BIGNUM_BYTES {
        return Err(CborError::new("CBOR_TOO_LARGE", "integer over 4096 bits"));
    }
    if mag.first() == Some(&0) || mag.len() <= 8 {
        return Err(CborError::new(
            "CBOR_NOT_ENCODABLE",
            "a bignum magnitude must be ≥ 2^64 without leading zeros",
        ));
    }
    Ok(())
}

fn write(out: &mut Vec<u8>, v: &Value, depth: usize) -> Result<(), CborError> {
    if depth > MAX_DEPTH {
        return Err(CborError::new(
            "CBOR_TOO_DEEP",
            format!("nesting deeper than {MAX_DEPTH}"),
        ));
    }
    match v {
        Value::Null => out.push(0xf6),
        Value::Bool(b) => out.push(if *b { 0xf5 } else { 0xf4 }),
        Value::Uint(n) => head(out, 0, *n),
        Value::Nint(n) => head(out, 1, *n),
        Value::BigUint(m) | Value::BigNint(m) => {
            check_bignum(m)?;
            head(out, 6, if matches!(v, Value::BigUint(_)) { 2 } else { 3 });
            head(out, 2, m.len() as u64);
            out.extend_from_slice(m);
        }
        Value::Float(bits) => {
            out.push(0xfb);
            out.extend_from_slice(&canonical_float_bits(*bits).to_be_bytes());
        }
        Value::Text(s) => {
            head(out, 3, s.len() as u64);
            out.extend_from_slice(s.as_bytes());
        }
        Value::Bytes(b) => {
            head(out, 2, b.len() as u64);
            out.extend_from_slice(b);
        }
        Value::Array(items) => {
            head(out, 4, items.len() as u64);
            for item in items {
                write(out, item, depth + 1)?;
            }
        }
        Value::Map(entries) => {
            let mut encoded = Vec::with_capacity(entries.len());
            for (k, val) in entries {
                let mut kb = Vec::new();
                write(&mut kb, k, depth + 1)?;
                encoded.push((kb, val));
            }
            encoded.sort_by(|a, b| a.0.cmp(&b.0));
            if encoded.windows(2).any(|w| w[0].0 == w[1].0) {
                return Err(CborError::new(
                    "CBOR_DUPLICATE_KEY",
                    "a map has two equal keys",
                ));
            }
            head(out, 5, encoded.len() as u64);
            for (kb, val) in encoded {
                out.extend_from_slice(&kb);
                write(out, val, depth + 1)?;
            }
        }
        Value::Set(items) => {
            let mut encoded = Vec::with_capacity(items.len());
            for item in items {
                let mut b = Vec::new();
                write(&mut b, item, depth + 2)?;
                encoded.push(b);
            }
            encoded.sort();
            if encoded.windows(2).any(|w| w[0] == w[1]) {
                return Err(CborError::new(
                    "CBOR_DUPLICATE_KEY",
                    "duplicate set element",
                ));
            }
            head(out, 6, SET_TAG);
            head(out, 4, encoded.len() as u64);
            for b in encoded {
                out.extend_from_slice(&b);
            }
        }
    }
    Ok(())
}

/// `bits` with any NaN replaced by the canonical NaN.
fn canonical_float_bits(bits: u64) -> u64 {
    let is_nan = (bits >> 52) & 0x7ff == 0x7ff && bits & ((1 << 52) - 1) != 0;
    if is_nan { CANONICAL_NAN } else { bits }
}

struct Input<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], CborError> {
        if n > self.buf.len() - self.pos {
            return Err(CborError::at(
                "CBOR_UNEXPECTED_EOF",
                "input ends early",
                self.pos,
            ));
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// (major, argument, start offset, initial byte), refusing non-shortest and indefinite forms.
    fn head(&mut self) -> Result<(u8, u64, usize, u8), CborError> {
        let start = self.pos;
        let ib = self.take(1)?[0];
        let (major, info) = (ib >> 5, ib & 0x1f);
        if info < 24 {
            return Ok((major, info as u64, start, ib));
        }
        if info == 31 {
            return Err(CborError::at(
                "CBOR_INDEFINITE_LENGTH",
                "indefinite lengths are not canonical",
                start,
            ));
        }
        if info > 27 {
            return Err(CborError::at(
                "CBOR_UNSUPPORTED",
                format!("reserved additional information {info}"),
                start,
            ));
        }
        let size = 1usize << (info - 24);
        let arg = self
            .take(size)?
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | b as u64);
        let min = match size {
            1 => 24,
            2 => 0x100,
            4 => 0x1_0000,
            _ => 0x1_0000_0000,
        };
        if major != 7 && arg < min {
            return Err(CborError::at(
                "CBOR_NON_CANONICAL",
                "argument not in its shortest form",
                start,
            ));
        }
        Ok((major, arg, start, ib))
    }

    fn len(&self, arg: u64, start: usize) -> Result<usize, CborError> {
        if arg > (self.buf.len() - self.pos) as u64 {
            return Err(CborError::at(
                "CBOR_UNEXPECTED_EOF",
                "length exceeds the input",
                start,
            ));
        }
        Ok(arg as usize)
    }
}

/// Decodes exactly one canonical value.
pub fn decode(bytes: &[u8]) -> Result<Value, CborError> {
    let mut input = Input { buf: bytes, pos: 0 };
    let v = read(&mut input, 0)?;
    if input.pos != bytes.len() {
        return Err(CborError::at(
            "CBOR_TRAILING_BYTES",
            "bytes after the value",
            input.pos,
        ));
    }
    Ok(v)
}

/// Reads the elements of a sorted collection (map keys or set elements), checking order.
fn check_order(
    prev: &mut Option<(usize, usize)>,
    buf: &[u8],
    range: (usize, usize),
    what: &str,
) -> Result<(), CborError> {
    if let Some(p) = *prev {
        match buf[p.0..p.1].cmp(&buf[range.0..range.1]) {
            std::cmp::Ordering::Equal => {
                return Err(CborError::at(
                    "CBOR_DUPLICATE_KEY",
                    format!("{what} appears twice"),
                    range.0,
                ));
            }
            std::cmp::Ordering::Greater => {
                return Err(CborError::at(
                    "CBOR_UNSORTED_KEYS",
                    format!("{what}s are not in canonical order"),
                    range.0,
                ));
            }
            std::cmp::Ordering::Less => {}
        }
    }
    *prev = Some(range);
    Ok(())
}

fn read(input: &mut Input<'_>, depth: usize) -> Result<Value, CborError> {
    if depth > MAX_DEPTH {
        return Err(CborError::at(
            "CBOR_TOO_DEEP",
            format!("nesting deeper than {MAX_DEPTH}"),
            input.pos,
        ));
    }
    let (major, arg, start, ib) = input.head()?;
    Ok(match major {
        0 => Value::Uint(arg),
        1 => Value::Nint(arg),
        2 => Value::Bytes(input.take(input.len(arg, start)?)?.to_vec()),
        3 => {
            let raw = input.take(input.len(arg, start)?)?;
            match std::str::from_utf8(raw) {
                Ok(s) => Value::Text(s.to_owned()),
                Err(_) => {
                    return Err(CborError::at(
                        "CBOR_INVALID_UTF8",
                        "text is not valid UTF-8",
                        start,
                    ));
                }
            }
        }
        4 => {
            let n = input.len(arg, start)?;
            let mut items = Vec::with_capacity(n.min(1024));
            for _ in 0..n {
                items.push(read(input, depth + 1)?);
            }
            Value::Array(items)
        }
        5 => {
            let n = input.len(arg, start)?;
            let mut entries = Vec::with_capacity(n.min(1024));
            let mut prev = None;
            for _ in 0..n {
                let key_start = input.pos;
                let key = read(input, depth + 1)?;
                check_order(&mut prev, input.buf, (key_start, input.pos), "map key")?;
                entries.push((key, read(input, depth + 1)?));
            }
            Value::Map(entries)
        }
        6 => match arg {
            2 | 3 => {
                let (m2, n, s2, _) = input.head()?;
                if m2 != 2 {
                    return Err(CborError::at(
                        "CBOR_UNSUPPORTED",
                        "a bignum tag must wrap a byte string",
                        s2,
                    ));
                }
                let n = input.len(n, s2)?;
                if n > MAX_BIGNUM_BYTES {
                    return Err(CborError::at(
                        "CBOR_TOO_LARGE",
                        "integer over 4096 bits",
                        s2,
                    ));
                }
                let mag = input.take(n)?;
                if mag.first().is_none_or(|&b| b == 0) {
                    return Err(CborError::at(
                        "CBOR_NON_CANONICAL",
                        "bignum with leading zeros",
                        s2,
                    ));
                }
                if mag.len() <= 8 {
                    return Err(CborError::at(
                        "CBOR_NON_CANONICAL",
                        "bignum for a value that fits 64 bits",
                        start,
                    ));
                }
                if arg == 2 {
                    Value::BigUint(mag.to_vec())
                } else {
                    Value::BigNint(mag.to_vec())
                }
            }
            SET_TAG => {
                let (m2, n, s2, _) = input.head()?;
                if m2 != 4 {
                    return Err(CborError::at(
                        "CBOR_UNSUPPORTED",
                        "a set tag must wrap an array",
                        s2,
                    ));
                }
                let n = input.len(n, s2)?;
                let mut items = Vec::with_capacity(n.min(1024));
                let mut prev = None;
                for _ in 0..n {
                    let s = input.pos;
                    items.push(read(input, depth + 1)?);
                    check_order(&mut prev, input.buf, (s, input.pos), "set element")?;
                }
                Value::Set(items)
            }
            other => {
                return Err(CborError::at(
                    "CBOR_UNSUPPORTED",
                    format!("tag {other} is not part of the canonical encoding"),
                    start,
                ));
            }
        },
        _ => match ib {
            0xf4 => Value::Bool(false),
            0xf5 => Value::Bool(true),
            0xf6 => Value::Null,
            0xfb => {
                let is_nan = (arg >> 52) & 0x7ff == 0x7ff && arg & ((1 << 52) - 1) != 0;
                if is_nan && arg != CANONICAL_NAN {
                    return Err(CborError::at(
                        "CBOR_NON_CANONICAL",
                        "NaN must be 7ff8000000000000",
                        start,
                    ));
                }
                Value::Float(arg)
            }
            _ => {
                return Err(CborError::at(
                    "CBOR_UNSUPPORTED",
                    format!("simple value or float form 0x{ib:02x} is not canonical"),
                    start,
                ));
            }
        },
    })
}
