/**
 * Four validator processes of a localnet whose genesis carries a DKG output (`cowboy localnet`'s
 * default) and a short epoch: every node runs one voter per epoch and switches at each epoch's
 * last block — views restart at 1, the same chain everywhere — and a validator that exits
 * stops voting from the epoch whose set no longer holds it (the others reshare the group among
 * themselves and keep finalizing; it follows the chain without voting). A validator killed
 * for two epochs restarts, block-syncs across the boundaries and votes in the current epoch.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addressFromSecretKey, encodeTransaction, signTransaction, toHex, zeroSignature } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_LOCALNET,
  localnetOperatorKeys,
  planLocalnet,
  spawnValidator,
  type ValidatorProcess,
} from "../localnet.ts";

const N = 4;
const E = 12;
const dir = mkdtempSync(join(tmpdir(), "cowboy-epochs-"));
const procs: Array<ValidatorProcess | null> = Array.from({ length: N }, () => null);
const urls: string[] = [];
let paths: string[] = [];

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}
const num = (q: string) => Number(BigInt(q));
const height = async (i: number) => num((await rpc(urls[i] as string, "cowboy_blockNumber", [])) as string);
const hashAt = async (i: number, h: number) =>
  (
    (await rpc(urls[i] as string, "cowboy_getBlockByNumber", [`0x${h.toString(16)}`, false])) as {
      hash: string;
    }
  ).hash;
const status = async (i: number) => {
  const s = (await rpc(urls[i] as string, "cowboy_consensusStatus", [])) as {
    epoch: string;
    view: string;
    voting: boolean;
  };
  return { epoch: num(s.epoch), view: num(s.view), voting: s.voting };
};
const setOf = async (epoch: number) =>
  (
    (await rpc(urls[0] as string, "cowboy_getValidators", [`0x${epoch.toString(16)}`])) as {
      validators: Array<{ address: string }>;
    }
  ).validators.map((v) => v.address.toLowerCase());

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function start(i: number): Promise<void> {
  const p = spawnValidator(i, paths[i] as string, (line) => {
    if (process.env.COWBOY_TEST_LOGS)
      appendFileSync(join(process.env.COWBOY_TEST_LOGS, `epochs-v${i}.log`), `${line}\n`);
  });
  procs[i] = p;
  urls[i] = (await p.ready).rpc;
}

beforeAll(async () => {
  paths = await planLocalnet({
    ...DEFAULT_LOCALNET,
    validators: N,
    dir,
    basePort: 32_000 + Math.floor(Math.random() * 20_000),
    rpcPort: 0,
    blockTimeMs: 250,
    epochBlocks: E,
    logLevel: "info",
  });
  await Promise.all(paths.map((_, i) => start(i)));
}, 60_000);

afterAll(async () => {
  for (const p of procs) if (p !== null && p.child.exitCode === null) p.child.kill("SIGKILL");
  await Promise.all(procs.map((p) => p?.exited));
  rmSync(dir, { recursive: true, force: true });
});

describe("epoch switching: four validator processes", () => {
  it("finalize across epoch boundaries with one voter per epoch: same chain everywhere, views restart", async () => {
    await waitFor("three epoch boundaries", async () => (await height(0)) >= 3 * E + 2, 90_000);
    const statuses = await Promise.all(urls.map((_, i) => status(i)));
    for (const s of statuses) {
      expect(s.epoch).toBeGreaterThanOrEqual(3);
      expect(s.voting).toBe(true);
      // views count from 1 in each epoch: far below the number of blocks finalized so far
      expect(s.view).toBeLessThan(2 * E);
    }
    const top = Math.min(...(await Promise.all(urls.map((_, i) => height(i)))));
    expect(top).toBeGreaterThanOrEqual(3 * E);
    for (const h of [E - 1, E, 2 * E - 1, 2 * E, 3 * E - 1, 3 * E, top]) {
      const hashes = await Promise.all(urls.map((_, i) => hashAt(i, h)));
      expect(new Set(hashes).size).toBe(1);
    }
  }, 120_000);

  it("a validator down across two boundaries catches up across them and votes in the current epoch", async () => {
    const p = procs[2] as ValidatorProcess;
    p.child.kill("SIGKILL");
    await p.exited;
    procs[2] = null;
    const from = await height(0);
    const boundary = (Math.floor(from / E) + 2) * E;
    await waitFor("two more boundaries without it", async () => (await height(0)) >= boundary + 2, 90_000);
    await start(2);
    await waitFor("it to catch up", async () => (await height(2)) >= (await height(0)) - 2, 60_000);
    await waitFor("it to vote again", async () => {
      const [s0, s2] = [await status(0), await status(2)];
      return s2.voting && s2.epoch === s0.epoch;
    });
    const h = Math.min(await height(0), await height(2));
    expect(await hashAt(2, h)).toBe(await hashAt(0, h));
    expect(await hashAt(2, boundary)).toBe(await hashAt(0, boundary));
  }, 180_000);

  it("a validator that exits stops voting from the epoch after; the others keep finalizing", async () => {
    const sk = localnetOperatorKeys(N)[3] as Uint8Array;
    const from = addressFromSecretKey(sk);
    const url0 = urls[0] as string;
    const tx = signTransaction(
      {
        chainId: BigInt((await rpc(url0, "cowboy_chainId", [])) as string),
        nonce: BigInt((await rpc(url0, "cowboy_getTransactionCount", [toHex(from), "pending"])) as string),
        instruction: { kind: "exitValidator" },
        cyclesLimit: 100_000n,
        cellsLimit: 10_000n,
        maxFeePerCycle: 20_000n,
        maxFeePerCell: 20_000n,
        maxPriorityFeePerCycle: 0n,
        maxPriorityFeePerCell: 0n,
        from,
        accessList: null,
        metadata: new Uint8Array(0),
        originTxHash: null,
        originRemainingCycles: null,
        originRemainingCells: null,
        signature: zeroSignature(),
        additionalSigners: [],
      },
      sk,
    );
    const hash = (await rpc(url0, "cowboy_sendRawTransaction", [toHex(encodeTransaction(tx))])) as string;
    let at = 0;
    await waitFor("the exit to be final", async () => {
      const r = (await rpc(url0, "cowboy_getTransactionReceipt", [hash])) as { blockNumber: string } | null;
      if (r !== null) at = num(r.blockNumber);
      return r !== null;
    });
    // the set of the epoch after the next freeze point no longer holds it (after a resharing among
    // the other three; a failed ceremony would keep the old set: then it would still be here)
    const exitEpoch = Math.floor((at + E - Math.floor(E / 2)) / E) + 1;
    await waitFor("the epoch without it", async () => (await height(0)) >= exitEpoch * E + 4, 90_000);
    const me = toHex(from).toLowerCase();
    expect(await setOf(exitEpoch - 1)).toContain(me);
    expect(await setOf(exitEpoch)).not.toContain(me);
    const s3 = await status(3);
    expect(s3.epoch).toBeGreaterThanOrEqual(exitEpoch);
    expect(s3.voting).toBe(false);
    for (const i of [0, 1, 2]) expect((await status(i)).voting).toBe(true);
    // the three keep finalizing, the exited validator follows the same chain
    const h0 = await height(0);
    await waitFor("more blocks without it", async () => (await height(0)) >= h0 + E, 60_000);
    await waitFor("the follower to follow", async () => (await height(3)) >= h0 + E / 2, 60_000);
    const h = Math.min(await height(0), await height(3));
    expect(await hashAt(3, h)).toBe(await hashAt(0, h));
  }, 240_000);
});
