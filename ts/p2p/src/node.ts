/**
 * The Cowboy p2p node: js-libp2p 3 with QUIC (TLS 1.3) and TCP (noise + yamux), gossipsub
 * for transactions and blocks, and direct streams for consensus and block sync.
 *
 * Invariants:
 * - The node's peer id comes from a key file (see {@link loadOrCreateIdentity}), so it is
 *   stable across restarts.
 * - Consensus frames are accepted only from connected peers bound to a validator index by
 *   the {@link ValidatorSet}; anything else is dropped and the sender penalized.
 * - Every frame on a direct stream is length-prefixed and bounded; an oversize frame
 *   resets the stream and penalizes the sender before its payload is buffered.
 * - A peer whose {@link PeerScores} score falls to the ban threshold is disconnected and
 *   refused (dial and inbound) until the ban expires.
 */
import { noise } from "@chainsafe/libp2p-noise";
import { quic } from "@chainsafe/libp2p-quic";
import { type GossipSub, gossipsub, TopicValidatorResult } from "@libp2p/gossipsub";
import { type Identify, identify } from "@libp2p/identify";
import type { Connection, Libp2p, PeerId, PrivateKey, Stream } from "@libp2p/interface";
import { peerIdFromString } from "@libp2p/peer-id";
import { tcp } from "@libp2p/tcp";
import { yamux } from "@libp2p/yamux";
import { type Multiaddr, multiaddr } from "@multiformats/multiaddr";
import { createLibp2p } from "libp2p";
import { isP2pError, P2pError } from "./errors.ts";
import { encodeFrame, FrameDecoder } from "./framing.ts";
import { loadOrCreateIdentity } from "./identity.ts";
import { DEFAULT_SCORE_CONFIG, PENALTY, PeerScores, type ScoreConfig } from "./scores.ts";
import { type ValidatorEntry, ValidatorSet } from "./validators.ts";

/** Direct-stream protocol for consensus messages (votes, proposals, certificates, fetches). */
export const CONSENSUS_PROTOCOL = "/cowboy/consensus/1";
/** Request/response protocol for block sync. */
export const SYNC_PROTOCOL = "/cowboy/sync/1";
/** Peer exchange: a peer answers with the peers it is connected to (discovery through bootstrap nodes). */
export const PEERS_PROTOCOL = "/cowboy/peers/1";

/** Gossip topic names for a chain. */
export function topics(chainId: string): {
  tx: string;
  block: string;
  evidence: string;
  dkg: string;
  validator: string;
} {
  return {
    tx: `/cowboy/${chainId}/tx/1`,
    block: `/cowboy/${chainId}/block/1`,
    evidence: `/cowboy/${chainId}/evidence/1`,
    dkg: dkgProtocol(chainId),
    validator: `/cowboy/${chainId}/validator/1`,
  };
}

/**
 * The DKG channel of a chain, `/cowboy/<chainId>/dkg/1`: the name of both the DKG gossip topic
 * (public, signed announcements) and the direct-stream protocol (frames to one peer: dealings,
 * acknowledgements). Direct DKG frames are accepted from any connected peer (a joining
 * validator is a player before it is in the validator set); the application authenticates them.
 */
export function dkgProtocol(chainId: string): string {
  return `/cowboy/${chainId}/dkg/1`;
}

export type Transport = "quic" | "tcp";
/**
 * Gossip topics: transactions, blocks, equivocation evidence (encodeEvidence bytes), DKG
 * announcements, validator announcements (./announce.ts: BLS key ↔ peer id of validators that
 * are not in the network file).
 */
export type GossipKind = "tx" | "block" | "evidence" | "dkg" | "validator";
export type GossipVerdict = "accept" | "ignore" | "reject";

/** Injected logger; pass null to log nothing. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Optional metrics hooks; pass null for none. */
export interface P2pMetrics {
  peers(count: number): void;
  messageIn(protocol: string, bytes: number): void;
  messageOut(protocol: string, bytes: number): void;
  penalty(peerId: string, reason: string, score: number): void;
  banned(peerId: string): void;
}

/** Who sent something: the peer, and its validator index if it is a validator. */
export interface PeerInfo {
  readonly peerId: string;
  readonly validator: number | null;
  /**
   * Gossip only: the peer that published the message (gossipsub signs every message with its
   * publisher's key), or null if unsigned. `peerId` is the peer that relayed it to us.
   */
  readonly origin?: string | null;
}

/** Application callbacks for one gossip topic. */
export interface GossipHandler {
  /** decides whether a message is valid; "reject" penalizes the peer that relayed it */
  validate(data: Uint8Array, from: PeerInfo): GossipVerdict | Promise<GossipVerdict>;
  /** receives each accepted message once */
  deliver(data: Uint8Array, from: PeerInfo): void;
}

/** Answers a block-sync request with response bytes. Throwing aborts the stream. */
export type SyncHandler = (request: Uint8Array, from: PeerInfo) => Uint8Array | Promise<Uint8Array>;

/** Receives one direct DKG frame from any connected peer (the application authenticates it). */
export type DkgFrameHandler = (frame: Uint8Array, from: PeerInfo) => void;

/** Receives one consensus frame from a validator. */
export type ConsensusFrameHandler = (
  frame: Uint8Array,
  from: PeerInfo & { readonly validator: number },
) => void;

/** Size, connection and timing limits. */
export interface Limits {
  maxConnections: number;
  /** largest frame on /cowboy/consensus/1 */
  maxConsensusFrameBytes: number;
  /** largest frame on the direct DKG protocol */
  maxDkgFrameBytes: number;
  maxSyncRequestBytes: number;
  maxSyncResponseBytes: number;
  /** largest gossip message */
  maxGossipBytes: number;
  /** outbound consensus frames queued per peer before new ones are dropped */
  maxQueuedFrames: number;
  dialTimeoutMs: number;
  syncTimeoutMs: number;
}

/**
 * A gossipsub RPC may carry several messages (an IWANT reply bundles the ones asked for), so the
 * RPC-level read limit is this many times {@link Limits.maxGossipBytes}: a peer answering in bulk
 * must not get its stream dropped.
 */
const GOSSIP_RPC_FACTOR = 8;

export const DEFAULT_LIMITS: Limits = {
  maxConnections: 200,
  maxConsensusFrameBytes: 4 * 1024 * 1024,
  maxDkgFrameBytes: 1024 * 1024,
  maxSyncRequestBytes: 64 * 1024,
  maxSyncResponseBytes: 16 * 1024 * 1024,
  maxGossipBytes: 1024 * 1024,
  maxQueuedFrames: 1024,
  dialTimeoutMs: 10_000,
  syncTimeoutMs: 15_000,
};

/** Configuration of {@link createNode}. */
export interface NodeConfig {
  /** chain id used in the gossip topic names */
  chainId: string;
  /** file holding the node's private key; created on first start */
  identityPath: string;
  /** transports to enable (default both, QUIC first) */
  transports?: readonly Transport[];
  /** listen multiaddrs (default: loopback, port 0, one per enabled transport) */
  listen?: readonly string[];
  /** static bootstrap peers: multiaddrs ending in /p2p/<peer id> */
  bootstrap?: readonly string[];
  /** the validator set (index ↔ peer id) */
  validators?: readonly ValidatorEntry[];
  limits?: Partial<Limits>;
  scoring?: Partial<ScoreConfig>;
  /** how often to re-dial bootstrap peers and exchange peer lists (default 5 s) */
  discoveryIntervalMs?: number;
  logger?: Logger | null;
  metrics?: P2pMetrics | null;
}

type Services = { identify: Identify; pubsub: GossipSub };

interface Outbox {
  stream: Stream | null;
  queue: Uint8Array[];
  pumping: boolean;
}

const PEERS_FRAME_MAX = 256 * 1024;
const MAX_PEERS_PER_EXCHANGE = 64;

function chunkBytes(chunk: Uint8Array | { subarray(): Uint8Array }): Uint8Array {
  return chunk instanceof Uint8Array ? chunk : chunk.subarray();
}

/** The last /p2p/<id> component of a multiaddr, or null. */
function peerIdOf(ma: Multiaddr): string | null {
  const p2p = ma.getComponents().filter((c) => c.name === "p2p");
  return p2p[p2p.length - 1]?.value ?? null;
}

function validateConfig(cfg: NodeConfig): void {
  if (typeof cfg.chainId !== "string" || !/^[A-Za-z0-9._-]{1,64}$/.test(cfg.chainId))
    throw new P2pError("CONFIG_INVALID", "chainId must be 1..64 characters of [A-Za-z0-9._-]", {
      chainId: cfg.chainId,
    });
  const ts = cfg.transports ?? ["quic", "tcp"];
  if (ts.length === 0 || ts.some((t) => t !== "quic" && t !== "tcp"))
    throw new P2pError("CONFIG_INVALID", "transports must be a non-empty list of 'quic' and 'tcp'", {
      transports: ts,
    });
  for (const addr of [...(cfg.listen ?? []), ...(cfg.bootstrap ?? [])]) {
    try {
      multiaddr(addr);
    } catch (e) {
      throw new P2pError("CONFIG_INVALID", `invalid multiaddr ${addr}`, { addr }, e);
    }
  }
  for (const addr of cfg.bootstrap ?? []) {
    if (peerIdOf(multiaddr(addr)) === null)
      throw new P2pError("CONFIG_INVALID", `bootstrap address ${addr} has no /p2p/<peer id>`, { addr });
  }
}

/** Creates, configures and starts a node. */
export async function createNode(config: NodeConfig): Promise<P2pNode> {
  validateConfig(config);
  const { key } = await loadOrCreateIdentity(config.identityPath);
  const node = new P2pNode(config);
  await node.start(key);
  return node;
}

/** A running Cowboy p2p node. Create it with {@link createNode}. */
export class P2pNode {
  private readonly cfg: NodeConfig;
  private readonly limits: Limits;
  private readonly log: Logger | null;
  private readonly metrics: P2pMetrics | null;
  private readonly scores: PeerScores;
  private readonly topicNames: ReturnType<typeof topics>;
  private validatorSet: ValidatorSet;
  private lp: Libp2p<Services> | null = null;
  private readonly gossipHandlers = new Map<GossipKind, GossipHandler>();
  private consensusHandler: ConsensusFrameHandler | null = null;
  private dkgHandler: DkgFrameHandler | null = null;
  /** outbound direct DKG frames per peer (separate streams from consensus) */
  private readonly dkgOutboxes = new Map<string, Outbox>();
  private syncHandler: SyncHandler | null = null;
  private readonly outboxes = new Map<string, Outbox>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private maintaining = false;

  /** Use {@link createNode}. */
  constructor(config: NodeConfig) {
    this.cfg = config;
    this.limits = { ...DEFAULT_LIMITS, ...config.limits };
    this.log = config.logger ?? null;
    this.metrics = config.metrics ?? null;
    this.scores = new PeerScores({ ...DEFAULT_SCORE_CONFIG, ...config.scoring });
    this.topicNames = topics(config.chainId);
    this.validatorSet = new ValidatorSet(config.validators ?? []);
  }

  private get libp2p(): Libp2p<Services> {
    if (this.lp === null || this.stopped) throw new P2pError("NOT_STARTED", "the node is not running");
    return this.lp;
  }

  /** Starts libp2p with `key`; called by {@link createNode}. */
  async start(key: PrivateKey): Promise<void> {
    if (this.lp !== null)
      throw new P2pError("CONFIG_INVALID", "a node starts once; create a new one to restart");
    const transports = this.cfg.transports ?? ["quic", "tcp"];
    const listen =
      this.cfg.listen ??
      transports.map((t) => (t === "quic" ? "/ip4/127.0.0.1/udp/0/quic-v1" : "/ip4/127.0.0.1/tcp/0"));
    const scores = this.scores;
    const lp = await createLibp2p<Services>({
      privateKey: key,
      start: false,
      addresses: { listen: [...listen] },
      transports: transports.map((t) => (t === "quic" ? quic() : tcp())),
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      connectionManager: { maxConnections: this.limits.maxConnections },
      connectionGater: {
        denyDialPeer: (peer: PeerId) => scores.isBanned(peer.toString()),
        denyInboundEncryptedConnection: (peer: PeerId) => scores.isBanned(peer.toString()),
        denyOutboundEncryptedConnection: (peer: PeerId) => scores.isBanned(peer.toString()),
        // loopback and private addresses are how validators reach each other in a localnet
        denyDialMultiaddr: () => false,
      },
      services: {
        identify: identify(),
        pubsub: gossipsub({
          allowPublishToZeroTopicPeers: true,
          fallbackToFloodsub: false,
          emitSelf: false,
          // a whole RPC (an IWANT reply bundles several messages); each message's own limit,
          // maxGossipBytes, is checked by the topic validator
          maxInboundDataLength: this.limits.maxGossipBytes * GOSSIP_RPC_FACTOR,
          allowedTopics: [
            this.topicNames.tx,
            this.topicNames.block,
            this.topicNames.evidence,
            this.topicNames.dkg,
            this.topicNames.validator,
          ],
          scoreParams: {
            appSpecificScore: (p: string) => scores.score(p),
            appSpecificWeight: 1,
            // a localnet runs every node on one host: do not treat that as a Sybil attack
            IPColocationFactorWhitelist: new Set(["127.0.0.1", "::1"]),
          },
        }),
      },
    });
    this.lp = lp;
    lp.addEventListener("peer:connect", (e) => {
      const peer = e.detail.toString();
      this.metrics?.peers(lp.getPeers().length);
      this.log?.debug("peer connected", { peer });
      void this.exchangePeers(peer);
    });
    lp.addEventListener("peer:disconnect", (e) => {
      const peer = e.detail.toString();
      this.metrics?.peers(lp.getPeers().length);
      this.log?.debug("peer disconnected", { peer });
      const box = this.outboxes.get(peer);
      if (box !== undefined) box.stream = null;
      const dkgBox = this.dkgOutboxes.get(peer);
      if (dkgBox !== undefined) dkgBox.stream = null;
    });
    lp.services.pubsub.addEventListener("gossipsub:message", (e) => {
      const { msg, propagationSource } = e.detail;
      const kind: GossipKind | null =
        msg.topic === this.topicNames.tx
          ? "tx"
          : msg.topic === this.topicNames.block
            ? "block"
            : msg.topic === this.topicNames.evidence
              ? "evidence"
              : msg.topic === this.topicNames.dkg
                ? "dkg"
                : msg.topic === this.topicNames.validator
                  ? "validator"
                  : null;
      const handler = kind === null ? undefined : this.gossipHandlers.get(kind);
      if (handler === undefined) return;
      this.metrics?.messageIn(msg.topic, msg.data.length);
      try {
        handler.deliver(msg.data, this.info(propagationSource.toString()));
      } catch (err) {
        this.log?.error("gossip deliver callback threw", { topic: msg.topic, err: String(err) });
      }
    });
    await lp.handle(CONSENSUS_PROTOCOL, (stream, conn) => this.onConsensusStream(stream, conn), {
      maxInboundStreams: 8,
      maxOutboundStreams: 8,
    });
    await lp.handle(this.topicNames.dkg, (stream, conn) => this.onDkgStream(stream, conn), {
      maxInboundStreams: 4,
      maxOutboundStreams: 4,
    });
    await lp.handle(SYNC_PROTOCOL, (stream, conn) => this.onSyncStream(stream, conn), {
      maxInboundStreams: 32,
      maxOutboundStreams: 32,
    });
    await lp.handle(PEERS_PROTOCOL, (stream, conn) => this.onPeersStream(stream, conn), {
      maxInboundStreams: 4,
      maxOutboundStreams: 4,
    });
    await lp.start();
    this.tagValidators();
    this.log?.info("p2p node started", { peerId: this.peerId, addrs: this.multiaddrs() });
    void this.maintain();
    this.timer = setInterval(() => void this.maintain(), this.cfg.discoveryIntervalMs ?? 5_000);
    this.timer.unref?.();
  }

  /** Stops the node and closes every connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.outboxes.clear();
    this.dkgOutboxes.clear();
    await this.lp?.stop();
    this.log?.info("p2p node stopped", {});
  }

  /** The libp2p instance, running or stopped (identity and address queries stay valid after stop). */
  private get created(): Libp2p<Services> {
    if (this.lp === null) throw new P2pError("NOT_STARTED", "the node was never started");
    return this.lp;
  }

  /** This node's peer id (stable across restarts with the same identity file). */
  get peerId(): string {
    return this.created.peerId.toString();
  }

  /** Addresses this node listens on, each ending in /p2p/<peer id> (empty once stopped). */
  multiaddrs(): string[] {
    return this.created.getMultiaddrs().map((m) => m.toString());
  }

  /** Peer ids of connected peers (empty once stopped). */
  connectedPeers(): string[] {
    return this.created.getPeers().map((p) => p.toString());
  }

  /** The current validator set. */
  get validators(): ValidatorSet {
    return this.validatorSet;
  }

  /** Replaces the validator set (e.g. at an epoch change). Throws `CONFIG_INVALID` on a bad set. */
  setValidators(entries: readonly ValidatorEntry[]): void {
    this.validatorSet = new ValidatorSet(entries);
    this.tagValidators();
  }

  /** Sender info for `peerId`. */
  info(peerId: string): PeerInfo {
    return { peerId, validator: this.validatorSet.indexOf(peerId) };
  }

  /** Current application score of a peer (0 = clean; the ban threshold disconnects it). */
  score(peerId: string): number {
    return this.scores.score(peerId);
  }

  /** True while `peerId` is banned. */
  isBanned(peerId: string): boolean {
    return this.scores.isBanned(peerId);
  }

  /**
   * Lowers a peer's score for misbehaviour (`reason` is logged); at the ban threshold the
   * peer is disconnected and refused for the ban period.
   */
  penalize(peerId: string, amount: number, reason: string): void {
    if (peerId === this.lp?.peerId.toString()) return;
    const banned = this.scores.penalize(peerId, amount);
    const score = this.scores.score(peerId);
    this.metrics?.penalty(peerId, reason, score);
    this.log?.warn("peer penalized", { peer: peerId, reason, amount, score, banned });
    if (banned) {
      this.metrics?.banned(peerId);
      this.log?.warn("peer banned", { peer: peerId, reason });
      this.outboxes.delete(peerId);
      this.dkgOutboxes.delete(peerId);
      if (this.lp !== null && !this.stopped)
        this.lp.hangUp(peerIdFromString(peerId)).catch((err: unknown) => {
          this.log?.debug("hang up failed", { peer: peerId, err: String(err) });
        });
    }
  }

  // ---------------------------------------------------------------- gossip

  /** Subscribes to the `kind` topic with the application's validate/deliver callbacks. */
  onGossip(kind: GossipKind, handler: GossipHandler): void {
    const topic = this.topicNames[kind];
    const pubsub = this.libp2p.services.pubsub;
    this.gossipHandlers.set(kind, handler);
    pubsub.topicValidators.set(topic, async (peer, msg) => {
      const from = peer.toString();
      if (this.scores.isBanned(from)) return TopicValidatorResult.Reject;
      if (msg.data.length > this.limits.maxGossipBytes) {
        this.penalize(from, PENALTY.oversizeFrame, `oversize gossip on ${topic}`);
        return TopicValidatorResult.Reject;
      }
      let verdict: GossipVerdict;
      try {
        verdict = await handler.validate(msg.data, {
          ...this.info(from),
          origin: msg.type === "signed" ? msg.from.toString() : null,
        });
      } catch (err) {
        this.log?.error("gossip validate callback threw", { topic, err: String(err) });
        return TopicValidatorResult.Ignore;
      }
      if (verdict === "accept") return TopicValidatorResult.Accept;
      if (verdict === "ignore") return TopicValidatorResult.Ignore;
      this.penalize(from, PENALTY.gossipReject, `gossip rejected on ${topic}`);
      return TopicValidatorResult.Reject;
    });
    pubsub.subscribe(topic);
  }

  /** Publishes `data` on the `kind` topic; returns how many peers it was sent to. */
  async publish(kind: GossipKind, data: Uint8Array): Promise<number> {
    if (data.length > this.limits.maxGossipBytes)
      throw new P2pError("FRAME_TOO_LARGE", `gossip message of ${data.length} bytes exceeds the limit`, {
        size: data.length,
        max: this.limits.maxGossipBytes,
      });
    const topic = this.topicNames[kind];
    const res = await this.libp2p.services.pubsub.publish(topic, data);
    this.metrics?.messageOut(topic, data.length);
    return res.recipients.length;
  }

  /** Peers subscribed to the `kind` topic that we know of. */
  topicPeers(kind: GossipKind): string[] {
    return this.libp2p.services.pubsub.getSubscribers(this.topicNames[kind]).map((p) => p.toString());
  }

  // ---------------------------------------------------------------- consensus streams

  /** Sets the receiver of consensus frames (from validators only). */
  onConsensus(handler: ConsensusFrameHandler): void {
    this.consensusHandler = handler;
  }

  /**
   * Queues `payload` as one frame to `peerId` on /cowboy/consensus/1 (dialing if needed).
   * Frames to one peer keep their order. Delivery is best effort: consensus retransmits.
   * Throws `FRAME_TOO_LARGE` above the frame limit; returns false if the queue is full.
   */
  sendConsensus(peerId: string, payload: Uint8Array): boolean {
    const frame = encodeFrame(payload, this.limits.maxConsensusFrameBytes);
    if (this.stopped) return false;
    let box = this.outboxes.get(peerId);
    if (box === undefined) {
      box = { stream: null, queue: [], pumping: false };
      this.outboxes.set(peerId, box);
    }
    if (box.queue.length >= this.limits.maxQueuedFrames) {
      this.log?.warn("consensus queue full, frame dropped", { peer: peerId });
      return false;
    }
    box.queue.push(frame);
    if (!box.pumping) void this.pump(peerId, box, CONSENSUS_PROTOCOL, this.outboxes);
    return true;
  }

  private async openStream(peerId: string, protocol: string): Promise<Stream> {
    const stream = await this.libp2p.dialProtocol(peerIdFromString(peerId), protocol, {
      signal: AbortSignal.timeout(this.limits.dialTimeoutMs),
    });
    // we only write on this stream; drain anything the remote sends
    void (async () => {
      try {
        for await (const _ of stream) {
          // the remote never sends on our outbound stream; ignore
        }
      } catch {
        // stream reset: handled by the writer
      }
    })();
    return stream;
  }

  private async pump(
    peerId: string,
    box: Outbox,
    protocol: string,
    boxes: Map<string, Outbox>,
  ): Promise<void> {
    box.pumping = true;
    try {
      while (box.queue.length > 0 && !this.stopped && boxes.get(peerId) === box) {
        const frame = box.queue[0] as Uint8Array;
        let sent = false;
        for (let attempt = 0; attempt < 2 && !sent; attempt++) {
          try {
            if (box.stream === null || box.stream.status !== "open" || box.stream.writeStatus !== "writable")
              box.stream = await this.openStream(peerId, protocol);
            const stream = box.stream;
            if (!stream.send(frame))
              await stream.onDrain({ signal: AbortSignal.timeout(this.limits.dialTimeoutMs) });
            sent = true;
          } catch (err) {
            box.stream?.abort(err instanceof Error ? err : new Error(String(err)));
            box.stream = null;
            if (attempt === 1 || this.stopped) {
              this.log?.debug("direct send failed; dropping queued frames", {
                protocol,
                peer: peerId,
                dropped: box.queue.length,
                err: String(err),
              });
              box.queue.length = 0;
              return;
            }
          }
        }
        box.queue.shift();
        this.metrics?.messageOut(protocol, frame.length);
      }
    } finally {
      box.pumping = false;
    }
  }

  // ---------------------------------------------------------------- DKG streams

  /** Sets the receiver of direct DKG frames (from any connected peer that is not banned). */
  onDkg(handler: DkgFrameHandler): void {
    this.dkgHandler = handler;
  }

  /**
   * Queues `payload` as one frame to `peerId` on the DKG protocol (dialing if needed). Frames to
   * one peer keep their order; delivery is best effort (the DKG driver resends). Throws
   * `FRAME_TOO_LARGE` above `maxDkgFrameBytes`; returns false if the queue is full or the node
   * is stopped.
   */
  sendDkg(peerId: string, payload: Uint8Array): boolean {
    const frame = encodeFrame(payload, this.limits.maxDkgFrameBytes);
    if (this.stopped || peerId === this.lp?.peerId.toString() || this.scores.isBanned(peerId)) return false;
    let box = this.dkgOutboxes.get(peerId);
    if (box === undefined) {
      box = { stream: null, queue: [], pumping: false };
      this.dkgOutboxes.set(peerId, box);
    }
    if (box.queue.length >= this.limits.maxQueuedFrames) {
      this.log?.warn("dkg queue full, frame dropped", { peer: peerId });
      return false;
    }
    box.queue.push(frame);
    if (!box.pumping) void this.pump(peerId, box, this.topicNames.dkg, this.dkgOutboxes);
    return true;
  }

  private async onDkgStream(stream: Stream, conn: Connection): Promise<void> {
    const peer = conn.remotePeer.toString();
    if (this.scores.isBanned(peer)) {
      stream.abort(new P2pError("PEER_BANNED", "peer is banned", { peer }));
      return;
    }
    const protocol = this.topicNames.dkg;
    const decoder = new FrameDecoder(this.limits.maxDkgFrameBytes);
    try {
      for await (const chunk of stream) {
        for (const frame of decoder.push(chunkBytes(chunk))) {
          if (this.scores.isBanned(peer)) {
            stream.abort(new P2pError("PEER_BANNED", "peer is banned", { peer }));
            return;
          }
          this.metrics?.messageIn(protocol, frame.length);
          try {
            this.dkgHandler?.(frame, this.info(peer));
          } catch (err) {
            this.log?.error("dkg handler threw", { peer, err: String(err) });
          }
        }
      }
      decoder.end();
    } catch (err) {
      if (isP2pError(err, "FRAME_TOO_LARGE")) {
        this.penalize(peer, PENALTY.oversizeFrame, "oversize dkg frame");
        stream.abort(err);
      } else if (isP2pError(err, "FRAME_TRUNCATED")) {
        this.penalize(peer, PENALTY.undecodable, "truncated dkg frame");
      } else this.log?.debug("dkg stream ended with an error", { peer, err: String(err) });
    }
  }

  private async onConsensusStream(stream: Stream, conn: Connection): Promise<void> {
    const peer = conn.remotePeer.toString();
    const validator = this.validatorSet.indexOf(peer);
    if (validator === null) {
      this.log?.debug("consensus stream from a non-validator dropped", { peer });
      this.penalize(peer, PENALTY.notValidator, "consensus stream from a non-validator");
      stream.abort(new P2pError("UNKNOWN_VALIDATOR", "peer is not a validator", { peer }));
      return;
    }
    const decoder = new FrameDecoder(this.limits.maxConsensusFrameBytes);
    try {
      for await (const chunk of stream) {
        const frames = decoder.push(chunkBytes(chunk));
        for (const frame of frames) {
          // the validator set may change while the stream is open
          const now = this.validatorSet.indexOf(peer);
          if (now === null) {
            stream.abort(new P2pError("UNKNOWN_VALIDATOR", "peer is no longer a validator", { peer }));
            return;
          }
          this.metrics?.messageIn(CONSENSUS_PROTOCOL, frame.length);
          try {
            this.consensusHandler?.(frame, { peerId: peer, validator: now });
          } catch (err) {
            this.log?.error("consensus handler threw", { peer, err: String(err) });
          }
        }
      }
      decoder.end();
    } catch (err) {
      if (isP2pError(err, "FRAME_TOO_LARGE")) {
        this.penalize(peer, PENALTY.oversizeFrame, "oversize consensus frame");
        stream.abort(err);
      } else if (isP2pError(err, "FRAME_TRUNCATED")) {
        this.penalize(peer, PENALTY.undecodable, "truncated consensus frame");
      } else this.log?.debug("consensus stream ended with an error", { peer, err: String(err) });
    }
  }

  // ---------------------------------------------------------------- sync

  /** Sets the block-sync responder. */
  onSync(handler: SyncHandler): void {
    this.syncHandler = handler;
  }

  /**
   * Sends one request to `peerId` on /cowboy/sync/1 and returns its response. Throws
   * `SYNC_FAILED` (timeout, reset, malformed or oversize response; the last two penalize
   * the responder) or `FRAME_TOO_LARGE` for an oversize request.
   */
  async requestSync(
    peerId: string,
    request: Uint8Array,
    timeoutMs = this.limits.syncTimeoutMs,
  ): Promise<Uint8Array> {
    const frame = encodeFrame(request, this.limits.maxSyncRequestBytes);
    const lp = this.libp2p;
    const signal = AbortSignal.timeout(timeoutMs);
    let stream: Stream;
    try {
      stream = await lp.dialProtocol(peerIdFromString(peerId), SYNC_PROTOCOL, { signal });
    } catch (err) {
      throw new P2pError("SYNC_FAILED", `cannot open a sync stream to ${peerId}`, { peer: peerId }, err);
    }
    const onAbort = () =>
      stream.abort(new P2pError("SYNC_FAILED", "sync request timed out", { peer: peerId }));
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      this.metrics?.messageOut(SYNC_PROTOCOL, frame.length);
      if (!stream.send(frame)) await stream.onDrain({ signal });
      await stream.close({ signal });
      const frames = await this.readAll(stream, this.limits.maxSyncResponseBytes, signal);
      if (frames.length !== 1) {
        this.penalize(peerId, PENALTY.undecodable, "sync response is not exactly one frame");
        throw new P2pError("SYNC_FAILED", `sync response had ${frames.length} frames`, { peer: peerId });
      }
      const response = frames[0] as Uint8Array;
      this.metrics?.messageIn(SYNC_PROTOCOL, response.length);
      return response;
    } catch (err) {
      if (isP2pError(err, "SYNC_FAILED")) throw err;
      if (isP2pError(err, "FRAME_TOO_LARGE")) {
        this.penalize(peerId, PENALTY.oversizeFrame, "oversize sync response");
        stream.abort(err);
      } else if (isP2pError(err, "FRAME_TRUNCATED"))
        this.penalize(peerId, PENALTY.undecodable, "truncated sync response");
      if (signal.aborted)
        throw new P2pError(
          "SYNC_FAILED",
          `sync request to ${peerId} timed out`,
          { peer: peerId, timeoutMs },
          err,
        );
      throw new P2pError("SYNC_FAILED", `sync request to ${peerId} failed`, { peer: peerId }, err);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Reads frames until the remote closes its side (stopping early after a second frame,
   * which every caller treats as a protocol violation). `signal` aborts the stream.
   */
  private async readAll(stream: Stream, max: number, signal: AbortSignal): Promise<Uint8Array[]> {
    const onAbort = () => stream.abort(new P2pError("SYNC_FAILED", "stream read timed out"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const decoder = new FrameDecoder(max);
      const frames: Uint8Array[] = [];
      for await (const chunk of stream) {
        frames.push(...decoder.push(chunkBytes(chunk)));
        if (frames.length > 1) break;
      }
      if (frames.length <= 1) decoder.end();
      return frames;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  private async onSyncStream(stream: Stream, conn: Connection): Promise<void> {
    const peer = conn.remotePeer.toString();
    const handler = this.syncHandler;
    if (handler === null) {
      stream.abort(new P2pError("SYNC_NO_HANDLER", "this node serves no sync requests"));
      return;
    }
    try {
      const frames = await this.readAll(
        stream,
        this.limits.maxSyncRequestBytes,
        AbortSignal.timeout(this.limits.syncTimeoutMs),
      );
      if (frames.length !== 1) {
        this.penalize(peer, PENALTY.undecodable, "sync request is not exactly one frame");
        stream.abort(new P2pError("SYNC_FAILED", "expected exactly one request frame"));
        return;
      }
      const request = frames[0] as Uint8Array;
      this.metrics?.messageIn(SYNC_PROTOCOL, request.length);
      const response = await handler(request, this.info(peer));
      const out = encodeFrame(response, this.limits.maxSyncResponseBytes);
      if (!stream.send(out)) await stream.onDrain({ signal: AbortSignal.timeout(this.limits.syncTimeoutMs) });
      this.metrics?.messageOut(SYNC_PROTOCOL, out.length);
      await stream.close({ signal: AbortSignal.timeout(this.limits.syncTimeoutMs) });
    } catch (err) {
      if (isP2pError(err, "FRAME_TOO_LARGE") && err.data.max === this.limits.maxSyncRequestBytes)
        this.penalize(peer, PENALTY.oversizeFrame, "oversize sync request");
      else if (isP2pError(err, "FRAME_TRUNCATED"))
        this.penalize(peer, PENALTY.undecodable, "truncated sync request");
      else this.log?.warn("sync request failed", { peer, err: String(err) });
      stream.abort(err instanceof Error ? err : new Error(String(err)));
    }
  }

  // ---------------------------------------------------------------- discovery

  /** Dials unconnected bootstrap peers and validators, and asks one peer for its peers. */
  private async maintain(): Promise<void> {
    if (this.stopped || this.lp === null || this.maintaining) return;
    this.maintaining = true;
    try {
      await this.maintainOnce(this.lp);
    } catch (err) {
      this.log?.debug("maintenance round failed", { err: String(err) });
    } finally {
      this.maintaining = false;
    }
  }

  private async maintainOnce(lp: Libp2p<Services>): Promise<void> {
    const connected = new Set(lp.getPeers().map((p) => p.toString()));
    for (const addr of this.cfg.bootstrap ?? []) {
      const ma = multiaddr(addr);
      const pid = peerIdOf(ma);
      if (pid === null || pid === this.peerId || connected.has(pid) || this.scores.isBanned(pid)) continue;
      this.dial(ma, pid);
    }
    for (const { peerId } of this.validatorSet.entries()) {
      if (peerId === this.peerId || connected.has(peerId) || this.scores.isBanned(peerId)) continue;
      const known = await lp.peerStore.has(peerIdFromString(peerId)).catch(() => false);
      if (known) this.dial(peerIdFromString(peerId), peerId);
    }
    const peers = [...connected];
    const pick = peers[Math.floor(Math.random() * peers.length)];
    if (pick !== undefined) await this.exchangePeers(pick);
  }

  private dial(target: Multiaddr | PeerId, label: string): void {
    if (this.stopped || this.lp === null) return;
    this.lp.dial(target, { signal: AbortSignal.timeout(this.limits.dialTimeoutMs) }).catch((err: unknown) => {
      this.log?.debug("dial failed", { peer: label, err: String(err) });
    });
  }

  /** Asks `peerId` for the peers it is connected to, and dials the ones we lack. Never throws. */
  private async exchangePeers(peerId: string): Promise<void> {
    if (this.stopped || this.lp === null) return;
    try {
      await this.exchangeWith(this.lp, peerId);
    } catch (err) {
      this.log?.debug("peer exchange failed", { peer: peerId, err: String(err) });
    }
  }

  private async exchangeWith(lp: Libp2p<Services>, peerId: string): Promise<void> {
    let frames: Uint8Array[];
    try {
      const stream = await lp.dialProtocol(peerIdFromString(peerId), PEERS_PROTOCOL, {
        signal: AbortSignal.timeout(this.limits.dialTimeoutMs),
      });
      // an empty request frame (writing also completes protocol negotiation on lazy muxers)
      const timeout = AbortSignal.timeout(this.limits.dialTimeoutMs);
      stream.send(encodeFrame(new Uint8Array(0), 0));
      await stream.close({ signal: timeout });
      frames = await this.readAll(stream, PEERS_FRAME_MAX, timeout);
    } catch (err) {
      if (isP2pError(err, "FRAME_TOO_LARGE") || isP2pError(err, "FRAME_TRUNCATED"))
        this.penalize(peerId, PENALTY.undecodable, "bad peer-exchange response");
      else this.log?.debug("peer exchange failed", { peer: peerId, err: String(err) });
      return;
    }
    const list = frames.length === 1 ? parsePeerList(frames[0] as Uint8Array) : null;
    if (list === null) {
      this.penalize(peerId, PENALTY.undecodable, "malformed peer-exchange response");
      return;
    }
    this.log?.debug("peer exchange", { peer: peerId, received: list.length });
    const me = lp.peerId.toString();
    const connected = new Set(lp.getPeers().map((p) => p.toString()));
    for (const entry of list) {
      if (entry.id === me || connected.has(entry.id) || this.scores.isBanned(entry.id)) continue;
      if (lp.getPeers().length >= this.limits.maxConnections) break;
      const pid = peerIdFromString(entry.id);
      await lp.peerStore.merge(pid, { multiaddrs: entry.addrs.map((a) => multiaddr(a)) });
      this.dial(pid, entry.id);
    }
  }

  private async onPeersStream(stream: Stream, conn: Connection): Promise<void> {
    const lp = this.lp;
    if (lp === null) return;
    const asker = conn.remotePeer.toString();
    try {
      const request = await this.readAll(stream, 0, AbortSignal.timeout(this.limits.dialTimeoutMs));
      if (request.length !== 1) throw new P2pError("FRAME_TRUNCATED", "expected one empty request frame");
    } catch (err) {
      if (isP2pError(err, "FRAME_TOO_LARGE") || isP2pError(err, "FRAME_TRUNCATED"))
        this.penalize(asker, PENALTY.undecodable, "bad peer-exchange request");
      stream.abort(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    const out: Array<{ id: string; addrs: string[] }> = [];
    for (const pid of lp.getPeers()) {
      if (out.length >= MAX_PEERS_PER_EXCHANGE) break;
      const id = pid.toString();
      if (id === asker || this.scores.isBanned(id)) continue;
      try {
        const peer = await lp.peerStore.get(pid);
        const addrs = peer.addresses.map((a) => a.multiaddr.toString()).slice(0, 8);
        if (addrs.length > 0) out.push({ id, addrs });
      } catch {
        // not in the peer store yet (identify pending): skip
      }
    }
    try {
      const frame = encodeFrame(new TextEncoder().encode(JSON.stringify(out)), PEERS_FRAME_MAX);
      if (!stream.send(frame))
        await stream.onDrain({ signal: AbortSignal.timeout(this.limits.dialTimeoutMs) });
      await stream.close({ signal: AbortSignal.timeout(this.limits.dialTimeoutMs) });
    } catch (err) {
      this.log?.debug("peer exchange reply failed", { peer: asker, err: String(err) });
      stream.abort(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private tagValidators(): void {
    const lp = this.lp;
    if (lp === null || this.stopped) return;
    for (const { peerId } of this.validatorSet.entries()) {
      if (peerId === lp.peerId.toString()) continue;
      lp.peerStore
        .merge(peerIdFromString(peerId), { tags: { "cowboy-validator": { value: 100 } } })
        .catch((err: unknown) =>
          this.log?.debug("tagging validator failed", { peer: peerId, err: String(err) }),
        );
    }
  }
}

/** Strictly parses a peer-exchange list; null if malformed. */
export function parsePeerList(bytes: Uint8Array): Array<{ id: string; addrs: string[] }> | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length > MAX_PEERS_PER_EXCHANGE) return null;
  const out: Array<{ id: string; addrs: string[] }> = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) return null;
    const { id, addrs } = item as { id?: unknown; addrs?: unknown };
    if (typeof id !== "string" || !Array.isArray(addrs) || addrs.length > 8) return null;
    try {
      peerIdFromString(id);
      for (const a of addrs) {
        if (typeof a !== "string") return null;
        multiaddr(a);
      }
    } catch {
      return null;
    }
    out.push({ id, addrs: addrs as string[] });
  }
  return out;
}
