/**
 * The Node API of docs/bls.md against the native addon: signatures, proofs of
 * possession, certificates, batch verification, threshold seeds, DKG, errors.
 */
import { randomBytes } from "node:crypto";
import * as native from "@cowboy/native";
import { describe, expect, it } from "vitest";

const CHAIN = 1n;

function validators(n: number) {
  const sks = Array.from({ length: n }, () => native.blsKeygen(randomBytes(32)));
  const pks = sks.map((sk) => native.blsPublicKey(sk));
  return { sks, pks };
}

describe("bls (docs/bls.md)", () => {
  it("signs and verifies with domain separation", () => {
    const { sks, pks } = validators(1);
    const [sk, pk] = [sks[0] as Buffer, pks[0] as Buffer];
    const msg = native.blsVoteMessage(Buffer.alloc(32, 7), 10n, 0n, 10n);
    expect(msg.toString("hex")).toBe(`${"07".repeat(32)}0a000a`);
    const sig = native.blsSign(sk, "finalize", CHAIN, msg);
    expect(sig.length).toBe(96);
    expect(native.blsVerify(pk, "finalize", CHAIN, msg, sig)).toBe(true);
    expect(native.blsVerify(pk, "notarize", CHAIN, msg, sig)).toBe(false);
    expect(native.blsVerify(pk, "finalize", 2n, msg, sig)).toBe(false);
    const pop = native.blsProofOfPossession(sk, CHAIN);
    expect(native.blsVerifyProofOfPossession(pk, CHAIN, pop)).toBe(true);
    expect(native.blsVerifyProofOfPossession(pk, 2n, pop)).toBe(false);
  });

  it("rejects hostile bytes with typed errors", () => {
    const { sks, pks } = validators(1);
    const msg = Buffer.from("m");
    const sig = native.blsSign(sks[0] as Buffer, "seed", CHAIN, msg);
    const infinity = Buffer.alloc(48);
    infinity[0] = 0xc0;
    expect(() => native.blsVerify(infinity, "seed", CHAIN, msg, sig)).toThrow(
      expect.objectContaining({ code: "ERR_BLS_INVALID_PUBLIC_KEY" }),
    );
    expect(() => native.blsVerify(pks[0] as Buffer, "seed", CHAIN, msg, sig.subarray(1))).toThrow(
      expect.objectContaining({ code: "ERR_BLS_INVALID_LENGTH" }),
    );
    expect(() => native.blsSign(sks[0] as Buffer, "vote", CHAIN, msg)).toThrow(
      expect.objectContaining({ code: "ERR_BLS_UNKNOWN_DOMAIN" }),
    );
    expect(() => native.blsKeygen(Buffer.alloc(31))).toThrow(
      expect.objectContaining({ code: "ERR_BLS_INVALID_LENGTH" }),
    );
  });

  it("assembles and verifies certificates, finds bad votes off the JS thread", async () => {
    const { sks, pks } = validators(7);
    const pops = sks.map((sk) => native.blsProofOfPossession(sk, CHAIN));
    const set = native.BlsValidatorSet.fromRegistrations(CHAIN, pks, pops);
    expect([set.size, set.quorum]).toEqual([7, 5]);
    const msg = native.blsVoteMessage(Buffer.alloc(32, 1), 3n, 0n, 3n);
    const sigs = sks.map((sk) => native.blsSign(sk, "notarize", CHAIN, msg));
    const cert = set.assemble(
      [0, 1, 2, 4, 6],
      [0, 1, 2, 4, 6].map((i) => sigs[i] as Buffer),
    );
    expect(cert.bitmap.toString("hex")).toBe("57");
    expect(set.verifyCertificate("notarize", CHAIN, msg, cert.bitmap, cert.signature)).toBe(true);
    expect(await set.verifyCertificateAsync("finalize", CHAIN, msg, cert.bitmap, cert.signature)).toBe(false);
    await expect(
      set.verifyCertificateAsync("notarize", CHAIN, msg, Buffer.from([0x07]), cert.signature),
    ).rejects.toMatchObject({ code: "ERR_BLS_INSUFFICIENT_SIGNERS" });
    const votes = [...sigs];
    votes[3] = sigs[4] as Buffer;
    const indices = [0, 1, 2, 3, 4, 5, 6];
    expect(await set.verifyVotesAsync("notarize", CHAIN, msg, indices, votes)).toEqual([3]);
    const items = pks.map((publicKey, i) => ({
      publicKey,
      domain: "notarize",
      chainId: CHAIN,
      message: msg,
      signature: votes[i] as Buffer,
    }));
    expect(await native.blsBatchVerifyAsync(items)).toEqual([3]);
  });

  it("recovers one seed per round from any threshold of partials", async () => {
    const { group, shares } = native.blsThresholdDeal(randomBytes(32), 4);
    const g = new native.BlsGroup(group);
    expect([g.threshold, g.total]).toEqual([3, 4]);
    expect(native.blsSeedMessage(1n, 300n).toString("hex")).toBe("01ac02");
    const partials = shares.map((s) => native.blsSeedPartialSign(s, CHAIN, 0n, 7n));
    const a = await g.recoverSeedAsync(CHAIN, 0n, 7n, partials.slice(0, 3));
    const b = await g.recoverSeedAsync(CHAIN, 0n, 7n, partials.slice(1));
    expect(a.equals(b)).toBe(true);
    expect(native.blsSeedVerify(a, CHAIN, g.publicKey)).toBe(true);
    await expect(g.recoverSeedAsync(CHAIN, 0n, 7n, partials.slice(2))).rejects.toMatchObject({
      code: "ERR_BLS_NOT_ENOUGH_PARTIALS",
    });
    const seed = native.blsSeedDecode(a);
    expect([seed.epoch, seed.view]).toEqual([0n, 7n]);
    const r = native.blsSeedDerive(seed.signature, Buffer.from("cowboy-runner-select-v3:job-1"), 32);
    expect(r.length).toBe(32);
    expect(native.blsParentRound(0n, 8n)).toEqual({ epoch: 0n, view: 7n });
    expect(() => native.blsParentRound(1n, 1n)).toThrow(
      expect.objectContaining({ code: "ERR_BLS_NO_PARENT_ROUND" }),
    );
  });

  it("runs a DKG and a resharing that keeps the group key", () => {
    const { sks, pks } = validators(4);
    const ceremony = (
      round: bigint,
      previous: Buffer | null,
      prevShares: Map<string, Buffer> | null,
      dealerIdx: number[],
      playerSks: Buffer[],
    ) => {
      const players = playerSks.map((s) => native.blsPublicKey(s));
      const dealers = dealerIdx.map((i) => pks[i] as Buffer);
      const ps = playerSks.map((s) => new native.BlsDkgPlayer(CHAIN, round, previous, dealers, players, s));
      const logs: Buffer[] = [];
      for (const i of dealerIdx) {
        const share = prevShares?.get((pks[i] as Buffer).toString("hex")) ?? null;
        const d = new native.BlsDkgDealer(
          CHAIN,
          round,
          previous,
          dealers,
          players,
          sks[i] as Buffer,
          share,
          randomBytes(32),
        );
        for (const { player, message } of d.privateMessages()) {
          const j = players.findIndex((p) => p.equals(player));
          const ack = ps[j]?.dealerMessage(pks[i] as Buffer, d.publicMessage, message);
          if (ack) d.receiveAck(player, ack);
        }
        logs.push(d.finalize());
      }
      const observed = native.blsDkgObserve(CHAIN, round, previous, dealers, players, logs, randomBytes(32));
      const shares = new Map<string, Buffer>();
      ps.forEach((p, j) => {
        const r = p.finalize(logs, randomBytes(32));
        expect(r.output.equals(observed.output)).toBe(true);
        shares.set((players[j] as Buffer).toString("hex"), r.share as Buffer);
      });
      return { observed, shares };
    };
    const first = ceremony(0n, null, null, [0, 1, 2, 3], sks);
    const newcomer = native.blsKeygen(randomBytes(32));
    const second = ceremony(1n, first.observed.output, first.shares, [0, 1, 2], [...sks, newcomer]);
    const g1 = new native.BlsGroup(first.observed.group);
    const g2 = new native.BlsGroup(second.observed.group);
    expect(g2.publicKey.equals(g1.publicKey)).toBe(true);
    expect([g2.threshold, g2.total]).toEqual([4, 5]);
  });
});
