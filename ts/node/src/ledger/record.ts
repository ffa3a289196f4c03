/**
 * What the ledger stores per block: the canonical block bytes, each transaction's receipt
 * bytes, and the index entries the block contributes (so indexes can be rebuilt from the
 * stored blocks alone). Encoded with the same primitives as the chain codec: varint
 * lengths, raw fixed-width fields.
 */

export interface LedgerEvent {
  /** 20-byte emitting actor */
  emitter: Uint8Array;
  topic: Uint8Array;
  txIndex: number;
  logIndex: number;
}

export interface BlockRecord {
  height: bigint;
  /** 32-byte block hash */
  hash: Uint8Array;
  /** 32-byte parent hash (zero for genesis) */
  parentHash: Uint8Array;
  /** canonical block encoding */
  block: Uint8Array;
  /** 32-byte transaction digests, in block order */
  txHashes: Uint8Array[];
  /** canonical receipt encodings, one per transaction */
  receipts: Uint8Array[];
  events: LedgerEvent[];
}

export class LedgerError extends Error {
  readonly code:
    | "ERR_LEDGER_NOT_NEXT"
    | "ERR_LEDGER_PARENT_MISMATCH"
    | "ERR_LEDGER_CORRUPT"
    | "ERR_LEDGER_BAD_RECORD"
    | "ERR_LEDGER_UNKNOWN_HEIGHT";

  constructor(code: LedgerError["code"], message: string) {
    super(message);
    this.name = "LedgerError";
    this.code = code;
  }
}

class Writer {
  private chunks: Uint8Array[] = [];
  varint(n: number | bigint): void {
    let v = BigInt(n);
    const bytes: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      bytes.push(b);
    } while (v > 0n);
    this.chunks.push(Uint8Array.from(bytes));
  }
  raw(b: Uint8Array): void {
    this.chunks.push(b);
  }
  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.raw(b);
  }
  finish(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

class Reader {
  private pos = 0;
  private readonly buf: Uint8Array;
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length || shift > 63n)
        throw new LedgerError("ERR_LEDGER_CORRUPT", "bad varint in stored block");
      const b = this.buf[this.pos++] as number;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  int(): number {
    const v = this.varint();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new LedgerError("ERR_LEDGER_CORRUPT", "length too large");
    return Number(v);
  }
  raw(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new LedgerError("ERR_LEDGER_CORRUPT", "stored block truncated");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  bytes(): Uint8Array {
    return this.raw(this.int());
  }
  done(): void {
    if (this.pos !== this.buf.length)
      throw new LedgerError("ERR_LEDGER_CORRUPT", "trailing bytes in stored block");
  }
}

function checkRecord(r: BlockRecord): void {
  const bad = (why: string) => new LedgerError("ERR_LEDGER_BAD_RECORD", why);
  if (r.hash.length !== 32 || r.parentHash.length !== 32) throw bad("hashes must be 32 bytes");
  if (r.txHashes.some((h) => h.length !== 32)) throw bad("transaction hashes must be 32 bytes");
  if (r.receipts.length !== r.txHashes.length) throw bad("one receipt per transaction");
  for (const e of r.events) {
    if (e.emitter.length !== 20) throw bad("event emitters must be 20 bytes");
    if (!Number.isInteger(e.txIndex) || e.txIndex < 0 || e.txIndex >= r.txHashes.length)
      throw bad("event txIndex out of range");
    if (!Number.isInteger(e.logIndex) || e.logIndex < 0 || e.logIndex > 0xffffffff)
      throw bad("event logIndex out of range");
  }
}

export function encodeRecord(r: BlockRecord): Uint8Array {
  checkRecord(r);
  const w = new Writer();
  w.varint(r.height);
  w.raw(r.hash);
  w.raw(r.parentHash);
  w.bytes(r.block);
  w.varint(r.txHashes.length);
  for (let i = 0; i < r.txHashes.length; i++) {
    w.raw(r.txHashes[i] as Uint8Array);
    w.bytes(r.receipts[i] as Uint8Array);
  }
  w.varint(r.events.length);
  for (const e of r.events) {
    w.raw(e.emitter);
    w.bytes(e.topic);
    w.varint(e.txIndex);
    w.varint(e.logIndex);
  }
  return w.finish();
}

export function decodeRecord(buf: Uint8Array): BlockRecord {
  const r = new Reader(buf);
  const height = r.varint();
  const hash = r.raw(32);
  const parentHash = r.raw(32);
  const block = r.bytes();
  const n = r.int();
  const txHashes: Uint8Array[] = [];
  const receipts: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    txHashes.push(r.raw(32));
    receipts.push(r.bytes());
  }
  const m = r.int();
  const events: LedgerEvent[] = [];
  for (let i = 0; i < m; i++) {
    events.push({ emitter: r.raw(20), topic: r.bytes(), txIndex: r.int(), logIndex: r.int() });
  }
  r.done();
  return { height, hash, parentHash, block, txHashes, receipts, events };
}
