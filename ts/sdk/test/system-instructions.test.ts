/**
 * The validator-set System instructions (sub-types 2..=8, docs/codec.md §3): the documented
 * hex examples, strict decoding (short input, trailing bytes, wrong widths, unknown sub-type),
 * the JSON form, and the Rust codec's shared vectors (crates/codec/tests/vectors).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type CodecError,
  decodeInstruction,
  decodeTransaction,
  encodeInstruction,
  encodeTransaction,
  fromJson,
  type Instruction,
  instructionFromJson,
  parseHexLoose,
  signingHash,
  TxJsonError,
  toHexRaw,
  toJson,
} from "../src/index.ts";

const fill = (n: number, b: number) => new Uint8Array(n).fill(b);

const EXAMPLES: [Instruction, string][] = [
  [
    { kind: "registerValidator", blsKey: fill(48, 0x77), proofOfPossession: fill(96, 0x88), stake: 10_000n },
    `0002${"77".repeat(48)}${"88".repeat(96)}0000000000002710`,
  ],
  [{ kind: "exitValidator" }, "0003"],
  [{ kind: "withdrawStake" }, "0004"],
  [{ kind: "unjailValidator" }, "0005"],
  [{ kind: "submitEvidence", evidence: Uint8Array.of(0xab, 0xcd) }, "000602abcd"],
  [
    {
      kind: "sysCancelTimer",
      actor: fill(20, 0x55),
      timerId: fill(32, 0x66),
      epoch: 300n,
      signers: Uint8Array.of(0x07),
      signature: fill(96, 0x99),
    },
    `0007${"55".repeat(20)}${"66".repeat(32)}ac020107${"99".repeat(96)}`,
  ],
  [{ kind: "dkgLog", ceremony: 3n, log: Uint8Array.of(0xab, 0xcd) }, "0008000000000000000302abcd"],
];

const codeOf = (f: () => unknown): string => {
  try {
    f();
    return "ok";
  } catch (e) {
    return (e as CodecError).code ?? String(e);
  }
};

describe("System sub-types 2..=8", () => {
  it.each(EXAMPLES)("%o encodes to the documented bytes and back, strictly", (ix, hexs) => {
    const bytes = parseHexLoose(hexs);
    expect(toHexRaw(encodeInstruction(ix))).toBe(hexs);
    expect(decodeInstruction(bytes)).toEqual(ix);
    for (let cut = 2; cut < bytes.length; cut++) {
      expect(["UNEXPECTED_EOF", "LENGTH_OVERFLOW"]).toContain(
        codeOf(() => decodeInstruction(bytes.subarray(0, cut))),
      );
    }
    const long = new Uint8Array(bytes.length + 1);
    long.set(bytes);
    expect(codeOf(() => decodeInstruction(long))).toBe("TRAILING_BYTES");
  });

  it("refuses wrong widths when encoding and sub-type 9 when decoding", () => {
    expect(
      codeOf(() =>
        encodeInstruction({
          kind: "registerValidator",
          blsKey: fill(47, 1),
          proofOfPossession: fill(96, 1),
          stake: 1n,
        }),
      ),
    ).not.toBe("ok");
    expect(
      codeOf(() =>
        encodeInstruction({
          kind: "sysCancelTimer",
          actor: fill(20, 1),
          timerId: fill(32, 1),
          epoch: 0n,
          signers: new Uint8Array(0),
          signature: fill(95, 1),
        }),
      ),
    ).not.toBe("ok");
    expect(
      codeOf(() => encodeInstruction({ kind: "dkgLog", ceremony: 1n << 64n, log: new Uint8Array(0) })),
    ).not.toBe("ok");
    expect(codeOf(() => decodeInstruction(Uint8Array.of(0, 9)))).toBe("UNKNOWN_SUB_TYPE");
    expect(codeOf(() => decodeInstruction(Uint8Array.of(0, 0)))).toBe("UNKNOWN_SUB_TYPE");
  });

  it("has a strict JSON form", () => {
    for (const [ix] of EXAMPLES) {
      const tx = {
        ...decodeTransaction(
          parseHexLoose(
            "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
          ),
        ),
        instruction: ix,
      };
      const j = toJson(tx);
      expect(fromJson(JSON.parse(JSON.stringify(j)))).toEqual(tx);
      expect(decodeTransaction(encodeTransaction(tx))).toEqual(tx);
    }
    expect(
      toJson({
        ...decodeTransaction(encodeTransaction(sample())),
        instruction: EXAMPLES[0]?.[0] as Instruction,
      }).instruction,
    ).toEqual({
      kind: "registerValidator",
      blsKey: `0x${"77".repeat(48)}`,
      proofOfPossession: `0x${"88".repeat(96)}`,
      stake: "10000",
    });
    const bad: [unknown, string][] = [
      [{ kind: "exitValidator", x: 1 }, "instruction.x"],
      [
        { kind: "registerValidator", blsKey: "0x77", proofOfPossession: `0x${"88".repeat(96)}`, stake: "1" },
        "instruction.blsKey",
      ],
      [
        {
          kind: "sysCancelTimer",
          actor: `0x${"55".repeat(20)}`,
          timerId: `0x${"66".repeat(32)}`,
          epoch: "01",
          signers: "0x0b",
          signature: `0x${"99".repeat(96)}`,
        },
        "instruction.epoch",
      ],
      [{ kind: "submitEvidence" }, "instruction.evidence"],
      [{ kind: "dkgLog", ceremony: 3, log: "0xab" }, "instruction.ceremony"],
      [{ kind: "dkgLog", ceremony: "3", log: "0xab", extra: 1 }, "instruction.extra"],
    ];
    for (const [v, field] of bad) {
      let err: unknown = null;
      try {
        instructionFromJson(v);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TxJsonError);
      expect((err as TxJsonError).path).toBe(field);
    }
  });
});

function sample() {
  return decodeTransaction(
    parseHexLoose(
      "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    ),
  );
}

describe("the Rust codec's vectors (crates/codec/tests/vectors/codec-vectors.json)", () => {
  const v = JSON.parse(
    readFileSync(new URL("../../../crates/codec/tests/vectors/codec-vectors.json", import.meta.url), "utf8"),
  ) as {
    systemTransactions: { json: unknown; hex: string; signingHash: string }[];
    invalidSystemInstructions: { hex: string; code: string }[];
    dkgLogTransactions: { json: unknown; hex: string; signingHash: string }[];
    invalidDkgLogInstructions: { hex: string; code: string }[];
  };

  it("decodes, re-encodes and hashes every dealer-log transaction like Rust", () => {
    expect(v.dkgLogTransactions.length).toBe(8);
    for (const t of v.dkgLogTransactions) {
      const bytes = parseHexLoose(t.hex);
      const tx = decodeTransaction(bytes);
      expect(tx.instruction.kind).toBe("dkgLog");
      expect(toHexRaw(encodeTransaction(tx))).toBe(toHexRaw(bytes));
      expect(fromJson(t.json as Parameters<typeof fromJson>[0])).toEqual(tx);
      expect(toJson(tx).instruction).toEqual((t.json as { instruction: unknown }).instruction);
      expect(`0x${toHexRaw(signingHash(tx))}`).toBe(t.signingHash);
    }
    for (const b of v.invalidDkgLogInstructions) {
      expect(codeOf(() => decodeInstruction(parseHexLoose(b.hex)))).toBe(b.code);
    }
  });

  it("decodes, re-encodes and hashes every validator-set transaction like Rust", () => {
    expect(v.systemTransactions.length).toBe(24);
    const kinds = new Set<string>();
    for (const t of v.systemTransactions) {
      const bytes = parseHexLoose(t.hex);
      const tx = decodeTransaction(bytes);
      kinds.add(tx.instruction.kind);
      expect(toHexRaw(encodeTransaction(tx))).toBe(toHexRaw(bytes));
      expect(fromJson(t.json as Parameters<typeof fromJson>[0])).toEqual(tx);
      expect(`0x${toHexRaw(signingHash(tx))}`).toBe(t.signingHash);
    }
    expect(kinds.size).toBe(6);
  });

  it("rejects every broken encoding with Rust's code", () => {
    for (const b of v.invalidSystemInstructions) {
      expect(codeOf(() => decodeInstruction(parseHexLoose(b.hex)))).toBe(b.code);
    }
  });
});
