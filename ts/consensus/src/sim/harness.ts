/**
 * The deterministic simulation harness: N validators running real {@link Voter}s over a
 * simulated network (seeded latency, drops, partitions) and a simulated clock, with
 * crashes and restarts (journal and finalized chain survive, like a disk), and optional
 * Byzantine leaders that equivocate. Everything derives from one seed.
 */
import { createHash } from "node:crypto";
import { Sfc32 } from "@cowboy/collections";
import { blsDevnetKeys, blsDevnetSchemes } from "../bls-scheme.ts";
import { EpochVoters } from "../epochs.ts";
import type { SigningScheme } from "../scheme.ts";
import type { BlockReader } from "../sync.ts";
import type { Certificate, Equivocation, Message, Proposal, Round, Vote } from "../types.ts";
import { type Application, DEFAULT_TIMEOUTS, type Journal, type Network, Voter } from "../voter.ts";
import { SimClock } from "./clock.ts";
import { MacScheme } from "./mac-scheme.ts";

/** A block of the simulated chain. */
export interface SimBlock {
  readonly view: number;
  readonly height: number;
  readonly parentView: number;
  readonly parent: string;
  readonly proposer: number;
  readonly payload: string;
  /** hex of the parent beacon the block was built with (the seed of the round before its view) */
  readonly beacon: string;
}

export function blockDigest(block: SimBlock): string {
  return createHash("sha256")
    .update(
      `${block.view}|${block.height}|${block.parentView}|${block.parent}|${block.proposer}|${block.payload}|${block.beacon}`,
    )
    .digest("hex");
}

export const GENESIS_DIGEST = "0".repeat(64);

/** Reads digests and chain links of {@link SimBlock}s (for block sync over simulated chains). */
export const simBlockReader: BlockReader = {
  digest: (block) => blockDigest(block as SimBlock),
  link: (block) => {
    const b = block as SimBlock;
    return { view: b.view, height: b.height, parentView: b.parentView, parent: b.parent };
  },
};

/**
 * Compares the finalized chains of all validators (block digests by height); returns a
 * description of the first height where two of them differ, or null when every chain is a
 * prefix of every longer one.
 */
export function findSafetyViolation(chains: ReadonlyArray<readonly string[]>): string | null {
  const height = Math.max(0, ...chains.map((c) => c.length));
  for (let h = 0; h < height; h++) {
    let seen: { digest: string; validator: number } | null = null;
    for (const [i, chain] of chains.entries()) {
      const digest = chain[h];
      if (digest === undefined) continue;
      if (seen === null) seen = { digest, validator: i };
      else if (seen.digest !== digest) {
        return `validators ${seen.validator} and ${i} finalized ${seen.digest} and ${digest} at height ${h}`;
      }
    }
  }
  return null;
}

export interface SimOptions {
  seed: number;
  validators: number;
  /** one-way latency range in ms */
  latency: [number, number];
  /** probability that a message is lost */
  dropRate: number;
  /** validators that equivocate whenever they lead */
  equivocators: readonly number[];
  /** validators whose vote messages arrive with corrupted signatures (their own votes never count) */
  forgers: readonly number[];
  /** validators that propose invalid blocks whenever they lead */
  invalidProposers: readonly number[];
  timeouts: { leaderTimeoutMs: number; notarizationTimeoutMs: number; nullifyRetryMs: number };
  /** `mac` (fast HMAC test scheme) or `bls` (the production BLS12-381 scheme through the addon) */
  scheme: "mac" | "bls";
  /** pacing: minimum time per view (0 = unpaced), see `VoterConfig.minViewMs` */
  minViewMs: number;
  /**
   * Epochs (`mac` scheme only): blocks per epoch, each epoch run by its own voter
   * ({@link EpochVoters}); null (default) runs one voter for ever.
   */
  epochBlocks: number | null;
  /** the validators (simulation indices, in consensus order) of each epoch; default all of them */
  epochMembers: ((epoch: number) => readonly number[]) | null;
  /** optional adversarial network: a message for which this returns false is lost */
  deliver: ((from: number, to: number, message: Message) => boolean) | null;
}

const DEFAULTS: SimOptions = {
  seed: 1,
  validators: 4,
  latency: [10, 50],
  dropRate: 0,
  equivocators: [],
  forgers: [],
  invalidProposers: [],
  timeouts: { leaderTimeoutMs: 1_000, notarizationTimeoutMs: 2_000, nullifyRetryMs: 3_000 },
  scheme: "mac",
  minViewMs: 0,
  epochBlocks: null,
  epochMembers: null,
  deliver: null,
};

/** What survives a crash: the vote journal and the finalized chain. */
class Disk implements Journal {
  readonly votes: Vote[] = [];
  readonly certificates: Certificate[] = [];
  /** blocks proposed or verified and not yet final, by digest */
  readonly pending = new Map<string, SimBlock>();
  readonly finalized: Array<{
    proposal: Proposal;
    block: SimBlock;
    certificate: Certificate | null;
    participants: readonly number[] | null;
  }> = [];
  append(vote: Vote): void {
    this.votes.push(vote);
    this.signed.push(vote);
  }
  load(): readonly Vote[] {
    return this.votes;
  }
  appendCertificate(cert: Certificate): void {
    this.certificates.push(cert);
  }
  loadCertificates(): readonly Certificate[] {
    return this.certificates;
  }
  /** every vote ever appended (pruning does not forget them: tests inspect them) */
  readonly signed: Vote[] = [];
}

/** A {@link Disk} whose journal the voters prune (epoch runs: old epochs are dropped). */
class PrunedDisk extends Disk {
  prune(epoch: number, fromView: number): void {
    const kept = (r: { round: { epoch: number; view: number } }) =>
      r.round.epoch > epoch || (r.round.epoch === epoch && r.round.view >= fromView);
    const votes = this.votes.filter(kept);
    const certificates = this.certificates.filter(kept);
    this.votes.length = 0;
    this.votes.push(...votes);
    this.certificates.length = 0;
    this.certificates.push(...certificates);
  }
}

class SimApp implements Application {
  readonly genesis = GENESIS_DIGEST;
  private readonly me: number;
  private readonly disk: Disk;
  private readonly invalid: boolean;

  constructor(me: number, disk: Disk, invalid: boolean) {
    this.me = me;
    this.disk = disk;
    this.invalid = invalid;
  }

  propose(round: Round, parent: { view: number; digest: string; height: number }, beacon: Uint8Array) {
    const block: SimBlock = {
      view: round.view,
      height: parent.height + 1,
      parentView: parent.view,
      parent: parent.digest,
      proposer: this.me,
      payload: this.invalid ? "INVALID" : `txs@${round.view}`,
      beacon: Buffer.from(beacon).toString("hex"),
    };
    const digest = blockDigest(block);
    this.disk.pending.set(digest, block);
    return { digest, block };
  }
  digest(block: unknown): string {
    return blockDigest(block as SimBlock);
  }
  link(block: unknown) {
    const b = block as SimBlock;
    return { view: b.view, height: b.height, parentView: b.parentView, parent: b.parent };
  }
  verify(_proposal: Proposal, block: unknown, beacon: Uint8Array): boolean {
    const b = block as SimBlock;
    const ok = b.payload !== "INVALID" && b.beacon === Buffer.from(beacon).toString("hex");
    if (ok) this.disk.pending.set(blockDigest(b), b);
    return ok;
  }
  finalizedBlock(digest: string): unknown | null {
    return this.disk.finalized.find((f) => f.proposal.payload === digest)?.block ?? null;
  }
  pendingBlock(digest: string): unknown | null {
    return this.disk.pending.get(digest) ?? null;
  }
  finalized(
    proposal: Proposal,
    block: unknown,
    certificate: Certificate | null,
    participants?: readonly number[] | null,
  ): void {
    // already final here (a catch-up copied it first): like a node's store, apply each height once
    if (proposal.height <= this.disk.finalized.length) return;
    if (proposal.height !== this.disk.finalized.length + 1)
      throw new Error(`finalized height ${proposal.height} after ${this.disk.finalized.length}`);
    this.disk.finalized.push({
      proposal,
      block: block as SimBlock,
      certificate,
      participants: participants ?? null,
    });
    for (const [d, b] of this.disk.pending) if (b.height <= proposal.height) this.disk.pending.delete(d);
  }
}

export class Simulation {
  readonly options: SimOptions;
  readonly clock = new SimClock();
  /** the signing scheme of each validator (one shared MacScheme, or one BLS scheme per validator) */
  readonly schemes: readonly SigningScheme[];
  readonly faults: Equivocation[] = [];
  private readonly random: Sfc32;
  private readonly disks: Disk[];
  private readonly voters: Array<Voter | null>;
  /** epoch runs: each validator's voters */
  private readonly epochVoters: Array<EpochVoters | null>;
  /** epoch runs: the MAC scheme of each epoch (shared key table, like {@link schemes}) */
  private readonly epochSchemes = new Map<number, MacScheme>();
  /** partition group of each validator; messages only flow within a group */
  private groups: number[];
  delivered = 0;
  dropped = 0;

  constructor(options: Partial<SimOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    const n = this.options.validators;
    this.random = new Sfc32(this.options.seed);
    if (this.options.scheme === "bls") {
      const seed = createHash("sha256").update(`cowboy-sim-bls|${this.options.seed}`).digest();
      this.schemes = blsDevnetSchemes(blsDevnetKeys(n, 0x5157n, seed));
    } else {
      const mac = new MacScheme(n, `sim-${this.options.seed}`);
      this.schemes = Array.from({ length: n }, () => mac);
    }
    const epochs = this.options.epochBlocks !== null;
    if (epochs && this.options.scheme !== "mac") throw new RangeError("epoch runs use the mac scheme");
    this.disks = Array.from({ length: n }, () => (epochs ? new PrunedDisk() : new Disk()));
    this.voters = Array.from({ length: n }, () => null);
    this.epochVoters = Array.from({ length: n }, () => null);
    this.groups = Array.from({ length: n }, () => 0);
  }

  /** Starts every validator not in `down`. */
  start(down: readonly number[] = []): void {
    for (let i = 0; i < this.options.validators; i++) if (!down.includes(i)) this.restart(i);
  }

  isUp(i: number): boolean {
    return this.voters[i] !== null || this.epochVoters[i] !== null;
  }

  crash(i: number): void {
    this.voters[i]?.stop();
    this.voters[i] = null;
    this.epochVoters[i]?.stop();
    this.epochVoters[i] = null;
  }

  /** Epoch runs: the members (simulation indices, consensus order) of `epoch`. */
  membersOf(epoch: number): readonly number[] {
    const f = this.options.epochMembers;
    return f === null ? Array.from({ length: this.options.validators }, (_, i) => i) : f(epoch);
  }

  /** Epoch runs: the signing scheme of `epoch` (one MAC key table per epoch and member list). */
  schemeOf(epoch: number): MacScheme {
    let s = this.epochSchemes.get(epoch);
    if (s === undefined) {
      const members = this.membersOf(epoch);
      s = new MacScheme(members.length, `sim-${this.options.seed}|epoch-${epoch}|${members.join(",")}`);
      this.epochSchemes.set(epoch, s);
    }
    return s;
  }

  /** Epoch runs: the epoch validator `i` is voting (or following) in, or null when down. */
  epochOf(i: number): number | null {
    return this.epochVoters[i]?.epoch ?? null;
  }

  /** The votes validator `i`'s journal holds now (after pruning). */
  journalOf(i: number): readonly Vote[] {
    return (this.disks[i] as Disk).votes;
  }

  /** Every vote validator `i` ever signed (its journal before pruning). */
  signedBy(i: number): readonly Vote[] {
    return (this.disks[i] as Disk).signed;
  }

  private restartEpochs(i: number, disk: Disk, app: SimApp): void {
    const E = this.options.epochBlocks;
    const tip = () => {
      const last = disk.finalized[disk.finalized.length - 1];
      return last === undefined
        ? { view: 0, digest: GENESIS_DIGEST, height: 0 }
        : { view: last.proposal.round.view, digest: last.proposal.payload, height: last.proposal.height };
    };
    const ev = new EpochVoters({
      epochBlocks: E,
      plan: (epoch) => {
        const members = this.membersOf(epoch);
        return { scheme: this.schemeOf(epoch), me: members.indexOf(i), peers: members };
      },
      app,
      tip,
      digestAt: (h) => (h === 0 ? GENESIS_DIGEST : (disk.finalized[h - 1]?.proposal.payload ?? null)),
      network: this.networkFor(i, app),
      clock: this.clock,
      journal: disk,
      timeouts: {
        ...this.options.timeouts,
        maxViewsAhead: DEFAULT_TIMEOUTS.maxViewsAhead,
        minViewMs: this.options.minViewMs,
      },
      onFault: (e) => {
        if (
          !this.faults.some(
            (f) =>
              f.signer === e.signer &&
              f.vote.round.view === e.vote.round.view &&
              f.vote.round.epoch === e.vote.round.epoch,
          )
        )
          this.faults.push(e);
      },
      // a validator that missed the end of an epoch catches up from a peer's finalized chain
      onAhead: () => this.catchUp(i),
    });
    this.epochVoters[i] = ev;
    ev.start();
  }

  /**
   * Epoch runs: validator `i` saw a later epoch than its own. Like block sync, it copies the
   * finalized blocks it lacks from an up peer that is further along (the simulated network is
   * the transport; the blocks are the peer's finalized chain), then advances its voters.
   */
  private catchUp(i: number): void {
    const disk = this.disks[i] as Disk;
    const ev = this.epochVoters[i];
    if (ev === null || ev === undefined) return;
    let best: Disk | null = null;
    for (const [j, d] of this.disks.entries()) {
      if (j === i || !this.isUp(j) || this.groups[j] !== this.groups[i]) continue;
      if (
        d.finalized.length > disk.finalized.length &&
        (best === null || d.finalized.length > best.finalized.length)
      )
        best = d;
    }
    if (best === null) return;
    for (let h = disk.finalized.length; h < best.finalized.length; h++) {
      const f = best.finalized[h] as Disk["finalized"][number];
      disk.finalized.push({ ...f, participants: null });
    }
    ev.advance();
  }

  /** (Re)starts validator i from its disk. */
  restart(i: number): void {
    this.crash(i);
    const disk = this.disks[i] as Disk;
    const last = disk.finalized[disk.finalized.length - 1];
    const app = new SimApp(i, disk, this.options.invalidProposers.includes(i));
    if (this.options.epochBlocks !== null) {
      this.restartEpochs(i, disk, app);
      return;
    }
    const network = this.networkFor(i, app);
    const voter = new Voter({
      config: {
        me: i,
        epoch: 0,
        genesisSeed: new Uint8Array(32),
        finalized:
          last === undefined
            ? { view: 0, digest: GENESIS_DIGEST, height: 0 }
            : { view: last.proposal.round.view, digest: last.proposal.payload, height: last.proposal.height },
        ...this.options.timeouts,
        maxViewsAhead: DEFAULT_TIMEOUTS.maxViewsAhead,
        minViewMs: this.options.minViewMs,
      },
      scheme: this.schemes[i] as SigningScheme,
      app,
      network,
      clock: this.clock,
      journal: disk,
      onFault: (e) => {
        if (!this.faults.some((f) => f.signer === e.signer && f.vote.round.view === e.vote.round.view))
          this.faults.push(e);
      },
    });
    this.voters[i] = voter;
    voter.start();
  }

  /** Splits the validators into groups that cannot talk to each other; [] heals. */
  partition(groups: ReadonlyArray<readonly number[]>): void {
    this.groups = this.groups.map(() => 0);
    groups.forEach((g, gi) => {
      for (const i of g) this.groups[i] = gi + 1;
    });
  }

  run(ms: number): void {
    this.clock.run(this.clock.now() + ms);
  }

  finalizedOf(i: number): readonly string[] {
    return (this.disks[i] as Disk).finalized.map((f) => f.proposal.payload);
  }

  /** The blocks validator `i` finalized, in order, with their proposals. */
  finalizedBlocksOf(i: number): ReadonlyArray<{
    proposal: Proposal;
    block: SimBlock;
    certificate: Certificate | null;
    participants: readonly number[] | null;
  }> {
    return (this.disks[i] as Disk).finalized;
  }

  finalizedViewOf(i: number): number {
    const f = (this.disks[i] as Disk).finalized;
    return f.length === 0 ? 0 : (f[f.length - 1] as { proposal: Proposal }).proposal.round.view;
  }

  /** Throws if two validators finalized different blocks at the same height. */
  checkSafety(): void {
    const chains = this.disks.map((d) => d.finalized.map((f) => f.proposal.payload));
    const longest = chains.reduce((a, b) => (b.length > a.length ? b : a), []);
    chains.forEach((chain, i) => {
      chain.forEach((digest, h) => {
        if (longest[h] !== digest)
          throw new Error(
            `safety violation: validator ${i} finalized ${digest} at height ${h}, another ${longest[h]}`,
          );
      });
    });
  }

  private send(from: number, to: number, message: Message): void {
    if (!this.isUp(from)) return;
    if (
      this.groups[from] !== this.groups[to] ||
      this.random.fraction() < this.options.dropRate ||
      (this.options.deliver !== null && !this.options.deliver(from, to, message))
    ) {
      this.dropped++;
      return;
    }
    const [lo, hi] = this.options.latency;
    const at = this.clock.now() + this.random.between(lo, hi);
    this.clock.schedule(at, () => {
      const voter = this.voters[to] ?? this.epochVoters[to];
      if (!voter) return;
      this.delivered++;
      voter.receive(from, message);
    });
  }

  private networkFor(me: number, app: SimApp): Network {
    const n = this.options.validators;
    const honest: Network = {
      broadcast: (message) => {
        for (let to = 0; to < n; to++) if (to !== me) this.send(me, to, message);
      },
      send: (to, message) => this.send(me, to, message),
    };
    if (this.options.forgers.includes(me)) {
      const corrupt = (message: Message): Message => {
        if (message.type !== "vote") return message;
        const signature = Uint8Array.from(message.vote.signature);
        signature[signature.length - 1] = (signature[signature.length - 1] as number) ^ 0x01;
        return { type: "vote", vote: { ...message.vote, signature } };
      };
      return {
        broadcast: (message) => honest.broadcast(corrupt(message)),
        send: (to, message) => honest.send(to, corrupt(message)),
      };
    }
    if (!this.options.equivocators.includes(me)) return honest;
    // A Byzantine leader: a second, conflicting proposal (with its signed vote) for odd peers.
    return {
      send: honest.send,
      broadcast: (message) => {
        if (message.type !== "propose") return honest.broadcast(message);
        const twin: SimBlock = {
          ...(message.block as SimBlock),
          payload: `twin@${message.proposal.round.view}`,
        };
        const proposal: Proposal = { ...message.proposal, payload: app.digest(twin) };
        // the leader's consensus index and scheme (of its epoch in epoch runs)
        const signer = message.vote.signer;
        const scheme =
          this.options.epochBlocks === null
            ? (this.schemes[me] as SigningScheme)
            : this.schemeOf(proposal.round.epoch);
        const vote: Vote = {
          kind: "notarize",
          round: proposal.round,
          proposal,
          signer,
          signature: scheme.sign(signer, "notarize", proposal.round, proposal),
        };
        for (let to = 0; to < n; to++) {
          if (to === me) continue;
          this.send(me, to, to % 2 === 0 ? message : { type: "propose", proposal, block: twin, vote });
        }
      },
    };
  }
}
