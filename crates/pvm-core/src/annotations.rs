//! Function annotations: `f.__annotations__`.
//!
//! `def` evaluates its parameter and return annotations (bytecode like any expression, in
//! CPython 3.11 order) into a `(name, value, …)` tuple stored on the function; the first
//! read of `__annotations__` turns it into a dict, stored so later reads return the same
//! object. A function without annotations gets a new empty dict on first read. Assigning
//! a dict replaces it; assigning `None` or `del f.__annotations__` unsets it.
//!
//! Class and module annotations (`x: int` in a class body or at module level) are stored in
//! the namespace's `__annotations__` dict by the compiler (`SetupAnnotations`).

use crate::cost;
use crate::dict::Dict;
use crate::value::{Function, Value};
use crate::vm::{PyResult, Vm};

impl Vm {
    /// `f.__annotations__`: the stored dict, built on first read (charged one dict
    /// operation plus one cycle per entry).
    pub(crate) fn function_annotations(&mut self, f: &Function) -> PyResult<Value> {
        let cur = f.annotations.borrow().clone();
        let d = match cur {
            Value::Dict(_) => return Ok(cur),
            Value::Tuple(t) => {
                let n = (t.v.len() / 2) as u64;
                self.charge(cost::DICT + n * cost::PER_ELEMENT)?;
                let mut d = Dict::new();
                for pair in t.v.chunks(2) {
                    if let [Value::Str(k), v] = pair {
                        d.set_str(k.clone(), v.clone());
                    }
                }
                Value::dict(d)
            }
            _ => {
                self.charge(cost::DICT)?;
                Value::dict(Dict::new())
            }
        };
        let old = f.annotations.replace(d.clone());
        drop(old);
        Ok(d)
    }

    /// `f.__annotations__ = v`: a dict, or `None` to unset.
    pub(crate) fn set_function_annotations(&mut self, f: &Function, v: Value) -> PyResult<()> {
        match v {
            Value::Dict(_) | Value::None => {
                let old = f.annotations.replace(v);
                drop(old);
                Ok(())
            }
            _ => Err(self.type_err("__annotations__ must be set to a dict object")),
        }
    }
}
