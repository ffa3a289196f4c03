//! The backtracking matcher.
//!
//! An explicit backtrack stack (never Rust recursion on the input) holds alternatives and
//! an undo log of capture and null-check slots. Every executed instruction and every
//! start position tried costs one step of the caller's budget, so the cost of a match is
//! proportional to the work done, and a catastrophic pattern simply runs out of budget.
//! Lookarounds and atomic groups run their sub-program to its first match (recursion
//! depth bounded by the pattern's nesting, at most 100).

use crate::charclass::{Predicate, eq_icase, predicate};
use crate::compile::{Inst, Program};
use crate::error::BudgetExhausted;
use crate::parse::Assertion;

/// How a match attempt is anchored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `search`: the first match starting at or after `pos`
    Search,
    /// `match`: only a match starting at `pos`
    Start,
    /// `fullmatch`: only a match spanning `pos..endpos`
    Full,
}

const UNSET: usize = usize::MAX;

enum Bt {
    Alt { pc: usize, pos: usize },
    Slot { slot: usize, old: usize },
    Null { slot: usize, old: usize },
}

pub(crate) struct Exec<'a> {
    prog: &'a Program,
    text: &'a [u32],
    /// the end of the text as the pattern sees it (`endpos`)
    end: usize,
    pub(crate) slots: Vec<usize>,
    nulls: Vec<usize>,
    stack: Vec<Bt>,
    budget: &'a mut u64,
    /// position where the match must not be empty (`finditer` after an empty match)
    forbid_empty_at: Option<usize>,
    full: bool,
    start: usize,
}

impl<'a> Exec<'a> {
    pub(crate) fn new(
        prog: &'a Program,
        groups: usize,
        text: &'a [u32],
        end: usize,
        budget: &'a mut u64,
    ) -> Self {
        Exec {
            prog,
            text,
            end,
            slots: vec![UNSET; 2 * (groups + 1)],
            nulls: vec![UNSET; prog.null_slots],
            stack: Vec::new(),
            budget,
            forbid_empty_at: None,
            full: false,
            start: 0,
        }
    }

    /// Finds a match per `anchor`; on success the capture slots hold its groups.
    pub(crate) fn find(
        &mut self,
        pos: usize,
        anchor: Anchor,
        forbid_empty_at: Option<usize>,
    ) -> Result<bool, BudgetExhausted> {
        self.forbid_empty_at = forbid_empty_at;
        self.full = anchor == Anchor::Full;
        let last = if anchor == Anchor::Search {
            self.end
        } else {
            pos
        };
        let mut s = pos;
        while s <= last {
            self.charge()?;
            self.slots.iter_mut().for_each(|x| *x = UNSET);
            self.nulls.iter_mut().for_each(|x| *x = UNSET);
            self.stack.clear();
            self.start = s;
            if self.run(0, s)?.is_some() {
                return Ok(true);
            }
            s += 1;
        }
        Ok(false)
    }

    #[inline]
    fn charge(&mut self) -> Result<(), BudgetExhausted> {
        if *self.budget == 0 {
            return Err(BudgetExhausted);
        }
        *self.budget -= 1;
        Ok(())
    }

    fn is_word(&self, at: usize, ascii: bool) -> bool {
        at < self.end && predicate(Predicate::Word, self.text[at], ascii)
    }

    fn assert(&self, a: Assertion, pos: usize) -> bool {
        let nl = '\n' as u32;
        match a {
            Assertion::StringStart => pos == 0,
            Assertion::LineStart => pos == 0 || self.text[pos - 1] == nl,
            Assertion::EndOrFinalNewline => {
                pos == self.end || (pos + 1 == self.end && self.text[pos] == nl)
            }
            Assertion::LineEnd => pos == self.end || self.text[pos] == nl,
            Assertion::StringEnd => pos == self.end,
            Assertion::WordBoundary { ascii } => {
                let before = pos > 0 && self.is_word(pos - 1, ascii);
                before != self.is_word(pos, ascii)
            }
            Assertion::NotWordBoundary { ascii } => {
                if self.end == 0 {
                    return false; // CPython: \B never matches in an empty string
                }
                let before = pos > 0 && self.is_word(pos - 1, ascii);
                before == self.is_word(pos, ascii)
            }
        }
    }

    fn set_slot(&mut self, slot: usize, value: usize) {
        self.stack.push(Bt::Slot {
            slot,
            old: self.slots[slot],
        });
        self.slots[slot] = value;
    }

    /// Undoes the stack down to `base`, restoring slots; returns the newest alternative above
    /// `base` if there is one (its entry is consumed).
    fn backtrack(&mut self, base: usize) -> Option<(usize, usize)> {
        while self.stack.len() > base {
            match self.stack.pop() {
                Some(Bt::Alt { pc, pos }) => return Some((pc, pos)),
                Some(Bt::Slot { slot, old }) => self.slots[slot] = old,
                Some(Bt::Null { slot, old }) => self.nulls[slot] = old,
                None => break,
            }
        }
        None
    }

    /// Keeps the undo entries above `base` but drops its alternatives (commit).
    fn commit(&mut self, base: usize) {
        let mut write = base;
        for read in base..self.stack.len() {
            if !matches!(self.stack[read], Bt::Alt { .. }) {
                self.stack.swap(write, read);
                write += 1;
            }
        }
        self.stack.truncate(write);
    }

    /// Runs from `pc` at `pos` until `Match`/`SubMatch`; returns the end position or None.
    fn run(&mut self, mut pc: usize, mut pos: usize) -> Result<Option<usize>, BudgetExhausted> {
        let base = self.stack.len();
        let prog = self.prog;
        let insts = &prog.insts;
        loop {
            self.charge()?;
            let ok = match insts[pc] {
                Inst::Char(c) => {
                    if pos < self.end && self.text[pos] == c {
                        pos += 1;
                        pc += 1;
                        true
                    } else {
                        false
                    }
                }
                Inst::CharIcase(c, ascii) => {
                    if pos < self.end && eq_icase(self.text[pos], c, ascii) {
                        pos += 1;
                        pc += 1;
                        true
                    } else {
                        false
                    }
                }
                Inst::AnyNoNewline => {
                    if pos < self.end && self.text[pos] != '\n' as u32 {
                        pos += 1;
                        pc += 1;
                        true
                    } else {
                        false
                    }
                }
                Inst::Any => {
                    if pos < self.end {
                        pos += 1;
                        pc += 1;
                        true
                    } else {
                        false
                    }
                }
                Inst::Class(i) => {
                    if pos < self.end && prog.classes[i].matches(self.text[pos]) {
                        pos += 1;
                        pc += 1;
                        true
                    } else {
                        false
                    }
                }
                Inst::Assert(a) => {
                    pc += 1;
                    self.assert(a, pos)
                }
                Inst::Split(a, b) => {
                    self.stack.push(Bt::Alt { pc: b, pos });
                    pc = a;
                    true
                }
                Inst::Jmp(to) => {
                    pc = to;
                    true
                }
                Inst::Save(slot) => {
                    self.set_slot(slot, pos);
                    pc += 1;
                    true
                }
                Inst::Backref {
                    group,
                    icase,
                    ascii,
                } => {
                    let (s, e) = (self.slots[2 * group], self.slots[2 * group + 1]);
                    if s == UNSET || e == UNSET {
                        false
                    } else {
                        let len = e - s;
                        let fits = pos + len <= self.end;
                        let mut same = fits;
                        if fits {
                            for k in 0..len {
                                self.charge()?;
                                let (a, b) = (self.text[s + k], self.text[pos + k]);
                                if !(a == b || (icase && eq_icase(a, b, ascii))) {
                                    same = false;
                                    break;
                                }
                            }
                        }
                        if same {
                            pos += len;
                            pc += 1;
                        }
                        same
                    }
                }
                Inst::Look {
                    behind,
                    negate,
                    body,
                    next,
                } => {
                    let from = match behind {
                        Some(w) if pos < w => None,
                        Some(w) => Some(pos - w),
                        None => Some(pos),
                    };
                    let inner_base = self.stack.len();
                    let found = match from {
                        // a fixed-width look-behind started `w` back always ends here
                        Some(from) => self.run(body, from)?.is_some(),
                        None => false,
                    };
                    if found == negate {
                        if found {
                            self.backtrack(inner_base); // negative: discard its captures
                        }
                        false
                    } else {
                        if found {
                            self.commit(inner_base);
                        }
                        pc = next;
                        true
                    }
                }
                Inst::Atomic { body, next } => {
                    let inner_base = self.stack.len();
                    match self.run(body, pos)? {
                        Some(end) => {
                            self.commit(inner_base);
                            pos = end;
                            pc = next;
                            true
                        }
                        None => false,
                    }
                }
                Inst::Cond { group, no } => {
                    pc = if self.slots[2 * group + 1] != UNSET {
                        pc + 1
                    } else {
                        no
                    };
                    true
                }
                Inst::NullStart(slot) => {
                    self.stack.push(Bt::Null {
                        slot,
                        old: self.nulls[slot],
                    });
                    self.nulls[slot] = pos;
                    pc += 1;
                    true
                }
                Inst::NullEnd { slot, exit } => {
                    pc = if self.nulls[slot] == pos {
                        exit
                    } else {
                        pc + 1
                    };
                    true
                }
                Inst::SubMatch => return Ok(Some(pos)),
                Inst::Match => {
                    let empty_forbidden =
                        self.forbid_empty_at == Some(self.start) && pos == self.start;
                    let short = self.full && pos != self.end;
                    if empty_forbidden || short {
                        false
                    } else {
                        return Ok(Some(pos));
                    }
                }
            };
            if !ok {
                match self.backtrack(base) {
                    Some((next_pc, next_pos)) => {
                        pc = next_pc;
                        pos = next_pos;
                    }
                    None => return Ok(None),
                }
            }
        }
    }
}
