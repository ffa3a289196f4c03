/**
 * `devnet` benchmark suite (shared/BENCH.md): signed transactions submitted over JSON-RPC
 * by the load generator of load.ts to `cowboyd` (a child process, `--block-time auto`)
 * and, in the same run, to the Hardhat network (`hardhat node`, automining; installed on
 * demand by peer.ts) — the same number of transactions, senders and window on both.
 *
 * Runs alternate between the two chains (both stay up) so that drift in the machine's
 * load hits both alike. Per workload (transfers, counter calls) and chain: `RUNS` runs of
 * `SENDERS × PER_SENDER` transactions after one warm-up run. Reported: the median over
 * the runs of committed tx/s and of the latency percentiles; spread = (max − min)/median.
 *
 * - `committed_tx_per_s`, `submit_to_commit_p50_ms`, `submit_to_commit_p99_ms`: both
 *   workloads of a run together (all its transactions, over the time of both loads).
 * - `transfer_tps`, `transfer_latency_p{50,90,99}_ms`; `actor_call_tps`,
 *   `actor_call_latency_p{50,90,99}_ms`: per workload.
 * - `transfer_latency_idle_p50_ms`, `actor_call_latency_idle_p50_ms`: unloaded latency, one
 *   sender with one transaction at a time (30 per run): the time one transaction takes from
 *   submission to its block's head, without queueing behind others.
 *
 * Environment: `BENCH_DEVNET_RUNS` (default 5), `BENCH_DEVNET_SENDERS` (8),
 * `BENCH_DEVNET_PER_SENDER` (100), `BENCH_DEVNET_WINDOW` (8), `BENCH_DEVNET_BLOCK_TIME` (auto).
 */
import { compare, type Metric, type Sample, summarize } from "../lib/report.ts";
import { CowboyTarget, startCowboyd } from "./cowboy.ts";
import { freePort, HardhatTarget } from "./hardhat.ts";
import {
  type LoadOptions,
  type LoadResult,
  type LoadTarget,
  percentile,
  runLoad,
  type Workload,
} from "./load.ts";
import { startHardhat } from "./peer.ts";

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${v}"`);
  return n;
}

const WORKLOADS: Workload[] = ["transfer", "call"];
/** transactions of the unloaded-latency runs (one sender, window 1) */
const IDLE_TXS = 30;
const METRIC_PREFIX: Record<Workload, string> = { transfer: "transfer", call: "actor_call" };

interface RunStats {
  tps: number;
  p50: number;
  p90: number;
  p99: number;
}

function statsOf(results: LoadResult[]): RunStats {
  const latencies = results.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  const txs = results.reduce((n, r) => n + r.transactions, 0);
  const ms = results.reduce((n, r) => n + r.elapsedMs, 0);
  return {
    tps: txs / (ms / 1000),
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
  };
}

function log(line: string): void {
  process.stderr.write(`bench devnet: ${line}\n`);
}

export async function run(): Promise<Metric[]> {
  const runs = envInt("BENCH_DEVNET_RUNS", 5);
  const opts: LoadOptions = {
    senders: envInt("BENCH_DEVNET_SENDERS", 8),
    perSender: envInt("BENCH_DEVNET_PER_SENDER", 100),
    window: envInt("BENCH_DEVNET_WINDOW", 8),
  };
  const blockTime = process.env.BENCH_DEVNET_BLOCK_TIME ?? "auto";
  const cowboyd = await startCowboyd({ blockTime, accounts: opts.senders + 1 });
  let hardhat: Awaited<ReturnType<typeof startHardhat>> | null = null;
  const targets: LoadTarget[] = [];
  try {
    hardhat = await startHardhat(await freePort());
    const cowboy = await CowboyTarget.setUp(cowboyd.ws, opts.senders);
    const peer = await HardhatTarget.setUp(hardhat.url.replace(/^http/, "ws"), opts.senders);
    targets.push(cowboy, peer);
    const peerName = `hardhat-${hardhat.version}`;
    log(
      `cowboyd --block-time ${blockTime} vs ${peerName} (automine); ${opts.senders} senders × ${opts.perSender} txs, window ${opts.window}, ${runs} runs`,
    );

    // per chain, per run: the result of each workload
    const results = new Map<string, LoadResult[][]>(targets.map((t) => [t.name, []]));
    const idle: LoadOptions = { senders: 1, perSender: IDLE_TXS, window: 1 };
    const warm: LoadOptions = { ...opts, perSender: Math.max(1, Math.ceil(opts.perSender / 6)) };
    for (const t of targets) for (const w of WORKLOADS) await runLoad(t, w, warm);
    for (let r = 0; r < runs; r++) {
      for (const t of targets) (results.get(t.name) as LoadResult[][]).push([]);
      for (const w of WORKLOADS) {
        for (const t of targets) {
          const res = await runLoad(t, w, opts);
          const perRun = results.get(t.name) as LoadResult[][];
          (perRun[r] as LoadResult[]).push(res);
          const s = statsOf([res]);
          log(
            `run ${r + 1}/${runs} ${t.name.padEnd(7)} ${w.padEnd(8)} ${s.tps.toFixed(0).padStart(5)} tx/s  p50 ${s.p50.toFixed(1)} ms  p90 ${s.p90.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  (${res.blocks} blocks)`,
          );
        }
      }
      // unloaded latency: one sender, one transaction at a time
      for (const w of WORKLOADS) {
        for (const t of targets) {
          const res = await runLoad(t, w, idle);
          ((results.get(t.name) as LoadResult[][])[r] as LoadResult[]).push(res);
          const s = statsOf([res]);
          log(
            `run ${r + 1}/${runs} ${t.name.padEnd(7)} ${`${w} 1×1`.padEnd(12)} p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms`,
          );
        }
      }
    }

    const sample = (chain: string, pick: (runResults: LoadResult[]) => LoadResult[], key: keyof RunStats) =>
      summarize((results.get(chain) as LoadResult[][]).map((rr) => statsOf(pick(rr))[key]));
    const metrics: Metric[] = [];
    const add = (name: string, pick: (rr: LoadResult[]) => LoadResult[], key: keyof RunStats) => {
      const ours: Sample = sample("cowboy", pick, key);
      const theirs: Sample = sample("hardhat", pick, key);
      const rate = key === "tps";
      metrics.push(compare(name, rate ? "1/s" : "ms", rate, ours, peerName, theirs));
    };
    const loaded = (rr: LoadResult[]) => rr.slice(0, WORKLOADS.length);
    add("committed_tx_per_s", loaded, "tps");
    add("submit_to_commit_p50_ms", loaded, "p50");
    add("submit_to_commit_p99_ms", loaded, "p99");
    WORKLOADS.forEach((w, i) => {
      const pick = (rr: LoadResult[]) => [rr[i] as LoadResult];
      const p = METRIC_PREFIX[w];
      add(`${p}_tps`, pick, "tps");
      add(`${p}_latency_p50_ms`, pick, "p50");
      add(`${p}_latency_p90_ms`, pick, "p90");
      add(`${p}_latency_p99_ms`, pick, "p99");
    });
    WORKLOADS.forEach((w, i) => {
      const pick = (rr: LoadResult[]) => [rr[WORKLOADS.length + i] as LoadResult];
      add(`${METRIC_PREFIX[w]}_latency_idle_p50_ms`, pick, "p50");
    });
    return metrics;
  } finally {
    for (const t of targets) (t as CowboyTarget | HardhatTarget).close();
    await cowboyd.stop();
    await hardhat?.stop();
  }
}
