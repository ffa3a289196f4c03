/**
 * The world-state key layout, identical to crates/qmdb/src/keys.rs (every key parses as a
 * qmdb `StateKey`), plus the protocol-owned tables the STF keeps:
 *
 * | key | value |
 * | --- | --- |
 * | `0x01 ‖ addr` | account record ({@link encodeAccount}) |
 * | `0x02 ‖ addr` | actor code (canonical Python source bytes) |
 * | `0x03 ‖ 0x01 ‖ addr ‖ key` | PVM actor storage (written by the runtime) |
 * | `0x03 ‖ 0x00 ‖ addr ‖ table ‖ …` | protocol tables per address ({@link VM_NS_SYSTEM}) |
 * | `0x04 ‖ height u64 BE ‖ seq u64 BE` | timer record, FIFO by `seq` within a height |
 * | `0x05 ‖ job id` | runner-job record (jobs.ts `encodeJob`) |
 * | `0x08 ‖ name` | governance parameter (§13.1 names) |
 * | `0x03 ‖ 0x00 ‖ 0^20 ‖ 0x07 ‖ 0x00 ‖ …` | validator registry (ts/consensus `ValidatorRegistry` layout, see stf/validators.ts) |
 * | `0x03 ‖ 0x00 ‖ 0^20 ‖ 0x07 ‖ 0x01` | validator parameters (8 × u64 BE; absent = defaults) |
 * | `0x03 ‖ 0x00 ‖ 0^20 ‖ 0x07 ‖ 0x02 ‖ …` | threshold groups per epoch and resharing ceremonies (stf/dkg.ts) |
 *
 * Protocol tables live in actor-storage keys under the reserved `vm_ns` 0x00, which no VM
 * uses (PVM = 0x01, EVM = 0x02), so actor code can never read or forge them. Global tables use
 * {@link PROTOCOL_ADDRESS}; per-actor tables use the actor's address (docs/execution.md).
 */

/** Namespace tags (crates/qmdb/src/keys.rs `Namespace`). */
export const NS = {
  account: 0x01,
  actorCode: 0x02,
  actorStorage: 0x03,
  timer: 0x04,
  job: 0x05,
  runner: 0x06,
  entitlement: 0x07,
  governance: 0x08,
} as const;

/** `vm_ns` of the Python VM. */
export const VM_NS_PVM = 0x01;
/** `vm_ns` reserved here for protocol-owned tables (no VM can address it). */
export const VM_NS_SYSTEM = 0x00;
/** Owner address of global protocol tables (timer index, cursor, dedup expiry lists). */
export const PROTOCOL_ADDRESS = new Uint8Array(20);

/** Protocol table tags (first byte after the address in a `VM_NS_SYSTEM` key). */
export const TABLE = {
  /** global: timer id → (height, seq) of its record */
  timerIndex: 0x01,
  /** global: height → number of timer slots used at that height (u64 BE) */
  timerLength: 0x02,
  /** global: the timer cursor (height u64 BE ‖ seq u64 BE) */
  timerCursor: 0x03,
  /** per owner: active timers (u32 BE) */
  timerCount: 0x04,
  /** per recipient: message id → height it was recorded at (u64 BE) */
  dedup: 0x05,
  /** global: height → list of (recipient ‖ message id) recorded at that height */
  dedupExpiry: 0x06,
  /** global: runner-job expiry bucket entry, deadline u64 BE ‖ slot u64 BE → job id (jobs.ts) */
  jobExpirySlot: 0x20,
  /** global: deadline u64 BE → slots used in that job expiry bucket (u64 BE) */
  jobExpiryLength: 0x21,
  /** global: job expiry cursor (deadline u64 BE ‖ slot u64 BE), present only during a backlog */
  jobExpiryCursor: 0x22,
  /**
   * global: the validator set (ts/node/src/stf/validators.ts). Sub-key 0x00 ‖ … is the
   * `ValidatorRegistry` of ts/consensus (its prefix); 0x01 is the validator parameters record;
   * 0x02 ‖ … the threshold groups and resharing ceremonies (stf/dkg.ts).
   */
  validators: 0x07,
} as const;

function cat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** 8-byte big-endian. */
export function u64be(n: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
}

/** Reads an 8-byte big-endian integer at `offset`. */
export function readU64be(b: Uint8Array, offset = 0): bigint {
  return new DataView(b.buffer, b.byteOffset + offset, 8).getBigUint64(0);
}

export function accountKey(addr: Uint8Array): Uint8Array {
  const k = new Uint8Array(21);
  k[0] = NS.account;
  k.set(addr, 1);
  return k;
}

export function codeKey(addr: Uint8Array): Uint8Array {
  const k = new Uint8Array(21);
  k[0] = NS.actorCode;
  k.set(addr, 1);
  return k;
}

/** Key of a storage cell; `key` is 1..=512 bytes (qmdb `MAX_STORAGE_KEY_LEN`). */
export function storageKey(vmNs: number, addr: Uint8Array, key: Uint8Array): Uint8Array {
  if (key.length < 1 || key.length > 512)
    throw new RangeError(`storage key length ${key.length} outside 1..=512`);
  return cat([Uint8Array.of(NS.actorStorage, vmNs), addr, key]);
}

/** Key of a protocol table entry owned by `addr`. */
export function systemKey(addr: Uint8Array, table: number, ...parts: Uint8Array[]): Uint8Array {
  // one allocation (on the hot path: every message delivery writes a dedup entry)
  let n = 3 + addr.length;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  out[0] = NS.actorStorage;
  out[1] = VM_NS_SYSTEM;
  out.set(addr, 2);
  out[2 + addr.length] = table;
  let o = 3 + addr.length;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function timerKey(height: bigint, seq: bigint): Uint8Array {
  return cat([Uint8Array.of(NS.timer), u64be(height), u64be(seq)]);
}

/** Key of a governance parameter; `name` is 1..=64 bytes. */
export function governanceKey(name: string): Uint8Array {
  const n = new TextEncoder().encode(name);
  if (n.length < 1 || n.length > 64) throw new RangeError(`parameter name length ${n.length} outside 1..=64`);
  return cat([Uint8Array.of(NS.governance), n]);
}

const ZERO32 = new Uint8Array(32);

/** An account record as the STF sees it (same fields as `AccountRecord` of state/qmdb.ts). */
export interface AccountFields {
  balance: bigint;
  nonce: bigint;
  /** 32 bytes; all zero = plain account */
  codeHash: Uint8Array;
  metadata: Uint8Array;
}

/** An empty account (what an absent account key means). */
export function emptyAccount(): AccountFields {
  return { balance: 0n, nonce: 0n, codeHash: ZERO32, metadata: new Uint8Array(0) };
}

/**
 * The account record of crates/qmdb `keys::Account`:
 * `balance u128 LE ‖ nonce u64 LE ‖ code_hash (32) ‖ u32 LE len ‖ metadata`. The STF's hot path
 * encodes in TS (no addon round trip per account); test/stf-state.test.ts checks it byte for
 * byte against the addon's `accountEncode`/`accountDecode`.
 */
export function encodeAccountRecord(a: AccountFields): Uint8Array {
  const b = new Uint8Array(16 + 8 + 32 + 4 + a.metadata.length);
  const v = new DataView(b.buffer);
  v.setBigUint64(0, a.balance & 0xffff_ffff_ffff_ffffn, true);
  v.setBigUint64(8, a.balance >> 64n, true);
  v.setBigUint64(16, a.nonce, true);
  b.set(a.codeHash, 24);
  v.setUint32(56, a.metadata.length, true);
  b.set(a.metadata, 60);
  return b;
}

/** Strict inverse of {@link encodeAccountRecord}; throws a RangeError on a malformed record. */
export function decodeAccountRecord(b: Uint8Array): AccountFields {
  if (b.length < 60) throw new RangeError(`account record of ${b.length} bytes is too short`);
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  const balance = v.getBigUint64(0, true) | (v.getBigUint64(8, true) << 64n);
  const nonce = v.getBigUint64(16, true);
  const len = v.getUint32(56, true);
  if (len > 64 * 1024 || b.length !== 60 + len) throw new RangeError("account metadata length mismatch");
  // views, not copies: callers never mutate a decoded record's bytes
  return { balance, nonce, codeHash: b.subarray(24, 56), metadata: b.subarray(60) };
}

/** The addon's account codec (crates/qmdb `keys::Account`), re-exported for callers that want it. */
export { type AccountRecord, decodeAccount, encodeAccount } from "../state/qmdb.ts";
