//! `range` objects beyond the i64 fast representation, and the range operations that are
//! shared by both representations (construction, slicing, hashing, equality, linear search).
//!
//! A [`PyRange`] uses its i64 fields only when [`PyRange::fits_i64`] holds: all three bounds
//! fit in i64 and so does every quantity the i64 fast paths derive from them (the length,
//! `stop - start`, `start - step` and `start + len * step`). Any other range keeps its bounds
//! as big ints in a [`BigRange`]; the choice is made once, at construction, and is not
//! observable (`type`, equality, hashing, repr and every operation agree across the two).
//!
//! Operations on a big range charge what the same operation on an i64 range charges, plus the
//! CIP-3 big-int surcharge ([`cost::bigint_surcharge`]) of the largest bit length involved.
//! Semantics follow CPython 3.11 `rangeobject.c`, including `len()` raising `OverflowError`
//! when the length does not fit in a signed 64-bit size.

use crate::cost;
use crate::heap::Acct;
use crate::int;
use crate::value::{IterState, PyRange, PySlice, Value};
use crate::vm::{PyResult, Vm};
use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// Bounds of a range that does not fit the i64 representation.
///
/// Invariants: `step != 0`; `len` is the number of elements (`>= 0`); `bits` is the largest
/// bit length of `start`, `stop` and `step`.
#[derive(Debug)]
pub struct BigRange {
    /// First element (if any).
    pub start: BigInt,
    /// Exclusive bound.
    pub stop: BigInt,
    /// Step (non-zero).
    pub step: BigInt,
    /// Number of elements.
    pub len: BigInt,
    /// Largest bit length of the three bounds (for the big-int surcharge).
    pub bits: u64,
    #[allow(dead_code)]
    acct: Acct,
}

/// State of a `longrange_iterator`: yields `cur`, `cur + step`, … while before `stop`.
#[derive(Debug)]
pub struct BigIter {
    cur: BigInt,
    stop: BigInt,
    step: BigInt,
}

/// Number of elements of `range(start, stop, step)` (`step != 0`), `>= 0`.
fn big_len(start: &BigInt, stop: &BigInt, step: &BigInt) -> BigInt {
    let (lo, hi, st) = if step.is_positive() {
        (start, stop, step.clone())
    } else {
        (stop, start, -step)
    };
    if lo < hi {
        (hi - lo - BigInt::one()) / st + BigInt::one()
    } else {
        BigInt::zero()
    }
}

fn bytes_of(b: &BigInt) -> usize {
    (b.bits() as usize).div_ceil(8)
}

impl PyRange {
    /// True if `range(start, stop, step)` may use the i64 representation: every quantity the
    /// i64 fast paths compute (`stop - start`, the length, `start - step`, `start + len * step`)
    /// fits in i64. `step` must be non-zero.
    pub fn fits_i64(start: i64, stop: i64, step: i64) -> bool {
        let (a, b, s) = (start as i128, stop as i128, step as i128);
        let n = if s > 0 {
            if a < b { (b - a - 1) / s + 1 } else { 0 }
        } else if a > b {
            (a - b - 1) / (-s) + 1
        } else {
            0
        };
        let fits = |x: i128| i64::try_from(x).is_ok();
        fits(b - a) && fits(a - s) && fits(a + n * s)
    }

    /// `range(start, stop, step)` from i64 bounds (`step != 0`), in whichever representation
    /// [`PyRange::fits_i64`] allows.
    pub fn from_i64(start: i64, stop: i64, step: i64) -> PyRange {
        if PyRange::fits_i64(start, stop, step) {
            PyRange {
                start,
                stop,
                step,
                big: None,
            }
        } else {
            PyRange::from_big(start.into(), stop.into(), step.into())
        }
    }

    /// `range(start, stop, step)` from int bounds (`step != 0`), in the i64 representation
    /// when it allows them.
    pub fn from_big(start: BigInt, stop: BigInt, step: BigInt) -> PyRange {
        if let (Some(a), Some(b), Some(s)) = (start.to_i64(), stop.to_i64(), step.to_i64())
            && PyRange::fits_i64(a, b, s)
        {
            return PyRange {
                start: a,
                stop: b,
                step: s,
                big: None,
            };
        }
        let len = big_len(&start, &stop, &step);
        let bits = start.bits().max(stop.bits()).max(step.bits());
        let acct =
            Acct::new(96 + bytes_of(&start) + bytes_of(&stop) + bytes_of(&step) + bytes_of(&len));
        PyRange {
            start: 0,
            stop: 0,
            step: 1,
            big: Some(Rc::new(BigRange {
                start,
                stop,
                step,
                len,
                bits,
                acct,
            })),
        }
    }

    /// `(start, stop, step, len)` as big ints, whatever the representation.
    fn parts(&self) -> (BigInt, BigInt, BigInt, BigInt) {
        match &self.big {
            Some(b) => (
                b.start.clone(),
                b.stop.clone(),
                b.step.clone(),
                b.len.clone(),
            ),
            None => (
                self.start.into(),
                self.stop.into(),
                self.step.into(),
                self.len().into(),
            ),
        }
    }
}

/// `x == y` for two ranges: same length, and (if non-empty) same first element, and (if
/// longer than one) same step.
pub fn eq(x: &PyRange, y: &PyRange) -> bool {
    let (xs, _, xst, xl) = x.parts();
    let (ys, _, yst, yl) = y.parts();
    xl == yl && (xl.is_zero() || (xs == ys && (xl.is_one() || xst == yst)))
}

fn int_hash(b: &BigInt) -> i64 {
    match b.to_i64() {
        Some(i) => int::hash_i64(i),
        None => int::hash_big(b),
    }
}

/// `hash(r)`: CPython's hash of the tuple `(len, start, step)`, with `start` and `step`
/// replaced by `None` for an empty range and `step` by `None` for a one-element range, so
/// equal ranges hash equal.
pub fn hash(r: &PyRange) -> i64 {
    const NONE_HASH: i64 = 0xFCB2_2F80;
    let (start, _, step, len) = r.parts();
    let hs = if len.is_zero() {
        NONE_HASH
    } else {
        int_hash(&start)
    };
    let ht = if len.is_zero() || len.is_one() {
        NONE_HASH
    } else {
        int_hash(&step)
    };
    // CPython 3.11 tuplehash (xxHash-based) of three items.
    const P1: u64 = 11400714785074694791;
    const P2: u64 = 14029467366897019727;
    const P5: u64 = 2870177450012600261;
    let mut acc: u64 = P5;
    for h in [int_hash(&len), hs, ht] {
        acc = acc.wrapping_add((h as u64).wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add(3 ^ (P5 ^ 3527539));
    if acc == u64::MAX {
        1546275796
    } else {
        acc as i64
    }
}

/// `repr` of a big range.
pub fn repr(b: &BigRange) -> String {
    if b.step.is_one() {
        format!("range({}, {})", b.start, b.stop)
    } else {
        format!("range({}, {}, {})", b.start, b.stop, b.step)
    }
}

/// An int value (int, bool or big int) as a big int.
fn as_int(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(_) | Value::Bool(_) | Value::BigInt(_) => int::to_big(v),
        _ => None,
    }
}

impl Vm {
    fn big_surcharge(&mut self, bits: u64) -> PyResult<()> {
        self.charge(cost::bigint_surcharge(bits))
    }

    /// An int, bool or object with `__index__` as a big int; `None` for anything else.
    fn index_big(&mut self, v: &Value) -> PyResult<Option<BigInt>> {
        if let Some(b) = as_int(v) {
            return Ok(Some(b));
        }
        if let Value::Instance(_) = v
            && let Some(m) = self.lookup_special(v, "__index__")
        {
            let r = self.call(&m, vec![v.clone()], vec![])?;
            return match as_int(&r) {
                Some(b) => Ok(Some(b)),
                None => Err(self.type_err(format!(
                    "__index__ returned non-int (type {})",
                    self.type_name(&r)
                ))),
            };
        }
        Ok(None)
    }

    /// `range(*args)` where some argument is not an i64 int: converts through `__index__`
    /// and builds the range in the representation its bounds allow.
    pub(crate) fn range_new_big(&mut self, args: &[Value]) -> PyResult<Value> {
        let mut ints = Vec::with_capacity(args.len());
        for a in args.iter().take(3) {
            match self.index_big(a)? {
                Some(b) => ints.push(b),
                None => {
                    return Err(self.type_err(format!(
                        "'{}' object cannot be interpreted as an integer",
                        self.type_name(a)
                    )));
                }
            }
        }
        let mut it = ints.into_iter();
        let (start, stop, step) = match args.len() {
            1 => (BigInt::zero(), it.next().unwrap_or_default(), BigInt::one()),
            2 => {
                let a = it.next().unwrap_or_default();
                (a, it.next().unwrap_or_default(), BigInt::one())
            }
            3 => {
                let a = it.next().unwrap_or_default();
                let b = it.next().unwrap_or_default();
                (a, b, it.next().unwrap_or_default())
            }
            0 => return Err(self.type_err("range expected at least 1 argument, got 0")),
            n => {
                return Err(self.type_err(format!("range expected at most 3 arguments, got {n}")));
            }
        };
        if step.is_zero() {
            return Err(self.exc("ValueError", "range() arg 3 must not be zero"));
        }
        self.big_surcharge(start.bits().max(stop.bits()).max(step.bits()))?;
        Ok(Value::Range(Rc::new(PyRange::from_big(start, stop, step))))
    }

    /// `len(r)` of a big range: `OverflowError` when the length does not fit a signed
    /// 64-bit size, as in CPython.
    pub(crate) fn big_range_len(&mut self, b: &BigRange) -> PyResult<usize> {
        self.big_surcharge(b.bits)?;
        match b.len.to_i64() {
            Some(n) => Ok(n as usize),
            None => Err(self.exc(
                "OverflowError",
                "Python int too large to convert to C ssize_t",
            )),
        }
    }

    /// `r[k]` on a big range (`k` an integer or a slice).
    pub(crate) fn big_range_getitem(&mut self, r: &PyRange, k: &Value) -> PyResult<Value> {
        let Some(b) = &r.big else {
            return Err(self.exc("SystemError", "not a big range"));
        };
        if let Value::Slice(s) = k {
            return self.range_slice(r, s);
        }
        let Some(i) = self.index_big(k)? else {
            return Err(self.type_err(format!(
                "range indices must be integers or slices, not {}",
                self.type_name(k)
            )));
        };
        self.big_surcharge(b.bits.max(i.bits()))?;
        let j = if i.is_negative() { i + &b.len } else { i };
        if j.is_negative() || j >= b.len {
            return Err(self.exc("IndexError", "range object index out of range"));
        }
        Ok(int::from_big(&b.start + j * &b.step))
    }

    /// `r[s]` for a slice `s` (either representation): the range of the selected elements.
    pub(crate) fn range_slice(&mut self, r: &PyRange, s: &PySlice) -> PyResult<Value> {
        let (start, _, step, len) = r.parts();
        let get = |vm: &mut Vm, v: &Value| -> PyResult<Option<BigInt>> {
            if let Value::None = v {
                return Ok(None);
            }
            match vm.index_big(v)? {
                Some(b) => Ok(Some(b)),
                None => Err(vm.type_err(
                    "slice indices must be integers or None or have an __index__ method",
                )),
            }
        };
        let sstep = get(self, &s.step)?.unwrap_or_else(BigInt::one);
        if sstep.is_zero() {
            return Err(self.exc("ValueError", "slice step cannot be zero"));
        }
        let sstart = get(self, &s.start)?;
        let sstop = get(self, &s.stop)?;
        if let Some(b) = &r.big {
            let bits = [&sstart, &sstop]
                .iter()
                .filter_map(|x| x.as_ref().map(BigInt::bits))
                .fold(b.bits.max(sstep.bits()), u64::max);
            self.big_surcharge(bits)?;
        }
        let (lower, upper) = if sstep.is_negative() {
            (-BigInt::one(), &len - BigInt::one())
        } else {
            (BigInt::zero(), len.clone())
        };
        let clamp = |x: Option<BigInt>, default: &BigInt| -> BigInt {
            match x {
                None => default.clone(),
                Some(mut v) => {
                    if v.is_negative() {
                        v += &len;
                        if v < lower { lower.clone() } else { v }
                    } else if v > upper {
                        upper.clone()
                    } else {
                        v
                    }
                }
            }
        };
        let neg = sstep.is_negative();
        let a = clamp(sstart, if neg { &upper } else { &lower });
        let z = clamp(sstop, if neg { &lower } else { &upper });
        let nstart = &start + a * &step;
        let nstop = &start + z * &step;
        let nstep = step * sstep;
        let limit = int::MAX_BITS;
        if nstart.bits() > limit || nstop.bits() > limit || nstep.bits() > limit {
            return Err(self.int_err(int::IntError::Overflow));
        }
        Ok(Value::Range(Rc::new(PyRange::from_big(
            nstart, nstop, nstep,
        ))))
    }

    /// `item in r` for an int item on a big range.
    fn big_range_has(&mut self, b: &BigRange, x: &BigInt) -> PyResult<bool> {
        self.big_surcharge(b.bits.max(x.bits()))?;
        let inside = if b.step.is_positive() {
            *x >= b.start && *x < b.stop
        } else {
            *x <= b.start && *x > b.stop
        };
        Ok(inside && ((x - &b.start) % &b.step).is_zero())
    }

    /// Index of the first element of `r` equal to `item`, comparing one element after the
    /// other (CPython's search for items that are not exact ints); 1 cycle per element.
    fn range_search(&mut self, r: &PyRange, item: &Value, count: bool) -> PyResult<BigInt> {
        let (start, _, step, len) = r.parts();
        let bits = r.big.as_ref().map_or(0, |b| b.bits);
        let mut i = BigInt::zero();
        let mut found = BigInt::zero();
        let mut cur = start;
        while i < len {
            self.charge(cost::PER_ELEMENT)?;
            self.big_surcharge(bits)?;
            let v = int::from_big(cur.clone());
            if self.eq(&v, item)? {
                if !count {
                    return Ok(i);
                }
                found += 1;
            }
            cur += &step;
            i += 1;
        }
        Ok(if count { found } else { -BigInt::one() })
    }

    /// `item in r` (either representation): arithmetic for exact ints and bools, a search
    /// through the elements for anything else.
    pub(crate) fn range_contains(&mut self, r: &PyRange, item: &Value) -> PyResult<bool> {
        match (&r.big, as_int(item)) {
            (Some(b), Some(x)) => self.big_range_has(b, &x),
            (None, Some(x)) => Ok(match x.to_i64() {
                Some(i) => {
                    if r.step > 0 {
                        i >= r.start && i < r.stop && (i - r.start) % r.step == 0
                    } else {
                        i <= r.start && i > r.stop && (r.start - i) % (-r.step) == 0
                    }
                }
                None => false,
            }),
            (_, None) => Ok(!self.range_search(r, item, false)?.is_negative()),
        }
    }

    /// `r.index(x)` / `r.count(x)` (either representation).
    pub(crate) fn range_index_count(
        &mut self,
        r: &PyRange,
        x: &Value,
        count: bool,
    ) -> PyResult<Value> {
        let Some(xi) = as_int(x) else {
            let n = self.range_search(r, x, count)?;
            if !count && n.is_negative() {
                return Err(self.exc("ValueError", "sequence.index(x): x not in sequence"));
            }
            return Ok(int::from_big(n));
        };
        let has = self.range_contains(r, x)?;
        if count {
            return Ok(Value::Int(has as i64));
        }
        if !has {
            let s = self.repr(x)?;
            return Err(self.exc("ValueError", format!("{s} is not in range")));
        }
        let (start, _, step, _) = r.parts();
        Ok(int::from_big((xi - start) / step))
    }

    /// `r.start` / `r.stop` / `r.step` of a big range.
    pub(crate) fn big_range_attr(b: &BigRange, name: &str) -> Option<Value> {
        Some(int::from_big(match name {
            "start" => b.start.clone(),
            "stop" => b.stop.clone(),
            "step" => b.step.clone(),
            _ => return None,
        }))
    }

    /// `iter(r)` of a big range.
    pub(crate) fn big_range_iter(b: &BigRange) -> IterState {
        IterState::BigRange(Box::new(BigIter {
            cur: b.start.clone(),
            stop: b.stop.clone(),
            step: b.step.clone(),
        }))
    }

    /// `reversed(r)` of a big range.
    pub(crate) fn big_range_reversed(b: &BigRange) -> IterState {
        if b.len.is_zero() {
            return IterState::Done;
        }
        let last = &b.start + (&b.len - BigInt::one()) * &b.step;
        IterState::BigRange(Box::new(BigIter {
            cur: last,
            stop: &b.start - &b.step,
            step: -&b.step,
        }))
    }

    /// One step of a `longrange_iterator`: the next element, or `None` when exhausted.
    pub(crate) fn big_iter_next(&mut self, it: &mut BigIter) -> PyResult<Option<Value>> {
        let more = if it.step.sign() == Sign::Plus {
            it.cur < it.stop
        } else {
            it.cur > it.stop
        };
        if !more {
            return Ok(None);
        }
        self.big_surcharge(it.cur.bits().max(it.stop.bits()).max(it.step.bits()))?;
        let v = int::from_big(it.cur.clone());
        it.cur += &it.step;
        Ok(Some(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_representation_only_when_derived_values_fit() {
        assert!(PyRange::fits_i64(0, 10, 1));
        assert!(PyRange::fits_i64(0, i64::MAX, 1));
        assert!(PyRange::fits_i64(i64::MAX - 1, 0, -1));
        // start - step overflows (the end of reversed() of a negative-step range)
        assert!(!PyRange::fits_i64(i64::MAX, 0, -1));
        // stop - start overflows
        assert!(!PyRange::fits_i64(i64::MIN, i64::MAX, 1));
        // start - step overflows (reversed() sentinel)
        assert!(!PyRange::fits_i64(i64::MIN, 0, 1));
        // start + len * step overflows (slice end)
        assert!(!PyRange::fits_i64(0, (1 << 62) + 1, 1 << 62));
        assert!(
            PyRange::from_big(BigInt::from(5), BigInt::from(1), BigInt::from(-2))
                .big
                .is_none()
        );
        let big = PyRange::from_big(BigInt::zero(), BigInt::one() << 70u32, BigInt::one());
        assert_eq!(
            big.big.as_ref().map(|b| b.len.clone()),
            Some(BigInt::one() << 70u32)
        );
    }

    #[test]
    fn equal_ranges_hash_equal_across_representations() {
        let small = PyRange::from_i64(7, 8, 1);
        let big = PyRange::from_big(
            BigInt::from(7),
            BigInt::one() << 80u32,
            BigInt::one() << 80u32,
        );
        assert!(big.big.is_some());
        assert!(eq(&small, &big));
        assert_eq!(hash(&small), hash(&big));
        let e1 = PyRange::from_i64(0, 0, 1);
        let e2 = PyRange::from_big(BigInt::one() << 90u32, BigInt::zero(), BigInt::one());
        assert!(eq(&e1, &e2));
        assert_eq!(hash(&e1), hash(&e2));
        assert!(!eq(
            &PyRange::from_i64(0, 4, 1),
            &PyRange::from_i64(0, 4, 2)
        ));
    }

    #[test]
    fn hash_matches_cpython_tuple_hash() {
        // Values printed by CPython 3.11 for hash(range(0, 10, 2)) and hash(range(2**70)).
        assert_eq!(hash(&PyRange::from_i64(0, 10, 2)), -6143170332311272345);
        assert_eq!(hash(&PyRange::from_i64(0, 9, 2)), -6143170332311272345);
        let big = PyRange::from_big(BigInt::zero(), BigInt::one() << 70u32, BigInt::one());
        assert_eq!(hash(&big), 7320047211865846142);
    }
}

#[cfg(test)]
mod metering {
    use crate::{Limits, run_program};

    fn cycles(src: &str) -> u64 {
        let o = run_program(src, "t.py", &Limits::default());
        assert!(o.error.is_none(), "{:?}", o.error);
        o.cycles_used
    }

    /// Cycles of `loop` after `prelude`, minus the prelude's own.
    fn loop_cycles(prelude: &str, lp: &str) -> u64 {
        cycles(&format!("{prelude}{lp}")) - cycles(prelude)
    }

    #[test]
    fn big_ranges_pay_the_bigint_surcharge() {
        let lp = "for i in range(a, b):\n    pass\n";
        let small = loop_cycles("a = 5\nb = 15\n", lp);
        // bounds of 71 bits: 71 / 64 = 1 more cycle for the construction and for each of the
        // 10 iteration steps
        let big = loop_cycles("a = 2**70\nb = a + 10\n", lp);
        assert_eq!(big, small + 1 + 10);
        // 640-bit bounds: 10 more per operation
        let wide = loop_cycles("a = 2**639\nb = a + 10\n", lp);
        assert_eq!(wide, small + 10 + 10 * 10);
        // bounds that fit in i64 cost exactly what they did
        let near = loop_cycles("a = 2**62\nb = a + 10\n", lp);
        assert_eq!(near, small);
    }
}
