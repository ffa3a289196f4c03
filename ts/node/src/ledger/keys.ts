/**
 * Key layout of the ledger store (one LevelDB key space, a 1-byte table tag first):
 *
 * | tag | key                                   | value                               |
 * | --- | ------------------------------------- | ----------------------------------- |
 * | `H` | height (u64 BE)                       | block hash (32 B)                   |
 * | `B` | block hash                            | stored block (see `record.ts`)      |
 * | `T` | tx hash                               | height (u64 BE) ‖ index (u32 BE)    |
 * | `E` | emitter (20 B) ‖ height ‖ tx ‖ log    | topic                               |
 * | `M` | "head" / "finalized" / "version"      | metadata                            |
 *
 * Big-endian integers make LevelDB's byte order the numeric order, so range scans by
 * height work. `H`, `B` and `M` are primary data; `T` and `E` are indexes that
 * `Ledger.reindex()` rebuilds from the blocks.
 */

export const TAG = {
  heightToHash: 0x48, // 'H'
  block: 0x42, // 'B'
  tx: 0x54, // 'T'
  event: 0x45, // 'E'
  meta: 0x4d, // 'M'
} as const;

export function u64be(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

export function u32be(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

export function readU64be(b: Uint8Array, offset = 0): bigint {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(offset);
}

export function readU32be(b: Uint8Array, offset = 0): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(offset);
}

export function key(tag: number, ...parts: Uint8Array[]): Buffer {
  return Buffer.concat([Buffer.of(tag), ...parts]);
}

export function metaKey(name: string): Buffer {
  return key(TAG.meta, new TextEncoder().encode(name));
}
