//! Handler invocations per second for the spec-04 counter actor: `execute` (fresh VM, module
//! body, handler, storage write into the Db's pending overlay, checkpoint/release) called from
//! Rust. Prints one JSON object: `{"calls_per_s": [run, ...], "cycles": n, "cells": n}`.
//!
//! `cargo run --release -p cowboy-runtime --example actor_bench [runs] [ms_per_run] [nocache]`
//! (`nocache` disables the compiled-code cache, to measure what it saves).
//!
//! With `ACTOR_BENCH_CALLS=n` it instead makes exactly `n` untimed calls after the warm-up
//! and prints `{"calls": n}`: a fixed amount of work for instruction counters
//! (`valgrind --tool=callgrind`), whose per-call cost is (total - total at n=0) / n.

use cowboy_qmdb::{Config, Db};
use cowboy_runtime::{ExecContext, ExecKind, ExecRequest, execute};
use std::time::{Duration, Instant};

/// The addon's allocator (crates/napi/src/runtime.rs), so this peer runs what the addon runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const COUNTER: &str = "from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage[\"count\"] = 0

    def increment(self):
        self.storage[\"count\"] += 1
        return self.storage[\"count\"]
";

fn main() {
    let mut a = std::env::args().skip(1);
    let runs: usize = a.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let ms: u64 = a.next().and_then(|s| s.parse().ok()).unwrap_or(500);
    if a.next().as_deref() == Some("nocache") {
        pvm_core::codecache::set_capacity(0);
    }
    let dir = std::env::temp_dir().join(format!("cowboy-actor-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut db = Db::open(&dir, Config::default()).expect("open the bench store");
    let mut req = ExecRequest {
        kind: ExecKind::Deploy {
            code: COUNTER.into(),
        },
        actor: [0xac; 20],
        args: vec![0x80],
        context: ExecContext::default(),
        cycles_limit: 1_000_000,
        cells_limit: 1_000_000,
    };
    let d = execute(&mut db, &req);
    assert!(d.ok, "deploy failed: {:?}", d.error);
    req.kind = ExecKind::Call {
        handler: "increment".into(),
    };
    let first = execute(&mut db, &req);
    assert!(first.ok, "call failed: {:?}", first.error);
    if let Some(n) = std::env::var("ACTOR_BENCH_CALLS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        for _ in 0..n {
            assert!(execute(&mut db, &req).ok);
        }
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
        let img = pvm_core::modules::image::stats();
        println!(
            "{{\"calls\": {n}, \"image_hits\": {}, \"image_fallbacks\": {}, \"image_error\": {:?}}}",
            img.hits,
            img.fallbacks,
            img.build_error.unwrap_or_default()
        );
        return;
    }
    let mut rates = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let mut n = 0u64;
        while start.elapsed() < Duration::from_millis(ms) {
            let r = execute(&mut db, &req);
            assert!(r.ok);
            n += 1;
        }
        rates.push(n as f64 / start.elapsed().as_secs_f64());
        db.commit().expect("commit");
    }
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
    let list: Vec<String> = rates.iter().map(|r| format!("{r:.1}")).collect();
    println!(
        "{{\"calls_per_s\": [{}], \"cycles\": {}, \"cells\": {}}}",
        list.join(", "),
        first.cycles_used,
        first.cells_used
    );
}
