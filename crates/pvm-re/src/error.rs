//! Errors of pattern compilation (`re.error`) and of matching.

use std::fmt;

/// A pattern error with CPython's message and the position (in code points) it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReError {
    /// the message, without the position suffix
    pub msg: String,
    /// position in the pattern, when there is one
    pub pos: Option<usize>,
}

impl ReError {
    /// A new error.
    pub fn new(msg: impl Into<String>, pos: Option<usize>) -> Self {
        ReError {
            msg: msg.into(),
            pos,
        }
    }
}

impl fmt::Display for ReError {
    /// `str(re.error)`: the message, then ` at position N` when known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{} at position {}", self.msg, p),
            None => write!(f, "{}", self.msg),
        }
    }
}

impl std::error::Error for ReError {}

/// Matching ran out of its step budget; the caller turns this into `OutOfCycles`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetExhausted;
