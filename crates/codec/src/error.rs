//! Typed errors of the codec, the source canonicalisation rules and signatures.
//!
//! Every error has a stable machine-readable [`CodecError::code`] /
//! [`SigError::code`] string (documented in `docs/codec.md` §7) and a
//! human-readable message that names the offending field.

use core::fmt;

/// Why a canonical Python source was rejected (spec §1.2).
///
/// The checks run in the order of the variants; the first failure is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// The bytes are not valid UTF-8.
    NotUtf8,
    /// The source starts with a UTF-8 byte-order mark (`EF BB BF`).
    HasBom,
    /// The source contains a carriage return (`\r`); only LF line endings are canonical.
    HasCr,
    /// The source is not in Unicode Normalization Form C.
    NotNfc,
}

impl SourceError {
    /// Stable error code (`SOURCE_NOT_UTF8`, `SOURCE_HAS_BOM`, `SOURCE_HAS_CR`, `SOURCE_NOT_NFC`).
    pub const fn code(&self) -> &'static str {
        match self {
            Self::NotUtf8 => "SOURCE_NOT_UTF8",
            Self::HasBom => "SOURCE_HAS_BOM",
            Self::HasCr => "SOURCE_HAS_CR",
            Self::NotNfc => "SOURCE_NOT_NFC",
        }
    }

    const fn describe(&self) -> &'static str {
        match self {
            Self::NotUtf8 => "source is not valid UTF-8",
            Self::HasBom => "source starts with a byte-order mark",
            Self::HasCr => "source contains a carriage return (only LF line endings are canonical)",
            Self::NotNfc => "source is not NFC-normalized",
        }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl std::error::Error for SourceError {}

/// A violated rule of the strict canonical decoder (spec §2.5, docs/codec.md §7).
///
/// `field` is the dotted path of the field being decoded when the rule was
/// violated (e.g. `instruction.handler`, `additional_signers[2].address`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodecError {
    /// A transaction encoding is larger than [`crate::constants::MAX_TX_SIZE`].
    TxTooLarge {
        /// Size of the offending encoding in bytes (for a transaction inside a block, whose
        /// end is not known, `MAX_TX_SIZE + 1`: a lower bound).
        size: usize,
    },
    /// The input ended inside a field.
    UnexpectedEof {
        /// Field being read.
        field: String,
    },
    /// A varint had a redundant trailing zero group.
    NonMinimalVarint {
        /// Field being read.
        field: String,
    },
    /// A varint encodes a value wider than its type (u64, or u32 for lengths).
    VarintOverflow {
        /// Field being read.
        field: String,
    },
    /// A length or element-count prefix is larger than the remaining input allows.
    LengthOverflow {
        /// Field being read.
        field: String,
        /// The declared length / count.
        declared: u64,
        /// Bytes left in the input.
        remaining: usize,
    },
    /// An `Option` tag was neither 0 nor 1.
    InvalidOptionTag {
        /// Field being read.
        field: String,
        /// The tag byte found.
        tag: u8,
    },
    /// Instruction category not in 0..=3.
    UnknownCategory {
        /// The category byte found.
        category: u8,
    },
    /// Instruction sub_type not defined for its category.
    UnknownSubType {
        /// The instruction category.
        category: u8,
        /// The sub_type byte found.
        sub_type: u8,
    },
    /// Another enum discriminant (receipt status, certificate kind) out of range.
    UnknownVariant {
        /// Field being read.
        field: String,
        /// The discriminant found.
        value: u8,
    },
    /// Bytes remained after the value was decoded.
    TrailingBytes {
        /// What was decoded.
        what: &'static str,
        /// Number of bytes left over.
        count: usize,
    },
    /// A string field is not valid UTF-8.
    InvalidUtf8 {
        /// Field being read.
        field: String,
    },
    /// A handler name is not a 1..=64 byte ASCII Python identifier.
    InvalidHandler {
        /// Field being read.
        field: String,
    },
    /// A library name is not 1..=64 bytes of `[a-z_][a-z0-9_]*`.
    InvalidLibraryName {
        /// Field being read.
        field: String,
    },
    /// A timer interval is present but zero.
    InvalidInterval {
        /// Field being read.
        field: String,
    },
    /// `additional_signers` is not strictly ascending by address.
    SignersNotAscending {
        /// Index of the first entry that is not greater than its predecessor.
        index: usize,
    },
    /// A Python source field is not canonical.
    Source {
        /// Field being read.
        field: String,
        /// The violated source rule.
        error: SourceError,
    },
}

impl CodecError {
    /// Stable error code naming the violated rule (docs/codec.md §7).
    pub fn code(&self) -> &'static str {
        match self {
            Self::TxTooLarge { .. } => "TX_TOO_LARGE",
            Self::UnexpectedEof { .. } => "UNEXPECTED_EOF",
            Self::NonMinimalVarint { .. } => "NON_MINIMAL_VARINT",
            Self::VarintOverflow { .. } => "VARINT_OVERFLOW",
            Self::LengthOverflow { .. } => "LENGTH_OVERFLOW",
            Self::InvalidOptionTag { .. } => "INVALID_OPTION_TAG",
            Self::UnknownCategory { .. } => "UNKNOWN_CATEGORY",
            Self::UnknownSubType { .. } => "UNKNOWN_SUB_TYPE",
            Self::UnknownVariant { .. } => "UNKNOWN_VARIANT",
            Self::TrailingBytes { .. } => "TRAILING_BYTES",
            Self::InvalidUtf8 { .. } => "INVALID_UTF8",
            Self::InvalidHandler { .. } => "INVALID_HANDLER",
            Self::InvalidLibraryName { .. } => "INVALID_LIBRARY_NAME",
            Self::InvalidInterval { .. } => "INVALID_INTERVAL",
            Self::SignersNotAscending { .. } => "SIGNERS_NOT_ASCENDING",
            Self::Source { error, .. } => error.code(),
        }
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TxTooLarge { size } => write!(
                f,
                "transaction: encoding is {size} bytes, more than MAX_TX_SIZE = {}",
                crate::constants::MAX_TX_SIZE
            ),
            Self::UnexpectedEof { field } => write!(f, "{field}: unexpected end of input"),
            Self::NonMinimalVarint { field } => {
                write!(f, "{field}: non-minimal varint (redundant zero group)")
            }
            Self::VarintOverflow { field } => {
                write!(f, "{field}: varint overflows its integer type")
            }
            Self::LengthOverflow {
                field,
                declared,
                remaining,
            } => write!(
                f,
                "{field}: length prefix {declared} exceeds the {remaining} bytes of remaining input"
            ),
            Self::InvalidOptionTag { field, tag } => {
                write!(
                    f,
                    "{field}: option tag must be 0x00 or 0x01, found {tag:#04x}"
                )
            }
            Self::UnknownCategory { category } => {
                write!(f, "instruction.category: unknown category {category}")
            }
            Self::UnknownSubType { category, sub_type } => write!(
                f,
                "instruction.sub_type: unknown sub_type {sub_type} for category {category}"
            ),
            Self::UnknownVariant { field, value } => {
                write!(f, "{field}: unknown discriminant {value}")
            }
            Self::TrailingBytes { what, count } => {
                write!(f, "{what}: {count} trailing bytes after the value")
            }
            Self::InvalidUtf8 { field } => write!(f, "{field}: string is not valid UTF-8"),
            Self::InvalidHandler { field } => write!(
                f,
                "{field}: handler must be a 1..=64 byte ASCII identifier [A-Za-z_][A-Za-z0-9_]*"
            ),
            Self::InvalidLibraryName { field } => write!(
                f,
                "{field}: library name must be 1..=64 bytes of [a-z_][a-z0-9_]*"
            ),
            Self::InvalidInterval { field } => {
                write!(
                    f,
                    "{field}: a timer interval must be at least 1 (use none for one-shot)"
                )
            }
            Self::SignersNotAscending { index } => write!(
                f,
                "additional_signers[{index}].address: signers must be strictly ascending by address"
            ),
            Self::Source { field, error } => write!(f, "{field}: {error}"),
        }
    }
}

impl std::error::Error for CodecError {}

/// A signature, key or signer check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SigError {
    /// r or s is zero or not below the group order, or no public key recovers.
    InvalidSignature {
        /// Which signature (`signature`, `additional_signers[i].signature`).
        field: String,
    },
    /// s is above n/2 (only low-S signatures are valid).
    HighS {
        /// Which signature.
        field: String,
    },
    /// The recovery id byte v is not 0 or 1.
    InvalidRecoveryId {
        /// Which signature.
        field: String,
        /// The byte found.
        v: u8,
    },
    /// The primary signature recovers to an address other than `from`.
    SignerMismatch {
        /// Address the signature recovers to.
        recovered: crate::Address,
        /// The transaction's `from`.
        expected: crate::Address,
    },
    /// An additional signature recovers to an address other than its listed one.
    AdditionalSignerMismatch {
        /// Index in `additional_signers`.
        index: usize,
        /// Address the signature recovers to.
        recovered: crate::Address,
    },
    /// The secret key is zero or not below the group order.
    InvalidSecretKey,
    /// The signing key's address is not the transaction's `from`.
    FromMismatch {
        /// Address of the signing key.
        key_address: crate::Address,
    },
    /// The signing key's address is not listed in `additional_signers`.
    NotASigner {
        /// Address of the signing key.
        key_address: crate::Address,
    },
}

impl SigError {
    /// Stable error code naming the violated rule (docs/codec.md §7).
    pub const fn code(&self) -> &'static str {
        match self {
            Self::InvalidSignature { .. } => "INVALID_SIGNATURE",
            Self::HighS { .. } => "HIGH_S",
            Self::InvalidRecoveryId { .. } => "INVALID_RECOVERY_ID",
            Self::SignerMismatch { .. } => "SIGNER_MISMATCH",
            Self::AdditionalSignerMismatch { .. } => "ADDITIONAL_SIGNER_MISMATCH",
            Self::InvalidSecretKey => "INVALID_SECRET_KEY",
            Self::FromMismatch { .. } => "FROM_MISMATCH",
            Self::NotASigner { .. } => "NOT_A_SIGNER",
        }
    }
}

impl fmt::Display for SigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidSignature { field } => write!(
                f,
                "{field}: invalid secp256k1 signature (r or s out of range, or no key recovers)"
            ),
            Self::HighS { field } => write!(f, "{field}: s is above n/2 (high-S is rejected)"),
            Self::InvalidRecoveryId { field, v } => {
                write!(f, "{field}: recovery id v must be 0 or 1, found {v}")
            }
            Self::SignerMismatch {
                recovered,
                expected,
            } => write!(
                f,
                "signature: recovers to {recovered}, but from is {expected}"
            ),
            Self::AdditionalSignerMismatch { index, recovered } => write!(
                f,
                "additional_signers[{index}].signature: recovers to {recovered}, not the listed address"
            ),
            Self::InvalidSecretKey => {
                f.write_str("secret key: must be 32 bytes, nonzero and below the secp256k1 order")
            }
            Self::FromMismatch { key_address } => write!(
                f,
                "from: the signing key's address {key_address} is not the transaction's from"
            ),
            Self::NotASigner { key_address } => write!(
                f,
                "additional_signers: the signing key's address {key_address} is not listed"
            ),
        }
    }
}

impl std::error::Error for SigError {}
