//! Built-in functions, constructors of built-in types, string formatting and native modules.

use crate::cost;
use crate::dict::Dict;
use crate::float::F64;
use crate::int;
use crate::methods::arg;
use crate::value::*;
use crate::vm::{Abort, Flow, PyResult, Vm};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::cell::RefCell;
use std::rc::Rc;

type Kw = Vec<(Rc<str>, Value)>;

const BUILTIN_FUNCS: &[&str] = &[
    "print",
    "len",
    "isinstance",
    "abs",
    "min",
    "max",
    "sum",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "map",
    "filter",
    "all",
    "any",
    "iter",
    "next",
    "divmod",
    "pow",
    "round",
    "hex",
    "bin",
    "oct",
    "ord",
    "chr",
    "repr",
    "ascii",
    "hash",
    "callable",
    "getattr",
    "setattr",
    "hasattr",
    "delattr",
    "issubclass",
    "vars",
    "dir",
    "format",
    "id",
    "eval",
    "exec",
    "compile",
    "__import__",
    "globals",
    "locals",
    "open",
    "input",
    "breakpoint",
    "exit",
    "quit",
    "help",
    "memoryview",
    "aiter",
    "anext",
];

/// Modules that exist in CPython but are forbidden or not provided by the PVM.
pub const WHITELIST: &[&str] = &["math"];

/// Populate the builtins module.
pub fn install(vm: &mut Vm) {
    crate::types::install_exceptions(vm);
    let mut d = vm.builtins.dict.borrow_mut();
    for n in BUILTIN_FUNCS {
        d.set_str(
            Rc::new(PyStr::new(*n)),
            Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::Func(n),
                recv: None,
            })),
        );
    }
    for (k, c) in &vm.types.by_kind {
        let expose = matches!(
            k,
            TypeKind::Object
                | TypeKind::Type
                | TypeKind::Bool
                | TypeKind::Int
                | TypeKind::Float
                | TypeKind::Str
                | TypeKind::Bytes
                | TypeKind::ByteArray
                | TypeKind::List
                | TypeKind::Tuple
                | TypeKind::Dict
                | TypeKind::Set
                | TypeKind::FrozenSet
                | TypeKind::Range
                | TypeKind::Slice
                | TypeKind::Property
                | TypeKind::ClassMethod
                | TypeKind::StaticMethod
                | TypeKind::Super
        );
        if expose {
            d.set_str(Rc::new(PyStr::new(&*c.name)), Value::Class(c.clone()));
        }
    }
    d.set_str(Rc::new(PyStr::new("NotImplemented")), Value::NotImplemented);
    d.set_str(Rc::new(PyStr::new("Ellipsis")), Value::Ellipsis);
    d.set_str(Rc::new(PyStr::new("__name__")), Value::str("builtins"));
}

/// Map a pvm-text error to a Python exception.
pub fn text_err(vm: &Vm, e: pvm_text::TextError) -> Flow {
    use pvm_text::ErrorKind as K;
    let name = match e.kind {
        K::Value => "ValueError",
        K::Type => "TypeError",
        K::Overflow => "OverflowError",
        K::Key => "KeyError",
        K::Index => "IndexError",
        K::UnicodeEncode => "UnicodeEncodeError",
        K::UnicodeDecode => "UnicodeDecodeError",
        K::Lookup => "LookupError",
    };
    vm.exc(name, e.message)
}

/// Build a dict view object (`dict_keys([...])` …) as an immutable snapshot list.
/// Build a live dict view: kind 0 = keys, 1 = values, 2 = items.
pub fn view(vm: &mut Vm, kind: u8, d: &Rc<PyDict>) -> Value {
    let cls = view_class(vm, kind);
    let v = vm.new_instance(&cls, &[]);
    if let Value::Instance(i) = &v {
        *i.native.borrow_mut() = Some(Value::Dict(d.clone()));
    }
    v
}

fn view_class(vm: &mut Vm, kind: u8) -> Rc<Class> {
    if let Some(c) = &vm.view_classes[kind as usize] {
        return c.clone();
    }
    let name = ["dict_keys", "dict_values", "dict_items"][kind as usize];
    let c = Rc::new(Class {
        name: Rc::from(name),
        qualname: Rc::from(name),
        bases: vec![vm.types.object.clone()],
        mro: vec![vm.types.object.clone()],
        dict: RefCell::new(Dict::new()),
        kind: TypeKind::Object,
        builtin: true,
        slots: None,
        id: vm.new_id(),
        flags: std::cell::Cell::new(0),
        flags_epoch: std::cell::Cell::new(0),
    });
    vm.view_classes[kind as usize] = Some(c.clone());
    c
}

impl Vm {
    /// If `v` is a dict view, its kind (0 keys, 1 values, 2 items) and dict.
    pub fn as_view(&self, v: &Value) -> Option<(u8, Rc<PyDict>)> {
        let Value::Instance(i) = v else { return None };
        let cls = i.class.borrow();
        if !cls.builtin {
            return None;
        }
        let kind = self
            .view_classes
            .iter()
            .position(|c| c.as_ref().is_some_and(|c| Rc::ptr_eq(c, &cls)))?;
        match &*i.native.borrow() {
            Some(Value::Dict(d)) => Some((kind as u8, d.clone())),
            _ => None,
        }
    }
}

/// CPython's positional-argument limits of the built-in type constructors (the types
/// themselves, not subclasses, whose `__init__` may take anything), with its messages; and
/// `str(x, encoding...)` of a non-bytes `x`.
fn constructor_arity(vm: &Vm, kind: TypeKind, args: &[Value], kw: &Kw) -> PyResult<()> {
    let n = args.len();
    let (name, max, one_arg_style) = match kind {
        TypeKind::Str => ("str", 3, false),
        TypeKind::Int => ("int", 2, false),
        TypeKind::Bytes => ("bytes", 3, false),
        TypeKind::ByteArray => ("bytearray", 3, false),
        TypeKind::Float => ("float", 1, true),
        TypeKind::Bool => ("bool", 1, true),
        TypeKind::List => ("list", 1, true),
        TypeKind::Tuple => ("tuple", 1, true),
        TypeKind::Set => ("set", 1, true),
        TypeKind::FrozenSet => ("frozenset", 1, true),
        TypeKind::Dict => ("dict", 1, true),
        _ => return Ok(()),
    };
    if n > max {
        return Err(vm.type_err(if one_arg_style {
            format!("{name} expected at most {max} argument, got {n}")
        } else {
            format!("{name}() takes at most {max} arguments ({n} given)")
        }));
    }
    if kind == TypeKind::Str && (n > 1 || !kw.is_empty()) {
        for (pos, name) in [(1, "encoding"), (2, "errors")] {
            if let Some(v) = args.get(pos).cloned().or_else(|| kwarg(kw, name))
                && !matches!(v, Value::Str(_))
            {
                return Err(vm.type_err(format!(
                    "str() argument '{name}' must be str, not {}",
                    vm.type_name(&v)
                )));
            }
        }
        match args.first() {
            Some(Value::Str(_)) => return Err(vm.type_err("decoding str is not supported")),
            Some(Value::Bytes(_) | Value::ByteArray(_)) => {}
            Some(v) => {
                return Err(vm.type_err(format!(
                    "decoding to str: need a bytes-like object, {} found",
                    vm.type_name(v)
                )));
            }
            None => {}
        }
    }
    Ok(())
}

fn kwarg(kw: &Kw, name: &str) -> Option<Value> {
    kw.iter()
        .find(|(k, _)| &**k == name)
        .map(|(_, v)| v.clone())
}

fn nargs(vm: &Vm, name: &str, args: &[Value], min: usize, max: usize) -> PyResult<()> {
    if args.len() < min || args.len() > max {
        if min == max {
            return Err(vm.type_err(format!(
                "{name}() takes exactly one argument ({} given)",
                args.len()
            )));
        }
        if args.len() < min {
            return Err(vm.type_err(format!(
                "{name} expected at least {min} argument{}, got {}",
                if min == 1 { "" } else { "s" },
                args.len()
            )));
        }
        return Err(vm.type_err(format!(
            "{name} expected at most {max} arguments, got {}",
            args.len()
        )));
    }
    Ok(())
}

/// Stable merge sort with fallible comparisons.
pub fn sort_values(
    vm: &mut Vm,
    items: Vec<Value>,
    key: &Value,
    reverse: bool,
) -> PyResult<Vec<Value>> {
    let n = items.len();
    let computed: Vec<Value>;
    let keys: &[Value] = if key.is_none() {
        &items
    } else {
        let mut ks = Vec::with_capacity(n);
        for it in &items {
            ks.push(vm.call(key, vec![it.clone()], vec![])?);
        }
        computed = ks;
        &computed
    };
    let mut log = 1u64;
    while (1usize << log) < n {
        log += 1;
    }
    vm.charge(n as u64 * log)?;
    if let Some((idx, charge)) = sort_uniform_keys(vm, keys, reverse) {
        vm.charge(charge)?;
        return Ok(permute(items, idx));
    }
    // Keys whose comparisons run no user code (ints, floats, strs, tuples of those) are sorted
    // with a pure comparator: the same merge sort, so the same comparisons in the same order,
    // whose str length charges are summed and charged once at the end (nothing observable
    // happens between them, so this runs out of cycles exactly when charging each would). If a
    // comparison needs the general path, nothing has been charged or changed yet and the sort
    // starts over with the general comparison.
    // With a NaN among the keys the comparisons are not a consistent order and the result
    // depends on the algorithm: short lists then take CPython's exact comparison sequence.
    let cpython = n < crate::listsort::SHORT && keys.iter().any(crate::listsort::has_nan);
    let mut pure_charge = 0u64;
    let mut pure_less = |x: usize, y: usize| {
        let (r, c) = vm
            .order_pure(&keys[x], &keys[y], crate::bytecode::CmpOp::Lt)
            .ok_or(())?;
        pure_charge += c;
        Ok::<bool, ()>(r)
    };
    let pure = if cpython {
        crate::listsort::short_sort(n, reverse, &mut pure_less)
    } else {
        merge_sort_indices(n, reverse, &mut pure_less)
    };
    let idx = match pure {
        Ok(idx) => {
            vm.charge(pure_charge)?;
            idx
        }
        Err(()) if cpython => {
            crate::listsort::short_sort(n, reverse, |x, y| vm.lt(&keys[x], &keys[y]))?
        }
        Err(()) => merge_sort_indices(n, reverse, |x, y| vm.lt(&keys[x], &keys[y]))?,
    };
    Ok(permute(items, idx))
}

/// `items` reordered by the permutation `idx` (item `idx[k]` goes to position `k`); the
/// result has capacity exactly `idx.len()`.
fn permute(mut items: Vec<Value>, idx: Vec<usize>) -> Vec<Value> {
    idx.into_iter()
        .map(|i| std::mem::take(&mut items[i]))
        .collect()
}

/// The permutation `sort_values` computes, and the str comparison cycles it charges, for keys
/// of one uniform kind whose comparisons run no user code and form a consistent total order:
/// all ints, all tuples of ints (compared lexicographically, then by length, as
/// `tuple_order_simple` does), or all strs. None for anything else (nothing charged).
///
/// For ints and tuples of ints every comparison is free, so any stable sort gives exactly the
/// merge sort's result (a consistent order has one stable sorted permutation): they are sorted
/// by `(key, position)`, descending keys for `reverse` with equal keys kept in order, as the
/// merge sort does. Strs charge per comparison (the shorter length / 16), which depends on the
/// comparisons made, so they run the same merge sort with a direct comparator.
fn sort_uniform_keys(vm: &Vm, keys: &[Value], reverse: bool) -> Option<(Vec<usize>, u64)> {
    let n = keys.len();
    match keys.first()? {
        Value::Int(_) => {
            let mut ks: Vec<(i64, usize)> = Vec::with_capacity(n);
            for (i, k) in keys.iter().enumerate() {
                let Value::Int(x) = k else { return None };
                ks.push((*x, i));
            }
            if reverse {
                ks.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            } else {
                ks.sort_unstable();
            }
            Some((ks.into_iter().map(|(_, i)| i).collect(), 0))
        }
        Value::Tuple(_) => {
            // `order_pure` refuses tuples at the native-depth limit (the general comparison
            // raises there).
            if vm.native_depth >= crate::vm::MAX_NATIVE_DEPTH {
                return None;
            }
            let mut ts: Vec<&[Value]> = Vec::with_capacity(n);
            for k in keys {
                let Value::Tuple(t) = k else { return None };
                if !t.v.iter().all(|x| matches!(x, Value::Int(_))) {
                    return None;
                }
                ts.push(&t.v);
            }
            let cmp = |a: &[Value], b: &[Value]| -> std::cmp::Ordering {
                for (p, q) in a.iter().zip(b) {
                    if let (Value::Int(x), Value::Int(y)) = (p, q)
                        && x != y
                    {
                        return x.cmp(y);
                    }
                }
                a.len().cmp(&b.len())
            };
            let mut idx: Vec<usize> = (0..n).collect();
            if reverse {
                idx.sort_by(|&a, &b| cmp(ts[b], ts[a]));
            } else {
                idx.sort_by(|&a, &b| cmp(ts[a], ts[b]));
            }
            Some((idx, 0))
        }
        Value::Str(_) => {
            let mut ss: Vec<&str> = Vec::with_capacity(n);
            for k in keys {
                let Value::Str(s) = k else { return None };
                ss.push(s.s.as_str());
            }
            let mut charge = 0u64;
            let idx = merge_sort_indices(n, reverse, |x, y| {
                let (a, b) = (ss[x], ss[y]);
                charge += a.len().min(b.len()) as u64 / 16;
                Ok::<bool, ()>(a < b)
            })
            .ok()?;
            Some((idx, charge))
        }
        _ => None,
    }
}

/// The stable bottom-up merge sort of `sort_values`: the permutation of `0..n` that sorts by
/// `less(i, j)` ("is key i < key j"), asked in a fixed order (with `reverse`, the operands are
/// swapped, which keeps equal keys in their original order). The first error stops it.
fn merge_sort_indices<E>(
    n: usize,
    reverse: bool,
    mut less: impl FnMut(usize, usize) -> Result<bool, E>,
) -> Result<Vec<usize>, E> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf: Vec<usize> = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut i = 0;
        while i < n {
            let mid = (i + width).min(n);
            let hi = (i + 2 * width).min(n);
            let (mut a, mut b, mut o) = (i, mid, i);
            while a < mid && b < hi {
                // take from right only if right < left (stability); reverse flips the comparison
                let take_right = if reverse {
                    less(idx[a], idx[b])?
                } else {
                    less(idx[b], idx[a])?
                };
                if take_right {
                    buf[o] = idx[b];
                    b += 1;
                } else {
                    buf[o] = idx[a];
                    a += 1;
                }
                o += 1;
            }
            buf[o..o + (mid - a)].copy_from_slice(&idx[a..mid]);
            o += mid - a;
            buf[o..o + (hi - b)].copy_from_slice(&idx[b..hi]);
            i += 2 * width;
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    Ok(idx)
}

fn minmax(vm: &mut Vm, name: &str, args: Vec<Value>, kw: Kw, is_max: bool) -> PyResult<Value> {
    let key = kwarg(&kw, "key").unwrap_or_default();
    let default = kwarg(&kw, "default");
    if args.len() > 1 && default.is_some() {
        return Err(vm.type_err(format!(
            "Cannot specify a default for {name}() with multiple positional arguments"
        )));
    }
    let items = if args.len() == 1 {
        vm.collect(&args[0])?
    } else if args.is_empty() {
        return Err(vm.type_err(format!("{name} expected at least 1 argument, got 0")));
    } else {
        args
    };
    if items.is_empty() {
        return match default {
            Some(d) => Ok(d),
            None => Err(vm.exc("ValueError", format!("{name}() arg is an empty sequence"))),
        };
    }
    vm.charge(items.len() as u64 * cost::PER_ELEMENT)?;
    let mut best = items[0].clone();
    let mut best_k = if key.is_none() {
        best.clone()
    } else {
        vm.call(&key, vec![best.clone()], vec![])?
    };
    for it in items.into_iter().skip(1) {
        let k = if key.is_none() {
            it.clone()
        } else {
            vm.call(&key, vec![it.clone()], vec![])?
        };
        let better = if is_max {
            vm.lt(&best_k, &k)?
        } else {
            vm.lt(&k, &best_k)?
        };
        if better {
            best = it;
            best_k = k;
        }
    }
    Ok(best)
}

fn is_instance(vm: &mut Vm, v: &Value, cls: &Value) -> PyResult<bool> {
    match cls {
        Value::Class(c) => {
            let vc = vm.class_of(v);
            if vm.is_subclass(&vc, c) {
                return Ok(true);
            }
            // a metaclass __instancecheck__ (e.g. abc's registered virtual subclasses)
            if let Some(r) = vm.call_meta_special(cls, "__instancecheck__", vec![v.clone()])? {
                return vm.truthy(&r);
            }
            Ok(false)
        }
        Value::Tuple(t) => {
            for c in t.v.iter() {
                if is_instance(vm, v, c)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Wrapper(w) if matches!(&**w, Wrapper::Union(_)) => {
            for c in crate::union::members(cls).unwrap_or_default() {
                if is_instance(vm, v, c)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        // an object whose type defines __instancecheck__ (e.g. typing.Any refusing the check)
        Value::Instance(_) if vm.lookup_special(cls, "__instancecheck__").is_some() => {
            let f = vm
                .lookup_special(cls, "__instancecheck__")
                .unwrap_or_default();
            let r = vm.call(&f, vec![cls.clone(), v.clone()], vec![])?;
            vm.truthy(&r)
        }
        _ => Err(vm.type_err("isinstance() arg 2 must be a type, a tuple of types, or a union")),
    }
}

/// Call a built-in function / bound built-in method.
pub fn call_builtin(vm: &mut Vm, b: &Rc<Builtin>, args: Vec<Value>, kw: Kw) -> PyResult<Value> {
    match &b.kind {
        BuiltinKind::Method(name) => {
            let recv = b.recv.clone().unwrap_or_default();
            if let Value::Wrapper(w) = &recv
                && let Wrapper::Property { fget, fset, fdel } = &**w
            {
                let f = args.into_iter().next().unwrap_or_default();
                let (g, s, d) = match *name {
                    "setter" => (fget.clone(), f, fdel.clone()),
                    "getter" => (f, fset.clone(), fdel.clone()),
                    _ => (fget.clone(), fset.clone(), f),
                };
                return Ok(Value::Wrapper(Rc::new(Wrapper::Property {
                    fget: g,
                    fset: s,
                    fdel: d,
                })));
            }
            crate::methods::call_method(vm, &recv, name, args, kw)
        }
        BuiltinKind::ModuleFunc(module, name) => {
            if module.starts_with('<')
                && matches!(*name, "fromkeys" | "fromhex" | "from_bytes" | "maketrans")
            {
                let probe = match *module {
                    "<dict>" => Value::dict(Dict::new()),
                    "<bytes>" => Value::bytes(vec![]),
                    "<bytearray>" => Value::ByteArray(Rc::new(PyByteArray {
                        b: RefCell::new(vec![]),
                        acct: crate::heap::Acct::new(40),
                    })),
                    "<int>" => Value::Int(0),
                    "<float>" => Value::Float(F64::ZERO),
                    _ => Value::str(""),
                };
                return crate::methods::call_method(vm, &probe, name, args, kw);
            }
            if module.starts_with('<') {
                // unbound method of a built-in type: first arg is the receiver
                let mut it = args.into_iter();
                let recv = it.next().ok_or_else(|| {
                    vm.type_err(format!("unbound method {name}() needs an argument"))
                })?;
                // an instance of a subclass of the built-in type: act on its native payload
                let native = match &recv {
                    Value::Instance(i) => i.native.borrow().clone(),
                    _ => None,
                };
                let recv = native.unwrap_or(recv);
                return crate::methods::call_method(vm, &recv, name, it.collect(), kw);
            }
            crate::modules::call_module_func(vm, module, name, args, kw)
        }
        BuiltinKind::Func(name) => match &b.recv {
            Some(r) => {
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(r.clone());
                a.extend(args);
                call_func(vm, name, a, kw)
            }
            None => call_func(vm, name, args, kw),
        },
    }
}

fn call_func(vm: &mut Vm, name: &str, args: Vec<Value>, kw: Kw) -> PyResult<Value> {
    match name {
        "__type_new__"
        | "__type_call__"
        | "__type_init__"
        | "__type_setattr__"
        | "__type_delattr__"
        | "__type_repr__"
        | "__type_instancecheck__"
        | "__type_subclasscheck__" => crate::modules::meta::call_type_dunder(vm, name, args, kw),
        "print" => {
            let sep = match kwarg(&kw, "sep") {
                Some(Value::Str(s)) => s.s.to_string(),
                _ => " ".into(),
            };
            let end = match kwarg(&kw, "end") {
                Some(Value::Str(s)) => s.s.to_string(),
                _ => "\n".into(),
            };
            let mut out = String::new();
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(&sep);
                }
                out.push_str(&vm.to_str(a)?);
            }
            out.push_str(&end);
            vm.charge(out.len() as u64 / 4)?;
            vm.charge_cells(out.len() as u64);
            vm.check_mem(vm.stdout.len() + out.len())?;
            vm.stdout.push_str(&out);
            Ok(Value::None)
        }
        "len" => {
            nargs(vm, "len", &args, 1, 1)?;
            Ok(Value::Int(vm.len(&args[0])? as i64))
        }
        "isinstance" => {
            if args.len() != 2 {
                return Err(vm.type_err(format!(
                    "isinstance expected 2 arguments, got {}",
                    args.len()
                )));
            }
            Ok(Value::Bool(is_instance(vm, &args[0], &args[1])?))
        }
        "issubclass" => {
            if args.len() != 2 {
                return Err(vm.type_err(format!(
                    "issubclass expected 2 arguments, got {}",
                    args.len()
                )));
            }
            let Value::Class(a) = &args[0] else {
                return Err(vm.type_err("issubclass() arg 1 must be a class"));
            };
            let mut cands: Vec<Value> = vec![args[1].clone()];
            let mut i = 0;
            while i < cands.len() {
                let flat: Option<Vec<Value>> = match (&cands[i], crate::union::members(&cands[i])) {
                    (_, Some(m)) => Some(m.to_vec()),
                    (Value::Tuple(t), _) => Some(t.v.to_vec()),
                    _ => None,
                };
                match flat {
                    Some(f) => {
                        cands.splice(i..=i, f);
                    }
                    None => i += 1,
                }
            }
            for c in cands {
                let Value::Class(c) = c else {
                    return Err(vm.type_err(
                        "issubclass() arg 2 must be a class, a tuple of classes, or a union",
                    ));
                };
                let cv = Value::Class(c.clone());
                if let Some(r) =
                    vm.call_meta_special(&cv, "__subclasscheck__", vec![args[0].clone()])?
                {
                    if vm.truthy(&r)? {
                        return Ok(Value::Bool(true));
                    }
                    continue;
                }
                if vm.is_subclass(a, &c) {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        "abs" => {
            nargs(vm, "abs", &args, 1, 1)?;
            match &args[0] {
                Value::Int(i) => Ok(match i.checked_abs() {
                    Some(v) => Value::Int(v),
                    None => int::from_big(BigInt::from(*i).abs()),
                }),
                Value::Bool(b) => Ok(Value::Int(*b as i64)),
                Value::BigInt(b) => Ok(int::from_big(b.abs())),
                Value::Float(f) => Ok(Value::Float(f.abs())),
                v => match vm.lookup_special(v, "__abs__") {
                    Some(m) => vm.call(&m, vec![v.clone()], vec![]),
                    None => {
                        Err(vm
                            .type_err(format!("bad operand type for abs(): '{}'", vm.type_name(v))))
                    }
                },
            }
        }
        "min" => minmax(vm, "min", args, kw, false),
        "max" => minmax(vm, "max", args, kw, true),
        "sum" => {
            let start = arg(&args, &kw, 1, "start").unwrap_or(Value::Int(0));
            if matches!(start, Value::Str(_)) {
                return Err(vm.type_err("sum() can't sum strings [use ''.join(seq) instead]"));
            }
            let items = vm.collect(&args.first().cloned().unwrap_or_default())?;
            let mut acc = start;
            for it in items {
                vm.charge(cost::PER_ELEMENT)?;
                acc = match (&acc, &it) {
                    (Value::Int(a), Value::Int(b)) if a.checked_add(*b).is_some() => {
                        Value::Int(a + b)
                    }
                    _ => vm.binary_op(&acc, &it, crate::bytecode::BinOp::Add, false)?,
                };
            }
            Ok(acc)
        }
        "sorted" => {
            nargs(vm, "sorted", &args, 1, 1)?;
            let items = vm.collect(&args[0])?;
            let key = kwarg(&kw, "key").unwrap_or_default();
            let rev = match kwarg(&kw, "reverse") {
                Some(v) => vm.truthy(&v)?,
                None => false,
            };
            let v = sort_values(vm, items, &key, rev)?;
            Ok(Value::list(v))
        }
        "reversed" => {
            nargs(vm, "reversed", &args, 1, 1)?;
            let v = &args[0];
            if let Some(r) = vm.call_meta_special(v, "__reversed__", vec![])? {
                return Ok(r);
            }
            let st = match v {
                Value::List(l) => IterState::RevList(l.clone(), l.v.borrow().len()),
                Value::Range(r) if r.big.is_some() => r
                    .big
                    .as_deref()
                    .map_or(IterState::Done, Vm::big_range_reversed),
                Value::Range(r) => {
                    let n = r.len();
                    if n == 0 {
                        IterState::Done
                    } else {
                        let last = r.start + (n - 1) * r.step;
                        IterState::Range(last, r.start - r.step, -r.step)
                    }
                }
                Value::Instance(_) if vm.lookup_special(v, "__reversed__").is_some() => {
                    let m = vm.lookup_special(v, "__reversed__").unwrap_or_default();
                    return vm.call(&m, vec![v.clone()], vec![]);
                }
                Value::Instance(_)
                    if vm.as_view(v).is_none()
                        && vm.lookup_special(v, "__len__").is_some()
                        && vm.lookup_special(v, "__getitem__").is_some() =>
                {
                    let n = vm.len(v)?;
                    let mut items = Vec::with_capacity(n);
                    for i in (0..n).rev() {
                        vm.charge(cost::PER_ELEMENT)?;
                        items.push(vm.getitem(v, &Value::Int(i as i64))?);
                    }
                    IterState::Vec(items, 0)
                }
                Value::Tuple(_) | Value::Str(_) | Value::Bytes(_) | Value::Instance(_) => {
                    let mut items = vm.collect(v)?;
                    items.reverse();
                    IterState::Vec(items, 0)
                }
                Value::Dict(d) => {
                    let mut items: Vec<Value> =
                        d.d.borrow().iter().map(|e| e.key.clone()).collect();
                    items.reverse();
                    IterState::Vec(items, 0)
                }
                _ => {
                    return Err(
                        vm.type_err(format!("'{}' object is not reversible", vm.type_name(v)))
                    );
                }
            };
            Ok(Value::Iter(Rc::new(PyIter {
                st: RefCell::new(st),
            })))
        }
        "enumerate" => {
            let it = arg(&args, &kw, 0, "iterable")
                .ok_or_else(|| vm.type_err("enumerate() missing required argument 'iterable'"))?;
            let start = arg(&args, &kw, 1, "start").unwrap_or(Value::Int(0));
            let it = vm.get_iter(&it)?;
            Ok(Value::Iter(Rc::new(PyIter {
                st: RefCell::new(IterState::Enumerate(it, start)),
            })))
        }
        "zip" => {
            let strict = match kwarg(&kw, "strict") {
                Some(v) => vm.truthy(&v)?,
                None => false,
            };
            let mut its = Vec::new();
            for a in &args {
                its.push(vm.get_iter(a)?);
            }
            Ok(Value::Iter(Rc::new(PyIter {
                st: RefCell::new(IterState::Zip(its, strict)),
            })))
        }
        "map" => {
            if args.len() < 2 {
                return Err(vm.type_err("map() must have at least two arguments."));
            }
            let mut it = args.into_iter();
            let f = it.next().unwrap_or_default();
            let mut its = Vec::new();
            for a in it {
                its.push(vm.get_iter(&a)?);
            }
            Ok(Value::Iter(Rc::new(PyIter {
                st: RefCell::new(IterState::Map(f, its)),
            })))
        }
        "filter" => {
            nargs(vm, "filter", &args, 2, 2)?;
            let it = vm.get_iter(&args[1])?;
            Ok(Value::Iter(Rc::new(PyIter {
                st: RefCell::new(IterState::Filter(args[0].clone(), it)),
            })))
        }
        "all" | "any" => {
            nargs(vm, name, &args, 1, 1)?;
            let it = vm.get_iter(&args[0])?;
            while let Some(x) = vm.next(&it)? {
                vm.charge(cost::PER_ELEMENT)?;
                let t = vm.truthy(&x)?;
                if name == "all" && !t {
                    return Ok(Value::Bool(false));
                }
                if name == "any" && t {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(name == "all"))
        }
        "iter" => {
            if args.len() == 2 {
                return Ok(Value::Iter(Rc::new(PyIter {
                    st: RefCell::new(IterState::Callable(args[0].clone(), args[1].clone())),
                })));
            }
            nargs(vm, "iter", &args, 1, 1)?;
            vm.get_iter(&args[0])
        }
        "next" => {
            if args.is_empty() {
                return Err(vm.type_err("next expected at least 1 argument, got 0"));
            }
            let it = &args[0];
            match it {
                Value::Iter(_) | Value::Generator(_) | Value::Instance(_) => {}
                _ => {
                    return Err(
                        vm.type_err(format!("'{}' object is not an iterator", vm.type_name(it)))
                    );
                }
            }
            if let Value::Generator(g) = it {
                let g = g.clone();
                return match vm.gen_resume(&g, Value::None, None)? {
                    crate::vm::GenStep::Yielded(v) => Ok(v),
                    crate::vm::GenStep::Returned(v) => match args.get(1) {
                        Some(d) => Ok(d.clone()),
                        None => Err(vm
                            .exc_args("StopIteration", if v.is_none() { vec![] } else { vec![v] })),
                    },
                };
            }
            if let Value::Instance(_) = it {
                let Some(m) = vm.lookup_special(it, "__next__") else {
                    return Err(
                        vm.type_err(format!("'{}' object is not an iterator", vm.type_name(it)))
                    );
                };
                return match vm.call(&m, vec![it.clone()], vec![]) {
                    Err(Flow::Exc(e))
                        if args.len() > 1 && vm.isinstance_name(&e, "StopIteration") =>
                    {
                        Ok(args[1].clone())
                    }
                    r => r,
                };
            }
            match vm.next(it)? {
                Some(v) => Ok(v),
                None => match args.get(1) {
                    Some(d) => Ok(d.clone()),
                    None => Err(vm.exc_args("StopIteration", vec![])),
                },
            }
        }
        "divmod" => {
            nargs(vm, "divmod", &args, 2, 2)?;
            let q = vm.binary_op(&args[0], &args[1], crate::bytecode::BinOp::FloorDiv, false)?;
            let r = vm.binary_op(&args[0], &args[1], crate::bytecode::BinOp::Mod, false)?;
            Ok(Value::tuple(vec![q, r]))
        }
        "pow" => {
            let base = arg(&args, &kw, 0, "base").unwrap_or_default();
            let exp = arg(&args, &kw, 1, "exp").unwrap_or_default();
            let m = arg(&args, &kw, 2, "mod").unwrap_or_default();
            if m.is_none() {
                return vm.binary_op(&base, &exp, crate::bytecode::BinOp::Pow, false);
            }
            let (Some(b), Some(e), Some(md)) =
                (int::to_big(&base), int::to_big(&exp), int::to_big(&m))
            else {
                return Err(
                    vm.type_err("pow() 3rd argument not allowed unless all arguments are integers")
                );
            };
            if md.is_zero() {
                return Err(vm.exc("ValueError", "pow() 3rd argument cannot be 0"));
            }
            vm.charge(cost::bigint_surcharge(md.bits()) * (e.bits() + 1))?;
            let r = if e.is_negative() {
                // modular inverse
                let inv = modinv(&b, &md).ok_or_else(|| {
                    vm.exc("ValueError", "base is not invertible for the given modulus")
                })?;
                inv.modpow(&(-e), &md.abs())
            } else {
                b.modpow(&e, &md.abs())
            };
            let r = if md.is_negative() && !r.is_zero() {
                r + &md
            } else {
                r
            };
            Ok(int::from_big(r))
        }
        "round" => {
            let x = arg(&args, &kw, 0, "number").unwrap_or_default();
            let nd = arg(&args, &kw, 1, "ndigits").unwrap_or_default();
            match &x {
                Value::Float(f) => {
                    if nd.is_none() {
                        if f.is_nan() {
                            return Err(vm.exc("ValueError", "cannot convert float NaN to integer"));
                        }
                        if f.is_infinite() {
                            return Err(
                                vm.exc("OverflowError", "cannot convert float infinity to integer")
                            );
                        }
                        let r = f.round_half_even();
                        return Ok(int::from_big(
                            crate::float::to_bigint(r).map_err(|e| vm.float_err(e))?,
                        ));
                    }
                    let n = vm.to_index(&nd)?;
                    Ok(Value::Float(
                        f.py_round_ndigits(n).map_err(|e| vm.float_err(e))?,
                    ))
                }
                v if crate::ops::is_int(v) => {
                    if nd.is_none() {
                        return Ok(match v {
                            Value::Bool(b) => Value::Int(*b as i64),
                            v => v.clone(),
                        });
                    }
                    let n = vm.to_index(&nd)?;
                    if n >= 0 {
                        return Ok(v.clone());
                    }
                    let b = int::to_big(v).unwrap_or_default();
                    if -n > 1300 {
                        return Ok(Value::Int(0));
                    }
                    let p = num_traits::pow::pow(BigInt::from(10), (-n) as usize);
                    let q = num_integer::Integer::div_floor(&b, &p);
                    let r = &b - &q * &p;
                    let twice = &r * 2;
                    let q = if twice > p || (twice == p && num_integer::Integer::is_odd(&q)) {
                        q + 1
                    } else {
                        q
                    };
                    int::checked(q * p).map_err(|e| vm.int_err(e))
                }
                v => match vm.lookup_special(v, "__round__") {
                    Some(m) => {
                        let mut a = vec![v.clone()];
                        if !nd.is_none() {
                            a.push(nd);
                        }
                        vm.call(&m, a, vec![])
                    }
                    None => Err(vm.type_err(format!(
                        "type {} doesn't define __round__ method",
                        vm.type_name(v)
                    ))),
                },
            }
        }
        "hex" | "bin" | "oct" => {
            nargs(vm, name, &args, 1, 1)?;
            let radix = match name {
                "hex" => 16,
                "bin" => 2,
                _ => 8,
            };
            match &args[0] {
                Value::Int(i) => Ok(Value::str(pvm_text::int_text::i64_to_prefixed(*i, radix))),
                Value::Bool(b) => Ok(Value::str(pvm_text::int_text::i64_to_prefixed(
                    *b as i64, radix,
                ))),
                Value::BigInt(b) => Ok(Value::str(pvm_text::int_text::int_to_prefixed(b, radix))),
                v @ Value::Instance(_) if vm.lookup_special(v, "__index__").is_some() => {
                    let v = v.clone();
                    let i = vm.to_index(&v)?;
                    Ok(Value::str(pvm_text::int_text::i64_to_prefixed(i, radix)))
                }
                v => Err(vm.type_err(format!(
                    "'{}' object cannot be interpreted as an integer",
                    vm.type_name(v)
                ))),
            }
        }
        "ord" => {
            nargs(vm, "ord", &args, 1, 1)?;
            match &args[0] {
                Value::Str(s) if s.nchars == 1 => {
                    Ok(Value::Int(s.s.chars().next().map_or(0, |c| c as i64)))
                }
                Value::Str(s) => Err(vm.type_err(format!(
                    "ord() expected a character, but string of length {} found",
                    s.nchars
                ))),
                Value::Bytes(b) if b.b.len() == 1 => Ok(Value::Int(b.b[0] as i64)),
                v => Err(vm.type_err(format!(
                    "ord() expected string of length 1, but {} found",
                    vm.type_name(v)
                ))),
            }
        }
        "chr" => {
            nargs(vm, "chr", &args, 1, 1)?;
            let i = vm.to_index(&args[0])?;
            match u32::try_from(i).ok().and_then(char::from_u32) {
                Some(c) => Ok(Value::str(c.to_string())),
                None => {
                    if (0xD800..0xE000).contains(&i) {
                        Err(vm.exc(
                            "ValueError",
                            "surrogate code points are not supported in the PVM",
                        ))
                    } else {
                        Err(vm.exc("ValueError", "chr() arg not in range(0x110000)"))
                    }
                }
            }
        }
        "repr" => {
            nargs(vm, "repr", &args, 1, 1)?;
            Ok(Value::str(vm.repr(&args[0])?))
        }
        "ascii" => {
            nargs(vm, "ascii", &args, 1, 1)?;
            let r = vm.repr(&args[0])?;
            Ok(Value::str(crate::ops::ascii_of(&r)))
        }
        "hash" => {
            nargs(vm, "hash", &args, 1, 1)?;
            Ok(Value::Int(vm.hash_i64(&args[0])?))
        }
        "callable" => {
            nargs(vm, "callable", &args, 1, 1)?;
            let v = &args[0];
            Ok(Value::Bool(match v {
                Value::Function(_)
                | Value::BoundMethod(_)
                | Value::Builtin(_)
                | Value::Class(_) => true,
                Value::Instance(_) => vm.lookup_special(v, "__call__").is_some(),
                _ => false,
            }))
        }
        "getattr" => {
            if args.len() < 2 {
                return Err(vm.type_err(format!(
                    "getattr expected at least 2 arguments, got {}",
                    args.len()
                )));
            }
            let n = match &args[1] {
                Value::Str(s) => s.s.to_string(),
                v => {
                    return Err(vm.type_err(format!(
                        "attribute name must be string, not '{}'",
                        vm.type_name(v)
                    )));
                }
            };
            match vm.get_attr(&args[0], &n) {
                Ok(v) => Ok(v),
                Err(Flow::Exc(e)) if args.len() > 2 && vm.isinstance_name(&e, "AttributeError") => {
                    Ok(args[2].clone())
                }
                Err(e) => Err(e),
            }
        }
        "hasattr" => {
            nargs(vm, "hasattr", &args, 2, 2)?;
            let n = match &args[1] {
                Value::Str(s) => s.s.to_string(),
                v => {
                    return Err(vm.type_err(format!(
                        "attribute name must be string, not '{}'",
                        vm.type_name(v)
                    )));
                }
            };
            match vm.get_attr(&args[0], &n) {
                Ok(_) => Ok(Value::Bool(true)),
                Err(Flow::Exc(e)) if vm.isinstance_name(&e, "AttributeError") => {
                    Ok(Value::Bool(false))
                }
                Err(e) => Err(e),
            }
        }
        "setattr" => {
            nargs(vm, "setattr", &args, 3, 3)?;
            let n = match &args[1] {
                Value::Str(s) => s.s.to_string(),
                v => {
                    return Err(vm.type_err(format!(
                        "attribute name must be string, not '{}'",
                        vm.type_name(v)
                    )));
                }
            };
            vm.set_attr(&args[0], &n, args[2].clone())?;
            Ok(Value::None)
        }
        "delattr" => {
            nargs(vm, "delattr", &args, 2, 2)?;
            let n = match &args[1] {
                Value::Str(s) => s.s.to_string(),
                v => {
                    return Err(vm.type_err(format!(
                        "attribute name must be string, not '{}'",
                        vm.type_name(v)
                    )));
                }
            };
            vm.del_attr(&args[0], &n)?;
            Ok(Value::None)
        }
        "vars" => {
            if args.is_empty() {
                return Err(vm.sandbox("vars() without an argument is not available in the PVM"));
            }
            match &args[0] {
                Value::Instance(i) => Ok(Value::Dict(i.dict.clone())),
                Value::Class(c) => Ok(Value::dict(c.dict.borrow().clone())),
                v => Err(vm.type_err(format!(
                    "vars() argument must have __dict__ attribute ({})",
                    vm.type_name(v)
                ))),
            }
        }
        "dir" => {
            if args.is_empty() {
                return Err(vm.sandbox("dir() without an argument is not available in the PVM"));
            }
            let mut names: Vec<String> = Vec::new();
            match &args[0] {
                Value::Instance(i) => {
                    names.extend(i.dict.d.borrow().iter().filter_map(|e| {
                        if let Value::Str(s) = &e.key {
                            Some(s.s.to_string())
                        } else {
                            None
                        }
                    }));
                    let c = i.class.borrow().clone();
                    for cl in std::iter::once(&c).chain(c.mro.iter()) {
                        names.extend(cl.dict.borrow().iter().filter_map(|e| {
                            if let Value::Str(s) = &e.key {
                                Some(s.s.to_string())
                            } else {
                                None
                            }
                        }));
                    }
                }
                Value::Class(c) => {
                    for cl in std::iter::once(c).chain(c.mro.iter()) {
                        names.extend(cl.dict.borrow().iter().filter_map(|e| {
                            if let Value::Str(s) = &e.key {
                                Some(s.s.to_string())
                            } else {
                                None
                            }
                        }));
                    }
                }
                Value::Module(m) => {
                    names.extend(m.dict.borrow().iter().filter_map(|e| {
                        if let Value::Str(s) = &e.key {
                            Some(s.s.to_string())
                        } else {
                            None
                        }
                    }));
                }
                _ => {}
            }
            names.sort();
            names.dedup();
            Ok(Value::list(names.into_iter().map(Value::str).collect()))
        }
        "format" => {
            let v = args.first().cloned().unwrap_or_default();
            let spec = match args.get(1) {
                Some(Value::Str(s)) => s.s.to_string(),
                _ => String::new(),
            };
            Ok(Value::str(vm.format(&v, &spec)?))
        }
        "__object_init__" => {
            if let Some(Value::Instance(i)) = args.first() {
                if i.exc.is_some() {
                    *i.native.borrow_mut() = Some(Value::tuple(args[1..].to_vec()));
                } else if let Some(n) = vm.native_of(&args[0]) {
                    if matches!(n, Value::List(_) | Value::Dict(_) | Value::Set(_))
                        && args.len() > 1
                    {
                        let m = if matches!(n, Value::List(_)) {
                            "extend"
                        } else {
                            "update"
                        };
                        crate::methods::call_method(vm, &n, m, args[1..2].to_vec(), kw.clone())?;
                    } else if matches!(n, Value::Dict(_)) && !kw.is_empty() {
                        crate::methods::call_method(vm, &n, "update", vec![], kw.clone())?;
                    }
                }
            }
            Ok(Value::None)
        }
        "__object_init_subclass__" => Ok(Value::None),
        n if n.starts_with("__file_") => crate::tmpfs::call(vm, n, args),
        "__exc_add_note__" => {
            nargs(vm, "add_note", &args, 2, 2)?;
            let Value::Instance(i) = &args[0] else {
                return Ok(Value::None);
            };
            if !matches!(args[1], Value::Str(_)) {
                return Err(vm.type_err(format!(
                    "note must be a str, not '{}'",
                    vm.type_name(&args[1])
                )));
            }
            let notes = i.dict.d.borrow().get_str("__notes__").cloned();
            match notes {
                Some(Value::List(l)) => {
                    vm.list_push(&l, args[1].clone())?;
                }
                _ => {
                    let l = Value::list(vec![args[1].clone()]);
                    i.dict
                        .d
                        .borrow_mut()
                        .set_str(Rc::new(PyStr::new("__notes__")), l);
                }
            }
            Ok(Value::None)
        }
        "__view_isdisjoint__" => {
            nargs(vm, "isdisjoint", &args, 2, 2)?;
            let items = vm.collect(&args[0])?;
            let s = vm.new_set(items)?;
            crate::methods::call_method(vm, &s, "isdisjoint", vec![args[1].clone()], vec![])
        }
        "__exc_with_traceback__" => Ok(args.first().cloned().unwrap_or_default()),
        "__slice_indices__" => {
            nargs(vm, "indices", &args, 2, 2)?;
            let Value::Slice(s) = &args[0] else {
                return Err(vm.type_err("indices() needs a slice"));
            };
            let n = vm.to_index(&args[1])?;
            if n < 0 {
                return Err(vm.exc("ValueError", "length should not be negative"));
            }
            let (a, b, c, _) = crate::attr::slice_indices(vm, s, n as usize)?;
            Ok(Value::tuple(vec![
                Value::Int(a),
                Value::Int(b),
                Value::Int(c),
            ]))
        }
        "__object_str__" => {
            let v = args.first().cloned().unwrap_or_default();
            Ok(Value::str(vm.default_str(&v)?))
        }
        "__object_repr__" => {
            let v = args.first().cloned().unwrap_or_default();
            Ok(Value::str(vm.default_repr(&v)?))
        }
        "__object_format__" => {
            let v = args.first().cloned().unwrap_or_default();
            Ok(Value::str(vm.default_str(&v)?))
        }
        "__object_setattr__" => {
            nargs(vm, "__setattr__", &args, 3, 3)?;
            let n = vm.to_str(&args[1])?;
            match &args[0] {
                Value::Instance(i) => {
                    let cls = i.class.borrow().clone();
                    vm.raw_setattr(i, &cls, &n, args[2].clone())?;
                    Ok(Value::None)
                }
                o => {
                    let o = o.clone();
                    vm.set_attr(&o, &n, args[2].clone())?;
                    Ok(Value::None)
                }
            }
        }
        "__object_getattribute__" => {
            nargs(vm, "__getattribute__", &args, 2, 2)?;
            let n = vm.to_str(&args[1])?;
            if let Value::Instance(i) = &args[0]
                && let Some(v) = i.dict.d.borrow().get_str(&n)
            {
                return Ok(v.clone());
            }
            let o = args[0].clone();
            vm.get_attr(&o, &n)
        }
        "__object_delattr__" => {
            nargs(vm, "__delattr__", &args, 2, 2)?;
            let n = vm.to_str(&args[1])?;
            if let Value::Instance(i) = &args[0]
                && i.dict.d.borrow_mut().del_str(&n).is_some()
            {
                return Ok(Value::None);
            }
            Err(vm.exc("AttributeError", n))
        }
        "__object_new__" => match args.first() {
            Some(Value::Class(c)) => {
                let c = c.clone();
                let inst = vm.new_instance(&c, &args[1..]);
                if let (Some(b), Value::Instance(i)) = (vm.builtin_base(&c), &inst) {
                    let n = construct(vm, &b, args[1..].to_vec(), vec![])?;
                    *i.native.borrow_mut() = Some(n);
                }
                Ok(inst)
            }
            _ => Err(vm.type_err("object.__new__(X): X is not a type object")),
        },
        "__object_eq__" => {
            let same = match (args.first(), args.get(1)) {
                (Some(a), Some(b)) => {
                    matches!((a, b), (Value::Instance(x), Value::Instance(y)) if Rc::ptr_eq(x, y))
                }
                _ => false,
            };
            Ok(if same {
                Value::Bool(true)
            } else {
                Value::NotImplemented
            })
        }
        "__object_ne__" => {
            let same = match (args.first(), args.get(1)) {
                (Some(a), Some(b)) => {
                    matches!((a, b), (Value::Instance(x), Value::Instance(y)) if Rc::ptr_eq(x, y))
                }
                _ => false,
            };
            Ok(if same {
                Value::Bool(false)
            } else {
                Value::NotImplemented
            })
        }
        "__object_hash__" => match args.first() {
            Some(Value::Instance(i)) => Ok(Value::Int((i.id as i64).wrapping_mul(16))),
            Some(v) => {
                let v = v.clone();
                Ok(Value::Int(vm.hash_i64(&v)?))
            }
            None => Err(vm.type_err("descriptor '__hash__' of 'object' object needs an argument")),
        },
        "__type_mro__" => match args.first() {
            Some(Value::Class(c)) => {
                let mut v = vec![Value::Class(c.clone())];
                v.extend(c.mro.iter().map(|x| Value::Class(x.clone())));
                Ok(Value::list(v))
            }
            _ => Err(vm.type_err("mro() needs a class")),
        },
        "id" => Err(Flow::Abort(Abort::Determinism(
            "id() exposes memory addresses and is not deterministic".into(),
        ))),
        "open" => {
            let path = match args.first() {
                Some(Value::Str(s)) => s.s.to_string(),
                _ => String::new(),
            };
            if !path.starts_with("/tmp/") || path.contains("..") || path.len() <= 5 {
                return Err(vm.sandbox(format!(
                    "open() outside /tmp is not allowed in the PVM: '{path}'"
                )));
            }
            let mode = match arg(&args, &kw, 1, "mode") {
                Some(Value::Str(s)) => s.s.to_string(),
                _ => "r".to_string(),
            };
            if let Some(Value::Str(e)) = arg(&args, &kw, 3, "encoding") {
                let e = e.s.to_ascii_lowercase().replace('_', "-");
                if e != "utf-8" && e != "utf8" {
                    return Err(vm.exc("LookupError", format!("unknown encoding: {e}")));
                }
            }
            crate::tmpfs::open(vm, &path, &mode)
        }
        "eval" | "exec" | "compile" | "__import__" | "globals" | "locals" | "input"
        | "breakpoint" | "exit" | "quit" | "help" | "memoryview" | "aiter" | "anext" => {
            Err(vm.sandbox(format!("{name}() is not available in the PVM")))
        }
        _ => Err(vm.exc("NameError", format!("name '{name}' is not defined"))),
    }
}

fn modinv(a: &BigInt, m: &BigInt) -> Option<BigInt> {
    let m = m.abs();
    let e = num_integer::Integer::extended_gcd(&num_integer::Integer::mod_floor(a, &m), &m);
    if e.gcd != BigInt::from(1) {
        return None;
    }
    Some(num_integer::Integer::mod_floor(&e.x, &m))
}

fn parse_float_str(vm: &Vm, s: &str) -> PyResult<F64> {
    let t = s.trim();
    let cleaned: String = if t.contains('_') {
        // Python allows single underscores between digits only.
        let b = t.as_bytes();
        for (i, c) in b.iter().enumerate() {
            if *c == b'_'
                && (i == 0
                    || i + 1 == b.len()
                    || !b[i - 1].is_ascii_digit()
                    || !b[i + 1].is_ascii_digit())
            {
                return Err(vm.exc(
                    "ValueError",
                    format!(
                        "could not convert string to float: {}",
                        pvm_text::repr::str_repr(s)
                    ),
                ));
            }
        }
        t.replace('_', "")
    } else {
        t.to_string()
    };
    F64::parse(&cleaned).ok_or_else(|| {
        vm.exc(
            "ValueError",
            format!(
                "could not convert string to float: {}",
                pvm_text::repr::str_repr(s)
            ),
        )
    })
}

/// The value of `text` when it is an optional sign followed by 1 to 18 ASCII decimal digits
/// and nothing else (what `int(text)` then returns, always within i64); None otherwise.
fn small_decimal(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (d - b'0') as i64;
    }
    Some(if neg { -v } else { v })
}

/// Construct an instance of a built-in type.
pub fn construct(vm: &mut Vm, cls: &Rc<Class>, args: Vec<Value>, kw: Kw) -> PyResult<Value> {
    if cls.builtin {
        constructor_arity(vm, cls.kind, &args, &kw)?;
    }
    let a0 = args.first().cloned();
    match cls.kind {
        TypeKind::Int => {
            let base = arg(&args, &kw, 1, "base");
            match (a0, base) {
                (None, _) => Ok(Value::Int(0)),
                (Some(Value::Str(s)), b) => {
                    let base = match b {
                        Some(b) => vm.to_index(&b)?,
                        None => 10,
                    };
                    vm.charge(s.s.len() as u64)?;
                    if s.s.len() > 5000 {
                        return Err(vm.exc(
                            "ValueError",
                            "Exceeds the limit (4300 digits) for integer string conversion",
                        ));
                    }
                    if base == 10
                        && let Some(i) = small_decimal(&s.s)
                    {
                        return Ok(Value::Int(i));
                    }
                    let b = pvm_text::int_text::parse_int(&s.s, base as u32)
                        .map_err(|e| text_err(vm, e))?;
                    int::checked(b).map_err(|e| vm.int_err(e))
                }
                (Some(Value::Bytes(bb)), b) => {
                    let base = match b {
                        Some(b) => vm.to_index(&b)?,
                        None => 10,
                    };
                    let b = pvm_text::int_text::parse_int_bytes(&bb.b, base as u32)
                        .map_err(|e| text_err(vm, e))?;
                    int::checked(b).map_err(|e| vm.int_err(e))
                }
                (Some(_), Some(_)) => {
                    Err(vm.type_err("int() can't convert non-string with explicit base"))
                }
                (Some(Value::Bool(b)), None) => Ok(Value::Int(b as i64)),
                (Some(v @ (Value::Int(_) | Value::BigInt(_))), None) => Ok(v),
                (Some(Value::Float(f)), None) => {
                    if f.is_nan() {
                        return Err(vm.exc("ValueError", "cannot convert float NaN to integer"));
                    }
                    if f.is_infinite() {
                        return Err(
                            vm.exc("OverflowError", "cannot convert float infinity to integer")
                        );
                    }
                    let b = crate::float::to_bigint(f).map_err(|e| vm.float_err(e))?;
                    int::checked(b).map_err(|e| vm.int_err(e))
                }
                (Some(v), None) => {
                    for m in ["__int__", "__index__"] {
                        if let Some(f) = vm.lookup_special(&v, m) {
                            return vm.call(&f, vec![v.clone()], vec![]);
                        }
                    }
                    // an instance of an int / float / str subclass: convert its value
                    if let Some(n) = vm.native_of(&v)
                        && !matches!(n, Value::Instance(_))
                    {
                        return construct(vm, cls, vec![n], kw);
                    }
                    Err(vm.type_err(format!(
                        "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                        vm.type_name(&v)
                    )))
                }
            }
        }
        TypeKind::Float => match a0 {
            None => Ok(Value::Float(F64::ZERO)),
            Some(Value::Str(s)) => Ok(Value::Float(parse_float_str(vm, &s.s)?)),
            Some(v @ Value::Float(_)) => Ok(v),
            Some(v) if crate::ops::is_int(&v) => Ok(Value::Float(vm.to_float(&v)?)),
            Some(v) => {
                if let Some(f) = vm.lookup_special(&v, "__float__") {
                    return vm.call(&f, vec![v.clone()], vec![]);
                }
                if let Some(n) = vm.native_of(&v)
                    && !matches!(n, Value::Instance(_))
                {
                    return construct(vm, cls, vec![n], kw);
                }
                Err(vm.type_err(format!(
                    "float() argument must be a string or a real number, not '{}'",
                    vm.type_name(&v)
                )))
            }
        },
        TypeKind::Str => match a0 {
            None => Ok(Value::str("")),
            Some(v @ (Value::Bytes(_) | Value::ByteArray(_)))
                if args.len() > 1 || !kw.is_empty() =>
            {
                let bytes = match &v {
                    Value::Bytes(b) => b.b.to_vec(),
                    Value::ByteArray(b) => b.b.borrow().clone(),
                    _ => Vec::new(),
                };
                match String::from_utf8(bytes) {
                    Ok(s) => Ok(Value::str(s)),
                    Err(_) => Err(vm.exc("UnicodeDecodeError", "'utf-8' codec can't decode bytes")),
                }
            }
            Some(v) => Ok(Value::str(vm.to_str(&v)?)),
        },
        TypeKind::Bool => match a0 {
            None => Ok(Value::Bool(false)),
            Some(v) => Ok(Value::Bool(vm.truthy(&v)?)),
        },
        TypeKind::List => match a0 {
            None => Ok(Value::list(vec![])),
            Some(v) => {
                let items = vm.collect(&v)?;
                Ok(Value::list(items))
            }
        },
        TypeKind::Tuple => match a0 {
            None => Ok(Value::tuple(vec![])),
            Some(v @ Value::Tuple(_)) => Ok(v),
            Some(v) => {
                let items = vm.collect(&v)?;
                Ok(Value::tuple(items))
            }
        },
        TypeKind::Set => {
            let items = match a0 {
                None => vec![],
                Some(v) => vm.collect(&v)?,
            };
            vm.new_set(items)
        }
        TypeKind::FrozenSet => {
            let items = match a0 {
                None => vec![],
                Some(v) => vm.collect(&v)?,
            };
            vm.new_frozenset(items)
        }
        TypeKind::Dict => {
            let d = Value::dict(Dict::new());
            if let Value::Dict(dd) = &d {
                let m = Value::Builtin(Rc::new(Builtin {
                    kind: BuiltinKind::Method("update"),
                    recv: Some(d.clone()),
                }));
                let _ = dd;
                vm.call(&m, args, kw)?;
            }
            Ok(d)
        }
        TypeKind::Bytes | TypeKind::ByteArray => {
            let data: Vec<u8> = match a0 {
                None => vec![],
                Some(Value::Str(s)) => {
                    if args.len() < 2 && kwarg(&kw, "encoding").is_none() {
                        return Err(vm.type_err("string argument without an encoding"));
                    }
                    s.s.as_bytes().to_vec()
                }
                Some(Value::Int(n)) => {
                    if n < 0 {
                        return Err(vm.exc("ValueError", "negative count"));
                    }
                    vm.check_mem(n as usize)?;
                    vec![0; n as usize]
                }
                Some(Value::Bytes(b)) => b.b.to_vec(),
                Some(Value::ByteArray(b)) => b.b.borrow().clone(),
                Some(v) => {
                    let items = vm.collect(&v)?;
                    let mut out = Vec::with_capacity(items.len());
                    for it in items {
                        let x = vm.to_index(&it)?;
                        if !(0..256).contains(&x) {
                            return Err(vm.exc("ValueError", "bytes must be in range(0, 256)"));
                        }
                        out.push(x as u8);
                    }
                    out
                }
            };
            if cls.kind == TypeKind::Bytes {
                Ok(Value::bytes(data))
            } else {
                let n = data.len();
                Ok(Value::ByteArray(Rc::new(PyByteArray {
                    b: RefCell::new(data),
                    acct: crate::heap::Acct::new(n + 40),
                })))
            }
        }
        TypeKind::Range => {
            let mut ints = Vec::new();
            for a in &args {
                match a {
                    Value::Int(i) => ints.push(*i),
                    Value::Bool(b) => ints.push(*b as i64),
                    Value::BigInt(_) | Value::Instance(_) => return vm.range_new_big(&args),
                    v => {
                        return Err(vm.type_err(format!(
                            "'{}' object cannot be interpreted as an integer",
                            vm.type_name(v)
                        )));
                    }
                }
            }
            let (start, stop, step) = match ints.len() {
                1 => (0, ints[0], 1),
                2 => (ints[0], ints[1], 1),
                3 => (ints[0], ints[1], ints[2]),
                0 => return Err(vm.type_err("range expected at least 1 argument, got 0")),
                n => {
                    return Err(vm.type_err(format!("range expected at most 3 arguments, got {n}")));
                }
            };
            if step == 0 {
                return Err(vm.exc("ValueError", "range() arg 3 must not be zero"));
            }
            Ok(Value::Range(Rc::new(PyRange::from_i64(start, stop, step))))
        }
        TypeKind::Slice => {
            let (start, stop, step) = match args.len() {
                1 => (Value::None, args[0].clone(), Value::None),
                2 => (args[0].clone(), args[1].clone(), Value::None),
                3 => (args[0].clone(), args[1].clone(), args[2].clone()),
                _ => return Err(vm.type_err("slice expected at least 1 argument, got 0")),
            };
            Ok(Value::Slice(Rc::new(PySlice { start, stop, step })))
        }
        TypeKind::Object => {
            if !args.is_empty() {
                return Err(vm.type_err("object() takes no arguments"));
            }
            Ok(vm.new_instance(cls, &[]))
        }
        TypeKind::Type => {
            if args.len() == 1 {
                return Ok(Value::Class(vm.class_of(&args[0])));
            }
            if args.len() == 3 {
                let name = vm.to_str(&args[0])?;
                let bases: Vec<Rc<Class>> = match &args[1] {
                    Value::Tuple(t) => {
                        t.v.iter()
                            .filter_map(|b| {
                                if let Value::Class(c) = b {
                                    Some(c.clone())
                                } else {
                                    None
                                }
                            })
                            .collect()
                    }
                    _ => vec![],
                };
                let ns = Rc::new(PyDict {
                    d: RefCell::new(match &args[2] {
                        Value::Dict(d) => d.d.borrow().clone(),
                        _ => Dict::new(),
                    }),
                });
                let c = crate::types::make_class(
                    vm,
                    Rc::from(name.as_str()),
                    Rc::from(name.as_str()),
                    bases,
                    ns,
                    vec![],
                )?;
                return Ok(Value::Class(c));
            }
            Err(vm.type_err("type() takes 1 or 3 arguments"))
        }
        TypeKind::Property => {
            let fget = arg(&args, &kw, 0, "fget").unwrap_or_default();
            let fset = arg(&args, &kw, 1, "fset").unwrap_or_default();
            let fdel = arg(&args, &kw, 2, "fdel").unwrap_or_default();
            Ok(Value::Wrapper(Rc::new(Wrapper::Property {
                fget,
                fset,
                fdel,
            })))
        }
        TypeKind::ClassMethod => Ok(Value::Wrapper(Rc::new(Wrapper::ClassMethod(
            a0.unwrap_or_default(),
        )))),
        TypeKind::StaticMethod => Ok(Value::Wrapper(Rc::new(Wrapper::StaticMethod(
            a0.unwrap_or_default(),
        )))),
        TypeKind::Super => {
            if args.len() != 2 {
                return Err(vm.exc("RuntimeError", "super(): no arguments"));
            }
            let Value::Class(c) = &args[0] else {
                return Err(vm.type_err("super() argument 1 must be a type"));
            };
            Ok(Value::Wrapper(Rc::new(Wrapper::Super {
                cls: c.clone(),
                obj: args[1].clone(),
            })))
        }
        _ => Err(vm.type_err(format!("cannot create '{}' instances", cls.name))),
    }
}

/// `format(float, spec)` via `pvm-text`.
pub fn format_float(vm: &mut Vm, f: F64, spec: &str) -> PyResult<String> {
    if spec.is_empty() {
        return Ok(f.repr());
    }
    pvm_text::format_float::format_float_spec(f, spec).map_err(|e| text_err(vm, e))
}

/// `fmt % args` for str (and, with `bytes_mode`, the Latin-1 view of a bytes template).
fn percent_core(
    vm: &mut Vm,
    pieces: Vec<pvm_text::percent::PercentPiece>,
    args: &Value,
    bytes_mode: bool,
) -> PyResult<String> {
    use pvm_text::percent::{self as pc, Count, PercentPiece};
    let terr = |vm: &Vm, e: pvm_text::TextError| text_err(vm, e);
    let is_mapping = matches!(args, Value::Dict(_))
        || (matches!(args, Value::Instance(_)) && vm.lookup_special(args, "__getitem__").is_some());
    let items: Vec<Value> = match args {
        Value::Tuple(t) => t.v.to_vec(),
        v => vec![v.clone()],
    };
    let mut idx = 0usize;
    let mut used_key = false;
    let mut out = String::new();
    let next = |vm: &Vm, idx: &mut usize| -> PyResult<Value> {
        let v = items
            .get(*idx)
            .cloned()
            .ok_or_else(|| terr(vm, pc::not_enough_arguments()))?;
        *idx += 1;
        Ok(v)
    };
    for p in pieces {
        match p {
            PercentPiece::Literal(s) => out.push_str(&s),
            PercentPiece::Error { error, .. } => return Err(terr(vm, error)),
            PercentPiece::Conversion(spec) => {
                if spec.literal_percent {
                    out.push('%');
                    continue;
                }
                let star = |vm: &mut Vm, idx: &mut usize| -> PyResult<BigInt> {
                    let v = next(vm, idx)?;
                    match int::to_big(&v) {
                        Some(b) => Ok(b),
                        _ => Err(terr(vm, pc::star_wants_int())),
                    }
                };
                let sw = if spec.width == Some(Count::Star) {
                    Some(star(vm, &mut idx)?)
                } else {
                    None
                };
                let sp = if spec.precision == Some(Count::Star) {
                    Some(star(vm, &mut idx)?)
                } else {
                    None
                };
                let f = spec
                    .resolve(sw.as_ref(), sp.as_ref())
                    .map_err(|e| terr(vm, e))?;
                vm.charge_format_size(f.width.unwrap_or(0), f.precision.unwrap_or(0))?;
                let v = match &spec.key {
                    Some(k) => {
                        if !is_mapping {
                            return Err(terr(vm, pc::format_requires_mapping()));
                        }
                        used_key = true;
                        let key = if bytes_mode {
                            Value::bytes(pc::latin1_to_bytes(k))
                        } else {
                            Value::str(k.as_str())
                        };
                        vm.getitem(args, &key)?
                    }
                    None => next(vm, &mut idx)?,
                };
                let piece = match f.conv {
                    's' | 'r' | 'a' | 'b' => {
                        let s = if bytes_mode && matches!(f.conv, 's' | 'b') {
                            match &v {
                                Value::Bytes(b) => b.b.iter().map(|c| *c as char).collect(),
                                Value::ByteArray(b) => b.b.borrow().iter().map(|c| *c as char).collect(),
                                _ => {
                                    return Err(vm.type_err(format!(
                                        "%b requires a bytes-like object, or an object that implements __bytes__, not '{}'",
                                        vm.type_name(&v)
                                    )))
                                }
                            }
                        } else {
                            match f.conv {
                                's' => vm.to_str(&v)?,
                                'r' => vm.repr(&v)?,
                                _ => crate::ops::ascii_of(&vm.repr(&v)?),
                            }
                        };
                        pc::format_percent_str(&s, &f)
                    }
                    'c' => {
                        let c = match &v {
                            Value::Str(s) if s.nchars == 1 && !bytes_mode => s.s.to_string(),
                            Value::Bytes(b) if bytes_mode && b.b.len() == 1 => {
                                (b.b[0] as char).to_string()
                            }
                            v if crate::ops::is_int(v) => {
                                let b = int::to_big(v).unwrap_or_default();
                                if bytes_mode {
                                    match num_traits::ToPrimitive::to_u8(&b) {
                                        Some(x) => (x as char).to_string(),
                                        None => {
                                            return Err(
                                                vm.exc("OverflowError", "%c arg not in range(256)")
                                            );
                                        }
                                    }
                                } else {
                                    pc::percent_char_from_int(&b)
                                        .map_err(|e| terr(vm, e))?
                                        .to_string()
                                }
                            }
                            _ => return Err(terr(vm, pc::char_required())),
                        };
                        pc::format_percent_str(&c, &f)
                    }
                    'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
                        let b = match &v {
                            v if crate::ops::is_int(v) => int::to_big(v).unwrap_or_default(),
                            Value::Float(x) if matches!(f.conv, 'd' | 'i' | 'u') => {
                                crate::float::to_bigint(*x).map_err(|e| vm.float_err(e))?
                            }
                            Value::Instance(_)
                                if vm.lookup_special(&v, "__index__").is_some()
                                    || vm.lookup_special(&v, "__int__").is_some() =>
                            {
                                let c = vm.types.get(TypeKind::Int);
                                let iv = construct(vm, &c, vec![v.clone()], vec![])?;
                                int::to_big(&iv).unwrap_or_default()
                            }
                            _ => {
                                let tn = vm.type_name(&v);
                                let e = if bytes_mode {
                                    pc::number_required_bytes(f.conv, &tn)
                                } else {
                                    pc::number_required(f.conv, &tn)
                                };
                                return Err(terr(vm, e));
                            }
                        };
                        pc::format_percent_int(&b, &f)
                    }
                    'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                        let x = match &v {
                            Value::Float(x) => *x,
                            v if crate::ops::is_int(v) => vm.to_float(v)?,
                            Value::Instance(_) if vm.lookup_special(&v, "__float__").is_some() => {
                                let m = vm.lookup_special(&v, "__float__").unwrap_or_default();
                                let r = vm.call(&m, vec![v.clone()], vec![])?;
                                vm.to_float(&r)?
                            }
                            _ => {
                                let tn = vm.type_name(&v);
                                return Err(terr(vm, pc::real_number_required(&tn)));
                            }
                        };
                        pc::format_percent_float(x, &f)
                    }
                    c => return Err(terr(vm, pc::unsupported_format_character(c, spec.index))),
                };
                vm.charge(piece.len() as u64 / 4)?;
                out.push_str(&piece);
            }
        }
    }
    let all_used = if matches!(args, Value::Tuple(_)) {
        idx >= items.len()
    } else {
        idx >= 1 || used_key || is_mapping
    };
    if !all_used {
        return Err(terr(vm, pc::not_all_converted()));
    }
    Ok(out)
}

/// `fmt % args` (str).
pub fn percent_format(vm: &mut Vm, fmt: &str, args: &Value) -> PyResult<String> {
    vm.charge(fmt.len() as u64 / 4)?;
    if let Some(r) = percent_fast(vm, fmt, args) {
        return r;
    }
    let pieces = pvm_text::percent::parse_percent(fmt);
    percent_core(vm, pieces, args, false)
}

/// A conversion `%[-0]*[width]c` with `c` one of `s d i x X o`, at most four width digits:
/// the shapes [`percent_fast`] renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FastConv {
    left: bool,
    zero: bool,
    width: Option<usize>,
    conv: u8,
}

/// One token of a template as [`percent_fast`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FastTok {
    /// Literal text `fmt[start..end]`.
    Lit(usize, usize),
    /// `%%`.
    Percent,
    /// A conversion.
    Conv(FastConv),
}

/// The next token of `fmt` from byte `*pos`: None at the end, `Some(Err(()))` for anything
/// `percent_fast` leaves to the general formatter (mapping keys, `+`/space/`#` flags, `*`,
/// precision, length modifiers, other conversions, malformed conversions).
#[inline]
fn fast_tok(fmt: &[u8], pos: &mut usize) -> Option<Result<FastTok, ()>> {
    let start = *pos;
    if start >= fmt.len() {
        return None;
    }
    if fmt[start] != b'%' {
        let end = fmt[start..]
            .iter()
            .position(|&b| b == b'%')
            .map_or(fmt.len(), |p| start + p);
        *pos = end;
        return Some(Ok(FastTok::Lit(start, end)));
    }
    let mut i = start + 1;
    if fmt.get(i) == Some(&b'%') {
        *pos = i + 1;
        return Some(Ok(FastTok::Percent));
    }
    let (mut left, mut zero) = (false, false);
    loop {
        match fmt.get(i) {
            Some(b'-') => left = true,
            Some(b'0') => zero = true,
            _ => break,
        }
        i += 1;
    }
    let mut width = None;
    let mut w = 0usize;
    let digits_at = i;
    while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
        if i - digits_at == 4 {
            return Some(Err(()));
        }
        w = w * 10 + (d - b'0') as usize;
        width = Some(w);
        i += 1;
    }
    match fmt.get(i) {
        Some(&conv @ (b's' | b'd' | b'i' | b'x' | b'X' | b'o')) => {
            *pos = i + 1;
            Some(Ok(FastTok::Conv(FastConv {
                left,
                zero,
                width,
                conv,
            })))
        }
        _ => Some(Err(())),
    }
}

/// `fmt % args` for the common case, without the general tokenizer and big-int rendering:
/// every conversion is one [`FastConv`] shape, the arguments are a tuple with exactly one
/// item per conversion (or a single int or str for a one-conversion template), and each item
/// is an int (any conversion) or a str (`%s`). None, having charged and changed nothing, for
/// anything else. Otherwise the same output and the same charges in the same order as
/// `percent_core` (per conversion `charge_format_size(width, 0)`, then the rendered length
/// / 4; literals and `%%` free), and no error but those charges' can occur.
fn percent_fast(vm: &mut Vm, fmt: &str, args: &Value) -> Option<PyResult<String>> {
    let items: &[Value] = match args {
        Value::Tuple(t) => &t.v,
        Value::Int(_) | Value::Str(_) => std::slice::from_ref(args),
        _ => return None,
    };
    let b = fmt.as_bytes();
    // templates of more than 16 tokens take the general path
    let mut toks = [FastTok::Percent; 16];
    let (mut pos, mut k, mut nt) = (0, 0, 0);
    while let Some(t) = fast_tok(b, &mut pos) {
        let t = t.ok()?;
        if let FastTok::Conv(c) = t {
            match (items.get(k)?, c.conv) {
                (Value::Int(_), _) | (Value::Str(_), b's') => {}
                _ => return None,
            }
            k += 1;
        }
        *toks.get_mut(nt)? = t;
        nt += 1;
    }
    if k != items.len() {
        return None;
    }
    let mut out = String::with_capacity(fmt.len() + 8 * k);
    let mut k = 0;
    for &t in &toks[..nt] {
        match t {
            FastTok::Lit(a, z) => out.push_str(&fmt[a..z]),
            FastTok::Percent => out.push('%'),
            FastTok::Conv(c) => {
                if let Err(e) = vm.charge_format_size(c.width.unwrap_or(0), 0) {
                    return Some(Err(e));
                }
                let at = out.len();
                render_fast_conv(&mut out, &items[k], c);
                k += 1;
                if let Err(e) = vm.charge((out.len() - at) as u64 / 4) {
                    return Some(Err(e));
                }
            }
        }
    }
    Some(Ok(out))
}

/// Appends `v` (an int, or a str for `%s`) rendered by conversion `c` to `out`: what
/// `format_percent_int` / `format_percent_str` produce for these flags.
fn render_fast_conv(out: &mut String, v: &Value, c: FastConv) {
    let mut buf = [0u8; 24];
    let (neg, digits): (bool, &str) = match v {
        Value::Int(i) => {
            let radix = match c.conv {
                b'x' | b'X' => 16,
                b'o' => 8,
                _ => 10,
            };
            (
                *i < 0,
                u64_digits(&mut buf, i.unsigned_abs(), radix, c.conv == b'X'),
            )
        }
        _ => (false, ""),
    };
    let pad = |out: &mut String, ch: char, n: usize| out.extend(std::iter::repeat_n(ch, n));
    if c.conv == b's' {
        // not numeric: space fill, width counts characters
        let (len, body_neg) = match v {
            Value::Str(s) => (s.nchars, None),
            _ => (digits.len() + neg as usize, Some(neg)),
        };
        let width = c.width.unwrap_or(0).max(len);
        if width > len && !c.left {
            pad(out, ' ', width - len);
        }
        match (v, body_neg) {
            (Value::Str(s), _) => out.push_str(&s.s),
            (_, neg) => {
                if neg == Some(true) {
                    out.push('-');
                }
                out.push_str(digits);
            }
        }
        if width > len && c.left {
            pad(out, ' ', width - len);
        }
        return;
    }
    let len = digits.len();
    let fill = if c.zero { '0' } else { ' ' };
    let mut width = c.width.unwrap_or(0).max(len);
    if neg {
        if fill != ' ' {
            out.push('-');
        }
        if width > len {
            width -= 1;
        }
    }
    if width > len && !c.left {
        pad(out, fill, width - len);
        width = len;
    }
    if fill == ' ' && neg {
        out.push('-');
    }
    out.push_str(digits);
    if width > len {
        pad(out, ' ', width - len);
    }
}

/// The digits of `n` in `radix` (8, 10 or 16; hex in upper case with `upper`), written at the
/// end of `buf`.
fn u64_digits(buf: &mut [u8; 24], mut n: u64, radix: u64, upper: bool) -> &str {
    let hex: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = hex[(n % radix) as usize];
        n /= radix;
        if n == 0 {
            break;
        }
    }
    // only ASCII digits were written
    std::str::from_utf8(&buf[i..]).unwrap_or("")
}

/// `bytes % args`.
pub fn percent_format_bytes(vm: &mut Vm, fmt: &[u8], args: &Value) -> PyResult<Vec<u8>> {
    vm.charge(fmt.len() as u64 / 4)?;
    let pieces = pvm_text::percent::parse_percent_bytes(fmt);
    let s = percent_core(vm, pieces, args, true)?;
    Ok(pvm_text::percent::latin1_to_bytes(&s))
}

/// `str.format(*args, **kwargs)`
pub fn str_format(vm: &mut Vm, fmt: &str, args: &[Value], kw: &Kw) -> PyResult<String> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut auto = 0usize;
    vm.charge(chars.len() as u64 / 4)?;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            if i + 1 < chars.len() && chars[i + 1] == '{' {
                out.push('{');
                i += 2;
                continue;
            }
            // find matching }
            let mut depth = 1;
            let mut j = i + 1;
            while j < chars.len() && depth > 0 {
                if chars[j] == '{' {
                    depth += 1;
                } else if chars[j] == '}' {
                    depth -= 1;
                }
                j += 1;
            }
            if depth != 0 {
                return Err(vm.exc("ValueError", "expected '}' before end of string"));
            }
            let field: String = chars[i + 1..j - 1].iter().collect();
            i = j;
            // split field into name, conversion, spec
            let (name_conv, spec) = match field.find(':') {
                Some(p) => (field[..p].to_string(), field[p + 1..].to_string()),
                None => (field.clone(), String::new()),
            };
            let (name, conv) = match name_conv.find('!') {
                Some(p) => (
                    name_conv[..p].to_string(),
                    Some(name_conv[p + 1..].to_string()),
                ),
                None => (name_conv, None),
            };
            // resolve first part
            let first_end = name.find(['.', '[']).unwrap_or(name.len());
            let first = &name[..first_end];
            let mut v = if first.is_empty() {
                let v = args.get(auto).cloned().ok_or_else(|| {
                    vm.exc(
                        "IndexError",
                        format!("Replacement index {auto} out of range for positional args tuple"),
                    )
                })?;
                auto += 1;
                v
            } else if let Ok(n) = first.parse::<usize>() {
                args.get(n).cloned().ok_or_else(|| {
                    vm.exc(
                        "IndexError",
                        format!("Replacement index {n} out of range for positional args tuple"),
                    )
                })?
            } else {
                match kw.iter().find(|(k, _)| &**k == first) {
                    Some((_, v)) => v.clone(),
                    None => return Err(vm.exc_args("KeyError", vec![Value::str(first)])),
                }
            };
            let mut rest = &name[first_end..];
            while !rest.is_empty() {
                if let Some(r) = rest.strip_prefix('.') {
                    let end = r.find(['.', '[']).unwrap_or(r.len());
                    v = vm.get_attr(&v, &r[..end])?;
                    rest = &r[end..];
                } else if let Some(r) = rest.strip_prefix('[') {
                    let end = r
                        .find(']')
                        .ok_or_else(|| vm.exc("ValueError", "Missing ']' in format string"))?;
                    let key = &r[..end];
                    let k = match key.parse::<i64>() {
                        Ok(n) => Value::Int(n),
                        Err(_) => Value::str(key),
                    };
                    v = vm.getitem(&v, &k)?;
                    rest = &r[end + 1..];
                } else {
                    break;
                }
            }
            let v = match conv.as_deref() {
                Some("r") => Value::str(vm.repr(&v)?),
                Some("s") => Value::str(vm.to_str(&v)?),
                Some("a") => Value::str(crate::ops::ascii_of(&vm.repr(&v)?)),
                Some(c) => {
                    return Err(vm.exc("ValueError", format!("Unknown conversion specifier {c}")));
                }
                None => v,
            };
            let spec = if spec.contains('{') {
                // nested replacement fields in the spec
                let sub_args: Vec<Value> = args[auto.min(args.len())..].to_vec();
                let r = str_format(vm, &spec, &sub_args, kw)?;
                auto += spec.matches("{}").count();
                r
            } else {
                spec
            };
            out.push_str(&vm.format(&v, &spec)?);
        } else if c == '}' {
            if i + 1 < chars.len() && chars[i + 1] == '}' {
                out.push('}');
                i += 2;
                continue;
            }
            return Err(vm.exc("ValueError", "Single '}' encountered in format string"));
        } else {
            out.push(c);
            i += 1;
        }
    }
    Ok(out)
}

/// `import name`
impl Vm {
    /// Import a whitelisted module, charging the CIP-3 import cost (see [`crate::modules`]).
    pub fn import(&mut self, name: &str) -> PyResult<Value> {
        crate::modules::import(self, name)
    }
}

impl Vm {
    /// `CALL argc` of the built-in functions `len(x)` and `isinstance(x, classinfo)` and of
    /// the constructors of built-in types (`str(x)`, `int(s)`, ...) with positional arguments
    /// only, without building an argument vector (`len`, `isinstance`, `str` of an int or
    /// str) or without the generic call dispatch (the other constructors). Exactly what the
    /// general path (`call_push` -> [`Vm::call`] -> [`call_builtin`] / `instantiate_plain` ->
    /// [`construct`]) does: `CALL` charged first, the same result or error, the arguments
    /// dropped in order before the result is pushed and the callee after it. Returns
    /// Ok(false), having done nothing, for any other callee or argument count.
    #[inline]
    pub(crate) fn call_builtin_fast(&mut self, argc: u32) -> PyResult<bool> {
        let Some(f) = self.frames.last_mut() else {
            return Ok(false);
        };
        let at = f.stack.len() - argc as usize - 1;
        let is_len = match &f.stack[at] {
            Value::Builtin(b) if b.recv.is_none() => match (&b.kind, argc) {
                (BuiltinKind::Func("len"), 1) => true,
                (BuiltinKind::Func("isinstance"), 2) => false,
                _ => return Ok(false),
            },
            Value::Class(c) if c.builtin && c.kind != TypeKind::Exception => {
                return self.construct_fast(argc);
            }
            _ => return Ok(false),
        };
        let second = if argc == 2 { f.stack.pop() } else { None };
        let first = f.stack.pop().unwrap_or_default();
        let callee = f.stack.pop().unwrap_or_default();
        self.charge(cost::CALL)?;
        let r = if is_len {
            self.len(&first).map(|n| Value::Int(n as i64))
        } else {
            is_instance(self, &first, second.as_ref().unwrap_or(&Value::None)).map(Value::Bool)
        };
        drop(first);
        drop(second);
        let r = match r {
            Ok(r) => r,
            Err(e) => {
                drop(callee);
                return Err(e);
            }
        };
        if let Some(f) = self.frames.last_mut() {
            f.stack.push(r);
        }
        drop(callee);
        Ok(true)
    }

    /// `CALL argc` (at most two positional arguments) of a built-in type other than an
    /// exception: what `call` -> `instantiate` -> `instantiate_plain` do for it (`CALL`
    /// charged, then [`construct`]; a built-in class has no metaclass `__call__`), with
    /// `str(int)` and `str(str)` rendered without an intermediate `String`.
    fn construct_fast(&mut self, argc: u32) -> PyResult<bool> {
        let Some(f) = self.frames.last_mut() else {
            return Ok(false);
        };
        let at = f.stack.len() - argc as usize;
        let str_of_scalar = matches!(
            (&f.stack[at - 1], &f.stack[at..]),
            (Value::Class(c), [Value::Int(_) | Value::Str(_)]) if c.kind == TypeKind::Str
        );
        if str_of_scalar {
            let arg = f.stack.pop().unwrap_or_default();
            let callee = f.stack.pop();
            self.charge(cost::CALL)?;
            let mut buf = [0u8; 24];
            let r = match &arg {
                Value::Int(i) => Value::str(int::decimal_i64(&mut buf, *i)),
                Value::Str(s) => Value::str(s.s.as_str()),
                _ => Value::str(""),
            };
            drop(arg);
            if let Some(f) = self.frames.last_mut() {
                f.stack.push(r);
            }
            drop(callee);
            return Ok(true);
        }
        let args: Vec<Value> = f.stack.split_off(at);
        let callee = f.stack.pop().unwrap_or_default();
        let Value::Class(c) = &callee else {
            return Ok(false);
        };
        self.charge(cost::CALL)?;
        let r = construct(self, c, args, vec![])?;
        if let Some(f) = self.frames.last_mut() {
            f.stack.push(r);
        }
        drop(callee);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pvm_text::percent::{self as pc, PercentFlags, PercentFormat};

    fn tokens(fmt: &str) -> Result<Vec<FastTok>, ()> {
        let mut pos = 0;
        let mut out = Vec::new();
        while let Some(t) = fast_tok(fmt.as_bytes(), &mut pos) {
            out.push(t?);
        }
        Ok(out)
    }

    #[test]
    fn fast_tokenizer_takes_only_the_simple_shapes() {
        let conv = |left, zero, width, conv| {
            FastTok::Conv(FastConv {
                left,
                zero,
                width,
                conv,
            })
        };
        assert_eq!(
            tokens("a%%b%-05d|%s%0x"),
            Ok(vec![
                FastTok::Lit(0, 1),
                FastTok::Percent,
                FastTok::Lit(3, 4),
                conv(true, true, Some(5), b'd'),
                FastTok::Lit(9, 10),
                conv(false, false, None, b's'),
                conv(false, true, None, b'x'),
            ])
        );
        for bad in [
            "%", "%5", "%(k)s", "%+d", "% d", "%#x", "%*d", "%.2s", "%ld", "%f", "%r", "%-%",
            "%12345d",
        ] {
            assert_eq!(tokens(bad), Err(()), "{bad}");
        }
        assert!(tokens("%9999d").is_ok());
    }

    #[test]
    fn fast_rendering_matches_the_general_renderers() {
        let ints = [
            0i64,
            1,
            -1,
            7,
            -42,
            255,
            65535,
            -4096,
            123456789,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ];
        let strs = ["", "a", "héllo", "item_0042", "ünï©ødé and more"];
        for conv in [b's', b'd', b'i', b'x', b'X', b'o'] {
            for left in [false, true] {
                for zero in [false, true] {
                    for width in [None, Some(0), Some(1), Some(3), Some(6), Some(25)] {
                        let c = FastConv {
                            left,
                            zero,
                            width,
                            conv,
                        };
                        let f = PercentFormat {
                            flags: PercentFlags {
                                left,
                                zero,
                                ..PercentFlags::default()
                            },
                            width,
                            precision: None,
                            conv: conv as char,
                        };
                        for i in ints {
                            let mut out = String::from("pre");
                            render_fast_conv(&mut out, &Value::Int(i), c);
                            let want = if conv == b's' {
                                pc::format_percent_str(&i.to_string(), &f)
                            } else {
                                pc::format_percent_int(&BigInt::from(i), &f)
                            };
                            assert_eq!(out, format!("pre{want}"), "{i} {c:?}");
                        }
                        if conv == b's' {
                            for t in strs {
                                let mut out = String::new();
                                render_fast_conv(&mut out, &Value::str(t), c);
                                assert_eq!(out, pc::format_percent_str(t, &f), "{t} {c:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}
