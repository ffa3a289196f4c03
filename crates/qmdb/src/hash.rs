//! Hashing rules of the state commitment (format v2). Every hash is blake3 in **keyed mode**
//! with a 32-byte key per domain, `K(name) = blake3("cowboy-qmdb-v2 " || name)`, so a value of
//! one kind can never be replayed as another (an operation as an inner node, a bitmap chunk as
//! an operation, ...). Keying instead of a prefix byte keeps every inner node (two 32-byte
//! children) and every bitmap chunk (64 bytes) exactly one blake3 block, which the blake3
//! crate's multi-input SIMD routine hashes side by side: a block's thousands of node hashes
//! cost one vector compression per 16 nodes instead of two scalar compressions each.
//!
//! These functions define consensus bytes: changing any of them changes every state root.

use blake3::platform::{Platform, le_bytes_from_words_32, words_from_le_bytes_32};
use std::sync::OnceLock;

/// A 32-byte blake3 digest.
pub type Hash = [u8; 32];

/// Number of activity bits per bitmap chunk (one chunk is 64 bytes: one blake3 block).
pub const CHUNK_BITS: u64 = 512;

/// Bytes per bitmap chunk.
pub const CHUNK_BYTES: usize = 64;

/// A bitmap chunk: bit `i` of the chunk is byte `i / 8`, bit `i % 8` (least significant first).
pub type Chunk = [u8; CHUNK_BYTES];

/// Prefix of every domain-key derivation string.
pub const KEY_PREFIX: &str = "cowboy-qmdb-v2 ";

/// The hashing domains, each with its own blake3 key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// `K("mmr-leaf")`: an encoded operation.
    MmrLeaf,
    /// `K("mmr-node")`: `left || right` of the operation MMR.
    MmrNode,
    /// `K("mmr-bag")`: `leaf count (u64 LE) || peaks`.
    MmrBag,
    /// `K("bitmap-leaf")`: one 64-byte activity chunk.
    BitmapLeaf,
    /// `K("bitmap-node")`: `left || right` of the bitmap tree.
    BitmapNode,
    /// `K("state-root")`: `op_count (u64 LE) || mmr_root || bitmap_root`.
    StateRoot,
}

impl Domain {
    const ALL: [Domain; 6] = [
        Domain::MmrLeaf,
        Domain::MmrNode,
        Domain::MmrBag,
        Domain::BitmapLeaf,
        Domain::BitmapNode,
        Domain::StateRoot,
    ];

    /// The name the domain's key is derived from.
    pub fn name(self) -> &'static str {
        match self {
            Domain::MmrLeaf => "mmr-leaf",
            Domain::MmrNode => "mmr-node",
            Domain::MmrBag => "mmr-bag",
            Domain::BitmapLeaf => "bitmap-leaf",
            Domain::BitmapNode => "bitmap-node",
            Domain::StateRoot => "state-root",
        }
    }

    /// The domain's blake3 key: `blake3(KEY_PREFIX || name)`.
    pub fn key(self) -> Hash {
        le_bytes_from_words_32(self.words())
    }

    /// The key as blake3 words (what the compression functions take).
    fn words(self) -> &'static [u32; 8] {
        static KEYS: OnceLock<[[u32; 8]; 6]> = OnceLock::new();
        let keys = KEYS.get_or_init(|| {
            Domain::ALL.map(|d| {
                let mut h = blake3::Hasher::new();
                h.update(KEY_PREFIX.as_bytes());
                h.update(d.name().as_bytes());
                words_from_le_bytes_32(h.finalize().as_bytes())
            })
        });
        &keys[self as usize]
    }
}

/// Hash of an MMR leaf: `blake3_keyed(K("mmr-leaf"), encoded operation)`.
pub fn mmr_leaf(op_bytes: &[u8]) -> Hash {
    keyed(Domain::MmrLeaf, op_bytes)
}

/// [`mmr_leaf`] of every operation in `ops`, into `out` (same length): the same digests,
/// computed with the first message block of all operations hashed side by side (SIMD).
pub fn mmr_leaves(ops: &[&[u8]], out: &mut [Hash]) {
    keyed_many(Domain::MmrLeaf, ops.len(), |i| ops[i], out);
}

/// [`mmr_leaves`] of the operations `op(0) .. op(out.len() - 1)` (no slice of them needed).
pub fn mmr_leaves_with<'a>(op: impl Fn(usize) -> &'a [u8], out: &mut [Hash]) {
    keyed_many(Domain::MmrLeaf, out.len(), op, out);
}

/// Hash of an MMR inner node: `blake3_keyed(K("mmr-node"), left || right)`.
pub fn mmr_node(left: &Hash, right: &Hash) -> Hash {
    keyed(Domain::MmrNode, &pair(left, right))
}

/// [`mmr_node`] of every `(left || right)` pair in `pairs`, into `out` (same length).
pub fn mmr_nodes(pairs: &[[u8; 64]], out: &mut [Hash]) {
    one_block_many(Domain::MmrNode, pairs, out);
}

/// Root of an MMR of `leaves` leaves:
/// `blake3_keyed(K("mmr-bag"), leaves as u64 LE || peaks, left to right)`.
pub fn mmr_bag(leaves: u64, peaks: &[Hash]) -> Hash {
    let mut h = blake3::Hasher::new_keyed(&Domain::MmrBag.key());
    h.update(&leaves.to_le_bytes());
    for p in peaks {
        h.update(p);
    }
    *h.finalize().as_bytes()
}

/// Hash of a bitmap chunk: `blake3_keyed(K("bitmap-leaf"), chunk)`.
pub fn bitmap_leaf(chunk: &Chunk) -> Hash {
    keyed(Domain::BitmapLeaf, chunk)
}

/// [`bitmap_leaf`] of every chunk in `chunks`, into `out` (same length).
pub fn bitmap_leaves(chunks: &[Chunk], out: &mut [Hash]) {
    one_block_many(Domain::BitmapLeaf, chunks, out);
}

/// Hash of a bitmap tree inner node: `blake3_keyed(K("bitmap-node"), left || right)`.
pub fn bitmap_node(left: &Hash, right: &Hash) -> Hash {
    keyed(Domain::BitmapNode, &pair(left, right))
}

/// [`bitmap_node`] of every `(left || right)` pair in `pairs`, into `out` (same length).
pub fn bitmap_nodes(pairs: &[[u8; 64]], out: &mut [Hash]) {
    one_block_many(Domain::BitmapNode, pairs, out);
}

/// `left || right`.
#[inline]
pub fn pair(left: &Hash, right: &Hash) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[..32].copy_from_slice(left);
    b[32..].copy_from_slice(right);
    b
}

/// The state root:
/// `blake3_keyed(K("state-root"), op_count as u64 LE || mmr_root || bitmap_root)`.
pub fn state_root(op_count: u64, mmr_root: &Hash, bitmap_root: &Hash) -> Hash {
    let mut m = [0u8; 72];
    m[..8].copy_from_slice(&op_count.to_le_bytes());
    m[8..40].copy_from_slice(mmr_root);
    m[40..].copy_from_slice(bitmap_root);
    keyed(Domain::StateRoot, &m)
}

// ----- keyed blake3, driven block by block -----
//
// A message of at most one blake3 chunk (1024 bytes) is one chunk compressed block by block
// with the domain key as the initial chaining value and `KEYED_HASH` in every block's flags:
// the first block with `CHUNK_START`, the last (zero-padded, with its true length) with
// `CHUNK_END | ROOT`, counter 0. That is exactly blake3's definition of the keyed hash of a
// one-chunk input; the functions below compute it with the `blake3` crate's own compression
// functions (the crate is pinned, see Cargo.toml). For many messages at once they compress the
// first full block of all of them with the crate's multi-input SIMD routine, and a batch of
// one-block (64-byte) messages is hashed entirely by it. Longer messages go through
// `blake3::Hasher`. The unit tests compare every path with `blake3::keyed_hash` for all lengths
// around the block boundaries.

const BLOCK: usize = 64;
const CHUNK: usize = 1024;
const CHUNK_START: u8 = 1;
const CHUNK_END: u8 = 2;
const ROOT: u8 = 8;
const KEYED_HASH: u8 = 16;

fn platform() -> Platform {
    static P: OnceLock<Platform> = OnceLock::new();
    *P.get_or_init(Platform::detect)
}

/// Number of blocks of a one-chunk message (at least one: the empty message is one empty block).
#[inline]
fn blocks_of(data: &[u8]) -> usize {
    data.len().div_ceil(BLOCK).max(1)
}

/// Block `i` of `data`, zero-padded, and its length.
#[inline]
fn block_of(data: &[u8], i: usize) -> ([u8; BLOCK], usize) {
    let mut b = [0u8; BLOCK];
    let s = BLOCK * i;
    let n = (data.len() - s).min(BLOCK);
    b[..n].copy_from_slice(&data[s..s + n]);
    (b, n)
}

/// Compresses blocks `from..` of the one-chunk message `data` into `cv` (whose state is the
/// chaining value after block `from - 1`, or the key) and returns the hash.
#[inline]
fn finish(p: Platform, mut cv: [u32; 8], data: &[u8], from: usize) -> Hash {
    let nb = blocks_of(data);
    for i in from..nb {
        let (b, n) = block_of(data, i);
        let mut flags = KEYED_HASH;
        if i == 0 {
            flags |= CHUNK_START;
        }
        if i + 1 == nb {
            flags |= CHUNK_END | ROOT;
        }
        p.compress_in_place(&mut cv, &b, n as u8, 0, flags);
    }
    le_bytes_from_words_32(&cv)
}

/// `blake3_keyed(K(d), data)`.
fn keyed(d: Domain, data: &[u8]) -> Hash {
    if data.len() > CHUNK {
        return *blake3::keyed_hash(&d.key(), data).as_bytes();
    }
    finish(platform(), *d.words(), data, 0)
}

/// Messages whose first blocks are compressed side by side per call of the SIMD routine (the
/// widest the crate uses, AVX-512).
const LANES: usize = 16;

/// `blake3_keyed(K(d), input(i))` into `out[i]` for every `i < n`.
fn keyed_many<'a>(d: Domain, n: usize, input: impl Fn(usize) -> &'a [u8], out: &mut [Hash]) {
    assert_eq!(n, out.len(), "one output per input");
    let p = platform();
    // Messages of two or more blocks within one chunk: their first blocks (full, not the last)
    // are compressed together, `LANES` at a time.
    let mut firsts = [[0u8; BLOCK]; LANES];
    let mut which = [0usize; LANES];
    let mut k = 0;
    for i in 0..n {
        let m = input(i);
        if m.len() > BLOCK && m.len() <= CHUNK {
            firsts[k] = block_of(m, 0).0;
            which[k] = i;
            k += 1;
            if k == LANES {
                finish_group(p, d, &input, &firsts, &which, out);
                k = 0;
            }
        } else {
            out[i] = keyed(d, m);
        }
    }
    finish_group(p, d, &input, &firsts[..k], &which[..k], out);
}

/// Compresses the first blocks `firsts` (of the messages `input(which[k])`) side by side and
/// finishes each message into `out[which[k]]`.
fn finish_group<'a>(
    p: Platform,
    d: Domain,
    input: &impl Fn(usize) -> &'a [u8],
    firsts: &[[u8; BLOCK]],
    which: &[usize],
    out: &mut [Hash],
) {
    if firsts.is_empty() {
        return;
    }
    let mut cvs = [0u8; 32 * LANES];
    let refs: [&[u8; BLOCK]; LANES] = std::array::from_fn(|k| &firsts[k.min(firsts.len() - 1)]);
    p.hash_many::<BLOCK>(
        &refs[..firsts.len()],
        d.words(),
        0,
        blake3::IncrementCounter::No,
        KEYED_HASH,
        CHUNK_START,
        0,
        &mut cvs[..32 * firsts.len()],
    );
    for (k, &i) in which.iter().enumerate() {
        let cv: &[u8; 32] = cvs[32 * k..32 * k + 32].try_into().expect("32 bytes");
        out[i] = finish(p, words_from_le_bytes_32(cv), input(i), 1);
    }
}

/// `blake3_keyed(K(d), msgs[i])` (64-byte, one-block messages) into `out[i]` for every `i`:
/// every message is compressed by the multi-input SIMD routine.
fn one_block_many(d: Domain, msgs: &[[u8; BLOCK]], out: &mut [Hash]) {
    assert_eq!(msgs.len(), out.len(), "one output per input");
    let p = platform();
    for (group, outs) in msgs.chunks(LANES).zip(out.chunks_mut(LANES)) {
        let refs: [&[u8; BLOCK]; LANES] = std::array::from_fn(|k| &group[k.min(group.len() - 1)]);
        p.hash_many::<BLOCK>(
            &refs[..group.len()],
            d.words(),
            0,
            blake3::IncrementCounter::No,
            KEYED_HASH,
            CHUNK_START,
            CHUNK_END | ROOT,
            outs.as_flattened_mut(),
        );
    }
}

/// Depth of the bitmap tree over `op_count` operations: `ceil(log2(max(1, chunks)))` where
/// `chunks = ceil(op_count / CHUNK_BITS)`. The tree is a complete binary tree of `2^depth`
/// leaves; leaves past the last chunk are all-zero chunks.
pub fn bitmap_depth(op_count: u64) -> u32 {
    let chunks = op_count.div_ceil(CHUNK_BITS);
    if chunks <= 1 {
        0
    } else {
        64 - (chunks - 1).leading_zeros()
    }
}

/// Whether bit `bit` (0..CHUNK_BITS) of `chunk` is set.
pub fn chunk_bit(chunk: &Chunk, bit: u64) -> bool {
    chunk[(bit / 8) as usize] & (1 << (bit % 8)) != 0
}

/// Hex encoding of a hash (lowercase, no prefix).
pub fn to_hex(h: &Hash) -> String {
    let mut s = String::with_capacity(64);
    for b in h {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_rule() {
        assert_eq!(bitmap_depth(0), 0);
        assert_eq!(bitmap_depth(1), 0);
        assert_eq!(bitmap_depth(512), 0);
        assert_eq!(bitmap_depth(513), 1);
        assert_eq!(bitmap_depth(1024), 1);
        assert_eq!(bitmap_depth(1025), 2);
        assert_eq!(bitmap_depth(512 * 1024), 10);
        assert_eq!(bitmap_depth(512 * 1024 + 1), 11);
    }

    #[test]
    fn domain_keys_are_the_documented_derivation() {
        for d in Domain::ALL {
            let want = blake3::hash(format!("cowboy-qmdb-v2 {}", d.name()).as_bytes());
            assert_eq!(d.key(), *want.as_bytes(), "{d:?}");
        }
        let keys: std::collections::BTreeSet<Hash> = Domain::ALL.iter().map(|d| d.key()).collect();
        assert_eq!(keys.len(), Domain::ALL.len(), "distinct keys");
    }

    #[test]
    fn domains_separate() {
        let z = [0u8; 32];
        assert_ne!(mmr_node(&z, &z), bitmap_node(&z, &z));
        assert_ne!(mmr_leaf(&[0; 64]), bitmap_leaf(&[0; 64]));
        assert_ne!(mmr_bag(0, &[]), mmr_bag(1, &[]));
    }

    fn reference(d: Domain, data: &[u8]) -> Hash {
        *blake3::keyed_hash(&d.key(), data).as_bytes()
    }

    #[test]
    fn block_driven_hashes_equal_blake3() {
        let data: Vec<u8> = (0..2100u32).map(|i| (i * 31 + 7) as u8).collect();
        let lens: Vec<usize> = (0..200)
            .chain([
                254, 255, 256, 257, 510, 511, 512, 1000, 1022, 1023, 1024, 1025, 2100,
            ])
            .collect();
        let inputs: Vec<&[u8]> = lens.iter().map(|&n| &data[..n]).collect();
        let mut out = vec![[0u8; 32]; inputs.len()];
        mmr_leaves(&inputs, &mut out);
        for (m, o) in inputs.iter().zip(&out) {
            assert_eq!(*o, reference(Domain::MmrLeaf, m), "len {}", m.len());
            assert_eq!(
                mmr_leaf(m),
                reference(Domain::MmrLeaf, m),
                "len {}",
                m.len()
            );
        }
        // Batches of every size up to a few SIMD widths, including empty.
        for n in 0..40usize {
            let pairs: Vec<[u8; 64]> = (0..n)
                .map(|i| pair(&[i as u8; 32], &[(i * 7 + 1) as u8; 32]))
                .collect();
            let mut a = vec![[0u8; 32]; n];
            let mut b = vec![[0u8; 32]; n];
            let mut c = vec![[0u8; 32]; n];
            mmr_nodes(&pairs, &mut a);
            bitmap_nodes(&pairs, &mut b);
            bitmap_leaves(&pairs, &mut c);
            for (k, p) in pairs.iter().enumerate() {
                assert_eq!(a[k], reference(Domain::MmrNode, p));
                assert_eq!(b[k], reference(Domain::BitmapNode, p));
                assert_eq!(c[k], reference(Domain::BitmapLeaf, p));
                assert_eq!(c[k], bitmap_leaf(p));
                let (l, r) = p.split_at(32);
                let (l, r): (&Hash, &Hash) = (l.try_into().unwrap(), r.try_into().unwrap());
                assert_eq!(mmr_node(l, r), a[k]);
                assert_eq!(bitmap_node(l, r), b[k]);
            }
            let sub: Vec<&[u8]> = inputs.iter().copied().take(n).collect();
            let mut c = vec![[0u8; 32]; sub.len()];
            mmr_leaves(&sub, &mut c);
            for (m, o) in sub.iter().zip(&c) {
                assert_eq!(*o, reference(Domain::MmrLeaf, m));
            }
        }
        let peaks = [[1u8; 32], [2u8; 32], [3u8; 32]];
        let mut bag = 7u64.to_le_bytes().to_vec();
        peaks.iter().for_each(|p| bag.extend_from_slice(p));
        assert_eq!(mmr_bag(7, &peaks), reference(Domain::MmrBag, &bag));
        let mut root = 9u64.to_le_bytes().to_vec();
        root.extend_from_slice(&[4; 32]);
        root.extend_from_slice(&[5; 32]);
        assert_eq!(
            state_root(9, &[4; 32], &[5; 32]),
            reference(Domain::StateRoot, &root)
        );
    }

    #[test]
    fn bits_lsb_first() {
        let mut c = [0u8; CHUNK_BYTES];
        c[1] = 0b0000_0100;
        assert!(chunk_bit(&c, 10));
        assert!(!chunk_bit(&c, 9));
    }
}
