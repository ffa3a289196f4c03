import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  blsDevnetKeys,
  DEFAULT_VALIDATOR_PARAMS,
  decodeEvidence,
  decodeRecord,
  type Evidence,
  encodeEvidence,
  encodeRecord,
  evidenceFromEquivocation,
  type KvStore,
  loadNative,
  nativeValidatorCrypto,
  type Proposal,
  Simulation,
  ValidatorError,
  ValidatorRegistry,
  type Vote,
  type VoteKind,
} from "../src/index.ts";

class MemKv implements KvStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array) {
    return this.map.get(Buffer.from(key).toString("hex"));
  }
  put(key: Uint8Array, value: Uint8Array) {
    this.map.set(Buffer.from(key).toString("hex"), Uint8Array.from(value));
  }
  delete(key: Uint8Array) {
    this.map.delete(Buffer.from(key).toString("hex"));
  }
  dump(): string {
    return [...this.map.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${Buffer.from(v).toString("hex")}`)
      .join("\n");
  }
}

const CHAIN = 77n;
const CBY = 1_000_000_000n;
const MIN = DEFAULT_VALIDATOR_PARAMS.minStake;
const keys = blsDevnetKeys(6, CHAIN, createHash("sha256").update("validators-test").digest());
const native = loadNative();
const crypto = nativeValidatorCrypto(CHAIN);
const addr = (i: number) => (i + 1).toString(16).padStart(2, "0").repeat(20);
const codeOf = (f: () => unknown) => {
  try {
    f();
    return "no error";
  } catch (e) {
    return e instanceof ValidatorError ? e.code : String(e);
  }
};

/** A registry with validators 0..3 at genesis (stakes 10k, 20k, 30k, 40k CBY) and epoch 0 begun. */
function genesis() {
  const kv = new MemKv();
  const reg = new ValidatorRegistry({ kv, prefix: Uint8Array.of(0x08, 0xc0), crypto });
  for (let i = 0; i < 4; i++)
    reg.register({
      address: addr(i),
      stake: MIN * BigInt(i + 1),
      blsKey: keys.publicKeys[i] as Buffer,
      proof: keys.proofs[i] as Buffer,
      height: 0,
      genesis: true,
    });
  reg.beginEpoch(0);
  return { kv, reg };
}

function signedVote(signer: number, kind: VoteKind, view: number, block: string, height = view): Vote {
  const round = { epoch: 0, view };
  const proposal: Proposal | null =
    kind === "nullify"
      ? null
      : { round, height, parentView: view - 1, parent: "00".repeat(32), payload: block };
  const msg =
    proposal === null
      ? native.blsRoundBytes(0n, BigInt(view))
      : native.blsVoteMessage(Buffer.from(block, "hex"), BigInt(height), 0n, BigInt(view));
  return {
    kind,
    round,
    proposal,
    signer,
    signature: native.blsSign(keys.secretKeys[signer] as Buffer, kind, CHAIN, msg),
  };
}

function equivocation(
  signer: number,
  view: number,
  kinds: [VoteKind, VoteKind] = ["notarize", "notarize"],
): Evidence {
  const a = signedVote(signer, kinds[0], view, "aa".repeat(32));
  const b = signedVote(signer, kinds[1], view, "bb".repeat(32));
  const e = evidenceFromEquivocation({ signer, vote: a, conflicting: b });
  if (e === null) throw new Error("no evidence");
  return e;
}

describe("validator registration and lifecycle", () => {
  it("registers with stake, key and proof of possession; activates at the next epoch", () => {
    const { reg } = genesis();
    expect(reg.setOf(0).map((m) => m.address)).toEqual([0, 1, 2, 3].map(addr));
    const late = {
      address: addr(4),
      stake: MIN,
      blsKey: keys.publicKeys[4] as Buffer,
      proof: keys.proofs[4] as Buffer,
    };
    expect(codeOf(() => reg.register({ ...late, stake: MIN - 1n, height: 100 }))).toBe("STAKE_TOO_LOW");
    expect(codeOf(() => reg.register({ ...late, proof: keys.proofs[5] as Buffer, height: 100 }))).toBe(
      "BAD_PROOF_OF_POSSESSION",
    );
    expect(
      codeOf(() =>
        reg.register({
          ...late,
          blsKey: keys.publicKeys[0] as Buffer,
          proof: keys.proofs[0] as Buffer,
          height: 100,
        }),
      ),
    ).toBe("KEY_IN_USE");
    expect(codeOf(() => reg.register({ ...late, address: addr(0), height: 100 }))).toBe("ALREADY_REGISTERED");
    expect(codeOf(() => reg.register({ ...late, address: "XYZ", height: 100 }))).toBe("BAD_ADDRESS");
    expect(codeOf(() => reg.register({ ...late, blsKey: new Uint8Array(47), height: 100 }))).toBe("BAD_KEY");
    const r = reg.register({ ...late, height: 100 });
    expect(r.activationEpoch).toBe(1);
    expect(reg.setOf(0)).toHaveLength(4); // the running epoch's set never changes
    expect(reg.beginEpoch(1).map((m) => m.address)).toEqual([0, 1, 2, 3, 4].map(addr));
    expect(codeOf(() => reg.beginEpoch(1))).toBe("EPOCH_ALREADY_STARTED");
    expect(reg.epochOf(3_599)).toBe(0);
    expect(reg.epochOf(3_600)).toBe(1);
  });

  it("exits at the next epoch and withdraws only after 7 days of unbonding", () => {
    const { reg } = genesis();
    reg.beginExit(addr(2), 1_000);
    expect(codeOf(() => reg.beginExit(addr(2), 1_001))).toBe("NOT_BONDED");
    expect(reg.beginEpoch(1).map((m) => m.address)).toEqual([0, 1, 3].map(addr));
    expect(codeOf(() => reg.withdraw(addr(2), 1_000 + 604_799))).toBe("STILL_UNBONDING");
    expect(codeOf(() => reg.withdraw(addr(1), 700_000))).toBe("NOT_EXITING");
    expect(reg.withdraw(addr(2), 1_000 + 604_800)).toBe(3n * MIN);
    expect(reg.get(addr(2))).toBeNull();
    expect(reg.addresses()).toEqual([0, 1, 3].map(addr));
  });

  it("a validator kept in the set by failed reshares cannot withdraw while it is a member", () => {
    const { reg } = genesis();
    reg.beginExit(addr(2), 1_000);
    expect(reg.beginEpoch(1).map((m) => m.address)).toEqual([0, 1, 3].map(addr));
    // the resharing to epoch 1 failed: its set is re-fixed to epoch 0's (which holds validator 2)
    const withIt = reg.setOf(0);
    const without = reg.setOf(1);
    reg.replaceSet(1, withIt);
    // …and so on for 7 days: at the end of unbonding it is still in the running epoch's set
    const unbonded = 1_000 + 604_800;
    const e = reg.epochOf(unbonded);
    reg.beginEpoch(e);
    reg.replaceSet(e, withIt);
    expect(codeOf(() => reg.withdraw(addr(2), unbonded))).toBe("STILL_UNBONDING");
    // or in the next epoch's, fixed already
    reg.replaceSet(e, without);
    reg.beginEpoch(e + 1);
    reg.replaceSet(e + 1, withIt);
    expect(codeOf(() => reg.withdraw(addr(2), unbonded))).toBe("STILL_UNBONDING");
    // once neither holds it, the stake is released
    reg.replaceSet(e + 1, without);
    expect(reg.withdraw(addr(2), unbonded)).toBe(3n * MIN);
  });

  it("one validator one vote; rewards are pro rata to stake and sum exactly", () => {
    const { reg } = genesis();
    const shares = reg.rewardShares(0, 1_000_003n);
    expect(shares.map((s) => s.amount)).toEqual([100_001n, 200_001n, 300_000n, 400_001n]);
    expect(shares.reduce((a, s) => a + s.amount, 0n)).toBe(1_000_003n);
  });

  it("round-trips records and refuses corrupt ones", () => {
    const { reg } = genesis();
    const r = reg.get(addr(1));
    expect(r).not.toBeNull();
    const rec = r as NonNullable<typeof r>;
    expect(decodeRecord(rec.address, encodeRecord(rec))).toEqual(rec);
    expect(() => decodeRecord(rec.address, encodeRecord(rec).subarray(1))).toThrow(ValidatorError);
  });
});

describe("maximum set size (maxValidators)", () => {
  /** A registry capped at `max` with validators i of `stakes[i]` × MIN registered at genesis. */
  function capped(max: number, stakes: readonly bigint[]) {
    const kv = new MemKv();
    const reg = new ValidatorRegistry({
      kv,
      prefix: Uint8Array.of(0x08, 0xc0),
      crypto,
      params: { maxValidators: max },
    });
    for (const [i, s] of stakes.entries())
      reg.register({
        address: addr(i),
        stake: MIN * s,
        blsKey: keys.publicKeys[i] as Buffer,
        proof: keys.proofs[i] as Buffer,
        height: 0,
        genesis: true,
      });
    return reg;
  }

  it("keeps the maxValidators largest stakes, equal stakes by lower address, members in address order", () => {
    // stakes 2, 1, 2, 3, 2 (× MIN): 3 first, then of the three 2s the two lowest addresses
    const reg = capped(3, [2n, 1n, 2n, 3n, 2n]);
    expect(reg.beginEpoch(0).map((m) => m.address)).toEqual([0, 2, 3].map(addr));
    expect(reg.setOf(0).map((m) => m.stake)).toEqual([2n, 2n, 3n].map((x) => x * MIN));
    // the ones left out earn nothing
    expect(reg.rewardShares(0, 7_000n).map((s) => s.address)).toEqual([0, 2, 3].map(addr));
    // no cap reached: everyone eligible is in, in address order
    const all = capped(5, [2n, 1n, 2n, 3n, 2n]);
    expect(all.beginEpoch(0).map((m) => m.address)).toEqual([0, 1, 2, 3, 4].map(addr));
    // the same registrations in any order give the same set (address order, not arrival)
    const kv = new MemKv();
    const reversed = new ValidatorRegistry({
      kv,
      prefix: Uint8Array.of(0x08, 0xc0),
      crypto,
      params: { maxValidators: 3 },
    });
    for (const i of [4, 3, 2, 1, 0])
      reversed.register({
        address: addr(i),
        stake: MIN * ([2n, 1n, 2n, 3n, 2n][i] as bigint),
        blsKey: keys.publicKeys[i] as Buffer,
        proof: keys.proofs[i] as Buffer,
        height: 0,
        genesis: true,
      });
    expect(reversed.beginEpoch(0)).toEqual(reg.setOf(0));
  });

  it("a larger stake pushes the smallest member out at the next freeze; it exits and withdraws normally", () => {
    const reg = capped(3, [1n, 2n, 3n]);
    expect(reg.beginEpoch(0).map((m) => m.address)).toEqual([0, 1, 2].map(addr));
    reg.register({
      address: addr(3),
      stake: 4n * MIN,
      blsKey: keys.publicKeys[3] as Buffer,
      proof: keys.proofs[3] as Buffer,
      height: 100,
    });
    expect(reg.beginEpoch(1).map((m) => m.address)).toEqual([1, 2, 3].map(addr));
    // validator 0 is still bonded, just outside the set; an equal stake does not win it back
    expect(reg.get(addr(0))?.status).toBe("bonded");
    expect(reg.rewardShares(1, 9n).map((s) => s.address)).toEqual([1, 2, 3].map(addr));
    reg.beginExit(addr(0), 3_700);
    const unbonded = 3_700 + 604_800;
    expect(codeOf(() => reg.withdraw(addr(0), unbonded - 1))).toBe("STILL_UNBONDING");
    expect(reg.withdraw(addr(0), unbonded)).toBe(MIN);
    // a member pushed out is refused while a (re-fixed) running or next set still holds it
    const member = capped(2, [1n, 2n, 3n]);
    const first = member.beginEpoch(0);
    expect(first.map((m) => m.address)).toEqual([1, 2].map(addr));
    member.beginExit(addr(1), 10);
    const e = member.epochOf(10 + 604_800);
    const without = member.beginEpoch(e);
    expect(without.map((m) => m.address)).toEqual([0, 2].map(addr));
    member.replaceSet(e, first); // a failed resharing kept the old set
    expect(codeOf(() => member.withdraw(addr(1), 10 + 604_800))).toBe("STILL_UNBONDING");
    member.replaceSet(e, without);
    expect(member.withdraw(addr(1), 10 + 604_800)).toBe(2n * MIN);
  });

  it("a cap below 1 still keeps one validator", () => {
    expect(
      capped(0, [1n, 2n])
        .beginEpoch(0)
        .map((m) => m.address),
    ).toEqual([addr(1)]);
  });
});

describe("equivocation evidence and slashing", () => {
  it("any node verifies evidence; the signer is slashed 1% and jailed 24 h, once", () => {
    const { kv, reg } = genesis();
    const e = equivocation(3, 5);
    // the bytes round-trip and are what a transaction would carry
    expect(decodeEvidence(encodeEvidence(e))).toEqual(e);
    const p = reg.submitEvidence(decodeEvidence(encodeEvidence(e)), 5_000);
    expect(p).toEqual({ address: addr(3), slashed: (4n * MIN) / 100n, jailedUntil: 5_000 + 86_400 });
    expect(reg.get(addr(3))?.stake).toBe(4n * MIN - (4n * MIN) / 100n);
    expect(codeOf(() => reg.submitEvidence(e, 5_001))).toBe("DUPLICATE_EVIDENCE");
    // jailed validators leave the set at the next epoch, and return after unjail
    expect(reg.beginEpoch(1).map((m) => m.address)).toEqual([0, 1, 2].map(addr));
    expect(codeOf(() => reg.unjail(addr(3), 5_000 + 86_399))).toBe("STILL_JAILED");
    expect(codeOf(() => reg.unjail(addr(2), 90_000))).toBe("NOT_JAILED");
    reg.unjail(addr(3), 5_000 + 86_400);
    expect(reg.beginEpoch(2).map((m) => m.address)).toEqual([0, 1, 2, 3].map(addr));
    // a second offence (from epoch 0, still kept) doubles the jail
    const again = reg.submitEvidence(equivocation(3, 9, ["nullify", "finalize"]), 100_000);
    expect(again.jailedUntil).toBe(100_000 + 2 * 86_400);
    expect(kv.map.size).toBeGreaterThan(0);
  });

  it("accepts a vote against a certificate the validator signed (how a two-faced leader is caught)", () => {
    const { reg } = genesis();
    const cert = (signers: number[], block: string, bitmap?: number) => {
      const sigs = signers.map((i) => signedVote(i, "notarize", 8, block).signature as Buffer);
      return {
        kind: "notarize" as const,
        height: 8,
        block,
        signature: Uint8Array.from(native.blsAggregateSignatures(sigs)),
        signers: Uint8Array.of(bitmap ?? signers.reduce((m, i) => m | (1 << i), 0)),
      };
    };
    const vote = signedVote(3, "notarize", 8, "aa".repeat(32));
    const statement = {
      kind: "notarize" as const,
      height: 8,
      block: "aa".repeat(32),
      signature: Uint8Array.from(vote.signature),
    };
    const good: Evidence = {
      epoch: 0,
      view: 8,
      signer: 3,
      a: statement,
      b: cert([1, 2, 3], "bb".repeat(32)),
    };
    expect(decodeEvidence(encodeEvidence(good))).toEqual(good);
    // the voter's fault report converts to the same kind of evidence
    const fromFault = evidenceFromEquivocation({
      signer: 3,
      vote,
      conflicting: {
        kind: "notarize",
        round: { epoch: 0, view: 8 },
        proposal: {
          round: { epoch: 0, view: 8 },
          height: 8,
          parentView: 7,
          parent: "00".repeat(32),
          payload: "bb".repeat(32),
        },
        signers: good.b.signers as Uint8Array,
        signature: good.b.signature,
        seed: null,
      },
    });
    expect(fromFault).toEqual(good);
    // a certificate that claims a signer who did not sign, or too few signers, proves nothing
    expect(
      codeOf(() => reg.submitEvidence({ ...good, b: cert([1, 2, 3], "bb".repeat(32), 0b1111) }, 10)),
    ).toBe("BAD_EVIDENCE");
    expect(codeOf(() => reg.submitEvidence({ ...good, b: cert([2, 3], "bb".repeat(32)) }, 10))).toBe(
      "BAD_EVIDENCE",
    );
    // the accused must be in the certificate
    expect(codeOf(() => reg.submitEvidence({ ...good, b: cert([0, 1, 2], "bb".repeat(32)) }, 10))).toBe(
      "BAD_EVIDENCE",
    );
    expect(reg.submitEvidence(good, 10).slashed).toBe((4n * MIN) / 100n);
  });

  it("rejects forged, non-conflicting, unknown-signer and malformed evidence", () => {
    const { reg } = genesis();
    const e = equivocation(1, 4);
    const forged: Evidence = { ...e, b: { ...e.b, signature: (e.a as { signature: Uint8Array }).signature } };
    expect(codeOf(() => reg.submitEvidence(forged, 10))).toBe("BAD_EVIDENCE");
    // evidence blaming validator 2 with validator 1's signatures
    expect(codeOf(() => reg.submitEvidence({ ...e, signer: 2 }, 10))).toBe("BAD_EVIDENCE");
    expect(codeOf(() => reg.submitEvidence({ ...e, signer: 9 }, 10))).toBe("BAD_EVIDENCE");
    expect(codeOf(() => reg.submitEvidence({ ...e, view: 5 }, 10))).toBe("BAD_EVIDENCE"); // signed for view 4
    expect(codeOf(() => reg.submitEvidence({ ...e, b: e.a }, 10))).toBe("BAD_EVIDENCE"); // the same vote twice
    expect(codeOf(() => reg.submitEvidence({ ...e, epoch: 3 }, 10))).toBe("EVIDENCE_TOO_OLD");
    // notarize + finalize of the same block, and notarize + nullify, are allowed in Simplex
    const allowed = evidenceFromEquivocation({
      signer: 1,
      vote: signedVote(1, "notarize", 6, "aa".repeat(32)),
      conflicting: signedVote(1, "nullify", 6, ""),
    });
    expect(allowed).toBeNull();
    const bytes = encodeEvidence(e);
    expect(() => decodeEvidence(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    expect(() => decodeEvidence(Uint8Array.from([...bytes, 0]))).toThrow(/trailing/);
    expect(reg.get(addr(1))?.slashed).toBe(0n);
  });
});

describe("downtime", () => {
  it("jails (without slashing) a validator missing more than 500 of 1,000 blocks; exactly 500 is fine", () => {
    const { reg } = genesis();
    const jailed: string[] = [];
    for (let h = 1_000; h < 2_000; h++) {
      // validator 2 misses the first 500 blocks of the window, validator 3 misses 501
      const participants = [0, 1, ...(h >= 1_500 ? [2] : []), ...(h >= 1_501 ? [3] : [])];
      for (const p of reg.recordParticipation(0, h, participants))
        jailed.push(`${p.address}@${p.jailedUntil}:${p.slashed}`);
    }
    expect(jailed).toEqual([`${addr(3)}@${1_500 + 86_400}:0`]);
    expect(reg.get(addr(2))?.jailedUntil).toBe(0);
    expect(reg.get(addr(3))?.stake).toBe(4n * MIN);
    // a new window starts from zero
    reg.recordParticipation(0, 2_000, [0, 1, 3]);
    expect(reg.get(addr(2))?.missed).toBe(1);
  });

  it("is deterministic: the same operations give byte-identical state", () => {
    const run = () => {
      const { kv, reg } = genesis();
      for (let h = 1; h < 1_200; h++)
        reg.recordParticipation(
          0,
          h,
          [0, 1, 2, 3].filter((i) => (h + i) % 3 !== 0),
        );
      reg.submitEvidence(equivocation(0, 3), 1_300);
      reg.beginExit(addr(1), 1_400);
      reg.beginEpoch(1);
      return kv.dump();
    };
    expect(run()).toBe(run());
    expect(CBY).toBe(1_000_000_000n);
  });
});

describe("downtime from what the voter saw", () => {
  it("a validator that is down gets no participation credit and is jailed; the others are not", () => {
    const sim = new Simulation({ seed: 41, validators: 4, dropRate: 0.02 });
    sim.start([3]); // validator 3 never comes up
    let blocks = sim.finalizedBlocksOf(0);
    while (blocks.length < 700) {
      sim.run(10_000);
      blocks = sim.finalizedBlocksOf(0);
    }
    const { reg } = genesis();
    const jailed: string[] = [];
    let credited = 0;
    for (const b of blocks.slice(0, 700)) {
      if (b.participants === null) continue;
      credited++;
      expect(b.participants).not.toContain(3);
      for (const p of reg.recordParticipation(0, b.proposal.height, b.participants)) jailed.push(p.address);
    }
    expect(credited).toBeGreaterThan(650);
    expect(jailed).toEqual([addr(3)]);
    // with everyone up, (nearly) every block credits all four
    const all = new Simulation({ seed: 42, validators: 4 });
    all.start();
    all.run(10_000);
    const full = all.finalizedBlocksOf(0).filter((b) => b.participants?.length === 4).length;
    expect(full).toBeGreaterThan(0.9 * all.finalizedBlocksOf(0).length);
  });
});
