import { describe, expect, it } from "vitest";
import {
  type KvStore,
  MAX_TIMERS_PER_ACTOR,
  MemoryKv,
  type Timer,
  TimerError,
  TimerQueue,
} from "../src/index.ts";

function id(n: number): Uint8Array {
  const b = new Uint8Array(32);
  new DataView(b.buffer).setUint32(28, n);
  return b;
}

function addr(n: number): Uint8Array {
  const b = new Uint8Array(20);
  new DataView(b.buffer).setUint32(16, n);
  return b;
}

let next = 1;
function timer(fireAt: bigint, opts: Partial<Timer> = {}): Timer {
  return {
    id: id(next++),
    owner: addr(1),
    target: addr(2),
    handler: "tick",
    data: new Uint8Array([1, 2]),
    fireAt,
    interval: null,
    feePayer: addr(1),
    cyclesPerFire: 100_000n,
    cellsPerFire: 1_000n,
    expiresAt: null,
    createdAt: 0n,
    ...opts,
  };
}

/** Fires everything due at `height` (up to `budget` timers); returns the handlers' ids in order. */
function fire(q: TimerQueue, height: bigint, budget = Number.POSITIVE_INFINITY): number[] {
  const fired: number[] = [];
  for (const { timer: t, advance } of q.due(height)) {
    if (fired.length >= budget) break;
    fired.push(new DataView(t.id.buffer, t.id.byteOffset).getUint32(28));
    if (t.interval === null) q.remove(t.id);
    else q.reschedule(t.id, t.fireAt + t.interval, height);
    advance();
  }
  return fired;
}

const code = (f: () => unknown) => {
  try {
    f();
    return "no error";
  } catch (e) {
    return (e as TimerError).code;
  }
};

describe("TimerQueue (§5.1a)", () => {
  it("fires FIFO within a height and in height order, never in the creating block", () => {
    const q = new TimerQueue(new MemoryKv());
    next = 1;
    q.schedule(timer(12n), 10n); // 1
    q.schedule(timer(11n), 10n); // 2
    q.schedule(timer(12n), 10n); // 3
    q.schedule(timer(11n), 10n); // 4
    expect(code(() => q.schedule(timer(10n), 10n))).toBe("ERR_TIMER_NOT_FUTURE");
    expect(fire(q, 10n)).toEqual([]);
    expect(fire(q, 11n)).toEqual([2, 4]);
    expect(fire(q, 12n)).toEqual([1, 3]);
    expect(fire(q, 13n)).toEqual([]);
    expect(q.activeCount(addr(1))).toBe(0);
  });

  it("rolls what does not fit over to the next block, in order", () => {
    const q = new TimerQueue(new MemoryKv());
    next = 1;
    for (let i = 0; i < 5; i++) q.schedule(timer(5n), 1n);
    q.schedule(timer(6n), 1n); // 6
    expect(fire(q, 5n, 2)).toEqual([1, 2]);
    expect(fire(q, 6n, 2)).toEqual([3, 4]);
    expect(fire(q, 7n)).toEqual([5, 6]);
  });

  it("skips cancelled timers, lets only the owner cancel, and re-arms intervals", () => {
    const q = new TimerQueue(new MemoryKv());
    next = 1;
    const a = q.schedule(timer(3n), 1n); // 1
    q.schedule(timer(3n, { interval: 2n }), 1n); // 2
    expect(code(() => q.cancel(a.id, addr(9)))).toBe("ERR_TIMER_NOT_OWNER");
    q.cancel(a.id, addr(1));
    expect(code(() => q.cancel(a.id, addr(1)))).toBe("ERR_TIMER_NOT_FOUND");
    expect(fire(q, 3n)).toEqual([2]);
    expect(fire(q, 4n)).toEqual([]);
    expect(fire(q, 5n)).toEqual([2]);
    expect(fire(q, 7n)).toEqual([2]);
    expect(q.activeCount(addr(1))).toBe(1);
  });

  it("enforces the per-actor limit and per-fire caps", () => {
    const q = new TimerQueue(new MemoryKv());
    for (let i = 0; i < MAX_TIMERS_PER_ACTOR; i++) q.schedule(timer(100n + BigInt(i % 7)), 1n);
    expect(code(() => q.schedule(timer(100n), 1n))).toBe("ERR_TIMER_LIMIT");
    expect(q.schedule(timer(100n, { owner: addr(5) }), 1n).slot).toBeGreaterThan(0);
    expect(code(() => q.schedule(timer(100n, { owner: addr(6), cyclesPerFire: 550_001n }), 1n))).toBe(
      "ERR_TIMER_BAD_FIELD",
    );
    expect(code(() => q.schedule(timer(100n, { owner: addr(6), interval: 0n }), 1n))).toBe(
      "ERR_TIMER_BAD_FIELD",
    );
  });

  it("does work proportional to the due timers, not to the timers pending", () => {
    let reads = 0;
    const inner = new MemoryKv();
    const counting: KvStore = {
      get: (k) => {
        reads++;
        return inner.get(k);
      },
      put: (k, v) => inner.put(k, v),
      delete: (k) => inner.delete(k),
    };
    const q = new TimerQueue(counting);
    next = 1;
    // 50,000 timers pending far in the future, spread over 1,000 actors
    for (let i = 0; i < 50_000; i++)
      q.schedule(timer(1_000_000n + BigInt(i % 5000), { owner: addr(i % 1000) }), 1n);
    for (let i = 0; i < 10; i++) q.schedule(timer(2n, { owner: addr(5000) }), 1n);
    reads = 0;
    expect(fire(q, 2n)).toHaveLength(10);
    expect(reads).toBeLessThan(80);
    reads = 0;
    expect(fire(q, 3n)).toHaveLength(0);
    expect(reads).toBeLessThan(10);
  });

  it("survives a reopen: everything lives in the store", () => {
    const kv = new MemoryKv();
    next = 1;
    const q1 = new TimerQueue(kv);
    q1.schedule(timer(4n), 1n);
    q1.schedule(timer(4n), 1n);
    expect(fire(q1, 4n, 1)).toEqual([1]);
    const q2 = new TimerQueue(kv);
    expect(fire(q2, 5n)).toEqual([2]);
    expect(q2.get(id(1))).toBeUndefined();
  });

  it("throws typed errors", () => {
    const q = new TimerQueue(new MemoryKv());
    const t = timer(9n);
    q.schedule(t, 1n);
    expect(() => q.schedule(t, 1n)).toThrow(TimerError);
    expect(code(() => q.schedule(t, 1n))).toBe("ERR_TIMER_EXISTS");
  });
});
