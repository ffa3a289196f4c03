//! Deterministic IEEE-754 binary64 for the PVM.
//!
//! Every operation in this crate is implemented with integer arithmetic only: no hardware
//! floating-point instruction is ever executed, so every validator computes bit-identical
//! results on every platform. The crate provides:
//!
//! * [`F64`]: a binary64 value stored as its raw bits, with correctly rounded
//!   (round-half-even) `+ - * /` and `sqrt`, conversions and comparisons;
//! * CPython 3.11 float semantics: `//`, `%`, `divmod`, `**`, `round`, `hash`, `repr`,
//!   `float(str)`, `format(x, spec)`, `float.hex()`, `as_integer_ratio()`;
//! * [`math`]: a deterministic implementation of CPython's `math` module.
//!
//! NaN handling: every NaN *produced* by an operation is the canonical quiet NaN
//! `0x7ff8000000000000` ([`F64::NAN`]). NaN inputs are accepted with any payload.

mod decimal;
mod ext;
pub mod math;
mod pyops;
mod soft;

use core::fmt;

/// A Python-level float error. The payload is CPython's exact message text.
///
/// Mapping to Python exceptions (done by the PVM core):
/// * [`FloatError::ZeroDivision`] -> `ZeroDivisionError`
/// * [`FloatError::Overflow`] -> `OverflowError`
/// * [`FloatError::Domain`] -> `ValueError`
/// * [`FloatError::InvalidConversion`] -> `ValueError`
/// * [`FloatError::ComplexResult`] -> the operation would produce a complex number in CPython
///   (e.g. `(-8.0) ** (1/3)`); the PVM has no complex type and should raise `ValueError`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloatError {
    /// `ZeroDivisionError(msg)`.
    ZeroDivision(&'static str),
    /// `OverflowError(msg)`.
    Overflow(&'static str),
    /// `ValueError(msg)` from a math-domain violation.
    Domain(&'static str),
    /// CPython would return a complex number.
    ComplexResult,
    /// `ValueError(msg)` from a conversion (e.g. NaN to int).
    InvalidConversion(&'static str),
}

impl FloatError {
    /// CPython's message text for this error.
    pub fn message(&self) -> &'static str {
        match self {
            FloatError::ZeroDivision(m)
            | FloatError::Overflow(m)
            | FloatError::Domain(m)
            | FloatError::InvalidConversion(m) => m,
            FloatError::ComplexResult => "complex result not supported",
        }
    }
}

impl fmt::Display for FloatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for FloatError {}

/// An IEEE-754 binary64 value, stored as its raw bit pattern.
///
/// Invariants: any bit pattern is a valid value. `PartialEq`/`Eq`/`Hash` are *bitwise*
/// identity (so `-0.0 != 0.0` and `NAN == NAN` under `==` of this type); use
/// [`F64::eq`]/[`F64::lt`]/… for IEEE comparisons.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct F64(pub u64);

impl fmt::Debug for F64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F64({} /* {:#018x} */)", self.repr(), self.0)
    }
}

impl fmt::Display for F64 {
    /// Same text as Python's `str(x)` / `repr(x)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.repr())
    }
}

impl F64 {
    /// `0.0`.
    pub const ZERO: F64 = F64(0);
    /// `-0.0`.
    pub const NEG_ZERO: F64 = F64(soft::SIGN);
    /// `1.0`.
    pub const ONE: F64 = F64(0x3ff0_0000_0000_0000);
    /// The canonical quiet NaN `0x7ff8000000000000`.
    pub const NAN: F64 = F64(soft::CANON_NAN);
    /// `+inf`.
    pub const INFINITY: F64 = F64(soft::EXP_MASK);
    /// `-inf`.
    pub const NEG_INFINITY: F64 = F64(soft::EXP_MASK | soft::SIGN);
    /// Largest finite value, `1.7976931348623157e308`.
    pub const MAX: F64 = F64(0x7fef_ffff_ffff_ffff);
    /// Smallest positive normal value, `2.2250738585072014e-308`.
    pub const MIN_POSITIVE: F64 = F64(0x0010_0000_0000_0000);
    /// Machine epsilon `2**-52`.
    pub const EPSILON: F64 = F64(0x3cb0_0000_0000_0000);

    /// Wraps raw bits (any pattern, NaN payloads are kept).
    #[inline]
    pub const fn from_bits(bits: u64) -> F64 {
        F64(bits)
    }

    /// The raw bits.
    #[inline]
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// True for any NaN.
    #[inline]
    pub const fn is_nan(self) -> bool {
        (self.0 & !soft::SIGN) > soft::EXP_MASK
    }

    /// True for `+inf` and `-inf`.
    #[inline]
    pub const fn is_infinite(self) -> bool {
        (self.0 & !soft::SIGN) == soft::EXP_MASK
    }

    /// True for everything but infinities and NaNs.
    #[inline]
    pub const fn is_finite(self) -> bool {
        (self.0 & soft::EXP_MASK) != soft::EXP_MASK
    }

    /// True if the sign bit is set (including `-0.0` and negative NaNs).
    #[inline]
    pub const fn is_sign_negative(self) -> bool {
        self.0 & soft::SIGN != 0
    }

    /// True for `0.0` and `-0.0`.
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.0 & !soft::SIGN == 0
    }

    /// Python's `float.is_integer()`: finite and integral.
    #[inline]
    pub fn is_integer(self) -> bool {
        self.is_finite() && self.trunc().0 == self.0
    }

    /// `-x` (flips the sign bit; NaN stays NaN, canonicalised).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> F64 {
        if self.is_nan() {
            F64::NAN
        } else {
            F64(self.0 ^ soft::SIGN)
        }
    }

    /// `abs(x)` (clears the sign bit; NaN canonicalised).
    #[inline]
    pub fn abs(self) -> F64 {
        if self.is_nan() {
            F64::NAN
        } else {
            F64(self.0 & !soft::SIGN)
        }
    }

    /// `copysign(self, sign)`: magnitude of `self`, sign of `sign`. A NaN `self` gives the
    /// canonical (positive) NaN: NaN signs are never produced.
    #[inline]
    pub fn copysign(self, sign: F64) -> F64 {
        if self.is_nan() {
            return F64::NAN;
        }
        F64((self.0 & !soft::SIGN) | (sign.0 & soft::SIGN))
    }

    /// IEEE `a + b`, round-half-even.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, rhs: F64) -> F64 {
        F64(soft::add(self.0, rhs.0))
    }

    /// IEEE `a - b`, round-half-even.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, rhs: F64) -> F64 {
        F64(soft::add(self.0, rhs.0 ^ soft::SIGN))
    }

    /// IEEE `a * b`, round-half-even.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: F64) -> F64 {
        F64(soft::mul(self.0, rhs.0))
    }

    /// IEEE `a / b`, round-half-even; division by zero gives ±inf or NaN (no error).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn div(self, rhs: F64) -> F64 {
        F64(soft::div(self.0, rhs.0))
    }

    /// IEEE square root, correctly rounded; `sqrt(-0.0) == -0.0`, negative -> NaN.
    #[inline]
    pub fn sqrt(self) -> F64 {
        F64(soft::sqrt(self.0))
    }

    /// Exact conversion from `i64` with round-half-even.
    #[inline]
    pub fn from_i64(v: i64) -> F64 {
        F64(soft::from_i64(v))
    }

    /// Conversion from `u64` with round-half-even.
    #[inline]
    pub fn from_u64(v: u64) -> F64 {
        F64(soft::from_u64(false, v, 0))
    }

    /// `Some(i)` only if `self` is integral and `i64::MIN <= self <= i64::MAX`.
    pub fn to_i64_exact(self) -> Option<i64> {
        soft::to_i64_exact(self.0)
    }

    /// IEEE equality (`NaN != NaN`, `0.0 == -0.0`).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn eq(self, rhs: F64) -> bool {
        if self.is_nan() || rhs.is_nan() {
            return false;
        }
        self.0 == rhs.0 || (self.0 | rhs.0) & !soft::SIGN == 0
    }

    /// IEEE inequality (`NaN != x` is true).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn ne(self, rhs: F64) -> bool {
        !self.eq(rhs)
    }

    /// IEEE `<` (false when either is NaN).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn lt(self, rhs: F64) -> bool {
        if self.is_nan() || rhs.is_nan() {
            return false;
        }
        soft::total_key(self.0) < soft::total_key(rhs.0)
    }

    /// IEEE `<=` (false when either is NaN).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn le(self, rhs: F64) -> bool {
        if self.is_nan() || rhs.is_nan() {
            return false;
        }
        soft::total_key(self.0) <= soft::total_key(rhs.0)
    }

    /// IEEE `>` (false when either is NaN).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn gt(self, rhs: F64) -> bool {
        rhs.lt(self)
    }

    /// IEEE `>=` (false when either is NaN).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn ge(self, rhs: F64) -> bool {
        rhs.le(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates() {
        assert!(F64::NAN.is_nan());
        assert!(!F64::INFINITY.is_nan());
        assert!(F64::NEG_INFINITY.is_infinite());
        assert!(F64::NEG_ZERO.is_sign_negative());
        assert!(F64::NEG_ZERO.eq(F64::ZERO));
        assert!(!F64::NAN.eq(F64::NAN));
        assert!(F64::NAN.ne(F64::NAN));
        assert!(F64::NEG_INFINITY.lt(F64::NEG_ZERO));
        assert!(!F64::NEG_ZERO.lt(F64::ZERO));
        assert!(F64::NEG_ZERO.le(F64::ZERO));
        assert!(F64::from_i64(3).is_integer());
        assert!(!F64::INFINITY.is_integer());
    }

    #[test]
    fn errors_have_cpython_messages() {
        assert_eq!(
            FloatError::ZeroDivision("float division by zero").to_string(),
            "float division by zero"
        );
    }
}
