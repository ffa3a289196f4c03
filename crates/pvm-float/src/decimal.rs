//! Exact binary <-> decimal conversion: CPython-identical `repr`, `format`, `round(x, n)`,
//! `float(str)` and `float.hex()`, using exact big-integer arithmetic throughout.

use core::cmp::Ordering;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use crate::soft::{self, FRAC_MASK, HIDDEN, SIGN};
use crate::{F64, FloatError};

/// `10^n` as a big integer.
fn pow10(n: u32) -> BigUint {
    BigUint::from(10u32).pow(n)
}

/// Correctly rounded (half-even) conversion of `num / den` (`den > 0`) with sign bits `sign`.
pub(crate) fn ratio_to_f64(sign: u64, num: &BigUint, den: &BigUint) -> u64 {
    if num.is_zero() {
        return sign;
    }
    let nb = num.bits() as i64;
    let db = den.bits() as i64;
    let s = 66 - (nb - db);
    let (q, r) = if s >= 0 {
        (num << (s as u64)).div_rem(den)
    } else {
        num.div_rem(&(den << ((-s) as u64)))
    };
    let q = q.to_u128().unwrap_or(u128::MAX) | u128::from(!r.is_zero());
    let exp2 = (-s).clamp(-100_000, 100_000) as i32;
    soft::pack_u128(sign, q, exp2)
}

/// Correctly rounded conversion of a big integer with sign bits `sign`.
pub(crate) fn biguint_to_f64(sign: u64, n: &BigUint) -> u64 {
    let bits = n.bits();
    if bits <= 128 {
        return soft::pack_u128(sign, n.to_u128().unwrap_or(0), 0);
    }
    if bits > 2000 {
        return sign | soft::EXP_MASK;
    }
    let shift = bits - 128;
    let top = (n >> shift).to_u128().unwrap_or(u128::MAX);
    let sticky = n.trailing_zeros().unwrap_or(0) < shift;
    soft::pack_u128(sign, top | u128::from(sticky), shift as i32)
}

/// IEEE mantissa and exponent of a finite nonzero magnitude: `|x| = m * 2^e` (not normalised).
fn raw_parts(bits: u64) -> (u64, i32) {
    let be = ((bits >> 52) & 0x7ff) as i32;
    let f = bits & FRAC_MASK;
    if be == 0 {
        (f, -1074)
    } else {
        (f | HIDDEN, be - 1075)
    }
}

/// Exact `|x|` as `num / den` with `den` a power of two.
fn exact_ratio(bits: u64) -> (BigUint, BigUint) {
    let (m, e) = raw_parts(bits);
    if e >= 0 {
        (BigUint::from(m) << (e as u64), BigUint::one())
    } else {
        (BigUint::from(m), BigUint::one() << ((-e) as u64))
    }
}

/// `floor(log10(|x|))` for finite nonzero `x`, computed exactly.
fn decimal_exponent(num: &BigUint, den: &BigUint, m: u64, e: i32) -> i32 {
    let bl = 64 - m.leading_zeros() as i64;
    // floor((e + bl - 1) * log10(2)) <= floor(log10 v) <= that + 1
    // (arithmetic >> floors for negative values too)
    let mut k = (((i64::from(e) + bl - 1) * 78913) >> 18) as i32;
    // check 10^(k+1) <= v  => k += 1
    let ge = |k: i32| -> bool {
        // is v >= 10^k ?
        if k >= 0 {
            *num >= den * pow10(k as u32)
        } else {
            num * pow10((-k) as u32) >= *den
        }
    };
    while ge(k + 1) {
        k += 1;
    }
    while !ge(k) {
        k -= 1;
    }
    k
}

/// Shortest round-trip digits of finite nonzero `|x|` (David Gay's `dtoa` mode 0 rules, as
/// used by CPython's `repr`): returns `(digits, decpt)` meaning `0.d1d2… × 10^decpt`.
pub(crate) fn shortest_digits(bits: u64) -> (Vec<u8>, i32) {
    let bits = bits & !SIGN;
    let (m, e) = raw_parts(bits);
    // Integral values below 2^53: the exact integer digits are the shortest.
    if e <= 0 && e > -53 && m.trailing_zeros() as i32 >= -e {
        let v = m >> (-e);
        if v != 0 {
            let mut s = v.to_string().into_bytes();
            let decpt = s.len() as i32;
            while s.len() > 1 && *s.last().unwrap_or(&b'1') == b'0' {
                s.pop();
            }
            return (s.into_iter().map(|c| c - b'0').collect(), decpt);
        }
    }
    let even = m & 1 == 0;
    let unequal = bits & FRAC_MASK == 0 && (bits >> 52) > 1;
    if let Some(res) = shortest_u128(m, e, even, unequal) {
        return res;
    }
    let (mut r, mut s, mut mp, mut mm);
    if e >= 0 {
        let be = BigUint::one() << (e as u64);
        if unequal {
            r = BigUint::from(m) * &be * 4u32;
            s = BigUint::from(4u32);
            mp = &be * 2u32;
            mm = be;
        } else {
            r = BigUint::from(m) * &be * 2u32;
            s = BigUint::from(2u32);
            mp = be.clone();
            mm = be;
        }
    } else if unequal {
        r = BigUint::from(m) * 4u32;
        s = BigUint::one() << ((2 - e) as u64);
        mp = BigUint::from(2u32);
        mm = BigUint::one();
    } else {
        r = BigUint::from(m) * 2u32;
        s = BigUint::one() << ((1 - e) as u64);
        mp = BigUint::one();
        mm = BigUint::one();
    }
    let k = decimal_exponent(&r, &s, m, e);
    if k >= 0 {
        s *= pow10(k as u32);
    } else {
        let p = pow10((-k) as u32);
        r *= &p;
        mp *= &p;
        mm *= &p;
    }
    digit_loop(r, s, mp, mm, even, k + 1)
}

/// Numbers the shortest-digits loop runs on (u128 fast path, big integers otherwise).
trait DigitNum: Ord + Sized {
    /// `self %= s`, returning the quotient (a single decimal digit).
    fn take_digit(&mut self, s: &Self) -> u8;
    fn plus(&self, o: &Self) -> Self;
    fn twice(&self) -> Self;
    fn times10(&mut self);
    fn is_nil(&self) -> bool;
}

impl DigitNum for u128 {
    #[inline]
    fn take_digit(&mut self, s: &Self) -> u8 {
        let q = *self / *s;
        *self -= q * *s;
        q as u8
    }
    #[inline]
    fn plus(&self, o: &Self) -> Self {
        self + o
    }
    #[inline]
    fn twice(&self) -> Self {
        self << 1
    }
    #[inline]
    fn times10(&mut self) {
        *self *= 10;
    }
    #[inline]
    fn is_nil(&self) -> bool {
        *self == 0
    }
}

impl DigitNum for BigUint {
    fn take_digit(&mut self, s: &Self) -> u8 {
        let (q, r) = self.div_rem(s);
        *self = r;
        q.to_u32().unwrap_or(0) as u8
    }
    fn plus(&self, o: &Self) -> Self {
        self + o
    }
    fn twice(&self) -> Self {
        self << 1u32
    }
    fn times10(&mut self) {
        *self *= 10u32;
    }
    fn is_nil(&self) -> bool {
        self.is_zero()
    }
}

/// The digit-generation loop of `dtoa` mode 0 on `v = r/s` (scaled so that `1 <= r/s < 10`)
/// with half-gaps `mp/s` (upper) and `mm/s` (lower).
fn digit_loop<N: DigitNum>(
    mut r: N,
    s: N,
    mut mp: N,
    mut mm: N,
    even: bool,
    decpt: i32,
) -> (Vec<u8>, i32) {
    let mut decpt = decpt;
    let mut digits: Vec<u8> = Vec::with_capacity(20);
    loop {
        let mut dig = r.take_digit(&s);
        let j = r.cmp(&mm);
        let j1 = r.plus(&mp).cmp(&s);
        if j1 == Ordering::Equal && even {
            if dig == 9 {
                digits.push(9);
                round_up(&mut digits, &mut decpt);
                break;
            }
            if j == Ordering::Greater {
                dig += 1;
            }
            digits.push(dig);
            break;
        }
        if j == Ordering::Less || (j == Ordering::Equal && even) {
            if !r.is_nil() && j1 == Ordering::Greater {
                let c = r.twice().cmp(&s);
                if c == Ordering::Greater || (c == Ordering::Equal && dig & 1 == 1) {
                    if dig == 9 {
                        digits.push(9);
                        round_up(&mut digits, &mut decpt);
                        break;
                    }
                    dig += 1;
                }
            }
            digits.push(dig);
            break;
        }
        if j1 == Ordering::Greater {
            if dig == 9 {
                digits.push(9);
                round_up(&mut digits, &mut decpt);
                break;
            }
            digits.push(dig + 1);
            break;
        }
        digits.push(dig);
        r.times10();
        mp.times10();
        mm.times10();
    }
    (digits, decpt)
}

/// `10^n` for `n <= 38`.
const fn pow10_u128(n: u32) -> u128 {
    let mut v = 1u128;
    let mut i = 0;
    while i < n {
        v *= 10;
        i += 1;
    }
    v
}

/// u128 fast path of [`shortest_digits`]: same algorithm, `None` when the scaled integers
/// would not leave enough headroom in 128 bits.
fn shortest_u128(m: u64, e: i32, even: bool, unequal: bool) -> Option<(Vec<u8>, i32)> {
    let (mut r, mut s, mut mp, mut mm): (u128, u128, u128, u128);
    if e >= 0 {
        if e > 60 {
            return None;
        }
        let be = 1u128 << e;
        if unequal {
            (r, s, mp, mm) = (u128::from(m) * be * 4, 4, be * 2, be);
        } else {
            (r, s, mp, mm) = (u128::from(m) * be * 2, 2, be, be);
        }
    } else {
        if e < -118 {
            return None;
        }
        if unequal {
            (r, s, mp, mm) = (u128::from(m) * 4, 1u128 << (2 - e), 2, 1);
        } else {
            (r, s, mp, mm) = (u128::from(m) * 2, 1u128 << (1 - e), 1, 1);
        }
    }
    let bl = i64::from(64 - m.leading_zeros());
    let mut k = (((i64::from(e) + bl - 1) * 78913) >> 18) as i32;
    // exact fix-up: find k with 10^k <= r/s < 10^(k+1)
    let ge = |k: i32| -> Option<bool> {
        if k >= 0 {
            Some(r >= s.checked_mul(*POW10_U128.get(k as usize)?)?)
        } else {
            Some(r.checked_mul(*POW10_U128.get((-k) as usize)?)? >= s)
        }
    };
    while ge(k + 1)? {
        k += 1;
    }
    while !ge(k)? {
        k -= 1;
    }
    if k >= 0 {
        s = s.checked_mul(POW10_U128[k as usize])?;
    } else {
        let p = POW10_U128[(-k) as usize];
        r = r.checked_mul(p)?;
        mp = mp.checked_mul(p)?;
        mm = mm.checked_mul(p)?;
    }
    if s >> 122 != 0 {
        return None;
    }
    Some(digit_loop(r, s, mp, mm, even, k + 1))
}

const POW10_U128: [u128; 39] = {
    let mut t = [0u128; 39];
    let mut i = 0;
    while i < 39 {
        t[i] = pow10_u128(i as u32);
        i += 1;
    }
    t
};

/// Adds one unit in the last digit, stripping the trailing nines it carries through.
fn round_up(digits: &mut Vec<u8>, decpt: &mut i32) {
    while let Some(&d) = digits.last() {
        if d == 9 {
            digits.pop();
        } else {
            break;
        }
    }
    match digits.last_mut() {
        Some(d) => *d += 1,
        None => {
            digits.push(1);
            *decpt += 1;
        }
    }
}

/// Round-half-even of `num / den` to an integer.
fn div_round_half_even(num: &BigUint, den: &BigUint) -> BigUint {
    let (q, r) = num.div_rem(den);
    let twice = &r << 1u32;
    match twice.cmp(den) {
        Ordering::Greater => q + 1u32,
        Ordering::Equal if q.is_odd() => q + 1u32,
        _ => q,
    }
}

/// Decimal digits of `n` with trailing zeros stripped; empty for zero. Second value is the
/// number of digits before stripping.
fn digits_of(n: &BigUint) -> (Vec<u8>, i32) {
    if n.is_zero() {
        return (Vec::new(), 0);
    }
    let mut s = n.to_str_radix(10).into_bytes();
    let len = s.len() as i32;
    while s.last() == Some(&b'0') {
        s.pop();
    }
    (s.into_iter().map(|c| c - b'0').collect(), len)
}

/// `ndigits` correctly rounded significant digits of finite `|x|` (dtoa mode 2).
/// Zero gives `([0], 1)`.
fn significant_digits(bits: u64, ndigits: u32) -> (Vec<u8>, i32) {
    if bits & !SIGN == 0 {
        return (vec![0], 1);
    }
    let (m, e) = raw_parts(bits & !SIGN);
    let (num, den) = exact_ratio(bits & !SIGN);
    let k = decimal_exponent(&num, &den, m, e);
    // N = round(v / 10^(k + 1 - ndigits))
    let sh = k + 1 - ndigits as i32;
    let n = if sh >= 0 {
        div_round_half_even(&num, &(den * pow10(sh as u32)))
    } else {
        div_round_half_even(&(num * pow10((-sh) as u32)), &den)
    };
    let (d, len) = digits_of(&n);
    // len is ndigits or ndigits + 1 (when rounding carried to the next power of ten)
    (d, sh + len)
}

/// Digits of `|x|` correctly rounded to `ndigits` places after the point (dtoa mode 3).
/// Zero gives `([0], 1)`; a value rounding to zero gives `([], -ndigits)`.
fn fixed_digits(bits: u64, ndigits: i32) -> (Vec<u8>, i32) {
    if bits & !SIGN == 0 {
        return (vec![0], 1);
    }
    let (num, den) = exact_ratio(bits & !SIGN);
    let n = if ndigits >= 0 {
        div_round_half_even(&(num * pow10(ndigits as u32)), &den)
    } else {
        div_round_half_even(&num, &(den * pow10((-ndigits) as u32)))
    };
    if n.is_zero() {
        return (Vec::new(), -ndigits);
    }
    let (d, len) = digits_of(&n);
    (d, len - ndigits)
}

/// Conversion type of CPython's `format_float_short`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    E,
    F,
    G,
    R,
}

/// CPython `format_float_short` layout of `(digits, decpt)`.
#[allow(clippy::too_many_arguments)]
fn layout(
    neg: bool,
    digits: &[u8],
    decpt: i32,
    kind: Kind,
    precision: i64,
    alt: bool,
    add_dot_0: bool,
    upper: bool,
) -> String {
    let digits_len = digits.len() as i64;
    let mut decpt = i64::from(decpt);
    let mut vdigits_end = digits_len;
    let mut use_exp = false;
    match kind {
        Kind::E => {
            use_exp = true;
            vdigits_end = precision;
        }
        Kind::F => vdigits_end = decpt + precision,
        Kind::G => {
            let lim = if add_dot_0 { precision - 1 } else { precision };
            if decpt <= -4 || decpt > lim {
                use_exp = true;
            }
            if alt {
                vdigits_end = precision;
            }
        }
        Kind::R => {
            if decpt <= -4 || decpt > 16 {
                use_exp = true;
            }
        }
    }
    let mut exp = 0i64;
    if use_exp {
        exp = decpt - 1;
        decpt = 1;
    }
    let vdigits_start = if decpt <= 0 { decpt - 1 } else { 0 };
    if !use_exp && add_dot_0 {
        vdigits_end = vdigits_end.max(decpt + 1);
    } else {
        vdigits_end = vdigits_end.max(decpt);
    }
    let mut out = String::with_capacity((vdigits_end - vdigits_start).max(0) as usize + 8);
    if neg {
        out.push('-');
    }
    let push_zeros = |out: &mut String, n: i64| {
        for _ in 0..n.max(0) {
            out.push('0');
        }
    };
    let push_digits = |out: &mut String, d: &[u8]| {
        for &c in d {
            out.push((b'0' + c) as char);
        }
    };
    if decpt <= 0 {
        push_zeros(&mut out, decpt - vdigits_start);
        out.push('.');
        push_zeros(&mut out, -decpt);
    } else {
        push_zeros(&mut out, -vdigits_start);
    }
    if 0 < decpt && decpt <= digits_len {
        push_digits(&mut out, &digits[..decpt as usize]);
        out.push('.');
        push_digits(&mut out, &digits[decpt as usize..]);
    } else {
        push_digits(&mut out, digits);
    }
    if digits_len < decpt {
        push_zeros(&mut out, decpt - digits_len);
        out.push('.');
        push_zeros(&mut out, vdigits_end - decpt);
    } else {
        push_zeros(&mut out, vdigits_end - digits_len);
    }
    if out.ends_with('.') && !alt {
        out.pop();
    }
    if use_exp {
        out.push(if upper { 'E' } else { 'e' });
        out.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            out.push('0');
        }
        out.push_str(&a.to_string());
    }
    out
}

/// `inf` / `nan` text with CPython's sign rules (NaN sign ignored).
fn special(x: F64, upper: bool) -> Option<String> {
    if x.is_nan() {
        return Some(if upper { "NAN" } else { "nan" }.to_string());
    }
    if x.is_infinite() {
        let s = if upper { "INF" } else { "inf" };
        return Some(if x.is_sign_negative() {
            format!("-{s}")
        } else {
            s.to_string()
        });
    }
    None
}

const DEC_POW10: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

impl F64 {
    /// CPython `repr(x)` / `str(x)`: shortest round-trip digits, `1e+16`, `1e-05`, `-0.0`,
    /// `inf`, `-inf`, `nan`.
    pub fn repr(self) -> String {
        if let Some(s) = special(self, false) {
            return s;
        }
        let neg = self.is_sign_negative();
        if self.is_zero() {
            return if neg { "-0.0".into() } else { "0.0".into() };
        }
        let (d, decpt) = shortest_digits(self.0);
        layout(neg, &d, decpt, Kind::R, 0, false, true, false)
    }

    /// `format(x, f'.{precision}f')`.
    pub fn format_fixed(self, precision: usize) -> String {
        self.format_fixed_alt(precision, false)
    }

    /// `format(x, f'.{precision}f')`, or with `#` (keep the point) when `alternate`.
    pub fn format_fixed_alt(self, precision: usize, alternate: bool) -> String {
        if let Some(s) = special(self, false) {
            return s;
        }
        let p = precision.min(i32::MAX as usize / 2) as i32;
        let (d, decpt) = fixed_digits(self.0, p);
        layout(
            self.is_sign_negative(),
            &d,
            decpt,
            Kind::F,
            i64::from(p),
            alternate,
            false,
            false,
        )
    }

    /// `format(x, f'.{precision}e')` (`E` when `upper`).
    pub fn format_exp(self, precision: usize, upper: bool) -> String {
        self.format_exp_alt(precision, false, upper)
    }

    /// `format(x, f'.{precision}e')` with optional `#`.
    pub fn format_exp_alt(self, precision: usize, alternate: bool, upper: bool) -> String {
        if let Some(s) = special(self, upper) {
            return s;
        }
        let p = precision.min(i32::MAX as usize / 2) as u32;
        let (d, decpt) = significant_digits(self.0, p + 1);
        layout(
            self.is_sign_negative(),
            &d,
            decpt,
            Kind::E,
            i64::from(p) + 1,
            alternate,
            false,
            upper,
        )
    }

    /// `format(x, f'.{precision}g')` (`#` keeps trailing zeros when `alternate`).
    pub fn format_general(self, precision: usize, alternate: bool, upper: bool) -> String {
        if let Some(s) = special(self, upper) {
            return s;
        }
        let p = precision.clamp(1, i32::MAX as usize / 2) as u32;
        let (d, decpt) = significant_digits(self.0, p);
        layout(
            self.is_sign_negative(),
            &d,
            decpt,
            Kind::G,
            i64::from(p),
            alternate,
            false,
            upper,
        )
    }

    /// `format(x, '')` (`None`: same as `repr`) and `format(x, f'.{p}')` (like `g` but keeps at
    /// least one digit after the point when not using an exponent).
    pub fn format_no_type(self, precision: Option<usize>) -> String {
        match precision {
            None => self.repr(),
            Some(p) => {
                if let Some(s) = special(self, false) {
                    return s;
                }
                let p = p.clamp(1, i32::MAX as usize / 2) as u32;
                let (d, decpt) = significant_digits(self.0, p);
                layout(
                    self.is_sign_negative(),
                    &d,
                    decpt,
                    Kind::G,
                    i64::from(p),
                    false,
                    true,
                    false,
                )
            }
        }
    }

    /// Python `round(x, ndigits)` (CPython `float.__round__`), correctly rounded through the
    /// exact decimal value, half-even. Returns `±inf` where CPython raises
    /// `OverflowError("rounded value too large to represent")`; see [`F64::py_round_ndigits`].
    pub fn round_ndigits(self, ndigits: i64) -> F64 {
        match self.py_round_ndigits(ndigits) {
            Ok(v) => v,
            Err(_) => F64::INFINITY.copysign(self),
        }
    }

    /// Python `round(x, ndigits)` with CPython's overflow error.
    pub fn py_round_ndigits(self, ndigits: i64) -> Result<F64, FloatError> {
        const NDIGITS_MAX: i64 = 323;
        const NDIGITS_MIN: i64 = -308;
        if self.is_nan() {
            return Ok(F64::NAN);
        }
        if !self.is_finite() || self.is_zero() || ndigits > NDIGITS_MAX {
            return Ok(self);
        }
        let sign = self.0 & SIGN;
        if ndigits < NDIGITS_MIN {
            return Ok(F64(sign));
        }
        let (num, den) = exact_ratio(self.0 & !SIGN);
        let n = ndigits as i32;
        let r = if n >= 0 {
            let p = pow10(n as u32);
            let q = div_round_half_even(&(num * &p), &den);
            ratio_to_f64(sign, &q, &p)
        } else {
            let p = pow10((-n) as u32);
            let q = div_round_half_even(&num, &(den * &p));
            biguint_to_f64(sign, &(q * p))
        };
        let r = F64(r);
        if r.is_infinite() {
            return Err(FloatError::Overflow("rounded value too large to represent"));
        }
        Ok(r)
    }

    /// `float.hex()`: e.g. `0x1.8000000000000p+0`, `0x0.0000000000001p-1022`, `-0x0.0p+0`.
    pub fn hex(self) -> String {
        if let Some(s) = special(self, false) {
            return s;
        }
        let neg = if self.is_sign_negative() { "-" } else { "" };
        if self.is_zero() {
            return format!("{neg}0x0.0p+0");
        }
        let be = ((self.0 >> 52) & 0x7ff) as i32;
        let f = self.0 & FRAC_MASK;
        let (lead, e) = if be == 0 { (0, -1022) } else { (1, be - 1023) };
        let sign_e = if e < 0 { '-' } else { '+' };
        format!("{neg}0x{lead}.{f:013x}p{sign_e}{}", e.unsigned_abs())
    }

    /// Python `float(s)` for a `str` argument: optional surrounding whitespace, sign, decimal
    /// digits with single underscores between digits, optional fraction and exponent, or
    /// `inf`/`infinity`/`nan` in any case. Correctly rounded (half-even). `None` on syntax
    /// error (CPython: `ValueError: could not convert string to float: …`).
    ///
    /// Not supported: non-ASCII Unicode decimal digits (CPython accepts e.g. Arabic-Indic).
    pub fn parse(s: &str) -> Option<F64> {
        let t = s.trim_matches(|c: char| {
            if c.is_ascii() {
                matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
            } else {
                c.is_whitespace()
            }
        });
        let b = t.as_bytes();
        let (neg, body) = match b.first() {
            Some(b'-') => (true, &b[1..]),
            Some(b'+') => (false, &b[1..]),
            _ => (false, b),
        };
        let sign = if neg { SIGN } else { 0 };
        if body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity") {
            return Some(F64(sign | soft::EXP_MASK));
        }
        if body.eq_ignore_ascii_case(b"nan") {
            return Some(F64::NAN);
        }
        let mut i = 0usize;
        let mut digits: Vec<u8> = Vec::new();
        let mut exp10: i64 = 0;
        let mut any_digit = false;
        // integer part
        let (n_int, ni) = scan_digits(body, i, |d| {
            if !(digits.is_empty() && d == 0) {
                digits.push(d);
            }
        })?;
        i = ni;
        any_digit |= n_int > 0;
        if i < body.len() && body[i] == b'.' {
            i += 1;
            let mut frac_count: i64 = 0;
            let (n_frac, ni) = scan_digits(body, i, |d| {
                frac_count += 1;
                if !(digits.is_empty() && d == 0) {
                    digits.push(d);
                }
                if digits.is_empty() {
                    // leading zero of the fraction: shifts the exponent only
                }
            })?;
            // every fraction digit (kept or a skipped leading zero) divides by 10
            exp10 -= frac_count;
            i = ni;
            any_digit |= n_frac > 0;
        }
        if !any_digit {
            return None;
        }
        if i < body.len() && (body[i] == b'e' || body[i] == b'E') {
            i += 1;
            let eneg = match body.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let mut ev: i64 = 0;
            let (n_exp, ni) = scan_digits(body, i, |d| {
                ev = (ev * 10 + i64::from(d)).min(1_000_000_000_000);
            })?;
            if n_exp == 0 {
                return None;
            }
            i = ni;
            exp10 += if eneg { -ev } else { ev };
        }
        if i != body.len() {
            return None;
        }
        Some(F64(decimal_to_f64(sign, digits, exp10)))
    }
}

impl F64 {
    /// `float.fromhex(s)`: `[sign] ['0x'] hexdigits ['.' hexdigits] ['p' [sign] decimal]`, or
    /// `inf`/`infinity`/`nan`, with surrounding whitespace; correctly rounded (half-even).
    /// Errors: `InvalidConversion("invalid hexadecimal floating-point string")`,
    /// `Overflow("hexadecimal value too large to represent as a float")`.
    pub fn from_hex(s: &str) -> Result<F64, FloatError> {
        const INVALID: FloatError =
            FloatError::InvalidConversion("invalid hexadecimal floating-point string");
        let t = s.trim_matches(|c: char| {
            if c.is_ascii() {
                matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
            } else {
                c.is_whitespace()
            }
        });
        let b = t.as_bytes();
        let (neg, mut body) = match b.first() {
            Some(b'-') => (true, &b[1..]),
            Some(b'+') => (false, &b[1..]),
            _ => (false, b),
        };
        let sign = if neg { SIGN } else { 0 };
        if body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity") {
            return Ok(F64(sign | soft::EXP_MASK));
        }
        if body.eq_ignore_ascii_case(b"nan") {
            return Ok(F64::NAN);
        }
        if body.len() >= 2 && body[0] == b'0' && (body[1] == b'x' || body[1] == b'X') {
            body = &body[2..];
        }
        let mut mant = BigUint::zero();
        let mut ndig = 0usize;
        let mut frac_digits: i64 = 0;
        let mut i = 0;
        let mut seen_point = false;
        while i < body.len() {
            let c = body[i];
            if let Some(d) = (c as char).to_digit(16) {
                mant = (mant << 4u32) + d;
                ndig += 1;
                if seen_point {
                    frac_digits += 1;
                }
            } else if c == b'.' && !seen_point {
                seen_point = true;
            } else {
                break;
            }
            i += 1;
        }
        if ndig == 0 {
            return Err(INVALID);
        }
        let mut exp: i64 = 0;
        if i < body.len() && (body[i] == b'p' || body[i] == b'P') {
            i += 1;
            let eneg = match body.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let start = i;
            while i < body.len() && body[i].is_ascii_digit() {
                exp = (exp * 10 + i64::from(body[i] - b'0')).min(1_000_000_000);
                i += 1;
            }
            if i == start {
                return Err(INVALID);
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != body.len() {
            return Err(INVALID);
        }
        let exp2 = exp - 4 * frac_digits;
        let bits = mant.bits();
        let r = if bits == 0 {
            sign
        } else if bits <= 128 {
            soft::pack_u128(
                sign,
                mant.to_u128().unwrap_or(0),
                exp2.clamp(-5000, 5000) as i32,
            )
        } else {
            let sh = bits - 128;
            let top = (&mant >> sh).to_u128().unwrap_or(u128::MAX);
            let sticky = mant.trailing_zeros().unwrap_or(0) < sh;
            let e = (exp2 + sh as i64).clamp(-5000, 5000) as i32;
            soft::pack_u128(sign, top | u128::from(sticky), e)
        };
        let r = F64(r);
        if r.is_infinite() {
            return Err(FloatError::Overflow(
                "hexadecimal value too large to represent as a float",
            ));
        }
        Ok(r)
    }
}

/// Big integer from little-endian u64 limbs.
fn big_from_limbs(limbs: &[u64]) -> BigUint {
    let mut n = BigUint::zero();
    for &l in limbs.iter().rev() {
        n = (n << 64u32) + l;
    }
    n
}

impl F64 {
    /// Python `int / int` (CPython `long_true_divide`): the correctly rounded quotient of two
    /// integers given as sign + little-endian limbs. Errors: `ZeroDivision("division by
    /// zero")`, `Overflow("integer division result too large for a float")`.
    pub fn from_int_ratio(
        negative: bool,
        num_le_limbs: &[u64],
        den_le_limbs: &[u64],
    ) -> Result<F64, FloatError> {
        let den = big_from_limbs(den_le_limbs);
        if den.is_zero() {
            return Err(FloatError::ZeroDivision("division by zero"));
        }
        let num = big_from_limbs(num_le_limbs);
        let sign = if negative { SIGN } else { 0 };
        // bound the work for absurd ratios: the result is 0 or overflows outright
        let (nb, db) = (num.bits() as i64, den.bits() as i64);
        if !num.is_zero() && nb - db > 1100 {
            return Err(FloatError::Overflow(
                "integer division result too large for a float",
            ));
        }
        if num.is_zero() || nb - db < -1200 {
            return Ok(F64(sign));
        }
        let r = F64(ratio_to_f64(sign, &num, &den));
        if r.is_infinite() {
            return Err(FloatError::Overflow(
                "integer division result too large for a float",
            ));
        }
        Ok(r)
    }

    /// Exact comparison of this float with a Python int (sign + little-endian limbs), as
    /// CPython's `float_richcompare` does: `None` when `self` is NaN (every comparison false
    /// except `!=`), otherwise the ordering of `self` relative to the int.
    pub fn cmp_int_parts(self, negative: bool, magnitude_le_limbs: &[u64]) -> Option<Ordering> {
        if self.is_nan() {
            return None;
        }
        let n = big_from_limbs(magnitude_le_limbs);
        let int_neg = negative && !n.is_zero();
        if self.is_infinite() {
            return Some(if self.is_sign_negative() {
                Ordering::Less
            } else {
                Ordering::Greater
            });
        }
        let x_neg = self.is_sign_negative() && !self.is_zero();
        match (x_neg, int_neg) {
            (true, false) => return Some(Ordering::Less),
            (false, true) => return Some(Ordering::Greater),
            _ => {}
        }
        // same sign: compare magnitudes exactly
        let mag = if self.is_zero() {
            BigUint::zero().cmp(&n)
        } else {
            let (num, den) = exact_ratio(self.0 & !SIGN);
            num.cmp(&(n * den))
        };
        Some(if x_neg { mag.reverse() } else { mag })
    }
}

/// Scans `digit (['_'] digit)*` starting at `i`, feeding digit values to `f`. Returns the
/// number of digits and the new index; `None` on a misplaced underscore.
fn scan_digits(b: &[u8], mut i: usize, mut f: impl FnMut(u8)) -> Option<(usize, usize)> {
    let mut n = 0usize;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            f(c - b'0');
            n += 1;
            i += 1;
        } else if c == b'_' {
            if n == 0 || i + 1 >= b.len() || !b[i + 1].is_ascii_digit() {
                return None;
            }
            i += 1;
        } else {
            break;
        }
    }
    Some((n, i))
}

/// Correctly rounded value of `0.d1d2…dn × 10^(n + exp10)` (i.e. integer `digits × 10^exp10`).
fn decimal_to_f64(sign: u64, mut digits: Vec<u8>, mut exp10: i64) -> u64 {
    while digits.last() == Some(&0) {
        digits.pop();
        exp10 += 1;
    }
    if digits.is_empty() {
        return sign;
    }
    const MAX_DIGITS: usize = 800;
    if digits.len() > MAX_DIGITS {
        let tail_nonzero = digits[MAX_DIGITS..].iter().any(|&d| d != 0);
        exp10 += (digits.len() - MAX_DIGITS) as i64;
        digits.truncate(MAX_DIGITS);
        if tail_nonzero {
            digits.push(1);
            exp10 -= 1;
        }
    }
    let nd = digits.len() as i64;
    if nd + exp10 > 310 {
        return sign | soft::EXP_MASK;
    }
    if nd + exp10 < -330 {
        return sign;
    }
    // Fast path: exact integer mantissa and exact power of ten, one IEEE operation.
    if nd <= 15 && (-22..=22).contains(&exp10) {
        let mut v: u64 = 0;
        for &d in &digits {
            v = v * 10 + u64::from(d);
        }
        let fv = soft::pack_u64(sign, v, 0);
        let pw = pow10_f64(exp10.unsigned_abs() as u32);
        return if exp10 >= 0 {
            soft::mul(fv, pw)
        } else {
            soft::div(fv, pw)
        };
    }
    // Exact 128-bit paths: up to 19 significant digits with a modest decimal exponent.
    if nd <= 19 {
        let mut v: u64 = 0;
        for &d in &digits {
            v = v * 10 + u64::from(d);
        }
        if (0..=38).contains(&exp10)
            && let Some(w) = u128::from(v).checked_mul(POW10_U128[exp10 as usize])
        {
            return soft::pack_u128(sign, w, 0); // exact integer, one rounding
        }
        if (-18..0).contains(&exp10) {
            let p = POW10_U128[(-exp10) as usize];
            let sh = v.leading_zeros() + 64;
            let num = u128::from(v) << sh;
            let q = num / p;
            let r = num - q * p;
            // q has at least 67 significant bits, so the sticky bit is below the rounding point
            return soft::pack_u128(sign, q | u128::from(r != 0), -(sh as i32));
        }
    }
    let mut n = BigUint::zero();
    // accumulate 19 digits at a time
    for chunk in digits.chunks(19) {
        let mut v: u64 = 0;
        for &d in chunk {
            v = v * 10 + u64::from(d);
        }
        n = n * DEC_POW10[chunk.len()] + v;
    }
    if exp10 >= 0 {
        biguint_to_f64(sign, &(n * pow10(exp10 as u32)))
    } else {
        ratio_to_f64(sign, &n, &pow10((-exp10) as u32))
    }
}

/// Exact `10^n` as binary64 bits for `n <= 22`.
fn pow10_f64(n: u32) -> u64 {
    let v: u128 = 10u128.pow(n);
    soft::pack_u128(0, v, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> F64 {
        F64::parse(s).unwrap_or_else(|| panic!("parse {s}"))
    }

    #[test]
    fn repr_basics() {
        assert_eq!(p("0.1").repr(), "0.1");
        assert_eq!(p("0.1").add(p("0.2")).repr(), "0.30000000000000004");
        assert_eq!(p("1e16").repr(), "1e+16");
        assert_eq!(p("1e-5").repr(), "1e-05");
        assert_eq!(p("0.0001").repr(), "0.0001");
        assert_eq!(p("-0.0").repr(), "-0.0");
        assert_eq!(p("1.5e300").repr(), "1.5e+300");
        assert_eq!(F64(1).repr(), "5e-324");
        assert_eq!(F64::MAX.repr(), "1.7976931348623157e+308");
        assert_eq!(p("123456789012345678").repr(), "1.2345678901234568e+17");
        assert_eq!(F64::from_i64(100).repr(), "100.0");
    }

    #[test]
    fn parse_syntax() {
        assert!(F64::parse("1__0").is_none());
        assert!(F64::parse("_1").is_none());
        assert!(F64::parse("1_.5").is_none());
        assert!(F64::parse(".").is_none());
        assert!(F64::parse("1e").is_none());
        assert!(F64::parse("").is_none());
        assert_eq!(p(" 1_000.000_1 ").repr(), "1000.0001");
        assert_eq!(p("-Infinity").0, F64::NEG_INFINITY.0);
        assert!(p("+nAn").is_nan());
        assert_eq!(p("1e5_0").repr(), "1e+50");
        assert_eq!(p("1e-400").0, 0);
        assert_eq!(p("-1e-400").0, SIGN);
        assert_eq!(p("1e400").0, F64::INFINITY.0);
    }

    #[test]
    fn formatting_basics() {
        assert_eq!(p("0.5").format_fixed(0), "0");
        assert_eq!(p("1e22").format_fixed(0), "10000000000000000000000");
        assert_eq!(p("2.675").round_ndigits(2).repr(), "2.67");
        assert_eq!(p("0.125").format_fixed(2), "0.12");
        assert_eq!(p("123.456").format_exp(2, false), "1.23e+02");
        assert_eq!(p("100").format_no_type(Some(3)), "1e+02");
        assert_eq!(p("10").format_no_type(Some(3)), "10.0");
        assert_eq!(p("0").format_general(3, true, false), "0.00");
        assert_eq!(p("1.5").hex(), "0x1.8000000000000p+0");
        assert_eq!(F64(1).hex(), "0x0.0000000000001p-1022");
        assert_eq!(F64::from_hex("0x1.8p1").unwrap().repr(), "3.0");
        assert_eq!(F64::from_hex(" -1p-1074 ").unwrap().0, SIGN | 1);
        assert_eq!(
            F64::from_hex("0x1.fffffffffffff8p1023"),
            Err(FloatError::Overflow(
                "hexadecimal value too large to represent as a float"
            ))
        );
        assert!(F64::from_hex("0x").is_err());
        assert_eq!(
            F64::from_int_ratio(false, &[1], &[3]).unwrap().repr(),
            "0.3333333333333333"
        );
        assert_eq!(
            F64::from_int_ratio(
                true,
                &[1],
                &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
            )
            .unwrap()
            .0,
            SIGN
        );
        assert!(F64::from_int_ratio(false, &[1], &[]).is_err());
        assert!(
            F64::from_int_ratio(
                false,
                &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
                &[1]
            )
            .is_err()
        );
        // 2**53 + 1 vs float(2**53)
        let two53 = F64::from_u64(1 << 53);
        assert_eq!(
            two53.cmp_int_parts(false, &[(1 << 53) + 1]),
            Some(Ordering::Less)
        );
        assert_eq!(
            two53.cmp_int_parts(false, &[1 << 53]),
            Some(Ordering::Equal)
        );
        assert_eq!(p("-0.5").cmp_int_parts(false, &[]), Some(Ordering::Less));
        assert_eq!(p("-0.0").cmp_int_parts(true, &[]), Some(Ordering::Equal));
        assert_eq!(p("-2.5").cmp_int_parts(true, &[3]), Some(Ordering::Greater));
        assert_eq!(F64::NAN.cmp_int_parts(false, &[1]), None);
        assert_eq!(
            F64::INFINITY.cmp_int_parts(false, &[u64::MAX; 40]),
            Some(Ordering::Greater)
        );
        assert_eq!(F64::from_hex("0x.8").unwrap().repr(), "0.5");
        for x in ["1.5", "5e-324", "1.7976931348623157e308", "-0.0", "0.1"] {
            let v = p(x);
            assert_eq!(F64::from_hex(&v.hex()).unwrap().0, v.0);
        }
    }
}
