//! `Ext`: a deterministic extended-precision binary floating-point number with a 128-bit
//! mantissa, used internally by the transcendental functions.
//!
//! Value = `(-1)^neg × m × 2^(e − 127)`; a nonzero value has bit 127 of `m` set. Operations
//! truncate (they are not correctly rounded) and have a relative error of a few units of
//! 2^-127; results are converted to binary64 with a single correct rounding, so functions
//! computed with a few bits of slack are correctly rounded except in astronomically rare
//! cases. Exponents are `i64` and never overflow in the ranges used here.

use crate::soft;

/// Extended-precision value (see module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ext {
    pub(crate) neg: bool,
    pub(crate) m: u128,
    pub(crate) e: i64,
}

const M64: u128 = (1u128 << 64) - 1;
const TOP: u128 = 1u128 << 127;

/// High and low 128-bit halves of the 256-bit product `a × b`.
#[inline]
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0) = (a >> 64, a & M64);
    let (b1, b0) = (b >> 64, b & M64);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 & M64) + (p10 & M64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    let lo = (mid << 64) | (p00 & M64);
    (hi, lo)
}

pub(crate) const ZERO: Ext = Ext {
    neg: false,
    m: 0,
    e: 0,
};
pub(crate) const ONE: Ext = Ext {
    neg: false,
    m: TOP,
    e: 0,
};
pub(crate) const TWO: Ext = Ext {
    neg: false,
    m: TOP,
    e: 1,
};
pub(crate) const HALF: Ext = Ext {
    neg: false,
    m: TOP,
    e: -1,
};

pub(crate) const LN2: Ext = Ext::from_parts(false, 0xb17217f7d1cf79abc9e3b39803f2f6af, -1);
pub(crate) const LN10: Ext = Ext::from_parts(false, 0x935d8dddaaa8ac16ea56d62b82d30a29, 1);
pub(crate) const INV_LN2: Ext = Ext::from_parts(false, 0xb8aa3b295c17f0bbbe87fed0691d3e89, 0);
pub(crate) const PI: Ext = Ext::from_parts(false, 0xc90fdaa22168c234c4c6628b80dc1cd1, 1);
pub(crate) const PI_2: Ext = Ext::from_parts(false, 0xc90fdaa22168c234c4c6628b80dc1cd1, 0);
pub(crate) const PI_4: Ext = Ext::from_parts(false, 0xc90fdaa22168c234c4c6628b80dc1cd1, -1);
pub(crate) const TWO_OVER_SQRT_PI: Ext =
    Ext::from_parts(false, 0x906eba8214db688d71d48a7f6bfec344, 0);
pub(crate) const LN_SQRT_2PI: Ext = Ext::from_parts(false, 0xeb3f8e4325f5a53494bc900144192024, -1);
pub(crate) const INV_SQRT_PI: Ext = Ext::from_parts(false, 0x906eba8214db688d71d48a7f6bfec344, -1);

/// `floor(2/π × 2^1280)`, big-endian 64-bit limbs (used for exact argument reduction).
pub(crate) const TWO_OVER_PI_1280: [u64; 20] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b6bab,
    0xf0cfbc209af4361d,
];

impl Ext {
    /// Builds from a normalised mantissa (`m` has bit 127 set) and exponent.
    pub(crate) const fn from_parts(neg: bool, m: u128, e: i64) -> Ext {
        Ext { neg, m, e }
    }

    /// Normalises an arbitrary mantissa `m × 2^(e − 127)`.
    #[inline]
    fn norm(neg: bool, m: u128, e: i64) -> Ext {
        if m == 0 {
            return ZERO;
        }
        let lz = m.leading_zeros();
        Ext {
            neg,
            m: m << lz,
            e: e - i64::from(lz),
        }
    }

    /// Exact conversion from finite binary64 bits.
    pub(crate) fn from_bits(bits: u64) -> Ext {
        if bits & !soft::SIGN == 0 {
            return ZERO;
        }
        let (m, e) = soft::unpack_norm(bits & !soft::SIGN);
        // value = m * 2^(e-1075), m has bit 52 set
        Ext {
            neg: bits & soft::SIGN != 0,
            m: u128::from(m) << 75,
            e: i64::from(e) - 1023,
        }
    }

    /// Exact conversion from an integer.
    pub(crate) fn from_i64(v: i64) -> Ext {
        Ext::norm(v < 0, u128::from(v.unsigned_abs()), 127)
    }

    /// Correctly rounded (from the extended value) conversion to binary64 bits; overflows to
    /// ±inf and underflows gradually.
    pub(crate) fn to_bits(self) -> u64 {
        let sign = if self.neg { soft::SIGN } else { 0 };
        if self.m == 0 {
            return sign;
        }
        if self.e > 1100 {
            return sign | soft::EXP_MASK;
        }
        if self.e < -1200 {
            return sign;
        }
        // m has 128 bits; keep a sticky bit so that rounding sees "inexact" (values are
        // approximations, never exactly halfway unless exact).
        soft::pack_u128(sign, self.m, (self.e - 127) as i32)
    }

    /// `true` for zero.
    #[inline]
    pub(crate) fn is_zero(self) -> bool {
        self.m == 0
    }

    /// `-x`.
    #[inline]
    pub(crate) fn neg(self) -> Ext {
        if self.m == 0 {
            self
        } else {
            Ext {
                neg: !self.neg,
                ..self
            }
        }
    }

    /// `|x|`.
    #[inline]
    pub(crate) fn abs(self) -> Ext {
        Ext { neg: false, ..self }
    }

    /// `x × 2^k`.
    #[inline]
    pub(crate) fn ldexp(self, k: i64) -> Ext {
        if self.m == 0 {
            self
        } else {
            Ext {
                e: self.e + k,
                ..self
            }
        }
    }

    /// Compares magnitudes.
    pub(crate) fn cmp_abs(self, o: Ext) -> core::cmp::Ordering {
        match (self.m == 0, o.m == 0) {
            (true, true) => core::cmp::Ordering::Equal,
            (true, false) => core::cmp::Ordering::Less,
            (false, true) => core::cmp::Ordering::Greater,
            _ => self.e.cmp(&o.e).then(self.m.cmp(&o.m)),
        }
    }

    /// `x + y`.
    pub(crate) fn add(self, o: Ext) -> Ext {
        if o.m == 0 {
            return self;
        }
        if self.m == 0 {
            return o;
        }
        let (a, b) = if self.cmp_abs(o) == core::cmp::Ordering::Less {
            (o, self)
        } else {
            (self, o)
        };
        let d = a.e - b.e;
        if d >= 128 {
            return a;
        }
        let bm = b.m >> d;
        if a.neg == b.neg {
            let (s, carry) = a.m.overflowing_add(bm);
            if carry {
                Ext {
                    neg: a.neg,
                    m: (s >> 1) | TOP,
                    e: a.e + 1,
                }
            } else {
                Ext {
                    neg: a.neg,
                    m: s,
                    e: a.e,
                }
            }
        } else {
            // keep one guard bit from the shifted operand for better cancellation behaviour
            let guard = if d > 0 && d < 128 {
                (b.m >> (d - 1)) & 1
            } else {
                0
            };
            let diff = a.m - bm;
            if diff == 0 && guard == 0 {
                return ZERO;
            }
            if diff == 0 {
                return Ext {
                    neg: a.neg,
                    m: TOP,
                    e: a.e - 128,
                };
            }
            let lz = diff.leading_zeros();
            if lz == 0 {
                return Ext {
                    neg: a.neg,
                    m: diff,
                    e: a.e,
                };
            }
            // diff - guard/2, normalised
            let wide = (diff << lz).wrapping_sub(guard << (lz - 1));
            Ext::norm(a.neg, wide, a.e - i64::from(lz))
        }
    }

    /// `x − y`.
    #[inline]
    pub(crate) fn sub(self, o: Ext) -> Ext {
        self.add(o.neg())
    }

    /// `x × y`.
    pub(crate) fn mul(self, o: Ext) -> Ext {
        if self.m == 0 || o.m == 0 {
            return ZERO;
        }
        let (hi, lo) = mul_wide(self.m, o.m);
        let neg = self.neg != o.neg;
        if hi >> 127 != 0 {
            Ext {
                neg,
                m: hi,
                e: self.e + o.e + 1,
            }
        } else {
            Ext {
                neg,
                m: (hi << 1) | (lo >> 127),
                e: self.e + o.e,
            }
        }
    }

    /// `x × k` for a small integer.
    pub(crate) fn mul_u64(self, k: u64) -> Ext {
        if self.m == 0 || k == 0 {
            return ZERO;
        }
        let lo = (self.m & M64) * u128::from(k);
        let hi = (self.m >> 64) * u128::from(k) + (lo >> 64);
        // product = hi * 2^64 + (lo & M64): up to 192 bits
        let lz = hi.leading_zeros();
        let top = if lz == 0 {
            hi
        } else {
            (hi << lz) | ((lo & M64) >> (64 - lz.min(64)))
        };
        Ext {
            neg: self.neg,
            m: top,
            e: self.e + 64 - i64::from(lz),
        }
    }

    /// `x / k` for a small nonzero integer.
    pub(crate) fn div_u64(self, k: u64) -> Ext {
        if self.m == 0 {
            return ZERO;
        }
        let d = u128::from(k);
        let hi = self.m >> 64;
        let q1 = hi / d;
        let r1 = hi % d;
        let t = (r1 << 64) | (self.m & M64);
        let q0 = t / d;
        let r0 = t % d;
        let extra = (r0 << 64) / d; // next 64 quotient bits
        let q = (q1 << 64) | q0;
        let lz = q.leading_zeros();
        let m = if lz == 0 {
            q
        } else {
            (q << lz) | (extra >> (64 - lz.min(64)))
        };
        Ext {
            neg: self.neg,
            m,
            e: self.e - i64::from(lz),
        }
    }

    /// `1 / x` (x nonzero), by one Newton step from a 64-bit seed.
    pub(crate) fn recip(self) -> Ext {
        if self.m == TOP {
            return Ext {
                neg: self.neg,
                m: TOP,
                e: -self.e,
            };
        }
        let bh = (self.m >> 64) as u64;
        // q0 ≈ 2^192 / m, slightly low, in (2^64, 2^65)
        let q0 = u128::MAX / (u128::from(bh) + 1);
        let y = Ext::norm(self.neg, q0, -self.e - 65 + 127);
        let err = ONE.sub(self.mul(y));
        y.add(y.mul(err))
    }

    /// `x / y` (y nonzero).
    pub(crate) fn div(self, o: Ext) -> Ext {
        self.mul(o.recip())
    }

    /// `√x` for `x ≥ 0`.
    pub(crate) fn sqrt(self) -> Ext {
        if self.m == 0 {
            return ZERO;
        }
        // value = m * 2^(e-127); make the exponent of the integer part even
        let ex = self.e - 127;
        let (m, ex) = if ex & 1 != 0 {
            (self.m >> 1, ex + 1)
        } else {
            (self.m, ex)
        };
        let (r, _) = soft::isqrt_u128(m); // 64-bit seed
        let y = Ext::norm(false, r, ex / 2 + 127);
        y.add(self.div(y)).ldexp(-1)
    }

    /// Nearest integer to `x` as `i64` (ties away from zero); caller guarantees `|x| < 2^62`.
    pub(crate) fn round_i64(self) -> i64 {
        if self.m == 0 || self.e < -2 {
            return 0;
        }
        let sh = 127 - self.e; // bits below the integer point
        let v = if sh >= 128 {
            0
        } else {
            ((self.m >> (sh - 1)) + 1) >> 1
        } as i64;
        if self.neg { -v } else { v }
    }

    /// `floor(x)` as `i64` and the fraction `x − floor(x)` exactly; caller guarantees
    /// `|x| < 2^62`.
    pub(crate) fn split_floor(self) -> (i64, Ext) {
        if self.m == 0 {
            return (0, ZERO);
        }
        if self.e < 0 {
            return if self.neg {
                (-1, ONE.add(self))
            } else {
                (0, self)
            };
        }
        let sh = (127 - self.e) as u32;
        let ip = (self.m >> sh) as i64;
        let frac = if sh == 0 {
            0
        } else {
            self.m & ((1u128 << sh) - 1)
        };
        let f = Ext::norm(false, frac, self.e);
        if !self.neg {
            (ip, f)
        } else if frac == 0 {
            (-ip, ZERO)
        } else {
            (-ip - 1, ONE.sub(f))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn to_big(x: Ext, scale: i64) -> BigUint {
        // floor(|x| * 2^scale)
        let sh = x.e - 127 + scale;
        let m = BigUint::from(x.m);
        if sh >= 0 {
            m << (sh as u64)
        } else {
            m >> ((-sh) as u64)
        }
    }

    #[test]
    fn constants_match_series() {
        // ln 2 = sum_{k>=1} 1 / (k 2^k)
        let prec = 200u64;
        let mut s = BigUint::from(0u32);
        for k in 1u64..260 {
            s += (BigUint::from(1u32) << prec) / (BigUint::from(k) << k);
        }
        let ours = to_big(LN2, prec as i64);
        let diff = if s > ours { &s - &ours } else { &ours - &s };
        assert!(diff.bits() <= 200 - 126, "ln2 off by {diff}");
        // pi by Machin
        let one = BigUint::from(1u32) << prec;
        let atan_inv = |n: u64| {
            let mut pos = BigUint::from(0u32);
            let mut negs = BigUint::from(0u32);
            let mut t = &one / n;
            let mut k = 1u64;
            let mut i = 0;
            while t.bits() > 0 {
                if i % 2 == 0 {
                    pos += &t / k
                } else {
                    negs += &t / k
                }
                t /= n * n;
                k += 2;
                i += 1;
            }
            pos - negs
        };
        let pi = atan_inv(5) * 16u32 - atan_inv(239) * 4u32;
        let ours = to_big(PI, prec as i64);
        let diff = if pi > ours { &pi - &ours } else { &ours - &pi };
        assert!(diff.bits() <= 200 - 124, "pi off");
        // 2/pi table
        let mut t = BigUint::from(0u32);
        for l in TWO_OVER_PI_1280 {
            t = (t << 64u32) + l;
        }
        let prod = t * &pi; // ≈ 2 * 2^(1280 + 200)
        let two = BigUint::from(2u32) << (1280 + prec);
        let diff = if prod > two {
            &prod - &two
        } else {
            &two - &prod
        };
        assert!(diff.bits() < 1280 + prec - 190);
    }

    #[test]
    fn arithmetic() {
        let three = Ext::from_i64(3);
        let third = ONE.div(three);
        let back = third.mul(three);
        let err = back.sub(ONE);
        assert!(err.is_zero() || err.e < -120);
        let s = TWO.sqrt();
        let sq = s.mul(s).sub(TWO);
        assert!(sq.is_zero() || sq.e < -120);
        let q = Ext::from_i64(7).div_u64(7);
        assert!(q == ONE || q.sub(ONE).e < -120);
        assert_eq!(Ext::from_i64(-5).round_i64(), -5);
        assert_eq!(Ext::from_i64(5).mul_u64(3), Ext::from_i64(15));
        let (i, f) = HALF.neg().split_floor();
        assert_eq!(i, -1);
        assert_eq!(f, HALF);
        assert_eq!(
            Ext::from_bits(0x3ff8_0000_0000_0000).to_bits(),
            0x3ff8_0000_0000_0000
        );
    }
}
