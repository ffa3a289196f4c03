//! The in-memory index of live keys (not authenticated; rebuilt on open).
//!
//! Every live key owns a *slot* holding the key, the location of its active update and a link
//! to the slot of its cyclic successor (the next larger live key; the largest links to the
//! smallest). Three structures point at slots:
//!
//! - an exact-match hash table (key → slot) for reads and for classifying a block's changes:
//!   a few cache misses instead of a descent through a large ordered tree;
//! - an ordered tree (key → slot), searched only for ordered questions: the neighbours of an
//!   inserted or deleted key, prefix scans, exclusion-proof predecessors, the snapshot;
//! - `loc_slot[l - base]`: the slot of the key written by operation `l` (meaningful while `l`
//!   is active), so moving an operation above the inactivity floor needs no search at all.
//!
//! With the successor links an update of an existing key finds the `next_key` it must write
//! without touching the tree. The links are kept exact by [`KeyIndex::relink`] around every
//! inserted or deleted key and rebuilt in one ordered pass by [`KeyIndex::relink_all`].
//!
//! The hash table is seeded per process ([`RandomState`]) so crafted keys cannot make probe
//! sequences long; it is never iterated, so its order reaches no result.

use crate::ikey::IKey;
use std::collections::BTreeMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::ops::Bound;

/// Marks "no slot" in `loc_slot` (an operation that is not an active update).
pub const NO_SLOT: u32 = u32::MAX;
const EMPTY: u64 = u64::MAX;

/// One live key's slot.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key (stale once the slot is freed).
    pub key: IKey,
    /// Location of the key's active update.
    pub loc: u64,
    /// Slot of the key's cyclic successor (exact after the commit that last changed the key
    /// set, see the module doc).
    pub next: u32,
}

/// Open-addressing hash table (linear probing, backward-shift deletion) of
/// `(hash32 << 32) | slot` words. The home bucket of a word is `hash32 & mask`, so the table
/// can grow and delete without rehashing keys. Load factor at most 3/4.
#[derive(Debug)]
struct SlotTable {
    words: Vec<u64>,
    len: usize,
    hasher: RandomState,
}

impl Default for SlotTable {
    fn default() -> Self {
        SlotTable {
            words: vec![EMPTY; 16],
            len: 0,
            hasher: RandomState::new(),
        }
    }
}

impl SlotTable {
    #[inline]
    fn hash(&self, key: &[u8]) -> u32 {
        (self.hasher.hash_one(key) >> 32) as u32
    }

    #[inline]
    fn mask(&self) -> usize {
        self.words.len() - 1
    }

    /// Slot of `key` (`h` = its hash), comparing candidate keys through `entries`.
    #[inline]
    fn find(&self, h: u32, key: &[u8], entries: &[Entry]) -> Option<(usize, u32)> {
        let mask = self.mask();
        let mut i = h as usize & mask;
        loop {
            let w = self.words[i];
            if w == EMPTY {
                return None;
            }
            if (w >> 32) as u32 == h {
                let slot = w as u32;
                if entries[slot as usize].key.as_slice() == key {
                    return Some((i, slot));
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `slot` for a key of hash `h` that is not in the table.
    fn insert(&mut self, h: u32, slot: u32) {
        if (self.len + 1) * 4 > self.words.len() * 3 {
            self.grow();
        }
        self.place((u64::from(h) << 32) | u64::from(slot));
        self.len += 1;
    }

    fn place(&mut self, w: u64) {
        let mask = self.mask();
        let mut i = (w >> 32) as usize & mask;
        while self.words[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.words[i] = w;
    }

    fn grow(&mut self) {
        let size = self.words.len() * 2;
        let old = std::mem::replace(&mut self.words, vec![EMPTY; size]);
        for w in old {
            if w != EMPTY {
                self.place(w);
            }
        }
    }

    /// Removes the word at bucket `i`, shifting later members of its probe run back.
    fn remove_at(&mut self, mut i: usize) {
        let mask = self.mask();
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let w = self.words[j];
            if w == EMPTY {
                break;
            }
            let home = (w >> 32) as usize & mask;
            // `w` may move to the hole at `i` unless its home lies cyclically in (i, j].
            let stays = if i <= j {
                i < home && home <= j
            } else {
                i < home || home <= j
            };
            if !stays {
                self.words[i] = w;
                i = j;
            }
        }
        self.words[i] = EMPTY;
        self.len -= 1;
    }

    fn reserve(&mut self, n: usize) {
        while n * 4 > self.words.len() * 3 {
            self.grow();
        }
    }
}

/// The index. Invariants: `tree` and `table` name exactly the live keys, each with the slot
/// whose `entries[slot].key` is that key; free slots are in `free`; `len()` = live keys.
#[derive(Debug, Default)]
pub struct KeyIndex {
    tree: BTreeMap<IKey, u32>,
    table: SlotTable,
    entries: Vec<Entry>,
    free: Vec<u32>,
    /// First location `loc_slot` describes (the pruned prefix).
    pub base: u64,
    /// `loc_slot[l - base]`: slot of the key written by operation `l`, or [`NO_SLOT`].
    pub loc_slot: Vec<u32>,
}

impl KeyIndex {
    /// An empty index whose `loc_slot` starts at location `base`.
    pub fn new(base: u64) -> KeyIndex {
        KeyIndex {
            base,
            ..KeyIndex::default()
        }
    }

    /// Builds the index from `(key, location)` pairs in strictly ascending key order, with
    /// `loc_slot` covering `[base, end)`. Links are exact. `None` if the order is violated or
    /// a location is outside `[base, end)`.
    pub fn from_sorted(items: Vec<(IKey, u64)>, base: u64, end: u64) -> Option<KeyIndex> {
        let mut ix = KeyIndex::new(base);
        ix.loc_slot = vec![NO_SLOT; (end - base) as usize];
        ix.entries.reserve(items.len());
        ix.table.reserve(items.len());
        let mut tree_items = Vec::with_capacity(items.len());
        for (i, (key, loc)) in items.into_iter().enumerate() {
            if loc < base || loc >= end {
                return None;
            }
            if tree_items
                .last()
                .is_some_and(|(p, _): &(IKey, u32)| *p >= key)
            {
                return None;
            }
            let slot = i as u32;
            ix.loc_slot[(loc - base) as usize] = slot;
            let h = ix.table.hash(key.as_slice());
            ix.table.insert(h, slot);
            ix.entries.push(Entry {
                key: key.clone(),
                loc,
                next: slot,
            });
            tree_items.push((key, slot));
        }
        ix.tree = tree_items.into_iter().collect();
        ix.relink_all();
        Some(ix)
    }

    /// Number of live keys.
    pub fn len(&self) -> u64 {
        self.tree.len() as u64
    }

    /// Slot of live `key`.
    #[inline]
    pub fn slot(&self, key: &[u8]) -> Option<u32> {
        let h = self.table.hash(key);
        self.table.find(h, key, &self.entries).map(|(_, s)| s)
    }

    /// Location of live `key`'s active update.
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        self.slot(key).map(|s| self.entries[s as usize].loc)
    }

    /// The slot's entry.
    #[inline]
    pub fn entry(&self, slot: u32) -> &Entry {
        &self.entries[slot as usize]
    }

    /// Sets the location of the key owning `slot`.
    #[inline]
    pub fn set_loc(&mut self, slot: u32, loc: u64) {
        self.entries[slot as usize].loc = loc;
    }

    /// The key of the successor of the key owning `slot`.
    #[inline]
    pub fn succ_key(&self, slot: u32) -> &IKey {
        &self.entries[self.entries[slot as usize].next as usize].key
    }

    /// Inserts `key` at `loc` or moves it there; returns its slot and previous location.
    /// Links are not maintained (see [`KeyIndex::relink`]).
    pub fn upsert(&mut self, key: &IKey, loc: u64) -> (u32, Option<u64>) {
        let bytes = key.as_slice();
        let h = self.table.hash(bytes);
        if let Some((_, s)) = self.table.find(h, bytes, &self.entries) {
            let prior = std::mem::replace(&mut self.entries[s as usize].loc, loc);
            return (s, Some(prior));
        }
        let entry = Entry {
            key: key.clone(),
            loc,
            next: 0,
        };
        let s = match self.free.pop() {
            Some(s) => {
                self.entries[s as usize] = entry;
                s
            }
            None => {
                self.entries.push(entry);
                (self.entries.len() - 1) as u32
            }
        };
        self.entries[s as usize].next = s;
        self.table.insert(h, s);
        self.tree.insert(key.clone(), s);
        (s, None)
    }

    /// Removes `key`; returns its last location. Links are not maintained.
    pub fn remove(&mut self, key: &[u8]) -> Option<u64> {
        let h = self.table.hash(key);
        let (i, s) = self.table.find(h, key, &self.entries)?;
        self.table.remove_at(i);
        self.tree.remove(key);
        self.free.push(s);
        Some(self.entries[s as usize].loc)
    }

    /// Slot of the operation at `loc`.
    #[inline]
    pub fn slot_of_loc(&self, loc: u64) -> u32 {
        self.loc_slot[(loc - self.base) as usize]
    }

    /// Forgets `loc_slot` below `base`. Dropping a prefix moves the rest, so it happens only
    /// once the dead prefix is at least as long as the live part (amortized O(1)); until then
    /// `self.base` stays lower and the dead entries are simply unused.
    pub fn prune(&mut self, base: u64) {
        let dead = base.saturating_sub(self.base) as usize;
        if dead > 0 && dead * 2 >= self.loc_slot.len() {
            self.loc_slot.drain(..dead);
            self.base = base;
        }
    }

    /// Largest live key `< key`, else the largest live key (cyclic predecessor), with its slot.
    pub fn pred_wrap(&self, key: &[u8]) -> Option<(&IKey, u32)> {
        self.tree
            .range::<[u8], _>((Bound::Unbounded, Bound::Excluded(key)))
            .next_back()
            .or_else(|| self.tree.last_key_value())
            .map(|(k, &s)| (k, s))
    }

    /// Smallest live key `> key`, else the smallest live key (cyclic successor), with its slot.
    pub fn succ_wrap(&self, key: &[u8]) -> Option<(&IKey, u32)> {
        self.tree
            .range::<[u8], _>((Bound::Excluded(key), Bound::Unbounded))
            .next()
            .or_else(|| self.tree.first_key_value())
            .map(|(k, &s)| (k, s))
    }

    /// Makes the successor links exact after `key` was inserted, deleted or left alone:
    /// relinks `key` (if live) and its cyclic predecessor. Returns the predecessor's slot.
    pub fn relink(&mut self, key: &[u8]) -> Option<u32> {
        if let Some(s) = self.slot(key) {
            let (_, n) = self.succ_wrap(key).expect("key is live");
            self.entries[s as usize].next = n;
        }
        let (p, ps) = self.pred_wrap(key).map(|(k, s)| (k.clone(), s))?;
        let (_, n) = self.succ_wrap(p.as_slice()).expect("non-empty");
        self.entries[ps as usize].next = n;
        Some(ps)
    }

    /// Rebuilds every successor link in one ordered pass.
    pub fn relink_all(&mut self) {
        let Some((_, &first)) = self.tree.first_key_value() else {
            return;
        };
        let mut prev: Option<u32> = None;
        for &s in self.tree.values() {
            if let Some(p) = prev {
                self.entries[p as usize].next = s;
            }
            prev = Some(s);
        }
        if let Some(p) = prev {
            self.entries[p as usize].next = first;
        }
    }

    /// Live keys from `start` (inclusive) upward, ascending, with their locations.
    pub fn range_from<'a>(&'a self, start: &'a [u8]) -> impl Iterator<Item = (&'a IKey, u64)> + 'a {
        self.tree
            .range::<[u8], _>((Bound::Included(start), Bound::Unbounded))
            .map(|(k, &s)| (k, self.entries[s as usize].loc))
    }

    /// Live keys below `end` (exclusive, or all when unbounded), descending.
    pub fn range_below<'a>(&'a self, end: Bound<&'a [u8]>) -> impl Iterator<Item = &'a IKey> + 'a {
        self.tree
            .range::<[u8], _>((Bound::Unbounded, end))
            .rev()
            .map(|(k, _)| k)
    }

    /// Every live key with its location, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (&IKey, u64)> + '_ {
        self.tree
            .iter()
            .map(|(k, &s)| (k, self.entries[s as usize].loc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(ix: &KeyIndex, model: &BTreeMap<Vec<u8>, u64>) {
        assert_eq!(ix.len(), model.len() as u64);
        let keys: Vec<&Vec<u8>> = model.keys().collect();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(ix.get(k), model.get(*k).copied());
            let s = ix.slot(k).unwrap();
            assert_eq!(ix.succ_key(s).as_slice(), &keys[(i + 1) % keys.len()][..]);
        }
        let listed: Vec<(Vec<u8>, u64)> =
            ix.iter().map(|(k, l)| (k.as_slice().to_vec(), l)).collect();
        let want: Vec<(Vec<u8>, u64)> = model.iter().map(|(k, l)| (k.clone(), *l)).collect();
        assert_eq!(listed, want);
    }

    #[test]
    fn random_inserts_deletes_keep_table_tree_and_links_exact() {
        let mut ix = KeyIndex::new(0);
        let mut model = BTreeMap::new();
        let mut x = 99u64;
        for round in 0..3000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = format!("k{}", (x >> 33) % 700).into_bytes();
            if (x >> 20).is_multiple_of(3) {
                assert_eq!(ix.remove(&k), model.remove(&k));
            } else {
                let (_, prior) = ix.upsert(&IKey::new(&k), round);
                assert_eq!(prior, model.insert(k.clone(), round));
            }
            ix.relink(&k);
            if round % 97 == 0 {
                check(&ix, &model);
            }
        }
        check(&ix, &model);
        ix.relink_all();
        check(&ix, &model);
        let rebuilt = KeyIndex::from_sorted(
            model.iter().map(|(k, l)| (IKey::new(k), *l)).collect(),
            0,
            3000,
        )
        .unwrap();
        check(&rebuilt, &model);
        assert!(
            KeyIndex::from_sorted(vec![(IKey::new(b"b"), 1), (IKey::new(b"a"), 2)], 0, 3).is_none()
        );
    }

    #[test]
    fn table_survives_growth_and_backward_shift() {
        let mut ix = KeyIndex::new(0);
        for i in 0..5000u64 {
            ix.upsert(&IKey::new(&i.to_be_bytes()), i);
        }
        for i in (0..5000u64).step_by(2) {
            assert_eq!(ix.remove(&i.to_be_bytes()), Some(i));
        }
        for i in 0..5000u64 {
            let want = (i % 2 == 1).then_some(i);
            assert_eq!(ix.get(&i.to_be_bytes()), want);
        }
    }
}
