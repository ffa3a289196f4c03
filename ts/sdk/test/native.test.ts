/**
 * Cross-implementation evidence: the pure-TS codec against the Rust codec
 * (`@cowboy/native`, crates/codec through crates/napi) on thousands of seeded
 * random transactions and mutations. Both must produce the same bytes, JSON,
 * hashes and signatures, and agree on what is rejected (with the same code).
 */
import * as native from "@cowboy/native";
import { describe, expect, it } from "vitest";
import {
  actorAddress,
  addressFromSecretKey,
  CodecError,
  codeHash,
  decodeTransaction,
  encodeTransaction,
  recoverSignerOfBytes,
  SourceError,
  signingHash,
  signTransaction,
  type Transaction,
  toJson,
  utf8,
  verifyBytes,
} from "../src/index.ts";
import { mutate, Rng, randomSource, randomTransaction } from "./gen.ts";

const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const u8 = (b: Uint8Array) => new Uint8Array(b);

type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };

function attempt(fn: () => unknown): Outcome {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    const e = err as { code?: unknown; errCode?: unknown; message?: string };
    const code = typeof e.errCode === "string" ? e.errCode : String(e.code);
    return { ok: false, code, message: e.message ?? "" };
  }
}

/** A valid secret key derived from the PRNG (retries the negligible out-of-range case). */
function randomKey(rng: Rng): Uint8Array {
  for (;;) {
    const k = rng.bytes(32);
    try {
      addressFromSecretKey(k);
      return k;
    } catch {
      // zero or ≥ n: draw again
    }
  }
}

describe("TS codec = Rust codec (seeded property test)", () => {
  it("bytes, JSON, decode and signing hash agree on 3000 random transactions", () => {
    const rng = new Rng(20261121);
    for (let i = 0; i < 3000; i++) {
      const tx = randomTransaction(rng);
      const ts = encodeTransaction(tx);
      const json = toJson(tx);
      const nat = native.txEncode(json);
      expect(u8(nat)).toEqual(ts);
      const hash = signingHash(tx);
      expect(native.txDecode(buf(ts))).toEqual(toJson(tx, hash));
      expect(decodeTransaction(u8(nat))).toEqual(tx);
      expect(u8(native.txSigningHash(buf(ts)))).toEqual(hash);
    }
  });

  it("signatures are byte-identical (RFC 6979) and verify across implementations", () => {
    const rng = new Rng(99);
    const signed: Buffer[] = [];
    const expected: Uint8Array[] = [];
    for (let i = 0; i < 150; i++) {
      const key = randomKey(rng);
      const from = addressFromSecretKey(key);
      expect(u8(native.addressFromSecretKey(buf(key)))).toEqual(from);
      const tx: Transaction = { ...randomTransaction(rng), from, signature: new Uint8Array(65) };
      const unsigned = encodeTransaction(tx);
      const tsSigned = encodeTransaction(signTransaction(tx, key));
      const natSigned = u8(native.txSign(buf(unsigned), buf(key)));
      expect(natSigned).toEqual(tsSigned);
      expect(native.txVerify(buf(tsSigned))).toBe(tx.additionalSigners.length === 0);
      expect(verifyBytes(natSigned)).toBe(tx.additionalSigners.length === 0);
      expect(u8(native.txRecoverSigner(buf(tsSigned)))).toEqual(from);
      expect(recoverSignerOfBytes(natSigned)).toEqual(from);
      signed.push(buf(tsSigned));
      expected.push(from);
    }
    // The batch API (both cores) agrees with the single calls.
    const verified = native.txVerifyBatch(signed);
    signed.forEach((b, i) => {
      expect(verified[i]).toBe(verifyBytes(u8(b)));
    });
    const recovered = native.txRecoverBatch(signed);
    recovered.forEach((a, i) => {
      expect(a === null ? null : u8(a)).toEqual(expected[i]);
    });
  });

  it("signing refuses a key that is not from, with the same code", () => {
    const v1 = encodeTransaction({ ...decodeTransaction(u8(native.txEncode(toJson(randomTransaction(new Rng(5)))))) });
    const key = new Uint8Array(32).fill(0x22);
    const ts = attempt(() => signTransaction(decodeTransaction(v1), key));
    const nat = attempt(() => native.txSign(buf(v1), buf(key)));
    expect(ts.ok).toBe(false);
    expect(nat).toMatchObject({ ok: false, code: (ts as { code: string }).code });
  });

  it("actor addresses, code hashes and source rules agree", () => {
    const rng = new Rng(3);
    for (let i = 0; i < 200; i++) {
      const creator = rng.bytes(20);
      const salt = rng.bytes(32);
      const source = randomSource(rng);
      expect(u8(native.codeHash(buf(source)))).toEqual(codeHash(source));
      expect(u8(native.actorAddress(buf(creator), buf(salt), buf(source)))).toEqual(actorAddress(creator, salt, source));
    }
    for (const bad of [Uint8Array.of(0xff), Uint8Array.of(0xef, 0xbb, 0xbf), utf8("a\r\n"), utf8("e\u0301")]) {
      const ts = attempt(() => codeHash(bad));
      expect(ts.ok).toBe(false);
      expect(attempt(() => native.codeHash(buf(bad)))).toMatchObject({ ok: false, code: (ts as { code: string }).code });
    }
    expect(new SourceError("SOURCE_HAS_CR", "source").errCode).toBe("ERR_CODEC_SOURCE_HAS_CR");
  });
});

describe("TS and Rust agree on rejection (mutation fuzz)", () => {
  it("20000 mutated encodings: same accept/reject, same code, accepted ⇒ canonical", () => {
    const rng = new Rng(0xfade);
    const seen = new Map<string, number>();
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const input = mutate(rng, encodeTransaction(randomTransaction(rng)));
      const ts = attempt(() => decodeTransaction(input));
      const nat = attempt(() => native.txDecode(buf(input)));
      if (ts.ok) {
        expect(nat.ok, `native rejected what TS accepted: ${Buffer.from(input).toString("hex")}`).toBe(true);
        const tx = ts.value as Transaction;
        expect(encodeTransaction(tx)).toEqual(input);
        expect(u8(native.txEncode(toJson(tx)))).toEqual(input);
        expect((nat as { value: unknown }).value).toEqual(toJson(tx, signingHash(tx)));
        accepted++;
      } else {
        expect(nat.ok, `native accepted what TS rejected (${ts.code}): ${Buffer.from(input).toString("hex")}`).toBe(false);
        expect((nat as { code: string }).code).toBe(ts.code);
        expect(ts.code.startsWith("ERR_CODEC_")).toBe(true);
        seen.set(ts.code, (seen.get(ts.code) ?? 0) + 1);
      }
    }
    expect(accepted).toBeGreaterThan(100);
    // The mutations reach the main rules.
    for (const code of ["NON_MINIMAL_VARINT", "UNEXPECTED_EOF", "TRAILING_BYTES", "INVALID_OPTION_TAG", "LENGTH_OVERFLOW"]) {
      expect(seen.get(`ERR_CODEC_${code}`) ?? 0, code).toBeGreaterThan(0);
    }
  });

  it("oversized inputs are TX_TOO_LARGE on both sides", () => {
    const big = new Uint8Array(131_073);
    const ts = attempt(() => decodeTransaction(big));
    expect(ts).toMatchObject({ ok: false, code: "ERR_CODEC_TX_TOO_LARGE" });
    expect(attempt(() => native.txDecode(buf(big)))).toMatchObject({ ok: false, code: "ERR_CODEC_TX_TOO_LARGE" });
    expect(new CodecError("TX_TOO_LARGE", "transaction", "x").errCode).toBe("ERR_CODEC_TX_TOO_LARGE");
  });
});
