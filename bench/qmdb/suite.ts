/**
 * The `qmdb` suite (shared/BENCH.md): the authenticated state store `crates/qmdb` next to a
 * plain, unauthenticated embedded key-value store (redb) doing the same work in the same
 * process run. The measuring is done in Rust by `crates/qmdb/examples/bench.rs` (the store is
 * driven from Rust in the node too: the PVM host writes without crossing into JS); this module
 * builds it, runs it and returns its metrics for `bench/run.ts` to publish.
 *
 * Metrics: `auth_updates_per_s_1m` / `_10m` (blocks of 10,000 random updates of existing
 * account keys, one state root and one fdatasync per block; redb: one durable write
 * transaction per block; the 20 blocks right after the prefill), `auth_updates_per_s_*_steady`
 * (the next 100 blocks per store, in 5 alternating runs of 20), `auth_updates_per_cpu_s_*`
 * (the same per CPU-second of the process: the steadier figure on a shared machine),
 * `reads_per_s`, `proofs_per_s`,
 * `proof_verifies_per_s` (peer: redb random reads), `disk_bytes_*`, `reopen_s_*`.
 *
 * `QMDB_BENCH_10M=1` adds the 10M-key case (about 15-30 more minutes and ~4 GiB of disk).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Metric } from "../lib/report.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function run(): Promise<Metric[]> {
  execFileSync("cargo", ["build", "--release", "-q", "-p", "cowboy-qmdb", "--example", "bench"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const target = process.env.CARGO_TARGET_DIR ?? join(ROOT, "target");
  const driver = join(target, "release", "examples", "bench");
  const dir = mkdtempSync(join(tmpdir(), "cowboy-bench-qmdb-"));
  const out = join(dir, "qmdb.json");
  const args = ["--out", out];
  if (process.env.QMDB_BENCH_10M === "1") args.push("--10m");
  try {
    execFileSync(driver, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    const result = JSON.parse(readFileSync(out, "utf8")) as { metrics: Metric[] };
    return result.metrics;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
