/**
 * A token bucket per client (connection or remote address): `burst` requests at once,
 * refilled at `perSecond`. Time comes from an injected clock so tests are exact.
 * (The RPC server is not consensus code; wall-clock time is fine here.)
 */
export interface RateLimitOptions {
  perSecond: number;
  burst: number;
  /** most clients tracked; the least recently seen are forgotten beyond it */
  maxClients: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly options: RateLimitOptions;
  private readonly now: () => number;

  constructor(options: Partial<RateLimitOptions> = {}, now: () => number = () => performance.now()) {
    this.options = { perSecond: 500, burst: 1000, maxClients: 10_000, ...options };
    this.now = now;
  }

  /** Takes `cost` tokens from `client`'s bucket; false when it does not have them. */
  take(client: string, cost = 1): boolean {
    const t = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined) {
      bucket = { tokens: this.options.burst, at: t };
      if (this.buckets.size >= this.options.maxClients) {
        const oldest = this.buckets.keys().next().value;
        if (oldest !== undefined) this.buckets.delete(oldest);
      }
    } else {
      this.buckets.delete(client); // re-inserted below: Map order = least recently seen first
      bucket.tokens = Math.min(
        this.options.burst,
        bucket.tokens + ((t - bucket.at) / 1000) * this.options.perSecond,
      );
      bucket.at = t;
    }
    this.buckets.set(client, bucket);
    if (bucket.tokens < cost) return false;
    bucket.tokens -= cost;
    return true;
  }

  forget(client: string): void {
    this.buckets.delete(client);
  }
}
