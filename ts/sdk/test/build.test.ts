/** The transaction builders (`src/build.ts`): defaults, overrides, typed errors, and the bytes they sign to. */
import { describe, expect, it } from "vitest";
import {
  addressFromSecretKey,
  CodecError,
  DEFAULT_TRANSFER_LIMITS,
  decodeTransaction,
  encodeTransaction,
  fromHex,
  MIN_BASEFEE,
  SigError,
  signingHash,
  signTransaction,
  TRANSFER_CYCLES,
  toHexRaw,
  transferTransaction,
  unsignedTransaction,
  verifyTransaction,
} from "../src/index.ts";

/** Spec 01 Appendix A, Vector 2: key 0x11…11 sends 1 unit to 0x22…22 on chain 42 (50,000/50,000 limits, fee caps 1). */
const VECTOR_2 =
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100";
const KEY = new Uint8Array(32).fill(0x11);
const FROM = addressFromSecretKey(KEY);
const TO = fromHex(`0x${"22".repeat(20)}`);

/** A transfer of 5 units from FROM to TO at nonce 0 of chain 7. */
const BASE = { chainId: 7n, nonce: 0n, from: FROM, to: TO, amount: 5n };

/** What a builder throws for a bad `field`: a CodecError `INVALID_VALUE` naming it. */
const invalid = (field: string) =>
  expect.objectContaining({
    name: "CodecError",
    code: "INVALID_VALUE",
    field,
    errCode: "ERR_CODEC_INVALID_VALUE",
  });

describe("transferTransaction", () => {
  it("signs to Appendix A Vector 2 with the vector's limits", () => {
    const tx = transferTransaction({
      chainId: 42n,
      nonce: 0n,
      from: FROM,
      to: TO,
      amount: 1n,
      limits: { cyclesLimit: 50_000n, cellsLimit: 50_000n, maxFeePerCycle: 1n, maxFeePerCell: 1n },
    });
    expect(toHexRaw(encodeTransaction(signTransaction(tx, KEY)))).toBe(VECTOR_2);
  });

  it("fills the spec's defaults: the §17.2 transfer cost, twice the §17.8 basefee floor, no tip", () => {
    expect(DEFAULT_TRANSFER_LIMITS).toEqual({
      cyclesLimit: 21_000n,
      cellsLimit: 0n,
      maxFeePerCycle: 20_000n,
      maxFeePerCell: 20_000n,
      maxPriorityFeePerCycle: 0n,
      maxPriorityFeePerCell: 0n,
    });
    expect(TRANSFER_CYCLES).toBe(21_000n);
    expect(MIN_BASEFEE).toBe(10_000n);
    expect(Object.isFrozen(DEFAULT_TRANSFER_LIMITS)).toBe(true);

    const tx = transferTransaction({ ...BASE, nonce: 3n });
    // every field, in the frozen order of spec §2.5 (varints are LEB128)
    const unsignedHex = [
      ["07", "03"], // chain_id, nonce
      ["0001", "22".repeat(20), "0000000000000005"], // System Transfer: to, amount (u64 BE)
      ["88a401", "00"], // cycles_limit 21,000, cells_limit 0
      ["a09c01", "a09c01", "00", "00"], // fee caps 20,000, no tip
      [toHexRaw(FROM), "00", "00", "00", "00", "00"], // from; no access list, metadata, origin_*
      ["00".repeat(65), "00"], // zero signature, no co-signers
    ].flat();
    expect(toHexRaw(encodeTransaction(tx))).toBe(unsignedHex.join(""));
    expect(decodeTransaction(encodeTransaction(tx))).toEqual(tx);
    // unsigned until signed; signing keeps the identity
    expect(verifyTransaction(tx)).toBe(false);
    const signed = signTransaction(tx, KEY);
    expect(verifyTransaction(signed)).toBe(true);
    expect(signingHash(signed)).toEqual(signingHash(tx));
    expect(decodeTransaction(encodeTransaction(signed))).toEqual(signed);
  });

  it("takes each limit given and the default for each one left out (or undefined)", () => {
    const limits = { cellsLimit: 1_000n, maxPriorityFeePerCycle: 3n, maxFeePerCycle: undefined };
    const tx = transferTransaction({ ...BASE, limits, metadata: Uint8Array.of(1, 2) });
    expect(tx.cellsLimit).toBe(1_000n);
    expect(tx.maxPriorityFeePerCycle).toBe(3n);
    expect(tx.maxFeePerCycle).toBe(DEFAULT_TRANSFER_LIMITS.maxFeePerCycle);
    expect(tx.cyclesLimit).toBe(DEFAULT_TRANSFER_LIMITS.cyclesLimit);
    expect(tx.metadata).toEqual(Uint8Array.of(1, 2));
  });

  it("builds a fresh transaction each time (signing one never touches another)", () => {
    const a = transferTransaction(BASE);
    const b = transferTransaction(BASE);
    expect(a.signature).not.toBe(b.signature);
    a.signature.fill(9);
    expect(b.signature).toEqual(new Uint8Array(65));
  });

  it("refuses what the encoder would refuse, with a typed error naming the field", () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ["instruction.amount", { amount: -1n }],
      ["instruction.amount", { amount: 2n ** 64n }],
      ["instruction.amount", { amount: 5 }],
      ["instruction.to", { to: new Uint8Array(19) }],
      ["instruction.to", { to: new Uint8Array(21) }],
      ["instruction.to", { to: "0x2222222222222222222222222222222222222222" }],
      ["from", { from: new Uint8Array(32) }],
      ["nonce", { nonce: -1n }],
      ["chain_id", { chainId: 2n ** 64n }],
      ["cycles_limit", { limits: { cyclesLimit: -21_000n } }],
      ["max_priority_fee_per_cell", { limits: { maxPriorityFeePerCell: 2n ** 64n } }],
    ];
    for (const [field, bad] of cases) {
      const build = () =>
        transferTransaction({ ...BASE, ...bad } as Parameters<typeof transferTransaction>[0]);
      expect(build).toThrow(CodecError);
      expect(build).toThrow(invalid(field));
    }
    // the largest u64 amount is fine
    const max = 2n ** 64n - 1n;
    expect(transferTransaction({ ...BASE, amount: max }).instruction).toEqual({
      kind: "transfer",
      to: TO,
      amount: max,
    });
  });

  it("is signed only by the key of `from`", () => {
    const tx = transferTransaction({ ...BASE, from: TO, to: FROM });
    expect(() => signTransaction(tx, KEY)).toThrow(SigError);
  });
});

describe("unsignedTransaction", () => {
  /** An exitValidator from FROM at nonce 0 of chain 7 (no limits). */
  const EXIT = { chainId: 7n, nonce: 0n, instruction: { kind: "exitValidator" }, from: FROM } as const;

  it("leaves every limit out as 0 (the shape cowboy_estimateFee takes)", () => {
    const tx = unsignedTransaction(EXIT);
    const limits = [tx.cyclesLimit, tx.cellsLimit, tx.maxFeePerCycle, tx.maxFeePerCell];
    expect([...limits, tx.maxPriorityFeePerCycle, tx.maxPriorityFeePerCell]).toEqual([
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
    ]);
    expect(tx.instruction).toEqual({ kind: "exitValidator" });
    expect(tx.signature).toEqual(new Uint8Array(65));
    expect(tx.additionalSigners).toEqual([]);
  });

  it("builds any instruction with the limits given; the transfer builder is the transfer case of it", () => {
    const log = Uint8Array.of(1, 2, 3);
    const instruction = { kind: "dkgLog", ceremony: 1n, log } as const;
    const limits = { ...DEFAULT_TRANSFER_LIMITS, cellsLimit: BigInt(log.length) };
    const tx = unsignedTransaction({ ...EXIT, nonce: 2n, instruction, limits });
    expect([tx.cyclesLimit, tx.cellsLimit]).toEqual([21_000n, 3n]);
    expect(verifyTransaction(decodeTransaction(encodeTransaction(signTransaction(tx, KEY))))).toBe(true);
    const transfer = { kind: "transfer", to: TO, amount: 5n } as const;
    expect(unsignedTransaction({ ...EXIT, instruction: transfer, limits: DEFAULT_TRANSFER_LIMITS })).toEqual(
      transferTransaction(BASE),
    );
  });

  it("refuses a sender that is not 20 bytes and limits that are not u64", () => {
    expect(() => unsignedTransaction({ ...EXIT, from: new Uint8Array(0) })).toThrow(invalid("from"));
    expect(() => unsignedTransaction({ ...EXIT, limits: { cellsLimit: -1n } })).toThrow(
      invalid("cells_limit"),
    );
  });
});
