/**
 * Public types of the state transition function (spec 01 "The State Transition Function").
 * The devnet (ts/node/src/devnet) drives a {@link ChainApi}; see docs/execution.md for how a
 * block is executed. Everything here is deterministic: no wall clock (the caller passes
 * timestamps), no randomness (ordering uses the block's beacon), integers only.
 */
import type { ValidatorParams } from "@cowboy/consensus";
import type { Block, BlockHeader, Event, Receipt, Round, Transaction } from "@cowboy/sdk";
import type { Lane } from "../params.ts";
import type { KvStore } from "../state/kv.ts";
import type { ValidatorBlockReport } from "./validators.ts";

/** One prefunded account of the genesis state. */
export interface GenesisAccount {
  address: Uint8Array;
  /** balance in base units (1 CBY = 10^9, see `UNITS_PER_CBY`) */
  balance: bigint;
}

/** What the genesis block is made of. */
export interface GenesisConfig {
  chainId: bigint;
  /** genesis header timestamp (ms since the Unix epoch); never read from a clock */
  timestampMs: bigint;
  accounts: readonly GenesisAccount[];
  /** basefees of block 1's parent (default `MIN_BASEFEE` for both) */
  cycleBasefee?: bigint;
  cellBasefee?: bigint;
  /**
   * Validators active from epoch 0 (stf/validators.ts). Each stake is debited from the
   * address's genesis balance (so fund it in `accounts`); the key's proof of possession is
   * verified when given, trusted otherwise (the genesis is trusted).
   */
  validators?: readonly {
    address: Uint8Array;
    blsKey: Uint8Array;
    stake: bigint;
    proofOfPossession?: Uint8Array;
  }[];
  /**
   * Validator-set parameters (defaults: ts/consensus `DEFAULT_VALIDATOR_PARAMS`: 10,000 CBY
   * minimum stake, 3,600-block epochs, 7-day unbonding, 24 h jail, 1% slash, 500 of 1,000
   * blocks downtime); stored in the genesis state when given.
   */
  validatorParams?: Partial<ValidatorParams>;
  /**
   * The threshold-BLS group of epoch 0 (stf/dkg.ts): a DKG output (`BlsDkgResult.output`)
   * whose players are exactly the genesis validators' BLS keys (checked: `ERR_CHAIN_GENESIS`).
   * With it the chain decides each epoch's group and reshares it when the set changes;
   * without it the chain has no group (`chain.epochGroup` is null).
   */
  dkgOutput?: Uint8Array;
}

/**
 * The state store the STF runs on: a {@link KvStore} with nested checkpoints and commits.
 * `QmdbState` (ts/node/src/state/qmdb.ts, over crates/qmdb) is the production backend;
 * `MemoryState` (ts/node/src/stf/memory-state.ts) is an in-memory one for tests and tools.
 */
export interface StateBackend extends KvStore {
  /** Opens a nested write scope; returns its handle. */
  checkpoint(): number;
  /** Drops every write since `cp` (and the scopes opened after it). */
  revert(cp: number): void;
  /** Keeps the writes since `cp`, folding them into the enclosing scope. */
  release(cp: number): void;
  /** Drops every pending (uncommitted) write. */
  discardPending(): void;
  /** Makes every pending write durable as the next version; returns it and its root. */
  commit(): { version: bigint; root: Uint8Array };
  /** Root of the latest committed version. */
  root(): Uint8Array;
  /** Latest committed version. */
  version(): bigint;
  /** A value as of committed `version` (undefined if absent; throws if pruned). */
  getAt(version: bigint, key: Uint8Array): Uint8Array | undefined;
  /** Inclusion/exclusion proof of `key` at `version` (latest if omitted), or null if unsupported. */
  prove(key: Uint8Array, version?: bigint): Uint8Array | null;
  /**
   * Optional (QMDB): drops every committed version newer than `version` and every pending write;
   * `version` becomes the latest again. Throws when `version` is no longer retained.
   */
  rewind?(version: bigint): { version: bigint; root: Uint8Array };
  /** Optional (QMDB): the root of retained `version`, undefined when it is not retained. */
  rootAt?(version: bigint): Uint8Array | undefined;
}

/** The call context handed to an actor invocation (contract with the addon's `executeActor`). */
export interface ActorContext {
  sender: Uint8Array;
  origin: Uint8Array;
  value: bigint;
  height: bigint;
  timestamp: bigint;
  chainId: number;
  beacon: Uint8Array;
  invocationId: Uint8Array;
  depth: number;
}

/** One actor invocation (deploy runs `__init__`; calls and timer fires run a handler). */
export interface ActorExecRequest {
  kind: "deploy" | "call";
  actor: Uint8Array;
  code?: string;
  handler?: string;
  /** canonical CBOR array of positional arguments */
  args: Uint8Array;
  context: ActorContext;
  limits: { cycles: bigint; cells: bigint };
}

/** Effects an invocation asks for; the STF applies them after a successful handler. */
export type ActorEffect =
  | { kind: "send"; to: Uint8Array; handler: string; args: Uint8Array; value: bigint }
  | { kind: "event"; topics: Uint8Array[]; data: Uint8Array }
  | {
      kind: "setTimer";
      id: Uint8Array;
      fireAt: bigint;
      interval: bigint | null;
      handler: string;
      data: Uint8Array;
    }
  | { kind: "cancelTimer"; id: Uint8Array }
  | { kind: string; [field: string]: unknown };

/** What an invocation returns. A failed handler (ok = false) leaves no state behind. */
export interface ActorExecResult {
  ok: boolean;
  result?: Uint8Array | null;
  error?: { type: string; message: string; traceback: string[] } | null;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  stdout: string;
  effects: ActorEffect[];
}

/** Runs one actor invocation against the state the STF is executing on. */
export type ActorExecutor = (req: ActorExecRequest) => ActorExecResult;

/** Outcome of one transaction or timer fire, before encoding as a codec Receipt. */
export interface ExecutionReceipt extends Receipt {
  /** `tx` for a transaction, `timer` for a timer fire (tx_hash = the fire's invocation id) */
  kind: "tx" | "timer";
  /** the sender (tx) or fee payer (timer) */
  from: Uint8Array;
  /** basefee part of the fee (burned) */
  burned: bigint;
  /** tip part of the fee (to the proposer) */
  tip: bigint;
  /** deployed actor address (Deploy only) */
  contractAddress: Uint8Array | null;
  /** id of the timer scheduled by a ScheduleTimer transaction, or the timer that fired */
  timerId: Uint8Array | null;
}

/** Everything a block did. `receipts` are in receipts-root order (transactions, then timer fires). */
export interface BlockResult {
  block: Block;
  hash: Uint8Array;
  receipts: ExecutionReceipt[];
  /** minted to the proposer (§8.2) */
  reward: bigint;
  /** total tips paid to the proposer */
  tips: bigint;
  /** total basefees burned */
  burned: bigint;
  /**
   * the validator set's part of the block (stf/validators.ts): reward shares paid (empty when
   * the proposer took the reward), stake slashed (burned), validators jailed, and the set fixed
   * at the end of the block (the last block of an epoch), else null
   */
  validators?: ValidatorBlockReport;
}

/** A candidate refused while building a block. */
export interface SkippedTx {
  hash: Uint8Array;
  error: { code: string; message: string };
}

/** Options of {@link ChainApi.buildBlock}; the caller supplies time, proposer and beacon. */
export interface BuildOptions {
  timestampMs: bigint;
  proposer: Uint8Array;
  /** verified seed signature of the parent round (§3.4); empty until BLS is wired */
  parentSeed?: Uint8Array;
  round?: Round;
  /**
   * consensus indices (in the parent's epoch set) whose votes are in the parent block's
   * certificate: downtime accounting (stf/validators.ts); absent = none (single-node devnet)
   */
  participants?: readonly number[];
}

/** Options of {@link ChainApi.applyBlock}. */
export interface ApplyOptions {
  /** the same as the proposer's {@link BuildOptions.participants} */
  participants?: readonly number[];
}

/** A read-only view of an account. */
export interface AccountView {
  balance: bigint;
  nonce: bigint;
  /** keccak256 of the canonical source for actors, null for plain accounts */
  codeHash: Uint8Array | null;
  metadata: Uint8Array;
}

/** Result of {@link ChainApi.simulateCall}. */
export interface SimulationResult {
  ok: boolean;
  status: Receipt["status"];
  returnData: Uint8Array;
  error: string | null;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  events: Event[];
}

/** Result of {@link ChainApi.estimateFee}. */
export interface FeeEstimate {
  cyclesUsed: bigint;
  cellsUsed: bigint;
  /** suggested limits: usage plus a 20% margin, within the maxima */
  cyclesLimit: bigint;
  cellsLimit: bigint;
  /** the next block's basefees */
  cycleBasefee: bigint;
  cellBasefee: bigint;
  /** §17.10: usage × (basefee + tip) */
  fee: bigint;
}

/** A transaction checked against §2.2 and ready for the mempool. */
export interface CheckedTx {
  tx: Transaction;
  bytes: Uint8Array;
  hash: Uint8Array;
  lane: Lane;
  intrinsic: { cycles: bigint; cells: bigint };
  /** the sender's account nonce in the head state the check ran against (set by `Chain.checkTx`) */
  senderNonce?: bigint;
}

/** The API the devnet drives. */
export interface ChainApi {
  readonly chainId: bigint;
  /** Header of the latest executed block. */
  readonly head: BlockHeader;
  /** Basefees the next block will use (§4.2 from the head's usage). */
  nextBasefees(): { cycle: bigint; cell: bigint };
  /** Per-lane cycle budgets for transaction selection (Timer lane = 0: it is used by fires). */
  txLaneBudgets(): Readonly<Record<Lane, bigint>>;
  /**
   * §2.2 validity against the head state; throws `StfError`. `futureNonce`: accept a nonce
   * above the account's (for a mempool that queues it).
   */
  checkTx(bytes: Uint8Array, opts?: { futureNonce?: boolean }): CheckedTx;
  /**
   * Executes candidates (in preference order) into the next block and commits it. A candidate
   * is an encoded transaction or the `{ tx, bytes }` of a `checkTx` result (not decoded again).
   */
  buildBlock(
    candidates: readonly (Uint8Array | { tx: Transaction; bytes: Uint8Array })[],
    opts: BuildOptions,
  ): BlockResult & { skipped: SkippedTx[] };
  /** Re-executes a block produced elsewhere; throws `StfError` if it is invalid. */
  applyBlock(block: Block, opts?: ApplyOptions): BlockResult;
  simulateCall(call: {
    from: Uint8Array;
    to: Uint8Array;
    handler: string;
    args: Uint8Array;
    value?: bigint;
    cyclesLimit?: bigint;
    cellsLimit?: bigint;
  }): SimulationResult;
  estimateFee(tx: Transaction): FeeEstimate;
  getAccount(address: Uint8Array, height?: bigint): AccountView | null;
  getCode(address: Uint8Array): string | null;
  getActorStorage(address: Uint8Array, key: Uint8Array, height?: bigint): Uint8Array | null;
  prove(key: Uint8Array, height?: bigint): Uint8Array | null;
}
