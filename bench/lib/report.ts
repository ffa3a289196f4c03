/**
 * Benchmark results in the format of `shared/BENCH.md`: one JSON file per
 * suite under `bench/results/`, plus the same numbers as a readable table
 * (printed, and written beside the JSON as `<suite>.md`).
 *
 * Every metric is measured next to a peer in the same run; `ratio` is always
 * "how much better we are than the peer" (> 1 means better).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "results");

/** One published metric. Field names are those of BENCH.md. */
export interface Metric {
  name: string;
  value: number;
  unit: string;
  higher_is_better: boolean;
  peer: string;
  peer_value: number;
  ratio: number;
  runs: number;
  spread: number;
}

export interface SuiteResult {
  suite: string;
  commit: string;
  machine: { cores: number; cpu: string; node: string; rustc: string };
  when: string;
  metrics: Metric[];
}

/** Summary of repeated measurements of one quantity. */
export interface Sample {
  median: number;
  /** (max - min) / median over the runs. */
  spread: number;
  runs: number;
}

export function summarize(values: readonly number[]): Sample {
  if (values.length === 0) throw new Error("summarize: no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const spread = median === 0 ? 0 : ((sorted[sorted.length - 1] as number) - (sorted[0] as number)) / median;
  return { median, spread, runs: values.length };
}

/**
 * Runs `op` repeatedly for about `minMs` milliseconds per run, `runs` times,
 * and returns the operations per second of each run. `op` does `batch`
 * operations per call.
 */
export function opsPerSecond(
  op: () => void,
  opts: { runs?: number; minMs?: number; batch?: number } = {},
): Sample {
  const runs = opts.runs ?? 5;
  const minNs = BigInt(Math.round((opts.minMs ?? 300) * 1e6));
  const batch = opts.batch ?? 1;
  for (let i = 0; i < 3; i++) op(); // warm-up
  const rates: number[] = [];
  for (let r = 0; r < runs; r++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < minNs) {
      op();
      calls++;
      elapsed = process.hrtime.bigint() - start;
    }
    rates.push((calls * batch) / (Number(elapsed) / 1e9));
  }
  return summarize(rates);
}

/** Builds a metric from our sample and the peer's, computing the ratio in the metric's direction. */
export function compare(
  name: string,
  unit: string,
  higherIsBetter: boolean,
  ours: Sample,
  peer: string,
  theirs: Sample,
): Metric {
  const ratio = higherIsBetter ? ours.median / theirs.median : theirs.median / ours.median;
  return {
    name,
    value: round(ours.median),
    unit,
    higher_is_better: higherIsBetter,
    peer,
    peer_value: round(theirs.median),
    ratio: round(ratio, 3),
    runs: ours.runs,
    spread: round(Math.max(ours.spread, theirs.spread), 3),
  };
}

function round(x: number, digits = 0): number {
  if (!Number.isFinite(x)) return x;
  const abs = Math.abs(x);
  const d = digits > 0 ? digits : abs >= 100 ? 0 : abs >= 1 ? 2 : 4;
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

function tryRun(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown";
  }
}

export function machineInfo(): SuiteResult["machine"] {
  const rustc = tryRun("rustc", ["--version"]).split(" ")[1] ?? "unknown";
  return { cores: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version, rustc };
}

/** Renders the metrics as a fixed-width table. */
export function renderTable(result: SuiteResult): string {
  const header = ["metric", "value", "unit", "peer", "peer value", "ratio", "runs", "spread"];
  const rows = result.metrics.map((m) => [
    m.name,
    String(m.value),
    m.unit,
    m.peer,
    String(m.peer_value),
    `${m.ratio}×`,
    String(m.runs),
    `${Math.round(m.spread * 100)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  return [
    `suite ${result.suite} @ ${result.commit.slice(0, 12)} (${result.machine.cores} cores, ${result.machine.cpu}, node ${result.machine.node}, rustc ${result.machine.rustc})`,
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
  ].join("\n");
}

/** Writes `bench/results/<suite>.json` and `<suite>.md`, prints the table, returns the result. */
export function writeSuite(suite: string, metrics: Metric[]): SuiteResult {
  const result: SuiteResult = {
    suite,
    commit: tryRun("git", ["rev-parse", "HEAD"]),
    machine: machineInfo(),
    when: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    metrics,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${suite}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const table = renderTable(result);
  writeFileSync(join(RESULTS_DIR, `${suite}.md`), `\`\`\`\n${table}\n\`\`\`\n`);
  process.stdout.write(`${table}\n\n`);
  return result;
}
