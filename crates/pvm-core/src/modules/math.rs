//! The native `math` module over `pvm-float`'s deterministic soft-float functions.

use crate::dict::Dict;
use crate::float::F64;
use crate::int;
use crate::value::*;
use crate::vm::{PyResult, Vm};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use pvm_float::math as m;
use std::rc::Rc;

const MATH_FUNCS: &[&str] = &[
    "sqrt",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "hypot",
    "fmod",
    "remainder",
    "copysign",
    "fabs",
    "frexp",
    "ldexp",
    "modf",
    "floor",
    "ceil",
    "trunc",
    "isfinite",
    "isinf",
    "isnan",
    "isclose",
    "degrees",
    "radians",
    "nextafter",
    "ulp",
    "cbrt",
    "fsum",
    "erf",
    "erfc",
    "gamma",
    "lgamma",
    "pow",
    "isqrt",
    "gcd",
    "lcm",
    "factorial",
    "comb",
    "perm",
    "prod",
    "dist",
];

/// Build the `math` module object.
pub fn module() -> Value {
    let mut d = Dict::new();
    for f in MATH_FUNCS {
        d.set_str(
            Rc::new(PyStr::new(*f)),
            Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::ModuleFunc("math", f),
                recv: None,
            })),
        );
    }
    for (n, v) in [
        ("pi", m::pi()),
        ("e", m::e()),
        ("tau", m::tau()),
        ("inf", m::inf()),
        ("nan", m::nan()),
    ] {
        d.set_str(Rc::new(PyStr::new(n)), Value::Float(v));
    }
    super::new_module("math", d)
}

fn f(vm: &Vm, v: &Value) -> PyResult<F64> {
    vm.to_float(v)
}

fn fv(vm: &Vm, r: Result<F64, pvm_float::FloatError>) -> PyResult<Value> {
    r.map(Value::Float).map_err(|e| vm.float_err(e))
}

fn big(vm: &Vm, v: &Value) -> PyResult<BigInt> {
    match int::to_big(v) {
        Some(b) => Ok(b),
        None => Err(vm.type_err(format!(
            "'{}' object cannot be interpreted as an integer",
            vm.type_name(v)
        ))),
    }
}

fn to_int(vm: &Vm, r: Result<F64, pvm_float::FloatError>) -> PyResult<Value> {
    let x = r.map_err(|e| vm.float_err(e))?;
    if x.is_nan() {
        return Err(vm.exc("ValueError", "cannot convert float NaN to integer"));
    }
    if x.is_infinite() {
        return Err(vm.exc("OverflowError", "cannot convert float infinity to integer"));
    }
    let b = crate::float::to_bigint(x).map_err(|e| vm.float_err(e))?;
    int::checked(b).map_err(|e| vm.int_err(e))
}

/// Call `math.name(*args, **kw)`.
pub fn call(
    vm: &mut Vm,
    name: &str,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
) -> PyResult<Value> {
    vm.charge(20)?;
    let a = |i: usize| args.get(i).cloned().unwrap_or_default();
    let need = |vm: &Vm, n: usize| -> PyResult<()> {
        if args.len() != n {
            return Err(vm.type_err(format!(
                "math.{name}() takes exactly {} argument{} ({} given)",
                if n == 1 { "one" } else { "two" },
                if n == 1 { "" } else { "s" },
                args.len()
            )));
        }
        Ok(())
    };
    match name {
        "floor" | "ceil" | "trunc" => {
            need(vm, 1)?;
            let x = a(0);
            if crate::ops::is_int(&x) {
                return Ok(match x {
                    Value::Bool(b) => Value::Int(b as i64),
                    v => v,
                });
            }
            let x = f(vm, &x)?;
            to_int(
                vm,
                match name {
                    "floor" => m::floor(x),
                    "ceil" => m::ceil(x),
                    _ => m::trunc(x),
                },
            )
        }
        "isqrt" => {
            need(vm, 1)?;
            let n = big(vm, &a(0))?;
            if n.is_negative() {
                return Err(vm.exc("ValueError", "isqrt() argument must be nonnegative"));
            }
            vm.charge(n.bits())?;
            Ok(int::from_big(n.sqrt()))
        }
        "gcd" | "lcm" => {
            let mut acc = if name == "gcd" {
                BigInt::zero()
            } else {
                BigInt::one()
            };
            for v in &args {
                let b = big(vm, v)?;
                acc = if name == "gcd" {
                    num_integer::Integer::gcd(&acc, &b)
                } else if acc.is_zero() || b.is_zero() {
                    BigInt::zero()
                } else {
                    num_integer::Integer::lcm(&acc, &b)
                };
            }
            int::checked(acc).map_err(|e| vm.int_err(e))
        }
        "factorial" => {
            need(vm, 1)?;
            let x = a(0);
            if let Value::Float(_) = x {
                return Err(vm.type_err("'float' object cannot be interpreted as an integer"));
            }
            let n = big(vm, &x)?;
            if n.is_negative() {
                return Err(vm.exc("ValueError", "factorial() not defined for negative values"));
            }
            let n = n.to_u64().unwrap_or(u64::MAX);
            let mut acc = BigInt::one();
            for i in 2..=n {
                vm.charge(1 + acc.bits() / 64)?;
                acc *= i;
                if acc.bits() > int::MAX_BITS {
                    return Err(vm.int_err(int::IntError::Overflow));
                }
            }
            Ok(int::from_big(acc))
        }
        "comb" | "perm" => {
            let n = big(vm, &a(0))?;
            let k = if args.len() > 1 && !a(1).is_none() {
                big(vm, &a(1))?
            } else {
                n.clone()
            };
            if n.is_negative() || k.is_negative() {
                return Err(vm.exc(
                    "ValueError",
                    format!(
                        "{} must be a non-negative integer",
                        if n.is_negative() { "n" } else { "k" }
                    ),
                ));
            }
            if k > n {
                return Ok(Value::Int(0));
            }
            let kk = k.to_u64().unwrap_or(u64::MAX);
            let kk = if name == "comb" {
                kk.min((&n - &k).to_u64().unwrap_or(u64::MAX))
            } else {
                kk
            };
            let mut acc = BigInt::one();
            for i in 0..kk {
                vm.charge(1 + acc.bits() / 64)?;
                acc *= &n - BigInt::from(i);
                if name == "comb" {
                    acc /= BigInt::from(i + 1);
                }
                if acc.bits() > int::MAX_BITS + 64 {
                    return Err(vm.int_err(int::IntError::Overflow));
                }
            }
            int::checked(acc).map_err(|e| vm.int_err(e))
        }
        "prod" => {
            let items = vm.collect(&a(0))?;
            let mut acc = match kw.iter().find(|(k, _)| &**k == "start") {
                Some((_, v)) => v.clone(),
                None => Value::Int(1),
            };
            for it in items {
                acc = vm.binary_op(&acc, &it, crate::bytecode::BinOp::Mul, false)?;
            }
            Ok(acc)
        }
        "fsum" => {
            let items = vm.collect(&a(0))?;
            let mut v = Vec::with_capacity(items.len());
            for it in &items {
                v.push(f(vm, it)?);
            }
            fv(vm, m::fsum(&v))
        }
        "isfinite" | "isinf" | "isnan" => {
            need(vm, 1)?;
            let x = f(vm, &a(0))?;
            Ok(Value::Bool(match name {
                "isfinite" => m::isfinite(x),
                "isinf" => m::isinf(x),
                _ => m::isnan(x),
            }))
        }
        "isclose" => {
            let x = f(vm, &a(0))?;
            let y = f(vm, &a(1))?;
            let rel = match kw.iter().find(|(k, _)| &**k == "rel_tol") {
                Some((_, v)) => f(vm, v)?,
                None => m::default_rel_tol(),
            };
            let abs = match kw.iter().find(|(k, _)| &**k == "abs_tol") {
                Some((_, v)) => f(vm, v)?,
                None => F64::ZERO,
            };
            m::isclose(x, y, rel, abs)
                .map(Value::Bool)
                .map_err(|e| vm.float_err(e))
        }
        "frexp" => {
            let (mm, e) = m::frexp(f(vm, &a(0))?).map_err(|e| vm.float_err(e))?;
            Ok(Value::tuple(vec![Value::Float(mm), Value::Int(e)]))
        }
        "modf" => {
            let (fr, ip) = m::modf(f(vm, &a(0))?).map_err(|e| vm.float_err(e))?;
            Ok(Value::tuple(vec![Value::Float(fr), Value::Float(ip)]))
        }
        "ldexp" => {
            let x = f(vm, &a(0))?;
            let i = vm.to_index(&a(1))?;
            fv(vm, m::ldexp(x, i))
        }
        "log" => {
            let x = a(0);
            // log of big ints: use bit length scaling
            let xf = match &x {
                Value::BigInt(b) if b.bits() > 1000 => {
                    if b.is_negative() {
                        return Err(vm.exc("ValueError", "math domain error"));
                    }
                    let shift = b.bits() - 64;
                    let top = crate::float::from_bigint(&(b.as_ref() >> shift as usize))
                        .map_err(|e| vm.float_err(e))?;
                    let l = m::log(top).map_err(|e| vm.float_err(e))?;
                    let ln2 = m::log(F64::from_i64(2)).map_err(|e| vm.float_err(e))?;
                    let r = l.add(F64::from_i64(shift as i64).mul(ln2));
                    if args.len() > 1 {
                        let base = m::log(f(vm, &a(1))?).map_err(|e| vm.float_err(e))?;
                        return Ok(Value::Float(r.div(base)));
                    }
                    return Ok(Value::Float(r));
                }
                _ => f(vm, &x)?,
            };
            if args.len() > 1 {
                fv(vm, m::log_base(xf, f(vm, &a(1))?))
            } else {
                fv(vm, m::log(xf))
            }
        }
        "dist" => {
            let p = vm.collect(&a(0))?;
            let q = vm.collect(&a(1))?;
            if p.len() != q.len() {
                return Err(vm.exc(
                    "ValueError",
                    "both points must have the same number of dimensions",
                ));
            }
            let mut d = Vec::new();
            for (x, y) in p.iter().zip(q.iter()) {
                d.push(f(vm, x)?.sub(f(vm, y)?));
            }
            fv(vm, m::hypot_n(&d))
        }
        "hypot" => {
            let mut d = Vec::new();
            for x in &args {
                d.push(f(vm, x)?);
            }
            fv(vm, m::hypot_n(&d))
        }
        _ => {
            // one- and two-argument float functions
            let one: Option<fn(F64) -> Result<F64, pvm_float::FloatError>> = match name {
                "sqrt" => Some(m::sqrt),
                "exp" => Some(m::exp),
                "exp2" => Some(m::exp2),
                "expm1" => Some(m::expm1),
                "log2" => Some(m::log2),
                "log10" => Some(m::log10),
                "log1p" => Some(m::log1p),
                "sin" => Some(m::sin),
                "cos" => Some(m::cos),
                "tan" => Some(m::tan),
                "asin" => Some(m::asin),
                "acos" => Some(m::acos),
                "atan" => Some(m::atan),
                "sinh" => Some(m::sinh),
                "cosh" => Some(m::cosh),
                "tanh" => Some(m::tanh),
                "asinh" => Some(m::asinh),
                "acosh" => Some(m::acosh),
                "atanh" => Some(m::atanh),
                "fabs" => Some(m::fabs),
                "degrees" => Some(m::degrees),
                "radians" => Some(m::radians),
                "ulp" => Some(m::ulp),
                "cbrt" => Some(m::cbrt),
                "erf" => Some(m::erf),
                "erfc" => Some(m::erfc),
                "gamma" => Some(m::gamma),
                "lgamma" => Some(m::lgamma),
                _ => None,
            };
            if let Some(func) = one {
                need(vm, 1)?;
                let x = f(vm, &a(0))?;
                return fv(vm, func(x));
            }
            type F2 = fn(F64, F64) -> Result<F64, pvm_float::FloatError>;
            let two: Option<F2> = match name {
                "atan2" => Some(m::atan2),
                "fmod" => Some(m::fmod),
                "remainder" => Some(m::remainder),
                "copysign" => Some(m::copysign),
                "nextafter" => Some(m::nextafter),
                "pow" => Some(m::pow),
                _ => None,
            };
            if let Some(func) = two {
                need(vm, 2)?;
                let x = f(vm, &a(0))?;
                let y = f(vm, &a(1))?;
                return fv(vm, func(x, y));
            }
            Err(vm.exc(
                "AttributeError",
                format!("module 'math' has no attribute '{name}'"),
            ))
        }
    }
}
