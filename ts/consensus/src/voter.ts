/**
 * The Simplex voter: one validator's state machine (commonware's rules).
 *
 * In view v the elected leader proposes a block on a certified parent; every validator
 * that finds the proposal valid (parent notarized, every view between parent and v
 * nullified, block accepted by the application) votes `notarize`. 2f+1 notarize votes
 * form a notarization, 2f+1 `nullify` votes (sent on timeout) a nullification; either
 * moves everyone to view v+1. On seeing the notarization of v, a validator that has not
 * nullified v votes `finalize`; 2f+1 finalize votes form a finalization, which makes the
 * block and all its ancestors final (DESIGN.md departure 1).
 *
 * Safety invariants kept here: at most one notarize and one finalize vote per view, never
 * a finalize after a nullify, every vote written to the journal before it is sent (so a
 * restart cannot sign a conflicting vote). Time, network, randomness and persistence are
 * injected, so the same inputs always give the same outputs (deterministic simulation).
 */
import { electLeader } from "./leader.ts";
import { bitmapCount, bitmapHas, quorum, type SigningScheme } from "./scheme.ts";
import {
  type Certificate,
  type Equivocation,
  type FetchRequest,
  isReproposal,
  type Message,
  type Proposal,
  proposalKey,
  type Round,
  sameLink,
  sameProposal,
  type Vote,
  type VoteKind,
} from "./types.ts";

/** The chain the voter orders blocks for. */
export interface Application {
  /** digest of the genesis block (the parent of view 1's proposal) */
  readonly genesis: string;
  /**
   * Builds a block on `parent` for `round`, or null if it cannot right now. `beacon` is the
   * block's execution-readable randomness: the seed of the round before `round` (spec §3.4;
   * at view 1 the epoch's genesis seed). The block must commit to it. `parentCertificate` is
   * a certificate of the parent block this voter holds (its notarization, else its
   * finalization; null for genesis or when it holds none), e.g. to carry its signers.
   */
  propose(
    round: Round,
    parent: { view: number; digest: string; height: number },
    beacon: Uint8Array,
    parentCertificate?: Certificate | null,
  ): { digest: string; block: unknown } | null;
  /**
   * Digest of a block (to check blocks received from peers). It must commit to everything
   * {@link link} returns, so that a block matching a certified digest has the certified link.
   */
  digest(block: unknown): string;
  /** the chain link a block commits to (its view, height and parent), read from the block itself */
  link(block: unknown): { view: number; height: number; parentView: number; parent: string };
  /** validates a proposed block against its parent and `beacon` (as in {@link propose}); true to vote for it */
  verify(proposal: Proposal, block: unknown, beacon: Uint8Array): boolean;
  /** a block finalized earlier (for peers that fetch it), or null */
  finalizedBlock(digest: string): unknown | null;
  /**
   * Optional: a block above the finalized tip that this node proposed or verified, kept across
   * restarts, or null. A network restarted all at once loses the notarized-but-not-final blocks
   * the voters held in memory; every later proposal must extend the newest notarized one, so
   * without a copy on disk somewhere the chain could not grow again.
   */
  pendingBlock?(digest: string): unknown | null;
  /**
   * Optional: a certified block (its digest is in a notarization or finalization this voter
   * holds) that the voter obtained without verifying it — fetched from a peer. The
   * application may keep it to execute the blocks built on it (`verify` of a child needs its
   * parent's state); it must still check it when it executes it.
   */
  certified?(proposal: Proposal, block: unknown): void;
  /**
   * A block became final; called once per block, in chain order. `certificate` is its own
   * finalization certificate (null for an ancestor finalized by a descendant's). `participants`
   * are the validators (ascending indices) whose valid notarize or finalize vote for this block
   * this node saw before finalizing it — the input of downtime accounting — or null when the
   * node did not follow that view (it fetched the block).
   */
  finalized(
    proposal: Proposal,
    block: unknown,
    certificate: Certificate | null,
    participants?: readonly number[] | null,
  ): void;
}

export interface Network {
  broadcast(message: Message): void;
  send(to: number, message: Message): void;
}

export interface Clock {
  now(): number;
  /** runs `fn` at time `at` (ms); returns a cancel function */
  schedule(at: number, fn: () => void): () => void;
}

/**
 * Durable record of the votes this validator signed ({@link FileJournal} in production).
 * `append` must make the vote durable before it returns (the voter sends the vote only
 * afterwards) and throw if it cannot; `load` returns every vote appended and not pruned.
 */
export interface Journal {
  append(vote: Vote): void;
  load(): readonly Vote[];
  /**
   * Optional: records a certificate the voter formed or accepted (verified) for a view above
   * its finalized one. Certificates are public, verifiable data, so this need not be durable
   * before returning; a restarted voter replays them ({@link loadCertificates}) to recover the
   * seeds of the views it was in (leader election, beacons) and to re-announce the
   * certificates that moved it forward — without them a whole network restarted at once can
   * sit in different views with no certificate to bring the others along.
   */
  appendCertificate?(cert: Certificate): void;
  /** Optional: every certificate appended and not pruned. */
  loadCertificates?(): readonly Certificate[];
  /** optional: forget votes (and certificates) of earlier epochs and of views below `fromView` (called for finalized views only) */
  prune?(epoch: number, fromView: number): void;
}

/** The voter prunes its journal each time finality advances this many views. */
export const JOURNAL_PRUNE_INTERVAL = 1_024;

export interface VoterConfig {
  /**
   * this validator's index in the epoch's set; a negative index (or one outside the set) makes
   * the voter a **follower**: it verifies and forms certificates, fetches and finalizes blocks,
   * but never signs a vote
   */
  me: number;
  epoch: number;
  /**
   * Optional: the height of the epoch's last block. No block above it is proposed or voted
   * for; once a block at this height is notarized, leaders re-propose it (see
   * `isReproposal`) until it is final, and the epoch is over. Absent: unbounded.
   */
  lastHeight?: number;
  /** the epoch's seed used to elect view 1's leader */
  genesisSeed: Uint8Array;
  /** the last block this node finalized before (re)starting; genesis (view 0, height 0) on a fresh node */
  finalized: { view: number; digest: string; height: number };
  /** wait this long for the leader's proposal before nullifying (alto: 1 s) */
  leaderTimeoutMs: number;
  /** wait this long for a certificate before nullifying (alto: 2 s) */
  notarizationTimeoutMs: number;
  /** then rebroadcast the nullify vote and latest certificate this often */
  nullifyRetryMs: number;
  /** votes further than this many views ahead are ignored (bounds memory) */
  maxViewsAhead: number;
  /**
   * Pacing (optional, default 0 = unpaced): a leader proposes this long after it entered its
   * view, and every validator starts its leader / certification timeouts only after this
   * wait, so blocks come at most once per `minViewMs` while finality after a proposal still
   * takes only network hops. All validators must use the same value.
   */
  minViewMs?: number;
}

export const DEFAULT_TIMEOUTS = {
  leaderTimeoutMs: 1_000,
  notarizationTimeoutMs: 2_000,
  nullifyRetryMs: 10_000,
  maxViewsAhead: 64,
} as const;

export interface VoterMetrics {
  onView(view: number): void;
  onFinalized(view: number): void;
  /**
   * Optional: a certificate of `kind` for `view` was formed or accepted; `sinceViewMs` is the
   * time since this node entered that view (null if it never did: it jumped past it).
   */
  onCertificate?(kind: VoteKind, view: number, sinceViewMs: number | null): void;
}

interface ViewState {
  readonly view: number;
  proposal: Proposal | null;
  /** candidate proposals received for this view, by key, with their blocks */
  readonly pending: Map<string, { proposal: Proposal; block: unknown }>;
  readonly notarizes: Map<number, Vote>;
  readonly nullifies: Map<number, Vote>;
  readonly finalizes: Map<number, Vote>;
  notarization: Certificate | null;
  nullification: Certificate | null;
  finalization: Certificate | null;
  sentNotarize: boolean;
  sentNullify: boolean;
  sentFinalize: boolean;
  retrying: boolean;
  /** a paced proposal is waiting for its time */
  proposeArmed: boolean;
  /** clock time this node entered the view, or null if it never did */
  enteredAt: number | null;
  /**
   * notarize / finalize votes that arrived after their certificate, one per kind and signer
   * ({@link lateKey}; unverified until needed, for participation and late equivocation)
   */
  readonly late: Map<string, Vote>;
  timers: Array<() => void>;
}

/** The slot of a late vote in {@link ViewState.late}. */
function lateKey(kind: VoteKind, signer: number): string {
  return `${kind}:${signer}`;
}

function newView(view: number): ViewState {
  return {
    view,
    proposal: null,
    pending: new Map(),
    notarizes: new Map(),
    nullifies: new Map(),
    finalizes: new Map(),
    notarization: null,
    nullification: null,
    finalization: null,
    sentNotarize: false,
    sentNullify: false,
    sentFinalize: false,
    retrying: false,
    proposeArmed: false,
    enteredAt: null,
    late: new Map(),
    timers: [],
  };
}

export class Voter {
  private readonly cfg: VoterConfig;
  private readonly scheme: SigningScheme;
  private readonly app: Application;
  private readonly net: Network;
  private readonly clock: Clock;
  private readonly journal: Journal;
  private readonly onFault: (e: Equivocation) => void;
  private readonly metrics: VoterMetrics | null;
  private readonly q: number;

  private view = 0;
  private readonly views = new Map<number, ViewState>();
  /** blocks we verified or that are certified, by digest */
  private readonly blocks = new Map<string, { proposal: Proposal; block: unknown }>();
  private readonly seeds = new Map<number, Uint8Array>();
  private lastFinalizedView = 0;
  private lastFinalizedHeight = 0;
  private lastFinalized: string;
  /** finalizations waiting for missing ancestor blocks */
  private readonly pendingFinal = new Map<number, Certificate>();
  private readonly outstandingFetch = new Set<string>();
  private stopped = false;
  private journalPrunedAt = 0;
  private viewEnteredAt = 0;
  /** nesting depth of {@link tryPropose}, and whether a deferred proposal is scheduled (see there) */
  private proposing = 0;
  private proposeDeferred = false;
  /** certificates from the journal are being replayed (do not append them again) */
  private replaying = false;
  /** votes whose signature is known to be valid (ours, or checked) */
  private readonly checked = new WeakSet<Vote>();
  /** the epoch is over: never sign again, only answer peers (see {@link retire}) */
  private retired = false;
  /** when each peer was last sent our final certificate (retired voters; rate limit) */
  private readonly answeredAt = new Map<number, number>();
  /** the journal's earlier epochs were pruned (once the epoch finalized its first block) */
  private olderEpochsPruned = false;
  private readonly startHeight: number;

  constructor(deps: {
    config: VoterConfig;
    scheme: SigningScheme;
    app: Application;
    network: Network;
    clock: Clock;
    journal: Journal;
    onFault?: (e: Equivocation) => void;
    metrics?: VoterMetrics | null;
  }) {
    this.cfg = deps.config;
    this.scheme = deps.scheme;
    this.app = deps.app;
    this.net = deps.network;
    this.clock = deps.clock;
    this.journal = deps.journal;
    this.onFault = deps.onFault ?? (() => {});
    this.metrics = deps.metrics ?? null;
    this.q = quorum(deps.scheme.participants);
    this.lastFinalized = deps.config.finalized.digest;
    this.lastFinalizedView = deps.config.finalized.view;
    this.lastFinalizedHeight = deps.config.finalized.height;
    this.view = deps.config.finalized.view;
    this.startHeight = deps.config.finalized.height;
    this.seeds.set(0, deps.config.genesisSeed);
  }

  /** The epoch this voter runs. */
  get epoch(): number {
    return this.cfg.epoch;
  }

  /** True if this voter signs votes (a member of the epoch's set that is not retired). */
  get signing(): boolean {
    return !this.retired && !this.stopped && this.cfg.me >= 0 && this.cfg.me < this.scheme.participants;
  }

  /**
   * Ends the epoch for this voter: timers are cancelled and it never signs again, but it keeps
   * handling messages of its epoch — certificates, fetches (it serves the epoch's
   * certificates and blocks to peers still finishing the epoch), and votes (equivocation is
   * still detected against its set). A peer that sends it a vote or proposal of the epoch is
   * answered with the epoch's final certificate (at most once per leader timeout).
   */
  retire(): void {
    this.retired = true;
    for (const s of this.views.values()) {
      for (const cancel of s.timers) cancel();
      s.timers.length = 0;
    }
  }

  get currentView(): number {
    return this.view;
  }

  get finalizedView(): number {
    return this.lastFinalizedView;
  }

  get finalizedHeight(): number {
    return this.lastFinalizedHeight;
  }

  /**
   * The execution-readable beacon of a block proposed in `view`: the seed of round `view - 1`
   * (the epoch's genesis seed for view 1), or null while it is unknown. A round's own seed
   * never affects that round (spec §3.4).
   */
  beaconFor(view: number): Uint8Array | null {
    return this.seeds.get(view - 1) ?? null;
  }

  /** Starts (or restarts from the journal) at the first view we have not finished. */
  start(): void {
    let resume = this.lastFinalizedView + 1;
    for (const vote of this.journal.load()) {
      if (vote.round.epoch !== this.cfg.epoch || vote.signer !== this.cfg.me) continue;
      if (vote.round.view <= this.lastFinalizedView) continue;
      const s = this.state(vote.round.view);
      if (vote.kind === "notarize") {
        s.sentNotarize = true;
        s.proposal = vote.proposal;
      } else if (vote.kind === "nullify") s.sentNullify = true;
      else s.sentFinalize = true;
      this.checked.add(vote);
      this.record(vote);
      resume = Math.max(resume, vote.round.view);
    }
    // certificates seen before the restart (verified then): seeds, and the certificates that
    // moved us forward, re-announced to validators that may be behind; this may enter views
    this.replaying = true;
    try {
      for (const cert of this.journal.loadCertificates?.() ?? []) {
        if (cert.round.epoch !== this.cfg.epoch || cert.round.view < this.lastFinalizedView) continue;
        this.onCertificate(cert, false);
      }
    } finally {
      this.replaying = false;
    }
    this.enterView(resume);
    // re-announce what we signed before the restart (same signatures, no new commitments)
    for (const vote of this.journal.load()) {
      if (vote.round.epoch === this.cfg.epoch && vote.round.view >= resume - 1 && vote.signer === this.cfg.me)
        this.net.broadcast({ type: "vote", vote });
    }
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.views.values()) for (const cancel of s.timers) cancel();
  }

  private state(view: number): ViewState {
    let s = this.views.get(view);
    if (s === undefined) {
      s = newView(view);
      this.views.set(view, s);
    }
    return s;
  }

  private round(view: number): Round {
    return { epoch: this.cfg.epoch, view };
  }

  /** Leader of `view`, or null while the previous round's seed is unknown. */
  leaderOf(view: number): number | null {
    const seed = this.seeds.get(view - 1);
    return seed === undefined ? null : electLeader(view, seed, this.scheme.participants);
  }

  // ---------------------------------------------------------------- views and timers

  private enterView(view: number): void {
    if (view <= this.view || this.stopped) return;
    if (this.retired) {
      this.view = view;
      return;
    }
    const previous = this.views.get(this.view);
    if (previous !== undefined) {
      // the current view is certified: its timeouts must not fire any more
      for (const cancel of previous.timers) cancel();
      previous.timers.length = 0;
    }
    this.view = view;
    this.metrics?.onView(view);
    const s = this.state(view);
    const now = this.clock.now();
    this.viewEnteredAt = now;
    s.enteredAt = now;
    const pace = this.cfg.minViewMs ?? 0;
    s.timers.push(
      this.clock.schedule(now + pace + this.cfg.leaderTimeoutMs, () => {
        if (this.view === view && !s.sentNotarize) this.timeout(view);
      }),
      this.clock.schedule(now + pace + this.cfg.notarizationTimeoutMs, () => {
        if (this.view === view) this.timeout(view);
      }),
    );
    this.prune();
    this.tryPropose();
    for (const candidate of [...s.pending.values()]) this.tryNotarize(candidate.proposal, candidate.block);
  }

  private timeout(view: number): void {
    const s = this.state(view);
    this.sendNullify(view);
    if (s.retrying) return;
    s.retrying = true;
    // keep nudging: our nullify and the certificate that brought us here
    const retry = () => {
      if (this.view !== view || this.stopped) return;
      const mine = s.nullifies.get(this.cfg.me);
      if (mine !== undefined) this.net.broadcast({ type: "vote", vote: mine });
      const prev = this.views.get(view - 1);
      const cert = prev?.notarization ?? prev?.nullification ?? null;
      if (cert !== null) this.net.broadcast({ type: "certificate", certificate: cert });
      s.timers.push(this.clock.schedule(this.clock.now() + this.cfg.nullifyRetryMs, retry));
    };
    s.timers.push(this.clock.schedule(this.clock.now() + this.cfg.nullifyRetryMs, retry));
  }

  private prune(): void {
    const keepFrom = this.lastFinalizedView - 2;
    for (const view of this.views.keys()) {
      if (view < keepFrom) {
        const s = this.views.get(view) as ViewState;
        for (const cancel of s.timers) cancel();
        this.views.delete(view);
      }
    }
    for (const view of this.seeds.keys()) if (view < keepFrom && view !== 0) this.seeds.delete(view);
    for (const [digest, entry] of this.blocks) {
      if (entry.proposal.round.view < this.lastFinalizedView - 256) this.blocks.delete(digest);
    }
    if (
      this.journal.prune !== undefined &&
      !this.olderEpochsPruned &&
      !this.retired &&
      this.lastFinalizedHeight > this.startHeight
    ) {
      // the epoch finalized a block: votes of earlier epochs can never be signed again
      this.olderEpochsPruned = true;
      this.journal.prune(this.cfg.epoch, 0);
    }
    if (
      this.journal.prune !== undefined &&
      this.lastFinalizedView - this.journalPrunedAt >= JOURNAL_PRUNE_INTERVAL
    ) {
      this.journalPrunedAt = this.lastFinalizedView;
      this.journal.prune(this.cfg.epoch, keepFrom);
    }
  }

  // ---------------------------------------------------------------- proposing and voting

  /** Parent for a proposal in `view`: the latest notarized view with every later view nullified. */
  private parentFor(view: number): { view: number; digest: string; height: number } | "missing" {
    for (let w = view - 1; w >= this.lastFinalizedView; w--) {
      if (w === this.lastFinalizedView)
        return { view: w, digest: this.lastFinalized, height: this.lastFinalizedHeight };
      const s = this.views.get(w);
      const cert = s?.notarization?.proposal ?? s?.finalization?.proposal;
      if (cert) return { view: w, digest: cert.payload, height: cert.height };
      if (s?.nullification) continue;
      return "missing";
    }
    return "missing";
  }

  private tryPropose(): void {
    if (this.proposing < 4 && !this.proposeDeferred) {
      this.proposing++;
      try {
        this.proposeNow();
      } finally {
        this.proposing--;
      }
      return;
    }
    // A validator that certifies its own proposals alone (one validator, unpaced) would
    // propose view after view inside this call and never yield: from this depth on, every
    // proposal waits for the clock (once), so the event loop runs in between.
    if (this.proposeDeferred) return;
    this.proposeDeferred = true;
    this.clock.schedule(this.clock.now(), () => {
      this.proposeDeferred = false;
      if (!this.stopped) this.tryPropose();
    });
  }

  private proposeNow(): void {
    const view = this.view;
    if (!this.signing || this.leaderOf(view) !== this.cfg.me) return;
    const s = this.state(view);
    // pacing: not before minViewMs into the view; come back then (a real clock's timer may
    // fire a fraction early, so this re-arms until the time has really come)
    const due = this.viewEnteredAt + (this.cfg.minViewMs ?? 0);
    if (this.clock.now() < due) {
      if (!s.proposeArmed) {
        s.proposeArmed = true;
        s.timers.push(
          // at least 1 ms ahead, so an early-firing timer cannot spin
          this.clock.schedule(Math.max(due, this.clock.now() + 1), () => {
            s.proposeArmed = false;
            if (this.view === view) this.tryPropose();
          }),
        );
      }
      return;
    }
    if (s.sentNotarize || s.sentNullify) return;
    const parent = this.parentFor(view);
    if (parent === "missing") {
      this.fetchCertificates(this.lastFinalizedView + 1, view - 1);
      return;
    }
    if (
      parent.view > 0 &&
      parent.digest !== this.lastFinalized &&
      this.blockOf(parent.digest) === undefined
    ) {
      this.fetchBlock(parent.digest);
      return;
    }
    if (this.cfg.lastHeight !== undefined && parent.height >= this.cfg.lastHeight) {
      this.repropose(view, parent);
      return;
    }
    const beacon = this.beaconFor(view);
    if (beacon === null) return;
    const ps = parent.view === 0 ? undefined : this.views.get(parent.view);
    const parentCert = ps === undefined ? null : this.widened(ps, ps.notarization ?? ps.finalization);
    const built = this.app.propose(this.round(view), parent, beacon, parentCert);
    if (built === null) return;
    const proposal: Proposal = {
      round: this.round(view),
      height: parent.height + 1,
      parentView: parent.view,
      parent: parent.digest,
      payload: built.digest,
    };
    // an application bug (a block that does not commit to this link) must not reach the wire
    if (!this.matches(proposal, built.block)) return;
    this.blocks.set(built.digest, { proposal, block: built.block });
    s.proposal = proposal;
    s.sentNotarize = true;
    const vote = this.signVote("notarize", view, proposal);
    this.net.broadcast({ type: "propose", proposal, block: built.block, vote });
    this.record(vote);
  }

  /**
   * The epoch's last block is notarized but not final: propose it again in `view` (its
   * finalization in a later view finalizes it). Nothing to do once it is final.
   */
  private repropose(view: number, parent: { view: number; digest: string; height: number }): void {
    if (parent.digest === this.lastFinalized) return;
    const entry = this.blockOf(parent.digest);
    if (entry === undefined) {
      this.fetchBlock(parent.digest);
      return;
    }
    const s = this.state(view);
    const proposal: Proposal = {
      round: this.round(view),
      height: parent.height,
      parentView: parent.view,
      parent: parent.digest,
      payload: parent.digest,
    };
    s.proposal = proposal;
    s.sentNotarize = true;
    const vote = this.signVote("notarize", view, proposal);
    this.net.broadcast({ type: "propose", proposal, block: entry.block, vote });
    this.record(vote);
  }

  /** Votes notarize for `proposal` in the current view if it is valid. */
  private tryNotarize(proposal: Proposal, block: unknown): void {
    const view = proposal.round.view;
    if (view !== this.view || !this.signing) return;
    const s = this.state(view);
    if (s.sentNotarize || s.sentNullify) return;
    const re = isReproposal(proposal);
    const last = this.cfg.lastHeight;
    // above the epoch's last block nothing is proposed; at it, only the block itself again
    if (re ? last === undefined || proposal.height !== last : last !== undefined && proposal.height > last)
      return;
    const leader = this.leaderOf(view);
    if (leader === null || !sameProposal(s.notarizes.get(leader)?.proposal ?? null, proposal)) return;
    if (proposal.parentView >= view || proposal.parentView < this.lastFinalizedView) return;
    // the parent must be certified and every view in between nullified
    let parentHeight = this.lastFinalizedHeight;
    if (proposal.parentView === this.lastFinalizedView) {
      if (proposal.parent !== this.lastFinalized) return;
    } else {
      const ps = this.views.get(proposal.parentView);
      const cert = ps?.notarization ?? ps?.finalization ?? null;
      if (cert === null) {
        this.fetchCertificates(proposal.parentView, proposal.parentView);
        return;
      }
      if (cert.proposal?.payload !== proposal.parent) return;
      parentHeight = cert.proposal.height;
    }
    if (proposal.height !== (re ? parentHeight : parentHeight + 1)) return;
    for (let w = proposal.parentView + 1; w < view; w++) {
      if (this.views.get(w)?.nullification == null) {
        this.fetchCertificates(w, view - 1);
        return;
      }
    }
    // the application executes the block on its parent: a certified parent we never saw (we
    // were syncing or down when it was proposed) is fetched first; its arrival retries this
    if (proposal.parentView > this.lastFinalizedView && this.blockOf(proposal.parent) === undefined) {
      this.fetchBlock(proposal.parent);
      return;
    }
    const beacon = this.beaconFor(view);
    if (beacon === null) return;
    if (!this.matches(proposal, block)) return;
    // a re-proposal is the certified parent itself (the application executes it when final)
    if (!re) {
      if (!this.app.verify(proposal, block, beacon)) return;
      this.blocks.set(proposal.payload, { proposal, block });
    }
    s.proposal = proposal;
    s.sentNotarize = true;
    const vote = this.signVote("notarize", view, proposal);
    this.net.broadcast({ type: "vote", vote });
    this.record(vote);
  }

  private sendNullify(view: number): void {
    if (!this.signing) return;
    const s = this.state(view);
    // never nullify a view we voted to finalize (nullify + finalize is equivocation)
    if (s.sentNullify || s.sentFinalize) return;
    s.sentNullify = true;
    const vote = this.signVote("nullify", view, null);
    this.net.broadcast({ type: "vote", vote });
    this.record(vote);
  }

  private sendFinalize(view: number, proposal: Proposal): void {
    if (!this.signing) return;
    const s = this.state(view);
    if (s.sentFinalize || s.sentNullify) return;
    s.sentFinalize = true;
    const vote = this.signVote("finalize", view, proposal);
    this.net.broadcast({ type: "vote", vote });
    this.record(vote);
  }

  /** Signs and journals a vote (journal first: a crash after sending must not allow a conflicting vote). */
  private signVote(kind: VoteKind, view: number, proposal: Proposal | null): Vote {
    const round = this.round(view);
    const vote: Vote = {
      kind,
      round,
      proposal,
      signer: this.cfg.me,
      signature: this.scheme.sign(this.cfg.me, kind, round, proposal),
    };
    this.journal.append(vote);
    this.checked.add(vote);
    return vote;
  }

  // ---------------------------------------------------------------- incoming messages

  /** Handles a message from validator `from`. Invalid messages are dropped. */
  receive(from: number, message: Message): void {
    if (this.stopped) return;
    if (this.retired && (message.type === "vote" || message.type === "propose"))
      this.answerLate(from, message);
    switch (message.type) {
      case "propose":
        // votes travel only from their signer (the channel authenticates the sender)
        if (message.vote.signer === from) this.onPropose(message.proposal, message.block, message.vote);
        break;
      case "vote":
        if (message.vote.signer === from) {
          if (this.inWindow(message.vote.round)) this.onVote(message.vote);
          else this.onOldVote(message.vote);
        }
        break;
      case "certificate":
        this.onCertificate(message.certificate, true);
        break;
      case "fetch":
        this.onFetch(from, message.want);
        break;
      case "fetched":
        this.onFetched(message.blocks, message.certificates);
        break;
    }
  }

  /** A retired voter sends a peer still voting in its epoch the epoch's final certificate. */
  private answerLate(from: number, message: Message): void {
    const round =
      message.type === "vote"
        ? message.vote.round
        : message.type === "propose"
          ? message.proposal.round
          : null;
    if (round === null || round.epoch !== this.cfg.epoch) return;
    const last = this.views.get(this.lastFinalizedView)?.finalization;
    if (last == null) return;
    const now = this.clock.now();
    const at = this.answeredAt.get(from);
    if (at !== undefined && now - at < this.cfg.leaderTimeoutMs) return;
    this.answeredAt.set(from, now);
    this.net.send(from, { type: "certificate", certificate: last });
  }

  private inWindow(round: Round): boolean {
    return (
      round.epoch === this.cfg.epoch &&
      Number.isInteger(round.view) &&
      round.view > this.lastFinalizedView &&
      round.view <= this.view + this.cfg.maxViewsAhead
    );
  }

  private onPropose(proposal: Proposal, block: unknown, vote: Vote): void {
    if (!this.inWindow(proposal.round)) return;
    if (vote.kind !== "notarize" || !sameProposal(vote.proposal, proposal)) return;
    const leader = this.leaderOf(proposal.round.view);
    if (leader !== null && vote.signer !== leader) return;
    if (!this.matches(proposal, block) || !this.isValid(vote)) return;
    const s = this.state(proposal.round.view);
    if (s.pending.size < 4) s.pending.set(proposalKey(proposal), { proposal, block });
    this.record(vote);
    if (leader !== null) this.tryNotarize(proposal, block);
  }

  private onVote(vote: Vote): void {
    if (!this.inWindow(vote.round)) return;
    // once a certificate of this kind exists, a vote agreeing with it adds nothing: skip the
    // signature check (votes that disagree are still verified and reported as equivocation)
    const s = this.views.get(vote.round.view);
    const cert =
      vote.kind === "notarize"
        ? s?.notarization
        : vote.kind === "nullify"
          ? s?.nullification
          : s?.finalization;
    if (cert != null && sameProposal(cert.proposal, vote.proposal)) {
      if (vote.kind !== "nullify" && s !== undefined) {
        // the signer's earlier vote of this kind for another block is equivocation
        const prior = (vote.kind === "notarize" ? s.notarizes : s.finalizes).get(vote.signer);
        if (prior !== undefined && !sameProposal(prior.proposal, vote.proposal)) {
          if (this.isValid(prior) && this.isValid(vote))
            this.onFault({ signer: vote.signer, vote: prior, conflicting: vote });
          return;
        }
        // kept unverified, only to credit the signer's participation when the block finalizes
        this.keepLate(s, vote);
      }
      return;
    }
    if (cert != null && vote.kind !== "nullify" && s !== undefined && this.conflictsLate(s, cert, vote))
      return;
    // a scheme with batch verification checks votes when a quorum has gathered (spec:
    // "signatures are buffered and batch-verified at quorum"); otherwise check each now
    if (this.scheme.verifyVotes === undefined && !this.isValid(vote)) return;
    this.record(vote);
  }

  /**
   * A vote for a view at or below the finalized one that we still hold (the last few): it
   * cannot change anything any more, but a validator whose two conflicting votes arrive after
   * the others finalized the view is still caught — compared with the signer's other vote
   * (kept, or remembered here) and with the view's certificate of that kind.
   */
  private onOldVote(vote: Vote): void {
    if (vote.kind === "nullify" || vote.round.epoch !== this.cfg.epoch) return;
    const s = this.views.get(vote.round.view);
    if (s === undefined || vote.proposal === null) return;
    const booked = (vote.kind === "notarize" ? s.notarizes : s.finalizes).get(vote.signer);
    const prior = booked ?? s.late.get(lateKey(vote.kind, vote.signer));
    // a late vote that does not verify (junk in the signer's name) is no prior statement
    if (prior !== undefined && (prior === booked || this.isValid(prior))) {
      if (!sameProposal(prior.proposal, vote.proposal) && this.isValid(prior) && this.isValid(vote))
        this.onFault({ signer: vote.signer, vote: prior, conflicting: vote });
      return;
    }
    const cert = vote.kind === "notarize" ? s.notarization : s.finalization;
    if (
      cert !== null &&
      !sameProposal(cert.proposal, vote.proposal) &&
      bitmapHas(cert.signers, vote.signer)
    ) {
      if (this.isValid(vote)) this.onFault({ signer: vote.signer, vote, conflicting: cert });
      return;
    }
    this.keepLate(s, vote);
  }

  /**
   * Keeps a late vote, one per kind and signer: a second one for the same slot replaces the
   * held one only if that does not verify — so junk sent in a validator's name (or a flood of
   * it) cannot push out its real vote, and memory stays bounded by 2 × participants.
   */
  private keepLate(s: ViewState, vote: Vote): void {
    const key = lateKey(vote.kind, vote.signer);
    const held = s.late.get(key);
    if (held !== undefined && this.isValid(held)) return;
    s.late.set(key, vote);
  }

  /**
   * A vote against the view's certificate of its kind: equivocation if the signer also voted
   * for the certified block (a late vote we kept) or is in the certificate. Reports it and
   * returns true; false if neither holds (the vote is then handled as usual).
   */
  private conflictsLate(s: ViewState, cert: Certificate, vote: Vote): boolean {
    const agreeing = s.late.get(lateKey(vote.kind, vote.signer));
    if (agreeing !== undefined && this.isValid(agreeing)) {
      if (this.isValid(vote)) this.onFault({ signer: vote.signer, vote: agreeing, conflicting: vote });
      return true;
    }
    if (bitmapHas(cert.signers, vote.signer)) {
      if (this.isValid(vote)) this.onFault({ signer: vote.signer, vote, conflicting: cert });
      return true;
    }
    return false;
  }

  /** Verifies one vote (once). */
  private isValid(vote: Vote): boolean {
    if (this.checked.has(vote)) return true;
    if (!this.scheme.verifyVote(vote)) return false;
    this.checked.add(vote);
    return true;
  }

  /** Stores a valid vote, reports equivocation, and forms certificates at quorum. */
  private record(vote: Vote): void {
    const s = this.state(vote.round.view);
    const book = vote.kind === "notarize" ? s.notarizes : vote.kind === "nullify" ? s.nullifies : s.finalizes;
    const prior = book.get(vote.signer);
    if (prior !== undefined) {
      if (sameProposal(prior.proposal, vote.proposal)) return;
      // conflicting statements: evidence only if both signatures are valid; an invalid
      // (possibly not yet checked) prior vote is replaced by a valid new one
      const priorValid = this.isValid(prior);
      const voteValid = this.isValid(vote);
      if (priorValid && voteValid) this.onFault({ signer: vote.signer, vote: prior, conflicting: vote });
      if (priorValid || !voteValid) return;
    }
    book.set(vote.signer, vote);
    this.tryCertify(s, vote.kind, vote.proposal);
  }

  /** Forms a certificate of `kind` (for `proposal`) once a quorum of valid votes agrees. */
  private tryCertify(s: ViewState, kind: VoteKind, proposal: Proposal | null): void {
    const existing =
      kind === "notarize" ? s.notarization : kind === "nullify" ? s.nullification : s.finalization;
    if (existing !== null) return;
    const book = kind === "notarize" ? s.notarizes : kind === "nullify" ? s.nullifies : s.finalizes;
    const key = proposal === null ? null : proposalKey(proposal);
    const agreeing = () =>
      [...book.values()].filter((v) => key === null || proposalKey(v.proposal as Proposal) === key);
    let matching = agreeing();
    if (matching.length < this.q) return;
    const unchecked = matching.filter((v) => !this.checked.has(v));
    if (unchecked.length > 0) {
      const invalid = this.invalidOf(unchecked);
      for (const [i, v] of unchecked.entries()) {
        if (invalid.has(i)) book.delete(v.signer);
        else this.checked.add(v);
      }
      if (invalid.size > 0) {
        matching = agreeing();
        if (matching.length < this.q) return;
      }
    }
    this.onCertificate(this.scheme.assemble(matching), false);
  }

  private onCertificate(cert: Certificate, fromNetwork: boolean): void {
    const view = cert.round.view;
    if (cert.round.epoch !== this.cfg.epoch || view <= this.lastFinalizedView - 2) return;
    if (fromNetwork) {
      const s = this.views.get(view);
      const known =
        cert.kind === "notarize"
          ? s?.notarization
          : cert.kind === "nullify"
            ? s?.nullification
            : s?.finalization;
      if (known != null) return;
      if (!this.scheme.verifyCertificate(cert)) return;
    }
    const s = this.state(view);
    if (cert.kind === "notarize") {
      if (s.notarization !== null) return;
      s.notarization = cert;
    } else if (cert.kind === "nullify") {
      if (s.nullification !== null) return;
      s.nullification = cert;
    } else {
      if (s.finalization !== null) return;
      s.finalization = cert;
    }
    if (cert.seed !== null) this.seeds.set(view, cert.seed);
    if (!this.replaying && view >= this.lastFinalizedView) this.journal.appendCertificate?.(cert);
    this.metrics?.onCertificate?.(
      cert.kind,
      view,
      s.enteredAt === null ? null : this.clock.now() - s.enteredAt,
    );
    if (cert.proposal !== null) this.checkConflicts(s, cert);
    this.net.broadcast({ type: "certificate", certificate: cert });
    if (cert.kind === "notarize") {
      const candidate = s.pending.get(proposalKey(cert.proposal as Proposal));
      if (candidate !== undefined && !isReproposal(candidate.proposal)) {
        this.blocks.set(candidate.proposal.payload, candidate);
      }
      if (view > this.lastFinalizedView) this.sendFinalize(view, cert.proposal as Proposal);
    }
    if (cert.kind === "finalize") this.finalize(cert);
    if (view >= this.view) this.enterView(view + 1);
    else {
      // an older certificate may unblock the current view's proposal or vote
      this.tryPropose();
      const cur = this.views.get(this.view);
      if (cur !== undefined) for (const c of [...cur.pending.values()]) this.tryNotarize(c.proposal, c.block);
    }
  }

  /** Reports signers of `cert` whose vote we hold for a different proposal in the same view. */
  private checkConflicts(s: ViewState, cert: Certificate): void {
    const book = cert.kind === "notarize" ? s.notarizes : s.finalizes;
    for (const [signer, vote] of book) {
      if (
        bitmapHas(cert.signers, signer) &&
        !sameProposal(vote.proposal, cert.proposal) &&
        this.isValid(vote)
      ) {
        this.onFault({ signer, vote, conflicting: cert });
      }
    }
  }

  // ---------------------------------------------------------------- finality

  private finalize(cert: Certificate): void {
    if (cert.round.view <= this.lastFinalizedView) return;
    this.pendingFinal.set(cert.round.view, cert);
    this.deliverFinal();
  }

  /** Delivers pending finalizations whose ancestry back to the last final block is known. */
  private deliverFinal(): void {
    for (const view of [...this.pendingFinal.keys()].sort((a, b) => a - b)) {
      const cert = this.pendingFinal.get(view) as Certificate;
      if (view <= this.lastFinalizedView) {
        this.pendingFinal.delete(view);
        continue;
      }
      const chain: Array<{ proposal: Proposal; block: unknown }> = [];
      let digest = (cert.proposal as Proposal).payload;
      let complete = true;
      while (digest !== this.lastFinalized) {
        const entry = this.blockOf(digest);
        if (entry === undefined) {
          this.fetchBlock(digest);
          complete = false;
          break;
        }
        if (entry.proposal.round.view <= this.lastFinalizedView) {
          // cannot happen while 2f+1 are honest: a finalized block must extend the last final one
          complete = false;
          break;
        }
        chain.push(entry);
        digest = entry.proposal.parent;
      }
      if (!complete) return;
      this.pendingFinal.delete(view);
      chain.reverse();
      for (const entry of chain) {
        const isTip = entry.proposal.payload === (cert.proposal as Proposal).payload;
        this.app.finalized(
          entry.proposal,
          entry.block,
          isTip ? cert : null,
          this.participants(entry.proposal),
        );
        this.lastFinalized = entry.proposal.payload;
        // a re-proposed block is final in the (later) view of its certificate
        this.lastFinalizedView = isTip
          ? Math.max(view, entry.proposal.round.view)
          : entry.proposal.round.view;
        this.lastFinalizedHeight = entry.proposal.height;
      }
      this.metrics?.onFinalized(this.lastFinalizedView);
      this.prune();
    }
  }

  /**
   * Validators whose notarize or finalize vote for `proposal` we hold, after verifying the
   * ones not checked yet (one batch per kind); null if we did not follow that view.
   */
  private participants(proposal: Proposal): number[] | null {
    const s = this.views.get(proposal.round.view);
    if (s === undefined) return null;
    const signers = new Set<number>();
    for (const kind of ["notarize", "finalize"] as const)
      for (const v of this.heldVotes(s, kind, proposal)) signers.add(v.signer);
    return [...signers].sort((a, b) => a - b);
  }

  /**
   * `cert` re-assembled from every valid vote of its kind for its block that this node holds:
   * the quorum that formed it plus votes that arrived later. A proposal carries its parent's
   * certificate and the chain's downtime accounting credits its signers, so a validator whose
   * vote arrived after the quorum but before the proposal is not counted as absent (with
   * quorum < n the slowest voter would otherwise be missing from every certificate). `cert`
   * itself when no vote adds to it.
   */
  private widened(s: ViewState, cert: Certificate | null): Certificate | null {
    if (cert === null || cert.kind === "nullify" || cert.proposal === null) return cert;
    const held = this.heldVotes(s, cert.kind, cert.proposal);
    if (held.length <= bitmapCount(cert.signers, this.scheme.participants)) return cert;
    // only a superset: a certificate received from the network may hold signers whose votes
    // never reached us, and they must keep their credit
    const signers = new Set(held.map((v) => v.signer));
    for (let i = 0; i < this.scheme.participants; i++)
      if (bitmapHas(cert.signers, i) && !signers.has(i)) return cert;
    return this.scheme.assemble(held);
  }

  /**
   * The valid votes of `kind` for `proposal` this node holds (counted and late ones, one per
   * signer), verifying the unchecked ones in one batch.
   */
  private heldVotes(s: ViewState, kind: "notarize" | "finalize", proposal: Proposal): Vote[] {
    const key = proposalKey(proposal);
    const book = kind === "notarize" ? s.notarizes : s.finalizes;
    const bySigner = new Map<number, Vote>();
    for (const v of [...book.values(), ...s.late.values()])
      if (
        v.kind === kind &&
        v.proposal !== null &&
        proposalKey(v.proposal) === key &&
        !bySigner.has(v.signer)
      )
        bySigner.set(v.signer, v);
    const votes = [...bySigner.values()];
    const unchecked = votes.filter((v) => !this.checked.has(v));
    if (unchecked.length > 0) {
      const invalid = this.invalidOf(unchecked);
      for (const [i, v] of unchecked.entries()) if (!invalid.has(i)) this.checked.add(v);
    }
    return votes.filter((v) => this.checked.has(v));
  }

  /** Positions of the invalid votes among `votes` (one batch where the scheme has batch verification). */
  private invalidOf(votes: readonly Vote[]): Set<number> {
    return new Set(
      this.scheme.verifyVotes !== undefined
        ? this.scheme.verifyVotes(votes)
        : votes.flatMap((v, i) => (this.scheme.verifyVote(v) ? [] : [i])),
    );
  }

  // ---------------------------------------------------------------- fetching missing data

  private fetchBlock(digest: string): void {
    const key = `b:${digest}`;
    if (this.outstandingFetch.has(key)) return;
    this.outstandingFetch.add(key);
    this.net.broadcast({ type: "fetch", want: { kind: "block", digest } });
    this.clock.schedule(this.clock.now() + this.cfg.leaderTimeoutMs, () => this.outstandingFetch.delete(key));
  }

  private fetchCertificates(fromView: number, toView: number): void {
    if (toView < fromView) return;
    const key = `c:${fromView}:${toView}`;
    if (this.outstandingFetch.has(key)) return;
    this.outstandingFetch.add(key);
    this.net.broadcast({ type: "fetch", want: { kind: "certificates", fromView, toView } });
    this.clock.schedule(this.clock.now() + this.cfg.leaderTimeoutMs, () => this.outstandingFetch.delete(key));
  }

  private onFetch(from: number, want: FetchRequest): void {
    if (want.kind === "block") {
      const entry = this.blockOf(want.digest);
      const block = entry?.block ?? this.app.finalizedBlock(want.digest);
      if (block !== null && block !== undefined) {
        this.net.send(from, {
          type: "fetched",
          blocks: [{ proposal: this.proposalOf(block), block }],
          certificates: [],
        });
      }
      return;
    }
    const lo = Math.max(want.fromView, this.lastFinalizedView - 2);
    const hi = Math.min(want.toView, lo + 256);
    const certificates: Certificate[] = [];
    for (let w = lo; w <= hi; w++) {
      const s = this.views.get(w);
      for (const cert of [s?.finalization, s?.notarization, s?.nullification])
        if (cert) certificates.push(cert);
    }
    // a peer asking for views we no longer hold is behind: the latest finalization lets it jump ahead
    const last = this.views.get(this.lastFinalizedView);
    const latest = last?.finalization;
    if (latest && !certificates.includes(latest)) certificates.push(latest);
    // with its notarization: the seed that elects the next view's leader
    const seedCert = last?.notarization;
    if (latest && seedCert && !certificates.includes(seedCert)) certificates.push(seedCert);
    if (certificates.length > 0) this.net.send(from, { type: "fetched", blocks: [], certificates });
  }

  private onFetched(
    blocks: ReadonlyArray<{ proposal: Proposal; block: unknown }>,
    certificates: readonly Certificate[],
  ): void {
    for (const cert of certificates) this.onCertificate(cert, true);
    let added = false;
    for (const raw of blocks) {
      // the chain link is read from the block itself, never trusted from the sender
      const entry = { proposal: this.proposalOf(raw.block), block: raw.block };
      const digest = entry.proposal.payload;
      if (this.blocks.has(digest)) continue;
      // accept only blocks we know to be certified (their digest is in a certificate we hold)
      const s = this.views.get(entry.proposal.round.view);
      const certified =
        (s?.notarization?.proposal?.payload === digest &&
          sameProposal(s.notarization.proposal, entry.proposal)) ||
        (s?.finalization?.proposal?.payload === digest &&
          sameProposal(s.finalization.proposal, entry.proposal)) ||
        this.isAncestorOfPendingFinal(digest);
      if (!certified) continue;
      this.blocks.set(digest, entry);
      this.app.certified?.(entry.proposal, entry.block);
      added = true;
    }
    if (added) {
      this.deliverFinal();
      this.tryPropose();
      const cur = this.views.get(this.view);
      if (cur !== undefined) for (const c of [...cur.pending.values()]) this.tryNotarize(c.proposal, c.block);
    }
  }

  /**
   * A block by digest: one this voter holds, else the application's kept copy of one it
   * proposed or verified before a restart (its link is read from the block itself).
   */
  private blockOf(digest: string): { proposal: Proposal; block: unknown } | undefined {
    const held = this.blocks.get(digest);
    if (held !== undefined || this.app.pendingBlock === undefined) return held;
    const block = this.app.pendingBlock(digest);
    if (block === null || block === undefined || this.app.digest(block) !== digest) return undefined;
    const entry = { proposal: this.proposalOf(block), block };
    if (entry.proposal.round.view <= this.lastFinalizedView) return undefined;
    this.blocks.set(digest, entry);
    return entry;
  }

  /** The proposal a block commits to, derived from the block (digest and chain link). */
  private proposalOf(block: unknown): Proposal {
    const link = this.app.link(block);
    return {
      round: this.round(link.view),
      height: link.height,
      parentView: link.parentView,
      parent: link.parent,
      payload: this.app.digest(block),
    };
  }

  /** True if `block` is exactly what `proposal` describes. */
  private matches(proposal: Proposal, block: unknown): boolean {
    const own = this.proposalOf(block);
    // a re-proposal carries the block it repeats: same digest and height, its own view
    if (isReproposal(proposal)) return own.payload === proposal.payload && own.height === proposal.height;
    return sameLink(own, proposal);
  }

  /** True if `digest` is the parent link of a block on a pending finalized chain. */
  private isAncestorOfPendingFinal(digest: string): boolean {
    for (const cert of this.pendingFinal.values()) {
      let d = (cert.proposal as Proposal).payload;
      if (d === digest) return true;
      for (let i = 0; i < 100_000; i++) {
        const e = this.blocks.get(d);
        if (e === undefined) break;
        if (e.proposal.parent === digest) return true;
        d = e.proposal.parent;
      }
    }
    return false;
  }
}
