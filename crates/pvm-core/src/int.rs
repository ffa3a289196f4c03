//! Python int arithmetic: i64 fast path, `num-bigint` beyond, capped at 4096 bits.

use crate::value::Value;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// Maximum bit length of any int (CIP-3).
pub const MAX_BITS: u64 = 4096;

/// Errors from integer arithmetic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntError {
    /// Result exceeds 4096 bits.
    Overflow,
    /// Division or modulo by zero.
    ZeroDivision(&'static str),
    /// Negative shift count.
    NegativeShift,
}

/// Normalise a BigInt into a Value (Int when it fits).
pub fn from_big(b: BigInt) -> Value {
    match b.to_i64() {
        Some(v) => Value::Int(v),
        None => Value::BigInt(Rc::new(b)),
    }
}

/// Checked normalisation (errors beyond 4096 bits).
pub fn checked(b: BigInt) -> Result<Value, IntError> {
    if b.bits() > MAX_BITS {
        return Err(IntError::Overflow);
    }
    Ok(from_big(b))
}

/// Int value to BigInt.
pub fn to_big(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(*b as i64)),
        Value::BigInt(b) => Some((**b).clone()),
        _ => None,
    }
}

/// Bit length of an int value.
pub fn bits(v: &Value) -> u64 {
    match v {
        Value::Int(i) => 64 - i.unsigned_abs().leading_zeros() as u64,
        Value::Bool(b) => *b as u64,
        Value::BigInt(b) => b.bits(),
        _ => 0,
    }
}

/// `a + b`
pub fn add(a: &BigInt, b: &BigInt) -> Result<Value, IntError> {
    checked(a + b)
}
/// `a - b`
pub fn sub(a: &BigInt, b: &BigInt) -> Result<Value, IntError> {
    checked(a - b)
}
/// `a * b` (bit length estimated before multiplying).
pub fn mul(a: &BigInt, b: &BigInt) -> Result<Value, IntError> {
    if a.bits() + b.bits() > MAX_BITS + 1 {
        return Err(IntError::Overflow);
    }
    checked(a * b)
}
/// Python floor division.
pub fn floordiv(a: &BigInt, b: &BigInt) -> Result<Value, IntError> {
    if b.is_zero() {
        return Err(IntError::ZeroDivision("integer division or modulo by zero"));
    }
    checked(a.div_floor(b))
}
/// Python modulo (sign of divisor).
pub fn modulo(a: &BigInt, b: &BigInt) -> Result<Value, IntError> {
    if b.is_zero() {
        return Err(IntError::ZeroDivision("integer modulo by zero"));
    }
    checked(a.mod_floor(b))
}
/// `a ** b` for b >= 0 (result size estimated first).
pub fn pow(a: &BigInt, b: u64) -> Result<Value, IntError> {
    let abits = a.bits();
    if abits > 1 || (abits == 1 && a.is_negative()) {
        // |a| >= 2 : result has more than (abits-1)*b bits.
        if (abits.saturating_sub(1)).saturating_mul(b) > MAX_BITS {
            return Err(IntError::Overflow);
        }
    }
    if a.is_zero() || a.is_one() || b == 0 {
        return checked(num_traits::pow::pow(a.clone(), b as usize));
    }
    if b > MAX_BITS {
        // |a| >= 2 or a == -1
        if a.magnitude().is_one() {
            return Ok(Value::Int(if b.is_multiple_of(2) { 1 } else { -1 }));
        }
        return Err(IntError::Overflow);
    }
    checked(num_traits::pow::pow(a.clone(), b as usize))
}
/// `a << n`
pub fn lshift(a: &BigInt, n: &BigInt) -> Result<Value, IntError> {
    if n.is_negative() {
        return Err(IntError::NegativeShift);
    }
    if a.is_zero() {
        return Ok(Value::Int(0));
    }
    let n = n.to_u64().ok_or(IntError::Overflow)?;
    if a.bits().saturating_add(n) > MAX_BITS {
        return Err(IntError::Overflow);
    }
    checked(a << (n as usize))
}
/// `a >> n`
pub fn rshift(a: &BigInt, n: &BigInt) -> Result<Value, IntError> {
    if n.is_negative() {
        return Err(IntError::NegativeShift);
    }
    let n = match n.to_u64() {
        Some(n) if n < MAX_BITS + 64 => n,
        _ => return Ok(Value::Int(if a.is_negative() { -1 } else { 0 })),
    };
    // Python >> floors.
    checked(a >> (n as usize))
}
/// Python int hash (mod 2^61 - 1, -1 maps to -2).
pub fn hash_big(b: &BigInt) -> i64 {
    const P: u64 = (1u64 << 61) - 1;
    let m = b.magnitude();
    let p = num_bigint::BigUint::from(P);
    let r = (m % p).to_u64().unwrap_or(0) as i64;
    let h = if b.sign() == Sign::Minus { -r } else { r };
    if h == -1 { -2 } else { h }
}
/// Python int hash of an i64.
pub fn hash_i64(i: i64) -> i64 {
    const P: i64 = (1i64 << 61) - 1;
    let h = if i >= 0 {
        i % P
    } else {
        -((-(i as i128) % P as i128) as i64)
    };
    if h == -1 { -2 } else { h }
}
/// Python `str(i)` of an i64, written at the end of `buf` (no allocation): the text of
/// `i.to_string()`.
pub fn decimal_i64(buf: &mut [u8; 24], i: i64) -> &str {
    let mut n = i.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    // only ASCII digits and '-' were written
    std::str::from_utf8(&buf[at..]).unwrap_or("")
}

/// Python `str(int)` via pvm-text's conversion.
pub fn to_decimal(b: &BigInt) -> String {
    b.to_str_radix(10)
}
/// Compare magnitudes for ordering.
pub fn cmp(a: &BigInt, b: &BigInt) -> std::cmp::Ordering {
    a.cmp(b)
}
/// True if zero.
pub fn is_zero(b: &BigInt) -> bool {
    b.is_zero()
}
/// Absolute value.
pub fn abs(b: &BigInt) -> BigInt {
    b.abs()
}
/// One.
pub fn one() -> BigInt {
    BigInt::one()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow_checks_size_before_computing() {
        assert_eq!(pow(&BigInt::from(2), 4095).map(|v| bits(&v)), Ok(4096));
        assert!(matches!(
            pow(&BigInt::from(2), 4096),
            Err(IntError::Overflow)
        ));
        assert!(matches!(
            pow(&BigInt::from(3), u64::MAX),
            Err(IntError::Overflow)
        ));
        assert!(matches!(
            pow(&BigInt::from(-1), u64::MAX),
            Ok(Value::Int(-1))
        ));
    }

    #[test]
    fn shifts_and_division_follow_python() {
        assert!(matches!(
            lshift(&BigInt::from(1), &BigInt::from(5000)),
            Err(IntError::Overflow)
        ));
        assert!(matches!(
            rshift(&BigInt::from(-5), &BigInt::from(1)),
            Ok(Value::Int(-3))
        ));
        assert!(matches!(
            floordiv(&BigInt::from(-7), &BigInt::from(2)),
            Ok(Value::Int(-4))
        ));
        assert!(matches!(
            modulo(&BigInt::from(-7), &BigInt::from(2)),
            Ok(Value::Int(1))
        ));
        assert!(matches!(
            floordiv(&BigInt::from(1), &BigInt::from(0)),
            Err(IntError::ZeroDivision(_))
        ));
    }

    #[test]
    fn decimal_i64_matches_to_string() {
        let mut buf = [0u8; 24];
        for i in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            1234567890,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            assert_eq!(decimal_i64(&mut buf, i), i.to_string());
        }
    }

    #[test]
    fn hash_matches_cpython() {
        assert_eq!(hash_i64(-1), -2);
        assert_eq!(hash_i64((1 << 61) - 1), 0);
        assert_eq!(hash_big(&(BigInt::from(1) << 61)), 1);
    }
}
