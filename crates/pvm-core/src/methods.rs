//! Methods of the built-in types (str, bytes, list, tuple, dict, set, int, float, generator).

use crate::cost;
use crate::dict::Dict;
use crate::value::*;
use crate::vm::{Flow, GenStep, PyResult, Vm};
use std::rc::Rc;

type Kw = Vec<(Rc<str>, Value)>;

/// Receivers whose methods are implemented natively.
pub fn is_native_receiver(v: &Value) -> bool {
    matches!(
        v,
        Value::Str(_)
            | Value::List(_)
            | Value::Dict(_)
            | Value::Set(_)
            | Value::FrozenSet(_)
            | Value::Tuple(_)
            | Value::Bytes(_)
            | Value::ByteArray(_)
            | Value::Int(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::Generator(_)
            | Value::Range(_)
    )
}

/// Fetch argument `i` (positional) or keyword `name`.
pub fn arg(args: &[Value], kw: &Kw, i: usize, name: &str) -> Option<Value> {
    if let Some(v) = args.get(i) {
        return Some(v.clone());
    }
    kw.iter()
        .find(|(k, _)| &**k == name)
        .map(|(_, v)| v.clone())
}

const STR_METHODS: &[&str] = &[
    "join",
    "split",
    "rsplit",
    "strip",
    "lstrip",
    "rstrip",
    "upper",
    "lower",
    "replace",
    "startswith",
    "endswith",
    "find",
    "rfind",
    "index",
    "rindex",
    "count",
    "format",
    "splitlines",
    "partition",
    "rpartition",
    "center",
    "ljust",
    "rjust",
    "zfill",
    "title",
    "capitalize",
    "swapcase",
    "casefold",
    "isalpha",
    "isdigit",
    "isalnum",
    "isspace",
    "isupper",
    "islower",
    "isnumeric",
    "isdecimal",
    "isidentifier",
    "istitle",
    "isascii",
    "isprintable",
    "encode",
    "expandtabs",
    "removeprefix",
    "removesuffix",
    "translate",
    "maketrans",
];
const LIST_METHODS: &[&str] = &[
    "append", "extend", "pop", "insert", "remove", "index", "count", "sort", "reverse", "copy",
    "clear",
];
const DICT_METHODS: &[&str] = &[
    "get",
    "keys",
    "values",
    "items",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "copy",
    "clear",
    "fromkeys",
];
const SET_METHODS: &[&str] = &[
    "add",
    "remove",
    "discard",
    "pop",
    "clear",
    "copy",
    "union",
    "intersection",
    "difference",
    "symmetric_difference",
    "issubset",
    "issuperset",
    "isdisjoint",
    "update",
    "intersection_update",
    "difference_update",
    "symmetric_difference_update",
];

fn method_exists(v: &Value, name: &str) -> bool {
    match v {
        Value::Str(_) => STR_METHODS.contains(&name),
        Value::List(_) => LIST_METHODS.contains(&name),
        Value::Dict(_) => DICT_METHODS.contains(&name),
        Value::Set(_) | Value::FrozenSet(_) => SET_METHODS.contains(&name),
        Value::Tuple(_) => matches!(name, "index" | "count"),
        Value::Bytes(_) | Value::ByteArray(_) => matches!(
            name,
            "decode"
                | "hex"
                | "startswith"
                | "endswith"
                | "find"
                | "count"
                | "split"
                | "strip"
                | "join"
                | "replace"
                | "upper"
                | "lower"
                | "append"
                | "extend"
                | "index"
                | "fromhex"
                | "rstrip"
                | "lstrip"
                | "pop"
                | "rsplit"
                | "splitlines"
                | "partition"
                | "rpartition"
                | "removeprefix"
                | "removesuffix"
                | "center"
                | "ljust"
                | "rjust"
                | "zfill"
                | "expandtabs"
                | "swapcase"
                | "capitalize"
                | "title"
                | "isalpha"
                | "isalnum"
                | "isdigit"
                | "isspace"
                | "isascii"
                | "islower"
                | "isupper"
                | "istitle"
                | "rfind"
                | "rindex"
                | "translate"
                | "maketrans"
                | "insert"
                | "remove"
                | "reverse"
                | "clear"
                | "copy"
        ),
        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => matches!(
            name,
            "bit_length"
                | "to_bytes"
                | "conjugate"
                | "bit_count"
                | "as_integer_ratio"
                | "from_bytes"
        ),
        Value::Float(_) => matches!(
            name,
            "is_integer" | "hex" | "as_integer_ratio" | "conjugate" | "fromhex"
        ),
        Value::Generator(_) => matches!(name, "send" | "throw" | "close"),
        Value::Range(_) => matches!(name, "index" | "count"),
        _ => false,
    }
}

/// Attribute access on native values: bound built-in methods and data attributes.
pub fn native_attr(vm: &mut Vm, o: &Value, name: &str) -> PyResult<Value> {
    match (o, name) {
        (Value::Int(_) | Value::BigInt(_) | Value::Bool(_), "real" | "numerator") => {
            return Ok(match o {
                Value::Bool(b) => Value::Int(*b as i64),
                _ => o.clone(),
            });
        }
        (Value::Int(_) | Value::BigInt(_) | Value::Bool(_), "imag") => return Ok(Value::Int(0)),
        (Value::Int(_) | Value::BigInt(_) | Value::Bool(_), "denominator") => {
            return Ok(Value::Int(1));
        }
        (Value::Float(_), "real") => return Ok(o.clone()),
        (Value::Float(_), "imag") => return Ok(Value::Float(crate::float::F64::ZERO)),
        (Value::Range(r), "start" | "stop" | "step") if r.big.is_some() => {
            if let Some(v) = r.big.as_deref().and_then(|b| Vm::big_range_attr(b, name)) {
                return Ok(v);
            }
        }
        (Value::Range(r), "start") => return Ok(Value::Int(r.start)),
        (Value::Range(r), "stop") => return Ok(Value::Int(r.stop)),
        (Value::Range(r), "step") => return Ok(Value::Int(r.step)),
        (Value::Slice(s), "start") => return Ok(s.start.clone()),
        (Value::Slice(s), "stop") => return Ok(s.stop.clone()),
        (Value::Slice(s), "step") => return Ok(s.step.clone()),
        (Value::Generator(g), "__name__") => return Ok(Value::str(&*g.name)),
        (Value::Cell(c), "cell_contents") => {
            return match c.v.borrow().clone() {
                Some(v) => Ok(v),
                None => Err(vm.exc("ValueError", "Cell is empty")),
            };
        }
        (Value::Slice(_), "indices") => {
            return Ok(Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::Func("__slice_indices__"),
                recv: Some(o.clone()),
            })));
        }
        (Value::Builtin(b), "__name__") => {
            return Ok(Value::str(match &b.kind {
                BuiltinKind::Func(n) | BuiltinKind::Method(n) | BuiltinKind::ModuleFunc(_, n) => *n,
            }));
        }
        _ => {}
    }
    if method_exists(o, name)
        && let Some(n) = static_name(name)
    {
        return Ok(Value::Builtin(Rc::new(Builtin {
            kind: BuiltinKind::Method(n),
            recv: Some(o.clone()),
        })));
    }
    if is_native_receiver(o)
        && let Some(n) = NATIVE_DUNDERS.iter().find(|d| **d == name)
    {
        let numeric_only = matches!(
            *n,
            "__round__" | "__abs__" | "__neg__" | "__pos__" | "__int__" | "__float__" | "__index__"
        );
        let numeric = matches!(
            o,
            Value::Int(_) | Value::BigInt(_) | Value::Bool(_) | Value::Float(_)
        );
        let index_ok = *n != "__index__" || !matches!(o, Value::Float(_));
        if (!numeric_only || numeric) && index_ok {
            return Ok(Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::Method(n),
                recv: Some(o.clone()),
            })));
        }
    }
    Err(vm.exc(
        "AttributeError",
        format!("'{}' object has no attribute '{}'", vm.type_name(o), name),
    ))
}

fn static_name(name: &str) -> Option<&'static str> {
    for list in [STR_METHODS, LIST_METHODS, DICT_METHODS, SET_METHODS] {
        if let Some(n) = list.iter().find(|n| **n == name) {
            return Some(n);
        }
    }
    const OTHER: &[&str] = &[
        "index",
        "count",
        "decode",
        "hex",
        "bit_length",
        "to_bytes",
        "conjugate",
        "bit_count",
        "as_integer_ratio",
        "from_bytes",
        "is_integer",
        "send",
        "throw",
        "close",
        "fromhex",
        "append",
        "extend",
        "pop",
    ];
    OTHER.iter().find(|n| **n == name).copied()
}

/// `str.upper` style unbound method access on a built-in class.
pub fn unbound_method(_vm: &mut Vm, c: &Rc<Class>, name: &str) -> Option<Value> {
    let probe = match c.kind {
        TypeKind::Str => Value::str(""),
        TypeKind::List => Value::list(vec![]),
        TypeKind::Dict => Value::dict(Dict::new()),
        TypeKind::Int => Value::Int(0),
        TypeKind::Tuple => Value::tuple(vec![]),
        TypeKind::Bytes => Value::bytes(vec![]),
        TypeKind::ByteArray => Value::ByteArray(Rc::new(PyByteArray {
            b: std::cell::RefCell::new(vec![]),
            acct: crate::heap::Acct::new(40),
        })),
        TypeKind::Float => Value::Float(crate::float::F64::ZERO),
        _ => return None,
    };
    // `dict.__setitem__(self, k, v)` style calls (subclasses delegating to the built-in
    // behaviour) go through `native_dunder` on the receiver's native payload.
    let dunder = UNBOUND_DUNDERS.iter().find(|n| **n == name).copied();
    if dunder.is_none() && !method_exists(&probe, name) {
        return None;
    }
    let n = dunder.or_else(|| static_name(name))?;
    Some(Value::Builtin(Rc::new(Builtin {
        kind: BuiltinKind::ModuleFunc(type_tag(c.kind), n),
        recv: None,
    })))
}

/// Special methods of built-in types reachable unbound (`dict.__repr__`), see [`native_dunder`].
const UNBOUND_DUNDERS: &[&str] = &[
    "__len__",
    "__contains__",
    "__getitem__",
    "__setitem__",
    "__delitem__",
    "__iter__",
    "__repr__",
    "__str__",
    "__hash__",
    "__bool__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
];

fn type_tag(k: TypeKind) -> &'static str {
    match k {
        TypeKind::Str => "<str>",
        TypeKind::List => "<list>",
        TypeKind::Dict => "<dict>",
        TypeKind::Int => "<int>",
        TypeKind::Tuple => "<tuple>",
        TypeKind::Bytes => "<bytes>",
        TypeKind::ByteArray => "<bytearray>",
        TypeKind::Float => "<float>",
        _ => "<?>",
    }
}

fn str_arg(vm: &mut Vm, v: &Value, what: &str) -> PyResult<Rc<PyStr>> {
    match v {
        Value::Str(s) => Ok(s.clone()),
        _ => Err(vm.type_err(format!("{what} must be str, not {}", vm.type_name(v)))),
    }
}

fn opt_i64(vm: &mut Vm, v: Option<Value>) -> PyResult<Option<i64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(vm.to_index(&v)?)),
    }
}

fn text(vm: &Vm, e: pvm_text::TextError) -> Flow {
    crate::builtins::text_err(vm, e)
}

/// Call method `name` on a native receiver.
pub fn call_method(
    vm: &mut Vm,
    recv: &Value,
    name: &str,
    args: Vec<Value>,
    kw: Kw,
) -> PyResult<Value> {
    if name.starts_with("__")
        && name.ends_with("__")
        && let Some(r) = native_dunder(vm, recv, name, &args)?
    {
        return Ok(r);
    }
    match recv {
        Value::List(l) => list_method(vm, recv, l, name, args, kw),
        Value::Dict(d) => dict_method(vm, d, name, args, kw),
        Value::Str(s) => str_method(vm, s, name, &args, &kw),
        Value::Set(s) | Value::FrozenSet(s) => set_method(vm, recv, s, name, args, kw),
        Value::Tuple(t) => match name {
            "index" | "count" => {
                let x = arg(&args, &kw, 0, "value").ok_or_else(|| {
                    vm.type_err(format!("{name}() takes exactly one argument (0 given)"))
                })?;
                let n = t.v.len() as i64;
                let clamp = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) };
                let start = match args.get(1) {
                    Some(v) => clamp(vm.to_index(v)?),
                    None => 0,
                } as usize;
                let end = match args.get(2) {
                    Some(v) => clamp(vm.to_index(v)?),
                    None => n,
                } as usize;
                let mut c = 0;
                for (i, y) in t.v.iter().enumerate().take(end).skip(start) {
                    vm.charge(1)?;
                    if vm.eq_item(y, &x)? {
                        if name == "index" {
                            return Ok(Value::Int(i as i64));
                        }
                        c += 1;
                    }
                }
                if name == "index" {
                    return Err(vm.exc("ValueError", "tuple.index(x): x not in tuple"));
                }
                Ok(Value::Int(c))
            }
            _ => Err(no_method(vm, recv, name)),
        },
        Value::Generator(g) => {
            let g = g.clone();
            match name {
                "send" => {
                    let v = args.into_iter().next().unwrap_or_default();
                    match vm.gen_resume(&g, v, None)? {
                        GenStep::Yielded(v) => Ok(v),
                        GenStep::Returned(v) => Err(vm
                            .exc_args("StopIteration", if v.is_none() { vec![] } else { vec![v] })),
                    }
                }
                "throw" => {
                    let e = args.into_iter().next().unwrap_or_default();
                    let e = match e {
                        Value::Class(c) => vm.instantiate(&c, vec![], vec![])?,
                        e => e,
                    };
                    match vm.gen_resume(&g, Value::None, Some(e))? {
                        GenStep::Yielded(v) => Ok(v),
                        GenStep::Returned(v) => Err(vm
                            .exc_args("StopIteration", if v.is_none() { vec![] } else { vec![v] })),
                    }
                }
                "close" => {
                    vm.gen_close(&g)?;
                    Ok(Value::None)
                }
                _ => Err(no_method(vm, recv, name)),
            }
        }
        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => int_method(vm, recv, name, args, kw),
        Value::Float(f) => match name {
            "is_integer" => Ok(Value::Bool(f.is_integer())),
            "fromhex" => match args.first() {
                Some(Value::Str(s)) => crate::float::F64::from_hex(&s.s)
                    .map(Value::Float)
                    .map_err(|e| vm.float_err(e)),
                _ => Err(vm.type_err("fromhex() argument must be str")),
            },
            "hex" => Ok(Value::str(f.hex())),
            "conjugate" => Ok(recv.clone()),
            "as_integer_ratio" => {
                let (neg, n, d) = f.as_integer_ratio().map_err(|e| vm.float_err(e))?;
                let to_big = |limbs: &[u64], neg: bool| {
                    let mut b = num_bigint::BigInt::from(0);
                    for l in limbs.iter().rev() {
                        b = (b << 64) + num_bigint::BigInt::from(*l);
                    }
                    if neg { -b } else { b }
                };
                Ok(Value::tuple(vec![
                    crate::int::from_big(to_big(&n, neg)),
                    crate::int::from_big(to_big(&d, false)),
                ]))
            }
            _ => Err(no_method(vm, recv, name)),
        },
        Value::Bytes(_) | Value::ByteArray(_) => bytes_method(vm, recv, name, args, kw),
        Value::Range(r) => match name {
            "index" | "count" => {
                if !kw.is_empty() {
                    return Err(vm.type_err(format!("range.{name}() takes no keyword arguments")));
                }
                if args.len() != 1 {
                    return Err(vm.type_err(format!(
                        "range.{name}() takes exactly one argument ({} given)",
                        args.len()
                    )));
                }
                let x = args.into_iter().next().unwrap_or_default();
                if r.big.is_some() || !matches!(x, Value::Int(_)) {
                    return vm.range_index_count(r, &x, name == "count");
                }
                let has = vm.contains(recv, &x)?;
                if name == "count" {
                    return Ok(Value::Int(has as i64));
                }
                if !has {
                    let s = vm.repr(&x)?;
                    return Err(vm.exc("ValueError", format!("{s} is not in range")));
                }
                let Value::Int(i) = x else {
                    return Ok(Value::Int(0));
                };
                Ok(Value::Int((i - r.start) / r.step))
            }
            _ => Err(no_method(vm, recv, name)),
        },
        _ => Err(no_method(vm, recv, name)),
    }
}

/// Dunder methods of built-in values reachable as attributes (`(0.5).__round__`).
const NATIVE_DUNDERS: &[&str] = &[
    "__round__",
    "__abs__",
    "__neg__",
    "__pos__",
    "__int__",
    "__float__",
    "__index__",
    "__repr__",
    "__str__",
    "__hash__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__add__",
    "__sub__",
    "__mul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
];

/// `x.__len__()` style calls on built-in values.
fn native_dunder(vm: &mut Vm, recv: &Value, name: &str, args: &[Value]) -> PyResult<Option<Value>> {
    use crate::bytecode::{BinOp, CmpOp};
    let a0 = || args.first().cloned().unwrap_or_default();
    let bin = |op| -> Option<BinOp> { Some(op) };
    let op = match name {
        "__len__" => return Ok(Some(Value::Int(vm.len(recv)? as i64))),
        "__contains__" => return Ok(Some(Value::Bool(vm.contains(recv, &a0())?))),
        "__getitem__" => return Ok(Some(vm.getitem(recv, &a0())?)),
        "__setitem__" => {
            vm.setitem(recv, a0(), args.get(1).cloned().unwrap_or_default())?;
            return Ok(Some(Value::None));
        }
        "__delitem__" => {
            vm.delitem(recv, &a0())?;
            return Ok(Some(Value::None));
        }
        "__iter__" => return Ok(Some(vm.get_iter(recv)?)),
        "__repr__" => return Ok(Some(Value::str(vm.repr(recv)?))),
        "__str__" => return Ok(Some(Value::str(vm.to_str(recv)?))),
        "__hash__" => return Ok(Some(Value::Int(vm.hash_i64(recv)?))),
        "__bool__" => return Ok(Some(Value::Bool(vm.truthy(recv)?))),
        "__round__" => {
            let round = Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::Func("round"),
                recv: None,
            }));
            let mut a = vec![recv.clone()];
            a.extend(args.iter().cloned());
            return Ok(Some(vm.call(&round, a, vec![])?));
        }
        "__abs__" => {
            let f = Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::Func("abs"),
                recv: None,
            }));
            return Ok(Some(vm.call(&f, vec![recv.clone()], vec![])?));
        }
        "__neg__" => return Ok(Some(vm.unary_op(recv, crate::bytecode::UnOp::Neg)?)),
        "__pos__" => return Ok(Some(vm.unary_op(recv, crate::bytecode::UnOp::Pos)?)),
        "__int__" | "__index__" => {
            let c = vm.types.get(TypeKind::Int);
            return Ok(Some(crate::builtins::construct(
                vm,
                &c,
                vec![recv.clone()],
                vec![],
            )?));
        }
        "__float__" => return Ok(Some(Value::Float(vm.to_float(recv)?))),
        "__eq__" | "__ne__" | "__lt__" | "__le__" | "__gt__" | "__ge__" => {
            let c = match name {
                "__eq__" => CmpOp::Eq,
                "__ne__" => CmpOp::Ne,
                "__lt__" => CmpOp::Lt,
                "__le__" => CmpOp::Le,
                "__gt__" => CmpOp::Gt,
                _ => CmpOp::Ge,
            };
            return match vm.compare(recv, &a0(), c) {
                Ok(v) => Ok(Some(v)),
                Err(Flow::Exc(e)) if vm.isinstance_name(&e, "TypeError") => {
                    Ok(Some(Value::NotImplemented))
                }
                Err(e) => Err(e),
            };
        }
        "__add__" => bin(BinOp::Add),
        "__sub__" => bin(BinOp::Sub),
        "__mul__" => bin(BinOp::Mul),
        "__truediv__" => bin(BinOp::TrueDiv),
        "__floordiv__" => bin(BinOp::FloorDiv),
        "__mod__" => bin(BinOp::Mod),
        "__pow__" => bin(BinOp::Pow),
        "__and__" => bin(BinOp::And),
        "__or__" => bin(BinOp::Or),
        "__xor__" => bin(BinOp::Xor),
        "__lshift__" => bin(BinOp::LShift),
        "__rshift__" => bin(BinOp::RShift),
        _ => None,
    };
    match op {
        Some(op) => match vm.binary_op(recv, &a0(), op, false) {
            Ok(v) => Ok(Some(v)),
            Err(Flow::Exc(e)) if vm.isinstance_name(&e, "TypeError") => {
                Ok(Some(Value::NotImplemented))
            }
            Err(e) => Err(e),
        },
        None => Ok(None),
    }
}

fn no_method(vm: &Vm, recv: &Value, name: &str) -> Flow {
    vm.exc(
        "AttributeError",
        format!(
            "'{}' object has no attribute '{}'",
            vm.type_name(recv),
            name
        ),
    )
}

fn list_method(
    vm: &mut Vm,
    recv: &Value,
    l: &Rc<PyList>,
    name: &str,
    args: Vec<Value>,
    kw: Kw,
) -> PyResult<Value> {
    match name {
        "append" => {
            if args.len() != 1 {
                return Err(vm.type_err(format!(
                    "list.append() takes exactly one argument ({} given)",
                    args.len()
                )));
            }
            let v = args.into_iter().next().unwrap_or_default();
            vm.list_push(l, v)?;
            Ok(Value::None)
        }
        "extend" => {
            let v = args.into_iter().next().unwrap_or_default();
            let items = vm.collect(&v)?;
            for x in items {
                vm.list_push(l, x)?;
            }
            Ok(Value::None)
        }
        "pop" => {
            let i = opt_i64(vm, args.into_iter().next())?;
            let mut lv = l.v.borrow_mut();
            if lv.is_empty() {
                return Err(vm.exc("IndexError", "pop from empty list"));
            }
            let n = lv.len() as i64;
            let idx = match i {
                None => n - 1,
                Some(i) if i < 0 => i + n,
                Some(i) => i,
            };
            if idx < 0 || idx >= n {
                return Err(vm.exc("IndexError", "pop index out of range"));
            }
            if idx != n - 1 {
                drop(lv);
                vm.charge((n - idx) as u64 / 4)?;
                lv = l.v.borrow_mut();
            }
            Ok(lv.remove(idx as usize))
        }
        "insert" => {
            let mut it = args.into_iter();
            let i = it.next().unwrap_or_default();
            let v = it.next().unwrap_or_default();
            let i = vm.to_index(&i)?;
            let n = l.v.borrow().len() as i64;
            let idx = if i < 0 { (i + n).max(0) } else { i.min(n) };
            vm.charge((n - idx) as u64 / 4)?;
            vm.list_push(l, Value::None)?;
            let mut lv = l.v.borrow_mut();
            lv.pop();
            lv.insert(idx as usize, v);
            Ok(Value::None)
        }
        "remove" => {
            let x = args.into_iter().next().unwrap_or_default();
            let n = l.v.borrow().len();
            for i in 0..n {
                let y = match l.v.borrow().get(i) {
                    Some(y) => y.clone(),
                    None => break,
                };
                vm.charge(1)?;
                if vm.eq_item(&y, &x)? {
                    let r = l.v.borrow_mut().remove(i);
                    drop(r);
                    return Ok(Value::None);
                }
            }
            Err(vm.exc("ValueError", "list.remove(x): x not in list"))
        }
        "index" => {
            let x = args.first().cloned().unwrap_or_default();
            let n = l.v.borrow().len();
            let start = match args.get(1) {
                Some(v) => {
                    let s = vm.to_index(v)?;
                    if s < 0 {
                        (s + n as i64).max(0) as usize
                    } else {
                        s as usize
                    }
                }
                None => 0,
            };
            let end = match args.get(2) {
                Some(v) => {
                    let s = vm.to_index(v)?;
                    if s < 0 {
                        (s + n as i64).max(0) as usize
                    } else {
                        (s as usize).min(n)
                    }
                }
                None => n,
            };
            for i in start..end {
                let y = match l.v.borrow().get(i) {
                    Some(y) => y.clone(),
                    None => break,
                };
                vm.charge(1)?;
                if vm.eq_item(&y, &x)? {
                    return Ok(Value::Int(i as i64));
                }
            }
            let r = vm.repr(&x)?;
            Err(vm.exc("ValueError", format!("{r} is not in list")))
        }
        "count" => {
            let x = args.into_iter().next().unwrap_or_default();
            let items = l.v.borrow().clone();
            let mut c = 0;
            for y in &items {
                vm.charge(1)?;
                if vm.eq_item(y, &x)? {
                    c += 1;
                }
            }
            Ok(Value::Int(c))
        }
        "sort" => {
            if !args.is_empty() {
                return Err(vm.type_err("sort() takes no positional arguments"));
            }
            let key = kw
                .iter()
                .find(|(k, _)| &**k == "key")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let rev = match kw.iter().find(|(k, _)| &**k == "reverse") {
                Some((_, v)) => vm.truthy(v)?,
                None => false,
            };
            let items = std::mem::take(&mut *l.v.borrow_mut());
            let r = crate::builtins::sort_values(vm, items, &key, rev);
            match r {
                Ok(sorted) => {
                    if !l.v.borrow().is_empty() {
                        return Err(vm.exc("ValueError", "list modified during sort"));
                    }
                    *l.v.borrow_mut() = sorted;
                    Ok(Value::None)
                }
                Err(e) => Err(e),
            }
        }
        "reverse" => {
            l.v.borrow_mut().reverse();
            Ok(Value::None)
        }
        "copy" => {
            let v = l.v.borrow().clone();
            vm.charge(v.len() as u64)?;
            Ok(Value::list(v))
        }
        "clear" => {
            let v = std::mem::take(&mut *l.v.borrow_mut());
            drop(v);
            Ok(Value::None)
        }
        _ => Err(no_method(vm, recv, name)),
    }
}

fn dict_method(
    vm: &mut Vm,
    d: &Rc<PyDict>,
    name: &str,
    args: Vec<Value>,
    kw: Kw,
) -> PyResult<Value> {
    vm.charge(cost::DICT)?;
    let iter_of = |st: IterState| {
        Value::Iter(Rc::new(PyIter {
            st: std::cell::RefCell::new(st),
        }))
    };
    match name {
        "get" => {
            let k = args.first().cloned().unwrap_or_default();
            let default = args.get(1).cloned().unwrap_or_default();
            Ok(vm.dict_get(d, &k)?.unwrap_or(default))
        }
        "keys" => Ok(crate::builtins::view(vm, 0, d)),
        "values" => Ok(crate::builtins::view(vm, 1, d)),
        "items" => Ok(crate::builtins::view(vm, 2, d)),
        "pop" => {
            let k = args.first().cloned().unwrap_or_default();
            match vm.dict_del(&d.d, &k)? {
                Some(v) => Ok(v),
                None => match args.get(1) {
                    Some(x) => Ok(x.clone()),
                    None => Err(vm.exc_args("KeyError", vec![k])),
                },
            }
        }
        "popitem" => {
            let e = d.d.borrow_mut().pop_last();
            match e {
                Some(e) => Ok(Value::tuple(vec![e.key, e.value])),
                None => Err(vm.exc("KeyError", "popitem(): dictionary is empty")),
            }
        }
        "setdefault" => {
            let k = args.first().cloned().unwrap_or_default();
            let default = args.get(1).cloned().unwrap_or_default();
            match vm.dict_get(d, &k)? {
                Some(v) => Ok(v),
                None => {
                    vm.dict_setitem(d, k, default.clone())?;
                    Ok(default)
                }
            }
        }
        "update" => {
            if let Some(other) = args.first() {
                let pairs = match other {
                    Value::Dict(_) => vm.mapping_items(other)?,
                    Value::Instance(_) if vm.as_view(other).is_none() => vm.mapping_items(other)?,
                    _ => {
                        let items = vm.collect(other)?;
                        let mut out = Vec::new();
                        for it in items {
                            let kv = vm.collect(&it)?;
                            if kv.len() != 2 {
                                return Err(vm.exc("ValueError", format!("dictionary update sequence element #{} has length {}; 2 is required", out.len(), kv.len())));
                            }
                            let mut kv = kv.into_iter();
                            out.push((
                                kv.next().unwrap_or_default(),
                                kv.next().unwrap_or_default(),
                            ));
                        }
                        out
                    }
                };
                for (k, v) in pairs {
                    vm.dict_setitem(d, k, v)?;
                }
            }
            for (k, v) in kw {
                vm.dict_setitem(d, Value::str(&*k), v)?;
            }
            Ok(Value::None)
        }
        "copy" => {
            let c = d.d.borrow().clone();
            vm.charge(c.len() as u64)?;
            Ok(Value::dict(c))
        }
        "clear" => {
            let old = std::mem::take(&mut *d.d.borrow_mut());
            drop(old);
            Ok(Value::None)
        }
        "fromkeys" => {
            let keys = vm.collect(&args.first().cloned().unwrap_or_default())?;
            let v = args.get(1).cloned().unwrap_or_default();
            let mut nd = Dict::new();
            for k in keys {
                vm.dict_set(&mut nd, k, v.clone())?;
            }
            Ok(Value::dict(nd))
        }
        "__pvm_mapping_rest__" => {
            let keys = match args.first() {
                Some(Value::Tuple(t)) => t.v.to_vec(),
                _ => vec![],
            };
            let c = d.d.borrow().clone();
            let nd = Value::dict(c);
            if let Value::Dict(nd2) = &nd {
                for k in keys {
                    vm.dict_del(&nd2.d, &k)?;
                }
            }
            let _ = iter_of;
            Ok(nd)
        }
        _ => Err(no_method(vm, &Value::Dict(d.clone()), name)),
    }
}

fn set_method(
    vm: &mut Vm,
    recv: &Value,
    s: &Rc<PySet>,
    name: &str,
    args: Vec<Value>,
    _kw: Kw,
) -> PyResult<Value> {
    let frozen = matches!(recv, Value::FrozenSet(_));
    let mutating = matches!(
        name,
        "add"
            | "remove"
            | "discard"
            | "pop"
            | "clear"
            | "update"
            | "intersection_update"
            | "difference_update"
            | "symmetric_difference_update"
    );
    if frozen && mutating {
        return Err(no_method(vm, recv, name));
    }
    match name {
        "add" => {
            vm.set_add(s, args.into_iter().next().unwrap_or_default())?;
            Ok(Value::None)
        }
        "remove" | "discard" => {
            let k = args.into_iter().next().unwrap_or_default();
            match vm.dict_del(&s.d, &k)? {
                Some(_) => Ok(Value::None),
                None => {
                    if name == "remove" {
                        Err(vm.exc_args("KeyError", vec![k]))
                    } else {
                        Ok(Value::None)
                    }
                }
            }
        }
        "pop" => {
            let e = s.d.borrow_mut().pop_first();
            match e {
                Some(e) => Ok(e.key),
                None => Err(vm.exc("KeyError", "pop from an empty set")),
            }
        }
        "clear" => {
            let old = std::mem::take(&mut *s.d.borrow_mut());
            drop(old);
            Ok(Value::None)
        }
        "copy" => {
            let c = s.d.borrow().clone();
            let ns = Rc::new(PySet {
                d: std::cell::RefCell::new(c),
            });
            crate::heap::register(crate::heap::Tracked::Set(Rc::downgrade(&ns)));
            Ok(if frozen {
                Value::FrozenSet(ns)
            } else {
                Value::Set(ns)
            })
        }
        "union"
        | "intersection"
        | "difference"
        | "symmetric_difference"
        | "update"
        | "intersection_update"
        | "difference_update"
        | "symmetric_difference_update" => {
            let op = match name {
                "union" | "update" => crate::bytecode::BinOp::Or,
                "intersection" | "intersection_update" => crate::bytecode::BinOp::And,
                "difference" | "difference_update" => crate::bytecode::BinOp::Sub,
                _ => crate::bytecode::BinOp::Xor,
            };
            let mut acc = recv.clone();
            if args.is_empty() {
                let c = s.d.borrow().clone();
                let ns = Rc::new(PySet {
                    d: std::cell::RefCell::new(c),
                });
                acc = if frozen {
                    Value::FrozenSet(ns)
                } else {
                    Value::Set(ns)
                };
            }
            for a in &args {
                let items = vm.collect(a)?;
                let other = vm.new_set(items)?;
                acc = vm.binary_op(&acc, &other, op, false)?;
            }
            if name.ends_with("update") {
                if let Value::Set(r) = &acc
                    && !Rc::ptr_eq(r, s)
                {
                    let d = r.d.borrow().clone();
                    *s.d.borrow_mut() = d;
                }
                return Ok(Value::None);
            }
            Ok(acc)
        }
        "issubset" | "issuperset" | "isdisjoint" => {
            let items = vm.collect(&args.into_iter().next().unwrap_or_default())?;
            let other = vm.new_set(items)?;
            match name {
                "issubset" => vm.compare(recv, &other, crate::bytecode::CmpOp::Le),
                "issuperset" => vm.compare(recv, &other, crate::bytecode::CmpOp::Ge),
                _ => {
                    let inter = vm.binary_op(recv, &other, crate::bytecode::BinOp::And, false)?;
                    Ok(Value::Bool(vm.len(&inter)? == 0))
                }
            }
        }
        _ => Err(no_method(vm, recv, name)),
    }
}

fn int_method(vm: &mut Vm, recv: &Value, name: &str, args: Vec<Value>, kw: Kw) -> PyResult<Value> {
    match name {
        "bit_length" | "bit_count" | "conjugate" | "as_integer_ratio" if !args.is_empty() => {
            Err(vm.type_err(format!(
                "int.{name}() takes no arguments ({} given)",
                args.len()
            )))
        }
        "bit_length" => Ok(Value::Int(crate::int::bits(recv) as i64)),
        "bit_count" => {
            let b = crate::int::to_big(recv).unwrap_or_default();
            let n: u64 = b
                .magnitude()
                .to_u64_digits()
                .iter()
                .map(|d| d.count_ones() as u64)
                .sum();
            Ok(Value::Int(n as i64))
        }
        "conjugate" => Ok(match recv {
            Value::Bool(b) => Value::Int(*b as i64),
            v => v.clone(),
        }),
        "as_integer_ratio" => Ok(Value::tuple(vec![recv.clone(), Value::Int(1)])),
        "from_bytes" => {
            let data = match arg(&args, &kw, 0, "bytes") {
                Some(Value::Bytes(b)) => b.b.to_vec(),
                Some(Value::ByteArray(b)) => b.b.borrow().clone(),
                Some(v) => {
                    let items = vm.collect(&v)?;
                    let mut out = Vec::new();
                    for it in items {
                        out.push(vm.to_index(&it)? as u8);
                    }
                    out
                }
                None => {
                    return Err(
                        vm.type_err("from_bytes() missing required argument 'bytes' (pos 1)")
                    );
                }
            };
            let order = arg(&args, &kw, 1, "byteorder").unwrap_or_else(|| Value::str("big"));
            let signed = match kw.iter().find(|(k, _)| &**k == "signed") {
                Some((_, v)) => vm.truthy(v)?,
                None => false,
            };
            if data.len() * 8 > crate::int::MAX_BITS as usize + 8 {
                return Err(vm.int_err(crate::int::IntError::Overflow));
            }
            let big = matches!(&order, Value::Str(s) if &*s.s == "big");
            let b = if big {
                if signed {
                    num_bigint::BigInt::from_signed_bytes_be(&data)
                } else {
                    num_bigint::BigInt::from_bytes_be(num_bigint::Sign::Plus, &data)
                }
            } else if signed {
                num_bigint::BigInt::from_signed_bytes_le(&data)
            } else {
                num_bigint::BigInt::from_bytes_le(num_bigint::Sign::Plus, &data)
            };
            crate::int::checked(b).map_err(|e| vm.int_err(e))
        }
        "to_bytes" => {
            let length = arg(&args, &kw, 0, "length").unwrap_or(Value::Int(1));
            let length = vm.to_index(&length)?.max(0) as usize;
            let order = arg(&args, &kw, 1, "byteorder").unwrap_or_else(|| Value::str("big"));
            let signed = match kw.iter().find(|(k, _)| &**k == "signed") {
                Some((_, v)) => vm.truthy(v)?,
                None => false,
            };
            let b = crate::int::to_big(recv).unwrap_or_default();
            if b.sign() == num_bigint::Sign::Minus && !signed {
                return Err(vm.exc("OverflowError", "can't convert negative int to unsigned"));
            }
            let mut bytes = if signed {
                b.to_signed_bytes_le()
            } else {
                b.to_bytes_le().1
            };
            if b.sign() == num_bigint::Sign::NoSign {
                bytes = vec![];
            }
            if bytes.len() > length {
                return Err(vm.exc("OverflowError", "int too big to convert"));
            }
            let fill = if signed && b.sign() == num_bigint::Sign::Minus {
                0xff
            } else {
                0
            };
            bytes.resize(length, fill);
            let big = matches!(&order, Value::Str(s) if &*s.s == "big");
            if big {
                bytes.reverse();
            }
            Ok(Value::bytes(bytes))
        }
        _ => Err(no_method(vm, recv, name)),
    }
}

fn bytes_method(
    vm: &mut Vm,
    recv: &Value,
    name: &str,
    args: Vec<Value>,
    kw: Kw,
) -> PyResult<Value> {
    let data: Vec<u8> = match recv {
        Value::Bytes(b) => b.b.to_vec(),
        Value::ByteArray(b) => b.b.borrow().clone(),
        _ => vec![],
    };
    vm.charge(data.len() as u64 / 8)?;
    if let Some(r) = bytes_text_method(vm, recv, &data, name, &args, &kw)? {
        return Ok(r);
    }
    let as_bytes = |vm: &Vm, v: &Value| -> PyResult<Vec<u8>> {
        match v {
            Value::Bytes(b) => Ok(b.b.to_vec()),
            Value::ByteArray(b) => Ok(b.b.borrow().clone()),
            _ => Err(vm.type_err(format!(
                "a bytes-like object is required, not '{}'",
                vm.type_name(v)
            ))),
        }
    };
    match name {
        "decode" => {
            vm.charge(cost::ENCODE_BASE + data.len() as u64)?;
            match String::from_utf8(data) {
                Ok(s) => Ok(Value::str(s)),
                Err(e) => {
                    let pos = e.utf8_error().valid_up_to();
                    let bytes = e.as_bytes();
                    let byte = bytes[pos];
                    let (end, reason) = match e.utf8_error().error_len() {
                        None => (bytes.len(), "unexpected end of data"),
                        Some(n) => {
                            let start_ok = matches!(byte, 0xC2..=0xF4);
                            (
                                pos + n,
                                if start_ok {
                                    "invalid continuation byte"
                                } else {
                                    "invalid start byte"
                                },
                            )
                        }
                    };
                    let obj = Value::bytes(bytes.to_vec());
                    Err(vm.exc_args(
                        "UnicodeDecodeError",
                        vec![
                            Value::str("utf-8"),
                            obj,
                            Value::Int(pos as i64),
                            Value::Int(end as i64),
                            Value::str(reason),
                        ],
                    ))
                }
            }
        }
        "hex" => {
            let sep = match args.first() {
                Some(Value::Str(s)) => s.s.to_string(),
                Some(Value::Bytes(b)) => String::from_utf8_lossy(&b.b).into_owned(),
                _ => String::new(),
            };
            let per = match args.get(1) {
                Some(v) => vm.to_index(v)?,
                None => 1,
            };
            let hex: Vec<String> = data.iter().map(|b| format!("{b:02x}")).collect();
            if sep.is_empty() || per == 0 {
                return Ok(Value::str(hex.concat()));
            }
            let n = per.unsigned_abs() as usize;
            let mut groups: Vec<String> = Vec::new();
            if per > 0 {
                // groups counted from the right
                let first = hex.len() % n;
                if first > 0 {
                    groups.push(hex[..first].concat());
                }
                for c in hex[first..].chunks(n) {
                    groups.push(c.concat());
                }
            } else {
                for c in hex.chunks(n) {
                    groups.push(c.concat());
                }
            }
            Ok(Value::str(groups.join(&sep)))
        }
        "fromhex" => {
            let s = match args.first() {
                Some(Value::Str(s)) => s.s.to_string(),
                _ => return Err(vm.type_err("fromhex() argument must be str")),
            };
            let digits: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
            if !digits.len().is_multiple_of(2) || !digits.iter().all(|c| c.is_ascii_hexdigit()) {
                let pos = s
                    .bytes()
                    .position(|c| !c.is_ascii_hexdigit() && !c.is_ascii_whitespace())
                    .unwrap_or(s.len());
                return Err(vm.exc(
                    "ValueError",
                    format!("non-hexadecimal number found in fromhex() arg at position {pos}"),
                ));
            }
            let out: Vec<u8> = digits
                .chunks(2)
                .map(|p| {
                    let h = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                    h(p[0]) * 16 + h(p[1])
                })
                .collect();
            if matches!(recv, Value::ByteArray(_)) {
                let n = out.len();
                return Ok(Value::ByteArray(Rc::new(PyByteArray {
                    b: std::cell::RefCell::new(out),
                    acct: crate::heap::Acct::new(n + 40),
                })));
            }
            Ok(Value::bytes(out))
        }
        "startswith" | "endswith" => {
            if let Some(Value::Tuple(t)) = args.first() {
                for c in t.v.iter() {
                    let p = as_bytes(vm, c)?;
                    if (name == "startswith" && data.starts_with(&p))
                        || (name == "endswith" && data.ends_with(&p))
                    {
                        return Ok(Value::Bool(true));
                    }
                }
                return Ok(Value::Bool(false));
            }
            let p = as_bytes(vm, &args.first().cloned().unwrap_or_default())?;
            Ok(Value::Bool(if name == "startswith" {
                data.starts_with(&p)
            } else {
                data.ends_with(&p)
            }))
        }
        "find" | "index" => {
            let p = as_bytes(vm, &args.first().cloned().unwrap_or_default())?;
            let pos = if p.is_empty() {
                Some(0)
            } else {
                data.windows(p.len()).position(|w| w == &p[..])
            };
            match pos {
                Some(i) => Ok(Value::Int(i as i64)),
                None if name == "find" => Ok(Value::Int(-1)),
                None => Err(vm.exc("ValueError", "subsection not found")),
            }
        }
        "count" => {
            let p = as_bytes(vm, &args.first().cloned().unwrap_or_default())?;
            if p.is_empty() {
                return Ok(Value::Int(data.len() as i64 + 1));
            }
            let mut c = 0;
            let mut i = 0;
            while i + p.len() <= data.len() {
                if data[i..i + p.len()] == p[..] {
                    c += 1;
                    i += p.len();
                } else {
                    i += 1;
                }
            }
            Ok(Value::Int(c))
        }
        "upper" => Ok(Value::bytes(data.to_ascii_uppercase())),
        "lower" => Ok(Value::bytes(data.to_ascii_lowercase())),
        "strip" | "lstrip" | "rstrip" => {
            let ws = |b: &u8| b" \t\n\r\x0b\x0c".contains(b);
            let mut s = 0;
            let mut e = data.len();
            if name != "rstrip" {
                while s < e && ws(&data[s]) {
                    s += 1;
                }
            }
            if name != "lstrip" {
                while e > s && ws(&data[e - 1]) {
                    e -= 1;
                }
            }
            Ok(Value::bytes(data[s..e].to_vec()))
        }
        "split" => {
            let sep = match args.first() {
                Some(v) if !v.is_none() => Some(as_bytes(vm, v)?),
                _ => None,
            };
            let parts: Vec<Value> = match sep {
                Some(sep) if !sep.is_empty() => {
                    let mut out = Vec::new();
                    let mut start = 0;
                    let mut i = 0;
                    while i + sep.len() <= data.len() {
                        if data[i..i + sep.len()] == sep[..] {
                            out.push(Value::bytes(data[start..i].to_vec()));
                            i += sep.len();
                            start = i;
                        } else {
                            i += 1;
                        }
                    }
                    out.push(Value::bytes(data[start..].to_vec()));
                    out
                }
                Some(_) => return Err(vm.exc("ValueError", "empty separator")),
                None => data
                    .split(|b| b" \t\n\r\x0b\x0c".contains(b))
                    .filter(|p| !p.is_empty())
                    .map(|p| Value::bytes(p.to_vec()))
                    .collect(),
            };
            Ok(Value::list(parts))
        }
        "join" => {
            let items = vm.collect(&args.first().cloned().unwrap_or_default())?;
            let mut out = Vec::new();
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(&data);
                }
                out.extend(as_bytes(vm, it)?);
            }
            Ok(Value::bytes(out))
        }
        "replace" => {
            let old = as_bytes(vm, &args.first().cloned().unwrap_or_default())?;
            let new = as_bytes(vm, &args.get(1).cloned().unwrap_or_default())?;
            let mut out = Vec::new();
            let mut i = 0;
            if old.is_empty() {
                return Ok(Value::bytes(data));
            }
            while i < data.len() {
                if i + old.len() <= data.len() && data[i..i + old.len()] == old[..] {
                    out.extend_from_slice(&new);
                    i += old.len();
                } else {
                    out.push(data[i]);
                    i += 1;
                }
            }
            Ok(Value::bytes(out))
        }
        "append" | "extend" | "pop" => {
            let Value::ByteArray(b) = recv else {
                return Err(no_method(vm, recv, name));
            };
            match name {
                "append" => {
                    let x = vm.to_index(&args.first().cloned().unwrap_or_default())?;
                    if !(0..256).contains(&x) {
                        return Err(vm.exc("ValueError", "byte must be in range(0, 256)"));
                    }
                    b.b.borrow_mut().push(x as u8);
                    Ok(Value::None)
                }
                "extend" => {
                    let items = vm.collect(&args.first().cloned().unwrap_or_default())?;
                    for it in items {
                        let x = vm.to_index(&it)?;
                        b.b.borrow_mut().push(x as u8);
                    }
                    Ok(Value::None)
                }
                _ if !args.is_empty() => {
                    let i = vm.to_index(&args[0])?;
                    let n = b.b.borrow().len() as i64;
                    let idx = if i < 0 { i + n } else { i };
                    if n == 0 {
                        return Err(vm.exc("IndexError", "pop from empty bytearray"));
                    }
                    if idx < 0 || idx >= n {
                        return Err(vm.exc("IndexError", "pop index out of range"));
                    }
                    Ok(Value::Int(b.b.borrow_mut().remove(idx as usize) as i64))
                }
                _ => match b.b.borrow_mut().pop() {
                    Some(x) => Ok(Value::Int(x as i64)),
                    None => Err(vm.exc("IndexError", "pop from empty bytearray")),
                },
            }
        }
        _ => Err(no_method(vm, recv, name)),
    }
}

/// Same type as the receiver (bytes or bytearray).
fn same_bytes(recv: &Value, v: Vec<u8>) -> Value {
    match recv {
        Value::ByteArray(_) => {
            let n = v.len();
            Value::ByteArray(Rc::new(PyByteArray {
                b: std::cell::RefCell::new(v),
                acct: crate::heap::Acct::new(n + 40),
            }))
        }
        _ => Value::bytes(v),
    }
}

fn bytes_arg(vm: &Vm, v: &Value) -> PyResult<Vec<u8>> {
    match v {
        Value::Bytes(b) => Ok(b.b.to_vec()),
        Value::ByteArray(b) => Ok(b.b.borrow().clone()),
        _ => Err(vm.type_err(format!(
            "a bytes-like object is required, not '{}'",
            vm.type_name(v)
        ))),
    }
}

/// bytes/bytearray methods backed by `pvm_text::bytes_methods`.
fn bytes_text_method(
    vm: &mut Vm,
    recv: &Value,
    d: &[u8],
    name: &str,
    args: &[Value],
    kw: &Kw,
) -> PyResult<Option<Value>> {
    use pvm_text::bytes_methods as bm;
    let opt_bytes = |vm: &Vm, i: usize, n: &str| -> PyResult<Option<Vec<u8>>> {
        match arg(args, kw, i, n) {
            None | Some(Value::None) => Ok(None),
            Some(v) => Ok(Some(bytes_arg(vm, &v)?)),
        }
    };
    let width_fill = |vm: &mut Vm| -> PyResult<(i64, u8)> {
        let w = vm.to_index(&arg(args, kw, 0, "width").unwrap_or_default())?;
        vm.check_mem(w.max(0) as usize)?;
        let fill = match arg(args, kw, 1, "fillchar") {
            Some(v) => {
                let b = bytes_arg(vm, &v)?;
                if b.len() != 1 {
                    return Err(vm.type_err("argument 2 must be a byte string of length 1"));
                }
                b[0]
            }
            None => b' ',
        };
        Ok((w, fill))
    };
    let list = |parts: Vec<&[u8]>| {
        Value::list(
            parts
                .into_iter()
                .map(|p| same_bytes(recv, p.to_vec()))
                .collect(),
        )
    };
    let terr = |vm: &Vm, e| crate::builtins::text_err(vm, e);
    Ok(Some(match name {
        "split" | "rsplit" => {
            let sep = opt_bytes(vm, 0, "sep")?;
            let maxsplit = opt_i64(vm, arg(args, kw, 1, "maxsplit"))?.unwrap_or(-1);
            let parts = if name == "split" {
                bm::split(d, sep.as_deref(), maxsplit)
            } else {
                bm::rsplit(d, sep.as_deref(), maxsplit)
            };
            list(parts.map_err(|e| terr(vm, e))?)
        }
        "splitlines" => {
            let keep = match arg(args, kw, 0, "keepends") {
                Some(v) => vm.truthy(&v)?,
                None => false,
            };
            list(bm::splitlines(d, keep))
        }
        "strip" | "lstrip" | "rstrip" => {
            let chars = opt_bytes(vm, 0, "chars")?;
            let r = match name {
                "strip" => bm::strip(d, chars.as_deref()),
                "lstrip" => bm::lstrip(d, chars.as_deref()),
                _ => bm::rstrip(d, chars.as_deref()),
            };
            same_bytes(recv, r.to_vec())
        }
        "partition" | "rpartition" => {
            let sep = bytes_arg(vm, &arg(args, kw, 0, "sep").unwrap_or_default())?;
            let p = if name == "partition" {
                bm::partition(d, &sep)
            } else {
                bm::rpartition(d, &sep)
            }
            .map_err(|e| terr(vm, e))?;
            let (a, b, c) = p;
            Value::tuple(vec![
                same_bytes(recv, a.to_vec()),
                same_bytes(recv, b.to_vec()),
                same_bytes(recv, c.to_vec()),
            ])
        }
        "removeprefix" | "removesuffix" => {
            let p = bytes_arg(vm, &arg(args, kw, 0, "prefix").unwrap_or_default())?;
            same_bytes(
                recv,
                if name == "removeprefix" {
                    bm::removeprefix(d, &p)
                } else {
                    bm::removesuffix(d, &p)
                }
                .to_vec(),
            )
        }
        "center" | "ljust" | "rjust" => {
            let (w, f) = width_fill(vm)?;
            same_bytes(
                recv,
                match name {
                    "center" => bm::center(d, w, f),
                    "ljust" => bm::ljust(d, w, f),
                    _ => bm::rjust(d, w, f),
                },
            )
        }
        "zfill" => {
            let w = vm.to_index(&arg(args, kw, 0, "width").unwrap_or_default())?;
            vm.check_mem(w.max(0) as usize)?;
            same_bytes(recv, bm::zfill(d, w))
        }
        "expandtabs" => {
            let t = opt_i64(vm, arg(args, kw, 0, "tabsize"))?.unwrap_or(8);
            vm.check_mem(d.len().saturating_mul(t.max(1) as usize))?;
            same_bytes(recv, bm::expandtabs(d, t))
        }
        "upper" => same_bytes(recv, bm::upper(d)),
        "lower" => same_bytes(recv, bm::lower(d)),
        "swapcase" => same_bytes(recv, bm::swapcase(d)),
        "capitalize" => same_bytes(recv, bm::capitalize(d)),
        "title" => same_bytes(recv, bm::title(d)),
        "isalpha" => Value::Bool(bm::isalpha(d)),
        "isalnum" => Value::Bool(bm::isalnum(d)),
        "isdigit" => Value::Bool(bm::isdigit(d)),
        "isspace" => Value::Bool(bm::isspace(d)),
        "isascii" => Value::Bool(bm::isascii(d)),
        "islower" => Value::Bool(bm::islower(d)),
        "isupper" => Value::Bool(bm::isupper(d)),
        "istitle" => Value::Bool(bm::istitle(d)),
        "find" | "rfind" | "index" | "rindex" | "count" => {
            let sub = match arg(args, kw, 0, "sub").unwrap_or_default() {
                Value::Int(i) if (0..256).contains(&i) => vec![i as u8],
                v => bytes_arg(vm, &v)?,
            };
            let start = opt_i64(vm, arg(args, kw, 1, "start"))?;
            let end = opt_i64(vm, arg(args, kw, 2, "end"))?;
            match name {
                "count" => Value::Int(bm::count(d, &sub, start, end) as i64),
                "find" | "index" => match bm::find(d, &sub, start, end) {
                    Some(i) => Value::Int(i as i64),
                    None if name == "find" => Value::Int(-1),
                    None => return Err(vm.exc("ValueError", "subsection not found")),
                },
                _ => match bm::rfind(d, &sub, start, end) {
                    Some(i) => Value::Int(i as i64),
                    None if name == "rfind" => Value::Int(-1),
                    None => return Err(vm.exc("ValueError", "subsection not found")),
                },
            }
        }
        "replace" => {
            let old = bytes_arg(vm, &arg(args, kw, 0, "old").unwrap_or_default())?;
            let new = bytes_arg(vm, &arg(args, kw, 1, "new").unwrap_or_default())?;
            let count = opt_i64(vm, arg(args, kw, 2, "count"))?.unwrap_or(-1);
            let est = if old.is_empty() {
                (d.len() + 1) * new.len() + d.len()
            } else {
                (d.len() / old.len() + 1) * new.len().max(old.len())
            };
            vm.check_mem(est)?;
            same_bytes(recv, bm::replace(d, &old, &new, count))
        }
        "translate" => {
            let table = match arg(args, kw, 0, "table") {
                None | Some(Value::None) => None,
                Some(v) => {
                    let t = bytes_arg(vm, &v)?;
                    if t.len() != 256 {
                        return Err(vm.exc(
                            "ValueError",
                            "translation table must be 256 characters long",
                        ));
                    }
                    let mut arr = [0u8; 256];
                    arr.copy_from_slice(&t);
                    Some(arr)
                }
            };
            let delete = opt_bytes(vm, 1, "delete")?.unwrap_or_default();
            same_bytes(recv, bm::translate(d, table.as_ref(), &delete))
        }
        "maketrans" => {
            let a = bytes_arg(vm, &arg(args, kw, 0, "from").unwrap_or_default())?;
            let b = bytes_arg(vm, &arg(args, kw, 1, "to").unwrap_or_default())?;
            let t = bm::maketrans(&a, &b).map_err(|e| terr(vm, e))?;
            Value::bytes(t.to_vec())
        }
        "insert" => {
            let Value::ByteArray(ba) = recv else {
                return Ok(None);
            };
            let i = vm.to_index(&args.first().cloned().unwrap_or_default())?;
            let x = vm.to_index(&args.get(1).cloned().unwrap_or_default())?;
            if !(0..256).contains(&x) {
                return Err(vm.exc("ValueError", "byte must be in range(0, 256)"));
            }
            let n = ba.b.borrow().len() as i64;
            let idx = if i < 0 { (i + n).max(0) } else { i.min(n) };
            ba.b.borrow_mut().insert(idx as usize, x as u8);
            Value::None
        }
        "remove" => {
            let Value::ByteArray(ba) = recv else {
                return Ok(None);
            };
            let x = vm.to_index(&args.first().cloned().unwrap_or_default())?;
            let pos = ba.b.borrow().iter().position(|b| *b as i64 == x);
            match pos {
                Some(p) => {
                    ba.b.borrow_mut().remove(p);
                    Value::None
                }
                None => return Err(vm.exc("ValueError", "value not found in bytearray")),
            }
        }
        "reverse" => {
            let Value::ByteArray(ba) = recv else {
                return Ok(None);
            };
            ba.b.borrow_mut().reverse();
            Value::None
        }
        "clear" => {
            let Value::ByteArray(ba) = recv else {
                return Ok(None);
            };
            ba.b.borrow_mut().clear();
            Value::None
        }
        "copy" => {
            let Value::ByteArray(_) = recv else {
                return Ok(None);
            };
            same_bytes(recv, d.to_vec())
        }
        _ => return Ok(None),
    }))
}

/// `sep.join(seq)` for a list or tuple `seq`: exactly what the general `join` does after
/// collecting the items (the collection charge of one cycle per item, the `TypeError` for the
/// first non-str item, a heap check after each item once the text exceeds 64 KiB, which fails
/// at the same item because nothing else changes the heap meanwhile, then the output charge),
/// but reading the items in place (nothing can change them: no user code runs) and building
/// the text at its final size.
fn join_seq(vm: &mut Vm, sep: &str, seq: &Value) -> PyResult<String> {
    match seq {
        Value::List(l) => {
            let items = l.v.borrow();
            vm.charge(items.len() as u64)?;
            join_items(vm, sep, &items)
        }
        Value::Tuple(t) => {
            vm.charge(t.v.len() as u64)?;
            join_items(vm, sep, &t.v)
        }
        _ => Ok(String::new()),
    }
}

/// The checks and the text of `sep.join(items)` (see [`join_seq`]).
fn join_items(vm: &mut Vm, sep: &str, items: &[Value]) -> PyResult<String> {
    let mut total = 0usize;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            total += sep.len();
        }
        match x {
            Value::Str(p) => total += p.s.len(),
            _ => {
                return Err(vm.type_err(format!(
                    "sequence item {i}: expected str instance, {} found",
                    vm.type_name(x)
                )));
            }
        }
        if total > 1 << 16 {
            vm.check_mem(total)?;
        }
    }
    let mut out = String::with_capacity(total);
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        if let Value::Str(p) = x {
            out.push_str(&p.s);
        }
    }
    vm.charge(out.len() as u64 / 4)?;
    Ok(out)
}

fn str_method(vm: &mut Vm, s: &Rc<PyStr>, name: &str, args: &[Value], kw: &Kw) -> PyResult<Value> {
    use pvm_text::str_methods as sm;
    let st: &str = &s.s;
    let n = st.len() as u64;
    vm.charge(n * cost::PER_CHAR / 4)?;
    let sarg = |vm: &mut Vm, i: usize, nm: &str| -> PyResult<Option<Rc<PyStr>>> {
        match arg(args, kw, i, nm) {
            None | Some(Value::None) => Ok(None),
            Some(v) => Ok(Some(str_arg(vm, &v, "argument")?)),
        }
    };
    Ok(match name {
        "join" => {
            let it = arg(args, kw, 0, "iterable").unwrap_or_default();
            if let Value::List(_) | Value::Tuple(_) = &it {
                return join_seq(vm, st, &it).map(Value::str);
            }
            let items = vm.collect(&it)?;
            let mut out = String::new();
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(st);
                }
                match x {
                    Value::Str(p) => out.push_str(&p.s),
                    _ => {
                        return Err(vm.type_err(format!(
                            "sequence item {i}: expected str instance, {} found",
                            vm.type_name(x)
                        )));
                    }
                }
                if out.len() > 1 << 16 {
                    vm.check_mem(out.len())?;
                }
            }
            vm.charge(out.len() as u64 / 4)?;
            Value::str(out)
        }
        "split" | "rsplit" => {
            let sep = sarg(vm, 0, "sep")?;
            let maxsplit = opt_i64(vm, arg(args, kw, 1, "maxsplit"))?.unwrap_or(-1);
            let parts = if name == "split" {
                sm::split(st, sep.as_ref().map(|p| &*p.s), maxsplit)
            } else {
                sm::rsplit(st, sep.as_ref().map(|p| &*p.s), maxsplit)
            }
            .map_err(|e| text(vm, e))?;
            Value::list(parts.into_iter().map(Value::str).collect())
        }
        "splitlines" => {
            let keep = match arg(args, kw, 0, "keepends") {
                Some(v) => vm.truthy(&v)?,
                None => false,
            };
            Value::list(
                sm::splitlines(st, keep)
                    .into_iter()
                    .map(Value::str)
                    .collect(),
            )
        }
        "strip" | "lstrip" | "rstrip" => {
            let chars = sarg(vm, 0, "chars")?;
            let c = chars.as_ref().map(|p| &*p.s);
            let r = match name {
                "strip" => sm::strip(st, c),
                "lstrip" => sm::lstrip(st, c),
                _ => sm::rstrip(st, c),
            };
            if r.len() == st.len() {
                Value::Str(s.clone())
            } else {
                Value::str(r)
            }
        }
        "upper" => Value::str(sm::upper(st)),
        "lower" => Value::str(sm::lower(st)),
        "casefold" => Value::str(sm::casefold(st)),
        "swapcase" => Value::str(sm::swapcase(st)),
        "title" => Value::str(sm::title(st)),
        "capitalize" => Value::str(sm::capitalize(st)),
        "replace" => {
            let old = sarg(vm, 0, "old")?
                .ok_or_else(|| vm.type_err("replace expected at least 2 arguments, got 0"))?;
            let new = sarg(vm, 1, "new")?
                .ok_or_else(|| vm.type_err("replace expected at least 2 arguments, got 1"))?;
            let count = opt_i64(vm, arg(args, kw, 2, "count"))?.unwrap_or(-1);
            let est = if old.s.is_empty() {
                (st.len() + 1) * new.s.len() + st.len()
            } else {
                (st.len() / old.s.len().max(1) + 1) * new.s.len().max(old.s.len())
            };
            vm.check_mem(est.min(1 << 30))?;
            let r = sm::replace(st, &old.s, &new.s, count);
            vm.charge(r.len() as u64 / 4)?;
            Value::str(r)
        }
        "startswith" | "endswith" => {
            let p = arg(args, kw, 0, "prefix").unwrap_or_default();
            let start = opt_i64(vm, arg(args, kw, 1, "start"))?;
            let end = opt_i64(vm, arg(args, kw, 2, "end"))?;
            let cands: Vec<Value> = match &p {
                Value::Tuple(t) => t.v.to_vec(),
                v => vec![v.clone()],
            };
            let mut r = false;
            for c in cands {
                let c = match &c {
                    Value::Str(x) => x.clone(),
                    _ => {
                        return Err(vm.type_err(format!(
                            "{name} first arg must be str or a tuple of str, not {}",
                            vm.type_name(&c)
                        )));
                    }
                };
                let hit = if name == "startswith" {
                    sm::startswith(st, &c.s, start, end)
                } else {
                    sm::endswith(st, &c.s, start, end)
                };
                if hit {
                    r = true;
                    break;
                }
            }
            Value::Bool(r)
        }
        "find" | "rfind" | "index" | "rindex" | "count" => {
            let sub = sarg(vm, 0, "sub")?.ok_or_else(|| {
                vm.type_err(format!("{name}() takes at least 1 argument (0 given)"))
            })?;
            let start = opt_i64(vm, arg(args, kw, 1, "start"))?;
            let end = opt_i64(vm, arg(args, kw, 2, "end"))?;
            match name {
                "count" => Value::Int(sm::count(st, &sub.s, start, end) as i64),
                "find" | "index" => match sm::find(st, &sub.s, start, end) {
                    Some(i) => Value::Int(i as i64),
                    None if name == "find" => Value::Int(-1),
                    None => return Err(vm.exc("ValueError", "substring not found")),
                },
                _ => match sm::rfind(st, &sub.s, start, end) {
                    Some(i) => Value::Int(i as i64),
                    None if name == "rfind" => Value::Int(-1),
                    None => return Err(vm.exc("ValueError", "substring not found")),
                },
            }
        }
        "partition" | "rpartition" => {
            let sep = sarg(vm, 0, "sep")?
                .ok_or_else(|| vm.type_err("partition() takes exactly one argument (0 given)"))?;
            let (a, b, c) = if name == "partition" {
                sm::partition(st, &sep.s)
            } else {
                sm::rpartition(st, &sep.s)
            }
            .map_err(|e| text(vm, e))?;
            Value::tuple(vec![Value::str(a), Value::str(b), Value::str(c)])
        }
        "center" | "ljust" | "rjust" => {
            let w = arg(args, kw, 0, "width").unwrap_or_default();
            let w = vm.to_index(&w)?;
            vm.check_mem(w.max(0) as usize * 4)?;
            vm.charge(w.max(0) as u64 / 4)?;
            let fill = match sarg(vm, 1, "fillchar")? {
                Some(f) => {
                    let mut it = f.s.chars();
                    match (it.next(), it.next()) {
                        (Some(c), None) => c,
                        _ => {
                            return Err(vm.type_err(
                                "The fill character must be exactly one character long",
                            ));
                        }
                    }
                }
                None => ' ',
            };
            Value::str(match name {
                "center" => sm::center(st, w, fill),
                "ljust" => sm::ljust(st, w, fill),
                _ => sm::rjust(st, w, fill),
            })
        }
        "zfill" => {
            let w = vm.to_index(&arg(args, kw, 0, "width").unwrap_or_default())?;
            vm.check_mem(w.max(0) as usize)?;
            Value::str(sm::zfill(st, w))
        }
        "expandtabs" => {
            let t = opt_i64(vm, arg(args, kw, 0, "tabsize"))?.unwrap_or(8);
            vm.check_mem(st.len().saturating_mul(t.max(1) as usize))?;
            Value::str(sm::expandtabs(st, t))
        }
        "removeprefix" | "removesuffix" => {
            let p = sarg(vm, 0, "prefix")?.ok_or_else(|| vm.type_err("missing argument"))?;
            Value::str(if name == "removeprefix" {
                sm::removeprefix(st, &p.s)
            } else {
                sm::removesuffix(st, &p.s)
            })
        }
        "isalpha" => Value::Bool(sm::isalpha(st)),
        "isdigit" => Value::Bool(sm::isdigit(st)),
        "isalnum" => Value::Bool(sm::isalnum(st)),
        "isspace" => Value::Bool(sm::isspace(st)),
        "isupper" => Value::Bool(sm::isupper(st)),
        "islower" => Value::Bool(sm::islower(st)),
        "isnumeric" => Value::Bool(sm::isnumeric(st)),
        "isdecimal" => Value::Bool(sm::isdecimal(st)),
        "isidentifier" => Value::Bool(sm::isidentifier(st)),
        "istitle" => Value::Bool(sm::istitle(st)),
        "isascii" => Value::Bool(sm::isascii(st)),
        "isprintable" => Value::Bool(sm::isprintable(st)),
        "encode" => {
            if let Some(enc) = sarg(vm, 0, "encoding")? {
                let e = enc.s.to_ascii_lowercase().replace('_', "-");
                if e != "utf-8" && e != "utf8" && e != "ascii" {
                    return Err(vm.exc("LookupError", format!("unknown encoding: {}", enc.s)));
                }
                if e == "ascii"
                    && let Some((i, c)) = st.chars().enumerate().find(|(_, c)| !c.is_ascii())
                {
                    return Err(vm.exc(
                            "UnicodeEncodeError",
                            format!("'ascii' codec can't encode character '\\u{:04x}' in position {i}: ordinal not in range(128)", c as u32),
                        ));
                }
            }
            vm.charge(cost::ENCODE_BASE + n)?;
            Value::bytes(st.as_bytes().to_vec())
        }
        "format" => Value::str(crate::builtins::str_format(vm, st, args, kw)?),
        "format_map" => {
            let m = arg(args, kw, 0, "mapping").unwrap_or_default();
            let items = vm.mapping_items(&m)?;
            let kws: Kw = items
                .into_iter()
                .filter_map(|(k, v)| {
                    if let Value::Str(s) = k {
                        Some((Rc::from(&*s.s), v))
                    } else {
                        None
                    }
                })
                .collect();
            Value::str(crate::builtins::str_format(vm, st, &[], &kws)?)
        }
        "maketrans" => {
            let mut d = Dict::new();
            match (args.first(), args.get(1)) {
                (Some(Value::Dict(m)), None) => {
                    let items: Vec<(Value, Value)> =
                        m.d.borrow()
                            .iter()
                            .map(|e| (e.key.clone(), e.value.clone()))
                            .collect();
                    for (k, v) in items {
                        let k = match &k {
                            Value::Str(s) if s.nchars == 1 => {
                                Value::Int(s.s.chars().next().map_or(0, |c| c as i64))
                            }
                            Value::Int(_) => k.clone(),
                            _ => {
                                return Err(vm.exc(
                                    "ValueError",
                                    "string keys in translate table must be of length 1",
                                ));
                            }
                        };
                        vm.dict_set(&mut d, k, v)?;
                    }
                }
                (Some(Value::Str(a)), Some(Value::Str(b))) => {
                    if a.nchars != b.nchars {
                        return Err(vm.exc(
                            "ValueError",
                            "the first two maketrans arguments must have equal length",
                        ));
                    }
                    for (x, y) in a.s.chars().zip(b.s.chars()) {
                        vm.dict_set(&mut d, Value::Int(x as i64), Value::Int(y as i64))?;
                    }
                    if let Some(Value::Str(z)) = args.get(2) {
                        for x in z.s.chars() {
                            vm.dict_set(&mut d, Value::Int(x as i64), Value::None)?;
                        }
                    }
                }
                _ => return Err(vm.type_err("maketrans() arguments must be a dict or two strings")),
            }
            Value::dict(d)
        }
        "translate" => {
            let table = arg(args, kw, 0, "table").unwrap_or_default();
            let mut out = String::with_capacity(st.len());
            for c in st.chars() {
                match vm.getitem(&table, &Value::Int(c as i64)) {
                    Ok(Value::None) => {}
                    Ok(Value::Str(r)) => out.push_str(&r.s),
                    Ok(Value::Int(i)) => out.push(char::from_u32(i as u32).unwrap_or(c)),
                    Ok(v) => {
                        return Err(vm.type_err(format!(
                            "character mapping must return integer, None or str, not {}",
                            vm.type_name(&v)
                        )));
                    }
                    Err(Flow::Exc(e)) if vm.isinstance_name(&e, "LookupError") => out.push(c),
                    Err(e) => return Err(e),
                }
            }
            Value::str(out)
        }
        _ => return Err(no_method(vm, &Value::Str(s.clone()), name)),
    })
}

impl Vm {
    /// `CALL_METHOD name argc` on a built-in receiver for the commonest methods, `list.append(x)`,
    /// `dict.get(k[, d])` and the non-dunder methods of str with at most two positional
    /// arguments, without building an argument vector. Exactly what the general path
    /// (`call_method_push` -> [`call_method`]) does for them: the same charges in the same
    /// order (`CALL`, then `DICT` for a dict method, then the str method's own), the same
    /// result or error, and the receiver and arguments dropped in the same order. Returns
    /// Ok(false), having done nothing, for any other receiver, method or argument count;
    /// Ok(true) when the call ran and its result was pushed.
    #[inline]
    pub(crate) fn call_method_builtin_fast(&mut self, ni: u32, argc: u32) -> PyResult<bool> {
        let Some(f) = self.frames.last_mut() else {
            return Ok(false);
        };
        let at = f.stack.len() - argc as usize - 1;
        let name: &str = &f.code.names[ni as usize];
        let which = match (&f.stack[at], argc) {
            (Value::List(_), 1) if name == "append" => 1,
            (Value::Dict(_), 1 | 2) if name == "get" => 2,
            // dunders go through `native_dunder` first on the general path
            (Value::Str(_), _) if !name.starts_with("__") => 3,
            _ => return Ok(false),
        };
        if which == 3 {
            let name = f.code.names[ni as usize].clone();
            let mut args: [Value; 2] = Default::default();
            for a in args[..argc as usize].iter_mut().rev() {
                *a = f.stack.pop().unwrap_or_default();
            }
            let recv = f.stack.pop().unwrap_or_default();
            self.charge(cost::CALL)?;
            let Value::Str(s) = &recv else {
                return Ok(false);
            };
            let r = str_method(self, s, &name, &args[..argc as usize], &Vec::new());
            // the general path drops its argument vector when the method returns
            drop(args);
            let r = r?;
            if let Some(f) = self.frames.last_mut() {
                f.stack.push(r);
            }
            drop(recv);
            return Ok(true);
        }
        match which {
            1 => {
                let v = f.stack.pop().unwrap_or_default();
                let recv = f.stack.pop().unwrap_or_default();
                self.charge(cost::CALL)?;
                if let Value::List(l) = &recv {
                    self.list_push(l, v)?;
                }
                if let Some(f) = self.frames.last_mut() {
                    f.stack.push(Value::None);
                }
                drop(recv);
                Ok(true)
            }
            _ => {
                let default = if argc == 2 { f.stack.pop() } else { None };
                let k = f.stack.pop().unwrap_or_default();
                let recv = f.stack.pop().unwrap_or_default();
                self.charge(cost::CALL)?;
                self.charge(cost::DICT)?;
                let Value::Dict(d) = &recv else {
                    return Ok(false);
                };
                let found = self.dict_get(d, &k);
                // the general path drops its argument vector (key, then default) here
                drop(k);
                let r = match found {
                    Ok(Some(v)) => {
                        drop(default);
                        v
                    }
                    Ok(None) => default.unwrap_or_default(),
                    Err(e) => {
                        drop(default);
                        return Err(e);
                    }
                };
                if let Some(f) = self.frames.last_mut() {
                    f.stack.push(r);
                }
                drop(recv);
                Ok(true)
            }
        }
    }
}
