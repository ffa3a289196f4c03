/**
 * `stf` benchmark suite (shared/BENCH.md): the whole state transition — decode, §2.2 checks
 * with signature verification, execution, fees, receipts, roots and the qmdb commit — over
 * the real store (crates/qmdb through `QmdbState`) in a temporary directory.
 *
 * - `transfers_per_s`: blocks of transfers from distinct senders through `Chain.buildBlock`.
 *   Peer: the same blocks through the same STF with the pure-TS signature checks of
 *   `@cowboy/sdk` (noble) instead of the addon's batch verification.
 * - `actor_calls_per_s`: blocks of `increment` calls on counter actors (the PVM through the
 *   addon's `executeActor`). Peer: transfers, same run (ratio = calls/s ÷ transfers/s).
 * - `timer_fires_per_s_1m_pending`: due timers firing a counter handler while 1,000,000 other
 *   timers are pending. Peer: the same fires with nothing else pending (ratio ≈ 1 means the
 *   work per fire does not depend on the queue's size).
 *
 * Metrics needing the actor runtime are left out when the addon has no `executeActor`.
 *
 * With the addon's verifier the signature checks of a block run on other threads while its
 * transactions execute (`txVerifyStart`), so on 2 cores a transfer costs the larger of the main
 * thread's work and half of the whole process's CPU, not their sum. `lastCpu` holds the CPU
 * time per transaction of the last `buildAll` (main thread and whole process): on a shared,
 * loaded machine the wall-clock rates swing with the other load, the CPU times much less.
 * `BENCH_STF_RUNS`, `BENCH_STF_SENDERS`, `BENCH_STF_BLOCKS`, `BENCH_STF_PENDING`,
 * `BENCH_STF_DUE` and `BENCH_STF_TIMER_RUNS` scale the suite (defaults 3, 2,000, 3, 1,000,000,
 * 3,000, 2).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  addressFromSecretKey,
  canonicalizeSource,
  encodeCbor,
  encodeTransaction,
  type Instruction,
  unsignedTransaction,
} from "@cowboy/sdk";
import {
  type ChainHandle,
  type ChainParams,
  nativeExecuteActor,
  openChain,
  sdkVerifyBatch,
  TimerQueue,
  UNITS_PER_CBY,
} from "../../ts/node/src/index.ts";
import { compare, type Metric, type Sample, summarize } from "../lib/report.ts";

const native = createRequire(import.meta.url)("@cowboy/native") as {
  txSign(tx: Buffer, key: Buffer): Buffer;
};
const CHAIN_ID = 1337n;
const T0 = 1_800_000_000_000n;
const PROPOSER = new Uint8Array(20).fill(0xee);

function key(i: number): Uint8Array {
  const k = new Uint8Array(32);
  k[0] = 0x5a;
  new DataView(k.buffer).setUint32(28, i + 1);
  return k;
}

/** A signed transaction of the bench chain (exported for profiling scripts). */
export function sign(
  sk: Uint8Array,
  from: Uint8Array,
  nonce: bigint,
  instruction: Instruction,
  cyclesLimit: bigint,
  cellsLimit: bigint,
): Uint8Array {
  const tx = unsignedTransaction({
    chainId: CHAIN_ID,
    nonce,
    instruction,
    from,
    limits: {
      cyclesLimit,
      cellsLimit,
      maxFeePerCycle: 20_000n,
      maxFeePerCell: 20_000n,
      maxPriorityFeePerCycle: 10n,
      maxPriorityFeePerCell: 1n,
    },
  });
  return new Uint8Array(native.txSign(Buffer.from(encodeTransaction(tx)), Buffer.from(sk)));
}

export interface World {
  dir: string;
  handle: ChainHandle;
  close(): void;
}

/** A fresh chain on the real store in a temporary directory, `senders` funded. */
export function world(
  senders: Uint8Array[],
  opts: { verifyBatch?: (t: readonly Uint8Array[]) => boolean[]; params?: ChainParams } = {},
): World {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-bench-stf-"));
  const genesis = {
    chainId: CHAIN_ID,
    timestampMs: T0,
    accounts: senders.map((address) => ({ address, balance: 1_000_000n * UNITS_PER_CBY })),
  };
  const handle = openChain(dir, genesis, {
    ...(opts.verifyBatch === undefined ? {} : { verifyBatch: opts.verifyBatch }),
    ...(opts.params === undefined ? {} : { params: opts.params }),
  });
  return {
    dir,
    handle,
    close() {
      handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

setFlagsFromString("--expose-gc");
/** V8's full collector (exposed once at load; `--expose-gc` only affects contexts created after it). */
const fullGc = runInNewContext("gc") as () => void;

/**
 * Collects the garbage of whatever ran before a measured window — the setup (signing, genesis,
 * deploys) and earlier phases, e.g. the pure-TS signature peer, which leaves tens of MB of
 * BigInt garbage — so that the window pays only for collecting its own garbage, as a node
 * running that workload would. Without it a window could absorb a full mark-compact of garbage
 * made before it (50–210 ms each in `--trace-gc`, in windows of about 2 s).
 */
export function settle(): void {
  fullGc();
}

/**
 * CPU time of the last {@link buildAll} in microseconds per transaction: on the main thread and
 * in the whole process (signature checks, PVM and store threads, GC). On a shared machine the
 * wall-clock rate depends on the other load; these do much less.
 */
export const lastCpu = { mainUsPerTx: 0, processUsPerTx: 0 };

/** Builds `blocks` on `w` and returns transactions per second over all of them. */
export function buildAll(w: World, blocks: Uint8Array[][]): number {
  const chain = w.handle.chain;
  let n = 0;
  settle();
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const start = process.hrtime.bigint();
  for (const txs of blocks) {
    const r = chain.buildBlock(txs, { timestampMs: chain.head.timestampMs + 1000n, proposer: PROPOSER });
    if (r.skipped.length > 0)
      throw new Error(`bench: ${r.skipped.length} skipped, first ${r.skipped[0]?.error.code}`);
    if (r.receipts.some((x) => x.kind === "tx" && x.status !== "success"))
      throw new Error(
        `bench: a transaction failed: ${r.receipts.find((x) => x.status !== "success")?.error}`,
      );
    n += r.block.transactions.length;
  }
  const rate = n / (Number(process.hrtime.bigint() - start) / 1e9);
  const cpu = process.cpuUsage(cpu0);
  const main = process.threadCpuUsage(main0);
  lastCpu.mainUsPerTx = (main.user + main.system) / n;
  lastCpu.processUsPerTx = (cpu.user + cpu.system) / n;
  return rate;
}

/** The bench's counter actor: `increment(by=1)` adds to a stored count and returns it. */
export const COUNTER = canonicalizeSource(`from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self, by: int = 1) -> int:
        self.storage["count"] += by
        return self.storage["count"]
`);

export async function run(): Promise<Metric[]> {
  const RUNS = Number(process.env.BENCH_STF_RUNS ?? 3);
  const SENDERS = Number(process.env.BENCH_STF_SENDERS ?? 2_000);
  const BLOCKS = Number(process.env.BENCH_STF_BLOCKS ?? 3);
  const { keys, addrs } = benchKeys(SENDERS);
  const metrics: Metric[] = [];
  const ours: number[] = [];
  const peer: number[] = [];
  const blocks = transferBlocks(keys, addrs, BLOCKS);
  for (let r = 0; r < RUNS; r++) {
    const a = world(addrs);
    ours.push(buildAll(a, blocks));
    a.close();
    const b = world(addrs, { verifyBatch: sdkVerifyBatch });
    peer.push(buildAll(b, blocks));
    b.close();
  }
  const transfers: Sample = summarize(ours);
  metrics.push(
    compare(
      "transfers_per_s",
      "1/s",
      true,
      transfers,
      "same STF, @cowboy/sdk (noble) signature checks",
      summarize(peer),
    ),
  );

  if (nativeExecuteActor() === null) {
    process.stderr.write(
      "bench stf: the addon has no executeActor; actor_calls_per_s and timer_fires_per_s_1m_pending skipped\n",
    );
    return metrics;
  }
  const calls: number[] = [];
  for (let r = 0; r < RUNS; r++) calls.push(actorCalls(keys, addrs, BLOCKS));
  metrics.push(
    compare(
      "actor_calls_per_s",
      "1/s",
      true,
      summarize(calls),
      "transfers through the same STF (this run)",
      transfers,
    ),
  );

  const PENDING = Number(process.env.BENCH_STF_PENDING ?? 1_000_000);
  const DUE = Number(process.env.BENCH_STF_DUE ?? 3_000);
  const withPending: number[] = [];
  const empty: number[] = [];
  for (let r = 0; r < Number(process.env.BENCH_STF_TIMER_RUNS ?? 2); r++) {
    withPending.push(timerFires(keys, addrs, PENDING, DUE));
    empty.push(timerFires(keys, addrs, 0, DUE));
  }
  metrics.push(
    compare(
      "timer_fires_per_s_1m_pending",
      "1/s",
      true,
      summarize(withPending),
      "the same fires with no other timer pending",
      summarize(empty),
    ),
  );
  return metrics;
}

/**
 * Applies one block (the first on `w`: at T0 + 1 s) of the signed `deploys` and returns the
 * deployed actors' addresses in their order. Throws if a deploy is skipped or fails.
 */
export function deployBlock(w: World, deploys: Uint8Array[]): Uint8Array[] {
  const dr = w.handle.chain.buildBlock(deploys, { timestampMs: T0 + 1000n, proposer: PROPOSER });
  if (dr.skipped.length > 0) throw new Error(`bench: deploy skipped: ${dr.skipped[0]?.error.message}`);
  return dr.receipts.map((x) => {
    if (x.status !== "success" || x.contractAddress === null)
      throw new Error(`bench: deploy failed: ${x.error}`);
    return x.contractAddress;
  });
}

/**
 * Deploys `count` {@link COUNTER} actors on a fresh `w` in one block ({@link deployBlock}):
 * counter i by sender i (`keys[i]`, `addrs[i]`, nonce 0, salt = i as a u32 in the last four
 * bytes), so `count` must not exceed the senders. Returns their addresses.
 */
export function deployCounters(
  w: World,
  keys: Uint8Array[],
  addrs: Uint8Array[],
  count: number,
): Uint8Array[] {
  if (count > keys.length) throw new Error(`bench: ${count} counters need as many senders`);
  const deploys = Array.from({ length: count }, (_, i) => {
    const salt = new Uint8Array(32);
    new DataView(salt.buffer).setUint32(28, i);
    return sign(
      keys[i] as Uint8Array,
      addrs[i] as Uint8Array,
      0n,
      { kind: "deploy", source: COUNTER, salt, initArgs: new Uint8Array(0), value: 0n },
      1_000_000n,
      20_000n,
    );
  });
  return deployBlock(w, deploys);
}

/**
 * Calls/s of `blocks` blocks in which every sender calls `increment` on one of the counter
 * actors (one per 32 senders, so the §12.1 per-actor block budget is not the limit).
 */
export function actorCalls(keys: Uint8Array[], addrs: Uint8Array[], blocks: number): number {
  const senders = keys.length;
  const ACTORS = Math.max(1, Math.ceil(senders / 32));
  const w = world(addrs);
  try {
    const actors = deployCounters(w, keys, addrs, ACTORS);
    const args = encodeCbor([1]);
    const callBlocks = Array.from({ length: blocks }, (_, b) =>
      keys.map((k, i) =>
        sign(
          k,
          addrs[i] as Uint8Array,
          BigInt(b + (i < ACTORS ? 1 : 0)),
          { kind: "call", to: actors[i % ACTORS] as Uint8Array, handler: "increment", args, value: 0n },
          30_000n,
          1_000n,
        ),
      ),
    );
    return buildAll(w, callBlocks);
  } finally {
    w.close();
  }
}

const TICKER = canonicalizeSource(`from cowboy_sdk import actor

@actor
class Ticker:
    def __init__(self):
        self.storage["ticks"] = 0

    def tick(self, data):
        self.storage["ticks"] += 1
`);

/** Owner address #i for queue entries (the per-owner cap of 1,024 active timers applies). */
function owner(i: number): Uint8Array {
  const a = new Uint8Array(20);
  a[0] = 0x7e;
  new DataView(a.buffer).setUint32(16, i);
  return a;
}

/**
 * Fires `due` timers (a counter handler, paid by a funded actor) with `pending` other timers
 * queued a million blocks ahead; returns fires per second over the blocks that fire them.
 */
export function timerFires(keys: Uint8Array[], addrs: Uint8Array[], pending: number, due: number): number {
  const w = world(addrs.slice(0, 1));
  try {
    const chain = w.handle.chain;
    // 16 tickers, so the §12.1 per-actor block budget is not what limits the timer lane
    const deploys = Array.from({ length: 16 }, (_, i) => {
      const salt = new Uint8Array(32);
      salt[31] = i;
      return sign(
        keys[0] as Uint8Array,
        addrs[0] as Uint8Array,
        BigInt(i),
        { kind: "deploy", source: TICKER, salt, initArgs: new Uint8Array(0), value: 50_000n * UNITS_PER_CBY },
        1_000_000n,
        20_000n,
      );
    });
    const tickers = deployBlock(w, deploys);
    // queue the timers straight into the store (setup, not measured), then commit them with a block
    const q = new TimerQueue(w.handle.state);
    const data = encodeCbor(null);
    const base = {
      handler: "tick",
      data,
      interval: null,
      cyclesPerFire: 550_000n,
      cellsPerFire: 550_000n,
      expiresAt: null,
    };
    const id = (n: number) => {
      const b = new Uint8Array(32);
      new DataView(b.buffer).setUint32(28, n);
      return b;
    };
    // pending timers a million blocks ahead, committed 100,000 at a time
    const CHUNK = 100_000;
    for (let start = 0; start < pending; start += CHUNK) {
      const h = chain.head.height;
      for (let i = start; i < Math.min(pending, start + CHUNK); i++) {
        const t = tickers[i % 16] as Uint8Array;
        const fireAt = h + 1_000_000n + BigInt(i % 5_000);
        q.schedule(
          { ...base, createdAt: h, target: t, feePayer: t, id: id(i + 1), owner: owner(i >> 10), fireAt },
          h,
        );
      }
      chain.buildBlock([], { timestampMs: chain.head.timestampMs + 1000n, proposer: PROPOSER });
    }
    const h = chain.head.height;
    for (let i = 0; i < due; i++) {
      const t = tickers[i % 16] as Uint8Array;
      q.schedule(
        {
          ...base,
          createdAt: h,
          target: t,
          feePayer: t,
          id: id(pending + i + 1),
          owner: owner(0x100000 + (i >> 10)),
          fireAt: h + 2n,
        },
        h,
      );
    }
    chain.buildBlock([], { timestampMs: chain.head.timestampMs + 1000n, proposer: PROPOSER });
    settle();
    let fired = 0;
    const start = process.hrtime.bigint();
    while (fired < due) {
      const r = chain.buildBlock([], { timestampMs: chain.head.timestampMs + 1000n, proposer: PROPOSER });
      const fires = r.receipts.filter((x) => x.kind === "timer");
      const bad = fires.find((x) => x.status !== "success");
      if (bad !== undefined) throw new Error(`bench: a timer fire failed: ${bad.error}`);
      fired += fires.length;
      if (fires.length === 0) throw new Error("bench: due timers stopped firing");
    }
    return fired / (Number(process.hrtime.bigint() - start) / 1e9);
  } finally {
    w.close();
  }
}

/** `senders` bench keys and their addresses (used by profiling scripts). */
export function benchKeys(senders: number): { keys: Uint8Array[]; addrs: Uint8Array[] } {
  const keys = Array.from({ length: senders }, (_, i) => key(i));
  return { keys, addrs: keys.map((k) => addressFromSecretKey(k)) };
}

/**
 * `blocks` blocks of signed transfers: in block b every sender i sends 1,000 units to sender
 * i + 1 (mod the senders) at nonce b, with the §17.2 transfer limits (21,000 cycles, 0 cells).
 */
export function transferBlocks(keys: Uint8Array[], addrs: Uint8Array[], blocks: number): Uint8Array[][] {
  return Array.from({ length: blocks }, (_, b) =>
    keys.map((k, i) =>
      sign(
        k,
        addrs[i] as Uint8Array,
        BigInt(b),
        { kind: "transfer", to: addrs[(i + 1) % keys.length] as Uint8Array, amount: 1_000n },
        21_000n,
        0n,
      ),
    ),
  );
}

/** Transfers/s of `blocks` blocks of `senders` transfers (used by profiling scripts). */
export function profileTransfers(senders: number, blocks: number): number {
  const { keys, addrs } = benchKeys(senders);
  const txs = transferBlocks(keys, addrs, blocks);
  const w = world(addrs);
  try {
    return buildAll(w, txs);
  } finally {
    w.close();
  }
}
