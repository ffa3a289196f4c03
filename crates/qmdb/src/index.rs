//! The in-memory index of live keys (not authenticated; rebuilt on open).
//!
//! Every live key owns a *slot* holding the key (its only in-memory copy), the location of its
//! active update and a link to the slot of its cyclic successor (the next larger live key; the
//! largest links to the smallest). Three structures point at slots:
//!
//! - an exact-match hash table of fingerprinted slot words (`hash32 << 32 | slot`, 8 bytes per
//!   bucket) for reads and for classifying a block's changes: a probe compares the full key only
//!   when the fingerprint matches, so a fingerprint collision costs one extra comparison and can
//!   never give a wrong answer;
//! - an ordered list of 12-byte items (the key's first 8 bytes and the slot) in sorted blocks of
//!   at most [`BLOCK_MAX`] items, searched only for ordered questions: the neighbours of an
//!   inserted or deleted key, prefix scans, exclusion-proof predecessors, the snapshot. The
//!   8-byte head decides almost every comparison without touching the slot;
//! - `loc_slot[l - base]`: the slot of the key written by operation `l` (meaningful while `l`
//!   is active), so moving an operation above the inactivity floor needs no search at all.
//!
//! With the successor links an update of an existing key finds the `next_key` it must write
//! without touching the ordered list. The links are kept exact by [`KeyIndex::relink`] around
//! every inserted or deleted key and rebuilt in one ordered pass by [`KeyIndex::relink_all`].
//!
//! The hash table is seeded per process ([`RandomState`]) so crafted keys cannot make probe
//! sequences long; it is never iterated, so its order reaches no result.

use crate::ikey::IKey;
use crate::mem;
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

/// `size` empty table words, on huge pages when large (advised before the first touch).
fn alloc_words(size: usize) -> Vec<u64> {
    let mut v = Vec::with_capacity(size);
    mem::advise_huge(&v, false);
    v.resize(size, EMPTY);
    v
}

/// Open-addressing hash table (linear probing, backward-shift deletion) of
/// `(hash32 << 32) | slot` words. The home bucket of a word is `hash32 & mask`, so the table
/// can grow and delete without rehashing keys. Load factor at most 3/4.
#[derive(Debug)]
struct SlotTable {
    words: Vec<u64>,
    len: usize,
    hasher: RandomState,
    /// Hash bits kept (all 32 unless a test narrows them to force collisions).
    fp_mask: u32,
}

impl Default for SlotTable {
    fn default() -> Self {
        SlotTable {
            words: alloc_words(16),
            len: 0,
            hasher: RandomState::new(),
            fp_mask: u32::MAX,
        }
    }
}

impl SlotTable {
    #[inline]
    fn hash(&self, key: &[u8]) -> u32 {
        (self.hasher.hash_one(key) >> 32) as u32 & self.fp_mask
    }

    /// Keeps only `bits` (clamped to 1..=32) bits of every hash. The table must be empty.
    fn set_fingerprint_bits(&mut self, bits: u32) {
        debug_assert_eq!(self.len, 0);
        self.fp_mask = u32::MAX >> (32 - bits.clamp(1, 32));
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

    /// Prefetches the home bucket of hash `h`.
    #[inline]
    fn prefetch(&self, h: u32) {
        mem::prefetch(&self.words[h as usize & self.mask()]);
    }

    /// The first slot in `h`'s probe run whose fingerprint matches (a likely candidate).
    #[inline]
    fn candidate(&self, h: u32) -> Option<u32> {
        let mask = self.mask();
        let mut i = h as usize & mask;
        loop {
            let w = self.words[i];
            if w == EMPTY {
                return None;
            }
            if (w >> 32) as u32 == h {
                return Some(w as u32);
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
        let old = std::mem::replace(&mut self.words, alloc_words(size));
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

/// Longest block of the ordered list; a longer one is split in two.
const BLOCK_MAX: usize = 512;
/// Block length of a bulk build ([`KeyIndex::from_sorted`]): room for inserts before a split.
const BLOCK_FILL: usize = 384;
/// A block this short is merged into a neighbour when the two fit in one block.
const BLOCK_MIN: usize = 64;

/// The first 8 bytes of `key`, zero-padded, big-endian: when the heads of two keys differ they
/// order the keys exactly as byte order does (a zero pad only stands for "shorter").
#[inline]
fn head_of(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

/// One member of the ordered list: a slot and the head of its key (12 bytes). Most
/// comparisons are decided by the head without touching the slot's entry.
#[derive(Clone, Copy, Debug)]
struct Item {
    hi: u32,
    lo: u32,
    slot: u32,
}

impl Item {
    #[inline]
    fn new(key: &[u8], slot: u32) -> Item {
        let h = head_of(key);
        Item {
            hi: (h >> 32) as u32,
            lo: h as u32,
            slot,
        }
    }

    #[inline]
    fn head(&self) -> u64 {
        (u64::from(self.hi) << 32) | u64::from(self.lo)
    }

    /// Order of this item's key against `key` (whose head is `head`).
    #[inline]
    fn cmp_key(&self, head: u64, key: &[u8], entries: &[Entry]) -> std::cmp::Ordering {
        match self.head().cmp(&head) {
            std::cmp::Ordering::Equal => entries[self.slot as usize].key.as_slice().cmp(key),
            o => o,
        }
    }
}

/// An empty block with room for [`BLOCK_MAX`] + 1 items: a block never reallocates (it
/// splits when an insert makes it longer than [`BLOCK_MAX`]).
fn new_block() -> Vec<Item> {
    Vec::with_capacity(BLOCK_MAX + 1)
}

/// A position in the ordered list: block `b`, index `i` (`b == blocks.len()` is the end).
type Pos = (usize, usize);

/// The live keys in ascending order, as slots grouped in sorted blocks (the keys themselves
/// stay in the slots: no second copy). Invariants: every block is non-empty and at most
/// [`BLOCK_MAX`] long, every key of block `b` is smaller than every key of block `b + 1`,
/// `heads[b] == blocks[b][0]`.
#[derive(Debug, Default)]
struct Order {
    heads: Vec<Item>,
    blocks: Vec<Vec<Item>>,
}

impl Order {
    /// First position whose key is `>= key`.
    fn lower_bound(&self, key: &[u8], entries: &[Entry]) -> Pos {
        let h = head_of(key);
        let nb = self
            .heads
            .partition_point(|it| it.cmp_key(h, key, entries).is_lt());
        if nb == 0 {
            return (0, 0);
        }
        let b = nb - 1;
        let blk = &self.blocks[b];
        let i = blk.partition_point(|it| it.cmp_key(h, key, entries).is_lt());
        if i == blk.len() { (b + 1, 0) } else { (b, i) }
    }

    /// First position whose key is `> key`.
    fn upper_bound(&self, key: &[u8], entries: &[Entry]) -> Pos {
        let (b, i) = self.lower_bound(key, entries);
        match self.at((b, i)) {
            Some(it) if entries[it.slot as usize].key.as_slice() == key => self.step((b, i)),
            _ => (b, i),
        }
    }

    #[inline]
    fn at(&self, (b, i): Pos) -> Option<Item> {
        self.blocks.get(b).map(|blk| blk[i])
    }

    /// The position after `p` (`p` is not the end).
    #[inline]
    fn step(&self, (b, i): Pos) -> Pos {
        if i + 1 < self.blocks[b].len() {
            (b, i + 1)
        } else {
            (b + 1, 0)
        }
    }

    /// The position before `p`, `None` at the start.
    #[inline]
    fn back(&self, (b, i): Pos) -> Option<Pos> {
        if i > 0 {
            Some((b, i - 1))
        } else if b > 0 {
            Some((b - 1, self.blocks[b - 1].len() - 1))
        } else {
            None
        }
    }

    fn last(&self) -> Option<Pos> {
        self.blocks
            .last()
            .map(|blk| (self.blocks.len() - 1, blk.len() - 1))
    }

    /// Inserts `slot`, whose key (in `entries`) is not in the list.
    fn insert(&mut self, slot: u32, entries: &[Entry]) {
        let key = entries[slot as usize].key.as_slice();
        let item = Item::new(key, slot);
        if self.blocks.is_empty() {
            let mut blk = new_block();
            blk.push(item);
            self.blocks.push(blk);
            self.heads.push(item);
            return;
        }
        let (mut b, mut i) = self.lower_bound(key, entries);
        if b == self.blocks.len() {
            b -= 1;
            i = self.blocks[b].len();
        }
        let blk = &mut self.blocks[b];
        blk.insert(i, item);
        if blk.len() > BLOCK_MAX {
            let mut tail = new_block();
            tail.extend(blk.drain(blk.len() / 2..));
            self.heads.insert(b + 1, tail[0]);
            self.blocks.insert(b + 1, tail);
        }
        self.heads[b] = self.blocks[b][0];
    }

    /// Removes the item of `key` (which must be in the list).
    fn remove(&mut self, key: &[u8], entries: &[Entry]) {
        let (b, i) = self.lower_bound(key, entries);
        debug_assert!(
            self.at((b, i))
                .is_some_and(|it| entries[it.slot as usize].key.as_slice() == key)
        );
        self.blocks[b].remove(i);
        let n = self.blocks[b].len();
        if n == 0 {
            self.blocks.remove(b);
            self.heads.remove(b);
            return;
        }
        self.heads[b] = self.blocks[b][0];
        if n >= BLOCK_MIN {
            return;
        }
        // Merge a short block into a neighbour when both fit in one block.
        if b + 1 < self.blocks.len() && n + self.blocks[b + 1].len() <= BLOCK_MAX {
            let next = self.blocks.remove(b + 1);
            self.heads.remove(b + 1);
            self.blocks[b].extend_from_slice(&next);
        } else if b > 0 && n + self.blocks[b - 1].len() <= BLOCK_MAX {
            let cur = self.blocks.remove(b);
            self.heads.remove(b);
            self.blocks[b - 1].extend_from_slice(&cur);
        }
    }

    /// Builds the list from slots whose keys ascend strictly.
    fn from_sorted(items: Vec<Item>) -> Order {
        let blocks: Vec<Vec<Item>> = items
            .chunks(BLOCK_FILL)
            .map(|c| {
                let mut blk = new_block();
                blk.extend_from_slice(c);
                blk
            })
            .collect();
        let heads = blocks.iter().map(|b| b[0]).collect();
        Order { heads, blocks }
    }

    /// Items from `p` upward.
    fn iter_from(&self, p: Pos) -> impl Iterator<Item = Item> + '_ {
        let (b, i) = p;
        self.blocks
            .get(b..)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .flat_map(move |(n, blk)| blk[if n == 0 { i } else { 0 }..].iter().copied())
    }

    /// Items strictly before `p`, downward.
    fn iter_before(&self, p: Pos) -> impl Iterator<Item = Item> + '_ {
        let (b, i) = p;
        let full = self.blocks[..b.min(self.blocks.len())].iter().rev();
        let part = self.blocks.get(b).map(|blk| &blk[..i]).unwrap_or(&[]);
        part.iter()
            .rev()
            .copied()
            .chain(full.flat_map(|blk| blk.iter().rev().copied()))
    }
}

/// The index. Invariants: `table` (and `order`, outside bulk mode) name exactly the live keys,
/// each with the slot whose `entries[slot].key` is that key; free slots are in `free`;
/// `len()` = live keys.
#[derive(Debug, Default)]
pub struct KeyIndex {
    order: Order,
    /// Bulk mode (see [`KeyIndex::begin_bulk`]): `order` is empty and not maintained.
    bulk: bool,
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

    /// An empty index whose hash table keeps only `bits` (1..=32) bits of each key's hash:
    /// fewer bits only mean more full-key comparisons (tests use 1–2 bits to force collisions),
    /// never a different answer.
    pub fn with_fingerprint_bits(base: u64, bits: u32) -> KeyIndex {
        let mut ix = KeyIndex::new(base);
        ix.table.set_fingerprint_bits(bits);
        ix
    }

    /// Builds the index from `(key, location)` pairs in strictly ascending key order, with
    /// `loc_slot` covering `[base, end)` and the table keeping `bits` hash bits (see
    /// [`KeyIndex::with_fingerprint_bits`]). Links are exact. `None` if the order is violated, a
    /// location is outside `[base, end)` or two keys name the same location.
    pub fn from_sorted(
        items: Vec<(IKey, u64)>,
        base: u64,
        end: u64,
        bits: u32,
    ) -> Option<KeyIndex> {
        let mut ix = KeyIndex::with_fingerprint_bits(base, bits);
        ix.loc_slot = vec![NO_SLOT; (end - base) as usize];
        ix.entries.reserve(items.len());
        mem::advise_huge(&ix.entries, false);
        ix.table.reserve(items.len());
        let mut order = Vec::with_capacity(items.len());
        for (i, (key, loc)) in items.into_iter().enumerate() {
            if loc < base || loc >= end {
                return None;
            }
            if ix
                .entries
                .last()
                .is_some_and(|p| p.key.as_slice() >= key.as_slice())
            {
                return None;
            }
            let slot = i as u32;
            if ix.loc_slot[(loc - base) as usize] != NO_SLOT {
                return None; // two keys cannot share one active update
            }
            ix.loc_slot[(loc - base) as usize] = slot;
            let h = ix.table.hash(key.as_slice());
            ix.table.insert(h, slot);
            order.push(Item::new(key.as_slice(), slot));
            ix.entries.push(Entry {
                key,
                loc,
                next: slot,
            });
        }
        ix.order = Order::from_sorted(order);
        ix.relink_all();
        Some(ix)
    }

    /// Number of live keys.
    pub fn len(&self) -> u64 {
        self.table.len as u64
    }

    /// Enters bulk mode for a replay of many operations: inserts and removals maintain only the
    /// hash table and the slots, and ordered queries must not be asked until
    /// [`KeyIndex::end_bulk`] sorts the live keys once (instead of ~10M ordered inserts).
    pub fn begin_bulk(&mut self) {
        self.bulk = true;
        self.order = Order::default();
    }

    /// Leaves bulk mode: rebuilds the ordered list from the live slots (one sort) and every
    /// successor link.
    pub fn end_bulk(&mut self) {
        if !self.bulk {
            return;
        }
        self.bulk = false;
        let entries = &self.entries;
        let mut items: Vec<Item> = self
            .table
            .words
            .iter()
            .filter(|&&w| w != EMPTY)
            .map(|&w| Item::new(entries[w as u32 as usize].key.as_slice(), w as u32))
            .collect();
        // Keys are unique, so the order is total and the result does not depend on the table's
        // layout.
        items.sort_unstable_by(|a, b| {
            a.head().cmp(&b.head()).then_with(|| {
                entries[a.slot as usize]
                    .key
                    .as_slice()
                    .cmp(entries[b.slot as usize].key.as_slice())
            })
        });
        self.order = Order::from_sorted(items);
        self.relink_all();
    }

    /// Approximate heap bytes held by the index (for `Stats` and the docs' per-key figure).
    pub fn heap_bytes(&self) -> u64 {
        let order = self
            .order
            .blocks
            .iter()
            .map(|b| b.capacity())
            .sum::<usize>()
            * size_of::<Item>()
            + self.order.blocks.capacity() * size_of::<Vec<Item>>()
            + self.order.heads.capacity() * size_of::<Item>();
        (order
            + self.table.words.capacity() * 8
            + self.entries.capacity() * size_of::<Entry>()
            + self.free.capacity() * 4
            + self.loc_slot.capacity() * 4) as u64
    }

    /// Slot of live `key`.
    #[inline]
    pub fn slot(&self, key: &[u8]) -> Option<u32> {
        let h = self.table.hash(key);
        self.table.find(h, key, &self.entries).map(|(_, s)| s)
    }

    /// The table hash of `key` (for [`KeyIndex::slot_hashed`] and the prefetch helpers).
    #[inline]
    pub fn hash(&self, key: &[u8]) -> u32 {
        self.table.hash(key)
    }

    /// Slot of live `key` whose [`KeyIndex::hash`] is `h`.
    #[inline]
    pub fn slot_hashed(&self, h: u32, key: &[u8]) -> Option<u32> {
        self.table.find(h, key, &self.entries).map(|(_, s)| s)
    }

    /// Prefetches the table bucket of hash `h` (a performance hint only).
    #[inline]
    pub fn prefetch_bucket(&self, h: u32) {
        self.table.prefetch(h);
    }

    /// Prefetches the slot a lookup of hash `h` will most likely compare (its bucket should
    /// already be cached, see [`KeyIndex::prefetch_bucket`]). A performance hint only.
    #[inline]
    pub fn prefetch_candidate(&self, h: u32) {
        if let Some(s) = self.table.candidate(h) {
            self.prefetch_slot(s);
        }
    }

    /// Prefetches `slot`'s entry (a performance hint only; any `slot` value is accepted).
    #[inline]
    pub fn prefetch_slot(&self, slot: u32) {
        if let Some(e) = self.entries.get(slot as usize) {
            mem::prefetch(e);
        }
    }

    /// Prefetches the entry of the successor of the key owning `slot`.
    #[inline]
    pub fn prefetch_succ(&self, slot: u32) {
        self.prefetch_slot(self.entries[slot as usize].next);
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
                if self.entries.len() == self.entries.capacity() {
                    // Grow by a quarter rather than doubling (a 10M-key slot array is ~0.5 GB;
                    // still amortized O(1) per push).
                    self.entries.reserve_exact(self.entries.len() / 4 + 1024);
                    mem::advise_huge(&self.entries, true);
                }
                self.entries.push(entry);
                (self.entries.len() - 1) as u32
            }
        };
        self.entries[s as usize].next = s;
        self.table.insert(h, s);
        if !self.bulk {
            self.order.insert(s, &self.entries);
        }
        (s, None)
    }

    /// Removes `key`; returns its last location. Links are not maintained.
    pub fn remove(&mut self, key: &[u8]) -> Option<u64> {
        let h = self.table.hash(key);
        let (i, s) = self.table.find(h, key, &self.entries)?;
        self.table.remove_at(i);
        if !self.bulk {
            self.order.remove(key, &self.entries);
        }
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

    #[inline]
    fn keyed(&self, it: Item) -> (&IKey, u32) {
        (&self.entries[it.slot as usize].key, it.slot)
    }

    /// Largest live key `< key`, else the largest live key (cyclic predecessor), with its slot.
    pub fn pred_wrap(&self, key: &[u8]) -> Option<(&IKey, u32)> {
        let p = self.order.lower_bound(key, &self.entries);
        self.order
            .back(p)
            .or_else(|| self.order.last())
            .and_then(|p| self.order.at(p))
            .map(|it| self.keyed(it))
    }

    /// Smallest live key `> key`, else the smallest live key (cyclic successor), with its slot.
    pub fn succ_wrap(&self, key: &[u8]) -> Option<(&IKey, u32)> {
        let p = self.order.upper_bound(key, &self.entries);
        self.order
            .at(p)
            .or_else(|| self.order.at((0, 0)))
            .map(|it| self.keyed(it))
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
        let Some(first) = self.order.at((0, 0)) else {
            return;
        };
        let mut prev: Option<u32> = None;
        for blk in &self.order.blocks {
            for it in blk {
                if let Some(p) = prev {
                    self.entries[p as usize].next = it.slot;
                }
                prev = Some(it.slot);
            }
        }
        if let Some(p) = prev {
            self.entries[p as usize].next = first.slot;
        }
    }

    /// Live keys from `start` (inclusive) upward, ascending, with their locations.
    pub fn range_from<'a>(&'a self, start: &'a [u8]) -> impl Iterator<Item = (&'a IKey, u64)> + 'a {
        let p = self.order.lower_bound(start, &self.entries);
        self.order.iter_from(p).map(|it| {
            let e = &self.entries[it.slot as usize];
            (&e.key, e.loc)
        })
    }

    /// Live keys below `end` (exclusive, or all when unbounded), descending.
    pub fn range_below<'a>(&'a self, end: Bound<&'a [u8]>) -> impl Iterator<Item = &'a IKey> + 'a {
        let p = match end {
            Bound::Excluded(k) => self.order.lower_bound(k, &self.entries),
            Bound::Included(k) => self.order.upper_bound(k, &self.entries),
            Bound::Unbounded => (self.order.blocks.len(), 0),
        };
        self.order
            .iter_before(p)
            .map(|it| &self.entries[it.slot as usize].key)
    }

    /// Every live key with its location, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (&IKey, u64)> + '_ {
        self.order.iter_from((0, 0)).map(|it| {
            let e = &self.entries[it.slot as usize];
            (&e.key, e.loc)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

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
            32,
        )
        .unwrap();
        check(&rebuilt, &model);
        assert!(
            KeyIndex::from_sorted(vec![(IKey::new(b"b"), 1), (IKey::new(b"a"), 2)], 0, 3, 32)
                .is_none()
        );
        assert!(
            KeyIndex::from_sorted(vec![(IKey::new(b"a"), 1), (IKey::new(b"a"), 2)], 0, 3, 32)
                .is_none()
        );
        assert!(KeyIndex::from_sorted(vec![(IKey::new(b"a"), 3)], 0, 3, 32).is_none());
        assert!(
            KeyIndex::from_sorted(vec![(IKey::new(b"a"), 1), (IKey::new(b"b"), 1)], 0, 3, 32)
                .is_none()
        );
    }

    /// Checks every ordered query against the model, for present and absent probe keys.
    fn check_order(ix: &KeyIndex, model: &BTreeMap<Vec<u8>, u64>, probes: &[Vec<u8>]) {
        let keys: Vec<&Vec<u8>> = model.keys().collect();
        for p in probes {
            let pred = model
                .range::<Vec<u8>, _>(..p.clone())
                .next_back()
                .or_else(|| model.last_key_value())
                .map(|(k, _)| k.clone());
            assert_eq!(ix.pred_wrap(p).map(|(k, _)| k.as_slice().to_vec()), pred);
            let succ = model
                .range::<Vec<u8>, _>((Bound::Excluded(p.clone()), Bound::Unbounded))
                .next()
                .or_else(|| model.first_key_value())
                .map(|(k, _)| k.clone());
            assert_eq!(ix.succ_wrap(p).map(|(k, _)| k.as_slice().to_vec()), succ);
            let from: Vec<Vec<u8>> = ix
                .range_from(p)
                .map(|(k, _)| k.as_slice().to_vec())
                .collect();
            let want: Vec<Vec<u8>> = keys
                .iter()
                .filter(|k| **k >= p)
                .map(|k| (*k).clone())
                .collect();
            assert_eq!(from, want);
            let below: Vec<Vec<u8>> = ix
                .range_below(Bound::Excluded(p))
                .map(|k| k.as_slice().to_vec())
                .collect();
            let want: Vec<Vec<u8>> = keys
                .iter()
                .rev()
                .filter(|k| **k < p)
                .map(|k| (*k).clone())
                .collect();
            assert_eq!(below, want);
            let upto: Vec<Vec<u8>> = ix
                .range_below(Bound::Included(p))
                .map(|k| k.as_slice().to_vec())
                .collect();
            let want: Vec<Vec<u8>> = keys
                .iter()
                .rev()
                .filter(|k| **k <= p)
                .map(|k| (*k).clone())
                .collect();
            assert_eq!(upto, want);
        }
        assert_eq!(ix.range_below(Bound::Unbounded).count(), model.len());
    }

    /// Keys that share their first 8 bytes (ties the ordered list must break by the full key),
    /// short keys, and keys longer than the inline limit.
    fn awkward_key(x: u64) -> Vec<u8> {
        match x % 4 {
            0 => format!("acct-000{}", x % 3000).into_bytes(),
            1 => [b"prefix!!".as_slice(), &(x % 2000).to_be_bytes()].concat(),
            2 => vec![(x % 7) as u8; 1 + (x % 3) as usize],
            _ => [vec![9u8; 33], (x % 1500).to_be_bytes().to_vec()].concat(),
        }
    }

    #[test]
    fn colliding_fingerprints_and_block_splits_keep_answers_exact() {
        for bits in [1, 2, 32] {
            let mut ix = KeyIndex::with_fingerprint_bits(0, bits);
            let mut model = BTreeMap::new();
            let mut x = u64::from(bits) * 7919;
            // Grow well past several blocks, then delete most keys (block merges), then grow.
            for round in 0..12_000u64 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = awkward_key(x >> 33);
                let delete = if (4000..9000).contains(&round) {
                    (x >> 20) % 4 != 0
                } else {
                    (x >> 20).is_multiple_of(5)
                };
                if delete {
                    assert_eq!(ix.remove(&k), model.remove(&k));
                } else {
                    let (_, prior) = ix.upsert(&IKey::new(&k), round);
                    assert_eq!(prior, model.insert(k.clone(), round));
                }
                ix.relink(&k);
                if round % 1499 == 0 {
                    check(&ix, &model);
                }
            }
            check(&ix, &model);
            let probes: Vec<Vec<u8>> = (0..400u64)
                .map(|i| awkward_key(i * 37 + 1))
                .chain([vec![0], vec![255; 40], b"prefix!!".to_vec(), vec![]])
                .collect();
            check_order(&ix, &model, &probes);
            for blk in &ix.order.blocks {
                assert!(!blk.is_empty() && blk.len() <= BLOCK_MAX);
            }
            let rebuilt = KeyIndex::from_sorted(
                model.iter().map(|(k, l)| (IKey::new(k), *l)).collect(),
                0,
                12_000,
                bits,
            )
            .unwrap();
            check(&rebuilt, &model);
            check_order(&rebuilt, &model, &probes);
            // Absent keys are absent whatever their fingerprint.
            for p in &probes {
                assert_eq!(ix.get(p), model.get(p).copied());
            }
        }
    }

    #[test]
    fn bulk_mode_sorts_once_and_matches_ordered_inserts() {
        for bits in [2, 32] {
            let mut ix = KeyIndex::with_fingerprint_bits(0, bits);
            ix.begin_bulk();
            let mut model = BTreeMap::new();
            let mut x = 5u64;
            for round in 0..6000u64 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = awkward_key(x >> 33);
                if (x >> 20).is_multiple_of(4) {
                    assert_eq!(ix.remove(&k), model.remove(&k));
                } else {
                    assert_eq!(ix.upsert(&IKey::new(&k), round).1, model.insert(k, round));
                }
                assert_eq!(ix.len(), model.len() as u64);
            }
            ix.end_bulk();
            check(&ix, &model);
            let probes: Vec<Vec<u8>> = (0..200u64).map(|i| awkward_key(i * 11 + 3)).collect();
            check_order(&ix, &model, &probes);
        }
    }

    #[test]
    fn empty_and_single_key_orders() {
        let mut ix = KeyIndex::with_fingerprint_bits(0, 1);
        assert!(ix.pred_wrap(b"x").is_none() && ix.succ_wrap(b"x").is_none());
        assert_eq!(ix.range_from(b"").count(), 0);
        assert_eq!(ix.range_below(Bound::Unbounded).count(), 0);
        ix.relink_all();
        ix.upsert(&IKey::new(b"m"), 5);
        ix.relink(b"m");
        let s = ix.slot(b"m").unwrap();
        assert_eq!(ix.succ_key(s).as_slice(), b"m");
        assert_eq!(ix.pred_wrap(b"a").unwrap().0.as_slice(), b"m");
        assert_eq!(ix.succ_wrap(b"z").unwrap().0.as_slice(), b"m");
        assert_eq!(ix.remove(b"m"), Some(5));
        assert_eq!(ix.remove(b"m"), None);
        assert_eq!(ix.len(), 0);
        assert!(ix.pred_wrap(b"m").is_none());
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
