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
import { type BlockView, chainModules, RpcDispatcher, RpcServer } from "@cowboy/rpc";
import {
  blockHash,
  decodeWithSigningHash,
  encodeBlock,
  encodeTransaction,
  signTransaction,
  toHex,
} from "@cowboy/sdk";
import { deriveDevKeys } from "../devnet/accounts.ts";
import type { Logger } from "../devnet/logger.ts";
import { Ledger } from "../ledger/index.ts";
import { Mempool } from "../mempool/index.ts";
import { CELLS_TARGET, CYCLES_TARGET, LANES } from "../params.ts";
import {
  type BackendErrors,
  domainErrorCode,
  NodeChainBackend,
  type PendingTx,
} from "../service/chain-backend.ts";
import { type Chain, intrinsicCost, laneOf, StfError } from "../stf/index.ts";
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

export class ValidatorError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ValidatorError";
    this.code = code;
  }
}

/** A validator's answers to the RPC reads {@link NodeChainBackend} serves. */
const VALIDATOR_ERRORS: BackendErrors = {
  emptyLedger: () => new ValidatorError("ERR_VALIDATOR_STATE", "the ledger is empty"),
  noProof: (height) => new ValidatorError("ERR_VALIDATOR_NO_PROOF", `no proof kept for block ${height}`),
  unknownBlock: (height) => new ValidatorError("ERR_VALIDATOR_UNKNOWN_BLOCK", `block ${height} is not final`),
  callHeight: () =>
    new ValidatorError(
      "ERR_VALIDATOR_UNSUPPORTED",
      "calls are simulated against the newest executed block only",
    ),
};

export class ValidatorNode extends NodeChainBackend {
  readonly config: ValidatorNodeConfig;
  readonly app: ChainApplication;
  private running: RunningValidator | null = null;
  private server: RpcServer | null = null;
  private urls: { http: string; ws: string } | null = null;
  private appendQueue: Promise<void> = Promise.resolve();
  private readonly log: Logger | null;
  private stopped = false;
  /** transactions finalized by this node since start */
  committedTxs = 0;

  private constructor(config: ValidatorNodeConfig, ledger: Ledger) {
    super({
      chainId: config.genesis.chainId,
      ledger,
      mempool: new Mempool<PendingTx>(),
      // the development accounts and the faucet of the genesis (the devnet's mnemonic):
      // genesis = the dev accounts, then the faucet (as the localnet writes it)
      devKeys: deriveDevKeys(Math.max(0, config.genesis.accounts.length - 1)),
      errors: VALIDATOR_ERRORS,
    });
    this.config = config;
    this.log = config.logger ?? null;
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
        this.publishBlock(view, result.receipts);
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
    const chain = this.app.chain;
    this.addToPool(this.poolEntry(checked), chain.getAccount(tx.from)?.nonce ?? 0n, chain.nextBasefees());
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

  protected get chain(): Chain {
    return this.app.chain;
  }

  /** The store may run ahead of finality: calls simulate at its newest executed block. */
  protected callHeight(): bigint {
    return this.app.chain.head.height;
  }

  /** Pending nonces and dev balances are read at the newest finalized block. */
  protected pendingStateHeight(): bigint | undefined {
    return this.head().height;
  }

  // ----- DevBackend -----

  async faucet(address: Uint8Array, amount: bigint): Promise<Uint8Array> {
    const faucet = this.devKeys.faucet;
    const chain = this.app.chain;
    const draft = this.unsignedTx(
      faucet.address,
      { kind: "transfer", to: address, amount },
      { cycles: 21_000n, cells: 1_000n },
    );
    const tx = signTransaction(
      {
        ...draft,
        nonce: this.mempool.pendingNonce(
          toHex(faucet.address),
          chain.getAccount(faucet.address)?.nonce ?? 0n,
        ),
      },
      faucet.secretKey,
    );
    return this.admit(encodeTransaction(tx), true);
  }
}
