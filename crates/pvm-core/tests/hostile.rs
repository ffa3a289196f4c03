//! Hostile-program suite: every `tests/hostile/<name>.py` starts with `# expect: <ErrorType>`
//! (and optionally `# cycles: <limit>`, default 10,000,000). The program is run with that cycle
//! budget and must end with exactly that error type without exceeding the budget.

use pvm_core::{Limits, run_program};
use std::path::Path;

#[test]
fn hostile() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "py"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut failures = Vec::new();
    let mut passed = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).expect("read");
        let mut expect = None;
        let mut limit: u64 = 10_000_000;
        for line in src.lines().take(5) {
            if let Some(e) = line.strip_prefix("# expect:") {
                expect = Some(e.trim().to_string());
            }
            if let Some(c) = line.strip_prefix("# cycles:") {
                limit = c.trim().replace('_', "").parse().expect("cycles header");
            }
        }
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(expect) = expect else {
            failures.push(format!("{name}: missing '# expect:' header"));
            continue;
        };
        let limits = Limits {
            cycles: limit,
            ..Limits::default()
        };
        let out = run_program(&src, &name, &limits);
        let got = out
            .error
            .as_ref()
            .map(|e| e.type_name.clone())
            .unwrap_or_else(|| "<no error>".into());
        if got != expect || out.cycles_used > limit {
            let msg = out
                .error
                .as_ref()
                .map(|e| e.message.clone())
                .unwrap_or_default();
            failures.push(format!(
                "{name}: expected {expect}, got {got} ({msg}) after {} cycles",
                out.cycles_used
            ));
        } else {
            passed += 1;
        }
    }
    println!("hostile: {passed} passed, {} failed", failures.len());
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} hostile programs did not end as expected",
        failures.len()
    );
}
