/**
 * The `actor` suite: handler invocations per second of the spec-04 counter actor
 * (`increment`: fresh PVM, module body, one storage read + write into the state store's
 * pending overlay, checkpoint/release), through the addon (`executeActor`) against the same
 * runtime called from Rust (`crates/runtime/examples/actor_bench.rs`) in the same run.
 * The cost of the napi crossing is measured in the same process: an `executeActor` call for an
 * address without an actor marshals the same request in and a result out around one state
 * lookup, so its time bounds the crossing from above.
 *
 * Metrics: counter_calls_per_s (napi; peer: Rust), napi_roundtrip_us (peer: a whole call).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as native from "@cowboy/native";
import { encodeCbor } from "@cowboy/sdk";
import { compare, type Metric, opsPerSecond, summarize } from "../lib/report.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const COUNTER = `from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
`;

function rustRates(runs: number): number[] {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "cowboy-runtime", "--example", "actor_bench"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const out = execFileSync(
    join(ROOT, "target", "release", "examples", "actor_bench"),
    [String(runs), "500"],
    {
      encoding: "utf8",
    },
  );
  return (JSON.parse(out) as { calls_per_s: number[] }).calls_per_s;
}

export async function run(): Promise<Metric[]> {
  const runs = 5;
  const rust = summarize(rustRates(runs));
  const dir = mkdtempSync(join(tmpdir(), "cowboy-bench-actor-"));
  const db = native.StateDb.open(dir);
  try {
    const base: native.ActorExecRequest = {
      kind: "deploy",
      actor: Buffer.alloc(20, 0xac),
      code: COUNTER,
      args: Buffer.from(encodeCbor([])),
      context: {
        sender: Buffer.alloc(20),
        origin: Buffer.alloc(20),
        value: 0n,
        height: 0n,
        timestamp: 0n,
        chainId: 0,
        beacon: Buffer.alloc(32),
        invocationId: Buffer.alloc(32),
        depth: 0,
      },
      limits: { cycles: 1_000_000n, cells: 1_000_000n },
    };
    if (!native.executeActor(db, base).ok) throw new Error("deploy failed");
    const call: native.ActorExecRequest = { ...base, kind: "call", code: undefined, handler: "increment" };
    const napi = opsPerSecond(
      () => {
        if (!native.executeActor(db, call).ok) throw new Error("call failed");
      },
      { runs, minMs: 500 },
    );
    // The crossing itself, measured in-process: the same request shape against an address with
    // no actor goes into Rust, costs one state lookup, and comes back as an `ActorNotFound` result.
    const missing: native.ActorExecRequest = { ...call, actor: Buffer.alloc(20, 0x5a) };
    const roundtrip = opsPerSecond(
      () => {
        if (native.executeActor(db, missing).ok) throw new Error("a missing actor answered");
      },
      { runs, minMs: 300 },
    );
    const usPerCall = (s: { median: number; spread: number; runs: number }) => ({
      median: 1e6 / s.median,
      spread: s.spread,
      runs: s.runs,
    });
    return [
      compare("counter_calls_per_s", "calls/s", true, napi, "same runtime called from Rust", rust),
      compare(
        "napi_roundtrip_us",
        "us/call",
        false,
        usPerCall(roundtrip),
        "a whole counter call through the addon (us)",
        usPerCall(napi),
      ),
    ];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
