/**
 * {@link ValidatorNode}: one validator of a multi-validator Cowboy network — Simplex voters
 * over libp2p (block sync, signing journal) driving the state transition function through
 * {@link ChainApplication}, a mempool fed by JSON-RPC and by transaction gossip
 * (`/cowboy/<chain>/tx/1`), a ledger of finalized blocks (receipts, transaction and event
 * indexes) and the JSON-RPC server of the devnet (ts/rpc).
 *
 * Epochs: when the genesis carries a DKG output the chain has a validator set and threshold
 * group per epoch (`chain.epochGroup`), and the node runs one voter per epoch
 * ({@link EpochVoters}): at an epoch's last finalized block it switches to the next epoch's set
 * and group, voting with its share from the DKG driver (./dkg.ts, contract C4) when it is a
 * member that holds one, following otherwise. Without a DKG output one voter runs the network
 * file's set for the network's life.
 *
 * Joining validators: a node whose key the network file does not list (identity.networkIndex
 * null) starts as a follower. It announces `(address, BLS key, peer id)` signed with its BLS key on
 * the validator gossip topic (ts/p2p announce.ts) every {@link ANNOUNCE_EVERY_MS}; every node
 * binds an announced key to its peer once the chain's registry lists that key under that
 * address, so consensus messages reach the joiner and are accepted from it. A follower whose
 * finalized tip stops moving fetches the finalized chain by block sync every
 * {@link FOLLOW_SYNC_MS} (before it is registered nobody sends it consensus messages).
 *
 * Data directory: `p2p.key` (network identity), `votes.journal` (signed votes), `dkg/` (the
 * DKG driver's shares and ceremony state),
 * `finalized.log` (finalized blocks with their certificates: the consensus chain),
 * `state/` (QMDB store; may run a few blocks ahead of finality), `ledger/` (LevelDB, finalized
 * blocks only). RPC `latest` is the newest finalized block: every block served is final.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BlsScheme,
  DEFAULT_TIMEOUTS,
  decodeEvidence,
  type EpochPlan,
  EpochVoters,
  type Equivocation,
  type Evidence,
  encodeEvidence,
  epochsInUse,
  evidenceFromEquivocation,
  FileJournal,
  loadNative,
  type Message,
  type Network,
  nativeValidatorCrypto,
  quorum,
  type ValidatorCrypto,
  type Voter,
} from "@cowboy/consensus";
import {
  type AnnounceCrypto,
  AnnouncementVerifier,
  ConsensusNetwork,
  createNode,
  decodeAnnouncement,
  encodeAnnouncement,
  type P2pNode,
  serveBlockSync,
  signAnnouncement,
  syncFromPeers,
  systemClock,
  ValidatorDirectory,
} from "@cowboy/p2p";
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
import { TxGossipBatcher } from "../mempool/gossip.ts";
import { type TxGossipAdmission, TxGossipLimiter, validateTxGossip } from "../mempool/gossip-validate.ts";
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
import { decodeConsensusBlock, encodeConsensusBlock, PROPOSAL_MAX_TXS } from "./block.ts";
import type { ValidatorSettings } from "./config.ts";
import { type CeremonyRecord, DkgDriver, p2pDkgNetwork } from "./dkg.ts";
import { ValidatorMetrics } from "./metrics.ts";
import { ValidatorRpcModule } from "./rpc.ts";

/** Transaction gossip messages validated at once (each a batch signature check on every core). */
const TX_GOSSIP_ACTIVE = 2;
/** Transaction gossip messages waiting for validation; beyond that they are ignored (not relayed). */
const TX_GOSSIP_QUEUED = 16;

/** This node's threshold share for an epoch's group (contract C4: `DkgDriver.shareFor`). */
export interface EpochShares {
  /** the share for `chain.epochGroup(epoch)`, or null if this node holds none (it then follows) */
  shareFor(epoch: number): { index: number; share: Uint8Array } | null;
}

/**
 * The DKG driver as the node uses it (contract C4, `DkgDriver` of ./dkg.ts): told about every
 * finalized block, asked for this node's share of each epoch's group.
 */
export interface DkgHooks extends EpochShares {
  onFinalized(height: number): void;
  /**
   * The node's initial sync is over and transaction gossip is about to run (called once, before
   * the event loop turns again): a driver created with `waitForSync` starts sessions and submits
   * logs from the next finalized block on
   */
  ready?(): void;
}

/** What the node hands the factory of its DKG driver (the `DkgDriver` constructor's options). */
export interface DkgDriverContext {
  /** the node's chain (a getter: a state rebuild swaps the handle); its head may be ahead of finality */
  readonly chain: () => Chain;
  /**
   * Ceremony `n` as of the state after finalized block `height` (`ChainApplication.finalizedCeremony`):
   * what the driver uses to decide that its dealer log is on chain
   */
  readonly finalizedCeremony: (n: number, height: number) => CeremonyRecord | null;
  /** the p2p node (the driver adds its protocol) */
  readonly network: P2pNode;
  /** 32-byte BLS secret key */
  readonly secretKey: Uint8Array;
  /** 48-byte BLS public key */
  readonly blsKey: Uint8Array;
  /** puts a dealer log on chain (a `dkgLog` transaction signed by the operator account) */
  readonly submitLog: (ceremony: number, log: Uint8Array) => Promise<void>;
  readonly dataDir: string;
  /** the genesis share from the key file (the share of ceremony 0's output) */
  readonly genesisShare: { index: number; share: Uint8Array } | null;
  /**
   * height of the finalized tip when the node starts: a node restarted after a ceremony's
   * last block became final derives its share at once, without waiting for another block
   */
  readonly finalizedHeight: number;
  readonly logger: Logger | null;
}

/**
 * Everything one validator process needs: the checked config file ({@link ValidatorSettings},
 * `readValidatorConfig`) plus a logger and, optionally, the DKG driver's factory: default
 * {@link DkgDriver} (./dkg.ts); null runs none (then only groups of the genesis ceremony have a
 * share here, from the key file: after a resharing the node follows). Used only when the chain
 * has a group per epoch.
 */
export type ValidatorNodeConfig = Omit<ValidatorSettings, "logLevel"> & {
  readonly logger?: Logger | null;
  readonly dkgDriver?: ((ctx: DkgDriverContext) => DkgHooks) | null;
};

/** The default DKG driver factory: {@link DkgDriver} over the p2p node's DKG protocol. */
export function defaultDkgDriver(ctx: DkgDriverContext): DkgHooks {
  return new DkgDriver({
    chain: () => ctx.chain(),
    finalizedCeremony: ctx.finalizedCeremony,
    network: p2pDkgNetwork(ctx.network, ctx.logger),
    secretKey: ctx.secretKey,
    blsKey: ctx.blsKey,
    submitLog: ctx.submitLog,
    dataDir: ctx.dataDir,
    genesisShare: ctx.genesisShare,
    finalizedHeight: ctx.finalizedHeight,
    logger: ctx.logger,
    waitForSync: true, // the node calls `ready()` after its initial sync
  });
}

/** Reads the LEB128 index at the start of a threshold share (`varint index ‖ scalar`), or null. */
export function shareIndexOf(share: Uint8Array): number | null {
  let value = 0;
  for (let i = 0; i < 5 && i < share.length; i++) {
    const b = share[i] as number;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return i > 0 && b === 0 ? null : value;
  }
  return null;
}

/** The consensus side of a running validator: p2p node, journal and the per-epoch voters. */
interface Consensus {
  readonly node: P2pNode;
  readonly journal: FileJournal;
  readonly voters: EpochVoters;
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

/** `faults.equivocate` fires once this many blocks are final (every validator is voting by then). */
export const EQUIVOCATE_AFTER_HEIGHT = 5;

/** A further validator submits held evidence after this long per rank if the offender is still unpunished. */
export const EVIDENCE_FALLBACK_MS = 15_000;

/** A joining validator re-publishes its peer announcement this often. */
export const ANNOUNCE_EVERY_MS = 2_000;

/**
 * `<dataDir>/announcements.json`: the newest verified announcement of each announced validator
 * bound here (hex), re-checked and bound again at start, before any consensus traffic arrives
 * (a restarted node would otherwise refuse — and penalize — a joined validator's consensus
 * frames until its next announcement).
 */
export const ANNOUNCEMENTS_FILE = "announcements.json";

/** A follower whose finalized tip did not move for this long runs block sync. */
export const FOLLOW_SYNC_MS = 1_000;

/** The addon's namespaced BLS signatures (announcements). */
function announceCrypto(): AnnounceCrypto {
  const x = loadNative();
  return {
    sign: (sk, ns, msg) => x.blsSignNamespaced(Buffer.from(sk), Buffer.from(ns), Buffer.from(msg)),
    verify: (pk, ns, msg, sig) =>
      x.blsVerifyNamespaced(Buffer.from(pk), Buffer.from(ns), Buffer.from(msg), Buffer.from(sig)),
  };
}

/** Development accounts in a genesis: the accounts before the dev faucet (the localnet's layout). */
function devAccountCount(g: GenesisConfig): number {
  const faucet = deriveDevKeys(0).faucet.address;
  const i = g.accounts.findIndex((a) => bytesEqual(a.address, faucet));
  return i < 0 ? 0 : Math.min(i, 1_000);
}

export class ValidatorNode extends NodeChainBackend {
  readonly config: ValidatorNodeConfig;
  readonly app: ChainApplication;
  private running: Consensus | null = null;
  /** the DKG driver (null without a factory) */
  private dkg: DkgHooks | null = null;
  /** the chain has a group per epoch (genesis `dkgOutput`): one voter per epoch */
  readonly epochs: boolean;
  /** verifier schemes of recent epochs (epoch mode), and signing ones by epoch */
  private readonly verifiers = new Map<number, BlsScheme>();
  private readonly signers = new Map<number, BlsScheme>();
  /** a block sync to catch up with a later epoch is running / last started (ms) / scheduled */
  private catchingUp = false;
  private catchUpAt = 0;
  private catchUpTimer: ReturnType<typeof setTimeout> | null = null;
  /** re-checks, while following an epoch as a member, whether this node got its share */
  private shareTimer: ReturnType<typeof setInterval> | null = null;
  /** publishes this joining validator's announcement; block sync while following */
  private announceTimer: ReturnType<typeof setInterval> | null = null;
  private followTimer: ReturnType<typeof setInterval> | null = null;
  /** the finalized tip at the last follow check */
  private followTip = -1;
  /** peer index ↔ BLS key ↔ peer id: the network file's validators, then announced ones */
  readonly directory: ValidatorDirectory;
  /** checks validator announcements (null before start) */
  announcements: AnnouncementVerifier | null = null;
  /**
   * A joining validator sends consensus messages only once the chain lists its key (peers drop
   * and penalize consensus frames of unknown peers): since when (ms) it is registered here.
   */
  private registeredAt: number | null = null;
  /** the announcements bound here, by BLS key (hex), as saved in {@link ANNOUNCEMENTS_FILE} */
  private readonly savedAnnouncements = new Map<string, string>();
  private server: RpcServer | null = null;
  private urls: { http: string; ws: string } | null = null;
  private appendQueue: Promise<void> = Promise.resolve();
  /** transactions admitted from clients, gossiped in batches (mempool/gossip.ts) */
  private txGossip: TxGossipBatcher | null = null;
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
    // a DKG group's share indices are the keys' positions in key order (the DKG sorts its players)
    const hexKeys = config.validators.map((v) => Buffer.from(v.blsPublicKey).toString("hex"));
    const sorted = [...hexKeys].sort();
    this.directory = new ValidatorDirectory(
      config.validators.map((v) => ({ blsKey: v.blsPublicKey, peerId: v.peerId })),
      undefined,
      () => this.keysInUse(),
    );
    this.scheme = new BlsScheme({
      chainId: config.genesis.chainId,
      publicKeys: config.validators.map((v) => v.blsPublicKey),
      proofs: config.validators.map((v) => v.proofOfPossession),
      group: config.group,
      ...(config.identity.networkIndex === null || config.signer.share.length === 0
        ? {}
        : { signer: config.signer }),
      ...(config.dkgOutput === null ? {} : { shareIndices: hexKeys.map((k) => sorted.indexOf(k)) }),
    });
    const scheme = this.scheme;
    this.crypto = nativeValidatorCrypto(config.genesis.chainId);
    // set before the application opens: its constructor may re-execute the finalized blocks,
    // and their participants (downtime accounting, part of the state) are consensus indices of
    // each epoch's set only with `epochSets` true (read as undefined = false before, a rebuild
    // credited a registered joiner's votes differently than live execution: a state-root mismatch)
    this.epochs = config.genesis.dkgOutput !== undefined;
    this.app = new ChainApplication(
      {
        dataDir: config.dataDir,
        genesis: config.genesis,
        proposer: config.identity.address,
        validators: config.validators.map((v) => v.address),
        verifyCertificate: (cert) =>
          this.epochs
            ? (this.verifierFor(cert.round.epoch)?.verifyCertificate(cert) ?? false)
            : scheme.verifyCertificate(cert),
        epochSets: () => this.epochs,
        candidates: (chain) => {
          const picked = this.mempool.select({
            basefee: chain.nextBasefees(),
            accountNonce: (s) => chain.getAccount(Buffer.from(s.slice(2), "hex"))?.nonce ?? 0n,
            laneBudget: chain.txLaneBudgets(),
            maxTxs: PROPOSAL_MAX_TXS,
          });
          // the pool's entries are checkTx's { tx, bytes }: buildBlock neither decodes nor verifies them again
          return LANES.flatMap((l) => picked[l]);
        },
        onFinalized: (entry, result) => this.onFinalized(entry, result),
        logger: this.log,
      },
      ledgerHead === null ? 1 : Number(ledgerHead.height) + 1,
    );
  }

  /** Blocks per epoch of the chain. */
  get epochBlocks(): number {
    return this.app.chain.validatorParams().epochBlocks;
  }

  /**
   * The verifier scheme of `epoch`: the chain's group and set of that epoch (epoch mode), the
   * network file's for epoch 0 otherwise; null if unknown (not decided yet, not final here
   * yet, or pruned).
   */
  verifierFor(epoch: number): BlsScheme | null {
    if (!this.epochs) return epoch === 0 ? this.scheme : null;
    // The group of `epoch` is decided by blocks up to the last one of `epoch − 1`; until that
    // block is final here, the store's head may be a branch that loses, so the answer (and
    // above all the cache) would not be trustworthy: unknown for now.
    if (epoch > 0 && this.app.tip() < epoch * this.epochBlocks - 1) return null;
    const cached = this.verifiers.get(epoch);
    if (cached !== undefined) return cached;
    const g = this.app.chain.epochGroup(epoch);
    if (g === null) return null;
    let scheme: BlsScheme;
    try {
      scheme = new BlsScheme({
        chainId: this.config.genesis.chainId,
        publicKeys: g.members.map((m) => m.blsKey),
        group: g.group,
        shareIndices: g.members.map((m) => m.shareIndex),
      });
    } catch (err) {
      this.log?.error({ epoch, err: (err as Error).message }, "the epoch's group does not fit its set");
      return null;
    }
    this.verifiers.set(epoch, scheme);
    for (const e of this.verifiers.keys()) if (e < epoch - 8) this.verifiers.delete(e);
    return scheme;
  }

  /** This node's share for `epoch`: the DKG driver's, else the genesis share for ceremony 0's group. */
  private shareFor(epoch: number): { index: number; share: Uint8Array } | null {
    if (this.dkg !== null) return this.dkg.shareFor(epoch);
    const g = this.app.chain.epochGroup(epoch);
    const index = this.config.signer.share.length === 0 ? null : shareIndexOf(this.config.signer.share);
    return g !== null && g.ceremony === 0 && index !== null
      ? { index, share: this.config.signer.share }
      : null;
  }

  /** How this node runs `epoch` (see {@link EpochPlan}); null while the epoch's group is unknown. */
  private planFor(epoch: number): EpochPlan | null {
    const c = this.config;
    if (!this.epochs)
      return epoch === 0
        ? {
            scheme: this.scheme,
            me: c.identity.networkIndex === null || c.signer.share.length === 0 ? -1 : c.signer.index,
            peers: c.validators.map((_, i) => i),
          }
        : null;
    const g = this.app.chain.epochGroup(epoch);
    const verifier = this.verifierFor(epoch);
    if (g === null || verifier === null) return null;
    const myKey = c.identity.blsPublicKey;
    const me = g.members.findIndex((m) => bytesEqual(m.blsKey, myKey));
    // peer indices by key: stable, whether or not the member's peer is known yet (announced later)
    const peers = g.members.map((m) => this.directory.indexOf(m.blsKey));
    const share = me < 0 ? null : this.shareFor(epoch);
    const member = g.members[me];
    // a member without its share of the group (ceremony missed, share lost) follows the epoch
    if (member === undefined || share === null || share.index !== member.shareIndex)
      return { scheme: verifier, me: -1, peers };
    try {
      const scheme = new BlsScheme({
        chainId: c.genesis.chainId,
        publicKeys: g.members.map((m) => m.blsKey),
        group: g.group,
        shareIndices: g.members.map((m) => m.shareIndex),
        signer: { index: me, secretKey: c.signer.secretKey, share: share.share },
      });
      this.signers.set(epoch, scheme);
      for (const e of this.signers.keys()) if (e < epoch - 1) this.signers.delete(e);
      return { scheme, me, peers };
    } catch (err) {
      this.log?.error({ epoch, err: (err as Error).message }, "cannot sign in this epoch: following");
      return { scheme: verifier, me: -1, peers };
    }
  }

  /**
   * The keys (lowercase hex) of the members of every epoch this node may still route by peer
   * index (`epochsInUse`): the sets of the epochs around the voter it runs and around its
   * finalized tip, and the retired voter's epoch (older than the previous one after a catch-up
   * jump). Built once per call: the peer directory asks once per recycling, when it ran out of
   * indices, and recycles the indices of other unbound keys.
   */
  private keysInUse(): Set<string> {
    const out = new Set<string>();
    if (!this.epochs) return out; // one set for the network's life: the network file's
    const chain = this.app.chain;
    const voters = this.running?.voters;
    const tip = Math.floor((this.app.tip() + 1) / this.epochBlocks);
    for (const e of epochsInUse(tip, voters?.epoch ?? null, voters?.retiredEpoch ?? null)) {
      try {
        for (const m of chain.validatorSet(e)) out.add(Buffer.from(m.blsKey).toString("hex"));
      } catch {
        // pruned or not fixed yet
      }
    }
    return out;
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
    try {
      this.dkg?.onFinalized(entry.height);
    } catch (err) {
      this.log?.error({ err: (err as Error).message, height: entry.height }, "the DKG driver failed");
    }
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

  /**
   * Starts consensus, transaction and evidence gossip, the RPC server and metrics. Consensus:
   * the libp2p node (persistent identity) serving block sync → a short wait for peers → block
   * sync of the finalized chain (each run verified with its epoch's set) → the signing journal
   * → the voter of the epoch after the finalized tip ({@link EpochVoters}: one voter per epoch,
   * switched when an epoch's last block is final; a follower when this node is not in the
   * epoch's set or holds no share of its group).
   */
  async start(): Promise<{ http: string; ws: string }> {
    const c = this.config;
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
    const codec = {
      encode: (b: unknown) => encodeConsensusBlock(b as Parameters<typeof encodeConsensusBlock>[0]),
      decode: (bytes: Uint8Array) => decodeConsensusBlock(bytes),
    };
    const node = await createNode({
      chainId: c.chainName,
      listen: [...c.p2p.listen],
      bootstrap: [...c.p2p.bootstrap],
      validators: this.directory.entries(),
      discoveryIntervalMs: 1_000,
      logger: p2pLogger,
      metrics: {
        peers: (n) => metrics.peers.set(n),
        messageIn: () => {},
        messageOut: () => {},
        penalty: () => {},
        banned: () => {},
      },
      identityPath: join(c.dataDir, "p2p.key"),
    });
    let journal: FileJournal | null = null;
    try {
      serveBlockSync(node, this.app, codec);
      const network = new ConsensusNetwork({ node, codec, logger: p2pLogger });
      this.bindIdentity(node);
      this.setupAnnouncements(node);
      const factory = c.dkgDriver === undefined ? defaultDkgDriver : c.dkgDriver;
      if (factory !== null && this.epochs) {
        const secretKey = c.signer.secretKey;
        const index = shareIndexOf(c.signer.share);
        this.dkg = factory({
          chain: () => this.app.chain,
          finalizedCeremony: (n, height) => this.app.finalizedCeremony(n, height),
          network: node,
          secretKey,
          blsKey: c.identity.blsPublicKey,
          submitLog: async (ceremony, bytes) => this.submitDkgLog(BigInt(ceremony), bytes),
          dataDir: c.dataDir,
          genesisShare:
            index === null || c.signer.share.length === 0 ? null : { index, share: c.signer.share },
          finalizedHeight: this.app.tip(),
          logger: log,
        });
      }
      const deadline = Date.now() + 3_000;
      while (node.connectedPeers().length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      if (node.connectedPeers().length > 0) await this.syncChain(node, codec);
      // no await from here to the transaction gossip below: the driver's first log goes out
      // from a later finalized block, when gossip runs
      this.dkg?.ready?.();
      journal = new FileJournal(join(c.dataDir, "votes.journal"));
      const tap = metrics.tap;
      const rewrite = c.faults.equivocate ? (m: Message) => this.equivocate(m) : undefined;
      const mayBroadcast = () => this.maySendConsensus();
      const voterNet: Network = {
        broadcast(message) {
          if (!mayBroadcast()) return;
          for (const m of rewrite === undefined ? [message] : rewrite(message)) {
            tap.sent?.(m);
            network.broadcast(m);
          }
        },
        send(to, message) {
          if (!mayBroadcast()) return;
          for (const m of rewrite === undefined ? [message] : rewrite(message)) {
            tap.sent?.(m);
            // a member whose peer has not announced itself yet is unreachable for now
            if (node.validators.peerOf(to) !== null) network.send(to, m);
          }
        },
      };
      const app = this.app;
      const voters = new EpochVoters({
        epochBlocks: this.epochs ? this.epochBlocks : null,
        plan: (epoch) => this.planFor(epoch),
        app,
        tip: () => app.finalizedTip(),
        digestAt: (h) => (h === 0 ? app.genesis : (app.entry(h)?.digest ?? null)),
        network: voterNet,
        clock: systemClock,
        journal,
        timeouts: { ...DEFAULT_TIMEOUTS, ...c.timeouts },
        onFault: (e) => this.onEquivocation(e),
        metrics: metrics.voter,
        onEpoch: (epoch, voter) => this.onEpoch(epoch, voter),
        onAhead: (epoch) => this.catchUp(epoch),
      });
      network.onMessage((from, message) => {
        tap.received?.(from, message);
        voters.receive(from, message);
      });
      this.running = { node, journal, voters };
      if (!voters.start()) {
        log?.warn({ height: app.tip() }, "the next epoch's group is not known yet: catching up first");
        this.syncToEpoch(voters.epochAfter(app.tip()));
      }
      // a member that follows for want of a share (the DKG driver derives it when the ceremony
      // ends; a restart may find it later) starts voting as soon as it has one
      if (this.epochs)
        this.shareTimer = setInterval(() => {
          const plan = voters.plan;
          const epoch = voters.epoch;
          if (plan === null || epoch === null || plan.me >= 0 || this.stopped) return;
          const next = this.planFor(epoch);
          if (next !== null && next.me >= 0) {
            log?.info({ epoch }, "got a share of the epoch's group: voting from now on");
            voters.replan();
          }
        }, 1_000);
      this.startJoining(node, codec, voters);
    } catch (err) {
      journal?.close();
      await node.stop();
      throw err;
    }
    metrics.finalizedHeight.set(this.app.tip());
    const p2p = this.running.node;
    p2p.onGossip("evidence", {
      validate: (bytes) => this.onEvidenceGossip(bytes),
      deliver: () => {},
    });
    this.txGossip = new TxGossipBatcher({
      publish: (frame) => {
        p2p.publish("tx", frame).catch((err: unknown) => {
          this.log?.warn({ err: (err as Error).message }, "transaction gossip not sent");
        });
      },
    });
    const txGossipLimiter = new TxGossipLimiter(TX_GOSSIP_ACTIVE, TX_GOSSIP_QUEUED);
    const txGossipAdmission: TxGossipAdmission = {
      preverify: (txs) => this.app.chain.preverify(txs),
      admit: (tx) => this.admitTx(tx, false).fresh,
      stopped: () => this.stopped,
      logger: this.log,
    };
    p2p.onGossip("tx", {
      // more than the limiter's bound at once: not relayed, and not the peer's fault
      validate: (bytes) => txGossipLimiter.run(() => validateTxGossip(bytes, txGossipAdmission)) ?? "ignore",
      deliver: () => {},
    });
    const dispatcher = new RpcDispatcher(
      [
        ...chainModules(this, { cyclesTarget: CYCLES_TARGET, cellsTarget: CELLS_TARGET }, { backend: this }),
        this.hub,
        new ValidatorRpcModule({
          index: c.identity.networkIndex ?? -1,
          status: () => ({
            view: this.voter?.currentView ?? 0,
            finalizedView: this.voter?.finalizedView ?? 0,
            epoch: this.running?.voters.epoch ?? 0,
            voting: this.voter?.signing ?? false,
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

  /** The voter of the current epoch. */
  get voter(): Voter | null {
    return this.running?.voters.voter ?? null;
  }

  /** The epoch the node is voting in (or following), or null before it started. */
  get epoch(): number | null {
    return this.running?.voters.epoch ?? null;
  }

  /**
   * Checks that the p2p identity (`p2p.key`) fits the key file and binds this node in the peer
   * directory: a network-file validator must run on its listed peer id; a joining validator
   * must not run on a listed one, and is bound to its own peer id here.
   */
  private bindIdentity(node: P2pNode): void {
    const c = this.config;
    const i = c.identity.networkIndex;
    if (i !== null) {
      const listed = (c.validators[i] as { peerId: string }).peerId;
      if (listed !== node.peerId)
        throw new ValidatorError(
          "ERR_VALIDATOR_IDENTITY",
          `this node's peer id ${node.peerId} (${join(c.dataDir, "p2p.key")}) is not validator ${i}'s peer id ${listed} in the network file`,
        );
      return;
    }
    const other = c.validators.findIndex((v) => v.peerId === node.peerId);
    if (other >= 0)
      throw new ValidatorError(
        "ERR_VALIDATOR_IDENTITY",
        `this node's peer id ${node.peerId} is validator ${other}'s in the network file, but the key file is not validator ${other}'s (a copied p2p.key?)`,
      );
    this.directory.bind(c.identity.blsPublicKey, node.peerId, Date.now());
    node.setValidators(this.directory.entries());
  }

  /** True if the chain's registry lists this node's BLS key under its operator address. */
  private registered(): boolean {
    const id = this.config.identity;
    try {
      const rec = this.app.chain.validator(id.address);
      return rec !== null && bytesEqual(rec.blsKey, id.blsPublicKey);
    } catch {
      return false;
    }
  }

  /**
   * A network-file validator always sends consensus messages; a joining one once the chain has
   * listed its key for two announcement periods (so that peers have bound its peer id by then).
   */
  private maySendConsensus(): boolean {
    if (this.config.identity.networkIndex !== null) return true;
    return this.registeredAt !== null && Date.now() - this.registeredAt >= 2 * ANNOUNCE_EVERY_MS;
  }

  /**
   * Checks validator announcements on the validator gossip topic and binds the ones the chain's
   * registry confirms (and those saved before a restart, re-checked).
   */
  private setupAnnouncements(node: P2pNode): void {
    const c = this.config;
    const crypto = announceCrypto();
    const log = this.log;
    const verifier = new AnnouncementVerifier({
      chainId: c.genesis.chainId,
      crypto,
      directory: this.directory,
      registry: (address, key) => {
        try {
          const rec = this.app.chain.validator(address);
          if (rec === null) return "unknown";
          return bytesEqual(rec.blsKey, key) ? "registered" : "other-key";
        } catch {
          return "unknown";
        }
      },
      onBound: (a) => {
        try {
          node.setValidators(this.directory.entries());
        } catch (err) {
          log?.error({ err: (err as Error).message }, "cannot update the p2p validator map");
          return;
        }
        log?.info({ address: toHex(a.address), peer: a.peerId }, "validator announced: peer bound");
        this.savedAnnouncements.set(Buffer.from(a.blsKey).toString("hex"), toHex(encodeAnnouncement(a)));
        this.saveAnnouncements();
      },
      // bindings pruned to make room: the map drops them now, before their peer indices can be
      // recycled for other keys (the binding that follows may not happen: "full", "fixed")
      onPruned: (n) => {
        try {
          node.setValidators(this.directory.entries());
        } catch (err) {
          log?.error({ err: (err as Error).message }, "cannot update the p2p validator map");
          return;
        }
        log?.info({ pruned: n }, "validator bindings pruned (withdrawn keys)");
        this.saveAnnouncements();
      },
    });
    this.announcements = verifier;
    // bindings from before a restart, re-checked against the chain
    for (const bytes of this.loadAnnouncements()) {
      try {
        verifier.validate(bytes, decodeAnnouncement(bytes).peerId);
      } catch {
        // a damaged entry: dropped (the validator's next announcement binds it again)
      }
    }
    node.onGossip("validator", {
      validate: (bytes, from) => verifier.validate(bytes, from.origin ?? null),
      deliver: () => {},
    });
  }

  /** The saved announcements (see {@link ANNOUNCEMENTS_FILE}); none if the file is missing or unreadable. */
  private loadAnnouncements(): Uint8Array[] {
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(join(this.config.dataDir, ANNOUNCEMENTS_FILE), "utf8"));
    } catch {
      return [];
    }
    if (!Array.isArray(list)) return [];
    return list
      .filter((h): h is string => typeof h === "string" && /^0x([0-9a-f]{2})+$/.test(h) && h.length <= 2_000)
      .slice(0, 1_024)
      .map((h) => Uint8Array.from(Buffer.from(h.slice(2), "hex")));
  }

  /** Writes the bound announcements (atomically: temporary file, rename). */
  private saveAnnouncements(): void {
    for (const k of [...this.savedAnnouncements.keys()])
      if (this.directory.peerOf(Uint8Array.from(Buffer.from(k, "hex"))) === null)
        this.savedAnnouncements.delete(k);
    const path = join(this.config.dataDir, ANNOUNCEMENTS_FILE);
    try {
      writeFileSync(`${path}.tmp`, `${JSON.stringify([...this.savedAnnouncements.values()])}\n`);
      renameSync(`${path}.tmp`, path);
    } catch (err) {
      this.log?.warn({ err: (err as Error).message }, "cannot save the validator announcements");
    }
  }

  /** A joining validator's own announcements, and the follower's block sync. */
  private startJoining(
    node: P2pNode,
    codec: Parameters<typeof serveBlockSync>[2],
    voters: EpochVoters,
  ): void {
    const c = this.config;
    const crypto = announceCrypto();
    const log = this.log;
    if (c.identity.networkIndex === null) {
      const announce = () => {
        if (this.stopped) return;
        if (this.registeredAt === null && this.registered()) {
          this.registeredAt = Date.now();
          log?.info({ address: toHex(c.identity.address) }, "this validator is registered on chain");
        }
        let bytes: Uint8Array;
        try {
          bytes = encodeAnnouncement(
            signAnnouncement(
              {
                chainId: c.genesis.chainId,
                address: c.identity.address,
                blsKey: c.identity.blsPublicKey,
                peerId: node.peerId,
                issuedAtMs: Date.now(),
              },
              c.signer.secretKey,
              crypto,
            ),
          );
        } catch (err) {
          log?.error({ err: (err as Error).message }, "cannot sign the validator announcement");
          return;
        }
        node.publish("validator", bytes).catch((err: unknown) => {
          log?.debug({ err: (err as Error).message }, "validator announcement not sent");
        });
      };
      announce();
      this.announceTimer = setInterval(announce, ANNOUNCE_EVERY_MS);
    }
    // a follower that hears no consensus messages (not registered yet, or its peers have not
    // bound it) still follows the finalized chain by block sync
    this.followTimer = setInterval(() => {
      if (this.stopped || this.catchingUp) return;
      const tip = this.app.tip();
      const moved = tip !== this.followTip;
      this.followTip = tip;
      if (moved || (this.voter?.signing ?? false) || node.connectedPeers().length === 0) return;
      this.catchingUp = true;
      void this.syncChain(node, codec).finally(() => {
        this.catchingUp = false;
        if (!this.stopped) voters.advance();
      });
    }, FOLLOW_SYNC_MS);
  }

  /** Block sync from the connected peers, each run verified with its epoch's set. */
  private async syncChain(node: P2pNode, codec: Parameters<typeof serveBlockSync>[2]): Promise<void> {
    const log = this.log;
    try {
      await syncFromPeers({
        node,
        codec,
        reader: this.app,
        schemeFor: (epoch) => this.verifierFor(epoch),
        start: this.app.finalizedTip(),
        apply: (proposal, block, certificate) => this.app.finalized(proposal, block, certificate),
        onProgress: (p) => log?.info({ height: p.height, target: p.target }, "block sync"),
      });
    } catch (err) {
      log?.warn({ err: String(err), height: this.app.tip() }, "block sync stopped; the voter will catch up");
    }
  }

  /**
   * A message of a later epoch than ours arrived: we missed the end of our epoch (down, or
   * partitioned when it ended). Block sync brings the finalized chain (across the epochs'
   * boundaries, each run checked with its own set), then the voters move to the tip's epoch.
   * At most one sync at a time, and not more often than every 2 s.
   */
  private catchUp(epoch: number): void {
    // a peer that switched a moment before us is not a reason to sync: wait a leader timeout
    // (our own voter, or a retired peer's answer, usually finishes the epoch meanwhile)
    if (this.catchUpTimer !== null || this.catchingUp || this.stopped) return;
    this.catchUpTimer = setTimeout(() => {
      this.catchUpTimer = null;
      if ((this.running?.voters.epoch ?? -1) < epoch) this.syncToEpoch(epoch);
    }, this.config.timeouts.leaderTimeoutMs);
  }

  private syncToEpoch(epoch: number): void {
    const r = this.running;
    if (r === null || this.catchingUp || this.stopped || Date.now() - this.catchUpAt < 2_000) return;
    this.catchingUp = true;
    this.catchUpAt = Date.now();
    this.log?.info(
      { epoch, current: r.voters.epoch, height: this.app.tip() },
      "behind a later epoch: syncing",
    );
    const codec = {
      encode: (b: unknown) => encodeConsensusBlock(b as Parameters<typeof encodeConsensusBlock>[0]),
      decode: (bytes: Uint8Array) => decodeConsensusBlock(bytes),
    };
    void this.syncChain(r.node, codec).finally(() => {
      this.catchingUp = false;
      if (!this.stopped) r.voters.advance();
    });
  }

  /** A voter of `epoch` started. */
  private onEpoch(epoch: number, voter: Voter): void {
    this.metrics.epoch.set(epoch);
    this.metrics.voting.set(voter.signing ? 1 : 0);
    this.log?.info(
      {
        epoch,
        voting: voter.signing,
        member: (this.running?.voters.plan?.peers ?? []).includes(
          this.directory.indexOf(this.config.identity.blsPublicKey),
        ),
        fromHeight: voter.finalizedHeight,
      },
      voter.signing ? "epoch started: voting" : "epoch started: following (not voting)",
    );
  }

  /** Stops the voter and the network, waits for ledger writes, closes everything. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.evidenceTimers) clearTimeout(t);
    this.evidenceTimers.clear();
    if (this.catchUpTimer !== null) clearTimeout(this.catchUpTimer);
    if (this.shareTimer !== null) clearInterval(this.shareTimer);
    if (this.announceTimer !== null) clearInterval(this.announceTimer);
    if (this.followTimer !== null) clearInterval(this.followTimer);
    this.txGossip?.close();
    const r = this.running;
    if (r !== null) {
      r.voters.stop();
      await r.node.stop();
      r.journal.close();
    }
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
          signature: (this.epochs ? (this.signers.get(vote.round.epoch) ?? this.scheme) : this.scheme).sign(
            vote.signer,
            "notarize",
            vote.round,
            forged,
          ),
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
    // by position in the epoch's set: the member after the offender first, non-members last
    const keys = this.setKeys(ev.epoch);
    if (keys === null || ev.signer >= keys.length) return;
    const n = keys.length;
    const myKey = this.config.identity.blsPublicKey;
    const me = keys.findIndex((k) => bytesEqual(k, myKey));
    if (me === ev.signer) return;
    const rank = me < 0 ? n : (me - ev.signer - 1 + n) % n;
    const timer = setTimeout(() => {
      this.evidenceTimers.delete(timer);
      this.submitEvidence(key);
    }, rank * EVIDENCE_FALLBACK_MS);
    this.evidenceTimers.add(timer);
  }

  /** True if the chain shows validator `signer` of `epoch`'s set jailed at its head. */
  private punished(epoch: number, signer: number): boolean {
    let address: Uint8Array;
    try {
      const m = this.app.chain.validatorSet(epoch)[signer];
      if (m !== undefined) address = Uint8Array.from(Buffer.from(m.address.replace(/^0x/, ""), "hex"));
      else if (!this.epochs && epoch === 0 && this.config.validators[signer] !== undefined)
        address = (this.config.validators[signer] as { address: Uint8Array }).address;
      else return false;
    } catch {
      return false;
    }
    const rec = this.app.chain.validator(address);
    return rec !== null && BigInt(rec.jailedUntil) > this.app.chain.head.height;
  }

  /** Sends the evidence `key` on chain as a submitEvidence transaction signed by the operator account. */
  private submitEvidence(key: string): void {
    const item = this.evidence.get(key);
    if (this.stopped || item === undefined || item.submitted) return;
    if (this.punished(item.evidence.epoch, item.evidence.signer)) return;
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

  /** Puts a DKG dealer log on chain: a `dkgLog` transaction signed by the operator account. */
  private submitDkgLog(ceremony: bigint, log: Uint8Array): void {
    if (this.stopped) throw new ValidatorError("ERR_VALIDATOR_STOPPING", "the node is shutting down");
    const sk = this.config.operatorSecretKey;
    const from = addressFromSecretKey(sk);
    // a DkgLog's cells are its log's length (validatorIntrinsic): limit = that plus a margin,
    // so the log of any allowed set (maxValidators) fits and the fee reserve stays small
    const draft = this.unsignedTx(
      from,
      { kind: "dkgLog", ceremony, log },
      { cycles: 200_000n, cells: BigInt(log.length) + 1_024n },
    );
    const nonce = this.mempool.pendingNonce(toHex(from), this.app.chain.getAccount(from)?.nonce ?? 0n);
    this.admit(encodeTransaction(signTransaction({ ...draft, nonce }, sk)), true);
    this.log?.info({ ceremony: String(ceremony), bytes: log.length }, "DKG log submitted");
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
    return this.admitTx(bytes, gossip).hash;
  }

  /** Checks and pools one transaction; `fresh` is false when it was pooled already (nothing done). */
  private admitTx(bytes: Uint8Array, gossip: boolean): { hash: Uint8Array; fresh: boolean } {
    const checked = this.checkForPool(bytes);
    const { tx } = checked;
    const hash = toHex(checked.hash);
    if (this.mempool.has(hash)) return { hash: checked.hash, fresh: false };
    // checkTx read the sender's account nonce in the same head state
    const chain = this.app.chain;
    const accountNonce = checked.senderNonce ?? chain.getAccount(tx.from)?.nonce ?? 0n;
    this.addToPool(this.poolEntry(checked), accountNonce, chain.nextBasefees());
    if (gossip) this.txGossip?.add(checked.bytes);
    return { hash: checked.hash, fresh: true };
  }

  // ----- ChainBackend -----

  async sendRawTransaction(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.stopped) throw new ValidatorError("ERR_VALIDATOR_STOPPING", "the node is shutting down");
    return this.admit(bytes, true);
  }

  /** An RPC batch of transactions: their signatures are verified at once (then admitted one by one). */
  async prepareRawTransactions(list: readonly Uint8Array[]): Promise<void> {
    if (!this.stopped) await this.app.chain.preverify(list);
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
