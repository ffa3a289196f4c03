//! JavaScript bindings of `cowboy-qmdb`, the authenticated world-state store (docs/state.md).
//!
//! `StateDb.open(dir, {historyWindow?, segmentBytes?, autoPrune?})` opens (or creates) a store;
//! keys and values are `Buffer`s, versions are `bigint`, counts are safe-integer `number`s.
//! Checkpoints cross the boundary as one number (the layer id). Every failure throws an `Error`
//! whose `code` is `ERR_<CODE>` with `<CODE>` one of `cowboy_qmdb::Error::code` (e.g.
//! `ERR_QMDB_KEY_LENGTH`, `ERR_QMDB_VERSION_UNAVAILABLE`, `ERR_QMDB_CLOSED`), a proof failure
//! `ERR_<ProofError::code>` (e.g. `ERR_PROOF_ROOT_MISMATCH`), a bad argument
//! `ERR_QMDB_INVALID_ARGUMENT`.
//!
//! The key layout (`stateKey*`) and the account record codec (`accountEncode`/`accountDecode`)
//! are exported too, so TypeScript never re-implements them. The Rust struct keeps the `Db`
//! in a crate-visible field so the actor runtime (runtime.rs) runs handlers against it without
//! crossing into JavaScript.

// `mod state;` is private in lib.rs; in `cargo test` builds napi-derive emits no registration
// code, so the exported items would look unused there.
#![cfg_attr(test, allow(dead_code))]

use cowboy_qmdb::{self as qmdb, keys};
use napi::bindgen_prelude::{BigInt, Buffer};
use napi_derive::napi;

type Result<T> = napi::Result<T, String>;

fn err(e: qmdb::Error) -> napi::Error<String> {
    napi::Error::new(format!("ERR_{}", e.code()), e.to_string())
}

fn proof_err(e: qmdb::ProofError) -> napi::Error<String> {
    napi::Error::new(format!("ERR_{}", e.code()), e.to_string())
}

fn arg(msg: impl ToString) -> napi::Error<String> {
    napi::Error::new("ERR_QMDB_INVALID_ARGUMENT".to_owned(), msg.to_string())
}

/// `Debug` for the JS-facing records (napi `Buffer`/`BigInt` fields have no `Debug`).
macro_rules! named_debug {
    ($($t:ty),*) => {$(
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t)).finish_non_exhaustive()
            }
        }
    )*};
}

named_debug!(
    StateCommit,
    StateStats,
    StateEntry,
    StateProofCheck,
    ParsedStateKey,
    StateAccount
);

/// Largest integer a JS number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn u64_of(name: &str, v: &BigInt) -> Result<u64> {
    if v.words.is_empty() {
        return Ok(0);
    }
    let (negative, value, lossless) = v.get_u64();
    if negative || !lossless {
        return Err(arg(format!("{name}: expected a u64 bigint")));
    }
    Ok(value)
}

fn u128_of(name: &str, v: &BigInt) -> Result<u128> {
    if v.words.is_empty() {
        return Ok(0);
    }
    let (negative, value, lossless) = v.get_u128();
    if negative || !lossless || v.words.len() > 2 {
        return Err(arg(format!("{name}: expected a u128 bigint")));
    }
    Ok(value)
}

fn count_of(name: &str, v: f64) -> Result<u64> {
    if !((0.0..=MAX_SAFE_INTEGER).contains(&v) && v.fract() == 0.0) {
        return Err(arg(format!(
            "{name}: expected a non-negative safe integer, got {v}"
        )));
    }
    Ok(v as u64)
}

fn address(name: &str, b: &[u8]) -> Result<keys::Address> {
    b.try_into()
        .map_err(|_| arg(format!("{name}: expected 20 bytes, got {}", b.len())))
}

/// Options of [`StateDb::open`].
#[napi(object)]
#[derive(Debug, Default)]
pub struct StateDbOptions {
    /// Committed versions that stay readable (`getAt`) and provable (`prove(key, version)`),
    /// latest included; at least 1 (default 128).
    pub history_window: Option<f64>,
    /// Target size of one log segment file in bytes (default 64 MiB); pruning frees whole
    /// segments.
    pub segment_bytes: Option<f64>,
    /// Prune history older than the window after each commit (default true).
    pub auto_prune: Option<bool>,
}

/// What `commit()` produced.
#[napi(object)]
pub struct StateCommit {
    /// The new version (1 for the first commit).
    pub version: BigInt,
    /// Its 32-byte state root.
    pub root: Buffer,
    /// Operations in the log history.
    pub op_count: f64,
    /// Inactivity floor.
    pub floor: f64,
    /// Live keys.
    pub active_keys: f64,
}

fn commit_js(c: &qmdb::CommitInfo) -> StateCommit {
    StateCommit {
        version: BigInt::from(c.version),
        root: c.root.to_vec().into(),
        op_count: c.op_count as f64,
        floor: c.floor as f64,
        active_keys: c.active_keys as f64,
    }
}

/// Size and shape of the store.
#[napi(object)]
pub struct StateStats {
    /// Latest committed version.
    pub version: BigInt,
    /// Oldest version still readable and provable.
    pub oldest_version: BigInt,
    /// Operations ever appended.
    pub op_count: f64,
    /// Inactivity floor.
    pub floor: f64,
    /// Live keys.
    pub active_keys: f64,
    /// Operations before this location have been pruned from disk.
    pub pruned_to: f64,
    /// Bytes on disk.
    pub disk_bytes: f64,
    /// Number of log segment files.
    pub segments: u32,
    /// Pending writes (distinct keys counted per open layer).
    pub pending: u32,
    /// Open checkpoints.
    pub open_checkpoints: u32,
}

/// One key and its value.
#[napi(object)]
pub struct StateEntry {
    /// The full key.
    pub key: Buffer,
    /// Its value.
    pub value: Buffer,
}

/// Result of verifying a proof: `exists` with the proven `value`, or proven absence.
#[napi(object)]
pub struct StateProofCheck {
    /// Whether the key is present.
    pub exists: bool,
    /// The proven value when present.
    pub value: Option<Buffer>,
}

/// The authenticated world-state store. One writer per directory (an exclusive lock is taken);
/// all methods are synchronous.
#[napi]
#[derive(Debug)]
pub struct StateDb {
    /// The store. Crate-visible so the actor runtime borrows it for handler execution.
    pub(crate) db: qmdb::Db,
}

#[napi]
impl StateDb {
    /// Opens (or creates) the store in `dir`, recovering to the last committed version.
    #[napi(factory)]
    pub fn open(dir: String, options: Option<StateDbOptions>) -> Result<StateDb> {
        let o = options.unwrap_or_default();
        let mut cfg = qmdb::Config::default();
        if let Some(h) = o.history_window {
            cfg.history = count_of("historyWindow", h)?;
        }
        if let Some(s) = o.segment_bytes {
            cfg.segment_bytes = count_of("segmentBytes", s)?;
        }
        if let Some(a) = o.auto_prune {
            cfg.auto_prune = a;
        }
        Ok(StateDb {
            db: qmdb::Db::open(dir, cfg).map_err(err)?,
        })
    }

    /// The value of `key` as the pending block sees it (innermost overlay first, then the
    /// latest commit), or `null`.
    #[napi]
    pub fn get(&self, key: Buffer) -> Result<Option<Buffer>> {
        Ok(self.db.get(&key).map_err(err)?.map(Buffer::from))
    }

    /// The value of `key` in the latest committed version (pending writes ignored), or `null`.
    #[napi]
    pub fn get_committed(&self, key: Buffer) -> Result<Option<Buffer>> {
        Ok(self.db.get_committed(&key).map_err(err)?.map(Buffer::from))
    }

    /// The value of `key` at retained committed `version`, or `null`.
    #[napi]
    pub fn get_at(&self, version: BigInt, key: Buffer) -> Result<Option<Buffer>> {
        let v = u64_of("version", &version)?;
        Ok(self.db.get_at(v, &key).map_err(err)?.map(Buffer::from))
    }

    /// Writes `key = value` into the innermost open layer.
    #[napi]
    pub fn put(&mut self, key: Buffer, value: Buffer) -> Result<()> {
        self.db.put(&key, &value).map_err(err)
    }

    /// Deletes `key` in the innermost open layer (deleting an absent key is a no-op).
    #[napi]
    pub fn delete(&mut self, key: Buffer) -> Result<()> {
        self.db.delete(&key).map_err(err)
    }

    /// Live keys starting with `prefix` as the pending block sees them, ascending, at most
    /// `limit` (default: all).
    #[napi]
    pub fn scan_prefix(&self, prefix: Buffer, limit: Option<f64>) -> Result<Vec<StateEntry>> {
        let limit = match limit {
            Some(l) => usize::try_from(count_of("limit", l)?).unwrap_or(usize::MAX),
            None => usize::MAX,
        };
        Ok(self
            .db
            .scan_prefix(&prefix, limit)
            .map_err(err)?
            .into_iter()
            .map(|(k, v)| StateEntry {
                key: k.into(),
                value: v.into(),
            })
            .collect())
    }

    /// Opens a nested overlay layer (transaction or message scope); returns its handle.
    #[napi]
    pub fn checkpoint(&mut self) -> Result<f64> {
        if self.db.is_closed() {
            return Err(err(qmdb::Error::Closed));
        }
        Ok(self.db.checkpoint().id() as f64)
    }

    fn cp(&self, cp: f64) -> Result<qmdb::Checkpoint> {
        let id = count_of("checkpoint", cp)?;
        self.db.checkpoint_of(id).map_err(err)
    }

    /// Discards every write made since checkpoint `cp` (inner checkpoints included).
    #[napi]
    pub fn revert(&mut self, cp: f64) -> Result<()> {
        let c = self.cp(cp)?;
        self.db.revert(c).map_err(err)
    }

    /// Keeps the writes made since checkpoint `cp`, folding them into the enclosing layer.
    #[napi]
    pub fn release(&mut self, cp: f64) -> Result<()> {
        let c = self.cp(cp)?;
        self.db.release(c).map_err(err)
    }

    /// Drops every pending write of the block (all layers, all checkpoints).
    #[napi]
    pub fn discard_pending(&mut self) -> Result<()> {
        if self.db.is_closed() {
            return Err(err(qmdb::Error::Closed));
        }
        self.db.discard_pending();
        Ok(())
    }

    /// Commits every pending write as the next version (durable before it returns).
    #[napi]
    pub fn commit(&mut self) -> Result<StateCommit> {
        Ok(commit_js(&self.db.commit().map_err(err)?))
    }

    /// Drops every committed version newer than `version` (which must be retained:
    /// `ERR_QMDB_VERSION_UNAVAILABLE` otherwise) and every pending write; returns the commit info
    /// of `version`, now the latest. Crash-safe: a kill at any moment reopens at the old head or
    /// at `version`.
    #[napi]
    pub fn rewind(&mut self, version: BigInt) -> Result<StateCommit> {
        let v = u64_of("version", &version)?;
        Ok(commit_js(&self.db.rewind(v).map_err(err)?))
    }

    /// State root of the latest committed version (32 bytes).
    #[napi]
    pub fn root(&self) -> Buffer {
        self.db.root().to_vec().into()
    }

    /// Latest committed version (0 = empty store).
    #[napi]
    pub fn version(&self) -> BigInt {
        BigInt::from(self.db.version())
    }

    /// Commit info of every retained version, oldest first.
    #[napi]
    pub fn history(&self) -> Vec<StateCommit> {
        self.db.history().iter().map(commit_js).collect()
    }

    /// Proof bytes for `key` (inclusion or exclusion) against the root of `version`
    /// (default: latest). Verify with `verifyStateProof` or ts/sdk's `verifyStateProof`.
    #[napi]
    pub fn prove(&self, key: Buffer, version: Option<BigInt>) -> Result<Buffer> {
        let v = match version {
            Some(v) => u64_of("version", &v)?,
            None => self.db.version(),
        };
        Ok(self.db.prove_at(v, &key).map_err(err)?.encode().into())
    }

    /// Deletes history older than the window now; returns the bytes freed.
    #[napi]
    pub fn prune(&mut self) -> Result<f64> {
        Ok(self.db.prune().map_err(err)? as f64)
    }

    /// Size and shape of the store.
    #[napi]
    pub fn stats(&self) -> StateStats {
        let s = self.db.stats();
        StateStats {
            version: BigInt::from(s.version),
            oldest_version: BigInt::from(self.db.oldest_version()),
            op_count: s.op_count as f64,
            floor: s.floor as f64,
            active_keys: s.active_keys as f64,
            pruned_to: s.pruned_to as f64,
            disk_bytes: s.disk_bytes as f64,
            segments: s.segments as u32,
            pending: self.db.pending_len() as u32,
            open_checkpoints: self.db.open_checkpoints() as u32,
        }
    }

    /// Bytes the store occupies on disk.
    #[napi]
    pub fn disk_bytes(&self) -> f64 {
        self.db.disk_bytes() as f64
    }

    /// Whether `close()` ran.
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.db.is_closed()
    }

    /// Closes the store: pending writes are dropped, an index snapshot is written so the next
    /// open is fast, and the directory lock is released. Later calls throw `ERR_QMDB_CLOSED`.
    #[napi]
    pub fn close(&mut self) -> Result<()> {
        self.db.close().map_err(err)
    }
}

/// Verifies proof bytes of `key` against a trusted 32-byte `root`. Returns the proven value or
/// proven absence; throws `ERR_PROOF_<CODE>` when the proof does not check out.
#[napi]
pub fn verify_state_proof(root: Buffer, key: Buffer, proof: Buffer) -> Result<StateProofCheck> {
    let root: qmdb::Hash = root[..]
        .try_into()
        .map_err(|_| arg(format!("root: expected 32 bytes, got {}", root.len())))?;
    let v = qmdb::verify_bytes(&root, &key, &proof).map_err(proof_err)?;
    Ok(StateProofCheck {
        exists: v.is_some(),
        value: v.map(Buffer::from),
    })
}

/// The state root of the empty store (version 0).
#[napi]
pub fn state_empty_root() -> Buffer {
    qmdb::empty_root().to_vec().into()
}

/// Account key (`0x01 · address`).
#[napi]
pub fn state_key_account(address_: Buffer) -> Result<Buffer> {
    Ok(keys::account(&address("address", &address_)?).into())
}

/// Actor code key (`0x02 · address`).
#[napi]
pub fn state_key_actor_code(address_: Buffer) -> Result<Buffer> {
    Ok(keys::actor_code(&address("address", &address_)?).into())
}

/// Actor storage key (`0x03 · vm_ns · address · key`, key 1..=512 bytes; vm_ns 1 = PVM).
#[napi]
pub fn state_key_actor_storage(vm_ns: u32, address_: Buffer, key: Buffer) -> Result<Buffer> {
    let ns = u8::try_from(vm_ns).map_err(|_| arg("vmNs: expected a byte"))?;
    Ok(
        keys::actor_storage(ns, &address("address", &address_)?, &key)
            .map_err(err)?
            .into(),
    )
}

/// Prefix of every storage key of one actor (`0x03 · vm_ns · address`).
#[napi]
pub fn state_key_actor_storage_prefix(vm_ns: u32, address_: Buffer) -> Result<Buffer> {
    let ns = u8::try_from(vm_ns).map_err(|_| arg("vmNs: expected a byte"))?;
    Ok(keys::actor_storage_prefix(ns, &address("address", &address_)?).into())
}

/// Timer key (`0x04 · height u64 BE · seq u64 BE`): byte order = (height, seq) order.
#[napi]
pub fn state_key_timer(height: BigInt, seq: BigInt) -> Result<Buffer> {
    Ok(keys::timer(u64_of("height", &height)?, u64_of("seq", &seq)?).into())
}

/// Prefix of every timer key of one fire height.
#[napi]
pub fn state_key_timer_height_prefix(height: BigInt) -> Result<Buffer> {
    Ok(keys::timer_height_prefix(u64_of("height", &height)?).into())
}

/// Job key (`0x05 · job id (32)`).
#[napi]
pub fn state_key_job(id: Buffer) -> Result<Buffer> {
    let id: [u8; 32] = id[..]
        .try_into()
        .map_err(|_| arg(format!("id: expected 32 bytes, got {}", id.len())))?;
    Ok(keys::job(&id).into())
}

/// Runner key (`0x06 · address`).
#[napi]
pub fn state_key_runner(address_: Buffer) -> Result<Buffer> {
    Ok(keys::runner(&address("address", &address_)?).into())
}

/// Entitlement key (`0x07 · address · id`, id 1..=64 bytes).
#[napi]
pub fn state_key_entitlement(address_: Buffer, id: Buffer) -> Result<Buffer> {
    Ok(keys::entitlement(&address("address", &address_)?, &id)
        .map_err(err)?
        .into())
}

/// Governance parameter key (`0x08 · name`, name 1..=64 bytes).
#[napi]
pub fn state_key_governance(name: Buffer) -> Result<Buffer> {
    Ok(keys::governance(&name).map_err(err)?.into())
}

/// A parsed state key: `namespace` is one of `account`, `actorCode`, `actorStorage`, `timer`,
/// `job`, `runner`, `entitlement`, `governance`; the other fields are set as the namespace has
/// them (`address`, `vmNs`+`address`+`key`, `height`+`seq`, `id`, `address`+`id`, `name`).
#[napi(object)]
#[derive(Default)]
pub struct ParsedStateKey {
    /// Namespace name.
    pub namespace: String,
    /// Account / actor / runner / entitlement holder address.
    pub address: Option<Buffer>,
    /// VM namespace of actor storage.
    pub vm_ns: Option<u32>,
    /// Actor storage key.
    pub key: Option<Buffer>,
    /// Timer fire height.
    pub height: Option<BigInt>,
    /// Timer FIFO sequence.
    pub seq: Option<BigInt>,
    /// Job id or entitlement id.
    pub id: Option<Buffer>,
    /// Governance parameter name.
    pub name: Option<Buffer>,
}

/// Parses a full state key (inverse of the `stateKey*` builders); throws
/// `ERR_QMDB_CORRUPT` for a key of no namespace.
#[napi]
pub fn state_key_parse(key: Buffer) -> Result<ParsedStateKey> {
    use keys::StateKey as K;
    let ns = |n: &str| n.to_owned();
    let addr = |a: &keys::Address| Some(Buffer::from(a.to_vec()));
    Ok(match K::parse(&key).map_err(err)? {
        K::Account(a) => ParsedStateKey {
            namespace: ns("account"),
            address: addr(&a),
            ..Default::default()
        },
        K::ActorCode(a) => ParsedStateKey {
            namespace: ns("actorCode"),
            address: addr(&a),
            ..Default::default()
        },
        K::ActorStorage {
            vm_ns,
            addr: a,
            key,
        } => ParsedStateKey {
            namespace: ns("actorStorage"),
            address: addr(&a),
            vm_ns: Some(u32::from(vm_ns)),
            key: Some(key.into()),
            ..Default::default()
        },
        K::Timer { height, seq } => ParsedStateKey {
            namespace: ns("timer"),
            height: Some(BigInt::from(height)),
            seq: Some(BigInt::from(seq)),
            ..Default::default()
        },
        K::Job(id) => ParsedStateKey {
            namespace: ns("job"),
            id: Some(id.to_vec().into()),
            ..Default::default()
        },
        K::Runner(a) => ParsedStateKey {
            namespace: ns("runner"),
            address: addr(&a),
            ..Default::default()
        },
        K::Entitlement { addr: a, id } => ParsedStateKey {
            namespace: ns("entitlement"),
            address: addr(&a),
            id: Some(id.into()),
            ..Default::default()
        },
        K::Governance(n) => ParsedStateKey {
            namespace: ns("governance"),
            name: Some(n.into()),
            ..Default::default()
        },
    })
}

/// The account record (`keys::Account`).
#[napi(object)]
pub struct StateAccount {
    /// Balance in base units (u128 in the record; the chain keeps it within u64).
    pub balance: BigInt,
    /// Next transaction nonce (u64).
    pub nonce: BigInt,
    /// blake3 hash of the actor code; 32 zero bytes for a plain account.
    pub code_hash: Buffer,
    /// Free-form metadata (at most 64 KiB).
    pub metadata: Buffer,
}

/// Canonical bytes of an account record.
#[napi]
pub fn account_encode(account: StateAccount) -> Result<Buffer> {
    let code_hash: [u8; 32] = account.code_hash[..].try_into().map_err(|_| {
        arg(format!(
            "codeHash: expected 32 bytes, got {}",
            account.code_hash.len()
        ))
    })?;
    if account.metadata.len() > keys::MAX_ACCOUNT_METADATA {
        return Err(arg(format!(
            "metadata: {} bytes, at most {}",
            account.metadata.len(),
            keys::MAX_ACCOUNT_METADATA
        )));
    }
    Ok(keys::Account {
        balance: u128_of("balance", &account.balance)?,
        nonce: u64_of("nonce", &account.nonce)?,
        code_hash,
        metadata: account.metadata.to_vec(),
    }
    .encode()
    .into())
}

/// Strict decoding of an account record; throws `ERR_QMDB_CORRUPT` on malformed bytes.
#[napi]
pub fn account_decode(bytes: Buffer) -> Result<StateAccount> {
    let a = keys::Account::decode(&bytes).map_err(err)?;
    Ok(StateAccount {
        balance: BigInt::from(a.balance),
        nonce: BigInt::from(a.nonce),
        code_hash: a.code_hash.to_vec().into(),
        metadata: a.metadata.into(),
    })
}
