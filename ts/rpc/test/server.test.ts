import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { method, p, RpcDispatcher, RpcServer, SubscriptionHub } from "../src/index.ts";

const hub = new SubscriptionHub({
  maxPerConnection: 2,
  eventFilter: (raw) => {
    const topic = (raw as { topic?: string }).topic;
    return (item) => (item as { topic: string }).topic === topic;
  },
});
const echo = { methods: () => ({ test_echo: method("echo", [p.quantity("n")], ([n]) => String(n)) }) };
const server = new RpcServer(
  { dispatcher: new RpcDispatcher([echo, hub]) },
  { port: 0, maxRequestBytes: 4096, rateLimit: { perSecond: 1, burst: 20 } },
);
let urls: { http: string; ws: string };

beforeAll(async () => {
  urls = await server.start();
});
afterAll(async () => {
  await server.close();
});

async function post(body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(urls.http, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? null : JSON.parse(text) };
}

function openSocket(): Promise<{ ws: WebSocket; next: () => Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(urls.ws);
    const queue: unknown[] = [];
    const waiters: Array<(v: unknown) => void> = [];
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data));
      const w = waiters.shift();
      if (w) w(msg);
      else queue.push(msg);
    };
    ws.onerror = reject;
    ws.onopen = () =>
      resolve({
        ws,
        next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r))),
      });
  });
}

describe("RpcServer over HTTP", () => {
  it("answers a request", async () => {
    const { status, json } = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "test_echo", params: ["0x2a"] }),
    );
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: "2.0", id: 1, result: "42" });
  });

  it("answers malformed JSON with a parse error", async () => {
    const { json } = await post("{oops");
    expect((json as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("refuses an oversized body with 413 and a JSON-RPC error", async () => {
    const { status, json } = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "test_echo", params: ["x".repeat(5000)] }),
    );
    expect(status).toBe(413);
    expect((json as { error: { code: number } }).error.code).toBe(-32005);
  });

  it("refuses subscriptions over HTTP", async () => {
    const { json } = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "cowboy_subscribe", params: ["newHeads"] }),
    );
    expect((json as { error: { message: string } }).error.message).toMatch(/WebSocket/);
  });

  it("rate-limits a client that exceeds its budget", async () => {
    // burst 20 at 1/s: a batch of 25 cannot fit
    const batch = Array.from({ length: 25 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "test_echo",
      params: ["0x1"],
    }));
    const { status } = await post(JSON.stringify(batch));
    expect(status).toBe(429);
  });
});

describe("RpcServer over WebSocket", () => {
  it("serves requests and delivers filtered subscriptions until unsubscribed", async () => {
    const { ws, next } = await openSocket();
    ws.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "cowboy_subscribe",
        params: ["events", { topic: "a" }],
      }),
    );
    const sub = (await next()) as { result: string };
    expect(sub.result).toMatch(/^0x[0-9a-f]+$/);
    hub.publish("events", { topic: "b", n: 1 });
    hub.publish("events", { topic: "a", n: 2 });
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      method: "cowboy_subscription",
      params: { subscription: sub.result, result: { topic: "a", n: 2 } },
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "cowboy_unsubscribe", params: [sub.result] }));
    expect(await next()).toEqual({ jsonrpc: "2.0", id: 2, result: true });
    ws.send(
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "cowboy_subscribe", params: ["newHeads", { x: 1 }] }),
    );
    expect(((await next()) as { error: { code: number } }).error.code).toBe(-32602);
    ws.close();
  });

  it("limits subscriptions per connection and frees them on close", async () => {
    const { ws, next } = await openSocket();
    for (let i = 0; i < 2; i++) {
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "cowboy_subscribe", params: ["newHeads"] }));
      expect((await next()) as object).toHaveProperty("result");
    }
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "cowboy_subscribe", params: ["newHeads"] }));
    expect(((await next()) as { error: { code: number } }).error.code).toBe(-32005);
    const before = hub.size;
    ws.close();
    // the server sees the close when the socket's close frame arrives (late on a loaded machine)
    for (let waited = 0; hub.size !== before - 2 && waited < 10_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(hub.size).toBe(before - 2);
  });
});

describe("RpcServer WebSocket ordering", () => {
  const handled: string[] = [];
  const slow = {
    methods: () => ({
      test_put: method(
        "put",
        [p.quantity("n")],
        ([n]) => {
          handled.push(`put ${n}`);
          return String(n);
        },
        // a batch's prepare takes a while: a message sent after the batch must still wait for it
        () => new Promise<void>((r) => setTimeout(r, 50)),
      ),
    }),
  };
  const ordered = new RpcServer({ dispatcher: new RpcDispatcher([echo, slow]) }, { port: 0 });
  let wsUrl = "";
  beforeAll(async () => {
    wsUrl = (await ordered.start()).ws;
  });
  afterAll(async () => {
    await ordered.close();
  });

  it("answers pipelined messages of one connection in order", async () => {
    const ws = new WebSocket(wsUrl);
    const got: unknown[] = [];
    const done = new Promise<void>((resolve, reject) => {
      ws.onmessage = (ev) => {
        got.push(JSON.parse(String(ev.data)));
        if (got.length === 3) resolve();
      };
      ws.onerror = reject;
    });
    await new Promise((r) => {
      ws.onopen = r;
    });
    ws.send(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "test_put", params: ["0x1"] },
        { jsonrpc: "2.0", id: 2, method: "test_put", params: ["0x2"] },
      ]),
    );
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "test_put", params: ["0x3"] }));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "test_echo", params: ["0x4"] }));
    await done;
    ws.close();
    expect(got).toEqual([
      [
        { jsonrpc: "2.0", id: 1, result: "1" },
        { jsonrpc: "2.0", id: 2, result: "2" },
      ],
      { jsonrpc: "2.0", id: 3, result: "3" },
      { jsonrpc: "2.0", id: 4, result: "4" },
    ]);
    expect(handled).toEqual(["put 1", "put 2", "put 3"]);
  });
});
