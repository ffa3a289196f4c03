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
mod ikey;
mod index;
pub mod keys;
mod log;
mod mem;
pub mod mmr;
mod op;
mod proof;
mod snapshot;

pub use db::{Checkpoint, CommitInfo, Config, Db, KeyValue, Stats};
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
    hash::state_root(
        0,
        &hash::mmr_bag(0, &[]),
        &hash::bitmap_leaf(&[0; hash::CHUNK_BYTES]),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn db_is_send_for_the_addon() {
        fn assert_send<T: Send>() {}
        assert_send::<crate::Db>();
        assert_send::<crate::Proof>();
    }

    #[test]
    fn forged_checkpoint_refused() {
        let dir = std::env::temp_dir().join(format!("qmdb-cp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut db = crate::Db::open(&dir, crate::Config::default()).unwrap();
        let cp = db.checkpoint();
        let forged = crate::Checkpoint::from_parts(cp.depth(), cp.id() + 1);
        assert!(matches!(
            db.revert(forged),
            Err(crate::Error::BadCheckpoint { .. })
        ));
        assert!(db.revert(crate::Checkpoint::from_parts(0, 0)).is_err());
        db.revert(crate::Checkpoint::from_parts(cp.depth(), cp.id()))
            .unwrap();
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
