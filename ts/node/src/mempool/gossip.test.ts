import { describe, expect, it } from "vitest";
import {
  decodeTxGossip,
  encodeTxBatch,
  MAX_GOSSIP_BATCH_BYTES,
  MAX_GOSSIP_BATCH_TXS,
  TxBatchError,
  TxGossipBatcher,
} from "./gossip.ts";

const tx = (n: number, len = 40) => Uint8Array.from({ length: len }, (_, i) => ((n * 7 + i) % 255) + 1);

/** A manual timer: `fire()` runs the scheduled callback, if any. */
function manualTimer() {
  let pending: (() => void) | null = null;
  let scheduled = 0;
  return {
    setTimer: (f: () => void) => {
      pending = f;
      scheduled++;
      return scheduled;
    },
    clearTimer: () => {
      pending = null;
    },
    fire: () => {
      const f = pending;
      pending = null;
      f?.();
    },
    get armed() {
      return pending !== null;
    },
  };
}

describe("tx gossip batch frame", () => {
  it("round-trips a batch, keeping order and bytes", () => {
    const txs = [tx(1), tx(2, 1), tx(3, 300)];
    const frame = encodeTxBatch(txs);
    expect(frame[0]).toBe(0);
    expect(decodeTxGossip(frame).map((t) => Array.from(t))).toEqual(txs.map((t) => Array.from(t)));
  });

  it("reads a message that does not start with 0x00 as one transaction", () => {
    const one = tx(9);
    expect(decodeTxGossip(one)).toEqual([one]);
  });

  it("returns copies that do not keep the gossip message alive", () => {
    const frame = encodeTxBatch([tx(1), tx(2), tx(3)]);
    const txs = decodeTxGossip(frame);
    for (const t of txs) {
      expect(t.buffer).not.toBe(frame.buffer);
      expect(t.byteOffset).toBe(0);
      expect(t.buffer.byteLength).toBe(t.length);
    }
    frame.fill(0xee);
    expect(Array.from(txs[1] as Uint8Array)).toEqual(Array.from(tx(2)));
    const one = tx(9);
    const [single] = decodeTxGossip(one);
    expect(single?.buffer).not.toBe(one.buffer);
    expect(Array.from(single as Uint8Array)).toEqual(Array.from(one));
  });

  it("refuses a received batch over the byte limit", () => {
    const half = MAX_GOSSIP_BATCH_BYTES / 2;
    const frame = encodeTxBatch([tx(1, half), tx(2, half)]); // what our batcher never sends
    expect(frame.length).toBeGreaterThan(MAX_GOSSIP_BATCH_BYTES);
    expect(() => decodeTxGossip(frame)).toThrow(TxBatchError);
    const fits = encodeTxBatch([tx(1, half - 100), tx(2, half - 100)]);
    expect(decodeTxGossip(fits).length).toBe(2);
  });

  it("refuses malformed frames with a typed error", () => {
    const good = encodeTxBatch([tx(1), tx(2)]);
    const bad: Uint8Array[] = [
      new Uint8Array(0),
      good.subarray(0, 4), // truncated header
      Uint8Array.from([0, 2, ...good.subarray(2)]), // unknown version
      good.subarray(0, good.length - 1), // truncated transaction
      Uint8Array.from([...good, 0]), // trailing byte
      Uint8Array.from([0, 1, 0, 0, 0, 0]), // zero transactions
    ];
    const zeroLen = Uint8Array.from(good);
    new DataView(zeroLen.buffer).setUint32(6, 0);
    bad.push(zeroLen);
    const tooMany = Uint8Array.from(good);
    new DataView(tooMany.buffer).setUint32(2, MAX_GOSSIP_BATCH_TXS + 1);
    bad.push(tooMany);
    for (const b of bad) expect(() => decodeTxGossip(b)).toThrow(TxBatchError);
  });

  it("refuses to encode an empty batch, an empty transaction or too many", () => {
    expect(() => encodeTxBatch([])).toThrow(TxBatchError);
    expect(() => encodeTxBatch([new Uint8Array(0)])).toThrow(TxBatchError);
    expect(() => encodeTxBatch(Array.from({ length: MAX_GOSSIP_BATCH_TXS + 1 }, (_, i) => tx(i)))).toThrow(
      TxBatchError,
    );
  });
});

describe("TxGossipBatcher", () => {
  it("publishes what arrived within the delay as one batch", () => {
    const timer = manualTimer();
    const sent: Uint8Array[][] = [];
    const b = new TxGossipBatcher({ publish: (f) => sent.push(decodeTxGossip(f)), ...timer });
    b.add(tx(1));
    b.add(tx(2));
    expect(sent).toEqual([]);
    expect(timer.armed).toBe(true);
    timer.fire();
    expect(sent.map((s) => s.length)).toEqual([2]);
    expect(b.size).toBe(0);
    timer.fire(); // nothing left: nothing sent
    expect(sent.length).toBe(1);
  });

  it("sends a full batch at once and never loses or repeats a transaction", () => {
    const timer = manualTimer();
    const sent: Uint8Array[][] = [];
    const b = new TxGossipBatcher({ publish: (f) => sent.push(decodeTxGossip(f)), ...timer });
    const all = Array.from({ length: MAX_GOSSIP_BATCH_TXS * 2 + 5 }, (_, i) => tx(i));
    for (const t of all) b.add(t);
    expect(sent.map((s) => s.length)).toEqual([MAX_GOSSIP_BATCH_TXS, MAX_GOSSIP_BATCH_TXS]);
    timer.fire();
    expect(sent.flat().map((t) => Array.from(t))).toEqual(all.map((t) => Array.from(t)));
  });

  it("keeps every batch under the byte limit", () => {
    const timer = manualTimer();
    const frames: Uint8Array[] = [];
    const b = new TxGossipBatcher({ publish: (f) => frames.push(f), ...timer });
    const big = Array.from({ length: 12 }, (_, i) => tx(i, 100 * 1024));
    for (const t of big) b.add(t);
    b.flush();
    expect(frames.every((f) => f.length <= MAX_GOSSIP_BATCH_BYTES)).toBe(true);
    expect(frames.flatMap((f) => decodeTxGossip(f)).length).toBe(12);
  });

  it("close drops what waits and disarms the timer", () => {
    const timer = manualTimer();
    const sent: Uint8Array[] = [];
    const b = new TxGossipBatcher({ publish: (f) => sent.push(f), ...timer });
    b.add(tx(1));
    b.close();
    expect(timer.armed).toBe(false);
    b.flush();
    expect(sent).toEqual([]);
    // a node that stopped publishes nothing more (the faucet or a late RPC call)
    for (let i = 0; i < MAX_GOSSIP_BATCH_TXS + 1; i++) b.add(tx(i));
    expect(b.size).toBe(0);
    expect(timer.armed).toBe(false);
    b.flush();
    expect(sent).toEqual([]);
  });
});
