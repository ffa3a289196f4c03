//! `cowboy-runtime`: runs PVM actors against the world state.
//!
//! * [`QmdbHost`] implements the PVM's [`Host`] over a `&mut qmdb::Db`: an actor's storage
//!   cells live under `keys::actor_storage(VM_NS_PVM, actor, key)`, its balance is read from
//!   its account record (`keys::account`), and the signature primitives are the chain's own
//!   (secp256k1 as in transactions, Ed25519 strict RFC 8032, BLS12-381 MinPk of crates/bls).
//! * [`execute`] runs one deploy or call as the contract in /tmp/contracts.md (issue 4) says:
//!   it takes a checkpoint of the Db, writes storage straight into the pending overlay,
//!   releases the checkpoint when the handler succeeds and reverts it when it fails, so a
//!   failed invocation leaves nothing behind. A deploy stores the source under
//!   `keys::actor_code(actor)`; a call loads it from there. Value transfers of sent messages
//!   are *not* applied here: they are returned as effects for the state transition.

use cowboy_qmdb::{Db, keys};
pub use pvm_core::actor::ActorOutcome;
use pvm_core::actor::{Entry, Invocation};
pub use pvm_core::host::{Address, CallContext, Effect, TimerId};
use pvm_core::host::{Host, HostError};

/// VM namespace of PVM actor storage.
pub const VM_NS: u8 = keys::VM_NS_PVM;

/// A [`Host`] over the state store for one actor.
#[derive(Debug)]
pub struct QmdbHost<'a> {
    db: &'a mut Db,
    actor: Address,
}

impl<'a> QmdbHost<'a> {
    /// The host of `actor` over `db`. Writes go into the Db's pending overlay.
    pub fn new(db: &'a mut Db, actor: Address) -> Self {
        QmdbHost { db, actor }
    }

    fn key(&self, key: &[u8]) -> Result<Vec<u8>, HostError> {
        keys::actor_storage(VM_NS, &self.actor, key).map_err(|e| HostError::Storage(e.to_string()))
    }
}

fn storage_err(e: cowboy_qmdb::Error) -> HostError {
    HostError::Storage(e.to_string())
}

impl Host for QmdbHost<'_> {
    fn storage_get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, HostError> {
        let k = self.key(key)?;
        self.db.get(&k).map_err(storage_err)
    }

    fn storage_put(&mut self, key: &[u8], value: &[u8]) -> Result<(), HostError> {
        let k = self.key(key)?;
        self.db.put(&k, value).map_err(storage_err)
    }

    fn storage_delete(&mut self, key: &[u8]) -> Result<(), HostError> {
        let k = self.key(key)?;
        self.db.delete(&k).map_err(storage_err)
    }

    /// The balance from the account record (0 without one). Balances are u64 by contract; a
    /// larger stored balance is reported as `u64::MAX`.
    fn balance(&mut self) -> Result<u64, HostError> {
        match self
            .db
            .get(&keys::account(&self.actor))
            .map_err(storage_err)?
        {
            None => Ok(0),
            Some(raw) => {
                let acc = keys::Account::decode(&raw).map_err(storage_err)?;
                Ok(u64::try_from(acc.balance).unwrap_or(u64::MAX))
            }
        }
    }

    fn verify_secp256k1(
        &mut self,
        public_key: &[u8],
        hash: &[u8; 32],
        signature: &[u8],
    ) -> Result<bool, HostError> {
        Ok(verify_secp256k1(public_key, hash, signature))
    }

    fn secp256k1_recover(
        &mut self,
        hash: &[u8; 32],
        signature: &[u8],
    ) -> Result<Option<Address>, HostError> {
        Ok(secp256k1_recover(hash, signature))
    }

    fn verify_ed25519(
        &mut self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool, HostError> {
        Ok(verify_ed25519(public_key, message, signature))
    }

    fn verify_bls(
        &mut self,
        public_key: &[u8],
        namespace: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool, HostError> {
        Ok(verify_bls(public_key, namespace, message, signature))
    }
}

/// secp256k1 ECDSA: SEC1 key (33 or 65 bytes), 64-byte compact low-s signature, 32-byte hash.
pub fn verify_secp256k1(public_key: &[u8], hash: &[u8; 32], signature: &[u8]) -> bool {
    let Ok(pk) = secp256k1::PublicKey::from_slice(public_key) else {
        return false;
    };
    let Ok(sig) = secp256k1::ecdsa::Signature::from_compact(signature) else {
        return false;
    };
    sig.verify(secp256k1::Message::from_digest(*hash), &pk)
        .is_ok()
}

/// Ethereum-style recovery: 65-byte `r‖s‖v` (v ∈ {0, 1, 27, 28}, low s) → signer address.
pub fn secp256k1_recover(hash: &[u8; 32], signature: &[u8]) -> Option<Address> {
    let mut sig: [u8; 65] = signature.try_into().ok()?;
    if sig[64] >= 27 {
        sig[64] -= 27;
    }
    cowboy_codec::signing::recover_hash(hash, &sig, "signature")
        .ok()
        .map(|a| a.0)
}

/// Ed25519 (RFC 8032) with strict verification (no small-order keys, canonical `S`).
pub fn verify_ed25519(public_key: &[u8], message: &[u8], signature: &[u8]) -> bool {
    let (Ok(pk), Ok(sig)) = (
        <[u8; 32]>::try_from(public_key),
        <[u8; 64]>::try_from(signature),
    ) else {
        return false;
    };
    let Ok(vk) = ed25519_dalek::VerifyingKey::from_bytes(&pk) else {
        return false;
    };
    let sig = ed25519_dalek::Signature::from_bytes(&sig);
    vk.verify_strict(message, &sig).is_ok()
}

/// BLS12-381 MinPk (crates/bls): 48-byte key, 96-byte signature, message under `namespace`.
pub fn verify_bls(public_key: &[u8], namespace: &[u8], message: &[u8], signature: &[u8]) -> bool {
    let (Ok(pk), Ok(sig)) = (
        cowboy_bls::PublicKey::from_bytes(public_key),
        cowboy_bls::Signature::from_bytes(signature),
    ) else {
        return false;
    };
    pk.verify(namespace, message, &sig).is_ok()
}

/// Deploy or call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecKind {
    /// Store `code` as the actor's code and run `__init__(*args)` once.
    Deploy {
        /// Python source (canonical: UTF-8, LF line ends).
        code: String,
    },
    /// Call public handler `handler(*args)` (timer fires are calls too).
    Call {
        /// Handler name.
        handler: String,
    },
}

/// The context fields of an [`ExecRequest`] (the actor address is the request's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecContext {
    /// Immediate sender.
    pub sender: Address,
    /// Transaction signer.
    pub origin: Address,
    /// Value attached to the message (already credited by the state transition).
    pub value: u64,
    /// Executing block height.
    pub height: u64,
    /// Executing block timestamp.
    pub timestamp: u64,
    /// Chain id.
    pub chain_id: u32,
    /// Execution-readable beacon.
    pub beacon: [u8; 32],
    /// Unique id of this invocation (timer ids derive from it).
    pub invocation_id: [u8; 32],
    /// Message-chain depth (0 = the transaction's own call).
    pub depth: u32,
}

/// One actor invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecRequest {
    /// What to run.
    pub kind: ExecKind,
    /// The actor.
    pub actor: Address,
    /// Canonical CBOR array of positional arguments.
    pub args: Vec<u8>,
    /// Call context.
    pub context: ExecContext,
    /// Cycle budget.
    pub cycles_limit: u64,
    /// Cell budget.
    pub cells_limit: u64,
}

/// The failure of an invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// Python exception class name, or a runtime error type (`OutOfCycles`, `OutOfCells`,
    /// `HandlerNotFound`, `ActorNotFound`, `ActorExists`, `EncodingError`,
    /// `StorageQuotaExceeded`, `ReentrancyError`, `HostError`, …).
    pub kind: String,
    /// Message.
    pub message: String,
    /// `File "actor.py", line N, in f` lines, outermost first.
    pub traceback: Vec<String>,
}

/// Result of [`execute`]. On failure the Db is exactly as before the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecResult {
    /// Success.
    pub ok: bool,
    /// Canonical CBOR of the return value (success only; `null` for a deploy).
    pub result: Option<Vec<u8>>,
    /// The failure.
    pub error: Option<ExecError>,
    /// Cycles used.
    pub cycles_used: u64,
    /// Cells used (including the code bytes of a deploy).
    pub cells_used: u64,
    /// Printed output.
    pub stdout: String,
    /// Effects (success only).
    pub effects: Vec<Effect>,
}

fn early_failure(kind: &str, message: String) -> ExecResult {
    ExecResult {
        ok: false,
        result: None,
        error: Some(ExecError {
            kind: kind.into(),
            message,
            traceback: vec![],
        }),
        cycles_used: 0,
        cells_used: 0,
        stdout: String::new(),
        effects: vec![],
    }
}

/// Run one invocation against `db` (see the crate docs for the transaction semantics).
pub fn execute(db: &mut Db, req: &ExecRequest) -> ExecResult {
    let cp = db.checkpoint();
    let res = execute_in(db, req);
    let undo = if res.ok {
        db.release(cp)
    } else {
        db.revert(cp)
    };
    match undo {
        Ok(()) => res,
        Err(e) => early_failure("HostError", format!("checkpoint: {e}")),
    }
}

fn execute_in(db: &mut Db, req: &ExecRequest) -> ExecResult {
    let code_key = keys::actor_code(&req.actor);
    let existing = match db.get(&code_key) {
        Ok(c) => c,
        Err(e) => return early_failure("HostError", e.to_string()),
    };
    let (entry, source, code_cells) = match &req.kind {
        ExecKind::Deploy { code } => {
            if existing.is_some() {
                return early_failure(
                    "ActorExists",
                    format!("an actor is already deployed at 0x{}", hex(&req.actor)),
                );
            }
            if code.len() as u64 > req.cells_limit {
                return early_failure(
                    "OutOfCells",
                    format!(
                        "the code ({} bytes) exceeds the cell budget of {}",
                        code.len(),
                        req.cells_limit
                    ),
                );
            }
            if let Err(e) = db.put(&code_key, code.as_bytes()) {
                return early_failure("HostError", e.to_string());
            }
            (Entry::Deploy, code.clone(), code.len() as u64)
        }
        ExecKind::Call { handler } => {
            let Some(raw) = existing else {
                return early_failure(
                    "ActorNotFound",
                    format!("no actor is deployed at 0x{}", hex(&req.actor)),
                );
            };
            let Ok(src) = String::from_utf8(raw) else {
                return early_failure("HostError", "stored actor code is not UTF-8".into());
            };
            (Entry::Call(handler.clone()), src, 0)
        }
    };
    let c = &req.context;
    let inv = Invocation {
        entry,
        source,
        args: req.args.clone(),
        ctx: CallContext {
            actor: req.actor,
            sender: c.sender,
            origin: c.origin,
            value: c.value,
            height: c.height,
            timestamp: c.timestamp,
            chain_id: c.chain_id,
            beacon: c.beacon,
            invocation_id: c.invocation_id,
            depth: c.depth,
        },
        cycles: req.cycles_limit,
        cells: req.cells_limit - code_cells,
    };
    let mut host = QmdbHost::new(db, req.actor);
    let out = pvm_core::actor::execute(&mut host, &inv);
    ExecResult {
        ok: out.error.is_none(),
        result: out.result,
        error: out.error.map(|e| ExecError {
            kind: e.type_name,
            message: e.message,
            traceback: e.traceback,
        }),
        cycles_used: out.cycles_used,
        cells_used: out.cells_used + code_cells,
        stdout: out.stdout,
        effects: out.effects,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
