/**
 * `--block-time auto` (on-demand): an idle node makes a block at once, a burst admitted in one
 * turn goes into one block, transactions arriving while a block is produced get the next block
 * without further traffic, a queued future nonce is admitted, and nothing spins when idle.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeTransaction } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedTx, waitFor } from "../../test/devnet/helpers.ts";
import { memoryStates } from "../../test/devnet/memory-state.ts";
import { DEFAULT_DEVNET_CONFIG } from "./config.ts";
import { DevnetNode } from "./node.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-ondemand-"));
let node: DevnetNode;
const nonces = new Map<number, bigint>();

beforeAll(async () => {
  node = await DevnetNode.open(
    { ...DEFAULT_DEVNET_CONFIG, dataDir: dir, rpcPort: 0, blockTime: { kind: "on-demand" } },
    { openState: memoryStates().openState },
  );
  await node.start();
});

afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function key(i: number) {
  const k = node.keys.accounts[i];
  if (k === undefined) throw new Error(`no dev account ${i}`);
  return k;
}

/** A signed 1-unit transfer from dev account `from` with its next nonce (or `nonce`). */
function transfer(from: number, nonce?: bigint): Uint8Array {
  const n = nonce ?? nonces.get(from) ?? 0n;
  if (nonce === undefined) nonces.set(from, n + 1n);
  const { tx } = signedTx(key(from), {
    chainId: node.chainId,
    nonce: n,
    instruction: { kind: "transfer", to: key(9).address, amount: 1n },
  });
  return encodeTransaction(tx);
}

const settled = () => waitFor(async () => (node.pendingCount() === 0 ? true : null), 10_000);

async function txCounts(from: bigint, to: bigint): Promise<number[]> {
  const out: number[] = [];
  for (let h = from; h <= to; h++) {
    const b = await node.blockByHeight(h);
    out.push(b === null ? -1 : b.txHashes.length);
  }
  return out;
}

describe("on-demand block production", () => {
  it("makes a block at once for a lone transaction, and one block for a burst of one turn", async () => {
    const h0 = node.head().height;
    await node.sendRawTransaction(transfer(0));
    await settled();
    expect(node.head().height).toBe(h0 + 1n);
    const burst = [0, 1, 2, 3].flatMap((a) => [transfer(a), transfer(a)]);
    await Promise.all(burst.map((b) => node.sendRawTransaction(b)));
    await settled();
    expect(node.head().height).toBe(h0 + 2n);
    expect(await txCounts(h0 + 1n, h0 + 2n)).toEqual([1, 8]);
  });

  it("puts transactions that arrive during a block into a later one without more traffic", async () => {
    const h0 = node.head().height;
    const first = [4, 5].map((a) => transfer(a));
    const later = [4, 5, 6].map((a) => transfer(a));
    await Promise.all(first.map((b) => node.sendRawTransaction(b)));
    // the first block is being produced (its ledger write is asynchronous): admit more now
    await new Promise((r) => setImmediate(r));
    await Promise.all(later.map((b) => node.sendRawTransaction(b)));
    await settled();
    const counts = await txCounts(h0 + 1n, node.head().height);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(counts.every((n) => n > 0)).toBe(true);
    // idle again: no empty blocks follow
    const h1 = node.head().height;
    await new Promise((r) => setTimeout(r, 50));
    expect(node.head().height).toBe(h1);
  });

  it("admits a future nonce (queued) and includes it once the gap is filled", async () => {
    const n = nonces.get(7) ?? 0n;
    const ahead = transfer(7, n + 1n);
    const hash = await node.sendRawTransaction(ahead);
    expect(hash.length).toBe(32);
    expect(node.pendingCount()).toBe(1);
    // a nonce below the account's is refused
    await node.sendRawTransaction(transfer(7, n));
    await settled();
    await expect(node.sendRawTransaction(transfer(7, n))).rejects.toMatchObject({ code: "ERR_TX_NONCE" });
    expect(node.pendingNonce(key(7).address)).toBe(n + 2n);
  });
});
