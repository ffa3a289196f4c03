//! The absolute consensus round `Round { epoch, view }` and its canonical bytes.
//!
//! The type is `cowboy-codec`'s `Round` (docs/codec.md §5), re-exported:
//! `varint epoch ‖ varint view`, unsigned LEB128, minimal, no trailing bytes.
//! `Round(0, 1)` = `00 01`, `Round(1, 300)` = `01 ac 02`. Rounds are ordered
//! by `(epoch, view)`. Views start at 1 in every epoch (view 0 is the epoch's
//! genesis and never hosts a proposal or a seed).
//!
//! This module adds the round arithmetic the beacon needs (parent round,
//! advance) and decoding into this crate's [`Error`].

use crate::error::{Error, Result};
use cowboy_codec::Canonical;
pub use cowboy_codec::Round;

/// Canonical bytes of a round: `varint epoch ‖ varint view`.
pub fn round_bytes(round: &Round) -> Vec<u8> {
    Canonical::encode(round)
}

/// Strict decode of a round's canonical bytes (minimal varints, no trailing
/// bytes).
pub fn decode_round(bytes: &[u8]) -> Result<Round> {
    <Round as Canonical>::decode(bytes).map_err(|e| Error::Malformed {
        what: "Round",
        reason: e.to_string(),
    })
}

/// The round `k` views later in the same epoch (`advance_round(r, K)` of
/// spec 01 §5.3, for rounds that stay inside one epoch).
pub fn advance_round(round: &Round, k: u64) -> Result<Round> {
    let view = round.view.checked_add(k).ok_or(Error::RoundOverflow)?;
    Ok(Round {
        epoch: round.epoch,
        view,
    })
}

/// The absolute round immediately preceding `round`.
///
/// Inside an epoch this is `(epoch, view - 1)`. The first view of epoch
/// `e > 0` is preceded by the last view of epoch `e - 1`, which only the
/// caller knows: pass it as `last_view_of_previous_epoch`. Round `(0, 1)`
/// (the first round of the chain) and any view 0 have no parent round.
pub fn parent_round(round: &Round, last_view_of_previous_epoch: Option<u64>) -> Result<Round> {
    let no_parent = |reason| Error::NoParentRound {
        epoch: round.epoch,
        view: round.view,
        reason,
    };
    match round.view {
        0 => Err(no_parent("view 0 is an epoch genesis, not a round")),
        1 if round.epoch == 0 => Err(no_parent("first round of the chain")),
        1 => match last_view_of_previous_epoch {
            Some(v) if v >= 1 => Ok(Round {
                epoch: round.epoch - 1,
                view: v,
            }),
            Some(_) => Err(no_parent("previous epoch's last view must be >= 1")),
            None => Err(no_parent(
                "first view of an epoch needs the previous epoch's last view",
            )),
        },
        v => Ok(Round {
            epoch: round.epoch,
            view: v - 1,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn r(epoch: u64, view: u64) -> Round {
        Round { epoch, view }
    }

    #[test]
    fn known_answers() {
        assert_eq!(round_bytes(&r(0, 1)), [0x00, 0x01]);
        assert_eq!(round_bytes(&r(1, 300)), [0x01, 0xac, 0x02]);
        assert_eq!(round_bytes(&r(0, 0)), [0x00, 0x00]);
        assert_eq!(
            round_bytes(&r(u64::MAX, 127)),
            [
                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x7f
            ]
        );
    }

    #[test]
    fn round_trip() {
        for (e, v) in [(0, 0), (0, 1), (1, 300), (7, 1 << 40), (u64::MAX, u64::MAX)] {
            let x = r(e, v);
            assert_eq!(decode_round(&round_bytes(&x)).unwrap(), x);
        }
    }

    #[test]
    fn strict_decode() {
        // non-minimal varint (0 in two bytes)
        assert!(matches!(
            decode_round(&[0x80, 0x00, 0x01]),
            Err(Error::Malformed { .. })
        ));
        // trailing byte
        assert!(decode_round(&[0x00, 0x01, 0x00]).is_err());
        // truncated
        assert!(decode_round(&[0x00]).is_err());
        assert!(decode_round(&[]).is_err());
        // overflow beyond 64 bits
        assert!(decode_round(&[0xff; 11]).is_err());
    }

    #[test]
    fn ordering() {
        assert!(r(0, 5) < r(1, 1));
        assert!(r(1, 1) < r(1, 2));
    }

    #[test]
    fn parent_rounds() {
        assert_eq!(parent_round(&r(3, 10), None).unwrap(), r(3, 9));
        assert_eq!(parent_round(&r(3, 2), None).unwrap(), r(3, 1));
        assert_eq!(parent_round(&r(3, 1), Some(3600)).unwrap(), r(2, 3600));
        assert!(matches!(
            parent_round(&r(3, 1), None),
            Err(Error::NoParentRound { .. })
        ));
        assert!(parent_round(&r(3, 1), Some(0)).is_err());
        assert!(parent_round(&r(0, 1), Some(5)).is_err());
        assert!(parent_round(&r(4, 0), None).is_err());
    }

    #[test]
    fn advance() {
        assert_eq!(advance_round(&r(2, 5), 3).unwrap(), r(2, 8));
        assert_eq!(advance_round(&r(2, u64::MAX), 1), Err(Error::RoundOverflow));
    }
}
