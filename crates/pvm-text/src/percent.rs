//! printf-style `str % args` (CPython 3.11 `PyUnicode_Format`), split into a tokenizer and
//! per-conversion renderers. The core does the argument matching (tuple vs single value vs
//! mapping, `*` arguments, `str()`/`repr()`/`ascii()` of objects) in template order:
//!
//! 1. Walk [`parse_percent`]'s pieces in order. `Literal` text is copied.
//! 2. `Conversion`: if it has a `key`, the args must be a mapping (`TypeError("format requires a
//!    mapping")`) and the value is looked up (`KeyError`). Fetch one int per `Count::Star`
//!    (`TypeError("* wants int")`), then resolve with [`PercentSpec::resolve`]. A `%%` piece
//!    (`conv == '%'` with `literal_percent`) consumes nothing; any other conversion fetches
//!    the next argument ([`not_enough_arguments`]) and then dispatches on `conv`:
//!    `d i u o x X` -> [`format_percent_int`], `e E f F g G` -> [`format_percent_float`],
//!    `s r a` -> [`format_percent_str`] of `str()`/`repr()`/`ascii()`, `c` ->
//!    [`format_percent_str`] of a 1-char string ([`percent_char_from_int`]), anything else ->
//!    [`unsupported_format_character`].
//! 3. `Error`: after the mapping check if `key_started`, the lookup of `key` if any, and
//!    fetching `stars` `*` arguments, raise the carried error.
//! 4. At the end, leftover positional args raise [`not_all_converted`].

use crate::error::{TextError, TextResult};
use crate::format_spec::NumberParts;
use num_bigint::{BigInt, Sign as BigSign};
use pvm_float::F64;

/// `-`, `+`, ` `, `#`, `0` conversion flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PercentFlags {
    /// `-`: left-justify.
    pub left: bool,
    /// `+`: always print a sign.
    pub plus: bool,
    /// ` `: blank for positive numbers.
    pub space: bool,
    /// `#`: alternate form.
    pub alt: bool,
    /// `0`: zero padding (numbers only).
    pub zero: bool,
}

/// A width or precision field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Digits in the template.
    Fixed(usize),
    /// `*`: taken from the next argument (an int).
    Star,
}

/// One parsed `%` conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PercentSpec {
    /// `%(key)s` mapping key (balanced parentheses allowed inside).
    pub key: Option<String>,
    /// Flags.
    pub flags: PercentFlags,
    /// Width.
    pub width: Option<Count>,
    /// Precision (`%.f` is `Fixed(0)`).
    pub precision: Option<Count>,
    /// Conversion character (any code point; validated when formatting).
    pub conv: char,
    /// Code point index of `conv` in the template (for the unsupported-character error).
    pub index: usize,
    /// True only for the plain `%%` escape, which consumes no argument.
    pub literal_percent: bool,
}

/// A piece of a %-template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PercentPiece {
    /// Literal text.
    Literal(String),
    /// A conversion.
    Conversion(PercentSpec),
    /// A malformed conversion. The core raises `error` when it reaches this piece, after
    /// checking for a mapping when `key_started` and after fetching `stars` `*` arguments.
    /// It is always the last piece.
    Error {
        /// A `%(` key was started ("format requires a mapping" takes precedence).
        key_started: bool,
        /// The complete key, if one was read: the core looks it up (`KeyError`) first.
        key: Option<String>,
        /// Number of `*` arguments CPython consumed before failing.
        stars: usize,
        /// The error (`ValueError`: "incomplete format", "incomplete format key",
        /// "width too big", "precision too big").
        error: TextError,
    },
}

/// A conversion with `*` fields resolved: what the renderers take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PercentFormat {
    /// Flags (`-` is forced by a negative `*` width).
    pub flags: PercentFlags,
    /// Width.
    pub width: Option<usize>,
    /// Precision.
    pub precision: Option<usize>,
    /// Conversion character.
    pub conv: char,
}

impl PercentSpec {
    /// Resolves `*` fields with the int arguments the core fetched (in order width then
    /// precision). A negative `*` width means left-justify with its absolute value; a negative
    /// `*` precision means 0. Errors: `OverflowError` for values CPython cannot hold
    /// ("Python int too large to convert to C ssize_t" / "... C int").
    pub fn resolve(
        &self,
        star_width: Option<&BigInt>,
        star_prec: Option<&BigInt>,
    ) -> TextResult<PercentFormat> {
        let mut flags = self.flags;
        let width = match self.width {
            None => None,
            Some(Count::Fixed(w)) => Some(w),
            Some(Count::Star) => {
                let v = star_width
                    .and_then(|b| i64::try_from(b).ok())
                    .ok_or_else(|| {
                        TextError::overflow("Python int too large to convert to C ssize_t")
                    })?;
                if v < 0 {
                    flags.left = true;
                }
                Some(usize::try_from(v.unsigned_abs()).unwrap_or(usize::MAX))
            }
        };
        let precision = match self.precision {
            None => None,
            Some(Count::Fixed(p)) => Some(p),
            Some(Count::Star) => {
                let v = star_prec
                    .and_then(|b| i32::try_from(b).ok())
                    .ok_or_else(|| {
                        TextError::overflow("Python int too large to convert to C int")
                    })?;
                Some(usize::try_from(v.max(0)).unwrap_or(0))
            }
        };
        Ok(PercentFormat {
            flags,
            width,
            precision,
            conv: self.conv,
        })
    }
}

/// Tokenizes a %-template (`str % args`). Never fails: syntax errors become a final
/// [`PercentPiece::Error`] so the core can raise them in CPython's order.
pub fn parse_percent(template: &str) -> Vec<PercentPiece> {
    let chars: Vec<char> = template.chars().collect();
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let n = chars.len();
    while i < n {
        if chars[i] != '%' {
            lit.push(chars[i]);
            i += 1;
            continue;
        }
        i += 1;
        if !lit.is_empty() {
            pieces.push(PercentPiece::Literal(core::mem::take(&mut lit)));
        }
        let incomplete =
            |key: Option<&String>, key_started, stars, msg: &str| PercentPiece::Error {
                key_started,
                key: key.cloned(),
                stars,
                error: TextError::value(msg),
            };
        if i < n && chars[i] == '%' {
            pieces.push(PercentPiece::Conversion(PercentSpec {
                key: None,
                flags: PercentFlags::default(),
                width: None,
                precision: None,
                conv: '%',
                index: i,
                literal_percent: true,
            }));
            i += 1;
            continue;
        }
        let mut spec = PercentSpec {
            key: None,
            flags: PercentFlags::default(),
            width: None,
            precision: None,
            conv: '\0',
            index: 0,
            literal_percent: false,
        };
        if i < n && chars[i] == '(' {
            let start = i + 1;
            let mut depth = 1;
            let mut j = start;
            while j < n && depth > 0 {
                match chars[j] {
                    ')' => depth -= 1,
                    '(' => depth += 1,
                    _ => {}
                }
                j += 1;
            }
            if depth > 0 {
                pieces.push(incomplete(None, true, 0, "incomplete format key"));
                return pieces;
            }
            spec.key = Some(chars[start..j - 1].iter().collect());
            i = j;
        }
        while i < n {
            match chars[i] {
                '-' => spec.flags.left = true,
                '+' => spec.flags.plus = true,
                ' ' => spec.flags.space = true,
                '#' => spec.flags.alt = true,
                '0' => spec.flags.zero = true,
                _ => break,
            }
            i += 1;
        }
        let mut stars = 0;
        if i < n && chars[i] == '*' {
            spec.width = Some(Count::Star);
            stars += 1;
            i += 1;
        } else if i < n && chars[i].is_ascii_digit() {
            let mut w: u64 = 0;
            while i < n && chars[i].is_ascii_digit() {
                let d = u64::from(chars[i] as u32 - '0' as u32);
                if w > (i64::MAX as u64 - d) / 10 {
                    pieces.push(incomplete(
                        spec.key.as_ref(),
                        spec.key.is_some(),
                        stars,
                        "width too big",
                    ));
                    return pieces;
                }
                w = w * 10 + d;
                i += 1;
            }
            spec.width = Some(Count::Fixed(usize::try_from(w).unwrap_or(usize::MAX)));
        }
        if i < n && chars[i] == '.' {
            i += 1;
            spec.precision = Some(Count::Fixed(0));
            if i < n && chars[i] == '*' {
                spec.precision = Some(Count::Star);
                stars += 1;
                i += 1;
            } else if i < n && chars[i].is_ascii_digit() {
                let mut p: u64 = 0;
                while i < n && chars[i].is_ascii_digit() {
                    let d = u64::from(chars[i] as u32 - '0' as u32);
                    if p > (i32::MAX as u64 - d) / 10 {
                        pieces.push(incomplete(
                            spec.key.as_ref(),
                            spec.key.is_some(),
                            stars,
                            "precision too big",
                        ));
                        return pieces;
                    }
                    p = p * 10 + d;
                    i += 1;
                }
                spec.precision = Some(Count::Fixed(usize::try_from(p).unwrap_or(0)));
            }
        }
        if i < n && matches!(chars[i], 'h' | 'l' | 'L') {
            i += 1;
        }
        if i >= n {
            pieces.push(incomplete(
                spec.key.as_ref(),
                spec.key.is_some(),
                stars,
                "incomplete format",
            ));
            return pieces;
        }
        spec.conv = chars[i];
        spec.index = i;
        i += 1;
        pieces.push(PercentPiece::Conversion(spec));
    }
    if !lit.is_empty() {
        pieces.push(PercentPiece::Literal(lit));
    }
    pieces
}

/// `TypeError("not enough arguments for format string")`.
pub fn not_enough_arguments() -> TextError {
    TextError::type_error("not enough arguments for format string")
}

/// `TypeError("not all arguments converted during string formatting")`.
pub fn not_all_converted() -> TextError {
    TextError::type_error("not all arguments converted during string formatting")
}

/// `TypeError("format requires a mapping")`.
pub fn format_requires_mapping() -> TextError {
    TextError::type_error("format requires a mapping")
}

/// `TypeError("* wants int")`.
pub fn star_wants_int() -> TextError {
    TextError::type_error("* wants int")
}

/// `ValueError("unsupported format character 'y' (0x79) at index 1")`; characters outside
/// printable ASCII show as `?`.
pub fn unsupported_format_character(conv: char, index: usize) -> TextError {
    let cp = conv as u32;
    let shown = if (31..=126).contains(&cp) { conv } else { '?' };
    TextError::value(format!(
        "unsupported format character '{shown}' (0x{cp:x}) at index {index}"
    ))
}

/// `%d`/`%i`/`%u` of a non-number: `TypeError("%d format: a real number is required, not str")`;
/// `%o`/`%x`/`%X` of a non-int: `TypeError("%x format: an integer is required, not float")`.
pub fn number_required(conv: char, type_name: &str) -> TextError {
    let what = if matches!(conv, 'o' | 'x' | 'X') {
        "an integer"
    } else {
        "a real number"
    };
    TextError::type_error(format!(
        "%{conv} format: {what} is required, not {}",
        crate::format_spec::truncate200(type_name)
    ))
}

/// Bytes-formatting version of [`number_required`]: CPython's bytes formatter has already
/// rewritten `%i` to `%d` (`%u` stays), which shows in the message.
pub fn number_required_bytes(conv: char, type_name: &str) -> TextError {
    number_required(if conv == 'i' { 'd' } else { conv }, type_name)
}

/// `%f` etc. of a non-number: `TypeError("must be real number, not str")`.
pub fn real_number_required(type_name: &str) -> TextError {
    TextError::type_error(format!(
        "must be real number, not {}",
        crate::format_spec::truncate200(type_name)
    ))
}

/// `%c` of something other than an int or 1-char str: `TypeError("%c requires int or char")`.
pub fn char_required() -> TextError {
    TextError::type_error("%c requires int or char")
}

/// `%c` of an int: the code point. Errors: `OverflowError("%c arg not in range(0x110000)")`;
/// lone surrogates (valid in CPython) are rejected with a `ValueError` since a Rust `str`
/// cannot hold them.
pub fn percent_char_from_int(n: &BigInt) -> TextResult<char> {
    let v = i64::try_from(n)
        .map_err(|_| TextError::overflow("Python int too large to convert to C long"))?;
    if !(0..=0x10ffff).contains(&v) {
        return Err(TextError::overflow("%c arg not in range(0x110000)"));
    }
    u32::try_from(v)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| TextError::value("surrogate code points are not supported by the PVM"))
}

/// CPython `unicode_format_arg_output`: pads `body` (which starts with `-`/`+` for signed
/// numbers, then possibly a `0x`/`0X`/`0o` prefix) to the width. `numeric` selects
/// sign/zero-fill handling.
fn output(body: &str, f: &PercentFormat, numeric: bool) -> String {
    let chars: Vec<char> = body.chars().collect();
    let mut len = chars.len();
    let mut idx = 0;
    if !numeric
        && let Some(p) = f.precision
        && matches!(f.conv, 's' | 'r' | 'a')
    {
        len = len.min(p);
    }
    let fill = if numeric && f.flags.zero { '0' } else { ' ' };
    let mut sign = None;
    if numeric {
        match chars.first() {
            Some(&c @ ('-' | '+')) => {
                sign = Some(c);
                len -= 1;
                idx = 1;
            }
            _ if f.flags.plus => sign = Some('+'),
            _ if f.flags.space => sign = Some(' '),
            _ => {}
        }
    }
    let mut width = f.width.unwrap_or(0).max(len);
    let mut out = String::with_capacity(width + 4);
    if let Some(s) = sign {
        if fill != ' ' {
            out.push(s);
        }
        if width > len {
            width -= 1;
        }
    }
    // The prefix is only present when the body was produced by `format_percent_int`; checking
    // the text keeps a mismatched call from slicing out of range.
    let has_prefix = numeric
        && f.flags.alt
        && matches!(f.conv, 'x' | 'X' | 'o')
        && len >= 2
        && chars[idx] == '0'
        && chars[idx + 1] == f.conv;
    if has_prefix {
        if fill != ' ' {
            out.extend(&chars[idx..idx + 2]);
            idx += 2;
        }
        width = width.saturating_sub(2);
        len -= 2;
    }
    if width > len && !f.flags.left {
        out.extend(core::iter::repeat_n(fill, width - len));
        width = len;
    }
    if fill == ' ' {
        if let Some(s) = sign {
            out.push(s);
        }
        if has_prefix {
            out.extend(&chars[idx..idx + 2]);
            idx += 2;
        }
    }
    out.extend(&chars[idx..idx + len]);
    if width > len {
        out.extend(core::iter::repeat_n(' ', width - len));
    }
    out
}

/// Renders `%s`, `%r`, `%a` (the core passes `str()`/`repr()`/`ascii()` of the argument) and
/// `%c` (a one-char string): precision truncates `s`/`r`/`a`, width pads with spaces, `-`
/// left-justifies; `+`, ` `, `#`, `0` have no effect.
pub fn format_percent_str(s: &str, f: &PercentFormat) -> String {
    output(s, f, false)
}

/// Renders `%d %i %u %o %x %X` of an int (`_PyUnicode_FormatLong`): precision zero-extends the
/// digits, `#` adds `0o`/`0x`/`0X`, then sign/width/zero-fill. Other `conv` values are
/// treated as `d`.
pub fn format_percent_int(n: &BigInt, f: &PercentFormat) -> String {
    let radix = match f.conv {
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = n.magnitude().to_str_radix(radix);
    if let Some(p) = f.precision
        && p > digits.len()
    {
        digits = format!("{}{}", "0".repeat(p - digits.len()), digits);
    }
    let mut parts = NumberParts {
        sign: if n.sign() == BigSign::Minus { "-" } else { "" },
        ..NumberParts::default()
    };
    if f.flags.alt {
        parts.prefix = match f.conv {
            'o' => "0o",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        };
    }
    if f.conv == 'X' {
        digits.make_ascii_uppercase();
    }
    let body = format!("{}{}{}", parts.sign, parts.prefix, digits);
    output(&body, f, true)
}

/// Renders `%e %E %f %F %g %G` of a float (`formatfloat`, default precision 6, `#` keeps the
/// point / trailing zeros). Other `conv` values are treated as `g`.
pub fn format_percent_float(x: F64, f: &PercentFormat) -> String {
    let p = f.precision.unwrap_or(6);
    let alt = f.flags.alt;
    let body = match f.conv {
        'e' => x.format_exp_alt(p, alt, false),
        'E' => x.format_exp_alt(p, alt, true),
        'f' => x.format_fixed_alt(p, alt),
        'F' => x.format_fixed_alt(p, alt).to_ascii_uppercase(),
        'G' => x.format_general(p, alt, true),
        _ => x.format_general(p, alt, false),
    };
    output(&body, f, true)
}

/// Tokenizes a `bytes % args` template. The pieces use a Latin-1 view: every `char` in
/// literals and keys is one byte (U+0000..=U+00FF; convert back with [`latin1_to_bytes`]) and
/// `index` is a byte offset. Conversion characters >= 0x80 must be reported with
/// [`unsupported_format_character_bytes`].
pub fn parse_percent_bytes(template: &[u8]) -> Vec<PercentPiece> {
    let text: String = template.iter().map(|&b| char::from(b)).collect();
    parse_percent(&text)
}

/// Converts a Latin-1 view string from [`parse_percent_bytes`] back to bytes (code points
/// above U+00FF cannot occur there and are dropped).
pub fn latin1_to_bytes(s: &str) -> Vec<u8> {
    s.chars()
        .filter_map(|c| u8::try_from(u32::from(c)).ok())
        .collect()
}

/// Bytes version of [`unsupported_format_character`]: the byte is shown raw; for bytes at
/// or above 0x80 CPython 3.11 fails while formatting the message itself and raises
/// `OverflowError("character argument not in range(0x110000)")`.
pub fn unsupported_format_character_bytes(conv: u8, index: usize) -> TextError {
    if conv >= 0x80 {
        return TextError::overflow("character argument not in range(0x110000)");
    }
    TextError::value(format!(
        "unsupported format character '{}' (0x{conv:x}) at index {index}",
        char::from(conv)
    ))
}

/// `TypeError("not all arguments converted during bytes formatting")`.
pub fn not_all_converted_bytes() -> TextError {
    TextError::type_error("not all arguments converted during bytes formatting")
}

/// `%b`/`%s` of a non bytes-like object: `TypeError("%b requires a bytes-like object, or an
/// object that implements __bytes__, not 'str'")`.
pub fn bytes_like_required(type_name: &str) -> TextError {
    TextError::type_error(format!(
        "%b requires a bytes-like object, or an object that implements __bytes__, not '{}'",
        crate::format_spec::truncate200(type_name)
    ))
}

/// `%f` etc. of a non-number in bytes formatting: `TypeError("float argument required, not str")`.
pub fn float_argument_required(type_name: &str) -> TextError {
    TextError::type_error(format!(
        "float argument required, not {}",
        crate::format_spec::truncate200(type_name)
    ))
}

/// `%c` of a bad object in bytes formatting:
/// `TypeError("%c requires an integer in range(256) or a single byte")`.
pub fn byte_char_required() -> TextError {
    TextError::type_error("%c requires an integer in range(256) or a single byte")
}

/// `%c` of an int in bytes formatting. Error: `OverflowError("%c arg not in range(256)")`.
pub fn percent_byte_from_int(n: &BigInt) -> TextResult<u8> {
    u8::try_from(n).map_err(|_| TextError::overflow("%c arg not in range(256)"))
}

/// Renders `%b %s %r %a %c` in bytes formatting (`b` is the bytes / `ascii()` text / the
/// single byte): precision truncates all but `c`, width pads with spaces, `-` left-justifies.
pub fn format_percent_bytes(b: &[u8], f: &PercentFormat) -> Vec<u8> {
    let len = match f.precision {
        Some(p) if f.conv != 'c' => b.len().min(p),
        _ => b.len(),
    };
    let width = f.width.unwrap_or(0).max(len);
    let mut out = Vec::with_capacity(width);
    if !f.flags.left {
        out.resize(width - len, b' ');
    }
    out.extend_from_slice(&b[..len]);
    out.resize(width, b' ');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(t: &str) -> PercentSpec {
        match parse_percent(t).into_iter().next() {
            Some(PercentPiece::Conversion(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tokenize() {
        let s = conv("%(a(b))-+ #012.3ld");
        assert_eq!(s.key.as_deref(), Some("a(b)"));
        assert_eq!(s.width, Some(Count::Fixed(12)));
        assert_eq!(s.precision, Some(Count::Fixed(3)));
        assert_eq!(s.conv, 'd');
        assert!(matches!(
            parse_percent("a%").last(),
            Some(PercentPiece::Error { .. })
        ));
        assert!(matches!(
            parse_percent("%*").last(),
            Some(PercentPiece::Error { stars: 1, .. })
        ));
    }

    #[test]
    fn mismatched_calls_do_not_panic() {
        let f = PercentFormat {
            flags: PercentFlags {
                alt: true,
                zero: true,
                ..PercentFlags::default()
            },
            width: Some(6),
            precision: None,
            conv: 'x',
        };
        assert_eq!(format_percent_float(F64(1.5f64.to_bits()), &f), "1.50000");
        assert_eq!(format_percent_str("", &f), "      ");
    }

    #[test]
    fn render() {
        let f = |t: &str| conv(t).resolve(None, None).unwrap();
        assert_eq!(format_percent_int(&BigInt::from(255), &f("%#05x")), "0x0ff");
        assert_eq!(format_percent_int(&BigInt::from(-5), &f("%+.3d")), "-005");
        assert_eq!(format_percent_int(&BigInt::from(3), &f("%-05d")), "3    ");
        assert_eq!(format_percent_str("abc", &f("%-5.2s")), "ab   ");
        assert_eq!(
            format_percent_float(F64(3.5f64.to_bits()), &f("%08.2f")),
            "00003.50"
        );
        assert_eq!(
            unsupported_format_character('é', 1).message,
            "unsupported format character '?' (0xe9) at index 1"
        );
    }
}
