//! Class objects: built-in type objects, user classes, C3 MRO, attribute lookup on classes.

use crate::dict::Dict;
use crate::heap::{self, Tracked};
use crate::value::*;
use crate::vm::{PyResult, Vm};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The built-in type objects.
#[derive(Debug)]
pub struct Types {
    /// object
    pub object: Rc<Class>,
    /// All built-in types by kind.
    pub by_kind: Vec<(TypeKind, Rc<Class>)>,
}

fn builtin_class(name: &str, kind: TypeKind, bases: Vec<Rc<Class>>, id: u64) -> Rc<Class> {
    let mut mro = Vec::new();
    for b in &bases {
        mro.push(b.clone());
        for m in &b.mro {
            if !mro.iter().any(|x: &Rc<Class>| Rc::ptr_eq(x, m)) {
                mro.push(m.clone());
            }
        }
    }
    Rc::new(Class {
        name: Rc::from(name),
        qualname: Rc::from(name),
        bases,
        mro,
        dict: RefCell::new(Dict::new()),
        kind,
        builtin: true,
        slots: None,
        id,
        flags: Cell::new(0),
        flags_epoch: Cell::new(0),
    })
}

impl Types {
    /// Build the built-in types.
    pub fn new() -> Types {
        let object = builtin_class("object", TypeKind::Object, vec![], 0);
        let mut by_kind = vec![(TypeKind::Object, object.clone())];
        let o = || vec![object.clone()];
        let int = builtin_class("int", TypeKind::Int, o(), 0);
        let list: &[(&str, TypeKind)] = &[
            ("type", TypeKind::Type),
            ("NoneType", TypeKind::NoneType),
            ("float", TypeKind::Float),
            ("str", TypeKind::Str),
            ("bytes", TypeKind::Bytes),
            ("bytearray", TypeKind::ByteArray),
            ("list", TypeKind::List),
            ("tuple", TypeKind::Tuple),
            ("dict", TypeKind::Dict),
            ("set", TypeKind::Set),
            ("frozenset", TypeKind::FrozenSet),
            ("range", TypeKind::Range),
            ("slice", TypeKind::Slice),
            ("function", TypeKind::Function),
            ("builtin_function_or_method", TypeKind::BuiltinFunction),
            ("method", TypeKind::Method),
            ("generator", TypeKind::Generator),
            ("module", TypeKind::Module),
            ("property", TypeKind::Property),
            ("classmethod", TypeKind::ClassMethod),
            ("staticmethod", TypeKind::StaticMethod),
            ("super", TypeKind::Super),
            ("iterator", TypeKind::Iterator),
            ("NotImplementedType", TypeKind::NotImplementedType),
            ("ellipsis", TypeKind::EllipsisType),
            ("cell", TypeKind::Cell),
            ("UnionType", TypeKind::UnionType),
        ];
        by_kind.push((TypeKind::Int, int.clone()));
        by_kind.push((
            TypeKind::Bool,
            builtin_class("bool", TypeKind::Bool, vec![int], 0),
        ));
        for (n, k) in list {
            by_kind.push((*k, builtin_class(n, *k, o(), 0)));
        }
        Types { object, by_kind }
    }
    /// Type object for a kind.
    pub fn get(&self, k: TypeKind) -> Rc<Class> {
        for (kk, c) in &self.by_kind {
            if *kk == k {
                return c.clone();
            }
        }
        self.object.clone()
    }
}

impl Default for Types {
    fn default() -> Self {
        Types::new()
    }
}

/// Create the built-in exception hierarchy and register it in builtins.
pub fn install_exceptions(vm: &mut Vm) {
    let tree: &[(&str, &str)] = &[
        ("BaseException", "object"),
        ("Exception", "BaseException"),
        ("GeneratorExit", "BaseException"),
        ("KeyboardInterrupt", "BaseException"),
        ("SystemExit", "BaseException"),
        ("ArithmeticError", "Exception"),
        ("ZeroDivisionError", "ArithmeticError"),
        ("OverflowError", "ArithmeticError"),
        ("FloatingPointError", "ArithmeticError"),
        ("AssertionError", "Exception"),
        ("AttributeError", "Exception"),
        ("BufferError", "Exception"),
        ("EOFError", "Exception"),
        ("ImportError", "Exception"),
        ("ModuleNotFoundError", "ImportError"),
        ("LookupError", "Exception"),
        ("IndexError", "LookupError"),
        ("KeyError", "LookupError"),
        ("MemoryError", "Exception"),
        ("NameError", "Exception"),
        ("UnboundLocalError", "NameError"),
        ("OSError", "Exception"),
        ("FileNotFoundError", "OSError"),
        ("FileExistsError", "OSError"),
        ("IsADirectoryError", "OSError"),
        ("PermissionError", "OSError"),
        ("ReferenceError", "Exception"),
        ("RuntimeError", "Exception"),
        ("NotImplementedError", "RuntimeError"),
        ("RecursionError", "RuntimeError"),
        ("StopIteration", "Exception"),
        ("StopAsyncIteration", "Exception"),
        ("SyntaxError", "Exception"),
        ("SystemError", "Exception"),
        ("TypeError", "Exception"),
        ("ValueError", "Exception"),
        ("UnicodeError", "ValueError"),
        ("UnicodeDecodeError", "UnicodeError"),
        ("UnicodeEncodeError", "UnicodeError"),
        ("Warning", "Exception"),
        ("UserWarning", "Warning"),
        ("DeprecationWarning", "Warning"),
        ("RuntimeWarning", "Warning"),
        ("IndentationError", "SyntaxError"),
        ("TabError", "IndentationError"),
        ("NotADirectoryError", "OSError"),
        ("TimeoutError", "OSError"),
        ("InterruptedError", "OSError"),
        ("ConnectionError", "OSError"),
        ("BrokenPipeError", "ConnectionError"),
        ("ConnectionAbortedError", "ConnectionError"),
        ("ConnectionRefusedError", "ConnectionError"),
        ("ConnectionResetError", "ConnectionError"),
        ("BlockingIOError", "OSError"),
        ("ChildProcessError", "OSError"),
        ("ProcessLookupError", "OSError"),
        ("UnicodeTranslateError", "UnicodeError"),
        ("SyntaxWarning", "Warning"),
        ("FutureWarning", "Warning"),
        ("PendingDeprecationWarning", "Warning"),
        ("ImportWarning", "Warning"),
        ("UnicodeWarning", "Warning"),
        ("BytesWarning", "Warning"),
        ("ResourceWarning", "Warning"),
        ("EncodingWarning", "Warning"),
        ("SandboxError", "Exception"),
        ("DeterminismError", "Exception"),
    ];
    for (name, base) in tree {
        let b = if *base == "object" {
            vm.types.object.clone()
        } else {
            vm.exc_class(base)
        };
        let c = builtin_class(name, TypeKind::Exception, vec![b], vm.new_id());
        vm.builtins
            .dict
            .borrow_mut()
            .set_str(Rc::new(PyStr::new(*name)), Value::Class(c));
    }
    for (alias, target) in [("EnvironmentError", "OSError"), ("IOError", "OSError")] {
        let c = vm.exc_class(target);
        vm.builtins
            .dict
            .borrow_mut()
            .set_str(Rc::new(PyStr::new(alias)), Value::Class(c));
    }
}

/// Built-in types user classes may derive from (their instances carry a native payload).
pub fn is_subclassable(k: TypeKind) -> bool {
    matches!(
        k,
        TypeKind::List
            | TypeKind::Dict
            | TypeKind::Tuple
            | TypeKind::Str
            | TypeKind::Int
            | TypeKind::Float
            | TypeKind::Set
            | TypeKind::FrozenSet
            | TypeKind::Bytes
            | TypeKind::Type
    )
}

/// Flags contributed by one class namespace.
pub fn class_dict_flags(d: &Dict) -> u8 {
    let mut fl = 0;
    for e in d.iter() {
        if let Value::Str(k) = &e.key {
            match &*k.s {
                "__getattribute__" => fl |= CLS_GETATTRIBUTE,
                "__setattr__" => fl |= CLS_SETATTR,
                _ => {}
            }
        }
        match &e.value {
            Value::Wrapper(w) if matches!(&**w, Wrapper::Property { .. }) => fl |= CLS_DATA_DESCR,
            Value::Instance(_) => fl |= CLS_DATA_DESCR,
            _ => {}
        }
    }
    fl
}

/// C3 linearisation. Returns the MRO excluding the class itself.
fn c3(bases: &[Rc<Class>]) -> Option<Vec<Rc<Class>>> {
    let mut seqs: Vec<Vec<Rc<Class>>> = bases
        .iter()
        .map(|b| {
            let mut v = vec![b.clone()];
            v.extend(b.mro.iter().cloned());
            v
        })
        .collect();
    seqs.push(bases.to_vec());
    let mut out: Vec<Rc<Class>> = Vec::new();
    loop {
        seqs.retain(|s| !s.is_empty());
        if seqs.is_empty() {
            return Some(out);
        }
        let mut found = None;
        for s in &seqs {
            let cand = &s[0];
            let in_tail = seqs
                .iter()
                .any(|t| t[1..].iter().any(|x| Rc::ptr_eq(x, cand)));
            if !in_tail {
                found = Some(cand.clone());
                break;
            }
        }
        let c = found?;
        for s in seqs.iter_mut() {
            if Rc::ptr_eq(&s[0], &c) {
                s.remove(0);
            }
        }
        out.push(c);
    }
}

/// Create a user class.
pub fn make_class(
    vm: &mut Vm,
    name: Rc<str>,
    qualname: Rc<str>,
    mut bases: Vec<Rc<Class>>,
    ns: Rc<PyDict>,
    kwargs: Vec<(Rc<str>, Value)>,
) -> PyResult<Rc<Class>> {
    let mut solid = 0;
    for b in &bases {
        if b.builtin && !matches!(b.kind, TypeKind::Object | TypeKind::Exception) {
            if !is_subclassable(b.kind) {
                return Err(vm.type_err(format!(
                    "subclassing built-in type '{}' is not supported in the PVM",
                    b.name
                )));
            }
            solid += 1;
        }
        if !b.builtin && vm.builtin_base(b).is_some() {
            solid += 1;
        }
    }
    if solid > 1 {
        return Err(vm.type_err("multiple bases have instance lay-out conflict"));
    }
    if bases.is_empty() {
        bases.push(vm.types.object.clone());
    }
    let mro = match c3(&bases) {
        Some(m) => m,
        None => {
            let names: Vec<String> = bases.iter().map(|b| b.name.to_string()).collect();
            return Err(vm.type_err(format!(
                "Cannot create a consistent method resolution order (MRO) for bases {}",
                names.join(", ")
            )));
        }
    };
    let kind = if mro.iter().any(|c| c.kind == TypeKind::Exception) {
        TypeKind::Exception
    } else {
        TypeKind::Object
    };
    let mut dict = std::mem::take(&mut *ns.d.borrow_mut());
    if let Some(f @ Value::Function(_)) = dict.get_str("__init_subclass__").cloned() {
        dict.set_str(
            Rc::new(PyStr::new("__init_subclass__")),
            Value::Wrapper(Rc::new(Wrapper::ClassMethod(f))),
        );
    }
    if dict.get_str("__eq__").is_some() && dict.get_str("__hash__").is_none() {
        dict.set_str(Rc::new(PyStr::new("__hash__")), Value::None);
    }
    let slots = match dict.get_str("__slots__") {
        Some(Value::Tuple(t)) => Some(
            t.v.iter()
                .filter_map(|v| {
                    if let Value::Str(s) = v {
                        Some(Rc::from(&*s.s))
                    } else {
                        None
                    }
                })
                .collect(),
        ),
        Some(Value::List(l)) => Some(
            l.v.borrow()
                .iter()
                .filter_map(|v| {
                    if let Value::Str(s) = v {
                        Some(Rc::from(&*s.s))
                    } else {
                        None
                    }
                })
                .collect(),
        ),
        Some(Value::Str(s)) => Some(vec![Rc::from(&*s.s)]),
        _ => None,
    };
    let cls = Rc::new(Class {
        name,
        qualname,
        bases,
        mro,
        dict: RefCell::new(dict),
        kind,
        builtin: false,
        slots,
        id: vm.new_id(),
        flags: Cell::new(0),
        flags_epoch: Cell::new(0),
    });
    let mut fl = 0u8;
    for b in &cls.bases {
        fl |= b.eff_flags();
    }
    fl |= class_dict_flags(&cls.dict.borrow());
    cls.flags.set(fl);
    cls.flags_epoch.set(crate::value::class_flags_epoch());
    heap::register(Tracked::Class(Rc::downgrade(&cls)));
    // Record the defining class on functions for zero-arg super().
    let vals: Vec<Value> = cls.dict.borrow().iter().map(|e| e.value.clone()).collect();
    for v in vals {
        let f = match &v {
            Value::Function(f) => Some(f.clone()),
            Value::Wrapper(w) => match &**w {
                Wrapper::ClassMethod(Value::Function(f))
                | Wrapper::StaticMethod(Value::Function(f)) => Some(f.clone()),
                Wrapper::Property { fget, fset, .. } => {
                    for x in [fget, fset] {
                        if let Value::Function(f) = x {
                            *f.class.borrow_mut() = Some(cls.clone());
                        }
                    }
                    None
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = f {
            *f.class.borrow_mut() = Some(cls.clone());
        }
    }
    // __set_name__ on descriptors, then the parent's __init_subclass__.
    let items: Vec<(Value, Value)> = cls
        .dict
        .borrow()
        .iter()
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect();
    for (k, v) in items {
        if let Some(m) = vm.lookup_special(&v, "__set_name__") {
            vm.call(&m, vec![v.clone(), Value::Class(cls.clone()), k], vec![])?;
        }
    }
    for base in cls.mro.iter() {
        if let Some(f) = base.dict.borrow().get_str("__init_subclass__").cloned() {
            let f = match f {
                Value::Wrapper(w) => match &*w {
                    Wrapper::ClassMethod(f) => f.clone(),
                    _ => Value::None,
                },
                f => f,
            };
            if !f.is_none() {
                vm.call(&f, vec![Value::Class(cls.clone())], kwargs.clone())?;
            }
            break;
        }
    }
    Ok(cls)
}

impl Vm {
    /// Look `name` up along the MRO of `cls` (including itself).
    pub fn class_lookup(&self, cls: &Rc<Class>, name: &str) -> Option<Value> {
        self.class_lookup_h(cls, name, crate::dict::str_hash(name))
    }
    /// [`Vm::class_lookup`] with the name's hash precomputed.
    #[inline]
    pub fn class_lookup_h(&self, cls: &Rc<Class>, name: &str, h: u64) -> Option<Value> {
        if let Some(v) = cls.dict.borrow().get_str_h(name, h) {
            return Some(v.clone());
        }
        for c in &cls.mro {
            if let Some(v) = c.dict.borrow().get_str_h(name, h) {
                return Some(v.clone());
            }
        }
        None
    }
    /// The built-in container/number type a user class derives from, if any.
    pub fn builtin_base(&self, cls: &Rc<Class>) -> Option<Rc<Class>> {
        if cls.builtin {
            return None;
        }
        cls.mro
            .iter()
            .find(|c| c.builtin && is_subclassable(c.kind))
            .cloned()
    }
    /// The native payload of an instance of a user subclass of a built-in type.
    pub fn native_of(&self, v: &Value) -> Option<Value> {
        let Value::Instance(i) = v else { return None };
        if i.exc.is_some() || i.class.borrow().builtin {
            return None;
        }
        i.native.borrow().clone()
    }
    /// Lookup starting after `after` in the MRO of `start`.
    pub fn class_lookup_after(
        &self,
        start: &Rc<Class>,
        after: &Rc<Class>,
        name: &str,
    ) -> Option<Value> {
        let mut chain = vec![start.clone()];
        chain.extend(start.mro.iter().cloned());
        let pos = chain.iter().position(|c| Rc::ptr_eq(c, after))?;
        for c in &chain[pos + 1..] {
            if let Some(v) = c.dict.borrow().get_str(name) {
                return Some(v.clone());
            }
        }
        None
    }
    /// Is `a` a subclass of `b`?
    pub fn is_subclass(&self, a: &Rc<Class>, b: &Rc<Class>) -> bool {
        if Rc::ptr_eq(a, b) || Rc::ptr_eq(b, &self.types.object) {
            return true;
        }
        a.mro.iter().any(|c| Rc::ptr_eq(c, b))
    }
    /// The class of a value.
    pub fn class_of(&self, v: &Value) -> Rc<Class> {
        let k = match v {
            Value::Instance(i) => return i.class.borrow().clone(),
            Value::None => TypeKind::NoneType,
            Value::Bool(_) => TypeKind::Bool,
            Value::Int(_) | Value::BigInt(_) => TypeKind::Int,
            Value::Float(_) => TypeKind::Float,
            Value::Str(_) => TypeKind::Str,
            Value::Bytes(_) => TypeKind::Bytes,
            Value::ByteArray(_) => TypeKind::ByteArray,
            Value::List(_) => TypeKind::List,
            Value::Tuple(_) => TypeKind::Tuple,
            Value::Dict(_) => TypeKind::Dict,
            Value::Set(_) => TypeKind::Set,
            Value::FrozenSet(_) => TypeKind::FrozenSet,
            Value::Range(_) => TypeKind::Range,
            Value::Slice(_) => TypeKind::Slice,
            Value::Function(_) => TypeKind::Function,
            Value::BoundMethod(_) => TypeKind::Method,
            Value::Builtin(_) => TypeKind::BuiltinFunction,
            Value::Class(c) => match self.metaclass_of(c) {
                Some(m) => return m,
                None => TypeKind::Type,
            },
            Value::Generator(_) => TypeKind::Generator,
            Value::Iter(_) => TypeKind::Iterator,
            Value::Module(_) => TypeKind::Module,
            Value::Cell(_) | Value::Code(_) => TypeKind::Cell,
            Value::Wrapper(w) => match &**w {
                Wrapper::Property { .. } => TypeKind::Property,
                Wrapper::ClassMethod(_) => TypeKind::ClassMethod,
                Wrapper::StaticMethod(_) => TypeKind::StaticMethod,
                Wrapper::Super { .. } => TypeKind::Super,
                Wrapper::Union(_) => TypeKind::UnionType,
            },
            Value::NotImplemented => TypeKind::NotImplementedType,
            Value::Ellipsis => TypeKind::EllipsisType,
        };
        self.types.get(k)
    }
    /// Type name of a value (`type(v).__name__`).
    pub fn type_name(&self, v: &Value) -> String {
        match v {
            Value::Iter(it) => match &*it.st.borrow() {
                IterState::List(..) => "list_iterator".into(),
                IterState::Tuple(..) => "tuple_iterator".into(),
                IterState::Str(..) => "str_ascii_iterator".into(),
                IterState::Range(..) => "range_iterator".into(),
                IterState::BigRange(..) => "longrange_iterator".into(),
                IterState::DictKeys(..) => "dict_keyiterator".into(),
                IterState::DictValues(..) => "dict_valueiterator".into(),
                IterState::DictItems(..) => "dict_itemiterator".into(),
                IterState::Set(..) => "set_iterator".into(),
                IterState::Enumerate(..) => "enumerate".into(),
                IterState::Zip(..) => "zip".into(),
                IterState::Map(..) => "map".into(),
                IterState::Filter(..) => "filter".into(),
                IterState::RevList(..) => "list_reverseiterator".into(),
                _ => "iterator".into(),
            },
            Value::Wrapper(w) if matches!(&**w, Wrapper::Union(_)) => "types.UnionType".into(),
            _ => self.class_of(v).name.to_string(),
        }
    }
    /// Find a special method on the type of `v` (not the instance).
    pub fn lookup_special(&self, v: &Value, name: &str) -> Option<Value> {
        match v {
            Value::Instance(i) => {
                let c = i.class.borrow().clone();
                self.class_lookup(&c, name)
            }
            _ => None,
        }
    }
}
