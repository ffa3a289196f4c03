//! State proofs: inclusion (`key` has `value`) and exclusion (`key` is absent) against a root.
//!
//! A proof shows one operation of the log and that it is *active* at the proven root:
//! - the operation's leaf is in the MMR of `op_count` leaves (sibling path + all peaks);
//! - its bit is set in the activity bitmap (the 512-bit chunk + sibling path);
//! - `state_root(op_count, bag(peaks), bitmap root)` equals the trusted root.
//!
//! An active `Update { key, value, next_key }` proves `key = value`, and proves every key
//! strictly between `key` and `next_key` (cyclically) absent. For an empty state the proof is
//! the final `Commit` operation (which records `active_keys = 0`), or nothing when the log is
//! empty.
//!
//! Byte encoding (little-endian), shared with the TypeScript verifier:
//! ```text
//! u64 op_count | u32 n | n × peak(32) | u8 kind
//! kind 0 (empty): u8 has_last | [u32 len | op | u32 m | m × hash] | bitmap_root(32)
//! kind 1 (op):    u64 loc | u32 len | op | u32 m | m × hash | chunk(64) | u32 d | d × hash
//! ```

use crate::bitmap::root_from_path;
use crate::hash::{
    CHUNK_BITS, Chunk, Hash, bitmap_depth, chunk_bit, mmr_bag, mmr_leaf, state_root,
};
use crate::mmr::verify_leaf;
use crate::op::{Op, Reader};
use crate::{Error, MAX_KEY_LEN};
use std::fmt;

/// How an operation-witness is anchored in the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    /// The state is empty.
    Empty {
        /// The last operation (a `Commit` with `active_keys == 0`) and its MMR path; `None`
        /// when `op_count == 0`.
        last: Option<(Op, Vec<Hash>)>,
        /// Root of the activity bitmap.
        bitmap_root: Hash,
    },
    /// An active `Update`: the key itself (inclusion) or its cyclic predecessor (exclusion).
    Op {
        /// Location of the operation.
        loc: u64,
        /// The operation (always an `Update`).
        op: Op,
        /// Bottom-up MMR sibling path of the leaf.
        mmr_path: Vec<Hash>,
        /// The bitmap chunk holding bit `loc`.
        chunk: Chunk,
        /// Bottom-up sibling path of the chunk in the bitmap tree.
        bitmap_path: Vec<Hash>,
    },
}

/// A proof of a key's value or absence at the state root of one version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Number of operations at the proven version.
    pub op_count: u64,
    /// MMR peaks at `op_count`, left to right.
    pub peaks: Vec<Hash>,
    /// The operation witness.
    pub witness: Witness,
}

/// Why a proof was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// The proof bytes are malformed.
    Malformed(String),
    /// The MMR path does not lead to a peak.
    BadMmrPath,
    /// The operation's activity bit is not set.
    Inactive,
    /// The bitmap path has the wrong length for `op_count`.
    BadBitmapPath,
    /// The recomputed root differs from the trusted root.
    RootMismatch,
    /// The witness does not speak about the queried key.
    KeyNotCovered,
    /// The key is empty or too long.
    BadKey,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Malformed(m) => write!(f, "malformed proof: {m}"),
            ProofError::BadMmrPath => write!(f, "operation is not in the log under this root"),
            ProofError::Inactive => write!(f, "operation is not active"),
            ProofError::BadBitmapPath => write!(f, "bitmap path has the wrong shape"),
            ProofError::RootMismatch => write!(f, "recomputed root differs from the trusted root"),
            ProofError::KeyNotCovered => write!(f, "witness does not cover the key"),
            ProofError::BadKey => write!(f, "key length out of range"),
        }
    }
}

impl std::error::Error for ProofError {}

impl ProofError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ProofError::Malformed(_) => "PROOF_MALFORMED",
            ProofError::BadMmrPath => "PROOF_BAD_MMR_PATH",
            ProofError::Inactive => "PROOF_INACTIVE",
            ProofError::BadBitmapPath => "PROOF_BAD_BITMAP_PATH",
            ProofError::RootMismatch => "PROOF_ROOT_MISMATCH",
            ProofError::KeyNotCovered => "PROOF_KEY_NOT_COVERED",
            ProofError::BadKey => "PROOF_BAD_KEY",
        }
    }
}

/// Whether `key` lies strictly inside the cyclic gap `(from, to)` of the live key set.
/// `from >= to` means `from` is the largest key and the gap wraps around.
pub fn in_gap(from: &[u8], to: &[u8], key: &[u8]) -> bool {
    if from < to {
        from < key && key < to
    } else {
        key > from || key < to
    }
}

impl Proof {
    /// Verifies the proof for `key` against the trusted `root`. `Ok(Some(value))` proves
    /// `key = value`; `Ok(None)` proves `key` absent. Any inconsistency is an error.
    pub fn verify(&self, root: &Hash, key: &[u8]) -> Result<Option<Vec<u8>>, ProofError> {
        if key.is_empty() || key.len() > MAX_KEY_LEN {
            return Err(ProofError::BadKey);
        }
        let n = self.op_count;
        if self.peaks.len() != n.count_ones() as usize {
            return Err(ProofError::Malformed("peak count".into()));
        }
        let mmr_root = mmr_bag(n, &self.peaks);
        match &self.witness {
            Witness::Empty { last, bitmap_root } => {
                match (n, last) {
                    (0, None) => {}
                    (0, Some(_)) | (_, None) => {
                        return Err(ProofError::Malformed("empty witness shape".into()));
                    }
                    (_, Some((op, path))) => {
                        if !matches!(op, Op::Commit { active_keys: 0, .. }) {
                            return Err(ProofError::KeyNotCovered);
                        }
                        if !verify_leaf(n, n - 1, &mmr_leaf(&op.encode()), path, &self.peaks) {
                            return Err(ProofError::BadMmrPath);
                        }
                    }
                }
                if state_root(n, &mmr_root, bitmap_root) != *root {
                    return Err(ProofError::RootMismatch);
                }
                Ok(None)
            }
            Witness::Op {
                loc,
                op,
                mmr_path,
                chunk,
                bitmap_path,
            } => {
                let Op::Update {
                    key: k,
                    value,
                    next_key,
                } = op
                else {
                    return Err(ProofError::Malformed(
                        "witness operation is not an update".into(),
                    ));
                };
                if *loc >= n
                    || !verify_leaf(n, *loc, &mmr_leaf(&op.encode()), mmr_path, &self.peaks)
                {
                    return Err(ProofError::BadMmrPath);
                }
                if bitmap_path.len() != bitmap_depth(n) as usize {
                    return Err(ProofError::BadBitmapPath);
                }
                if !chunk_bit(chunk, loc % CHUNK_BITS) {
                    return Err(ProofError::Inactive);
                }
                let bitmap_root = root_from_path(chunk, loc / CHUNK_BITS, bitmap_path);
                if state_root(n, &mmr_root, &bitmap_root) != *root {
                    return Err(ProofError::RootMismatch);
                }
                if k.as_slice() == key {
                    Ok(Some(value.clone()))
                } else if in_gap(k, next_key, key) {
                    Ok(None)
                } else {
                    Err(ProofError::KeyNotCovered)
                }
            }
        }
    }

    /// Canonical byte encoding (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&self.op_count.to_le_bytes());
        put_hashes(&mut b, &self.peaks);
        match &self.witness {
            Witness::Empty { last, bitmap_root } => {
                b.push(0);
                match last {
                    None => b.push(0),
                    Some((op, path)) => {
                        b.push(1);
                        put_op(&mut b, op);
                        put_hashes(&mut b, path);
                    }
                }
                b.extend_from_slice(bitmap_root);
            }
            Witness::Op {
                loc,
                op,
                mmr_path,
                chunk,
                bitmap_path,
            } => {
                b.push(1);
                b.extend_from_slice(&loc.to_le_bytes());
                put_op(&mut b, op);
                put_hashes(&mut b, mmr_path);
                b.extend_from_slice(chunk);
                put_hashes(&mut b, bitmap_path);
            }
        }
        b
    }

    /// Strict decoding of [`Proof::encode`] output.
    pub fn decode(buf: &[u8]) -> Result<Proof, Error> {
        let mut r = Reader { buf, pos: 0 };
        let op_count = r.u64()?;
        let peaks = get_hashes(&mut r)?;
        let witness = match r.u8()? {
            0 => {
                let last = match r.u8()? {
                    0 => None,
                    1 => Some((get_op(&mut r)?, get_hashes(&mut r)?)),
                    t => return Err(Error::Corrupt(format!("bad flag {t}"))),
                };
                Witness::Empty {
                    last,
                    bitmap_root: r.hash()?,
                }
            }
            1 => Witness::Op {
                loc: r.u64()?,
                op: get_op(&mut r)?,
                mmr_path: get_hashes(&mut r)?,
                chunk: r.chunk()?,
                bitmap_path: get_hashes(&mut r)?,
            },
            t => return Err(Error::Corrupt(format!("bad witness kind {t}"))),
        };
        if !r.done() {
            return Err(Error::Corrupt("trailing bytes after proof".into()));
        }
        Ok(Proof {
            op_count,
            peaks,
            witness,
        })
    }
}

/// Decodes and verifies in one step (what the addon exposes).
pub fn verify_bytes(root: &Hash, key: &[u8], proof: &[u8]) -> Result<Option<Vec<u8>>, ProofError> {
    let p = Proof::decode(proof).map_err(|e| ProofError::Malformed(e.to_string()))?;
    p.verify(root, key)
}

fn put_hashes(b: &mut Vec<u8>, hs: &[Hash]) {
    b.extend_from_slice(&(hs.len() as u32).to_le_bytes());
    for h in hs {
        b.extend_from_slice(h);
    }
}

fn get_hashes(r: &mut Reader<'_>) -> Result<Vec<Hash>, Error> {
    let n = r.u32()? as usize;
    if n > 128 {
        return Err(Error::Corrupt(format!("{n} hashes in a path")));
    }
    (0..n).map(|_| r.hash()).collect()
}

fn put_op(b: &mut Vec<u8>, op: &Op) {
    let e = op.encode();
    b.extend_from_slice(&(e.len() as u32).to_le_bytes());
    b.extend_from_slice(&e);
}

fn get_op(r: &mut Reader<'_>) -> Result<Op, Error> {
    let n = r.u32()? as usize;
    Op::decode(r.take(n)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps() {
        assert!(in_gap(b"b", b"d", b"c"));
        assert!(!in_gap(b"b", b"d", b"b"));
        assert!(!in_gap(b"b", b"d", b"d"));
        assert!(!in_gap(b"b", b"d", b"e"));
        // wrap: b is the largest key, a the smallest
        assert!(in_gap(b"d", b"b", b"e"));
        assert!(in_gap(b"d", b"b", b"a"));
        assert!(!in_gap(b"d", b"b", b"c"));
        // single key
        assert!(in_gap(b"k", b"k", b"a"));
        assert!(!in_gap(b"k", b"k", b"k"));
    }
}
