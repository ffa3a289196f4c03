//! The single typed error returned by pvm-text, mirroring the Python exception CPython raises.

use core::fmt;

/// Which Python exception class an error corresponds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `ValueError`.
    Value,
    /// `TypeError`.
    Type,
    /// `OverflowError`.
    Overflow,
    /// `KeyError` (str.format / %-format mapping lookups are done by the core; unused here).
    Key,
    /// `IndexError`.
    Index,
    /// `UnicodeEncodeError` (a subclass of `ValueError`).
    UnicodeEncode,
    /// `UnicodeDecodeError` (a subclass of `ValueError`).
    UnicodeDecode,
    /// `LookupError` (unknown codec / error handler).
    Lookup,
}

/// A Python-level error: exception class plus CPython's exact message text.
///
/// Invariant: `message` is byte-for-byte what CPython 3.11 puts in `str(exc)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// Python exception class.
    pub kind: ErrorKind,
    /// CPython's message.
    pub message: String,
}

impl TextError {
    /// Builds an error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// `ValueError(message)`.
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Value, message)
    }

    /// `TypeError(message)`.
    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, message)
    }

    /// `OverflowError(message)`.
    pub fn overflow(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Overflow, message)
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TextError {}

/// Result alias used across the crate.
pub type TextResult<T> = Result<T, TextError>;
