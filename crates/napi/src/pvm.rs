//! JavaScript bindings of `pvm-core`: run a Python program in the PVM.
//!
//! `pvmRun(source, filename, {cyclesLimit?})` returns `{stdout, error, cycles, cells}` where
//! `error` is `null` or `{type, message, traceback}` (an uncaught Python exception or a VM
//! abort such as `OutOfCycles`). Bad arguments throw with code `ERR_INVALID_ARG`.

use napi_derive::napi;

/// Options of [`pvm_run`].
#[napi(object)]
#[derive(Debug)]
pub struct PvmRunOptions {
    /// Cycle budget (default: the PVM's default limit). Must be a non-negative safe integer.
    pub cycles_limit: Option<f64>,
}

/// An uncaught error of a PVM run.
#[napi(object)]
#[derive(Debug)]
pub struct PvmError {
    /// exception type name, e.g. `ZeroDivisionError`, `OutOfCycles`
    #[napi(js_name = "type")]
    pub type_name: String,
    /// `str(exception)`
    pub message: String,
    /// `File "x.py", line N, in f` lines, outermost first
    pub traceback: Vec<String>,
}

/// The outcome of a PVM run.
#[napi(object)]
#[derive(Debug)]
pub struct PvmRunOutcome {
    /// everything the program printed
    pub stdout: String,
    /// the uncaught error, or null when the program completed
    pub error: Option<PvmError>,
    /// cycles consumed
    pub cycles: f64,
    /// cells consumed
    pub cells: f64,
}

/// Largest integer a JS number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Runs `source` as the program `filename` in a fresh PVM.
#[napi]
pub fn pvm_run(
    source: String,
    filename: String,
    options: Option<PvmRunOptions>,
) -> napi::Result<PvmRunOutcome, String> {
    let mut limits = pvm_core::Limits::default();
    if let Some(limit) = options.and_then(|o| o.cycles_limit) {
        if !((0.0..=MAX_SAFE_INTEGER).contains(&limit) && limit.fract() == 0.0) {
            return Err(napi::Error::new(
                "ERR_INVALID_ARG".to_owned(),
                format!("cyclesLimit: expected a non-negative safe integer, got {limit}"),
            ));
        }
        limits.cycles = limit as u64;
    }
    Ok(pvm_core::run_program(&source, &filename, &limits).into())
}

impl From<pvm_core::RunOutcome> for PvmRunOutcome {
    fn from(out: pvm_core::RunOutcome) -> Self {
        PvmRunOutcome {
            stdout: out.stdout,
            error: out.error.map(|e| PvmError {
                type_name: e.type_name,
                message: e.message,
                traceback: e.traceback,
            }),
            cycles: out.cycles_used as f64,
            cells: out.cells_used as f64,
        }
    }
}
