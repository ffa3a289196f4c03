/**
 * {@link Chain}: the state transition function behind the devnet (issue 7, spec 01 "The State
 * Transition Function"). It owns the head header, checks transactions (§2.2), builds blocks
 * from mempool candidates (lanes §17.9, VRF ordering §6.4/§6.5), re-executes blocks received
 * from elsewhere, and answers state queries. docs/execution.md walks through a block.
 */
import { createRequire } from "node:module";
import type { SetMember, ValidatorParams, ValidatorRecord } from "@cowboy/consensus";
import {
  type Block,
  type BlockHeader,
  blockHash,
  bytesEqual,
  encodeTransaction,
  type Transaction,
  toHex,
  verifyBytes,
} from "@cowboy/sdk";
import { nextBasefee } from "../fees/basefee.ts";
import { type ChainParams, DEFAULT_PARAMS, readParams, writeGenesisState } from "../genesis/genesis.ts";
import {
  BLOCK_CELLS_CAP,
  LANES,
  type Lane,
  MAX_TX_CELLS_LIMIT,
  MAX_TX_CYCLES_LIMIT,
  MAX_TX_SIZE,
  MIN_BASEFEE,
} from "../params.ts";
import type { KvStore } from "../state/kv.ts";
import { type QueuedTimer, TimerQueue } from "../timers/queue.ts";
import {
  type CeremonyRecord,
  type EpochGroup,
  readCeremony,
  readEpochGroup,
  readGroupRecord,
  readOpenCeremony,
} from "./dkg.ts";
import { StfError } from "./errors.ts";
import { BlockExecutor, intrinsicCost } from "./exec.ts";
import {
  decodeTx,
  keccak as keccak256,
  keccakStrided,
  merklePacked,
  packItems,
  receiptsRootOf,
} from "./hash.ts";
import {
  checkDeliverable,
  checkDeliveryLimits,
  checkResult,
  decodeJob,
  defaultDeliveryLimits,
  deliveryArgs,
  deliveryBytes,
  deliveryTx,
  isDeferred,
  isJobDelivery,
  JOB_DISPATCHER,
  JobError,
  type JobRecord,
  jobKey,
  RESULT_VERIFIER,
  readJob,
} from "./jobs.ts";
import {
  accountKey,
  codeKey,
  decodeAccountRecord as decodeAccount,
  storageKey,
  VM_NS_PVM,
} from "./state-keys.ts";
import type {
  AccountView,
  ActorExecutor,
  ApplyOptions,
  BlockResult,
  BuildOptions,
  ChainApi,
  CheckedTx,
  FeeEstimate,
  GenesisConfig,
  SimulationResult,
  SkippedTx,
  StateBackend,
} from "./types.ts";
import {
  readValidator,
  readValidatorParams,
  readValidatorSet,
  txLane,
  writeGenesisValidators,
} from "./validators.ts";

type Native = {
  txVerifyBatch(list: Buffer[]): boolean[];
  txVerifyReason(bytes: Buffer): string | null;
  /** background batch verification (crates/napi/src/stf.rs); absent in older builds */
  txVerifyStart?(data: Buffer, ends: Uint32Array): { wait(): boolean[] };
  /** batch verification on the libuv thread pool; absent in older builds */
  txVerifyBatchAsync?(list: Buffer[]): Promise<boolean[]>;
};
let native: Native | null = null;
/** The addon's secp256k1 verification (all cores); loaded on first use. */
function nativeCodec(): Native {
  if (native === null) {
    try {
      native = createRequire(import.meta.url)("@cowboy/native") as Native;
    } catch (err) {
      throw new StfError(
        "ERR_CHAIN_NO_RUNTIME",
        `the native addon (@cowboy/native) is not built; run \`bash scripts/task.sh build-native\`: ${(err as Error).message}`,
      );
    }
  }
  return native;
}

const ZERO32 = new Uint8Array(32);
const ZERO20 = new Uint8Array(20);
/** Entries of the verified-signature cache. */
const VERIFIED_CACHE = 100_000;

/** The lane a transaction belongs to (§6.3): derived from its instruction, so a proposer cannot re-lane it. */
export function laneOf(tx: Transaction): Lane {
  // job-result deliveries (deferred transactions from the Result Verifier, jobs.ts); the Timer
  // lane is used by timer fires, not by transactions
  if (isJobDelivery(tx)) return "runner";
  // validator-set System instructions (registration, exit, evidence, SYS_CANCEL_TIMER; validators.ts)
  return txLane(tx);
}

/** §6.5 order key of a transaction in block `height`: keccak256(beacon ‖ tx_hash ‖ height u64 BE). */
export function orderKey(beacon: Uint8Array, hash: Uint8Array, height: bigint): Uint8Array {
  const b = new Uint8Array(32 + 32 + 8);
  b.set(beacon, 0);
  b.set(hash, 32);
  new DataView(b.buffer).setBigUint64(64, height);
  return keccak256(b);
}

/**
 * The execution order of a block's transactions: lanes in priority order; within a lane by
 * order key; then each sender's transactions take that sender's positions in the whole block
 * in nonce order, across lanes (so neither a VRF shuffle nor the lane order — a System-lane
 * registration with a higher nonce than the same sender's User-lane transfer — ever breaks a
 * nonce sequence). A transaction keeps its own lane for budgets and fees; only its slot moves.
 */
export function executionOrder<T extends { tx: Transaction; hash: Uint8Array }>(
  items: readonly T[],
  beacon: Uint8Array,
  height: bigint,
): T[] {
  const slots: { i: T; sender: string }[] = [];
  if (beacon.length !== 32) throw new RangeError(`beacon of ${beacon.length} bytes, expected 32`);
  for (const lane of LANES) {
    const inLane = items.filter((i) => laneOf(i.tx) === lane);
    if (inLane.length === 0) continue;
    // every order key of the lane in one addon call: keccak256(beacon ‖ hash ‖ height) per item
    const pre = new Uint8Array(inLane.length * 72);
    const view = new DataView(pre.buffer);
    for (let n = 0; n < inLane.length; n++) {
      pre.set(beacon, n * 72);
      pre.set((inLane[n] as T).hash, n * 72 + 32);
      view.setBigUint64(n * 72 + 64, height);
    }
    const k = keccakStrided(pre, 72);
    const keys = Buffer.from(k.buffer, k.byteOffset, k.byteLength);
    // keys as latin1 strings: string order is byte order, and comparing strings is cheap
    const keyed = inLane.map((i, n) => ({
      i,
      key: keys.toString("latin1", n * 32, n * 32 + 32),
      sender: Buffer.from(i.tx.from.buffer, i.tx.from.byteOffset, i.tx.from.byteLength).toString("latin1"),
    }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : Buffer.compare(a.i.hash, b.i.hash)));
    for (const { i, sender } of keyed) slots.push({ i, sender });
  }
  // each sender's transactions, in nonce order, into that sender's slots (across lanes)
  const bySender = new Map<string, T[]>();
  for (const { i, sender } of slots) {
    const list = bySender.get(sender);
    if (list === undefined) bySender.set(sender, [i]);
    else list.push(i);
  }
  for (const list of bySender.values()) {
    if (list.length > 1)
      list.sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : a.tx.nonce > b.tx.nonce ? 1 : 0));
  }
  const next = new Map<string, number>();
  const out: T[] = [];
  for (const { sender } of slots) {
    const k = next.get(sender) ?? 0;
    next.set(sender, k + 1);
    out.push((bySender.get(sender) as T[])[k] as T);
  }
  return out;
}

/** The execution beacon (§3.4) of a block: keccak256 of the parent seed, or of the parent hash until BLS seeds are wired. */
export function executionBeacon(parentSeed: Uint8Array, parentHash: Uint8Array): Uint8Array {
  return parentSeed.length > 0
    ? keccak256(parentSeed)
    : keccak256(Buffer.concat([Buffer.from("cowboy-beacon-fallback"), parentHash]));
}

/** Options of {@link Chain.create}. */
export interface ChainOptions {
  state: StateBackend;
  genesis: GenesisConfig;
  /** the actor runtime (the addon's `executeActor` bound to the state); null = actors unavailable */
  executor?: ActorExecutor | null;
  /** head to resume from when the state already holds a chain (e.g. the ledger's last header) */
  head?: BlockHeader;
  /** genesis parameters (defaults: §13) */
  params?: ChainParams;
  /** called after every commit with the new head (e.g. to persist it); must not throw */
  onHead?: (head: BlockHeader) => void;
  /**
   * Signature check of encoded transactions (default: the addon's `txVerifyBatch`, libsecp256k1
   * on every core). `sdkVerifyBatch` is the pure-TS alternative (benchmark peer, tools).
   */
  verifyBatch?: (txs: readonly Uint8Array[]) => boolean[];
  /**
   * Accept runner-job result deliveries (default true): `deliverJobResult` queues them for the
   * blocks this chain builds, and blocks received with deliveries are valid. Results are trusted
   * as they stand (the CIP-2 verification protocol is not built); every node of a network must
   * use the same setting. docs/execution.md "Runner jobs".
   */
  acceptJobResults?: boolean;
}

/** Options of {@link Chain.deliverJobResult}. */
export interface JobResultOptions {
  /** paid the runner share of the payment and the tip (default: the Result Verifier 0x…03) */
  runner?: Uint8Array;
  /** the price paid, at most the job's max_price (default: max_price); the rest is refunded */
  payment?: bigint;
  /** callback limits (defaults: 200,000 cycles; args bytes + 20,000 cells) */
  cyclesLimit?: bigint;
  cellsLimit?: bigint;
}

/** A delivery waiting for the next block this chain builds. */
interface QueuedDelivery {
  jobId: Uint8Array;
  result: Uint8Array;
  runner: Uint8Array;
  payment: bigint;
  limits: { cycles: bigint; cells: bigint };
}

/** The addon's batch verification (primary signature and co-signers, §2.2 (c)/(e)). */
export function nativeVerifyBatch(txs: readonly Uint8Array[]): boolean[] {
  return nativeCodec().txVerifyBatch(txs.map((b) => Buffer.from(b.buffer, b.byteOffset, b.length)));
}

/** The same checks in pure TypeScript (`@cowboy/sdk`, noble secp256k1), one transaction at a time. */
export function sdkVerifyBatch(txs: readonly Uint8Array[]): boolean[] {
  return txs.map((b) => verifyBytes(b));
}

interface Decoded {
  tx: Transaction;
  hash: Uint8Array;
  bytes: Uint8Array;
  /** the verified-signature cache key of `bytes` (`decodeTx`); absent = keccak256 of the bytes */
  sigKey?: string;
}

/** What `Chain` derives once per head (see `Chain.perHead`). */
interface HeadCache {
  head: BlockHeader;
  hash: Uint8Array;
  params: ChainParams | null;
  basefees: Readonly<{ cycle: bigint; cell: bigint }> | null;
  /** executor of the admission checks against the head state */
  checker: BlockExecutor | null;
}

/** A transaction hash as a map key (latin1: one char per byte; cheaper than hex, same identity). */
function hashKey(h: Uint8Array): string {
  return Buffer.from(h.buffer, h.byteOffset, h.byteLength).toString("latin1");
}

function candidateBytes(c: Uint8Array | { bytes: Uint8Array } | undefined): Uint8Array {
  if (c === undefined) throw new RangeError("candidate index out of range");
  return c instanceof Uint8Array ? c : c.bytes;
}

/**
 * The chain state machine. Single-threaded and synchronous; every method either completes or
 * leaves the committed state untouched (pending writes are discarded on error).
 */
export class Chain implements ChainApi {
  readonly chainId: bigint;
  readonly genesisHeader: BlockHeader;
  private readonly state: StateBackend;
  private readonly executor: ActorExecutor | null;
  private readonly onHead: ((head: BlockHeader) => void) | null;
  private readonly verifyBatch: (txs: readonly Uint8Array[]) => boolean[];
  /**
   * Transactions whose signatures this node already checked (at admission, `checkTx`, or in a
   * block), keyed by their exact encoding (`decodeTx`'s `sigKey`: digest and signature bytes),
   * so a block built from the mempool — or received with the same transactions — does not
   * verify them twice. A block from a peer with other bytes is verified in full. Bounded;
   * oldest entries go first.
   */
  private readonly verified = new Map<string, true>();
  /**
   * Transactions decoded, stateless-checked and signature-verified by `checkTx`, keyed by the
   * decoded object it returned (weakly: an entry lives as long as the caller keeps the object).
   */
  private readonly admitted = new WeakMap<Transaction, Decoded>();
  /**
   * `preverify`'s decodings, keyed by the encoding's array object (weakly), so that the
   * `checkTx` of the same array does not decode it again (the caller must not mutate it).
   */
  private readonly predecoded = new WeakMap<
    Uint8Array,
    { tx: Transaction; hash: Uint8Array; sigKey: string }
  >();
  private headHeader: BlockHeader;
  /** state version committed for height 0 */
  private readonly genesisVersion: bigint;
  /** see {@link ChainOptions.acceptJobResults} */
  private acceptJobResults = true;
  /** job results queued by `deliverJobResult`, by job id (hex), in arrival order */
  private readonly deliveries = new Map<string, QueuedDelivery>();

  private constructor(opts: {
    state: StateBackend;
    executor: ActorExecutor | null;
    chainId: bigint;
    genesisHeader: BlockHeader;
    head: BlockHeader;
    genesisVersion: bigint;
    onHead: ((head: BlockHeader) => void) | null;
    verifyBatch: (txs: readonly Uint8Array[]) => boolean[];
  }) {
    this.onHead = opts.onHead;
    this.verifyBatch = opts.verifyBatch;
    this.state = opts.state;
    this.executor = opts.executor;
    this.chainId = opts.chainId;
    this.genesisHeader = opts.genesisHeader;
    this.headHeader = opts.head;
    this.genesisVersion = opts.genesisVersion;
  }

  /** The genesis header for `genesis` once its state has root `stateRoot`. */
  static genesisHeader(genesis: GenesisConfig, stateRoot: Uint8Array): BlockHeader {
    return {
      parent: ZERO32,
      height: 0n,
      round: { epoch: 0n, view: 0n },
      proposer: ZERO20,
      timestampMs: genesis.timestampMs,
      stateRoot,
      txRoot: ZERO32,
      receiptsRoot: ZERO32,
      cycleBasefee: genesis.cycleBasefee ?? MIN_BASEFEE,
      cellBasefee: genesis.cellBasefee ?? MIN_BASEFEE,
      cyclesUsed: 0n,
      cellsUsed: 0n,
      parentSeed: new Uint8Array(0),
    };
  }

  /**
   * Opens a chain over `state`. An empty state (version 0) gets the genesis state committed
   * as its first version; otherwise `head` (the last executed header) is required and must
   * match the state's root.
   */
  static create(opts: ChainOptions): Chain {
    const { state, genesis } = opts;
    const executor = opts.executor ?? null;
    // 0 is reserved: a transaction's encoding starts with its chain id, and a transaction
    // gossip message starting with 0x00 is a batch frame (mempool/gossip.ts)
    if (genesis.chainId < 1n || genesis.chainId > 0xffff_ffffn) {
      throw new StfError(
        "ERR_CHAIN_GENESIS",
        `chain id ${genesis.chainId} must be 1..=u32::MAX (0 is reserved; the actor context carries it as a number)`,
      );
    }
    if (state.version() === 0n) {
      writeGenesisState(state, genesis.accounts, opts.params ?? DEFAULT_PARAMS);
      // genesis validators (contract C2; validators.ts): stake debited from their accounts
      writeGenesisValidators(
        state,
        genesis.chainId,
        genesis.validators,
        genesis.validatorParams,
        undefined,
        genesis.dkgOutput,
      );
      const { version, root } = state.commit();
      const header = Chain.genesisHeader(genesis, root);
      const chain = new Chain({
        state,
        executor,
        chainId: genesis.chainId,
        genesisHeader: header,
        head: header,
        genesisVersion: version,
        onHead: opts.onHead ?? null,
        verifyBatch: opts.verifyBatch ?? nativeVerifyBatch,
      });
      chain.acceptJobResults = opts.acceptJobResults ?? true;
      chain.onHead?.(header);
      return chain;
    }
    const head = opts.head;
    if (head === undefined) {
      throw new StfError(
        "ERR_CHAIN_HEAD",
        "the state already holds a chain: pass the last executed header as `head`",
      );
    }
    if (!bytesEqual(head.stateRoot, state.root())) {
      throw new StfError(
        "ERR_CHAIN_HEAD",
        `head ${head.height} state root ${toHex(head.stateRoot)} differs from the store's ${toHex(state.root())}`,
      );
    }
    const genesisVersion = state.version() - head.height;
    const genesisRoot = head.height === 0n ? head.stateRoot : ZERO32;
    const gh = Chain.genesisHeader(genesis, genesisRoot);
    const resumed = new Chain({
      state,
      executor,
      chainId: genesis.chainId,
      genesisHeader: gh,
      head,
      genesisVersion,
      onHead: opts.onHead ?? null,
      verifyBatch: opts.verifyBatch ?? nativeVerifyBatch,
    });
    resumed.acceptJobResults = opts.acceptJobResults ?? true;
    return resumed;
  }

  /** Header of the latest executed block. */
  get head(): BlockHeader {
    return this.headHeader;
  }

  /**
   * Moves the head back to `header`, a block already executed on this chain at or below the head
   * (a validator dropping executed-but-not-finalized speculative blocks): the state is rewound to
   * the version committed for `header.height` (`StateBackend.rewind`, pending writes dropped), and
   * the next block must extend `header`. `header`'s state root is checked against the root the
   * store retained for that height before anything is dropped. Throws `StfError("ERR_CHAIN_HEAD")`
   * when the backend cannot rewind, when `header` is above the head, or when its state root is not
   * the one committed at its height; the backend's error (`ERR_QMDB_VERSION_UNAVAILABLE`) when
   * that version is outside the retained history window. `onHead` is told the new head.
   */
  resetHead(header: BlockHeader): void {
    const state = this.state;
    if (state.rewind === undefined || state.rootAt === undefined)
      throw new StfError("ERR_CHAIN_HEAD", "the state backend cannot rewind");
    if (header.height < 0n || header.height > this.headHeader.height)
      throw new StfError(
        "ERR_CHAIN_HEAD",
        `height ${header.height} is above the head ${this.headHeader.height}`,
      );
    const version = this.genesisVersion + header.height;
    const kept = state.rootAt(version);
    if (kept !== undefined && !bytesEqual(kept, header.stateRoot))
      throw new StfError(
        "ERR_CHAIN_HEAD",
        `header ${header.height} state root ${toHex(header.stateRoot)} is not the one executed here (${toHex(kept)})`,
      );
    // an unretained version makes the backend throw before anything is dropped
    state.rewind(version);
    this.headHeader = header;
    this.onHead?.(header);
  }

  /** Hash of the head block. */
  get headHash(): Uint8Array {
    return this.perHead().hash;
  }

  /**
   * Values derived from the head and the committed state: they change only when a block is
   * committed (the head header object is replaced), so they are computed once per head. The
   * cache is keyed on the head header object itself — every commit installs a new one.
   */
  private perHead(): HeadCache {
    const head = this.headHeader;
    let c = this.headCache;
    if (c === null || c.head !== head) {
      c = { head, hash: blockHash(head), params: null, basefees: null, checker: null };
      this.headCache = c;
    }
    return c;
  }

  private headCache: HeadCache | null = null;

  /**
   * Governance parameters in force for the next block, read from the state once per head.
   * Decoding them is the costly part, so the raw records the last decoding read are kept: when
   * the state still holds exactly those bytes the previous result is reused.
   */
  params(): ChainParams {
    const c = this.perHead();
    if (c.params === null) {
      const memo = this.paramsMemo;
      if (memo !== null && this.stillHolds(memo.reads)) {
        c.params = memo.params;
      } else {
        const reads: [Uint8Array, Uint8Array | undefined][] = [];
        const state = this.state;
        const recording: KvStore = {
          get: (key) => {
            const value = state.get(key);
            reads.push([Uint8Array.from(key), value === undefined ? undefined : Uint8Array.from(value)]);
            return value;
          },
          put: () => {
            throw new Error("readParams must not write");
          },
          delete: () => {
            throw new Error("readParams must not write");
          },
        };
        const params = readParams(recording);
        this.paramsMemo = { reads, params };
        c.params = params;
      }
    }
    return c.params;
  }

  /** True if the state holds exactly `reads` (absent where `undefined`). */
  private stillHolds(reads: readonly [Uint8Array, Uint8Array | undefined][]): boolean {
    return reads.every(([key, value]) => {
      const now = this.state.get(key);
      return now === undefined ? value === undefined : value !== undefined && bytesEqual(now, value);
    });
  }

  /** the records the last `readParams` read and what it made of them (see `params`) */
  private paramsMemo: { reads: [Uint8Array, Uint8Array | undefined][]; params: ChainParams } | null = null;

  /** Basefees of the next block (§6.3), from the head and the parameters; once per head. */
  nextBasefees(): { cycle: bigint; cell: bigint } {
    const c = this.perHead();
    if (c.basefees === null) {
      const p = this.params().basefee;
      const h = c.head;
      const cfg = { alpha: p.alpha, maxChangeDenom: p.maxChangeDenom, minBasefee: p.minBasefee };
      c.basefees = Object.freeze(
        h.height === 0n
          ? { cycle: h.cycleBasefee, cell: h.cellBasefee }
          : {
              cycle: nextBasefee(h.cycleBasefee, h.cyclesUsed, p.cyclesTarget, cfg),
              cell: nextBasefee(h.cellBasefee, h.cellsUsed, p.cellsTarget, cfg),
            },
      );
    }
    return c.basefees;
  }

  txLaneBudgets(): Readonly<Record<Lane, bigint>> {
    const b = this.params().laneBudget;
    return { system: b.system, timer: 0n, runner: b.runner, user: b.user };
  }

  // ----- transaction validity (§2.2) -----

  /** Stateless checks: size, decoding, deferred fields, chain id, limits; then the signatures. */
  private decodeChecked(bytes: Uint8Array, verifySignature: boolean, allowDeferred = false): Decoded {
    if (bytes.length > MAX_TX_SIZE)
      throw new StfError("ERR_TX_DECODE", `transaction of ${bytes.length} bytes exceeds ${MAX_TX_SIZE}`);
    let tx: Transaction;
    let hash: Uint8Array;
    let sigKey: string;
    try {
      ({ tx, hash, sigKey } = this.predecoded.get(bytes) ?? decodeTx(bytes));
    } catch (e) {
      throw new StfError("ERR_TX_DECODE", (e as Error).message, {
        cause: (e as { code?: string }).code ?? null,
      });
    }
    this.statelessChecks(tx, allowDeferred);
    if (verifySignature && !this.checkSignatures([{ bytes, sigKey }])[0]) {
      const reason =
        this.verifyBatch === nativeVerifyBatch
          ? nativeCodec().txVerifyReason(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length))
          : null;
      throw new StfError(
        "ERR_TX_SIGNATURE",
        `signature check failed${reason === null ? "" : `: ${reason}`}`,
        { reason },
      );
    }
    return { tx, hash, bytes, sigKey };
  }

  private statelessChecks(tx: Transaction, allowDeferred = false): void {
    // a job-result delivery is the one deferred form, valid inside a block only (jobs.ts)
    if (isDeferred(tx) && !(allowDeferred && this.acceptJobResults && isJobDelivery(tx))) {
      throw new StfError(
        "ERR_TX_DEFERRED",
        "origin_* fields are reserved for system-injected deferred transactions",
      );
    }
    if (tx.chainId !== this.chainId) {
      throw new StfError("ERR_TX_CHAIN_ID", `chain id ${tx.chainId} does not match ${this.chainId}`);
    }
    if (tx.cyclesLimit > MAX_TX_CYCLES_LIMIT || tx.cellsLimit > MAX_TX_CELLS_LIMIT) {
      throw new StfError(
        "ERR_TX_LIMITS",
        `limits (${tx.cyclesLimit} cycles, ${tx.cellsLimit} cells) exceed the maxima (${MAX_TX_CYCLES_LIMIT}, ${MAX_TX_CELLS_LIMIT})`,
      );
    }
    if (intrinsicCost(tx) === null) {
      throw new StfError(
        "ERR_TX_UNSUPPORTED",
        `instruction ${tx.instruction.kind} is not executable in this version`,
      );
    }
  }

  /**
   * Verifies the signatures of many encoded transactions in one batch — with the addon, off the
   * main thread (`txVerifyBatchAsync`: the event loop goes on meanwhile) — and remembers the
   * valid ones, so that the `checkTx` of each, and the execution of a block holding the same
   * bytes, does not verify them again. It decides nothing: validity is still `checkTx`'s
   * (entries that do not decode, or whose signature is bad, are not remembered and `checkTx`
   * reports them). Admission of a batch (an RPC batch, a gossiped batch) calls it first.
   */
  async preverify(list: readonly Uint8Array[]): Promise<void> {
    const items: { bytes: Uint8Array; sigKey: string }[] = [];
    for (const bytes of list) {
      if (bytes.length > MAX_TX_SIZE) continue;
      let sigKey: string;
      try {
        const d = decodeTx(bytes);
        this.predecoded.set(bytes, d);
        sigKey = d.sigKey;
      } catch {
        continue; // checkTx reports it
      }
      if (!this.verified.has(sigKey)) items.push({ bytes, sigKey });
    }
    if (items.length === 0) return;
    const background = this.verifyBatch === nativeVerifyBatch ? nativeCodec().txVerifyBatchAsync : undefined;
    const ok =
      background === undefined
        ? this.verifyBatch(items.map((i) => i.bytes))
        : await background(items.map(({ bytes: b }) => Buffer.from(b.buffer, b.byteOffset, b.length)));
    for (let i = 0; i < items.length; i++)
      if (ok[i] === true) this.rememberVerified((items[i] as { sigKey: string }).sigKey);
  }

  /** Adds a verified-signature cache entry (bounded: the oldest entries go first). */
  private rememberVerified(id: string): void {
    this.verified.set(id, true);
    if (this.verified.size > VERIFIED_CACHE)
      this.verified.delete(this.verified.keys().next().value as string);
  }

  /** Signature checks, skipping (and then remembering) transactions verified before. */
  private checkSignatures(txs: readonly { bytes: Uint8Array; sigKey?: string | undefined }[]): boolean[] {
    return this.startSignatures(txs).wait();
  }

  /**
   * Starts the signature checks of `txs` and returns the function that waits for them (one
   * boolean per transaction). Transactions verified before (at admission, or in an earlier
   * block) are not checked again; those found valid are remembered. With the addon's verifier
   * the checks run on other threads (every core) while the caller goes on — e.g. executes the
   * block — and `wait` joins them (`background` true); any other `verifyBatch` runs here and
   * now (`background` false: the answer is ready).
   */
  private startSignatures(txs: readonly { bytes: Uint8Array; sigKey?: string | undefined }[]): {
    wait: () => boolean[];
    background: boolean;
  } {
    const ids = txs.map((d) => d.sigKey ?? toHex(keccak256(d.bytes)));
    const todo: number[] = [];
    for (let i = 0; i < txs.length; i++) if (!this.verified.has(ids[i] as string)) todo.push(i);
    const out: boolean[] = txs.map(() => true);
    if (todo.length === 0) return { wait: () => out, background: false };
    const list = todo.map((i) => (txs[i] as { bytes: Uint8Array }).bytes);
    const start = this.verifyBatch === nativeVerifyBatch ? nativeCodec().txVerifyStart : undefined;
    let job: { wait(): boolean[] } | null = null;
    let res: boolean[] | null = null;
    if (start !== undefined && list.length > 1) {
      const { data, ends } = packItems(list);
      job = start(data, ends);
    } else {
      res = this.verifyBatch(list);
    }
    let done = false;
    const wait = () => {
      if (done) return out;
      done = true;
      const r = res ?? (job as { wait(): boolean[] }).wait();
      for (let j = 0; j < todo.length; j++) {
        const i = todo[j] as number;
        out[i] = r[j] === true;
        if (out[i]) {
          this.verified.set(ids[i] as string, true);
          if (this.verified.size > VERIFIED_CACHE)
            this.verified.delete(this.verified.keys().next().value as string);
        }
      }
      return out;
    };
    return { wait, background: job !== null };
  }

  /** A fresh executor for the next block over the current pending state. */
  private nextBlockExecutor(opts: {
    timestampMs: bigint;
    proposer: Uint8Array;
    parentSeed: Uint8Array;
    participants?: readonly number[] | undefined;
  }): BlockExecutor {
    return new BlockExecutor(this.state, this.executor, {
      height: this.headHeader.height + 1n,
      timestampMs: opts.timestampMs,
      proposer: opts.proposer,
      chainId: this.chainId,
      beacon: executionBeacon(opts.parentSeed, this.headHash),
      basefee: this.nextBasefees(),
      params: this.params(),
      ...(opts.participants === undefined ? {} : { participants: opts.participants }),
    });
  }

  /**
   * §2.2 validity against the head state; throws `StfError`. With `futureNonce`, a nonce
   * above the account's is accepted (a mempool queues it); every other check still applies.
   */
  checkTx(bytes: Uint8Array, opts?: { futureNonce?: boolean }): CheckedTx {
    const d = this.decodeChecked(bytes, true);
    // the checks read only the head state, the basefees and the parameters: one executor per head
    const c = this.perHead();
    if (c.checker === null) {
      c.checker = this.nextBlockExecutor({
        timestampMs: c.head.timestampMs,
        proposer: ZERO20,
        parentSeed: new Uint8Array(0),
      });
    }
    const { intrinsic, sender } = c.checker.checkTx(d.tx, opts?.futureNonce === true);
    // buildBlock may take this exact transaction object without decoding or verifying it again
    this.admitted.set(d.tx, d);
    return { tx: d.tx, bytes, hash: d.hash, lane: laneOf(d.tx), intrinsic, senderNonce: sender.nonce };
  }

  // ----- blocks -----

  /** Checks the lane budgets (§17.9) and the cells cap of a set of transactions. */
  private checkCapacity(txs: readonly Transaction[]): void {
    const budgets = this.txLaneBudgets();
    const used: Record<Lane, bigint> = { system: 0n, timer: 0n, runner: 0n, user: 0n };
    let cells = 0n;
    for (const tx of txs) {
      used[laneOf(tx)] += tx.cyclesLimit;
      cells += tx.cellsLimit;
    }
    let spill = 0n;
    for (const lane of LANES) {
      const budget = budgets[lane] + (lane === "user" ? spill : 0n);
      if (used[lane] > budget) {
        throw new StfError(
          "ERR_BLOCK_LANE_BUDGET",
          `lane ${lane} declares ${used[lane]} cycles, budget ${budget}`,
        );
      }
      if (lane !== "user") spill += budget - used[lane];
    }
    if (cells > BLOCK_CELLS_CAP)
      throw new StfError("ERR_BLOCK_CELLS_CAP", `block declares ${cells} cells, cap ${BLOCK_CELLS_CAP}`);
  }

  /** Executes `ordered` as the next block; throws StfError (state discarded) if a transaction is invalid. */
  private execute(
    ordered: readonly Decoded[],
    opts: {
      timestampMs: bigint;
      proposer: Uint8Array;
      parentSeed: Uint8Array;
      participants?: readonly number[] | undefined;
    },
    onInvalid: ((d: Decoded, e: StfError) => void) | null,
  ): BlockExecutor {
    const ex = this.nextBlockExecutor(opts);
    ex.begin();
    for (const d of ordered) {
      try {
        ex.executeTx(d.tx, d.hash);
      } catch (e) {
        if (e instanceof StfError && onInvalid !== null) {
          onInvalid(d, e);
          continue;
        }
        throw e;
      }
    }
    ex.fireTimers();
    ex.resolveJobs();
    ex.finish();
    return ex;
  }

  private seal(
    ordered: readonly Decoded[],
    ex: BlockExecutor,
    opts: {
      timestampMs: bigint;
      proposer: Uint8Array;
      parentSeed: Uint8Array;
      round: { epoch: bigint; view: bigint };
    },
  ): { header: BlockHeader; receiptsRoot: Uint8Array; txRoot: Uint8Array } {
    const txRoot = merklePacked(packItems(ordered.map((d) => d.hash)).data);
    const receiptsRoot = receiptsRootOf(ex.receipts);
    const header: BlockHeader = {
      parent: this.headHash,
      height: ex.env.height,
      round: opts.round,
      proposer: opts.proposer,
      timestampMs: opts.timestampMs,
      stateRoot: ZERO32,
      txRoot,
      receiptsRoot,
      cycleBasefee: ex.env.basefee.cycle,
      cellBasefee: ex.env.basefee.cell,
      cyclesUsed: ex.cyclesUsed,
      cellsUsed: ex.cellsUsed,
      parentSeed: opts.parentSeed,
    };
    return { header, receiptsRoot, txRoot };
  }

  private checkTimestamp(ts: bigint): void {
    if (ts < this.headHeader.timestampMs) {
      throw new StfError(
        "ERR_BLOCK_TIMESTAMP",
        `timestamp ${ts} is before the parent's ${this.headHeader.timestampMs}`,
      );
    }
  }

  /**
   * Executes `candidates` (in preference order) into the next block and commits it. A candidate
   * is the encoded transaction, or a `{ tx, bytes }` pair as returned by `checkTx` of this chain
   * (then it is not decoded or verified again; any other pair is treated as its bytes).
   */
  buildBlock(
    candidates: readonly (Uint8Array | { tx: Transaction; bytes: Uint8Array })[],
    opts: BuildOptions,
  ): BlockResult & { skipped: SkippedTx[] } {
    this.checkTimestamp(opts.timestampMs);
    if (opts.proposer.length !== 20) throw new StfError("ERR_BLOCK_FIELD", "proposer must be 20 bytes");
    const height = this.headHeader.height + 1n;
    const parentSeed = opts.parentSeed ?? new Uint8Array(0);
    const round = opts.round ?? { epoch: 0n, view: height };
    const beacon = executionBeacon(parentSeed, this.headHash);
    // stateless checks, except for what checkTx admitted (decoded and verified already)
    const known: (Decoded | undefined)[] = candidates.map((c) => {
      if (c instanceof Uint8Array) return undefined;
      const d = this.admitted.get(c.tx);
      return d !== undefined && d.bytes === c.bytes ? d : undefined;
    });
    const prepared: (Decoded | { failed: StfError; hash: Uint8Array })[] = candidates.map((c, i) => {
      const k = known[i];
      if (k !== undefined) return k;
      const bytes = candidateBytes(c);
      try {
        return this.decodeChecked(bytes, false);
      } catch (e) {
        if (e instanceof StfError) return { failed: e, hash: keccak256(bytes) };
        throw e;
      }
    });
    // signatures of the rest: checked on other threads (every core) while the block executes
    const rawIdx: number[] = [];
    for (let i = 0; i < candidates.length; i++)
      if (known[i] === undefined && !("failed" in (prepared[i] as object))) rawIdx.push(i);
    const pendingSigs = this.startSignatures(rawIdx.map((i) => prepared[i] as Decoded));
    // per candidate once the checks are in (null until then: every signature presumed valid)
    let sigs: boolean[] | null = null;
    const confirm = (): boolean => {
      if (sigs !== null) return true;
      const raw = pendingSigs.wait();
      const all: boolean[] = candidates.map(() => true);
      rawIdx.forEach((i, j) => {
        all[i] = raw[j] === true;
      });
      sigs = all;
      return raw.every((ok) => ok);
    };
    // an answer that is already there is used from the start
    if (!pendingSigs.background) confirm();
    // queued job results (Runner lane, in arrival order)
    const deliveries = this.deliveryCandidates();
    // With every signature valid one pass suffices. If one turns out invalid the executed block
    // is dropped and the selection redone knowing the signatures: the result is exactly what
    // checking them first would have given.
    for (;;) {
      const skipped: SkippedTx[] = [];
      const skip = (hash: Uint8Array, e: StfError) =>
        skipped.push({ hash, error: { code: e.code, message: e.message } });
      const decoded: Decoded[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < candidates.length; i++) {
        const d = prepared[i] as Decoded | { failed: StfError; hash: Uint8Array };
        if ("failed" in d) {
          skip(d.hash, d.failed);
          continue;
        }
        if (sigs !== null && !(sigs as boolean[])[i]) {
          skip(d.hash, new StfError("ERR_TX_SIGNATURE", "signature invalid"));
          continue;
        }
        const h = hashKey(d.hash);
        if (seen.has(h)) continue;
        seen.add(h);
        decoded.push(d);
      }
      for (const d of deliveries) {
        if (!seen.has(hashKey(d.hash))) decoded.push(d);
      }
      // capacity, in preference order (the caller passes the mempool's selection)
      const budgets = this.txLaneBudgets();
      const room: Record<Lane, bigint> = { ...budgets };
      let cellsRoom = BLOCK_CELLS_CAP;
      const chosen: Decoded[] = [];
      for (const lane of LANES) {
        for (const d of decoded) {
          if (laneOf(d.tx) !== lane) continue;
          if (d.tx.cyclesLimit > room[lane] || d.tx.cellsLimit > cellsRoom) {
            skip(d.hash, new StfError("ERR_BLOCK_LANE_BUDGET", `no room left in lane ${lane}`));
            continue;
          }
          room[lane] -= d.tx.cyclesLimit;
          cellsRoom -= d.tx.cellsLimit;
          chosen.push(d);
        }
        if (lane !== "user") room.user += room[lane];
      }
      // execute in VRF order; drop what turns out invalid and redo until every transaction is valid
      try {
        const built = this.buildFrom(
          chosen,
          { ...opts, parentSeed, round },
          beacon,
          height,
          skip,
          skipped,
          confirm,
        );
        if (built !== null) return built;
      } catch (e) {
        this.state.discardPending();
        throw e;
      }
    }
  }

  private buildFrom(
    candidates: Decoded[],
    opts: {
      timestampMs: bigint;
      proposer: Uint8Array;
      parentSeed: Uint8Array;
      round: { epoch: bigint; view: bigint };
      participants?: readonly number[] | undefined;
    },
    beacon: Uint8Array,
    height: bigint,
    skip: (hash: Uint8Array, e: StfError) => void,
    skipped: SkippedTx[],
    confirm: () => boolean,
  ): (BlockResult & { skipped: SkippedTx[] }) | null {
    const { parentSeed, round } = opts;
    let chosen = candidates;
    for (;;) {
      const ordered = executionOrder(chosen, beacon, height);
      const invalid: Decoded[] = [];
      const ex = this.execute(
        ordered,
        {
          timestampMs: opts.timestampMs,
          proposer: opts.proposer,
          parentSeed,
          participants: opts.participants,
        },
        (d, e) => {
          invalid.push(d);
          skip(d.hash, e);
        },
      );
      if (invalid.length > 0) {
        this.state.discardPending();
        const drop = new Set(invalid.map((d) => hashKey(d.hash)));
        chosen = chosen.filter((d) => !drop.has(hashKey(d.hash)));
        continue;
      }
      // the signature checks running beside the execution: an invalid one voids this attempt
      if (!confirm()) {
        this.state.discardPending();
        return null;
      }
      const { header } = this.seal(ordered, ex, {
        timestampMs: opts.timestampMs,
        proposer: opts.proposer,
        parentSeed,
        round,
      });
      const { root } = this.state.commit();
      header.stateRoot = root;
      this.headHeader = header;
      this.onHead?.(header);
      const block: Block = { header, transactions: ordered.map((d) => d.tx) };
      return {
        block,
        hash: blockHash(header),
        receipts: ex.receipts,
        reward: ex.reward,
        tips: ex.tips,
        burned: ex.burned,
        validators: ex.validators.report,
        skipped,
      };
    }
  }

  /**
   * Re-executes a block produced elsewhere; throws `StfError` if it is invalid.
   * `opts.participants`: consensus indices (in the parent's epoch set) whose votes certified the
   * parent block — must be what the proposer passed as `BuildOptions.participants` (downtime
   * accounting changes the state root); absent = no accounting.
   */
  applyBlock(block: Block, opts?: ApplyOptions): BlockResult {
    const h = block.header;
    const expectHeight = this.headHeader.height + 1n;
    if (h.height !== expectHeight)
      throw new StfError("ERR_BLOCK_HEIGHT", `block height ${h.height}, expected ${expectHeight}`);
    if (!bytesEqual(h.parent, this.headHash))
      throw new StfError("ERR_BLOCK_PARENT", "block does not extend the head");
    this.checkTimestamp(h.timestampMs);
    if (h.proposer.length !== 20) throw new StfError("ERR_BLOCK_FIELD", "proposer must be 20 bytes");
    const bf = this.nextBasefees();
    if (h.cycleBasefee !== bf.cycle || h.cellBasefee !== bf.cell) {
      throw new StfError(
        "ERR_BLOCK_BASEFEE",
        `basefees (${h.cycleBasefee}, ${h.cellBasefee}), expected (${bf.cycle}, ${bf.cell})`,
      );
    }
    const decoded: Decoded[] = block.transactions.map((tx, index) => {
      try {
        return this.decodeChecked(encodeTransaction(tx), false, true);
      } catch (e) {
        if (e instanceof StfError) {
          throw new StfError("ERR_BLOCK_INVALID_TX", `transaction ${index}: ${e.code}: ${e.message}`, {
            index,
            cause: e.code,
          });
        }
        // encodeTransaction refuses what cannot be encoded canonically (e.g. too large)
        throw new StfError("ERR_BLOCK_INVALID_TX", `transaction ${index}: ${(e as Error).message}`, {
          index,
        });
      }
    });
    // deferred (system-injected) transactions are not signature-verified (§2.1). The checks run
    // on other threads while the block executes; an invalid signature makes the block invalid
    // whatever else is wrong with it, exactly as if the signatures had been checked first.
    const signedIdx = decoded.flatMap((d, i) => (isDeferred(d.tx) ? [] : [i]));
    const pendingSigs = this.startSignatures(signedIdx.map((i) => decoded[i] as Decoded));
    const sigFailure = (): StfError | null => {
      const badAt = pendingSigs.wait().indexOf(false);
      if (badAt < 0) return null;
      const bad = signedIdx[badAt] as number;
      return new StfError("ERR_BLOCK_INVALID_TX", `transaction ${bad} has an invalid signature`, {
        index: bad,
      });
    };
    // an answer that is already there is used before executing anything
    const early = pendingSigs.background ? null : sigFailure();
    if (early !== null) throw early;
    let ex: BlockExecutor;
    try {
      ex = this.executeReceived(block, decoded, opts);
    } catch (e) {
      this.state.discardPending();
      throw e instanceof StfError ? (sigFailure() ?? e) : e;
    }
    const badSig = sigFailure();
    if (badSig !== null) {
      this.state.discardPending();
      throw badSig;
    }
    const { root } = this.state.commit();
    if (!bytesEqual(root, h.stateRoot)) {
      // the block was executed and committed; a state-root mismatch means a faulty proposer
      // or a non-deterministic node: the store now holds this block's state, the head does not move
      throw new StfError(
        "ERR_BLOCK_STATE_ROOT",
        `state root ${toHex(root)} differs from the header's ${toHex(h.stateRoot)}`,
      );
    }
    this.headHeader = h;
    this.onHead?.(h);
    return {
      block,
      hash: blockHash(h),
      receipts: ex.receipts,
      reward: ex.reward,
      tips: ex.tips,
      burned: ex.burned,
      validators: ex.validators.report,
    };
  }

  /**
   * The checks and the execution of a received block after its transactions decoded: tx root,
   * §6.5 order, capacity, execution, receipts root and usage. Throws `StfError` (pending state
   * discarded); on success the block's writes are pending, ready to commit.
   */
  private executeReceived(block: Block, decoded: Decoded[], opts?: ApplyOptions): BlockExecutor {
    const h = block.header;
    const txRoot = merklePacked(packItems(decoded.map((d) => d.hash)).data);
    if (!bytesEqual(txRoot, h.txRoot))
      throw new StfError("ERR_BLOCK_TX_ROOT", "tx_root does not match the transactions");
    const beacon = executionBeacon(h.parentSeed, this.headHash);
    const expected = executionOrder(decoded, beacon, h.height);
    for (let i = 0; i < decoded.length; i++) {
      if (expected[i] !== decoded[i])
        throw new StfError("ERR_BLOCK_ORDER", `transaction ${i} is out of the §6.5 order`, { index: i });
    }
    this.checkCapacity(decoded.map((d) => d.tx));
    let ex: BlockExecutor;
    try {
      ex = this.execute(
        decoded,
        {
          timestampMs: h.timestampMs,
          proposer: h.proposer,
          parentSeed: h.parentSeed,
          participants: opts?.participants,
        },
        null,
      );
    } catch (e) {
      this.state.discardPending();
      if (e instanceof StfError && e.code.startsWith("ERR_TX_")) {
        throw new StfError("ERR_BLOCK_INVALID_TX", `invalid transaction in block: ${e.code}: ${e.message}`, {
          cause: e.code,
        });
      }
      throw e;
    }
    const sealed = this.seal(decoded, ex, {
      timestampMs: h.timestampMs,
      proposer: h.proposer,
      parentSeed: h.parentSeed,
      round: h.round,
    });
    if (!bytesEqual(sealed.receiptsRoot, h.receiptsRoot)) {
      this.state.discardPending();
      throw new StfError("ERR_BLOCK_RECEIPTS_ROOT", "receipts_root does not match the execution");
    }
    if (ex.cyclesUsed !== h.cyclesUsed || ex.cellsUsed !== h.cellsUsed) {
      this.state.discardPending();
      throw new StfError(
        "ERR_BLOCK_USAGE",
        `usage (${ex.cyclesUsed}, ${ex.cellsUsed}) differs from the header's (${h.cyclesUsed}, ${h.cellsUsed})`,
      );
    }
    return ex;
  }

  // ----- runner jobs (jobs.ts, docs/execution.md "Runner jobs") -----

  /**
   * Queues a verified runner result for job `jobId`: the next block this chain builds carries it
   * as a deferred transaction from the Result Verifier (0x…03) that pays the job (split of
   * `system:settlement_config`: runner share + tip to `opts.runner`, burn, treasury; max_price −
   * payment back to the actor) and calls the actor's `callback(job_id, result)`. `result` is the
   * canonical CBOR of the result value (≤ 64 KiB). Throws {@link JobError} when the job is unknown
   * (`ERR_JOB_UNKNOWN`), already delivered or queued (`ERR_JOB_DELIVERED`), expired or due to
   * expire before the next block (`ERR_JOB_EXPIRED`), or the arguments are invalid. Returns the
   * delivery transaction as built for the next block (built again, with that block's basefees,
   * if another block comes first). Results are trusted: the CIP-2 commit-reveal protocol that
   * would produce them is not built.
   */
  deliverJobResult(
    jobId: Uint8Array,
    result: Uint8Array,
    opts: JobResultOptions = {},
  ): { hash: Uint8Array; tx: Transaction; height: bigint } {
    if (!this.acceptJobResults)
      throw new JobError("ERR_JOB_DISABLED", "this chain does not accept job results");
    if (jobId.length !== 32) throw new JobError("ERR_JOB_UNKNOWN", "a job id is 32 bytes");
    checkResult(result);
    this.pruneDeliveries();
    const key = toHex(jobId);
    if (this.deliveries.has(key))
      throw new JobError("ERR_JOB_DELIVERED", `a result for job 0x${key} is already queued`);
    const height = this.headHeader.height + 1n;
    const q: QueuedDelivery = {
      jobId: Uint8Array.from(jobId),
      result: Uint8Array.from(result),
      runner: Uint8Array.from(opts.runner ?? RESULT_VERIFIER),
      payment: 0n,
      limits: defaultDeliveryLimits(result),
    };
    const job = readJob(this.state, jobId);
    q.payment = opts.payment ?? job?.maxPrice ?? 0n;
    if (q.payment < 0n) throw new JobError("ERR_JOB_PAYMENT", "payment must not be negative");
    checkDeliverable(job, q, height);
    q.limits = {
      cycles: opts.cyclesLimit ?? q.limits.cycles,
      cells: opts.cellsLimit ?? q.limits.cells,
    };
    checkDeliveryLimits(q.limits, deliveryArgs(jobId, result).length);
    const lane = this.txLaneBudgets().runner;
    if (q.limits.cycles > lane)
      throw new JobError(
        "ERR_JOB_DELIVERY",
        `callback cycles ${q.limits.cycles} exceed the Runner lane (${lane})`,
      );
    const built = this.buildDelivery(q, job as JobRecord);
    this.deliveries.set(key, q);
    return { hash: built.hash, tx: built.tx, height };
  }

  /** Job results queued for the next built block (see {@link deliverJobResult}). */
  queuedJobResults(): { jobId: Uint8Array; runner: Uint8Array; payment: bigint }[] {
    this.pruneDeliveries();
    return [...this.deliveries.values()].map((q) => ({
      jobId: q.jobId,
      runner: q.runner,
      payment: q.payment,
    }));
  }

  /** A runner job by id (at `height`, default the head), or null if there is none. */
  getJob(jobId: Uint8Array, height?: bigint): JobRecord | null {
    if (jobId.length !== 32) return null;
    const raw = this.read(jobKey(jobId), height);
    return raw === undefined ? null : decodeJob(raw);
  }

  /** The escrow held for pending jobs (the Job Dispatcher's balance). */
  jobEscrow(): bigint {
    return this.getAccount(JOB_DISPATCHER)?.balance ?? 0n;
  }

  /** Drops queued deliveries whose job can no longer take one in the next block. */
  private pruneDeliveries(): void {
    const next = this.headHeader.height + 1n;
    for (const [k, q] of this.deliveries) {
      const job = readJob(this.state, q.jobId);
      if (job === undefined || job.status !== "pending" || job.deadline < next) this.deliveries.delete(k);
    }
  }

  private buildDelivery(q: QueuedDelivery, job: JobRecord): Decoded {
    const tx = deliveryTx(this.chainId, job, q, q.limits, this.runnerBasefee());
    const { bytes, hash } = deliveryBytes(tx);
    return { tx, bytes, hash };
  }

  /** Runner-lane basefees of the next block. */
  private runnerBasefee(): { cycle: bigint; cell: bigint } {
    const bf = this.nextBasefees();
    const bps = this.params().laneMultiplierBps.runner;
    return bps === 10_000n ? bf : { cycle: (bf.cycle * bps) / 10_000n, cell: (bf.cell * bps) / 10_000n };
  }

  /** The queued deliveries as block candidates for the next block. */
  private deliveryCandidates(): Decoded[] {
    if (this.deliveries.size === 0) return [];
    this.pruneDeliveries();
    const out: Decoded[] = [];
    for (const q of this.deliveries.values()) {
      const job = readJob(this.state, q.jobId);
      if (job !== undefined) out.push(this.buildDelivery(q, job));
    }
    return out;
  }

  // ----- simulation and estimation -----

  simulateCall(call: {
    from: Uint8Array;
    to: Uint8Array;
    handler: string;
    args: Uint8Array;
    value?: bigint;
    cyclesLimit?: bigint;
    cellsLimit?: bigint;
  }): SimulationResult {
    const cp = this.state.checkpoint();
    try {
      const ex = this.nextBlockExecutor({
        timestampMs: this.headHeader.timestampMs,
        proposer: ZERO20,
        parentSeed: new Uint8Array(0),
      });
      const res = ex.simulate(
        { from: call.from, to: call.to, handler: call.handler, args: call.args, value: call.value ?? 0n },
        { cycles: call.cyclesLimit ?? MAX_TX_CYCLES_LIMIT, cells: call.cellsLimit ?? MAX_TX_CELLS_LIMIT },
      );
      return {
        ok: res.status === "success",
        status: res.status,
        returnData: res.returnData,
        error: res.error,
        cyclesUsed: res.cycles,
        cellsUsed: res.cells,
        events: res.events,
      };
    } finally {
      this.state.revert(cp);
    }
  }

  estimateFee(tx: Transaction): FeeEstimate {
    this.statelessChecks(tx);
    const intrinsic = intrinsicCost(tx) as { cycles: bigint; cells: bigint };
    const basefee = this.nextBasefees();
    let cycles = intrinsic.cycles;
    let cells = intrinsic.cells;
    if (tx.instruction.kind === "call" || tx.instruction.kind === "deploy") {
      const cp = this.state.checkpoint();
      try {
        const ex = this.nextBlockExecutor({
          timestampMs: this.headHeader.timestampMs,
          proposer: ZERO20,
          parentSeed: new Uint8Array(0),
        });
        const budget = {
          cycles: MAX_TX_CYCLES_LIMIT - intrinsic.cycles,
          cells: MAX_TX_CELLS_LIMIT - intrinsic.cells,
        };
        const res = ex.simulateTx(tx, keccak256(encodeTransaction(tx)), budget);
        cycles += res.cycles;
        cells += res.cells;
      } finally {
        this.state.revert(cp);
      }
    }
    const margin = (x: bigint, max: bigint) => {
      const m = x + x / 5n;
      return m > max ? max : m;
    };
    const tipC = tx.maxPriorityFeePerCycle;
    const tipB = tx.maxPriorityFeePerCell;
    return {
      cyclesUsed: cycles,
      cellsUsed: cells,
      cyclesLimit: margin(cycles, MAX_TX_CYCLES_LIMIT),
      cellsLimit: margin(cells, MAX_TX_CELLS_LIMIT),
      cycleBasefee: basefee.cycle,
      cellBasefee: basefee.cell,
      fee: cycles * (basefee.cycle + tipC) + cells * (basefee.cell + tipB),
    };
  }

  // ----- queries -----

  private versionOf(height: bigint | undefined): bigint | null {
    if (height === undefined || height === this.headHeader.height) return null;
    return this.committedVersion(height);
  }

  /** The store version committed for executed block `height` (`RangeError` past the head). */
  private committedVersion(height: bigint): bigint {
    if (height < 0n || height > this.headHeader.height)
      throw new RangeError(`height ${height} is not executed yet`);
    return this.genesisVersion + height;
  }

  private read(key: Uint8Array, height?: bigint): Uint8Array | undefined {
    const v = this.versionOf(height);
    return v === null ? this.state.get(key) : this.state.getAt(v, key);
  }

  getAccount(address: Uint8Array, height?: bigint): AccountView | null {
    const raw = this.read(accountKey(address), height);
    if (raw === undefined) return null;
    const a = decodeAccount(raw);
    return {
      balance: a.balance,
      nonce: a.nonce,
      codeHash: bytesEqual(a.codeHash, ZERO32) ? null : a.codeHash.slice(),
      metadata: a.metadata.slice(),
    };
  }

  getCode(address: Uint8Array): string | null {
    const raw = this.state.get(codeKey(address));
    return raw === undefined ? null : Buffer.from(raw).toString("utf8");
  }

  getActorStorage(address: Uint8Array, key: Uint8Array, height?: bigint): Uint8Array | null {
    return this.read(storageKey(VM_NS_PVM, address, key), height) ?? null;
  }

  // ----- validator set (validators.ts) -----

  /**
   * The validator set of `epoch` (default: the epoch of the next block, head + 1), in consensus
   * index order; `[]` when no set was fixed for it (no validators, or older than `keepEpochs`).
   * Epoch e covers heights [e·E, (e+1)·E), E = `validatorParams().epochBlocks`; the set of e+1
   * is readable from the freeze point F(e) = e·E + ⌊E/2⌋ (fixed at the start of that block),
   * final at the end of block (e+1)·E − 1 (a failed resharing re-fixes it to the set of e).
   */
  validatorSet(epoch?: number): SetMember[] {
    const e = epoch ?? Math.floor(Number(this.headHeader.height + 1n) / this.validatorParams().epochBlocks);
    if (!Number.isSafeInteger(e) || e < 0) throw new RangeError(`epoch ${e} is not a non-negative integer`);
    return readValidatorSet(this.state, e);
  }

  /**
   * The threshold group of `epoch` (contract C4; dkg.ts): the DKG output, `BlsGroup` bytes,
   * threshold and the members (`validatorSet(epoch)` order, with their share index in the
   * output). Known once the epoch's set is fixed and its group decided: the current epoch
   * always; epoch e+1 from the end of block (e+1)·E − 1, or from the freeze point F(e) when
   * the keys did not change (group carried over). Null for a chain without a group (genesis
   * without `dkgOutput`), an undecided or a pruned epoch (older than `keepEpochs`).
   */
  epochGroup(epoch: number): EpochGroup | null {
    if (!Number.isSafeInteger(epoch) || epoch < 0) return null;
    if (readGroupRecord(this.state, epoch) === null) return null;
    return readEpochGroup(this.state, epoch, readValidatorSet(this.state, epoch));
  }

  /** The open resharing ceremony (with the logs stored so far), or null. */
  openCeremony(): CeremonyRecord | null {
    return readOpenCeremony(this.state);
  }

  /**
   * Resharing ceremony `n` (open or decided; kept `keepEpochs` epochs), or null. With `height`
   * (an executed block): as of the state after that block, read at the store version committed
   * for it (the head's too); throws `RangeError` for a height not executed yet,
   * and the store's `ERR_QMDB_VERSION_UNAVAILABLE` once that version left its history window.
   */
  ceremony(n: number, height?: bigint): CeremonyRecord | null {
    if (height === undefined) return readCeremony(this.state, n);
    // read at the committed version even for the head: never a pending block's writes
    const v = this.committedVersion(height);
    const state = this.state;
    const readOnly = (): never => {
      throw new TypeError("a past state is read-only"); // readCeremony only reads
    };
    return readCeremony({ get: (key) => state.getAt(v, key), put: readOnly, delete: readOnly }, n);
  }

  /** The validator record of `address` (20 bytes) in the head state, or null. */
  validator(address: Uint8Array): ValidatorRecord | null {
    return readValidator(this.state, address);
  }

  /** The validator-set parameters in force (genesis `validatorParams`, else the defaults). */
  validatorParams(): ValidatorParams {
    return readValidatorParams(this.state);
  }

  /** A pending timer by id. */
  getTimer(id: Uint8Array): QueuedTimer | null {
    return new TimerQueue(this.state).get(id) ?? null;
  }

  prove(key: Uint8Array, height?: bigint): Uint8Array | null {
    const v = this.versionOf(height);
    return v === null ? this.state.prove(key) : this.state.prove(key, v);
  }
}
