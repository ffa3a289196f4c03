/**
 * Hashing on the STF's hot path through the addon (`@cowboy/native`, Rust keccak and Merkle
 * root: several times faster than the pure-TS keccak of `@cowboy/sdk`, which is the fallback
 * when the addon cannot be loaded). Both give identical bytes (the codec's tests pin them).
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

/** Strict decode plus the transaction digest (keccak256 of the bytes with every signature zeroed). */
export function decodeTx(bytes: Uint8Array): { tx: Transaction; hash: Uint8Array } {
  const offsets: SignatureOffsets = { signature: 0, additional: [] };
  const tx = decodeTransaction(bytes, offsets);
  const pre = new Uint8Array(bytes);
  pre.fill(0, offsets.signature, offsets.signature + 65);
  for (const off of offsets.additional) pre.fill(0, off, off + 65);
  return { tx, hash: keccak(pre) };
}

/** keccak256(encode(receipt)): the receipts-root leaf. */
export function receiptDigest(r: Receipt): Uint8Array {
  return keccak(encodeReceipt(r));
}
