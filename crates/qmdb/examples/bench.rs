//! `bench/qmdb`: authenticated updates per second with a root per block (blocks of 10,000
//! updates), random reads, proof generation and verification — each next to a plain,
//! unauthenticated embedded key-value store (redb) doing the same work in the same run.
//!
//! Updates are timed twice per size: the 20 blocks right after the prefill (5 alternating runs
//! of 4 blocks: `auth_updates_per_s_{1m,10m}`) and then a longer window of 100 blocks per store
//! (5 alternating runs of 20: `auth_updates_per_s_{1m,10m}_steady`). Each qmdb run prints its
//! user/system CPU time and page faults.
//!
//! ```text
//! cargo run --release -p cowboy-qmdb --example bench            # 1M keys (~3-5 min)
//! cargo run --release -p cowboy-qmdb --example bench -- --10m   # also 10M keys (long)
//! cargo run --release -p cowboy-qmdb --example bench -- --out /tmp/q.json
//! ```
//! Writes the metrics (format of /work/shared/BENCH.md) to `--out` (default
//! `bench/results/qmdb.json`); `npm run bench qmdb` runs it through `bench/qmdb/suite.ts`.

use cowboy_qmdb::{Config, Db, keys};

/// The addon's allocator (crates/napi/src/runtime.rs): the store runs under it in the node.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use redb::TableDefinition;
use std::time::Instant;

const TABLE: TableDefinition<&[u8], &[u8]> = TableDefinition::new("state");
const BLOCK: u64 = 10_000;
const RUNS: usize = 5;

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Account key of account number `i` (a 21-byte namespaced key).
fn key(i: u64) -> Vec<u8> {
    let mut a = [0u8; 20];
    a[..8].copy_from_slice(&mix(i).to_le_bytes());
    a[8..16].copy_from_slice(&mix(i ^ 0xfeed).to_le_bytes());
    a[16..].copy_from_slice(&(i as u32).to_le_bytes());
    keys::account(&a)
}

/// A 60-byte account record.
fn value(i: u64, round: u64) -> Vec<u8> {
    keys::Account {
        balance: u128::from(mix(i ^ round)),
        nonce: round,
        code_hash: [0; 32],
        metadata: vec![],
    }
    .encode()
}

struct Stat {
    median: f64,
    spread: f64,
}

fn stat(mut xs: Vec<f64>) -> Stat {
    xs.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    let median = xs[xs.len() / 2];
    Stat {
        median,
        spread: (xs[xs.len() - 1] - xs[0]) / median,
    }
}

struct Metric {
    name: String,
    value: f64,
    unit: &'static str,
    peer: &'static str,
    peer_value: f64,
    runs: usize,
    spread: f64,
}

/// Fields of /proc/self/stat after the command name: `[user s, system s, minor faults, major
/// faults]` of this process so far.
fn proc_stat() -> [f64; 4] {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let num = |i: usize| -> f64 { f.get(i).and_then(|x| x.parse().ok()).unwrap_or(0.0) };
    [num(11) / 100.0, num(12) / 100.0, num(7), num(9)]
}

/// CPU seconds (user + system) consumed by this process so far, from /proc/self/stat.
fn cpu_seconds() -> f64 {
    let s = proc_stat();
    s[0] + s[1]
}

fn tmp(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("qmdb-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

fn dir_bytes(d: &std::path::Path) -> u64 {
    std::fs::read_dir(d)
        .map(|it| {
            it.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

fn run_size(n: u64, suffix: &str, metrics: &mut Vec<Metric>, full: bool) {
    println!("== {n} keys ==");
    let qdir = tmp(&format!("q{suffix}"));
    let rdir = tmp(&format!("r{suffix}"));
    let mut db = Db::open(
        &qdir,
        Config {
            history: 16,
            ..Config::default()
        },
    )
    .expect("open qmdb");
    let rdb = redb::Database::create(rdir.join("plain.redb")).expect("open redb");

    // Prefill both stores with the same keys in blocks of 10k.
    let t = Instant::now();
    let mut i = 0;
    while i < n {
        let end = (i + BLOCK).min(n);
        for j in i..end {
            db.put(&key(j), &value(j, 0)).expect("put");
        }
        db.commit().expect("commit");
        i = end;
    }
    let q_fill = n as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut i = 0;
    while i < n {
        let end = (i + BLOCK).min(n);
        let w = rdb.begin_write().expect("txn");
        {
            let mut tbl = w.open_table(TABLE).expect("table");
            for j in i..end {
                tbl.insert(key(j).as_slice(), value(j, 0).as_slice())
                    .expect("insert");
            }
        }
        w.commit().expect("commit");
        i = end;
    }
    let r_fill = n as f64 / t.elapsed().as_secs_f64();
    println!("prefill: qmdb {q_fill:.0}/s  redb {r_fill:.0}/s");

    // Updates: blocks of 10k random existing keys, one root per block (qmdb) / one durable
    // transaction per block (redb). Runs alternate between the stores to share the noise.
    // First window: the 20 blocks right after the prefill (metric names without a suffix);
    // then a longer steady window of 100 blocks per store (`_steady`).
    let mut round = 1u64;
    updates(
        &mut db,
        &rdb,
        n,
        &mut round,
        0,
        (RUNS, 4),
        suffix,
        "",
        metrics,
    );
    updates(
        &mut db,
        &rdb,
        n,
        &mut round,
        1 << 20,
        (RUNS, 20),
        suffix,
        "_steady",
        metrics,
    );
    // Clean close and reopen: qmdb writes its snapshot on close and loads it on open; redb
    // reopens its file. Both must come back with the same contents.
    let root = db.root();
    let t = Instant::now();
    drop(db);
    let q_close = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let db = Db::open(
        &qdir,
        Config {
            history: 16,
            ..Config::default()
        },
    )
    .expect("reopen qmdb");
    let q_open = t.elapsed().as_secs_f64();
    assert_eq!(db.root(), root);
    let t = Instant::now();
    drop(rdb);
    let rdb = redb::Database::open(rdir.join("plain.redb")).expect("reopen redb");
    let r_open = t.elapsed().as_secs_f64();
    println!(
        "close+reopen: qmdb close {q_close:.2} s (snapshot), open {q_open:.2} s; redb close+open {r_open:.2} s"
    );
    metrics.push(Metric {
        name: format!("reopen_s_{suffix}"),
        value: q_open,
        unit: "s",
        peer: "redb",
        peer_value: r_open,
        runs: 1,
        spread: 0.0,
    });
    let stats = db.stats();
    let qbytes = db.disk_bytes();
    let rbytes = dir_bytes(&rdir);
    println!(
        "disk: qmdb {:.1} MiB ({} ops, floor {}, {} segments)  redb {:.1} MiB",
        qbytes as f64 / 1048576.0,
        stats.op_count,
        stats.floor,
        stats.segments,
        rbytes as f64 / 1048576.0
    );
    metrics.push(Metric {
        name: format!("disk_bytes_{suffix}"),
        value: qbytes as f64,
        unit: "bytes",
        peer: "redb",
        peer_value: rbytes as f64,
        runs: 1,
        spread: 0.0,
    });

    if !full {
        cleanup(db, rdb, &qdir, &rdir);
        return;
    }
    // Random reads of the latest committed state.
    let reads = 200_000u64;
    let mut q_r = Vec::new();
    let mut r_r = Vec::new();
    for run in 0..RUNS {
        let t = Instant::now();
        let mut found = 0;
        for u in 0..reads / RUNS as u64 {
            let j = mix(u ^ (run as u64) << 40) % n;
            found += db.get_committed(&key(j)).expect("get").is_some() as u64;
        }
        assert_eq!(found, reads / RUNS as u64);
        q_r.push((reads / RUNS as u64) as f64 / t.elapsed().as_secs_f64());
        let rt = rdb.begin_read().expect("read txn");
        let tbl = rt.open_table(TABLE).expect("table");
        let t = Instant::now();
        let mut found = 0;
        for u in 0..reads / RUNS as u64 {
            let j = mix(u ^ (run as u64) << 40) % n;
            found += tbl.get(key(j).as_slice()).expect("get").is_some() as u64;
        }
        assert_eq!(found, reads / RUNS as u64);
        r_r.push((reads / RUNS as u64) as f64 / t.elapsed().as_secs_f64());
    }
    let qr = stat(q_r);
    let rr = stat(r_r);
    println!(
        "reads/s: qmdb {:.0}  redb {:.0}  ratio {:.2}",
        qr.median,
        rr.median,
        qr.median / rr.median
    );
    metrics.push(Metric {
        name: "reads_per_s".into(),
        value: qr.median,
        unit: "1/s",
        peer: "redb",
        peer_value: rr.median,
        runs: RUNS,
        spread: qr.spread,
    });

    // Proofs (half inclusion, half exclusion) and their verification. The peer is the plain
    // store's random read: the cheapest way it can answer the same query (without a proof).
    let root = db.root();
    let per_run = 4000u64;
    let mut p_rates = Vec::new();
    let mut v_rates = Vec::new();
    for run in 0..RUNS {
        let mut proofs = Vec::with_capacity(per_run as usize);
        let t = Instant::now();
        for u in 0..per_run {
            let j = mix(u ^ (run as u64) << 40) % n;
            let mut k = key(j);
            if u % 2 == 1 {
                k.push(0); // absent key: exclusion proof
            }
            proofs.push((db.prove(&k).expect("prove"), k));
        }
        p_rates.push(per_run as f64 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        for (u, (p, k)) in proofs.iter().enumerate() {
            let v = p.verify(&root, k).expect("verify");
            assert_eq!(v.is_some(), u % 2 == 0);
        }
        v_rates.push(per_run as f64 / t.elapsed().as_secs_f64());
    }
    let p = stat(p_rates);
    let v = stat(v_rates);
    println!(
        "proofs/s: {:.0}  verifies/s: {:.0}  (peer: redb reads {:.0}/s)",
        p.median, v.median, rr.median
    );
    metrics.push(Metric {
        name: "proofs_per_s".into(),
        value: p.median,
        unit: "1/s",
        peer: "redb-read",
        peer_value: rr.median,
        runs: RUNS,
        spread: p.spread,
    });
    metrics.push(Metric {
        name: "proof_verifies_per_s".into(),
        value: v.median,
        unit: "1/s",
        peer: "redb-read",
        peer_value: rr.median,
        runs: RUNS,
        spread: v.spread,
    });
    cleanup(db, rdb, &qdir, &rdir);
}

/// Times `runs` runs of `blocks` blocks of 10k random updates on each store, alternating, and
/// records `auth_updates_per_s_{size}{tag}` and `auth_updates_per_cpu_s_{size}{tag}`.
#[allow(clippy::too_many_arguments)]
fn updates(
    db: &mut Db,
    rdb: &redb::Database,
    n: u64,
    round: &mut u64,
    seed0: u64,
    (runs, blocks): (usize, u64),
    size: &str,
    tag: &str,
    metrics: &mut Vec<Metric>,
) {
    let mut q_rates = Vec::new();
    let mut r_rates = Vec::new();
    let (mut q_cpu, mut r_cpu) = (0f64, 0f64);
    for run in 0..runs {
        let seed = (seed0 + run as u64) * 1_000_003;
        let c = cpu_seconds();
        let p0 = proc_stat();
        let t = Instant::now();
        for b in 0..blocks {
            for u in 0..BLOCK {
                let j = mix(seed ^ (b << 32) ^ u) % n;
                db.put(&key(j), &value(j, *round)).expect("put");
            }
            db.commit().expect("commit");
            *round += 1;
        }
        q_rates.push((blocks * BLOCK) as f64 / t.elapsed().as_secs_f64());
        q_cpu += cpu_seconds() - c;
        let p1 = proc_stat();
        println!(
            "  run {run}{tag}: qmdb {:.0}/s wall, user {:.2} s, sys {:.2} s, faults {:.0} minor {:.0} major",
            q_rates[run],
            p1[0] - p0[0],
            p1[1] - p0[1],
            p1[2] - p0[2],
            p1[3] - p0[3]
        );
        let c = cpu_seconds();
        let t = Instant::now();
        for b in 0..blocks {
            let w = rdb.begin_write().expect("txn");
            {
                let mut tbl = w.open_table(TABLE).expect("table");
                for u in 0..BLOCK {
                    let j = mix(seed ^ (b << 32) ^ u) % n;
                    tbl.insert(key(j).as_slice(), value(j, *round).as_slice())
                        .expect("insert");
                }
            }
            w.commit().expect("commit");
            *round += 1;
        }
        r_rates.push((blocks * BLOCK) as f64 / t.elapsed().as_secs_f64());
        r_cpu += cpu_seconds() - c;
    }
    let total = (runs as u64 * blocks * BLOCK) as f64;
    let q = stat(q_rates);
    let r = stat(r_rates);
    println!(
        "updates{tag} ({runs} runs of {blocks} blocks): qmdb {:.0}/s (per CPU-s {:.0})  redb {:.0}/s (per CPU-s {:.0})  ratio {:.2}",
        q.median,
        total / q_cpu,
        r.median,
        total / r_cpu,
        q.median / r.median
    );
    metrics.push(Metric {
        name: format!("auth_updates_per_s_{size}{tag}"),
        value: q.median,
        unit: "1/s",
        peer: "redb",
        peer_value: r.median,
        runs,
        spread: q.spread,
    });
    metrics.push(Metric {
        name: format!("auth_updates_per_cpu_s_{size}{tag}"),
        value: total / q_cpu,
        unit: "1/s",
        peer: "redb",
        peer_value: total / r_cpu,
        runs,
        spread: 0.0,
    });
}

fn cleanup(db: Db, rdb: redb::Database, q: &std::path::Path, r: &std::path::Path) {
    drop(db);
    drop(rdb);
    let _ = std::fs::remove_dir_all(q);
    let _ = std::fs::remove_dir_all(r);
}

/// A JSON number: seconds with 3 decimals, everything else rounded to an integer.
fn num(v: f64, unit: &str) -> String {
    if unit == "s" {
        format!("{v:.3}")
    } else {
        format!("{v:.0}")
    }
}

fn cmd(c: &str, args: &[&str]) -> String {
    std::process::Command::new(c)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let big = args.iter().any(|a| a == "--10m");
    let out_arg = args
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1))
        .map(std::path::PathBuf::from);
    let mut metrics = Vec::new();
    run_size(1_000_000, "1m", &mut metrics, true);
    if big {
        run_size(10_000_000, "10m", &mut metrics, false);
    }
    let manifest = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).expect("manifest dir");
    let root = manifest
        .join("../..")
        .canonicalize()
        .expect("workspace root");
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_default();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut json = String::from("{\n  \"suite\": \"qmdb\",\n");
    json += &format!(
        "  \"commit\": \"{}\",\n",
        cmd(
            "git",
            &["-C", root.to_str().unwrap_or("."), "rev-parse", "HEAD"]
        )
    );
    json += &format!(
        "  \"machine\": {{\"cores\": {cores}, \"cpu\": \"{}\", \"rustc\": \"{}\"}},\n",
        cpu.replace('"', ""),
        cmd("rustc", &["--version"])
    );
    json += &format!(
        "  \"when\": \"{}\",\n",
        cmd("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"])
    );
    json += &format!(
        "  \"notes\": \"blocks of {BLOCK} updates, one state root and one fdatasync per block; shared 2-core machine under load from other builds, so *_per_cpu_s (updates per CPU-second of this process) is reported next to wall-clock rates; peer redb with one durable write transaction per block; proof peers are redb random reads; reopen_s: qmdb open from its close snapshot vs redb close+open; 10M case {}\",\n",
        if big { "run" } else { "behind --10m (not run)" }
    );
    json += "  \"metrics\": [\n";
    for (i, m) in metrics.iter().enumerate() {
        // ratio: > 1 means qmdb is better. Disk bytes: lower is better.
        let (hib, ratio) = if m.unit == "bytes" || m.unit == "s" {
            (false, m.peer_value / m.value)
        } else {
            (true, m.value / m.peer_value)
        };
        json += &format!(
            "    {{\"name\": \"{}\", \"value\": {}, \"unit\": \"{}\", \"higher_is_better\": {hib}, \"peer\": \"{}\", \"peer_value\": {}, \"ratio\": {:.3}, \"runs\": {}, \"spread\": {:.3}}}{}\n",
            m.name,
            num(m.value, m.unit),
            m.unit,
            m.peer,
            num(m.peer_value, m.unit),
            ratio,
            m.runs,
            m.spread,
            if i + 1 < metrics.len() { "," } else { "" }
        );
    }
    json += "  ]\n}\n";
    let out = out_arg.unwrap_or_else(|| root.join("bench/results/qmdb.json"));
    std::fs::create_dir_all(out.parent().expect("parent")).expect("results dir");
    std::fs::write(&out, &json).expect("write results");
    println!("{json}");
    println!("wrote {}", out.display());
}
