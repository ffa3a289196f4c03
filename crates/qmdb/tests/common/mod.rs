//! Shared helpers for the integration tests: a deterministic PRNG, temp dirs and an
//! independent reference model of the store's history rule.
#![allow(dead_code)]

use cowboy_qmdb::hash::{
    CHUNK_BITS, CHUNK_BYTES, bitmap_leaf, bitmap_node, mmr_bag, mmr_leaf, mmr_node, state_root,
};
use cowboy_qmdb::{Hash, Op};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// SplitMix64: small, deterministic, good enough for test workloads.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// A fresh empty directory under the system temp dir.
pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "cowboy-qmdb-{tag}-{}-{}",
        std::process::id(),
        Rng(tag.len() as u64 ^ nanos()).next()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn nanos() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
}

/// Key drawn from a small space so that updates, inserts and deletes all happen often.
pub fn key_for(i: u64) -> Vec<u8> {
    // varied lengths and shared prefixes exercise the ordering
    let mut k = vec![(i % 5) as u8 + 1];
    k.extend_from_slice(format!("k{}", i * 7919 % 1000).as_bytes());
    if i.is_multiple_of(3) {
        k.push(0);
    }
    k
}

/// Reference model: naive re-implementation of the history rule of docs/state.md, with the
/// root recomputed from scratch (all leaves, full bitmap) at every commit.
#[derive(Debug, Clone, Default)]
pub struct Model {
    pub state: BTreeMap<Vec<u8>, Vec<u8>>,
    pub log: Vec<Op>,
    pub floor: u64,
}

impl Model {
    fn succ(state: &BTreeMap<Vec<u8>, Vec<u8>>, k: &[u8]) -> Vec<u8> {
        state
            .range::<[u8], _>((std::ops::Bound::Excluded(k), std::ops::Bound::Unbounded))
            .next()
            .or_else(|| state.iter().next())
            .unwrap()
            .0
            .clone()
    }
    fn pred(state: &BTreeMap<Vec<u8>, Vec<u8>>, k: &[u8]) -> Option<Vec<u8>> {
        state
            .range::<[u8], _>((std::ops::Bound::Unbounded, std::ops::Bound::Excluded(k)))
            .next_back()
            .or_else(|| state.iter().next_back())
            .map(|(k, _)| k.clone())
    }

    /// Location of the latest op per key (Update or Delete).
    fn latest(&self) -> HashMap<Vec<u8>, usize> {
        let mut m = HashMap::new();
        for (i, op) in self.log.iter().enumerate() {
            if let Some(k) = op.key() {
                m.insert(k.to_vec(), i);
            }
        }
        m
    }

    fn active(&self) -> Vec<bool> {
        let latest = self.latest();
        self.log
            .iter()
            .enumerate()
            .map(|(i, op)| matches!(op, Op::Update { key, .. } if latest[key] == i))
            .collect()
    }

    /// Applies one block of final changes.
    pub fn commit(&mut self, changes: &BTreeMap<Vec<u8>, Option<Vec<u8>>>) {
        let batch_start = self.log.len() as u64;
        let mut new = self.state.clone();
        let mut effective = BTreeMap::new();
        let mut structural = Vec::new();
        for (k, v) in changes {
            let existed = self.state.contains_key(k);
            match v {
                None if !existed => continue,
                None => {
                    new.remove(k);
                    structural.push(k.clone());
                }
                Some(v) => {
                    new.insert(k.clone(), v.clone());
                    if !existed {
                        structural.push(k.clone());
                    }
                }
            }
            effective.insert(k.clone(), v.clone());
        }
        let mut touched = BTreeMap::new();
        for k in &structural {
            if let Some(p) = Self::pred(&new, k)
                && !effective.contains_key(&p)
            {
                touched.insert(p, ());
            }
        }
        let mut keys: Vec<Vec<u8>> = effective
            .keys()
            .cloned()
            .chain(touched.keys().cloned())
            .collect();
        keys.sort();
        for k in &keys {
            let op = match new.get(k) {
                Some(v) => Op::Update {
                    key: k.clone(),
                    value: v.clone(),
                    next_key: Self::succ(&new, k),
                },
                None => Op::Delete { key: k.clone() },
            };
            self.log.push(op);
        }
        let mut budget = keys.len() as u64 + 1;
        while budget > 0 && self.floor < batch_start {
            let active = self.active();
            let loc = self.floor as usize;
            self.floor += 1;
            if active[loc] {
                self.log.push(self.log[loc].clone());
                budget -= 1;
            }
        }
        self.state = new;
        self.log.push(Op::Commit {
            floor: self.floor,
            active_keys: self.state.len() as u64,
        });
    }

    /// The root computed from nothing but the log.
    pub fn root(&self) -> Hash {
        let leaves: Vec<Hash> = self.log.iter().map(|op| mmr_leaf(&op.encode())).collect();
        fn tree(l: &[Hash]) -> Hash {
            if l.len() == 1 {
                l[0]
            } else {
                mmr_node(&tree(&l[..l.len() / 2]), &tree(&l[l.len() / 2..]))
            }
        }
        let n = leaves.len() as u64;
        let mut peaks = Vec::new();
        let mut start = 0usize;
        for k in (0..64u32).rev() {
            if n & (1 << k) != 0 {
                peaks.push(tree(&leaves[start..start + (1usize << k)]));
                start += 1 << k;
            }
        }
        let mmr_root = mmr_bag(n, &peaks);
        let active = self.active();
        let chunks = (n.div_ceil(CHUNK_BITS)).max(1) as usize;
        let width = chunks.next_power_of_two();
        let mut level: Vec<Hash> = (0..width)
            .map(|c| {
                let mut chunk = [0u8; CHUNK_BYTES];
                for b in 0..CHUNK_BITS as usize {
                    if active
                        .get(c * CHUNK_BITS as usize + b)
                        .copied()
                        .unwrap_or(false)
                    {
                        chunk[b / 8] |= 1 << (b % 8);
                    }
                }
                bitmap_leaf(&chunk)
            })
            .collect();
        while level.len() > 1 {
            level = level.chunks(2).map(|p| bitmap_node(&p[0], &p[1])).collect();
        }
        state_root(n, &mmr_root, &level[0])
    }
}
