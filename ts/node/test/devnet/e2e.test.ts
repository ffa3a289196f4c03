/**
 * End to end: `cowboyd` as a separate process (the real state store, qmdb through the
 * addon), on a free port with a temporary data directory. A signed transfer goes in over
 * JSON-RPC and its receipt and balances are checked; then the node is killed with SIGKILL
 * at random moments while it produces blocks back to back with transfers flowing in, and
 * restarted each time: it must come back at a consistent height, with every block it had
 * served before the kill still there (same hashes, linked parents) and the earlier
 * receipts intact. Finally SIGTERM stops it cleanly and a restart continues the chain.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { actorAddress, encodeCbor, fromHex, toHex, utf8 } from "@cowboy/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { deriveDevKeys } from "../../src/devnet/accounts.ts";
import { DEVNET_CHAIN_ID } from "../../src/devnet/config.ts";
import {
  type Client,
  COUNTER,
  client,
  collectEvents,
  post,
  signedTx,
  topicOf,
  waitFor,
  waitReceipt,
} from "./helpers.ts";

const COWBOYD = join(import.meta.dirname, "../../src/cowboyd.ts");
const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-e2e-"));
const keys = deriveDevKeys(4);
const children = new Set<ChildProcess>();

/** A test that fails half-way leaves its node running: kill it so the next test can open the directory. */
afterEach(async () => {
  await Promise.all(
    [...children].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill("SIGKILL");
        }),
    ),
  );
  children.clear();
});

afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  url: string;
  c: Client;
  output: () => string;
}

/** Starts cowboyd and resolves once its banner names the RPC URL. */
function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [COWBOYD, "--data-dir", dir, "--rpc-port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /JSON-RPC\s+(http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) {
        child.stdout?.off("data", onData);
        child.stdout?.on("data", (more: Buffer) => {
          out += more.toString();
        });
        resolve({ child, url: m[1], c: client(m[1]), output: () => out });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("exit", (code, signal) => {
      children.delete(child);
      reject(new Error(`cowboyd exited early (${code ?? signal}):\n${out}`));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

async function kill9(r: Running): Promise<void> {
  r.child.kill("SIGKILL");
  await exited(r.child);
  children.delete(r.child);
}

async function balanceOf(c: Client, address: Uint8Array): Promise<bigint> {
  return BigInt(await c.ok<string>("cowboy_getBalance", [toHex(address)]));
}

/** Sends a transfer of `amount` from dev account `from` to `to`; resolves to its hash. */
async function send(c: Client, from: number, to: Uint8Array, amount: bigint): Promise<string> {
  const key = keys.accounts[from] as (typeof keys.accounts)[number];
  const nonce = BigInt(await c.ok<string>("cowboy_getTransactionCount", [toHex(key.address), "pending"]));
  const { hex } = signedTx(key, {
    chainId: DEVNET_CHAIN_ID,
    nonce,
    instruction: { kind: "transfer", to, amount },
  });
  return c.ok<string>("cowboy_sendRawTransaction", [hex]);
}

/** Checks the chain from `height` down to 0 is linked by parent hashes; returns the hashes by height. */
async function chainHashes(url: string, height: bigint): Promise<string[]> {
  const blocks: Array<{ hash: string; parentHash: string; number: string }> = [];
  for (let from = 0n; from <= height; from += 100n) {
    const batch = [];
    for (let h = from; h <= height && h < from + 100n; h++) {
      batch.push({
        jsonrpc: "2.0",
        id: Number(h),
        method: "cowboy_getBlockByNumber",
        params: [`0x${h.toString(16)}`],
      });
    }
    // A long chain read in batches can exceed the node's per-client rate limit (HTTP 429,
    // an error object instead of an array): wait for the bucket to refill and ask again.
    let answers: unknown;
    for (let attempt = 0; ; attempt++) {
      answers = (await post(url, JSON.stringify(batch))).json;
      if (Array.isArray(answers) || attempt >= 20) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(Array.isArray(answers), `batch from ${from}: ${JSON.stringify(answers)}`).toBe(true);
    for (const a of answers as Array<{ id: number; result: (typeof blocks)[number] }>)
      blocks[a.id] = a.result;
  }
  let parent = toHex(new Uint8Array(32));
  blocks.forEach((b, h) => {
    expect(b, `block ${h}`).toBeTruthy();
    expect(BigInt(b.number)).toBe(BigInt(h));
    expect(b.parentHash, `parent of block ${h}`).toBe(parent);
    parent = b.hash;
  });
  expect(blocks.length).toBe(Number(height) + 1);
  return blocks.map((b) => b.hash);
}

describe("cowboyd end to end", () => {
  it("transfers, survives repeated SIGKILL mid-production, and stops cleanly", async () => {
    const recipient = fromHex("0x00000000000000000000000000000000c0ffee01");
    // 1. a transfer over JSON-RPC, with its receipt and exact balance changes
    let node = await start(["--reset", "--block-time", "100", "--log-level", "warn"]);
    const senderBefore = await balanceOf(node.c, (keys.accounts[0] as { address: Uint8Array }).address);
    const hash = await send(node.c, 0, recipient, 1_000_000n);
    const receipt = await waitReceipt(node.c, hash);
    expect(receipt.status).toBe("success");
    const fee = BigInt(receipt.feePaid as string);
    expect(await balanceOf(node.c, recipient)).toBe(1_000_000n);
    expect(await balanceOf(node.c, (keys.accounts[0] as { address: Uint8Array }).address)).toBe(
      senderBefore - 1_000_000n - fee,
    );
    await kill9(node);

    // 2. kill -9 at random moments while blocks are produced back to back with traffic
    let seen: string[] = [];
    let sent = 0n;
    const rebuilds = 0;
    for (let round = 0; round < 6; round++) {
      node = await start(["--block-time", "0", "--log-level", "warn"]);
      const head = BigInt(await node.c.ok<string>("cowboy_blockNumber"));
      // every block served before the last kill is still there, unchanged
      const hashes = await chainHashes(node.url, head);
      expect(hashes.length).toBeGreaterThanOrEqual(seen.length);
      for (let h = 0; h < seen.length; h++)
        expect(hashes[h], `block ${h} after restart ${round}`).toBe(seen[h]);
      expect(
        (await node.c.ok<Record<string, unknown>>("cowboy_getTransactionReceipt", [hash]))?.blockHash,
      ).toBe(receipt.blockHash);
      // traffic, then a kill at a random moment (some of it may be pending and lost: that is allowed)
      const killAt = Date.now() + 150 + Math.floor(Math.random() * 350);
      const current = node;
      const traffic = (async () => {
        while (Date.now() < killAt) {
          try {
            await send(current.c, 1 + (round % 3), recipient, 1n);
            sent++;
          } catch {
            return; // the node died under us
          }
        }
      })();
      await new Promise((r) => setTimeout(r, Math.max(0, killAt - Date.now())));
      const servedHead = BigInt(await node.c.ok<string>("cowboy_blockNumber"));
      seen = await chainHashes(node.url, servedHead);
      await kill9(node);
      await traffic;
    }
    expect(sent).toBeGreaterThan(0n);
    console.log(
      `e2e: ${seen.length} blocks, ${sent} transfers sent, ${rebuilds} state rebuilds after kill -9`,
    );

    // 3. a last restart, transfers still work, SIGTERM exits 0, and a restart continues the chain
    node = await start(["--block-time", "50", "--log-level", "warn"]);
    const head = BigInt(await node.c.ok<string>("cowboy_blockNumber"));
    expect(head).toBeGreaterThanOrEqual(BigInt(seen.length - 1));
    const hashes = await chainHashes(node.url, head);
    for (let h = 0; h < seen.length; h++) expect(hashes[h]).toBe(seen[h]);
    const before = await balanceOf(node.c, recipient);
    const last = await waitReceipt(node.c, await send(node.c, 0, recipient, 5n));
    expect(last.status).toBe("success");
    expect(await balanceOf(node.c, recipient)).toBe(before + 5n);
    node.child.kill("SIGTERM");
    expect(await exited(node.child)).toBe(0);
    children.delete(node.child);
    node = await start(["--block-time", "50", "--log-level", "warn"]);
    expect(BigInt(await node.c.ok<string>("cowboy_blockNumber"))).toBeGreaterThanOrEqual(
      BigInt(last.blockNumber as string),
    );
    expect(await balanceOf(node.c, recipient)).toBe(before + 5n);
    node.child.kill("SIGTERM");
    expect(await exited(node.child)).toBe(0);
  }, 180_000);
});

const native = (await import("@cowboy/native")) as Record<string, unknown>;

describe.skipIf(typeof native.executeActor !== "function")("cowboyd end to end with actors", () => {
  it("deploys and calls a timer-driven actor, watches the timer, and finds everything after SIGKILL", async () => {
    let node = await start(["--reset", "--block-time", "50", "--log-level", "warn"]);
    const me = keys.accounts[3] as (typeof keys.accounts)[number];
    const source = utf8(COUNTER);
    const salt = new Uint8Array(32).fill(9);
    const actor = actorAddress(me.address, salt, source);
    let nonce = 0n;
    const send = async (c: Client, instruction: Parameters<typeof signedTx>[1]["instruction"]) => {
      const { hex } = signedTx(me, {
        chainId: DEVNET_CHAIN_ID,
        nonce: nonce++,
        instruction,
        cyclesLimit: 5_000_000n,
        cellsLimit: 200_000n,
      });
      return waitReceipt(c, await c.ok<string>("cowboy_sendRawTransaction", [hex]));
    };
    const deployed = await send(node.c, {
      kind: "deploy",
      source,
      salt,
      initArgs: encodeCbor([]),
      value: 1_000_000_000_000n,
    });
    expect(deployed.status, JSON.stringify(deployed)).toBe("success");
    const called = await send(node.c, {
      kind: "call",
      to: actor,
      handler: "increment",
      args: encodeCbor([]),
      value: 0n,
    });
    expect(called.returnData).toBe(toHex(encodeCbor(1)));
    expect(BigInt(called.feePaid as string)).toBeGreaterThan(0n);

    // the timer, watched through a subscription
    const ticks = await collectEvents(node.url.replace("http", "ws"), "logs", toHex(actor), topicOf("Tick"));
    expect(
      (await send(node.c, { kind: "call", to: actor, handler: "start", args: encodeCbor([3]), value: 0n }))
        .status,
    ).toBe("success");
    await waitFor(async () => (ticks.events.length >= 2 ? true : null), 30_000, "two timer fires");
    ticks.close();
    const fire = await node.c.ok<Record<string, unknown>>("cowboy_getTransactionReceipt", [
      ticks.events[1]?.transactionHash,
    ]);
    expect(fire.kind).toBe("timer");
    await kill9(node);

    // after kill -9: code, storage, receipts and logs are there, and the timer keeps firing
    node = await start(["--block-time", "50", "--log-level", "warn"]);
    expect(await node.c.ok("cowboy_getCode", [toHex(actor)])).toBe(toHex(source));
    expect(
      (
        await node.c.ok<Record<string, string>>("cowboy_getStorageAt", [
          toHex(actor),
          toHex(encodeCbor("count")),
        ])
      ).value,
    ).toBe(toHex(encodeCbor(1)));
    expect(
      (await node.c.ok<Record<string, unknown>>("cowboy_getTransactionReceipt", [called.transactionHash]))
        ?.blockHash,
    ).toBe(called.blockHash);
    const logs = await node.c.ok<unknown[]>("cowboy_getLogs", [
      { address: toHex(actor), fromBlock: "earliest", topics: [topicOf("Tick")] },
    ]);
    expect(logs.length).toBeGreaterThanOrEqual(2);
    const count = async () =>
      (
        await node.c.ok<unknown[]>("cowboy_getLogs", [
          { address: toHex(actor), fromBlock: "earliest", topics: [topicOf("Tick")] },
        ])
      ).length;
    const n0 = await count();
    await waitFor(async () => ((await count()) > n0 ? true : null), 30_000, "a timer fire after the restart");
    node.child.kill("SIGTERM");
    expect(await exited(node.child)).toBe(0);
  }, 180_000);
});
