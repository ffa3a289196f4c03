//! Attribute access and subscripting.

use crate::value::*;
use crate::vm::{Flow, PyResult, Vm};
use num_traits::ToPrimitive;
use std::rc::Rc;

/// Attribute names that would expose frames, code or the interpreter: always SandboxError.
const FORBIDDEN_ATTRS: &[&str] = &[
    "__code__",
    "__globals__",
    "__builtins__",
    "__subclasses__",
    "gi_frame",
    "gi_code",
    "f_back",
    "f_globals",
    "f_locals",
    "f_code",
    "tb_frame",
    "__traceback__",
    "__reduce__",
    "__reduce_ex__",
    "__getstate__",
    "cr_frame",
    "__func__",
    "__self__",
    "__mro_entries__",
];

/// `super().__getitem__` style access to the dunders of a native payload.
fn native_dunder_attr(n: &Value, name: &str) -> Option<Value> {
    let known = [
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__len__",
        "__contains__",
        "__iter__",
        "__repr__",
        "__str__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__add__",
        "__mul__",
        "__hash__",
    ];
    let k = known.iter().find(|k| **k == name)?;
    Some(Value::Builtin(Rc::new(Builtin {
        kind: BuiltinKind::Method(k),
        recv: Some(n.clone()),
    })))
}

/// Cheap pre-filter, then exact match against [`FORBIDDEN_ATTRS`].
#[inline]
pub(crate) fn is_forbidden(name: &str) -> bool {
    let b = name.as_bytes();
    let candidate = b.len() >= 6 && (name.starts_with("__") || b[1] == b'_' || b[2] == b'_');
    candidate && FORBIDDEN_ATTRS.contains(&name)
}

/// Built-in `object` / `BaseException` dunders reachable through `super()` or the class.
pub fn object_dunder(name: &str) -> Option<&'static str> {
    Some(match name {
        "__init__" => "__object_init__",
        "__str__" => "__object_str__",
        "__repr__" => "__object_repr__",
        "__setattr__" => "__object_setattr__",
        "__getattribute__" => "__object_getattribute__",
        "__delattr__" => "__object_delattr__",
        "__new__" => "__object_new__",
        "__eq__" => "__object_eq__",
        "__ne__" => "__object_ne__",
        "__hash__" => "__object_hash__",
        "__init_subclass__" => "__object_init_subclass__",
        "__format__" => "__object_format__",
        _ => return None,
    })
}

/// Resolve a slice against a length: (start, stop, step, count).
pub fn slice_indices(vm: &mut Vm, s: &PySlice, len: usize) -> PyResult<(i64, i64, i64, usize)> {
    // Bounds that are None / int / bool have no `__index__` to run: resolved without the
    // general path (same results; a zero step raises the same error).
    let simple = |v: &Value| match v {
        Value::None => Some(None),
        Value::Int(i) => Some(Some(*i)),
        Value::Bool(b) => Some(Some(*b as i64)),
        _ => None,
    };
    if let (Some(step), Some(start), Some(stop)) =
        (simple(&s.step), simple(&s.start), simple(&s.stop))
    {
        let step = step.unwrap_or(1);
        if step == 0 {
            return Err(vm.exc("ValueError", "slice step cannot be zero"));
        }
        return Ok(slice_bounds(start, stop, step, len));
    }
    let mut get = |v: &Value| -> PyResult<Option<i64>> {
        match v {
            Value::Instance(_) if vm.lookup_special(v, "__index__").is_some() => {
                Ok(Some(vm.to_index(v)?))
            }
            Value::None => Ok(None),
            Value::Int(i) => Ok(Some(*i)),
            Value::Bool(b) => Ok(Some(*b as i64)),
            Value::BigInt(b) => Ok(Some(if b.sign() == num_bigint::Sign::Minus {
                i64::MIN / 2
            } else {
                i64::MAX / 2
            })),
            _ => {
                Err(vm
                    .type_err("slice indices must be integers or None or have an __index__ method"))
            }
        }
    };
    let step = get(&s.step)?.unwrap_or(1);
    if step == 0 {
        return Err(vm.exc("ValueError", "slice step cannot be zero"));
    }
    let start = get(&s.start)?;
    let stop = get(&s.stop)?;
    Ok(slice_bounds(start, stop, step, len))
}

/// Resolve slice bounds (None = default) and a non-zero `step` against a length:
/// (start, stop, step, count), as `slice.indices` does.
#[inline]
fn slice_bounds(
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
    len: usize,
) -> (i64, i64, i64, usize) {
    let len = len as i64;
    let (lo, hi) = if step < 0 { (-1, len - 1) } else { (0, len) };
    let norm = |x: Option<i64>, default: i64| -> i64 {
        match x {
            None => default,
            Some(v) => {
                if v < 0 {
                    (v + len).max(lo)
                } else {
                    v.min(hi)
                }
            }
        }
    };
    let start = norm(start, if step < 0 { hi } else { lo });
    let stop = norm(stop, if step < 0 { lo } else { hi });
    let count = if step > 0 {
        if stop > start {
            ((stop - start - 1) / step + 1) as usize
        } else {
            0
        }
    } else if start > stop {
        // `unsigned_abs`: `-step` would overflow for step == i64::MIN (`[::-2**63]`)
        ((start - stop - 1) as u64 / step.unsigned_abs() + 1) as usize
    } else {
        0
    };
    (start, stop, step, count)
}

/// Python index `i` into a sequence of `len` items (negative counts from the end), if in range.
#[inline]
pub(crate) fn norm_index(i: i64, len: usize) -> Option<usize> {
    let len = len as i64;
    let j = if i < 0 { i + len } else { i };
    if j < 0 || j >= len {
        None
    } else {
        Some(j as usize)
    }
}

/// Whether instances of `cls` (a class with `__slots__`) may hold attribute `name`: one of
/// its slots or a slot of a class in its MRO, or anything when a user class in its MRO has no
/// `__slots__` (and so gives its instances a `__dict__`).
pub fn slots_allow(cls: &Class, name: &str) -> bool {
    cls.slots
        .as_ref()
        .is_some_and(|s| s.iter().any(|x| &**x == name))
        || cls.mro.iter().any(|c| {
            c.slots
                .as_ref()
                .is_some_and(|s| s.iter().any(|x| &**x == name))
                || (!c.builtin && c.slots.is_none())
        })
}

impl Vm {
    fn index_of(&mut self, k: &Value, what: &str) -> PyResult<i64> {
        match k {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            Value::BigInt(b) => Ok(b.to_i64().unwrap_or(i64::MAX)),
            Value::Instance(_) if self.lookup_special(k, "__index__").is_some() => self.to_index(k),
            _ => Err(self.type_err(format!(
                "{what} indices must be integers or slices, not {}",
                self.type_name(k)
            ))),
        }
    }

    /// `o[k]`
    pub fn getitem(&mut self, o: &Value, k: &Value) -> PyResult<Value> {
        if let Value::Class(_) = o
            && let Some(r) = self.call_meta_special(o, "__getitem__", vec![k.clone()])?
        {
            return Ok(r);
        }
        match o {
            Value::List(l) => {
                if let Value::Slice(s) = k {
                    let v = l.v.borrow();
                    let (start, _, step, n) = slice_indices(self, s, v.len())?;
                    let out: Vec<Value> = if step == 1 {
                        let start = start as usize;
                        v[start..start + n].iter().map(Value::clone_fast).collect()
                    } else {
                        (0..n)
                            .map(|i| v[(start + i as i64 * step) as usize].clone_fast())
                            .collect()
                    };
                    drop(v);
                    self.charge(n as u64)?;
                    return Ok(Value::list(out));
                }
                let i = self.index_of(k, "list")?;
                let v = l.v.borrow();
                match norm_index(i, v.len()) {
                    Some(j) => Ok(v[j].clone()),
                    None => Err(self.exc("IndexError", "list index out of range")),
                }
            }
            Value::Tuple(t) => {
                if let Value::Slice(s) = k {
                    let (start, _, step, n) = slice_indices(self, s, t.v.len())?;
                    self.charge(n as u64)?;
                    let out: Vec<Value> = (0..n)
                        .map(|i| t.v[(start + i as i64 * step) as usize].clone())
                        .collect();
                    return Ok(Value::tuple(out));
                }
                let i = self.index_of(k, "tuple")?;
                match norm_index(i, t.v.len()) {
                    Some(j) => Ok(t.v[j].clone()),
                    None => Err(self.exc("IndexError", "tuple index out of range")),
                }
            }
            Value::Str(s) => {
                if let Value::Slice(sl) = k {
                    let (start, _, step, n) = slice_indices(self, sl, s.nchars)?;
                    self.charge(n as u64)?;
                    if step == 1 && s.is_ascii() {
                        let start = start as usize;
                        return Ok(Value::str(&s.s[start..start + n]));
                    }
                    if s.is_ascii() {
                        let b = s.s.as_bytes();
                        let out: String = (0..n)
                            .map(|i| b[(start + i as i64 * step) as usize] as char)
                            .collect();
                        return Ok(Value::str(out));
                    }
                    let chars: Vec<char> = s.s.chars().collect();
                    let out: String = (0..n)
                        .map(|i| chars[(start + i as i64 * step) as usize])
                        .collect();
                    return Ok(Value::str(out));
                }
                let i = self.index_of(k, "string")?;
                match norm_index(i, s.nchars) {
                    Some(j) => {
                        if s.is_ascii() {
                            Ok(Value::str(&s.s[j..j + 1]))
                        } else {
                            self.charge(j as u64 / 8)?;
                            Ok(Value::str(
                                s.s.chars()
                                    .nth(j)
                                    .map(|c| c.to_string())
                                    .unwrap_or_default(),
                            ))
                        }
                    }
                    None => Err(self.exc("IndexError", "string index out of range")),
                }
            }
            Value::Bytes(b) => {
                if let Value::Slice(sl) = k {
                    let (start, _, step, n) = slice_indices(self, sl, b.b.len())?;
                    let out: Vec<u8> = (0..n)
                        .map(|i| b.b[(start + i as i64 * step) as usize])
                        .collect();
                    return Ok(Value::bytes(out));
                }
                let i = self.index_of(k, "byte")?;
                match norm_index(i, b.b.len()) {
                    Some(j) => Ok(Value::Int(b.b[j] as i64)),
                    None => Err(self.exc("IndexError", "index out of range")),
                }
            }
            Value::ByteArray(b) => {
                let bb = b.b.borrow();
                if let Value::Slice(sl) = k {
                    let (start, _, step, n) = slice_indices(self, sl, bb.len())?;
                    let out: Vec<u8> = (0..n)
                        .map(|i| bb[(start + i as i64 * step) as usize])
                        .collect();
                    return Ok(Value::ByteArray(Rc::new(PyByteArray {
                        acct: crate::heap::Acct::new(out.len() + 40),
                        b: std::cell::RefCell::new(out),
                    })));
                }
                let i = self.index_of(k, "bytearray")?;
                match norm_index(i, bb.len()) {
                    Some(j) => Ok(Value::Int(bb[j] as i64)),
                    None => Err(self.exc("IndexError", "bytearray index out of range")),
                }
            }
            Value::Range(r) if r.big.is_some() => self.big_range_getitem(r, k),
            Value::Range(r) => {
                if let Value::Slice(sl) = k {
                    return self.range_slice(r, sl);
                }
                let i = self.index_of(k, "range")?;
                match norm_index(i, r.len() as usize) {
                    Some(j) => Ok(Value::Int(r.start + j as i64 * r.step)),
                    None => Err(self.exc("IndexError", "range object index out of range")),
                }
            }
            Value::Dict(d) => {
                self.charge(crate::cost::DICT)?;
                match self.dict_get(d, k)? {
                    Some(v) => Ok(v),
                    None => Err(self.exc_args("KeyError", vec![k.clone()])),
                }
            }
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(o, "__getitem__") {
                    return self.call(&m, vec![o.clone(), k.clone()], vec![]);
                }
                if let Some(n) = self.native_of(o) {
                    return match self.getitem(&n, k) {
                        Err(Flow::Exc(e))
                            if matches!(n, Value::Dict(_))
                                && self.isinstance_name(&e, "KeyError") =>
                        {
                            match self.lookup_special(o, "__missing__") {
                                Some(m) => self.call(&m, vec![o.clone(), k.clone()], vec![]),
                                None => Err(Flow::Exc(e)),
                            }
                        }
                        r => r,
                    };
                }
                Err(self.type_err(format!(
                    "'{}' object is not subscriptable",
                    self.type_name(o)
                )))
            }
            Value::Class(c) => {
                if let Some(m) = self.class_lookup(c, "__class_getitem__") {
                    return self.call(&m, vec![o.clone(), k.clone()], vec![]);
                }
                if c.builtin {
                    // list[int] style generic aliases: return the class itself.
                    return Ok(o.clone());
                }
                Err(self.type_err("'type' object is not subscriptable".to_string()))
            }
            _ => Err(self.type_err(format!(
                "'{}' object is not subscriptable",
                self.type_name(o)
            ))),
        }
    }

    /// `o[k] = v`
    pub fn setitem(&mut self, o: &Value, k: Value, v: Value) -> PyResult<()> {
        match o {
            Value::List(l) => {
                if let Value::Slice(s) = &k {
                    let items = self.collect(&v)?;
                    let len = l.v.borrow().len();
                    let (start, stop, step, n) = slice_indices(self, s, len)?;
                    if step == 1 {
                        let stop = stop.max(start);
                        let (start, stop) = (start as usize, stop as usize);
                        let mut lv = l.v.borrow_mut();
                        // Same length: the items replace the slice in place (what `splice`
                        // leaves); the old items are dropped after the borrow, as there.
                        let old: Vec<Value> = if stop - start == items.len() {
                            lv[start..stop]
                                .iter_mut()
                                .zip(items)
                                .map(|(d, x)| std::mem::replace(d, x))
                                .collect()
                        } else {
                            lv.splice(start..stop, items).collect()
                        };
                        drop(lv);
                        drop(old);
                    } else {
                        if items.len() != n {
                            return Err(self.exc(
                                "ValueError",
                                format!("attempt to assign sequence of size {} to extended slice of size {}", items.len(), n),
                            ));
                        }
                        let mut lv = l.v.borrow_mut();
                        for (i, x) in items.into_iter().enumerate() {
                            lv[(start + i as i64 * step) as usize] = x;
                        }
                    }
                    return Ok(());
                }
                let i = self.index_of(&k, "list")?;
                let mut lv = l.v.borrow_mut();
                match norm_index(i, lv.len()) {
                    Some(j) => {
                        let old = std::mem::replace(&mut lv[j], v);
                        drop(lv);
                        drop(old);
                        Ok(())
                    }
                    None => Err(self.exc("IndexError", "list assignment index out of range")),
                }
            }
            Value::Dict(d) => {
                self.charge(crate::cost::DICT)?;
                self.dict_setitem(d, k, v)
            }
            Value::ByteArray(b) if matches!(k, Value::Slice(_)) => {
                let Value::Slice(s) = &k else { return Ok(()) };
                let items: Vec<u8> = match &v {
                    Value::Bytes(x) => x.b.to_vec(),
                    Value::ByteArray(x) => x.b.borrow().clone(),
                    other => {
                        let its = self.collect(other)?;
                        let mut out = Vec::with_capacity(its.len());
                        for it in its {
                            let x = self.to_index(&it)?;
                            if !(0..256).contains(&x) {
                                return Err(self.exc("ValueError", "byte must be in range(0, 256)"));
                            }
                            out.push(x as u8);
                        }
                        out
                    }
                };
                let len = b.b.borrow().len();
                let (start, stop, step, n) = slice_indices(self, s, len)?;
                let mut bb = b.b.borrow_mut();
                if step == 1 {
                    let stop = stop.max(start);
                    bb.splice(start as usize..stop as usize, items);
                } else {
                    if items.len() != n {
                        return Err(self.exc(
                            "ValueError",
                            format!(
                                "attempt to assign bytes of size {} to extended slice of size {}",
                                items.len(),
                                n
                            ),
                        ));
                    }
                    for (i, x) in items.into_iter().enumerate() {
                        bb[(start + i as i64 * step) as usize] = x;
                    }
                }
                Ok(())
            }
            Value::ByteArray(b) => {
                let i = self.index_of(&k, "bytearray")?;
                let x = match v {
                    Value::Int(x) if (0..256).contains(&x) => x as u8,
                    _ => return Err(self.exc("ValueError", "byte must be in range(0, 256)")),
                };
                let mut bb = b.b.borrow_mut();
                match norm_index(i, bb.len()) {
                    Some(j) => {
                        bb[j] = x;
                        Ok(())
                    }
                    None => Err(self.exc("IndexError", "bytearray index out of range")),
                }
            }
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(o, "__setitem__") {
                    self.call(&m, vec![o.clone(), k, v], vec![])?;
                    return Ok(());
                }
                if let Some(n) = self.native_of(o) {
                    return self.setitem(&n, k, v);
                }
                Err(self.type_err(format!(
                    "'{}' object does not support item assignment",
                    self.type_name(o)
                )))
            }
            _ => Err(self.type_err(format!(
                "'{}' object does not support item assignment",
                self.type_name(o)
            ))),
        }
    }

    /// `del o[k]`
    pub fn delitem(&mut self, o: &Value, k: &Value) -> PyResult<()> {
        match o {
            Value::List(l) => {
                if let Value::Slice(s) = k {
                    let len = l.v.borrow().len();
                    let (start, _, step, n) = slice_indices(self, s, len)?;
                    let mut idx: Vec<usize> =
                        (0..n).map(|i| (start + i as i64 * step) as usize).collect();
                    idx.sort_unstable();
                    let mut lv = l.v.borrow_mut();
                    let mut removed = Vec::new();
                    for j in idx.into_iter().rev() {
                        removed.push(lv.remove(j));
                    }
                    drop(lv);
                    drop(removed);
                    return Ok(());
                }
                let i = self.index_of(k, "list")?;
                let mut lv = l.v.borrow_mut();
                match norm_index(i, lv.len()) {
                    Some(j) => {
                        let x = lv.remove(j);
                        drop(lv);
                        drop(x);
                        Ok(())
                    }
                    None => Err(self.exc("IndexError", "list assignment index out of range")),
                }
            }
            Value::ByteArray(b) => {
                let len = b.b.borrow().len();
                if let Value::Slice(s) = k {
                    let (start, _, step, n) = slice_indices(self, s, len)?;
                    let mut idx: Vec<usize> =
                        (0..n).map(|i| (start + i as i64 * step) as usize).collect();
                    idx.sort_unstable();
                    let mut bb = b.b.borrow_mut();
                    for j in idx.into_iter().rev() {
                        bb.remove(j);
                    }
                    return Ok(());
                }
                let i = self.index_of(k, "bytearray")?;
                match norm_index(i, len) {
                    Some(j) => {
                        b.b.borrow_mut().remove(j);
                        Ok(())
                    }
                    None => Err(self.exc("IndexError", "bytearray index out of range")),
                }
            }
            Value::Dict(d) => match self.dict_del(&d.d, k)? {
                Some(_) => Ok(()),
                None => Err(self.exc_args("KeyError", vec![k.clone()])),
            },
            Value::Instance(_) => {
                if let Some(m) = self.lookup_special(o, "__delitem__") {
                    self.call(&m, vec![o.clone(), k.clone()], vec![])?;
                    return Ok(());
                }
                if let Some(n) = self.native_of(o) {
                    return self.delitem(&n, k);
                }
                Err(self.type_err(format!(
                    "'{}' object does not support item deletion",
                    self.type_name(o)
                )))
            }
            _ => Err(self.type_err(format!(
                "'{}' object doesn't support item deletion",
                self.type_name(o)
            ))),
        }
    }

    fn no_attr(&self, o: &Value, name: &str) -> Flow {
        match o {
            Value::Module(m) => self.exc(
                "AttributeError",
                format!("module '{}' has no attribute '{}'", m.name, name),
            ),
            Value::Class(c) => self.exc(
                "AttributeError",
                format!("type object '{}' has no attribute '{}'", c.name, name),
            ),
            _ => self.exc(
                "AttributeError",
                format!("'{}' object has no attribute '{}'", self.type_name(o), name),
            ),
        }
    }

    /// Bind a class attribute found for an instance access.
    fn bind_class_attr(&mut self, attr: Value, inst: &Value, cls: &Rc<Class>) -> PyResult<Value> {
        Ok(match attr {
            Value::Function(_) => Value::BoundMethod(Rc::new(BoundMethod {
                recv: inst.clone(),
                func: attr,
            })),
            Value::Wrapper(ref w) => match &**w {
                Wrapper::ClassMethod(f) => Value::BoundMethod(Rc::new(BoundMethod {
                    recv: Value::Class(cls.clone()),
                    func: f.clone(),
                })),
                Wrapper::StaticMethod(f) => f.clone(),
                Wrapper::Property { fget, .. } => {
                    if fget.is_none() {
                        return Err(self.exc("AttributeError", "property has no getter"));
                    }
                    let g = fget.clone();
                    return self.call(&g, vec![inst.clone()], vec![]);
                }
                _ => attr.clone(),
            },
            Value::Builtin(b)
                if b.recv.is_none()
                    && matches!(&b.kind, BuiltinKind::Func(n) if n.starts_with("__file_")) =>
            {
                Value::Builtin(Rc::new(Builtin {
                    kind: b.kind.clone(),
                    recv: Some(inst.clone()),
                }))
            }
            Value::Instance(_) => {
                // descriptor protocol: __get__
                if let Some(g) = self.lookup_special(&attr, "__get__") {
                    return self.call(
                        &g,
                        vec![attr.clone(), inst.clone(), Value::Class(cls.clone())],
                        vec![],
                    );
                }
                attr
            }
            other => other,
        })
    }

    /// `o.name`
    pub fn get_attr(&mut self, o: &Value, name: &str) -> PyResult<Value> {
        if is_forbidden(name) {
            return Err(self.sandbox(format!(
                "access to attribute '{name}' is not allowed in the PVM"
            )));
        }
        match o {
            Value::Instance(inst) => {
                let cls = inst.class.borrow().clone();
                let fl = cls.eff_flags();
                if fl & (CLS_GETATTRIBUTE | CLS_DATA_DESCR) == 0 {
                    let h = crate::dict::str_hash(name);
                    // `__class__` is a data descriptor on `object`: an instance-dict entry of
                    // that name is shadowed unless a class attribute overrides it, which the
                    // general path below sorts out.
                    let hit = inst.dict.d.borrow().get_str_h(name, h).cloned();
                    match hit {
                        Some(v) if name != "__class__" => return Ok(v),
                        Some(_) => {}
                        None => {
                            if let Some(a) = self.class_lookup_h(&cls, name, h) {
                                return self.bind_class_attr(a, o, &cls);
                            }
                        }
                    }
                }
                if fl & CLS_GETATTRIBUTE != 0
                    && let Some(ga @ Value::Function(_)) =
                        self.class_lookup(&cls, "__getattribute__")
                {
                    return match self.call(&ga, vec![o.clone(), Value::str(name)], vec![]) {
                        Err(Flow::Exc(e)) if self.isinstance_name(&e, "AttributeError") => {
                            if let Some(g) = self.class_lookup(&cls, "__getattr__") {
                                return self.call(&g, vec![o.clone(), Value::str(name)], vec![]);
                            }
                            Err(Flow::Exc(e))
                        }
                        r => r,
                    };
                }
                let cattr = self.class_lookup(&cls, name);
                // data descriptors first
                if let Some(a) = &cattr {
                    let is_data = match a {
                        Value::Wrapper(w) => matches!(&**w, Wrapper::Property { .. }),
                        Value::Instance(_) => {
                            self.lookup_special(a, "__set__").is_some()
                                && self.lookup_special(a, "__get__").is_some()
                        }
                        _ => false,
                    };
                    if is_data {
                        return self.bind_class_attr(a.clone(), o, &cls);
                    }
                }
                // Without a class attribute of that name, `__class__` resolves to the data
                // descriptor on `object`, which takes precedence over the instance dict.
                if (cattr.is_some() || name != "__class__")
                    && let Some(v) = inst.dict.d.borrow().get_str(name)
                {
                    return Ok(v.clone());
                }
                if let Some(a) = cattr {
                    return self.bind_class_attr(a, o, &cls);
                }
                if name == "isdisjoint" && self.as_view(o).is_some() {
                    return Ok(Value::Builtin(Rc::new(Builtin {
                        kind: BuiltinKind::Func("__view_isdisjoint__"),
                        recv: Some(o.clone()),
                    })));
                }
                match name {
                    "__class__" => return Ok(Value::Class(cls)),
                    "__dict__"
                        if cls.slots.is_none()
                            || cls.mro.iter().any(|c| !c.builtin && c.slots.is_none()) =>
                    {
                        return Ok(Value::Dict(inst.dict.clone()));
                    }
                    _ => {}
                }
                if inst.exc.is_some() {
                    match name {
                        "args" => {
                            return Ok(inst
                                .native
                                .borrow()
                                .clone()
                                .unwrap_or_else(|| Value::tuple(vec![])));
                        }
                        "__cause__" => {
                            return Ok(inst
                                .exc
                                .as_ref()
                                .and_then(|e| e.borrow().cause.clone())
                                .unwrap_or_default());
                        }
                        "__context__" => {
                            return Ok(inst
                                .exc
                                .as_ref()
                                .and_then(|e| e.borrow().context.clone())
                                .unwrap_or_default());
                        }
                        "__suppress_context__" => {
                            return Ok(Value::Bool(
                                inst.exc
                                    .as_ref()
                                    .is_some_and(|e| e.borrow().suppress_context),
                            ));
                        }
                        "value" if self.isinstance_name(o, "StopIteration") => {
                            return Ok(self.stop_value(o));
                        }
                        "encoding" | "object" | "start" | "end" | "reason"
                            if self.isinstance_name(o, "UnicodeError") =>
                        {
                            let idx = ["encoding", "object", "start", "end", "reason"]
                                .iter()
                                .position(|n| *n == name)
                                .unwrap_or(0);
                            if let Some(Value::Tuple(t)) = &*inst.native.borrow()
                                && t.v.len() == 5
                            {
                                return Ok(t.v[idx].clone());
                            }
                        }
                        "add_note" => {
                            return Ok(Value::Builtin(Rc::new(Builtin {
                                kind: BuiltinKind::Func("__exc_add_note__"),
                                recv: Some(o.clone()),
                            })));
                        }
                        "with_traceback" => {
                            return Ok(Value::Builtin(Rc::new(Builtin {
                                kind: BuiltinKind::Func("__exc_with_traceback__"),
                                recv: Some(o.clone()),
                            })));
                        }
                        _ => {}
                    }
                }
                if let Some(n) = self.native_of(o)
                    && let Ok(v) = crate::methods::native_attr(self, &n, name)
                {
                    return Ok(v);
                }
                if let Some(ga) = self.class_lookup(&cls, "__getattr__") {
                    return self.call(&ga, vec![o.clone(), Value::str(name)], vec![]);
                }
                Err(self.no_attr(o, name))
            }
            Value::Class(c) => {
                match name {
                    "__name__" => return Ok(Value::str(&*c.name)),
                    "__qualname__" => return Ok(Value::str(&*c.qualname)),
                    "__mro__" => {
                        let mut v = vec![Value::Class(c.clone())];
                        v.extend(c.mro.iter().map(|x| Value::Class(x.clone())));
                        return Ok(Value::tuple(v));
                    }
                    "__bases__" => {
                        return Ok(Value::tuple(
                            c.bases.iter().map(|x| Value::Class(x.clone())).collect(),
                        ));
                    }
                    "__base__" => {
                        return Ok(c
                            .bases
                            .first()
                            .map(|b| Value::Class(b.clone()))
                            .unwrap_or_default());
                    }
                    "__dict__" => {
                        let d = c.dict.borrow().clone();
                        return Ok(Value::dict(d));
                    }
                    "__class__" => return Ok(Value::Class(self.class_of(o))),
                    _ => {}
                }
                match self.class_lookup(c, name) {
                    Some(v) => Ok(match v {
                        Value::Wrapper(ref w) => match &**w {
                            Wrapper::ClassMethod(f) => Value::BoundMethod(Rc::new(BoundMethod {
                                recv: o.clone(),
                                func: f.clone(),
                            })),
                            Wrapper::StaticMethod(f) => f.clone(),
                            _ => v.clone(),
                        },
                        Value::Instance(_) => {
                            if let Some(g) = self.lookup_special(&v, "__get__") {
                                return self.call(
                                    &g,
                                    vec![v.clone(), Value::None, o.clone()],
                                    vec![],
                                );
                            }
                            v
                        }
                        v => v,
                    }),
                    None => {
                        if !c.builtin
                            && let Some(v) = self.meta_attr(c, name)?
                        {
                            return Ok(v);
                        }
                        if c.builtin
                            && c.kind == TypeKind::Type
                            && let Some(f) = crate::modules::meta::type_dunder(name)
                        {
                            return Ok(Value::Builtin(Rc::new(Builtin {
                                kind: BuiltinKind::Func(f),
                                recv: None,
                            })));
                        }
                        if c.builtin
                            && let Some(b) = crate::methods::unbound_method(self, c, name)
                        {
                            return Ok(b);
                        }
                        if name == "mro" {
                            return Ok(Value::Builtin(Rc::new(Builtin {
                                kind: BuiltinKind::Func("__type_mro__"),
                                recv: Some(o.clone()),
                            })));
                        }
                        if let Some(f) = object_dunder(name) {
                            return Ok(Value::Builtin(Rc::new(Builtin {
                                kind: BuiltinKind::Func(f),
                                recv: None,
                            })));
                        }
                        Err(self.no_attr(o, name))
                    }
                }
            }
            Value::Module(m) => {
                if name == "__name__" {
                    return Ok(Value::str(&*m.name));
                }
                if name == "__dict__" {
                    return Err(self.sandbox("module __dict__ access is not allowed in the PVM"));
                }
                match m.dict.borrow().get_str(name) {
                    Some(v) => Ok(v.clone()),
                    None => Err(self.no_attr(o, name)),
                }
            }
            Value::Function(f)
                if matches!(name, "__qualname__" | "__module__" | "__doc__")
                    && f.dict
                        .borrow()
                        .as_ref()
                        .is_some_and(|d| d.get_str(name).is_some()) =>
            {
                // assigned by the program (e.g. functools.wraps)
                Ok(f.dict
                    .borrow()
                    .as_ref()
                    .and_then(|d| d.get_str(name).cloned())
                    .unwrap_or_default())
            }
            Value::Function(f) => match name {
                "__name__" => Ok(Value::str(&**f.name.borrow())),
                "__qualname__" => Ok(Value::str(&*f.code.qualname)),
                "__module__" => Ok(Value::str(&*f.globals.name)),
                "__doc__" => Ok(f
                    .code
                    .doc
                    .as_ref()
                    .map(|d| Value::str(&**d))
                    .unwrap_or_default()),
                "__kwdefaults__" => Ok(if f.kwdefaults.borrow().is_empty() {
                    Value::None
                } else {
                    let mut d = crate::dict::Dict::new();
                    for (k, v) in f.kwdefaults.borrow().iter() {
                        d.set_str(Rc::new(PyStr::new(&**k)), v.clone());
                    }
                    Value::dict(d)
                }),
                "__closure__" => Ok(if f.closure.is_empty() {
                    Value::None
                } else {
                    Value::tuple(f.closure.iter().map(|c| Value::Cell(c.clone())).collect())
                }),
                "__annotations__" => self.function_annotations(f),
                "__defaults__" => Ok(if f.defaults.borrow().is_empty() {
                    Value::None
                } else {
                    Value::tuple(f.defaults.borrow().clone())
                }),
                "__dict__" => Ok(Value::dict(f.dict.borrow().clone().unwrap_or_default())),
                _ => match f
                    .dict
                    .borrow()
                    .as_ref()
                    .and_then(|d| d.get_str(name).cloned())
                {
                    Some(v) => Ok(v),
                    None => Err(self.no_attr(o, name)),
                },
            },
            Value::BoundMethod(b) => match name {
                "__name__" | "__qualname__" | "__doc__" | "__annotations__" => {
                    let f = b.func.clone();
                    self.get_attr(&f, name)
                }
                _ => Err(self.no_attr(o, name)),
            },
            Value::Wrapper(w) => match &**w {
                Wrapper::Super { cls, obj } => {
                    // in a metaclass method, super() searches the metaclass MRO and binds
                    // to the class like an instance
                    if let Some(m) = self.meta_super_start(cls, obj) {
                        let obj = obj.clone();
                        return match self.class_lookup_after(&m, cls, name) {
                            Some(v) => self.bind_class_attr(v, &obj, &m),
                            None => match crate::modules::meta::type_dunder(name) {
                                Some(f) => Ok(Value::Builtin(Rc::new(Builtin {
                                    kind: BuiltinKind::Func(f),
                                    recv: Some(obj),
                                }))),
                                None => Err(self.exc(
                                    "AttributeError",
                                    format!("'super' object has no attribute '{name}'"),
                                )),
                            },
                        };
                    }
                    let start = match obj {
                        Value::Class(c) => c.clone(),
                        _ => self.class_of(obj),
                    };
                    if let Value::Class(_) = obj
                        && self.is_type_subclass(cls)
                        && self.class_lookup_after(&start, cls, name).is_none()
                        && let Some(f) = crate::modules::meta::type_dunder(name)
                    {
                        // super() in a metaclass's __new__: `type.__new__(mcls, ...)`
                        let recv = if name == "__new__" {
                            None
                        } else {
                            Some(obj.clone())
                        };
                        return Ok(Value::Builtin(Rc::new(Builtin {
                            kind: BuiltinKind::Func(f),
                            recv,
                        })));
                    }
                    match self.class_lookup_after(&start, cls, name) {
                        Some(v) => match obj {
                            Value::Class(_) => Ok(match v {
                                Value::Wrapper(ref w2) => match &**w2 {
                                    Wrapper::ClassMethod(f) => {
                                        Value::BoundMethod(Rc::new(BoundMethod {
                                            recv: obj.clone(),
                                            func: f.clone(),
                                        }))
                                    }
                                    Wrapper::StaticMethod(f) => f.clone(),
                                    _ => v.clone(),
                                },
                                v => v,
                            }),
                            _ => {
                                let obj = obj.clone();
                                self.bind_class_attr(v, &obj, &start)
                            }
                        },
                        None => {
                            if let Some(n) = self.native_of(obj) {
                                if let Ok(v) = crate::methods::native_attr(self, &n, name) {
                                    return Ok(v);
                                }
                                let nn = n.clone();
                                if let Some(r) = native_dunder_attr(&nn, name) {
                                    return Ok(r);
                                }
                            }
                            if let Some(f) = object_dunder(name) {
                                let recv = match obj {
                                    Value::Class(_) if name == "__new__" => None,
                                    _ => Some(obj.clone()),
                                };
                                return Ok(Value::Builtin(Rc::new(Builtin {
                                    kind: BuiltinKind::Func(f),
                                    recv,
                                })));
                            }
                            Err(self.exc(
                                "AttributeError",
                                format!("'super' object has no attribute '{name}'"),
                            ))
                        }
                    }
                }
                Wrapper::Property { fget, fset, fdel } => match name {
                    "setter" | "getter" | "deleter" => Ok(Value::Builtin(Rc::new(Builtin {
                        kind: BuiltinKind::Method(match name {
                            "setter" => "setter",
                            "getter" => "getter",
                            _ => "deleter",
                        }),
                        recv: Some(o.clone()),
                    }))),
                    "fget" => Ok(fget.clone()),
                    "fset" => Ok(fset.clone()),
                    "fdel" => Ok(fdel.clone()),
                    _ => Err(self.no_attr(o, name)),
                },
                Wrapper::ClassMethod(f) | Wrapper::StaticMethod(f) => match name {
                    "__func__" => Ok(f.clone()),
                    _ => Err(self.no_attr(o, name)),
                },
                Wrapper::Union(m) => match name {
                    "__args__" => Ok(Value::tuple(m.to_vec())),
                    "__parameters__" => Ok(Value::tuple(vec![])),
                    "__class__" => Ok(Value::Class(self.class_of(o))),
                    _ => Err(self.no_attr(o, name)),
                },
            },
            _ => {
                if name == "__class__" {
                    return Ok(Value::Class(self.class_of(o)));
                }
                crate::methods::native_attr(self, o, name)
            }
        }
    }

    /// `o.name = v`
    pub fn set_attr(&mut self, o: &Value, name: &str, v: Value) -> PyResult<()> {
        if is_forbidden(name) {
            return Err(self.sandbox(format!(
                "setting attribute '{name}' is not allowed in the PVM"
            )));
        }
        if name == "__class__" && !matches!(o, Value::Instance(_) | Value::Class(_)) {
            return self.set_class(o, &v);
        }
        match o {
            Value::Class(_) if self.meta_special(o, "__setattr__").is_some() => {
                self.call_meta_special(o, "__setattr__", vec![Value::str(name), v])?;
                Ok(())
            }
            Value::Instance(inst) => {
                let cls = inst.class.borrow().clone();
                if name == "__class__" && cls.eff_flags() & CLS_SETATTR == 0 {
                    return self.set_class(o, &v);
                }
                if cls.builtin && cls.kind == TypeKind::Object && inst.exc.is_none() {
                    return Err(self.exc(
                        "AttributeError",
                        format!("'{}' object has no attribute '{}'", cls.name, name),
                    ));
                }
                if cls.eff_flags() & (CLS_DATA_DESCR | CLS_SETATTR) == 0
                    && cls.slots.is_none()
                    && inst.exc.is_none()
                {
                    let h = crate::dict::str_hash(name);
                    let mut d = inst.dict.d.borrow_mut();
                    let slot = d.find_g(h, |k| crate::dict::str_key_eq(k, name));
                    match slot {
                        Some(i) => {
                            let old = d.slot_value_mut(i).map(|x| std::mem::replace(x, v));
                            drop(d);
                            drop(old);
                        }
                        None => {
                            drop(d);
                            self.check_mem(64)?;
                            inst.dict.d.borrow_mut().push(h, Value::str(name), v);
                        }
                    }
                    return Ok(());
                }
                if let Some(a) = self.class_lookup(&cls, name) {
                    match &a {
                        Value::Wrapper(w) => {
                            if let Wrapper::Property { fset, .. } = &**w {
                                if fset.is_none() {
                                    return Err(self.exc(
                                        "AttributeError",
                                        format!(
                                            "property '{name}' of '{}' object has no setter",
                                            cls.name
                                        ),
                                    ));
                                }
                                let f = fset.clone();
                                self.call(&f, vec![o.clone(), v], vec![])?;
                                return Ok(());
                            }
                        }
                        Value::Instance(_) => {
                            if let Some(s) = self.lookup_special(&a, "__set__") {
                                self.call(&s, vec![a.clone(), o.clone(), v], vec![])?;
                                return Ok(());
                            }
                        }
                        _ => {}
                    }
                }
                if inst.exc.is_some() && name == "args" {
                    let items = self.collect(&v)?;
                    *inst.native.borrow_mut() = Some(Value::tuple(items));
                    return Ok(());
                }
                if let Some(sa) = self.class_lookup(&cls, "__setattr__")
                    && let Value::Function(_) = sa
                {
                    self.call(&sa, vec![o.clone(), Value::str(name), v], vec![])?;
                    return Ok(());
                }
                self.raw_setattr(inst, &cls, name, v)
            }
            Value::Class(c) => {
                if c.builtin {
                    return Err(self.type_err(format!(
                        "cannot set '{name}' attribute of immutable type '{}'",
                        c.name
                    )));
                }
                c.dict.borrow_mut().set_str(Rc::new(PyStr::new(name)), v);
                let extra = crate::types::class_dict_flags(&c.dict.borrow());
                c.add_flags(extra);
                Ok(())
            }
            Value::Function(f) => {
                if name == "__name__"
                    && let Value::Str(s) = &v
                {
                    *f.name.borrow_mut() = Rc::from(&*s.s);
                    return Ok(());
                }
                if name == "__annotations__" {
                    return self.set_function_annotations(f, v);
                }
                if name == "__defaults__" {
                    let new = match &v {
                        Value::None => Vec::new(),
                        Value::Tuple(t) => t.v.to_vec(),
                        _ => {
                            return Err(self.type_err("__defaults__ must be set to a tuple object"));
                        }
                    };
                    let old = f.defaults.replace(new);
                    drop(old);
                    return Ok(());
                }
                if name == "__kwdefaults__" {
                    let new = match &v {
                        Value::None => Vec::new(),
                        Value::Dict(d) => {
                            d.d.borrow()
                                .iter()
                                .filter_map(|e| match &e.key {
                                    Value::Str(k) => Some((Rc::from(&*k.s), e.value.clone())),
                                    _ => None,
                                })
                                .collect()
                        }
                        _ => {
                            return Err(
                                self.type_err("__kwdefaults__ must be set to a dict object")
                            );
                        }
                    };
                    let old = f.kwdefaults.replace(new);
                    drop(old);
                    return Ok(());
                }
                let mut d = f.dict.borrow_mut();
                d.get_or_insert_with(Default::default)
                    .set_str(Rc::new(PyStr::new(name)), v);
                Ok(())
            }
            Value::Module(_) => Err(self.sandbox("modifying modules is not allowed in the PVM")),
            _ => Err(self.exc(
                "AttributeError",
                format!("'{}' object has no attribute '{}'", self.type_name(o), name),
            )),
        }
    }

    /// Store directly into the instance dict (object.__setattr__).
    pub fn raw_setattr(
        &mut self,
        inst: &Rc<Instance>,
        cls: &Rc<Class>,
        name: &str,
        v: Value,
    ) -> PyResult<()> {
        if name == "__class__" {
            return self.set_class(&Value::Instance(inst.clone()), &v);
        }
        if cls.slots.is_some() && !slots_allow(cls, name) {
            return Err(self.exc(
                "AttributeError",
                format!("'{}' object has no attribute '{}'", cls.name, name),
            ));
        }
        self.check_mem(64)?;
        let old = {
            let h = crate::dict::str_hash(name);
            inst.dict.d.borrow_mut().set_str_h(name, h, v)
        };
        drop(old);
        Ok(())
    }

    /// `o.__class__ = v`, as CPython's `object.__class__` setter: `v` must be a class, `o`'s
    /// class and `v` must both be user classes (built-in types are immutable), with the same
    /// instance layout ([`layout_of`]). Afterwards `type(o)`, attribute lookup and
    /// `isinstance` follow `v`; `o`'s attributes and native payload are kept.
    pub fn set_class(&mut self, o: &Value, v: &Value) -> PyResult<()> {
        let Value::Class(new) = v else {
            return Err(self.type_err(format!(
                "__class__ must be set to a class, not '{}' object",
                self.type_name(v)
            )));
        };
        let old = self.class_of(o);
        let inst = match o {
            Value::Instance(i) if !old.builtin && !new.builtin => i,
            _ => {
                return Err(self.type_err(
                    "__class__ assignment only supported for mutable types or ModuleType subclasses",
                ));
            }
        };
        let (a, b) = (layout_of(&old), layout_of(new));
        if !(Rc::ptr_eq(&a.0, &b.0) && a.1 == b.1 && a.2 == b.2) {
            return Err(self.type_err(format!(
                "__class__ assignment: '{}' object layout differs from '{}'",
                new.name, old.name
            )));
        }
        let prev = std::mem::replace(&mut *inst.class.borrow_mut(), new.clone());
        drop(prev);
        Ok(())
    }

    /// `del o.name`
    pub fn del_attr(&mut self, o: &Value, name: &str) -> PyResult<()> {
        if name == "__class__" && matches!(o, Value::Instance(_)) {
            return Err(self.type_err("can't delete __class__ attribute"));
        }
        match o {
            Value::Class(_) if self.meta_special(o, "__delattr__").is_some() => {
                self.call_meta_special(o, "__delattr__", vec![Value::str(name)])?;
                Ok(())
            }
            Value::Instance(inst) => {
                let cls = inst.class.borrow().clone();
                if let Some(Value::Wrapper(w)) = self.class_lookup(&cls, name)
                    && let Wrapper::Property { fdel, .. } = &*w
                    && !fdel.is_none()
                {
                    let f = fdel.clone();
                    self.call(&f, vec![o.clone()], vec![])?;
                    return Ok(());
                }
                if let Some(da) = self.class_lookup(&cls, "__delattr__") {
                    self.call(&da, vec![o.clone(), Value::str(name)], vec![])?;
                    return Ok(());
                }
                let r = inst.dict.d.borrow_mut().del_str(name);
                match r {
                    Some(_) => Ok(()),
                    None => Err(self.no_attr(o, name)),
                }
            }
            Value::Class(c) if !c.builtin => {
                let r = c.dict.borrow_mut().del_str(name);
                match r {
                    Some(_) => Ok(()),
                    None => Err(self.no_attr(o, name)),
                }
            }
            Value::Function(f) if name == "__annotations__" => {
                let old = f.annotations.replace(Value::None);
                drop(old);
                Ok(())
            }
            _ => Err(self.no_attr(o, name)),
        }
    }
}

/// The instance layout of user class `c` for `__class__` assignment (CPython's
/// `compatible_for_assignment`, in the PVM's terms): the first built-in class on the chain of
/// first bases (`object`, `list`, `ValueError`, ...), whether some class on the chain up to it
/// lacks `__slots__` (instances have a `__dict__`), and the slot names the chain declares, in
/// order. Two user classes are compatible exactly when these are equal.
fn layout_of(c: &Rc<Class>) -> (Rc<Class>, bool, Vec<Rc<str>>) {
    let mut has_dict = false;
    let mut slots: Vec<Rc<str>> = Vec::new();
    let mut cur = c.clone();
    while !cur.builtin {
        match &cur.slots {
            Some(s) => {
                let mut v = s.clone();
                v.append(&mut slots);
                slots = v;
            }
            None => has_dict = true,
        }
        match cur.bases.first() {
            Some(b) => cur = b.clone(),
            None => break,
        }
    }
    (cur, has_dict, slots)
}
