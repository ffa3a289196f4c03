//! Pure text algorithms behind Python 3.11's `str`, `bytes` and `int` text conversions and
//! formatting, for the PVM. Nothing here knows about the VM object model: the core wires
//! these functions into Python types, does argument matching, object protocol calls
//! (`str()`/`repr()` of arbitrary objects, `__format__`, mapping lookups) and metering.
//!
//! Modules:
//! - [`str_methods`]: `str` methods on `&str` (indices in code points).
//! - [`bytes_methods`]: `bytes`/`bytearray` methods on `&[u8]`, `hex`, `fromhex`.
//! - [`unicode`]: per-code-point predicates and full case mappings (CPython 3.11 data).
//! - [`mod@slice`]: `start`/`end` normalisation shared by `find`/`count`/`startswith`.
//! - [`repr`]: `repr()`/`ascii()` of `str`, `bytes`, `bytearray`.
//! - [`int_text`]: `int(str|bytes, base)`, `str(int)`, `hex`/`oct`/`bin`.
//! - [`format_spec`], [`format_float`]: the format-spec mini-language for int/str/float.
//! - [`format_string`]: `str.format` template and field-name parsing.
//! - [`percent`]: printf-style `str % args` and `bytes % args`.
//! - [`codec`]: utf-8 / ascii / latin-1 `encode`/`decode`.
//!
//! Conventions and invariants:
//! - Errors are [`TextError`] values carrying the Python exception class and CPython's exact
//!   message; nothing panics on bad input.
//! - Deterministic: integer arithmetic only (floats go through `pvm-float`), no hashing order.
//! - Unicode data is generated from CPython 3.11 itself (Unicode 14.0.0) by
//!   `tests/gen/gen_tables.py`, so results match CPython 3.11, not the Rust toolchain.
//! - Functions whose output size is chosen by the caller (`width`, `precision`, `count`,
//!   `tabsize`) allocate accordingly: the core must meter/bound those values first.
//!
//! Known differences from CPython 3.11:
//! - Lone surrogates cannot exist in a Rust `str`: `format(0xD800, 'c')` / `'%c' % 0xD800`
//!   return a `ValueError` instead of producing one; UTF-8 encoding therefore never fails.
//! - Only the utf-8, ascii and latin-1 codecs (and their aliases) exist; error handlers are
//!   `strict`, `ignore`, `replace`, `backslashreplace` and (encode) `xmlcharrefreplace`.
//! - No locales: the `n` presentation type behaves like `d`/`g` (as CPython in the C locale).
//! - `sys.set_int_max_str_digits` does not exist: the limit is fixed at 4300 digits.

pub mod bytes_methods;
pub mod codec;
pub mod error;
pub mod format_float;
pub mod format_spec;
pub mod format_string;
pub mod int_text;
pub mod percent;
pub mod repr;
pub mod slice;
pub mod str_methods;
mod tables;
pub mod unicode;

pub use error::{ErrorKind, TextError, TextResult};
pub use num_bigint;
pub use pvm_float;
