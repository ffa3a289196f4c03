//! Proof tests: valid inclusion and exclusion proofs verify; tampered proofs, wrong roots and
//! wrong keys are rejected.

mod common;

use common::{Rng, temp_dir};
use cowboy_qmdb::{Config, Db, Op, ProofError, Witness, empty_root, verify_bytes};

fn filled(tag: &str, n: u64) -> (std::path::PathBuf, Db) {
    let dir = temp_dir(tag);
    let mut db = Db::open(&dir, Config::default()).unwrap();
    for i in 0..n {
        db.put(
            format!("key{:04}", i * 2).as_bytes(),
            format!("value{i}").as_bytes(),
        )
        .unwrap();
        if i % 50 == 49 {
            db.commit().unwrap();
        }
    }
    db.commit().unwrap();
    (dir, db)
}

#[test]
fn inclusion_and_exclusion_verify() {
    let (dir, db) = filled("incl", 300);
    let root = db.root();
    for i in 0..300u64 {
        let k = format!("key{:04}", i * 2);
        let p = db.prove(k.as_bytes()).unwrap();
        assert_eq!(
            p.verify(&root, k.as_bytes()).unwrap(),
            Some(format!("value{i}").into_bytes())
        );
        assert_eq!(
            verify_bytes(&root, k.as_bytes(), &p.encode()).unwrap(),
            Some(format!("value{i}").into_bytes())
        );
        // odd keys, and keys before the first / after the last (wrap-around gap) are absent
        let absent = format!("key{:04}", i * 2 + 1);
        let p = db.prove(absent.as_bytes()).unwrap();
        assert_eq!(p.verify(&root, absent.as_bytes()).unwrap(), None);
    }
    for absent in [&b"a"[..], b"key", b"zzz", &[0xff; 40]] {
        let p = db.prove(absent).unwrap();
        assert_eq!(p.verify(&root, absent).unwrap(), None);
    }
    drop(db);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn empty_state_proofs() {
    let dir = temp_dir("empty");
    let mut db = Db::open(&dir, Config::default()).unwrap();
    let p = db.prove(b"x").unwrap();
    assert_eq!(p.verify(&empty_root(), b"x").unwrap(), None);
    db.put(b"x", b"1").unwrap();
    db.commit().unwrap();
    let with_x = db.root();
    db.delete(b"x").unwrap();
    db.commit().unwrap();
    let p = db.prove(b"x").unwrap();
    assert!(matches!(p.witness, Witness::Empty { last: Some(_), .. }));
    assert_eq!(p.verify(&db.root(), b"x").unwrap(), None);
    // an emptiness proof cannot be replayed against a root where the key exists
    assert_eq!(p.verify(&with_x, b"x"), Err(ProofError::RootMismatch));
    // and the historical proof of the earlier version shows the value
    let old = db.prove_at(db.version() - 1, b"x").unwrap();
    assert_eq!(old.verify(&with_x, b"x").unwrap(), Some(b"1".to_vec()));
    drop(db);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn wrong_root_and_wrong_key_rejected() {
    let (dir, mut db) = filled("wrong", 100);
    let root = db.root();
    let p = db.prove(b"key0010").unwrap();
    let mut bad_root = root;
    bad_root[0] ^= 1;
    assert_eq!(
        p.verify(&bad_root, b"key0010"),
        Err(ProofError::RootMismatch)
    );
    // an inclusion proof of key0010 says nothing about key0012 or key0009
    assert_eq!(p.verify(&root, b"key0012"), Err(ProofError::KeyNotCovered));
    assert_eq!(p.verify(&root, b"key0009"), Err(ProofError::KeyNotCovered));
    // it does prove key0011 absent (it lies in key0010's gap) — that is correct behaviour
    assert_eq!(p.verify(&root, b"key00101").unwrap(), None);
    // an exclusion proof for key0011 cannot be used for key0013
    let ex = db.prove(b"key0011").unwrap();
    assert_eq!(ex.verify(&root, b"key0013"), Err(ProofError::KeyNotCovered));
    // a proof against an older root does not verify against the new one
    db.put(b"key0010", b"changed").unwrap();
    db.commit().unwrap();
    assert_eq!(
        p.verify(&db.root(), b"key0010"),
        Err(ProofError::RootMismatch)
    );
    assert_eq!(
        p.verify(&root, b"key0010").unwrap(),
        Some(b"value5".to_vec())
    );
    assert_eq!(p.verify(&root, &[]), Err(ProofError::BadKey));
    drop(db);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every single-bit flip of an encoded proof is rejected (or decodes to a proof that fails).
#[test]
fn tampered_proofs_rejected() {
    let (dir, db) = filled("tamper", 200);
    let root = db.root();
    for key in [&b"key0100"[..], b"key0101", b"zzzz"] {
        let p = db.prove(key).unwrap();
        let good = p.verify(&root, key).unwrap();
        let bytes = p.encode();
        let mut rejected = 0;
        for i in 0..bytes.len() {
            for bit in [0u8, 3, 7] {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                match verify_bytes(&root, key, &b) {
                    Err(_) => rejected += 1,
                    Ok(v) => {
                        panic!("flip at byte {i} bit {bit} accepted with {v:?} (good {good:?})")
                    }
                }
            }
        }
        assert_eq!(rejected, bytes.len() * 3);
        // truncation and extension are rejected too
        assert!(verify_bytes(&root, key, &bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(verify_bytes(&root, key, &longer).is_err());
    }
    drop(db);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Structured tampering: swapped value, forged next-key, inactive (superseded) operation.
#[test]
fn forged_witnesses_rejected() {
    let (dir, mut db) = filled("forge", 64);
    let old_proof = db.prove(b"key0020").unwrap();
    db.put(b"key0020", b"new").unwrap();
    db.commit().unwrap();
    let root = db.root();
    // an old operation of the key is in the log but no longer active
    let Witness::Op { loc, op, .. } = &old_proof.witness else {
        panic!("op witness")
    };
    let stale = db.prove_location(db.version(), *loc).unwrap();
    let _ = op;
    assert_eq!(stale.verify(&root, b"key0020"), Err(ProofError::Inactive));
    // setting the bit in the chunk breaks the bitmap root
    let mut forced = stale.clone();
    if let Witness::Op { chunk, loc, .. } = &mut forced.witness {
        chunk[((*loc % 256) / 8) as usize] |= 1 << (*loc % 8);
    }
    assert_eq!(
        forced.verify(&root, b"key0020"),
        Err(ProofError::RootMismatch)
    );
    // forging the value or the gap of a valid proof breaks the MMR path
    let good = db.prove(b"key0030").unwrap();
    for f in [
        |op: &mut Op| {
            if let Op::Update { value, .. } = op {
                value.push(1)
            }
        },
        |op: &mut Op| {
            if let Op::Update { next_key, .. } = op {
                *next_key = b"zzzz".to_vec()
            }
        },
    ] {
        let mut forged = good.clone();
        if let Witness::Op { op, .. } = &mut forged.witness {
            f(op);
        }
        assert_eq!(
            forged.verify(&root, b"key0030"),
            Err(ProofError::BadMmrPath)
        );
    }
    // moving the witness to another location fails
    let mut moved = good.clone();
    if let Witness::Op { loc, .. } = &mut moved.witness {
        *loc += 1;
    }
    assert!(moved.verify(&root, b"key0030").is_err());
    // random garbage never decodes into an accepted proof
    let mut rng = Rng(5);
    for _ in 0..2000 {
        let len = rng.below(400) as usize;
        let junk = rng.bytes(len);
        assert!(verify_bytes(&root, b"key0030", &junk).is_err());
    }
    drop(db);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The root is a pure function of the committed blocks: fixed inputs give these exact roots
/// (the same values are embedded in the TypeScript verifier's vectors). A change here is a
/// consensus change.
#[test]
fn golden_roots() {
    let dir = temp_dir("golden");
    let mut db = Db::open(&dir, Config::default()).unwrap();
    assert_eq!(
        cowboy_qmdb::to_hex(&db.root()),
        "477b219c6ff388cd26bf0cc359e530913f7e26fac9a4a88e3b5578da968de22e"
    );
    db.put(b"solo", b"1").unwrap();
    db.commit().unwrap();
    assert_eq!(
        cowboy_qmdb::to_hex(&db.root()),
        "95c40ea40b69ca3a3955c878d3dc9e60e8ac5ed969527791b8c0e4e310b4dde4"
    );
    // the same block content reached through overlays gives the same root
    let dir2 = temp_dir("golden2");
    let mut db2 = Db::open(
        &dir2,
        Config {
            history: 1,
            segment_bytes: 1,
            auto_prune: true,
            ..Default::default()
        },
    )
    .unwrap();
    let cp = db2.checkpoint();
    db2.put(b"solo", b"2").unwrap();
    db2.put(b"other", b"x").unwrap();
    db2.revert(cp).unwrap();
    let cp = db2.checkpoint();
    db2.put(b"solo", b"1").unwrap();
    db2.release(cp).unwrap();
    assert_eq!(db2.commit().unwrap().root, db.root());
    drop((db, db2));
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(dir2).unwrap();
}
