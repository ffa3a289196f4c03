import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Sfc32 } from "@cowboy/collections";
import { afterAll, describe, expect, it } from "vitest";
import { findSafetyViolation, MacScheme, type Message, type Vote, Voter } from "../src/index.ts";
import {
  decodeLine,
  encodeLine,
  genesisVoterConfig,
  signedByApp,
  WALL_CLOCK_TIMEOUTS,
  wallClock,
} from "./voter-doubles.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-journal-kill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = 4;
const CHILD = 3;
const SEED = "journal-kill";

/** Conflicting pairs among the votes one validator signed. */
function conflicts(votes: readonly Vote[]): string[] {
  const byView = new Map<number, Vote[]>();
  for (const v of votes) byView.set(v.round.view, [...(byView.get(v.round.view) ?? []), v]);
  const found: string[] = [];
  for (const [view, vs] of byView) {
    const notarized = new Set(vs.filter((v) => v.kind === "notarize").map((v) => v.proposal?.payload));
    const finalized = new Set(vs.filter((v) => v.kind === "finalize").map((v) => v.proposal?.payload));
    if (notarized.size > 1) found.push(`view ${view}: two notarize votes`);
    if (finalized.size > 1) found.push(`view ${view}: two finalize votes`);
    if (finalized.size > 0 && vs.some((v) => v.kind === "nullify"))
      found.push(`view ${view}: nullify and finalize`);
  }
  return found;
}

describe("safety across crashes (SIGKILL) with the file journal", () => {
  it("a validator killed and restarted many times never signs conflicting votes", async () => {
    const scheme = new MacScheme(N, SEED);
    const journal = join(dir, "v3.journal");
    const random = new Sfc32(20261121);
    const finals: string[][] = [[], [], []];
    const voters: Voter[] = [];
    const childVotes: Vote[] = [];
    let child: ChildProcess | null = null;
    let starts = 0;

    // the last messages sent to the child; peers retransmit them after it restarts, which
    // walks a restarted child straight back into the views it was voting in
    const recent: string[] = [];
    const deliver = (from: number, to: number, m: Message) => {
      if (to === CHILD) {
        const line = `${encodeLine({ from, m })}\n`;
        recent.push(line);
        if (recent.length > 300) recent.shift();
        if (child?.stdin?.writable) child.stdin.write(line);
        return;
      }
      setTimeout(() => voters[to]?.receive(from, m), 2);
    };
    const route = (from: number, to: number | null, m: Message) => {
      for (let i = 0; i < N; i++) if (i !== from && (to === null || to === i)) deliver(from, i, m);
    };

    for (let me = 0; me < CHILD; me++) {
      const votes: Vote[] = [];
      voters.push(
        new Voter({
          config: genesisVoterConfig(me, WALL_CLOCK_TIMEOUTS),
          scheme,
          app: signedByApp(`in-process-${me}`, (p) => finals[me]?.push(p.payload)),
          network: { broadcast: (m) => route(me, null, m), send: (to, m) => route(me, to, m) },
          clock: wallClock,
          journal: { append: (v) => votes.push(v), load: () => votes },
        }),
      );
    }

    const startChild = () => {
      starts++;
      const c = spawn(
        process.execPath,
        [join(import.meta.dirname, "journal-child.ts"), journal, String(CHILD), String(N), SEED],
        {
          stdio: ["pipe", "pipe", "inherit"],
        },
      );
      c.stdin?.on("error", () => {});
      for (const line of recent) c.stdin?.write(line);
      createInterface({ input: c.stdout as NodeJS.ReadableStream }).on("line", (line) => {
        const { to, m } = decodeLine(line) as { to: number | null; m: Message };
        // every vote the child signed, as its peers see it
        const vote = m.type === "vote" ? m.vote : m.type === "propose" ? m.vote : null;
        if (vote !== null && vote.signer === CHILD && scheme.verifyVote(vote)) childVotes.push(vote);
        route(CHILD, to, m);
      });
      child = c;
    };

    for (const v of voters) v.start();
    startChild();
    const kill = async () => {
      const c = child;
      child = null;
      if (c === null) return;
      if (c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGKILL");
      await exited;
    };
    /** Polls `cond` until true (a loaded machine starts a child process slowly). */
    const waitFor = async (what: string, cond: () => boolean, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!cond()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      for (let round = 0; round < 12; round++) {
        // each run of the child signs before it is killed at a random point of its voting
        const signed = childVotes.length;
        await waitFor(`run ${round + 1} of the child to sign a vote`, () => childVotes.length > signed);
        await new Promise((r) => setTimeout(r, random.between(300, 1_200)));
        await kill();
        await new Promise((r) => setTimeout(r, random.between(50, 400)));
        startChild();
      }
      const signed = childVotes.length;
      await waitFor(
        "the last run of the child to sign (over 20 votes in all)",
        () => childVotes.length > Math.max(signed, 20),
      );
      await waitFor("10 blocks finalized by every in-process validator", () =>
        finals.every((f) => f.length > 10),
      );
    } finally {
      await kill();
      for (const v of voters) v.stop();
    }
    expect(starts).toBe(13);
    expect(childVotes.length).toBeGreaterThan(20);
    expect(conflicts(childVotes)).toEqual([]);
    expect(findSafetyViolation(finals)).toBeNull();
    expect(Math.min(...finals.map((f) => f.length))).toBeGreaterThan(10);
  }, 240_000);
});
