//! An in-memory Merkle mountain range over operation hashes, with prefix pruning.
//!
//! Nodes are numbered in post-order (leaf `i` sits at position `2i - popcount(i)`). Nodes are
//! immutable once written, so a proof against any earlier size is built from the same nodes.
//! After pruning to `p` leaves only the nodes at positions `>= size(p)` and the peaks of the
//! MMR of `p` leaves ("pinned" nodes) are kept: that is exactly what proofs of leaves `>= p` and
//! roots of sizes `>= p` need.

use crate::hash::{Hash, mmr_bag, mmr_leaf, mmr_node, mmr_nodes, pair};
use std::collections::BTreeMap;

/// Number of nodes of an MMR with `leaves` leaves (also the position of leaf number `leaves`).
pub fn mmr_size(leaves: u64) -> u64 {
    2 * leaves - u64::from(leaves.count_ones())
}

/// Position of the node of height `h` covering leaves `[j * 2^h, (j + 1) * 2^h)`: in post-order
/// it directly follows the leaf `e = (j + 1) * 2^h - 1` and the `h` ancestors of `e` below it.
fn node_pos(h: u32, j: u64) -> u64 {
    let e = ((j + 1) << h) - 1;
    mmr_size(e) + u64::from(h)
}

/// The peaks of an MMR of `leaves` leaves, left to right: `(position, height)`.
pub fn peak_positions(leaves: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut start = 0u64;
    for k in (0..64u32).rev() {
        if leaves & (1u64 << k) != 0 {
            let size = (1u64 << (k + 1)) - 1;
            out.push((start + size - 1, k));
            start += size;
        }
    }
    out
}

/// The mountain holding leaf `loc` in an MMR of `leaves` leaves:
/// `(index of its peak, height, first leaf of the mountain, peak position)`.
/// `None` when `loc >= leaves`.
pub fn mountain_of(leaves: u64, loc: u64) -> Option<(usize, u32, u64, u64)> {
    if loc >= leaves {
        return None;
    }
    let mut first = 0u64;
    let mut start = 0u64;
    let mut index = 0usize;
    for k in (0..64u32).rev() {
        if leaves & (1u64 << k) != 0 {
            let size = (1u64 << (k + 1)) - 1;
            if loc < first + (1u64 << k) {
                return Some((index, k, first, start + size - 1));
            }
            first += 1u64 << k;
            start += size;
            index += 1;
        }
    }
    None
}

/// Checks that `leaf` is leaf number `loc` of an MMR of `leaves` leaves whose peaks are `peaks`,
/// using the bottom-up sibling `path`. Pure function, used by the proof verifier.
pub fn verify_leaf(leaves: u64, loc: u64, leaf: &Hash, path: &[Hash], peaks: &[Hash]) -> bool {
    if peaks.len() != leaves.count_ones() as usize {
        return false;
    }
    let Some((index, height, first, _)) = mountain_of(leaves, loc) else {
        return false;
    };
    if path.len() != height as usize {
        return false;
    }
    let local = loc - first;
    let mut cur = *leaf;
    for (t, sib) in path.iter().enumerate() {
        cur = if (local >> t) & 1 == 1 {
            mmr_node(sib, &cur)
        } else {
            mmr_node(&cur, sib)
        };
    }
    cur == peaks[index]
}

/// The MMR itself. Invariant: `nodes[i]` is the node at position `base + i`, `nodes.len() ==
/// mmr_size(leaves) - base`, `base <= mmr_size(pruned)` (nodes below `mmr_size(pruned)` are
/// dead and dropped lazily, see [`Mmr::prune`]), and `pinned` holds the peaks of the MMR of
/// `pruned` leaves.
#[derive(Debug, Clone, Default)]
pub struct Mmr {
    leaves: u64,
    pruned: u64,
    base: u64,
    nodes: Vec<Hash>,
    pinned: BTreeMap<u64, Hash>,
    /// Scratch buffers of [`Mmr::push_leaves`] (kept: no large allocation per block).
    scratch: (Vec<[u8; 64]>, Vec<Hash>),
}

impl Mmr {
    /// An MMR pruned to `pruned` leaves whose peaks at that size are `peaks` (left to right).
    /// Returns `None` if the number of peaks does not match.
    pub fn from_pinned(pruned: u64, peaks: &[Hash]) -> Option<Mmr> {
        let pos = peak_positions(pruned);
        if pos.len() != peaks.len() {
            return None;
        }
        let pinned = pos
            .iter()
            .map(|(p, _)| *p)
            .zip(peaks.iter().copied())
            .collect();
        Some(Mmr {
            leaves: pruned,
            pruned,
            base: mmr_size(pruned),
            nodes: Vec::new(),
            pinned,
            scratch: (Vec::new(), Vec::new()),
        })
    }

    /// The raw parts `(leaves, pruned, nodes from position size(pruned), pinned peaks)`, for
    /// the reopen snapshot.
    pub(crate) fn raw(&self) -> (u64, u64, &[Hash], &BTreeMap<u64, Hash>) {
        let live = (mmr_size(self.pruned) - self.base) as usize;
        (self.leaves, self.pruned, &self.nodes[live..], &self.pinned)
    }

    /// Rebuilds an MMR from [`Mmr::raw`] parts; `None` when they are inconsistent.
    pub(crate) fn from_raw(
        leaves: u64,
        pruned: u64,
        nodes: Vec<Hash>,
        pinned: BTreeMap<u64, Hash>,
    ) -> Option<Mmr> {
        if pruned > leaves || nodes.len() as u64 != mmr_size(leaves) - mmr_size(pruned) {
            return None;
        }
        let want: Vec<u64> = peak_positions(pruned).into_iter().map(|(p, _)| p).collect();
        if pinned.keys().copied().collect::<Vec<_>>() != want {
            return None;
        }
        Some(Mmr {
            leaves,
            pruned,
            base: mmr_size(pruned),
            nodes,
            pinned,
            scratch: (Vec::new(), Vec::new()),
        })
    }

    /// Number of leaves.
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// Number of leaves pruned away (proofs exist only for leaves `>= pruned`).
    pub fn pruned(&self) -> u64 {
        self.pruned
    }

    fn node(&self, pos: u64) -> Hash {
        if pos >= self.base {
            self.nodes[(pos - self.base) as usize]
        } else {
            // Invariant: every position below `base` that is ever asked for is a pinned peak.
            self.pinned[&pos]
        }
    }

    /// Appends the leaf for the encoded operation `op_bytes`.
    pub fn push_op(&mut self, op_bytes: &[u8]) {
        self.push_leaf(mmr_leaf(op_bytes));
    }

    /// Appends a leaf hash.
    pub fn push_leaf(&mut self, leaf: Hash) {
        let merges = self.leaves.trailing_ones();
        let start = mmr_size(self.leaves);
        let mut cur = leaf;
        self.nodes.push(cur);
        for h in 0..merges {
            // the node just pushed sits at `start + h`; its left sibling is a perfect subtree
            // of height `h` immediately before it
            let left = self.node(start + u64::from(h) - ((1u64 << (h + 1)) - 1));
            cur = mmr_node(&left, &cur);
            self.nodes.push(cur);
        }
        self.leaves += 1;
    }

    /// Appends the leaf hashes `leaves` in order: exactly the nodes [`Mmr::push_leaf`] would
    /// write one by one, with each height's new inner nodes (which are independent) hashed as
    /// one batch.
    pub fn push_leaves(&mut self, leaves: &[Hash]) {
        let n0 = self.leaves;
        let n1 = n0 + leaves.len() as u64;
        self.nodes
            .resize((mmr_size(n1) - self.base) as usize, [0; 32]);
        for (k, leaf) in leaves.iter().enumerate() {
            let p = node_pos(0, n0 + k as u64);
            self.nodes[(p - self.base) as usize] = *leaf;
        }
        let (mut pairs, mut out) = std::mem::take(&mut self.scratch);
        // New nodes of height `h`: `j` with `(j + 1) * 2^h` in `(n0, n1]`. A height without
        // new nodes has none above it either (a new node's right child is new).
        for h in 1..64u32 {
            let (lo, hi) = (n0 >> h, n1 >> h);
            if lo >= hi {
                break;
            }
            pairs.clear();
            pairs.extend((lo..hi).map(|j| {
                pair(
                    &self.node(node_pos(h - 1, 2 * j)),
                    &self.node(node_pos(h - 1, 2 * j + 1)),
                )
            }));
            out.clear();
            out.resize(pairs.len(), [0; 32]);
            mmr_nodes(&pairs, &mut out);
            for (j, x) in (lo..hi).zip(&out) {
                let p = node_pos(h, j);
                self.nodes[(p - self.base) as usize] = *x;
            }
        }
        self.leaves = n1;
        self.scratch = (pairs, out);
    }

    /// The peaks of the MMR as it was with `leaves` leaves (`pruned <= leaves <= self.leaves`).
    pub fn peaks_at(&self, leaves: u64) -> Vec<Hash> {
        debug_assert!(leaves >= self.pruned && leaves <= self.leaves);
        peak_positions(leaves)
            .into_iter()
            .map(|(p, _)| self.node(p))
            .collect()
    }

    /// The root of the MMR as it was with `leaves` leaves.
    pub fn root_at(&self, leaves: u64) -> Hash {
        mmr_bag(leaves, &self.peaks_at(leaves))
    }

    /// The current root.
    pub fn root(&self) -> Hash {
        self.root_at(self.leaves)
    }

    /// Bottom-up sibling path of leaf `loc` in the MMR of `leaves` leaves.
    /// `None` if `loc` is pruned or not below `leaves`, or `leaves` is out of range.
    pub fn path(&self, leaves: u64, loc: u64) -> Option<Vec<Hash>> {
        if loc < self.pruned || leaves > self.leaves || leaves < self.pruned {
            return None;
        }
        let (_, height, first, peak) = mountain_of(leaves, loc)?;
        let mut path = Vec::with_capacity(height as usize);
        let (mut p, mut h, mut lo) = (peak, height, first);
        while h > 0 {
            let half = 1u64 << (h - 1);
            let left = p - (1u64 << h);
            let right = p - 1;
            if loc < lo + half {
                path.push(self.node(right));
                p = left;
            } else {
                path.push(self.node(left));
                p = right;
                lo += half;
            }
            h -= 1;
        }
        path.reverse();
        Some(path)
    }

    /// Drops every leaf from `leaves` on (and the nodes above them), so the MMR is exactly the
    /// one it was when it had `leaves` leaves. Refused (`false`) below the pruned prefix or
    /// above the current size.
    pub fn truncate(&mut self, leaves: u64) -> bool {
        if leaves < self.pruned || leaves > self.leaves {
            return false;
        }
        self.nodes.truncate((mmr_size(leaves) - self.base) as usize);
        self.leaves = leaves;
        true
    }

    /// Prunes every node not needed for leaves `>= leaves`; no-op if already pruned that far.
    pub fn prune(&mut self, leaves: u64) {
        if leaves <= self.pruned || leaves > self.leaves {
            return;
        }
        let pinned: BTreeMap<u64, Hash> = peak_positions(leaves)
            .into_iter()
            .map(|(p, _)| (p, self.node(p)))
            .collect();
        // Nodes below the new base stay (valid, unused) until they are at least as many as the
        // live ones: dropping them moves every retained node (amortized O(1) per node).
        let new_base = mmr_size(leaves);
        let dead = (new_base - self.base) as usize;
        if dead * 2 >= self.nodes.len() {
            self.nodes.drain(..dead);
            self.base = new_base;
        }
        self.pruned = leaves;
        self.pinned = pinned;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(i: u64) -> Hash {
        mmr_leaf(&i.to_le_bytes())
    }

    /// Reference root computed recursively from leaf hashes, independent of positions.
    fn reference_root(leaves: &[Hash]) -> Hash {
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
        mmr_bag(n, &peaks)
    }

    #[test]
    fn roots_and_proofs_match_reference() {
        let mut m = Mmr::default();
        let mut ls = Vec::new();
        for i in 0..70u64 {
            m.push_leaf(leaf(i));
            ls.push(leaf(i));
            assert_eq!(m.root(), reference_root(&ls), "size {}", i + 1);
        }
        for n in 1..=70u64 {
            assert_eq!(m.root_at(n), reference_root(&ls[..n as usize]));
            let peaks = m.peaks_at(n);
            for loc in 0..n {
                let path = m.path(n, loc).unwrap();
                assert!(verify_leaf(n, loc, &leaf(loc), &path, &peaks));
                assert!(!verify_leaf(n, loc, &leaf(loc + 1), &path, &peaks));
                if loc + 1 < n {
                    assert!(!verify_leaf(n, loc + 1, &leaf(loc), &path, &peaks));
                }
            }
        }
    }

    #[test]
    fn batched_pushes_equal_single_pushes() {
        for n0 in [0u64, 1, 2, 3, 7, 8, 13, 64, 100] {
            for k in [0u64, 1, 2, 5, 16, 31, 77] {
                let mut a = Mmr::default();
                let mut b = Mmr::default();
                for i in 0..n0 {
                    a.push_leaf(leaf(i));
                    b.push_leaf(leaf(i));
                }
                // Also from a pruned MMR (old left siblings come from the pinned peaks).
                let mut c = a.clone();
                c.prune(n0 / 2);
                let ls: Vec<Hash> = (n0..n0 + k).map(leaf).collect();
                for l in &ls {
                    a.push_leaf(*l);
                }
                b.push_leaves(&ls);
                c.push_leaves(&ls);
                assert_eq!(a.nodes, b.nodes, "n0 {n0} k {k}");
                assert_eq!(a.leaves(), b.leaves());
                assert_eq!(a.root(), c.root(), "pruned n0 {n0} k {k}");
                for loc in n0 / 2..n0 + k {
                    assert_eq!(a.path(n0 + k, loc), c.path(n0 + k, loc));
                }
            }
        }
    }

    #[test]
    fn pruned_mmr_keeps_roots_and_proofs() {
        let mut full = Mmr::default();
        for i in 0..100u64 {
            full.push_leaf(leaf(i));
        }
        for p in [1u64, 5, 32, 33, 64, 99, 100] {
            let mut m = full.clone();
            m.prune(p);
            let mut rebuilt = Mmr::from_pinned(p, &full.peaks_at(p)).unwrap();
            for i in p..100 {
                rebuilt.push_leaf(leaf(i));
            }
            for n in p..=100 {
                assert_eq!(m.root_at(n), full.root_at(n));
                assert_eq!(rebuilt.root_at(n), full.root_at(n));
                for loc in p..n {
                    assert_eq!(m.path(n, loc), full.path(n, loc));
                    assert_eq!(rebuilt.path(n, loc), full.path(n, loc));
                }
            }
            assert!(m.path(100, p.saturating_sub(1)).is_none() || p == 0);
        }
    }
}
