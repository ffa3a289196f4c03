//! The key type of the in-memory index: keys of up to [`INLINE`] bytes (every account, code,
//! runner and timer key, and short actor-storage keys) are stored inline, so comparing keys
//! while searching the index reads the tree node itself instead of chasing a heap pointer per
//! comparison. Longer keys live on the heap. Ordering is plain byte order, identical to
//! `[u8]`'s, so the index can be searched with `&[u8]` through [`Borrow`].

use std::borrow::Borrow;
use std::cmp::Ordering;

/// Longest key stored inline.
pub const INLINE: usize = 30;
const _: () = assert!(INLINE >= 8);

/// An index key. Invariant: `Inline` is used iff the key is at most [`INLINE`] bytes long.
#[derive(Clone)]
pub enum IKey {
    /// `buf[..len]` is the key.
    Inline {
        /// Key length (`<= INLINE`).
        len: u8,
        /// Key bytes, zero-padded.
        buf: [u8; INLINE],
    },
    /// A key longer than [`INLINE`] bytes.
    Heap(Box<[u8]>),
}

impl IKey {
    /// The key for `bytes`.
    pub fn new(bytes: &[u8]) -> IKey {
        if bytes.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..bytes.len()].copy_from_slice(bytes);
            IKey::Inline {
                len: bytes.len() as u8,
                buf,
            }
        } else {
            IKey::Heap(bytes.into())
        }
    }

    /// The first 8 key bytes, zero-padded, as a big-endian integer. When the heads of two keys
    /// differ they order the keys exactly as byte order does (a zero pad only ever stands for
    /// "shorter", which byte order also puts first).
    #[inline]
    fn head(&self) -> u64 {
        match self {
            IKey::Inline { buf, .. } => u64::from_be_bytes(buf[..8].try_into().expect("8 bytes")),
            IKey::Heap(b) => u64::from_be_bytes(b[..8].try_into().expect("heap keys are long")),
        }
    }

    /// The key bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match self {
            IKey::Inline { len, buf } => &buf[..*len as usize],
            IKey::Heap(b) => b,
        }
    }
}

impl std::fmt::Debug for IKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IKey({:02x?})", self.as_slice())
    }
}

impl PartialEq for IKey {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for IKey {}

impl PartialOrd for IKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for IKey {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match self.head().cmp(&other.head()) {
            Ordering::Equal => self.as_slice().cmp(other.as_slice()),
            o => o,
        }
    }
}

impl std::hash::Hash for IKey {
    /// Hashes exactly like the `[u8]` it borrows as (maps keyed by `IKey` are searched by slice).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl Borrow<[u8]> for IKey {
    fn borrow(&self) -> &[u8] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_equals_byte_order() {
        let samples: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![1],
            vec![1; 30],
            vec![1; 31],
            vec![1; 29],
            [vec![1; 30], vec![0]].concat(),
            vec![2; 40],
            vec![255],
        ];
        for a in &samples {
            let ka = IKey::new(a);
            assert_eq!(ka.as_slice(), &a[..]);
            assert_eq!(matches!(ka, IKey::Inline { .. }), a.len() <= INLINE);
            for b in &samples {
                assert_eq!(ka.cmp(&IKey::new(b)), a.cmp(b), "{a:?} vs {b:?}");
            }
        }
    }
}
