/**
 * The `pvm` suite: CPU kernels timed in the PVM (metering on) and in CPython 3.11 in the
 * same run. The measuring is done by `bench/pvm/run.py` (child CPU time, checksums checked
 * against CPython's output); this module builds the PVM driver, runs it, and returns the
 * metrics for `bench/run.ts` to publish.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Metric } from "../lib/report.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function run(): Promise<Metric[]> {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "pvm-core", "--example", "pvm_bench"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const driver = join(ROOT, "target", "release", "examples", "pvm_bench");
  const out = join(mkdtempSync(join(tmpdir(), "cowboy-bench-pvm-")), "pvm.json");
  const runs = process.env.PVM_BENCH_RUNS ?? "3";
  execFileSync(
    "python3",
    [join(ROOT, "bench", "pvm", "run.py"), "--pvm", driver, "--runs", runs, "--out", out],
    {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const result = JSON.parse(readFileSync(out, "utf8")) as { metrics: Metric[] };
  return result.metrics;
}
