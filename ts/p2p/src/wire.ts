/**
 * Binary wire codec for consensus {@link Message}s (`/cowboy/consensus/1` frames).
 *
 * Layout (all integers big-endian):
 *
 * ```
 * message     = version:u8 (=2) ‖ tag:u8 ‖ body
 * tag         = 1 propose | 2 vote | 3 certificate | 4 fetch | 5 fetched
 * propose     = proposal ‖ block:bytes ‖ vote
 * vote        = kind:u8 ‖ round ‖ opt(proposal) ‖ signer:u32 ‖ signature:bytes
 * certificate = kind:u8 ‖ round ‖ opt(proposal) ‖ signers:bytes ‖ signature:bytes ‖ opt(seed:bytes)
 * fetch       = 0:u8 ‖ digest  |  1:u8 ‖ fromView:u64 ‖ toView:u64
 * fetched     = count:u32 ‖ (proposal ‖ block:bytes)* ‖ count:u32 ‖ certificate*
 * proposal    = round ‖ height:u64 ‖ parentView:u64 ‖ parent:digest ‖ payload:digest
 * round       = epoch:u64 ‖ view:u64          (each ≤ 2^53 − 1)
 * digest      = len:u8 (1..64) ‖ bytes        (a lowercase hex string in memory)
 * bytes       = len:u32 ‖ bytes
 * opt(x)      = 0:u8 | 1:u8 ‖ x
 * kind        = 0 notarize | 1 nullify | 2 finalize
 * ```
 *
 * Decoding is strict: every byte must be consumed, flags and tags must be known, a vote or
 * certificate has a proposal exactly when its kind is not `nullify`, and lengths never run
 * past the input. Any violation is a {@link P2pError} (`WIRE_*`), never an exception of
 * another kind. Blocks are opaque: the application's {@link BlockCodec} turns them into
 * bytes and back, and a block codec failure becomes `WIRE_BAD_BLOCK`.
 */
import type {
  Certificate,
  FetchRequest,
  Message,
  Proposal,
  Round,
  SyncedBlock,
  SyncResponse,
  Vote,
  VoteKind,
} from "@cowboy/consensus";
import { P2pError } from "./errors.ts";

/** Current wire version (the first byte of every message). */
export const WIRE_VERSION = 2;

/** Longest digest on the wire, in bytes. */
export const MAX_DIGEST_BYTES = 64;

/** Turns application blocks into bytes and back; `decode` throws on bad input. */
export interface BlockCodec {
  encode(block: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

const TAG = { propose: 1, vote: 2, certificate: 3, fetch: 4, fetched: 5 } as const;
const KINDS: readonly VoteKind[] = ["notarize", "nullify", "finalize"];
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const HEX = /^(?:[0-9a-f]{2})+$/;

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.len++] = v;
  }

  u32(v: number, field: string): void {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff_ffff)
      throw new P2pError("WIRE_BAD_VALUE", `${field} is not a u32`, { field, value: v });
    this.reserve(4);
    this.view.setUint32(this.len, v);
    this.len += 4;
  }

  u64(v: number, field: string): void {
    if (!Number.isSafeInteger(v) || v < 0)
      throw new P2pError("WIRE_BAD_VALUE", `${field} is not a non-negative safe integer`, {
        field,
        value: v,
      });
    this.reserve(8);
    this.view.setBigUint64(this.len, BigInt(v));
    this.len += 8;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  bytes(bytes: Uint8Array, field: string): void {
    if (!(bytes instanceof Uint8Array))
      throw new P2pError("WIRE_BAD_VALUE", `${field} is not a Uint8Array`, { field });
    this.u32(bytes.length, field);
    this.raw(bytes);
  }

  digest(hex: string, field: string): void {
    if (typeof hex !== "string" || !HEX.test(hex) || hex.length / 2 > MAX_DIGEST_BYTES)
      throw new P2pError("WIRE_BAD_VALUE", `${field} is not a lowercase hex digest of 1..64 bytes`, {
        field,
        value: hex,
      });
    this.u8(hex.length / 2);
    this.raw(Buffer.from(hex, "hex"));
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

class Reader {
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private pos = 0;

  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, field: string): void {
    if (this.remaining < n)
      throw new P2pError("WIRE_TRUNCATED", `input ends inside ${field}`, {
        field,
        offset: this.pos,
        needed: n,
        remaining: this.remaining,
      });
  }

  u8(field: string): number {
    this.need(1, field);
    return this.buf[this.pos++] as number;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  u64(field: string): number {
    this.need(8, field);
    const v = this.view.getBigUint64(this.pos);
    if (v > MAX_SAFE)
      throw new P2pError("WIRE_BAD_VALUE", `${field} exceeds 2^53 - 1`, { field, offset: this.pos });
    this.pos += 8;
    return Number(v);
  }

  raw(n: number, field: string): Uint8Array {
    this.need(n, field);
    // a plain Uint8Array copy even when the input is a Node Buffer
    const out = new Uint8Array(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return out;
  }

  bytes(field: string): Uint8Array {
    const n = this.u32(field);
    return this.raw(n, field);
  }

  digest(field: string): string {
    const n = this.u8(field);
    if (n === 0 || n > MAX_DIGEST_BYTES)
      throw new P2pError("WIRE_BAD_VALUE", `${field} length ${n} is outside 1..64`, { field, length: n });
    return Buffer.from(this.raw(n, field)).toString("hex");
  }

  flag(field: string): boolean {
    const f = this.u8(field);
    if (f > 1)
      throw new P2pError("WIRE_BAD_TAG", `${field} option flag ${f} is not 0 or 1`, { field, flag: f });
    return f === 1;
  }

  /** A count of items each at least `minItemBytes` long (bounds allocation by the input size). */
  count(field: string, minItemBytes: number): number {
    const n = this.u32(field);
    if (n * minItemBytes > this.remaining)
      throw new P2pError("WIRE_TRUNCATED", `${field} count ${n} cannot fit in the remaining input`, {
        field,
        count: n,
        remaining: this.remaining,
      });
    return n;
  }

  end(): void {
    if (this.remaining !== 0)
      throw new P2pError("WIRE_TRAILING_BYTES", `${this.remaining} bytes after the message`, {
        offset: this.pos,
        trailing: this.remaining,
      });
  }
}

// ---------------------------------------------------------------- encoding

function putRound(w: Writer, r: Round, field: string): void {
  w.u64(r.epoch, `${field}.epoch`);
  w.u64(r.view, `${field}.view`);
}

function putProposal(w: Writer, p: Proposal): void {
  putRound(w, p.round, "proposal.round");
  w.u64(p.height, "proposal.height");
  w.u64(p.parentView, "proposal.parentView");
  w.digest(p.parent, "proposal.parent");
  w.digest(p.payload, "proposal.payload");
}

function putKind(w: Writer, kind: VoteKind, proposal: Proposal | null, field: string): void {
  const k = KINDS.indexOf(kind);
  if (k < 0) throw new P2pError("WIRE_BAD_VALUE", `${field}.kind ${String(kind)} is unknown`, { field });
  if ((kind === "nullify") !== (proposal === null))
    throw new P2pError(
      "WIRE_BAD_VALUE",
      `${field}: a proposal is required exactly when kind is not nullify`,
      {
        field,
        kind,
      },
    );
  w.u8(k);
}

function putVote(w: Writer, v: Vote): void {
  putKind(w, v.kind, v.proposal, "vote");
  putRound(w, v.round, "vote.round");
  if (v.proposal === null) w.u8(0);
  else {
    w.u8(1);
    putProposal(w, v.proposal);
  }
  w.u32(v.signer, "vote.signer");
  w.bytes(v.signature, "vote.signature");
}

function putCertificate(w: Writer, c: Certificate): void {
  putKind(w, c.kind, c.proposal, "certificate");
  putRound(w, c.round, "certificate.round");
  if (c.proposal === null) w.u8(0);
  else {
    w.u8(1);
    putProposal(w, c.proposal);
  }
  w.bytes(c.signers, "certificate.signers");
  w.bytes(c.signature, "certificate.signature");
  if (c.seed === null) w.u8(0);
  else {
    w.u8(1);
    w.bytes(c.seed, "certificate.seed");
  }
}

function putBlock(w: Writer, codec: BlockCodec, block: unknown): void {
  let bytes: Uint8Array;
  try {
    bytes = codec.encode(block);
  } catch (e) {
    throw new P2pError("WIRE_BAD_BLOCK", "the block codec could not encode a block", {}, e);
  }
  w.bytes(bytes, "block");
}

function putFetch(w: Writer, f: FetchRequest): void {
  if (f.kind === "block") {
    w.u8(0);
    w.digest(f.digest, "fetch.digest");
  } else if (f.kind === "certificates") {
    w.u8(1);
    w.u64(f.fromView, "fetch.fromView");
    w.u64(f.toView, "fetch.toView");
  } else
    throw new P2pError("WIRE_BAD_VALUE", "fetch kind is unknown", { kind: (f as { kind: unknown }).kind });
}

/**
 * Encodes a consensus message. Throws `WIRE_BAD_VALUE` for values the format cannot carry
 * (non-integer views, non-hex digests, a nullify with a proposal…), `WIRE_BAD_BLOCK` if the
 * block codec fails, and `WIRE_TOO_LARGE` if the result exceeds `maxBytes`.
 */
export function encodeMessage(
  message: Message,
  codec: BlockCodec,
  maxBytes = Number.POSITIVE_INFINITY,
): Uint8Array {
  const w = new Writer();
  w.u8(WIRE_VERSION);
  switch (message.type) {
    case "propose":
      w.u8(TAG.propose);
      putProposal(w, message.proposal);
      putBlock(w, codec, message.block);
      putVote(w, message.vote);
      break;
    case "vote":
      w.u8(TAG.vote);
      putVote(w, message.vote);
      break;
    case "certificate":
      w.u8(TAG.certificate);
      putCertificate(w, message.certificate);
      break;
    case "fetch":
      w.u8(TAG.fetch);
      putFetch(w, message.want);
      break;
    case "fetched":
      w.u8(TAG.fetched);
      w.u32(message.blocks.length, "fetched.blocks");
      for (const b of message.blocks) {
        putProposal(w, b.proposal);
        putBlock(w, codec, b.block);
      }
      w.u32(message.certificates.length, "fetched.certificates");
      for (const c of message.certificates) putCertificate(w, c);
      break;
    default:
      throw new P2pError("WIRE_BAD_TAG", "unknown message type", {
        type: (message as { type: unknown }).type,
      });
  }
  const out = w.finish();
  if (out.length > maxBytes)
    throw new P2pError("WIRE_TOO_LARGE", `message of ${out.length} bytes exceeds ${maxBytes}`, {
      size: out.length,
      max: maxBytes,
    });
  return out;
}

// ---------------------------------------------------------------- decoding

function getRound(r: Reader, field: string): Round {
  const epoch = r.u64(`${field}.epoch`);
  const view = r.u64(`${field}.view`);
  return { epoch, view };
}

function getProposal(r: Reader): Proposal {
  const round = getRound(r, "proposal.round");
  const height = r.u64("proposal.height");
  const parentView = r.u64("proposal.parentView");
  const parent = r.digest("proposal.parent");
  const payload = r.digest("proposal.payload");
  return { round, height, parentView, parent, payload };
}

function getKind(r: Reader, field: string): VoteKind {
  const k = r.u8(`${field}.kind`);
  const kind = KINDS[k];
  if (kind === undefined)
    throw new P2pError("WIRE_BAD_TAG", `${field}.kind ${k} is unknown`, { field, kind: k });
  return kind;
}

function getOptProposal(r: Reader, kind: VoteKind, field: string): Proposal | null {
  const has = r.flag(`${field}.proposal`);
  if (has === (kind === "nullify"))
    throw new P2pError(
      "WIRE_BAD_VALUE",
      `${field}: a proposal is required exactly when kind is not nullify`,
      {
        field,
        kind,
      },
    );
  return has ? getProposal(r) : null;
}

function getVote(r: Reader): Vote {
  const kind = getKind(r, "vote");
  const round = getRound(r, "vote.round");
  const proposal = getOptProposal(r, kind, "vote");
  const signer = r.u32("vote.signer");
  const signature = r.bytes("vote.signature");
  return { kind, round, proposal, signer, signature };
}

function getCertificate(r: Reader): Certificate {
  const kind = getKind(r, "certificate");
  const round = getRound(r, "certificate.round");
  const proposal = getOptProposal(r, kind, "certificate");
  const signers = r.bytes("certificate.signers");
  const signature = r.bytes("certificate.signature");
  const seed = r.flag("certificate.seed") ? r.bytes("certificate.seed") : null;
  return { kind, round, proposal, signers, signature, seed };
}

function getBlock(r: Reader, codec: BlockCodec): unknown {
  const bytes = r.bytes("block");
  try {
    return codec.decode(bytes);
  } catch (e) {
    throw new P2pError("WIRE_BAD_BLOCK", "the block codec rejected a block", { size: bytes.length }, e);
  }
}

function getFetch(r: Reader): FetchRequest {
  const k = r.u8("fetch.kind");
  if (k === 0) return { kind: "block", digest: r.digest("fetch.digest") };
  if (k === 1) {
    const fromView = r.u64("fetch.fromView");
    const toView = r.u64("fetch.toView");
    return { kind: "certificates", fromView, toView };
  }
  throw new P2pError("WIRE_BAD_TAG", `fetch kind ${k} is unknown`, { kind: k });
}

/** Smallest encodings, used to bound counts before allocating. */
const MIN_PROPOSAL = 8 + 8 + 8 + 8 + 2 + 2;
const MIN_FETCHED_BLOCK = MIN_PROPOSAL + 4;
const MIN_CERTIFICATE = 1 + 16 + 1 + 4 + 4 + 1;

/**
 * Decodes a consensus message, consuming every byte. Throws a {@link P2pError} with a
 * `WIRE_*` code on any malformed input; never returns a partially decoded message.
 */
export function decodeMessage(
  bytes: Uint8Array,
  codec: BlockCodec,
  maxBytes = Number.POSITIVE_INFINITY,
): Message {
  if (!(bytes instanceof Uint8Array)) throw new P2pError("WIRE_BAD_VALUE", "input is not a Uint8Array");
  if (bytes.length > maxBytes)
    throw new P2pError("WIRE_TOO_LARGE", `message of ${bytes.length} bytes exceeds ${maxBytes}`, {
      size: bytes.length,
      max: maxBytes,
    });
  const r = new Reader(bytes);
  const version = r.u8("version");
  if (version !== WIRE_VERSION)
    throw new P2pError("WIRE_BAD_VERSION", `wire version ${version} is not ${WIRE_VERSION}`, { version });
  const tag = r.u8("tag");
  let message: Message;
  switch (tag) {
    case TAG.propose: {
      const proposal = getProposal(r);
      const block = getBlock(r, codec);
      const vote = getVote(r);
      message = { type: "propose", proposal, block, vote };
      break;
    }
    case TAG.vote:
      message = { type: "vote", vote: getVote(r) };
      break;
    case TAG.certificate:
      message = { type: "certificate", certificate: getCertificate(r) };
      break;
    case TAG.fetch:
      message = { type: "fetch", want: getFetch(r) };
      break;
    case TAG.fetched: {
      const nb = r.count("fetched.blocks", MIN_FETCHED_BLOCK);
      const blocks: Array<{ proposal: Proposal; block: unknown }> = [];
      for (let i = 0; i < nb; i++) {
        const proposal = getProposal(r);
        blocks.push({ proposal, block: getBlock(r, codec) });
      }
      const nc = r.count("fetched.certificates", MIN_CERTIFICATE);
      const certificates: Certificate[] = [];
      for (let i = 0; i < nc; i++) certificates.push(getCertificate(r));
      message = { type: "fetched", blocks, certificates };
      break;
    }
    default:
      throw new P2pError("WIRE_BAD_TAG", `message tag ${tag} is unknown`, { tag });
  }
  r.end();
  return message;
}

// ---------------------------------------------------------------- block sync (/cowboy/sync/1)

/**
 * Block-sync messages (same primitives as above):
 *
 * ```
 * request  = version:u8 (=2) ‖ 1:u8 ‖ from:u64 ‖ max:u32
 * response = version:u8 (=2) ‖ 2:u8 ‖ tip:u64 ‖ count:u32 ‖ (block:bytes ‖ opt(certificate))*
 * ```
 */
export interface SyncRequest {
  readonly from: number;
  readonly max: number;
}

export function encodeSyncRequest(req: SyncRequest): Uint8Array {
  const w = new Writer();
  w.u8(WIRE_VERSION);
  w.u8(1);
  w.u64(req.from, "sync.from");
  w.u32(req.max, "sync.max");
  return w.finish();
}

function syncHeader(r: Reader, tag: number): void {
  const version = r.u8("version");
  if (version !== WIRE_VERSION)
    throw new P2pError("WIRE_BAD_VERSION", `wire version ${version} is not ${WIRE_VERSION}`, { version });
  const t = r.u8("tag");
  if (t !== tag) throw new P2pError("WIRE_BAD_TAG", `sync tag ${t} is not ${tag}`, { tag: t });
}

export function decodeSyncRequest(bytes: Uint8Array): SyncRequest {
  const r = new Reader(bytes);
  syncHeader(r, 1);
  const from = r.u64("sync.from");
  const max = r.u32("sync.max");
  r.end();
  return { from, max };
}

export function encodeSyncResponse(
  res: SyncResponse,
  codec: BlockCodec,
  maxBytes = Number.POSITIVE_INFINITY,
): Uint8Array {
  const w = new Writer();
  w.u8(WIRE_VERSION);
  w.u8(2);
  w.u64(res.tip, "sync.tip");
  w.u32(res.blocks.length, "sync.blocks");
  for (const b of res.blocks) {
    putBlock(w, codec, b.block);
    if (b.certificate === null) w.u8(0);
    else {
      w.u8(1);
      putCertificate(w, b.certificate);
    }
  }
  const out = w.finish();
  if (out.length > maxBytes)
    throw new P2pError("WIRE_TOO_LARGE", `sync response of ${out.length} bytes exceeds ${maxBytes}`, {
      size: out.length,
      max: maxBytes,
    });
  return out;
}

export function decodeSyncResponse(bytes: Uint8Array, codec: BlockCodec): SyncResponse {
  const r = new Reader(bytes);
  syncHeader(r, 2);
  const tip = r.u64("sync.tip");
  const n = r.count("sync.blocks", 4 + 1);
  const blocks: SyncedBlock[] = [];
  for (let i = 0; i < n; i++) {
    const block = getBlock(r, codec);
    const certificate = r.flag("sync.certificate") ? getCertificate(r) : null;
    blocks.push({ block, certificate });
  }
  r.end();
  return { tip, blocks };
}
