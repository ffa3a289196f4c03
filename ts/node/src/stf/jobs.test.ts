/**
 * Runner jobs in the STF (jobs.ts): escrow on submission, expiry at the deadline, result
 * delivery with the §8.4 split and the callback, typed refusals, replay determinism. A small
 * scripted runtime stands in for the PVM so every balance is exact; the last test runs the
 * real PVM (`runner.submit` / `@runner.continuation`) through the addon.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  actorAddress,
  addressFromSecretKey,
  type Block,
  bytesEqual,
  canonicalizeSource,
  decodeCbor,
  encodeCbor,
  encodeTransaction,
  type Instruction,
  keccak256,
  merkleRoot,
  signTransaction,
  type Transaction,
  zeroSignature,
} from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { Chain } from "./chain.ts";
import { StfError } from "./errors.ts";
import {
  deliveryArgs,
  JOB_DISPATCHER,
  JOB_EXPIRY_WORK_PER_BLOCK,
  JobError,
  RESULT_VERIFIER,
  TREASURY,
} from "./jobs.ts";
import { MemoryState } from "./memory-state.ts";
import { openChain } from "./open.ts";
import { codeKey, storageKey, VM_NS_PVM } from "./state-keys.ts";
import type {
  ActorEffect,
  ActorExecRequest,
  ActorExecResult,
  ActorExecutor,
  ExecutionReceipt,
  StateBackend,
} from "./types.ts";

const CBY = 1_000_000_000n;
const CHAIN_ID = 7n;
const T0 = 1_700_000_000_000n;
const PROPOSER = new Uint8Array(20).fill(0xee);
const RUNNER = new Uint8Array(20).fill(0x77);
const keyA = new Uint8Array(32).fill(0x42);
keyA[31] = 1;
const addrA = addressFromSecretKey(keyA);
const FEES = { maxFeePerCycle: 10_000n, maxFeePerCell: 10_000n };
const TEXT = new TextEncoder();

/** keccak256("cowboy-job" ‖ invocation id ‖ u32 BE index): the PVM's job id. */
function jobIdOf(invocation: Uint8Array, index: number): Uint8Array {
  const b = new Uint8Array(10 + 32 + 4);
  b.set(TEXT.encode("cowboy-job"), 0);
  b.set(invocation, 10);
  new DataView(b.buffer).setUint32(42, index);
  return keccak256(b);
}

/**
 * A scripted runtime: `submit(max_price, tip, timeout, count)` emits `count` job effects (and
 * bumps storage "n"); `on_result(job_id, result)` stores its arguments and sender under "last"
 * (5,000 cycles, 100 cells); `bad_result` raises.
 */
function jobsExecutor(state: StateBackend): ActorExecutor {
  return (req: ActorExecRequest): ActorExecResult => {
    const ok = (cycles: bigint, cells: bigint, effects: ActorEffect[] = []): ActorExecResult => ({
      ok: true,
      result: Uint8Array.of(0xf6),
      cyclesUsed: cycles,
      cellsUsed: cells,
      stdout: "",
      effects,
    });
    if (req.kind === "deploy") {
      state.put(codeKey(req.actor), TEXT.encode(req.code ?? ""));
      return ok(0n, 0n);
    }
    const args = decodeCbor(req.args) as unknown[];
    switch (req.handler) {
      case "submit": {
        const [maxPrice, tip, timeout, count] = args as bigint[];
        const k = storageKey(VM_NS_PVM, req.actor, TEXT.encode("n"));
        const prev = state.get(k);
        state.put(k, Uint8Array.of((prev?.[0] ?? 0) + 1));
        const effects: ActorEffect[] = [];
        for (let i = 0; i < Number(count ?? 1n); i++) {
          effects.push({
            kind: "job",
            id: jobIdOf(req.context.invocationId, i),
            jobType: "http",
            spec: encodeCbor({ url: "https://example.org/price", i: BigInt(i) }),
            callback: "on_result",
            maxPrice: maxPrice as bigint,
            tip: tip as bigint,
            timeoutBlocks: timeout as bigint,
          } as ActorEffect);
        }
        return ok(1_000n, 10n, effects);
      }
      case "on_result": {
        if (req.limits.cycles < 5_000n) {
          return {
            ...ok(req.limits.cycles, 0n),
            ok: false,
            error: { type: "OutOfCycles", message: "", traceback: [] },
          };
        }
        state.put(
          storageKey(VM_NS_PVM, req.actor, TEXT.encode("last")),
          encodeCbor([req.context.sender, req.args, req.context.invocationId]),
        );
        return ok(5_000n, 100n);
      }
      default:
        return {
          ok: false,
          error: { type: "ValueError", message: "boom", traceback: [] },
          cyclesUsed: 2_000n,
          cellsUsed: 0n,
          stdout: "",
          effects: [],
        };
    }
  };
}

function signed(
  instruction: Instruction,
  nonce: bigint,
  cyclesLimit = 2_000_000n,
  cellsLimit = 100_000n,
): Uint8Array {
  const tx: Transaction = {
    chainId: CHAIN_ID,
    nonce,
    instruction,
    cyclesLimit,
    cellsLimit,
    ...FEES,
    maxPriorityFeePerCycle: 0n,
    maxPriorityFeePerCell: 0n,
    from: addrA,
    accessList: null,
    metadata: new Uint8Array(0),
    originTxHash: null,
    originRemainingCycles: null,
    originRemainingCells: null,
    signature: zeroSignature(),
    additionalSigners: [],
  };
  return encodeTransaction(signTransaction(tx, keyA));
}

/** A chain on a MemoryState with the scripted runtime and one deployed job actor. */
class Harness {
  readonly state = new MemoryState();
  readonly chain: Chain;
  readonly blocks: Block[] = [];
  readonly actor: Uint8Array;
  private nonce = 0n;
  private t = T0;
  constructor(actorValue: bigint, opts: { acceptJobResults?: boolean } = {}) {
    this.chain = Chain.create({
      state: this.state,
      genesis: { chainId: CHAIN_ID, timestampMs: T0, accounts: [{ address: addrA, balance: 10_000n * CBY }] },
      executor: jobsExecutor(this.state),
      ...opts,
    });
    const source = TEXT.encode("jobs actor\n");
    const salt = new Uint8Array(32);
    this.block([
      signed({ kind: "deploy", source, salt, initArgs: new Uint8Array(0), value: actorValue }, this.nonce++),
    ]);
    this.actor = actorAddress(addrA, salt, source);
  }
  block(txs: Uint8Array[] = []) {
    this.t += 1000n;
    const r = this.chain.buildBlock(txs, { timestampMs: this.t, proposer: PROPOSER });
    this.blocks.push(r.block);
    return r;
  }
  /** `submit(max_price, tip, timeout, count)` in its own block; returns the receipt and job ids. */
  submit(maxPrice: bigint, tip: bigint, timeout: bigint, count = 1) {
    const args = encodeCbor([maxPrice, tip, timeout, BigInt(count)]);
    const tx = signed({ kind: "call", to: this.actor, handler: "submit", args, value: 0n }, this.nonce++);
    const r = this.block([tx]);
    expect(r.skipped).toEqual([]);
    const receipt = r.receipts[0] as ExecutionReceipt;
    // the root call's invocation id (message id of the transaction's call)
    const ids = Array.from({ length: count }, (_, i) =>
      jobIdOf(invocationOf(r.block.transactions[0] as Transaction), i),
    );
    return { receipt, ids, height: r.block.header.height };
  }
  balance(a: Uint8Array): bigint {
    return this.chain.getAccount(a)?.balance ?? 0n;
  }
}

/** The message id the executor gives a transaction's root call (exec.ts `messageId`). */
function invocationOf(tx: Transaction): Uint8Array {
  const ix = tx.instruction as { to: Uint8Array; handler: string; args: Uint8Array; value: bigint };
  const h = TEXT.encode(ix.handler);
  const body = new Uint8Array(20 + 1 + h.length + 4 + ix.args.length + 8);
  body.set(ix.to, 0);
  body[20] = h.length;
  body.set(h, 21);
  new DataView(body.buffer).setUint32(21 + h.length, ix.args.length);
  body.set(ix.args, 25 + h.length);
  new DataView(body.buffer).setBigUint64(25 + h.length + ix.args.length, ix.value);
  const pre = new Uint8Array(60);
  pre.set(tx.from, 0);
  new DataView(pre.buffer).setBigUint64(20, tx.nonce);
  pre.set(keccak256(body), 28);
  return keccak256(pre);
}

function jobError(f: () => unknown): JobError {
  try {
    f();
  } catch (e) {
    if (e instanceof JobError) return e;
    throw e;
  }
  throw new Error("expected a JobError");
}

const P = 2n * CBY; // max_price
const TIP = 30_000_000n;

describe("runner jobs: submission and escrow", () => {
  it("escrows max_price + tip, records the job pending and emits JobSubmitted", () => {
    const h = new Harness(10n * CBY);
    const { receipt, ids, height } = h.submit(P, TIP, 5n);
    expect(receipt.status).toBe("success");
    const id = ids[0] as Uint8Array;
    expect(h.balance(h.actor)).toBe(10n * CBY - P - TIP);
    expect(h.balance(JOB_DISPATCHER)).toBe(P + TIP);
    expect(h.chain.jobEscrow()).toBe(P + TIP);
    const job = h.chain.getJob(id);
    expect(job).not.toBeNull();
    expect(job?.status).toBe("pending");
    expect(job?.actor).toEqual(h.actor);
    expect(job?.callback).toBe("on_result");
    expect(job?.jobType).toBe("http");
    expect(job?.maxPrice).toBe(P);
    expect(job?.tip).toBe(TIP);
    expect(job?.submittedAt).toBe(height);
    expect(job?.deadline).toBe(height + 5n);
    const spec = encodeCbor({ url: "https://example.org/price", i: 0n });
    expect(job?.spec).toEqual(spec);
    expect(job?.specHash).toEqual(keccak256(spec));
    // the event: emitter 0x…02, topic "JobSubmitted", the job in the data
    expect(receipt.events).toHaveLength(1);
    const ev = receipt.events[0] as ExecutionReceipt["events"][number];
    expect(ev.emitter).toEqual(JOB_DISPATCHER);
    expect(Buffer.from(ev.topic).toString("hex")).toBe(`000c${Buffer.from("JobSubmitted").toString("hex")}`);
    const data = decodeCbor(ev.data) as { get(k: string): unknown };
    expect(data.get("deadline")).toBe(height + 5n);
    expect(data.get("max_price")).toBe(P);
    expect(data.get("id")).toEqual(id);
    expect(data.get("actor")).toEqual(h.actor);
    expect(data.get("spec")).toEqual(spec);
    expect(data.get("callback")).toBe("on_result");
  });

  it("a submission the actor cannot escrow reverts the handler (ERR_EXEC_JOB)", () => {
    const h = new Harness(P); // P < P + TIP
    const { receipt, ids } = h.submit(P, TIP, 5n);
    expect(receipt.status).toBe("reverted");
    expect(receipt.error).toMatch(/^ERR_EXEC_JOB: /);
    expect(h.chain.getJob(ids[0] as Uint8Array)).toBeNull();
    expect(h.balance(h.actor)).toBe(P);
    expect(h.balance(JOB_DISPATCHER)).toBe(0n);
    // the handler's own storage write was reverted with it
    expect(h.chain.getActorStorage(h.actor, TEXT.encode("n"))).toBeNull();
  });

  it("a malformed job effect fails the handler with ERR_EXEC_EFFECT", () => {
    const state = new MemoryState();
    const inner = jobsExecutor(state);
    const chain = Chain.create({
      state,
      genesis: { chainId: CHAIN_ID, timestampMs: T0, accounts: [{ address: addrA, balance: 10_000n * CBY }] },
      executor: (req) => {
        const r = inner(req);
        return req.handler === "submit" ? { ...r, effects: [{ kind: "job", id: new Uint8Array(3) }] } : r;
      },
    });
    const source = TEXT.encode("x\n");
    const salt = new Uint8Array(32);
    chain.buildBlock(
      [signed({ kind: "deploy", source, salt, initArgs: new Uint8Array(0), value: CBY }, 0n)],
      {
        timestampMs: T0 + 1000n,
        proposer: PROPOSER,
      },
    );
    const actor = actorAddress(addrA, salt, source);
    const args = encodeCbor([1n, 0n, 5n, 1n]);
    const r = chain.buildBlock(
      [signed({ kind: "call", to: actor, handler: "submit", args, value: 0n }, 1n)],
      {
        timestampMs: T0 + 2000n,
        proposer: PROPOSER,
      },
    );
    expect(r.receipts[0]?.error).toMatch(/^ERR_EXEC_EFFECT: job effect without a 32-byte id/);
  });
});

describe("runner jobs: expiry", () => {
  it("refunds the whole escrow at the deadline height, not before, without a callback", () => {
    const h = new Harness(10n * CBY);
    const { ids, height } = h.submit(P, TIP, 3n);
    const id = ids[0] as Uint8Array;
    const actorAfterSubmit = h.balance(h.actor);
    while (h.chain.head.height < height + 2n) h.block();
    expect(h.chain.getJob(id)?.status).toBe("pending");
    expect(h.balance(h.actor)).toBe(actorAfterSubmit);
    expect(h.balance(JOB_DISPATCHER)).toBe(P + TIP);
    const r = h.block(); // height + 3 = deadline
    expect(r.block.header.height).toBe(height + 3n);
    expect(r.receipts).toEqual([]); // no callback ran
    const job = h.chain.getJob(id);
    expect(job?.status).toBe("expired");
    expect(job?.settledAt).toBe(height + 3n);
    expect(job?.spec).toEqual(new Uint8Array(0)); // spec bytes dropped once settled
    expect(h.balance(h.actor)).toBe(10n * CBY);
    expect(h.balance(JOB_DISPATCHER)).toBe(0n);
    // the record at an earlier height still shows it pending
    expect(h.chain.getJob(id, height + 2n)?.status).toBe("pending");
    // a late result is refused
    expect(jobError(() => h.chain.deliverJobResult(id, encodeCbor(1n))).code).toBe("ERR_JOB_EXPIRED");
  });

  it(`expires at most ${JOB_EXPIRY_WORK_PER_BLOCK} units per block, the rest in the next block`, () => {
    const h = new Harness(1_000n * CBY);
    const n = 1_100;
    const { receipt, ids, height } = h.submit(1_000n, 1n, 2n, n);
    expect(receipt.status).toBe("success");
    expect(h.balance(JOB_DISPATCHER)).toBe(BigInt(n) * 1_001n);
    h.block(); // height + 1
    h.block(); // deadline: the first 1,024 slots of its bucket
    const expiredNow = ids.filter((id) => h.chain.getJob(id)?.status === "expired").length;
    expect(expiredNow).toBe(JOB_EXPIRY_WORK_PER_BLOCK);
    // the order is the bucket's (submission) order: the first 1,024 went first
    expect(ids.slice(0, expiredNow).every((id) => h.chain.getJob(id)?.status === "expired")).toBe(true);
    expect(h.balance(JOB_DISPATCHER)).toBe(BigInt(n - expiredNow) * 1_001n);
    h.block(); // height + 3: the backlog
    expect(ids.every((id) => h.chain.getJob(id)?.status === "expired")).toBe(true);
    expect(h.balance(JOB_DISPATCHER)).toBe(0n);
    expect(h.chain.head.height).toBe(height + 3n);
  });
});

describe("runner jobs: result delivery", () => {
  it("pays 89/10/1 plus the tip, refunds the unused price and runs the callback from 0x…03", () => {
    const h = new Harness(10n * CBY);
    const { ids, height } = h.submit(P, TIP, 10n);
    const id = ids[0] as Uint8Array;
    const result = encodeCbor({ price: 42n });
    const payment = 1_500_000_007n; // odd amount: rounding goes to the runner side
    const actor0 = h.balance(h.actor);
    const treasury0 = h.balance(TREASURY);
    const queued = h.chain.deliverJobResult(id, result, { runner: RUNNER, payment });
    expect(queued.height).toBe(height + 1n);
    expect(jobError(() => h.chain.deliverJobResult(id, result)).code).toBe("ERR_JOB_DELIVERED");
    const r = h.block();
    expect(r.skipped).toEqual([]);
    expect(r.block.transactions).toHaveLength(1);
    const tx = r.block.transactions[0] as Transaction;
    expect(tx.from).toEqual(RESULT_VERIFIER);
    expect(tx.originTxHash).toEqual(id);
    const receipt = r.receipts[0] as ExecutionReceipt;
    expect(receipt.txHash).toEqual(queued.hash);
    expect(receipt.error).toBeNull();
    expect(receipt.status).toBe("success");
    // split: burn 10% and treasury 1% floored, the runner side gets the rest, plus the tip
    const burned = (payment * 1_000n) / 10_000n;
    const toTreasury = (payment * 100n) / 10_000n;
    const runnerShare = payment - burned - toTreasury;
    expect(burned).toBe(150_000_000n);
    expect(toTreasury).toBe(15_000_000n);
    expect(runnerShare).toBe(1_335_000_007n);
    expect(h.balance(RUNNER)).toBe(runnerShare + TIP);
    expect(h.balance(TREASURY) - treasury0).toBe(toTreasury);
    expect(h.balance(JOB_DISPATCHER)).toBe(0n);
    // callback fee: (21,000 intrinsic + 5,000) cycles and (args + 100) cells at the Runner-lane basefees
    const args = deliveryArgs(id, result);
    expect(receipt.cyclesUsed).toBe(26_000n);
    expect(receipt.cellsUsed).toBe(BigInt(args.length) + 100n);
    const fee = 26_000n * r.block.header.cycleBasefee + receipt.cellsUsed * r.block.header.cellBasefee;
    expect(receipt.feePaid).toBe(fee);
    expect(h.balance(h.actor)).toBe(actor0 + (P - payment) - fee);
    // the callback saw the Result Verifier as sender and [job_id, result] as arguments
    const last = decodeCbor(
      h.chain.getActorStorage(h.actor, TEXT.encode("last")) as Uint8Array,
    ) as Uint8Array[];
    expect(last[0]).toEqual(RESULT_VERIFIER);
    expect(last[1]).toEqual(args);
    expect(decodeCbor(args)).toEqual([id, decodeCbor(result)]);
    const job = h.chain.getJob(id);
    expect(job?.status).toBe("delivered");
    expect(job?.runner).toEqual(RUNNER);
    expect(job?.payment).toBe(payment);
    expect(job?.resultHash).toEqual(keccak256(result));
    expect(job?.callbackOk).toBe(true);
    expect(job?.settledAt).toBe(height + 1n);
    // double delivery, then expiry of a delivered job does nothing
    expect(jobError(() => h.chain.deliverJobResult(id, result)).code).toBe("ERR_JOB_DELIVERED");
    const actor1 = h.balance(h.actor);
    while (h.chain.head.height < height + 11n) h.block();
    expect(h.chain.getJob(id)?.status).toBe("delivered");
    expect(h.balance(h.actor)).toBe(actor1);
  });

  it("defaults: payment = max_price, runner = the Result Verifier; delivery at the deadline height is accepted", () => {
    const h = new Harness(10n * CBY);
    const { ids, height } = h.submit(P, 0n, 2n);
    const id = ids[0] as Uint8Array;
    h.block(); // height + 1
    h.chain.deliverJobResult(id, encodeCbor("ok"));
    const r = h.block(); // height + 2 = deadline: the delivery runs before the expiry step
    expect(r.block.header.height).toBe(height + 2n);
    expect(r.receipts[0]?.status).toBe("success");
    expect(h.chain.getJob(id)?.status).toBe("delivered");
    expect(h.balance(RESULT_VERIFIER)).toBe(P - (P * 1_100n) / 10_000n);
  });

  it("a failing callback still settles the job; an actor that cannot pay gets no callback", () => {
    const h = new Harness(P + TIP);
    const { ids } = h.submit(P, TIP, 10n);
    const id = ids[0] as Uint8Array;
    expect(h.balance(h.actor)).toBe(0n);
    // payment = max_price: no refund, so the actor cannot cover the callback's maximum fee
    h.chain.deliverJobResult(id, encodeCbor(7n), { runner: RUNNER });
    const r = h.block();
    const receipt = r.receipts[0] as ExecutionReceipt;
    expect(receipt.status).toBe("reverted");
    expect(receipt.error).toMatch(/^ERR_EXEC_JOB: actor balance 0 cannot cover/);
    expect(receipt.feePaid).toBe(0n);
    expect(h.balance(RUNNER)).toBe(P - (P * 1_100n) / 10_000n + TIP);
    expect(h.chain.getJob(id)?.callbackOk).toBe(false);
    expect(h.chain.getJob(id)?.status).toBe("delivered");
    expect(h.chain.getActorStorage(h.actor, TEXT.encode("last"))).toBeNull();
  });

  it("a callback that runs out of its limits reverts only itself", () => {
    const h = new Harness(10n * CBY);
    const { ids } = h.submit(P, 0n, 10n);
    const id = ids[0] as Uint8Array;
    const actor0 = h.balance(h.actor);
    h.chain.deliverJobResult(id, encodeCbor(1n), { runner: RUNNER, payment: P, cyclesLimit: 22_000n });
    const r = h.block();
    const receipt = r.receipts[0] as ExecutionReceipt;
    expect(receipt.status).toBe("outOfCycles");
    expect(receipt.cyclesUsed).toBe(22_000n);
    expect(h.chain.getJob(id)?.status).toBe("delivered");
    expect(h.chain.getJob(id)?.callbackOk).toBe(false);
    expect(h.chain.getActorStorage(h.actor, TEXT.encode("last"))).toBeNull();
    expect(h.balance(h.actor)).toBe(actor0 - receipt.feePaid);
  });

  it("refuses unknown jobs, bad results, excess payments, bad runners with typed errors", () => {
    const h = new Harness(10n * CBY);
    const { ids } = h.submit(P, 0n, 10n);
    const id = ids[0] as Uint8Array;
    expect(jobError(() => h.chain.deliverJobResult(new Uint8Array(32).fill(9), encodeCbor(1n))).code).toBe(
      "ERR_JOB_UNKNOWN",
    );
    expect(jobError(() => h.chain.deliverJobResult(id, Uint8Array.of(0x18, 0x01))).code).toBe(
      "ERR_JOB_RESULT",
    );
    expect(jobError(() => h.chain.deliverJobResult(id, Uint8Array.of(1, 2))).code).toBe("ERR_JOB_RESULT");
    const big = encodeCbor(new Uint8Array(65_536));
    expect(jobError(() => h.chain.deliverJobResult(id, big)).code).toBe("ERR_JOB_RESULT");
    expect(jobError(() => h.chain.deliverJobResult(id, encodeCbor(1n), { payment: P + 1n })).code).toBe(
      "ERR_JOB_PAYMENT",
    );
    expect(
      jobError(() => h.chain.deliverJobResult(id, encodeCbor(1n), { runner: JOB_DISPATCHER })).code,
    ).toBe("ERR_JOB_RUNNER");
    expect(
      jobError(() => h.chain.deliverJobResult(id, encodeCbor(1n), { cyclesLimit: 9_000_000n })).code,
    ).toBe("ERR_JOB_DELIVERY");
    expect(h.chain.queuedJobResults()).toEqual([]);
    const off = new Harness(10n * CBY, { acceptJobResults: false });
    expect(jobError(() => off.chain.deliverJobResult(id, encodeCbor(1n))).code).toBe("ERR_JOB_DISABLED");
  });
});

describe("runner jobs: blocks from elsewhere", () => {
  /** A job lifecycle on one chain: submit, deliver one, expire another. */
  function history(): Harness {
    const h = new Harness(10n * CBY);
    const a = h.submit(P, TIP, 4n).ids[0] as Uint8Array;
    h.submit(P, 0n, 2n);
    h.chain.deliverJobResult(a, encodeCbor({ v: 1n }), { runner: RUNNER, payment: P / 2n });
    for (let i = 0; i < 4; i++) h.block();
    return h;
  }

  it("replaying the blocks gives identical state roots (determinism)", () => {
    const h = history();
    const other = new Harness(10n * CBY);
    // same genesis and deploy block; replay every later block
    expect(other.chain.head.stateRoot).toEqual(h.blocks[0]?.header.stateRoot);
    for (const b of h.blocks.slice(1)) {
      const r = other.chain.applyBlock(b);
      expect(r.block.header.stateRoot).toEqual(b.header.stateRoot);
    }
    expect(other.chain.head.stateRoot).toEqual(h.chain.head.stateRoot);
    const again = history();
    expect(again.chain.head.stateRoot).toEqual(h.chain.head.stateRoot);
  });

  it("a block delivering a result to an unknown job is invalid; nodes refusing results refuse deliveries", () => {
    const h = history();
    const deliveryBlock = h.blocks.find((b) => b.transactions.some((t) => t.originTxHash !== null)) as Block;
    const idx = h.blocks.indexOf(deliveryBlock);
    // a node that does not accept job results refuses the block
    const off = new Harness(10n * CBY, { acceptJobResults: false });
    for (const b of h.blocks.slice(1, idx)) off.chain.applyBlock(b);
    const e = (() => {
      try {
        off.chain.applyBlock(deliveryBlock);
      } catch (err) {
        return err as StfError;
      }
      throw new Error("expected a refusal");
    })();
    expect(e).toBeInstanceOf(StfError);
    expect(e.code).toBe("ERR_BLOCK_INVALID_TX");
    expect(e.data.cause).toBe("ERR_TX_DEFERRED");
    // a block whose delivery names an unknown job is invalid (cause ERR_TX_JOB), nothing changes
    const on = new Harness(10n * CBY);
    for (const b of h.blocks.slice(1, idx)) on.chain.applyBlock(b);
    const real = deliveryBlock.transactions[0] as Transaction;
    expect(real.originTxHash).not.toBeNull();
    const wrongId = new Uint8Array(32).fill(5);
    const forged: Transaction = {
      ...real,
      originTxHash: wrongId,
      instruction: {
        ...(real.instruction as Extract<Instruction, { kind: "call" }>),
        args: deliveryArgs(wrongId, encodeCbor(1n)),
      },
    };
    const forgedBlock: Block = {
      header: { ...deliveryBlock.header, txRoot: merkleRoot([keccak256(encodeTransaction(forged))]) },
      transactions: [forged],
    };
    const head = on.chain.head;
    let refused: StfError | null = null;
    try {
      on.chain.applyBlock(forgedBlock);
    } catch (err) {
      refused = err as StfError;
    }
    expect(refused).toBeInstanceOf(StfError);
    expect(refused?.code).toBe("ERR_BLOCK_INVALID_TX");
    expect(refused?.data.cause).toBe("ERR_TX_JOB");
    expect(refused?.message).toMatch(/ERR_JOB_UNKNOWN/);
    expect(on.chain.head).toBe(head);
    // the genuine block still applies
    expect(on.chain.applyBlock(deliveryBlock).block.header.stateRoot).toEqual(deliveryBlock.header.stateRoot);
  });

  it("mempool admission refuses deferred transactions", () => {
    const h = history();
    const tx = h.blocks.flatMap((b) => b.transactions).find((t) => t.originTxHash !== null) as Transaction;
    expect(() => h.chain.checkTx(encodeTransaction(tx))).toThrowError(
      expect.objectContaining({ code: "ERR_TX_DEFERRED" }),
    );
  });
});

// ---------------------------------------------------------------- the real PVM

const ORACLE = canonicalizeSource(`from cowboy_sdk import actor, runner, emit

@actor
class Oracle:
    def __init__(self):
        self.storage["price"] = None

    def ask(self, max_price: int) -> bytes:
        return runner.submit("http", {"url": "https://example.org"}, "on_price", max_price, 5, tip=3)

    @runner.continuation
    def on_price(self, job_id, result):
        self.storage["price"] = result["price"]
        emit("Price", result["price"])

    def price(self):
        return self.storage["price"]

    def still_pending(self, job_id: bytes) -> bool:
        return runner.pending(job_id)
`);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("runner jobs with the PVM", () => {
  it("runner.submit escrows; a delivered result reaches the @runner.continuation", () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-jobs-"));
    dirs.push(dir);
    const h = openChain(dir, {
      chainId: CHAIN_ID,
      timestampMs: T0,
      accounts: [{ address: addrA, balance: 10_000n * CBY }],
    });
    try {
      const chain = h.chain;
      let t = T0;
      const block = (txs: Uint8Array[]) => {
        t += 1000n;
        const r = chain.buildBlock(txs, { timestampMs: t, proposer: PROPOSER });
        expect(r.skipped).toEqual([]);
        return r;
      };
      const source = ORACLE;
      const salt = new Uint8Array(32);
      const d = block([
        signed(
          { kind: "deploy", source, salt, initArgs: new Uint8Array(0), value: 50n * CBY },
          0n,
          5_000_000n,
          200_000n,
        ),
      ]);
      expect(d.receipts[0]?.status).toBe("success");
      const actor = actorAddress(addrA, salt, source);
      const ask = block([
        signed(
          { kind: "call", to: actor, handler: "ask", args: encodeCbor([CBY]), value: 0n },
          1n,
          5_000_000n,
        ),
      ]);
      const receipt = ask.receipts[0] as ExecutionReceipt;
      expect(receipt.error).toBeNull();
      const id = decodeCbor(receipt.returnData) as Uint8Array;
      expect(id).toHaveLength(32);
      const job = chain.getJob(id);
      expect(job?.status).toBe("pending");
      expect(job?.callback).toBe("on_price");
      expect(job?.deadline).toBe(ask.block.header.height + 5n);
      expect(decodeCbor(job?.spec as Uint8Array)).toBeTruthy();
      expect(chain.getAccount(actor)?.balance).toBe(50n * CBY - CBY - 3n);
      expect(chain.getAccount(JOB_DISPATCHER)?.balance).toBe(CBY + 3n);
      const pending = chain.simulateCall({
        from: addrA,
        to: actor,
        handler: "still_pending",
        args: encodeCbor([id]),
      });
      expect(decodeCbor(pending.returnData)).toBe(true);
      chain.deliverJobResult(id, encodeCbor({ price: 1234n }), { runner: RUNNER, payment: CBY / 2n });
      const r = block([]);
      const dr = r.receipts[0] as ExecutionReceipt;
      expect(dr.error).toBeNull();
      expect(dr.status).toBe("success");
      expect(dr.cyclesUsed).toBeLessThan(200_000n); // the default limit fits a small continuation
      expect(dr.events.some((e) => bytesEqual(e.emitter, actor))).toBe(true);
      const price = chain.simulateCall({ from: addrA, to: actor, handler: "price", args: encodeCbor([]) });
      expect(decodeCbor(price.returnData)).toBe(1234n);
      expect(chain.getAccount(RUNNER)?.balance).toBe(CBY / 2n - ((CBY / 2n) * 11n) / 100n + 3n);
      expect(chain.getJob(id)?.callbackOk).toBe(true);
      const after = chain.simulateCall({
        from: addrA,
        to: actor,
        handler: "still_pending",
        args: encodeCbor([id]),
      });
      expect(decodeCbor(after.returnData)).toBe(false);
      // a second job expires on the real store: escrow back at the deadline, continuation never called
      const before = chain.getAccount(actor)?.balance ?? 0n;
      const ask2 = block([
        signed(
          { kind: "call", to: actor, handler: "ask", args: encodeCbor([CBY]), value: 0n },
          2n,
          5_000_000n,
        ),
      ]);
      const id2 = decodeCbor((ask2.receipts[0] as ExecutionReceipt).returnData) as Uint8Array;
      const fee2 = (ask2.receipts[0] as ExecutionReceipt).feePaid;
      expect(chain.getAccount(actor)?.balance).toBe(before - CBY - 3n);
      const stillPending = () =>
        decodeCbor(
          chain.simulateCall({ from: addrA, to: actor, handler: "still_pending", args: encodeCbor([id2]) })
            .returnData,
        );
      for (let i = 0; i < 4; i++) block([]);
      expect(chain.getJob(id2)?.status).toBe("pending");
      expect(stillPending()).toBe(true); // the next block is the deadline block
      block([]);
      expect(chain.getJob(id2)?.status).toBe("expired");
      expect(stillPending()).toBe(false); // runner.pending follows the chain's deadline
      expect(chain.getAccount(actor)?.balance).toBe(before);
      expect(chain.getAccount(JOB_DISPATCHER)?.balance).toBe(0n);
      expect(fee2).toBeGreaterThan(0n); // paid by the sender, not the actor
    } finally {
      h.close();
    }
  });
});
