/**
 * `Chain.preverify`: a batch's signatures verified at once (the addon's libuv pool, or the
 * chain's `verifyBatch`) feed the verified-signature cache, so `checkTx` of the same bytes does
 * not verify again — and decides exactly as it would have without it.
 */
import { describe, expect, it } from "vitest";
import { addrA, addrB, addrC, CHAIN_ID, keyA, keyB, transfer } from "../../test/stf-helpers.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { Chain, sdkVerifyBatch } from "./chain.ts";
import type { StfError } from "./errors.ts";
import { MemoryState } from "./memory-state.ts";

const genesis = {
  chainId: CHAIN_ID,
  timestampMs: 1_700_000_000_000n,
  accounts: [
    { address: addrA, balance: 1_000n * UNITS_PER_CBY },
    { address: addrB, balance: 50n * UNITS_PER_CBY },
  ],
};

/** `bytes` with one bit flipped inside the primary signature. */
function forge(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[out.length - 10] = (out[out.length - 10] as number) ^ 1;
  return out;
}

const code = (f: () => unknown): string => {
  try {
    f();
    return "ok";
  } catch (e) {
    return (e as StfError).code ?? String(e);
  }
};

describe("Chain.preverify", () => {
  it("feeds the cache: checkTx does not verify a preverified transaction again", async () => {
    const verified: number[] = [];
    const chain = Chain.create({
      state: new MemoryState(),
      genesis,
      verifyBatch: (txs) => {
        verified.push(txs.length);
        return sdkVerifyBatch(txs);
      },
    });
    const txs = [
      transfer(keyA, addrC, 1n, { nonce: 0n }),
      transfer(keyA, addrC, 2n, { nonce: 1n }),
      transfer(keyB, addrC, 3n, { nonce: 0n }),
    ];
    await chain.preverify(txs);
    expect(verified).toEqual([3]);
    for (const t of txs) chain.checkTx(t, { futureNonce: true });
    expect(verified).toEqual([3]);
    // known already: a second preverify has nothing to do
    await chain.preverify(txs);
    expect(verified).toEqual([3]);
  });

  it("decides nothing: checkTx gives the same answers with or without it (addon verifier)", async () => {
    const good = transfer(keyA, addrC, 1n, { nonce: 0n });
    const future = transfer(keyB, addrC, 1n, { nonce: 5n });
    const forged = forge(transfer(keyA, addrC, 9n, { nonce: 1n }));
    const garbage = Uint8Array.from([1, 2, 3]);
    const list = [good, future, forged, garbage];
    const plain = Chain.create({ state: new MemoryState(), genesis });
    const pre = Chain.create({ state: new MemoryState(), genesis });
    await pre.preverify(list);
    for (const opts of [{ futureNonce: true }, {}]) {
      const a = list.map((t) => code(() => plain.checkTx(t, opts)));
      const b = list.map((t) => code(() => pre.checkTx(t, opts)));
      expect(b).toEqual(a);
    }
    expect(code(() => pre.checkTx(forged, { futureNonce: true }))).toBe("ERR_TX_SIGNATURE");
    expect(code(() => pre.checkTx(garbage))).toBe("ERR_TX_DECODE");
    expect(pre.checkTx(good).hash).toEqual(plain.checkTx(good).hash);
  });
});
