//! Pattern parser: Python 3.11 `re` syntax to a syntax tree.
//!
//! Flag-dependent meaning (IGNORECASE, MULTILINE, DOTALL, ASCII, VERBOSE, scoped
//! `(?i:…)` groups) is resolved here, so every node already says exactly what it matches.
//! Errors carry CPython's message and the code-point position in the pattern.

use crate::charclass::{ClassItem, ClassSet, Predicate};
use crate::error::ReError;

/// Compile flags, with `re`'s bit values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(pub u32);

impl Flags {
    /// `re.I`
    pub const IGNORECASE: u32 = 2;
    /// `re.L` (bytes patterns only; refused, see [`ReError`])
    pub const LOCALE: u32 = 4;
    /// `re.M`
    pub const MULTILINE: u32 = 8;
    /// `re.S`
    pub const DOTALL: u32 = 16;
    /// `re.U`
    pub const UNICODE: u32 = 32;
    /// `re.X`
    pub const VERBOSE: u32 = 64;
    /// `re.A`
    pub const ASCII: u32 = 256;

    /// True if every bit of `bit` is set.
    pub fn has(self, bit: u32) -> bool {
        self.0 & bit == bit
    }
}

/// Zero-width assertions, flags already applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assertion {
    /// `^` without MULTILINE, `\A`: start of the string.
    StringStart,
    /// `^` with MULTILINE: start of the string or after `\n`.
    LineStart,
    /// `$` without MULTILINE: end, or before a final `\n`.
    EndOrFinalNewline,
    /// `$` with MULTILINE: end, or before any `\n`.
    LineEnd,
    /// `\Z`: end of the string.
    StringEnd,
    /// `\b` (`ascii` selects the ASCII word definition)
    WordBoundary { ascii: bool },
    /// `\B`
    NotWordBoundary { ascii: bool },
}

/// How a repetition backtracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greed {
    /// as many as possible, then give back
    Greedy,
    /// as few as possible, then take more
    Lazy,
    /// as many as possible, never give back (`*+`, 3.11)
    Possessive,
}

/// A parsed pattern node.
#[derive(Clone, Debug)]
pub enum Node {
    /// matches the empty string
    Empty,
    /// one code point; `icase` compares case-insensitively
    Char { c: u32, icase: bool },
    /// `.`; `dotall` also matches `\n`
    Any { dotall: bool },
    /// a character class (`[…]`, `\d`, …)
    Class(Box<ClassSet>),
    /// a zero-width assertion
    Assert(Assertion),
    /// a capturing group (1-based index) or non-capturing (`None`)
    Group(Option<usize>, Box<Node>),
    /// sequence
    Concat(Vec<Node>),
    /// alternation, leftmost first
    Alt(Vec<Node>),
    /// repetition `{min,max}`
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greed: Greed,
    },
    /// `\N` / `(?P=name)`
    Backref { group: usize, icase: bool },
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`
    Look {
        behind: bool,
        negate: bool,
        node: Box<Node>,
    },
    /// `(?>…)`
    Atomic(Box<Node>),
    /// `(?(group)yes|no)`
    Cond {
        group: usize,
        yes: Box<Node>,
        no: Box<Node>,
    },
}

/// The result of parsing: the tree, the number of groups and their names.
#[derive(Debug)]
pub struct Parsed {
    /// syntax tree
    pub node: Node,
    /// number of capturing groups
    pub groups: usize,
    /// `(name, index)` in definition order
    pub names: Vec<(String, usize)>,
    /// the flags in force for the whole pattern (argument + leading inline flags)
    pub flags: Flags,
}

/// Deepest group nesting accepted (keeps the parser and matcher off deep Rust recursion).
pub const MAX_NESTING: usize = 100;

struct Parser<'a> {
    p: &'a [u32],
    pos: usize,
    flags: Flags,
    bytes: bool,
    groups: usize,
    open: Vec<usize>,
    names: Vec<(String, usize)>,
    depth: usize,
}

fn ch(c: u32) -> char {
    char::from_u32(c).unwrap_or('\u{fffd}')
}

/// Parses `pattern` (code points; for bytes patterns, one byte per element) with `flags`.
pub fn parse(pattern: &[u32], flags: Flags, bytes: bool) -> Result<Parsed, ReError> {
    let mut flags = flags;
    if bytes && flags.has(Flags::UNICODE) {
        return Err(ReError::new(
            "cannot use UNICODE flag with a bytes pattern",
            None,
        ));
    }
    if !bytes && flags.has(Flags::LOCALE) {
        return Err(ReError::new(
            "cannot use LOCALE flag with a str pattern",
            None,
        ));
    }
    if flags.has(Flags::LOCALE) {
        return Err(ReError::new(
            "the LOCALE flag is not supported in the PVM (it depends on the host locale)",
            None,
        ));
    }
    if flags.has(Flags::ASCII) && flags.has(Flags::UNICODE) {
        return Err(ReError::new(
            "ASCII and UNICODE flags are incompatible",
            None,
        ));
    }
    if bytes {
        flags.0 |= Flags::ASCII;
    }
    let mut parser = Parser {
        p: pattern,
        pos: 0,
        flags,
        bytes,
        groups: 0,
        open: Vec::new(),
        names: Vec::new(),
        depth: 0,
    };
    parser.leading_flags()?;
    let node = parser.alternation()?;
    if parser.pos < parser.p.len() {
        // only an unmatched ')' stops the top-level alternation early
        return Err(ReError::new("unbalanced parenthesis", Some(parser.pos)));
    }
    Ok(Parsed {
        node,
        groups: parser.groups,
        names: parser.names,
        flags: parser.flags,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<u32> {
        self.p.get(self.pos).copied()
    }

    fn peek_is(&self, c: char) -> bool {
        self.peek() == Some(c as u32)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek_is(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn at(&self, offset: usize) -> Option<u32> {
        self.p.get(self.pos + offset).copied()
    }

    fn icase(&self) -> bool {
        self.flags.has(Flags::IGNORECASE)
    }

    fn ascii(&self) -> bool {
        self.flags.has(Flags::ASCII)
    }

    /// Skips whitespace and `#` comments in VERBOSE mode.
    fn skip_verbose(&mut self) {
        if !self.flags.has(Flags::VERBOSE) {
            return;
        }
        while let Some(c) = self.peek() {
            let c = ch(c);
            if c == '#' {
                while let Some(d) = self.peek() {
                    self.pos += 1;
                    if d == '\n' as u32 {
                        break;
                    }
                }
            } else if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// `(?aiLmsux)` groups at the very start set flags for the whole pattern.
    fn leading_flags(&mut self) -> Result<(), ReError> {
        loop {
            self.skip_verbose();
            if !(self.peek_is('(') && self.at(1) == Some('?' as u32)) {
                return Ok(());
            }
            let start = self.pos;
            let mut i = self.pos + 2;
            let mut add = 0u32;
            while let Some(&c) = self.p.get(i) {
                match flag_bit(ch(c)) {
                    Some(bit) => add |= bit,
                    None => break,
                }
                i += 1;
            }
            if add == 0 || self.p.get(i) != Some(&(')' as u32)) {
                return Ok(()); // some other group kind, or a scoped-flag group
            }
            self.check_flag_combination(add, start)?;
            self.flags.0 |= add;
            self.pos = i + 1;
        }
    }

    fn check_flag_combination(&self, add: u32, at: usize) -> Result<(), ReError> {
        if add & Flags::LOCALE != 0 {
            if !self.bytes {
                return Err(ReError::new(
                    "bad inline flags: cannot use 'L' flag with a str pattern",
                    Some(at),
                ));
            }
            return Err(ReError::new(
                "the LOCALE flag is not supported in the PVM",
                Some(at),
            ));
        }
        if add & Flags::UNICODE != 0 && self.bytes {
            return Err(ReError::new(
                "bad inline flags: cannot use 'u' flag with a bytes pattern",
                Some(at),
            ));
        }
        if add & Flags::ASCII != 0 && add & Flags::UNICODE != 0 {
            return Err(ReError::new(
                "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                Some(at),
            ));
        }
        Ok(())
    }

    fn alternation(&mut self) -> Result<Node, ReError> {
        let mut alts = vec![self.concat()?];
        while self.eat('|') {
            alts.push(self.concat()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn concat(&mut self) -> Result<Node, ReError> {
        let mut items = Vec::new();
        loop {
            self.skip_verbose();
            match self.peek() {
                None => break,
                Some(c) if c == '|' as u32 || c == ')' as u32 => break,
                _ => {}
            }
            let atom_start = self.pos;
            let atom = self.atom()?;
            let atom = self.quantifiers(atom, atom_start)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(items),
        })
    }

    fn quantifiers(&mut self, atom: Node, atom_start: usize) -> Result<Node, ReError> {
        self.skip_verbose();
        let start = self.pos;
        let Some((min, max)) = self.quantifier()? else {
            return Ok(atom);
        };
        let repeatable = !matches!(atom, Node::Assert(_) | Node::Empty);
        if !repeatable || start == atom_start {
            return Err(ReError::new("nothing to repeat", Some(start)));
        }
        let greed = if self.eat('?') {
            Greed::Lazy
        } else if self.eat('+') {
            Greed::Possessive
        } else {
            Greed::Greedy
        };
        self.skip_verbose();
        let here = self.pos;
        if self.quantifier()?.is_some() {
            return Err(ReError::new("multiple repeat", Some(here)));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greed,
        })
    }

    /// Reads `*`, `+`, `?` or a valid `{m,n}`; leaves a non-quantifier `{` alone.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, ReError> {
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        match ch(c) {
            '*' => {
                self.pos += 1;
                Ok(Some((0, None)))
            }
            '+' => {
                self.pos += 1;
                Ok(Some((1, None)))
            }
            '?' => {
                self.pos += 1;
                Ok(Some((0, Some(1))))
            }
            '{' => {
                let start = self.pos;
                let mut i = self.pos + 1;
                let read = |i: &mut usize| {
                    let s = *i;
                    while self
                        .p
                        .get(*i)
                        .is_some_and(|&d| (b'0' as u32..=b'9' as u32).contains(&d))
                    {
                        *i += 1;
                    }
                    if *i == s {
                        None
                    } else {
                        Some(self.p[s..*i].iter().fold(0u64, |acc, &d| {
                            (acc * 10 + (d - '0' as u32) as u64).min(u64::MAX / 16)
                        }))
                    }
                };
                let lo = read(&mut i);
                let (lo, hi) = if self.p.get(i) == Some(&(',' as u32)) {
                    i += 1;
                    (lo, read(&mut i))
                } else {
                    match lo {
                        Some(n) => (Some(n), Some(n)),
                        None => return Ok(None),
                    }
                };
                if self.p.get(i) != Some(&('}' as u32)) {
                    return Ok(None); // a literal '{'
                }
                self.pos = i + 1;
                const MAXREPEAT: u64 = 4_294_967_295;
                let min = lo.unwrap_or(0);
                if min >= MAXREPEAT || hi.is_some_and(|h| h >= MAXREPEAT) {
                    return Err(ReError::new(
                        "the repetition number is too large",
                        Some(start + 1),
                    ));
                }
                if let Some(h) = hi
                    && h < min
                {
                    return Err(ReError::new(
                        "min repeat greater than max repeat",
                        Some(start + 1),
                    ));
                }
                Ok(Some((min as u32, hi.map(|h| h as u32))))
            }
            _ => Ok(None),
        }
    }

    fn atom(&mut self) -> Result<Node, ReError> {
        let start = self.pos;
        let c = ch(self.p[self.pos]);
        self.pos += 1;
        match c {
            '(' => self.group(start),
            '[' => self.class(start),
            '.' => Ok(Node::Any {
                dotall: self.flags.has(Flags::DOTALL),
            }),
            '^' => Ok(Node::Assert(if self.flags.has(Flags::MULTILINE) {
                Assertion::LineStart
            } else {
                Assertion::StringStart
            })),
            '$' => Ok(Node::Assert(if self.flags.has(Flags::MULTILINE) {
                Assertion::LineEnd
            } else {
                Assertion::EndOrFinalNewline
            })),
            '\\' => self.escape(start, false).map(|e| match e {
                Escaped::Node(n) => n,
                Escaped::Char(c) => Node::Char {
                    c,
                    icase: self.icase(),
                },
                Escaped::Class(item) => {
                    Node::Class(Box::new(ClassSet::single(item, self.icase(), self.ascii())))
                }
            }),
            '*' | '+' | '?' => Err(ReError::new("nothing to repeat", Some(start))),
            '{' => {
                // `{` is literal unless it forms a quantifier, which here would repeat nothing
                self.pos = start;
                if self.quantifier()?.is_some() {
                    return Err(ReError::new("nothing to repeat", Some(start)));
                }
                self.pos = start + 1;
                Ok(Node::Char {
                    c: '{' as u32,
                    icase: false,
                })
            }
            _ => Ok(Node::Char {
                c: c as u32,
                icase: self.icase(),
            }),
        }
    }

    fn group(&mut self, start: usize) -> Result<Node, ReError> {
        if self.depth >= MAX_NESTING {
            return Err(ReError::new(
                "too many nested groups (the PVM allows 100)",
                Some(start),
            ));
        }
        self.depth += 1;
        let node = self.group_inner(start);
        self.depth -= 1;
        node
    }

    fn close(&mut self, start: usize) -> Result<(), ReError> {
        if self.eat(')') {
            Ok(())
        } else {
            Err(ReError::new(
                "missing ), unterminated subpattern",
                Some(start),
            ))
        }
    }

    fn group_inner(&mut self, start: usize) -> Result<Node, ReError> {
        if !self.eat('?') {
            return self.capturing(start, None);
        }
        let Some(kind) = self.peek() else {
            return Err(ReError::new("unexpected end of pattern", Some(self.pos)));
        };
        self.pos += 1;
        match ch(kind) {
            ':' => {
                let inner = self.alternation()?;
                self.close(start)?;
                Ok(Node::Group(None, Box::new(inner)))
            }
            '>' => {
                let inner = self.alternation()?;
                self.close(start)?;
                Ok(Node::Atomic(Box::new(inner)))
            }
            '=' | '!' => {
                let inner = self.alternation()?;
                self.close(start)?;
                Ok(Node::Look {
                    behind: false,
                    negate: kind == '!' as u32,
                    node: Box::new(inner),
                })
            }
            '#' => {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == ')' as u32 {
                        return Ok(Node::Empty);
                    }
                }
                Err(ReError::new("missing ), unterminated comment", Some(start)))
            }
            '<' => {
                let negate = match self.peek().map(ch) {
                    Some('=') => false,
                    Some('!') => true,
                    _ => {
                        return Err(ReError::new(
                            format!("unknown extension ?<{}", self.peek().map(ch).unwrap_or(' ')),
                            Some(start + 1),
                        ));
                    }
                };
                self.pos += 1;
                let inner = self.alternation()?;
                self.close(start)?;
                if crate::compile::fixed_width(&inner).is_none() {
                    return Err(ReError::new(
                        "look-behind requires fixed-width pattern",
                        None,
                    ));
                }
                Ok(Node::Look {
                    behind: true,
                    negate,
                    node: Box::new(inner),
                })
            }
            'P' => match self.peek().map(ch) {
                Some('<') => {
                    self.pos += 1;
                    let name = self.group_name('>')?;
                    self.capturing(start, Some(name))
                }
                Some('=') => {
                    self.pos += 1;
                    let name_pos = self.pos;
                    let name = self.group_name(')')?;
                    let Some(&(_, group)) = self.names.iter().find(|(n, _)| *n == name) else {
                        return Err(ReError::new(
                            format!("unknown group name '{name}'"),
                            Some(name_pos),
                        ));
                    };
                    if self.open.contains(&group) {
                        return Err(ReError::new("cannot refer to an open group", Some(start)));
                    }
                    Ok(Node::Backref {
                        group,
                        icase: self.icase(),
                    })
                }
                Some(c) => Err(ReError::new(
                    format!("unknown extension ?P{c}"),
                    Some(start + 1),
                )),
                None => Err(ReError::new("unexpected end of pattern", Some(self.pos))),
            },
            '(' => {
                let ref_pos = self.pos;
                let mut name = String::new();
                while let Some(c) = self.peek() {
                    if c == ')' as u32 {
                        break;
                    }
                    name.push(ch(c));
                    self.pos += 1;
                }
                if !self.eat(')') {
                    return Err(ReError::new("missing ), unterminated name", Some(ref_pos)));
                }
                let group = if let Ok(n) = name.parse::<usize>() {
                    if n == 0 {
                        return Err(ReError::new("bad group number", Some(ref_pos)));
                    }
                    n
                } else if let Some(&(_, g)) = self.names.iter().find(|(n, _)| *n == name) {
                    g
                } else if is_identifier(&name) {
                    return Err(ReError::new(
                        format!("unknown group name '{name}'"),
                        Some(ref_pos),
                    ));
                } else {
                    return Err(ReError::new(
                        format!("bad character in group name '{name}'"),
                        Some(ref_pos),
                    ));
                };
                let yes = self.concat()?;
                let no = if self.eat('|') {
                    let no = self.concat()?;
                    if self.peek_is('|') {
                        return Err(ReError::new(
                            "conditional backref with more than two branches",
                            Some(self.pos),
                        ));
                    }
                    no
                } else {
                    Node::Empty
                };
                self.close(start)?;
                if group > self.groups {
                    return Err(ReError::new(
                        format!("invalid group reference {group}"),
                        Some(ref_pos),
                    ));
                }
                Ok(Node::Cond {
                    group,
                    yes: Box::new(yes),
                    no: Box::new(no),
                })
            }
            c if flag_bit(c).is_some() || c == '-' => {
                self.pos -= 1;
                self.scoped_flags(start)
            }
            c => Err(ReError::new(
                format!("unknown extension ?{c}"),
                Some(start + 1),
            )),
        }
    }

    /// `(?flags-flags:…)` — or a misplaced global `(?flags)`.
    fn scoped_flags(&mut self, start: usize) -> Result<Node, ReError> {
        let mut add = 0u32;
        let mut remove = 0u32;
        while let Some(bit) = self.peek().and_then(|c| flag_bit(ch(c))) {
            add |= bit;
            self.pos += 1;
        }
        if self.eat('-') {
            while let Some(c) = self.peek() {
                match flag_bit(ch(c)) {
                    Some(bit)
                        if bit
                            & (Flags::IGNORECASE
                                | Flags::MULTILINE
                                | Flags::DOTALL
                                | Flags::VERBOSE)
                            != 0 =>
                    {
                        remove |= bit;
                        self.pos += 1;
                    }
                    Some(_) => {
                        return Err(ReError::new(
                            "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                            Some(self.pos),
                        ));
                    }
                    None => break,
                }
            }
            if remove == 0 {
                return Err(ReError::new("missing flag", Some(self.pos)));
            }
        }
        if self.peek_is(')') {
            return Err(ReError::new(
                "global flags not at the start of the expression",
                Some(start),
            ));
        }
        if !self.eat(':') {
            return Err(ReError::new("missing :", Some(self.pos)));
        }
        self.check_flag_combination(add, start)?;
        let saved = self.flags;
        self.flags.0 = (self.flags.0 | add) & !remove;
        if add & Flags::ASCII != 0 {
            self.flags.0 &= !Flags::UNICODE;
        }
        if add & Flags::UNICODE != 0 {
            self.flags.0 &= !Flags::ASCII;
        }
        let inner = self.alternation();
        self.flags = saved;
        let inner = inner?;
        self.close(start)?;
        Ok(Node::Group(None, Box::new(inner)))
    }

    fn capturing(&mut self, start: usize, name: Option<String>) -> Result<Node, ReError> {
        self.groups += 1;
        let index = self.groups;
        if let Some(name) = name {
            if let Some(&(_, prev)) = self.names.iter().find(|(n, _)| *n == name) {
                return Err(ReError::new(
                    format!(
                        "redefinition of group name '{name}' as group {index}; was group {prev}"
                    ),
                    Some(start + 4),
                ));
            }
            self.names.push((name, index));
        }
        self.open.push(index);
        let inner = self.alternation();
        self.open.pop();
        let inner = inner?;
        self.close(start)?;
        Ok(Node::Group(Some(index), Box::new(inner)))
    }

    fn group_name(&mut self, terminator: char) -> Result<String, ReError> {
        let start = self.pos;
        let mut name = String::new();
        loop {
            match self.peek() {
                None => return Err(ReError::new("missing >, unterminated name", Some(start))),
                Some(c) if c == terminator as u32 => {
                    self.pos += 1;
                    break;
                }
                Some(c) => {
                    name.push(ch(c));
                    self.pos += 1;
                }
            }
        }
        if name.is_empty() {
            return Err(ReError::new("missing group name", Some(start)));
        }
        if !is_identifier(&name) || (self.bytes && !name.is_ascii()) {
            return Err(ReError::new(
                format!("bad character in group name '{name}'"),
                Some(start),
            ));
        }
        Ok(name)
    }

    fn class(&mut self, start: usize) -> Result<Node, ReError> {
        let negated = self.eat('^');
        let mut items: Vec<ClassItem> = Vec::new();
        let mut first = true;
        loop {
            let item_start = self.pos;
            let Some(c) = self.peek() else {
                return Err(ReError::new("unterminated character set", Some(start)));
            };
            if c == ']' as u32 && !first {
                self.pos += 1;
                break;
            }
            first = false;
            self.pos += 1;
            let lo = if c == '\\' as u32 {
                match self.escape(item_start, true)? {
                    Escaped::Char(c) => c,
                    Escaped::Class(item) => {
                        if self.peek_is('-') && self.at(1).is_some_and(|d| d != ']' as u32) {
                            // a class escape cannot start a range: CPython names the whole range
                            self.pos += 1;
                            let hi_start = self.pos;
                            self.pos += 1;
                            if self.p[hi_start] == '\\' as u32 {
                                self.escape(hi_start, true)?;
                            }
                            let shown: String = self.p[item_start..self.pos]
                                .iter()
                                .map(|&c| ch(c))
                                .collect();
                            return Err(ReError::new(
                                format!("bad character range {shown}"),
                                Some(item_start),
                            ));
                        }
                        items.push(item);
                        continue;
                    }
                    Escaped::Node(_) => return Err(ReError::new("bad escape", Some(item_start))),
                }
            } else {
                c
            };
            // a range `lo-hi` (a '-' before ']' or at the end is literal)
            if self.peek_is('-') && self.at(1).is_some_and(|d| d != ']' as u32) {
                self.pos += 1;
                let hi_start = self.pos;
                let hc = self.p[self.pos];
                self.pos += 1;
                let hi = if hc == '\\' as u32 {
                    match self.escape(hi_start, true)? {
                        Escaped::Char(c) => c,
                        _ => {
                            let shown: String = self.p[item_start..self.pos]
                                .iter()
                                .map(|&c| ch(c))
                                .collect();
                            return Err(ReError::new(
                                format!("bad character range {shown}"),
                                Some(item_start),
                            ));
                        }
                    }
                } else {
                    hc
                };
                if hi < lo {
                    let shown: String = self.p[item_start..self.pos]
                        .iter()
                        .map(|&c| ch(c))
                        .collect();
                    return Err(ReError::new(
                        format!("bad character range {shown}"),
                        Some(item_start),
                    ));
                }
                items.push(ClassItem::Range(lo, hi));
            } else {
                items.push(ClassItem::Range(lo, lo));
            }
        }
        Ok(Node::Class(Box::new(ClassSet::new(
            items,
            negated,
            self.icase(),
            self.ascii(),
        ))))
    }

    /// Parses the escape after a backslash at `start` (`self.pos` is past the backslash).
    fn escape(&mut self, start: usize, in_class: bool) -> Result<Escaped, ReError> {
        let Some(c) = self.peek() else {
            return Err(ReError::new("bad escape (end of pattern)", Some(start)));
        };
        self.pos += 1;
        let ascii = self.ascii();
        let c = ch(c);
        let simple = |c: char| Ok(Escaped::Char(c as u32));
        match c {
            'd' => Ok(Escaped::Class(ClassItem::Pred(
                Predicate::Digit,
                false,
                ascii,
            ))),
            'D' => Ok(Escaped::Class(ClassItem::Pred(
                Predicate::Digit,
                true,
                ascii,
            ))),
            's' => Ok(Escaped::Class(ClassItem::Pred(
                Predicate::Space,
                false,
                ascii,
            ))),
            'S' => Ok(Escaped::Class(ClassItem::Pred(
                Predicate::Space,
                true,
                ascii,
            ))),
            'w' => Ok(Escaped::Class(ClassItem::Pred(
                Predicate::Word,
                false,
                ascii,
            ))),
            'W' => Ok(Escaped::Class(ClassItem::Pred(
                Predicate::Word,
                true,
                ascii,
            ))),
            'a' => simple('\x07'),
            'f' => simple('\x0c'),
            'n' => simple('\n'),
            'r' => simple('\r'),
            't' => simple('\t'),
            'v' => simple('\x0b'),
            '\\' => simple('\\'),
            'b' if in_class => simple('\x08'),
            'b' => Ok(Escaped::Node(Node::Assert(Assertion::WordBoundary {
                ascii,
            }))),
            'B' if !in_class => Ok(Escaped::Node(Node::Assert(Assertion::NotWordBoundary {
                ascii,
            }))),
            'A' if !in_class => Ok(Escaped::Node(Node::Assert(Assertion::StringStart))),
            'Z' if !in_class => Ok(Escaped::Node(Node::Assert(Assertion::StringEnd))),
            'x' => self.hex_escape(start, 2),
            'u' if !self.bytes => self.hex_escape(start, 4),
            'U' if !self.bytes => {
                let e = self.hex_escape(start, 8)?;
                if let Escaped::Char(v) = e
                    && char::from_u32(v).is_none()
                {
                    let shown: String = self.p[start..self.pos].iter().map(|&c| ch(c)).collect();
                    return Err(ReError::new(format!("bad escape {shown}"), Some(start)));
                }
                Ok(e)
            }
            'N' if !self.bytes => Err(ReError::new(
                "\\N{...} named characters are not supported in the PVM",
                Some(start),
            )),
            '0' => {
                // up to two more octal digits
                let mut v = 0u32;
                for _ in 0..2 {
                    match self.peek() {
                        Some(d) if ('0' as u32..='7' as u32).contains(&d) => {
                            v = v * 8 + (d - '0' as u32);
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                Ok(Escaped::Char(v))
            }
            '1'..='9' => {
                // three octal digits make a character; otherwise a group reference
                let d1 = c as u32 - '0' as u32;
                let is_oct =
                    |d: Option<u32>| d.is_some_and(|d| ('0' as u32..='7' as u32).contains(&d));
                if d1 < 8 && is_oct(self.peek()) && is_oct(self.at(1)) {
                    let v = d1 * 64
                        + (self.p[self.pos] - '0' as u32) * 8
                        + (self.p[self.pos + 1] - '0' as u32);
                    self.pos += 2;
                    if v > 0o377 {
                        let shown: String =
                            self.p[start..self.pos].iter().map(|&c| ch(c)).collect();
                        return Err(ReError::new(
                            format!("octal escape value {shown} outside of range 0-0o377"),
                            Some(start),
                        ));
                    }
                    return Ok(Escaped::Char(v));
                }
                if in_class {
                    let shown: String = self.p[start..self.pos].iter().map(|&c| ch(c)).collect();
                    return Err(ReError::new(format!("bad escape {shown}"), Some(start)));
                }
                let mut group = d1 as usize;
                if let Some(d) = self.peek()
                    && ('0' as u32..='9' as u32).contains(&d)
                {
                    group = group * 10 + (d - '0' as u32) as usize;
                    self.pos += 1;
                }
                if group > self.groups {
                    return Err(ReError::new(
                        format!("invalid group reference {group}"),
                        Some(start + 1),
                    ));
                }
                if self.open.contains(&group) {
                    return Err(ReError::new("cannot refer to an open group", Some(start)));
                }
                Ok(Escaped::Node(Node::Backref {
                    group,
                    icase: self.icase(),
                }))
            }
            c if c.is_ascii_alphanumeric() => {
                Err(ReError::new(format!("bad escape \\{c}"), Some(start)))
            }
            c => Ok(Escaped::Char(c as u32)),
        }
    }

    fn hex_escape(&mut self, start: usize, digits: usize) -> Result<Escaped, ReError> {
        let mut v = 0u32;
        for _ in 0..digits {
            match self.peek().and_then(|d| ch(d).to_digit(16)) {
                Some(d) => {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    self.pos += 1;
                }
                None => {
                    let shown: String = self.p[start..self.pos].iter().map(|&c| ch(c)).collect();
                    return Err(ReError::new(
                        format!("incomplete escape {shown}"),
                        Some(start),
                    ));
                }
            }
        }
        Ok(Escaped::Char(v))
    }
}

enum Escaped {
    Char(u32),
    Class(ClassItem),
    Node(Node),
}

fn flag_bit(c: char) -> Option<u32> {
    Some(match c {
        'a' => Flags::ASCII,
        'i' => Flags::IGNORECASE,
        'L' => Flags::LOCALE,
        'm' => Flags::MULTILINE,
        's' => Flags::DOTALL,
        'u' => Flags::UNICODE,
        'x' => Flags::VERBOSE,
        _ => return None,
    })
}

fn is_identifier(name: &str) -> bool {
    pvm_text::str_methods::isidentifier(name)
}
