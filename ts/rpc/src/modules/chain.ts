/**
 * `ChainModule`: chain identity and status, blocks by number and hash, fee history with
 * both basefees (cycles and cells, spec §4.2).
 */
import { data, quantity } from "../format.ts";
import { method, type RpcModule } from "../module.ts";
import { p } from "../params.ts";
import type { BlockView, ChainBackend } from "./backend.ts";
import { blockJson } from "./json.ts";
import { heightOf, LATEST } from "./tags.ts";

/** Most blocks one `cowboy_feeHistory` call covers. */
export const MAX_FEE_HISTORY = 1024;

/** Used/target ratio as a JSON number (not consensus data: a float is fine here). */
function ratio(used: bigint, target: bigint): number {
  return target === 0n ? 0 : Number((used * 1_000_000n) / target) / 1_000_000;
}

export interface ChainModuleOptions {
  /** per-block targets, for the used ratios of fee history */
  cyclesTarget: bigint;
  cellsTarget: bigint;
}

export class ChainModule implements RpcModule {
  private readonly backend: ChainBackend;
  private readonly options: ChainModuleOptions;

  constructor(backend: ChainBackend, options: ChainModuleOptions) {
    this.backend = backend;
    this.options = options;
  }

  methods() {
    const b = this.backend;
    return {
      cowboy_chainId: method("the chain id", [], () => quantity(b.chainId)),
      cowboy_blockNumber: method("height of the newest block", [], () => quantity(b.head().height)),
      cowboy_status: method(
        "chain id, head, finalized height, next basefees, pending transactions",
        [],
        () => {
          const head = b.head();
          const fees = b.nextBasefees();
          return {
            chainId: quantity(b.chainId),
            head: { number: quantity(head.height), hash: data(head.hash) },
            finalized: quantity(b.finalizedHeight()),
            nextCycleBasefee: quantity(fees.cycle),
            nextCellBasefee: quantity(fees.cell),
            pendingTransactions: quantity(b.pendingCount()),
          };
        },
      ),
      cowboy_getBlockByNumber: method(
        "a block by number or tag; null if it does not exist",
        [p.blockTag("block"), p.optional(p.bool("fullTransactions"), false)],
        async ([tag, full]) => {
          const height = heightOf(b, tag);
          if (height === null) return null;
          const view = await b.blockByHeight(height);
          return view === null ? null : blockJson(view, full);
        },
      ),
      cowboy_getBlockByHash: method(
        "a block by hash; null if unknown",
        [p.hash("hash"), p.optional(p.bool("fullTransactions"), false)],
        async ([hash, full]) => {
          const view = await b.blockByHash(hash);
          return view === null ? null : blockJson(view, full);
        },
      ),
      cowboy_feeHistory: method(
        "basefees (both meters) and usage of up to 1024 blocks ending at newestBlock",
        [p.integer("blockCount", 1, MAX_FEE_HISTORY), p.optional(p.blockTag("newestBlock"), LATEST)],
        async ([count, tag]) => this.feeHistory(count, heightOf(b, tag)),
      ),
    };
  }

  private async feeHistory(count: number, newest: bigint | null) {
    const b = this.backend;
    const last = newest ?? b.head().height;
    const first = last - BigInt(count) + 1n < 0n ? 0n : last - BigInt(count) + 1n;
    const blocks: BlockView[] = [];
    for (let h = first; h <= last; h++) {
      const view = await b.blockByHeight(h);
      if (view !== null) blocks.push(view);
    }
    // One more basefee than blocks: the one after `last` (the next block's, if last is the head).
    let nextCycle: bigint;
    let nextCell: bigint;
    const after = last < b.head().height ? await b.blockByHeight(last + 1n) : null;
    if (after !== null) {
      nextCycle = after.block.header.cycleBasefee;
      nextCell = after.block.header.cellBasefee;
    } else {
      const next = b.nextBasefees();
      nextCycle = next.cycle;
      nextCell = next.cell;
    }
    const headers = blocks.map((v) => v.block.header);
    return {
      oldestBlock: quantity(first),
      cycleBasefee: [...headers.map((h) => quantity(h.cycleBasefee)), quantity(nextCycle)],
      cellBasefee: [...headers.map((h) => quantity(h.cellBasefee)), quantity(nextCell)],
      cyclesUsed: headers.map((h) => quantity(h.cyclesUsed)),
      cellsUsed: headers.map((h) => quantity(h.cellsUsed)),
      cyclesUsedRatio: headers.map((h) => ratio(h.cyclesUsed, this.options.cyclesTarget)),
      cellsUsedRatio: headers.map((h) => ratio(h.cellsUsed, this.options.cellsTarget)),
    };
  }
}
