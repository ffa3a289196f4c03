import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Ledger, LedgerError } from "../src/index.ts";
import { syntheticBlock } from "./ledger-fixtures.ts";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "cowboy-ledger-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function fill(ledger: Ledger, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const head = ledger.head();
    const height = head === null ? 0n : head.height + 1n;
    await ledger.append(syntheticBlock(height, head === null ? new Uint8Array(32) : head.hash));
  }
}

/** Checks every block 0..head is present and chained, and indexes point at the right places. */
async function checkConsistent(ledger: Ledger): Promise<bigint> {
  const head = ledger.head();
  if (head === null) return -1n;
  let parent: Uint8Array = new Uint8Array(32);
  for (let h = 0n; h <= head.height; h++) {
    const b = await ledger.blockByHeight(h);
    expect(b, `block ${h}`).not.toBeNull();
    const block = b as NonNullable<typeof b>;
    expect(Buffer.compare(block.parentHash, parent)).toBe(0);
    for (const [i, tx] of block.txHashes.entries()) {
      expect(await ledger.txLocation(tx)).toEqual({ height: h, index: i });
    }
    parent = block.hash;
  }
  expect(Buffer.compare(parent, head.hash)).toBe(0);
  return head.height;
}

describe("Ledger", () => {
  it("appends, reads by height, hash and transaction, and reopens where it was", async () => {
    const dir = tempDir();
    const ledger = await Ledger.open(dir);
    expect(ledger.head()).toBeNull();
    await fill(ledger, 20);
    expect(ledger.head()?.height).toBe(19n);
    const b7 = await ledger.blockByHeight(7n);
    expect(new TextDecoder().decode(b7?.block)).toBe("block 7 with 3 txs");
    expect(await ledger.blockByHash(b7?.hash as Uint8Array)).toEqual(b7);
    const tx = b7?.txHashes[2] as Uint8Array;
    const r = await ledger.receipt(tx);
    expect(r?.height).toBe(7n);
    expect(new TextDecoder().decode(r?.receipt)).toBe("receipt 7/2");
    expect(await ledger.blockByHeight(20n)).toBeNull();
    await ledger.setFinalized(15n);
    await ledger.close();

    const again = await Ledger.open(dir);
    expect(again.head()?.height).toBe(19n);
    expect(again.finalizedHeight()).toBe(15n);
    await checkConsistent(again);
    await again.close();
  });

  it("refuses blocks that are not the next one or do not extend the head, changing nothing", async () => {
    const ledger = await Ledger.open(tempDir());
    await fill(ledger, 3);
    const head = ledger.head() as NonNullable<ReturnType<Ledger["head"]>>;
    await expect(ledger.append(syntheticBlock(5n, head.hash))).rejects.toMatchObject({
      code: "ERR_LEDGER_NOT_NEXT",
    });
    await expect(ledger.append(syntheticBlock(3n, new Uint8Array(32)))).rejects.toMatchObject({
      code: "ERR_LEDGER_PARENT_MISMATCH",
    });
    const bad = { ...syntheticBlock(3n, head.hash), receipts: [] };
    await expect(ledger.append(bad)).rejects.toBeInstanceOf(LedgerError);
    expect(ledger.head()?.height).toBe(2n);
    await expect(ledger.setFinalized(9n)).rejects.toMatchObject({ code: "ERR_LEDGER_UNKNOWN_HEIGHT" });
    await ledger.close();
  });

  it("finds events by emitter, topic and height range, and rebuilds its indexes", async () => {
    const ledger = await Ledger.open(tempDir());
    await fill(ledger, 12);
    const first = await ledger.blockByHeight(3n);
    const emitter = first?.events[0]?.emitter as Uint8Array;
    const all = await ledger.events({ fromHeight: 0n, toHeight: 11n, emitters: [emitter], limit: 1000 });
    const mints = await ledger.events({
      fromHeight: 4n,
      toHeight: 8n,
      emitters: [emitter],
      topics: [new TextEncoder().encode("Mint")],
      limit: 1000,
    });
    expect(all.length).toBeGreaterThan(mints.length);
    expect(
      mints.every((e) => e.height >= 4n && e.height <= 8n && new TextDecoder().decode(e.topic) === "Mint"),
    ).toBe(true);
    expect(mints.map((e) => [e.height, e.txIndex])).toEqual([
      [5n, 0],
      [6n, 0],
      [7n, 0],
      [7n, 2],
    ]);
    const before = JSON.stringify(all, (_, v) => (typeof v === "bigint" ? String(v) : v));
    expect(await ledger.reindex()).toEqual({ blocks: 12 });
    const after = await ledger.events({ fromHeight: 0n, toHeight: 11n, emitters: [emitter], limit: 1000 });
    expect(JSON.stringify(after, (_, v) => (typeof v === "bigint" ? String(v) : v))).toBe(before);
    await checkConsistent(ledger);
    await ledger.close();
  });

  it("is always at a block boundary after kill -9 at random moments", async () => {
    const dir = tempDir();
    let last = -1n;
    let seed = 12345;
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, [join(import.meta.dirname, "ledger-crash-writer.ts"), dir], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      seed = (seed * 1103515245 + 12345) % 2147483648;
      await new Promise((r) => setTimeout(r, 30 + (seed % 150)));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const ledger = await Ledger.open(dir);
      const height = await checkConsistent(ledger);
      expect(height).toBeGreaterThanOrEqual(last); // nothing committed was lost
      last = height;
      await ledger.close();
    }
    expect(last).toBeGreaterThan(0n);
  });
});
