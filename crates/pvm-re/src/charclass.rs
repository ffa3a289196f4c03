//! Character classes and the character predicates of `re` (`\d`, `\s`, `\w`, case folding),
//! with CPython 3.11's Unicode data (from `pvm-text`) or ASCII rules.

use pvm_text::unicode;

/// `\d`, `\s`, `\w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicate {
    /// decimal digit
    Digit,
    /// whitespace
    Space,
    /// word character: alphanumeric or `_`
    Word,
}

/// One member of a class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassItem {
    /// inclusive code-point range
    Range(u32, u32),
    /// a predicate, possibly negated (`\D`), ASCII-only or Unicode
    Pred(Predicate, bool, bool),
}

/// A character class, flags already applied.
#[derive(Clone, Debug)]
pub struct ClassSet {
    items: Vec<ClassItem>,
    negated: bool,
    icase: bool,
    ascii: bool,
}

/// True if `c` satisfies `p` (`ascii` restricts to ASCII definitions).
pub fn predicate(p: Predicate, c: u32, ascii: bool) -> bool {
    if ascii || c < 128 {
        if c >= 128 {
            return false;
        }
        let b = c as u8;
        return match p {
            Predicate::Digit => b.is_ascii_digit(),
            Predicate::Space => matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
            Predicate::Word => b.is_ascii_alphanumeric() || b == b'_',
        };
    }
    let Some(ch) = char::from_u32(c) else {
        return false;
    };
    match p {
        Predicate::Digit => unicode::is_decimal(ch),
        Predicate::Space => unicode::is_space(ch),
        Predicate::Word => unicode::is_alnum(ch) || ch == '_',
    }
}

/// Simple (single code point) lowercase, as `re` folds case.
pub fn lower(c: u32, ascii: bool) -> u32 {
    if c < 128 || ascii {
        return if (b'A' as u32..=b'Z' as u32).contains(&c) {
            c + 32
        } else {
            c
        };
    }
    match char::from_u32(c) {
        Some(ch) => {
            let mut it = ch.to_lowercase();
            match (it.next(), it.next()) {
                (Some(l), None) => l as u32,
                (Some(l), Some(_)) if ch == '\u{130}' => l as u32, // İ → i (simple mapping)
                _ => c,
            }
        }
        None => c,
    }
}

/// Simple (single code point) uppercase.
pub fn upper(c: u32, ascii: bool) -> u32 {
    if c < 128 || ascii {
        return if (b'a' as u32..=b'z' as u32).contains(&c) {
            c - 32
        } else {
            c
        };
    }
    match char::from_u32(c) {
        Some(ch) => {
            let mut it = ch.to_uppercase();
            match (it.next(), it.next()) {
                (Some(u), None) => u as u32,
                _ => c,
            }
        }
        None => c,
    }
}

/// Case-insensitive equality of code points (lower or upper forms agree: ſ ~ s, K ~ k).
pub fn eq_icase(a: u32, b: u32, ascii: bool) -> bool {
    a == b || lower(a, ascii) == lower(b, ascii) || upper(a, ascii) == upper(b, ascii)
}

impl ClassSet {
    /// A class of `items`.
    pub fn new(items: Vec<ClassItem>, negated: bool, icase: bool, ascii: bool) -> Self {
        ClassSet {
            items,
            negated,
            icase,
            ascii,
        }
    }

    /// A class of one item (for `\d` outside brackets).
    pub fn single(item: ClassItem, icase: bool, ascii: bool) -> Self {
        ClassSet {
            items: vec![item],
            negated: false,
            icase,
            ascii,
        }
    }

    fn contains_exact(&self, c: u32) -> bool {
        self.items.iter().any(|item| match *item {
            ClassItem::Range(lo, hi) => lo <= c && c <= hi,
            ClassItem::Pred(p, neg, ascii) => predicate(p, c, ascii) != neg,
        })
    }

    /// True if the class matches `c`.
    pub fn matches(&self, c: u32) -> bool {
        let mut hit = self.contains_exact(c);
        if !hit && self.icase {
            let (l, u) = (lower(c, self.ascii), upper(c, self.ascii));
            let lu = lower(u, self.ascii); // ſ → S → s
            hit = (l != c && self.contains_exact(l))
                || (u != c && self.contains_exact(u))
                || (lu != c && lu != l && self.contains_exact(lu));
        }
        hit != self.negated
    }
}
