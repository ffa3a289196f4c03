//! Shared replay harness for the CPython-generated case tables in `tests/data/`.
#![allow(dead_code)]

use pvm_text::{ErrorKind, TextError};
use serde_json::{Value, json};

/// Outcome of one case: a JSON result or (exception class, message).
pub type Outcome = Result<Value, (String, String)>;

/// Python exception class name for an error kind.
pub fn kind_name(k: ErrorKind) -> &'static str {
    match k {
        ErrorKind::Value => "ValueError",
        ErrorKind::Type => "TypeError",
        ErrorKind::Overflow => "OverflowError",
        ErrorKind::Key => "KeyError",
        ErrorKind::Index => "IndexError",
        ErrorKind::UnicodeEncode => "UnicodeEncodeError",
        ErrorKind::UnicodeDecode => "UnicodeDecodeError",
        ErrorKind::Lookup => "LookupError",
    }
}

/// Converts a crate error into an outcome error.
pub fn err(e: TextError) -> (String, String) {
    (kind_name(e.kind).to_owned(), e.message)
}

/// The argument as a str.
pub fn s(v: &Value) -> &str {
    v.as_str()
        .unwrap_or_else(|| panic!("expected str, got {v}"))
}

/// The argument as an optional str.
pub fn os(v: &Value) -> Option<&str> {
    v.as_str()
}

/// The argument as an optional i64.
pub fn oi(v: &Value) -> Option<i64> {
    v.as_i64()
}

/// The argument as an i64.
pub fn i(v: &Value) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("expected int, got {v}"))
}

/// The argument as a bool.
pub fn bl(v: &Value) -> bool {
    v.as_bool()
        .unwrap_or_else(|| panic!("expected bool, got {v}"))
}

/// Decodes a `{"b": hex}` bytes argument.
pub fn b(v: &Value) -> Vec<u8> {
    let h = v["b"]
        .as_str()
        .unwrap_or_else(|| panic!("expected bytes, got {v}"));
    (0..h.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&h[k..k + 2], 16).expect("hex"))
        .collect()
}

/// Encodes bytes as `{"b": hex}`.
pub fn jb(x: &[u8]) -> Value {
    let mut h = String::new();
    for byte in x {
        h.push_str(&format!("{byte:02x}"));
    }
    json!({ "b": h })
}

/// Encodes an optional index (`None` -> -1 is done by callers).
pub fn jopt(x: Option<usize>) -> Value {
    match x {
        Some(v) => json!(v),
        None => json!(-1),
    }
}

fn clip(s: &str) -> String {
    match s.char_indices().nth(300) {
        Some((b, _)) => format!("{}...", &s[..b]),
        None => s.to_owned(),
    }
}

/// Replays every case of `tests/data/<name>.jsonl` through `f`, panicking with the first
/// mismatches. Returns the number of cases checked. `f` returns `None` for a function name
/// it does not handle (that is a failure too).
pub fn replay(name: &str, mut f: impl FnMut(&str, &[Value]) -> Option<Outcome>) -> usize {
    let path = format!("{}/tests/data/{name}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut n = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).expect("valid json");
        let fname = case["f"].as_str().expect("f");
        let args = case["a"].as_array().expect("a");
        let expected: Outcome = match case.get("e") {
            Some(e) => Err((
                e[0].as_str().expect("kind").to_owned(),
                e[1].as_str().expect("msg").to_owned(),
            )),
            None => Ok(case["r"].clone()),
        };
        n += 1;
        match f(fname, args) {
            None => failures.push(format!("unhandled function {fname}")),
            Some(got) if got != expected => failures.push(format!(
                "{fname}{}\n   expected {}\n   got      {}",
                clip(&Value::Array(args.clone()).to_string()),
                clip(&format!("{expected:?}")),
                clip(&format!("{got:?}"))
            )),
            Some(_) => {}
        }
    }
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(40).cloned().collect();
        panic!(
            "{name}: {} of {n} cases failed:\n{}",
            failures.len(),
            shown.join("\n")
        );
    }
    assert!(n > 0, "{name}: no cases");
    eprintln!("{name}: {n} cases passed");
    n
}
