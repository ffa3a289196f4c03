import { describe, expect, it } from "vitest";
import {
  BASEFEE_ALPHA,
  BLOCK_CYCLES_CAP,
  CELLS_TARGET,
  CYCLES_TARGET,
  effectiveFee,
  FeeError,
  LANE_CYCLE_BUDGET,
  MIN_BASEFEE,
  nextBasefee,
  settleFee,
} from "../src/index.ts";

describe("nextBasefee (§4.2 / §17.8)", () => {
  it("is unchanged at the target", () => {
    expect(nextBasefee(1_000_000n, CYCLES_TARGET, CYCLES_TARGET)).toBe(1_000_000n);
    expect(nextBasefee(1_000_000n, CELLS_TARGET, CELLS_TARGET)).toBe(1_000_000n);
  });

  it("moves by exactly 1/96 at a full or an empty block", () => {
    // full block: U = 80M = 4 T, clamp at +1/96
    expect(nextBasefee(960_000n, BLOCK_CYCLES_CAP, CYCLES_TARGET)).toBe(970_000n);
    // empty block: (0 - T) / (T α) = -1/96 exactly
    expect(nextBasefee(960_000n, 0n, CYCLES_TARGET)).toBe(950_000n);
  });

  it("moves proportionally between target and clamp", () => {
    // U = 1.5 T: +0.5/96 of 960,000 = +5,000
    expect(nextBasefee(960_000n, 30_000_000n, CYCLES_TARGET)).toBe(965_000n);
    // cells: U = 5M, T = 4M → +0.25/96 of 3,840,000 = +10,000
    expect(nextBasefee(3_840_000n, 5_000_000n, CELLS_TARGET)).toBe(3_850_000n);
  });

  it("never goes below MIN_BASEFEE", () => {
    expect(nextBasefee(MIN_BASEFEE, 0n, CYCLES_TARGET)).toBe(MIN_BASEFEE);
    expect(nextBasefee(10_050n, 0n, CYCLES_TARGET)).toBe(MIN_BASEFEE);
  });

  it("matches the exact rational formula, rounded toward the old basefee (seeded sweep)", () => {
    let seed = 0x9e3779b97f4a7c15n;
    const next = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
      return seed >> 11n;
    };
    for (let i = 0; i < 5000; i++) {
      const b = MIN_BASEFEE + (next() % 10_000_000_000n);
      const t = 1n + (next() % 50_000_000n);
      const u = next() % (5n * t);
      const got = nextBasefee(b, u, t);
      // exact: b * (1 + clamp((u - t) / (t α), ±1/α)); scaled by t α to stay integral
      let num = u - t;
      if (num > t) num = t;
      if (num < -t) num = -t;
      const scaled = b * (t * BASEFEE_ALPHA + num); // = exact × tα
      const den = t * BASEFEE_ALPHA;
      const towardOld = num >= 0n ? scaled / den : (scaled + den - 1n) / den;
      const want = towardOld < MIN_BASEFEE ? MIN_BASEFEE : towardOld;
      expect(got).toBe(want);
      const diff = got > b ? got - b : b - got;
      if (got !== MIN_BASEFEE) expect(diff <= b / BASEFEE_ALPHA).toBe(true);
    }
  });

  it("rejects invalid inputs", () => {
    expect(() => nextBasefee(1n, 1n, 0n)).toThrow(RangeError);
    expect(() => nextBasefee(-1n, 1n, 1n)).toThrow(RangeError);
  });
});

describe("lanes (§17.9)", () => {
  it("sum to the block hard cap", () => {
    const sum = Object.values(LANE_CYCLE_BUDGET).reduce((a, b) => a + b, 0n);
    expect(sum).toBe(BLOCK_CYCLES_CAP);
  });
});

describe("settleFee (§2.3)", () => {
  const offer = {
    cycles: { limit: 100_000n, maxFee: 12_000n, maxPriorityFee: 500n },
    cells: { limit: 1_000n, maxFee: 11_000n, maxPriorityFee: 3_000n },
  };

  it("charges basefee + capped tip per used unit and refunds the rest", () => {
    const s = settleFee(offer, { cycles: 21_000n, cells: 200n }, { cycle: 10_000n, cell: 10_000n });
    expect(s.cycles.price).toBe(10_500n); // tip 500 fits under max_fee
    expect(s.cells.price).toBe(11_000n); // tip capped at max_fee - basefee = 1,000
    expect(s.burned).toBe(21_000n * 10_000n + 200n * 10_000n);
    expect(s.tip).toBe(21_000n * 500n + 200n * 1_000n);
    expect(s.paid).toBe(s.burned + s.tip);
    expect(s.refund).toBe(100_000n * 12_000n + 1_000n * 11_000n - s.paid);
  });

  it("rejects a max fee below the basefee and usage above the limit", () => {
    expect(() => settleFee(offer, { cycles: 1n, cells: 1n }, { cycle: 12_001n, cell: 10_000n })).toThrow(
      FeeError,
    );
    expect(() =>
      settleFee(offer, { cycles: 100_001n, cells: 1n }, { cycle: 10_000n, cell: 10_000n }),
    ).toThrow(/outside/);
  });

  it("orders the mempool by intrinsic effective fee (§6.4)", () => {
    const fee = effectiveFee(offer, { cycles: 21_000n, cells: 0n }, { cycle: 10_000n, cell: 10_000n });
    expect(fee).toBe(21_000n * 10_500n);
  });
});
