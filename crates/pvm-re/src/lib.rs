//! `pvm-re`: the regular-expression engine behind the PVM's `re` module.
//!
//! It accepts Python 3.11 `re` syntax (groups, named groups, backreferences, lookahead and
//! fixed-width lookbehind, atomic groups and possessive quantifiers, conditionals, inline and
//! scoped flags, VERBOSE) and reproduces CPython's leftmost-first backtracking semantics,
//! including its rules for empty matches in `finditer`/`sub`/`split`.
//!
//! Determinism and metering: matching is a pure function of pattern, text and budget. Every
//! instruction executed and every start position tried costs one step of a caller-supplied
//! budget; when it reaches zero the match stops with [`BudgetExhausted`] (the PVM raises
//! `OutOfCycles`). Programs are bounded ([`compile::MAX_PROGRAM`]), nesting is bounded
//! ([`parse::MAX_NESTING`]), and the input is never traversed by Rust recursion.
//!
//! Text is given as code points (`&[u32]`): for `str` the characters, for `bytes` the byte
//! values (bytes patterns use ASCII rules for `\d`, `\w`, `\s` and case).
//! Not supported, each with a clear error: `\N{…}` named characters and the LOCALE flag.

pub mod charclass;
pub mod compile;
pub mod error;
mod exec;
pub mod parse;

pub use error::{BudgetExhausted, ReError};
pub use exec::Anchor;
pub use parse::Flags;

use compile::Program;
use exec::Exec;

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Regex {
    prog: Program,
    groups: usize,
    names: Vec<(String, usize)>,
    flags: u32,
    bytes: bool,
}

/// The spans of a match: index 0 is the whole match, then each group (`None` if it did not
/// take part). Positions are code-point (or byte) indices into the searched text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Captures {
    /// `(start, end)` per group
    pub spans: Vec<Option<(usize, usize)>>,
}

impl Captures {
    /// Span of the whole match.
    pub fn span(&self) -> (usize, usize) {
        self.spans[0].unwrap_or((0, 0))
    }
}

/// One piece of a replacement template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplatePiece {
    /// literal text
    Literal(Vec<u32>),
    /// the text of a group (empty if it did not match)
    Group(usize),
}

/// Why a replacement template is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateError {
    /// CPython raises `re.error`
    Re(ReError),
    /// CPython raises `IndexError("unknown group name '…'")`
    UnknownGroupName(String),
}

impl Regex {
    /// Compiles `pattern` with `re` flag bits. `bytes` selects a bytes pattern.
    pub fn new(pattern: &[u32], flags: u32, bytes: bool) -> Result<Regex, ReError> {
        let parsed = parse::parse(pattern, Flags(flags), bytes)?;
        let ascii = parsed.flags.has(Flags::ASCII);
        let prog = compile::compile(&parsed.node, ascii)?;
        let mut reported = parsed.flags.0;
        if bytes && flags & Flags::ASCII == 0 && !pattern_sets_ascii(pattern) {
            reported &= !Flags::ASCII; // implied by bytes, not reported (CPython)
        }
        if !bytes && reported & Flags::ASCII == 0 {
            reported |= Flags::UNICODE;
        }
        Ok(Regex {
            prog,
            groups: parsed.groups,
            names: parsed.names,
            flags: reported,
            bytes,
        })
    }

    /// Compiles a `str` pattern.
    pub fn from_str(pattern: &str, flags: u32) -> Result<Regex, ReError> {
        let cps: Vec<u32> = pattern.chars().map(|c| c as u32).collect();
        Regex::new(&cps, flags, false)
    }

    /// Number of capturing groups (`pattern.groups`).
    pub fn groups(&self) -> usize {
        self.groups
    }

    /// Named groups in definition order (`pattern.groupindex`).
    pub fn group_names(&self) -> &[(String, usize)] {
        &self.names
    }

    /// Index of a named group.
    pub fn group_index(&self, name: &str) -> Option<usize> {
        self.names.iter().find(|(n, _)| n == name).map(|&(_, g)| g)
    }

    /// The flags as CPython reports them (`pattern.flags`).
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// True for a bytes pattern.
    pub fn is_bytes(&self) -> bool {
        self.bytes
    }

    /// One match attempt over `text[..endpos]` starting at `pos` (clamped like CPython).
    /// `forbid_empty_at` rejects an empty match at that position (see [`Regex::find_all`]).
    pub fn exec(
        &self,
        text: &[u32],
        pos: usize,
        endpos: usize,
        anchor: Anchor,
        forbid_empty_at: Option<usize>,
        budget: &mut u64,
    ) -> Result<Option<Captures>, BudgetExhausted> {
        let end = endpos.min(text.len());
        if pos > end {
            return Ok(None);
        }
        let mut exec = Exec::new(&self.prog, self.groups, text, end, budget);
        if !exec.find(pos, anchor, forbid_empty_at)? {
            return Ok(None);
        }
        let spans = (0..=self.groups)
            .map(|g| {
                let (s, e) = (exec.slots[2 * g], exec.slots[2 * g + 1]);
                (s != usize::MAX && e != usize::MAX).then_some((s, e))
            })
            .collect();
        Ok(Some(Captures { spans }))
    }

    /// Successive non-overlapping matches (`finditer`), at most `limit` of them (0 = all).
    ///
    /// CPython 3.7+ rules: after an empty match the next match may not be empty at the same
    /// position; after a non-empty match an empty match right at its end is allowed.
    pub fn find_all(
        &self,
        text: &[u32],
        pos: usize,
        endpos: usize,
        limit: usize,
        budget: &mut u64,
    ) -> Result<Vec<Captures>, BudgetExhausted> {
        let end = endpos.min(text.len());
        let mut out = Vec::new();
        let mut at = pos;
        let mut forbid = None;
        while at <= end && (limit == 0 || out.len() < limit) {
            let Some(m) = self.exec(text, at, end, Anchor::Search, forbid, budget)? else {
                break;
            };
            let (s, e) = m.span();
            forbid = (s == e).then_some(e);
            at = e;
            out.push(m);
        }
        Ok(out)
    }

    /// `re.split`: the pieces between matches, each match's groups interleaved (None for a
    /// group that did not take part); at most `maxsplit` splits (0 = all).
    pub fn split(
        &self,
        text: &[u32],
        maxsplit: usize,
        budget: &mut u64,
    ) -> Result<Vec<Option<Vec<u32>>>, BudgetExhausted> {
        let mut out = Vec::new();
        let mut last = 0;
        for m in self.find_all(text, 0, text.len(), maxsplit, budget)? {
            let (s, e) = m.span();
            out.push(Some(text[last..s].to_vec()));
            for g in 1..m.spans.len() {
                out.push(m.spans[g].map(|(a, b)| text[a..b].to_vec()));
            }
            last = e;
        }
        out.push(Some(text[last..].to_vec()));
        Ok(out)
    }

    /// Parses a `sub` replacement template (`\1`, `\g<name>`, `\g<2>`, escapes).
    pub fn parse_template(&self, repl: &[u32]) -> Result<Vec<TemplatePiece>, TemplateError> {
        let mut pieces = Vec::new();
        let mut lit: Vec<u32> = Vec::new();
        let ch = |c: u32| char::from_u32(c).unwrap_or('\u{fffd}');
        let mut i = 0;
        let flush = |lit: &mut Vec<u32>, pieces: &mut Vec<TemplatePiece>| {
            if !lit.is_empty() {
                pieces.push(TemplatePiece::Literal(std::mem::take(lit)));
            }
        };
        while i < repl.len() {
            let c = repl[i];
            if c != '\\' as u32 {
                lit.push(c);
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            let Some(&e) = repl.get(i) else {
                return Err(TemplateError::Re(ReError::new(
                    "bad escape (end of pattern)",
                    Some(start),
                )));
            };
            i += 1;
            match ch(e) {
                'g' => {
                    if repl.get(i) != Some(&('<' as u32)) {
                        return Err(TemplateError::Re(ReError::new("missing <", Some(i))));
                    }
                    let name_start = i + 1;
                    let Some(close) = repl[name_start..].iter().position(|&c| c == '>' as u32)
                    else {
                        // CPython: a template that ends right after `\g<` has no name at all.
                        let msg = if name_start == repl.len() {
                            "missing group name"
                        } else {
                            "missing >, unterminated name"
                        };
                        return Err(TemplateError::Re(ReError::new(msg, Some(name_start))));
                    };
                    let name: String = repl[name_start..name_start + close]
                        .iter()
                        .map(|&c| ch(c))
                        .collect();
                    i = name_start + close + 1;
                    if name.is_empty() {
                        return Err(TemplateError::Re(ReError::new(
                            "missing group name",
                            Some(name_start),
                        )));
                    }
                    let group = if name.bytes().all(|b| b.is_ascii_digit()) {
                        let n: usize = name.parse().unwrap_or(usize::MAX);
                        if n > self.groups {
                            return Err(TemplateError::Re(ReError::new(
                                format!("invalid group reference {n}"),
                                Some(name_start),
                            )));
                        }
                        n
                    } else if pvm_text::str_methods::isidentifier(&name) {
                        match self.group_index(&name) {
                            Some(g) => g,
                            None => return Err(TemplateError::UnknownGroupName(name)),
                        }
                    } else {
                        return Err(TemplateError::Re(ReError::new(
                            format!("bad character in group name '{name}'"),
                            Some(name_start),
                        )));
                    };
                    flush(&mut lit, &mut pieces);
                    pieces.push(TemplatePiece::Group(group));
                }
                '0' => {
                    let mut v = 0u32;
                    for _ in 0..2 {
                        match repl.get(i) {
                            Some(&d) if ('0' as u32..='7' as u32).contains(&d) => {
                                v = v * 8 + (d - '0' as u32);
                                i += 1;
                            }
                            _ => break,
                        }
                    }
                    lit.push(v);
                }
                d @ '1'..='9' => {
                    let is_oct = |x: Option<&u32>| {
                        x.is_some_and(|&x| ('0' as u32..='7' as u32).contains(&x))
                    };
                    if d <= '7' && is_oct(repl.get(i)) && is_oct(repl.get(i + 1)) {
                        let v = (d as u32 - '0' as u32) * 64
                            + (repl[i] - '0' as u32) * 8
                            + (repl[i + 1] - '0' as u32);
                        i += 2;
                        if v > 0o377 {
                            let shown: String = repl[start..i].iter().map(|&c| ch(c)).collect();
                            return Err(TemplateError::Re(ReError::new(
                                format!("octal escape value {shown} outside of range 0-0o377"),
                                Some(start),
                            )));
                        }
                        lit.push(v);
                        continue;
                    }
                    let mut n = d as usize - '0' as usize;
                    if let Some(&x) = repl.get(i)
                        && ('0' as u32..='9' as u32).contains(&x)
                    {
                        n = n * 10 + (x - '0' as u32) as usize;
                        i += 1;
                    }
                    if n > self.groups {
                        return Err(TemplateError::Re(ReError::new(
                            format!("invalid group reference {n}"),
                            Some(start + 1),
                        )));
                    }
                    flush(&mut lit, &mut pieces);
                    pieces.push(TemplatePiece::Group(n));
                }
                'a' => lit.push(7),
                'b' => lit.push(8),
                'f' => lit.push(12),
                'n' => lit.push(10),
                'r' => lit.push(13),
                't' => lit.push(9),
                'v' => lit.push(11),
                '\\' => lit.push('\\' as u32),
                c if c.is_ascii_alphabetic() => {
                    return Err(TemplateError::Re(ReError::new(
                        format!("bad escape \\{c}"),
                        Some(start),
                    )));
                }
                _ => {
                    // unknown non-letter escapes stay as written
                    lit.push('\\' as u32);
                    lit.push(e);
                }
            }
        }
        flush(&mut lit, &mut pieces);
        Ok(pieces)
    }

    /// Expands a parsed template for one match.
    pub fn expand(&self, template: &[TemplatePiece], text: &[u32], caps: &Captures) -> Vec<u32> {
        let mut out = Vec::new();
        for piece in template {
            match piece {
                TemplatePiece::Literal(l) => out.extend_from_slice(l),
                TemplatePiece::Group(g) => {
                    if let Some(Some((s, e))) = caps.spans.get(*g) {
                        out.extend_from_slice(&text[*s..*e]);
                    }
                }
            }
        }
        out
    }
}

/// True if the pattern's leading inline flags include `a` (so a bytes pattern reports ASCII).
fn pattern_sets_ascii(pattern: &[u32]) -> bool {
    let mut i = 0;
    while pattern.get(i) == Some(&('(' as u32)) && pattern.get(i + 1) == Some(&('?' as u32)) {
        let mut j = i + 2;
        let mut has_a = false;
        while let Some(&c) = pattern.get(j) {
            if "aiLmsux".contains(char::from_u32(c).unwrap_or(' ')) {
                has_a |= c == 'a' as u32;
                j += 1;
            } else {
                break;
            }
        }
        if pattern.get(j) != Some(&(')' as u32)) || j == i + 2 {
            return false;
        }
        if has_a {
            return true;
        }
        i = j + 1;
    }
    false
}
