//! Hashing rules of the state commitment. Every hash is blake3 with a one-byte domain tag, so a
//! value of one kind can never be replayed as another (an operation as an inner node, a bitmap
//! chunk as an operation, ...).
//!
//! These functions define consensus bytes: changing any of them changes every state root.

use blake3::platform::{Platform, le_bytes_from_words_32, words_from_le_bytes_32};

/// A 32-byte blake3 digest.
pub type Hash = [u8; 32];

/// Number of activity bits per bitmap chunk (one chunk is 32 bytes).
pub const CHUNK_BITS: u64 = 256;

/// Bytes per bitmap chunk.
pub const CHUNK_BYTES: usize = 32;

/// A bitmap chunk: bit `i` of the chunk is byte `i / 8`, bit `i % 8` (least significant first).
pub type Chunk = [u8; CHUNK_BYTES];

const TAG_MMR_LEAF: u8 = 0x00;
const TAG_MMR_NODE: u8 = 0x01;
const TAG_MMR_BAG: u8 = 0x02;
const TAG_BITMAP_LEAF: u8 = 0x03;
const TAG_BITMAP_NODE: u8 = 0x04;
/// Domain string of the state root.
pub const ROOT_DOMAIN: &[u8] = b"cowboy-qmdb-state-root-v1";

/// Hash of an MMR leaf: `blake3(0x00 || encoded operation)`.
pub fn mmr_leaf(op_bytes: &[u8]) -> Hash {
    tagged(TAG_MMR_LEAF, op_bytes)
}

/// [`mmr_leaf`] of every operation in `ops`, into `out` (same length): the same digests,
/// computed with the first message block of all operations hashed side by side (SIMD).
pub fn mmr_leaves(ops: &[&[u8]], out: &mut [Hash]) {
    tagged_many(TAG_MMR_LEAF, ops.len(), |i| ops[i], out);
}

/// [`mmr_leaves`] of the operations `op(0) .. op(out.len() - 1)` (no slice of them needed).
pub fn mmr_leaves_with<'a>(op: impl Fn(usize) -> &'a [u8], out: &mut [Hash]) {
    tagged_many(TAG_MMR_LEAF, out.len(), op, out);
}

/// Hash of an MMR inner node: `blake3(0x01 || left || right)`.
pub fn mmr_node(left: &Hash, right: &Hash) -> Hash {
    tagged(TAG_MMR_NODE, &pair(left, right))
}

/// [`mmr_node`] of every `(left || right)` pair in `pairs`, into `out` (same length).
pub fn mmr_nodes(pairs: &[[u8; 64]], out: &mut [Hash]) {
    pairs_many(TAG_MMR_NODE, pairs, out);
}

/// Root of an MMR of `leaves` leaves: `blake3(0x02 || leaves as u64 LE || peaks, left to right)`.
pub fn mmr_bag(leaves: u64, peaks: &[Hash]) -> Hash {
    let mut h = blake3::Hasher::new();
    h.update(&[TAG_MMR_BAG]);
    h.update(&leaves.to_le_bytes());
    for p in peaks {
        h.update(p);
    }
    *h.finalize().as_bytes()
}

/// Hash of a bitmap chunk: `blake3(0x03 || chunk)`.
pub fn bitmap_leaf(chunk: &Chunk) -> Hash {
    tagged(TAG_BITMAP_LEAF, chunk)
}

/// Hash of a bitmap tree inner node: `blake3(0x04 || left || right)`.
pub fn bitmap_node(left: &Hash, right: &Hash) -> Hash {
    tagged(TAG_BITMAP_NODE, &pair(left, right))
}

/// [`bitmap_node`] of every `(left || right)` pair in `pairs`, into `out` (same length).
pub fn bitmap_nodes(pairs: &[[u8; 64]], out: &mut [Hash]) {
    pairs_many(TAG_BITMAP_NODE, pairs, out);
}

/// `left || right`.
#[inline]
pub fn pair(left: &Hash, right: &Hash) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[..32].copy_from_slice(left);
    b[32..].copy_from_slice(right);
    b
}

// ----- blake3 of `tag || data`, driven block by block -----
//
// Every message hashed by the store is `tag || data`. A message of at most one blake3 chunk
// (1024 bytes) is one chunk compressed block by block: the first block with `CHUNK_START`, the
// last (zero-padded, with its true length) with `CHUNK_END | ROOT`, counter 0, key = IV. That is
// exactly blake3's definition of the hash of a one-chunk input; the functions below compute it
// with the `blake3` crate's own compression functions (the crate is pinned, see Cargo.toml), and
// for many messages at once they compress the first (always full) block of all of them with the
// crate's multi-input SIMD routine. Longer messages go through `blake3::Hasher`. The unit tests
// compare every path with `blake3::hash` for all lengths around the block boundaries.

const BLOCK: usize = 64;
const CHUNK: usize = 1024;
const IV: [u32; 8] = [
    0x6A09_E667,
    0xBB67_AE85,
    0x3C6E_F372,
    0xA54F_F53A,
    0x510E_527F,
    0x9B05_688C,
    0x1F83_D9AB,
    0x5BE0_CD19,
];
const CHUNK_START: u8 = 1;
const CHUNK_END: u8 = 2;
const ROOT: u8 = 8;

fn platform() -> Platform {
    static P: std::sync::OnceLock<Platform> = std::sync::OnceLock::new();
    *P.get_or_init(Platform::detect)
}

/// Number of blocks of the message `tag || data` (at least one).
#[inline]
fn blocks_of(data: &[u8]) -> usize {
    (1 + data.len()).div_ceil(BLOCK)
}

/// Block `i` of the message `tag || data`, zero-padded, and its length.
#[inline]
fn block_of(tag: u8, data: &[u8], i: usize) -> ([u8; BLOCK], usize) {
    let mut b = [0u8; BLOCK];
    if i == 0 {
        b[0] = tag;
        let n = data.len().min(BLOCK - 1);
        b[1..1 + n].copy_from_slice(&data[..n]);
        (b, 1 + n)
    } else {
        let s = BLOCK * i - 1;
        let n = (data.len() - s).min(BLOCK);
        b[..n].copy_from_slice(&data[s..s + n]);
        (b, n)
    }
}

/// Compresses blocks `from..` of the one-chunk message `tag || data` into `cv` (whose state
/// is the chaining value after block `from - 1`, or IV) and returns the hash.
#[inline]
fn finish(p: Platform, mut cv: [u32; 8], tag: u8, data: &[u8], from: usize) -> Hash {
    let nb = blocks_of(data);
    for i in from..nb {
        let (b, n) = block_of(tag, data, i);
        let mut flags = 0;
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

/// `blake3(tag || data)`.
fn tagged(tag: u8, data: &[u8]) -> Hash {
    if 1 + data.len() > CHUNK {
        let mut h = blake3::Hasher::new();
        h.update(&[tag]);
        h.update(data);
        return *h.finalize().as_bytes();
    }
    finish(platform(), IV, tag, data, 0)
}

/// Messages whose first blocks are compressed side by side per call of the SIMD routine (the
/// widest the crate uses, AVX-512).
const LANES: usize = 16;

/// `blake3(tag || input(i))` into `out[i]` for every `i < n`.
fn tagged_many<'a>(tag: u8, n: usize, input: impl Fn(usize) -> &'a [u8], out: &mut [Hash]) {
    assert_eq!(n, out.len(), "one output per input");
    let p = platform();
    // Messages of two or more blocks within one chunk: their first blocks (full, not the last)
    // are compressed together, `LANES` at a time.
    let mut firsts = [[0u8; BLOCK]; LANES];
    let mut which = [0usize; LANES];
    let mut k = 0;
    for i in 0..n {
        let d = input(i);
        let len = 1 + d.len();
        if len > BLOCK && len <= CHUNK {
            firsts[k] = block_of(tag, d, 0).0;
            which[k] = i;
            k += 1;
            if k == LANES {
                finish_group(p, tag, &input, &firsts, &which, out);
                k = 0;
            }
        } else {
            out[i] = tagged(tag, d);
        }
    }
    finish_group(p, tag, &input, &firsts[..k], &which[..k], out);
}

/// Compresses the first blocks `firsts` (of the messages `tag || input(which[k])`) side by
/// side and finishes each message into `out[which[k]]`.
fn finish_group<'a>(
    p: Platform,
    tag: u8,
    input: &impl Fn(usize) -> &'a [u8],
    firsts: &[[u8; BLOCK]],
    which: &[usize],
    out: &mut [Hash],
) {
    let mut cvs = [0u8; 32 * LANES];
    first_blocks(p, firsts, &mut cvs);
    for (k, &i) in which.iter().enumerate() {
        let cv: &[u8; 32] = cvs[32 * k..32 * k + 32].try_into().expect("32 bytes");
        out[i] = finish(p, words_from_le_bytes_32(cv), tag, input(i), 1);
    }
}

/// `blake3(tag || pairs[i])` (65-byte messages) into `out[i]` for every `i`.
fn pairs_many(tag: u8, pairs: &[[u8; 64]], out: &mut [Hash]) {
    assert_eq!(pairs.len(), out.len(), "one output per input");
    let p = platform();
    let mut firsts = [[0u8; BLOCK]; LANES];
    let mut cvs = [0u8; 32 * LANES];
    for (group, outs) in pairs.chunks(LANES).zip(out.chunks_mut(LANES)) {
        for (f, d) in firsts.iter_mut().zip(group) {
            *f = block_of(tag, d, 0).0;
        }
        first_blocks(p, &firsts[..group.len()], &mut cvs);
        for (k, (d, o)) in group.iter().zip(outs.iter_mut()).enumerate() {
            let cv: &[u8; 32] = cvs[32 * k..32 * k + 32].try_into().expect("32 bytes");
            let mut cv = words_from_le_bytes_32(cv);
            let mut last = [0u8; BLOCK];
            last[0] = d[63];
            p.compress_in_place(&mut cv, &last, 1, 0, CHUNK_END | ROOT);
            *o = le_bytes_from_words_32(&cv);
        }
    }
}

/// Chaining values (32 bytes each, concatenated into `cvs`) after the first block of
/// one-chunk messages of two or more blocks, whose first blocks are `firsts` (at most
/// [`LANES`]).
fn first_blocks(p: Platform, firsts: &[[u8; BLOCK]], cvs: &mut [u8; 32 * LANES]) {
    debug_assert!(firsts.len() <= LANES);
    if firsts.is_empty() {
        return;
    }
    let refs: [&[u8; BLOCK]; LANES] = std::array::from_fn(|k| &firsts[k.min(firsts.len() - 1)]);
    p.hash_many::<BLOCK>(
        &refs[..firsts.len()],
        &IV,
        0,
        blake3::IncrementCounter::No,
        0,
        CHUNK_START,
        0,
        &mut cvs[..32 * firsts.len()],
    );
}

/// The state root: `blake3(ROOT_DOMAIN || op_count as u64 LE || mmr_root || bitmap_root)`.
pub fn state_root(op_count: u64, mmr_root: &Hash, bitmap_root: &Hash) -> Hash {
    let mut h = blake3::Hasher::new();
    h.update(ROOT_DOMAIN);
    h.update(&op_count.to_le_bytes());
    h.update(mmr_root);
    h.update(bitmap_root);
    *h.finalize().as_bytes()
}

/// Depth of the bitmap tree over `op_count` operations: `ceil(log2(max(1, chunks)))` where
/// `chunks = ceil(op_count / 256)`. The tree is a complete binary tree of `2^depth` leaves; leaves
/// past the last chunk are all-zero chunks.
pub fn bitmap_depth(op_count: u64) -> u32 {
    let chunks = op_count.div_ceil(CHUNK_BITS);
    if chunks <= 1 {
        0
    } else {
        64 - (chunks - 1).leading_zeros()
    }
}

/// Whether bit `bit` (0..256) of `chunk` is set.
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
        assert_eq!(bitmap_depth(256), 0);
        assert_eq!(bitmap_depth(257), 1);
        assert_eq!(bitmap_depth(512), 1);
        assert_eq!(bitmap_depth(513), 2);
        assert_eq!(bitmap_depth(256 * 1024), 10);
        assert_eq!(bitmap_depth(256 * 1024 + 1), 11);
    }

    #[test]
    fn domains_separate() {
        let z = [0u8; 32];
        assert_ne!(mmr_node(&z, &z), bitmap_node(&z, &z));
        assert_ne!(mmr_leaf(&z), bitmap_leaf(&z));
        assert_ne!(mmr_bag(0, &[]), mmr_bag(1, &[]));
    }

    fn reference(tag: u8, data: &[u8]) -> Hash {
        let mut m = vec![tag];
        m.extend_from_slice(data);
        *blake3::hash(&m).as_bytes()
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
        for (d, o) in inputs.iter().zip(&out) {
            assert_eq!(*o, reference(TAG_MMR_LEAF, d), "len {}", d.len());
            assert_eq!(mmr_leaf(d), reference(TAG_MMR_LEAF, d), "len {}", d.len());
        }
        // Batches of every size up to a few SIMD widths, including empty.
        for n in 0..40usize {
            let pairs: Vec<[u8; 64]> = (0..n)
                .map(|i| pair(&[i as u8; 32], &[(i * 7 + 1) as u8; 32]))
                .collect();
            let mut a = vec![[0u8; 32]; n];
            let mut b = vec![[0u8; 32]; n];
            mmr_nodes(&pairs, &mut a);
            bitmap_nodes(&pairs, &mut b);
            for (k, p) in pairs.iter().enumerate() {
                assert_eq!(a[k], reference(TAG_MMR_NODE, p));
                assert_eq!(b[k], reference(TAG_BITMAP_NODE, p));
                let (l, r) = p.split_at(32);
                let (l, r): (&Hash, &Hash) = (l.try_into().unwrap(), r.try_into().unwrap());
                assert_eq!(mmr_node(l, r), a[k]);
                assert_eq!(bitmap_node(l, r), b[k]);
            }
            let sub: Vec<&[u8]> = inputs.iter().copied().take(n).collect();
            let mut c = vec![[0u8; 32]; sub.len()];
            mmr_leaves(&sub, &mut c);
            for (d, o) in sub.iter().zip(&c) {
                assert_eq!(*o, reference(TAG_MMR_LEAF, d));
            }
        }
        assert_eq!(bitmap_leaf(&[5; 32]), reference(TAG_BITMAP_LEAF, &[5; 32]));
    }

    #[test]
    fn bits_lsb_first() {
        let mut c = [0u8; 32];
        c[1] = 0b0000_0100;
        assert!(chunk_bit(&c, 10));
        assert!(!chunk_bit(&c, 9));
    }
}
