/**
 * {@link DkgDriver}: the validator node's side of the on-chain resharing ceremony
 * (docs/consensus.md "Epoch transitions and resharing", contract C4).
 *
 * The chain opens ceremony `e+1` at the freeze height F(e) (`chain.openCeremony()`), accepts the
 * dealers' signed logs as `DkgLog` transactions in blocks `firstHeight..lastHeight`, and at the
 * last block of epoch `e` finalizes it over the logs it holds (`chain.epochGroup(e+1)`). This
 * driver, fed every finalized height by the node (`onFinalized`), does the rest for the local
 * validator key:
 * - **dealer** (a player of the current group's output): deals its share of the previous output
 *   (`shareFor(e)`), sends every player its dealing directly, collects acknowledgements, closes
 *   dealing once every player acknowledged or at the midpoint height
 *   `firstHeight + ⌊(lastHeight − firstHeight)/2⌋`, and submits its signed log through
 *   `submitLog`; it resubmits every few blocks until a log of its own is in the chain's
 *   *finalized* state (`finalizedCeremony`: a log in a speculative block may vanish with it; a
 *   duplicate is refused by the chain, so resubmitting is idempotent);
 * - **player** (a member of the set of `e+1`): verifies each dealing, acknowledges it, and after
 *   the boundary, once `chain.epochGroup(e+1).ceremony` is this ceremony, finalizes with the
 *   chain's log list (`chain.ceremony(n).logs`, the list the chain's own observer used) to
 *   obtain its new share; the share is persisted before {@link DkgDriver.shareFor} returns it.
 *   A share of a ceremony the chain did not accept is never derived nor used.
 *
 * Network (`/cowboy/<chain>/dkg/1`, {@link DkgNetwork}): the only gossip is a signed *hello*
 * `(chain, ceremony, BLS key, peer id)` binding a participant's BLS key to its libp2p peer id;
 * dealings (public commitment + private share) and acknowledgements are direct frames to the
 * bound peer, each carrying the sender's binding signature for the connection's peer id (libp2p
 * connections are authenticated and encrypted, so a frame from peer P with a valid binding of key
 * K to P comes from the holder of K) and the recipient's key (a frame for another key is dropped:
 * a participant could announce someone else's peer id, and must not thereby get that node to
 * refuse a dealing or penalize an honest sender). Hellos are re-published every few finalized blocks, and a
 * dealer resends its dealing to every player that has not acknowledged it (on each hello of that
 * player and every few blocks), so players that restarted or were offline catch up.
 *
 * Restarts: the ceremony is deterministic (dealing randomness derived from the key and the
 * ceremony number), so a restarted dealer deals identically; players acknowledge a repeated
 * dealing again. Files under `<dataDir>/dkg/` (mode 0600, written to a temporary file, fsynced,
 * renamed, directory fsynced): `share-<n>.json` (a derived share), `dealings-<n>.json` (dealings
 * a player acknowledged, persisted before the acknowledgement is sent: a log that says "acked"
 * must be answerable after a crash; a dealer-player's dealing to itself too, which nobody sends
 * it again and which it cannot deal again if its previous share is gone), `log-<n>.bin` (a
 * dealer's closed log, resubmitted after a restart instead of dealing anew).
 *
 * Bounded input: frames for a ceremony that is not open here, from keys that are not its
 * dealers/players, whose binding does not verify, or larger than the limits are dropped; bad
 * data from an authenticated sender (or an undecodable frame) penalizes the peer through the
 * p2p layer's scores.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { DkgCeremony, DkgError, type DkgTransport, loadNative } from "@cowboy/consensus";
import { type P2pNode, PENALTY } from "@cowboy/p2p";
import type { Logger } from "../devnet/logger.ts";

// ----- what the driver needs from the chain (contract C4) -----

/** A DKG ceremony opened by the chain (`chain.openCeremony()` / `chain.ceremony(n)`). */
export interface CeremonyRecord {
  readonly ceremony: number;
  /** the epoch whose group the ceremony produces (e+1) */
  readonly epoch: number;
  readonly dealers: readonly Uint8Array[];
  readonly players: readonly Uint8Array[];
  readonly previousOutput: Uint8Array;
  /** F(e): the block that opened it */
  readonly firstHeight: number;
  /** (e+1)·E − 1: the last block that may carry a log */
  readonly lastHeight: number;
  /** the dealer logs on chain, in block order */
  readonly logs: readonly Uint8Array[];
}

/** An epoch's threshold group (`chain.epochGroup(epoch)`). */
export interface EpochGroup {
  readonly epoch: number;
  /** 0 = the genesis output; else the ceremony that produced it */
  readonly ceremony: number;
  readonly output: Uint8Array;
  /** `BlsGroup` bytes */
  readonly group: Uint8Array;
  readonly threshold: number;
  readonly members: ReadonlyArray<{
    readonly address: Uint8Array;
    readonly blsKey: Uint8Array;
    readonly stake: bigint;
    readonly shareIndex: number;
  }>;
}

/** The chain reads the driver uses (a subset of `Chain`). */
export interface DkgChain {
  readonly chainId: bigint;
  /** epoch e = heights [e·E, (e+1)·E), E = `epochBlocks` */
  validatorParams(): { readonly epochBlocks: number };
  openCeremony(): CeremonyRecord | null;
  ceremony(n: number): CeremonyRecord | null;
  epochGroup(epoch: number): EpochGroup | null;
}

// ----- network -----

/** Verdict of a gossip validation (the p2p layer penalizes the relayer on "reject"). */
export type DkgGossipVerdict = "accept" | "ignore" | "reject";

/**
 * The driver's network: gossip on the DKG topic and direct frames on the DKG protocol
 * (`/cowboy/<chain>/dkg/1`). {@link p2pDkgNetwork} adapts a {@link P2pNode}; tests use an
 * in-memory implementation.
 */
export interface DkgNetwork {
  /** this node's peer id */
  readonly peerId: string;
  /** publishes on the DKG topic (best effort) */
  publish(data: Uint8Array): void;
  /** sends one direct frame to `peerId` (best effort; false if not queued) */
  send(peerId: string, data: Uint8Array): boolean;
  /** installs the receivers (once) */
  listen(handlers: {
    gossip(data: Uint8Array, fromPeer: string): DkgGossipVerdict;
    direct(data: Uint8Array, fromPeer: string): void;
  }): void;
  /** lowers a peer's score (the p2p layer's scoring; may ban it) */
  penalize(peerId: string, amount: number, reason: string): void;
}

/** {@link DkgNetwork} over a running {@link P2pNode} (gossip kind "dkg" + `sendDkg`/`onDkg`). */
export function p2pDkgNetwork(node: P2pNode, logger: Logger | null = null): DkgNetwork {
  return {
    get peerId() {
      return node.peerId;
    },
    publish(data) {
      node.publish("dkg", data).catch((err: unknown) => {
        logger?.debug({ err: (err as Error).message }, "dkg gossip not sent");
      });
    },
    send: (peerId, data) => node.sendDkg(peerId, data),
    listen(h) {
      node.onGossip("dkg", { validate: (data, from) => h.gossip(data, from.peerId), deliver: () => {} });
      node.onDkg((frame, from) => h.direct(frame, from.peerId));
    },
    penalize: (peerId, amount, reason) => node.penalize(peerId, amount, reason),
  };
}

// ----- driver -----

/** A share of an epoch's group: `index` = share index (position in the output's players). */
export interface DkgShare {
  readonly index: number;
  /** `varint index ‖ scalar` */
  readonly share: Uint8Array;
}

/** Counters the driver bumps (e.g. prom-client-like counters of the validator's registry). */
export interface DkgMetrics {
  readonly ceremoniesStarted: { inc(n?: number): void };
  readonly logsSubmitted: { inc(n?: number): void };
  readonly sharesDerived: { inc(n?: number): void };
  readonly failures: { inc(n?: number): void };
}

export interface DkgDriverOptions {
  /** the node's chain (or a getter, if the node may swap its chain handle) */
  readonly chain: DkgChain | (() => DkgChain);
  readonly network: DkgNetwork;
  /** this validator's 32-byte BLS secret key */
  readonly secretKey: Uint8Array;
  /** its 48-byte public key (checked against `secretKey`; derived when omitted) */
  readonly blsKey?: Uint8Array | null;
  /** puts a dealer log on chain (a `DkgLog` transaction); rejections are retried later */
  readonly submitLog: (ceremony: number, log: Uint8Array) => Promise<void>;
  /** the node's data directory; the driver writes under `<dataDir>/dkg/` */
  readonly dataDir: string;
  /** this node's share of the genesis output (ceremony 0), if it holds one */
  readonly genesisShare: DkgShare | null;
  readonly logger?: Logger | null;
  readonly metrics?: DkgMetrics | null;
  /** re-publish the hello and resend unacknowledged dealings every this many blocks (default 2) */
  readonly resendEveryBlocks?: number;
  /** resubmit a log not on chain after this many blocks (default 3) */
  readonly submitRetryBlocks?: number;
  /**
   * Ceremony `n` as of the state after finalized block `height` (the node reads its store at
   * the version committed for that block; null if unknown there or no longer readable). A
   * dealer decides that its log is on chain from this only: the chain's head may run ahead of
   * finality, and a log in a speculative block that is later dropped must be submitted again.
   * (`(n) => chain.ceremony(n)` is right only for a chain whose head never runs ahead of
   * finality, e.g. one that applies finalized blocks only.)
   */
  readonly finalizedCeremony: (n: number, height: number) => CeremonyRecord | null;
  /**
   * The node's finalized height at construction (its finalized tip). Shares are derived only
   * once the ceremony's last block is final here (this, or a later `onFinalized`): the chain's
   * head may run ahead of finality, and a share must come from final logs.
   */
  readonly finalizedHeight?: number;
  /**
   * true: start no session and submit no log until {@link DkgDriver.ready} (the node calls it
   * once its initial sync is over and transaction gossip runs: a log submitted while syncing
   * through a past ceremony window would be admitted locally but never gossiped). Finalized
   * heights seen before are only recorded; a ceremony whose window passed meanwhile is never
   * started. Default false (active at once).
   */
  readonly waitForSync?: boolean;
}

/** Derived shares kept on disk (the newest; older ceremonies' groups are long replaced). */
export const KEPT_SHARES = 3;

export class DkgDriverError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "DkgDriverError";
    this.code = code;
  }
}

/** Namespace of the hello / binding signature (key ↔ peer id). */
export const DKG_PEER_NAMESPACE = "cowboy-dkg-peer-v1";
/** Wire version of DKG frames. */
export const DKG_WIRE_VERSION = 1;
/** Largest DKG frame or gossip message the driver accepts. */
export const MAX_DKG_FRAME_BYTES = 256 * 1024;
const MAX_PUBLIC_BYTES = 192 * 1024;
const MAX_PRIVATE_BYTES = 4 * 1024;
const MAX_ACK_BYTES = 4 * 1024;
const MAX_PEER_ID_BYTES = 128;

const T_HELLO = 1;
const T_DEAL = 2;
const T_ACK = 3;
const KEY = 48;
const SIG = 96;
const HEADER = 1 + 1 + 8 + 8 + KEY + SIG;

type Frame =
  | { type: "hello"; ceremony: number; key: Buffer; sig: Buffer; peerId: string }
  | { type: "deal"; ceremony: number; key: Buffer; sig: Buffer; to: Buffer; pub: Buffer; priv: Buffer }
  | { type: "ack"; ceremony: number; key: Buffer; sig: Buffer; to: Buffer; ack: Buffer };

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(v);
  return b;
};
const u32 = (v: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};

/** The message a binding signature covers: chain id ‖ ceremony ‖ key ‖ peer id (UTF-8). */
export function bindingMessage(chainId: bigint, ceremony: number, key: Uint8Array, peerId: string): Buffer {
  return Buffer.concat([u64(chainId), u64(BigInt(ceremony)), Buffer.from(key), Buffer.from(peerId, "utf8")]);
}

function encodeFrame(chainId: bigint, f: Frame): Buffer {
  const head = [
    Buffer.from([DKG_WIRE_VERSION, f.type === "hello" ? T_HELLO : f.type === "deal" ? T_DEAL : T_ACK]),
    u64(chainId),
    u64(BigInt(f.ceremony)),
    f.key,
    f.sig,
  ];
  if (f.type === "hello") {
    const id = Buffer.from(f.peerId, "utf8");
    const len = Buffer.alloc(2);
    len.writeUInt16BE(id.length);
    return Buffer.concat([...head, len, id]);
  }
  if (f.type === "deal")
    return Buffer.concat([...head, f.to, u32(f.pub.length), f.pub, u32(f.priv.length), f.priv]);
  return Buffer.concat([...head, f.to, u32(f.ack.length), f.ack]);
}

/** Strict decoding; null for anything malformed (wrong version, chain, lengths, trailing bytes). */
export function decodeDkgFrame(chainId: bigint, data: Uint8Array): Frame | null {
  if (data.length < HEADER || data.length > MAX_DKG_FRAME_BYTES) return null;
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b[0] !== DKG_WIRE_VERSION) return null;
  const type = b[1];
  if (b.readBigUInt64BE(2) !== chainId) return null;
  const c = b.readBigUInt64BE(10);
  if (c > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const ceremony = Number(c);
  const key = Buffer.from(b.subarray(18, 18 + KEY));
  const sig = Buffer.from(b.subarray(18 + KEY, HEADER));
  let at = HEADER;
  const take = (max: number, width: 2 | 4): Buffer | null => {
    if (at + width > b.length) return null;
    const len = width === 2 ? b.readUInt16BE(at) : b.readUInt32BE(at);
    at += width;
    if (len > max || at + len > b.length) return null;
    const out = Buffer.from(b.subarray(at, at + len));
    at += len;
    return out;
  };
  const recipient = (): Buffer | null => {
    if (at + KEY > b.length) return null;
    const out = Buffer.from(b.subarray(at, at + KEY));
    at += KEY;
    return out;
  };
  let frame: Frame | null = null;
  if (type === T_HELLO) {
    const id = take(MAX_PEER_ID_BYTES, 2);
    if (id === null) return null;
    let peerId: string;
    try {
      peerId = new TextDecoder("utf-8", { fatal: true }).decode(id);
    } catch {
      return null;
    }
    if (peerId.length === 0) return null;
    frame = { type: "hello", ceremony, key, sig, peerId };
  } else if (type === T_DEAL) {
    const to = recipient();
    const pub = to === null ? null : take(MAX_PUBLIC_BYTES, 4);
    const priv = pub === null ? null : take(MAX_PRIVATE_BYTES, 4);
    if (to === null || pub === null || priv === null) return null;
    frame = { type: "deal", ceremony, key, sig, to, pub, priv };
  } else if (type === T_ACK) {
    const to = recipient();
    const ack = to === null ? null : take(MAX_ACK_BYTES, 4);
    if (to === null || ack === null) return null;
    frame = { type: "ack", ceremony, key, sig, to, ack };
  }
  return frame !== null && at === b.length ? frame : null;
}

/** The share index a share's bytes carry (`varint index ‖ scalar`, LEB128), or -1 if malformed. */
export function shareIndexOfBytes(share: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 5 && i < share.length; i++) {
    const b = share[i] as number;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return i > 0 && b === 0 ? -1 : value;
  }
  return -1;
}

/** Writes `data` to `path` atomically (temp file, fsync, rename, directory fsync), mode 0600. */
function writeFileDurable(path: string, data: Uint8Array): void {
  const dir = join(path, "..");
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dfd = openSync(dir, "r");
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

interface StoredShare {
  readonly ceremony: number;
  readonly epoch: number;
  readonly index: number;
  readonly share: Buffer;
  readonly groupPublicKey: string;
}

/** One ceremony this node takes part in. */
interface Session {
  readonly n: number;
  readonly record: CeremonyRecord;
  readonly ceremony: DkgCeremony;
  /** I deal in it (false once dealing failed: I sit it out as a dealer) */
  isDealer: boolean;
  readonly isPlayer: boolean;
  /** the binding signature of my key to my peer id for this ceremony */
  readonly mySig: Buffer;
  /** first finalized height seen by this session (restart grace) */
  readonly startHeight: number;
  lastResend: number;
  /** dealer: my public commitment and my dealings by player hex */
  publicMessage: Buffer | null;
  readonly dealings: Map<string, { player: Buffer; message: Buffer }>;
  /** dealer: players whose acknowledgement I recorded */
  readonly acked: Set<string>;
  /** dealer: my closed log, when I submitted it last, whether it is on chain */
  log: Buffer | null;
  submittedAt: number | null;
  onChain: boolean;
  chainLogsSeen: number;
  /** player: dealings acknowledged (persisted), by dealer hex */
  readonly received: Map<string, { dealer: Buffer; pub: Buffer; priv: Buffer }>;
  /** player: the dealing being processed (persisted when it is acknowledged) */
  inflight: { dealer: Buffer; pub: Buffer; priv: Buffer } | null;
  /** player: my acknowledgements by dealer hex (resent when the dealer's binding arrives) */
  readonly acksOut: Map<string, { dealer: Buffer; ack: Buffer }>;
  /** key hex → its peer id and binding signature (verified); one per participant key */
  readonly peers: Map<string, { peer: string; sig: Buffer }>;
  /** dealers / players by key hex (bounded membership checks) */
  readonly dealerSet: Set<string>;
  readonly playerSet: Set<string>;
}

type Native = ReturnType<typeof loadNative>;

/**
 * Runs the chain's resharing ceremonies for one validator key. Not thread-safe; call from the
 * node's event loop. Construct it once per process, after the chain is open and the p2p node
 * runs (it `listen`s on the network at construction):
 *
 * ```ts sketch
 * const dkg = new DkgDriver({
 *   chain: () => app.chain, finalizedCeremony: (n, h) => app.finalizedCeremony(n, h),
 *   network: p2pDkgNetwork(running.node, log),
 *   secretKey: signer.secretKey, blsKey, submitLog: (n, log) => sendDkgLogTx(n, log),
 *   dataDir, genesisShare, finalizedHeight: app.tip(), logger: log, metrics,
 * });
 * // for every finalized block, before switching the voter at an epoch's last block:
 * dkg.onFinalized(height);
 * const share = dkg.shareFor(epoch + 1); // null: follow without voting
 * ```
 */
export class DkgDriver {
  private readonly chainOf: () => DkgChain;
  private readonly net: DkgNetwork;
  private readonly secretKey: Buffer;
  /** my 48-byte BLS key */
  readonly blsKey: Buffer;
  private readonly submit: (ceremony: number, log: Uint8Array) => Promise<void>;
  private readonly dir: string;
  private readonly genesisShare: DkgShare | null;
  private readonly log: Logger | null;
  private readonly metrics: DkgMetrics | null;
  private readonly resendEvery: number;
  private readonly retryBlocks: number;
  private readonly finalizedCeremony: (n: number, height: number) => CeremonyRecord | null;
  private readonly x: Native;
  private readonly sessions = new Map<number, Session>();
  /** ceremonies finished here (or not mine): never restarted */
  private readonly done = new Set<number>();
  private readonly shares = new Map<number, StoredShare>();
  private lastHeight: number;
  /** false until `ready()` when constructed with `waitForSync` */
  private synced: boolean;
  private swept = false;
  /** hellos relayed for the open ceremony when this node takes no part in it */
  private relay: { n: number; keys: Set<string>; seen: Map<string, string> } | null = null;
  /** `ceremony:group` pairs whose share verified against the group */
  private readonly checked = new Set<string>();

  /** Throws `DkgDriverError` (`ERR_DKG_DRIVER_KEY`, `ERR_DKG_DRIVER_STORE`) for a bad key or unreadable share files. */
  constructor(o: DkgDriverOptions) {
    const chain = o.chain;
    this.chainOf = typeof chain === "function" ? chain : () => chain;
    this.net = o.network;
    this.x = loadNative();
    this.secretKey = Buffer.from(o.secretKey);
    let pk: Buffer;
    try {
      pk = this.x.blsPublicKey(this.secretKey);
    } catch (err) {
      throw new DkgDriverError("ERR_DKG_DRIVER_KEY", `invalid BLS secret key: ${(err as Error).message}`);
    }
    if (o.blsKey != null && !pk.equals(Buffer.from(o.blsKey)))
      throw new DkgDriverError("ERR_DKG_DRIVER_KEY", "blsKey is not the public key of secretKey");
    this.blsKey = pk;
    this.submit = o.submitLog;
    this.dir = join(o.dataDir, "dkg");
    this.genesisShare = o.genesisShare;
    this.log = o.logger ?? null;
    this.metrics = o.metrics ?? null;
    this.resendEvery = Math.max(1, o.resendEveryBlocks ?? 2);
    this.retryBlocks = Math.max(1, o.submitRetryBlocks ?? 3);
    this.finalizedCeremony = o.finalizedCeremony;
    this.lastHeight = o.finalizedHeight ?? -1;
    this.synced = o.waitForSync !== true;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new DkgDriverError(
        "ERR_DKG_DRIVER_STORE",
        `cannot create ${this.dir}: ${(err as Error).message}`,
      );
    }
    this.loadShares();
    this.net.listen({
      gossip: (data, from) => this.onGossip(data, from),
      direct: (data, from) => this.onDirect(data, from),
    });
  }

  private get chain(): DkgChain {
    return this.chainOf();
  }

  // ----- shares -----

  private loadShares(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (err) {
      throw new DkgDriverError("ERR_DKG_DRIVER_STORE", `cannot list ${this.dir}: ${(err as Error).message}`);
    }
    for (const name of names) {
      const m = /^share-(\d+)\.json$/.exec(name);
      if (m === null) continue;
      const path = join(this.dir, name);
      let s: StoredShare;
      try {
        const o = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
        if (
          o.version !== 1 ||
          o.chainId !== String(this.chain.chainId) ||
          typeof o.ceremony !== "number" ||
          typeof o.epoch !== "number" ||
          typeof o.index !== "number" ||
          typeof o.share !== "string" ||
          typeof o.groupPublicKey !== "string" ||
          o.ceremony !== Number(m[1])
        )
          throw new Error("unexpected fields");
        s = {
          ceremony: o.ceremony,
          epoch: o.epoch,
          index: o.index,
          share: Buffer.from(o.share, "hex"),
          groupPublicKey: o.groupPublicKey,
        };
      } catch (err) {
        throw new DkgDriverError(
          "ERR_DKG_DRIVER_STORE",
          `share file ${path} is unreadable (${(err as Error).message}); move it away to continue without it`,
        );
      }
      this.shares.set(s.ceremony, s);
    }
  }

  /**
   * This node's share of `chain.epochGroup(epoch)`: the genesis share for ceremony 0, else the
   * share derived from that ceremony (derived now if the chain accepted it and it was not yet;
   * persisted before it is returned). Null if the epoch has no group, this key is not a member,
   * or no share could be derived (the node then follows without voting).
   */
  shareFor(epoch: number): DkgShare | null {
    let g: EpochGroup | null;
    try {
      g = this.chain.epochGroup(epoch);
    } catch {
      return null;
    }
    if (g === null) return null;
    const me = g.members.find((m) => Buffer.from(m.blsKey).equals(this.blsKey));
    if (me === undefined) return null;
    let s: DkgShare | null;
    if (g.ceremony === 0) s = this.genesisShare;
    else {
      const stored = this.shares.get(g.ceremony) ?? this.derive(g.ceremony, g);
      s = stored === null ? null : { index: stored.index, share: stored.share };
    }
    if (s === null) return null;
    if (s.index !== me.shareIndex) {
      this.log?.error(
        { epoch, ceremony: g.ceremony, have: s.index, want: me.shareIndex },
        "dkg: the stored share's index does not match the group",
      );
      return null;
    }
    // checked once per ceremony and group: a share file or genesis share of another group is refused
    const tag = `${g.ceremony}:${hex(g.group).slice(0, 64)}`;
    if (!this.checked.has(tag)) {
      if (shareIndexOfBytes(s.share) !== s.index || !this.shareMatches(g.group, Buffer.from(s.share))) {
        this.log?.error(
          { epoch, ceremony: g.ceremony },
          "dkg: my share does not verify against the epoch's group",
        );
        return null;
      }
      this.checked.add(tag);
    }
    return s;
  }

  /** Ceremonies with a persisted share here. */
  storedCeremonies(): number[] {
    return [...this.shares.keys()].sort((a, b) => a - b);
  }

  /** True if `share` verifies against `group` (a partial signature checked by the group). */
  private shareMatches(group: Uint8Array, share: Buffer): boolean {
    try {
      const g = new this.x.BlsGroup(Buffer.from(group));
      const chainId = this.chain.chainId;
      const partial = this.x.blsSeedPartialSign(share, chainId, 0n, 0n);
      return g.verifyPartial("seed", chainId, this.x.blsSeedMessage(0n, 0n), partial);
    } catch {
      return false;
    }
  }

  /**
   * Derives and persists my share of ceremony `n`, which the chain accepted as `g`'s ceremony.
   * Uses the live session, or one rebuilt from the persisted dealings after a restart.
   */
  private derive(n: number, g: EpochGroup): StoredShare | null {
    const rec = this.chain.ceremony(n);
    if (rec === null || !rec.players.some((p) => Buffer.from(p).equals(this.blsKey))) return null;
    if (this.lastHeight < rec.lastHeight) return null; // its logs are not final here yet
    let ceremony: DkgCeremony;
    const live = this.sessions.get(n);
    try {
      ceremony = live?.ceremony ?? this.rebuildPlayer(rec);
    } catch (err) {
      this.fail(n, "cannot rebuild the ceremony to derive the share", err);
      return null;
    }
    let res: ReturnType<DkgCeremony["finalize"]>;
    try {
      res = ceremony.finalize(rec.logs);
    } catch (err) {
      this.fail(n, "finalizing with the chain's logs failed", err);
      this.endSession(n);
      return null;
    }
    this.endSession(n);
    if (res.share === null || res.shareIndex === null) return null;
    if (!res.group.equals(Buffer.from(g.group)) || !this.shareMatches(g.group, res.share)) {
      this.fail(n, "the derived share does not match the chain's group", null);
      return null;
    }
    const stored: StoredShare = {
      ceremony: n,
      epoch: rec.epoch,
      index: res.shareIndex,
      share: res.share,
      groupPublicKey: hex(res.groupPublicKey),
    };
    try {
      writeFileDurable(
        join(this.dir, `share-${n}.json`),
        Buffer.from(
          JSON.stringify({
            version: 1,
            chainId: String(this.chain.chainId),
            epoch: stored.epoch,
            ceremony: n,
            index: stored.index,
            share: hex(stored.share),
            groupPublicKey: stored.groupPublicKey,
          }),
        ),
      );
    } catch (err) {
      this.fail(n, "cannot persist the derived share", err);
      return null;
    }
    this.shares.set(n, stored);
    this.removeFile(`dealings-${n}.json`);
    this.removeFile(`log-${n}.bin`);
    this.pruneShares();
    this.metrics?.sharesDerived.inc();
    const revealed = res.revealed.some((k) => k.equals(this.blsKey));
    this.log?.info(
      { ceremony: n, epoch: rec.epoch, index: stored.index, threshold: res.threshold, revealed },
      "dkg: new share derived",
    );
    if (revealed)
      this.log?.warn({ ceremony: n }, "dkg: my share was revealed publicly (counted faulty this epoch)");
    return stored;
  }

  /** Deletes all but the newest {@link KEPT_SHARES} share files. */
  private pruneShares(): void {
    const old = this.storedCeremonies().slice(0, -KEPT_SHARES);
    for (const n of old) {
      this.shares.delete(n);
      this.removeFile(`share-${n}.json`);
    }
  }

  /**
   * Deletes the dealings / log files of ceremonies that are over here: decided (share derived or
   * failed), or no longer on chain. Files of an accepted ceremony whose share is not derived
   * yet are kept (`shareFor` derives it from them).
   */
  private sweep(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.endsWith(".tmp") && !name.includes(`.${process.pid}.`)) {
        this.removeFile(name); // a write interrupted by a crash (never renamed into place)
        continue;
      }
      const m = /^(?:dealings-(\d+)\.json|log-(\d+)\.bin)$/.exec(name);
      if (m === null) continue;
      const n = Number(m[1] ?? m[2]);
      if (this.sessions.has(n)) continue;
      const rec = this.chain.ceremony(n);
      const open = this.chain.openCeremony()?.ceremony === n;
      if (open) continue;
      const g = rec === null ? null : this.chain.epochGroup(rec.epoch);
      const pending = g !== null && g.ceremony === n && !this.shares.has(n);
      if (!pending) this.removeFile(name);
    }
  }

  /** A player-only ceremony fed with the persisted dealings (after a restart). */
  private rebuildPlayer(rec: CeremonyRecord): DkgCeremony {
    const sink: DkgTransport = {
      broadcast: () => {},
      sendDealing: () => {},
      sendAck: () => {},
      publishLog: () => {},
    };
    const dealer = rec.dealers.some((d) => Buffer.from(d).equals(this.blsKey));
    const prev = dealer ? this.dealerShare(rec) : null;
    const c = new DkgCeremony(
      {
        chainId: this.chain.chainId,
        round: BigInt(rec.ceremony),
        previousOutput: rec.previousOutput,
        dealers: rec.dealers,
        players: rec.players,
        secretKey: this.secretKey,
        previousShare: prev,
        dealing: prev !== null,
      },
      sink,
    );
    c.start(); // a dealer's own dealing to itself, identical to the first run (no-op otherwise)
    for (const d of this.loadDealings(rec.ceremony)) {
      try {
        c.onPublicMessage(d.dealer, d.pub);
        c.onDealing(d.dealer, d.priv);
      } catch {
        // a dealing refused before stays refused
      }
    }
    return c;
  }

  /** My share of the ceremony's previous output (I am one of its dealers), or null. */
  private dealerShare(rec: CeremonyRecord): Buffer | null {
    const g = this.chain.epochGroup(rec.epoch - 1);
    if (g === null || !Buffer.from(g.output).equals(Buffer.from(rec.previousOutput))) return null;
    const s = this.shareFor(rec.epoch - 1);
    return s === null ? null : Buffer.from(s.share);
  }

  // ----- the finalized-block tick -----

  /**
   * The node's initial sync is over (only meaningful with `waitForSync`; idempotent): from the
   * next finalized block on, the driver joins the open ceremony if its window is still open
   * (one that ended meanwhile is not started) and submits logs.
   */
  ready(): void {
    if (this.synced) return;
    this.synced = true;
    this.log?.debug({ height: this.lastHeight }, "dkg: initial sync over");
  }

  /** True once the driver may start sessions and submit logs (see `waitForSync`). */
  get isReady(): boolean {
    return this.synced;
  }

  /**
   * Call after each finalized block is applied (heights may be skipped). Starts the open
   * ceremony if this key is a dealer or player, resends, closes dealing and submits the log,
   * and after the ceremony's last block derives the new share. Never throws.
   */
  onFinalized(height: number): void {
    if (height <= this.lastHeight) return;
    this.lastHeight = height;
    if (!this.synced) return; // syncing: ceremonies are joined from the first block after `ready()`
    try {
      this.tick(height);
    } catch (err) {
      this.log?.error({ height, err: (err as Error).message }, "dkg: tick failed");
      this.metrics?.failures.inc();
    }
  }

  private tick(height: number): void {
    if (!this.swept) {
      this.swept = true;
      this.sweep(); // leftovers of ceremonies that ended while this node was down
    }
    // the ceremony of this finalized height's epoch (number e+1), read by number: the chain's
    // head may run ahead of finality, past the ceremony's end, where `openCeremony()` is null
    const chain = this.chain;
    const epochBlocks = chain.validatorParams().epochBlocks;
    const open = epochBlocks > 0 ? chain.ceremony(Math.floor(height / epochBlocks) + 1) : null;
    if (
      open !== null &&
      !this.sessions.has(open.ceremony) &&
      !this.done.has(open.ceremony) &&
      height >= open.firstHeight &&
      height < open.lastHeight
    )
      this.startSession(open, height);
    for (const s of [...this.sessions.values()]) {
      if (height >= s.record.lastHeight) {
        this.afterBoundary(s, height);
        continue;
      }
      if (height - s.lastResend >= this.resendEvery) {
        s.lastResend = height;
        this.hello(s);
        if (s.log === null) for (const p of s.dealings.keys()) if (!s.acked.has(p)) this.sendDeal(s, p);
      }
      if (s.isDealer) this.dealerTick(s, height);
    }
  }

  private startSession(rec: CeremonyRecord, height: number): void {
    const n = rec.ceremony;
    const listedDealer = rec.dealers.some((d) => Buffer.from(d).equals(this.blsKey));
    const isPlayer = rec.players.some((p) => Buffer.from(p).equals(this.blsKey));
    const previousShare = listedDealer ? this.dealerShare(rec) : null;
    const isDealer = listedDealer && previousShare !== null;
    if (listedDealer && !isDealer)
      // without my share of the previous output I cannot deal; I still play if I am a player
      this.fail(n, "a dealer without its share of the previous output: not dealing", null);
    if (!isDealer && !isPlayer) {
      this.done.add(n);
      return;
    }
    const sRef: { s: Session | null } = { s: null };
    const transport: DkgTransport = {
      broadcast: (pub) => {
        if (sRef.s !== null) sRef.s.publicMessage = Buffer.from(pub);
      },
      sendDealing: (player, message) => {
        const s = sRef.s;
        if (s === null) return;
        const k = hex(player);
        s.dealings.set(k, { player: Buffer.from(player), message: Buffer.from(message) });
        if (s.log === null) this.sendDeal(s, k);
      },
      sendAck: (dealer, ack) => {
        const s = sRef.s;
        if (s !== null) this.sendAck(s, Buffer.from(dealer), Buffer.from(ack));
      },
      publishLog: () => {},
      // a dealer-player's dealing to itself: kept (persisted) like a received one, so that a
      // restart that cannot deal again (previous share lost) still derives the same share; if
      // it cannot be persisted the ceremony refuses to deal (never acknowledges it unpersisted)
      keepOwnDealing: (pub, priv) => {
        const s = sRef.s;
        if (s === null || !s.isPlayer) return true;
        const k = hex(this.blsKey);
        const had = s.received.get(k);
        if (had?.pub.equals(pub) && had.priv.equals(priv)) return true;
        s.received.set(k, { dealer: this.blsKey, pub: Buffer.from(pub), priv: Buffer.from(priv) });
        if (this.saveDealings(s)) return true;
        s.received.delete(k);
        return false;
      },
    };
    let ceremony: DkgCeremony;
    try {
      ceremony = new DkgCeremony(
        {
          chainId: this.chain.chainId,
          round: BigInt(n),
          previousOutput: rec.previousOutput,
          dealers: rec.dealers,
          players: rec.players,
          secretKey: this.secretKey,
          previousShare,
          dealing: isDealer,
        },
        transport,
      );
    } catch (err) {
      this.done.add(n);
      this.fail(n, "cannot set up the ceremony", err);
      return;
    }
    const s: Session = {
      n,
      record: rec,
      ceremony,
      isDealer,
      isPlayer,
      mySig: this.x.blsSignNamespaced(
        this.secretKey,
        Buffer.from(DKG_PEER_NAMESPACE),
        bindingMessage(this.chain.chainId, n, this.blsKey, this.net.peerId),
      ),
      startHeight: height,
      lastResend: height,
      publicMessage: null,
      dealings: new Map(),
      acked: new Set(),
      log: null,
      submittedAt: null,
      onChain: false,
      chainLogsSeen: 0,
      received: new Map(),
      inflight: null,
      acksOut: new Map(),
      peers: new Map(),
      dealerSet: new Set(ceremony.info.dealers.map(hex)),
      playerSet: new Set(ceremony.info.players.map(hex)),
    };
    sRef.s = s;
    this.sessions.set(n, s);
    this.metrics?.ceremoniesStarted.inc();
    this.log?.info(
      {
        ceremony: n,
        epoch: rec.epoch,
        dealer: isDealer,
        player: isPlayer,
        dealers: rec.dealers.length,
        players: rec.players.length,
      },
      "dkg: ceremony started",
    );
    // a log persisted before a restart: deal again only to rebuild my own dealing, send nothing
    const saved = this.readFile(`log-${n}.bin`);
    if (saved !== null) s.log = saved;
    // player: replay the dealings acknowledged before a restart (acks go out again)
    if (isPlayer)
      for (const d of this.loadDealings(n)) {
        s.received.set(hex(d.dealer), d);
        this.feedDealing(s, d.dealer, d.pub, d.priv, null);
      }
    if (isDealer) {
      try {
        ceremony.start();
      } catch (err) {
        // no dealing of mine in this ceremony (nothing was sent): I sit it out as a dealer,
        // except to resubmit a log closed before a restart (it is valid as it is)
        if (s.log === null) s.isDealer = false;
        this.fail(
          n,
          (err as { code?: string }).code === "ERR_DKG_OWN_DEALING_NOT_KEPT"
            ? "cannot persist my dealing to myself: not dealing in this ceremony"
            : "dealing failed: not dealing in this ceremony",
          err,
        );
      }
    }
    this.hello(s);
  }

  private dealerTick(s: Session, height: number): void {
    const r = s.record;
    if (s.log === null) {
      const mid = r.firstHeight + Math.floor((r.lastHeight - r.firstHeight) / 2);
      // one that started with the ceremony closes at the midpoint (a later close would leave
      // its log no block to land in in short epochs, docs: MIN_DKG_EPOCH_BLOCKS); one that
      // (re)started after it opened gives players `resendEvery` blocks to acknowledge again, up
      // to L − 1: its log is then sure to land (≤ L, the next block possibly proposed already)
      // only if it started by L − 4, never with E ≤ 10 (docs/consensus.md "The shortest epoch")
      const closeAt =
        s.startHeight > r.firstHeight
          ? Math.max(mid, Math.min(s.startHeight + this.resendEvery, r.lastHeight - 1))
          : mid;
      if (s.ceremony.allAcked || height >= closeAt) this.closeAndSubmit(s, height);
      return;
    }
    if (!s.onChain) this.refreshOnChain(s, height);
    if (s.onChain) return;
    if (s.submittedAt === null || height >= s.submittedAt + this.retryBlocks) this.submitLog(s, height);
  }

  private closeAndSubmit(s: Session, height: number): void {
    if (s.log !== null) return;
    try {
      s.log = s.ceremony.closeDealing();
    } catch (err) {
      this.fail(s.n, "closing dealing failed", err);
      return;
    }
    try {
      writeFileDurable(join(this.dir, `log-${s.n}.bin`), s.log);
    } catch (err) {
      this.log?.warn({ ceremony: s.n, err: (err as Error).message }, "dkg: cannot persist my log");
    }
    this.log?.info(
      { ceremony: s.n, acks: s.ceremony.ackCount, players: s.record.players.length },
      "dkg: dealing closed",
    );
    this.submitLog(s, height);
  }

  /**
   * Marks my log on chain once the chain's state at the finalized `height` holds a log of mine
   * for this ceremony. Never from the head state: a log in a block that is not final yet may
   * vanish with its branch, and a dealer that stopped resubmitting would lose its dealing.
   * Finalized logs only grow (a log stays where a final block put it), so the scan resumes at
   * `chainLogsSeen`.
   */
  private refreshOnChain(s: Session, height: number): void {
    let rec: CeremonyRecord | null;
    try {
      rec = this.finalizedCeremony(s.n, height);
    } catch (err) {
      this.log?.debug(
        { ceremony: s.n, height, err: (err as Error).message },
        "dkg: finalized logs unreadable",
      );
      return;
    }
    if (rec === null) return;
    for (; s.chainLogsSeen < rec.logs.length; s.chainLogsSeen++) {
      const log = rec.logs[s.chainLogsSeen] as Uint8Array;
      if (s.log !== null && Buffer.from(log).equals(s.log)) {
        s.onChain = true;
        continue;
      }
      try {
        const sum = s.ceremony.info.native.checkLog(Buffer.from(log));
        if (sum?.dealer.equals(this.blsKey)) s.onChain = true;
      } catch {
        // not decodable: the chain would not hold it
      }
    }
  }

  private submitLog(s: Session, height: number): void {
    const log = s.log;
    if (log === null || height >= s.record.lastHeight) return;
    s.submittedAt = height;
    this.submit(s.n, log).then(
      () => {
        this.metrics?.logsSubmitted.inc();
        this.log?.info({ ceremony: s.n, height }, "dkg: log submitted");
      },
      (err: unknown) => this.fail(s.n, "submitting the log failed (will retry)", err),
    );
  }

  /** After the ceremony's last block: players derive their share if the chain accepted it. */
  private afterBoundary(s: Session, height: number): void {
    const g = this.chain.epochGroup(s.record.epoch);
    if (g === null) {
      // the chain has not decided yet (its head is behind?); give up after an epoch's worth
      if (height > s.record.lastHeight + (s.record.lastHeight - s.record.firstHeight) + 1)
        this.endSession(s.n);
      return;
    }
    if (g.ceremony !== s.n) {
      this.log?.warn(
        { ceremony: s.n, epoch: s.record.epoch, carried: g.ceremony },
        "dkg: ceremony failed; group carried over",
      );
      this.endSession(s.n);
      this.removeFile(`dealings-${s.n}.json`);
      this.removeFile(`log-${s.n}.bin`);
      return;
    }
    if (s.isPlayer && !this.shares.has(s.n)) this.derive(s.n, g);
    this.endSession(s.n);
    this.removeFile(`log-${s.n}.bin`);
  }

  private endSession(n: number): void {
    this.sessions.delete(n);
    this.done.add(n);
    this.sweep();
  }

  // ----- messages out -----

  private hello(s: Session): void {
    this.net.publish(
      encodeFrame(this.chain.chainId, {
        type: "hello",
        ceremony: s.n,
        key: this.blsKey,
        sig: s.mySig,
        peerId: this.net.peerId,
      }),
    );
  }

  private sendDeal(s: Session, playerHex: string): void {
    const d = s.dealings.get(playerHex);
    const peer = s.peers.get(playerHex)?.peer;
    if (d === undefined || peer === undefined || s.publicMessage === null) return;
    this.log?.debug({ ceremony: s.n, player: playerHex.slice(0, 16), peer }, "dkg: dealing out");
    this.net.send(
      peer,
      encodeFrame(this.chain.chainId, {
        type: "deal",
        ceremony: s.n,
        key: this.blsKey,
        sig: s.mySig,
        to: d.player,
        pub: s.publicMessage,
        priv: d.message,
      }),
    );
  }

  private sendAck(s: Session, dealer: Buffer, ack: Buffer): void {
    const k = hex(dealer);
    // persist the dealing before acknowledging it: a log that says "acked" must stay answerable.
    // Not persisted → no acknowledgement (the dealer reveals the dealing in its log instead;
    // a repeated dealing tries again).
    if (!s.received.has(k)) {
      const d = s.inflight;
      if (d === null || !d.dealer.equals(dealer)) return;
      s.received.set(k, d);
      if (!this.saveDealings(s)) {
        s.received.delete(k);
        return;
      }
    }
    s.acksOut.set(k, { dealer, ack });
    this.flushAck(s, k);
  }

  private flushAck(s: Session, dealerHex: string): void {
    const a = s.acksOut.get(dealerHex);
    const peer = s.peers.get(dealerHex)?.peer;
    if (a === undefined || peer === undefined) return;
    this.log?.debug({ ceremony: s.n, dealer: dealerHex.slice(0, 16), peer }, "dkg: acknowledgement out");
    this.net.send(
      peer,
      encodeFrame(this.chain.chainId, {
        type: "ack",
        ceremony: s.n,
        key: this.blsKey,
        sig: s.mySig,
        to: a.dealer,
        ack: a.ack,
      }),
    );
  }

  // ----- messages in -----

  /** The session a frame is for, if its ceremony is running here and its key takes part. */
  private sessionFor(f: Frame): Session | null {
    const s = this.sessions.get(f.ceremony);
    if (s === undefined) return null;
    const k = hex(f.key);
    return s.dealerSet.has(k) || s.playerSet.has(k) ? s : null;
  }

  /** Verifies (once per key/peer) that `key` bound itself to `peer` for the session's ceremony. */
  private bound(s: Session, key: Buffer, sig: Buffer, peer: string): boolean {
    const k = hex(key);
    const known = s.peers.get(k);
    if (known !== undefined && known.peer === peer && known.sig.equals(sig)) return true;
    let ok: boolean;
    try {
      ok = this.x.blsVerifyNamespaced(
        key,
        Buffer.from(DKG_PEER_NAMESPACE),
        bindingMessage(this.chain.chainId, s.n, key, peer),
        sig,
      );
    } catch {
      ok = false;
    }
    if (!ok) return false;
    // bounded: one binding per participant key (a new one replaces the old)
    s.peers.set(k, { peer, sig });
    if (known?.peer !== peer) this.onPeer(s, k, true);
    return true;
  }

  /**
   * A participant announced itself: a dealer resends its dealing if that player has not
   * acknowledged it; a player whose dealer's peer just became known (or changed) sends the
   * acknowledgements it holds for it.
   */
  private onPeer(s: Session, keyHex: string, changed: boolean): void {
    if (s.log === null && s.dealings.has(keyHex) && !s.acked.has(keyHex)) this.sendDeal(s, keyHex);
    if (changed && s.acksOut.has(keyHex)) this.flushAck(s, keyHex);
  }

  /** Gossip carries hellos only; the relaying peer is penalized by the p2p layer on "reject". */
  private onGossip(data: Uint8Array, _from: string): DkgGossipVerdict {
    const f = decodeDkgFrame(this.chain.chainId, data);
    if (f === null || f.type !== "hello") return "reject";
    const s = this.sessionFor(f);
    if (s === null) return this.relayVerdict(f);
    if (f.key.equals(this.blsKey)) return "ignore";
    const k = hex(f.key);
    const known = s.peers.get(k);
    if (known !== undefined && known.peer === f.peerId && known.sig.equals(f.sig)) {
      // a periodic re-announcement: resend to a player that still has not acknowledged
      this.onPeer(s, k, false);
      return "accept";
    }
    return this.bound(s, f.key, f.sig, f.peerId) ? "accept" : "reject";
  }

  /**
   * A hello for a ceremony this node does not take part in: relayed ("accept") if it is a valid
   * hello of a participant of the chain's open ceremony, so that participants reach each other
   * through any validator; "ignore" for other ceremonies and keys, "reject" for a bad signature.
   * Verified bindings are cached (one per participant key, for the open ceremony only).
   */
  private relayVerdict(f: Frame & { type: "hello" }): DkgGossipVerdict {
    const open = this.chain.openCeremony();
    if (open === null || open.ceremony !== f.ceremony) return "ignore";
    if (this.relay?.n !== f.ceremony)
      this.relay = {
        n: f.ceremony,
        keys: new Set([...open.dealers, ...open.players].map(hex)),
        seen: new Map(),
      };
    const k = hex(f.key);
    if (!this.relay.keys.has(k)) return "ignore";
    const id = `${f.peerId}|${hex(f.sig)}`;
    if (this.relay.seen.get(k) === id) return "accept";
    let ok: boolean;
    try {
      ok = this.x.blsVerifyNamespaced(
        f.key,
        Buffer.from(DKG_PEER_NAMESPACE),
        bindingMessage(this.chain.chainId, f.ceremony, f.key, f.peerId),
        f.sig,
      );
    } catch {
      ok = false;
    }
    if (!ok) return "reject";
    this.relay.seen.set(k, id);
    return "accept";
  }

  private onDirect(data: Uint8Array, from: string): void {
    const f = decodeDkgFrame(this.chain.chainId, data);
    if (f === null || f.type === "hello") {
      this.net.penalize(from, PENALTY.undecodable, "undecodable dkg frame");
      return;
    }
    const s = this.sessionFor(f);
    if (s === null) return; // a ceremony not running here (ended, or not opened yet): drop
    if (!this.bound(s, f.key, f.sig, from)) {
      this.net.penalize(from, PENALTY.undecodable, "dkg frame with an invalid peer binding");
      return;
    }
    this.log?.debug(
      { ceremony: s.n, type: f.type, key: hex(f.key).slice(0, 16), peer: from },
      "dkg: frame in",
    );
    // addressed to another key: a participant announced this node's peer id as its own (its
    // loss); the sender was misled, so it is not penalized, and nothing reaches the ceremony
    if (!f.to.equals(this.blsKey)) return;
    if (f.type === "deal") {
      if (!s.isPlayer || !s.dealerSet.has(hex(f.key))) return;
      this.feedDealing(s, f.key, f.pub, f.priv, from);
    } else {
      if (!s.isDealer || s.log !== null || !s.playerSet.has(hex(f.key))) return;
      const k = hex(f.key);
      try {
        s.ceremony.onAck(f.key, f.ack);
        s.acked.add(k);
      } catch (err) {
        if (s.acked.has(k)) return; // a repeated acknowledgement
        this.reject(from, s.n, "invalid acknowledgement", err);
        return;
      }
      if (s.ceremony.allAcked) this.closeAndSubmit(s, this.lastHeight);
    }
  }

  /** Gives a dealer's messages to my ceremony (acks go out through the transport). */
  private feedDealing(s: Session, dealer: Buffer, pub: Buffer, priv: Buffer, from: string | null): void {
    s.inflight = { dealer, pub, priv };
    try {
      s.ceremony.onPublicMessage(dealer, pub);
      s.ceremony.onDealing(dealer, priv);
    } catch (err) {
      if (from !== null) this.reject(from, s.n, "invalid dealing", err);
    } finally {
      s.inflight = null;
    }
  }

  private reject(peer: string, n: number, what: string, err: unknown): void {
    const code = err instanceof DkgError ? err.code : "ERR_DKG_NATIVE";
    this.log?.warn({ ceremony: n, peer, code }, `dkg: ${what}`);
    this.net.penalize(peer, PENALTY.gossipReject, `${what} (${code})`);
  }

  // ----- files -----

  /** Persists the player's received dealings; false (logged) if they could not be written. */
  private saveDealings(s: Session): boolean {
    const list = [...s.received.values()].map((d) => ({
      dealer: hex(d.dealer),
      pub: hex(d.pub),
      priv: hex(d.priv),
    }));
    try {
      writeFileDurable(join(this.dir, `dealings-${s.n}.json`), Buffer.from(JSON.stringify(list)));
      return true;
    } catch (err) {
      this.fail(s.n, "cannot persist a received dealing (not acknowledged)", err);
      return false;
    }
  }

  private loadDealings(n: number): Array<{ dealer: Buffer; pub: Buffer; priv: Buffer }> {
    const raw = this.readFile(`dealings-${n}.json`);
    if (raw === null) return [];
    try {
      const list = JSON.parse(raw.toString("utf8")) as Array<{ dealer: string; pub: string; priv: string }>;
      if (!Array.isArray(list)) return [];
      return list
        .filter(
          (d) => typeof d.dealer === "string" && typeof d.pub === "string" && typeof d.priv === "string",
        )
        .map((d) => ({
          dealer: Buffer.from(d.dealer, "hex"),
          pub: Buffer.from(d.pub, "hex"),
          priv: Buffer.from(d.priv, "hex"),
        }));
    } catch {
      this.log?.warn({ ceremony: n }, "dkg: persisted dealings unreadable; ignored");
      return [];
    }
  }

  private readFile(name: string): Buffer | null {
    const path = join(this.dir, name);
    if (!existsSync(path)) return null;
    try {
      return readFileSync(path);
    } catch {
      return null;
    }
  }

  private removeFile(name: string): void {
    try {
      unlinkSync(join(this.dir, name));
    } catch {
      // absent
    }
  }

  private fail(n: number, what: string, err: unknown): void {
    this.metrics?.failures.inc();
    this.log?.error(
      {
        ceremony: n,
        err: err === null ? undefined : (err as Error).message,
        code: (err as { code?: string } | null)?.code,
      },
      `dkg: ${what}`,
    );
  }
}
