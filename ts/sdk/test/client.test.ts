/**
 * The RPC client against the real RPC modules of ts/rpc over HTTP and WebSocket
 * (an in-memory chain behind them, test/client-fixture.ts): transports, batching,
 * typed errors, every PublicClient read, WalletClient sends of each instruction
 * with nonce and fee filling, receipts, proofs, subscriptions and reconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ActorCallError,
  actorAddress,
  addressFromSecretKey,
  argsFromJson,
  bytesEqual,
  CborFloat,
  CborMap,
  CborSet,
  canonicalizeSource,
  createPublicClient,
  createWalletClient,
  decodeCbor,
  decodeTopics,
  decodeTransaction,
  defaultDeploySalt,
  encodeArgs,
  encodeCbor,
  encodeTopics,
  formatValue,
  fromHex,
  HttpTransport,
  PublicClient,
  parseValueJson,
  ResponseShapeError,
  RpcRequestError,
  resultToJson,
  StateProofError,
  TransportError,
  toHex,
  utf8,
  verifyTransaction,
  WaitTimeoutError,
  WebSocketTransport,
} from "../src/index.ts";
import { CHAIN_ID, EMPTY_ROOT, type MiniChain, startMiniNode } from "./client-fixture.ts";

let node: Awaited<ReturnType<typeof startMiniNode>>;
let chain: MiniChain;
const KEY = fromHex(`0x${"42".repeat(32)}`);
const ME = addressFromSecretKey(KEY);
const OTHER = fromHex(`0x${"22".repeat(20)}`);
const ACTOR = fromHex(`0x${"ac".repeat(20)}`);

beforeAll(async () => {
  node = await startMiniNode();
  chain = node.chain;
  chain.fund(ME, 10n ** 15n);
});
afterAll(async () => {
  await node.close();
});

describe("transports", () => {
  it("HTTP batches concurrent requests into one body and matches answers by id", async () => {
    let bodies = 0;
    const counting: typeof fetch = (input, init) => {
      bodies++;
      return fetch(input, init);
    };
    const c = createPublicClient({ transport: new HttpTransport(node.http, { fetch: counting }) });
    const [id, height, bal] = await Promise.all([c.getChainId(), c.getBlockNumber(), c.getBalance(ME)]);
    expect(bodies).toBe(1);
    expect(id).toBe(CHAIN_ID);
    expect(height).toBe(BigInt(chain.blocks.length - 1));
    expect(bal).toBe(chain.account(ME).balance);
  });

  it("HTTP without batching sends one body per request", async () => {
    let bodies = 0;
    const t = new HttpTransport(node.http, {
      batch: false,
      fetch: (i, init) => {
        bodies++;
        return fetch(i, init);
      },
    });
    await Promise.all([t.request("cowboy_chainId", []), t.request("cowboy_blockNumber", [])]);
    expect(bodies).toBe(2);
  });

  it("errors are typed: method not found, invalid params, node reasons", async () => {
    const c = createPublicClient({ transport: node.http });
    const e1 = await rejected(c.request("cowboy_nope", []));
    expect(e1).toBeInstanceOf(RpcRequestError);
    expect(e1.code).toBe(-32601);
    expect(e1.errCode).toBe("ERR_RPC_METHOD_NOT_FOUND");
    const e2 = await rejected(c.request("cowboy_getBalance", ["0x12"]));
    expect(e2.code).toBe(-32602);
    expect(e2.message).toMatch(/address/);
    const e3 = await rejected(c.sendRawTransaction(Uint8Array.of(1, 2, 3)));
    expect(e3).toBeInstanceOf(RpcRequestError);
    expect(e3.reason).toBe("ERR_TX_INVALID");
    expect(e3.errCode).toBe("ERR_TX_INVALID");
  });

  it("an unreachable node is a network TransportError with the fix", async () => {
    const c = createPublicClient({ transport: "http://127.0.0.1:9/" });
    const err = await rejected(c.getBlockNumber());
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/cowboy devnet/);
  });

  it("a slow node is a timeout TransportError", async () => {
    const never: typeof fetch = (_i, init) =>
      new Promise((_r, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    const t = new HttpTransport("http://example.invalid/", { fetch: never, timeoutMs: 30 });
    const err = await rejected(t.request("cowboy_chainId", []));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe("timeout");
  });

  it("a whole-body error (HTTP 413) fails every request of the body", async () => {
    const t = new HttpTransport(node.http);
    const big = `0x${"00".repeat(3 * 1024 * 1024)}`;
    const err = await rejected(t.request("cowboy_sendRawTransaction", [big]));
    expect(err).toBeInstanceOf(RpcRequestError);
    expect(err.code).toBe(-32005);
  });

  it("a response of the wrong shape is a ResponseShapeError naming the field", async () => {
    const liar: typeof fetch = async (_i, init) =>
      new Response(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(String(init?.body)).id, result: 12 }));
    const c = new PublicClient({ transport: new HttpTransport("http://x.invalid/", { fetch: liar }) });
    const err = await rejected(c.getBlockNumber());
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/cowboy_blockNumber: expected a hex quantity, got 12/);
  });

  it("WebSocket requests, and subscriptions survive a reconnect", async () => {
    const sockets: WebSocket[] = [];
    const t = new WebSocketTransport(node.ws, {
      reconnectDelayMs: 10,
      webSocket: (u) => {
        const ws = new WebSocket(u);
        sockets.push(ws);
        return ws as never;
      },
    });
    const c = createPublicClient({ transport: t });
    expect(await c.getChainId()).toBe(CHAIN_ID);
    const heads: bigint[] = [];
    const sub = await c.watchBlocks((b) => heads.push(b.number));
    const firstId = sub.id;
    chain.mine();
    await until(() => heads.length === 1);
    const reconnected = new Promise<void>((r) => {
      t.onReconnect = r;
    });
    sockets[0]?.close();
    await reconnected;
    expect(sockets.length).toBe(2);
    expect(sub.id).not.toBe(firstId);
    chain.mine();
    await until(() => heads.length === 2);
    expect((heads[1] as bigint) - (heads[0] as bigint)).toBe(1n);
    expect(await sub.unsubscribe()).toBe(true);
    await c.close();
  });

  it("subscriptions need a WebSocket", async () => {
    const c = createPublicClient({ transport: node.http });
    expect(() => c.watchBlocks(() => {})).toThrow(/WebSocket/);
  });
});

/** The error `p` rejects with (fails the test when it resolves). */
// biome-ignore lint/suspicious/noExplicitAny: tests inspect the typed error's fields
async function rejected(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject");
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("PublicClient reads", () => {
  it("blocks by number, tag and hash, with or without transactions", async () => {
    const c = createPublicClient({ transport: node.http });
    const latest = await c.getBlock();
    expect(latest).not.toBeNull();
    const byHash = await c.getBlock({ hash: latest?.hash as Uint8Array });
    expect(byHash?.number).toBe(latest?.number);
    const genesis = await c.getBlock({ number: 0n });
    expect(genesis?.number).toBe(0n);
    expect(genesis?.cycleBasefee).toBe(10n);
    expect(bytesEqual(genesis?.stateRoot as Uint8Array, EMPTY_ROOT)).toBe(true);
    expect(await c.getBlock({ number: 10_000n })).toBeNull();
    expect(await c.getBlock({ hash: new Uint8Array(32) })).toBeNull();
  });

  it("status, fee history, dev accounts, faucet", async () => {
    const c = createPublicClient({ transport: node.http });
    const s = await c.getStatus();
    expect(s.chainId).toBe(CHAIN_ID);
    expect(s.nextCycleBasefee).toBe(10n);
    const h = await c.getFeeHistory(2);
    expect(h.cycleBasefee.length).toBe(h.cyclesUsedRatio.length + 1);
    expect(h.cycleBasefee.at(-1)).toBe(10n);
    const devs = await c.getDevAccounts();
    expect(devs.length).toBe(1);
    const fresh = fromHex(`0x${"5a".repeat(20)}`);
    const hash = await c.requestFaucet(fresh, 1234n);
    expect(hash.length).toBe(32);
    expect(await c.getBalance(fresh)).toBe(1234n);
  });

  it("simulated calls decode results and report failures", async () => {
    const c = createPublicClient({ transport: node.http });
    const r = await c.call({ to: ACTOR, handler: "echo", args: encodeArgs([1n, "a"]) });
    expect(r.ok).toBe(true);
    expect(r.cyclesUsed).toBe(5000n);
    expect(r.fee?.cyclesLimit).toBe(7500n);
    expect(decodeCbor(r.returnData)).toEqual([1n, "a"]);
    expect(await c.readActor({ to: ACTOR, handler: "echo", args: encodeArgs([true]) })).toEqual([true]);
    const bad = await rejected(c.readActor({ to: ACTOR, handler: "fail", args: encodeArgs() }));
    expect(bad).toBeInstanceOf(ActorCallError);
    expect(bad.type).toBe("ValueError");
    expect(bad.message).toBe("fail: ValueError: told to fail");
  });

  it("estimates fees of call objects and of transactions", async () => {
    const c = createPublicClient({ transport: node.http });
    const call = await c.estimateFee({ to: ACTOR, handler: "echo", args: encodeArgs([]) });
    expect(call.cyclesUsed).toBe(5000n);
    expect(call.maxCharge).not.toBeNull();
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    const tx = await w.prepareTransaction(
      { kind: "transfer", to: OTHER, amount: 1n },
      { cyclesLimit: 1n, cellsLimit: 1n, maxFeePerCycle: 1n, maxFeePerCell: 1n },
    );
    const est = await c.estimateFee(tx);
    expect(est.cyclesUsed).toBe(21_000n);
    expect(est.fee).toBe(21_100n * 11n);
  });

  it("storage and account reads verify their state proofs", async () => {
    const c = createPublicClient({ transport: node.http });
    const v = await c.getStorageAt(ACTOR, encodeCbor("count"));
    expect(v.value).toBeNull();
    expect(bytesEqual(v.stateRoot, EMPTY_ROOT)).toBe(true);
    expect(await c.readStorage(ACTOR, "count")).toBeUndefined();
    expect(await c.getProvenAccount(OTHER)).toBeNull();
    chain.lieAboutStorage = true;
    try {
      const err = await rejected(c.getStorageAt(ACTOR, encodeCbor("count")));
      expect(err).toBeInstanceOf(ResponseShapeError);
      expect(err.message).toMatch(/claimed value differs from the proven one/);
    } finally {
      chain.lieAboutStorage = false;
    }
  });

  it("a proof under a different root is rejected", async () => {
    // The node's block header says EMPTY_ROOT; a proof must verify under it. Swap the
    // header's root by pointing the client at a node whose blocks carry another root.
    const c = createPublicClient({ transport: node.http });
    const genesis = chain.blocks[0];
    const saved = genesis?.view.block.header.stateRoot as Uint8Array;
    (genesis?.view.block.header as { stateRoot: Uint8Array }).stateRoot = new Uint8Array(32).fill(9);
    try {
      const err = await rejected(c.getStorageAt(ACTOR, utf8("k"), 0n));
      expect(err instanceof ResponseShapeError || err instanceof StateProofError).toBe(true);
    } finally {
      (genesis?.view.block.header as { stateRoot: Uint8Array }).stateRoot = saved;
    }
  });

  it("timers", async () => {
    const c = createPublicClient({ transport: node.http });
    const timers = await c.getTimers(ACTOR);
    expect(timers[0]?.handler).toBe("tick");
    expect(timers[0]?.interval).toBe(5n);
    expect(timers[0]?.fireAt).toBe(10n);
  });
});

describe("WalletClient", () => {
  it("fills chain id, nonce, limits and fees, signs, sends and waits", async () => {
    chain.autoMine = true;
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    expect(bytesEqual(w.address, ME)).toBe(true);
    const before = await w.getBalance(OTHER);
    const sent = await w.transfer(OTHER, 5n);
    expect(sent.transaction.chainId).toBe(CHAIN_ID);
    expect(sent.transaction.cyclesLimit).toBe(31_500n); // estimate 21,000 × 1.5
    expect(sent.transaction.maxFeePerCycle).toBe(21n);
    expect(verifyTransaction(decodeTransaction(sent.raw))).toBe(true);
    const receipt = await w.waitForTransactionReceipt(sent.hash, { timeoutMs: 5000, pollIntervalMs: 10 });
    expect(receipt.status).toBe("success");
    expect(bytesEqual(receipt.from as Uint8Array, ME)).toBe(true);
    expect(receipt.feePaid).toBe(211_000n);
    expect(await w.getBalance(OTHER)).toBe(before + 5n);
    const tx = await w.getTransaction(sent.hash);
    expect(tx?.blockNumber).toBe(receipt.blockNumber);
    expect(bytesEqual(tx?.transaction.signature as Uint8Array, sent.transaction.signature)).toBe(true);
  });

  it("falls back to the next basefees when the node cannot estimate", async () => {
    chain.autoMine = true;
    // a node without cowboy_estimateFee: the request is renamed on its way
    const noEstimate: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        body: String(init?.body).replaceAll("cowboy_estimateFee", "cowboy_noSuchMethod"),
      });
    const w = createWalletClient({
      transport: new HttpTransport(node.http, { fetch: noEstimate }),
      secretKey: KEY,
      fallbackLimits: { cycles: 60_000n, cells: 600n },
    });
    const sent = await w.transfer(OTHER, 1n, { maxPriorityFeePerCycle: 3n });
    expect(sent.transaction.cyclesLimit).toBe(60_000n);
    expect(sent.transaction.cellsLimit).toBe(600n);
    expect(sent.transaction.maxFeePerCycle).toBe(23n); // 2 × basefee 10 + tip 3
    expect(sent.transaction.maxFeePerCell).toBe(20n);
    const r = await w.waitForTransactionReceipt(sent.hash, { pollIntervalMs: 10 });
    expect(r.status).toBe("success");
  });

  it("sends in a row use consecutive nonces", async () => {
    chain.autoMine = false;
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    const a = await w.transfer(OTHER, 1n);
    const b = await w.transfer(OTHER, 1n);
    expect(b.transaction.nonce).toBe(a.transaction.nonce + 1n);
    chain.mine();
    const r = await w.waitForTransactionReceipt(b.hash, { timeoutMs: 2000, pollIntervalMs: 10 });
    expect(r.transactionIndex).toBe(1n);
  });

  it("a nonce the node refuses surfaces the node's reason", async () => {
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    const err = await rejected(w.transfer(OTHER, 1n, { nonce: 0n }));
    expect(err).toBeInstanceOf(RpcRequestError);
    expect(err.reason).toBe("ERR_MEMPOOL_NONCE_TOO_LOW");
  });

  it("deploys an actor at the address computed in advance and calls it", async () => {
    chain.autoMine = true;
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    const source = "class Counter:\r\n    pass\r\n";
    const nonce = await w.getNextNonce();
    const d = await w.deployActor(source, { args: [1n], wait: { pollIntervalMs: 10 } });
    expect(
      bytesEqual(d.address, actorAddress(ME, defaultDeploySalt(nonce), canonicalizeSource(source))),
    ).toBe(true);
    expect(bytesEqual(d.receipt.contractAddress as Uint8Array, d.address)).toBe(true);
    expect(await w.getCode(d.address)).toEqual(canonicalizeSource(source));
    const ix = d.transaction.instruction;
    expect(ix.kind === "deploy" && bytesEqual(ix.initArgs, encodeArgs([1n]))).toBe(true);
    const c = await w.callActor(d.address, "echo", [7n, "x"], { wait: { pollIntervalMs: 10 } });
    expect(c.result).toEqual([7n, "x"]);
    const f = await rejected(w.callActor(d.address, "fail", [], { wait: { pollIntervalMs: 10 } }));
    expect(f).toBeInstanceOf(ActorCallError);
    expect(f.type).toBe("ValueError");
    expect(f.result.status).toBe("reverted");
  });

  it("every instruction kind can be sent", async () => {
    chain.autoMine = true;
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    const sent = [
      await w.scheduleTimer(ACTOR, 100n, "tick", encodeCbor([]), 10n),
      await w.cancelTimer(ACTOR, new Uint8Array(32).fill(1)),
      await w.publishLibrary("mylib", 1n, "x = 1\n"),
      await w.custom(9, Uint8Array.of(1, 2)),
      await w.sendCall(ACTOR, "emit", ["hi"]),
    ];
    for (const s of sent) {
      const r = await w.waitForTransactionReceipt(s.hash, { pollIntervalMs: 10 });
      expect(r.status).toBe("success");
    }
    const events = await w.getLogs({ address: ACTOR, fromBlock: 0n });
    expect(events.some((e) => e.name === "Ping" && bytesEqual(e.topic, encodeTopics("Ping")))).toBe(true);
  });

  it("waitForTransactionReceipt times out with a typed error", async () => {
    const c = createPublicClient({ transport: node.http });
    const err = await rejected(
      c.waitForTransactionReceipt(new Uint8Array(32).fill(7), { timeoutMs: 50, pollIntervalMs: 10 }),
    );
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err.errCode).toBe("ERR_RPC_WAIT_TIMEOUT");
  });

  it("events and pending transactions arrive over subscriptions", async () => {
    chain.autoMine = true;
    const c = createPublicClient({ transport: node.ws });
    const w = createWalletClient({ transport: node.http, secretKey: KEY });
    const events: string[] = [];
    const pending: string[] = [];
    const s1 = await c.watchEvents({ address: ACTOR }, (e) => events.push(toHex(e.data)));
    const s2 = await c.watchPendingTransactions((h) => pending.push(toHex(h)));
    const sent = await w.sendCall(ACTOR, "emit", [42n]);
    await until(() => events.length === 1 && pending.length === 1);
    expect(events[0]).toBe(toHex(encodeArgs([42n])));
    expect(pending[0]).toBe(toHex(sent.hash));
    await s1.unsubscribe();
    await s2.unsubscribe();
    await c.close();
  });
});

describe("values", () => {
  it("JSON arguments keep big integers exact and map to CBOR", () => {
    const big = "1180591620717411303424"; // 2**70
    expect(argsFromJson(`[${big}, 1.5, "s", true, null, {"$bytes": "0x01ff"}, {"a": [1]}]`)).toEqual(
      encodeArgs([2n ** 70n, new CborFloat(1.5), "s", true, null, Uint8Array.of(1, 255), { a: [1n] }]),
    );
    expect(parseValueJson('{"$set": [2, 1]}')).toBeInstanceOf(CborSet);
    expect(parseValueJson('{"$map": [[1, "one"]]}')).toBeInstanceOf(Map);
    expect(() => argsFromJson('{"a": 1}')).toThrow(/must be a JSON array/);
    expect(() => parseValueJson("[1,")).toThrow(/position/);
    expect(() => parseValueJson('{"a":1,"a":2}')).toThrow(/duplicate key/);
    expect(() => parseValueJson("[01]")).toThrow();
  });

  it("results convert to JSON and to Python-like text", () => {
    const bytes = encodeCbor({ count: 3, big: 2n ** 70n, raw: Uint8Array.of(0x41, 0x00) });
    expect(resultToJson(bytes)).toEqual({
      big: { $int: "1180591620717411303424" },
      count: 3,
      raw: { $bytes: "0x4100" },
    });
    const v = decodeCbor(bytes);
    expect(v).toBeInstanceOf(CborMap);
    expect(formatValue(v)).toBe("{'big': 1180591620717411303424, 'raw': b'A\\x00', 'count': 3}"); // canonical key order: shorter encodings first
    expect(formatValue(decodeCbor(encodeCbor([new CborFloat(2), null, false])))).toBe("[2.0, None, False]");
    expect(resultToJson(new Uint8Array(0))).toBeNull();
  });
});

describe("event topics", () => {
  it("split and join the node's length-prefixed topic field", () => {
    const field = encodeTopics("Transfer", Uint8Array.of(0xaa, 0xbb));
    expect(toHex(field)).toBe("0x00085472616e736665720002aabb");
    expect(decodeTopics(field)).toEqual([utf8("Transfer"), Uint8Array.of(0xaa, 0xbb)]);
    expect(decodeTopics(Uint8Array.of(0x00, 0x05, 0x41))).toBeNull(); // length beyond the field
    expect(decodeTopics(new Uint8Array(0))).toBeNull();
  });
});

describe("failures", () => {
  it("parse the node's code, the exception type and the message", async () => {
    const { parseFailure } = await import("../src/index.ts");
    expect(parseFailure("ERR_EXEC_HANDLER: ValueError: by must be positive")).toEqual({
      code: "ERR_EXEC_HANDLER",
      type: "ValueError",
      detail: "by must be positive",
    });
    expect(parseFailure("ERR_EXEC_NOT_ACTOR: 0xab is not an actor")).toEqual({
      code: "ERR_EXEC_NOT_ACTOR",
      type: "ERR_EXEC_NOT_ACTOR",
      detail: "0xab is not an actor",
    });
    expect(parseFailure("ValueError: told to fail")).toEqual({
      code: null,
      type: "ValueError",
      detail: "told to fail",
    });
    expect(parseFailure("ERR_EXEC_OUT_OF_CYCLES: OutOfCycles")).toEqual({
      code: "ERR_EXEC_OUT_OF_CYCLES",
      type: "OutOfCycles",
      detail: "",
    });
    expect(parseFailure("something odd", "reverted")).toEqual({
      code: null,
      type: "reverted",
      detail: "something odd",
    });
  });
});
