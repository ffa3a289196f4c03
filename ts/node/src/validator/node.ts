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
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  BlsScheme,
  decodeEvidence,
  type Equivocation,
  type Evidence,
  encodeEvidence,
  evidenceFromEquivocation,
  type Message,
  nativeValidatorCrypto,
  quorum,
  type ValidatorCrypto,
} from "@cowboy/consensus";
import { type RunningValidator, startValidator } from "@cowboy/p2p";
import { type BlockView, chainModules, RpcDispatcher, RpcServer } from "@cowboy/rpc";
import {
  addressFromSecretKey,
  blockHash,
  bytesEqual,
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
import type { Chain } from "../stf/index.ts";
import type { BlockResult, CheckedTx, GenesisConfig } from "../stf/types.ts";
import { ChainApplication, type FinalizedEntry } from "./app.ts";
import { decodeConsensusBlock, encodeConsensusBlock } from "./block.ts";
import type { ValidatorSettings } from "./config.ts";
import { ValidatorMetrics } from "./metrics.ts";
import { ValidatorRpcModule } from "./rpc.ts";

/**
 * Everything one validator process needs: the checked config file ({@link ValidatorSettings},
 * `readValidatorConfig`) plus a logger.
 */
export type ValidatorNodeConfig = Omit<ValidatorSettings, "logLevel"> & { readonly logger?: Logger | null };

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

/** `faults.equivocate` fires once this many blocks are final (every validator is voting by then). */
export const EQUIVOCATE_AFTER_HEIGHT = 5;

/** A further validator submits held evidence after this long per rank if the offender is still unpunished. */
export const EVIDENCE_FALLBACK_MS = 15_000;

/** Development accounts in a genesis: the accounts before the dev faucet (the localnet's layout). */
function devAccountCount(g: GenesisConfig): number {
  const faucet = deriveDevKeys(0).faucet.address;
  const i = g.accounts.findIndex((a) => bytesEqual(a.address, faucet));
  return i < 0 ? 0 : Math.min(i, 1_000);
}

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
  /** the validator's Prometheus series */
  readonly metrics = new ValidatorMetrics();
  private readonly scheme: BlsScheme;
  private readonly crypto: ValidatorCrypto;
  /** equivocation evidence known here, by `epoch:view:signer` */
  private readonly evidence = new Map<
    string,
    { evidence: Evidence; bytes: Uint8Array; submitted: boolean }
  >();
  private readonly evidenceTimers = new Set<ReturnType<typeof setTimeout>>();
  /** the fault injection of `faults.equivocate` has fired */
  equivocated = false;

  private constructor(config: ValidatorNodeConfig, ledger: Ledger) {
    super({
      chainId: config.genesis.chainId,
      ledger,
      mempool: new Mempool<PendingTx>(),
      // the development accounts and the faucet of the genesis (the devnet's mnemonic):
      // genesis = the dev accounts, then the faucet (as the localnet writes it)
      devKeys: deriveDevKeys(devAccountCount(config.genesis)),
      errors: VALIDATOR_ERRORS,
    });
    this.config = config;
    this.log = config.logger ?? null;
    const ledgerHead = ledger.head();
    this.scheme = new BlsScheme({
      chainId: config.genesis.chainId,
      publicKeys: config.validators.map((v) => v.blsPublicKey),
      proofs: config.validators.map((v) => v.proofOfPossession),
      group: config.group,
      signer: config.signer,
    });
    const scheme = this.scheme;
    this.crypto = nativeValidatorCrypto(config.genesis.chainId);
    this.app = new ChainApplication(
      {
        dataDir: config.dataDir,
        genesis: config.genesis,
        proposer: (config.validators[config.signer.index] as { address: Uint8Array }).address,
        validators: config.validators.map((v) => v.address),
        verifyCertificate: (cert) => scheme.verifyCertificate(cert),
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
    this.metrics.committedTxs.inc(txs.length);
    this.metrics.finalizedHeight.set(entry.height);
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

  /** Starts consensus (sync, voter), transaction and evidence gossip, the RPC server and metrics. */
  async start(): Promise<{ http: string; ws: string }> {
    const c = this.config;
    const scheme = this.scheme;
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
    const metrics = this.metrics;
    this.running = await startValidator({
      dataDir: c.dataDir,
      network: {
        chainId: c.chainName,
        listen: [...c.p2p.listen],
        bootstrap: [...c.p2p.bootstrap],
        validators: c.validators.map((v, index) => ({ index, peerId: v.peerId })),
        discoveryIntervalMs: 1_000,
        logger: p2pLogger,
        metrics: {
          peers: (n) => metrics.peers.set(n),
          messageIn: () => {},
          messageOut: () => {},
          penalty: () => {},
          banned: () => {},
        },
      },
      app: this.app,
      codec: {
        encode: (b) => encodeConsensusBlock(b as Parameters<typeof encodeConsensusBlock>[0]),
        decode: (bytes) => decodeConsensusBlock(bytes),
      },
      scheme,
      epoch: 0,
      genesisSeed: new Uint8Array(32),
      timeouts: c.timeouts,
      peerWaitMs: 3_000,
      onSyncProgress: (p) => log?.info({ height: p.height, target: p.target }, "block sync"),
      onFault: (e) => this.onEquivocation(e),
      metrics: metrics.voter,
      tap: metrics.tap,
      ...(c.faults.equivocate ? { outgoing: (m: Message) => this.equivocate(m) } : {}),
      logger: p2pLogger,
    });
    metrics.finalizedHeight.set(this.app.tip());
    this.running.node.onGossip("evidence", {
      validate: (bytes) => this.onEvidenceGossip(bytes),
      deliver: () => {},
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
        new ValidatorRpcModule({
          index: c.signer.index,
          status: () => ({
            view: this.running?.voter.currentView ?? 0,
            finalizedView: this.running?.voter.finalizedView ?? 0,
            finalizedHeight: this.app.tip(),
            evidence: this.evidence.size,
          }),
        }),
      ],
      { domainErrorCode, logger: log },
    );
    this.server = new RpcServer(
      { dispatcher, logger: log, metrics: c.metrics ? metrics : null },
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
    for (const t of this.evidenceTimers) clearTimeout(t);
    this.evidenceTimers.clear();
    await this.running?.stop();
    await this.server?.close();
    await this.appendQueue;
    await this.ledger.close();
    this.app.close();
  }

  // ----- equivocation: fault injection (tests only), evidence, submission -----

  /**
   * `faults.equivocate` (TESTING ONLY): the first notarize vote this validator sends once it is
   * connected to every other validator and {@link EQUIVOCATE_AFTER_HEIGHT} blocks are final goes
   * out together with a second notarize vote, validly signed, for a different block in the same
   * view — double signing, as an attacker would. Once per process start.
   */
  private equivocate(m: Message): readonly Message[] {
    if (this.equivocated || m.type !== "vote") return [m];
    const vote = m.vote;
    if (vote.kind !== "notarize" || vote.proposal === null) return [m];
    // once the network runs (every peer connected, a few blocks final): the others must see it
    if ((this.running?.node.connectedPeers().length ?? 0) < this.config.validators.length - 1) return [m];
    if (this.app.tip() < EQUIVOCATE_AFTER_HEIGHT) return [m];
    this.equivocated = true;
    const forged = {
      ...vote.proposal,
      payload: createHash("sha256")
        .update("cowboy-test-equivocation")
        .update(vote.proposal.payload)
        .digest("hex"),
    };
    this.log?.warn(
      { view: vote.round.view, epoch: vote.round.epoch },
      "TEST FAULT (faults.equivocate): signing a second, conflicting notarize vote",
    );
    return [
      m,
      {
        type: "vote",
        vote: {
          kind: "notarize",
          round: vote.round,
          proposal: forged,
          signer: vote.signer,
          signature: this.scheme.sign(vote.signer, "notarize", vote.round, forged),
        },
      },
    ];
  }

  /** The voter saw two conflicting statements of one validator: make, gossip and submit evidence. */
  private onEquivocation(e: Equivocation): void {
    const ev = evidenceFromEquivocation(e);
    if (ev === null) return;
    this.addEvidence(ev, encodeEvidence(ev), true);
  }

  /** BLS keys of epoch `epoch`'s set: the chain's registry when it has one, else the network file's (epoch 0). */
  private setKeys(epoch: number): Uint8Array[] | null {
    try {
      const set = this.app.chain.validatorSet(epoch);
      if (set.length > 0) return set.map((m) => m.blsKey);
    } catch {
      return null;
    }
    return epoch === 0 ? this.config.validators.map((v) => v.blsPublicKey) : null;
  }

  /** True if both statements of `ev` carry valid signatures of its signer. */
  private verifyEvidence(ev: Evidence): boolean {
    const keys = this.setKeys(ev.epoch);
    const crypto = this.crypto;
    const pk = keys?.[ev.signer];
    if (keys === null || pk === undefined) return false;
    return [ev.a, ev.b].every((s) => {
      if (s.signers === undefined)
        return crypto.verifyVote(pk, s.kind, ev.epoch, ev.view, s.height, s.block, s.signature);
      const signers = s.signers;
      const members = keys.filter((_, i) => (((signers[i >> 3] ?? 0) >> (i & 7)) & 1) === 1);
      const includes = (((signers[ev.signer >> 3] ?? 0) >> (ev.signer & 7)) & 1) === 1;
      if (!includes || members.length < quorum(keys.length) || signers.length > Math.ceil(keys.length / 8))
        return false;
      return crypto.verifyAggregate(members, s.kind, ev.epoch, ev.view, s.height, s.block, s.signature);
    });
  }

  /** Evidence gossip: verified evidence is accepted (and relayed); invalid bytes penalize the sender. */
  onEvidenceGossip(bytes: Uint8Array): "accept" | "ignore" | "reject" {
    let ev: Evidence;
    try {
      ev = decodeEvidence(bytes);
    } catch {
      return "reject";
    }
    if (this.evidence.has(`${ev.epoch}:${ev.view}:${ev.signer}`)) return "ignore";
    if (!this.verifyEvidence(ev)) return "reject";
    this.addEvidence(ev, bytes, false);
    return "accept";
  }

  /** Evidence known to this node (verified), newest last. */
  knownEvidence(): Evidence[] {
    return [...this.evidence.values()].map((e) => e.evidence);
  }

  private addEvidence(ev: Evidence, bytes: Uint8Array, publish: boolean): void {
    const key = `${ev.epoch}:${ev.view}:${ev.signer}`;
    if (this.evidence.has(key)) return;
    this.evidence.set(key, { evidence: ev, bytes, submitted: false });
    this.metrics.equivocations.inc();
    this.log?.warn(
      { offender: ev.signer, epoch: ev.epoch, view: ev.view, a: ev.a.kind, b: ev.b.kind },
      "equivocation detected",
    );
    if (publish && this.running !== null)
      this.running.node.publish("evidence", bytes).catch((err: unknown) => {
        this.log?.debug({ err: (err as Error).message }, "evidence gossip not sent");
      });
    // one submitter first: the validator after the offender; each further one waits longer and
    // submits only if the offender is not punished by then (the chain refuses a repeat anyway)
    const n = this.config.validators.length;
    const me = this.config.signer.index;
    if (me === ev.signer) return;
    const rank = (me - ev.signer - 1 + n) % n;
    const timer = setTimeout(() => {
      this.evidenceTimers.delete(timer);
      this.submitEvidence(key);
    }, rank * EVIDENCE_FALLBACK_MS);
    this.evidenceTimers.add(timer);
  }

  /** True if the chain shows `signer` (of the network file's set) jailed at its head. */
  private punished(signer: number): boolean {
    const v = this.config.validators[signer];
    if (v === undefined) return false;
    const rec = this.app.chain.validator(v.address);
    return rec !== null && BigInt(rec.jailedUntil) > this.app.chain.head.height;
  }

  /** Sends the evidence `key` on chain as a submitEvidence transaction signed by the operator account. */
  private submitEvidence(key: string): void {
    const item = this.evidence.get(key);
    if (this.stopped || item === undefined || item.submitted) return;
    if (this.punished(item.evidence.signer)) return;
    const sk = this.config.operatorSecretKey;
    const from = addressFromSecretKey(sk);
    const draft = this.unsignedTx(
      from,
      { kind: "submitEvidence", evidence: item.bytes },
      { cycles: 100_000n, cells: 10_000n },
    );
    const chain = this.app.chain;
    const nonce = this.mempool.pendingNonce(toHex(from), chain.getAccount(from)?.nonce ?? 0n);
    let bytes: Uint8Array;
    try {
      bytes = encodeTransaction(signTransaction({ ...draft, nonce }, sk));
    } catch (err) {
      this.log?.error(
        { err: (err as Error).message },
        "cannot encode a submitEvidence transaction (the codec lacks System/SubmitEvidence)",
      );
      return;
    }
    try {
      const hash = this.admit(bytes, true);
      item.submitted = true;
      this.metrics.evidenceSubmitted.inc();
      this.log?.info(
        { offender: item.evidence.signer, view: item.evidence.view, tx: toHex(hash) },
        "evidence submitted",
      );
    } catch (err) {
      this.log?.error({ err: (err as Error).message }, "the submitEvidence transaction was refused");
    }
  }

  // ----- mempool -----

  /**
   * §2.2 checks against the store's head; a future nonce is accepted if the balance covers it
   * (the chain's own admission rule, shared with the devnet: fee, value and a registration's stake).
   */
  private checkForPool(bytes: Uint8Array): CheckedTx {
    return this.app.chain.checkTx(bytes, { futureNonce: true });
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
