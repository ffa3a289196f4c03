//! The `cowboy test` bridge (contract C3): run a Python program in the PVM whose calls to the
//! native module `_cowboy_bridge` cross synchronously into a JavaScript function.
//!
//! `pvmTest(source, filename, options, serve)` runs `source` on a fresh big-stack PVM thread
//! while the calling (JavaScript main) thread serves that thread's requests: every
//! `_cowboy_bridge.request(value)` encodes `value` canonically (CBOR, docs/values.md), calls
//! `serve(bytes)` on the main thread and decodes the `Buffer` it returns as the call's result.
//! `serve` may itself call into the addon (e.g. `executeActor`, which runs on another PVM
//! worker). If `serve` throws, the Python call raises `RuntimeError` with the JS message.
//!
//! Besides `request`, `_cowboy_bridge` has two introspection helpers a test harness needs:
//! `functions(module)` lists `(name, function)` of a module's top-level functions in definition
//! order, and `params(function)` lists the function's parameter names (positional, then
//! keyword-only).
//!
//! `options.modules` adds Python-source modules importable by this run (the harness, the test
//! file, `conftest`), all compiled with `options.assertIntrospection` (pytest-style assert
//! messages) like the main program. None of this is reachable from actors: only this entry
//! point installs the embedder (see `pvm_core::modules::embedder`).

// `mod testing;` is private in lib.rs; in `cargo test` builds napi-derive emits no
// registration code, so the exported items would look unused there.
#![cfg_attr(test, allow(dead_code))]

use crate::pvm::PvmRunOutcome;
use napi::bindgen_prelude::{Buffer, Function};
use napi_derive::napi;
use pvm_core::compile::CompileOptions;
use pvm_core::modules::embedder::{Embedder, NativeModule, SourceModule};
use pvm_core::value::Value;
use pvm_core::vm::{PyResult, Vm};
use pvm_core::{Limits, RunOptions, RunOutcome};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender, channel};

/// Name of the native bridge module.
pub const BRIDGE_MODULE: &str = "_cowboy_bridge";
/// Functions of the native bridge module.
pub const BRIDGE_FUNCS: &[&str] = &["request", "functions", "params"];

/// A Python-source module of a test run.
#[napi(object)]
#[derive(Debug)]
pub struct PvmTestModule {
    /// importable name
    pub name: String,
    /// file name shown in tracebacks
    pub filename: String,
    /// Python source
    pub source: String,
}

/// Options of [`pvm_test`].
#[napi(object)]
#[derive(Debug)]
pub struct PvmTestOptions {
    /// Cycle budget of the test program itself (actors it calls have their own).
    pub cycles_limit: Option<f64>,
    /// Heap cap in bytes of the test program.
    pub heap_bytes: Option<f64>,
    /// Extra Python-source modules.
    pub modules: Option<Vec<PvmTestModule>>,
    /// pytest-style assertion messages (`assert 3 == 4`).
    pub assert_introspection: Option<bool>,
}

/// Largest integer a JS number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn count(name: &str, v: Option<f64>) -> napi::Result<Option<u64>, String> {
    match v {
        None => Ok(None),
        Some(x) if (0.0..=MAX_SAFE_INTEGER).contains(&x) && x.fract() == 0.0 => Ok(Some(x as u64)),
        Some(x) => Err(napi::Error::new(
            "ERR_INVALID_ARG".to_owned(),
            format!("{name}: expected a non-negative safe integer, got {x}"),
        )),
    }
}

/// What the PVM thread sends to the serving thread.
enum ToHost {
    /// A bridge request (canonical CBOR of the Python value).
    Request(Vec<u8>),
    /// The run has finished.
    Done(RunOutcome),
}

/// The bridge's native functions, running on the PVM thread.
fn bridge_call(
    vm: &mut Vm,
    f: &str,
    args: Vec<Value>,
    to_host: &Sender<ToHost>,
    replies: &Receiver<Result<Vec<u8>, String>>,
) -> PyResult<Value> {
    let Some(arg) = args.first() else {
        return Err(vm.type_err(format!("{BRIDGE_MODULE}.{f}() takes exactly one argument")));
    };
    match f {
        "request" => {
            let bytes = pvm_core::host::encode(vm, arg)?;
            if to_host.send(ToHost::Request(bytes)).is_err() {
                return Err(vm.exc("RuntimeError", "the test host has gone away"));
            }
            match replies.recv() {
                Ok(Ok(reply)) => pvm_core::host::decode(vm, &reply),
                Ok(Err(msg)) => Err(vm.exc("RuntimeError", format!("test host: {msg}"))),
                Err(_) => Err(vm.exc("RuntimeError", "the test host has gone away")),
            }
        }
        "functions" => {
            let Value::Module(m) = arg else {
                return Err(vm.type_err(format!(
                    "functions() expects a module, not '{}'",
                    vm.type_name(arg)
                )));
            };
            let items: Vec<Value> = m
                .dict
                .borrow()
                .iter()
                .filter(|e| matches!(e.value, Value::Function(_)))
                .map(|e| Value::tuple(vec![e.key.clone(), e.value.clone()]))
                .collect();
            Ok(Value::list(items))
        }
        "params" => {
            let Value::Function(func) = arg else {
                return Err(vm.type_err(format!(
                    "params() expects a function, not '{}'",
                    vm.type_name(arg)
                )));
            };
            // CPython layout: positional names, keyword-only names, then `*args`, `**kw`
            let c = &func.code;
            let n = (c.argcount + c.kwonlycount) as usize;
            let names: Vec<Value> = c
                .varnames
                .iter()
                .take(n)
                .map(|s| Value::str(&**s))
                .collect();
            Ok(Value::list(names))
        }
        _ => Err(vm.exc(
            "AttributeError",
            format!("module '{BRIDGE_MODULE}' has no attribute '{f}'"),
        )),
    }
}

/// Runs `source` (file `filename`) in a fresh PVM with the `_cowboy_bridge` module and
/// `options.modules`, serving its bridge requests with `serve(request) -> reply` on this
/// thread. Returns like `pvmRun`.
#[napi(
    ts_args_type = "source: string, filename: string, options: PvmTestOptions | undefined | null, serve: (request: Buffer) => Buffer"
)]
pub fn pvm_test(
    source: String,
    filename: String,
    options: Option<PvmTestOptions>,
    serve: Function<'_, Buffer, Buffer>,
) -> napi::Result<PvmRunOutcome, String> {
    let mut limits = Limits::default();
    let mut sources = Vec::new();
    let mut compile = CompileOptions::default();
    if let Some(o) = options {
        if let Some(c) = count("cyclesLimit", o.cycles_limit)? {
            limits.cycles = c;
        }
        if let Some(h) = count("heapBytes", o.heap_bytes)? {
            limits.heap_bytes = usize::try_from(h).unwrap_or(usize::MAX);
        }
        for m in o.modules.unwrap_or_default() {
            sources.push(SourceModule {
                name: m.name,
                filename: m.filename,
                source: m.source,
            });
        }
        compile.assert_introspection = o.assert_introspection.unwrap_or(false);
    }
    let (to_host, from_vm) = channel::<ToHost>();
    let (reply_tx, replies) = channel::<Result<Vec<u8>, String>>();
    let limits_ref = &limits;
    let (source_ref, filename_ref) = (&source, &filename);
    let outcome = std::thread::scope(|s| -> Option<RunOutcome> {
        let done = to_host.clone();
        let vm_thread = std::thread::Builder::new()
            .name("pvm-test".into())
            .stack_size(pvm_core::worker::STACK_BYTES)
            .spawn_scoped(s, move || {
                let native = NativeModule {
                    name: BRIDGE_MODULE,
                    funcs: BRIDGE_FUNCS,
                    call: Box::new(move |vm, f, args, _kw: Vec<(Rc<str>, Value)>| {
                        bridge_call(vm, f, args, &to_host, &replies)
                    }),
                };
                let opts = RunOptions {
                    embedder: Some(Embedder {
                        native: vec![native],
                        sources,
                        compile,
                    }),
                    compile,
                };
                let out =
                    pvm_core::run_program_here_with(source_ref, filename_ref, limits_ref, opts);
                let _ = done.send(ToHost::Done(out));
            });
        if vm_thread.is_err() {
            return None;
        }
        // Serve until the run reports its outcome (or its thread dies: every sender dropped).
        loop {
            match from_vm.recv() {
                Ok(ToHost::Request(bytes)) => {
                    let reply = serve
                        .call(Buffer::from(bytes))
                        .map(|b| b.to_vec())
                        .map_err(|e| e.reason.clone());
                    if reply_tx.send(reply).is_err() {
                        return None;
                    }
                }
                Ok(ToHost::Done(out)) => return Some(out),
                Err(_) => return None,
            }
        }
    });
    let out = outcome.unwrap_or_else(|| RunOutcome {
        stdout: String::new(),
        error: Some(pvm_core::PyErrorInfo {
            type_name: "SystemError".into(),
            message: "the PVM test thread could not be run".into(),
            traceback: vec![],
        }),
        cycles_used: limits.cycles,
        cells_used: 0,
    });
    Ok(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run `src` with the bridge served by `serve` on this thread, like `pvm_test` does.
    fn run_served(
        src: &str,
        mut serve: impl FnMut(Vec<u8>) -> Result<Vec<u8>, String>,
    ) -> RunOutcome {
        let (to_host, from_vm) = channel::<ToHost>();
        let (reply_tx, replies) = channel::<Result<Vec<u8>, String>>();
        std::thread::scope(|s| {
            let done = to_host.clone();
            std::thread::Builder::new()
                .stack_size(pvm_core::worker::STACK_BYTES)
                .spawn_scoped(s, move || {
                    let opts = RunOptions {
                        embedder: Some(Embedder {
                            native: vec![NativeModule {
                                name: BRIDGE_MODULE,
                                funcs: BRIDGE_FUNCS,
                                call: Box::new(move |vm, f, args, _| {
                                    bridge_call(vm, f, args, &to_host, &replies)
                                }),
                            }],
                            ..Embedder::default()
                        }),
                        ..RunOptions::default()
                    };
                    let out =
                        pvm_core::run_program_here_with(src, "t.py", &Limits::default(), opts);
                    let _ = done.send(ToHost::Done(out));
                })
                .expect("thread");
            loop {
                match from_vm.recv().expect("outcome") {
                    ToHost::Request(b) => reply_tx.send(serve(b)).expect("reply"),
                    ToHost::Done(out) => return out,
                }
            }
        })
    }

    #[test]
    fn requests_round_trip_canonically() {
        let mut seen = Vec::new();
        let out = run_served(
            "import _cowboy_bridge as b\nprint(b.request({'op': 'x', 'n': [1, 2]}))\nprint(b.request(None))\n",
            |req| {
                seen.push(req.clone());
                Ok(req)
            },
        );
        assert_eq!(out.error, None);
        assert_eq!(out.stdout, "{'n': [1, 2], 'op': 'x'}\nNone\n");
        assert_eq!(seen.len(), 2);
        // canonical CBOR: map with 2 entries, then null
        assert_eq!(seen[0][0], 0xa2);
        assert_eq!(seen[1], vec![0xf6]);
    }

    #[test]
    fn host_errors_become_runtime_errors() {
        let out = run_served(
            "import _cowboy_bridge as b\ntry:\n    b.request(1)\nexcept RuntimeError as e:\n    print(e)\n",
            |_| Err("boom".into()),
        );
        assert_eq!(out.error, None);
        assert_eq!(out.stdout, "test host: boom\n");
    }

    #[test]
    fn introspection_lists_functions_and_params() {
        let out = run_served(
            "import _cowboy_bridge as b\ndef f(a, b=1, *rest, c, **kw):\n    pass\nx = 1\ndef g():\n    pass\nclass C:\n    pass\nprint(b.params(f), b.params(g))\nimport math\nprint([n for n, _ in b.functions(math)][:2])\n",
            Ok,
        );
        assert_eq!(out.error, None);
        assert_eq!(out.stdout, "['a', 'b', 'c'] []\n[]\n");
    }
}
