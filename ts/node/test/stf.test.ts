import {
  type Block,
  blockHash,
  decodeBlock,
  decodeTransaction,
  encodeBlock,
  merkleRoot,
  receiptHash,
  signingHash,
} from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import {
  blockReward,
  Chain,
  DEFAULT_PARAMS,
  executionBeacon,
  executionOrder,
  GOV_KEYS,
  governanceKey,
  MemoryState,
  MIN_BASEFEE,
  nextBasefee,
  readParams,
  type StfError,
  SYSTEM_ACTORS,
  sdkVerifyBatch,
  systemAddress,
  UNITS_PER_CBY,
} from "../src/index.ts";
import { addrA, addrB, addrC, CHAIN_ID, keyA, keyB, PROPOSER, transfer } from "./stf-helpers.ts";

const CBY = UNITS_PER_CBY;
const genesis = {
  chainId: CHAIN_ID,
  timestampMs: 1_700_000_000_000n,
  accounts: [
    { address: addrA, balance: 1_000n * CBY },
    { address: addrB, balance: 50n * CBY },
  ],
};

function fresh(params = DEFAULT_PARAMS, g = genesis) {
  return Chain.create({ state: new MemoryState(), genesis: g, params });
}

const code = (f: () => unknown): string => {
  try {
    f();
    return "no error";
  } catch (e) {
    return (e as StfError).code ?? String(e);
  }
};

describe("genesis", () => {
  it("funds accounts, records system actors and §13.1 parameters, and is deterministic", () => {
    const a = fresh();
    const b = fresh();
    expect(a.head.height).toBe(0n);
    expect(a.head.stateRoot).toEqual(b.head.stateRoot);
    expect(a.headHash).toEqual(b.headHash);
    expect(a.getAccount(addrA)?.balance).toBe(1_000n * CBY);
    expect(a.getAccount(addrC)).toBeNull();
    for (const sa of SYSTEM_ACTORS) expect(a.getAccount(systemAddress(sa.id))).not.toBeNull();
    expect(a.params()).toEqual(DEFAULT_PARAMS);
    expect(a.head.cycleBasefee).toBe(MIN_BASEFEE);
    const other = Chain.create({
      state: new MemoryState(),
      genesis: { ...genesis, accounts: genesis.accounts.slice(0, 1) },
    });
    expect(other.head.stateRoot).not.toEqual(a.head.stateRoot);
  });

  it("stores parameters under the §13.1 names as canonical CBOR that governance can change", () => {
    const state = new MemoryState();
    Chain.create({ state, genesis });
    expect(state.get(governanceKey("system:basefee_config"))).toBeDefined();
    expect(state.get(governanceKey(GOV_KEYS.timer))).toBeDefined();
    expect(state.get(governanceKey("system:cip2:slash_distribution"))).toBeDefined();
    expect(readParams(state).basefee.cyclesTarget).toBe(20_000_000n);
  });

  it("refuses a bad genesis and a resumed state without a matching head", () => {
    expect(code(() => fresh(DEFAULT_PARAMS, { ...genesis, chainId: 1n << 40n }))).toBe("ERR_CHAIN_GENESIS");
    const state = new MemoryState();
    const c = Chain.create({ state, genesis });
    expect(code(() => Chain.create({ state, genesis }))).toBe("ERR_CHAIN_HEAD");
    const resumed = Chain.create({ state, genesis, head: c.head });
    expect(resumed.headHash).toEqual(c.headHash);
    expect(
      code(() => Chain.create({ state, genesis, head: { ...c.head, stateRoot: new Uint8Array(32) } })),
    ).toBe("ERR_CHAIN_HEAD");
  });
});

describe("transfers and fees (§2.3, §8.2)", () => {
  it("charges exactly, burns the basefee, pays tip and reward to the proposer", () => {
    const c = fresh();
    const tx = transfer(keyA, addrC, 5n * CBY, { nonce: 0n, cyclesLimit: 30_000n, cellsLimit: 10n });
    const { block, receipts, skipped, reward } = c.buildBlock([tx], {
      timestampMs: genesis.timestampMs + 1000n,
      proposer: PROPOSER,
    });
    expect(skipped).toEqual([]);
    expect(block.header.height).toBe(1n);
    expect(receipts).toHaveLength(1);
    const r = receipts[0];
    // 21,000 cycles × (10,000 + min(1,000, 20,000 − 10,000)); 0 cells
    expect(r?.status).toBe("success");
    expect(r?.cyclesUsed).toBe(21_000n);
    expect(r?.cellsUsed).toBe(0n);
    expect(r?.feePaid).toBe(231_000_000n);
    expect(r?.burned).toBe(210_000_000n);
    expect(r?.tip).toBe(21_000_000n);
    expect(c.getAccount(addrA)?.balance).toBe(1_000n * CBY - 5n * CBY - 231_000_000n);
    expect(c.getAccount(addrA)?.nonce).toBe(1n);
    expect(c.getAccount(addrC)?.balance).toBe(5n * CBY);
    // §8.2 year 1: 8% of 10^9 CBY over 31,536,000 blocks, floored
    expect(reward).toBe(2_536_783_358n);
    expect(blockReward(1n)).toBe(2_536_783_358n);
    expect(blockReward(31_536_001n)).toBe(1_902_587_519n);
    expect(blockReward(5n * 31_536_000n + 1n)).toBe(634_195_839n);
    expect(c.getAccount(PROPOSER)?.balance).toBe(21_000_000n + 2_536_783_358n);
    // header
    expect(block.header.cyclesUsed).toBe(21_000n);
    expect(r?.txHash).toEqual(signingHash(decodeTransaction(tx)));
    expect(block.header.txRoot).toEqual(merkleRoot([r?.txHash as Uint8Array]));
    expect(block.header.receiptsRoot).toEqual(merkleRoot(receipts.map((x) => receiptHash(x))));
    expect(block.header.stateRoot).toEqual(c.head.stateRoot);
    // balances at an older height stay readable
    expect(c.getAccount(addrA, 0n)?.balance).toBe(1_000n * CBY);
  });

  it("rejects invalid transactions with typed errors (§2.2) and skips them when building", () => {
    const c = fresh();
    const ts = genesis.timestampMs + 1000n;
    const cases: [Uint8Array, string][] = [
      [transfer(keyA, addrC, 1n, { nonce: 0n, chainId: 8n }), "ERR_TX_CHAIN_ID"],
      [transfer(keyA, addrC, 1n, { nonce: 3n }), "ERR_TX_NONCE"],
      [transfer(keyB, addrC, 50n * CBY, { nonce: 0n }), "ERR_TX_BALANCE"],
      [transfer(keyA, addrC, 1n, { nonce: 0n, cyclesLimit: 80_000_001n }), "ERR_TX_LIMITS"],
      [transfer(keyA, addrC, 1n, { nonce: 0n, cyclesLimit: 20_999n }), "ERR_TX_INTRINSIC"],
      [transfer(keyA, addrC, 1n, { nonce: 0n, maxFeePerCycle: 9_999n }), "ERR_TX_FEE_BELOW_BASEFEE"],
      [Uint8Array.of(1, 2, 3), "ERR_TX_DECODE"],
    ];
    for (const [bytes, want] of cases) expect(code(() => c.checkTx(bytes))).toBe(want);
    const forged = transfer(keyA, addrC, 1n, { nonce: 0n });
    forged[forged.length - 10] = (forged[forged.length - 10] as number) ^ 1; // inside the signature
    expect(code(() => c.checkTx(forged))).toBe("ERR_TX_SIGNATURE");
    const good = transfer(keyA, addrC, 1n, { nonce: 0n });
    expect(c.checkTx(good).lane).toBe("user");
    const res = c.buildBlock([...cases.map(([b]) => b), forged, good], {
      timestampMs: ts,
      proposer: PROPOSER,
    });
    expect(res.block.transactions).toHaveLength(1);
    expect(res.skipped.map((s) => s.error.code).sort()).toEqual(
      [...cases.map(([, w]) => w), "ERR_TX_SIGNATURE"].sort(),
    );
    expect(c.getAccount(addrC)?.balance).toBe(1n);
  });

  it("drops a sender's later nonces when an earlier one fails, and re-orders the rest", () => {
    const c = fresh();
    // B can pay one transfer of 49 CBY but not the second
    const txs = [
      transfer(keyB, addrC, 49n * CBY, { nonce: 0n }),
      transfer(keyB, addrC, 49n * CBY, { nonce: 1n }),
      transfer(keyA, addrC, 1n, { nonce: 0n }),
      transfer(keyA, addrC, 2n, { nonce: 1n }),
    ];
    const res = c.buildBlock(txs, { timestampMs: genesis.timestampMs + 1n, proposer: PROPOSER });
    expect(res.block.transactions).toHaveLength(3);
    expect(res.skipped.map((s) => s.error.code)).toEqual(["ERR_TX_BALANCE"]);
    const replica = fresh();
    replica.applyBlock(res.block);
    expect(replica.head.stateRoot).toEqual(c.head.stateRoot);
  });
});

describe("signature checks", () => {
  it("verifies each transaction once: admission results are reused by the builder", () => {
    let checked = 0;
    const c = Chain.create({
      state: new MemoryState(),
      genesis,
      verifyBatch: (txs) => {
        checked += txs.length;
        return sdkVerifyBatch(txs);
      },
    });
    const a = transfer(keyA, addrC, 1n, { nonce: 0n });
    const b = transfer(keyA, addrC, 2n, { nonce: 1n });
    c.checkTx(a);
    expect(checked).toBe(1);
    const r = c.buildBlock([a, b], { timestampMs: genesis.timestampMs + 1n, proposer: PROPOSER });
    expect(r.block.transactions).toHaveLength(2);
    expect(checked).toBe(2);
    // a re-signed copy with another signature is checked on its own
    const forged = Uint8Array.from(b);
    forged[forged.length - 10] = (forged[forged.length - 10] as number) ^ 1;
    const r2 = c.buildBlock([forged], { timestampMs: genesis.timestampMs + 2n, proposer: PROPOSER });
    expect(checked).toBe(3);
    expect(r2.skipped.map((x) => x.error.code)).toEqual(["ERR_TX_SIGNATURE"]);
  });
});

describe("lanes (§17.9)", () => {
  it("user transactions fit the User lane plus the System and Runner spill, never the Timer lane", () => {
    const c = fresh();
    expect(c.txLaneBudgets()).toEqual({
      system: 40_000_000n,
      timer: 0n,
      runner: 8_888_888n,
      user: 22_222_222n,
    });
    const big = (nonce: bigint) =>
      transfer(keyA, addrC, 1n, { nonce, cyclesLimit: 20_000_000n, maxFeePerCycle: 10_000n, tipCycle: 0n });
    const txs = [big(0n), big(1n), big(2n), big(3n)];
    const r = c.buildBlock(txs, { timestampMs: genesis.timestampMs + 1n, proposer: PROPOSER });
    // 3 × 20M = 60M ≤ 71,111,110; a fourth would need 80M
    expect(r.block.transactions).toHaveLength(3);
    expect(r.skipped.map((x) => x.error.code)).toEqual(["ERR_BLOCK_LANE_BUDGET"]);
    // a block that declares more than the lanes allow is invalid
    const replica = fresh();
    const all = txs.map((b) => {
      const tx = decodeTransaction(b);
      return { tx, hash: signingHash(tx) };
    });
    const beacon = executionBeacon(new Uint8Array(0), replica.headHash);
    const ordered = executionOrder(all, beacon, 1n);
    const over: Block = {
      header: { ...r.block.header, txRoot: merkleRoot(ordered.map((o) => o.hash)) },
      transactions: ordered.map((o) => o.tx),
    };
    expect(code(() => replica.applyBlock(over))).toBe("ERR_BLOCK_LANE_BUDGET");
    replica.applyBlock(r.block);
    expect(replica.head.stateRoot).toEqual(c.head.stateRoot);
  });
});

describe("basefees (§4.2 / §17.8)", () => {
  it("moves both basefees by exactly the formula after a block over/under target", () => {
    const params = {
      ...DEFAULT_PARAMS,
      basefee: { ...DEFAULT_PARAMS.basefee, cyclesTarget: 21_000n, cellsTarget: 1_000n },
    };
    const g = { ...genesis, cycleBasefee: 960_000n, cellBasefee: 960_000n };
    const c = fresh(params, g);
    const opts = { maxFeePerCycle: 2_000_000n, maxFeePerCell: 2_000_000n };
    const b1 = c.buildBlock(
      [transfer(keyA, addrC, 1n, { nonce: 0n, ...opts }), transfer(keyA, addrC, 1n, { nonce: 1n, ...opts })],
      { timestampMs: g.timestampMs + 1n, proposer: PROPOSER },
    );
    expect(b1.block.header.cycleBasefee).toBe(960_000n);
    expect(b1.block.header.cyclesUsed).toBe(42_000n);
    expect(c.nextBasefees()).toEqual({ cycle: 970_000n, cell: 950_000n });
    const b2 = c.buildBlock([], { timestampMs: g.timestampMs + 2n, proposer: PROPOSER });
    expect(b2.block.header.cycleBasefee).toBe(970_000n);
    expect(b2.block.header.cellBasefee).toBe(950_000n);
    const cfg = { alpha: 96n, maxChangeDenom: 96n, minBasefee: MIN_BASEFEE };
    expect(c.nextBasefees()).toEqual({
      cycle: nextBasefee(970_000n, 0n, 21_000n, cfg),
      cell: nextBasefee(950_000n, 0n, 1_000n, cfg),
    });
    expect(c.nextBasefees().cycle).toBe(970_000n - 10_104n);
    // the fee of block 1 was charged at the block's basefee: 2 × 21,000 × (960,000 + 1,000)
    expect(b1.receipts.reduce((s, r) => s + r.feePaid, 0n)).toBe(2n * 21_000n * 961_000n);
  });
});

describe("block validation and determinism", () => {
  function chainOfBlocks(): { blocks: Block[]; roots: Uint8Array[] } {
    const c = fresh();
    const blocks: Block[] = [];
    const roots: Uint8Array[] = [];
    let nonceA = 0n;
    let nonceB = 0n;
    for (let h = 1; h <= 5; h++) {
      const txs: Uint8Array[] = [];
      for (let i = 0; i < 4; i++) txs.push(transfer(keyA, addrC, BigInt(h * 10 + i), { nonce: nonceA++ }));
      txs.push(transfer(keyB, addrA, 1n, { nonce: nonceB++ }));
      const r = c.buildBlock(txs, {
        timestampMs: genesis.timestampMs + BigInt(h) * 1000n,
        proposer: PROPOSER,
        parentSeed: Uint8Array.of(h),
      });
      expect(r.skipped).toEqual([]);
      blocks.push(decodeBlock(encodeBlock(r.block)));
      roots.push(r.block.header.stateRoot);
    }
    return { blocks, roots };
  }

  it("re-executes blocks on a fresh store to identical roots and receipts", () => {
    const { blocks, roots } = chainOfBlocks();
    const again = chainOfBlocks();
    expect(again.roots).toEqual(roots);
    const replica = fresh();
    for (const [i, b] of blocks.entries()) {
      const r = replica.applyBlock(b);
      expect(r.block.header.stateRoot).toEqual(roots[i]);
    }
    expect(replica.headHash).toEqual(blockHash((blocks[blocks.length - 1] as Block).header));
  });

  it("orders transactions by the §6.5 key, keeping each sender's nonce order", () => {
    const { blocks } = chainOfBlocks();
    for (const b of blocks) {
      const nonces = b.transactions.filter((t) => t.from.every((x, i) => x === addrA[i])).map((t) => t.nonce);
      expect(nonces).toEqual([...nonces].sort((x, y) => (x < y ? -1 : 1)));
    }
  });

  it("refuses tampered blocks and leaves the state untouched", () => {
    const { blocks } = chainOfBlocks();
    const first = blocks[0] as Block;
    const replica = fresh();
    const before = replica.head.stateRoot;
    const tamper = (f: (b: Block) => void): Block => {
      const b = decodeBlock(encodeBlock(first));
      f(b);
      return b;
    };
    expect(code(() => replica.applyBlock(tamper((b) => b.transactions.reverse())))).toBe("ERR_BLOCK_TX_ROOT");
    expect(code(() => replica.applyBlock(tamper((b) => (b.header.height = 2n))))).toBe("ERR_BLOCK_HEIGHT");
    expect(code(() => replica.applyBlock(tamper((b) => (b.header.parent = new Uint8Array(32)))))).toBe(
      "ERR_BLOCK_PARENT",
    );
    expect(code(() => replica.applyBlock(tamper((b) => (b.header.cycleBasefee += 1n))))).toBe(
      "ERR_BLOCK_BASEFEE",
    );
    expect(code(() => replica.applyBlock(tamper((b) => (b.header.timestampMs = 0n))))).toBe(
      "ERR_BLOCK_TIMESTAMP",
    );
    expect(code(() => replica.applyBlock(tamper((b) => (b.header.receiptsRoot = new Uint8Array(32)))))).toBe(
      "ERR_BLOCK_RECEIPTS_ROOT",
    );
    expect(code(() => replica.applyBlock(tamper((b) => (b.header.cyclesUsed += 1n))))).toBe(
      "ERR_BLOCK_USAGE",
    );
    expect(
      code(() =>
        replica.applyBlock(
          tamper((b) => {
            b.transactions.reverse();
            b.header.txRoot = merkleRoot(b.transactions.map((t) => signingHash(t)));
          }),
        ),
      ),
    ).toBe("ERR_BLOCK_ORDER");
    // a transaction that is invalid at execution (its nonce was already used) makes the block invalid
    const stale = tamper((b) => {
      const tx = decodeTransaction(transfer(keyB, addrA, 1n, { nonce: 5n }));
      b.transactions = [tx];
      b.header.txRoot = merkleRoot([signingHash(tx)]);
    });
    expect(code(() => replica.applyBlock(stale))).toBe("ERR_BLOCK_INVALID_TX");
    const wrongChain = tamper((b) => {
      const tx = decodeTransaction(transfer(keyB, addrA, 1n, { nonce: 0n, chainId: 99n }));
      b.transactions = [tx];
      b.header.txRoot = merkleRoot([signingHash(tx)]);
    });
    expect(code(() => replica.applyBlock(wrongChain))).toBe("ERR_BLOCK_INVALID_TX");
    expect(replica.head.height).toBe(0n);
    expect(replica.head.stateRoot).toEqual(before);
    expect(replica.getAccount(addrB)?.nonce).toBe(0n);
    replica.applyBlock(first);
    expect(replica.head.height).toBe(1n);
  });
});
