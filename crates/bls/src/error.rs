//! The one error type of the crate.
//!
//! Every fallible function returns [`Error`]. Hostile input (wrong lengths,
//! points off the curve or outside the prime-order subgroup, the point at
//! infinity, zero or out-of-range scalars, malformed bitmaps) is always reported
//! as a typed error, never a panic. [`Error::code`] gives the stable
//! machine-readable code (the native addon throws it as `ERR_BLS_<CODE>`).

use thiserror::Error;

/// Everything that can go wrong in `cowboy-bls`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// A fixed-width input does not have its width.
    #[error("{what}: expected {expected} bytes, got {got}")]
    InvalidLength {
        /// The field that was being decoded.
        what: &'static str,
        /// Required width in bytes.
        expected: usize,
        /// Width actually supplied.
        got: usize,
    },
    /// A private key is zero, not below the group order, or otherwise unusable.
    #[error("invalid private key: {0}")]
    InvalidPrivateKey(&'static str),
    /// A public key (G1 point) does not decode: bad encoding, not on the curve,
    /// outside the subgroup or the point at infinity.
    #[error("invalid public key: {0}")]
    InvalidPublicKey(String),
    /// A signature (G2 point) does not decode: bad encoding, not on the curve,
    /// outside the subgroup or the point at infinity.
    #[error("invalid signature encoding: {0}")]
    InvalidSignatureEncoding(String),
    /// A signature is well formed but does not verify.
    #[error("signature verification failed")]
    VerificationFailed,
    /// A composite value (share, sharing, seed, DKG output...) does not decode.
    #[error("malformed {what}: {reason}")]
    Malformed {
        /// The type that was being decoded.
        what: &'static str,
        /// Why it was rejected.
        reason: String,
    },
    /// An operation needs at least one input.
    #[error("{0}: empty input")]
    Empty(&'static str),
    /// Parallel inputs have different lengths.
    #[error("length mismatch: {0}")]
    LengthMismatch(&'static str),
    /// The same public key appears twice in a validator set.
    #[error("duplicate public key at index {index}")]
    DuplicatePublicKey {
        /// Position of the second occurrence.
        index: usize,
    },
    /// A proof of possession does not verify for the key at `index`.
    #[error("invalid proof of possession at index {index}")]
    InvalidProofOfPossession {
        /// Position of the key whose proof failed.
        index: usize,
    },
    /// A signer bitmap does not have `ceil(n / 8)` bytes.
    #[error("signer bitmap: expected {expected} bytes for {validators} validators, got {got}")]
    BitmapLength {
        /// Number of validators in the set.
        validators: usize,
        /// Required byte length.
        expected: usize,
        /// Supplied byte length.
        got: usize,
    },
    /// A signer bitmap has a bit set at or beyond the validator count.
    #[error("signer bitmap: bit {bit} set but only {validators} validators")]
    BitmapPadding {
        /// The first offending bit.
        bit: usize,
        /// Number of validators in the set.
        validators: usize,
    },
    /// A signer index is not below the validator count.
    #[error("signer index {index} out of range for {validators} validators")]
    SignerOutOfRange {
        /// The offending index.
        index: u32,
        /// Number of validators in the set.
        validators: usize,
    },
    /// The same signer index appears twice.
    #[error("duplicate signer index {0}")]
    DuplicateSigner(u32),
    /// Fewer signers than the quorum.
    #[error("{signers} signers, quorum is {quorum}")]
    InsufficientSigners {
        /// Signers present.
        signers: usize,
        /// Signers required.
        quorum: usize,
    },
    /// Fewer distinct partial signatures than the threshold.
    #[error("{have} distinct partial signatures, threshold is {need}")]
    NotEnoughPartials {
        /// Distinct partials supplied.
        have: usize,
        /// Partials required.
        need: usize,
    },
    /// A partial signature's index is not a participant of the sharing.
    #[error("partial signature index {index} out of range for {total} participants")]
    PartialIndexOutOfRange {
        /// The offending index.
        index: u32,
        /// Participants of the sharing.
        total: u32,
    },
    /// Threshold recovery did not produce a signature.
    #[error("threshold recovery failed")]
    RecoveryFailed,
    /// A threshold configuration is impossible (for example zero participants).
    #[error("invalid threshold parameters: {0}")]
    InvalidThreshold(String),
    /// The DKG / resharing state machine rejected an input.
    #[error("dkg: {0}")]
    Dkg(String),
    /// A round has no preceding absolute round that can be named from it.
    #[error("round ({epoch}, {view}) has no nameable parent round: {reason}")]
    NoParentRound {
        /// Epoch of the round.
        epoch: u64,
        /// View of the round.
        view: u64,
        /// Why.
        reason: &'static str,
    },
    /// A seed is for a different round than the one required.
    #[error("seed is for round ({got_epoch}, {got_view}), expected ({epoch}, {view})")]
    WrongSeedRound {
        /// Expected epoch.
        epoch: u64,
        /// Expected view.
        view: u64,
        /// Epoch of the seed supplied.
        got_epoch: u64,
        /// View of the seed supplied.
        got_view: u64,
    },
    /// Round arithmetic overflowed `u64`.
    #[error("round arithmetic overflow")]
    RoundOverflow,
    /// HKDF output length outside `1..=8160`.
    #[error("hkdf output length {0} outside 1..=8160")]
    InvalidOutputLength(usize),
    /// An unknown domain name (text form).
    #[error("unknown domain {0:?}")]
    UnknownDomain(String),
}

impl Error {
    /// Stable machine-readable code (upper snake case). The native addon throws
    /// these as `ERR_BLS_<CODE>`; they never change meaning once published.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::InvalidLength { .. } => "INVALID_LENGTH",
            Self::InvalidPrivateKey(_) => "INVALID_PRIVATE_KEY",
            Self::InvalidPublicKey(_) => "INVALID_PUBLIC_KEY",
            Self::InvalidSignatureEncoding(_) => "INVALID_SIGNATURE_ENCODING",
            Self::VerificationFailed => "VERIFICATION_FAILED",
            Self::Malformed { .. } => "MALFORMED",
            Self::Empty(_) => "EMPTY",
            Self::LengthMismatch(_) => "LENGTH_MISMATCH",
            Self::DuplicatePublicKey { .. } => "DUPLICATE_PUBLIC_KEY",
            Self::InvalidProofOfPossession { .. } => "INVALID_PROOF_OF_POSSESSION",
            Self::BitmapLength { .. } => "BITMAP_LENGTH",
            Self::BitmapPadding { .. } => "BITMAP_PADDING",
            Self::SignerOutOfRange { .. } => "SIGNER_OUT_OF_RANGE",
            Self::DuplicateSigner(_) => "DUPLICATE_SIGNER",
            Self::InsufficientSigners { .. } => "INSUFFICIENT_SIGNERS",
            Self::NotEnoughPartials { .. } => "NOT_ENOUGH_PARTIALS",
            Self::PartialIndexOutOfRange { .. } => "PARTIAL_INDEX_OUT_OF_RANGE",
            Self::RecoveryFailed => "RECOVERY_FAILED",
            Self::InvalidThreshold(_) => "INVALID_THRESHOLD",
            Self::Dkg(_) => "DKG",
            Self::NoParentRound { .. } => "NO_PARENT_ROUND",
            Self::WrongSeedRound { .. } => "WRONG_SEED_ROUND",
            Self::RoundOverflow => "ROUND_OVERFLOW",
            Self::InvalidOutputLength(_) => "INVALID_OUTPUT_LENGTH",
            Self::UnknownDomain(_) => "UNKNOWN_DOMAIN",
        }
    }
}

/// Shorthand used throughout the crate.
pub type Result<T> = core::result::Result<T, Error>;

/// Checks that `bytes` has exactly `expected` bytes.
pub(crate) const fn check_len(what: &'static str, bytes: &[u8], expected: usize) -> Result<()> {
    if bytes.len() != expected {
        return Err(Error::InvalidLength {
            what,
            expected,
            got: bytes.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_upper_snake_case() {
        let samples = [
            Error::VerificationFailed,
            Error::RecoveryFailed,
            Error::Empty("x"),
            Error::InvalidPublicKey("Infinity".into()),
            Error::InvalidLength {
                what: "x",
                expected: 1,
                got: 2,
            },
        ];
        for e in samples {
            let code = e.code();
            assert!(code.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn check_len_reports_widths() {
        assert!(check_len("pk", &[0u8; 48], 48).is_ok());
        assert_eq!(
            check_len("pk", &[0u8; 47], 48),
            Err(Error::InvalidLength {
                what: "pk",
                expected: 48,
                got: 47
            })
        );
    }
}
