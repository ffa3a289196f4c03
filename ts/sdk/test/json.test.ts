/** The JSON form (docs/codec.md §8): strict input, exact output. */
import { describe, expect, it } from "vitest";
import { CodecError, fromJson, parseTxJson, type TxJson, TxJsonError, toJson } from "../src/index.ts";

const MINIMAL = {
  chainId: "42",
  nonce: "0",
  instruction: { kind: "transfer", to: "0x2222222222222222222222222222222222222222", amount: "1" },
  cyclesLimit: "50000",
  cellsLimit: "50000",
  maxFeePerCycle: "1",
  maxFeePerCell: "1",
  maxPriorityFeePerCycle: "0",
  maxPriorityFeePerCell: "0",
  from: "0x19E7E376E7C213B7E7E7E46CC70A5DD086DAFF2A",
};

const U64 = "expected a decimal u64 string (0..=18446744073709551615, no sign, no leading zeros)";

function jsonError(value: unknown): TxJsonError {
  try {
    fromJson(value);
  } catch (err) {
    if (err instanceof TxJsonError) return err;
    throw err;
  }
  throw new Error("expected a TxJsonError");
}

describe("fromJson", () => {
  it("fills the optional fields and prints lowercase hex", () => {
    const json: TxJson = toJson(fromJson(MINIMAL));
    expect(json.from).toBe("0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a");
    expect(json.metadata).toBe("0x");
    expect(json.accessList).toBeNull();
    expect(json.originTxHash).toBeNull();
    expect(json.signature).toBe(`0x${"00".repeat(65)}`);
    expect(json.additionalSigners).toEqual([]);
    expect(Object.keys(json)).toEqual([
      "chainId",
      "nonce",
      "instruction",
      "cyclesLimit",
      "cellsLimit",
      "maxFeePerCycle",
      "maxFeePerCell",
      "maxPriorityFeePerCycle",
      "maxPriorityFeePerCell",
      "from",
      "accessList",
      "metadata",
      "originTxHash",
      "originRemainingCycles",
      "originRemainingCells",
      "signature",
      "additionalSigners",
    ]);
  });

  it("rejects malformed values naming the path", () => {
    const cases: Array<[unknown, string]> = [
      [{ ...MINIMAL, nonce: 1 }, "nonce: expected a decimal u64 string"],
      [{ ...MINIMAL, nonce: "01" }, `nonce: ${U64}`],
      [{ ...MINIMAL, nonce: "-1" }, `nonce: ${U64}`],
      [{ ...MINIMAL, nonce: "18446744073709551616" }, `nonce: ${U64}`],
      [{ ...MINIMAL, instruction: { ...MINIMAL.instruction, amount: "1.5" } }, `instruction.amount: ${U64}`],
      [{ ...MINIMAL, from: "0x1234" }, "from: expected 20 bytes, found 2"],
      [
        { ...MINIMAL, from: "19e7e376e7c213b7e7e7e46cc70a5dd086daff2a" },
        "from: expected a 0x-prefixed hex string",
      ],
      [{ ...MINIMAL, metadata: "0xabc" }, "metadata: hex string has an odd number of digits"],
      [{ ...MINIMAL, extra: 1 }, "extra: unknown field"],
      [{ ...MINIMAL, instruction: { ...MINIMAL.instruction, memo: "x" } }, "instruction.memo: unknown field"],
      [
        { ...MINIMAL, instruction: { kind: "mint" } },
        'instruction.kind: unknown instruction kind "mint" (expected transfer, registerValidator, exitValidator, withdrawStake, unjailValidator, submitEvidence, sysCancelTimer, dkgLog, deploy, call, scheduleTimer, cancelTimer, custom or publishLibrary)',
      ],
      [
        { ...MINIMAL, instruction: { kind: "transfer", to: MINIMAL.instruction.to } },
        "instruction.amount: missing required field",
      ],
      [{ ...MINIMAL, chainId: undefined }, "chainId: missing required field"],
      [
        { ...MINIMAL, instruction: { kind: "custom", subType: 256, payload: "0x" } },
        "instruction.subType: expected a number 0..=255",
      ],
      [
        { ...MINIMAL, additionalSigners: [{ address: MINIMAL.from, signature: "0x00" }] },
        "additionalSigners[0].signature: expected 65 bytes, found 1",
      ],
      [[], "$: expected an object"],
      [{ ...MINIMAL, nonce: null }, "nonce: missing required field"],
      [{ ...MINIMAL, metadata: "0xzz" }, "metadata: invalid hex digit at offset 0"],
    ];
    for (const [value, message] of cases) {
      const e = jsonError(value);
      expect(e.message).toBe(message);
      expect(e.errCode).toBe("ERR_TX_JSON_FIELD");
    }
    expect(() => parseTxJson("{")).toThrow(TxJsonError);
  });

  it("applies the codec's field rules", () => {
    const timer = {
      ...MINIMAL,
      instruction: {
        kind: "scheduleTimer",
        actor: MINIMAL.from,
        fireAtHeight: "1",
        handler: "tick",
        data: "0x",
        interval: "0",
      },
    };
    let err: unknown;
    try {
      fromJson(timer);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CodecError);
    expect((err as CodecError).code).toBe("INVALID_INTERVAL");
    expect(() => fromJson({ ...timer, instruction: { ...timer.instruction, interval: null } })).not.toThrow();
    expect(() => fromJson({ ...timer, instruction: { ...timer.instruction, interval: undefined } })).toThrow(
      "instruction.interval: missing required field (use null for a one-shot timer)",
    );
  });
});
