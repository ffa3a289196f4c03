/** Pure-TS properties over thousands of seeded random transactions (cross-implementation ones are in native.test.ts). */
import { describe, expect, it } from "vitest";
import {
  CodecError,
  decodeTransaction,
  encodeTransaction,
  fromJson,
  signingHash,
  signingHashOfBytes,
  toJson,
} from "../src/index.ts";
import { mutate, Rng, randomTransaction } from "./gen.ts";

describe("round trips (seeded)", () => {
  it("decode(encode(tx)) = tx, fromJson(toJson(tx)) = tx, JSON survives text, hashes agree", () => {
    const rng = new Rng(0xc0ffee);
    for (let i = 0; i < 3000; i++) {
      const tx = randomTransaction(rng);
      const bytes = encodeTransaction(tx);
      expect(decodeTransaction(bytes)).toEqual(tx);
      const json = toJson(tx);
      expect(fromJson(JSON.parse(JSON.stringify(json)))).toEqual(tx);
      expect(signingHashOfBytes(bytes)).toEqual(signingHash(tx));
    }
  });

  it("mutated encodings are rejected with a CodecError or are canonical (re-encode equals input)", () => {
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
  });
});
