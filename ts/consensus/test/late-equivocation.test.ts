/**
 * Double signing that arrives after the view's certificate: a validator's vote for the
 * certified block (kept late, unverified) and its second vote for another block, in either
 * order, are reported as equivocation — the case of a validator that signs two notarize votes
 * and sends them together while the others have already certified the view.
 */
import { describe, expect, it } from "vitest";
import {
  type Equivocation,
  electLeader,
  MacScheme,
  type Proposal,
  SimClock,
  type Vote,
  Voter,
} from "../src/index.ts";
import { digestOf, GENESIS, genesisVoterConfig, LinearApp, type TestBlock } from "./voter-doubles.ts";

const SEED = new Uint8Array(32);
const scheme = new MacScheme(4, "late-equivocation");
const leader = electLeader(1, SEED, 4);
const others = [0, 1, 2, 3].filter((i) => i !== leader);
const me = others[0] as number;
const [honest, evil] = [others[1] as number, others[2] as number];

const block: TestBlock = { view: 1, height: 1, parent: GENESIS, tag: "A" };
const proposal = (payload: string): Proposal => ({
  round: { epoch: 0, view: 1 },
  height: 1,
  parentView: 0,
  parent: GENESIS,
  payload,
});
const certified = proposal(digestOf(block));
const other = proposal("ff".repeat(32));
const vote = (signer: number, p: Proposal): Vote => ({
  kind: "notarize",
  round: p.round,
  proposal: p,
  signer,
  signature: scheme.sign(signer, "notarize", p.round, p),
});

function voter() {
  const faults: Equivocation[] = [];
  const v = new Voter({
    config: genesisVoterConfig(me),
    scheme,
    app: new LinearApp(),
    network: { broadcast: () => {}, send: () => {} },
    clock: new SimClock(),
    journal: { append: () => {}, load: () => [] },
    onFault: (e) => faults.push(e),
  });
  v.start();
  // the leader proposes; we and an honest validator vote: a notarization without `evil`
  v.receive(leader, { type: "propose", proposal: certified, block, vote: vote(leader, certified) });
  v.receive(honest, { type: "vote", vote: vote(honest, certified) });
  expect(v.currentView).toBe(2);
  return { v, faults };
}

describe("equivocation after the certificate", () => {
  it("the agreeing vote first, then the conflicting one", () => {
    const { v, faults } = voter();
    v.receive(evil, { type: "vote", vote: vote(evil, certified) });
    expect(faults).toHaveLength(0);
    v.receive(evil, { type: "vote", vote: vote(evil, other) });
    expect(faults.map((f) => f.signer)).toEqual([evil]);
  });

  it("the conflicting vote first, then the agreeing one", () => {
    const { v, faults } = voter();
    v.receive(evil, { type: "vote", vote: vote(evil, other) });
    expect(faults).toHaveLength(0);
    v.receive(evil, { type: "vote", vote: vote(evil, certified) });
    expect(faults.map((f) => f.signer)).toEqual([evil]);
  });

  it("a conflicting vote with a bad signature is not evidence", () => {
    const { v, faults } = voter();
    v.receive(evil, { type: "vote", vote: vote(evil, certified) });
    v.receive(evil, { type: "vote", vote: { ...vote(evil, other), signature: new Uint8Array(32) } });
    expect(faults).toHaveLength(0);
  });

  it("both votes arriving after the view is final", () => {
    const { v, faults } = voter();
    const fin = (signer: number): Vote => ({
      kind: "finalize",
      round: certified.round,
      proposal: certified,
      signer,
      signature: scheme.sign(signer, "finalize", certified.round, certified),
    });
    v.receive(leader, { type: "vote", vote: fin(leader) });
    v.receive(honest, { type: "vote", vote: fin(honest) });
    expect(v.finalizedView).toBe(1);
    v.receive(evil, { type: "vote", vote: vote(evil, certified) });
    expect(faults).toHaveLength(0);
    v.receive(evil, { type: "vote", vote: vote(evil, other) });
    expect(faults.map((f) => f.signer)).toEqual([evil]);
  });

  it("a vote against a certificate its signer is part of", () => {
    const { v, faults } = voter();
    // the leader signed the certified block (it is in the notarization) and now another one
    v.receive(leader, { type: "vote", vote: vote(leader, other) });
    expect(faults.map((f) => f.signer)).toEqual([leader]);
  });
});
