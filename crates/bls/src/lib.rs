//! BLS12-381 for the Cowboy chain, on `commonware-cryptography` (blst).
//!
//! * [`keys`]: keys, signing, verification, proofs of possession.
//! * [`certificate`]: aggregation and quorum certificates with signer bitmaps.
//! * [`batch`]: batch verification that finds the invalid items.
//! * [`threshold`]: genesis dealer, shares, partial signatures, recovery.
//! * [`dkg`]: distributed key generation and resharing.
//! * [`seed`]: the per-round randomness beacon, the parent beacon and HKDF.
//! * [`domain`]: namespaces of every signed message type, vote messages.
//! * [`round`]: the absolute round `(epoch, view)` and its canonical bytes.
//!
//! Variant: **MinPk** — 48-byte public keys in G1, 96-byte signatures in G2,
//! ciphersuite `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` (the Ethereum
//! consensus-layer suite). See `docs/bls.md` for the reasoning and every byte
//! layout. Hostile input never panics: every decoder returns [`Error`].

pub mod batch;
pub mod certificate;
pub mod dkg;
pub mod domain;
pub mod error;
pub mod keys;
pub mod round;
pub mod seed;
pub mod threshold;

pub use batch::{BatchItem, batch_verify, find_invalid};
pub use certificate::{SignerBitmap, ValidatorSet, quorum};
pub use domain::Domain;
pub use error::{Error, Result};
pub use keys::{PrivateKey, PublicKey, Signature};
pub use round::Round;
pub use seed::Seed;
pub use threshold::{GroupPublic, PartialSignature, Share};
