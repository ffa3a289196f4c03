//! Python object protocol: truth, equality, hashing, ordering, arithmetic, repr/str, iteration,
//! subscripting and attribute access.

use crate::bytecode::{BinOp, CmpOp, UnOp};
use crate::cost;
use crate::dict::{Dict, str_hash};
use crate::float::F64;
use crate::int::{self, IntError};
use crate::value::*;
use crate::vm::{Abort, Flow, PyResult, Vm};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::rc::Rc;

/// `x op y` for two ints when `Vm::binary_op` (in place or not) gives an int computed by its
/// i64 path without raising: the same value. None when the operation raises (division or
/// modulo by zero, negative shift count), overflows i64, or is `/` or `**` (the general path
/// then computes or raises exactly as before). Charges nothing, like that i64 path.
#[inline]
pub fn int_fast(x: i64, y: i64, op: BinOp) -> Option<i64> {
    match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::FloorDiv if y != 0 => x
            .checked_div_euclid(y)
            .map(|_| num_integer::Integer::div_floor(&x, &y)),
        BinOp::Mod if y != 0 => x
            .checked_rem(y)
            .map(|_| num_integer::Integer::mod_floor(&x, &y)),
        BinOp::And => Some(x & y),
        BinOp::Or => Some(x | y),
        BinOp::Xor => Some(x ^ y),
        BinOp::RShift if y >= 0 => Some(if y >= 64 {
            if x < 0 { -1 } else { 0 }
        } else {
            x >> y
        }),
        BinOp::LShift
            if (0..63).contains(&y) && (x.unsigned_abs().leading_zeros() as i64) > y + 1 =>
        {
            Some(x << y)
        }
        _ => None,
    }
}

/// True for a built-in iterator over a list, a tuple or a range (stepped by
/// [`step_simple_iter`] exactly as `Vm::next` steps it).
fn is_simple_iter(v: &Value) -> bool {
    let Value::Iter(i) = v else { return false };
    i.st.try_borrow().is_ok_and(|st| {
        matches!(
            &*st,
            IterState::List(..) | IterState::Tuple(..) | IterState::Range(..)
        )
    })
}

/// `Vm::next` of an iterator accepted by [`is_simple_iter`]: its next item, None when it is
/// exhausted (the state then stays as it is, as `next` leaves it).
fn step_simple_iter(v: &Value) -> Option<Value> {
    let Value::Iter(i) = v else { return None };
    let mut st = i.st.borrow_mut();
    match &mut *st {
        IterState::List(l, idx) => {
            let v = l.v.borrow().get(*idx).cloned();
            if v.is_some() {
                *idx += 1;
            }
            v
        }
        IterState::Tuple(t, idx) => {
            let v = t.v.get(*idx).cloned();
            if v.is_some() {
                *idx += 1;
            }
            v
        }
        IterState::Range(cur, stop, step) => {
            let c = *cur;
            if (*step > 0 && c < *stop) || (*step < 0 && c > *stop) {
                *cur = c.saturating_add(*step);
                Some(Value::Int(c))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether ordering `o` satisfies the ordering operator `op` (`<`, `<=`, `>`, `>=`).
#[inline]
fn ordering_holds(o: Ordering, op: CmpOp) -> bool {
    match op {
        CmpOp::Lt => o == Ordering::Less,
        CmpOp::Le => o != Ordering::Greater,
        CmpOp::Gt => o == Ordering::Greater,
        _ => o != Ordering::Less,
    }
}

/// `Vm::order(a, b, op)` for two ints, two floats or two strs: the result and the cycles it
/// charges (a str comparison costs the shorter length / 16). None for other operands.
#[inline]
fn scalar_order(a: &Value, b: &Value, op: CmpOp) -> Option<(bool, u64)> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some((ordering_holds(x.cmp(y), op), 0)),
        (Value::Str(x), Value::Str(y)) => Some((
            ordering_holds(x.s.as_str().cmp(y.s.as_str()), op),
            x.s.len().min(y.s.len()) as u64 / 16,
        )),
        // Comparable floats map their ordering; NaN makes `order` use the IEEE predicates,
        // which agree with the mapping for comparable values.
        (Value::Float(x), Value::Float(y)) => Some((
            match op {
                CmpOp::Lt => x.lt(*y),
                CmpOp::Le => x.le(*y),
                CmpOp::Gt => x.gt(*y),
                _ => x.ge(*y),
            },
            0,
        )),
        _ => None,
    }
}

/// `Vm::seq_order` on two tuples when every pair it looks at (up to and including the first
/// unequal pair) is two ints, two floats or two strs: the result and the total cycles of its
/// `eq` calls (a str pair costs the first str's length / 16) and of the final `order`.
#[inline]
fn tuple_order_simple(x: &[Value], y: &[Value], op: CmpOp) -> Option<(bool, u64)> {
    let mut charge = 0u64;
    for (p, q) in x.iter().zip(y.iter()) {
        let same = match (p, q) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => {
                charge += a.s.len() as u64 / 16;
                Rc::ptr_eq(a, b) || a.s == b.s
            }
            (Value::Float(a), Value::Float(b)) => F64::eq(*a, *b) || a.to_bits() == b.to_bits(),
            _ => return None,
        };
        if !same {
            let (r, c) = scalar_order(p, q, op)?;
            return Some((r, charge + c));
        }
    }
    Some((ordering_holds(x.len().cmp(&y.len()), op), charge))
}

/// Escape non-ASCII characters of a repr (for `ascii()`).
pub fn ascii_of(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let n = c as u32;
        if n < 128 {
            out.push(c);
        } else if n < 0x100 {
            out.push_str(&format!("\\x{n:02x}"));
        } else if n < 0x10000 {
            out.push_str(&format!("\\u{n:04x}"));
        } else {
            out.push_str(&format!("\\U{n:08x}"));
        }
    }
    out
}

fn binop_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::MatMul => "@",
        BinOp::TrueDiv => "/",
        BinOp::FloorDiv => "//",
        BinOp::Mod => "%",
        BinOp::Pow => "** or pow()",
        BinOp::LShift => "<<",
        BinOp::RShift => ">>",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
    }
}

/// FNV-1a as [`crate::dict::str_hash`] computes it, usable in constants.
const fn const_str_hash(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < b.len() {
        h ^= b[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    if h == 0 || h == u64::MAX { 1 } else { h }
}

/// The forward dunder name of `op` with its precomputed [`crate::dict::str_hash`].
pub(crate) fn binop_dunder_hashed(op: BinOp) -> (&'static str, u64) {
    macro_rules! hashed {
        ($n:literal) => {{
            const H: u64 = const_str_hash($n);
            ($n, H)
        }};
    }
    match op {
        BinOp::Add => hashed!("__add__"),
        BinOp::Sub => hashed!("__sub__"),
        BinOp::Mul => hashed!("__mul__"),
        BinOp::MatMul => hashed!("__matmul__"),
        BinOp::TrueDiv => hashed!("__truediv__"),
        BinOp::FloorDiv => hashed!("__floordiv__"),
        BinOp::Mod => hashed!("__mod__"),
        BinOp::Pow => hashed!("__pow__"),
        BinOp::LShift => hashed!("__lshift__"),
        BinOp::RShift => hashed!("__rshift__"),
        BinOp::And => hashed!("__and__"),
        BinOp::Or => hashed!("__or__"),
        BinOp::Xor => hashed!("__xor__"),
    }
}

fn binop_dunder(op: BinOp) -> (&'static str, &'static str, &'static str) {
    match op {
        BinOp::Add => ("__add__", "__radd__", "__iadd__"),
        BinOp::Sub => ("__sub__", "__rsub__", "__isub__"),
        BinOp::Mul => ("__mul__", "__rmul__", "__imul__"),
        BinOp::MatMul => ("__matmul__", "__rmatmul__", "__imatmul__"),
        BinOp::TrueDiv => ("__truediv__", "__rtruediv__", "__itruediv__"),
        BinOp::FloorDiv => ("__floordiv__", "__rfloordiv__", "__ifloordiv__"),
        BinOp::Mod => ("__mod__", "__rmod__", "__imod__"),
        BinOp::Pow => ("__pow__", "__rpow__", "__ipow__"),
        BinOp::LShift => ("__lshift__", "__rlshift__", "__ilshift__"),
        BinOp::RShift => ("__rshift__", "__rrshift__", "__irshift__"),
        BinOp::And => ("__and__", "__rand__", "__iand__"),
        BinOp::Or => ("__or__", "__ror__", "__ior__"),
        BinOp::Xor => ("__xor__", "__rxor__", "__ixor__"),
    }
}

/// Is the value an int (including bool)?
pub fn is_int(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::BigInt(_) | Value::Bool(_))
}

impl Vm {
    /// Map an integer arithmetic error to a Python exception.
    pub fn int_err(&self, e: IntError) -> Flow {
        match e {
            IntError::Overflow => self.exc(
                "OverflowError",
                "integer exceeds the PVM limit of 4096 bits",
            ),
            IntError::ZeroDivision(m) => self.exc("ZeroDivisionError", m),
            IntError::NegativeShift => self.exc("ValueError", "negative shift count"),
        }
    }
    /// Map a float error.
    pub fn float_err(&self, e: crate::float::FloatError) -> Flow {
        use crate::float::FloatError as E;
        match e {
            E::ZeroDivision(m) => self.exc("ZeroDivisionError", m),
            E::Overflow(m) => self.exc("OverflowError", m),
            E::Domain(m) => self.exc("ValueError", m),
            E::InvalidConversion(m) => self.exc("ValueError", m),
            E::ComplexResult => self.exc("ValueError", "complex result not supported in the PVM"),
        }
    }

    /// Python truth value.
    pub fn truthy(&mut self, v: &Value) -> PyResult<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::BigInt(_) => true,
            Value::Float(f) => !f.is_zero(),
            Value::Str(s) => !s.s.is_empty(),
            Value::Bytes(b) => !b.b.is_empty(),
            Value::ByteArray(b) => !b.b.borrow().is_empty(),
            Value::List(l) => !l.v.borrow().is_empty(),
            Value::Tuple(t) => !t.v.is_empty(),
            Value::Dict(d) => !d.d.borrow().is_empty(),
            Value::Set(s) | Value::FrozenSet(s) => !s.d.borrow().is_empty(),
            Value::Range(r) => !r.is_empty(),
            Value::Instance(_) if self.as_view(v).is_some() => self
                .as_view(v)
                .is_some_and(|(_, d)| !d.d.borrow().is_empty()),
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(v, "__bool__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    match r {
                        Value::Bool(b) => b,
                        _ => {
                            return Err(self.type_err(format!(
                                "__bool__ should return bool, returned {}",
                                self.type_name(&r)
                            )));
                        }
                    }
                } else if let Some(m) = self.lookup_special(v, "__len__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    self.to_index(&r)? != 0
                } else if let Some(n) = self.native_of(v) {
                    self.truthy(&n)?
                } else {
                    true
                }
            }
            _ => true,
        })
    }

    /// Convert to i64 index (`__index__` semantics for ints and bools).
    pub fn to_index(&mut self, v: &Value) -> PyResult<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            Value::BigInt(_) => {
                Err(self.exc("IndexError", "cannot fit 'int' into an index-sized integer"))
            }
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(v, "__index__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    if let Value::Int(i) = r {
                        return Ok(i);
                    }
                    return Err(self.type_err(format!(
                        "__index__ returned non-int (type {})",
                        self.type_name(&r)
                    )));
                }
                Err(self.type_err(format!(
                    "'{}' object cannot be interpreted as an integer",
                    self.type_name(v)
                )))
            }
            _ => Err(self.type_err(format!(
                "'{}' object cannot be interpreted as an integer",
                self.type_name(v)
            ))),
        }
    }

    /// Equality without user code when possible (None = needs the slow path).
    fn eq_fast(a: &Value, b: &Value, depth: u32) -> Option<bool> {
        if depth > 100 {
            return None;
        }
        Some(match (a, b) {
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Str(x), Value::Str(y)) => Rc::ptr_eq(x, y) || x.s == y.s,
            (Value::None, Value::None) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Bool(x), Value::Int(y)) | (Value::Int(y), Value::Bool(x)) => *x as i64 == *y,
            (Value::BigInt(x), Value::BigInt(y)) => x == y,
            (Value::BigInt(_), Value::Int(_) | Value::Bool(_))
            | (Value::Int(_) | Value::Bool(_), Value::BigInt(_)) => false,
            // inside containers (depth > 0) the same float is equal to itself, NaN included
            (Value::Float(x), Value::Float(y)) => {
                F64::eq(*x, *y) || (depth > 0 && x.to_bits() == y.to_bits())
            }
            (Value::Float(f), i @ (Value::Int(_) | Value::Bool(_) | Value::BigInt(_)))
            | (i @ (Value::Int(_) | Value::Bool(_) | Value::BigInt(_)), Value::Float(f)) => {
                float_int_cmp(*f, i) == Some(Ordering::Equal)
            }
            (Value::Bytes(x), Value::Bytes(y)) => x.b == y.b,
            (Value::Tuple(x), Value::Tuple(y)) => {
                if x.v.len() != y.v.len() {
                    return Some(false);
                }
                for (p, q) in x.v.iter().zip(y.v.iter()) {
                    if !Self::eq_fast(p, q, depth + 1)? {
                        return Some(false);
                    }
                }
                true
            }
            (Value::Instance(_), _) | (_, Value::Instance(_)) => return None,
            (Value::List(_), Value::List(_)) | (Value::Dict(_), Value::Dict(_)) => return None,
            (Value::Set(_) | Value::FrozenSet(_), Value::Set(_) | Value::FrozenSet(_)) => {
                return None;
            }
            (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
            (Value::Function(x), Value::Function(y)) => Rc::ptr_eq(x, y),
            (Value::Wrapper(x), Value::Wrapper(y)) => match (&**x, &**y) {
                (Wrapper::Union(p), Wrapper::Union(q)) => Vm::union_eq(p, q),
                _ => Rc::ptr_eq(x, y),
            },
            (Value::Range(x), Value::Range(y)) if x.big.is_some() || y.big.is_some() => {
                crate::bigrange::eq(x, y)
            }
            (Value::Range(x), Value::Range(y)) => {
                let (lx, ly) = (x.len(), y.len());
                lx == ly && (lx == 0 || (x.start == y.start && (lx == 1 || x.step == y.step)))
            }
            (Value::NotImplemented, Value::NotImplemented) | (Value::Ellipsis, Value::Ellipsis) => {
                true
            }
            (Value::Slice(x), Value::Slice(y)) => {
                Self::eq_fast(&x.start, &y.start, depth + 1)?
                    && Self::eq_fast(&x.stop, &y.stop, depth + 1)?
                    && Self::eq_fast(&x.step, &y.step, depth + 1)?
            }
            (Value::Module(x), Value::Module(y)) => Rc::ptr_eq(x, y),
            (Value::Generator(x), Value::Generator(y)) => Rc::ptr_eq(x, y),
            (Value::Iter(x), Value::Iter(y)) => Rc::ptr_eq(x, y),
            (Value::BoundMethod(x), Value::BoundMethod(y)) => Rc::ptr_eq(x, y),
            (Value::Builtin(x), Value::Builtin(y)) => Rc::ptr_eq(x, y),
            (Value::ByteArray(x), Value::ByteArray(y)) => *x.b.borrow() == *y.b.borrow(),
            (Value::Bytes(x), Value::ByteArray(y)) | (Value::ByteArray(y), Value::Bytes(x)) => {
                *x.b == **y.b.borrow()
            }
            _ => false,
        })
    }

    /// Python `a == b`.
    pub fn eq(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        if let Some(r) = Self::eq_fast(a, b, 0) {
            if let (Value::Str(x), Value::Str(_)) = (a, b) {
                self.charge(x.s.len() as u64 / 16)?;
            }
            return Ok(r);
        }
        self.enter_native()?;
        let r = self.eq_slow(a, b);
        self.leave_native();
        r
    }

    /// `a == b` as containers compare their items (CPython's `PyObject_RichCompareBool`, which
    /// tries identity first): a float equals a float with the same bits, so a NaN stored in
    /// two places (`x = nan; [x] == [x]`, `x in [x]`, a NaN dict key) matches itself. PVM
    /// floats are values without identity; the same bits stand for "the same object".
    #[inline]
    pub fn eq_item(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        if let (Value::Float(x), Value::Float(y)) = (a, b) {
            return Ok(F64::eq(*x, *y) || x.to_bits() == y.to_bits());
        }
        self.eq(a, b)
    }

    fn eq_slow(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        match (a, b) {
            (Value::List(x), Value::List(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ok(true);
                }
                let (xv, yv) = (x.v.borrow().clone(), y.v.borrow().clone());
                self.seq_eq(&xv, &yv)
            }
            (Value::Tuple(x), Value::Tuple(y)) => self.seq_eq(&x.v, &y.v),
            (Value::Dict(x), Value::Dict(y)) => {
                if x.d.borrow().len() != y.d.borrow().len() {
                    return Ok(false);
                }
                let items: Vec<(Value, Value)> =
                    x.d.borrow()
                        .iter()
                        .map(|e| (e.key.clone(), e.value.clone()))
                        .collect();
                for (k, v) in items {
                    match self.dict_get(y, &k)? {
                        Some(v2) => {
                            if !self.eq_item(&v, &v2)? {
                                return Ok(false);
                            }
                        }
                        None => return Ok(false),
                    }
                }
                Ok(true)
            }
            (Value::Set(x) | Value::FrozenSet(x), Value::Set(y) | Value::FrozenSet(y)) => {
                if x.d.borrow().len() != y.d.borrow().len() {
                    return Ok(false);
                }
                let keys: Vec<Value> = x.d.borrow().iter().map(|e| e.key.clone()).collect();
                for k in keys {
                    if !self.set_contains(y, &k)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            _ if self.as_view(a).is_some_and(|(k, _)| k != 1)
                || self.as_view(b).is_some_and(|(k, _)| k != 1) =>
            {
                let xa = self.collect(a)?;
                let xb = self.collect(b)?;
                let sa = self.new_set(xa)?;
                let sb = self.new_set(xb)?;
                self.eq(&sa, &sb)
            }
            _ => {
                // user __eq__ with reflection
                if let Some(m) = self.lookup_special(a, "__eq__") {
                    let r = self.call(&m, vec![a.clone(), b.clone()], vec![])?;
                    if !matches!(r, Value::NotImplemented) {
                        return self.truthy(&r);
                    }
                }
                if let Some(m) = self.lookup_special(b, "__eq__") {
                    let r = self.call(&m, vec![b.clone(), a.clone()], vec![])?;
                    if !matches!(r, Value::NotImplemented) {
                        return self.truthy(&r);
                    }
                }
                let (na, nb) = (self.native_of(a), self.native_of(b));
                if na.is_some() || nb.is_some() {
                    let x = na.unwrap_or_else(|| a.clone());
                    let y = nb.unwrap_or_else(|| b.clone());
                    return self.eq(&x, &y);
                }
                Ok(match (a, b) {
                    (Value::Instance(x), Value::Instance(y)) => Rc::ptr_eq(x, y),
                    _ => false,
                })
            }
        }
    }

    fn seq_eq(&mut self, a: &[Value], b: &[Value]) -> PyResult<bool> {
        if a.len() != b.len() {
            return Ok(false);
        }
        self.charge(a.len() as u64)?;
        for (x, y) in a.iter().zip(b.iter()) {
            if !self.eq_item(x, y)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Python hash as i64 (what `hash()` returns).
    pub fn hash_i64(&mut self, v: &Value) -> PyResult<i64> {
        Ok(match v {
            Value::Int(i) => int::hash_i64(*i),
            Value::Bool(b) => *b as i64,
            Value::BigInt(b) => int::hash_big(b),
            Value::Float(f) => f.py_hash(),
            Value::Str(s) => {
                let h = s.hash.get();
                let h = if h != 0 {
                    h
                } else {
                    self.charge(s.s.len() as u64 / 8)?;
                    let h = str_hash(&s.s);
                    s.hash.set(h);
                    h
                };
                (h >> 1) as i64
            }
            Value::Bytes(b) => {
                self.charge(b.b.len() as u64 / 8)?;
                let mut h: u64 = 0x84222325cbf29ce4;
                for x in b.b.iter() {
                    h ^= *x as u64;
                    h = h.wrapping_mul(0x100000001b3);
                }
                (h >> 1) as i64
            }
            Value::None => 0xFCB2_2F80,
            Value::Tuple(t) => {
                // CPython 3.11 tuplehash (xxHash-based).
                const P1: u64 = 11400714785074694791;
                const P2: u64 = 14029467366897019727;
                const P5: u64 = 2870177450012600261;
                self.enter_native()?;
                let mut acc: u64 = P5;
                let items = t.v.to_vec();
                for x in &items {
                    let h = match self.hash_i64(x) {
                        Ok(h) => h,
                        Err(e) => {
                            self.leave_native();
                            return Err(e);
                        }
                    };
                    acc = acc.wrapping_add((h as u64).wrapping_mul(P2));
                    acc = acc.rotate_left(31);
                    acc = acc.wrapping_mul(P1);
                }
                self.leave_native();
                acc = acc.wrapping_add((items.len() as u64) ^ (P5 ^ 3527539));
                if acc == u64::MAX {
                    1546275796
                } else {
                    acc as i64
                }
            }
            Value::FrozenSet(s) => {
                let keys: Vec<Value> = s.d.borrow().iter().map(|e| e.key.clone()).collect();
                let mut acc: u64 = 0;
                for k in &keys {
                    acc ^= (self.hash_i64(k)? as u64).wrapping_mul(0x9E3779B97F4A7C15);
                }
                acc as i64
            }
            Value::Instance(i) => {
                let cls = i.class.borrow().clone();
                match self.class_lookup(&cls, "__hash__") {
                    Some(Value::None) => {
                        return Err(self.type_err(format!("unhashable type: '{}'", cls.name)));
                    }
                    Some(m @ Value::Function(_)) => {
                        let r = self.call(&m, vec![v.clone()], vec![])?;
                        match r {
                            Value::Int(i) => i,
                            Value::BigInt(b) => int::hash_big(&b),
                            Value::Bool(b) => b as i64,
                            _ => {
                                return Err(
                                    self.type_err("__hash__ method should return an integer")
                                );
                            }
                        }
                    }
                    _ => {
                        if self.class_lookup(&cls, "__eq__").is_some() {
                            return Err(self.type_err(format!("unhashable type: '{}'", cls.name)));
                        }
                        if let Some(n) = self.native_of(v) {
                            return self.hash_i64(&n);
                        }
                        (i.id as i64).wrapping_mul(16)
                    }
                }
            }
            Value::List(_)
            | Value::Dict(_)
            | Value::Set(_)
            | Value::ByteArray(_)
            | Value::Slice(_) => {
                return Err(self.type_err(format!("unhashable type: '{}'", self.type_name(v))));
            }
            Value::Class(c) => (c.id as i64).wrapping_mul(16) + 1,
            Value::Wrapper(w) if matches!(&**w, Wrapper::Union(_)) => {
                let m = crate::union::members(v).unwrap_or_default().to_vec();
                self.union_hash(&m)?
            }
            Value::Function(f) => (f.id as i64).wrapping_mul(16) + 2,
            Value::Range(r) => crate::bigrange::hash(r),
            Value::NotImplemented => 0x1234,
            Value::Ellipsis => 0x4321,
            _ => 0x5555,
        })
    }

    /// Hash for table placement.
    #[inline]
    pub fn hash(&mut self, v: &Value) -> PyResult<u64> {
        match v {
            Value::Str(s) => {
                let h = s.hash.get();
                if h != 0 {
                    return Ok(h);
                }
                self.charge(s.s.len() as u64 / 8)?;
                let h = str_hash(&s.s);
                s.hash.set(h);
                Ok(h)
            }
            Value::Int(i) => Ok(int::hash_i64(*i) as u64),
            _ => {
                let h = self.hash_i64(v)?;
                Ok(if let Value::Str(_) = v {
                    h as u64
                } else {
                    h as u64
                })
            }
        }
    }

    // ---------- dict / set primitives ----------

    /// Find the slot of `key` in `d`.
    pub fn dict_find(
        &mut self,
        d: &std::cell::RefCell<Dict>,
        key: &Value,
    ) -> PyResult<Option<usize>> {
        let h = match key {
            Value::Str(s) => {
                let h = s.hash.get();
                if h != 0 { h } else { self.hash(key)? }
            }
            _ => self.hash(key)?,
        };
        self.dict_find_h(d, h, key)
    }

    fn dict_find_h(
        &mut self,
        d: &std::cell::RefCell<Dict>,
        h: u64,
        key: &Value,
    ) -> PyResult<Option<usize>> {
        let mut slow = false;
        let found = {
            let dd = d.borrow();
            match key {
                // `eq_fast(stored, key)` for a str key: a stored str compares its text, a
                // stored instance needs the slow path, anything else is unequal.
                Value::Str(ks) => dd.find_g(h, |k| match k {
                    Value::Str(s) => Rc::ptr_eq(s, ks) || s.s == ks.s,
                    Value::Instance(_) => {
                        slow = true;
                        false
                    }
                    _ => false,
                }),
                Value::Int(i) => dd.find_g(h, |k| match k {
                    Value::Int(j) => i == j,
                    _ => match Self::eq_fast(k, key, 1) {
                        Some(b) => b,
                        None => {
                            slow = true;
                            false
                        }
                    },
                }),
                _ => dd.find(h, &mut |k| match Self::eq_fast(k, key, 1) {
                    Some(b) => b,
                    None => {
                        slow = true;
                        false
                    }
                }),
            }
        };
        if found.is_some() || !slow {
            return Ok(found);
        }
        // Slow path: candidates needing user __eq__.
        let cands: Vec<(usize, Value)> = {
            let dd = d.borrow();
            let mut v = Vec::new();
            for i in 0..dd.slots() {
                if let Some(e) = dd.slot(i)
                    && e.hash == h
                {
                    v.push((i, e.key.clone()));
                }
            }
            v
        };
        for (i, k) in cands {
            if self.eq(&k, key)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// `d[key]` lookup.
    pub fn dict_get(&mut self, d: &Rc<PyDict>, key: &Value) -> PyResult<Option<Value>> {
        let i = self.dict_find(&d.d, key)?;
        Ok(i.and_then(|i| d.d.borrow().slot(i).map(|e| e.value.clone())))
    }

    /// `d[key] = v`.
    pub fn dict_setitem(&mut self, d: &Rc<PyDict>, key: Value, v: Value) -> PyResult<()> {
        let h = self.hash(&key)?;
        match self.dict_find_h(&d.d, h, &key)? {
            Some(i) => {
                let old =
                    d.d.borrow_mut()
                        .slot_value_mut(i)
                        .map(|x| std::mem::replace(x, v));
                drop(old);
            }
            None => {
                self.check_mem(64)?;
                d.d.borrow_mut().push(h, key, v);
            }
        }
        Ok(())
    }

    /// Insert into a plain Dict being built.
    pub fn dict_set(&mut self, d: &mut Dict, key: Value, v: Value) -> PyResult<()> {
        let h = self.hash(&key)?;
        let mut slow = false;
        let found = d.find(h, &mut |k| match Self::eq_fast(k, &key, 1) {
            Some(b) => b,
            None => {
                slow = true;
                false
            }
        });
        let found = if found.is_none() && slow {
            let mut f = None;
            let cands: Vec<(usize, Value)> = (0..d.slots())
                .filter_map(|i| {
                    d.slot(i)
                        .filter(|e| e.hash == h)
                        .map(|e| (i, e.key.clone()))
                })
                .collect();
            for (i, k) in cands {
                if self.eq(&k, &key)? {
                    f = Some(i);
                    break;
                }
            }
            f
        } else {
            found
        };
        match found {
            Some(i) => {
                if let Some(x) = d.slot_value_mut(i) {
                    *x = v;
                }
            }
            None => d.push(h, key, v),
        }
        Ok(())
    }

    /// Delete `key` from `d`; Ok(false) if missing.
    pub fn dict_del(
        &mut self,
        d: &std::cell::RefCell<Dict>,
        key: &Value,
    ) -> PyResult<Option<Value>> {
        match self.dict_find(d, key)? {
            Some(i) => Ok(d.borrow_mut().remove_slot(i).map(|e| e.value)),
            None => Ok(None),
        }
    }

    /// Add to a set.
    pub fn set_add(&mut self, s: &Rc<PySet>, v: Value) -> PyResult<()> {
        let h = self.hash(&v)?;
        if self.dict_find_h(&s.d, h, &v)?.is_none() {
            self.check_mem(48)?;
            s.d.borrow_mut().push(h, v, Value::None);
        }
        Ok(())
    }
    /// Membership in a set.
    pub fn set_contains(&mut self, s: &Rc<PySet>, v: &Value) -> PyResult<bool> {
        Ok(self.dict_find(&s.d, v)?.is_some())
    }
    /// New set from values.
    pub fn new_set(&mut self, vals: Vec<Value>) -> PyResult<Value> {
        let s = Rc::new(PySet {
            d: std::cell::RefCell::new(Dict::new()),
        });
        crate::heap::register(crate::heap::Tracked::Set(Rc::downgrade(&s)));
        for v in vals {
            self.set_add(&s, v)?;
        }
        Ok(Value::Set(s))
    }
    /// New frozenset from values.
    pub fn new_frozenset(&mut self, vals: Vec<Value>) -> PyResult<Value> {
        match self.new_set(vals)? {
            Value::Set(s) => Ok(Value::FrozenSet(s)),
            v => Ok(v),
        }
    }
    /// Append to a list (memory-checked).
    #[inline]
    pub fn list_push(&mut self, l: &Rc<PyList>, v: Value) -> PyResult<()> {
        let mut lv = l.v.borrow_mut();
        if lv.len() == lv.capacity() {
            let newcap = (lv.capacity() * 2).max(4);
            drop(lv);
            self.check_mem((newcap - l.v.borrow().capacity()) * 16)?;
            lv = l.v.borrow_mut();
            let extra = newcap - lv.len();
            lv.reserve_exact(extra);
            l.acct.set(40 + 16 * lv.capacity());
        }
        lv.push(v);
        Ok(())
    }
    /// (key, value) pairs of a mapping (dict or object with keys()).
    pub fn mapping_items(&mut self, v: &Value) -> PyResult<Vec<(Value, Value)>> {
        match v {
            Value::Dict(d) => Ok(d
                .d
                .borrow()
                .iter()
                .map(|e| (e.key.clone(), e.value.clone()))
                .collect()),
            _ => {
                if let Ok(keys) = self.get_attr(v, "keys") {
                    let ks = self.call(&keys, vec![], vec![])?;
                    let ks = self.collect(&ks)?;
                    let mut out = Vec::new();
                    for k in ks {
                        let val = self.getitem(v, &k)?;
                        out.push((k, val));
                    }
                    return Ok(out);
                }
                Err(self.type_err(format!("'{}' object is not a mapping", self.type_name(v))))
            }
        }
    }

    // ---------- ordering ----------

    /// Rich comparison returning a Value.
    pub fn compare(&mut self, a: &Value, b: &Value, op: CmpOp) -> PyResult<Value> {
        match op {
            CmpOp::Eq => {
                if (matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)))
                    && self.as_view(a).is_none()
                    && self.as_view(b).is_none()
                {
                    if let Some(m) = self.lookup_special(a, "__eq__") {
                        let r = self.call(&m, vec![a.clone(), b.clone()], vec![])?;
                        if !matches!(r, Value::NotImplemented) {
                            return Ok(r);
                        }
                    }
                    if let Some(m) = self.lookup_special(b, "__eq__") {
                        let r = self.call(&m, vec![b.clone(), a.clone()], vec![])?;
                        if !matches!(r, Value::NotImplemented) {
                            return Ok(r);
                        }
                    }
                    let (na, nb) = (self.native_of(a), self.native_of(b));
                    if na.is_some() || nb.is_some() {
                        let x = na.unwrap_or_else(|| a.clone());
                        let y = nb.unwrap_or_else(|| b.clone());
                        return Ok(Value::Bool(self.eq(&x, &y)?));
                    }
                    return Ok(Value::Bool(match (a, b) {
                        (Value::Instance(x), Value::Instance(y)) => Rc::ptr_eq(x, y),
                        _ => false,
                    }));
                }
                Ok(Value::Bool(self.eq(a, b)?))
            }
            CmpOp::Ne => {
                if let Some(m) = self.lookup_special(a, "__ne__") {
                    let r = self.call(&m, vec![a.clone(), b.clone()], vec![])?;
                    if !matches!(r, Value::NotImplemented) {
                        return Ok(r);
                    }
                }
                Ok(Value::Bool(!self.eq(a, b)?))
            }
            CmpOp::Is | CmpOp::IsNot => {
                let r = self.is(a, b)?;
                Ok(Value::Bool(if op == CmpOp::Is { r } else { !r }))
            }
            CmpOp::In | CmpOp::NotIn => {
                let r = self.contains(b, a)?;
                Ok(Value::Bool(if op == CmpOp::In { r } else { !r }))
            }
            _ => {
                if let Some(r) = self.order_simple(a, b, op) {
                    return r.map(Value::Bool);
                }
                Ok(Value::Bool(self.order(a, b, op)?))
            }
        }
    }

    /// Identity comparison (DeterminismError for value types).
    pub fn is(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        let value_type = |v: &Value| {
            matches!(
                v,
                Value::Str(_)
                    | Value::Int(_)
                    | Value::BigInt(_)
                    | Value::Float(_)
                    | Value::Bytes(_)
            )
        };
        if value_type(a) && value_type(b) {
            return Err(Flow::Abort(Abort::Determinism(format!(
                "'is' comparison with a {} is not deterministic; use ==",
                self.type_name(if value_type(a) { a } else { b })
            ))));
        }
        Ok(match (a, b) {
            (Value::None, Value::None) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::NotImplemented, Value::NotImplemented) | (Value::Ellipsis, Value::Ellipsis) => {
                true
            }
            (Value::List(x), Value::List(y)) => Rc::ptr_eq(x, y),
            (Value::Tuple(x), Value::Tuple(y)) => Rc::ptr_eq(x, y),
            (Value::Dict(x), Value::Dict(y)) => Rc::ptr_eq(x, y),
            (Value::Set(x), Value::Set(y)) | (Value::FrozenSet(x), Value::FrozenSet(y)) => {
                Rc::ptr_eq(x, y)
            }
            (Value::Instance(x), Value::Instance(y)) => Rc::ptr_eq(x, y),
            (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
            (Value::Function(x), Value::Function(y)) => Rc::ptr_eq(x, y),
            (Value::Generator(x), Value::Generator(y)) => Rc::ptr_eq(x, y),
            (Value::Iter(x), Value::Iter(y)) => Rc::ptr_eq(x, y),
            (Value::Module(x), Value::Module(y)) => Rc::ptr_eq(x, y),
            (Value::Builtin(x), Value::Builtin(y)) => Rc::ptr_eq(x, y),
            (Value::BoundMethod(x), Value::BoundMethod(y)) => Rc::ptr_eq(x, y),
            (Value::Range(x), Value::Range(y)) => Rc::ptr_eq(x, y),
            (Value::ByteArray(x), Value::ByteArray(y)) => Rc::ptr_eq(x, y),
            (Value::Wrapper(x), Value::Wrapper(y)) => Rc::ptr_eq(x, y),
            _ => false,
        })
    }

    /// `a < b` style ordering.
    pub fn order(&mut self, a: &Value, b: &Value, op: CmpOp) -> PyResult<bool> {
        if self.as_view(a).is_some_and(|(k, _)| k != 1)
            || self.as_view(b).is_some_and(|(k, _)| k != 1)
        {
            let xa = self.collect(a)?;
            let xb = self.collect(b)?;
            let sa = self.new_set(xa)?;
            let sb = self.new_set(xb)?;
            return self.order(&sa, &sb, op);
        }
        let ord = self.order_fast(a, b)?;
        if let Some(o) = ord {
            return Ok(match op {
                CmpOp::Lt => o == Ordering::Less,
                CmpOp::Le => o != Ordering::Greater,
                CmpOp::Gt => o == Ordering::Greater,
                CmpOp::Ge => o != Ordering::Less,
                _ => false,
            });
        }
        // floats with NaN
        if let (Some(x), Some(y)) = (as_float_lossy(a), as_float_lossy(b))
            && (matches!(a, Value::Float(_)) || matches!(b, Value::Float(_)))
        {
            return Ok(match op {
                CmpOp::Lt => x.lt(y),
                CmpOp::Le => x.le(y),
                CmpOp::Gt => x.gt(y),
                CmpOp::Ge => x.ge(y),
                _ => false,
            });
        }
        let (name, rname, sym) = match op {
            CmpOp::Lt => ("__lt__", "__gt__", "<"),
            CmpOp::Le => ("__le__", "__ge__", "<="),
            CmpOp::Gt => ("__gt__", "__lt__", ">"),
            _ => ("__ge__", "__le__", ">="),
        };
        if let Some(m) = self.lookup_special(a, name) {
            let r = self.call(&m, vec![a.clone(), b.clone()], vec![])?;
            if !matches!(r, Value::NotImplemented) {
                return self.truthy(&r);
            }
        }
        if let Some(m) = self.lookup_special(b, rname) {
            let r = self.call(&m, vec![b.clone(), a.clone()], vec![])?;
            if !matches!(r, Value::NotImplemented) {
                return self.truthy(&r);
            }
        }
        let (na, nb) = (self.native_of(a), self.native_of(b));
        if na.is_some() || nb.is_some() {
            let x = na.unwrap_or_else(|| a.clone());
            let y = nb.unwrap_or_else(|| b.clone());
            return self.order(&x, &y, op);
        }
        // sequences
        match (a, b) {
            (Value::List(x), Value::List(y)) => {
                let (xv, yv) = (x.v.borrow().clone(), y.v.borrow().clone());
                return self.seq_order(&xv, &yv, op);
            }
            // A tuple's items never change, so they are compared in place.
            (Value::Tuple(x), Value::Tuple(y)) => {
                return self.seq_order(&x.v, &y.v, op);
            }
            (Value::Set(x) | Value::FrozenSet(x), Value::Set(y) | Value::FrozenSet(y)) => {
                let (lx, ly) = (x.d.borrow().len(), y.d.borrow().len());
                let sub = |vm: &mut Vm, p: &Rc<PySet>, q: &Rc<PySet>| -> PyResult<bool> {
                    let keys: Vec<Value> = p.d.borrow().iter().map(|e| e.key.clone()).collect();
                    for k in keys {
                        if !vm.set_contains(q, &k)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                };
                return Ok(match op {
                    CmpOp::Le => sub(self, x, y)?,
                    CmpOp::Lt => lx < ly && sub(self, x, y)?,
                    CmpOp::Ge => sub(self, y, x)?,
                    _ => lx > ly && sub(self, y, x)?,
                });
            }
            _ => {}
        }
        Err(self.type_err(format!(
            "'{}' not supported between instances of '{}' and '{}'",
            sym,
            self.type_name(a),
            self.type_name(b)
        )))
    }

    fn seq_order(&mut self, a: &[Value], b: &[Value], op: CmpOp) -> PyResult<bool> {
        self.enter_native()?;
        let r = (|| {
            for (x, y) in a.iter().zip(b.iter()) {
                if !self.eq_item(x, y)? {
                    return self.order(x, y, op);
                }
            }
            let o = a.len().cmp(&b.len());
            Ok(match op {
                CmpOp::Lt => o == Ordering::Less,
                CmpOp::Le => o != Ordering::Greater,
                CmpOp::Gt => o == Ordering::Greater,
                _ => o != Ordering::Less,
            })
        })();
        self.leave_native();
        r
    }

    fn order_fast(&mut self, a: &Value, b: &Value) -> PyResult<Option<Ordering>> {
        Ok(match (a, b) {
            (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
            (Value::Str(x), Value::Str(y)) => {
                self.charge(x.s.len().min(y.s.len()) as u64 / 16)?;
                Some(x.s.cmp(&y.s))
            }
            (Value::Bytes(x), Value::Bytes(y)) => Some(x.b.cmp(&y.b)),
            (Value::ByteArray(x), Value::Bytes(y)) => Some((**x.b.borrow()).cmp(&*y.b)),
            (Value::Bytes(x), Value::ByteArray(y)) => Some((*x.b).cmp(&**y.b.borrow())),
            (Value::ByteArray(x), Value::ByteArray(y)) => Some(x.b.borrow().cmp(&*y.b.borrow())),
            (x, y) if is_int(x) && is_int(y) => {
                let (p, q) = (
                    int::to_big(x).unwrap_or_default(),
                    int::to_big(y).unwrap_or_default(),
                );
                self.charge(cost::bigint_surcharge(p.bits().max(q.bits())))?;
                Some(p.cmp(&q))
            }
            (Value::Float(f), i) if is_int(i) => float_int_cmp(*f, i),
            (i, Value::Float(f)) if is_int(i) => float_int_cmp(*f, i).map(|o| o.reverse()),
            (Value::Float(x), Value::Float(y)) => {
                if x.lt(*y) {
                    Some(Ordering::Less)
                } else if x.gt(*y) {
                    Some(Ordering::Greater)
                } else if F64::eq(*x, *y) {
                    Some(Ordering::Equal)
                } else {
                    None
                }
            }
            _ => None,
        })
    }

    /// The pure part of [`Vm::order_simple`]: the result of `order(a, b, op)` and the cycles it
    /// would charge, computed without charging, or None when the operands need the general
    /// path. Runs no user code and changes nothing.
    #[inline]
    pub fn order_pure(&self, a: &Value, b: &Value, op: CmpOp) -> Option<(bool, u64)> {
        match (a, b) {
            (Value::Tuple(x), Value::Tuple(y)) => {
                // `seq_order` enters one native level; at the limit that raises instead.
                if self.native_depth >= crate::vm::MAX_NATIVE_DEPTH {
                    return None;
                }
                tuple_order_simple(&x.v, &y.v, op)
            }
            _ => scalar_order(a, b, op),
        }
    }

    /// `x < y` for sorting / min / max.
    #[inline]
    pub fn lt(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        if let Some(r) = self.order_simple(a, b, CmpOp::Lt) {
            return r;
        }
        self.order(a, b, CmpOp::Lt)
    }

    /// [`Vm::order`] for operands whose ordering runs no user code: two ints, two floats, two
    /// strs, or two tuples whose items up to the first unequal pair are such pairs. Same
    /// result and the same cycles as `order` (the str length charges of the element
    /// comparisons, summed and charged at once, which runs out of cycles exactly when the
    /// separate charges would, as nothing observable happens between them). None when the
    /// operands need the general path (nothing has been charged then).
    #[inline]
    pub fn order_simple(&mut self, a: &Value, b: &Value, op: CmpOp) -> Option<PyResult<bool>> {
        let (r, c) = self.order_pure(a, b, op)?;
        Some(if c == 0 {
            Ok(r)
        } else {
            self.charge(c).map(|()| r)
        })
    }

    /// `item in container`.
    pub fn contains(&mut self, container: &Value, item: &Value) -> PyResult<bool> {
        if let Value::Class(_) = container
            && let Some(r) =
                self.call_meta_special(container, "__contains__", vec![item.clone()])?
        {
            return self.truthy(&r);
        }
        match container {
            Value::Str(s) => match item {
                Value::Str(sub) => {
                    self.charge(s.s.len() as u64 / 8)?;
                    Ok(s.s.contains(&*sub.s))
                }
                _ => Err(self.type_err(format!(
                    "'in <string>' requires string as left operand, not {}",
                    self.type_name(item)
                ))),
            },
            Value::Dict(d) => Ok(self.dict_find(&d.d, item)?.is_some()),
            Value::Set(s) | Value::FrozenSet(s) => self.set_contains(s, item),
            Value::List(l) => {
                let n = l.v.borrow().len();
                for i in 0..n {
                    let x = match l.v.borrow().get(i) {
                        Some(x) => x.clone(),
                        None => break,
                    };
                    self.charge(1)?;
                    if self.eq_item(&x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Tuple(t) => {
                for x in t.v.iter() {
                    self.charge(1)?;
                    if self.eq_item(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Range(r) if r.big.is_some() || !matches!(item, Value::Int(_)) => {
                self.range_contains(r, item)
            }
            Value::Range(r) => {
                let Value::Int(i) = item else {
                    return Ok(false);
                };
                let i = *i;
                Ok(if r.step > 0 {
                    i >= r.start && i < r.stop && (i - r.start) % r.step == 0
                } else {
                    i <= r.start && i > r.stop && (r.start - i) % (-r.step) == 0
                })
            }
            Value::Bytes(b) => match item {
                Value::Int(i) => Ok(b.b.contains(&(*i as u8)) && (0..256).contains(i)),
                Value::Bytes(sub) => {
                    Ok(sub.b.is_empty() || b.b.windows(sub.b.len()).any(|w| w == &*sub.b))
                }
                _ => Err(self.type_err("a bytes-like object is required")),
            },
            Value::Instance(_) if self.as_view(container).is_some() => {
                let (k, d) = self.as_view(container).unwrap_or_else(unreachable_view);
                match k {
                    0 => Ok(self.dict_find(&d.d, item)?.is_some()),
                    2 => {
                        let Value::Tuple(t) = item else {
                            return Ok(false);
                        };
                        if t.v.len() != 2 {
                            return Ok(false);
                        }
                        match self.dict_get(&d, &t.v[0])? {
                            Some(v) => self.eq(&v, &t.v[1]),
                            None => Ok(false),
                        }
                    }
                    _ => {
                        let vals: Vec<Value> =
                            d.d.borrow().iter().map(|e| e.value.clone()).collect();
                        for x in vals {
                            if self.eq(&x, item)? {
                                return Ok(true);
                            }
                        }
                        Ok(false)
                    }
                }
            }
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(container, "__contains__") {
                    let r = self.call(&m, vec![container.clone(), item.clone()], vec![])?;
                    return self.truthy(&r);
                }
                if let Some(n) = self.native_of(container) {
                    return self.contains(&n, item);
                }
                let it = self.get_iter(container)?;
                while let Some(x) = self.next(&it)? {
                    if self.eq(&x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => {
                let it = match self.get_iter(container) {
                    Ok(it) => it,
                    Err(_) => {
                        return Err(self.type_err(format!(
                            "argument of type '{}' is not iterable",
                            self.type_name(container)
                        )));
                    }
                };
                while let Some(x) = self.next(&it)? {
                    if self.eq(&x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    // ---------- arithmetic ----------

    /// Binary operator with dunder dispatch.
    pub fn binary_op(&mut self, a: &Value, b: &Value, op: BinOp, inplace: bool) -> PyResult<Value> {
        let mutable_lhs = matches!(
            a,
            Value::List(_)
                | Value::Set(_)
                | Value::Dict(_)
                | Value::ByteArray(_)
                | Value::Instance(_)
        );
        if !(inplace && mutable_lhs)
            && let Some(r) = self.builtin_binop(a, b, op)?
        {
            return Ok(r);
        }
        let (name, rname, iname) = binop_dunder(op);
        if inplace {
            if let Some(m) = self.lookup_special(a, iname) {
                let r = self.call(&m, vec![a.clone(), b.clone()], vec![])?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(r);
                }
            }
            // in-place list ops
            match (a, op) {
                (Value::List(l), BinOp::Add) => {
                    let items = self.collect(b)?;
                    self.charge(items.len() as u64)?;
                    for x in items {
                        self.list_push(l, x)?;
                    }
                    return Ok(a.clone());
                }
                (Value::List(l), BinOp::Mul) => {
                    let n = self.to_index(b)?.max(0) as usize;
                    let cur = l.v.borrow().clone();
                    self.check_mem(cur.len().saturating_mul(n).saturating_mul(16))?;
                    self.charge((cur.len() * n) as u64)?;
                    let mut v = Vec::with_capacity(cur.len() * n);
                    for _ in 0..n {
                        v.extend(cur.iter().cloned());
                    }
                    *l.v.borrow_mut() = v;
                    return Ok(a.clone());
                }
                (Value::Set(_), BinOp::Or | BinOp::And | BinOp::Sub | BinOp::Xor) => {
                    if let Value::Set(_) | Value::FrozenSet(_) = b {
                        let r = self.builtin_binop(a, b, op)?;
                        if let (Some(Value::Set(r)), Value::Set(s)) = (r, a) {
                            let d = std::mem::take(&mut *r.d.borrow_mut());
                            *s.d.borrow_mut() = d;
                            return Ok(a.clone());
                        }
                    }
                }
                (Value::ByteArray(x), BinOp::Add) => {
                    let extra: Vec<u8> = match b {
                        Value::Bytes(y) => y.b.to_vec(),
                        Value::ByteArray(y) => y.b.borrow().clone(),
                        _ => {
                            return Err(self.type_err(format!(
                                "can't concat {} to bytearray",
                                self.type_name(b)
                            )));
                        }
                    };
                    self.check_mem(extra.len())?;
                    x.b.borrow_mut().extend_from_slice(&extra);
                    return Ok(a.clone());
                }
                (Value::Dict(_), BinOp::Or) => {
                    crate::methods::call_method(self, a, "update", vec![b.clone()], vec![])?;
                    return Ok(a.clone());
                }
                _ => {}
            }
        }
        if inplace
            && mutable_lhs
            && let Some(r) = self.builtin_binop(a, b, op)?
        {
            return Ok(r);
        }
        if let (Value::Instance(x), Value::Instance(y)) = (a, b) {
            let (ca, cb) = (x.class.borrow().clone(), y.class.borrow().clone());
            if !Rc::ptr_eq(&ca, &cb)
                && self.is_subclass(&cb, &ca)
                && cb.dict.borrow().get_str(rname).is_some()
                && let Some(m) = self.lookup_special(b, rname)
            {
                let r = self.call(&m, vec![b.clone(), a.clone()], vec![])?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(r);
                }
            }
        }
        if let Some(m) = self.lookup_special(a, name) {
            let r = self.call(&m, vec![a.clone(), b.clone()], vec![])?;
            if !matches!(r, Value::NotImplemented) {
                return Ok(r);
            }
        }
        self.binary_op_after_lhs(a, b, op, inplace)
    }

    /// The rest of [`Vm::binary_op`] once the left operand's `__op__` was absent or returned
    /// `NotImplemented`: the reflected method of the right operand, the native payloads of
    /// built-in subclasses, then the TypeError.
    pub(crate) fn binary_op_after_lhs(
        &mut self,
        a: &Value,
        b: &Value,
        op: BinOp,
        inplace: bool,
    ) -> PyResult<Value> {
        let (_, rname, _) = binop_dunder(op);
        if let Some(m) = self.lookup_special(b, rname) {
            let r = self.call(&m, vec![b.clone(), a.clone()], vec![])?;
            if !matches!(r, Value::NotImplemented) {
                return Ok(r);
            }
        }
        let (na, nb) = (self.native_of(a), self.native_of(b));
        if na.is_some() || nb.is_some() {
            let x = na.unwrap_or_else(|| a.clone());
            let y = nb.unwrap_or_else(|| b.clone());
            return self.binary_op(&x, &y, op, false);
        }
        match (a, b, op) {
            (Value::Str(_), _, BinOp::Add) => {
                return Err(self.type_err(format!(
                    "can only concatenate str (not \"{}\") to str",
                    self.type_name(b)
                )));
            }
            (Value::List(_), _, BinOp::Add) => {
                return Err(self.type_err(format!(
                    "can only concatenate list (not \"{}\") to list",
                    self.type_name(b)
                )));
            }
            (Value::Tuple(_), _, BinOp::Add) => {
                return Err(self.type_err(format!(
                    "can only concatenate tuple (not \"{}\") to tuple",
                    self.type_name(b)
                )));
            }
            (Value::Bytes(_), _, BinOp::Add) => {
                return Err(self.type_err(format!("can't concat {} to bytes", self.type_name(b))));
            }
            (Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_), _, BinOp::Mul)
                if !matches!(b, Value::Instance(_)) =>
            {
                return Err(self.type_err(format!(
                    "can't multiply sequence by non-int of type '{}'",
                    self.type_name(b)
                )));
            }
            _ => {}
        }
        if op == BinOp::Or
            && let Some(u) = self.union_or_dispatch(a, b)?
        {
            return Ok(u);
        }
        let sym = if inplace {
            format!("{}=", binop_symbol(op))
        } else {
            binop_symbol(op).to_string()
        };
        let sym = if op == BinOp::Pow && inplace {
            "**=".to_string()
        } else {
            sym
        };
        Err(self.type_err(format!(
            "unsupported operand type(s) for {}: '{}' and '{}'",
            sym,
            self.type_name(a),
            self.type_name(b)
        )))
    }

    /// `a | b` between classes, `None` and unions once the operands' own methods declined:
    /// a metaclass `__or__` / `__ror__` first, then the PEP 604 union ([`Vm::union_or`]).
    fn union_or_dispatch(&mut self, a: &Value, b: &Value) -> PyResult<Option<Value>> {
        for (recv, name, other) in [(a, "__or__", b), (b, "__ror__", a)] {
            if let Value::Class(_) = recv
                && let Some(r) = self.call_meta_special(recv, name, vec![other.clone()])?
                && !matches!(r, Value::NotImplemented)
            {
                return Ok(Some(r));
            }
        }
        Ok(self.union_or(a, b))
    }

    fn builtin_binop(&mut self, a: &Value, b: &Value, op: BinOp) -> PyResult<Option<Value>> {
        if matches!(op, BinOp::And | BinOp::Or | BinOp::Sub | BinOp::Xor)
            && (self.as_view(a).is_some_and(|(k, _)| k != 1)
                || self.as_view(b).is_some_and(|(k, _)| k != 1))
        {
            let xa =
                if self.as_view(a).is_some() || !matches!(a, Value::Set(_) | Value::FrozenSet(_)) {
                    let items = self.collect(a)?;
                    self.new_set(items)?
                } else {
                    a.clone()
                };
            let xb =
                if self.as_view(b).is_some() || !matches!(b, Value::Set(_) | Value::FrozenSet(_)) {
                    let items = self.collect(b)?;
                    self.new_set(items)?
                } else {
                    b.clone()
                };
            return self.builtin_binop(&xa, &xb, op);
        }
        // ints
        if is_int(a) && is_int(b) {
            return self.int_binop(a, b, op).map(Some);
        }
        // floats
        let af = matches!(a, Value::Float(_));
        let bf = matches!(b, Value::Float(_));
        if (af && (bf || is_int(b))) || (bf && is_int(a)) {
            let x = self.to_float(a)?;
            let y = self.to_float(b)?;
            let r = match op {
                BinOp::Add => Ok(x.add(y)),
                BinOp::Sub => Ok(x.sub(y)),
                BinOp::Mul => Ok(x.mul(y)),
                BinOp::TrueDiv => x.py_truediv(y),
                BinOp::FloorDiv => x.py_floordiv(y),
                BinOp::Mod => x.py_rem(y),
                BinOp::Pow => x.py_pow(y),
                _ => return Ok(None),
            };
            return match r {
                Ok(f) => Ok(Some(Value::Float(f))),
                Err(e) => Err(self.float_err(e)),
            };
        }
        Ok(match (a, b, op) {
            (Value::Str(x), Value::Str(y), BinOp::Add) => {
                let n = x.s.len() + y.s.len();
                self.check_mem(n)?;
                self.charge(n as u64 * cost::PER_CHAR / 4)?;
                let mut s = String::with_capacity(n);
                s.push_str(&x.s);
                s.push_str(&y.s);
                Some(Value::str(s))
            }
            (Value::Str(x), n, BinOp::Mul) | (n, Value::Str(x), BinOp::Mul) if is_int(n) => {
                let k = self.rep_count(n)?;
                let total = x.s.len().saturating_mul(k);
                self.check_mem(total)?;
                self.charge(total as u64 * cost::PER_CHAR / 4)?;
                Some(Value::str(x.s.repeat(k)))
            }
            (Value::List(x), Value::List(y), BinOp::Add) => {
                let (xv, yv) = (x.v.borrow(), y.v.borrow());
                let n = xv.len() + yv.len();
                self.check_mem(n * 16)?;
                self.charge(n as u64)?;
                let mut v = Vec::with_capacity(n);
                v.extend(xv.iter().cloned());
                v.extend(yv.iter().cloned());
                drop((xv, yv));
                Some(Value::list(v))
            }
            (Value::List(x), n, BinOp::Mul) | (n, Value::List(x), BinOp::Mul) if is_int(n) => {
                let k = self.rep_count(n)?;
                let xv = x.v.borrow().clone();
                let total = xv.len().saturating_mul(k);
                self.check_mem(total.saturating_mul(16))?;
                self.charge(total as u64)?;
                let mut v = Vec::with_capacity(total);
                for _ in 0..k {
                    v.extend(xv.iter().cloned());
                }
                Some(Value::list(v))
            }
            (Value::Tuple(x), Value::Tuple(y), BinOp::Add) => {
                let n = x.v.len() + y.v.len();
                self.check_mem(n * 16)?;
                self.charge(n as u64)?;
                let mut v = Vec::with_capacity(n);
                v.extend(x.v.iter().cloned());
                v.extend(y.v.iter().cloned());
                Some(Value::tuple(v))
            }
            (Value::Tuple(x), n, BinOp::Mul) | (n, Value::Tuple(x), BinOp::Mul) if is_int(n) => {
                let k = self.rep_count(n)?;
                let total = x.v.len().saturating_mul(k);
                self.check_mem(total.saturating_mul(16))?;
                self.charge(total as u64)?;
                let mut v = Vec::with_capacity(total);
                for _ in 0..k {
                    v.extend(x.v.iter().cloned());
                }
                Some(Value::tuple(v))
            }
            (Value::ByteArray(x), Value::Bytes(_) | Value::ByteArray(_), BinOp::Add) => {
                let mut v = x.b.borrow().clone();
                match b {
                    Value::Bytes(y) => v.extend_from_slice(&y.b),
                    Value::ByteArray(y) => v.extend_from_slice(&y.b.borrow()),
                    _ => {}
                }
                self.check_mem(v.len())?;
                let n = v.len();
                Some(Value::ByteArray(Rc::new(PyByteArray {
                    b: std::cell::RefCell::new(v),
                    acct: crate::heap::Acct::new(n + 40),
                })))
            }
            (Value::Bytes(x), Value::ByteArray(y), BinOp::Add) => {
                let mut v = x.b.to_vec();
                v.extend_from_slice(&y.b.borrow());
                Some(Value::bytes(v))
            }
            (Value::Bytes(x), Value::Bytes(y), BinOp::Add) => {
                let n = x.b.len() + y.b.len();
                self.check_mem(n)?;
                self.charge(n as u64 / 4)?;
                let mut v = Vec::with_capacity(n);
                v.extend_from_slice(&x.b);
                v.extend_from_slice(&y.b);
                Some(Value::bytes(v))
            }
            (Value::ByteArray(x), n, BinOp::Mul) | (n, Value::ByteArray(x), BinOp::Mul)
                if is_int(n) =>
            {
                let k = self.rep_count(n)?;
                let total = x.b.borrow().len().saturating_mul(k);
                self.check_mem(total)?;
                self.charge(total as u64 / 4)?;
                let v = x.b.borrow().repeat(k);
                Some(Value::ByteArray(Rc::new(PyByteArray {
                    b: std::cell::RefCell::new(v),
                    acct: crate::heap::Acct::new(total + 40),
                })))
            }
            (Value::Bytes(x), n, BinOp::Mul) | (n, Value::Bytes(x), BinOp::Mul) if is_int(n) => {
                let k = self.rep_count(n)?;
                let total = x.b.len().saturating_mul(k);
                self.check_mem(total)?;
                self.charge(total as u64 / 4)?;
                Some(Value::bytes(x.b.repeat(k)))
            }
            (Value::Str(x), _, BinOp::Mod) => {
                Some(Value::str(crate::builtins::percent_format(self, &x.s, b)?))
            }
            (Value::Bytes(x), _, BinOp::Mod) => Some(Value::bytes(
                crate::builtins::percent_format_bytes(self, &x.b, b)?,
            )),
            (
                Value::Set(_) | Value::FrozenSet(_),
                Value::Set(_) | Value::FrozenSet(_),
                BinOp::Or | BinOp::And | BinOp::Sub | BinOp::Xor,
            ) => {
                let (Value::Set(x) | Value::FrozenSet(x)) = a else {
                    return Ok(None);
                };
                let (Value::Set(y) | Value::FrozenSet(y)) = b else {
                    return Ok(None);
                };
                let xs: Vec<Value> = x.d.borrow().iter().map(|e| e.key.clone()).collect();
                let ys: Vec<Value> = y.d.borrow().iter().map(|e| e.key.clone()).collect();
                self.charge((xs.len() + ys.len()) as u64)?;
                let mut out = Vec::new();
                match op {
                    BinOp::Or => {
                        out.extend(xs);
                        out.extend(ys);
                    }
                    BinOp::And => {
                        for k in xs {
                            if self.set_contains(y, &k)? {
                                out.push(k);
                            }
                        }
                    }
                    BinOp::Sub => {
                        for k in xs {
                            if !self.set_contains(y, &k)? {
                                out.push(k);
                            }
                        }
                    }
                    _ => {
                        for k in xs {
                            if !self.set_contains(y, &k)? {
                                out.push(k);
                            }
                        }
                        for k in ys {
                            if !self.set_contains(x, &k)? {
                                out.push(k);
                            }
                        }
                    }
                }
                let s = self.new_set(out)?;
                Some(if matches!(a, Value::FrozenSet(_)) {
                    match s {
                        Value::Set(s) => Value::FrozenSet(s),
                        o => o,
                    }
                } else {
                    s
                })
            }
            (Value::Dict(x), Value::Dict(y), BinOp::Or) => {
                let d = x.d.borrow().clone();
                let nd = Value::dict(d);
                if let Value::Dict(nd2) = &nd {
                    let items: Vec<(Value, Value)> =
                        y.d.borrow()
                            .iter()
                            .map(|e| (e.key.clone(), e.value.clone()))
                            .collect();
                    for (k, v) in items {
                        self.dict_setitem(nd2, k, v)?;
                    }
                }
                Some(nd)
            }
            _ => None,
        })
    }

    fn rep_count(&self, n: &Value) -> PyResult<usize> {
        match n {
            Value::Int(i) => Ok((*i).max(0) as usize),
            Value::Bool(b) => Ok(*b as usize),
            _ => Err(Flow::Abort(Abort::Memory)),
        }
    }

    /// Convert int/float to F64.
    pub fn to_float(&self, v: &Value) -> PyResult<F64> {
        match v {
            Value::Float(f) => Ok(*f),
            Value::Int(i) => Ok(F64::from_i64(*i)),
            Value::Bool(b) => Ok(F64::from_i64(*b as i64)),
            Value::BigInt(b) => crate::float::from_bigint(b)
                .map_err(|_| self.exc("OverflowError", "int too large to convert to float")),
            _ => Err(self.type_err(format!("must be real number, not {}", self.type_name(v)))),
        }
    }

    fn int_binop(&mut self, a: &Value, b: &Value, op: BinOp) -> PyResult<Value> {
        // i64 fast paths
        let ai = match a {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            _ => None,
        };
        let bi = match b {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            _ => None,
        };
        if let (Some(x), Some(y)) = (ai, bi) {
            let r = match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::FloorDiv => {
                    if y == 0 {
                        return Err(
                            self.exc("ZeroDivisionError", "integer division or modulo by zero")
                        );
                    }
                    x.checked_div_euclid(y)
                        .map(|_| num_integer::Integer::div_floor(&x, &y))
                }
                BinOp::Mod => {
                    if y == 0 {
                        return Err(self.exc("ZeroDivisionError", "integer modulo by zero"));
                    }
                    x.checked_rem(y)
                        .map(|_| num_integer::Integer::mod_floor(&x, &y))
                }
                BinOp::And => Some(x & y),
                BinOp::Or => Some(x | y),
                BinOp::Xor => Some(x ^ y),
                BinOp::RShift => {
                    if y < 0 {
                        return Err(self.exc("ValueError", "negative shift count"));
                    }
                    Some(if y >= 64 {
                        if x < 0 { -1 } else { 0 }
                    } else {
                        x >> y
                    })
                }
                BinOp::LShift => {
                    if y < 0 {
                        return Err(self.exc("ValueError", "negative shift count"));
                    }
                    if y < 63 && (x.unsigned_abs().leading_zeros() as i64) > y + 1 {
                        Some(x << y)
                    } else {
                        None
                    }
                }
                BinOp::TrueDiv => {
                    if y == 0 {
                        return Err(self.exc("ZeroDivisionError", "division by zero"));
                    }
                    let r = self.int_truediv(&BigInt::from(x), &BigInt::from(y))?;
                    return Ok(Value::Float(r));
                }
                BinOp::Pow => {
                    if y < 0 {
                        let fx = F64::from_i64(x);
                        let fy = F64::from_i64(y);
                        return fx
                            .py_pow(fy)
                            .map(Value::Float)
                            .map_err(|e| self.float_err(e));
                    }
                    if y < 64 {
                        let mut acc: i64 = 1;
                        let mut ok = true;
                        for _ in 0..y {
                            match acc.checked_mul(x) {
                                Some(v) => acc = v,
                                None => {
                                    ok = false;
                                    break;
                                }
                            }
                        }
                        if ok { Some(acc) } else { None }
                    } else {
                        None
                    }
                }
                BinOp::MatMul => None,
            };
            if let Some(r) = r {
                return Ok(Value::Int(r));
            }
            if op == BinOp::MatMul {
                return Err(self.type_err("unsupported operand type(s) for @: 'int' and 'int'"));
            }
        }
        // big operands are borrowed, not copied
        let (xo, yo);
        let x: &BigInt = match a {
            Value::BigInt(b) => b,
            _ => {
                xo = int::to_big(a).unwrap_or_default();
                &xo
            }
        };
        let y: &BigInt = match b {
            Value::BigInt(b) => b,
            _ => {
                yo = int::to_big(b).unwrap_or_default();
                &yo
            }
        };
        self.charge(cost::bigint_surcharge(x.bits().max(y.bits())))?;
        let r = match op {
            BinOp::Add => int::add(x, y),
            BinOp::Sub => int::sub(x, y),
            BinOp::Mul => int::mul(x, y),
            BinOp::FloorDiv => int::floordiv(x, y),
            BinOp::Mod => int::modulo(x, y),
            BinOp::And => int::checked(x & y),
            BinOp::Or => int::checked(x | y),
            BinOp::Xor => int::checked(x ^ y),
            BinOp::LShift => int::lshift(x, y),
            BinOp::RShift => int::rshift(x, y),
            BinOp::TrueDiv => {
                if y.is_zero() {
                    return Err(self.exc("ZeroDivisionError", "division by zero"));
                }
                return Ok(Value::Float(self.int_truediv(x, y)?));
            }
            BinOp::Pow => {
                if y.is_negative() {
                    let fx = self.to_float(a)?;
                    let fy = self.to_float(b)?;
                    return fx
                        .py_pow(fy)
                        .map(Value::Float)
                        .map_err(|e| self.float_err(e));
                }
                let e = y.to_u64().unwrap_or(u64::MAX);
                let r = int::pow(x, e);
                if let Ok(v) = &r {
                    self.charge(cost::bigint_surcharge(int::bits(v)) * 4)?;
                }
                r
            }
            BinOp::MatMul => {
                return Err(self.type_err("unsupported operand type(s) for @: 'int' and 'int'"));
            }
        };
        r.map_err(|e| self.int_err(e))
    }

    fn int_truediv(&self, x: &BigInt, y: &BigInt) -> PyResult<F64> {
        // Correctly rounded for |x|,|y| < 2^53; otherwise via scaled big division.
        if x.bits() <= 53 && y.bits() <= 53 {
            let fx = F64::from_i64(x.to_i64().unwrap_or(0));
            let fy = F64::from_i64(y.to_i64().unwrap_or(1));
            return Ok(fx.div(fy));
        }
        // scale numerator to get 64+ significant bits of quotient, then convert
        let shift = (y.bits() as i64 - x.bits() as i64 + 66).max(0) as usize;
        let q = (x << shift) / y;
        let fq = crate::float::from_bigint(&q).map_err(|_| {
            self.exc(
                "OverflowError",
                "integer division result too large for a float",
            )
        })?;
        // divide by 2^shift exactly (power of two scaling)
        let mut r = fq;
        let mut s = shift;
        while s > 0 {
            let step = s.min(60);
            r = r.div(F64::from_i64(1i64 << step));
            s -= step;
        }
        Ok(r)
    }

    /// Unary operator.
    pub fn unary_op(&mut self, a: &Value, op: UnOp) -> PyResult<Value> {
        match (a, op) {
            (Value::Int(i), UnOp::Neg) => Ok(match i.checked_neg() {
                Some(v) => Value::Int(v),
                None => int::from_big(-BigInt::from(*i)),
            }),
            (Value::Int(i), UnOp::Pos) => Ok(Value::Int(*i)),
            (Value::Int(i), UnOp::Invert) => Ok(Value::Int(!*i)),
            (Value::Bool(b), _) => self.unary_op(&Value::Int(*b as i64), op),
            (Value::BigInt(b), UnOp::Neg) => Ok(int::from_big(-(**b).clone())),
            (Value::BigInt(b), UnOp::Pos) => Ok(Value::BigInt(b.clone())),
            (Value::BigInt(b), UnOp::Invert) => {
                int::checked(-(**b).clone() - 1).map_err(|e| self.int_err(e))
            }
            (Value::Float(f), UnOp::Neg) => Ok(Value::Float(f.neg())),
            (Value::Float(f), UnOp::Pos) => Ok(Value::Float(*f)),
            _ => {
                let name = match op {
                    UnOp::Neg => "__neg__",
                    UnOp::Pos => "__pos__",
                    UnOp::Invert => "__invert__",
                };
                if let Some(m) = self.lookup_special(a, name) {
                    return self.call(&m, vec![a.clone()], vec![]);
                }
                let sym = match op {
                    UnOp::Neg => "unary -",
                    UnOp::Pos => "unary +",
                    UnOp::Invert => "unary ~",
                };
                Err(self.type_err(format!(
                    "bad operand type for {}: '{}'",
                    sym,
                    self.type_name(a)
                )))
            }
        }
    }

    // ---------- repr / str ----------

    /// `repr(v)`
    pub fn repr(&mut self, v: &Value) -> PyResult<String> {
        if let Value::Class(_) = v
            && let Some(r) = self.call_meta_special(v, "__repr__", vec![])?
        {
            return self.to_str(&r);
        }
        match v {
            Value::None => Ok("None".into()),
            Value::Bool(b) => Ok(if *b { "True" } else { "False" }.into()),
            Value::Int(i) => Ok(int::decimal_i64(&mut [0u8; 24], *i).to_owned()),
            Value::BigInt(b) => {
                self.charge(b.bits() / 16)?;
                Ok(int::to_decimal(b))
            }
            Value::Float(f) => Ok(f.repr()),
            Value::Str(s) => {
                self.charge(s.s.len() as u64 / 4)?;
                Ok(pvm_text::repr::str_repr(&s.s))
            }
            Value::Bytes(b) => Ok(pvm_text::repr::bytes_repr(&b.b, "b")),
            Value::ByteArray(b) => Ok(pvm_text::repr::bytearray_repr(&b.b.borrow())),
            _ => {
                self.enter_native()?;
                let r = self.repr_slow(v);
                self.leave_native();
                r
            }
        }
    }

    fn repr_seq(
        &mut self,
        items: &[Value],
        open: &str,
        close: &str,
        tuple1: bool,
    ) -> PyResult<String> {
        let mut s = String::from(open);
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&self.repr(x)?);
            self.check_mem(s.len())?;
        }
        if tuple1 && items.len() == 1 {
            s.push(',');
        }
        s.push_str(close);
        Ok(s)
    }

    fn repr_dict(&mut self, d: &Rc<PyDict>) -> PyResult<String> {
        let items: Vec<(Value, Value)> =
            d.d.borrow()
                .iter()
                .map(|e| (e.key.clone(), e.value.clone()))
                .collect();
        self.charge(items.len() as u64)?;
        let mut s = String::from("{");
        for (i, (k, v)) in items.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&self.repr(k)?);
            s.push_str(": ");
            s.push_str(&self.repr(v)?);
            self.check_mem(s.len())?;
        }
        s.push('}');
        Ok(s)
    }

    fn repr_slow(&mut self, v: &Value) -> PyResult<String> {
        match v {
            Value::List(l) => {
                let key = Rc::as_ptr(l) as usize;
                if self.repr_stack.contains(&key) {
                    return Ok("[...]".into());
                }
                let items = l.v.borrow().clone();
                self.charge(items.len() as u64)?;
                self.repr_stack.push(key);
                let r = self.repr_seq(&items, "[", "]", false);
                self.repr_stack.pop();
                r
            }
            Value::Tuple(t) => {
                let items = t.v.to_vec();
                self.charge(items.len() as u64)?;
                self.repr_seq(&items, "(", ")", true)
            }
            Value::Dict(d) => {
                let key = Rc::as_ptr(d) as usize;
                if self.repr_stack.contains(&key) {
                    return Ok("{...}".into());
                }
                self.repr_stack.push(key);
                let r = self.repr_dict(d);
                self.repr_stack.pop();
                r
            }
            Value::Set(st) | Value::FrozenSet(st) => {
                let items: Vec<Value> = st.d.borrow().iter().map(|e| e.key.clone()).collect();
                let fz = matches!(v, Value::FrozenSet(_));
                if items.is_empty() {
                    return Ok(if fz {
                        "frozenset()".into()
                    } else {
                        "set()".into()
                    });
                }
                let inner = self.repr_seq(&items, "{", "}", false)?;
                Ok(if fz {
                    format!("frozenset({inner})")
                } else {
                    inner
                })
            }
            Value::Range(r) if r.big.is_some() => Ok(r
                .big
                .as_deref()
                .map(crate::bigrange::repr)
                .unwrap_or_default()),
            Value::Range(r) => Ok(if r.step == 1 {
                format!("range({}, {})", r.start, r.stop)
            } else {
                format!("range({}, {}, {})", r.start, r.stop, r.step)
            }),
            Value::Slice(s) => {
                let a = self.repr(&s.start)?;
                let b = self.repr(&s.stop)?;
                let c = self.repr(&s.step)?;
                Ok(format!("slice({a}, {b}, {c})"))
            }
            Value::Function(f) => Ok(format!(
                "<function {} at 0x{:012x}>",
                f.code.qualname,
                0x7f00_0000_0000u64 + f.id * 16
            )),
            Value::Class(c) => {
                if c.kind == TypeKind::UnionType {
                    Ok("<class 'types.UnionType'>".into())
                } else if c.builtin {
                    Ok(format!("<class '{}'>", c.name))
                } else {
                    let m = match c.dict.borrow().get_str("__module__") {
                        Some(Value::Str(s)) => s.s.to_string(),
                        _ => "__main__".into(),
                    };
                    Ok(format!("<class '{}.{}'>", m, c.qualname))
                }
            }
            Value::Instance(_) if self.as_view(v).is_some() => {
                let (k, _) = self.as_view(v).unwrap_or_else(unreachable_view);
                let items = self.collect(v)?;
                let inner = self.repr_seq(&items, "[", "]", false)?;
                Ok(format!(
                    "{}({inner})",
                    ["dict_keys", "dict_values", "dict_items"][k as usize]
                ))
            }
            Value::Instance(i) => {
                if let Some(m) = self.lookup_special(v, "__repr__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    return match r {
                        Value::Str(s) => Ok(s.s.to_string()),
                        _ => Err(self.type_err(format!(
                            "__repr__ returned non-string (type {})",
                            self.type_name(&r)
                        ))),
                    };
                }
                if let Some(n) = self.native_of(v) {
                    return self.repr(&n);
                }
                let cls = i.class.borrow().clone();
                if i.exc.is_some() {
                    let args = match &*i.native.borrow() {
                        Some(Value::Tuple(t)) => t.v.to_vec(),
                        _ => vec![],
                    };
                    let inner = if args.len() == 1 {
                        self.repr(&args[0])?
                    } else {
                        self.repr_seq(&args, "", "", false)?
                    };
                    return Ok(format!("{}({})", cls.name, inner));
                }
                let m = match cls.dict.borrow().get_str("__module__") {
                    Some(Value::Str(s)) => s.s.to_string(),
                    _ => "__main__".into(),
                };
                Ok(format!(
                    "<{}.{} object at 0x{:012x}>",
                    m,
                    cls.qualname,
                    0x7f00_0000_0000u64 + i.id * 16
                ))
            }
            Value::BoundMethod(b) => {
                let fname = match &b.func {
                    Value::Function(f) => f.code.qualname.to_string(),
                    _ => "?".into(),
                };
                let r = self.repr(&b.recv)?;
                Ok(format!("<bound method {fname} of {r}>"))
            }
            Value::Builtin(b) => Ok(match &b.kind {
                BuiltinKind::Func(n) => format!("<built-in function {n}>"),
                BuiltinKind::Method(n) => format!(
                    "<built-in method {} of {} object>",
                    n,
                    self.type_name(b.recv.as_ref().unwrap_or(&Value::None))
                ),
                BuiltinKind::ModuleFunc(_, n) => format!("<built-in function {n}>"),
            }),
            Value::Generator(g) => Ok(format!(
                "<generator object {} at 0x{:012x}>",
                g.name, 0x7f00_0000_0000u64
            )),
            Value::Module(m) => Ok(format!("<module '{}'>", m.name)),
            Value::NotImplemented => Ok("NotImplemented".into()),
            Value::Ellipsis => Ok("Ellipsis".into()),
            Value::Iter(_) => Ok(format!("<{} object>", self.type_name(v))),
            Value::Wrapper(w) => Ok(match &**w {
                Wrapper::Property { .. } => "<property object>".into(),
                Wrapper::ClassMethod(_) => "<classmethod object>".into(),
                Wrapper::StaticMethod(_) => "<staticmethod object>".into(),
                Wrapper::Super { cls, .. } => {
                    format!("<super: <class '{}'>, <{} object>>", cls.name, cls.name)
                }
                Wrapper::Union(m) => self.union_repr(m),
            }),
            _ => Ok(format!("<{} object>", self.type_name(v))),
        }
    }

    /// `str(v)`
    pub fn to_str(&mut self, v: &Value) -> PyResult<String> {
        if let Value::Class(_) = v
            && let Some(r) = self.call_meta_special(v, "__str__", vec![])?
        {
            return self.to_str(&r);
        }
        if let Value::Class(_) = v
            && self.meta_special(v, "__repr__").is_some()
        {
            return self.repr(v);
        }
        match v {
            Value::Str(s) => Ok(s.s.to_string()),
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(v, "__str__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    return match r {
                        Value::Str(s) => Ok(s.s.to_string()),
                        _ => Err(self.type_err(format!(
                            "__str__ returned non-string (type {})",
                            self.type_name(&r)
                        ))),
                    };
                }
                self.default_str(v)
            }
            _ => self.repr(v),
        }
    }

    /// `object.__str__` / `BaseException.__str__`.
    pub fn default_str(&mut self, v: &Value) -> PyResult<String> {
        if let Some(n) = self.native_of(v) {
            if self.lookup_special(v, "__repr__").is_none() {
                return self.to_str(&n);
            }
            return self.repr(v);
        }
        match v {
            Value::Instance(i) => {
                if i.exc.is_some() {
                    let args = match &*i.native.borrow() {
                        Some(Value::Tuple(t)) => t.v.to_vec(),
                        _ => vec![],
                    };
                    let cls = i.class.borrow().clone();
                    if args.len() == 5
                        && self.is_subclass(&cls, &self.exc_class("UnicodeDecodeError"))
                        && let (
                            Value::Str(enc),
                            Value::Bytes(obj),
                            Value::Int(st),
                            Value::Int(en),
                            Value::Str(r),
                        ) = (&args[0], &args[1], &args[2], &args[3], &args[4])
                    {
                        let (st, en) = (*st as usize, *en as usize);
                        return Ok(if en == st + 1 && st < obj.b.len() {
                            format!(
                                "'{}' codec can't decode byte 0x{:02x} in position {}: {}",
                                enc.s, obj.b[st], st, r.s
                            )
                        } else {
                            format!(
                                "'{}' codec can't decode bytes in position {}-{}: {}",
                                enc.s,
                                st,
                                en.saturating_sub(1),
                                r.s
                            )
                        });
                    }
                    return match args.len() {
                        0 => Ok(String::new()),
                        1 => {
                            if cls.name.as_ref() == "KeyError"
                                || self.is_subclass(&cls, &self.exc_class("KeyError"))
                            {
                                self.repr(&args[0])
                            } else {
                                self.to_str(&args[0])
                            }
                        }
                        _ => self.repr(&Value::tuple(args)),
                    };
                }
                self.repr(v)
            }
            _ => self.to_str(v),
        }
    }

    /// `object.__repr__` / `BaseException.__repr__`.
    pub fn default_repr(&mut self, v: &Value) -> PyResult<String> {
        match v {
            Value::Instance(i) => {
                let cls = i.class.borrow().clone();
                if i.exc.is_some() {
                    let args = match &*i.native.borrow() {
                        Some(Value::Tuple(t)) => t.v.to_vec(),
                        _ => vec![],
                    };
                    let inner = if args.len() == 1 {
                        self.repr(&args[0])?
                    } else {
                        self.repr_seq(&args, "", "", false)?
                    };
                    return Ok(format!("{}({})", cls.name, inner));
                }
                let m = match cls.dict.borrow().get_str("__module__") {
                    Some(Value::Str(s)) => s.s.to_string(),
                    _ => "__main__".into(),
                };
                Ok(format!(
                    "<{}.{} object at 0x{:012x}>",
                    m,
                    cls.qualname,
                    0x7f00_0000_0000u64 + i.id * 16
                ))
            }
            _ => self.repr(v),
        }
    }

    /// `format(v, spec)`
    pub fn format(&mut self, v: &Value, spec: &str) -> PyResult<String> {
        if !spec.is_empty() {
            // Width and precision are allocation (and, for floats, work) sizes: every run of
            // digits in the spec is one of them (or a digit fill character), so their sum
            // bounds what the formatter can be asked to do. Charge it before formatting.
            let (mut width, mut precision, mut run, mut len, mut after_dot) =
                (0usize, 0usize, 0usize, 0, false);
            for c in spec.chars() {
                if let Some(d) = c.to_digit(10) {
                    len += 1;
                    if len > 9 {
                        return Err(Flow::Abort(Abort::Memory));
                    }
                    run = run * 10 + d as usize;
                } else {
                    if after_dot {
                        precision = precision.saturating_add(run)
                    } else {
                        width = width.saturating_add(run)
                    }
                    after_dot = c == '.';
                    run = 0;
                    len = 0;
                }
            }
            if after_dot {
                precision = precision.saturating_add(run)
            } else {
                width = width.saturating_add(run)
            }
            self.charge_format_size(width, precision)?;
        }
        let terr = |vm: &Vm, e: pvm_text::TextError| crate::builtins::text_err(vm, e);
        match v {
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(v, "__format__") {
                    let r = self.call(&m, vec![v.clone(), Value::str(spec)], vec![])?;
                    return self.to_str(&r);
                }
                if spec.is_empty() {
                    return self.to_str(v);
                }
                Err(self.type_err(format!(
                    "unsupported format string passed to {}.__format__",
                    self.type_name(v)
                )))
            }
            Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => {
                if spec.is_empty() {
                    return self.to_str(v);
                }
                let b = int::to_big(v).unwrap_or_default();
                pvm_text::format_float::format_int_any(&b, spec).map_err(|e| terr(self, e))
            }
            Value::Float(f) => crate::builtins::format_float(self, *f, spec),
            Value::Str(s) => {
                pvm_text::format_spec::format_str_spec(&s.s, spec).map_err(|e| terr(self, e))
            }
            _ => {
                let s = self.to_str(v)?;
                if spec.is_empty() {
                    return Ok(s);
                }
                Err(self.type_err(format!(
                    "unsupported format string passed to {}.__format__",
                    self.type_name(v)
                )))
            }
        }
    }

    // ---------- iteration ----------

    /// `iter(v)`
    pub fn get_iter(&mut self, v: &Value) -> PyResult<Value> {
        if let Value::Class(_) = v
            && let Some(r) = self.call_meta_special(v, "__iter__", vec![])?
        {
            return Ok(r);
        }
        let st = match v {
            Value::List(l) => IterState::List(l.clone(), 0),
            Value::Tuple(t) => IterState::Tuple(t.clone(), 0),
            Value::Str(s) => IterState::Str(s.clone(), 0),
            Value::Bytes(b) => IterState::Bytes(b.clone(), 0),
            Value::ByteArray(b) => IterState::Vec(
                b.b.borrow().iter().map(|x| Value::Int(*x as i64)).collect(),
                0,
            ),
            Value::Range(r) => match r.big.as_deref() {
                None => IterState::Range(r.start, r.stop, r.step),
                Some(b) => Vm::big_range_iter(b),
            },
            Value::Dict(d) => {
                let n = d.d.borrow().len();
                IterState::DictKeys(d.clone(), 0, n)
            }
            Value::Set(s) | Value::FrozenSet(s) => {
                let n = s.d.borrow().len();
                IterState::Set(s.clone(), 0, n)
            }
            Value::Iter(_) | Value::Generator(_) => return Ok(v.clone()),
            Value::Instance(_) if self.as_view(v).is_some() => {
                let (k, d) = self.as_view(v).unwrap_or_else(unreachable_view);
                let n = d.d.borrow().len();
                match k {
                    0 => IterState::DictKeys(d, 0, n),
                    1 => IterState::DictValues(d, 0, n),
                    _ => IterState::DictItems(d, 0, n),
                }
            }
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(v, "__iter__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    match &r {
                        Value::Instance(_) if self.lookup_special(&r, "__next__").is_none() => {
                            return Err(self.type_err(format!(
                                "iter() returned non-iterator of type '{}'",
                                self.type_name(&r)
                            )));
                        }
                        _ => return Ok(r),
                    }
                }
                if let Some(n) = self.native_of(v) {
                    return self.get_iter(&n);
                }
                if self.lookup_special(v, "__getitem__").is_some() {
                    IterState::SeqGetItem(v.clone(), 0)
                } else {
                    return Err(
                        self.type_err(format!("'{}' object is not iterable", self.type_name(v)))
                    );
                }
            }
            _ => {
                return Err(
                    self.type_err(format!("'{}' object is not iterable", self.type_name(v)))
                );
            }
        };
        Ok(Value::Iter(Rc::new(PyIter {
            st: std::cell::RefCell::new(st),
        })))
    }

    /// Fast `next` used by ForIter.
    #[inline]
    pub fn next_fast(&mut self, it: &Value) -> PyResult<Option<Value>> {
        if let Value::Iter(i) = it {
            let mut st = i.st.borrow_mut();
            match &mut *st {
                IterState::Range(cur, stop, step) => {
                    let c = *cur;
                    if (*step > 0 && c < *stop) || (*step < 0 && c > *stop) {
                        *cur = c.saturating_add(*step);
                        return Ok(Some(Value::Int(c)));
                    }
                    return Ok(None);
                }
                IterState::List(l, idx) => {
                    let v = l.v.borrow().get(*idx).cloned();
                    if v.is_some() {
                        *idx += 1;
                    }
                    return Ok(v);
                }
                _ => {}
            }
        }
        self.next(it)
    }

    /// `next(it)`: Ok(None) when exhausted.
    pub fn next(&mut self, it: &Value) -> PyResult<Option<Value>> {
        match it {
            Value::Iter(i) => {
                let i = i.clone();
                self.iter_next(&i)
            }
            Value::Generator(g) => {
                let g = g.clone();
                match self.gen_resume(&g, Value::None, None)? {
                    crate::vm::GenStep::Yielded(v) => Ok(Some(v)),
                    crate::vm::GenStep::Returned(_) => Ok(None),
                }
            }
            Value::Instance(_) => {
                let Some(m) = self.lookup_special(it, "__next__") else {
                    return Err(self.type_err(format!(
                        "'{}' object is not an iterator",
                        self.type_name(it)
                    )));
                };
                match self.call(&m, vec![it.clone()], vec![]) {
                    Ok(v) => Ok(Some(v)),
                    Err(Flow::Exc(e)) if self.isinstance_name(&e, "StopIteration") => Ok(None),
                    Err(e) => Err(e),
                }
            }
            _ => Err(self.type_err(format!(
                "'{}' object is not an iterator",
                self.type_name(it)
            ))),
        }
    }

    fn iter_next(&mut self, i: &Rc<PyIter>) -> PyResult<Option<Value>> {
        // Simple states are handled under the borrow; states that run user code release it.
        enum Slow {
            Enumerate(Value, Value),
            Zip(Vec<Value>, bool),
            Map(Value, Vec<Value>),
            Filter(Value, Value),
            Callable(Value, Value),
            Seq(Value, i64),
        }
        let slow = {
            let mut st = i.st.borrow_mut();
            match &mut *st {
                IterState::List(l, idx) => {
                    let v = l.v.borrow().get(*idx).cloned();
                    if v.is_some() {
                        *idx += 1;
                    }
                    return Ok(v);
                }
                IterState::Tuple(t, idx) => {
                    let v = t.v.get(*idx).cloned();
                    if v.is_some() {
                        *idx += 1;
                    }
                    return Ok(v);
                }
                IterState::Str(s, off) => {
                    let rest = &s.s[*off..];
                    let Some(c) = rest.chars().next() else {
                        return Ok(None);
                    };
                    *off += c.len_utf8();
                    return Ok(Some(Value::str(c.to_string())));
                }
                IterState::Bytes(b, idx) => {
                    let v = b.b.get(*idx).map(|x| Value::Int(*x as i64));
                    if v.is_some() {
                        *idx += 1;
                    }
                    return Ok(v);
                }
                IterState::Range(cur, stop, step) => {
                    let c = *cur;
                    if (*step > 0 && c < *stop) || (*step < 0 && c > *stop) {
                        *cur = c.saturating_add(*step);
                        return Ok(Some(Value::Int(c)));
                    }
                    return Ok(None);
                }
                IterState::BigRange(b) => return self.big_iter_next(b),
                IterState::DictKeys(d, idx, n)
                | IterState::DictValues(d, idx, n)
                | IterState::DictItems(d, idx, n) => {
                    let dd = d.d.borrow();
                    if dd.len() != *n {
                        drop(dd);
                        *st = IterState::Done;
                        return Err(
                            self.exc("RuntimeError", "dictionary changed size during iteration")
                        );
                    }
                    while *idx < dd.slots() {
                        let j = *idx;
                        *idx += 1;
                        if let Some(e) = dd.slot(j) {
                            let (k, v) = (e.key.clone(), e.value.clone());
                            drop(dd);
                            return Ok(Some(match &*st {
                                IterState::DictKeys(..) => k,
                                IterState::DictValues(..) => v,
                                _ => Value::tuple(vec![k, v]),
                            }));
                        }
                    }
                    return Ok(None);
                }
                IterState::Set(s, idx, n) => {
                    let dd = s.d.borrow();
                    if dd.len() != *n {
                        drop(dd);
                        *st = IterState::Done;
                        return Err(self.exc("RuntimeError", "Set changed size during iteration"));
                    }
                    while *idx < dd.slots() {
                        let j = *idx;
                        *idx += 1;
                        if let Some(e) = dd.slot(j) {
                            return Ok(Some(e.key.clone()));
                        }
                    }
                    return Ok(None);
                }
                IterState::Vec(v, idx) => {
                    let r = v.get(*idx).cloned();
                    if r.is_some() {
                        *idx += 1;
                    }
                    return Ok(r);
                }
                IterState::RevList(l, idx) => {
                    if *idx == 0 {
                        return Ok(None);
                    }
                    *idx -= 1;
                    return Ok(l.v.borrow().get(*idx).cloned());
                }
                IterState::Done => return Ok(None),
                // A non-strict zip of list / tuple / range iterators steps them in place: the
                // same items, the same state changes and the same end as the general path
                // below (which enters a native level, so only when that would succeed).
                IterState::Zip(its, false)
                    if !its.is_empty()
                        && self.native_depth < crate::vm::MAX_NATIVE_DEPTH
                        && its.iter().all(is_simple_iter) =>
                {
                    let mut out = Vec::with_capacity(its.len());
                    for it in its.iter() {
                        match step_simple_iter(it) {
                            Some(v) => out.push(v),
                            None => break,
                        }
                    }
                    if out.len() < its.len() {
                        *st = IterState::Done;
                        return Ok(None);
                    }
                    return Ok(Some(Value::tuple(out)));
                }
                IterState::Enumerate(it, n) => Slow::Enumerate(it.clone(), n.clone()),
                IterState::Zip(its, strict) => Slow::Zip(its.clone(), *strict),
                IterState::Map(f, its) => Slow::Map(f.clone(), its.clone()),
                IterState::Filter(f, it) => Slow::Filter(f.clone(), it.clone()),
                IterState::Callable(f, s) => Slow::Callable(f.clone(), s.clone()),
                IterState::SeqGetItem(o, idx) => Slow::Seq(o.clone(), *idx),
            }
        };
        self.enter_native()?;
        let r = (|| match slow {
            Slow::Enumerate(it, n) => match self.next(&it)? {
                Some(v) => {
                    let next_n = self.binary_op(&n, &Value::Int(1), BinOp::Add, false)?;
                    if let IterState::Enumerate(_, nn) = &mut *i.st.borrow_mut() {
                        *nn = next_n;
                    }
                    Ok(Some(Value::tuple(vec![n, v])))
                }
                None => Ok(None),
            },
            Slow::Zip(its, strict) => {
                if its.is_empty() {
                    return Ok(None);
                }
                let mut out = Vec::with_capacity(its.len());
                for (k, it) in its.iter().enumerate() {
                    match self.next(it)? {
                        Some(v) => out.push(v),
                        None => {
                            if strict {
                                if k > 0 {
                                    return Err(self.exc(
                                        "ValueError",
                                        format!(
                                            "zip() argument {} is shorter than argument{} 1{}",
                                            k + 1,
                                            if k > 1 { "s" } else { "" },
                                            if k > 1 {
                                                format!("-{k}")
                                            } else {
                                                String::new()
                                            }
                                        ),
                                    ));
                                }
                                for (j, it2) in its.iter().enumerate().skip(1) {
                                    if self.next(it2)?.is_some() {
                                        return Err(self.exc(
                                            "ValueError",
                                            format!(
                                                "zip() argument {} is longer than argument{} 1{}",
                                                j + 1,
                                                if j > 1 { "s" } else { "" },
                                                if j > 1 {
                                                    format!("-{j}")
                                                } else {
                                                    String::new()
                                                }
                                            ),
                                        ));
                                    }
                                }
                            }
                            *i.st.borrow_mut() = IterState::Done;
                            return Ok(None);
                        }
                    }
                }
                Ok(Some(Value::tuple(out)))
            }
            Slow::Map(f, its) => {
                let mut args = Vec::with_capacity(its.len());
                for it in &its {
                    match self.next(it)? {
                        Some(v) => args.push(v),
                        None => return Ok(None),
                    }
                }
                Ok(Some(self.call(&f, args, vec![])?))
            }
            Slow::Filter(f, it) => loop {
                match self.next(&it)? {
                    Some(v) => {
                        let keep = if f.is_none() {
                            self.truthy(&v)?
                        } else {
                            let r = self.call(&f, vec![v.clone()], vec![])?;
                            self.truthy(&r)?
                        };
                        if keep {
                            return Ok(Some(v));
                        }
                    }
                    None => return Ok(None),
                }
            },
            Slow::Callable(f, sentinel) => {
                let v = self.call(&f, vec![], vec![])?;
                if self.eq(&v, &sentinel)? {
                    *i.st.borrow_mut() = IterState::Done;
                    Ok(None)
                } else {
                    Ok(Some(v))
                }
            }
            Slow::Seq(o, idx) => match self.getitem(&o, &Value::Int(idx)) {
                Ok(v) => {
                    if let IterState::SeqGetItem(_, n) = &mut *i.st.borrow_mut() {
                        *n += 1;
                    }
                    Ok(Some(v))
                }
                Err(Flow::Exc(e))
                    if self.isinstance_name(&e, "IndexError")
                        || self.isinstance_name(&e, "StopIteration") =>
                {
                    *i.st.borrow_mut() = IterState::Done;
                    Ok(None)
                }
                Err(e) => Err(e),
            },
        })();
        self.leave_native();
        r
    }

    /// Collect an iterable into a Vec (metered per element).
    pub fn collect(&mut self, v: &Value) -> PyResult<Vec<Value>> {
        match v {
            Value::List(l) => {
                let r: Vec<Value> = l.v.borrow().iter().map(Value::clone_fast).collect();
                self.charge(r.len() as u64)?;
                Ok(r)
            }
            Value::Tuple(t) => {
                self.charge(t.v.len() as u64)?;
                Ok(t.v.iter().map(Value::clone_fast).collect())
            }
            _ => {
                let it = self.get_iter(v)?;
                let mut out = Vec::new();
                while let Some(x) = self.next(&it)? {
                    self.charge(cost::PER_ELEMENT)?;
                    if out.len() == out.capacity() {
                        self.check_mem(out.len() * 16 + 64)?;
                    }
                    out.push(x);
                }
                Ok(out)
            }
        }
    }

    /// Collect at most `max` items.
    pub fn collect_limited(&mut self, v: &Value, max: usize) -> PyResult<Vec<Value>> {
        let it = self.get_iter(v)?;
        let mut out = Vec::new();
        while out.len() < max {
            match self.next(&it)? {
                Some(x) => out.push(x),
                None => break,
            }
        }
        Ok(out)
    }

    /// `len(v)`
    pub fn len(&mut self, v: &Value) -> PyResult<usize> {
        if let Value::Class(_) = v
            && let Some(r) = self.call_meta_special(v, "__len__", vec![])?
        {
            let n = self.to_index(&r)?;
            if n < 0 {
                return Err(self.exc("ValueError", "__len__() should return >= 0"));
            }
            return Ok(n as usize);
        }
        Ok(match v {
            Value::Str(s) => s.nchars,
            Value::Bytes(b) => b.b.len(),
            Value::ByteArray(b) => b.b.borrow().len(),
            Value::List(l) => l.v.borrow().len(),
            Value::Tuple(t) => t.v.len(),
            Value::Dict(d) => d.d.borrow().len(),
            Value::Set(s) | Value::FrozenSet(s) => s.d.borrow().len(),
            Value::Range(r) => match r.big.as_deref() {
                None => r.len() as usize,
                Some(b) => self.big_range_len(b)?,
            },
            Value::Instance(_) if self.as_view(v).is_some() => {
                self.as_view(v).map_or(0, |(_, d)| d.d.borrow().len())
            }
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(v, "__len__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    let n = self.to_index(&r)?;
                    if n < 0 {
                        return Err(self.exc("ValueError", "__len__() should return >= 0"));
                    }
                    return Ok(n as usize);
                }
                if let Some(n) = self.native_of(v) {
                    return self.len(&n);
                }
                return Err(self.type_err(format!(
                    "object of type '{}' has no len()",
                    self.type_name(v)
                )));
            }
            _ => {
                return Err(self.type_err(format!(
                    "object of type '{}' has no len()",
                    self.type_name(v)
                )));
            }
        })
    }
}

fn unreachable_view() -> (u8, Rc<PyDict>) {
    (
        0,
        Rc::new(PyDict {
            d: std::cell::RefCell::new(Dict::new()),
        }),
    )
}

/// Compare float with an int value exactly.
pub fn float_int_cmp(f: F64, i: &Value) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f.is_sign_negative() {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let b = int::to_big(i)?;
    let fl = f.floor();
    let fb = crate::float::to_bigint(fl).ok()?;
    match fb.cmp(&b) {
        Ordering::Equal => {
            if F64::eq(f, fl) {
                Some(Ordering::Equal)
            } else {
                Some(Ordering::Greater)
            }
        }
        o => Some(o),
    }
}

fn as_float_lossy(v: &Value) -> Option<F64> {
    match v {
        Value::Float(f) => Some(*f),
        Value::Int(i) => Some(F64::from_i64(*i)),
        Value::Bool(b) => Some(F64::from_i64(*b as i64)),
        _ => None,
    }
}

impl Vm {
    /// Runs `LOAD_CONST k; COMPARE op` right after a `SUBSCR` that would push a one-character
    /// str whose character is the ASCII byte `byte`, when constant `k` is a str and `op` is
    /// `==`, `!=`, `in` or `not in`: each instruction's table cost is charged as the dispatch
    /// loop would (`ip` advanced, then `OutOfCycles` if the budget is short), then the `in`
    /// length charge, and the comparison's bool is returned (the character str is never
    /// built; nothing checks the heap in between, so nothing can observe that). None, having
    /// done nothing, when the next two instructions are not such a pair.
    #[inline]
    pub(crate) fn str_char_compare_fused(&mut self, byte: u8) -> Option<PyResult<bool>> {
        use crate::bytecode::Instr;
        let f = self.frames.last_mut()?;
        let (Some(&load @ Instr::LoadConst(k)), Some(&cmp @ Instr::Compare(op))) =
            (f.code.instrs.get(f.ip), f.code.instrs.get(f.ip + 1))
        else {
            return None;
        };
        let Value::Str(c) = f.code.consts.get(k as usize)? else {
            return None;
        };
        let text = c.s.as_bytes();
        // `compare`'s str fast paths: `==` charges the character's length / 16 (0), `in`
        // the container's length / 8.
        let (r, extra) = match op {
            CmpOp::Eq => (text == [byte], 0),
            CmpOp::Ne => (text != [byte], 0),
            CmpOp::In => (text.contains(&byte), text.len() as u64 / 8),
            CmpOp::NotIn => (!text.contains(&byte), text.len() as u64 / 8),
            _ => return None,
        };
        for i in [load, cmp] {
            if let Some(f) = self.frames.last_mut() {
                f.ip += 1;
            }
            if let Err(e) = self.charge(cost::instr_cost(&i)) {
                return Some(Err(e));
            }
        }
        Some(self.charge(extra).map(|()| r))
    }
}
