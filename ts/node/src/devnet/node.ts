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
import { chainModules, RpcDispatcher, RpcServer, type TimerView } from "@cowboy/rpc";
import {
  type BlockHeader,
  blockHash,
  bytesEqual,
  decodeBlock,
  encodeTransaction,
  signTransaction,
  toHex,
} from "@cowboy/sdk";
import { Ledger } from "../ledger/index.ts";
import { Mempool, MempoolError } from "../mempool/index.ts";
import { CELLS_TARGET, CYCLES_TARGET, LANES } from "../params.ts";
import {
  type BackendErrors,
  domainErrorCode,
  NodeChainBackend,
  type PendingTx,
} from "../service/chain-backend.ts";
import type { Chain } from "../stf/index.ts";
import { PROTOCOL_ADDRESS, systemKey, TABLE } from "../stf/state-keys.ts";
import type { CheckedTx, GenesisConfig } from "../stf/types.ts";
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

/**
 * On demand, how long block production waits after a block when transactions arrived while
 * it was produced (see `DevnetNode.requestBlock`); an idle chain does not wait.
 */
export const ON_DEMAND_GATHER_MS = 2;

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

export { FAUCET_DEFAULT, FAUCET_MAX } from "../service/chain-backend.ts";

function laneOrder(picked: Record<(typeof LANES)[number], PendingTx[]>): PendingTx[] {
  return LANES.flatMap((lane) => picked[lane]);
}

/** The devnet's answers to the RPC reads {@link NodeChainBackend} serves. */
const DEVNET_ERRORS: BackendErrors = {
  emptyLedger: () => new DevnetError("ERR_DEVNET_STATE", "the ledger is empty"),
  noProof: (height) =>
    new DevnetError("ERR_DEVNET_NO_PROOF", `the state store keeps no proof for block ${height}`),
  unknownBlock: (height) => new DevnetError("ERR_DEVNET_UNKNOWN_BLOCK", `block ${height} is not recorded`),
  callHeight: () =>
    new DevnetError("ERR_DEVNET_UNSUPPORTED", "calls are simulated against the latest block only"),
};

export class DevnetNode extends NodeChainBackend {
  readonly config: DevnetConfig;
  readonly keys: DevKeys;
  private readonly deps: Required<Pick<DevnetDeps, "openState" | "now">> & {
    logger: Logger | null;
    metrics: DevnetMetrics | null;
  };
  private readonly state: StateHandle;
  private readonly chainApi: Chain;
  private server: RpcServer | null = null;
  private urls: { http: string; ws: string } | null = null;
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
    super({
      chainId: genesis.chainId,
      ledger,
      mempool: new Mempool<PendingTx>({}, { metrics: deps.metrics?.mempool() ?? null }),
      devKeys: keys,
      errors: DEVNET_ERRORS,
    });
    this.config = config;
    this.keys = keys;
    this.state = state;
    this.chainApi = chain;
    this.deps = deps;
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

  protected get chain(): Chain {
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
    // on demand, a block only for waiting work (an earlier block may have taken it all)
    if (this.config.blockTime.kind === "on-demand" && !this.hasWaitingWork()) return;
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
    const more =
      this.demandDuringBlock ||
      (this.lastBlockTxs > 0 && this.mempool.size > 0) ||
      this.chain.queuedJobResults().length > 0;
    this.demandDuringBlock = false;
    if (!more || this.gatherTimer !== null || this.demandQueued) return;
    this.gatherTimer = setTimeout(() => {
      this.gatherTimer = null;
      void this.produce();
    }, ON_DEMAND_GATHER_MS);
  }

  /** Transactions in the pool or runner results queued for delivery (`cowboy_deliverJobResult`). */
  private hasWaitingWork(): boolean {
    return this.mempool.size > 0 || this.chain.queuedJobResults().length > 0;
  }

  /** On demand, a queued runner result gets a block like a transaction does. */
  protected override jobResultQueued(): void {
    if (this.config.blockTime.kind === "on-demand") this.requestBlock();
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
    this.publishBlock(view, result.receipts);
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
  // ChainBackend (the rest is NodeChainBackend's)

  override nextBasefees(): { cycle: bigint; cell: bigint } {
    // They change only with the head; computing them reads governance state, so cache per head.
    const head = this.chain.head;
    if (this.basefeeCache === null || this.basefeeCache.head !== head) {
      this.basefeeCache = { head, fees: this.chain.nextBasefees() };
    }
    return this.basefeeCache.fees;
  }

  /** One validator: every block is final when recorded, and the store's head is the ledger's. */
  protected callHeight(): bigint {
    return this.head().height;
  }

  protected pendingStateHeight(): bigint | undefined {
    return undefined;
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
    const accountNonce = checked.senderNonce ?? this.chain.getAccount(tx.from)?.nonce ?? 0n;
    const added = this.addToPool(this.poolEntry(checked), accountNonce, this.nextBasefees());
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
}
