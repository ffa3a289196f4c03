//! Canonical consensus types of the Cowboy chain.
//!
//! - [`Transaction`], [`Instruction`], [`BlockHeader`], [`Block`], [`Receipt`],
//!   [`Certificate`] with one strict canonical encoding each ([`Canonical`]), built on
//!   `commonware-codec` (spec §2.5, Appendix A; byte contract in `docs/codec.md`).
//! - Signing hash, secp256k1 signing / recovery / verification with batch variants
//!   ([`signing`]).
//! - Address derivation for EOAs and actors ([`address`]) and canonical Python source
//!   ([`source`]).
//! - Binary keccak Merkle roots ([`merkle`]).
//! - With the `json` feature (default): the JSON form shared with the SDK and CLI ([`json`]).

pub mod address;
pub mod block;
pub mod constants;
pub mod error;
pub mod hash;
pub mod hex;
pub mod instruction;
#[cfg(feature = "json")]
pub mod json;
pub mod merkle;
pub mod receipt;
pub mod signing;
pub mod source;
pub mod transaction;
pub mod wire;

pub use address::{Address, actor_address, code_hash};
pub use block::{Block, BlockHeader, Certificate, CertificateKind, Round, receipts_root, tx_root};
pub use error::{CodecError, SigError, SourceError};
pub use hash::{Hash32, keccak256};
pub use instruction::Instruction;
pub use merkle::merkle_root;
pub use receipt::{Event, Receipt, ReceiptStatus};
pub use signing::{
    SecretKey, recover_batch, recover_signer, sign, sign_additional, verify, verify_batch,
};
pub use source::{canonical_source, canonicalize_source};
pub use transaction::{
    AccessListEntry, AdditionalSigner, SignatureBytes, Transaction, ZERO_SIGNATURE,
};
pub use wire::Canonical;
