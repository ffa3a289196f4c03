/**
 * Hashing on the STF's hot path through the addon (`@cowboy/native`, Rust keccak and Merkle
 * root: several times faster than the pure-TS keccak of `@cowboy/sdk`, which is the fallback
 * when the addon cannot be loaded). Both give identical bytes (the codec's tests pin them).
 *
 * Per-block work crosses into Rust once per block, not once per item: lists travel packed
 * (one buffer, items back to back; see crates/napi/src/stf.rs), e.g. every order key of a
 * block in one call ({@link keccakStrided}) and the receipts root from the encoded receipts
 * in one call ({@link keccakMerkle}).
 */
import { createRequire } from "node:module";
import {
  decodeTransaction,
  encodeReceipt,
  type Receipt,
  type SignatureOffsets,
  type Transaction,
  keccak256 as tsKeccak,
  merkleRoot as tsMerkleRoot,
} from "@cowboy/sdk";

interface NativeHash {
  keccak256(data: Buffer): Buffer;
  merkleRoot(items: Buffer[]): Buffer;
  /** packed helpers of crates/napi/src/stf.rs (absent in an addon built before them) */
  keccak256Strided?(data: Buffer, stride: number): Buffer;
  merkleRootPacked?(leaves: Buffer): Buffer;
  keccakMerkleRootPacked?(data: Buffer, ends: Uint32Array): Buffer;
}

function load(): NativeHash | null {
  try {
    const n = createRequire(import.meta.url)("@cowboy/native") as Partial<NativeHash>;
    return typeof n.keccak256 === "function" && typeof n.merkleRoot === "function" ? (n as NativeHash) : null;
  } catch {
    return null;
  }
}

const native = load();
/** the packed helpers, when the addon has all of them */
const packed =
  native !== null &&
  typeof native.keccak256Strided === "function" &&
  typeof native.merkleRootPacked === "function" &&
  typeof native.keccakMerkleRootPacked === "function"
    ? (native as Required<NativeHash>)
    : null;

const buf = (u: Uint8Array): Buffer =>
  Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** A plain Uint8Array view of an addon Buffer (so results compare equal to SDK values). */
const plain = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** keccak256 of `data`. */
export function keccak(data: Uint8Array): Uint8Array {
  return native === null ? tsKeccak(data) : plain(native.keccak256(buf(data)));
}

/** The codec's domain-separated keccak Merkle root of 32-byte items (zeros when empty). */
export function merkle(items: readonly Uint8Array[]): Uint8Array {
  return native === null ? tsMerkleRoot(items) : plain(native.merkleRoot(items.map(buf)));
}

/**
 * keccak256 of each `stride`-byte item laid back to back in `data`, concatenated (32 bytes
 * per item, in order).
 */
export function keccakStrided(data: Uint8Array, stride: number): Uint8Array {
  if (stride <= 0 || data.length % stride !== 0)
    throw new RangeError(`${data.length} bytes is not a whole number of ${stride}-byte items`);
  if (packed !== null) return plain(packed.keccak256Strided(buf(data), stride));
  const n = data.length / stride;
  const out = new Uint8Array(n * 32);
  for (let i = 0; i < n; i++) out.set(keccak(data.subarray(i * stride, (i + 1) * stride)), i * 32);
  return out;
}

/** {@link merkle} of 32-byte leaves laid back to back in `leaves`. */
export function merklePacked(leaves: Uint8Array): Uint8Array {
  if (leaves.length % 32 !== 0) throw new RangeError(`${leaves.length} bytes is not a multiple of 32`);
  if (packed !== null) return plain(packed.merkleRootPacked(buf(leaves)));
  const items: Uint8Array[] = [];
  for (let o = 0; o < leaves.length; o += 32) items.push(leaves.subarray(o, o + 32));
  return merkle(items);
}

/** Packs byte strings back to back: the buffer and the end offset of each item. */
export function packItems(items: readonly Uint8Array[]): { data: Buffer; ends: Uint32Array } {
  const ends = new Uint32Array(items.length);
  let n = 0;
  for (let i = 0; i < items.length; i++) {
    n += (items[i] as Uint8Array).length;
    ends[i] = n;
  }
  const data = Buffer.allocUnsafe(n);
  let o = 0;
  for (const it of items) {
    data.set(it, o);
    o += it.length;
  }
  return { data, ends };
}

/** {@link merkle} of the keccak256 of every item (e.g. the receipts root of encoded receipts). */
export function keccakMerkle(items: readonly Uint8Array[]): Uint8Array {
  if (packed !== null) {
    const { data, ends } = packItems(items);
    return plain(packed.keccakMerkleRootPacked(data, ends));
  }
  return merkle(items.map((b) => keccak(b)));
}

/**
 * Strict decode plus the transaction digest (keccak256 of the bytes with every signature
 * zeroed) and `sigKey`: the digest and the signature bytes as a string, which identifies the
 * exact encoding (two encodings with the same digest differ only in their signatures) without
 * hashing it again — the key of the verified-signature cache.
 */
export function decodeTx(bytes: Uint8Array): { tx: Transaction; hash: Uint8Array; sigKey: string } {
  const offsets: SignatureOffsets = { signature: 0, additional: [] };
  const tx = decodeTransaction(bytes, offsets);
  const pre = new Uint8Array(bytes);
  pre.fill(0, offsets.signature, offsets.signature + 65);
  for (const off of offsets.additional) pre.fill(0, off, off + 65);
  const hash = keccak(pre);
  const b = buf(bytes);
  let sigKey = buf(hash).toString("latin1") + b.toString("latin1", offsets.signature, offsets.signature + 65);
  for (const off of offsets.additional) sigKey += b.toString("latin1", off, off + 65);
  return { tx, hash, sigKey };
}

/** keccak256(encode(receipt)): the receipts-root leaf. */
export function receiptDigest(r: Receipt): Uint8Array {
  return keccak(encodeReceipt(r));
}

/** The receipts root: {@link merkle} of {@link receiptDigest} of each receipt, in one addon call. */
export function receiptsRootOf(receipts: readonly Receipt[]): Uint8Array {
  return keccakMerkle(receipts.map((r) => encodeReceipt(r)));
}
