/**
 * {@link EpochVoters} keeps the next epoch's messages that arrive before its voter starts; one
 * peer flooding them must not crowd out the other peers' (the new epoch's first proposal).
 * It also reports the retired voter's epoch, whose set the node still routes by.
 */
import { describe, expect, it } from "vitest";
import {
  type Application,
  DEFAULT_TIMEOUTS,
  EpochVoters,
  epochsInUse,
  MacScheme,
  type Message,
  SimClock,
  type Vote,
} from "../src/index.ts";

const E = 10;
const scheme = new MacScheme(4, "epochs-early");

const app: Application = {
  genesis: "00".repeat(32),
  propose: () => null,
  digest: () => "",
  link: () => ({ view: 0, height: 0, parentView: 0, parent: "" }),
  verify: () => false,
  finalizedBlock: () => null,
  finalized: () => {},
};

function voters(tip: { height: number }): EpochVoters {
  return new EpochVoters({
    epochBlocks: E,
    plan: () => ({ scheme, me: -1, peers: [0, 1, 2, 3] }),
    app,
    tip: () => ({ view: tip.height, height: tip.height, digest: `d${tip.height}` }),
    digestAt: (h) => `d${h}`,
    network: { broadcast: () => {}, send: () => {} },
    clock: new SimClock(),
    journal: { append: () => {}, load: () => [] },
    timeouts: DEFAULT_TIMEOUTS,
  });
}

const nullify = (epoch: number, view: number, signer: number): Message => {
  const round = { epoch, view };
  const vote: Vote = { kind: "nullify", round, signer, proposal: null, signature: new Uint8Array(32) };
  return { type: "vote", vote };
};

describe("EpochVoters: early messages of the next epoch", () => {
  it("one peer cannot fill the buffer: the others' messages are still kept", () => {
    const tip = { height: 5 };
    const ev = voters(tip);
    expect(ev.start()).toBe(true);
    expect(ev.epoch).toBe(0);
    for (let v = 1; v <= 1_000; v++) ev.receive(3, nullify(1, v, 3)); // a flood from peer 3
    ev.receive(1, nullify(1, 1, 1));
    ev.receive(2, nullify(1, 1, 2));
    const early = (ev as unknown as { early: Array<{ from: number }> }).early;
    expect(early.filter((m) => m.from === 1)).toHaveLength(1);
    expect(early.filter((m) => m.from === 2)).toHaveLength(1);
    expect(early.filter((m) => m.from === 3).length).toBeLessThan(early.length);
  });
});

describe("EpochVoters: the retired voter's epoch", () => {
  it("is the previous epoch after a boundary and the old one after a catch-up jump (its set stays in use)", () => {
    const tip = { height: 5 };
    const ev = voters(tip);
    expect(ev.start()).toBe(true);
    expect([ev.epoch, ev.retiredEpoch]).toEqual([0, null]);
    tip.height = E - 1; // epoch 0's last block final: epoch 1
    expect(ev.advance()).toBe(true);
    expect([ev.epoch, ev.retiredEpoch]).toEqual([1, 0]);
    tip.height = 4 * E - 1; // caught up through epochs 2 and 3 at once: epoch 4
    expect(ev.advance()).toBe(true);
    expect([ev.epoch, ev.retiredEpoch]).toEqual([4, 1]);
    // the peer indices of epoch 1's members are still routed by its retired voter
    expect(epochsInUse(4, ev.epoch, ev.retiredEpoch)).toContain(1);
    ev.stop();
  });
});
