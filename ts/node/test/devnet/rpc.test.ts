/**
 * The devnet's JSON-RPC methods over HTTP and WebSocket, in-process, on the real STF over
 * the in-memory state store (see memory-state.ts): every method with valid parameters and
 * with invalid ones (right error code, no change to the chain), batches, size limits,
 * subscriptions, the faucet and its rate limit, metrics, and stop/start continuing the chain.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keccak256, toHex, utf8 } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEVNET_CONFIG, type DevnetConfig } from "../../src/devnet/config.ts";
import { DevnetMetrics } from "../../src/devnet/metrics.ts";
import { DevnetNode, FAUCET_DEFAULT } from "../../src/devnet/node.ts";
import { type Client, client, post, signedTx, waitFor, waitReceipt } from "./helpers.ts";
import { memoryStates } from "./memory-state.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-rpc-"));
const harness = memoryStates();
let node: DevnetNode;
let url: string;
let wsUrl: string;
let c: Client;
const metrics = new DevnetMetrics();

function config(over: Partial<DevnetConfig> = {}): DevnetConfig {
  return { ...DEFAULT_DEVNET_CONFIG, dataDir: dir, rpcPort: 0, blockTime: { kind: "on-demand" }, ...over };
}

beforeAll(async () => {
  node = await DevnetNode.open(config(), { openState: harness.openState, metrics });
  const urls = await node.start();
  url = urls.http;
  wsUrl = urls.ws;
  c = client(url);
});

afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const hex = toHex;
const acct = (i: number) => {
  const k = node.keys.accounts[i];
  if (k === undefined) throw new Error(`no dev account ${i}`);
  return k;
};

async function balance(i: number): Promise<bigint> {
  return BigInt(await c.ok<string>("cowboy_getBalance", [hex(acct(i).address)]));
}

async function transfer(from: number, to: number, amount: bigint): Promise<Record<string, unknown>> {
  const nonce = BigInt(
    await c.ok<string>("cowboy_getTransactionCount", [hex(acct(from).address), "pending"]),
  );
  const { hex: raw } = signedTx(acct(from), {
    chainId: node.chainId,
    nonce,
    instruction: { kind: "transfer", to: acct(to).address, amount },
  });
  const hash = await c.ok<string>("cowboy_sendRawTransaction", [raw]);
  return waitReceipt(c, hash);
}

describe("chain status", () => {
  it("answers chain id, block number and status", async () => {
    expect(await c.ok("cowboy_chainId")).toBe(`0x${node.chainId.toString(16)}`);
    const n = await c.ok<string>("cowboy_blockNumber");
    expect(n).toMatch(/^0x[0-9a-f]+$/);
    const status = await c.ok<Record<string, unknown>>("cowboy_status");
    expect(status.chainId).toBe(`0x${node.chainId.toString(16)}`);
    expect(status.finalized).toBe((status.head as { number: string }).number);
    expect(status.nextCycleBasefee).toBe("0x2710");
  });

  it("serves the genesis block by tag, number and hash", async () => {
    const earliest = await c.ok<Record<string, unknown>>("cowboy_getBlockByNumber", ["earliest"]);
    expect(earliest.number).toBe("0x0");
    expect(await c.ok("cowboy_getBlockByNumber", ["0x0"])).toEqual(earliest);
    expect(await c.ok("cowboy_getBlockByHash", [earliest.hash])).toEqual(earliest);
    expect(await c.ok("cowboy_getBlockByNumber", ["0xffffff"])).toBeNull();
    expect(await c.ok("cowboy_getBlockByHash", [hex(keccak256(utf8("nope")))])).toBeNull();
  });

  it("prefunds the development accounts", async () => {
    const accounts = await c.ok<Array<{ address: string; balance: string }>>("cowboy_devAccounts");
    expect(accounts).toHaveLength(10);
    expect(accounts[0]?.address).toBe(hex(acct(0).address));
  });
});

describe("transactions", () => {
  it("includes a signed transfer and moves balances exactly by amount and fee", async () => {
    const [a0, b0] = [await balance(1), await balance(2)];
    const receipt = await transfer(1, 2, 12_345n);
    expect(receipt.status).toBe("success");
    expect(receipt.from).toBe(hex(acct(1).address));
    expect(receipt.to).toBe(hex(acct(2).address));
    const fee = BigInt(receipt.feePaid as string);
    expect(fee).toBeGreaterThan(0n);
    expect(await balance(1)).toBe(a0 - 12_345n - fee);
    expect(await balance(2)).toBe(b0 + 12_345n);
    // the receipt's fee is usage × (basefee + tip) of the including block (§2.3)
    const used = BigInt(receipt.cyclesUsed as string);
    const cellsUsed = BigInt(receipt.cellsUsed as string);
    const cb = BigInt(receipt.cycleBasefee as string);
    const bb = BigInt(receipt.cellBasefee as string);
    expect(fee).toBe(used * (cb + 1n) + cellsUsed * (bb + 1n));

    const tx = await c.ok<Record<string, unknown>>("cowboy_getTransactionByHash", [receipt.transactionHash]);
    expect(tx.blockNumber).toBe(receipt.blockNumber);
    expect(tx.from).toBe(hex(acct(1).address));
    expect((tx.instruction as Record<string, unknown>).amount).toBe("0x3039");
    const block = await c.ok<Record<string, unknown>>("cowboy_getBlockByNumber", [receipt.blockNumber, true]);
    expect((block.transactions as Array<{ hash: string }>).map((t) => t.hash)).toContain(
      receipt.transactionHash,
    );
    const byHash = await c.ok<Record<string, unknown>>("cowboy_getBlockByHash", [receipt.blockHash, false]);
    expect(byHash.transactions).toContain(receipt.transactionHash);
    expect(await c.ok("cowboy_getTransactionCount", [hex(acct(1).address)])).toBe("0x1");
  });

  it("refuses invalid transactions with clear codes and leaves the chain unchanged", async () => {
    const head = await c.ok<string>("cowboy_blockNumber");
    const before = await balance(3);
    const nonce = BigInt(await c.ok<string>("cowboy_getTransactionCount", [hex(acct(3).address)]));
    const ix = { kind: "transfer" as const, to: acct(4).address, amount: 1n };
    // wrong chain id
    const wrongChain = signedTx(acct(3), { chainId: node.chainId + 1n, nonce, instruction: ix });
    let a = await c.call("cowboy_sendRawTransaction", [wrongChain.hex]);
    expect(a.error?.code).toBe(-32003);
    expect(a.error?.data?.code).toBe("ERR_TX_CHAIN_ID");
    // tampered bytes: the signature no longer matches
    const good = signedTx(acct(3), { chainId: node.chainId, nonce, instruction: ix });
    const tampered = `${good.hex.slice(0, 10)}${good.hex[10] === "0" ? "1" : "0"}${good.hex.slice(11)}`;
    a = await c.call("cowboy_sendRawTransaction", [tampered]);
    expect(a.error?.code).toBe(-32003);
    // not a transaction at all
    a = await c.call("cowboy_sendRawTransaction", ["0xdeadbeef"]);
    expect(a.error?.code).toBe(-32003);
    expect(a.error?.data?.code).toBe("ERR_TX_DECODE");
    // not hex
    a = await c.call("cowboy_sendRawTransaction", ["deadbeef"]);
    expect(a.error?.code).toBe(-32602);
    // a fee cap below the basefee
    const cheap = signedTx(acct(3), { chainId: node.chainId, nonce, instruction: ix, maxFee: 1n, tip: 0n });
    a = await c.call("cowboy_sendRawTransaction", [cheap.hex]);
    expect(a.error?.code).toBe(-32003);
    // a nonce from the past
    await transfer(3, 4, 1n);
    const stale = signedTx(acct(3), { chainId: node.chainId, nonce, instruction: ix });
    a = await c.call("cowboy_sendRawTransaction", [stale.hex]);
    expect(a.error?.code).toBe(-32003);
    expect(String(a.error?.data?.code)).toMatch(/NONCE/);
    // nothing but the one good transfer happened
    expect(BigInt(await c.ok<string>("cowboy_blockNumber"))).toBe(BigInt(head) + 1n);
    expect(await balance(3)).toBeLessThan(before);
    expect(await balance(3)).toBeGreaterThan(before - 1_000_000_000n);
  });

  it("answers null for unknown transactions and receipts", async () => {
    const h = hex(keccak256(utf8("unknown tx")));
    expect(await c.ok("cowboy_getTransactionByHash", [h])).toBeNull();
    expect(await c.ok("cowboy_getTransactionReceipt", [h])).toBeNull();
  });
});

describe("fees and simulation", () => {
  it("gives a fee history with both basefees, one more than blocks", async () => {
    const h = await c.ok<Record<string, unknown>>("cowboy_feeHistory", [3, "latest"]);
    const blocks = (h.cyclesUsed as string[]).length;
    expect(blocks).toBeGreaterThan(0);
    expect((h.cycleBasefee as string[]).length).toBe(blocks + 1);
    expect((h.cellBasefee as string[]).length).toBe(blocks + 1);
    expect((h.cyclesUsedRatio as number[]).length).toBe(blocks);
    const bad = await c.call("cowboy_feeHistory", [0]);
    expect(bad.error?.code).toBe(-32602);
    expect((await c.call("cowboy_feeHistory", ["0x3"])).error?.code).toBe(-32602);
  });

  it("estimates the fee of an encoded transfer", async () => {
    const { hex: raw } = signedTx(acct(5), {
      chainId: node.chainId,
      nonce: 0n,
      instruction: { kind: "transfer", to: acct(6).address, amount: 5n },
    });
    const e = await c.ok<Record<string, string>>("cowboy_estimateFee", [raw]);
    expect(BigInt(e.cyclesUsed as string)).toBe(21_000n);
    expect(BigInt(e.cyclesLimit as string)).toBeGreaterThanOrEqual(21_000n);
    expect(BigInt(e.maxFeePerCycle as string)).toBe(2n * BigInt(e.cycleBasefee as string));
    expect(BigInt(e.maxCharge as string)).toBe(
      BigInt(e.cyclesLimit as string) * BigInt(e.maxFeePerCycle as string) +
        BigInt(e.cellsLimit as string) * BigInt(e.maxFeePerCell as string),
    );
    expect((await c.call("cowboy_estimateFee", ["0x00"])).error?.code).toBe(-32602);
    expect((await c.call("cowboy_estimateFee", [42])).error?.code).toBe(-32602);
  });

  it("validates call objects", async () => {
    const to = hex(acct(0).address);
    expect((await c.call("cowboy_call", [{ to }])).error?.message).toMatch(/missing field "handler"/);
    expect((await c.call("cowboy_call", [{ to, handler: "1bad" }])).error?.code).toBe(-32602);
    expect((await c.call("cowboy_call", [{ to, handler: "go", extra: 1 }])).error?.message).toMatch(
      /unknown field/,
    );
    // a call to a plain account is simulated and fails without changing anything
    const r = await c.ok<Record<string, unknown>>("cowboy_call", [{ to, handler: "go" }]);
    expect(r.ok).toBe(false);
    expect(r.fee).toBeTypeOf("object");
  });
});

describe("state reads", () => {
  it("reads balances at block tags and refuses future blocks", async () => {
    const addr = hex(acct(7).address);
    expect(await c.ok("cowboy_getBalance", [addr, "earliest"])).toBe(await c.ok("cowboy_getBalance", [addr]));
    expect(await c.ok("cowboy_getBalance", [addr, "finalized"])).toBe(
      await c.ok("cowboy_getBalance", [addr]),
    );
    const future = await c.call("cowboy_getBalance", [addr, "0xfffffff"]);
    expect(future.error?.code).toBe(-32001);
    expect((await c.call("cowboy_getBalance", ["0x1234"])).error?.code).toBe(-32602);
    expect((await c.call("cowboy_getBalance", [addr, "0x01"])).error?.code).toBe(-32602);
    expect((await c.call("cowboy_getBalance", [])).error?.message).toMatch(/missing parameter 0 \(address\)/);
    expect(await c.ok("cowboy_getBalance", { address: addr })).toMatch(/^0x/);
    expect(await c.ok("cowboy_getCode", [addr])).toBe("0x");
  });

  it("validates storage reads", async () => {
    const addr = hex(acct(7).address);
    expect((await c.call("cowboy_getStorageAt", [addr, "0x"])).error).toBeDefined();
    expect((await c.call("cowboy_getStorageAt", [addr, "zz"])).error?.code).toBe(-32602);
    // no timer listing in the STF yet: the method is not served
    expect((await c.call("cowboy_getTimers", [addr])).error?.code).toBe(-32601);
  });
});

describe("events", () => {
  it("requires emitters and a sane range", async () => {
    expect((await c.call("cowboy_getLogs", [{}])).error?.message).toMatch(/address/);
    const addr = hex(acct(0).address);
    expect(await c.ok("cowboy_getLogs", [{ address: addr, fromBlock: "earliest" }])).toEqual([]);
    expect(
      (await c.call("cowboy_getLogs", [{ address: addr, fromBlock: "latest", toBlock: "earliest" }])).error
        ?.code,
    ).toBe(-32602);
    expect((await c.call("cowboy_getLogs", [{ address: [], fromBlock: "earliest" }])).error?.code).toBe(
      -32602,
    );
  });
});

describe("protocol", () => {
  it("answers malformed JSON, unknown methods, bad requests and batches", async () => {
    let r = await post(url, "{not json");
    expect((r.json as { error: { code: number } }).error.code).toBe(-32700);
    expect((await c.call("cowboy_nope")).error?.code).toBe(-32601);
    r = await post(url, JSON.stringify({ jsonrpc: "1.0", id: 1, method: "cowboy_chainId" }));
    expect((r.json as { error: { code: number } }).error.code).toBe(-32600);
    r = await post(
      url,
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "cowboy_chainId" },
        { jsonrpc: "2.0", id: 2, method: "cowboy_nope" },
        { jsonrpc: "2.0", method: "cowboy_blockNumber" },
      ]),
    );
    const batch = r.json as Array<{ id: number; result?: string; error?: { code: number } }>;
    expect(batch.map((x) => x.id)).toEqual([1, 2]);
    expect(batch[0]?.result).toBe(`0x${node.chainId.toString(16)}`);
    expect(batch[1]?.error?.code).toBe(-32601);
  });

  it("refuses oversized bodies with 413", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "cowboy_sendRawTransaction",
      params: [`0x${"00".repeat(3 * 1024 * 1024)}`],
    });
    const r = await post(url, huge);
    expect(r.status).toBe(413);
    expect((r.json as { error: { code: number } }).error.code).toBe(-32005);
  });

  it("serves Prometheus metrics", async () => {
    const text = await (await fetch(`${url}metrics`)).text();
    expect(text).toMatch(/# TYPE cowboy_block_height gauge/);
    expect(text).toMatch(/cowboy_basefee\{meter="cycle"\} 10000/);
    expect(text).toMatch(/cowboy_block_execution_seconds_count [1-9]/);
    expect(text).toMatch(/cowboy_mempool_transactions 0/);
  });
});

describe("subscriptions", () => {
  it("delivers pending transactions and new heads over WebSocket", async () => {
    const ws = new WebSocket(wsUrl);
    const messages: Array<Record<string, unknown>> = [];
    ws.addEventListener("message", (e) => messages.push(JSON.parse(String(e.data))));
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve());
      ws.addEventListener("error", () => reject(new Error("WebSocket error")));
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "cowboy_subscribe", params: ["newHeads"] }));
    ws.send(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "cowboy_subscribe", params: ["pendingTransactions"] }),
    );
    ws.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "cowboy_subscribe",
        params: ["logs", { address: hex(acct(0).address) }],
      }),
    );
    const ids = await waitFor(async () => {
      const answers = messages.filter((m) => m.id !== undefined);
      return answers.length === 3 ? answers.map((m) => m.result as string) : null;
    });
    const receipt = await transfer(8, 9, 1n);
    const heads = await waitFor(async () => {
      const got = messages.filter(
        (m) => (m.params as { subscription?: string } | undefined)?.subscription === ids[0],
      );
      return got.length > 0 ? got : null;
    });
    const head = (heads[heads.length - 1] as { params: { result: Record<string, unknown> } }).params.result;
    expect(head.number).toBe(receipt.blockNumber);
    expect(head.transactionCount).toBe("0x1");
    const pending = messages.filter(
      (m) => (m.params as { subscription?: string } | undefined)?.subscription === ids[1],
    );
    expect(pending.map((m) => (m.params as { result: string }).result)).toContain(receipt.transactionHash);
    ws.close();
  });

  it("refuses subscriptions over HTTP", async () => {
    expect((await c.call("cowboy_subscribe", ["newHeads"])).error?.code).toBe(-32601);
    expect((await c.call("cowboy_subscribe", ["nope"])).error?.code).toBe(-32602);
  });
});

describe("faucet", () => {
  it("sends coins to a new address and rate-limits per recipient", async () => {
    const to = hex(keccak256(utf8("faucet recipient")).slice(12));
    const hash = await c.ok<string>("cowboy_faucet", [to]);
    const receipt = await waitReceipt(c, hash);
    expect(receipt.status).toBe("success");
    expect(BigInt(await c.ok<string>("cowboy_getBalance", [to]))).toBe(FAUCET_DEFAULT);
    expect((await c.call("cowboy_faucet", [to, "0x0"])).error?.code).toBe(-32602);
    expect((await c.call("cowboy_faucet", [to, "0xffffffffffffffff"])).error?.code).toBe(-32602);
    let limited = false;
    for (let i = 0; i < 6 && !limited; i++) {
      const a = await c.call("cowboy_faucet", [to, "0x1"]);
      if (a.error !== undefined) {
        expect(a.error, JSON.stringify(a.error)).toMatchObject({ code: -32005 });
        limited = true;
      }
    }
    expect(limited).toBe(true);
  });
});

describe("restart", () => {
  it("continues the same chain after stop and open", async () => {
    await transfer(0, 1, 7n);
    const head = await c.ok<Record<string, unknown>>("cowboy_getBlockByNumber", ["latest"]);
    const bal = await balance(1);
    await node.stop();
    node = await DevnetNode.open(config(), { openState: harness.openState });
    const urls = await node.start();
    url = urls.http;
    wsUrl = urls.ws;
    c = client(url);
    expect(await c.ok("cowboy_getBlockByNumber", ["latest"])).toEqual(head);
    expect(await balance(1)).toBe(bal);
    const r = await transfer(0, 1, 8n);
    expect(BigInt(r.blockNumber as string)).toBe(BigInt(head.number as string) + 1n);
    expect(await balance(1)).toBe(bal + 8n);
  });
});

describe("mempool over RPC", () => {
  it("queues, replaces by higher fee, refuses underpriced replacements, and includes on the next block", async () => {
    const dir2 = mkdtempSync(join(tmpdir(), "cowboy-devnet-pool-"));
    const slow = await DevnetNode.open(
      config({ dataDir: dir2, blockTime: { kind: "interval", ms: 3_600_000 } }),
      {
        openState: memoryStates().openState,
      },
    );
    try {
      const k = client((await slow.start()).http);
      const from = slow.keys.accounts[0];
      const to = slow.keys.accounts[1];
      if (from === undefined || to === undefined) throw new Error("dev accounts");
      const ix = { kind: "transfer" as const, to: to.address, amount: 10n };
      const first = signedTx(from, {
        chainId: slow.chainId,
        nonce: 0n,
        instruction: ix,
        maxFee: 20_000n,
        tip: 10n,
      });
      const h1 = await k.ok<string>("cowboy_sendRawTransaction", [first.hex]);
      // a second transaction queued behind it (nonce 1)
      const second = signedTx(from, { chainId: slow.chainId, nonce: 1n, instruction: ix });
      const h2 = await k.ok<string>("cowboy_sendRawTransaction", [second.hex]);
      expect(await k.ok("cowboy_getTransactionCount", [hex(from.address), "pending"])).toBe("0x2");
      expect(await k.ok("cowboy_getTransactionCount", [hex(from.address)])).toBe("0x0");
      const pending = await k.ok<Record<string, unknown>>("cowboy_getTransactionByHash", [h1]);
      expect(pending.blockNumber).toBeNull();
      expect((await k.ok<Record<string, string>>("cowboy_status")).pendingTransactions).toBe("0x2");
      // the same transaction again, and a replacement that does not raise every fee by 10%
      expect((await k.call("cowboy_sendRawTransaction", [first.hex])).error?.data?.code).toBe(
        "ERR_MEMPOOL_DUPLICATE",
      );
      const weak = signedTx(from, {
        chainId: slow.chainId,
        nonce: 0n,
        instruction: ix,
        maxFee: 21_000n,
        tip: 10n,
      });
      const refused = await k.call("cowboy_sendRawTransaction", [weak.hex]);
      expect(refused.error?.code).toBe(-32003);
      expect(refused.error?.data?.code).toBe("ERR_MEMPOOL_REPLACEMENT_UNDERPRICED");
      // a proper replacement takes nonce 0's place
      const better = signedTx(from, {
        chainId: slow.chainId,
        nonce: 0n,
        instruction: ix,
        maxFee: 30_000n,
        tip: 20n,
      });
      const h3 = await k.ok<string>("cowboy_sendRawTransaction", [better.hex]);
      expect(await k.ok("cowboy_getTransactionByHash", [h1])).toBeNull();
      await slow.produce();
      const r3 = await k.ok<Record<string, unknown>>("cowboy_getTransactionReceipt", [h3]);
      const r2 = await k.ok<Record<string, unknown>>("cowboy_getTransactionReceipt", [h2]);
      expect(r3.status).toBe("success");
      expect(r2.blockNumber).toBe(r3.blockNumber);
      expect(Number(r2.transactionIndex)).toBeGreaterThan(Number(r3.transactionIndex));
      expect(await k.ok("cowboy_getTransactionReceipt", [h1])).toBeNull();
      expect((await k.ok<Record<string, string>>("cowboy_status")).pendingTransactions).toBe("0x0");
    } finally {
      await slow.stop();
      rmSync(dir2, { recursive: true, force: true });
    }
  });
});
