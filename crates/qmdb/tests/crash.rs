//! Crash test: a writer process is killed with SIGKILL at random moments, many times; after
//! every kill the store must reopen at a committed version no older than the last one the
//! writer acknowledged, with exactly the reference root and contents of that version.

mod common;
#[path = "common/workload.rs"]
mod workload;

use common::{Rng, temp_dir};
use cowboy_qmdb::{Db, to_hex};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

const SEED: u64 = 77;
const LAST: u64 = 400;

#[test]
fn kill_nine_recovery() {
    // Reference run in-process: root and state of every version.
    let ref_dir = temp_dir("crash-ref");
    let mut db = Db::open(&ref_dir, workload::crash_config()).unwrap();
    let mut roots = vec![db.root()];
    let mut states = vec![BTreeMap::new()];
    let mut state = BTreeMap::new();
    for v in 1..=LAST {
        let acts = workload::block(SEED, v);
        workload::apply_db(&mut db, &acts);
        workload::apply_model(&mut state, &acts);
        roots.push(db.commit().unwrap().root);
        states.push(state.clone());
    }
    drop(db);
    std::fs::remove_dir_all(&ref_dir).unwrap();

    let exe = env!("CARGO_BIN_EXE_qmdb-crash-writer");
    let dir = temp_dir("crash");
    let mut rng = Rng(0xC0FFEE);
    let mut kills = 0;
    let mut acked_max = 0u64;
    let mut restarts = 0;
    let iterations = std::env::var("QMDB_CRASH_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    for _ in 0..iterations {
        let mut child = Command::new(exe)
            .args([dir.to_str().unwrap(), &SEED.to_string(), &LAST.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        std::thread::sleep(Duration::from_micros(rng.below(400_000)));
        let _ = child.kill(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        let lines = reader.join().unwrap();
        if status.success() {
            // the writer reached LAST before the kill
        } else {
            kills += 1;
        }
        // Every acknowledged root must match the reference.
        for line in &lines {
            let mut parts = line.split(' ');
            let first = parts.next().unwrap();
            let (v, root) = if first == "opened" {
                (
                    parts.next().unwrap().parse::<u64>().unwrap(),
                    parts.next().unwrap(),
                )
            } else {
                (first.parse::<u64>().unwrap(), parts.next().unwrap())
            };
            assert_eq!(
                root,
                to_hex(&roots[v as usize]),
                "acknowledged root of version {v}"
            );
            acked_max = acked_max.max(v);
        }
        // Recovery: reopen in this process and compare with the reference.
        let db = Db::open(&dir, workload::crash_config()).unwrap();
        let v = db.version();
        assert!(
            v >= acked_max,
            "lost acknowledged commit: reopened at {v}, acked {acked_max}"
        );
        assert_eq!(
            db.root(),
            roots[v as usize],
            "root after recovery at version {v}"
        );
        let expect = &states[v as usize];
        let got: BTreeMap<Vec<u8>, Vec<u8>> = db
            .scan_prefix(b"", usize::MAX)
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(&got, expect, "contents after recovery at version {v}");
        for probe in 0..5u64 {
            let k = format!("key-{:05}", rng.below(5000)).into_bytes();
            let p = db.prove(&k).unwrap();
            assert_eq!(
                p.verify(&db.root(), &k).unwrap(),
                expect.get(&k).cloned(),
                "probe {probe}"
            );
        }
        acked_max = v;
        drop(db);
        if v == LAST {
            // the workload is finished: start again from an empty store
            std::fs::remove_dir_all(&dir).unwrap();
            std::fs::create_dir_all(&dir).unwrap();
            acked_max = 0;
            restarts += 1;
        }
    }
    eprintln!(
        "crash test: {iterations} runs, {kills} SIGKILLs, {restarts} complete workloads of {LAST} versions"
    );
    assert!(kills >= iterations / 2, "only {kills} kills happened");
    std::fs::remove_dir_all(&dir).unwrap();
}
