//! Keys and signatures (variant MinPk: 48-byte G1 public keys, 96-byte G2
//! signatures), signing, verification and proofs of possession.
//!
//! Invariants: a [`PublicKey`] or [`Signature`] value always holds a point that
//! is on the curve, in the prime-order subgroup and not the point at infinity
//! (decoding checks all three). A [`PrivateKey`] is never zero and always below
//! the group order.

use crate::{
    domain::Domain,
    error::{Error, Result, check_len},
};
use commonware_codec::{Copying, DecodeExt, Encode};
use commonware_cryptography::bls12381::{
    self as cbls,
    primitives::{
        group::{G1, G2, Private, Scalar},
        ops,
        variant::{MinPk, Variant},
    },
};
use commonware_math::algebra::{Additive, Random};
use rand_core::CryptoRng;

/// Bytes of a private key (big-endian scalar).
pub const PRIVATE_KEY_LENGTH: usize = 32;
/// Bytes of a compressed G1 public key.
pub const PUBLIC_KEY_LENGTH: usize = 48;
/// Bytes of a compressed G2 signature.
pub const SIGNATURE_LENGTH: usize = 96;
/// Minimum input key material for [`PrivateKey::from_ikm`].
pub const MIN_IKM_LENGTH: usize = 32;
/// Hash-to-field domain tag of [`PrivateKey::from_ikm`].
pub const KEYGEN_DST: &[u8] = b"COWBOY-V1-BLS-KEYGEN";

fn point_reason(e: commonware_codec::Error) -> String {
    match e {
        commonware_codec::Error::Invalid(_, reason) => reason.to_string(),
        commonware_codec::Error::Wrapped(_, inner) => inner.to_string(),
        other => other.to_string(),
    }
}

/// A validator's BLS secret key. Never zero, always below the group order.
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateKey(Private);

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PrivateKey(<redacted>)")
    }
}

impl PrivateKey {
    /// A fresh key from a cryptographic RNG.
    pub fn generate(rng: &mut impl CryptoRng) -> Self {
        Self(Private::random(rng))
    }

    /// A key derived deterministically from at least 32 bytes of input key
    /// material: `hash_to_field(KEYGEN_DST, ikm)` (RFC 9380 expand_message_xmd
    /// with SHA-256, 48 bytes reduced mod r).
    pub fn from_ikm(ikm: &[u8]) -> Result<Self> {
        if ikm.len() < MIN_IKM_LENGTH {
            return Err(Error::InvalidLength {
                what: "ikm",
                expected: MIN_IKM_LENGTH,
                got: ikm.len(),
            });
        }
        let scalar = Scalar::map(KEYGEN_DST, ikm);
        if scalar == Scalar::zero() {
            return Err(Error::InvalidPrivateKey("derived scalar is zero"));
        }
        Ok(Self(Private::new(scalar)))
    }

    /// Decodes a 32-byte big-endian scalar; rejects zero and values `>= r`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        check_len("private key", bytes, PRIVATE_KEY_LENGTH)?;
        Private::decode(Copying(bytes))
            .map(Self)
            .map_err(|_| Error::InvalidPrivateKey("zero or not below the group order"))
    }

    /// The 32-byte big-endian scalar. Handle with care.
    pub fn to_bytes(&self) -> [u8; PRIVATE_KEY_LENGTH] {
        let mut out = [0u8; PRIVATE_KEY_LENGTH];
        out.copy_from_slice(&self.0.encode());
        out
    }

    /// The matching public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(cbls::PublicKey::from(ops::compute_public::<MinPk>(&self.0)))
    }

    /// Signs `message` under `namespace` (see [`Domain::namespace`]).
    /// Deterministic: the same key, namespace and message give the same bytes.
    pub fn sign(&self, namespace: &[u8], message: &[u8]) -> Signature {
        Signature::from_point(ops::sign_message::<MinPk>(&self.0, namespace, message))
    }

    /// Signs `message` in `domain` on chain `chain_id`.
    pub fn sign_in(&self, domain: Domain, chain_id: u64, message: &[u8]) -> Signature {
        self.sign(&domain.namespace(chain_id), message)
    }

    /// Proof of possession of this key for registration on chain `chain_id`
    /// (namespace [`Domain::ProofOfPossession`]).
    pub fn proof_of_possession(&self, chain_id: u64) -> Signature {
        Signature::from_point(ops::sign_proof_of_possession::<MinPk>(
            &self.0,
            &Domain::ProofOfPossession.namespace(chain_id),
        ))
    }

    /// The commonware scheme key, used as the DKG participant identity signer.
    pub fn to_commonware(&self) -> cbls::PrivateKey {
        cbls::PrivateKey::from(self.0.clone())
    }
}

/// A validator public key: a G1 point, valid (on curve, in subgroup, not
/// infinity) by construction. Ordered and hashed by its 48 compressed bytes.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PublicKey(pub(crate) cbls::PublicKey);

impl core::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PublicKey({})", hex(self.as_bytes()))
    }
}

impl PublicKey {
    /// Decodes 48 compressed bytes; rejects bad encodings, points off the
    /// curve, outside the subgroup and the point at infinity.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        check_len("public key", bytes, PUBLIC_KEY_LENGTH)?;
        G1::decode(Copying(bytes))
            .map(Self::from_point)
            .map_err(|e| Error::InvalidPublicKey(point_reason(e)))
    }

    /// The 48 compressed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_ref()
    }

    /// The 48 compressed bytes, owned.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LENGTH] {
        let mut out = [0u8; PUBLIC_KEY_LENGTH];
        out.copy_from_slice(self.as_bytes());
        out
    }

    pub(crate) fn from_point(p: G1) -> Self {
        Self(cbls::PublicKey::from(p))
    }

    /// The G1 point.
    pub fn point(&self) -> &G1 {
        self.0.as_ref()
    }

    /// The commonware scheme key (DKG participant identity).
    pub const fn as_commonware(&self) -> &cbls::PublicKey {
        &self.0
    }

    /// Wraps a commonware scheme key (already group-checked by commonware).
    pub const fn from_commonware(key: cbls::PublicKey) -> Self {
        Self(key)
    }

    /// Verifies `signature` over `message` under `namespace`.
    pub fn verify(&self, namespace: &[u8], message: &[u8], signature: &Signature) -> Result<()> {
        ops::verify_message::<MinPk>(self.point(), namespace, message, signature.point())
            .map_err(|_| Error::VerificationFailed)
    }

    /// Verifies `signature` over `message` in `domain` on chain `chain_id`.
    pub fn verify_in(
        &self,
        domain: Domain,
        chain_id: u64,
        message: &[u8],
        signature: &Signature,
    ) -> Result<()> {
        self.verify(&domain.namespace(chain_id), message, signature)
    }

    /// Verifies a proof of possession made by [`PrivateKey::proof_of_possession`].
    /// A key may be aggregated (certificates) only after this succeeded.
    pub fn verify_proof_of_possession(&self, chain_id: u64, proof: &Signature) -> Result<()> {
        ops::verify_proof_of_possession::<MinPk>(
            self.point(),
            &Domain::ProofOfPossession.namespace(chain_id),
            proof.point(),
        )
        .map_err(|_| Error::VerificationFailed)
    }
}

/// A signature (individual, aggregate, partial value or threshold): a G2
/// point, valid (on curve, in subgroup, not infinity) by construction.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signature(pub(crate) cbls::Signature);

impl core::fmt::Debug for Signature {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Signature({})", hex(self.as_bytes()))
    }
}

impl Signature {
    /// Decodes 96 compressed bytes; rejects bad encodings, points off the
    /// curve, outside the subgroup and the point at infinity.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        check_len("signature", bytes, SIGNATURE_LENGTH)?;
        G2::decode(Copying(bytes))
            .map(Self::from_point)
            .map_err(|e| Error::InvalidSignatureEncoding(point_reason(e)))
    }

    /// The 96 compressed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_ref()
    }

    /// The 96 compressed bytes, owned.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LENGTH] {
        let mut out = [0u8; SIGNATURE_LENGTH];
        out.copy_from_slice(self.as_bytes());
        out
    }

    /// Wraps a point. Callers inside the crate only pass points produced by
    /// signing, aggregation or recovery of valid points.
    pub(crate) fn from_point(p: G2) -> Self {
        Self(cbls::Signature::from(p))
    }

    /// The G2 point.
    pub fn point(&self) -> &G2 {
        self.0.as_ref()
    }

    /// Whether the point is the identity (only possible for a sum of points
    /// that cancel; decoded signatures never are).
    pub(crate) fn is_identity(p: &G2) -> bool {
        *p == G2::zero()
    }
}

/// Lowercase hex (debug output only).
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compile-time check that the variant's sizes are the documented ones.
const _: () = {
    use commonware_codec::FixedSize;
    assert!(<MinPk as Variant>::Public::SIZE == PUBLIC_KEY_LENGTH);
    assert!(<MinPk as Variant>::Signature::SIZE == SIGNATURE_LENGTH);
};

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    fn key(i: u8) -> PrivateKey {
        PrivateKey::from_ikm(&[i; 32]).unwrap()
    }

    #[test]
    fn sign_verify_round_trip() {
        let sk = key(1);
        let pk = sk.public_key();
        let sig = sk.sign_in(Domain::Notarize, 7, b"block");
        pk.verify_in(Domain::Notarize, 7, b"block", &sig).unwrap();
        // wrong domain, chain, message, key
        assert_eq!(
            pk.verify_in(Domain::Finalize, 7, b"block", &sig),
            Err(Error::VerificationFailed)
        );
        assert!(pk.verify_in(Domain::Notarize, 8, b"block", &sig).is_err());
        assert!(pk.verify_in(Domain::Notarize, 7, b"blocK", &sig).is_err());
        assert!(
            key(2)
                .public_key()
                .verify_in(Domain::Notarize, 7, b"block", &sig)
                .is_err()
        );
        // deterministic
        assert_eq!(sig, sk.sign_in(Domain::Notarize, 7, b"block"));
    }

    #[test]
    fn bytes_round_trip() {
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let sk = PrivateKey::generate(&mut rng);
        let sk2 = PrivateKey::from_bytes(&sk.to_bytes()).unwrap();
        assert_eq!(sk, sk2);
        let pk = sk.public_key();
        assert_eq!(PublicKey::from_bytes(&pk.to_bytes()).unwrap(), pk);
        let sig = sk.sign(b"ns", b"m");
        assert_eq!(Signature::from_bytes(&sig.to_bytes()).unwrap(), sig);
        assert_eq!(pk.as_bytes().len(), PUBLIC_KEY_LENGTH);
        assert_eq!(sig.as_bytes().len(), SIGNATURE_LENGTH);
        assert!(!format!("{sk:?}").contains(&hex(&sk.to_bytes())));
    }

    #[test]
    fn proof_of_possession() {
        let sk = key(3);
        let pk = sk.public_key();
        let pop = sk.proof_of_possession(1);
        pk.verify_proof_of_possession(1, &pop).unwrap();
        assert!(pk.verify_proof_of_possession(2, &pop).is_err());
        assert!(
            key(4)
                .public_key()
                .verify_proof_of_possession(1, &pop)
                .is_err()
        );
        // a PoP is not a signature over the key bytes in any vote domain
        assert!(
            pk.verify_in(Domain::ProofOfPossession, 1, pk.as_bytes(), &pop)
                .is_err()
        );
    }

    #[test]
    fn hostile_private_keys() {
        assert!(matches!(
            PrivateKey::from_bytes(&[0u8; 32]),
            Err(Error::InvalidPrivateKey(_))
        ));
        assert!(matches!(
            PrivateKey::from_bytes(&[0xff; 32]),
            Err(Error::InvalidPrivateKey(_))
        ));
        assert!(matches!(
            PrivateKey::from_bytes(&[1u8; 31]),
            Err(Error::InvalidLength { .. })
        ));
        assert!(matches!(
            PrivateKey::from_ikm(&[1u8; 31]),
            Err(Error::InvalidLength { .. })
        ));
    }
}
