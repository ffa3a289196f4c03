/**
 * Application-level peer scores. Misbehaviour (a rejected gossip message, an oversize or
 * undecodable frame, consensus traffic from a non-validator) lowers a peer's score; the
 * score recovers linearly toward 0 over time. A peer whose score falls below the ban
 * threshold is banned for `banMs`: the node disconnects it and refuses its connections
 * until the ban expires, after which it starts again from 0.
 *
 * Time is injected (`now`) so tests can drive it; scores are plain numbers (this is
 * networking policy, not consensus state).
 */

/** Scoring policy. */
export interface ScoreConfig {
  /** a score at or below this bans the peer (negative) */
  banThreshold: number;
  /** how long a ban lasts */
  banMs: number;
  /** score regained per second, up to 0 */
  recoveryPerSecond: number;
}

/** Penalties applied by the node, per offence. */
export const PENALTY = {
  gossipReject: 20,
  oversizeFrame: 100,
  undecodable: 40,
  notValidator: 10,
  /** a block-sync response that failed verification (bad certificate, broken chain…) */
  invalidSync: 50,
} as const;

export const DEFAULT_SCORE_CONFIG: ScoreConfig = {
  banThreshold: -100,
  banMs: 60_000,
  recoveryPerSecond: 1,
};

interface Entry {
  score: number;
  at: number;
}

/** Scores and bans by peer id string. */
export class PeerScores {
  private readonly cfg: ScoreConfig;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();
  private readonly bans = new Map<string, number>();

  constructor(cfg: ScoreConfig, now: () => number = Date.now) {
    this.cfg = cfg;
    this.now = now;
  }

  /** Current score of `peer` (0 for unknown peers). */
  score(peer: string): number {
    const e = this.entries.get(peer);
    if (e === undefined) return 0;
    const t = this.now();
    const recovered = Math.min(0, e.score + ((t - e.at) / 1000) * this.cfg.recoveryPerSecond);
    e.score = recovered;
    e.at = t;
    if (recovered === 0) this.entries.delete(peer);
    return recovered;
  }

  /** Lowers `peer`'s score by `amount`; returns true if this bans it. */
  penalize(peer: string, amount: number): boolean {
    if (this.isBanned(peer)) return false;
    const score = this.score(peer) - amount;
    if (score <= this.cfg.banThreshold) {
      this.entries.delete(peer);
      this.bans.set(peer, this.now() + this.cfg.banMs);
      return true;
    }
    this.entries.set(peer, { score, at: this.now() });
    return false;
  }

  /** True while `peer` is banned. */
  isBanned(peer: string): boolean {
    const until = this.bans.get(peer);
    if (until === undefined) return false;
    if (this.now() >= until) {
      this.bans.delete(peer);
      return false;
    }
    return true;
  }

  /** Peers banned right now. */
  banned(): string[] {
    return [...this.bans.keys()].filter((p) => this.isBanned(p));
  }
}
