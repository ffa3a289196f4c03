import { describe, expect, it } from "vitest";
import { Sfc32 } from "../src/index.ts";

describe("Sfc32", () => {
  it("gives the same sequence for the same seed and a different one for another seed", () => {
    const a = new Sfc32(42);
    const b = new Sfc32(42);
    const c = new Sfc32(43);
    const xs = Array.from({ length: 8 }, () => a.u32());
    expect(Array.from({ length: 8 }, () => b.u32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => c.u32())).not.toEqual(xs);
    for (const x of xs) expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true);
  });

  it("keeps below() and between() in range and reaches both ends", () => {
    const r = new Sfc32(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) {
      const v = r.between(-3, 3);
      expect(v >= -3 && v <= 3).toBe(true);
      seen.add(v);
      const f = r.fraction();
      expect(f >= 0 && f < 1).toBe(true);
      expect(r.below(1)).toBe(0);
    }
    expect([...seen].sort((x, y) => x - y)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
  });
});
