/**
 * Transaction gossip in batches (`/cowboy/<chain>/tx/1`).
 *
 * Every gossip message is signed by its publisher and verified by every receiver (libp2p
 * gossipsub, ed25519), and its validation runs the transaction checks one by one: one
 * message per transaction made that per-message cost the validators' main expense under load.
 * A node therefore gossips the transactions it admits from its clients in batches
 * ({@link TxGossipBatcher}), and a receiver verifies a batch's signatures at once before
 * admitting its transactions.
 *
 * Frame ({@link encodeTxBatch}): `0x00 0x01` (marker, version), `count: u32 BE` (≥ 1), then per
 * transaction `length: u32 BE` (≥ 1) and its canonical encoding. A transaction's encoding
 * starts with its chain id (a varint); no chain has id 0, so a message starting with `0x00` is
 * a batch, and any other message is one transaction (the unbatched form, still accepted).
 */

/** Most transactions in one batch message. */
export const MAX_GOSSIP_BATCH_TXS = 512;
/** Most bytes of one batch message (below the p2p layer's gossip frame limit). */
export const MAX_GOSSIP_BATCH_BYTES = 512 * 1024;

const MARKER = 0x00;
const VERSION = 0x01;
const HEADER = 6;

/** A malformed transaction batch frame. */
export class TxBatchError extends Error {
  readonly code = "ERR_TX_BATCH" as const;
  constructor(message: string) {
    super(message);
    this.name = "TxBatchError";
  }
}

/** Encodes `txs` (1..={@link MAX_GOSSIP_BATCH_TXS} non-empty encodings) as one batch frame. */
export function encodeTxBatch(txs: readonly Uint8Array[]): Uint8Array {
  if (txs.length === 0 || txs.length > MAX_GOSSIP_BATCH_TXS)
    throw new TxBatchError(`a batch holds 1..=${MAX_GOSSIP_BATCH_TXS} transactions, not ${txs.length}`);
  let size = HEADER;
  for (const t of txs) {
    if (t.length === 0) throw new TxBatchError("an empty transaction in a batch");
    size += 4 + t.length;
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = MARKER;
  out[1] = VERSION;
  view.setUint32(2, txs.length);
  let at = HEADER;
  for (const t of txs) {
    view.setUint32(at, t.length);
    out.set(t, at + 4);
    at += 4 + t.length;
  }
  return out;
}

/**
 * The transactions of a gossip message: a batch frame's, or the message itself if it holds one
 * transaction. Each returned array is a copy with its own buffer: a pooled transaction must not
 * keep the whole (up to a megabyte) gossip message alive. Throws {@link TxBatchError} for a
 * malformed frame (unknown version, count or length out of range, trailing bytes) and for a
 * batch over {@link MAX_GOSSIP_BATCH_BYTES} bytes or {@link MAX_GOSSIP_BATCH_TXS} transactions.
 */
export function decodeTxGossip(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length === 0) throw new TxBatchError("an empty gossip message");
  if (bytes[0] !== MARKER) return [bytes.slice()];
  if (bytes.length > MAX_GOSSIP_BATCH_BYTES)
    throw new TxBatchError(`a batch of ${bytes.length} bytes (limit ${MAX_GOSSIP_BATCH_BYTES})`);
  if (bytes.length < HEADER) throw new TxBatchError("a truncated batch header");
  if (bytes[1] !== VERSION) throw new TxBatchError(`unknown batch version ${bytes[1]}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const count = view.getUint32(2);
  if (count === 0 || count > MAX_GOSSIP_BATCH_TXS)
    throw new TxBatchError(`a batch of ${count} transactions (limit ${MAX_GOSSIP_BATCH_TXS})`);
  const out: Uint8Array[] = [];
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) throw new TxBatchError(`batch truncated at transaction ${i}`);
    const len = view.getUint32(at);
    if (len === 0 || at + 4 + len > bytes.length)
      throw new TxBatchError(`transaction ${i} of the batch has a bad length ${len}`);
    out.push(bytes.slice(at + 4, at + 4 + len));
    at += 4 + len;
  }
  if (at !== bytes.length) throw new TxBatchError(`${bytes.length - at} bytes after the batch`);
  return out;
}

/** Options of a {@link TxGossipBatcher}. */
export interface TxGossipBatcherOptions {
  /** publishes one batch frame */
  readonly publish: (frame: Uint8Array) => void;
  /** how long a transaction may wait for company before its batch goes out (ms; default 10) */
  readonly delayMs?: number;
  /** timer functions (tests) */
  readonly setTimer?: (f: () => void, ms: number) => unknown;
  readonly clearTimer?: (t: unknown) => void;
}

/**
 * Collects transactions to gossip and publishes them in batches: a batch goes out when it
 * reaches {@link MAX_GOSSIP_BATCH_TXS} transactions or {@link MAX_GOSSIP_BATCH_BYTES} bytes, or
 * `delayMs` after its first transaction arrived. Order is kept; nothing is dropped or sent twice.
 */
export class TxGossipBatcher {
  private readonly opts: TxGossipBatcherOptions;
  private pending: Uint8Array[] = [];
  private bytes = HEADER;
  private timer: unknown = null;
  private closed = false;

  constructor(opts: TxGossipBatcherOptions) {
    this.opts = opts;
  }

  /** Transactions waiting for their batch. */
  get size(): number {
    return this.pending.length;
  }

  /** Queues one encoded transaction (nothing once {@link close}d). */
  add(tx: Uint8Array): void {
    if (this.closed) return;
    if (this.pending.length > 0 && this.bytes + 4 + tx.length > MAX_GOSSIP_BATCH_BYTES) this.flush();
    this.pending.push(tx);
    this.bytes += 4 + tx.length;
    if (this.pending.length >= MAX_GOSSIP_BATCH_TXS || this.bytes >= MAX_GOSSIP_BATCH_BYTES) this.flush();
    else if (this.timer === null)
      this.timer = (this.opts.setTimer ?? setTimeout)(() => {
        this.timer = null;
        this.flush();
      }, this.opts.delayMs ?? 10);
  }

  /** Publishes what is waiting now (nothing if empty). */
  flush(): void {
    if (this.timer !== null) {
      (this.opts.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>)))(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.bytes = HEADER;
    this.opts.publish(encodeTxBatch(batch));
  }

  /** Drops what is waiting and the timer (the node stops); later {@link add}s do nothing. */
  close(): void {
    this.closed = true;
    if (this.timer !== null)
      (this.opts.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = null;
    this.pending = [];
    this.bytes = HEADER;
  }
}
