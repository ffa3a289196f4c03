/**
 * Admission fast paths of `Chain`: future nonces accepted for a pool, checked transactions
 * carried into `buildBlock` without a second decode or signature check, and the per-head
 * caches (parameters, basefees, head hash) following every new head.
 */
import { blockHash, decodeTransaction } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import { addrA, addrB, addrC, CHAIN_ID, keyA, keyB, PROPOSER, transfer } from "../../test/stf-helpers.ts";
import { encodeParamRecord, GOV_KEYS, readParams } from "../genesis/genesis.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { Chain, sdkVerifyBatch } from "./chain.ts";
import type { StfError } from "./errors.ts";
import { MemoryState } from "./memory-state.ts";
import { governanceKey } from "./state-keys.ts";

const CBY = UNITS_PER_CBY;
const genesis = {
  chainId: CHAIN_ID,
  timestampMs: 1_700_000_000_000n,
  accounts: [
    { address: addrA, balance: 1_000n * CBY },
    { address: addrB, balance: 50n * CBY },
  ],
};

function counted() {
  const calls = { n: 0 };
  const chain = Chain.create({
    state: new MemoryState(),
    genesis,
    verifyBatch: (txs) => {
      calls.n += txs.length;
      return sdkVerifyBatch(txs);
    },
  });
  return { chain, calls };
}

const code = (f: () => unknown): string => {
  try {
    f();
    return "no error";
  } catch (e) {
    return (e as StfError).code ?? String(e);
  }
};

describe("Chain.checkTx with futureNonce", () => {
  it("accepts a nonce ahead of the account's, still refuses a used nonce and an unpayable one", () => {
    const { chain } = counted();
    const ahead = transfer(keyA, addrC, 1n, { nonce: 3n });
    expect(code(() => chain.checkTx(ahead))).toBe("ERR_TX_NONCE");
    const ok = chain.checkTx(ahead, { futureNonce: true });
    expect(ok.tx.nonce).toBe(3n);
    expect(ok.senderNonce).toBe(0n);
    // B holds 50 CBY: the balance check still runs for a future nonce
    expect(
      code(() => chain.checkTx(transfer(keyB, addrC, 50n * CBY, { nonce: 2n }), { futureNonce: true })),
    ).toBe("ERR_TX_BALANCE");
    // and every check before the nonce too
    expect(
      code(() =>
        chain.checkTx(transfer(keyA, addrC, 1n, { nonce: 5n, maxFeePerCycle: 1n }), { futureNonce: true }),
      ),
    ).toBe("ERR_TX_FEE_BELOW_BASEFEE");
    chain.buildBlock([transfer(keyA, addrC, 1n, { nonce: 0n })], {
      timestampMs: genesis.timestampMs + 1n,
      proposer: PROPOSER,
    });
    // nonce 0 is used now: too low, with or without futureNonce
    const stale = transfer(keyA, addrC, 2n, { nonce: 0n });
    expect(code(() => chain.checkTx(stale, { futureNonce: true }))).toBe("ERR_TX_NONCE");
    expect(chain.checkTx(transfer(keyA, addrC, 2n, { nonce: 1n })).senderNonce).toBe(1n);
  });
});

describe("buildBlock with checked transactions", () => {
  it("builds the same block from checkTx results as from bytes, verifying each signature once", () => {
    const txs = [
      transfer(keyA, addrC, 1n, { nonce: 0n }),
      transfer(keyB, addrC, 2n, { nonce: 0n }),
      transfer(keyA, addrC, 3n, { nonce: 1n }),
    ];
    const fromBytes = counted();
    const a = fromBytes.chain.buildBlock(txs, { timestampMs: genesis.timestampMs + 1n, proposer: PROPOSER });
    const fromChecked = counted();
    const checked = txs.map((b) => fromChecked.chain.checkTx(b, { futureNonce: true }));
    expect(fromChecked.calls.n).toBe(3);
    const b = fromChecked.chain.buildBlock(checked, {
      timestampMs: genesis.timestampMs + 1n,
      proposer: PROPOSER,
    });
    expect(fromChecked.calls.n).toBe(3); // no second verification
    expect(b.hash).toEqual(a.hash);
    expect(b.block.header.stateRoot).toEqual(a.block.header.stateRoot);
    expect(b.receipts).toEqual(a.receipts);
    // and a replica accepts it
    const replica = counted().chain;
    replica.applyBlock(b.block);
    expect(replica.headHash).toEqual(fromChecked.chain.headHash);
  });

  it("treats a pair it did not check as untrusted bytes (decoded and verified again)", () => {
    const { chain, calls } = counted();
    const good = transfer(keyA, addrC, 1n, { nonce: 0n });
    const forged = transfer(keyB, addrC, 1n, { nonce: 0n });
    forged[forged.length - 10] = (forged[forged.length - 10] as number) ^ 1; // inside the signature
    // a decoded object paired with bytes it was not checked with
    const checked = chain.checkTx(good);
    const mismatched = { tx: checked.tx, bytes: forged };
    const foreign = { tx: decodeTransaction(good), bytes: Uint8Array.from(good) };
    const before = calls.n;
    const r = chain.buildBlock([mismatched, foreign], {
      timestampMs: genesis.timestampMs + 1n,
      proposer: PROPOSER,
    });
    expect(r.skipped.map((s) => s.error.code)).toEqual(["ERR_TX_SIGNATURE"]);
    expect(r.block.transactions).toHaveLength(1);
    expect(r.block.transactions[0]?.from).toEqual(addrA);
    // the forged bytes were verified (and failed); the copy of `good` was found in the cache
    expect(calls.n).toBe(before + 1);
  });
});

describe("per-head caches", () => {
  it("follow every new head: head hash, basefees and the admission state", () => {
    const { chain } = counted();
    const g = chain.head;
    expect(chain.headHash).toEqual(blockHash(g));
    const fees0 = chain.nextBasefees();
    expect(chain.nextBasefees()).toBe(fees0);
    expect(Object.isFrozen(fees0)).toBe(true);
    // a new head: everything derived from the head is computed again
    const r = chain.buildBlock(
      Array.from({ length: 3 }, (_, i) =>
        transfer(keyA, addrC, 1n, { nonce: BigInt(i), cyclesLimit: 21_000n }),
      ),
      { timestampMs: genesis.timestampMs + 1n, proposer: PROPOSER },
    );
    expect(chain.head).toBe(r.block.header);
    expect(chain.headHash).toEqual(blockHash(r.block.header));
    expect(chain.headHash).toEqual(r.hash);
    const fees1 = chain.nextBasefees();
    expect(fees1).not.toBe(fees0);
    // the admission check sees the new state: A's nonce is 3 now
    expect(code(() => chain.checkTx(transfer(keyA, addrC, 1n, { nonce: 2n })))).toBe("ERR_TX_NONCE");
    expect(chain.checkTx(transfer(keyA, addrC, 1n, { nonce: 3n })).senderNonce).toBe(3n);
  });
});

describe("governance parameters", () => {
  it("are read again for every head: a changed record takes effect, unchanged ones are reused", () => {
    const state = new MemoryState();
    const chain = Chain.create({ state, genesis, verifyBatch: sdkVerifyBatch });
    const p0 = chain.params();
    chain.buildBlock([], { timestampMs: genesis.timestampMs + 1n, proposer: PROPOSER });
    // same records in the new head's state: the decoded parameters are reused
    expect(chain.params()).toBe(p0);
    // a governance write committed with the next block changes them from that head on
    const budgets = { ...p0.laneBudget, user: p0.laneBudget.user - 1_000n };
    state.put(governanceKey(GOV_KEYS.laneBudgets), encodeParamRecord(budgets));
    expect(chain.params()).toBe(p0); // not yet: the head has not moved
    chain.buildBlock([], { timestampMs: genesis.timestampMs + 2n, proposer: PROPOSER });
    const p2 = chain.params();
    expect(p2).not.toBe(p0);
    expect(p2.laneBudget).toEqual(budgets);
    expect(p2).toEqual(readParams(state));
    expect(chain.txLaneBudgets().user).toBe(budgets.user);
  });
});
