//! The reopen snapshot written by `Db::close`: a reopen from it equals a reopen by replay
//! (roots, contents, history, proofs, further commits), and a snapshot that is corrupt or does
//! not describe the log on disk (stale) is ignored in favour of replaying the log.

mod common;

use common::{Rng, key_for, temp_dir};
use cowboy_qmdb::{Config, Db};
use std::path::Path;

fn cfg() -> Config {
    Config {
        history: 6,
        segment_bytes: 4096,
        auto_prune: true,
        ..Default::default()
    }
}

/// Commits `blocks` random blocks of puts/deletes.
fn work(db: &mut Db, rng: &mut Rng, blocks: u64) {
    for _ in 0..blocks {
        for _ in 0..1 + rng.below(30) {
            let k = key_for(rng.below(200));
            if rng.below(4) == 0 {
                db.delete(&k).unwrap();
            } else {
                db.put(&k, &rng.below(1 << 40).to_le_bytes()).unwrap();
            }
        }
        db.commit().unwrap();
    }
}

/// Everything observable about a store: history roots, contents at every retained version,
/// proofs, stats.
fn fingerprint(db: &Db) -> Vec<String> {
    let mut out = vec![format!("{:?}", db.history())];
    let s = db.stats();
    out.push(format!(
        "{} {} {} {} {}",
        s.version, s.op_count, s.floor, s.active_keys, s.pruned_to
    ));
    for v in db.oldest_version()..=db.version() {
        for i in 0..210 {
            let k = key_for(i);
            out.push(format!("{v} {i} {:?}", db.get_at(v, &k).unwrap()));
            let p = db.prove_at(v, &k).unwrap();
            let root = db.commit_info(v).unwrap().root;
            assert_eq!(p.verify(&root, &k).unwrap(), db.get_at(v, &k).unwrap());
            out.push(format!("{:?}", p.encode()));
        }
    }
    out
}

fn reopen(dir: &Path, use_snapshot: bool) -> Db {
    if !use_snapshot {
        let _ = std::fs::remove_file(dir.join("snapshot.bin"));
    }
    Db::open(dir, cfg()).unwrap()
}

#[test]
fn snapshot_reopen_equals_replay() {
    for seed in 1..=4u64 {
        let dir = temp_dir(&format!("snap-eq-{seed}"));
        let mut rng = Rng(seed);
        let mut db = Db::open(&dir, cfg()).unwrap();
        work(&mut db, &mut rng, 40);
        db.close().unwrap();
        assert!(dir.join("snapshot.bin").exists());
        let snap_copy = std::fs::read(dir.join("snapshot.bin")).unwrap();
        let mut a = reopen(&dir, true);
        let fa = fingerprint(&a);
        // the same store reopened by replay (restore the snapshot file only to delete it)
        a.close().unwrap();
        let mut b = reopen(&dir, false);
        assert_eq!(fa, fingerprint(&b), "seed {seed}");
        // both continue identically
        let mut r1 = Rng(seed + 100);
        work(&mut b, &mut r1, 10);
        let after_replay = fingerprint(&b);
        drop(b);
        let mut c = reopen(&dir, true);
        assert_eq!(after_replay, fingerprint(&c));
        // a stale snapshot (from before the last 10 commits) is ignored: replay wins
        c.close().unwrap();
        std::fs::write(dir.join("snapshot.bin"), &snap_copy).unwrap();
        let d = Db::open(&dir, cfg()).unwrap();
        assert_eq!(after_replay, fingerprint(&d));
        assert!(!dir.join("snapshot.bin").exists());
        drop(d);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn corrupt_snapshot_falls_back_to_replay() {
    let dir = temp_dir("snap-corrupt");
    let mut rng = Rng(7);
    let mut db = Db::open(&dir, cfg()).unwrap();
    work(&mut db, &mut rng, 30);
    let want = fingerprint(&db);
    db.close().unwrap();
    let good = std::fs::read(dir.join("snapshot.bin")).unwrap();
    for pos in [
        0,
        5,
        good.len() / 3,
        good.len() / 2,
        good.len() - 40,
        good.len() - 1,
    ] {
        let mut bad = good.clone();
        bad[pos] ^= 0x40;
        std::fs::write(dir.join("snapshot.bin"), &bad).unwrap();
        let db = Db::open(&dir, cfg()).unwrap();
        assert_eq!(want, fingerprint(&db), "flip at {pos}");
        drop(db);
        std::fs::remove_file(dir.join("snapshot.bin")).unwrap();
    }
    // truncated and empty snapshot files too
    for len in [0, 10, good.len() - 1] {
        std::fs::write(dir.join("snapshot.bin"), &good[..len]).unwrap();
        let db = Db::open(&dir, cfg()).unwrap();
        assert_eq!(want, fingerprint(&db), "truncated to {len}");
        drop(db);
        std::fs::remove_file(dir.join("snapshot.bin")).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn closed_store_refuses_work_and_releases_the_lock() {
    let dir = temp_dir("snap-closed");
    let mut db = Db::open(&dir, cfg()).unwrap();
    db.put(b"k", b"v").unwrap();
    let info = db.commit().unwrap();
    db.put(b"pending", b"x").unwrap();
    db.close().unwrap();
    assert!(db.is_closed());
    assert_eq!(db.root(), info.root);
    assert_eq!(db.get(b"k").unwrap_err().code(), "QMDB_CLOSED");
    assert_eq!(db.put(b"k", b"v").unwrap_err().code(), "QMDB_CLOSED");
    assert_eq!(db.commit().unwrap_err().code(), "QMDB_CLOSED");
    db.close().unwrap();
    let db2 = Db::open(&dir, cfg()).unwrap();
    assert_eq!(db2.root(), info.root);
    assert_eq!(db2.get(b"pending").unwrap(), None);
    drop(db2);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}
