//! The strict canonical reader and the encoding trait shared by every consensus type.
//!
//! Encoding uses `commonware-codec`'s [`Write`] / [`EncodeSize`] primitives (minimal LEB128
//! `UInt` varints, `u32`-bounded length prefixes, big-endian fixed-width integers, 1-byte
//! option tags). Decoding goes through [`Reader`], which uses commonware's varint
//! [`Decoder`] and adds what a consensus decoder needs on top: typed errors naming the
//! field, and length prefixes checked against the remaining input before any allocation.

use crate::address::Address;
use crate::constants::ADDRESS_SIZE;
use crate::error::CodecError;
use bytes::BufMut;
use commonware_codec::varint::{Decoder, UInt};
use commonware_codec::{EncodeSize, Write};

/// A consensus type with exactly one valid byte encoding.
///
/// Invariant: for every `x`, `decode(&x.encode()) == Ok(x)` whenever `x` satisfies the type's
/// field rules, and for every `b`, `decode(b) == Ok(x)` implies `x.encode() == b`.
pub trait Canonical: Sized + Write + EncodeSize {
    /// Name used in [`CodecError::TrailingBytes`].
    const NAME: &'static str;

    /// Reads one value from `r`, leaving any following bytes unread.
    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError>;

    /// The canonical encoding.
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encode_size());
        self.write(&mut out);
        debug_assert_eq!(out.len(), self.encode_size());
        out
    }

    /// Strictly decodes exactly one value from `bytes` (trailing bytes are an error).
    fn decode(bytes: &[u8]) -> Result<Self, CodecError> {
        let mut r = Reader::new(bytes);
        let v = Self::read_from(&mut r)?;
        r.finish(Self::NAME)?;
        Ok(v)
    }
}

/// A cursor over untrusted input that enforces the canonical rules of docs/codec.md §1.
#[derive(Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { buf }
    }

    /// Bytes not yet consumed.
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    /// The unread input.
    pub fn rest(&self) -> &'a [u8] {
        self.buf
    }

    /// Fails with [`CodecError::TrailingBytes`] unless all input was consumed.
    pub fn finish(&self, what: &'static str) -> Result<(), CodecError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(CodecError::TrailingBytes {
                what,
                count: self.buf.len(),
            })
        }
    }

    /// Consumes `n` raw bytes.
    pub fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], CodecError> {
        if n > self.buf.len() {
            return Err(CodecError::UnexpectedEof {
                field: field.to_owned(),
            });
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }

    /// One byte.
    pub fn u8(&mut self, field: &str) -> Result<u8, CodecError> {
        Ok(self.take(1, field)?[0])
    }

    /// `N` raw bytes.
    pub fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N], CodecError> {
        let s = self.take(N, field)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// A 20-byte address.
    pub fn address(&mut self, field: &str) -> Result<Address, CodecError> {
        self.array::<ADDRESS_SIZE>(field).map(Address)
    }

    /// A big-endian `u64` (8 bytes).
    pub fn u64_be(&mut self, field: &str) -> Result<u64, CodecError> {
        Ok(u64::from_be_bytes(self.array::<8>(field)?))
    }

    /// A minimal LEB128 varint `u64`.
    pub fn varint(&mut self, field: &str) -> Result<u64, CodecError> {
        self.varint_with::<Decoder<u64>>(field)
    }

    fn varint_with<D: VarintFeed>(&mut self, field: &str) -> Result<D::Out, CodecError> {
        let mut d = D::default();
        for (i, &byte) in self.buf.iter().enumerate() {
            match d.feed_byte(byte) {
                Ok(Some(v)) => {
                    self.buf = &self.buf[i + 1..];
                    return Ok(v);
                }
                Ok(None) => {}
                Err(_) => {
                    // commonware rejects a zero continuation byte (non-minimal) and bits beyond
                    // the type width (overflow); tell the two apart for the error code.
                    return Err(if byte == 0 && i > 0 {
                        CodecError::NonMinimalVarint {
                            field: field.to_owned(),
                        }
                    } else {
                        CodecError::VarintOverflow {
                            field: field.to_owned(),
                        }
                    });
                }
            }
        }
        Err(CodecError::UnexpectedEof {
            field: field.to_owned(),
        })
    }

    /// A length / element-count prefix (varint ≤ `u32::MAX`), checked so that `len` items of
    /// at least `min_item_size` bytes each fit in the remaining input. Never trust the prefix
    /// for allocation beyond that.
    pub fn len_prefix(&mut self, field: &str, min_item_size: usize) -> Result<usize, CodecError> {
        let n = self.varint_with::<Decoder<u32>>(field)? as usize;
        let need = n.saturating_mul(min_item_size.max(1));
        if need > self.buf.len() {
            return Err(CodecError::LengthOverflow {
                field: field.to_owned(),
                declared: n as u64,
                remaining: self.buf.len(),
            });
        }
        Ok(n)
    }

    /// A length-prefixed byte string.
    pub fn bytes(&mut self, field: &str) -> Result<Vec<u8>, CodecError> {
        let n = self.len_prefix(field, 1)?;
        Ok(self.take(n, field)?.to_vec())
    }

    /// A length-prefixed UTF-8 string.
    pub fn string(&mut self, field: &str) -> Result<String, CodecError> {
        let b = self.bytes(field)?;
        String::from_utf8(b).map_err(|_| CodecError::InvalidUtf8 {
            field: field.to_owned(),
        })
    }

    /// An option tag: `false` for `0x00`, `true` for `0x01`.
    pub fn option_tag(&mut self, field: &str) -> Result<bool, CodecError> {
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            tag => Err(CodecError::InvalidOptionTag {
                field: field.to_owned(),
                tag,
            }),
        }
    }
}

/// Adapter over commonware's varint [`Decoder`] for the integer widths we decode.
pub(crate) trait VarintFeed: Default {
    /// The decoded integer type.
    type Out;
    /// Feeds one byte; `Ok(Some(v))` when complete, `Err(_)` when the varint is invalid.
    fn feed_byte(&mut self, byte: u8) -> Result<Option<Self::Out>, commonware_codec::Error>;
}

impl VarintFeed for Decoder<u64> {
    type Out = u64;
    fn feed_byte(&mut self, byte: u8) -> Result<Option<u64>, commonware_codec::Error> {
        self.feed(byte)
    }
}

impl VarintFeed for Decoder<u32> {
    type Out = u32;
    fn feed_byte(&mut self, byte: u8) -> Result<Option<u32>, commonware_codec::Error> {
        self.feed(byte)
    }
}

// ---- encoding helpers (thin wrappers over commonware primitives) ----

/// Writes a minimal varint.
pub fn put_varint(buf: &mut impl BufMut, v: u64) {
    UInt(v).write(buf);
}

/// Encoded size of a minimal varint.
pub fn varint_size(v: u64) -> usize {
    UInt(v).encode_size()
}

/// Writes a length prefix (commonware `usize`: a varint bounded by `u32::MAX`).
///
/// Lengths above `u32::MAX` cannot occur for values that fit in memory limits of the
/// chain; commonware panics on them, which is an encoder-side programming error.
pub fn put_len(buf: &mut impl BufMut, n: usize) {
    n.write(buf);
}

/// Encoded size of a length prefix.
pub fn len_size(n: usize) -> usize {
    n.encode_size()
}

/// Writes a length-prefixed byte string.
pub fn put_bytes(buf: &mut impl BufMut, b: &[u8]) {
    put_len(buf, b.len());
    buf.put_slice(b);
}

/// Encoded size of a length-prefixed byte string.
pub fn bytes_size(b: &[u8]) -> usize {
    len_size(b.len()) + b.len()
}

/// Writes an option tag.
pub fn put_tag(buf: &mut impl BufMut, present: bool) {
    present.write(buf);
}

/// Writes an optional varint.
pub fn put_opt_varint(buf: &mut impl BufMut, v: Option<u64>) {
    v.map(UInt).write(buf);
}

/// Encoded size of an optional varint.
pub fn opt_varint_size(v: Option<u64>) -> usize {
    v.map(UInt).encode_size()
}

/// Prefixes the field path of a decode error with the path of its container, e.g. turning
/// `address` into `additional_signers[3].address`.
pub fn in_field(mut e: CodecError, prefix: &str) -> CodecError {
    use CodecError::*;
    match &mut e {
        UnexpectedEof { field }
        | NonMinimalVarint { field }
        | VarintOverflow { field }
        | LengthOverflow { field, .. }
        | InvalidOptionTag { field, .. }
        | UnknownVariant { field, .. }
        | InvalidUtf8 { field }
        | InvalidHandler { field }
        | InvalidLibraryName { field }
        | InvalidInterval { field }
        | Source { field, .. } => {
            *field = format!("{prefix}.{field}");
        }
        TxTooLarge { .. }
        | UnknownCategory { .. }
        | UnknownSubType { .. }
        | TrailingBytes { .. }
        | SignersNotAscending { .. } => {}
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: u64) -> Vec<u8> {
        let mut b = Vec::new();
        put_varint(&mut b, v);
        b
    }

    #[test]
    fn varint_known_encodings() {
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(127), [0x7f]);
        assert_eq!(enc(128), [0x80, 0x01]);
        assert_eq!(enc(300), [0xac, 0x02]);
        assert_eq!(enc(50_000), [0xd0, 0x86, 0x03]);
        assert_eq!(
            enc(u64::MAX),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
        for v in [0, 1, 127, 128, 300, 50_000, u64::MAX, 1 << 63] {
            assert_eq!(varint_size(v), enc(v).len());
            assert_eq!(Reader::new(&enc(v)).varint("x").unwrap(), v);
        }
    }

    #[test]
    fn varint_rejects_non_minimal() {
        for bad in [&[0x80, 0x00][..], &[0xff, 0x00], &[0x81, 0x80, 0x00]] {
            let e = Reader::new(bad).varint("nonce").unwrap_err();
            assert_eq!(e.code(), "NON_MINIMAL_VARINT", "{bad:?}");
            assert!(e.to_string().starts_with("nonce:"));
        }
    }

    #[test]
    fn varint_rejects_overflow_and_eof() {
        let eleven = [0xff; 10];
        assert_eq!(
            Reader::new(&eleven).varint("x").unwrap_err().code(),
            "VARINT_OVERFLOW"
        );
        let mut over = [0xff; 10];
        over[9] = 0x02;
        assert_eq!(
            Reader::new(&over).varint("x").unwrap_err().code(),
            "VARINT_OVERFLOW"
        );
        assert_eq!(
            Reader::new(&[0x80]).varint("x").unwrap_err().code(),
            "UNEXPECTED_EOF"
        );
        assert_eq!(
            Reader::new(&[]).varint("x").unwrap_err().code(),
            "UNEXPECTED_EOF"
        );
    }

    #[test]
    fn length_prefix_is_bounded_by_remaining_input_and_u32() {
        // Declares 5 bytes, only 2 follow.
        let e = Reader::new(&[0x05, 1, 2]).bytes("metadata").unwrap_err();
        assert_eq!(e.code(), "LENGTH_OVERFLOW");
        // 2^32 does not fit a u32 length.
        let e = Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x10])
            .bytes("metadata")
            .unwrap_err();
        assert_eq!(e.code(), "VARINT_OVERFLOW");
        // Count of 3 items of >= 85 bytes with only 100 bytes left.
        let mut b = vec![0x03];
        b.extend_from_slice(&[0u8; 100]);
        assert_eq!(
            Reader::new(&b)
                .len_prefix("signers", 85)
                .unwrap_err()
                .code(),
            "LENGTH_OVERFLOW"
        );
    }

    #[test]
    fn option_tags_and_trailing() {
        assert!(!Reader::new(&[0]).option_tag("o").unwrap());
        assert!(Reader::new(&[1]).option_tag("o").unwrap());
        assert_eq!(
            Reader::new(&[2]).option_tag("o").unwrap_err().code(),
            "INVALID_OPTION_TAG"
        );
        assert_eq!(
            Reader::new(&[1]).finish("t").unwrap_err().code(),
            "TRAILING_BYTES"
        );
    }

    #[test]
    fn strings_must_be_utf8() {
        assert_eq!(Reader::new(&[2, b'h', b'i']).string("s").unwrap(), "hi");
        assert_eq!(
            Reader::new(&[1, 0xff]).string("s").unwrap_err().code(),
            "INVALID_UTF8"
        );
    }
}
