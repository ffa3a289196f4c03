/** The STF over the real state store (crates/qmdb through the addon). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Block, blockHash, decodeBlock, encodeBlock, toHex } from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import {
  accountKey,
  codeKey,
  decodeAccount,
  decodeAccountRecord,
  encodeAccount,
  encodeAccountRecord,
  governanceKey,
  openChain,
  PROTOCOL_ADDRESS,
  stateKeys,
  storageKey,
  systemKey,
  TABLE,
  timerKey,
  UNITS_PER_CBY,
  VM_NS_PVM,
  VM_NS_SYSTEM,
} from "../src/index.ts";
import { addrA, addrB, addrC, CHAIN_ID, keyA, keyB, PROPOSER, transfer } from "./stf-helpers.ts";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "cowboy-stf-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const genesis = {
  chainId: CHAIN_ID,
  timestampMs: 1_700_000_000_000n,
  accounts: [
    { address: addrA, balance: 1_000n * UNITS_PER_CBY },
    { address: addrB, balance: 1_000n * UNITS_PER_CBY },
  ],
};

describe("state layout matches crates/qmdb", () => {
  it("key builders and the account record are byte-identical to the addon's", () => {
    expect(toHex(accountKey(addrA))).toBe(toHex(stateKeys.account(addrA)));
    expect(toHex(codeKey(addrA))).toBe(toHex(stateKeys.actorCode(addrA)));
    expect(toHex(storageKey(VM_NS_PVM, addrA, Uint8Array.of(1, 2)))).toBe(
      toHex(stateKeys.actorStorage(1, addrA, Uint8Array.of(1, 2))),
    );
    expect(toHex(timerKey(7n, 9n))).toBe(toHex(stateKeys.timer(7n, 9n)));
    expect(toHex(governanceKey("system:timer_config"))).toBe(
      toHex(stateKeys.governance(Buffer.from("system:timer_config"))),
    );
    // protocol tables parse as qmdb actor-storage keys under vm_ns 0x00
    const parsed = stateKeys.parse(systemKey(PROTOCOL_ADDRESS, TABLE.timerCursor)) as {
      namespace?: string;
      vmNs?: number;
    };
    expect(JSON.stringify(parsed)).toMatch(/storage/i);
    expect(systemKey(addrA, TABLE.dedup, new Uint8Array(32))[1]).toBe(VM_NS_SYSTEM);
    for (const rec of [
      { balance: 0n, nonce: 0n, codeHash: new Uint8Array(32), metadata: new Uint8Array(0) },
      {
        balance: (1n << 100n) + 5n,
        nonce: 1n << 60n,
        codeHash: new Uint8Array(32).fill(7),
        metadata: Uint8Array.of(1, 2, 3),
      },
    ]) {
      expect(toHex(encodeAccountRecord(rec))).toBe(toHex(encodeAccount(rec)));
      const back = decodeAccountRecord(encodeAccount(rec));
      expect(back.balance).toBe(rec.balance);
      expect(decodeAccount(encodeAccountRecord(rec)).nonce).toBe(rec.nonce);
    }
  });
});

describe("openChain over QmdbState", () => {
  it("commits genesis, builds blocks, resumes after reopen, and replicas agree on the blake3 roots", () => {
    const dir = tmp();
    let h = openChain(dir, genesis, { executor: null });
    const genesisRoot = toHex(h.chain.head.stateRoot);
    const blocks: Block[] = [];
    let nonce = 0n;
    for (let i = 1n; i <= 3n; i++) {
      const r = h.chain.buildBlock(
        [transfer(keyA, addrC, i, { nonce: nonce++ }), transfer(keyB, addrC, 10n * i, { nonce: i - 1n })],
        { timestampMs: genesis.timestampMs + i * 1000n, proposer: PROPOSER },
      );
      expect(r.skipped).toEqual([]);
      blocks.push(decodeBlock(encodeBlock(r.block)));
    }
    expect(h.chain.getAccount(addrC)?.balance).toBe(66n);
    expect(h.chain.getAccount(addrC, 1n)?.balance).toBe(11n);
    expect(h.chain.prove(accountKey(addrC))?.length).toBeGreaterThan(0);
    const head = h.chain.head;
    h.close();
    h = openChain(dir, genesis, { executor: null });
    expect(h.chain.head.height).toBe(3n);
    expect(toHex(h.chain.headHash)).toBe(toHex(blockHash((blocks[2] as Block).header)));
    expect(toHex(h.chain.head.stateRoot)).toBe(toHex(head.stateRoot));
    const r4 = h.chain.buildBlock([transfer(keyA, addrC, 4n, { nonce: nonce++ })], {
      timestampMs: genesis.timestampMs + 4000n,
      proposer: PROPOSER,
    });
    blocks.push(decodeBlock(encodeBlock(r4.block)));
    h.close();

    const replica = openChain(tmp(), genesis, { executor: null });
    expect(toHex(replica.chain.head.stateRoot)).toBe(genesisRoot);
    for (const b of blocks) {
      const r = replica.chain.applyBlock(b);
      expect(toHex(r.block.header.stateRoot)).toBe(toHex(b.header.stateRoot));
    }
    expect(replica.chain.getAccount(addrC)?.balance).toBe(70n);
    // a tampered block leaves the store as it was
    const before = toHex(replica.state.root());
    expect(() => replica.chain.applyBlock(blocks[3] as Block)).toThrow(/height 4, expected 5/);
    const bad = decodeBlock(encodeBlock(blocks[3] as Block));
    bad.header.height = 5n;
    expect(() => replica.chain.applyBlock(bad)).toThrow(/does not extend the head/);
    expect(toHex(replica.state.root())).toBe(before);
    expect(replica.state.version()).toBe(5n);
    replica.close();
  });
});
