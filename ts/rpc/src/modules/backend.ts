/**
 * What the chain RPC modules need from a node, in domain types (bigint, bytes, the SDK's
 * Block/Receipt/Transaction). The devnet (`ts/node/src/devnet`) implements it over its
 * ledger, mempool and state transition; tests implement it over fixtures. JSON shapes are
 * not this interface's business: the modules format results with `./json.ts`.
 *
 * Heights given to state reads are already resolved from block tags by the module; a
 * backend that keeps only the newest state answers older heights with an error that has a
 * string `code` (the dispatcher turns it into a -32000 answer carrying that code).
 */
import type { Block, Receipt, Transaction } from "@cowboy/sdk";

/** A committed block as the node stores it. */
export interface BlockView {
  hash: Uint8Array;
  block: Block;
  /** transaction digests (signing hashes), in block order */
  txHashes: Uint8Array[];
  /** size of the canonical block encoding in bytes */
  size: number;
}

/** Where an included transaction sits. */
export interface TxLocation {
  blockHash: Uint8Array;
  height: bigint;
  index: number;
}

/** A transaction, included (`location` set) or pending in the mempool (`location` null). */
export interface TxView {
  hash: Uint8Array;
  tx: Transaction;
  location: TxLocation | null;
}

/** A receipt with what a client needs beside it. */
export interface ReceiptView {
  receipt: Receipt;
  /** a transaction's receipt, or a timer fire's (its hash is the fire's invocation id) */
  kind?: "tx" | "timer";
  location: TxLocation;
  /** the sender; null for a timer fire */
  from: Uint8Array | null;
  /** recipient of a transfer or callee of a call; null otherwise */
  to: Uint8Array | null;
  /** the new actor's address for a deploy, else null */
  contractAddress: Uint8Array | null;
  /** basefees of the including block, to split the fee paid */
  cycleBasefee: bigint;
  cellBasefee: bigint;
}

export interface AccountView {
  balance: bigint;
  nonce: bigint;
}

/** A value read from the state store with its proof against the state root of `height`. */
export interface ProvenRead {
  key: Uint8Array;
  /** null when the key is absent (the proof is then an exclusion proof) */
  value: Uint8Array | null;
  /** encoded state proof (docs/state.md; verify with `verifyStateProof` of @cowboy/sdk) */
  proof: Uint8Array;
  /** the state root the proof verifies against */
  root: Uint8Array;
  height: bigint;
}

export interface TimerView {
  id: Uint8Array;
  actor: Uint8Array;
  fireAt: bigint;
  handler: string;
  /** null for a one-shot timer */
  interval: bigint | null;
  data: Uint8Array;
}

/** A simulated call (`cowboy_call`): nothing is committed. */
export interface CallRequest {
  /** sender; a zero address when absent */
  from: Uint8Array | null;
  to: Uint8Array;
  handler: string;
  /** canonical CBOR of the positional arguments */
  args: Uint8Array;
  value: bigint;
  cyclesLimit: bigint | null;
  cellsLimit: bigint | null;
}

/** Fee estimate per §17.10: limits with headroom, basefees, suggested fee caps. */
export interface FeeEstimate {
  /** what the simulation used */
  cyclesUsed: bigint;
  cellsUsed: bigint;
  cyclesLimit: bigint;
  cellsLimit: bigint;
  cycleBasefee: bigint;
  cellBasefee: bigint;
  maxFeePerCycle: bigint;
  maxFeePerCell: bigint;
  maxPriorityFeePerCycle: bigint;
  maxPriorityFeePerCell: bigint;
  /** §17.10 expected fee: usage × (basefee + tip) at the next block's basefees */
  fee: bigint;
  /** the most the transaction can be charged with these limits and caps */
  maxCharge: bigint;
}

export interface CallOutcome {
  ok: boolean;
  /** canonical CBOR of the handler's return value (empty on failure) */
  result: Uint8Array;
  error: { type: string; message: string } | null;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  events: Array<{ emitter: Uint8Array; topic: Uint8Array; data: Uint8Array }>;
  fee: FeeEstimate;
}

/** What `cowboy_estimateFee` estimates: an unsigned transaction's instruction and sender. */
export interface FeeRequest {
  from: Uint8Array;
  /** the transaction encoding (signature may be zero); its instruction is what gets estimated */
  tx: Transaction;
}

/** A validator's record (ts/consensus `ValidatorRecord`; stf/validators.ts). */
export interface ValidatorView {
  address: Uint8Array;
  blsKey: Uint8Array;
  stake: bigint;
  status: "bonded" | "exiting";
  registeredHeight: number;
  activationEpoch: number;
  /** height of the exit (0 while bonded) */
  exitHeight: number;
  /** jailed until this height (exclusive); 0 = not jailed */
  jailedUntil: number;
  jailCount: number;
  slashed: bigint;
  /** blocks missed in the current downtime window */
  missed: number;
}

/** An epoch's validator set, in consensus-index order. */
export interface ValidatorSetView {
  epoch: number;
  members: { address: Uint8Array; blsKey: Uint8Array; stake: bigint }[];
}

/** A runner job as the chain records it (ts/node/src/stf/jobs.ts `JobRecord`). */
export interface JobView {
  id: Uint8Array;
  status: "pending" | "delivered" | "expired";
  actor: Uint8Array;
  jobType: string;
  callback: string;
  maxPrice: bigint;
  tip: bigint;
  submittedAt: bigint;
  /** last height a result may be delivered at; the job expires at the end of this block */
  deadline: bigint;
  specHash: Uint8Array;
  /** canonical CBOR of the job parameters; empty once the job is settled */
  spec: Uint8Array;
  settledAt: bigint | null;
  runner: Uint8Array | null;
  payment: bigint | null;
  resultHash: Uint8Array | null;
  callbackOk: boolean | null;
}

export interface EventQuery {
  fromHeight: bigint;
  toHeight: bigint;
  emitters: Uint8Array[];
  topics: Uint8Array[];
  limit: number;
}

export interface EventView {
  emitter: Uint8Array;
  topic: Uint8Array;
  data: Uint8Array;
  height: bigint;
  blockHash: Uint8Array;
  txHash: Uint8Array;
  txIndex: number;
  logIndex: number;
}

export interface ChainBackend {
  readonly chainId: bigint;
  /** newest committed block */
  head(): { height: bigint; hash: Uint8Array };
  /** newest final block (on a single-node devnet, the head) */
  finalizedHeight(): bigint;
  /** basefees the next block will charge */
  nextBasefees(): { cycle: bigint; cell: bigint };
  /** transactions waiting in the mempool */
  pendingCount(): number;
  blockByHeight(height: bigint): Promise<BlockView | null>;
  blockByHash(hash: Uint8Array): Promise<BlockView | null>;
  transaction(hash: Uint8Array): Promise<TxView | null>;
  receipt(hash: Uint8Array): Promise<ReceiptView | null>;
  account(address: Uint8Array, height: bigint): AccountView;
  /** the next nonce of `address` counting its pending transactions */
  pendingNonce(address: Uint8Array): bigint;
  /** canonical source of the actor at `address`, or null */
  code(address: Uint8Array, height: bigint): Uint8Array | null;
  storage(actor: Uint8Array, key: Uint8Array, height: bigint): ProvenRead | Promise<ProvenRead>;
  /** the account record (raw state value) of `address` with its proof */
  accountProof(address: Uint8Array, height: bigint): ProvenRead | Promise<ProvenRead>;
  /** pending timers of `actor`; a backend without a timer listing leaves it out (the method is then not served) */
  timers?(actor: Uint8Array): TimerView[];
  /** a runner job at `height`, or null; a backend without jobs leaves it out (`cowboy_getJob` is then not served) */
  job?(id: Uint8Array, height: bigint): JobView | null;
  /** the validator set of `epoch` (null: the next block's epoch) in the head state; a backend without one leaves it out */
  validatorSet?(epoch: number | null): ValidatorSetView;
  /** a validator's record in the head state, or null */
  validator?(address: Uint8Array): ValidatorView | null;
  /** validates and admits a signed transaction; resolves to its hash */
  sendRawTransaction(bytes: Uint8Array): Promise<Uint8Array>;
  /**
   * Optional: the signed transactions of one RPC batch, before they are sent one by one with
   * {@link sendRawTransaction} — e.g. to verify all their signatures at once. Must not change
   * what `sendRawTransaction` answers.
   */
  prepareRawTransactions?(list: readonly Uint8Array[]): void | Promise<void>;
  call(request: CallRequest, height: bigint): CallOutcome;
  estimateFee(request: FeeRequest): FeeEstimate;
  events(query: EventQuery): Promise<EventView[]>;
}
