//! `repr()` of `str`, `bytes` and `bytearray` exactly as CPython 3.11 prints them.

use crate::unicode;
use core::fmt::Write as _;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Quote CPython picks: `"` only when the text contains `'` but no `"`.
fn pick_quote(has_single: bool, has_double: bool) -> char {
    if has_single && !has_double { '"' } else { '\'' }
}

/// Appends the body of a str repr (no quotes) escaping `quote`, as `unicode_repr` does:
/// `\\`, `\t`, `\n`, `\r`, `\xNN` for other ASCII controls and DEL, and for non-ASCII
/// code points that are not printable `\xNN` / `\uNNNN` / `\UNNNNNNNN`.
pub fn push_str_repr_body(s: &str, quote: char, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c == '\x7f' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_ascii() || unicode::is_printable(c) => out.push(c),
            c => {
                let cp = c as u32;
                let _ = if cp <= 0xff {
                    write!(out, "\\x{cp:02x}")
                } else if cp <= 0xffff {
                    write!(out, "\\u{cp:04x}")
                } else {
                    write!(out, "\\U{cp:08x}")
                };
            }
        }
    }
}

/// `repr(s)` for a `str`.
pub fn str_repr(s: &str) -> String {
    let quote = pick_quote(s.contains('\''), s.contains('"'));
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    push_str_repr_body(s, quote, &mut out);
    out.push(quote);
    out
}

/// `ascii(s)`: like `repr` but every non-ASCII code point is escaped.
pub fn str_ascii(s: &str) -> String {
    let r = str_repr(s);
    let mut out = String::with_capacity(r.len());
    for c in r.chars() {
        let cp = c as u32;
        let _ = if cp < 0x80 {
            out.push(c);
            Ok(())
        } else if cp <= 0xff {
            write!(out, "\\x{cp:02x}")
        } else if cp <= 0xffff {
            write!(out, "\\u{cp:04x}")
        } else {
            write!(out, "\\U{cp:08x}")
        };
    }
    out
}

/// Repr of a bytes-like value with `prefix` before the quote (`"b"` for `bytes`).
/// Escapes `\\`, the quote, `\t \n \r`, and bytes outside `0x20..0x7f` as `\xNN`.
pub fn bytes_repr(b: &[u8], prefix: &str) -> String {
    bytes_repr_impl(b, prefix, false)
}

fn bytes_repr_impl(b: &[u8], prefix: &str, always_escape_single: bool) -> String {
    let quote = pick_quote(b.contains(&b'\''), b.contains(&b'"')) as u8;
    let mut out = String::with_capacity(b.len() + prefix.len() + 2);
    out.push_str(prefix);
    out.push(quote as char);
    for &x in b {
        match x {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            x if x == quote || (always_escape_single && x == b'\'') => {
                out.push('\\');
                out.push(x as char);
            }
            0x20..=0x7e => out.push(x as char),
            _ => {
                out.push_str("\\x");
                out.push(HEX[usize::from(x >> 4)] as char);
                out.push(HEX[usize::from(x & 15)] as char);
            }
        }
    }
    out.push(quote as char);
    out
}

/// `repr(bytearray)`: `bytearray(b'...')`. Like CPython's `bytearray_repr`, a `'` is
/// escaped even when the literal is delimited by `"`.
pub fn bytearray_repr(b: &[u8]) -> String {
    format!("bytearray({})", bytes_repr_impl(b, "b", true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strs() {
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("'\""), "'\\'\"'");
        assert_eq!(
            str_repr("a\u{a0}\u{200b}\u{e0001}é\x7f"),
            "'a\\xa0\\u200b\\U000e0001é\\x7f'"
        );
        assert_eq!(str_ascii("é😀"), "'\\xe9\\U0001f600'");
    }

    #[test]
    fn bytes() {
        assert_eq!(bytes_repr(b"a'\x00\xff", "b"), "b\"a'\\x00\\xff\"");
        assert_eq!(bytearray_repr(b"\t"), "bytearray(b'\\t')");
    }
}
