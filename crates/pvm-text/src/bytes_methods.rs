//! Python 3.11 `bytes` / `bytearray` methods as pure functions on `&[u8]` (ASCII semantics).
//!
//! Indices are byte offsets. Whitespace is `Py_ISSPACE`: space, `\t \n \v \f \r` (unlike
//! `str`, not `\x1c`-`\x1f`). Line boundaries are `\n`, `\r`, `\r\n` only. Functions that
//! allocate proportionally to a caller-chosen width expect the caller to have metered it.

use crate::error::{TextError, TextResult};
use crate::slice::adjust_indices;

/// `Py_ISSPACE` for bytes.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

fn find_sub(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    if needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind_sub(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(hay.len());
    }
    if needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn window(len: usize, start: Option<i64>, end: Option<i64>, sub: usize) -> Option<(usize, usize)> {
    let (st, en) = adjust_indices(start, end, len);
    if st > en || en - st < sub {
        return None;
    }
    Some((st, en))
}

/// `bytes.find(sub[, start[, end]])`; `None` where Python returns -1. A single-int needle is
/// passed as a one-byte slice.
pub fn find(b: &[u8], sub: &[u8], start: Option<i64>, end: Option<i64>) -> Option<usize> {
    let (st, en) = window(b.len(), start, end, sub.len())?;
    find_sub(&b[st..en], sub).map(|p| st + p)
}

/// `bytes.rfind(sub[, start[, end]])`.
pub fn rfind(b: &[u8], sub: &[u8], start: Option<i64>, end: Option<i64>) -> Option<usize> {
    let (st, en) = window(b.len(), start, end, sub.len())?;
    rfind_sub(&b[st..en], sub).map(|p| st + p)
}

/// `bytes.count(sub[, start[, end]])`: non-overlapping; empty `sub` counts `len(window)+1`.
pub fn count(b: &[u8], sub: &[u8], start: Option<i64>, end: Option<i64>) -> usize {
    let Some((st, en)) = window(b.len(), start, end, sub.len()) else {
        return 0;
    };
    let hay = &b[st..en];
    if sub.is_empty() {
        return hay.len() + 1;
    }
    let mut n = 0;
    let mut i = 0;
    while let Some(p) = find_sub(&hay[i..], sub) {
        n += 1;
        i += p + sub.len();
    }
    n
}

/// `bytes.startswith(prefix[, start[, end]])` for one prefix.
pub fn startswith(b: &[u8], prefix: &[u8], start: Option<i64>, end: Option<i64>) -> bool {
    window(b.len(), start, end, prefix.len()).is_some_and(|(st, en)| b[st..en].starts_with(prefix))
}

/// `bytes.endswith(suffix[, start[, end]])` for one suffix.
pub fn endswith(b: &[u8], suffix: &[u8], start: Option<i64>, end: Option<i64>) -> bool {
    window(b.len(), start, end, suffix.len()).is_some_and(|(st, en)| b[st..en].ends_with(suffix))
}

/// `bytes.replace(old, new[, count])`; `count < 0` means all; empty `old` inserts `new`
/// between bytes and at both ends.
pub fn replace(b: &[u8], old: &[u8], new: &[u8], count: i64) -> Vec<u8> {
    let max = usize::try_from(count).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(b.len());
    if max == 0 {
        out.extend_from_slice(b);
        return out;
    }
    if old.is_empty() {
        let mut done = 0;
        for &x in b {
            if done < max {
                out.extend_from_slice(new);
                done += 1;
            }
            out.push(x);
        }
        if done < max {
            out.extend_from_slice(new);
        }
        return out;
    }
    let mut rest = b;
    let mut done = 0;
    while done < max {
        match find_sub(rest, old) {
            Some(p) => {
                out.extend_from_slice(&rest[..p]);
                out.extend_from_slice(new);
                rest = &rest[p + old.len()..];
                done += 1;
            }
            None => break,
        }
    }
    out.extend_from_slice(rest);
    out
}

fn empty_separator() -> TextError {
    TextError::value("empty separator")
}

/// `bytes.split(sep=None, maxsplit=-1)` (whitespace rules as for `str`, ASCII whitespace).
pub fn split<'a>(b: &'a [u8], sep: Option<&[u8]>, maxsplit: i64) -> TextResult<Vec<&'a [u8]>> {
    let mut left = usize::try_from(maxsplit).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    match sep {
        None => {
            let mut i = 0;
            let n = b.len();
            loop {
                while i < n && is_space(b[i]) {
                    i += 1;
                }
                if i == n {
                    break;
                }
                if left == 0 {
                    out.push(&b[i..]);
                    break;
                }
                left -= 1;
                let j = i;
                while i < n && !is_space(b[i]) {
                    i += 1;
                }
                out.push(&b[j..i]);
            }
        }
        Some(sep) => {
            if sep.is_empty() {
                return Err(empty_separator());
            }
            let mut rest = b;
            while left > 0 {
                match find_sub(rest, sep) {
                    Some(p) => {
                        out.push(&rest[..p]);
                        rest = &rest[p + sep.len()..];
                        left -= 1;
                    }
                    None => break,
                }
            }
            out.push(rest);
        }
    }
    Ok(out)
}

/// `bytes.rsplit(sep=None, maxsplit=-1)`.
pub fn rsplit<'a>(b: &'a [u8], sep: Option<&[u8]>, maxsplit: i64) -> TextResult<Vec<&'a [u8]>> {
    let mut left = usize::try_from(maxsplit).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    match sep {
        None => {
            let mut i = b.len();
            loop {
                while i > 0 && is_space(b[i - 1]) {
                    i -= 1;
                }
                if i == 0 {
                    break;
                }
                if left == 0 {
                    out.push(&b[..i]);
                    break;
                }
                left -= 1;
                let j = i;
                while i > 0 && !is_space(b[i - 1]) {
                    i -= 1;
                }
                out.push(&b[i..j]);
            }
        }
        Some(sep) => {
            if sep.is_empty() {
                return Err(empty_separator());
            }
            let mut rest = b;
            while left > 0 {
                match rfind_sub(rest, sep) {
                    Some(p) => {
                        out.push(&rest[p + sep.len()..]);
                        rest = &rest[..p];
                        left -= 1;
                    }
                    None => break,
                }
            }
            out.push(rest);
        }
    }
    out.reverse();
    Ok(out)
}

/// `bytes.splitlines(keepends=False)`: `\n`, `\r`, `\r\n`.
pub fn splitlines(b: &[u8], keepends: bool) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let n = b.len();
    while i < n {
        while i < n && b[i] != b'\n' && b[i] != b'\r' {
            i += 1;
        }
        let mut eol = i;
        if i < n {
            if b[i] == b'\r' && i + 1 < n && b[i + 1] == b'\n' {
                i += 2;
            } else {
                i += 1;
            }
            if keepends {
                eol = i;
            }
        }
        out.push(&b[j..eol]);
        j = i;
    }
    out
}

/// `bytes.strip(chars=None)`: `None` strips ASCII whitespace, else any byte in `chars`.
pub fn strip<'a>(b: &'a [u8], chars: Option<&[u8]>) -> &'a [u8] {
    rstrip(lstrip(b, chars), chars)
}

/// `bytes.lstrip(chars=None)`.
pub fn lstrip<'a>(b: &'a [u8], chars: Option<&[u8]>) -> &'a [u8] {
    let keep = |x: u8| match chars {
        None => is_space(x),
        Some(set) => set.contains(&x),
    };
    let i = b.iter().position(|&x| !keep(x)).unwrap_or(b.len());
    &b[i..]
}

/// `bytes.rstrip(chars=None)`.
pub fn rstrip<'a>(b: &'a [u8], chars: Option<&[u8]>) -> &'a [u8] {
    let keep = |x: u8| match chars {
        None => is_space(x),
        Some(set) => set.contains(&x),
    };
    let i = b.iter().rposition(|&x| !keep(x)).map_or(0, |p| p + 1);
    &b[..i]
}

/// Result of `partition`/`rpartition`: `(head, sep, tail)`.
pub type Parts<'a> = (&'a [u8], &'a [u8], &'a [u8]);

/// `bytes.partition(sep)`. Error: `ValueError("empty separator")`.
pub fn partition<'a>(b: &'a [u8], sep: &[u8]) -> TextResult<Parts<'a>> {
    if sep.is_empty() {
        return Err(empty_separator());
    }
    Ok(match find_sub(b, sep) {
        Some(p) => (&b[..p], &b[p..p + sep.len()], &b[p + sep.len()..]),
        None => (b, &b[b.len()..], &b[b.len()..]),
    })
}

/// `bytes.rpartition(sep)`.
pub fn rpartition<'a>(b: &'a [u8], sep: &[u8]) -> TextResult<Parts<'a>> {
    if sep.is_empty() {
        return Err(empty_separator());
    }
    Ok(match rfind_sub(b, sep) {
        Some(p) => (&b[..p], &b[p..p + sep.len()], &b[p + sep.len()..]),
        None => (&b[..0], &b[..0], b),
    })
}

/// `bytes.removeprefix(prefix)`.
pub fn removeprefix<'a>(b: &'a [u8], prefix: &[u8]) -> &'a [u8] {
    b.strip_prefix(prefix).unwrap_or(b)
}

/// `bytes.removesuffix(suffix)`.
pub fn removesuffix<'a>(b: &'a [u8], suffix: &[u8]) -> &'a [u8] {
    b.strip_suffix(suffix).unwrap_or(b)
}

fn pad(b: &[u8], left: usize, right: usize, fill: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() + left + right);
    out.resize(left, fill);
    out.extend_from_slice(b);
    out.resize(left + b.len() + right, fill);
    out
}

fn margin(len: usize, width: i64) -> Option<usize> {
    let w = usize::try_from(width).ok()?;
    (w > len).then(|| w - len)
}

/// `bytes.center(width, fillbyte=b' ')` (same odd-margin rule as `str.center`).
pub fn center(b: &[u8], width: i64, fill: u8) -> Vec<u8> {
    match margin(b.len(), width) {
        None => b.to_vec(),
        Some(m) => {
            let w = usize::try_from(width).unwrap_or(0);
            let left = m / 2 + (m & w & 1);
            pad(b, left, m - left, fill)
        }
    }
}

/// `bytes.ljust(width, fillbyte=b' ')`.
pub fn ljust(b: &[u8], width: i64, fill: u8) -> Vec<u8> {
    margin(b.len(), width).map_or_else(|| b.to_vec(), |m| pad(b, 0, m, fill))
}

/// `bytes.rjust(width, fillbyte=b' ')`.
pub fn rjust(b: &[u8], width: i64, fill: u8) -> Vec<u8> {
    margin(b.len(), width).map_or_else(|| b.to_vec(), |m| pad(b, m, 0, fill))
}

/// `bytes.zfill(width)`: zero-pads after a leading `+`/`-`.
pub fn zfill(b: &[u8], width: i64) -> Vec<u8> {
    match margin(b.len(), width) {
        None => b.to_vec(),
        Some(m) => {
            let mut out = pad(b, m, 0, b'0');
            if matches!(out.get(m), Some(b'+' | b'-')) {
                out[0] = out[m];
                out[m] = b'0';
            }
            out
        }
    }
}

/// `bytes.expandtabs(tabsize=8)`: column resets after `\n`/`\r`; `tabsize <= 0` drops tabs.
pub fn expandtabs(b: &[u8], tabsize: i64) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    let mut col: u64 = 0;
    for &x in b {
        match x {
            b'\t' => {
                if tabsize > 0 {
                    let t = tabsize.unsigned_abs();
                    let n = t - col % t;
                    out.resize(out.len() + usize::try_from(n).unwrap_or(0), b' ');
                    col += n;
                }
            }
            b'\n' | b'\r' => {
                out.push(x);
                col = 0;
            }
            _ => {
                out.push(x);
                col += 1;
            }
        }
    }
    out
}

/// `bytes.upper()` (ASCII only).
pub fn upper(b: &[u8]) -> Vec<u8> {
    b.to_ascii_uppercase()
}

/// `bytes.lower()` (ASCII only).
pub fn lower(b: &[u8]) -> Vec<u8> {
    b.to_ascii_lowercase()
}

/// `bytes.swapcase()` (ASCII only).
pub fn swapcase(b: &[u8]) -> Vec<u8> {
    b.iter()
        .map(|&x| {
            if x.is_ascii_uppercase() {
                x.to_ascii_lowercase()
            } else {
                x.to_ascii_uppercase()
            }
        })
        .collect()
}

/// `bytes.capitalize()`: first byte uppercased, the rest lowercased (ASCII).
pub fn capitalize(b: &[u8]) -> Vec<u8> {
    b.iter()
        .enumerate()
        .map(|(i, &x)| {
            if i == 0 {
                x.to_ascii_uppercase()
            } else {
                x.to_ascii_lowercase()
            }
        })
        .collect()
}

/// `bytes.title()`: uppercase after a non-letter, lowercase after a letter (ASCII).
pub fn title(b: &[u8]) -> Vec<u8> {
    let mut prev = false;
    b.iter()
        .map(|&x| {
            let r = if prev {
                x.to_ascii_lowercase()
            } else {
                x.to_ascii_uppercase()
            };
            prev = x.is_ascii_alphabetic();
            r
        })
        .collect()
}

fn all_nonempty(b: &[u8], f: impl Fn(&u8) -> bool) -> bool {
    !b.is_empty() && b.iter().all(f)
}

/// `bytes.isalpha()`.
pub fn isalpha(b: &[u8]) -> bool {
    all_nonempty(b, u8::is_ascii_alphabetic)
}

/// `bytes.isalnum()`.
pub fn isalnum(b: &[u8]) -> bool {
    all_nonempty(b, u8::is_ascii_alphanumeric)
}

/// `bytes.isdigit()`.
pub fn isdigit(b: &[u8]) -> bool {
    all_nonempty(b, u8::is_ascii_digit)
}

/// `bytes.isspace()`.
pub fn isspace(b: &[u8]) -> bool {
    all_nonempty(b, |&x| is_space(x))
}

/// `bytes.isascii()` (true when empty).
pub fn isascii(b: &[u8]) -> bool {
    b.is_ascii()
}

/// `bytes.islower()`: no uppercase and at least one lowercase ASCII letter.
pub fn islower(b: &[u8]) -> bool {
    !b.iter().any(u8::is_ascii_uppercase) && b.iter().any(u8::is_ascii_lowercase)
}

/// `bytes.isupper()`: no lowercase and at least one uppercase ASCII letter.
pub fn isupper(b: &[u8]) -> bool {
    !b.iter().any(u8::is_ascii_lowercase) && b.iter().any(u8::is_ascii_uppercase)
}

/// `bytes.istitle()` (ASCII version of `str.istitle`).
pub fn istitle(b: &[u8]) -> bool {
    let (mut cased, mut prev) = (false, false);
    for &x in b {
        if x.is_ascii_uppercase() {
            if prev {
                return false;
            }
            prev = true;
            cased = true;
        } else if x.is_ascii_lowercase() {
            if !prev {
                return false;
            }
            prev = true;
            cased = true;
        } else {
            prev = false;
        }
    }
    cased
}

/// `bytes.maketrans(from, to)`. Error: `ValueError("maketrans arguments must have same length")`.
pub fn maketrans(from: &[u8], to: &[u8]) -> TextResult<[u8; 256]> {
    if from.len() != to.len() {
        return Err(TextError::value(
            "maketrans arguments must have same length",
        ));
    }
    let mut t = [0u8; 256];
    for (i, v) in t.iter_mut().enumerate() {
        *v = i as u8;
    }
    for (&f, &x) in from.iter().zip(to) {
        t[usize::from(f)] = x;
    }
    Ok(t)
}

/// `bytes.translate(table, delete=b'')`; `table = None` only deletes. (The core checks that
/// a given table has exactly 256 bytes: "translation table must be 256 characters long".)
pub fn translate(b: &[u8], table: Option<&[u8; 256]>, delete: &[u8]) -> Vec<u8> {
    b.iter()
        .filter(|x| !delete.contains(x))
        .map(|&x| table.map_or(x, |t| t[usize::from(x)]))
        .collect()
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `bytes.hex(sep=None, bytes_per_sep=1)`: lowercase hex; with `sep`, a separator every
/// `|bytes_per_sep|` bytes counted from the right (positive) or left (negative);
/// `bytes_per_sep == 0` means no separator. `sep` must be one ASCII character
/// (`ValueError("sep must be length 1.")` / `ValueError("sep must be ASCII.")`; the core passes
/// str or bytes separators as text).
pub fn hex(b: &[u8], sep: Option<&str>, bytes_per_sep: i64) -> TextResult<String> {
    let sep = match sep {
        None => None,
        Some(s) => {
            let mut it = s.chars();
            let (Some(c), None) = (it.next(), it.next()) else {
                return Err(TextError::value("sep must be length 1."));
            };
            if !c.is_ascii() {
                return Err(TextError::value("sep must be ASCII."));
            }
            Some(c)
        }
    };
    let group = usize::try_from(bytes_per_sep.unsigned_abs()).unwrap_or(usize::MAX);
    let mut out = String::with_capacity(b.len() * 3);
    let n = b.len();
    for (i, &x) in b.iter().enumerate() {
        if let Some(c) = sep
            && group > 0
            && i > 0
        {
            let boundary = if bytes_per_sep > 0 {
                (n - i).is_multiple_of(group)
            } else {
                i.is_multiple_of(group)
            };
            if boundary {
                out.push(c);
            }
        }
        out.push(HEX[usize::from(x >> 4)] as char);
        out.push(HEX[usize::from(x & 15)] as char);
    }
    Ok(out)
}

/// `bytes.fromhex(s)`: pairs of hex digits, ASCII whitespace allowed between pairs.
/// Error: `ValueError("non-hexadecimal number found in fromhex() arg at position N")`
/// (N in code points: the first non-ASCII code point, else the first bad character, or the
/// length when the last pair is incomplete).
pub fn fromhex(s: &str) -> TextResult<Vec<u8>> {
    let err = |pos: usize| {
        TextError::value(format!(
            "non-hexadecimal number found in fromhex() arg at position {pos}"
        ))
    };
    if let Some(pos) = s.chars().position(|c| !c.is_ascii()) {
        // CPython rejects a non-ASCII argument at its first non-ASCII code point.
        return Err(err(pos));
    }
    fromhex_ascii(s.as_bytes()).map_err(|p| err(p.unwrap_or(s.len())))
}

/// Scans ASCII hex text; `Err(Some(pos))` at a bad byte, `Err(None)` when a pair is cut by
/// the end.
fn fromhex_ascii(b: &[u8]) -> Result<Vec<u8>, Option<usize>> {
    let val = |x: u8| (x as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(b.len() / 2);
    let mut i = 0;
    while i < b.len() {
        if is_space(b[i]) {
            i += 1;
            continue;
        }
        let hi = val(b[i]).ok_or(Some(i))?;
        i += 1;
        if i >= b.len() {
            return Err(None);
        }
        let lo = val(b[i]).ok_or(Some(i))?;
        i += 1;
        out.push((hi << 4) | lo);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        assert_eq!(
            split(b" a\x1cb  c ", None, -1).unwrap(),
            [&b"a\x1cb"[..], b"c"]
        );
        assert_eq!(find(b"hello", b"l", Some(3), None), Some(3));
        assert_eq!(count(b"aaaa", b"", None, None), 5);
        assert_eq!(zfill(b"-7", 4), b"-007");
        assert_eq!(title(b"hello wORLD"), b"Hello World");
        assert_eq!(hex(b"\x01\x02\x03", Some(":"), 2).unwrap(), "01:0203");
        assert_eq!(hex(b"\x01\x02\x03", Some(":"), -2).unwrap(), "0102:03");
        assert_eq!(fromhex("0a ff").unwrap(), b"\x0a\xff");
        assert!(fromhex("a").is_err());
    }
}
