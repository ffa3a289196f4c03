import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  agreedLogs,
  BlsScheme,
  DkgCeremony,
  DkgError,
  DkgInfo,
  type DkgResult,
  type DkgTransport,
  loadNative,
  quorum,
  shareIndexOf,
} from "../src/index.ts";

const x = loadNative();
const CHAIN = 42n;

const sha = (s: string): Buffer => createHash("sha256").update(s).digest();
/** Secret keys named by a tag (deterministic). */
const sk = (tag: string): Buffer => x.blsKeygen(sha(`dkg-test|${tag}`));
const pk = (secret: Buffer): Buffer => x.blsPublicKey(secret);
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

type Kind = "public" | "dealing" | "ack";
interface Envelope {
  readonly kind: Kind;
  readonly from: Buffer;
  readonly to: Buffer;
  readonly bytes: Uint8Array;
}
/** Rewrites (or drops, with null) a message in flight. */
type Tamper = (m: Envelope) => Uint8Array | null;

interface RunOptions {
  readonly round: bigint;
  readonly dealers: readonly Buffer[];
  readonly players: readonly Buffer[];
  readonly previous?: { readonly output: Buffer; readonly shares: ReadonlyMap<string, Buffer> } | null;
  readonly tamper?: Tamper;
  /** dealers that never publish a log */
  readonly silent?: ReadonlySet<string>;
  /** deliver in a pseudo-random order seeded by this, duplicating every third message */
  readonly shuffle?: number;
  /**
   * restart this node (by secret key) after the messages are delivered, then deliver again;
   * `withoutShare`: it published its log before the crash and comes back without its previous
   * share (so it cannot deal again), fed its own dealing as kept by `keepOwnDealing` unless
   * `forgetOwn`
   */
  readonly restart?: {
    readonly secret: Buffer;
    readonly before?: () => void;
    readonly withoutShare?: boolean;
    readonly forgetOwn?: boolean;
  };
  /** rewrite the agreed log list before finalizing */
  readonly agree?: (logs: Buffer[]) => Uint8Array[];
}

interface Run {
  readonly results: Map<string, DkgResult>;
  readonly observed: DkgResult;
  readonly logs: Buffer[];
  readonly ceremonies: Map<string, DkgCeremony>;
  /** player hex → dealer hex → refusal code */
  readonly refusals: Map<string, Map<string, string>>;
}

/** Runs one ceremony over a synchronous in-memory network; every participant is online. */
function run(o: RunOptions): Run {
  const secrets = new Map<string, Buffer>();
  for (const s of [...o.dealers, ...o.players]) secrets.set(hex(pk(s)), s);
  const dealerKeys = o.dealers.map(pk);
  const playerKeys = o.players.map(pk);
  const queue: Envelope[] = [];
  const logs: Buffer[] = [];
  const ceremonies = new Map<string, DkgCeremony>();
  const refusals = new Map<string, Map<string, string>>();
  /** every public message and dealing delivered to each node (a restarted node gets them again) */
  const inboxes = new Map<string, Envelope[]>();
  /** each dealer-player's dealing to itself (`keepOwnDealing`) */
  const own = new Map<string, { pub: Uint8Array; priv: Uint8Array }>();
  const spawn = (id: string, secret: Buffer, withoutShare = false): DkgCeremony => {
    const me = pk(secret);
    const transport: DkgTransport = {
      broadcast: (m) => {
        for (const p of playerKeys)
          if (!p.equals(me)) queue.push({ kind: "public", from: me, to: p, bytes: m });
      },
      sendDealing: (p, m) => queue.push({ kind: "dealing", from: me, to: p, bytes: m }),
      sendAck: (d, m) => queue.push({ kind: "ack", from: me, to: d, bytes: m }),
      publishLog: (l) => {
        if (!o.silent?.has(id)) logs.push(Buffer.from(l));
      },
      keepOwnDealing: (pub, priv) => {
        own.set(id, { pub, priv });
        return true;
      },
    };
    const c = new DkgCeremony(
      {
        chainId: CHAIN,
        round: o.round,
        previousOutput: o.previous?.output ?? null,
        dealers: dealerKeys,
        players: playerKeys,
        secretKey: secret,
        previousShare: withoutShare ? null : (o.previous?.shares.get(id) ?? null),
        dealing: !withoutShare,
      },
      transport,
    );
    ceremonies.set(id, c);
    return c;
  };
  for (const [id, secret] of secrets) spawn(id, secret);
  for (const c of ceremonies.values()) c.start();
  let rng = o.shuffle ?? 0;
  let delivered = 0;
  const next = (): Envelope => {
    if (o.shuffle === undefined) return queue.shift() as Envelope;
    rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
    const [m] = queue.splice(rng % queue.length, 1) as [Envelope];
    if (++delivered % 3 === 0) queue.push(m);
    return m;
  };
  const drain = (): void => {
    while (queue.length > 0) {
      const m = next();
      const bytes = o.tamper ? o.tamper(m) : m.bytes;
      if (bytes === null) continue;
      const to = hex(m.to);
      const c = ceremonies.get(to) as DkgCeremony;
      if (m.kind !== "ack") inboxes.set(to, [...(inboxes.get(to) ?? []), { ...m, bytes }]);
      try {
        if (m.kind === "public") c.onPublicMessage(m.from, bytes);
        else if (m.kind === "dealing") c.onDealing(m.from, bytes);
        else c.onAck(m.from, bytes);
      } catch (e) {
        const per = refusals.get(to) ?? new Map<string, string>();
        per.set(hex(m.from), (e as DkgError).code);
        refusals.set(to, per);
      }
    }
  };
  drain();
  if (o.restart !== undefined) {
    // the node crashes (in-memory ceremony state lost) and comes back: it deals again and is
    // fed the messages it had received (from the transport's store)
    o.restart.before?.();
    const id = hex(pk(o.restart.secret));
    if (o.restart.withoutShare === true) (ceremonies.get(id) as DkgCeremony).closeDealing();
    const c = spawn(id, o.restart.secret, o.restart.withoutShare === true);
    const kept = own.get(id);
    if (o.restart.withoutShare === true && o.restart.forgetOwn !== true && kept !== undefined) {
      c.onPublicMessage(pk(o.restart.secret), kept.pub);
      c.onDealing(pk(o.restart.secret), kept.priv);
    }
    c.start();
    queue.push(...(inboxes.get(id) ?? []));
    drain();
  }
  for (const d of dealerKeys) {
    const c = ceremonies.get(hex(d)) as DkgCeremony;
    if (c.isDealer) c.closeDealing();
  }
  const agreed = o.agree ? o.agree(logs) : logs;
  const results = new Map<string, DkgResult>();
  for (const p of playerKeys) results.set(hex(p), (ceremonies.get(hex(p)) as DkgCeremony).finalize(agreed));
  const observer = new DkgCeremony(
    {
      chainId: CHAIN,
      round: o.round,
      previousOutput: o.previous?.output ?? null,
      dealers: dealerKeys,
      players: playerKeys,
      observerRandomness: randomBytes(32),
    },
    { broadcast() {}, sendDealing() {}, sendAck() {}, publishLog() {} },
  );
  const observed = observer.finalize(agreed);
  return { results, observed, logs, ceremonies, refusals };
}

/** Checks that every player and the observer agree, and returns the common result. */
function agreed(r: Run): DkgResult {
  const all = [...r.results.values()];
  const first = all[0] as DkgResult;
  for (const res of [...all, r.observed]) {
    expect(res.output.equals(first.output)).toBe(true);
    expect(res.group.equals(first.group)).toBe(true);
    expect(res.groupPublicKey.equals(first.groupPublicKey)).toBe(true);
  }
  expect(r.observed.share).toBeNull();
  return first;
}

const sharesOf = (r: Run): Map<string, Buffer> =>
  new Map([...r.results].map(([k, res]) => [k, res.share as Buffer]));

function subsets<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [head, ...rest] = items as [T, ...T[]];
  return [...subsets(rest, k - 1).map((s) => [head, ...s]), ...subsets(rest, k)];
}

/** Recovers the seed of Round(epoch, view) from the given shares and checks it against the group key. */
async function seedFrom(group: Buffer, groupPublicKey: Buffer, shares: readonly Buffer[], view: bigint) {
  const partials = shares.map((s) => x.blsSeedPartialSign(s, CHAIN, 1n, view));
  const seed = await new x.BlsGroup(group).recoverSeedAsync(CHAIN, 1n, view, partials);
  expect(x.blsSeedVerify(seed, CHAIN, groupPublicKey)).toBe(true);
  return seed;
}

const four = ["a", "b", "c", "d"].map(sk);
const fresh = run({ round: 1n, dealers: four, players: four });
const freshResult = agreed(fresh);

describe("a fresh DKG among 4 validators", () => {
  it("gives every player a share of one group key with threshold 3", () => {
    expect(freshResult.threshold).toBe(3);
    expect(freshResult.threshold).toBe(quorum(4));
    expect(freshResult.players.length).toBe(4);
    const indices = [...fresh.results.values()].map((r) => r.shareIndex).sort();
    expect(indices).toEqual([0, 1, 2, 3]);
    for (const [id, res] of fresh.results) {
      expect(res.share).not.toBeNull();
      expect(shareIndexOf(res.players, Buffer.from(id, "hex"))).toBe(res.shareIndex);
      // the share's public key is the group's partial public key at its index
      const g = new x.BlsGroup(res.group);
      const partial = x.blsPartialSign(res.share as Buffer, "seed", CHAIN, Buffer.from("m"));
      expect(g.verifyPartial("seed", CHAIN, Buffer.from("m"), partial)).toBe(true);
    }
    expect(freshResult.dealers.length).toBe(3); // the first `required` usable logs
    expect(freshResult.revealed).toEqual([]);
    expect(fresh.refusals.size).toBe(0);
  });

  it("recovers the same seed from any 3 of the 4 partials; 2 are not enough", async () => {
    const shares = freshResult.players.map((p) => fresh.results.get(hex(p))?.share as Buffer);
    const seeds = await Promise.all(
      subsets(shares, 3).map((s) => seedFrom(freshResult.group, freshResult.groupPublicKey, s, 7n)),
    );
    expect(seeds.length).toBe(4);
    for (const s of seeds) expect(s.equals(seeds[0] as Buffer)).toBe(true);
    const two = shares.slice(0, 2).map((s) => x.blsSeedPartialSign(s, CHAIN, 1n, 7n));
    await expect(
      new x.BlsGroup(freshResult.group).recoverSeedAsync(CHAIN, 1n, 7n, two),
    ).rejects.toMatchObject({
      code: "ERR_BLS_NOT_ENOUGH_PARTIALS",
    });
  });

  it("plugs into BlsScheme (validators in share-index order)", () => {
    const bySharing = freshResult.players.map((p) => four.find((s) => pk(s).equals(p)) as Buffer);
    const scheme = new BlsScheme({
      chainId: CHAIN,
      publicKeys: freshResult.players,
      group: freshResult.group,
      signer: {
        index: 2,
        secretKey: bySharing[2] as Buffer,
        share: fresh.results.get(hex(pk(bySharing[2] as Buffer)))?.share as Buffer,
      },
    });
    expect(scheme.groupPublicKey.equals(freshResult.groupPublicKey)).toBe(true);
  });

  it("does not depend on delivery order or duplicated messages", () => {
    for (const seed of [1, 2, 3]) {
      const r = run({ round: 1n, dealers: four, players: four, shuffle: seed });
      expect(r.refusals.size).toBe(0);
      expect(agreed(r).output.equals(freshResult.output)).toBe(true);
    }
  });

  it("survives a restart: the dealer deals the same again and players acknowledge again", () => {
    const a = four[0] as Buffer;
    let crashed = true;
    const r = run({
      round: 1n,
      dealers: four,
      players: four,
      // the acknowledgements to `a` are lost in its crash
      tamper: (m) => (crashed && m.kind === "ack" && m.to.equals(pk(a)) ? null : m.bytes),
      restart: {
        secret: a,
        before: () => {
          crashed = false;
        },
      },
    });
    expect(r.refusals.size).toBe(0);
    expect(new Set(r.logs.map(hex))).toEqual(new Set(fresh.logs.map(hex)));
    expect(agreed(r).output.equals(freshResult.output)).toBe(true);
    expect(r.results.get(hex(pk(a)))?.share?.equals(fresh.results.get(hex(pk(a)))?.share as Buffer)).toBe(
      true,
    );
  });

  it("is deterministic: the same ceremony gives byte-identical output and messages", () => {
    const again = run({ round: 1n, dealers: four, players: four });
    expect(agreed(again).output.equals(freshResult.output)).toBe(true);
    expect(again.logs.map(hex)).toEqual(fresh.logs.map(hex));
    // a new ceremony number deals fresh polynomials
    const next = run({ round: 2n, dealers: four, players: four });
    expect(agreed(next).groupPublicKey.equals(freshResult.groupPublicKey)).toBe(false);
  });
});

describe("resharing", () => {
  const previous = { output: freshResult.output, shares: sharesOf(fresh) };

  it("4 → 5 (one joins) keeps the group key; old shares are not partials of the new group", async () => {
    const five = [...four, sk("e")];
    const r = run({ round: 2n, dealers: four, players: five, previous });
    const res = agreed(r);
    expect(res.groupPublicKey.equals(freshResult.groupPublicKey)).toBe(true);
    expect(res.group.equals(freshResult.group)).toBe(false);
    expect(res.players.length).toBe(5);
    expect(res.threshold).toBe(quorum(5));
    const newShares = res.players.map((p) => r.results.get(hex(p))?.share as Buffer);
    const g = new x.BlsGroup(res.group);
    const msg = Buffer.from("partial");
    for (const s of newShares)
      expect(g.verifyPartial("seed", CHAIN, msg, x.blsPartialSign(s, "seed", CHAIN, msg))).toBe(true);
    for (const s of previous.shares.values())
      expect(g.verifyPartial("seed", CHAIN, msg, x.blsPartialSign(s, "seed", CHAIN, msg))).toBe(false);
    // the beacon value of a round is unchanged: same group secret, unique threshold signature
    const oldSeed = await seedFrom(
      freshResult.group,
      freshResult.groupPublicKey,
      [...previous.shares.values()].slice(0, 3),
      9n,
    );
    const newSeed = await seedFrom(res.group, res.groupPublicKey, newShares.slice(1, 5), 9n);
    expect(newSeed.equals(oldSeed)).toBe(true);
  });

  it("4 → 3 (one leaves, still dealing) and 4 → 3 without the leaver keep the group key", async () => {
    const three = four.slice(0, 3);
    for (const dealers of [four, three]) {
      const r = run({ round: 3n, dealers, players: three, previous });
      const res = agreed(r);
      expect(res.groupPublicKey.equals(freshResult.groupPublicKey)).toBe(true);
      expect(res.threshold).toBe(3);
      const shares = res.players.map((p) => r.results.get(hex(p))?.share as Buffer);
      await seedFrom(res.group, res.groupPublicKey, shares, 11n);
    }
  });

  it("a dealer without its previous share can still play (dealing: false); a non-player cannot", () => {
    const five = [...four, sk("e")];
    const cfg = {
      chainId: CHAIN,
      round: 5n,
      previousOutput: previous.output,
      dealers: four.map(pk),
      players: five.map(pk),
    };
    const sent: string[] = [];
    const transport: DkgTransport = {
      broadcast: () => sent.push("public"),
      sendDealing: () => sent.push("dealing"),
      sendAck: () => sent.push("ack"),
      publishLog: () => sent.push("log"),
    };
    const me = four[0] as Buffer;
    expect(() => new DkgCeremony({ ...cfg, secretKey: me }, transport)).toThrow(
      expect.objectContaining({ code: "ERR_DKG_MISSING_SHARE" }),
    );
    const c = new DkgCeremony({ ...cfg, secretKey: me, dealing: false }, transport);
    expect([c.isDealer, c.isPlayer]).toEqual([false, true]);
    c.start();
    expect(sent).toEqual([]);
    expect(() => c.closeDealing()).toThrow(expect.objectContaining({ code: "ERR_DKG_NOT_DEALING" }));
    // a dealer that is not a player of the new set and does not deal has no part
    expect(
      () =>
        new DkgCeremony({ ...cfg, players: five.slice(1).map(pk), secretKey: me, dealing: false }, transport),
    ).toThrow(expect.objectContaining({ code: "ERR_DKG_NOT_PARTICIPANT" }));
  });

  it("a dealer-player restarted without its previous share gets the same share from its kept own dealing", () => {
    // the first dealer in key order: its log is among the `required` ones finalization uses
    const a = [...four].sort((p, q) => Buffer.compare(pk(p), pk(q)))[0] as Buffer;
    const reference = run({ round: 6n, dealers: four, players: four, previous });
    const want = reference.results.get(hex(pk(a)))?.share as Buffer;
    const r = run({
      round: 6n,
      dealers: four,
      players: four,
      previous,
      restart: { secret: a, withoutShare: true },
    });
    expect(r.logs.map(hex).sort()).toEqual(reference.logs.map(hex).sort());
    expect(agreed(r).output.equals(agreed(reference).output)).toBe(true);
    expect(r.results.get(hex(pk(a)))?.share?.equals(want)).toBe(true);
    // without it, nobody sends it that dealing again: it cannot finalize
    expect(() =>
      run({
        round: 6n,
        dealers: four,
        players: four,
        previous,
        restart: { secret: a, withoutShare: true, forgetOwn: true },
      }),
    ).toThrow(DkgError);
  });

  it("a dealer-player whose own dealing cannot be kept refuses to deal: nothing sent, nothing acknowledged", () => {
    const cfg = {
      chainId: CHAIN,
      round: 7n,
      previousOutput: previous.output,
      dealers: four.map(pk),
      players: four.map(pk),
    };
    const me = four[0] as Buffer;
    const sent: string[] = [];
    let kept = 0;
    const transport: DkgTransport = {
      broadcast: () => sent.push("public"),
      sendDealing: () => sent.push("dealing"),
      sendAck: () => sent.push("ack"),
      publishLog: () => sent.push("log"),
      keepOwnDealing: () => {
        kept++;
        return false; // the writer failed
      },
    };
    const c = new DkgCeremony(
      { ...cfg, secretKey: me, previousShare: previous.shares.get(hex(pk(me))) },
      transport,
    );
    expect([c.isDealer, c.isPlayer, c.dealing]).toEqual([true, true, false]);
    expect(() => c.start()).toThrow(expect.objectContaining({ code: "ERR_DKG_OWN_DEALING_NOT_KEPT" }));
    expect(kept).toBe(1);
    expect(sent).toEqual([]);
    expect(c.dealing).toBe(false);
    expect(c.ackCount).toBe(0); // my own dealing was not acknowledged
    c.start(); // a no-op now: it sits this ceremony out
    expect([kept, sent.length]).toEqual([1, 0]);
    expect(() => c.closeDealing()).toThrow(expect.objectContaining({ code: "ERR_DKG_NOT_DEALING" }));
    // the same dealer with a working writer deals (and acknowledges its own dealing)
    const ok = new DkgCeremony(
      { ...cfg, secretKey: me, previousShare: previous.shares.get(hex(pk(me))) },
      { ...transport, keepOwnDealing: () => true },
    );
    ok.start();
    expect(ok.dealing).toBe(true);
    expect(ok.ackCount).toBe(1);
    expect(sent.filter((m) => m === "dealing").length).toBe(3);
  });

  it("needs at least the previous threshold of dealers", () => {
    expect(
      () =>
        new DkgInfo({
          chainId: CHAIN,
          round: 4n,
          previousOutput: previous.output,
          dealers: four.slice(0, 2).map(pk),
          players: four.map(pk),
        }),
    ).toThrow(expect.objectContaining({ code: "ERR_BLS_DKG" }));
    // a dealer that is not a previous player is refused too
    expect(
      () =>
        new DkgInfo({
          chainId: CHAIN,
          round: 4n,
          previousOutput: previous.output,
          dealers: [...four.slice(0, 3), sk("z")].map(pk),
          players: four.map(pk),
        }),
    ).toThrow(expect.objectContaining({ code: "ERR_BLS_DKG" }));
  });
});

describe("faulty dealers", () => {
  const bad = four[0] as Buffer;
  const badKey = pk(bad);
  const info = new DkgInfo({ chainId: CHAIN, round: 5n, dealers: four.map(pk), players: four.map(pk) });
  /** Replaces the bad dealer's dealing to each victim by its dealing to another player. */
  function swapDealings(victims: readonly Buffer[]): Tamper {
    const sent = new Map<string, Uint8Array>();
    return (m) => {
      if (m.kind !== "dealing" || !m.from.equals(badKey)) return m.bytes;
      sent.set(hex(m.to), m.bytes);
      if (!victims.some((v) => v.equals(m.to))) return m.bytes;
      // any other player's dealing: a valid scalar that does not match the commitment at m.to
      const other = [...sent.entries()].find(([k]) => k !== hex(m.to));
      return other ? other[1] : Uint8Array.from(m.bytes).reverse();
    };
  }
  // deliver dealings in a fixed order so a victim always has another dealing to be swapped with
  const victimOrder = (players: readonly Buffer[]) => players.filter((p) => !p.equals(badKey));

  it("a bad dealing to one player: refused, not acknowledged, revealed in the log; the ceremony completes", async () => {
    const victim = victimOrder(info.players)[1] as Buffer;
    const r = run({ round: 5n, dealers: four, players: four, tamper: swapDealings([victim]) });
    expect(r.refusals.get(hex(victim))?.get(hex(badKey))).toMatch(/^ERR_BLS_(DKG|MALFORMED)$/);
    const badLog = r.logs.find((l) => info.native.checkLog(l)?.dealer.equals(badKey)) as Buffer;
    const summary = info.native.checkLog(badLog);
    expect(summary?.reveals.map(hex)).toEqual([hex(victim)]);
    expect(summary?.acks.length).toBe(3);
    const res = agreed(r);
    // the victim still holds a working share (from the revealed dealing)
    const shares = res.players.map((p) => r.results.get(hex(p))?.share as Buffer);
    const g = new x.BlsGroup(res.group);
    const msg = Buffer.from("victim");
    const vShare = r.results.get(hex(victim))?.share as Buffer;
    expect(g.verifyPartial("seed", CHAIN, msg, x.blsPartialSign(vShare, "seed", CHAIN, msg))).toBe(true);
    await seedFrom(res.group, res.groupPublicKey, shares, 3n);
  });

  it("bad dealings to more players than tolerated: the log gives up and is excluded", async () => {
    const victims = victimOrder(info.players).slice(1);
    const r = run({ round: 5n, dealers: four, players: four, tamper: swapDealings(victims) });
    const a = agreedLogs(info, r.logs);
    expect(a.excluded.map((e) => e.reason)).toEqual(["too-many-reveals"]);
    expect(a.kept.map((k) => hex(k.dealer))).not.toContain(hex(badKey));
    const res = agreed(r);
    expect(res.dealers.map(hex)).not.toContain(hex(badKey));
    expect(res.dealers.length).toBe(3);
    const shares = res.players.map((p) => r.results.get(hex(p))?.share as Buffer);
    await seedFrom(res.group, res.groupPublicKey, shares.slice(0, 3), 4n);
  });

  it("a validator cut off from the network: its dealing gives up, its share is revealed", () => {
    const off = pk(four[3] as Buffer);
    const r = run({
      round: 5n,
      dealers: four,
      players: four,
      tamper: (m) => (m.from.equals(off) || m.to.equals(off) ? null : m.bytes),
    });
    const a = agreedLogs(info, r.logs);
    expect(a.excluded.map((e) => e.reason)).toEqual(["too-many-reveals"]);
    for (const k of a.kept) expect(k.reveals.map(hex)).toEqual([hex(off)]);
    const res = agreed(r);
    expect(res.revealed.map(hex)).toEqual([hex(off)]);
    expect(res.dealers.map(hex)).not.toContain(hex(off));
  });

  it("forged, garbage and duplicate logs are dropped; the first log of a dealer wins", () => {
    const r = run({
      round: 5n,
      dealers: four,
      players: four,
      // a log a dealer signed over another ceremony (round 1), garbage, the real logs, a repeat
      agree: (logs) => [fresh.logs[0] as Buffer, Buffer.from("garbage"), ...logs, logs[1] as Buffer],
    });
    const res = agreed(r);
    expect(res.excluded.map((e) => e.reason)).toEqual(["unauthenticated", "malformed", "duplicate-dealer"]);
    expect(res.dealers.length).toBe(3);
    // a log of another ceremony does not authenticate here
    const other = new DkgInfo({ chainId: CHAIN, round: 6n, dealers: four.map(pk), players: four.map(pk) });
    expect(agreedLogs(other, r.logs).excluded.every((e) => e.reason === "unauthenticated")).toBe(true);
  });

  it("fails with too few logs (the caller keeps the previous group)", () => {
    const silent = new Set(four.slice(0, 2).map((s) => hex(pk(s))));
    expect(() => run({ round: 5n, dealers: four, players: four, silent })).toThrow(
      expect.objectContaining({ code: "ERR_DKG_INSUFFICIENT_LOGS" }),
    );
  });
});

describe("bytes in, typed errors out", () => {
  const keys = four.map(pk);
  const mk = (secret: Buffer | null) =>
    new DkgCeremony(
      {
        chainId: CHAIN,
        round: 8n,
        dealers: keys,
        players: keys,
        secretKey: secret,
        observerRandomness: secret === null ? randomBytes(32) : null,
      },
      { broadcast() {}, sendDealing() {}, sendAck() {}, publishLog() {} },
    );
  const code = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(DkgError);
      return (e as DkgError).code;
    }
    throw new Error("did not throw");
  };

  it("garbage messages", () => {
    // a real dealer's messages to player b
    let pub: Uint8Array = Buffer.alloc(0);
    const dealings = new Map<string, Uint8Array>();
    const dealer = new DkgCeremony(
      { chainId: CHAIN, round: 8n, dealers: keys, players: keys, secretKey: four[0] },
      {
        broadcast: (m) => {
          pub = m;
        },
        sendDealing: (p, m) => dealings.set(hex(p), m),
        sendAck() {},
        publishLog() {},
      },
    );
    dealer.start();
    const b = keys[1] as Buffer;
    const priv = dealings.get(hex(b)) as Uint8Array;
    const dKey = keys[0] as Buffer;

    const p1 = mk(four[1] as Buffer);
    p1.onDealing(dKey, priv);
    expect(code(() => p1.onPublicMessage(dKey, Buffer.from("junk")))).toBe("ERR_BLS_MALFORMED");
    const p2 = mk(four[1] as Buffer);
    p2.onPublicMessage(dKey, pub);
    expect(code(() => p2.onDealing(dKey, Buffer.alloc(3)))).toBe("ERR_BLS_MALFORMED");
    const p3 = mk(four[1] as Buffer);
    expect(code(() => p3.onPublicMessage(pk(sk("stranger")), pub))).toBe("ERR_DKG_UNKNOWN_DEALER");
    p3.onPublicMessage(dKey, pub);
    p3.onPublicMessage(dKey, pub); // an identical repeat is harmless
    expect(code(() => p3.onPublicMessage(dKey, Buffer.concat([pub, Buffer.from([0])])))).toBe(
      "ERR_DKG_CONFLICT",
    );

    expect(code(() => dealer.onAck(b, Buffer.from("not an ack")))).toBe("ERR_BLS_MALFORMED");
    expect(code(() => dealer.onAck(pk(sk("stranger")), Buffer.alloc(8)))).toBe("ERR_DKG_UNKNOWN_PLAYER");
    const observer = mk(null);
    expect(code(() => observer.onDealing(dKey, priv))).toBe("ERR_DKG_NOT_PLAYER");
    expect(code(() => observer.onAck(b, Buffer.alloc(8)))).toBe("ERR_DKG_NOT_DEALING");
    expect(code(() => observer.closeDealing())).toBe("ERR_DKG_NOT_DEALING");
  });

  it("bad configurations and outputs", () => {
    expect(
      code(() => new DkgInfo({ chainId: CHAIN, round: 1n, dealers: [Buffer.alloc(48, 1)], players: keys })),
    ).toMatch(/^ERR_BLS_INVALID_(PUBLIC_KEY|LENGTH)$/);
    expect(code(() => new DkgInfo({ chainId: CHAIN, round: 1n, dealers: [], players: keys }))).toBe(
      "ERR_BLS_DKG",
    );
    expect(
      code(
        () =>
          new DkgInfo({ chainId: CHAIN, round: 1n, dealers: keys, players: [...keys, keys[0] as Buffer] }),
      ),
    ).toBe("ERR_BLS_DKG");
    expect(
      code(
        () =>
          new DkgInfo({
            chainId: CHAIN,
            round: 1n,
            previousOutput: Buffer.from("junk"),
            dealers: keys,
            players: keys,
          }),
      ),
    ).toBe("ERR_BLS_MALFORMED");
    expect(code(() => new DkgInfo({ chainId: CHAIN, round: -1n, dealers: keys, players: keys }))).toBe(
      "ERR_BLS_INVALID_ARGUMENT",
    );
    expect(code(() => mk(sk("stranger")))).toBe("ERR_DKG_NOT_PARTICIPANT");
    expect(() => x.blsDkgOutputInfo(Buffer.from("junk"))).toThrow(
      expect.objectContaining({ code: "ERR_BLS_MALFORMED" }),
    );
    expect(() => x.blsDkgDerivedRandomness(Buffer.alloc(5), CHAIN, 1n, "deal")).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^ERR_BLS_/) }),
    );
    expect(() =>
      new DkgInfo({ chainId: CHAIN, round: 1n, dealers: keys, players: keys }).native.checkLog(
        Buffer.from("junk"),
      ),
    ).toThrow(expect.objectContaining({ code: "ERR_BLS_MALFORMED" }));
    const info = new DkgInfo({ chainId: CHAIN, round: 1n, dealers: keys, players: keys });
    expect(info.required).toBe(3);
    expect(info.maxReveals).toBe(1);
    expect([...info.players].map(hex)).toEqual(keys.map(hex).sort());
  });

  it("derived randomness is bound to the key, chain, ceremony and purpose", () => {
    const a = x.blsDkgDerivedRandomness(four[0] as Buffer, CHAIN, 1n, "deal");
    expect(a.length).toBe(32);
    expect(x.blsDkgDerivedRandomness(four[0] as Buffer, CHAIN, 1n, "deal").equals(a)).toBe(true);
    for (const b of [
      x.blsDkgDerivedRandomness(four[1] as Buffer, CHAIN, 1n, "deal"),
      x.blsDkgDerivedRandomness(four[0] as Buffer, CHAIN + 1n, 1n, "deal"),
      x.blsDkgDerivedRandomness(four[0] as Buffer, CHAIN, 2n, "deal"),
      x.blsDkgDerivedRandomness(four[0] as Buffer, CHAIN, 1n, "finalize"),
    ])
      expect(b.equals(a)).toBe(false);
  });
});
