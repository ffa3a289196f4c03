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
#[inline(always)]
pub(crate) fn round_pack(sign: u64, e: i32, sig: u64) -> u64 {
    debug_assert!(sig >> 62 == 1);
    let mut field = e - 1;
    let mut sig = sig;
    if (field as u32) >= 0x7fd {
        if field < 0 {
            sig = shr_jam(sig, (-field).min(64) as u32);
            field = 0;
        } else if field > 0x7fd || sig + 0x200 >= 1 << 63 {
            return sign | EXP_MASK;
        }
    }
    let rb = sig & 0x3ff;
    let mut m = (sig + 0x200) >> 10;
    if rb == 0x200 {
        m &= !1;
    }
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
#[inline]
pub(crate) fn add(a: u64, b: u64) -> u64 {
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
#[inline]
pub(crate) fn mul(a: u64, b: u64) -> u64 {
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

/// IEEE division of raw bits.
#[inline]
pub(crate) fn div(a: u64, b: u64) -> u64 {
    if (a & EXP_MASK) == EXP_MASK || (b & EXP_MASK) == EXP_MASK || a & !SIGN == 0 || b & !SIGN == 0
    {
        return div_special(a, b);
    }
    let sign = (a ^ b) & SIGN;
    let (ma, ea) = unpack_norm(a);
    let (mb, eb) = unpack_norm(b);
    let (num, e) = if ma >= mb {
        (u128::from(ma) << 62, ea - eb + 1023)
    } else {
        (u128::from(ma) << 63, ea - eb + 1022)
    };
    let d = u128::from(mb);
    let q = (num / d) as u64;
    let r = num - u128::from(q) * d;
    round_pack(sign, e, q | u64::from(r != 0))
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

/// `ceil(sqrt((i + 1) · 2^54))` for `i < 256`: upper-bound seeds for [`isqrt_sig`].
const SQRT_SEED: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let n = ((i as u64) + 1) << 54;
        // binary search for ceil(sqrt(n))
        let (mut lo, mut hi) = (0u64, 1u64 << 32);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if mid * mid >= n {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        t[i] = lo as u32;
        i += 1;
    }
    t
};

/// Integer square root for `2^124 <= n < 2^126` (the significand square roots of [`sqrt`]):
/// `(floor(sqrt(n)), exact)`. A table seed and two 64-bit Newton steps give ~31 bits, one
/// 128-bit Newton step gives the root to within a unit, fixed up exactly.
#[inline]
fn isqrt_sig(n: u128) -> (u64, bool) {
    let top = (n >> 64) as u64; // in [2^60, 2^62)
    let mut x = u64::from(SQRT_SEED[(top >> 54) as usize]);
    x = (x + top / x) >> 1;
    x = (x + top / x) >> 1;
    // Newton step on n with r0 = x·2^32: n / r0 == (n >> 32) / x (nested floor division),
    // a division by a 64-bit value.
    let r0 = u128::from(x) << 32;
    let mut r = (r0 + (n >> 32) / u128::from(x)) >> 1;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    (r as u64, r * r == n)
}

/// IEEE square root of raw bits.
#[inline]
pub(crate) fn sqrt(a: u64) -> u64 {
    if a & !SIGN == 0 {
        return a; // ±0
    }
    if a & SIGN != 0 {
        return CANON_NAN; // negative (including -inf) or negative NaN
    }
    if a >= EXP_MASK {
        return if a == EXP_MASK { a } else { CANON_NAN };
    }
    let (mut m, e) = unpack_norm(a);
    let mut k = e - 1075;
    if k & 1 != 0 {
        m <<= 1;
        k -= 1;
    }
    let n = u128::from(m) << 72;
    let (r, exact) = isqrt_sig(n);
    round_pack(0, k / 2 + 1049, r | u64::from(!exact))
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
}
