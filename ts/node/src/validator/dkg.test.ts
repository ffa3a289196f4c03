/**
 * The validator's DKG driver (dkg.ts) over an in-memory network: drivers exchange hellos,
 * dealings and acknowledgements, dealers' logs go "on chain" through `submitLog`, and at the
 * epoch boundary every player's share verifies against the new group with the group key
 * unchanged. The chain here is a small double implementing exactly the contract's reads
 * (openCeremony / ceremony / epochGroup) and its decision rule (C4 §3–5), run by the test's
 * blocks.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GenesisDkg, genesisDkg, loadNative } from "@cowboy/consensus";
import { createNode, type P2pNode } from "@cowboy/p2p";
import {
  addressFromSecretKey,
  encodeTransaction,
  type Instruction,
  signTransaction,
  zeroSignature,
} from "@cowboy/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { CHAIN_ID, FEES, PROPOSER, secretKey } from "../../test/stf-helpers.ts";
import type { Logger } from "../devnet/logger.ts";
import { UNITS_PER_CBY } from "../params.ts";
import { Chain } from "../stf/chain.ts";
import { MemoryState } from "../stf/memory-state.ts";
import { MIN_DKG_EPOCH_BLOCKS } from "./config.ts";
import {
  bindingMessage,
  type CeremonyRecord,
  DKG_PEER_NAMESPACE,
  type DkgChain,
  DkgDriver,
  type DkgGossipVerdict,
  type DkgNetwork,
  decodeDkgFrame,
  type EpochGroup,
  p2pDkgNetwork,
} from "./dkg.ts";
import { waitFor } from "./localnet-harness.ts";

const x = loadNative();
const sha = (s: string): Buffer => createHash("sha256").update(s).digest();
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

// ----- the real chain: 4 genesis validators with a genesis group, one joining -----

const CBY = UNITS_PER_CBY;
const T0 = 1_700_000_000_000n;

interface LogTx {
  ceremony: number;
  log: Uint8Array;
  /** operator key of the submitting validator */
  from: Uint8Array;
  /** the finalized height when it was submitted (absent: include in the next block) */
  submittedAt?: number;
}

/** The chain the drivers read, with blocks built by the test (every block is final at once). */
class TestChain {
  readonly chain: Chain;
  readonly state = new MemoryState();
  /** receipts of the dkgLog transactions: "ok" or the error code */
  readonly receipts: string[] = [];
  private readonly nonces = new Map<string, bigint>();
  private t = T0;

  constructor(epochBlocks: number, genesis: Validator[], output: Uint8Array, joiners: Validator[]) {
    this.chain = Chain.create({
      state: this.state,
      genesis: {
        chainId: CHAIN_ID,
        timestampMs: T0,
        accounts: [...genesis, ...joiners].map((v) => ({ address: v.address, balance: 1_000n * CBY })),
        validators: genesis.map((v) => ({
          address: v.address,
          blsKey: v.key,
          stake: 100n * CBY,
          proofOfPossession: v.pop,
        })),
        validatorParams: {
          minStake: 100n * CBY,
          epochBlocks,
          unbondingBlocks: 6,
          jailBlocks: 5,
          slashBps: 100,
          downtimeWindow: 100,
          downtimeMaxMissed: 100,
          keepEpochs: 3,
        },
        dkgOutput: output,
      },
    });
  }

  get height(): number {
    return Number(this.chain.head.height);
  }

  private tx(key: Uint8Array, ix: Instruction, cellsLimit: bigint): Uint8Array {
    const k = hex(key);
    const nonce = this.nonces.get(k) ?? 0n;
    this.nonces.set(k, nonce + 1n);
    // the SDK's signer (independent of the addon's codec version)
    return encodeTransaction(
      signTransaction(
        {
          chainId: CHAIN_ID,
          nonce,
          instruction: ix,
          cyclesLimit: 21_000n,
          cellsLimit,
          maxFeePerCycle: FEES.maxFeePerCycle,
          maxFeePerCell: FEES.maxFeePerCell,
          maxPriorityFeePerCycle: 0n,
          maxPriorityFeePerCell: 0n,
          from: addressFromSecretKey(key),
          accessList: null,
          metadata: new Uint8Array(0),
          originTxHash: null,
          originRemainingCycles: null,
          originRemainingCells: null,
          signature: zeroSignature(),
          additionalSigners: [],
        },
        key,
      ),
    );
  }

  exit(v: Validator): Uint8Array {
    return this.tx(v.operator, { kind: "exitValidator" }, 0n);
  }

  register(v: Validator): Uint8Array {
    return this.tx(
      v.operator,
      { kind: "registerValidator", blsKey: v.key, proofOfPossession: v.pop, stake: 100n * CBY },
      0n,
    );
  }

  /** Builds and applies the next block with `extra` transactions and the pooled logs. */
  block(logs: LogTx[], extra: Uint8Array[] = []): number {
    const txs = logs.map((l) =>
      this.tx(l.from, { kind: "dkgLog", ceremony: BigInt(l.ceremony), log: l.log }, BigInt(l.log.length)),
    );
    this.t += 1000n;
    const r = this.chain.buildBlock([...extra, ...txs], { timestampMs: this.t, proposer: PROPOSER });
    expect(r.skipped).toEqual([]);
    for (const rc of r.receipts.slice(extra.length))
      this.receipts.push(rc.status === "success" ? "ok" : ((rc.error ?? "").split(":")[0] as string));
    return this.height;
  }

  /** What the chain decided for ceremony `n`: its group is the next epoch's, with the revealed players. */
  decided(n: number): { ok: boolean; revealed: Buffer[] } | null {
    const rec = this.chain.ceremony(n);
    if (rec === null || this.chain.openCeremony()?.ceremony === n) return null;
    const g = this.chain.epochGroup(rec.epoch);
    if (g === null) return null;
    if (g.ceremony !== n) return { ok: false, revealed: [] };
    return { ok: true, revealed: [...x.blsDkgOutputInfo(Buffer.from(g.output)).revealed] };
  }
}

// ----- an in-memory network -----

interface Handlers {
  gossip(data: Uint8Array, fromPeer: string): DkgGossipVerdict;
  direct(data: Uint8Array, fromPeer: string): void;
}
interface Sent {
  kind: "gossip" | "direct";
  from: string;
  to: string | null;
  data: Uint8Array;
}

class Hub {
  private readonly handlers = new Map<string, Handlers>();
  readonly online = new Set<string>();
  private queue: Sent[] = [];
  readonly log: Sent[] = [];
  readonly penalties: Array<{ by: string; peer: string; reason: string }> = [];
  /** gossip verdicts (a "reject" is what the p2p layer penalizes the relayer for) */
  readonly verdicts: Array<{ by: string; from: string; verdict: DkgGossipVerdict }> = [];
  /** drops a message in flight when it returns true */
  drop: (m: Sent) => boolean = () => false;

  endpoint(peerId: string): DkgNetwork {
    return {
      peerId,
      publish: (data) => {
        if (!this.online.has(peerId)) return;
        const m: Sent = { kind: "gossip", from: peerId, to: null, data: Buffer.from(data) };
        this.log.push(m);
        this.queue.push(m);
      },
      send: (to, data) => {
        if (!this.online.has(peerId)) return false;
        const m: Sent = { kind: "direct", from: peerId, to, data: Buffer.from(data) };
        this.log.push(m);
        this.queue.push(m);
        return true;
      },
      listen: (h) => {
        this.handlers.set(peerId, h);
      },
      penalize: (peer, _amount, reason) => {
        this.penalties.push({ by: peerId, peer, reason });
      },
    };
  }

  /** Delivers everything queued (and what it triggers). */
  flush(): void {
    for (let guard = 0; this.queue.length > 0; guard++) {
      if (guard > 100_000) throw new Error("message storm");
      const m = this.queue.shift() as Sent;
      if (this.drop(m)) continue;
      if (m.kind === "gossip") {
        for (const [peer, h] of this.handlers)
          if (peer !== m.from && this.online.has(peer))
            this.verdicts.push({ by: peer, from: m.from, verdict: h.gossip(m.data, m.from) });
      } else if (m.to !== null && this.online.has(m.to)) this.handlers.get(m.to)?.direct(m.data, m.from);
    }
  }
}

// ----- validators -----

/** Driver logs on stdout when DKG_TEST_LOG is set (debugging), else none. */
function testLogger(name: string): Logger | null {
  if (process.env.DKG_TEST_LOG === undefined) return null;
  const line = (o: object, m: string) => console.log(Date.now() % 100_000, name, m, JSON.stringify(o));
  return { info: line, warn: line, error: line, debug: line };
}

interface Validator {
  readonly name: string;
  readonly secret: Buffer;
  readonly key: Buffer;
  readonly pop: Buffer;
  /** operator account (pays for its dkgLog transactions) */
  readonly operator: Uint8Array;
  readonly address: Uint8Array;
  readonly dir: string;
  readonly peer: string;
  driver: DkgDriver | null;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Counters {
  ceremoniesStarted: number;
  logsSubmitted: number;
  sharesDerived: number;
  failures: number;
}

function makeValidator(i: number): Validator {
  const secret = x.blsKeygen(sha(`dkg-driver-test|${i}`));
  const operator = secretKey(300 + i);
  const dir = mkdtempSync(join(tmpdir(), "cowboy-dkg-"));
  dirs.push(dir);
  return {
    name: `v${i}`,
    secret,
    key: x.blsPublicKey(secret),
    pop: x.blsProofOfPossession(secret, CHAIN_ID),
    operator,
    address: addressFromSecretKey(operator),
    dir,
    peer: `peer-${i}`,
    driver: null,
  };
}

/**
 * How a driver is (re)started: `lostGenesisShare`: it has no genesis share; `finalizedHeight`:
 * its finalized tip; `chain` / `finalizedCeremony`: what it reads (default: the test chain,
 * whose every block is final at once, and no separate finalized read).
 */
interface StartOptions {
  lostGenesisShare?: boolean;
  finalizedHeight?: number;
  chain?: DkgChain;
  finalizedCeremony?: (n: number, height: number) => CeremonyRecord | null;
  /** the driver's logger (default: {@link testLogger}) */
  logger?: Logger;
  /** constructed with `waitForSync` (inactive until `ready()`) */
  waitForSync?: boolean;
}

/**
 * 4 genesis validators (genesis group from `genesisDkg`) and one that registers in block 1, so
 * the set of epoch 1 (frozen at F(0)) has 5 keys and ceremony 1 opens at F(0).
 */
class Net {
  readonly hub = new Hub();
  readonly chain: TestChain;
  readonly validators: Validator[];
  readonly genesis: GenesisDkg;
  readonly pool: LogTx[] = [];
  readonly counters = new Map<string, Counters>();
  /** validator transactions for the next block */
  readonly pendingTxs: Uint8Array[];

  /**
   * A log submitted when block h is final goes into block h + `inclusionDelay` at the earliest
   * (default 1; 2 models a next block already proposed on a notarized parent).
   */
  private readonly inclusionDelay: number;

  /** `hub: false`: drivers are started by the caller on their own network ({@link startOn}) */
  constructor(o: { epochBlocks: number; hub?: boolean; inclusionDelay?: number }) {
    this.inclusionDelay = o.inclusionDelay ?? 1;
    this.validators = [0, 1, 2, 3, 4].map(makeValidator);
    const founders = this.validators.slice(0, 4);
    const joiner = this.validators[4] as Validator;
    this.genesis = genesisDkg(
      founders.map((v) => v.secret),
      CHAIN_ID,
    );
    this.chain = new TestChain(o.epochBlocks, founders, this.genesis.output, [joiner]);
    this.pendingTxs = [this.chain.register(joiner)];
    if (o.hub !== false) for (const v of this.validators) this.start(v);
  }

  /** Starts (or restarts, with the same data directory) a validator's driver on the hub. */
  start(v: Validator, o: StartOptions = {}): DkgDriver {
    this.hub.online.add(v.peer);
    return this.startOn(v, this.hub.endpoint(v.peer), o);
  }

  /** Starts a validator's driver on `network`. */
  startOn(v: Validator, network: DkgNetwork, o: StartOptions = {}): DkgDriver {
    const g = o.lostGenesisShare ? undefined : this.genesis.shares.find((s) => s.publicKey.equals(v.key));
    const c: Counters = { ceremoniesStarted: 0, logsSubmitted: 0, sharesDerived: 0, failures: 0 };
    this.counters.set(v.name, c);
    const counter = (k: keyof Counters) => ({
      inc: (n = 1) => {
        c[k] += n;
      },
    });
    v.driver = new DkgDriver({
      chain: o.chain ?? this.chain.chain,
      // every block of the test chain is final at once: its state is the finalized state
      finalizedCeremony: o.finalizedCeremony ?? ((n) => this.chain.chain.ceremony(n)),
      network,
      secretKey: v.secret,
      blsKey: v.key,
      submitLog: async (ceremony, log) => {
        this.pool.push({ ceremony, log: Buffer.from(log), from: v.operator, submittedAt: this.chain.height });
      },
      dataDir: v.dir,
      finalizedHeight: o.finalizedHeight ?? this.chain.height,
      genesisShare: g === undefined ? null : { index: g.index, share: g.share },
      logger: o.logger ?? testLogger(v.name),
      waitForSync: o.waitForSync,
      metrics: {
        ceremoniesStarted: counter("ceremoniesStarted"),
        logsSubmitted: counter("logsSubmitted"),
        sharesDerived: counter("sharesDerived"),
        failures: counter("failures"),
      },
    });
    return v.driver;
  }

  /** The validator crashes: its driver is gone and it receives nothing. */
  stop(v: Validator): void {
    v.driver = null;
    this.hub.online.delete(v.peer);
  }

  /**
   * One finalized block with the pooled logs; every running driver sees it; messages flow
   * (`beforeFlush` runs after the drivers saw the block, before any message is delivered).
   */
  async block(beforeFlush?: () => void): Promise<number> {
    await Promise.resolve(); // let submitLog promises settle
    const next = this.chain.height + 1;
    const due: LogTx[] = [];
    for (let i = 0; i < this.pool.length; ) {
      const l = this.pool[i] as LogTx;
      if (l.submittedAt === undefined || l.submittedAt + this.inclusionDelay <= next)
        due.push(...this.pool.splice(i, 1));
      else i++;
    }
    const h = this.chain.block(due, this.pendingTxs.splice(0));
    for (const v of this.validators) v.driver?.onFinalized(h);
    beforeFlush?.();
    this.hub.flush();
    await Promise.resolve();
    return h;
  }

  async runTo(height: number): Promise<void> {
    while (this.chain.height < height) await this.block();
  }
}

/** Checks a share against a group: a seed partial signature verifies. */
function shareVerifies(group: Uint8Array, share: Uint8Array): boolean {
  const g = new x.BlsGroup(Buffer.from(group));
  const partial = x.blsSeedPartialSign(Buffer.from(share), CHAIN_ID, 1n, 3n);
  return g.verifyPartial("seed", CHAIN_ID, x.blsSeedMessage(1n, 3n), partial);
}

/** Recovers the seed of a round from `shares` and verifies it against the group key. */
async function seedRecovers(group: Uint8Array, shares: Uint8Array[]): Promise<boolean> {
  const g = new x.BlsGroup(Buffer.from(group));
  const partials = shares.map((s) => x.blsSeedPartialSign(Buffer.from(s), CHAIN_ID, 1n, 9n));
  const seed = await g.recoverSeedAsync(CHAIN_ID, 1n, 9n, partials);
  return x.blsSeedVerify(seed, CHAIN_ID, g.publicKey);
}

// E = 16: the ceremony opens at F(0) = 8, logs until 15, dealers close by 8 + ⌊7/2⌋ = 11
const E = 16;

describe("DkgDriver: resharing from 4 validators to 4 + 1 joining", () => {
  it("deals, acknowledges, puts every log on chain, and every player's share verifies against the new group", async () => {
    const net = new Net({ epochBlocks: E });
    const g0 = net.chain.chain.epochGroup(0) as EpochGroup;
    // epoch 0: the genesis shares
    for (const v of net.validators.slice(0, 4)) {
      const s = v.driver?.shareFor(0);
      expect(s).not.toBeNull();
      expect(shareVerifies(g0.group, (s as { share: Uint8Array }).share)).toBe(true);
    }
    expect(net.validators[4]?.driver?.shareFor(0)).toBeNull();
    await net.runTo(7);
    expect(net.chain.chain.openCeremony()).toBeNull();
    await net.runTo(8); // F(0): ceremony 1 opens, dealers deal, players acknowledge, logs submitted
    const rec = net.chain.chain.openCeremony() as CeremonyRecord;
    expect(rec.ceremony).toBe(1);
    expect(net.pool.length).toBe(4); // every dealer closed at once: all players acknowledged
    await net.runTo(9);
    expect(net.chain.receipts).toEqual(["ok", "ok", "ok", "ok"]);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(4);
    // no share of ceremony 1 before the chain decides
    expect(net.validators[4]?.driver?.shareFor(1)).toBeNull();
    await net.runTo(15); // the last block of epoch 0: the chain decides, players derive
    const g1 = net.chain.chain.epochGroup(1) as EpochGroup;
    expect(g1.ceremony).toBe(1);
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    expect(
      new x.BlsGroup(Buffer.from(g1.group)).publicKey.equals(new x.BlsGroup(Buffer.from(g0.group)).publicKey),
    ).toBe(true);
    const shares: Uint8Array[] = [];
    for (const v of net.validators) {
      const s = v.driver?.shareFor(1);
      expect(s, v.name).not.toBeNull();
      const member = g1.members.find((m) => Buffer.from(m.blsKey).equals(v.key));
      expect(s?.index).toBe(member?.shareIndex);
      expect(shareVerifies(g1.group, (s as { share: Uint8Array }).share)).toBe(true);
      shares.push((s as { share: Uint8Array }).share);
      const files = readdirSync(join(v.dir, "dkg"));
      expect(files).toContain("share-1.json");
      expect(files.filter((f) => f.startsWith("dealings-") || f.startsWith("log-"))).toEqual([]);
      expect(statSync(join(v.dir, "dkg", "share-1.json")).mode & 0o777).toBe(0o600);
    }
    // any threshold of the new shares recovers a seed under the unchanged group key
    expect(g1.threshold).toBe(4);
    expect(await seedRecovers(g1.group, shares.slice(1))).toBe(true);
    for (const v of net.validators) {
      const c = net.counters.get(v.name) as Counters;
      expect(c.ceremoniesStarted).toBe(1);
      expect(c.sharesDerived).toBe(1);
      expect(c.failures).toBe(0);
      expect(c.logsSubmitted).toBe(v.name === "v4" ? 0 : 1);
    }
    // private dealings travel only as direct frames; gossip carries hellos only
    for (const m of net.hub.log) {
      const f = decodeDkgFrame(CHAIN_ID, m.data);
      expect(f).not.toBeNull();
      expect(f?.type === "hello").toBe(m.kind === "gossip");
    }
    expect(net.hub.penalties).toEqual([]);
  });

  it("reshares again at the next boundary (5 → 4, one exits): dealers deal their ceremony-1 shares", async () => {
    const net = new Net({ epochBlocks: E });
    await net.runTo(17);
    const leaver = net.validators[1] as Validator;
    net.pendingTxs.push(net.chain.exit(leaver)); // in epoch 1, before F(1) = 24: leaves the set of 2
    await net.runTo(24);
    const rec = net.chain.chain.openCeremony() as CeremonyRecord;
    expect(rec.ceremony).toBe(2);
    expect(rec.dealers.length).toBe(5);
    expect(rec.players.length).toBe(4);
    await net.runTo(31);
    expect(net.chain.decided(2)).toEqual({ ok: true, revealed: [] });
    const g0 = net.chain.chain.epochGroup(0) as EpochGroup;
    const g2 = net.chain.chain.epochGroup(2) as EpochGroup;
    expect(g2.ceremony).toBe(2);
    expect(hex(new x.BlsGroup(Buffer.from(g2.group)).publicKey)).toBe(
      hex(new x.BlsGroup(Buffer.from(g0.group)).publicKey),
    );
    const shares: Uint8Array[] = [];
    for (const v of net.validators) {
      const s = v.driver?.shareFor(2);
      if (v === leaver) {
        expect(s).toBeNull();
        continue;
      }
      expect(shareVerifies(g2.group, (s as { share: Uint8Array }).share)).toBe(true);
      shares.push((s as { share: Uint8Array }).share);
      expect(v.driver?.storedCeremonies()).toEqual([1, 2]);
    }
    expect(await seedRecovers(g2.group, shares.slice(0, 3))).toBe(true);
  });

  it("a restarted node loads its persisted share (and derives nothing again)", async () => {
    const net = new Net({ epochBlocks: E });
    await net.runTo(15);
    const v = net.validators[4] as Validator;
    const before = v.driver?.shareFor(1);
    expect(before).not.toBeNull();
    net.stop(v);
    const d = net.start(v);
    expect(d.storedCeremonies()).toEqual([1]);
    expect(d.shareFor(1)).toEqual(before);
    await net.runTo(17);
    expect(d.shareFor(1)).toEqual(before);
    expect(net.counters.get(v.name)?.sharesDerived).toBe(0);
  });
});

describe("DkgDriver: share files", () => {
  it("refuses an unreadable share file at start and a share that does not verify against the group", async () => {
    const net = new Net({ epochBlocks: E });
    await net.runTo(15);
    const v = net.validators[2] as Validator;
    const path = join(v.dir, "dkg", "share-1.json");
    const good = readFileSync(path, "utf8");
    net.stop(v);
    writeFileSync(path, "{ not json");
    expect(() => net.start(v)).toThrow(expect.objectContaining({ code: "ERR_DKG_DRIVER_STORE" }));
    // a well-formed file holding another validator's share: the index or the share is refused
    const other = JSON.parse(
      readFileSync(join((net.validators[3] as Validator).dir, "dkg", "share-1.json"), "utf8"),
    );
    writeFileSync(path, JSON.stringify({ ...JSON.parse(good), share: other.share }));
    expect(net.start(v).shareFor(1)).toBeNull();
    writeFileSync(path, good);
    expect(net.start(v).shareFor(1)).not.toBeNull();
  });
});

describe("DkgDriver: faults", () => {
  it("succeeds with a dealer offline for the whole ceremony (its share is revealed)", async () => {
    const net = new Net({ epochBlocks: E });
    const off = net.validators[2] as Validator;
    net.stop(off);
    await net.runTo(15);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(3);
    const g1 = net.chain.chain.epochGroup(1) as EpochGroup;
    expect(g1.ceremony).toBe(1);
    expect(net.chain.decided(1)?.revealed.map(hex)).toEqual([hex(off.key)]);
    for (const v of net.validators) {
      if (v === off) continue;
      const s = v.driver?.shareFor(1);
      expect(shareVerifies(g1.group, (s as { share: Uint8Array }).share)).toBe(true);
    }
    // the offline validator comes back after the boundary: every log revealed its dealing, so it
    // derives its (public, hence counted faulty) share from the chain's logs alone
    const d = net.start(off);
    const s = d.shareFor(1);
    expect(shareVerifies(g1.group, (s as { share: Uint8Array }).share)).toBe(true);
  });

  it("a player offline during dealing gets its share after restarting (dealers resend)", async () => {
    const net = new Net({ epochBlocks: E });
    const joiner = net.validators[4] as Validator;
    net.stop(joiner);
    await net.runTo(9);
    expect(net.pool.length + (net.chain.chain.ceremony(1)?.logs.length ?? 0)).toBe(0); // waiting for the joiner
    net.start(joiner); // restart with the same data directory, before the dealers' deadline
    await net.runTo(10); // its hello reaches the dealers, who resend; it acknowledges; all close
    await net.runTo(11);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(4);
    await net.runTo(15);
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    const s = joiner.driver?.shareFor(1);
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });

  it("a player that crashes after acknowledging derives its share after the boundary from its persisted dealings", async () => {
    const net = new Net({ epochBlocks: E });
    const joiner = net.validators[4] as Validator;
    await net.runTo(9);
    expect(readdirSync(join(joiner.dir, "dkg"))).toContain("dealings-1.json");
    net.stop(joiner);
    await net.runTo(15); // decided without it running
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    // restarted while its finalized tip is still before the ceremony's last block: the chain's
    // head already shows the new group, but no share comes from logs that are not final here
    const d = net.start(joiner, { finalizedHeight: 14 });
    expect(d.shareFor(1)).toBeNull();
    d.onFinalized(15);
    const s = d.shareFor(1); // derived from the persisted dealings and the chain's logs
    expect(s).not.toBeNull();
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
    expect(readdirSync(join(joiner.dir, "dkg"))).toEqual(["share-1.json"]);
  });

  it("a player that cannot persist a dealing does not acknowledge it (the dealer reveals it instead)", async () => {
    const net = new Net({ epochBlocks: E });
    const joiner = net.validators[4] as Validator;
    // the dealings file cannot be written (a directory is in its place)
    mkdirSync(join(joiner.dir, "dkg", "dealings-1.json", "x"), { recursive: true });
    await net.runTo(15);
    const acks = net.hub.log.filter(
      (m) =>
        m.kind === "direct" && m.from === joiner.peer && decodeDkgFrame(CHAIN_ID, m.data)?.type === "ack",
    );
    expect(acks).toEqual([]);
    // every dealer revealed its dealing to the joiner: the ceremony still succeeds
    expect(net.chain.decided(1)?.revealed.map(hex)).toEqual([hex(joiner.key)]);
  });

  it("a dealer-player that cannot persist its own dealing does not deal (error logged); the ceremony completes without it", async () => {
    const net = new Net({ epochBlocks: E });
    const v1 = net.validators[1] as Validator;
    const errors: string[] = [];
    const line = () => {};
    net.stop(v1);
    net.start(v1, { logger: { info: line, warn: line, debug: line, error: (_o, m) => errors.push(m) } });
    // the dealings file cannot be written (a directory is in its place): a failing writer
    mkdirSync(join(v1.dir, "dkg", "dealings-1.json", "x"), { recursive: true });
    await net.runTo(8);
    expect(errors).toContain("dkg: cannot persist my dealing to myself: not dealing in this ceremony");
    await net.runTo(15);
    const fromV1 = net.hub.log
      .filter((m) => m.from === v1.peer)
      .map((m) => decodeDkgFrame(CHAIN_ID, m.data)?.type);
    expect(fromV1).not.toContain("deal"); // nothing dealt
    expect(fromV1).not.toContain("ack"); // nothing acknowledged (not even its own dealing)
    expect(net.counters.get(v1.name)?.logsSubmitted).toBe(0);
    const rec = net.chain.chain.ceremony(1) as CeremonyRecord;
    expect(rec.logs.length).toBe(3);
    // the three other dealers revealed their dealings to it; the ceremony succeeds
    expect(net.chain.decided(1)?.revealed.map(hex)).toEqual([hex(v1.key)]);
    for (const v of net.validators) {
      if (v === v1) continue;
      expect(v.driver?.shareFor(1), v.name).not.toBeNull();
    }
    // and it still derives its (revealed) share from the chain's logs alone
    const s = v1.driver?.shareFor(1);
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });

  it("a player offline until the dealers' deadline is revealed, and still gets its share", async () => {
    const net = new Net({ epochBlocks: E });
    const joiner = net.validators[4] as Validator;
    net.stop(joiner);
    await net.runTo(12);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(4); // closed at 11 without it
    net.start(joiner);
    await net.runTo(15);
    expect(net.chain.decided(1)?.revealed.map(hex)).toEqual([hex(joiner.key)]);
    const s = joiner.driver?.shareFor(1);
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });

  it("a dealer restarted mid-ceremony sends byte-identical dealings, and the ceremony completes", async () => {
    const net = new Net({ epochBlocks: E });
    const dealer = net.validators[1] as Validator;
    // acknowledgements to this dealer are lost: it keeps dealing until it restarts
    let blockAcks = true;
    net.hub.drop = (m) =>
      blockAcks && m.to === dealer.peer && decodeDkgFrame(CHAIN_ID, m.data)?.type === "ack";
    const deals = (from: number) =>
      net.hub.log
        .slice(from)
        .filter((m) => m.from === dealer.peer && decodeDkgFrame(CHAIN_ID, m.data)?.type === "deal")
        .map((m) => `${m.to}:${hex(m.data)}`);
    await net.runTo(8);
    const first = new Set(deals(0));
    expect(first.size).toBe(4);
    net.stop(dealer);
    const mark = net.hub.log.length;
    net.start(dealer);
    blockAcks = false;
    await net.runTo(10); // the restarted dealer deals again once players re-announce
    const again = new Set(deals(mark));
    expect(again.size).toBe(4);
    expect([...again].sort()).toEqual([...first].sort());
    await net.runTo(15);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(4);
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    for (const v of net.validators) expect(v.driver?.shareFor(1)).not.toBeNull();
  });

  it("a dealer that is also a player restarts mid-ceremony without its previous share: same share (own dealing persisted)", async () => {
    const reference = new Net({ epochBlocks: E });
    await reference.runTo(15);
    const want = reference.validators[1]?.driver?.shareFor(1);
    expect(want).not.toBeNull();
    for (const restartAt of [10, 17]) {
      const net = new Net({ epochBlocks: E });
      const v1 = net.validators[1] as Validator;
      await net.runTo(9); // dealt at 8 (to itself too), its log is on chain
      const file = join(v1.dir, "dkg", "dealings-1.json");
      expect(statSync(file).mode & 0o777).toBe(0o600); // it holds secret dealings
      const kept = JSON.parse(readFileSync(file, "utf8")) as Array<{ dealer: string }>;
      expect(kept.map((d) => d.dealer)).toContain(hex(v1.key)); // its own among them
      net.stop(v1);
      await net.runTo(restartAt - 1);
      // restarted without its genesis share (it cannot deal its polynomial again): mid-ceremony,
      // or after the boundary (the share is derived lazily from the saved dealings)
      const d = net.start(v1, { lostGenesisShare: true });
      await net.runTo(restartAt);
      await net.runTo(17);
      expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
      expect(d.shareFor(1), `restarted at ${restartAt}`).toEqual(want);
    }
  });

  it("a dealer that lost its previous share does not deal but still gets its new share", async () => {
    const net = new Net({ epochBlocks: E });
    const v0 = net.validators[0] as Validator;
    net.stop(v0);
    net.start(v0, { lostGenesisShare: true });
    expect(v0.driver?.shareFor(0)).toBeNull();
    await net.runTo(15);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(3);
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    const s = v0.driver?.shareFor(1);
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
    expect(net.counters.get("v0")).toMatchObject({
      ceremoniesStarted: 1,
      logsSubmitted: 0,
      sharesDerived: 1,
      failures: 1,
    });
  });

  it("resubmits a log that did not make it on chain; the chain refuses the duplicate", async () => {
    const net = new Net({ epochBlocks: E });
    await net.runTo(8);
    const lost = net.pool.shift() as LogTx; // one submission is lost (mempool drop)
    expect(lost.ceremony).toBe(1);
    await net.runTo(11);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(3);
    await net.runTo(12);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(4); // resubmitted at 8 + 3, included in 12
    const dup = net.chain.chain.ceremony(1)?.logs[0] as Uint8Array;
    net.pool.push({ ceremony: 1, log: dup, from: (net.validators[4] as Validator).operator });
    await net.runTo(13);
    expect(net.chain.receipts.at(-1)).toBe("ERR_DKG_LOG_DUPLICATE");
    await net.runTo(15);
    expect((net.chain.chain.epochGroup(1) as EpochGroup).ceremony).toBe(1);
  });

  it("falls back when too few dealers log: no new share, the carried group keeps the old shares", async () => {
    const net = new Net({ epochBlocks: E });
    net.stop(net.validators[0] as Validator);
    net.stop(net.validators[1] as Validator);
    await net.runTo(15);
    expect(net.chain.decided(1)?.ok).toBe(false);
    const g1 = net.chain.chain.epochGroup(1) as EpochGroup;
    expect(g1.ceremony).toBe(0);
    // the old members sign with their genesis shares; the joiner is not in the carried set
    for (const v of net.validators.slice(2, 4)) {
      const s = v.driver?.shareFor(1);
      expect(s).toEqual(v.driver?.shareFor(0));
      expect(shareVerifies(g1.group, (s as { share: Uint8Array }).share)).toBe(true);
    }
    expect(net.validators[4]?.driver?.shareFor(1)).toBeNull();
    expect(readdirSync(join((net.validators[4] as Validator).dir, "dkg"))).toEqual([]);
  });

  it("ignores and scores a peer sending garbage, forged bindings and messages of non-participants", async () => {
    const net = new Net({ epochBlocks: E });
    const evil = net.hub.endpoint("evil");
    net.hub.online.add("evil");
    evil.listen({ gossip: () => "ignore", direct: () => {} });
    const victim = net.validators[4] as Validator;
    await net.runTo(8);
    const evilSecret = x.blsKeygen(sha("evil"));
    const evilKey = x.blsPublicKey(evilSecret);
    const bind = (ceremony: number, key: Buffer, secret: Buffer, peer: string) =>
      x.blsSignNamespaced(
        secret,
        Buffer.from(DKG_PEER_NAMESPACE),
        bindingMessage(CHAIN_ID, ceremony, key, peer),
      );
    const frame = (type: number, ceremony: number, key: Buffer, sig: Buffer, body: Buffer) => {
      const head = Buffer.alloc(18);
      head[0] = 1;
      head[1] = type;
      head.writeBigUInt64BE(CHAIN_ID, 2);
      head.writeBigUInt64BE(BigInt(ceremony), 10);
      return Buffer.concat([head, key, sig, body]);
    };
    const lenPrefixed = (b: Buffer) => {
      const l = Buffer.alloc(4);
      l.writeUInt32BE(b.length);
      return Buffer.concat([l, b]);
    };
    const dealer0 = net.validators[0] as Validator;
    const gossipTo = (d: Uint8Array) => evil.publish(d);
    // 1. garbage direct frame → penalized as undecodable
    evil.send(victim.peer, Buffer.from("not a dkg frame"));
    // 2. oversized frame → undecodable
    evil.send(victim.peer, Buffer.alloc(300 * 1024, 1));
    // 3. a dealing claiming dealer 0's key with a forged binding → penalized
    const forged = frame(
      2,
      1,
      dealer0.key,
      bind(1, evilKey, evilSecret, "evil"),
      Buffer.concat([victim.key, lenPrefixed(Buffer.alloc(10)), lenPrefixed(Buffer.alloc(10))]),
    );
    evil.send(victim.peer, forged);
    // 4. a dealing from a key that takes no part → dropped without processing
    const outsider = frame(
      2,
      1,
      evilKey,
      bind(1, evilKey, evilSecret, "evil"),
      Buffer.concat([victim.key, lenPrefixed(Buffer.alloc(10)), lenPrefixed(Buffer.alloc(10))]),
    );
    evil.send(victim.peer, outsider);
    // 5. garbage gossip and a hello with a bad signature → rejected
    gossipTo(Buffer.from("garbage"));
    const idb = Buffer.from("evil");
    const idl = Buffer.alloc(2);
    idl.writeUInt16BE(idb.length);
    gossipTo(
      frame(1, 1, dealer0.key, Buffer.from(bind(1, evilKey, evilSecret, "evil")), Buffer.concat([idl, idb])),
    );
    net.hub.flush();
    const rejected = net.hub.verdicts.filter((v) => v.from === "evil" && v.by === victim.peer);
    expect(rejected.map((v) => v.verdict)).toEqual(["reject", "reject"]);
    const against = net.hub.penalties.filter((p) => p.peer === "evil" && p.by === victim.peer);
    expect(against.map((p) => p.reason)).toEqual([
      "undecodable dkg frame",
      "undecodable dkg frame",
      "dkg frame with an invalid peer binding",
    ]);
    // the ceremony is unaffected
    await net.runTo(15);
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    expect(victim.driver?.shareFor(1)).not.toBeNull();
  });
});

/**
 * The chain as a validator's store sees it when it runs ahead of finality: the head state shows
 * `speculative` logs (in blocks that are not final) after the final ones of the real chain.
 */
class AheadChain implements DkgChain {
  speculative: Uint8Array[] = [];
  private readonly real: Chain;
  constructor(real: Chain) {
    this.real = real;
  }
  get chainId(): bigint {
    return this.real.chainId;
  }
  validatorParams() {
    return this.real.validatorParams();
  }
  private ahead(r: CeremonyRecord | null): CeremonyRecord | null {
    return r === null || this.real.openCeremony()?.ceremony !== r.ceremony
      ? r
      : { ...r, logs: [...r.logs, ...this.speculative] };
  }
  openCeremony(): CeremonyRecord | null {
    return this.ahead(this.real.openCeremony());
  }
  ceremony(n: number): CeremonyRecord | null {
    return this.ahead(this.real.ceremony(n));
  }
  epochGroup(epoch: number): EpochGroup | null {
    return this.real.epochGroup(epoch);
  }
}

describe("DkgDriver: the node's initial sync (waitForSync)", () => {
  it("syncing through a ceremony window starts nothing and submits nothing; after ready() the passed window is not started", async () => {
    const net = new Net({ epochBlocks: E });
    const v1 = net.validators[1] as Validator;
    net.stop(v1);
    const d = net.start(v1, { waitForSync: true, finalizedHeight: 0 });
    expect(d.isReady).toBe(false);
    await net.runTo(15); // the node applies the ceremony's blocks while syncing
    const c = net.counters.get(v1.name) as Counters;
    expect([c.ceremoniesStarted, c.logsSubmitted]).toEqual([0, 0]);
    expect(net.hub.log.filter((m) => m.from === v1.peer)).toEqual([]);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(3); // the others' logs only
    expect(net.chain.decided(1)?.ok).toBe(true);
    d.ready();
    d.ready(); // idempotent
    expect(d.isReady).toBe(true);
    await net.runTo(18); // ceremony 1's window is over: never started
    expect([c.ceremoniesStarted, c.logsSubmitted]).toEqual([0, 0]);
    expect(net.hub.log.filter((m) => m.from === v1.peer)).toEqual([]);
    // its share still comes from the chain's logs (its dealings were revealed)
    const s = d.shareFor(1);
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });

  it("ready() inside an open window: the driver joins the ceremony from the next block", async () => {
    const net = new Net({ epochBlocks: E });
    const joiner = net.validators[4] as Validator;
    net.stop(joiner);
    const d = net.start(joiner, { waitForSync: true, finalizedHeight: 0 });
    await net.runTo(9); // ceremony 1 opened at 8; syncing: nothing sent
    expect(net.hub.log.filter((m) => m.from === joiner.peer)).toEqual([]);
    expect(net.counters.get(joiner.name)?.ceremoniesStarted).toBe(0);
    d.ready();
    await net.runTo(15);
    expect(net.counters.get(joiner.name)?.ceremoniesStarted).toBe(1);
    expect(net.chain.decided(1)?.ok).toBe(true);
    const s = d.shareFor(1);
    expect(
      shareVerifies((net.chain.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });
});

describe("DkgDriver: the shortest epoch (MIN_DKG_EPOCH_BLOCKS)", () => {
  /**
   * The slowest schedule the driver allows: a player is offline, so the dealers close only at
   * the midpoint (revealing its dealing), and each log lands two blocks after it was submitted.
   */
  async function slowestCeremony(
    epochBlocks: number,
  ): Promise<{ ok: boolean; logs: number; refused: number }> {
    const net = new Net({ epochBlocks, inclusionDelay: 2 });
    net.stop(net.validators[4] as Validator);
    const last = epochBlocks - 1; // ceremony 1's last block (it opened at F(0) = ⌊E/2⌋)
    await net.runTo(last + 1); // a log submitted at the midpoint has landed (or missed) by then
    return {
      ok: net.chain.decided(1)?.ok === true,
      logs: net.chain.chain.ceremony(1)?.logs.length ?? 0,
      refused: net.chain.receipts.filter((r) => r === "ERR_DKG_NO_CEREMONY").length,
    };
  }

  it(`holds the ceremony at ${MIN_DKG_EPOCH_BLOCKS} blocks; one block shorter every log comes too late`, async () => {
    expect(await slowestCeremony(MIN_DKG_EPOCH_BLOCKS)).toEqual({ ok: true, logs: 4, refused: 0 });
    // E = 6: F = 3, last = 5, midpoint 4: logs submitted at 4 land at 6, after the ceremony
    expect(await slowestCeremony(MIN_DKG_EPOCH_BLOCKS - 1)).toEqual({ ok: false, logs: 0, refused: 4 });
  });
});

describe("DkgDriver: a log in a block that is not final", () => {
  /**
   * Dealer v1's log is included in a speculative block (its head state shows it from block 9
   * on) that is then dropped at 10, its transaction gone with it. Returns the logs the chain
   * decided ceremony 1 with and v1's submissions.
   */
  async function droppedLog(
    finalRead: boolean,
  ): Promise<{ dealers: string[]; submitted: number; v1: string }> {
    const net = new Net({ epochBlocks: E });
    const v1 = net.validators[1] as Validator;
    const ahead = new AheadChain(net.chain.chain);
    net.stop(v1);
    net.start(v1, {
      chain: ahead,
      // the real chain's state is the finalized one; the wrong read takes the head's
      finalizedCeremony: finalRead ? (n) => net.chain.chain.ceremony(n) : (n) => ahead.ceremony(n),
    });
    await net.runTo(8); // F(0): every dealer closed and submitted
    const mine = net.pool.findIndex((l) => hex(l.log.subarray(0, 48)) === hex(v1.key));
    expect(mine).toBeGreaterThanOrEqual(0);
    const [lost] = net.pool.splice(mine, 1) as [LogTx];
    ahead.speculative = [lost.log]; // in the head's (speculative) block 9
    await net.runTo(9);
    expect(net.chain.chain.ceremony(1)?.logs.length).toBe(3);
    expect(ahead.ceremony(1)?.logs.length).toBe(4);
    await net.block(() => {
      ahead.speculative = []; // that branch lost: block 10 is final without the log
    });
    await net.runTo(15);
    const rec = net.chain.chain.ceremony(1) as CeremonyRecord;
    const dealers = rec.logs.map((l) => hex(l.subarray(0, 48))).sort();
    return { dealers, submitted: net.counters.get(v1.name)?.logsSubmitted ?? 0, v1: hex(v1.key) };
  }

  it("resubmits a log its head showed once that block is dropped, and its dealing counts", async () => {
    const net = await droppedLog(true);
    expect(net.submitted).toBe(2); // at 8, and again at 8 + 3 (not final by then)
    expect(net.dealers.length).toBe(4);
    expect(net.dealers).toContain(net.v1);
  });

  it("(the same run reading the head as final: the dealer stops resubmitting and its dealing is lost)", async () => {
    const net = await droppedLog(false);
    expect(net.submitted).toBe(1);
    expect(net.dealers).not.toContain(net.v1);
  });
});

describe("DkgDriver: a participant announcing another node's peer id", () => {
  it("gets nothing delivered to that node's ceremony, and nobody honest is penalized", async () => {
    const net = new Net({ epochBlocks: E });
    const victim = net.validators[4] as Validator;
    const liar = net.validators[3] as Validator;
    await net.runTo(7);
    // at F(0) the liar's only hello binds its key to the victim's peer id: the dealers send the
    // liar's dealings to the victim, who must drop them (they are addressed to the liar's key)
    const hijack = Buffer.concat([
      Buffer.from([1, 1]),
      Buffer.alloc(16),
      liar.key,
      x.blsSignNamespaced(
        liar.secret,
        Buffer.from(DKG_PEER_NAMESPACE),
        bindingMessage(CHAIN_ID, 1, liar.key, victim.peer),
      ),
      Buffer.from([0, victim.peer.length]),
      Buffer.from(victim.peer),
    ]);
    hijack.writeBigUInt64BE(CHAIN_ID, 2);
    hijack.writeBigUInt64BE(1n, 10);
    const relay = net.hub.endpoint("relay"); // gossip is relayed: any peer may carry the hello
    net.hub.online.add("relay");
    relay.listen({ gossip: () => "ignore", direct: () => {} });
    net.hub.drop = (m) => m.kind === "gossip" && m.from === liar.peer;
    await net.block(() => relay.publish(hijack));
    const misrouted = net.hub.log.filter(
      (m) => m.to === victim.peer && decodeDkgFrame(CHAIN_ID, m.data)?.type === "deal",
    );
    expect(misrouted.length).toBeGreaterThan(4); // its own 4 and the liar's
    net.hub.drop = () => false; // the liar's real hellos again: the dealers resend to it
    await net.runTo(15);
    expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
    expect(victim.driver?.shareFor(1)).not.toBeNull();
    expect(net.hub.penalties).toEqual([]);
  });
});

describe("DkgDriver: a node that takes no part", () => {
  it("starts nothing, derives nothing, and relays the participants' valid hellos only", async () => {
    const net = new Net({ epochBlocks: E });
    const outsider = makeValidator(9);
    net.hub.online.add(outsider.peer);
    const d = net.startOn(outsider, net.hub.endpoint(outsider.peer));
    await net.runTo(8);
    const verdicts = net.hub.verdicts.filter((v) => v.by === outsider.peer);
    expect(verdicts.length).toBe(5);
    expect(verdicts.every((v) => v.verdict === "accept")).toBe(true);
    // a forged hello of a participant is rejected; a hello of a stranger is ignored
    const v0 = net.validators[0] as Validator;
    const hello = (key: Buffer, secret: Buffer) => {
      const sig = x.blsSignNamespaced(
        secret,
        Buffer.from(DKG_PEER_NAMESPACE),
        bindingMessage(CHAIN_ID, 1, key, "somewhere"),
      );
      const head = Buffer.alloc(18);
      head[0] = 1;
      head[1] = 1;
      head.writeBigUInt64BE(CHAIN_ID, 2);
      head.writeBigUInt64BE(1n, 10);
      return Buffer.concat([head, key, sig, Buffer.from([0, 9]), Buffer.from("somewhere")]);
    };
    const relay = net.hub.endpoint("relay");
    net.hub.online.add("relay");
    relay.listen({ gossip: () => "ignore", direct: () => {} });
    relay.publish(hello(v0.key, outsider.secret)); // v0's key, signed by someone else
    relay.publish(hello(outsider.key, outsider.secret));
    net.hub.flush();
    const after = net.hub.verdicts.filter((v) => v.by === outsider.peer && v.from === "relay");
    expect(after.map((v) => v.verdict)).toEqual(["reject", "ignore"]);
    await net.runTo(15);
    expect(net.counters.get(outsider.name)).toEqual({
      ceremoniesStarted: 0,
      logsSubmitted: 0,
      sharesDerived: 0,
      failures: 0,
    });
    expect(d.shareFor(1)).toBeNull();
    expect(d.storedCeremonies()).toEqual([]);
  });
});

describe("DKG wire", () => {
  it("decodes strictly: wrong version, chain, type, lengths or trailing bytes are refused", () => {
    const secret = x.blsKeygen(sha("wire"));
    const key = x.blsPublicKey(secret);
    const sig = x.blsSignNamespaced(
      secret,
      Buffer.from(DKG_PEER_NAMESPACE),
      bindingMessage(CHAIN_ID, 1, key, "p"),
    );
    const head = Buffer.alloc(18);
    head[0] = 1;
    head[1] = 3;
    head.writeBigUInt64BE(CHAIN_ID, 2);
    head.writeBigUInt64BE(1n, 10);
    const to = Buffer.alloc(48, 9);
    const ack = Buffer.concat([head, key, sig, to, Buffer.from([0, 0, 0, 2, 7, 7])]);
    expect(decodeDkgFrame(CHAIN_ID, ack)).toMatchObject({
      type: "ack",
      ceremony: 1,
      to,
      ack: Buffer.from([7, 7]),
    });
    expect(decodeDkgFrame(CHAIN_ID + 1n, ack)).toBeNull();
    expect(decodeDkgFrame(CHAIN_ID, Buffer.concat([ack, Buffer.from([0])]))).toBeNull();
    expect(decodeDkgFrame(CHAIN_ID, ack.subarray(0, ack.length - 1))).toBeNull();
    const bad = (i: number, v: number) => {
      const b = Buffer.from(ack);
      b[i] = v;
      return b;
    };
    expect(decodeDkgFrame(CHAIN_ID, bad(0, 2))).toBeNull();
    expect(decodeDkgFrame(CHAIN_ID, bad(1, 9))).toBeNull();
    expect(decodeDkgFrame(CHAIN_ID, Buffer.alloc(10))).toBeNull();
  });
});

describe("DkgDriver over libp2p", () => {
  it("5 p2p nodes (one not yet a validator) run the resharing over the DKG topic and protocol", async () => {
    const net = new Net({ epochBlocks: E, hub: false });
    const nodes: P2pNode[] = [];
    try {
      for (const v of net.validators) {
        const node = await createNode({
          chainId: "dkg-e2e",
          identityPath: join(v.dir, "p2p.key"),
          transports: ["tcp"],
          bootstrap: nodes[0]?.multiaddrs() ?? [],
          // the network's validator map is the genesis set; the joiner is not in it
          validators: [],
          discoveryIntervalMs: 200,
        });
        nodes.push(node);
        net.startOn(v, p2pDkgNetwork(node));
      }
      await waitFor(
        "a full mesh on the DKG topic",
        () => nodes.every((n) => n.topicPeers("dkg").length === 4),
        60_000,
        25,
      );
      await net.runTo(8); // F(0): the ceremony opens; hellos, dealings and acks travel over libp2p
      // the next block comes once every dealer closed because every player acknowledged (a
      // dealer closes before its deadline at 11 only then); meanwhile the drivers resend
      await waitFor("every dealer's log", () => net.pool.length === 4, 60_000, 25);
      await net.runTo(15);
      expect(net.chain.receipts).toEqual(["ok", "ok", "ok", "ok"]);
      expect(net.chain.decided(1)).toEqual({ ok: true, revealed: [] });
      const g1 = net.chain.chain.epochGroup(1) as EpochGroup;
      for (const v of net.validators) {
        const s = v.driver?.shareFor(1);
        expect(s, v.name).not.toBeNull();
        expect(shareVerifies(g1.group, (s as { share: Uint8Array }).share)).toBe(true);
      }
      for (const n of nodes) for (const p of n.connectedPeers()) expect(n.score(p)).toBe(0);
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
  }, 180_000);
});
