//! Actors: deploying a Python module as an actor and calling its handlers.
//!
//! One invocation = a fresh VM: the actor's source is compiled and its module body run, the
//! actor class is found ([`find_actor_class`]), then
//! * **deploy** instantiates it with the decoded arguments (`__init__` runs once), and
//! * **call** restores an instance *without* running `__init__`, sets the persisted instance
//!   attributes back, and calls the public handler with the decoded arguments.
//!
//! Afterwards the instance attributes are encoded canonically and written to the reserved
//! cell [`crate::host::STATE_KEY`] when they changed (so a plain `class Actor:` keeps its
//! attributes across calls, and `@actor` classes keep theirs beside `self.storage`).
//!
//! Arguments are a canonical CBOR array of positional arguments; the result is the canonical
//! CBOR of the return value. Any failure — a Python exception, running out of cycles or
//! cells, an unencodable value, the storage quota — undoes every storage write of the
//! invocation and drops its effects. Every step is charged on the invocation's meter; see
//! docs/metering.md.

use crate::PyErrorInfo;
use crate::host::{self, ActorState, CallContext, Effect, Host, MAX_CALL_DEPTH, STATE_KEY};
use crate::value::*;
use crate::vm::{Flow, PyResult, Vm};
use cowboy_cbor as cbor;
use std::rc::Rc;

/// Module name actor code runs as (so `if __name__ == "__main__":` blocks do not run).
pub const ACTOR_MODULE: &str = "actor";
/// File name in tracebacks.
pub const ACTOR_FILE: &str = "actor.py";

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Run `__init__` with the arguments.
    Deploy,
    /// Call a public handler.
    Call(String),
}

/// One actor invocation.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// Deploy or call.
    pub entry: Entry,
    /// The actor's Python source.
    pub source: String,
    /// Canonical CBOR array of positional arguments.
    pub args: Vec<u8>,
    /// Call context.
    pub ctx: CallContext,
    /// Cycle budget.
    pub cycles: u64,
    /// Cell budget.
    pub cells: u64,
}

/// Result of an invocation. When `error` is set, no storage write of the invocation remains
/// and `effects` is empty; cycles and cells are still what was used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActorOutcome {
    /// Canonical CBOR of the return value (`null` for a deploy); None on failure.
    pub result: Option<Vec<u8>>,
    /// The failure, if any.
    pub error: Option<PyErrorInfo>,
    /// Cycles consumed.
    pub cycles_used: u64,
    /// Cells consumed.
    pub cells_used: u64,
    /// Printed output.
    pub stdout: String,
    /// Effects in the order the handler produced them.
    pub effects: Vec<Effect>,
}

impl ActorOutcome {
    /// True when the invocation succeeded.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}

/// Run an invocation on a big-stack PVM thread (see [`crate::worker`]).
pub fn execute(host: &mut (dyn Host + Send), inv: &Invocation) -> ActorOutcome {
    match crate::worker::run(|| execute_here(host, inv)) {
        Some(out) => out,
        None => failure(
            "SystemError",
            "the PVM thread could not be run".into(),
            inv.cycles,
            0,
        ),
    }
}

fn failure(kind: &str, message: String, cycles: u64, cells: u64) -> ActorOutcome {
    ActorOutcome {
        result: None,
        error: Some(PyErrorInfo {
            type_name: kind.into(),
            message,
            traceback: vec![],
        }),
        cycles_used: cycles,
        cells_used: cells,
        stdout: String::new(),
        effects: vec![],
    }
}

enum Fail {
    Flow(Flow),
    Info(PyErrorInfo),
}

impl From<Flow> for Fail {
    fn from(f: Flow) -> Fail {
        Fail::Flow(f)
    }
}

/// Like [`execute`] but on the calling thread (which must have a large stack).
pub fn execute_here(host: &mut dyn Host, inv: &Invocation) -> ActorOutcome {
    if inv.source.len() > crate::MAX_SOURCE_BYTES {
        return failure(
            "SyntaxError",
            format!("source exceeds {} bytes", crate::MAX_SOURCE_BYTES),
            0,
            0,
        );
    }
    let limits = crate::Limits {
        cycles: inv.cycles,
        ..crate::Limits::default()
    };
    let mut vm = Vm::new(&limits);
    vm.actor = Some(Box::new(ActorState::new(inv.ctx.clone(), inv.cells)));
    let out = host::with_host(&mut vm, host, |vm| {
        let r = match body(vm, inv) {
            Ok(res) => host::flush_usage(vm).map(|_| res).map_err(Fail::Flow),
            Err(e) => Err(e),
        };
        match r {
            Ok(res) => Ok(res),
            Err(e) => {
                let info = match e {
                    Fail::Info(i) => i,
                    Fail::Flow(f) => {
                        let fatal = vm.actor.as_deref_mut().and_then(|a| a.fatal.take());
                        let mut info = crate::error_info(vm, f);
                        if let Some((kind, msg)) = fatal {
                            info.type_name = kind;
                            info.message = msg;
                        }
                        info
                    }
                };
                if let Err(e) = host::rollback(vm) {
                    return Err(PyErrorInfo {
                        type_name: "HostError".into(),
                        message: format!("could not undo the failed invocation: {e}"),
                        traceback: vec![],
                    });
                }
                Err(info)
            }
        }
    });
    let cycles_used = vm.meter.limit - vm.meter.left;
    let cells_used = vm.meter.cells;
    let stdout = std::mem::take(&mut vm.stdout);
    let effects = vm
        .actor
        .as_deref_mut()
        .map(|a| std::mem::take(&mut a.effects))
        .unwrap_or_default();
    vm.frames.clear();
    drop(vm);
    crate::heap::release_all();
    match out {
        Ok(result) => ActorOutcome {
            result: Some(result),
            error: None,
            cycles_used,
            cells_used,
            stdout,
            effects,
        },
        Err(info) => ActorOutcome {
            result: None,
            error: Some(info),
            cycles_used,
            cells_used,
            stdout,
            effects: vec![],
        },
    }
}

fn fail(kind: &str, message: impl Into<String>) -> Fail {
    Fail::Info(PyErrorInfo {
        type_name: kind.into(),
        message: message.into(),
        traceback: vec![],
    })
}

fn body(vm: &mut Vm, inv: &Invocation) -> Result<Vec<u8>, Fail> {
    if inv.ctx.depth > MAX_CALL_DEPTH {
        return Err(fail(
            "ReentrancyError",
            format!(
                "message chain depth {} exceeds the maximum of {MAX_CALL_DEPTH}",
                inv.ctx.depth
            ),
        ));
    }
    if let Entry::Call(h) = &inv.entry
        && !is_public_handler_name(h)
    {
        return Err(fail(
            "HandlerNotFound",
            format!("'{h}' is not a public handler (names starting with '_' are private)"),
        ));
    }
    let code = crate::compile::compile_module(&inv.source, ACTOR_FILE).map_err(|e| {
        Fail::Info(PyErrorInfo {
            type_name: "SyntaxError".into(),
            message: e.msg,
            traceback: vec![format!("File \"{ACTOR_FILE}\", line {}", e.line)],
        })
    })?;
    let module = vm.run_module(code, ACTOR_MODULE)?;
    let cls = find_actor_class(&module).map_err(|m| fail("NoActorClass", m))?;
    let args = decode_args(vm, &inv.args)?;
    let (inst, before, result) = match &inv.entry {
        Entry::Deploy => {
            let inst = vm.instantiate(&cls, args, vec![])?;
            (inst, None, Value::None)
        }
        Entry::Call(h) => {
            let inst = vm.new_instance(&cls, &[]);
            let before = load_state(vm, &inst)?;
            let func = match vm.class_lookup(&cls, h) {
                Some(f @ Value::Function(_)) => f,
                _ => {
                    return Err(fail(
                        "HandlerNotFound",
                        format!("actor class '{}' has no handler '{h}'", cls.name),
                    ));
                }
            };
            let mut a = Vec::with_capacity(args.len() + 1);
            a.push(inst.clone());
            a.extend(args);
            let r = vm.call(&func, a, vec![])?;
            (inst, before, r)
        }
    };
    let encoded = match host::encode(vm, &result) {
        Ok(b) => b,
        Err(Flow::Exc(_)) => {
            return Err(fail(
                "EncodingError",
                format!(
                    "the handler returned a value of type '{}' that cannot be encoded \
                     canonically (allowed: None, bool, int, float, str, bytes, list, tuple, \
                     dict, set)",
                    vm.type_name(&result)
                ),
            ));
        }
        Err(e) => return Err(e.into()),
    };
    save_state(vm, &inst, before)?;
    Ok(encoded)
}

/// True for names a message may call: identifiers not starting with `_`.
pub fn is_public_handler_name(h: &str) -> bool {
    !h.is_empty()
        && !h.starts_with('_')
        && h.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !h.starts_with(|c: char| c.is_ascii_digit())
}

/// The actor class of a module: the one class decorated with `@actor`, else the class named
/// `Actor`, else the only class the module defines.
pub fn find_actor_class(module: &Rc<Module>) -> Result<Rc<Class>, String> {
    let mut own = Vec::new();
    for e in module.dict.borrow().iter() {
        if let Value::Class(c) = &e.value {
            let here = matches!(
                c.dict.borrow().get_str("__module__"),
                Some(Value::Str(s)) if &*s.s == ACTOR_MODULE
            );
            if here && !own.iter().any(|o: &Rc<Class>| Rc::ptr_eq(o, c)) {
                own.push(c.clone());
            }
        }
    }
    let marked: Vec<_> = own
        .iter()
        .filter(|c| c.dict.borrow().get_str("__cowboy_actor__").is_some())
        .cloned()
        .collect();
    match marked.len() {
        1 => return Ok(marked[0].clone()),
        0 => {}
        n => {
            return Err(format!(
                "{n} classes are decorated with @actor; an actor has one"
            ));
        }
    }
    if let Some(c) = own.iter().find(|c| &*c.name == "Actor") {
        return Ok(c.clone());
    }
    if own.len() == 1 {
        return Ok(own[0].clone());
    }
    Err("no actor class: define `class Actor:` or decorate one class with @actor".into())
}

fn decode_args(vm: &mut Vm, raw: &[u8]) -> Result<Vec<Value>, Fail> {
    vm.charge(host::costs::codec(raw.len()))?;
    let c = cbor::decode(raw).map_err(|e| {
        fail(
            "InvalidArguments",
            format!("arguments are not canonical CBOR: {e}"),
        )
    })?;
    let cbor::Value::Array(items) = c else {
        return Err(fail(
            "InvalidArguments",
            "arguments must be a CBOR array of positional arguments",
        ));
    };
    let mut out = Vec::with_capacity(items.len());
    for it in &items {
        out.push(host::from_cbor(vm, it, false)?);
    }
    Ok(out)
}

fn instance_dict(inst: &Value) -> Option<Rc<PyDict>> {
    match inst {
        Value::Instance(i) => Some(i.dict.clone()),
        _ => None,
    }
}

/// Restore persisted attributes; returns the stored encoding (to skip unchanged writes).
fn load_state(vm: &mut Vm, inst: &Value) -> PyResult<Option<Vec<u8>>> {
    let Some(raw) = host::storage_read(vm, STATE_KEY)? else {
        return Ok(None);
    };
    let v = host::decode(vm, &raw)?;
    let (Value::Dict(src), Some(dst)) = (&v, instance_dict(inst)) else {
        return Err(vm.exc("SystemError", "corrupt actor state record"));
    };
    let entries: Vec<(Value, Value)> = src
        .d
        .borrow()
        .iter()
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect();
    for (k, val) in entries {
        let Value::Str(name) = k else {
            return Err(vm.exc("SystemError", "corrupt actor state record"));
        };
        dst.d.borrow_mut().set_str(name, val);
    }
    Ok(Some(raw))
}

/// Persist the instance attributes if their encoding changed.
fn save_state(vm: &mut Vm, inst: &Value, before: Option<Vec<u8>>) -> Result<(), Fail> {
    let Some(d) = instance_dict(inst) else {
        return Ok(());
    };
    let entries: Vec<(Value, Value)> =
        d.d.borrow()
            .iter()
            .map(|e| (e.key.clone(), e.value.clone()))
            .collect();
    if entries.is_empty() {
        if before.is_some() {
            host::storage_remove(vm, STATE_KEY)?;
        }
        return Ok(());
    }
    let mut map = Vec::with_capacity(entries.len());
    for (k, val) in &entries {
        let name = match k {
            Value::Str(s) => s.s.to_string(),
            _ => continue,
        };
        match host::to_cbor(vm, val, 1) {
            Ok(c) => map.push((cbor::Value::Text(name), c)),
            Err(Flow::Exc(_)) => {
                return Err(fail(
                    "EncodingError",
                    format!(
                        "actor attribute '{name}' of type '{}' cannot be persisted (allowed: \
                         None, bool, int, float, str, bytes, list, tuple, dict, set)",
                        vm.type_name(val)
                    ),
                ));
            }
            Err(e) => return Err(e.into()),
        }
    }
    let bytes = cbor::encode(&cbor::Value::Map(map)).map_err(|e| {
        fail(
            "EncodingError",
            format!("actor attributes cannot be persisted: {e}"),
        )
    })?;
    vm.charge(host::costs::codec(bytes.len()))?;
    if before.as_deref() != Some(&bytes[..]) {
        host::storage_write(vm, STATE_KEY, &bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_handler_names() {
        for ok in ["increment", "get_count", "x1", "ünïcode"] {
            assert!(is_public_handler_name(ok), "{ok}");
        }
        for bad in ["", "_x", "__init__", "1x", "a-b", "a b", "a.b"] {
            assert!(!is_public_handler_name(bad), "{bad}");
        }
    }

    #[test]
    fn outcome_ok_tracks_the_error() {
        let o = failure("OutOfCycles", "x".into(), 5, 0);
        assert!(!o.ok());
        assert_eq!(o.cycles_used, 5);
        assert!(o.effects.is_empty() && o.result.is_none());
    }
}
