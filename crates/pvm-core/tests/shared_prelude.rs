//! The built-in classes and the built-ins namespace are built once per thread and shared by
//! every VM of the thread (`src/prelude.rs`, docs/stdlib.md). Sharing must not be observable:
//! the programs below give exactly the stdout, cycles and cells recorded from the build that
//! built the built-ins afresh in every VM — exception-class ids (their hashes), the heap
//! accounting (the point where the heap cap stops a program), the built-ins `__name__` string
//! (whose first hash is charged) — whether the VM is the first of its thread (which builds the
//! prelude) or a later one, and in any order. Built-in classes cannot be mutated on any path
//! (the `mutate` program's recording is from the current build: `type.__setattr__` on a
//! built-in class used to succeed and now raises `TypeError` as in CPython), so nothing one
//! invocation does reaches the next.

use pvm_core::{Limits, RunOutcome, run_program, run_program_here};

/// (name, source, stdout in the corpus format, cycles, cells)
const PROGRAMS: &[(&str, &str, &str, u64, u64)] = &[
    (
        "exc_ids",
        r#"print(hash(ValueError), hash(KeyError), hash(DeterminismError), hash(int), hash(object))
class A(Exception):
    pass
print(hash(A), A.__mro__)
try:
    {}["k"]
except KeyError as e:
    print(repr(e), type(e) is KeyError, isinstance(e, LookupError))
print(issubclass(ZeroDivisionError, ArithmeticError), EnvironmentError is OSError)
print(sorted(vars(ValueError)), int.__mro__, bool.__mro__)
d = {int: 1, ValueError: 2, len: 3, print: 4}
print(d[int], d[ValueError], d[len], d[print])
"#,
        r#"577 289 1073 1 1
1105 (<class '__main__.A'>, <class 'Exception'>, <class 'BaseException'>, <class 'object'>)
KeyError('k') True True
True True
[] (<class 'int'>, <class 'object'>) (<class 'bool'>, <class 'int'>, <class 'object'>)
1 2 3 4
"#,
        680,
        238,
    ),
    (
        "heap_cap",
        r#"chunks = []
n = 0
while True:
    chunks.append("x" * 2000 + str(n))
    n += 1
"#,
        r#"!! MemoryError: heap limit exceeded
"#,
        5348040,
        0,
    ),
    (
        "name_hash",
        r#"del __name__
s = __name__
print(s, hash(s) == hash("builtins"))
def f():
    return __name__
print(f())
"#,
        r#"builtins True
builtins
"#,
        138,
        23,
    ),
    (
        "mutate",
        r#"def attempt(f):
    try:
        f()
        print("mutated")
    except TypeError as e:
        print("TypeError", e)
    except AttributeError as e:
        print("AttributeError", e)
attempt(lambda: type.__setattr__(ValueError, "x", 1))
attempt(lambda: type.__setattr__(int, "x", 1))
attempt(lambda: type.__delattr__(int, "bit_length"))
attempt(lambda: setattr(int, "x", 1))
attempt(lambda: object.__setattr__(int, "x", 1))
attempt(lambda: super(type, KeyError).__setattr__("x", 1))
attempt(lambda: super(type, KeyError).__delattr__("x"))
class Meta(type):
    def __setattr__(cls, name, value):
        super().__setattr__(name, value)
class B(metaclass=Meta):
    pass
B.y = 2
print(B.y, hasattr(int, "x"), hasattr(ValueError, "x"), hasattr(KeyError, "x"))
vars(int)["z"] = 1
print("z" in vars(int))
"#,
        r#"TypeError cannot set 'x' attribute of immutable type 'ValueError'
TypeError cannot set 'x' attribute of immutable type 'int'
TypeError cannot set 'bit_length' attribute of immutable type 'int'
TypeError cannot set 'x' attribute of immutable type 'int'
TypeError cannot set 'x' attribute of immutable type 'int'
TypeError cannot set 'x' attribute of immutable type 'KeyError'
TypeError cannot set 'x' attribute of immutable type 'KeyError'
2 False False False
False
"#,
        1368,
        465,
    ),
];

fn render(o: &RunOutcome) -> String {
    let mut s = o.stdout.clone();
    if let Some(e) = &o.error {
        s.push_str(&format!("!! {}: {}\n", e.type_name, e.message));
    }
    s
}

fn check(o: &RunOutcome, (name, _, out, cycles, cells): &(&str, &str, &str, u64, u64)) {
    assert_eq!(render(o), *out, "{name}: output");
    assert_eq!(o.cycles_used, *cycles, "{name}: cycles");
    assert_eq!(o.cells_used, *cells, "{name}: cells");
}

#[test]
fn outcomes_match_the_recording_on_warm_threads() {
    for _ in 0..2 {
        for p in PROGRAMS {
            check(&run_program(p.1, "p.py", &Limits::default()), p);
        }
        for p in PROGRAMS.iter().rev() {
            check(&run_program(p.1, "p.py", &Limits::default()), p);
        }
    }
}

#[test]
fn the_first_vm_of_a_thread_builds_the_same_prelude() {
    for p in PROGRAMS {
        let o = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let first = run_program_here(p.1, "p.py", &Limits::default());
                let second = run_program_here(p.1, "p.py", &Limits::default());
                (first, second)
            })
            .expect("spawn a thread")
            .join()
            .expect("the program ran");
        check(&o.0, p);
        check(&o.1, p);
    }
}
