//! Profiling driver for the commit path: prefills `N` account keys (default 1,000,000), then
//! times blocks of 10,000 random updates with one state root and one fdatasync per block.
//!
//! ```text
//! cargo run --release -p cowboy-qmdb --example updates -- [keys] [blocks]
//! perf record -g target/release/examples/updates 1000000 100
//! ```

use cowboy_qmdb::{Config, Db, keys};

/// The addon's allocator (crates/napi/src/runtime.rs): the store runs under it in the node.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn key(i: u64) -> Vec<u8> {
    let mut a = [0u8; 20];
    a[..8].copy_from_slice(&mix(i).to_le_bytes());
    a[8..16].copy_from_slice(&mix(i ^ 0xfeed).to_le_bytes());
    a[16..].copy_from_slice(&(i as u32).to_le_bytes());
    keys::account(&a)
}

fn value(i: u64, round: u64) -> Vec<u8> {
    keys::Account {
        balance: u128::from(mix(i ^ round)),
        nonce: round,
        code_hash: [0; 32],
        metadata: vec![],
    }
    .encode()
}

/// Field `i` (0-based, counted after the command name) of /proc/self/stat.
fn stat_field(i: usize) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    after
        .split_whitespace()
        .nth(i)
        .and_then(|x| x.parse().ok())
        .unwrap_or(0.0)
}

/// CPU seconds (user + system) of this process so far.
fn cpu_seconds() -> f64 {
    (stat_field(11) + stat_field(12)) / 100.0
}

/// (minor, major) page faults of this process so far.
fn faults() -> (f64, f64) {
    (stat_field(7), stat_field(9))
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(1_000_000);
    let blocks = args.get(1).copied().unwrap_or(50);
    let dir = std::env::temp_dir().join(format!("qmdb-updates-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut db = Db::open(
        &dir,
        Config {
            history: 16,
            ..Config::default()
        },
    )
    .expect("open");
    let t = Instant::now();
    let mut i = 0;
    while i < n {
        let end = (i + 10_000).min(n);
        for j in i..end {
            db.put(&key(j), &value(j, 0)).expect("put");
        }
        db.commit().expect("commit");
        i = end;
    }
    println!(
        "prefill {n}: {:.0}/s; index {:.1} bytes per key",
        n as f64 / t.elapsed().as_secs_f64(),
        db.stats().index_bytes as f64 / n as f64
    );
    // `QMDB_IDLE_S=s` leaves the store idle for `s` seconds after the prefill (the bench's
    // 10M phase waits while its peer store is filled).
    if let Some(idle) = std::env::var("QMDB_IDLE_S")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_secs(idle));
    }
    // `QMDB_WINDOW=w` prints the rates of every `w` blocks (how fast the store settles
    // after the prefill).
    let window: u64 = std::env::var("QMDB_WINDOW")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(0);
    let t = Instant::now();
    let c = cpu_seconds();
    let (mut wt, mut wc, mut wf) = (Instant::now(), c, faults());
    for b in 0..blocks {
        for u in 0..10_000u64 {
            let j = mix((b << 32) ^ u) % n;
            db.put(&key(j), &value(j, b + 1)).expect("put");
        }
        db.commit().expect("commit");
        if window > 0 && (b + 1) % window == 0 {
            let (now, cpu, f) = (Instant::now(), cpu_seconds(), faults());
            let upd = (window * 10_000) as f64;
            let s = db.stats();
            println!(
                "blocks {:>5}: {:>7.0}/s wall {:>7.0}/CPU-s  minflt {:>8.0} majflt {:>5.0}  floor {} ops {}",
                b + 1,
                upd / (now - wt).as_secs_f64(),
                upd / (cpu - wc).max(0.01),
                f.0 - wf.0,
                f.1 - wf.1,
                s.floor,
                s.op_count
            );
            (wt, wc, wf) = (now, cpu, f);
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - c;
    println!(
        "updates: {:.0}/s wall, {:.0}/CPU-s ({blocks} blocks of 10k, {:.1} ms per block)",
        (blocks * 10_000) as f64 / secs,
        (blocks * 10_000) as f64 / cpu,
        secs * 1000.0 / blocks as f64
    );
    let root = db.root();
    let t = Instant::now();
    db.close().expect("close");
    let close = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut db = Db::open(&dir, Config::default()).expect("reopen");
    let snap = t.elapsed().as_secs_f64();
    assert_eq!(db.root(), root);
    // Without the snapshot: a crash-style reopen replays the log.
    db.close().expect("close");
    std::fs::remove_file(dir.join("snapshot.bin")).expect("snapshot written");
    let t = Instant::now();
    let db = Db::open(&dir, Config::default()).expect("reopen");
    let replay = t.elapsed().as_secs_f64();
    assert_eq!(db.root(), root);
    println!(
        "close (snapshot) {close:.2} s; reopen from snapshot {snap:.2} s; reopen by replay {replay:.2} s (version {})",
        db.version()
    );
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}
