/**
 * sfc32 ("small fast counting" PRNG, 32-bit words): a seeded generator for simulations,
 * property tests and workload generators — the same seed always gives the same sequence.
 * Not for keys or anything an adversary may predict; never used by consensus code (whose
 * only randomness is the beacon).
 */
export class Sfc32 {
  private a = 0x9e3779b9;
  private b = 0x243f6a88;
  private c = 0xb7e15162;
  private d: number;

  /** Seeds with the low 32 bits of `seed` and discards the first 16 outputs. */
  constructor(seed: number) {
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.u32();
  }

  /** Uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  fraction(): number {
    return this.u32() / 0x1_0000_0000;
  }

  /** Uniform integer in [0, n) for 0 < n ≤ 2^32. */
  below(n: number): number {
    return Math.floor(this.fraction() * n);
  }

  /** Uniform integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }
}
