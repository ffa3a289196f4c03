//! Syntax tree to a backtracking program.
//!
//! Counted repetitions are unrolled (the program size is capped, so a pattern's memory is
//! bounded); loops whose body can match the empty string carry a null check so they can
//! never spin without consuming input.

use crate::charclass::ClassSet;
use crate::error::ReError;
use crate::parse::{Assertion, Greed, Node};

/// Largest program accepted, in instructions.
pub const MAX_PROGRAM: usize = 100_000;

/// One instruction of the matcher.
#[derive(Clone, Debug)]
pub enum Inst {
    /// match one code point exactly
    Char(u32),
    /// match one code point ignoring case
    CharIcase(u32, bool),
    /// any code point but `\n`
    AnyNoNewline,
    /// any code point
    Any,
    /// a class, by index into [`Program::classes`]
    Class(usize),
    /// zero-width test
    Assert(Assertion),
    /// try `.0`; on failure resume at `.1`
    Split(usize, usize),
    /// continue at
    Jmp(usize),
    /// record the position in a capture slot
    Save(usize),
    /// match the text of a group again
    Backref {
        group: usize,
        icase: bool,
        ascii: bool,
    },
    /// run the sub-program at `body` as a lookaround; continue at `next`
    Look {
        behind: Option<usize>,
        negate: bool,
        body: usize,
        next: usize,
    },
    /// run the sub-program at `body` to its first match and never backtrack into it
    Atomic { body: usize, next: usize },
    /// if `group` matched continue at the next instruction, else at `no`
    Cond { group: usize, no: usize },
    /// remember the position at the start of a loop iteration
    NullStart(usize),
    /// leave the loop at `exit` if the iteration consumed nothing
    NullEnd { slot: usize, exit: usize },
    /// end of a lookaround or atomic sub-program
    SubMatch,
    /// the whole pattern matched
    Match,
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Program {
    /// instructions; execution starts at 0
    pub insts: Vec<Inst>,
    /// the character classes referred to by [`Inst::Class`]
    pub classes: Vec<ClassSet>,
    /// number of null-check slots
    pub null_slots: usize,
}

struct Compiler {
    insts: Vec<Inst>,
    classes: Vec<ClassSet>,
    null_slots: usize,
    ascii: bool,
}

/// Compiles `node` (with `ascii` for case folding of backreferences).
pub fn compile(node: &Node, ascii: bool) -> Result<Program, ReError> {
    let mut c = Compiler {
        insts: Vec::new(),
        classes: Vec::new(),
        null_slots: 0,
        ascii,
    };
    c.insts.push(Inst::Save(0));
    c.node(node)?;
    c.insts.push(Inst::Save(1));
    c.insts.push(Inst::Match);
    Ok(Program {
        insts: c.insts,
        classes: c.classes,
        null_slots: c.null_slots,
    })
}

/// Width of every match of `node`, if it is fixed (look-behind needs this).
pub fn fixed_width(node: &Node) -> Option<usize> {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => Some(0),
        Node::Char { .. } | Node::Any { .. } | Node::Class(_) => Some(1),
        Node::Group(_, n) | Node::Atomic(n) => fixed_width(n),
        Node::Concat(items) => items
            .iter()
            .try_fold(0usize, |acc, n| fixed_width(n).map(|w| acc + w)),
        Node::Alt(alts) => {
            let first = fixed_width(alts.first()?)?;
            alts.iter()
                .all(|a| fixed_width(a) == Some(first))
                .then_some(first)
        }
        Node::Repeat { node, min, max, .. } => {
            if Some(*min) == *max {
                fixed_width(node).map(|w| w * *min as usize)
            } else {
                None
            }
        }
        Node::Backref { .. } => None,
        Node::Cond { yes, no, .. } => {
            let y = fixed_width(yes)?;
            (fixed_width(no) == Some(y)).then_some(y)
        }
    }
}

/// Fewest code points any match of `node` consumes.
fn min_width(node: &Node) -> usize {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } | Node::Backref { .. } => 0,
        Node::Char { .. } | Node::Any { .. } | Node::Class(_) => 1,
        Node::Group(_, n) | Node::Atomic(n) => min_width(n),
        Node::Concat(items) => items.iter().map(min_width).sum(),
        Node::Alt(alts) => alts.iter().map(min_width).min().unwrap_or(0),
        Node::Repeat { node, min, .. } => min_width(node).saturating_mul(*min as usize),
        Node::Cond { yes, no, .. } => min_width(yes).min(min_width(no)),
    }
}

impl Compiler {
    fn emit(&mut self, inst: Inst) -> Result<usize, ReError> {
        if self.insts.len() >= MAX_PROGRAM {
            return Err(ReError::new(
                "pattern too large for the PVM (repetitions expand past 100,000 steps)",
                None,
            ));
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn pc(&self) -> usize {
        self.insts.len()
    }

    fn patch(&mut self, at: usize, inst: Inst) {
        self.insts[at] = inst;
    }

    fn node(&mut self, node: &Node) -> Result<(), ReError> {
        match node {
            Node::Empty => {}
            Node::Char { c, icase } => {
                self.emit(if *icase {
                    Inst::CharIcase(*c, self.ascii)
                } else {
                    Inst::Char(*c)
                })?;
            }
            Node::Any { dotall } => {
                self.emit(if *dotall {
                    Inst::Any
                } else {
                    Inst::AnyNoNewline
                })?;
            }
            Node::Class(set) => {
                self.classes.push((**set).clone());
                self.emit(Inst::Class(self.classes.len() - 1))?;
            }
            Node::Assert(a) => {
                self.emit(Inst::Assert(*a))?;
            }
            Node::Group(index, inner) => match index {
                Some(g) => {
                    self.emit(Inst::Save(2 * g))?;
                    self.node(inner)?;
                    self.emit(Inst::Save(2 * g + 1))?;
                }
                None => self.node(inner)?,
            },
            Node::Concat(items) => {
                for item in items {
                    self.node(item)?;
                }
            }
            Node::Alt(alts) => {
                // Split(a1, next) a1: … Jmp end; next: Split(a2, …) …
                let mut jumps = Vec::new();
                for (i, alt) in alts.iter().enumerate() {
                    if i + 1 < alts.len() {
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.node(alt)?;
                        jumps.push(self.emit(Inst::Jmp(0))?);
                        let next = self.pc();
                        self.patch(split, Inst::Split(split + 1, next));
                    } else {
                        self.node(alt)?;
                    }
                }
                let end = self.pc();
                for j in jumps {
                    self.patch(j, Inst::Jmp(end));
                }
            }
            Node::Repeat {
                node: inner,
                min,
                max,
                greed,
            } => {
                if *greed == Greed::Possessive {
                    let at = self.emit(Inst::Atomic { body: 0, next: 0 })?;
                    self.repeat(inner, *min, *max, Greed::Greedy)?;
                    self.emit(Inst::SubMatch)?;
                    let next = self.pc();
                    self.patch(at, Inst::Atomic { body: at + 1, next });
                } else {
                    self.repeat(inner, *min, *max, *greed)?;
                }
            }
            Node::Backref { group, icase } => {
                self.emit(Inst::Backref {
                    group: *group,
                    icase: *icase,
                    ascii: self.ascii,
                })?;
            }
            Node::Look {
                behind,
                negate,
                node: inner,
            } => {
                let width = if *behind {
                    Some(fixed_width(inner).ok_or_else(|| {
                        ReError::new("look-behind requires fixed-width pattern", None)
                    })?)
                } else {
                    None
                };
                let at = self.emit(Inst::Look {
                    behind: width,
                    negate: *negate,
                    body: 0,
                    next: 0,
                })?;
                self.node(inner)?;
                self.emit(Inst::SubMatch)?;
                let next = self.pc();
                self.patch(
                    at,
                    Inst::Look {
                        behind: width,
                        negate: *negate,
                        body: at + 1,
                        next,
                    },
                );
            }
            Node::Atomic(inner) => {
                let at = self.emit(Inst::Atomic { body: 0, next: 0 })?;
                self.node(inner)?;
                self.emit(Inst::SubMatch)?;
                let next = self.pc();
                self.patch(at, Inst::Atomic { body: at + 1, next });
            }
            Node::Cond { group, yes, no } => {
                let at = self.emit(Inst::Cond {
                    group: *group,
                    no: 0,
                })?;
                self.node(yes)?;
                let jump = self.emit(Inst::Jmp(0))?;
                let no_pc = self.pc();
                self.node(no)?;
                let end = self.pc();
                self.patch(
                    at,
                    Inst::Cond {
                        group: *group,
                        no: no_pc,
                    },
                );
                self.patch(jump, Inst::Jmp(end));
            }
        }
        Ok(())
    }

    fn repeat(
        &mut self,
        inner: &Node,
        min: u32,
        max: Option<u32>,
        greed: Greed,
    ) -> Result<(), ReError> {
        let lazy = greed == Greed::Lazy;
        for _ in 0..min {
            self.node(inner)?;
        }
        match max {
            None => {
                let nullable = min_width(inner) == 0;
                let slot = self.null_slots;
                if nullable {
                    self.null_slots += 1;
                }
                let top = self.emit(Inst::Split(0, 0))?;
                if nullable {
                    self.emit(Inst::NullStart(slot))?;
                }
                self.node(inner)?;
                let null_end = if nullable {
                    Some(self.emit(Inst::NullEnd { slot, exit: 0 })?)
                } else {
                    None
                };
                self.emit(Inst::Jmp(top))?;
                let exit = self.pc();
                self.patch(
                    top,
                    if lazy {
                        Inst::Split(exit, top + 1)
                    } else {
                        Inst::Split(top + 1, exit)
                    },
                );
                if let Some(at) = null_end {
                    self.patch(at, Inst::NullEnd { slot, exit });
                }
            }
            Some(max) => {
                let optional = max - min;
                let mut splits = Vec::with_capacity(optional as usize);
                for _ in 0..optional {
                    splits.push(self.emit(Inst::Split(0, 0))?);
                    self.node(inner)?;
                }
                let exit = self.pc();
                for s in splits {
                    self.patch(
                        s,
                        if lazy {
                            Inst::Split(exit, s + 1)
                        } else {
                            Inst::Split(s + 1, exit)
                        },
                    );
                }
            }
        }
        Ok(())
    }
}
