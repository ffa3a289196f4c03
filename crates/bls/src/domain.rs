//! Domain separation: every signed message type has its own namespace, bound to
//! the chain id.
//!
//! The namespace of domain `d` on chain `c` is the ASCII bytes
//! `"cowboy-v1/" ‖ tag(d)` followed by `c` as 8 big-endian bytes. It is fed to
//! commonware's `union_unique`, so the bytes actually hashed to G2 are
//! `varint(len(namespace)) ‖ namespace ‖ message` under the ciphersuite
//! `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` (proofs of possession use
//! `BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`). A signature made for one
//! domain or chain therefore never verifies for another.
//!
//! The message bytes of each consensus domain are defined here too:
//!
//! | domain | message |
//! | --- | --- |
//! | `notarize`, `finalize` | `bytes32 block_hash ‖ varint height ‖ Round round` ([`vote_message`]) |
//! | `nullify` | `Round round` ([`nullify_message`]) |
//! | `seed` | `Round round` ([`crate::seed::seed_message`]) |
//! | `pop` | the 48-byte public key (commonware's proof of possession) |
//! | `dkg` | commonware's DKG transcript messages (acks, dealer logs) |

use crate::{
    error::{Error, Result},
    round::{Round, round_bytes},
};
use commonware_codec::{Write, varint::UInt};

/// The version prefix of every namespace.
pub const NAMESPACE_PREFIX: &[u8] = b"cowboy-v1/";

/// A signed-message type. Each has a distinct namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Domain {
    /// Simplex notarize vote (and notarization certificate).
    Notarize,
    /// Simplex nullify vote (and nullification certificate).
    Nullify,
    /// Simplex finalize vote (and finalization certificate).
    Finalize,
    /// Threshold seed (randomness beacon) of a round.
    Seed,
    /// Proof of possession of a validator key (registration).
    ProofOfPossession,
    /// DKG / resharing acknowledgements and dealer logs.
    Dkg,
}

impl Domain {
    /// Every domain, in tag order.
    pub const ALL: [Self; 6] = [
        Self::Notarize,
        Self::Nullify,
        Self::Finalize,
        Self::Seed,
        Self::ProofOfPossession,
        Self::Dkg,
    ];

    /// The ASCII tag of the domain (also its text name in the native addon).
    pub const fn tag(&self) -> &'static str {
        match self {
            Self::Notarize => "notarize",
            Self::Nullify => "nullify",
            Self::Finalize => "finalize",
            Self::Seed => "seed",
            Self::ProofOfPossession => "pop",
            Self::Dkg => "dkg",
        }
    }

    /// Parses a tag produced by [`Domain::tag`].
    pub fn from_tag(tag: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|d| d.tag() == tag)
            .ok_or_else(|| Error::UnknownDomain(tag.to_string()))
    }

    /// The namespace bytes of this domain on chain `chain_id`:
    /// `"cowboy-v1/" ‖ tag ‖ u64be(chain_id)`.
    pub fn namespace(&self, chain_id: u64) -> Vec<u8> {
        let tag = self.tag().as_bytes();
        let mut out = Vec::with_capacity(NAMESPACE_PREFIX.len() + tag.len() + 8);
        out.extend_from_slice(NAMESPACE_PREFIX);
        out.extend_from_slice(tag);
        out.extend_from_slice(&chain_id.to_be_bytes());
        out
    }
}

/// The message of a notarize or finalize vote (spec 01 §6.1: the QC signs
/// `block_hash ‖ height ‖ round`): `bytes32 block_hash ‖ varint height ‖ Round`.
pub fn vote_message(block_hash: &[u8; 32], height: u64, round: Round) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + 10 + 20);
    out.extend_from_slice(block_hash);
    UInt(height).write(&mut out);
    round.write(&mut out);
    out
}

/// The message of a nullify vote: the round's canonical bytes.
pub fn nullify_message(round: Round) -> Vec<u8> {
    round_bytes(&round)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_are_distinct_and_chain_bound() {
        let mut seen = std::collections::BTreeSet::new();
        for d in Domain::ALL {
            for chain in [0u64, 1, 42] {
                assert!(seen.insert(d.namespace(chain)));
            }
            assert_eq!(Domain::from_tag(d.tag()).unwrap(), d);
        }
        assert_eq!(
            Domain::Seed.namespace(42),
            b"cowboy-v1/seed\x00\x00\x00\x00\x00\x00\x00\x2a".to_vec()
        );
        assert!(matches!(
            Domain::from_tag("vote"),
            Err(Error::UnknownDomain(_))
        ));
    }

    #[test]
    fn vote_message_layout() {
        let msg = vote_message(&[0x11; 32], 300, Round { epoch: 1, view: 2 });
        let mut expected = vec![0x11; 32];
        expected.extend_from_slice(&[0xac, 0x02, 0x01, 0x02]);
        assert_eq!(msg, expected);
        assert_eq!(
            nullify_message(Round { epoch: 0, view: 1 }),
            vec![0x00, 0x01]
        );
    }
}
