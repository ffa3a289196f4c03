/**
 * Validation of a transaction gossip message (`/cowboy/<chain>/tx/1`, frame in `gossip.ts`).
 *
 * The verdict decides whether gossipsub relays the whole message and whether its sender is
 * penalized, so it must not let one good transaction carry junk along:
 *
 * - `"reject"` (the peer is penalized, nothing is relayed) when the frame is malformed or any
 *   transaction in it fails a check that does not depend on state: decoding, chain id, limits,
 *   the deferred form, the signature. An honest node never gossips such a transaction: it
 *   admitted each one to its own pool first.
 * - `"accept"` (relayed) only when every transaction passed those checks and at least one was
 *   new to our pool.
 * - `"ignore"` otherwise: everything already pooled, stale against our state (nonce used, fee
 *   too low, pool full), or an instruction this version cannot execute (`ERR_TX_UNSUPPORTED`:
 *   version skew, not misbehaviour).
 */

import type { Logger } from "../devnet/logger.ts";
import { StfError } from "../stf/errors.ts";
import { MempoolError } from "./errors.ts";
import { decodeTxGossip, TxBatchError } from "./gossip.ts";

/** What to do with a gossip message (the p2p layer's verdict). */
export type TxGossipVerdict = "accept" | "ignore" | "reject";

/** `checkTx` codes a transaction fails regardless of state: gossiping one is misbehaviour. */
export const STATELESS_REJECT_CODES: ReadonlySet<string> = new Set([
  "ERR_TX_DECODE",
  "ERR_TX_CHAIN_ID",
  "ERR_TX_LIMITS",
  "ERR_TX_DEFERRED",
  "ERR_TX_SIGNATURE",
]);

/** How often (in transactions) admission lets other work of the event loop in. */
const YIELD_EVERY = 64;

/** What {@link validateTxGossip} needs of the node. */
export interface TxGossipAdmission {
  /** verifies many signatures at once (a cache for `admit`); may throw, then `admit` checks each */
  preverify(txs: readonly Uint8Array[]): Promise<void>;
  /**
   * Checks one transaction against the head state and pools it: `true` if it was new to the
   * pool, `false` if it was pooled already. Throws `StfError` / `MempoolError` when refused.
   */
  admit(tx: Uint8Array): boolean;
  /** true once the node stops: the message is then ignored */
  stopped(): boolean;
  /** lets the event loop run between chunks of admissions (default: `setImmediate`) */
  pause?: () => Promise<void>;
  /** where unexpected admission errors and a failed `preverify` are reported */
  logger?: Pick<Logger, "warn" | "error"> | null;
}

/** The verdict on one transaction gossip message (see the module doc); admits its transactions. */
export async function validateTxGossip(bytes: Uint8Array, adm: TxGossipAdmission): Promise<TxGossipVerdict> {
  let txs: Uint8Array[];
  try {
    txs = decodeTxGossip(bytes);
  } catch (err) {
    if (err instanceof TxBatchError) return "reject";
    throw err;
  }
  return admitTxGossip(txs, adm);
}

/** The verdict on the decoded transactions of one gossip message; admits them in order. */
export async function admitTxGossip(
  txs: readonly Uint8Array[],
  adm: TxGossipAdmission,
): Promise<TxGossipVerdict> {
  if (txs.length > 1) {
    // one batch verification of the signatures (every core); each admission then hits the cache
    try {
      await adm.preverify(txs);
    } catch (err) {
      adm.logger?.warn({ err: String(err) }, "batch signature check failed: checking one by one");
    }
  }
  if (adm.stopped()) return "ignore";
  const pause = adm.pause ?? (() => new Promise<void>((r) => setImmediate(r)));
  let fresh = 0;
  for (let i = 0; i < txs.length; i++) {
    // let consensus messages in between: admission is ~0.1 ms per transaction
    if (i > 0 && i % YIELD_EVERY === 0) {
      await pause();
      if (adm.stopped()) return "ignore";
    }
    try {
      if (adm.admit(txs[i] as Uint8Array)) fresh++;
    } catch (err) {
      if (err instanceof StfError) {
        if (STATELESS_REJECT_CODES.has(err.code)) return "reject";
      } else if (!(err instanceof MempoolError)) {
        adm.logger?.error(
          { err: String(err), index: i },
          "unexpected error admitting a gossiped transaction",
        );
      }
      // otherwise stale or refused against our state, or unsupported here: not the peer's fault
    }
  }
  return fresh > 0 ? "accept" : "ignore";
}

/**
 * Bounds how many gossip messages are validated at once: gossipsub starts a validation per
 * message without waiting for the previous one, and each batch holds up to 512 signatures to
 * verify. At most `maxActive` run; up to `maxQueued` more wait their turn (first come, first
 * served); beyond that {@link run} refuses at once.
 */
export class TxGossipLimiter {
  private readonly maxActive: number;
  private readonly maxQueued: number;
  private activeCount = 0;
  private readonly waiting: (() => void)[] = [];

  /** `maxActive` ≥ 1, `maxQueued` ≥ 0. */
  constructor(maxActive = 2, maxQueued = 16) {
    if (!Number.isInteger(maxActive) || maxActive < 1 || !Number.isInteger(maxQueued) || maxQueued < 0)
      throw new RangeError(`bad limiter bounds ${maxActive}/${maxQueued}`);
    this.maxActive = maxActive;
    this.maxQueued = maxQueued;
  }

  /** Validations running now. */
  get active(): number {
    return this.activeCount;
  }

  /** Validations waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` when a slot is free; `null` (nothing run) if all slots and the queue are full. */
  run<T>(task: () => Promise<T>): Promise<T> | null {
    if (this.activeCount >= this.maxActive && this.waiting.length >= this.maxQueued) return null;
    return this.start(task);
  }

  private async start<T>(task: () => Promise<T>): Promise<T> {
    if (this.activeCount >= this.maxActive) await new Promise<void>((r) => this.waiting.push(r));
    else this.activeCount++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // the slot passes to the next waiter as is; otherwise it is freed
      if (next !== undefined) next();
      else this.activeCount--;
    }
  }
}
