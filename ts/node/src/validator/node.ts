/**
 * {@link ValidatorNode}: one validator of a multi-validator Cowboy network — the Simplex voter
 * (`startValidator` of ts/p2p: libp2p, block sync, signing journal) driving the state
 * transition function through {@link ChainApplication}, a mempool fed by JSON-RPC and by
 * transaction gossip (`/cowboy/<chain>/tx/1`), a ledger of finalized blocks (receipts,
 * transaction and event indexes) and the JSON-RPC server of the devnet (ts/rpc).
 *
 * Data directory: `p2p.key` (network identity), `votes.journal` (signed votes),
 * `finalized.log` (finalized blocks with their certificates: the consensus chain),
 * `state/` (QMDB store; may run a few blocks ahead of finality), `ledger/` (LevelDB, finalized
 * blocks only). RPC `latest` is the newest finalized block: every block served is final.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { blsDevnetKeys, blsDevnetSchemes } from "@cowboy/consensus";
import { type RunningValidator, startValidator } from "@cowboy/p2p";
import {
  type AccountView,
  type BlockView,
  type CallOutcome,
  type CallRequest,
  type ChainBackend,
  chainModules,
  type DevBackend,
  type EventQuery,
  type EventView,
  eventPredicate,
  eventViewJson,
  type FeeEstimate,
  headJson,
  type ProvenRead,
  type ReceiptView,
  RpcDispatcher,
  RpcErrorCode,
  RpcServer,
  SubscriptionHub,
  type TxView,
} from "@cowboy/rpc";
import {
  type Block,
  blockHash,
  decodeBlock,
  decodeReceipt,
  decodeWithSigningHash,
  actorAddress as deriveActorAddress,
  encodeBlock,
  encodeReceipt,
  encodeTransaction,
  signTransaction,
  type Transaction,
  toHex,
  zeroSignature,
} from "@cowboy/sdk";
import { type DevKeys, deriveDevKeys } from "../devnet/accounts.ts";
import type { Logger } from "../devnet/logger.ts";
import { FAUCET_DEFAULT, FAUCET_MAX } from "../devnet/node.ts";
import { type BlockRecord, Ledger } from "../ledger/index.ts";
import { Mempool, type PoolTx } from "../mempool/index.ts";
import { CELLS_TARGET, CYCLES_TARGET, LANES } from "../params.ts";
import { intrinsicCost, laneOf, StfError } from "../stf/index.ts";
import { accountKey, encodeAccount, storageKey, VM_NS_PVM } from "../stf/state-keys.ts";
import type { BlockResult, CheckedTx, GenesisConfig } from "../stf/types.ts";
import { ChainApplication, type FinalizedEntry } from "./app.ts";
import { decodeConsensusBlock, encodeConsensusBlock } from "./block.ts";

/** Everything one validator process needs (the localnet writes one per validator as JSON). */
export interface ValidatorNodeConfig {
  readonly dataDir: string;
  /** this validator's index in the set */
  readonly index: number;
  readonly genesis: GenesisConfig;
  /** size of the validator set and the seed its BLS keys are dealt from (blsDevnetKeys) */
  readonly validatorCount: number;
  readonly keySeed: Uint8Array;
  /** proposer address of each validator (index order) */
  readonly validatorAddresses: readonly Uint8Array[];
  readonly p2p: {
    readonly chainName: string;
    readonly listen: readonly string[];
    /** multiaddrs with /p2p/<peer id> */
    readonly bootstrap: readonly string[];
    /** libp2p peer id of each validator (index order) */
    readonly peerIds: readonly string[];
  };
  readonly rpc: { readonly host: string; readonly port: number };
  readonly timeouts?: {
    leaderTimeoutMs?: number;
    notarizationTimeoutMs?: number;
    nullifyRetryMs?: number;
    minViewMs?: number;
  };
  readonly logger?: Logger | null;
}

interface PendingTx extends PoolTx {
  readonly bytes: Uint8Array;
  readonly tx: Transaction;
}

const ZERO_ADDRESS = new Uint8Array(20);

function domainErrorCode(code: string): number {
  return code.startsWith("ERR_MEMPOOL_") || code.startsWith("ERR_TX_")
    ? RpcErrorCode.TRANSACTION_REJECTED
    : RpcErrorCode.SERVER_ERROR;
}

export class ValidatorError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ValidatorError";
    this.code = code;
  }
}

export class ValidatorNode implements ChainBackend, DevBackend {
  readonly chainId: bigint;
  readonly config: ValidatorNodeConfig;
  readonly app: ChainApplication;
  private readonly ledger: Ledger;
  private readonly mempool = new Mempool<PendingTx>();
  readonly hub = new SubscriptionHub({ eventFilter: eventPredicate });
  private running: RunningValidator | null = null;
  private server: RpcServer | null = null;
  private urls: { http: string; ws: string } | null = null;
  private appendQueue: Promise<void> = Promise.resolve();
  private readonly log: Logger | null;
  private stopped = false;
  /** transactions finalized by this node since start */
  committedTxs = 0;
  readonly faucetMax = FAUCET_MAX;
  readonly faucetDefault = FAUCET_DEFAULT;
  /** the development accounts and the faucet of the genesis (the devnet's mnemonic) */
  private readonly devKeys: DevKeys;

  private constructor(config: ValidatorNodeConfig, ledger: Ledger) {
    this.config = config;
    this.chainId = config.genesis.chainId;
    this.ledger = ledger;
    this.log = config.logger ?? null;
    // genesis = the dev accounts, then the faucet (as the localnet writes it)
    this.devKeys = deriveDevKeys(Math.max(0, config.genesis.accounts.length - 1));
    const ledgerHead = ledger.head();
    this.app = new ChainApplication(
      {
        dataDir: config.dataDir,
        genesis: config.genesis,
        proposer: config.validatorAddresses[config.index] as Uint8Array,
        validators: config.validatorAddresses,
        candidates: (chain) => {
          const picked = this.mempool.select({
            basefee: chain.nextBasefees(),
            accountNonce: (s) => chain.getAccount(Buffer.from(s.slice(2), "hex"))?.nonce ?? 0n,
            laneBudget: chain.txLaneBudgets(),
          });
          return LANES.flatMap((l) => picked[l].map((t) => t.bytes));
        },
        onFinalized: (entry, result) => this.onFinalized(entry, result),
        logger: this.log,
      },
      ledgerHead === null ? 1 : Number(ledgerHead.height) + 1,
    );
  }

  /** Opens ledger and state (rebuilding the state if needed) without starting anything. */
  static async open(config: ValidatorNodeConfig): Promise<ValidatorNode> {
    mkdirSync(config.dataDir, { recursive: true });
    let ledger: Ledger;
    try {
      ledger = await Ledger.open(join(config.dataDir, "ledger"));
    } catch (err) {
      throw new ValidatorError(
        "ERR_VALIDATOR_DATA_DIR",
        `cannot open the ledger in ${config.dataDir} (${(err as Error).message}); is another node running on it?`,
      );
    }
    let node: ValidatorNode;
    try {
      node = new ValidatorNode(config, ledger);
    } catch (err) {
      await ledger.close();
      throw err;
    }
    if (ledger.head() === null) {
      const g = node.app.genesisHeader();
      if (g === null)
        throw new ValidatorError("ERR_VALIDATOR_STATE", "empty ledger but the state is past genesis");
      await ledger.append(node.record({ header: g, transactions: [] }, blockHash(g), []));
    }
    for (const { entry, result } of node.app.replayed) await node.appendRecord(entry, result);
    node.app.replayed.length = 0;
    return node;
  }

  private record(block: Block, hash: Uint8Array, receipts: BlockResult["receipts"]): BlockRecord {
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

  private async appendRecord(entry: FinalizedEntry, result: BlockResult): Promise<void> {
    const head = this.ledger.head();
    if (head !== null && head.height >= BigInt(entry.height)) return; // already recorded
    await this.ledger.append(this.record(entry.cb.block, result.hash, result.receipts));
  }

  private onFinalized(entry: FinalizedEntry, result: BlockResult): void {
    const txs = entry.cb.block.transactions;
    this.committedTxs += txs.length;
    const senders = new Set(txs.map((t) => toHex(t.from)));
    const height = BigInt(entry.height);
    const chain = this.app.chain;
    this.mempool.prune((s) => chain.getAccount(Buffer.from(s.slice(2), "hex"), height)?.nonce ?? 0n, senders);
    this.appendQueue = this.appendQueue
      .then(async () => {
        await this.appendRecord(entry, result);
        const view: BlockView = {
          hash: result.hash,
          block: entry.cb.block,
          txHashes: txs.map((_, i) => (result.receipts[i] as { txHash: Uint8Array }).txHash),
          size: encodeBlock(entry.cb.block).length,
        };
        this.log?.info(
          { height: entry.height, view: entry.view, hash: toHex(result.hash), txs: txs.length },
          "finalized",
        );
        this.hub.publish("newHeads", headJson(view));
        result.receipts.forEach((r, txIndex) => {
          r.events.forEach((e, logIndex) => {
            this.hub.publish(
              "events",
              eventViewJson({
                emitter: e.emitter,
                topic: e.topic,
                data: e.data,
                height,
                blockHash: result.hash,
                txHash: r.txHash,
                txIndex,
                logIndex,
              }),
            );
          });
        });
      })
      .catch((err: unknown) => {
        this.log?.error(
          { err: (err as Error).message, height: entry.height },
          "could not record a finalized block in the ledger",
        );
      });
  }

  /** Starts consensus (sync, voter), transaction gossip and the RPC server. */
  async start(): Promise<{ http: string; ws: string }> {
    const c = this.config;
    const keys = blsDevnetKeys(c.validatorCount, c.genesis.chainId, c.keySeed);
    const scheme = blsDevnetSchemes(keys)[c.index];
    if (scheme === undefined) throw new ValidatorError("ERR_VALIDATOR_INDEX", `no validator ${c.index}`);
    const log = this.log;
    const p2pLogger =
      log === null
        ? null
        : {
            debug: (msg: string, f?: Record<string, unknown>) => log.debug(f ?? {}, msg),
            info: (msg: string, f?: Record<string, unknown>) => log.info(f ?? {}, msg),
            warn: (msg: string, f?: Record<string, unknown>) => log.warn(f ?? {}, msg),
            error: (msg: string, f?: Record<string, unknown>) => log.error(f ?? {}, msg),
          };
    this.running = await startValidator({
      dataDir: c.dataDir,
      network: {
        chainId: c.p2p.chainName,
        listen: [...c.p2p.listen],
        bootstrap: [...c.p2p.bootstrap],
        validators: c.p2p.peerIds.map((peerId, index) => ({ index, peerId })),
        discoveryIntervalMs: 1_000,
        logger: p2pLogger,
      },
      app: this.app,
      codec: {
        encode: (b) => encodeConsensusBlock(b as Parameters<typeof encodeConsensusBlock>[0]),
        decode: (bytes) => decodeConsensusBlock(bytes),
      },
      scheme,
      epoch: 0,
      genesisSeed: new Uint8Array(32),
      timeouts: {
        leaderTimeoutMs: c.timeouts?.leaderTimeoutMs ?? 1_000,
        notarizationTimeoutMs: c.timeouts?.notarizationTimeoutMs ?? 2_000,
        nullifyRetryMs: c.timeouts?.nullifyRetryMs ?? 2_000,
        minViewMs: c.timeouts?.minViewMs ?? 0,
      },
      peerWaitMs: 3_000,
      onSyncProgress: (p) => log?.info({ height: p.height, target: p.target }, "block sync"),
      logger: p2pLogger,
    });
    this.running.node.onGossip("tx", {
      validate: (bytes) => {
        try {
          this.admit(bytes, false);
          return "accept";
        } catch {
          return "ignore"; // stale (nonce used), already pooled, or invalid against our state
        }
      },
      deliver: () => {},
    });
    const dispatcher = new RpcDispatcher(
      [
        ...chainModules(this, { cyclesTarget: CYCLES_TARGET, cellsTarget: CELLS_TARGET }, { backend: this }),
        this.hub,
      ],
      { domainErrorCode, logger: log },
    );
    this.server = new RpcServer(
      { dispatcher, logger: log, metrics: null },
      { host: c.rpc.host, port: c.rpc.port },
    );
    this.urls = await this.server.start();
    return this.urls;
  }

  get rpcUrls(): { http: string; ws: string } | null {
    return this.urls;
  }

  get voter(): RunningValidator["voter"] | null {
    return this.running?.voter ?? null;
  }

  /** Stops the voter and the network, waits for ledger writes, closes everything. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.running?.stop();
    await this.server?.close();
    await this.appendQueue;
    await this.ledger.close();
    this.app.close();
  }

  // ----- mempool -----

  /** §2.2 checks against the store's head; a future nonce is accepted if the balance covers it. */
  private checkForPool(bytes: Uint8Array): CheckedTx {
    const chain = this.app.chain;
    try {
      return chain.checkTx(bytes);
    } catch (err) {
      if (!(err instanceof StfError) || err.code !== "ERR_TX_NONCE") throw err;
      const { tx, signingHash } = decodeWithSigningHash(bytes);
      const account = chain.getAccount(tx.from);
      if (tx.nonce < (account?.nonce ?? 0n)) throw err;
      const intrinsic = intrinsicCost(tx);
      if (intrinsic === null) throw err;
      const ix = tx.instruction;
      const value =
        ix.kind === "transfer" ? ix.amount : ix.kind === "call" || ix.kind === "deploy" ? ix.value : 0n;
      const maxCharge = tx.cyclesLimit * tx.maxFeePerCycle + tx.cellsLimit * tx.maxFeePerCell;
      const balance = account?.balance ?? 0n;
      if (balance < maxCharge + value)
        throw new StfError(
          "ERR_TX_BALANCE",
          `balance ${balance} cannot cover the maximum fee ${maxCharge} plus the value ${value}`,
        );
      return { tx, bytes, hash: signingHash, lane: laneOf(tx), intrinsic };
    }
  }

  private admit(bytes: Uint8Array, gossip: boolean): Uint8Array {
    const checked = this.checkForPool(bytes);
    const { tx } = checked;
    const hash = toHex(checked.hash);
    if (this.mempool.has(hash)) return checked.hash;
    const pending: PendingTx = {
      hash,
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
    const chain = this.app.chain;
    this.mempool.add(pending, {
      accountNonce: chain.getAccount(tx.from)?.nonce ?? 0n,
      basefee: chain.nextBasefees(),
    });
    this.hub.publish("pendingTransactions", hash);
    if (gossip && this.running !== null) {
      this.running.node.publish("tx", checked.bytes).catch((err: unknown) => {
        this.log?.debug({ err: (err as Error).message }, "transaction gossip not sent");
      });
    }
    return checked.hash;
  }

  // ----- ChainBackend -----

  async sendRawTransaction(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.stopped) throw new ValidatorError("ERR_VALIDATOR_STOPPING", "the node is shutting down");
    return this.admit(bytes, true);
  }

  head(): { height: bigint; hash: Uint8Array } {
    const h = this.ledger.head();
    if (h === null) throw new ValidatorError("ERR_VALIDATOR_STATE", "the ledger is empty");
    return h;
  }

  finalizedHeight(): bigint {
    return this.head().height; // the ledger holds finalized blocks only
  }

  nextBasefees(): { cycle: bigint; cell: bigint } {
    return this.app.chain.nextBasefees();
  }

  pendingCount(): number {
    return this.mempool.size;
  }

  async blockByHeight(height: bigint): Promise<BlockView | null> {
    if (height > this.head().height) return null;
    const record = await this.ledger.blockByHeight(height);
    if (record === null) return null;
    const block = decodeBlock(record.block);
    return {
      hash: record.hash,
      block,
      txHashes: record.txHashes.slice(0, block.transactions.length),
      size: record.block.length,
    };
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
    if (view === null || tx === undefined) return null;
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
    const a = this.app.chain.getAccount(address, height);
    return { balance: a?.balance ?? 0n, nonce: a?.nonce ?? 0n };
  }

  pendingNonce(address: Uint8Array): bigint {
    const nonce = this.app.chain.getAccount(address, this.head().height)?.nonce ?? 0n;
    return this.mempool.pendingNonce(toHex(address), nonce);
  }

  code(address: Uint8Array, height: bigint): Uint8Array | null {
    const chain = this.app.chain;
    const a = chain.getAccount(address, height);
    if (a === null || a.codeHash === null) return null;
    const source = chain.getCode(address);
    return source === null ? null : new TextEncoder().encode(source);
  }

  private async proven(key: Uint8Array, value: Uint8Array | null, height: bigint): Promise<ProvenRead> {
    const proof = this.app.chain.prove(key, height);
    if (proof === null)
      throw new ValidatorError("ERR_VALIDATOR_NO_PROOF", `no proof kept for block ${height}`);
    const view = await this.blockByHeight(height);
    if (view === null)
      throw new ValidatorError("ERR_VALIDATOR_UNKNOWN_BLOCK", `block ${height} is not final`);
    return { key, value, proof, root: view.block.header.stateRoot, height };
  }

  storage(actor: Uint8Array, key: Uint8Array, height: bigint): Promise<ProvenRead> {
    const value = this.app.chain.getActorStorage(actor, key, height);
    return this.proven(storageKey(VM_NS_PVM, actor, key), value, height);
  }

  accountProof(address: Uint8Array, height: bigint): Promise<ProvenRead> {
    const a = this.app.chain.getAccount(address, height);
    const value =
      a === null
        ? null
        : encodeAccount({
            balance: a.balance,
            nonce: a.nonce,
            codeHash: a.codeHash ?? new Uint8Array(32),
            metadata: a.metadata,
          });
    return this.proven(accountKey(address), value, height);
  }

  private estimateFor(tx: Transaction): FeeEstimate {
    const e = this.app.chain.estimateFee(tx);
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

  call(request: CallRequest, height: bigint): CallOutcome {
    const chain = this.app.chain;
    if (height !== chain.head.height) {
      throw new ValidatorError(
        "ERR_VALIDATOR_UNSUPPORTED",
        "calls are simulated against the newest executed block only",
      );
    }
    const from = request.from ?? ZERO_ADDRESS;
    const sim = chain.simulateCall({
      from,
      to: request.to,
      handler: request.handler,
      args: request.args,
      value: request.value,
      ...(request.cyclesLimit === null ? {} : { cyclesLimit: request.cyclesLimit }),
      ...(request.cellsLimit === null ? {} : { cellsLimit: request.cellsLimit }),
    });
    const fees = chain.nextBasefees();
    const tx: Transaction = {
      chainId: this.chainId,
      nonce: chain.getAccount(from)?.nonce ?? 0n,
      instruction: {
        kind: "call",
        to: request.to,
        handler: request.handler,
        args: request.args,
        value: request.value,
      },
      cyclesLimit: request.cyclesLimit ?? 10_000_000n,
      cellsLimit: request.cellsLimit ?? 1_000_000n,
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

  // ----- DevBackend -----

  async faucet(address: Uint8Array, amount: bigint): Promise<Uint8Array> {
    const faucet = this.devKeys.faucet;
    const chain = this.app.chain;
    const fees = chain.nextBasefees();
    const tx = signTransaction(
      {
        chainId: this.chainId,
        nonce: this.mempool.pendingNonce(
          toHex(faucet.address),
          chain.getAccount(faucet.address)?.nonce ?? 0n,
        ),
        instruction: { kind: "transfer", to: address, amount },
        cyclesLimit: 21_000n,
        cellsLimit: 1_000n,
        maxFeePerCycle: 2n * fees.cycle,
        maxFeePerCell: 2n * fees.cell,
        maxPriorityFeePerCycle: 0n,
        maxPriorityFeePerCell: 0n,
        from: faucet.address,
        accessList: null,
        metadata: new Uint8Array(0),
        originTxHash: null,
        originRemainingCycles: null,
        originRemainingCells: null,
        signature: zeroSignature(),
        additionalSigners: [],
      },
      faucet.secretKey,
    );
    return this.admit(encodeTransaction(tx), true);
  }

  devAccounts(): Array<{ address: Uint8Array; balance: bigint }> {
    const chain = this.app.chain;
    const height = this.head().height;
    return this.devKeys.accounts.map((k) => ({
      address: k.address,
      balance: chain.getAccount(k.address, height)?.balance ?? 0n,
    }));
  }
}
