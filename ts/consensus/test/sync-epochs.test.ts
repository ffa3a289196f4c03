/**
 * Block sync must refuse a certificate signed by another epoch's set than the epoch of the
 * block it finalizes (e.g. a quorum of an old epoch's keys, whose owners have left and can no
 * longer be slashed, finalizing a forged continuation of a later epoch).
 */
import { describe, expect, it } from "vitest";
import {
  type BlockReader,
  type Certificate,
  type Proposal,
  Simulation,
  type SyncedBlock,
  simBlockReader,
  type Vote,
  verifyRun,
} from "../src/index.ts";

const E = 10;
const members = (epoch: number): readonly number[] => (epoch % 2 === 0 ? [0, 1, 2, 3] : [0, 1, 2, 4]);

const sim = new Simulation({ seed: 5, validators: 5, epochBlocks: E, epochMembers: members });
sim.start();
sim.run(12_000);
const served = sim.finalizedBlocksOf(0);

/** The sim's blocks with the chain's epoch rule (epoch = ⌊height / E⌋). */
const reader: BlockReader = { ...simBlockReader, epochOf: (height) => Math.floor(height / E) };

/** A finalization of `p` in `epoch` (view `view`) signed by the whole set of `epoch`. */
function forge(epoch: number, view: number, p: Proposal): Certificate {
  const scheme = sim.schemeOf(epoch);
  const round = { epoch, view };
  const proposal: Proposal = { ...p, round };
  const votes: Vote[] = members(epoch).map((_, signer) => ({
    kind: "finalize",
    round,
    signer,
    proposal,
    signature: scheme.sign(signer, "finalize", round, proposal),
  }));
  return scheme.assemble(votes);
}

function run(from: number, to: number, last: Certificate | null): SyncedBlock[] {
  return served
    .slice(from - 1, to)
    .map((f, i, all) => ({ block: f.block, certificate: i === all.length - 1 ? last : null }));
}

describe("block sync: each certificate must be of its block's own epoch", () => {
  expect(served.length).toBeGreaterThan(2 * E + 3);
  const tipBlock = served[E - 2] as (typeof served)[number]; // height E-1: the last block of epoch 0
  const tip = { height: E - 1, digest: tipBlock.proposal.payload };
  const schemeFor = (epoch: number) => (epoch <= 1 ? sim.schemeOf(epoch) : null);

  it("accepts the honest run of epoch 1 (its own certificate)", () => {
    const target = served[E + 2] as (typeof served)[number];
    const cert = forge(1, target.proposal.round.view, target.proposal);
    const out = verifyRun(run(E, E + 3, cert), tip, reader, schemeFor);
    expect(Array.isArray(out)).toBe(true);
    expect((out as Proposal[]).every((p) => p.round.epoch === 1)).toBe(true);
  });

  it("refuses epoch-1 blocks finalized by a certificate of epoch 0's set", () => {
    const target = served[E + 2] as (typeof served)[number];
    // the block's view, epoch 0: a valid signature of set(0), for a block of epoch 1's heights
    const cert = forge(0, target.proposal.round.view, target.proposal);
    expect(sim.schemeOf(0).verifyCertificate(cert)).toBe(true);
    const out = verifyRun(run(E, E + 3, cert), tip, reader, schemeFor);
    expect(out).toBe("certificate-mismatch");
  });

  it("does not cut a run back to an earlier block certified by the wrong epoch", () => {
    const mid = served[E] as (typeof served)[number]; // height E+1, epoch 1
    const end = served[2 * E + 1] as (typeof served)[number]; // height 2E+2, epoch 2
    const blocks = run(E, 2 * E + 2, forge(2, end.proposal.round.view, end.proposal));
    // the tail's epoch (2) is not known yet: the run is cut at the last checkable certificate
    (blocks[1] as { certificate: Certificate | null }).certificate = forge(
      0,
      mid.proposal.round.view,
      mid.proposal,
    );
    expect(verifyRun(blocks, tip, reader, schemeFor)).toBe("certificate-mismatch");
    // with its own epoch's certificate there, the cut run is accepted
    (blocks[1] as { certificate: Certificate | null }).certificate = forge(
      1,
      mid.proposal.round.view,
      mid.proposal,
    );
    const out = verifyRun(blocks, tip, reader, schemeFor);
    expect(Array.isArray(out) ? out.map((p) => p.height) : out).toEqual([E, E + 1]);
  });

  it("refuses a re-proposal certificate for a block that is not its epoch's last", () => {
    const target = served[E + 2] as (typeof served)[number];
    const p = target.proposal;
    const re: Proposal = { ...p, parent: p.payload, parentView: p.round.view };
    const cert = forge(1, p.round.view + 3, re);
    expect(verifyRun(run(E, E + 3, cert), tip, reader, schemeFor)).toBe("certificate-mismatch");
  });
});
