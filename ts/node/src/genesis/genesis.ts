/**
 * The genesis state (issue 7): prefunded accounts, the §9 system-actor records, and the
 * governance parameters of §13.1 under their 0x09 Governance storage keys (stored in the
 * qmdb governance namespace 0x08, values canonical CBOR maps of integers). Parameters are
 * read back from the state by the STF at every block, so a governance change takes effect
 * without a code change.
 */
import { CborMap, type CborValue, decodeCbor, encodeCbor } from "@cowboy/sdk";
import {
  BASEFEE_ALPHA,
  CELLS_TARGET,
  CYCLES_TARGET,
  DEDUP_WINDOW,
  FANOUT_PER_TX,
  LANE_CYCLE_BUDGET,
  LANE_TIMER_CYCLES,
  MAILBOX_CAPACITY_BYTES,
  MAX_MESSAGE_DEPTH,
  MIN_BASEFEE,
  PER_ACTOR_PER_BLOCK_CYCLES,
  TIMER_DEFAULT_TTL_BLOCKS,
  TIMER_GC_CYCLES,
  TIMER_GC_CYCLES_PER_DROP,
  U64_MAX,
  UNITS_PER_CBY,
} from "../params.ts";
import type { KvStore } from "../state/kv.ts";
import {
  accountKey,
  decodeAccountRecord as decodeAccount,
  emptyAccount,
  encodeAccountRecord as encodeAccount,
  governanceKey,
} from "../stf/state-keys.ts";
import { MAX_CELLS_PER_FIRE, MAX_CYCLES_PER_FIRE, MAX_TIMERS_PER_ACTOR } from "../timers/queue.ts";

/** §9: the system-actor registry written at genesis (address low byte → name, status). */
export const SYSTEM_ACTORS: readonly { id: number; name: string; status: string }[] = [
  { id: 0x01, name: "Runner Registry", status: "code-deployed" },
  { id: 0x02, name: "Job Dispatcher", status: "code-deployed" },
  { id: 0x03, name: "Result Verifier", status: "code-deployed" },
  { id: 0x04, name: "Secrets Manager", status: "code-deployed" },
  { id: 0x05, name: "TEE Verifier", status: "code-deployed" },
  { id: 0x06, name: "Dual Basefee / Token Registry", status: "code-deployed" },
  { id: 0x07, name: "Entitlement Registry", status: "code-deployed" },
  { id: 0x08, name: "Treasury", status: "code-deployed" },
  { id: 0x09, name: "Governance", status: "code-deployed" },
  { id: 0x0a, name: "Storage Manager", status: "code-deployed" },
  { id: 0x0b, name: "Relay Registry", status: "code-deployed" },
  { id: 0x0c, name: "Session Actor", status: "code-deployed" },
  { id: 0x0d, name: "Stream Key Manager", status: "code-deployed" },
  { id: 0x0e, name: "Route Registry", status: "code-deployed" },
  { id: 0x0f, name: "Gateway Registry", status: "code-reserved" },
  { id: 0x10, name: "Receipt Registry", status: "code-reserved" },
  { id: 0x11, name: "Container Registry", status: "spec-allocated" },
  { id: 0x12, name: "PaymentGate", status: "spec-allocated" },
  { id: 0x13, name: "BankActor", status: "spec-allocated" },
  { id: 0x1d, name: "Event Subscription", status: "virtual" },
];

/** The 20-byte address of system actor `id` (0x0000…00id). */
export function systemAddress(id: number): Uint8Array {
  const a = new Uint8Array(20);
  a[18] = (id >> 8) & 0xff;
  a[19] = id & 0xff;
  return a;
}

/** Basefee config (CIP-3, `system:basefee_config`). */
export interface BasefeeConfig {
  cyclesTarget: bigint;
  cellsTarget: bigint;
  alpha: bigint;
  /** the ±1/maxChangeDenom clamp */
  maxChangeDenom: bigint;
  minBasefee: bigint;
}

/** Timer config (CIP-5, `system:timer_config`, §5.1a). */
export interface TimerConfig {
  maxTimersPerActor: bigint;
  maxCyclesPerFire: bigint;
  maxCellsPerFire: bigint;
  laneCycles: bigint;
  gcCycles: bigint;
  gcCyclesPerDrop: bigint;
  defaultTtlBlocks: bigint;
}

/** Execution limits of §12.1 / §13 (`system:gov:param:execution_limits`). */
export interface ExecutionLimits {
  fanoutPerTx: bigint;
  maxMessageDepth: bigint;
  mailboxCapacityBytes: bigint;
  dedupWindow: bigint;
  perActorPerBlockCycles: bigint;
}

/** Every parameter the STF reads per block. */
export interface ChainParams {
  basefee: BasefeeConfig;
  /** lane fee multipliers in basis points (10,000 = 1.0×) */
  laneMultiplierBps: { system: bigint; timer: bigint; runner: bigint; user: bigint };
  /** lane cycle budgets (§17.9) */
  laneBudget: { system: bigint; timer: bigint; runner: bigint; user: bigint };
  timer: TimerConfig;
  limits: ExecutionLimits;
}

/** Genesis defaults (§13, §17). */
export const DEFAULT_PARAMS: Readonly<ChainParams> = {
  basefee: {
    cyclesTarget: CYCLES_TARGET,
    cellsTarget: CELLS_TARGET,
    alpha: BASEFEE_ALPHA,
    maxChangeDenom: BASEFEE_ALPHA,
    minBasefee: MIN_BASEFEE,
  },
  laneMultiplierBps: { system: 10_000n, timer: 10_000n, runner: 10_000n, user: 10_000n },
  laneBudget: { ...LANE_CYCLE_BUDGET },
  timer: {
    maxTimersPerActor: BigInt(MAX_TIMERS_PER_ACTOR),
    maxCyclesPerFire: MAX_CYCLES_PER_FIRE,
    maxCellsPerFire: MAX_CELLS_PER_FIRE,
    laneCycles: LANE_TIMER_CYCLES,
    gcCycles: TIMER_GC_CYCLES,
    gcCyclesPerDrop: TIMER_GC_CYCLES_PER_DROP,
    defaultTtlBlocks: TIMER_DEFAULT_TTL_BLOCKS,
  },
  limits: {
    fanoutPerTx: BigInt(FANOUT_PER_TX),
    maxMessageDepth: BigInt(MAX_MESSAGE_DEPTH),
    mailboxCapacityBytes: BigInt(MAILBOX_CAPACITY_BYTES),
    dedupWindow: DEDUP_WINDOW,
    perActorPerBlockCycles: PER_ACTOR_PER_BLOCK_CYCLES,
  },
};

/** §13.1 storage keys (names inside the qmdb governance namespace). */
export const GOV_KEYS = {
  settlement: "system:settlement_config",
  basefee: "system:basefee_config",
  laneMultipliers: "system:lane_fee_multipliers",
  laneBudgets: "system:gov:param:lane_budgets",
  timer: "system:timer_config",
  rent: "system:cip4:rent_config",
  reputation: "system:cip2:reputation_config",
  aggregator: "system:cip2:aggregator_config",
  slashDistribution: "system:cip2:slash_distribution",
  nonReveal: "system:cip2:non_reveal_config",
  committee: "system:cip2:committee_config",
  executionLimits: "system:gov:param:execution_limits",
} as const;

type IntRecord = Record<string, bigint>;

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Canonical CBOR map of `snake_case name → unsigned integer`. */
export function encodeParamRecord(rec: IntRecord): Uint8Array {
  const out: Record<string, bigint> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (v < 0n || v > U64_MAX) throw new RangeError(`parameter ${k} = ${v} is not a u64`);
    out[snake(k)] = v;
  }
  return encodeCbor(out);
}

/** Inverse of {@link encodeParamRecord} for the fields of `shape`; throws on a missing or non-integer field. */
export function decodeParamRecord<T extends IntRecord>(bytes: Uint8Array, shape: T, what: string): T {
  const v: CborValue = decodeCbor(bytes);
  if (!(v instanceof CborMap)) throw new RangeError(`${what}: not a CBOR map`);
  const out: IntRecord = {};
  for (const k of Object.keys(shape)) {
    const x = v.get(snake(k));
    if (typeof x !== "bigint") throw new RangeError(`${what}: field ${snake(k)} missing or not an integer`);
    out[k] = x;
  }
  return out as T;
}

/** The §13.1 records written at genesis, by storage key. */
export function genesisGovernance(params: ChainParams = DEFAULT_PARAMS): [string, Uint8Array][] {
  return [
    [GOV_KEYS.settlement, encodeParamRecord({ runnerBps: 8_900n, burnBps: 1_000n, treasuryBps: 100n })],
    [GOV_KEYS.basefee, encodeParamRecord({ ...params.basefee })],
    [GOV_KEYS.laneMultipliers, encodeParamRecord({ ...params.laneMultiplierBps })],
    [GOV_KEYS.laneBudgets, encodeParamRecord({ ...params.laneBudget })],
    [GOV_KEYS.timer, encodeParamRecord({ ...params.timer })],
    [
      GOV_KEYS.rent,
      encodeParamRecord({
        // 0.001 CBY per byte per year, in base units
        rentRatePerByteYear: UNITS_PER_CBY / 1_000n,
        rentCatchupBps: 1_000n,
        graceThresholdBytes: 10_240n,
        rentEpochLength: 86_400n,
        evictionThresholdEpochs: 10n,
      }),
    ],
    [GOV_KEYS.reputation, encodeParamRecord({ halfLifeBlocks: 1_209_600n, aggregatorPercentile: 50n })],
    [GOV_KEYS.aggregator, encodeParamRecord({ aggregatorBonusBps: 150n })],
    [GOV_KEYS.slashDistribution, encodeParamRecord({ burnBps: 10_000n, submitterBps: 0n, treasuryBps: 0n })],
    [GOV_KEYS.nonReveal, encodeParamRecord({ nonRevealSlashBps: 2_500n })],
    [GOV_KEYS.committee, encodeParamRecord({ m: 5n, n: 3n })],
    [GOV_KEYS.executionLimits, encodeParamRecord({ ...params.limits })],
  ];
}

/** Reads every parameter the STF needs from the state; throws if genesis was not written. */
export function readParams(kv: KvStore): ChainParams {
  const get = (name: string) => {
    const v = kv.get(governanceKey(name));
    if (v === undefined) throw new RangeError(`governance parameter ${name} is missing from the state`);
    return v;
  };
  const d = DEFAULT_PARAMS;
  return {
    basefee: decodeParamRecord(get(GOV_KEYS.basefee), { ...d.basefee }, GOV_KEYS.basefee),
    laneMultiplierBps: decodeParamRecord(
      get(GOV_KEYS.laneMultipliers),
      { ...d.laneMultiplierBps },
      GOV_KEYS.laneMultipliers,
    ),
    laneBudget: decodeParamRecord(get(GOV_KEYS.laneBudgets), { ...d.laneBudget }, GOV_KEYS.laneBudgets),
    timer: decodeParamRecord(get(GOV_KEYS.timer), { ...d.timer }, GOV_KEYS.timer),
    limits: decodeParamRecord(get(GOV_KEYS.executionLimits), { ...d.limits }, GOV_KEYS.executionLimits),
  };
}

/** Writes the genesis state (accounts, system actors, governance) into `kv`. */
export function writeGenesisState(
  kv: KvStore,
  accounts: readonly { address: Uint8Array; balance: bigint }[],
  params: ChainParams = DEFAULT_PARAMS,
): void {
  for (const sa of SYSTEM_ACTORS) {
    const meta = encodeCbor({ system_actor: BigInt(sa.id), name: sa.name, status: sa.status });
    kv.put(accountKey(systemAddress(sa.id)), encodeAccount({ ...emptyAccount(), metadata: meta }));
  }
  for (const a of accounts) {
    if (a.address.length !== 20) throw new RangeError("genesis account address must be 20 bytes");
    if (a.balance < 0n || a.balance > U64_MAX)
      throw new RangeError(`genesis balance ${a.balance} is not a u64`);
    const key = accountKey(a.address);
    const prev = kv.get(key);
    const rec = prev === undefined ? emptyAccount() : decodeAccount(prev);
    const balance = rec.balance + a.balance;
    if (balance > U64_MAX) throw new RangeError("genesis balance overflows u64");
    kv.put(key, encodeAccount({ ...rec, balance }));
  }
  for (const [name, value] of genesisGovernance(params)) kv.put(governanceKey(name), value);
}
