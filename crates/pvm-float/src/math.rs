//! Deterministic implementation of CPython 3.11's `math` module for floats.
//!
//! Every transcendental function is evaluated in 128-bit-mantissa extended precision
//! (argument reduction with exact or 1280-bit constants, then series evaluation) and rounded
//! once to binary64. With well over 50 bits of slack the results are correctly rounded except
//! in astronomically rare cases, so they agree with a correctly rounded libm and are within
//! 1 ulp of CPython's platform libm (see `docs/pvm-float.md` for measured numbers).
//!
//! Errors follow CPython: `ValueError("math domain error")` is [`FloatError::Domain`],
//! `OverflowError("math range error")` is [`FloatError::Overflow`].

use core::cmp::Ordering;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::ext::{self, Ext, HALF, LN2, LN10, ONE, PI, PI_2, TWO, ZERO};
use crate::soft::{self, SIGN};
use crate::{F64, FloatError};

const DOMAIN: FloatError = FloatError::Domain("math domain error");
const RANGE: FloatError = FloatError::Overflow("math range error");

/// `math.pi`.
pub const PI_F64: F64 = F64(0x400921fb54442d18);
/// `math.e`.
pub const E_F64: F64 = F64(0x4005bf0a8b145769);
/// `math.tau`.
pub const TAU_F64: F64 = F64(0x401921fb54442d18);
/// `math.inf`.
pub const INF: F64 = F64::INFINITY;
/// `math.nan`.
pub const NAN: F64 = F64::NAN;

/// `math.pi`.
pub fn pi() -> F64 {
    PI_F64
}
/// `math.e`.
pub fn e() -> F64 {
    E_F64
}
/// `math.tau`.
pub fn tau() -> F64 {
    TAU_F64
}
/// `math.inf`.
pub fn inf() -> F64 {
    INF
}
/// `math.nan`.
pub fn nan() -> F64 {
    NAN
}

#[inline]
fn ext(x: F64) -> Ext {
    Ext::from_bits(x.0)
}

#[inline]
fn out(x: Ext) -> F64 {
    F64(x.to_bits())
}

/// Result of a function that can overflow: inf from finite input is a range error.
fn finish_overflow(r: Ext) -> Result<F64, FloatError> {
    let v = out(r);
    if v.is_infinite() { Err(RANGE) } else { Ok(v) }
}

// ---------------------------------------------------------------------------------------
// Extended-precision kernels
// ---------------------------------------------------------------------------------------

/// `e^x` for `|x| < 2^40`.
fn exp_ext(x: Ext) -> Ext {
    if x.is_zero() {
        return ONE;
    }
    let k = x.mul(ext::INV_LN2).round_i64();
    let r = x.sub(LN2.mul(Ext::from_i64(k)));
    let t = r.ldexp(-8);
    let mut term = ONE;
    let mut sum = ONE;
    for n in 1..=14u64 {
        term = term.mul(t).div_u64(n);
        sum = sum.add(term);
    }
    for _ in 0..8 {
        sum = sum.mul(sum);
    }
    sum.ldexp(k)
}

/// `e^x − 1` with full relative precision for small `|x|` (`|x| < 2^40`).
fn expm1_ext(x: Ext) -> Ext {
    if x.is_zero() {
        return ZERO;
    }
    if x.e >= -1 {
        return exp_ext(x).sub(ONE);
    }
    // expm1(2y) = expm1(y) * (expm1(y) + 2)
    let t = x.ldexp(-8);
    let mut term = t;
    let mut sum = t;
    for n in 2..=14u64 {
        term = term.mul(t).div_u64(n);
        sum = sum.add(term);
    }
    for _ in 0..8 {
        sum = sum.mul(sum.add(TWO));
    }
    sum
}

/// `atanh(s) = s + s^3/3 + s^5/5 + …` for `|s| <= 0.2`.
fn atanh_series(s: Ext) -> Ext {
    if s.is_zero() {
        return ZERO;
    }
    let s2 = s.mul(s);
    let mut p = s;
    let mut sum = s;
    let mut n = 3u64;
    loop {
        p = p.mul(s2);
        let term = p.div_u64(n);
        if term.is_zero() || term.e < s.e - 132 {
            break;
        }
        sum = sum.add(term);
        n += 2;
    }
    sum
}

/// Natural logarithm of `x > 0`.
fn ln_ext(x: Ext) -> Ext {
    let mut e = x.e;
    let mut m = Ext::from_parts(false, x.m, 0);
    if m.m > ext_sqrt2_m() {
        m = m.ldexp(-1);
        e += 1;
    }
    let s = m.sub(ONE).div(m.add(ONE));
    let l = atanh_series(s).ldexp(1);
    if e == 0 {
        l
    } else {
        l.add(LN2.mul(Ext::from_i64(e)))
    }
}

#[inline]
fn ext_sqrt2_m() -> u128 {
    0xb504f333f9de6484597d89b3754abe9f
}

/// `ln(1 + x)` for `x > −1`, with full relative precision for small `|x|`.
fn ln1p_ext(x: Ext) -> Ext {
    if x.is_zero() {
        return ZERO;
    }
    if x.e < -2 {
        let s = x.div(TWO.add(x));
        atanh_series(s).ldexp(1)
    } else {
        ln_ext(ONE.add(x))
    }
}

/// Sine and cosine of `|r| <= π/4` by Taylor series.
fn sin_cos_small(r: Ext) -> (Ext, Ext) {
    let r2 = r.mul(r);
    // sin
    let mut term = r;
    let mut s = r;
    let mut n = 2u64;
    loop {
        term = term.mul(r2).div_u64(n * (n + 1)).neg();
        if term.is_zero() || term.e < r.e - 132 {
            break;
        }
        s = s.add(term);
        n += 2;
    }
    // cos
    let mut term = ONE;
    let mut c = ONE;
    let mut n = 1u64;
    loop {
        term = term.mul(r2).div_u64(n * (n + 1)).neg();
        if term.is_zero() || term.e < -132 {
            break;
        }
        c = c.add(term);
        n += 2;
    }
    (s, c)
}

/// Reduces finite `x` modulo π/2 exactly: returns `(q mod 4, r)` with `x = q·π/2 + r`,
/// `|r| <= π/4` (to 2^-127 relative accuracy).
fn reduce_half_pi(x: F64) -> (u32, Ext) {
    let a = x.abs();
    let ea = ext(a);
    let neg = x.is_sign_negative();
    if ea.cmp_abs(ext::PI_4) != Ordering::Greater {
        return (0, ext(x));
    }
    let (m, e) = soft::unpack_norm(a.0);
    let p = two_over_pi_big() * m; // |x|·2/π ≈ p · 2^(e − 1075 − 1280)
    let sh = (1075 + 1280 - e) as u64;
    let ip = (&p >> sh).iter_u64_digits().next().unwrap_or(0);
    let mut q = (ip & 3) as u32;
    let frac = &p - ((&p >> sh) << sh);
    let fb = frac.bits();
    let mut f = if fb == 0 {
        ZERO
    } else {
        let top = if fb > 128 {
            (&frac >> (fb - 128)).to_u128().unwrap_or(0)
        } else {
            frac.to_u128().unwrap_or(0) << (128 - fb)
        };
        Ext::from_parts(false, top, fb as i64 - 1 - sh as i64)
    };
    if f.cmp_abs(HALF) != Ordering::Less {
        f = f.sub(ONE);
        q = (q + 1) & 3;
    }
    let mut r = f.mul(PI_2);
    if neg {
        r = r.neg();
        q = (4 - q) & 3;
    }
    (q, r)
}

/// `floor(2/π × 2^1280)` as a big integer, built once (a pure function of a constant).
fn two_over_pi_big() -> &'static BigUint {
    static T: std::sync::OnceLock<BigUint> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = BigUint::from(0u32);
        for l in ext::TWO_OVER_PI_1280 {
            t = (t << 64u32) + l;
        }
        t
    })
}

/// `(sin x, cos x)` in extended precision for finite `x`.
fn sin_cos_ext(x: F64) -> (Ext, Ext) {
    let (q, r) = reduce_half_pi(x);
    let (s, c) = sin_cos_small(r);
    match q {
        0 => (s, c),
        1 => (c, s.neg()),
        2 => (s.neg(), c.neg()),
        _ => (c.neg(), s),
    }
}

/// `atan(x)` in extended precision.
fn atan_ext(x: Ext) -> Ext {
    if x.is_zero() {
        return ZERO;
    }
    let neg = x.neg;
    let mut a = x.abs();
    let invert = a.cmp_abs(ONE) == Ordering::Greater;
    if invert {
        a = a.recip();
    }
    // two argument halvings: atan(a) = 2·atan(a / (1 + sqrt(1 + a²)))
    for _ in 0..2 {
        a = a.div(ONE.add(ONE.add(a.mul(a)).sqrt()));
    }
    let a2 = a.mul(a);
    let mut p = a;
    let mut sum = a;
    let mut n = 3u64;
    loop {
        p = p.mul(a2).neg();
        let term = p.div_u64(n);
        if term.is_zero() || term.e < a.e - 132 {
            break;
        }
        sum = sum.add(term);
        n += 2;
    }
    let mut r = sum.ldexp(2);
    if invert {
        r = PI_2.sub(r);
    }
    if neg { r.neg() } else { r }
}

// ---------------------------------------------------------------------------------------
// Powers, exponentials and logarithms
// ---------------------------------------------------------------------------------------

/// Bits of `0.5`.
const HALF_BITS: u64 = 0x3fe0_0000_0000_0000;

/// `x ** y` for finite `x > 0`, `x != 1`, finite nonzero `y` (no error reporting): returns
/// ±inf on overflow and 0 on underflow. Integral `y` with small exact results is computed
/// exactly and correctly rounded.
pub(crate) fn pow_positive(x: F64, y: F64) -> F64 {
    // x ** 0.5 is the square root: both are correctly rounded, so they are the same double
    // (a square root is never within 2^-109 relative of a rounding midpoint, far outside the
    // extended path's error), and the square root is computed exactly.
    if y.0 == HALF_BITS {
        return x.sqrt();
    }
    if let Some(n) = y.to_i64_exact()
        && let Some(v) = pow_int_exact(x, n)
    {
        return v;
    }
    if let Some(v) = pow_dyadic_exact(x, y) {
        return v;
    }
    let lx = ln_ext(ext(x));
    let t = lx.mul(ext(y));
    if t.e > 40 {
        return if t.neg { F64::ZERO } else { F64::INFINITY };
    }
    out(exp_ext(t))
}

/// `x ** (n / 2^j)` when `x` is an exact `2^j`-th power (`j <= 6`): the exact power of the
/// root, correctly rounded (these are the only non-integral exponents whose result can be
/// exactly halfway between two doubles).
fn pow_dyadic_exact(x: F64, y: F64) -> Option<F64> {
    let mut root = x;
    let mut yy = y;
    for _ in 0..6 {
        yy = yy.mul(F64::from_i64(2));
        let r = root.sqrt();
        let er = ext(r);
        if er.mul(er) != ext(root) {
            return None; // irrational root: no halfway cases
        }
        root = r;
        if let Some(n) = yy.to_i64_exact() {
            return pow_int_exact(root, n);
        }
        if !yy.is_finite() {
            return None;
        }
    }
    None
}

/// Exact `x^n` correctly rounded, when the exact power has at most ~2000 bits.
fn pow_int_exact(x: F64, n: i64) -> Option<F64> {
    match n {
        1 => return Some(x),
        2 => return Some(x.mul(x)),
        -1 => return Some(F64::ONE.div(x)),
        _ => {}
    }
    let (m, e) = soft::unpack_norm(x.0);
    let tz = m.trailing_zeros();
    let m = m >> tz;
    let e = i64::from(e) - 1075 + i64::from(tz); // x = m · 2^e, m odd
    let mbits = u64::from(64 - m.leading_zeros());
    let na = n.unsigned_abs();
    if na > 2048 || mbits.saturating_mul(na) > 2100 {
        return None;
    }
    let mut big = BigUint::from(m).pow(na as u32);
    let exp2 = e.checked_mul(n)?;
    if exp2.abs() > 5000 {
        return None;
    }
    if n >= 0 {
        if exp2 >= 0 {
            big <<= exp2 as u64;
            Some(F64(crate::decimal::biguint_to_f64(0, &big)))
        } else {
            let den = BigUint::from(1u32) << ((-exp2) as u64);
            Some(F64(crate::decimal::ratio_to_f64(0, &big, &den)))
        }
    } else {
        // x^n = 2^(-exp2) / big   (exp2 = e·n)
        if exp2 >= 0 {
            let num = BigUint::from(1u32) << (exp2 as u64);
            Some(F64(crate::decimal::ratio_to_f64(0, &num, &big)))
        } else {
            let den = big << ((-exp2) as u64);
            Some(F64(crate::decimal::ratio_to_f64(
                0,
                &BigUint::from(1u32),
                &den,
            )))
        }
    }
}

/// C99 `pow` for finite `x`, `y` (returns NaN / ±inf / ±0 like libm, no error reporting).
fn pow_finite(x: F64, y: F64) -> F64 {
    if y.is_zero() || x.0 == F64::ONE.0 {
        return F64::ONE;
    }
    if x.is_zero() {
        let odd = y.is_odd_integer();
        return if y.lt(F64::ZERO) {
            if odd {
                F64::INFINITY.copysign(x)
            } else {
                F64::INFINITY
            }
        } else if odd {
            x
        } else {
            F64::ZERO
        };
    }
    if x.lt(F64::ZERO) {
        if !y.is_integer() {
            return F64::NAN;
        }
        let r = pow_positive(x.neg(), y);
        return if y.is_odd_integer() { r.neg() } else { r };
    }
    pow_positive(x, y)
}

/// `math.pow(x, y)`.
pub fn pow(x: F64, y: F64) -> Result<F64, FloatError> {
    if !x.is_finite() || !y.is_finite() {
        let r = if x.is_nan() {
            if y.is_zero() { F64::ONE } else { x }
        } else if y.is_nan() {
            if x.0 == F64::ONE.0 { F64::ONE } else { y }
        } else if x.is_infinite() {
            let odd_y = y.is_finite() && fmod_raw(y.abs(), F64::from_i64(2)).0 == F64::ONE.0;
            if y.gt(F64::ZERO) {
                if odd_y { x } else { x.abs() }
            } else if y.is_zero() {
                F64::ONE
            } else if odd_y {
                F64::ZERO.copysign(x)
            } else {
                F64::ZERO
            }
        } else {
            // y infinite
            let ax = x.abs();
            if ax.0 == F64::ONE.0 {
                F64::ONE
            } else if y.gt(F64::ZERO) && ax.gt(F64::ONE) {
                y
            } else if y.lt(F64::ZERO) && ax.lt(F64::ONE) {
                y.neg()
            } else {
                F64::ZERO
            }
        };
        return Ok(if r.is_nan() { F64::NAN } else { r });
    }
    let r = pow_finite(x, y);
    if r.is_nan() {
        return Err(DOMAIN);
    }
    if r.is_infinite() {
        return Err(if x.is_zero() { DOMAIN } else { RANGE });
    }
    Ok(r)
}

/// `math.sqrt(x)`: correctly rounded.
pub fn sqrt(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.lt(F64::ZERO) {
        return Err(DOMAIN);
    }
    Ok(x.sqrt())
}

/// `math.exp(x)`.
pub fn exp(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(if x.is_sign_negative() { F64::ZERO } else { x });
    }
    if x.gt(F64::from_i64(710)) {
        return Err(RANGE);
    }
    if x.lt(F64::from_i64(-746)) {
        return Ok(F64::ZERO);
    }
    finish_overflow(exp_ext(ext(x)))
}

/// `math.exp2(x)` (2 ** x).
pub fn exp2(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(if x.is_sign_negative() { F64::ZERO } else { x });
    }
    if x.ge(F64::from_i64(1024)) {
        return Err(RANGE);
    }
    if x.lt(F64::from_i64(-1080)) {
        return Ok(F64::ZERO);
    }
    if let Some(k) = x.to_i64_exact() {
        return Ok(ldexp(F64::ONE, k).unwrap_or(F64::ZERO));
    }
    finish_overflow(exp_ext(ext(x).mul(LN2)))
}

/// `math.expm1(x)`.
pub fn expm1(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(if x.is_sign_negative() {
            F64::ONE.neg()
        } else {
            x
        });
    }
    if x.gt(F64::from_i64(710)) {
        return Err(RANGE);
    }
    if x.lt(F64::from_i64(-60)) {
        // e^x < 2^-86: rounds to -1 (and is never exactly halfway)
        return Ok(F64::ONE.neg());
    }
    finish_overflow(expm1_ext(ext(x)))
}

/// Shared domain handling for the logarithms: `Ok(None)` means "return x unchanged".
fn log_domain(x: F64) -> Result<Option<F64>, FloatError> {
    if x.is_nan() {
        return Ok(Some(F64::NAN));
    }
    if x.le(F64::ZERO) {
        return Err(DOMAIN);
    }
    if x.is_infinite() {
        return Ok(Some(x));
    }
    Ok(None)
}

/// `math.log(x)` (natural logarithm).
pub fn log(x: F64) -> Result<F64, FloatError> {
    if let Some(v) = log_domain(x)? {
        return Ok(v);
    }
    Ok(out(ln_ext(ext(x))))
}

/// `math.log(x, base)`: CPython computes `log(x) / log(base)` in binary64, so does this.
/// Errors: domain errors of either log; `ZeroDivision("float division by zero")` for base 1.
pub fn log_base(x: F64, base: F64) -> Result<F64, FloatError> {
    let num = log(x)?;
    let den = log(base)?;
    num.py_truediv(den)
}

/// `math.log2(x)`.
pub fn log2(x: F64) -> Result<F64, FloatError> {
    if let Some(v) = log_domain(x)? {
        return Ok(v);
    }
    let ex = ext(x);
    let (m, k) = (Ext::from_parts(false, ex.m, 0), ex.e);
    let frac = ln_ext(m).mul(ext::INV_LN2);
    Ok(out(Ext::from_i64(k).add(frac)))
}

/// `math.log10(x)`.
pub fn log10(x: F64) -> Result<F64, FloatError> {
    if let Some(v) = log_domain(x)? {
        return Ok(v);
    }
    Ok(out(ln_ext(ext(x)).div(LN10)))
}

/// `math.log1p(x)`.
pub fn log1p(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.le(F64::ONE.neg()) {
        return Err(DOMAIN);
    }
    if x.is_infinite() {
        return Ok(x);
    }
    if x.is_zero() {
        return Ok(x);
    }
    Ok(out(ln1p_ext(ext(x))))
}

/// Which logarithm [`log_int`] computes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LogKind {
    /// `math.log`
    Natural,
    /// `math.log2`
    Base2,
    /// `math.log10`
    Base10,
}

fn log_kind(x: F64, kind: LogKind) -> Result<F64, FloatError> {
    match kind {
        LogKind::Natural => log(x),
        LogKind::Base2 => log2(x),
        LogKind::Base10 => log10(x),
    }
}

/// `math.log`/`log2`/`log10` of a Python int given as sign + little-endian limbs, following
/// CPython's `loghelper`: ints that fit a float are converted first; larger ints use
/// `func(m) + func(2.0) * e` with `m, e = frexp(int)`. Error: `math domain error` for `<= 0`.
pub fn log_int(
    negative: bool,
    magnitude_le_limbs: &[u64],
    kind: LogKind,
) -> Result<F64, FloatError> {
    let mut n = magnitude_le_limbs.len();
    while n > 0 && magnitude_le_limbs[n - 1] == 0 {
        n -= 1;
    }
    if n == 0 || negative {
        return Err(DOMAIN);
    }
    if let Ok(x) = F64::from_bigint_parts(false, &magnitude_le_limbs[..n]) {
        return log_kind(x, kind);
    }
    // frexp of a huge int: mantissa rounded (half-even) to 53 bits in [0.5, 1)
    let limbs = &magnitude_le_limbs[..n];
    let bits = 64 * n as i64 - i64::from(limbs[n - 1].leading_zeros());
    let x = F64::from_bigint_parts(false, &shift_right_limbs_sticky(limbs, bits - 64))
        .unwrap_or(F64::ONE);
    // x ≈ int / 2^(bits-64), in [2^63, 2^64]; scale to [0.5, 1]
    let mut m = ldexp(x, -64)?;
    let mut e = bits;
    if m.0 == F64::ONE.0 {
        m = F64(0x3fe0_0000_0000_0000);
        e += 1;
    }
    let fm = log_kind(m, kind)?;
    let f2 = log_kind(F64::from_i64(2), kind)?;
    Ok(fm.add(f2.mul(F64::from_i64(e))))
}

/// `limbs >> sh` with the shifted-out bits OR-ed into bit 0 (keeps correct rounding).
fn shift_right_limbs_sticky(limbs: &[u64], sh: i64) -> Vec<u64> {
    let sh = sh.max(0) as usize;
    let (ls, bs) = (sh / 64, (sh % 64) as u32);
    let mut sticky = limbs[..ls.min(limbs.len())].iter().any(|&l| l != 0);
    let mut out = Vec::with_capacity(limbs.len().saturating_sub(ls));
    for i in ls..limbs.len() {
        let lo = limbs[i] >> bs;
        let hi = if bs > 0 && i + 1 < limbs.len() {
            limbs[i + 1] << (64 - bs)
        } else {
            0
        };
        out.push(lo | hi);
    }
    if bs > 0 && ls < limbs.len() {
        sticky |= limbs[ls] & ((1u64 << bs) - 1) != 0;
    }
    if sticky && !out.is_empty() {
        out[0] |= 1;
    }
    out
}

/// `math.dist(p, q)`: Euclidean distance (correctly rounded norm of the float differences).
/// Error: `Domain("both points must have the same number of dimensions")`.
pub fn dist(p: &[F64], q: &[F64]) -> Result<F64, FloatError> {
    if p.len() != q.len() {
        return Err(FloatError::Domain(
            "both points must have the same number of dimensions",
        ));
    }
    let diffs: Vec<F64> = p.iter().zip(q).map(|(a, b)| a.sub(*b).abs()).collect();
    hypot_n(&diffs)
}

// ---------------------------------------------------------------------------------------
// Trigonometry
// ---------------------------------------------------------------------------------------

fn trig_domain(x: F64) -> Result<Option<F64>, FloatError> {
    if x.is_nan() {
        return Ok(Some(F64::NAN));
    }
    if x.is_infinite() {
        return Err(DOMAIN);
    }
    if x.is_zero() {
        return Ok(Some(x));
    }
    Ok(None)
}

/// `math.sin(x)`.
pub fn sin(x: F64) -> Result<F64, FloatError> {
    if let Some(v) = trig_domain(x)? {
        return Ok(v);
    }
    Ok(out(sin_cos_ext(x).0))
}

/// `math.cos(x)`.
pub fn cos(x: F64) -> Result<F64, FloatError> {
    if let Some(v) = trig_domain(x)? {
        return Ok(if v.is_zero() { F64::ONE } else { v });
    }
    Ok(out(sin_cos_ext(x).1))
}

/// `math.tan(x)`.
pub fn tan(x: F64) -> Result<F64, FloatError> {
    if let Some(v) = trig_domain(x)? {
        return Ok(v);
    }
    let (s, c) = sin_cos_ext(x);
    Ok(out(s.div(c)))
}

/// `math.asin(x)`.
pub fn asin(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.abs().gt(F64::ONE) {
        return Err(DOMAIN);
    }
    if x.is_zero() {
        return Ok(x);
    }
    let a = ext(x);
    if x.abs().0 == F64::ONE.0 {
        return Ok(out(if x.is_sign_negative() {
            PI_2.neg()
        } else {
            PI_2
        }));
    }
    let d = ONE.sub(a).mul(ONE.add(a)).sqrt();
    Ok(out(atan_ext(a.div(d))))
}

/// `math.acos(x)`.
pub fn acos(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.abs().gt(F64::ONE) {
        return Err(DOMAIN);
    }
    if x.0 == F64::ONE.0 {
        return Ok(F64::ZERO);
    }
    if x.0 == F64::ONE.neg().0 {
        return Ok(out(PI));
    }
    let a = ext(x);
    let t = ONE.sub(a).div(ONE.add(a)).sqrt();
    Ok(out(atan_ext(t).ldexp(1)))
}

/// `math.atan(x)`.
pub fn atan(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(out(if x.is_sign_negative() {
            PI_2.neg()
        } else {
            PI_2
        }));
    }
    if x.is_zero() {
        return Ok(x);
    }
    Ok(out(atan_ext(ext(x))))
}

/// `math.atan2(y, x)` with CPython's special cases.
pub fn atan2(y: F64, x: F64) -> Result<F64, FloatError> {
    if x.is_nan() || y.is_nan() {
        return Ok(F64::NAN);
    }
    let sign_y = |v: Ext| if y.is_sign_negative() { v.neg() } else { v };
    if y.is_infinite() {
        if x.is_infinite() {
            return Ok(out(sign_y(if x.is_sign_negative() {
                PI.mul(Ext::from_i64(3)).ldexp(-2)
            } else {
                ext::PI_4
            })));
        }
        return Ok(out(sign_y(PI_2)));
    }
    if x.is_infinite() || y.is_zero() {
        return Ok(if x.is_sign_negative() {
            out(sign_y(PI))
        } else {
            F64::ZERO.copysign(y)
        });
    }
    let (ay, ax) = (ext(y.abs()), ext(x.abs()));
    let mut a = if ax.is_zero() {
        PI_2
    } else if ay.cmp_abs(ax) != Ordering::Greater {
        atan_ext(ay.div(ax))
    } else {
        PI_2.sub(atan_ext(ax.div(ay)))
    };
    if x.is_sign_negative() {
        a = PI.sub(a);
    }
    Ok(out(sign_y(a)))
}

// ---------------------------------------------------------------------------------------
// Hyperbolic functions
// ---------------------------------------------------------------------------------------

/// `math.sinh(x)`.
pub fn sinh(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() || x.is_infinite() || x.is_zero() {
        return Ok(if x.is_nan() { F64::NAN } else { x });
    }
    let a = ext(x.abs());
    if x.abs().gt(F64::from_i64(711)) {
        return Err(RANGE);
    }
    let r = if a.e < 0 {
        // Taylor series: x + x^3/3! + ...
        let a2 = a.mul(a);
        let mut term = a;
        let mut s = a;
        let mut n = 2u64;
        loop {
            term = term.mul(a2).div_u64(n * (n + 1));
            if term.is_zero() || term.e < a.e - 132 {
                break;
            }
            s = s.add(term);
            n += 2;
        }
        s
    } else {
        let ea = exp_ext(a);
        ea.sub(ea.recip()).ldexp(-1)
    };
    let r = if x.is_sign_negative() { r.neg() } else { r };
    finish_overflow(r)
}

/// `math.cosh(x)`.
pub fn cosh(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(F64::INFINITY);
    }
    if x.abs().gt(F64::from_i64(711)) {
        return Err(RANGE);
    }
    let ea = exp_ext(ext(x.abs()));
    finish_overflow(ea.add(ea.recip()).ldexp(-1))
}

/// `math.tanh(x)`.
pub fn tanh(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() || x.is_zero() {
        return Ok(if x.is_nan() { F64::NAN } else { x });
    }
    if x.abs().gt(F64::from_i64(40)) {
        return Ok(F64::ONE.copysign(x));
    }
    let a = ext(x.abs()).ldexp(1);
    let em = expm1_ext(a);
    let r = em.div(em.add(TWO));
    Ok(out(if x.is_sign_negative() { r.neg() } else { r }))
}

/// `math.asinh(x)`.
pub fn asinh(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() || x.is_infinite() || x.is_zero() {
        return Ok(if x.is_nan() { F64::NAN } else { x });
    }
    let a = ext(x.abs());
    let a2 = a.mul(a);
    let u = a.add(a2.div(ONE.add(ONE.add(a2).sqrt())));
    let r = ln1p_ext(u);
    Ok(out(if x.is_sign_negative() { r.neg() } else { r }))
}

/// `math.acosh(x)`.
pub fn acosh(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.lt(F64::ONE) {
        return Err(DOMAIN);
    }
    if x.is_infinite() {
        return Ok(x);
    }
    let t = ext(x).sub(ONE);
    let r = ln1p_ext(t.add(t.mul(t.add(TWO)).sqrt()));
    Ok(out(r))
}

/// `math.atanh(x)`.
pub fn atanh(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.abs().ge(F64::ONE) {
        return Err(DOMAIN);
    }
    if x.is_zero() {
        return Ok(x);
    }
    let a = ext(x.abs());
    let r = ln1p_ext(a.ldexp(1).div(ONE.sub(a))).ldexp(-1);
    Ok(out(if x.is_sign_negative() { r.neg() } else { r }))
}

// ---------------------------------------------------------------------------------------
// Exact helpers
// ---------------------------------------------------------------------------------------

/// `math.hypot(x, y)`: correctly rounded `sqrt(x² + y²)` computed exactly.
pub fn hypot(x: F64, y: F64) -> Result<F64, FloatError> {
    hypot_n(&[x, y])
}

/// `math.hypot(*coords)` for any number of coordinates (correctly rounded Euclidean norm).
/// Any infinity gives `inf` (even with NaNs), otherwise any NaN gives NaN.
pub fn hypot_n(coords: &[F64]) -> Result<F64, FloatError> {
    if coords.iter().any(|c| c.is_infinite()) {
        return Ok(F64::INFINITY);
    }
    if coords.iter().any(|c| c.is_nan()) {
        return Ok(F64::NAN);
    }
    let nz: Vec<(u64, i32)> = coords
        .iter()
        .filter(|c| !c.is_zero())
        .map(|c| soft::unpack_norm(c.abs().0))
        .collect();
    if nz.is_empty() {
        return Ok(F64::ZERO);
    }
    if nz.len() == 1 {
        return Ok(F64(soft::pack_u64(0, nz[0].0, nz[0].1 - 1075)));
    }
    // exact sum of squares: Σ m_i² · 2^(2 e_i − 2150), scaled to the smallest exponent
    let emin = nz.iter().map(|p| p.1).min().unwrap_or(0);
    let mut sum = BigUint::from(0u32);
    for &(m, e) in &nz {
        sum += BigUint::from(u128::from(m) * u128::from(m)) << (2 * (e - emin)) as u64;
    }
    // value² = sum · 2^(2 emin − 2150); make the scale even and get ~64+ root bits
    let bits = sum.bits() as i64;
    let mut shift = 140 - bits; // target ≥ 140 bits before the root
    if shift & 1 != 0 {
        shift += 1;
    }
    let scaled = if shift >= 0 {
        sum << (shift as u64)
    } else {
        sum >> ((-shift) as u64)
    };
    let lost = shift < 0; // bits dropped (only when the sum is huge relative to 2^140)
    let root = scaled.sqrt();
    let exact = !lost && &root * &root == scaled;
    let r = root.to_u128().unwrap_or(u128::MAX) | u128::from(!exact);
    // value = root · 2^((2 emin − 2150 − shift) / 2)
    let exp2 = (2 * i64::from(emin) - 2150 - shift) / 2;
    let v = F64(soft::pack_u128(0, r, exp2 as i32));
    if v.is_infinite() {
        return Err(RANGE);
    }
    Ok(v)
}

fn fmod_raw(x: F64, y: F64) -> F64 {
    x.fmod(y)
}

/// `math.fmod(x, y)`: exact.
pub fn fmod(x: F64, y: F64) -> Result<F64, FloatError> {
    if x.is_nan() || y.is_nan() {
        return Ok(F64::NAN);
    }
    if y.is_infinite() && x.is_finite() {
        return Ok(x);
    }
    if x.is_infinite() || y.is_zero() {
        return Err(DOMAIN);
    }
    Ok(x.fmod(y))
}

/// `math.remainder(x, y)`: IEEE remainder (exact, ties to even quotient).
pub fn remainder(x: F64, y: F64) -> Result<F64, FloatError> {
    if x.is_nan() || y.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() || y.is_zero() {
        return Err(DOMAIN);
    }
    if y.is_infinite() {
        return Ok(x);
    }
    let ay = y.abs();
    let m = x.abs().fmod(ay); // in [0, |y|)
    // r = m or m − |y|, whichever is nearer; tie -> even quotient
    let c = ext(m).ldexp(1).cmp_abs(ext(ay));
    let r = match c {
        Ordering::Less => m,
        Ordering::Greater => m.sub(ay),
        Ordering::Equal => {
            // quotient parity: q = (|x| − m)/|y|; use fmod(|x|, 2|y|) to decide
            let two_y = ay.mul(F64::from_i64(2));
            let m2 = if two_y.is_infinite() {
                x.abs()
            } else {
                x.abs().fmod(two_y)
            };
            if m2.eq(m) { m } else { m.sub(ay) }
        }
    };
    Ok(if x.is_sign_negative() { r.neg() } else { r })
}

/// `math.copysign(x, y)` (NaN magnitudes are canonicalised).
pub fn copysign(x: F64, y: F64) -> Result<F64, FloatError> {
    Ok(x.copysign(y))
}

/// `math.fabs(x)`.
pub fn fabs(x: F64) -> Result<F64, FloatError> {
    Ok(x.abs())
}

/// `math.frexp(x)`: `(m, e)` with `0.5 <= |m| < 1`, `x = m·2^e`; zero/inf/nan give `(x, 0)`.
pub fn frexp(x: F64) -> Result<(F64, i64), FloatError> {
    if x.is_zero() || !x.is_finite() {
        return Ok((if x.is_nan() { F64::NAN } else { x }, 0));
    }
    let (m, e) = soft::unpack_norm(x.0 & !SIGN);
    let mant = F64((x.0 & SIGN) | (0x3fe << 52) | (m & soft::FRAC_MASK));
    Ok((mant, i64::from(e) - 1022))
}

/// `math.ldexp(x, i)`: correctly rounded `x·2^i`; `OverflowError("math range error")` on
/// overflow. The PVM core should clamp huge Python ints into `i64` before calling.
pub fn ldexp(x: F64, i: i64) -> Result<F64, FloatError> {
    if x.is_zero() || !x.is_finite() {
        return Ok(if x.is_nan() { F64::NAN } else { x });
    }
    let (m, e) = soft::unpack_norm(x.0 & !SIGN);
    let k = (i64::from(e) - 1075).saturating_add(i).clamp(-5000, 5000) as i32;
    let r = F64(soft::pack_u64(x.0 & SIGN, m, k));
    if r.is_infinite() {
        return Err(RANGE);
    }
    Ok(r)
}

/// `math.modf(x)`: `(fractional part, integral part)`, both with the sign of `x`.
pub fn modf(x: F64) -> Result<(F64, F64), FloatError> {
    if x.is_nan() {
        return Ok((F64::NAN, F64::NAN));
    }
    if x.is_infinite() {
        return Ok((F64::ZERO.copysign(x), x));
    }
    let i = x.trunc();
    let f = x.sub(i).copysign(x);
    Ok((f, i))
}

/// `math.floor(x)` as a float; the core converts to int (and raises for inf/nan).
pub fn floor(x: F64) -> Result<F64, FloatError> {
    Ok(x.floor())
}

/// `math.ceil(x)` as a float; the core converts to int (and raises for inf/nan).
pub fn ceil(x: F64) -> Result<F64, FloatError> {
    Ok(x.ceil())
}

/// `math.trunc(x)` as a float; the core converts to int.
pub fn trunc(x: F64) -> Result<F64, FloatError> {
    Ok(x.trunc())
}

/// `math.isfinite(x)`.
pub fn isfinite(x: F64) -> bool {
    x.is_finite()
}

/// `math.isinf(x)`.
pub fn isinf(x: F64) -> bool {
    x.is_infinite()
}

/// `math.isnan(x)`.
pub fn isnan(x: F64) -> bool {
    x.is_nan()
}

/// `math.isclose(a, b, rel_tol=..., abs_tol=...)`; default tolerances are `1e-09` and `0.0`
/// (see [`default_rel_tol`]). Error: `Domain("tolerances must be non-negative")`.
pub fn isclose(a: F64, b: F64, rel_tol: F64, abs_tol: F64) -> Result<bool, FloatError> {
    if rel_tol.lt(F64::ZERO) || abs_tol.lt(F64::ZERO) {
        return Err(FloatError::Domain("tolerances must be non-negative"));
    }
    if a.eq(b) {
        return Ok(true);
    }
    if a.is_infinite() || b.is_infinite() {
        return Ok(false);
    }
    let diff = b.sub(a).abs();
    Ok(diff.le(rel_tol.mul(b).abs()) || diff.le(rel_tol.mul(a).abs()) || diff.le(abs_tol))
}

/// The default `rel_tol` of `math.isclose`, `1e-09`.
pub fn default_rel_tol() -> F64 {
    F64(0x3e11_2e0b_e826_d695)
}

/// `math.degrees(x)`: `x * (180 / pi)` with CPython's rounded constant.
pub fn degrees(x: F64) -> Result<F64, FloatError> {
    let rad_to_deg = F64::from_i64(180).div(PI_F64);
    Ok(x.mul(rad_to_deg))
}

/// `math.radians(x)`: `x * (pi / 180)` with CPython's rounded constant.
pub fn radians(x: F64) -> Result<F64, FloatError> {
    let deg_to_rad = PI_F64.div(F64::from_i64(180));
    Ok(x.mul(deg_to_rad))
}

/// `math.nextafter(x, y)`.
pub fn nextafter(x: F64, y: F64) -> Result<F64, FloatError> {
    if x.is_nan() || y.is_nan() {
        return Ok(F64::NAN);
    }
    if x.eq(y) {
        return Ok(y);
    }
    if x.is_zero() {
        return Ok(F64(1).copysign(y));
    }
    let up = x.lt(y) != x.is_sign_negative();
    Ok(F64(if up { x.0 + 1 } else { x.0 - 1 }))
}

/// `math.ulp(x)`.
pub fn ulp(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    let x = x.abs();
    if x.is_infinite() {
        return Ok(x);
    }
    if x.0 == F64::MAX.0 {
        return Ok(x.sub(F64(x.0 - 1)));
    }
    Ok(F64(x.0 + 1).sub(x))
}

/// `math.cbrt(x)` (new in 3.11).
pub fn cbrt(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() || x.is_infinite() || x.is_zero() {
        return Ok(if x.is_nan() { F64::NAN } else { x });
    }
    let a = ext(x.abs());
    // cube root via exp(ln(a)/3), refined by one Newton step y -= (y³ − a)/(3y²)
    let y = exp_ext(ln_ext(a).div_u64(3));
    let y = y.sub(y.mul(y).mul(y).sub(a).div(y.mul(y).mul_u64(3)));
    Ok(out(if x.is_sign_negative() { y.neg() } else { y }))
}

/// `math.fsum(values)`: correctly rounded sum (exact accumulation).
/// Errors: `Overflow("intermediate overflow in fsum")`, `Domain("-inf + inf in fsum")`.
pub fn fsum(values: &[F64]) -> Result<F64, FloatError> {
    let mut special_sum = F64::ZERO;
    let mut inf_sum = F64::ZERO;
    let mut pos = BigUint::from(0u32);
    let mut negs = BigUint::from(0u32);
    let mut any_nonzero = false;
    for &v in values {
        if !v.is_finite() {
            if v.is_infinite() {
                inf_sum = inf_sum.add(v);
            }
            special_sum = special_sum.add(v);
            continue;
        }
        if v.is_zero() {
            continue;
        }
        any_nonzero = true;
        // |v| = m · 2^(max(E,1) − 1075) = (m << (max(E,1) − 1)) · 2^−1074
        let be = ((v.0 >> 52) & 0x7ff) as u32;
        let m = (v.0 & soft::FRAC_MASK) | if be != 0 { soft::HIDDEN } else { 0 };
        let t = BigUint::from(m) << (be.max(1) - 1);
        if v.is_sign_negative() {
            negs += t
        } else {
            pos += t
        }
    }
    if !special_sum.is_zero() || special_sum.is_nan() {
        if inf_sum.is_nan() {
            return Err(FloatError::Domain("-inf + inf in fsum"));
        }
        return Ok(special_sum);
    }
    if !any_nonzero {
        return Ok(F64::ZERO);
    }
    let (sign, mag) = match pos.cmp(&negs) {
        Ordering::Less => (SIGN, negs - pos),
        _ => (0, pos - negs),
    };
    let den = BigUint::from(1u32) << 1074u32;
    let r = F64(crate::decimal::ratio_to_f64(sign, &mag, &den));
    if r.is_infinite() {
        return Err(FloatError::Overflow("intermediate overflow in fsum"));
    }
    Ok(r)
}

// ---------------------------------------------------------------------------------------
// Special functions
// ---------------------------------------------------------------------------------------

/// `erf(x)` for finite `|x| < 6` by the positive series
/// `erf(x) = 2/√π · e^(−x²) · Σ 2^n x^(2n+1) / (1·3·…·(2n+1))`.
fn erf_ext(a: Ext) -> Ext {
    if a.is_zero() {
        return ZERO;
    }
    let a2 = a.mul(a);
    let two_a2 = a2.ldexp(1);
    let mut term = a;
    let mut sum = a;
    let mut n = 1u64;
    loop {
        term = term.mul(two_a2).div_u64(2 * n + 1);
        sum = sum.add(term);
        if term.is_zero() || (term.e < sum.e - 132 && n as i64 > 2 * (a2.e.max(0) + 1)) {
            break;
        }
        n += 1;
        if n > 400 {
            break;
        }
    }
    sum.mul(exp_ext(a2.neg())).mul(ext::TWO_OVER_SQRT_PI)
}

/// `erfc(x)` for `x >= 5` by the continued fraction
/// `erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`.
fn erfc_cf(a: Ext) -> Ext {
    let mut f = a;
    let mut k = 160u64;
    while k >= 1 {
        f = a.add(Ext::from_i64(k as i64).ldexp(-1).div(f));
        k -= 1;
    }
    exp_ext(a.mul(a).neg()).mul(ext::INV_SQRT_PI).div(f)
}

/// `math.erf(x)`.
pub fn erf(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() || x.is_zero() {
        return Ok(if x.is_nan() { F64::NAN } else { x });
    }
    if x.abs().ge(F64::from_i64(6)) {
        return Ok(F64::ONE.copysign(x));
    }
    let r = erf_ext(ext(x.abs()));
    Ok(out(if x.is_sign_negative() { r.neg() } else { r }))
}

/// `math.erfc(x)`.
pub fn erfc(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(if x.is_sign_negative() {
            F64::from_i64(2)
        } else {
            F64::ZERO
        });
    }
    if x.ge(F64::from_i64(28)) {
        return Ok(F64::ZERO);
    }
    if x.le(F64::from_i64(-6)) {
        return Ok(F64::from_i64(2));
    }
    let a = ext(x.abs());
    let r = if x.is_sign_negative() {
        ONE.add(erf_ext(a))
    } else if x.lt(F64::from_i64(5)) {
        ONE.sub(erf_ext(a))
    } else {
        erfc_cf(a)
    };
    Ok(out(r))
}

/// Bernoulli numbers `B_2k` for `k = 1..=25` as exact fractions.
const BERNOULLI: [(i128, u64); 25] = [
    (1, 6),
    (-1, 30),
    (1, 42),
    (-1, 30),
    (5, 66),
    (-691, 2730),
    (7, 6),
    (-3617, 510),
    (43867, 798),
    (-174611, 330),
    (854513, 138),
    (-236364091, 2730),
    (8553103, 6),
    (-23749461029, 870),
    (8615841276005, 14322),
    (-7709321041217, 510),
    (2577687858367, 6),
    (-26315271553053477373, 1919190),
    (2929993913841559, 6),
    (-261082718496449122051, 13530),
    (1520097643918070802691, 1806),
    (-27833269579301024235023, 690),
    (596451111593912163277961, 282),
    (-5609403368997817686249127547, 46410),
    (495057205241079648212477525, 66),
];

fn ext_from_i128(v: i128) -> Ext {
    let mag = v.unsigned_abs();
    if mag == 0 {
        return ZERO;
    }
    let lz = mag.leading_zeros();
    Ext::from_parts(v < 0, mag << lz, 127 - i64::from(lz))
}

/// `ln Γ(y)` for `y >= 30` by Stirling's series.
fn lgamma_stirling(y: Ext) -> Ext {
    let ln_y = ln_ext(y);
    let mut r = y.sub(HALF).mul(ln_y).sub(y).add(ext::LN_SQRT_2PI);
    let inv = y.recip();
    let inv2 = inv.mul(inv);
    let mut p = inv; // y^-(2k-1)
    for (k, &(num, den)) in BERNOULLI.iter().enumerate() {
        let k = k as u64 + 1;
        let c = ext_from_i128(num).div_u64(den).div_u64(2 * k * (2 * k - 1));
        let term = c.mul(p);
        if term.is_zero() || term.e < r.e - 140 {
            break;
        }
        r = r.add(term);
        p = p.mul(inv2);
    }
    r
}

/// `|sin(π x)|` for finite non-integral `x`, with exact reduction.
fn abs_sin_pi(x: F64) -> Ext {
    let (_, f) = ext(x).split_floor(); // f in (0, 1)
    let g = if f.cmp_abs(HALF) == Ordering::Greater {
        ONE.sub(f)
    } else {
        f
    }; // (0, 0.5]
    let quarter = Ext::from_parts(false, 1u128 << 127, -2);
    if g.cmp_abs(quarter) == Ordering::Greater {
        sin_cos_small(HALF.sub(g).mul(PI)).1
    } else {
        sin_cos_small(g.mul(PI)).0
    }
}

/// `math.gamma(x)`.
pub fn gamma(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return if x.is_sign_negative() {
            Err(DOMAIN)
        } else {
            Ok(x)
        };
    }
    if x.is_integer() && x.le(F64::ZERO) {
        return Err(DOMAIN);
    }
    if x.gt(F64(0x406573fae561f647)) {
        // > 171.62434: overflows
        return Err(RANGE);
    }
    if x.lt(F64::from_i64(-190)) {
        // |Γ(x)| < 1e-340: signed zero, negative when floor(x) is odd
        let fl = x.floor();
        let odd = fl.fmod(F64::from_i64(2)).ne(F64::ZERO);
        return Ok(if odd { F64::NEG_ZERO } else { F64::ZERO });
    }
    let xe = ext(x);
    let thirty = F64::from_i64(30);
    let r = if x.ge(thirty) {
        exp_ext(lgamma_stirling(xe))
    } else {
        // Γ(x) = Γ(x + n) / (x (x+1) … (x+n−1))
        let n = thirty.sub(x).ceil().to_i64_exact().unwrap_or(0).max(0);
        let mut prod = ONE;
        for i in 0..n {
            prod = prod.mul(xe.add(Ext::from_i64(i)));
        }
        let y = xe.add(Ext::from_i64(n));
        exp_ext(lgamma_stirling(y)).div(prod)
    };
    finish_overflow(r)
}

/// `math.lgamma(x)`.
pub fn lgamma(x: F64) -> Result<F64, FloatError> {
    if x.is_nan() {
        return Ok(F64::NAN);
    }
    if x.is_infinite() {
        return Ok(F64::INFINITY);
    }
    if x.is_integer() {
        if x.le(F64::ZERO) {
            return Err(DOMAIN);
        }
        if x.0 == F64::ONE.0 || x.0 == F64::from_i64(2).0 {
            return Ok(F64::ZERO);
        }
    }
    let xe = ext(x);
    let thirty = F64::from_i64(30);
    let r = if x.ge(thirty) {
        lgamma_stirling(xe)
    } else if x.gt(F64::ZERO) {
        let n = thirty.sub(x).ceil().to_i64_exact().unwrap_or(0).max(0);
        let mut prod = ONE;
        for i in 0..n {
            prod = prod.mul(xe.add(Ext::from_i64(i)));
        }
        lgamma_stirling(xe.add(Ext::from_i64(n))).sub(ln_ext(prod))
    } else if x.gt(F64::from_i64(-30)) {
        let n = thirty.sub(x).ceil().to_i64_exact().unwrap_or(0).max(0);
        let mut prod = ONE;
        for i in 0..n {
            prod = prod.mul(xe.add(Ext::from_i64(i)));
        }
        lgamma_stirling(xe.add(Ext::from_i64(n))).sub(ln_ext(prod.abs()))
    } else {
        // reflection: ln Γ(x) = ln(π / |sin(πx)|) − ln Γ(1 − x)
        let s = abs_sin_pi(x);
        ln_ext(PI.div(s)).sub(lgamma_stirling(ONE.sub(xe)))
    };
    finish_overflow(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: i64) -> F64 {
        F64::from_i64(v)
    }

    /// The `x ** 0.5` fast path gives the same double as the general extended-precision path
    /// (spread over the whole exponent range, with irrational and exact roots).
    #[test]
    fn pow_half_is_sqrt() {
        let mut bits: u64 = 0x0010_0000_0000_0001;
        let mut checked = 0;
        while bits < 0x7fef_ffff_ffff_ffff {
            let x = F64(bits);
            if x.0 != F64::ONE.0 {
                let general = pow_dyadic_exact(x, F64(HALF_BITS))
                    .unwrap_or_else(|| out(exp_ext(ln_ext(ext(x)).mul(ext(F64(HALF_BITS))))));
                assert_eq!(pow_positive(x, F64(HALF_BITS)).0, general.0, "{bits:#x}");
                checked += 1;
            }
            bits = bits.wrapping_add(0x0003_3c5a_1d2e_9f17);
        }
        for v in [2i64, 3, 4, 9, 10, 1 << 40, 12345678901] {
            assert_eq!(pow_positive(f(v), F64(HALF_BITS)).0, f(v).sqrt().0);
        }
        assert!(checked > 5000);
    }

    #[test]
    fn exact_cases() {
        assert_eq!(exp(F64::ZERO).unwrap().0, F64::ONE.0);
        assert_eq!(log(F64::ONE).unwrap().0, 0);
        assert_eq!(log2(f(1024)).unwrap().0, f(10).0);
        assert_eq!(log10(f(1000)).unwrap().0, f(3).0);
        assert_eq!(pow(f(2), f(10)).unwrap().0, f(1024).0);
        assert_eq!(pow(f(2), f(-2)).unwrap().repr(), "0.25");
        assert_eq!(sqrt(f(16)).unwrap().0, f(4).0);
        assert_eq!(hypot(f(3), f(4)).unwrap().0, f(5).0);
        assert_eq!(gamma(f(5)).unwrap().0, f(24).0);
        assert_eq!(lgamma(f(1)).unwrap().0, 0);
        assert_eq!(fmod(f(7), f(3)).unwrap().0, F64::ONE.0);
        assert_eq!(frexp(f(8)).unwrap(), (F64(0x3fe0_0000_0000_0000), 4));
        assert_eq!(ldexp(F64::ONE, 3).unwrap().0, f(8).0);
        assert_eq!(cbrt(f(27)).unwrap().0, f(3).0);
        assert_eq!(log_base(f(8), f(2)).unwrap().repr(), "3.0");
        assert_eq!(
            log_base(f(1000), f(10)).unwrap().repr(),
            "2.9999999999999996"
        );
        // CPython: math.log(10**400) == 921.0340371976182, log10 -> 400.0, log2(2**2000) -> 2000.0
        let mut ten400 = vec![1u64];
        for _ in 0..400 {
            let mut carry = 0u128;
            for l in ten400.iter_mut() {
                let v = u128::from(*l) * 10 + carry;
                *l = v as u64;
                carry = v >> 64;
            }
            if carry != 0 {
                ten400.push(carry as u64);
            }
        }
        assert_eq!(
            log_int(false, &ten400, LogKind::Natural).unwrap().repr(),
            "921.0340371976182"
        );
        assert_eq!(
            log_int(false, &ten400, LogKind::Base10).unwrap().repr(),
            "400.0"
        );
        let mut p2000 = vec![0u64; 31];
        p2000.push(1 << 16);
        assert_eq!(
            log_int(false, &p2000, LogKind::Base2).unwrap().repr(),
            "2000.0"
        );
        assert_eq!(log_int(false, &[8], LogKind::Base2).unwrap().repr(), "3.0");
        // exactly-halfway powers are rounded to even: (k*k) ** 1.5 == float(k**3)
        for k in [(1i64 << 18) - 1, (1 << 18) - 3] {
            let want = F64::from_i64(k * k * k);
            assert_eq!(pow(f(k * k), F64::parse("1.5").unwrap()).unwrap().0, want.0);
        }
        assert_eq!(pow(f(16), F64::parse("0.25").unwrap()).unwrap().0, f(2).0);
        assert_eq!(
            pow(f(2), F64::parse("0.5").unwrap()).unwrap().0,
            f(2).sqrt().0
        );
        assert_eq!(log_int(true, &[8], LogKind::Base2), Err(DOMAIN));
        assert_eq!(dist(&[f(0), f(0)], &[f(3), f(4)]).unwrap().0, f(5).0);
    }

    #[test]
    fn errors() {
        assert_eq!(log(F64::ZERO), Err(DOMAIN));
        assert_eq!(sqrt(f(-1)), Err(DOMAIN));
        assert_eq!(exp(f(1000)), Err(RANGE));
        assert_eq!(exp(f(-1000)).unwrap().0, 0);
        assert_eq!(pow(F64::ZERO, f(-1)), Err(DOMAIN));
        assert_eq!(sin(F64::INFINITY), Err(DOMAIN));
        assert_eq!(atanh(F64::ONE), Err(DOMAIN));
        assert_eq!(gamma(F64::ZERO), Err(DOMAIN));
        assert_eq!(fmod(f(1), F64::ZERO), Err(DOMAIN));
        assert_eq!(ldexp(F64::ONE, 1 << 40), Err(RANGE));
    }

    #[test]
    fn known_values() {
        assert_eq!(
            sin(F64::parse("1").unwrap()).unwrap().repr(),
            "0.8414709848078965"
        );
        assert_eq!(
            cos(F64::parse("1").unwrap()).unwrap().repr(),
            "0.5403023058681398"
        );
        assert_eq!(exp(F64::ONE).unwrap().0, E_F64.0);
        assert_eq!(atan(F64::ONE).unwrap().mul(f(4)).0, PI_F64.0);
        assert_eq!(
            sin(F64::parse("1e22").unwrap()).unwrap().repr(),
            "-0.8522008497671888"
        );
    }
}
