// main-thread CPU per actor call split: inside executeActor (napi + marshalling, main thread) vs the rest (TS STF)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalizeSource, encodeCbor } from "@cowboy/sdk";
import { openChain, qmdbExecutor, UNITS_PER_CBY, nativeVerifyBatch } from "/work/main/ts/node/src/index.ts";
import { benchKeys, buildAll, sign, lastCpu } from "/work/main/bench/stf/suite.ts";
import { Session } from "node:inspector";
const sess = new Session(); sess.connect();
const post = (m: string, p?: object) => new Promise<any>((res, rej) => sess.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
await post("Profiler.enable"); await post("Profiler.setSamplingInterval", { interval: 50 });
const runs = Number(process.argv[2] ?? 3);
const fake = process.argv[3] === "fake";
const COUNTER = canonicalizeSource(`from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self, by: int = 1) -> int:
        self.storage["count"] += by
        return self.storage["count"]
`);
const { keys, addrs } = benchKeys(2000);
const acc = { cpu: 0, wall: 0, n: 0 };
const recorded: any[] = [];
const PROPOSER = new Uint8Array(20).fill(0xee);
for (let r = 0; r < runs; r++) {
  const dir = mkdtempSync(join(tmpdir(), "hc-split-"));
  let inner: any = null;
  let res0: any = null;
  const handle = openChain(dir, { chainId: 1337n, timestampMs: 1_800_000_000_000n, accounts: addrs.map((address) => ({ address, balance: 1_000_000n * UNITS_PER_CBY })) }, {
    ...(process.env.SYNC_SIG ? { verifyBatch: (t: readonly Uint8Array[]) => nativeVerifyBatch(t) } : {}),
    executor: (req) => {
      if (fake && req.kind === "call" && res0 !== null) { acc.n++; return { ...res0, effects: [] }; }
      const c0 = process.threadCpuUsage(); const w0 = performance.now();
      const out = inner(req);
      const c = process.threadCpuUsage(c0); acc.cpu += c.user + c.system; acc.wall += (performance.now() - w0) * 1000; acc.n++;
      if (req.kind === "call") { res0 = out; if (recorded.length < 6000) recorded.push(req); }
      return out;
    },
  });
  inner = qmdbExecutor(handle.state);
  const w = { dir, handle, close() { handle.close(); rmSync(dir, { recursive: true, force: true }); } };
  const ACTORS = 63;
  const deploys = Array.from({ length: ACTORS }, (_, i) => { const salt = new Uint8Array(32); new DataView(salt.buffer).setUint32(28, i); return sign(keys[i]!, addrs[i]!, 0n, { kind: "deploy", source: COUNTER, salt, initArgs: new Uint8Array(0), value: 0n }, 1_000_000n, 20_000n); });
  const dr = handle.chain.buildBlock(deploys, { timestampMs: 1_800_000_001_000n, proposer: PROPOSER });
  const actors = dr.receipts.map((x) => x.contractAddress!);
  const args = encodeCbor([1]);
  const blocks = Array.from({ length: 3 }, (_, b) => keys.map((k, i) => sign(k, addrs[i]!, BigInt(b + (i < ACTORS ? 1 : 0)), { kind: "call", to: actors[i % ACTORS]!, handler: "increment", args, value: 0n }, 30_000n, 1_000n)));
  acc.cpu = 0; acc.wall = 0; acc.n = 0;
  const { writeFileSync } = await import("node:fs");
  if (process.env.PERF_CTL) writeFileSync(process.env.PERF_CTL, "enable\n");
  if (process.env.PROF) await post("Profiler.start");
  const rate = buildAll(w, blocks);
  if (process.env.PERF_CTL) writeFileSync(process.env.PERF_CTL, "disable\n");
  if (process.env.PROF) { const { profile } = await post("Profiler.stop"); writeFileSync(`${process.env.PROF}.${r}.cpuprofile`, JSON.stringify(profile)); }
  console.log(JSON.stringify({ rate: Math.round(rate), mainUs: Math.round(lastCpu.mainUsPerTx), procUs: Math.round(lastCpu.processUsPerTx), execMainCpuUs: Math.round(acc.cpu / acc.n), execWallUs: Math.round(acc.wall / acc.n), tsUs: Math.round(lastCpu.mainUsPerTx - acc.cpu / acc.n) }));
  {
    const m0 = process.threadCpuUsage(); const w0 = performance.now();
    for (const q of recorded) inner(q);
    const m = process.threadCpuUsage(m0);
    console.log("replay", recorded.length, "main us/call", ((m.user + m.system) / recorded.length).toFixed(1), "wall", ((performance.now() - w0) * 1000 / recorded.length).toFixed(1));
    const m1 = process.threadCpuUsage(); const w1 = performance.now();
    for (let i = 0; i < recorded.length; i++) inner(recorded[0]);
    const m2 = process.threadCpuUsage(m1);
    console.log("replay same", recorded.length, "main us/call", ((m2.user + m2.system) / recorded.length).toFixed(1), "wall", ((performance.now() - w1) * 1000 / recorded.length).toFixed(1));
    recorded.length = 0;
  }
  handle.state.discardPending();
  w.close();
}
