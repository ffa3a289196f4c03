// microbench: one executeActor call, main-thread CPU vs pvm-thread CPU vs wall
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalizeSource, encodeCbor } from "@cowboy/sdk";
import { openChain, qmdbExecutor, UNITS_PER_CBY } from "../../ts/node/src/index.ts";
import { benchKeys, sign } from "./suite.ts";
function pvmTicks(): number { let s = 0; for (const t of readdirSync("/proc/self/task")) { try { const st = readFileSync(`/proc/self/task/${t}/stat`, "utf8"); if (!st.includes("(pvm)")) continue; const f = st.slice(st.lastIndexOf(")") + 2).split(" "); s += Number(f[11]) + Number(f[12]); } catch {} } return s * 10_000; }
const COUNTER = canonicalizeSource(`from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self, by: int = 1) -> int:
        self.storage["count"] += by
        return self.storage["count"]
`);
const { keys, addrs } = benchKeys(1);
const dir = mkdtempSync(join(tmpdir(), "hc-exec-"));
const handle = openChain(dir, { chainId: 1337n, timestampMs: 1_800_000_000_000n, accounts: addrs.map((address) => ({ address, balance: 1_000_000n * UNITS_PER_CBY })) });
const salt = new Uint8Array(32);
const dr = handle.chain.buildBlock([sign(keys[0]!, addrs[0]!, 0n, { kind: "deploy", source: COUNTER, salt, initArgs: new Uint8Array(0), value: 0n }, 1_000_000n, 20_000n)], { timestampMs: 1_800_000_001_000n, proposer: new Uint8Array(20) });
const actor = dr.receipts[0]!.contractAddress!;
const exec = qmdbExecutor(handle.state)!;
const args = encodeCbor([1]);
const req = { kind: "call" as const, actor, handler: "increment", args, context: { sender: addrs[0]!, origin: addrs[0]!, value: 0n, height: 2n, timestamp: 1_800_000_002_000n, chainId: 1337, beacon: new Uint8Array(32), invocationId: new Uint8Array(32), depth: 0 }, limits: { cycles: 20_000n, cells: 1_000n } };
const PENDING = Number(process.argv[2] ?? 0);
for (let i = 0; i < PENDING; i++) { const k = new Uint8Array(33); k[0] = 1; new DataView(k.buffer).setUint32(29, i); handle.state.put(k, new Uint8Array(60)); }
{ const N = 2000; const m0 = process.threadCpuUsage(); for (let i = 0; i < N; i++) { const cp = handle.state.checkpoint(); handle.state.release(cp); } const m = process.threadCpuUsage(m0); console.log("checkpoint+release us", ((m.user + m.system) / N).toFixed(2)); }
for (let r = 0; r < 4; r++) {
  const N = 2000;
  const p0 = pvmTicks(); const m0 = process.threadCpuUsage(); const c0 = process.cpuUsage(); const w0 = performance.now();
  const GAP = Number(process.env.GAP_US ?? 0);
  let inExec = 0;
  for (let i = 0; i < N; i++) { if (GAP > 0) { const e = performance.now() + GAP / 1000; while (performance.now() < e); } const a = performance.now(); const o = exec(req); inExec += performance.now() - a; if (!o.ok) throw new Error(JSON.stringify(o.error)); }
  const wall = inExec * 1000 / N; const m = process.threadCpuUsage(m0); const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ wallUs: Math.round(wall), mainUs: Math.round((m.user + m.system) / N), pvmUs: Math.round((pvmTicks() - p0) / N), procUs: Math.round((c.user + c.system) / N), mainSysUs: Math.round(m.system / N) }));
}
handle.state.discardPending();
handle.close(); rmSync(dir, { recursive: true, force: true });
