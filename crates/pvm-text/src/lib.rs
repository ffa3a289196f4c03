//! Pure text algorithms behind Python 3.11's `str`, `bytes` and `int` text conversions and
//! formatting, for the PVM. Nothing here knows about the VM object model: the core wires
//! these functions into Python types, does argument matching and metering.
//!
//! Conventions:
//! - `str` indices are code points, `bytes` indices are bytes.
//! - Errors are [`TextError`] values carrying the Python exception class and CPython's exact
//!   message; nothing panics on bad input.
//! - Unicode data is generated from CPython 3.11 (Unicode 14.0.0), see `tests/gen/`.

pub mod error;
pub mod format_float;
pub mod format_spec;
pub mod int_text;
pub mod repr;
pub mod slice;
pub mod str_methods;
mod tables;
pub mod unicode;

pub use error::{ErrorKind, TextError, TextResult};
pub use num_bigint;
