//! The per-thread prelude: the built-in classes and the built-ins namespace every VM starts
//! from, built once per thread instead of once per VM (see [`Prelude`] for why sharing them is
//! unobservable, and docs/stdlib.md).

use crate::dict::Dict;
use crate::value::*;
use crate::vm::Vm;
use std::rc::Rc;

/// The built-in classes and the built-ins namespace as [`crate::builtins::install`] leaves them
/// in a fresh VM, built once per thread and shared by every VM the thread creates afterwards ([`prelude`]),
/// so that a VM costs a dict clone instead of building ~100 classes and ~160 entries.
///
/// Sharing is unobservable because of these invariants (pinned by `tests/shared_prelude.rs`):
/// * Nothing here can change after construction. Built-in classes (`builtin: true`) have
///   empty namespaces that no path writes: `setattr`/`delattr` on them and
///   `type.__setattr__`/`type.__delattr__` raise `TypeError`, and their `flags` are only ever
///   set on user classes; built-in functions carry no state.
/// * Each VM gets its own namespace dict, a clone of `template` (same keys, slots and
///   version tag), so a write to one VM's builtins could never reach another VM. The one value
///   with observable state, the `__name__` string (its cached hash decides whether hashing it
///   is charged), is fresh per VM.
/// * Heap accounting and ids are those of building it in the VM: each VM charges `bytes` (what
///   the template's key strings charged) and starts its id counter at `next_id` (the ids the
///   exception classes took).
/// * None of these objects is registered with [`crate::heap`], so the end-of-invocation
///   [`crate::heap::release_all`] never clears them.
/// * Everything lives on one thread (`Rc`, `thread_local!`); a VM never outlives its thread.
///
/// Adding a built-in type is one line in [`crate::types::Types::new`]; it is shared like the rest.
pub(crate) struct Prelude {
    /// The built-in classes by kind.
    pub(crate) types: Rc<crate::types::Types>,
    /// The built-ins namespace with `None` in the `__name__` slot.
    template: Dict,
    /// Slot and key of `__name__` in `template`.
    name_slot: usize,
    name_key: Value,
    /// First object id free after the built-in exception classes.
    pub(crate) next_id: u64,
    /// Bytes the template's key strings charge; each VM charges them again.
    pub(crate) bytes: usize,
}

impl Prelude {
    /// A fresh namespace for one VM: the template with its own `__name__` string.
    pub(crate) fn namespace(&self) -> Dict {
        let mut d = self.template.clone();
        d.replace_slot(
            self.name_slot,
            self.name_key.clone(),
            Value::str("builtins"),
        );
        d
    }

    /// Build the prelude the way [`Vm::new`] used to build every VM, with this thread's heap
    /// accounting set aside (the key strings stay alive; their bytes are recorded instead).
    fn build() -> Prelude {
        let (p, bytes) = crate::heap::isolated(|| {
            let types = Rc::new(crate::types::Types::new());
            let mut vm =
                Vm::with_prelude_parts(&crate::Limits::default(), types.clone(), Dict::new(), 1, 0);
            crate::builtins::install(&mut vm);
            let mut template = std::mem::take(&mut *vm.builtins.dict.borrow_mut());
            let name_slot = template
                .find_str_h("__name__", crate::dict::str_hash("__name__"))
                .unwrap_or(usize::MAX);
            let name_key = template
                .slot(name_slot)
                .map(|e| e.key.clone())
                .unwrap_or_default();
            template.replace_slot(name_slot, name_key.clone(), Value::None);
            let next_id = vm.next_id.get();
            drop(vm);
            Prelude {
                types,
                template,
                name_slot,
                name_key,
                next_id,
                bytes: 0,
            }
        });
        Prelude {
            bytes: usize::try_from(bytes).unwrap_or(0),
            ..p
        }
    }
}

thread_local! {
    static PRELUDE: std::cell::OnceCell<Rc<Prelude>> = const { std::cell::OnceCell::new() };
}

/// This thread's [`Prelude`], built on first use.
pub(crate) fn prelude() -> Rc<Prelude> {
    PRELUDE.with(|p| p.get_or_init(|| Rc::new(Prelude::build())).clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap;

    /// A VM built the way every VM was built before the prelude existed.
    fn from_scratch() -> Vm {
        let mut vm = Vm::with_prelude_parts(
            &crate::Limits::default(),
            Rc::new(crate::types::Types::new()),
            Dict::new(),
            1,
            0,
        );
        crate::builtins::install(&mut vm);
        vm
    }

    /// What a VM observes of its built-ins: every name with its value by identity-free content.
    fn describe(vm: &Vm) -> Vec<String> {
        let d = vm.builtins.dict.borrow();
        d.iter()
            .map(|e| {
                let Value::Str(k) = &e.key else {
                    return "non-str key".into();
                };
                let v = match &e.value {
                    Value::Class(c) => {
                        let mro: Vec<&str> = c.mro.iter().map(|m| &*m.name).collect();
                        format!(
                            "class {} id={} kind={:?} builtin={} flags={} ns={} mro={mro:?}",
                            c.name,
                            c.id,
                            c.kind,
                            c.builtin,
                            c.flags.get(),
                            c.dict.borrow().len()
                        )
                    }
                    Value::Builtin(b) => format!("builtin {:?}", b.kind),
                    Value::Str(s) => format!("str {:?} hash={}", &*s.s, s.hash.get()),
                    other => format!("{other:?}"),
                };
                format!("{} (hash {}) = {v}", &*k.s, k.hash.get())
            })
            .collect()
    }

    #[test]
    fn a_vm_from_the_prelude_is_a_vm_built_from_scratch() {
        let ((), leaked) = heap::isolated(|| {
            let before = heap::used();
            let cold = from_scratch();
            let cold_bytes = heap::used() - before;
            let cold_next = cold.next_id.get();
            let cold_desc = describe(&cold);
            drop(cold);
            assert_eq!(heap::used(), before);

            let warm = Vm::new(&crate::Limits::default());
            assert_eq!(heap::used() - before, cold_bytes, "heap charge");
            assert_eq!(warm.next_id.get(), cold_next, "ids");
            assert_eq!(describe(&warm), cold_desc, "namespace");
            let types: Vec<String> = warm
                .types
                .by_kind
                .iter()
                .map(|(k, c)| format!("{k:?} {} {}", c.name, c.id))
                .collect();
            let cold_types: Vec<String> = crate::types::Types::new()
                .by_kind
                .iter()
                .map(|(k, c)| format!("{k:?} {} {}", c.name, c.id))
                .collect();
            assert_eq!(types, cold_types);

            // shared: the classes; per VM: the namespace dict and its `__name__` string
            let other = Vm::new(&crate::Limits::default());
            assert!(Rc::ptr_eq(&warm.types, &other.types));
            assert!(!Rc::ptr_eq(&warm.builtins, &other.builtins));
            let name = |vm: &Vm| vm.builtins.dict.borrow().get_str("__name__").cloned();
            match (name(&warm), name(&other)) {
                (Some(Value::Str(a)), Some(Value::Str(b))) => assert!(!Rc::ptr_eq(&a, &b)),
                other => panic!("__name__: {other:?}"),
            }
            assert_eq!(
                warm.builtins.dict.borrow().version(),
                other.builtins.dict.borrow().version()
            );
            drop((warm, other));
            assert_eq!(heap::used(), before, "every VM credits its charge back");
        });
        assert_eq!(leaked, 0);
    }

    #[test]
    fn writes_to_one_namespace_do_not_reach_the_next_vm() {
        let a = Vm::new(&crate::Limits::default());
        a.builtins
            .dict
            .borrow_mut()
            .set_str(Rc::new(PyStr::new("len")), Value::Int(7));
        let b = Vm::new(&crate::Limits::default());
        assert!(matches!(
            b.builtins.dict.borrow().get_str("len"),
            Some(Value::Builtin(_))
        ));
        assert!(prelude().bytes > 0);
    }
}
