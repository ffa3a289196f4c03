/**
 * `committed_tx_per_s_{4,7}` of the `consensus` suite: the capacity of a localnet of validator
 * processes (ts/node/src/localnet.ts: BLS Simplex over QUIC, each executing every block with
 * the state transition function on its own QMDB store) under a saturating load of signed
 * transfers. Peer: the same localnet code with a single validator (no network, no vote
 * exchange, no transaction gossip), measured in the same run: the ratio is the cost of
 * replicating (consensus, gossip, every validator admitting and executing every transfer).
 *
 * Load. {@link SENDERS} funded accounts × up to {@link PER_SENDER} transfers each, signed
 * before any clock starts (once per process, with the addon). The generator behaves like many
 * wallets behind RPC gateways: {@link CONNECTIONS} WebSocket clients spread over the
 * validators (client c → validator c mod n, carrying the senders s ≡ c mod CONNECTIONS in
 * nonce order), each sending JSON-RPC batches of {@link BATCH} `cowboy_sendRawTransaction`
 * (the dispatcher's `maxBatch`) with {@link WINDOW} batches in flight, paced under the RPC
 * server's per-client rate limit. It is closed-loop: each client keeps at most
 * {@link MAX_OUTSTANDING} / {@link CONNECTIONS} transfers submitted but not committed (a real
 * generator backs off when the pool fills), so the mempool never refuses one (pool size, a
 * sender's 128-nonce window). A validator may still refuse a transfer as too far ahead of
 * its state's nonce (ERR_MEMPOOL_NONCE_GAP) — it lags behind the chain, or that sender's
 * transfers lost many blocks in a row to lower hashes (equal fees tie by hash, blocks are
 * capped): that one is sent again after a pause; any other refusal fails the run. Gossip spreads the transfers.
 *
 * Measure. Validator 0's finalized blocks are followed over JSON-RPC (`cowboy_blockNumber`,
 * `cowboy_getBlockByNumber`: served from its ledger, i.e. finalized, executed, receipts
 * stored). The window opens at the first observation of committed transfers (the pipeline is
 * full) and lasts {@link MEASURE_MS}; the value is the transfers of the blocks observed in it
 * over the time between its first and last observation (whole blocks; ramp-up and drain
 * excluded). Then the submission stops, the load drains, and the run checks that every
 * accepted transfer was committed exactly once (the blocks hold exactly the accepted count of
 * the load's transfers, recognized by hash, whatever else they hold, and the senders' nonces
 * sum to it).
 *
 * Pacing: 100 ms (`minViewMs`) for every network: unpaced, a lone validator would spend its
 * time on tiny blocks as fast as it can commit them, which would measure that, not capacity.
 *
 * Run: `node bench/consensus/tx-load.ts` (adds or replaces its metrics in
 * bench/results/consensus.json, keeping the suite's other metrics). `TXLOAD_RUNS=n` sets the
 * runs per network (default 2); `TXLOAD_ONLY=n` runs one network of n validators and writes
 * nothing (diagnostics); `TXLOAD_PROF=dir` runs the validators under `node --cpu-prof`
 * (profiles in dir); `TXLOAD_TRACE=1` prints the commit timeline and validator 0's view;
 * `TXLOAD_LOG=1` (with `TXLOAD_LOGLEVEL=info|debug`) prints the validators' logs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as native from "@cowboy/native";
import { deriveDevKeys } from "@cowboy/node/devnet";
import {
  encodeTransaction,
  signTransaction,
  type Transaction,
  toHex,
  transferTransaction,
} from "@cowboy/sdk";
import {
  DEFAULT_LOCALNET,
  planLocalnet,
  spawnValidator,
  type ValidatorProcess,
} from "../../ts/node/src/localnet.ts";
import { compare, type Metric, RESULTS_DIR, type Sample, summarize, writeSuite } from "../lib/report.ts";

/** funded accounts sending transfers */
export const SENDERS = 200;
/** transfers signed per sender (the load runs out after SENDERS × PER_SENDER) */
export const PER_SENDER = 400;
/** most transfers submitted and not yet committed (well below the mempool's 20,000) */
export const MAX_OUTSTANDING = 6_000;
/** WebSocket connections of the load generator, spread over the validators */
export const CONNECTIONS = 24;
/** requests per JSON-RPC batch (the dispatcher's default `maxBatch`) */
export const BATCH = 100;
/** batches in flight per connection */
export const WINDOW = 2;
/** the window opens when the first transfers are committed (the pipeline is full) and lasts this long */
export const MEASURE_MS = 12_000;
/** the first transfers must be committed by then */
const FIRST_COMMIT_TIMEOUT_MS = 60_000;
/** the RPC server's per-client token bucket (burst 1,000, 500/s): the generator stays under it */
const CLIENT_BURST = 1_000;
const CLIENT_PER_S = 450;
/** both networks propose at most every 100 ms */
const PACING_MS = 100;
/** the load must be committed by then after the submission stops */
const DRAIN_TIMEOUT_MS = 120_000;

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/** `calls` as JSON-RPC batches of at most {@link BATCH}; the results in order. */
async function rpcBatch(url: string, calls: Array<[string, unknown[]]>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < calls.length; i += BATCH)
    out.push(...(await rpcBatchOnce(url, calls.slice(i, i + BATCH))));
  return out;
}

async function rpcBatchOnce(url: string, calls: Array<[string, unknown[]]>): Promise<unknown[]> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params }))),
  });
  const answer = (await r.json()) as Array<{ id: number; result?: unknown; error?: { message: string } }>;
  if (!Array.isArray(answer)) throw new Error(`batch refused: ${JSON.stringify(answer)}`);
  const out: unknown[] = new Array(calls.length);
  for (const a of answer) {
    if (a.error) throw new Error(`${calls[a.id]?.[0]}: ${a.error.message}`);
    out[a.id] = a.result;
  }
  return out;
}

/** The bench's signed transfers. */
export interface SignedLoad {
  /** per sender, its transfers in nonce order (hex encodings) */
  readonly raws: string[][];
  /**
   * the hashes of all of them (hex): a transaction's hash is the hash of its encoding with the
   * signature zeroed, i.e. its signing hash (checked against every hash a validator answers)
   */
  readonly hashes: ReadonlySet<string>;
}

/**
 * The signed load. Signed with the addon (`txSigningHash`, `signHash`: ~40× the SDK's speed);
 * the first transfer is checked against the SDK's `signTransaction`.
 */
export function signLoad(chainId: bigint, perSender = PER_SENDER): SignedLoad {
  const keys = deriveDevKeys(SENDERS).accounts;
  const sink = new Uint8Array(20).fill(0xee);
  // the SDK's default transfer limits, with the 1,000 cells this load has always declared
  const unsigned = (from: Uint8Array, nonce: number): Transaction =>
    transferTransaction({
      chainId,
      nonce: BigInt(nonce),
      from,
      to: sink,
      amount: 1n,
      limits: { cellsLimit: 1_000n },
    });
  const hashes = new Set<string>();
  const load = keys.map((k) => {
    const sk = Buffer.from(k.secretKey);
    return Array.from({ length: perSender }, (_, nonce) => {
      const tx = unsigned(k.address, nonce);
      const hash = native.txSigningHash(Buffer.from(encodeTransaction(tx)));
      hashes.add(toHex(hash));
      return toHex(encodeTransaction({ ...tx, signature: native.signHash(hash, sk) }));
    });
  });
  const k0 = keys[0] as (typeof keys)[number];
  if (load[0]?.[0] !== toHex(encodeTransaction(signTransaction(unsigned(k0.address, 0), k0.secretKey))))
    throw new Error("txload: the native signer disagrees with the SDK");
  return { raws: load, hashes };
}

/** Shared state of one run's submission. */
interface Submission {
  /** transfers accepted by the validators */
  accepted: number;
  /**
   * the bench's transfers committed on validator 0 (kept up to date by the block follower);
   * other transactions of the blocks (DKG logs, evidence) are not counted
   */
  committed: number;
  /** the hashes of the bench's transfers ({@link SignedLoad.hashes}) */
  ours: ReadonlySet<string>;
  /** sending stops when set */
  stop: boolean;
  error: Error | null;
  /** wakes connections waiting for room under their share of {@link MAX_OUTSTANDING} */
  waiters: Array<() => void>;
  /** the client that sent each accepted transfer, by hash */
  clientOf: Map<string, { committed: number }>;
  /** transfers refused by a lagging validator (nonce gap) and sent again */
  retried: number;
}

/**
 * One client connection: sends `raws` (in a valid order) over a WebSocket to `ws` in batches
 * of {@link BATCH}, {@link WINDOW} in flight, while fewer than its share of
 * {@link MAX_OUTSTANDING} transfers are outstanding, paced under the server's per-client rate limit. A refused
 * batch or transfer fails the run (the load is valid by construction).
 */
async function client(ws: string, raws: readonly string[], sub: Submission): Promise<void> {
  const mine = { committed: 0 };
  let sent = 0;
  const socket = new WebSocket(ws);
  await new Promise<void>((res, rej) => {
    socket.addEventListener("open", () => res(), { once: true });
    socket.addEventListener("error", () => rej(new Error(`cannot connect to ${ws}`)), { once: true });
  });
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  let failed: (e: Error) => void = () => {};
  const failure = new Promise<never>((_, rej) => {
    failed = rej;
  });
  failure.catch(() => {});
  socket.addEventListener("message", (ev) => {
    const answer = JSON.parse(String(ev.data)) as
      | Array<{ id: number; result?: unknown; error?: { message: string; data?: { code?: string } } }>
      | { id: null; error: { message: string } };
    if (!Array.isArray(answer)) {
      failed(new Error(`txload: a batch was refused: ${answer.error.message}`));
      return;
    }
    let first = Number.POSITIVE_INFINITY;
    for (const a of answer) {
      if (a.id < first) first = a.id;
      const raw = inflight.get(a.id) as string;
      inflight.delete(a.id);
      if (a.error === undefined) {
        if (!sub.ours.has(a.result as string))
          failed(new Error(`txload: a validator answered hash ${String(a.result)}, not one of the load's`));
        sub.accepted++;
        sub.clientOf.set(a.result as string, mine);
      } else if (a.error.data?.code === "ERR_MEMPOOL_NONCE_GAP") {
        // the validator's state is far behind this sender's nonce (see the module comment): later
        retry.push(raw);
        sent--;
        sub.retried++;
      } else failed(new Error(`txload: a transfer was refused: ${a.error.message}`));
    }
    const done = waiting.get(first);
    waiting.delete(first);
    done?.();
  });
  /** the transfer of each request in flight, by request id */
  const inflight = new Map<number, string>();
  /** transfers a lagging validator refused (nonce gap), sent again after a pause */
  const retry: string[] = [];
  let tokens = CLIENT_BURST;
  let at = performance.now();
  const send = async (batch: readonly string[]): Promise<void> => {
    for (;;) {
      const now = performance.now();
      tokens = Math.min(CLIENT_BURST, tokens + ((now - at) * CLIENT_PER_S) / 1000);
      at = now;
      if (tokens >= batch.length) break;
      await new Promise((r) => setTimeout(r, ((batch.length - tokens) * 1000) / CLIENT_PER_S + 1));
    }
    tokens -= batch.length;
    const first = nextId;
    nextId += batch.length;
    for (const [i, raw] of batch.entries()) inflight.set(first + i, raw);
    const answered = new Promise<void>((done) => waiting.set(first, done));
    socket.send(
      JSON.stringify(
        batch.map((raw, i) => ({
          jsonrpc: "2.0",
          id: first + i,
          method: "cowboy_sendRawTransaction",
          params: [raw],
        })),
      ),
    );
    await Promise.race([answered, failure]);
  };
  let next = 0;
  const lane = async () => {
    while ((next < raws.length || retry.length > 0 || inflight.size > 0) && !sub.stop) {
      if (next >= raws.length && retry.length === 0) {
        await new Promise((r) => setTimeout(r, 50)); // answers still to come may ask for a retry
        continue;
      }
      while (sent - mine.committed >= MAX_OUTSTANDING / CONNECTIONS && !sub.stop)
        await new Promise<void>((r) => sub.waiters.push(r));
      if (sub.stop) break;
      let batch: string[];
      if (retry.length > 0) {
        await new Promise((r) => setTimeout(r, 200));
        batch = retry.splice(0, BATCH);
        if (batch.length === 0) continue;
      } else {
        batch = raws.slice(next, next + BATCH);
        next += batch.length;
      }
      if (batch.length === 0) continue; // the other lane took the rest meanwhile
      sent += batch.length;
      await send(batch);
    }
  };
  try {
    await Promise.all(Array.from({ length: WINDOW }, lane));
  } catch (err) {
    sub.error ??= err as Error;
  } finally {
    socket.close();
  }
}

/** Result of one run. */
export interface RunResult {
  /** committed transfers per second over the steady window */
  rate: number;
  /** transfers committed (= accepted: checked) */
  committed: number;
  /** blocks in the window and their mean size */
  blocks: number;
  meanBlockTxs: number;
}

/** Committed transfers per second (steady window) of one localnet of `n` validators. */
export async function committedTxPerSecond(n: number, signed: SignedLoad): Promise<RunResult> {
  const load = signed.raws;
  const dir = mkdtempSync(join(tmpdir(), "cowboy-txload-"));
  const procs: ValidatorProcess[] = [];
  const prof = process.env.TXLOAD_PROF;
  // the validators inherit the environment: profile them with --cpu-prof when asked
  const nodeOptions = process.env.NODE_OPTIONS;
  if (prof !== undefined) process.env.NODE_OPTIONS = `${nodeOptions ?? ""} --cpu-prof --cpu-prof-dir=${prof}`;
  try {
    const paths = await planLocalnet({
      ...DEFAULT_LOCALNET,
      validators: n,
      dir,
      accounts: SENDERS,
      basePort: 33_000 + Math.floor(Math.random() * 20_000),
      rpcPort: 0,
      blockTimeMs: PACING_MS,
      logLevel: process.env.TXLOAD_LOGLEVEL ?? "warn",
    });
    for (let i = 0; i < n; i++)
      procs.push(
        spawnValidator(
          i,
          paths[i] as string,
          (line) => process.env.TXLOAD_LOG && process.stderr.write(`v${i} ${line}\n`),
        ),
      );
    if (prof !== undefined) {
      if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = nodeOptions;
    }
    const ready = await Promise.all(procs.map((p) => p.ready));
    const url0 = ready[0]?.rpc as string;
    while (BigInt((await rpc(url0, "cowboy_blockNumber", [])) as string) < 2n)
      await new Promise((r) => setTimeout(r, 100));
    const chainId = BigInt((await rpc(url0, "cowboy_chainId", [])) as string);
    if (chainId !== DEFAULT_LOCALNET.chainId) throw new Error(`txload: chain id ${chainId}`);
    // connection c talks to validator c mod n and carries the senders s with s mod CONNECTIONS = c,
    // round by round (nonce 0 of each, then nonce 1, ...)
    const plans = Array.from({ length: CONNECTIONS }, (_, c) => {
      const mine = load.filter((_, s) => s % CONNECTIONS === c);
      const raws: string[] = [];
      for (let nonce = 0; nonce < PER_SENDER; nonce++)
        for (const list of mine) raws.push(list[nonce] as string);
      return { ws: ready[c % n]?.ws as string, raws };
    });
    const sub: Submission = {
      accepted: 0,
      committed: 0,
      ours: signed.hashes,
      stop: false,
      error: null,
      waiters: [],
      clientOf: new Map(),
      retried: 0,
    };
    let seen = Number(BigInt((await rpc(url0, "cowboy_blockNumber", [])) as string));
    const progress: Array<{ t: number; committed: number; blocks: number }> = [];
    const start = performance.now();
    let exhaustedAt = Number.NaN;
    const sending = Promise.all(plans.map((p) => client(p.ws, p.raws, sub))).then(() => {
      if (!sub.stop) exhaustedAt = performance.now();
    });
    let windowStart = Number.NaN;
    let windowEnd = Number.POSITIVE_INFINITY;
    /** when the submission stopped (the window closed, or the load ran out) */
    let closedAt = Number.NaN;
    let blocks = 0;
    // follow validator 0's finalized blocks until the window closes, then until the load drains
    for (;;) {
      if (sub.error !== null) throw sub.error;
      const now = performance.now();
      // the window closes after MEASURE_MS and a second observation of committed blocks (a
      // network slower than one block per MEASURE_MS is still measured over whole blocks)
      const observed = progress.length - progress.findIndex((p) => p.t >= windowStart);
      if (!sub.stop && ((now >= windowEnd && observed >= 2) || !Number.isNaN(exhaustedAt))) {
        closedAt = now;
        sub.stop = true;
        for (const w of sub.waiters.splice(0)) w();
        await sending;
        if (sub.error !== null) throw sub.error;
      }
      if (sub.stop && sub.committed >= sub.accepted) break;
      if (Number.isNaN(windowStart) && now > start + FIRST_COMMIT_TIMEOUT_MS)
        throw new Error(`txload: nothing committed ${FIRST_COMMIT_TIMEOUT_MS} ms after the load started`);
      if (sub.stop && now > closedAt + DRAIN_TIMEOUT_MS)
        throw new Error(`txload: ${sub.committed}/${sub.accepted} transfers committed`);
      const head = Number(BigInt((await rpc(url0, "cowboy_blockNumber", [])) as string));
      if (head > seen) {
        const heights = Array.from({ length: head - seen }, (_, i) => seen + 1 + i);
        const got = (await rpcBatch(
          url0,
          heights.map((h) => ["cowboy_getBlockByNumber", [`0x${h.toString(16)}`, false]]),
        )) as Array<{ transactions: string[] } | null>;
        const t = performance.now();
        for (const b of got) {
          for (const h of b?.transactions ?? []) {
            if (!sub.ours.has(h)) continue; // a DKG log, evidence: not the bench's
            sub.committed++;
            const c = sub.clientOf.get(h);
            if (c !== undefined) c.committed++;
          }
        }
        blocks += got.length;
        seen = head;
        progress.push({ t, committed: sub.committed, blocks });
        if (Number.isNaN(windowStart) && sub.committed > 0) {
          windowStart = t;
          windowEnd = t + MEASURE_MS;
        }
        for (const w of sub.waiters.splice(0)) w();
      } else await new Promise((r) => setTimeout(r, 20));
    }
    // every accepted transfer committed exactly once: the blocks hold the accepted count and every
    // sender's nonce is the number of its transfers accepted (they were sent in nonce order)
    if (sub.committed !== sub.accepted)
      throw new Error(`txload: blocks hold ${sub.committed} transfers, ${sub.accepted} were accepted`);
    const keys = deriveDevKeys(SENDERS).accounts;
    const nonces = (await rpcBatch(
      url0,
      keys.map((k) => ["cowboy_getTransactionCount", [toHex(k.address), "latest"]]),
    )) as string[];
    const total = nonces.reduce((a, x) => a + Number(BigInt(x)), 0);
    if (total !== sub.accepted)
      throw new Error(`txload: sender nonces sum to ${total}, ${sub.accepted} accepted`);
    if (process.env.TXLOAD_TRACE) {
      const status = (await rpc(url0, "cowboy_consensusStatus", [])) as {
        view: string;
        finalizedHeight: string;
      };
      process.stderr.write(
        `${progress.map((p) => `${(p.t - start).toFixed(0)}:${p.committed}`).join(" ")}\nview ${BigInt(status.view)}, height ${BigInt(status.finalizedHeight)}\n`,
      );
    }
    // the window: from the observation of the first committed transfers to the last observation
    // before it closed (or the load ran out); the blocks in between over the time between them
    const inWindow = progress.filter((p) => p.t >= windowStart && p.t <= closedAt);
    const a = inWindow[0];
    const b = inWindow[inWindow.length - 1];
    if (a === undefined || b === undefined || b.t <= a.t)
      throw new Error("txload: fewer than two observations of committed blocks in the window");
    const rate = (b.committed - a.committed) / ((b.t - a.t) / 1000);
    const result: RunResult = {
      rate,
      committed: sub.committed,
      blocks: b.blocks - a.blocks,
      meanBlockTxs: (b.committed - a.committed) / Math.max(1, b.blocks - a.blocks),
    };
    process.stderr.write(
      `txload n=${n}: ${rate.toFixed(0)} tx/s over ${((b.t - a.t) / 1000).toFixed(1)} s (${result.blocks} blocks, ${result.meanBlockTxs.toFixed(0)} tx/block); ${sub.committed} transfers committed, all checked; ${sub.retried} sent again (nonce gap)${Number.isNaN(exhaustedAt) ? "" : " (the load ran out)"}\n`,
    );
    return result;
  } finally {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(procs.map((p) => p.exited));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The metrics, over `runs` runs of each network (the 1-validator peer in the same run). */
export async function run(runs = Number(process.env.TXLOAD_RUNS ?? 2)): Promise<Metric[]> {
  const rates: Record<1 | 4 | 7, number[]> = { 1: [], 4: [], 7: [] };
  const load = signLoad(DEFAULT_LOCALNET.chainId);
  for (let r = 0; r < runs; r++)
    for (const n of [1, 4, 7] as const) rates[n].push((await committedTxPerSecond(n, load)).rate);
  const theirs: Sample = summarize(rates[1]);
  return [
    compare("committed_tx_per_s_4", "1/s", true, summarize(rates[4]), "localnet-1-validator", theirs),
    compare("committed_tx_per_s_7", "1/s", true, summarize(rates[7]), "localnet-1-validator", theirs),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(RESULTS_DIR, "consensus.json");
  const previous: Metric[] = existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8")) as { metrics: Metric[] }).metrics
    : [];
  const only = process.env.TXLOAD_ONLY;
  if (only !== undefined) {
    // diagnostics: one network only, nothing written
    const n = Number(only);
    await committedTxPerSecond(n, signLoad(DEFAULT_LOCALNET.chainId));
  } else {
    const added = await run();
    const names = new Set(added.map((m) => m.name));
    writeSuite("consensus", [...previous.filter((m) => !names.has(m.name)), ...added]);
  }
}
