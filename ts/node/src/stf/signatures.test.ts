/**
 * Signature checks running beside the execution (the addon's `txVerifyStart`): blocks built
 * and applied that way must equal what checking every signature first gives — the same block,
 * receipts, roots and skipped list — and a received block with one bad signature is refused
 * whatever else is wrong with it. `Chain.preverify`: a batch's signatures verified at once (the
 * addon's libuv pool, or the chain's `verifyBatch`) feed the verified-signature cache, so
 * `checkTx` of the same bytes does not verify again — and decides exactly as it would have
 * without it. Also the packed hashing helpers against the per-item ones.
 */
import { createRequire } from "node:module";
import {
  type Block,
  decodeTransaction,
  encodeReceipt,
  encodeTransaction,
  keccak256,
  merkleRoot,
  type Receipt,
  receiptHash,
  type Transaction,
  toHex,
} from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import { addrA, addrB, addrC, CHAIN_ID, keyA, keyB, PROPOSER, transfer } from "../../test/stf-helpers.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { Chain, executionBeacon, executionOrder, sdkVerifyBatch } from "./chain.ts";
import type { StfError } from "./errors.ts";
import { decodeTx, keccakMerkle, keccakStrided, merklePacked, packItems, receiptsRootOf } from "./hash.ts";
import { MemoryState } from "./memory-state.ts";

const CBY = UNITS_PER_CBY;
const genesis = {
  chainId: CHAIN_ID,
  timestampMs: 1_700_000_000_000n,
  accounts: [
    { address: addrA, balance: 1_000n * CBY },
    { address: addrB, balance: 50n * CBY },
  ],
};

/** A chain with the addon's verifier (background checks) or the pure-TS one (checked first). */
function chainWith(verifier: "addon" | "first"): Chain {
  return Chain.create({
    state: new MemoryState(),
    genesis,
    ...(verifier === "first" ? { verifyBatch: sdkVerifyBatch } : {}),
  });
}

/** `bytes` with one bit flipped inside the primary signature (the digest is unchanged). */
function forge(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[out.length - 10] = (out[out.length - 10] as number) ^ 1;
  return out;
}

const code = (f: () => unknown): string => {
  try {
    f();
    return "no error";
  } catch (e) {
    return (e as StfError).code ?? String(e);
  }
};

const view = (r: { skipped: { hash: Uint8Array; error: { code: string } }[] }) =>
  r.skipped.map((s) => `${toHex(s.hash)}:${s.error.code}`);

describe("signature checks beside the execution", () => {
  it("the addon can start checks in the background", () => {
    const native = createRequire(import.meta.url)("@cowboy/native") as { txVerifyStart?: unknown };
    expect(typeof native.txVerifyStart).toBe("function");
  });

  it("builds exactly the block that checking signatures first builds, bad signatures included", () => {
    const goodA0 = transfer(keyA, addrC, 2n, { nonce: 0n });
    const goodA1 = transfer(keyA, addrC, 3n, { nonce: 1n });
    const goodB0 = transfer(keyB, addrC, 4n, { nonce: 0n });
    // same sender and nonce as a good one: whichever runs first makes the other fail its nonce
    const forgedA0 = forge(transfer(keyA, addrC, 1n, { nonce: 0n }));
    const forgedB1 = forge(transfer(keyB, addrC, 5n, { nonce: 1n }));
    const sets: Uint8Array[][] = [
      [forgedA0, goodA0, goodA1, goodB0],
      [goodA0, forgedA0, goodB0, forgedB1, goodA1],
      [forgedB1, goodB0, forgedA0, goodA1, goodA0, Uint8Array.of(1, 2, 3)],
      [goodA0, goodA1, goodB0],
    ];
    let forgedRanFirst = 0;
    for (const txs of sets) {
      const bg = chainWith("addon");
      // does the forged A0 run before the good one (so the first, optimistic attempt executes it
      // and refuses the good one for its nonce)? at least one set must exercise that
      if (txs.includes(forgedA0) && txs.includes(goodA0)) {
        const d = [forgedA0, goodA0].map((b) => ({ ...decodeTx(b), bytes: b }));
        const order = executionOrder(d, executionBeacon(new Uint8Array(0), bg.headHash), 1n);
        if (order[0]?.bytes === forgedA0) forgedRanFirst += 1;
      }
      const first = chainWith("first");
      const opts = { timestampMs: genesis.timestampMs + 1000n, proposer: PROPOSER };
      const a = bg.buildBlock(txs, opts);
      const b = first.buildBlock(txs, opts);
      expect(view(a)).toEqual(view(b));
      expect(a.block).toEqual(b.block);
      expect(a.receipts).toEqual(b.receipts);
      expect(a.hash).toEqual(b.hash);
      expect(bg.head.stateRoot).toEqual(first.head.stateRoot);
      // a forged encoding never lands in a block, and every one offered is reported
      const forgedOffered = txs.filter((t) => t === forgedA0 || t === forgedB1).length;
      expect(a.skipped.filter((s) => s.error.code === "ERR_TX_SIGNATURE")).toHaveLength(forgedOffered);
    }
    expect(forgedRanFirst).toBeGreaterThan(0);
  });

  it("refuses a received block with a bad signature, before any other fault, and stays put", () => {
    const builder = chainWith("addon");
    const txs = [
      transfer(keyA, addrC, 2n, { nonce: 0n }),
      transfer(keyB, addrC, 4n, { nonce: 0n }),
      transfer(keyA, addrC, 3n, { nonce: 1n }),
    ];
    const built = builder.buildBlock(txs, { timestampMs: genesis.timestampMs + 1000n, proposer: PROPOSER });
    const block = built.block;
    expect(block.transactions).toHaveLength(3);
    const replica = chainWith("addon");
    const root0 = replica.head.stateRoot;
    // the second transaction of the block re-signed wrongly: same digest, so the tx root holds
    const bad = decodeTransaction(forge(encodeTransaction(block.transactions[1] as Transaction)));
    const forgedBlock: Block = {
      header: block.header,
      transactions: block.transactions.map((t, i) => (i === 1 ? bad : t)),
    };
    let err: StfError | null = null;
    try {
      replica.applyBlock(forgedBlock);
    } catch (e) {
      err = e as StfError;
    }
    expect(err?.code).toBe("ERR_BLOCK_INVALID_TX");
    expect((err?.data as { index?: number } | undefined)?.index).toBe(1);
    expect(replica.head.height).toBe(0n);
    expect(replica.head.stateRoot).toEqual(root0);
    // also wrong receipts root: the signature is what is reported
    const worse: Block = {
      ...forgedBlock,
      header: { ...block.header, receiptsRoot: new Uint8Array(32).fill(7) },
    };
    expect(code(() => replica.applyBlock(worse))).toBe("ERR_BLOCK_INVALID_TX");
    // only the receipts root wrong: that is reported
    expect(code(() => replica.applyBlock({ ...block, header: worse.header }))).toBe(
      "ERR_BLOCK_RECEIPTS_ROOT",
    );
    expect(replica.head.height).toBe(0n);
    // and the genuine block applies, to the builder's root
    replica.applyBlock(block);
    expect(replica.head.stateRoot).toEqual(builder.head.stateRoot);
    expect(replica.getAccount(addrC)?.balance).toBe(9n);
  });
});

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
    const plain = chainWith("addon");
    const pre = chainWith("addon");
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

describe("packed hashing helpers", () => {
  const items = Array.from({ length: 37 }, (_, i) => {
    const b = new Uint8Array(1 + ((i * 29) % 90));
    for (let j = 0; j < b.length; j++) b[j] = (i * 7 + j * 13) & 0xff;
    return b;
  });

  it("equal the per-item keccak and Merkle roots", () => {
    const fixed = items.map((b) => {
      const x = new Uint8Array(72);
      x.set(b.subarray(0, 72));
      return x;
    });
    const k = keccakStrided(packItems(fixed).data, 72);
    expect(k.length).toBe(37 * 32);
    fixed.forEach((x, i) => {
      expect(k.subarray(i * 32, i * 32 + 32)).toEqual(keccak256(x));
    });
    const leaves = items.map((b) => keccak256(b));
    expect(merklePacked(packItems(leaves).data)).toEqual(merkleRoot(leaves));
    expect(keccakMerkle(items)).toEqual(merkleRoot(leaves));
    for (const n of [0, 1, 2, 3, 5]) {
      expect(merklePacked(packItems(leaves.slice(0, n)).data)).toEqual(merkleRoot(leaves.slice(0, n)));
      expect(keccakMerkle(items.slice(0, n))).toEqual(merkleRoot(leaves.slice(0, n)));
    }
    expect(() => keccakStrided(new Uint8Array(10), 3)).toThrow(RangeError);
    expect(() => merklePacked(new Uint8Array(33))).toThrow(RangeError);
  });

  it("the receipts root in one call equals the Merkle root of the receipt hashes", () => {
    const r = chainWith("addon").buildBlock(
      [transfer(keyA, addrC, 2n, { nonce: 0n }), transfer(keyB, addrC, 4n, { nonce: 0n })],
      { timestampMs: genesis.timestampMs + 1000n, proposer: PROPOSER },
    );
    const receipts = r.receipts as unknown as Receipt[];
    expect(receiptsRootOf(receipts)).toEqual(merkleRoot(receipts.map((x) => receiptHash(x))));
    expect(receiptsRootOf(receipts)).toEqual(merkleRoot(receipts.map((x) => keccak256(encodeReceipt(x)))));
    expect(r.block.header.receiptsRoot).toEqual(receiptsRootOf(receipts));
  });

  it("decodeTx keys an encoding by its digest and signatures", () => {
    const t = transfer(keyA, addrC, 2n, { nonce: 0n });
    const a = decodeTx(t);
    const b = decodeTx(Uint8Array.from(t));
    const f = decodeTx(forge(t));
    expect(a.sigKey).toBe(b.sigKey);
    expect(f.hash).toEqual(a.hash);
    expect(f.sigKey).not.toBe(a.sigKey);
    expect(a.sigKey.length).toBe(32 + 65);
  });
});
