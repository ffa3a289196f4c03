//! Integer-only IEEE-754 binary64 kernels operating on raw bits.
//!
//! Internal convention for [`round_pack`]: a finite nonzero value is `sig * 2^(e - 1085)`
//! where `sig` has bit 62 set (53 mantissa bits followed by 10 rounding bits, with any
//! discarded lower bits OR-ed ("jammed") into bit 0), and `e` is the biased exponent the
//! result would have if it is normal.

pub(crate) const SIGN: u64 = 1 << 63;
pub(crate) const EXP_MASK: u64 = 0x7ff << 52;
pub(crate) const FRAC_MASK: u64 = (1 << 52) - 1;
pub(crate) const HIDDEN: u64 = 1 << 52;
pub(crate) const CANON_NAN: u64 = 0x7ff8_0000_0000_0000;

/// Shift right by `n`, OR-ing every bit shifted out into bit 0 (sticky).
#[inline(always)]
pub(crate) fn shr_jam(x: u64, n: u32) -> u64 {
    if n == 0 {
        x
    } else if n < 64 {
        (x >> n) | u64::from(x << (64 - n) != 0)
    } else {
        u64::from(x != 0)
    }
}

/// 128-bit [`shr_jam`].
#[inline(always)]
pub(crate) fn shr_jam128(x: u128, n: u32) -> u128 {
    if n == 0 {
        x
    } else if n < 128 {
        (x >> n) | u128::from(x << (128 - n) != 0)
    } else {
        u128::from(x != 0)
    }
}

/// Rounds (half-even) and packs `sig * 2^(e - 1085)` (`sig` has bit 62 set) with the sign
/// bit `sign` (either 0 or [`SIGN`]). Handles overflow to infinity and gradual underflow.
///
/// The rounding increment is `0x1ff` plus the lowest kept bit, which rounds ties to even
/// without a test; a mantissa that rounds up to `2^53` carries into the exponent field, which
/// for the largest exponent gives exactly the bits of infinity.
#[inline(always)]
pub(crate) fn round_pack(sign: u64, e: i32, sig: u64) -> u64 {
    debug_assert!(sig >> 62 == 1);
    let mut field = e - 1;
    let mut sig = sig;
    if (field as u32) >= 0x7fe {
        if field < 0 {
            sig = shr_jam(sig, (-field).min(64) as u32);
            field = 0;
        } else {
            return sign | EXP_MASK;
        }
    }
    let m = (sig + 0x1ff + ((sig >> 10) & 1)) >> 10;
    sign | (((field as u64) << 52) + m)
}

/// Rounds and packs `mag * 2^exp2` for any `mag` (zero gives a signed zero). Bit 0 of `mag`
/// may carry a sticky bit as long as `mag` has more than 54 significant bits.
#[inline]
pub(crate) fn pack_u64(sign: u64, mag: u64, exp2: i32) -> u64 {
    if mag == 0 {
        return sign;
    }
    let lz = mag.leading_zeros() as i32;
    let (sig, e2) = if lz == 0 {
        (shr_jam(mag, 1), exp2 + 1)
    } else {
        (mag << (lz - 1), exp2 - (lz - 1))
    };
    round_pack(sign, e2.saturating_add(1085), sig)
}

/// Rounds and packs `mag * 2^exp2` for a 128-bit magnitude (bit 0 may be sticky).
#[inline]
pub(crate) fn pack_u128(sign: u64, mag: u128, exp2: i32) -> u64 {
    if mag >> 64 == 0 {
        return pack_u64(sign, mag as u64, exp2);
    }
    let hb = 128 - mag.leading_zeros() as i32; // 65..=128
    let sh = hb - 64;
    pack_u64(
        sign,
        shr_jam128(mag, sh as u32) as u64,
        exp2.saturating_add(sh),
    )
}

/// Conversion of `mag * 2^exp2` with sign `neg` (public helper for integers).
#[inline]
pub(crate) fn from_u64(neg: bool, mag: u64, exp2: i32) -> u64 {
    pack_u64(if neg { SIGN } else { 0 }, mag, exp2)
}

/// Correctly rounded conversion of an `i64`; magnitudes below 2^53 (exact) take a short path.
#[inline(always)]
pub(crate) fn from_i64(v: i64) -> u64 {
    let sign = (v as u64) & SIGN;
    let mag = v.unsigned_abs();
    if mag >> 53 != 0 {
        return pack_u64(sign, mag, 0);
    }
    if mag == 0 {
        return 0;
    }
    // leading bit moved to bit 52, where it adds one to the exponent field
    let sh = mag.leading_zeros() - 11;
    sign | ((u64::from(1074 - sh) << 52) + (mag << sh))
}

/// Unpacks a finite value into `(mantissa, exponent)` with `value = m * 2^(e - 1075)` and, for
/// nonzero values, the mantissa normalised so that bit 52 is set (subnormals get `e < 1`).
#[inline(always)]
pub(crate) fn unpack_norm(bits: u64) -> (u64, i32) {
    let e = ((bits >> 52) & 0x7ff) as i32;
    let f = bits & FRAC_MASK;
    if e != 0 {
        (f | HIDDEN, e)
    } else {
        let lz = f.leading_zeros() as i32 - 11;
        (f << lz, 1 - lz)
    }
}

/// Key that orders non-NaN values like IEEE `<` (with `-0.0 == 0.0`).
#[inline(always)]
pub(crate) fn total_key(bits: u64) -> i64 {
    if bits & SIGN != 0 {
        // negative: larger magnitude is smaller; -0.0 maps to 0
        -((bits & !SIGN) as i64)
    } else {
        bits as i64
    }
}

/// [`shr_jam`] for `n < 64` without branches.
#[inline(always)]
fn shr_jam_lt64(x: u64, n: u32) -> u64 {
    debug_assert!(n < 64);
    (x >> n) | u64::from(x & ((1u64 << n) - 1) != 0)
}

/// True if both biased exponent fields are those of normal numbers (`1..=0x7fe`).
#[inline(always)]
fn both_normal(ea: u32, eb: u32) -> bool {
    ea.wrapping_sub(1).max(eb.wrapping_sub(1)) < 0x7fe
}

/// The biased exponent field of `bits`.
#[inline(always)]
fn field(bits: u64) -> u32 {
    ((bits >> 52) & 0x7ff) as u32
}

#[inline(never)]
fn add_special(a: u64, b: u64) -> u64 {
    let an = (a & !SIGN) > EXP_MASK;
    let bn = (b & !SIGN) > EXP_MASK;
    if an || bn {
        return CANON_NAN;
    }
    let ai = (a & !SIGN) == EXP_MASK;
    let bi = (b & !SIGN) == EXP_MASK;
    if ai && bi {
        if (a ^ b) & SIGN != 0 { CANON_NAN } else { a }
    } else if ai {
        a
    } else {
        b
    }
}

/// IEEE addition of raw bits.
///
/// Fast path: both operands normal (the common case), so both significands carry the hidden
/// bit and no zero, subnormal or special value needs a test; [`add_slow`] handles the rest.
#[inline]
pub(crate) fn add(a: u64, b: u64) -> u64 {
    let (ea, eb) = (field(a), field(b));
    if !both_normal(ea, eb) {
        return add_slow(a, b);
    }
    // |a| >= |b| after the swap (magnitudes compared with the sign bit shifted out).
    let swap = (a << 1) < (b << 1);
    let (a, b) = if swap { (b, a) } else { (a, b) };
    let (ea, eb) = if swap { (eb, ea) } else { (ea, eb) };
    // Significands with the hidden bit at bit 61 (nine guard bits): the sum of two stays
    // below 2^63, so normalising only ever shifts left.
    let sa = ((a << 12) >> 3) | (1 << 61);
    // `sb < 2^62`, so a shift by 63 already leaves only the sticky bit.
    let sb = shr_jam_lt64(((b << 12) >> 3) | (1 << 61), (ea - eb).min(63));
    // Effective subtraction when the signs differ: negate `sb` (two's complement) without
    // a branch. The result is in [2^61, 2^63) for an addition and in [0, 2^62) for a
    // subtraction.
    let neg = 0u64.wrapping_sub((a ^ b) >> 63);
    let s = sa.wrapping_add((sb ^ neg).wrapping_sub(neg));
    if s == 0 {
        return 0; // exact cancellation gives +0 when rounding to nearest
    }
    // Leading bit to bit 62; lz >= 1. A left shift loses nothing (for a cancellation of more
    // than one bit the exponents differed by at most one, so the difference is exact).
    let lz = s.leading_zeros();
    round_pack(a & SIGN, ea as i32 + 2 - lz as i32, s << (lz - 1))
}

/// Addition when an operand is zero, subnormal, infinite or NaN.
#[inline(never)]
fn add_slow(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    if (a & EXP_MASK) == EXP_MASK || (b & EXP_MASK) == EXP_MASK {
        return add_special(a, b);
    }
    if (a & !SIGN) < (b & !SIGN) {
        core::mem::swap(&mut a, &mut b);
    }
    if b & !SIGN == 0 {
        if a & !SIGN == 0 {
            // both zeros: -0 only when both are -0 (round-to-nearest)
            return a & b;
        }
        return a;
    }
    let sign = a & SIGN;
    let ea = ((a >> 52) & 0x7ff) as i32;
    let eb = ((b >> 52) & 0x7ff) as i32;
    let ma = (a & FRAC_MASK) | if ea != 0 { HIDDEN } else { 0 };
    let mb = (b & FRAC_MASK) | if eb != 0 { HIDDEN } else { 0 };
    let ea = ea.max(1);
    let eb = eb.max(1);
    let sa = ma << 10;
    let sb = shr_jam(mb << 10, (ea - eb) as u32);
    if (a ^ b) & SIGN == 0 {
        let s = sa + sb;
        if s >> 63 != 0 {
            round_pack(sign, ea + 1, shr_jam(s, 1))
        } else if s >> 62 != 0 {
            round_pack(sign, ea, s)
        } else {
            let lz = s.leading_zeros() as i32 - 1;
            round_pack(sign, ea - lz, s << lz)
        }
    } else {
        let s = sa - sb;
        if s == 0 {
            return 0;
        }
        let lz = s.leading_zeros() as i32 - 1;
        round_pack(sign, ea - lz, s << lz)
    }
}

#[inline(never)]
fn mul_special(a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & SIGN;
    let (aa, bb) = (a & !SIGN, b & !SIGN);
    if aa > EXP_MASK || bb > EXP_MASK {
        return CANON_NAN;
    }
    if aa == 0 || bb == 0 {
        return CANON_NAN; // inf * 0
    }
    sign | EXP_MASK
}

/// IEEE multiplication of raw bits.
///
/// Fast path: both operands normal. The significands are placed at bits 62 and 63 so that
/// the high word of their 128-bit product has its leading bit at 62 or 61; the low word only
/// matters as a sticky bit.
#[inline]
pub(crate) fn mul(a: u64, b: u64) -> u64 {
    let (ea, eb) = (field(a), field(b));
    if !both_normal(ea, eb) {
        return mul_slow(a, b);
    }
    let sign = (a ^ b) & SIGN;
    let sa = ((a & FRAC_MASK) | HIDDEN) << 10;
    let sb = ((b & FRAC_MASK) | HIDDEN) << 11;
    let p = u128::from(sa) * u128::from(sb); // in [2^125, 2^127)
    let hi = ((p >> 64) as u64) | u64::from(p as u64 != 0);
    // Normalise to bit 62; the sticky bit moves to bit 1, still below the rounding bit.
    let sh = ((hi >> 62) ^ 1) as u32;
    round_pack(sign, ea as i32 + eb as i32 - 1022 - sh as i32, hi << sh)
}

/// Multiplication when an operand is zero, subnormal, infinite or NaN.
#[inline(never)]
fn mul_slow(a: u64, b: u64) -> u64 {
    if (a & EXP_MASK) == EXP_MASK || (b & EXP_MASK) == EXP_MASK {
        return mul_special(a, b);
    }
    let sign = (a ^ b) & SIGN;
    if a & !SIGN == 0 || b & !SIGN == 0 {
        return sign;
    }
    let (ma, ea) = unpack_norm(a);
    let (mb, eb) = unpack_norm(b);
    let p = u128::from(ma) * u128::from(mb);
    let e = ea + eb - 1023;
    if p >> 105 != 0 {
        round_pack(sign, e + 1, shr_jam128(p, 43) as u64)
    } else {
        round_pack(sign, e, shr_jam128(p, 42) as u64)
    }
}

#[inline(never)]
fn div_special(a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & SIGN;
    let (aa, bb) = (a & !SIGN, b & !SIGN);
    if aa > EXP_MASK || bb > EXP_MASK {
        return CANON_NAN;
    }
    if aa == EXP_MASK {
        if bb == EXP_MASK {
            CANON_NAN
        } else {
            sign | EXP_MASK
        }
    } else if bb == EXP_MASK {
        sign
    } else if bb == 0 {
        if aa == 0 { CANON_NAN } else { sign | EXP_MASK }
    } else {
        sign // 0 / finite nonzero
    }
}

/// Quotient of two normalised significands (`2^52 <= ma, mb < 2^53`) as `(sig, adjust)`:
/// `sig` has bit 62 set and its bit 0 is sticky (`sig * 2^-62 * 2^adjust` approximates
/// `ma / mb` with `adjust` 0 or -1).
#[inline(always)]
fn div_sig(ma: u64, mb: u64) -> (u64, i32) {
    let lt = u32::from(ma < mb);
    let num = u128::from(ma) << (62 + lt);
    let d = u128::from(mb);
    let q = (num / d) as u64;
    let r = num - u128::from(q) * d;
    (q | u64::from(r != 0), -(lt as i32))
}

/// IEEE division of raw bits.
///
/// Fast path: both operands normal (nonzero, finite, not subnormal).
#[inline]
pub(crate) fn div(a: u64, b: u64) -> u64 {
    let (ea, eb) = (field(a), field(b));
    if !both_normal(ea, eb) {
        return div_slow(a, b);
    }
    let sign = (a ^ b) & SIGN;
    let (q, adj) = div_sig((a & FRAC_MASK) | HIDDEN, (b & FRAC_MASK) | HIDDEN);
    round_pack(sign, ea as i32 - eb as i32 + 1023 + adj, q)
}

/// Division when an operand is zero, subnormal, infinite or NaN.
#[inline(never)]
fn div_slow(a: u64, b: u64) -> u64 {
    if (a & EXP_MASK) == EXP_MASK || (b & EXP_MASK) == EXP_MASK || a & !SIGN == 0 || b & !SIGN == 0
    {
        return div_special(a, b);
    }
    let sign = (a ^ b) & SIGN;
    let (ma, ea) = unpack_norm(a);
    let (mb, eb) = unpack_norm(b);
    let (q, adj) = div_sig(ma, mb);
    round_pack(sign, ea - eb + 1023 + adj, q)
}

/// Integer square root of a 128-bit value: `(floor(sqrt(n)), n is a perfect square)`.
#[inline]
pub(crate) fn isqrt_u128(n: u128) -> (u128, bool) {
    if n == 0 {
        return (0, true);
    }
    // Newton's iteration from an upper bound: x_{k+1} = (x_k + n / x_k) / 2 decreases
    // monotonically to floor(sqrt(n)).
    let bits = 128 - n.leading_zeros();
    let mut x: u128 = 1u128 << bits.div_ceil(2);
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            break;
        }
        x = y;
    }
    (x, x * x == n)
}

/// `2^31 / sqrt((2i + 1) / 64)` (rounded down) for `32 <= i < 128`, stored at `i - 32`:
/// seeds of the reciprocal square root of a significand `X = m / 2^52` in `[1, 4)` whose top
/// bits are `i` (`i = m >> 47`), in Q31 fixed point. About 8 correct bits.
const RSQRT_SEED: [u32; 96] = {
    let mut t = [0u32; 96];
    let mut i = 0;
    while i < 96 {
        // 2^31 / sqrt((2j + 1) / 64) = sqrt(2^68 / (2j + 1)), j = i + 32
        let n = (1u64 << 63) / (2 * (i as u64 + 32) + 1) * 32;
        // floor(sqrt(n)) by binary search
        let (mut lo, mut hi) = (0u64, 1u64 << 32);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if mid * mid <= n {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        t[i] = lo as u32;
        i += 1;
    }
    t
};

/// An estimate of `floor(sqrt(m * 2^72))` for `2^52 <= m < 2^54`, within a few units (the
/// result is only a starting point: [`isqrt_sig`] corrects it exactly).
///
/// `y ≈ 2^31 / sqrt(X)` (`X = m / 2^52`) from a table seed and two Newton steps
/// `y ← y (3 − X y²) / 2` (~30 bits), then `s ≈ X y · 2^62` and two residual corrections
/// `s ← s + (n − s²) / (2 s)` with `1 / (2 s)` taken from `y`.
#[inline(always)]
fn sqrt_estimate(m: u64) -> u64 {
    let n = u128::from(m) << 72;
    let xq = m >> 22; // X in Q30, in [2^30, 2^32)
    let mut y = u64::from(RSQRT_SEED[((m >> 47) - 32) as usize]);
    for _ in 0..2 {
        let t = xq * ((y * y) >> 32); // X y^2 in Q60, about 2^60
        let f = (3u64 << 60).wrapping_sub(t); // (3 - X y^2) in Q60, about 2^61
        y = (y * (f >> 29)) >> 32;
    }
    // s0 = X y 2^62 = m y 2^-21 (relative error about 2^-26)
    let s0 = ((u128::from(m) * u128::from(y)) >> 21) as u64;
    // 1 / (2 sqrt(n)) = y 2^-94
    // (the shifts keep the residuals within i64 for relative errors up to 2^-24 and 2^-48)
    let d0 = n.wrapping_sub(u128::from(s0) * u128::from(s0)) as i128;
    let c0 = (i128::from((d0 >> 44) as i64) * i128::from(y as i64)) >> 50;
    let s1 = (i128::from(s0) + c0) as u64;
    let d1 = n.wrapping_sub(u128::from(s1) * u128::from(s1)) as i128;
    let c1 = (i128::from((d1 >> 16) as i64) * i128::from(y as i64)) >> 78;
    (i128::from(s1) + c1) as u64
}

/// Integer square root for `2^124 <= n < 2^126` with `n = m * 2^72` (the significand square
/// roots of [`sqrt`]): `(floor(sqrt(n)), exact)`. The estimate of [`sqrt_estimate`] is
/// checked and corrected with the exact residual `n - r^2`; should it ever be off by more
/// than a few units, the exact Newton iteration [`isqrt_u128`] gives the answer instead.
#[inline]
fn isqrt_sig(m: u64) -> (u64, bool) {
    let n = u128::from(m) << 72;
    let r = sqrt_estimate(m);
    let sq = u128::from(r) * u128::from(r);
    // Invariant of the loops: d = n - r^2 (as a wrapping 128-bit value, read signed).
    let mut r = u128::from(r);
    let mut d = n.wrapping_sub(sq) as i128;
    let mut steps = 0;
    while d < 0 {
        d += (2 * r - 1) as i128;
        r -= 1;
        steps += 1;
        if steps > 8 {
            let (x, exact) = isqrt_u128(n);
            return (x as u64, exact);
        }
    }
    while d > (2 * r) as i128 {
        d -= (2 * r + 1) as i128;
        r += 1;
        steps += 1;
        if steps > 8 {
            let (x, exact) = isqrt_u128(n);
            return (x as u64, exact);
        }
    }
    (r as u64, d == 0)
}

/// IEEE square root of raw bits.
///
/// Fast path: a positive normal operand.
#[inline]
pub(crate) fn sqrt(a: u64) -> u64 {
    if a.wrapping_sub(HIDDEN) >= EXP_MASK - HIDDEN {
        return sqrt_slow(a);
    }
    let e = (a >> 52) as i32;
    sqrt_sig((a & FRAC_MASK) | HIDDEN, e)
}

/// Square root of `m * 2^(e - 1075)` for `2^52 <= m < 2^53`.
#[inline(always)]
fn sqrt_sig(m: u64, e: i32) -> u64 {
    // Make the exponent k = e - 1075 even (1075 is odd: k is odd when e is even).
    let odd = (!e & 1) as u32;
    let m = m << odd;
    let k = e - 1075 - odd as i32;
    let (r, exact) = isqrt_sig(m);
    round_pack(0, k / 2 + 1049, r | u64::from(!exact))
}

/// Square root of zeros, negative values, infinities, NaNs and subnormals.
#[inline(never)]
fn sqrt_slow(a: u64) -> u64 {
    if a & !SIGN == 0 {
        return a; // ±0
    }
    if a & SIGN != 0 {
        return CANON_NAN; // negative (including -inf) or negative NaN
    }
    if a >= EXP_MASK {
        return if a == EXP_MASK { a } else { CANON_NAN };
    }
    let (m, e) = unpack_norm(a); // subnormal
    sqrt_sig(m, e)
}

/// `Some(i)` if `bits` is an integral value representable as i64.
pub(crate) fn to_i64_exact(bits: u64) -> Option<i64> {
    if bits & EXP_MASK == EXP_MASK {
        return None;
    }
    if bits & !SIGN == 0 {
        return Some(0);
    }
    let (m, e) = unpack_norm(bits);
    let k = e - 1075; // value = m * 2^k
    let neg = bits & SIGN != 0;
    let mag: u64 = if k >= 0 {
        if k > 11 {
            return None;
        }
        m << k // < 2^64
    } else {
        if -k > 52 || m & ((1u64 << -k) - 1) != 0 {
            return None;
        }
        m >> -k
    };
    if neg {
        if mag <= 1u64 << 63 {
            Some((mag as i64).wrapping_neg())
        } else {
            None
        }
    } else if mag < 1u64 << 63 {
        Some(mag as i64)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_small() {
        for n in 0u128..2000 {
            let (r, ex) = isqrt_u128(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n);
            assert_eq!(ex, r * r == n);
        }
        let big = u128::MAX >> 2;
        let (r, _) = isqrt_u128(big);
        assert!(r * r <= big && (r + 1) * (r + 1) > big);
    }

    #[test]
    fn basic_arith() {
        let one = 0x3ff0_0000_0000_0000u64;
        let two = 0x4000_0000_0000_0000u64;
        assert_eq!(add(one, one), two);
        assert_eq!(mul(two, two), 0x4010_0000_0000_0000);
        assert_eq!(div(one, two), 0x3fe0_0000_0000_0000);
        assert_eq!(sqrt(0x4010_0000_0000_0000), two);
        assert_eq!(to_i64_exact(two), Some(2));
        assert_eq!(to_i64_exact(0xc3e0_0000_0000_0000), Some(i64::MIN));
        assert_eq!(to_i64_exact(0x43e0_0000_0000_0000), None);
    }

    /// SplitMix64: a small deterministic generator (fixed seeds only).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        /// Random sign and mantissa bits with the given exponent field.
        fn with_field(&mut self, e: u64) -> u64 {
            (self.next() & (SIGN | FRAC_MASK)) | (e.min(0x7ff) << 52)
        }

        /// One operand, weighted toward the values where soft-float goes wrong.
        fn edge(&mut self) -> u64 {
            match self.below(20) {
                0..=4 => self.next(),
                5..=7 => {
                    let e = 1023 - 40 + self.below(80);
                    self.with_field(e)
                }
                8 => self.next() & (SIGN | FRAC_MASK), // subnormal or zero
                9 => {
                    // tiny subnormals (few significant bits)
                    (self.next() & SIGN) | (self.next() >> (12 + self.below(52)))
                }
                10 => {
                    let e = 0x7fe - self.below(60);
                    self.with_field(e)
                }
                11 => {
                    let e = 1 + self.below(60);
                    self.with_field(e)
                }
                12 => {
                    // powers of two
                    (self.next() & SIGN) | (self.below(0x7ff) << 52)
                }
                13 => {
                    // few mantissa bits: exact results and ties
                    let bits = self.below(12) as u32;
                    let m = (self.next() & ((1 << bits) - 1)) << (52 - bits);
                    (self.next() & SIGN) | (self.below(0x7ff) << 52) | m
                }
                14 => {
                    // all-ones / all-zeros runs in the mantissa (carries when rounding)
                    let k = self.below(53) as u32;
                    let m = if self.next() & 1 == 0 {
                        FRAC_MASK >> k
                    } else {
                        FRAC_MASK ^ (FRAC_MASK >> k)
                    };
                    let e = self.below(0x7ff);
                    (self.next() & SIGN) | (e << 52) | m
                }
                15 => [
                    0,
                    SIGN,
                    EXP_MASK,
                    EXP_MASK | SIGN,
                    CANON_NAN,
                    CANON_NAN | SIGN,
                    EXP_MASK | 1,
                    EXP_MASK | 0x1234_5678,
                    1,
                    SIGN | 1,
                    FRAC_MASK,
                    HIDDEN,
                    0x7fef_ffff_ffff_ffff,
                    0x3ff0_0000_0000_0000,
                ][self.below(14) as usize],
                _ => {
                    // integers
                    let v = (self.next() >> self.below(64)) as i64;
                    let v = if self.next() & 1 == 0 {
                        v
                    } else {
                        v.wrapping_neg()
                    };
                    (v as f64).to_bits()
                }
            }
        }

        /// An operand pair: independent edge values or pairs built to hit ties, cancellation
        /// and results at the edges of the exponent range.
        fn pair(&mut self) -> (u64, u64) {
            match self.below(10) {
                0..=3 => (self.edge(), self.edge()),
                4 => {
                    // same neighbourhood, random signs: cancellation
                    let a = self.edge();
                    let b = a ^ (self.next() & ((1 << self.below(54)) - 1)) ^ (self.next() & SIGN);
                    (a, b)
                }
                5 => {
                    // b near half an ulp of a (addition ties), exponent gap 52..56
                    let ea = 1 + self.below(0x7fe);
                    let a = self.with_field(ea);
                    let ea = (a >> 52) & 0x7ff;
                    let eb = ea.saturating_sub(52 + self.below(5));
                    let mb = if self.next() & 1 == 0 {
                        0
                    } else {
                        self.next() & 0xf
                    };
                    (a, (self.next() & SIGN) | (eb << 52) | mb)
                }
                6 => {
                    // products with about 53-55 significant bits: multiplication ties
                    let ka = 1 + self.below(53) as u32;
                    let kb = (54 - ka as i32 + self.below(3) as i32 - 1).clamp(1, 53) as u32;
                    // odd significands of exactly ka and kb bits
                    let ma = (1 << (ka - 1)) | (self.next() & ((1 << (ka - 1)) - 1)) | 1;
                    let mb = (1 << (kb - 1)) | (self.next() & ((1 << (kb - 1)) - 1)) | 1;
                    let fa = (ma << (53 - ka)) & FRAC_MASK;
                    let fb = (mb << (53 - kb)) & FRAC_MASK;
                    let ea = self.below(0x7ff);
                    // exponent sums near underflow, overflow, or in the middle
                    let eb = match self.below(3) {
                        0 => (1023 + 52 - ea as i64 + self.below(8) as i64 - 4).clamp(0, 0x7fe),
                        1 => (1023 + 0x7fe - ea as i64 - self.below(4) as i64).clamp(0, 0x7fe),
                        _ => self.below(0x7ff) as i64,
                    } as u64;
                    let sa = self.next() & SIGN;
                    let sb = self.next() & SIGN;
                    (sa | (ea << 52) | fa, sb | (eb << 52) | fb)
                }
                7 => {
                    // division into the subnormal range (ties possible) or by powers of two
                    let a = self.edge();
                    let eb = self.below(0x7ff);
                    let b = (self.next() & SIGN) | (eb << 52);
                    (a, b)
                }
                8 => {
                    // exponents whose sum or difference is near the overflow/underflow limits
                    let ea = self.below(0x7ff);
                    let eb = match self.below(4) {
                        0 => 1023 + 0x7fe - ea,
                        1 => 1023u64.saturating_sub(ea),
                        2 => ea.saturating_sub(1023),
                        _ => (ea + 1023).saturating_sub(0x7fe),
                    };
                    let eb = (eb + self.below(5)).saturating_sub(2);
                    (self.with_field(ea), self.with_field(eb))
                }
                _ => {
                    let a = self.edge();
                    (a, a)
                }
            }
        }
    }

    fn cases() -> u64 {
        std::env::var("PVM_FLOAT_SOFT_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1 << 21)
    }

    /// The hardware result with any NaN replaced by the canonical NaN.
    fn hw(x: f64) -> u64 {
        let b = core::hint::black_box(x).to_bits();
        if b & !SIGN > EXP_MASK { CANON_NAN } else { b }
    }

    /// `add`, `mul`, `div` (fast and slow paths) and `sqrt` against the host's IEEE-754
    /// hardware (a test-only oracle: basic operations are exactly specified), and each fast
    /// path against its general slow path.
    #[test]
    fn basic_ops_match_hardware_on_edge_weighted_inputs() {
        let mut rng = Rng(0x5eed_0001);
        for _ in 0..cases() {
            let (a, b) = rng.pair();
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let want = hw(x + y);
            assert_eq!(add(a, b), want, "add({a:#018x}, {b:#018x})");
            assert_eq!(add_slow(a, b), want, "add_slow({a:#018x}, {b:#018x})");
            let want = hw(x - y);
            assert_eq!(add(a, b ^ SIGN), want, "sub({a:#018x}, {b:#018x})");
            let want = hw(x * y);
            assert_eq!(mul(a, b), want, "mul({a:#018x}, {b:#018x})");
            assert_eq!(mul_slow(a, b), want, "mul_slow({a:#018x}, {b:#018x})");
            let want = hw(x / y);
            assert_eq!(div(a, b), want, "div({a:#018x}, {b:#018x})");
            assert_eq!(div_slow(a, b), want, "div_slow({a:#018x}, {b:#018x})");
            assert_eq!(sqrt(a), hw(x.sqrt()), "sqrt({a:#018x})");
        }
    }

    /// Square roots of exact squares and their neighbours, and of every seed interval's ends.
    #[test]
    fn sqrt_exact_squares_and_neighbours() {
        let mut rng = Rng(0x5eed_0002);
        for _ in 0..cases() / 4 {
            let r = (rng.next() >> (11 + rng.below(40))) | 1;
            let sq = (r as f64) * (r as f64);
            let e = rng.below(200) as i32 - 100;
            let v = sq * 2f64.powi(2 * e);
            for d in [-2i64, -1, 0, 1, 2] {
                let a = (v.to_bits() as i64 + d) as u64;
                assert_eq!(sqrt(a), hw(f64::from_bits(a).sqrt()), "sqrt({a:#018x})");
            }
        }
        for i in 32u64..128 {
            for e in [0x3ffu64, 0x400] {
                for m in [(i << 47) - 1, i << 47, (i << 47) + 1, (i << 47) + (1 << 46)] {
                    let m = m & ((1 << 54) - 1);
                    if m < 1 << 52 {
                        continue;
                    }
                    let bits = ((e + ((m >> 53) & 1)) << 52) | (m & FRAC_MASK);
                    assert_eq!(sqrt(bits), hw(f64::from_bits(bits).sqrt()));
                }
            }
        }
    }

    /// The square-root estimate is always within two units of the exact root, so the exact
    /// correction takes at most two steps and the fallback is never needed.
    #[test]
    fn sqrt_estimate_is_within_two_units() {
        let mut rng = Rng(0x5eed_0003);
        let check = |m: u64| {
            let (exact, _) = isqrt_u128(u128::from(m) << 72);
            let est = sqrt_estimate(m);
            let diff = (i128::from(est) - exact as i128).abs();
            assert!(diff <= 2, "m = {m:#x}: estimate {est:#x}, root {exact:#x}");
        };
        for i in 32u64..128 {
            for off in [0u64, 1, 2, 1 << 20, 1 << 46, (1 << 47) - 2, (1 << 47) - 1] {
                check((i << 47) + off);
            }
        }
        check((1 << 54) - 1);
        for _ in 0..cases() / 8 {
            check((1 << 52) + rng.below(3 << 52));
        }
    }

    #[test]
    fn from_u64_matches_hardware() {
        let mut rng = Rng(0x5eed_0004);
        for _ in 0..cases() / 4 {
            let v = rng.next() >> rng.below(64);
            let v = match rng.below(4) {
                0 => v,
                1 => v | 1,
                2 => (v >> 11) << 11 | 0x400, // ties at 64 bits
                _ => v.wrapping_add(rng.below(5)).wrapping_sub(2),
            };
            assert_eq!(from_u64(false, v, 0), (v as f64).to_bits(), "{v:#x}");
            let s = v as i64;
            assert_eq!(
                from_u64(s < 0, s.unsigned_abs(), 0),
                (s as f64).to_bits(),
                "{s}"
            );
            assert_eq!(from_i64(s), (s as f64).to_bits(), "{s}");
        }
        for base in [0i64, 1 << 53, 1 << 54, i64::MAX, i64::MIN] {
            for d in -3i64..=3 {
                for v in [base.wrapping_add(d), base.wrapping_add(d).wrapping_neg()] {
                    assert_eq!(from_i64(v), (v as f64).to_bits(), "{v}");
                }
            }
        }
    }
}
