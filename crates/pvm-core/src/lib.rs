//! `pvm-core`: the Cowboy Python VM — a deterministic, metered Python 3.11 interpreter.
//!
//! Source is parsed with `ruff_python_parser` (3.11 syntax), compiled to PVM bytecode
//! ([`bytecode`]) and run by a frame-stack interpreter ([`vm`]). Every instruction is charged
//! from one cost table ([`cost`]) before it executes; data-proportional work adds surcharges.
//! Floats are soft floats (`pvm-float`); ints are i64 with a `num-bigint` slow path capped at
//! 4096 bits; dicts and sets are insertion ordered with deterministic hashing; memory is
//! accounted deterministically against a per-call cap and released when the call ends.
//!
//! The stable entry point is [`run_program`].

pub mod actor;
pub mod annotations;
pub mod attr;
pub mod bigrange;
pub mod builtins;
pub mod bytecode;
pub mod codecache;
pub mod compile;
pub mod cost;
pub mod dict;
pub mod float;
pub mod heap;
pub mod host;
pub mod int;
pub mod listsort;
pub mod methods;
pub mod modules;
pub mod ops;
pub(crate) mod prelude;
pub mod symtable;
pub mod tmpfs;
pub mod types;
pub mod union;
pub mod unparse;
pub mod value;
pub mod vm;
pub mod worker;

use value::Value;
use vm::{Abort, Flow, Vm};

/// Resource limits of one invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Cycle budget; exhausting it aborts with `OutOfCycles`.
    pub cycles: u64,
    /// Heap cap in bytes (deterministic accounting); exceeding it aborts with `MemoryError`.
    pub heap_bytes: usize,
    /// Maximum Python call depth; exceeding it raises `RecursionError`.
    pub max_depth: u32,
    /// `/tmp` scratch space cap in bytes.
    pub tmp_bytes: usize,
}

impl Default for Limits {
    /// Spec values: 10 MiB heap (whitepaper §3.2), recursion 256 (PVM section),
    /// /tmp 256 KiB (§3.1) and a 10,000,000-cycle budget.
    fn default() -> Self {
        Limits {
            cycles: 10_000_000,
            heap_bytes: 10 * 1024 * 1024,
            max_depth: 256,
            tmp_bytes: 256 * 1024,
        }
    }
}

/// An uncaught error: type name, message and traceback lines (outermost first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyErrorInfo {
    /// Exception type name, e.g. `ZeroDivisionError`, or an abort: `OutOfCycles`, `MemoryError`,
    /// `SandboxError`, `DeterminismError`, `SyntaxError`.
    pub type_name: String,
    /// `str(exception)`.
    pub message: String,
    /// `File "x.py", line N, in f` lines, outermost call first.
    pub traceback: Vec<String>,
}

/// Result of running a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// Everything the program printed.
    pub stdout: String,
    /// The uncaught error, if the program did not complete.
    pub error: Option<PyErrorInfo>,
    /// Cycles consumed (a pure function of program + limits).
    pub cycles_used: u64,
    /// Cells (bytes at boundaries: printed output) consumed.
    pub cells_used: u64,
}

/// Source files larger than this are rejected before parsing.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Compile and run `source` as module `__main__`.
///
/// Deterministic: the same source and limits always give the same outcome, including
/// `cycles_used`. Runs on a PVM thread with a large stack ([`worker`]) so no input can
/// overflow the host stack; all memory of the run is released before it returns.
pub fn run_program(source: &str, filename: &str, limits: &Limits) -> RunOutcome {
    match worker::run(|| run_program_here(source, filename, limits)) {
        Some(out) => out,
        None => RunOutcome {
            stdout: String::new(),
            error: Some(PyErrorInfo {
                type_name: "SystemError".into(),
                message: "the PVM thread could not be run".into(),
                traceback: vec![],
            }),
            cycles_used: limits.cycles,
            cells_used: 0,
        },
    }
}

/// Like [`run_program`] but on the calling thread (the caller provides enough stack).
pub fn run_program_here(source: &str, filename: &str, limits: &Limits) -> RunOutcome {
    run_program_here_with(source, filename, limits, RunOptions::default())
}

/// Options of an embedder's run ([`run_program_with`]). The default is exactly
/// [`run_program`]; actors never get anything else.
#[derive(Debug, Default)]
pub struct RunOptions {
    /// Extra modules importable by this run only ([`modules::embedder`]).
    pub embedder: Option<modules::embedder::Embedder>,
    /// Options the main program is compiled with.
    pub compile: compile::CompileOptions,
}

/// Like [`run_program`], with the embedder's modules and compile options (run on a PVM
/// thread, [`worker`]).
pub fn run_program_with(
    source: &str,
    filename: &str,
    limits: &Limits,
    opts: RunOptions,
) -> RunOutcome {
    match worker::run(move || run_program_here_with(source, filename, limits, opts)) {
        Some(out) => out,
        None => RunOutcome {
            stdout: String::new(),
            error: Some(PyErrorInfo {
                type_name: "SystemError".into(),
                message: "the PVM thread could not be run".into(),
                traceback: vec![],
            }),
            cycles_used: limits.cycles,
            cells_used: 0,
        },
    }
}

/// Like [`run_program_with`] but on the calling thread (the caller provides enough stack).
pub fn run_program_here_with(
    source: &str,
    filename: &str,
    limits: &Limits,
    opts: RunOptions,
) -> RunOutcome {
    if source.len() > MAX_SOURCE_BYTES {
        return RunOutcome {
            stdout: String::new(),
            error: Some(PyErrorInfo {
                type_name: "SyntaxError".into(),
                message: format!("source exceeds {MAX_SOURCE_BYTES} bytes"),
                traceback: vec![],
            }),
            cycles_used: 0,
            cells_used: 0,
        };
    }
    let code = match compile::compile_module_with(source, filename, opts.compile) {
        Ok(c) => c,
        Err(e) => {
            return RunOutcome {
                stdout: String::new(),
                error: Some(PyErrorInfo {
                    type_name: "SyntaxError".into(),
                    message: e.msg,
                    traceback: vec![format!("File \"{}\", line {}", filename, e.line)],
                }),
                cycles_used: 0,
                cells_used: 0,
            };
        }
    };
    let mut vm = Vm::new(limits);
    vm.stdlib.embedder = opts.embedder;
    let r = vm.run_module(code, "__main__");
    let error = match r {
        Ok(_) => None,
        Err(f) => Some(error_info(&mut vm, f)),
    };
    let out = RunOutcome {
        stdout: std::mem::take(&mut vm.stdout),
        error,
        cycles_used: vm.meter.limit - vm.meter.left,
        cells_used: vm.meter.cells,
    };
    vm.frames.clear();
    drop(vm);
    heap::release_all();
    out
}

pub(crate) fn error_info(vm: &mut Vm, f: Flow) -> PyErrorInfo {
    match f {
        Flow::Abort(a) => {
            let (t, m) = match a {
                Abort::OutOfCycles => ("OutOfCycles", "cycle budget exhausted".to_string()),
                Abort::Memory => ("MemoryError", "heap limit exceeded".to_string()),
                Abort::Sandbox(m) => ("SandboxError", m),
                Abort::Determinism(m) => ("DeterminismError", m),
            };
            PyErrorInfo {
                type_name: t.into(),
                message: m,
                traceback: vec![],
            }
        }
        Flow::Exc(e) => {
            let type_name = vm.class_of(&e).name.to_string();
            // str() may run user code; give it a small fresh budget so reporting always ends.
            let saved = vm.meter.left;
            let used_before = vm.meter.limit - saved;
            vm.meter.left = 100_000;
            vm.meter.limit = used_before + 100_000;
            let message = vm.to_str(&e).unwrap_or_default();
            vm.meter.left = saved;
            vm.meter.limit = used_before + saved;
            let mut traceback = match &e {
                Value::Instance(i) => i
                    .exc
                    .as_ref()
                    .map(|s| s.borrow().traceback.clone())
                    .unwrap_or_default(),
                _ => vec![],
            };
            traceback.reverse();
            PyErrorInfo {
                type_name,
                message,
                traceback,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> RunOutcome {
        run_program(src, "t.py", &Limits::default())
    }

    #[test]
    fn hello() {
        let o = run("print('hello', 1 + 2)\n");
        assert_eq!(o.error, None);
        assert_eq!(o.stdout, "hello 3\n");
        assert!(o.cycles_used > 0);
    }

    #[test]
    fn out_of_cycles() {
        let o = run_program(
            "while True:\n    pass\n",
            "t.py",
            &Limits {
                cycles: 10_000,
                ..Limits::default()
            },
        );
        assert_eq!(
            o.error.map(|e| e.type_name),
            Some("OutOfCycles".to_string())
        );
        assert_eq!(o.cycles_used, 10_000);
    }

    fn err(src: &str) -> String {
        run(src).error.map(|e| e.type_name).unwrap_or_default()
    }

    #[test]
    fn sandbox_and_limits() {
        assert_eq!(err("import os\n"), "ImportError");
        assert_eq!(err("eval('1')\n"), "SandboxError");
        assert_eq!(err("open('/etc/passwd')\n"), "SandboxError");
        assert_eq!(err("x = 'a'\ny = 'a'\nprint(x is y)\n"), "DeterminismError");
        assert_eq!(err("print(id(1))\n"), "DeterminismError");
        assert_eq!(err("print(2 ** 5000)\n"), "OverflowError");
        assert_eq!(err("print(1 << 5000)\n"), "OverflowError");
        assert_eq!(err("s = 'x' * 20_000_000\n"), "MemoryError");
        assert_eq!(err("print(len(f\"{'x':>100000000}\"))\n"), "MemoryError");
        assert_eq!(err("def f():\n    return f()\nf()\n"), "RecursionError");
        assert_eq!(
            err("a = []\nfor i in range(10**6):\n    a = [a]\n"),
            "MemoryError"
        );
        // catchable errors really are catchable; aborts are not
        let o = run("try:\n    import os\nexcept ImportError as e:\n    print(e)\n");
        assert!(
            o.stdout
                .starts_with("module 'os' is not available in the PVM (importable modules: abc,")
        );
        let o = run("try:\n    eval('1')\nexcept BaseException:\n    print('caught')\n");
        assert_eq!(
            o.error.map(|e| e.type_name),
            Some("SandboxError".to_string())
        );
        assert_eq!(o.stdout, "");
        // `is` with None is deterministic and allowed
        assert_eq!(
            run("x = 'a'\nprint(x is None, x is not None)\n").stdout,
            "False True\n"
        );
    }

    #[test]
    fn tracebacks_name_frames_outermost_first() {
        let o = run("def f():\n    return 1 // 0\ndef g():\n    f()\ng()\n");
        let e = o.error.expect("error");
        assert_eq!(e.type_name, "ZeroDivisionError");
        assert_eq!(e.message, "integer division or modulo by zero");
        assert_eq!(
            e.traceback,
            vec![
                "File \"t.py\", line 5, in <module>".to_string(),
                "File \"t.py\", line 4, in g".to_string(),
                "File \"t.py\", line 2, in f".to_string(),
            ]
        );
    }

    #[test]
    fn deterministic_cycles() {
        let src = "d = {}\nfor i in range(1000):\n    d[str(i)] = i * i\nprint(sum(d.values()))\n";
        let a = run(src);
        let b = run(src);
        assert_eq!(a, b);
    }
}
