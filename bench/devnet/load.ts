/**
 * The load generator of the devnet benchmark, the same for every chain: `senders`
 * accounts, each on its own WebSocket connection, submit pre-signed transactions one
 * request at a time (consecutive nonces per account) and keep at most `window` of their
 * transactions submitted but not yet committed. One more connection subscribes to new
 * heads; a transaction counts as committed when the head of the block holding it arrives.
 *
 * Measured per run: committed transactions per second (first submission to last commit)
 * and submit-to-commit latency of every transaction (request sent → head notification of
 * its block received). Signing happens before the clock starts.
 */
import { WsRpc } from "./ws-rpc.ts";

/** What is sent: value transfers, or calls to a one-slot counter (actor or contract). */
export type Workload = "transfer" | "call";

/** A chain under load: everything chain-specific the generator needs. */
export interface LoadTarget {
  /** label for logs */
  readonly name: string;
  /** WebSocket URL of the node */
  readonly wsUrl: string;
  /** JSON-RPC method prefix: `cowboy` or `eth` */
  readonly prefix: string;
  /** number of funded sender accounts the target can sign for */
  readonly senders: number;
  /**
   * Signs `count` transactions of `kind` from sender `sender` with consecutive nonces
   * (continuing after the ones signed before) and returns them raw, hex-encoded.
   */
  sign(kind: Workload, sender: number, count: number): string[];
  /**
   * The observable effect of the workload so far: the transfer recipient's balance, or
   * the counter's value. Each transaction of the workload adds exactly one.
   */
  effect(kind: Workload): Promise<bigint>;
}

export interface LoadOptions {
  /** concurrent senders (accounts, connections); at most `target.senders` */
  senders: number;
  /** transactions per sender */
  perSender: number;
  /** most transactions of one sender submitted but not yet committed */
  window: number;
  /** give up after this many milliseconds */
  timeoutMs?: number;
  /** called once everything is signed and connected, right before the first submission */
  onStart?: () => void;
}

export interface LoadResult {
  transactions: number;
  /** first submission to last commit, milliseconds */
  elapsedMs: number;
  /** committed transactions per second */
  tps: number;
  /** submit-to-commit latency of every transaction, milliseconds, ascending */
  latenciesMs: number[];
  /** blocks that carried the load */
  blocks: number;
}

/** The `q`-quantile (0..1) of ascending `sorted` values, nearest rank. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error("percentile of no values");
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

interface BlockJson {
  hash: string;
  transactions: Array<string | { hash: string }>;
}

/** Runs one load of `kind` against `target`; verifies every transaction took effect. */
export async function runLoad(target: LoadTarget, kind: Workload, opts: LoadOptions): Promise<LoadResult> {
  if (opts.senders < 1 || opts.senders > target.senders) {
    throw new RangeError(`${target.name}: ${opts.senders} senders requested, ${target.senders} available`);
  }
  const total = opts.senders * opts.perSender;
  const signed = Array.from({ length: opts.senders }, (_, s) => target.sign(kind, s, opts.perSender));
  const before = await target.effect(kind);

  const observer = await WsRpc.open(target.wsUrl);
  const conns = await Promise.all(Array.from({ length: opts.senders }, () => WsRpc.open(target.wsUrl)));
  const committedAt = new Map<string, number>();
  const blockHashes = new Set<string>();
  let wake: Array<() => void> = [];
  const notify = () => {
    const w = wake;
    wake = [];
    for (const f of w) f();
  };
  const nextCommit = () => new Promise<void>((resolve) => wake.push(resolve));
  let observerError: Error | null = null;

  await observer.subscribe(target.prefix, ["newHeads"], (head) => {
    const at = performance.now();
    const hash = (head as { hash: string }).hash;
    observer
      .call<BlockJson | null>(`${target.prefix}_getBlockByHash`, [hash, false])
      .then((block) => {
        if (block === null) throw new Error(`${target.name}: announced block ${hash} not found`);
        if (block.transactions.length > 0) blockHashes.add(hash);
        for (const t of block.transactions) {
          const h = (typeof t === "string" ? t : t.hash).toLowerCase();
          if (!committedAt.has(h)) committedAt.set(h, at);
        }
        notify();
      })
      .catch((err: unknown) => {
        observerError = err as Error;
        notify();
      });
  });

  const submitted: Array<{ hash: string; at: number }> = [];
  const deadline = performance.now() + (opts.timeoutMs ?? 120_000);
  const check = () => {
    if (observerError !== null) throw observerError;
    if (performance.now() > deadline) {
      throw new Error(
        `${target.name}: ${kind} load timed out with ${committedAt.size}/${total} transactions seen committed`,
      );
    }
  };
  const sender = async (s: number) => {
    const conn = conns[s] as WsRpc;
    const inFlight: string[] = [];
    for (const raw of signed[s] as string[]) {
      for (;;) {
        while (inFlight.length > 0 && committedAt.has(inFlight[0] as string)) inFlight.shift();
        for (let i = inFlight.length - 1; i >= 0; i--)
          if (committedAt.has(inFlight[i] as string)) inFlight.splice(i, 1);
        if (inFlight.length < opts.window) break;
        check();
        await Promise.race([nextCommit(), sleep(250)]);
      }
      const at = performance.now();
      const hash = (await conn.call<string>(`${target.prefix}_sendRawTransaction`, [raw])).toLowerCase();
      submitted.push({ hash, at });
      inFlight.push(hash);
    }
  };
  try {
    opts.onStart?.();
    await Promise.all(Array.from({ length: opts.senders }, (_, s) => sender(s)));
    while (submitted.some((t) => !committedAt.has(t.hash))) {
      check();
      await Promise.race([nextCommit(), sleep(250)]);
    }
  } finally {
    observer.close();
    for (const c of conns) c.close();
  }

  const start = Math.min(...submitted.map((t) => t.at));
  const end = Math.max(...submitted.map((t) => committedAt.get(t.hash) as number));
  const latenciesMs = submitted.map((t) => (committedAt.get(t.hash) as number) - t.at).sort((a, b) => a - b);
  const after = await target.effect(kind);
  if (after - before !== BigInt(total)) {
    throw new Error(`${target.name}: ${total} ${kind}s committed but the effect grew by ${after - before}`);
  }
  const elapsedMs = end - start;
  return {
    transactions: total,
    elapsedMs,
    tps: total / (elapsedMs / 1000),
    latenciesMs,
    blocks: blockHashes.size,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
