/**
 * One DKG / resharing ceremony's public configuration (docs/bls.md "DKG and resharing",
 * docs/consensus.md "Epoch transitions and resharing").
 */
import { loadNative } from "../bls-scheme.ts";

type Native = typeof import("@cowboy/native");
type NativeInfo = InstanceType<Native["BlsDkgInfo"]>;

/** Error thrown by the ceremony; `code` is `ERR_BLS_<CODE>` from the addon or `ERR_DKG_<CODE>`. */
export class DkgError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "DkgError";
    this.code = code;
  }
}

/** Runs an addon call, rethrowing its failure as a `DkgError` with the addon's code. */
export function native<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DkgError) throw e;
    const code = (e as { code?: unknown }).code;
    throw new DkgError(
      typeof code === "string" && code.startsWith("ERR_") ? code : "ERR_DKG_NATIVE",
      `${what}: ${(e as Error).message}`,
    );
  }
}

export interface DkgInfoConfig {
  /** chain id (the namespace of every DKG signature) */
  readonly chainId: bigint;
  /** ceremony number: strictly increasing over every attempt, failed ones included */
  readonly round: bigint;
  /** output of the last successful ceremony when resharing; null/absent for a fresh DKG */
  readonly previousOutput?: Uint8Array | null;
  /** dealers' 48-byte BLS keys (when resharing: players of `previousOutput`, at least its threshold) */
  readonly dealers: readonly Uint8Array[];
  /** players' 48-byte BLS keys (the new set) */
  readonly players: readonly Uint8Array[];
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/**
 * The configuration every participant and observer of one ceremony builds identically.
 * `dealers` and `players` are in canonical order (sorted by key bytes): a player's share
 * index in the output is its position in `players`.
 */
export class DkgInfo {
  readonly chainId: bigint;
  readonly round: bigint;
  readonly previousOutput: Buffer | null;
  readonly dealers: readonly Buffer[];
  readonly players: readonly Buffer[];
  /** usable dealer logs needed (max of the dealers' quorum and the previous threshold) */
  readonly required: number;
  /** threshold of the new sharing */
  readonly threshold: number;
  /** players a usable dealer log may leave unacknowledged */
  readonly maxReveals: number;
  /** the addon's configuration object */
  readonly native: NativeInfo;
  private readonly dealerPos: Map<string, number>;
  private readonly playerPos: Map<string, number>;

  /** Throws `DkgError` (`ERR_BLS_DKG`, `ERR_BLS_MALFORMED`, `ERR_BLS_INVALID_PUBLIC_KEY`, ...) for a bad configuration. */
  constructor(cfg: DkgInfoConfig) {
    const n = loadNative();
    this.chainId = cfg.chainId;
    this.round = cfg.round;
    this.previousOutput = cfg.previousOutput == null ? null : Buffer.from(cfg.previousOutput);
    this.native = native(
      "ceremony configuration",
      () =>
        new n.BlsDkgInfo(
          cfg.chainId,
          cfg.round,
          this.previousOutput,
          cfg.dealers.map((k) => Buffer.from(k)),
          cfg.players.map((k) => Buffer.from(k)),
        ),
    );
    this.dealers = this.native.dealers;
    this.players = this.native.players;
    this.required = this.native.required;
    this.threshold = this.native.threshold;
    this.maxReveals = this.native.maxReveals;
    this.dealerPos = new Map(this.dealers.map((k, i) => [hex(k), i]));
    this.playerPos = new Map(this.players.map((k, i) => [hex(k), i]));
  }

  /** Position of `key` among the dealers, or -1. */
  dealerIndex(key: Uint8Array): number {
    return this.dealerPos.get(hex(key)) ?? -1;
  }

  /** Position of `key` among the players (its share index), or -1. */
  playerIndex(key: Uint8Array): number {
    return this.playerPos.get(hex(key)) ?? -1;
  }
}
