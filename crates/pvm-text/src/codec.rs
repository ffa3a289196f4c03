//! `str.encode` / `bytes.decode` for UTF-8, ASCII and Latin-1 with CPython 3.11's error
//! handlers `strict`, `ignore`, `replace`, `backslashreplace` and (encode only)
//! `xmlcharrefreplace`, and its exact exception messages.

use crate::error::{ErrorKind, TextError};
use core::fmt::Write as _;

/// A supported codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// `utf-8`.
    Utf8,
    /// `ascii`.
    Ascii,
    /// `latin-1` (ISO-8859-1).
    Latin1,
}

impl Codec {
    /// CPython's canonical codec name used in messages (`'utf-8' codec can't ...`).
    pub fn name(self) -> &'static str {
        match self {
            Codec::Utf8 => "utf-8",
            Codec::Ascii => "ascii",
            Codec::Latin1 => "latin-1",
        }
    }

    /// Looks an encoding name up like `codecs.lookup` (case-insensitive, `-`/space/`_`
    /// equivalent, CPython's aliases). Error: `LookupError("unknown encoding: <name>")`.
    pub fn lookup(encoding: &str) -> Result<Codec, TextError> {
        Self::lookup_fast(encoding).map(|(c, _)| c)
    }

    /// [`Codec::lookup`] that also reports whether CPython reaches the codec through its C
    /// fast path (`utf8`, `utf_8`, `ascii`, `us_ascii`, `latin1`, `latin_1`, `iso_8859_1`,
    /// `iso8859_1` after normalisation). Other aliases go through the codec registry, which
    /// wraps error-handler lookup failures ("encoding with 'l1' codec failed (...)").
    pub fn lookup_fast(encoding: &str) -> Result<(Codec, bool), TextError> {
        let mut norm = String::with_capacity(encoding.len());
        let mut pending_sep = false;
        for c in encoding.chars() {
            if c.is_ascii_alphanumeric() || c == '.' {
                if pending_sep && !norm.is_empty() {
                    norm.push('_');
                }
                pending_sep = false;
                norm.push(c.to_ascii_lowercase());
            } else {
                pending_sep = true;
            }
        }
        let codec = match norm.as_str() {
            "utf_8" | "utf8" | "u8" | "utf" | "utf8_ucs2" | "utf8_ucs4" | "cp65001" => Codec::Utf8,
            "ascii" | "646" | "ansi_x3.4_1968" | "ansi_x3_4_1968" | "ansi_x3.4_1986" | "cp367"
            | "csascii" | "ibm367" | "iso646_us" | "iso_646.irv_1991" | "iso_ir_6" | "us"
            | "us_ascii" => Codec::Ascii,
            "latin_1" | "latin1" | "latin" | "l1" | "iso_8859_1" | "iso8859_1" | "8859"
            | "cp819" | "iso_ir_100" | "csisolatin1" | "iso_8859_1_1987" => Codec::Latin1,
            _ => {
                return Err(TextError::new(
                    ErrorKind::Lookup,
                    format!("unknown encoding: {encoding}"),
                ));
            }
        };
        let fast = matches!(
            norm.as_str(),
            "utf8"
                | "utf_8"
                | "ascii"
                | "us_ascii"
                | "latin1"
                | "latin_1"
                | "iso_8859_1"
                | "iso8859_1"
        );
        Ok((codec, fast))
    }
}

/// Wraps a handler lookup failure like CPython's codec registry path does.
fn wrap(e: TextError, fast: bool, op: &str, encoding: &str) -> TextError {
    if fast || e.kind != ErrorKind::Lookup {
        return e;
    }
    TextError::new(
        ErrorKind::Lookup,
        format!(
            "{op} with '{encoding}' codec failed (LookupError: {})",
            e.message
        ),
    )
}

/// An error handler name as given by the caller; unknown names only fail when an error
/// actually occurs (`LookupError("unknown error handler name 'x'")`), as in CPython.
fn handler_error(errors: &str) -> TextError {
    TextError::new(
        ErrorKind::Lookup,
        format!("unknown error handler name '{errors}'"),
    )
}

fn escape_char(c: char, out: &mut String) {
    let cp = c as u32;
    let _ = if cp <= 0xff {
        write!(out, "\\x{cp:02x}")
    } else if cp <= 0xffff {
        write!(out, "\\u{cp:04x}")
    } else {
        write!(out, "\\U{cp:08x}")
    };
}

/// `s.encode(encoding, errors)`. UTF-8 never fails (a Rust `str` has no surrogates).
/// Strict failures raise `UnicodeEncodeError` covering the whole run of unencodable
/// characters: `'ascii' codec can't encode character '\xe9' in position 3: ordinal not in
/// range(128)` or `... can't encode characters in position 3-5: ...` (positions in code points).
pub fn encode(s: &str, encoding: &str, errors: &str) -> Result<Vec<u8>, TextError> {
    let (codec, fast) = Codec::lookup_fast(encoding)?;
    encode_with(s, codec, errors).map_err(|e| wrap(e, fast, "encoding", encoding))
}

/// [`encode`] with an already looked-up codec (errors are never wrapped).
pub fn encode_with(s: &str, codec: Codec, errors: &str) -> Result<Vec<u8>, TextError> {
    let limit: u32 = match codec {
        Codec::Utf8 => return Ok(s.as_bytes().to_vec()),
        Codec::Ascii => 0x80,
        Codec::Latin1 => 0x100,
    };
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c as u32) < limit {
            out.push(c as u32 as u8);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] as u32 >= limit {
            i += 1;
        }
        let run = &chars[start..i];
        match errors {
            "strict" => {
                let mut msg = format!("'{}' codec can't encode ", codec.name());
                if run.len() == 1 {
                    msg.push_str("character '");
                    escape_char(run[0], &mut msg);
                    let _ = write!(msg, "' in position {start}");
                } else {
                    let _ = write!(msg, "characters in position {start}-{}", i - 1);
                }
                let _ = write!(msg, ": ordinal not in range({limit})");
                return Err(TextError::new(ErrorKind::UnicodeEncode, msg));
            }
            "ignore" => {}
            "replace" => out.extend(core::iter::repeat_n(b'?', run.len())),
            "backslashreplace" => {
                let mut t = String::new();
                for &c in run {
                    escape_char(c, &mut t);
                }
                out.extend_from_slice(t.as_bytes());
            }
            "xmlcharrefreplace" => {
                for &c in run {
                    out.extend_from_slice(format!("&#{};", c as u32).as_bytes());
                }
            }
            other => return Err(handler_error(other)),
        }
    }
    Ok(out)
}

fn decode_error(codec: Codec, b: &[u8], start: usize, end: usize, reason: &str) -> TextError {
    let msg = if end - start == 1 {
        format!(
            "'{}' codec can't decode byte 0x{:02x} in position {start}: {reason}",
            codec.name(),
            b[start]
        )
    } else {
        format!(
            "'{}' codec can't decode bytes in position {start}-{}: {reason}",
            codec.name(),
            end - 1
        )
    };
    TextError::new(ErrorKind::UnicodeDecode, msg)
}

/// Applies a decode error handler to `b[start..end]`.
fn handle_decode(
    codec: Codec,
    b: &[u8],
    start: usize,
    end: usize,
    reason: &str,
    errors: &str,
    out: &mut String,
) -> Result<(), TextError> {
    match errors {
        "strict" => Err(decode_error(codec, b, start, end, reason)),
        "ignore" => Ok(()),
        "replace" => {
            out.push('\u{fffd}');
            Ok(())
        }
        "backslashreplace" => {
            for &x in &b[start..end] {
                let _ = write!(out, "\\x{x:02x}");
            }
            Ok(())
        }
        other => Err(handler_error(other)),
    }
}

/// `b.decode(encoding, errors)`. UTF-8 errors follow CPython's classification ("invalid start
/// byte", "invalid continuation byte", "unexpected end of data") and its maximal-subpart
/// ranges (one U+FFFD per range with `replace`); ASCII errors are per byte ("ordinal not in
/// range(128)"); Latin-1 never fails. Error kinds: `UnicodeDecodeError`, `LookupError`.
pub fn decode(b: &[u8], encoding: &str, errors: &str) -> Result<String, TextError> {
    let (codec, fast) = Codec::lookup_fast(encoding)?;
    decode_with(b, codec, errors).map_err(|e| wrap(e, fast, "decoding", encoding))
}

/// [`decode`] with an already looked-up codec (errors are never wrapped).
pub fn decode_with(b: &[u8], codec: Codec, errors: &str) -> Result<String, TextError> {
    match codec {
        Codec::Latin1 => Ok(b.iter().map(|&x| char::from(x)).collect()),
        Codec::Ascii => {
            let mut out = String::with_capacity(b.len());
            for (i, &x) in b.iter().enumerate() {
                if x < 0x80 {
                    out.push(char::from(x));
                } else {
                    handle_decode(
                        codec,
                        b,
                        i,
                        i + 1,
                        "ordinal not in range(128)",
                        errors,
                        &mut out,
                    )?;
                }
            }
            Ok(out)
        }
        Codec::Utf8 => {
            let mut out = String::with_capacity(b.len());
            let mut pos = 0;
            loop {
                match core::str::from_utf8(&b[pos..]) {
                    Ok(s) => {
                        out.push_str(s);
                        return Ok(out);
                    }
                    Err(e) => {
                        let good = e.valid_up_to();
                        out.push_str(core::str::from_utf8(&b[pos..pos + good]).unwrap_or(""));
                        let start = pos + good;
                        let (end, reason) = match e.error_len() {
                            None => (b.len(), "unexpected end of data"),
                            Some(n) => {
                                let lead = b[start];
                                let invalid_start = n == 1 && !(0xc2..=0xf4).contains(&lead);
                                (
                                    start + n,
                                    if invalid_start {
                                        "invalid start byte"
                                    } else {
                                        "invalid continuation byte"
                                    },
                                )
                            }
                        };
                        handle_decode(codec, b, start, end, reason, errors, &mut out)?;
                        pos = end;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding() {
        assert_eq!(
            encode("abcé", "ascii", "strict").unwrap_err().message,
            "'ascii' codec can't encode character '\\xe9' in position 3: ordinal not in range(128)"
        );
        assert_eq!(encode("aé€", "latin-1", "replace").unwrap(), b"a\xe9?");
        assert_eq!(
            encode("é", "US-ASCII", "xmlcharrefreplace").unwrap(),
            b"&#233;"
        );
        assert!(Codec::lookup("utf-16").is_err());
    }

    #[test]
    fn decoding() {
        assert_eq!(
            decode(b"\xff", "utf-8", "strict").unwrap_err().message,
            "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
        );
        assert_eq!(
            decode(b"a\xe2\x82", "utf8", "replace").unwrap(),
            "a\u{fffd}"
        );
        assert_eq!(decode(b"\xe9", "latin1", "strict").unwrap(), "é");
    }
}
