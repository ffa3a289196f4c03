//! The per-round randomness beacon (spec 01 "Randomness", §3.4, §5.3).
//!
//! `Seed { round, signature }`: the threshold signature of the epoch's
//! validators over the seed message of `round` — exactly one valid seed exists
//! per absolute round, whether the round notarizes, finalizes or nullifies.
//!
//! * Seed message of `round`: its canonical bytes `varint epoch ‖ varint view`
//!   ([`seed_message`]; `Round(0,1)` = `00 01`, `Round(1,300)` = `01 ac 02`),
//!   signed under namespace [`Domain::Seed`] of the chain.
//! * Verification: against the epoch's group public key
//!   ([`crate::GroupPublic::public_key`]).
//! * Execution-readable beacon of a block proposed in round `r`: the seed of
//!   the absolute round immediately preceding `r` ([`parent_seed_round`],
//!   [`verify_parent_seed`]) — never the seed of `r` itself, never looked up by
//!   height.
//! * Sub-randomness: [`derive`] = HKDF-SHA256 with
//!   `salt = "cowboy-v1/beacon-hkdf"`, `IKM = R` (the seed's 96-byte compressed
//!   signature), `info = label`, `L = out_len` (1..=8160). Protocol labels
//!   start with `cowboy-` (runner selection uses `cowboy-runner-select-v3:`
//!   followed by the job-specific bytes); actor labels are prefixed by the
//!   actor SDK so different actors never share sub-randomness.

use crate::{
    domain::Domain,
    error::{Error, Result, check_len},
    keys::{PublicKey, SIGNATURE_LENGTH, Signature},
    round::{Round, decode_round, parent_round, round_bytes},
    threshold::{GroupPublic, PartialSignature, Share, recover_verified},
};
use commonware_codec::EncodeSize;
use hkdf::Hkdf;
use sha2::Sha256;

/// HKDF salt of [`derive`].
pub const BEACON_HKDF_SALT: &[u8] = b"cowboy-v1/beacon-hkdf";
/// Largest HKDF-SHA256 output (`255 * 32`).
pub const MAX_DERIVE_LENGTH: usize = 255 * 32;
/// Label prefix of runner selection (spec 01 §5.3, DESIGN.md).
pub const RUNNER_SELECT_LABEL: &[u8] = b"cowboy-runner-select-v3:";

/// The bytes signed for the seed of `round`: the round's canonical encoding.
pub fn seed_message(round: &Round) -> Vec<u8> {
    round_bytes(round)
}

/// A verified-or-to-verify beacon value: the round and the group signature
/// over its seed message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The absolute round this seed belongs to.
    pub round: Round,
    /// Threshold signature over [`seed_message`]`(round)`.
    pub signature: Signature,
}

impl Seed {
    /// Verifies the seed against the epoch's group public key on `chain_id`.
    pub fn verify(&self, chain_id: u64, group_key: &PublicKey) -> Result<()> {
        group_key.verify_in(
            Domain::Seed,
            chain_id,
            &seed_message(&self.round),
            &self.signature,
        )
    }

    /// Canonical bytes: `Round ‖ 96-byte signature`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.round.encode_size() + SIGNATURE_LENGTH);
        out.extend_from_slice(&round_bytes(&self.round));
        out.extend_from_slice(self.signature.as_bytes());
        out
    }

    /// Strict decode of [`Seed::to_bytes`] (the signature point is
    /// group-checked; the seed is not verified).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < SIGNATURE_LENGTH + 2 {
            return Err(Error::Malformed {
                what: "Seed",
                reason: format!("{} bytes is too short", bytes.len()),
            });
        }
        let (round, sig) = bytes.split_at(bytes.len() - SIGNATURE_LENGTH);
        check_len("seed signature", sig, SIGNATURE_LENGTH)?;
        Ok(Self {
            round: decode_round(round)?,
            signature: Signature::from_bytes(sig)?,
        })
    }

    /// `HKDF(R, label)` of this seed (see [`derive`]).
    pub fn derive(&self, label: &[u8], out_len: usize) -> Result<Vec<u8>> {
        derive(&self.signature, label, out_len)
    }
}

/// A validator's share of the seed of `round` (its partial signature).
pub fn sign_seed_partial(share: &Share, chain_id: u64, round: &Round) -> PartialSignature {
    share.sign(&Domain::Seed.namespace(chain_id), &seed_message(round))
}

/// Verifies one validator's seed partial.
pub fn verify_seed_partial(
    group: &GroupPublic,
    chain_id: u64,
    round: &Round,
    partial: &PartialSignature,
) -> Result<()> {
    crate::threshold::verify_partial(
        group,
        &Domain::Seed.namespace(chain_id),
        &seed_message(round),
        partial,
    )
}

/// Recovers and verifies the seed of `round` from at least `t` partials
/// (invalid partials are identified and skipped when enough valid ones remain).
pub fn recover_seed(
    group: &GroupPublic,
    chain_id: u64,
    round: &Round,
    partials: &[PartialSignature],
) -> Result<Seed> {
    let signature = recover_verified(
        group,
        &Domain::Seed.namespace(chain_id),
        &seed_message(round),
        partials,
    )?;
    Ok(Seed {
        round: *round,
        signature,
    })
}

/// The round whose seed is the execution-readable (parent) beacon of a block
/// proposed in `block_round`: the absolute round immediately before it (see
/// [`parent_round`]; at an epoch's first view pass the previous epoch's last
/// view).
pub fn parent_seed_round(
    block_round: &Round,
    last_view_of_previous_epoch: Option<u64>,
) -> Result<Round> {
    parent_round(block_round, last_view_of_previous_epoch)
}

/// Checks that `parent_seed` is the parent beacon of a block proposed in
/// `block_round` and that it verifies against `group_key` (the group key of
/// the parent round's epoch).
pub fn verify_parent_seed(
    chain_id: u64,
    block_round: &Round,
    last_view_of_previous_epoch: Option<u64>,
    parent_seed: &Seed,
    group_key: &PublicKey,
) -> Result<()> {
    let expected = parent_seed_round(block_round, last_view_of_previous_epoch)?;
    if parent_seed.round != expected {
        return Err(Error::WrongSeedRound {
            epoch: expected.epoch,
            view: expected.view,
            got_epoch: parent_seed.round.epoch,
            got_view: parent_seed.round.view,
        });
    }
    parent_seed.verify(chain_id, group_key)
}

/// `HKDF(R, label)`: HKDF-SHA256 (RFC 5869) with salt [`BEACON_HKDF_SALT`],
/// input key material `R` = the seed signature's 96 compressed bytes,
/// `info = label` and `out_len` bytes of output (1..=8160).
pub fn derive(seed_signature: &Signature, label: &[u8], out_len: usize) -> Result<Vec<u8>> {
    if out_len == 0 || out_len > MAX_DERIVE_LENGTH {
        return Err(Error::InvalidOutputLength(out_len));
    }
    let hk = Hkdf::<Sha256>::new(Some(BEACON_HKDF_SALT), seed_signature.as_bytes());
    let mut out = vec![0u8; out_len];
    hk.expand(label, &mut out)
        .map_err(|_| Error::InvalidOutputLength(out_len))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threshold::deal;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    const fn r(epoch: u64, view: u64) -> Round {
        Round { epoch, view }
    }

    #[test]
    fn seed_message_known_answers() {
        assert_eq!(seed_message(&r(0, 1)), [0x00, 0x01]);
        assert_eq!(seed_message(&r(1, 300)), [0x01, 0xac, 0x02]);
    }

    #[test]
    fn seed_lifecycle() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let (group, shares) = deal(&mut rng, 4).unwrap();
        let round = r(0, 7);
        let partials: Vec<_> = shares
            .iter()
            .map(|s| sign_seed_partial(s, 9, &round))
            .collect();
        for p in &partials {
            verify_seed_partial(&group, 9, &round, p).unwrap();
        }
        let seed = recover_seed(&group, 9, &round, &partials[1..]).unwrap();
        seed.verify(9, &group.public_key()).unwrap();
        // exactly one seed per round: every quorum gives the same bytes
        let other = recover_seed(&group, 9, &round, &partials[..3]).unwrap();
        assert_eq!(seed, other);
        // bound to round and chain
        let moved = Seed {
            round: r(0, 8),
            signature: seed.signature.clone(),
        };
        assert_eq!(
            moved.verify(9, &group.public_key()),
            Err(Error::VerificationFailed)
        );
        assert!(seed.verify(10, &group.public_key()).is_err());
        // codec
        assert_eq!(Seed::from_bytes(&seed.to_bytes()).unwrap(), seed);
        assert!(Seed::from_bytes(&seed.to_bytes()[1..]).is_err());
        // parent beacon of a block in round (0, 8) is this seed
        verify_parent_seed(9, &r(0, 8), None, &seed, &group.public_key()).unwrap();
        assert!(matches!(
            verify_parent_seed(9, &r(0, 7), None, &seed, &group.public_key()),
            Err(Error::WrongSeedRound { .. })
        ));
    }

    #[test]
    fn hkdf_rules() {
        let sk = crate::PrivateKey::from_ikm(&[5; 32]).unwrap();
        let sig = sk.sign(b"x", b"y");
        let a = derive(&sig, b"label-a", 32).unwrap();
        let b = derive(&sig, b"label-b", 32).unwrap();
        assert_ne!(a, b);
        assert_eq!(a, derive(&sig, b"label-a", 32).unwrap());
        // prefix property of HKDF-Expand
        assert_eq!(&derive(&sig, b"label-a", 64).unwrap()[..32], &a[..]);
        assert_eq!(derive(&sig, b"l", 0), Err(Error::InvalidOutputLength(0)));
        assert_eq!(
            derive(&sig, b"l", 8161),
            Err(Error::InvalidOutputLength(8161))
        );
        assert_eq!(derive(&sig, b"l", 8160).unwrap().len(), 8160);
    }
}
