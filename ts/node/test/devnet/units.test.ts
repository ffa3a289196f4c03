/** Unit tests of the devnet's pieces: options, development keys, metrics exposition. */
import { resolve } from "node:path";
import { isValidMnemonic, toHex } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import { DEV_MNEMONIC, deriveDevKeys } from "../../src/devnet/accounts.ts";
import { ConfigError, DEVNET_CHAIN_ID, parseBlockTime, parseDevnetArgs } from "../../src/devnet/config.ts";
import { prettyLine } from "../../src/devnet/logger.ts";
import { Counter, DevnetMetrics, Gauge, Histogram, Registry } from "../../src/devnet/metrics.ts";

describe("devnet options", () => {
  it("has the documented defaults", () => {
    const c = parseDevnetArgs([], "/tmp/x");
    expect(c.dataDir).toBe(resolve("/tmp/x", ".cowboy/devnet"));
    expect(c.rpcHost).toBe("127.0.0.1");
    expect(c.rpcPort).toBe(8545);
    expect(c.blockTime).toEqual({ kind: "interval", ms: 1000 });
    expect(c.reset).toBe(false);
    expect(c.chainId).toBe(DEVNET_CHAIN_ID);
    expect(c.accounts).toBe(10);
  });

  it("parses every option", () => {
    const c = parseDevnetArgs(
      [
        "--data-dir",
        "d",
        "--rpc-port",
        "0",
        "--block-time",
        "auto",
        "--reset",
        "--chain-id",
        "9",
        "--accounts",
        "3",
      ],
      "/w",
    );
    expect(c).toMatchObject({ dataDir: "/w/d", rpcPort: 0, blockTime: { kind: "on-demand" }, reset: true });
    expect(c.chainId).toBe(9n);
    expect(parseBlockTime("0")).toEqual({ kind: "instant" });
    expect(parseBlockTime("250")).toEqual({ kind: "interval", ms: 250 });
    expect(parseDevnetArgs(["-h"]).help).toBe(true);
    expect(parseDevnetArgs(["--log-format", "json"]).logFormat).toBe("json");
    expect(parseDevnetArgs([]).logFormat).toBeNull();
  });

  it("names the option in errors", () => {
    const bad: Array<[string[], string]> = [
      [["--block-time", "fast"], "block-time"],
      [["--block-time=-1"], "block-time"],
      [["--rpc-port", "70000"], "rpc-port"],
      [["--accounts", "0"], "accounts"],
      [["--log-level", "loud"], "log-level"],
      [["--log-format", "xml"], "log-format"],
      [["--nope"], "args"],
      [["extra"], "args"],
    ];
    for (const [argv, option] of bad) {
      expect(() => parseDevnetArgs(argv), argv.join(" ")).toThrow(ConfigError);
      try {
        parseDevnetArgs(argv);
      } catch (err) {
        expect((err as ConfigError).option).toBe(option);
      }
    }
  });
});

describe("development keys", () => {
  it("come from a valid public mnemonic and are stable", () => {
    expect(isValidMnemonic(DEV_MNEMONIC)).toBe(true);
    const k = deriveDevKeys(3);
    expect(k.accounts.map((a) => toHex(a.address))).toEqual([
      "0x0290abee006f67c444ef444e7fbe9122d0a84612",
      "0xfd6be873704256c1cb15fbbb84d21820c48ae4ec",
      "0x218d318c72a2106eb37a90e0b0943a65548408a1",
    ]);
    const all = [...k.accounts, k.faucet, k.validator].map((a) => toHex(a.address));
    expect(new Set(all).size).toBe(all.length);
    expect(() => deriveDevKeys(-1)).toThrow(RangeError);
  });
});

describe("pretty logs", () => {
  it("turn a pino record into one readable line", () => {
    const t = new Date(2026, 10, 21, 9, 5, 7, 42).getTime();
    const line = prettyLine(
      JSON.stringify({
        level: 30,
        time: t,
        pid: 1,
        hostname: "h",
        name: "cowboyd",
        height: "5",
        txs: 2,
        msg: "block",
      }),
    );
    expect(line).toBe("09:05:07.042 INFO  block height=5 txs=2\n");
    expect(prettyLine("not json\n")).toBe("not json\n");
    const err = prettyLine(
      JSON.stringify({ level: 50, time: t, msg: "boom", err: { message: "bad", stack: "Error: bad" } }),
    );
    expect(err).toBe("09:05:07.042 ERROR boom\n  Error: bad\n");
  });
});

describe("metrics", () => {
  it("renders the text exposition format", () => {
    const r = new Registry();
    const g = r.register(new Gauge("g_test", "a gauge"));
    const c = r.register(new Counter("c_test", "a counter"));
    const h = r.register(new Histogram("h_test", "a histogram", [0.1, 1]));
    g.set(5n, { meter: 'we"ird' });
    c.inc(2);
    c.inc(1);
    h.observe(0.05);
    h.observe(0.5);
    h.observe(5);
    expect(r.text()).toBe(
      [
        "# HELP g_test a gauge",
        "# TYPE g_test gauge",
        'g_test{meter="we\\"ird"} 5',
        "# HELP c_test a counter",
        "# TYPE c_test counter",
        "c_test 3",
        "# HELP h_test a histogram",
        "# TYPE h_test histogram",
        'h_test_bucket{le="0.1"} 1',
        'h_test_bucket{le="1"} 2',
        'h_test_bucket{le="+Inf"} 3',
        "h_test_sum 5.55",
        "h_test_count 3",
        "",
      ].join("\n"),
    );
    expect(() => c.inc(-1)).toThrow(RangeError);
    expect(() => r.register(new Gauge("g_test", "again"))).toThrow();
  });

  it("tracks blocks, the transaction rate and basefees", () => {
    const m = new DevnetMetrics();
    m.onBlock({ height: 7n, txs: 20, seconds: 0.004, cyclesUsed: 420_000n, cellsUsed: 0n }, 1_000);
    m.onBlock({ height: 8n, txs: 10, seconds: 0.002, cyclesUsed: 210_000n, cellsUsed: 0n }, 2_000);
    m.onBlock({ height: 9n, txs: 0, seconds: 0.001, cyclesUsed: 0n, cellsUsed: 0n }, 12_500);
    expect(m.height.get()).toBe(9);
    expect(m.txs.get()).toBe(30);
    expect(m.txRate.get()).toBe(0); // the first two blocks fell out of the 10 s window
    m.onBasefees(10_000n, 12_000n);
    expect(m.registry.text()).toMatch(/cowboy_basefee\{meter="cell"\} 12000/);
    const hook = m.mempool();
    hook.onSize(3, 300);
    hook.onReject("ERR_MEMPOOL_FULL");
    expect(m.registry.text()).toMatch(/cowboy_mempool_rejected_total\{reason="ERR_MEMPOOL_FULL"\} 1/);
  });
});
