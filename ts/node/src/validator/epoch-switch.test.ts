/**
 * Four validator processes of a localnet whose genesis carries a DKG output (`cowboy localnet`'s
 * default) and a short epoch: every node runs one voter per epoch and switches at each epoch's
 * last block — views restart at 1, the same chain everywhere — and a validator that exits
 * stops voting from the epoch whose set no longer holds it (the others reshare the group among
 * themselves and keep finalizing; it follows the chain without voting). A validator killed
 * for two epochs restarts, block-syncs across the boundaries and votes in the current epoch.
 */
import { addressFromSecretKey, toHex } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localnetOperatorKeys } from "../localnet.ts";
import { Localnet, quantity, sendTransaction, waitFor, waitForReceipt } from "./localnet-harness.ts";

const N = 4;
const E = 12;
let net: Localnet;

beforeAll(async () => {
  net = await Localnet.start({
    name: "epochs",
    validators: N,
    options: { blockTimeMs: 250, epochBlocks: E },
  });
}, 120_000);

afterAll(async () => {
  await net?.stop();
});

describe("epoch switching: four validator processes", () => {
  it("finalize across epoch boundaries with one voter per epoch: same chain everywhere, views restart", async () => {
    const all = net.validators;
    await net.waitForHeight([0], 3 * E + 2, "three epoch boundaries", 180_000);
    await waitFor("every validator voting in epoch 3 or later", async () =>
      (await Promise.all(all.map((i) => net.status(i)))).every((s) => s.epoch >= 3 && s.voting),
    );
    for (const i of all) {
      // a block's view exceeds its parent's, so without restarts the current view would be at
      // least the finalized height; views count from 1 in each epoch, far below it
      const h = await net.height(i);
      const s = await net.status(i);
      expect(s.epoch).toBeGreaterThanOrEqual(3);
      expect(s.view).toBeLessThan(h);
    }
    const top = await net.commonHeight(all);
    expect(top).toBeGreaterThanOrEqual(3 * E);
    for (const h of [E - 1, E, 2 * E - 1, 2 * E, 3 * E - 1, 3 * E, top])
      expect(new Set(await Promise.all(all.map((i) => net.hashAt(i, h)))).size).toBe(1);
  }, 300_000);

  it("a validator down across two boundaries catches up across them and votes in the current epoch", async () => {
    await net.kill(2);
    const from = await net.height(0);
    const boundary = (Math.floor(from / E) + 2) * E;
    await net.waitForHeight([0], boundary + 2, "two more boundaries without validator 2", 180_000);
    await net.spawn(2);
    await waitFor("it to catch up", async () => (await net.height(2)) >= (await net.height(0)) - 2);
    await waitFor("it to vote again", async () => {
      const [s0, s2] = [await net.status(0), await net.status(2)];
      return s2.voting && s2.epoch === s0.epoch;
    });
    const h = await net.commonHeight([0, 2]);
    expect(await net.hashAt(2, h)).toBe(await net.hashAt(0, h));
    expect(await net.hashAt(2, boundary)).toBe(await net.hashAt(0, boundary));
  }, 300_000);

  it("a validator that exits stops voting from the epoch after; the others keep finalizing", async () => {
    const sk = localnetOperatorKeys(N)[3] as Uint8Array;
    const hash = await sendTransaction(
      net.url(0),
      sk,
      { kind: "exitValidator" },
      { cyclesLimit: 100_000n, cellsLimit: 10_000n },
    );
    const receipt = await waitForReceipt(net.url(0), hash, "the exit to be final");
    const at = quantity(receipt.blockNumber);
    // the set of the epoch after the next freeze point no longer holds it (after a resharing among
    // the other three; a failed ceremony would keep the old set: then it would still be here)
    const exitEpoch = Math.floor((at + E - Math.floor(E / 2)) / E) + 1;
    await net.waitForHeight([0], exitEpoch * E + 4, "the epoch without it", 180_000);
    const me = toHex(addressFromSecretKey(sk)).toLowerCase();
    expect(await net.validatorsOf(exitEpoch - 1)).toContain(me);
    expect(await net.validatorsOf(exitEpoch)).not.toContain(me);
    // each node switches once it has finalized the boundary (a loaded one a little later)
    for (const i of [0, 1, 2, 3])
      await waitFor(`validator ${i} in the exit epoch`, async () => (await net.status(i)).epoch >= exitEpoch);
    expect((await net.status(3)).voting).toBe(false);
    for (const i of [0, 1, 2]) expect((await net.status(i)).voting).toBe(true);
    // the three keep finalizing, the exited validator follows the same chain
    const h0 = await net.height(0);
    await net.waitForHeight([0], h0 + E, "more blocks without it");
    await net.waitForHeight([3], h0 + E / 2, "the follower to follow");
    const h = await net.commonHeight([0, 3]);
    expect(await net.hashAt(3, h)).toBe(await net.hashAt(0, h));
  }, 400_000);
});
