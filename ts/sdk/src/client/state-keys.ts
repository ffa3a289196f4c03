/**
 * The world state's key layout (crates/qmdb/src/keys.rs) and the account record
 * encoding, so a client can name the exact state key a proof is about and check
 * the proven bytes itself. Byte-for-byte the Rust crate's rules.
 */
import { concatBytes } from "../bytes.ts";
import type { Address } from "../types.ts";

/** VM namespace of the Python VM in actor storage keys. */
export const VM_NS_PVM = 0x01;
/** Longest actor storage key (bytes after the address). */
export const MAX_STORAGE_KEY_LEN = 512;

function checkAddress(addr: Address): void {
  if (addr.length !== 20) throw new RangeError(`address must be 20 bytes, got ${addr.length}`);
}

/** State key of an account record: `0x01 ‖ address`. */
export function accountKey(addr: Address): Uint8Array {
  checkAddress(addr);
  return concatBytes(Uint8Array.of(0x01), addr);
}

/** State key of an actor's code: `0x02 ‖ address`. */
export function actorCodeKey(addr: Address): Uint8Array {
  checkAddress(addr);
  return concatBytes(Uint8Array.of(0x02), addr);
}

/** State key of an actor storage cell: `0x03 ‖ vm_ns ‖ address ‖ key` (key 1..=512 bytes). */
export function actorStorageKey(addr: Address, key: Uint8Array, vmNs = VM_NS_PVM): Uint8Array {
  checkAddress(addr);
  if (key.length === 0 || key.length > MAX_STORAGE_KEY_LEN) {
    throw new RangeError(`storage key length ${key.length} outside 1..=${MAX_STORAGE_KEY_LEN}`);
  }
  return concatBytes(Uint8Array.of(0x03, vmNs), addr, key);
}

/** An account record (balance is u128 in the state, u64 on the wire of transactions). */
export interface AccountRecord {
  balance: bigint;
  nonce: bigint;
  /** blake3 of the actor code; all zero for a plain account */
  codeHash: Uint8Array;
  metadata: Uint8Array;
}

function le(bytes: Uint8Array): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] as number);
  return v;
}

/** Strictly decodes an account record (16-byte LE balance, 8-byte LE nonce, 32-byte code hash, u32 LE length + metadata). */
export function decodeAccountRecord(buf: Uint8Array): AccountRecord {
  if (buf.length < 60) throw new RangeError(`account record too short (${buf.length} bytes)`);
  const len = Number(le(buf.subarray(56, 60)));
  if (len > 64 * 1024) throw new RangeError(`account metadata of ${len} bytes exceeds 64 KiB`);
  if (buf.length !== 60 + len)
    throw new RangeError("account record length does not match its metadata length");
  return {
    balance: le(buf.subarray(0, 16)),
    nonce: le(buf.subarray(16, 24)),
    codeHash: buf.slice(24, 56),
    metadata: buf.slice(60),
  };
}
