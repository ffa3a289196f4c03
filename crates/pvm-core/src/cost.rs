//! The consensus-critical cycle cost table.
//!
//! Every instruction is charged its base cost from [`instr_cost`] *before* it executes; handlers
//! add data-proportional surcharges through the helpers below. Numbers follow DESIGN.md
//! (whitepaper §3.5 for Python ops, CIP-3 for everything else). Changing any value here is a
//! consensus change.

use crate::bytecode::Instr;

/// Python arithmetic / bitwise / unary op (whitepaper §3.5).
pub const ARITH: u64 = 1;
/// Python function call (whitepaper §3.5).
pub const CALL: u64 = 10;
/// Dictionary get/set (whitepaper §3.5).
pub const DICT: u64 = 3;
/// List append / access (whitepaper §3.5).
pub const LIST: u64 = 2;
/// Strings: per character processed (whitepaper §3.5).
pub const PER_CHAR: u64 = 1;
/// First import of a module (CIP-3).
pub const IMPORT_FIRST: u64 = 100;
/// Repeated import of a cached module (CIP-3).
pub const IMPORT_CACHED: u64 = 5;
/// Failed (non-whitelisted) import penalty (CIP-3).
pub const IMPORT_FAILED: u64 = 50;
/// Base cost of a simple stack / local / constant instruction.
pub const SIMPLE: u64 = 1;
/// Attribute load / store base cost.
pub const ATTR: u64 = 2;
/// Global / builtin name lookup.
pub const GLOBAL: u64 = 2;
/// `raise` statement (CIP-3 exception handling costs).
pub const RAISE: u64 = 20;
/// Jump to an `except` / `finally` handler (CIP-3 exception handling costs).
pub const HANDLER: u64 = 10;
/// Creating a function / closure object.
pub const MAKE_FUNCTION: u64 = 10;
/// Creating a class object.
pub const BUILD_CLASS: u64 = 50;
/// Per element processed by builtins that iterate (sum, max, sorted, join, …).
pub const PER_ELEMENT: u64 = 1;
/// Encode / decode base (CIP-3: 10 + len).
pub const ENCODE_BASE: u64 = 10;

/// Base cost of one instruction (charged before it runs).
#[inline(always)]
pub fn instr_cost(i: &Instr) -> u64 {
    use Instr::*;
    match i {
        Nop | Pop | Dup | Dup2 | Rot2 | Rot3 | Rot4 | LoadConst(_) | LoadFast(_) | StoreFast(_)
        | DeleteFast(_) | LoadDeref(_) | StoreDeref(_) | LoadCell(_) | Jump(_)
        | PopJumpIfFalse(_) | PopJumpIfTrue(_) | JumpIfFalseOrPop(_) | JumpIfTrueOrPop(_) | Not
        | ReturnValue | PopExcept | LoadLocalsDict | SetupAnnotations | JumpIfNotExcMatch(_)
        | CopyN(_) => SIMPLE,
        LoadGlobal(_) | StoreGlobal(_) | DeleteGlobal(_) | LoadName(_) | StoreName(_)
        | DeleteName(_) => GLOBAL,
        LoadAttr(_) | StoreAttr(_) | DeleteAttr(_) => ATTR,
        BinaryOp(_) | InplaceOp(_) | Unary(_) | Compare(_) => ARITH,
        Subscr | StoreSubscr | DeleteSubscr => LIST,
        GetIter | ForIter(_) => LIST,
        BuildList(_) | BuildTuple(_) | BuildSet(_) | BuildString(_) | BuildSlice(_)
        | ListAppend(_) | SetAdd(_) | ListExtend(_) | SetUpdate(_) | ListToTuple
        | UnpackSequence(_) | UnpackEx(..) | FormatValue(_) => LIST,
        BuildMap(_) | MapAdd(_) | DictUpdate(_) | DictMerge(_) => DICT,
        Call(_) | CallKw(_) | CallEx | CallMethod(..) | CallMethodKw(..) | LoadSuper => CALL,
        MakeFunction(..) => MAKE_FUNCTION,
        BuildClass(_) => BUILD_CLASS,
        Raise(_) | Reraise => RAISE,
        SetupExcept(_) | PopBlock => HANDLER,
        Yield | YieldFrom | GenStart => SIMPLE,
        WithEnter | WithExit => CALL,
        Import(_) | ImportFrom(_) | ImportStar => SIMPLE,
        MatchClass(_) | MatchMapping | MatchSequence(_) | MatchKeys | GetLen => LIST,
    }
}

/// Bigint surcharge (CIP-3): `max(bitlen(a), bitlen(b)) / 64`.
#[inline]
pub fn bigint_surcharge(max_bits: u64) -> u64 {
    max_bits / 64
}
