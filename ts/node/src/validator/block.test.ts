import { type Block, blockHash } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import {
  type ConsensusBlock,
  consensusDigest,
  consensusLink,
  decodeConsensusBlock,
  encodeConsensusBlock,
  participantsOf,
} from "./block.ts";

const block: Block = {
  header: {
    parent: new Uint8Array(32).fill(1),
    height: 7n,
    round: { epoch: 0n, view: 9n },
    proposer: new Uint8Array(20).fill(2),
    timestampMs: 1_700_000_000_000n,
    stateRoot: new Uint8Array(32).fill(3),
    txRoot: new Uint8Array(32).fill(4),
    receiptsRoot: new Uint8Array(32).fill(5),
    cycleBasefee: 10n,
    cellBasefee: 11n,
    cyclesUsed: 0n,
    cellsUsed: 0n,
    parentSeed: new Uint8Array(96).fill(6),
  },
  transactions: [],
};
const cb: ConsensusBlock = { block, parentView: 6, parent: "ab".repeat(32) };

describe("consensus block", () => {
  it("round-trips and exposes the link", () => {
    const bytes = encodeConsensusBlock(cb);
    const back = decodeConsensusBlock(bytes);
    expect(back.parent).toBe(cb.parent);
    expect(back.parentView).toBe(6);
    expect(blockHash(back.block.header)).toEqual(blockHash(block.header));
    expect(consensusDigest(back)).toBe(consensusDigest(cb));
    expect(consensusLink(back)).toEqual({ view: 9, height: 7, parentView: 6, parent: cb.parent });
  });

  it("the digest commits to the parent view and digest", () => {
    const d = consensusDigest(cb);
    expect(consensusDigest({ ...cb, parentView: 5 })).not.toBe(d);
    expect(consensusDigest({ ...cb, parent: "cd".repeat(32) })).not.toBe(d);
    expect(d).toMatch(/^[0-9a-f]{64}$/);
  });

  it("carries the parent certificate (v2): round-trips, the digest commits to it, v1 still reads", () => {
    const withCert: ConsensusBlock = {
      ...cb,
      parentCertificate: {
        kind: "notarize",
        signers: Uint8Array.of(0b1011),
        signature: new Uint8Array(96).fill(7),
        seed: new Uint8Array(96).fill(8),
      },
    };
    const back = decodeConsensusBlock(encodeConsensusBlock(withCert));
    expect(back.parentCertificate).toEqual(withCert.parentCertificate);
    expect(consensusDigest(back)).toBe(consensusDigest(withCert));
    expect(participantsOf(back)).toEqual([0, 1, 3]);
    expect(participantsOf(cb)).toBeUndefined();
    const d = consensusDigest(withCert);
    expect(consensusDigest(cb)).not.toBe(d);
    const pc = withCert.parentCertificate as NonNullable<ConsensusBlock["parentCertificate"]>;
    const fewer = { ...withCert, parentCertificate: { ...pc, signers: Uint8Array.of(0b11) } };
    expect(consensusDigest(fewer)).not.toBe(d);
    // a legacy v1 block (old finalized.log lines) decodes and keeps its v1 digest
    const v1 = encodeConsensusBlock({ ...cb, version: 1 });
    expect(v1[0]).toBe(1);
    const old = decodeConsensusBlock(v1);
    expect(old.version).toBe(1);
    expect(Buffer.from(encodeConsensusBlock(old))).toEqual(Buffer.from(v1));
    expect(consensusDigest(old)).not.toBe(consensusDigest(cb));
  });

  it("refuses malformed bytes with a typed error", () => {
    const bytes = encodeConsensusBlock(cb);
    for (const bad of [
      bytes.subarray(0, 10),
      bytes.subarray(0, bytes.length - 1),
      Uint8Array.from([...bytes, 0]),
      Uint8Array.from([3, ...bytes.subarray(1)]),
    ]) {
      expect(() => decodeConsensusBlock(bad)).toThrowError(
        expect.objectContaining({ code: "ERR_CBLOCK_DECODE" }),
      );
    }
    expect(() => encodeConsensusBlock({ ...cb, parent: "xy" })).toThrowError(/lowercase hex/);
  });
});
