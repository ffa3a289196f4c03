//! Per-code-point Unicode predicates and case mappings exactly as CPython 3.11 sees them.
//!
//! All data comes from the private `tables` module, generated from CPython 3.11 itself (Unicode 14.0.0),
//! so results do not drift with the Rust toolchain's Unicode version.

use crate::tables;

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                core::cmp::Ordering::Less
            } else if lo > cp {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `Py_UNICODE_ISALPHA`: general category L*.
pub fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_ranges(tables::ALPHA, c)
}

/// `Py_UNICODE_ISDECIMAL`: has a decimal digit value (category Nd).
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(tables::DECIMAL, c)
}

/// `Py_UNICODE_TODECIMAL`: the decimal digit value of `c` (0-9), `None` unless `is_decimal(c)`.
///
/// Relies on the invariant (checked by the table generator) that every contiguous run of
/// decimal code points starts at a digit zero.
pub fn decimal_value(c: char) -> Option<u32> {
    if c.is_ascii_digit() {
        return Some(c as u32 - '0' as u32);
    }
    if c.is_ascii() {
        return None;
    }
    let cp = c as u32;
    let table = tables::DECIMAL;
    let i = table.partition_point(|&(_, hi)| hi < cp);
    match table.get(i) {
        Some(&(lo, hi)) if lo <= cp && cp <= hi => Some((cp - lo) % 10),
        _ => None,
    }
}

/// `Py_UNICODE_ISDIGIT`: has a digit value (Numeric_Type Decimal or Digit).
pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(tables::DIGIT, c)
}

/// `Py_UNICODE_ISNUMERIC`: has any numeric value.
pub fn is_numeric(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(tables::NUMERIC, c)
}

/// `Py_UNICODE_ISSPACE`: bidi class WS/B/S or category Zs (includes `\x1c`..`\x1f`, `\x85`).
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\t'..='\r' | '\x1c'..='\x1f' | ' ');
    }
    in_ranges(tables::SPACE, c)
}

/// `Py_UNICODE_ISPRINTABLE`: not in Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (except ASCII space).
pub fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    in_ranges(tables::PRINTABLE, c)
}

/// `Py_UNICODE_ISALNUM`: alpha, decimal, digit or numeric.
pub fn is_alnum(c: char) -> bool {
    is_alpha(c) || is_decimal(c) || is_digit(c) || is_numeric(c)
}

/// `Py_UNICODE_ISLOWER`: derived property Lowercase.
pub fn is_lower(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_lowercase();
    }
    in_ranges(tables::LOWER, c)
}

/// `Py_UNICODE_ISUPPER`: derived property Uppercase.
pub fn is_upper(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase();
    }
    in_ranges(tables::UPPER, c)
}

/// `Py_UNICODE_ISTITLE`: general category Lt.
pub fn is_title(c: char) -> bool {
    !c.is_ascii() && in_ranges(tables::TITLE, c)
}

/// `_PyUnicode_IsCased`: derived property Cased.
pub fn is_cased(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_ranges(tables::CASED, c)
}

/// `_PyUnicode_IsCaseIgnorable`: derived property Case_Ignorable.
pub fn is_case_ignorable(c: char) -> bool {
    in_ranges(tables::CASE_IGNORABLE, c)
}

/// First character of an identifier: XID_Start or `_`.
pub fn is_id_start(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic() || c == '_';
    }
    in_ranges(tables::ID_START, c)
}

/// Later character of an identifier: XID_Continue.
pub fn is_id_continue(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(tables::ID_CONTINUE, c)
}

fn lookup_map(table: &[(u32, [u32; 3])], c: char, out: &mut String) -> bool {
    match table.binary_search_by_key(&(c as u32), |&(cp, _)| cp) {
        Ok(i) => {
            for &m in &table[i].1 {
                if m == 0 {
                    break;
                }
                // Table entries are generated from valid Python characters.
                if let Some(ch) = char::from_u32(m) {
                    out.push(ch);
                }
            }
            true
        }
        Err(_) => false,
    }
}

/// Appends the full uppercase mapping of `c` (`_PyUnicode_ToUpperFull`).
pub fn push_upper(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_uppercase());
    } else if !lookup_map(tables::UPPER_MAP, c, out) {
        out.push(c);
    }
}

/// Appends the full lowercase mapping of `c` (`_PyUnicode_ToLowerFull`, no final-sigma context).
pub fn push_lower(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else if !lookup_map(tables::LOWER_MAP, c, out) {
        out.push(c);
    }
}

/// Appends the full titlecase mapping of `c` (`_PyUnicode_ToTitleFull`).
pub fn push_title(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_uppercase());
    } else if !lookup_map(tables::TITLE_MAP, c, out) {
        out.push(c);
    }
}

/// Appends the full case folding of `c` (`_PyUnicode_ToFoldedFull`).
pub fn push_fold(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else if !lookup_map(tables::FOLD_MAP, c, out) {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates() {
        assert!(is_space('\x1c') && is_space('\u{85}') && is_space('\u{3000}'));
        assert!(!is_space('\u{200b}'));
        assert!(is_printable('é') && !is_printable('\u{a0}') && !is_printable('\n'));
        assert!(is_decimal('٣') && is_digit('²') && !is_decimal('²') && is_numeric('½'));
        assert!(is_title('ǅ') && is_cased('ǅ') && !is_upper('ǅ'));
        assert!(is_case_ignorable('\'') && is_case_ignorable('\u{301}'));
        assert!(is_id_start('_') && !is_id_start('1') && is_id_continue('1'));
    }

    #[test]
    fn mappings() {
        let mut s = String::new();
        push_upper('ß', &mut s);
        push_lower('İ', &mut s);
        push_title('ǆ', &mut s);
        push_fold('ß', &mut s);
        assert_eq!(s, "SSi\u{307}ǅss");
    }
}
