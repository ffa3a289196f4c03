/**
 * The peer side of the devnet benchmark: just enough Ethereum to load a Hardhat
 * network with the same work we give the Cowboy devnet — signed EIP-1559
 * transactions (RLP, keccak-256, secp256k1) for value transfers and for calls to
 * a one-slot counter contract.
 *
 * Only what the benchmark needs; not a general Ethereum library.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";

/** RLP item: a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

function lengthPrefix(len: number, short: number, long: number): Uint8Array {
  if (len < 56) return Uint8Array.of(short + len);
  const bytes = bigintBytes(BigInt(len));
  return Uint8Array.of(long + bytes.length, ...bytes);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Recursive-length-prefix encoding (Ethereum yellow paper, appendix B). */
export function rlpEncode(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && (item[0] as number) < 0x80) return item;
    return concat([lengthPrefix(item.length, 0x80, 0xb7), item]);
  }
  const body = concat(item.map(rlpEncode));
  return concat([lengthPrefix(body.length, 0xc0, 0xf7), body]);
}

/** Minimal big-endian bytes of a non-negative integer (empty for zero), as RLP wants. */
export function bigintBytes(n: bigint): Uint8Array {
  if (n < 0n) throw new RangeError("negative integer");
  const out: number[] = [];
  for (let v = n; v > 0n; v >>= 8n) out.unshift(Number(v & 0xffn));
  return Uint8Array.from(out);
}

export function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith("0x") ? hex.slice(2) : hex;
  return Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
}

export function bytesToHex(b: Uint8Array): string {
  return `0x${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}

/** Ethereum address of a secp256k1 private key. */
export function ethAddress(privateKey: Uint8Array): Uint8Array {
  const pub = secp256k1.getPublicKey(privateKey, false);
  return keccak_256(pub.subarray(1)).subarray(12);
}

/** Fields of an EIP-1559 (type 2) transaction. `to` null deploys `data` as init code. */
export interface Eip1559Tx {
  chainId: bigint;
  nonce: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  to: Uint8Array | null;
  value: bigint;
  data: Uint8Array;
}

/** Signs `tx` and returns the raw bytes for `eth_sendRawTransaction`. */
export function signEip1559(tx: Eip1559Tx, privateKey: Uint8Array): Uint8Array {
  const fields: RlpItem[] = [
    bigintBytes(tx.chainId),
    bigintBytes(tx.nonce),
    bigintBytes(tx.maxPriorityFeePerGas),
    bigintBytes(tx.maxFeePerGas),
    bigintBytes(tx.gas),
    tx.to ?? new Uint8Array(0),
    bigintBytes(tx.value),
    tx.data,
    [], // access list
  ];
  const digest = keccak_256(concat([Uint8Array.of(2), rlpEncode(fields)]));
  const sig = secp256k1.sign(digest, privateKey, { prehash: false, format: "recovered" });
  // noble's "recovered" format is recovery ‖ r ‖ s.
  const recovery = sig[0] as number;
  const r = sig.subarray(1, 33);
  const s = sig.subarray(33, 65);
  const stripped = (b: Uint8Array) => bigintBytes(BigInt(bytesToHex(b)));
  const signed: RlpItem[] = [...fields, bigintBytes(BigInt(recovery)), stripped(r), stripped(s)];
  return concat([Uint8Array.of(2), rlpEncode(signed)]);
}

/**
 * A counter contract written directly in EVM bytecode (no compiler needed):
 * any call adds one to storage slot 0.
 *
 * runtime: PUSH1 1, PUSH1 0, SLOAD, ADD, PUSH1 0, SSTORE, STOP
 */
const COUNTER_RUNTIME = hexToBytes("600160005401600055 00".replace(/ /g, ""));

/** Init code that returns {@link COUNTER_RUNTIME}: CODECOPY the tail into memory, RETURN it. */
export function counterInitCode(): Uint8Array {
  const n = COUNTER_RUNTIME.length;
  // PUSH1 n, PUSH1 offset, PUSH1 0, CODECOPY, PUSH1 n, PUSH1 0, RETURN  (12 bytes)
  const head = Uint8Array.of(0x60, n, 0x60, 12, 0x60, 0, 0x39, 0x60, n, 0x60, 0, 0xf3);
  return concat([head, COUNTER_RUNTIME]);
}

/** Address of the contract created by `sender` at `nonce`: keccak256(rlp([sender, nonce]))[12:]. */
export function createAddress(sender: Uint8Array, nonce: bigint): Uint8Array {
  return keccak_256(rlpEncode([sender, bigintBytes(nonce)])).subarray(12);
}
