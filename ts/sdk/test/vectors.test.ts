/** Appendix A of the spec (normative byte vectors) and the examples of docs/codec.md §1 and §3. */
import { describe, expect, it } from "vitest";
import {
  addressFromSecretKey,
  decodeInstruction,
  decodeTransaction,
  encodeInstruction,
  encodeTransaction,
  fromHex,
  fromJson,
  type Instruction,
  parseHexLoose,
  Reader,
  recoverSigner,
  signingHash,
  signingHashOfBytes,
  signTransaction,
  type Transaction,
  toHex,
  toHexRaw,
  toJson,
  utf8,
  verifyTransaction,
  Writer,
} from "../src/index.ts";

const VECTOR_1 =
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";
const VECTOR_2 =
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100";
const SIGNING_HASH = "203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a";
const KEY = new Uint8Array(32).fill(0x11);
const FROM = "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a";

function vectorTx(): Transaction {
  return {
    chainId: 42n,
    nonce: 0n,
    instruction: { kind: "transfer", to: new Uint8Array(20).fill(0x22), amount: 1n },
    cyclesLimit: 50_000n,
    cellsLimit: 50_000n,
    maxFeePerCycle: 1n,
    maxFeePerCell: 1n,
    maxPriorityFeePerCycle: 0n,
    maxPriorityFeePerCell: 0n,
    from: fromHex(FROM),
    accessList: null,
    metadata: new Uint8Array(0),
    originTxHash: null,
    originRemainingCycles: null,
    originRemainingCells: null,
    signature: new Uint8Array(65),
    additionalSigners: [],
  };
}

describe("Appendix A", () => {
  it("key 0x11…11 has the address of the vectors", () => {
    expect(toHex(addressFromSecretKey(KEY))).toBe(FROM);
  });

  it("Vector 1 (unsigned) encodes byte for byte and has the normative signing hash", () => {
    const bytes = encodeTransaction(vectorTx());
    expect(toHexRaw(bytes)).toBe(VECTOR_1);
    expect(toHexRaw(signingHash(vectorTx()))).toBe(SIGNING_HASH);
    expect(toHexRaw(signingHashOfBytes(bytes))).toBe(SIGNING_HASH);
  });

  it("Vector 1 decodes back to the transaction", () => {
    expect(decodeTransaction(parseHexLoose(VECTOR_1))).toEqual(vectorTx());
  });

  it("Vector 2 is Vector 1 signed with key 0x11…11 (RFC 6979, low-S, v = 1)", () => {
    const signed = signTransaction(vectorTx(), KEY);
    expect(toHexRaw(encodeTransaction(signed))).toBe(VECTOR_2);
    expect(signed.signature[64]).toBe(1);
    expect(toHexRaw(signingHash(signed))).toBe(SIGNING_HASH); // identity is signature-independent
    expect(toHexRaw(signingHashOfBytes(parseHexLoose(VECTOR_2)))).toBe(SIGNING_HASH);
  });

  it("Vector 2 decodes, verifies and recovers the signer", () => {
    const tx = decodeTransaction(parseHexLoose(VECTOR_2));
    expect(verifyTransaction(tx)).toBe(true);
    expect(toHex(recoverSigner(tx))).toBe(FROM);
    expect(verifyTransaction(vectorTx())).toBe(false);
  });

  it("the JSON example of docs/codec.md §8 is Vector 2", () => {
    const json = {
      chainId: "42",
      nonce: "0",
      instruction: { kind: "transfer", to: "0x2222222222222222222222222222222222222222", amount: "1" },
      cyclesLimit: "50000",
      cellsLimit: "50000",
      maxFeePerCycle: "1",
      maxFeePerCell: "1",
      maxPriorityFeePerCycle: "0",
      maxPriorityFeePerCell: "0",
      from: FROM,
      accessList: null,
      metadata: "0x",
      originTxHash: null,
      originRemainingCycles: null,
      originRemainingCells: null,
      signature:
        "0xf0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b01",
      additionalSigners: [],
      signingHash: `0x${SIGNING_HASH}`,
    };
    const tx = fromJson(json);
    expect(toHexRaw(encodeTransaction(tx))).toBe(VECTOR_2);
    expect(toJson(tx, signingHash(tx))).toEqual(json);
  });
});

describe("docs/codec.md §1 varint examples", () => {
  const cases: Array<[bigint, string]> = [
    [0n, "00"],
    [127n, "7f"],
    [128n, "8001"],
    [300n, "ac02"],
    [50_000n, "d08603"],
    [2n ** 64n - 1n, "ffffffffffffffffff01"],
  ];
  for (const [value, hex] of cases) {
    it(`varint(${value}) = ${hex}`, () => {
      const w = new Writer();
      w.varint(value, "v");
      expect(toHexRaw(w.finish())).toBe(hex);
      const r = new Reader(parseHexLoose(hex));
      expect(r.varint("v")).toBe(value);
      r.finish("v");
    });
  }
});

describe("docs/codec.md §3 instruction examples", () => {
  const h = (s: string) => s.replace(/ /g, "");
  const b = (byte: number, n: number) => new Uint8Array(n).fill(byte);
  const cases: Array<[string, Instruction, string]> = [
    [
      "transfer",
      { kind: "transfer", to: b(0x22, 20), amount: 1n },
      h("0001 2222222222222222222222222222222222222222 0000000000000001"),
    ],
    [
      "deploy",
      { kind: "deploy", source: utf8("x = 1\n"), salt: b(0x33, 32), initArgs: new Uint8Array(0), value: 0n },
      h(
        "0101 06 78203d20310a 3333333333333333333333333333333333333333333333333333333333333333 00 0000000000000000",
      ),
    ],
    [
      "call",
      { kind: "call", to: b(0x44, 20), handler: "increment", args: Uint8Array.of(0x80), value: 5n },
      h("0102 4444444444444444444444444444444444444444 09 696e6372656d656e74 01 80 0000000000000005"),
    ],
    [
      "scheduleTimer",
      {
        kind: "scheduleTimer",
        actor: b(0x55, 20),
        fireAtHeight: 300n,
        handler: "tick",
        data: new Uint8Array(0),
        interval: 10n,
      },
      h("0103 5555555555555555555555555555555555555555 ac02 04 7469636b 00 01 0a"),
    ],
    [
      "scheduleTimer one-shot",
      {
        kind: "scheduleTimer",
        actor: b(0x55, 20),
        fireAtHeight: 300n,
        handler: "tick",
        data: new Uint8Array(0),
        interval: null,
      },
      h("0103 5555555555555555555555555555555555555555 ac02 04 7469636b 00 00"),
    ],
    [
      "cancelTimer",
      { kind: "cancelTimer", actor: b(0x55, 20), timerId: b(0x66, 32) },
      h(
        "0104 5555555555555555555555555555555555555555 6666666666666666666666666666666666666666666666666666666666666666",
      ),
    ],
    ["custom", { kind: "custom", subType: 7, payload: fromHex("0xdeadbeef") }, h("0207 04 deadbeef")],
    [
      "publishLibrary",
      { kind: "publishLibrary", name: "math_utils", version: 1n, source: utf8("X = 2\n") },
      h("0301 0a 6d6174685f7574696c73 01 06 58203d20320a"),
    ],
  ];
  for (const [name, ix, hex] of cases) {
    it(name, () => {
      expect(toHexRaw(encodeInstruction(ix))).toBe(hex);
      expect(decodeInstruction(parseHexLoose(hex))).toEqual(ix);
    });
  }
});
