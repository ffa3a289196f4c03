//! Cowboy's world state: one authenticated key-value store with a blake3 state root per block.
//!
//! The design follows QMDB: every change is appended to an operation log; a Merkle mountain
//! range (MMR) commits to the log and an activity bitmap marks which operations are current.
//! The state root is `blake3(domain || op_count || MMR root || bitmap root)`. Updates carry the
//! next key in sorted order, so an active update proves a key present *or* a gap of absent
//! keys. See `docs/state.md` for the full rules.
//!
//! Entry points: [`Db`] (open, overlay writes with nested [`Checkpoint`]s, commit, reads,
//! historical reads, proofs, pruning), [`Proof::verify`] (stateless verification), and
//! [`keys`] (the namespaced key layout).

mod bitmap;
mod db;
mod error;
pub mod hash;
pub mod keys;
mod log;
pub mod mmr;
mod op;
mod proof;

pub use db::{Checkpoint, CommitInfo, Config, Db, Stats};
pub use error::Error;
pub use hash::{Hash, to_hex};
pub use op::Op;
pub use proof::{Proof, ProofError, Witness, in_gap, verify_bytes};

/// Longest key accepted by the store.
pub const MAX_KEY_LEN: usize = 1024;
/// Longest value accepted by the store (actor code included).
pub const MAX_VALUE_LEN: usize = 16 << 20;

/// The state root of the empty store (version 0).
pub fn empty_root() -> Hash {
    hash::state_root(0, &hash::mmr_bag(0, &[]), &hash::bitmap_leaf(&[0; 32]))
}
