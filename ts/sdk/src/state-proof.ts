/**
 * Verifier for Cowboy state proofs (docs/state.md "Proofs"): checks that a key
 * has a value, or is absent, under a trusted blake3 state root, byte-for-byte
 * the rules of the Rust crate `cowboy-qmdb` (`Proof::verify`).
 *
 * A proof shows one operation of the state's operation log, its path in the
 * Merkle mountain range (MMR) over the log, and the 512-bit (64-byte) bitmap
 * chunk that marks it active with that chunk's path. An active `Update {key, value,
 * next_key}` proves `key = value`, or proves absent every key strictly inside
 * the cyclic gap (key, next_key). An empty state is proven by the final
 * `Commit {active_keys: 0}` operation (or by having no operations at all).
 *
 * Hashing is state format v2: every hash is blake3 in keyed mode with one key
 * per domain, `K(name) = blake3("cowboy-qmdb-v2 " || name)`.
 *
 * Pure TypeScript; the only dependency is `@noble/hashes` (blake3).
 */
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesEqual, compareBytes } from "./bytes.ts";

/** Longest key the store accepts (`MAX_KEY_LEN`). */
export const STATE_MAX_KEY_LEN = 1024;
/** Longest value the store accepts (`MAX_VALUE_LEN`). */
export const STATE_MAX_VALUE_LEN = 16 * 1024 * 1024;
/** Activity bits per bitmap chunk (one chunk is 64 bytes). */
const CHUNK_BITS = 512n;
const CHUNK_BYTES = 64;
/** Prefix of every domain-key derivation string. */
const KEY_PREFIX = "cowboy-qmdb-v2 ";

/** Why a proof was rejected: the same codes as Rust's `ProofError::code()`. */
export type StateProofErrorCode =
  | "PROOF_MALFORMED"
  | "PROOF_BAD_MMR_PATH"
  | "PROOF_INACTIVE"
  | "PROOF_BAD_BITMAP_PATH"
  | "PROOF_ROOT_MISMATCH"
  | "PROOF_KEY_NOT_COVERED"
  | "PROOF_BAD_KEY";

/** A rejected state proof. */
export class StateProofError extends Error {
  readonly code: StateProofErrorCode;
  constructor(code: StateProofErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = "StateProofError";
    this.code = code;
  }
}

/** A log operation. */
export type StateOp =
  | { kind: "update"; key: Uint8Array; value: Uint8Array; nextKey: Uint8Array }
  | { kind: "delete"; key: Uint8Array }
  | { kind: "commit"; floor: bigint; activeKeys: bigint };

/** A decoded state proof (see docs/state.md for the byte layout). */
export interface StateProof {
  opCount: bigint;
  peaks: Uint8Array[];
  witness:
    | {
        kind: "empty";
        last: { op: StateOp; opBytes: Uint8Array; path: Uint8Array[] } | null;
        bitmapRoot: Uint8Array;
      }
    | {
        kind: "op";
        loc: bigint;
        op: StateOp;
        opBytes: Uint8Array;
        mmrPath: Uint8Array[];
        chunk: Uint8Array;
        bitmapPath: Uint8Array[];
      };
}

/** The outcome of a successful verification. */
export type StateProofResult = { exists: true; value: Uint8Array } | { exists: false };

function malformed(msg: string): StateProofError {
  return new StateProofError("PROOF_MALFORMED", msg);
}

class Reader {
  pos = 0;
  readonly buf: Uint8Array;
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }
  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.buf.length) throw malformed("unexpected end of input");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  u8(): number {
    return this.take(1)[0] as number;
  }
  u32(): number {
    const b = this.take(4);
    return (
      ((b[0] as number) | ((b[1] as number) << 8) | ((b[2] as number) << 16)) + (b[3] as number) * 0x1000000
    );
  }
  u64(): bigint {
    const b = this.take(8);
    let v = 0n;
    for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[i] as number);
    return v;
  }
  hash(): Uint8Array {
    return this.take(32);
  }
  chunk(): Uint8Array {
    return this.take(CHUNK_BYTES);
  }
  bytes(max: number): Uint8Array {
    const n = this.u32();
    if (n > max) throw malformed(`length ${n} above limit ${max}`);
    return this.take(n);
  }
  hashes(): Uint8Array[] {
    const n = this.u32();
    if (n > 128) throw malformed(`${n} hashes in a path`);
    const out: Uint8Array[] = [];
    for (let i = 0; i < n; i++) out.push(this.hash());
    return out;
  }
}

/** Strictly decodes one encoded operation (all of `buf`). */
export function decodeStateOp(buf: Uint8Array): StateOp {
  const r = new Reader(buf);
  let op: StateOp;
  const tag = r.u8();
  if (tag === 0x01) {
    const key = r.bytes(STATE_MAX_KEY_LEN);
    const value = r.bytes(STATE_MAX_VALUE_LEN);
    const nextKey = r.bytes(STATE_MAX_KEY_LEN);
    if (key.length === 0 || nextKey.length === 0) throw malformed("empty key in update");
    op = { kind: "update", key, value, nextKey };
  } else if (tag === 0x02) {
    const key = r.bytes(STATE_MAX_KEY_LEN);
    if (key.length === 0) throw malformed("empty key in delete");
    op = { kind: "delete", key };
  } else if (tag === 0x03) {
    op = { kind: "commit", floor: r.u64(), activeKeys: r.u64() };
  } else {
    throw malformed(`unknown operation tag ${tag}`);
  }
  if (r.pos !== buf.length) throw malformed("trailing bytes after operation");
  return op;
}

function readOp(r: Reader): { op: StateOp; opBytes: Uint8Array } {
  const n = r.u32();
  const opBytes = r.take(n);
  return { op: decodeStateOp(opBytes), opBytes };
}

/** Strictly decodes the proof bytes produced by `Proof::encode` (Rust). */
export function decodeStateProof(buf: Uint8Array): StateProof {
  const r = new Reader(buf);
  const opCount = r.u64();
  const peaks = r.hashes();
  const kind = r.u8();
  let witness: StateProof["witness"];
  if (kind === 0) {
    const flag = r.u8();
    let last: { op: StateOp; opBytes: Uint8Array; path: Uint8Array[] } | null = null;
    if (flag === 1) {
      const { op, opBytes } = readOp(r);
      last = { op, opBytes, path: r.hashes() };
    } else if (flag !== 0) {
      throw malformed(`bad flag ${flag}`);
    }
    witness = { kind: "empty", last, bitmapRoot: r.hash() };
  } else if (kind === 1) {
    const loc = r.u64();
    const { op, opBytes } = readOp(r);
    witness = { kind: "op", loc, op, opBytes, mmrPath: r.hashes(), chunk: r.chunk(), bitmapPath: r.hashes() };
  } else {
    throw malformed(`bad witness kind ${kind}`);
  }
  if (r.pos !== buf.length) throw malformed("trailing bytes after proof");
  return { opCount, peaks, witness };
}

/** The blake3 key of a hashing domain: `blake3(utf8("cowboy-qmdb-v2 " + name))`. */
function domainKey(name: string): Uint8Array {
  return blake3(new TextEncoder().encode(KEY_PREFIX + name));
}

const K_MMR_LEAF = domainKey("mmr-leaf");
const K_MMR_NODE = domainKey("mmr-node");
const K_MMR_BAG = domainKey("mmr-bag");
const K_BITMAP_LEAF = domainKey("bitmap-leaf");
const K_BITMAP_NODE = domainKey("bitmap-node");
const K_STATE_ROOT = domainKey("state-root");

/** `blake3_keyed(key, parts[0] || parts[1] || ...)`. */
function keyed(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const buf = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    buf.set(p, off);
    off += p.length;
  }
  return blake3(buf, { key });
}

function u64le(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  for (let i = 0; i < 8; i++) out[i] = Number((v >> BigInt(8 * i)) & 0xffn);
  return out;
}

function popcount(v: bigint): number {
  let n = 0;
  for (let x = v; x > 0n; x >>= 1n) if (x & 1n) n++;
  return n;
}

const mmrLeaf = (op: Uint8Array) => keyed(K_MMR_LEAF, op);
const mmrNode = (l: Uint8Array, r: Uint8Array) => keyed(K_MMR_NODE, l, r);
const mmrBag = (leaves: bigint, peaks: Uint8Array[]) => keyed(K_MMR_BAG, u64le(leaves), ...peaks);
const bitmapLeaf = (chunk: Uint8Array) => keyed(K_BITMAP_LEAF, chunk);
const bitmapNode = (l: Uint8Array, r: Uint8Array) => keyed(K_BITMAP_NODE, l, r);

/** `blake3_keyed(K("state-root"), op_count u64 LE || mmr_root || bitmap_root)`. */
function stateRoot(opCount: bigint, mmrRoot: Uint8Array, bitmapRoot: Uint8Array): Uint8Array {
  return keyed(K_STATE_ROOT, u64le(opCount), mmrRoot, bitmapRoot);
}

/** Depth of the bitmap tree: ceil(log2(max(1, ceil(opCount / 512)))). */
function bitmapDepth(opCount: bigint): number {
  const chunks = (opCount + CHUNK_BITS - 1n) / CHUNK_BITS;
  let d = 0;
  while (1n << BigInt(d) < chunks) d++;
  return d;
}

/** Checks leaf `loc` of an MMR of `leaves` leaves against its peaks. */
function verifyMmrLeaf(
  leaves: bigint,
  loc: bigint,
  leaf: Uint8Array,
  path: Uint8Array[],
  peaks: Uint8Array[],
): boolean {
  if (loc >= leaves || peaks.length !== popcount(leaves)) return false;
  let first = 0n;
  let index = 0;
  for (let k = 63; k >= 0; k--) {
    const size = 1n << BigInt(k);
    if ((leaves & size) === 0n) continue;
    if (loc < first + size) {
      if (path.length !== k) return false;
      const local = loc - first;
      let cur = leaf;
      for (let t = 0; t < k; t++) {
        const sib = path[t] as Uint8Array;
        cur = (local >> BigInt(t)) & 1n ? mmrNode(sib, cur) : mmrNode(cur, sib);
      }
      return bytesEqual(cur, peaks[index] as Uint8Array);
    }
    first += size;
    index++;
  }
  return false;
}

/** Whether `key` lies strictly inside the cyclic gap (from, to) of the live key set. */
export function inGap(from: Uint8Array, to: Uint8Array, key: Uint8Array): boolean {
  if (compareBytes(from, to) < 0) return compareBytes(from, key) < 0 && compareBytes(key, to) < 0;
  return compareBytes(key, from) > 0 || compareBytes(key, to) < 0;
}

/**
 * Verifies `proof` (bytes or decoded) for `key` under the trusted state `root`.
 * Returns the value (inclusion) or `{exists: false}` (exclusion); throws a
 * `StateProofError` for anything inconsistent.
 */
export function verifyStateProof(
  root: Uint8Array,
  key: Uint8Array,
  proof: Uint8Array | StateProof,
): StateProofResult {
  if (key.length === 0 || key.length > STATE_MAX_KEY_LEN)
    throw new StateProofError("PROOF_BAD_KEY", "key length out of range");
  if (root.length !== 32) throw malformed("root must be 32 bytes");
  const p = proof instanceof Uint8Array ? decodeStateProof(proof) : proof;
  const n = p.opCount;
  if (p.peaks.length !== popcount(n)) throw malformed("peak count");
  const mmrRoot = mmrBag(n, p.peaks);
  const w = p.witness;
  if (w.kind === "empty") {
    if (n === 0n) {
      if (w.last !== null) throw malformed("empty witness shape");
    } else {
      if (w.last === null) throw malformed("empty witness shape");
      const op = w.last.op;
      if (op.kind !== "commit" || op.activeKeys !== 0n)
        throw new StateProofError("PROOF_KEY_NOT_COVERED", "last operation is not an empty commit");
      if (!verifyMmrLeaf(n, n - 1n, mmrLeaf(w.last.opBytes), w.last.path, p.peaks)) {
        throw new StateProofError("PROOF_BAD_MMR_PATH", "operation is not in the log under this root");
      }
    }
    if (!bytesEqual(stateRoot(n, mmrRoot, w.bitmapRoot), root)) {
      throw new StateProofError("PROOF_ROOT_MISMATCH", "recomputed root differs from the trusted root");
    }
    return { exists: false };
  }
  const op = w.op;
  if (op.kind !== "update") throw malformed("witness operation is not an update");
  if (!verifyMmrLeaf(n, w.loc, mmrLeaf(w.opBytes), w.mmrPath, p.peaks)) {
    throw new StateProofError("PROOF_BAD_MMR_PATH", "operation is not in the log under this root");
  }
  if (w.bitmapPath.length !== bitmapDepth(n))
    throw new StateProofError("PROOF_BAD_BITMAP_PATH", "bitmap path has the wrong shape");
  const bit = Number(w.loc % CHUNK_BITS);
  if ((((w.chunk[bit >> 3] as number) >> (bit & 7)) & 1) === 0) {
    throw new StateProofError("PROOF_INACTIVE", "operation is not active");
  }
  const chunkIndex = w.loc / CHUNK_BITS;
  let cur = bitmapLeaf(w.chunk);
  w.bitmapPath.forEach((sib, t) => {
    cur = (chunkIndex >> BigInt(t)) & 1n ? bitmapNode(sib, cur) : bitmapNode(cur, sib);
  });
  if (!bytesEqual(stateRoot(n, mmrRoot, cur), root)) {
    throw new StateProofError("PROOF_ROOT_MISMATCH", "recomputed root differs from the trusted root");
  }
  if (bytesEqual(op.key, key)) return { exists: true, value: op.value };
  if (inGap(op.key, op.nextKey, key)) return { exists: false };
  throw new StateProofError("PROOF_KEY_NOT_COVERED", "witness does not cover the key");
}
