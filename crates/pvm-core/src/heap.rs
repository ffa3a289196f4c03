//! Deterministic heap accounting and end-of-invocation cycle breaking.
//!
//! Every heap object carries an [`Acct`] recording the bytes it charged against the per-thread
//! counter; dropping the object credits them back. The counter is a pure function of the program
//! (object sizes are computed from lengths, never from the allocator), so the 10 MiB cap triggers
//! at the same point on every machine.
//!
//! There is no cycle collector. Containers that can take part in reference cycles register a
//! weak pointer here; when an invocation ends, [`release_all`] clears every still-live tracked
//! container, which breaks all cycles so that everything the invocation allocated is freed.

use crate::value::{Class, Function, Generator, Instance, Module, PyCell, PyDict, PyList, PySet};
use std::cell::{Cell, RefCell};
use std::rc::Weak;

thread_local! {
    static USED: Cell<usize> = const { Cell::new(0) };
    static TRACKED: RefCell<Vec<Tracked>> = const { RefCell::new(Vec::new()) };
    static COMPACT_AT: Cell<usize> = const { Cell::new(1024) };
}

/// Bytes currently accounted on this thread.
pub fn used() -> usize {
    USED.with(|u| u.get())
}

/// Bytes charged by one object; credited back on drop.
#[derive(Debug)]
pub struct Acct(Cell<usize>);

impl Acct {
    /// Charge `n` bytes.
    pub fn new(n: usize) -> Acct {
        USED.with(|u| u.set(u.get() + n));
        Acct(Cell::new(n))
    }
    /// Bytes this object charges now.
    pub fn bytes(&self) -> usize {
        self.0.get()
    }
    /// Change the charge to `n` bytes.
    pub fn set(&self, n: usize) {
        let old = self.0.get();
        USED.with(|u| u.set((u.get() + n).saturating_sub(old)));
        self.0.set(n);
    }
}

impl Drop for Acct {
    fn drop(&mut self) {
        let n = self.0.get();
        USED.with(|u| u.set(u.get().saturating_sub(n)));
    }
}

/// A weakly tracked container that may be part of a reference cycle.
#[derive(Debug)]
pub enum Tracked {
    /// list
    List(Weak<PyList>),
    /// dict
    Dict(Weak<PyDict>),
    /// set
    Set(Weak<PySet>),
    /// instance
    Instance(Weak<Instance>),
    /// class
    Class(Weak<Class>),
    /// function
    Function(Weak<Function>),
    /// cell
    Cell(Weak<PyCell>),
    /// generator
    Generator(Weak<Generator>),
    /// module
    Module(Weak<Module>),
}

impl Tracked {
    fn alive(&self) -> bool {
        match self {
            Tracked::List(w) => w.strong_count() > 0,
            Tracked::Dict(w) => w.strong_count() > 0,
            Tracked::Set(w) => w.strong_count() > 0,
            Tracked::Instance(w) => w.strong_count() > 0,
            Tracked::Class(w) => w.strong_count() > 0,
            Tracked::Function(w) => w.strong_count() > 0,
            Tracked::Cell(w) => w.strong_count() > 0,
            Tracked::Generator(w) => w.strong_count() > 0,
            Tracked::Module(w) => w.strong_count() > 0,
        }
    }
}

/// Track a container (amortised O(1); dead entries are compacted when the list doubles).
pub fn register(t: Tracked) {
    TRACKED.with(|tr| {
        let mut tr = tr.borrow_mut();
        tr.push(t);
        let at = COMPACT_AT.with(|c| c.get());
        if tr.len() >= at {
            tr.retain(|t| t.alive());
            COMPACT_AT.with(|c| c.set((tr.len() * 2).max(1024)));
        }
    });
}

/// Clear every live tracked container, breaking reference cycles, then forget them.
/// Called at the end of each invocation.
pub fn release_all() {
    loop {
        let list = TRACKED.with(|tr| std::mem::take(&mut *tr.borrow_mut()));
        if list.is_empty() {
            break;
        }
        for t in list {
            // Take contents out first and drop them after the borrow ends (drops may re-enter).
            match t {
                Tracked::List(w) => {
                    if let Some(l) = w.upgrade() {
                        let v = std::mem::take(&mut *l.v.borrow_mut());
                        drop(v);
                    }
                }
                Tracked::Dict(w) => {
                    if let Some(d) = w.upgrade() {
                        let v = std::mem::take(&mut *d.d.borrow_mut());
                        drop(v);
                    }
                }
                Tracked::Set(w) => {
                    if let Some(d) = w.upgrade() {
                        let v = std::mem::take(&mut *d.d.borrow_mut());
                        drop(v);
                    }
                }
                Tracked::Instance(w) => {
                    if let Some(i) = w.upgrade() {
                        let v = std::mem::take(&mut *i.dict.d.borrow_mut());
                        drop(v);
                        let n = i.native.borrow_mut().take();
                        drop(n);
                        if let Some(e) = &i.exc {
                            let st = std::mem::take(&mut *e.borrow_mut());
                            drop(st);
                        }
                    }
                }
                Tracked::Class(w) => {
                    if let Some(c) = w.upgrade() {
                        let v = std::mem::take(&mut *c.dict.borrow_mut());
                        drop(v);
                    }
                }
                Tracked::Function(w) => {
                    if let Some(f) = w.upgrade() {
                        let c = f.class.borrow_mut().take();
                        drop(c);
                        let d = f.dict.borrow_mut().take();
                        drop(d);
                        // assigned `__defaults__` / `__kwdefaults__` can close a cycle
                        let dv = std::mem::take(&mut *f.defaults.borrow_mut());
                        drop(dv);
                        let kv = std::mem::take(&mut *f.kwdefaults.borrow_mut());
                        drop(kv);
                        let an = std::mem::take(&mut *f.annotations.borrow_mut());
                        drop(an);
                    }
                }
                Tracked::Cell(w) => {
                    if let Some(c) = w.upgrade() {
                        let v = c.v.borrow_mut().take();
                        drop(v);
                    }
                }
                Tracked::Generator(w) => {
                    if let Some(g) = w.upgrade() {
                        let f = g.frame.borrow_mut().take();
                        drop(f);
                    }
                }
                Tracked::Module(w) => {
                    if let Some(m) = w.upgrade() {
                        let v = std::mem::take(&mut *m.dict.borrow_mut());
                        drop(v);
                    }
                }
            }
        }
    }
    COMPACT_AT.with(|c| c.set(1024));
}

/// Start a new invocation on a reused thread exactly as on a fresh one: release whatever a
/// previous invocation left tracked, then zero the byte counter (anything still accounted is
/// unreachable garbage of earlier invocations, which no later invocation may pay for).
/// Must not be called while a VM is live on this thread.
pub fn reset() {
    release_all();
    USED.with(|u| u.set(0));
}

/// Run `f` with this thread's accounting set aside, for work that is not part of the running
/// invocation (building a module image): `f` starts with an empty tracked list; afterwards
/// every container `f` left tracked is released and the tracked list, the compaction point
/// and the byte counter are restored exactly. Returns `f`'s result and the bytes still charged
/// by what `f` returned or leaked (0 when `f` keeps no accounted object alive; any other
/// value means the caller holds accounted objects whose later drop would disturb the counter,
/// and must drop them inside another `isolated` call).
pub fn isolated<R>(f: impl FnOnce() -> R) -> (R, isize) {
    let saved = TRACKED.with(|tr| std::mem::take(&mut *tr.borrow_mut()));
    let compact = COMPACT_AT.with(|c| c.get());
    let before = used();
    COMPACT_AT.with(|c| c.set(1024));
    let r = f();
    release_all();
    let after = used();
    USED.with(|u| u.set(before));
    COMPACT_AT.with(|c| c.set(compact));
    TRACKED.with(|tr| *tr.borrow_mut() = saved);
    (r, after as isize - before as isize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn accounting_is_credited_back_and_cycles_are_released() {
        let before = used();
        {
            let a = Value::list(vec![Value::Int(1); 100]);
            assert!(used() >= before + 1600);
            // self-referencing list: a cycle that plain Rc would leak
            if let Value::List(l) = &a {
                l.v.borrow_mut().push(a.clone());
            }
        }
        assert!(
            used() > before,
            "the cycle keeps the list alive until release_all"
        );
        release_all();
        assert_eq!(used(), before);
    }
}
