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

/// Reference for the rewind workload: per version the real root and state (from a run without
/// rewinds) and, for junk versions, the junk root and state. The real roots are also checked
/// against an in-process run that commits and rewinds every junk block.
struct RewindRef {
    roots: Vec<cowboy_qmdb::Hash>,
    states: Vec<State>,
    junk: BTreeMap<u64, (cowboy_qmdb::Hash, State)>,
}

/// Contents of one version.
type State = BTreeMap<Vec<u8>, Vec<u8>>;

fn rewind_reference(seed: u64, last: u64) -> RewindRef {
    let dir = temp_dir("rewind-ref");
    let mut db = Db::open(&dir, workload::crash_config()).unwrap();
    let mut r = RewindRef {
        roots: vec![db.root()],
        states: vec![BTreeMap::new()],
        junk: BTreeMap::new(),
    };
    let mut state = BTreeMap::new();
    for v in 1..=last {
        let acts = workload::block(seed, v);
        workload::apply_db(&mut db, &acts);
        workload::apply_model(&mut state, &acts);
        r.roots.push(db.commit().unwrap().root);
        r.states.push(state.clone());
    }
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
    let dir = temp_dir("rewind-ref2");
    let mut db = Db::open(&dir, workload::crash_config()).unwrap();
    for v in 1..=last {
        if workload::has_junk(v) {
            let acts = workload::junk(seed, v);
            let mut js = r.states[v as usize - 1].clone();
            workload::apply_db(&mut db, &acts);
            workload::apply_model(&mut js, &acts);
            r.junk.insert(v, (db.commit().unwrap().root, js));
            assert_eq!(db.rewind(v - 1).unwrap().root, r.roots[v as usize - 1]);
        }
        workload::apply_db(&mut db, &workload::block(seed, v));
        assert_eq!(
            db.commit().unwrap().root,
            r.roots[v as usize],
            "real root {v}"
        );
    }
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
    r
}

#[test]
fn kill_nine_during_rewind() {
    const LAST_R: u64 = 150;
    let r = rewind_reference(SEED, LAST_R);
    let exe = env!("CARGO_BIN_EXE_qmdb-crash-writer");
    let dir = temp_dir("crash-rewind");
    let mut rng = Rng(0xBEEF);
    let iterations = std::env::var("QMDB_CRASH_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let (mut kills, mut junk_recoveries, mut rewinds_acked) = (0, 0, 0);
    // highest real version acknowledged, and the last acknowledgement: a junk version `v` may
    // be the recovered head only after "junk v" or a real head `v - 1` (a real commit, or
    // "reverted": the junk commit that follows can be durable before its line is printed),
    // never right after "rewound v-1" (the next step there is the real `v`)
    let mut acked_real = 0u64;
    let mut last: (&str, u64) = ("real", 0);
    for _ in 0..iterations {
        let mut child = Command::new(exe)
            .args([
                dir.to_str().unwrap(),
                &SEED.to_string(),
                &LAST_R.to_string(),
                "rewind",
            ])
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
        std::thread::sleep(Duration::from_micros(rng.below(300_000)));
        let _ = child.kill();
        if !child.wait().unwrap().success() {
            kills += 1;
        }
        for line in reader.join().unwrap() {
            let parts: Vec<&str> = line.split(' ').collect();
            let (kind, v, root) = match parts[..] {
                [kind, v, root] => (kind, v.parse::<u64>().unwrap(), root),
                [v, root] => ("real", v.parse::<u64>().unwrap(), root),
                _ => panic!("bad writer line {line}"),
            };
            let is_junk = r.junk.get(&v).is_some_and(|(j, _)| to_hex(j) == root);
            match kind {
                "junk" => assert!(is_junk, "junk root of {v}"),
                "opened" => assert!(
                    is_junk || to_hex(&r.roots[v as usize]) == root,
                    "opened root of {v}"
                ),
                _ => assert_eq!(root, to_hex(&r.roots[v as usize]), "{kind} root of {v}"),
            }
            if kind == "rewound" || kind == "reverted" {
                rewinds_acked += 1;
            }
            if is_junk {
                last = ("junk", v);
            } else {
                last = (if kind == "rewound" { "rewound" } else { "real" }, v);
                acked_real = acked_real.max(v);
            }
        }
        let db = Db::open(&dir, workload::crash_config()).unwrap();
        let v = db.version();
        let root = db.root();
        let junk = r.junk.get(&v).filter(|(j, _)| *j == root);
        let expect = match junk {
            Some((_, js)) => {
                // the old head of a rewind whose marker never became durable
                assert!(
                    last == ("junk", v) || last == ("real", v - 1),
                    "junk head {v} after {last:?}"
                );
                junk_recoveries += 1;
                js
            }
            None => {
                assert_eq!(root, r.roots[v as usize], "root after recovery at {v}");
                &r.states[v as usize]
            }
        };
        assert!(
            v >= acked_real,
            "lost acknowledged commit: at {v}, acked {acked_real}"
        );
        let got: BTreeMap<Vec<u8>, Vec<u8>> = db
            .scan_prefix(b"", usize::MAX)
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(&got, expect, "contents after recovery at {v}");
        if junk.is_some() {
            last = ("junk", v);
            acked_real = v - 1;
        } else {
            last = ("real", v);
            acked_real = v;
        }
        drop(db);
        if v == LAST_R && junk.is_none() {
            std::fs::remove_dir_all(&dir).unwrap();
            std::fs::create_dir_all(&dir).unwrap();
            acked_real = 0;
        }
    }
    eprintln!(
        "rewind crash test: {iterations} runs, {kills} SIGKILLs, {rewinds_acked} rewinds acked, {junk_recoveries} recoveries at a junk head"
    );
    assert!(kills >= iterations / 2, "only {kills} kills happened");
    assert!(rewinds_acked > 0, "no rewind happened");
    std::fs::remove_dir_all(&dir).unwrap();
}
