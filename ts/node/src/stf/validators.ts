/**
 * The validator set inside the state transition (spec 01 "Validator Set", "Staking and
 * Rewards", "Slashing", §5.1a `SYS_CANCEL_TIMER`, §8.2). The set logic itself is the
 * deterministic {@link ValidatorRegistry} of ts/consensus; this module runs it over the chain
 * state and moves the money:
 *
 * - `registerValidator` debits the stake from the sender (the operator account, self-stake
 *   only) and registers it; the validator is in the set from the next epoch.
 * - `exitValidator` starts unbonding; `withdrawStake` credits the stake back once unbonded.
 * - `unjailValidator` releases a validator whose jail is over (back in the set next epoch).
 * - `submitEvidence` (anyone): equivocation evidence → slash `slashBps` of the stake (the
 *   slashed amount leaves the stake and is not credited anywhere: burned, §8.4) and jail.
 * - `sysCancelTimer` (anyone): a timer cancelled by an aggregate BLS signature of more than
 *   2/3 of an epoch's set over namespace `cowboy-sys-cancel-timer-v1` and message
 *   `chainId u64 BE ‖ actor(20) ‖ timerId(32)`.
 * - `dkgLog` (the dealer's own validator account): a dealer log of the open resharing ceremony
 *   (dkg.ts); receipt errors `ERR_DKG_NO_CEREMONY` / `ERR_DKG_LOG_INVALID` /
 *   `ERR_DKG_LOG_DUPLICATE` / `ERR_DKG_LOG_SENDER`.
 *
 * Epochs are height-based: epoch e covers heights [e·E, (e+1)·E) with E = `epochBlocks`.
 * The set of epoch e+1 is fixed at the freeze point F(e) = e·E + ⌊E/2⌋, at the start of that
 * block (after the parent's downtime accounting, before the transactions), so the validators
 * of e have the second half of the epoch to reshare the threshold key to it (dkg.ts); changes
 * made at or after F(e) count from e+2. The genesis set (epoch 0) is fixed at genesis (and
 * epoch 1's too when E = 1). A failed resharing re-fixes the set of e+1 to the set of e at
 * the end of the last block of e (dkg.ts).
 * Block rewards (§8.2) are split by stake over the block's epoch set (`rewardShares`:
 * floor(reward × stake / total), the remainder one unit at a time in set order); the
 * proposer keeps all tips. With no set (no validators), the proposer gets the reward.
 * Downtime: the consensus indices whose votes certified the parent block (in the parent's
 * epoch set) are passed per block; absent = no accounting.
 *
 * A failing validator transaction is included, pays its fee and changes nothing else; its
 * receipt error is `ERR_VALIDATOR_<registry code>: …` or `ERR_SYS_CANCEL_<reason>: …`.
 * State: `0x03 ‖ 0x00 ‖ 0^20 ‖ 0x07 ‖ 0x00 ‖ …` registry, `… 0x07 ‖ 0x01` parameters
 * (docs/state.md).
 */
import { createRequire } from "node:module";
import {
  DEFAULT_VALIDATOR_PARAMS,
  decodeEvidence,
  nativeValidatorCrypto,
  type Punishment,
  type SetMember,
  type ValidatorCrypto,
  ValidatorError,
  type ValidatorParams,
  type ValidatorRecord,
  ValidatorRegistry,
} from "@cowboy/consensus";
import { bytesEqual, type Instruction, type Transaction } from "@cowboy/sdk";
import { type Lane, MAX_TX_SIZE } from "../params.ts";
import type { KvStore } from "../state/kv.ts";
import { TimerQueue } from "../timers/queue.ts";
import { DkgBlock, type DkgBlockReport, maxLogBytes, writeGenesisGroup } from "./dkg.ts";
import { StfError } from "./errors.ts";
import {
  accountKey,
  decodeAccountRecord,
  emptyAccount,
  encodeAccountRecord,
  PROTOCOL_ADDRESS,
  systemKey,
  TABLE,
} from "./state-keys.ts";

/** Key prefix of the {@link ValidatorRegistry} in the state. */
export const VALIDATOR_REGISTRY_PREFIX: Uint8Array = systemKey(
  PROTOCOL_ADDRESS,
  TABLE.validators,
  Uint8Array.of(0x00),
);
/** Key of the validator parameters record (absent = {@link DEFAULT_VALIDATOR_PARAMS}). */
export const VALIDATOR_PARAMS_KEY: Uint8Array = systemKey(
  PROTOCOL_ADDRESS,
  TABLE.validators,
  Uint8Array.of(0x01),
);
/** BLS namespace of `SYS_CANCEL_TIMER` signatures (raw bytes, outside the consensus domains). */
export const SYS_CANCEL_TIMER_NAMESPACE = "cowboy-sys-cancel-timer-v1";

/** §17.2 intrinsic cost rows used by the validator instructions (see {@link validatorIntrinsic}). */
const TRANSFER_ROW_CYCLES = 21_000n;
const MESSAGE_ROW_CYCLES = 21_000n;
const BLS_SIGNATURE_BYTES = 96;

/** The instructions this module executes. */
export type ValidatorInstruction = Extract<
  Instruction,
  {
    kind:
      | "registerValidator"
      | "exitValidator"
      | "withdrawStake"
      | "unjailValidator"
      | "submitEvidence"
      | "sysCancelTimer"
      | "dkgLog";
  }
>;

const KINDS = new Set<string>([
  "registerValidator",
  "exitValidator",
  "withdrawStake",
  "unjailValidator",
  "submitEvidence",
  "sysCancelTimer",
  "dkgLog",
]);

/** True for the validator-set System instructions (sub-types 2..=8). */
export function isValidatorInstruction(ix: Instruction): ix is ValidatorInstruction {
  return KINDS.has(ix.kind);
}

/** §17.9: validator-set instructions travel in the System lane; everything else in User. */
export function txLane(tx: Transaction): Lane {
  return isValidatorInstruction(tx.instruction) ? "system" : "user";
}

/**
 * §17.2 intrinsic costs (the table has no validator rows; the nearest system operations are
 * used): register / exit / withdraw / unjail = the Transfer row (21,000 cycles, 0 cells);
 * evidence, `SYS_CANCEL_TIMER` and `DkgLog` = the ActorMessage row (21,000 cycles, cells = the
 * variable payload: the evidence bytes, the signer bitmap plus the 96-byte signature, or the
 * log bytes).
 */
export function validatorIntrinsic(ix: ValidatorInstruction): { cycles: bigint; cells: bigint } {
  switch (ix.kind) {
    case "submitEvidence":
      return { cycles: MESSAGE_ROW_CYCLES, cells: BigInt(ix.evidence.length) };
    case "sysCancelTimer":
      return { cycles: MESSAGE_ROW_CYCLES, cells: BigInt(ix.signers.length + BLS_SIGNATURE_BYTES) };
    case "dkgLog":
      return { cycles: MESSAGE_ROW_CYCLES, cells: BigInt(ix.log.length) };
    default:
      return { cycles: TRANSFER_ROW_CYCLES, cells: 0n };
  }
}

/** Value a validator instruction moves out of the sender's balance (the stake of a registration). */
export function validatorValue(ix: ValidatorInstruction): bigint {
  return ix.kind === "registerValidator" ? ix.stake : 0n;
}

/** The `SYS_CANCEL_TIMER` signed message: `chainId u64 BE ‖ actor(20) ‖ timerId(32)`. */
export function sysCancelTimerMessage(chainId: bigint, actor: Uint8Array, timerId: Uint8Array): Uint8Array {
  if (actor.length !== 20 || timerId.length !== 32) throw new RangeError("actor is 20 bytes, timerId 32");
  const m = new Uint8Array(8 + 20 + 32);
  new DataView(m.buffer).setBigUint64(0, chainId);
  m.set(actor, 8);
  m.set(timerId, 28);
  return m;
}

// ----------------------------------------------------------------- parameters

const PARAM_FIELDS = [
  "minStake",
  "epochBlocks",
  "unbondingBlocks",
  "jailBlocks",
  "slashBps",
  "downtimeWindow",
  "downtimeMaxMissed",
  "keepEpochs",
  "maxValidators",
] as const;

/** Bytes a signed `DkgLog` transaction adds around its log (envelope, signature; generous). */
export const DKG_LOG_TX_OVERHEAD = 1_024;

/**
 * The largest `maxValidators` allowed: the largest set n whose dealer logs (at most
 * `maxLogBytes(n)` bytes, dkg.ts) still fit one transaction (`MAX_TX_SIZE`) with
 * {@link DKG_LOG_TX_OVERHEAD}. A larger set could never complete a resharing: every ceremony
 * would fail and the old set would be kept forever.
 */
export const MAX_VALIDATORS_LIMIT: number = (() => {
  let n = 1;
  while (maxLogBytes(n + 1) + DKG_LOG_TX_OVERHEAD <= MAX_TX_SIZE) n++;
  return n;
})();

/** Checks a full parameter set; throws StfError `ERR_CHAIN_GENESIS` naming the bad field. */
export function checkValidatorParams(p: ValidatorParams): void {
  for (const f of PARAM_FIELDS) {
    const v = p[f];
    const ok =
      f === "minStake"
        ? typeof v === "bigint" && v >= 0n && v <= 0xffff_ffff_ffff_ffffn
        : typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
    if (!ok) throw new StfError("ERR_CHAIN_GENESIS", `validator parameter ${f} = ${String(v)} is invalid`);
  }
  if (p.epochBlocks < 1 || p.downtimeWindow < 1 || p.keepEpochs < 1 || p.slashBps > 10_000) {
    throw new StfError(
      "ERR_CHAIN_GENESIS",
      "validator parameters need epochBlocks, downtimeWindow, keepEpochs ≥ 1 and slashBps ≤ 10,000",
    );
  }
  if (p.maxValidators < 1 || p.maxValidators > MAX_VALIDATORS_LIMIT) {
    throw new StfError(
      "ERR_CHAIN_GENESIS",
      `validator parameter maxValidators = ${p.maxValidators} must be 1..=${MAX_VALIDATORS_LIMIT}: the DKG logs of a larger set do not fit a ${MAX_TX_SIZE}-byte transaction`,
    );
  }
}

/**
 * The parameters record: the 9 fields of {@link ValidatorParams} as u64 BE, in declaration order
 * (minStake, epochBlocks, unbondingBlocks, jailBlocks, slashBps, downtimeWindow,
 * downtimeMaxMissed, keepEpochs, maxValidators).
 */
export function encodeValidatorParams(p: ValidatorParams): Uint8Array {
  const b = new Uint8Array(8 * PARAM_FIELDS.length);
  const v = new DataView(b.buffer);
  PARAM_FIELDS.forEach((f, i) => {
    v.setBigUint64(8 * i, BigInt(p[f]));
  });
  return b;
}

/**
 * Strict inverse of {@link encodeValidatorParams}; also reads the earlier 8-field record (without
 * `maxValidators`: the default applies). Throws on a malformed record.
 */
export function decodeValidatorParams(b: Uint8Array): ValidatorParams {
  const legacy = b.length === 8 * (PARAM_FIELDS.length - 1);
  if (b.length !== 8 * PARAM_FIELDS.length && !legacy)
    throw new RangeError("validator parameters record is malformed");
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  const n = (i: number) => {
    const x = v.getBigUint64(8 * i);
    if (x > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("validator parameter above 2^53 - 1");
    return Number(x);
  };
  return {
    minStake: v.getBigUint64(0),
    epochBlocks: n(1),
    unbondingBlocks: n(2),
    jailBlocks: n(3),
    slashBps: n(4),
    downtimeWindow: n(5),
    downtimeMaxMissed: n(6),
    keepEpochs: n(7),
    maxValidators: legacy ? DEFAULT_VALIDATOR_PARAMS.maxValidators : n(8),
  };
}

/** The validator parameters in force in `kv`. */
export function readValidatorParams(kv: KvStore): ValidatorParams {
  const raw = kv.get(VALIDATOR_PARAMS_KEY);
  return raw === undefined ? DEFAULT_VALIDATOR_PARAMS : decodeValidatorParams(raw);
}

// ----------------------------------------------------------------- crypto

/** The BLS checks of the validator instructions. */
export interface StfValidatorCrypto extends ValidatorCrypto {
  /** true if `signature` is the aggregate of `publicKeys` over `message` under raw `namespace` */
  verifyAggregateNamespaced(
    publicKeys: readonly Uint8Array[],
    namespace: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
  ): boolean;
}

type NativeBls = {
  blsAggregatePublicKeys(keys: Buffer[]): Buffer;
  blsVerifyNamespaced?(pk: Buffer, namespace: Buffer, message: Buffer, signature: Buffer): boolean;
};

const cryptoByChain = new Map<bigint, StfValidatorCrypto>();

/** {@link StfValidatorCrypto} over the native addon (crates/bls) for chain `chainId`; cached. */
export function nativeStfValidatorCrypto(chainId: bigint): StfValidatorCrypto {
  let c = cryptoByChain.get(chainId);
  if (c === undefined) {
    let n: NativeBls;
    let base: ValidatorCrypto;
    try {
      n = createRequire(import.meta.url)("@cowboy/native") as NativeBls;
      base = nativeValidatorCrypto(chainId);
    } catch (err) {
      throw new StfError(
        "ERR_CHAIN_NO_RUNTIME",
        `the native addon (@cowboy/native) is not built; run \`bash scripts/task.sh build-native\`: ${(err as Error).message}`,
      );
    }
    const verifyNs = n.blsVerifyNamespaced;
    if (verifyNs === undefined) {
      throw new StfError(
        "ERR_CHAIN_NO_RUNTIME",
        "the native addon lacks blsVerifyNamespaced; rebuild it (`bash scripts/task.sh build-native`)",
      );
    }
    const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    c = {
      ...base,
      verifyAggregateNamespaced: (keys, namespace, message, signature) =>
        verifyNs(n.blsAggregatePublicKeys(keys.map(buf)), buf(namespace), buf(message), buf(signature)),
    };
    cryptoByChain.set(chainId, c);
  }
  return c;
}

// ----------------------------------------------------------------- registry over the state

const hexOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");

/** The registry over `kv` with the parameters stored there. */
export function openRegistry(
  kv: KvStore,
  crypto: ValidatorCrypto,
  params?: ValidatorParams,
): ValidatorRegistry {
  return new ValidatorRegistry({
    kv,
    prefix: VALIDATOR_REGISTRY_PREFIX,
    crypto,
    params: params ?? readValidatorParams(kv),
  });
}

/** The set of `epoch`, or `[]` when none was fixed (no validators, or forgotten). */
export function setOrEmpty(registry: ValidatorRegistry, epoch: number): SetMember[] {
  try {
    return registry.setOf(epoch);
  } catch (e) {
    if (e instanceof ValidatorError && e.code === "EPOCH_NOT_STARTED") return [];
    throw e;
  }
}

/** One genesis validator (contract C2). */
export interface GenesisValidator {
  /** operator account; its genesis balance must hold `stake` (debited, not minted) */
  address: Uint8Array;
  /** 48-byte BLS public key */
  blsKey: Uint8Array;
  stake: bigint;
  /** verified when given; genesis keys without one are trusted as configured */
  proofOfPossession?: Uint8Array;
}

/**
 * Writes the genesis validator state into `kv` (after the genesis accounts): the parameters
 * record when `params` is given, each validator registered active from epoch 0 with its stake
 * debited from its genesis balance, and the set of epoch 0 (and 1 when epochs are one block);
 * with `dkgOutput` (players = exactly the keys of the epoch-0 set: the
 * validators, or the `maxValidators` of them with the most stake) the threshold group of epoch 0
 * (dkg.ts). Writes nothing when none is given. Throws StfError `ERR_CHAIN_GENESIS`.
 */
export function writeGenesisValidators(
  kv: KvStore,
  chainId: bigint,
  validators: readonly GenesisValidator[] | undefined,
  params: Partial<ValidatorParams> | undefined,
  crypto?: ValidatorCrypto,
  dkgOutput?: Uint8Array,
): void {
  const list = validators ?? [];
  if (list.length === 0 && dkgOutput !== undefined)
    throw new StfError("ERR_CHAIN_GENESIS", "dkgOutput needs genesis validators");
  if (list.length === 0 && params === undefined) return;
  const full: ValidatorParams = { ...DEFAULT_VALIDATOR_PARAMS, ...params };
  checkValidatorParams(full);
  if (params !== undefined) kv.put(VALIDATOR_PARAMS_KEY, encodeValidatorParams(full));
  if (list.length === 0) return;
  const base = crypto ?? nativeStfValidatorCrypto(chainId);
  const trusted = new Set<string>();
  const genesisCrypto: ValidatorCrypto = {
    ...base,
    verifyProofOfPossession: (pk, proof) =>
      trusted.has(hexOf(pk)) ? true : base.verifyProofOfPossession(pk, proof),
  };
  const registry = openRegistry(kv, genesisCrypto, full);
  for (const [i, v] of list.entries()) {
    if (!(v.address instanceof Uint8Array) || v.address.length !== 20)
      throw new StfError("ERR_CHAIN_GENESIS", `genesis validator ${i}: address must be 20 bytes`);
    const key = accountKey(v.address);
    const raw = kv.get(key);
    const acct = raw === undefined ? emptyAccount() : decodeAccountRecord(raw);
    if (acct.balance < v.stake)
      throw new StfError(
        "ERR_CHAIN_GENESIS",
        `genesis validator ${i}: account 0x${hexOf(v.address)} holds ${acct.balance}, less than its stake ${v.stake}`,
      );
    const proof = v.proofOfPossession;
    if (proof === undefined && v.blsKey instanceof Uint8Array) trusted.add(hexOf(v.blsKey));
    try {
      registry.register({
        address: hexOf(v.address),
        stake: v.stake,
        blsKey: v.blsKey,
        proof: proof ?? new Uint8Array(0),
        height: 0,
        genesis: true,
      });
    } catch (e) {
      if (e instanceof ValidatorError)
        throw new StfError("ERR_CHAIN_GENESIS", `genesis validator ${i}: ${e.code}: ${e.message}`, {
          cause: e.code,
        });
      throw e;
    }
    kv.put(key, encodeAccountRecord({ ...acct, balance: acct.balance - v.stake }));
  }
  // the genesis set: at most maxValidators of them (by stake); the group's players are its keys
  const genesisSet = registry.beginEpoch(0);
  if (full.epochBlocks === 1) registry.beginEpoch(1);
  if (dkgOutput !== undefined)
    writeGenesisGroup(
      kv,
      genesisSet.map((m) => m.blsKey),
      dkgOutput,
      full.epochBlocks,
    );
}

// ----------------------------------------------------------------- per block

/** What a validator instruction did (the executor turns it into a receipt). */
export type ValidatorOutcome = { ok: true } | { ok: false; error: string };

/** Everything the validator set did in one block (for results, metrics and tests). */
export interface ValidatorBlockReport {
  /** reward shares paid this block (empty when the proposer took the reward) */
  rewards: { address: string; amount: bigint }[];
  /** stake slashed this block (burned) */
  slashed: bigint;
  /** validators jailed this block (evidence or downtime) */
  jailed: Punishment[];
  /**
   * the set of the next epoch fixed at this block: at the freeze point, or re-fixed to the
   * current epoch's set when the resharing ceremony failed at the last block of the epoch; else null
   */
  nextSet: SetMember[] | null;
  /** the threshold group's part (dkg.ts): ceremony opened, next epoch's group decided */
  dkg: DkgBlockReport;
}

/**
 * The validator set's part of one block's execution, over the block's pending state. Create
 * one per block (lazily: nothing is read until a method runs).
 */
export class ValidatorBlock {
  private readonly kv: KvStore;
  private readonly chainId: bigint;
  private readonly height: bigint;
  private readonly cryptoFn: () => StfValidatorCrypto;
  private reg: ValidatorRegistry | null = null;
  private cryptoCache: StfValidatorCrypto | null = null;
  /** the threshold group / resharing part of the block */
  readonly dkg: DkgBlock;
  readonly report: ValidatorBlockReport;

  constructor(kv: KvStore, chainId: bigint, height: bigint, crypto?: () => StfValidatorCrypto) {
    this.kv = kv;
    this.chainId = chainId;
    this.height = height;
    this.cryptoFn = crypto ?? (() => nativeStfValidatorCrypto(chainId));
    this.dkg = new DkgBlock(kv, chainId, Number(height));
    this.report = { rewards: [], slashed: 0n, jailed: [], nextSet: null, dkg: this.dkg.report };
  }

  private crypto(): StfValidatorCrypto {
    if (this.cryptoCache === null) this.cryptoCache = this.cryptoFn();
    return this.cryptoCache;
  }

  /** The registry (its crypto is loaded only when a signature is checked). */
  registry(): ValidatorRegistry {
    if (this.reg === null) {
      const lazy: ValidatorCrypto = {
        verifyProofOfPossession: (pk, proof) => this.crypto().verifyProofOfPossession(pk, proof),
        verifyVote: (...a) => this.crypto().verifyVote(...a),
        verifyAggregate: (...a) => this.crypto().verifyAggregate(...a),
      };
      this.reg = openRegistry(this.kv, lazy);
    }
    return this.reg;
  }

  private get h(): number {
    return Number(this.height);
  }

  /**
   * Start of the block: downtime accounting of the parent block (height ≥ 2) from the
   * consensus indices (in the parent's epoch set) whose votes certified it (absent = skipped);
   * then, at the freeze point F(e), the set of e+1 is fixed and its threshold group carried
   * over or its resharing ceremony opened (dkg.ts).
   */
  begin(participants: readonly number[] | undefined): void {
    if (participants !== undefined && this.height >= 2n) {
      const parent = this.h - 1;
      const registry = this.registry();
      const epoch = registry.epochOf(parent);
      if (setOrEmpty(registry, epoch).length > 0) {
        const valid = participants.filter((i) => Number.isSafeInteger(i) && i >= 0);
        this.report.jailed.push(...registry.recordParticipation(epoch, parent, valid));
      }
    }
    this.freeze();
  }

  /** At F(e) (e = this block's epoch): fixes the set of e+1, then the DKG part. */
  private freeze(): void {
    const registry = this.registry();
    const epoch = registry.epochOf(this.h);
    if (this.h !== registry.freezeHeight(epoch)) return;
    if (setOrEmpty(registry, epoch).length === 0 && registry.addresses().length === 0) return;
    const next = registry.beginEpoch(epoch + 1);
    this.report.nextSet = next;
    this.dkg.freeze(registry, epoch, next);
    // an empty set cannot hold the group: dkg.ts re-fixed it to the current one
    if (this.dkg.report.decided?.outcome === "failed") this.report.nextSet = registry.setOf(epoch + 1);
  }

  /** Executes one validator instruction sent by `from` (the caller reverts the state on failure). */
  run(ix: ValidatorInstruction, from: Uint8Array): ValidatorOutcome {
    const address = hexOf(from);
    const registry = this.registry();
    try {
      switch (ix.kind) {
        case "registerValidator": {
          registry.register({
            address,
            stake: ix.stake,
            blsKey: ix.blsKey,
            proof: ix.proofOfPossession,
            height: this.h,
          });
          // the executor's checkTx made sure the balance covers the stake after the fee
          const acct = this.account(from);
          if (acct.balance < ix.stake)
            return { ok: false, error: `ERR_VALIDATOR_BALANCE: balance ${acct.balance} < stake ${ix.stake}` };
          this.kv.put(accountKey(from), encodeAccountRecord({ ...acct, balance: acct.balance - ix.stake }));
          return { ok: true };
        }
        case "exitValidator":
          registry.beginExit(address, this.h);
          return { ok: true };
        case "withdrawStake": {
          const amount = registry.withdraw(address, this.h);
          const acct = this.account(from);
          this.kv.put(accountKey(from), encodeAccountRecord({ ...acct, balance: acct.balance + amount }));
          return { ok: true };
        }
        case "unjailValidator":
          registry.unjail(address, this.h);
          return { ok: true };
        case "submitEvidence": {
          let evidence: ReturnType<typeof decodeEvidence>;
          try {
            evidence = decodeEvidence(ix.evidence);
          } catch (e) {
            return { ok: false, error: `ERR_VALIDATOR_BAD_EVIDENCE: ${(e as Error).message}` };
          }
          const p = registry.submitEvidence(evidence, this.h);
          this.report.slashed += p.slashed;
          this.report.jailed.push(p);
          return { ok: true };
        }
        case "sysCancelTimer":
          return this.sysCancelTimer(ix);
        case "dkgLog":
          // a resharing ceremony's dealer log (dkg.ts), sent by the dealer's validator account
          return this.dkg.submitLog(ix.ceremony, ix.log, registry.get(address)?.blsKey ?? null);
      }
    } catch (e) {
      if (e instanceof ValidatorError) return { ok: false, error: `ERR_VALIDATOR_${e.code}: ${e.message}` };
      throw e;
    }
  }

  private account(addr: Uint8Array) {
    const raw = this.kv.get(accountKey(addr));
    return raw === undefined ? emptyAccount() : decodeAccountRecord(raw);
  }

  /** §5.1a validator-set `SYS_CANCEL_TIMER`. */
  private sysCancelTimer(ix: Extract<ValidatorInstruction, { kind: "sysCancelTimer" }>): ValidatorOutcome {
    const fail = (reason: string, message: string): ValidatorOutcome => ({
      ok: false,
      error: `ERR_SYS_CANCEL_${reason}: ${message}`,
    });
    const registry = this.registry();
    const members = ix.epoch <= BigInt(Number.MAX_SAFE_INTEGER) ? setOrEmpty(registry, Number(ix.epoch)) : [];
    if (members.length === 0) return fail("UNKNOWN_EPOCH", `no validator set is kept for epoch ${ix.epoch}`);
    const n = members.length;
    if (ix.signers.length !== Math.ceil(n / 8))
      return fail("BAD_BITMAP", `a signer bitmap over ${n} validators is ${Math.ceil(n / 8)} bytes`);
    const keys: Uint8Array[] = [];
    for (let i = 0; i < ix.signers.length * 8; i++) {
      if ((((ix.signers[i >> 3] as number) >> (i & 7)) & 1) === 0) continue;
      if (i >= n) return fail("BAD_BITMAP", `bit ${i} is set but the set has ${n} validators`);
      keys.push((members[i] as SetMember).blsKey);
    }
    if (3 * keys.length <= 2 * n)
      return fail("TOO_FEW_SIGNERS", `${keys.length} of ${n} signers; more than 2/3 are needed`);
    const timers = new TimerQueue(this.kv);
    const timer = timers.get(ix.timerId);
    if (timer === undefined) return fail("UNKNOWN_TIMER", "no pending timer with this id");
    if (!bytesEqual(timer.target, ix.actor))
      return fail("WRONG_ACTOR", "the timer does not belong to that actor");
    let ok = false;
    try {
      ok = this.crypto().verifyAggregateNamespaced(
        keys,
        new TextEncoder().encode(SYS_CANCEL_TIMER_NAMESPACE),
        sysCancelTimerMessage(this.chainId, ix.actor, ix.timerId),
        ix.signature,
      );
    } catch {
      ok = false;
    }
    if (!ok) return fail("BAD_SIGNATURE", "the aggregate signature does not verify");
    // same effect as an owner's cancel_timer: the timer is gone; nothing was pre-charged
    timers.remove(ix.timerId);
    return { ok: true };
  }

  /**
   * End of the block: §8.2 `reward` split by stake over the block's epoch set (returns the
   * shares; empty = the proposer takes the reward), then, at the last block of an epoch, the
   * open resharing ceremony is decided (dkg.ts; on failure the next epoch's set is re-fixed).
   */
  finish(reward: bigint): { address: string; amount: bigint }[] {
    const registry = this.registry();
    const epoch = registry.epochOf(this.h);
    const set = setOrEmpty(registry, epoch);
    let shares: { address: string; amount: bigint }[] = [];
    if (set.length > 0 && reward > 0n) {
      shares = registry.rewardShares(epoch, reward);
      for (const s of shares) {
        if (s.amount === 0n) continue;
        const addr = Uint8Array.from(Buffer.from(s.address, "hex"));
        const acct = this.account(addr);
        this.kv.put(accountKey(addr), encodeAccountRecord({ ...acct, balance: acct.balance + s.amount }));
      }
      this.report.rewards = shares;
    }
    if ((this.h + 1) % registry.params.epochBlocks === 0) {
      const refixed = this.dkg.decide(registry, epoch);
      if (refixed !== null) this.report.nextSet = refixed;
    }
    return shares;
  }
}

/** Read side for {@link Chain}: the set of `epoch` and a validator's record in `kv`. */
export function readValidatorSet(kv: KvStore, epoch: number): SetMember[] {
  return setOrEmpty(openRegistry(kv, NO_CRYPTO), epoch);
}

/** A validator's record, or null. */
export function readValidator(kv: KvStore, address: Uint8Array): ValidatorRecord | null {
  if (address.length !== 20) throw new RangeError("an address is 20 bytes");
  return openRegistry(kv, NO_CRYPTO).get(hexOf(address));
}

/** Reads never check signatures. */
const NO_CRYPTO: ValidatorCrypto = {
  verifyProofOfPossession: () => false,
  verifyVote: () => false,
  verifyAggregate: () => false,
};
