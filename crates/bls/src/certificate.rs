//! Aggregation and quorum certificates (spec 01 §6.1): an aggregate signature
//! over ONE message plus a signer bitmap, verified against a validator set.
//!
//! Signer bitmap layout: validator `i` (its position in the [`ValidatorSet`])
//! is bit `i % 8` (least significant bit first) of byte `i / 8`. The bitmap has
//! exactly `ceil(n / 8)` bytes and every bit at or beyond `n` is zero.
//!
//! Quorum: `n - f` with `f = (n - 1) / 3` (commonware's `N3f1`), i.e. `2f + 1`
//! when `n = 3f + 1`.
//!
//! Rogue-key safety: every key of a [`ValidatorSet`] must have had its proof of
//! possession verified (at registration; [`ValidatorSet::from_registrations`]
//! does it) and keys are unique — both are invariants of the type.

use crate::{
    domain::{Domain, nullify_message, vote_message},
    error::{Error, Result},
    keys::{PublicKey, Signature},
};
use commonware_cryptography::bls12381::primitives::{
    group::{G1, G2},
    variant::MinPk,
};
use commonware_math::algebra::Additive;
use cowboy_codec::{Certificate, CertificateKind};
use std::collections::BTreeSet;

/// Maximum faults tolerated by `n` validators: `(n - 1) / 3` (0 for `n = 0`).
pub const fn max_faults(n: usize) -> usize {
    n.saturating_sub(1) / 3
}

/// Quorum of `n` validators: `n - max_faults(n)`.
pub const fn quorum(n: usize) -> usize {
    n - max_faults(n)
}

/// Sums signatures (any messages). The inputs are valid points, so the sum
/// is a valid aggregate; it is the identity only if the inputs cancel, which
/// [`Error::VerificationFailed`] will report at verification.
pub fn aggregate_signatures<'a>(signatures: impl IntoIterator<Item = &'a Signature>) -> Result<G2> {
    let mut sum = G2::zero();
    let mut any = false;
    for s in signatures {
        sum += s.point();
        any = true;
    }
    if !any {
        return Err(Error::Empty("aggregate signatures"));
    }
    Ok(sum)
}

/// Sums public keys. Only keys with verified proofs of possession may be
/// aggregated for verification.
pub fn aggregate_public_keys<'a>(keys: impl IntoIterator<Item = &'a PublicKey>) -> Result<G1> {
    let mut sum = G1::zero();
    let mut any = false;
    for k in keys {
        sum += k.point();
        any = true;
    }
    if !any {
        return Err(Error::Empty("aggregate public keys"));
    }
    Ok(sum)
}

/// [`aggregate_signatures`] as a [`Signature`]; an aggregate that is the point
/// at infinity (inputs that cancel) is rejected.
pub fn aggregate<'a>(signatures: impl IntoIterator<Item = &'a Signature>) -> Result<Signature> {
    let p = aggregate_signatures(signatures)?;
    if Signature::is_identity(&p) {
        return Err(Error::InvalidSignatureEncoding(
            "aggregate is the point at infinity".into(),
        ));
    }
    Ok(Signature::from_point(p))
}

/// [`aggregate_public_keys`] as a [`PublicKey`]; an aggregate that is the
/// point at infinity is rejected.
pub fn aggregate_keys<'a>(keys: impl IntoIterator<Item = &'a PublicKey>) -> Result<PublicKey> {
    let p = aggregate_public_keys(keys)?;
    if p == G1::zero() {
        return Err(Error::InvalidPublicKey(
            "aggregate is the point at infinity".into(),
        ));
    }
    Ok(PublicKey::from_point(p))
}

/// Verifies an aggregate signature over one message by the given keys (each
/// with a verified proof of possession, no duplicates).
pub fn verify_aggregate_same_message<'a>(
    keys: impl IntoIterator<Item = &'a PublicKey>,
    namespace: &[u8],
    message: &[u8],
    aggregate_signature: &Signature,
) -> Result<()> {
    let pk = aggregate_public_keys(keys)?;
    verify_with_aggregate_key(&pk, namespace, message, aggregate_signature.point())
}

fn verify_with_aggregate_key(pk: &G1, namespace: &[u8], message: &[u8], sig: &G2) -> Result<()> {
    commonware_cryptography::bls12381::primitives::ops::verify_message::<MinPk>(
        pk, namespace, message, sig,
    )
    .map_err(|_| Error::VerificationFailed)
}

/// A signer bitmap over a validator set of `validators` members. Invariant:
/// `ceil(validators / 8)` bytes, no bit set at or beyond `validators`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SignerBitmap {
    validators: usize,
    bytes: Vec<u8>,
}

impl SignerBitmap {
    /// Validates raw bitmap bytes for a set of `validators`.
    pub fn from_bytes(validators: usize, bytes: &[u8]) -> Result<Self> {
        let expected = validators.div_ceil(8);
        if bytes.len() != expected {
            return Err(Error::BitmapLength {
                validators,
                expected,
                got: bytes.len(),
            });
        }
        if !validators.is_multiple_of(8) {
            let last = bytes[expected - 1];
            let used = validators % 8;
            let padding = last >> used;
            if padding != 0 {
                return Err(Error::BitmapPadding {
                    bit: (expected - 1) * 8 + used + padding.trailing_zeros() as usize,
                    validators,
                });
            }
        }
        Ok(Self {
            validators,
            bytes: bytes.to_vec(),
        })
    }

    /// Builds a bitmap from signer indices (each `< validators`, no duplicates).
    pub fn from_indices(validators: usize, indices: &[u32]) -> Result<Self> {
        let mut bytes = vec![0u8; validators.div_ceil(8)];
        for &i in indices {
            let idx = i as usize;
            if idx >= validators {
                return Err(Error::SignerOutOfRange {
                    index: i,
                    validators,
                });
            }
            let (byte, bit) = (idx / 8, idx % 8);
            if bytes[byte] & (1 << bit) != 0 {
                return Err(Error::DuplicateSigner(i));
            }
            bytes[byte] |= 1 << bit;
        }
        Ok(Self { validators, bytes })
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Size of the validator set this bitmap is for.
    pub const fn validators(&self) -> usize {
        self.validators
    }

    /// Whether validator `i` signed.
    pub fn contains(&self, i: usize) -> bool {
        i < self.validators && self.bytes[i / 8] & (1 << (i % 8)) != 0
    }

    /// Number of signers.
    pub fn count(&self) -> usize {
        self.bytes.iter().map(|b| b.count_ones() as usize).sum()
    }

    /// Signer indices in ascending order.
    pub fn signers(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.validators).filter(|&i| self.contains(i))
    }
}

/// The validator set of an epoch, in index order. Invariants: non-empty, no
/// duplicate keys, every key's proof of possession verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidatorSet {
    keys: Vec<PublicKey>,
}

impl ValidatorSet {
    /// A set of keys whose proofs of possession the caller has already
    /// verified (for example read back from the registry, which verified them
    /// at registration). Rejects an empty list and duplicate keys.
    pub fn new(keys: Vec<PublicKey>) -> Result<Self> {
        if keys.is_empty() {
            return Err(Error::Empty("validator set"));
        }
        let mut seen = BTreeSet::new();
        for (index, k) in keys.iter().enumerate() {
            if !seen.insert(k.as_bytes()) {
                return Err(Error::DuplicatePublicKey { index });
            }
        }
        Ok(Self { keys })
    }

    /// A set built from `(key, proof of possession)` registrations on chain
    /// `chain_id`; every proof is verified.
    pub fn from_registrations(
        chain_id: u64,
        registrations: &[(PublicKey, Signature)],
    ) -> Result<Self> {
        for (index, (k, pop)) in registrations.iter().enumerate() {
            k.verify_proof_of_possession(chain_id, pop)
                .map_err(|_| Error::InvalidProofOfPossession { index })?;
        }
        Self::new(registrations.iter().map(|(k, _)| k.clone()).collect())
    }

    /// Number of validators.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Always false (sets are non-empty); present for API completeness.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Keys in index order.
    pub fn keys(&self) -> &[PublicKey] {
        &self.keys
    }

    /// The quorum (`n - (n - 1) / 3`).
    pub fn quorum(&self) -> usize {
        quorum(self.keys.len())
    }

    /// Assembles a certificate from verified votes `(validator index,
    /// signature)` over the same message: the signer bitmap and the aggregate
    /// signature. Checks indices and the quorum, not the votes themselves
    /// (batch-verify them first).
    pub fn assemble(&self, votes: &[(u32, Signature)]) -> Result<(SignerBitmap, Signature)> {
        let indices: Vec<u32> = votes.iter().map(|(i, _)| *i).collect();
        let bitmap = SignerBitmap::from_indices(self.len(), &indices)?;
        if bitmap.count() < self.quorum() {
            return Err(Error::InsufficientSigners {
                signers: bitmap.count(),
                quorum: self.quorum(),
            });
        }
        let agg = aggregate_signatures(votes.iter().map(|(_, s)| s))?;
        if Signature::is_identity(&agg) {
            return Err(Error::VerificationFailed);
        }
        Ok((bitmap, Signature::from_point(agg)))
    }

    /// Verifies a quorum certificate: the bitmap is well formed for this set,
    /// names at least a quorum of signers, and `aggregate_signature` verifies
    /// for the sum of their keys over `message` under `namespace`.
    pub fn verify_certificate(
        &self,
        namespace: &[u8],
        message: &[u8],
        bitmap: &[u8],
        aggregate_signature: &Signature,
    ) -> Result<()> {
        let bitmap = SignerBitmap::from_bytes(self.len(), bitmap)?;
        let signers = bitmap.count();
        if signers < self.quorum() {
            return Err(Error::InsufficientSigners {
                signers,
                quorum: self.quorum(),
            });
        }
        let pk = aggregate_public_keys(bitmap.signers().map(|i| &self.keys[i]))?;
        verify_with_aggregate_key(&pk, namespace, message, aggregate_signature.point())
    }
}

impl ValidatorSet {
    /// The namespace and message a codec [`Certificate`] (docs/codec.md §5)
    /// signs on chain `chain_id`: notarize / finalize sign
    /// [`vote_message`]`(block_hash, height, round)`, nullify signs
    /// [`nullify_message`]`(round)` (its block hash and height are not signed).
    pub fn certificate_message(chain_id: u64, cert: &Certificate) -> (Vec<u8>, Vec<u8>) {
        match cert.kind {
            CertificateKind::Notarize => (
                Domain::Notarize.namespace(chain_id),
                vote_message(&cert.block_hash, cert.height, cert.round),
            ),
            CertificateKind::Finalize => (
                Domain::Finalize.namespace(chain_id),
                vote_message(&cert.block_hash, cert.height, cert.round),
            ),
            CertificateKind::Nullify => (
                Domain::Nullify.namespace(chain_id),
                nullify_message(cert.round),
            ),
        }
    }

    /// Verifies a codec [`Certificate`] (the QC carried in blocks and on the
    /// wire) against this set: signature encoding, bitmap, quorum and the
    /// aggregate over [`Self::certificate_message`].
    pub fn verify_codec_certificate(&self, chain_id: u64, cert: &Certificate) -> Result<()> {
        let signature = Signature::from_bytes(&cert.aggregated_signature)?;
        let (ns, msg) = Self::certificate_message(chain_id, cert);
        self.verify_certificate(&ns, &msg, &cert.signer_bitmap, &signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{domain::Domain, keys::PrivateKey};

    fn keys(n: usize) -> Vec<PrivateKey> {
        (0..n)
            .map(|i| {
                let mut ikm = [0u8; 32];
                ikm[..8].copy_from_slice(&(i as u64).to_be_bytes());
                PrivateKey::from_ikm(&ikm).unwrap()
            })
            .collect()
    }

    #[test]
    fn quorum_sizes() {
        assert_eq!(quorum(1), 1);
        assert_eq!(quorum(4), 3);
        assert_eq!(quorum(10), 7);
        assert_eq!(quorum(50), 34);
        assert_eq!(quorum(100), 67);
    }

    #[test]
    fn bitmap_rules() {
        let b = SignerBitmap::from_indices(10, &[0, 3, 9]).unwrap();
        assert_eq!(b.as_bytes(), &[0b0000_1001, 0b0000_0010]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.signers().collect::<Vec<_>>(), vec![0, 3, 9]);
        assert_eq!(SignerBitmap::from_bytes(10, b.as_bytes()).unwrap(), b);
        assert!(matches!(
            SignerBitmap::from_bytes(10, &[0xff]),
            Err(Error::BitmapLength { .. })
        ));
        assert_eq!(
            SignerBitmap::from_bytes(10, &[0, 0b0000_0100]),
            Err(Error::BitmapPadding {
                bit: 10,
                validators: 10
            })
        );
        assert_eq!(
            SignerBitmap::from_indices(10, &[10]),
            Err(Error::SignerOutOfRange {
                index: 10,
                validators: 10
            })
        );
        assert_eq!(
            SignerBitmap::from_indices(10, &[2, 2]),
            Err(Error::DuplicateSigner(2))
        );
        assert_eq!(
            SignerBitmap::from_indices(16, &[15]).unwrap().as_bytes(),
            &[0, 0x80]
        );
    }

    #[test]
    fn certificate_round_trip() {
        let sks = keys(10);
        let set = ValidatorSet::from_registrations(
            5,
            &sks.iter()
                .map(|k| (k.public_key(), k.proof_of_possession(5)))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let ns = Domain::Finalize.namespace(5);
        let msg = b"block-hash-height-round";
        let votes: Vec<(u32, Signature)> = [1u32, 2, 4, 5, 6, 8, 9]
            .iter()
            .map(|&i| (i, sks[i as usize].sign(&ns, msg)))
            .collect();
        let (bitmap, agg) = set.assemble(&votes).unwrap();
        set.verify_certificate(&ns, msg, bitmap.as_bytes(), &agg)
            .unwrap();
        // wrong message / namespace
        assert_eq!(
            set.verify_certificate(&ns, b"other", bitmap.as_bytes(), &agg),
            Err(Error::VerificationFailed)
        );
        assert!(
            set.verify_certificate(&Domain::Notarize.namespace(5), msg, bitmap.as_bytes(), &agg)
                .is_err()
        );
        // bitmap naming a different signer set (swap 9 for 0)
        let other = SignerBitmap::from_indices(10, &[0, 1, 2, 4, 5, 6, 8]).unwrap();
        assert!(
            set.verify_certificate(&ns, msg, other.as_bytes(), &agg)
                .is_err()
        );
        // too few signers
        let (few_bitmap, few_agg) = (
            SignerBitmap::from_indices(10, &[1, 2]).unwrap(),
            Signature::from_point(aggregate_signatures(votes[..2].iter().map(|(_, s)| s)).unwrap()),
        );
        assert_eq!(
            set.verify_certificate(&ns, msg, few_bitmap.as_bytes(), &few_agg),
            Err(Error::InsufficientSigners {
                signers: 2,
                quorum: 7
            })
        );
        assert!(matches!(
            set.assemble(&votes[..3]),
            Err(Error::InsufficientSigners { .. })
        ));
        // the free function agrees
        verify_aggregate_same_message(bitmap.signers().map(|i| &set.keys()[i]), &ns, msg, &agg)
            .unwrap();
    }

    #[test]
    fn aggregate_types() {
        let sks = keys(3);
        let sigs: Vec<_> = sks.iter().map(|k| k.sign(b"n", b"m")).collect();
        let agg = aggregate(&sigs).unwrap();
        let apk =
            aggregate_keys(&sks.iter().map(PrivateKey::public_key).collect::<Vec<_>>()).unwrap();
        apk.verify(b"n", b"m", &agg).unwrap();
        assert_eq!(aggregate(&[]), Err(Error::Empty("aggregate signatures")));
        assert!(aggregate_keys(&[]).is_err());
        let neg = Signature::from_point(-*sigs[0].point());
        assert!(matches!(
            aggregate(&[sigs[0].clone(), neg]),
            Err(Error::InvalidSignatureEncoding(_))
        ));
    }

    #[test]
    fn codec_certificates() {
        let sks = keys(4);
        let set = ValidatorSet::new(sks.iter().map(PrivateKey::public_key).collect()).unwrap();
        let round = cowboy_codec::Round { epoch: 2, view: 9 };
        for kind in [
            CertificateKind::Notarize,
            CertificateKind::Nullify,
            CertificateKind::Finalize,
        ] {
            let mut cert = Certificate {
                kind,
                block_hash: [0x42; 32],
                height: 17,
                round,
                aggregated_signature: vec![],
                signer_bitmap: vec![],
            };
            let (ns, msg) = ValidatorSet::certificate_message(3, &cert);
            let votes: Vec<(u32, Signature)> = (0..3u32)
                .map(|i| (i, sks[i as usize].sign(&ns, &msg)))
                .collect();
            let (bitmap, agg) = set.assemble(&votes).unwrap();
            cert.aggregated_signature = agg.as_bytes().to_vec();
            cert.signer_bitmap = bitmap.as_bytes().to_vec();
            set.verify_codec_certificate(3, &cert).unwrap();
            assert!(set.verify_codec_certificate(4, &cert).is_err());
            cert.round.view += 1;
            assert_eq!(
                set.verify_codec_certificate(3, &cert),
                Err(Error::VerificationFailed)
            );
            cert.aggregated_signature.pop();
            assert!(matches!(
                set.verify_codec_certificate(3, &cert),
                Err(Error::InvalidLength { .. })
            ));
        }
    }

    #[test]
    fn validator_set_invariants() {
        let sks = keys(3);
        let pks: Vec<_> = sks.iter().map(PrivateKey::public_key).collect();
        assert_eq!(
            ValidatorSet::new(vec![]),
            Err(Error::Empty("validator set"))
        );
        assert_eq!(
            ValidatorSet::new(vec![pks[0].clone(), pks[1].clone(), pks[0].clone()]),
            Err(Error::DuplicatePublicKey { index: 2 })
        );
        let bad_pop = vec![
            (pks[0].clone(), sks[0].proof_of_possession(1)),
            (pks[1].clone(), sks[0].proof_of_possession(1)),
        ];
        assert_eq!(
            ValidatorSet::from_registrations(1, &bad_pop),
            Err(Error::InvalidProofOfPossession { index: 1 })
        );
    }
}
