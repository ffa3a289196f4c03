/**
 * The validator set in the state transition (stf/validators.ts): registration, activation at
 * the next epoch boundary after the freeze point F(e) = e·E + ⌊E/2⌋, exit and withdrawal after unbonding, evidence (1% slash burned, jail),
 * downtime jail, unjail, block rewards split by stake, and the validator-set
 * SYS_CANCEL_TIMER — with exact balances. Small parameters (4-block epochs) keep it short.
 */
import { createRequire } from "node:module";
import { DEFAULT_VALIDATOR_PARAMS, type Evidence, encodeEvidence } from "@cowboy/consensus";
import { actorAddress, addressFromSecretKey, type Block, type Instruction, toHex } from "@cowboy/sdk";
import { describe, expect, it } from "vitest";
import {
  addrA,
  addrB,
  addrC,
  CHAIN_ID,
  FEES,
  keyA,
  keyB,
  keyC,
  PROPOSER,
  script,
  scriptedExecutor,
  secretKey,
  signed,
} from "../../test/stf-helpers.ts";
import { MAX_TX_SIZE, UNITS_PER_CBY } from "../params.ts";
import { Chain } from "./chain.ts";
import { maxLogBytes } from "./dkg.ts";
import { blockReward } from "./exec.ts";
import { MemoryState } from "./memory-state.ts";
import type { ExecutionReceipt } from "./types.ts";
import {
  DKG_LOG_TX_OVERHEAD,
  decodeValidatorParams,
  encodeValidatorParams,
  MAX_VALIDATORS_LIMIT,
  readValidatorParams,
  SYS_CANCEL_TIMER_NAMESPACE,
  sysCancelTimerMessage,
  VALIDATOR_PARAMS_KEY,
} from "./validators.ts";

type NativeBls = {
  blsKeygen(ikm: Buffer): Buffer;
  blsPublicKey(sk: Buffer): Buffer;
  blsProofOfPossession(sk: Buffer, chainId: bigint): Buffer;
  blsSign(sk: Buffer, domain: string, chainId: bigint, message: Buffer): Buffer;
  blsVoteMessage(hash: Buffer, height: bigint, epoch: bigint, view: bigint): Buffer;
  blsSignNamespaced(sk: Buffer, namespace: Buffer, message: Buffer): Buffer;
  blsAggregateSignatures(sigs: Buffer[]): Buffer;
};
const bls = createRequire(import.meta.url)("@cowboy/native") as NativeBls;

const CBY = UNITS_PER_CBY;
const T0 = 1_700_000_000_000n;
/** fee of a 21,000-cycle, 0-cell transaction at the minimum basefee with FEES (no tip) */
const FEE21K = 21_000n * 10_000n;
const PARAMS = {
  minStake: 100n * CBY,
  epochBlocks: 4,
  unbondingBlocks: 6,
  jailBlocks: 5,
  slashBps: 100,
  downtimeWindow: 4,
  downtimeMaxMissed: 2,
  keepEpochs: 10,
};

function blsKey(n: number) {
  const sk = bls.blsKeygen(Buffer.alloc(32, n));
  return {
    sk,
    pk: new Uint8Array(bls.blsPublicKey(sk)),
    pop: new Uint8Array(bls.blsProofOfPossession(sk, CHAIN_ID)),
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** A chain with genesis validators `vals` (operator key, stake) on 4-block epochs. */
class Net {
  readonly state = new MemoryState();
  readonly chain: Chain;
  readonly blocks: Block[] = [];
  private readonly nonces = new Map<string, bigint>();
  t = T0;
  constructor(
    vals: { key: Uint8Array; bls: ReturnType<typeof blsKey>; stake: bigint }[],
    extra: Uint8Array[] = [],
    params: Partial<typeof PARAMS & { maxValidators: number }> = {},
  ) {
    const accounts = [...vals.map((v) => addressFromSecretKey(v.key)), ...extra].map((address) => ({
      address,
      balance: 1_000n * CBY,
    }));
    this.chain = Chain.create({
      state: this.state,
      genesis: {
        chainId: CHAIN_ID,
        timestampMs: T0,
        accounts,
        validators: vals.map((v) => ({
          address: addressFromSecretKey(v.key),
          blsKey: v.bls.pk,
          stake: v.stake,
          proofOfPossession: v.bls.pop,
        })),
        validatorParams: { ...PARAMS, ...params },
      },
      executor: scriptedExecutor(this.state),
    });
  }
  nonce(key: Uint8Array): bigint {
    const k = hex(key);
    const n = this.nonces.get(k) ?? 0n;
    this.nonces.set(k, n + 1n);
    return n;
  }
  tx(key: Uint8Array, ix: Instruction, o: { cyclesLimit?: bigint; cellsLimit?: bigint } = {}): Uint8Array {
    return signed(key, ix, { nonce: this.nonce(key), cyclesLimit: 21_000n, cellsLimit: 0n, ...FEES, ...o });
  }
  block(txs: Uint8Array[] = [], participants?: number[]) {
    this.t += 1000n;
    const r = this.chain.buildBlock(txs, {
      timestampMs: this.t,
      proposer: PROPOSER,
      ...(participants === undefined ? {} : { participants }),
    });
    expect(r.skipped).toEqual([]);
    this.blocks.push(r.block);
    return r;
  }
  balance(a: Uint8Array): bigint {
    return this.chain.getAccount(a)?.balance ?? 0n;
  }
}

const receipt = (r: { receipts: ExecutionReceipt[] }, i = 0) => r.receipts[i] as ExecutionReceipt;
const errCode = (rc: ExecutionReceipt) => (rc.error ?? "").split(":")[0];

const blsA = blsKey(1);
const blsB = blsKey(2);
const blsC = blsKey(3);

describe("genesis validators and rewards", () => {
  it("debits genesis stakes, fixes the epoch-0 set, and splits the reward 1:3 by stake exactly", () => {
    const net = new Net([
      { key: keyA, bls: blsA, stake: 100n * CBY },
      { key: keyB, bls: blsB, stake: 300n * CBY },
    ]);
    expect(net.balance(addrA)).toBe(900n * CBY);
    expect(net.balance(addrB)).toBe(700n * CBY);
    const set = net.chain.validatorSet(0);
    // ordered by address: the consensus index is the position
    const sorted = [addrA, addrB].map(hex).sort();
    expect(set.map((m) => m.address)).toEqual(sorted);
    expect(set.map((m) => m.stake)).toEqual(sorted.map((a) => (a === hex(addrA) ? 100n : 300n) * CBY));
    expect(net.chain.validatorSet()).toEqual(set);
    expect(net.chain.validator(addrA)?.stake).toBe(100n * CBY);
    expect(net.chain.validator(addrC)).toBeNull();
    expect(net.chain.validatorParams().epochBlocks).toBe(4);

    const r = net.block();
    const reward = blockReward(1n);
    expect(reward).toBe(2_536_783_358n);
    expect(r.reward).toBe(reward);
    // floor(R/4) = 634,195,839 and floor(3R/4) = 1,902,587,518: 1 unit of remainder goes to index 0
    const shareA = 634_195_839n + (sorted[0] === hex(addrA) ? 1n : 0n);
    const shareB = 1_902_587_518n + (sorted[0] === hex(addrB) ? 1n : 0n);
    expect(shareA + shareB).toBe(reward);
    expect(net.balance(addrA)).toBe(900n * CBY + shareA);
    expect(net.balance(addrB)).toBe(700n * CBY + shareB);
    // the proposer keeps the tips only (none here)
    expect(net.balance(PROPOSER)).toBe(0n);
    expect(r.validators?.rewards.map((x) => x.amount).reduce((a, b) => a + b, 0n)).toBe(reward);
    expect(r.validators?.nextSet).toBeNull();
  });

  it("without validators the proposer takes the reward (unchanged devnet behaviour)", () => {
    const state = new MemoryState();
    const chain = Chain.create({
      state,
      genesis: { chainId: CHAIN_ID, timestampMs: T0, accounts: [{ address: addrA, balance: CBY }] },
    });
    for (let i = 1n; i <= 5n; i++) chain.buildBlock([], { timestampMs: T0 + i * 1000n, proposer: PROPOSER });
    let total = 0n;
    for (let h = 1n; h <= 5n; h++) total += blockReward(h);
    expect(chain.getAccount(PROPOSER)?.balance).toBe(total);
    expect(chain.validatorSet()).toEqual([]);
  });

  it("refuses a genesis validator whose account cannot cover its stake or whose proof is wrong", () => {
    const mk = (stake: bigint, pop: Uint8Array) => () =>
      Chain.create({
        state: new MemoryState(),
        genesis: {
          chainId: CHAIN_ID,
          timestampMs: T0,
          accounts: [{ address: addrA, balance: 100n * CBY }],
          validators: [{ address: addrA, blsKey: blsA.pk, stake, proofOfPossession: pop }],
          validatorParams: PARAMS,
        },
      });
    expect(mk(101n * CBY, blsA.pop)).toThrow(/less than its stake/);
    expect(mk(100n * CBY, blsB.pop)).toThrow(/BAD_PROOF_OF_POSSESSION/);
    expect(mk(100n * CBY, blsA.pop)).not.toThrow();
  });
});

describe("register, exit, withdraw", () => {
  it("registers with the stake debited, is active from the next epoch, exits, withdraws after unbonding", () => {
    const net = new Net([{ key: keyA, bls: blsA, stake: 100n * CBY }], [addrC]);
    const reg = (stake: bigint, b = blsC) =>
      net.tx(keyC, { kind: "registerValidator", blsKey: b.pk, proofOfPossession: b.pop, stake });
    // failing registrations pay the fee and change nothing else
    const bad = net.block([
      reg(99n * CBY),
      net.tx(keyC, {
        kind: "registerValidator",
        blsKey: blsC.pk,
        proofOfPossession: blsB.pop,
        stake: 200n * CBY,
      }),
      reg(200n * CBY, blsA),
    ]);
    expect(bad.receipts.map((x) => x.status)).toEqual(["reverted", "reverted", "reverted"]);
    expect(bad.receipts.map(errCode)).toEqual([
      "ERR_VALIDATOR_STAKE_TOO_LOW",
      "ERR_VALIDATOR_BAD_PROOF_OF_POSSESSION",
      "ERR_VALIDATOR_KEY_IN_USE",
    ]);
    expect(bad.receipts.map((x) => x.feePaid)).toEqual([FEE21K, FEE21K, FEE21K]);
    expect(net.balance(addrC)).toBe(1_000n * CBY - 3n * FEE21K);
    expect(net.chain.validator(addrC)).toBeNull();

    // block 2 = F(0) (epoch 0): the set of epoch 1 is fixed at its start, then C registers
    // 200 CBY: too late for epoch 1, active from epoch 2
    const ok = net.block([reg(200n * CBY)]);
    expect(receipt(ok).status).toBe("success");
    expect(receipt(ok).feePaid).toBe(FEE21K);
    expect(ok.validators?.nextSet?.map((m) => m.address)).toEqual([hex(addrA)]);
    expect(net.balance(addrC)).toBe(800n * CBY - 4n * FEE21K);
    expect(net.chain.validator(addrC)).toMatchObject({
      stake: 200n * CBY,
      status: "bonded",
      activationEpoch: 2,
    });
    // a second registration is refused
    const third = net.block([reg(200n * CBY)]);
    expect(errCode(receipt(third))).toBe("ERR_VALIDATOR_ALREADY_REGISTERED");
    expect(third.validators?.nextSet).toBeNull();
    expect(net.chain.head.height).toBe(3n);
    expect(net.chain.validatorSet(1).map((m) => m.address)).toEqual([hex(addrA)]);
    expect(net.chain.validatorSet(0).map((m) => m.address)).toEqual([hex(addrA)]);
    net.block(); // 4
    net.block(); // 5
    // epoch 2's set is fixed at the start of block 6 = F(1) and includes C
    expect(net.chain.validatorSet(2)).toEqual([]);
    expect(net.block().validators?.nextSet?.length).toBe(2); // 6
    expect(net.chain.validatorSet(2).map((m) => m.address)).toEqual([hex(addrA), hex(addrC)].sort());
    net.block(); // 7

    // block 8 (epoch 2): the reward splits 100:200 between A and C
    const cBefore = net.balance(addrC);
    const aBefore = net.balance(addrA);
    net.block();
    const R = blockReward(8n);
    const firstIsA = hex(addrA) < hex(addrC);
    const a = R / 3n + (firstIsA ? R - R / 3n - (2n * R) / 3n : 0n);
    const c = (2n * R) / 3n + (firstIsA ? 0n : R - R / 3n - (2n * R) / 3n);
    expect(net.balance(addrA) - aBefore).toBe(a);
    expect(net.balance(addrC) - cBefore).toBe(c);

    // block 9 (before F(2) = 10): C exits; it stays in epoch 2's set, leaves from epoch 3
    expect(receipt(net.block([net.tx(keyC, { kind: "exitValidator" })])).status).toBe("success");
    expect(net.chain.validator(addrC)).toMatchObject({ status: "exiting", exitHeight: 9 });
    expect(errCode(receipt(net.block([net.tx(keyC, { kind: "exitValidator" })])))).toBe(
      "ERR_VALIDATOR_NOT_BONDED",
    ); // 10 = F(2)
    expect(net.chain.validatorSet(3).map((m) => m.address)).toEqual([hex(addrA)]);
    // unbonding: withdrawal from height 9 + 6 = 15
    const early = net.block([net.tx(keyC, { kind: "withdrawStake" })]); // 11
    expect(errCode(receipt(early))).toBe("ERR_VALIDATOR_STILL_UNBONDING");
    net.block(); // 12
    net.block(); // 13
    net.block(); // 14
    const before = net.balance(addrC);
    const w = net.block([net.tx(keyC, { kind: "withdrawStake" })]); // 15
    expect(receipt(w).status).toBe("success");
    expect(net.balance(addrC)).toBe(before - FEE21K + 200n * CBY);
    expect(net.chain.validator(addrC)).toBeNull();
    expect(errCode(receipt(net.block([net.tx(keyC, { kind: "withdrawStake" })])))).toBe(
      "ERR_VALIDATOR_UNKNOWN_VALIDATOR",
    );
    // an address that is not registered (any more) cannot unjail
    expect(errCode(receipt(net.block([net.tx(keyC, { kind: "unjailValidator" })])))).toBe(
      "ERR_VALIDATOR_UNKNOWN_VALIDATOR",
    );
  });

  it("refuses a registration whose stake plus the maximum fee exceeds the balance (invalid, skipped)", () => {
    const net = new Net([{ key: keyA, bls: blsA, stake: 100n * CBY }], [addrC]);
    const tx = net.tx(keyC, {
      kind: "registerValidator",
      blsKey: blsC.pk,
      proofOfPossession: blsC.pop,
      stake: 1_000n * CBY,
    });
    expect(() => net.chain.checkTx(tx)).toThrow(/balance/);
    expect(net.chain.checkTx(net.tx(keyA, { kind: "exitValidator" })).lane).toBe("system");
  });
});

/** Two conflicting notarize votes of validator `index` (BLS key `k`) in epoch 0, view 9. */
function equivocation(k: ReturnType<typeof blsKey>, index: number): Uint8Array {
  const vote = (fill: number) => {
    const block = Buffer.alloc(32, fill);
    const msg = bls.blsVoteMessage(block, 3n, 0n, 9n);
    return {
      kind: "notarize" as const,
      height: 3,
      block: block.toString("hex"),
      signature: new Uint8Array(bls.blsSign(k.sk, "notarize", CHAIN_ID, msg)),
    };
  };
  const e: Evidence = { epoch: 0, view: 9, signer: index, a: vote(1), b: vote(2) };
  return encodeEvidence(e);
}

describe("maximum set size (maxValidators)", () => {
  it("the 9-field parameters record round-trips; the earlier 8-field record reads with the default cap", () => {
    const full = { ...DEFAULT_VALIDATOR_PARAMS, ...PARAMS, maxValidators: 7 };
    const rec = encodeValidatorParams(full);
    expect(rec).toHaveLength(72);
    expect(decodeValidatorParams(rec)).toEqual(full);
    // a record written before maxValidators existed: 8 × u64, no cap field
    const legacy = rec.slice(0, 64);
    expect(decodeValidatorParams(legacy)).toEqual({
      ...full,
      maxValidators: DEFAULT_VALIDATOR_PARAMS.maxValidators,
    });
    const state = new MemoryState();
    state.put(VALIDATOR_PARAMS_KEY, legacy);
    expect(readValidatorParams(state).maxValidators).toBe(DEFAULT_VALIDATOR_PARAMS.maxValidators);
    expect(readValidatorParams(state).epochBlocks).toBe(4);
    expect(() => decodeValidatorParams(rec.slice(0, 71))).toThrow(/malformed/);
    expect(() => decodeValidatorParams(new Uint8Array(80))).toThrow(/malformed/);
  });

  it("genesis refuses a cap below 1 or one whose DKG logs could not fit a transaction", () => {
    const mk = (maxValidators: number) => () =>
      new Net([{ key: keyA, bls: blsA, stake: 100n * CBY }], [], { maxValidators });
    expect(mk(0)).toThrow(expect.objectContaining({ code: "ERR_CHAIN_GENESIS" }));
    expect(mk(MAX_VALIDATORS_LIMIT + 1)).toThrow(/maxValidators = \d+ must be 1\.\.=\d+/);
    expect(mk(MAX_VALIDATORS_LIMIT)).not.toThrow();
    expect(mk(1)).not.toThrow();
    // the limit: the largest log of a set that size, signed in a DkgLog transaction, fits; one more does not
    expect(maxLogBytes(MAX_VALIDATORS_LIMIT) + DKG_LOG_TX_OVERHEAD).toBeLessThanOrEqual(MAX_TX_SIZE);
    expect(maxLogBytes(MAX_VALIDATORS_LIMIT + 1) + DKG_LOG_TX_OVERHEAD).toBeGreaterThan(MAX_TX_SIZE);
    const log = new Uint8Array(maxLogBytes(MAX_VALIDATORS_LIMIT)).fill(0xab);
    const tx = signed(
      keyA,
      { kind: "dkgLog", ceremony: 1n, log },
      { nonce: 0n, cyclesLimit: 200_000n, cellsLimit: BigInt(log.length) + 1_024n, ...FEES },
    );
    expect(tx.length).toBeLessThanOrEqual(MAX_TX_SIZE);
    expect(tx.length - log.length).toBeLessThanOrEqual(DKG_LOG_TX_OVERHEAD);
    // …and the node's cell limit (the log's length + 1,024) passes admission
    const net = mk(MAX_VALIDATORS_LIMIT)() as Net;
    expect(net.chain.checkTx(tx).lane).toBe("system");
    // the default is allowed (and far below the limit: it bounds the resharing's cost)
    expect(DEFAULT_VALIDATOR_PARAMS.maxValidators).toBeLessThanOrEqual(MAX_VALIDATORS_LIMIT);
  });

  it("the set is the top stakes; one pushed out by a larger stake gets no reward and exits and withdraws", () => {
    const keyD = secretKey(251);
    const addrD = addressFromSecretKey(keyD);
    const blsD = blsKey(4);
    // cap 2: A (100) is left out of epoch 0's set; B (300) and C (200) are in
    const net = new Net(
      [
        { key: keyA, bls: blsA, stake: 100n * CBY },
        { key: keyB, bls: blsB, stake: 300n * CBY },
        { key: keyC, bls: blsC, stake: 200n * CBY },
      ],
      [addrD],
      { maxValidators: 2 },
    );
    expect(net.chain.validatorParams().maxValidators).toBe(2);
    expect(net.chain.validatorSet(0).map((m) => m.address)).toEqual([hex(addrB), hex(addrC)].sort());
    expect(net.chain.validator(addrA)).toMatchObject({ status: "bonded", stake: 100n * CBY });
    // block 1: A exits; D registers 400 before F(0) = 2. A earned nothing (not in the set).
    const aBefore = net.balance(addrA);
    const b1 = net.block([
      net.tx(keyA, { kind: "exitValidator" }),
      net.tx(keyD, {
        kind: "registerValidator",
        blsKey: blsD.pk,
        proofOfPossession: blsD.pop,
        stake: 400n * CBY,
      }),
    ]);
    expect(b1.receipts.map((x) => x.status)).toEqual(["success", "success"]);
    expect(b1.validators?.rewards.map((x) => x.address).sort()).toEqual([hex(addrB), hex(addrC)].sort());
    expect(net.balance(addrA)).toBe(aBefore - FEE21K);
    // block 2 = F(0): epoch 1's set is B (300) and D (400); C (200) is pushed out
    const b2 = net.block();
    expect(b2.validators?.nextSet?.map((m) => m.address)).toEqual([hex(addrB), hex(addrD)].sort());
    expect(net.chain.validator(addrC)?.status).toBe("bonded");
    net.block(); // 3
    const cBefore = net.balance(addrC);
    const b4 = net.block(); // 4: epoch 1
    expect(b4.validators?.rewards.map((x) => x.address)).toEqual([hex(addrB), hex(addrD)].sort());
    expect(net.balance(addrC)).toBe(cBefore);
    // C, outside the set, exits and withdraws after the usual unbonding (from 5 + 6 = 11)
    expect(receipt(net.block([net.tx(keyC, { kind: "exitValidator" })])).status).toBe("success"); // 5
    // A exited at 1: unbonded from 7; at 6 it is refused, at 7 it gets its stake back
    expect(errCode(receipt(net.block([net.tx(keyA, { kind: "withdrawStake" })])))).toBe(
      "ERR_VALIDATOR_STILL_UNBONDING",
    ); // 6
    const a6 = net.balance(addrA);
    expect(receipt(net.block([net.tx(keyA, { kind: "withdrawStake" })])).status).toBe("success"); // 7
    expect(net.balance(addrA)).toBe(a6 - FEE21K + 100n * CBY);
    expect(net.chain.validator(addrA)).toBeNull();
    while (net.chain.head.height < 10n) net.block();
    const c10 = net.balance(addrC);
    expect(receipt(net.block([net.tx(keyC, { kind: "withdrawStake" })])).status).toBe("success"); // 11
    expect(net.balance(addrC)).toBe(c10 - FEE21K + 200n * CBY);
    expect(net.chain.validator(addrC)).toBeNull();
  });
});

describe("faults", () => {
  it("evidence slashes 1% (burned) and jails; the same fault is punished once; unjail after the jail", () => {
    const net = new Net(
      [
        { key: keyA, bls: blsA, stake: 100n * CBY },
        { key: keyB, bls: blsB, stake: 300n * CBY },
      ],
      [addrC],
    );
    const idxB = net.chain.validatorSet(0).findIndex((m) => m.address === hex(addrB));
    const ev = equivocation(blsB, idxB);
    const cells = BigInt(ev.length);
    const submit = () => net.tx(keyC, { kind: "submitEvidence", evidence: ev }, { cellsLimit: cells });
    const r = net.block([submit()]); // height 1
    expect(receipt(r).status).toBe("success");
    expect(receipt(r).feePaid).toBe(FEE21K + cells * 10_000n);
    expect(r.validators?.slashed).toBe(3n * CBY);
    expect(r.validators?.jailed).toEqual([{ address: hex(addrB), slashed: 3n * CBY, jailedUntil: 6 }]);
    expect(net.chain.validator(addrB)).toMatchObject({
      stake: 297n * CBY,
      slashed: 3n * CBY,
      jailedUntil: 1 + 5,
      jailCount: 1,
    });
    // the 3 CBY are burned: B's account did not change except for its reward share
    const dup = net.block([submit()]);
    expect(errCode(receipt(dup))).toBe("ERR_VALIDATOR_DUPLICATE_EVIDENCE");
    // a vote that does not verify
    const forged = equivocation(blsA, idxB);
    expect(
      errCode(
        receipt(
          net.block([
            net.tx(keyC, { kind: "submitEvidence", evidence: forged }, { cellsLimit: BigInt(forged.length) }),
          ]),
        ),
      ),
    ).toBe("ERR_VALIDATOR_BAD_EVIDENCE");
    const junk = Uint8Array.of(1, 2, 3);
    expect(
      errCode(
        receipt(net.block([net.tx(keyC, { kind: "submitEvidence", evidence: junk }, { cellsLimit: 3n })])),
      ),
    ).toBe("ERR_VALIDATOR_BAD_EVIDENCE");
    // epoch 1's set was fixed at F(0) = 2, with B (jailed at 1) out
    expect(net.chain.validatorSet(1).map((m) => m.address)).toEqual([hex(addrA)]);
    expect(errCode(receipt(net.block([net.tx(keyB, { kind: "unjailValidator" })])))).toBe(
      "ERR_VALIDATOR_STILL_JAILED",
    ); // 5
    const u = net.block([net.tx(keyB, { kind: "unjailValidator" })]); // 6
    expect(receipt(u).status).toBe("success");
    expect(net.chain.validator(addrB)?.jailedUntil).toBe(0);
    // epoch 2's set was fixed at the start of block 6 = F(1), before the unjail: B is back from epoch 3
    expect(net.chain.validatorSet(2).map((m) => m.address)).toEqual([hex(addrA)]);
    net.block(); // 7
    net.block(); // 8
    net.block(); // 9
    net.block(); // 10 = F(2): fixes epoch 3 with B back in
    expect(net.chain.validatorSet(3).map((m) => m.address)).toEqual([hex(addrA), hex(addrB)].sort());
    expect(net.chain.validatorSet(3).find((m) => m.address === hex(addrB))?.stake).toBe(297n * CBY);
  });

  it("jails a validator missing more than half of a downtime window; applyBlock with the same participants agrees", () => {
    const vals = [
      { key: keyA, bls: blsA, stake: 100n * CBY },
      { key: keyB, bls: blsB, stake: 100n * CBY },
    ];
    const net = new Net(vals);
    const replica = new Net(vals);
    const idxB = net.chain.validatorSet(0).findIndex((m) => m.address === hex(addrB));
    const idxA = 1 - idxB;
    net.block([], [idxA, idxB]); // 1: no parent votes to count (genesis)
    net.block([], [idxA]); // 2: parent 1 missed by B
    net.block([], [idxA]); // 3: parent 2 missed
    expect(net.chain.validator(addrB)?.jailedUntil).toBe(0);
    expect(net.chain.validator(addrB)?.missed).toBe(2);
    net.block([], [idxA]); // 4: parent 3 missed → 3 > 2 in window 0 → jailed until 3 + 5
    expect(net.chain.validator(addrB)).toMatchObject({ jailedUntil: 8, jailCount: 1, missed: 0 });
    expect(net.chain.validator(addrA)?.jailedUntil).toBe(0);
    // the replica applies the same blocks with the same participants and reaches the same roots
    const parts = [[idxA, idxB], [idxA], [idxA], [idxA]];
    net.blocks.forEach((b, i) => {
      replica.chain.applyBlock(b, { participants: parts[i] as number[] });
    });
    expect(replica.chain.head.stateRoot).toEqual(net.chain.head.stateRoot);
    // without the participants the downtime record differs: the state root does not match
    const other = new Net(vals);
    other.chain.applyBlock(net.blocks[0] as Block);
    expect(() => other.chain.applyBlock(net.blocks[1] as Block)).toThrow(/state root/);
  });
});

describe("raw-namespace BLS (the addon's blsSignNamespaced / blsVerifyNamespaced)", () => {
  const n = bls as NativeBls & {
    blsVerifyNamespaced(pk: Buffer, ns: Buffer, msg: Buffer, sig: Buffer): boolean;
  };
  it("verifies only under the same namespace and refuses the consensus prefix", () => {
    const k = blsKey(21);
    const ns = Buffer.from(SYS_CANCEL_TIMER_NAMESPACE);
    const msg = Buffer.from("m");
    const sig = bls.blsSignNamespaced(k.sk, ns, msg);
    expect(n.blsVerifyNamespaced(Buffer.from(k.pk), ns, msg, sig)).toBe(true);
    expect(n.blsVerifyNamespaced(Buffer.from(k.pk), Buffer.from("cowboy-other-v1"), msg, sig)).toBe(false);
    expect(n.blsVerifyNamespaced(Buffer.from(k.pk), ns, Buffer.from("n"), sig)).toBe(false);
    expect(() => bls.blsSignNamespaced(k.sk, Buffer.from("cowboy-v1/finalize"), msg)).toThrow(/namespace/);
    expect(() => bls.blsSignNamespaced(k.sk, Buffer.alloc(0), msg)).toThrow(/namespace/);
  });
});

describe("SYS_CANCEL_TIMER", () => {
  const keys = [1, 2, 3, 4].map((n) => secretKey(100 + n));
  const blsKeys = [11, 12, 13, 14].map(blsKey);

  it("a 3-of-4 aggregate cancels the timer; 2-of-4, a bad bitmap, a bad signature and an unknown timer are refused", () => {
    const net = new Net(
      keys.map((key, i) => ({ key, bls: blsKeys[i] as ReturnType<typeof blsKey>, stake: 100n * CBY })),
      [addrA, addrC],
    );
    const set = net.chain.validatorSet(0);
    const skOf = (i: number) => {
      const m = set[i];
      const j = blsKeys.findIndex((k) => hex(k.pk) === hex(m?.blsKey as Uint8Array));
      return (blsKeys[j] as ReturnType<typeof blsKey>).sk;
    };
    // an actor and a timer on it, scheduled by A
    const source = script({});
    const salt = new Uint8Array(32);
    const dep = net.block([
      signed(
        keyA,
        { kind: "deploy", source, salt, initArgs: new Uint8Array(0), value: 0n },
        { nonce: net.nonce(keyA), cyclesLimit: 200_000n, cellsLimit: 10_000n, ...FEES },
      ),
    ]);
    expect(receipt(dep).status).toBe("success");
    const actor = actorAddress(addrA, salt, source);
    const sched = net.block([
      net.tx(
        keyA,
        {
          kind: "scheduleTimer",
          actor,
          fireAtHeight: 100n,
          handler: "tick",
          data: Uint8Array.of(0x01),
          interval: null,
        },
        { cyclesLimit: 5_000n, cellsLimit: 64n },
      ),
    ]);
    expect(receipt(sched).status).toBe("success");
    const timerId = receipt(sched).timerId as Uint8Array;
    expect(net.chain.getTimer(timerId)).not.toBeNull();

    const msg = Buffer.from(sysCancelTimerMessage(CHAIN_ID, actor, timerId));
    const ns = Buffer.from(SYS_CANCEL_TIMER_NAMESPACE);
    const aggregate = (idx: number[]) =>
      new Uint8Array(bls.blsAggregateSignatures(idx.map((i) => bls.blsSignNamespaced(skOf(i), ns, msg))));
    const bitmap = (idx: number[]) => Uint8Array.of(idx.reduce((b, i) => b | (1 << i), 0));
    const cancel = (signers: Uint8Array, signature: Uint8Array, id = timerId) =>
      net.tx(
        keyC,
        { kind: "sysCancelTimer", actor, timerId: id, epoch: 0n, signers, signature },
        { cellsLimit: BigInt(signers.length + 96) },
      );
    const cBefore = net.balance(addrC);
    const refused = net.block([
      cancel(bitmap([0, 1]), aggregate([0, 1])),
      cancel(Uint8Array.of(0b10111), aggregate([0, 1, 2])),
      cancel(Uint8Array.of(0b111, 0), aggregate([0, 1, 2])),
      cancel(bitmap([0, 1, 3]), aggregate([0, 1, 2])),
      cancel(bitmap([0, 1, 2]), aggregate([0, 1, 2]), new Uint8Array(32).fill(9)),
    ]);
    expect(refused.receipts.map(errCode)).toEqual([
      "ERR_SYS_CANCEL_TOO_FEW_SIGNERS",
      "ERR_SYS_CANCEL_BAD_BITMAP",
      "ERR_SYS_CANCEL_BAD_BITMAP",
      "ERR_SYS_CANCEL_BAD_SIGNATURE",
      "ERR_SYS_CANCEL_UNKNOWN_TIMER",
    ]);
    const feeOf = (signersLen: number) => FEE21K + BigInt(signersLen + 96) * 10_000n;
    expect(refused.receipts.map((x) => x.feePaid)).toEqual([
      feeOf(1),
      feeOf(1),
      feeOf(2),
      feeOf(1),
      feeOf(1),
    ]);
    expect(net.chain.getTimer(timerId)).not.toBeNull();
    // the sender paid the fees (used cycles and cells at the basefee), nothing else; unused limits refunded
    expect(net.balance(addrC)).toBe(cBefore - (4n * feeOf(1) + feeOf(2)));

    const ok = net.block([cancel(bitmap([0, 1, 2]), aggregate([0, 1, 2]))]);
    expect(receipt(ok).status).toBe("success");
    expect(net.chain.getTimer(timerId)).toBeNull();
    // a replay finds no timer
    expect(errCode(receipt(net.block([cancel(bitmap([0, 1, 2]), aggregate([0, 1, 2]))])))).toBe(
      "ERR_SYS_CANCEL_UNKNOWN_TIMER",
    );
    // an epoch without a set
    const far = net.tx(
      keyC,
      {
        kind: "sysCancelTimer",
        actor,
        timerId,
        epoch: 99n,
        signers: bitmap([0, 1, 2]),
        signature: aggregate([0, 1, 2]),
      },
      { cellsLimit: 97n },
    );
    expect(errCode(receipt(net.block([far])))).toBe("ERR_SYS_CANCEL_UNKNOWN_EPOCH");
    expect(toHex(receipt(ok).from)).toBe(toHex(addrC));
  });
});
