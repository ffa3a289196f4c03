/**
 * Validator announcements: how a validator that is not in the network file (it registered on
 * chain and joins at an epoch boundary) tells the network which libp2p peer it runs on.
 *
 * An announcement binds `(chain id, operator address, BLS public key, peer id, issued-at)` with
 * a BLS signature of that key (namespace {@link ANNOUNCE_NAMESPACE}). It travels on the gossip
 * topic `/cowboy/<chain>/validator/1`, published by the announced peer itself: gossipsub signs
 * every message with the publisher's libp2p key, and a receiver requires that publisher (the
 * message's origin) to be the announced peer id. So a binding holds only if both the holder of
 * the BLS key and the owner of the peer id made it — nobody can point someone else's key at
 * their peer, nor their key at someone else's peer.
 *
 * {@link ValidatorDirectory} keeps the result: a stable *peer index* per BLS key (network-file
 * validators keep their file positions 0..n−1; any other key gets the next free index the first
 * time it is asked about, and keeps it while it is bound or in use; indices of keys gone from
 * both are recycled when the indices run out) and the peer id bound to each key. Its {@link ValidatorDirectory.entries}
 * are the p2p node's validator map (`P2pNode.setValidators`): who may send consensus frames, and
 * where consensus messages to a set member go.
 *
 * {@link AnnouncementVerifier} checks gossiped announcements strictly (format, chain id, the
 * origin, the BLS signature, the chain's registry) with bounded memory: a cache of recently
 * verified messages (a repeat costs no signature check) and at most `maxBindings` bound keys.
 *
 * Wire format (all integers big-endian): `version u8 (1) ‖ chain id u64 ‖ address (20) ‖
 * BLS key (48) ‖ issued-at ms u64 ‖ peer id length u8 ‖ peer id (UTF-8) ‖ signature (96)`;
 * the signature covers every byte before it.
 */
import { peerIdFromString } from "@libp2p/peer-id";
import type { ValidatorEntry } from "./validators.ts";

/** BLS namespace (domain separation tag) of announcement signatures. */
export const ANNOUNCE_NAMESPACE = "cowboy-validator-peer-v1";
/** Wire version of announcements. */
export const ANNOUNCE_VERSION = 1;
const ADDRESS = 20;
const KEY = 48;
const SIG = 96;
const MAX_PEER_ID = 128;
/** Largest encoded announcement. */
export const MAX_ANNOUNCE_BYTES = 1 + 8 + ADDRESS + KEY + 8 + 1 + MAX_PEER_ID + SIG;

/** One validator's binding of its BLS key and operator address to a libp2p peer id. */
export interface ValidatorAnnouncement {
  readonly chainId: bigint;
  /** the operator account (20 bytes) the chain's registry lists the key under */
  readonly address: Uint8Array;
  /** 48-byte BLS public key */
  readonly blsKey: Uint8Array;
  /** the libp2p peer id (string form) the validator runs on */
  readonly peerId: string;
  /** when it was made (ms since the Unix epoch); a newer one for the same key replaces an older one */
  readonly issuedAtMs: number;
  /** BLS signature over the bytes before it (namespace {@link ANNOUNCE_NAMESPACE}) */
  readonly signature: Uint8Array;
}

/** The BLS operations announcements need (the addon's `blsSignNamespaced` / `blsVerifyNamespaced`). */
export interface AnnounceCrypto {
  sign(secretKey: Uint8Array, namespace: Uint8Array, message: Uint8Array): Uint8Array;
  /** false (or a throw) for anything that does not verify */
  verify(publicKey: Uint8Array, namespace: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
}

/** An announcement that does not decode; `reason` says why. */
export class AnnouncementError extends Error {
  readonly code = "ERR_ANNOUNCEMENT";
  constructor(reason: string) {
    super(`invalid validator announcement: ${reason}`);
    this.name = "AnnouncementError";
  }
}

const NS = new TextEncoder().encode(ANNOUNCE_NAMESPACE);

function body(a: Omit<ValidatorAnnouncement, "signature">): Uint8Array {
  if (a.address.length !== ADDRESS) throw new AnnouncementError("address must be 20 bytes");
  if (a.blsKey.length !== KEY) throw new AnnouncementError("BLS key must be 48 bytes");
  if (!Number.isSafeInteger(a.issuedAtMs) || a.issuedAtMs < 0)
    throw new AnnouncementError("issuedAtMs must be a non-negative safe integer");
  if (a.chainId < 0n || a.chainId >= 2n ** 64n) throw new AnnouncementError("chain id must fit in 64 bits");
  const id = new TextEncoder().encode(a.peerId);
  if (id.length === 0 || id.length > MAX_PEER_ID) throw new AnnouncementError("peer id length");
  const out = Buffer.alloc(1 + 8 + ADDRESS + KEY + 8 + 1 + id.length);
  let o = 0;
  out[o++] = ANNOUNCE_VERSION;
  out.writeBigUInt64BE(a.chainId, o);
  o += 8;
  out.set(a.address, o);
  o += ADDRESS;
  out.set(a.blsKey, o);
  o += KEY;
  out.writeBigUInt64BE(BigInt(a.issuedAtMs), o);
  o += 8;
  out[o++] = id.length;
  out.set(id, o);
  return out;
}

/** Makes and signs an announcement with `secretKey` (the key of `a.blsKey`). */
export function signAnnouncement(
  a: Omit<ValidatorAnnouncement, "signature">,
  secretKey: Uint8Array,
  crypto: AnnounceCrypto,
): ValidatorAnnouncement {
  return { ...a, signature: Uint8Array.from(crypto.sign(secretKey, NS, body(a))) };
}

/** Encodes an announcement (see the module comment for the format). */
export function encodeAnnouncement(a: ValidatorAnnouncement): Uint8Array {
  if (a.signature.length !== SIG) throw new AnnouncementError("signature must be 96 bytes");
  const b = body(a);
  const out = new Uint8Array(b.length + SIG);
  out.set(b);
  out.set(a.signature, b.length);
  return out;
}

/** Strictly decodes an announcement; throws {@link AnnouncementError}. Does not verify the signature. */
export function decodeAnnouncement(bytes: Uint8Array): ValidatorAnnouncement {
  const fixed = 1 + 8 + ADDRESS + KEY + 8 + 1;
  if (bytes.length < fixed + 1 + SIG || bytes.length > MAX_ANNOUNCE_BYTES)
    throw new AnnouncementError(`length ${bytes.length}`);
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (b[0] !== ANNOUNCE_VERSION) throw new AnnouncementError(`version ${b[0]}`);
  const idLen = b[fixed - 1] as number;
  if (idLen === 0 || idLen > MAX_PEER_ID || bytes.length !== fixed + idLen + SIG)
    throw new AnnouncementError("peer id length does not match the message length");
  let peerId: string;
  try {
    peerId = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(fixed, fixed + idLen));
    if (peerIdFromString(peerId).toString() !== peerId) throw new Error("not canonical");
  } catch {
    throw new AnnouncementError("peer id is not a canonical libp2p peer id");
  }
  const issued = b.readBigUInt64BE(1 + 8 + ADDRESS + KEY);
  if (issued > BigInt(Number.MAX_SAFE_INTEGER)) throw new AnnouncementError("issued-at out of range");
  return {
    chainId: b.readBigUInt64BE(1),
    address: Uint8Array.from(bytes.subarray(9, 9 + ADDRESS)),
    blsKey: Uint8Array.from(bytes.subarray(9 + ADDRESS, 9 + ADDRESS + KEY)),
    peerId,
    issuedAtMs: Number(issued),
    signature: Uint8Array.from(bytes.subarray(fixed + idLen)),
  };
}

/** True if the BLS signature of `a` verifies under `a.blsKey`. */
export function verifyAnnouncement(a: ValidatorAnnouncement, crypto: AnnounceCrypto): boolean {
  try {
    return crypto.verify(a.blsKey, NS, body(a), a.signature);
  } catch {
    return false;
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/**
 * Peer index ↔ BLS key ↔ peer id of validators. Invariants: network-file validators are
 * 0..n−1 in file order, fixed; any other key gets a peer index the first time it is asked
 * about (n, n+1, …, at most `maxKeys` of them at a time), and keeps it while it is bound to a
 * peer or is in the `inUseKeys` set; a peer id is bound to at most one key; the network file's
 * bindings are fixed.
 *
 * Peer indices are recycled only when they run out: then the indices of keys that are neither
 * fixed, bound, nor in use (e.g. validators that left the set and withdrew, whose bindings
 * were pruned) are released, lowest first reused. Without that, keys churning through the
 * registry (each costs only a stake that comes back after unbonding) would exhaust the indices
 * for good, and no later validator could be bound or routed to. Without an `inUseKeys`
 * provider nothing is recycled (every index ever handed out may still be held by a caller).
 * A caller that mirrors the bindings elsewhere (the p2p validator map) must refresh its copy
 * whenever bindings go away ({@link prune}; `AnnouncementVerifierDeps.onPruned`) before a
 * recycled index can be handed to another key.
 */
export class ValidatorDirectory {
  private readonly indexByKey = new Map<string, number>();
  private readonly peerByKey = new Map<string, { peerId: string; issuedAtMs: number }>();
  private readonly keyByPeer = new Map<string, string>();
  private readonly fixedCount: number;
  private readonly maxKeys: number;
  private readonly inUseKeys: (() => ReadonlySet<string>) | null;
  /** released peer indices, ascending (reused lowest first) */
  private readonly free: number[] = [];
  private next: number;

  /**
   * `fixed`: the network file's validators in file order (their keys and peer ids must be
   * distinct). `inUseKeys`: the keys (lowercase hex) whose peer index a caller still holds
   * although they may be unbound (the node: members of the epochs it runs, whose routing tables
   * map consensus index → peer index), asked once per {@link recycle}; required for recycling.
   */
  constructor(
    fixed: ReadonlyArray<{ blsKey: Uint8Array; peerId: string }>,
    maxKeys = 4_096,
    inUseKeys: (() => ReadonlySet<string>) | null = null,
  ) {
    this.inUseKeys = inUseKeys;
    fixed.forEach((v, i) => {
      const k = hex(v.blsKey);
      this.indexByKey.set(k, i);
      this.peerByKey.set(k, { peerId: v.peerId, issuedAtMs: Number.MAX_SAFE_INTEGER });
      this.keyByPeer.set(v.peerId, k);
    });
    this.fixedCount = fixed.length;
    this.next = fixed.length;
    this.maxKeys = maxKeys;
  }

  /** Keys bound through announcements (not counting the network file's). */
  get announced(): number {
    return this.peerByKey.size - this.fixedCount;
  }

  /**
   * The peer index of `blsKey` (assigned on first use), or -1 when `maxKeys` keys hold one and
   * none can be recycled ({@link recycle}).
   */
  indexOf(blsKey: Uint8Array): number {
    const k = hex(blsKey);
    const known = this.indexByKey.get(k);
    if (known !== undefined) return known;
    if (this.free.length === 0 && this.next - this.fixedCount >= this.maxKeys) this.recycle();
    let i: number;
    if (this.free.length > 0) i = this.free.shift() as number;
    else if (this.next - this.fixedCount < this.maxKeys) i = this.next++;
    else return -1;
    this.indexByKey.set(k, i);
    return i;
  }

  /** Peer indices assigned to keys that are not the network file's (at most `maxKeys`). */
  get assigned(): number {
    return this.indexByKey.size - this.fixedCount;
  }

  /**
   * Releases the peer indices of keys that are not the network file's, not bound to a peer and
   * not in use; returns how many. Called by {@link indexOf} when the indices ran out; a no-op
   * without an `inUseKeys` provider, which it calls once.
   */
  recycle(): number {
    if (this.inUseKeys === null) return 0;
    const inUse = this.inUseKeys();
    let n = 0;
    for (const [k, i] of [...this.indexByKey]) {
      if (i < this.fixedCount || this.peerByKey.has(k)) continue;
      if (inUse.has(k)) continue;
      this.indexByKey.delete(k);
      this.free.push(i);
      n++;
    }
    this.free.sort((a, b) => a - b);
    return n;
  }

  /** True if `blsKey` is one of the network file's validators. */
  isFixed(blsKey: Uint8Array): boolean {
    const i = this.indexByKey.get(hex(blsKey));
    return i !== undefined && i < this.fixedCount;
  }

  /** The peer id bound to `blsKey`, or null. */
  peerOf(blsKey: Uint8Array): string | null {
    return this.peerByKey.get(hex(blsKey))?.peerId ?? null;
  }

  /** The issued-at time of the binding of `blsKey` (MAX_SAFE_INTEGER for the network file's), or null. */
  boundAt(blsKey: Uint8Array): number | null {
    return this.peerByKey.get(hex(blsKey))?.issuedAtMs ?? null;
  }

  /**
   * Binds `blsKey` to `peerId` as of `issuedAtMs`. Returns "bound" (new or moved binding),
   * "same" (already so bound; a newer time is recorded), "stale" (an equally new or newer binding exists), "fixed" (the
   * key or the peer id belongs to a network-file validator: never rebound) or "full" (no peer
   * index left).
   */
  bind(
    blsKey: Uint8Array,
    peerId: string,
    issuedAtMs: number,
  ): "bound" | "same" | "stale" | "fixed" | "full" {
    const k = hex(blsKey);
    const cur = this.peerByKey.get(k);
    const owner = this.keyByPeer.get(peerId);
    if (this.isFixed(blsKey)) return cur?.peerId === peerId ? "same" : "fixed";
    if (owner !== undefined && owner !== k && (this.indexByKey.get(owner) ?? 0) < this.fixedCount)
      return "fixed";
    if (cur !== undefined && cur.issuedAtMs >= issuedAtMs) return cur.peerId === peerId ? "same" : "stale";
    if (cur !== undefined && cur.peerId === peerId) {
      // a refresh of the same binding: newer time, nothing else changes
      this.peerByKey.set(k, { peerId, issuedAtMs });
      return "same";
    }
    if (this.indexOf(blsKey) < 0) return "full";
    if (cur !== undefined) this.keyByPeer.delete(cur.peerId);
    // a peer that now announces another key gives up its previous one
    if (owner !== undefined && owner !== k) this.peerByKey.delete(owner);
    this.peerByKey.set(k, { peerId, issuedAtMs });
    this.keyByPeer.set(peerId, k);
    return "bound";
  }

  /** Drops announced bindings whose key `keep` refuses (the network file's stay); returns how many. */
  prune(keep: (blsKey: Uint8Array) => boolean): number {
    let n = 0;
    for (const [k, v] of [...this.peerByKey]) {
      const key = Uint8Array.from(Buffer.from(k, "hex"));
      if (this.isFixed(key) || keep(key)) continue;
      this.peerByKey.delete(k);
      this.keyByPeer.delete(v.peerId);
      n++;
    }
    return n;
  }

  /** Every bound validator as the p2p validator map's entries (peer index, peer id), index order. */
  entries(): ValidatorEntry[] {
    const out: ValidatorEntry[] = [];
    for (const [k, v] of this.peerByKey)
      out.push({ index: this.indexByKey.get(k) as number, peerId: v.peerId });
    return out.sort((a, b) => a.index - b.index);
  }
}

/** What the chain says about an announced (address, key): the registry's record, checked. */
export type RegistryAnswer = "registered" | "unknown" | "other-key";

/** Dependencies of {@link AnnouncementVerifier}. */
export interface AnnouncementVerifierDeps {
  readonly chainId: bigint;
  readonly crypto: AnnounceCrypto;
  readonly directory: ValidatorDirectory;
  /**
   * The chain's registry: "registered" if `address` is a registered validator with exactly this
   * BLS key (bonded — in a set or waiting for its activation epoch — or exiting), "other-key" if
   * it is registered with another key, "unknown" if it is not registered (or not yet: this node
   * may be behind).
   */
  readonly registry: (address: Uint8Array, blsKey: Uint8Array) => RegistryAnswer;
  /** called after a binding changed (rebuild the p2p validator map) */
  readonly onBound?: (a: ValidatorAnnouncement) => void;
  /**
   * called right after pruning removed `n` bindings to make room, before anything is bound (and
   * a freed peer index possibly recycled for another key): rebuild the p2p validator map, or it
   * keeps the removed entries (a stale index → peer) until the next binding
   */
  readonly onPruned?: (n: number) => void;
  /** wall clock (ms); default Date.now */
  readonly now?: () => number;
  /** announcements issued further ahead than this are ignored (default 60 s) */
  readonly maxFutureMs?: number;
  /** verified messages remembered so that a repeat costs no signature check (default 4,096) */
  readonly cacheSize?: number;
  /** at most this many keys bound through announcements (default 1,024) */
  readonly maxBindings?: number;
}

/** Why an announcement was not taken (for logs and tests). */
export type AnnouncementOutcome =
  | "bound"
  | "known"
  | "malformed"
  | "wrong-chain"
  | "wrong-origin"
  | "bad-signature"
  | "unregistered"
  | "other-key"
  | "stale"
  | "future"
  | "network-file"
  | "full";

/**
 * Gossip validation of announcements. Verdicts for the p2p layer: "reject" (penalizes the
 * relayer) for what no honest node relays — undecodable bytes, another chain, an origin other
 * than the announced peer, a bad signature, a network-file validator's key or peer id bound
 * elsewhere; "ignore" for what may be honest but is of no use here — a key this node's chain
 * does not (yet) list under that address, an older binding than the one held, a clock ahead
 * of ours, a full directory; "accept" (and relay) for a new or repeated valid binding.
 */
export class AnnouncementVerifier {
  private readonly d: AnnouncementVerifierDeps;
  private readonly seen = new Map<string, true>();
  /** operator address of each key bound here (to re-check the registry when pruning) */
  private readonly addresses = new Map<string, Uint8Array>();
  /** the last outcome (tests, logs) */
  last: AnnouncementOutcome | null = null;

  constructor(deps: AnnouncementVerifierDeps) {
    this.d = deps;
  }

  /** Validates gossiped `bytes` published by `origin` (the gossip message's signer). */
  validate(bytes: Uint8Array, origin: string | null): "accept" | "ignore" | "reject" {
    const out = this.check(bytes, origin);
    this.last = out;
    switch (out) {
      case "bound":
      case "known":
        return "accept";
      case "malformed":
      case "wrong-chain":
      case "wrong-origin":
      case "bad-signature":
      case "network-file":
        return "reject";
      default:
        return "ignore";
    }
  }

  private check(bytes: Uint8Array, origin: string | null): AnnouncementOutcome {
    let a: ValidatorAnnouncement;
    try {
      a = decodeAnnouncement(bytes);
    } catch {
      return "malformed";
    }
    if (a.chainId !== this.d.chainId) return "wrong-chain";
    if (origin === null || origin !== a.peerId) return "wrong-origin";
    const dir = this.d.directory;
    const cacheKey = hex(bytes);
    const verified = this.seen.has(cacheKey);
    if (!verified) {
      if (!verifyAnnouncement(a, this.d.crypto)) return "bad-signature";
      this.seen.set(cacheKey, true);
      if (this.seen.size > (this.d.cacheSize ?? 4_096)) {
        const oldest = this.seen.keys().next().value;
        if (oldest !== undefined) this.seen.delete(oldest);
      }
    }
    if (dir.isFixed(a.blsKey)) return dir.peerOf(a.blsKey) === a.peerId ? "known" : "network-file";
    const now = (this.d.now ?? Date.now)();
    if (a.issuedAtMs > now + (this.d.maxFutureMs ?? 60_000)) return "future";
    const reg = this.d.registry(a.address, a.blsKey);
    if (reg === "unknown") return "unregistered";
    if (reg === "other-key") return "other-key";
    if (dir.peerOf(a.blsKey) === null && dir.announced >= (this.d.maxBindings ?? 1_024)) {
      // make room: forget keys the registry no longer lists (withdrawn validators)
      const pruned = dir.prune((k) => {
        const address = this.addresses.get(hex(k));
        const keep = address !== undefined && this.d.registry(address, k) === "registered";
        if (!keep) this.addresses.delete(hex(k));
        return keep;
      });
      // keys bound here no longer (pruned, or given up for another key on their peer)
      for (const k of [...this.addresses.keys()])
        if (dir.peerOf(Uint8Array.from(Buffer.from(k, "hex"))) === null) this.addresses.delete(k);
      if (pruned > 0) this.d.onPruned?.(pruned);
      if (dir.announced >= (this.d.maxBindings ?? 1_024)) return "full";
    }
    const r = dir.bind(a.blsKey, a.peerId, a.issuedAtMs);
    if (r === "fixed") return "network-file";
    if (r === "full") return "full";
    if (r === "stale") return "stale";
    if (r === "same") return "known";
    this.addresses.set(hex(a.blsKey), a.address);
    this.d.onBound?.(a);
    return "bound";
  }
}
