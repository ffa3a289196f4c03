//! Standard-library suite: every `tests/stdlib/<name>.py` imports whitelisted modules and
//! must print exactly `<name>.expected`, which is CPython 3.11's output of the same program
//! (recorded by `tests/gen/gen_stdlib_expected.py`; a final `!! Type: message` line when the
//! program ends with an uncaught exception). Plus exact import costs and the import errors.
//!
//! With `PVM_CONFIRM_CPYTHON=1` and a `python3` 3.11 on PATH, each expectation is first
//! re-checked against CPython.

use pvm_core::{Limits, RunOutcome, run_program};
use std::path::{Path, PathBuf};

fn render(o: &RunOutcome) -> String {
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

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stdlib");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/stdlib")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    v.sort();
    v
}

fn cpython_output(py: &Path) -> Option<String> {
    if std::env::var("PVM_CONFIRM_CPYTHON").ok().as_deref() != Some("1") {
        return None;
    }
    let script = "import sys, runpy\ntry:\n    runpy.run_path(sys.argv[1], run_name='__main__')\nexcept BaseException as e:\n    sys.stdout.flush()\n    m = str(e)\n    print(f'!! {type(e).__name__}: {m}' if m else f'!! {type(e).__name__}')\n";
    let o = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(py)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn stdlib_programs_match_cpython() {
    let files = programs();
    assert!(files.len() >= 3, "expected the stdlib corpus, found {}", files.len());
    let mut failures = Vec::new();
    for py in &files {
        let src = std::fs::read_to_string(py).expect("read program");
        let expected =
            std::fs::read_to_string(py.with_extension("expected")).expect("missing .expected");
        if let Some(cp) = cpython_output(py) {
            assert_eq!(cp, expected, "{} is stale against CPython", py.display());
        }
        let name = py.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let got = render(&run_program(&src, name, &Limits::default()));
        if got != expected {
            let diff: Vec<String> = got
                .lines()
                .zip(expected.lines())
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .take(3)
                .map(|(i, (a, b))| format!("  line {}:\n    pvm:     {a}\n    cpython: {b}", i + 1))
                .collect();
            failures.push(format!(
                "{name}: {} lines vs {} expected\n{}",
                got.lines().count(),
                expected.lines().count(),
                diff.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} programs differ:\n{}", failures.len(), files.len(), failures.join("\n"));
}

fn run(src: &str) -> RunOutcome {
    run_program(src, "t.py", &Limits::default())
}

/// Cycles of `prog` minus cycles of `base` (same program without the import statements).
fn delta(prog: &str, base: &str) -> u64 {
    let a = run(prog);
    let b = run(base);
    assert_eq!(a.error, None, "{prog}");
    assert_eq!(b.error, None, "{base}");
    a.cycles_used - b.cycles_used
}

#[test]
fn import_costs_are_exact() {
    // An `import x` statement is the Import instruction (1) + the import cost + storing the
    // name (2); `pass` costs 1, so the deltas below are import cost + 2.
    for m in ["math", "json", "re", "hashlib", "collections", "decimal", "enum", "abc"] {
        assert_eq!(delta(&format!("import {m}\n"), "pass\n"), 100 + 2, "first import of {m}");
        assert_eq!(
            delta(&format!("import {m}\nimport {m}\n"), &format!("import {m}\npass\n")),
            5 + 2,
            "cached import of {m}"
        );
    }
    // refused: the Import instruction (1) + the 50-cycle penalty, then ImportError
    let o = run("import os\n");
    assert_eq!(o.error.as_ref().map(|e| e.type_name.as_str()), Some("ImportError"));
    assert_eq!(o.cycles_used, 1 + 50);
    let o = run("import socket\n");
    assert_eq!(o.cycles_used, 1 + 50);
    // first import alone: 1 + 100 + 2
    assert_eq!(run("import json\n").cycles_used, 1 + 100 + 2);
    assert_eq!(run("import json\nimport json\n").cycles_used, 2 * 3 + 100 + 5);
}

#[test]
fn module_body_is_not_charged_to_the_caller() {
    // decimal's body defines hundreds of functions; the caller still pays a flat 100
    let small = run("import abc\n").cycles_used;
    let big = run("import decimal\n").cycles_used;
    assert_eq!(small, big);
    assert_eq!(big, 1 + 100 + 2);
}

#[test]
fn from_import_forms() {
    let o = run(
        "from json import dumps, loads as L\nimport collections as c\nfrom math import *\nfrom re import *\n\
         print(dumps(L('[1]')), c.Counter('aab')['a'], floor(2.5), compile('a').pattern)\n",
    );
    assert_eq!(o.error, None);
    assert_eq!(o.stdout, "[1] 2 2 a\n");
    let o = run("from json import nothing\n");
    let e = o.error.expect("error");
    assert_eq!(e.type_name, "ImportError");
    assert_eq!(e.message, "cannot import name 'nothing' from 'json'");
    // private names are not exported by `*`
    let o = run("from re import *\nprint(_native)\n");
    assert_eq!(o.error.map(|e| e.type_name), Some("NameError".to_string()));
}

#[test]
fn refused_import_names_the_whitelist() {
    for src in ["import os\n", "import os.path\n", "from subprocess import run\n", "import _pvm_re\n"] {
        let e = run(src).error.expect("error");
        assert_eq!(e.type_name, "ImportError", "{src}");
        assert!(
            e.message.ends_with(
                "is not available in the PVM (importable modules: abc, collections, cowboy_sdk, \
                 dataclasses, decimal, enum, functools, hashlib, itertools, json, math, pvm_host, \
                 re, struct, typing)"
            ),
            "{src}: {}",
            e.message
        );
    }
    let e = run("import os\n").error.expect("error");
    assert!(e.message.starts_with("module 'os' is not available in the PVM"));
}

#[test]
fn modules_are_cached_per_invocation() {
    let o = run("import json\nimport json as j2\nprint(json is j2)\njson.x = 1\nimport json\nprint(json.x)\n");
    assert_eq!(o.error, None);
    assert_eq!(o.stdout, "True\n1\n");
    // the cache does not outlive the invocation
    let o = run("import json\nprint(hasattr(json, 'x'))\n");
    assert_eq!(o.stdout, "False\n");
}

#[test]
fn regex_cost_grows_with_the_work() {
    let small = run("import re\nre.search('a+b', 'a' * 10 + 'b')\n").cycles_used;
    let big = run("import re\nre.search('a+b', 'a' * 1000 + 'b')\n").cycles_used;
    assert!(big > small + 1000, "{small} {big}");
    // catastrophic backtracking runs out of cycles instead of hanging
    let o = run_program(
        "import re\nre.match('(a+)+$', 'a' * 40 + 'b')\n",
        "t.py",
        &Limits {
            cycles: 2_000_000,
            ..Limits::default()
        },
    );
    assert_eq!(o.error.map(|e| e.type_name), Some("OutOfCycles".to_string()));
    assert_eq!(o.cycles_used, 2_000_000);
}

#[test]
fn hash_costs_follow_the_spec() {
    // the digest call's cost difference between inputs of 0 and 640 bytes is 8 per
    // 64-byte block for SHA-256 and 6 per 32 bytes for Keccak
    let cost = |algo: &str, n: usize| {
        let o = run(&format!(
            "import hashlib\nd = b'x' * {n}\nh = hashlib.{algo}(d)\nh.digest()\n"
        ));
        assert_eq!(o.error, None);
        o.cycles_used
    };
    assert_eq!(cost("sha256", 640) - cost("sha256", 0), 10 * 8);
    assert_eq!(cost("keccak_256", 640) - cost("keccak_256", 0), 20 * 6);
    assert_eq!(cost("sha3_256", 640) - cost("sha3_256", 0), 20 * 6);
    assert_eq!(cost("blake2b", 640) - cost("blake2b", 0), 5 * 8);
}

#[test]
fn keccak_256_is_ethereum_keccak() {
    let o = run(
        "import hashlib\nprint(hashlib.keccak_256(b'').hexdigest())\nprint(hashlib.new('keccak_256', b'abc').hexdigest())\n",
    );
    assert_eq!(o.error, None);
    assert_eq!(
        o.stdout,
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470\n\
         4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45\n"
    );
}

#[test]
fn module_heap_counts_against_the_cap() {
    let o = run_program(
        "import decimal\n",
        "t.py",
        &Limits {
            heap_bytes: 64 * 1024,
            ..Limits::default()
        },
    );
    assert_eq!(o.error.map(|e| e.type_name), Some("MemoryError".to_string()));
}
