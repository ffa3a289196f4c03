/** Rounds, headers, blocks, receipts, certificates and Merkle roots (docs/codec.md §5). */
import { describe, expect, it } from "vitest";
import {
  type Block,
  type BlockHeader,
  blockFromJson,
  blockHash,
  blockToJson,
  CodecError,
  certificateFromJson,
  certificateToJson,
  compareRounds,
  decodeBlock,
  decodeBlockHeader,
  decodeCertificate,
  decodeReceipt,
  decodeRound,
  decodeTransaction,
  encodeBlock,
  encodeBlockHeader,
  encodeCertificate,
  encodeReceipt,
  encodeRound,
  headerFromJson,
  headerToJson,
  keccak256,
  MAX_TX_SIZE,
  merkleLeaf,
  merkleNode,
  merkleRoot,
  parseHexLoose,
  type Receipt,
  receiptFromJson,
  receiptHash,
  receiptsRoot,
  receiptToJson,
  signingHash,
  toHex,
  toHexRaw,
  txRoot,
} from "../src/index.ts";

const VECTOR_2 = parseHexLoose(
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100",
);

function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return err;
    throw err;
  }
  throw new Error("expected a CodecError");
}

const item = (b: number) => new Uint8Array(32).fill(b);

function header(): BlockHeader {
  return {
    parent: item(1),
    height: 7n,
    round: { epoch: 0n, view: 300n },
    proposer: new Uint8Array(20).fill(2),
    timestampMs: 1_700_000_000_000n,
    stateRoot: item(3),
    txRoot: item(4),
    receiptsRoot: item(5),
    cycleBasefee: 10_000n,
    cellBasefee: 10_000n,
    cyclesUsed: 0n,
    cellsUsed: 0n,
    parentSeed: new Uint8Array(0),
  };
}

describe("rounds", () => {
  it("encode as two varints and order epoch first", () => {
    expect(toHexRaw(encodeRound({ epoch: 1n, view: 300n }))).toBe("01ac02");
    expect(decodeRound(parseHexLoose("01ac02"))).toEqual({ epoch: 1n, view: 300n });
    expect(compareRounds({ epoch: 1n, view: 0n }, { epoch: 0n, view: 99n })).toBeGreaterThan(0);
    expect(compareRounds({ epoch: 1n, view: 2n }, { epoch: 1n, view: 3n })).toBeLessThan(0);
  });
});

describe("headers and blocks", () => {
  it("header layout and hash", () => {
    const bytes = encodeBlockHeader(header());
    const hex = toHexRaw(bytes);
    expect(hex.startsWith(`${"01".repeat(32)}0700ac02${"02".repeat(20)}`)).toBe(true);
    expect(hex.endsWith("904e904e000000")).toBe(true);
    expect(decodeBlockHeader(bytes)).toEqual(header());
    expect(blockHash(header())).toEqual(keccak256(bytes));
    expect(codecError(() => decodeBlockHeader(bytes.subarray(0, 32))).field).toBe("height");
  });

  it("blocks carry transactions inline; errors name the transaction", () => {
    const block: Block = {
      header: header(),
      transactions: [decodeTransaction(VECTOR_2), decodeTransaction(VECTOR_2)],
    };
    const bytes = encodeBlock(block);
    expect(bytes.length).toBe(encodeBlockHeader(header()).length + 1 + 2 * VECTOR_2.length);
    expect(decodeBlock(bytes)).toEqual(block);
    const empty = encodeBlock({ header: header(), transactions: [] });
    expect(decodeBlock(empty).transactions).toEqual([]);
    const broken = Uint8Array.from(bytes);
    const second = bytes.length - VECTOR_2.length;
    broken[second + 1] = 0x80; // nonce of transactions[1] becomes an unterminated/non-minimal varint
    broken[second + 2] = 0x00;
    const e = codecError(() => decodeBlock(broken));
    expect(e.code).toBe("NON_MINIMAL_VARINT");
    expect(e.field).toBe("transactions[1].nonce");
    expect(codecError(() => decodeBlock(Uint8Array.from([...empty.subarray(0, -1), 5]))).code).toBe(
      "LENGTH_OVERFLOW",
    );
  });

  it("a transaction inside a block may not run past MAX_TX_SIZE", () => {
    const tx = decodeTransaction(VECTOR_2);
    const big = { ...tx, metadata: new Uint8Array(MAX_TX_SIZE) };
    const w = encodeBlock({ header: header(), transactions: [tx] });
    expect(() => encodeBlock({ header: header(), transactions: [big] })).toThrow(CodecError);
    // Hand-build a block whose only transaction declares a metadata length beyond the window.
    const prefix = encodeBlockHeader(header()).length + 1;
    const txBytes = w.subarray(prefix);
    // Offset of metadata's length: chain_id, nonce (2) + instruction (30) + limits/fees (10) + from (20) + access_list tag (1).
    const metaAt = 2 + 30 + 10 + 20 + 1;
    const raw = Uint8Array.from([
      ...w.subarray(0, prefix),
      ...txBytes.subarray(0, metaAt),
      0x80,
      0x80,
      0x08, // metadata length 131072
      ...new Uint8Array(MAX_TX_SIZE + 100),
    ]);
    expect(txBytes[metaAt]).toBe(0); // metadata length of Vector 2
    expect(codecError(() => decodeBlock(raw)).code).toBe("TX_TOO_LARGE");
  });
});

describe("receipts and certificates", () => {
  const receipt: Receipt = {
    txHash: signingHash(decodeTransaction(VECTOR_2)),
    status: "reverted",
    cyclesUsed: 21_000n,
    cellsUsed: 100n,
    feePaid: 2n ** 63n,
    returnData: Uint8Array.of(1, 2),
    error: "ValueError: nope \ufeff",
    events: [{ emitter: new Uint8Array(20).fill(9), topic: Uint8Array.of(0x74), data: new Uint8Array(0) }],
  };

  it("receipts round-trip; unknown status is UNKNOWN_VARIANT", () => {
    const bytes = encodeReceipt(receipt);
    expect(decodeReceipt(bytes)).toEqual(receipt);
    expect(receiptHash(receipt)).toEqual(keccak256(bytes));
    const bad = Uint8Array.from(bytes);
    bad[32] = 5;
    const e = codecError(() => decodeReceipt(bad));
    expect(e.code).toBe("UNKNOWN_VARIANT");
    expect(e.message).toBe("status: unknown discriminant 5");
    const trunc = bytes.subarray(0, bytes.length - 1);
    expect(codecError(() => decodeReceipt(trunc)).field).toBe("events[0].data");
  });

  it("certificates round-trip; unknown kind is UNKNOWN_VARIANT", () => {
    const cert = {
      kind: "finalize" as const,
      blockHash: item(7),
      height: 9n,
      round: { epoch: 0n, view: 9n },
      aggregatedSignature: new Uint8Array(96).fill(1),
      signerBitmap: Uint8Array.of(0b1011),
    };
    const bytes = encodeCertificate(cert);
    expect(bytes[0]).toBe(2);
    expect(decodeCertificate(bytes)).toEqual(cert);
    expect(codecError(() => decodeCertificate(Uint8Array.from([3, ...bytes.subarray(1)]))).code).toBe(
      "UNKNOWN_VARIANT",
    );
  });
});

describe("merkle root", () => {
  it("small trees by hand: domain-separated, odd node promoted", () => {
    const [a, b, c, d, e] = [item(1), item(2), item(3), item(4), item(5)];
    expect(merkleRoot([])).toEqual(new Uint8Array(32));
    expect(merkleRoot([a])).toEqual(merkleLeaf(a));
    expect(merkleLeaf(a)).toEqual(keccak256(Uint8Array.from([0, ...a])));
    const ab = merkleNode(merkleLeaf(a), merkleLeaf(b));
    expect(ab).toEqual(keccak256(Uint8Array.from([1, ...merkleLeaf(a), ...merkleLeaf(b)])));
    expect(merkleRoot([a, b])).toEqual(ab);
    expect(merkleRoot([a, b, c])).toEqual(merkleNode(ab, merkleLeaf(c)));
    expect(merkleRoot([a, b, c])).not.toEqual(merkleRoot([a, b, c, c]));
    const cd = merkleNode(merkleLeaf(c), merkleLeaf(d));
    expect(merkleRoot([a, b, c, d, e])).toEqual(merkleNode(merkleNode(ab, cd), merkleLeaf(e)));
  });

  it("tx_root and receipts_root hash digests and receipt hashes", () => {
    const tx = decodeTransaction(VECTOR_2);
    expect(txRoot([tx])).toEqual(merkleLeaf(signingHash(tx)));
    expect(receiptsRoot([])).toEqual(new Uint8Array(32));
  });
});

describe("JSON forms (as the native addon's)", () => {
  it("header, block, receipt and certificate round-trip through JSON", () => {
    const h = header();
    const hj = headerToJson(h);
    expect(hj.hash).toBe(toHex(blockHash(h)));
    expect(hj.round).toEqual({ epoch: "0", view: "300" });
    expect(headerFromJson(JSON.parse(JSON.stringify(hj)))).toEqual(h);
    const block: Block = { header: h, transactions: [decodeTransaction(VECTOR_2)] };
    const bj = blockToJson(block);
    expect(bj.transactions[0]?.signingHash).toBe(
      "0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a",
    );
    expect(blockFromJson(JSON.parse(JSON.stringify(bj)))).toEqual(block);
    expect(() => blockFromJson({ ...bj, transactions: [{ ...bj.transactions[0], nonce: "x" }] })).toThrow(
      "transactions[0].nonce: expected a decimal u64 string",
    );
    const rc: Receipt = {
      txHash: item(1),
      status: "outOfCells",
      cyclesUsed: 1n,
      cellsUsed: 2n,
      feePaid: 3n,
      returnData: new Uint8Array(0),
      error: null,
      events: [{ emitter: new Uint8Array(20), topic: Uint8Array.of(1), data: Uint8Array.of(2) }],
    };
    const rj = receiptToJson(rc);
    expect(rj.hash).toBe(toHex(receiptHash(rc)));
    expect(receiptFromJson(JSON.parse(JSON.stringify(rj)))).toEqual(rc);
    expect(() => receiptFromJson({ ...rj, status: "ok" })).toThrow(
      "status: expected success, reverted, outOfCycles, outOfCells or invalid",
    );
    const cert = {
      kind: "nullify" as const,
      blockHash: item(2),
      height: 3n,
      round: { epoch: 1n, view: 2n },
      aggregatedSignature: new Uint8Array(0),
      signerBitmap: Uint8Array.of(1),
    };
    expect(certificateFromJson(certificateToJson(cert))).toEqual(cert);
    expect(() => certificateFromJson({ ...certificateToJson(cert), kind: "vote" })).toThrow(
      "kind: expected notarize, nullify or finalize",
    );
  });
});

describe("long strings", () => {
  it("a 300 KiB receipt error string round-trips (ASCII and not)", () => {
    for (const error of ["x".repeat(300_000), "é".repeat(150_000)]) {
      const rc: Receipt = {
        txHash: item(1),
        status: "reverted",
        cyclesUsed: 0n,
        cellsUsed: 0n,
        feePaid: 0n,
        returnData: new Uint8Array(0),
        error,
        events: [],
      };
      expect(decodeReceipt(encodeReceipt(rc)).error).toBe(error);
    }
  });
});
