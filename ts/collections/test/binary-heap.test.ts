import { describe, expect, it } from "vitest";
import { BinaryHeap } from "../src/index.ts";

describe("BinaryHeap", () => {
  it("pops in order under the given ordering, stable for ties via a sequence", () => {
    const heap = new BinaryHeap<{ k: number; seq: number }>(
      (a, b) => a.k < b.k || (a.k === b.k && a.seq < b.seq),
    );
    let x = 12345;
    const items: Array<{ k: number; seq: number }> = [];
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const item = { k: x % 100, seq: i };
      items.push(item);
      heap.push(item);
    }
    expect(heap.size).toBe(2000);
    expect(heap.peek()).toEqual(
      items.reduce((m, it) => (it.k < m.k || (it.k === m.k && it.seq < m.seq) ? it : m)),
    );
    const out: Array<{ k: number; seq: number }> = [];
    while (heap.size > 0) out.push(heap.pop() as { k: number; seq: number });
    const sorted = [...items].sort((a, b) => a.k - b.k || a.seq - b.seq);
    expect(out).toEqual(sorted);
    expect(heap.pop()).toBeUndefined();
  });
});
