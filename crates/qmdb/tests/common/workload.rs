//! Deterministic block workload shared by the crash-test writer binary and the test that
//! checks its recovery. Block `i` of seed `s` is a pure function of `(s, i)`.

use std::collections::BTreeMap;

/// One action inside a block.
#[derive(Debug, Clone)]
pub enum Act {
    Put(Vec<u8>, Vec<u8>),
    Del(Vec<u8>),
    Checkpoint,
    Revert,
    Release,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The actions of block `version` (versions start at 1).
pub fn block(seed: u64, version: u64) -> Vec<Act> {
    let mut s = mix(seed ^ version.wrapping_mul(0x1234_5678_9abc_def1));
    let mut next = move || {
        s = mix(s);
        s
    };
    // every 7th block is large so kills land inside big frame writes
    let n = if version.is_multiple_of(7) {
        3000
    } else {
        1 + next() % 300
    };
    let mut acts = Vec::new();
    let mut depth = 0;
    for _ in 0..n {
        let r = next() % 100;
        let k = format!("key-{:05}", next() % 5000).into_bytes();
        match r {
            0..=69 => {
                let len = if next() % 50 == 0 {
                    3000
                } else {
                    (next() % 64) as usize
                };
                let b = next() as u8;
                acts.push(Act::Put(k, vec![b; len]));
            }
            70..=87 => acts.push(Act::Del(k)),
            88..=92 => {
                acts.push(Act::Checkpoint);
                depth += 1;
            }
            93..=96 if depth > 0 => {
                acts.push(Act::Revert);
                depth -= 1;
            }
            _ if depth > 0 => {
                acts.push(Act::Release);
                depth -= 1;
            }
            _ => {}
        }
    }
    acts
}

/// Key written only by junk blocks.
pub const JUNK_KEY: &[u8] = b"junk";

/// Whether the rewind workload commits a junk version `version` (then rewinds it) before the
/// real one.
pub fn has_junk(version: u64) -> bool {
    version.is_multiple_of(3)
}

/// The junk block committed as `version` and then rewound by the rewind workload: another
/// seed's block plus [`JUNK_KEY`].
pub fn junk(seed: u64, version: u64) -> Vec<Act> {
    let mut acts = block(seed ^ 0xA5A5_A5A5, version);
    acts.push(Act::Put(JUNK_KEY.to_vec(), version.to_le_bytes().to_vec()));
    acts
}

/// Applies a block to a plain map (the model), honouring checkpoints.
pub fn apply_model(state: &mut BTreeMap<Vec<u8>, Vec<u8>>, acts: &[Act]) {
    let mut layers: Vec<BTreeMap<Vec<u8>, Option<Vec<u8>>>> = vec![BTreeMap::new()];
    for a in acts {
        match a {
            Act::Put(k, v) => {
                layers
                    .last_mut()
                    .unwrap()
                    .insert(k.clone(), Some(v.clone()));
            }
            Act::Del(k) => {
                layers.last_mut().unwrap().insert(k.clone(), None);
            }
            Act::Checkpoint => layers.push(BTreeMap::new()),
            Act::Revert => {
                layers.pop();
            }
            Act::Release => {
                let top = layers.pop().unwrap();
                layers.last_mut().unwrap().extend(top);
            }
        }
    }
    for l in layers {
        for (k, v) in l {
            match v {
                Some(v) => state.insert(k, v),
                None => state.remove(&k),
            };
        }
    }
}

/// Applies a block to the store (without committing).
pub fn apply_db(db: &mut cowboy_qmdb::Db, acts: &[Act]) {
    let mut cps = Vec::new();
    for a in acts {
        match a {
            Act::Put(k, v) => db.put(k, v).unwrap(),
            Act::Del(k) => db.delete(k).unwrap(),
            Act::Checkpoint => cps.push(db.checkpoint()),
            Act::Revert => db.revert(cps.pop().unwrap()).unwrap(),
            Act::Release => db.release(cps.pop().unwrap()).unwrap(),
        }
    }
}

/// Store configuration used by the crash test: tiny segments and a short window so that
/// segment rotation and pruning happen constantly.
pub fn crash_config() -> cowboy_qmdb::Config {
    cowboy_qmdb::Config {
        history: 4,
        segment_bytes: 64 * 1024,
        auto_prune: true,
        ..Default::default()
    }
}
