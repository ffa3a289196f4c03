//! The format-spec mini-language of `format()` / `str.format` / f-strings (CPython 3.11
//! `Python/formatter_unicode.c`) for `int` and `str` (floats: [`crate::format_float`]).
//!
//! `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`

use crate::error::{TextError, TextResult};
use num_bigint::{BigInt, Sign as BigSign};

/// Alignment option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `<`
    Left,
    /// `>`
    Right,
    /// `^`
    Center,
    /// `=` (padding after the sign/prefix; numbers only).
    AfterSign,
}

/// Sign option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignOpt {
    /// `+`: sign for positive numbers too.
    Plus,
    /// `-`: sign only for negative numbers (the default).
    Minus,
    /// ` `: a space for positive numbers.
    Space,
}

/// Thousands-grouping option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// `,` every three digits.
    Comma,
    /// `_` every three decimal digits, or every four for `b`/`o`/`x`/`X`.
    Underscore,
}

/// A parsed format spec. Invariant: produced only by [`parse_format_spec`], so the grouping
/// option is compatible with `kind` and `width`/`precision` fit in an `i64`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FormatSpec {
    /// Explicit fill character (`None` = space, or `0` when [`Self::zero_pad`]).
    pub fill: Option<char>,
    /// Explicit alignment.
    pub align: Option<Align>,
    /// Sign option.
    pub sign: Option<SignOpt>,
    /// `z`: coerce negative zero to positive after rounding (floats only).
    pub no_neg_zero: bool,
    /// `#`: alternate form.
    pub alternate: bool,
    /// The `0` flag before the width (only recognised when no fill was given).
    pub zero_pad: bool,
    /// Minimum field width in code points.
    pub width: Option<usize>,
    /// Grouping option.
    pub grouping: Option<Grouping>,
    /// Precision.
    pub precision: Option<usize>,
    /// Presentation type.
    pub kind: Option<char>,
}

impl FormatSpec {
    /// Effective fill character.
    pub fn fill_char(&self) -> char {
        match self.fill {
            Some(c) => c,
            None if self.zero_pad => '0',
            None => ' ',
        }
    }

    /// Effective alignment for a value whose default alignment is `default`.
    /// The `0` flag implies `=` for right-aligned-by-default (numeric) values.
    pub fn align_or(&self, default: Align) -> Align {
        match self.align {
            Some(a) => a,
            None if self.zero_pad && default == Align::Right => Align::AfterSign,
            None => default,
        }
    }
}

fn align_of(c: char) -> Option<Align> {
    Some(match c {
        '<' => Align::Left,
        '>' => Align::Right,
        '^' => Align::Center,
        '=' => Align::AfterSign,
        _ => return None,
    })
}

fn too_many_digits() -> TextError {
    TextError::value("Too many decimal digits in format string")
}

/// Consumes decimal digits at `chars[*pos..]`; `None` if there are none.
fn parse_number(chars: &[char], pos: &mut usize) -> TextResult<Option<usize>> {
    let start = *pos;
    let mut n: u64 = 0;
    while let Some(d) = chars.get(*pos).and_then(|c| c.to_digit(10)) {
        n = n
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d)))
            .filter(|&v| v <= i64::MAX as u64)
            .ok_or_else(too_many_digits)?;
        *pos += 1;
    }
    if *pos == start {
        return Ok(None);
    }
    usize::try_from(n).map(Some).map_err(|_| too_many_digits())
}

/// CPython's message for a code point in `'%c'` / `'\x%x'` form.
pub(crate) fn code_repr(c: char) -> String {
    let cp = c as u32;
    if cp > 32 && cp < 128 {
        c.to_string()
    } else {
        format!("\\x{cp:x}")
    }
}

/// `ValueError("Unknown format code 'q' for object of type 'int'")`.
pub fn unknown_format_code(kind: char, type_name: &str) -> TextError {
    TextError::value(format!(
        "Unknown format code '{}' for object of type '{}'",
        code_repr(kind),
        truncate200(type_name)
    ))
}

pub(crate) fn truncate200(s: &str) -> &str {
    match s.char_indices().nth(200) {
        Some((b, _)) => &s[..b],
        None => s,
    }
}

/// Parses a non-empty format spec (`parse_internal_render_format_spec`).
///
/// `type_name` is the Python type name used in error messages. Callers handle the empty spec
/// themselves (`format(x, '')` is `str(x)`). Errors (all `ValueError`): "Invalid format
/// specifier 'SPEC' for object of type 'TYPE'", "Format specifier missing precision",
/// "Too many decimal digits in format string", "Cannot specify both ',' and '_'.",
/// "Cannot specify ',' with 's'.".
pub fn parse_format_spec(spec: &str, type_name: &str) -> TextResult<FormatSpec> {
    let chars: Vec<char> = spec.chars().collect();
    let mut f = FormatSpec::default();
    let mut pos = 0;
    if chars.len() >= 2
        && let Some(a) = align_of(chars[1])
    {
        f.fill = Some(chars[0]);
        f.align = Some(a);
        pos = 2;
    } else if let Some(a) = chars.first().and_then(|&c| align_of(c)) {
        f.align = Some(a);
        pos = 1;
    }
    match chars.get(pos) {
        Some('+') => {
            f.sign = Some(SignOpt::Plus);
            pos += 1;
        }
        Some('-') => {
            f.sign = Some(SignOpt::Minus);
            pos += 1;
        }
        Some(' ') => {
            f.sign = Some(SignOpt::Space);
            pos += 1;
        }
        _ => {}
    }
    if chars.get(pos) == Some(&'z') {
        f.no_neg_zero = true;
        pos += 1;
    }
    if chars.get(pos) == Some(&'#') {
        f.alternate = true;
        pos += 1;
    }
    if f.fill.is_none() && chars.get(pos) == Some(&'0') {
        f.zero_pad = true;
        pos += 1;
    }
    f.width = parse_number(&chars, &mut pos)?;
    let both = || TextError::value("Cannot specify both ',' and '_'.");
    if chars.get(pos) == Some(&',') {
        f.grouping = Some(Grouping::Comma);
        pos += 1;
    }
    if chars.get(pos) == Some(&'_') {
        if f.grouping.is_some() {
            return Err(both());
        }
        f.grouping = Some(Grouping::Underscore);
        pos += 1;
    }
    if chars.get(pos) == Some(&',') && f.grouping == Some(Grouping::Underscore) {
        return Err(both());
    }
    if chars.get(pos) == Some(&'.') {
        pos += 1;
        f.precision = parse_number(&chars, &mut pos)?;
        if f.precision.is_none() {
            return Err(TextError::value("Format specifier missing precision"));
        }
    }
    if chars.len() - pos > 1 {
        return Err(TextError::value(format!(
            "Invalid format specifier '{}' for object of type '{}'",
            spec,
            truncate200(type_name)
        )));
    }
    if chars.len() - pos == 1 {
        f.kind = Some(chars[pos]);
    }
    if let Some(g) = f.grouping {
        let ok = match f.kind {
            None => true,
            Some(k) => {
                "defgEG%F\0".contains(k) || (g == Grouping::Underscore && "boxX".contains(k))
            }
        };
        if !ok {
            let sep = if g == Grouping::Comma { ',' } else { '_' };
            return Err(TextError::value(format!(
                "Cannot specify '{sep}' with '{}'.",
                code_repr(f.kind.unwrap_or('\0'))
            )));
        }
    }
    Ok(f)
}

/// `format(s, spec)` for a `str` value with a parsed spec (`format_string_internal`):
/// precision truncates (code points), default alignment is left.
/// Errors: "Sign not allowed in string format specifier", "Space not allowed in string format
/// specifier", "Negative zero coercion (z) not allowed in string format specifier",
/// "Alternate form (#) not allowed in string format specifier",
/// "'=' alignment not allowed in string format specifier", unknown format code.
pub fn format_str(s: &str, spec: &FormatSpec, type_name: &str) -> TextResult<String> {
    match spec.kind {
        None | Some('s') => {}
        Some(k) => return Err(unknown_format_code(k, type_name)),
    }
    if spec.kind.is_none()
        && let Some(g) = spec.grouping
    {
        // CPython checks the grouping against the default type 's' while parsing.
        let sep = if g == Grouping::Comma { ',' } else { '_' };
        return Err(TextError::value(format!(
            "Cannot specify '{sep}' with 's'."
        )));
    }
    match spec.sign {
        Some(SignOpt::Space) => {
            return Err(TextError::value(
                "Space not allowed in string format specifier",
            ));
        }
        Some(_) => {
            return Err(TextError::value(
                "Sign not allowed in string format specifier",
            ));
        }
        None => {}
    }
    if spec.no_neg_zero {
        return Err(TextError::value(
            "Negative zero coercion (z) not allowed in string format specifier",
        ));
    }
    if spec.alternate {
        return Err(TextError::value(
            "Alternate form (#) not allowed in string format specifier",
        ));
    }
    let align = spec.align_or(Align::Left);
    if align == Align::AfterSign {
        return Err(TextError::value(
            "'=' alignment not allowed in string format specifier",
        ));
    }
    let body = match spec.precision {
        Some(p) => crate::str_methods::char_slice(s, 0, p),
        None => s,
    };
    let len = body.chars().count();
    let width = spec.width.unwrap_or(0);
    if width <= len {
        return Ok(body.to_owned());
    }
    let pad = width - len;
    let left = match align {
        Align::Right => pad,
        Align::Center => pad / 2,
        _ => 0,
    };
    Ok(pad_with(body, left, pad - left, spec.fill_char()))
}

fn pad_with(body: &str, left: usize, right: usize, fill: char) -> String {
    let mut out = String::with_capacity(body.len() + (left + right) * fill.len_utf8());
    out.extend(core::iter::repeat_n(fill, left));
    out.push_str(body);
    out.extend(core::iter::repeat_n(fill, right));
    out
}

/// The pieces of a formatted number before padding (`NumberFieldWidths` in CPython).
#[derive(Clone, Debug, Default)]
pub(crate) struct NumberParts {
    /// "-", "+", " " or "".
    pub sign: &'static str,
    /// "0x", "0X", "0o", "0b" or "".
    pub prefix: &'static str,
    /// The integer digits to be grouped (ASCII).
    pub digits: String,
    /// Everything after the integer digits: ".123e+05", "%", ... (ASCII).
    pub rest: String,
}

/// Inserts `sep` every `group` digits from the right, left-padding with `0` so the result is
/// at least `min_width` long (`_PyUnicode_InsertThousandsGrouping`).
fn group_digits(digits: &str, sep: Option<char>, group: usize, min_width: isize) -> String {
    if digits.is_empty() {
        // CPython: "only occurs when using 'c' formatting" (and inf/nan); padding does the rest.
        return String::new();
    }
    let Some(sep) = sep else {
        let n = digits.len() as isize;
        let zeros = (min_width - n).max(0) as usize;
        let mut out = String::with_capacity(zeros + digits.len());
        out.extend(core::iter::repeat_n('0', zeros));
        out.push_str(digits);
        return out;
    };
    let d = digits.as_bytes();
    let mut remaining = d.len() as isize;
    let mut min_width = min_width;
    let mut pieces: Vec<String> = Vec::new();
    loop {
        let len = (group as isize).min(remaining.max(min_width).max(1));
        let zeros = (len - remaining).max(0) as usize;
        let n_chars = remaining.min(len).max(0) as usize;
        let end = remaining.max(0) as usize;
        let mut piece = String::with_capacity(zeros + n_chars);
        piece.extend(core::iter::repeat_n('0', zeros));
        piece.push_str(&digits[end - n_chars..end]);
        pieces.push(piece);
        remaining -= n_chars as isize;
        min_width -= len;
        if remaining <= 0 && min_width <= 0 {
            break;
        }
        min_width -= 1;
    }
    pieces.reverse();
    let mut out = String::new();
    for (i, p) in pieces.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        out.push_str(p);
    }
    out
}

/// Assembles sign, prefix, grouped digits and rest with fill/alignment (`fill_number`).
pub(crate) fn render_number(
    parts: &NumberParts,
    spec: &FormatSpec,
    sep: Option<char>,
    group: usize,
) -> String {
    let fill = spec.fill_char();
    let align = spec.align_or(Align::Right);
    let width = spec.width.unwrap_or(0) as isize;
    let fixed = (parts.sign.len() + parts.prefix.len() + parts.rest.len()) as isize;
    let min_width = if fill == '0' && align == Align::AfterSign {
        width - fixed
    } else {
        0
    };
    let grouped = group_digits(&parts.digits, sep, group, min_width);
    let total = fixed + grouped.chars().count() as isize;
    let pad = (width - total).max(0) as usize;
    let (left, mid, right) = match align {
        Align::Left => (0, 0, pad),
        Align::Right => (pad, 0, 0),
        Align::Center => (pad / 2, 0, pad - pad / 2),
        Align::AfterSign => (0, pad, 0),
    };
    let mut out = String::with_capacity(total as usize + pad * fill.len_utf8());
    out.extend(core::iter::repeat_n(fill, left));
    out.push_str(parts.sign);
    out.push_str(parts.prefix);
    out.extend(core::iter::repeat_n(fill, mid));
    out.push_str(&grouped);
    out.push_str(&parts.rest);
    out.extend(core::iter::repeat_n(fill, right));
    out
}

pub(crate) fn sign_str(negative: bool, sign: Option<SignOpt>) -> &'static str {
    match (negative, sign) {
        (true, _) => "-",
        (false, Some(SignOpt::Plus)) => "+",
        (false, Some(SignOpt::Space)) => " ",
        _ => "",
    }
}

pub(crate) fn separator(spec: &FormatSpec) -> Option<char> {
    match spec.grouping {
        Some(Grouping::Comma) => Some(','),
        Some(Grouping::Underscore) => Some('_'),
        None => None,
    }
}

/// `format(n, spec)` for an int with an integer presentation type (`b c d o x X n` or none;
/// `format_long_internal`). Float types (`e E f F g G %`) must go through
/// [`crate::format_float::format_int_as_float`]; other types error with "Unknown format code".
///
/// Errors: "Precision not allowed in integer format specifier", "Negative zero coercion (z)
/// not allowed in integer format specifier", "Sign not allowed with integer format specifier
/// 'c'", "Alternate form (#) not allowed with integer format specifier 'c'",
/// `OverflowError("%c arg not in range(0x110000)")`.
pub fn format_int(n: &BigInt, spec: &FormatSpec, type_name: &str) -> TextResult<String> {
    let kind = spec.kind.unwrap_or('d');
    if !"bcdoxXn".contains(kind) {
        return Err(unknown_format_code(kind, type_name));
    }
    if spec.precision.is_some() {
        return Err(TextError::value(
            "Precision not allowed in integer format specifier",
        ));
    }
    if spec.no_neg_zero {
        return Err(TextError::value(
            "Negative zero coercion (z) not allowed in integer format specifier",
        ));
    }
    let negative = n.sign() == BigSign::Minus;
    let mut parts = NumberParts::default();
    if kind == 'c' {
        if spec.sign.is_some() {
            return Err(TextError::value(
                "Sign not allowed with integer format specifier 'c'",
            ));
        }
        if spec.alternate {
            return Err(TextError::value(
                "Alternate form (#) not allowed with integer format specifier 'c'",
            ));
        }
        let Ok(v) = i64::try_from(n) else {
            return Err(TextError::overflow(
                "Python int too large to convert to C long",
            ));
        };
        if !(0..=0x10ffff).contains(&v) {
            return Err(TextError::overflow("%c arg not in range(0x110000)"));
        }
        let Some(ch) = u32::try_from(v).ok().and_then(char::from_u32) else {
            // Lone surrogates are valid Python code points but cannot be a Rust char.
            return Err(TextError::value(
                "surrogate code points are not supported by the PVM",
            ));
        };
        parts.digits = ch.to_string();
        return Ok(render_chars(&parts, spec));
    }
    let radix = match kind {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = n.magnitude().to_str_radix(radix);
    if kind == 'X' {
        digits.make_ascii_uppercase();
    }
    if spec.alternate {
        parts.prefix = match kind {
            'b' => "0b",
            'o' => "0o",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        };
    }
    parts.sign = sign_str(negative, spec.sign);
    parts.digits = digits;
    let group = if radix == 10 { 3 } else { 4 };
    Ok(render_number(&parts, spec, separator(spec), group))
}

/// Renders a `c`-formatted int whose "digits" are one arbitrary code point.
fn render_chars(parts: &NumberParts, spec: &FormatSpec) -> String {
    let fill = spec.fill_char();
    let align = spec.align_or(Align::Right);
    let width = spec.width.unwrap_or(0);
    let pad = width.saturating_sub(1);
    let (left, right) = match align {
        Align::Left => (0, pad),
        Align::Center => (pad / 2, pad - pad / 2),
        Align::Right | Align::AfterSign => (pad, 0),
    };
    pad_with(&parts.digits, left, right, fill)
}

/// `format(n, spec_text)` for an int with an integer or empty spec; a convenience wrapper
/// over [`parse_format_spec`] + [`format_int`] (empty spec is `str(n)`).
pub fn format_int_spec(n: &BigInt, spec: &str) -> TextResult<String> {
    if spec.is_empty() {
        return crate::int_text::int_to_decimal(n);
    }
    let f = parse_format_spec(spec, "int")?;
    format_int(n, &f, "int")
}

/// `format(s, spec_text)` for a str (empty spec returns `s`).
pub fn format_str_spec(s: &str, spec: &str) -> TextResult<String> {
    if spec.is_empty() {
        return Ok(s.to_owned());
    }
    let f = parse_format_spec(spec, "str")?;
    format_str(s, &f, "str")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fi(n: i64, spec: &str) -> String {
        format_int_spec(&BigInt::from(n), spec).unwrap_or_else(|e| e.message)
    }

    #[test]
    fn ints() {
        assert_eq!(fi(1234, "010,"), "00,001,234");
        assert_eq!(fi(1234, "09,"), "0,001,234");
        assert_eq!(fi(-255, "#x"), "-0xff");
        assert_eq!(fi(255, "#010_b"), "0b1111_1111");
        assert_eq!(fi(42, "*^+8"), "**+42***");
        assert_eq!(fi(65, "c"), "A");
        assert_eq!(
            fi(1, ".2"),
            "Precision not allowed in integer format specifier"
        );
    }

    #[test]
    fn strs() {
        assert_eq!(format_str_spec("abc", "ß^7.2").unwrap(), "ßßabßßß");
        assert_eq!(format_str_spec("ab", "05").unwrap(), "ab000");
        assert!(format_str_spec("a", ",").is_err());
    }
}
