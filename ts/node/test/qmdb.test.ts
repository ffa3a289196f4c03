import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StateProofError, verifyStateProof } from "@cowboy/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  decodeAccount,
  emptyStateRoot,
  encodeAccount,
  type KvStore,
  QmdbState,
  stateKeys,
  verifyProofNative,
} from "../src/index.ts";

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "cowboy-qmdb-ts-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const te = new TextEncoder();
const b = (s: string) => te.encode(s);
const hex = (u: Uint8Array | undefined) => (u === undefined ? "undefined" : Buffer.from(u).toString("hex"));
const addr = (n: number) => {
  const a = new Uint8Array(20);
  new DataView(a.buffer).setUint32(16, n);
  return a;
};
const codeOf = (f: () => unknown): string => {
  try {
    f();
    return "no error";
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe("QmdbState", () => {
  it("writes, commits, reads and reopens at the same root", () => {
    const dir = tmp();
    const s = QmdbState.open(dir);
    const kv: KvStore = s;
    expect(s.version()).toBe(0n);
    expect(hex(s.root())).toBe(hex(emptyStateRoot()));
    kv.put(b("a"), b("1"));
    kv.put(b("b"), b("2"));
    expect(hex(kv.get(b("a")))).toBe(hex(b("1")));
    expect(s.getCommitted(b("a"))).toBeUndefined();
    const c1 = s.commit();
    expect(c1.version).toBe(1n);
    expect(c1.root.length).toBe(32);
    expect(c1.activeKeys).toBe(2);
    kv.delete(b("a"));
    kv.put(b("c"), b("3"));
    const c2 = s.commit();
    expect(c2.version).toBe(2n);
    expect(kv.get(b("a"))).toBeUndefined();
    expect(hex(s.getAt(1n, b("a")))).toBe(hex(b("1")));
    expect(s.getAt(2n, b("a"))).toBeUndefined();
    expect(s.history().map((h) => h.version)).toEqual([0n, 1n, 2n]);
    expect(s.scanPrefix(new Uint8Array(0)).map((e) => hex(e.key))).toEqual([hex(b("b")), hex(b("c"))]);
    expect(s.stats().activeKeys).toBe(2);
    expect(s.diskBytes()).toBeGreaterThan(0);
    s.put(b("pending"), b("x")); // dropped by close
    s.close();
    expect(s.closed).toBe(true);
    expect(codeOf(() => s.get(b("a")))).toBe("ERR_QMDB_CLOSED");
    const r = QmdbState.open(dir);
    expect(r.version()).toBe(2n);
    expect(hex(r.root())).toBe(hex(c2.root));
    expect(r.get(b("pending"))).toBeUndefined();
    expect(hex(r.get(b("c")))).toBe(hex(b("3")));
    r.close();
  });

  it("refuses a second writer on the same directory", () => {
    const dir = tmp();
    const s = QmdbState.open(dir);
    expect(codeOf(() => QmdbState.open(dir))).toBe("ERR_QMDB_LOCKED");
    s.close();
    QmdbState.open(dir).close();
  });

  it("nests checkpoints: revert drops inner writes, release folds them", () => {
    const s = QmdbState.open(tmp());
    s.put(b("k"), b("block"));
    const tx = s.checkpoint();
    s.put(b("k"), b("tx"));
    const msg = s.checkpoint();
    s.put(b("k"), b("msg"));
    s.put(b("other"), b("o"));
    expect(hex(s.get(b("k")))).toBe(hex(b("msg")));
    s.revert(msg);
    expect(hex(s.get(b("k")))).toBe(hex(b("tx")));
    expect(s.get(b("other"))).toBeUndefined();
    expect(codeOf(() => s.revert(msg))).toBe("ERR_QMDB_BAD_CHECKPOINT");
    const msg2 = s.checkpoint();
    s.delete(b("k"));
    s.release(msg2);
    expect(s.get(b("k"))).toBeUndefined();
    s.revert(tx);
    expect(hex(s.get(b("k")))).toBe(hex(b("block")));
    const outer = s.checkpoint();
    s.checkpoint();
    s.put(b("deep"), b("d"));
    s.release(outer); // folds the inner one too
    expect(s.stats().openCheckpoints).toBe(0);
    s.commit();
    expect(hex(s.getCommitted(b("deep")))).toBe(hex(b("d")));
    expect(hex(s.getCommitted(b("k")))).toBe(hex(b("block")));
    s.close();
  });

  it("proves inclusion and exclusion, verified by the TS verifier and natively", () => {
    const s = QmdbState.open(tmp(), { historyWindow: 8 });
    for (let i = 0; i < 50; i++) s.put(b(`key-${i * 2}`), b(`value-${i}`));
    const c = s.commit();
    const present = b("key-10");
    const absent = b("key-11");
    const p1 = s.prove(present);
    const v1 = verifyStateProof(c.root, present, p1);
    expect(v1.exists && hex(v1.value)).toBe(hex(b("value-5")));
    expect(verifyProofNative(c.root, present, p1)).toEqual({
      exists: true,
      value: Buffer.from(b("value-5")),
    });
    const p2 = s.prove(absent);
    expect(verifyStateProof(c.root, absent, p2)).toEqual({ exists: false });
    // wrong key, wrong root, tampered bytes are rejected
    expect(() => verifyStateProof(c.root, b("key-12"), p1)).toThrow(StateProofError);
    const wrongRoot = new Uint8Array(c.root);
    wrongRoot[0] = (wrongRoot[0] as number) ^ 1;
    expect(() => verifyStateProof(wrongRoot, present, p1)).toThrow(StateProofError);
    expect(codeOf(() => verifyProofNative(wrongRoot, present, p1))).toBe("ERR_PROOF_ROOT_MISMATCH");
    const tampered = new Uint8Array(p1);
    tampered[tampered.length - 40] = (tampered[tampered.length - 40] as number) ^ 0x10;
    expect(() => verifyStateProof(c.root, present, tampered)).toThrow(StateProofError);
    // a proof at an older retained version verifies against that version's root
    s.put(present, b("changed"));
    const c2 = s.commit();
    const old = s.prove(present, c.version);
    const vOld = verifyStateProof(c.root, present, old);
    expect(vOld.exists && hex(vOld.value)).toBe(hex(b("value-5")));
    const vNew = verifyStateProof(c2.root, present, s.prove(present));
    expect(vNew.exists && hex(vNew.value)).toBe(hex(b("changed")));
    s.close();
  });

  it("scans prefixes over committed state and the overlay", () => {
    const s = QmdbState.open(tmp());
    const actor = addr(7);
    const k = (x: string) => stateKeys.actorStorage(1, actor, b(x));
    s.put(k("a"), b("1"));
    s.put(k("b"), b("2"));
    s.put(stateKeys.actorStorage(1, addr(8), b("a")), b("other actor"));
    s.commit();
    s.put(k("c"), b("3"));
    s.delete(k("a"));
    const rows = s.scanPrefix(stateKeys.actorStoragePrefix(1, actor));
    expect(rows.map((r) => hex(r.value))).toEqual([hex(b("2")), hex(b("3"))]);
    expect(s.scanPrefix(stateKeys.actorStoragePrefix(1, actor), 1).length).toBe(1);
    s.close();
  });

  it("exposes the key layout and the account codec of the Rust crate", () => {
    const a = addr(1);
    expect(hex(stateKeys.account(a))).toBe(`01${hex(a)}`);
    expect(hex(stateKeys.timer(1n, 2n))).toBe("0400000000000000010000000000000002");
    expect(hex(stateKeys.timer(5n, 9n)).startsWith(hex(stateKeys.timerHeightPrefix(5n)))).toBe(true);
    const parsed = stateKeys.parse(stateKeys.actorStorage(1, a, b("count")));
    expect(parsed.namespace).toBe("actorStorage");
    expect(parsed.vmNs).toBe(1);
    expect(hex(parsed.key)).toBe(hex(b("count")));
    expect(stateKeys.parse(stateKeys.timer(3n, 4n)).height).toBe(3n);
    expect(codeOf(() => stateKeys.account(new Uint8Array(19)))).toBe("ERR_QMDB_INVALID_ARGUMENT");
    expect(codeOf(() => stateKeys.governance(new Uint8Array(65)))).toBe("ERR_QMDB_CORRUPT");
    expect(codeOf(() => stateKeys.parse(new Uint8Array([9, 1])))).toBe("ERR_QMDB_CORRUPT");
    const acct = { balance: 10n ** 18n, nonce: 7n, codeHash: new Uint8Array(32).fill(3), metadata: b("m") };
    const enc = encodeAccount(acct);
    expect(enc.length).toBe(16 + 8 + 32 + 4 + 1);
    const dec = decodeAccount(enc);
    expect(dec.balance).toBe(acct.balance);
    expect(dec.nonce).toBe(7n);
    expect(hex(dec.codeHash)).toBe(hex(acct.codeHash));
    expect(codeOf(() => decodeAccount(enc.subarray(0, 10)))).toBe("ERR_QMDB_CORRUPT");
    expect(codeOf(() => encodeAccount({ ...acct, nonce: -1n }))).toBe("ERR_QMDB_INVALID_ARGUMENT");
  });

  it("reports typed errors for bad keys and unavailable versions", () => {
    const s = QmdbState.open(tmp(), { historyWindow: 2 });
    expect(codeOf(() => s.put(new Uint8Array(0), b("x")))).toBe("ERR_QMDB_KEY_LENGTH");
    expect(codeOf(() => s.get(new Uint8Array(1025)))).toBe("ERR_QMDB_KEY_LENGTH");
    for (let i = 0; i < 4; i++) {
      s.put(b("k"), b(String(i)));
      s.commit();
    }
    expect(codeOf(() => s.getAt(1n, b("k")))).toBe("ERR_QMDB_VERSION_UNAVAILABLE");
    expect(hex(s.getAt(3n, b("k")))).toBe(hex(b("2")));
    expect(codeOf(() => s.getAt(-1n, b("k")))).toBe("ERR_QMDB_INVALID_ARGUMENT");
    expect(codeOf(() => QmdbState.open(tmp(), { historyWindow: 0 }))).toBe("ERR_QMDB_CONFIG");
    s.close();
  });
});
