//! Native half of `re`: pattern compilation and matching over the `pvm-re` engine.
//!
//! The Python half (`pvm-stdlib/lib/re.py`) defines `Pattern`, `Match`, `error` and the
//! module functions; it calls the functions here with the pattern source and flags. Compiled
//! programs are cached per invocation in [`Cache`], keyed by (bytes?, pattern, flags).
//!
//! Costs: every call [`CALL_BASE`] + one cycle per [`TEXT_CHARS_PER_CYCLE`] characters of the
//! subject (it is decoded to code points), compiling a pattern that is not cached
//! [`COMPILE_BASE`] + [`COMPILE_PER_CHAR`] per pattern character, and one cycle per step of
//! the engine (every instruction executed and every start position tried), so the cost of a
//! match is proportional to the work it does; catastrophic backtracking runs out of cycles.

use crate::value::*;
use crate::vm::{Abort, Flow, PyResult, Vm};
use pvm_re::{Anchor, Regex, TemplateError, TemplatePiece};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Module name of the native helper (injected into `re` as `_native`).
pub const NATIVE: &str = "_pvm_re";

/// Base cost of every native `re` call.
pub const CALL_BASE: u64 = 20;
/// The subject is decoded at this many characters per cycle.
pub const TEXT_CHARS_PER_CYCLE: u64 = 8;
/// Base cost of compiling a pattern that is not in the invocation's cache.
pub const COMPILE_BASE: u64 = 50;
/// Per pattern character cost of compiling it.
pub const COMPILE_PER_CHAR: u64 = 2;
/// At most this many compiled patterns are cached; the cache is emptied when it is full.
pub const CACHE_MAX: usize = 256;

const FUNCS: &[&str] = &["compile", "exec", "find_all", "template"];

/// Compiled patterns of one invocation, each with the heap bytes it is charged: the key's
/// code points plus [`PROGRAM_BYTES_PER_CHAR`] per pattern character for the program.
pub type Cache = BTreeMap<(bool, Vec<u32>, u32), (Rc<Regex>, crate::heap::Acct)>;

/// Heap bytes charged per pattern character for a cached compiled program.
pub const PROGRAM_BYTES_PER_CHAR: usize = 32;

/// The helper module object.
pub fn native_module() -> Value {
    super::native_helper(NATIVE, FUNCS)
}

/// Pattern or subject text as code points; `true` if it is bytes.
fn text(vm: &Vm, v: &Value) -> PyResult<(Vec<u32>, bool)> {
    match v {
        Value::Str(s) => {
            vm.check_mem(4 * s.nchars)?;
            Ok((s.s.chars().map(|c| c as u32).collect(), false))
        }
        Value::Bytes(b) => {
            vm.check_mem(4 * b.b.len())?;
            Ok((b.b.iter().map(|&x| u32::from(x)).collect(), true))
        }
        Value::ByteArray(b) => {
            let b = b.b.borrow();
            vm.check_mem(4 * b.len())?;
            Ok((b.iter().map(|&x| u32::from(x)).collect(), true))
        }
        _ => Err(vm.type_err(format!(
            "expected string or bytes-like object, got '{}'",
            vm.type_name(v)
        ))),
    }
}

fn flags_arg(vm: &mut Vm, v: &Value) -> PyResult<u32> {
    let f = vm.to_index(v)?;
    u32::try_from(f).map_err(|_| vm.exc("ValueError", "invalid re flags"))
}

/// Compile (or fetch from the cache) `pattern` with `flags`.
fn regex(vm: &mut Vm, pattern: &Value, flags: u32) -> PyResult<Result<Rc<Regex>, pvm_re::ReError>> {
    let (pat, bytes) = text(vm, pattern)?;
    let key = (bytes, pat, flags);
    if let Some((r, _)) = vm.stdlib.regex.get(&key) {
        return Ok(Ok(r.clone()));
    }
    vm.charge(COMPILE_BASE + COMPILE_PER_CHAR * key.1.len() as u64)?;
    match Regex::new(&key.1, flags, bytes) {
        Ok(r) => {
            let r = Rc::new(r);
            if vm.stdlib.regex.len() >= CACHE_MAX {
                vm.stdlib.regex.clear();
            }
            let bytes = 64 + (4 + PROGRAM_BYTES_PER_CHAR) * key.1.len();
            vm.stdlib
                .regex
                .insert(key, (r.clone(), crate::heap::Acct::new(bytes)));
            vm.check_mem(0)?;
            Ok(Ok(r))
        }
        Err(e) => Ok(Err(e)),
    }
}

fn compiled(vm: &mut Vm, pattern: &Value, flags: &Value) -> PyResult<Rc<Regex>> {
    let flags = flags_arg(vm, flags)?;
    match regex(vm, pattern, flags)? {
        Ok(r) => Ok(r),
        Err(e) => Err(vm.exc("SystemError", format!("re pattern did not compile: {e}"))),
    }
}

/// Subject text, checked against the pattern kind, with its decoding cost charged.
fn subject(vm: &mut Vm, r: &Regex, v: &Value) -> PyResult<Vec<u32>> {
    let (t, bytes) = text(vm, v)?;
    if bytes != r.is_bytes() {
        return Err(vm.type_err(if r.is_bytes() {
            "cannot use a bytes pattern on a string-like object"
        } else {
            "cannot use a string pattern on a bytes-like object"
        }));
    }
    vm.charge(t.len() as u64 / TEXT_CHARS_PER_CYCLE)?;
    Ok(t)
}

/// Run `f` with the rest of the cycle budget as the engine's step budget; charge the steps.
fn metered<T>(
    vm: &mut Vm,
    f: impl FnOnce(&mut u64) -> Result<T, pvm_re::BudgetExhausted>,
) -> PyResult<T> {
    let mut budget = vm.meter.left;
    let r = f(&mut budget);
    let used = vm.meter.left - budget;
    match r {
        Ok(v) => {
            vm.charge(used)?;
            Ok(v)
        }
        Err(pvm_re::BudgetExhausted) => {
            vm.meter.left = 0;
            Err(Flow::Abort(Abort::OutOfCycles))
        }
    }
}

/// Clamp a Python position argument the way `re` does (negative counts from 0).
fn pos_arg(vm: &mut Vm, v: &Value, len: usize) -> PyResult<usize> {
    let p = vm.to_index(v)?;
    Ok(if p < 0 {
        0
    } else {
        (p as u64).min(len as u64) as usize
    })
}

fn spans_value(c: &pvm_re::Captures) -> Value {
    let mut out = Vec::with_capacity(2 * c.spans.len());
    for s in &c.spans {
        match s {
            Some((a, b)) => {
                out.push(Value::Int(*a as i64));
                out.push(Value::Int(*b as i64));
            }
            None => {
                out.push(Value::Int(-1));
                out.push(Value::Int(-1));
            }
        }
    }
    Value::tuple(out)
}

fn err_tuple(e: &pvm_re::ReError) -> Value {
    Value::tuple(vec![
        Value::Bool(false),
        Value::str(e.msg.as_str()),
        e.pos.map(|p| Value::Int(p as i64)).unwrap_or(Value::None),
    ])
}

/// Call `_native.name(*args)`:
/// * `compile(pattern, flags)` → `(True, groups, ((name, index), ...), flags)` or
///   `(False, message, position)`;
/// * `exec(pattern, flags, string, pos, endpos, mode)` (mode 0 search, 1 match, 2 fullmatch)
///   → flat spans `(start0, end0, start1, end1, ...)` with -1 for groups that did not take
///   part, or None;
/// * `find_all(pattern, flags, string, pos, endpos, limit)` → list of flat spans;
/// * `template(pattern, flags, repl)` → `(True, [str/bytes or group index, ...])` or
///   `(False, message, position)` (`re.error`) or `(None, group name)` (IndexError).
pub fn call(
    vm: &mut Vm,
    name: &str,
    args: Vec<Value>,
    _kw: Vec<(Rc<str>, Value)>,
) -> PyResult<Value> {
    vm.charge(CALL_BASE)?;
    let a = |i: usize| args.get(i).cloned().unwrap_or_default();
    match name {
        "compile" => {
            let flags = flags_arg(vm, &a(1))?;
            Ok(match regex(vm, &a(0), flags)? {
                Ok(r) => {
                    let names: Vec<Value> = r
                        .group_names()
                        .iter()
                        .map(|(n, g)| {
                            Value::tuple(vec![Value::str(n.as_str()), Value::Int(*g as i64)])
                        })
                        .collect();
                    Value::tuple(vec![
                        Value::Bool(true),
                        Value::Int(r.groups() as i64),
                        Value::tuple(names),
                        Value::Int(i64::from(r.flags())),
                    ])
                }
                Err(e) => err_tuple(&e),
            })
        }
        "exec" | "find_all" => {
            let r = compiled(vm, &a(0), &a(1))?;
            let t = subject(vm, &r, &a(2))?;
            let pos = pos_arg(vm, &a(3), t.len())?;
            let endpos = pos_arg(vm, &a(4), t.len())?;
            let n = vm.to_index(&a(5))?;
            if name == "exec" {
                let anchor = match n {
                    1 => Anchor::Start,
                    2 => Anchor::Full,
                    _ => Anchor::Search,
                };
                let m = metered(vm, |b| r.exec(&t, pos, endpos, anchor, None, b))?;
                Ok(m.map(|c| spans_value(&c)).unwrap_or(Value::None))
            } else {
                let limit = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
                let all = metered(vm, |b| r.find_all(&t, pos, endpos, limit, b))?;
                vm.check_mem(all.len().saturating_mul(64))?;
                Ok(Value::list(all.iter().map(spans_value).collect()))
            }
        }
        "template" => {
            let r = compiled(vm, &a(0), &a(1))?;
            let (repl, bytes) = text(vm, &a(2))?;
            if bytes != r.is_bytes() {
                return Err(vm.type_err(format!(
                    "expected {} object, got '{}'",
                    if r.is_bytes() { "a bytes-like" } else { "str" },
                    vm.type_name(&a(2))
                )));
            }
            vm.charge(repl.len() as u64)?;
            Ok(match r.parse_template(&repl) {
                Ok(pieces) => {
                    let items = pieces
                        .into_iter()
                        .map(|p| match p {
                            TemplatePiece::Group(g) => Value::Int(g as i64),
                            TemplatePiece::Literal(l) if bytes => {
                                Value::bytes(l.iter().map(|&c| c as u8).collect())
                            }
                            TemplatePiece::Literal(l) => Value::str(
                                l.iter()
                                    .map(|&c| char::from_u32(c).unwrap_or('\u{fffd}'))
                                    .collect::<String>(),
                            ),
                        })
                        .collect();
                    Value::tuple(vec![Value::Bool(true), Value::list(items)])
                }
                Err(TemplateError::Re(e)) => err_tuple(&e),
                Err(TemplateError::UnknownGroupName(n)) => {
                    Value::tuple(vec![Value::None, Value::str(n)])
                }
            })
        }
        _ => Err(vm.exc(
            "AttributeError",
            format!("module '{NATIVE}' has no attribute '{name}'"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_patterns_are_cached_and_compiling_is_charged_once() {
        let mut vm = Vm::new(&crate::Limits::default());
        let args = || vec![Value::str("(a+)b"), Value::Int(0)];
        let before = vm.meter.left;
        let first = call(&mut vm, "compile", args(), vec![]);
        assert!(first.is_ok());
        let after_first = vm.meter.left;
        assert!(call(&mut vm, "compile", args(), vec![]).is_ok());
        let after_second = vm.meter.left;
        assert_eq!(
            before - after_first,
            CALL_BASE + COMPILE_BASE + 5 * COMPILE_PER_CHAR
        );
        assert_eq!(after_first - after_second, CALL_BASE);
        assert_eq!(vm.stdlib.regex.len(), 1);
        vm.frames.clear();
        drop(vm);
        crate::heap::release_all();
    }

    #[test]
    fn spans_mark_groups_that_did_not_take_part() {
        let c = pvm_re::Captures {
            spans: vec![Some((0, 2)), None],
        };
        let Value::Tuple(t) = spans_value(&c) else {
            panic!("tuple expected");
        };
        let v: Vec<i64> =
            t.v.iter()
                .map(|x| if let Value::Int(i) = x { *i } else { 99 })
                .collect();
        assert_eq!(v, vec![0, 2, -1, -1]);
    }
}
