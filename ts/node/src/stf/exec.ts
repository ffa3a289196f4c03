/**
 * Execution of one block's work over a {@link StateBackend}: transactions (with their message
 * cascades), then due timers, then the proposer's reward. The caller ({@link Chain}) owns the
 * block-level checks, roots and commit. See docs/execution.md.
 */
import { actorAddressFromCodeHash, bytesEqual, decodeCbor, type Event, type Transaction } from "@cowboy/sdk";
import { settleFee } from "../fees/charge.ts";
import type { ChainParams } from "../genesis/genesis.ts";
import {
  BLOCKS_PER_YEAR,
  GENESIS_SUPPLY,
  INFLATION_BPS_BY_YEAR,
  INFLATION_FLOOR_BPS,
  INTRINSIC,
  U64_MAX,
} from "../params.ts";
import { type QueuedTimer, TimerError, TimerQueue } from "../timers/queue.ts";
import { type ExecFailureCode, StfError } from "./errors.ts";
import { keccak as keccak256 } from "./hash.ts";
import { type DeliveryHost, executeDelivery, expireJobs, isDeferred, submitJob } from "./jobs.ts";
import {
  type AccountFields as AccountRecord,
  accountKey,
  codeKey,
  decodeAccountRecord as decodeAccount,
  emptyAccount,
  encodeAccountRecord as encodeAccount,
  PROTOCOL_ADDRESS,
  systemKey,
  TABLE,
  u64be,
} from "./state-keys.ts";
import type { ActorEffect, ActorExecResult, ActorExecutor, ExecutionReceipt, StateBackend } from "./types.ts";
import {
  isValidatorInstruction,
  txLane,
  ValidatorBlock,
  validatorIntrinsic,
  validatorValue,
} from "./validators.ts";

const ZERO32 = new Uint8Array(32);
const TEXT = new TextEncoder();
const EMPTY = new Uint8Array(0);
/** canonical CBOR empty array: the arguments of a call without any */
const CBOR_EMPTY_ARRAY = Uint8Array.of(0x80);

/** §8.2: block reward at `height` (genesis supply × rate / blocks per year, floored). */
export function blockReward(height: bigint): bigint {
  if (height <= 0n) return 0n;
  const year = (height - 1n) / BLOCKS_PER_YEAR;
  const bps =
    year < BigInt(INFLATION_BPS_BY_YEAR.length)
      ? (INFLATION_BPS_BY_YEAR[Number(year)] as bigint)
      : INFLATION_FLOOR_BPS;
  return (GENESIS_SUPPLY * bps) / (10_000n * BLOCKS_PER_YEAR);
}

/** §17.2: intrinsic cycles and cells of a transaction, or null if its kind is not executable. */
export function intrinsicCost(tx: Transaction): { cycles: bigint; cells: bigint } | null {
  const ix = tx.instruction;
  switch (ix.kind) {
    case "transfer":
      return { cycles: INTRINSIC.transfer.cycles, cells: INTRINSIC.transfer.cells };
    case "deploy":
      return { cycles: INTRINSIC.deploy.cycles, cells: BigInt(ix.source.length + ix.initArgs.length) };
    case "call":
      return { cycles: INTRINSIC.actorMessage.cycles, cells: BigInt(ix.args.length) };
    case "scheduleTimer":
    case "cancelTimer":
      return { cycles: INTRINSIC.timerSchedule.cycles, cells: INTRINSIC.timerSchedule.cells };
    default:
      // validator-set System instructions (validators.ts); anything else is not executable
      return isValidatorInstruction(ix) ? validatorIntrinsic(ix) : null;
  }
}

/** Timer id derivation shared with the runtime: keccak256("cowboy-timer" ‖ invocation id ‖ u32 BE index). */
export function timerId(invocationId: Uint8Array, index: number): Uint8Array {
  const b = new Uint8Array(12 + 32 + 4);
  b.set(TEXT.encode("cowboy-timer"), 0);
  b.set(invocationId, 12);
  new DataView(b.buffer).setUint32(44, index);
  return keccak256(b);
}

/** §3.3: message id = keccak256(sender ‖ nonce u64 BE ‖ msg_hash), msg_hash over the message fields. */
export function messageId(
  sender: Uint8Array,
  nonce: bigint,
  m: { to: Uint8Array; handler: string; args: Uint8Array; value: bigint },
): Uint8Array {
  const h = TEXT.encode(m.handler);
  const body = new Uint8Array(20 + 1 + h.length + 4 + m.args.length + 8);
  body.set(m.to, 0);
  body[20] = h.length;
  body.set(h, 21);
  new DataView(body.buffer).setUint32(21 + h.length, m.args.length);
  body.set(m.args, 25 + h.length);
  new DataView(body.buffer).setBigUint64(25 + h.length + m.args.length, m.value);
  const pre = new Uint8Array(20 + 8 + 32);
  pre.set(sender, 0);
  new DataView(pre.buffer).setBigUint64(20, nonce);
  pre.set(keccak256(body), 28);
  return keccak256(pre);
}

/** A message waiting for delivery inside one transaction's cascade. */
interface Message {
  from: Uint8Array;
  to: Uint8Array;
  handler: string;
  args: Uint8Array;
  value: bigint;
  depth: number;
  id: Uint8Array;
}

/** Raised inside a cascade when the whole transaction must stop (its limits are exhausted). */
class TxAbort {
  readonly status: "outOfCycles" | "outOfCells";
  readonly message: string;
  constructor(status: "outOfCycles" | "outOfCells", message: string) {
    this.status = status;
    this.message = message;
  }
}

/** The outcome of running one root invocation and its cascade. */
interface CascadeResult {
  status: ExecutionReceipt["status"];
  error: string | null;
  returnData: Uint8Array;
  cycles: bigint;
  cells: bigint;
  events: Event[];
}

class MessageFailure {
  readonly code: ExecFailureCode;
  readonly message: string;
  constructor(code: ExecFailureCode, message: string) {
    this.code = code;
    this.message = message;
  }
}

/** Lowercase hex of `b` (a view over its bytes, no copy: this keys per-actor maps on the hot path). */
const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");

/** Per-block context. */
export interface BlockEnv {
  height: bigint;
  timestampMs: bigint;
  proposer: Uint8Array;
  chainId: bigint;
  /** 32-byte execution beacon (§3.4) */
  beacon: Uint8Array;
  basefee: { cycle: bigint; cell: bigint };
  params: ChainParams;
  /**
   * consensus indices (in the parent's epoch set) whose votes certified the parent block:
   * downtime accounting (validators.ts); absent = none
   */
  participants?: readonly number[];
}

/**
 * Executes the work of one block. Create one per block, call {@link executeTx} for each
 * transaction in order, then {@link fireTimers}, then {@link finish}.
 */
export class BlockExecutor {
  readonly env: BlockEnv;
  private readonly state: StateBackend;
  private readonly executor: ActorExecutor | null;
  private readonly timers: TimerQueue;
  /** cycles each actor has started handlers with in this block (§12.1) */
  private readonly actorCycles = new Map<string, bigint>();
  /** (recipient ‖ message id) recorded in dedup sets by this block */
  private readonly dedupRecorded: Uint8Array[] = [];
  readonly receipts: ExecutionReceipt[] = [];
  cyclesUsed = 0n;
  cellsUsed = 0n;
  burned = 0n;
  tips = 0n;
  reward = 0n;
  /** the validator set's part of this block (validators.ts) */
  readonly validators: ValidatorBlock;

  constructor(state: StateBackend, executor: ActorExecutor | null, env: BlockEnv) {
    this.state = state;
    this.executor = executor;
    this.env = env;
    this.timers = new TimerQueue(state);
    this.validators = new ValidatorBlock(state, env.chainId, env.height);
  }

  /** Starts the block's own work (dedup-set expiry); call once before the first transaction. */
  begin(): void {
    this.expireDedup();
    this.validators.begin(this.env.participants);
  }

  /**
   * §6.3 / §17.9: a lane's basefee = global basefee × the lane's fee multiplier
   * (`system:lane_fee_multipliers`, basis points; all 10,000 = 1.0× at genesis), floored.
   * Every transaction of this version is a User-lane one; timer fires use the Timer lane.
   */
  laneBasefee(lane: "system" | "timer" | "runner" | "user"): { cycle: bigint; cell: bigint } {
    const bps = this.env.params.laneMultiplierBps[lane];
    if (bps === 10_000n) return this.env.basefee;
    return { cycle: (this.env.basefee.cycle * bps) / 10_000n, cell: (this.env.basefee.cell * bps) / 10_000n };
  }

  // ----- accounts -----

  account(addr: Uint8Array): AccountRecord {
    const raw = this.state.get(accountKey(addr));
    return raw === undefined ? emptyAccount() : decodeAccount(raw);
  }

  private putAccount(addr: Uint8Array, a: AccountRecord): void {
    this.state.put(accountKey(addr), encodeAccount(a));
  }

  private credit(addr: Uint8Array, amount: bigint): void {
    if (amount === 0n) return;
    const a = this.account(addr);
    const balance = a.balance + amount;
    // total supply is far below u64 (params.ts); a balance above it means a broken invariant
    if (balance > U64_MAX) throw new RangeError(`balance of ${hex(addr)} would exceed u64`);
    this.putAccount(addr, { ...a, balance });
  }

  /** Moves `amount` from `from` to `to`; false (and nothing changed) if `from` cannot pay. */
  private move(from: Uint8Array, to: Uint8Array, amount: bigint): boolean {
    if (amount === 0n) return true;
    const a = this.account(from);
    if (a.balance < amount) return false;
    this.putAccount(from, { ...a, balance: a.balance - amount });
    this.credit(to, amount);
    return true;
  }

  private isActor(addr: Uint8Array): boolean {
    const raw = this.state.get(accountKey(addr));
    if (raw === undefined) return false;
    // a well-formed record (state-keys.ts) has its code hash at 24..56: read it in place;
    // anything else goes through the strict decoder, which throws exactly as before
    const len = raw.length >= 60 ? new DataView(raw.buffer, raw.byteOffset + 56, 4).getUint32(0, true) : -1;
    if (len < 0 || len > 64 * 1024 || raw.length !== 60 + len)
      return !bytesEqual(decodeAccount(raw).codeHash, ZERO32);
    for (let i = 24; i < 56; i++) if (raw[i] !== 0) return true;
    return false;
  }

  // ----- dedup sets (§3.3) -----

  private dedupKey(recipient: Uint8Array, id: Uint8Array): Uint8Array {
    return systemKey(recipient, TABLE.dedup, id);
  }

  private expiryKey(height: bigint): Uint8Array {
    return systemKey(PROTOCOL_ADDRESS, TABLE.dedupExpiry, u64be(height));
  }

  /** Drops the dedup entries recorded `dedupWindow` blocks ago. */
  private expireDedup(): void {
    const h = this.env.height - this.env.params.limits.dedupWindow;
    if (h < 1n) return;
    const key = this.expiryKey(h);
    const list = this.state.get(key);
    if (list === undefined) return;
    for (let o = 0; o + 52 <= list.length; o += 52) {
      this.state.delete(this.dedupKey(list.subarray(o, o + 20), list.subarray(o + 20, o + 52)));
    }
    this.state.delete(key);
  }

  // ----- transactions -----

  /**
   * Stateful §2.2 checks for `tx` at this point of the block: nonce, fees ≥ basefees, intrinsic
   * costs within the limits, balance for the maximum fee plus the value sent. Throws StfError.
   * `futureNonce` (admission to a mempool only): a nonce above the account's passes too.
   */
  checkTx(
    tx: Transaction,
    futureNonce = false,
  ): {
    intrinsic: { cycles: bigint; cells: bigint };
    maxCharge: bigint;
    value: bigint;
    sender: AccountRecord;
  } {
    const intrinsic = intrinsicCost(tx);
    if (intrinsic === null) {
      throw new StfError(
        "ERR_TX_UNSUPPORTED",
        `instruction ${tx.instruction.kind} is not executable in this version`,
      );
    }
    if (intrinsic.cycles > tx.cyclesLimit || intrinsic.cells > tx.cellsLimit) {
      throw new StfError(
        "ERR_TX_INTRINSIC",
        `limits (${tx.cyclesLimit} cycles, ${tx.cellsLimit} cells) are below the intrinsic cost (${intrinsic.cycles} cycles, ${intrinsic.cells} cells)`,
      );
    }
    const { cycle, cell } = this.laneBasefee(txLane(tx));
    if (tx.maxFeePerCycle < cycle || tx.maxFeePerCell < cell) {
      throw new StfError(
        "ERR_TX_FEE_BELOW_BASEFEE",
        `max fees (${tx.maxFeePerCycle} per cycle, ${tx.maxFeePerCell} per cell) are below the basefees (${cycle}, ${cell})`,
      );
    }
    const acct = this.account(tx.from);
    if (futureNonce ? tx.nonce < acct.nonce : tx.nonce !== acct.nonce) {
      throw new StfError("ERR_TX_NONCE", `nonce ${tx.nonce} but the account expects ${acct.nonce}`, {
        expected: acct.nonce.toString(),
      });
    }
    const maxCharge = tx.cyclesLimit * tx.maxFeePerCycle + tx.cellsLimit * tx.maxFeePerCell;
    const ix = tx.instruction;
    const value =
      ix.kind === "transfer"
        ? ix.amount
        : ix.kind === "call" || ix.kind === "deploy"
          ? ix.value
          : isValidatorInstruction(ix)
            ? validatorValue(ix)
            : 0n;
    if (acct.balance < maxCharge + value) {
      throw new StfError(
        "ERR_TX_BALANCE",
        `balance ${acct.balance} cannot cover the maximum fee ${maxCharge} plus the value ${value}`,
      );
    }
    return { intrinsic, maxCharge, value, sender: acct };
  }

  /**
   * Executes one transaction: checks (throws StfError if invalid — nothing changed then),
   * reserves the maximum fee and bumps the nonce, runs the instruction in a checkpoint
   * (reverted on failure), settles the fee (§2.3) and records the receipt.
   */
  executeTx(tx: Transaction, hash: Uint8Array): ExecutionReceipt {
    if (isDeferred(tx)) return this.executeJobDelivery(tx, hash);
    const { intrinsic, maxCharge, sender } = this.checkTx(tx);
    const offer = {
      cycles: { limit: tx.cyclesLimit, maxFee: tx.maxFeePerCycle, maxPriorityFee: tx.maxPriorityFeePerCycle },
      cells: { limit: tx.cellsLimit, maxFee: tx.maxFeePerCell, maxPriorityFee: tx.maxPriorityFeePerCell },
    };
    const ix = tx.instruction;
    if (ix.kind === "transfer") {
      // A transfer uses exactly its intrinsic cost and cannot fail once checked: reserve,
      // move, refund folded into one write per account (same final state as the general path).
      const fee = settleFee(offer, intrinsic, this.laneBasefee("user"));
      const self = bytesEqual(tx.from, ix.to);
      this.putAccount(tx.from, {
        ...sender,
        balance: sender.balance - fee.paid - (self ? 0n : ix.amount),
        nonce: sender.nonce + 1n,
      });
      if (!self) this.credit(ix.to, ix.amount);
      return this.record(tx, hash, fee, intrinsic, {
        status: "success",
        error: null,
        returnData: EMPTY,
        cycles: 0n,
        cells: 0n,
        events: [],
        contractAddress: null,
        timerId: null,
      });
    }
    this.putAccount(tx.from, { ...sender, balance: sender.balance - maxCharge, nonce: sender.nonce + 1n });
    const budget = { cycles: tx.cyclesLimit - intrinsic.cycles, cells: tx.cellsLimit - intrinsic.cells };
    const cp = this.state.checkpoint();
    const out = this.runInstruction(tx, hash, budget);
    if (out.status === "success") this.state.release(cp);
    else this.state.revert(cp);
    const used = { cycles: intrinsic.cycles + out.cycles, cells: intrinsic.cells + out.cells };
    const fee = settleFee(offer, used, this.laneBasefee(txLane(tx)));
    this.credit(tx.from, fee.refund);
    return this.record(tx, hash, fee, used, out);
  }

  // ----- runner jobs (jobs.ts) -----

  /** The executor's ledger primitives, as the job book uses them. */
  private jobHost(): DeliveryHost {
    return {
      state: this.state,
      height: this.env.height,
      laneBasefee: this.laneBasefee("runner"),
      account: (a) => this.account(a),
      putAccount: (a, r) => this.putAccount(a, r),
      move: (from, to, amount) => this.move(from, to, amount),
      actorBusy: (a) => this.actorCyclesUsed(a) >= this.env.params.limits.perActorPerBlockCycles,
      runCallback: (c, budget) =>
        this.cascade({ kind: "call", ...c, value: 0n, valueMoved: false }, c.from, budget),
    };
  }

  /**
   * A job-result delivery (a deferred transaction from the Result Verifier, jobs.ts
   * `executeDelivery`): throws StfError `ERR_TX_JOB` if it cannot apply (nothing changed then).
   */
  private executeJobDelivery(tx: Transaction, hash: Uint8Array): ExecutionReceipt {
    const d = executeDelivery(this.jobHost(), tx, hash);
    return this.record(tx, hash, d.fee, d.used, { ...d.out, contractAddress: null, timerId: null });
  }

  /** Expires the runner jobs past their deadline (after the timers; jobs.ts `expireJobs`). */
  resolveJobs(): Uint8Array[] {
    return expireJobs(this.jobHost());
  }

  /** Books a settled transaction: burn, tip, usage, receipt. */
  private record(
    tx: Transaction,
    hash: Uint8Array,
    fee: { paid: bigint; burned: bigint; tip: bigint },
    used: { cycles: bigint; cells: bigint },
    out: CascadeResult & { contractAddress: Uint8Array | null; timerId: Uint8Array | null },
  ): ExecutionReceipt {
    this.burned += fee.burned;
    this.tips += fee.tip;
    this.cyclesUsed += used.cycles;
    this.cellsUsed += used.cells;
    const ok = out.status === "success";
    const receipt: ExecutionReceipt = {
      kind: "tx",
      txHash: hash,
      status: out.status,
      cyclesUsed: used.cycles,
      cellsUsed: used.cells,
      feePaid: fee.paid,
      returnData: out.returnData,
      error: out.error,
      events: ok ? out.events : [],
      from: tx.from,
      burned: fee.burned,
      tip: fee.tip,
      contractAddress: ok ? out.contractAddress : null,
      timerId: ok ? out.timerId : null,
    };
    this.receipts.push(receipt);
    return receipt;
  }

  private runInstruction(
    tx: Transaction,
    hash: Uint8Array,
    budget: { cycles: bigint; cells: bigint },
  ): CascadeResult & { contractAddress: Uint8Array | null; timerId: Uint8Array | null } {
    const ix = tx.instruction;
    const none = { contractAddress: null, timerId: null };
    const ok = (): CascadeResult => ({
      status: "success",
      error: null,
      returnData: EMPTY,
      cycles: 0n,
      cells: 0n,
      events: [],
    });
    const fail = (code: ExecFailureCode, message: string): CascadeResult => ({
      status: "reverted",
      error: `${code}: ${message}`,
      returnData: EMPTY,
      cycles: 0n,
      cells: 0n,
      events: [],
    });
    switch (ix.kind) {
      case "transfer": {
        // checkTx made sure the sender holds amount + max fee
        this.move(tx.from, ix.to, ix.amount);
        return { ...ok(), ...none };
      }
      case "deploy": {
        const codeHash = keccak256(ix.source);
        const addr = actorAddressFromCodeHash(tx.from, ix.salt, codeHash);
        if (this.isActor(addr) || this.state.get(codeKey(addr)) !== undefined) {
          return { ...fail("ERR_EXEC_ACTOR_EXISTS", `an actor already lives at 0x${hex(addr)}`), ...none };
        }
        const prev = this.account(addr);
        this.putAccount(addr, { ...prev, codeHash });
        this.move(tx.from, addr, ix.value);
        const res = this.cascade(
          {
            kind: "deploy",
            from: tx.from,
            to: addr,
            handler: "__init__",
            args: ix.initArgs.length === 0 ? CBOR_EMPTY_ARRAY : ix.initArgs,
            code: Buffer.from(ix.source).toString("utf8"),
            value: ix.value,
            id: hash,
            valueMoved: true,
          },
          tx.from,
          budget,
        );
        return { ...res, contractAddress: addr, timerId: null };
      }
      case "call": {
        const res = this.cascade(
          {
            kind: "call",
            from: tx.from,
            to: ix.to,
            handler: ix.handler,
            args: ix.args,
            value: ix.value,
            id: messageId(tx.from, tx.nonce, ix),
            valueMoved: false,
          },
          tx.from,
          budget,
        );
        return { ...res, ...none };
      }
      case "scheduleTimer": {
        if (!this.isActor(ix.actor)) {
          return { ...fail("ERR_EXEC_NOT_ACTOR", `0x${hex(ix.actor)} is not an actor`), ...none };
        }
        try {
          decodeCbor(ix.data);
        } catch (e) {
          return {
            ...fail("ERR_EXEC_TIMER", `timer data must be one canonical CBOR item: ${(e as Error).message}`),
            ...none,
          };
        }
        const id = timerId(hash, 0);
        try {
          this.scheduleTimer({
            id,
            owner: tx.from,
            target: ix.actor,
            handler: ix.handler,
            data: ix.data,
            fireAt: ix.fireAtHeight,
            interval: ix.interval,
            feePayer: tx.from,
          });
        } catch (e) {
          if (e instanceof TimerError)
            return { ...fail("ERR_EXEC_TIMER", `${e.code}: ${e.message}`), ...none };
          throw e;
        }
        return { ...ok(), contractAddress: null, timerId: id };
      }
      case "cancelTimer": {
        const t = this.timers.get(ix.timerId);
        if (t !== undefined && !bytesEqual(t.target, ix.actor)) {
          return { ...fail("ERR_EXEC_TIMER", "the timer does not belong to that actor"), ...none };
        }
        try {
          this.timers.cancel(ix.timerId, tx.from);
        } catch (e) {
          if (e instanceof TimerError)
            return { ...fail("ERR_EXEC_TIMER", `${e.code}: ${e.message}`), ...none };
          throw e;
        }
        return { ...ok(), contractAddress: null, timerId: ix.timerId };
      }
      default: {
        if (isValidatorInstruction(ix)) {
          const r = this.validators.run(ix, tx.from);
          if (r.ok) return { ...ok(), ...none };
          return {
            status: "reverted",
            error: r.error,
            returnData: EMPTY,
            cycles: 0n,
            cells: 0n,
            events: [],
            ...none,
          };
        }
        // checkTx refuses every other kind
        throw new StfError("ERR_TX_UNSUPPORTED", `instruction ${ix.kind} is not executable`);
      }
    }
  }

  private scheduleTimer(t: {
    id: Uint8Array;
    owner: Uint8Array;
    target: Uint8Array;
    handler: string;
    data: Uint8Array;
    fireAt: bigint;
    interval: bigint | null;
    feePayer: Uint8Array;
  }): QueuedTimer {
    const tc = this.env.params.timer;
    return this.timers.schedule(
      {
        ...t,
        cyclesPerFire: tc.maxCyclesPerFire,
        cellsPerFire: tc.maxCellsPerFire,
        expiresAt: t.fireAt + tc.defaultTtlBlocks,
        createdAt: this.env.height,
      },
      this.env.height,
    );
  }

  // ----- message cascades (§3.3) -----

  /**
   * Runs a root invocation and every message it causes, breadth-first, within `budget`.
   * Each message runs in its own checkpoint: a failing handler reverts its own effects. The
   * root failing, or the transaction's limits running out, fails the whole cascade (the
   * caller reverts everything).
   */
  private cascade(
    root: Omit<Message, "depth"> & { kind: "deploy" | "call"; code?: string; valueMoved: boolean },
    origin: Uint8Array,
    budget: { cycles: bigint; cells: bigint },
  ): CascadeResult {
    const used = { cycles: 0n, cells: 0n };
    const events: Event[] = [];
    const queue: Message[] = [];
    const mailbox = new Map<string, number>();
    let enqueued = 0;
    let head = 0;
    let returnData: Uint8Array = EMPTY;
    try {
      const rootRes = this.deliver({ ...root, depth: 0 }, root, origin, budget, used);
      if (rootRes instanceof MessageFailure) {
        return {
          status: "reverted",
          error: `${rootRes.code}: ${rootRes.message}`,
          returnData: EMPTY,
          ...used,
          events: [],
        };
      }
      const applied = this.applyEffects({ ...root, depth: 0 }, rootRes, queue, mailbox, enqueued);
      if (applied instanceof MessageFailure) {
        return {
          status: "reverted",
          error: `${applied.code}: ${applied.message}`,
          returnData: EMPTY,
          ...used,
          events: [],
        };
      }
      enqueued = applied.enqueued;
      events.push(...applied.events);
      returnData = rootRes.result ?? EMPTY;
      while (head < queue.length) {
        const m = queue[head++] as Message;
        mailbox.set(hex(m.to), (mailbox.get(hex(m.to)) ?? 0) - m.args.length);
        const res = this.deliver(m, null, origin, budget, used);
        if (res instanceof MessageFailure) continue; // reverted inside deliver
        const eff = this.applyEffects(m, res, queue, mailbox, enqueued);
        if (eff instanceof MessageFailure) continue;
        enqueued = eff.enqueued;
        events.push(...eff.events);
      }
    } catch (e) {
      if (e instanceof TxAbort) {
        return {
          status: e.status,
          error: `${e.status === "outOfCycles" ? "ERR_EXEC_OUT_OF_CYCLES" : "ERR_EXEC_OUT_OF_CELLS"}: ${e.message}`,
          returnData: EMPTY,
          ...used,
          events: [],
        };
      }
      throw e;
    }
    return { status: "success", error: null, returnData, ...used, events };
  }

  /** `u64be(env.height)`, the value of every dedup entry this block records (the store copies it). */
  private heightBytes: Uint8Array | null = null;

  /** Delivery state of a message between its handler and its effects. */
  private pending: { cp: number } | null = null;

  /**
   * Delivers one message: dedup, per-actor budget, value transfer and handler, in a
   * checkpoint left open for {@link applyEffects} (closed here when it fails).
   */
  private deliver(
    m: Message,
    root: { kind: "deploy" | "call"; code?: string; valueMoved: boolean } | null,
    origin: Uint8Array,
    budget: { cycles: bigint; cells: bigint },
    used: { cycles: bigint; cells: bigint },
  ): ActorExecResult | MessageFailure {
    const limits = this.env.params.limits;
    const dk = this.dedupKey(m.to, m.id);
    if (this.state.get(dk) !== undefined) {
      return new MessageFailure("ERR_EXEC_DUPLICATE", `message 0x${hex(m.id)} was already delivered`);
    }
    const cp = this.state.checkpoint();
    const fail = (f: MessageFailure) => {
      this.state.revert(cp);
      return f;
    };
    const isDeploy = root !== null && root.kind === "deploy";
    if (!isDeploy && !this.isActor(m.to)) {
      // a plain account receives the value only (no handler runs)
      if (root !== null)
        return fail(new MessageFailure("ERR_EXEC_NOT_ACTOR", `0x${hex(m.to)} is not an actor`));
      if (!this.move(m.from, m.to, m.value)) {
        return fail(new MessageFailure("ERR_EXEC_INSUFFICIENT_VALUE", "sender cannot pay the message value"));
      }
      this.recordDedup(m.to, m.id, dk);
      this.state.release(cp);
      return new MessageFailure("ERR_EXEC_NOT_ACTOR", "value delivered to a plain account");
    }
    const key = hex(m.to);
    const spent = this.actorCycles.get(key) ?? 0n;
    if (spent >= limits.perActorPerBlockCycles) {
      return fail(
        new MessageFailure(
          "ERR_EXEC_ACTOR_BLOCK_BUDGET",
          `actor 0x${key} already used ${spent} cycles in this block (budget ${limits.perActorPerBlockCycles})`,
        ),
      );
    }
    if (root === null || !root.valueMoved) {
      if (!this.move(m.from, m.to, m.value)) {
        return fail(
          new MessageFailure("ERR_EXEC_INSUFFICIENT_VALUE", `0x${hex(m.from)} cannot pay ${m.value}`),
        );
      }
    }
    if (this.executor === null) {
      return fail(new MessageFailure("ERR_EXEC_NO_RUNTIME", "this node runs without the actor runtime"));
    }
    const remaining = { cycles: budget.cycles - used.cycles, cells: budget.cells - used.cells };
    let res: ActorExecResult;
    try {
      res = this.invoke(m, isDeploy, root?.code ?? "", origin, remaining);
    } catch (e) {
      // the runtime refused the request itself (e.g. ERR_INVALID_ARG): deterministic for the
      // same input, so it fails this message like a raising handler would, using nothing
      return fail(new MessageFailure("ERR_EXEC_HANDLER", `RuntimeError: ${(e as Error).message}`));
    }
    used.cycles += res.cyclesUsed;
    used.cells += res.cellsUsed;
    this.actorCycles.set(key, spent + res.cyclesUsed);
    if (!res.ok) {
      this.state.revert(cp);
      const type = res.error?.type ?? "Error";
      if (type === "OutOfCycles" && used.cycles >= budget.cycles)
        throw new TxAbort("outOfCycles", `${res.error?.message ?? ""}`);
      if (type === "OutOfCells" && used.cells >= budget.cells)
        throw new TxAbort("outOfCells", `${res.error?.message ?? ""}`);
      return new MessageFailure("ERR_EXEC_HANDLER", `${type}: ${res.error?.message ?? ""}`);
    }
    this.recordDedup(m.to, m.id, dk);
    this.pending = { cp };
    return res;
  }

  /** One call into the actor runtime for message `m`. */
  private invoke(
    m: Message,
    isDeploy: boolean,
    code: string,
    origin: Uint8Array,
    limits: { cycles: bigint; cells: bigint },
  ): ActorExecResult {
    return (this.executor as ActorExecutor)({
      kind: isDeploy ? "deploy" : "call",
      actor: m.to,
      ...(isDeploy ? { code } : { handler: m.handler }),
      args: m.args,
      context: {
        sender: m.from,
        origin,
        value: m.value,
        height: this.env.height,
        timestamp: this.env.timestampMs,
        chainId: Number(this.env.chainId),
        beacon: this.env.beacon,
        invocationId: m.id,
        depth: m.depth,
      },
      limits,
    });
  }

  private recordDedup(recipient: Uint8Array, id: Uint8Array, key?: Uint8Array): void {
    this.heightBytes ??= u64be(this.env.height);
    this.state.put(key ?? this.dedupKey(recipient, id), this.heightBytes);
    const entry = new Uint8Array(52);
    entry.set(recipient, 0);
    entry.set(id, 20);
    this.dedupRecorded.push(entry);
  }

  /**
   * Applies a successful handler's effects (sends queued, timers set/cancelled, events kept)
   * and closes its checkpoint; on any refused effect the handler's whole work is reverted.
   */
  private applyEffects(
    m: Message,
    res: ActorExecResult,
    queue: Message[],
    mailbox: Map<string, number>,
    enqueued: number,
  ): { enqueued: number; events: Event[] } | MessageFailure {
    const cp = (this.pending as { cp: number }).cp;
    this.pending = null;
    const limits = this.env.params.limits;
    const sends: Message[] = [];
    const events: Event[] = [];
    const fail = (code: ExecFailureCode, message: string) => {
      this.state.revert(cp);
      return new MessageFailure(code, message);
    };
    let count = enqueued;
    const box = new Map<string, number>();
    for (const eff of res.effects as ActorEffect[]) {
      switch (eff.kind) {
        case "send": {
          const e = eff as Extract<ActorEffect, { kind: "send" }>;
          count += 1;
          if (count > Number(limits.fanoutPerTx))
            return fail("ERR_EXEC_FANOUT", `more than ${limits.fanoutPerTx} messages in one transaction`);
          if (m.depth + 1 > Number(limits.maxMessageDepth))
            return fail("ERR_EXEC_DEPTH", `message depth above ${limits.maxMessageDepth}`);
          const k = hex(e.to);
          const bytes = (mailbox.get(k) ?? 0) + (box.get(k) ?? 0) + e.args.length;
          if (bytes > Number(limits.mailboxCapacityBytes)) {
            return fail(
              "ERR_EXEC_MAILBOX_FULL",
              `mailbox of 0x${k} would hold ${bytes} bytes (capacity ${limits.mailboxCapacityBytes})`,
            );
          }
          box.set(k, (box.get(k) ?? 0) + e.args.length);
          // the sending actor's nonce numbers its messages (message id, §3.3)
          const acct = this.account(m.to);
          this.putAccount(m.to, { ...acct, nonce: acct.nonce + 1n });
          sends.push({
            from: m.to,
            to: e.to,
            handler: e.handler,
            args: e.args,
            value: e.value,
            depth: m.depth + 1,
            id: messageId(m.to, acct.nonce, e),
          });
          break;
        }
        case "event": {
          const e = eff as Extract<ActorEffect, { kind: "event" }>;
          events.push({ emitter: m.to, topic: concatTopics(e.topics), data: e.data });
          break;
        }
        case "setTimer": {
          const e = eff as Extract<ActorEffect, { kind: "setTimer" }>;
          count += 1;
          if (count > Number(limits.fanoutPerTx))
            return fail(
              "ERR_EXEC_FANOUT",
              `more than ${limits.fanoutPerTx} messages and timers in one transaction`,
            );
          try {
            this.scheduleTimer({
              id: e.id,
              owner: m.to,
              target: m.to,
              handler: e.handler,
              data: e.data,
              fireAt: e.fireAt,
              interval: e.interval,
              feePayer: m.to,
            });
          } catch (err) {
            if (err instanceof TimerError) return fail("ERR_EXEC_TIMER", `${err.code}: ${err.message}`);
            throw err;
          }
          break;
        }
        case "cancelTimer": {
          const e = eff as Extract<ActorEffect, { kind: "cancelTimer" }>;
          try {
            this.timers.cancel(e.id, m.to);
          } catch (err) {
            if (err instanceof TimerError) return fail("ERR_EXEC_TIMER", `${err.code}: ${err.message}`);
            throw err;
          }
          break;
        }
        case "job": {
          // CIP-2 job: escrow max_price + tip and record it (jobs.ts `submitJob`)
          const r = submitJob(this.jobHost(), m.to, eff);
          if (!r.ok) return fail(r.code, r.message);
          events.push(r.event);
          break;
        }
        default:
          return fail("ERR_EXEC_EFFECT", `effect ${eff.kind} is not supported by this node`);
      }
    }
    this.state.release(cp);
    for (const s of sends) {
      queue.push(s);
      mailbox.set(hex(s.to), (mailbox.get(hex(s.to)) ?? 0) + s.args.length);
    }
    return { enqueued: count, events };
  }

  // ----- timers (§5.1a) -----

  /**
   * Fires the timers due at this height in (height, FIFO) order within the timer lane; drops
   * TTL-expired and unfunded ones through the GC lane; leaves the rest for the next block.
   */
  fireTimers(): void {
    const tc = this.env.params.timer;
    let lane = tc.laneCycles;
    let gc = tc.gcCycles;
    const { cycle, cell } = this.laneBasefee("timer");
    for (const { timer, advance } of this.timers.due(this.env.height)) {
      const maxCost = timer.cyclesPerFire * cycle + timer.cellsPerFire * cell;
      const expired = timer.expiresAt !== null && this.env.height > timer.expiresAt;
      if (expired || this.account(timer.feePayer).balance < maxCost) {
        if (gc < tc.gcCyclesPerDrop) break; // GC lane exhausted: the rest waits
        gc -= tc.gcCyclesPerDrop;
        this.timers.remove(timer.id);
        advance();
        continue;
      }
      if (timer.cyclesPerFire > lane) break; // does not fit: rolls to the next block, in order
      if (this.actorCyclesUsed(timer.target) >= this.env.params.limits.perActorPerBlockCycles) {
        // the target spent its §12.1 block budget: this timer waits for the next block
        this.timers.reschedule(timer.id, this.env.height + 1n, this.env.height);
        advance();
        continue;
      }
      this.fireOne(timer, maxCost);
      lane -= this.lastFireCycles;
      advance();
    }
  }

  private lastFireCycles = 0n;

  private fireOne(timer: QueuedTimer, maxCost: bigint): void {
    const payer = this.account(timer.feePayer);
    this.putAccount(timer.feePayer, { ...payer, balance: payer.balance - maxCost });
    const fireId = keccak256(
      Buffer.concat([TEXT.encode("cowboy-timer-fire"), timer.id, u64be(this.env.height)]),
    );
    // the single positional argument is the timer's data (one canonical CBOR item)
    const args = new Uint8Array(1 + timer.data.length);
    args[0] = 0x81;
    args.set(timer.data, 1);
    const cp = this.state.checkpoint();
    const res = this.cascade(
      {
        kind: "call",
        from: timer.owner,
        to: timer.target,
        handler: timer.handler,
        args,
        value: 0n,
        id: fireId,
        valueMoved: true,
      },
      timer.owner,
      { cycles: timer.cyclesPerFire, cells: timer.cellsPerFire },
    );
    if (res.status === "success") this.state.release(cp);
    else this.state.revert(cp);
    // FIFO phase (§5.1a): no tip; the basefee part is burned, the rest refunded
    const lane = this.laneBasefee("timer");
    const paid = res.cycles * lane.cycle + res.cells * lane.cell;
    this.credit(timer.feePayer, maxCost - paid);
    this.burned += paid;
    this.cyclesUsed += res.cycles;
    this.cellsUsed += res.cells;
    this.lastFireCycles = res.cycles;
    if (timer.interval === null) {
      this.timers.remove(timer.id);
    } else {
      const next = this.env.height + timer.interval;
      this.timers.reschedule(timer.id, next, this.env.height, {
        expiresAt: next + this.env.params.timer.defaultTtlBlocks,
      });
    }
    this.receipts.push({
      kind: "timer",
      txHash: fireId,
      status: res.status,
      cyclesUsed: res.cycles,
      cellsUsed: res.cells,
      feePaid: paid,
      returnData: res.returnData,
      error: res.error,
      events: res.status === "success" ? res.events : [],
      from: timer.feePayer,
      burned: paid,
      tip: 0n,
      contractAddress: null,
      timerId: timer.id,
    });
  }

  // ----- end of block -----

  /** Pays the proposer (tips + §8.2 reward) and records this block's dedup expiry list. */
  finish(): void {
    this.reward = blockReward(this.env.height);
    // §8.2 / "Staking and Rewards": the reward is split by stake over the block's epoch set
    // (validators.ts); without a set the proposer takes it. Tips always go to the proposer.
    const shares = this.validators.finish(this.reward);
    this.credit(this.env.proposer, this.tips + (shares.length === 0 ? this.reward : 0n));
    if (this.dedupRecorded.length > 0) {
      this.state.put(this.expiryKey(this.env.height), Buffer.concat(this.dedupRecorded));
    }
  }

  /** Per-actor cycles used so far in this block (for tests and metrics). */
  actorCyclesUsed(addr: Uint8Array): bigint {
    return this.actorCycles.get(hex(addr)) ?? 0n;
  }

  /** Runs a call without fees (simulation); the caller reverts the state afterwards. */
  simulate(
    call: { from: Uint8Array; to: Uint8Array; handler: string; args: Uint8Array; value: bigint },
    budget: { cycles: bigint; cells: bigint },
  ): CascadeResult {
    return this.cascade(
      {
        kind: "call",
        ...call,
        id: messageId(call.from, this.account(call.from).nonce, call),
        valueMoved: false,
      },
      call.from,
      budget,
    );
  }

  /** Runs a deploy's `__init__` without fees (estimation); the caller reverts the state. */
  simulateTx(tx: Transaction, hash: Uint8Array, budget: { cycles: bigint; cells: bigint }): CascadeResult {
    return this.runInstruction(tx, hash, budget);
  }

  /** A timer by id (for queries). */
  timer(id: Uint8Array): QueuedTimer | undefined {
    return this.timers.get(id);
  }
}

/** Receipt events carry one topic field: the topics concatenated, each u16 BE length-prefixed. */
export function concatTopics(topics: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const t of topics) n += 2 + t.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const t of topics) {
    out[o] = (t.length >> 8) & 0xff;
    out[o + 1] = t.length & 0xff;
    out.set(t, o + 2);
    o += 2 + t.length;
  }
  return out;
}
