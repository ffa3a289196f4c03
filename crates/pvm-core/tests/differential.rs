//! Differential suite: every `tests/programs/**/<name>.py` must print exactly its
//! `<name>.expected` (CPython 3.11 stdout, plus a final `!! Type: message` line when the
//! program ends with an uncaught exception).
//!
//! `tests/known_gaps.txt` lists programs that do not match yet (one relative path per line,
//! then a reason). The test fails when a program off the list mismatches, and also when a
//! listed program now passes, so the list only shrinks.
//!
//! With `PVM_CONFIRM_CPYTHON=1` and a `python3` 3.11 on PATH, every recorded expectation is
//! first re-checked against CPython.

use pvm_core::{Limits, RunOutcome, run_program};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "py") && p.with_extension("expected").exists()
        {
            out.push(p);
        }
    }
}

/// Render an outcome in the corpus format.
pub fn render(o: &RunOutcome) -> String {
    let mut s = o.stdout.clone();
    if let Some(e) = &o.error {
        if !s.is_empty() && !s.ends_with('\n') {
            s.push('\n');
        }
        if e.message.is_empty() {
            s.push_str(&format!("!! {}\n", e.type_name));
        } else {
            s.push_str(&format!("!! {}: {}\n", e.type_name, e.message));
        }
    }
    s
}

fn cpython_311() -> bool {
    std::env::var("PVM_CONFIRM_CPYTHON").is_ok_and(|v| v == "1")
        && std::process::Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).starts_with("Python 3.11"))
}

fn cpython_output(py: &Path) -> String {
    let script = "import sys, runpy\ntry:\n    runpy.run_path(sys.argv[1], run_name='__main__')\nexcept BaseException as e:\n    sys.stdout.flush()\n    m = str(e)\n    print(f'!! {type(e).__name__}: {m}' if m else f'!! {type(e).__name__}')\n";
    let o = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(py)
        .output()
        .expect("python3");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn differential() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    collect(&root.join("programs"), &mut files);
    let gaps_text = std::fs::read_to_string(root.join("known_gaps.txt")).unwrap_or_default();
    let mut gaps: BTreeMap<String, String> = BTreeMap::new();
    for line in gaps_text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (p, why) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        gaps.insert(p.to_string(), why.trim().to_string());
    }
    let confirm = cpython_311();
    let mut passed = 0;
    let mut known = 0;
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(root.join("programs"))
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        let src = std::fs::read_to_string(f).expect("read program");
        let expected =
            std::fs::read_to_string(f.with_extension("expected")).expect("read expected");
        if confirm {
            let cp = cpython_output(f);
            assert_eq!(
                cp, expected,
                "recorded expectation of {rel} differs from CPython 3.11"
            );
        }
        let out = run_program(&src, &rel, &Limits::default());
        let got = render(&out);
        let ok = got == expected;
        match (ok, gaps.contains_key(&rel)) {
            (true, false) => passed += 1,
            (true, true) => fixed.push(rel.clone()),
            (false, true) => known += 1,
            (false, false) => {
                let mut diff = String::new();
                for (i, (a, b)) in got.lines().zip(expected.lines()).enumerate() {
                    if a != b {
                        diff = format!("line {}: got {:?} expected {:?}", i + 1, a, b);
                        break;
                    }
                }
                if diff.is_empty() {
                    diff = format!(
                        "got {} lines, expected {} lines",
                        got.lines().count(),
                        expected.lines().count()
                    );
                }
                failures.push(format!("{rel}: {diff}"));
            }
        }
    }
    let stale: Vec<&String> = gaps
        .keys()
        .filter(|g| !files.iter().any(|f| f.ends_with(g.as_str())))
        .collect();
    println!(
        "differential: {passed} passed, {known} known gaps, {} new failures, {} fixed gaps",
        failures.len(),
        fixed.len()
    );
    for f in &failures {
        println!("FAIL {f}");
    }
    for f in &fixed {
        println!("FIXED (remove from known_gaps.txt) {f}");
    }
    assert!(
        stale.is_empty(),
        "known_gaps.txt lists missing programs: {stale:?}"
    );
    assert!(
        failures.is_empty() && fixed.is_empty(),
        "differential suite: {} failures, {} fixed gaps",
        failures.len(),
        fixed.len()
    );
}
