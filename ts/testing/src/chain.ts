/**
 * {@link SimChain}: the simulated chain of one test — the real state transition function
 * (`openChain` of @cowboy/node: `Chain` over the qmdb store in a temporary directory, the
 * addon's actor runtime) driven block by block. Every transaction is signed with a
 * development key and executed in a block of its own (`buildBlock`), so fees, timers and
 * message cascades follow the exact chain rules; `advance(n)` builds empty blocks, in which
 * due timers fire. Nothing reads the clock: block `n` has timestamp `T0 + n × blockTimeMs`.
 *
 * The executor is wrapped to record every invocation of a block, so a failed receipt can be
 * given the actor's exception type, message, traceback (`File "<project path>", line N, in f`)
 * and printed output — the STF's receipt only has an error string.
 */
import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ActorExecRequest,
  type ActorExecResult,
  type ActorExecutor,
  type Chain,
  type ChainHandle,
  type ExecutionReceipt,
  MAX_TX_CYCLES_LIMIT,
  openChain,
  qmdbExecutor,
  UNITS_PER_CBY,
} from "@cowboy/node";
import { DEV_ACCOUNT_BALANCE, type DevKey, deriveDevKeys } from "@cowboy/node/devnet";
import {
  type CborValue,
  decodeCbor,
  encodeTransaction,
  type Instruction,
  signTransaction,
  type Transaction,
  toHex,
  zeroSignature,
} from "@cowboy/sdk";

/** Names of the development accounts, in order. */
export const ACCOUNT_NAMES = [
  "alice",
  "bob",
  "carol",
  "dave",
  "eve",
  "frank",
  "grace",
  "heidi",
  "ivan",
  "judy",
];

/** Chain id of simulated chains. */
export const SIM_CHAIN_ID = 31337n;
/** Timestamp of the genesis block (ms). */
export const SIM_GENESIS_MS = 1_700_000_000_000n;

let keysCache: DevKey[] | undefined;
/** The development accounts (derived once per process). */
export function devAccounts(): DevKey[] {
  keysCache ??= deriveDevKeys(ACCOUNT_NAMES.length).accounts;
  return keysCache;
}

const nativeSign = (
  createRequire(import.meta.url)("@cowboy/native") as { txSign?: (tx: Buffer, key: Buffer) => Buffer }
).txSign;

/** A decoded event. */
export interface SimEvent {
  emitter: Uint8Array;
  /** the first topic as text (the event name of `cowboy_sdk.emit`) */
  name: string;
  /** the other topics */
  topics: Uint8Array[];
  /** the data, decoded if canonical (else the raw bytes) */
  data: CborValue;
}

/** A receipt with what the actor runtime said about a failure. */
export interface SimReceipt {
  ok: boolean;
  status: string;
  value: CborValue;
  cycles: bigint;
  cells: bigint;
  fee: bigint;
  events: SimEvent[];
  error: string | null;
  errorType: string | null;
  /** the failing actor's traceback, with actor files named by their project path */
  traceback: string[];
  stdout: string;
  height: bigint;
  kind: "tx" | "timer" | "call";
  contract: Uint8Array | null;
  txHash: Uint8Array;
  handler: string | null;
  /** runner jobs submitted (ids to pass to `deliverJobResult`) */
  jobs: SimJob[];
}

/** A runner job an actor submitted. */
export interface SimJob {
  id: Uint8Array;
  jobType: string;
  spec: CborValue;
  callback: string;
  maxPrice: bigint;
}

/** Thrown when the chain refuses a transaction (admission), with the chain's reason. */
export class RejectedError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

interface ExecRecord {
  req: ActorExecRequest;
  res: ActorExecResult;
}

const hex = (b: Uint8Array) => toHex(b);

/** Splits `cowboy_sdk.emit` topics (2-byte length-prefixed) into parts. */
export function splitTopics(t: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let o = 0;
  while (o + 2 <= t.length) {
    const n = ((t[o] as number) << 8) | (t[o + 1] as number);
    out.push(t.subarray(o + 2, o + 2 + n));
    o += 2 + n;
  }
  return out;
}

function decodeOrRaw(b: Uint8Array): CborValue {
  if (b.length === 0) return null;
  try {
    return decodeCbor(b);
  } catch {
    return b;
  }
}

function jobOf(e: { kind: string; [field: string]: unknown }): SimJob[] {
  if (e.kind !== "job") return [];
  return [
    {
      id: e.id as Uint8Array,
      jobType: e.jobType as string,
      spec: decodeOrRaw(e.spec as Uint8Array),
      callback: e.callback as string,
      maxPrice: e.maxPrice as bigint,
    },
  ];
}

/**
 * Where test chains keep their store: memory-backed `/dev/shm` when there is one (a test chain
 * is thrown away, and the store syncs every commit), else the temporary directory.
 */
function scratchDir(): string {
  try {
    if (statSync("/dev/shm").isDirectory()) {
      accessSync("/dev/shm", constants.W_OK);
      return "/dev/shm";
    }
  } catch {
    // no /dev/shm: fall through
  }
  return tmpdir();
}

/** Options of {@link SimChain.create}. */
export interface SimChainOptions {
  /** Block interval in ms of simulated time (default 1000). */
  blockTimeMs?: bigint;
}

/** One test's chain. Call {@link close} when done (removes the temporary store). */
export class SimChain {
  readonly chain: Chain;
  private readonly handle: ChainHandle;
  private readonly dir: string;
  private readonly blockTimeMs: bigint;
  private records: ExecRecord[] = [];
  /** actor address (hex) → project path of its source, for tracebacks */
  readonly actorFiles = new Map<string, string>();
  /** every receipt so far, oldest first */
  readonly receipts: SimReceipt[] = [];
  /** things a test author should know that are not errors (e.g. a timer dropped unfunded) */
  readonly warnings: string[] = [];
  /** timers set by actors that are still queued, by id (hex) */
  private readonly timers = new Map<
    string,
    { id: Uint8Array; actor: Uint8Array; handler: string; fireAt: bigint }
  >();
  readonly accounts: DevKey[];

  private constructor(blockTimeMs: bigint) {
    this.blockTimeMs = blockTimeMs;
    this.accounts = devAccounts();
    this.dir = mkdtempSync(join(scratchDir(), "cowboy-test-chain-"));
    let inner: ActorExecutor | null = null;
    const recording: ActorExecutor = (req) => {
      if (inner === null) throw new Error("the actor runtime is not bound yet");
      const res = inner(req);
      this.records.push({ req, res });
      return res;
    };
    this.handle = openChain(
      this.dir,
      {
        chainId: SIM_CHAIN_ID,
        timestampMs: SIM_GENESIS_MS,
        accounts: this.accounts.map((a) => ({ address: a.address, balance: DEV_ACCOUNT_BALANCE })),
      },
      { executor: recording },
    );
    inner = qmdbExecutor(this.handle.state);
    if (inner === null) {
      this.close();
      throw new Error("the native addon has no actor runtime (run `npm run build:native`)");
    }
    this.chain = this.handle.chain;
  }

  /** A fresh chain at genesis: ten development accounts with 1,000,000 CBY each. */
  static create(opts: SimChainOptions = {}): SimChain {
    return new SimChain(opts.blockTimeMs ?? 1000n);
  }

  close(): void {
    try {
      this.handle.close();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  get height(): bigint {
    return this.chain.head.height;
  }

  get timestampMs(): bigint {
    return this.chain.head.timestampMs;
  }

  /** The development key of `address`, or an error naming the accounts. */
  keyOf(address: Uint8Array): DevKey {
    const k = this.accounts.find((a) => hex(a.address) === hex(address));
    if (k === undefined)
      throw new Error(`0x${hex(address)} is not a development account: only accounts can send transactions`);
    return k;
  }

  private sign(
    from: DevKey,
    instruction: Instruction,
    limits: { cycles?: bigint; cells?: bigint },
  ): Uint8Array {
    const nonce = this.chain.getAccount(from.address)?.nonce ?? 0n;
    const basefee = this.chain.nextBasefees();
    const tx: Transaction = {
      chainId: SIM_CHAIN_ID,
      nonce,
      instruction,
      cyclesLimit: limits.cycles ?? (instruction.kind === "transfer" ? 21_000n : MAX_TX_CYCLES_LIMIT / 4n),
      cellsLimit: limits.cells ?? (instruction.kind === "transfer" ? 0n : 200_000n),
      maxFeePerCycle: basefee.cycle * 2n,
      maxFeePerCell: basefee.cell * 2n,
      maxPriorityFeePerCycle: 0n,
      maxPriorityFeePerCell: 0n,
      from: from.address,
      accessList: null,
      metadata: new Uint8Array(0),
      originTxHash: null,
      originRemainingCycles: null,
      originRemainingCells: null,
      signature: zeroSignature(),
      additionalSigners: [],
    };
    return nativeSign
      ? new Uint8Array(nativeSign(Buffer.from(encodeTransaction(tx)), Buffer.from(from.secretKey)))
      : encodeTransaction(signTransaction(tx, from.secretKey));
  }

  /**
   * Builds the next block with `txs`; returns its receipts (decorated). Actors deployed in it
   * are named `file` in tracebacks (their address is known once `__init__` runs, so a failing
   * `__init__` is attributed too).
   */
  private block(txs: Uint8Array[], file?: string): SimReceipt[] {
    this.records = [];
    const r = this.chain.buildBlock(txs, {
      timestampMs: this.timestampMs + this.blockTimeMs,
      proposer: new Uint8Array(20),
    });
    const skipped = r.skipped[0];
    if (skipped !== undefined) throw new RejectedError(skipped.error.code, skipped.error.message);
    if (file !== undefined)
      for (const rec of this.records)
        if (rec.req.kind === "deploy" && !this.actorFiles.has(hex(rec.req.actor)))
          this.actorFiles.set(hex(rec.req.actor), file);
    const out = this.decorate(r.receipts, r.block.header.height);
    this.receipts.push(...out);
    this.trackTimers(r.receipts, r.block.header.height);
    return out;
  }

  /**
   * Follows the timers actors set: a timer that left the queue without firing or being
   * cancelled was dropped by the chain (§5.1a: its fee payer could not pay the fire, or its
   * TTL passed) — worth a warning, since nothing else in the test would show it.
   */
  private trackTimers(receipts: ExecutionReceipt[], height: bigint): void {
    const fired = new Set(
      receipts.flatMap((rc) => (rc.kind === "timer" && rc.timerId ? [hex(rc.timerId)] : [])),
    );
    for (const { req, res } of this.records) {
      if (!res.ok) continue;
      for (const e of res.effects) {
        if (e.kind === "setTimer") {
          const t = e as Extract<typeof e, { kind: "setTimer" }>;
          // only timers that really got queued (a reverted cascade's effects never were)
          if (this.chain.getTimer(t.id) === null) continue;
          this.timers.set(hex(t.id), { id: t.id, actor: req.actor, handler: t.handler, fireAt: t.fireAt });
        } else if (e.kind === "cancelTimer") this.timers.delete(hex((e as { id: Uint8Array }).id));
      }
    }
    for (const [k, t] of this.timers) {
      if (this.chain.getTimer(t.id) !== null) continue;
      this.timers.delete(k);
      if (fired.has(k) || t.fireAt > height) continue;
      const payer = this.actorFiles.get(hex(t.actor)) ?? `0x${hex(t.actor)}`;
      this.warnings.push(
        `timer '${t.handler}' of ${payer} (due at height ${t.fireAt}) was dropped at height ${height} without firing: ` +
          `its fee payer could not pay for the fire (an actor pays for its own timers: deploy it with value) or its TTL passed`,
      );
    }
  }

  /** Attributes the recorded invocations to receipts (a fire's root has its invocation id). */
  private decorate(receipts: ExecutionReceipt[], height: bigint): SimReceipt[] {
    const groups = new Map<ExecutionReceipt, ExecRecord[]>();
    const starts = new Map<string, ExecutionReceipt>();
    for (const rc of receipts) if (rc.kind === "timer") starts.set(hex(rc.txHash), rc);
    const txs = receipts.filter((rc) => rc.kind === "tx");
    let current: ExecutionReceipt | undefined = txs.length === 1 ? txs[0] : undefined;
    for (const rec of this.records) {
      const start = starts.get(hex(rec.req.context.invocationId));
      if (start !== undefined) current = start;
      if (current === undefined) continue;
      const g = groups.get(current) ?? [];
      g.push(rec);
      groups.set(current, g);
    }
    return receipts.map((rc) => this.toSim(rc, groups.get(rc) ?? [], height));
  }

  private toSim(rc: ExecutionReceipt, recs: ExecRecord[], height: bigint): SimReceipt {
    const ok = rc.status === "success";
    const failed = ok ? undefined : [...recs].reverse().find((r) => !r.res.ok);
    const root = recs[0];
    let errorType: string | null = null;
    let error = rc.error;
    if (!ok) {
      if (failed?.res.error) {
        errorType = failed.res.error.type;
        error = failed.res.error.message;
      } else if (rc.error !== null) {
        const m = /^([A-Z_]+):\s*(.*)$/s.exec(rc.error);
        errorType = m?.[1] ?? rc.status;
        error = m?.[2] ?? rc.error;
      } else errorType = rc.status;
    }
    return {
      ok,
      status: rc.status,
      value: ok ? decodeOrRaw(rc.returnData) : null,
      cycles: rc.cyclesUsed,
      cells: rc.cellsUsed,
      fee: rc.feePaid,
      events: rc.events.map((e) => this.event(e)),
      error: ok ? null : error,
      errorType,
      traceback: failed?.res.error ? this.traceback(failed) : [],
      stdout: recs.map((r) => r.res.stdout).join(""),
      height,
      kind: rc.kind,
      contract: rc.contractAddress,
      txHash: rc.txHash,
      handler: root?.req.handler ?? (root?.req.kind === "deploy" ? "__init__" : null),
      jobs: ok ? recs.flatMap((r) => (r.res.ok ? r.res.effects : []).flatMap((e) => jobOf(e))) : [],
    };
  }

  private event(e: { emitter: Uint8Array; topic: Uint8Array; data: Uint8Array }): SimEvent {
    const topics = splitTopics(e.topic);
    const first = topics[0];
    return {
      emitter: e.emitter,
      name: first === undefined ? "" : new TextDecoder().decode(first),
      topics: topics.slice(1),
      data: decodeOrRaw(e.data),
    };
  }

  /** The failing invocation's traceback with `actor.py` replaced by the actor's project path. */
  private traceback(rec: ExecRecord): string[] {
    const file = this.actorFiles.get(hex(rec.req.actor));
    const lines = rec.res.error?.traceback ?? [];
    if (file === undefined) return lines;
    return lines.map((l) => l.replace(/^File "actor\.py"/, `File "${file}"`));
  }

  /** Deploys `source` (named `file` in tracebacks) with canonical `initArgs`. */
  deploy(
    from: Uint8Array,
    source: string,
    file: string,
    initArgs: Uint8Array,
    value: bigint,
    salt?: Uint8Array,
    limits: { cycles?: bigint; cells?: bigint } = {},
  ): { address: Uint8Array | null; receipt: SimReceipt } {
    const s = salt ?? new Uint8Array(32);
    if (salt === undefined) {
      // distinct actors for repeated deploys of one source by one account
      const n = BigInt(this.receipts.length);
      new DataView(s.buffer).setBigUint64(24, n);
    }
    const code = new TextEncoder().encode(source);
    const tx = this.sign(
      this.keyOf(from),
      { kind: "deploy", source: code, salt: s, initArgs, value },
      limits,
    );
    const receipt = this.block([tx], file)[0] as SimReceipt;
    return { address: receipt.contract, receipt };
  }

  /** A call transaction in a block of its own. */
  send(
    from: Uint8Array,
    to: Uint8Array,
    handler: string,
    args: Uint8Array,
    value: bigint,
    limits: { cycles?: bigint; cells?: bigint } = {},
  ): SimReceipt {
    const tx = this.sign(this.keyOf(from), { kind: "call", to, handler, args, value }, limits);
    return this.block([tx])[0] as SimReceipt;
  }

  /** A transfer in a block of its own. */
  transfer(from: Uint8Array, to: Uint8Array, amount: bigint): SimReceipt {
    return this.block([this.sign(this.keyOf(from), { kind: "transfer", to, amount }, {})])[0] as SimReceipt;
  }

  /** `n` empty blocks; the receipts of the timer fires in them. */
  advance(n: number): SimReceipt[] {
    const out: SimReceipt[] = [];
    for (let i = 0; i < n; i++) out.push(...this.block([]));
    return out;
  }

  /** A simulated call on the head state (nothing is kept). */
  call(from: Uint8Array, to: Uint8Array, handler: string, args: Uint8Array, value: bigint): SimReceipt {
    this.records = [];
    const r = this.chain.simulateCall({ from, to, handler, args, value });
    const failed = [...this.records].reverse().find((x) => !x.res.ok);
    const rc = {
      kind: "tx",
      status: r.status,
      error: r.error,
      returnData: r.returnData,
      cyclesUsed: r.cyclesUsed,
      cellsUsed: r.cellsUsed,
      feePaid: 0n,
      events: r.events,
      contractAddress: null,
      txHash: new Uint8Array(32),
    } as unknown as ExecutionReceipt;
    const sim = this.toSim(rc, failed ? [failed] : this.records, this.height);
    return { ...sim, kind: "call", stdout: this.records.map((x) => x.res.stdout).join("") };
  }

  /**
   * Delivers a runner result (canonical CBOR `result`) for `jobId` through the chain's job
   * settlement (`Chain.deliverJobResult`) and builds the block carrying it; returns that
   * block's receipts (the delivery's callback, then any timer fires).
   */
  injectResult(jobId: Uint8Array, result: Uint8Array): SimReceipt[] {
    try {
      this.chain.deliverJobResult(jobId, result);
    } catch (e) {
      const err = e as { code?: string; message: string };
      throw new RejectedError(err.code ?? "ERR_JOB", err.message);
    }
    return this.block([]);
  }

  balance(address: Uint8Array): bigint {
    return this.chain.getAccount(address)?.balance ?? 0n;
  }

  nonce(address: Uint8Array): bigint {
    return this.chain.getAccount(address)?.nonce ?? 0n;
  }
}

/** 1 CBY in base units. */
export const CBY = UNITS_PER_CBY;
