import { describe, expect, it } from "vitest";
import { StfError, type StfErrorCode } from "../stf/errors.ts";
import { MempoolError } from "./errors.ts";
import { encodeTxBatch } from "./gossip.ts";
import {
  admitTxGossip,
  type TxGossipAdmission,
  TxGossipLimiter,
  validateTxGossip,
} from "./gossip-validate.ts";

/** A transaction whose first byte says how the fake admission treats it. */
const GOOD = 1;
const POOLED = 2;
const STALE = 3;
const UNSUPPORTED = 4;
const BAD_SIG = 5;
const BAD_CHAIN = 6;
const BOOM = 7;
const tx = (kind: number, n = 0) => Uint8Array.from([kind, n & 0xff, n >> 8, 9, 9]);

function fakeNode(opts: { preverifyThrows?: boolean } = {}) {
  const pooled = new Set<string>();
  const errors: string[] = [];
  let preverified = 0;
  let stopped = false;
  const adm: TxGossipAdmission = {
    preverify: async (txs) => {
      if (opts.preverifyThrows) throw new Error("verifier down");
      preverified += txs.length;
    },
    admit: (t) => {
      const fail = (code: StfErrorCode) => {
        throw new StfError(code, code);
      };
      switch (t[0]) {
        case POOLED:
          return false;
        case STALE:
          throw new MempoolError("ERR_MEMPOOL_NONCE_TOO_LOW", "nonce used");
        case UNSUPPORTED:
          return fail("ERR_TX_UNSUPPORTED");
        case BAD_SIG:
          return fail("ERR_TX_SIGNATURE");
        case BAD_CHAIN:
          return fail("ERR_TX_CHAIN_ID");
        case BOOM:
          throw new TypeError("a bug");
      }
      const key = Array.from(t).join(",");
      if (pooled.has(key)) return false;
      pooled.add(key);
      return true;
    },
    stopped: () => stopped,
    pause: async () => {},
    logger: { warn: (_o, m) => errors.push(`warn:${m}`), error: (_o, m) => errors.push(`error:${m}`) },
  };
  return {
    adm,
    pooled,
    errors,
    stop: () => {
      stopped = true;
    },
    get preverified() {
      return preverified;
    },
  };
}

describe("validateTxGossip", () => {
  it("accepts a frame with a transaction new to the pool", async () => {
    const n = fakeNode();
    expect(await validateTxGossip(encodeTxBatch([tx(GOOD, 1), tx(POOLED), tx(STALE)]), n.adm)).toBe("accept");
    expect(n.pooled.size).toBe(1);
    expect(n.preverified).toBe(3);
  });

  it("ignores a frame already seen (every transaction pooled), not accepting duplicates", async () => {
    const n = fakeNode();
    const frame = encodeTxBatch([tx(GOOD, 1), tx(GOOD, 2)]);
    expect(await validateTxGossip(frame, n.adm)).toBe("accept");
    expect(await validateTxGossip(frame, n.adm)).toBe("ignore");
    expect(await validateTxGossip(encodeTxBatch([tx(POOLED), tx(STALE)]), n.adm)).toBe("ignore");
  });

  it("rejects a frame mixing one good transaction with bad signatures", async () => {
    const n = fakeNode();
    const junk = Array.from({ length: 511 }, (_, i) => tx(BAD_SIG, i));
    expect(await validateTxGossip(encodeTxBatch([tx(GOOD, 1), ...junk]), n.adm)).toBe("reject");
    expect(await validateTxGossip(encodeTxBatch([tx(POOLED), tx(BAD_SIG)]), n.adm)).toBe("reject");
    expect(await validateTxGossip(encodeTxBatch([tx(BAD_CHAIN), tx(GOOD, 2)]), n.adm)).toBe("reject");
  });

  it("rejects a malformed frame and a bad single transaction", async () => {
    const n = fakeNode();
    const good = encodeTxBatch([tx(GOOD, 1), tx(GOOD, 2)]);
    expect(await validateTxGossip(good.subarray(0, good.length - 1), n.adm)).toBe("reject");
    expect(await validateTxGossip(new Uint8Array(0), n.adm)).toBe("reject");
    expect(await validateTxGossip(tx(BAD_SIG), n.adm)).toBe("reject");
    expect(n.pooled.size).toBe(0);
  });

  it("ignores unsupported instructions (version skew) and state-dependent refusals", async () => {
    const n = fakeNode();
    expect(await validateTxGossip(encodeTxBatch([tx(UNSUPPORTED), tx(STALE)]), n.adm)).toBe("ignore");
    expect(await validateTxGossip(encodeTxBatch([tx(UNSUPPORTED), tx(GOOD, 3)]), n.adm)).toBe("accept");
    expect(n.errors).toEqual([]);
  });

  it("logs unexpected errors and goes on with the frame", async () => {
    const n = fakeNode();
    expect(await validateTxGossip(encodeTxBatch([tx(BOOM), tx(GOOD, 4)]), n.adm)).toBe("accept");
    expect(n.errors).toEqual(["error:unexpected error admitting a gossiped transaction"]);
  });

  it("checks one by one when the batch verification throws", async () => {
    const n = fakeNode({ preverifyThrows: true });
    expect(await validateTxGossip(encodeTxBatch([tx(GOOD, 5), tx(GOOD, 6)]), n.adm)).toBe("accept");
    expect(n.pooled.size).toBe(2);
    expect(n.errors).toEqual(["warn:batch signature check failed: checking one by one"]);
  });

  it("ignores the rest once the node stops", async () => {
    const n = fakeNode();
    n.adm.pause = async () => n.stop();
    const many = Array.from({ length: 200 }, (_, i) => tx(GOOD, i));
    expect(await admitTxGossip(many, n.adm)).toBe("ignore");
    expect(n.pooled.size).toBe(64);
  });
});

describe("TxGossipLimiter", () => {
  it("runs at most maxActive tasks, queues maxQueued, refuses beyond", async () => {
    const limiter = new TxGossipLimiter(2, 3);
    const gates: (() => void)[] = [];
    let running = 0;
    let peak = 0;
    const task = () =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
        return "done";
      });
    const started = Array.from({ length: 5 }, task);
    expect(started.every((p) => p !== null)).toBe(true);
    expect(task()).toBeNull(); // 2 running + 3 queued
    await new Promise((r) => setImmediate(r));
    expect(limiter.active).toBe(2);
    expect(limiter.queued).toBe(3);
    expect(gates.length).toBe(2);
    // release one at a time: each frees a slot for the next waiter, never more than 2 at once
    while (gates.length > 0 || limiter.queued > 0) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(started)).toEqual(["done", "done", "done", "done", "done"]);
    expect(peak).toBe(2);
    expect(limiter.active).toBe(0);
    expect(task()).not.toBeNull(); // room again
    gates.shift()?.();
  });

  it("frees the slot when a task throws", async () => {
    const limiter = new TxGossipLimiter(1, 0);
    await expect(
      limiter.run(async () => {
        throw new Error("x");
      }),
    ).rejects.toThrow("x");
    expect(limiter.active).toBe(0);
    expect(await limiter.run(async () => 7)).toBe(7);
    expect(() => new TxGossipLimiter(0, 1)).toThrow(RangeError);
  });
});
