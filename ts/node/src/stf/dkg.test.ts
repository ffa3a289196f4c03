/**
 * The chain's threshold group per epoch and on-chain resharing (stf/dkg.ts, contract C4): the
 * freeze of set e+1 at F(e) = e·E + ⌊E/2⌋, the genesis group (`dkgOutput`), carry-over when the
 * keys do not change, a ceremony opened at F(e) when they do, and the decision at the last block
 * of the epoch (with no logs: the fallback). 8-block epochs: F(e) = 8e + 4, last block 8e + 7.
 */
import { createRequire } from "node:module";
import {
  DkgCeremony,
  type DkgTransport,
  genesisDkg,
  type ValidatorError,
  ValidatorRegistry,
} from "@cowboy/consensus";
import { addressFromSecretKey, type Block, type Instruction } from "@cowboy/sdk";
import { describe, expect, it, vi } from "vitest";
import { CHAIN_ID, FEES, PROPOSER, secretKey, signed } from "../../test/stf-helpers.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { Chain } from "./chain.ts";
import { type CeremonyRecord, maxLogBytes } from "./dkg.ts";
import { MemoryState } from "./memory-state.ts";
import type { BlockResult } from "./types.ts";

type NativeBls = {
  blsKeygen(ikm: Buffer): Buffer;
  blsPublicKey(sk: Buffer): Buffer;
  blsProofOfPossession(sk: Buffer, chainId: bigint): Buffer;
  blsPartialSign(share: Buffer, domain: string, chainId: bigint, message: Buffer): Buffer;
  blsVerify(pk: Buffer, domain: string, chainId: bigint, message: Buffer, signature: Buffer): boolean;
  BlsGroup: new (
    bytes: Buffer,
  ) => {
    publicKey: Buffer;
    threshold: number;
    verifyPartial(domain: string, chainId: bigint, message: Buffer, partial: Buffer): boolean;
    recover(partials: Buffer[]): Buffer;
  };
};
const bls = createRequire(import.meta.url)("@cowboy/native") as NativeBls;

const CBY = UNITS_PER_CBY;
const T0 = 1_700_000_000_000n;
const E = 8;
const PARAMS = {
  minStake: 100n * CBY,
  epochBlocks: E,
  unbondingBlocks: 6,
  jailBlocks: 5,
  slashBps: 100,
  downtimeWindow: 100,
  downtimeMaxMissed: 50,
  keepEpochs: 3,
};

interface Validator {
  key: Uint8Array;
  address: Uint8Array;
  sk: Buffer;
  pk: Uint8Array;
  pop: Uint8Array;
}

function validator(n: number): Validator {
  const key = secretKey(200 + n);
  const sk = bls.blsKeygen(Buffer.alloc(32, 40 + n));
  return {
    key,
    address: addressFromSecretKey(key),
    sk,
    pk: new Uint8Array(bls.blsPublicKey(sk)),
    pop: new Uint8Array(bls.blsProofOfPossession(sk, CHAIN_ID)),
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const GENESIS_VALS = [1, 2, 3, 4].map(validator);
const NEWCOMER = validator(5);
const GENESIS = genesisDkg(
  GENESIS_VALS.map((v) => v.sk),
  CHAIN_ID,
);

/** A chain with the 4 genesis validators (100 CBY each) and, optionally, the genesis group. */
class DkgNet {
  readonly state = new MemoryState();
  readonly chain: Chain;
  readonly blocks: Block[] = [];
  private readonly nonces = new Map<string, bigint>();
  t = T0;
  constructor(
    opts: {
      dkgOutput?: Uint8Array | null;
      epochBlocks?: number;
      keepEpochs?: number;
      maxValidators?: number;
    } = {},
  ) {
    const extra = [NEWCOMER.address];
    this.chain = Chain.create({
      state: this.state,
      genesis: {
        chainId: CHAIN_ID,
        timestampMs: T0,
        accounts: [...GENESIS_VALS.map((v) => v.address), ...extra].map((address) => ({
          address,
          balance: 1_000n * CBY,
        })),
        validators: GENESIS_VALS.map((v) => ({
          address: v.address,
          blsKey: v.pk,
          stake: 100n * CBY,
          proofOfPossession: v.pop,
        })),
        validatorParams: {
          ...PARAMS,
          epochBlocks: opts.epochBlocks ?? E,
          keepEpochs: opts.keepEpochs ?? PARAMS.keepEpochs,
          ...(opts.maxValidators === undefined ? {} : { maxValidators: opts.maxValidators }),
        },
        ...(opts.dkgOutput === null ? {} : { dkgOutput: opts.dkgOutput ?? GENESIS.output }),
      },
    });
  }
  tx(key: Uint8Array, ix: Instruction, o: { cyclesLimit?: bigint; cellsLimit?: bigint } = {}): Uint8Array {
    const k = hex(key);
    const nonce = this.nonces.get(k) ?? 0n;
    this.nonces.set(k, nonce + 1n);
    return signed(key, ix, { nonce, cyclesLimit: 21_000n, cellsLimit: 0n, ...FEES, ...o });
  }
  register(v: Validator): Uint8Array {
    return this.tx(v.key, {
      kind: "registerValidator",
      blsKey: v.pk,
      proofOfPossession: v.pop,
      stake: 100n * CBY,
    });
  }
  block(txs: Uint8Array[] = []): BlockResult {
    this.t += 1000n;
    const r = this.chain.buildBlock(txs, { timestampMs: this.t, proposer: PROPOSER });
    expect(r.skipped).toEqual([]);
    this.blocks.push(r.block);
    return r;
  }
  /** Builds empty blocks until the head is at `height`. */
  to(height: number): void {
    while (this.chain.head.height < BigInt(height)) this.block();
  }
}

const keysOf = (set: { blsKey: Uint8Array }[]) => set.map((m) => hex(m.blsKey)).sort();

describe("genesis group", () => {
  it("is the group of epoch 0 with members in set order and share indices in key order", () => {
    const net = new DkgNet();
    const g = net.chain.epochGroup(0);
    expect(g).not.toBeNull();
    if (g === null) return;
    expect(g.ceremony).toBe(0);
    expect(hex(g.output)).toBe(hex(GENESIS.output));
    expect(hex(g.group)).toBe(hex(GENESIS.group));
    expect(hex(g.groupPublicKey)).toBe(hex(GENESIS.groupPublicKey));
    expect(g.threshold).toBe(3);
    const set = net.chain.validatorSet(0);
    expect(g.members.map((m) => hex(m.address))).toEqual(set.map((m) => m.address));
    const sortedKeys = GENESIS_VALS.map((v) => hex(v.pk)).sort();
    for (const m of g.members) expect(m.shareIndex).toBe(sortedKeys.indexOf(hex(m.blsKey)));
    expect(g.members.map((m) => m.stake)).toEqual([100n, 100n, 100n, 100n].map((x) => x * CBY));
    expect(net.chain.epochGroup(1)).toBeNull();
    expect(net.chain.openCeremony()).toBeNull();
    expect(net.chain.ceremony(1)).toBeNull();
  });

  it("refuses a dkgOutput whose players are not exactly the genesis keys, or garbage", () => {
    const three = genesisDkg(
      GENESIS_VALS.slice(0, 3).map((v) => v.sk),
      CHAIN_ID,
    );
    expect(() => new DkgNet({ dkgOutput: three.output })).toThrow(/not exactly the 4 genesis/);
    expect(() => new DkgNet({ dkgOutput: Uint8Array.of(1, 2, 3) })).toThrow(
      expect.objectContaining({ code: "ERR_CHAIN_GENESIS" }),
    );
    expect(() =>
      Chain.create({
        state: new MemoryState(),
        genesis: { chainId: CHAIN_ID, timestampMs: T0, accounts: [], dkgOutput: GENESIS.output },
      }),
    ).toThrow(/needs genesis validators/);
  });

  it("a chain without dkgOutput has no group; the set of e+1 is still frozen at F(e)", () => {
    const net = new DkgNet({ dkgOutput: null });
    expect(net.chain.epochGroup(0)).toBeNull();
    net.to(3);
    expect(net.chain.validatorSet(1)).toEqual([]);
    const r = net.block(); // 4 = F(0)
    expect(r.validators?.nextSet?.length).toBe(4);
    expect(r.validators?.dkg).toEqual({ opened: null, decided: null });
    expect(net.chain.validatorSet(1)).toHaveLength(4);
    expect(net.chain.epochGroup(1)).toBeNull();
    expect(net.chain.openCeremony()).toBeNull();
  });
});

describe("freeze and carry-over", () => {
  it("fixes set e+1 at F(e) and carries the group over when the keys are unchanged", () => {
    const net = new DkgNet();
    net.to(3);
    expect(net.chain.validatorSet(1)).toEqual([]);
    const r = net.block(); // 4 = F(0)
    expect(r.validators?.nextSet).toHaveLength(4);
    expect(r.validators?.dkg).toEqual({
      opened: null,
      decided: { epoch: 1, ceremony: 0, outcome: "carried" },
    });
    const g1 = net.chain.epochGroup(1);
    expect(g1?.ceremony).toBe(0);
    expect(hex(g1?.output as Uint8Array)).toBe(hex(GENESIS.output));
    expect(g1?.members.map((m) => m.shareIndex)).toEqual(
      net.chain.epochGroup(0)?.members.map((m) => m.shareIndex),
    );
    // the last block of epoch 0 decides nothing more
    net.to(6);
    expect(net.block().validators?.dkg).toEqual({ opened: null, decided: null }); // 7
    expect(net.chain.openCeremony()).toBeNull();
  });

  it("a registration before F(e) joins e+1; one at F(e) joins e+2", () => {
    const early = new DkgNet({ dkgOutput: null });
    early.to(2);
    early.block([early.register(NEWCOMER)]); // 3 < F(0) = 4
    expect(early.chain.validator(NEWCOMER.address)?.activationEpoch).toBe(1);
    early.block(); // 4
    expect(early.chain.validatorSet(1)).toHaveLength(5);

    const late = new DkgNet({ dkgOutput: null });
    late.to(3);
    const r = late.block([late.register(NEWCOMER)]); // 4 = F(0): the set is fixed before the transactions
    expect(r.receipts[0]?.status).toBe("success");
    expect(late.chain.validator(NEWCOMER.address)?.activationEpoch).toBe(2);
    expect(late.chain.validatorSet(1)).toHaveLength(4);
    late.to(11);
    expect(late.chain.validatorSet(2)).toEqual([]);
    late.block(); // 12 = F(1)
    expect(late.chain.validatorSet(2)).toHaveLength(5);
  });

  it("an exit after F(e) leaves the set at e+2", () => {
    const net = new DkgNet({ dkgOutput: null });
    net.to(4);
    const v = GENESIS_VALS[0] as Validator;
    expect(net.block([net.tx(v.key, { kind: "exitValidator" })]).receipts[0]?.status).toBe("success"); // 5
    net.to(12);
    expect(net.chain.validatorSet(1).map((m) => m.address)).toContain(hex(v.address));
    expect(net.chain.validatorSet(2).map((m) => m.address)).not.toContain(hex(v.address));
  });
});

describe("registry support", () => {
  it("freezeHeight / firstEpochAfter follow F(e) = e·E + ⌊E/2⌋; replaceSet rewrites only a fixed set", () => {
    const kv = new MemoryState();
    const reg = (epochBlocks: number) =>
      new ValidatorRegistry({
        kv,
        prefix: Uint8Array.of(9),
        crypto: {
          verifyProofOfPossession: () => true,
          verifyVote: () => false,
          verifyAggregate: () => false,
        },
        params: { ...PARAMS, epochBlocks },
      });
    const r8 = reg(8);
    expect([0, 1, 2].map((e) => r8.freezeHeight(e))).toEqual([4, 12, 20]);
    expect([0, 3, 4, 7, 8, 11, 12].map((h) => r8.firstEpochAfter(h))).toEqual([1, 1, 2, 2, 2, 2, 3]);
    const r1 = reg(1);
    expect([0, 1, 5].map((e) => r1.freezeHeight(e))).toEqual([0, 1, 5]);
    expect([1, 5].map((h) => r1.firstEpochAfter(h))).toEqual([3, 7]);
    const r5 = reg(5);
    expect([r5.freezeHeight(1), r5.firstEpochAfter(6), r5.firstEpochAfter(7)]).toEqual([7, 2, 3]);
    const m = { address: "11".repeat(20), blsKey: new Uint8Array(48).fill(1), stake: 5n };
    const code = (f: () => void) => {
      try {
        f();
        return "ok";
      } catch (e) {
        return (e as ValidatorError).code;
      }
    };
    expect(code(() => r8.replaceSet(3, [m]))).toBe("EPOCH_NOT_STARTED");
    r8.beginEpoch(3);
    expect(r8.setOf(3)).toEqual([]);
    expect(code(() => r8.replaceSet(3, [{ ...m, blsKey: new Uint8Array(47) }]))).toBe("BAD_KEY");
    expect(code(() => r8.replaceSet(3, [{ ...m, address: "xyz" }]))).toBe("BAD_ADDRESS");
    expect(r8.setOf(3)).toEqual([]);
    r8.replaceSet(3, [m]);
    expect(r8.setOf(3)).toEqual([m]);
  });
});

describe("ceremony", () => {
  it("opens at F(e) when the keys change; without logs the fallback re-fixes set e+1 = set e", () => {
    const net = new DkgNet();
    net.block([net.register(NEWCOMER)]); // 1
    net.to(3);
    const opened = net.block(); // 4 = F(0)
    expect(opened.validators?.dkg).toEqual({ opened: 1, decided: null });
    expect(net.chain.validatorSet(1)).toHaveLength(5);
    expect(net.chain.epochGroup(1)).toBeNull();
    const c = net.chain.openCeremony();
    expect(c).not.toBeNull();
    if (c === null) return;
    expect(c).toMatchObject({
      ceremony: 1,
      epoch: 1,
      firstHeight: 4,
      lastHeight: 7,
      logs: [],
      status: "open",
    });
    expect(c.dealers.map(hex)).toEqual(GENESIS_VALS.map((v) => hex(v.pk)).sort());
    expect(c.players.map(hex)).toEqual([...GENESIS_VALS, NEWCOMER].map((v) => hex(v.pk)).sort());
    expect(hex(c.previousOutput)).toBe(hex(GENESIS.output));
    expect(net.chain.ceremony(1)).toEqual(c);

    net.to(6);
    const last = net.block(); // 7: decided with no logs → fallback
    expect(last.validators?.dkg.decided).toEqual({ epoch: 1, ceremony: 0, outcome: "failed" });
    expect(keysOf(last.validators?.nextSet ?? [])).toEqual(keysOf(net.chain.validatorSet(0)));
    expect(net.chain.validatorSet(1)).toEqual(net.chain.validatorSet(0));
    expect(net.chain.openCeremony()).toBeNull();
    expect(net.chain.ceremony(1)?.status).toBe("failed");
    const g1 = net.chain.epochGroup(1);
    expect(g1?.ceremony).toBe(0);
    expect(hex(g1?.output as Uint8Array)).toBe(hex(GENESIS.output));
    expect(g1?.members).toHaveLength(4);

    // the newcomer is still eligible: the next freeze point opens ceremony 2
    net.to(11);
    expect(net.block().validators?.dkg.opened).toBe(2); // 12 = F(1)
    expect(net.chain.openCeremony()).toMatchObject({
      ceremony: 2,
      epoch: 2,
      firstHeight: 12,
      lastHeight: 15,
    });
    net.to(15);
    expect(net.chain.ceremony(2)?.status).toBe("failed");
    expect(net.chain.validatorSet(2)).toHaveLength(4);
  });

  it("keeps groups and ceremonies keepEpochs epochs", () => {
    const net = new DkgNet();
    net.block([net.register(NEWCOMER)]);
    net.to(4 * E + 4); // F(4): ceremonies 1..5 opened, groups up to epoch 5
    expect(net.chain.ceremony(5)?.status).toBe("open");
    expect(net.chain.ceremony(4)?.status).toBe("failed");
    expect(net.chain.ceremony(3)?.status).toBe("failed");
    expect(net.chain.ceremony(2)).toBeNull();
    expect(net.chain.epochGroup(4)?.ceremony).toBe(0);
    expect(net.chain.epochGroup(3)?.ceremony).toBe(0);
    expect(net.chain.epochGroup(5)).toBeNull(); // not decided yet
    expect(net.chain.epochGroup(2)).toBeNull();
    expect(net.chain.validatorSet(2)).toEqual([]);
    expect(net.chain.validatorSet(3)).toHaveLength(4);
  });

  it("keeps at least the running epoch and the next one when keepEpochs is 1", () => {
    const net = new DkgNet({ keepEpochs: 1 });
    net.to(E + 4); // F(1): the set and group of epoch 2 are fixed; epoch 1 is still running
    expect(net.chain.validatorSet(1)).toHaveLength(4);
    expect(net.chain.epochGroup(1)?.ceremony).toBe(0);
    expect(net.chain.validatorSet(2)).toHaveLength(4);
    expect(net.chain.epochGroup(2)?.ceremony).toBe(0);
    expect(net.chain.validatorSet(0)).toEqual([]);
    expect(net.chain.epochGroup(0)).toBeNull();
    // rewards of epoch 1's blocks still go to its set, not to the proposer
    expect(net.block().validators?.rewards).toHaveLength(4);
  });

  it("with one-block epochs the ceremony opens and fails in the same block", () => {
    const net = new DkgNet({ epochBlocks: 1 });
    expect(net.chain.epochGroup(1)?.ceremony).toBe(0);
    const r = net.block([net.register(NEWCOMER)]); // 1: F(1) = 1, set(2) frozen before the registration
    expect(r.validators?.dkg.decided?.outcome).toBe("carried");
    const r2 = net.block(); // 2: set(3) has the newcomer; ceremony 3 opens and fails at once
    expect(r2.validators?.dkg).toEqual({ opened: 3, decided: { epoch: 3, ceremony: 0, outcome: "failed" } });
    expect(net.chain.validatorSet(3)).toHaveLength(4);
    expect(net.chain.epochGroup(3)?.ceremony).toBe(0);
  });

  it("is deterministic: a replica applying the same blocks reaches the same state roots", () => {
    const net = new DkgNet();
    net.block([net.register(NEWCOMER)]);
    net.to(2 * E + 5);
    const replica = new DkgNet();
    for (const b of net.blocks) replica.chain.applyBlock(b);
    expect(hex(replica.chain.head.stateRoot)).toBe(hex(net.chain.head.stateRoot));
    expect(replica.chain.openCeremony()).toEqual(net.chain.openCeremony());
  });
});

/**
 * Runs ceremony `c` (the chain's open one) in memory: every dealer deals with its share of the
 * previous output, every player acknowledges, the dealers close. Returns the signed logs (dealer
 * order of `dealers`) and the participants, to finalize the players later.
 */
function runCeremony(
  c: CeremonyRecord,
  participants: readonly Validator[],
  previousShares: ReadonlyMap<string, Buffer>,
): { logs: Buffer[]; nodes: Map<string, DkgCeremony> } {
  const inbox: (() => void)[] = [];
  const logs: Buffer[] = [];
  const nodes = new Map<string, DkgCeremony>();
  const at = (k: Uint8Array) => nodes.get(hex(k)) as DkgCeremony;
  const inCeremony = participants.filter((v) =>
    [...c.dealers, ...c.players].some((k) => hex(k) === hex(v.pk)),
  );
  for (const v of inCeremony) {
    const me = Buffer.from(v.pk);
    const transport: DkgTransport = {
      broadcast: (m) => {
        for (const p of c.players) if (hex(p) !== hex(me)) inbox.push(() => at(p).onPublicMessage(me, m));
      },
      sendDealing: (p, m) => inbox.push(() => at(p).onDealing(me, m)),
      sendAck: (d, a) => inbox.push(() => at(d).onAck(me, a)),
      publishLog: (l) => void logs.push(Buffer.from(l)),
    };
    nodes.set(
      hex(v.pk),
      new DkgCeremony(
        {
          chainId: CHAIN_ID,
          round: BigInt(c.ceremony),
          previousOutput: c.previousOutput,
          dealers: c.dealers,
          players: c.players,
          secretKey: v.sk,
          previousShare: previousShares.get(hex(v.pk)) ?? null,
        },
        transport,
      ),
    );
  }
  for (const n of nodes.values()) n.start();
  for (let next = inbox.shift(); next !== undefined; next = inbox.shift()) next();
  for (const n of nodes.values()) if (n.isDealer) n.closeDealing();
  return { logs, nodes };
}

const GENESIS_SHARES = new Map(GENESIS.shares.map((s) => [hex(s.publicKey), s.share]));
const ALL = [...GENESIS_VALS, NEWCOMER];

/** The validator whose key a signed log starts with (its dealer). */
function dealerOf(log: Uint8Array): Validator {
  const v = ALL.find((x) => Buffer.from(x.pk).equals(Buffer.from(log.subarray(0, 48))));
  if (v === undefined) throw new Error("the log's dealer is not a test validator");
  return v;
}

/**
 * The receipt error code ("ok" on success) of each DkgLog transaction in `r`, by the log it
 * carried: a block orders transactions of different senders by their order key, not as given.
 */
function codeOf(r: BlockResult, log: Uint8Array): string {
  expect(r.receipts).toHaveLength(r.block.transactions.length);
  const i = r.block.transactions.findIndex(
    (t) => t.instruction.kind === "dkgLog" && hex(t.instruction.log) === hex(log),
  );
  expect(i).toBeGreaterThanOrEqual(0);
  return (r.receipts[i]?.error ?? "ok").split(":")[0] as string;
}

/** A DkgLog transaction of `ceremony` carrying `log`, sent by `from`. */
function dkgLogTx(net: DkgNet, from: Validator, ceremony: bigint, log: Uint8Array): Uint8Array {
  return net.tx(from.key, { kind: "dkgLog", ceremony, log }, { cellsLimit: BigInt(log.length) });
}

describe("DkgLog: cheap refusals before any BLS work", () => {
  it("a log not claiming a dealer without a log yet, or oversize, is refused without decoding or verifying it", () => {
    const net = new DkgNet();
    net.block([net.register(NEWCOMER)]); // 1
    net.to(4); // F(0): ceremony 1 opens
    const open = net.chain.openCeremony() as CeremonyRecord;
    const { logs } = runCeremony(open, ALL, GENESIS_SHARES);
    const first = logs[0] as Buffer;
    for (const l of logs) expect(l.length).toBeLessThanOrEqual(maxLogBytes(open.players.length));
    expect(net.block([dkgLogTx(net, dealerOf(first), 1n, first)]).receipts[0]?.status).toBe("success"); // 5
    const native = createRequire(import.meta.url)("@cowboy/native") as {
      BlsDkgInfo: { prototype: { checkLog(log: Buffer): unknown } };
    };
    const spy = vi.spyOn(native.BlsDkgInfo.prototype, "checkLog");
    try {
      const second = logs[1] as Buffer;
      // the signed log starts with its dealer's key
      const nonDealer = Buffer.concat([Buffer.from(NEWCOMER.pk), second.subarray(48)]);
      const again = Buffer.concat([first.subarray(0, 48), second.subarray(48)]);
      const oversize = Buffer.concat([second, Buffer.alloc(64 * 1024)]);
      const r = net.block([
        dkgLogTx(net, NEWCOMER, 1n, nonDealer), // signed by a key that is not a dealer
        dkgLogTx(net, NEWCOMER, 1n, again), // claims the dealer that has its log already
        dkgLogTx(net, dealerOf(second), 1n, oversize), // far larger than any log of this ceremony
        dkgLogTx(net, NEWCOMER, 1n, second), // a genuine log, but not from its dealer's account
      ]); // 6
      expect([nonDealer, again, oversize, second].map((l) => codeOf(r, l))).toEqual([
        "ERR_DKG_LOG_INVALID",
        "ERR_DKG_LOG_DUPLICATE",
        "ERR_DKG_LOG_INVALID",
        "ERR_DKG_LOG_SENDER",
      ]);
      expect(spy).not.toHaveBeenCalled();
      // a genuine log still goes through the full check
      expect(net.block([dkgLogTx(net, dealerOf(second), 1n, second)]).receipts[0]?.status).toBe("success"); // 7
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe("resharing on chain (4 validators → 5)", () => {
  it("dealer logs in DkgLog transactions; at the boundary epoch 1 has the new 5-member group, same group key", () => {
    const net = new DkgNet();
    net.block([net.register(NEWCOMER)]); // 1
    net.to(4); // F(0): ceremony 1 opens
    const open = net.chain.openCeremony() as CeremonyRecord;
    expect(open.ceremony).toBe(1);
    const { logs, nodes } = runCeremony(open, ALL, GENESIS_SHARES);
    expect(logs).toHaveLength(4);
    // block 5: the four logs, each sent by its dealer's validator account
    const r = net.block(logs.map((l) => dkgLogTx(net, dealerOf(l), 1n, l)));
    expect(r.receipts.map((x) => x.status)).toEqual(["success", "success", "success", "success"]);
    // every log pays the ActorMessage row: 21,000 cycles + its bytes as cells, at the basefee
    for (const rc of r.receipts) {
      const tx = r.block.transactions.find((t) => hex(t.from) === hex(rc.from));
      const log = tx?.instruction.kind === "dkgLog" ? tx.instruction.log : new Uint8Array(0);
      expect(rc.feePaid).toBe((21_000n + BigInt(log.length)) * 10_000n);
    }
    const stored = net.chain.openCeremony() as CeremonyRecord;
    expect(stored.logs).toHaveLength(4);
    // the logs are stored in block order
    const order = r.block.transactions.map((t) =>
      t.instruction.kind === "dkgLog" ? hex(t.instruction.log) : "",
    );
    expect(stored.logs.map(hex)).toEqual(order);

    net.to(6);
    expect(net.chain.epochGroup(1)).toBeNull();
    const last = net.block(); // 7: the decision
    expect(last.validators?.dkg.decided).toEqual({ epoch: 1, ceremony: 1, outcome: "succeeded" });
    expect(last.validators?.nextSet).toBeNull();
    expect(net.chain.ceremony(1)?.status).toBe("succeeded");
    expect(net.chain.openCeremony()).toBeNull();

    const g = net.chain.epochGroup(1);
    expect(g).not.toBeNull();
    if (g === null) return;
    expect(g.ceremony).toBe(1);
    expect(g.members).toHaveLength(5);
    expect(g.threshold).toBe(4);
    expect(hex(g.groupPublicKey)).toBe(hex(GENESIS.groupPublicKey));
    expect(g.members.map((m) => hex(m.address))).toEqual(net.chain.validatorSet(1).map((m) => m.address));
    const sortedKeys = ALL.map((v) => hex(v.pk)).sort();
    for (const m of g.members) expect(m.shareIndex).toBe(sortedKeys.indexOf(hex(m.blsKey)));

    // each player finalizes with the chain's logs; its share signs partials the new group verifies
    const chainLogs = net.chain.ceremony(1)?.logs ?? [];
    const group = new bls.BlsGroup(Buffer.from(g.group));
    expect(hex(group.publicKey)).toBe(hex(GENESIS.groupPublicKey));
    const msg = Buffer.from("epoch 1 seed");
    const partials: Buffer[] = [];
    for (const v of ALL) {
      const res = (nodes.get(hex(v.pk)) as DkgCeremony).finalize(chainLogs);
      expect(hex(res.output)).toBe(hex(g.output));
      const member = g.members.find((m) => hex(m.blsKey) === hex(v.pk));
      expect(res.shareIndex).toBe(member?.shareIndex);
      const partial = bls.blsPartialSign(res.share as Buffer, "seed", CHAIN_ID, msg);
      expect(group.verifyPartial("seed", CHAIN_ID, msg, partial)).toBe(true);
      expect(group.verifyPartial("seed", CHAIN_ID, Buffer.from("other"), partial)).toBe(false);
      partials.push(partial);
    }
    // 4 of the 5 new shares recover a signature under the unchanged group key
    const sig = group.recover(partials.slice(1));
    expect(bls.blsVerify(Buffer.from(GENESIS.groupPublicKey), "seed", CHAIN_ID, msg, sig)).toBe(true);

    // determinism: a fresh chain applying the same blocks reaches the same roots and group
    const replica = new DkgNet();
    for (const b of net.blocks) replica.chain.applyBlock(b);
    expect(hex(replica.chain.head.stateRoot)).toBe(hex(net.chain.head.stateRoot));
    expect(hex(replica.chain.epochGroup(1)?.output as Uint8Array)).toBe(hex(g.output));

    // the 5-member group carries over while the keys stay the same
    net.to(11);
    expect(net.chain.epochGroup(2)).toBeNull();
    net.block(); // 12 = F(1)
    expect(net.chain.epochGroup(2)?.ceremony).toBe(1);
    expect(hex(net.chain.epochGroup(2)?.output as Uint8Array)).toBe(hex(g.output));
  });

  it("with maxValidators: a larger stake displaces a member, the resharing to the capped set succeeds", () => {
    // the genesis group's players must be the capped genesis set's keys
    expect(() => new DkgNet({ maxValidators: 3 })).toThrow(/not exactly the 3 genesis/);
    const net = new DkgNet({ maxValidators: 4 });
    const stake = 200n * CBY;
    const reg = net.tx(NEWCOMER.key, {
      kind: "registerValidator",
      blsKey: NEWCOMER.pk,
      proofOfPossession: NEWCOMER.pop,
      stake,
    });
    expect(net.block([reg]).receipts[0]?.status).toBe("success"); // 1
    net.to(4); // F(0): the newcomer (200) and three of the four 100s: the highest address is out
    const out = [...GENESIS_VALS].sort((a, b) =>
      Buffer.compare(Buffer.from(b.address), Buffer.from(a.address)),
    )[0] as Validator;
    const set1 = net.chain.validatorSet(1);
    expect(set1).toHaveLength(4);
    expect(set1.map((m) => m.address)).not.toContain(hex(out.address));
    expect(set1.map((m) => m.address)).toContain(hex(NEWCOMER.address));
    const open = net.chain.openCeremony() as CeremonyRecord;
    expect(open.dealers.map(hex)).toEqual(GENESIS_VALS.map((v) => hex(v.pk)).sort());
    expect(open.players.map(hex)).toEqual(keysOf(set1));
    // every dealer, the displaced one too, deals with its share of the old group
    const { logs } = runCeremony(open, ALL, GENESIS_SHARES);
    expect(logs).toHaveLength(4);
    const r = net.block(logs.map((l) => dkgLogTx(net, dealerOf(l), 1n, l))); // 5
    expect(r.receipts.map((x) => x.status)).toEqual(["success", "success", "success", "success"]);
    net.to(6);
    const last = net.block(); // 7
    expect(last.validators?.dkg.decided).toEqual({ epoch: 1, ceremony: 1, outcome: "succeeded" });
    const g = net.chain.epochGroup(1);
    expect(g?.members.map((m) => hex(m.address))).toEqual(set1.map((m) => m.address));
    expect(g?.threshold).toBe(3);
    expect(hex(g?.groupPublicKey as Uint8Array)).toBe(hex(GENESIS.groupPublicKey));
    // the displaced validator earns nothing in epoch 1, then exits and withdraws as usual
    const before = net.chain.getAccount(out.address)?.balance ?? 0n;
    const b8 = net.block([net.tx(out.key, { kind: "exitValidator" })]); // 8
    expect(b8.receipts[0]?.status).toBe("success");
    expect(b8.validators?.rewards.map((x) => x.address)).not.toContain(hex(out.address));
    const fee = b8.receipts[0]?.feePaid ?? 0n;
    expect(net.chain.getAccount(out.address)?.balance).toBe(before - fee);
    net.to(13);
    const w = net.block([net.tx(out.key, { kind: "withdrawStake" })]); // 14 = 8 + unbonding 6
    expect(w.receipts[0]?.status).toBe("success");
    expect(net.chain.validator(out.address)).toBeNull();
  });

  it("refuses a duplicate, a wrong ceremony and garbage (fees only); too few logs fall back", () => {
    const net = new DkgNet();
    net.block([net.register(NEWCOMER)]); // 1
    // a log before any ceremony is open
    const early = net.block([dkgLogTx(net, NEWCOMER, 1n, Uint8Array.of(1, 2, 3))]); // 2
    expect(early.receipts[0]?.error).toMatch(/^ERR_DKG_NO_CEREMONY: /);
    net.to(4);
    const open = net.chain.openCeremony() as CeremonyRecord;
    const { logs } = runCeremony(open, ALL, GENESIS_SHARES);
    // only two of the four dealers' logs reach the chain (3 are required)
    const ok = net.block([dkgLogTx(net, dealerOf(logs[0] as Buffer), 1n, logs[0] as Buffer)]); // 5
    expect(ok.receipts[0]?.status).toBe("success");
    const before = net.chain.ceremony(1);
    const balance = () => net.chain.getAccount(NEWCOMER.address)?.balance ?? 0n;
    const b0 = balance();
    const bad = net.block([
      dkgLogTx(net, NEWCOMER, 1n, logs[0] as Buffer), // the same dealer again
      dkgLogTx(net, NEWCOMER, 2n, logs[1] as Buffer), // no ceremony 2
      dkgLogTx(net, NEWCOMER, 1n, Uint8Array.of(0xde, 0xad, 0xbe, 0xef)), // does not decode
      dkgLogTx(net, NEWCOMER, 1n, logs[1]?.subarray(0, 40) as Uint8Array), // truncated
    ]); // 6
    expect(bad.receipts.map((x) => x.status)).toEqual(["reverted", "reverted", "reverted", "reverted"]);
    expect(bad.receipts.map((x) => (x.error ?? "").split(":")[0])).toEqual([
      "ERR_DKG_LOG_DUPLICATE",
      "ERR_DKG_NO_CEREMONY",
      "ERR_DKG_LOG_INVALID",
      "ERR_DKG_LOG_INVALID",
    ]);
    expect(net.chain.ceremony(1)).toEqual(before);
    const fees = bad.receipts.reduce((a, x) => a + x.feePaid, 0n);
    expect(fees).toBeGreaterThan(0n);
    expect(balance()).toBe(b0 - fees);
    // a log of another ceremony (a different number) does not authenticate for this one
    const other = runCeremony({ ...open, ceremony: 99 }, ALL, GENESIS_SHARES).logs[2] as Buffer;
    const last = net.block([
      dkgLogTx(net, dealerOf(other), 1n, other),
      dkgLogTx(net, dealerOf(logs[1] as Buffer), 1n, logs[1] as Buffer),
    ]); // 7: the last block takes logs too, then decides
    expect([other, logs[1] as Buffer].map((l) => codeOf(last, l))).toEqual(["ERR_DKG_LOG_INVALID", "ok"]);
    expect(net.chain.ceremony(1)?.logs).toHaveLength(2);
    expect(last.validators?.dkg.decided).toEqual({ epoch: 1, ceremony: 0, outcome: "failed" });
    expect(net.chain.validatorSet(1)).toEqual(net.chain.validatorSet(0));
    expect(net.chain.epochGroup(1)?.ceremony).toBe(0);
    // after the deadline the ceremony takes no more logs
    const late = net.block([dkgLogTx(net, NEWCOMER, 1n, logs[2] as Buffer)]); // 8
    expect(late.receipts[0]?.error).toMatch(/^ERR_DKG_NO_CEREMONY: /);
    // the DkgLog travels in the System lane
    expect(net.chain.checkTx(dkgLogTx(net, NEWCOMER, 2n, Uint8Array.of(1))).lane).toBe("system");
  });
});
