//! The interpreter's fast paths (float and str comparisons, in-place float arithmetic, list /
//! tuple / str subscripts, range / list / tuple / str iteration, tuple unpacking, `x ** 0.5`)
//! must change neither results nor cycle counts: cycle counts are consensus. The program in
//! `tests/perf/fast_paths.py` is checked against CPython 3.11's output and against the cycle
//! count recorded with the interpreter before those fast paths existed.

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
    let src = include_str!("perf/fused_jumps.py");
    let run = |cycles: u64| {
        let limits = pvm_core::Limits {
            cycles,
            ..pvm_core::Limits::default()
        };
        pvm_core::run_program(src, "fused_jumps.py", &limits)
    };
    for (k, &t) in FUSED_THRESHOLDS.iter().enumerate() {
        let at = run(t);
        let before = run(t - 1);
        assert_eq!(at.stdout.lines().count(), k + 1, "budget {t}");
        assert_eq!(before.stdout.lines().count(), k, "budget {}", t - 1);
        let e = before.error.expect("out of cycles");
        assert_eq!(e.type_name, "OutOfCycles");
        assert_eq!(before.cycles_used, t - 1);
    }
    let full = run(10_000_000);
    assert!(full.error.is_none(), "{:?}", full.error);
    assert_eq!(full.stdout.lines().count(), 49);
    assert_eq!(full.cycles_used, FUSED_CYCLES);
}
