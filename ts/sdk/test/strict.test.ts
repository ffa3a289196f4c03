/** The strict decoder: every rule of docs/codec.md §1–§3 and §7 rejects with its code and names the field. */
import { describe, expect, it } from "vitest";
import {
  CodecError,
  decodeInstruction,
  decodeTransaction,
  encodeInstruction,
  encodeTransaction,
  fromHex,
  MAX_TX_SIZE,
  parseHexLoose,
  Reader,
  type Transaction,
  toHexRaw,
  utf8,
} from "../src/index.ts";

const VECTOR_1 = parseHexLoose(
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
);

function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return err;
    throw err;
  }
  throw new Error("expected a CodecError, but the call succeeded");
}

function splice(bytes: Uint8Array, at: number, remove: number, insert: number[]): Uint8Array {
  return Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at + remove)]);
}

function baseTx(): Transaction {
  return decodeTransaction(VECTOR_1);
}

describe("varints", () => {
  const read = (hex: string) => new Reader(parseHexLoose(hex)).varint("f");
  it("rejects a redundant zero group", () => {
    for (const hex of ["8000", "ff00", "808000", "ffffffffffffffffff00"]) {
      const e = codecError(() => read(hex));
      expect(e.code).toBe("NON_MINIMAL_VARINT");
      expect(e.message).toBe("f: non-minimal varint (redundant zero group)");
    }
  });
  it("rejects bits beyond 64 and an 11th byte", () => {
    for (const hex of [
      "ffffffffffffffffff02",
      "ffffffffffffffffff7f",
      "ffffffffffffffffff8101",
      "80808080808080808080",
    ]) {
      expect(codecError(() => read(hex)).code).toBe("VARINT_OVERFLOW");
    }
  });
  it("accepts 2^64-1 and zero continuation bytes in the middle", () => {
    expect(read("ffffffffffffffffff01")).toBe(2n ** 64n - 1n);
    expect(read("808001")).toBe(16384n);
  });
  it("reports an unterminated varint as end of input", () => {
    expect(codecError(() => read("ff")).code).toBe("UNEXPECTED_EOF");
    expect(codecError(() => read("")).code).toBe("UNEXPECTED_EOF");
  });
  it("lengths are u32 varints (5th byte at most 0x0f) and must fit the remaining input", () => {
    expect(codecError(() => new Reader(parseHexLoose("ffffffff10")).len("l")).code).toBe("VARINT_OVERFLOW");
    expect(codecError(() => new Reader(parseHexLoose("8080808000")).len("l")).code).toBe(
      "NON_MINIMAL_VARINT",
    );
    const e = codecError(() => new Reader(parseHexLoose("ffffffff0f")).len("l"));
    expect(e.code).toBe("LENGTH_OVERFLOW");
    expect(e.message).toBe("l: length prefix 4294967295 exceeds the 0 bytes of remaining input");
    expect(new Reader(parseHexLoose("02aabb")).bytes("b")).toEqual(Uint8Array.of(0xaa, 0xbb));
  });
});

describe("transaction", () => {
  it("rejects a non-minimal nonce naming the field", () => {
    const e = codecError(() => decodeTransaction(splice(VECTOR_1, 1, 1, [0x80, 0x00])));
    expect(e.code).toBe("NON_MINIMAL_VARINT");
    expect(e.field).toBe("nonce");
  });
  it("rejects trailing bytes", () => {
    const e = codecError(() => decodeTransaction(Uint8Array.from([...VECTOR_1, 0])));
    expect(e.code).toBe("TRAILING_BYTES");
    expect(e.message).toBe("transaction: 1 trailing bytes after the value");
  });
  it("rejects every truncation with UNEXPECTED_EOF or LENGTH_OVERFLOW", () => {
    for (let n = 0; n < VECTOR_1.length; n++) {
      const code = codecError(() => decodeTransaction(VECTOR_1.subarray(0, n))).code;
      expect(["UNEXPECTED_EOF", "LENGTH_OVERFLOW"]).toContain(code);
    }
  });
  it("rejects option tags other than 0/1", () => {
    // access_list tag sits right after `from` (offset 2+2+28+6+4+20 = 62).
    const at = VECTOR_1.length - 1 - 65 - 3 - 1 - 1;
    expect(VECTOR_1[at]).toBe(0);
    const e = codecError(() => decodeTransaction(splice(VECTOR_1, at, 1, [2])));
    expect(e.code).toBe("INVALID_OPTION_TAG");
    expect(e.field).toBe("access_list");
    expect(e.message).toBe("access_list: option tag must be 0x00 or 0x01, found 0x02");
  });
  it("rejects unknown categories and sub_types", () => {
    expect(codecError(() => decodeTransaction(splice(VECTOR_1, 2, 1, [4]))).code).toBe("UNKNOWN_CATEGORY");
    expect(codecError(() => decodeTransaction(splice(VECTOR_1, 3, 1, [9]))).code).toBe("UNKNOWN_SUB_TYPE");
    expect(codecError(() => decodeInstruction(Uint8Array.of(1, 0))).code).toBe("UNKNOWN_SUB_TYPE");
    expect(codecError(() => decodeInstruction(Uint8Array.of(1, 5))).code).toBe("UNKNOWN_SUB_TYPE");
    expect(codecError(() => decodeInstruction(Uint8Array.of(3, 2))).code).toBe("UNKNOWN_SUB_TYPE");
    // The sub_type byte is read before the category is judged (as in Rust).
    expect(codecError(() => decodeInstruction(Uint8Array.of(9))).code).toBe("UNEXPECTED_EOF");
  });
  it("rejects additional signers that are not strictly ascending", () => {
    const sig = new Uint8Array(65);
    const a = new Uint8Array(20).fill(1);
    const b = new Uint8Array(20).fill(2);
    const ok = encodeTransaction({
      ...baseTx(),
      additionalSigners: [
        { address: a, signature: sig },
        { address: b, signature: sig },
      ],
    });
    expect(decodeTransaction(ok).additionalSigners).toHaveLength(2);
    // Swap the two entries, then duplicate the first.
    const swapped = Uint8Array.from(ok);
    swapped.set(b, ok.length - 170);
    swapped.set(a, ok.length - 85);
    const e = codecError(() => decodeTransaction(swapped));
    expect(e.code).toBe("SIGNERS_NOT_ASCENDING");
    expect(e.message).toBe("additional_signers[1].address: signers must be strictly ascending by address");
    const dup = Uint8Array.from(ok);
    dup.set(a, ok.length - 85);
    expect(codecError(() => decodeTransaction(dup)).code).toBe("SIGNERS_NOT_ASCENDING");
    expect(
      codecError(() =>
        encodeTransaction({
          ...baseTx(),
          additionalSigners: [
            { address: b, signature: sig },
            { address: a, signature: sig },
          ],
        }),
      ).code,
    ).toBe("SIGNERS_NOT_ASCENDING");
  });
  it("rejects a signer count that cannot fit the remaining input", () => {
    const bytes = Uint8Array.from(VECTOR_1);
    bytes[bytes.length - 1] = 1;
    const e = codecError(() => decodeTransaction(bytes));
    expect(e.code).toBe("LENGTH_OVERFLOW");
    expect(e.field).toBe("additional_signers");
  });
  it("enforces MAX_TX_SIZE on both sides, before decoding", () => {
    const base = encodeTransaction(baseTx()).length;
    // metadata length prefix grows from 1 to 3 bytes for these sizes.
    const fits = { ...baseTx(), metadata: new Uint8Array(MAX_TX_SIZE - base - 2) };
    expect(encodeTransaction(fits).length).toBe(MAX_TX_SIZE);
    const over = { ...baseTx(), metadata: new Uint8Array(MAX_TX_SIZE - base - 1) };
    expect(codecError(() => encodeTransaction(over)).code).toBe("TX_TOO_LARGE");
    const e = codecError(() => decodeTransaction(new Uint8Array(MAX_TX_SIZE + 1).fill(0xff)));
    expect(e.code).toBe("TX_TOO_LARGE");
    expect(e.message).toBe("transaction: encoding is 131073 bytes, more than MAX_TX_SIZE = 131072");
  });
  it("refuses unrepresentable in-memory values with INVALID_VALUE", () => {
    expect(codecError(() => encodeTransaction({ ...baseTx(), nonce: -1n })).code).toBe("INVALID_VALUE");
    expect(codecError(() => encodeTransaction({ ...baseTx(), nonce: 2n ** 64n })).code).toBe("INVALID_VALUE");
    expect(codecError(() => encodeTransaction({ ...baseTx(), from: new Uint8Array(19) })).field).toBe("from");
    expect(codecError(() => encodeTransaction({ ...baseTx(), signature: new Uint8Array(64) })).field).toBe(
      "signature",
    );
  });
});

describe("instruction field rules", () => {
  const call = (handler: string) => {
    const name = utf8(handler);
    return Uint8Array.from([1, 2, ...new Uint8Array(20), name.length, ...name, 0, ...new Uint8Array(8)]);
  };
  it("handlers: 1..=64 byte ASCII identifiers", () => {
    for (const ok of ["a", "_", "increment", "A_9", "x".repeat(64)])
      expect(decodeInstruction(call(ok)).kind).toBe("call");
    for (const bad of ["", "9a", "a-b", "a b", "x".repeat(65), "é"]) {
      const e = codecError(() => decodeInstruction(call(bad)));
      expect(e.code).toBe("INVALID_HANDLER");
      expect(e.field).toBe("instruction.handler");
    }
    const e = codecError(() =>
      encodeInstruction({
        kind: "call",
        to: new Uint8Array(20),
        handler: "1x",
        args: new Uint8Array(0),
        value: 0n,
      }),
    );
    expect(e.code).toBe("INVALID_HANDLER");
  });
  it("strings must be UTF-8 (checked before the handler rule)", () => {
    const bad = Uint8Array.from([1, 2, ...new Uint8Array(20), 2, 0xc3, 0x28, 0, ...new Uint8Array(8)]);
    expect(codecError(() => decodeInstruction(bad)).code).toBe("INVALID_UTF8");
  });
  it("library names: 1..=64 bytes of [a-z_][a-z0-9_]*", () => {
    const publish = (name: string) => Uint8Array.from([3, 1, name.length, ...utf8(name), 1, 0]);
    expect(decodeInstruction(publish("math_utils"))).toMatchObject({
      kind: "publishLibrary",
      name: "math_utils",
    });
    for (const bad of ["", "Math", "1x", "a-b"]) {
      expect(codecError(() => decodeInstruction(publish(bad))).code).toBe("INVALID_LIBRARY_NAME");
    }
  });
  it("timer interval: absent or ≥ 1", () => {
    const timer = (tail: number[]) =>
      Uint8Array.from([1, 3, ...new Uint8Array(20), 5, 4, ...utf8("tick"), 0, ...tail]);
    expect(decodeInstruction(timer([0]))).toMatchObject({ interval: null });
    expect(decodeInstruction(timer([1, 1]))).toMatchObject({ interval: 1n });
    const e = codecError(() => decodeInstruction(timer([1, 0])));
    expect(e.code).toBe("INVALID_INTERVAL");
    expect(e.field).toBe("instruction.interval");
    expect(codecError(() => decodeInstruction(timer([2]))).code).toBe("INVALID_OPTION_TAG");
  });
  it("deploy and publish sources must be canonical", () => {
    const deploy = (src: number[]) =>
      Uint8Array.from([1, 1, src.length, ...src, ...new Uint8Array(32), 0, ...new Uint8Array(8)]);
    expect(decodeInstruction(deploy([...utf8("x = 1\n")])).kind).toBe("deploy");
    const cases: Array<[number[], string]> = [
      [[0xff], "SOURCE_NOT_UTF8"],
      [[0xef, 0xbb, 0xbf, 0x78], "SOURCE_HAS_BOM"],
      [[...utf8("x = 1\r\n")], "SOURCE_HAS_CR"],
      [[...utf8("x = 'cafe\u0301'\n")], "SOURCE_NOT_NFC"],
    ];
    for (const [src, code] of cases) {
      const e = codecError(() => decodeInstruction(deploy(src)));
      expect(e.code).toBe(code);
      expect(e.field).toBe("instruction.source");
    }
  });
  it("custom accepts every sub_type", () => {
    for (let st = 0; st < 256; st++) {
      const bytes = encodeInstruction({ kind: "custom", subType: st, payload: fromHex("0x01") });
      expect(toHexRaw(bytes)).toBe(`02${st.toString(16).padStart(2, "0")}0101`);
      expect(decodeInstruction(bytes)).toEqual({ kind: "custom", subType: st, payload: Uint8Array.of(1) });
    }
  });
});
