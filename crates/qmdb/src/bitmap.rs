//! The activity bitmap and its Merkle tree.
//!
//! Bit `loc` is set iff operation `loc` is the current `Update` of its key. Chunks of
//! [`CHUNK_BITS`] (512) bits are the leaves of a complete binary tree of depth [`bitmap_depth`]`(len)`; leaves past the
//! last chunk are all-zero chunks. The tree is kept in memory and re-hashed incrementally:
//! only the paths above chunks changed since the last [`Bitmap::merkleize`] are recomputed.

use crate::hash::{
    CHUNK_BITS, CHUNK_BYTES, Chunk, Hash, bitmap_depth, bitmap_leaf, bitmap_leaves, bitmap_node,
    bitmap_nodes, pair,
};

/// Bitmap plus its Merkle tree. Invariant after `merkleize`: `levels[h]` has `2^(depth-h)`
/// hashes and `levels[depth][0]` is the root over the first `len` bits.
#[derive(Debug, Clone, Default)]
pub struct Bitmap {
    len: u64,
    chunks: Vec<Chunk>,
    depth: u32,
    levels: Vec<Vec<Hash>>,
    dirty: Vec<u64>,
    /// Scratch buffers of [`Bitmap::merkleize`] (kept: no large allocation per block).
    scratch: (Vec<[u8; 64]>, Vec<Hash>),
}

impl Bitmap {
    /// The raw parts `(len, chunks)`, for the reopen snapshot.
    pub(crate) fn raw(&self) -> (u64, &[Chunk]) {
        (self.len, &self.chunks)
    }

    /// A bitmap of `len` bits with the given chunks (tree built by the next `merkleize`);
    /// `None` when the chunk count does not match or bits past `len` are set.
    pub(crate) fn from_raw(len: u64, chunks: Vec<Chunk>) -> Option<Bitmap> {
        if chunks.len() as u64 != len.div_ceil(CHUNK_BITS) {
            return None;
        }
        let b = Bitmap {
            len,
            chunks,
            depth: 0,
            levels: Vec::new(),
            dirty: Vec::new(),
            scratch: (Vec::new(), Vec::new()),
        };
        if let Some(last) = b.chunks.last()
            && !len.is_multiple_of(CHUNK_BITS)
            && (len % CHUNK_BITS..CHUNK_BITS).any(|i| crate::hash::chunk_bit(last, i))
        {
            return None;
        }
        Some(b)
    }

    /// Number of bits.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Chunk `i` (all zero past the end).
    pub fn chunk(&self, i: u64) -> Chunk {
        self.chunks
            .get(i as usize)
            .copied()
            .unwrap_or([0; CHUNK_BYTES])
    }

    /// Appends `n` zero bits.
    pub fn push_zeros(&mut self, n: u64) {
        let new_len = self.len + n;
        let chunks = new_len.div_ceil(CHUNK_BITS) as usize;
        for i in self.chunks.len()..chunks {
            self.chunks.push([0; CHUNK_BYTES]);
            self.dirty.push(i as u64);
        }
        self.len = new_len;
    }

    /// Appends one bit.
    pub fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(CHUNK_BITS) {
            self.chunks.push([0; CHUNK_BYTES]);
            self.dirty.push(self.chunks.len() as u64 - 1);
        }
        self.len += 1;
        if bit {
            self.set(self.len - 1, true);
        }
    }

    /// Bit `loc` (false past the end).
    pub fn get(&self, loc: u64) -> bool {
        if loc >= self.len {
            return false;
        }
        let c = &self.chunks[(loc / CHUNK_BITS) as usize];
        let b = loc % CHUNK_BITS;
        c[(b / 8) as usize] & (1 << (b % 8)) != 0
    }

    /// Sets bit `loc < len` to `bit`.
    pub fn set(&mut self, loc: u64, bit: bool) {
        debug_assert!(loc < self.len);
        let ci = loc / CHUNK_BITS;
        let b = loc % CHUNK_BITS;
        let byte = &mut self.chunks[ci as usize][(b / 8) as usize];
        if bit {
            *byte |= 1 << (b % 8);
        } else {
            *byte &= !(1 << (b % 8));
        }
        self.dirty.push(ci);
    }

    /// Shortens the bitmap to `len` bits (`len <= self.len()`); the next
    /// [`Bitmap::merkleize`] brings the tree up to date.
    pub fn truncate(&mut self, len: u64) {
        debug_assert!(len <= self.len);
        let old_chunks = self.chunks.len() as u64;
        let n = len.div_ceil(CHUNK_BITS);
        self.chunks.truncate(n as usize);
        if !len.is_multiple_of(CHUNK_BITS)
            && let Some(last) = self.chunks.last_mut()
        {
            for b in (len % CHUNK_BITS)..CHUNK_BITS {
                last[(b / 8) as usize] &= !(1 << (b % 8));
            }
        }
        self.len = len;
        self.dirty.extend(n.saturating_sub(1)..old_chunks);
    }

    /// Replaces chunk `i` (`i` below the chunk count) with `c`.
    pub fn set_chunk(&mut self, i: u64, c: Chunk) {
        self.chunks[i as usize] = c;
        self.dirty.push(i);
    }

    /// Recomputes the tree over all changes since the last call.
    pub fn merkleize(&mut self) {
        let depth = bitmap_depth(self.len);
        if self.levels.is_empty() || depth != self.depth {
            self.depth = depth;
            self.levels = build_levels(&self.chunks, depth);
            self.dirty.clear();
            return;
        }
        let mut idx = std::mem::take(&mut self.dirty);
        idx.sort_unstable();
        idx.dedup();
        // Each level's changed nodes (and the changed leaves) are independent: hash them as
        // one batch.
        let (mut pairs, mut out) = std::mem::take(&mut self.scratch);
        pairs.clear();
        pairs.extend(idx.iter().map(|&i| self.chunk(i)));
        out.clear();
        out.resize(pairs.len(), [0; 32]);
        bitmap_leaves(&pairs, &mut out);
        for (&i, &x) in idx.iter().zip(&out) {
            self.levels[0][i as usize] = x;
        }
        for h in 1..=depth as usize {
            for i in idx.iter_mut() {
                *i /= 2;
            }
            idx.dedup();
            let below = &self.levels[h - 1];
            pairs.clear();
            pairs.extend(
                idx.iter()
                    .map(|&i| pair(&below[2 * i as usize], &below[2 * i as usize + 1])),
            );
            out.clear();
            out.resize(pairs.len(), [0; 32]);
            bitmap_nodes(&pairs, &mut out);
            for (&i, &x) in idx.iter().zip(&out) {
                self.levels[h][i as usize] = x;
            }
        }
        self.dirty = idx;
        self.dirty.clear();
        self.scratch = (pairs, out);
    }

    /// Root of the tree (call [`Bitmap::merkleize`] first).
    pub fn root(&self) -> Hash {
        self.levels
            .last()
            .map(|l| l[0])
            .unwrap_or_else(|| bitmap_leaf(&[0; CHUNK_BYTES]))
    }

    /// Bottom-up sibling path of the chunk holding bit `loc` (call `merkleize` first).
    pub fn path(&self, loc: u64) -> Vec<Hash> {
        path_in(&self.levels, loc / CHUNK_BITS)
    }

    /// Shrinks to `len` bits (used to rebuild a historical view): drops later bits.
    pub fn truncated_chunks(&self, len: u64) -> Vec<Chunk> {
        let n = len.div_ceil(CHUNK_BITS) as usize;
        let mut out: Vec<Chunk> = self.chunks[..n.min(self.chunks.len())].to_vec();
        out.resize(n, [0; CHUNK_BYTES]);
        if !len.is_multiple_of(CHUNK_BITS) {
            let last = out.last_mut().expect("non-empty");
            for b in (len % CHUNK_BITS)..CHUNK_BITS {
                last[(b / 8) as usize] &= !(1 << (b % 8));
            }
        }
        out
    }
}

/// Builds every level of the tree of depth `depth` over `chunks`.
pub fn build_levels(chunks: &[Chunk], depth: u32) -> Vec<Vec<Hash>> {
    let width = 1usize << depth;
    let zero = bitmap_leaf(&[0; CHUNK_BYTES]);
    let mut level: Vec<Hash> = vec![zero; width];
    let n = chunks.len().min(width);
    bitmap_leaves(&chunks[..n], &mut level[..n]);
    let mut levels = Vec::with_capacity(depth as usize + 1);
    for _ in 0..depth {
        let pairs: Vec<[u8; 64]> = level.chunks(2).map(|p| pair(&p[0], &p[1])).collect();
        let mut next = vec![[0u8; 32]; pairs.len()];
        bitmap_nodes(&pairs, &mut next);
        levels.push(std::mem::replace(&mut level, next));
    }
    levels.push(level);
    levels
}

/// Bottom-up sibling path of leaf `chunk` in `levels`.
pub fn path_in(levels: &[Vec<Hash>], chunk: u64) -> Vec<Hash> {
    let mut out = Vec::with_capacity(levels.len().saturating_sub(1));
    let mut i = chunk as usize;
    for level in &levels[..levels.len().saturating_sub(1)] {
        out.push(level[i ^ 1]);
        i /= 2;
    }
    out
}

/// Recomputes the bitmap root from a chunk and its bottom-up path. Pure; used by the verifier.
pub fn root_from_path(chunk: &Chunk, chunk_index: u64, path: &[Hash]) -> Hash {
    let mut cur = bitmap_leaf(chunk);
    for (t, sib) in path.iter().enumerate() {
        cur = if (chunk_index >> t) & 1 == 1 {
            bitmap_node(sib, &cur)
        } else {
            bitmap_node(&cur, sib)
        };
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_equals_full_rebuild() {
        let mut b = Bitmap::default();
        let mut x = 12345u64;
        for round in 0..40 {
            b.push_zeros(round % 3 * 100);
            for _ in 0..(round * 37 % 300) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.push(x >> 60 == 0);
            }
            for _ in 0..20 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if b.len() > 0 {
                    let loc = (x >> 11) % b.len();
                    b.set(loc, x & 1 == 1);
                }
            }
            b.merkleize();
            let depth = bitmap_depth(b.len());
            let fresh = build_levels(&b.truncated_chunks(b.len()), depth);
            assert_eq!(b.root(), fresh[depth as usize][0]);
            if b.len() > 0 {
                let loc = x % b.len();
                let ci = loc / CHUNK_BITS;
                assert_eq!(root_from_path(&b.chunk(ci), ci, &b.path(loc)), b.root());
            }
        }
    }
}
