import { describe, expect, it } from "vitest";
import { LANE_CYCLE_BUDGET, type Lane, Mempool, MempoolError, type PoolTx } from "../src/index.ts";

const BASE = { cycle: 10_000n, cell: 10_000n };

let counter = 0;
function tx(
  sender: string,
  nonce: bigint,
  opts: { fee?: bigint; tip?: bigint; lane?: Lane; limit?: bigint; size?: number } = {},
): PoolTx {
  counter++;
  const fee = opts.fee ?? 20_000n;
  const tip = opts.tip ?? 1_000n;
  return {
    hash: `0x${counter.toString(16).padStart(64, "0")}`,
    sender,
    nonce,
    lane: opts.lane ?? "user",
    cycles: { limit: opts.limit ?? 50_000n, maxFee: fee, maxPriorityFee: tip },
    cells: { limit: 1_000n, maxFee: fee, maxPriorityFee: tip },
    intrinsic: { cycles: 21_000n, cells: 100n },
    size: opts.size ?? 200,
  };
}

function code(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof MempoolError) return err.code;
    throw err;
  }
  return "no error";
}

const ctx = (accountNonce = 0n) => ({ accountNonce, basefee: BASE });

describe("Mempool admission", () => {
  it("admits, reports pending nonces, and refuses duplicates and stale nonces", () => {
    const pool = new Mempool();
    const a0 = tx("0xa", 0n);
    expect(pool.add(a0, ctx()).status).toBe("added");
    pool.add(tx("0xa", 1n), ctx());
    pool.add(tx("0xa", 3n), ctx());
    expect(pool.pendingNonce("0xa", 0n)).toBe(2n);
    expect(code(() => pool.add(a0, ctx()))).toBe("ERR_MEMPOOL_DUPLICATE");
    expect(code(() => pool.add(tx("0xa", 4n), ctx(5n)))).toBe("ERR_MEMPOOL_NONCE_TOO_LOW");
    expect(code(() => pool.add(tx("0xb", 500n), ctx()))).toBe("ERR_MEMPOOL_NONCE_GAP");
    expect(code(() => pool.add(tx("0xb", 0n, { fee: 9_999n }), ctx()))).toBe("ERR_MEMPOOL_FEE_TOO_LOW");
    expect(pool.size).toBe(3);
    expect(pool.bytes).toBe(600);
  });

  it("replaces the same nonce only with a 10% bump of every fee", () => {
    const pool = new Mempool();
    const first = tx("0xa", 0n, { fee: 20_000n, tip: 1_000n });
    pool.add(first, ctx());
    expect(code(() => pool.add(tx("0xa", 0n, { fee: 21_999n, tip: 1_100n }), ctx()))).toBe(
      "ERR_MEMPOOL_REPLACEMENT_UNDERPRICED",
    );
    const better = tx("0xa", 0n, { fee: 22_000n, tip: 1_100n });
    const res = pool.add(better, ctx());
    expect(res.status).toBe("replaced");
    expect(res.replaced).toBe(first);
    expect(pool.has(first.hash)).toBe(false);
    expect(pool.ofSender("0xa")).toEqual([better]);
  });

  it("limits transactions per sender", () => {
    const pool = new Mempool({ maxPerSender: 2 });
    pool.add(tx("0xa", 0n), ctx());
    pool.add(tx("0xa", 1n), ctx());
    expect(code(() => pool.add(tx("0xa", 2n), ctx()))).toBe("ERR_MEMPOOL_SENDER_FULL");
  });

  it("when full, evicts the cheapest tail transaction for a better one, or refuses", () => {
    const pool = new Mempool({ maxTxs: 3 });
    const cheapHead = tx("0xa", 0n, { fee: 30_000n, tip: 100n });
    const cheapTail = tx("0xa", 1n, { fee: 30_000n, tip: 100n });
    pool.add(cheapHead, ctx());
    pool.add(cheapTail, ctx());
    pool.add(tx("0xb", 0n, { tip: 5_000n, fee: 30_000n }), ctx());
    // not better than the cheapest → refused, nothing changes
    expect(code(() => pool.add(tx("0xc", 0n, { fee: 30_000n, tip: 50n }), ctx()))).toBe("ERR_MEMPOOL_FULL");
    expect(pool.size).toBe(3);
    const rich = tx("0xc", 0n, { fee: 30_000n, tip: 3_000n });
    const res = pool.add(rich, ctx());
    // the tail (nonce 1) goes, never the head: no nonce gap is created
    expect(res.evicted).toEqual([cheapTail]);
    expect(pool.has(cheapHead.hash)).toBe(true);
    expect(pool.size).toBe(3);
  });
});

describe("Mempool selection (§6.4, §17.9)", () => {
  it("picks by effective fee, keeps nonce order, and ties by hash", () => {
    const pool = new Mempool();
    const a0 = tx("0xa", 0n, { tip: 100n });
    const a1 = tx("0xa", 1n, { tip: 9_000n });
    const b0 = tx("0xb", 0n, { tip: 500n });
    const c0 = tx("0xc", 0n, { tip: 500n });
    for (const t of [a1, a0, c0, b0]) pool.add(t, ctx());
    const picked = pool.select({ basefee: BASE, accountNonce: () => 0n, laneBudget: LANE_CYCLE_BUDGET });
    // b0 and c0 tie on fee: lower hash first (b0 was created first → lower hash); a1 waits for a0
    expect(picked.user.map((t) => t.hash)).toEqual([b0.hash, c0.hash, a0.hash, a1.hash]);
  });

  it("respects lane budgets, spills unused reserved capacity to user only", () => {
    const pool = new Mempool();
    const sys = tx("0xs", 0n, { lane: "system", limit: 10n });
    const users = [0n, 1n, 2n].map((n) => tx("0xu", n, { limit: 40n }));
    for (const t of [sys, ...users]) pool.add(t, ctx());
    const budget = { system: 50n, timer: 0n, runner: 0n, user: 40n };
    const picked = pool.select({ basefee: BASE, accountNonce: () => 0n, laneBudget: budget });
    expect(picked.system).toEqual([sys]);
    // user: 40 own + 40 spilled from system = 80 → two transactions of 40
    expect(picked.user).toEqual(users.slice(0, 2));
    // a full user lane cannot borrow from a reserved lane
    const tight = pool.select({
      basefee: BASE,
      accountNonce: () => 0n,
      laneBudget: { system: 10n, timer: 0n, runner: 0n, user: 40n },
    });
    expect(tight.user).toEqual(users.slice(0, 1));
  });

  it("skips transactions below the basefee and stops a sender at a gap", () => {
    const pool = new Mempool();
    const low = tx("0xa", 0n, { fee: 15_000n });
    const gap = tx("0xb", 1n);
    pool.add(low, ctx());
    pool.add(gap, ctx());
    const picked = pool.select({
      basefee: { cycle: 16_000n, cell: 10_000n },
      accountNonce: () => 0n,
      laneBudget: LANE_CYCLE_BUDGET,
    });
    expect(picked.user).toEqual([]);
  });

  it("prunes what a block included or made stale", () => {
    const pool = new Mempool();
    const a = [0n, 1n, 2n].map((n) => tx("0xa", n));
    for (const t of a) pool.add(t, ctx());
    const dropped = pool.prune(() => 2n, ["0xa"]);
    expect(dropped).toEqual(a.slice(0, 2));
    expect(pool.ofSender("0xa")).toEqual([a[2]]);
  });
});

describe("Mempool selection with a transaction cap (proposal size policy)", () => {
  it("picks a prefix of the uncapped selection, lanes in priority order, the same every time", () => {
    const pool = new Mempool();
    const sys = tx("0xs", 0n, { lane: "system", limit: 10n });
    const users = ["0xa", "0xb", "0xc"].flatMap((s, i) =>
      [0n, 1n, 2n].map((n) => tx(s, n, { tip: BigInt(100 * (i + 1)) + n })),
    );
    for (const t of [...users].reverse()) pool.add(t, ctx());
    pool.add(sys, ctx());
    const sel = (maxTxs?: number) =>
      pool.select({
        basefee: BASE,
        accountNonce: () => 0n,
        laneBudget: LANE_CYCLE_BUDGET,
        ...(maxTxs === undefined ? {} : { maxTxs }),
      });
    const all = sel();
    const order = [...all.system, ...all.user].map((t) => t.hash);
    expect(order.length).toBe(10);
    for (const cap of [0, 1, 4, 9, 10, 50]) {
      const capped = sel(cap);
      const got = [...capped.system, ...capped.user].map((t) => t.hash);
      expect(got).toEqual(order.slice(0, cap));
      expect([...sel(cap).system, ...sel(cap).user].map((t) => t.hash)).toEqual(got);
    }
    // the system lane goes first: a cap of 1 takes it
    expect(sel(1).system).toEqual([sys]);
    // per sender, still in nonce order with no gap
    const four = sel(4).user;
    for (const s of ["0xa", "0xb", "0xc"]) {
      const nonces = four.filter((t) => t.sender === s).map((t) => t.nonce);
      expect(nonces).toEqual(nonces.map((_, i) => BigInt(i)));
    }
  });
});
