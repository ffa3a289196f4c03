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

/**
 * CBY base unit: 1 CBY = 10^9 base units ("nCBY"). Amounts and balances are u64 on the wire
 * (§2.5 encodes `amount` as an 8-byte big-endian u64), and the genesis supply of §8.1 is
 * 10^9 CBY: with 9 decimals the whole supply is 10^18 units, which fits a u64 (max ≈ 1.8·10^19)
 * with room for ~18× inflation; 18 decimals (Ethereum's wei) would overflow u64 at ~18 CBY.
 */
export const CBY_DECIMALS = 9;
/** Base units per CBY (see {@link CBY_DECIMALS}). */
export const UNITS_PER_CBY = 1_000_000_000n;
/** §8.1: genesis supply, in base units (1,000,000,000 CBY). */
export const GENESIS_SUPPLY = 1_000_000_000n * UNITS_PER_CBY;
/** Largest u64 (amounts, balances and fees are u64 in every consensus encoding). */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** §12.1: largest encoded transaction. */
export const MAX_TX_SIZE = 131_072;
/** §3.3 / §12.1: message depth cap of one transaction's cascade (the root call is depth 0). */
export const MAX_MESSAGE_DEPTH = 32;
/** §3.3 / §13: most messages one transaction (including all nested sends) may enqueue. */
export const FANOUT_PER_TX = 1024;
/** §3.3 / §13 (DESIGN.md): mailbox capacity in bytes; an enqueue beyond it reverts the sender. */
export const MAILBOX_CAPACITY_BYTES = 1_000_000;
/** §13: blocks a message id stays in the recipient's dedup set. */
export const DEDUP_WINDOW = 10_000n;
/** §12.1: cycles one actor may start handlers with in one block ("burstable": a handler that starts under the budget runs to its own limit). */
export const PER_ACTOR_PER_BLOCK_CYCLES = 1_000_000n;

/**
 * §2.2(a) "limits within maxima": the largest `cycles_limit` a transaction may declare. A
 * user transaction can never use more than the User lane plus the spill of the System and
 * Runner lanes (the Timer lane is consumed by timer fires, §17.9), so a larger limit could
 * never be included.
 */
export const MAX_TX_CYCLES_LIMIT = 22_222_222n + 40_000_000n + 8_888_888n;
/**
 * Cells have no lane budgets; by analogy with cycles (hard cap = 4 × T_c) the block cells cap
 * is 4 × T_b, and one transaction may declare at most that (decision, documented in
 * docs/execution.md).
 */
export const BLOCK_CELLS_CAP = 16_000_000n;
/** §2.2(a): the largest `cells_limit` a transaction may declare (see {@link BLOCK_CELLS_CAP}). */
export const MAX_TX_CELLS_LIMIT = BLOCK_CELLS_CAP;

/** §5.1a: cycles of the timer execution lane (the §17.9 Timer budget). */
export const LANE_TIMER_CYCLES = 8_888_890n;
/**
 * §5.1a: the separate cleanup lane for TTL-expired and unfunded timers. The spec names it
 * (TIMER_GC_CYCLES) without a number; each drop costs {@link TIMER_GC_CYCLES_PER_DROP}, so
 * one block drops at most 1,000 timers and a TTL-expiry storm cannot take timer-lane cycles.
 */
export const TIMER_GC_CYCLES = 5_000_000n;
/** Cleanup cost of removing one timer without firing it (charged to the GC lane only). */
export const TIMER_GC_CYCLES_PER_DROP = 5_000n;
/**
 * Default TTL of a timer: it gives up this many blocks after its (first or next) fire height
 * if it could not fire by then (timers that do not fit roll over, §5.1a). The spec leaves the
 * default open; one epoch (§13) is used.
 */
export const TIMER_DEFAULT_TTL_BLOCKS = 3_600n;

/**
 * §8.2: gross inflation by year since genesis, in basis points of the genesis supply
 * (bootstrap 8% / 6%, glidepath 4% / 3%, then the 2% floor).
 */
export const INFLATION_BPS_BY_YEAR: readonly bigint[] = [800n, 600n, 400n, 300n];
/** §8.2: steady-state floor from year 5 on. */
export const INFLATION_FLOOR_BPS = 200n;
/** §6.1 / §13: 1-second blocks, so a year is 365 × 86,400 blocks. */
export const BLOCKS_PER_YEAR = 31_536_000n;
