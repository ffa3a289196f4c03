/**
 * The chain-native timer queue of spec 01 §5.1a, kept in the state store.
 *
 * - Timers are indexed by fire height; a height's bucket is FIFO by insertion order.
 * - A cursor `(height, slot)` marks the next timer to consider. Each block asks for the timers
 *   due at or before its height in (height, slot) order; the executor fires as many as the
 *   timer lane allows and the rest stay queued, in order, for the next block ("timers that do
 *   not fit roll to the next block").
 * - Scheduling appends to a bucket, cancelling deletes the record (the bucket slot becomes a
 *   tombstone that the cursor skips): both are O(1). The cursor visits each height once, so
 *   the work per block is proportional to the timers it considers, whatever the number
 *   pending (one million pending timers cost nothing until they are due).
 * - A timer created in block h can never fire in block h: its fire height must be > h.
 * - At most {@link MAX_TIMERS_PER_ACTOR} active timers per scheduling actor.
 *
 * Pricing (the per-fire pre-charge from `feePayer`, refunds, TTL expiry and insufficient-funds
 * self-destruct) is the executor's: it decides per due timer to fire, reschedule or drop it.
 *
 * State layout (qmdb-legal keys, crates/qmdb/src/keys.rs; see ts/node/src/stf/state-keys.ts):
 *   0x04 ‖ height(u64 BE) ‖ seq(u64 BE)              → timer record (the bucket entry itself;
 *                                                       the timer namespace of qmdb)
 *   0x03 ‖ 0x00 ‖ 0…0(20) ‖ 0x01 ‖ id(32)             → height ‖ seq of the timer's record
 *   0x03 ‖ 0x00 ‖ 0…0(20) ‖ 0x02 ‖ height(u64 BE)     → seqs used at that height (u64 BE)
 *   0x03 ‖ 0x00 ‖ 0…0(20) ‖ 0x03                      → cursor: height(u64 BE) ‖ seq(u64 BE)
 *   0x03 ‖ 0x00 ‖ owner(20) ‖ 0x04                    → active timers of the owner (u32 BE)
 * Index, lengths, cursor and counts are protocol tables under the reserved vm_ns 0x00 (no VM
 * can address them). A cancelled timer leaves a hole in its bucket that the cursor skips.
 */
import { Reader, Writer } from "@cowboy/sdk";
import type { KvStore } from "../state/kv.ts";
import { PROTOCOL_ADDRESS, readU64be, systemKey, TABLE, timerKey, u64be } from "../stf/state-keys.ts";

/** §5.1a: default cap of active timers per actor (governance-tunable). */
export const MAX_TIMERS_PER_ACTOR = 1024;
/** §5.1a: per-fire caps. */
export const MAX_CYCLES_PER_FIRE = 550_000n;
export const MAX_CELLS_PER_FIRE = 550_000n;

export interface Timer {
  /** 32-byte identifier (derived by the caller, e.g. keccak of scheduler ‖ nonce) */
  id: Uint8Array;
  /** the actor (or account) that scheduled it; counts against its limit */
  owner: Uint8Array;
  /** the actor whose handler fires */
  target: Uint8Array;
  handler: string;
  data: Uint8Array;
  /** block height it is due at */
  fireAt: bigint;
  /** blocks between fires for `set_interval`, or null for a one-shot timer */
  interval: bigint | null;
  /** who pays each fire */
  feePayer: Uint8Array;
  cyclesPerFire: bigint;
  cellsPerFire: bigint;
  /** last height at which it may still fire (TTL), or null */
  expiresAt: bigint | null;
  createdAt: bigint;
}

/** A queued timer with its bucket position. */
export interface QueuedTimer extends Timer {
  slot: number;
}

export type TimerErrorCode =
  | "ERR_TIMER_NOT_FUTURE"
  | "ERR_TIMER_LIMIT"
  | "ERR_TIMER_EXISTS"
  | "ERR_TIMER_BAD_FIELD"
  | "ERR_TIMER_NOT_FOUND"
  | "ERR_TIMER_NOT_OWNER";

export class TimerError extends Error {
  readonly code: TimerErrorCode;
  constructor(code: TimerErrorCode, message: string) {
    super(message);
    this.name = "TimerError";
    this.code = code;
  }
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

function readU32(b: Uint8Array | undefined): number {
  return b === undefined ? 0 : new DataView(b.buffer, b.byteOffset, 4).getUint32(0);
}

const indexKey = (id: Uint8Array) => systemKey(PROTOCOL_ADDRESS, TABLE.timerIndex, id);
const lengthKey = (height: bigint) => systemKey(PROTOCOL_ADDRESS, TABLE.timerLength, u64be(height));
const CURSOR_KEY = systemKey(PROTOCOL_ADDRESS, TABLE.timerCursor);
const countKey = (owner: Uint8Array) => systemKey(owner, TABLE.timerCount);

function encodeTimer(t: QueuedTimer): Uint8Array {
  const w = new Writer(128 + t.data.length);
  w.fixed(t.id, 32, "id");
  w.fixed(t.owner, 20, "owner");
  w.fixed(t.target, 20, "target");
  w.string(t.handler, "handler");
  w.bytes(t.data, "data");
  w.varint(t.fireAt, "fireAt");
  w.option(t.interval !== null);
  if (t.interval !== null) w.varint(t.interval, "interval");
  w.fixed(t.feePayer, 20, "feePayer");
  w.varint(t.cyclesPerFire, "cyclesPerFire");
  w.varint(t.cellsPerFire, "cellsPerFire");
  w.option(t.expiresAt !== null);
  if (t.expiresAt !== null) w.varint(t.expiresAt, "expiresAt");
  w.varint(t.createdAt, "createdAt");
  w.varint(BigInt(t.slot), "slot");
  return w.finish();
}

function decodeTimer(b: Uint8Array): QueuedTimer {
  const r = new Reader(b);
  const id = r.fixed(32, "id");
  const owner = r.fixed(20, "owner");
  const target = r.fixed(20, "target");
  const handler = r.string("handler");
  const data = r.bytes("data");
  const fireAt = r.varint("fireAt");
  const interval = r.option("interval") ? r.varint("interval") : null;
  const feePayer = r.fixed(20, "feePayer");
  const cyclesPerFire = r.varint("cyclesPerFire");
  const cellsPerFire = r.varint("cellsPerFire");
  const expiresAt = r.option("expiresAt") ? r.varint("expiresAt") : null;
  const createdAt = r.varint("createdAt");
  const slot = Number(r.varint("slot"));
  r.finish("timer");
  return {
    id,
    owner,
    target,
    handler,
    data,
    fireAt,
    interval,
    feePayer,
    cyclesPerFire,
    cellsPerFire,
    expiresAt,
    createdAt,
    slot,
  };
}

export class TimerQueue {
  private readonly kv: KvStore;

  constructor(kv: KvStore) {
    this.kv = kv;
  }

  /** Where the record of timer `id` lives, or undefined if it is not pending. */
  private locate(id: Uint8Array): { height: bigint; seq: bigint } | undefined {
    const raw = this.kv.get(indexKey(id));
    return raw === undefined ? undefined : { height: readU64be(raw, 0), seq: readU64be(raw, 8) };
  }

  get(id: Uint8Array): QueuedTimer | undefined {
    const at = this.locate(id);
    if (at === undefined) return undefined;
    const raw = this.kv.get(timerKey(at.height, at.seq));
    return raw === undefined ? undefined : decodeTimer(raw);
  }

  activeCount(actor: Uint8Array): number {
    return readU32(this.kv.get(countKey(actor)));
  }

  /** The next (height, slot) the queue will consider. */
  cursor(): { height: bigint; slot: number } {
    const raw = this.kv.get(CURSOR_KEY);
    if (raw === undefined) return { height: 0n, slot: 0 };
    return { height: readU64be(raw, 0), slot: Number(readU64be(raw, 8)) };
  }

  private setCursor(height: bigint, slot: number): void {
    const b = new Uint8Array(16);
    b.set(u64be(height), 0);
    b.set(u64be(BigInt(slot)), 8);
    this.kv.put(CURSOR_KEY, b);
  }

  /** Schedules `timer` while executing block `currentHeight`. */
  schedule(timer: Timer, currentHeight: bigint): QueuedTimer {
    if (timer.fireAt <= currentHeight) {
      throw new TimerError(
        "ERR_TIMER_NOT_FUTURE",
        `a timer scheduled in block ${currentHeight} must fire later, not at ${timer.fireAt}`,
      );
    }
    if (timer.interval !== null && timer.interval < 1n) {
      throw new TimerError("ERR_TIMER_BAD_FIELD", "an interval must be at least one block");
    }
    if (timer.cyclesPerFire > MAX_CYCLES_PER_FIRE || timer.cellsPerFire > MAX_CELLS_PER_FIRE) {
      throw new TimerError(
        "ERR_TIMER_BAD_FIELD",
        `per-fire limits are capped at ${MAX_CYCLES_PER_FIRE} cycles and ${MAX_CELLS_PER_FIRE} cells`,
      );
    }
    if (this.kv.get(indexKey(timer.id)) !== undefined) {
      throw new TimerError("ERR_TIMER_EXISTS", "a timer with this id is already pending");
    }
    const count = this.activeCount(timer.owner);
    if (count >= MAX_TIMERS_PER_ACTOR) {
      throw new TimerError(
        "ERR_TIMER_LIMIT",
        `an actor may have at most ${MAX_TIMERS_PER_ACTOR} active timers`,
      );
    }
    if (this.kv.get(CURSOR_KEY) === undefined) this.setCursor(currentHeight + 1n, 0);
    const queued = this.enqueue(timer);
    this.kv.put(countKey(timer.owner), u32(count + 1));
    return queued;
  }

  private enqueue(timer: Timer): QueuedTimer {
    const lk = lengthKey(timer.fireAt);
    const raw = this.kv.get(lk);
    const seq = raw === undefined ? 0n : readU64be(raw);
    this.kv.put(lk, u64be(seq + 1n));
    const queued: QueuedTimer = { ...timer, slot: Number(seq) };
    this.kv.put(timerKey(timer.fireAt, seq), encodeTimer(queued));
    const at = new Uint8Array(16);
    at.set(u64be(timer.fireAt), 0);
    at.set(u64be(seq), 8);
    this.kv.put(indexKey(timer.id), at);
    return queued;
  }

  /** Cancels a pending timer; only its owner may (validators use {@link remove} via SYS_CANCEL_TIMER). */
  cancel(id: Uint8Array, by: Uint8Array): Timer {
    const timer = this.get(id);
    if (timer === undefined) throw new TimerError("ERR_TIMER_NOT_FOUND", "no pending timer with this id");
    if (Buffer.compare(timer.owner, by) !== 0) {
      throw new TimerError("ERR_TIMER_NOT_OWNER", "only the actor that scheduled a timer can cancel it");
    }
    this.remove(id);
    return timer;
  }

  /** Removes a timer (fired one-shot, expired, unpaid, or cancelled); its bucket slot becomes a hole. */
  remove(id: Uint8Array): void {
    const timer = this.get(id);
    if (timer === undefined) return;
    this.kv.delete(indexKey(id));
    this.kv.delete(timerKey(timer.fireAt, BigInt(timer.slot)));
    const count = this.activeCount(timer.owner);
    if (count <= 1) this.kv.delete(countKey(timer.owner));
    else this.kv.put(countKey(timer.owner), u32(count - 1));
  }

  /** Moves an interval timer to its next fire height (appended to that bucket). */
  reschedule(
    id: Uint8Array,
    fireAt: bigint,
    currentHeight: bigint,
    changes: Partial<Timer> = {},
  ): QueuedTimer {
    const timer = this.get(id);
    if (timer === undefined) throw new TimerError("ERR_TIMER_NOT_FOUND", "no pending timer with this id");
    if (fireAt <= currentHeight) {
      throw new TimerError(
        "ERR_TIMER_NOT_FUTURE",
        `cannot reschedule to ${fireAt} in block ${currentHeight}`,
      );
    }
    this.kv.delete(timerKey(timer.fireAt, BigInt(timer.slot)));
    return this.enqueue({ ...timer, ...changes, id: timer.id, owner: timer.owner, fireAt });
  }

  /**
   * The timers due at or before `height`, in (fire height, slot) order, starting at the
   * cursor. The caller consumes them one by one and calls `advance()` after each timer it has
   * dealt with (fired, dropped or rescheduled); stopping early leaves the rest for the next
   * block. Heights with nothing left are passed over for good.
   */
  *due(height: bigint): Generator<{ timer: QueuedTimer; advance: () => void }> {
    if (this.kv.get(CURSOR_KEY) === undefined) return; // nothing was ever scheduled
    let { height: h, slot } = this.cursor();
    try {
      while (h <= height) {
        const lraw = this.kv.get(lengthKey(h));
        const used = lraw === undefined ? 0 : Number(readU64be(lraw));
        while (slot < used) {
          const raw = this.kv.get(timerKey(h, BigInt(slot)));
          if (raw !== undefined) {
            const timer = decodeTimer(raw);
            let advanced = false;
            yield { timer, advance: () => (advanced = true) };
            if (!advanced) return; // the caller stopped here: this timer stays next
          }
          slot += 1;
        }
        if (h === height) return;
        // a past bucket never receives timers again (fire heights are always in the future)
        this.kv.delete(lengthKey(h));
        h += 1n;
        slot = 0;
      }
    } finally {
      this.setCursor(h, slot);
    }
  }
}
