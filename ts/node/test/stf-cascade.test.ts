import { decodeTransaction, keccak256 } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import {
  Chain,
  type ChainParams,
  DEFAULT_PARAMS,
  type ExecutionReceipt,
  MemoryState,
  StfError,
  storageKey,
  systemKey,
  TABLE,
  VM_NS_PVM,
} from "../src/index.ts";
import {
  type ActorScript,
  addrA,
  addrB,
  CBY,
  FEES,
  hexOf,
  keyA,
  keyB,
  PROPOSER,
  SCRIPTED_GENESIS,
  ScriptedChain,
  script,
  signed,
  T0,
} from "./stf-helpers.ts";

const genesis = SCRIPTED_GENESIS;

describe("deploy (§1.2, §17.2)", () => {
  it("creates the actor at the CREATE2 address, stores code, runs __init__ and moves value", () => {
    const h = new ScriptedChain();
    const s: ActorScript = { __init__: { cycles: 5_000, count: "init" } };
    const before = h.balance(addrA);
    const { addr, receipt } = h.deploy(keyA, s, 7n * CBY);
    expect(receipt.status).toBe("success");
    expect(receipt.contractAddress).toEqual(addr);
    const acct = h.chain.getAccount(addr);
    expect(acct?.codeHash).toEqual(keccak256(script(s)));
    expect(acct?.balance).toBe(7n * CBY);
    expect(h.chain.getCode(addr)).toBe(JSON.stringify(s));
    expect(h.count(addr, "init")).toBe(1);
    const srcLen = BigInt(script(s).length);
    expect(receipt.cyclesUsed).toBe(100_000n + 5_000n);
    expect(receipt.cellsUsed).toBe(srcLen);
    expect(receipt.feePaid).toBe((105_000n + srcLen) * 10_000n);
    expect(h.balance(addrA)).toBe(before - 7n * CBY - receipt.feePaid);
    expect(h.log[0]?.kind).toBe("deploy");
    // same creator, salt and code again: reverted, still pays
    const again = h.deploy(keyA, s, 7n * CBY);
    expect(again.receipt.status).toBe("reverted");
    expect(again.receipt.error).toMatch(/^ERR_EXEC_ACTOR_EXISTS/);
    expect(h.chain.getAccount(addr)?.balance).toBe(7n * CBY);
  });

  it("a failing __init__ leaves no actor behind", () => {
    const h = new ScriptedChain();
    const { addr, receipt } = h.deploy(keyA, { __init__: { cycles: 10, fail: true } });
    expect(receipt.status).toBe("reverted");
    expect(h.chain.getAccount(addr)).toBeNull();
    expect(h.chain.getCode(addr)).toBeNull();
  });
});

describe("message cascades (§3.3)", () => {
  function pair(h: ScriptedChain, pong: ActorScript["x"]) {
    const y = h.deploy(keyB, { pong: pong as ActorScript["x"] }, 0n, 2).addr;
    const x = h.deploy(
      keyA,
      {
        ping: {
          cycles: 3_000,
          count: "n",
          effects: [
            { kind: "send", to: hexOf(y), handler: "pong", value: 5 },
            { kind: "event", topic: "pinged", data: "x" },
          ],
        },
      },
      100n * CBY,
      3,
    ).addr;
    return { x, y };
  }

  it("delivers nested sends in the same transaction with value, events and exact cycles", () => {
    const h = new ScriptedChain();
    const { x, y } = pair(h, {
      cycles: 2_000,
      count: "n",
      effects: [{ kind: "event", topic: "ponged", data: "y" }],
    });
    const r = h.call(keyA, x, "ping");
    expect(r.status).toBe("success");
    expect(r.cyclesUsed).toBe(21_000n + 3_000n + 2_000n);
    expect(r.events.map((e) => Buffer.from(e.data).toString())).toEqual(["x", "y"]);
    expect(hexOf(r.events[0]?.emitter as Uint8Array)).toBe(hexOf(x));
    expect(hexOf(r.events[1]?.emitter as Uint8Array)).toBe(hexOf(y));
    expect(h.count(x)).toBe(1);
    expect(h.count(y)).toBe(1);
    expect(h.balance(y)).toBe(5n);
    expect(h.balance(x)).toBe(100n * CBY - 5n);
    // the actor's nonce numbers its messages; depth and origin reach the runtime
    expect(h.chain.getAccount(x)?.nonce).toBe(1n);
    const pongReq = h.log.find((q) => q.handler === "pong");
    expect(pongReq?.context.depth).toBe(1);
    expect(hexOf(pongReq?.context.origin as Uint8Array)).toBe(hexOf(addrA));
    expect(hexOf(pongReq?.context.sender as Uint8Array)).toBe(hexOf(x));
    // the message id is recorded in the recipient's dedup set
    expect(h.state.get(systemKey(y, TABLE.dedup, pongReq?.context.invocationId as Uint8Array))).toBeDefined();
  });

  it("a failing handler reverts only its own effects", () => {
    const h = new ScriptedChain();
    const { x, y } = pair(h, { cycles: 2_000, count: "n", fail: true });
    const r = h.call(keyA, x, "ping");
    expect(r.status).toBe("success");
    expect(r.cyclesUsed).toBe(26_000n); // the failed handler's cycles still count
    expect(h.count(x)).toBe(1);
    expect(h.count(y)).toBe(0);
    expect(h.balance(y)).toBe(0n); // its value transfer was reverted with it
    expect(r.events).toHaveLength(1);
  });

  it("a failing transaction reverts everything but still pays", () => {
    const h = new ScriptedChain();
    const x = h.deploy(keyA, { boom: { cycles: 4_000, count: "n", fail: true } }).addr;
    const before = h.balance(addrA);
    const r = h.call(keyA, x, "boom", 3n * CBY);
    expect(r.status).toBe("reverted");
    expect(r.error).toMatch(/^ERR_EXEC_HANDLER: ValueError/);
    expect(r.feePaid).toBe((25_000n + 1n) * 10_000n);
    expect(h.balance(addrA)).toBe(before - r.feePaid);
    expect(h.balance(x)).toBe(100n * CBY);
    expect(h.count(x)).toBe(0);
    expect(h.chain.getAccount(addrA)?.nonce).toBe(2n);
  });

  it("running out of the transaction's cycles anywhere fails the whole transaction", () => {
    const h = new ScriptedChain();
    const { x, y } = pair(h, { cycles: 500_000, count: "n" });
    const r = h.call(keyA, x, "ping", 0n, 21_000n + 3_000n + 100_000n);
    expect(r.status).toBe("outOfCycles");
    expect(r.cyclesUsed).toBe(21_000n + 3_000n + 100_000n);
    expect(h.count(x)).toBe(0);
    expect(h.count(y)).toBe(0);
  });

  it("caps fanout at 1,024 messages per transaction", () => {
    const h = new ScriptedChain();
    const sink = h.deploy(keyB, { s: { cycles: 1 } }, 0n, 9).addr;
    const sends = (n: number) => [{ kind: "send" as const, to: hexOf(sink), handler: "s", times: n }];
    const x = h.deploy(keyA, {
      ok: { cycles: 10, effects: sends(1024) },
      over: { cycles: 10, effects: sends(1025) },
    }).addr;
    const ok = h.call(keyA, x, "ok", 0n, 5_000_000n);
    expect(ok.status).toBe("success");
    expect(ok.cyclesUsed).toBe(21_000n + 10n + 1024n);
    const over = h.call(keyA, x, "over", 0n, 5_000_000n);
    expect(over.status).toBe("reverted");
    expect(over.error).toMatch(/^ERR_EXEC_FANOUT/);
  });

  it("caps the message depth at 32", () => {
    const h = new ScriptedChain();
    const x = h.deploy(keyA, {
      rec: { cycles: 100, count: "n", effects: [{ kind: "send", to: "self", handler: "rec" }] },
    }).addr;
    const r = h.call(keyA, x, "rec");
    expect(r.status).toBe("success");
    // depths 0..32 ran (33 handlers); the one at depth 32 failed on its send to depth 33
    expect(h.log.filter((q) => q.handler === "rec").map((q) => q.context.depth)).toEqual(
      Array.from({ length: 33 }, (_, i) => i),
    );
    expect(r.cyclesUsed).toBe(21_000n + 33n * 100n);
    expect(h.count(x)).toBe(32);
  });

  it("refuses mailbox overflow, unknown effects, and over-budget actors", () => {
    const params: ChainParams = {
      ...DEFAULT_PARAMS,
      limits: { ...DEFAULT_PARAMS.limits, perActorPerBlockCycles: 1_000_000n },
    };
    const h = new ScriptedChain(params);
    const sink = h.deploy(keyB, { s: { cycles: 1 } }, 0n, 9).addr;
    const x = h.deploy(keyA, {
      big: {
        cycles: 10,
        effects: [
          { kind: "send", to: hexOf(sink), handler: "s", argsLen: 600_000 },
          { kind: "send", to: hexOf(sink), handler: "s", argsLen: 400_000 },
        ],
      },
      bigger: {
        cycles: 10,
        effects: [
          { kind: "send", to: hexOf(sink), handler: "s", argsLen: 600_000 },
          { kind: "send", to: hexOf(sink), handler: "s", argsLen: 400_001 },
        ],
      },
      job: { cycles: 10, effects: [{ kind: "job" }] },
      heavy: { cycles: 600_000, count: "n" },
    }).addr;
    expect(h.call(keyA, x, "big").status).toBe("success");
    const over = h.call(keyA, x, "bigger");
    expect(over.error).toMatch(/^ERR_EXEC_MAILBOX_FULL/);
    expect(h.call(keyA, x, "job").error).toMatch(/^ERR_EXEC_EFFECT/);
    // §12.1: 1,000,000 cycles per actor per block, burstable
    const r = h.block([h.callTx(keyA, x, "heavy"), h.callTx(keyA, x, "heavy"), h.callTx(keyA, x, "heavy")]);
    expect(r.receipts.map((q) => q.status)).toEqual(["success", "success", "reverted"]);
    expect(r.receipts[2]?.error).toMatch(/^ERR_EXEC_ACTOR_BLOCK_BUDGET/);
    expect(h.count(x)).toBe(2);
    expect(h.call(keyA, x, "heavy").status).toBe("success");
  });

  it("expires dedup entries after dedup_window blocks", () => {
    const params: ChainParams = { ...DEFAULT_PARAMS, limits: { ...DEFAULT_PARAMS.limits, dedupWindow: 2n } };
    const h = new ScriptedChain(params);
    const x = h.deploy(keyA, { p: { cycles: 1 } }).addr;
    h.call(keyA, x, "p");
    const id = h.log.find((q) => q.handler === "p")?.context.invocationId as Uint8Array;
    expect(h.state.get(systemKey(x, TABLE.dedup, id))).toBeDefined();
    h.block();
    expect(h.state.get(systemKey(x, TABLE.dedup, id))).toBeDefined();
    h.block();
    expect(h.state.get(systemKey(x, TABLE.dedup, id))).toBeUndefined();
  });

  it("calls to a plain account or without a runtime fail cleanly", () => {
    const h = new ScriptedChain();
    expect(h.call(keyA, addrB, "x").error).toMatch(/^ERR_EXEC_NOT_ACTOR/);
    const bare = Chain.create({ state: new MemoryState(), genesis });
    const src = script({});
    const tx = signed(
      keyA,
      { kind: "deploy", source: src, salt: new Uint8Array(32), initArgs: new Uint8Array(0), value: 0n },
      { nonce: 0n, cyclesLimit: 1_000_000n, cellsLimit: 10_000n, ...FEES },
    );
    const r = bare.buildBlock([tx], { timestampMs: T0 + 1n, proposer: PROPOSER });
    expect(r.receipts[0]?.error).toMatch(/^ERR_EXEC_NO_RUNTIME/);
    expect(StfError).toBeDefined();
    expect(storageKey(VM_NS_PVM, addrA, Uint8Array.of(1))[0]).toBe(3);
  });

  it("simulateCall and estimateFee run the cascade without changing the state", () => {
    const h = new ScriptedChain();
    const { x, y } = pair(h, { cycles: 2_000, count: "n" });
    const root = h.chain.head.stateRoot;
    const sim = h.chain.simulateCall({ from: addrA, to: x, handler: "ping", args: Uint8Array.of(0x80) });
    expect(sim.ok).toBe(true);
    expect(sim.cyclesUsed).toBe(5_000n);
    expect(sim.events).toHaveLength(1);
    expect(h.count(x)).toBe(0);
    expect(h.count(y)).toBe(0);
    expect(h.balance(y)).toBe(0n);
    const est = h.chain.estimateFee(decodeTransaction(h.callTx(keyA, x, "ping")));
    h.unuseNonce(keyA);
    expect(est.cyclesUsed).toBe(26_000n);
    expect(est.cellsUsed).toBe(1n);
    expect(est.cyclesLimit).toBe(31_200n);
    expect(est.fee).toBe(26_001n * 10_000n);
    expect(h.chain.head.stateRoot).toEqual(root);
    // the estimate is what the transaction then pays
    const r = h.call(keyA, x, "ping");
    expect(r.cyclesUsed).toBe(est.cyclesUsed);
    expect(r.feePaid).toBe(est.fee);
  });

  it("charges the lane basefee (global × the lane's fee multiplier)", () => {
    const params: ChainParams = {
      ...DEFAULT_PARAMS,
      laneMultiplierBps: { ...DEFAULT_PARAMS.laneMultiplierBps, user: 15_000n },
    };
    const h = new ScriptedChain(params);
    const tx = signed(
      keyA,
      { kind: "transfer", to: addrB, amount: 1n },
      { nonce: 0n, maxFeePerCycle: 15_000n, maxFeePerCell: 15_000n, tipCycle: 0n, tipCell: 0n },
    );
    const r = h.block([tx]).receipts[0] as ExecutionReceipt;
    expect(r.feePaid).toBe(21_000n * 15_000n);
    expect(r.burned).toBe(21_000n * 15_000n);
    const low = signed(keyA, { kind: "transfer", to: addrB, amount: 1n }, { nonce: 1n, ...FEES });
    expect(() => h.chain.checkTx(low)).toThrow(StfError);
  });
});
