/**
 * Equivocation across processes: four validators (`cowboyd --config`, as `cowboy localnet`
 * starts them), validator 3 with the testing-only `faults.equivocate` switch, which makes it
 * sign a second, conflicting notarize vote in one view. The honest validators detect the
 * conflict, make and gossip evidence, and one of them submits it on chain as a
 * `submitEvidence` transaction signed by its operator account; the state transition verifies
 * it, slashes 1% of validator 3's stake and jails it, and the chain's validator set of the
 * next epoch (10-block epochs here) no longer contains it. Meanwhile the chain keeps
 * finalizing with one block hash everywhere. Then the whole network is killed at once and
 * restarted: it finalizes again (journaled certificates and kept pending blocks).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { toHex } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCALNET_STAKE, localnetValidatorAddresses } from "../localnet.ts";
import { Localnet, toQuantity, waitFor } from "./localnet-harness.ts";

const N = 4;
const EVIL = 3;
const EPOCH = 10;
let net: Localnet;

beforeAll(async () => {
  net = await Localnet.start({
    name: "equivocation",
    validators: N,
    options: { blockTimeMs: 200, epochBlocks: EPOCH },
    // the testing-only fault switch of the config file
    configure: (paths) => {
      const cfgPath = paths[EVIL] as string;
      const cfg = JSON.parse(readFileSync(cfgPath, "utf8")) as Record<string, unknown>;
      writeFileSync(cfgPath, JSON.stringify({ ...cfg, faults: { equivocate: true } }, null, 2));
    },
  });
}, 120_000);

afterAll(async () => {
  await net?.stop();
});

interface ValidatorRecord {
  stake: string;
  slashed: string;
  jailedUntil: string;
  jailCount: number;
}

describe("an equivocating validator (4 processes)", () => {
  it("is detected, its evidence is included on chain, it is slashed 1% and jailed, and leaves the next epoch's set", async () => {
    const evil = toHex(localnetValidatorAddresses(N)[EVIL] as Uint8Array);
    // detected by every honest validator (directly or through evidence gossip)
    for (const i of [0, 1, 2])
      await waitFor(`evidence on validator ${i}`, async () => (await net.status(i)).evidence >= 1);
    // the evidence transaction is executed: slashed 1% and jailed, seen on every validator
    const records: ValidatorRecord[] = [];
    for (const i of net.validators) {
      await waitFor(`the punishment on validator ${i}`, async () => {
        const r = (await net.rpc(i, "cowboy_getValidator", [evil])) as ValidatorRecord | null;
        if (r !== null && BigInt(r.jailedUntil) > 0n) records[i] = r;
        return records[i] !== undefined;
      });
    }
    const slash = LOCALNET_STAKE / 100n;
    for (const r of records) {
      expect(BigInt(r.slashed)).toBe(slash);
      expect(BigInt(r.stake)).toBe(LOCALNET_STAKE - slash);
      expect(r.jailCount).toBe(1);
    }
    // exactly one submitEvidence transaction succeeded: find it in the finalized blocks
    const tip = await net.height(0);
    let included = 0;
    let jailedAt = -1;
    for (let h = 1; h <= tip; h++) {
      const b = (await net.rpc(0, "cowboy_getBlockByNumber", [toQuantity(h), true])) as {
        transactions: Array<{ hash: string; instruction?: { kind: string } }>;
      };
      for (const tx of b.transactions) {
        if (tx.instruction?.kind !== "submitEvidence") continue;
        const receipt = (await net.rpc(0, "cowboy_getTransactionReceipt", [tx.hash])) as { status: string };
        if (receipt.status === "success") {
          included++;
          jailedAt = h;
        }
      }
    }
    expect(included).toBe(1);
    // the set of the epoch after the jailing no longer holds it (the epochs before still do)
    const next = Math.floor((jailedAt + EPOCH - Math.floor(EPOCH / 2)) / EPOCH) + 1; // frozen at F(e) = e·E + ⌊E/2⌋
    await net.waitForHeight([0], next * EPOCH, "the next epoch");
    expect(await net.validatorsOf(0)).toContain(evil.toLowerCase());
    const after = await net.validatorsOf(next);
    expect(after).toHaveLength(N - 1);
    expect(after).not.toContain(evil.toLowerCase());
    // the metrics say the same
    const text = await (await fetch(`${net.url(1)}metrics`)).text();
    expect(text).toMatch(/^cowboy_validator_equivocations_detected_total [1-9]/m);
    // and the chain stayed one chain
    expect(await net.versionsAt(net.validators, await net.commonHeight(net.validators))).toHaveLength(1);
  }, 240_000);

  it("the whole network killed at once and restarted finalizes again", async () => {
    const all = net.validators;
    const before = Math.max(...(await net.heights(all)));
    await Promise.all(all.map((i) => net.kill(i)));
    await Promise.all(all.map((i) => net.spawn(i)));
    await net.waitForHeight(all, before + 5, "finality after a full restart", 120_000);
    expect(await net.versionsAt(all, await net.commonHeight(all))).toHaveLength(1);
  }, 240_000);
});
