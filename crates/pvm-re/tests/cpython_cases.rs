//! Every case of tests/data/cases.jsonl (recorded from CPython 3.11 by tests/gen/gen_cases.py)
//! must give CPython's result.

use pvm_re::{Anchor, Regex, TemplateError, TemplatePiece};
use serde_json::Value;

fn cps(s: &str) -> Vec<u32> {
    s.chars().map(|c| c as u32).collect()
}

fn text(v: &[u32]) -> String {
    v.iter().map(|&c| char::from_u32(c).unwrap()).collect()
}

fn spans_json(m: Option<pvm_re::Captures>) -> Value {
    match m {
        None => Value::Null,
        Some(m) => Value::Array(
            m.spans
                .iter()
                .map(|s| match s {
                    Some((a, b)) => serde_json::json!([a, b]),
                    None => Value::Null,
                })
                .collect(),
        ),
    }
}

fn run_case(case: &Value) -> Result<(), String> {
    let op = case["op"].as_str().unwrap();
    let pattern = case["pattern"].as_str().unwrap();
    let flags = case["flags"].as_u64().unwrap() as u32;
    let compiled = Regex::new(&cps(pattern), flags, false);
    if op == "compile" {
        return match (&compiled, case.get("error")) {
            (Err(e), Some(want)) => (e.to_string() == want.as_str().unwrap())
                .then_some(())
                .ok_or(format!("error {e} != {want}")),
            (Ok(_), Some(want)) => Err(format!("compiled, CPython said {want}")),
            (Err(e), None) => Err(format!("error {e}")),
            (Ok(r), None) => {
                let groups = case["groups"].as_u64().unwrap() as usize;
                let flags = case["reflags"].as_u64().unwrap() as u32;
                let names: Vec<(String, usize)> = case["groupindex"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap() as usize))
                    .collect();
                let mut got = r.group_names().to_vec();
                got.sort();
                let mut want = names;
                want.sort();
                if r.groups() != groups || r.flags() != flags || got != want {
                    return Err(format!(
                        "groups {} flags {} names {got:?}",
                        r.groups(),
                        r.flags()
                    ));
                }
                Ok(())
            }
        };
    }
    let r = compiled.map_err(|e| format!("compile failed: {e}"))?;
    let t = cps(case["text"].as_str().unwrap());
    let mut budget = 10_000_000u64;
    let got: Value = match op {
        "search" | "match" | "fullmatch" => {
            let anchor = match op {
                "search" => Anchor::Search,
                "match" => Anchor::Start,
                _ => Anchor::Full,
            };
            let pos = case.get("pos").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
            let endpos = case
                .get("endpos")
                .and_then(|v| v.as_u64())
                .unwrap_or(u64::MAX) as usize;
            spans_json(
                r.exec(&t, pos.min(t.len()), endpos, anchor, None, &mut budget)
                    .unwrap(),
            )
        }
        "finditer" => Value::Array(
            r.find_all(&t, 0, t.len(), 0, &mut budget)
                .unwrap()
                .iter()
                .map(|m| {
                    let (a, b) = m.span();
                    serde_json::json!([a, b])
                })
                .collect(),
        ),
        "sub" => {
            let template = r
                .parse_template(&cps(case["repl"].as_str().unwrap()))
                .map_err(|e| format!("{e:?}"))?;
            let mut out = Vec::new();
            let mut last = 0;
            for m in r.find_all(&t, 0, t.len(), 0, &mut budget).unwrap() {
                let (s, e) = m.span();
                out.extend_from_slice(&t[last..s]);
                out.extend(r.expand(&template, &t, &m));
                last = e;
            }
            out.extend_from_slice(&t[last..]);
            Value::String(text(&out))
        }
        "split" => Value::Array(
            r.split(&t, 0, &mut budget)
                .unwrap()
                .into_iter()
                .map(|p| p.map_or(Value::Null, |p| Value::String(text(&p))))
                .collect(),
        ),
        other => return Err(format!("unknown op {other}")),
    };
    if got == case["result"] {
        Ok(())
    } else {
        Err(format!("got {got}, CPython {}", case["result"]))
    }
}

#[test]
fn matches_cpython() {
    let data = include_str!("data/cases.jsonl");
    let mut failures = Vec::new();
    let mut total = 0;
    for line in data.lines() {
        total += 1;
        let case: Value = serde_json::from_str(line).unwrap();
        if let Err(e) = run_case(&case) {
            failures.push(format!(
                "{} {:?} on {:?}: {e}",
                case["op"],
                case["pattern"],
                case.get("text")
            ));
        }
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases differ from CPython",
        failures.len()
    );
}

#[test]
fn template_errors() {
    let r = Regex::from_str(r"(?P<a>x)", 0).unwrap();
    assert_eq!(
        r.parse_template(&cps(r"\g<b>")),
        Err(TemplateError::UnknownGroupName("b".into()))
    );
    assert!(
        matches!(r.parse_template(&cps(r"\2")), Err(TemplateError::Re(e)) if e.to_string() == "invalid group reference 2 at position 1")
    );
    assert!(
        matches!(r.parse_template(&cps(r"\q")), Err(TemplateError::Re(e)) if e.to_string() == r"bad escape \q at position 0")
    );
}

/// `\g` references: messages and positions as CPython 3.11 reports them (checked with
/// `re.sub("(?P<a>x)", repl, "x")`).
#[test]
fn template_group_reference_errors() {
    let r = Regex::from_str(r"(?P<a>x)", 0).unwrap();
    for (repl, want) in [
        (r"\g<", "missing group name at position 3"),
        (r"ab\g<", "missing group name at position 5"),
        (r"\g<>", "missing group name at position 3"),
        (r"\g<a", "missing >, unterminated name at position 3"),
        (r"\g<a b", "missing >, unterminated name at position 3"),
        (r"\g", "missing < at position 2"),
    ] {
        match r.parse_template(&cps(repl)) {
            Err(TemplateError::Re(e)) => assert_eq!(e.to_string(), want, "template {repl:?}"),
            other => panic!("template {repl:?}: expected an error, got {other:?}"),
        }
    }
    assert_eq!(
        r.parse_template(&cps(r"\g<a>")),
        Ok(vec![TemplatePiece::Group(1)])
    );
}

#[test]
fn catastrophic_patterns_run_out_of_budget_deterministically() {
    let r = Regex::from_str(r"(a+)+$", 0).unwrap();
    let t = cps(&("a".repeat(40) + "b"));
    let mut b1 = 1_000_000u64;
    assert!(
        r.exec(&t, 0, t.len(), Anchor::Search, None, &mut b1)
            .is_err()
    );
    assert_eq!(b1, 0);
    // the cost of a successful match is exact and repeatable
    let r = Regex::from_str(r"\w+@\w+\.com", 0).unwrap();
    let t = cps("contact: someone@example.com today");
    let (mut x, mut y) = (1_000_000u64, 1_000_000u64);
    let a = r
        .exec(&t, 0, t.len(), Anchor::Search, None, &mut x)
        .unwrap();
    let b = r
        .exec(&t, 0, t.len(), Anchor::Search, None, &mut y)
        .unwrap();
    assert_eq!(a, b);
    assert_eq!(x, y);
    assert!(x < 1_000_000);
}

#[test]
fn hostile_patterns_fail_cleanly() {
    let deep = "(".repeat(150) + &")".repeat(150);
    assert!(
        Regex::from_str(&deep, 0)
            .unwrap_err()
            .to_string()
            .contains("too many nested groups")
    );
    assert!(
        Regex::from_str("(?:a{1000}){1000}", 0)
            .unwrap_err()
            .to_string()
            .contains("too large")
    );
    assert!(
        Regex::from_str(r"\N{DIGIT ONE}", 0)
            .unwrap_err()
            .to_string()
            .contains("not supported")
    );
    // bytes patterns: ASCII rules
    let r = Regex::new(&[b'\\' as u32, b'w' as u32, b'+' as u32], 0, true).unwrap();
    let t: Vec<u32> = "héllo".bytes().map(u32::from).collect();
    let mut b = 1000;
    assert_eq!(
        r.exec(&t, 0, t.len(), Anchor::Search, None, &mut b)
            .unwrap()
            .unwrap()
            .span(),
        (0, 1)
    );
    assert_eq!(r.flags(), 0);
}
