/**
 * A small in-memory chain behind the real RPC modules of `ts/rpc` (chainModules +
 * SubscriptionHub over an RpcServer on a free port), for the client's unit tests.
 * It verifies and executes transfers, deploys and calls of one built-in test
 * "actor" behaviour (handler `echo` returns its CBOR args; `fail` raises;
 * `emit` emits an event), mines one block per `mine()` (or per transaction with
 * `autoMine`), and answers proofs for absent keys with a genuine exclusion proof
 * of the empty state (the Rust crate's vector).
 */

import {
  type BlockView,
  type CallOutcome,
  type ChainBackend,
  chainModules,
  type DevBackend,
  type EventView,
  eventPredicate,
  eventViewJson,
  type FeeEstimate,
  headJson,
  RpcDispatcher,
  RpcServer,
  SubscriptionHub,
} from "../../rpc/src/index.ts";
import { actorAddress } from "../src/crypto.ts";
import {
  type Block,
  blockHash,
  bytesEqual,
  checkSignatures,
  decodeTransaction,
  type Event,
  encodeBlock,
  encodeCbor,
  encodeTopics,
  keccak256,
  parseHexLoose,
  type Receipt,
  receiptsRoot,
  signingHash,
  type Transaction,
  toHex,
  txRoot,
  utf8,
} from "../src/index.ts";

/** Root and proof of the empty state store (no operations): proves every key absent. */
export const EMPTY_ROOT = parseHexLoose("477b219c6ff388cd26bf0cc359e530913f7e26fac9a4a88e3b5578da968de22e");
export const EMPTY_PROOF = parseHexLoose(
  "0000000000000000000000000000d9c1de60302e387db4a88b4e230bfcb2f2fe2a0078875bcde2dd03b71a5a4283",
);

export const CHAIN_ID = 7n;
const BASEFEE = 10n;

class MiniError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

interface Included {
  view: BlockView;
  receipts: Receipt[];
  froms: Uint8Array[];
  contracts: Array<Uint8Array | null>;
}

export class MiniChain implements ChainBackend, DevBackend {
  readonly chainId = CHAIN_ID;
  readonly faucetMax = 10n ** 12n;
  readonly faucetDefault = 10n ** 9n;
  readonly balances = new Map<string, bigint>();
  readonly nonces = new Map<string, bigint>();
  readonly codes = new Map<string, Uint8Array>();
  readonly blocks: Included[] = [];
  mempool: Array<{ hash: Uint8Array; tx: Transaction }> = [];
  autoMine = false;
  /** set to make the next state read claim a value its proof does not show */
  lieAboutStorage = false;
  hub: SubscriptionHub;
  faucetKeyAddress = new Uint8Array(20).fill(0xfa);

  constructor(hub: SubscriptionHub) {
    this.hub = hub;
    this.balances.set(toHex(this.faucetKeyAddress), 10n ** 18n);
    this.pushBlock([], [], [], []);
  }

  fund(address: Uint8Array, amount: bigint): void {
    this.balances.set(toHex(address), (this.balances.get(toHex(address)) ?? 0n) + amount);
  }

  private pushBlock(txs: Transaction[], hashes: Uint8Array[], receipts: Receipt[], froms: Uint8Array[]) {
    const parent = this.blocks.at(-1);
    const height = BigInt(this.blocks.length);
    const block: Block = {
      header: {
        parent: parent?.view.hash ?? new Uint8Array(32),
        height,
        round: { epoch: 0n, view: height },
        proposer: new Uint8Array(20).fill(0x01),
        timestampMs: 1_700_000_000_000n + height * 1000n,
        stateRoot: EMPTY_ROOT,
        txRoot: txRoot(txs),
        receiptsRoot: receiptsRoot(receipts),
        cycleBasefee: BASEFEE,
        cellBasefee: BASEFEE,
        cyclesUsed: receipts.reduce((a, r) => a + r.cyclesUsed, 0n),
        cellsUsed: receipts.reduce((a, r) => a + r.cellsUsed, 0n),
        parentSeed: new Uint8Array(0),
      },
      transactions: txs,
    };
    const view: BlockView = {
      hash: blockHash(block.header),
      block,
      txHashes: hashes,
      size: encodeBlock(block).length,
    };
    const contracts = txs.map((tx) =>
      tx.instruction.kind === "deploy"
        ? actorAddress(tx.from, tx.instruction.salt, tx.instruction.source)
        : null,
    );
    this.blocks.push({ view, receipts, froms, contracts });
    this.hub.publish("newHeads", headJson(view));
    receipts.forEach((r, i) => {
      r.events.forEach((e, j) => {
        this.hub.publish(
          "events",
          eventViewJson({
            ...e,
            height,
            blockHash: view.hash,
            txHash: hashes[i] as Uint8Array,
            txIndex: i,
            logIndex: j,
          }),
        );
      });
    });
  }

  /** Executes the mempool into a new block. */
  mine(): void {
    const pool = this.mempool;
    this.mempool = [];
    const receipts = pool.map(({ hash, tx }) => this.execute(hash, tx));
    this.pushBlock(
      pool.map((p) => p.tx),
      pool.map((p) => p.hash),
      receipts,
      pool.map((p) => p.tx.from),
    );
  }

  private run(
    handler: string,
    args: Uint8Array,
    to: Uint8Array,
  ): { ok: boolean; result: Uint8Array; error: string | null; events: Event[] } {
    if (handler === "fail")
      return { ok: false, result: new Uint8Array(0), error: "ValueError: told to fail", events: [] };
    if (handler === "emit") {
      return {
        ok: true,
        result: encodeCbor(null),
        error: null,
        events: [{ emitter: to, topic: encodeTopics("Ping"), data: args }],
      };
    }
    return { ok: true, result: args, error: null, events: [] };
  }

  private execute(hash: Uint8Array, tx: Transaction): Receipt {
    const from = toHex(tx.from);
    this.nonces.set(from, tx.nonce + 1n);
    const ix = tx.instruction;
    let status: Receipt["status"] = "success";
    let returnData: Uint8Array = new Uint8Array(0);
    let error: string | null = null;
    let events: Event[] = [];
    if (ix.kind === "transfer") {
      const bal = this.balances.get(from) ?? 0n;
      if (bal < ix.amount) {
        status = "reverted";
        error = "InsufficientBalance: balance too low";
      } else {
        this.balances.set(from, bal - ix.amount);
        this.fund(ix.to, ix.amount);
      }
    } else if (ix.kind === "deploy") {
      this.codes.set(toHex(actorAddress(tx.from, ix.salt, ix.source)), ix.source);
    } else if (ix.kind === "call") {
      const r = this.run(ix.handler, ix.args, ix.to);
      status = r.ok ? "success" : "reverted";
      returnData = r.result;
      error = r.error;
      events = r.events;
    }
    const cyclesUsed = 21_000n;
    const cellsUsed = 100n;
    return {
      txHash: hash,
      status,
      cyclesUsed,
      cellsUsed,
      feePaid: (cyclesUsed + cellsUsed) * BASEFEE,
      returnData,
      error,
      events,
    };
  }

  // ChainBackend
  head() {
    const b = this.blocks.at(-1) as Included;
    return { height: b.view.block.header.height, hash: b.view.hash };
  }
  finalizedHeight() {
    return this.head().height;
  }
  nextBasefees() {
    return { cycle: BASEFEE, cell: BASEFEE };
  }
  pendingCount() {
    return this.mempool.length;
  }
  async blockByHeight(height: bigint) {
    return this.blocks[Number(height)]?.view ?? null;
  }
  async blockByHash(hash: Uint8Array) {
    return this.blocks.find((b) => bytesEqual(b.view.hash, hash))?.view ?? null;
  }
  private locate(hash: Uint8Array) {
    for (const b of this.blocks) {
      const i = b.view.txHashes.findIndex((h) => bytesEqual(h, hash));
      if (i >= 0) return { b, i };
    }
    return null;
  }
  async transaction(hash: Uint8Array) {
    const found = this.locate(hash);
    if (found !== null) {
      const { b, i } = found;
      return {
        hash,
        tx: b.view.block.transactions[i] as Transaction,
        location: { blockHash: b.view.hash, height: b.view.block.header.height, index: i },
      };
    }
    const p = this.mempool.find((m) => bytesEqual(m.hash, hash));
    return p === undefined ? null : { hash, tx: p.tx, location: null };
  }
  async receipt(hash: Uint8Array) {
    const found = this.locate(hash);
    if (found === null) return null;
    const { b, i } = found;
    const tx = b.view.block.transactions[i] as Transaction;
    const ix = tx.instruction;
    return {
      receipt: b.receipts[i] as Receipt,
      location: { blockHash: b.view.hash, height: b.view.block.header.height, index: i },
      from: tx.from,
      to: ix.kind === "transfer" || ix.kind === "call" ? ix.to : null,
      contractAddress: b.contracts[i] ?? null,
      cycleBasefee: BASEFEE,
      cellBasefee: BASEFEE,
    };
  }
  account(address: Uint8Array) {
    return { balance: this.balances.get(toHex(address)) ?? 0n, nonce: this.nonces.get(toHex(address)) ?? 0n };
  }
  pendingNonce(address: Uint8Array) {
    const mine = this.mempool.filter((m) => bytesEqual(m.tx.from, address)).length;
    return this.account(address).nonce + BigInt(mine);
  }
  code(address: Uint8Array) {
    return this.codes.get(toHex(address)) ?? null;
  }
  storage(actor: Uint8Array, key: Uint8Array, height: bigint) {
    const full = Uint8Array.from([0x03, 0x01, ...actor, ...key]);
    return {
      key: full,
      value: this.lieAboutStorage ? encodeCbor(1) : null,
      proof: EMPTY_PROOF,
      root: EMPTY_ROOT,
      height,
    };
  }
  accountProof(address: Uint8Array, height: bigint) {
    return {
      key: Uint8Array.from([0x01, ...address]),
      value: null,
      proof: EMPTY_PROOF,
      root: EMPTY_ROOT,
      height,
    };
  }
  timers(actor: Uint8Array) {
    return [
      { id: keccak256(actor), actor, fireAt: 10n, handler: "tick", interval: 5n, data: encodeCbor([]) },
    ];
  }
  async sendRawTransaction(bytes: Uint8Array) {
    let tx: Transaction;
    try {
      tx = decodeTransaction(bytes);
      checkSignatures(tx);
    } catch (err) {
      throw new MiniError("ERR_TX_INVALID", (err as Error).message);
    }
    if (tx.chainId !== CHAIN_ID) throw new MiniError("ERR_TX_CHAIN_ID", `wrong chain id ${tx.chainId}`);
    const expected = this.pendingNonce(tx.from);
    if (tx.nonce < expected)
      throw new MiniError("ERR_MEMPOOL_NONCE_TOO_LOW", `nonce ${tx.nonce} is below ${expected}`);
    if (tx.nonce > expected) throw new MiniError("ERR_MEMPOOL_NONCE_GAP", `nonce ${tx.nonce} leaves a gap`);
    if (tx.maxFeePerCycle < BASEFEE) throw new MiniError("ERR_MEMPOOL_FEE_TOO_LOW", "max fee below basefee");
    const hash = signingHash(tx);
    this.mempool.push({ hash, tx });
    this.hub.publish("pendingTransactions", toHex(hash));
    if (this.autoMine) setTimeout(() => this.mine(), 5);
    return hash;
  }
  private fee(cyclesUsed: bigint, cellsUsed: bigint): FeeEstimate {
    const cyclesLimit = (cyclesUsed * 3n) / 2n;
    const cellsLimit = (cellsUsed * 3n) / 2n;
    return {
      cyclesUsed,
      cellsUsed,
      cyclesLimit,
      cellsLimit,
      cycleBasefee: BASEFEE,
      cellBasefee: BASEFEE,
      maxFeePerCycle: BASEFEE * 2n + 1n,
      maxFeePerCell: BASEFEE * 2n + 1n,
      maxPriorityFeePerCycle: 1n,
      maxPriorityFeePerCell: 1n,
      fee: cyclesUsed * (BASEFEE + 1n) + cellsUsed * (BASEFEE + 1n),
      maxCharge: cyclesLimit * (BASEFEE * 2n + 1n) + cellsLimit * (BASEFEE * 2n + 1n),
    };
  }
  call(request: { to: Uint8Array; handler: string; args: Uint8Array }): CallOutcome {
    const r = this.run(request.handler, request.args, request.to);
    const m = r.error === null ? null : /^(\w+): (.*)$/.exec(r.error);
    return {
      ok: r.ok,
      result: r.result,
      error: m === null ? null : { type: m[1] as string, message: m[2] as string },
      cyclesUsed: 5_000n,
      cellsUsed: 10n,
      events: r.events,
      fee: this.fee(5_000n, 10n),
    };
  }
  estimateFee() {
    return this.fee(21_000n, 100n);
  }
  async events(query: {
    fromHeight: bigint;
    toHeight: bigint;
    emitters: Uint8Array[];
    topics: Uint8Array[];
  }) {
    const out: EventView[] = [];
    for (const b of this.blocks) {
      const h = b.view.block.header.height;
      if (h < query.fromHeight || h > query.toHeight) continue;
      b.receipts.forEach((r, i) => {
        r.events.forEach((e, j) => {
          if (!query.emitters.some((a) => bytesEqual(a, e.emitter))) return;
          if (query.topics.length > 0 && !query.topics.some((t) => bytesEqual(t, e.topic))) return;
          out.push({
            ...e,
            height: h,
            blockHash: b.view.hash,
            txHash: b.view.txHashes[i] as Uint8Array,
            txIndex: i,
            logIndex: j,
          });
        });
      });
    }
    return out;
  }
  // DevBackend
  async faucet(address: Uint8Array, amount: bigint) {
    this.fund(address, amount);
    return keccak256(Uint8Array.from([...address, ...utf8(amount.toString())]));
  }
  devAccounts() {
    return [
      { address: this.faucetKeyAddress, balance: this.balances.get(toHex(this.faucetKeyAddress)) ?? 0n },
    ];
  }
}

/** Starts a MiniChain behind an RpcServer on a free port. */
export async function startMiniNode(): Promise<{
  chain: MiniChain;
  http: string;
  ws: string;
  close: () => Promise<void>;
}> {
  const hub = new SubscriptionHub({ eventFilter: eventPredicate });
  const chain = new MiniChain(hub);
  const dispatcher = new RpcDispatcher([
    ...chainModules(
      chain,
      { cyclesTarget: 1_000_000n, cellsTarget: 1_000n },
      {
        backend: chain,
      },
    ),
    hub,
  ]);
  const server = new RpcServer(
    { dispatcher },
    { port: 0, rateLimit: { perSecond: 100_000, burst: 100_000 } },
  );
  const urls = await server.start();
  return { chain, ...urls, close: () => server.close() };
}
