//! The PVM bytecode: a compact instruction enum with `u32` operands, per code object.

use crate::value::Value;
use std::rc::Rc;

/// Binary operators (also used for in-place variants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `@`
    MatMul,
    /// `/`
    TrueDiv,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `**`
    Pow,
    /// `<<`
    LShift,
    /// `>>`
    RShift,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `+x`
    Pos,
    /// `~x`
    Invert,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `is`
    Is,
    /// `is not`
    IsNot,
    /// `in`
    In,
    /// `not in`
    NotIn,
}

/// One instruction. Jump targets are instruction indices in the same code object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// Do nothing.
    Nop,
    /// Discard TOS.
    Pop,
    /// Duplicate TOS.
    Dup,
    /// Duplicate the top two values.
    Dup2,
    /// Swap the top two values.
    Rot2,
    /// Lift the second and third values up; TOS goes to third.
    Rot3,
    /// TOS goes to fourth position.
    Rot4,
    /// Push a copy of the value `n` below TOS (0 = TOS).
    CopyN(u32),
    /// Push constant.
    LoadConst(u32),
    /// Push fast local (UnboundLocalError when unset).
    LoadFast(u32),
    /// Store fast local.
    StoreFast(u32),
    /// Unset fast local.
    DeleteFast(u32),
    /// Push the contents of cell slot.
    LoadDeref(u32),
    /// Store into cell slot.
    StoreDeref(u32),
    /// Push the cell object itself (for building closures).
    LoadCell(u32),
    /// Global then builtin lookup.
    LoadGlobal(u32),
    /// Store global.
    StoreGlobal(u32),
    /// Delete global.
    DeleteGlobal(u32),
    /// Class-body namespace, then globals, then builtins.
    LoadName(u32),
    /// Store into class-body namespace.
    StoreName(u32),
    /// Delete from class-body namespace.
    DeleteName(u32),
    /// Push the class-body namespace dict.
    LoadLocalsDict,
    /// Create `__annotations__` in the namespace if missing (class bodies / module).
    SetupAnnotations,
    /// `TOS.name`
    LoadAttr(u32),
    /// `TOS.name = TOS1`
    StoreAttr(u32),
    /// `del TOS.name`
    DeleteAttr(u32),
    /// `TOS1[TOS]`
    Subscr,
    /// `TOS1[TOS] = TOS2`
    StoreSubscr,
    /// `del TOS1[TOS]`
    DeleteSubscr,
    /// Binary operator.
    BinaryOp(BinOp),
    /// In-place operator (`+=` …).
    InplaceOp(BinOp),
    /// Unary operator.
    Unary(UnOp),
    /// `not TOS`
    Not,
    /// Comparison.
    Compare(CmpOp),
    /// Unconditional jump.
    Jump(u32),
    /// Pop; jump when falsy.
    PopJumpIfFalse(u32),
    /// Pop; jump when truthy.
    PopJumpIfTrue(u32),
    /// Jump (keeping TOS) when falsy, else pop.
    JumpIfFalseOrPop(u32),
    /// Jump (keeping TOS) when truthy, else pop.
    JumpIfTrueOrPop(u32),
    /// Replace TOS by `iter(TOS)`.
    GetIter,
    /// Push next item of the iterator at TOS, or pop it and jump when exhausted.
    ForIter(u32),
    /// Build a list from n values.
    BuildList(u32),
    /// Build a tuple from n values.
    BuildTuple(u32),
    /// Build a set from n values.
    BuildSet(u32),
    /// Build a dict from n key/value pairs.
    BuildMap(u32),
    /// Concatenate n strings.
    BuildString(u32),
    /// Build a slice from 2 or 3 values.
    BuildSlice(u32),
    /// Append TOS to the list n deep (after popping TOS).
    ListAppend(u32),
    /// Add TOS to the set n deep.
    SetAdd(u32),
    /// Put TOS1: TOS into the dict n deep.
    MapAdd(u32),
    /// Extend the list n deep by iterable TOS.
    ListExtend(u32),
    /// Update the set n deep by iterable TOS.
    SetUpdate(u32),
    /// Update the dict n deep with mapping TOS.
    DictUpdate(u32),
    /// Merge mapping TOS into dict n deep, erroring on duplicate keys (call `**`).
    DictMerge(u32),
    /// Convert list at TOS into a tuple.
    ListToTuple,
    /// Unpack TOS into exactly n values.
    UnpackSequence(u32),
    /// Unpack with a starred target: (before, after).
    UnpackEx(u32, u32),
    /// Call with n positional args.
    Call(u32),
    /// Call with n args; TOS is a tuple of keyword names for the last args.
    CallKw(u32),
    /// Call with TOS1 = args tuple, TOS = kwargs dict or None; below is the callable.
    CallEx,
    /// Call method `name` of the object below n args.
    CallMethod(u32, u32),
    /// Call method with keywords (TOS = kw names tuple).
    CallMethodKw(u32, u32),
    /// Zero-argument `super()`.
    LoadSuper,
    /// Make a function from the code constant; flags say which extras are on the stack.
    MakeFunction(u32, u32),
    /// Build a class: stack = [body function, name, bases tuple, kwargs dict]; flags.
    BuildClass(u32),
    /// Return TOS from the frame.
    ReturnValue,
    /// Generator prologue marker (no-op at runtime).
    GenStart,
    /// Yield TOS; push the sent value when resumed.
    Yield,
    /// Delegate to the sub-iterator at TOS1 sending TOS.
    YieldFrom,
    /// Push an exception handler block (handler target) recording the stack depths.
    SetupExcept(u32),
    /// Pop the innermost handler block.
    PopBlock,
    /// Raise: 0 = re-raise current, 1 = raise TOS, 2 = raise TOS1 from TOS.
    Raise(u32),
    /// Re-raise the exception at TOS (end of a finally / unmatched handler).
    Reraise,
    /// Leave an except handler (pop the handled exception).
    PopExcept,
    /// TOS = class(es), TOS1 = exception: pop TOS; jump if the exception does not match.
    JumpIfNotExcMatch(u32),
    /// Enter a context manager: TOS = manager -> [exit, enter_result].
    WithEnter,
    /// Call `__exit__` with the exception at TOS (or None): pushes whether to suppress.
    WithExit,
    /// Format TOS (flags: bit0-1 conversion 0 none,1 str,2 repr,3 ascii; bit2 spec on stack).
    FormatValue(u32),
    /// Import module named by const string; push module.
    Import(u32),
    /// TOS = module; push attribute `name`.
    ImportFrom(u32),
    /// `from m import *`.
    ImportStar,
    /// Pattern matching: class pattern with n positional sub-patterns (keyword names tuple at TOS).
    MatchClass(u32),
    /// Push whether TOS is a mapping.
    MatchMapping,
    /// Push whether TOS is a sequence (arg unused).
    MatchSequence(u32),
    /// TOS = keys tuple, TOS1 = subject: push values tuple or None.
    MatchKeys,
    /// Push len(TOS).
    GetLen,
}

/// What kind of callable a code object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeKind {
    /// Module top level.
    Module,
    /// Ordinary function or lambda.
    Function,
    /// Generator function.
    Generator,
    /// Class body.
    Class,
}

/// Per-instruction inline cache for `LOAD_GLOBAL` and `CALL_METHOD`.
///
/// `depth == 0` means empty. For `LOAD_GLOBAL`: depth 1 = the name lives in the globals dict at
/// `slot` while the globals' [`crate::dict::Dict::version`] is `vers[0]`; depth 2 = it is absent
/// from globals (version `vers[0]`) and lives in builtins (version `vers[1]`) at `slot`. For a
/// method on an instance's class: the name was absent from the first `depth - 1` dicts of the
/// class and its MRO and lives at `slot` of dict number `depth - 1`, with `vers[..depth]` the
/// versions of those dicts. A hit only replaces dictionary probes whose outcome the versions
/// pin down; it never changes charged cycles.
#[derive(Debug, Clone, Copy, Default)]
pub struct InlineCache {
    /// Versions of the dicts consulted, in lookup order.
    pub vers: [u64; 3],
    /// Slot of the found entry in the last dict consulted.
    pub slot: u32,
    /// Number of dicts consulted (0 = empty cache).
    pub depth: u8,
    /// The name was absent from all `depth` dicts, which were the class and its whole MRO.
    pub miss: bool,
    /// `LOAD_ATTR`: slot of the instance dict where the name was last found (a hint that is
    /// checked against the key before use, so it needs no invalidation).
    pub hint: Option<u32>,
    /// Class attribute lookups (method calls, attribute loads on classes with descriptors,
    /// binary dunders): the previous class lookup this instruction recorded, kept when a
    /// lookup on another class replaced it (a second way, for sites that see two classes). Its
    /// facts mean what `vers`/`slot`/`depth`/`miss` mean and are checked the same way.
    pub alt: ClassWay,
}

/// One recorded class attribute lookup of an [`InlineCache`]: the name was absent from the
/// first `depth - 1` dicts of the class and its MRO and lives at `slot` of dict number
/// `depth - 1` (or, when `miss`, is absent from all `depth` dicts, which were the class and
/// its whole MRO), with `vers[..depth]` the versions of those dicts. `depth == 0`: empty.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClassWay {
    /// Versions of the dicts consulted, in lookup order.
    pub vers: [u64; 3],
    /// Slot of the found entry in the last dict consulted.
    pub slot: u32,
    /// Number of dicts consulted (0 = empty).
    pub depth: u8,
    /// The name was absent from all `depth` dicts, which were the class and its whole MRO.
    pub miss: bool,
}

/// A compiled code object. Immutable once built (apart from its inline caches).
#[derive(Debug)]
pub struct Code {
    /// Function name (`<module>`, `<lambda>`, `<listcomp>` …).
    pub name: Rc<str>,
    /// Qualified name.
    pub qualname: Rc<str>,
    /// Source file name.
    pub filename: Rc<str>,
    /// Kind.
    pub kind: CodeKind,
    /// Instructions.
    pub instrs: Vec<Instr>,
    /// Source line of each instruction.
    pub lines: Vec<u32>,
    /// Constants.
    pub consts: Vec<Value>,
    /// Names (attributes, globals).
    pub names: Vec<Rc<str>>,
    /// `dict::str_hash` of each name (precomputed for namespace lookups).
    pub name_hashes: Vec<u64>,
    /// Fast-local names; parameters first.
    pub varnames: Vec<Rc<str>>,
    /// Cell variable names (owned by this frame), then free variable names (from the closure).
    pub cellnames: Vec<Rc<str>>,
    /// Number of cell variables owned (the rest of `cellnames` are free variables).
    pub ncells: usize,
    /// For each owned cell that is also a parameter: (cell index, local index).
    pub cell_params: Vec<(u32, u32)>,
    /// Positional parameter count (including positional-only).
    pub argcount: u32,
    /// Positional-only parameter count.
    pub posonlycount: u32,
    /// Keyword-only parameter count.
    pub kwonlycount: u32,
    /// Has `*args`.
    pub varargs: bool,
    /// Has `**kwargs`.
    pub varkw: bool,
    /// First line.
    pub firstline: u32,
    /// Docstring.
    pub doc: Option<Rc<str>>,
    /// One inline cache per instruction (same length as `instrs`).
    pub caches: Box<[std::cell::Cell<InlineCache>]>,
}
