//! Property tests against the host's IEEE-754 hardware used as an oracle (tests only: the
//! crate itself never executes a floating-point instruction). NaN results are compared as
//! "our result is the canonical NaN".
//!
//! The number of random cases per operation defaults to 1,000,000 and can be changed with
//! `PVM_FLOAT_ORACLE_CASES`.

use pvm_float::F64;

const CANON_NAN: u64 = 0x7ff8_0000_0000_0000;

/// SplitMix64: small deterministic PRNG.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value from a mix of distributions that hit the interesting paths.
    fn value(&mut self) -> u64 {
        let r = self.next();
        match r % 16 {
            0..=5 => self.next(), // any bit pattern
            6 | 7 => {
                // exponent near 1.0
                let e = 1023 - 30 + (self.next() % 60);
                (self.next() & (1 << 63 | ((1 << 52) - 1))) | (e << 52)
            }
            8 => self.next() & 0x800f_ffff_ffff_ffff, // subnormal / zero
            9 => {
                // near overflow
                let e = 2046 - (self.next() % 4);
                (self.next() & (1 << 63 | ((1 << 52) - 1))) | (e << 52)
            }
            10 => {
                // near underflow threshold
                let e = self.next() % 4;
                (self.next() & (1 << 63 | ((1 << 52) - 1))) | (e << 52)
            }
            11 => {
                // small integers
                let v = (self.next() % 2001) as i64 - 1000;
                (v as f64).to_bits()
            }
            12 => {
                // few mantissa bits (exact results, ties)
                let m = self.next() & 0xf;
                let e = 1000 + (self.next() % 50);
                (self.next() & (1 << 63)) | (e << 52) | (m << 48)
            }
            13 => {
                // specials
                [
                    0u64,
                    1 << 63,
                    0x7ff0_0000_0000_0000,
                    0xfff0_0000_0000_0000,
                    0x7ff8_0000_0000_0000,
                    0x7ff0_0000_0000_0001,
                    1,
                    0x7fef_ffff_ffff_ffff,
                    0x0010_0000_0000_0000,
                ][(self.next() % 9) as usize]
            }
            _ => {
                // all-ones / all-zeros mantissas (rounding carries)
                let e = self.next() % 2047;
                let m = if self.next() & 1 == 0 {
                    (1 << 52) - 1
                } else {
                    0
                };
                (self.next() & (1 << 63)) | (e << 52) | m
            }
        }
    }
}

fn cases() -> usize {
    std::env::var("PVM_FLOAT_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

fn expect(hw: f64) -> u64 {
    // NaN test on the bits: LLVM may fold `sqrt(x).is_nan()` into `x.is_nan()` in release.
    let b = std::hint::black_box(hw).to_bits();
    if b & !(1 << 63) > 0x7ff0_0000_0000_0000 {
        CANON_NAN
    } else {
        b
    }
}

fn check2(name: &str, seed: u64, ours: impl Fn(F64, F64) -> F64, hw: impl Fn(f64, f64) -> f64) {
    let mut rng = Rng(seed);
    let n = cases();
    for i in 0..n {
        let (a, b) = if i % 4 == 0 {
            // same-exponent neighbourhood: exercises cancellation
            let a = rng.value();
            let b = a ^ (rng.next() & ((1 << (rng.next() % 53)) - 1)) ^ (rng.next() & (1 << 63));
            (a, b)
        } else {
            (rng.value(), rng.value())
        };
        let got = ours(F64(a), F64(b)).0;
        let want = expect(hw(f64::from_bits(a), f64::from_bits(b)));
        assert_eq!(
            got, want,
            "{name}({a:#018x}, {b:#018x}): got {got:#018x} want {want:#018x}"
        );
    }
}

#[test]
fn add_matches_hardware() {
    check2("add", 1, |a, b| a.add(b), |a, b| a + b);
}

#[test]
fn sub_matches_hardware() {
    check2("sub", 2, |a, b| a.sub(b), |a, b| a - b);
}

#[test]
fn mul_matches_hardware() {
    check2("mul", 3, |a, b| a.mul(b), |a, b| a * b);
}

#[test]
fn div_matches_hardware() {
    check2("div", 4, |a, b| a.div(b), |a, b| a / b);
}

#[test]
fn fmod_matches_hardware() {
    check2("fmod", 5, |a, b| a.fmod(b), |a, b| a % b);
}

#[test]
fn sqrt_and_rounding_match_hardware() {
    let mut rng = Rng(6);
    for _ in 0..cases() {
        let a = rng.value();
        let x = f64::from_bits(a);
        let fx = F64(a);
        assert_eq!(fx.sqrt().0, expect(x.sqrt()), "sqrt({a:#018x})");
        assert_eq!(fx.floor().0, expect(x.floor()), "floor({a:#018x})");
        assert_eq!(fx.ceil().0, expect(x.ceil()), "ceil({a:#018x})");
        assert_eq!(fx.trunc().0, expect(x.trunc()), "trunc({a:#018x})");
        assert_eq!(
            fx.round_half_even().0,
            expect(x.round_ties_even()),
            "round({a:#018x})"
        );
        assert_eq!(fx.abs().0, expect(x.abs()));
        assert_eq!(fx.neg().0, expect(-x));
        assert_eq!(
            fx.is_integer(),
            x.is_finite() && x.fract() == 0.0,
            "is_integer({a:#018x})"
        );
        let two63 = f64::from_bits(0x43e0_0000_0000_0000);
        let exact = if x.is_finite() && x.fract() == 0.0 && (-two63..two63).contains(&x) {
            Some(x as i64)
        } else {
            None
        };
        assert_eq!(fx.to_i64_exact(), exact, "to_i64_exact({a:#018x})");
    }
}

#[test]
fn comparisons_match_hardware() {
    let mut rng = Rng(7);
    for i in 0..cases() {
        let a = rng.value();
        let b = if i % 3 == 0 {
            a ^ (rng.next() & (1 << 63))
        } else {
            rng.value()
        };
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let (fa, fb) = (F64(a), F64(b));
        assert_eq!(fa.eq(fb), x == y, "eq {a:#x} {b:#x}");
        assert_eq!(fa.ne(fb), x != y);
        assert_eq!(fa.lt(fb), x < y, "lt {a:#x} {b:#x}");
        assert_eq!(fa.le(fb), x <= y);
        assert_eq!(fa.gt(fb), x > y);
        assert_eq!(fa.ge(fb), x >= y);
    }
}

#[test]
fn int_conversions_match_hardware() {
    let mut rng = Rng(8);
    for i in 0..cases() {
        let r = rng.next();
        let v = match i % 4 {
            0 => r as i64,
            1 => (r >> (r % 64)) as i64,
            2 => -((r >> (r % 64)) as i64),
            _ => (r % 100_000) as i64 - 50_000,
        };
        assert_eq!(F64::from_i64(v).0, (v as f64).to_bits(), "from_i64({v})");
        assert_eq!(F64::from_u64(r).0, (r as f64).to_bits(), "from_u64({r})");
        // big ints: two limbs
        let hi = rng.next() >> (rng.next() % 64);
        let lo = rng.next();
        let want = (((hi as u128) << 64) | lo as u128) as f64;
        assert_eq!(
            F64::from_bigint_parts(false, &[lo, hi]).unwrap().0,
            want.to_bits(),
            "bigint {hi:#x}:{lo:#x}"
        );
    }
}
