import { decodeTransaction, signingHash } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import {
  type ActorExecRequest,
  Chain,
  type ChainParams,
  DEFAULT_PARAMS,
  type ExecutionReceipt,
  MemoryState,
  timerId,
} from "../src/index.ts";
import {
  type ActorScript,
  addrB,
  CBY,
  FEES,
  hexOf,
  keyA,
  keyB,
  SCRIPTED_GENESIS,
  ScriptedChain,
  scriptedExecutor,
  signed,
} from "./stf-helpers.ts";

const genesis = SCRIPTED_GENESIS;
/** §5.1a per-fire pre-charge at the minimum basefees: 550,000 × 10,000 + 550,000 × 10,000 */
const MAX_COST = 11_000_000_000n;

const TICK = { cycles: 7_000, cells: 3, count: "t" };

/** Actors deployed and called from A; the scripted tick counter is storage key "t". */
class Harness extends ScriptedChain {
  deployA(s: ActorScript, value = 100n * CBY): Uint8Array {
    const { receipt } = this.deploy(keyA, s, value, value === 0n ? 1 : 2);
    expect(receipt.status).toBe("success");
    return receipt.contractAddress as Uint8Array;
  }
  callA(to: Uint8Array, handler: string): Uint8Array {
    return this.callTx(keyA, to, handler);
  }
  ticks(actor: Uint8Array): number {
    return this.count(actor, "t");
  }
  timerReceipts(r: { receipts: ExecutionReceipt[] }): ExecutionReceipt[] {
    return r.receipts.filter((x) => x.kind === "timer");
  }
}

describe("timers (§5.1a)", () => {
  it("a set_timer at height h fires at h (not in the creating block) and pays the exact fee", () => {
    const h = new Harness();
    const x = h.deployA({
      arm: { cycles: 1_000, effects: [{ kind: "setTimer", inBlocks: 2, handler: "tick" }] },
      tick: TICK,
    });
    const armed = h.block([h.callA(x, "arm")]);
    const createdAt = h.height;
    const armReq = h.log.find((q) => q.handler === "arm") as ActorExecRequest;
    const id = timerId(armReq.context.invocationId, 0);
    expect(h.timerReceipts(armed)).toEqual([]);
    const t = h.chain.getTimer(id);
    expect(t?.fireAt).toBe(createdAt + 2n);
    expect(hexOf(t?.feePayer as Uint8Array)).toBe(hexOf(x));
    const b1 = h.block();
    expect(h.timerReceipts(b1)).toEqual([]);
    expect(h.ticks(x)).toBe(0);
    const before = h.chain.getAccount(x)?.balance as bigint;
    const b2 = h.block();
    expect(h.height).toBe(createdAt + 2n);
    const [fire] = h.timerReceipts(b2);
    expect(fire?.status).toBe("success");
    expect(hexOf(fire?.timerId as Uint8Array)).toBe(hexOf(id));
    expect(fire?.cyclesUsed).toBe(7_000n);
    expect(fire?.cellsUsed).toBe(3n);
    expect(fire?.feePaid).toBe(7_003n * 10_000n);
    expect(fire?.burned).toBe(7_003n * 10_000n);
    expect(fire?.tip).toBe(0n);
    expect(h.chain.getAccount(x)?.balance).toBe(before - 7_003n * 10_000n);
    expect(h.ticks(x)).toBe(1);
    expect(h.chain.getTimer(id)).toBeNull();
    expect(b2.block.header.cyclesUsed).toBe(7_000n);
    // the fire ran as the actor messaging itself, at the fire height
    const tickReq = h.log.find((q) => q.handler === "tick") as ActorExecRequest;
    expect(tickReq.context.height).toBe(createdAt + 2n);
    expect(tickReq.limits).toEqual({ cycles: 550_000n, cells: 550_000n });
    expect([...tickReq.args]).toEqual([0x81, 0x01]);
  });

  it("a timer for the creating block is refused", () => {
    const h = new Harness();
    const x = h.deployA({
      now: { cycles: 1_000, effects: [{ kind: "setTimer", inBlocks: 0, handler: "tick" }] },
      tick: TICK,
    });
    const r = h.block([h.callA(x, "now")]).receipts[0] as ExecutionReceipt;
    expect(r.status).toBe("reverted");
    expect(r.error).toMatch(/^ERR_EXEC_TIMER: ERR_TIMER_NOT_FUTURE/);
  });

  it("ScheduleTimer/CancelTimer transactions: the sender pays each fire, only the owner cancels", () => {
    const h = new Harness();
    const x = h.deployA({ tick: TICK });
    const sched = (at: bigint) =>
      signed(
        keyB,
        {
          kind: "scheduleTimer",
          actor: x,
          fireAtHeight: at,
          handler: "tick",
          data: Uint8Array.of(0x01),
          interval: null,
        },
        { nonce: h.nonce(keyB), cyclesLimit: 5_000n, cellsLimit: 64n, ...FEES },
      );
    const tx1 = sched(h.height + 4n);
    const tx2 = sched(h.height + 4n);
    const r = h.block([tx1, tx2]);
    expect(r.receipts.map((q) => q.status)).toEqual(["success", "success"]);
    // intrinsic only: 5,000 cycles + 64 cells
    expect(r.receipts[0]?.feePaid).toBe(5_064n * 10_000n);
    const id1 = timerId(signingHash(decodeTransaction(tx1)), 0);
    const id2 = timerId(signingHash(decodeTransaction(tx2)), 0);
    expect(r.receipts.map((q) => hexOf(q.timerId as Uint8Array)).sort()).toEqual(
      [hexOf(id1), hexOf(id2)].sort(),
    );
    const cancel = (key: Uint8Array, id: Uint8Array) =>
      signed(
        key,
        { kind: "cancelTimer", actor: x, timerId: id },
        { nonce: h.nonce(key), cyclesLimit: 5_000n, cellsLimit: 64n, ...FEES },
      );
    expect(h.block([cancel(keyA, id2)]).receipts[0]?.error).toMatch(/ERR_TIMER_NOT_OWNER/);
    expect(h.block([cancel(keyB, id2)]).receipts[0]?.status).toBe("success");
    const before = h.chain.getAccount(addrB)?.balance as bigint;
    const actorBefore = h.chain.getAccount(x)?.balance as bigint;
    const fire = h.block();
    expect(h.timerReceipts(fire).map((q) => hexOf(q.timerId as Uint8Array))).toEqual([hexOf(id1)]);
    expect(h.chain.getAccount(addrB)?.balance).toBe(before - 7_003n * 10_000n);
    expect(h.chain.getAccount(x)?.balance).toBe(actorBefore);
    expect(h.ticks(x)).toBe(1);
  });

  it("an unfunded timer self-destructs without firing", () => {
    const h = new Harness();
    const x = h.deployA(
      { arm: { cycles: 1_000, effects: [{ kind: "setTimer", inBlocks: 1, handler: "tick" }] }, tick: TICK },
      0n,
    );
    h.block([h.callA(x, "arm")]);
    const id = timerId((h.log.find((q) => q.handler === "arm") as ActorExecRequest).context.invocationId, 0);
    expect(h.chain.getTimer(id)).not.toBeNull();
    const r = h.block();
    expect(h.timerReceipts(r)).toEqual([]);
    expect(h.chain.getTimer(id)).toBeNull();
    expect(h.ticks(x)).toBe(0);
    expect(h.chain.getAccount(x)?.balance).toBe(0n);
    expect(MAX_COST).toBe(11n * CBY);
  });

  it("timers that do not fit the timer lane roll over in order; TTL-expired ones are dropped", () => {
    const params: ChainParams = {
      ...DEFAULT_PARAMS,
      timer: { ...DEFAULT_PARAMS.timer, laneCycles: 550_000n, defaultTtlBlocks: 1n },
    };
    const h = new Harness(params);
    const x = h.deployA({
      arm3: {
        cycles: 1_000,
        effects: [
          { kind: "setTimer", inBlocks: 2, handler: "tick" },
          { kind: "setTimer", inBlocks: 2, handler: "tick" },
          { kind: "setTimer", inBlocks: 2, handler: "tick" },
        ],
      },
      tick: TICK,
    });
    h.block([h.callA(x, "arm3")]);
    const inv = (h.log.find((q) => q.handler === "arm3") as ActorExecRequest).context.invocationId;
    const ids = [0, 1, 2].map((i) => hexOf(timerId(inv, i)));
    h.block();
    const fired: string[][] = [];
    for (let i = 0; i < 3; i++)
      fired.push(h.timerReceipts(h.block()).map((q) => hexOf(q.timerId as Uint8Array)));
    expect(fired).toEqual([[ids[0]], [ids[1]], []]);
    expect(h.ticks(x)).toBe(2);
    expect(h.chain.getTimer(Buffer.from(ids[2] as string, "hex"))).toBeNull();
  });

  it("a timer whose actor spent its block budget rolls to the next block instead of failing", () => {
    const params: ChainParams = {
      ...DEFAULT_PARAMS,
      limits: { ...DEFAULT_PARAMS.limits, perActorPerBlockCycles: 10_000n },
    };
    const h = new Harness(params);
    const three = { kind: "setTimer" as const, inBlocks: 2, handler: "tick" };
    const x = h.deployA({ arm3: { cycles: 1_000, effects: [three, three, three] }, tick: TICK });
    h.block([h.callA(x, "arm3")]);
    const inv = (h.log.find((q) => q.handler === "arm3") as ActorExecRequest).context.invocationId;
    const ids = [0, 1, 2].map((i) => hexOf(timerId(inv, i)));
    h.block();
    // 7,000 + 7,000 cycles: the second fire starts under the 10,000 budget (burstable), the third waits
    const first = h.timerReceipts(h.block());
    expect(first.map((q) => hexOf(q.timerId as Uint8Array))).toEqual([ids[0], ids[1]]);
    expect(first.map((q) => q.status)).toEqual(["success", "success"]);
    const second = h.timerReceipts(h.block());
    expect(second.map((q) => hexOf(q.timerId as Uint8Array))).toEqual([ids[2]]);
    expect(h.ticks(x)).toBe(3);
  });

  it("interval timers re-arm every n blocks", () => {
    const h = new Harness();
    const x = h.deployA({
      arm: { cycles: 1_000, effects: [{ kind: "setTimer", inBlocks: 1, handler: "tick", interval: 3 }] },
      tick: TICK,
    });
    h.block([h.callA(x, "arm")]);
    const start = h.height;
    const firedAt: bigint[] = [];
    for (let i = 0; i < 8; i++) if (h.timerReceipts(h.block()).length > 0) firedAt.push(h.height - start);
    expect(firedAt).toEqual([1n, 4n, 7n]);
    expect(h.ticks(x)).toBe(3);
  });

  it("replays to the same roots and receipts (timers and cascades included)", () => {
    const h = new Harness();
    const y = h.deployA({ pong: { cycles: 500, count: "t" } }, 0n);
    const x = h.deployA({
      arm: { cycles: 1_000, effects: [{ kind: "setTimer", inBlocks: 1, handler: "tick", interval: 2 }] },
      tick: { cycles: 7_000, effects: [{ kind: "send", to: hexOf(y), handler: "pong", value: 1 }] },
    });
    h.block([h.callA(x, "arm")]);
    const receipts: string[] = [];
    for (let i = 0; i < 5; i++)
      receipts.push(
        JSON.stringify(h.block().receipts.map((r) => [r.kind, r.status, `${r.cyclesUsed}`, `${r.feePaid}`])),
      );
    expect(h.ticks(y)).toBe(3);
    const state = new MemoryState();
    const replica = Chain.create({ state, genesis, executor: scriptedExecutor(state) });
    const replayed: string[] = [];
    for (const b of h.blocks) {
      const r = replica.applyBlock(b);
      expect(hexOf(replica.head.stateRoot)).toBe(hexOf(b.header.stateRoot));
      replayed.push(
        JSON.stringify(r.receipts.map((q) => [q.kind, q.status, `${q.cyclesUsed}`, `${q.feePaid}`])),
      );
    }
    expect(replayed.slice(-5)).toEqual(receipts);
  });
});
