import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  BlsScheme,
  blsDevnetKeys,
  blsDevnetSchemes,
  type Certificate,
  electLeader,
  type Proposal,
  type Round,
  Simulation,
  type Vote,
  type VoteKind,
} from "../src/index.ts";

const keys = blsDevnetKeys(4, 42n, createHash("sha256").update("bls-scheme-test").digest());
const schemes = blsDevnetSchemes(keys);
const verifier = new BlsScheme({
  chainId: 42n,
  publicKeys: keys.publicKeys,
  proofs: keys.proofs,
  group: keys.group,
});

const round = (view: number): Round => ({ epoch: 0, view });
const proposal = (view: number, payload = "ab".repeat(32), height = view): Proposal => ({
  round: round(view),
  height,
  parentView: view - 1,
  parent: "cd".repeat(32),
  payload,
});

function vote(signer: number, kind: VoteKind, view: number, p: Proposal | null = proposal(view)): Vote {
  const prop = kind === "nullify" ? null : p;
  const scheme = schemes[signer] as BlsScheme;
  return {
    kind,
    round: round(view),
    proposal: prop,
    signer,
    signature: scheme.sign(signer, kind, round(view), prop),
  };
}

function flip(bytes: Uint8Array, at: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[at] = (out[at] as number) ^ 1;
  return out;
}

describe("the BLS12-381 signing scheme", () => {
  it("signs and verifies every vote kind; the seed partial rides on notarize and nullify", () => {
    for (const kind of ["notarize", "nullify", "finalize"] as const) {
      const v = vote(1, kind, 5);
      expect(verifier.verifyVote(v), kind).toBe(true);
      expect(v.signature.length).toBe(kind === "finalize" ? 96 : 96 + 1 + 96);
    }
  });

  it("rejects forged, re-attributed, wrong-round, wrong-kind and wrong-chain votes", () => {
    const v = vote(2, "notarize", 7);
    expect(verifier.verifyVote({ ...v, signature: flip(v.signature, 10) })).toBe(false); // forged vote signature
    expect(verifier.verifyVote({ ...v, signature: flip(v.signature, 150) })).toBe(false); // forged seed partial
    expect(verifier.verifyVote({ ...v, signer: 3 })).toBe(false); // someone else's signature
    expect(verifier.verifyVote({ ...v, signer: 9 })).toBe(false); // no such validator
    expect(verifier.verifyVote({ ...v, round: round(8), proposal: proposal(8) })).toBe(false); // replayed in another round
    expect(verifier.verifyVote({ ...v, proposal: proposal(7, "ef".repeat(32)) })).toBe(false); // other block
    expect(verifier.verifyVote({ ...v, proposal: proposal(7, "ab".repeat(32), 9) })).toBe(false); // other height
    expect(verifier.verifyVote({ ...v, kind: "finalize", signature: v.signature.subarray(0, 96) })).toBe(
      false,
    );
    expect(verifier.verifyVote({ ...v, signature: v.signature.subarray(0, 100) })).toBe(false); // truncated
    expect(verifier.verifyVote({ ...v, signature: new Uint8Array(193) })).toBe(false); // garbage
    const n = vote(2, "nullify", 7);
    expect(verifier.verifyVote({ ...n, round: round(6) })).toBe(false);
    // a partial signed by validator 1's share attached to validator 2's vote
    const other = vote(1, "nullify", 7);
    const mixed = Buffer.concat([n.signature.subarray(0, 96), other.signature.subarray(96)]);
    expect(verifier.verifyVote({ ...n, signature: mixed })).toBe(false);
    const otherChain = blsDevnetKeys(4, 43n, createHash("sha256").update("bls-scheme-test").digest());
    const foreign = new BlsScheme({ chainId: 43n, publicKeys: keys.publicKeys, group: keys.group });
    expect(foreign.verifyVote(v)).toBe(false);
    expect(otherChain.publicKeys).toEqual(keys.publicKeys); // same keys, only the chain id differs
  });

  it("batch-verifies votes of one statement and finds the invalid ones", () => {
    const votes = [0, 1, 2, 3].map((i) => vote(i, "notarize", 12));
    expect(verifier.verifyVotes(votes)).toEqual([]);
    const bad = [
      votes[0] as Vote,
      { ...(votes[1] as Vote), signature: flip((votes[1] as Vote).signature, 20) }, // vote signature
      { ...(votes[2] as Vote), signature: flip((votes[2] as Vote).signature, 150) }, // seed partial
      { ...(votes[3] as Vote), signer: 0 }, // someone else's vote
    ];
    expect(verifier.verifyVotes(bad)).toEqual([1, 2, 3]);
    const finals = [0, 1, 2].map((i) => vote(i, "finalize", 12));
    expect(
      verifier.verifyVotes([...finals, { ...(finals[0] as Vote), signature: new Uint8Array(96) }]),
    ).toEqual([3]);
    // mixed statements fall back to one-by-one checks
    expect(verifier.verifyVotes([vote(0, "nullify", 12), vote(1, "notarize", 12)])).toEqual([]);
  });

  it("assembles certificates with a signer bitmap, an aggregate and the round's seed", () => {
    const votes = [0, 1, 3].map((i) => vote(i, "notarize", 4));
    const cert = verifier.assemble(votes);
    expect(Buffer.from(cert.signers)).toEqual(Buffer.from([0b1011]));
    expect(cert.signature.length).toBe(96);
    expect(verifier.verifyCertificate(cert)).toBe(true);
    // one seed per round: any quorum, notarization or nullification, gives the same seed
    const nullification = verifier.assemble([1, 2, 3].map((i) => vote(i, "nullify", 4)));
    expect(verifier.verifyCertificate(nullification)).toBe(true);
    expect(Buffer.from(nullification.seed as Uint8Array)).toEqual(Buffer.from(cert.seed as Uint8Array));
    expect(verifier.verifySeed(round(4), cert.seed as Uint8Array)).toBe(true);
    expect(verifier.verifySeed(round(5), cert.seed as Uint8Array)).toBe(false);
    const finalization = verifier.assemble([0, 1, 2, 3].map((i) => vote(i, "finalize", 4)));
    expect(finalization.seed).toBeNull();
    expect(Buffer.from(finalization.signers)).toEqual(Buffer.from([0b1111]));
    expect(verifier.verifyCertificate(finalization)).toBe(true);
  });

  it("rejects tampered certificates and refuses to assemble duplicates or mixed votes", () => {
    const cert = verifier.assemble([0, 1, 2].map((i) => vote(i, "notarize", 9)));
    const bad = (c: Partial<Certificate>) => verifier.verifyCertificate({ ...cert, ...c });
    expect(bad({ signers: Uint8Array.from([0b1011]) })).toBe(false); // claims a signer who did not sign
    expect(bad({ signers: Uint8Array.from([0b1111]) })).toBe(false); // claims an extra signer
    expect(bad({ signers: Uint8Array.from([0b0011]) })).toBe(false); // below quorum
    expect(bad({ signers: Uint8Array.from([0b10111]) })).toBe(false); // padding bit beyond n
    expect(bad({ signers: Uint8Array.from([0b0111, 0]) })).toBe(false); // wrong bitmap length
    expect(bad({ signature: flip(cert.signature, 5) })).toBe(false);
    expect(bad({ seed: null })).toBe(false);
    expect(bad({ seed: flip(cert.seed as Uint8Array, 3) })).toBe(false);
    const otherSeed = verifier.assemble([0, 1, 2].map((i) => vote(i, "nullify", 10))).seed;
    expect(bad({ seed: otherSeed })).toBe(false); // the seed of another round
    expect(bad({ kind: "finalize", seed: null })).toBe(false); // a notarization passed off as a finalization
    expect(bad({ round: round(10), proposal: proposal(10) })).toBe(false);
    expect(bad({ proposal: proposal(9, "ee".repeat(32)) })).toBe(false);
    // duplicates count once: three copies of one vote are not a quorum
    const v0 = vote(0, "notarize", 9);
    expect(() => verifier.assemble([v0, v0, vote(1, "notarize", 9)])).toThrow(/quorum/);
    expect(() => verifier.assemble([v0, vote(1, "finalize", 9), vote(2, "notarize", 9)])).toThrow();
    expect(() => verifier.assemble([v0, vote(1, "notarize", 9, proposal(9, "ee".repeat(32)))])).toThrow();
    // a scheme signs only as its own validator
    expect(() => (schemes[0] as BlsScheme).sign(1, "nullify", round(1), null)).toThrow();
    expect(() => verifier.sign(0, "nullify", round(1), null)).toThrow();
  });

  it("refuses keys without a valid proof of possession and mismatched secrets", () => {
    const proofs = [...keys.proofs];
    proofs[1] = keys.proofs[2] as Buffer;
    expect(
      () => new BlsScheme({ chainId: 42n, publicKeys: keys.publicKeys, proofs, group: keys.group }),
    ).toThrow();
    expect(
      () =>
        new BlsScheme({
          chainId: 42n,
          publicKeys: keys.publicKeys,
          group: keys.group,
          signer: { index: 0, secretKey: keys.secretKeys[1] as Buffer, share: keys.shares[0] as Buffer },
        }),
    ).toThrow(/secret key/);
    expect(
      () =>
        new BlsScheme({
          chainId: 42n,
          publicKeys: keys.publicKeys,
          group: keys.group,
          signer: { index: 0, secretKey: keys.secretKeys[0] as Buffer, share: keys.shares[1] as Buffer },
        }),
    ).toThrow(/share/);
  });
});

describe("Simplex with the BLS scheme", () => {
  it("4 validators finalize; leaders and beacons come from the previous round's threshold seed", () => {
    const sim = new Simulation({ seed: 3, validators: 4, scheme: "bls" });
    sim.start();
    sim.run(5_000);
    sim.checkSafety();
    const blocks = sim.finalizedBlocksOf(0);
    expect(blocks.length).toBeGreaterThan(15);
    const scheme = sim.schemes[0] as BlsScheme;
    for (const { block } of blocks) {
      if (block.view === 1) continue; // view 1 reads the epoch's genesis seed
      const beacon = Buffer.from(block.beacon, "hex");
      // the beacon is the verified seed of the round before the block's round, never its own
      expect(scheme.verifySeed(round(block.view - 1), beacon)).toBe(true);
      expect(scheme.verifySeed(round(block.view), beacon)).toBe(false);
      expect(block.proposer).toBe(electLeader(block.view, beacon, 4));
    }
    expect(sim.faults).toEqual([]);
  });

  it("stays safe with message loss and an equivocating leader, and reports the equivocation", () => {
    const sim = new Simulation({ seed: 8, validators: 4, scheme: "bls", equivocators: [2], dropRate: 0.05 });
    sim.start();
    sim.run(15_000);
    sim.checkSafety();
    expect(sim.finalizedOf(0).length).toBeGreaterThan(5);
    const fault = sim.faults.find((f) => f.signer === 2);
    expect(fault).toBeDefined();
    // the evidence verifies under the BLS keys: both statements are really signed by validator 2
    const f = fault as NonNullable<typeof fault>;
    const verifier = sim.schemes[0] as BlsScheme;
    expect(verifier.verifyVote(f.vote)).toBe(true);
    if ("signer" in f.conflicting) expect(verifier.verifyVote(f.conflicting)).toBe(true);
  });
});
