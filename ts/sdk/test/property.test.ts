/** Pure-TS properties over thousands of seeded random transactions (cross-implementation ones are in native.test.ts). */
import { describe, expect, it } from "vitest";

/** Generous per-test limit: these loops run thousands of cases on a shared 2-core machine. */
const HEAVY_TIMEOUT_MS = 300_000;

import {
  blockFromJson,
  blockToJson,
  CodecError,
  certificateFromJson,
  certificateToJson,
  decodeBlock,
  decodeCertificate,
  decodeReceipt,
  decodeTransaction,
  encodeBlock,
  encodeCertificate,
  encodeReceipt,
  encodeTransaction,
  fromJson,
  receiptFromJson,
  receiptToJson,
  signingHash,
  signingHashOfBytes,
  toJson,
} from "../src/index.ts";
import { mutate, Rng, randomBlock, randomCertificate, randomReceipt, randomTransaction } from "./gen.ts";

describe("round trips (seeded)", () => {
  it(
    "decode(encode(tx)) = tx, fromJson(toJson(tx)) = tx, JSON survives text, hashes agree",
    () => {
      const rng = new Rng(0xc0ffee);
      for (let i = 0; i < 3000; i++) {
        const tx = randomTransaction(rng);
        const bytes = encodeTransaction(tx);
        expect(decodeTransaction(bytes)).toEqual(tx);
        const json = toJson(tx);
        expect(fromJson(JSON.parse(JSON.stringify(json)))).toEqual(tx);
        expect(signingHashOfBytes(bytes)).toEqual(signingHash(tx));
      }
    },
    HEAVY_TIMEOUT_MS,
  );

  it(
    "mutated encodings are rejected with a CodecError or are canonical (re-encode equals input)",
    () => {
      const rng = new Rng(7);
      let accepted = 0;
      for (let i = 0; i < 5000; i++) {
        const input = mutate(rng, encodeTransaction(randomTransaction(rng)));
        let tx: ReturnType<typeof decodeTransaction>;
        try {
          tx = decodeTransaction(input);
        } catch (err) {
          expect(err).toBeInstanceOf(CodecError);
          continue;
        }
        accepted++;
        expect(encodeTransaction(tx)).toEqual(input);
      }
      expect(accepted).toBeGreaterThan(0);
    },
    HEAVY_TIMEOUT_MS,
  );
});

describe("blocks, receipts, certificates (seeded)", () => {
  const cases = [
    {
      name: "block",
      gen: randomBlock,
      enc: encodeBlock,
      dec: decodeBlock,
      toJ: blockToJson,
      fromJ: blockFromJson,
    },
    {
      name: "receipt",
      gen: randomReceipt,
      enc: encodeReceipt,
      dec: decodeReceipt,
      toJ: receiptToJson,
      fromJ: receiptFromJson,
    },
    {
      name: "certificate",
      gen: randomCertificate,
      enc: encodeCertificate,
      dec: decodeCertificate,
      toJ: certificateToJson,
      fromJ: certificateFromJson,
    },
  ] as const;
  for (const c of cases) {
    it(
      `${c.name}: round trips through bytes and JSON; accepted mutations are canonical`,
      () => {
        const rng = new Rng(c.name.length);
        const gen = c.gen as (r: Rng) => unknown;
        const enc = c.enc as (v: unknown) => Uint8Array;
        const dec = c.dec as (b: Uint8Array) => unknown;
        const toJ = c.toJ as (v: unknown) => unknown;
        const fromJ = c.fromJ as (j: unknown) => unknown;
        for (let i = 0; i < 300; i++) {
          const value = gen(rng);
          const bytes = enc(value);
          expect(dec(bytes)).toEqual(value);
          expect(fromJ(JSON.parse(JSON.stringify(toJ(value))))).toEqual(value);
          const input = mutate(rng, bytes);
          let decoded: unknown;
          try {
            decoded = dec(input);
          } catch (err) {
            expect(err).toBeInstanceOf(CodecError);
            continue;
          }
          expect(enc(decoded)).toEqual(input);
        }
      },
      HEAVY_TIMEOUT_MS,
    );
  }
});
