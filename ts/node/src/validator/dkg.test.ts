/**
 * The validator's DKG driver (dkg.ts) over an in-memory network: drivers exchange hellos,
 * dealings and acknowledgements, dealers' logs go "on chain" through `submitLog`, and at the
 * epoch boundary every player's share verifies against the new group with the group key
 * unchanged. The chain here is a small double implementing exactly the contract's reads
 * (openCeremony / ceremony / epochGroup) and its decision rule (C4 §3–5), run by the test's
 * blocks.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DkgCeremony, DkgInfo, loadNative } from "@cowboy/consensus";
import { afterEach, describe, expect, it } from "vitest";
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
} from "./dkg.ts";

const x = loadNative();
const CHAIN_ID = 7n;
const sha = (s: string): Buffer => createHash("sha256").update(s).digest();
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

// ----- a chain double with the contract's DKG rules -----

interface LogTx {
  ceremony: number;
  log: Uint8Array;
}

class FakeChain implements DkgChain {
  readonly chainId = CHAIN_ID;
  height = 0;
  private readonly sets = new Map<number, Buffer[]>();
  private readonly groups = new Map<number, EpochGroup>();
  private readonly ceremonies = new Map<number, CeremonyRecord & { logs: Uint8Array[] }>();
  private openNumber: number | null = null;
  /** receipts of log transactions: "ok" or the error code */
  readonly receipts: string[] = [];
  /** the observer result of each decided ceremony */
  readonly decided = new Map<number, { ok: boolean; revealed: Buffer[] }>();

  readonly epochBlocks: number;
  /** the frozen set of epoch e+1 (default: the set of e) */
  private readonly nextSet: (epoch: number) => Buffer[] | null;

  constructor(
    epochBlocks: number,
    genesisKeys: Buffer[],
    genesis: { output: Buffer; group: Buffer },
    nextSet: (epoch: number) => Buffer[] | null = () => null,
  ) {
    this.epochBlocks = epochBlocks;
    this.nextSet = nextSet;
    this.sets.set(0, genesisKeys);
    this.groups.set(0, this.makeGroup(0, 0, genesis.output, genesisKeys));
  }

  private makeGroup(epoch: number, ceremony: number, output: Buffer, set: Buffer[]): EpochGroup {
    const info = x.blsDkgOutputInfo(output);
    return {
      epoch,
      ceremony,
      output,
      group: info.group,
      threshold: info.threshold,
      members: set.map((k) => ({
        address: sha(hex(k)).subarray(0, 20),
        blsKey: k,
        stake: 1n,
        shareIndex: info.players.findIndex((p) => p.equals(k)),
      })),
    };
  }

  openCeremony(): CeremonyRecord | null {
    return this.openNumber === null ? null : (this.ceremonies.get(this.openNumber) ?? null);
  }
  ceremony(n: number): CeremonyRecord | null {
    return this.ceremonies.get(n) ?? null;
  }
  epochGroup(epoch: number): EpochGroup | null {
    return this.groups.get(epoch) ?? null;
  }

  /** Applies the next block carrying `txs`. */
  block(txs: LogTx[]): number {
    const h = ++this.height;
    const E = this.epochBlocks;
    const e = Math.floor(h / E);
    if (h === e * E + Math.floor(E / 2)) this.freeze(e, h);
    for (const tx of txs) this.receipts.push(this.applyLog(tx, h));
    if (h === (e + 1) * E - 1) this.decide(e);
    return h;
  }

  private freeze(e: number, h: number): void {
    const set = this.nextSet(e + 1) ?? (this.sets.get(e) as Buffer[]);
    this.sets.set(e + 1, set);
    const g = this.groups.get(e) as EpochGroup;
    const players = x.blsDkgOutputInfo(Buffer.from(g.output)).players;
    const same = players.length === set.length && set.every((k) => players.some((p) => p.equals(k)));
    if (same) return;
    const n = e + 1;
    this.ceremonies.set(n, {
      ceremony: n,
      epoch: e + 1,
      dealers: players,
      players: set,
      previousOutput: Buffer.from(g.output),
      firstHeight: h,
      lastHeight: (e + 1) * this.epochBlocks - 1,
      logs: [],
    });
    this.openNumber = n;
  }

  private applyLog(tx: LogTx, h: number): string {
    const rec = this.openNumber === tx.ceremony ? this.ceremonies.get(tx.ceremony) : undefined;
    if (rec === undefined || h < rec.firstHeight || h > rec.lastHeight) return "ERR_DKG_NO_CEREMONY";
    const info = new DkgInfo({
      chainId: CHAIN_ID,
      round: BigInt(rec.ceremony),
      previousOutput: rec.previousOutput,
      dealers: rec.dealers,
      players: rec.players,
    });
    let dealer: Buffer;
    try {
      const sum = info.native.checkLog(Buffer.from(tx.log));
      if (sum === null) return "ERR_DKG_LOG_INVALID";
      dealer = sum.dealer;
    } catch {
      return "ERR_DKG_LOG_INVALID";
    }
    for (const l of rec.logs)
      if (info.native.checkLog(Buffer.from(l))?.dealer.equals(dealer)) return "ERR_DKG_LOG_DUPLICATE";
    rec.logs.push(Buffer.from(tx.log));
    return "ok";
  }

  private decide(e: number): void {
    const n = this.openNumber;
    const g = this.groups.get(e) as EpochGroup;
    if (n === null) {
      if (!this.groups.has(e + 1))
        this.groups.set(
          e + 1,
          this.makeGroup(e + 1, g.ceremony, Buffer.from(g.output), this.sets.get(e + 1) as Buffer[]),
        );
      return;
    }
    const rec = this.ceremonies.get(n) as CeremonyRecord;
    this.openNumber = null;
    try {
      const observer = new DkgCeremony(
        {
          chainId: CHAIN_ID,
          round: BigInt(n),
          previousOutput: rec.previousOutput,
          dealers: rec.dealers,
          players: rec.players,
          observerRandomness: sha(`observer-${n}`),
        },
        { broadcast: () => {}, sendDealing: () => {}, sendAck: () => {}, publishLog: () => {} },
      );
      const res = observer.finalize(rec.logs);
      this.groups.set(e + 1, this.makeGroup(e + 1, n, res.output, this.sets.get(e + 1) as Buffer[]));
      this.decided.set(n, { ok: true, revealed: [...res.revealed] });
    } catch {
      // fallback: the set of e+1 is re-fixed to the set of e, the group carries over
      this.sets.set(e + 1, this.sets.get(e) as Buffer[]);
      this.groups.set(
        e + 1,
        this.makeGroup(e + 1, g.ceremony, Buffer.from(g.output), this.sets.get(e) as Buffer[]),
      );
      this.decided.set(n, { ok: false, revealed: [] });
    }
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

interface Validator {
  readonly name: string;
  readonly secret: Buffer;
  readonly key: Buffer;
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

class Net {
  readonly hub = new Hub();
  readonly chain: FakeChain;
  readonly validators: Validator[];
  readonly genesis: ReturnType<typeof x.blsDkgDeal>;
  readonly pool: LogTx[] = [];
  readonly counters = new Map<string, Counters>();

  constructor(o: {
    epochBlocks: number;
    genesis: number;
    joiners: number;
    nextSet?: (v: Validator[]) => Buffer[];
  }) {
    const all = o.genesis + o.joiners;
    this.validators = Array.from({ length: all }, (_, i) => {
      const secret = x.blsKeygen(sha(`dkg-driver-test|${i}`));
      const dir = mkdtempSync(join(tmpdir(), "cowboy-dkg-"));
      dirs.push(dir);
      return { name: `v${i}`, secret, key: x.blsPublicKey(secret), dir, peer: `peer-${i}`, driver: null };
    });
    const gkeys = this.validators.slice(0, o.genesis).map((v) => v.key);
    this.genesis = x.blsDkgDeal(gkeys, sha("dkg-driver-test-genesis"));
    const next = o.nextSet?.(this.validators) ?? this.validators.map((v) => v.key);
    this.chain = new FakeChain(o.epochBlocks, gkeys, this.genesis, (epoch) => (epoch === 1 ? next : null));
    for (const v of this.validators) this.start(v);
  }

  /** Starts (or restarts, with the same data directory) a validator's driver. */
  start(v: Validator): DkgDriver {
    const idx = this.genesis.players.findIndex((p) => p.equals(v.key));
    const c: Counters = { ceremoniesStarted: 0, logsSubmitted: 0, sharesDerived: 0, failures: 0 };
    this.counters.set(v.name, c);
    const counter = (k: keyof Counters) => ({
      inc: (n = 1) => {
        c[k] += n;
      },
    });
    this.hub.online.add(v.peer);
    v.driver = new DkgDriver({
      chain: this.chain,
      network: this.hub.endpoint(v.peer),
      secretKey: v.secret,
      blsKey: v.key,
      submitLog: async (ceremony, log) => {
        this.pool.push({ ceremony, log: Buffer.from(log) });
      },
      dataDir: v.dir,
      genesisShare: idx < 0 ? null : { index: idx, share: this.genesis.shares[idx] as Buffer },
      logger: null,
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

  /** One finalized block with the pooled logs; every running driver sees it; messages flow. */
  async block(): Promise<number> {
    await Promise.resolve(); // let submitLog promises settle
    const h = this.chain.block(this.pool.splice(0));
    for (const v of this.validators) v.driver?.onFinalized(h);
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
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    const g0 = net.chain.epochGroup(0) as EpochGroup;
    // epoch 0: the genesis shares
    for (const v of net.validators.slice(0, 4)) {
      const s = v.driver?.shareFor(0);
      expect(s).not.toBeNull();
      expect(shareVerifies(g0.group, (s as { share: Uint8Array }).share)).toBe(true);
    }
    expect(net.validators[4]?.driver?.shareFor(0)).toBeNull();
    await net.runTo(7);
    expect(net.chain.openCeremony()).toBeNull();
    await net.runTo(8); // F(0): ceremony 1 opens, dealers deal, players acknowledge, logs submitted
    const rec = net.chain.openCeremony() as CeremonyRecord;
    expect(rec.ceremony).toBe(1);
    expect(net.pool.length).toBe(4); // every dealer closed at once: all players acknowledged
    await net.runTo(9);
    expect(net.chain.receipts).toEqual(["ok", "ok", "ok", "ok"]);
    expect(net.chain.ceremony(1)?.logs.length).toBe(4);
    // no share of ceremony 1 before the chain decides
    expect(net.validators[4]?.driver?.shareFor(1)).toBeNull();
    await net.runTo(15); // the last block of epoch 0: the chain decides, players derive
    const g1 = net.chain.epochGroup(1) as EpochGroup;
    expect(g1.ceremony).toBe(1);
    expect(net.chain.decided.get(1)).toEqual({ ok: true, revealed: [] });
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

  it("a restarted node loads its persisted share (and derives nothing again)", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
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

describe("DkgDriver: faults", () => {
  it("succeeds with a dealer offline for the whole ceremony (its share is revealed)", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    const off = net.validators[2] as Validator;
    net.stop(off);
    await net.runTo(15);
    expect(net.chain.ceremony(1)?.logs.length).toBe(3);
    const g1 = net.chain.epochGroup(1) as EpochGroup;
    expect(g1.ceremony).toBe(1);
    expect(net.chain.decided.get(1)?.revealed.map(hex)).toEqual([hex(off.key)]);
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
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    const joiner = net.validators[4] as Validator;
    net.stop(joiner);
    await net.runTo(9);
    expect(net.pool.length + (net.chain.ceremony(1)?.logs.length ?? 0)).toBe(0); // waiting for the joiner
    net.start(joiner); // restart with the same data directory, before the dealers' deadline
    await net.runTo(10); // its hello reaches the dealers, who resend; it acknowledges; all close
    await net.runTo(11);
    expect(net.chain.ceremony(1)?.logs.length).toBe(4);
    await net.runTo(15);
    expect(net.chain.decided.get(1)).toEqual({ ok: true, revealed: [] });
    const s = joiner.driver?.shareFor(1);
    expect(
      shareVerifies((net.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });

  it("a player that crashes after acknowledging derives its share after the boundary from its persisted dealings", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    const joiner = net.validators[4] as Validator;
    await net.runTo(9);
    expect(readdirSync(join(joiner.dir, "dkg"))).toContain("dealings-1.json");
    net.stop(joiner);
    await net.runTo(16); // decided without it running
    expect(net.chain.decided.get(1)).toEqual({ ok: true, revealed: [] });
    const d = net.start(joiner);
    const s = d.shareFor(1); // derived now from the persisted dealings and the chain's logs
    expect(s).not.toBeNull();
    expect(
      shareVerifies((net.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
    expect(readdirSync(join(joiner.dir, "dkg"))).toEqual(["share-1.json"]);
  });

  it("a player offline until the dealers' deadline is revealed, and still gets its share", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    const joiner = net.validators[4] as Validator;
    net.stop(joiner);
    await net.runTo(12);
    expect(net.chain.ceremony(1)?.logs.length).toBe(4); // closed at 11 without it
    net.start(joiner);
    await net.runTo(15);
    expect(net.chain.decided.get(1)?.revealed.map(hex)).toEqual([hex(joiner.key)]);
    const s = joiner.driver?.shareFor(1);
    expect(
      shareVerifies((net.chain.epochGroup(1) as EpochGroup).group, (s as { share: Uint8Array }).share),
    ).toBe(true);
  });

  it("a dealer restarted mid-ceremony sends byte-identical dealings, and the ceremony completes", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
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
    expect(net.chain.ceremony(1)?.logs.length).toBe(4);
    expect(net.chain.decided.get(1)).toEqual({ ok: true, revealed: [] });
    for (const v of net.validators) expect(v.driver?.shareFor(1)).not.toBeNull();
  });

  it("resubmits a log that did not make it on chain; the chain refuses the duplicate", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    await net.runTo(8);
    const lost = net.pool.shift() as LogTx; // one submission is lost (mempool drop)
    expect(lost.ceremony).toBe(1);
    await net.runTo(11);
    expect(net.chain.ceremony(1)?.logs.length).toBe(3);
    await net.runTo(12);
    expect(net.chain.ceremony(1)?.logs.length).toBe(4); // resubmitted at 8 + 3, included in 12
    const dup = net.chain.ceremony(1)?.logs[0] as Uint8Array;
    net.pool.push({ ceremony: 1, log: dup });
    await net.runTo(13);
    expect(net.chain.receipts.at(-1)).toBe("ERR_DKG_LOG_DUPLICATE");
    await net.runTo(15);
    expect((net.chain.epochGroup(1) as EpochGroup).ceremony).toBe(1);
  });

  it("falls back when too few dealers log: no new share, the carried group keeps the old shares", async () => {
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
    net.stop(net.validators[0] as Validator);
    net.stop(net.validators[1] as Validator);
    await net.runTo(15);
    expect(net.chain.decided.get(1)?.ok).toBe(false);
    const g1 = net.chain.epochGroup(1) as EpochGroup;
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
    const net = new Net({ epochBlocks: E, genesis: 4, joiners: 1 });
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
      Buffer.concat([lenPrefixed(Buffer.alloc(10)), lenPrefixed(Buffer.alloc(10))]),
    );
    evil.send(victim.peer, forged);
    // 4. a dealing from a key that takes no part → dropped without processing
    const outsider = frame(
      2,
      1,
      evilKey,
      bind(1, evilKey, evilSecret, "evil"),
      Buffer.concat([lenPrefixed(Buffer.alloc(10)), lenPrefixed(Buffer.alloc(10))]),
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
    expect(net.chain.decided.get(1)).toEqual({ ok: true, revealed: [] });
    expect(victim.driver?.shareFor(1)).not.toBeNull();
  });
});
