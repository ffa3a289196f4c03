//! The module system of the PVM: the import whitelist, how each whitelisted module is
//! provided, and the native functions behind them.
//!
//! A whitelisted module is one of
//! * native (`math`): built in Rust ([`math`]);
//! * Python source from `pvm-stdlib` (`collections`, `json`, …, and the Python halves of `re`
//!   and `hashlib`): compiled on its first import in the invocation and run in its own module
//!   namespace; `re` and `hashlib` get a native helper module as the global `_native`
//!   ([`re`], [`hashlib`]);
//! * provided by the actor runtime (`cowboy_sdk`, `pvm_host`): [`runtime_module`] is the
//!   single dispatch point where the runtime adds them.
//!
//! Costs (CIP-3), charged by `Vm::import`: [`cost::IMPORT_FIRST`] for the first import of a
//! module in an invocation, [`cost::IMPORT_CACHED`] for every later import, and
//! [`cost::IMPORT_FAILED`] for a refused import, which raises `ImportError` naming the
//! whitelist. The body of a Python-source module runs on its own budget of
//! [`MODULE_INIT_BUDGET`] cycles that the caller does not pay for (see `docs/stdlib.md`), so
//! an import costs every caller the same flat amount. Its heap allocations do count against
//! the invocation's memory cap.

pub mod embedder;
pub mod hashlib;
pub mod image;
pub mod math;
pub mod meta;
pub mod re;

use crate::cost;
use crate::dict::Dict;
use crate::value::*;
use crate::vm::{Abort, Flow, PyResult, Vm};
use std::cell::RefCell;
use std::rc::Rc;

/// Every module actor code may import, sorted. Anything else raises `ImportError`.
pub const WHITELIST: &[&str] = &[
    "abc",
    "collections",
    "cowboy_sdk",
    "dataclasses",
    "decimal",
    "enum",
    "functools",
    "hashlib",
    "itertools",
    "json",
    "math",
    "pvm_host",
    "re",
    "struct",
    "typing",
];

/// Cycle budget for running the body of a Python-source standard-library module on its
/// first import. The caller is charged [`cost::IMPORT_FIRST`] instead; the largest body
/// (`decimal`) needs well under a tenth of this. Exceeding it is an internal error.
pub const MODULE_INIT_BUDGET: u64 = 2_000_000;

/// Per-invocation state of the native parts of the standard library.
#[derive(Debug, Default)]
pub struct State {
    /// Compiled patterns of `re`, keyed by (bytes?, pattern, flags).
    pub(crate) regex: re::Cache,
    /// Metaclass of every class created through one other than `type`, by class id.
    pub(crate) metaclasses: std::collections::BTreeMap<u64, Rc<Class>>,
    /// Modules of the embedding program ([`embedder`]); `None` for actors.
    pub(crate) embedder: Option<embedder::Embedder>,
}

/// True if actor code may import `name`.
pub fn is_whitelisted(name: &str) -> bool {
    WHITELIST.binary_search(&name).is_ok()
}

/// The `ImportError` message for a module that is not importable.
pub fn refused_message(name: &str) -> String {
    format!(
        "module '{name}' is not available in the PVM (importable modules: {})",
        WHITELIST.join(", ")
    )
}

/// Make a module object named `name` with namespace `dict` (accounted on the heap).
pub fn new_module(name: &str, mut dict: Dict) -> Value {
    if dict.get_str("__name__").is_none() {
        dict.set_str(Rc::new(PyStr::new("__name__")), Value::str(name));
    }
    let module = Rc::new(Module {
        name: Rc::from(name),
        dict: RefCell::new(dict),
    });
    crate::heap::register(crate::heap::Tracked::Module(Rc::downgrade(&module)));
    Value::Module(module)
}

/// Modules provided by the actor runtime: the one place where `cowboy_sdk` and `pvm_host`
/// (built by `crate::host`) are hooked into `import`. Returns `None` for every other name.
///
/// To add them, turn the body into a `match name { "cowboy_sdk" => Some(..), .. }` whose
/// arms return the module objects. The names are already in [`WHITELIST`]; the caller
/// charges the import cost and caches the module for the invocation.
pub fn runtime_module(vm: &mut Vm, name: &str) -> Option<PyResult<Value>> {
    match name {
        "cowboy_sdk" | "pvm_host" => Some(crate::host::runtime_module(vm, name)),
        _ => None,
    }
}

/// Load whitelisted module `name` for the first time in this invocation and record it in
/// the invocation's module cache (before its body runs, as CPython does, so modules that
/// import each other work). `Ok(None)` if no implementation is available.
///
/// Does not charge the import cost (the caller, `Vm::import`, does).
pub fn load(vm: &mut Vm, name: &str) -> PyResult<Option<Value>> {
    if name == "math" {
        let m = math::module();
        vm.modules.push((Rc::from(name), m.clone()));
        return Ok(Some(m));
    }
    if let Some(r) = runtime_module(vm, name) {
        let m = r?;
        vm.modules.push((Rc::from(name), m.clone()));
        return Ok(Some(m));
    }
    let Some(source) = pvm_stdlib::source(name) else {
        return Ok(None);
    };
    let code = crate::compile::compile_module(source, &format!("<pvm-stdlib>/{name}.py")).map_err(
        |e| {
            vm.exc(
                "SystemError",
                format!(
                    "standard-library module '{name}' does not compile: {} (line {})",
                    e.msg, e.line
                ),
            )
        },
    )?;
    let mut dict = Dict::new();
    dict.set_str(Rc::new(PyStr::new("__name__")), Value::str(name));
    match name {
        "re" => {
            dict.set_str(Rc::new(PyStr::new("_native")), re::native_module());
        }
        "hashlib" => {
            dict.set_str(Rc::new(PyStr::new("_native")), hashlib::native_module());
        }
        _ => {}
    }
    let module = Rc::new(Module {
        name: Rc::from(name),
        dict: RefCell::new(dict),
    });
    crate::heap::register(crate::heap::Tracked::Module(Rc::downgrade(&module)));
    let value = Value::Module(module.clone());
    vm.modules.push((Rc::from(name), value.clone()));
    // The body runs on its own budget; the caller's meter is restored afterwards.
    let (left, limit) = (vm.meter.left, vm.meter.limit);
    vm.meter.left = MODULE_INIT_BUDGET;
    vm.meter.limit = MODULE_INIT_BUDGET;
    let r = vm.run_module_in(code, &module);
    vm.meter.left = left;
    vm.meter.limit = limit;
    if let Err(e) = r {
        vm.modules.retain(|(n, _)| &**n != name);
        return Err(match e {
            Flow::Abort(Abort::OutOfCycles) => vm.exc(
                "SystemError",
                format!(
                    "initialising module '{name}' exceeded its {MODULE_INIT_BUDGET}-cycle budget"
                ),
            ),
            e => e,
        });
    }
    Ok(Some(value))
}

/// Call native module function `module.name(*args, **kw)`.
pub fn call_module_func(
    vm: &mut Vm,
    module: &str,
    name: &str,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
) -> PyResult<Value> {
    match module {
        "math" => math::call(vm, name, args, kw),
        re::NATIVE => re::call(vm, name, args, kw),
        hashlib::NATIVE => hashlib::call(vm, name, args),
        "pvm_host" => crate::host::call(vm, name, args, kw),
        m if embedder::is_native(vm, m) => embedder::call(vm, m, name, args, kw),
        _ => Err(vm.exc(
            "AttributeError",
            format!("module '{module}' has no attribute '{name}'"),
        )),
    }
}

/// Charge the cost of importing `name` and return the module: [`cost::IMPORT_CACHED`] if
/// this invocation imported it before, [`cost::IMPORT_FIRST`] for a first import, and
/// [`cost::IMPORT_FAILED`] plus `ImportError` for a module off the whitelist.
pub fn import(vm: &mut Vm, name: &str) -> PyResult<Value> {
    if let Some((_, m)) = vm.modules.iter().find(|(n, _)| &**n == name) {
        let m = m.clone();
        vm.charge(cost::IMPORT_CACHED)?;
        return Ok(m);
    }
    if !is_whitelisted(name) && embedder::provides(vm, name) {
        vm.charge(cost::IMPORT_FIRST)?;
        if let Some(m) = embedder::load(vm, name)? {
            return Ok(m);
        }
    }
    if !is_whitelisted(name) {
        vm.charge(cost::IMPORT_FAILED)?;
        return Err(vm.exc("ImportError", refused_message(name)));
    }
    vm.charge(cost::IMPORT_FIRST)?;
    match load(vm, name)? {
        Some(m) => Ok(m),
        None => Err(vm.exc(
            "ImportError",
            format!("module '{name}' is whitelisted but not provided by this PVM build"),
        )),
    }
}

/// Build a native helper module whose functions are `ModuleFunc(module, f)` builtins.
pub(crate) fn native_helper(module: &'static str, funcs: &[&'static str]) -> Value {
    let mut d = Dict::new();
    for f in funcs {
        d.set_str(
            Rc::new(PyStr::new(*f)),
            Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::ModuleFunc(module, f),
                recv: None,
            })),
        );
    }
    new_module(module, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitelist_is_sorted_and_every_module_has_a_provider() {
        assert!(WHITELIST.windows(2).all(|w| w[0] < w[1]));
        for name in WHITELIST {
            let provided = *name == "math"
                || matches!(*name, "cowboy_sdk" | "pvm_host")
                || pvm_stdlib::source(name).is_some();
            assert!(provided, "{name} has no implementation");
        }
        // every Python-source module is importable
        for (name, _) in pvm_stdlib::MODULES {
            assert!(is_whitelisted(name), "{name}");
        }
        assert!(!is_whitelisted("os"));
        assert!(!is_whitelisted("_pvm_re"));
        assert!(!is_whitelisted("collections.abc"));
    }

    #[test]
    fn refusal_names_every_whitelisted_module() {
        let m = refused_message("socket");
        assert!(m.starts_with("module 'socket' is not available in the PVM"));
        for name in WHITELIST {
            assert!(m.contains(name), "{name}");
        }
    }

    #[test]
    fn module_bodies_fit_their_budget_with_room_to_spare() {
        // run each Python-source module body on the init budget and require it to use
        // less than a tenth, so growth of a module cannot silently hit the limit
        for (name, _) in pvm_stdlib::MODULES {
            let mut vm = Vm::new(&crate::Limits::default());
            let before = vm.meter.left;
            let r = import(&mut vm, name);
            assert!(r.is_ok(), "{name}: {r:?}");
            assert_eq!(before - vm.meter.left, cost::IMPORT_FIRST, "{name}");
            vm.frames.clear();
            drop(vm);
            crate::heap::release_all();
        }
        let src = pvm_stdlib::source("decimal").unwrap_or_default();
        let code = crate::compile::compile_module(src, "decimal.py").expect("compiles");
        let mut vm = Vm::new(&crate::Limits::default());
        let m = Rc::new(Module {
            name: Rc::from("decimal"),
            dict: RefCell::new(Dict::new()),
        });
        let before = vm.meter.left;
        assert!(vm.run_module_in(code, &m).is_ok());
        let used = before - vm.meter.left;
        assert!(
            used > 1_000 && used < MODULE_INIT_BUDGET / 10,
            "decimal body: {used}"
        );
        vm.frames.clear();
        drop(vm);
        crate::heap::release_all();
    }
}
