/**
 * The on-chain half of the runner-job lifecycle (spec 01 §5.3, CIP-2 §2/§3/§6, §8.4): a `job`
 * effect of an actor escrows `max_price + tip` and records the job; a verified result is delivered
 * by a system-injected deferred transaction from the Result Verifier (0x…03) that settles the
 * payment (runner / burn / treasury split of `system:settlement_config`) and runs the actor's
 * callback; a job without a result by its deadline expires and its escrow is refunded.
 *
 * Nothing here selects runners or verifies results: the commit-reveal / N-of-M / challenge
 * protocol of CIP-2 §5/§8 is not built. A delivery is trusted as it stands in the block (see
 * docs/execution.md "Runner jobs").
 *
 * State (qmdb-legal keys, see state-keys.ts):
 *   0x05 ‖ job id (32)                                    → job record ({@link encodeJob})
 *   0x03 ‖ 0x00 ‖ 0…0(20) ‖ 0x20 ‖ deadline u64 ‖ slot u64 → job id (expiry bucket entry)
 *   0x03 ‖ 0x00 ‖ 0…0(20) ‖ 0x21 ‖ deadline u64           → slots used in that bucket (u64 BE)
 *   0x03 ‖ 0x00 ‖ 0…0(20) ‖ 0x22                          → expiry cursor (deadline u64 ‖ slot u64),
 *                                                           present only while a backlog exists
 * Escrow is held as the balance of the Job Dispatcher account (0x…02).
 */
import {
  bytesEqual,
  decodeCbor,
  encodeCbor,
  encodeTransaction,
  Reader,
  type Transaction,
  toHex,
  Writer,
} from "@cowboy/sdk";
import { type FeeSettlement, settleFee } from "../fees/charge.ts";
import { decodeParamRecord, GOV_KEYS, systemAddress } from "../genesis/genesis.ts";
import { INTRINSIC, MAX_TX_CELLS_LIMIT, MAX_TX_CYCLES_LIMIT, U64_MAX } from "../params.ts";
import type { KvStore } from "../state/kv.ts";
import { StfError } from "./errors.ts";
import { keccak } from "./hash.ts";
import {
  type AccountFields,
  governanceKey,
  NS,
  PROTOCOL_ADDRESS,
  readU64be,
  systemKey,
  TABLE,
  u64be,
} from "./state-keys.ts";
import type { ActorEffect, ExecutionReceipt } from "./types.ts";

/** System actor 0x…02: holds every pending job's escrow as its balance. */
export const JOB_DISPATCHER = systemAddress(0x02);
/** System actor 0x…03: the sender of every job result delivery (the SDK's `RESULT_VERIFIER`). */
export const RESULT_VERIFIER = systemAddress(0x03);
/** System actor 0x…08: receives the treasury share of job payments (§8.4). */
export const TREASURY = systemAddress(0x08);
/** §5.4: on-chain return data (the encoded result) is at most 64 KiB. */
export const MAX_JOB_RESULT_BYTES = 65_536;
/** Job types the PVM accepts (crates/pvm-core `JOB_TYPES`). */
export const JOB_TYPES: readonly string[] = ["container", "custom", "http", "llm", "mcp"];
/**
 * Expiry work per block: bucket slots and bucket heights visited. What does not fit waits for
 * the next block, in (deadline, slot) order.
 */
export const JOB_EXPIRY_WORK_PER_BLOCK = 1_024;
/**
 * Default callback cycles limit of a delivery, intrinsic 21,000 included (`deliverJobResult` may
 * name another). A small PVM continuation (store + emit) uses ≈ 23,000.
 */
export const DEFAULT_CALLBACK_CYCLES = 200_000n;
/** Default callback cells on top of the call's intrinsic cells (its argument bytes). */
export const DEFAULT_CALLBACK_EXTRA_CELLS = 20_000n;

/** Where a job is in its lifecycle. */
export type JobStatus = "pending" | "delivered" | "expired";
const STATUS: readonly JobStatus[] = ["pending", "delivered", "expired"];

/** A job as recorded under `0x05 ‖ id`. */
export interface JobRecord {
  id: Uint8Array;
  status: JobStatus;
  /** the submitting actor (pays, receives the callback and refunds) */
  actor: Uint8Array;
  jobType: string;
  /** handler of `actor` called as `callback(job_id, result)` */
  callback: string;
  maxPrice: bigint;
  tip: bigint;
  /** height of the submitting block */
  submittedAt: bigint;
  /** last height a result may be delivered at; the job expires at the end of this block */
  deadline: bigint;
  /** keccak256 of the spec bytes */
  specHash: Uint8Array;
  /** canonical CBOR of the job parameters; emptied once the job is settled */
  spec: Uint8Array;
  /** slot in the deadline's expiry bucket */
  slot: bigint;
  /** height it was delivered or expired at (null while pending) */
  settledAt: bigint | null;
  /** delivered: the paid runner, the payment (≤ maxPrice), keccak256 of the result */
  runner: Uint8Array | null;
  payment: bigint | null;
  resultHash: Uint8Array | null;
  /** delivered: whether the callback ran successfully */
  callbackOk: boolean | null;
}

/** Codes of {@link JobError}. */
export type JobErrorCode =
  /** no job with that id */
  | "ERR_JOB_UNKNOWN"
  /** the job already has a result (or one is queued for the next block) */
  | "ERR_JOB_DELIVERED"
  /** the job expired (or its deadline is before the block that would deliver) */
  | "ERR_JOB_EXPIRED"
  /** the result is not one canonical CBOR item of at most 64 KiB */
  | "ERR_JOB_RESULT"
  /** the payment exceeds the job's max price */
  | "ERR_JOB_PAYMENT"
  /** the runner address is not 20 bytes or is the Job Dispatcher */
  | "ERR_JOB_RUNNER"
  /** a deferred transaction that is not a well-formed delivery of this job */
  | "ERR_JOB_DELIVERY"
  /** the callback actor already spent its §12.1 block budget: deliver in a later block */
  | "ERR_JOB_ACTOR_BUSY"
  /** this chain does not accept job results */
  | "ERR_JOB_DISABLED";

/** A refused job operation (delivery, query); `data` has structured details. */
export class JobError extends Error {
  readonly code: JobErrorCode;
  readonly data: Record<string, unknown>;
  constructor(code: JobErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = "JobError";
    this.code = code;
    this.data = data;
  }
}

// ----- keys and record codec -----

const TEXT = new TextEncoder();

/** Key of a job record: qmdb `keys::job(id)`. */
export function jobKey(id: Uint8Array): Uint8Array {
  if (id.length !== 32) throw new RangeError(`job id must be 32 bytes, got ${id.length}`);
  const k = new Uint8Array(33);
  k[0] = NS.job;
  k.set(id, 1);
  return k;
}

const slotKey = (deadline: bigint, slot: bigint) =>
  systemKey(PROTOCOL_ADDRESS, TABLE.jobExpirySlot, u64be(deadline), u64be(slot));
const lengthKey = (deadline: bigint) => systemKey(PROTOCOL_ADDRESS, TABLE.jobExpiryLength, u64be(deadline));
const CURSOR_KEY = systemKey(PROTOCOL_ADDRESS, TABLE.jobExpiryCursor);

/** The job record's bytes (commonware-style fields, varints for integers). */
export function encodeJob(j: JobRecord): Uint8Array {
  const w = new Writer(256 + j.spec.length);
  w.u8(1); // record version
  w.fixed(j.id, 32, "id");
  w.u8(STATUS.indexOf(j.status));
  w.fixed(j.actor, 20, "actor");
  w.string(j.jobType, "jobType");
  w.string(j.callback, "callback");
  w.varint(j.maxPrice, "maxPrice");
  w.varint(j.tip, "tip");
  w.varint(j.submittedAt, "submittedAt");
  w.varint(j.deadline, "deadline");
  w.fixed(j.specHash, 32, "specHash");
  w.bytes(j.spec, "spec");
  w.varint(j.slot, "slot");
  w.option(j.settledAt !== null);
  if (j.settledAt !== null) w.varint(j.settledAt, "settledAt");
  const delivered = j.runner !== null;
  w.option(delivered);
  if (delivered) {
    w.fixed(j.runner as Uint8Array, 20, "runner");
    w.varint(j.payment as bigint, "payment");
    w.fixed(j.resultHash as Uint8Array, 32, "resultHash");
    w.u8(j.callbackOk === true ? 1 : 0);
  }
  return w.finish();
}

/** Strict inverse of {@link encodeJob}; throws on malformed bytes. */
export function decodeJob(b: Uint8Array): JobRecord {
  const r = new Reader(b);
  const version = r.u8("version");
  if (version !== 1) throw new RangeError(`job record version ${version} is unknown`);
  const id = r.fixed(32, "id");
  const status = STATUS[r.u8("status")];
  if (status === undefined) throw new RangeError("job record status is unknown");
  const actor = r.fixed(20, "actor");
  const jobType = r.string("jobType");
  const callback = r.string("callback");
  const maxPrice = r.varint("maxPrice");
  const tip = r.varint("tip");
  const submittedAt = r.varint("submittedAt");
  const deadline = r.varint("deadline");
  const specHash = r.fixed(32, "specHash");
  const spec = r.bytes("spec");
  const slot = r.varint("slot");
  const settledAt = r.option("settledAt") ? r.varint("settledAt") : null;
  let runner: Uint8Array | null = null;
  let payment: bigint | null = null;
  let resultHash: Uint8Array | null = null;
  let callbackOk: boolean | null = null;
  if (r.option("delivery")) {
    runner = r.fixed(20, "runner");
    payment = r.varint("payment");
    resultHash = r.fixed(32, "resultHash");
    const ok = r.u8("callbackOk");
    if (ok > 1) throw new RangeError("job record callback flag is not 0 or 1");
    callbackOk = ok === 1;
  }
  r.finish("job record");
  return {
    id,
    status,
    actor,
    jobType,
    callback,
    maxPrice,
    tip,
    submittedAt,
    deadline,
    specHash,
    spec,
    slot,
    settledAt,
    runner,
    payment,
    resultHash,
    callbackOk,
  };
}

/** Reads job `id` from `kv` (undefined if there is none). */
export function readJob(kv: KvStore, id: Uint8Array): JobRecord | undefined {
  const raw = kv.get(jobKey(id));
  return raw === undefined ? undefined : decodeJob(raw);
}

// ----- the job effect -----

/** A `job` effect of an invocation (crates/napi `ActorEffect` of kind `job`). */
export interface JobEffect {
  id: Uint8Array;
  jobType: string;
  spec: Uint8Array;
  callback: string;
  maxPrice: bigint;
  tip: bigint;
  timeoutBlocks: bigint;
}

const HANDLER_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const isBytes = (v: unknown, n?: number): v is Uint8Array =>
  v instanceof Uint8Array && (n === undefined || v.length === n);
const isU64 = (v: unknown): v is bigint => typeof v === "bigint" && v >= 0n && v <= U64_MAX;

/** The effect's fields, or a message saying what is malformed. */
export function parseJobEffect(eff: ActorEffect): JobEffect | string {
  const e = eff as Record<string, unknown>;
  if (!isBytes(e.id, 32)) return "job effect without a 32-byte id";
  if (typeof e.jobType !== "string" || !JOB_TYPES.includes(e.jobType))
    return `job type ${String(e.jobType)} is not one of ${JOB_TYPES.join(", ")}`;
  if (!isBytes(e.spec)) return "job effect without spec bytes";
  if (typeof e.callback !== "string" || !HANDLER_RE.test(e.callback))
    return "job callback is not a handler name";
  if (!isU64(e.maxPrice) || e.maxPrice === 0n) return "job max_price must be a u64 above 0";
  if (!isU64(e.tip)) return "job tip must be a u64";
  if (!isU64(e.timeoutBlocks) || e.timeoutBlocks === 0n) return "job timeout_blocks must be a u64 above 0";
  return {
    id: e.id,
    jobType: e.jobType,
    spec: e.spec,
    callback: e.callback,
    maxPrice: e.maxPrice,
    tip: e.tip,
    timeoutBlocks: e.timeoutBlocks,
  };
}

/** Ledger primitives of the block executor the job book works through. */
export interface JobLedger {
  readonly state: KvStore & {
    checkpoint(): number;
    revert(cp: number): void;
    release(cp: number): void;
  };
  readonly height: bigint;
  account(addr: Uint8Array): AccountFields;
  putAccount(addr: Uint8Array, a: AccountFields): void;
  /** moves `amount`; false (nothing changed) if `from` cannot pay */
  move(from: Uint8Array, to: Uint8Array, amount: bigint): boolean;
}

/**
 * A Job Dispatcher event in receipt form: one topic, `name` (u16 BE length-prefixed, like an
 * actor's `emit(name, …)`), so an exact-topic filter (`cowboy_getLogs`) finds every such event.
 */
function jobEvent(name: string, data: Uint8Array) {
  const n = TEXT.encode(name);
  const topic = new Uint8Array(2 + n.length);
  topic[1] = n.length;
  topic.set(n, 2);
  return { emitter: JOB_DISPATCHER, topic, data };
}

/**
 * Applies a `job` effect of `actor` in the current block: escrows `max_price + tip` into the Job
 * Dispatcher, records the job (pending, deadline = height + timeout_blocks) and appends it to
 * its deadline's expiry bucket. Returns the `JobSubmitted` event (emitter 0x…02, topic
 * `JobSubmitted`, data a canonical CBOR map of the job) or a failure message; on failure nothing
 * was written.
 */
export function submitJob(
  l: JobLedger,
  actor: Uint8Array,
  eff: ActorEffect,
):
  | { ok: true; event: { emitter: Uint8Array; topic: Uint8Array; data: Uint8Array } }
  | { ok: false; code: "ERR_EXEC_EFFECT" | "ERR_EXEC_JOB"; message: string } {
  const j = parseJobEffect(eff);
  if (typeof j === "string") return { ok: false, code: "ERR_EXEC_EFFECT", message: j };
  const escrow = j.maxPrice + j.tip;
  const deadline = l.height + j.timeoutBlocks;
  if (escrow > U64_MAX || deadline > U64_MAX)
    return { ok: false, code: "ERR_EXEC_JOB", message: "max_price + tip or the deadline exceed u64" };
  if (l.state.get(jobKey(j.id)) !== undefined)
    return { ok: false, code: "ERR_EXEC_JOB", message: `job 0x${toHex(j.id)} already exists` };
  if (!l.move(actor, JOB_DISPATCHER, escrow)) {
    return {
      ok: false,
      code: "ERR_EXEC_JOB",
      message: `actor 0x${toHex(actor)} cannot escrow ${escrow} (max_price ${j.maxPrice} + tip ${j.tip})`,
    };
  }
  const lk = lengthKey(deadline);
  const lenRaw = l.state.get(lk);
  const slot = lenRaw === undefined ? 0n : readU64be(lenRaw);
  l.state.put(slotKey(deadline, slot), j.id);
  l.state.put(lk, u64be(slot + 1n));
  const specHash = keccak(j.spec);
  const rec: JobRecord = {
    id: j.id,
    status: "pending",
    actor,
    jobType: j.jobType,
    callback: j.callback,
    maxPrice: j.maxPrice,
    tip: j.tip,
    submittedAt: l.height,
    deadline,
    specHash,
    spec: j.spec,
    slot,
    settledAt: null,
    runner: null,
    payment: null,
    resultHash: null,
    callbackOk: null,
  };
  l.state.put(jobKey(j.id), encodeJob(rec));
  const data = encodeCbor({
    id: j.id,
    actor,
    job_type: j.jobType,
    spec: j.spec,
    spec_hash: specHash,
    callback: j.callback,
    max_price: j.maxPrice,
    tip: j.tip,
    submitted_at: l.height,
    deadline,
  });
  return { ok: true, event: jobEvent("JobSubmitted", data) };
}

// ----- expiry -----

/**
 * Expires the jobs whose deadline has passed (deadline ≤ `l.height`, run at the end of the
 * block after timers), in (deadline, slot) order, at most {@link JOB_EXPIRY_WORK_PER_BLOCK}
 * units of work (a bucket slot or a bucket height each). An expired job's escrow
 * (`max_price + tip`) goes back to its actor in full (CIP-2: a runner fault earns nothing) and
 * no callback runs (spec 01 §1: actors bound their waits with timers). Returns the ids expired.
 */
export function expireJobs(l: JobLedger): Uint8Array[] {
  const expired: Uint8Array[] = [];
  const cur = l.state.get(CURSOR_KEY);
  let h = cur === undefined ? l.height : readU64be(cur, 0);
  let slot = cur === undefined ? 0n : readU64be(cur, 8);
  let units = JOB_EXPIRY_WORK_PER_BLOCK;
  const save = () => {
    const b = new Uint8Array(16);
    b.set(u64be(h), 0);
    b.set(u64be(slot), 8);
    l.state.put(CURSOR_KEY, b);
  };
  while (h <= l.height) {
    const lk = lengthKey(h);
    const lenRaw = l.state.get(lk);
    const n = lenRaw === undefined ? 0n : readU64be(lenRaw);
    while (slot < n) {
      if (units === 0) {
        save();
        return expired;
      }
      units -= 1;
      const sk = slotKey(h, slot);
      const id = l.state.get(sk);
      if (id !== undefined) {
        l.state.delete(sk);
        const job = readJob(l.state, id);
        if (job !== undefined && job.status === "pending") {
          if (!l.move(JOB_DISPATCHER, job.actor, job.maxPrice + job.tip)) {
            throw new RangeError(`job escrow of 0x${toHex(id)} is missing from the Job Dispatcher`);
          }
          l.state.put(
            jobKey(id),
            encodeJob({ ...job, status: "expired", spec: new Uint8Array(0), settledAt: l.height }),
          );
          expired.push(id);
        }
      }
      slot += 1n;
    }
    if (lenRaw !== undefined) l.state.delete(lk);
    h += 1n;
    slot = 0n;
    if (h <= l.height) {
      if (units === 0) {
        save();
        return expired;
      }
      units -= 1;
    }
  }
  if (cur !== undefined) l.state.delete(CURSOR_KEY);
  return expired;
}

// ----- delivery -----

/** What a delivery carries besides the job id. */
export interface DeliveryFields {
  jobId: Uint8Array;
  /** canonical CBOR of the result value (the callback's second argument) */
  result: Uint8Array;
  /** paid the runner share and the tip */
  runner: Uint8Array;
  /** the job's price actually paid (≤ max_price); the rest of max_price is refunded */
  payment: bigint;
}

/** The settlement split of `system:settlement_config` (basis points, summing to 10,000). */
export function settlementSplit(kv: KvStore): { runnerBps: bigint; burnBps: bigint; treasuryBps: bigint } {
  const raw = kv.get(governanceKey(GOV_KEYS.settlement));
  if (raw === undefined) throw new RangeError(`governance parameter ${GOV_KEYS.settlement} is missing`);
  const s = decodeParamRecord(raw, { runnerBps: 0n, burnBps: 0n, treasuryBps: 0n }, GOV_KEYS.settlement);
  if (s.runnerBps + s.burnBps + s.treasuryBps !== 10_000n)
    throw new RangeError(`${GOV_KEYS.settlement} does not sum to 10,000 basis points`);
  return s;
}

/**
 * §8.4 split of a payment: burn and treasury shares floored, the runner side gets the rest
 * (so rounding dust goes to the runner side, and the three always sum to `payment`).
 */
export function splitPayment(
  payment: bigint,
  s: { burnBps: bigint; treasuryBps: bigint },
): { runner: bigint; burned: bigint; treasury: bigint } {
  const burned = (payment * s.burnBps) / 10_000n;
  const treasury = (payment * s.treasuryBps) / 10_000n;
  return { runner: payment - burned - treasury, burned, treasury };
}

/** Canonical CBOR `[job_id, result]`: the callback's arguments (`result` is one encoded item). */
export function deliveryArgs(jobId: Uint8Array, result: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + 2 + 32 + result.length);
  out[0] = 0x82;
  out[1] = 0x58;
  out[2] = 0x20;
  out.set(jobId, 3);
  out.set(result, 35);
  return out;
}

/** Throws `ERR_JOB_RESULT` unless `result` is one canonical CBOR item of at most 64 KiB. */
export function checkResult(result: Uint8Array): void {
  if (result.length > MAX_JOB_RESULT_BYTES) {
    throw new JobError(
      "ERR_JOB_RESULT",
      `result of ${result.length} bytes exceeds ${MAX_JOB_RESULT_BYTES} (§5.4)`,
    );
  }
  try {
    decodeCbor(result);
  } catch (e) {
    throw new JobError("ERR_JOB_RESULT", `result must be one canonical CBOR item: ${(e as Error).message}`);
  }
}

/** True if `tx` carries the deferred (`origin_*`) fields of a system-injected transaction. */
export function isDeferred(tx: Transaction): boolean {
  return tx.originTxHash !== null || tx.originRemainingCycles !== null || tx.originRemainingCells !== null;
}

/** True if `tx` claims to be a job-result delivery (deferred, from the Result Verifier). */
export function isJobDelivery(tx: Transaction): boolean {
  return isDeferred(tx) && bytesEqual(tx.from, RESULT_VERIFIER);
}

/**
 * The deferred transaction delivering `d` for `job` (docs/execution.md "Runner jobs"): from the
 * Result Verifier, nonce 0, `Call { to: actor, handler: callback, args: [job_id, result], value 0 }`,
 * `origin_tx_hash` = job id, `origin_remaining_*` = the limits, `metadata` = runner ‖ payment
 * u64 BE, max fees = the Runner-lane basefees, no tips, zero signature, no co-signers.
 */
export function deliveryTx(
  chainId: bigint,
  job: JobRecord,
  d: DeliveryFields,
  limits: { cycles: bigint; cells: bigint },
  laneBasefee: { cycle: bigint; cell: bigint },
): Transaction {
  const metadata = new Uint8Array(28);
  metadata.set(d.runner, 0);
  metadata.set(u64be(d.payment), 20);
  return {
    chainId,
    nonce: 0n,
    instruction: {
      kind: "call",
      to: job.actor,
      handler: job.callback,
      args: deliveryArgs(job.id, d.result),
      value: 0n,
    },
    cyclesLimit: limits.cycles,
    cellsLimit: limits.cells,
    maxFeePerCycle: laneBasefee.cycle,
    maxFeePerCell: laneBasefee.cell,
    maxPriorityFeePerCycle: 0n,
    maxPriorityFeePerCell: 0n,
    from: RESULT_VERIFIER,
    accessList: null,
    metadata,
    originTxHash: job.id,
    originRemainingCycles: limits.cycles,
    originRemainingCells: limits.cells,
    signature: new Uint8Array(65),
    additionalSigners: [],
  };
}

/** Encoded bytes and digest of a delivery transaction (its signature is zero already). */
export function deliveryBytes(tx: Transaction): { bytes: Uint8Array; hash: Uint8Array } {
  const bytes = encodeTransaction(tx);
  return { bytes, hash: keccak(bytes) };
}

/** Default limits of a delivery of `result`: 200,000 cycles; args bytes + 20,000 cells. */
export function defaultDeliveryLimits(result: Uint8Array): { cycles: bigint; cells: bigint } {
  return {
    cycles: DEFAULT_CALLBACK_CYCLES,
    cells: BigInt(35 + result.length) + DEFAULT_CALLBACK_EXTRA_CELLS,
  };
}

/** Stateless form check of a delivery transaction; throws `ERR_JOB_DELIVERY`. */
export function parseDelivery(tx: Transaction): DeliveryFields {
  const bad = (why: string) => new JobError("ERR_JOB_DELIVERY", `malformed job delivery: ${why}`);
  if (!isJobDelivery(tx)) throw bad("not a deferred transaction from the Result Verifier");
  const id = tx.originTxHash as Uint8Array;
  if (tx.originRemainingCycles !== tx.cyclesLimit || tx.originRemainingCells !== tx.cellsLimit)
    throw bad("origin_remaining_* must equal the limits");
  if (tx.nonce !== 0n) throw bad("nonce must be 0");
  if (tx.maxPriorityFeePerCycle !== 0n || tx.maxPriorityFeePerCell !== 0n) throw bad("tips must be 0");
  if (tx.accessList !== null || tx.additionalSigners.length > 0)
    throw bad("access list or co-signers present");
  if (!bytesEqual(tx.signature, new Uint8Array(65))) throw bad("signature must be zero");
  if (tx.metadata.length !== 28) throw bad("metadata must be runner (20) ‖ payment (u64 BE)");
  const ix = tx.instruction;
  if (ix.kind !== "call" || ix.value !== 0n) throw bad("instruction must be a call without value");
  const a = ix.args;
  if (a.length < 36 || a[0] !== 0x82 || a[1] !== 0x58 || a[2] !== 0x20 || !bytesEqual(a.subarray(3, 35), id))
    throw bad("args must be [job_id, result]");
  const result = a.subarray(35);
  checkResult(result);
  return {
    jobId: id,
    result,
    runner: tx.metadata.subarray(0, 20),
    payment: readU64be(tx.metadata, 20),
  };
}

/** Checks `job` may take delivery `d` in block `height`; throws JobError. */
export function checkDeliverable(job: JobRecord | undefined, d: DeliveryFields, height: bigint): JobRecord {
  const id = `0x${toHex(d.jobId)}`;
  if (job === undefined) throw new JobError("ERR_JOB_UNKNOWN", `no job ${id}`);
  if (job.status === "delivered")
    throw new JobError("ERR_JOB_DELIVERED", `job ${id} was delivered at height ${job.settledAt}`);
  if (job.status === "expired")
    throw new JobError("ERR_JOB_EXPIRED", `job ${id} expired at height ${job.settledAt}`);
  if (height > job.deadline)
    throw new JobError(
      "ERR_JOB_EXPIRED",
      `job ${id} has deadline ${job.deadline}, block ${height} is past it`,
    );
  if (d.payment > job.maxPrice)
    throw new JobError("ERR_JOB_PAYMENT", `payment ${d.payment} exceeds max_price ${job.maxPrice}`);
  if (d.runner.length !== 20 || bytesEqual(d.runner, JOB_DISPATCHER))
    throw new JobError(
      "ERR_JOB_RUNNER",
      "the runner must be a 20-byte address other than the Job Dispatcher",
    );
  return job;
}

/** Limits a delivery may declare: at least the call's intrinsic cost, at most the maxima. */
export function checkDeliveryLimits(limits: { cycles: bigint; cells: bigint }, argsLen: number): void {
  const cells = BigInt(argsLen);
  if (limits.cycles < INTRINSIC.actorMessage.cycles || limits.cells < cells)
    throw new JobError(
      "ERR_JOB_DELIVERY",
      `callback limits below the call's intrinsic cost (${INTRINSIC.actorMessage.cycles} cycles, ${cells} cells)`,
    );
  if (limits.cycles > MAX_TX_CYCLES_LIMIT || limits.cells > MAX_TX_CELLS_LIMIT)
    throw new JobError("ERR_JOB_DELIVERY", "callback limits exceed the transaction maxima");
}

/** What the executor gives {@link executeDelivery} besides the ledger. */
export interface DeliveryHost extends JobLedger {
  /** Runner-lane basefees of the block */
  readonly laneBasefee: { cycle: bigint; cell: bigint };
  /** true if `actor` already spent its §12.1 block budget */
  actorBusy(actor: Uint8Array): boolean;
  /** runs the callback as a root call (no value) with its cascade; the caller owns checkpoints */
  runCallback(
    call: { from: Uint8Array; to: Uint8Array; handler: string; args: Uint8Array; id: Uint8Array },
    budget: { cycles: bigint; cells: bigint },
  ): {
    status: ExecutionReceipt["status"];
    error: string | null;
    returnData: Uint8Array;
    cycles: bigint;
    cells: bigint;
    events: ExecutionReceipt["events"];
  };
}

/** Outcome of a delivery, in the shape the executor records as a receipt. */
export interface DeliveryOutcome {
  fee: FeeSettlement | { paid: bigint; burned: bigint; tip: bigint };
  used: { cycles: bigint; cells: bigint };
  out: {
    status: ExecutionReceipt["status"];
    error: string | null;
    returnData: Uint8Array;
    cycles: bigint;
    cells: bigint;
    events: ExecutionReceipt["events"];
  };
  /** the settlement paid out of the escrow */
  settlement: { runner: bigint; burned: bigint; treasury: bigint; tip: bigint; refund: bigint };
}

/**
 * Executes a delivery transaction in the current block. Invalid deliveries throw
 * `StfError("ERR_TX_JOB")` (cause = the {@link JobErrorCode}) before anything is written, so a
 * block builder drops them and a block containing one is invalid. A valid delivery:
 * 1. settles the escrow: runner ← runner share + tip, treasury ← treasury share, burn share
 *    destroyed, actor ← max_price − payment; the job becomes `delivered` (spec bytes dropped);
 * 2. runs `callback(job_id, result)` on the actor as a call from the Result Verifier, paid by the
 *    actor at the Runner-lane basefees (reserved at the declared limits, used part burned, no
 *    tip). An actor that cannot cover the reservation gets no callback (receipt reverted,
 *    `ERR_EXEC_JOB`); a failing callback reverts only itself. Neither undoes the payout
 *    (CIP-2 "callback griefing": runners are paid for verified work).
 */
export function executeDelivery(h: DeliveryHost, tx: Transaction, hash: Uint8Array): DeliveryOutcome {
  let d: DeliveryFields;
  let job: JobRecord;
  try {
    d = parseDelivery(tx);
    checkDeliveryLimits(
      { cycles: tx.cyclesLimit, cells: tx.cellsLimit },
      (tx.instruction as { args: Uint8Array }).args.length,
    );
    job = checkDeliverable(readJob(h.state, d.jobId), d, h.height);
    const ix = tx.instruction as { to: Uint8Array; handler: string };
    if (!bytesEqual(ix.to, job.actor) || ix.handler !== job.callback)
      throw new JobError("ERR_JOB_DELIVERY", "the call must target the job's actor and callback");
    if (tx.maxFeePerCycle < h.laneBasefee.cycle || tx.maxFeePerCell < h.laneBasefee.cell)
      throw new JobError("ERR_JOB_DELIVERY", "max fees are below the Runner-lane basefees");
    if (h.actorBusy(job.actor))
      throw new JobError(
        "ERR_JOB_ACTOR_BUSY",
        `actor 0x${toHex(job.actor)} spent its block budget; deliver in a later block`,
      );
  } catch (e) {
    if (e instanceof JobError) throw new StfError("ERR_TX_JOB", `${e.code}: ${e.message}`, { cause: e.code });
    throw e;
  }
  // 1. settlement out of the escrow
  const split = splitPayment(d.payment, settlementSplit(h.state));
  const refund = job.maxPrice - d.payment;
  const pay = (to: Uint8Array, amount: bigint) => {
    if (!h.move(JOB_DISPATCHER, to, amount))
      throw new RangeError(`job escrow of 0x${toHex(job.id)} is missing from the Job Dispatcher`);
  };
  pay(d.runner, split.runner + job.tip);
  pay(TREASURY, split.treasury);
  pay(job.actor, refund);
  if (split.burned > 0n) {
    const disp = h.account(JOB_DISPATCHER);
    if (disp.balance < split.burned)
      throw new RangeError(`job escrow of 0x${toHex(job.id)} is missing from the Job Dispatcher`);
    h.putAccount(JOB_DISPATCHER, { ...disp, balance: disp.balance - split.burned });
  }
  h.state.delete(slotKey(job.deadline, job.slot));
  const settled: JobRecord = {
    ...job,
    status: "delivered",
    spec: new Uint8Array(0),
    settledAt: h.height,
    runner: Uint8Array.from(d.runner),
    payment: d.payment,
    resultHash: keccak(d.result),
    callbackOk: false,
  };
  const settlement = { ...split, tip: job.tip, refund };
  // 2. the callback, paid by the actor
  const offer = {
    cycles: { limit: tx.cyclesLimit, maxFee: tx.maxFeePerCycle, maxPriorityFee: 0n },
    cells: { limit: tx.cellsLimit, maxFee: tx.maxFeePerCell, maxPriorityFee: 0n },
  };
  const reserve = tx.cyclesLimit * tx.maxFeePerCycle + tx.cellsLimit * tx.maxFeePerCell;
  const acct = h.account(job.actor);
  if (acct.balance < reserve) {
    h.state.put(jobKey(job.id), encodeJob(settled));
    return {
      fee: { paid: 0n, burned: 0n, tip: 0n },
      used: { cycles: 0n, cells: 0n },
      out: {
        status: "reverted",
        error: `ERR_EXEC_JOB: actor balance ${acct.balance} cannot cover the callback's maximum fee ${reserve}`,
        returnData: new Uint8Array(0),
        cycles: 0n,
        cells: 0n,
        events: [],
      },
      settlement,
    };
  }
  h.putAccount(job.actor, { ...acct, balance: acct.balance - reserve });
  const ix = tx.instruction as { args: Uint8Array };
  const intrinsic = { cycles: INTRINSIC.actorMessage.cycles, cells: BigInt(ix.args.length) };
  const cp = h.state.checkpoint();
  const out = h.runCallback(
    { from: RESULT_VERIFIER, to: job.actor, handler: job.callback, args: ix.args, id: hash },
    { cycles: tx.cyclesLimit - intrinsic.cycles, cells: tx.cellsLimit - intrinsic.cells },
  );
  if (out.status === "success") h.state.release(cp);
  else h.state.revert(cp);
  const used = { cycles: intrinsic.cycles + out.cycles, cells: intrinsic.cells + out.cells };
  const fee = settleFee(offer, used, h.laneBasefee);
  const after = h.account(job.actor);
  h.putAccount(job.actor, { ...after, balance: after.balance + fee.refund });
  h.state.put(jobKey(job.id), encodeJob({ ...settled, callbackOk: out.status === "success" }));
  return { fee, used, out, settlement };
}
