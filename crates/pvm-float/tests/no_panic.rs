//! Robustness: every public function on random and adversarial inputs must return (a value or
//! a typed error) without panicking, in a debug build with overflow checks.

use pvm_float::{F64, FloatError, math};

type Unary = fn(F64) -> Result<F64, FloatError>;
type Binary = fn(F64, F64) -> Result<F64, FloatError>;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn float(&mut self) -> F64 {
        let r = self.next();
        F64(match r % 6 {
            0 => self.next(),
            1 => (self.next() & 0x800f_ffff_ffff_ffff) | ((1023 + self.next() % 40) << 52),
            2 => self.next() & 0x800f_ffff_ffff_ffff,
            3 => (self.next() & 0x800f_ffff_ffff_ffff) | ((2040 + self.next() % 7) << 52),
            4 => [
                0,
                1 << 63,
                0x7ff0 << 48,
                0xfff0 << 48,
                0x7ff8 << 48,
                1,
                0x3ff0 << 48,
                0xbff0 << 48,
            ][(self.next() % 8) as usize],
            _ => F64::from_i64((self.next() % 2001) as i64 - 1000).0,
        })
    }
}

#[test]
fn functions_never_panic() {
    let mut rng = Rng(99);
    let n = std::env::var("PVM_FLOAT_NOPANIC_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let unary: [Unary; 29] = [
        math::sqrt,
        math::exp,
        math::exp2,
        math::expm1,
        math::log,
        math::log2,
        math::log10,
        math::log1p,
        math::sin,
        math::cos,
        math::tan,
        math::asin,
        math::acos,
        math::atan,
        math::sinh,
        math::cosh,
        math::tanh,
        math::asinh,
        math::acosh,
        math::atanh,
        math::erf,
        math::erfc,
        math::gamma,
        math::lgamma,
        math::cbrt,
        math::floor,
        math::ceil,
        math::degrees,
        math::radians,
    ];
    let binary: [Binary; 8] = [
        math::pow,
        math::atan2,
        math::hypot,
        math::fmod,
        math::remainder,
        math::log_base,
        math::nextafter,
        math::copysign,
    ];
    for i in 0..n {
        let x = rng.float();
        let y = rng.float();
        for f in unary {
            let _ = f(x);
        }
        for f in binary {
            let _ = f(x, y);
        }
        let _ = math::frexp(x);
        let _ = math::modf(x);
        let _ = math::ldexp(x, (rng.next() as i64) >> (rng.next() % 64));
        let _ = math::ulp(x);
        let _ = math::isclose(x, y, math::default_rel_tol(), F64::ZERO);
        let _ = math::fsum(&[x, y, x.neg()]);
        let _ = math::dist(&[x, y], &[y, x]);
        let _ = (
            x.py_floordiv(y),
            x.py_rem(y),
            x.py_divmod(y),
            x.py_pow(y),
            x.py_truediv(y),
        );
        let _ = (
            x.py_hash(),
            x.trunc_to_int_parts(),
            x.as_integer_ratio(),
            x.hex(),
            x.repr(),
        );
        let _ = x.round_half_even();
        let nd = (rng.next() % 800) as i64 - 400;
        let _ = x.py_round_ndigits(nd);
        let p = (rng.next() % 40) as usize;
        let _ = (
            x.format_fixed(p),
            x.format_exp(p, i % 2 == 0),
            x.format_general(p, i % 3 == 0, false),
        );
        let _ = x.format_no_type(Some(p));
        let limbs: Vec<u64> = (0..(rng.next() % 20)).map(|_| rng.next()).collect();
        let _ = F64::from_bigint_parts(i % 2 == 0, &limbs);
        let _ = math::log_int(false, &limbs, math::LogKind::Natural);
        // mutated text
        let mut s = x.repr().into_bytes();
        if !s.is_empty() {
            let k = (rng.next() as usize) % s.len();
            s[k] = b"0123456789._eE+-xpinfa \t"[(rng.next() % 24) as usize];
        }
        let s = String::from_utf8_lossy(&s).into_owned();
        let _ = F64::parse(&s);
        let _ = F64::from_hex(&s);
        let _ = F64::from_hex(&x.hex());
    }
}

#[test]
fn adversarial_text_is_handled() {
    let long = "9".repeat(20_000);
    for s in [
        long.clone(),
        format!("0.{long}"),
        format!("{long}e-20000"),
        format!("1e{long}"),
        format!("1e-{long}"),
        "1_".repeat(5000) + "1",
        "0x".to_string() + &"f".repeat(3000) + "p-12000",
        "0x1p99999999999999999999".to_string(),
        "0x1p-99999999999999999999".to_string(),
        "\u{2003}\u{2003}".to_string(),
        "-".to_string(),
        "+.e1".to_string(),
    ] {
        let _ = F64::parse(&s);
        let _ = F64::from_hex(&s);
    }
    assert_eq!(F64::parse(&format!("1e{long}")), Some(F64::INFINITY));
    assert_eq!(F64::parse(&format!("1e-{long}")), Some(F64::ZERO));
    assert!(F64::from_hex("0x1p99999999999999999999").is_err());
    assert_eq!(F64::from_hex("0x1p-99999999999999999999"), Ok(F64::ZERO));
}
