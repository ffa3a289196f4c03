/**
 * The transaction pool of a node (spec 01 §6.4).
 *
 * - Admission: the caller has already checked signature, chain id, limits and balance
 *   (§2.2); the pool checks what depends on other pending transactions: duplicates,
 *   nonce below the account's, nonce gaps, the fee floor, per-sender and pool limits.
 * - Same sender and nonce: the newcomer replaces the pending transaction only if it
 *   raises both max fees and both priority fees by at least `priceBumpPercent`.
 * - Full pool: the cheapest evictable transaction (the highest-nonce one of its sender,
 *   so no gap is ever created) is evicted if the newcomer pays a higher effective fee;
 *   otherwise the newcomer is refused.
 * - Selection for a block: lane by lane in priority order, highest intrinsic effective
 *   fee first (ties by transaction hash), a sender's transactions strictly in nonce order,
 *   up to each lane's cycle budget (by `cycles_limit`); unused reserved capacity spills to
 *   the User lane, which never borrows (§17.9).
 *
 * Everything is deterministic given the calls made (no clock, no randomness).
 */
import { BinaryHeap } from "@cowboy/collections";
import { effectiveFee, type MeterOffer } from "../fees/charge.ts";
import { LANES, type Lane, MIN_BASEFEE } from "../params.ts";
import { MempoolError } from "./errors.ts";

/** What the pool needs to know of a transaction. */
export interface PoolTx {
  /** 0x-prefixed lowercase hex of the transaction digest */
  readonly hash: string;
  /** 0x-prefixed lowercase hex of the sender address */
  readonly sender: string;
  readonly nonce: bigint;
  readonly lane: Lane;
  readonly cycles: MeterOffer;
  readonly cells: MeterOffer;
  /** intrinsic costs (§17.2), used for the ordering key (§6.4) */
  readonly intrinsic: { readonly cycles: bigint; readonly cells: bigint };
  /** size of the canonical encoding in bytes */
  readonly size: number;
}

export interface Basefees {
  readonly cycle: bigint;
  readonly cell: bigint;
}

export interface MempoolConfig {
  /** most transactions held at once */
  maxTxs: number;
  /** most bytes (sum of encoded sizes) held at once */
  maxBytes: number;
  /** most pending transactions of one sender */
  maxPerSender: number;
  /** a nonce may run at most this far ahead of the sender's account nonce */
  maxNonceGap: bigint;
  /** a replacement must raise every fee field by at least this percentage */
  priceBumpPercent: bigint;
}

export const DEFAULT_MEMPOOL_CONFIG: Readonly<MempoolConfig> = {
  maxTxs: 20_000,
  maxBytes: 64 * 1024 * 1024,
  maxPerSender: 128,
  maxNonceGap: 128n,
  priceBumpPercent: 10n,
};

/** Optional metrics sink; `null` in tests. */
export interface MempoolMetrics {
  onSize(txs: number, bytes: number): void;
  onReject(code: string): void;
}

export interface AddResult<T> {
  status: "added" | "replaced";
  replaced: T | null;
  evicted: T[];
}

export class Mempool<T extends PoolTx> {
  private readonly config: MempoolConfig;
  private readonly metrics: MempoolMetrics | null;
  private readonly byHash = new Map<string, T>();
  /** per sender, sorted by nonce ascending */
  private readonly bySender = new Map<string, T[]>();
  private totalBytes = 0;

  constructor(config: Partial<MempoolConfig> = {}, deps: { metrics?: MempoolMetrics | null } = {}) {
    this.config = { ...DEFAULT_MEMPOOL_CONFIG, ...config };
    this.metrics = deps.metrics ?? null;
  }

  get size(): number {
    return this.byHash.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(hash: string): T | undefined {
    return this.byHash.get(hash);
  }

  has(hash: string): boolean {
    return this.byHash.has(hash);
  }

  /** Pending transactions of `sender`, by nonce. */
  ofSender(sender: string): readonly T[] {
    return this.bySender.get(sender) ?? [];
  }

  /** The next nonce `sender` would use: one past the end of its contiguous pending run. */
  pendingNonce(sender: string, accountNonce: bigint): bigint {
    let next = accountNonce;
    for (const tx of this.ofSender(sender)) {
      if (tx.nonce === next) next++;
      else if (tx.nonce > next) break;
    }
    return next;
  }

  /** Admits `tx` or throws a {@link MempoolError}; nothing changes on error. */
  add(tx: T, ctx: { accountNonce: bigint; basefee: Basefees }): AddResult<T> {
    try {
      return this.admit(tx, ctx);
    } catch (err) {
      if (err instanceof MempoolError) this.metrics?.onReject(err.code);
      throw err;
    }
  }

  private admit(tx: T, ctx: { accountNonce: bigint; basefee: Basefees }): AddResult<T> {
    const { config } = this;
    if (this.byHash.has(tx.hash)) {
      throw new MempoolError("ERR_MEMPOOL_DUPLICATE", `transaction ${tx.hash} is already pending`, {
        hash: tx.hash,
      });
    }
    if (tx.size > config.maxBytes) {
      throw new MempoolError("ERR_MEMPOOL_TX_TOO_LARGE", `transaction of ${tx.size} bytes exceeds the pool`);
    }
    if (tx.nonce < ctx.accountNonce) {
      throw new MempoolError(
        "ERR_MEMPOOL_NONCE_TOO_LOW",
        `nonce ${tx.nonce} is below the account nonce ${ctx.accountNonce}`,
        { nonce: String(tx.nonce), accountNonce: String(ctx.accountNonce) },
      );
    }
    if (tx.nonce - ctx.accountNonce >= config.maxNonceGap) {
      throw new MempoolError(
        "ERR_MEMPOOL_NONCE_GAP",
        `nonce ${tx.nonce} is ${tx.nonce - ctx.accountNonce} ahead of the account nonce ${ctx.accountNonce} (limit ${config.maxNonceGap})`,
      );
    }
    if (tx.cycles.maxFee < MIN_BASEFEE || tx.cells.maxFee < MIN_BASEFEE) {
      throw new MempoolError(
        "ERR_MEMPOOL_FEE_TOO_LOW",
        `max fees (${tx.cycles.maxFee} per cycle, ${tx.cells.maxFee} per cell) are below MIN_BASEFEE ${MIN_BASEFEE}; the transaction could never be included`,
      );
    }
    const queue = this.bySender.get(tx.sender) ?? [];
    const existing = queue.find((t) => t.nonce === tx.nonce);
    if (existing !== undefined) {
      if (!this.isBump(existing, tx)) {
        throw new MempoolError(
          "ERR_MEMPOOL_REPLACEMENT_UNDERPRICED",
          `replacing nonce ${tx.nonce} needs every fee field raised by at least ${config.priceBumpPercent}%`,
          { replaces: existing.hash },
        );
      }
      const evicted = this.makeRoom(tx.size - existing.size, 0, tx, ctx.basefee);
      this.removeEntry(existing);
      this.insert(tx);
      return { status: "replaced", replaced: existing, evicted };
    }
    if (queue.length >= config.maxPerSender) {
      throw new MempoolError(
        "ERR_MEMPOOL_SENDER_FULL",
        `sender ${tx.sender} already has ${queue.length} pending transactions (limit ${config.maxPerSender})`,
      );
    }
    const evicted = this.makeRoom(tx.size, 1, tx, ctx.basefee);
    this.insert(tx);
    return { status: "added", replaced: null, evicted };
  }

  private isBump(old: PoolTx, next: PoolTx): boolean {
    const bump = (a: bigint, b: bigint) => b * 100n >= a * (100n + this.config.priceBumpPercent) && b > a;
    const bumpOrZero = (a: bigint, b: bigint) => (a === 0n ? b >= 0n : bump(a, b));
    return (
      bump(old.cycles.maxFee, next.cycles.maxFee) &&
      bump(old.cells.maxFee, next.cells.maxFee) &&
      bumpOrZero(old.cycles.maxPriorityFee, next.cycles.maxPriorityFee) &&
      bumpOrZero(old.cells.maxPriorityFee, next.cells.maxPriorityFee)
    );
  }

  /** Evicts the cheapest evictable transactions until `extraBytes`/`extraTxs` fit; all or nothing. */
  private makeRoom(extraBytes: number, extraTxs: number, incoming: T, basefee: Basefees): T[] {
    const { maxTxs, maxBytes } = this.config;
    let bytes = this.totalBytes + extraBytes;
    let txs = this.byHash.size + extraTxs;
    if (bytes <= maxBytes && txs <= maxTxs) return [];
    const incomingFee = this.fee(incoming, basefee);
    const victims: T[] = [];
    const taken = new Set<string>();
    while (bytes > maxBytes || txs > maxTxs) {
      const victim = this.cheapestEvictable(basefee, taken, incoming.sender);
      if (victim === null || this.fee(victim, basefee) >= incomingFee) {
        throw new MempoolError(
          "ERR_MEMPOOL_FULL",
          `the pool is full (${this.byHash.size} transactions, ${this.totalBytes} bytes) and holds nothing cheaper than this transaction`,
        );
      }
      victims.push(victim);
      taken.add(victim.hash);
      bytes -= victim.size;
      txs -= 1;
    }
    for (const v of victims) this.removeEntry(v);
    return victims;
  }

  /** Lowest-fee tail transaction (highest nonce of its sender) not yet taken; ties by hash. */
  private cheapestEvictable(basefee: Basefees, taken: Set<string>, protectedSender: string): T | null {
    let best: T | null = null;
    let bestFee = 0n;
    for (const [sender, queue] of this.bySender) {
      if (sender === protectedSender) continue;
      for (let i = queue.length - 1; i >= 0; i--) {
        const tx = queue[i] as T;
        if (taken.has(tx.hash)) continue;
        const fee = this.fee(tx, basefee);
        if (best === null || fee < bestFee || (fee === bestFee && tx.hash > best.hash)) {
          best = tx;
          bestFee = fee;
        }
        break;
      }
    }
    return best;
  }

  private fee(tx: PoolTx, basefee: Basefees): bigint {
    return effectiveFee({ cycles: tx.cycles, cells: tx.cells }, tx.intrinsic, basefee);
  }

  private insert(tx: T): void {
    const queue = this.bySender.get(tx.sender);
    if (queue === undefined) {
      this.bySender.set(tx.sender, [tx]);
    } else {
      let i = queue.length;
      while (i > 0 && (queue[i - 1] as T).nonce > tx.nonce) i--;
      queue.splice(i, 0, tx);
    }
    this.byHash.set(tx.hash, tx);
    this.totalBytes += tx.size;
    this.metrics?.onSize(this.byHash.size, this.totalBytes);
  }

  private removeEntry(tx: T): void {
    const queue = this.bySender.get(tx.sender);
    if (queue !== undefined) {
      const i = queue.indexOf(tx);
      if (i >= 0) queue.splice(i, 1);
      if (queue.length === 0) this.bySender.delete(tx.sender);
    }
    if (this.byHash.delete(tx.hash)) this.totalBytes -= tx.size;
    this.metrics?.onSize(this.byHash.size, this.totalBytes);
  }

  /** Removes a transaction by hash; returns it, or undefined if it was not pending. */
  remove(hash: string): T | undefined {
    const tx = this.byHash.get(hash);
    if (tx !== undefined) this.removeEntry(tx);
    return tx;
  }

  /**
   * After a block: drops every transaction whose nonce is below its sender's new account
   * nonce (included, or made stale by an included one). Returns what was dropped.
   */
  prune(accountNonce: (sender: string) => bigint, senders: Iterable<string>): T[] {
    const dropped: T[] = [];
    for (const sender of senders) {
      const nonce = accountNonce(sender);
      for (const tx of [...this.ofSender(sender)]) {
        if (tx.nonce < nonce) {
          this.removeEntry(tx);
          dropped.push(tx);
        }
      }
    }
    return dropped;
  }

  /**
   * Chooses transactions for the next block (see the module comment). Transactions whose
   * max fee is below the current basefee wait. The result lists each lane's picks in
   * selection order (highest effective fee first, nonce order per sender).
   */
  select(opts: {
    basefee: Basefees;
    accountNonce: (sender: string) => bigint;
    laneBudget: Readonly<Record<Lane, bigint>>;
    /**
     * most transactions picked over all lanes (default: no limit): selection stops once it is
     * reached, so the picks are a prefix of what an unlimited selection gives, lane by lane in
     * priority order
     */
    maxTxs?: number;
  }): Record<Lane, T[]> {
    const picked: Record<Lane, T[]> = { system: [], timer: [], runner: [], user: [] };
    /** next nonce each sender needs, advanced as transactions are picked */
    const nextNonce = new Map<string, bigint>();
    const need = (sender: string) => {
      let n = nextNonce.get(sender);
      if (n === undefined) {
        n = opts.accountNonce(sender);
        nextNonce.set(sender, n);
      }
      return n;
    };
    const includable = (tx: T) =>
      tx.cycles.maxFee >= opts.basefee.cycle && tx.cells.maxFee >= opts.basefee.cell;
    let spill = 0n;
    let room = opts.maxTxs ?? Number.POSITIVE_INFINITY;
    for (const lane of LANES) {
      if (room <= 0) break; // no block room left: the remaining lanes pick nothing
      let budget = opts.laneBudget[lane] + (lane === "user" ? spill : 0n);
      const before = (a: { tx: T; fee: bigint }, b: { tx: T; fee: bigint }) =>
        a.fee > b.fee || (a.fee === b.fee && a.tx.hash < b.tx.hash);
      const heap = new BinaryHeap<{ tx: T; fee: bigint }>(before);
      const headOf = (sender: string): T | undefined => {
        const want = need(sender);
        return this.ofSender(sender).find((t) => t.nonce === want);
      };
      for (const sender of this.bySender.keys()) {
        const head = headOf(sender);
        if (head !== undefined && head.lane === lane && includable(head)) {
          heap.push({ tx: head, fee: this.fee(head, opts.basefee) });
        }
      }
      while (heap.size > 0 && room > 0) {
        const { tx } = heap.pop() as { tx: T; fee: bigint };
        if (tx.cycles.limit > budget) continue; // does not fit; the sender's later nonces wait too
        budget -= tx.cycles.limit;
        room--;
        picked[lane].push(tx);
        nextNonce.set(tx.sender, tx.nonce + 1n);
        const following = headOf(tx.sender);
        if (following !== undefined && following.lane === lane && includable(following)) {
          heap.push({ tx: following, fee: this.fee(following, opts.basefee) });
        }
      }
      if (lane !== "user") spill += budget;
    }
    return picked;
  }
}
