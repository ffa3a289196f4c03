/**
 * The STF with the real actor runtime: Python actors run by the PVM through the addon's
 * `executeActor`, against the qmdb store (openChain's default executor).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalizeSource, decodeCbor, encodeCbor, toHex } from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type ChainHandle, type ExecutionReceipt, openChain, UNITS_PER_CBY } from "../src/index.ts";
import { addrA, addrB, CHAIN_ID, keyA, keyB, PROPOSER, signed } from "./stf-helpers.ts";

const COUNTER = `from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self, by: int = 1) -> int:
        self.storage["count"] += by
        return self.storage["count"]

    def get(self) -> int:
        return self.storage["count"]
`;

const PINGER = `from cowboy_sdk import actor, send, emit, set_timer

@actor
class Pinger:
    def __init__(self):
        self.storage["fired"] = 0

    def ping(self, target: bytes) -> None:
        send(target, "increment", 5, value=3)
        emit("pinged", None)

    def ping_and_fail(self, target: bytes) -> None:
        send(target, "increment", 5)
        raise ValueError("no")

    def arm(self, at: int) -> bytes:
        return set_timer(at, "tick", 7)

    def tick(self, data: int) -> None:
        self.storage["fired"] += data

    def fired(self) -> int:
        return self.storage["fired"]
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FEES = { maxFeePerCycle: 10_000n, maxFeePerCell: 10_000n, tipCycle: 0n, tipCell: 0n };
const T0 = 1_700_000_000_000n;

class Node {
  readonly h: ChainHandle;
  private readonly nonces = new Map<string, bigint>();
  constructor() {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-stf-actors-"));
    dirs.push(dir);
    this.h = openChain(dir, {
      chainId: CHAIN_ID,
      timestampMs: T0,
      accounts: [
        { address: addrA, balance: 10_000n * UNITS_PER_CBY },
        { address: addrB, balance: 10_000n * UNITS_PER_CBY },
      ],
    });
  }
  nonce(k: Uint8Array): bigint {
    const n = this.nonces.get(toHex(k)) ?? 0n;
    this.nonces.set(toHex(k), n + 1n);
    return n;
  }
  block(txs: Uint8Array[] = []) {
    const r = this.h.chain.buildBlock(txs, {
      timestampMs: this.h.chain.head.timestampMs + 1000n,
      proposer: PROPOSER,
    });
    expect(r.skipped).toEqual([]);
    return r;
  }
  deploy(source: string, value = 0n): Uint8Array {
    const tx = signed(
      keyA,
      {
        kind: "deploy",
        source: canonicalizeSource(source),
        salt: new Uint8Array(32),
        initArgs: new Uint8Array(0),
        value,
      },
      { nonce: this.nonce(keyA), cyclesLimit: 5_000_000n, cellsLimit: 100_000n, ...FEES },
    );
    const r = this.block([tx]).receipts[0] as ExecutionReceipt;
    expect(r.error).toBeNull();
    return r.contractAddress as Uint8Array;
  }
  call(key: Uint8Array, to: Uint8Array, handler: string, args: unknown[], value = 0n): ExecutionReceipt {
    const tx = signed(
      key,
      { kind: "call", to, handler, args: encodeCbor(args as never), value },
      { nonce: this.nonce(key), cyclesLimit: 2_000_000n, cellsLimit: 100_000n, ...FEES },
    );
    return this.block([tx]).receipts[0] as ExecutionReceipt;
  }
  read(to: Uint8Array, handler: string): unknown {
    const sim = this.h.chain.simulateCall({ from: addrB, to, handler, args: encodeCbor([]) });
    expect(sim.error).toBeNull();
    return decodeCbor(sim.returnData);
  }
}

describe("Python actors through the STF (PVM + qmdb)", () => {
  it("deploys the DESIGN.md counter and calls it; fees cover the metered cycles", () => {
    const n = new Node();
    const counter = n.deploy(COUNTER);
    expect(n.h.chain.getCode(counter)).toContain("class Counter");
    const before = n.h.chain.getAccount(addrB)?.balance as bigint;
    const r = n.call(keyB, counter, "increment", [2]);
    expect(r.status).toBe("success");
    expect(decodeCbor(r.returnData)).toBe(2n);
    expect(r.cyclesUsed).toBeGreaterThan(21_000n);
    expect(r.feePaid).toBe((r.cyclesUsed + r.cellsUsed) * 10_000n);
    expect(n.h.chain.getAccount(addrB)?.balance).toBe(before - r.feePaid);
    expect(decodeCbor(n.call(keyB, counter, "increment", []).returnData)).toBe(3n);
    expect(n.read(counter, "get")).toBe(3n);
    // arguments that are not a canonical CBOR array, and a missing handler: reverted, paid
    const bad = signed(
      keyB,
      { kind: "call", to: counter, handler: "increment", args: Uint8Array.of(0xff), value: 0n },
      { nonce: n.nonce(keyB), cyclesLimit: 2_000_000n, cellsLimit: 100_000n, ...FEES },
    );
    const rb = n.block([bad]).receipts[0] as ExecutionReceipt;
    expect(rb.status).toBe("reverted");
    expect(rb.feePaid).toBeGreaterThan(0n);
    const missing = n.call(keyB, counter, "nope", []);
    expect(missing.status).toBe("reverted");
    expect(missing.error).toMatch(/^ERR_EXEC_HANDLER/);
    expect(n.read(counter, "get")).toBe(3n);
    n.h.close();
  });

  it("delivers a Python send with value in the same transaction, and a raising handler reverts it", () => {
    const n = new Node();
    const counter = n.deploy(COUNTER);
    const pinger = n.deploy(PINGER, 100n);
    const r = n.call(keyB, pinger, "ping", [counter]);
    expect(r.error).toBeNull();
    expect(r.events).toHaveLength(1);
    expect(n.read(counter, "get")).toBe(5n);
    expect(n.h.chain.getAccount(counter)?.balance).toBe(3n);
    expect(n.h.chain.getAccount(pinger)?.balance).toBe(97n);
    const f = n.call(keyB, pinger, "ping_and_fail", [counter]);
    expect(f.status).toBe("reverted");
    expect(f.error).toMatch(/ValueError/);
    expect(n.read(counter, "get")).toBe(5n);
    n.h.close();
  });

  it("fires a Python set_timer at its height, paid by the actor", () => {
    const n = new Node();
    const pinger = n.deploy(PINGER, 20n * UNITS_PER_CBY);
    const at = n.h.chain.head.height + 3n;
    const r = n.call(keyB, pinger, "arm", [at]);
    expect(r.error).toBeNull();
    const fires: ExecutionReceipt[][] = [];
    while (n.h.chain.head.height < at) fires.push(n.block().receipts.filter((x) => x.kind === "timer"));
    expect(fires.map((f) => f.length)).toEqual([0, 1]);
    const fire = fires[1]?.[0] as ExecutionReceipt;
    expect(fire.error).toBeNull();
    expect(n.read(pinger, "fired")).toBe(7n);
    expect(n.h.chain.getAccount(pinger)?.balance).toBe(20n * UNITS_PER_CBY - fire.feePaid);
    n.h.close();
  });
});
