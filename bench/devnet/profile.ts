/**
 * Where `cowboyd` spends its time under the benchmark's load: starts it with Node's
 * `--cpu-prof`, runs the load generator (one workload), stops it cleanly (SIGTERM, so the
 * profile is written) and prints the functions with the most self time and with the most
 * inclusive time (time with everything they call), as milliseconds and per transaction.
 *
 *   node bench/devnet/profile.ts [transfer|call] [transactions per sender] [--block-time auto|0|MS]
 *
 * Prints tables; keeps the `.cpuprofile` (open it in Chrome DevTools) and names it.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { CowboyTarget, startCowboyd } from "./cowboy.ts";
import { percentile, runLoad, type Workload } from "./load.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = join(import.meta.dirname, "../..");

function frameKey(n: ProfileNode): string {
  const f = n.callFrame;
  const name = f.functionName === "" ? "(anonymous)" : f.functionName;
  if (f.url === "") return name;
  const path = f.url.startsWith("file://") ? relative(ROOT, decodeURI(f.url.slice(7))) : f.url;
  return `${name} ${path}:${f.lineNumber + 1}`;
}

/**
 * Self and inclusive microseconds per function (recursion counted once per stack), over
 * the samples taken within `window` (profile clock, microseconds; V8 and
 * `process.hrtime` both read the monotonic clock) or all of them.
 */
export function analyze(
  p: CpuProfile,
  window: { fromUs: number; toUs: number } | null = null,
): {
  self: Map<string, number>;
  inclusive: Map<string, number>;
  totalUs: number;
  idleUs: number;
} {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const nodeSelf = new Map<number, number>();
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    if (window !== null && (t < window.fromUs || t > window.toUs)) return;
    nodeSelf.set(id, (nodeSelf.get(id) ?? 0) + dt);
  });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  const onStack = new Map<string, number>();
  // inclusive time of a node's subtree, added to every distinct function on the stack
  const walk = (id: number): number => {
    const n = byId.get(id) as ProfileNode;
    const key = frameKey(n);
    onStack.set(key, (onStack.get(key) ?? 0) + 1);
    let sub = nodeSelf.get(id) ?? 0;
    for (const c of n.children ?? []) sub += walk(c);
    const depth = onStack.get(key) as number;
    if (depth === 1) inclusive.set(key, (inclusive.get(key) ?? 0) + sub);
    onStack.set(key, depth - 1);
    const s = nodeSelf.get(id) ?? 0;
    self.set(key, (self.get(key) ?? 0) + s);
    totalUs += s;
    if (n.callFrame.functionName === "(idle)") idleUs += s;
    return sub;
  };
  walk((p.nodes[0] as ProfileNode).id);
  return { self, inclusive, totalUs, idleUs };
}

function table(title: string, m: Map<string, number>, txs: number, busyUs: number, top: number): string {
  const rows = [...m.entries()]
    .filter(([k]) => !/^\((root|program|idle|garbage collector)\)$/.test(k) || title.startsWith("self"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  const lines = rows.map(
    ([k, us]) =>
      `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / busyUs) * 100).toFixed(1).padStart(5)}% ${(us / txs / 1000).toFixed(3).padStart(7)} ms/tx  ${k}`,
  );
  return [`${title} (of ${(busyUs / 1000).toFixed(0)} ms busy, ${txs} txs)`, ...lines].join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const bt = args.indexOf("--block-time");
  const blockTime = bt >= 0 ? (args[bt + 1] ?? "auto") : "auto";
  const positional = bt < 0 ? args : args.filter((_, i) => i !== bt && i !== bt + 1);
  const kind = (positional[0] ?? "transfer") as Workload;
  if (kind !== "transfer" && kind !== "call") throw new Error(`unknown workload ${kind}`);
  const perSender = Number(positional[1] ?? (kind === "transfer" ? 200 : 60));
  const senders = 8;
  const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-prof-"));
  let fromUs = 0;
  let toUs = 0;
  let blockLine = "";
  const node = await startCowboyd({
    blockTime,
    accounts: senders + 1,
    nodeArgs: ["--cpu-prof", "--cpu-prof-dir", dir],
  });
  try {
    const target = await CowboyTarget.setUp(node.ws, senders);
    const r = await runLoad(target, kind, {
      senders,
      perSender,
      window: 8,
      onStart: () => {
        fromUs = Number(process.hrtime.bigint() / 1000n);
      },
    });
    toUs = Number(process.hrtime.bigint() / 1000n);
    target.close();
    const metrics = await (await fetch(`${node.http}metrics`)).text();
    const sum = Number(/^cowboy_block_execution_seconds_sum\s+(\S+)/m.exec(metrics)?.[1] ?? Number.NaN);
    const count = Number(/^cowboy_block_execution_seconds_count\s+(\S+)/m.exec(metrics)?.[1] ?? Number.NaN);
    blockLine = `block production (cowboy_block_execution_seconds: execute, state commit, synced ledger write): ${count} blocks, ${((sum / count) * 1000).toFixed(1)} ms per block on average, ${((100 * sum * 1000) / ((toUs - fromUs) / 1000)).toFixed(0)}% of the load's wall time (blocks before the load included)\n`;
    process.stdout.write(
      `${kind}: ${r.transactions} txs, ${r.tps.toFixed(0)} tx/s, p50 ${percentile(r.latenciesMs, 0.5).toFixed(1)} ms, p99 ${percentile(r.latenciesMs, 0.99).toFixed(1)} ms, ${r.blocks} blocks (--block-time ${blockTime})\n`,
    );
  } finally {
    await node.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (file === undefined) throw new Error(`no profile written in ${dir}`);
  const prof = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
  const a = analyze(prof, { fromUs, toUs });
  const txs = senders * perSender;
  const busy = a.totalUs - a.idleUs;
  process.stdout.write(
    `profile ${join(dir, file)}: ${(a.totalUs / 1e6).toFixed(2)} s of load sampled, ${(a.idleUs / 1e6).toFixed(2)} s of it idle\n\n`,
  );
  process.stdout.write(blockLine);
  process.stdout.write(`${table("self time", a.self, txs, busy, 30)}\n\n`);
  process.stdout.write(
    `${table("inclusive time", a.inclusive, txs, busy, Number(process.env.PROFILE_TOP ?? 45))}\n`,
  );
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) await main();
