//! Hashing rules of the state commitment. Every hash is blake3 with a one-byte domain tag, so a
//! value of one kind can never be replayed as another (an operation as an inner node, a bitmap
//! chunk as an operation, ...).
//!
//! These functions define consensus bytes: changing any of them changes every state root.

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
    let mut h = blake3::Hasher::new();
    h.update(&[TAG_MMR_LEAF]);
    h.update(op_bytes);
    *h.finalize().as_bytes()
}

/// Hash of an MMR inner node: `blake3(0x01 || left || right)`.
pub fn mmr_node(left: &Hash, right: &Hash) -> Hash {
    let mut buf = [0u8; 65];
    buf[0] = TAG_MMR_NODE;
    buf[1..33].copy_from_slice(left);
    buf[33..].copy_from_slice(right);
    *blake3::hash(&buf).as_bytes()
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
    let mut buf = [0u8; 33];
    buf[0] = TAG_BITMAP_LEAF;
    buf[1..].copy_from_slice(chunk);
    *blake3::hash(&buf).as_bytes()
}

/// Hash of a bitmap tree inner node: `blake3(0x04 || left || right)`.
pub fn bitmap_node(left: &Hash, right: &Hash) -> Hash {
    let mut buf = [0u8; 65];
    buf[0] = TAG_BITMAP_NODE;
    buf[1..33].copy_from_slice(left);
    buf[33..].copy_from_slice(right);
    *blake3::hash(&buf).as_bytes()
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

    #[test]
    fn bits_lsb_first() {
        let mut c = [0u8; 32];
        c[1] = 0b0000_0100;
        assert!(chunk_bit(&c, 10));
        assert!(!chunk_bit(&c, 9));
    }
}
