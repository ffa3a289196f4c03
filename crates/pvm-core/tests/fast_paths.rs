//! The interpreter's fast paths (float and str comparisons, in-place float arithmetic, list /
//! tuple / str subscripts, range / list / tuple / str iteration, tuple unpacking, `x ** 0.5`)
//! must change neither results nor cycle counts: cycle counts are consensus. The program in
//! `tests/perf/fast_paths.py` is checked against CPython 3.11's output and against the cycle
//! count recorded with the interpreter before those fast paths existed;
//! `tests/perf/frame_calls.py` does the same for the calls made by pushing a frame
//! (`__init__`, binary dunder methods, property getters), and `tests/perf/class_cache.py` for
//! the cached class attribute lookups (per-instruction and VM-wide caches), and
//! `tests/perf/data_paths.py` for the data-structure fast paths (sorting and ordering,
//! built-in method and function calls, str / int / dict operations), and
//! `tests/perf/superinstr.py` for the fused `LOAD_FAST` + `LOAD_ATTR` / `STORE_ATTR` pairs and
//! the two-way class lookup caches (checked at every cycle budget).

/// Output of `python3 tests/perf/fast_paths.py` (CPython 3.11.7).
const EXPECTED: &str = "38.301136885634975 14 [0, 1, 4, 9, 16, 25, 36, 98] 128 False False True True True True o\n\
1.4142135623730951 1e+150 2.2227587494850775e-162 0.5 0.0\n";

/// Cycles charged for the program by the interpreter without the fast paths.
const CYCLES: u64 = 1733;

#[test]
fn fast_paths_keep_results_and_cycles() {
    let src = include_str!("perf/fast_paths.py");
    for _ in 0..2 {
        let out = pvm_core::run_program(src, "fast_paths.py", &pvm_core::Limits::default());
        assert!(out.error.is_none(), "{:?}", out.error);
        assert_eq!(out.stdout, EXPECTED);
        assert_eq!(out.cycles_used, CYCLES);
    }
}

/// The smallest cycle budgets under which `tests/perf/fused_jumps.py` prints its first 1..=5
/// lines, recorded with the interpreter before comparisons and jumps were fused, and its
/// total cost.
const FUSED_THRESHOLDS: [u64; 5] = [56, 114, 172, 230, 288];
const FUSED_CYCLES: u64 = 2643;

#[test]
fn fused_compare_jump_runs_out_of_cycles_at_the_same_instruction() {
    let full = run_with_stopping_points(
        include_str!("perf/fused_jumps.py"),
        "fused_jumps.py",
        &FUSED_THRESHOLDS,
    );
    assert!(full.error.is_none(), "{:?}", full.error);
    assert_eq!(full.stdout.lines().count(), 49);
    assert_eq!(full.cycles_used, FUSED_CYCLES);
}

/// Output of `python3 tests/perf/frame_calls.py` (CPython 3.11.7).
const FRAME_CALLS_EXPECTED: &str = "170 380 173300 5\n\
TypeError unsupported operand type(s) for +: 'V' and 'int'\n\
TypeError unsupported operand type(s) for -: 'W' and 'W'\n\
TypeError __init__() should return None, not 'int'\n\
(1, 2, 3) (1, 2, 9) (4, 5, 3)\n\
0\n\
ValueError boom 1\n\
ValueError boom 2\n\
AttributeError 'V' object has no attribute 'z'\n\
42 210\n\
1.189207115002721 8.0 3.0 0.5 -0.5 0.5\n\
ZeroDivisionError 0.0 cannot be raised to a negative power\n\
ZeroDivisionError float floor division by zero\n\
242 True False\n";

/// Total cycles of `tests/perf/frame_calls.py` and the smallest budgets under which it prints
/// its first 1..=14 lines, recorded with the interpreter before `__init__`, binary dunder
/// methods and property getters were called through the frame stack (and before the
/// `__slots__` store, float `** // %` and `is None` fast paths existed).
const FRAME_CALLS_CYCLES: u64 = 6454;
const FRAME_CALLS_THRESHOLDS: [u64; 14] = [
    4470, 4578, 4752, 4856, 5041, 5147, 5302, 5453, 5530, 6020, 6080, 6149, 6221, 6451,
];

#[test]
fn frame_pushed_calls_keep_results_cycles_and_stopping_points() {
    let full = run_with_stopping_points(
        include_str!("perf/frame_calls.py"),
        "frame_calls.py",
        &FRAME_CALLS_THRESHOLDS,
    );
    assert!(full.error.is_none(), "{:?}", full.error);
    assert_eq!(full.stdout, FRAME_CALLS_EXPECTED);
    assert_eq!(full.cycles_used, FRAME_CALLS_CYCLES);
}

/// Output of `python3 tests/perf/class_cache.py` (CPython 3.11.7).
const CLASS_CACHE_EXPECTED: &str = "69 bbcbbc\n\
198 bbcbbc\n\
102 bbcbbc\n\
3108 bbcbbc\n\
-63 bbcbbc\n\
bbcbbc\n\
bbsbbs\n\
[0, 1, 2]\n\
[0, 100, 200]\n\
[0, 100, 200]\n\
120\n\
AttributeError 'S' object has no attribute 'z'\n\
24 ['a', 'b', 'c', 'a', 'b', 'a', 'b', 'c', 'a', 'b']\n\
66 ['a', 'b', 'c', 'a', 'b', 'a', 'b', 'c', 'a', 'b', 'b=2', 'b=1', 'b=2', 'b=1']\n\
[4, 3, 16, 5]\n\
[4, 5, 16, 5]\n\
[4, 99, 16, 99]\n\
[4, -3, 16, -5]\n\
AttributeError\n\
[3, 8, 7, 16]\n\
[0, 8, 0, 16]\n\
[0, 0, 0, 0]\n";

/// Total cycles of `tests/perf/class_cache.py` and the smallest budgets under which it prints
/// its first 1..=22 lines, recorded with the interpreter before the VM-wide class lookup cache
/// (polymorphic call sites, `__init__` / `__new__` / `__setattr__` lookups) existed.
const CLASS_CACHE_CYCLES: u64 = 12020;
const CLASS_CACHE_THRESHOLDS: [u64; 22] = [
    1109, 1643, 2185, 2725, 3260, 3442, 3628, 3953, 4268, 4710, 5980, 6089, 7228, 8069, 8801, 8951,
    9157, 9373, 9432, 10501, 11272, 12017,
];

/// Cached class lookups (inline and VM-wide) give what the uncached lookup gives through every
/// kind of staleness: methods replaced or deleted on a class or a base class, instance
/// attributes shadowing methods, class attributes added / removed along the MRO, `__init__` /
/// `__new__` / `__setattr__` assigned later, `__slots__` classes, properties and descriptors
/// added or replaced at a polymorphic site, dunders replaced at a binary-operator site.
#[test]
fn class_cache_keeps_results_cycles_and_stopping_points() {
    let full = run_with_stopping_points(
        include_str!("perf/class_cache.py"),
        "class_cache.py",
        &CLASS_CACHE_THRESHOLDS,
    );
    assert!(full.error.is_none(), "{:?}", full.error);
    assert_eq!(full.stdout, CLASS_CACHE_EXPECTED);
    assert_eq!(full.cycles_used, CLASS_CACHE_CYCLES);
}

/// Output of `python3 tests/perf/data_paths.py` (CPython 3.11.7).
const DATA_PATHS_EXPECTED: &str = "['', 'a_fairly_long_string_of_text_0001', 'a_fairly_long_string_of_text_0002', 'alpha', 'alpha', 'bravo', 'charlie', 'delta'] ['delta', 'charlie', 'bravo', 'alpha', 'alpha', 'a_fairly_long_string_of_text_0002', 'a_fairly_long_string_of_text_0001', '']\n\
[(1, 'a_fairly_long_string_of_text_0001'), (1, 'a_fairly_long_string_of_text_0001'), (1, 'a_fairly_long_string_of_text_0002'), (2, 'b'), (3, 'a'), (3, 'c')] [(3, 'c'), (2, 'b'), (1, 'a_fairly_long_string_of_text_0002'), (1, 'a_fairly_long_string_of_text_0001'), (1, 'a_fairly_long_string_of_text_0001'), (3, 'a')]\n\
[-7, -2, 0, 2, 3, 5, 5, 9, 11] [9, 3, 0, -2, 11, 5, 5, 2, -7] -7 11\n\
[-1.0, 0.0, -0.0, 2.5, 3.25, 1e+300] [(-1.0, 1), (0.0, 1), (-0.0, 1), (2.5, 1), (3.25, 1), (1e+300, 1)] False False False\n\
[-1, True, 2.5, 3, 7.0] 7.0 (0, 5)\n\
TypeError '<' not supported between instances of 'str' and 'int'\n\
TypeError '<' not supported between instances of 'int' and 'str'\n\
[((1, 'z'), 2), ((2, 'a'), 3), ((2, 'b'), 1)] (3, 'c')\n\
True False True True True\n\
True True True False\n\
True True False True False\n\
True True True True\n\
a1_3f5a7i9r11l13y15_17l19o21n23\n\
{'delta': 2, 'alpha': 3, 'a_fairly_long_string_of_text_0002': 2, 'charlie': 1, 'a_fairly_long_string_of_text_0001': 1, 'bravo': 1, '': 1} None 3 a_fairly_long_string_of_text_0002\n\
TypeError unhashable type: 'list'\n\
True True True 8\n\
TypeError object of type 'int' has no len()\n\
TypeError isinstance() arg 2 must be a type, a tuple of types, or a union\n\
123 -45 7 8 1000 12 999999999999999999 9999999999999999999 0\n\
ValueError invalid literal for int() with base 10: '12a'\n\
435 000 airly_long_string_of_text_0001 _000 aallgtnott0 éllo w\n\
(True, True, False, True, False) (False, False, False, True, False) (False, True, True, True, False) (False, True, False, False, False) 3 True True\n\
a,a_fairly_long_string_of_text_0001,b xy  100\n\
TypeError sequence item 1: expected str instance, int found\n\
TypeError sequence item 1: expected str instance, NoneType found\n\
[('delta', 0, 7), ('alpha', 1, 8), ('a_fairly_long_string_of_text_0002', 2, 9)] [] [(5, 'a'), (-2, 'b')]\n\
(1, 4) (2, 5) [] []\n\
2 3 -3 3 -4 -4 2 7 5 -5 40 0 -1\n\
27 18446744073709551616 9223372036854775808 0 13835058055282163712\n\
ZeroDivisionError integer division or modulo by zero\n\
ZeroDivisionError integer modulo by zero\n\
ValueError negative shift count\n\
ValueError negative shift count\n\
506 [11, 11]\n";

/// Total cycles of `tests/perf/data_paths.py` and the smallest budgets under which it prints
/// its first 1..=34 lines, recorded with the interpreter before the fast paths for sorting
/// and `min`/`max` keys, str and tuple ordering, `is` with a bool, `in` on strs, `list.append`,
/// `dict.get`, `len`/`isinstance`, `int(str)`, int `// % & | ^ << >>`, `sep.join` of a list or
/// tuple, `zip` of sequences, str slices, module-level stores and `s[i] == "c"` existed (every
/// budget from 1 to the total gave identical output, error and cycles with both interpreters).
const DATA_PATHS_CYCLES: u64 = 9627;
const DATA_PATHS_THRESHOLDS: [u64; 34] = [
    281, 763, 1231, 1551, 1719, 1822, 1932, 2223, 2287, 2351, 2405, 2464, 4235, 4941, 5028, 5165,
    5250, 5350, 5667, 5758, 6793, 7914, 8115, 8210, 8311, 8578, 8739, 8815, 8951, 9024, 9101, 9178,
    9255, 9624,
];

#[test]
fn data_fast_paths_keep_results_cycles_and_stopping_points() {
    let full = run_with_stopping_points(
        include_str!("perf/data_paths.py"),
        "data_paths.py",
        &DATA_PATHS_THRESHOLDS,
    );
    assert!(full.error.is_none(), "{:?}", full.error);
    assert_eq!(full.stdout, DATA_PATHS_EXPECTED);
    assert_eq!(full.cycles_used, DATA_PATHS_CYCLES);
}

/// Output of `python3 tests/perf/superinstr.py` (CPython 3.11.7).
const SUPERINSTR_EXPECTED: &str = "get 9\n\
bump 4\n\
bump 5\n\
tag cls\n\
missing 'Plain' object has no attribute 'nope'\n\
slot 4\n\
slots 'Slotted' object has no attribute 'z'\n\
unbound cannot access local variable 'del_me' where it is not associated with a value\n\
two [3, 8, 27, 32]\n\
three [3, 8, 27, 32, -5]\n\
hits [2, 2, 2, 2, 0]\n\
prop [3, 20000, 27, 20000, -5]\n\
unprop [3, 8, 27, 32, -5]\n\
repl [1000, 8, 3000, 32, -5]\n\
back [3, 8, 27, 32, -5]\n\
ga [1, 'ga:s', 3, 'ga:s', 5]\n\
sa [3, 8, 27, 32, -5]\n\
sa [60, 7, 60, 7, 0]\n\
class other\n\
exc 7\n\
n 1\n\
n 2\n\
n 3\n\
n 4\n\
n 5\n\
n 6\n\
count 6\n\
late 'Plain' object has no attribute 'zzz'\n\
arith 1 -1 0.5 4611686018427387904\n\
arith 2 0 1.5 9223372036854775808\n\
arith 3 2 4.0 18446744073709551616\n\
arith 4 5 8.75 36893488147419103232\n\
ret (5, 8.75)\n\
mixed (9, 4, 7, 2)\n\
mixed (9.5, 4, 7.5, 2)\n\
mixed abcd\n\
mixed can only concatenate str (not \"int\") to str\n\
zero integer modulo by zero\n\
unb 10\n\
unb cannot access local variable 'z' where it is not associated with a value\n\
big 22 True\n\
big 32 False\n\
consts 32\n";

/// Total cycles of `tests/perf/superinstr.py` and the smallest budgets under which it prints
/// its first 1..=43 lines, recorded with the interpreter before `LOAD_FAST` was fused with a
/// following `LOAD_ATTR`, `STORE_ATTR`, `LOAD_FAST`, `BINARY_OP` or `INPLACE_OP` (and
/// `LOAD_CONST` with an operator or a comparison), and before class lookups had a second
/// inline-cache way.
const SUPERINSTR_CYCLES: u64 = 6816;
const SUPERINSTR_THRESHOLDS: [u64; 43] = [
    710, 782, 854, 901, 995, 1089, 1184, 1352, 1839, 2222, 2348, 2750, 3071, 3349, 3670, 3848,
    4266, 4392, 4689, 4860, 5070, 5110, 5150, 5190, 5230, 5270, 5314, 5468, 5586, 5661, 5737, 5814,
    5864, 5954, 6033, 6110, 6207, 6318, 6402, 6508, 6713, 6768, 6810,
];

/// Superinstructions (`x.name`, `x.name = v`, `x <op> y`, `x <op> 1`, `x, y`, `x is None`,
/// `x == "c"`, `i < 3`) and two-way class caches: same output and cycles, and at *every*
/// budget below the total the run stops with `OutOfCycles` after exactly that many cycles
/// having printed exactly the lines whose recorded threshold it reaches (so no budget stops at
/// a different instruction in a way output can show).
#[test]
fn superinstructions_keep_results_cycles_and_every_stopping_point() {
    let src = include_str!("perf/superinstr.py");
    let full = run_with_stopping_points(src, "superinstr.py", &SUPERINSTR_THRESHOLDS);
    assert!(full.error.is_none(), "{:?}", full.error);
    assert_eq!(full.stdout, SUPERINSTR_EXPECTED);
    assert_eq!(full.cycles_used, SUPERINSTR_CYCLES);
    let lines: Vec<&str> = SUPERINSTR_EXPECTED.split_inclusive('\n').collect();
    for budget in 1..SUPERINSTR_CYCLES {
        let limits = pvm_core::Limits {
            cycles: budget,
            ..pvm_core::Limits::default()
        };
        let out = pvm_core::run_program(src, "superinstr.py", &limits);
        let k = SUPERINSTR_THRESHOLDS
            .iter()
            .filter(|&&t| t <= budget)
            .count();
        assert_eq!(out.stdout, lines[..k].concat(), "budget {budget}");
        let e = out.error.expect("out of cycles");
        assert_eq!(e.type_name, "OutOfCycles", "budget {budget}");
        assert_eq!(out.cycles_used, budget);
    }
}

/// An error raised by the second instruction of a fused pair reports the line of that
/// instruction (here: `self.b` on line 7 and `self.z = 1` on line 13 of the program, each
/// after a fused pair that succeeded on the line before), as CPython does.
#[test]
fn superinstruction_errors_report_their_own_line() {
    let src = "class A:\n    __slots__ = (\"a\",)\n\n    def __init__(self):\n        self.a = 1\n\n    def f(self):\n        x = self.a\n        return self.b + x\n\n    def g(self):\n        self.a = 2\n        self.z = 1\n\n\nA().g() if 0 else None\n";
    let run = |tail: &str| {
        let src = format!("{src}{tail}");
        pvm_core::run_program(&src, "tb.py", &pvm_core::Limits::default())
    };
    let e = run("A().f()\n").error.expect("fails");
    assert_eq!(e.type_name, "AttributeError");
    assert_eq!(e.message, "'A' object has no attribute 'b'");
    assert_eq!(
        e.traceback,
        vec![
            "File \"tb.py\", line 17, in <module>".to_string(),
            "File \"tb.py\", line 9, in f".to_string()
        ]
    );
    let e = run("A().g()\n").error.expect("fails");
    assert_eq!(e.type_name, "AttributeError");
    assert_eq!(e.message, "'A' object has no attribute 'z'");
    assert_eq!(
        e.traceback,
        vec![
            "File \"tb.py\", line 17, in <module>".to_string(),
            "File \"tb.py\", line 13, in g".to_string()
        ]
    );
}

/// Runs `src` with budget `t` and `t - 1` for each threshold `t` (the budget at which its
/// k-th output line, counting from 1, first appears): with `t` the line is printed, with
/// `t - 1` the program stops with `OutOfCycles` after exactly `t - 1` cycles. Returns the run
/// with an ample budget.
fn run_with_stopping_points(src: &str, filename: &str, thresholds: &[u64]) -> pvm_core::RunOutcome {
    let run = |cycles: u64| {
        let limits = pvm_core::Limits {
            cycles,
            ..pvm_core::Limits::default()
        };
        pvm_core::run_program(src, filename, &limits)
    };
    for (k, &t) in thresholds.iter().enumerate() {
        let at = run(t);
        let before = run(t - 1);
        assert_eq!(at.stdout.lines().count(), k + 1, "budget {t}");
        assert_eq!(before.stdout.lines().count(), k, "budget {}", t - 1);
        let e = before.error.expect("out of cycles");
        assert_eq!(e.type_name, "OutOfCycles");
        assert_eq!(before.cycles_used, t - 1);
    }
    run(10_000_000)
}
