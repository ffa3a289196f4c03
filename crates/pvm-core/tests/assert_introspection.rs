//! `CompileOptions::assert_introspection`: pytest-style assertion messages for embedders.

use pvm_core::compile::CompileOptions;
use pvm_core::{Limits, PyErrorInfo, RunOptions, run_program, run_program_with};

fn run(src: &str) -> (String, Option<PyErrorInfo>) {
    let o = run_program_with(
        src,
        "t.py",
        &Limits::default(),
        RunOptions {
            compile: CompileOptions {
                assert_introspection: true,
            },
            ..RunOptions::default()
        },
    );
    (o.stdout, o.error)
}

fn message(src: &str) -> String {
    let (_, e) = run(src);
    let e = e.expect("the assert fails");
    assert_eq!(e.type_name, "AssertionError");
    e.message
}

#[test]
fn comparisons_show_both_operands() {
    assert_eq!(message("assert 1 + 2 == 4\n"), "assert 3 == 4");
    assert_eq!(message("x = [1, 2]\nassert 3 in x\n"), "assert 3 in [1, 2]");
    assert_eq!(message("assert 'a' != 'a'\n"), "assert 'a' != 'a'");
    assert_eq!(
        message("assert None is not None\n"),
        "assert None is not None"
    );
    assert_eq!(message("assert (1, 2) < (0,)\n"), "assert (1, 2) < (0,)");
    assert_eq!(
        message("assert {'k': b'v'} == {}, 'balances differ'\n"),
        "balances differ\nassert {'k': b'v'} == {}"
    );
}

#[test]
fn other_expressions_show_their_value() {
    assert_eq!(message("ok = 0\nassert ok\n"), "assert 0");
    assert_eq!(message("assert False, 'nope'\n"), "nope\nassert False");
    assert_eq!(
        message("def f(x):\n    return x % 2\nassert f(4)\n"),
        "assert 0\n +  where 0 = f(4)"
    );
    assert_eq!(
        message("class R:\n    ok = False\nr = R()\nassert r.ok, 'failed'\n"),
        "failed\nassert False\n +  where False = r.ok"
    );
}

#[test]
fn operands_are_evaluated_once_and_passing_asserts_leave_no_trace() {
    let src = "n = []\ndef f():\n    n.append(1)\n    return len(n)\nassert f() == 1\nassert f()\nassert f() in [3], 'm'\nprint(len(n))\n";
    let (out, e) = run(src);
    assert_eq!(e, None);
    assert_eq!(out, "3\n");
    let (_, e) = run("n = []\ndef f():\n    n.append(1)\n    return len(n)\nassert f() == 2\n");
    assert_eq!(e.expect("fails").message, "assert 1 == 2");
    // inside functions, loops and with chained comparisons (not introspected, still correct)
    let (out, e) = run(
        "def g(xs):\n    for x in xs:\n        assert 0 <= x < 10, x\n    return sum(xs)\nprint(g([1, 2]))\ng([1, 20])\n",
    );
    assert_eq!(out, "3\n");
    let e = e.expect("fails");
    assert_eq!(e.message, "20\nassert False\n +  where False = 0 <= x < 10");
    assert_eq!(
        e.traceback.last().map(String::as_str),
        Some("File \"t.py\", line 3, in g")
    );
}

#[test]
fn the_failing_line_is_the_assert() {
    let (_, e) = run("x = 1\n\nassert x == 2\n");
    assert_eq!(
        e.expect("fails").traceback,
        vec!["File \"t.py\", line 3, in <module>".to_string()]
    );
}

#[test]
fn off_by_default() {
    let o = run_program("assert 1 == 2\n", "t.py", &Limits::default());
    let e = o.error.expect("fails");
    assert_eq!(e.type_name, "AssertionError");
    assert_eq!(e.message, "");
}
