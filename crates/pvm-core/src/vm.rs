//! The interpreter: frame stack, dispatch loop, calls, exceptions, generators.

use crate::bytecode::{Code, CodeKind, Instr};
use crate::cost;
use crate::dict::Dict;
use crate::heap::{self, Tracked};
use crate::value::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Non-exception control flow out of the VM: Python exceptions or aborts.
#[derive(Debug)]
pub enum Flow {
    /// A Python exception (an exception instance).
    Exc(Value),
    /// An uncatchable abort.
    Abort(Abort),
}

/// Uncatchable reasons to stop an invocation.
#[derive(Debug, Clone)]
pub enum Abort {
    /// Cycle budget exhausted.
    OutOfCycles,
    /// Heap cap exceeded.
    Memory,
    /// Forbidden operation.
    Sandbox(String),
    /// Non-deterministic operation.
    Determinism(String),
}

/// Result type of VM operations.
pub type PyResult<T> = Result<T, Flow>;

/// A handler block pushed by `SetupExcept`.
#[derive(Debug, Clone, Copy)]
pub struct Block {
    handler: u32,
    depth: u32,
    exc_depth: u32,
}

/// An activation record.
#[derive(Debug)]
pub struct Frame {
    /// Code being run.
    pub code: Rc<Code>,
    /// Next instruction.
    pub ip: usize,
    /// Value stack.
    pub stack: Vec<Value>,
    /// Fast locals (None = unbound).
    pub locals: Vec<Option<Value>>,
    /// Cells then free variables.
    pub cells: Vec<Rc<PyCell>>,
    /// Module globals.
    pub globals: Rc<Module>,
    /// Class-body namespace.
    pub ns: Option<Rc<PyDict>>,
    /// Handler blocks.
    pub blocks: Vec<Block>,
    /// Exceptions currently being handled in this frame.
    pub exc_stack: Vec<Value>,
    /// Function being run (for zero-arg super()).
    pub func: Option<Rc<Function>>,
    /// What the frame below receives when this frame returns (see [`FrameRet`]).
    pub ret: FrameRet,
}

/// How a returning frame's value reaches the frame below it. Calls the interpreter makes on
/// behalf of an instruction (`__init__` of a class call, a binary dunder method) push a frame
/// instead of nesting a native [`Vm::call`]; this records the work that native code would have
/// done with the result, so the observable behaviour (results, errors, charges) is the same.
#[derive(Debug, Default)]
pub enum FrameRet {
    /// Push the returned value (an ordinary call).
    #[default]
    Value,
    /// `__init__` of an instance being created: the value must be None (else TypeError, as
    /// in `instantiate_plain`), and the instance is pushed instead.
    Init(Value),
    /// `lhs.__op__(rhs)` of a binary operator: `NotImplemented` goes on to the reflected
    /// method and the rest of [`Vm::binary_op`] (see [`Vm::binary_op_after_lhs`]).
    BinOp(Box<(Value, Value, crate::bytecode::BinOp)>),
}

/// What the `LOAD_ATTR` fast path makes of an instance attribute (see `Vm::inst_attr`).
enum InstAttr {
    /// Found in the instance dict, where `get_attr` finds it.
    Hit(Value),
    /// A property whose getter is a plain function of one parameter, to be called in a frame.
    Getter(Rc<Function>),
    /// Anything else: `get_attr` decides.
    Slow,
}

/// How `run` ended.
#[derive(Debug)]
pub enum RunExit {
    /// Frame returned.
    Return(Value),
    /// Generator frame yielded (frame is in `Vm::yielded`).
    Yield(Value),
}

/// Result of resuming a generator.
#[derive(Debug)]
pub enum GenStep {
    /// Yielded a value.
    Yielded(Value),
    /// Returned (StopIteration value).
    Returned(Value),
}

/// Suspended generator frames whose generator object lost its last reference and that still
/// have handler blocks to run. Dropping happens where no VM is at hand, so the frames wait
/// here; the VM closes them (throws `GeneratorExit`) before its next instruction, which is
/// the point CPython's reference counting would have run the generator's `finally`/`with`
/// code. Order is the order of the drops, so finalization is deterministic.
#[derive(Debug, Default)]
pub struct FinalizeQueue {
    pending: Cell<bool>,
    frames: RefCell<std::collections::VecDeque<(Box<Frame>, Rc<str>)>>,
}

impl FinalizeQueue {
    /// Queue a suspended generator frame (with its generator's name) for closing.
    pub fn push(&self, frame: Box<Frame>, name: Rc<str>) {
        self.frames.borrow_mut().push_back((frame, name));
        self.pending.set(true);
    }

    /// True while frames wait to be closed (the run loop closes them before its next
    /// instruction).
    pub(crate) fn is_pending(&self) -> bool {
        self.pending.get()
    }

    /// Take the oldest queued frame.
    fn pop_front(&self) -> Option<(Box<Frame>, Rc<str>)> {
        let mut q = self.frames.borrow_mut();
        let item = q.pop_front();
        self.pending.set(!q.is_empty());
        item
    }
}

/// Limits and accounting for one invocation.
#[derive(Debug)]
pub struct Meter {
    /// Cycles remaining.
    pub left: u64,
    /// Cycle limit.
    pub limit: u64,
    /// Cells (bytes) used.
    pub cells: u64,
}

impl Meter {
    /// Charges `c` cycles: the one place a cycle charge is made (the dispatch loop's
    /// per-instruction cost, the second instruction of a superinstruction, size surcharges via
    /// [`Vm::charge`]). If fewer than `c` cycles are left, the meter drops to zero and the run
    /// stops with `OutOfCycles` before the charged work happens.
    #[inline(always)]
    pub fn charge(&mut self, c: u64) -> PyResult<()> {
        if c > self.left {
            self.left = 0;
            return Err(Flow::Abort(Abort::OutOfCycles));
        }
        self.left -= c;
        Ok(())
    }
}

/// The virtual machine for one invocation.
pub struct Vm {
    pub(crate) frames: Vec<Frame>,
    pub(crate) meter: Meter,
    pub(crate) max_depth: usize,
    pub(crate) heap_limit: usize,
    pub(crate) tmp_limit: usize,
    pub(crate) stdout: String,
    pub(crate) builtins: Rc<Module>,
    /// The built-in classes, shared by every VM of the thread (see [`crate::prelude::Prelude`]).
    pub(crate) types: Rc<crate::types::Types>,
    pub(crate) modules: Vec<(Rc<str>, Value)>,
    pub(crate) next_id: Cell<u64>,
    pub(crate) yielded: Option<Box<Frame>>,
    pub(crate) native_depth: u32,
    pub(crate) repr_stack: Vec<usize>,
    pub(crate) stack_pool: Vec<Vec<Value>>,
    /// Emptied fast-local vectors of returned frames, reused by calls.
    pub(crate) locals_pool: Vec<Vec<Option<Value>>>,
    pub(crate) tmpfs: crate::tmpfs::TmpFs,
    pub(crate) file_class: Option<Rc<Class>>,
    pub(crate) view_classes: [Option<Rc<Class>>; 3],
    /// Per-invocation state of the standard-library modules (compiled-regex cache).
    pub(crate) stdlib: crate::modules::State,
    /// Actor execution state (host, effects, storage accounting); None outside an actor call.
    pub(crate) actor: Option<Box<crate::host::ActorState>>,
    /// Dropped suspended generators waiting to be closed (see [`FinalizeQueue`]).
    pub(crate) finalize: Rc<FinalizeQueue>,
    /// The heap bytes the shared built-ins namespace's key strings charge, charged to this VM
    /// as if it had built them (credited back when the VM is dropped).
    pub(crate) _prelude_acct: heap::Acct,
    /// Class attribute lookups shared by all call sites (see [`MethodCache`]).
    pub(crate) method_cache: MethodCache,
}

impl std::fmt::Debug for Vm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vm")
            .field("frames", &self.frames.len())
            .finish()
    }
}

/// One entry of [`MethodCache`]: the name `name` (hash `h`) is absent from the first
/// `depth - 1` dicts of a class and its MRO and lives at `slot` of dict number `depth - 1`
/// (or, when `miss`, is absent from all `depth` dicts, which are the class and its whole
/// MRO), where `vers[..depth]` are the versions those dicts had (`vers[0]`: the class's own
/// dict). `depth == 0` means empty.
#[derive(Debug, Clone, Default)]
pub(crate) struct MethodEntry {
    h: u64,
    vers: [u64; 3],
    slot: u32,
    depth: u8,
    miss: bool,
    name: Option<Rc<str>>,
}

/// A direct-mapped cache of class attribute lookups behind the per-instruction inline caches,
/// indexed by (class dict version, name hash), so call sites that see several classes (a
/// polymorphic `t.run()`, `self.x` in a method shared by subclasses with properties) find the
/// result without walking the MRO.
///
/// A hit is exact: the entry holds the name it was filled for, and its versions pin the key
/// layout of every dict the lookup consults (versions are never reused for a different
/// layout, see [`Dict::version`]); the value is read from the recorded slot. Which entry a
/// lookup uses depends only on version tags and hashes (deterministic counters), and a hit
/// gives exactly the uncached result either way.
#[derive(Debug, Default)]
pub(crate) struct MethodCache {
    entries: RefCell<Vec<MethodEntry>>,
}

impl MethodCache {
    /// Number of entries (a power of two); allocated on the first fill.
    const SIZE: usize = 256;

    /// Index of the entry for a class whose own dict has version `v0` and a name with hash `h`.
    #[inline]
    fn index(v0: u64, h: u64) -> usize {
        let x = (v0 ^ h.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (x >> 56) as usize & (Self::SIZE - 1)
    }

    /// A copy of the entry's facts (`vers`, `slot`, `depth`, `miss`) when it was filled for
    /// `name` (hash `h`) on a class whose own dict has version `v0`.
    #[inline]
    fn get(&self, v0: u64, h: u64, name: &str) -> Option<([u64; 3], u32, u8, bool)> {
        let t = self.entries.borrow();
        let e = t.get(Self::index(v0, h))?;
        (e.depth >= 1 && e.h == h && e.vers[0] == v0 && e.name.as_deref() == Some(name))
            .then_some((e.vers, e.slot, e.depth, e.miss))
    }

    /// Record a lookup result.
    fn set(&self, e: MethodEntry) {
        let mut t = self.entries.borrow_mut();
        if t.is_empty() {
            t.resize(Self::SIZE, MethodEntry::default());
        }
        let i = Self::index(e.vers[0], e.h);
        t[i] = e;
    }
}

/// Maximum Rust-level nesting of native helpers (repr/eq/hash of nested values, callbacks).
pub const MAX_NATIVE_DEPTH: u32 = 200;

impl Vm {
    /// Fresh VM. The built-in classes and the built-ins namespace come from this thread's
    /// [`crate::prelude::Prelude`] (built by the first VM of the thread): the VM observes
    /// exactly what building them itself would give (same objects by value, ids, heap charge).
    pub fn new(limits: &crate::Limits) -> Vm {
        let p = crate::prelude::prelude();
        Vm::with_prelude_parts(limits, p.types.clone(), p.namespace(), p.next_id, p.bytes)
    }

    /// A VM with the given built-in classes and built-ins namespace, whose id counter starts at
    /// `next_id` and which charges `prelude_bytes` heap bytes for as long as it lives.
    pub(crate) fn with_prelude_parts(
        limits: &crate::Limits,
        types: Rc<crate::types::Types>,
        namespace: Dict,
        next_id: u64,
        prelude_bytes: usize,
    ) -> Vm {
        let builtins = Rc::new(Module {
            name: Rc::from("builtins"),
            dict: RefCell::new(namespace),
        });
        Vm {
            frames: Vec::new(),
            meter: Meter {
                left: limits.cycles,
                limit: limits.cycles,
                cells: 0,
            },
            max_depth: limits.max_depth as usize,
            heap_limit: limits.heap_bytes,
            tmp_limit: limits.tmp_bytes,
            stdout: String::new(),
            builtins,
            types,
            modules: Vec::new(),
            next_id: Cell::new(next_id),
            yielded: None,
            native_depth: 0,
            repr_stack: Vec::new(),
            stack_pool: Vec::new(),
            locals_pool: Vec::new(),
            tmpfs: Default::default(),
            file_class: None,
            view_classes: [None, None, None],
            stdlib: Default::default(),
            actor: None,
            finalize: Rc::new(FinalizeQueue::default()),
            _prelude_acct: heap::Acct::new(prelude_bytes),
            method_cache: MethodCache::default(),
        }
    }

    /// Allocate a deterministic object id.
    pub fn new_id(&self) -> u64 {
        let i = self.next_id.get();
        self.next_id.set(i + 1);
        i
    }

    /// Charge cycles.
    #[inline(always)]
    pub fn charge(&mut self, c: u64) -> PyResult<()> {
        self.meter.charge(c)
    }

    /// Charge cells (bytes at boundaries).
    pub fn charge_cells(&mut self, n: u64) {
        self.meter.cells += n;
    }

    /// Fail with MemoryError if accounting exceeds the cap, or would after `extra` bytes.
    #[inline]
    pub fn check_mem(&self, extra: usize) -> PyResult<()> {
        if heap::used().saturating_add(extra) > self.heap_limit {
            return Err(Flow::Abort(Abort::Memory));
        }
        Ok(())
    }

    /// Charges the work a format spec asks for before it is done: `width` and `precision`
    /// size the output (checked against the heap cap, linear cost), and a float precision
    /// beyond 1,000 digits also means exact decimal expansion whose cost grows faster than
    /// linearly (charged `precision² / 64` cycles), so no spec can do unmetered work.
    pub fn charge_format_size(&mut self, width: usize, precision: usize) -> PyResult<()> {
        self.check_mem(width.saturating_add(precision).saturating_mul(4))?;
        self.charge((width as u64).saturating_add(precision as u64) / 4)?;
        if precision > 1_000 {
            self.charge((precision as u64).saturating_mul(precision as u64) / 64)?;
        }
        Ok(())
    }

    /// Enter a native recursion level.
    pub fn enter_native(&mut self) -> PyResult<()> {
        self.native_depth += 1;
        if self.native_depth > MAX_NATIVE_DEPTH {
            self.native_depth -= 1;
            return Err(self.exc("RecursionError", "maximum recursion depth exceeded"));
        }
        Ok(())
    }
    /// Leave a native recursion level.
    pub fn leave_native(&mut self) {
        self.native_depth -= 1;
    }

    // ---------- exceptions ----------

    /// Build an exception instance of built-in class `name` with a message.
    pub fn exc(&self, name: &str, msg: impl Into<String>) -> Flow {
        let msg: String = msg.into();
        let cls = self.exc_class(name);
        let args = if msg.is_empty() && name == "StopIteration" {
            vec![]
        } else {
            vec![Value::str(msg)]
        };
        Flow::Exc(self.make_exc(cls, args))
    }
    /// Exception with explicit args.
    pub fn exc_args(&self, name: &str, args: Vec<Value>) -> Flow {
        let cls = self.exc_class(name);
        Flow::Exc(self.make_exc(cls, args))
    }
    /// Built-in exception class by name.
    pub fn exc_class(&self, name: &str) -> Rc<Class> {
        match self.builtins.dict.borrow().get_str(name) {
            Some(Value::Class(c)) => c.clone(),
            _ => self.types.object.clone(),
        }
    }
    /// Instantiate an exception class with args (no __init__ call).
    pub fn make_exc(&self, cls: Rc<Class>, args: Vec<Value>) -> Value {
        let inst = Rc::new(Instance {
            class: RefCell::new(cls),
            dict: Rc::new(PyDict {
                d: RefCell::new(Dict::new()),
            }),
            exc: Some(RefCell::new(ExcState::default())),
            native: RefCell::new(Some(Value::tuple(args))),
            id: self.new_id(),
        });
        heap::register(Tracked::Instance(Rc::downgrade(&inst)));
        Value::Instance(inst)
    }
    /// TypeError helper.
    pub fn type_err(&self, msg: impl Into<String>) -> Flow {
        self.exc("TypeError", msg)
    }
    /// Sandbox abort helper.
    pub fn sandbox(&self, msg: impl Into<String>) -> Flow {
        Flow::Abort(Abort::Sandbox(msg.into()))
    }

    fn current_handled(&self) -> Option<Value> {
        for f in self.frames.iter().rev() {
            if let Some(e) = f.exc_stack.last() {
                return Some(e.clone());
            }
        }
        None
    }

    // ---------- frames & calls ----------

    /// The cells of a new frame of `func` (fresh cells, then the closure's), with cell
    /// parameters moved from `locals` into their cells.
    #[inline(always)]
    fn frame_cells(func: &Rc<Function>, locals: &mut [Option<Value>]) -> Vec<Rc<PyCell>> {
        let code = &func.code;
        if code.cellnames.is_empty() && func.closure.is_empty() && code.ncells == 0 {
            return Vec::new();
        }
        Self::frame_cells_slow(func, locals)
    }

    /// [`Vm::frame_cells`] for a function with cells or a closure.
    #[inline(never)]
    fn frame_cells_slow(func: &Rc<Function>, locals: &mut [Option<Value>]) -> Vec<Rc<PyCell>> {
        let code = &func.code;
        let mut cells: Vec<Rc<PyCell>> = Vec::with_capacity(code.cellnames.len());
        for _ in 0..code.ncells {
            let c = Rc::new(PyCell::default());
            heap::register(Tracked::Cell(Rc::downgrade(&c)));
            cells.push(c);
        }
        for c in &func.closure {
            cells.push(c.clone());
        }
        for &(ci, li) in &code.cell_params {
            let v = locals[li as usize].take();
            *cells[ci as usize].v.borrow_mut() = v;
        }
        cells
    }

    /// Same as `frame_for` then `push_frame` (same checks in the same order: the frame's cells
    /// exist before the memory check), but builds the frame directly on the frame stack.
    #[inline]
    fn push_call_frame(
        &mut self,
        func: &Rc<Function>,
        mut locals: Vec<Option<Value>>,
    ) -> PyResult<()> {
        let cells = Self::frame_cells(func, &mut locals);
        if self.frames.len() >= self.max_depth {
            return Err(self.exc("RecursionError", "maximum recursion depth exceeded"));
        }
        self.check_mem(0)?;
        let stack = self
            .stack_pool
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(8));
        self.frames.push(Frame {
            code: func.code.clone(),
            ip: 0,
            stack,
            locals,
            cells,
            globals: func.globals.clone(),
            ns: None,
            blocks: Vec::new(),
            exc_stack: Vec::new(),
            func: Some(func.clone()),
            ret: FrameRet::Value,
        });
        Ok(())
    }

    /// Build a frame for calling `func` with bound locals.
    fn frame_for(&mut self, func: &Rc<Function>, locals: Vec<Option<Value>>) -> Frame {
        let code = func.code.clone();
        let mut locals = locals;
        let cells = Self::frame_cells(func, &mut locals);
        Frame {
            code,
            ip: 0,
            stack: self
                .stack_pool
                .pop()
                .unwrap_or_else(|| Vec::with_capacity(8)),
            locals,
            cells,
            globals: func.globals.clone(),
            ns: None,
            blocks: Vec::new(),
            exc_stack: Vec::new(),
            func: Some(func.clone()),
            ret: FrameRet::Value,
        }
    }

    /// Bind arguments to parameters.
    pub fn bind_args(
        &mut self,
        func: &Rc<Function>,
        mut args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Vec<Option<Value>>> {
        let code = &func.code;
        let nlocals = code.varnames.len();
        let argc = code.argcount as usize;
        let kwonly = code.kwonlycount as usize;
        if kwargs.is_empty() && !code.varargs && !code.varkw && args.len() == argc && kwonly == 0 {
            let mut locals = self.locals_pool.pop().unwrap_or_default();
            locals.reserve(nlocals);
            locals.extend(args.into_iter().map(Some));
            pad_locals(&mut locals, nlocals);
            return Ok(locals);
        }
        let fname = func.name.borrow().clone();
        let mut locals: Vec<Option<Value>> = vec![None; nlocals];
        let npos = args.len().min(argc);
        let extra: Vec<Value> = if args.len() > argc {
            args.split_off(argc)
        } else {
            Vec::new()
        };
        for (i, a) in args.into_iter().enumerate() {
            locals[i] = Some(a);
        }
        let mut slot = argc + kwonly;
        if code.varargs {
            locals[slot] = Some(Value::tuple(extra));
            slot += 1;
        } else if !extra.is_empty() {
            let given = npos + extra.len();
            let ndef = func.defaults.borrow().len().min(argc);
            let takes = if ndef > 0 {
                format!("from {} to {}", argc - ndef, argc)
            } else {
                argc.to_string()
            };
            return Err(self.type_err(format!(
                "{}() takes {} positional argument{} but {} {} given",
                fname,
                takes,
                if argc == 1 && ndef == 0 { "" } else { "s" },
                given,
                if given == 1 { "was" } else { "were" }
            )));
        }
        let mut kwdict: Option<Dict> = if code.varkw { Some(Dict::new()) } else { None };
        for (k, v) in kwargs {
            let pos = code.varnames[..argc + kwonly]
                .iter()
                .position(|n| **n == *k);
            match pos {
                Some(p) if p >= code.posonlycount as usize => {
                    if locals[p].is_some() {
                        return Err(self.type_err(format!(
                            "{fname}() got multiple values for argument '{k}'"
                        )));
                    }
                    locals[p] = Some(v);
                }
                _ => match &mut kwdict {
                    Some(d) => {
                        d.set_str(Rc::new(PyStr::new(&*k)), v);
                    }
                    None => {
                        if pos.is_some() {
                            return Err(self.type_err(format!(
                                "{fname}() got some positional-only arguments passed as keyword arguments: '{k}'"
                            )));
                        }
                        return Err(self.type_err(format!(
                            "{fname}() got an unexpected keyword argument '{k}'"
                        )));
                    }
                },
            }
        }
        if let Some(d) = kwdict {
            locals[slot] = Some(Value::dict(d));
        }
        // defaults
        let defaults = func.defaults.borrow();
        let ndef = defaults.len();
        let mut missing = Vec::new();
        for (i, slot) in locals.iter_mut().enumerate().take(argc) {
            if slot.is_none() {
                if i + ndef >= argc {
                    *slot = Some(defaults[i + ndef - argc].clone());
                } else {
                    missing.push(code.varnames[i].clone());
                }
            }
        }
        drop(defaults);
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(|n| format!("'{n}'")).collect();
            let list = match names.len() {
                1 => names[0].clone(),
                2 => format!("{} and {}", names[0], names[1]),
                _ => format!(
                    "{}, and {}",
                    names[..names.len() - 1].join(", "),
                    names[names.len() - 1]
                ),
            };
            return Err(self.type_err(format!(
                "{}() missing {} required positional argument{}: {}",
                fname,
                missing.len(),
                if missing.len() == 1 { "" } else { "s" },
                list
            )));
        }
        let mut kmissing = Vec::new();
        for (i, slot) in locals.iter_mut().enumerate().take(argc + kwonly).skip(argc) {
            if slot.is_none() {
                let n = &code.varnames[i];
                match func.kwdefaults.borrow().iter().find(|(k, _)| k == n) {
                    Some((_, v)) => *slot = Some(v.clone()),
                    None => kmissing.push(format!("'{n}'")),
                }
            }
        }
        if !kmissing.is_empty() {
            return Err(self.type_err(format!(
                "{}() missing {} required keyword-only argument{}: {}",
                fname,
                kmissing.len(),
                if kmissing.len() == 1 { "" } else { "s" },
                kmissing.join(" and ")
            )));
        }
        Ok(locals)
    }

    /// Push a frame, enforcing the recursion limit.
    fn push_frame(&mut self, f: Frame) -> PyResult<()> {
        if self.frames.len() >= self.max_depth {
            return Err(self.exc("RecursionError", "maximum recursion depth exceeded"));
        }
        self.check_mem(0)?;
        self.frames.push(f);
        Ok(())
    }

    /// Call any callable from native code.
    pub fn call(
        &mut self,
        callee: &Value,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Value> {
        self.charge(cost::CALL)?;
        match callee {
            Value::Function(f) => {
                let f = f.clone();
                let locals = self.bind_args(&f, args, kwargs)?;
                if f.code.kind == CodeKind::Generator {
                    let frame = self.frame_for(&f, locals);
                    return Ok(self.make_generator(frame));
                }
                self.push_call_frame(&f, locals)?;
                let base = self.frames.len() - 1;
                match self.run(base)? {
                    RunExit::Return(v) => Ok(v),
                    RunExit::Yield(_) => Err(self.exc("RuntimeError", "unexpected yield")),
                }
            }
            Value::BoundMethod(b) => {
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(b.recv.clone());
                a.extend(args);
                let f = b.func.clone();
                self.call(&f, a, kwargs)
            }
            Value::Builtin(b) => {
                let b = b.clone();
                crate::builtins::call_builtin(self, &b, args, kwargs)
            }
            Value::Class(c) => {
                let c = c.clone();
                self.instantiate(&c, args, kwargs)
            }
            Value::Instance(_) => {
                let m = self.lookup_special(callee, "__call__");
                match m {
                    Some(m) => {
                        let mut a = vec![callee.clone()];
                        a.extend(args);
                        self.call(&m, a, kwargs)
                    }
                    None => Err(self.type_err(format!(
                        "'{}' object is not callable",
                        self.type_name(callee)
                    ))),
                }
            }
            Value::Wrapper(w) => match &**w {
                Wrapper::StaticMethod(f) => {
                    let f = f.clone();
                    self.call(&f, args, kwargs)
                }
                _ => Err(self.type_err(format!(
                    "'{}' object is not callable",
                    self.type_name(callee)
                ))),
            },
            _ => Err(self.type_err(format!(
                "'{}' object is not callable",
                self.type_name(callee)
            ))),
        }
    }

    /// Create a generator object around a prepared frame.
    pub fn make_generator(&self, frame: Frame) -> Value {
        let name = frame.code.name.clone();
        let g = Rc::new(Generator {
            frame: RefCell::new(Some(Box::new(frame))),
            running: Cell::new(false),
            finished: Cell::new(false),
            name,
            finalize: Rc::downgrade(&self.finalize),
        });
        heap::register(Tracked::Generator(Rc::downgrade(&g)));
        Value::Generator(g)
    }

    /// `generator.close()`: throw `GeneratorExit` into a suspended generator; a generator
    /// that yields again fails with RuntimeError.
    pub fn gen_close(&mut self, g: &Rc<Generator>) -> PyResult<()> {
        if g.frame.borrow().as_ref().is_none_or(|f| f.ip == 0) {
            let old = g.frame.borrow_mut().take();
            drop(old);
            g.finished.set(true);
            return Ok(());
        }
        let Flow::Exc(e) = self.exc("GeneratorExit", "") else {
            return Ok(());
        };
        match self.gen_resume(g, Value::None, Some(e)) {
            Ok(GenStep::Yielded(_)) => {
                Err(self.exc("RuntimeError", "generator ignored GeneratorExit"))
            }
            Ok(GenStep::Returned(_)) => Ok(()),
            Err(Flow::Exc(x))
                if self.isinstance_name(&x, "GeneratorExit")
                    || self.isinstance_name(&x, "StopIteration") =>
            {
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Close every queued dropped generator (see [`FinalizeQueue`]). As in CPython, an
    /// exception escaping a finalizer is not raised into the running code (CPython reports it
    /// on stderr, which the PVM does not have); aborts (cycles, memory) still propagate.
    #[cold]
    #[inline(never)]
    fn run_finalizers(&mut self) -> PyResult<()> {
        while let Some((frame, name)) = self.finalize.pop_front() {
            let g = Rc::new(Generator {
                frame: RefCell::new(Some(frame)),
                running: Cell::new(false),
                finished: Cell::new(false),
                name,
                // finalized once only, like CPython's tp_finalize
                finalize: std::rc::Weak::new(),
            });
            match self.gen_close(&g) {
                Ok(()) | Err(Flow::Exc(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Resume a generator, sending `sent` (or throwing `throw`).
    pub fn gen_resume(
        &mut self,
        g: &Rc<Generator>,
        sent: Value,
        throw: Option<Value>,
    ) -> PyResult<GenStep> {
        if g.running.get() {
            return Err(self.exc("ValueError", "generator already executing"));
        }
        let frame = g.frame.borrow_mut().take();
        let Some(mut frame) = frame else {
            if let Some(e) = throw {
                return Err(Flow::Exc(e));
            }
            return Ok(GenStep::Returned(Value::None));
        };
        if frame.ip == 0 {
            if throw.is_none() && !sent.is_none() {
                *g.frame.borrow_mut() = Some(frame);
                return Err(self.type_err("can't send non-None value to a just-started generator"));
            }
        } else if throw.is_none() {
            frame.stack.push(sent);
        }
        g.running.set(true);
        if self.frames.len() >= self.max_depth {
            g.running.set(false);
            *g.frame.borrow_mut() = Some(frame);
            return Err(self.exc("RecursionError", "maximum recursion depth exceeded"));
        }
        self.frames.push(*frame);
        let base = self.frames.len() - 1;
        let r = match throw {
            Some(e) => self.run_throw(base, e),
            None => self.run(base),
        };
        g.running.set(false);
        match r {
            Ok(RunExit::Yield(v)) => {
                *g.frame.borrow_mut() = self.yielded.take();
                Ok(GenStep::Yielded(v))
            }
            Ok(RunExit::Return(v)) => {
                g.finished.set(true);
                Ok(GenStep::Returned(v))
            }
            Err(e) => {
                g.finished.set(true);
                if let Flow::Exc(ex) = &e
                    && self.isinstance_name(ex, "StopIteration")
                {
                    let r = self.exc("RuntimeError", "generator raised StopIteration");
                    if let Flow::Exc(Value::Instance(ri)) = &r
                        && let Some(st) = &ri.exc
                    {
                        let mut st = st.borrow_mut();
                        st.cause = Some(ex.clone());
                        st.context = Some(ex.clone());
                        st.suppress_context = true;
                    }
                    return Err(r);
                }
                Err(e)
            }
        }
    }

    /// Instantiate a class.
    pub fn instantiate(
        &mut self,
        cls: &Rc<Class>,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Value> {
        // a metaclass `__call__` (see `modules::meta`) decides what calling the class does
        if !cls.builtin
            && let Some(m) = self.metaclass_of(cls)
            && let Some(call @ Value::Function(_)) = self.class_lookup(&m, "__call__")
        {
            let mut a = Vec::with_capacity(args.len() + 1);
            a.push(Value::Class(cls.clone()));
            a.extend(args);
            return self.call(&call, a, kwargs);
        }
        self.instantiate_plain(cls, args, kwargs)
    }

    /// `type.__call__(cls, *args, **kwargs)`: `__new__` then `__init__`, ignoring any
    /// metaclass `__call__`.
    pub fn instantiate_plain(
        &mut self,
        cls: &Rc<Class>,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Value> {
        if cls.builtin && cls.kind != TypeKind::Exception {
            return crate::builtins::construct(self, cls, args, kwargs);
        }
        // user __new__
        let new = self.class_lookup(cls, "__new__");
        // object.__init__ accepts the arguments a user __new__ consumed (CPython rule).
        let user_new = matches!(new, Some(Value::Function(_)) | Some(Value::Wrapper(_)));
        let inst = match new {
            Some(Value::Function(_)) | Some(Value::Wrapper(_)) => {
                let f = match new {
                    Some(Value::Wrapper(w)) => match &*w {
                        Wrapper::StaticMethod(f) => f.clone(),
                        _ => return Err(self.type_err("bad __new__")),
                    },
                    Some(f) => f,
                    None => unreachable_none(),
                };
                let mut a = vec![Value::Class(cls.clone())];
                a.extend(args.iter().cloned());
                let r = self.call(&f, a, kwargs.clone())?;
                let is_inst = match &r {
                    Value::Instance(i) => self.is_subclass(&i.class.borrow(), cls),
                    _ => false,
                };
                if !is_inst {
                    return Ok(r);
                }
                r
            }
            _ => self.new_instance(cls, &args),
        };
        let base = self.builtin_base(cls);
        if let (Some(b), Value::Instance(i)) = (&base, &inst) {
            if i.native.borrow().is_none() {
                let user_init =
                    matches!(self.class_lookup(cls, "__init__"), Some(Value::Function(_)));
                let mutable = matches!(b.kind, TypeKind::List | TypeKind::Dict | TypeKind::Set);
                let native_args = if mutable && user_init {
                    vec![]
                } else {
                    args.clone()
                };
                // set/frozenset name the subclass in their arity error (CPython's set_init and
                // frozenset_new use the type's own name); the other built-ins a fixed one.
                if matches!(b.kind, TypeKind::Set | TypeKind::FrozenSet) && native_args.len() > 1 {
                    return Err(self.type_err(format!(
                        "{} expected at most 1 argument, got {}",
                        cls.name,
                        native_args.len()
                    )));
                }
                let native_kw = if mutable && !user_init {
                    kwargs.clone()
                } else {
                    vec![]
                };
                let n = crate::builtins::construct(self, b, native_args, native_kw)?;
                *i.native.borrow_mut() = Some(n);
            }
            if !matches!(self.class_lookup(cls, "__init__"), Some(Value::Function(_))) {
                return Ok(inst);
            }
        }
        if let Some(init) = self.class_lookup(cls, "__init__") {
            if let Value::Function(_) = init {
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(inst.clone());
                a.extend(args);
                let r = self.call(&init, a, kwargs)?;
                if !r.is_none() {
                    return Err(self.type_err(format!(
                        "__init__() should return None, not '{}'",
                        self.type_name(&r)
                    )));
                }
            } else if !kwargs.is_empty() && cls.kind != TypeKind::Exception && !user_new {
                return Err(self.type_err(format!("{}() takes no keyword arguments", cls.name)));
            }
        } else if (!args.is_empty() || !kwargs.is_empty())
            && cls.kind != TypeKind::Exception
            && !user_new
        {
            return Err(self.type_err(format!("{}() takes no arguments", cls.name)));
        }
        Ok(inst)
    }

    /// Allocate a bare instance of `cls` (exceptions get their args set).
    pub fn new_instance(&self, cls: &Rc<Class>, args: &[Value]) -> Value {
        let is_exc = cls.kind == TypeKind::Exception;
        let inst = Rc::new(Instance {
            class: RefCell::new(cls.clone()),
            dict: Rc::new(PyDict {
                d: RefCell::new(Dict::new()),
            }),
            exc: if is_exc {
                Some(RefCell::new(ExcState::default()))
            } else {
                None
            },
            native: RefCell::new(if is_exc {
                Some(Value::tuple(args.to_vec()))
            } else {
                None
            }),
            id: self.new_id(),
        });
        heap::register(Tracked::Instance(Rc::downgrade(&inst)));
        Value::Instance(inst)
    }

    // ---------- the dispatch loop ----------

    /// Run until the frame at index `base` returns or yields.
    pub fn run(&mut self, base: usize) -> PyResult<RunExit> {
        loop {
            match self.run_inner(base) {
                Ok(x) => return Ok(x),
                Err(Flow::Exc(e)) => {
                    if let Some(x) = self.unwind(base, e)? {
                        return Ok(x);
                    }
                }
                Err(a) => {
                    self.frames.truncate(base);
                    return Err(a);
                }
            }
        }
    }

    fn run_throw(&mut self, base: usize, e: Value) -> PyResult<RunExit> {
        if let Some(x) = self.unwind(base, e)? {
            return Ok(x);
        }
        self.run(base)
    }

    /// Find a handler for `e`; Ok(None) = continue running, Err = propagate past base.
    fn unwind(&mut self, base: usize, e: Value) -> PyResult<Option<RunExit>> {
        loop {
            let f = self.frames.last_mut().expect("frame");
            if let Some(b) = f.blocks.pop() {
                f.stack.truncate(b.depth as usize);
                f.exc_stack.truncate(b.exc_depth as usize);
                f.stack.push(e.clone());
                f.exc_stack.push(e);
                f.ip = b.handler as usize;
                self.charge(cost::HANDLER)?;
                return Ok(None);
            }
            // leave frame
            let f = self.frames.pop().expect("frame");
            let line = f
                .code
                .lines
                .get(f.ip.saturating_sub(1))
                .copied()
                .unwrap_or(0);
            if let Value::Instance(i) = &e
                && let Some(st) = &i.exc
            {
                st.borrow_mut().traceback.push(format!(
                    "File \"{}\", line {}, in {}",
                    f.code.filename, line, f.code.name
                ));
            }
            drop(f);
            if self.frames.len() <= base {
                return Err(Flow::Exc(e));
            }
        }
    }

    #[inline(always)]
    fn fr(&mut self) -> &mut Frame {
        // SAFETY-free: frames is never empty inside run_inner.
        let n = self.frames.len();
        &mut self.frames[n - 1]
    }

    #[inline(always)]
    fn pop(&mut self) -> Value {
        self.fr().stack.pop().unwrap_or_default()
    }
    #[inline(always)]
    fn push(&mut self, v: Value) {
        self.fr().stack.push(v);
    }
    #[inline(always)]
    fn top(&mut self) -> &mut Value {
        let f = self.fr();
        let n = f.stack.len();
        &mut f.stack[n - 1]
    }

    fn run_inner(&mut self, base: usize) -> PyResult<RunExit> {
        loop {
            if self.finalize.pending.get() {
                self.run_finalizers()?;
            }
            let (instr, _) = {
                let f = self.fr();
                let i = f.code.instrs[f.ip];
                f.ip += 1;
                (i, ())
            };
            self.meter.charge(cost::instr_cost(&instr))?;
            match instr {
                Instr::Nop | Instr::GenStart => {}
                Instr::LoadConst(k) => {
                    let nf = self.frames.len();
                    let Frame {
                        code, ip, stack, ..
                    } = &mut self.frames[nf - 1];
                    let v = &code.consts[k as usize];
                    // Superinstruction `LOAD_CONST k; BINARY_OP` / `INPLACE_OP` (`x + 1`,
                    // `x *= 0.5`): as `LOAD_FAST` with one (see there).
                    if let Some(&next @ (Instr::BinaryOp(op) | Instr::InplaceOp(op))) =
                        code.instrs.get(*ip)
                        && let Some(top) = stack.last_mut()
                        && let Some(r) = arith_fast(top, v, op, matches!(next, Instr::InplaceOp(_)))
                    {
                        self.meter.charge(cost::instr_cost(&next))?;
                        *ip += 1;
                        // Both operands are immediates (see `arith_fast`).
                        std::mem::forget(std::mem::replace(top, r));
                        continue;
                    }
                    // Superinstruction `LOAD_CONST k; COMPARE_OP` for `x is None`,
                    // `x is not None` and int comparisons, with the `COMPARE_OP` fast path's
                    // result, run as the dispatch loop would run the `COMPARE_OP` (`ip`
                    // advanced, its cost charged, `x` popped and dropped, then a following
                    // conditional jump as `COMPARE_OP` runs it).
                    if let Some(&next @ Instr::Compare(op)) = code.instrs.get(*ip)
                        && let Some(top) = stack.last()
                        && let Some((r, extra)) = const_compare(top, v, op)
                    {
                        // (the instruction's cost, then the str-equality length charge)
                        self.meter.charge(cost::instr_cost(&next))?;
                        self.meter.charge(extra)?;
                        *ip += 1;
                        if let Some(x) = stack.pop() {
                            Value::drop_fast(x);
                        }
                        if !self.fused_jump(r)? {
                            self.push(Value::Bool(r));
                        }
                        continue;
                    }
                    stack.push(v.clone_fast());
                }
                Instr::LoadFast(i) => {
                    let nf = self.frames.len();
                    let Frame {
                        code,
                        ip,
                        stack,
                        locals,
                        ..
                    } = &mut self.frames[nf - 1];
                    // Growing first lets the value be built in place in the stack (no spill).
                    if stack.len() == stack.capacity() {
                        stack.reserve(8);
                    }
                    match &locals[i as usize] {
                        Some(v @ Value::Instance(inst)) => {
                            // Superinstructions `LOAD_FAST x; LOAD_ATTR name` (`x.name`) and
                            // `LOAD_FAST x; STORE_ATTR name` (`x.name = v`) when the attribute
                            // instruction's fast path applies. Its checks (`inst_attr`,
                            // `store_attr_plan`) have no observable effect, so they are made
                            // first; then it runs as the dispatch loop would run it: `ip`
                            // advanced, its cost charged from the table (or `OutOfCycles`),
                            // then its work, errors reported at its own `ip` (so its line).
                            // `LOAD_FAST` drops nothing, so no generator finalizer can be due
                            // in between. The instance never goes through the stack.
                            match code.instrs.get(*ip) {
                                Some(&next @ Instr::LoadAttr(j)) => {
                                    if let InstAttr::Hit(r) =
                                        Self::inst_attr(&self.method_cache, inst, code, *ip, j)
                                    {
                                        self.meter.charge(cost::instr_cost(&next))?;
                                        *ip += 1;
                                        stack.push(r);
                                        continue;
                                    }
                                }
                                Some(&next @ Instr::StoreAttr(j)) if !stack.is_empty() => {
                                    if let Some(slotted) =
                                        store_attr_plan(inst, &code.names[j as usize])
                                    {
                                        self.meter.charge(cost::instr_cost(&next))?;
                                        *ip += 1;
                                        let val = stack.pop().unwrap_or_default();
                                        store_attr_do(
                                            self.heap_limit,
                                            inst,
                                            slotted,
                                            code,
                                            *ip - 1,
                                            j,
                                            val,
                                        )?;
                                        continue;
                                    }
                                }
                                _ => {}
                            }
                            stack.push(v.clone_fast());
                        }
                        Some(v) => {
                            // Superinstructions on a number or other non-instance value, each
                            // run as the dispatch loop would run the second instruction (`ip`
                            // advanced, its cost charged from the table or `OutOfCycles`, then
                            // its work; `LOAD_FAST` drops nothing, so no generator finalizer is
                            // due in between): `x <op> y` / `x <op>= y` on two ints / floats
                            // whose result the `BINARY_OP` / `INPLACE_OP` fast path computes
                            // (`y` replaces nothing on the stack: the result replaces `x`), and
                            // `LOAD_FAST y; LOAD_FAST z` with `z` bound and not an instance (an
                            // instance's `LOAD_FAST` may fuse with an attribute instruction).
                            match code.instrs.get(*ip) {
                                Some(&next @ (Instr::BinaryOp(op) | Instr::InplaceOp(op))) => {
                                    if let Some(top) = stack.last_mut()
                                        && let Some(r) = arith_fast(
                                            top,
                                            v,
                                            op,
                                            matches!(next, Instr::InplaceOp(_)),
                                        )
                                    {
                                        self.meter.charge(cost::instr_cost(&next))?;
                                        *ip += 1;
                                        // Both operands are immediates (see `arith_fast`).
                                        std::mem::forget(std::mem::replace(top, r));
                                        continue;
                                    }
                                }
                                Some(&next @ Instr::LoadFast(k)) => {
                                    // (Not when `z` can fuse with an operator after it.)
                                    if let Some(w) = &locals[k as usize]
                                        && !matches!(w, Value::Instance(_))
                                        && !matches!(
                                            code.instrs.get(*ip + 1),
                                            Some(Instr::BinaryOp(_) | Instr::InplaceOp(_))
                                        )
                                    {
                                        self.meter.charge(cost::instr_cost(&next))?;
                                        *ip += 1;
                                        stack.push(v.clone_fast());
                                        stack.push(w.clone_fast());
                                        continue;
                                    }
                                }
                                _ => {}
                            }
                            stack.push(v.clone_fast());
                        }
                        None => {
                            let n = code.varnames[i as usize].clone();
                            return Err(self.exc(
                                "UnboundLocalError",
                                format!("cannot access local variable '{n}' where it is not associated with a value"),
                            ));
                        }
                    }
                }
                Instr::StoreFast(i) => {
                    let f = self.fr();
                    let v = f.stack.pop();
                    if let Some(old) = std::mem::replace(&mut f.locals[i as usize], v) {
                        Value::drop_fast(old);
                    }
                }
                Instr::DeleteFast(i) => {
                    let f = self.fr();
                    if f.locals[i as usize].take().is_none() {
                        let n = f.code.varnames[i as usize].clone();
                        return Err(self.exc(
                            "UnboundLocalError",
                            format!("cannot access local variable '{n}' where it is not associated with a value"),
                        ));
                    }
                }
                Instr::LoadDeref(i) => {
                    let f = self.fr();
                    let v = f.cells[i as usize].v.borrow().clone();
                    match v {
                        Some(v) => f.stack.push(v),
                        None => {
                            let n = f.code.cellnames[i as usize].clone();
                            return Err(self.exc(
                                "NameError",
                                format!("cannot access free variable '{n}' where it is not associated with a value in enclosing scope"),
                            ));
                        }
                    }
                }
                Instr::StoreDeref(i) => {
                    let f = self.fr();
                    let v = f.stack.pop();
                    let old = f.cells[i as usize].v.replace(v);
                    drop(old);
                }
                Instr::LoadCell(i) => {
                    let f = self.fr();
                    let c = f.cells[i as usize].clone();
                    f.stack.push(Value::Cell(c));
                }
                Instr::LoadGlobal(i) => {
                    // The inline-cache hit of `load_global` (a name found in the globals),
                    // done here without the call.
                    let f = self.fr();
                    let c = &f.code.caches[f.ip - 1];
                    let (depth, ver, slot) = {
                        let c = c.get();
                        (c.depth, c.vers[0], c.slot)
                    };
                    if depth == 1 {
                        let g = f.globals.dict.borrow();
                        if g.version() == ver
                            && let Some(e) = g.slot(slot as usize)
                        {
                            let v = e.value.clone_fast();
                            drop(g);
                            f.stack.push(v);
                            continue;
                        }
                    }
                    let v = self.load_global(i)?;
                    self.push(v);
                }
                Instr::StoreGlobal(i) => {
                    let f = self.fr();
                    let v = f.stack.pop().unwrap_or_default();
                    let g = f.globals.clone();
                    let old = {
                        let mut d = g.dict.borrow_mut();
                        // Inline cache: the slot the name was found at while the globals had
                        // this key layout (overwriting a value keeps the layout version).
                        let cell = &f.code.caches[f.ip - 1];
                        let c = cell.get();
                        let hit = if c.depth == 1 && c.vers[0] == d.version() {
                            d.slot_value_mut(c.slot as usize)
                        } else {
                            None
                        };
                        match hit {
                            Some(x) => Some(std::mem::replace(x, v)),
                            None => {
                                let name = &f.code.names[i as usize];
                                let h = f.code.name_hashes[i as usize];
                                match d.find_g(h, |k| crate::dict::str_key_eq(k, name)) {
                                    Some(slot) => {
                                        cell.set(crate::bytecode::InlineCache {
                                            vers: [d.version(), 0, 0],
                                            slot: slot as u32,
                                            depth: 1,
                                            ..Default::default()
                                        });
                                        d.slot_value_mut(slot).map(|x| std::mem::replace(x, v))
                                    }
                                    None => {
                                        d.push(h, Value::str(&**name), v);
                                        None
                                    }
                                }
                            }
                        }
                    };
                    drop(old);
                }
                Instr::DeleteGlobal(i) => {
                    let f = self.fr();
                    let name = f.code.names[i as usize].clone();
                    let g = f.globals.clone();
                    let r = g.dict.borrow_mut().del_str(&name);
                    if r.is_none() {
                        return Err(self.exc("NameError", format!("name '{name}' is not defined")));
                    }
                }
                Instr::LoadName(i) => {
                    let f = self.fr();
                    let name = f.code.names[i as usize].clone();
                    let v =
                        f.ns.as_ref()
                            .and_then(|ns| ns.d.borrow().get_str(&name).cloned());
                    match v {
                        Some(v) => self.push(v),
                        None => {
                            let v = self.load_global(i)?;
                            self.push(v);
                        }
                    }
                }
                Instr::StoreName(i) => {
                    let f = self.fr();
                    let v = f.stack.pop().unwrap_or_default();
                    let name = f.code.names[i as usize].clone();
                    match &f.ns {
                        Some(ns) => {
                            let ns = ns.clone();
                            let old = {
                                let mut d = ns.d.borrow_mut();
                                let o = d.get_str(&name).cloned();
                                d.set_str(Rc::new(PyStr::new(&*name)), v);
                                o
                            };
                            drop(old);
                        }
                        None => {
                            let g = f.globals.clone();
                            g.dict.borrow_mut().set_str(Rc::new(PyStr::new(&*name)), v);
                        }
                    }
                }
                Instr::DeleteName(i) => {
                    let f = self.fr();
                    let name = f.code.names[i as usize].clone();
                    let ns = f.ns.clone();
                    let r = match ns {
                        Some(ns) => ns.d.borrow_mut().del_str(&name),
                        None => f.globals.clone().dict.borrow_mut().del_str(&name),
                    };
                    if r.is_none() {
                        return Err(self.exc("NameError", format!("name '{name}' is not defined")));
                    }
                }
                Instr::LoadLocalsDict => {
                    let f = self.fr();
                    let v = match &f.ns {
                        Some(ns) => Value::Dict(ns.clone()),
                        None => Value::None,
                    };
                    f.stack.push(v);
                }
                Instr::SetupAnnotations => {
                    // `__annotations__ = {}` in the class namespace / module globals.
                    let f = self.fr();
                    let key = Rc::new(PyStr::new("__annotations__"));
                    let d = Value::dict(Dict::new());
                    match &f.ns {
                        Some(ns) => {
                            if ns.d.borrow().get_str("__annotations__").is_none() {
                                ns.d.borrow_mut().set_str(key, d);
                            }
                        }
                        None => {
                            let g = f.globals.clone();
                            if g.dict.borrow().get_str("__annotations__").is_none() {
                                g.dict.borrow_mut().set_str(key, d);
                            }
                        }
                    }
                }
                Instr::LoadAttr(i) => {
                    let n = self.frames.len();
                    let obj = self.frames[n - 1].stack.pop().unwrap_or_default();
                    if let Value::Instance(inst) = &obj {
                        let f = &self.frames[n - 1];
                        match Self::inst_attr(&self.method_cache, inst, &f.code, f.ip - 1, i) {
                            InstAttr::Hit(v) => {
                                self.frames[n - 1].stack.push(v);
                                continue;
                            }
                            InstAttr::Getter(g) => {
                                // What `get_attr` does for a property whose getter is a plain
                                // function (data descriptor first, then `call(fget, [obj])`),
                                // with the getter's frame pushed here instead of a nested run.
                                self.charge(cost::CALL)?;
                                let mut locals = self.locals_pool.pop().unwrap_or_default();
                                locals.reserve(g.code.varnames.len());
                                locals.push(Some(obj));
                                pad_locals(&mut locals, g.code.varnames.len());
                                self.push_call_frame(&g, locals)?;
                                continue;
                            }
                            InstAttr::Slow => {}
                        }
                    }
                    let f = &self.frames[n - 1];
                    let name = f.code.names[i as usize].clone();
                    let v = self.get_attr(&obj, &name)?;
                    self.push(v);
                }
                Instr::StoreAttr(i) => {
                    // Fast path: a store into a plain instance's dict (see `store_attr_plan`).
                    let nf = self.frames.len();
                    let f = &self.frames[nf - 1];
                    let n = f.stack.len();
                    if n >= 2
                        && let Value::Instance(inst) = &f.stack[n - 1]
                        && let Some(slotted) = store_attr_plan(inst, &f.code.names[i as usize])
                    {
                        let inst = inst.clone();
                        let heap_limit = self.heap_limit;
                        let f = &mut self.frames[nf - 1];
                        let obj = f.stack.pop();
                        let v = f.stack.pop().unwrap_or_default();
                        store_attr_do(heap_limit, &inst, slotted, &f.code, f.ip - 1, i, v)?;
                        drop(obj);
                        continue;
                    }
                    let name = self.fr().code.names[i as usize].clone();
                    let obj = self.pop();
                    let v = self.pop();
                    self.set_attr(&obj, &name, v)?;
                }
                Instr::DeleteAttr(i) => {
                    let name = self.fr().code.names[i as usize].clone();
                    let obj = self.pop();
                    self.del_attr(&obj, &name)?;
                }
                Instr::Subscr => {
                    // Fast path: list / tuple indexed by an in-range int, exactly what
                    // `getitem` does for these operands (it charges nothing extra).
                    let f = self.fr();
                    let n = f.stack.len();
                    if n >= 2
                        && let Value::Int(i) = f.stack[n - 1]
                    {
                        // `s[i] == "c"`, `s[i] != "c"`, `s[i] in "abc"` on an ASCII str: the
                        // character is compared with the constant without being built.
                        if let Value::Str(st) = &f.stack[n - 2]
                            && st.is_ascii()
                            && let Some(j) = crate::attr::norm_index(i, st.nchars)
                        {
                            let byte = st.s.as_bytes()[j];
                            if let Some(r) = self.str_char_compare_fused(byte) {
                                let r = r?;
                                let f = self.fr();
                                f.stack.pop();
                                let o = std::mem::replace(&mut f.stack[n - 2], Value::Bool(r));
                                drop(o);
                                continue;
                            }
                        }
                        let f = self.fr();
                        let hit = match &f.stack[n - 2] {
                            Value::List(l) => {
                                let v = l.v.borrow();
                                crate::attr::norm_index(i, v.len()).map(|j| v[j].clone_fast())
                            }
                            Value::Tuple(t) => {
                                crate::attr::norm_index(i, t.v.len()).map(|j| t.v[j].clone_fast())
                            }
                            Value::Str(st) if st.is_ascii() => {
                                crate::attr::norm_index(i, st.nchars)
                                    .map(|j| Value::str(&st.s[j..j + 1]))
                            }
                            _ => None,
                        };
                        if let Some(v) = hit {
                            if let Some(k) = f.stack.pop() {
                                Value::drop_fast(k);
                            }
                            let o = std::mem::replace(&mut f.stack[n - 2], v);
                            drop(o);
                            continue;
                        }
                    }
                    let k = self.pop();
                    let o = self.pop();
                    let v = self.getitem(&o, &k)?;
                    self.push(v);
                }
                Instr::StoreSubscr => {
                    // Fast path: `list[int] = v` with an in-range index (as in `setitem`).
                    let f = self.fr();
                    let n = f.stack.len();
                    if n >= 3
                        && let Value::Int(i) = f.stack[n - 1]
                        && let Value::List(l) = &f.stack[n - 2]
                    {
                        let len = l.v.borrow().len();
                        if let Some(j) = crate::attr::norm_index(i, len) {
                            let l = l.clone();
                            f.stack.pop();
                            let o = f.stack.pop();
                            let v = f.stack.pop().unwrap_or_default();
                            let old = std::mem::replace(&mut l.v.borrow_mut()[j], v);
                            drop(old);
                            drop(o);
                            continue;
                        }
                    }
                    let k = self.pop();
                    let o = self.pop();
                    let v = self.pop();
                    self.setitem(&o, k, v)?;
                }
                Instr::DeleteSubscr => {
                    let k = self.pop();
                    let o = self.pop();
                    self.delitem(&o, &k)?;
                }
                Instr::BinaryOp(op) => {
                    // Fast path: int / float operands, computed where they lie on the stack
                    // and replaced by the result (both are immediates: nothing to drop).
                    let f = self.fr();
                    let n = f.stack.len();
                    if n >= 2
                        && let Some(r) = arith_fast(&f.stack[n - 2], &f.stack[n - 1], op, false)
                    {
                        // Both operands are immediates (see `arith_fast`): no drop glue runs.
                        std::mem::forget(f.stack.pop());
                        std::mem::forget(std::mem::replace(&mut f.stack[n - 2], r));
                        continue;
                    }
                    let b = self.pop();
                    let a = self.pop();
                    if let Some(func) = self.binop_frame_target(&a, &b, op) {
                        // `binary_op` would `call` the method: same charge, same frame.
                        self.charge(cost::CALL)?;
                        let mut locals = self.locals_pool.pop().unwrap_or_default();
                        locals.reserve(func.code.varnames.len());
                        locals.push(Some(a.clone()));
                        locals.push(Some(b.clone()));
                        pad_locals(&mut locals, func.code.varnames.len());
                        self.push_call_frame(&func, locals)?;
                        self.fr().ret = FrameRet::BinOp(Box::new((a, b, op)));
                        continue;
                    }
                    let r = self.binary_op(&a, &b, op, false)?;
                    self.push(r);
                }
                Instr::InplaceOp(op) => {
                    // Fast path as for `BinaryOp` (floats are immutable: `x op= y` is `x op y`).
                    let f = self.fr();
                    let n = f.stack.len();
                    if n >= 2
                        && let Some(r) = arith_fast(&f.stack[n - 2], &f.stack[n - 1], op, true)
                    {
                        // Both operands are immediates (see `arith_fast`): no drop glue runs.
                        std::mem::forget(f.stack.pop());
                        std::mem::forget(std::mem::replace(&mut f.stack[n - 2], r));
                        continue;
                    }
                    let b = self.pop();
                    let a = self.pop();
                    let r = self.binary_op(&a, &b, op, true)?;
                    self.push(r);
                }
                Instr::Unary(op) => {
                    let a = self.pop();
                    let r = self.unary_op(&a, op)?;
                    self.push(r);
                }
                Instr::Not => {
                    let a = self.pop();
                    let t = self.truthy(&a)?;
                    self.push(Value::Bool(!t));
                }
                Instr::Compare(op) => {
                    let b = self.pop();
                    let a = self.pop();
                    let r = match (&a, &b) {
                        (Value::Int(x), Value::Int(y)) => match op {
                            crate::bytecode::CmpOp::Lt => Some(x < y),
                            crate::bytecode::CmpOp::Le => Some(x <= y),
                            crate::bytecode::CmpOp::Gt => Some(x > y),
                            crate::bytecode::CmpOp::Ge => Some(x >= y),
                            crate::bytecode::CmpOp::Eq => Some(x == y),
                            crate::bytecode::CmpOp::Ne => Some(x != y),
                            _ => None,
                        },
                        // `==` / `!=` of two strs: what `eq` computes, with its length charge.
                        (Value::Str(x), Value::Str(y))
                            if matches!(
                                op,
                                crate::bytecode::CmpOp::Eq | crate::bytecode::CmpOp::Ne
                            ) =>
                        {
                            let e = Rc::ptr_eq(x, y) || x.s == y.s;
                            self.charge(x.s.len() as u64 / 16)?;
                            Some(e == (op == crate::bytecode::CmpOp::Eq))
                        }
                        (Value::Float(x), Value::Float(y)) => float_cmp_fast(*x, *y, op),
                        // `<` `<=` `>` `>=` of two strs or two tuples of simple items: what
                        // `compare` computes, with the same length charges.
                        (Value::Str(_), Value::Str(_)) | (Value::Tuple(_), Value::Tuple(_))
                            if matches!(
                                op,
                                crate::bytecode::CmpOp::Lt
                                    | crate::bytecode::CmpOp::Le
                                    | crate::bytecode::CmpOp::Gt
                                    | crate::bytecode::CmpOp::Ge
                            ) =>
                        {
                            match self.order_simple(&a, &b, op) {
                                Some(r) => Some(r?),
                                None => None,
                            }
                        }
                        // `is` / `is not` with None on one side: `is` never raises then (None
                        // is not a value type) and is true exactly when both are None.
                        (Value::None, _) | (_, Value::None)
                            if matches!(
                                op,
                                crate::bytecode::CmpOp::Is | crate::bytecode::CmpOp::IsNot
                            ) =>
                        {
                            let same = a.is_none() && b.is_none();
                            Some(same == (op == crate::bytecode::CmpOp::Is))
                        }
                        // Likewise with a bool on one side (bool is not a value type): the
                        // same object exactly when both are the same bool.
                        (Value::Bool(_), _) | (_, Value::Bool(_))
                            if matches!(
                                op,
                                crate::bytecode::CmpOp::Is | crate::bytecode::CmpOp::IsNot
                            ) =>
                        {
                            let same =
                                matches!((&a, &b), (Value::Bool(x), Value::Bool(y)) if x == y);
                            Some(same == (op == crate::bytecode::CmpOp::Is))
                        }
                        // `str in str`: what `contains` computes, with its length charge.
                        (Value::Str(x), Value::Str(y))
                            if matches!(
                                op,
                                crate::bytecode::CmpOp::In | crate::bytecode::CmpOp::NotIn
                            ) =>
                        {
                            self.charge(y.s.len() as u64 / 8)?;
                            Some(y.s.contains(&*x.s) == (op == crate::bytecode::CmpOp::In))
                        }
                        (Value::Float(x), Value::Int(y)) if y.unsigned_abs() <= 1 << 53 => {
                            float_cmp_fast(*x, crate::float::F64::from_i64(*y), op)
                        }
                        (Value::Int(x), Value::Float(y)) if x.unsigned_abs() <= 1 << 53 => {
                            float_cmp_fast(crate::float::F64::from_i64(*x), *y, op)
                        }
                        _ => None,
                    };
                    let r = match r {
                        Some(r) => {
                            Value::drop_fast(a);
                            Value::drop_fast(b);
                            // A following `PopJumpIf*` runs here on the bool (see
                            // `fused_jump`).
                            if self.fused_jump(r)? {
                                continue;
                            }
                            Value::Bool(r)
                        }
                        None => self.compare(&a, &b, op)?,
                    };
                    self.push(r);
                }
                Instr::Jump(t) => {
                    self.fr().ip = t as usize;
                    self.check_mem(0)?;
                }
                Instr::PopJumpIfFalse(t) => {
                    let v = self.pop();
                    let b = match v {
                        Value::Bool(b) => b,
                        v => self.truthy(&v)?,
                    };
                    if !b {
                        self.fr().ip = t as usize;
                    }
                }
                Instr::PopJumpIfTrue(t) => {
                    let v = self.pop();
                    let b = match v {
                        Value::Bool(b) => b,
                        v => self.truthy(&v)?,
                    };
                    if b {
                        self.fr().ip = t as usize;
                    }
                }
                Instr::JumpIfFalseOrPop(t) => {
                    let v = self.top().clone();
                    if !self.truthy(&v)? {
                        self.fr().ip = t as usize;
                    } else {
                        self.pop();
                    }
                }
                Instr::JumpIfTrueOrPop(t) => {
                    let v = self.top().clone();
                    if self.truthy(&v)? {
                        self.fr().ip = t as usize;
                    } else {
                        self.pop();
                    }
                }
                Instr::Pop => {
                    if let Some(v) = self.fr().stack.pop() {
                        Value::drop_fast(v);
                    }
                }
                Instr::Dup => {
                    let v = self.top().clone_fast();
                    self.push(v);
                }
                Instr::Dup2 => {
                    let f = self.fr();
                    let n = f.stack.len();
                    let a = f.stack[n - 2].clone_fast();
                    let b = f.stack[n - 1].clone_fast();
                    f.stack.push(a);
                    f.stack.push(b);
                }
                Instr::CopyN(k) => {
                    let f = self.fr();
                    let n = f.stack.len();
                    let v = f.stack[n - 1 - k as usize].clone_fast();
                    f.stack.push(v);
                }
                Instr::Rot2 => {
                    let f = self.fr();
                    let n = f.stack.len();
                    f.stack.swap(n - 1, n - 2);
                }
                Instr::Rot3 => {
                    // [.., x, y, z] -> [.., z, x, y]
                    let f = self.fr();
                    let n = f.stack.len();
                    f.stack.swap(n - 1, n - 2);
                    f.stack.swap(n - 2, n - 3);
                }
                Instr::Rot4 => {
                    // [.., w, x, y, z] -> [.., z, w, x, y]
                    let f = self.fr();
                    let n = f.stack.len();
                    f.stack.swap(n - 1, n - 2);
                    f.stack.swap(n - 2, n - 3);
                    f.stack.swap(n - 3, n - 4);
                }
                Instr::GetIter => {
                    let v = self.pop();
                    let it = self.get_iter(&v)?;
                    self.push(it);
                }
                Instr::ForIter(t) => {
                    // Fast path: range, list and tuple iterators step in place (same states and
                    // results as `next_fast`), without cloning the iterator.
                    let f = self.fr();
                    if let Some(Value::Iter(it)) = f.stack.last() {
                        let mut st = it.st.borrow_mut();
                        let step = match &mut *st {
                            IterState::Range(cur, stop, step) => {
                                let c = *cur;
                                if (*step > 0 && c < *stop) || (*step < 0 && c > *stop) {
                                    *cur = c.saturating_add(*step);
                                    Some(Some(Value::Int(c)))
                                } else {
                                    Some(None)
                                }
                            }
                            IterState::List(l, idx) => {
                                let v = l.v.borrow().get(*idx).map(Value::clone_fast);
                                if v.is_some() {
                                    *idx += 1;
                                }
                                Some(v)
                            }
                            IterState::Str(text, off) => match text.s[*off..].chars().next() {
                                Some(c) => {
                                    *off += c.len_utf8();
                                    let mut buf = [0u8; 4];
                                    Some(Some(Value::str(&*c.encode_utf8(&mut buf))))
                                }
                                None => Some(None),
                            },
                            IterState::Tuple(tup, idx) => {
                                let v = tup.v.get(*idx).map(Value::clone_fast);
                                if v.is_some() {
                                    *idx += 1;
                                }
                                Some(v)
                            }
                            _ => None,
                        };
                        drop(st);
                        match step {
                            Some(Some(v)) => {
                                f.stack.push(v);
                                continue;
                            }
                            Some(None) => {
                                let it = f.stack.pop();
                                f.ip = t as usize;
                                drop(it);
                                continue;
                            }
                            None => {}
                        }
                    }
                    let it = self.top().clone();
                    match self.next_fast(&it)? {
                        Some(v) => self.push(v),
                        None => {
                            self.pop();
                            self.fr().ip = t as usize;
                        }
                    }
                }
                Instr::BuildList(n) => {
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    let v: Vec<Value> = f.stack.split_off(at);
                    self.push(Value::list(v));
                }
                Instr::BuildTuple(n) => {
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    let v: Vec<Value> = f.stack.split_off(at);
                    self.push(Value::tuple(v));
                }
                Instr::BuildSet(n) => {
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    let v: Vec<Value> = f.stack.split_off(at);
                    let s = self.new_set(v)?;
                    self.push(s);
                }
                Instr::BuildMap(n) => {
                    let f = self.fr();
                    let at = f.stack.len() - 2 * n as usize;
                    let v: Vec<Value> = f.stack.split_off(at);
                    let mut d = Dict::new();
                    let mut it = v.into_iter();
                    while let (Some(k), Some(val)) = (it.next(), it.next()) {
                        self.dict_set(&mut d, k, val)?;
                    }
                    self.push(Value::dict(d));
                }
                Instr::BuildString(n) => {
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    let v: Vec<Value> = f.stack.split_off(at);
                    let total: usize = v
                        .iter()
                        .map(|x| if let Value::Str(p) = x { p.s.len() } else { 0 })
                        .sum();
                    self.check_mem(total)?;
                    let mut s = String::with_capacity(total);
                    for x in &v {
                        if let Value::Str(p) = x {
                            s.push_str(&p.s);
                        }
                    }
                    self.charge(s.len() as u64 * cost::PER_CHAR / 4)?;
                    self.push(Value::str(s));
                }
                Instr::BuildSlice(n) => {
                    let step = if n == 3 { self.pop() } else { Value::None };
                    let stop = self.pop();
                    let start = self.pop();
                    self.push(Value::Slice(Rc::new(PySlice { start, stop, step })));
                }
                Instr::ListAppend(n) => {
                    let v = self.pop();
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    if let Value::List(l) = &f.stack[at] {
                        let l = l.clone();
                        self.list_push(&l, v)?;
                    }
                }
                Instr::SetAdd(n) => {
                    let v = self.pop();
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    if let Value::Set(s) = &f.stack[at] {
                        let s = s.clone();
                        self.set_add(&s, v)?;
                    }
                }
                Instr::MapAdd(n) => {
                    let v = self.pop();
                    let k = self.pop();
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    if let Value::Dict(d) = &f.stack[at] {
                        let d = d.clone();
                        self.dict_setitem(&d, k, v)?;
                    }
                }
                Instr::ListExtend(n) => {
                    let v = self.pop();
                    let items = self.collect(&v)?;
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    if let Value::List(l) = &f.stack[at] {
                        let l = l.clone();
                        for x in items {
                            self.list_push(&l, x)?;
                        }
                    }
                }
                Instr::SetUpdate(n) => {
                    let v = self.pop();
                    let items = self.collect(&v)?;
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    if let Value::Set(s) = &f.stack[at] {
                        let s = s.clone();
                        for x in items {
                            self.set_add(&s, x)?;
                        }
                    }
                }
                Instr::DictUpdate(n) | Instr::DictMerge(n) => {
                    let v = self.pop();
                    let f = self.fr();
                    let at = f.stack.len() - n as usize;
                    let target = f.stack[at].clone();
                    if let Value::Dict(d) = &target {
                        let pairs = self.mapping_items(&v)?;
                        for (k, val) in pairs {
                            if matches!(instr, Instr::DictMerge(_)) {
                                let exists = self.dict_get(d, &k)?.is_some();
                                if exists {
                                    let ks = self.to_str(&k)?;
                                    return Err(self.type_err(format!(
                                        "got multiple values for keyword argument '{ks}'"
                                    )));
                                }
                            }
                            self.dict_setitem(d, k, val)?;
                        }
                    }
                }
                Instr::ListToTuple => {
                    let v = self.pop();
                    let t = match v {
                        Value::List(l) => Value::tuple(std::mem::take(&mut *l.v.borrow_mut())),
                        other => other,
                    };
                    self.push(t);
                }
                Instr::UnpackSequence(n) => {
                    let v = self.pop();
                    // Fast path: a tuple of exactly `n` items goes straight onto the stack.
                    if let Value::Tuple(t) = &v
                        && t.v.len() == n as usize
                    {
                        let f = self.fr();
                        f.stack.extend(t.v.iter().rev().map(Value::clone_fast));
                        continue;
                    }
                    let items = match &v {
                        Value::Tuple(t) if t.v.len() == n as usize => t.v.to_vec(),
                        Value::List(l) if l.v.borrow().len() == n as usize => l.v.borrow().clone(),
                        _ => self.collect_limited(&v, n as usize + 1)?,
                    };
                    if items.len() != n as usize {
                        if items.len() < n as usize {
                            return Err(self.exc(
                                "ValueError",
                                format!(
                                    "not enough values to unpack (expected {}, got {})",
                                    n,
                                    items.len()
                                ),
                            ));
                        }
                        return Err(self.exc(
                            "ValueError",
                            format!("too many values to unpack (expected {n})"),
                        ));
                    }
                    let f = self.fr();
                    f.stack.extend(items.into_iter().rev());
                }
                Instr::UnpackEx(before, after) => {
                    let v = self.pop();
                    let mut items = self.collect(&v)?;
                    let (b, a) = (before as usize, after as usize);
                    if items.len() < b + a {
                        return Err(self.exc(
                            "ValueError",
                            format!(
                                "not enough values to unpack (expected at least {}, got {})",
                                b + a,
                                items.len()
                            ),
                        ));
                    }
                    let tail = items.split_off(items.len() - a);
                    let mid = items.split_off(b);
                    let f = self.fr();
                    for x in tail.into_iter().rev() {
                        f.stack.push(x);
                    }
                    f.stack.push(Value::list(mid));
                    let f = self.fr();
                    for x in items.into_iter().rev() {
                        f.stack.push(x);
                    }
                }
                Instr::Call(argc) => {
                    let nf = self.frames.len();
                    let f = &mut self.frames[nf - 1];
                    let at = f.stack.len() - argc as usize;
                    let callee_at = at - 1;
                    if let Value::Function(func) = &f.stack[callee_at] {
                        let func = func.clone();
                        let code = &func.code;
                        if code.kind != CodeKind::Generator
                            && !code.varargs
                            && !code.varkw
                            && code.kwonlycount == 0
                            && code.argcount == argc
                        {
                            let nlocals = code.varnames.len();
                            let mut locals = self.locals_pool.pop().unwrap_or_default();
                            locals.reserve(nlocals);
                            locals.extend(f.stack.drain(at..).map(Some));
                            f.stack.pop();
                            pad_locals(&mut locals, nlocals);
                            self.push_call_frame(&func, locals)?;
                            continue;
                        }
                    }
                    // `range(stop)` / `range(start, stop)` with int arguments: what `call`
                    // (one `CALL` charge) and `construct` make of it.
                    if let Value::Class(c) = &self.frames[nf - 1].stack[callee_at]
                        && c.builtin
                        && c.kind == TypeKind::Range
                    {
                        let st = &self.frames[nf - 1].stack;
                        let bounds = match (argc, &st[at..]) {
                            (1, [Value::Int(b)]) => Some((0, *b)),
                            (2, [Value::Int(a), Value::Int(b)]) => Some((*a, *b)),
                            _ => None,
                        };
                        if let Some((start, stop)) = bounds {
                            let f = &mut self.frames[nf - 1];
                            f.stack.truncate(at);
                            let callee = f.stack.pop();
                            self.charge(cost::CALL)?;
                            drop(callee);
                            let r = Value::Range(Rc::new(PyRange::from_i64(start, stop, 1)));
                            self.push(r);
                            continue;
                        }
                    }
                    // A plain user class whose `__init__` takes exactly these positional
                    // arguments: what `call_push` does for it (charge, instance, charge, frame
                    // with `FrameRet::Init`), with the locals built from the stack directly.
                    let class_callee = match &self.frames[nf - 1].stack[callee_at] {
                        Value::Class(c) if c.kind != TypeKind::Exception => Some(c.clone()),
                        _ => None,
                    };
                    if let Some(cls) = class_callee
                        && let Some(init) = self.init_frame_target_cached(&cls)
                        && simple_positional(&init.code, argc + 1)
                    {
                        self.charge(cost::CALL)?;
                        let inst = self.new_instance(&cls, &[]);
                        self.charge(cost::CALL)?;
                        let nlocals = init.code.varnames.len();
                        let mut locals = self.locals_pool.pop().unwrap_or_default();
                        locals.reserve(nlocals);
                        locals.push(Some(inst.clone()));
                        let f = &mut self.frames[nf - 1];
                        locals.extend(f.stack.drain(at..).map(Some));
                        let callee = f.stack.pop();
                        pad_locals(&mut locals, nlocals);
                        drop(callee);
                        self.push_call_frame(&init, locals)?;
                        self.fr().ret = FrameRet::Init(inst);
                        continue;
                    }
                    if argc <= 2 && self.call_builtin_fast(argc)? {
                        continue;
                    }
                    let f = &mut self.frames[nf - 1];
                    let args: Vec<Value> = f.stack.split_off(at);
                    let callee = f.stack.pop().unwrap_or_default();
                    if let Some(()) = self.call_push(&callee, args, Vec::new())? {
                        continue;
                    }
                }
                Instr::CallKw(argc) => {
                    let names = self.pop();
                    let f = self.fr();
                    let at = f.stack.len() - argc as usize;
                    let mut args: Vec<Value> = f.stack.split_off(at);
                    let callee = f.stack.pop().unwrap_or_default();
                    let kwargs = self.split_kwargs(&mut args, &names);
                    if let Some(()) = self.call_push(&callee, args, kwargs)? {
                        continue;
                    }
                }
                Instr::CallEx => {
                    let kw = self.pop();
                    let args = self.pop();
                    let callee = self.pop();
                    let args = match args {
                        Value::Tuple(t) => t.v.to_vec(),
                        other => self.collect(&other)?,
                    };
                    let mut kwargs = Vec::new();
                    if let Value::Dict(d) = &kw {
                        for e in d.d.borrow().iter() {
                            match &e.key {
                                Value::Str(s) => kwargs.push((Rc::from(&*s.s), e.value.clone())),
                                _ => return Err(self.type_err("keywords must be strings")),
                            }
                        }
                    }
                    if let Some(()) = self.call_push(&callee, args, kwargs)? {
                        continue;
                    }
                }
                Instr::CallMethod(ni, argc) => {
                    let n = self.frames.len();
                    let f = &self.frames[n - 1];
                    let at = f.stack.len() - argc as usize;
                    // Fast path: plain Python method of a user class, positional arguments only.
                    let cand = match &f.stack[at - 1] {
                        Value::Instance(inst) => {
                            let cls = inst.class.borrow().clone();
                            let name = &f.code.names[ni as usize];
                            let nh = f.code.name_hashes[ni as usize];
                            if cls.eff_flags() & CLS_GETATTRIBUTE == 0
                                && inst.dict.d.borrow().get_str_h(name, nh).is_none()
                            {
                                Some((cls, name.clone(), nh))
                            } else {
                                None
                            }
                        }
                        _ => None,
                    };
                    if let Some((cls, name, nh)) = cand
                        && let Some(Value::Function(func)) =
                            self.class_lookup_cached(&cls, &name, nh)
                    {
                        let code = &func.code;
                        if code.kind != CodeKind::Generator
                            && !code.varargs
                            && !code.varkw
                            && code.kwonlycount == 0
                            && code.argcount == argc + 1
                        {
                            let nlocals = code.varnames.len();
                            let f = &mut self.frames[n - 1];
                            let mut locals = self.locals_pool.pop().unwrap_or_default();
                            locals.reserve(nlocals);
                            locals.extend(f.stack.drain(at - 1..).map(Some));
                            pad_locals(&mut locals, nlocals);
                            self.push_call_frame(&func, locals)?;
                            continue;
                        }
                    }
                    if argc <= 2 && self.call_method_builtin_fast(ni, argc)? {
                        continue;
                    }
                    let f = &mut self.frames[n - 1];
                    let args: Vec<Value> = f.stack.split_off(at);
                    let recv = f.stack.pop().unwrap_or_default();
                    let name = f.code.names[ni as usize].clone();
                    let nh = f.code.name_hashes[ni as usize];
                    if let Some(()) = self.call_method_push(recv, &name, nh, args, Vec::new())? {
                        continue;
                    }
                }
                Instr::CallMethodKw(ni, argc) => {
                    let names = self.pop();
                    let f = self.fr();
                    let at = f.stack.len() - argc as usize;
                    let mut args: Vec<Value> = f.stack.split_off(at);
                    let recv = f.stack.pop().unwrap_or_default();
                    let name = f.code.names[ni as usize].clone();
                    let nh = f.code.name_hashes[ni as usize];
                    let kwargs = self.split_kwargs(&mut args, &names);
                    if let Some(()) = self.call_method_push(recv, &name, nh, args, kwargs)? {
                        continue;
                    }
                }
                Instr::LoadSuper => {
                    let f = self.fr();
                    let cls = f.func.as_ref().and_then(|fu| fu.class.borrow().clone());
                    let first = if let Some(v) = f.locals.first().and_then(|v| v.clone()) {
                        Some(v)
                    } else {
                        f.code
                            .cell_params
                            .iter()
                            .find(|(_, li)| *li == 0)
                            .and_then(|(ci, _)| f.cells[*ci as usize].v.borrow().clone())
                    };
                    match (cls, first) {
                        (Some(cls), Some(obj)) => {
                            self.push(Value::Wrapper(Rc::new(Wrapper::Super { cls, obj })))
                        }
                        _ => return Err(self.exc("RuntimeError", "super(): no arguments")),
                    }
                }
                Instr::MakeFunction(k, flags) => {
                    let code = match &self.fr().code.consts[k as usize] {
                        Value::Code(c) => c.clone(),
                        _ => return Err(self.exc("SystemError", "bad code constant")),
                    };
                    let closure: Vec<Rc<PyCell>> = if flags & 4 != 0 {
                        match self.pop() {
                            Value::Tuple(t) => {
                                t.v.iter()
                                    .filter_map(|c| {
                                        if let Value::Cell(c) = c {
                                            Some(c.clone())
                                        } else {
                                            None
                                        }
                                    })
                                    .collect()
                            }
                            _ => Vec::new(),
                        }
                    } else {
                        Vec::new()
                    };
                    let annotations = if flags & 8 != 0 {
                        self.pop()
                    } else {
                        Value::None
                    };
                    let kwdefaults: Vec<(Rc<str>, Value)> = if flags & 2 != 0 {
                        match self.pop() {
                            Value::Dict(d) => {
                                d.d.borrow()
                                    .iter()
                                    .map(|e| {
                                        let k: Rc<str> = match &e.key {
                                            Value::Str(s) => Rc::from(&*s.s),
                                            _ => Rc::from(""),
                                        };
                                        (k, e.value.clone())
                                    })
                                    .collect()
                            }
                            _ => Vec::new(),
                        }
                    } else {
                        Vec::new()
                    };
                    let defaults = if flags & 1 != 0 {
                        match self.pop() {
                            Value::Tuple(t) => t.v.to_vec(),
                            _ => Vec::new(),
                        }
                    } else {
                        Vec::new()
                    };
                    let globals = self.fr().globals.clone();
                    let name = code.name.clone();
                    let func = Rc::new(Function {
                        code,
                        globals,
                        defaults: RefCell::new(defaults),
                        kwdefaults: RefCell::new(kwdefaults),
                        closure,
                        class: RefCell::new(None),
                        dict: RefCell::new(None),
                        annotations: RefCell::new(annotations),
                        name: RefCell::new(name),
                        id: self.new_id(),
                    });
                    heap::register(Tracked::Function(Rc::downgrade(&func)));
                    self.push(Value::Function(func));
                }
                Instr::BuildClass(flags) => {
                    let kw = if flags & 1 != 0 {
                        Some(self.pop())
                    } else {
                        None
                    };
                    let bases = self.pop();
                    let qualname = self.pop();
                    let body = self.pop();
                    let c = self.build_class(body, qualname, bases, kw)?;
                    self.push(c);
                }
                Instr::ReturnValue => {
                    let v = self.pop();
                    // Take the parts to keep, then drop the frame in place (no move of the
                    // whole frame): locals first, then the rest, as before.
                    let nf = self.frames.len();
                    let f = &mut self.frames[nf - 1];
                    let ret = std::mem::take(&mut f.ret);
                    let mut stack = std::mem::take(&mut f.stack);
                    let mut locals = std::mem::take(&mut f.locals);
                    locals.clear();
                    stack.clear();
                    self.frames.truncate(nf - 1);
                    if self.stack_pool.len() < 64 && stack.capacity() <= 64 {
                        self.stack_pool.push(stack);
                    }
                    if self.locals_pool.len() < 64 && locals.capacity() <= 64 {
                        self.locals_pool.push(locals);
                    }
                    let v = match ret {
                        FrameRet::Value => v,
                        FrameRet::Init(inst) => {
                            if !v.is_none() {
                                return Err(self.type_err(format!(
                                    "__init__() should return None, not '{}'",
                                    self.type_name(&v)
                                )));
                            }
                            inst
                        }
                        FrameRet::BinOp(c) => {
                            if matches!(v, Value::NotImplemented) {
                                let (a, b, op) = *c;
                                self.binary_op_after_lhs(&a, &b, op, false)?
                            } else {
                                v
                            }
                        }
                    };
                    if self.frames.len() <= base {
                        return Ok(RunExit::Return(v));
                    }
                    self.push(v);
                }
                Instr::Yield => {
                    let v = self.pop();
                    let f = self.frames.pop().expect("frame");
                    self.yielded = Some(Box::new(f));
                    return Ok(RunExit::Yield(v));
                }
                Instr::YieldFrom => {
                    let sent = self.pop();
                    let sub = self.top().clone();
                    let step = match &sub {
                        Value::Generator(g) => {
                            let g = g.clone();
                            self.gen_resume(&g, sent, None)?
                        }
                        other => {
                            if !sent.is_none() {
                                let m = self.get_attr(other, "send")?;
                                match self.call(&m, vec![sent], vec![]) {
                                    Ok(v) => GenStep::Yielded(v),
                                    Err(Flow::Exc(e))
                                        if self.isinstance_name(&e, "StopIteration") =>
                                    {
                                        GenStep::Returned(self.stop_value(&e))
                                    }
                                    Err(e) => return Err(e),
                                }
                            } else {
                                match self.next(other)? {
                                    Some(v) => GenStep::Yielded(v),
                                    None => GenStep::Returned(Value::None),
                                }
                            }
                        }
                    };
                    match step {
                        GenStep::Yielded(v) => {
                            let f = self.fr();
                            f.ip -= 1;
                            let f = self.frames.pop().expect("frame");
                            self.yielded = Some(Box::new(f));
                            return Ok(RunExit::Yield(v));
                        }
                        GenStep::Returned(r) => {
                            self.pop();
                            self.push(r);
                        }
                    }
                }
                Instr::SetupExcept(t) => {
                    let f = self.fr();
                    let b = Block {
                        handler: t,
                        depth: f.stack.len() as u32,
                        exc_depth: f.exc_stack.len() as u32,
                    };
                    f.blocks.push(b);
                }
                Instr::PopBlock => {
                    self.fr().blocks.pop();
                }
                Instr::Raise(n) => {
                    let e = match n {
                        0 => match self.current_handled() {
                            Some(e) => return Err(Flow::Exc(e)),
                            None => {
                                return Err(
                                    self.exc("RuntimeError", "No active exception to reraise")
                                );
                            }
                        },
                        1 => {
                            let v = self.pop();
                            self.make_raisable(v)?
                        }
                        _ => {
                            let cause = self.pop();
                            let v = self.pop();
                            let e = self.make_raisable(v)?;
                            let cause = if cause.is_none() {
                                None
                            } else {
                                Some(self.make_raisable(cause)?)
                            };
                            if let Value::Instance(i) = &e
                                && let Some(st) = &i.exc
                            {
                                let mut st = st.borrow_mut();
                                st.cause = cause;
                                st.suppress_context = true;
                            }
                            e
                        }
                    };
                    if let Value::Instance(i) = &e
                        && let Some(st) = &i.exc
                        && let Some(ctx) = self.current_handled()
                    {
                        let same = matches!(&ctx, Value::Instance(c) if Rc::ptr_eq(c, i));
                        if !same {
                            st.borrow_mut().context = Some(ctx);
                        }
                    }
                    return Err(Flow::Exc(e));
                }
                Instr::Reraise => {
                    let e = self.pop();
                    self.fr().exc_stack.pop();
                    return Err(Flow::Exc(e));
                }
                Instr::PopExcept => {
                    self.fr().exc_stack.pop();
                }
                Instr::JumpIfNotExcMatch(t) => {
                    let cls = self.pop();
                    let e = self.top().clone();
                    if !self.exc_matches(&e, &cls)? {
                        self.fr().ip = t as usize;
                    }
                }
                Instr::WithEnter => {
                    let mgr = self.pop();
                    let exit = match self.lookup_special(&mgr, "__exit__") {
                        Some(x) => x,
                        None => {
                            if self.lookup_special(&mgr, "__enter__").is_none() {
                                return Err(self.type_err(format!(
                                    "'{}' object does not support the context manager protocol",
                                    self.type_name(&mgr)
                                )));
                            }
                            return Err(self.exc("AttributeError", "__exit__"));
                        }
                    };
                    let enter = match self.lookup_special(&mgr, "__enter__") {
                        Some(x) => x,
                        None => return Err(self.exc("AttributeError", "__enter__")),
                    };
                    let exit_bound = Value::BoundMethod(Rc::new(BoundMethod {
                        recv: mgr.clone(),
                        func: exit,
                    }));
                    self.push(exit_bound);
                    let r = self.call(&enter, vec![mgr], vec![])?;
                    self.push(r);
                }
                Instr::WithExit => {
                    let e = self.pop();
                    let exit = self.pop();
                    if e.is_none() {
                        self.call(&exit, vec![Value::None, Value::None, Value::None], vec![])?;
                    } else {
                        let ty = Value::Class(self.class_of(&e));
                        let r = self.call(&exit, vec![ty, e.clone(), Value::None], vec![])?;
                        if self.truthy(&r)? {
                            self.fr().exc_stack.pop();
                        } else {
                            self.fr().exc_stack.pop();
                            return Err(Flow::Exc(e));
                        }
                    }
                }
                Instr::FormatValue(flags) => {
                    let spec = if flags & 4 != 0 {
                        Some(self.pop())
                    } else {
                        None
                    };
                    let v = self.pop();
                    let v = match flags & 3 {
                        1 => Value::str(self.to_str(&v)?),
                        2 => Value::str(self.repr(&v)?),
                        3 => Value::str(crate::ops::ascii_of(&self.repr(&v)?)),
                        _ => v,
                    };
                    let s = match (&v, &spec) {
                        (Value::Str(_), None) => v,
                        _ => {
                            let spec_s = match &spec {
                                Some(Value::Str(s)) => s.s.to_string(),
                                _ => String::new(),
                            };
                            Value::str(self.format(&v, &spec_s)?)
                        }
                    };
                    self.push(s);
                }
                Instr::Import(k) => {
                    let name = match &self.fr().code.consts[k as usize] {
                        Value::Str(s) => s.s.to_string(),
                        _ => String::new(),
                    };
                    let m = self.import(&name)?;
                    self.push(m);
                }
                Instr::ImportFrom(i) => {
                    let name = self.fr().code.names[i as usize].clone();
                    let m = self.top().clone();
                    let v = match self.get_attr(&m, &name) {
                        Ok(v) => v,
                        Err(Flow::Exc(_)) => {
                            let mn = match &m {
                                Value::Module(m) => m.name.to_string(),
                                _ => String::new(),
                            };
                            return Err(self.exc(
                                "ImportError",
                                format!("cannot import name '{name}' from '{mn}'"),
                            ));
                        }
                        Err(e) => return Err(e),
                    };
                    self.push(v);
                }
                Instr::ImportStar => {
                    let m = self.pop();
                    if let Value::Module(m) = m {
                        // `__all__` when the module defines it, else every public name
                        let all = m.dict.borrow().get_str("__all__").cloned();
                        let items: Vec<(Value, Value)> = match all {
                            Some(all @ (Value::List(_) | Value::Tuple(_))) => {
                                let mut v = Vec::new();
                                for k in self.collect(&all)? {
                                    let Value::Str(s) = &k else {
                                        return Err(self.type_err("Item in __all__ must be str"));
                                    };
                                    let x = m.dict.borrow().get_str(&s.s).cloned();
                                    match x {
                                        Some(x) => v.push((k.clone(), x)),
                                        None => {
                                            return Err(self.exc(
                                                "AttributeError",
                                                format!(
                                                    "module '{}' has no attribute '{}'",
                                                    m.name, s.s
                                                ),
                                            ));
                                        }
                                    }
                                }
                                v
                            }
                            _ => m
                                .dict
                                .borrow()
                                .iter()
                                .filter(
                                    |e| matches!(&e.key, Value::Str(s) if !s.s.starts_with('_')),
                                )
                                .map(|e| (e.key.clone(), e.value.clone()))
                                .collect(),
                        };
                        let g = self.fr().globals.clone();
                        for (k, v) in items {
                            if let Value::Str(s) = k {
                                g.dict.borrow_mut().set_str(s, v);
                            }
                        }
                    }
                }
                Instr::MatchClass(npos) => {
                    let names = self.pop();
                    let cls = self.pop();
                    let subj = self.pop();
                    let r = self.match_class(&subj, &cls, npos as usize, &names)?;
                    self.push(r);
                }
                Instr::MatchMapping => {
                    let v = self.top().clone();
                    let is = matches!(v, Value::Dict(_));
                    self.push(Value::Bool(is));
                }
                Instr::MatchSequence(_) => {
                    let v = self.pop();
                    let is = matches!(v, Value::List(_) | Value::Tuple(_) | Value::Range(_));
                    self.push(Value::Bool(is));
                }
                Instr::MatchKeys => {
                    let keys = self.pop();
                    let subj = self.top().clone();
                    let mut vals = Vec::new();
                    let mut ok = true;
                    if let (Value::Tuple(ks), Value::Dict(d)) = (&keys, &subj) {
                        for k in ks.v.iter() {
                            match self.dict_get(d, k)? {
                                Some(v) => vals.push(v),
                                None => {
                                    ok = false;
                                    break;
                                }
                            }
                        }
                    } else {
                        ok = false;
                    }
                    self.push(if ok { Value::tuple(vals) } else { Value::None });
                }
                Instr::GetLen => {
                    let v = self.pop();
                    let n = self.len(&v)?;
                    self.push(Value::Int(n as i64));
                }
            }
        }
    }

    fn split_kwargs(&self, args: &mut Vec<Value>, names: &Value) -> Vec<(Rc<str>, Value)> {
        let Value::Tuple(t) = names else {
            return Vec::new();
        };
        let nk = t.v.len();
        let vals = args.split_off(args.len() - nk);
        t.v.iter()
            .zip(vals)
            .map(|(k, v)| {
                let k: Rc<str> = match k {
                    Value::Str(s) => Rc::from(&*s.s),
                    _ => Rc::from(""),
                };
                (k, v)
            })
            .collect()
    }

    /// Call `callee`; Python functions get a frame pushed (returns Some(()) so the loop continues
    /// in the new frame); other callables run natively and their result is pushed.
    fn call_push(
        &mut self,
        callee: &Value,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Option<()>> {
        match callee {
            Value::Function(func) if func.code.kind != CodeKind::Generator => {
                let func = func.clone();
                let locals = self.bind_args(&func, args, kwargs)?;
                self.push_call_frame(&func, locals)?;
                Ok(Some(()))
            }
            Value::BoundMethod(b) if matches!(&b.func, Value::Function(f) if f.code.kind != CodeKind::Generator) =>
            {
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(b.recv.clone());
                a.extend(args);
                let f = b.func.clone();
                self.call_push(&f, a, kwargs)
            }
            Value::Class(cls) if let Some(init) = self.init_frame_target(cls) => {
                // What `call` -> `instantiate` -> `instantiate_plain` do for a plain user
                // class (same charges, same order), with `__init__`'s frame pushed here.
                let cls = cls.clone();
                self.charge(cost::CALL)?;
                let inst = self.new_instance(&cls, &args);
                self.charge(cost::CALL)?;
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(inst.clone());
                a.extend(args);
                let locals = self.bind_args(&init, a, kwargs)?;
                self.push_call_frame(&init, locals)?;
                self.fr().ret = FrameRet::Init(inst);
                Ok(Some(()))
            }
            _ => {
                let r = self.call(callee, args, kwargs)?;
                self.push(r);
                Ok(None)
            }
        }
    }

    /// The `__init__` to run in a pushed frame when calling `cls` is exactly
    /// `instantiate_plain`'s default path: a user class without a metaclass, without a
    /// user `__new__` and without a built-in base, whose `__init__` is a Python function
    /// (not a generator function).
    fn init_frame_target(&self, cls: &Rc<Class>) -> Option<Rc<Function>> {
        if cls.builtin || self.metaclass_of(cls).is_some() || self.builtin_base(cls).is_some() {
            return None;
        }
        if matches!(
            self.class_lookup(cls, "__new__"),
            Some(Value::Function(_)) | Some(Value::Wrapper(_))
        ) {
            return None;
        }
        match self.class_lookup(cls, "__init__") {
            Some(Value::Function(f)) if f.code.kind != CodeKind::Generator => Some(f),
            _ => None,
        }
    }

    /// [`Vm::init_frame_target`] through the inline cache of the `CALL` instruction being
    /// executed in the top frame. The cache pins the key layout of every dict the two lookups
    /// (`__new__`, `__init__`) consult — the class and its whole MRO, at most three dicts — by
    /// their versions, and records where each name was found (`slot`: `__init__`, absent when
    /// `miss`; `hint`: `__new__`); the values are read from those slots, so a hit gives exactly
    /// the uncached result.
    fn init_frame_target_cached(&self, cls: &Rc<Class>) -> Option<Rc<Function>> {
        const LEVEL_SHIFT: u32 = 30;
        let levels = cls.mro.len() + 1;
        if levels > 3 {
            return self.init_frame_target(cls);
        }
        if cls.builtin || self.metaclass_of(cls).is_some() || self.builtin_base(cls).is_some() {
            return None;
        }
        let level = |j: usize| -> &Rc<Class> { if j == 0 { cls } else { &cls.mro[j - 1] } };
        let f = self.frames.last()?;
        let cell = &f.code.caches[f.ip - 1];
        let c = cell.get();
        let valid = c.depth as usize == levels
            && (0..levels).all(|j| level(j).dict.borrow().version() == c.vers[j]);
        let decode = |x: u32| {
            (
                (x >> LEVEL_SHIFT) as usize,
                (x & ((1 << LEVEL_SHIFT) - 1)) as usize,
            )
        };
        let (new_at, init_at) = if valid {
            (c.hint.map(decode), (!c.miss).then(|| decode(c.slot)))
        } else {
            let find = |name: &str| -> Option<(usize, usize)> {
                let h = crate::dict::str_hash(name);
                (0..levels).find_map(|j| level(j).dict.borrow().find_str_h(name, h).map(|s| (j, s)))
            };
            let (new_at, init_at) = (find("__new__"), find("__init__"));
            let encode = |(j, s): (usize, usize)| -> Option<u32> {
                (s < 1 << LEVEL_SHIFT).then_some(((j as u32) << LEVEL_SHIFT) | s as u32)
            };
            let enc_new = new_at.map(encode);
            let enc_init = init_at.map(encode);
            if !matches!(enc_new, Some(None)) && !matches!(enc_init, Some(None)) {
                let mut vers = [0u64; 3];
                for (j, v) in vers.iter_mut().enumerate().take(levels) {
                    *v = level(j).dict.borrow().version();
                }
                cell.set(crate::bytecode::InlineCache {
                    vers,
                    slot: enc_init.flatten().unwrap_or(0),
                    depth: levels as u8,
                    miss: init_at.is_none(),
                    hint: enc_new.flatten(),
                    alt: Default::default(),
                });
            }
            (new_at, init_at)
        };
        let value_at = |(j, s): (usize, usize)| -> Option<Value> {
            level(j).dict.borrow().slot(s).map(|e| e.value.clone_fast())
        };
        if matches!(
            new_at.and_then(value_at),
            Some(Value::Function(_)) | Some(Value::Wrapper(_))
        ) {
            return None;
        }
        match init_at.and_then(value_at) {
            Some(Value::Function(f)) if f.code.kind != CodeKind::Generator => Some(f),
            _ => None,
        }
    }

    fn call_method_push(
        &mut self,
        recv: Value,
        name: &str,
        h: u64,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> PyResult<Option<()>> {
        if let Value::Instance(inst) = &recv {
            let cls = inst.class.borrow().clone();
            let in_dict = inst.dict.d.borrow().get_str_h(name, h).is_some();
            if !in_dict
                && cls.eff_flags() & CLS_GETATTRIBUTE == 0
                && let Some(Value::Function(f)) = self.class_lookup_h(&cls, name, h)
            {
                let mut a = Vec::with_capacity(args.len() + 1);
                a.push(recv.clone());
                a.extend(args);
                return self.call_push(&Value::Function(f), a, kwargs);
            }
        }
        if let Value::Instance(inst) = &recv
            && let Some(n) = self.native_of(&recv)
        {
            let cls = inst.class.borrow().clone();
            if self.class_lookup_h(&cls, name, h).is_none()
                && inst.dict.d.borrow().get_str_h(name, h).is_none()
            {
                self.charge(cost::CALL)?;
                let r = crate::methods::call_method(self, &n, name, args, kwargs)?;
                self.push(r);
                return Ok(None);
            }
        }
        if crate::methods::is_native_receiver(&recv) {
            self.charge(cost::CALL)?;
            let r = crate::methods::call_method(self, &recv, name, args, kwargs)?;
            self.push(r);
            return Ok(None);
        }
        let m = self.get_attr(&recv, name)?;
        self.call_push(&m, args, kwargs)
    }

    /// After an instruction of the top frame that computed the bool `r` (not yet pushed): a
    /// following `POP_JUMP_IF_FALSE` / `POP_JUMP_IF_TRUE` runs here on it, exactly as the
    /// dispatch loop would run it (`ip` advanced, its cost charged from the table or
    /// `OutOfCycles`, then the jump), and true is returned. False (nothing done; the caller
    /// pushes `r`) when the next instruction is not such a jump, or when a generator finalizer
    /// became due (values dropped by the first instruction can queue one; the loop runs it
    /// before the next instruction, as it would have without the fusion).
    #[inline(always)]
    fn fused_jump(&mut self, r: bool) -> PyResult<bool> {
        if self.finalize.pending.get() {
            return Ok(false);
        }
        let nf = self.frames.len();
        let f = &mut self.frames[nf - 1];
        let (next, t, when) = match f.code.instrs.get(f.ip) {
            Some(&next @ Instr::PopJumpIfFalse(t)) => (next, t, false),
            Some(&next @ Instr::PopJumpIfTrue(t)) => (next, t, true),
            _ => return Ok(false),
        };
        f.ip += 1;
        self.meter.charge(cost::instr_cost(&next))?;
        if r == when {
            f.ip = t as usize;
        }
        Ok(true)
    }

    /// The `LOAD_ATTR` fast path for `inst.<code.names[i]>` at instruction `at` of `code`
    /// (whose inline cache it uses): the value when `get_attr` would find it in the instance
    /// dict, the getter when it would call a property's plain-function getter, else
    /// [`InstAttr::Slow`]. It has no observable effect (it charges nothing and only fills
    /// caches), so a caller may try it before charging the instruction.
    ///
    /// When the class has data descriptors, the (inline-cached) class lookup must first show
    /// that the name is absent from the class or bound to a plain function, exactly the cases
    /// where `get_attr` consults the instance dict next.
    #[inline(always)]
    fn inst_attr(mc: &MethodCache, inst: &Instance, code: &Code, at: usize, i: u32) -> InstAttr {
        let fl = inst.class.borrow().eff_flags();
        if fl & CLS_GETATTRIBUTE != 0 {
            return InstAttr::Slow;
        }
        let name = &code.names[i as usize];
        let h = code.name_hashes[i as usize];
        let cell = &code.caches[at];
        if fl & CLS_DATA_DESCR != 0 {
            let cls = inst.class.borrow().clone();
            match Self::class_lookup_cached_at(mc, cell, &cls, name, h) {
                None | Some(Value::Function(_)) => {}
                Some(Value::Wrapper(w)) => {
                    if let Wrapper::Property {
                        fget: Value::Function(g),
                        ..
                    } = &*w
                        && simple_positional(&g.code, 1)
                        && !crate::attr::is_forbidden(name)
                    {
                        return InstAttr::Getter(g.clone());
                    }
                    return InstAttr::Slow;
                }
                Some(_) => return InstAttr::Slow,
            }
        }
        // The hint is the slot where this instruction last found the name. Keys are unique,
        // so a slot that still holds this exact key is the key's slot; no version check is
        // needed.
        let c = cell.get();
        let d = inst.dict.d.borrow();
        let hinted = c
            .hint
            .and_then(|s| d.slot(s as usize))
            .filter(|e| e.hash == h && name_key_eq(&e.key, name));
        let hit = match hinted {
            Some(e) => Some(e.value.clone_fast()),
            // An instance-dict `__class__` is shadowed by `object`'s data descriptor: never
            // hinted, so that case is left to `get_attr`.
            // Names the sandbox forbids are never hinted either: `get_attr` raises for them
            // before looking anywhere.
            None => d
                .find_str_h(name, h)
                .filter(|_| &**name != "__class__" && !crate::attr::is_forbidden(name))
                .and_then(|slot| {
                    cell.set(crate::bytecode::InlineCache {
                        hint: Some(slot as u32),
                        ..cell.get()
                    });
                    d.slot(slot).map(|e| e.value.clone_fast())
                }),
        };
        match hit {
            Some(v) => InstAttr::Hit(v),
            None => InstAttr::Slow,
        }
    }

    /// The Python function `binary_op(a, b, op, false)` would call first, when that call can
    /// be made by pushing a frame: `a` is an instance of a user class, `b` an instance of the
    /// same class or an immediate (so no built-in operation applies and the right operand's
    /// reflected method does not go first), and `type(a).__op__` is a plain Python function
    /// of two positional parameters. Looked up through the instruction's inline cache.
    fn binop_frame_target(
        &self,
        a: &Value,
        b: &Value,
        op: crate::bytecode::BinOp,
    ) -> Option<Rc<Function>> {
        let Value::Instance(x) = a else { return None };
        let ca = x.class.borrow().clone();
        if ca.builtin {
            return None;
        }
        let b_ok = match b {
            Value::Instance(y) => Rc::ptr_eq(&ca, &y.class.borrow()),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::None => true,
            _ => false,
        };
        if !b_ok {
            return None;
        }
        let (name, h) = crate::ops::binop_dunder_hashed(op);
        match self.class_lookup_cached(&ca, name, h) {
            Some(Value::Function(f)) if simple_positional(&f.code, 2) => Some(f),
            _ => None,
        }
    }

    /// [`Vm::class_lookup_h`] through the inline cache of the instruction being executed in
    /// the top frame. Same result as the uncached lookup: a hit requires every dict the lookup
    /// would consult to still carry the version it had when the cache was filled.
    fn class_lookup_cached(&self, cls: &Rc<Class>, name: &str, h: u64) -> Option<Value> {
        let f = self.frames.last()?;
        Self::class_lookup_cached_at(&self.method_cache, &f.code.caches[f.ip - 1], cls, name, h)
    }

    /// [`Vm::class_lookup_cached`] through the inline cache `cell` (that of the instruction
    /// whose lookup this is), with `mc` the VM's method cache. Same result as the uncached
    /// lookup.
    fn class_lookup_cached_at(
        mc: &MethodCache,
        cell: &Cell<crate::bytecode::InlineCache>,
        cls: &Rc<Class>,
        name: &str,
        h: u64,
    ) -> Option<Value> {
        let level = |j: usize| -> Option<&Rc<Class>> {
            if j == 0 {
                Some(cls)
            } else {
                cls.mro.get(j - 1)
            }
        };
        let c = cell.get();
        let primary = crate::bytecode::ClassWay {
            vers: c.vers,
            slot: c.slot,
            depth: c.depth,
            miss: c.miss,
        };
        if let Some(r) = way_lookup(cls, &primary) {
            return r;
        }
        if let Some(r) = way_lookup(cls, &c.alt) {
            return r;
        }
        // A new lookup becomes the first way; the one it replaces becomes the second.
        let record = |vers: [u64; 3], slot: u32, depth: u8, miss: bool| {
            cell.set(crate::bytecode::InlineCache {
                vers,
                slot,
                depth,
                miss,
                hint: c.hint,
                alt: primary,
            });
        };
        // Second level: the VM's method cache (sites that see more classes than two).
        let v0 = cls.dict.borrow().version();
        if let Some((vers, slot, depth, miss)) = mc.get(v0, h, name) {
            let k = depth as usize - 1;
            if (1..=k).all(|j| level(j).is_some_and(|d| d.dict.borrow().version() == vers[j])) {
                if miss && cls.mro.len() == k {
                    record(vers, 0, depth, true);
                    return None;
                }
                if !miss
                    && let Some(d) = level(k)
                    && let Some(en) = d.dict.borrow().slot(slot as usize)
                {
                    record(vers, slot, depth, false);
                    return Some(en.value.clone_fast());
                }
            }
        }
        let mut vers = [0u64; 3];
        for j in 0..=cls.mro.len() {
            let d = level(j)?.dict.borrow();
            if let Some(v) = vers.get_mut(j) {
                *v = d.version();
            }
            if let Some(slot) = d.find_str_h(name, h) {
                if j < vers.len() {
                    record(vers, slot as u32, (j + 1) as u8, false);
                    mc.set(MethodEntry {
                        h,
                        vers,
                        slot: slot as u32,
                        depth: (j + 1) as u8,
                        miss: false,
                        name: Some(Rc::from(name)),
                    });
                }
                return d.slot(slot).map(|e| e.value.clone());
            }
        }
        if cls.mro.len() < vers.len() {
            record(vers, 0, (cls.mro.len() + 1) as u8, true);
            mc.set(MethodEntry {
                h,
                vers,
                slot: 0,
                depth: (cls.mro.len() + 1) as u8,
                miss: true,
                name: Some(Rc::from(name)),
            });
        }
        None
    }

    fn load_global(&mut self, i: u32) -> PyResult<Value> {
        let n = self.frames.len();
        let f = &self.frames[n - 1];
        // Inline cache of the instruction being executed (`ip` already points past it).
        let cell = &f.code.caches[f.ip - 1];
        let c = cell.get();
        {
            let g = f.globals.dict.borrow();
            let gv = g.version();
            if c.depth == 1 && c.vers[0] == gv {
                if let Some(e) = g.slot(c.slot as usize) {
                    return Ok(e.value.clone_fast());
                }
            } else if c.depth == 2 && c.vers[0] == gv {
                let b = self.builtins.dict.borrow();
                if c.vers[1] == b.version()
                    && let Some(e) = b.slot(c.slot as usize)
                {
                    return Ok(e.value.clone_fast());
                }
            }
        }
        let name = &f.code.names[i as usize];
        let h = f.code.name_hashes[i as usize];
        {
            let g = f.globals.dict.borrow();
            if let Some(slot) = g.find_str_h(name, h) {
                cell.set(crate::bytecode::InlineCache {
                    vers: [g.version(), 0, 0],
                    slot: slot as u32,
                    depth: 1,
                    ..Default::default()
                });
                if let Some(e) = g.slot(slot) {
                    return Ok(e.value.clone_fast());
                }
            }
        }
        {
            let b = self.builtins.dict.borrow();
            if let Some(slot) = b.find_str_h(name, h) {
                cell.set(crate::bytecode::InlineCache {
                    vers: [f.globals.dict.borrow().version(), b.version(), 0],
                    slot: slot as u32,
                    depth: 2,
                    ..Default::default()
                });
                if let Some(e) = b.slot(slot) {
                    return Ok(e.value.clone_fast());
                }
            }
        }
        let name = name.clone();
        if &*name == "__builtins__" {
            return Err(self.sandbox("access to __builtins__ is not allowed in the PVM"));
        }
        Err(self.exc("NameError", format!("name '{name}' is not defined")))
    }

    fn make_raisable(&mut self, v: Value) -> PyResult<Value> {
        match &v {
            Value::Class(c) if c.kind == TypeKind::Exception => {
                let c = c.clone();
                self.instantiate(&c, vec![], vec![])
            }
            Value::Instance(i) if i.exc.is_some() => Ok(v),
            _ => Err(self.type_err("exceptions must derive from BaseException")),
        }
    }

    /// Does exception `e` match class (or tuple of classes) `cls`?
    pub fn exc_matches(&mut self, e: &Value, cls: &Value) -> PyResult<bool> {
        match cls {
            Value::Tuple(t) => {
                for c in t.v.iter() {
                    if self.exc_matches(e, c)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Class(c) => {
                let ec = self.class_of(e);
                Ok(self.is_subclass(&ec, c))
            }
            _ => Err(self.type_err(
                "catching classes that do not inherit from BaseException is not allowed",
            )),
        }
    }

    /// Is `e` an instance of the built-in exception class `name`?
    pub fn isinstance_name(&self, e: &Value, name: &str) -> bool {
        let c = self.exc_class(name);
        let ec = self.class_of(e);
        self.is_subclass(&ec, &c)
    }

    /// The value carried by a StopIteration.
    pub fn stop_value(&self, e: &Value) -> Value {
        if let Value::Instance(i) = e
            && let Some(Value::Tuple(t)) = &*i.native.borrow()
        {
            return t.v.first().cloned().unwrap_or_default();
        }
        Value::None
    }

    fn build_class(
        &mut self,
        body: Value,
        qualname: Value,
        bases: Value,
        kw: Option<Value>,
    ) -> PyResult<Value> {
        let Value::Function(bf) = body else {
            return Err(self.exc("SystemError", "bad class body"));
        };
        let qualname: Rc<str> = match &qualname {
            Value::Str(s) => Rc::from(&*s.s),
            _ => Rc::from("?"),
        };
        let mut base_list: Vec<Rc<Class>> = Vec::new();
        if let Value::Tuple(t) = &bases {
            for b in t.v.iter() {
                match b {
                    Value::Class(c) => base_list.push(c.clone()),
                    _ => return Err(self.type_err("bases must be types")),
                }
            }
        }
        let mut class_kwargs: Vec<(Rc<str>, Value)> = Vec::new();
        let mut explicit_meta: Option<Value> = None;
        if let Some(Value::Dict(d)) = &kw {
            explicit_meta = d.d.borrow().get_str("metaclass").cloned();
            for e in d.d.borrow().iter() {
                if let Value::Str(s) = &e.key
                    && &*s.s != "metaclass"
                {
                    class_kwargs.push((Rc::from(&*s.s), e.value.clone()));
                }
            }
        }
        let meta = self.select_metaclass(explicit_meta, &base_list)?;
        let ns = Rc::new(PyDict {
            d: RefCell::new(Dict::new()),
        });
        heap::register(Tracked::Dict(Rc::downgrade(&ns)));
        let name: Rc<str> = Rc::from(qualname.rsplit('.').next().unwrap_or(&qualname));
        let modname = bf.globals.name.clone();
        ns.d.borrow_mut()
            .set_str(Rc::new(PyStr::new("__module__")), Value::str(&*modname));
        ns.d.borrow_mut()
            .set_str(Rc::new(PyStr::new("__qualname__")), Value::str(&*qualname));
        let locals = vec![None; bf.code.varnames.len()];
        let mut frame = self.frame_for(&bf, locals);
        frame.ns = Some(ns.clone());
        self.push_frame(frame)?;
        let base = self.frames.len() - 1;
        self.run(base)?;
        if let Some(m) = meta {
            return self.create_with_metaclass(&m, &name, bases, ns, class_kwargs);
        }
        let cls = crate::types::make_class(self, name, qualname, base_list, ns, class_kwargs)?;
        Ok(Value::Class(cls))
    }

    fn match_class(
        &mut self,
        subj: &Value,
        cls: &Value,
        npos: usize,
        names: &Value,
    ) -> PyResult<Value> {
        let Value::Class(c) = cls else {
            return Err(self.type_err("called match pattern must be a class"));
        };
        let sc = self.class_of(subj);
        if !self.is_subclass(&sc, c) {
            return Ok(Value::None);
        }
        let mut out = Vec::new();
        if npos > 0 {
            if c.builtin && npos == 1 && c.kind != TypeKind::Exception && c.kind != TypeKind::Object
            {
                out.push(subj.clone());
            } else {
                let args = match self.class_lookup(c, "__match_args__") {
                    Some(Value::Tuple(t)) => t.v.to_vec(),
                    _ => {
                        return Err(self.type_err(format!(
                            "{}() accepts 0 positional sub-patterns ({} given)",
                            c.name, npos
                        )));
                    }
                };
                if args.len() < npos {
                    return Err(self.type_err(format!(
                        "{}() accepts {} positional sub-patterns ({} given)",
                        c.name,
                        args.len(),
                        npos
                    )));
                }
                for a in args.iter().take(npos) {
                    let n = self.to_str(a)?;
                    match self.get_attr(subj, &n) {
                        Ok(v) => out.push(v),
                        Err(Flow::Exc(e)) if self.isinstance_name(&e, "AttributeError") => {
                            return Ok(Value::None);
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
        }
        if let Value::Tuple(t) = names {
            for n in t.v.iter() {
                let n = self.to_str(n)?;
                match self.get_attr(subj, &n) {
                    Ok(v) => out.push(v),
                    Err(Flow::Exc(e)) if self.isinstance_name(&e, "AttributeError") => {
                        return Ok(Value::None);
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(Value::tuple(out))
    }

    /// Run a compiled module as `__main__`.
    pub fn run_module(&mut self, code: Rc<Code>, name: &str) -> PyResult<Rc<Module>> {
        let m = Rc::new(Module {
            name: Rc::from(name),
            dict: RefCell::new(Dict::new()),
        });
        heap::register(Tracked::Module(Rc::downgrade(&m)));
        m.dict
            .borrow_mut()
            .set_str(Rc::new(PyStr::new("__name__")), Value::str(name));
        let frame = Frame {
            locals: vec![None; code.varnames.len()],
            code,
            ip: 0,
            stack: Vec::with_capacity(16),
            cells: Vec::new(),
            globals: m.clone(),
            ns: None,
            blocks: Vec::new(),
            exc_stack: Vec::new(),
            func: None,
            ret: FrameRet::Value,
        };
        self.push_frame(frame)?;
        let base = self.frames.len() - 1;
        self.run(base)?;
        Ok(m)
    }

    /// Run a compiled module body in the namespace of `m` (already populated with
    /// `__name__` and anything the module expects); used by `import`.
    pub fn run_module_in(&mut self, code: Rc<Code>, m: &Rc<Module>) -> PyResult<()> {
        let frame = Frame {
            locals: vec![None; code.varnames.len()],
            code,
            ip: 0,
            stack: Vec::with_capacity(16),
            cells: Vec::new(),
            globals: m.clone(),
            ns: None,
            blocks: Vec::new(),
            exc_stack: Vec::new(),
            func: None,
            ret: FrameRet::Value,
        };
        self.push_frame(frame)?;
        let base = self.frames.len() - 1;
        self.run(base)?;
        Ok(())
    }
}

/// For an instance of the `__slots__` class `cls` (whose own flags show neither data
/// descriptors nor a user `__setattr__`): true when no class on its MRO may hold a property,
/// an instance (a descriptor candidate) or a `__setattr__` either, so `set_attr`'s class
/// lookups find nothing that takes over and the store reaches `raw_setattr`. Every store into a
/// class dict sets that class's own flags (they are never cleared, so a removed descriptor only
/// costs the fast path), and the MRO's flags are read here on every store (the caller's
/// [`Class::eff_flags`] check already covers them; this re-check is cheap insurance). The only built-in class allowed
/// on the MRO is `object` (whose namespace is empty).
#[inline]
fn slotted_store_is_plain(cls: &Class) -> bool {
    cls.mro.iter().all(|c| {
        c.flags.get() & (CLS_DATA_DESCR | CLS_SETATTR) == 0
            && (!c.builtin || c.kind == TypeKind::Object)
    })
}

/// Whether `STORE_ATTR` of `name` into `inst` is a plain store into the instance dict, the
/// case `set_attr` handles by itself: Some(whether the class has `__slots__`) when it is. A
/// plain instance (not an exception, not of `object` itself) whose class and MRO have no data
/// descriptor and no `__setattr__`, a name that is neither forbidden nor `__class__`
/// (`obj.__class__ = v` is `set_class`); with `__slots__`, a name the slots allow and no class
/// on the MRO that may hold a descriptor or a `__setattr__` (see `slotted_store_is_plain`).
/// Pure: it may be tried before the instruction is charged.
#[inline(always)]
fn store_attr_plan(inst: &Instance, name: &str) -> Option<bool> {
    if inst.exc.is_some() {
        return None;
    }
    let cls = inst.class.borrow();
    if (cls.builtin && cls.kind == TypeKind::Object)
        || cls.eff_flags() & (CLS_DATA_DESCR | CLS_SETATTR) != 0
        || crate::attr::is_forbidden(name)
        || name == "__class__"
    {
        return None;
    }
    match cls.slots {
        None => Some(false),
        Some(_) => {
            (crate::attr::slots_allow(&cls, name) && slotted_store_is_plain(&cls)).then_some(true)
        }
    }
}

/// The store [`store_attr_plan`] approved, of `v` into `inst` for the `STORE_ATTR` at
/// instruction `at` of `code` (name `code.names[i]`), as `set_attr` / `raw_setattr` make it:
/// with `__slots__`, the memory check `raw_setattr` makes on every store; then an existing key
/// is overwritten in place (found through the slot this instruction last wrote, a hint checked
/// against the key) or, for a new attribute, after `check_mem(64)` when there are no
/// `__slots__` (checked above otherwise), the key is appended. The old value is dropped here.
#[inline(always)]
fn store_attr_do(
    heap_limit: usize,
    inst: &Instance,
    slotted: bool,
    code: &Code,
    at: usize,
    i: u32,
    v: Value,
) -> PyResult<()> {
    if slotted && heap::used().saturating_add(64) > heap_limit {
        return Err(Flow::Abort(Abort::Memory));
    }
    let name = &code.names[i as usize];
    let h = code.name_hashes[i as usize];
    let cell = &code.caches[at];
    let c = cell.get();
    let mut d = inst.dict.d.borrow_mut();
    let slot = match d.slot(c.slot as usize) {
        Some(e) if c.depth == 1 && e.hash == h && name_key_eq(&e.key, name) => {
            Some(c.slot as usize)
        }
        _ => d.find_str_h(name, h),
    };
    if let Some(slot) = slot {
        cell.set(crate::bytecode::InlineCache {
            vers: [0; 3],
            slot: slot as u32,
            depth: 1,
            ..Default::default()
        });
        let old = d.slot_value_mut(slot).map(|x| std::mem::replace(x, v));
        drop(d);
        drop(old);
        return Ok(());
    }
    if !slotted && heap::used().saturating_add(64) > heap_limit {
        return Err(Flow::Abort(Abort::Memory));
    }
    d.push(h, Value::str(&**name), v);
    Ok(())
}

/// What `COMPARE_OP op` computes for `a op b`, and the surcharge it makes after its own
/// cost, when its fast path gives it without an error: `b` is None and `op` is `is` /
/// `is not`; both are ints and `op` an order or equality comparison; both are strs and `op`
/// is `==` / `!=` (surcharge: 1 per 16 bytes of `a`). None otherwise.
#[inline(always)]
fn const_compare(a: &Value, b: &Value, op: crate::bytecode::CmpOp) -> Option<(bool, u64)> {
    use crate::bytecode::CmpOp;
    match (a, b) {
        (_, Value::None) => match op {
            CmpOp::Is => Some((a.is_none(), 0)),
            CmpOp::IsNot => Some((!a.is_none(), 0)),
            _ => None,
        },
        (Value::Int(x), Value::Int(y)) => match op {
            CmpOp::Lt => Some((x < y, 0)),
            CmpOp::Le => Some((x <= y, 0)),
            CmpOp::Gt => Some((x > y, 0)),
            CmpOp::Ge => Some((x >= y, 0)),
            CmpOp::Eq => Some((x == y, 0)),
            CmpOp::Ne => Some((x != y, 0)),
            _ => None,
        },
        (Value::Str(x), Value::Str(y)) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            let e = Rc::ptr_eq(x, y) || x.s == y.s;
            Some((e == (op == CmpOp::Eq), x.s.len() as u64 / 16))
        }
        _ => None,
    }
}

/// The result of the class attribute lookup recorded in `w` (a way of an inline cache) for a
/// lookup on `cls`, when every dict it consulted (the class, then its MRO) still has the
/// version it had: Some(the value, or None when the name is absent from the class and its
/// whole MRO), else None.
#[inline(always)]
fn way_lookup(cls: &Rc<Class>, w: &crate::bytecode::ClassWay) -> Option<Option<Value>> {
    if w.depth == 0 || cls.dict.borrow().version() != w.vers[0] {
        return None;
    }
    let k = w.depth as usize - 1;
    if k > cls.mro.len() || k >= w.vers.len() {
        return None;
    }
    for j in 1..=k {
        if cls.mro[j - 1].dict.borrow().version() != w.vers[j] {
            return None;
        }
    }
    if w.miss {
        return (cls.mro.len() == k).then_some(None);
    }
    let d = if k == 0 { cls } else { &cls.mro[k - 1] }.dict.borrow();
    d.slot(w.slot as usize).map(|e| Some(e.value.clone_fast()))
}

/// True when the dict key `k` is the str `name`: what [`crate::dict::str_key_eq`] computes,
/// always inlined, for confirming an inline-cache hint on the attribute fast paths (the hash
/// already matched). Compares 8-byte words, then the remaining bytes.
#[inline(always)]
fn name_key_eq(k: &Value, name: &str) -> bool {
    let Value::Str(s) = k else {
        return false;
    };
    let (a, b) = (s.s.as_bytes(), name.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    crate::dict::words_eq(a, b)
}

/// Extend fast locals with unbound (`None`) slots up to `n` (what `resize(n, None)` does,
/// inline: calls add only the few non-parameter locals).
#[inline(always)]
fn pad_locals(locals: &mut Vec<Option<Value>>, n: usize) {
    while locals.len() < n {
        locals.push(None);
    }
}

/// True when calling `code` with `argc` positional arguments binds them straight to the
/// first `argc` locals (what `bind_args` does on its fast path) and runs a plain frame.
#[inline]
fn simple_positional(code: &Code, argc: u32) -> bool {
    code.kind != CodeKind::Generator
        && !code.varargs
        && !code.varkw
        && code.kwonlycount == 0
        && code.argcount == argc
}

/// The int / float arithmetic `BinaryOp` (`inplace` false) and `InplaceOp` (true) compute
/// without the generic dispatch, or None to take the generic path. Int operands: see
/// [`crate::ops::int_fast`]; float or mixed operands: see [`float_fast`]. Only ever Some for
/// two immediate operands.
#[inline(always)]
fn arith_fast(a: &Value, b: &Value, op: crate::bytecode::BinOp, _inplace: bool) -> Option<Value> {
    match (a, b) {
        // In place or not, two ints go through `int_binop`'s i64 path (see `int_fast`).
        (Value::Int(x), Value::Int(y)) => match op {
            // the common cases of `int_fast`, inline
            crate::bytecode::BinOp::Add => x.checked_add(*y).map(Value::Int),
            crate::bytecode::BinOp::Sub => x.checked_sub(*y).map(Value::Int),
            crate::bytecode::BinOp::Mul => x.checked_mul(*y).map(Value::Int),
            _ => crate::ops::int_fast(*x, *y, op).map(Value::Int),
        },
        (Value::Float(x), Value::Float(y)) => float_fast(*x, *y, op),
        (Value::Float(x), Value::Int(y)) => float_fast(*x, crate::float::F64::from_i64(*y), op),
        (Value::Int(x), Value::Float(y)) => float_fast(crate::float::F64::from_i64(*x), *y, op),
        _ => None,
    }
}

/// Float `+ - *` without the generic dispatch (division and the rest need Python errors).
#[inline(always)]
fn float_fast(
    x: crate::float::F64,
    y: crate::float::F64,
    op: crate::bytecode::BinOp,
) -> Option<Value> {
    use crate::bytecode::BinOp;
    match op {
        BinOp::Add => Some(Value::Float(x.add(y))),
        BinOp::Sub => Some(Value::Float(x.sub(y))),
        BinOp::Mul => Some(Value::Float(x.mul(y))),
        BinOp::TrueDiv if !y.is_zero() => Some(Value::Float(x.div(y))),
        // What `builtin_binop` computes for float operands; an error (zero division, overflow,
        // complex result) goes the generic way, which computes it again and raises it.
        BinOp::Pow => x.py_pow(y).ok().map(Value::Float),
        BinOp::FloorDiv => x.py_floordiv(y).ok().map(Value::Float),
        BinOp::Mod => x.py_rem(y).ok().map(Value::Float),
        _ => None,
    }
}

/// Float `< <= > >= ==` without the generic dispatch: IEEE comparisons (false with a NaN),
/// which is what `compare` computes for two floats, or a float and an int of magnitude at most
/// 2^53 (converted exactly).
#[inline(always)]
fn float_cmp_fast(
    x: crate::float::F64,
    y: crate::float::F64,
    op: crate::bytecode::CmpOp,
) -> Option<bool> {
    use crate::bytecode::CmpOp;
    match op {
        CmpOp::Lt => Some(x.lt(y)),
        CmpOp::Le => Some(x.le(y)),
        CmpOp::Gt => Some(x.gt(y)),
        CmpOp::Ge => Some(x.ge(y)),
        CmpOp::Eq => Some(x.eq(y)),
        _ => None,
    }
}

fn unreachable_none() -> Value {
    Value::None
}
