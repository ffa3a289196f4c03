/**
 * `node bench/stf/handoff.ts [calls] [gapUs]`: a probe, not a published metric. Calls the
 * counter's `increment` through the addon's `executeActor` (as the STF does, `qmdbExecutor`)
 * `calls` times, first back to back, then with `gapUs` microseconds of JavaScript work between
 * calls (default 50 µs, about what the STF's own per-call work takes), and prints for each: the
 * wall time spent inside the call, the main thread's CPU per iteration (gap included), and the
 * CPU of the PVM worker threads per call (from /proc, 10 ms ticks; Linux only).
 *
 * The PVM runs every invocation on a big-stack worker thread (crates/pvm-core `worker.rs`) while
 * the calling thread waits. When calls follow each other at once the two threads ping-pong on one
 * core; with work in between, the worker has gone to sleep and every call pays for waking it (and
 * the caller) on top of the interpreter's work. The difference between the two `inCallUs` lines
 * is that cost; `pvmUs` stays the same.
 */
import { readdirSync, readFileSync } from "node:fs";
import { encodeCbor } from "@cowboy/sdk";
import { qmdbExecutor } from "../../ts/node/src/index.ts";
import { benchKeys, deployCounters, world } from "./suite.ts";

const CALLS = Number(process.argv[2] ?? 3_000);
const GAP_US = Number(process.argv[3] ?? 50);

/** CPU of the threads named `pvm`, in microseconds (clock ticks of 10 ms). */
function pvmCpuUs(): number {
  let ticks = 0;
  for (const t of readdirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${t}/stat`, "utf8");
    } catch {
      continue; // the thread ended meanwhile
    }
    if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "pvm") continue;
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * 10_000;
}

const { keys, addrs } = benchKeys(1);
const from = addrs[0] as Uint8Array;
// the bench chain (bench/stf/suite.ts `world`) with one funded sender and one counter on it
const w = world(addrs);
try {
  const [actor] = deployCounters(w, keys, addrs, 1) as [Uint8Array];
  const exec = qmdbExecutor(w.handle.state);
  if (exec === null) throw new Error("handoff: the addon has no executeActor");
  const req = {
    kind: "call" as const,
    actor,
    handler: "increment",
    args: encodeCbor([1]),
    context: {
      sender: from,
      origin: from,
      value: 0n,
      height: 2n,
      timestamp: 1_800_000_002_000n,
      chainId: 1337,
      beacon: new Uint8Array(32),
      invocationId: new Uint8Array(32),
      depth: 0,
    },
    limits: { cycles: 30_000n, cells: 1_000n },
  };
  for (const gap of [0, GAP_US, 0, GAP_US]) {
    const pvm0 = pvmCpuUs();
    const main0 = process.threadCpuUsage();
    let inCall = 0;
    for (let i = 0; i < CALLS; i++) {
      if (gap > 0) {
        const until = performance.now() + gap / 1000;
        while (performance.now() < until); // stands for the STF's own work between calls
      }
      const t = performance.now();
      const out = exec(req);
      inCall += performance.now() - t;
      if (!out.ok) throw new Error(`handoff: the call failed: ${out.error?.message}`);
    }
    const main = process.threadCpuUsage(main0);
    process.stdout.write(
      `${JSON.stringify({
        gapUs: gap,
        inCallUs: Math.round((inCall * 1000) / CALLS),
        // the main thread's CPU per iteration, the gap's busy wait included
        mainUs: Math.round((main.user + main.system) / CALLS),
        pvmUs: Math.round((pvmCpuUs() - pvm0) / CALLS),
      })}\n`,
    );
  }
} finally {
  w.handle.state.discardPending(); // the calls' writes, never committed
  w.close();
}
