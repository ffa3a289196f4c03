/**
 * {@link EpochVoters}: one {@link Voter} per epoch, switched at epoch boundaries.
 *
 * Epoch `e` is the heights `[e·E, (e+1)·E)` (`E` = `epochBlocks`). Its voter starts from the
 * epoch's genesis — the last block of epoch `e−1`, as view 0 — with views numbered from 1,
 * the epoch's own validator set and threshold group ({@link EpochPlan}), and the bound
 * `lastHeight = (e+1)·E − 1`: no block above it is proposed or voted for, and a notarized
 * last block is re-proposed until it is final. When the block at `lastHeight` is final (and
 * applied: the application's `finalized` returned), the voter of `e` is *retired* (it never
 * signs again but still serves its epoch's certificates and blocks to peers finishing the
 * epoch, and checks late votes for equivocation against its set) and the voter of `e+1`
 * starts. Only the previous epoch's voter is kept; older ones are stopped.
 *
 * Validators are addressed on the network by a stable *peer index* (a position in the
 * network's list); inside an epoch by their *consensus index* (position in the epoch's set).
 * Messages are routed by the epoch they carry (votes, proposals, certificates); fetches go to
 * every voter held. A message of a later epoch than the current one means this node is
 * behind: `onAhead` lets the node sync its finalized chain, after which it calls
 * {@link EpochVoters.advance}.
 *
 * `epochBlocks: null` keeps one voter (epoch 0, unbounded) for ever: plain devnets without a
 * group per epoch.
 */
import { createHash } from "node:crypto";
import type { SigningScheme } from "./scheme.ts";
import type { Certificate, Equivocation, Message, Proposal } from "./types.ts";
import {
  type Application,
  type Clock,
  type Journal,
  type Network,
  Voter,
  type VoterConfig,
  type VoterMetrics,
} from "./voter.ts";

/** How one epoch runs, as this node sees it. */
export interface EpochPlan {
  /** the epoch's signing scheme (its set and group; with this node's share when it signs) */
  readonly scheme: SigningScheme;
  /** this node's consensus index, or -1 to follow the epoch without voting */
  readonly me: number;
  /** peer index of each consensus index (-1: not reachable on this network) */
  readonly peers: readonly number[];
}

/** A block position: view (within its epoch), height and digest. */
export interface ChainPoint {
  readonly view: number;
  readonly height: number;
  readonly digest: string;
}

/**
 * The seed that elects view 1's leader of `epoch` (and is the beacon of its first block):
 * 32 zero bytes for epoch 0, else `sha256("cowboy-epoch-seed-v1" ‖ epoch ‖ genesis digest)`
 * over the digest of the epoch's genesis (the previous epoch's last block). Every node derives
 * the same value from the finalized chain. (The proposer of that block could grind it to
 * steer one leader election; the threshold seeds take over from view 2.)
 */
export function epochGenesisSeed(epoch: number, genesisDigest: string): Uint8Array {
  if (epoch === 0) return new Uint8Array(32);
  return createHash("sha256").update(`cowboy-epoch-seed-v1|${epoch}|${genesisDigest}`).digest();
}

/** The epoch a message belongs to, or null for fetches (not bound to an epoch). */
export function messageEpoch(message: Message): number | null {
  switch (message.type) {
    case "vote":
      return message.vote.round.epoch;
    case "propose":
      return message.proposal.round.epoch;
    case "certificate":
      return message.certificate.round.epoch;
    default:
      return null;
  }
}

/** Messages of the next epoch kept until its voter starts. */
const MAX_EARLY = 256;
/** …of which one peer may hold at most this many (a flooding peer cannot crowd out the rest). */
const MAX_EARLY_PER_PEER = 16;

export interface EpochVotersDeps {
  /** blocks per epoch, or null for a single unbounded epoch 0 */
  readonly epochBlocks: number | null;
  /** the plan of `epoch`, or null while it is not known (the node's chain is behind) */
  readonly plan: (epoch: number) => EpochPlan | null;
  readonly app: Application;
  /** the latest finalized (and applied) block */
  readonly tip: () => ChainPoint;
  /** digest of the finalized block at `height` (0 = genesis), or null if unknown */
  readonly digestAt: (height: number) => string | null;
  /** the network addressed by peer index */
  readonly network: Network;
  readonly clock: Clock;
  readonly journal: Journal;
  readonly timeouts: Pick<
    VoterConfig,
    "leaderTimeoutMs" | "notarizationTimeoutMs" | "nullifyRetryMs" | "maxViewsAhead" | "minViewMs"
  >;
  /** equivocation seen by a voter (indices are that epoch's: `vote.round.epoch`) */
  readonly onFault?: (e: Equivocation) => void;
  readonly metrics?: VoterMetrics | null;
  /** a voter of `epoch` started */
  readonly onEpoch?: (epoch: number, voter: Voter) => void;
  /** a message of a later epoch than the current one arrived (this node is behind) */
  readonly onAhead?: (epoch: number) => void;
}

interface Running {
  readonly voter: Voter;
  readonly plan: EpochPlan;
  /** peer index → consensus index */
  readonly index: Map<number, number>;
}

export class EpochVoters {
  private readonly deps: EpochVotersDeps;
  private current: Running | null = null;
  private previous: Running | null = null;
  private stopped = false;
  private switchQueued = false;
  /** messages of the next epoch that arrived before its voter started (replayed then) */
  private early: Array<{ from: number; message: Message }> = [];

  constructor(deps: EpochVotersDeps) {
    this.deps = deps;
  }

  /** The epoch whose first unfinalized block follows `height`. */
  epochAfter(height: number): number {
    const e = this.deps.epochBlocks;
    return e === null ? 0 : Math.floor((height + 1) / e);
  }

  /** The running voter (null before {@link advance} could start one). */
  get voter(): Voter | null {
    return this.current?.voter ?? null;
  }

  /** The epoch of the running voter, or null. */
  get epoch(): number | null {
    return this.current?.voter.epoch ?? null;
  }

  /**
   * The epoch of the retired voter still kept (it answers for its epoch's last blocks), or null.
   * Usually `epoch − 1`, but older after `advance()` jumped several epochs (catch-up): its
   * routing table (consensus index → peer index) is still in use.
   */
  get retiredEpoch(): number | null {
    return this.previous?.voter.epoch ?? null;
  }

  /** Starts the voter of the epoch after the finalized tip (same as {@link advance}). */
  start(): boolean {
    return this.advance();
  }

  /**
   * Makes the running voter the one of the epoch after the finalized tip: nothing if it already
   * is; else retires the current voter and starts that epoch's. False if no voter runs for that
   * epoch because its plan is not known yet (call again once the chain has caught up).
   */
  advance(): boolean {
    if (this.stopped) return false;
    const tip = this.deps.tip();
    const epoch = this.epochAfter(tip.height);
    if (this.current !== null && this.current.voter.epoch >= epoch) return true;
    const E = this.deps.epochBlocks;
    const firstHeight = E === null ? 0 : epoch * E;
    const genesisDigest = this.deps.digestAt(firstHeight - 1 < 0 ? 0 : firstHeight - 1);
    const plan = this.deps.plan(epoch);
    if (plan === null || genesisDigest === null) return false;
    // a fresh epoch starts at its genesis (view 0); a restart mid-epoch at the finalized tip
    const genesis: ChainPoint =
      tip.height === firstHeight - 1 ? { view: 0, height: tip.height, digest: tip.digest } : tip;
    const index = new Map<number, number>();
    plan.peers.forEach((peer, i) => {
      if (peer >= 0) index.set(peer, i);
    });
    const n = plan.scheme.participants;
    const net = this.deps.network;
    // consensus index ↔ peer index: members by the plan, everyone else as n + peer index
    const toPeer = (to: number): number => (to < n ? (plan.peers[to] ?? -1) : to - n);
    const network: Network = {
      broadcast: (m) => net.broadcast(m),
      send: (to, m) => {
        const peer = toPeer(to);
        if (peer >= 0) net.send(peer, m);
      },
    };
    const app = this.wrapApp();
    const voter = new Voter({
      config: {
        me: plan.me,
        epoch,
        genesisSeed: epochGenesisSeed(epoch, genesisDigest),
        finalized: { view: genesis.view, digest: genesis.digest, height: genesis.height },
        ...(E === null ? {} : { lastHeight: (epoch + 1) * E - 1 }),
        ...this.deps.timeouts,
      },
      scheme: plan.scheme,
      app,
      network,
      clock: this.deps.clock,
      journal: this.deps.journal,
      ...(this.deps.onFault === undefined ? {} : { onFault: this.deps.onFault }),
      metrics: this.deps.metrics ?? null,
    });
    if (this.current !== null) {
      this.previous?.voter.stop();
      this.current.voter.retire();
      this.previous = this.current;
    }
    this.current = { voter, plan, index };
    voter.start();
    this.deps.onEpoch?.(epoch, voter);
    // what peers that switched a moment earlier sent for this epoch (the first proposal…)
    const early = this.early;
    this.early = [];
    for (const { from, message } of early) if (messageEpoch(message) === epoch) this.receive(from, message);
    return true;
  }

  /** The application as the voters see it: a final epoch-ending block switches the epoch. */
  private wrapApp(): Application {
    const app = this.deps.app;
    const wrapped: Application = {
      genesis: app.genesis,
      propose: (round, parent, beacon, parentCertificate) =>
        app.propose(round, parent, beacon, parentCertificate),
      digest: (block) => app.digest(block),
      link: (block) => app.link(block),
      verify: (proposal, block, beacon) => app.verify(proposal, block, beacon),
      finalizedBlock: (digest) => app.finalizedBlock(digest),
      finalized: (
        proposal: Proposal,
        block: unknown,
        certificate: Certificate | null,
        participants?: readonly number[] | null,
      ) => {
        app.finalized(proposal, block, certificate, participants);
        this.queueSwitch();
      },
    };
    if (app.pendingBlock !== undefined) {
      const pending = app.pendingBlock.bind(app);
      wrapped.pendingBlock = (digest) => pending(digest);
    }
    if (app.certified !== undefined) {
      const certified = app.certified.bind(app);
      wrapped.certified = (proposal, block) => certified(proposal, block);
    }
    return wrapped;
  }

  /**
   * Rebuilds the current epoch's voter from a fresh plan (e.g. this node obtained its share of
   * the epoch's group after the epoch started, so it can vote instead of following). The old
   * voter is stopped; the new one starts from the finalized tip with the journal (a follower
   * signed nothing, so no vote can conflict). False if no voter runs afterwards.
   */
  replan(): boolean {
    if (this.stopped || this.current === null) return this.advance();
    this.current.voter.stop();
    this.current = null;
    return this.advance();
  }

  /** The plan the current voter runs with, or null. */
  get plan(): EpochPlan | null {
    return this.current?.plan ?? null;
  }

  /** After a finalized block: switch epochs once the tip is an epoch's last block (outside the voter's call). */
  private queueSwitch(): void {
    if (this.switchQueued || this.deps.epochBlocks === null) return;
    const cur = this.current;
    if (cur === null || this.epochAfter(this.deps.tip().height) <= cur.voter.epoch) return;
    this.switchQueued = true;
    this.deps.clock.schedule(this.deps.clock.now(), () => {
      this.switchQueued = false;
      this.advance();
    });
  }

  /** Routes a message from peer `from` to the voter(s) of its epoch. */
  receive(from: number, message: Message): void {
    if (this.stopped) return;
    const epoch = messageEpoch(message);
    for (const r of [this.current, this.previous]) {
      if (r === null || (epoch !== null && r.voter.epoch !== epoch)) continue;
      const n = r.plan.scheme.participants;
      r.voter.receive(r.index.get(from) ?? n + from, message);
    }
    const cur = this.current;
    if (epoch !== null && (cur === null || epoch > cur.voter.epoch)) {
      // peers may switch a moment before us: keep the next epoch's first messages for its voter
      if (
        cur !== null &&
        epoch === cur.voter.epoch + 1 &&
        this.early.length < MAX_EARLY &&
        this.early.filter((m) => m.from === from).length < MAX_EARLY_PER_PEER
      )
        this.early.push({ from, message });
      this.deps.onAhead?.(epoch);
    }
  }

  /** Stops every voter. */
  stop(): void {
    this.stopped = true;
    this.current?.voter.stop();
    this.previous?.voter.stop();
  }
}

/**
 * The epochs whose validator sets a node may still route by peer index (their members' peer
 * indices must not be recycled): the epochs around the voter it runs (`running`, null: none
 * yet), the retired voter's epoch (`retired`, which may be several epochs older after a
 * catch-up jump), and the epochs around its finalized tip's epoch (`tipEpoch`, the epoch after
 * the finalized tip). Ascending, distinct, non-negative.
 */
export function epochsInUse(tipEpoch: number, running: number | null, retired: number | null): number[] {
  const r = running ?? tipEpoch;
  const all = [r - 1, r, r + 1, tipEpoch - 1, tipEpoch, tipEpoch + 1];
  if (retired !== null) all.push(retired);
  return [...new Set(all.filter((e) => e >= 0))].sort((a, b) => a - b);
}
