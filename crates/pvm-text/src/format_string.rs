//! `str.format` / `format_map` template parsing (CPython 3.11 `Objects/stringlib/unicode_format.h`).
//!
//! The core renders a template like this:
//! 1. [`parse_format_string`] gives literal text and replacement fields in order; a
//!    [`FormatPiece::Error`] (always last) is raised when reached.
//! 2. For each field: [`parse_field_name`] its `name` (an error there is raised before any
//!    lookup), [`AutoNumber::resolve`] the first part (numbering errors), look the object up
//!    (`IndexError` via [`replacement_index_out_of_range`] / `KeyError`), apply `rest` accesses
//!    in order, then raise `rest_error` if present.
//! 3. Apply the conversion ([`Conversion::from_char`], after the lookup), expand the spec if
//!    `spec_needs_expanding` by rendering it as a template (same [`AutoNumber`], depth limit
//!    [`MAX_RECURSION`]), then call `format(obj, spec)`.

use crate::error::{ErrorKind, TextError, TextResult};
use crate::unicode;

/// Nesting depth CPython allows for templates inside format specs (`build_string`'s
/// `recursion_depth`): the top-level template is depth 2, a nested spec depth 1, and a spec
/// nested inside that raises `ValueError("Max string recursion exceeded")`.
pub const MAX_RECURSION: u32 = 2;

/// `ValueError("Max string recursion exceeded")`.
pub fn max_recursion_exceeded() -> TextError {
    TextError::value("Max string recursion exceeded")
}

/// One replacement field `{name!conv:spec}` (raw parts, not yet interpreted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatField {
    /// Field name text, e.g. `0`, `name.attr[0]`, or empty for automatic numbering.
    pub name: String,
    /// Conversion character after `!` (validated later by [`Conversion::from_char`]).
    pub conversion: Option<char>,
    /// Format spec text after `:` (may contain nested `{...}` fields).
    pub spec: String,
    /// True when `spec` contains `{` and must itself be rendered as a template first.
    pub spec_needs_expanding: bool,
}

/// A piece of a `str.format` template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatPiece {
    /// Literal text (`{{`/`}}` already unescaped).
    Literal(String),
    /// A replacement field.
    Field(FormatField),
    /// A syntax error raised when the renderer reaches this point (always the last piece).
    Error(TextError),
}

/// Parses a template. Never fails: a syntax error becomes a final [`FormatPiece::Error`]
/// (messages: "Single '}' encountered in format string", "Single '{' encountered in format
/// string", "expected '}' before end of string", "unexpected '{' in field name",
/// "end of string while looking for conversion specifier", "expected ':' after conversion
/// specifier", "unmatched '{' in format spec").
pub fn parse_format_string(template: &str) -> Vec<FormatPiece> {
    let chars: Vec<char> = template.chars().collect();
    let n = chars.len();
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let flush = |lit: &mut String, pieces: &mut Vec<FormatPiece>| {
        if !lit.is_empty() {
            pieces.push(FormatPiece::Literal(core::mem::take(lit)));
        }
    };
    while i < n {
        let c = chars[i];
        i += 1;
        if c != '{' && c != '}' {
            lit.push(c);
            continue;
        }
        let at_end = i >= n;
        if c == '}' && (at_end || chars[i] != '}') {
            flush(&mut lit, &mut pieces);
            pieces.push(FormatPiece::Error(TextError::value(
                "Single '}' encountered in format string",
            )));
            return pieces;
        }
        if at_end && c == '{' {
            flush(&mut lit, &mut pieces);
            pieces.push(FormatPiece::Error(TextError::value(
                "Single '{' encountered in format string",
            )));
            return pieces;
        }
        if chars[i] == c {
            lit.push(c);
            i += 1;
            continue;
        }
        flush(&mut lit, &mut pieces);
        match parse_field(&chars, &mut i) {
            Ok(f) => pieces.push(FormatPiece::Field(f)),
            Err(e) => {
                pieces.push(FormatPiece::Error(e));
                return pieces;
            }
        }
    }
    flush(&mut lit, &mut pieces);
    pieces
}

/// CPython `parse_field`, starting just after the opening `{`.
fn parse_field(chars: &[char], i: &mut usize) -> TextResult<FormatField> {
    let n = chars.len();
    let start = *i;
    let mut c = '\0';
    let mut terminated = false;
    while *i < n {
        c = chars[*i];
        *i += 1;
        match c {
            '{' => return Err(TextError::value("unexpected '{' in field name")),
            '[' => {
                while *i < n && chars[*i] != ']' {
                    *i += 1;
                }
            }
            '}' | ':' | '!' => {
                terminated = true;
                break;
            }
            _ => {}
        }
    }
    if !terminated {
        return Err(TextError::value("expected '}' before end of string"));
    }
    let name: String = chars[start..*i - 1].iter().collect();
    let mut field = FormatField {
        name,
        conversion: None,
        spec: String::new(),
        spec_needs_expanding: false,
    };
    if c == '}' {
        return Ok(field);
    }
    if c == '!' {
        if *i >= n {
            return Err(TextError::value(
                "end of string while looking for conversion specifier",
            ));
        }
        field.conversion = Some(chars[*i]);
        *i += 1;
        if *i < n {
            let d = chars[*i];
            *i += 1;
            if d == '}' {
                return Ok(field);
            }
            if d != ':' {
                return Err(TextError::value("expected ':' after conversion specifier"));
            }
        }
    }
    let spec_start = *i;
    let mut depth = 1;
    while *i < n {
        let d = chars[*i];
        *i += 1;
        match d {
            '{' => {
                field.spec_needs_expanding = true;
                depth += 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    field.spec = chars[spec_start..*i - 1].iter().collect();
                    return Ok(field);
                }
            }
            _ => {}
        }
    }
    Err(TextError::value("unmatched '{' in format spec"))
}

/// First part of a field name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldFirst {
    /// Empty: automatic numbering.
    Auto,
    /// All decimal digits (any Unicode decimal digits): positional index.
    Index(usize),
    /// Anything else: keyword name.
    Name(String),
}

/// One `.attr` / `[key]` access after the first part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldAccess {
    /// `.name`: `getattr`.
    Attr(String),
    /// `[123]`: `obj[123]` with an int.
    Index(usize),
    /// `[key]`: `obj['key']` with a str.
    Key(String),
}

/// A parsed field name. Accesses in `rest` are applied in order; then `rest_error` (if any)
/// is raised, matching CPython's lazy iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldName {
    /// First part.
    pub first: FieldFirst,
    /// Accesses parsed successfully before any error.
    pub rest: Vec<FieldAccess>,
    /// `ValueError("Empty attribute in format string")`, "Missing ']' in format string",
    /// "Only '.' or '[' may follow ']' in format field specifier", or too many digits.
    pub rest_error: Option<TextError>,
}

/// CPython `get_integer`: `Ok(None)` unless every code point is a decimal digit.
fn get_integer(s: &[char]) -> TextResult<Option<usize>> {
    if s.is_empty() {
        return Ok(None);
    }
    let mut v: usize = 0;
    for &c in s {
        let Some(d) = unicode::decimal_value(c) else {
            return Ok(None);
        };
        v = v
            .checked_mul(10)
            .and_then(|x| x.checked_add(d as usize))
            .filter(|&x| x <= i64::MAX as usize)
            .ok_or_else(|| TextError::value("Too many decimal digits in format string"))?;
    }
    Ok(Some(v))
}

/// Splits a field name (`field_name_split`). Error (raised before any lookup):
/// `ValueError("Too many decimal digits in format string")` for a huge first index.
pub fn parse_field_name(name: &str) -> TextResult<FieldName> {
    let chars: Vec<char> = name.chars().collect();
    let split = chars
        .iter()
        .position(|&c| c == '.' || c == '[')
        .unwrap_or(chars.len());
    let first_chars = &chars[..split];
    let first = match get_integer(first_chars)? {
        Some(i) => FieldFirst::Index(i),
        None if first_chars.is_empty() => FieldFirst::Auto,
        None => FieldFirst::Name(first_chars.iter().collect()),
    };
    let mut rest = Vec::new();
    let mut rest_error = None;
    let mut i = split;
    let n = chars.len();
    while i < n {
        let c = chars[i];
        i += 1;
        let result = match c {
            '.' => {
                let s = i;
                while i < n && chars[i] != '.' && chars[i] != '[' {
                    i += 1;
                }
                let part = &chars[s..i];
                if part.is_empty() {
                    Err(TextError::value("Empty attribute in format string"))
                } else {
                    Ok(FieldAccess::Attr(part.iter().collect()))
                }
            }
            '[' => {
                let s = i;
                while i < n && chars[i] != ']' {
                    i += 1;
                }
                if i >= n {
                    Err(TextError::value("Missing ']' in format string"))
                } else {
                    let part = &chars[s..i];
                    i += 1;
                    if part.is_empty() {
                        Err(TextError::value("Empty attribute in format string"))
                    } else {
                        match get_integer(part) {
                            Ok(Some(k)) => Ok(FieldAccess::Index(k)),
                            Ok(None) => Ok(FieldAccess::Key(part.iter().collect())),
                            Err(e) => Err(e),
                        }
                    }
                }
            }
            _ => Err(TextError::value(
                "Only '.' or '[' may follow ']' in format field specifier",
            )),
        };
        match result {
            Ok(a) => rest.push(a),
            Err(e) => {
                rest_error = Some(e);
                break;
            }
        }
    }
    Ok(FieldName {
        first,
        rest,
        rest_error,
    })
}

/// Automatic/manual field numbering state shared by a template and its nested specs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AutoNumber {
    mode: NumberingMode,
    next: usize,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum NumberingMode {
    #[default]
    Init,
    Auto,
    Manual,
}

impl AutoNumber {
    /// Fresh state for one `str.format` call.
    pub fn new() -> Self {
        Self::default()
    }

    /// Positional index for `first` (`None` for a keyword name). Errors:
    /// "cannot switch from manual field specification to automatic field numbering" and
    /// "cannot switch from automatic field numbering to manual field specification".
    pub fn resolve(&mut self, first: &FieldFirst) -> TextResult<Option<usize>> {
        match first {
            FieldFirst::Name(_) => Ok(None),
            FieldFirst::Auto => {
                if self.mode == NumberingMode::Manual {
                    return Err(TextError::value(
                        "cannot switch from manual field specification to automatic field numbering",
                    ));
                }
                self.mode = NumberingMode::Auto;
                let i = self.next;
                self.next += 1;
                Ok(Some(i))
            }
            FieldFirst::Index(i) => {
                if self.mode == NumberingMode::Auto {
                    return Err(TextError::value(
                        "cannot switch from automatic field numbering to manual field specification",
                    ));
                }
                self.mode = NumberingMode::Manual;
                Ok(Some(*i))
            }
        }
    }
}

/// `IndexError("Replacement index 3 out of range for positional args tuple")`.
pub fn replacement_index_out_of_range(index: usize) -> TextError {
    TextError::new(
        ErrorKind::Index,
        format!("Replacement index {index} out of range for positional args tuple"),
    )
}

/// A field's `!` conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// `!s`: `str(obj)`.
    Str,
    /// `!r`: `repr(obj)`.
    Repr,
    /// `!a`: `ascii(obj)`.
    Ascii,
}

impl Conversion {
    /// Validates a conversion character; `\0` means "no conversion" as in CPython.
    /// Error: `ValueError("Unknown conversion specifier x")` (`\xNN` form outside printable
    /// ASCII).
    pub fn from_char(c: char) -> TextResult<Option<Self>> {
        match c {
            '\0' => Ok(None),
            's' => Ok(Some(Self::Str)),
            'r' => Ok(Some(Self::Repr)),
            'a' => Ok(Some(Self::Ascii)),
            other => {
                let cp = other as u32;
                let shown = if cp > 32 && cp < 127 {
                    other.to_string()
                } else {
                    format!("\\x{cp:x}")
                };
                Err(TextError::value(format!(
                    "Unknown conversion specifier {shown}"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template() {
        let p = parse_format_string("a{{b}}{0!r:>{1}}");
        assert_eq!(p[0], FormatPiece::Literal("a{b}".into()));
        match &p[1] {
            FormatPiece::Field(f) => {
                assert_eq!(f.name, "0");
                assert_eq!(f.conversion, Some('r'));
                assert_eq!(f.spec, ">{1}");
                assert!(f.spec_needs_expanding);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_format_string("{").last(),
            Some(FormatPiece::Error(_))
        ));
    }

    #[test]
    fn names() {
        let f = parse_field_name("a.b[0][k]").unwrap();
        assert_eq!(f.first, FieldFirst::Name("a".into()));
        assert_eq!(
            f.rest,
            [
                FieldAccess::Attr("b".into()),
                FieldAccess::Index(0),
                FieldAccess::Key("k".into())
            ]
        );
        let mut auto = AutoNumber::new();
        assert_eq!(auto.resolve(&FieldFirst::Auto).unwrap(), Some(0));
        assert!(auto.resolve(&FieldFirst::Index(1)).is_err());
    }
}
