/**
 * A validator set of one, unpaced: every proposal certifies and finalizes itself at once. The
 * voter must not propose the next view inside the call that finalized the previous one
 * without bound (that overflowed the stack and starved the event loop): beyond a small
 * nesting depth the next proposal waits for the clock.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type Application,
  DEFAULT_TIMEOUTS,
  MacScheme,
  type Proposal,
  type Round,
  SimClock,
  Voter,
} from "../src/index.ts";

const GENESIS = "00".repeat(32);
interface Block {
  view: number;
  height: number;
  parentView: number;
  parent: string;
}
const digestOf = (b: Block) => createHash("sha256").update(JSON.stringify(b)).digest("hex");

describe("a lone validator", () => {
  it("finalizes thousands of unpaced blocks, yielding to the clock between proposals", () => {
    const clock = new SimClock();
    const final: Proposal[] = [];
    let voter: Voter | null = null;
    const app: Application = {
      genesis: GENESIS,
      propose(round: Round, parent: { view: number; digest: string; height: number }) {
        const block: Block = {
          view: round.view,
          height: parent.height + 1,
          parentView: parent.view,
          parent: parent.digest,
        };
        return { digest: digestOf(block), block };
      },
      digest: (b) => digestOf(b as Block),
      link: (b) => b as Block,
      verify: () => true,
      finalizedBlock: () => null,
      finalized(proposal) {
        final.push(proposal);
        if (final.length === 5_000) voter?.stop();
      },
    };
    voter = new Voter({
      config: {
        me: 0,
        epoch: 0,
        genesisSeed: new Uint8Array(32),
        finalized: { view: 0, digest: GENESIS, height: 0 },
        ...DEFAULT_TIMEOUTS,
      },
      scheme: new MacScheme(1, "solo"),
      app,
      network: { broadcast: () => {}, send: () => {} },
      clock,
      journal: { append: () => {}, load: () => [] },
    });
    voter.start(); // threw RangeError (stack overflow) before the bound
    expect(final.length).toBeGreaterThan(0);
    expect(final.length).toBeLessThan(5_000); // the rest waits for the clock
    clock.run(0); // all at time 0: unpaced
    expect(final.length).toBe(5_000);
    expect(final.map((p) => p.height)).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
    expect(clock.executed).toBeGreaterThan(100);
  });
});
