import { describe, expect, it } from "vitest";
import {
  CborError,
  CborFloat,
  type CborInput,
  type CborMap,
  CborSet,
  type CborValue,
  decodeCbor,
  encodeCbor,
} from "../src/cbor.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

describe("canonical CBOR: known encodings (RFC 8949 Appendix A where they agree)", () => {
  const cases: Array<[CborInput, string]> = [
    [0, "00"],
    [23, "17"],
    [24, "1818"],
    [100, "1864"],
    [1000, "1903e8"],
    [1000000, "1a000f4240"],
    [1000000000000, "1b000000e8d4a51000"],
    [18446744073709551615n, "1bffffffffffffffff"],
    [18446744073709551616n, "c249010000000000000000"],
    [-18446744073709551616n, "3bffffffffffffffff"],
    [-18446744073709551617n, "c349010000000000000000"],
    [-1, "20"],
    [-1000, "3903e7"],
    [new CborFloat(1.1), "fb3ff199999999999a"],
    [new CborFloat(1), "fb3ff0000000000000"],
    [new CborFloat(Number.NaN), "fb7ff8000000000000"],
    [new CborFloat(-0), "fb8000000000000000"],
    [false, "f4"],
    [true, "f5"],
    [null, "f6"],
    [new Uint8Array(), "40"],
    [bytes("01020304"), "4401020304"],
    ["", "60"],
    ["a", "6161"],
    ["ü", "62c3bc"],
    [[], "80"],
    [[1, 2, 3], "83010203"],
    [{ a: 1, b: [2, 3] }, "a26161016162820203"],
    // keys sorted by encoded bytes: 0x0a < 0x1864 < 0x20 < 0x61..
    [
      new Map<CborInput, CborInput>([
        ["a", 1],
        [-1, 2],
        [100, 3],
        [10, 4],
      ]),
      "a40a0418640320026161 01".replace(" ", ""),
    ],
    [new CborSet([3, 1, 2]), "d9010283010203"],
  ];
  for (const [value, want] of cases) {
    it(`${want}`, () => {
      expect(hex(encodeCbor(value))).toBe(want);
      expect(hex(encodeCbor(decodeCbor(bytes(want)) as CborInput))).toBe(want);
    });
  }
});

describe("canonical CBOR: the decoder refuses every other form", () => {
  const bad: Array<[string, string]> = [
    ["1817", "CBOR_NON_CANONICAL"], // 23 in two bytes
    ["190017", "CBOR_NON_CANONICAL"],
    ["1b0000000000000001", "CBOR_NON_CANONICAL"],
    ["c24101", "CBOR_NON_CANONICAL"], // bignum for 1
    ["c249000000000000000001", "CBOR_NON_CANONICAL"], // leading zero
    ["5f4101ff", "CBOR_INDEFINITE_LENGTH"],
    ["9f01ff", "CBOR_INDEFINITE_LENGTH"],
    ["f93c00", "CBOR_UNSUPPORTED"], // float16
    ["fa3f800000", "CBOR_UNSUPPORTED"], // float32
    ["fb7ff8000000000001", "CBOR_NON_CANONICAL"], // NaN payload
    ["f7", "CBOR_UNSUPPORTED"], // undefined
    ["c11a514b67b0", "CBOR_UNSUPPORTED"], // tag 1
    ["a2616201616102", "CBOR_UNSORTED_KEYS"],
    ["a2616101616102", "CBOR_DUPLICATE_KEY"],
    ["d901028202", "CBOR_UNEXPECTED_EOF"],
    ["d901028202 01".replace(" ", ""), "CBOR_UNSORTED_KEYS"],
    ["62c3", "CBOR_UNEXPECTED_EOF"],
    ["62c328", "CBOR_INVALID_UTF8"],
    ["0000", "CBOR_TRAILING_BYTES"],
    ["", "CBOR_UNEXPECTED_EOF"],
    ["9a7fffffff", "CBOR_UNEXPECTED_EOF"],
    ["9b00000000ffffffff", "CBOR_NON_CANONICAL"],
    ["1c", "CBOR_UNSUPPORTED"],
  ];
  for (const [input, code] of bad) {
    it(`${input || "(empty)"} → ${code}`, () => {
      try {
        decodeCbor(bytes(input));
        expect.unreachable("accepted");
      } catch (err) {
        expect(err).toBeInstanceOf(CborError);
        expect((err as CborError).code).toBe(code);
      }
    });
  }

  it("refuses nesting deeper than 64 and integers over 4096 bits", () => {
    expect(() => decodeCbor(bytes(`${"81".repeat(70)}00`))).toThrow(/deeper/);
    expect(() => encodeCbor(1n << 5000n)).toThrow(/4096/);
    expect(() => encodeCbor(0.5 as number)).toThrow(/safe integer/);
  });
});

/** A seeded generator of random values. */
function* randomValues(seed: number, count: number): Generator<CborInput> {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const gen = (depth: number): CborInput => {
    const kind = Math.floor(next() * (depth > 3 ? 7 : 10));
    switch (kind) {
      case 0:
        return null;
      case 1:
        return next() < 0.5;
      case 2: {
        const bits = BigInt(Math.floor(next() * 200));
        const v = BigInt(Math.floor(next() * 2 ** 52)) << (bits > 52n ? bits - 52n : 0n);
        return next() < 0.5 ? v : -v - 1n;
      }
      case 3:
        return new CborFloat((next() - 0.5) * 10 ** Math.floor(next() * 40 - 20));
      case 4:
        return Array.from({ length: Math.floor(next() * 6) }, () =>
          String.fromCodePoint(32 + Math.floor(next() * 1200)),
        ).join("");
      case 5:
        return Uint8Array.from({ length: Math.floor(next() * 10) }, () => Math.floor(next() * 256));
      case 6:
        return Math.floor(next() * 1000) - 500;
      case 7:
        return Array.from({ length: Math.floor(next() * 4) }, () => gen(depth + 1));
      case 8: {
        const m = new Map<CborInput, CborInput>();
        for (let i = Math.floor(next() * 4); i > 0; i--)
          m.set(`k${Math.floor(next() * 100)}`, gen(depth + 1));
        return m;
      }
      default:
        return new CborSet([
          ...new Set(Array.from({ length: Math.floor(next() * 4) }, () => Math.floor(next() * 50))),
        ]);
    }
  };
  for (let i = 0; i < count; i++) yield gen(0);
}

describe("canonical CBOR: properties", () => {
  it("encode(decode(encode(x))) = encode(x) for thousands of random values", () => {
    for (const v of randomValues(7, 3000)) {
      const b = encodeCbor(v);
      const d: CborValue = decodeCbor(b);
      expect(hex(encodeCbor(d as CborInput))).toBe(hex(b));
    }
  });

  it("mutated encodings are either refused or re-encode to themselves", () => {
    let s = 99;
    const rnd = (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s % n;
    };
    let accepted = 0;
    for (const v of randomValues(3, 800)) {
      const b = encodeCbor(v);
      for (let k = 0; k < 12; k++) {
        const m = Uint8Array.from(b);
        const op = rnd(3);
        if (op === 0 && m.length > 0) {
          const i = rnd(m.length);
          m[i] = (m[i] as number) ^ (1 << rnd(8));
        }
        const input =
          op === 1 ? m.subarray(0, rnd(m.length + 1)) : op === 2 ? Uint8Array.from([...m, rnd(256)]) : m;
        try {
          const d = decodeCbor(input);
          expect(hex(encodeCbor(d as CborInput))).toBe(hex(input));
          accepted++;
        } catch (err) {
          expect(err).toBeInstanceOf(CborError);
        }
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it("maps look up keys by canonical value", () => {
    const m = decodeCbor(encodeCbor({ b: 2, a: 1 })) as CborMap;
    expect(m.get("a")).toBe(1n);
    expect(m.entries.map(([k]) => k)).toEqual(["a", "b"]);
  });
});
