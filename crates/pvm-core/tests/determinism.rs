//! Determinism: running the same programs repeatedly — on fresh VMs, interleaved with other
//! programs, on different threads — gives byte-identical output and identical cycle counts.

use pvm_core::{Limits, RunOutcome, run_program};
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for sub in ["programs", "hostile"] {
        let mut stack = vec![root.join(sub)];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "py") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

fn run(p: &Path) -> RunOutcome {
    let src = std::fs::read_to_string(p).expect("read");
    run_program(
        &src,
        "prog.py",
        &Limits {
            cycles: 3_000_000,
            ..Limits::default()
        },
    )
}

#[test]
fn same_program_same_outcome() {
    let files = programs();
    assert!(!files.is_empty());
    let first: Vec<RunOutcome> = files.iter().map(|p| run(p)).collect();
    // Second pass in reverse order (different allocation history / id counters per run).
    for (p, a) in files.iter().zip(first.iter()).rev() {
        let b = run(p);
        assert_eq!(a, &b, "non-deterministic outcome for {}", p.display());
    }
    // Third pass on parallel threads.
    let chunks: Vec<Vec<(PathBuf, RunOutcome)>> = files
        .iter()
        .cloned()
        .zip(first.iter().cloned())
        .collect::<Vec<_>>()
        .chunks(files.len().div_ceil(2))
        .map(|c| c.to_vec())
        .collect();
    let handles: Vec<_> = chunks
        .into_iter()
        .map(|c| {
            std::thread::spawn(move || {
                for (p, a) in c {
                    let b = run(&p);
                    assert_eq!(a, b, "non-deterministic outcome for {}", p.display());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread");
    }
}
