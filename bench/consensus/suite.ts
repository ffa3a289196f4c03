/**
 * `consensus` suite (shared/BENCH.md): Simplex voters over real libp2p QUIC on loopback, all
 * validators in this one process (so they share its event loop and the machine's cores —
 * figures are pessimistic for CPU-bound crypto), with the production BLS12-381 scheme; the
 * peer is the same network with the HMAC test scheme (MacScheme: no aggregation, no
 * threshold seed), measured in the same run, which isolates the cost of the real crypto.
 *
 * Metrics:
 * - finality_p50_ms_{4,7}, finality_p99_ms_4: proposal (leader builds the block) to
 *   finalization (each validator delivers it), pooled over validators, at 1 s pacing
 *   (`minViewMs` 1000);
 * - blocks_per_s_unpaced_{4,7}: finalized blocks per second with no pacing;
 * - cert_verify_per_s_{4,7}, vote_verify_per_s: certificate (aggregate + bitmap + seed) and
 *   vote (signature + seed partial) verifications per second, BLS vs MacScheme.
 * committed_tx_per_s_{4,7} need the state transition and validator processes: bench/consensus/tx-load.ts
 * (run after this suite: it adds its metrics to the same results).
 *
 * Run: `node bench/consensus/suite.ts` (writes bench/results/consensus.json, keeping the
 * committed_tx_per_s_* metrics of tx-load.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  blsDevnetKeys,
  blsDevnetSchemes,
  type Certificate,
  DEFAULT_TIMEOUTS,
  MacScheme,
  type Proposal,
  type SigningScheme,
  type Vote,
  type VoteKind,
  Voter,
} from "@cowboy/consensus";
import { ConsensusNetwork, createNode, loadOrCreateIdentity, type P2pNode, systemClock } from "@cowboy/p2p";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { memoryJournal, TOY_GENESIS, ToyChain, toyBlockCodec } from "../../ts/p2p/test/toy-chain.ts";
import {
  compare,
  type Metric,
  opsPerSecond,
  RESULTS_DIR,
  type Sample,
  summarize,
  writeSuite,
} from "../lib/report.ts";

function schemesFor(kind: "bls" | "mac", n: number): SigningScheme[] {
  if (kind === "mac") {
    const mac = new MacScheme(n, "bench");
    return Array.from({ length: n }, () => mac);
  }
  return blsDevnetSchemes(blsDevnetKeys(n, 1n, createHash("sha256").update(`bench-${n}`).digest()));
}

interface NetResult {
  latencies: number[];
  blocksPerSecond: number;
}

/** Runs `n` voters over QUIC for `measureMs` after `warmupMs`; returns finality latencies and block rate. */
export async function runNetwork(
  kind: "bls" | "mac",
  n: number,
  minViewMs: number,
  warmupMs: number,
  measureMs: number,
): Promise<NetResult> {
  const dir = await mkdtemp(join(tmpdir(), "cowboy-bench-consensus-"));
  const schemes = schemesFor(kind, n);
  const proposedAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  let finalizedAt0 = 0;
  const paths = Array.from({ length: n }, (_, i) => join(dir, `v${i}.key`));
  const validators: Array<{ index: number; peerId: string }> = [];
  for (const [index, path] of paths.entries())
    validators.push({
      index,
      peerId: peerIdFromPrivateKey((await loadOrCreateIdentity(path)).key).toString(),
    });
  const common = {
    chainId: `bench-${kind}-${n}`,
    transports: ["quic" as const],
    validators,
    discoveryIntervalMs: 300,
  };
  const nodes: P2pNode[] = [await createNode({ ...common, identityPath: paths[0] as string })];
  for (const p of paths.slice(1))
    nodes.push(
      await createNode({ ...common, identityPath: p, bootstrap: (nodes[0] as P2pNode).multiaddrs() }),
    );
  const voters: Voter[] = [];
  try {
    const deadline = Date.now() + 30_000;
    while (!nodes.every((a) => nodes.every((b) => a === b || a.connectedPeers().includes(b.peerId)))) {
      if (Date.now() > deadline) throw new Error("bench: the validators did not connect");
      await new Promise((r) => setTimeout(r, 25));
    }
    for (let i = 0; i < n; i++) {
      const network = new ConsensusNetwork({ node: nodes[i] as P2pNode, codec: toyBlockCodec });
      const app = new (class extends ToyChain {
        override finalized(p: Proposal, b: unknown, c: Certificate | null): void {
          super.finalized(p, b, c);
          if (!measuring) return;
          const t = proposedAt.get(p.payload);
          if (t !== undefined) latencies.push(performance.now() - t);
          if (i === 0) finalizedAt0++;
        }
      })(i);
      app.onPropose = (digest) => proposedAt.set(digest, performance.now());
      const voter = new Voter({
        config: {
          me: i,
          epoch: 0,
          genesisSeed: new Uint8Array(32),
          finalized: TOY_GENESIS,
          ...DEFAULT_TIMEOUTS,
          minViewMs,
        },
        scheme: schemes[i] as SigningScheme,
        app,
        network,
        clock: systemClock,
        journal: memoryJournal(),
      });
      network.onMessage((from, m) => voter.receive(from, m));
      voters.push(voter);
    }
    for (const v of voters) v.start();
    await new Promise((r) => setTimeout(r, warmupMs));
    measuring = true;
    const start = performance.now();
    await new Promise((r) => setTimeout(r, measureMs));
    measuring = false;
    return { latencies, blocksPerSecond: finalizedAt0 / ((performance.now() - start) / 1000) };
  } finally {
    for (const v of voters) v.stop();
    await Promise.all(nodes.map((x) => x.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const one = (v: number): Sample => ({ median: v, spread: 0, runs: 1 });

function latencyMetrics(n: number, bls: NetResult, mac: NetResult, withP99: boolean): Metric[] {
  const out = [
    compare(
      `finality_p50_ms_${n}`,
      "ms",
      false,
      one(percentile(bls.latencies, 50)),
      "mac-scheme",
      one(percentile(mac.latencies, 50)),
    ),
  ];
  if (withP99)
    out.push(
      compare(
        `finality_p99_ms_${n}`,
        "ms",
        false,
        one(percentile(bls.latencies, 99)),
        "mac-scheme",
        one(percentile(mac.latencies, 99)),
      ),
    );
  return out;
}

/** Signed votes and certificates for the verification micro-benchmarks. */
function fixtures(kind: "bls" | "mac", n: number) {
  const schemes = schemesFor(kind, n);
  const round = { epoch: 0, view: 7 };
  const proposal: Proposal = {
    round,
    height: 5,
    parentView: 6,
    parent: TOY_GENESIS.digest,
    payload: "ab".repeat(32),
  };
  const vote = (i: number, k: VoteKind): Vote => {
    const p = k === "nullify" ? null : proposal;
    return {
      kind: k,
      round,
      proposal: p,
      signer: i,
      signature: (schemes[i] as SigningScheme).sign(i, k, round, p),
    };
  };
  const votes = Array.from({ length: n }, (_, i) => vote(i, "notarize"));
  const scheme = schemes[0] as SigningScheme;
  return { scheme, vote: votes[1] as Vote, cert: scheme.assemble(votes) };
}

export async function run(): Promise<Metric[]> {
  const metrics: Metric[] = [];
  // crypto micro-benchmarks
  for (const n of [4, 7]) {
    const bls = fixtures("bls", n);
    const mac = fixtures("mac", n);
    if (!bls.scheme.verifyCertificate(bls.cert) || !mac.scheme.verifyCertificate(mac.cert))
      throw new Error("bench: fixture certificates do not verify");
    const ours = opsPerSecond(() => bls.scheme.verifyCertificate(bls.cert), { runs: 5, minMs: 300 });
    const theirs = opsPerSecond(() => mac.scheme.verifyCertificate(mac.cert), { runs: 5, minMs: 300 });
    metrics.push(compare(`cert_verify_per_s_${n}`, "1/s", true, ours, "mac-scheme", theirs));
    if (n === 4) {
      const ov = opsPerSecond(() => bls.scheme.verifyVote(bls.vote), { runs: 5, minMs: 300 });
      const tv = opsPerSecond(() => mac.scheme.verifyVote(mac.vote), { runs: 5, minMs: 300 });
      metrics.push(compare("vote_verify_per_s", "1/s", true, ov, "mac-scheme", tv));
    }
  }
  // networks: 1 s pacing for latency, unpaced for throughput
  const paced4 = {
    bls: await runNetwork("bls", 4, 1_000, 3_000, 20_000),
    mac: await runNetwork("mac", 4, 1_000, 3_000, 20_000),
  };
  metrics.push(...latencyMetrics(4, paced4.bls, paced4.mac, true));
  const paced7 = {
    bls: await runNetwork("bls", 7, 1_000, 3_000, 20_000),
    mac: await runNetwork("mac", 7, 1_000, 3_000, 20_000),
  };
  metrics.push(...latencyMetrics(7, paced7.bls, paced7.mac, true));
  for (const n of [4, 7]) {
    const rates = { bls: [] as number[], mac: [] as number[] };
    for (let r = 0; r < 3; r++) {
      rates.bls.push((await runNetwork("bls", n, 0, 2_000, 5_000)).blocksPerSecond);
      rates.mac.push((await runNetwork("mac", n, 0, 2_000, 5_000)).blocksPerSecond);
    }
    metrics.push(
      compare(
        `blocks_per_s_unpaced_${n}`,
        "1/s",
        true,
        summarize(rates.bls),
        "mac-scheme",
        summarize(rates.mac),
      ),
    );
  }
  return metrics;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // keep tx-load.ts's metrics (committed_tx_per_s_*) of an earlier run
  const path = join(RESULTS_DIR, "consensus.json");
  const previous: Metric[] = existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8")) as { metrics: Metric[] }).metrics
    : [];
  const measured = await run();
  const names = new Set(measured.map((m) => m.name));
  writeSuite("consensus", [...measured, ...previous.filter((m) => !names.has(m.name))]);
}
