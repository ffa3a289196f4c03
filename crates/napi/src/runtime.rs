//! JavaScript binding of the actor runtime (`cowboy-runtime`, docs/actors.md).
//!
//! `executeActor(db, req)` runs one deploy or handler call of a PVM actor against a
//! [`StateDb`] without crossing back into JavaScript: storage reads and writes go straight to
//! the store's pending overlay. The call takes its own checkpoint and reverts it when the
//! handler fails (`ok: false`), so a failed handler leaves nothing behind. Value transfers of
//! `send` effects are not applied: the state transition applies them on delivery.
//!
//! Malformed requests (wrong lengths, missing `code`/`handler`, numbers out of range) throw an
//! `Error` with code `ERR_INVALID_ARG`; everything the actor does wrong is a result with
//! `ok: false` and `error: {type, message, traceback}`.

// `mod runtime;` is private in lib.rs; in `cargo test` builds napi-derive emits no
// registration code, so the exported items would look unused there.
#![cfg_attr(test, allow(dead_code))]

use crate::state::StateDb;
use cowboy_runtime::{Effect, ExecContext, ExecKind, ExecRequest, execute};
use napi::bindgen_prelude::{BigInt, Buffer, Either, Null};
use napi_derive::napi;

/// The Rust allocator of the whole addon. Every PVM invocation builds a fresh VM (builtin
/// classes, module dicts, code objects) and frees it all at the end; glibc's malloc spends
/// about half of a small handler call on that churn, mimalloc a fraction. Allocation never
/// influences results (the PVM's heap accounting counts object sizes, not allocator bytes).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Result<T> = napi::Result<T, String>;

fn arg(msg: impl ToString) -> napi::Error<String> {
    napi::Error::new("ERR_INVALID_ARG".to_owned(), msg.to_string())
}

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

fn fixed<const N: usize>(name: &str, b: &[u8]) -> Result<[u8; N]> {
    b.try_into()
        .map_err(|_| arg(format!("{name}: expected {N} bytes, got {}", b.len())))
}

/// The call context of an invocation.
#[napi(object)]
pub struct ActorContext {
    /// Immediate sender (20 bytes).
    pub sender: Buffer,
    /// Transaction signer (20 bytes).
    pub origin: Buffer,
    /// Value attached to the message, already credited to the actor (nCBY).
    pub value: BigInt,
    /// Executing block height.
    pub height: BigInt,
    /// Executing block timestamp.
    pub timestamp: BigInt,
    /// Chain id.
    pub chain_id: u32,
    /// Execution-readable beacon (32 bytes).
    pub beacon: Buffer,
    /// Unique id of the invocation (32 bytes); timer ids derive from it.
    pub invocation_id: Buffer,
    /// Message-chain depth (0 for a transaction's own call; more than 32 fails).
    pub depth: u32,
}

/// Budgets of an invocation.
#[napi(object)]
pub struct ActorLimits {
    /// Cycle budget.
    pub cycles: BigInt,
    /// Cell budget (a deploy's code bytes count).
    pub cells: BigInt,
}

/// One actor invocation.
#[napi(object)]
pub struct ActorExecRequest {
    /// `"deploy"` or `"call"`.
    #[napi(ts_type = "'deploy' | 'call'")]
    pub kind: String,
    /// Actor address (20 bytes).
    pub actor: Buffer,
    /// Python source (deploy only).
    pub code: Option<String>,
    /// Handler name (call only; timer fires are calls).
    pub handler: Option<String>,
    /// Canonical CBOR array of positional arguments (deploy: `__init__` arguments).
    pub args: Buffer,
    /// Call context.
    pub context: ActorContext,
    /// Budgets.
    pub limits: ActorLimits,
}

/// Why an invocation failed.
#[napi(object)]
pub struct ActorExecError {
    /// Python exception class or runtime error type (`OutOfCycles`, `HandlerNotFound`, …).
    #[napi(js_name = "type")]
    pub type_name: String,
    /// Message.
    pub message: String,
    /// `File "actor.py", line N, in f` lines, outermost first.
    pub traceback: Vec<String>,
}

/// One effect of a successful invocation (see the TypeScript union on `effects`).
#[napi(object)]
pub struct ActorEffect {
    /// `"send"`, `"event"`, `"setTimer"`, `"cancelTimer"` or `"job"`.
    pub kind: String,
    /// send: recipient.
    pub to: Option<Buffer>,
    /// send / setTimer: handler name.
    pub handler: Option<String>,
    /// send: canonical CBOR array of arguments.
    pub args: Option<Buffer>,
    /// send: attached value.
    pub value: Option<BigInt>,
    /// event: topics.
    pub topics: Option<Vec<Buffer>>,
    /// event: payload; setTimer: canonical CBOR of the handler's argument.
    pub data: Option<Buffer>,
    /// setTimer / cancelTimer: timer id; job: job id (32 bytes).
    pub id: Option<Buffer>,
    /// setTimer: first fire height.
    pub fire_at: Option<BigInt>,
    /// setTimer: repeat period in blocks, or null for a one-shot timer.
    pub interval: Option<Either<BigInt, Null>>,
    /// job: job type (`llm`, `http`, `mcp`, `custom`, `container`).
    pub job_type: Option<String>,
    /// job: canonical CBOR of the job parameters.
    pub spec: Option<Buffer>,
    /// job: handler receiving `(job_id, result)`.
    pub callback: Option<String>,
    /// job: maximum price.
    pub max_price: Option<BigInt>,
    /// job: priority tip.
    pub tip: Option<BigInt>,
    /// job: timeout in blocks.
    pub timeout_blocks: Option<BigInt>,
}

/// The result of an invocation.
#[napi(object)]
pub struct ActorExecResult {
    /// Success.
    pub ok: bool,
    /// Canonical CBOR of the return value (`null` for a deploy); absent on failure.
    pub result: Option<Buffer>,
    /// The failure; absent on success.
    pub error: Option<ActorExecError>,
    /// Cycles used.
    pub cycles_used: BigInt,
    /// Cells used.
    pub cells_used: BigInt,
    /// Printed output.
    pub stdout: String,
    /// Effects in order (empty on failure).
    #[napi(
        ts_type = "Array<{ kind: 'send'; to: Buffer; handler: string; args: Buffer; value: bigint } | { kind: 'event'; topics: Buffer[]; data: Buffer } | { kind: 'setTimer'; id: Buffer; fireAt: bigint; interval: bigint | null; handler: string; data: Buffer } | { kind: 'cancelTimer'; id: Buffer } | { kind: 'job'; id: Buffer; jobType: string; spec: Buffer; callback: string; maxPrice: bigint; tip: bigint; timeoutBlocks: bigint }>"
    )]
    pub effects: Vec<ActorEffect>,
}

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
    ActorContext,
    ActorLimits,
    ActorExecRequest,
    ActorExecError,
    ActorEffect,
    ActorExecResult
);

fn empty_effect(kind: &str) -> ActorEffect {
    ActorEffect {
        kind: kind.into(),
        to: None,
        handler: None,
        args: None,
        value: None,
        topics: None,
        data: None,
        id: None,
        fire_at: None,
        interval: None,
        job_type: None,
        spec: None,
        callback: None,
        max_price: None,
        tip: None,
        timeout_blocks: None,
    }
}

fn effect_to_js(e: Effect) -> ActorEffect {
    match e {
        Effect::Send {
            to,
            handler,
            args,
            value,
        } => ActorEffect {
            to: Some(to.to_vec().into()),
            handler: Some(handler),
            args: Some(args.into()),
            value: Some(BigInt::from(value)),
            ..empty_effect("send")
        },
        Effect::Event { topics, data } => ActorEffect {
            topics: Some(topics.into_iter().map(Buffer::from).collect()),
            data: Some(data.into()),
            ..empty_effect("event")
        },
        Effect::SetTimer {
            id,
            fire_at,
            interval,
            handler,
            data,
        } => ActorEffect {
            id: Some(id.to_vec().into()),
            fire_at: Some(BigInt::from(fire_at)),
            interval: Some(match interval {
                Some(i) => Either::A(BigInt::from(i)),
                None => Either::B(Null),
            }),
            handler: Some(handler),
            data: Some(data.into()),
            ..empty_effect("setTimer")
        },
        Effect::CancelTimer { id } => ActorEffect {
            id: Some(id.to_vec().into()),
            ..empty_effect("cancelTimer")
        },
        Effect::Job {
            id,
            job_type,
            spec,
            callback,
            max_price,
            tip,
            timeout_blocks,
        } => ActorEffect {
            id: Some(id.to_vec().into()),
            job_type: Some(job_type),
            spec: Some(spec.into()),
            callback: Some(callback),
            max_price: Some(BigInt::from(max_price)),
            tip: Some(BigInt::from(tip)),
            timeout_blocks: Some(BigInt::from(timeout_blocks)),
            ..empty_effect("job")
        },
    }
}

fn request_of(req: &ActorExecRequest) -> Result<ExecRequest> {
    let kind = match req.kind.as_str() {
        "deploy" => ExecKind::Deploy {
            code: req
                .code
                .clone()
                .ok_or_else(|| arg("code: required for a deploy"))?,
        },
        "call" => ExecKind::Call {
            handler: req
                .handler
                .clone()
                .ok_or_else(|| arg("handler: required for a call"))?,
        },
        k => return Err(arg(format!("kind: expected 'deploy' or 'call', got '{k}'"))),
    };
    let c = &req.context;
    Ok(ExecRequest {
        kind,
        actor: fixed("actor", &req.actor)?,
        args: req.args.to_vec(),
        context: ExecContext {
            sender: fixed("context.sender", &c.sender)?,
            origin: fixed("context.origin", &c.origin)?,
            value: u64_of("context.value", &c.value)?,
            height: u64_of("context.height", &c.height)?,
            timestamp: u64_of("context.timestamp", &c.timestamp)?,
            chain_id: c.chain_id,
            beacon: fixed("context.beacon", &c.beacon)?,
            invocation_id: fixed("context.invocationId", &c.invocation_id)?,
            depth: c.depth,
        },
        cycles_limit: u64_of("limits.cycles", &req.limits.cycles)?,
        cells_limit: u64_of("limits.cells", &req.limits.cells)?,
    })
}

/// Runs one deploy or handler call of a PVM actor against `db` (storage writes land in the
/// pending overlay; a failed invocation is reverted).
#[napi]
pub fn execute_actor(db: &mut StateDb, req: ActorExecRequest) -> Result<ActorExecResult> {
    let r = execute(&mut db.db, &request_of(&req)?);
    Ok(ActorExecResult {
        ok: r.ok,
        result: r.result.map(Buffer::from),
        error: r.error.map(|e| ActorExecError {
            type_name: e.kind,
            message: e.message,
            traceback: e.traceback,
        }),
        cycles_used: BigInt::from(r.cycles_used),
        cells_used: BigInt::from(r.cells_used),
        stdout: r.stdout,
        effects: r.effects.into_iter().map(effect_to_js).collect(),
    })
}
