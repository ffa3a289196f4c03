/**
 * Determinism with the real runtime: a seeded workload of transfers, deploys of Python actors,
 * calls with nested sends, and timers (PVM through the addon, qmdb store) built twice from
 * genesis on fresh stores, then re-applied on a third: identical receipts and blake3 state
 * roots at every height.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addressFromSecretKey,
  type Block,
  canonicalizeSource,
  encodeCbor,
  encodeReceipt,
  toHex,
} from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type ChainHandle, openChain, UNITS_PER_CBY } from "../src/index.ts";
import { CHAIN_ID, PROPOSER, secretKey, signed } from "./stf-helpers.ts";

const KEYS = Array.from({ length: 6 }, (_, i) => secretKey(200 + i));
const ADDRS = KEYS.map((k) => addressFromSecretKey(k));
const FEES = { maxFeePerCycle: 11_000n, maxFeePerCell: 11_000n, tipCycle: 5n, tipCell: 1n };
const SOURCE = (n: number) =>
  canonicalizeSource(`from cowboy_sdk import actor, send, emit, set_timer

@actor
class Node${n}:
    def __init__(self):
        self.storage["n"] = 0

    def bump(self, by: int) -> int:
        self.storage["n"] += by
        emit("bumped", self.storage["n"])
        return self.storage["n"]

    def relay(self, target: bytes, by: int) -> None:
        send(target, "bump", by, value=1)

    def later(self, at: int) -> bytes:
        return set_timer(at, "bump", 3)

    def boom(self) -> None:
        self.storage["n"] = -1
        raise RuntimeError("boom")
`);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function open(): ChainHandle {
  const d = mkdtempSync(join(tmpdir(), "cowboy-det-pvm-"));
  dirs.push(d);
  return openChain(d, {
    chainId: CHAIN_ID,
    timestampMs: 1_700_000_000_000n,
    accounts: ADDRS.map((address) => ({ address, balance: 1_000n * UNITS_PER_CBY })),
  });
}

function run(seed: number, blocks: number, perBlock: number) {
  const h = open();
  const chain = h.chain;
  let x = seed;
  const rand = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  const actors: Uint8Array[] = [];
  const roots: string[] = [];
  const receipts: string[] = [];
  const built: Block[] = [];
  const kinds = new Set<string>();
  for (let b = 1; b <= blocks; b++) {
    const nonces = ADDRS.map((a) => chain.getAccount(a)?.nonce ?? 0n);
    const txs: Uint8Array[] = [];
    for (let i = 0; i < perBlock; i++) {
      const k = rand() % KEYS.length;
      const opts = { nonce: nonces[k] as bigint, ...FEES };
      nonces[k] = (nonces[k] as bigint) + 1n;
      const key = KEYS[k] as Uint8Array;
      const r = rand() % 10;
      if (actors.length < 3 && (r === 0 || actors.length === 0)) {
        const salt = new Uint8Array(32);
        salt[0] = b;
        salt[1] = i;
        txs.push(
          signed(
            key,
            {
              kind: "deploy",
              source: SOURCE(actors.length + b),
              salt,
              initArgs: new Uint8Array(0),
              value: 100n * UNITS_PER_CBY,
            },
            { ...opts, cyclesLimit: 2_000_000n, cellsLimit: 20_000n },
          ),
        );
      } else if (r < 4 || actors.length === 0) {
        txs.push(
          signed(
            key,
            {
              kind: "transfer",
              to: ADDRS[rand() % ADDRS.length] as Uint8Array,
              amount: BigInt(rand() % 1000),
            },
            opts,
          ),
        );
      } else {
        const to = actors[rand() % actors.length] as Uint8Array;
        const target = actors[rand() % actors.length] as Uint8Array;
        const m = rand() % 4;
        const call =
          m === 0
            ? { handler: "bump", args: encodeCbor([BigInt(rand() % 9)]) }
            : m === 1
              ? { handler: "relay", args: encodeCbor([target, 2n]) }
              : m === 2
                ? { handler: "later", args: encodeCbor([chain.head.height + 2n + BigInt(rand() % 2)]) }
                : { handler: "boom", args: encodeCbor([]) };
        txs.push(
          signed(
            key,
            { kind: "call", to, ...call, value: 0n },
            { ...opts, cyclesLimit: 300_000n, cellsLimit: 5_000n },
          ),
        );
      }
    }
    const res = chain.buildBlock(txs, {
      timestampMs: 1_700_000_000_000n + BigInt(b) * 1000n,
      proposer: PROPOSER,
    });
    for (const rc of res.receipts) {
      kinds.add(`${rc.kind}:${rc.status}`);
      if (rc.contractAddress !== null) actors.push(rc.contractAddress);
    }
    roots.push(toHex(res.block.header.stateRoot));
    receipts.push(res.receipts.map((rc) => toHex(encodeReceipt(rc))).join(","));
    built.push(res.block);
  }
  h.close();
  return { roots, receipts, built, kinds };
}

describe("determinism with the PVM", () => {
  it("builds the same chain twice and re-applies it to identical receipts and roots", () => {
    const a = run(424242, 10, 25);
    const b = run(424242, 10, 25);
    expect(b.roots).toEqual(a.roots);
    expect(b.receipts).toEqual(a.receipts);
    for (const k of ["tx:success", "tx:reverted", "timer:success"]) expect(a.kinds).toContain(k);
    const replica = open();
    for (const [i, blk] of a.built.entries()) {
      const r = replica.chain.applyBlock(blk);
      expect(toHex(r.block.header.stateRoot)).toBe(a.roots[i]);
      expect(r.receipts.map((rc) => toHex(encodeReceipt(rc))).join(",")).toBe(a.receipts[i]);
    }
    replica.close();
  }, 120_000);
});
