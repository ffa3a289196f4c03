import { describe, expect, it } from "vitest";
import {
  BlsScheme,
  epochsInUse,
  type FinalizedChain,
  GENESIS_DIGEST,
  genesisDkg,
  loadNative,
  type Proposal,
  Simulation,
  type SyncRejection,
  serveSync,
  simBlockReader,
  syncBlocks,
  type Vote,
} from "../src/index.ts";

/** epoch e's set: 3 leaves at epoch 1, 4 joins; at epoch 2 both are in, in another order; repeat */
function members(epoch: number): readonly number[] {
  const sets = [
    [0, 1, 2, 3],
    [0, 1, 2, 4],
    [4, 3, 2, 1, 0],
  ];
  return sets[epoch % 3] as number[];
}

const E = 10;

function checkEpochs(sim: Simulation, upTo: number): void {
  sim.checkSafety();
  for (let i = 0; i < sim.options.validators; i++) {
    const chain = sim.finalizedBlocksOf(i);
    for (const f of chain) {
      const epoch = Math.floor(f.proposal.height / E);
      // every block belongs to the epoch of its height, certified by that epoch's set
      expect(f.proposal.round.epoch).toBe(epoch);
      if (f.certificate !== null) {
        expect(f.certificate.round.epoch).toBe(epoch);
        expect(sim.schemeOf(epoch).verifyCertificate(f.certificate)).toBe(true);
      }
      // views restart at 1 in every epoch: the first block of an epoch is built on view 0
      if (f.proposal.height % E === 0) expect(f.proposal.parentView).toBe(0);
    }
    // a validator signs only in the epochs it is a member of, as its index there
    for (const v of sim.signedBy(i)) {
      const index = members(v.round.epoch).indexOf(i);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(v.signer).toBe(index);
    }
    if (sim.isUp(i)) expect(chain.length).toBeGreaterThanOrEqual(upTo);
  }
}

describe("epoch switching (simulation)", () => {
  it("switches voters at every boundary: set changes, safety, liveness, views per epoch", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const sim = new Simulation({
        seed,
        validators: 5,
        epochBlocks: E,
        epochMembers: members,
        dropRate: seed % 2 === 0 ? 0.05 : 0,
      });
      sim.start();
      sim.run(20_000);
      checkEpochs(sim, 6 * E);
      // validator 3 (out of epoch 1's set) followed epoch 1 and signed nothing in it
      expect(sim.signedBy(3).some((v) => v.round.epoch === 1)).toBe(false);
      expect(sim.signedBy(4).some((v) => v.round.epoch === 0)).toBe(false);
      expect(sim.signedBy(4).some((v) => v.round.epoch === 1)).toBe(true);
      for (let i = 0; i < 5; i++) {
        const epoch = sim.epochOf(i) as number;
        expect(epoch).toBeGreaterThanOrEqual(6);
        // earlier epochs' votes are pruned from the journal once an epoch finalizes its first block
        for (const v of sim.journalOf(i)) expect(v.round.epoch).toBeGreaterThanOrEqual(epoch - 1);
      }
    }
  });

  it("crashes and restarts across boundaries: the restarted validators resume the right epoch", () => {
    for (let seed = 11; seed <= 14; seed++) {
      const sim = new Simulation({
        seed,
        validators: 5,
        epochBlocks: E,
        epochMembers: members,
        dropRate: 0.02,
      });
      sim.start();
      sim.run(5_000);
      sim.crash(1);
      sim.run(8_000); // epochs go by without it (each set keeps a quorum without validator 1)
      sim.restart(1);
      sim.crash(2);
      sim.run(8_000);
      sim.restart(2);
      sim.run(30_000);
      checkEpochs(sim, 4 * E);
      const tips = [0, 1, 2, 3, 4].map((i) => sim.finalizedOf(i).length);
      expect(Math.min(...tips)).toBeGreaterThan(Math.max(...tips) - 2 * E);
    }
  });

  it("a whole network restarted at an epoch boundary continues", () => {
    const sim = new Simulation({ seed: 21, validators: 5, epochBlocks: E, epochMembers: members });
    sim.start();
    for (let round = 0; round < 4; round++) {
      sim.run(3_000 + round * 700);
      for (let i = 0; i < 5; i++) sim.crash(i);
      sim.start();
    }
    sim.run(20_000);
    checkEpochs(sim, 3 * E);
  });
});

describe("the end of an epoch", () => {
  it("a last block notarized but not finalized in its view is re-proposed and finalized later", () => {
    let dropped = 0;
    const sim = new Simulation({
      seed: 5,
      validators: 5,
      epochBlocks: E,
      epochMembers: members,
      // every finalize vote for the last block of epoch 0 in its own view is lost
      deliver: (_from, _to, m) => {
        const p = m.type === "vote" && m.vote.kind === "finalize" ? m.vote.proposal : null;
        if (p !== null && p.height === E - 1 && p.parent !== p.payload) {
          dropped++;
          return false;
        }
        return true;
      },
    });
    sim.start();
    sim.run(20_000);
    checkEpochs(sim, 3 * E);
    expect(dropped).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      const last = sim.finalizedBlocksOf(i)[E - 2];
      const cert = last?.certificate;
      // finalized by the certificate of a re-proposal: same block, a later view
      expect(cert?.proposal?.payload).toBe(last?.proposal.payload);
      expect(cert?.proposal?.parent).toBe(cert?.proposal?.payload);
      expect(cert?.round.view).toBeGreaterThan(last?.proposal.round.view ?? 0);
      // the next epoch starts on it
      expect(sim.finalizedBlocksOf(i)[E - 1]?.proposal.parent).toBe(last?.proposal.payload);
    }
  });
});

describe("block sync across epochs", () => {
  it("verifies each run with its own epoch's set, learning each set only after the previous epoch", async () => {
    const sim = new Simulation({ seed: 31, validators: 5, epochBlocks: E, epochMembers: members });
    sim.start();
    sim.run(15_000);
    const served = sim.finalizedBlocksOf(0);
    expect(served.length).toBeGreaterThan(5 * E);
    const chain: FinalizedChain = {
      tip: () => served.length,
      at: (h) => {
        const f = served[h - 1];
        return f === undefined ? null : { block: f.block, certificate: f.certificate };
      },
    };
    const applied: Proposal[] = [];
    const asked: number[] = [];
    const bad: SyncRejection[] = [];
    const tip = await syncBlocks({
      sources: [{ id: "peer", request: async (from, max) => serveSync(chain, from, max) }],
      reader: simBlockReader,
      // like a node: the set of epoch e is known once the last block of epoch e-1 is applied
      schemeFor: (epoch) => {
        asked.push(epoch);
        return epoch === 0 || applied.length >= epoch * E - 1 ? sim.schemeOf(epoch) : null;
      },
      start: { height: 0, digest: GENESIS_DIGEST, view: 0 },
      apply: (proposal) => {
        applied.push(proposal);
      },
      onBadSource: (_id, reason) => bad.push(reason),
      batch: 64,
    });
    expect(bad).toEqual([]);
    expect(tip.height).toBe(served.length);
    expect(applied.map((p) => p.payload)).toEqual(served.map((f) => f.proposal.payload));
    expect(Math.max(...asked)).toBeGreaterThanOrEqual(5);

    // a run certified by the wrong epoch's set is refused
    const forged = await syncBlocks({
      sources: [{ id: "peer", request: async (from, max) => serveSync(chain, from, max) }],
      reader: simBlockReader,
      schemeFor: (epoch) => sim.schemeOf(epoch === 0 ? 1 : 0),
      start: { height: 0, digest: GENESIS_DIGEST, view: 0 },
      apply: () => {},
      onBadSource: (_id, reason) => bad.push(reason),
      maxFailedRounds: 1,
    }).catch((err: Error) => err);
    expect(forged).toBeInstanceOf(Error);
    expect(bad).toContain("bad-certificate");
  });
});

describe("BlsScheme over a DKG group (share index ≠ consensus index)", () => {
  it("maps consensus indices to share indices for seed partials and recovery", () => {
    const x = loadNative();
    const chainId = 77n;
    const secrets = [1, 2, 3, 4].map((i) => x.blsKeygen(Buffer.alloc(32, i * 17)));
    const dkg = genesisDkg(secrets, chainId);
    // consensus order: reversed key order, so share index ≠ consensus index somewhere
    const order = [3, 2, 1, 0];
    const keys = order.map((i) => x.blsPublicKey(secrets[i] as Buffer));
    const shareIndices = order.map((i) => dkg.shares[i]?.index as number);
    expect(shareIndices.some((s, i) => s !== i)).toBe(true);
    const schemes = order.map(
      (v, index) =>
        new BlsScheme({
          chainId,
          publicKeys: keys,
          group: dkg.group,
          shareIndices,
          signer: { index, secretKey: secrets[v] as Buffer, share: dkg.shares[v]?.share as Buffer },
        }),
    );
    const round = { epoch: 2, view: 5 };
    const votes: Vote[] = [0, 1, 3].map((i) => ({
      kind: "nullify",
      round,
      proposal: null,
      signer: i,
      signature: (schemes[i] as BlsScheme).sign(i, "nullify", round, null),
    }));
    const verifier = new BlsScheme({ chainId, publicKeys: keys, group: dkg.group, shareIndices });
    expect(votes.every((v) => verifier.verifyVote(v))).toBe(true);
    expect(verifier.verifyVotes(votes)).toEqual([]);
    const cert = verifier.assemble(votes);
    expect(verifier.verifyCertificate(cert)).toBe(true);
    expect(verifier.verifySeed(round, cert.seed as Uint8Array)).toBe(true);
    // without the map, the partials name other validators' shares: refused
    const identity = new BlsScheme({ chainId, publicKeys: keys, group: dkg.group });
    expect(votes.filter((v) => identity.verifyVote(v)).length).toBeLessThan(votes.length);
    // a signer whose share is not its mapped share is refused at construction
    expect(
      () =>
        new BlsScheme({
          chainId,
          publicKeys: keys,
          group: dkg.group,
          signer: { index: 0, secretKey: secrets[3] as Buffer, share: dkg.shares[3]?.share as Buffer },
          shareIndices: [0, 1, 2, 3].map((i) => (i + 1) % 4),
        }),
    ).toThrow(/share/);
    expect(
      () => new BlsScheme({ chainId, publicKeys: keys, group: dkg.group, shareIndices: [0, 0, 1, 2] }),
    ).toThrow(/permutation/);
  });
});

describe("equivocation across epochs", () => {
  it("a leader that equivocates in several epochs is caught with its index and set of each epoch", () => {
    const sim = new Simulation({
      seed: 41,
      validators: 5,
      epochBlocks: E,
      epochMembers: members,
      equivocators: [2],
      latency: [5, 80],
    });
    sim.start();
    sim.run(15_000);
    sim.checkSafety();
    const epochs = new Set(sim.faults.map((f) => f.vote.round.epoch));
    expect(epochs.size).toBeGreaterThanOrEqual(3);
    for (const f of sim.faults) {
      const epoch = f.vote.round.epoch;
      // the offender is named by its index in that epoch's set, and both statements verify there
      expect(members(epoch)[f.signer]).toBe(2);
      const scheme = sim.schemeOf(epoch);
      expect(scheme.verifyVote(f.vote)).toBe(true);
      const c = f.conflicting;
      expect("signer" in c ? scheme.verifyVote(c) : scheme.verifyCertificate(c)).toBe(true);
    }
    expect(sim.finalizedOf(0).length).toBeGreaterThan(3 * E);
  });
});

describe("epochsInUse (peer indices a node may still route by)", () => {
  it("covers the running voter's neighbours, the finalized tip's, and a retired voter left behind by a jump", () => {
    // steady state: running 5, retired 4, tip in 5
    expect(epochsInUse(5, 5, 4)).toEqual([4, 5, 6]);
    // before any voter runs: around the tip only
    expect(epochsInUse(0, null, null)).toEqual([0, 1]);
    expect(epochsInUse(3, null, null)).toEqual([2, 3, 4]);
    // catch-up: the voter jumped from 3 to 6 (the retired voter of 3 still routes by its set)
    expect(epochsInUse(6, 6, 3)).toEqual([3, 5, 6, 7]);
    // ...and the finalized tip ran ahead of the running voter
    expect(epochsInUse(9, 6, 3)).toEqual([3, 5, 6, 7, 8, 9, 10]);
  });
});
