// The actor runtime through the addon: deploy the spec-04 counter into a StateDb, call it,
// see its storage in the store, a failed handler reverted, and the effect list shapes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ActorExecRequest,
  type ActorExecResult,
  accountEncode,
  executeActor,
  StateDb,
  stateKeyAccount,
  stateKeyActorCode,
  stateKeyActorStorage,
} from "@cowboy/native";
import { decodeCbor, encodeCbor } from "@cowboy/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const COUNTER = `from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
`;

const EFFECTS = `from cowboy_sdk import actor, runner, send, emit, set_timer, set_interval, cancel_timer

@actor
class E:
    def __init__(self, owner):
        self.storage["owner"] = owner

    def go(self, to):
        send(to, "ping", 1, "two", value=5)
        emit("Went", {"to": to})
        t = set_timer(50, "tick", [1])
        set_interval(10, "tick")
        cancel_timer(t)
        return t

    def ask(self):
        return runner.submit("llm", {"prompt": "hi"}, "answer", 40, 15, tip=2)

    @runner.continuation
    def answer(self, job_id, result):
        return result

    def boom(self):
        self.storage["owner"] = b"x"
        send(b"\\x02" * 20, "ping")
        raise ValueError("boom")
`;

const ACTOR = Buffer.alloc(20, 0xac);

type Effect = ActorExecResult["effects"][number];

/** The `i`-th effect, which must be of `kind`. */
function pick<K extends Effect["kind"]>(effects: Effect[], i: number, kind: K): Extract<Effect, { kind: K }> {
  const e = effects[i];
  if (e === undefined || e.kind !== kind) throw new Error(`effect ${i} is not a ${kind}`);
  return e as Extract<Effect, { kind: K }>;
}

function request(kind: "deploy" | "call", extra: Partial<ActorExecRequest>): ActorExecRequest {
  return {
    kind,
    actor: ACTOR,
    args: Buffer.from(encodeCbor([])),
    context: {
      sender: Buffer.alloc(20, 0x11),
      origin: Buffer.alloc(20, 0x11),
      value: 0n,
      height: 10n,
      timestamp: 1000n,
      chainId: 1,
      beacon: Buffer.alloc(32, 7),
      invocationId: Buffer.alloc(32, 9),
      depth: 0,
    },
    limits: { cycles: 1_000_000n, cells: 100_000n },
    ...extra,
  };
}

describe("executeActor", () => {
  let dir: string;
  let db: StateDb;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cowboy-actor-"));
    db = StateDb.open(dir);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("deploys the spec-04 counter and calls it", () => {
    const d = executeActor(db, request("deploy", { code: COUNTER }));
    expect(d.ok).toBe(true);
    expect(d.error).toBeUndefined();
    expect(decodeCbor(d.result as Buffer)).toBe(null);
    expect(d.cellsUsed).toBeGreaterThan(BigInt(COUNTER.length));
    for (let i = 1n; i <= 3n; i++) {
      const r = executeActor(db, request("call", { handler: "increment" }));
      expect(r.ok).toBe(true);
      expect(decodeCbor(r.result as Buffer)).toBe(i);
      expect(r.cyclesUsed).toBeGreaterThan(0n);
      expect(r.effects).toEqual([]);
    }
    const code = db.get(stateKeyActorCode(ACTOR));
    expect(code?.toString("utf8")).toBe(COUNTER);
    const cell = stateKeyActorStorage(1, ACTOR, Buffer.from(encodeCbor("count")));
    expect(db.get(cell)).toEqual(Buffer.from([3]));
    const { version } = db.commit();
    expect(version).toBe(1n);
  });

  it("returns effects and reverts a failed handler", () => {
    const owner = Buffer.alloc(20, 0x33);
    const d = executeActor(db, request("deploy", { code: EFFECTS, args: Buffer.from(encodeCbor([owner])) }));
    expect(d.ok).toBe(true);
    // the state transition credits the actor before running; the runtime reads the balance here
    db.put(
      stateKeyAccount(ACTOR),
      accountEncode({ balance: 100n, nonce: 0n, codeHash: Buffer.alloc(32), metadata: Buffer.alloc(0) }),
    );
    const to = Buffer.alloc(20, 0x44);
    const r = executeActor(db, request("call", { handler: "go", args: Buffer.from(encodeCbor([to])) }));
    expect(r.ok).toBe(true);
    const kinds = r.effects.map((e) => e.kind);
    expect(kinds).toEqual(["send", "event", "setTimer", "setTimer", "cancelTimer"]);
    const send = pick(r.effects, 0, "send");
    const event = pick(r.effects, 1, "event");
    const once = pick(r.effects, 2, "setTimer");
    const every = pick(r.effects, 3, "setTimer");
    const cancel = pick(r.effects, 4, "cancelTimer");
    expect(send.to).toEqual(to);
    expect(send.handler).toBe("ping");
    expect(decodeCbor(send.args)).toEqual([1n, "two"]);
    expect(send.value).toBe(5n);
    expect(event.topics).toEqual([Buffer.from("Went")]);
    expect(once.fireAt).toBe(50n);
    expect(once.interval).toBe(null);
    expect(every.fireAt).toBe(20n);
    expect(every.interval).toBe(10n);
    expect(cancel.id).toEqual(once.id);
    expect(decodeCbor(r.result as Buffer)).toEqual(new Uint8Array(once.id));

    const j = executeActor(db, request("call", { handler: "ask" }));
    expect(j.ok).toBe(true);
    const job = pick(j.effects, 0, "job");
    expect([job.jobType, job.callback, job.maxPrice, job.tip, job.timeoutBlocks]).toEqual([
      "llm",
      "answer",
      40n,
      2n,
      15n,
    ]);
    expect(decodeCbor(job.spec)).toBeInstanceOf(Object);
    expect(decodeCbor(j.result as Buffer)).toEqual(new Uint8Array(job.id));

    db.commit();
    const f = executeActor(db, request("call", { handler: "boom" }));
    expect(f.ok).toBe(false);
    expect(f.error?.type).toBe("ValueError");
    expect(f.error?.message).toBe("boom");
    expect(f.effects).toEqual([]);
    const cell = stateKeyActorStorage(1, ACTOR, Buffer.from(encodeCbor("owner")));
    expect(db.get(cell)).toEqual(Buffer.from(encodeCbor(owner)));

    const p = executeActor(db, request("call", { handler: "_private" }));
    expect(p.error?.type).toBe("HandlerNotFound");
    expect(() => executeActor(db, request("call", {}))).toThrow(/handler/);
    expect(() => executeActor(db, request("call", { handler: "go", actor: Buffer.alloc(3) }))).toThrow(
      /actor/,
    );
  });
});
