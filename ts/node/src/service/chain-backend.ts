/**
 * {@link NodeChainBackend}: the JSON-RPC `ChainBackend` and `DevBackend` (ts/rpc) of a Cowboy
 * node, served from its ledger of recorded blocks (blocks, receipts, transaction and event
 * indexes), the state transition function over its state store (accounts, storage, proofs,
 * simulations, fee estimates) and its mempool (pending transactions and nonces).
 *
 * Shared by the single-node devnet (`DevnetNode`) and a localnet validator (`ValidatorNode`).
 * A node extends it with what really differs between them: how blocks are produced and
 * recorded, how a transaction is checked and admitted (and gossiped), the state height calls
 * are simulated at and pending nonces are read at, and its typed errors
 * ({@link BackendErrors}). Every block served is in the ledger, and the ledger's head is the
 * RPC `latest` (and finalized) block.
 */
import {
  type AccountView,
  type BlockView,
  type CallOutcome,
  type CallRequest,
  type ChainBackend,
  type DevBackend,
  type EventQuery,
  type EventView,
  eventPredicate,
  eventViewJson,
  type FeeEstimate,
  headJson,
  type JobView,
  type ProvenRead,
  type ReceiptView,
  RpcErrorCode,
  SubscriptionHub,
  type TxView,
  type ValidatorSetView,
  type ValidatorView,
} from "@cowboy/rpc";
import {
  type Block,
  decodeBlock,
  decodeReceipt,
  actorAddress as deriveActorAddress,
  encodeBlock,
  encodeReceipt,
  type Transaction,
  toHex,
  zeroSignature,
} from "@cowboy/sdk";
import type { DevKeys } from "../devnet/accounts.ts";
import type { BlockRecord, Ledger } from "../ledger/index.ts";
import type { AddResult, Basefees, Mempool, PoolTx } from "../mempool/index.ts";
import type { Chain } from "../stf/index.ts";
import { accountKey, encodeAccount, storageKey, VM_NS_PVM } from "../stf/state-keys.ts";
import type { BlockResult, CheckedTx } from "../stf/types.ts";

/** The faucet's default and largest payout: 100 CBY and 10,000 CBY. */
export const FAUCET_DEFAULT = 100_000_000_000n;
export const FAUCET_MAX = 10_000_000_000_000n;

/** Blocks (decoded views) a node keeps in memory, newest first out of the cache last. */
const BLOCK_CACHE_SIZE = 256;

const ZERO_ADDRESS = new Uint8Array(20);

/** A transaction in the mempool: the pool's view plus what building a block needs. */
export interface PendingTx extends PoolTx {
  readonly bytes: Uint8Array;
  readonly tx: Transaction;
}

/** Transaction rejection codes answered as -32003 (transaction rejected). */
export function domainErrorCode(code: string): number {
  return code.startsWith("ERR_MEMPOOL_") || code.startsWith("ERR_TX_")
    ? RpcErrorCode.TRANSACTION_REJECTED
    : RpcErrorCode.SERVER_ERROR;
}

/** The ledger record of an executed block: the block, its receipts and its event index. */
export function ledgerRecord(block: Block, hash: Uint8Array, receipts: BlockResult["receipts"]): BlockRecord {
  return {
    height: block.header.height,
    hash,
    parentHash: block.header.parent,
    block: encodeBlock(block),
    txHashes: receipts.map((r) => r.txHash),
    receipts: receipts.map((r) => encodeReceipt(r)),
    events: receipts.flatMap((r, txIndex) =>
      r.events.map((e, logIndex) => ({ emitter: e.emitter, topic: e.topic, txIndex, logIndex })),
    ),
  };
}

/**
 * The typed errors a node answers with (each node has its own error class and codes; the RPC
 * maps them through {@link domainErrorCode}).
 */
export interface BackendErrors {
  /** the ledger holds no block, not even genesis */
  emptyLedger(): Error;
  /** the state store keeps no proof for the state of block `height` */
  noProof(height: bigint): Error;
  /** block `height` is not in the ledger (above the head) */
  unknownBlock(height: bigint): Error;
  /** a call asked for a height other than {@link NodeChainBackend.callHeight} */
  callHeight(): Error;
}

/** What a node hands its backend: chain id, ledger, mempool, dev keys and errors. */
export interface NodeChainBackendParts {
  readonly chainId: bigint;
  readonly ledger: Ledger;
  readonly mempool: Mempool<PendingTx>;
  /** the development accounts and the faucet of the genesis */
  readonly devKeys: DevKeys;
  readonly errors: BackendErrors;
}

/**
 * The RPC backend of a node over its ledger, state and mempool. Invariant: every block (and
 * receipt, transaction location, event) it answers with is at or below the ledger's head.
 */
export abstract class NodeChainBackend implements ChainBackend, DevBackend {
  readonly chainId: bigint;
  readonly faucetMax = FAUCET_MAX;
  readonly faucetDefault = FAUCET_DEFAULT;
  readonly hub: SubscriptionHub;
  protected readonly ledger: Ledger;
  protected readonly mempool: Mempool<PendingTx>;
  protected readonly devKeys: DevKeys;
  protected readonly errors: BackendErrors;
  /** decoded blocks by height, newest few */
  private readonly blockCache = new Map<bigint, BlockView>();

  protected constructor(parts: NodeChainBackendParts) {
    this.chainId = parts.chainId;
    this.ledger = parts.ledger;
    this.mempool = parts.mempool;
    this.devKeys = parts.devKeys;
    this.errors = parts.errors;
    this.hub = new SubscriptionHub({ eventFilter: eventPredicate });
  }

  /** The STF over the node's state store (its head may run ahead of the ledger's). */
  protected abstract get chain(): Chain;

  /** The only height `call` simulates at. */
  protected abstract callHeight(): bigint;

  /**
   * The height whose state `pendingNonce` and `devAccounts` read: `undefined` for the store's
   * newest state.
   */
  protected abstract pendingStateHeight(): bigint | undefined;

  abstract sendRawTransaction(bytes: Uint8Array): Promise<Uint8Array>;

  abstract faucet(address: Uint8Array, amount: bigint): Promise<Uint8Array>;

  // ---------------------------------------------------------------------------------------
  // Blocks in the ledger

  /** The ledger record of an executed block (see {@link ledgerRecord}). */
  protected record(block: Block, hash: Uint8Array, receipts: BlockResult["receipts"]): BlockRecord {
    return ledgerRecord(block, hash, receipts);
  }

  protected viewOf(block: Block, hash: Uint8Array, record: BlockRecord): BlockView {
    return {
      hash,
      block,
      txHashes: record.txHashes.slice(0, block.transactions.length),
      size: record.block.length,
    };
  }

  protected cacheBlock(view: BlockView): void {
    this.blockCache.set(view.block.header.height, view);
    if (this.blockCache.size > BLOCK_CACHE_SIZE) {
      const oldest = this.blockCache.keys().next().value;
      if (oldest !== undefined) this.blockCache.delete(oldest);
    }
  }

  /** Notifies `newHeads` and `events` subscribers of a block now in the ledger. */
  protected publishBlock(view: BlockView, receipts: BlockResult["receipts"]): void {
    const height = view.block.header.height;
    this.hub.publish("newHeads", headJson(view));
    receipts.forEach((r, txIndex) => {
      r.events.forEach((e, logIndex) => {
        this.hub.publish(
          "events",
          eventViewJson({
            emitter: e.emitter,
            topic: e.topic,
            data: e.data,
            height,
            blockHash: view.hash,
            txHash: r.txHash,
            txIndex,
            logIndex,
          }),
        );
      });
    });
  }

  // ---------------------------------------------------------------------------------------
  // Mempool

  /** The mempool entry of a checked transaction. */
  protected poolEntry(checked: CheckedTx): PendingTx {
    const { tx } = checked;
    return {
      hash: toHex(checked.hash),
      sender: toHex(tx.from),
      nonce: tx.nonce,
      lane: checked.lane,
      cycles: { limit: tx.cyclesLimit, maxFee: tx.maxFeePerCycle, maxPriorityFee: tx.maxPriorityFeePerCycle },
      cells: { limit: tx.cellsLimit, maxFee: tx.maxFeePerCell, maxPriorityFee: tx.maxPriorityFeePerCell },
      intrinsic: checked.intrinsic,
      size: checked.bytes.length,
      bytes: checked.bytes,
      tx,
    };
  }

  /**
   * Adds `pending` to the mempool (throws its `MempoolError` when refused) and notifies
   * `pendingTransactions` subscribers.
   */
  protected addToPool(pending: PendingTx, accountNonce: bigint, basefee: Basefees): AddResult<PendingTx> {
    const added = this.mempool.add(pending, { accountNonce, basefee });
    this.hub.publish("pendingTransactions", pending.hash);
    return added;
  }

  // ---------------------------------------------------------------------------------------
  // ChainBackend

  head(): { height: bigint; hash: Uint8Array } {
    const h = this.ledger.head();
    if (h === null) throw this.errors.emptyLedger();
    return h;
  }

  /** The ledger's head: a node records only blocks that are final (one validator, or finalized). */
  finalizedHeight(): bigint {
    return this.head().height;
  }

  nextBasefees(): { cycle: bigint; cell: bigint } {
    return this.chain.nextBasefees();
  }

  pendingCount(): number {
    return this.mempool.size;
  }

  async blockByHeight(height: bigint): Promise<BlockView | null> {
    if (height > this.head().height) return null;
    const cached = this.blockCache.get(height);
    if (cached !== undefined) return cached;
    const record = await this.ledger.blockByHeight(height);
    if (record === null) return null;
    const view = this.viewOf(decodeBlock(record.block), record.hash, record);
    this.cacheBlock(view);
    return view;
  }

  async blockByHash(hash: Uint8Array): Promise<BlockView | null> {
    const record = await this.ledger.blockByHash(hash);
    if (record === null || record.height > this.head().height) return null;
    return this.blockByHeight(record.height);
  }

  async transaction(hash: Uint8Array): Promise<TxView | null> {
    const pending = this.mempool.get(toHex(hash));
    if (pending !== undefined) return { hash, tx: pending.tx, location: null };
    const loc = await this.ledger.txLocation(hash);
    if (loc === null) return null;
    const view = await this.blockByHeight(loc.height);
    const tx = view?.block.transactions[loc.index];
    if (view === null || tx === undefined) return null; // a timer fire, or beyond the head
    return { hash, tx, location: { blockHash: view.hash, height: loc.height, index: loc.index } };
  }

  async receipt(hash: Uint8Array): Promise<ReceiptView | null> {
    const found = await this.ledger.receipt(hash);
    if (found === null) return null;
    const view = await this.blockByHeight(found.height);
    if (view === null) return null;
    const receipt = decodeReceipt(found.receipt);
    const tx = view.block.transactions[found.index];
    const header = view.block.header;
    let to: Uint8Array | null = null;
    let contractAddress: Uint8Array | null = null;
    if (tx !== undefined) {
      const ix = tx.instruction;
      if (ix.kind === "transfer" || ix.kind === "call") to = ix.to;
      if (ix.kind === "deploy" && receipt.status === "success")
        contractAddress = deriveActorAddress(tx.from, ix.salt, ix.source);
    }
    return {
      receipt,
      kind: tx === undefined ? "timer" : "tx",
      location: { blockHash: view.hash, height: found.height, index: found.index },
      from: tx?.from ?? null,
      to,
      contractAddress,
      cycleBasefee: header.cycleBasefee,
      cellBasefee: header.cellBasefee,
    };
  }

  account(address: Uint8Array, height: bigint): AccountView {
    const a = this.chain.getAccount(address, height);
    return { balance: a?.balance ?? 0n, nonce: a?.nonce ?? 0n };
  }

  pendingNonce(address: Uint8Array): bigint {
    const nonce = this.chain.getAccount(address, this.pendingStateHeight())?.nonce ?? 0n;
    return this.mempool.pendingNonce(toHex(address), nonce);
  }

  code(address: Uint8Array, height: bigint): Uint8Array | null {
    const chain = this.chain;
    const a = chain.getAccount(address, height);
    if (a === null || a.codeHash === null) return null;
    const source = chain.getCode(address);
    return source === null ? null : new TextEncoder().encode(source);
  }

  private async stateRootAt(height: bigint): Promise<Uint8Array> {
    const view = await this.blockByHeight(height);
    if (view === null) throw this.errors.unknownBlock(height);
    return view.block.header.stateRoot;
  }

  private provenKey(key: Uint8Array, height: bigint): Uint8Array {
    const proof = this.chain.prove(key, height);
    if (proof === null) throw this.errors.noProof(height);
    return proof;
  }

  storage(actor: Uint8Array, key: Uint8Array, height: bigint): Promise<ProvenRead> {
    const value = this.chain.getActorStorage(actor, key, height);
    return this.proven(storageKey(VM_NS_PVM, actor, key), value, height);
  }

  private async proven(key: Uint8Array, value: Uint8Array | null, height: bigint): Promise<ProvenRead> {
    const proof = this.provenKey(key, height);
    return { key, value, proof, root: await this.stateRootAt(height), height };
  }

  async accountProof(address: Uint8Array, height: bigint): Promise<ProvenRead> {
    const key = accountKey(address);
    const proof = this.provenKey(key, height);
    const a = this.chain.getAccount(address, height);
    const value =
      a === null
        ? null
        : encodeAccount({
            balance: a.balance,
            nonce: a.nonce,
            codeHash: a.codeHash ?? new Uint8Array(32),
            metadata: a.metadata,
          });
    return { key, value, proof, root: await this.stateRootAt(height), height };
  }

  protected estimateFor(tx: Transaction): FeeEstimate {
    const e = this.chain.estimateFee(tx);
    // Fee caps with room for the basefees to rise for a while (×2), no tip by default.
    const maxFeePerCycle = 2n * e.cycleBasefee;
    const maxFeePerCell = 2n * e.cellBasefee;
    return {
      cyclesUsed: e.cyclesUsed,
      cellsUsed: e.cellsUsed,
      cyclesLimit: e.cyclesLimit,
      cellsLimit: e.cellsLimit,
      cycleBasefee: e.cycleBasefee,
      cellBasefee: e.cellBasefee,
      maxFeePerCycle,
      maxFeePerCell,
      maxPriorityFeePerCycle: 0n,
      maxPriorityFeePerCell: 0n,
      fee: e.fee,
      maxCharge: e.cyclesLimit * maxFeePerCycle + e.cellsLimit * maxFeePerCell,
    };
  }

  /**
   * An unsigned transaction from `from` at its account's nonce (newest state), fee caps twice
   * the next basefees, no tip, default limits 10M cycles and 1M cells.
   */
  protected unsignedTx(
    from: Uint8Array,
    instruction: Transaction["instruction"],
    limits?: { cycles: bigint | null; cells: bigint | null },
  ): Transaction {
    const fees = this.nextBasefees();
    return {
      chainId: this.chainId,
      nonce: this.chain.getAccount(from)?.nonce ?? 0n,
      instruction,
      cyclesLimit: limits?.cycles ?? 10_000_000n,
      cellsLimit: limits?.cells ?? 1_000_000n,
      maxFeePerCycle: 2n * fees.cycle,
      maxFeePerCell: 2n * fees.cell,
      maxPriorityFeePerCycle: 0n,
      maxPriorityFeePerCell: 0n,
      from,
      accessList: null,
      metadata: new Uint8Array(0),
      originTxHash: null,
      originRemainingCycles: null,
      originRemainingCells: null,
      signature: zeroSignature(),
      additionalSigners: [],
    };
  }

  call(request: CallRequest, height: bigint): CallOutcome {
    if (height !== this.callHeight()) throw this.errors.callHeight();
    const from = request.from ?? ZERO_ADDRESS;
    const sim = this.chain.simulateCall({
      from,
      to: request.to,
      handler: request.handler,
      args: request.args,
      value: request.value,
      ...(request.cyclesLimit === null ? {} : { cyclesLimit: request.cyclesLimit }),
      ...(request.cellsLimit === null ? {} : { cellsLimit: request.cellsLimit }),
    });
    const tx = this.unsignedTx(
      from,
      { kind: "call", to: request.to, handler: request.handler, args: request.args, value: request.value },
      { cycles: request.cyclesLimit, cells: request.cellsLimit },
    );
    return {
      ok: sim.ok,
      result: sim.returnData,
      error: sim.error === null ? null : { type: sim.status, message: sim.error },
      cyclesUsed: sim.cyclesUsed,
      cellsUsed: sim.cellsUsed,
      events: sim.events,
      fee: this.estimateFor(tx),
    };
  }

  estimateFee(request: { from: Uint8Array; tx: Transaction }): FeeEstimate {
    return this.estimateFor(request.tx);
  }

  async events(query: EventQuery): Promise<EventView[]> {
    const found = await this.ledger.events({
      fromHeight: query.fromHeight,
      toHeight: query.toHeight,
      emitters: query.emitters,
      topics: query.topics,
      limit: query.limit,
    });
    const out: EventView[] = [];
    for (const e of found) {
      const record = await this.ledger.blockByHeight(e.height);
      const receiptBytes = record?.receipts[e.txIndex];
      if (record === null || receiptBytes === undefined) continue;
      const ev = decodeReceipt(receiptBytes).events[e.logIndex];
      if (ev === undefined) continue;
      out.push({
        emitter: e.emitter,
        topic: e.topic,
        data: ev.data,
        height: e.height,
        blockHash: record.hash,
        txHash: record.txHashes[e.txIndex] as Uint8Array,
        txIndex: e.txIndex,
        logIndex: e.logIndex,
      });
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // DevBackend

  devAccounts(): Array<{ address: Uint8Array; balance: bigint }> {
    const chain = this.chain;
    const height = this.pendingStateHeight();
    return this.devKeys.accounts.map((k) => ({
      address: k.address,
      balance: chain.getAccount(k.address, height)?.balance ?? 0n,
    }));
  }

  // ---------------------------------------------------------------------------------------
  // Validator set (stf/validators.ts)

  /** `cowboy_getValidators`: the set of `epoch` (null: the next block's epoch) in the head state. */
  validatorSet(epoch: number | null): ValidatorSetView {
    const chain = this.chain;
    const e = epoch ?? Math.floor(Number(chain.head.height + 1n) / chain.validatorParams().epochBlocks);
    return {
      epoch: e,
      members: chain.validatorSet(e).map((m) => ({
        address: Uint8Array.from(Buffer.from(m.address, "hex")),
        blsKey: m.blsKey,
        stake: m.stake,
      })),
    };
  }

  /** `cowboy_getValidator`: a validator's record in the head state, or null. */
  validator(address: Uint8Array): ValidatorView | null {
    const r = this.chain.validator(address);
    return r === null ? null : { ...r, address: Uint8Array.from(Buffer.from(r.address, "hex")) };
  }

  // ---------------------------------------------------------------------------------------
  // Runner jobs (stf/jobs.ts)

  /** `cowboy_getJob`: the job at a ledger height. */
  job(id: Uint8Array, height: bigint): JobView | null {
    return this.chain.getJob(id, height);
  }

  /**
   * `cowboy_deliverJobResult` (dev): queues the result in the STF for the next block this node
   * builds (`Chain.deliverJobResult`; throws its `JobError`), then {@link jobResultQueued}.
   */
  deliverJobResult(
    jobId: Uint8Array,
    result: Uint8Array,
    opts: { runner?: Uint8Array; payment?: bigint },
  ): Uint8Array {
    const { hash } = this.chain.deliverJobResult(jobId, result, opts);
    this.jobResultQueued();
    return hash;
  }

  /** Called after a job result was queued; a node that builds blocks only on demand should build one. */
  protected jobResultQueued(): void {}
}
