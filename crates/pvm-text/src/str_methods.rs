//! Python 3.11 `str` methods as pure functions on `&str`.
//!
//! Indices and lengths are in code points (Python's `len(s)`), never UTF-8 bytes.
//! Every function documents the CPython method it mirrors. Functions that allocate
//! proportionally to a caller-chosen width (`center`, `zfill`, `expandtabs`, ...) expect the
//! caller to have bounded/metered that width beforehand.

use crate::error::{TextError, TextResult};
use crate::slice::adjust_indices;
use crate::unicode;
use memchr::memmem;

/// Python `len(s)`: the number of code points.
pub fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Byte offset of code point `idx` in `s` (clamped to `s.len()` when `idx >= len`).
pub fn byte_offset(s: &str, idx: usize) -> usize {
    s.char_indices().nth(idx).map_or(s.len(), |(b, _)| b)
}

/// Sub-slice by code point window `[start, end)`, both clamped to the string.
pub fn char_slice(s: &str, start: usize, end: usize) -> &str {
    if start >= end {
        return "";
    }
    let b0 = byte_offset(s, start);
    let b1 = b0 + byte_offset(&s[b0..], end - start);
    &s[b0..b1]
}

/// The window `[start, end)` (code points) for `find`-style methods with its byte range,
/// or `None` when the window cannot hold `needle_chars` code points.
fn window(
    s: &str,
    start: Option<i64>,
    end: Option<i64>,
    needle_chars: usize,
) -> Option<(usize, usize, usize)> {
    let len = char_len(s);
    let (st, en) = adjust_indices(start, end, len);
    if st > en || en - st < needle_chars {
        return None;
    }
    if len == s.len() {
        // ASCII: code point indices are byte offsets
        return Some((st, st, en));
    }
    let b0 = byte_offset(s, st);
    let b1 = if en == len {
        s.len()
    } else {
        b0 + byte_offset(&s[b0..], en - st)
    };
    Some((st, b0, b1))
}

/// Byte offset of the first occurrence of `needle` in `hay` (`Some(0)` for an empty needle).
/// A match of a UTF-8 needle in UTF-8 text starts and ends on character boundaries.
#[inline]
fn find_bytes(hay: &str, needle: &str) -> Option<usize> {
    match needle.as_bytes() {
        [b] => memchr::memchr(*b, hay.as_bytes()),
        n => memmem::find(hay.as_bytes(), n),
    }
}

/// Byte offset of the last occurrence of `needle` in `hay` (`Some(hay.len())` for an empty
/// needle).
#[inline]
fn rfind_bytes(hay: &str, needle: &str) -> Option<usize> {
    match needle.as_bytes() {
        [b] => memchr::memrchr(*b, hay.as_bytes()),
        n => memmem::rfind(hay.as_bytes(), n),
    }
}

/// `str.find(sub[, start[, end]])`: lowest code point index of `sub` within the window,
/// `None` where Python returns -1 (`str.index` raises "substring not found" instead).
pub fn find(s: &str, sub: &str, start: Option<i64>, end: Option<i64>) -> Option<usize> {
    let (st, b0, b1) = window(s, start, end, char_len(sub))?;
    let hay = &s[b0..b1];
    find_bytes(hay, sub).map(|p| st + char_len(&hay[..p]))
}

/// `str.rfind(sub[, start[, end]])`: highest index of `sub` within the window.
pub fn rfind(s: &str, sub: &str, start: Option<i64>, end: Option<i64>) -> Option<usize> {
    let (st, b0, b1) = window(s, start, end, char_len(sub))?;
    let hay = &s[b0..b1];
    rfind_bytes(hay, sub).map(|p| st + char_len(&hay[..p]))
}

/// `str.count(sub[, start[, end]])`: non-overlapping occurrences; an empty `sub` counts
/// every position in the window (`len(window) + 1`), 0 when `start > len`.
pub fn count(s: &str, sub: &str, start: Option<i64>, end: Option<i64>) -> usize {
    let Some((_, b0, b1)) = window(s, start, end, char_len(sub)) else {
        return 0;
    };
    let hay = &s[b0..b1];
    if sub.is_empty() {
        return char_len(hay) + 1;
    }
    match sub.as_bytes() {
        [b] => memchr::memchr_iter(*b, hay.as_bytes()).count(),
        n => memmem::find_iter(hay.as_bytes(), n).count(),
    }
}

/// `str.startswith(prefix[, start[, end]])` for a single prefix (the core loops over tuples).
pub fn startswith(s: &str, prefix: &str, start: Option<i64>, end: Option<i64>) -> bool {
    match window(s, start, end, char_len(prefix)) {
        Some((_, b0, b1)) => s[b0..b1].starts_with(prefix),
        None => false,
    }
}

/// `str.endswith(suffix[, start[, end]])` for a single suffix.
pub fn endswith(s: &str, suffix: &str, start: Option<i64>, end: Option<i64>) -> bool {
    match window(s, start, end, char_len(suffix)) {
        Some((_, b0, b1)) => s[b0..b1].ends_with(suffix),
        None => false,
    }
}

/// `str.replace(old, new[, count])`; `count < 0` means all. An empty `old` inserts `new`
/// before every code point and at the end (`'ab'.replace('', '-') == '-a-b-'`).
pub fn replace(s: &str, old: &str, new: &str, count: i64) -> String {
    let max = usize::try_from(count).unwrap_or(usize::MAX);
    if max == 0 {
        return s.to_owned();
    }
    if old.is_empty() {
        let mut out = String::with_capacity(s.len());
        let mut done = 0usize;
        for c in s.chars() {
            if done < max {
                out.push_str(new);
                done += 1;
            }
            out.push(c);
        }
        if done < max {
            out.push_str(new);
        }
        return out;
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for p in memmem::find_iter(s.as_bytes(), old.as_bytes()).take(max) {
        out.push_str(&s[last..p]);
        out.push_str(new);
        last = p + old.len();
    }
    out.push_str(&s[last..]);
    out
}

fn empty_separator() -> TextError {
    TextError::value("empty separator")
}

fn maxcount(maxsplit: i64) -> usize {
    usize::try_from(maxsplit).unwrap_or(usize::MAX)
}

/// `str.split(sep=None, maxsplit=-1)`.
///
/// With `sep = None` splits on runs of Python whitespace (`str.isspace`), dropping empty
/// strings, and after `maxsplit` splits returns the rest with its leading whitespace removed.
/// With a separator, errors with `ValueError("empty separator")` if it is empty.
pub fn split<'a>(s: &'a str, sep: Option<&str>, maxsplit: i64) -> TextResult<Vec<&'a str>> {
    let mut left = maxcount(maxsplit);
    let mut out = Vec::new();
    match sep {
        None if s.is_ascii() => {
            // the same runs, found byte by byte (every ASCII whitespace is one byte)
            let b = s.as_bytes();
            let space = |c: u8| unicode::is_space(char::from(c));
            let mut i = 0;
            loop {
                while i < b.len() && space(b[i]) {
                    i += 1;
                }
                if i == b.len() {
                    break;
                }
                if left == 0 {
                    out.push(&s[i..]);
                    break;
                }
                left -= 1;
                let start = i;
                while i < b.len() && !space(b[i]) {
                    i += 1;
                }
                out.push(&s[start..i]);
            }
        }
        None => {
            let mut rest = s;
            loop {
                rest = rest.trim_start_matches(unicode::is_space);
                if rest.is_empty() {
                    break;
                }
                if left == 0 {
                    out.push(rest);
                    break;
                }
                left -= 1;
                let end = rest.find(unicode::is_space).unwrap_or(rest.len());
                out.push(&rest[..end]);
                rest = &rest[end..];
            }
        }
        Some(sep) => {
            if sep.is_empty() {
                return Err(empty_separator());
            }
            // non-overlapping matches from the left, as repeated `find` on the rest gives
            let mut start = 0;
            if left > 0 {
                let mut take = |p: usize| {
                    out.push(&s[start..p]);
                    start = p + sep.len();
                    left -= 1;
                    left > 0
                };
                match sep.as_bytes() {
                    [c] => {
                        for p in memchr::memchr_iter(*c, s.as_bytes()) {
                            if !take(p) {
                                break;
                            }
                        }
                    }
                    n => {
                        for p in memmem::find_iter(s.as_bytes(), n) {
                            if !take(p) {
                                break;
                            }
                        }
                    }
                }
            }
            out.push(&s[start..]);
        }
    }
    Ok(out)
}

/// `str.rsplit(sep=None, maxsplit=-1)`: like [`split`] but splitting from the right.
pub fn rsplit<'a>(s: &'a str, sep: Option<&str>, maxsplit: i64) -> TextResult<Vec<&'a str>> {
    let mut left = maxcount(maxsplit);
    let mut out = Vec::new();
    match sep {
        None => {
            let mut rest = s;
            loop {
                rest = rest.trim_end_matches(unicode::is_space);
                if rest.is_empty() {
                    break;
                }
                if left == 0 {
                    out.push(rest);
                    break;
                }
                left -= 1;
                let start = rest
                    .char_indices()
                    .rev()
                    .find(|&(_, c)| unicode::is_space(c))
                    .map_or(0, |(b, c)| b + c.len_utf8());
                out.push(&rest[start..]);
                rest = &rest[..start];
            }
        }
        Some(sep) => {
            if sep.is_empty() {
                return Err(empty_separator());
            }
            let mut rest = s;
            while left > 0 {
                match rest.rfind(sep) {
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

/// Python's `str` line boundaries (`\n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029`).
pub fn is_linebreak(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// `str.splitlines(keepends=False)`: `\r\n` counts as one boundary; no trailing empty line.
pub fn splitlines(s: &str, keepends: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut iter = s.char_indices().peekable();
    while let Some((b, c)) = iter.next() {
        if !is_linebreak(c) {
            continue;
        }
        let mut after = b + c.len_utf8();
        if c == '\r' && matches!(iter.peek(), Some(&(_, '\n'))) {
            iter.next();
            after += 1;
        }
        out.push(&s[start..if keepends { after } else { b }]);
        start = after;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// `str.strip(chars=None)`: `None` strips Python whitespace, otherwise any code point in `chars`.
pub fn strip<'a>(s: &'a str, chars: Option<&str>) -> &'a str {
    rstrip(lstrip(s, chars), chars)
}

/// `str.lstrip(chars=None)`.
pub fn lstrip<'a>(s: &'a str, chars: Option<&str>) -> &'a str {
    match chars {
        None => s.trim_start_matches(unicode::is_space),
        Some(set) => s.trim_start_matches(|c| set.contains(c)),
    }
}

/// `str.rstrip(chars=None)`.
pub fn rstrip<'a>(s: &'a str, chars: Option<&str>) -> &'a str {
    match chars {
        None => s.trim_end_matches(unicode::is_space),
        Some(set) => s.trim_end_matches(|c| set.contains(c)),
    }
}

/// `str.partition(sep)`: `(head, sep, tail)` at the first `sep`, or `(s, "", "")`.
/// Errors with `ValueError("empty separator")`.
pub fn partition<'a>(s: &'a str, sep: &str) -> TextResult<(&'a str, &'a str, &'a str)> {
    if sep.is_empty() {
        return Err(empty_separator());
    }
    Ok(match find_bytes(s, sep) {
        Some(p) => (&s[..p], &s[p..p + sep.len()], &s[p + sep.len()..]),
        None => (s, "", ""),
    })
}

/// `str.rpartition(sep)`: split at the last `sep`, or `("", "", s)`.
pub fn rpartition<'a>(s: &'a str, sep: &str) -> TextResult<(&'a str, &'a str, &'a str)> {
    if sep.is_empty() {
        return Err(empty_separator());
    }
    Ok(match rfind_bytes(s, sep) {
        Some(p) => (&s[..p], &s[p..p + sep.len()], &s[p + sep.len()..]),
        None => ("", "", s),
    })
}

/// `str.removeprefix(prefix)`.
pub fn removeprefix<'a>(s: &'a str, prefix: &str) -> &'a str {
    s.strip_prefix(prefix).unwrap_or(s)
}

/// `str.removesuffix(suffix)`.
pub fn removesuffix<'a>(s: &'a str, suffix: &str) -> &'a str {
    s.strip_suffix(suffix).unwrap_or(s)
}

fn pad(s: &str, left: usize, right: usize, fill: char) -> String {
    let mut out = String::with_capacity(s.len() + (left + right) * fill.len_utf8());
    out.extend(core::iter::repeat_n(fill, left));
    out.push_str(s);
    out.extend(core::iter::repeat_n(fill, right));
    out
}

fn margin(s: &str, width: i64) -> Option<usize> {
    let len = char_len(s);
    let w = usize::try_from(width).ok()?;
    (w > len).then(|| w - len)
}

/// `str.center(width, fillchar=' ')`: CPython puts the extra fill on the left when
/// both the margin and `width` are odd (`left = marg/2 + (marg & width & 1)`).
pub fn center(s: &str, width: i64, fill: char) -> String {
    match margin(s, width) {
        None => s.to_owned(),
        Some(marg) => {
            let w = usize::try_from(width).unwrap_or(0);
            let left = marg / 2 + (marg & w & 1);
            pad(s, left, marg - left, fill)
        }
    }
}

/// `str.ljust(width, fillchar=' ')`.
pub fn ljust(s: &str, width: i64, fill: char) -> String {
    match margin(s, width) {
        None => s.to_owned(),
        Some(marg) => pad(s, 0, marg, fill),
    }
}

/// `str.rjust(width, fillchar=' ')`.
pub fn rjust(s: &str, width: i64, fill: char) -> String {
    match margin(s, width) {
        None => s.to_owned(),
        Some(marg) => pad(s, marg, 0, fill),
    }
}

/// `str.zfill(width)`: left-pads with `0`, keeping a leading `+`/`-` in front.
pub fn zfill(s: &str, width: i64) -> String {
    match margin(s, width) {
        None => s.to_owned(),
        Some(marg) => {
            let (sign, rest) = match s.chars().next() {
                Some(c @ ('+' | '-')) => (Some(c), &s[1..]),
                _ => (None, s),
            };
            let mut out = String::with_capacity(s.len() + marg);
            if let Some(c) = sign {
                out.push(c);
            }
            out.extend(core::iter::repeat_n('0', marg));
            out.push_str(rest);
            out
        }
    }
}

/// `str.expandtabs(tabsize=8)`: the column resets after `\n` and `\r`; `tabsize <= 0`
/// deletes tabs.
pub fn expandtabs(s: &str, tabsize: i64) -> String {
    let mut out = String::with_capacity(s.len());
    let mut col: u64 = 0;
    for c in s.chars() {
        match c {
            '\t' => {
                if tabsize > 0 {
                    let t = tabsize.unsigned_abs();
                    let n = t - col % t;
                    out.extend(core::iter::repeat_n(' ', usize::try_from(n).unwrap_or(0)));
                    col += n;
                }
            }
            '\n' | '\r' => {
                out.push(c);
                col = 0;
            }
            _ => {
                out.push(c);
                col += 1;
            }
        }
    }
    out
}

/// Final-sigma aware lowercase of the code point at `i` (CPython `lower_ucs4`).
fn push_lower_ctx(chars: &[char], i: usize, out: &mut String) {
    let c = chars[i];
    if c == '\u{3a3}' {
        out.push(capital_sigma(chars, i));
    } else {
        unicode::push_lower(c, out);
    }
}

/// CPython `handle_capital_sigma`: `ς` when Σ ends a cased word, else `σ`.
fn capital_sigma(chars: &[char], i: usize) -> char {
    let before = chars[..i]
        .iter()
        .rev()
        .find(|&&c| !unicode::is_case_ignorable(c));
    let mut final_sigma = before.is_some_and(|&c| unicode::is_cased(c));
    if final_sigma {
        let after = chars[i + 1..]
            .iter()
            .find(|&&c| !unicode::is_case_ignorable(c));
        final_sigma = after.is_none_or(|&c| !unicode::is_cased(c));
    }
    if final_sigma { '\u{3c2}' } else { '\u{3c3}' }
}

/// `str.lower()`: full lowercase mapping with the Final_Sigma rule for `Σ`.
pub fn lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for i in 0..chars.len() {
        push_lower_ctx(&chars, i, &mut out);
    }
    out
}

/// `str.upper()`: full uppercase mapping (`'ß'.upper() == 'SS'`).
pub fn upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        unicode::push_upper(c, &mut out);
    }
    out
}

/// `str.casefold()`: full case folding.
pub fn casefold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        unicode::push_fold(c, &mut out);
    }
    out
}

/// `str.swapcase()`: uppercase code points are lowercased (Final_Sigma aware), lowercase
/// ones uppercased, others kept.
pub fn swapcase(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if unicode::is_upper(c) {
            push_lower_ctx(&chars, i, &mut out);
        } else if unicode::is_lower(c) {
            unicode::push_upper(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// `str.capitalize()` (3.8+): titlecase the first code point, lowercase the rest.
pub fn capitalize(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for i in 0..chars.len() {
        if i == 0 {
            unicode::push_title(chars[0], &mut out);
        } else {
            push_lower_ctx(&chars, i, &mut out);
        }
    }
    out
}

/// `str.title()`: titlecase after an uncased code point, lowercase after a cased one.
pub fn title(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut prev_cased = false;
    for (i, &c) in chars.iter().enumerate() {
        if prev_cased {
            push_lower_ctx(&chars, i, &mut out);
        } else {
            unicode::push_title(c, &mut out);
        }
        prev_cased = unicode::is_cased(c);
    }
    out
}

fn all_nonempty(s: &str, pred: impl Fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(pred)
}

/// `str.isalpha()`.
pub fn isalpha(s: &str) -> bool {
    all_nonempty(s, unicode::is_alpha)
}

/// `str.isalnum()`.
pub fn isalnum(s: &str) -> bool {
    all_nonempty(s, unicode::is_alnum)
}

/// `str.isdecimal()`.
pub fn isdecimal(s: &str) -> bool {
    all_nonempty(s, unicode::is_decimal)
}

/// `str.isdigit()`.
pub fn isdigit(s: &str) -> bool {
    all_nonempty(s, unicode::is_digit)
}

/// `str.isnumeric()`.
pub fn isnumeric(s: &str) -> bool {
    all_nonempty(s, unicode::is_numeric)
}

/// `str.isspace()` (Python's whitespace: bidi WS/B/S or Zs).
pub fn isspace(s: &str) -> bool {
    all_nonempty(s, unicode::is_space)
}

/// `str.isascii()` (true for the empty string).
pub fn isascii(s: &str) -> bool {
    s.is_ascii()
}

/// `str.isprintable()` (true for the empty string).
pub fn isprintable(s: &str) -> bool {
    s.chars().all(unicode::is_printable)
}

/// `str.isidentifier()`: XID_Start or `_`, then XID_Continue (keywords are identifiers).
pub fn isidentifier(s: &str) -> bool {
    let mut it = s.chars();
    match it.next() {
        Some(c) if unicode::is_id_start(c) => it.all(unicode::is_id_continue),
        _ => false,
    }
}

/// `str.islower()`: no uppercase/titlecase code point and at least one lowercase one.
pub fn islower(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if unicode::is_upper(c) || unicode::is_title(c) {
            return false;
        }
        cased |= unicode::is_lower(c);
    }
    cased
}

/// `str.isupper()`: no lowercase/titlecase code point and at least one uppercase one.
pub fn isupper(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if unicode::is_lower(c) || unicode::is_title(c) {
            return false;
        }
        cased |= unicode::is_upper(c);
    }
    cased
}

/// `str.istitle()`: uppercase/titlecase only after uncased, lowercase only after cased,
/// and at least one cased code point.
pub fn istitle(s: &str) -> bool {
    let mut cased = false;
    let mut prev_cased = false;
    for c in s.chars() {
        if unicode::is_upper(c) || unicode::is_title(c) {
            if prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else if unicode::is_lower(c) {
            if !prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else {
            prev_cased = false;
        }
    }
    cased
}

/// What `str.translate` does with one code point (the core looks it up in the table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Translation {
    /// The table maps it to `None`: drop the code point.
    Delete,
    /// The table maps it to a str (or an int converted by the core with `chr`).
    Replace(String),
    /// The lookup raised `LookupError`: keep the code point.
    Keep,
}

/// `str.translate(table)` driven by `lookup`; the first lookup error aborts the call.
pub fn translate<E>(
    s: &str,
    mut lookup: impl FnMut(char) -> Result<Translation, E>,
) -> Result<String, E> {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match lookup(c)? {
            Translation::Delete => {}
            Translation::Replace(r) => out.push_str(&r),
            Translation::Keep => out.push(c),
        }
    }
    Ok(out)
}

/// `str.maketrans(x, y[, z])` (the two/three-argument forms; the one-argument dict form is
/// the core's): pairs `(code point, Some(replacement) | None for deletion)` sorted by code
/// point, later duplicates winning as in a dict. Error: `ValueError("the first two maketrans
/// arguments must have equal length")`.
pub fn maketrans(x: &str, y: &str, z: Option<&str>) -> TextResult<Vec<(char, Option<char>)>> {
    if char_len(x) != char_len(y) {
        return Err(TextError::value(
            "the first two maketrans arguments must have equal length",
        ));
    }
    let mut map: std::collections::BTreeMap<char, Option<char>> =
        x.chars().zip(y.chars().map(Some)).collect();
    for c in z.unwrap_or("").chars() {
        map.insert(c, None);
    }
    Ok(map.into_iter().collect())
}

/// `ValueError("substring not found")` raised by `str.index`/`rindex` (and bytes) when
/// [`find`]/[`rfind`] return `None`.
pub fn substring_not_found() -> TextError {
    TextError::value("substring not found")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_family() {
        assert_eq!(find("héllo", "l", None, None), Some(2));
        assert_eq!(rfind("héllo", "l", None, Some(-1)), Some(3));
        assert_eq!(find("abc", "", Some(3), None), Some(3));
        assert_eq!(find("abc", "", Some(4), None), None);
        assert_eq!(count("abc", "", None, None), 4);
        assert_eq!(count("aaaa", "aa", None, None), 2);
        assert!(startswith("abc", "", Some(3), None));
        assert!(!startswith("abc", "", Some(4), None));
    }

    #[test]
    fn splitting() {
        assert_eq!(split("  a b  c ", None, 1).unwrap(), ["a", "b  c "]);
        assert_eq!(rsplit("  a b  c ", None, 1).unwrap(), ["  a b", "c"]);
        assert_eq!(split("a,b,,c", Some(","), -1).unwrap(), ["a", "b", "", "c"]);
        assert!(split("a", Some(""), -1).is_err());
        assert_eq!(splitlines("a\r\nb\x1cc\n", true), ["a\r\n", "b\x1c", "c\n"]);
    }

    #[test]
    fn casing() {
        assert_eq!(lower("ΌΣΟΣ"), "όσος");
        assert_eq!(upper("straße"), "STRASSE");
        assert_eq!(title("hello wORLD"), "Hello World");
        assert_eq!(capitalize("ǆemal"), "ǅemal");
        assert_eq!(swapcase("ΑΣ"), "ας");
    }

    /// The searches agree with plain `std` string searching (what they used before the
    /// memchr-based versions) on ASCII and non-ASCII text, overlapping patterns, windows and
    /// split / replace limits.
    #[test]
    fn searches_match_std() {
        let texts = [
            "",
            "a",
            "aaaa",
            "abcabcab",
            "a,b,,c,",
            "héllo wörld, héllo",
            "ééé",
            "x\u{2028}y z\tw\x1c v ",
            "  lead and trail  ",
            "id=1;name=item_0001;tags=t1,t1,t1",
        ];
        let needles = [
            "", "a", "aa", "ab", "abc", ",", "é", "éé", "llo", "l", "=", " ", "zz",
        ];
        let idx = [None, Some(-3), Some(0), Some(1), Some(2), Some(5), Some(40)];
        for t in texts {
            for n in needles {
                for st in idx {
                    for en in idx {
                        let win = |s: &'static str| {
                            let len = s.chars().count();
                            let (a, b) = adjust_indices(st, en, len);
                            if a > b || b - a < n.chars().count() {
                                return None;
                            }
                            let b0 = s.char_indices().nth(a).map_or(s.len(), |x| x.0);
                            let b1 = s.char_indices().nth(b).map_or(s.len(), |x| x.0);
                            Some((a, &s[b0..b1]))
                        };
                        let want_find =
                            win(t).and_then(|(a, h)| h.find(n).map(|p| a + h[..p].chars().count()));
                        let want_rfind = win(t)
                            .and_then(|(a, h)| h.rfind(n).map(|p| a + h[..p].chars().count()));
                        let want_count = win(t).map_or(0, |(_, h)| {
                            if n.is_empty() {
                                h.chars().count() + 1
                            } else {
                                h.matches(n).count()
                            }
                        });
                        assert_eq!(
                            find(t, n, st, en),
                            want_find,
                            "find {t:?} {n:?} {st:?} {en:?}"
                        );
                        assert_eq!(rfind(t, n, st, en), want_rfind, "rfind {t:?} {n:?}");
                        assert_eq!(count(t, n, st, en), want_count, "count {t:?} {n:?}");
                        let sw = win(t).is_some_and(|(_, h)| h.starts_with(n));
                        assert_eq!(startswith(t, n, st, en), sw, "startswith {t:?} {n:?}");
                        let ew = win(t).is_some_and(|(_, h)| h.ends_with(n));
                        assert_eq!(endswith(t, n, st, en), ew, "endswith {t:?} {n:?}");
                    }
                }
                for max in [-1i64, 0, 1, 2, 5] {
                    if !n.is_empty() {
                        let m = usize::try_from(max).unwrap_or(usize::MAX);
                        assert_eq!(replace(t, n, "<>", max), t.replacen(n, "<>", m));
                        let want: Vec<&str> = if max < 0 {
                            t.split(n).collect()
                        } else {
                            t.splitn(m + 1, n).collect()
                        };
                        assert_eq!(split(t, Some(n), max).unwrap(), want, "split {t:?} {n:?}");
                        let p = partition(t, n).unwrap();
                        let want = t
                            .find(n)
                            .map_or((t, "", ""), |i| (&t[..i], n, &t[i + n.len()..]));
                        assert_eq!(p, want);
                        let p = rpartition(t, n).unwrap();
                        let want = t
                            .rfind(n)
                            .map_or(("", "", t), |i| (&t[..i], n, &t[i + n.len()..]));
                        assert_eq!(p, want);
                    }
                }
            }
            for max in [-1i64, 0, 1, 2, 5] {
                // whitespace split: the ASCII path against the char-by-char one
                let mut want = Vec::new();
                let mut rest = t;
                let mut left = usize::try_from(max).unwrap_or(usize::MAX);
                loop {
                    rest = rest.trim_start_matches(unicode::is_space);
                    if rest.is_empty() {
                        break;
                    }
                    if left == 0 {
                        want.push(rest);
                        break;
                    }
                    left -= 1;
                    let end = rest.find(unicode::is_space).unwrap_or(rest.len());
                    want.push(&rest[..end]);
                    rest = &rest[end..];
                }
                assert_eq!(split(t, None, max).unwrap(), want, "split {t:?} {max}");
            }
        }
    }

    #[test]
    fn padding() {
        assert_eq!(center("abc", 6, '*'), "*abc**");
        assert_eq!(center("ab", 5, '*'), "**ab*");
        assert_eq!(zfill("-42", 6), "-00042");
        assert_eq!(expandtabs("a\tbc\td", 4), "a   bc  d");
        assert_eq!(replace("abc", "", "-", 2), "-a-bc");
    }
}
