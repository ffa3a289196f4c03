/**
 * The single-node devnet: one validator that takes transactions from the mempool, builds
 * blocks with the state transition function, records them in the ledger, and serves
 * JSON-RPC (HTTP + WebSocket) and Prometheus metrics.
 *
 * Crash consistency (state store + ledger). The STF commits state N inside `buildBlock`
 * (the block header carries the state root, which exists only once state N is committed);
 * the node then appends block N to the ledger in one synced batch. So the order is
 * *state first, then ledger*, and the only window a kill -9 can hit leaves the state at
 * most one block ahead of the ledger. Rule on start:
 *
 * - the state store's root is the state root of the ledger's head block: continue;
 * - anything else — the state one block ahead (the crash hit the window), or behind or
 *   diverged (which the order above never produces, but a lost disk write could): the block
 *   in the window was never recorded and never served (RPC reads state at the ledger's head
 *   height, and heads/events/receipts are published only after the ledger append), so the
 *   state store is discarded, re-created at genesis, and the ledger's blocks are
 *   re-executed into it (`applyBlock`), each resulting hash checked against the ledger's.
 *
 * The ledger is therefore the source of truth: a block is committed once its ledger
 * append returns, and it is never lost afterwards.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
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
  type TimerView,
  type TxView,
} from "@cowboy/rpc";
import {
  type Block,
  type BlockHeader,
  blockHash,
  bytesEqual,
  decodeBlock,
  decodeReceipt,
  actorAddress as deriveActorAddress,
  encodeBlock,
  encodeReceipt,
  encodeTransaction,
  signTransaction,
  type Transaction,
  toHex,
  zeroSignature,
} from "@cowboy/sdk";
import { type BlockRecord, Ledger } from "../ledger/index.ts";
import { Mempool, MempoolError, type PoolTx } from "../mempool/index.ts";
import { CELLS_TARGET, CYCLES_TARGET, LANES } from "../params.ts";
import type { Chain } from "../stf/index.ts";
import {
  accountKey,
  encodeAccount,
  PROTOCOL_ADDRESS,
  storageKey,
  systemKey,
  TABLE,
  VM_NS_PVM,
} from "../stf/state-keys.ts";
import type { BlockResult, CheckedTx, GenesisConfig } from "../stf/types.ts";
import { DEV_ACCOUNT_BALANCE, type DevKeys, deriveDevKeys, FAUCET_BALANCE } from "./accounts.ts";
import type { BlockTime, DevnetConfig } from "./config.ts";
import { readGenesisFile, writeGenesisFile } from "./genesis-file.ts";
import type { Logger } from "./logger.ts";
import { type DevnetMetrics, METRICS_CONTENT_TYPE } from "./metrics.ts";

/** The state store of the devnet, opened on a directory, able to start the STF over itself. */
export interface StateHandle {
  /** committed version (0 = empty store) */
  version(): bigint;
  /** root of the committed version */
  root(): Uint8Array;
  /**
   * The STF over this store: an empty store gets `genesis` committed; a non-empty one
   * resumes at `head`, the header of the block its committed state belongs to.
   */
  createChain(genesis: GenesisConfig, head: BlockHeader | undefined): Chain;
  /**
   * Keys of the latest state starting with `prefix`, ascending, at most `limit` (for listings
   * such as an actor's timers); a store without prefix scans leaves it out.
   */
  scanKeys?(prefix: Uint8Array, limit: number): Uint8Array[];
  close(): void;
}

/** Opens (creating if needed) the state store in `dir`. */
export type OpenState = (dir: string) => StateHandle;

export interface DevnetDeps {
  openState: OpenState;
  logger?: Logger | null;
  metrics?: DevnetMetrics | null;
  /** wall clock in ms (block timestamps, rates); default Date.now */
  now?: () => number;
}

/** A transaction in the mempool: the pool's view plus what building a block needs. */
/**
 * On demand, how long block production waits after a block when transactions arrived while
 * it was produced (see `DevnetNode.requestBlock`); an idle chain does not wait.
 */
export const ON_DEMAND_GATHER_MS = 2;

interface PendingTx extends PoolTx {
  readonly bytes: Uint8Array;
  readonly tx: Transaction;
}

export class DevnetError extends Error {
  readonly code: string;
  readonly data: Record<string, string>;
  constructor(code: string, message: string, data: Record<string, string> = {}) {
    super(message);
    this.name = "DevnetError";
    this.code = code;
    this.data = data;
  }
}

/** The faucet's default and largest payout: 100 CBY and 10,000 CBY. */
export const FAUCET_DEFAULT = 100_000_000_000n;
export const FAUCET_MAX = 10_000_000_000_000n;

const ZERO_ADDRESS = new Uint8Array(20);

function laneOrder(picked: Record<(typeof LANES)[number], PendingTx[]>): PendingTx[] {
  return LANES.flatMap((lane) => picked[lane]);
}

/** Transaction rejection codes answered as -32003 (transaction rejected). */
function domainErrorCode(code: string): number {
  return code.startsWith("ERR_MEMPOOL_") || code.startsWith("ERR_TX_")
    ? RpcErrorCode.TRANSACTION_REJECTED
    : RpcErrorCode.SERVER_ERROR;
}

export class DevnetNode implements ChainBackend, DevBackend {
  readonly config: DevnetConfig;
  readonly keys: DevKeys;
  readonly chainId: bigint;
  readonly faucetMax = FAUCET_MAX;
  readonly faucetDefault = FAUCET_DEFAULT;
  private readonly deps: Required<Pick<DevnetDeps, "openState" | "now">> & {
    logger: Logger | null;
    metrics: DevnetMetrics | null;
  };
  private readonly ledger: Ledger;
  private readonly state: StateHandle;
  private readonly chainApi: Chain;
  private readonly mempool: Mempool<PendingTx>;
  readonly hub: SubscriptionHub;
  private server: RpcServer | null = null;
  private urls: { http: string; ws: string } | null = null;
  /** decoded blocks by height, newest few */
  private readonly blockCache = new Map<bigint, BlockView>();
  private timer: NodeJS.Timeout | null = null;
  private producing: Promise<void> | null = null;
  /** on-demand mode: a block is queued (microtask) or gathering (timer), not yet started */
  private demandQueued = false;
  private gatherTimer: ReturnType<typeof setTimeout> | null = null;
  /** on-demand mode: transactions were admitted while a block was being produced */
  private demandDuringBlock = false;
  /** transactions in the last block produced */
  private lastBlockTxs = 0;
  private stopped = false;
  /** set when a block could not be recorded: production stops until a restart */
  private halted: Error | null = null;
  /**
   * `cowboy_getTimers`: pending timers whose target (or owner) is `actor`, by fire height.
   * Present only when the state store can scan keys (the timer index is scanned).
   */
  readonly timers?: (actor: Uint8Array) => TimerView[];
  private basefeeCache: { head: BlockHeader; fees: { cycle: bigint; cell: bigint } } | null = null;

  private constructor(
    config: DevnetConfig,
    keys: DevKeys,
    genesis: GenesisConfig,
    ledger: Ledger,
    state: StateHandle,
    chain: Chain,
    deps: DevnetNode["deps"],
  ) {
    this.config = config;
    this.keys = keys;
    this.chainId = genesis.chainId;
    this.ledger = ledger;
    this.state = state;
    this.chainApi = chain;
    this.deps = deps;
    this.mempool = new Mempool<PendingTx>({}, { metrics: deps.metrics?.mempool() ?? null });
    this.hub = new SubscriptionHub({ eventFilter: eventPredicate });
    const scan = state.scanKeys?.bind(state);
    if (scan !== undefined) this.timers = (actor) => this.timersOf(actor, scan);
  }

  /** Most pending timers (chain-wide) one listing scans. */
  static readonly MAX_TIMER_SCAN = 100_000;

  private timersOf(
    actor: Uint8Array,
    scan: (prefix: Uint8Array, limit: number) => Uint8Array[],
  ): TimerView[] {
    // The STF's timer index (id → bucket position) lists every pending timer id.
    const prefix = systemKey(PROTOCOL_ADDRESS, TABLE.timerIndex);
    const keys = scan(prefix, DevnetNode.MAX_TIMER_SCAN + 1);
    if (keys.length > DevnetNode.MAX_TIMER_SCAN) {
      throw new DevnetError(
        "ERR_DEVNET_TOO_MANY_TIMERS",
        `more than ${DevnetNode.MAX_TIMER_SCAN} timers are pending on the chain; the devnet does not list them`,
      );
    }
    const out: TimerView[] = [];
    for (const key of keys) {
      const timer = this.chain.getTimer(key.subarray(prefix.length));
      if (timer === null) continue;
      if (!bytesEqual(timer.target, actor) && !bytesEqual(timer.owner, actor)) continue;
      out.push({
        id: timer.id,
        actor: timer.target,
        fireAt: timer.fireAt,
        handler: timer.handler,
        interval: timer.interval,
        data: timer.data,
      });
    }
    return out.sort((a, b) => (a.fireAt < b.fireAt ? -1 : a.fireAt > b.fireAt ? 1 : 0));
  }

  /**
   * Opens (or creates) the chain in `config.dataDir`, reconciles state and ledger after a
   * crash (see the module comment), and returns a node that is not producing yet.
   */
  static async open(config: DevnetConfig, depsIn: DevnetDeps): Promise<DevnetNode> {
    const deps = {
      openState: depsIn.openState,
      now: depsIn.now ?? Date.now,
      logger: depsIn.logger ?? null,
      metrics: depsIn.metrics ?? null,
    };
    const openLedger = async (): Promise<Ledger> => {
      try {
        return await Ledger.open(join(config.dataDir, "ledger"));
      } catch (err) {
        const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
        throw new DevnetError(
          "ERR_DEVNET_DATA_DIR",
          `cannot open the ledger in ${config.dataDir} (${cause}); is another devnet running on this directory?`,
        );
      }
    };
    if (config.reset) {
      // never delete a directory a running devnet holds: its ledger lock must be free
      if (existsSync(join(config.dataDir, "ledger"))) await (await openLedger()).close();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
    mkdirSync(config.dataDir, { recursive: true });
    const keys = deriveDevKeys(config.accounts);
    let genesis = readGenesisFile(config.dataDir);
    if (genesis === null) {
      genesis = {
        chainId: config.chainId,
        timestampMs: BigInt(deps.now()),
        accounts: [
          ...keys.accounts.map((k) => ({ address: k.address, balance: DEV_ACCOUNT_BALANCE })),
          { address: keys.faucet.address, balance: FAUCET_BALANCE },
        ],
      };
      writeGenesisFile(config.dataDir, genesis);
    } else if (genesis.chainId !== config.chainId) {
      deps.logger?.warn(
        { stored: String(genesis.chainId), requested: String(config.chainId) },
        "the data directory holds another chain id; continuing it (use --reset for a new chain)",
      );
    }
    const ledger = await openLedger();
    let opened: { state: StateHandle; chain: Chain };
    try {
      opened = await DevnetNode.openChainState(config.dataDir, genesis, ledger, deps);
    } catch (err) {
      await ledger.close();
      throw err;
    }
    const node = new DevnetNode(config, keys, genesis, ledger, opened.state, opened.chain, deps);
    try {
      await node.catchUp();
    } catch (err) {
      node.state.close();
      await ledger.close();
      throw err;
    }
    deps.metrics?.height.set(node.head().height);
    const fees = node.nextBasefees();
    deps.metrics?.onBasefees(fees.cycle, fees.cell);
    return node;
  }

  private get chain(): Chain {
    return this.chainApi;
  }

  /**
   * Opens the state store and the STF over it, resuming at the ledger's head when the
   * store's root is the head's state root; otherwise (state ahead of the ledger after a
   * crash, or diverged) the store is discarded and re-created at genesis, and
   * {@link catchUp} re-executes the ledger into it.
   */
  private static async openChainState(
    dataDir: string,
    genesis: GenesisConfig,
    ledger: Ledger,
    deps: DevnetNode["deps"],
  ): Promise<{ state: StateHandle; chain: Chain }> {
    const dir = join(dataDir, "state");
    const state = deps.openState(dir);
    try {
      if (state.version() === 0n) return { state, chain: state.createChain(genesis, undefined) };
      const head = ledger.head();
      const record = head === null ? null : await ledger.blockByHeight(head.height);
      const header = record === null ? null : decodeBlock(record.block).header;
      if (header !== null && bytesEqual(header.stateRoot, state.root())) {
        return { state, chain: state.createChain(genesis, header) };
      }
      deps.logger?.warn(
        { stateVersion: String(state.version()), ledgerHeight: head === null ? null : String(head.height) },
        "the state store is ahead of (or diverged from) the ledger after a crash; rebuilding it from the ledger",
      );
    } catch (err) {
      state.close();
      throw err;
    }
    state.close();
    rmSync(dir, { recursive: true, force: true });
    const fresh = deps.openState(dir);
    try {
      return { state: fresh, chain: fresh.createChain(genesis, undefined) };
    } catch (err) {
      fresh.close();
      throw err;
    }
  }

  /**
   * Records genesis in an empty ledger, checks the genesis block against the ledger's, and
   * re-executes ledger blocks the state has not seen (checking every resulting hash).
   */
  private async catchUp(): Promise<void> {
    const log = this.deps.logger;
    const ledgerHead = this.ledger.head();
    if (ledgerHead === null) {
      const header = this.chain.head;
      if (header.height !== 0n) {
        throw new DevnetError("ERR_DEVNET_STATE", "empty ledger but the state is past genesis");
      }
      await this.ledger.append(this.record({ header, transactions: [] }, blockHash(header), []));
      log?.info({ hash: toHex(blockHash(header)) }, "new chain: genesis recorded");
      return;
    }
    if (this.chain.head.height === 0n) {
      const genesisHash = await this.ledger.hashAt(0n);
      if (genesisHash === null || !bytesEqual(genesisHash, blockHash(this.chain.head))) {
        throw new DevnetError(
          "ERR_DEVNET_GENESIS_MISMATCH",
          "the ledger's genesis block differs from the one genesis.json gives; the data directory is inconsistent (use --reset)",
        );
      }
    }
    const from = this.chain.head.height + 1n;
    for (let h = from; h <= ledgerHead.height; h++) {
      const record = await this.ledger.blockByHeight(h);
      if (record === null)
        throw new DevnetError("ERR_DEVNET_LEDGER_GAP", `block ${h} is missing from the ledger`);
      const result = this.chain.applyBlock(decodeBlock(record.block));
      if (!bytesEqual(result.hash, record.hash)) {
        throw new DevnetError(
          "ERR_DEVNET_REPLAY_MISMATCH",
          `re-executing block ${h} gave hash ${toHex(result.hash)}, the ledger has ${toHex(record.hash)}`,
        );
      }
    }
    if (from <= ledgerHead.height) {
      log?.info(
        { from: String(from), to: String(ledgerHead.height) },
        "re-executed ledger blocks into the state",
      );
    }
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

  // ---------------------------------------------------------------------------------------
  // Running

  /** Starts the RPC server and block production; resolves to the URLs served. */
  async start(): Promise<{ http: string; ws: string }> {
    const dispatcher = new RpcDispatcher(
      [
        ...chainModules(
          this,
          { cyclesTarget: CYCLES_TARGET, cellsTarget: CELLS_TARGET },
          { backend: this, options: {} },
        ),
        this.hub,
      ],
      { domainErrorCode, logger: this.deps.logger },
    );
    const metrics = this.deps.metrics;
    this.server = new RpcServer(
      {
        dispatcher,
        logger: this.deps.logger,
        metrics:
          metrics === null
            ? null
            : { contentType: METRICS_CONTENT_TYPE, text: () => metrics.registry.text() },
      },
      { host: this.config.rpcHost, port: this.config.rpcPort },
    );
    this.urls = await this.server.start();
    this.schedule(this.config.blockTime);
    return this.urls;
  }

  private schedule(bt: BlockTime): void {
    if (this.stopped || this.halted !== null) return;
    if (bt.kind === "interval") {
      this.timer = setTimeout(() => this.tick(), bt.ms);
    } else if (bt.kind === "instant") {
      this.timer = setTimeout(() => this.tick(), 0);
    }
    // on-demand: produce() is triggered by incoming transactions
  }

  private tick(): void {
    this.timer = null;
    void this.produce().finally(() => this.schedule(this.config.blockTime));
  }

  /**
   * Produces one block now (waits for one in progress first); resolves when it is recorded.
   * In on-demand mode nothing is produced while the mempool is empty.
   */
  async produce(): Promise<void> {
    while (this.producing !== null) await this.producing;
    if (this.stopped || this.halted !== null) return;
    // on demand, a block only for waiting transactions (an earlier block may have taken them all)
    if (this.config.blockTime.kind === "on-demand" && this.mempool.size === 0) return;
    this.demandDuringBlock = false;
    this.lastBlockTxs = 0;
    const run = this.produceOne().catch((err: unknown) => {
      this.deps.logger?.error({ err }, "block production failed");
    });
    this.producing = run;
    try {
      await run;
    } finally {
      this.producing = null;
      this.afterOnDemandBlock();
    }
  }

  /**
   * On demand (`--block-time auto`), a transaction arriving while no block is in progress gets
   * one right away (an idle chain answers at once). One arriving while a block is produced
   * waits for it, and then for {@link ON_DEMAND_GATHER_MS} more, so that under load the next
   * block takes everything that came in meanwhile: fewer, larger blocks, each block's fixed
   * cost (state commit, synced ledger write, head notifications) spread over more transactions.
   */
  private requestBlock(): void {
    if (this.producing !== null) {
      this.demandDuringBlock = true;
      return;
    }
    if (this.demandQueued || this.gatherTimer !== null) return;
    this.demandQueued = true;
    queueMicrotask(() => {
      this.demandQueued = false;
      void this.produce();
    });
  }

  private afterOnDemandBlock(): void {
    if (this.config.blockTime.kind !== "on-demand" || this.stopped || this.halted !== null) return;
    // transactions that came in during the block, or that the block had no room for
    const more = this.demandDuringBlock || (this.lastBlockTxs > 0 && this.mempool.size > 0);
    this.demandDuringBlock = false;
    if (!more || this.gatherTimer !== null || this.demandQueued) return;
    this.gatherTimer = setTimeout(() => {
      this.gatherTimer = null;
      void this.produce();
    }, ON_DEMAND_GATHER_MS);
  }

  private accountNonce = (sender: string): bigint =>
    this.chain.getAccount(Buffer.from(sender.slice(2), "hex"))?.nonce ?? 0n;

  private async produceOne(): Promise<void> {
    const chain = this.chain;
    const basefee = this.nextBasefees();
    const picked = laneOrder(
      this.mempool.select({ basefee, accountNonce: this.accountNonce, laneBudget: chain.txLaneBudgets() }),
    );
    const parent = chain.head;
    const now = BigInt(this.deps.now());
    const timestampMs = now > parent.timestampMs ? now : parent.timestampMs + 1n;
    const started = performance.now();
    // the pool's entries carry checkTx's decoded transactions: not decoded or verified again
    this.lastBlockTxs = picked.length;
    const result = chain.buildBlock(
      picked.map((t) => ({ tx: t.tx, bytes: t.bytes })),
      { timestampMs, proposer: this.keys.validator.address },
    );
    const record = this.record(result.block, result.hash, result.receipts);
    try {
      await this.ledger.append(record);
    } catch (err) {
      // The state holds a block the ledger does not: stop producing; a restart reconciles.
      this.halted = err as Error;
      this.deps.logger?.error(
        { err, height: String(result.block.header.height) },
        "could not record the block in the ledger; block production halted (restart the node to recover)",
      );
      throw err;
    }
    const seconds = (performance.now() - started) / 1000;
    // The block is committed. Everything below is bookkeeping and notification.
    const senders = new Set(picked.map((t) => t.sender));
    for (const s of result.skipped) {
      const dropped = this.mempool.remove(toHex(s.hash));
      if (dropped !== undefined) senders.add(dropped.sender);
      this.deps.logger?.info(
        { tx: toHex(s.hash), code: s.error.code },
        `dropped transaction: ${s.error.message}`,
      );
    }
    this.mempool.prune(this.accountNonce, senders);
    const header = result.block.header;
    const txCount = result.block.transactions.length;
    const view = this.viewOf(result.block, result.hash, record);
    this.cacheBlock(view);
    this.deps.metrics?.onBlock(
      {
        height: header.height,
        txs: txCount,
        seconds,
        cyclesUsed: header.cyclesUsed,
        cellsUsed: header.cellsUsed,
      },
      this.deps.now(),
    );
    const next = this.nextBasefees();
    this.deps.metrics?.onBasefees(next.cycle, next.cell);
    this.deps.logger?.info(
      {
        height: String(header.height),
        hash: toHex(result.hash),
        txs: txCount,
        receipts: result.receipts.length,
        ms: Math.round(seconds * 1000),
      },
      "block",
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
            height: header.height,
            blockHash: result.hash,
            txHash: r.txHash,
            txIndex,
            logIndex,
          }),
        );
      });
    });
  }

  /** Stops production, waits for a block in progress, closes RPC, ledger and state. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.gatherTimer !== null) clearTimeout(this.gatherTimer);
    this.gatherTimer = null;
    while (this.producing !== null) await this.producing;
    await this.server?.close();
    await this.ledger.close();
    this.state.close();
  }

  get rpcUrls(): { http: string; ws: string } | null {
    return this.urls;
  }

  // ---------------------------------------------------------------------------------------
  // ChainBackend

  head(): { height: bigint; hash: Uint8Array } {
    const h = this.ledger.head();
    if (h === null) throw new DevnetError("ERR_DEVNET_STATE", "the ledger is empty");
    return h;
  }

  finalizedHeight(): bigint {
    return this.head().height; // one validator: every block is final when recorded
  }

  nextBasefees(): { cycle: bigint; cell: bigint } {
    // They change only with the head; computing them reads governance state, so cache per head.
    const head = this.chain.head;
    if (this.basefeeCache === null || this.basefeeCache.head !== head) {
      this.basefeeCache = { head, fees: this.chain.nextBasefees() };
    }
    return this.basefeeCache.fees;
  }

  pendingCount(): number {
    return this.mempool.size;
  }

  private viewOf(block: Block, hash: Uint8Array, record: BlockRecord): BlockView {
    return {
      hash,
      block,
      txHashes: record.txHashes.slice(0, block.transactions.length),
      size: record.block.length,
    };
  }

  private cacheBlock(view: BlockView): void {
    this.blockCache.set(view.block.header.height, view);
    if (this.blockCache.size > 256) {
      const oldest = this.blockCache.keys().next().value;
      if (oldest !== undefined) this.blockCache.delete(oldest);
    }
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
    const nonce = this.chain.getAccount(address)?.nonce ?? 0n;
    return this.mempool.pendingNonce(toHex(address), nonce);
  }

  code(address: Uint8Array, height: bigint): Uint8Array | null {
    const a = this.chain.getAccount(address, height);
    if (a === null || a.codeHash === null) return null;
    const source = this.chain.getCode(address);
    return source === null ? null : new TextEncoder().encode(source);
  }

  private async stateRootAt(height: bigint): Promise<Uint8Array> {
    const view = await this.blockByHeight(height);
    if (view === null) throw new DevnetError("ERR_DEVNET_UNKNOWN_BLOCK", `block ${height} is not recorded`);
    return view.block.header.stateRoot;
  }

  private async proven(key: Uint8Array, value: Uint8Array | null, height: bigint): Promise<ProvenRead> {
    const proof = this.chain.prove(key, height);
    if (proof === null) {
      throw new DevnetError("ERR_DEVNET_NO_PROOF", `the state store keeps no proof for block ${height}`);
    }
    return { key, value, proof, root: await this.stateRootAt(height), height };
  }

  storage(actor: Uint8Array, key: Uint8Array, height: bigint): Promise<ProvenRead> {
    const value = this.chain.getActorStorage(actor, key, height);
    return this.proven(storageKey(VM_NS_PVM, actor, key), value, height);
  }

  async accountProof(address: Uint8Array, height: bigint): Promise<ProvenRead> {
    const key = accountKey(address);
    const proof = this.chain.prove(key, height);
    if (proof === null) {
      throw new DevnetError("ERR_DEVNET_NO_PROOF", `the state store keeps no proof for block ${height}`);
    }
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

  /**
   * §2.2 checks for the mempool against the head state; a nonce ahead of the account's passes
   * (the pool queues it). The whole check runs again when the transaction is executed.
   */
  private checkForPool(bytes: Uint8Array): CheckedTx {
    return this.chain.checkTx(bytes, { futureNonce: true });
  }

  /** Checks and admits a signed transaction (shared by RPC and the faucet). */
  private admit(bytes: Uint8Array): Uint8Array {
    const checked = this.checkForPool(bytes);
    const { tx } = checked;
    const pending: PendingTx = {
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
    const accountNonce = checked.senderNonce ?? this.chain.getAccount(tx.from)?.nonce ?? 0n;
    const added = this.mempool.add(pending, { accountNonce, basefee: this.nextBasefees() });
    this.hub.publish("pendingTransactions", pending.hash);
    for (const e of added.evicted) this.deps.logger?.debug({ tx: e.hash }, "evicted from the mempool");
    if (this.config.blockTime.kind === "on-demand") this.requestBlock();
    return checked.hash;
  }

  async sendRawTransaction(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.stopped) throw new DevnetError("ERR_DEVNET_STOPPING", "the node is shutting down");
    if (this.halted !== null) {
      throw new DevnetError(
        "ERR_DEVNET_HALTED",
        `block production halted: ${this.halted.message}; restart the node`,
      );
    }
    return this.admit(bytes);
  }

  private estimateFor(tx: Transaction): FeeEstimate {
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

  private unsignedTx(
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
    if (height !== this.head().height) {
      throw new DevnetError("ERR_DEVNET_UNSUPPORTED", "calls are simulated against the latest block only");
    }
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

  async faucet(address: Uint8Array, amount: bigint): Promise<Uint8Array> {
    const faucet = this.keys.faucet;
    const draft = this.unsignedTx(faucet.address, { kind: "transfer", to: address, amount });
    const estimate = this.estimateFor(draft);
    const tx = signTransaction(
      {
        ...draft,
        nonce: this.pendingNonce(faucet.address),
        cyclesLimit: estimate.cyclesLimit,
        cellsLimit: estimate.cellsLimit,
      },
      faucet.secretKey,
    );
    try {
      return this.admit(encodeTransaction(tx));
    } catch (err) {
      if (err instanceof MempoolError) {
        throw new DevnetError("ERR_DEVNET_FAUCET", `the faucet could not send: ${err.message}`, {
          reason: err.code,
        });
      }
      throw err;
    }
  }

  devAccounts(): Array<{ address: Uint8Array; balance: bigint }> {
    return this.keys.accounts.map((k) => ({
      address: k.address,
      balance: this.chain.getAccount(k.address)?.balance ?? 0n,
    }));
  }
}
