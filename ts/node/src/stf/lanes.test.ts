/**
 * Execution order across lanes (chain.ts `executionOrder`): the System lane runs before the
 * User lane, but a sender's transactions always run in nonce order, so a registration with a
 * higher nonce than the same sender's transfer in one block no longer fails its nonce check.
 */
import { createRequire } from "node:module";
import { addressFromSecretKey, decodeTransaction, type Transaction } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import {
  addrA,
  addrB,
  addrC,
  CHAIN_ID,
  FEES,
  keyA,
  keyC,
  PROPOSER,
  scriptedExecutor,
  signed,
} from "../../test/stf-helpers.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { Chain, executionOrder, laneOf } from "./chain.ts";
import { MemoryState } from "./memory-state.ts";

type NativeBls = {
  blsKeygen(ikm: Buffer): Buffer;
  blsPublicKey(sk: Buffer): Buffer;
  blsProofOfPossession(sk: Buffer, chainId: bigint): Buffer;
};
const bls = createRequire(import.meta.url)("@cowboy/native") as NativeBls;
const CBY = UNITS_PER_CBY;
const T0 = 1_700_000_000_000n;

function blsKey(n: number) {
  const sk = bls.blsKeygen(Buffer.alloc(32, n));
  return {
    pk: new Uint8Array(bls.blsPublicKey(sk)),
    pop: new Uint8Array(bls.blsProofOfPossession(sk, CHAIN_ID)),
  };
}

function chainWith(): { chain: Chain; state: MemoryState } {
  const state = new MemoryState();
  const blsA = blsKey(1);
  const chain = Chain.create({
    state,
    genesis: {
      chainId: CHAIN_ID,
      timestampMs: T0,
      accounts: [addrA, addrC].map((address) => ({ address, balance: 1_000n * CBY })),
      validators: [
        {
          address: addressFromSecretKey(keyA),
          blsKey: blsA.pk,
          stake: 100n * CBY,
          proofOfPossession: blsA.pop,
        },
      ],
      validatorParams: {
        minStake: 100n * CBY,
        epochBlocks: 4,
        unbondingBlocks: 6,
        jailBlocks: 5,
        slashBps: 100,
        downtimeWindow: 4,
        downtimeMaxMissed: 2,
        keepEpochs: 10,
      },
    },
    executor: scriptedExecutor(state),
  });
  return { chain, state };
}

const tx = (nonce: bigint, kind: "transfer" | "register", b = blsKey(3)) =>
  signed(
    keyC,
    kind === "transfer"
      ? { kind: "transfer", to: addrB, amount: 5n }
      : { kind: "registerValidator", blsKey: b.pk, proofOfPossession: b.pop, stake: 200n * CBY },
    { nonce, cyclesLimit: 21_000n, cellsLimit: 0n, ...FEES },
  );

const item = (raw: Uint8Array, hashByte: number): { tx: Transaction; hash: Uint8Array } => ({
  tx: decodeTransaction(raw),
  hash: new Uint8Array(32).fill(hashByte),
});

describe("execution order across lanes", () => {
  it("a sender's System-lane transaction with the higher nonce runs after its User-lane one", () => {
    const reg = item(tx(1n, "register"), 1);
    const transfer = item(tx(0n, "transfer"), 2);
    expect(laneOf(reg.tx)).toBe("system");
    expect(laneOf(transfer.tx)).toBe("user");
    const order = executionOrder([reg, transfer], new Uint8Array(32).fill(7), 5n);
    expect(order.map((i) => i.tx.nonce)).toEqual([0n, 1n]);
    // a lower-nonce System transaction still runs first
    const reg0 = item(tx(0n, "register"), 3);
    const transfer1 = item(tx(1n, "transfer"), 4);
    const order2 = executionOrder([transfer1, reg0], new Uint8Array(32).fill(7), 5n);
    expect(order2.map((i) => laneOf(i.tx))).toEqual(["system", "user"]);
  });

  it("other senders keep the lane order, and the result is the same for any input order", () => {
    const other = (nonce: bigint, hashByte: number) =>
      item(
        signed(keyA, { kind: "exitValidator" }, { nonce, cyclesLimit: 21_000n, cellsLimit: 0n, ...FEES }),
        hashByte,
      );
    const items = [
      item(tx(2n, "register"), 10),
      item(tx(0n, "transfer"), 11),
      item(tx(1n, "transfer"), 12),
      other(0n, 13),
    ];
    const beacon = new Uint8Array(32).fill(9);
    const a = executionOrder(items, beacon, 8n);
    const b = executionOrder([...items].reverse(), beacon, 8n);
    expect(a).toEqual(b);
    const fromC = a.filter((i) => Buffer.from(i.tx.from).equals(Buffer.from(addrC)));
    expect(fromC.map((i) => i.tx.nonce)).toEqual([0n, 1n, 2n]);
    // the System lane's two slots come first: A's exit and C's lowest nonce
    expect(a.slice(0, 2).some((i) => Buffer.from(i.tx.from).equals(Buffer.from(addrA)))).toBe(true);
    expect(a.length).toBe(4);
  });

  it("a block with a registration (nonce 1) and a transfer (nonce 0) of one sender executes both", () => {
    const { chain } = chainWith();
    const r = chain.buildBlock([tx(1n, "register"), tx(0n, "transfer")], {
      timestampMs: T0 + 1000n,
      proposer: PROPOSER,
    });
    expect(r.skipped).toEqual([]);
    expect(r.receipts.filter((x) => x.kind === "tx").map((x) => x.status)).toEqual(["success", "success"]);
    expect(r.block.transactions.length).toBe(2);
    // a node re-executing the block accepts the order
    const { chain: replica } = chainWith();
    expect(() => replica.applyBlock(r.block)).not.toThrow();
  });
});
