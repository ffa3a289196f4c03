import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEFAULT_TIMEOUTS,
  electLeader,
  FileJournal,
  type Journal,
  MacScheme,
  type Message,
  type Proposal,
  SimClock,
  type Vote,
  Voter,
} from "../src/index.ts";
import { digestOf, GENESIS, genesisVoterConfig, LinearApp, type TestBlock } from "./voter-doubles.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-journal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEED = new Uint8Array(32);

const scheme = new MacScheme(4, "journal-test");
const plain = (votes: readonly Vote[]) =>
  votes.map((v) => ({ ...v, signature: Buffer.from(v.signature).toString("hex") }));
// a view 1 leader other than validator 0
const leader = electLeader(1, SEED, 4);

function proposalMessage(tag: string): Message {
  const block: TestBlock = { view: 1, height: 1, parent: GENESIS, tag };
  const proposal: Proposal = {
    round: { epoch: 0, view: 1 },
    height: 1,
    parentView: 0,
    parent: GENESIS,
    payload: digestOf(block),
  };
  const vote: Vote = {
    kind: "notarize",
    round: proposal.round,
    proposal,
    signer: leader,
    signature: scheme.sign(leader, "notarize", proposal.round, proposal),
  };
  return { type: "propose", proposal, block, vote };
}

/** Runs validator `me` with `journal`; returns the votes it sent and the voter. */
function run(me: number, journal: Journal, clock: SimClock) {
  const sent: Vote[] = [];
  const voter = new Voter({
    config: genesisVoterConfig(me),
    scheme,
    app: new LinearApp(),
    network: {
      broadcast: (m) => {
        if (m.type === "vote" && m.vote.signer === me) sent.push(m.vote);
        if (m.type === "propose") sent.push(m.vote);
      },
      send: () => {},
    },
    clock,
    journal,
  });
  voter.start();
  return { voter, sent };
}

describe("the signing journal", () => {
  const me = leader === 0 ? 1 : 0;

  it("persists votes across a restart and cuts a torn tail", () => {
    const path = join(dir, "basic.journal");
    const j = new FileJournal(path);
    const clock = new SimClock();
    const a = run(me, j, clock);
    a.voter.receive(leader, proposalMessage("A"));
    expect(a.sent.map((v) => v.kind)).toEqual(["notarize"]);
    a.voter.stop();
    j.close();
    const size = statSync(path).size;
    appendFileSync(path, Buffer.from([0, 0, 0, 200, 1, 2, 3])); // a torn record
    const reopened = new FileJournal(path);
    expect(reopened.repairedBytes).toBe(7);
    expect(statSync(path).size).toBe(size);
    expect(plain(reopened.load())).toEqual(plain(a.sent));
    // a corrupt byte inside the last record: that record is dropped, earlier ones kept
    reopened.append({ ...(a.sent[0] as Vote), round: { epoch: 0, view: 2 } });
    reopened.close();
    const bytes = readFileSync(path);
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] as number) ^ 0xff;
    writeFileSync(path, bytes);
    const again = new FileJournal(path);
    expect(plain(again.load())).toEqual(plain(a.sent));
    again.close();
  });

  it("a restarted validator never signs a conflicting notarize (control: without the journal it would)", () => {
    const path = join(dir, "restart.journal");
    const clock = new SimClock();
    const first = run(me, new FileJournal(path), clock);
    first.voter.receive(leader, proposalMessage("A"));
    expect(first.sent).toHaveLength(1);
    first.voter.stop(); // crash

    // restart from the same file: the equivocating leader now shows block B for view 1
    const second = run(me, new FileJournal(path), clock);
    second.voter.receive(leader, proposalMessage("B"));
    const notarizes = second.sent.filter((v) => v.kind === "notarize");
    // it may re-announce its earlier vote for A, never sign B
    expect(notarizes.every((v) => v.proposal?.payload === first.sent[0]?.proposal?.payload)).toBe(true);
    second.voter.stop();

    // control: the same restart with an empty journal signs B, a conflicting vote
    const amnesiac = run(me, new FileJournal(join(dir, "empty.journal")), clock);
    amnesiac.voter.receive(leader, proposalMessage("B"));
    expect(
      amnesiac.sent.some(
        (v) => v.kind === "notarize" && v.proposal?.payload !== first.sent[0]?.proposal?.payload,
      ),
    ).toBe(true);
    amnesiac.voter.stop();
  });

  it("after nullifying and restarting, a validator does not finalize that view", () => {
    const path = join(dir, "nullify.journal");
    const clock = new SimClock();
    const first = run(me, new FileJournal(path), clock);
    clock.run(DEFAULT_TIMEOUTS.notarizationTimeoutMs + 1); // no proposal arrives: nullify view 1
    expect(first.sent.map((v) => v.kind)).toEqual(["nullify"]);
    first.voter.stop();

    const second = run(me, new FileJournal(path), clock);
    // a notarization of view 1 arrives (the others saw a proposal): honest validators that
    // nullified must not finalize it
    const message = proposalMessage("A") as Extract<Message, { type: "propose" }>;
    const votes = [0, 1, 2, 3]
      .filter((i) => i !== me)
      .map((i) => ({
        kind: "notarize" as const,
        round: message.proposal.round,
        proposal: message.proposal,
        signer: i,
        signature: scheme.sign(i, "notarize", message.proposal.round, message.proposal),
      }));
    second.voter.receive(leader, { type: "certificate", certificate: scheme.assemble(votes) });
    expect(second.sent.filter((v) => v.kind === "finalize")).toEqual([]);
    expect(second.voter.currentView).toBe(2);
    second.voter.stop();
  });

  it("prunes old views atomically", () => {
    const path = join(dir, "prune.journal");
    const j = new FileJournal(path);
    for (let view = 1; view <= 50; view++)
      j.append({
        kind: "nullify",
        round: { epoch: 0, view },
        proposal: null,
        signer: 0,
        signature: new Uint8Array(32),
      });
    const before = j.size();
    j.prune(0, 41);
    expect(j.load().map((v) => v.round.view)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    expect(j.size()).toBeLessThan(before / 4);
    j.append({
      kind: "nullify",
      round: { epoch: 0, view: 51 },
      proposal: null,
      signer: 0,
      signature: new Uint8Array(32),
    });
    j.close();
    expect(new FileJournal(path).load()).toHaveLength(11);
  });
});

describe("vote authentication", () => {
  it("counts a vote only when it comes from its signer", () => {
    const me = leader === 0 ? 1 : 0;
    const clock = new SimClock();
    const { voter } = run(me, new FileJournal(join(dir, "auth.journal")), clock);
    const message = proposalMessage("A") as Extract<Message, { type: "propose" }>;
    const others = [0, 1, 2, 3].filter((i) => i !== me);
    const votes = others.map((i) => ({
      kind: "notarize" as const,
      round: message.proposal.round,
      proposal: message.proposal,
      signer: i,
      signature: scheme.sign(i, "notarize", message.proposal.round, message.proposal),
    }));
    const relay = others.find((i) => i !== leader) as number;
    // validly signed votes relayed by another validator are ignored
    for (const vote of votes) voter.receive(vote.signer === relay ? leader : relay, { type: "vote", vote });
    expect(voter.currentView).toBe(1);
    for (const vote of votes) voter.receive(vote.signer, { type: "vote", vote });
    expect(voter.currentView).toBe(2);
    voter.stop();
  });
});

describe("pacing with a real clock", () => {
  it("the leader still proposes when timers fire a fraction of a millisecond early", () => {
    const sim = new SimClock();
    // like setTimeout with fractional deadlines: callbacks may run slightly before `at`
    const early = {
      now: () => sim.now(),
      schedule: (at: number, fn: () => void) => sim.schedule(at - 0.5, fn),
    };
    const sent: Message[] = [];
    const voter = new Voter({
      config: genesisVoterConfig(leader, { minViewMs: 100 }),
      scheme,
      app: new LinearApp(),
      network: { broadcast: (m) => sent.push(m), send: () => {} },
      clock: early,
      journal: new FileJournal(join(dir, "pacing.journal")),
    });
    sim.schedule(0.25, () => voter.start()); // enter view 1 at a fractional time
    sim.run(99);
    expect(sent.filter((m) => m.type === "propose")).toHaveLength(0); // not before the pace
    sim.run(200);
    expect(sent.filter((m) => m.type === "propose")).toHaveLength(1);
    voter.stop();
  });

  it("keeps certificates (with seeds) beside the votes: reloaded, pruned, and a torn tail cut", () => {
    const path = join(dir, "certs.journal");
    const j = new FileJournal(path);
    const round = (view: number) => ({ epoch: 0, view });
    const proposal = (view: number) => ({
      round: round(view),
      height: view,
      parentView: view - 1,
      parent: "aa".repeat(32),
      payload: "bb".repeat(32),
    });
    const cert = (view: number, kind: "notarize" | "nullify") => ({
      kind,
      round: round(view),
      proposal: kind === "nullify" ? null : proposal(view),
      signers: Uint8Array.from([0b0111]),
      signature: Uint8Array.from([1, 2, 3, view]),
      seed: Uint8Array.from([9, view]),
    });
    const vote: Vote = {
      kind: "nullify",
      round: round(3),
      proposal: null,
      signer: 1,
      signature: Uint8Array.from([7]),
    };
    j.appendCertificate(cert(2, "notarize"));
    j.append(vote);
    j.appendCertificate(cert(3, "nullify"));
    j.close();
    const plainCert = (c: ReturnType<typeof cert>) => ({
      ...c,
      signers: [...c.signers],
      signature: [...c.signature],
      seed: [...c.seed],
    });
    const back = new FileJournal(path);
    expect(plain(back.load())).toEqual(plain([vote]));
    expect(back.loadCertificates().map((c) => plainCert(c as ReturnType<typeof cert>))).toEqual([
      plainCert(cert(2, "notarize")),
      plainCert(cert(3, "nullify")),
    ]);
    back.prune(0, 3);
    expect(back.loadCertificates().map((c) => c.round.view)).toEqual([3]);
    back.close();
    appendFileSync(path, Buffer.from([0, 0, 0, 90, 1]));
    const again = new FileJournal(path);
    expect(again.repairedBytes).toBe(5);
    expect(again.loadCertificates().map((c) => c.round.view)).toEqual([3]);
    expect(again.load()).toHaveLength(1);
    again.close();
  });
});
