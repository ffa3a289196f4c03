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

/// `(program, line)` pairs of `tests/stdlib/known_gaps.txt`.
fn known_gaps() -> Vec<(String, usize)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stdlib/known_gaps.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace();
            let file = it.next().unwrap_or_default().to_string();
            let line = it
                .next()
                .and_then(|n| n.parse().ok())
                .expect("known_gaps: line number");
            (file, line)
        })
        .collect()
}

#[test]
fn stdlib_programs_match_cpython() {
    let files = programs();
    assert!(
        files.len() >= 23,
        "expected the stdlib corpus, found {}",
        files.len()
    );
    let gaps = known_gaps();
    let mut failures = Vec::new();
    let mut checked_lines = 0;
    for py in &files {
        let src = std::fs::read_to_string(py).expect("read program");
        let expected =
            std::fs::read_to_string(py.with_extension("expected")).expect("missing .expected");
        if let Some(cp) = cpython_output(py) {
            assert_eq!(cp, expected, "{} is stale against CPython", py.display());
        }
        let name = py.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let got = render(&run_program(&src, name, &Limits::default()));
        let (g, e): (Vec<&str>, Vec<&str>) = (got.lines().collect(), expected.lines().collect());
        if g.len() != e.len() {
            failures.push(format!(
                "{name}: {} lines, CPython printed {}\n{got}",
                g.len(),
                e.len()
            ));
            continue;
        }
        for (i, (a, b)) in g.iter().zip(e.iter()).enumerate() {
            checked_lines += 1;
            let listed = gaps.iter().any(|(f, l)| f == name && *l == i + 1);
            match (a == b, listed) {
                (true, false) | (false, true) => {}
                (false, false) => failures.push(format!(
                    "{name} line {}:\n    pvm:     {a}\n    cpython: {b}",
                    i + 1
                )),
                (true, true) => failures.push(format!(
                    "{name} line {} now matches CPython: remove it from known_gaps.txt",
                    i + 1
                )),
            }
        }
    }
    assert!(checked_lines > 300, "only {checked_lines} lines compared");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn run(src: &str) -> RunOutcome {
    run_program(src, "t.py", &Limits::default())
}

/// Cycles of `prog` beyond those of the empty program.
fn cost(prog: &str) -> u64 {
    let o = run(prog);
    assert_eq!(o.error, None, "{prog}");
    o.cycles_used - run("").cycles_used
}

#[test]
fn import_costs_are_exact() {
    // `import x` = the Import instruction (1) + the import cost + storing the name (2)
    for m in [
        "abc",
        "collections",
        "dataclasses",
        "decimal",
        "enum",
        "functools",
        "hashlib",
        "itertools",
        "json",
        "math",
        "re",
        "struct",
        "typing",
    ] {
        assert_eq!(
            cost(&format!("import {m}\n")),
            1 + 100 + 2,
            "first import of {m}"
        );
        assert_eq!(
            cost(&format!("import {m}\nimport {m}\n")),
            (1 + 100 + 2) + (1 + 5 + 2),
            "cached import of {m}"
        );
        // `from m import x` = Import (1 + cost) + ImportFrom (1) + store (2) + Pop (1)
        assert_eq!(
            cost(&format!("import {m}\nfrom {m} import __name__ as n\n")),
            (1 + 100 + 2) + (1 + 5 + 1 + 2 + 1),
            "from-import of {m}"
        );
    }
    // refused: the Import instruction (1) + the 50-cycle penalty, then ImportError
    for src in [
        "import os\n",
        "import socket\n",
        "import random\n",
        "from sys import argv\n",
    ] {
        let o = run(src);
        assert_eq!(
            o.error.as_ref().map(|e| e.type_name.as_str()),
            Some("ImportError")
        );
        assert_eq!(o.cycles_used, 1 + 50, "{src}");
    }
}

#[test]
fn module_body_is_not_charged_to_the_caller() {
    // decimal's body defines hundreds of functions and classes; the caller pays a flat 100
    // like for the smallest module
    assert_eq!(cost("import decimal\n"), cost("import abc\n"));
    assert_eq!(cost("import decimal\n"), 103);
    // ... and the body does not eat into the caller's budget
    let o = run_program(
        "import decimal\nprint(decimal.Decimal('1.5') * 2)\n",
        "t.py",
        &Limits {
            cycles: 2_000,
            ..Limits::default()
        },
    );
    assert_eq!(o.error, None);
    assert_eq!(o.stdout, "3.0\n");
}

#[test]
fn from_import_forms() {
    let o = run(
        "from json import dumps, loads as ld\nimport collections as c\nfrom math import *\nfrom re import *\n\
         print(dumps(ld('[1]')), c.Counter('aab')['a'], floor(2.5), compile('a').pattern)\n",
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
    for src in [
        "import os\n",
        "import os.path\n",
        "from subprocess import run\n",
        "import _pvm_re\n",
    ] {
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
    assert!(
        e.message
            .starts_with("module 'os' is not available in the PVM")
    );
}

#[test]
fn modules_are_cached_per_invocation() {
    let o = run(
        "import json\nimport json as j2\nfrom json import dumps\nprint(json is j2, dumps is json.dumps)\n",
    );
    assert_eq!(o.error, None);
    assert_eq!(o.stdout, "True True\n");
    // module state lives as long as the invocation: a cache filled in one run is empty in
    // the next
    let src =
        "import functools\nprint(functools.lru_cache(maxsize=None)(abs).cache_info().currsize)\n";
    assert_eq!(run(src).stdout, "0\n");
    assert_eq!(run(src).stdout, "0\n");
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
    assert_eq!(
        o.error.map(|e| e.type_name),
        Some("OutOfCycles".to_string())
    );
    assert_eq!(o.cycles_used, 2_000_000);
}

#[test]
fn hash_costs_follow_the_spec() {
    // the native digest of n bytes, called directly: everything but the hash cost is the
    // same for every n
    let cost = |algo: &str, n: usize| {
        let o = run(&format!(
            "import hashlib\nd = bytes({n})\nhashlib._native.digest('{algo}', d, 32, b'', b'', b'')\n"
        ));
        assert_eq!(o.error, None);
        o.cycles_used as i64
    };
    let base = cost("sha256", 0);
    // SHA-256: 500 + 8 per started 64-byte block
    assert_eq!(cost("sha256", 1) - base, 8);
    assert_eq!(cost("sha256", 640) - base, 80);
    assert_eq!(cost("sha256", 641) - base, 88);
    // Keccak-256 / SHA3-256: 6 per started 32 bytes
    assert_eq!(cost("keccak_256", 640) - base, 120 - 500);
    assert_eq!(cost("sha3_256", 33) - base, 12 - 500);
    // BLAKE2b: 500 + 8 per started 128-byte block
    assert_eq!(cost("blake2b", 640) - base, 40);
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
            heap_bytes: 32 * 1024,
            ..Limits::default()
        },
    );
    assert_eq!(
        o.error.map(|e| e.type_name),
        Some("MemoryError".to_string())
    );
}

#[test]
fn unsupported_regex_features_name_themselves() {
    let o = run(
        "import re\nfor p, f in [(r'\\N{DIGIT ONE}', 0), (b'a', re.L)]:\n    try:\n        re.compile(p, f)\n    except re.error as e:\n        print(e)\n",
    );
    assert_eq!(o.error, None);
    assert_eq!(
        o.stdout,
        "\\N{...} named characters are not supported in the PVM at position 0\n\
         the LOCALE flag is not supported in the PVM (it depends on the host locale)\n"
    );
}

#[test]
fn stdlib_modules_are_deterministic() {
    let src = "import json, re, hashlib, decimal, collections\n\
               c = collections.Counter(re.findall(r'\\w+', 'a b a c b a'))\n\
               print(json.dumps(c, sort_keys=True), hashlib.sha256(json.dumps(c).encode()).hexdigest()[:16],\n\
               decimal.Decimal(1) / 7)\n";
    let a = run(src);
    let b = run(src);
    assert_eq!(a.error, None);
    assert_eq!(a, b);
}
