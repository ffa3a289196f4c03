//! Threshold BLS: the group public polynomial, key shares, partial signatures,
//! partial verification, identification of bad partials and recovery.
//!
//! Parameters follow commonware's `N3f1` fault model: `n` participants tolerate
//! `f = (n - 1) / 3` faults and any `t = n - f` partials recover the group
//! signature (`n = 100` gives `t = 67`). Participants are numbered `0..n`
//! (their position in the sorted player set of the DKG / dealer); the
//! evaluation point of participant `i` is `i + 1` (commonware's
//! `Mode::NonZeroCounter`).
//!
//! A recovered threshold signature is an ordinary [`Signature`] that verifies
//! against [`GroupPublic::public_key`] with [`crate::PublicKey::verify`].

use crate::{
    certificate::quorum,
    error::{Error, Result, check_len},
    keys::{PublicKey, SIGNATURE_LENGTH, Signature},
};
use commonware_codec::{Copying, Decode, DecodeExt, Encode, EncodeSize, Write, varint::UInt};
use commonware_cryptography::bls12381::{
    dkg::feldman_desmedt,
    primitives::{
        group::{self, G2},
        ops::threshold,
        sharing::{Mode, ModeVersion, Sharing},
        variant::{MinPk, PartialSignature as CwPartial},
    },
};
use commonware_parallel::Sequential;
use commonware_utils::{N3f1, Participant, iter::NonEmpty};
use core::num::NonZeroU32;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, SeedableRng};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Largest participant count accepted when decoding a [`GroupPublic`].
pub const MAX_PARTICIPANTS: u32 = 10_000;

/// Domain tag of the weight derivation used by [`find_invalid_partials`].
pub const PARTIAL_BATCH_DST: &[u8] = b"cowboy-v1/partial-batch-weights";

/// The threshold `t` for `n` participants (`n - (n - 1) / 3`).
pub const fn threshold_for(n: u32) -> u32 {
    quorum(n as usize) as u32
}

/// The public output of a sharing: the commitment to the secret polynomial.
/// Its constant term is the group public key; it also yields every
/// participant's partial public key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupPublic(pub(crate) Sharing<MinPk>);

impl GroupPublic {
    /// The group public key (48 bytes), against which threshold signatures and
    /// seeds verify.
    pub fn public_key(&self) -> PublicKey {
        PublicKey::from_point(*self.0.public())
    }

    /// Partials needed to recover (`t`).
    pub fn threshold(&self) -> u32 {
        self.0.required()
    }

    /// Number of participants (`n`).
    pub fn total(&self) -> u32 {
        self.0.total().get()
    }

    /// The public key of participant `index`'s share.
    pub fn partial_public_key(&self, index: u32) -> Result<PublicKey> {
        self.0
            .partial_public(Participant::new(index))
            .map(PublicKey::from_point)
            .map_err(|_| Error::PartialIndexOutOfRange {
                index,
                total: self.total(),
            })
    }

    /// Precomputes every partial public key (worth it before verifying many
    /// partials; idempotent).
    pub fn precompute(&self) {
        self.0.precompute_partial_publics();
    }

    /// Canonical bytes (commonware `Sharing` encoding: mode ‖ total ‖
    /// polynomial commitment).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.encode().to_vec()
    }

    /// Strict decode; at most [`MAX_PARTICIPANTS`] participants; every
    /// commitment point is group-checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let cfg = (
            NonZeroU32::new(MAX_PARTICIPANTS).expect("non-zero constant"),
            ModeVersion::v0(),
        );
        Sharing::<MinPk>::decode_cfg(Copying(bytes), &cfg)
            .map(Self)
            .map_err(|e| Error::Malformed {
                what: "GroupPublic",
                reason: e.to_string(),
            })
    }
}

/// A participant's secret share: its index and secret scalar.
#[derive(Clone, PartialEq, Eq)]
pub struct Share(pub(crate) group::Share);

impl core::fmt::Debug for Share {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Share(index={}, <redacted>)", self.index())
    }
}

impl Share {
    /// The participant index.
    pub fn index(&self) -> u32 {
        self.0.index.get()
    }

    /// The public key of the share (equals
    /// `group.partial_public_key(self.index())` for a consistent sharing).
    pub fn public_key(&self) -> PublicKey {
        PublicKey::from_point(self.0.public::<MinPk>())
    }

    /// Canonical bytes: `varint index ‖ 32-byte scalar`. Secret: handle with care.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.encode().to_vec()
    }

    /// Strict decode (non-zero scalar below the group order, no trailing bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        group::Share::decode(Copying(bytes))
            .map(Self)
            .map_err(|e| Error::Malformed {
                what: "Share",
                reason: e.to_string(),
            })
    }

    /// Signs `message` under `namespace` with this share.
    pub fn sign(&self, namespace: &[u8], message: &[u8]) -> PartialSignature {
        let p = threshold::sign_message::<MinPk>(&self.0, namespace, message);
        PartialSignature {
            index: p.index.get(),
            signature: Signature::from_point(p.value),
        }
    }
}

/// A partial signature: the signer's participant index and its signature
/// under its share.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartialSignature {
    /// Participant index of the signer.
    pub index: u32,
    /// Signature by the share (a valid G2 point).
    pub signature: Signature,
}

impl PartialSignature {
    /// Canonical bytes: `varint index ‖ 96-byte signature`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(UInt(self.index).encode_size() + SIGNATURE_LENGTH);
        UInt(self.index).write(&mut out);
        out.extend_from_slice(self.signature.as_bytes());
        out
    }

    /// Strict decode of [`PartialSignature::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut buf = Copying(bytes);
        let index: u32 = commonware_codec::Read::read_cfg(&mut buf, &())
            .map(|u: UInt<u32>| u.into())
            .map_err(|e| Error::Malformed {
                what: "PartialSignature",
                reason: e.to_string(),
            })?;
        let rest = buf.0;
        check_len("partial signature value", rest, SIGNATURE_LENGTH)?;
        Ok(Self {
            index,
            signature: Signature::from_bytes(rest)?,
        })
    }

    fn to_commonware(&self) -> CwPartial<MinPk> {
        CwPartial {
            index: Participant::new(self.index),
            value: *self.signature.point(),
        }
    }
}

/// A trusted dealer (genesis of devnets and test networks): samples a random
/// secret polynomial of degree `t - 1` for `n` participants and returns the
/// public commitment and the `n` shares (share `i` has index `i`). Real
/// networks use [`crate::dkg`] instead, so no single party knows the secret.
pub fn deal(rng: &mut impl CryptoRng, n: u32) -> Result<(GroupPublic, Vec<Share>)> {
    let n = NonZeroU32::new(n).ok_or_else(|| Error::InvalidThreshold("n must be >= 1".into()))?;
    if n.get() > MAX_PARTICIPANTS {
        return Err(Error::InvalidThreshold(format!(
            "n must be <= {MAX_PARTICIPANTS}"
        )));
    }
    let (sharing, shares) =
        feldman_desmedt::deal_anonymous::<MinPk, N3f1>(rng, Mode::NonZeroCounter, n);
    Ok((
        GroupPublic(sharing),
        shares.into_iter().map(Share).collect(),
    ))
}

/// Domain tag of [`deal_from_seed`].
pub const DEAL_SEED_DST: &[u8] = b"cowboy-v1/threshold-deal";

/// [`deal`] with the randomness derived from a secret `seed` of at least 32
/// bytes (ChaCha20 keyed by `SHA-256(DEAL_SEED_DST ‖ seed)`): a reproducible
/// devnet genesis. Anyone holding `seed` holds every share.
pub fn deal_from_seed(seed: &[u8], n: u32) -> Result<(GroupPublic, Vec<Share>)> {
    if seed.len() < 32 {
        return Err(Error::InvalidLength {
            what: "seed",
            expected: 32,
            got: seed.len(),
        });
    }
    let mut h = Sha256::new();
    h.update(DEAL_SEED_DST);
    h.update(seed);
    let mut rng = ChaCha20Rng::from_seed(h.finalize().into());
    deal(&mut rng, n)
}

/// Verifies one partial signature against its participant's partial public key.
pub fn verify_partial(
    group: &GroupPublic,
    namespace: &[u8],
    message: &[u8],
    partial: &PartialSignature,
) -> Result<()> {
    let pk = group.partial_public_key(partial.index)?;
    pk.verify(namespace, message, &partial.signature)
}

/// Checks many partials over one message at once and returns the positions
/// (in `partials`, ascending) of the invalid ones — bad signatures and indices
/// outside the sharing. Empty result: all valid. Deterministic (weights are
/// derived from the inputs, see [`crate::batch`]).
pub fn find_invalid_partials(
    group: &GroupPublic,
    namespace: &[u8],
    message: &[u8],
    partials: &[PartialSignature],
) -> Vec<usize> {
    let mut transcript = Sha256::new();
    transcript.update(PARTIAL_BATCH_DST);
    transcript.update(group.public_key().as_bytes());
    transcript.update((namespace.len() as u64).to_be_bytes());
    transcript.update(namespace);
    transcript.update((message.len() as u64).to_be_bytes());
    transcript.update(message);
    for p in partials {
        transcript.update(p.to_bytes());
    }
    let seed: [u8; 32] = transcript.finalize().into();
    let mut rng = ChaCha20Rng::from_seed(seed);
    let cw: Vec<CwPartial<MinPk>> = partials
        .iter()
        .map(PartialSignature::to_commonware)
        .collect();
    let Some(entries) = NonEmpty::try_new(cw.iter()) else {
        return Vec::new();
    };
    match threshold::batch_verify_same_message::<_, MinPk, _>(
        &mut rng,
        &group.0,
        namespace,
        message,
        entries,
        &Sequential,
    ) {
        Ok(()) => Vec::new(),
        Err(bad) => {
            // Map the returned references back to positions.
            let mut out: Vec<usize> = bad
                .into_iter()
                .filter_map(|b| cw.iter().position(|c| core::ptr::eq(c, b)))
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        }
    }
}

/// Recovers the threshold signature from at least `t` partials with distinct
/// indices (identical duplicates are ignored; conflicting duplicates are an
/// error). Uses the `t` lowest indices. Does NOT verify the partials or the
/// result: verify the result against [`GroupPublic::public_key`] (or call
/// [`recover_verified`]).
pub fn recover(group: &GroupPublic, partials: &[PartialSignature]) -> Result<Signature> {
    let mut by_index: BTreeMap<u32, &PartialSignature> = BTreeMap::new();
    for p in partials {
        if p.index >= group.total() {
            return Err(Error::PartialIndexOutOfRange {
                index: p.index,
                total: group.total(),
            });
        }
        match by_index.get(&p.index) {
            Some(prev) if prev.signature != p.signature => {
                return Err(Error::DuplicateSigner(p.index));
            }
            Some(_) => {}
            None => {
                by_index.insert(p.index, p);
            }
        }
    }
    let need = group.threshold() as usize;
    if by_index.len() < need {
        return Err(Error::NotEnoughPartials {
            have: by_index.len(),
            need,
        });
    }
    let cw: Vec<CwPartial<MinPk>> = by_index
        .values()
        .take(need)
        .map(|p| p.to_commonware())
        .collect();
    let sig: G2 = threshold::recover::<MinPk, _>(&group.0, cw.iter(), &Sequential)
        .map_err(|_| Error::RecoveryFailed)?;
    if Signature::is_identity(&sig) {
        return Err(Error::RecoveryFailed);
    }
    Ok(Signature::from_point(sig))
}

/// [`recover`], then verify the result against the group key. If it does not
/// verify, the invalid partials are identified ([`find_invalid_partials`]),
/// dropped, and recovery is retried with the valid ones: the result is then
/// either a verified signature, [`Error::NotEnoughPartials`] (fewer than `t`
/// valid partials) or [`Error::VerificationFailed`].
pub fn recover_verified(
    group: &GroupPublic,
    namespace: &[u8],
    message: &[u8],
    partials: &[PartialSignature],
) -> Result<Signature> {
    match recover(group, partials) {
        Ok(sig) if group.public_key().verify(namespace, message, &sig).is_ok() => return Ok(sig),
        // A bad signature, an index outside the sharing or a conflicting
        // duplicate: identify the invalid partials below.
        Ok(_)
        | Err(Error::PartialIndexOutOfRange { .. })
        | Err(Error::DuplicateSigner(_))
        | Err(Error::RecoveryFailed) => {}
        Err(e) => return Err(e),
    }
    let bad = find_invalid_partials(group, namespace, message, partials);
    let good: Vec<PartialSignature> = partials
        .iter()
        .enumerate()
        .filter(|(i, _)| bad.binary_search(i).is_err())
        .map(|(_, p)| p.clone())
        .collect();
    let sig = recover(group, &good)?;
    group
        .public_key()
        .verify(namespace, message, &sig)
        .map(|()| sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(seed: u64) -> ChaCha20Rng {
        ChaCha20Rng::seed_from_u64(seed)
    }

    #[test]
    fn threshold_sizes() {
        assert_eq!(threshold_for(4), 3);
        assert_eq!(threshold_for(100), 67);
    }

    #[test]
    fn deal_and_recover() {
        let (group, shares) = deal(&mut rng(1), 7).unwrap();
        assert_eq!(group.total(), 7);
        assert_eq!(group.threshold(), 5);
        for (i, s) in shares.iter().enumerate() {
            assert_eq!(s.index() as usize, i);
            assert_eq!(group.partial_public_key(s.index()).unwrap(), s.public_key());
        }
        let partials: Vec<_> = shares.iter().map(|s| s.sign(b"ns", b"msg")).collect();
        for p in &partials {
            verify_partial(&group, b"ns", b"msg", p).unwrap();
        }
        let sig = recover(&group, &partials).unwrap();
        group.public_key().verify(b"ns", b"msg", &sig).unwrap();
        assert_eq!(
            recover(&group, &partials[..4]),
            Err(Error::NotEnoughPartials { have: 4, need: 5 })
        );
    }

    #[test]
    fn codecs_round_trip() {
        let (group, shares) = deal(&mut rng(2), 4).unwrap();
        assert_eq!(GroupPublic::from_bytes(&group.to_bytes()).unwrap(), group);
        let s = &shares[3];
        assert_eq!(&Share::from_bytes(&s.to_bytes()).unwrap(), s);
        let p = s.sign(b"a", b"b");
        assert_eq!(PartialSignature::from_bytes(&p.to_bytes()).unwrap(), p);
        assert!(PartialSignature::from_bytes(&p.to_bytes()[..50]).is_err());
        assert!(GroupPublic::from_bytes(&group.to_bytes()[1..]).is_err());
        assert!(Share::from_bytes(&[]).is_err());
    }

    #[test]
    fn seeded_deal_is_reproducible() {
        let (g1, s1) = deal_from_seed(&[9; 32], 4).unwrap();
        let (g2, s2) = deal_from_seed(&[9; 32], 4).unwrap();
        assert_eq!((g1.clone(), s1), (g2, s2));
        assert_ne!(deal_from_seed(&[8; 32], 4).unwrap().0, g1);
        assert!(matches!(
            deal_from_seed(&[9; 31], 4),
            Err(Error::InvalidLength { .. })
        ));
    }

    #[test]
    fn deal_rejects_zero() {
        assert!(matches!(
            deal(&mut rng(3), 0),
            Err(Error::InvalidThreshold(_))
        ));
    }
}
