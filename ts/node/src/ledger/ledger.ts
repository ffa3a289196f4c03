/**
 * The ledger: blocks, receipts, and the transaction and event indexes, in an embedded
 * LevelDB (`classic-level`, installed from npm with prebuilt binaries).
 *
 * Crash safety: each block is appended with one atomic, synced batch (block, height entry,
 * indexes and the new head together), so after a kill -9 the ledger is exactly at some
 * block boundary. The node appends block N to the ledger *before* committing state N; on
 * restart, a state store behind the ledger re-executes the missing blocks from here.
 */
import { ClassicLevel } from "classic-level";
import { key, metaKey, readU32be, readU64be, TAG, u32be, u64be } from "./keys.ts";
import { type BlockRecord, decodeRecord, encodeRecord, LedgerError, type LedgerEvent } from "./record.ts";

type Db = ClassicLevel<Buffer, Buffer>;

const FORMAT_VERSION = 1;
const ZERO_HASH = new Uint8Array(32);

export interface LedgerHead {
  height: bigint;
  hash: Uint8Array;
}

export interface EventFilter {
  fromHeight: bigint;
  toHeight: bigint;
  /** emitters to match (required: the index is by emitter) */
  emitters: Uint8Array[];
  /** topics to match; empty = any */
  topics?: Uint8Array[];
  /** most results returned */
  limit: number;
}

export interface FoundEvent extends LedgerEvent {
  height: bigint;
}

function eq(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

export class Ledger {
  private readonly db: Db;
  private headCache: LedgerHead | null = null;
  private finalizedCache: bigint | null = null;

  private constructor(db: Db) {
    this.db = db;
  }

  /** Opens (creating if needed) the ledger in directory `dir`. */
  static async open(dir: string): Promise<Ledger> {
    const db: Db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: "buffer", valueEncoding: "buffer" });
    await db.open();
    const ledger = new Ledger(db);
    const version = await db.get(metaKey("version"));
    if (version === undefined) {
      await db.put(metaKey("version"), Buffer.from(u32be(FORMAT_VERSION)), { sync: true });
    } else if (readU32be(version) !== FORMAT_VERSION) {
      await db.close();
      throw new LedgerError(
        "ERR_LEDGER_CORRUPT",
        `ledger format ${readU32be(version)} is not ${FORMAT_VERSION}`,
      );
    }
    const head = await db.get(metaKey("head"));
    if (head !== undefined) {
      if (head.length !== 40) throw new LedgerError("ERR_LEDGER_CORRUPT", "bad head entry");
      ledger.headCache = { height: readU64be(head), hash: head.subarray(8) };
    }
    const fin = await db.get(metaKey("finalized"));
    if (fin !== undefined) ledger.finalizedCache = readU64be(fin);
    return ledger;
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /** The newest block, or null for an empty ledger. */
  head(): LedgerHead | null {
    return this.headCache;
  }

  finalizedHeight(): bigint | null {
    return this.finalizedCache;
  }

  /** Appends the next block atomically. Height must be head+1 (0 for the first) and the parent must match. */
  async append(record: BlockRecord): Promise<void> {
    const head = this.headCache;
    const want = head === null ? 0n : head.height + 1n;
    if (record.height !== want) {
      throw new LedgerError("ERR_LEDGER_NOT_NEXT", `block ${record.height} is not the next height ${want}`);
    }
    const parent = head === null ? ZERO_HASH : head.hash;
    if (!eq(record.parentHash, parent)) {
      throw new LedgerError(
        "ERR_LEDGER_PARENT_MISMATCH",
        `block ${record.height} does not extend ${hex(parent)}`,
      );
    }
    const stored = encodeRecord(record);
    const batch = this.db.batch();
    batch.put(key(TAG.block, record.hash), Buffer.from(stored));
    batch.put(key(TAG.heightToHash, u64be(record.height)), Buffer.from(record.hash));
    this.indexOps(record, (k, v) => batch.put(k, v));
    batch.put(metaKey("head"), Buffer.concat([u64be(record.height), record.hash]));
    await batch.write({ sync: true });
    this.headCache = { height: record.height, hash: Uint8Array.from(record.hash) };
  }

  private indexOps(record: BlockRecord, put: (k: Buffer, v: Buffer) => void): void {
    record.txHashes.forEach((tx, i) => {
      put(key(TAG.tx, tx), Buffer.concat([u64be(record.height), u32be(i)]));
    });
    for (const e of record.events) {
      put(
        key(TAG.event, e.emitter, u64be(record.height), u32be(e.txIndex), u32be(e.logIndex)),
        Buffer.from(e.topic),
      );
    }
  }

  /** Marks `height` (≤ head) final. */
  async setFinalized(height: bigint): Promise<void> {
    if (this.headCache === null || height > this.headCache.height) {
      throw new LedgerError("ERR_LEDGER_UNKNOWN_HEIGHT", `cannot finalize ${height} beyond the head`);
    }
    await this.db.put(metaKey("finalized"), Buffer.from(u64be(height)), { sync: true });
    this.finalizedCache = height;
  }

  async hashAt(height: bigint): Promise<Uint8Array | null> {
    if (height < 0n) return null;
    return (await this.db.get(key(TAG.heightToHash, u64be(height)))) ?? null;
  }

  async blockByHash(hash: Uint8Array): Promise<BlockRecord | null> {
    const stored = await this.db.get(key(TAG.block, hash));
    return stored === undefined ? null : decodeRecord(stored);
  }

  async blockByHeight(height: bigint): Promise<BlockRecord | null> {
    const hash = await this.hashAt(height);
    return hash === null ? null : this.blockByHash(hash);
  }

  /** Where a transaction was included, or null. */
  async txLocation(txHash: Uint8Array): Promise<{ height: bigint; index: number } | null> {
    const v = await this.db.get(key(TAG.tx, txHash));
    return v === undefined ? null : { height: readU64be(v), index: readU32be(v, 8) };
  }

  /** A transaction's receipt bytes with its location, or null. */
  async receipt(txHash: Uint8Array): Promise<{ height: bigint; index: number; receipt: Uint8Array } | null> {
    const loc = await this.txLocation(txHash);
    if (loc === null) return null;
    const block = await this.blockByHeight(loc.height);
    const receipt = block?.receipts[loc.index];
    if (receipt === undefined)
      throw new LedgerError("ERR_LEDGER_CORRUPT", `index points past block ${loc.height}`);
    return { ...loc, receipt };
  }

  /** Events of the given emitters in [fromHeight, toHeight], by height, tx and log order per emitter. */
  async events(filter: EventFilter): Promise<FoundEvent[]> {
    const out: FoundEvent[] = [];
    const topics = filter.topics ?? [];
    for (const emitter of filter.emitters) {
      const gte = key(TAG.event, emitter, u64be(filter.fromHeight));
      const lt = key(TAG.event, emitter, u64be(filter.toHeight + 1n));
      for await (const [k, topic] of this.db.iterator({ gte, lt })) {
        if (topics.length > 0 && !topics.some((t) => eq(t, topic))) continue;
        out.push({
          emitter: k.subarray(1, 21),
          height: readU64be(k, 21),
          txIndex: readU32be(k, 29),
          logIndex: readU32be(k, 33),
          topic,
        });
        if (out.length >= filter.limit) return sortEvents(out);
      }
    }
    return sortEvents(out);
  }

  /** Drops and rebuilds the transaction and event indexes from the stored blocks. */
  async reindex(): Promise<{ blocks: number }> {
    for (const tag of [TAG.tx, TAG.event]) {
      await this.db.clear({ gte: Buffer.of(tag), lt: Buffer.of(tag + 1) });
    }
    let blocks = 0;
    const head = this.headCache;
    if (head === null) return { blocks };
    for (let h = 0n; h <= head.height; h++) {
      const record = await this.blockByHeight(h);
      if (record === null) throw new LedgerError("ERR_LEDGER_CORRUPT", `block ${h} is missing`);
      const batch = this.db.batch();
      this.indexOps(record, (k, v) => batch.put(k, v));
      await batch.write({ sync: h === head.height });
      blocks++;
    }
    return { blocks };
  }
}

function sortEvents(events: FoundEvent[]): FoundEvent[] {
  return events.sort((a, b) =>
    a.height !== b.height ? (a.height < b.height ? -1 : 1) : a.txIndex - b.txIndex || a.logIndex - b.logIndex,
  );
}
