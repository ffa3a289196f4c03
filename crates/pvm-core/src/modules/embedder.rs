//! Modules that an embedding program (a test runner, a REPL) provides to one run of
//! [`crate::run_program_with`]; never available to actors on chain.
//!
//! An [`Embedder`] carries
//! * native modules ([`NativeModule`]): a fixed set of function names whose calls go to one
//!   Rust closure of the embedder, which receives the VM and the Python arguments;
//! * Python-source modules ([`SourceModule`]): compiled with the embedder's
//!   [`CompileOptions`] on their first import and run in their own namespace, on the
//!   importer's cycle budget (they are the embedder's program, not the standard library).
//!
//! Reachability invariant: the only way to install an embedder is
//! [`crate::RunOptions::embedder`]; the actor runtime (`cowboy-runtime`) never sets it, so
//! actor code can never import these modules. Embedded names never shadow the whitelisted
//! modules ([`super::WHITELIST`] is consulted first). Imports of embedded modules cost the
//! same as a first/cached import of a whitelisted module.

use crate::compile::CompileOptions;
use crate::dict::Dict;
use crate::value::*;
use crate::vm::{PyResult, Vm};
use std::cell::RefCell;
use std::rc::Rc;

/// Native function of an embedder: `(vm, function name, positional args, keyword args)`.
/// `Send` because the run happens on a PVM worker thread ([`crate::worker`]).
pub type NativeFn =
    dyn FnMut(&mut Vm, &str, Vec<Value>, Vec<(Rc<str>, Value)>) -> PyResult<Value> + Send;

/// A native module provided by the embedder.
pub struct NativeModule {
    /// Importable module name (must not be a whitelisted name).
    pub name: &'static str,
    /// Names of its functions; each becomes a builtin whose call reaches [`Self::call`].
    pub funcs: &'static [&'static str],
    /// The implementation of every function (dispatch on the name). Not re-entrant: a call
    /// made while another call of the same module is running raises `RuntimeError`.
    pub call: Box<NativeFn>,
}

impl std::fmt::Debug for NativeModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeModule")
            .field("name", &self.name)
            .field("funcs", &self.funcs)
            .finish_non_exhaustive()
    }
}

/// A Python-source module provided by the embedder.
#[derive(Debug, Clone)]
pub struct SourceModule {
    /// Importable module name.
    pub name: String,
    /// File name shown in tracebacks.
    pub filename: String,
    /// Python source.
    pub source: String,
}

/// The set of modules an embedder provides to one run.
#[derive(Default)]
pub struct Embedder {
    /// Native modules.
    pub native: Vec<NativeModule>,
    /// Python-source modules.
    pub sources: Vec<SourceModule>,
    /// Options the source modules are compiled with.
    pub compile: CompileOptions,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("native", &self.native)
            .field(
                "sources",
                &self.sources.iter().map(|s| &s.name).collect::<Vec<_>>(),
            )
            .field("compile", &self.compile)
            .finish()
    }
}

impl Embedder {
    /// True if this embedder provides a module called `name`.
    pub fn provides(&self, name: &str) -> bool {
        self.native.iter().any(|n| n.name == name) || self.sources.iter().any(|s| s.name == name)
    }
}

/// True if the run's embedder provides `name`.
pub(crate) fn provides(vm: &Vm, name: &str) -> bool {
    vm.stdlib
        .embedder
        .as_ref()
        .is_some_and(|e| e.provides(name))
}

/// True if the run's embedder has a native module `name`.
pub(crate) fn is_native(vm: &Vm, name: &str) -> bool {
    vm.stdlib
        .embedder
        .as_ref()
        .is_some_and(|e| e.native.iter().any(|n| n.name == name))
}

/// Load embedded module `name` (first import of the run) and record it in the module cache
/// before its body runs. `Ok(None)` if the embedder does not provide it.
pub(crate) fn load(vm: &mut Vm, name: &str) -> PyResult<Option<Value>> {
    let Some(e) = vm.stdlib.embedder.as_ref() else {
        return Ok(None);
    };
    if let Some(n) = e.native.iter().find(|n| n.name == name) {
        let m = super::native_helper(n.name, n.funcs);
        vm.modules.push((Rc::from(name), m.clone()));
        return Ok(Some(m));
    }
    let Some(s) = e.sources.iter().find(|s| s.name == name) else {
        return Ok(None);
    };
    let (source, filename, opts) = (s.source.clone(), s.filename.clone(), e.compile);
    let code = crate::compile::compile_module_with(&source, &filename, opts).map_err(|e| {
        vm.exc(
            "SyntaxError",
            format!("{} ({filename}, line {})", e.msg, e.line),
        )
    })?;
    let mut dict = Dict::new();
    dict.set_str(Rc::new(PyStr::new("__name__")), Value::str(name));
    let module = Rc::new(Module {
        name: Rc::from(name),
        dict: RefCell::new(dict),
    });
    crate::heap::register(crate::heap::Tracked::Module(Rc::downgrade(&module)));
    let value = Value::Module(module.clone());
    vm.modules.push((Rc::from(name), value.clone()));
    if let Err(e) = vm.run_module_in(code, &module) {
        vm.modules.retain(|(n, _)| &**n != name);
        return Err(e);
    }
    Ok(Some(value))
}

/// Call `module.name(*args, **kw)` of an embedded native module.
pub(crate) fn call(
    vm: &mut Vm,
    module: &str,
    name: &str,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
) -> PyResult<Value> {
    let idx = vm
        .stdlib
        .embedder
        .as_ref()
        .and_then(|e| e.native.iter().position(|n| n.name == module));
    let Some(idx) = idx else {
        return Err(vm.exc(
            "AttributeError",
            format!("module '{module}' has no attribute '{name}'"),
        ));
    };
    let busy: Box<NativeFn> = Box::new(|vm, _, _, _| {
        Err(vm.exc(
            "RuntimeError",
            "an embedded native module was called re-entrantly",
        ))
    });
    fn slot(vm: &mut Vm, idx: usize) -> &mut Box<NativeFn> {
        &mut vm.stdlib.embedder.as_mut().expect("checked above").native[idx].call
    }
    let mut f = std::mem::replace(slot(vm, idx), busy);
    let r = f(vm, name, args, kw);
    *slot(vm, idx) = f;
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, RunOptions, run_program_with};

    fn embedder() -> Embedder {
        Embedder {
            native: vec![NativeModule {
                name: "_bridge",
                funcs: &["double", "count"],
                call: Box::new({
                    let mut calls = 0i64;
                    move |vm, f, args, _kw| {
                        calls += 1;
                        match f {
                            "double" => vm.binary_op(
                                &args[0],
                                &Value::Int(2),
                                crate::bytecode::BinOp::Mul,
                                false,
                            ),
                            _ => Ok(Value::Int(calls)),
                        }
                    }
                }),
            }],
            sources: vec![SourceModule {
                name: "helper".into(),
                filename: "lib/helper.py".into(),
                source: "import _bridge\ndef quad(x):\n    return _bridge.double(_bridge.double(x))\ndef boom():\n    return 1 // 0\n".into(),
            }],
            compile: CompileOptions::default(),
        }
    }

    fn run(src: &str, e: Option<Embedder>) -> crate::RunOutcome {
        run_program_with(
            src,
            "main.py",
            &Limits::default(),
            RunOptions {
                embedder: e,
                ..RunOptions::default()
            },
        )
    }

    #[test]
    fn embedded_modules_import_and_call_back() {
        let o = run(
            "import helper, _bridge\nprint(helper.quad(5), _bridge.count())\n",
            Some(embedder()),
        );
        assert_eq!(o.error, None);
        assert_eq!(o.stdout, "20 3\n");
    }

    #[test]
    fn tracebacks_name_the_embedded_file() {
        let o = run("import helper\nhelper.boom()\n", Some(embedder()));
        let e = o.error.expect("error");
        assert_eq!(e.type_name, "ZeroDivisionError");
        assert_eq!(
            e.traceback,
            vec![
                "File \"main.py\", line 2, in <module>".to_string(),
                "File \"lib/helper.py\", line 5, in boom".to_string(),
            ]
        );
    }

    #[test]
    fn without_an_embedder_the_modules_do_not_exist() {
        for m in ["helper", "_bridge"] {
            let o = run(&format!("import {m}\n"), None);
            assert_eq!(o.error.map(|e| e.type_name), Some("ImportError".into()));
        }
        // plain run_program (what actors get) has no embedder either
        let o = crate::run_program("import _bridge\n", "t.py", &Limits::default());
        assert_eq!(o.error.map(|e| e.type_name), Some("ImportError".into()));
    }

    #[test]
    fn embedded_names_never_shadow_the_whitelist() {
        let mut e = embedder();
        e.sources.push(SourceModule {
            name: "math".into(),
            filename: "math.py".into(),
            source: "pi = 3\n".into(),
        });
        let o = run("import math\nprint(math.pi > 3)\n", Some(e));
        assert_eq!(o.stdout, "True\n");
    }
}
