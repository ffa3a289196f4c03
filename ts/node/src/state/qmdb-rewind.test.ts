/** `QmdbState.rewind` and `Chain.resetHead` (dropping executed-but-unfinalized blocks). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Block, type BlockHeader, blockHash, toHex } from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { addrA, addrB, addrC, CHAIN_ID, keyA, keyB, PROPOSER, transfer } from "../../test/stf-helpers.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { openChain } from "../stf/open.ts";
import { QmdbState } from "./qmdb.ts";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "cowboy-rewind-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString("utf8"));
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return "no error";
};

describe("QmdbState.rewind", () => {
  it("drops newer versions and pending writes, survives reopen, refuses versions outside the window", () => {
    const dir = tmp();
    let s = QmdbState.open(dir, { historyWindow: 4 });
    const roots: Uint8Array[] = [s.root()];
    for (let v = 1; v <= 5; v++) {
      s.put(bytes(`k${v}`), bytes(`v${v}`));
      if (v === 4) s.delete(bytes("k2"));
      roots.push(s.commit().root);
    }
    expect(s.version()).toBe(5n);
    expect(code(() => s.rewind(1n))).toBe("ERR_QMDB_VERSION_UNAVAILABLE"); // window: 2..5
    expect(code(() => s.rewind(6n))).toBe("ERR_QMDB_VERSION_UNAVAILABLE");
    s.put(bytes("pending"), bytes("x"));
    const info = s.rewind(3n);
    expect(info.version).toBe(3n);
    expect(toHex(info.root)).toBe(toHex(roots[3] as Uint8Array));
    expect(s.version()).toBe(3n);
    expect(toHex(s.root())).toBe(toHex(roots[3] as Uint8Array));
    expect(s.get(bytes("pending"))).toBeUndefined();
    expect(s.get(bytes("k4"))).toBeUndefined();
    expect(text(s.get(bytes("k2")))).toBe("v2");
    expect(s.history().map((c) => c.version)).toEqual([2n, 3n]);
    expect(toHex(s.rootAt(2n) as Uint8Array)).toBe(toHex(roots[2] as Uint8Array));
    expect(s.rootAt(4n)).toBeUndefined();
    expect(s.rootAt(1n)).toBeUndefined();
    // a different version 4
    s.put(bytes("other"), bytes("y"));
    const c4 = s.commit();
    expect(c4.version).toBe(4n);
    expect(toHex(c4.root)).not.toBe(toHex(roots[4] as Uint8Array));
    s.close();
    s = QmdbState.open(dir, { historyWindow: 4 });
    expect(s.version()).toBe(4n);
    expect(toHex(s.root())).toBe(toHex(c4.root));
    expect(text(s.get(bytes("other")))).toBe("y");
    expect(s.get(bytes("k4"))).toBeUndefined();
    // rewinding to the head only drops pending writes
    s.put(bytes("p"), bytes("q"));
    expect(s.rewind(4n).version).toBe(4n);
    expect(s.get(bytes("p"))).toBeUndefined();
    s.close();
    expect(code(() => s.rewind(3n))).toBe("ERR_QMDB_CLOSED");
  });
});

const genesis = {
  chainId: CHAIN_ID,
  timestampMs: 1_700_000_000_000n,
  accounts: [
    { address: addrA, balance: 1_000n * UNITS_PER_CBY },
    { address: addrB, balance: 1_000n * UNITS_PER_CBY },
  ],
};
const at = (i: bigint) => ({ timestampMs: genesis.timestampMs + i * 1000n, proposer: PROPOSER });

describe("Chain.resetHead", () => {
  it("rewinds executed blocks so a different block can follow; roots equal a fresh chain's", () => {
    const dir = tmp();
    let h = openChain(dir, genesis, { executor: null });
    const headers: BlockHeader[] = [h.chain.head];
    const blocks: Block[] = [];
    for (let i = 1n; i <= 5n; i++) {
      const r = h.chain.buildBlock([transfer(keyA, addrC, i, { nonce: i - 1n })], at(i));
      expect(r.skipped).toEqual([]);
      blocks.push(r.block);
      headers.push(r.block.header);
    }
    expect(h.chain.getAccount(addrC)?.balance).toBe(15n);
    const h3 = headers[3] as BlockHeader;

    // refused: above the head, or a header whose state root was not executed at its height
    const future = { ...(headers[5] as BlockHeader), height: 6n };
    expect(code(() => h.chain.resetHead(future))).toBe("ERR_CHAIN_HEAD");
    const forged = { ...h3, stateRoot: new Uint8Array(32).fill(9) };
    expect(code(() => h.chain.resetHead(forged))).toBe("ERR_CHAIN_HEAD");
    expect(h.chain.head.height).toBe(5n);

    h.chain.resetHead(h3);
    expect(h.chain.head.height).toBe(3n);
    expect(toHex(h.chain.headHash)).toBe(toHex(blockHash(h3)));
    expect(h.chain.getAccount(addrC)?.balance).toBe(6n);
    expect(h.chain.getAccount(addrA)?.nonce).toBe(3n);
    // a different block 4 (B pays instead of A)
    const alt = h.chain.buildBlock([transfer(keyB, addrC, 100n, { nonce: 0n })], at(4n));
    expect(alt.skipped).toEqual([]);
    expect(alt.block.header.height).toBe(4n);
    expect(toHex(alt.block.header.parent)).toBe(toHex(blockHash(h3)));
    expect(h.chain.getAccount(addrC)?.balance).toBe(106n);

    // a fresh chain applying blocks 1..3 and the new block 4 reaches the same roots
    const fresh = openChain(tmp(), genesis, { executor: null });
    for (const b of [...blocks.slice(0, 3), alt.block]) {
      const r = fresh.chain.applyBlock(b);
      expect(toHex(r.block.header.stateRoot)).toBe(toHex(b.header.stateRoot));
    }
    expect(toHex(fresh.chain.head.stateRoot)).toBe(toHex(h.chain.head.stateRoot));
    expect(toHex(fresh.state.root())).toBe(toHex(h.state.root()));
    expect(fresh.state.version()).toBe(h.state.version());
    fresh.close();

    // the reset head was persisted (onHead): a reopen resumes on the new branch
    h.close();
    h = openChain(dir, genesis, { executor: null });
    expect(h.chain.head.height).toBe(4n);
    expect(toHex(h.chain.headHash)).toBe(toHex(blockHash(alt.block.header)));
    // resetting to the head itself is a no-op apart from pending writes
    h.chain.resetHead(h.chain.head);
    expect(h.chain.head.height).toBe(4n);
    h.close();
  });
});
