//! The actor host interface: what an actor can do beyond pure computation.
//!
//! * [`Host`] is the narrow trait a chain (or a test) implements: per-actor storage cells,
//!   the actor's balance and the signature-verification primitives. Everything else an
//!   actor can do — messages, timers, events, randomness, hashing — is computed inside the
//!   PVM and returned as data ([`Effect`]s), so a failed handler simply drops it.
//! * [`costs`] is the one place where every host call is priced (whitepaper §17.3 and §3.5,
//!   CIP-3 for encoding). The PVM charges *before* it asks the host for anything.
//! * The built-in module `pvm_host` exposes the host calls to Python ([`call`]); the Python
//!   module `cowboy_sdk` (source in `src/sdk/cowboy_sdk.py`) is the user-facing API on top.
//! * [`to_cbor`] / [`from_cbor`] map Python values to the canonical CBOR data model of
//!   `cowboy-cbor` (handler arguments, results, storage values, message and timer payloads).
//!
//! Storage layout inside one actor's key space (the host prefixes `vm_ns · address`):
//! user keys are the canonical CBOR encoding of the Python key (`self.storage[k]`) or raw
//! bytes (`pvm_host.storage_set`); keys starting with `0xff` — never the first byte of a
//! CBOR item — are reserved for the runtime: [`STATE_KEY`] holds the persisted instance
//! attributes and [`USAGE_KEY`] the storage bytes in use, checked against the quota.

use crate::float::F64;
use crate::int;
use crate::value::*;
use crate::vm::{Abort, Flow, PyResult, Vm};
use cowboy_cbor as cbor;
use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;
use sha2::Digest;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A 20-byte account or actor address.
pub type Address = [u8; 20];
/// A 32-byte timer id.
pub type TimerId = [u8; 32];

/// Cycle and cell prices of every host call. Changing a value is a consensus change.
pub mod costs {
    /// `storage_read()` (§17.3).
    pub const STORAGE_READ: u64 = 100;
    /// `storage_write()` (§17.3); the written key and value bytes are charged as cells.
    pub const STORAGE_WRITE: u64 = 200;
    /// Deleting a storage cell costs like a write of nothing.
    pub const STORAGE_DELETE: u64 = 200;
    /// A storage read is metered as bandwidth: one cell per this many key+value bytes (§17.4:
    /// 0.01 cells/byte), rounded down.
    pub const READ_BYTES_PER_CELL: u64 = 100;
    /// `send_message()` (§17.3, §3.5 "mailbox send, per msg excl. payload").
    pub const SEND: u64 = 80;
    /// Timer set / cancel (§3.5).
    pub const TIMER: u64 = 200;
    /// `get_block_info()` (§17.3): every call-context accessor.
    pub const BLOCK_INFO: u64 = 100;
    /// `emit_event()` base (§17.3).
    pub const EMIT_BASE: u64 = 500;
    /// `emit_event()` per byte of topics + data (§17.3).
    pub const EMIT_PER_BYTE: u64 = 5;
    /// Event data is metered at 0.5 cells/byte (§17.4): one cell per this many bytes, rounded up.
    pub const EMIT_BYTES_PER_CELL: u64 = 2;
    /// BLS12-381 signature verification (§3.5).
    pub const BLS_VERIFY: u64 = 8_000;
    /// Ed25519 signature verification (§3.5).
    pub const ED25519_VERIFY: u64 = 5_000;
    /// secp256k1 verification or public-key recovery (§3.5).
    pub const SECP256K1_VERIFY: u64 = 10_000;
    /// SHA-256 base (§17.3).
    pub const SHA256_BASE: u64 = 500;
    /// SHA-256 per started 64-byte block of input (§17.3).
    pub const SHA256_PER_BLOCK: u64 = 8;
    /// Keccak-256 per started 32-byte word of input, at least one word (§17.3).
    pub const KECCAK_PER_WORD: u64 = 6;
    /// HKDF (`vrf`) (§3.5 / DESIGN.md).
    pub const HKDF: u64 = 1_000;
    /// Canonical encode / decode base; plus one cycle per encoded byte (CIP-3: 10 + len).
    pub const CODEC_BASE: u64 = 10;

    /// Cycles of hashing `n` bytes with SHA-256.
    pub fn sha256(n: usize) -> u64 {
        SHA256_BASE + SHA256_PER_BLOCK * (n as u64).div_ceil(64)
    }
    /// Cycles of hashing `n` bytes with Keccak-256.
    pub fn keccak256(n: usize) -> u64 {
        KECCAK_PER_WORD * (n as u64).div_ceil(32).max(1)
    }
    /// Cycles of encoding to / decoding from `n` canonical bytes.
    pub fn codec(n: usize) -> u64 {
        CODEC_BASE + n as u64
    }
}

/// Largest key (in bytes, after encoding) of one storage cell.
pub const MAX_KEY_BYTES: usize = 512;
/// Storage quota of one actor: key + value bytes of all its cells (whitepaper §3.2).
pub const STORAGE_QUOTA: u64 = 1 << 20;
/// Deepest reentrant message chain (whitepaper §3.3).
pub const MAX_CALL_DEPTH: u32 = 32;
/// Most messages one invocation may send (whitepaper §3.3: 1,024 per transaction).
pub const MAX_SENDS: usize = 1024;
/// Most topics of one event.
pub const MAX_TOPICS: usize = 4;
/// Longest topic.
pub const MAX_TOPIC_BYTES: usize = 32;
/// Reserved cell: the persisted instance attributes (a CBOR map name → value).
pub const STATE_KEY: &[u8] = &[0xff, b's'];
/// Reserved cell: storage bytes in use by the actor (u64 big-endian), excluding this cell.
pub const USAGE_KEY: &[u8] = &[0xff, b'u'];
/// Domain prefix of timer ids (contract: keccak256("cowboy-timer" ‖ invocation ‖ u32 BE index)).
pub const TIMER_DOMAIN: &[u8] = b"cowboy-timer";
/// HKDF salt of `vrf` (the chain's beacon salt, crates/bls `BEACON_HKDF_SALT`).
pub const VRF_SALT: &[u8] = b"cowboy-v1/beacon-hkdf";
/// Domain prefix of job ids: keccak256("cowboy-job" ‖ invocation ‖ u32 BE index).
pub const JOB_DOMAIN: &[u8] = b"cowboy-job";
/// Job types of the runner marketplace (CIP-2 §2 `JobType`, plus containers of §1).
pub const JOB_TYPES: &[&str] = &["container", "custom", "http", "llm", "mcp"];
/// Prefix of the HKDF info of actor randomness: `"cowboy-actor:" ‖ address ‖ label`.
pub const VRF_INFO_PREFIX: &[u8] = b"cowboy-actor:";

/// The context of one invocation, supplied by the caller (the state transition).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallContext {
    /// The actor being run.
    pub actor: Address,
    /// Immediate sender (an account or an actor).
    pub sender: Address,
    /// The account that signed the originating transaction.
    pub origin: Address,
    /// Value attached to this message, already credited to the actor.
    pub value: u64,
    /// Height of the executing block.
    pub height: u64,
    /// Timestamp of the executing block (as the block header carries it).
    pub timestamp: u64,
    /// Chain id.
    pub chain_id: u32,
    /// Execution-readable beacon of the block (whitepaper §3.4).
    pub beacon: [u8; 32],
    /// Unique id of this invocation (timer ids are derived from it).
    pub invocation_id: [u8; 32],
    /// Position in the message chain: 0 for a transaction's own call.
    pub depth: u32,
}

/// Something a handler asks the chain to do after it returns successfully.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A message to `to` calling `handler` with canonical-CBOR `args` (an array), carrying
    /// `value` from the actor's balance. The state transition delivers it and moves the value.
    Send {
        /// Recipient.
        to: Address,
        /// Handler name.
        handler: String,
        /// Canonical CBOR array of positional arguments.
        args: Vec<u8>,
        /// Attached value.
        value: u64,
    },
    /// An event for receipts and subscriptions.
    Event {
        /// Up to [`MAX_TOPICS`] topics of up to [`MAX_TOPIC_BYTES`] bytes.
        topics: Vec<Vec<u8>>,
        /// Payload.
        data: Vec<u8>,
    },
    /// A timer: call `handler(data)` on this actor at `fire_at`, then every `interval` blocks.
    SetTimer {
        /// Timer id (see [`timer_id`]).
        id: TimerId,
        /// First fire height (> the executing height).
        fire_at: u64,
        /// Repeat period in blocks for intervals.
        interval: Option<u64>,
        /// Handler name.
        handler: String,
        /// Canonical CBOR of the payload passed as the handler's single argument.
        data: Vec<u8>,
    },
    /// Cancel a pending timer of this actor.
    CancelTimer {
        /// Timer id.
        id: TimerId,
    },
    /// An off-chain job for the runner marketplace (CIP-2); its verified result comes back as
    /// a call of `callback(job_id, result)` on this actor from the Result Verifier.
    Job {
        /// Job id (see [`job_id`]).
        id: [u8; 32],
        /// One of [`JOB_TYPES`].
        job_type: String,
        /// Canonical CBOR of the job's parameters (URL, prompt, tool, …).
        spec: Vec<u8>,
        /// Handler receiving the result.
        callback: String,
        /// Maximum price the actor pays (escrowed from its balance by the state transition).
        max_price: u64,
        /// Priority tip.
        tip: u64,
        /// Blocks the runners have before the job times out.
        timeout_blocks: u64,
    },
}

/// A host failure. Any of these aborts the handler (it is not catchable by Python code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostError {
    /// The host does not provide this primitive.
    Unsupported(&'static str),
    /// The state store failed or holds corrupt data.
    Storage(String),
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostError::Unsupported(w) => write!(f, "the host does not support {w}"),
            HostError::Storage(m) => write!(f, "state store error: {m}"),
        }
    }
}

impl std::error::Error for HostError {}

/// What the chain provides to a running actor. Implementations see only the storage of the
/// actor being run (keys are relative to its key space, 1..=[`MAX_KEY_BYTES`] bytes or the
/// reserved cells). They do not charge anything: the PVM charges from [`costs`] first.
pub trait Host {
    /// Read one storage cell.
    fn storage_get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, HostError>;
    /// Write one storage cell.
    fn storage_put(&mut self, key: &[u8], value: &[u8]) -> Result<(), HostError>;
    /// Delete one storage cell (absent cells are fine).
    fn storage_delete(&mut self, key: &[u8]) -> Result<(), HostError>;
    /// The actor's current balance.
    fn balance(&mut self) -> Result<u64, HostError>;
    /// Verify a secp256k1 ECDSA signature (`r‖s`, 64 bytes, low-s) over a 32-byte hash with a
    /// SEC1 public key (33 or 65 bytes). `Ok(false)` for malformed keys or signatures.
    fn verify_secp256k1(
        &mut self,
        _public_key: &[u8],
        _hash: &[u8; 32],
        _signature: &[u8],
    ) -> Result<bool, HostError> {
        Err(HostError::Unsupported("secp256k1 verification"))
    }
    /// Recover the Ethereum-style address that signed `hash` (`r‖s‖v`, 65 bytes, v ∈ {0,1,27,28}).
    fn secp256k1_recover(
        &mut self,
        _hash: &[u8; 32],
        _signature: &[u8],
    ) -> Result<Option<Address>, HostError> {
        Err(HostError::Unsupported("secp256k1 recovery"))
    }
    /// Verify an Ed25519 signature (RFC 8032; 32-byte key, 64-byte signature).
    fn verify_ed25519(
        &mut self,
        _public_key: &[u8],
        _message: &[u8],
        _signature: &[u8],
    ) -> Result<bool, HostError> {
        Err(HostError::Unsupported("Ed25519 verification"))
    }
    /// Verify a BLS12-381 MinPk signature (48-byte key, 96-byte signature) over `message`
    /// signed under `namespace` (the chain's BLS framing, crates/bls).
    fn verify_bls(
        &mut self,
        _public_key: &[u8],
        _namespace: &[u8],
        _message: &[u8],
        _signature: &[u8],
    ) -> Result<bool, HostError> {
        Err(HostError::Unsupported("BLS verification"))
    }
}

/// An in-memory [`Host`] for tests and tools: one actor's storage in a sorted map and a
/// fixed balance. Signature primitives are unsupported.
#[derive(Clone, Debug, Default)]
pub struct MemoryHost {
    /// Storage cells.
    pub storage: BTreeMap<Vec<u8>, Vec<u8>>,
    /// Balance reported to the actor.
    pub balance: u64,
}

impl Host for MemoryHost {
    fn storage_get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, HostError> {
        Ok(self.storage.get(key).cloned())
    }
    fn storage_put(&mut self, key: &[u8], value: &[u8]) -> Result<(), HostError> {
        self.storage.insert(key.to_vec(), value.to_vec());
        Ok(())
    }
    fn storage_delete(&mut self, key: &[u8]) -> Result<(), HostError> {
        self.storage.remove(key);
        Ok(())
    }
    fn balance(&mut self) -> Result<u64, HostError> {
        Ok(self.balance)
    }
}

/// The timer id of the `index`-th timer set by invocation `invocation_id`:
/// `keccak256("cowboy-timer" ‖ invocation_id ‖ u32 BE index)`.
pub fn timer_id(invocation_id: &[u8; 32], index: u32) -> TimerId {
    let mut h = sha3::Keccak256::new();
    h.update(TIMER_DOMAIN);
    h.update(invocation_id);
    h.update(index.to_be_bytes());
    h.finalize().into()
}

/// The id of the `index`-th job submitted by invocation `invocation_id`:
/// `keccak256("cowboy-job" ‖ invocation_id ‖ u32 BE index)`.
pub fn job_id(invocation_id: &[u8; 32], index: u32) -> [u8; 32] {
    let mut h = sha3::Keccak256::new();
    h.update(JOB_DOMAIN);
    h.update(invocation_id);
    h.update(index.to_be_bytes());
    h.finalize().into()
}

/// `vrf(label)`: HKDF-SHA256(salt = [`VRF_SALT`], IKM = beacon,
/// info = [`VRF_INFO_PREFIX`] ‖ actor address ‖ label), 32 bytes.
pub fn vrf(beacon: &[u8; 32], actor: &Address, label: &[u8]) -> [u8; 32] {
    // HKDF (RFC 5869) with one output block: PRK = HMAC(salt, IKM); OKM = HMAC(PRK, info ‖ 0x01).
    let prk = hmac_sha256(VRF_SALT, beacon);
    let mut info = Vec::with_capacity(VRF_INFO_PREFIX.len() + 20 + label.len() + 1);
    info.extend_from_slice(VRF_INFO_PREFIX);
    info.extend_from_slice(actor);
    info.extend_from_slice(label);
    info.push(1);
    hmac_sha256(&prk, &info)
}

fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&sha2::Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = sha2::Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(msg);
    let ih = inner.finalize();
    let mut outer = sha2::Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(ih);
    outer.finalize().into()
}

/// Per-invocation actor state held by the VM while an actor runs.
pub struct ActorState {
    /// The host, with its lifetime erased. Invariant: only set by [`with_host`], which clears
    /// it before the borrowed host goes out of scope; never dereferenced after that.
    host: Option<*mut (dyn Host + 'static)>,
    /// Call context.
    pub ctx: CallContext,
    /// Effects so far, in order.
    pub effects: Vec<Effect>,
    /// Cell limit of the invocation.
    pub cells_limit: u64,
    timers: u32,
    jobs: u32,
    sends: usize,
    sent_value: u128,
    usage: Option<u64>,
    usage_dirty: bool,
    /// Undo log: (key, previous value) of every write, replayed backwards on failure.
    undo: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    /// A fatal (uncatchable) host condition: (error type, message).
    pub(crate) fatal: Option<(String, String)>,
}

impl std::fmt::Debug for ActorState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ActorState")
            .field("ctx", &self.ctx)
            .field("effects", &self.effects.len())
            .finish()
    }
}

impl ActorState {
    /// Fresh state for one invocation.
    pub fn new(ctx: CallContext, cells_limit: u64) -> ActorState {
        ActorState {
            host: None,
            ctx,
            effects: Vec::new(),
            cells_limit,
            timers: 0,
            jobs: 0,
            sends: 0,
            sent_value: 0,
            usage: None,
            usage_dirty: false,
            undo: Vec::new(),
            fatal: None,
        }
    }
}

/// Run `f` with `host` attached to the actor state of `vm` (which must have one). The host is
/// detached again before this returns, also when `f` panics.
pub fn with_host<'h, R>(
    vm: &mut Vm,
    host: &'h mut (dyn Host + 'h),
    f: impl FnOnce(&mut Vm) -> R,
) -> R {
    struct Detach<'a>(&'a mut Vm);
    impl Drop for Detach<'_> {
        fn drop(&mut self) {
            if let Some(a) = self.0.actor.as_mut() {
                a.host = None;
            }
        }
    }
    let ptr: *mut (dyn Host + 'h) = host;
    // SAFETY: only the lifetime bound is erased. The pointer is stored in the VM for the
    // duration of this function (the `Detach` guard clears it on every exit path), during
    // which `host` stays mutably borrowed by us, so it is valid and unaliased whenever the VM
    // dereferences it (only through `host_mut`, one short-lived borrow at a time).
    let ptr: *mut (dyn Host + 'static) = unsafe { std::mem::transmute(ptr) };
    if let Some(a) = vm.actor.as_mut() {
        a.host = Some(ptr);
    }
    let guard = Detach(vm);
    f(guard.0)
}

fn state(vm: &Vm) -> PyResult<&ActorState> {
    match vm.actor.as_deref() {
        Some(a) => Ok(a),
        None => Err(vm.exc(
            "RuntimeError",
            "pvm_host is only available while an actor handler runs",
        )),
    }
}

fn state_mut(vm: &mut Vm) -> PyResult<&mut ActorState> {
    if vm.actor.is_none() {
        return Err(vm.exc(
            "RuntimeError",
            "pvm_host is only available while an actor handler runs",
        ));
    }
    Ok(vm.actor.as_deref_mut().expect("checked"))
}

fn fatal(vm: &mut Vm, kind: &str, msg: String) -> Flow {
    if let Some(a) = vm.actor.as_deref_mut() {
        a.fatal = Some((kind.to_string(), msg.clone()));
    }
    Flow::Abort(Abort::Sandbox(format!("{kind}: {msg}")))
}

/// Call the host with a short-lived borrow; host errors abort the invocation.
fn with<R>(vm: &mut Vm, f: impl FnOnce(&mut dyn Host) -> Result<R, HostError>) -> PyResult<R> {
    let ptr = state(vm)?.host;
    let Some(ptr) = ptr else {
        return Err(vm.exc("RuntimeError", "no host is attached to this invocation"));
    };
    // SAFETY: see `with_host`: the pointer is valid while attached, and this is the only live
    // borrow of the host (it ends before this function returns).
    let host = unsafe { &mut *ptr };
    match f(host) {
        Ok(r) => Ok(r),
        Err(e) => Err(fatal(vm, "HostError", e.to_string())),
    }
}

/// Charge cells, aborting with `OutOfCells` past the invocation's cell limit.
pub fn charge_cells(vm: &mut Vm, n: u64) -> PyResult<()> {
    vm.charge_cells(n);
    let limit = vm
        .actor
        .as_deref()
        .map(|a| a.cells_limit)
        .unwrap_or(u64::MAX);
    if vm.meter.cells > limit {
        let used = vm.meter.cells;
        return Err(fatal(
            vm,
            "OutOfCells",
            format!("cell budget exhausted ({used} > {limit})"),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// storage

/// Read a cell (charged: [`costs::STORAGE_READ`] + bandwidth cells).
pub fn storage_read(vm: &mut Vm, key: &[u8]) -> PyResult<Option<Vec<u8>>> {
    vm.charge(costs::STORAGE_READ)?;
    let v = with(vm, |h| h.storage_get(key))?;
    let n = key.len() + v.as_ref().map_or(0, |v| v.len());
    charge_cells(vm, n as u64 / costs::READ_BYTES_PER_CELL)?;
    Ok(v)
}

fn usage(vm: &mut Vm) -> PyResult<u64> {
    if let Some(u) = state(vm)?.usage {
        return Ok(u);
    }
    let raw = with(vm, |h| h.storage_get(USAGE_KEY))?;
    let u = match raw {
        None => 0,
        Some(b) if b.len() == 8 => u64::from_be_bytes(b.try_into().expect("8")),
        Some(_) => {
            return Err(fatal(
                vm,
                "HostError",
                "corrupt storage usage record".into(),
            ));
        }
    };
    state_mut(vm)?.usage = Some(u);
    Ok(u)
}

/// Write (`Some`) or delete (`None`) a cell without charging: quota accounting and the undo log.
fn write_raw(vm: &mut Vm, key: &[u8], value: Option<&[u8]>) -> PyResult<()> {
    let old = with(vm, |h| h.storage_get(key))?;
    let old_size = old.as_ref().map_or(0, |v| key.len() + v.len()) as u64;
    let new_size = value.map_or(0, |v| key.len() + v.len()) as u64;
    let used = usage(vm)?;
    let next = used - old_size.min(used) + new_size;
    if next > STORAGE_QUOTA && new_size > old_size {
        return Err(fatal(
            vm,
            "StorageQuotaExceeded",
            format!("actor storage would use {next} bytes, over the quota of {STORAGE_QUOTA}"),
        ));
    }
    match value {
        Some(v) => with(vm, |h| h.storage_put(key, v))?,
        None => with(vm, |h| h.storage_delete(key))?,
    }
    let a = state_mut(vm)?;
    a.undo.push((key.to_vec(), old));
    a.usage = Some(next);
    a.usage_dirty |= next != used;
    Ok(())
}

/// Write a cell (charged: [`costs::STORAGE_WRITE`] + key and value bytes as cells).
pub fn storage_write(vm: &mut Vm, key: &[u8], value: &[u8]) -> PyResult<()> {
    vm.charge(costs::STORAGE_WRITE)?;
    charge_cells(vm, (key.len() + value.len()) as u64)?;
    write_raw(vm, key, Some(value))
}

/// Delete a cell (charged: [`costs::STORAGE_DELETE`]).
pub fn storage_remove(vm: &mut Vm, key: &[u8]) -> PyResult<()> {
    vm.charge(costs::STORAGE_DELETE)?;
    write_raw(vm, key, None)
}

/// Persist the usage counter if it changed (end of a successful invocation; uncharged: the
/// counter's upkeep is part of the writes that changed it).
pub(crate) fn flush_usage(vm: &mut Vm) -> PyResult<()> {
    let (dirty, usage) = match vm.actor.as_deref() {
        Some(a) => (a.usage_dirty, a.usage),
        None => return Ok(()),
    };
    if let (true, Some(u)) = (dirty, usage) {
        if u == 0 {
            with(vm, |h| h.storage_delete(USAGE_KEY))?;
        } else {
            with(vm, |h| h.storage_put(USAGE_KEY, &u.to_be_bytes()))?;
        }
        state_mut(vm)?.usage_dirty = false;
    }
    Ok(())
}

/// Undo every write of the invocation (newest first) and drop its effects.
pub(crate) fn rollback(vm: &mut Vm) -> Result<(), HostError> {
    let Some(a) = vm.actor.as_deref_mut() else {
        return Ok(());
    };
    let undo = std::mem::take(&mut a.undo);
    a.effects.clear();
    a.usage = None;
    a.usage_dirty = false;
    let Some(ptr) = a.host else {
        return Ok(());
    };
    // SAFETY: as in `with`.
    let host = unsafe { &mut *ptr };
    for (k, old) in undo.into_iter().rev() {
        match old {
            Some(v) => host.storage_put(&k, &v)?,
            None => host.storage_delete(&k)?,
        }
    }
    Ok(())
}

fn check_user_key(vm: &Vm, key: &[u8]) -> PyResult<()> {
    if key.is_empty() || key.len() > MAX_KEY_BYTES {
        return Err(vm.exc(
            "ValueError",
            format!(
                "storage keys must be 1..={MAX_KEY_BYTES} bytes, got {}",
                key.len()
            ),
        ));
    }
    if key[0] == 0xff {
        return Err(vm.exc(
            "ValueError",
            "storage keys starting with 0xff are reserved for the runtime",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// canonical CBOR <-> Python values

fn cannot_encode(vm: &Vm, v: &Value) -> Flow {
    vm.type_err(format!(
        "cannot encode a value of type '{}' canonically (allowed: None, bool, int, float, str, \
         bytes, list, tuple, dict, set)",
        vm.type_name(v)
    ))
}

/// Convert a Python value to the canonical data model (no charging; see [`encode`]).
pub fn to_cbor(vm: &mut Vm, v: &Value, depth: usize) -> PyResult<cbor::Value> {
    if depth > cbor::MAX_DEPTH {
        return Err(vm.exc(
            "ValueError",
            format!(
                "value nested deeper than {} levels cannot be encoded",
                cbor::MAX_DEPTH
            ),
        ));
    }
    Ok(match v {
        Value::None => cbor::Value::Null,
        Value::Bool(b) => cbor::Value::Bool(*b),
        Value::Int(i) => cbor::Value::int(*i as i128),
        Value::BigInt(b) => big_to_cbor(b),
        Value::Float(f) => cbor::Value::float(f.0),
        Value::Str(s) => cbor::Value::Text(s.s.to_string()),
        Value::Bytes(b) => cbor::Value::Bytes(b.b.to_vec()),
        Value::ByteArray(b) => cbor::Value::Bytes(b.b.borrow().clone()),
        Value::List(l) => {
            let items = l.v.borrow().clone();
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(to_cbor(vm, it, depth + 1)?);
            }
            cbor::Value::Array(out)
        }
        Value::Tuple(t) => {
            let mut out = Vec::with_capacity(t.v.len());
            for it in t.v.iter() {
                out.push(to_cbor(vm, it, depth + 1)?);
            }
            cbor::Value::Array(out)
        }
        Value::Dict(d) => {
            let entries: Vec<(Value, Value)> =
                d.d.borrow()
                    .iter()
                    .map(|e| (e.key.clone(), e.value.clone()))
                    .collect();
            let mut out = Vec::with_capacity(entries.len());
            for (k, val) in &entries {
                out.push((to_cbor(vm, k, depth + 1)?, to_cbor(vm, val, depth + 1)?));
            }
            cbor::Value::Map(out)
        }
        Value::Set(s) | Value::FrozenSet(s) => {
            let keys: Vec<Value> = s.d.borrow().iter().map(|e| e.key.clone()).collect();
            let mut out = Vec::with_capacity(keys.len());
            for k in &keys {
                out.push(to_cbor(vm, k, depth + 1)?);
            }
            cbor::Value::Set(out)
        }
        Value::Instance(_) => match vm.native_of(v) {
            // subclasses of built-in containers (e.g. OrderedDict) encode as their payload
            Some(n) if !matches!(n, Value::Instance(_)) => to_cbor(vm, &n, depth)?,
            _ => return Err(cannot_encode(vm, v)),
        },
        _ => return Err(cannot_encode(vm, v)),
    })
}

fn big_to_cbor(b: &BigInt) -> cbor::Value {
    if let Some(i) = b.to_i128() {
        return cbor::Value::int(i);
    }
    let (sign, mag) = b.to_bytes_be();
    if sign == Sign::Minus {
        // -1 - m = b  =>  m = |b| - 1
        let m: BigInt = -b - 1;
        cbor::Value::BigNint(m.to_bytes_be().1)
    } else {
        cbor::Value::BigUint(mag)
    }
}

/// Convert a decoded canonical value to Python. Arrays become lists, except inside map keys
/// and set elements, where they become tuples (so tuple keys round-trip).
pub fn from_cbor(vm: &mut Vm, v: &cbor::Value, as_key: bool) -> PyResult<Value> {
    Ok(match v {
        cbor::Value::Null => Value::None,
        cbor::Value::Bool(b) => Value::Bool(*b),
        cbor::Value::Uint(n) => int::from_big(BigInt::from(*n)),
        cbor::Value::Nint(n) => int::from_big(-BigInt::from(*n) - 1),
        cbor::Value::BigUint(m) => {
            int::checked(BigInt::from_bytes_be(Sign::Plus, m)).map_err(|e| vm.int_err(e))?
        }
        cbor::Value::BigNint(m) => {
            int::checked(-BigInt::from_bytes_be(Sign::Plus, m) - 1).map_err(|e| vm.int_err(e))?
        }
        cbor::Value::Float(bits) => Value::Float(F64(*bits)),
        cbor::Value::Text(s) => Value::str(s.as_str()),
        cbor::Value::Bytes(b) => Value::bytes(b.clone()),
        cbor::Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(from_cbor(vm, it, as_key)?);
            }
            vm.check_mem(0)?;
            if as_key {
                Value::tuple(out)
            } else {
                Value::list(out)
            }
        }
        cbor::Value::Map(entries) => {
            let d = Value::dict(crate::dict::Dict::new());
            for (k, val) in entries {
                let k = from_cbor(vm, k, true)?;
                let val = from_cbor(vm, val, false)?;
                vm.setitem(&d, k, val)?;
            }
            vm.check_mem(0)?;
            d
        }
        cbor::Value::Set(items) => {
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(from_cbor(vm, it, true)?);
            }
            vm.new_set(out)?
        }
    })
}

/// Encode a Python value canonically, charging [`costs::codec`] of the output length.
pub fn encode(vm: &mut Vm, v: &Value) -> PyResult<Vec<u8>> {
    let c = to_cbor(vm, v, 0)?;
    let bytes =
        cbor::encode(&c).map_err(|e| vm.exc("ValueError", format!("cannot encode: {e}")))?;
    vm.charge(costs::codec(bytes.len()))?;
    Ok(bytes)
}

/// Decode canonical bytes to a Python value, charging [`costs::codec`] of the input length.
pub fn decode(vm: &mut Vm, bytes: &[u8]) -> PyResult<Value> {
    vm.charge(costs::codec(bytes.len()))?;
    let c = cbor::decode(bytes)
        .map_err(|e| vm.exc("ValueError", format!("not a canonical encoding: {e}")))?;
    from_cbor(vm, &c, false)
}

// ---------------------------------------------------------------------------------------------
// the modules

/// Names of the native functions of `pvm_host`.
pub const PVM_HOST_FUNCS: &[&str] = &[
    "storage_get",
    "storage_set",
    "storage_delete",
    "load",
    "store",
    "remove",
    "contains",
    "encode",
    "decode",
    "sender",
    "origin",
    "value",
    "address",
    "block_height",
    "block_timestamp",
    "chain_id",
    "balance",
    "beacon",
    "depth",
    "invocation_id",
    "send",
    "emit",
    "set_timer",
    "set_interval",
    "cancel_timer",
    "vrf",
    "sha256",
    "keccak256",
    "verify_secp256k1",
    "verify_ed25519",
    "verify_bls",
    "ecrecover",
    "submit_job",
];

/// The Python source of `cowboy_sdk`.
pub const COWBOY_SDK_SOURCE: &str = include_str!("sdk/cowboy_sdk.py");

/// Build `cowboy_sdk` or `pvm_host` (the dispatch point of `crate::modules`).
///
/// `cowboy_sdk` comes from this thread's pre-initialised image
/// ([`crate::modules::image`]) when the VM has the headroom its body needs; otherwise its
/// body runs ([`run_sdk_body`]). Both give the same module, costs and accounting.
pub fn runtime_module(vm: &mut Vm, name: &str) -> PyResult<Value> {
    if name == "pvm_host" {
        return Ok(crate::modules::native_helper("pvm_host", PVM_HOST_FUNCS));
    }
    if let Some(m) = crate::modules::image::sdk(vm) {
        return Ok(m);
    }
    run_sdk_body(vm)
}

/// Build `cowboy_sdk` by running its module body (what every import did before module
/// images; still the path when an image cannot be used).
pub fn run_sdk_body(vm: &mut Vm) -> PyResult<Value> {
    let name = "cowboy_sdk";
    let code =
        crate::compile::compile_module(COWBOY_SDK_SOURCE, "<pvm>/cowboy_sdk.py").map_err(|e| {
            vm.exc(
                "SystemError",
                format!("cowboy_sdk does not compile: {} (line {})", e.msg, e.line),
            )
        })?;
    let mut d = crate::dict::Dict::new();
    d.set_str(Rc::new(PyStr::new("__name__")), Value::str(name));
    let module = Rc::new(Module {
        name: Rc::from(name),
        dict: std::cell::RefCell::new(d),
    });
    crate::heap::register(crate::heap::Tracked::Module(Rc::downgrade(&module)));
    // Same rule as the Python-source standard library: the body runs on its own budget and
    // the importer pays the flat import cost.
    let (left, limit) = (vm.meter.left, vm.meter.limit);
    vm.meter.left = crate::modules::MODULE_INIT_BUDGET;
    vm.meter.limit = crate::modules::MODULE_INIT_BUDGET;
    let r = vm.run_module_in(code, &module);
    vm.meter.left = left;
    vm.meter.limit = limit;
    r?;
    Ok(Value::Module(module))
}

fn arg<'a>(vm: &Vm, args: &'a [Value], i: usize, f: &str) -> PyResult<&'a Value> {
    args.get(i)
        .ok_or_else(|| vm.type_err(format!("pvm_host.{f}() missing argument {}", i + 1)))
}

fn bytes_arg(vm: &Vm, v: &Value, what: &str) -> PyResult<Vec<u8>> {
    match v {
        Value::Bytes(b) => Ok(b.b.to_vec()),
        Value::ByteArray(b) => Ok(b.b.borrow().clone()),
        _ => Err(vm.type_err(format!("{what} must be bytes, not '{}'", vm.type_name(v)))),
    }
}

fn fixed<const N: usize>(vm: &Vm, v: &Value, what: &str) -> PyResult<[u8; N]> {
    let b = bytes_arg(vm, v, what)?;
    b.as_slice().try_into().map_err(|_| {
        vm.exc(
            "ValueError",
            format!("{what} must be {N} bytes, got {}", b.len()),
        )
    })
}

fn str_arg(vm: &Vm, v: &Value, what: &str) -> PyResult<String> {
    match v {
        Value::Str(s) => Ok(s.s.to_string()),
        _ => Err(vm.type_err(format!("{what} must be str, not '{}'", vm.type_name(v)))),
    }
}

fn u64_arg(vm: &Vm, v: &Value, what: &str) -> PyResult<u64> {
    if matches!(v, Value::Bool(_)) || !crate::ops::is_int(v) {
        return Err(vm.type_err(format!("{what} must be int, not '{}'", vm.type_name(v))));
    }
    int::to_big(v)
        .and_then(|b| b.to_u64())
        .ok_or_else(|| vm.exc("ValueError", format!("{what} must be in 0..2**64")))
}

fn handler_arg(vm: &Vm, v: &Value) -> PyResult<String> {
    let h = str_arg(vm, v, "handler")?;
    if h.is_empty() || h.starts_with('_') || !h.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(vm.exc(
            "ValueError",
            format!("'{h}' is not a public handler name (identifiers not starting with '_')"),
        ));
    }
    Ok(h)
}

fn kwarg<'a>(kw: &'a [(Rc<str>, Value)], name: &str) -> Option<&'a Value> {
    kw.iter().find(|(k, _)| &**k == name).map(|(_, v)| v)
}

fn push_effect(vm: &mut Vm, e: Effect) -> PyResult<()> {
    state_mut(vm)?.effects.push(e);
    Ok(())
}

fn new_timer_id(vm: &mut Vm) -> PyResult<TimerId> {
    let a = state_mut(vm)?;
    let id = timer_id(&a.ctx.invocation_id, a.timers);
    a.timers += 1;
    Ok(id)
}

/// Call `pvm_host.<name>(*args, **kw)`.
pub fn call(
    vm: &mut Vm,
    name: &str,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
) -> PyResult<Value> {
    state(vm)?;
    match name {
        "storage_get" => {
            let k = bytes_arg(vm, arg(vm, &args, 0, name)?, "key")?;
            check_user_key(vm, &k)?;
            Ok(match storage_read(vm, &k)? {
                Some(v) => Value::bytes(v),
                None => Value::None,
            })
        }
        "storage_set" => {
            let k = bytes_arg(vm, arg(vm, &args, 0, name)?, "key")?;
            let v = bytes_arg(vm, arg(vm, &args, 1, name)?, "value")?;
            check_user_key(vm, &k)?;
            storage_write(vm, &k, &v)?;
            Ok(Value::None)
        }
        "storage_delete" => {
            let k = bytes_arg(vm, arg(vm, &args, 0, name)?, "key")?;
            check_user_key(vm, &k)?;
            storage_remove(vm, &k)?;
            Ok(Value::None)
        }
        "load" | "contains" => {
            let key = arg(vm, &args, 0, name)?.clone();
            let k = encode(vm, &key)?;
            check_user_key(vm, &k)?;
            let raw = storage_read(vm, &k)?;
            if name == "contains" {
                return Ok(Value::Bool(raw.is_some()));
            }
            match raw {
                Some(b) => decode(vm, &b),
                None => match args.get(1).or_else(|| kwarg(&kw, "default")) {
                    Some(d) => Ok(d.clone()),
                    None => Err(vm.exc_args("KeyError", vec![key])),
                },
            }
        }
        "store" => {
            let key = arg(vm, &args, 0, name)?.clone();
            let val = arg(vm, &args, 1, name)?.clone();
            let k = encode(vm, &key)?;
            check_user_key(vm, &k)?;
            let v = encode(vm, &val)?;
            storage_write(vm, &k, &v)?;
            Ok(Value::None)
        }
        "remove" => {
            let key = arg(vm, &args, 0, name)?.clone();
            let k = encode(vm, &key)?;
            check_user_key(vm, &k)?;
            storage_remove(vm, &k)?;
            Ok(Value::None)
        }
        "encode" => {
            let v = arg(vm, &args, 0, name)?.clone();
            Ok(Value::bytes(encode(vm, &v)?))
        }
        "decode" => {
            let b = bytes_arg(vm, arg(vm, &args, 0, name)?, "data")?;
            decode(vm, &b)
        }
        "sender" | "origin" | "value" | "address" | "block_height" | "block_timestamp"
        | "chain_id" | "beacon" | "depth" | "invocation_id" => {
            vm.charge(costs::BLOCK_INFO)?;
            let c = state(vm)?.ctx.clone();
            Ok(match name {
                "sender" => Value::bytes(c.sender.to_vec()),
                "origin" => Value::bytes(c.origin.to_vec()),
                "address" => Value::bytes(c.actor.to_vec()),
                "value" => int::from_big(BigInt::from(c.value)),
                "block_height" => int::from_big(BigInt::from(c.height)),
                "block_timestamp" => int::from_big(BigInt::from(c.timestamp)),
                "chain_id" => Value::Int(c.chain_id as i64),
                "beacon" => Value::bytes(c.beacon.to_vec()),
                "depth" => Value::Int(c.depth as i64),
                _ => Value::bytes(c.invocation_id.to_vec()),
            })
        }
        "balance" => {
            vm.charge(costs::BLOCK_INFO)?;
            let b = with(vm, |h| h.balance())?;
            Ok(int::from_big(BigInt::from(b)))
        }
        "send" => {
            // send(to, handler, args_list, value=0)
            let to: Address = fixed(vm, arg(vm, &args, 0, name)?, "to")?;
            let handler = handler_arg(vm, arg(vm, &args, 1, name)?)?;
            let payload = match args.get(2) {
                Some(v) => v.clone(),
                None => Value::list(vec![]),
            };
            if !matches!(payload, Value::List(_) | Value::Tuple(_)) {
                return Err(vm.type_err("send() arguments must be a list or tuple"));
            }
            let value = match args.get(3).or_else(|| kwarg(&kw, "value")) {
                Some(v) => u64_arg(vm, v, "value")?,
                None => 0,
            };
            vm.charge(costs::SEND)?;
            let encoded = encode(vm, &payload)?;
            charge_cells(vm, encoded.len() as u64)?;
            let depth = state(vm)?.ctx.depth;
            if depth >= MAX_CALL_DEPTH {
                return Err(fatal(
                    vm,
                    "ReentrancyError",
                    format!("message chain depth would exceed {MAX_CALL_DEPTH}"),
                ));
            }
            if state(vm)?.sends >= MAX_SENDS {
                return Err(fatal(
                    vm,
                    "FanoutExceeded",
                    format!("an invocation may send at most {MAX_SENDS} messages"),
                ));
            }
            if value > 0 {
                let bal = with(vm, |h| h.balance())? as u128;
                let total = state(vm)?.sent_value + value as u128;
                if total > bal {
                    return Err(vm.exc(
                        "ValueError",
                        format!("insufficient balance: sending {total} in total, balance is {bal}"),
                    ));
                }
            }
            let a = state_mut(vm)?;
            a.sends += 1;
            a.sent_value += value as u128;
            push_effect(
                vm,
                Effect::Send {
                    to,
                    handler,
                    args: encoded,
                    value,
                },
            )?;
            Ok(Value::None)
        }
        "emit" => {
            // emit(topics, data)
            let topics_v = arg(vm, &args, 0, name)?.clone();
            let items = vm.collect(&topics_v)?;
            if items.len() > MAX_TOPICS {
                return Err(vm.exc(
                    "ValueError",
                    format!("an event has at most {MAX_TOPICS} topics"),
                ));
            }
            let mut topics = Vec::with_capacity(items.len());
            for t in &items {
                let t = match t {
                    Value::Str(s) => s.s.as_bytes().to_vec(),
                    other => bytes_arg(vm, other, "topic")?,
                };
                if t.len() > MAX_TOPIC_BYTES {
                    return Err(vm.exc(
                        "ValueError",
                        format!("event topics are at most {MAX_TOPIC_BYTES} bytes"),
                    ));
                }
                topics.push(t);
            }
            let data = bytes_arg(vm, arg(vm, &args, 1, name)?, "data")?;
            let n = (data.len() + topics.iter().map(|t| t.len()).sum::<usize>()) as u64;
            vm.charge(costs::EMIT_BASE + costs::EMIT_PER_BYTE * n)?;
            charge_cells(vm, n.div_ceil(costs::EMIT_BYTES_PER_CELL))?;
            push_effect(vm, Effect::Event { topics, data })?;
            Ok(Value::None)
        }
        "set_timer" | "set_interval" => {
            let when = u64_arg(vm, arg(vm, &args, 0, name)?, "height")?;
            let handler = handler_arg(vm, arg(vm, &args, 1, name)?)?;
            let data = args.get(2).cloned().unwrap_or(Value::None);
            vm.charge(costs::TIMER)?;
            let data = encode(vm, &data)?;
            charge_cells(vm, data.len() as u64)?;
            let height = state(vm)?.ctx.height;
            let (fire_at, interval) = if name == "set_timer" {
                if when <= height {
                    return Err(vm.exc(
                        "ValueError",
                        format!(
                            "a timer must fire after the current block (height {height}), got {when}"
                        ),
                    ));
                }
                (when, None)
            } else {
                if when == 0 {
                    return Err(vm.exc("ValueError", "an interval must be at least 1 block"));
                }
                (height.saturating_add(when), Some(when))
            };
            let id = new_timer_id(vm)?;
            push_effect(
                vm,
                Effect::SetTimer {
                    id,
                    fire_at,
                    interval,
                    handler,
                    data,
                },
            )?;
            Ok(Value::bytes(id.to_vec()))
        }
        "cancel_timer" => {
            let id: TimerId = fixed(vm, arg(vm, &args, 0, name)?, "timer id")?;
            vm.charge(costs::TIMER)?;
            push_effect(vm, Effect::CancelTimer { id })?;
            Ok(Value::None)
        }
        "vrf" => {
            let label = match arg(vm, &args, 0, name)? {
                Value::Str(s) => s.s.as_bytes().to_vec(),
                other => bytes_arg(vm, other, "label")?,
            };
            vm.charge(costs::HKDF)?;
            let c = &state(vm)?.ctx;
            Ok(Value::bytes(vrf(&c.beacon, &c.actor, &label).to_vec()))
        }
        "sha256" => {
            let b = bytes_arg(vm, arg(vm, &args, 0, name)?, "data")?;
            vm.charge(costs::sha256(b.len()))?;
            Ok(Value::bytes(sha2::Sha256::digest(&b).to_vec()))
        }
        "keccak256" => {
            let b = bytes_arg(vm, arg(vm, &args, 0, name)?, "data")?;
            vm.charge(costs::keccak256(b.len()))?;
            Ok(Value::bytes(sha3::Keccak256::digest(&b).to_vec()))
        }
        "verify_secp256k1" => {
            let pk = bytes_arg(vm, arg(vm, &args, 0, name)?, "public key")?;
            let hash: [u8; 32] = fixed(vm, arg(vm, &args, 1, name)?, "message hash")?;
            let sig = bytes_arg(vm, arg(vm, &args, 2, name)?, "signature")?;
            vm.charge(costs::SECP256K1_VERIFY)?;
            Ok(Value::Bool(with(vm, |h| {
                h.verify_secp256k1(&pk, &hash, &sig)
            })?))
        }
        "ecrecover" => {
            let hash: [u8; 32] = fixed(vm, arg(vm, &args, 0, name)?, "message hash")?;
            let sig = bytes_arg(vm, arg(vm, &args, 1, name)?, "signature")?;
            vm.charge(costs::SECP256K1_VERIFY)?;
            Ok(match with(vm, |h| h.secp256k1_recover(&hash, &sig))? {
                Some(a) => Value::bytes(a.to_vec()),
                None => Value::None,
            })
        }
        "verify_ed25519" => {
            let pk = bytes_arg(vm, arg(vm, &args, 0, name)?, "public key")?;
            let msg = bytes_arg(vm, arg(vm, &args, 1, name)?, "message")?;
            let sig = bytes_arg(vm, arg(vm, &args, 2, name)?, "signature")?;
            vm.charge(costs::ED25519_VERIFY)?;
            Ok(Value::Bool(with(vm, |h| {
                h.verify_ed25519(&pk, &msg, &sig)
            })?))
        }
        "verify_bls" => {
            let pk = bytes_arg(vm, arg(vm, &args, 0, name)?, "public key")?;
            let msg = bytes_arg(vm, arg(vm, &args, 1, name)?, "message")?;
            let sig = bytes_arg(vm, arg(vm, &args, 2, name)?, "signature")?;
            let ns = match args.get(3).or_else(|| kwarg(&kw, "namespace")) {
                Some(v) => bytes_arg(vm, v, "namespace")?,
                None => Vec::new(),
            };
            vm.charge(costs::BLS_VERIFY)?;
            Ok(Value::Bool(with(vm, |h| {
                h.verify_bls(&pk, &ns, &msg, &sig)
            })?))
        }
        "submit_job" => {
            // submit_job(job_type, spec, callback, max_price, timeout_blocks, tip=0)
            let job_type = str_arg(vm, arg(vm, &args, 0, name)?, "job_type")?;
            if !JOB_TYPES.contains(&job_type.as_str()) {
                return Err(vm.exc(
                    "ValueError",
                    format!(
                        "unknown job type '{job_type}' (known: {})",
                        JOB_TYPES.join(", ")
                    ),
                ));
            }
            let spec = arg(vm, &args, 1, name)?.clone();
            let callback = handler_arg(vm, arg(vm, &args, 2, name)?)?;
            let max_price = u64_arg(vm, arg(vm, &args, 3, name)?, "max_price")?;
            let timeout_blocks = u64_arg(vm, arg(vm, &args, 4, name)?, "timeout_blocks")?;
            let tip = match args.get(5).or_else(|| kwarg(&kw, "tip")) {
                Some(v) => u64_arg(vm, v, "tip")?,
                None => 0,
            };
            if max_price == 0 || timeout_blocks == 0 {
                return Err(vm.exc(
                    "ValueError",
                    "a job needs max_price > 0 and timeout_blocks > 0 (CIP-2 §3)",
                ));
            }
            vm.charge(costs::SEND)?;
            let spec = encode(vm, &spec)?;
            charge_cells(vm, spec.len() as u64)?;
            let escrow = max_price as u128 + tip as u128;
            let bal = with(vm, |h| h.balance())? as u128;
            let total = state(vm)?.sent_value + escrow;
            if total > bal {
                return Err(vm.exc(
                    "ValueError",
                    format!("insufficient balance: committing {total} in total, balance is {bal}"),
                ));
            }
            let a = state_mut(vm)?;
            a.sent_value = total;
            let id = job_id(&a.ctx.invocation_id, a.jobs);
            a.jobs += 1;
            push_effect(
                vm,
                Effect::Job {
                    id,
                    job_type,
                    spec,
                    callback,
                    max_price,
                    tip,
                    timeout_blocks,
                },
            )?;
            Ok(Value::bytes(id.to_vec()))
        }
        _ => Err(vm.exc(
            "AttributeError",
            format!("module 'pvm_host' has no attribute '{name}'"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_formulas() {
        assert_eq!(costs::sha256(0), 500);
        assert_eq!(costs::sha256(64), 508);
        assert_eq!(costs::sha256(65), 516);
        assert_eq!(costs::keccak256(0), 6);
        assert_eq!(costs::keccak256(32), 6);
        assert_eq!(costs::keccak256(33), 12);
        assert_eq!(costs::codec(5), 15);
    }

    #[test]
    fn hmac_matches_rfc4231_case_2() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        let hex: String = mac.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn timer_ids_differ_by_index_and_invocation() {
        let a = timer_id(&[1; 32], 0);
        assert_ne!(a, timer_id(&[1; 32], 1));
        assert_ne!(a, timer_id(&[2; 32], 0));
        assert_eq!(a, timer_id(&[1; 32], 0));
    }

    #[test]
    fn vrf_is_per_actor_and_label() {
        let b = [9; 32];
        let x = vrf(&b, &[1; 20], b"a");
        assert_ne!(x, vrf(&b, &[2; 20], b"a"));
        assert_ne!(x, vrf(&b, &[1; 20], b"b"));
        assert_ne!(x, vrf(&[8; 32], &[1; 20], b"a"));
    }
}
