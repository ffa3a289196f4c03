//! Operations of the append-only log and their canonical encoding.
//!
//! Encoding (all integers little-endian):
//! - `Update`: `0x01 | u32 key_len | key | u32 value_len | value | u32 next_len | next_key`
//! - `Delete`: `0x02 | u32 key_len | key`
//! - `Commit`: `0x03 | u64 floor | u64 active_keys`
//!
//! The MMR leaf of an operation is `blake3(0x00 || encoding)`.

use crate::{Error, MAX_KEY_LEN, MAX_VALUE_LEN};

const TAG_UPDATE: u8 = 0x01;
const TAG_DELETE: u8 = 0x02;
const TAG_COMMIT: u8 = 0x03;

/// One entry of the operation log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `key` holds `value`; `next_key` is the next larger live key at the time the operation
    /// was written (the largest key points to the smallest, a single key to itself). While the
    /// operation is active this link is current, which is what exclusion proofs rely on.
    Update {
        /// The key.
        key: Vec<u8>,
        /// The value.
        value: Vec<u8>,
        /// Successor of `key` in the live key set (cyclic).
        next_key: Vec<u8>,
    },
    /// `key` was deleted. Never active.
    Delete {
        /// The deleted key.
        key: Vec<u8>,
    },
    /// End of a committed batch. Never active.
    Commit {
        /// Inactivity floor: every active operation has a location `>= floor`.
        floor: u64,
        /// Number of live keys after this commit.
        active_keys: u64,
    },
}

impl Op {
    /// Appends the canonical encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        match self {
            Op::Update {
                key,
                value,
                next_key,
            } => {
                out.push(TAG_UPDATE);
                put_bytes(out, key);
                put_bytes(out, value);
                put_bytes(out, next_key);
            }
            Op::Delete { key } => {
                out.push(TAG_DELETE);
                put_bytes(out, key);
            }
            Op::Commit { floor, active_keys } => {
                out.push(TAG_COMMIT);
                out.extend_from_slice(&floor.to_le_bytes());
                out.extend_from_slice(&active_keys.to_le_bytes());
            }
        }
    }

    /// Appends the canonical encoding of `Update { key, value, next_key }` to `out` without
    /// building the operation.
    pub fn encode_update(key: &[u8], value: &[u8], next_key: &[u8], out: &mut Vec<u8>) {
        out.reserve(13 + key.len() + value.len() + next_key.len());
        out.push(TAG_UPDATE);
        put_bytes(out, key);
        put_bytes(out, value);
        put_bytes(out, next_key);
    }

    /// Appends the canonical encoding of `Delete { key }` to `out`.
    pub fn encode_delete(key: &[u8], out: &mut Vec<u8>) {
        out.push(TAG_DELETE);
        put_bytes(out, key);
    }

    /// The canonical encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_into(&mut v);
        v
    }

    /// Strictly decodes one operation occupying all of `buf`.
    pub fn decode(buf: &[u8]) -> Result<Op, Error> {
        let mut r = Reader { buf, pos: 0 };
        let op = match r.u8()? {
            TAG_UPDATE => {
                let key = r.bytes(MAX_KEY_LEN)?;
                let value = r.bytes(MAX_VALUE_LEN)?;
                let next_key = r.bytes(MAX_KEY_LEN)?;
                if key.is_empty() || next_key.is_empty() {
                    return Err(Error::Corrupt("empty key in update".into()));
                }
                Op::Update {
                    key,
                    value,
                    next_key,
                }
            }
            TAG_DELETE => {
                let key = r.bytes(MAX_KEY_LEN)?;
                if key.is_empty() {
                    return Err(Error::Corrupt("empty key in delete".into()));
                }
                Op::Delete { key }
            }
            TAG_COMMIT => Op::Commit {
                floor: r.u64()?,
                active_keys: r.u64()?,
            },
            t => return Err(Error::Corrupt(format!("unknown operation tag {t:#04x}"))),
        };
        if r.pos != buf.len() {
            return Err(Error::Corrupt("trailing bytes after operation".into()));
        }
        Ok(op)
    }

    /// The key of an `Update` or `Delete`.
    pub fn key(&self) -> Option<&[u8]> {
        match self {
            Op::Update { key, .. } | Op::Delete { key } => Some(key),
            Op::Commit { .. } => None,
        }
    }
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

/// A bounds-checked little-endian reader used by every decoder of the crate.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.pos.checked_add(n).filter(|e| *e <= self.buf.len());
        match end {
            Some(end) => {
                let buf: &'a [u8] = self.buf;
                let s = &buf[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(Error::Corrupt("unexpected end of input".into())),
        }
    }
    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    pub(crate) fn hash(&mut self) -> Result<[u8; 32], Error> {
        Ok(self.take(32)?.try_into().expect("32 bytes"))
    }
    pub(crate) fn chunk(&mut self) -> Result<crate::hash::Chunk, Error> {
        Ok(self
            .take(crate::hash::CHUNK_BYTES)?
            .try_into()
            .expect("chunk bytes"))
    }
    pub(crate) fn bytes(&mut self, max: usize) -> Result<Vec<u8>, Error> {
        let n = self.u32()? as usize;
        if n > max {
            return Err(Error::Corrupt(format!("length {n} above limit {max}")));
        }
        Ok(self.take(n)?.to_vec())
    }
    pub(crate) fn done(&self) -> bool {
        self.pos == self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let ops = [
            Op::Update {
                key: b"k".to_vec(),
                value: vec![],
                next_key: b"z".to_vec(),
            },
            Op::Update {
                key: vec![1; 300],
                value: vec![9; 1000],
                next_key: vec![1; 300],
            },
            Op::Delete {
                key: b"abc".to_vec(),
            },
            Op::Commit {
                floor: 7,
                active_keys: u64::MAX,
            },
        ];
        for op in ops {
            assert_eq!(Op::decode(&op.encode()).unwrap(), op);
        }
    }

    #[test]
    fn rejects_bad_bytes() {
        assert!(Op::decode(&[]).is_err());
        assert!(Op::decode(&[0x09]).is_err());
        let mut b = Op::Delete { key: b"a".to_vec() }.encode();
        b.push(0);
        assert!(Op::decode(&b).is_err());
        assert!(Op::decode(&[TAG_DELETE, 0, 0, 0, 0]).is_err());
        assert!(Op::decode(&[TAG_DELETE, 0xff, 0xff, 0xff, 0xff, 1]).is_err());
        assert!(Op::decode(&[TAG_COMMIT, 1, 2, 3]).is_err());
    }
}
