/**
 * Cross-implementation evidence: the pure-TS codec against the Rust codec
 * (`@cowboy/native`, crates/codec through crates/napi) on thousands of seeded
 * random transactions and mutations. Both must produce the same bytes, JSON,
 * hashes and signatures, and agree on what is rejected (with the same code).
 */
import * as native from "@cowboy/native";
import { describe, expect, it } from "vitest";

/** Generous per-test limit: these loops run thousands of cases on a shared 2-core machine. */
const HEAVY_TIMEOUT_MS = 300_000;

import {
  actorAddress,
  addressFromSecretKey,
  blockToJson,
  CodecError,
  canonicalizeSource,
  certificateToJson,
  checkSignatures,
  codeHash,
  compareBytes,
  decodeBlock,
  decodeBlockHeader,
  decodeCertificate,
  decodeReceipt,
  decodeTransaction,
  encodeBlock,
  encodeBlockHeader,
  encodeCertificate,
  encodeReceipt,
  encodeTransaction,
  fromJson,
  headerToJson,
  keccak256,
  merkleRoot,
  receiptToJson,
  recoverAddress,
  recoverSignerOfBytes,
  SigError,
  SourceError,
  signAdditional,
  signHash,
  signingHash,
  signTransaction,
  type Transaction,
  toJson,
  utf8,
  verifyBytes,
} from "../src/index.ts";
import {
  mutate,
  Rng,
  randomBlock,
  randomCertificate,
  randomHeader,
  randomReceipt,
  randomSource,
  randomTransaction,
} from "./gen.ts";

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
  it(
    "bytes, JSON, decode and signing hash agree on 3000 random transactions",
    () => {
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
    },
    HEAVY_TIMEOUT_MS,
  );

  it(
    "signatures are byte-identical (RFC 6979) and verify across implementations",
    () => {
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
      expect(recovered).toHaveLength(signed.length);
      recovered.forEach((a, i) => {
        expect(a == null ? null : u8(a)).toEqual(expected[i]);
      });
    },
    HEAVY_TIMEOUT_MS,
  );

  it(
    "signing refuses a key that is not from, with the same code",
    () => {
      const v1 = encodeTransaction({
        ...decodeTransaction(u8(native.txEncode(toJson(randomTransaction(new Rng(5)))))),
      });
      const key = new Uint8Array(32).fill(0x22);
      const ts = attempt(() => signTransaction(decodeTransaction(v1), key));
      const nat = attempt(() => native.txSign(buf(v1), buf(key)));
      expect(ts.ok).toBe(false);
      expect(nat).toMatchObject({ ok: false, code: (ts as { code: string }).code });
    },
    HEAVY_TIMEOUT_MS,
  );

  it(
    "actor addresses, code hashes and source rules agree",
    () => {
      const rng = new Rng(3);
      for (let i = 0; i < 200; i++) {
        const creator = rng.bytes(20);
        const salt = rng.bytes(32);
        const source = randomSource(rng);
        expect(u8(native.codeHash(buf(source)))).toEqual(codeHash(source));
        expect(u8(native.actorAddress(buf(creator), buf(salt), buf(source)))).toEqual(
          actorAddress(creator, salt, source),
        );
      }
      for (const bad of [
        Uint8Array.of(0xff),
        Uint8Array.of(0xef, 0xbb, 0xbf),
        utf8("a\r\n"),
        utf8("e\u0301"),
      ]) {
        const ts = attempt(() => codeHash(bad));
        expect(ts.ok).toBe(false);
        expect(attempt(() => native.codeHash(buf(bad)))).toMatchObject({
          ok: false,
          code: (ts as { code: string }).code,
        });
      }
      expect(new SourceError("SOURCE_HAS_CR", "source").errCode).toBe("ERR_CODEC_SOURCE_HAS_CR");
    },
    HEAVY_TIMEOUT_MS,
  );
});

describe("TS and Rust agree on rejection (mutation fuzz)", () => {
  it(
    "20000 mutated encodings: same accept/reject, same code, accepted ⇒ canonical",
    () => {
      const rng = new Rng(0xfade);
      const seen = new Map<string, number>();
      let accepted = 0;
      for (let i = 0; i < 20_000; i++) {
        const input = mutate(rng, encodeTransaction(randomTransaction(rng)));
        const ts = attempt(() => decodeTransaction(input));
        const nat = attempt(() => native.txDecode(buf(input)));
        if (ts.ok) {
          expect(nat.ok, `native rejected what TS accepted: ${Buffer.from(input).toString("hex")}`).toBe(
            true,
          );
          const tx = ts.value as Transaction;
          expect(encodeTransaction(tx)).toEqual(input);
          expect(u8(native.txEncode(toJson(tx)))).toEqual(input);
          expect((nat as { value: unknown }).value).toEqual(toJson(tx, signingHash(tx)));
          accepted++;
        } else {
          expect(
            nat.ok,
            `native accepted what TS rejected (${ts.code}): ${Buffer.from(input).toString("hex")}`,
          ).toBe(false);
          expect((nat as { code: string }).code).toBe(ts.code);
          expect(ts.code.startsWith("ERR_CODEC_")).toBe(true);
          seen.set(ts.code, (seen.get(ts.code) ?? 0) + 1);
        }
      }
      expect(accepted).toBeGreaterThan(100);
      // The mutations reach the main rules.
      for (const code of [
        "NON_MINIMAL_VARINT",
        "UNEXPECTED_EOF",
        "TRAILING_BYTES",
        "INVALID_OPTION_TAG",
        "LENGTH_OVERFLOW",
      ]) {
        expect(seen.get(`ERR_CODEC_${code}`) ?? 0, code).toBeGreaterThan(0);
      }
    },
    HEAVY_TIMEOUT_MS,
  );

  it(
    "oversized inputs are TX_TOO_LARGE on both sides",
    () => {
      const big = new Uint8Array(131_073);
      const ts = attempt(() => decodeTransaction(big));
      expect(ts).toMatchObject({ ok: false, code: "ERR_CODEC_TX_TOO_LARGE" });
      expect(attempt(() => native.txDecode(buf(big)))).toMatchObject({
        ok: false,
        code: "ERR_CODEC_TX_TOO_LARGE",
      });
      expect(new CodecError("TX_TOO_LARGE", "transaction", "x").errCode).toBe("ERR_CODEC_TX_TOO_LARGE");
    },
    HEAVY_TIMEOUT_MS,
  );
});

describe("blocks, receipts and certificates: TS = Rust", () => {
  const kinds = [
    {
      name: "header",
      gen: randomHeader,
      enc: encodeBlockHeader,
      dec: decodeBlockHeader,
      json: headerToJson,
      natEnc: native.headerEncode,
      natDec: native.headerDecode,
    },
    {
      name: "block",
      gen: randomBlock,
      enc: encodeBlock,
      dec: decodeBlock,
      json: blockToJson,
      natEnc: native.blockEncode,
      natDec: native.blockDecode,
    },
    {
      name: "receipt",
      gen: randomReceipt,
      enc: encodeReceipt,
      dec: decodeReceipt,
      json: receiptToJson,
      natEnc: native.receiptEncode,
      natDec: native.receiptDecode,
    },
    {
      name: "certificate",
      gen: randomCertificate,
      enc: encodeCertificate,
      dec: decodeCertificate,
      json: certificateToJson,
      natEnc: native.certificateEncode,
      natDec: native.certificateDecode,
    },
  ] as const;

  for (const k of kinds) {
    it(
      `${k.name}: same bytes and JSON; mutations rejected alike`,
      () => {
        const rng = new Rng(k.name.length * 7919);
        const gen = k.gen as (r: Rng) => unknown;
        const enc = k.enc as (v: unknown) => Uint8Array;
        const dec = k.dec as (b: Uint8Array) => unknown;
        const json = k.json as (v: unknown) => unknown;
        for (let i = 0; i < 400; i++) {
          const value = gen(rng);
          const bytes = enc(value);
          const j = json(value);
          expect(u8(k.natEnc(JSON.parse(JSON.stringify(j))))).toEqual(bytes);
          expect(k.natDec(buf(bytes))).toEqual(j);
          for (let m = 0; m < 5; m++) {
            const input = mutate(rng, bytes);
            const ts = attempt(() => dec(input));
            const nat = attempt(() => k.natDec(buf(input)));
            if (ts.ok) {
              expect(nat.ok).toBe(true);
              expect(enc(ts.value)).toEqual(input);
              expect((nat as { value: unknown }).value).toEqual(json(ts.value));
            } else {
              expect(nat.ok, `native accepted a ${k.name} TS rejected (${ts.code})`).toBe(false);
              expect((nat as { code: string }).code).toBe(ts.code);
            }
          }
        }
      },
      HEAVY_TIMEOUT_MS,
    );
  }
});

describe("JSON input: TS = Rust", () => {
  const BAD_VALUES: unknown[] = [
    null,
    0,
    1.5,
    true,
    "",
    "0",
    "01",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "0x",
    "0X12",
    "0xZZ",
    "0x123",
    `0x${"ab".repeat(20)}`,
    `0x${"AB".repeat(32)}`,
    `0x${"00".repeat(65)}`,
    [],
    {},
    "tick",
    "no-dash",
  ];

  function mutateJson(rng: Rng, json: Record<string, unknown>): Record<string, unknown> {
    const out = JSON.parse(JSON.stringify(json)) as Record<string, unknown>;
    const target =
      rng.bool(0.4) && typeof out.instruction === "object" && out.instruction !== null
        ? (out.instruction as Record<string, unknown>)
        : out;
    const keys = Object.keys(target);
    switch (rng.below(3)) {
      case 0:
        delete target[rng.pick(keys)];
        break;
      case 1:
        target[rng.pick(keys)] = rng.pick(BAD_VALUES);
        break;
      default:
        target[rng.pick(["extra", "memo", "kind", "subType"])] = rng.pick(BAD_VALUES);
    }
    return out;
  }

  it(
    "5000 mutated TxJson values: same acceptance, same bytes, same error code and message",
    () => {
      const rng = new Rng(0x15);
      let rejected = 0;
      for (let i = 0; i < 5000; i++) {
        const json = mutateJson(rng, toJson(randomTransaction(rng)) as unknown as Record<string, unknown>);
        const ts = attempt(() => encodeTransaction(fromJson(json)));
        const nat = attempt(() => native.txEncode(json));
        if (ts.ok) {
          expect(
            nat.ok,
            `native rejected ${JSON.stringify(json)}: ${(nat as { message?: string }).message}`,
          ).toBe(true);
          expect(u8((nat as { value: Uint8Array }).value)).toEqual(ts.value);
        } else {
          rejected++;
          expect(nat, JSON.stringify(json)).toMatchObject({ ok: false, code: ts.code, message: ts.message });
        }
      }
      expect(rejected).toBeGreaterThan(1000);
    },
    HEAVY_TIMEOUT_MS,
  );
});

describe("signature checks and helpers: TS = Rust", () => {
  it(
    "verification fails for the same reason on random, tampered and co-signed transactions",
    () => {
      const rng = new Rng(0x51);
      const keys = Array.from({ length: 4 }, () => randomKey(rng));
      const reasons = new Map<string, number>();
      for (let i = 0; i < 400; i++) {
        const key = rng.pick(keys);
        let tx: Transaction = {
          ...randomTransaction(rng),
          from: addressFromSecretKey(key),
          additionalSigners: [],
        };
        if (rng.bool(0.3)) {
          const co = keys
            .filter((k) => k !== key)
            .map((k) => ({ key: k, address: addressFromSecretKey(k) }))
            .sort((a, b) => compareBytes(a.address, b.address))
            .slice(0, 1 + rng.below(2));
          tx = {
            ...tx,
            additionalSigners: co.map((c) => ({ address: c.address, signature: new Uint8Array(65) })),
          };
          for (const c of co) {
            if (rng.bool(0.8)) {
              const natCo = u8(native.txSignAdditional(buf(encodeTransaction(tx)), buf(c.key)));
              tx = signAdditional(tx, c.key);
              expect(natCo).toEqual(encodeTransaction(tx));
            }
          }
        }
        if (rng.bool(0.8)) tx = signTransaction(tx, key);
        let bytes = encodeTransaction(tx);
        if (rng.bool(0.3)) {
          // Tamper with a signature byte (r, s or v) without breaking the encoding.
          const sigAt = bytes.length - 1 - tx.additionalSigners.length * 85 - 65;
          bytes = Uint8Array.from(bytes);
          const at = sigAt + rng.pick([0, 31, 32, 63, 64]);
          bytes[at] = rng.pick([0x00, 0x01, 0x1b, 0xff, (bytes[at] as number) ^ 1]);
        }
        let tsReason: string | null = null;
        try {
          checkSignatures(decodeTransaction(bytes));
        } catch (err) {
          if (!(err instanceof SigError) && !(err instanceof CodecError)) throw err;
          tsReason = err.errCode;
        }
        expect(native.txVerifyReason(buf(bytes))).toBe(tsReason);
        reasons.set(String(tsReason), (reasons.get(String(tsReason)) ?? 0) + 1);
      }
      for (const r of [
        "null",
        "ERR_SIG_SIGNER_MISMATCH",
        "ERR_SIG_INVALID_SIGNATURE",
        "ERR_SIG_INVALID_RECOVERY_ID",
      ]) {
        expect(reasons.get(r) ?? 0, r).toBeGreaterThan(0);
      }
    },
    HEAVY_TIMEOUT_MS,
  );

  it(
    "signHash / recoverHashSigner, keccak256, merkleRoot and canonicalizeSource agree",
    () => {
      const rng = new Rng(0x77);
      for (let i = 0; i < 100; i++) {
        const key = randomKey(rng);
        const hash = rng.bytes(32);
        const sig = signHash(hash, key);
        expect(u8(native.signHash(buf(hash), buf(key)))).toEqual(sig);
        expect(u8(native.recoverHashSigner(buf(hash), buf(sig)))).toEqual(recoverAddress(hash, sig));
        const data = rng.blob(300);
        expect(u8(native.keccak256(buf(data)))).toEqual(keccak256(data));
        const items = Array.from({ length: rng.below(9) }, () => rng.bytes(32));
        expect(u8(native.merkleRoot(items.map(buf)))).toEqual(merkleRoot(items));
        const text = Array.from({ length: rng.below(6) }, () =>
          rng.pick(["\ufeff", "\r\n", "\r", "\n", "e\u0301", "x = 1", "Å"]),
        ).join("");
        expect(native.canonicalizeSource(text)).toBe(new TextDecoder().decode(canonicalizeSource(text)));
      }
    },
    HEAVY_TIMEOUT_MS,
  );
});
