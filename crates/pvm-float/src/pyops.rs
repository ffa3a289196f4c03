//! CPython float semantics built on the soft-float kernels: rounding to integers, `//`, `%`,
//! `divmod`, `**`, hashing and int conversions.

use crate::soft::{self, CANON_NAN, EXP_MASK, FRAC_MASK, HIDDEN, SIGN};
use crate::{F64, FloatError};

/// CPython's hash modulus `2**61 - 1`.
const HASH_MODULUS: u64 = (1 << 61) - 1;
/// CPython's `hash(float('inf'))`.
const HASH_INF: i64 = 314_159;

/// C `fmod` on raw bits: exact remainder with the sign of `x`.
pub(crate) fn fmod_bits(x: u64, y: u64) -> u64 {
    let (ax, ay) = (x & !SIGN, y & !SIGN);
    if ax > EXP_MASK || ay > EXP_MASK || ax == EXP_MASK || ay == 0 {
        return CANON_NAN;
    }
    if ay == EXP_MASK || ax == 0 {
        return x;
    }
    let (mx, ex) = soft::unpack_norm(ax);
    let (my, ey) = soft::unpack_norm(ay);
    if ex < ey || (ex == ey && mx < my) {
        return x;
    }
    let mut r = mx % my;
    let mut d = ex - ey;
    while d > 0 && r != 0 {
        let s = d.min(74);
        r = ((u128::from(r) << s) % u128::from(my)) as u64;
        d -= s;
    }
    soft::pack_u64(x & SIGN, r, ey - 1075)
}

impl F64 {
    /// Truncation toward zero (`math.trunc` as a float). NaN is canonicalised.
    #[inline]
    pub fn trunc(self) -> F64 {
        let e = ((self.0 >> 52) & 0x7ff) as i32;
        if e >= 1075 {
            return if self.is_nan() { F64::NAN } else { self };
        }
        if e < 1023 {
            return F64(self.0 & SIGN);
        }
        let mask = (1u64 << (1075 - e)) - 1;
        F64(self.0 & !mask)
    }

    /// Largest integral value `<= self` (`-0.0` stays `-0.0`).
    #[inline]
    pub fn floor(self) -> F64 {
        let t = self.trunc();
        if self.is_sign_negative() && t.0 != self.0 && self.is_finite() {
            t.sub(F64::ONE)
        } else {
            t
        }
    }

    /// Smallest integral value `>= self` (values in `(-1, 0)` give `-0.0`).
    #[inline]
    pub fn ceil(self) -> F64 {
        let t = self.trunc();
        if !self.is_sign_negative() && t.0 != self.0 && self.is_finite() {
            t.add(F64::ONE)
        } else {
            t
        }
    }

    /// Round to the nearest integral value, ties to even (what Python's `round(x)` computes
    /// before converting to int). Keeps the sign of zero; NaN/inf are returned unchanged.
    #[inline]
    pub fn round_half_even(self) -> F64 {
        let e = ((self.0 >> 52) & 0x7ff) as i32;
        if e >= 1075 {
            return if self.is_nan() { F64::NAN } else { self };
        }
        if e < 1022 {
            return F64(self.0 & SIGN);
        }
        let m = (self.0 & FRAC_MASK) | HIDDEN;
        let shift = (1075 - e) as u32; // 1..=53
        let mut q = m >> shift;
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q += 1;
        }
        F64(soft::pack_u64(self.0 & SIGN, q, 0))
    }

    /// Python `x / y`: `ZeroDivisionError("float division by zero")` when `y == 0`.
    #[inline]
    pub fn py_truediv(self, rhs: F64) -> Result<F64, FloatError> {
        if rhs.is_zero() {
            return Err(FloatError::ZeroDivision("float division by zero"));
        }
        Ok(self.div(rhs))
    }

    /// C `fmod(self, rhs)`: exact, sign of `self`; NaN for `fmod(inf, y)` / `fmod(x, 0)`.
    #[inline]
    pub fn fmod(self, rhs: F64) -> F64 {
        F64(fmod_bits(self.0, rhs.0))
    }

    /// CPython `_float_div_mod` (divisor known nonzero).
    fn div_mod_raw(self, w: F64) -> (F64, F64) {
        let v = self;
        let mut m = v.fmod(w);
        let mut div = v.sub(m).div(w);
        if !m.is_zero() {
            if w.lt(F64::ZERO) != m.lt(F64::ZERO) {
                m = m.add(w);
                div = div.sub(F64::ONE);
            }
        } else {
            m = F64::ZERO.copysign(w);
        }
        let floordiv = if !div.is_zero() {
            let mut f = div.floor();
            if div.sub(f).gt(F64(0x3fe0_0000_0000_0000)) {
                f = f.add(F64::ONE);
            }
            f
        } else {
            F64::ZERO.copysign(v.div(w))
        };
        (floordiv, m)
    }

    /// Python `x // y` (CPython `float_floor_div`).
    pub fn py_floordiv(self, rhs: F64) -> Result<F64, FloatError> {
        if rhs.is_zero() {
            return Err(FloatError::ZeroDivision("float floor division by zero"));
        }
        Ok(self.div_mod_raw(rhs).0)
    }

    /// Python `x % y` (CPython `float_rem`): result has the sign of the divisor.
    pub fn py_rem(self, rhs: F64) -> Result<F64, FloatError> {
        if rhs.is_zero() {
            return Err(FloatError::ZeroDivision("float modulo"));
        }
        let mut m = self.fmod(rhs);
        if !m.is_zero() {
            if rhs.lt(F64::ZERO) != m.lt(F64::ZERO) {
                m = m.add(rhs);
            }
        } else {
            m = F64::ZERO.copysign(rhs);
        }
        Ok(m)
    }

    /// Python `divmod(x, y)` (CPython `float_divmod`).
    pub fn py_divmod(self, rhs: F64) -> Result<(F64, F64), FloatError> {
        if rhs.is_zero() {
            return Err(FloatError::ZeroDivision("float divmod()"));
        }
        Ok(self.div_mod_raw(rhs))
    }

    /// True if `self` is an odd integer (finite).
    pub(crate) fn is_odd_integer(self) -> bool {
        if !self.is_finite() {
            return false;
        }
        let e = ((self.0 >> 52) & 0x7ff) as i32;
        if !(1023..=1075).contains(&e) {
            return false; // |x| < 1 or even (>= 2^53)
        }
        let m = (self.0 & FRAC_MASK) | HIDDEN;
        let shift = (1075 - e) as u32;
        if shift == 0 {
            return m & 1 == 1;
        }
        m & ((1u64 << shift) - 1) == 0 && (m >> shift) & 1 == 1
    }

    /// Python `x ** y` for floats (CPython `float_pow`).
    ///
    /// Errors: `ZeroDivision("0.0 cannot be raised to a negative power")`,
    /// `ComplexResult` for a negative base with a non-integral exponent,
    /// `Overflow("(34, 'Numerical result out of range')")` when the result overflows.
    pub fn py_pow(self, w: F64) -> Result<F64, FloatError> {
        let v = self;
        // `x ** 0.5` with the sign bit of `x` clear (+0, positive, +inf, NaN) is `sqrt(x)`: the
        // general path below gives the same value for each (`pow_positive` takes the square
        // root, +0 -> +0, +inf -> +inf, NaN -> NaN), just after more tests.
        if w.0 == 0x3fe0_0000_0000_0000 && !v.is_sign_negative() {
            return Ok(v.sqrt());
        }
        v.py_pow_general(w)
    }

    /// [`F64::py_pow`] without its `x ** 0.5` shortcut.
    fn py_pow_general(self, w: F64) -> Result<F64, FloatError> {
        let v = self;
        if w.is_zero() {
            return Ok(F64::ONE);
        }
        if v.is_nan() {
            return Ok(F64::NAN);
        }
        if w.is_nan() {
            return Ok(if v.0 == F64::ONE.0 {
                F64::ONE
            } else {
                F64::NAN
            });
        }
        if w.is_infinite() {
            let av = v.abs();
            return Ok(if av.0 == F64::ONE.0 {
                F64::ONE
            } else if w.gt(F64::ZERO) == av.gt(F64::ONE) {
                F64::INFINITY
            } else {
                F64::ZERO
            });
        }
        if v.is_infinite() {
            let odd = w.is_odd_integer();
            return Ok(if w.gt(F64::ZERO) {
                if odd { v } else { v.abs() }
            } else if odd {
                F64::ZERO.copysign(v)
            } else {
                F64::ZERO
            });
        }
        if v.is_zero() {
            if w.lt(F64::ZERO) {
                return Err(FloatError::ZeroDivision(
                    "0.0 cannot be raised to a negative power",
                ));
            }
            return Ok(if w.is_odd_integer() { v } else { F64::ZERO });
        }
        let mut base = v;
        let mut negate = false;
        if v.lt(F64::ZERO) {
            if !w.is_integer() {
                return Err(FloatError::ComplexResult);
            }
            base = v.neg();
            negate = w.is_odd_integer();
        }
        if base.0 == F64::ONE.0 {
            return Ok(if negate { F64::ONE.neg() } else { F64::ONE });
        }
        let r = crate::math::pow_positive(base, w);
        if r.is_infinite() {
            return Err(FloatError::Overflow(
                "(34, 'Numerical result out of range')",
            ));
        }
        Ok(if negate { r.neg() } else { r })
    }

    /// CPython `_Py_HashDouble`: `hash(x) == hash(int(x))` for integral `x`, modulus
    /// `2**61 - 1`, `hash(inf) == 314159`, `hash(-1.0) == -2`.
    ///
    /// NaN hashes to 0: CPython 3.10+ hashes NaN by object identity, which the PVM does not
    /// expose; 0 is the deterministic substitute (CPython < 3.10 behaviour).
    pub fn py_hash(self) -> i64 {
        if self.is_nan() {
            return 0;
        }
        if self.is_infinite() {
            return if self.is_sign_negative() {
                -HASH_INF
            } else {
                HASH_INF
            };
        }
        if self.is_zero() {
            return 0;
        }
        let (m, e) = soft::unpack_norm(self.0);
        let k = i64::from(e - 1075); // |x| = m * 2^k
        let x = m % HASH_MODULUS;
        let r = k.rem_euclid(61) as u32;
        // multiply by 2^r modulo 2^61 - 1 (a rotation within 61 bits)
        let mut h = ((u128::from(x) << r) % u128::from(HASH_MODULUS)) as i64;
        if self.is_sign_negative() {
            h = -h;
        }
        if h == -1 { -2 } else { h }
    }

    /// `int(x)` support: `(negative, little-endian u64 limbs of |trunc(x)|)`; limbs are
    /// minimal (empty for zero). Errors: NaN -> `InvalidConversion("cannot convert float NaN
    /// to integer")`, ±inf -> `Overflow("cannot convert float infinity to integer")`.
    pub fn trunc_to_int_parts(self) -> Result<(bool, Vec<u64>), FloatError> {
        if self.is_nan() {
            return Err(FloatError::InvalidConversion(
                "cannot convert float NaN to integer",
            ));
        }
        if self.is_infinite() {
            return Err(FloatError::Overflow(
                "cannot convert float infinity to integer",
            ));
        }
        let neg = self.is_sign_negative();
        let t = self.trunc();
        if t.is_zero() {
            return Ok((false, Vec::new()));
        }
        let (m, e) = soft::unpack_norm(t.0);
        let k = e - 1075;
        Ok((neg, shifted_limbs(m, k)))
    }

    /// Correctly rounded conversion of a Python int given as sign + little-endian u64 limbs.
    /// Error: `Overflow("int too large to convert to float")` when the result would be ±inf.
    pub fn from_bigint_parts(
        negative: bool,
        magnitude_le_limbs: &[u64],
    ) -> Result<F64, FloatError> {
        let mut n = magnitude_le_limbs.len();
        while n > 0 && magnitude_le_limbs[n - 1] == 0 {
            n -= 1;
        }
        let limbs = &magnitude_le_limbs[..n];
        let sign = if negative { SIGN } else { 0 };
        if n == 0 {
            return Ok(F64::ZERO);
        }
        if n == 1 {
            return Ok(F64(soft::pack_u64(sign, limbs[0], 0)));
        }
        if n > 17 {
            return Err(FloatError::Overflow("int too large to convert to float"));
        }
        let top = limbs[n - 1];
        let lz = top.leading_zeros();
        // 128 leading bits, then sticky from the rest
        let t2 = (u128::from(top) << 64) | u128::from(limbs[n - 2]);
        let mut v = if lz == 0 {
            t2
        } else {
            (t2 << lz) | u128::from(if n >= 3 { limbs[n - 3] >> (64 - lz) } else { 0 })
        };
        let mut sticky = false;
        if n >= 3 {
            let low3 = if lz == 0 {
                limbs[n - 3]
            } else {
                limbs[n - 3] << lz
            };
            sticky |= low3 != 0;
            sticky |= limbs[..n - 3].iter().any(|&l| l != 0);
        }
        if sticky {
            v |= 1;
        }
        let exp2 = (64 * (n as i32 - 2)) - lz as i32;
        let r = F64(soft::pack_u128(sign, v, exp2));
        if r.is_infinite() {
            return Err(FloatError::Overflow("int too large to convert to float"));
        }
        Ok(r)
    }

    /// `float.as_integer_ratio()`: `(negative, numerator limbs, denominator limbs)`, reduced,
    /// denominator a power of two, limbs little-endian and minimal (empty for 0).
    /// Errors: inf -> `Overflow("cannot convert Infinity to integer ratio")`,
    /// NaN -> `InvalidConversion("cannot convert NaN to integer ratio")`.
    pub fn as_integer_ratio(self) -> Result<(bool, Vec<u64>, Vec<u64>), FloatError> {
        if self.is_nan() {
            return Err(FloatError::InvalidConversion(
                "cannot convert NaN to integer ratio",
            ));
        }
        if self.is_infinite() {
            return Err(FloatError::Overflow(
                "cannot convert Infinity to integer ratio",
            ));
        }
        if self.is_zero() {
            return Ok((false, Vec::new(), vec![1]));
        }
        let (mut m, e) = soft::unpack_norm(self.0);
        let mut k = e - 1075;
        if k >= 0 {
            return Ok((self.is_sign_negative(), shifted_limbs(m, k), vec![1]));
        }
        let tz = (m.trailing_zeros() as i32).min(-k);
        m >>= tz;
        k += tz;
        Ok((self.is_sign_negative(), vec![m], shifted_limbs(1, -k)))
    }
}

/// Minimal little-endian limbs of `m * 2^k` truncated toward zero (`m != 0`).
fn shifted_limbs(m: u64, k: i32) -> Vec<u64> {
    if k < 0 {
        let v = if -k >= 64 { 0 } else { m >> -k };
        return if v == 0 { Vec::new() } else { vec![v] };
    }
    let k = k as usize;
    let mut out = vec![0u64; k / 64];
    let s = k % 64;
    let wide = u128::from(m) << s;
    out.push(wide as u64);
    let hi = (wide >> 64) as u64;
    if hi != 0 {
        out.push(hi);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(bits_of: u64) -> F64 {
        F64(bits_of)
    }

    #[test]
    fn rounding_functions() {
        let x = F64::from_i64(5).div(F64::from_i64(2)); // 2.5
        assert_eq!(x.round_half_even().0, F64::from_i64(2).0);
        assert_eq!(x.floor().0, F64::from_i64(2).0);
        assert_eq!(x.ceil().0, F64::from_i64(3).0);
        assert_eq!(x.neg().floor().0, F64::from_i64(-3).0);
        assert_eq!(x.neg().trunc().0, F64::from_i64(-2).0);
        let half = f(0x3fe0_0000_0000_0000);
        assert_eq!(half.round_half_even().0, 0);
        assert_eq!(half.neg().ceil().0, SIGN);
    }

    /// The `x ** 0.5` shortcut of `py_pow` gives what the general path gives, for every kind
    /// of operand with the sign bit clear (and negative operands still take the general path).
    #[test]
    fn pow_half_shortcut_matches_general_path() {
        let half = F64(0x3fe0_0000_0000_0000);
        let mut specials = vec![
            0u64,
            1,
            0x000f_ffff_ffff_ffff,
            HIDDEN,
            F64::ONE.0,
            0x4010_0000_0000_0000,
            F64::MAX.0,
            EXP_MASK,
            CANON_NAN,
            EXP_MASK | 1,
            0x7fff_ffff_ffff_ffff,
        ];
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            specials.push(s & !SIGN);
        }
        for bits in specials {
            let x = F64(bits);
            assert_eq!(x.py_pow(half), x.py_pow_general(half), "{bits:#x}");
            let neg = F64(bits | SIGN);
            assert_eq!(neg.py_pow(half), neg.py_pow_general(half), "-{bits:#x}");
        }
    }

    #[test]
    fn hash_matches_ints() {
        for i in [-5i64, -2, -1, 0, 1, 2, 1 << 40, 1 << 61, 1 << 62, 3 << 60] {
            let h = F64::from_i64(i).py_hash();
            let expect = {
                let m = i.unsigned_abs() % HASH_MODULUS;
                let v = if i < 0 { -(m as i64) } else { m as i64 };
                if v == -1 { -2 } else { v }
            };
            assert_eq!(h, expect, "{i}");
        }
        assert_eq!(F64::from_i64(1).div(F64::from_i64(2)).py_hash(), 1 << 60);
    }

    #[test]
    fn int_parts() {
        assert_eq!(
            F64::from_i64(-7).trunc_to_int_parts().unwrap(),
            (true, vec![7])
        );
        let big = F64(0x4530_0000_0000_0000); // 2^84
        assert_eq!(big.trunc_to_int_parts().unwrap(), (false, vec![0, 1 << 20]));
        assert_eq!(
            F64::from_bigint_parts(false, &[0, 1 << 20]).unwrap().0,
            big.0
        );
        assert!(F64::NAN.trunc_to_int_parts().is_err());
        assert!(F64::from_bigint_parts(false, &[u64::MAX; 16]).is_err());
        let r = F64(0x3fc0_0000_0000_0000).as_integer_ratio().unwrap(); // 0.125
        assert_eq!(r, (false, vec![1], vec![8]));
    }
}
