//! Metaclasses: `class M(type)` and `class C(metaclass=M)` (needed by `abc` and `enum`).
//!
//! A class created through a metaclass other than `type` is recorded in the invocation's
//! table ([`super::State::metaclasses`], keyed by the class id), so `type(C)` is `M`,
//! attributes missing on `C` are looked up on `M` (methods bound to `C`, properties called
//! with `C`), and the special methods `M` defines drive `C(...)`, `len(C)`, `iter(C)`,
//! `x in C`, `C[k]`, `repr(C)`, `isinstance(x, C)` and `issubclass(D, C)`.
//!
//! Creation follows CPython: the metaclass is the explicit `metaclass=` or the most derived
//! metaclass of the bases; `M.__new__(M, name, bases, namespace, **kw)` runs (reaching
//! `type.__new__` through `super()`), then `M.__init__` if `M` defines one. `__prepare__`
//! is not supported (the namespace is always a plain dict).

use crate::dict::Dict;
use crate::value::*;
use crate::vm::{PyResult, Vm};
use std::rc::Rc;

impl Vm {
    /// The metaclass `c` was created with, if it is not `type`.
    pub fn metaclass_of(&self, c: &Rc<Class>) -> Option<Rc<Class>> {
        self.stdlib.metaclasses.get(&c.id).cloned()
    }

    /// True if `c` is `type` or a subclass of it.
    pub fn is_type_subclass(&self, c: &Rc<Class>) -> bool {
        c.kind == TypeKind::Type && c.builtin
            || c.mro.iter().any(|b| b.builtin && b.kind == TypeKind::Type)
    }

    /// Special method `name` defined by the metaclass of class value `v` (None for
    /// anything else, and for methods only `type` provides).
    pub fn meta_special(&self, v: &Value, name: &str) -> Option<Value> {
        let Value::Class(c) = v else {
            return None;
        };
        let m = self.metaclass_of(c)?;
        self.class_lookup(&m, name)
    }

    /// Call the metaclass special method `name` of class value `v` with `args`, if it has one.
    pub fn call_meta_special(
        &mut self,
        v: &Value,
        name: &str,
        args: Vec<Value>,
    ) -> PyResult<Option<Value>> {
        match self.meta_special(v, name) {
            Some(f) => {
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(v.clone());
                a.extend(args);
                Ok(Some(self.call(&f, a, vec![])?))
            }
            None => Ok(None),
        }
    }

    /// Attribute `name` of class `c` found on its metaclass, bound to the class.
    pub fn meta_attr(&mut self, c: &Rc<Class>, name: &str) -> PyResult<Option<Value>> {
        let Some(m) = self.metaclass_of(c) else {
            return Ok(None);
        };
        let Some(v) = self.class_lookup(&m, name) else {
            return Ok(None);
        };
        let recv = Value::Class(c.clone());
        Ok(Some(match v {
            Value::Function(_) => Value::BoundMethod(Rc::new(BoundMethod { recv, func: v })),
            Value::Wrapper(w) => match &*w {
                Wrapper::Property { fget, .. } => self.call(fget, vec![recv], vec![])?,
                Wrapper::ClassMethod(f) => Value::BoundMethod(Rc::new(BoundMethod {
                    recv: Value::Class(m.clone()),
                    func: f.clone(),
                })),
                Wrapper::StaticMethod(f) => f.clone(),
                _ => Value::Wrapper(w.clone()),
            },
            v => v,
        }))
    }

    /// The metaclass a class statement uses: `explicit` (unless it is `type`) or the most
    /// derived metaclass among the bases. None means plain `type`.
    pub fn select_metaclass(
        &mut self,
        explicit: Option<Value>,
        bases: &[Rc<Class>],
    ) -> PyResult<Option<Rc<Class>>> {
        let mut winner: Option<Rc<Class>> = match explicit {
            None => None,
            Some(Value::Class(m)) if m.builtin && m.kind == TypeKind::Type => None,
            Some(Value::Class(m)) if self.is_type_subclass(&m) => Some(m),
            Some(_) => {
                return Err(self.type_err(
                    "metaclass must be a subclass of type in the PVM (metaclass functions are not supported)",
                ));
            }
        };
        for b in bases {
            let Some(bm) = self.metaclass_of(b) else {
                continue;
            };
            winner = match winner {
                None => Some(bm),
                Some(w) if self.is_subclass(&w, &bm) => Some(w),
                Some(w) if self.is_subclass(&bm, &w) => Some(bm),
                Some(_) => {
                    return Err(self.type_err(
                        "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases",
                    ));
                }
            };
        }
        Ok(winner)
    }

    /// Create class `name` through metaclass `meta`: `meta.__new__` (or `type.__new__`),
    /// then `meta.__init__` when the metaclass defines one.
    pub fn create_with_metaclass(
        &mut self,
        meta: &Rc<Class>,
        name: &str,
        bases: Value,
        ns: Rc<PyDict>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Value> {
        let args = vec![Value::str(name), bases, Value::Dict(ns)];
        let mcls = Value::Class(meta.clone());
        let cls = match self.class_lookup(meta, "__new__") {
            Some(f @ Value::Function(_)) => {
                let mut a = vec![mcls.clone()];
                a.extend(args.iter().cloned());
                self.call(&f, a, kwargs.clone())?
            }
            Some(Value::Wrapper(w)) if matches!(&*w, Wrapper::StaticMethod(_)) => {
                let Wrapper::StaticMethod(f) = &*w else {
                    return Err(self.type_err("bad __new__"));
                };
                let mut a = vec![mcls.clone()];
                a.extend(args.iter().cloned());
                self.call(f, a, kwargs.clone())?
            }
            _ => self.type_new(meta, &args, kwargs.clone())?,
        };
        if let Value::Class(c) = &cls
            && self.is_subclass(&self.class_of(&cls), meta)
            && let Some(init @ Value::Function(_)) = self.class_lookup(meta, "__init__")
        {
            let mut a = vec![Value::Class(c.clone())];
            a.extend(args);
            self.call(&init, a, kwargs)?;
        }
        Ok(cls)
    }

    /// `type.__new__(mcls, name, bases, namespace, **kwargs)`: a new class whose metaclass
    /// is `mcls`.
    pub fn type_new(
        &mut self,
        mcls: &Rc<Class>,
        args: &[Value],
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Value> {
        if args.len() != 3 {
            return Err(self.type_err("type.__new__() takes exactly 3 arguments"));
        }
        let name: Rc<str> = match &args[0] {
            Value::Str(s) => Rc::from(&*s.s),
            _ => return Err(self.type_err("type.__new__() argument 1 must be str")),
        };
        let mut bases = Vec::new();
        match &args[1] {
            Value::Tuple(t) => {
                for b in t.v.iter() {
                    match b {
                        Value::Class(c) => bases.push(c.clone()),
                        _ => return Err(self.type_err("bases must be types")),
                    }
                }
            }
            _ => return Err(self.type_err("type.__new__() argument 2 must be tuple")),
        }
        let ns = match &args[2] {
            Value::Dict(d) => {
                // the class takes the namespace's entries; the caller's dict stays intact
                let copy = Rc::new(PyDict {
                    d: std::cell::RefCell::new(d.d.borrow().clone()),
                });
                crate::heap::register(crate::heap::Tracked::Dict(Rc::downgrade(&copy)));
                copy
            }
            _ => return Err(self.type_err("type.__new__() argument 3 must be dict")),
        };
        let qualname: Rc<str> = match ns.d.borrow().get_str("__qualname__") {
            Some(Value::Str(s)) => Rc::from(&*s.s),
            _ => name.clone(),
        };
        let cls = crate::types::make_class(self, name, qualname, bases, ns, kwargs)?;
        if !(mcls.builtin && mcls.kind == TypeKind::Type) {
            self.stdlib.metaclasses.insert(cls.id, mcls.clone());
        }
        Ok(Value::Class(cls))
    }

    /// `super()` inside a metaclass method whose receiver is a class: the metaclass MRO
    /// to search (None when `sup_cls` is an ordinary class in `obj`'s own MRO).
    pub fn meta_super_start(&self, sup_cls: &Rc<Class>, obj: &Value) -> Option<Rc<Class>> {
        let Value::Class(c) = obj else {
            return None;
        };
        if Rc::ptr_eq(c, sup_cls) || c.mro.iter().any(|b| Rc::ptr_eq(b, sup_cls)) {
            return None;
        }
        let m = self.metaclass_of(c)?;
        self.is_subclass(&m, sup_cls).then_some(m)
    }
}

/// Built-in `type` methods reachable through `super()` from a metaclass (`type.__new__`,
/// `type.__call__`, …) or as `type.__x__`: the builtin name to call.
pub fn type_dunder(name: &str) -> Option<&'static str> {
    Some(match name {
        "__new__" => "__type_new__",
        "__call__" => "__type_call__",
        "__init__" => "__type_init__",
        "__setattr__" => "__type_setattr__",
        "__delattr__" => "__type_delattr__",
        "__repr__" => "__type_repr__",
        "__instancecheck__" => "__type_instancecheck__",
        "__subclasscheck__" => "__type_subclasscheck__",
        _ => return None,
    })
}

/// Run builtin `type` method `f` (see [`type_dunder`]) with `args` (receiver first).
pub fn call_type_dunder(
    vm: &mut Vm,
    f: &str,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
) -> PyResult<Value> {
    let a0 = args.first().cloned().unwrap_or_default();
    let cls = match &a0 {
        Value::Class(c) => c.clone(),
        _ => {
            return Err(vm.type_err(format!(
                "descriptor '{}' requires a 'type' object",
                f.trim_start_matches("__type_").trim_end_matches("__")
            )));
        }
    };
    match f {
        "__type_new__" => vm.type_new(&cls, &args[1..], kw),
        "__type_call__" => vm.instantiate_plain(&cls, args[1..].to_vec(), kw),
        "__type_init__" => Ok(Value::None),
        "__type_setattr__" | "__type_delattr__" => {
            let name = match args.get(1) {
                Some(Value::Str(s)) => s.clone(),
                _ => return Err(vm.type_err("attribute name must be string")),
            };
            // Built-in classes are immutable (as in CPython) and shared by every VM of the
            // thread (`crate::types::shared`), so no path may write their namespace.
            if cls.builtin {
                return Err(vm.type_err(format!(
                    "cannot set '{}' attribute of immutable type '{}'",
                    name.s, cls.name
                )));
            }
            if f == "__type_setattr__" {
                let v = args.get(2).cloned().unwrap_or_default();
                vm.class_set_raw(&cls, name, v);
            } else if cls.dict.borrow_mut().del_str(&name.s).is_none() {
                return Err(vm.exc(
                    "AttributeError",
                    format!("type object '{}' has no attribute '{}'", cls.name, name.s),
                ));
            }
            Ok(Value::None)
        }
        "__type_repr__" => Ok(Value::str(format!("<class '{}'>", class_path(&cls)))),
        "__type_instancecheck__" => {
            let c = vm.class_of(args.get(1).unwrap_or(&Value::None));
            Ok(Value::Bool(vm.is_subclass(&c, &cls)))
        }
        "__type_subclasscheck__" => match args.get(1) {
            Some(Value::Class(c)) => Ok(Value::Bool(vm.is_subclass(c, &cls))),
            _ => Err(vm.type_err("issubclass() arg 1 must be a class")),
        },
        _ => Err(vm.exc("AttributeError", format!("type has no attribute '{f}'"))),
    }
}

fn class_path(c: &Rc<Class>) -> String {
    match c.dict.borrow().get_str("__module__") {
        Some(Value::Str(m)) if &*m.s != "builtins" => format!("{}.{}", m.s, c.qualname),
        _ => c.qualname.to_string(),
    }
}

impl Vm {
    /// Store `name = v` in the namespace of class `c` (no descriptor or metaclass logic),
    /// keeping the class's cached flags right.
    pub fn class_set_raw(&mut self, c: &Rc<Class>, name: Rc<PyStr>, v: Value) {
        let mut probe = Dict::new();
        probe.set_str(name.clone(), v.clone());
        let extra = crate::types::class_dict_flags(&probe);
        c.dict.borrow_mut().set_str(name, v);
        c.add_flags(extra);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, run_program};

    #[test]
    fn type_dunders_map_to_builtins() {
        assert_eq!(type_dunder("__new__"), Some("__type_new__"));
        assert_eq!(type_dunder("__call__"), Some("__type_call__"));
        assert_eq!(type_dunder("__len__"), None);
    }

    #[test]
    fn metaclass_is_the_type_of_its_classes() {
        let o = run_program(
            "class M(type):\n    def hi(cls):\n        return 'hi ' + cls.__name__\n\
             class A(metaclass=M):\n    pass\nclass B(A):\n    pass\n\
             print(type(A).__name__, type(B).__name__, B.hi(), type(M).__name__, type(int).__name__)\n",
            "t.py",
            &Limits::default(),
        );
        assert_eq!(o.error, None);
        assert_eq!(o.stdout, "M M hi B type type\n");
    }

    #[test]
    fn non_type_metaclass_is_a_clear_error() {
        let o = run_program(
            "def meta(name, bases, ns):\n    return 1\nclass A(metaclass=meta):\n    pass\n",
            "t.py",
            &Limits::default(),
        );
        let e = o.error.expect("error");
        assert_eq!(e.type_name, "TypeError");
        assert!(e.message.contains("metaclass must be a subclass of type"));
    }
}
