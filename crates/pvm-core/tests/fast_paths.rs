//! The interpreter's fast paths (float and str comparisons, in-place float arithmetic, list /
//! tuple / str subscripts, range / list / tuple / str iteration, tuple unpacking, `x ** 0.5`)
//! must change neither results nor cycle counts: cycle counts are consensus. The program in
//! `tests/perf/fast_paths.py` is checked against CPython 3.11's output and against the cycle
//! count recorded with the interpreter before those fast paths existed;
//! `tests/perf/frame_calls.py` does the same for the calls made by pushing a frame
//! (`__init__`, binary dunder methods, property getters), and `tests/perf/class_cache.py` for
//! the cached class attribute lookups (per-instruction and VM-wide caches).

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
