//! Pins the state roots of a fixed, non-trivial workload: inserts, updates, deletes, floor
//! raises, heap (> 30 byte) keys, checkpoints, pruning with tiny segments, a rewind and reopens
//! by replay and by snapshot. The expected digests were recorded when the state format became
//! v2 (keyed blake3 domains, 512-bit bitmap chunks; docs/state.md) and hold across every
//! performance change since; the root is consensus-critical, so any change of these values is
//! a consensus change, never a performance detail.

mod common;

use common::{Rng, temp_dir};
use cowboy_qmdb::{Config, Db, to_hex};

/// Key `i` of the workload: short inline keys, 21-byte account keys and long heap keys.
fn key(i: u64) -> Vec<u8> {
    match i % 4 {
        0 => cowboy_qmdb::keys::account(&[(i % 251) as u8; 20])
            .into_iter()
            .chain(i.to_be_bytes())
            .collect(),
        1 => format!("k{i}").into_bytes(),
        2 => {
            let mut k = vec![0x03, 0x01];
            k.extend_from_slice(&[(i % 7) as u8; 20]);
            k.extend_from_slice(format!("storage-slot-{i}-with-a-long-name").as_bytes());
            k
        }
        _ => vec![(i % 256) as u8, (i / 256) as u8],
    }
}

/// Runs `blocks` blocks from version `from + 1` on; returns a digest over every root.
fn blocks(db: &mut Db, rng: &mut Rng, from: u64, blocks: u64, space: u64) -> blake3::Hasher {
    let mut all = blake3::Hasher::new();
    for v in from + 1..=from + blocks {
        let n = if v % 5 == 0 { 1500 } else { 1 + rng.below(200) };
        let mut cp = None;
        for _ in 0..n {
            let r = rng.below(100);
            let k = key(rng.below(space));
            match r {
                0..=64 => {
                    let len = rng.below(90) as usize;
                    db.put(&k, &rng.bytes(len)).unwrap();
                }
                65..=84 => db.delete(&k).unwrap(),
                85..=89 if cp.is_none() => cp = Some(db.checkpoint()),
                90..=94 => {
                    if let Some(c) = cp.take() {
                        db.revert(c).unwrap();
                    }
                }
                _ => {
                    if let Some(c) = cp.take() {
                        db.release(c).unwrap();
                    }
                }
            }
        }
        let info = db.commit().unwrap();
        assert_eq!(info.version, v);
        all.update(&info.root);
    }
    all
}

fn cfg() -> Config {
    Config {
        history: 6,
        segment_bytes: 64 << 10,
        auto_prune: true,
        ..Default::default()
    }
}

#[test]
fn golden_workload_roots() {
    let dir = temp_dir("golden-workload");
    let mut rng = Rng(0x5eed_0001);
    let mut db = Db::open(&dir, cfg()).unwrap();
    let first = blocks(&mut db, &mut rng, 0, 80, 4000);
    assert_eq!(
        to_hex(first.finalize().as_bytes()),
        "73e67bd0e36709d41b4af44a463f3aa2d11e44a8877ab865d99cd29db782364c",
        "roots of versions 1..=80"
    );
    let v80 = db.commit_info(80).unwrap().root;
    // rewind three versions and take a different branch
    db.rewind(77).unwrap();
    let branch = blocks(&mut db, &mut rng, 77, 10, 4000);
    assert_eq!(
        to_hex(branch.finalize().as_bytes()),
        "8fc939dd9185b0f18dcbfc680d06af0df92e75deaa6bf8db0036511722c8a10a",
        "roots of versions 78..=87 after the rewind"
    );
    assert_ne!(db.commit_info(82).unwrap().root, v80);
    // reopen by snapshot, then by replay, and keep going
    drop(db);
    let mut db = Db::open(&dir, cfg()).unwrap();
    let a = blocks(&mut db, &mut rng, 87, 10, 4000);
    db.close().unwrap();
    std::fs::remove_file(dir.join("snapshot.bin")).unwrap();
    let mut db = Db::open(&dir, cfg()).unwrap();
    let b = blocks(&mut db, &mut rng, 97, 10, 4000);
    let mut both = blake3::Hasher::new();
    both.update(a.finalize().as_bytes());
    both.update(b.finalize().as_bytes());
    assert_eq!(
        to_hex(both.finalize().as_bytes()),
        "b94f862549f087fad6916c9bb7550a5023a3507745e4d21e9551eb754c753531",
        "roots of versions 88..=107 across reopens"
    );
    assert_eq!(
        to_hex(&db.root()),
        "753df716c5c77cf0a37a3791c664ca8c5304b54b83ef2e4b5db1a265da99db43"
    );
    let stats = db.stats();
    assert!(stats.pruned_to > 0, "the workload must prune: {stats:?}");
    drop(db);
    std::fs::remove_dir_all(dir).unwrap();
}
