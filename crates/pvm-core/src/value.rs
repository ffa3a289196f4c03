//! Runtime values and heap objects.
//!
//! `Value` is a small enum: immediates (None, bool, small int) are stored inline; everything else
//! is a reference-counted heap object. Mutable containers use `RefCell`. There is no cycle
//! collector: see [`crate::heap`] for how an invocation releases cycles when it ends.

use crate::bytecode::Code;
use crate::dict::Dict;
use crate::heap::Acct;
use num_bigint::BigInt;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A Python value.
///
/// Laid out as a tag byte followed by an 8-byte-aligned payload (`repr(C, u8)`), so that every
/// payload (including a bool's) is one aligned word: the interpreter moves values between its
/// stack, locals and containers whole, and a payload at an odd offset would make those moves
/// piecemeal. The layout is not observable from Python.
#[derive(Clone, Debug, Default)]
#[repr(C, u8)]
pub enum Value {
    /// `None`
    #[default]
    None,
    /// `True` / `False`
    Bool(bool),
    /// int fitting in i64 (always used when the value fits).
    Int(i64),
    /// int outside i64 (never holds a value that fits in i64), at most 4096 bits.
    BigInt(Rc<BigInt>),
    /// float (soft float bits).
    Float(crate::float::F64),
    /// str
    Str(Rc<PyStr>),
    /// bytes
    Bytes(Rc<PyBytes>),
    /// bytearray
    ByteArray(Rc<PyByteArray>),
    /// list
    List(Rc<PyList>),
    /// tuple
    Tuple(Rc<PyTuple>),
    /// dict
    Dict(Rc<PyDict>),
    /// set
    Set(Rc<PySet>),
    /// frozenset
    FrozenSet(Rc<PySet>),
    /// range
    Range(Rc<PyRange>),
    /// slice
    Slice(Rc<PySlice>),
    /// Python function.
    Function(Rc<Function>),
    /// Bound method (function + self).
    BoundMethod(Rc<BoundMethod>),
    /// Built-in function (possibly bound to a receiver).
    Builtin(Rc<Builtin>),
    /// Class / type object.
    Class(Rc<Class>),
    /// Instance of a user class (including exceptions).
    Instance(Rc<Instance>),
    /// Generator.
    Generator(Rc<Generator>),
    /// Built-in iterator.
    Iter(Rc<PyIter>),
    /// Module.
    Module(Rc<Module>),
    /// Closure cell.
    Cell(Rc<PyCell>),
    /// Code object (internal; not reachable from Python code).
    Code(Rc<Code>),
    /// property / classmethod / staticmethod / super wrappers.
    Wrapper(Rc<Wrapper>),
    /// `NotImplemented`
    NotImplemented,
    /// `Ellipsis`
    Ellipsis,
}

/// Immutable str with cached char count.
#[derive(Debug)]
pub struct PyStr {
    /// UTF-8 text.
    pub s: StrBuf,
    /// Number of code points.
    pub nchars: usize,
    /// Cached hash (0 = not computed).
    pub hash: Cell<u64>,
    #[allow(dead_code)]
    pub(crate) acct: Acct,
}

impl PyStr {
    /// Build (accounting its size).
    pub fn new(s: impl Into<StrBuf>) -> Self {
        let s: StrBuf = s.into();
        let nchars = if s.is_ascii() {
            s.len()
        } else {
            s.chars().count()
        };
        let acct = Acct::new(48 + s.len());
        PyStr {
            s,
            nchars,
            hash: Cell::new(0),
            acct,
        }
    }
    /// True when every char is one byte.
    #[inline]
    pub fn is_ascii(&self) -> bool {
        self.nchars == self.s.len()
    }
}

/// Storage of a str's text: up to [`StrBuf::INLINE`] bytes are kept inline (no separate
/// allocation, which matters for the one-character strings of str iteration and indexing),
/// longer text in a box. Dereferences to `str`; which representation holds the text is not
/// observable (equality, hashing and ordering are those of the text).
#[derive(Clone)]
pub struct StrBuf(StrRepr);

#[derive(Clone)]
enum StrRepr {
    Inline { len: u8, buf: [u8; StrBuf::INLINE] },
    Heap(Box<str>),
}

impl StrBuf {
    /// Longest text stored inline, in bytes.
    pub const INLINE: usize = 22;

    /// Takes `b`'s text (kept inline when it is short enough).
    #[inline]
    pub fn from_box(b: Box<str>) -> StrBuf {
        if b.len() <= Self::INLINE {
            Self::inline(&b)
        } else {
            StrBuf(StrRepr::Heap(b))
        }
    }

    #[inline]
    fn inline(t: &str) -> StrBuf {
        let mut buf = [0u8; Self::INLINE];
        buf[..t.len()].copy_from_slice(t.as_bytes());
        StrBuf(StrRepr::Inline {
            len: t.len() as u8,
            buf,
        })
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            StrRepr::Inline { len, buf } => {
                let bytes = &buf[..*len as usize];
                // SAFETY: an inline buffer is only ever filled (in `StrBuf::inline`, the sole
                // constructor of `StrRepr::Inline`) by copying a whole `&str` of exactly `len`
                // bytes, and is never mutated afterwards, so `bytes` is valid UTF-8.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            StrRepr::Heap(b) => b,
        }
    }
}

impl From<&str> for StrBuf {
    #[inline]
    fn from(t: &str) -> StrBuf {
        if t.len() <= Self::INLINE {
            Self::inline(t)
        } else {
            StrBuf(StrRepr::Heap(t.into()))
        }
    }
}

impl From<Box<str>> for StrBuf {
    #[inline]
    fn from(b: Box<str>) -> StrBuf {
        StrBuf::from_box(b)
    }
}

impl From<String> for StrBuf {
    #[inline]
    fn from(b: String) -> StrBuf {
        if b.len() <= Self::INLINE {
            Self::inline(&b)
        } else {
            StrBuf(StrRepr::Heap(b.into_boxed_str()))
        }
    }
}

impl From<&String> for StrBuf {
    #[inline]
    fn from(b: &String) -> StrBuf {
        StrBuf::from(b.as_str())
    }
}

impl From<&Box<str>> for StrBuf {
    #[inline]
    fn from(b: &Box<str>) -> StrBuf {
        StrBuf::from(&**b)
    }
}

impl From<&Rc<str>> for StrBuf {
    #[inline]
    fn from(b: &Rc<str>) -> StrBuf {
        StrBuf::from(&**b)
    }
}

impl From<Rc<str>> for StrBuf {
    #[inline]
    fn from(b: Rc<str>) -> StrBuf {
        StrBuf::from(&*b)
    }
}

impl From<std::borrow::Cow<'_, str>> for StrBuf {
    #[inline]
    fn from(b: std::borrow::Cow<'_, str>) -> StrBuf {
        match b {
            std::borrow::Cow::Borrowed(t) => StrBuf::from(t),
            std::borrow::Cow::Owned(t) => StrBuf::from(t),
        }
    }
}

impl From<StrBuf> for Box<str> {
    fn from(b: StrBuf) -> Box<str> {
        match b.0 {
            StrRepr::Heap(h) => h,
            StrRepr::Inline { .. } => b.as_str().into(),
        }
    }
}

impl std::ops::Deref for StrBuf {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for StrBuf {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for StrBuf {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for StrBuf {
    /// Equality of the texts. A text of at most [`StrBuf::INLINE`] bytes is always stored
    /// inline with the unused bytes zero (every constructor goes through `StrBuf::inline` for
    /// such texts) and a longer one always boxed, so two inline buffers are equal exactly when
    /// their lengths and whole buffers are, and an inline text never equals a boxed one.
    #[inline]
    fn eq(&self, o: &StrBuf) -> bool {
        match (&self.0, &o.0) {
            (StrRepr::Inline { len: a, buf: x }, StrRepr::Inline { len: b, buf: y }) => {
                a == b && x == y
            }
            (StrRepr::Heap(x), StrRepr::Heap(y)) => x == y,
            _ => false,
        }
    }
}
impl Eq for StrBuf {}

impl PartialEq<str> for StrBuf {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}

impl std::fmt::Debug for StrBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for StrBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// bytes
#[derive(Debug)]
pub struct PyBytes {
    /// Contents.
    pub b: Box<[u8]>,
    #[allow(dead_code)]
    pub(crate) acct: Acct,
}
impl PyBytes {
    /// Build.
    pub fn new(b: impl Into<Box<[u8]>>) -> Self {
        let b = b.into();
        let acct = Acct::new(40 + b.len());
        PyBytes { b, acct }
    }
}

/// bytearray
#[derive(Debug)]
pub struct PyByteArray {
    /// Contents.
    pub b: RefCell<Vec<u8>>,
    #[allow(dead_code)]
    pub(crate) acct: Acct,
}

/// list
#[derive(Debug)]
pub struct PyList {
    /// Items.
    pub v: RefCell<Vec<Value>>,
    #[allow(dead_code)]
    pub(crate) acct: Acct,
}
impl PyList {
    /// Build.
    pub fn new(v: Vec<Value>) -> Self {
        let acct = Acct::new(40 + 16 * v.capacity());
        PyList {
            v: RefCell::new(v),
            acct,
        }
    }
}

/// tuple
#[derive(Debug)]
pub struct PyTuple {
    /// Items.
    pub v: Box<[Value]>,
    #[allow(dead_code)]
    pub(crate) acct: Acct,
}
impl PyTuple {
    /// Build.
    pub fn new(v: impl Into<Box<[Value]>>) -> Self {
        let v = v.into();
        let acct = Acct::new(32 + 16 * v.len());
        PyTuple { v, acct }
    }
}

/// dict
#[derive(Debug)]
pub struct PyDict {
    /// Entries.
    pub d: RefCell<Dict>,
}

/// set / frozenset (insertion ordered).
#[derive(Debug)]
pub struct PySet {
    /// Entries (values are None).
    pub d: RefCell<Dict>,
}

/// range
///
/// Invariant: either `big` is `None` and `start`/`stop`/`step` are the bounds, chosen only when
/// [`PyRange::fits_i64`] holds (every quantity the fast paths derive fits in i64), or `big`
/// holds the bounds and the i64 fields are `0, 0, 1` (see [`crate::bigrange`]).
#[derive(Debug, Clone)]
pub struct PyRange {
    /// start
    pub start: i64,
    /// stop
    pub stop: i64,
    /// step (non-zero)
    pub step: i64,
    /// Bounds beyond the i64 representation (`None` for the fast representation).
    pub big: Option<Rc<crate::bigrange::BigRange>>,
}
impl PyRange {
    /// Number of elements of the i64 representation (0 for a big range: check `big` first).
    pub fn len(&self) -> i64 {
        let (lo, hi, st) = (self.start as i128, self.stop as i128, self.step as i128);
        let n = if st > 0 {
            if lo < hi { (hi - lo - 1) / st + 1 } else { 0 }
        } else if lo > hi {
            (lo - hi - 1) / (-st) + 1
        } else {
            0
        };
        n as i64
    }
    /// Is empty (either representation).
    pub fn is_empty(&self) -> bool {
        match &self.big {
            None => self.len() == 0,
            Some(b) => num_traits::Zero::is_zero(&b.len),
        }
    }
}

/// slice
#[derive(Debug)]
pub struct PySlice {
    /// start
    pub start: Value,
    /// stop
    pub stop: Value,
    /// step
    pub step: Value,
}

/// A Python function.
#[derive(Debug)]
pub struct Function {
    /// Code.
    pub code: Rc<Code>,
    /// Module globals.
    pub globals: Rc<Module>,
    /// Positional defaults (aligned to the last positional params); replaced wholesale by
    /// assigning `__defaults__`.
    pub defaults: RefCell<Vec<Value>>,
    /// Keyword-only defaults; replaced wholesale by assigning `__kwdefaults__`.
    pub kwdefaults: RefCell<Vec<(Rc<str>, Value)>>,
    /// Closure cells (free variables).
    pub closure: Vec<Rc<PyCell>>,
    /// Class in whose body this function was defined (for zero-arg `super()`).
    pub class: RefCell<Option<Rc<Class>>>,
    /// Function attributes (`__dict__`), name overrides.
    pub dict: RefCell<Option<Dict>>,
    /// `__annotations__`: `None` when unset (reading it then stores a new empty dict), the
    /// `(name, value, …)` tuple evaluated by `def` until first read, or the dict.
    pub annotations: RefCell<Value>,
    /// `__name__`
    pub name: RefCell<Rc<str>>,
    /// Unique, deterministic object id.
    pub id: u64,
}

/// A bound method.
#[derive(Debug)]
pub struct BoundMethod {
    /// Receiver.
    pub recv: Value,
    /// Function (any callable).
    pub func: Value,
}

/// Which built-in a [`Builtin`] is.
#[derive(Debug, Clone)]
pub enum BuiltinKind {
    /// A global builtin function by name.
    Func(&'static str),
    /// A method of a built-in type bound to `recv`.
    Method(&'static str),
    /// A function of a native module.
    ModuleFunc(&'static str, &'static str),
}

/// A built-in callable.
#[derive(Debug)]
pub struct Builtin {
    /// What it is.
    pub kind: BuiltinKind,
    /// Receiver for bound built-in methods (None otherwise).
    pub recv: Option<Value>,
}

/// Built-in type identity for classes implemented natively.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// object
    Object,
    /// type
    Type,
    /// NoneType
    NoneType,
    /// bool
    Bool,
    /// int
    Int,
    /// float
    Float,
    /// str
    Str,
    /// bytes
    Bytes,
    /// bytearray
    ByteArray,
    /// list
    List,
    /// tuple
    Tuple,
    /// dict
    Dict,
    /// set
    Set,
    /// frozenset
    FrozenSet,
    /// range
    Range,
    /// slice
    Slice,
    /// function
    Function,
    /// builtin_function_or_method
    BuiltinFunction,
    /// method
    Method,
    /// generator
    Generator,
    /// module
    Module,
    /// property
    Property,
    /// classmethod
    ClassMethod,
    /// staticmethod
    StaticMethod,
    /// super
    Super,
    /// iterator types
    Iterator,
    /// NotImplementedType
    NotImplementedType,
    /// ellipsis
    EllipsisType,
    /// cell
    Cell,
    /// `types.UnionType`: the PEP 604 union objects `X | Y` (see [`Wrapper::Union`]).
    UnionType,
    /// BaseException and subclasses defined natively.
    Exception,
}

/// A class object.
#[derive(Debug)]
pub struct Class {
    /// `__name__`
    pub name: Rc<str>,
    /// `__qualname__`
    pub qualname: Rc<str>,
    /// Direct bases.
    pub bases: Vec<Rc<Class>>,
    /// Method resolution order, excluding itself.
    pub mro: Vec<Rc<Class>>,
    /// Class namespace.
    pub dict: RefCell<Dict>,
    /// Native type this class is, or the nearest native base.
    pub kind: TypeKind,
    /// Whether this class object is itself a built-in type.
    pub builtin: bool,
    /// `__slots__` names when declared (restricts instance attributes).
    pub slots: Option<Vec<Rc<str>>>,
    /// Unique id.
    pub id: u64,
    /// Cached facts about the MRO: bit 0 = a user `__getattribute__`, bit 1 = data
    /// descriptors (properties / objects with `__set__`) may exist, bit 2 = a user `__setattr__`.
    /// Only ever gains bits (a removed descriptor just costs the fast paths). May miss bits a
    /// base class gained after this class was created; read it through [`Class::eff_flags`],
    /// which folds the MRO's flags back in whenever [`class_flags_epoch`] moved.
    pub flags: Cell<u8>,
    /// The [`class_flags_epoch`] at which `flags` last included every MRO class's flags.
    pub flags_epoch: Cell<u64>,
}

thread_local! {
    /// Bumped whenever some class's flags gain a bit; only ever increases on this thread.
    static CLASS_FLAGS_EPOCH: Cell<u64> = const { Cell::new(1) };
}

/// Current class-flags epoch of this thread (never 0, so a class whose `flags_epoch` is 0 is
/// always refreshed on first use).
#[inline(always)]
pub fn class_flags_epoch() -> u64 {
    CLASS_FLAGS_EPOCH.with(Cell::get)
}

impl Class {
    /// Add `extra` to this class's own flags. When that sets a new bit, subclasses' effective
    /// flags may be stale, so the thread's class-flags epoch moves on.
    pub fn add_flags(&self, extra: u8) {
        let old = self.flags.get();
        if old | extra != old {
            self.flags.set(old | extra);
            CLASS_FLAGS_EPOCH.with(|e| e.set(e.get() + 1));
        }
    }

    /// Flags of this class combined with those of every class on its MRO, as of now (see
    /// [`Class::flags`]). Costs one epoch compare unless some class gained flags since the
    /// last call; then folds the MRO's flags into `flags` (keeping them a superset of before).
    #[inline(always)]
    pub fn eff_flags(&self) -> u8 {
        let e = class_flags_epoch();
        if self.flags_epoch.get() == e {
            self.flags.get()
        } else {
            self.refresh_flags(e)
        }
    }

    #[cold]
    #[inline(never)]
    fn refresh_flags(&self, e: u64) -> u8 {
        let fl = self
            .mro
            .iter()
            .fold(self.flags.get(), |a, c| a | c.flags.get());
        self.flags.set(fl);
        self.flags_epoch.set(e);
        fl
    }
}

/// Class flag: user `__getattribute__` somewhere in the MRO.
pub const CLS_GETATTRIBUTE: u8 = 1;
/// Class flag: data descriptors may exist in the MRO.
pub const CLS_DATA_DESCR: u8 = 2;
/// Class flag: user `__setattr__` somewhere in the MRO.
pub const CLS_SETATTR: u8 = 4;

/// Extra state of exception instances.
#[derive(Debug, Default)]
pub struct ExcState {
    /// Traceback lines, innermost last.
    pub traceback: Vec<String>,
    /// `__cause__`
    pub cause: Option<Value>,
    /// `__context__`
    pub context: Option<Value>,
    /// `__suppress_context__`
    pub suppress_context: bool,
}

/// Instance of a user class (also exceptions, which carry [`ExcState`]).
#[derive(Debug)]
pub struct Instance {
    /// Class.
    pub class: RefCell<Rc<Class>>,
    /// Attributes (shared with `obj.__dict__`, so mutations through it are visible).
    pub dict: Rc<PyDict>,
    /// Exception state for BaseException instances.
    pub exc: Option<RefCell<ExcState>>,
    /// Native payload for subclasses of built-in containers (list, dict, int …).
    pub native: RefCell<Option<Value>>,
    /// Unique, deterministic id (hash of objects without `__hash__`).
    pub id: u64,
}

/// Generator state.
#[derive(Debug)]
pub struct Generator {
    /// Suspended frame; None while running or when finished.
    pub frame: RefCell<Option<Box<crate::vm::Frame>>>,
    /// Running flag.
    pub running: Cell<bool>,
    /// Finished flag.
    pub finished: Cell<bool>,
    /// Name.
    pub name: Rc<str>,
    /// Where the suspended frame goes when the last reference is dropped, so that the VM
    /// that created the generator closes it (CPython runs `close()` on deallocation). Empty
    /// for generators that must never be finalized again.
    pub finalize: std::rc::Weak<crate::vm::FinalizeQueue>,
}

impl Drop for Generator {
    /// Hand a suspended frame with live handler blocks (`try`/`with`) to the creating VM's
    /// [`crate::vm::FinalizeQueue`]; frames without handlers are dropped here, as closing
    /// them could not run any code.
    fn drop(&mut self) {
        let Some(frame) = self.frame.get_mut().take() else {
            return;
        };
        if frame.ip == 0 || frame.blocks.is_empty() {
            return;
        }
        if let Some(q) = self.finalize.upgrade() {
            q.push(frame, self.name.clone());
        }
    }
}

/// Built-in iterator state.
#[derive(Debug)]
pub struct PyIter {
    /// State.
    pub st: RefCell<IterState>,
}

/// Kinds of built-in iterators.
#[derive(Debug)]
pub enum IterState {
    /// Over a list (live view).
    List(Rc<PyList>, usize),
    /// Over a tuple.
    Tuple(Rc<PyTuple>, usize),
    /// Over a str (byte offset).
    Str(Rc<PyStr>, usize),
    /// Over bytes.
    Bytes(Rc<PyBytes>, usize),
    /// Over a range.
    Range(i64, i64, i64),
    /// Over a range beyond i64 bounds (`longrange_iterator`).
    BigRange(Box<crate::bigrange::BigIter>),
    /// Over dict keys / values / items (index into entries, expected len).
    DictKeys(Rc<PyDict>, usize, usize),
    /// Dict values.
    DictValues(Rc<PyDict>, usize, usize),
    /// Dict items.
    DictItems(Rc<PyDict>, usize, usize),
    /// Over a set.
    Set(Rc<PySet>, usize, usize),
    /// Over a materialized vector.
    Vec(Vec<Value>, usize),
    /// enumerate(it, start)
    Enumerate(Value, Value),
    /// zip(*its)
    Zip(Vec<Value>, bool),
    /// map(f, *its)
    Map(Value, Vec<Value>),
    /// filter(f, it)
    Filter(Value, Value),
    /// reversed list
    RevList(Rc<PyList>, usize),
    /// iter(callable, sentinel)
    Callable(Value, Value),
    /// Sequence protocol via __getitem__.
    SeqGetItem(Value, i64),
    /// Exhausted.
    Done,
}

/// Module object.
#[derive(Debug)]
pub struct Module {
    /// Name.
    pub name: Rc<str>,
    /// Globals.
    pub dict: RefCell<Dict>,
}

/// Closure cell.
#[derive(Debug, Default)]
pub struct PyCell {
    /// Contents (None variant of Option = empty).
    pub v: RefCell<Option<Value>>,
}

/// property / classmethod / staticmethod / super objects.
#[derive(Debug)]
pub enum Wrapper {
    /// property(fget, fset, fdel, doc)
    Property {
        /// getter
        fget: Value,
        /// setter
        fset: Value,
        /// deleter
        fdel: Value,
    },
    /// classmethod(f)
    ClassMethod(Value),
    /// staticmethod(f)
    StaticMethod(Value),
    /// super(cls, obj)
    Super {
        /// class after which to search
        cls: Rc<Class>,
        /// receiver
        obj: Value,
    },
    /// A PEP 604 union `X | Y | ...` (`types.UnionType`). Invariants: at least two members,
    /// each a class (`None` is stored as `NoneType`), no class twice (by identity), in order
    /// of first appearance, nested unions flattened.
    Union(Box<[Value]>),
}

impl Value {
    /// True for the variants that hold no heap reference (int, float, bool, None): dropping
    /// them does nothing.
    #[inline(always)]
    pub fn is_immediate(&self) -> bool {
        matches!(
            self,
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::None
        )
    }

    /// Drops `v`; an immediate is discarded inline instead of through the generic destructor
    /// (it owns nothing, so forgetting it is the same as dropping it).
    #[inline(always)]
    pub fn drop_fast(v: Value) {
        if v.is_immediate() {
            std::mem::forget(v);
        } else {
            drop(v);
        }
    }

    /// Same as `clone`, with the immediate variants (int, float, bool, None) copied inline
    /// instead of through the generic clone; used on the interpreter's hot paths.
    #[inline(always)]
    pub fn clone_fast(&self) -> Value {
        if self.is_immediate() {
            // SAFETY: the immediate variants own no heap reference and have no drop glue, so
            // a bitwise copy is a clone. Copying the value whole (rather than rebuilding it
            // from its tag and payload) lets the copy be one wide move, which later wide reads
            // of the same slot can be forwarded from.
            return unsafe { std::ptr::read(self) };
        }
        match self {
            // The common reference variants are cloned inline too: the out-of-line clone
            // writes its result through memory, which the caller then reloads whole.
            Value::Str(x) => Value::Str(Rc::clone(x)),
            Value::List(x) => Value::List(Rc::clone(x)),
            Value::Tuple(x) => Value::Tuple(Rc::clone(x)),
            Value::Dict(x) => Value::Dict(Rc::clone(x)),
            Value::Instance(x) => Value::Instance(Rc::clone(x)),
            Value::Function(x) => Value::Function(Rc::clone(x)),
            Value::Class(x) => Value::Class(Rc::clone(x)),
            _ => self.clone(),
        }
    }
    /// Make a str value.
    pub fn str(s: impl Into<StrBuf>) -> Value {
        Value::Str(Rc::new(PyStr::new(s)))
    }
    /// Make a list value.
    pub fn list(v: Vec<Value>) -> Value {
        let l = Rc::new(PyList::new(v));
        crate::heap::register(crate::heap::Tracked::List(Rc::downgrade(&l)));
        Value::List(l)
    }
    /// Make a tuple value.
    pub fn tuple(v: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(PyTuple::new(v)))
    }
    /// Make a dict value.
    pub fn dict(d: Dict) -> Value {
        let d = Rc::new(PyDict { d: RefCell::new(d) });
        crate::heap::register(crate::heap::Tracked::Dict(Rc::downgrade(&d)));
        Value::Dict(d)
    }
    /// Make bytes.
    pub fn bytes(b: Vec<u8>) -> Value {
        Value::Bytes(Rc::new(PyBytes::new(b)))
    }
    /// Is this None?
    #[inline]
    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }
}
