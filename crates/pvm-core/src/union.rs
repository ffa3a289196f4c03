//! PEP 604 union objects (`int | str`, `list | None`): CPython 3.11's `types.UnionType`.
//!
//! A union is a [`Wrapper::Union`] holding its members: classes only (`None` becomes
//! `NoneType`), deduplicated by identity, in order of first appearance, nested unions
//! flattened. `X | Y` makes one only when both operands are "unionable" (a class, `None` or a
//! union) and at least one of them is a class or a union (which is what gives CPython's `type`
//! and `types.UnionType` their `__or__`/`__ror__`); a union of one member is that member
//! (`int | int is int`). Equality is set equality of the members, the hash is consistent with
//! it, `isinstance`/`issubclass` accept a union like a tuple of its members.

use crate::value::*;
use crate::vm::{PyResult, Vm};
use std::rc::Rc;

/// The members of `v` when it is a union.
pub fn members(v: &Value) -> Option<&[Value]> {
    match v {
        Value::Wrapper(w) => match &**w {
            Wrapper::Union(m) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

/// True for the operands `|` can combine into a union (a class, `None` or a union).
fn unionable(v: &Value) -> bool {
    matches!(v, Value::None | Value::Class(_)) || members(v).is_some()
}

impl Vm {
    /// `a | b` as `type.__or__` / `types.UnionType.__or__` (and their `__ror__`) compute it:
    /// None when that is `NotImplemented` (an operand is not unionable, or neither operand is
    /// a class or a union, e.g. `None | None`).
    pub fn union_or(&self, a: &Value, b: &Value) -> Option<Value> {
        let typed = |v: &Value| matches!(v, Value::Class(_)) || members(v).is_some();
        if !(unionable(a) && unionable(b) && (typed(a) || typed(b))) {
            return None;
        }
        let mut out: Vec<Value> = Vec::new();
        for side in [a, b] {
            let items: Vec<Value> = match members(side) {
                Some(m) => m.to_vec(),
                None => vec![side.clone()],
            };
            for it in items {
                let it = match it {
                    Value::None => Value::Class(self.types.get(TypeKind::NoneType)),
                    it => it,
                };
                let dup = out.iter().any(|o| match (o, &it) {
                    (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
                    _ => false,
                });
                if !dup {
                    out.push(it);
                }
            }
        }
        Some(if out.len() == 1 {
            out.pop().unwrap_or_default()
        } else {
            Value::Wrapper(Rc::new(Wrapper::Union(out.into_boxed_slice())))
        })
    }

    /// `repr(union)`: the members joined by `" | "`; `NoneType` shows as `None`, built-in
    /// classes by name, other classes as `module.qualname`.
    pub fn union_repr(&self, m: &[Value]) -> String {
        let parts: Vec<String> = m
            .iter()
            .map(|v| match v {
                Value::Class(c) => class_ref(c),
                _ => String::new(),
            })
            .collect();
        parts.join(" | ")
    }

    /// `a == b` for two unions: the same members, in any order.
    pub fn union_eq(a: &[Value], b: &[Value]) -> bool {
        let has = |set: &[Value], v: &Value| {
            set.iter().any(|x| match (x, v) {
                (Value::Class(p), Value::Class(q)) => Rc::ptr_eq(p, q),
                _ => false,
            })
        };
        a.iter().all(|v| has(b, v)) && b.iter().all(|v| has(a, v))
    }

    /// `hash(union)`: independent of member order, so equal unions hash equal.
    pub fn union_hash(&mut self, m: &[Value]) -> PyResult<i64> {
        let mut acc: u64 = 0x5a17_e3c1;
        for v in m {
            acc ^= (self.hash_i64(v)? as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        Ok((acc >> 1) as i64)
    }
}

/// How a union's repr names class `c` (CPython's `union_repr_item`).
fn class_ref(c: &Rc<Class>) -> String {
    if c.builtin {
        return match c.kind {
            TypeKind::NoneType => "None".into(),
            TypeKind::UnionType => "types.UnionType".into(),
            _ => c.qualname.to_string(),
        };
    }
    match c.dict.borrow().get_str("__module__") {
        Some(Value::Str(s)) if &*s.s == "builtins" => c.qualname.to_string(),
        Some(Value::Str(s)) => format!("{}.{}", s.s, c.qualname),
        _ => format!("__main__.{}", c.qualname),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Limits, run_program};

    fn run(src: &str) -> String {
        let o = run_program(src, "t.py", &Limits::default());
        match o.error {
            Some(e) => format!("{}!! {}: {}", o.stdout, e.type_name, e.message),
            None => o.stdout,
        }
    }

    #[test]
    fn union_basics() {
        assert_eq!(
            run("u = int | str\nprint(u, u == (str | int), int | int, None | int, u.__args__)"),
            "int | str True <class 'int'> None | int (<class 'int'>, <class 'str'>)\n"
        );
        assert_eq!(
            run(
                "print(isinstance(3, int | None), isinstance('', int | None), issubclass(bool, str | int))"
            ),
            "True False True\n"
        );
        assert_eq!(
            run("print(type(int | str), hash(int | str) == hash(str | int))"),
            "<class 'types.UnionType'> True\n"
        );
    }

    #[test]
    fn annotations_evaluate_unless_future_annotations() {
        let src = "def f(a: int | None) -> list | None: pass\nprint(f.__annotations__)\n";
        assert_eq!(run(src), "{'a': int | None, 'return': list | None}\n");
        assert_eq!(
            run(&format!("from __future__ import annotations\n{src}")),
            "{'a': 'int | None', 'return': 'list | None'}\n"
        );
    }

    #[test]
    fn non_unionable_operands_raise() {
        assert_eq!(
            run("None | None"),
            "!! TypeError: unsupported operand type(s) for |: 'NoneType' and 'NoneType'"
        );
        assert_eq!(
            run("int | 3"),
            "!! TypeError: unsupported operand type(s) for |: 'type' and 'int'"
        );
    }
}
