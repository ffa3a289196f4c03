//! Function annotations: `f.__annotations__`.
//!
//! `def` evaluates its parameter and return annotations (bytecode like any expression, in
//! CPython 3.11 order) into a `(name, value, …)` tuple stored on the function; the first
//! read of `__annotations__` turns it into a dict, stored so later reads return the same
//! object. A function without annotations gets a new empty dict on first read. Assigning
//! a dict replaces it; assigning `None` or `del f.__annotations__` unsets it.
//!
//! Class and module annotations (`x: int` in a class body or at module level) are stored in
//! the namespace's `__annotations__` dict by the compiler (`SetupAnnotations`).
//!
//! Under `from __future__ import annotations` ([`future_features`]) no annotation is
//! evaluated: each is stored as its source text as CPython 3.11 renders it
//! ([`crate::unparse`]).

use crate::cost;
use crate::dict::Dict;
use crate::value::{Function, Value};
use crate::vm::{PyResult, Vm};
use ruff_python_ast::{Expr, Stmt};

/// Features `from __future__ import` accepts; all but `annotations` are always on in 3.11.
const FUTURE_FEATURES: &[&str] = &[
    "absolute_import",
    "annotations",
    "division",
    "generator_stop",
    "generators",
    "nested_scopes",
    "print_function",
    "unicode_literals",
    "with_statement",
];

/// Check a module's `from __future__ import …` statements (CPython's rules: only at the
/// beginning of the file, after at most a docstring, and only known features) and return
/// whether `annotations` is among them. `Err` carries the message and the source offset.
/// The statements bind no names in the PVM (CPython binds `_Feature` objects).
pub fn future_features(body: &[Stmt]) -> Result<bool, (String, u32)> {
    let mut annotations = false;
    let mut leading = true;
    for (i, s) in body.iter().enumerate() {
        match s {
            Stmt::ImportFrom(f)
                if f.level == 0 && f.module.as_ref().is_some_and(|m| m.id == "__future__") =>
            {
                let at = f.range.start().to_u32();
                if !leading {
                    return Err((
                        "from __future__ imports must occur at the beginning of the file".into(),
                        at,
                    ));
                }
                for a in &f.names {
                    match a.name.id.as_str() {
                        "annotations" => annotations = true,
                        "braces" => return Err(("not a chance".into(), at)),
                        "barry_as_FLUFL" => {
                            let m = "future feature barry_as_FLUFL is not supported in the PVM";
                            return Err((m.into(), at));
                        }
                        n if FUTURE_FEATURES.contains(&n) => {}
                        n => return Err((format!("future feature {n} is not defined"), at)),
                    }
                }
            }
            Stmt::Expr(e) if i == 0 && matches!(&*e.value, Expr::StringLiteral(_)) => {}
            _ => leading = false,
        }
    }
    Ok(annotations)
}

impl Vm {
    /// `f.__annotations__`: the stored dict, built on first read (charged one dict
    /// operation plus one cycle per entry).
    pub(crate) fn function_annotations(&mut self, f: &Function) -> PyResult<Value> {
        let cur = f.annotations.borrow().clone();
        let d = match cur {
            Value::Dict(_) => return Ok(cur),
            Value::Tuple(t) => {
                let n = (t.v.len() / 2) as u64;
                self.charge(cost::DICT + n * cost::PER_ELEMENT)?;
                let mut d = Dict::new();
                for pair in t.v.chunks(2) {
                    if let [Value::Str(k), v] = pair {
                        d.set_str(k.clone(), v.clone());
                    }
                }
                Value::dict(d)
            }
            _ => {
                self.charge(cost::DICT)?;
                Value::dict(Dict::new())
            }
        };
        let old = f.annotations.replace(d.clone());
        drop(old);
        Ok(d)
    }

    /// `f.__annotations__ = v`: a dict, or `None` to unset.
    pub(crate) fn set_function_annotations(&mut self, f: &Function, v: Value) -> PyResult<()> {
        match v {
            Value::Dict(_) | Value::None => {
                let old = f.annotations.replace(v);
                drop(old);
                Ok(())
            }
            _ => Err(self.type_err("__annotations__ must be set to a dict object")),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Limits, RunOutcome, run_program};

    fn run(src: &str) -> RunOutcome {
        run_program(src, "t.py", &Limits::default())
    }

    fn error_of(src: &str) -> (String, String) {
        let e = run(src).error.expect("an error");
        (e.type_name, e.message)
    }

    #[test]
    fn annotations_cost_their_instructions_only() {
        let plain = run("def f(a, b=1):\n    pass\n").cycles_used;
        // two annotations: per pair LoadConst name (1) + LoadName (2), then BuildTuple (2)
        let annotated = run("def f(a: int, b: str = 1):\n    pass\n").cycles_used;
        assert_eq!(annotated, plain + 2 * 3 + 2);
        // under PEP 563 each annotation is one constant
        let future =
            run("from __future__ import annotations\ndef f(a: int, b: str = 1):\n    pass\n");
        assert!(future.error.is_none());
        assert_eq!(future.cycles_used, plain + 2 * 2 + 2);
    }

    #[test]
    fn future_import_rules_follow_cpython() {
        let late = error_of("x = 1\nfrom __future__ import annotations\n");
        assert_eq!(late.0, "SyntaxError");
        assert!(
            late.1.contains("must occur at the beginning of the file"),
            "{}",
            late.1
        );
        assert!(
            error_of("from __future__ import braces\n")
                .1
                .contains("not a chance")
        );
        assert!(
            error_of("from __future__ import nope\n")
                .1
                .contains("future feature nope is not defined")
        );
        let ok = run(
            "'''doc'''\nfrom __future__ import annotations, division\nfrom __future__ import generator_stop\nprint(1)\n",
        );
        assert!(ok.error.is_none() && ok.stdout == "1\n", "{:?}", ok.error);
        let nested = error_of("def f():\n    from __future__ import annotations\n");
        assert_eq!(nested.0, "SyntaxError");
        let lam = error_of("from __future__ import annotations\ndef f(x: lambda: 0):\n    pass\n");
        assert_eq!(lam.0, "SyntaxError");
        assert!(lam.1.contains("lambda"), "{}", lam.1);
    }

    #[test]
    fn future_annotations_render_operators_and_calls() {
        // expected output printed by CPython 3.11 for the same program
        let o = run(concat!(
            "from __future__ import annotations\n",
            "def f(b: dict[str,list[int]]|None = None, *args: \"quoted\", **kw: 1+2*3)",
            " -> g(a, *b, c=1, **d):\n    pass\n",
            "print(f.__annotations__)\n",
        ));
        assert!(o.error.is_none(), "{:?}", o.error);
        assert_eq!(
            o.stdout,
            "{'b': 'dict[str, list[int]] | None', 'args': \"'quoted'\", 'kw': '1 + 2 * 3', \
             'return': 'g(a, *b, c=1, **d)'}\n"
        );
    }

    #[test]
    fn annotation_dict_is_stable_and_replaceable() {
        let o = run(concat!(
            "def f(a: int) -> str:\n    pass\n",
            "d = f.__annotations__\nprint(d is f.__annotations__, d)\n",
            "f.__annotations__ = None\nprint(f.__annotations__, d)\n",
            "try:\n    f.__annotations__ = 3\nexcept TypeError as e:\n    print(e)\n",
        ));
        assert!(o.error.is_none(), "{:?}", o.error);
        assert_eq!(
            o.stdout,
            "True {'a': <class 'int'>, 'return': <class 'str'>}\n{} {'a': <class 'int'>, 'return': <class 'str'>}\n__annotations__ must be set to a dict object\n"
        );
    }
}
