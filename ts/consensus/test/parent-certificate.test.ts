/**
 * The parent certificate a leader hands its application (which puts it in the block, where the
 * chain's downtime accounting credits its signers) holds every valid vote the leader has for the
 * parent when it proposes, not only the quorum that formed the certificate: with paced views
 * the slowest validator's vote usually arrives in between, and it must not be counted absent.
 */
import { describe, expect, it } from "vitest";
import {
  bitmapHas,
  type Certificate,
  electLeader,
  MacScheme,
  type Proposal,
  SimClock,
  type Vote,
  Voter,
} from "../src/index.ts";
import { digestOf, GENESIS, genesisVoterConfig, LinearApp, type TestBlock } from "./voter-doubles.ts";

const N = 4;
const PACE_MS = 100;
const SEED = new Uint8Array(32);
const scheme = new MacScheme(N, "parent-certificate");
const leader1 = electLeader(1, SEED, N);

const block1: TestBlock = { view: 1, height: 1, parent: GENESIS };
const proposal1: Proposal = {
  round: { epoch: 0, view: 1 },
  height: 1,
  parentView: 0,
  parent: GENESIS,
  payload: digestOf(block1),
};
const notarize = (signer: number, signature?: Uint8Array): Vote => ({
  kind: "notarize",
  round: proposal1.round,
  proposal: proposal1,
  signer,
  signature: signature ?? scheme.sign(signer, "notarize", proposal1.round, proposal1),
});

/**
 * Runs view 1 at every non-leader validator index until one of them leads view 2: the leader's
 * proposal, our own vote and one more notarize vote form the notarization; `late` is then
 * delivered before the paced proposal time (or after it, with `afterProposal`).
 */
function leaderOfView2(late: (signer: number) => Vote | Vote[], afterProposal = false) {
  for (let me = 0; me < N; me++) {
    if (me === leader1) continue;
    const clock = new SimClock();
    const app = new LinearApp();
    const v = new Voter({
      config: genesisVoterConfig(me, { minViewMs: PACE_MS }),
      scheme,
      app,
      network: { broadcast: () => {}, send: () => {} },
      clock,
      journal: { append: () => {}, load: () => [] },
      onFault: () => {},
    });
    v.start();
    const [quorumMember, slow] = [0, 1, 2, 3].filter((i) => i !== leader1 && i !== me) as [number, number];
    v.receive(leader1, { type: "propose", proposal: proposal1, block: block1, vote: notarize(leader1) });
    v.receive(quorumMember, { type: "vote", vote: notarize(quorumMember) });
    expect(v.currentView).toBe(2);
    if (v.leaderOf(2) !== me) continue;
    const deliver = () => {
      for (const vote of [late(slow)].flat()) v.receive(slow, { type: "vote", vote });
    };
    if (afterProposal) {
      clock.run(PACE_MS);
      deliver();
    } else {
      deliver();
      clock.run(PACE_MS);
    }
    expect(app.parentCerts).toHaveLength(1);
    const cert = app.parentCerts[0] as Certificate;
    expect(scheme.verifyCertificate(cert)).toBe(true);
    return { cert, slow, quorum: [leader1, me, quorumMember] };
  }
  throw new Error("no non-leader index of view 1 leads view 2 with this seed");
}

describe("the parent certificate of a proposal", () => {
  it("carries a vote that arrived after the quorum but before the proposal", () => {
    const { cert, slow, quorum } = leaderOfView2((s) => notarize(s));
    for (const i of [...quorum, slow]) expect(bitmapHas(cert.signers, i)).toBe(true);
  });

  it("is the quorum's certificate when the late vote comes after the proposal", () => {
    const { cert, slow, quorum } = leaderOfView2((s) => notarize(s), true);
    for (const i of quorum) expect(bitmapHas(cert.signers, i)).toBe(true);
    expect(bitmapHas(cert.signers, slow)).toBe(false);
  });

  it("leaves out a late vote whose signature does not verify", () => {
    const { cert, slow } = leaderOfView2((s) => notarize(s, new Uint8Array(32)));
    expect(bitmapHas(cert.signers, slow)).toBe(false);
  });

  it("junk sent first in the slow validator's name (a flood of it) does not push out its real vote", () => {
    const junk = (s: number) =>
      Array.from({ length: 4 * N }, (_, k) => notarize(s, new Uint8Array(32).fill(k + 1)));
    const { cert, slow, quorum } = leaderOfView2((s) => [...junk(s), notarize(s), ...junk(s)]);
    for (const i of [...quorum, slow]) expect(bitmapHas(cert.signers, i)).toBe(true);
  });
});
