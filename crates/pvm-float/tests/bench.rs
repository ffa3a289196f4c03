//! Quick throughput measurement (ignored by default; not a correctness test):
//! `cargo test --release -p pvm-float --test bench -- --ignored --nocapture`.
//! Uses the host FPU only as a speed baseline.

use std::hint::black_box;
use std::time::Instant;

use pvm_float::{F64, math};

fn values(n: usize) -> Vec<u64> {
    let mut s = 0x1234_5678_9abc_def0u64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // normal numbers in [1, 2^20)
            (1023 + (s % 20)) << 52 | (s >> 12)
        })
        .collect()
}

fn time(label: &str, iters: usize, f: impl Fn() -> u64) -> f64 {
    let t = Instant::now();
    let r = f();
    let ns = t.elapsed().as_nanos() as f64 / iters as f64;
    black_box(r);
    println!("{label:24} {ns:8.2} ns/op");
    ns
}

#[test]
#[ignore]
fn bench_soft_vs_hardware() {
    let n = 1 << 16;
    let v = values(n);
    let reps = 64;
    let iters = n * reps;
    macro_rules! soft2 {
        ($name:expr, $op:ident) => {
            time($name, iters, || {
                let mut acc = 0u64;
                for _ in 0..reps {
                    for i in 0..n - 1 {
                        acc ^= F64(black_box(v[i])).$op(F64(v[i + 1])).0;
                    }
                }
                acc
            })
        };
    }
    macro_rules! hw2 {
        ($name:expr, $op:tt) => {
            time($name, iters, || {
                let mut acc = 0u64;
                for _ in 0..reps {
                    for i in 0..n - 1 {
                        acc ^= (f64::from_bits(black_box(v[i])) $op f64::from_bits(v[i + 1])).to_bits();
                    }
                }
                acc
            })
        };
    }
    soft2!("soft add", add);
    hw2!("hardware add", +);
    soft2!("soft sub", sub);
    hw2!("hardware sub", -);
    soft2!("soft mul", mul);
    hw2!("hardware mul", *);
    soft2!("soft div", div);
    hw2!("hardware div", /);
    time("soft sqrt", iters, || {
        let mut acc = 0u64;
        for _ in 0..reps {
            for &x in &v {
                acc ^= F64(black_box(x)).sqrt().0;
            }
        }
        acc
    });
    time("hardware sqrt", iters, || {
        let mut acc = 0u64;
        for _ in 0..reps {
            for &x in &v {
                acc ^= f64::from_bits(black_box(x)).sqrt().to_bits();
            }
        }
        acc
    });
    time("soft pow(x, 0.5)", iters, || {
        let mut acc = 0u64;
        for _ in 0..reps {
            for &x in &v {
                acc ^= F64(black_box(x))
                    .py_pow(F64(0x3fe0_0000_0000_0000))
                    .map(|r| r.0)
                    .unwrap_or(0);
            }
        }
        acc
    });
    time("soft from_i64", iters, || {
        let mut acc = 0u64;
        for _ in 0..reps {
            for &x in &v {
                acc ^= F64::from_i64(black_box(x >> 20) as i64 - (1 << 42)).0;
            }
        }
        acc
    });
    time("soft lt", iters, || {
        let mut acc = 0u64;
        for _ in 0..reps {
            for i in 0..n - 1 {
                acc += u64::from(F64(black_box(v[i])).lt(F64(v[i + 1])));
            }
        }
        acc
    });
    let small = 20_000;
    for (name, f) in [
        ("repr", (|x: F64| x.repr().len() as u64) as fn(F64) -> u64),
        ("parse(repr)", |x: F64| {
            F64::parse(&x.repr()).map(|v| v.0).unwrap_or(0)
        }),
        ("format .6f", |x: F64| x.format_fixed(6).len() as u64),
        ("math.exp", |x: F64| {
            math::exp(x.div(F64::from_i64(1 << 15)))
                .map(|v| v.0)
                .unwrap_or(0)
        }),
        ("math.log", |x: F64| math::log(x).map(|v| v.0).unwrap_or(0)),
        ("math.sin", |x: F64| math::sin(x).map(|v| v.0).unwrap_or(0)),
        ("math.atan", |x: F64| {
            math::atan(x).map(|v| v.0).unwrap_or(0)
        }),
        ("pow(x, 0.5+..)", |x: F64| {
            x.py_pow(F64(0x3fe1_0000_0000_0000))
                .map(|v| v.0)
                .unwrap_or(0)
        }),
    ] {
        time(name, small, || {
            let mut acc = 0u64;
            for &x in &v[..small] {
                acc ^= f(F64(black_box(x)));
            }
            acc
        });
    }
}
