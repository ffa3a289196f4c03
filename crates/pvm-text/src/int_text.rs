//! `int` <-> text: `int(str, base)`, `int(bytes, base)`, `str(int)`, `hex`/`oct`/`bin`.

use crate::error::{TextError, TextResult};
use crate::repr::{bytes_repr, str_repr};
use crate::unicode;
use num_bigint::{BigInt, Sign};

/// CPython 3.11's default `sys.get_int_max_str_digits()`: decimal (non power-of-two base)
/// conversions of more digits than this raise `ValueError`.
pub const INT_MAX_STR_DIGITS: usize = 4300;

fn check_base(base: u32) -> TextResult<()> {
    if base == 0 || (2..=36).contains(&base) {
        Ok(())
    } else {
        Err(TextError::value("int() base must be >= 2 and <= 36, or 0"))
    }
}

/// CPython's `%.200R`: the repr truncated to 200 code points.
fn truncated_repr(repr: String) -> String {
    match repr.char_indices().nth(200) {
        Some((b, _)) => repr[..b].to_owned(),
        None => repr,
    }
}

fn invalid_literal(base: u32, repr: String) -> TextError {
    TextError::value(format!(
        "invalid literal for int() with base {base}: {}",
        truncated_repr(repr)
    ))
}

fn digit_value(b: u8) -> u32 {
    match b {
        b'0'..=b'9' => u32::from(b - b'0'),
        b'a'..=b'z' => u32::from(b - b'a') + 10,
        b'A'..=b'Z' => u32::from(b - b'A') + 10,
        _ => 99,
    }
}

/// Outcome of scanning an ASCII literal: a value, an invalid literal, or another error.
enum Scan {
    Ok(BigInt),
    Invalid,
    Err(TextError),
}

/// CPython `PyLong_FromString` on an ASCII buffer (already NUL-free), `base` validated.
fn scan_ascii(s: &[u8], base: u32) -> Scan {
    let is_ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c');
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while is_ws(at(i)) {
        i += 1;
    }
    let mut negative = false;
    if at(i) == b'+' {
        i += 1;
    } else if at(i) == b'-' {
        negative = true;
        i += 1;
    }
    let mut base = base;
    let mut error_if_nonzero = false;
    if base == 0 {
        base = if at(i) != b'0' {
            10
        } else {
            match at(i + 1) {
                b'x' | b'X' => 16,
                b'o' | b'O' => 8,
                b'b' | b'B' => 2,
                _ => {
                    error_if_nonzero = true;
                    10
                }
            }
        };
    }
    if at(i) == b'0' {
        let p = at(i + 1).to_ascii_lowercase();
        if (base == 16 && p == b'x') || (base == 8 && p == b'o') || (base == 2 && p == b'b') {
            i += 2;
            if at(i) == b'_' {
                i += 1;
            }
        }
    }
    if at(i) == b'_' {
        return Scan::Invalid;
    }
    let start = i;
    let mut digits = Vec::new();
    let mut prev = 0u8;
    while i < s.len() && (digit_value(s[i]) < base || s[i] == b'_') {
        if s[i] == b'_' {
            if prev == b'_' {
                return Scan::Invalid;
            }
        } else {
            digits.push(s[i]);
        }
        prev = s[i];
        i += 1;
    }
    if prev == b'_' {
        return Scan::Invalid;
    }
    if i == start {
        return Scan::Invalid;
    }
    if !base.is_power_of_two() && digits.len() > INT_MAX_STR_DIGITS {
        return Scan::Err(TextError::value(format!(
            "Exceeds the limit ({INT_MAX_STR_DIGITS} digits) for integer string conversion: value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
            digits.len()
        )));
    }
    let Some(mut value) = BigInt::parse_bytes(&digits, base) else {
        return Scan::Invalid;
    };
    if error_if_nonzero && value.sign() != Sign::NoSign {
        return Scan::Invalid;
    }
    while is_ws(at(i)) {
        i += 1;
    }
    if i != s.len() {
        return Scan::Invalid;
    }
    if negative {
        value = -value;
    }
    Scan::Ok(value)
}

/// `int(s, base)` for a `str` argument (base 0 or 2..=36; `int(s)` is base 10).
///
/// Mirrors `PyLong_FromUnicodeObject`: non-ASCII whitespace becomes a space and Unicode
/// decimal digits become ASCII digits first; then leading/trailing ASCII whitespace, a sign,
/// the `0x`/`0o`/`0b` prefix (when the base is 0 or matches; one `_` may follow it),
/// single underscores between digits, base 0 rejecting non-zero numbers with leading zeros,
/// and the 4300-digit limit for non power-of-two bases.
/// Errors: `ValueError("invalid literal for int() with base 10: 'abc'")` (repr cut to 200
/// code points), `ValueError("int() base must be >= 2 and <= 36, or 0")`.
pub fn parse_int(s: &str, base: u32) -> TextResult<BigInt> {
    check_base(base)?;
    let mut ascii = Vec::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            if c == '\0' {
                return Err(invalid_literal(base, str_repr(s)));
            }
            ascii.push(c as u8);
        } else if unicode::is_space(c) {
            ascii.push(b' ');
        } else if let Some(d) = unicode::decimal_value(c) {
            ascii.push(b'0' + d as u8);
        } else {
            return Err(invalid_literal(base, str_repr(s)));
        }
    }
    match scan_ascii(&ascii, base) {
        Scan::Ok(v) => Ok(v),
        Scan::Invalid => Err(invalid_literal(base, str_repr(s))),
        Scan::Err(e) => Err(e),
    }
}

/// `int(b, base)` for a `bytes`/`bytearray` argument (`_PyLong_FromBytes`): ASCII rules only;
/// the error shows the input as a `bytes` repr even for a bytearray.
pub fn parse_int_bytes(b: &[u8], base: u32) -> TextResult<BigInt> {
    check_base(base)?;
    if b.contains(&0) || !b.is_ascii() {
        return Err(invalid_literal(base, bytes_repr(b, "b")));
    }
    match scan_ascii(b, base) {
        Scan::Ok(v) => Ok(v),
        Scan::Invalid => Err(invalid_literal(base, bytes_repr(b, "b"))),
        Scan::Err(e) => Err(e),
    }
}

/// `str(n)` / `repr(n)` for an int. Errors (like CPython) when the result would exceed
/// [`INT_MAX_STR_DIGITS`] digits: `ValueError("Exceeds the limit (4300 digits) for integer
/// string conversion; use sys.set_int_max_str_digits() to increase the limit")`.
pub fn int_to_decimal(n: &BigInt) -> TextResult<String> {
    let s = n.to_str_radix(10);
    let digits = s.len() - usize::from(s.starts_with('-'));
    if digits > INT_MAX_STR_DIGITS {
        return Err(TextError::value(format!(
            "Exceeds the limit ({INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
        )));
    }
    Ok(s)
}

/// `hex(n)` / `oct(n)` / `bin(n)` for `radix` 16 / 8 / 2: `0x1f`, `-0o17`, `0b0`.
/// Any other radix yields digits with no prefix (lowercase letters).
pub fn int_to_prefixed(n: &BigInt, radix: u32) -> String {
    let prefix = match radix {
        16 => "0x",
        8 => "0o",
        2 => "0b",
        _ => "",
    };
    let digits = n.magnitude().to_str_radix(radix.clamp(2, 36));
    let mut out = String::with_capacity(digits.len() + 3);
    if n.sign() == Sign::Minus {
        out.push('-');
    }
    out.push_str(prefix);
    out.push_str(&digits);
    out
}

/// i64 fast path of [`int_to_prefixed`].
pub fn i64_to_prefixed(n: i64, radix: u32) -> String {
    int_to_prefixed(&BigInt::from(n), radix)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str, base: u32) -> Result<String, String> {
        parse_int(s, base)
            .map(|v| v.to_string())
            .map_err(|e| e.message)
    }

    #[test]
    fn parsing() {
        assert_eq!(p(" -1_000 ", 10).unwrap(), "-1000");
        assert_eq!(p("0x_ff", 0).unwrap(), "255");
        assert_eq!(p("0b101", 2).unwrap(), "5");
        assert_eq!(p("000", 0).unwrap(), "0");
        assert_eq!(p("١٢", 10).unwrap(), "12");
        assert_eq!(
            p("010", 0).unwrap_err(),
            "invalid literal for int() with base 0: '010'"
        );
        assert_eq!(
            p("1__0", 10).unwrap_err(),
            "invalid literal for int() with base 10: '1__0'"
        );
        assert!(p("_1", 10).is_err() && p("1_", 10).is_err() && p("", 10).is_err());
        assert!(p("1", 37).is_err());
        assert_eq!(parse_int_bytes(b"z", 36).unwrap(), BigInt::from(35));
    }

    #[test]
    fn printing() {
        assert_eq!(int_to_prefixed(&BigInt::from(-255), 16), "-0xff");
        assert_eq!(i64_to_prefixed(0, 2), "0b0");
        assert_eq!(int_to_decimal(&BigInt::from(-12)).unwrap(), "-12");
    }
}
