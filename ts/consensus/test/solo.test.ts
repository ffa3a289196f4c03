/**
 * A validator set of one, unpaced: every proposal certifies and finalizes itself at once. The
 * voter must not propose the next view inside the call that finalized the previous one
 * without bound (that overflowed the stack and starved the event loop): beyond a small
 * nesting depth the next proposal waits for the clock.
 */
import { describe, expect, it } from "vitest";
import { MacScheme, type Proposal, SimClock, Voter } from "../src/index.ts";
import { genesisVoterConfig, signedByApp } from "./voter-doubles.ts";

describe("a lone validator", () => {
  it("finalizes thousands of unpaced blocks, yielding to the clock between proposals", () => {
    const clock = new SimClock();
    const final: Proposal[] = [];
    let voter: Voter | null = null;
    const app = signedByApp("solo", (proposal) => {
      final.push(proposal);
      if (final.length === 5_000) voter?.stop();
    });
    voter = new Voter({
      config: genesisVoterConfig(0),
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
