//! The absolute consensus round `Round { epoch, view }` and its canonical bytes.
//!
//! Encoding (docs/codec.md §5): `varint epoch ‖ varint view`, unsigned LEB128,
//! minimal, no trailing bytes. `Round(0, 1)` = `00 01`, `Round(1, 300)` =
//! `01 ac 02`. Rounds are ordered by `(epoch, view)`.
//!
//! This is a local definition of the type that `cowboy-codec` also defines: the
//! bytes are identical by construction (both use the pinned `commonware-codec`
//! varint). When `cowboy-codec` exports `Round`, this module becomes a
//! re-export.

use crate::error::{Error, Result};
use bytes::BufMut;
use commonware_codec::{
    Buf, Copying, DecodeExt, EncodeSize, Error as CodecError, Read, Write, varint::UInt,
};

/// An absolute consensus round. Views start at 1 in every epoch (view 0 is the
/// epoch's genesis and never hosts a proposal or a seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Round {
    /// The epoch (validator-set period).
    pub epoch: u64,
    /// The view within the epoch.
    pub view: u64,
}

impl Round {
    /// Creates a round.
    pub const fn new(epoch: u64, view: u64) -> Self {
        Self { epoch, view }
    }

    /// Canonical bytes: `varint epoch ‖ varint view`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encode_size());
        self.write(&mut out);
        out
    }

    /// Strict decode of the canonical bytes (minimal varints, no trailing bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::decode(Copying(bytes)).map_err(|e| Error::Malformed {
            what: "Round",
            reason: e.to_string(),
        })
    }

    /// The round `k` views later in the same epoch (`advance_round(r, K)` of
    /// spec 01 §5.3 for rounds that stay inside one epoch).
    pub fn advance(&self, k: u64) -> Result<Self> {
        let view = self.view.checked_add(k).ok_or(Error::RoundOverflow)?;
        Ok(Self::new(self.epoch, view))
    }

    /// The absolute round immediately preceding `self`.
    ///
    /// Inside an epoch this is `(epoch, view - 1)`. The first view of epoch
    /// `e > 0` is preceded by the last view of epoch `e - 1`, which only the
    /// caller knows: pass it as `last_view_of_previous_epoch`. Round `(0, 1)`
    /// (the first round of the chain) and any view 0 have no parent round.
    pub fn parent(&self, last_view_of_previous_epoch: Option<u64>) -> Result<Self> {
        let no_parent = |reason| Error::NoParentRound {
            epoch: self.epoch,
            view: self.view,
            reason,
        };
        match self.view {
            0 => Err(no_parent("view 0 is an epoch genesis, not a round")),
            1 if self.epoch == 0 => Err(no_parent("first round of the chain")),
            1 => match last_view_of_previous_epoch {
                Some(v) if v >= 1 => Ok(Self::new(self.epoch - 1, v)),
                Some(_) => Err(no_parent("previous epoch's last view must be >= 1")),
                None => Err(no_parent("first view of an epoch needs the previous epoch's last view")),
            },
            v => Ok(Self::new(self.epoch, v - 1)),
        }
    }
}

impl Write for Round {
    fn write(&self, buf: &mut impl BufMut) {
        UInt(self.epoch).write(buf);
        UInt(self.view).write(buf);
    }
}

impl EncodeSize for Round {
    fn encode_size(&self) -> usize {
        UInt(self.epoch).encode_size() + UInt(self.view).encode_size()
    }
}

impl Read for Round {
    type Cfg = ();

    fn read_cfg(buf: &mut impl Buf, _: &()) -> core::result::Result<Self, CodecError> {
        let epoch: u64 = UInt::read(buf)?.into();
        let view: u64 = UInt::read(buf)?.into();
        Ok(Self { epoch, view })
    }
}

impl core::fmt::Display for Round {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({}, {})", self.epoch, self.view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers() {
        assert_eq!(Round::new(0, 1).to_bytes(), [0x00, 0x01]);
        assert_eq!(Round::new(1, 300).to_bytes(), [0x01, 0xac, 0x02]);
        assert_eq!(Round::new(0, 0).to_bytes(), [0x00, 0x00]);
        assert_eq!(
            Round::new(u64::MAX, 127).to_bytes(),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x7f]
        );
    }

    #[test]
    fn round_trip() {
        for (e, v) in [(0, 0), (0, 1), (1, 300), (7, 1 << 40), (u64::MAX, u64::MAX)] {
            let r = Round::new(e, v);
            assert_eq!(Round::from_bytes(&r.to_bytes()).unwrap(), r);
        }
    }

    #[test]
    fn strict_decode() {
        // non-minimal varint (0 in two bytes)
        assert!(matches!(
            Round::from_bytes(&[0x80, 0x00, 0x01]),
            Err(Error::Malformed { .. })
        ));
        // trailing byte
        assert!(Round::from_bytes(&[0x00, 0x01, 0x00]).is_err());
        // truncated
        assert!(Round::from_bytes(&[0x00]).is_err());
        assert!(Round::from_bytes(&[]).is_err());
        // overflow beyond 64 bits
        assert!(Round::from_bytes(&[0xff; 11]).is_err());
    }

    #[test]
    fn ordering() {
        assert!(Round::new(0, 5) < Round::new(1, 1));
        assert!(Round::new(1, 1) < Round::new(1, 2));
    }

    #[test]
    fn parent_rounds() {
        assert_eq!(Round::new(3, 10).parent(None).unwrap(), Round::new(3, 9));
        assert_eq!(Round::new(3, 2).parent(None).unwrap(), Round::new(3, 1));
        assert_eq!(Round::new(3, 1).parent(Some(3600)).unwrap(), Round::new(2, 3600));
        assert!(matches!(
            Round::new(3, 1).parent(None),
            Err(Error::NoParentRound { .. })
        ));
        assert!(Round::new(3, 1).parent(Some(0)).is_err());
        assert!(Round::new(0, 1).parent(Some(5)).is_err());
        assert!(Round::new(4, 0).parent(None).is_err());
    }

    #[test]
    fn advance() {
        assert_eq!(Round::new(2, 5).advance(3).unwrap(), Round::new(2, 8));
        assert_eq!(Round::new(2, u64::MAX).advance(1), Err(Error::RoundOverflow));
    }
}
