import { Reader, Writer } from "@cowboy/sdk";

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
  const w = new Writer(256 + r.block.length);
  w.varint(r.height, "height");
  w.fixed(r.hash, 32, "hash");
  w.fixed(r.parentHash, 32, "parentHash");
  w.bytes(r.block, "block");
  w.len(r.txHashes.length, "txHashes");
  for (let i = 0; i < r.txHashes.length; i++) {
    w.fixed(r.txHashes[i] as Uint8Array, 32, "txHash");
    w.bytes(r.receipts[i] as Uint8Array, "receipt");
  }
  w.len(r.events.length, "events");
  for (const e of r.events) {
    w.fixed(e.emitter, 20, "emitter");
    w.bytes(e.topic, "topic");
    w.varint(BigInt(e.txIndex), "txIndex");
    w.varint(BigInt(e.logIndex), "logIndex");
  }
  return w.finish();
}

/** Decodes a stored block; corruption surfaces as `ERR_LEDGER_CORRUPT`. */
export function decodeRecord(buf: Uint8Array): BlockRecord {
  try {
    const r = new Reader(buf);
    const height = r.varint("height");
    const hash = r.fixed(32, "hash");
    const parentHash = r.fixed(32, "parentHash");
    const block = r.bytes("block");
    const n = r.len("txHashes", 33);
    const txHashes: Uint8Array[] = [];
    const receipts: Uint8Array[] = [];
    for (let i = 0; i < n; i++) {
      txHashes.push(r.fixed(32, "txHash"));
      receipts.push(r.bytes("receipt"));
    }
    const m = r.len("events", 23);
    const events: LedgerEvent[] = [];
    for (let i = 0; i < m; i++) {
      events.push({
        emitter: r.fixed(20, "emitter"),
        topic: r.bytes("topic"),
        txIndex: Number(r.varint("txIndex")),
        logIndex: Number(r.varint("logIndex")),
      });
    }
    r.finish("stored block");
    return { height, hash, parentHash, block, txHashes, receipts, events };
  } catch (err) {
    throw new LedgerError("ERR_LEDGER_CORRUPT", `stored block does not decode: ${(err as Error).message}`);
  }
}
