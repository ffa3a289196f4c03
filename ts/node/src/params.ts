/**
 * Protocol parameters of the execution layer, genesis defaults. Each carries the
 * spec section it comes from (spec 01 unless noted; `DESIGN.md` settles the
 * conflicts between documents). All amounts are integers (bigint): consensus
 * code never uses floating point.
 */

/** §4.3 / §17.8: cycles target per block (T_c). */
export const CYCLES_TARGET = 20_000_000n;
/** §4.3 / §17.8: cells target per block (T_b). */
export const CELLS_TARGET = 4_000_000n;
/** §4.2 / §17.8: EIP-1559 learning-rate denominator (α); also the clamp ±1/α. */
export const BASEFEE_ALPHA = 96n;
/** §4.2 / §17.8: basefee floor, for both meters. */
export const MIN_BASEFEE = 10_000n;

/** §17.9: execution lanes, in priority order. */
export const LANES = ["system", "timer", "runner", "user"] as const;
export type Lane = (typeof LANES)[number];

/** §17.9 (DESIGN.md "Lanes"): cycle budget of each lane; the sum is the 80M hard cap. */
export const LANE_CYCLE_BUDGET: Readonly<Record<Lane, bigint>> = {
  system: 40_000_000n,
  user: 22_222_222n,
  runner: 8_888_888n,
  timer: 8_888_890n,
};

/** §4.3: per-block cycle hard cap = sum of the lane budgets. */
export const BLOCK_CYCLES_CAP = 80_000_000n;

/** §17.2: intrinsic costs charged before execution. Cells marked `null` are data-dependent. */
export const INTRINSIC = {
  transfer: { cycles: 21_000n, cells: 0n },
  /** cells = size of the canonical source */
  deploy: { cycles: 100_000n, cells: null },
  /** cells = calldata size */
  actorMessage: { cycles: 21_000n, cells: null },
  /** cells = prompt size */
  llmRequest: { cycles: 10_000n, cells: null },
  timerSchedule: { cycles: 5_000n, cells: 64n },
} as const;
