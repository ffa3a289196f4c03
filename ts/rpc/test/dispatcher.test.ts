import { describe, expect, it } from "vitest";
import { method, p, RpcDispatcher, RpcError, type RpcModule } from "../src/index.ts";

class DomainError extends Error {
  readonly code = "ERR_MEMPOOL_NONCE_TOO_LOW";
  readonly data = { nonce: "1" };
}

/** A module exercising every kind of parameter the framework offers. */
class TestModule implements RpcModule {
  calls = 0;
  methods() {
    return {
      test_add: method("adds two quantities", [p.quantity("a"), p.quantity("b")], ([a, b]) => {
        this.calls++;
        return `0x${(a + b).toString(16)}`;
      }),
      test_block: method("echoes a block tag", [p.blockTag("block")], ([tag]) =>
        "tag" in tag ? tag.tag : `height ${tag.height}`,
      ),
      test_opt: method(
        "optional bool",
        [p.address("who"), p.optional(p.bool("flag"), false)],
        ([who, flag]) => ({
          len: who.length,
          flag,
        }),
      ),
      test_obj: method(
        "object param",
        [p.object("filter", { from: p.quantity("from"), to: p.optional(p.quantity("to")) })],
        ([f]) => ({ from: String(f.from), to: f.to === undefined ? null : String(f.to) }),
      ),
      test_domain: method("throws a domain error", [], () => {
        throw new DomainError("nonce 1 is below the account nonce 2");
      }),
      test_crash: method("throws an unexpected error", [], () => {
        throw new TypeError("secret internals");
      }),
      test_rpc: method("throws an RpcError", [], () => {
        throw new RpcError(-32001, "not found");
      }),
    };
  }
}

const ctx = { transport: "http" as const, connection: null };
const dispatcher = new RpcDispatcher([new TestModule()], { maxBatch: 3 });
const call = (body: unknown) => dispatcher.handle(body, ctx);
const req = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: "2.0", id, method, params });

describe("RpcDispatcher", () => {
  // [name, request, expected result or error code]
  const cases: Array<[string, unknown, { result?: unknown; code?: number; message?: RegExp }]> = [
    ["positional params", req("test_add", ["0x1", "0x2"]), { result: "0x3" }],
    ["named params", req("test_add", { a: "0xa", b: "0x1" }), { result: "0xb" }],
    ["leading zero quantity", req("test_add", ["0x01", "0x2"]), { code: -32602, message: /invalid a/ }],
    ["non-hex quantity", req("test_add", [1, "0x2"]), { code: -32602, message: /expected a hex quantity/ }],
    ["quantity over 64 bits", req("test_add", ["0x10000000000000000", "0x1"]), { code: -32602 }],
    ["missing param", req("test_add", ["0x1"]), { code: -32602, message: /missing parameter 1 \(b\)/ }],
    ["too many params", req("test_add", ["0x1", "0x2", "0x3"]), { code: -32602, message: /too many/ }],
    ["unknown named param", req("test_add", { a: "0x1", b: "0x1", c: "0x1" }), { code: -32602 }],
    ["params not array/object", req("test_add", "0x1"), { code: -32602 }],
    ["block tag", req("test_block", ["finalized"]), { result: "finalized" }],
    ["block number", req("test_block", ["0x10"]), { result: "height 16" }],
    ["bad block tag", req("test_block", ["newest"]), { code: -32602 }],
    ["optional default", req("test_opt", [`0x${"11".repeat(20)}`]), { result: { len: 20, flag: false } }],
    ["short address", req("test_opt", ["0x1111"]), { code: -32602, message: /20 bytes/ }],
    ["object param", req("test_obj", [{ from: "0x1" }]), { result: { from: "1", to: null } }],
    [
      "object unknown field",
      req("test_obj", [{ from: "0x1", x: 1 }]),
      { code: -32602, message: /unknown field/ },
    ],
    ["object missing field", req("test_obj", [{}]), { code: -32602, message: /missing field "from"/ }],
    ["unknown method", req("test_nope", []), { code: -32601, message: /does not exist/ }],
    ["domain error", req("test_domain"), { code: -32000, message: /below the account nonce/ }],
    ["unexpected error hides internals", req("test_crash"), { code: -32603, message: /^internal error$/ }],
    ["rpc error passes through", req("test_rpc"), { code: -32001 }],
    ["wrong jsonrpc version", { jsonrpc: "1.0", id: 1, method: "test_add" }, { code: -32600 }],
    ["method not a string", { jsonrpc: "2.0", id: 1, method: 5 }, { code: -32600 }],
    ["not an object", 42, { code: -32600 }],
    ["empty batch", [], { code: -32600 }],
    ["batch over limit", [1, 2, 3, 4].map((i) => req("test_add", ["0x1", "0x1"], i)), { code: -32005 }],
  ];

  for (const [name, body, want] of cases) {
    it(name, async () => {
      const res = (await call(body)) as { result?: unknown; error?: { code: number; message: string } };
      if (want.code === undefined) {
        expect(res.error).toBeUndefined();
        expect(res.result).toEqual(want.result);
      } else {
        expect(res.error?.code).toBe(want.code);
        if (want.message) expect(res.error?.message).toMatch(want.message);
      }
    });
  }

  it("carries domain error codes in data", async () => {
    const res = (await call(req("test_domain"))) as { error: { data: unknown } };
    expect(res.error.data).toEqual({ code: "ERR_MEMPOOL_NONCE_TOO_LOW", nonce: "1" });
  });

  it("answers batches in order, skipping notifications", async () => {
    const res = await call([
      req("test_add", ["0x1", "0x1"], "a"),
      { jsonrpc: "2.0", method: "test_add", params: ["0x1", "0x1"] },
      req("test_nope", [], 7),
    ]);
    expect(res).toEqual([
      { jsonrpc: "2.0", id: "a", result: "0x2" },
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32601,
          message: "the method test_nope does not exist",
          data: { method: "test_nope" },
        },
      },
    ]);
  });

  it("gives no answer to a notification, and a parse error to bad JSON", async () => {
    expect(await call({ jsonrpc: "2.0", method: "test_add", params: ["0x1", "0x1"] })).toBeNull();
    const text = await dispatcher.handleText("{not json", ctx);
    expect(JSON.parse(text as string)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "parse error: invalid JSON" },
    });
  });

  it("refuses a method registered twice", () => {
    expect(() => new RpcDispatcher([new TestModule(), new TestModule()])).toThrow(/registered twice/);
  });
});

describe("RpcDispatcher batch preparation", () => {
  /** `test_put` appends to `log`; its `prepare` sees the batch's valid calls first. */
  function prepared(opts: { failPrepare?: boolean } = {}) {
    const log: string[] = [];
    const module: RpcModule = {
      methods: () => ({
        test_put: method(
          "appends a quantity",
          [p.quantity("v")],
          ([v]) => {
            log.push(`put ${v}`);
            return null;
          },
          async (list) => {
            await Promise.resolve();
            log.push(`prepare ${list.map(([v]) => String(v)).join(",")}`);
            if (opts.failPrepare) throw new Error("prepare failed");
          },
        ),
        test_other: method("no preparation", [], () => {
          log.push("other");
          return null;
        }),
      }),
    };
    return { log, dispatcher: new RpcDispatcher([module]) };
  }
  const call = (id: number, m: string, params: unknown[]) => ({ jsonrpc: "2.0", id, method: m, params });

  it("calls prepare once with the valid requests of the batch, then each handler in order", async () => {
    const { log, dispatcher } = prepared();
    const out = (await dispatcher.handle(
      [
        call(1, "test_put", ["0x1"]),
        call(2, "test_other", []),
        call(3, "test_put", ["nope"]),
        call(4, "test_put", ["0x2"]),
      ],
      { transport: "http", connection: null },
    )) as Array<{ id: number; error?: unknown }>;
    expect(log).toEqual(["prepare 1,2", "put 1", "other", "put 2"]);
    expect(out.map((r) => [r.id, r.error === undefined])).toEqual([
      [1, true],
      [2, true],
      [3, false],
      [4, true],
    ]);
  });

  it("does not prepare single requests, and a failing prepare changes no answer", async () => {
    const { log, dispatcher } = prepared({ failPrepare: true });
    await dispatcher.handle(call(1, "test_put", ["0x5"]), { transport: "http", connection: null });
    expect(log).toEqual(["put 5"]);
    const out = (await dispatcher.handle([call(2, "test_put", ["0x6"])], {
      transport: "http",
      connection: null,
    })) as Array<{ id: number; result: unknown }>;
    expect(out).toEqual([{ jsonrpc: "2.0", id: 2, result: null }]);
    expect(log).toEqual(["put 5", "prepare 6", "put 6"]);
  });
});
