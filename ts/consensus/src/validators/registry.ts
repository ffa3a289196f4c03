/**
 * The validator set (spec 01 "Validator Set", "Staking and Rewards", "Slashing"; §18 constants):
 * deterministic integer logic over an injected key-value store.
 *
 * Lifecycle: `register` (self-stake ≥ minimum, BLS key + proof of possession) → active from
 * the next epoch boundary after the freeze point (epochs of 3,600 blocks) → `beginExit`
 * (leaves the set at the next epoch boundary after the freeze point) → `withdraw` after the
 * 7-day unbonding period. Consensus weight is one vote per validator; stake only weighs rewards.
 *
 * Freeze point: the set of epoch e+1 is fixed while block F(e) = e·E + ⌊E/2⌋ runs (before its
 * transactions; {@link ValidatorRegistry.freezeHeight}), half an epoch before it starts, so the
 * validators of e can reshare the threshold key to it. A change at or after F(e) (registration,
 * exit, jail, unjail) takes effect at e+2 at the earliest.
 *
 * Faults: equivocation evidence (two conflicting signed votes in one view, checkable by
 * anyone with the validator's key) → slash 1% of stake and jail; downtime (more than 50% of
 * the blocks of a 1,000-block window without the validator's vote) → jail. A jail lasts
 * 24 hours (86,400 blocks at the 1 s block time) doubled for each earlier jailing; `unjail`
 * after it ends returns the validator to the set from the next epoch.
 *
 * Time is measured in block heights (never the wall clock). Amounts are bigint base units.
 * Moving the stake out of / back into the operator's account is the caller's job (the state
 * transition): `register` records stake the caller has already debited, `withdraw` and
 * `slash` return the amounts to credit / burn.
 *
 * Size: a set holds at most `maxValidators` validators, the ones with the most stake at the
 * freeze point (ties: lower address first); the others stay registered and bonded, outside it.
 *
 * Storage (all keys start with the caller's `prefix`; integers big-endian):
 * | key | value |
 * | --- | --- |
 * | prefix ‖ 0x01 ‖ address(20) | validator record (see {@link encodeRecord}) |
 * | prefix ‖ 0x02 ‖ blsKey(48) | address(20): the key's owner (keys are never reused) |
 * | prefix ‖ 0x03 | all registered addresses, 20 bytes each, ascending |
 * | prefix ‖ 0x04 ‖ epoch:u64 | that epoch's set: count:u32 ‖ (address ‖ blsKey ‖ stake:u64)* in index order |
 * | prefix ‖ 0x05 ‖ epoch:u64 ‖ view:u64 ‖ address(20) | 0x01: evidence already punished |
 */
import { createRequire } from "node:module";
import type { VoteKind } from "../types.ts";
import { checkEvidenceShape, type Evidence, type EvidenceError } from "./evidence.ts";

/** The synchronous key-value view the registry runs over (the state overlay in the node). */
export interface KvStore {
  get(key: Uint8Array): Uint8Array | undefined;
  put(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
}

/** The signature checks the registry needs (BLS through the addon: {@link nativeValidatorCrypto}). */
export interface ValidatorCrypto {
  /** true if `proof` proves possession of the secret key of `publicKey` (48 bytes) */
  verifyProofOfPossession(publicKey: Uint8Array, proof: Uint8Array): boolean;
  /** true if `signature` is `publicKey`'s vote of `kind` on (epoch, view) for `block` at `height` (block null for nullify) */
  verifyVote(
    publicKey: Uint8Array,
    kind: VoteKind,
    epoch: number,
    view: number,
    height: number,
    block: string | null,
    signature: Uint8Array,
  ): boolean;
  /** the same for an aggregate signature of `publicKeys` (all with verified proofs of possession) */
  verifyAggregate(
    publicKeys: readonly Uint8Array[],
    kind: VoteKind,
    epoch: number,
    view: number,
    height: number,
    block: string | null,
    signature: Uint8Array,
  ): boolean;
}

/** Protocol constants (spec 01 §18 "Consensus"; governance-tunable ones are parameters). */
export interface ValidatorParams {
  /** minimum self-stake in base units (governance-tunable) */
  readonly minStake: bigint;
  /** blocks per epoch (3,600) */
  readonly epochBlocks: number;
  /** unbonding period in blocks (7 days at 1 s = 604,800) */
  readonly unbondingBlocks: number;
  /** first jail in blocks (24 h at 1 s = 86,400), doubled per earlier jailing */
  readonly jailBlocks: number;
  /** double-sign slash in basis points (1% = 100) */
  readonly slashBps: number;
  /** downtime window in blocks (1,000) */
  readonly downtimeWindow: number;
  /** jailed when more than this many blocks of a window miss the validator's vote (50% = 500) */
  readonly downtimeMaxMissed: number;
  /** epoch sets kept for evidence checks (evidence older than this is refused) */
  readonly keepEpochs: number;
  /**
   * the largest set (≥ 1, governance-tunable): at the freeze point the set is the
   * `maxValidators` eligible validators with the most stake, ties broken by address ascending
   * (the cost of the resharing ceremony grows with the set; docs/validator.md)
   */
  readonly maxValidators: number;
}

/**
 * Default {@link ValidatorParams.maxValidators}: the largest set whose on-chain resharing
 * finalization (an observer over every dealer log, run by the proposer of an epoch's last block
 * and again by every verifier, inside the 1 s leader timeout) stays well under ~300 ms on one
 * free core (measured, docs/validator.md "Maximum set size").
 */
export const DEFAULT_MAX_VALIDATORS = 12;

export const DEFAULT_VALIDATOR_PARAMS: ValidatorParams = {
  minStake: 10_000n * 1_000_000_000n,
  epochBlocks: 3_600,
  unbondingBlocks: 7 * 24 * 3_600,
  jailBlocks: 24 * 3_600,
  slashBps: 100,
  downtimeWindow: 1_000,
  downtimeMaxMissed: 500,
  keepEpochs: 7 * 24,
  maxValidators: DEFAULT_MAX_VALIDATORS,
};

/**
 * Sets (and threshold groups) kept: `keepEpochs`, but at least 2 — the set of e+1 is fixed
 * while epoch e runs, and both must stay readable.
 */
export function keptEpochs(p: ValidatorParams): number {
  return Math.max(p.keepEpochs, 2);
}

/** Doublings of the jail period stop here (2^16 × 24 h). */
const MAX_JAIL_DOUBLINGS = 16;

export type ValidatorErrorCode =
  | "BAD_ADDRESS"
  | "BAD_KEY"
  | "BAD_AMOUNT"
  | "BAD_HEIGHT"
  | "STAKE_TOO_LOW"
  | "ALREADY_REGISTERED"
  | "KEY_IN_USE"
  | "BAD_PROOF_OF_POSSESSION"
  | "UNKNOWN_VALIDATOR"
  | "NOT_BONDED"
  | "NOT_EXITING"
  | "STILL_UNBONDING"
  | "NOT_JAILED"
  | "STILL_JAILED"
  | "EPOCH_NOT_STARTED"
  | "EPOCH_ALREADY_STARTED"
  | "BAD_EVIDENCE"
  | "EVIDENCE_TOO_OLD"
  | "DUPLICATE_EVIDENCE"
  | "CORRUPT_STATE";

/** A typed error; the store is unchanged when one is thrown. */
export class ValidatorError extends Error {
  readonly code: ValidatorErrorCode;
  readonly data: Record<string, unknown>;
  constructor(code: ValidatorErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = "ValidatorError";
    this.code = code;
    this.data = data;
  }
}

/** `bonded`: in (or entering) the set; `exiting`: unbonding, out of the set. */
export type ValidatorStatus = "bonded" | "exiting";

export interface ValidatorRecord {
  /** the operator's 20-byte account address (hex); the stake is its own (no delegation) */
  readonly address: string;
  readonly blsKey: Uint8Array;
  readonly stake: bigint;
  readonly status: ValidatorStatus;
  readonly registeredHeight: number;
  /** first epoch the validator may be in the set */
  readonly activationEpoch: number;
  /** height of `beginExit` (0 while bonded) */
  readonly exitHeight: number;
  /** jailed until this height (exclusive); 0 = never jailed / released */
  readonly jailedUntil: number;
  /** times jailed so far (drives the doubling) */
  readonly jailCount: number;
  /** total slashed, base units */
  readonly slashed: bigint;
  /** downtime window index (height / downtimeWindow) and blocks missed in it */
  readonly livenessWindow: number;
  readonly missed: number;
}

/** A member of an epoch's set; its consensus index is its position. */
export interface SetMember {
  readonly address: string;
  readonly blsKey: Uint8Array;
  readonly stake: bigint;
}

const ADDRESS = /^[0-9a-f]{40}$/;
const STATUS: readonly ValidatorStatus[] = ["bonded", "exiting"];
const RECORD_BYTES = 1 + 1 + 48 + 8 * 8 + 4 + 4;
const MAX_U64 = (1n << 64n) - 1n;

function u64(n: number | bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** Record layout: version:u8 (1) ‖ status:u8 ‖ blsKey:48 ‖ stake ‖ registeredHeight ‖ activationEpoch ‖ exitHeight ‖ jailedUntil ‖ slashed ‖ livenessWindow ‖ (reserved u64 0) ‖ jailCount:u32 ‖ missed:u32 */
export function encodeRecord(r: ValidatorRecord): Uint8Array {
  return Uint8Array.from(
    Buffer.concat([
      Buffer.from([1, STATUS.indexOf(r.status)]),
      Buffer.from(r.blsKey),
      u64(r.stake),
      u64(r.registeredHeight),
      u64(r.activationEpoch),
      u64(r.exitHeight),
      u64(r.jailedUntil),
      u64(r.slashed),
      u64(r.livenessWindow),
      u64(0),
      (() => {
        const t = Buffer.alloc(8);
        t.writeUInt32BE(r.jailCount, 0);
        t.writeUInt32BE(r.missed, 4);
        return t;
      })(),
    ]),
  );
}

export function decodeRecord(address: string, bytes: Uint8Array): ValidatorRecord {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const status = STATUS[b[1] as number];
  if (b.length !== RECORD_BYTES || b[0] !== 1 || status === undefined)
    throw new ValidatorError("CORRUPT_STATE", `validator record of ${address} is malformed`, { address });
  const n = (at: number) => Number(b.readBigUInt64BE(at));
  return {
    address,
    status,
    blsKey: Uint8Array.from(b.subarray(2, 50)),
    stake: b.readBigUInt64BE(50),
    registeredHeight: n(58),
    activationEpoch: n(66),
    exitHeight: n(74),
    jailedUntil: n(82),
    slashed: b.readBigUInt64BE(90),
    livenessWindow: n(98),
    jailCount: b.readUInt32BE(114),
    missed: b.readUInt32BE(118),
  };
}

/** Outcome of a punished fault. */
export interface Punishment {
  readonly address: string;
  /** base units removed from the stake (to burn, spec §8.4) */
  readonly slashed: bigint;
  readonly jailedUntil: number;
}

export class ValidatorRegistry {
  private readonly kv: KvStore;
  private readonly prefix: Buffer;
  private readonly crypto: ValidatorCrypto;
  readonly params: ValidatorParams;

  constructor(deps: {
    kv: KvStore;
    prefix: Uint8Array;
    crypto: ValidatorCrypto;
    params?: Partial<ValidatorParams>;
  }) {
    this.kv = deps.kv;
    this.prefix = Buffer.from(deps.prefix);
    this.crypto = deps.crypto;
    this.params = { ...DEFAULT_VALIDATOR_PARAMS, ...deps.params };
  }

  /** Epoch of a block height. */
  epochOf(height: number): number {
    return Math.floor(height / this.params.epochBlocks);
  }

  /**
   * The freeze point F(e) = e·E + ⌊E/2⌋: the height of the block at whose start (before its
   * transactions) the set of epoch e+1 is fixed. For E = 1, F(e) = e (the set of e+1 is
   * fixed at the start of block e, the only block of e).
   */
  freezeHeight(epoch: number): number {
    return epoch * this.params.epochBlocks + Math.floor(this.params.epochBlocks / 2);
  }

  /** The first epoch whose set can include a change made in the block at `height`. */
  firstEpochAfter(height: number): number {
    const e = this.epochOf(height);
    return height < this.freezeHeight(e) ? e + 1 : e + 2;
  }

  // ---------------------------------------------------------------- keys and records

  private key(tag: number, ...parts: Uint8Array[]): Uint8Array {
    return Uint8Array.from(Buffer.concat([this.prefix, Buffer.from([tag]), ...parts]));
  }

  private recordKey(address: string): Uint8Array {
    return this.key(0x01, Buffer.from(address, "hex"));
  }

  /** The record of `address`, or null. */
  get(address: string): ValidatorRecord | null {
    checkAddress(address);
    const bytes = this.kv.get(this.recordKey(address));
    return bytes === undefined ? null : decodeRecord(address, bytes);
  }

  private must(address: string): ValidatorRecord {
    const r = this.get(address);
    if (r === null)
      throw new ValidatorError("UNKNOWN_VALIDATOR", `${address} is not a validator`, { address });
    return r;
  }

  private put(r: ValidatorRecord): void {
    this.kv.put(this.recordKey(r.address), encodeRecord(r));
  }

  /** Every registered address, ascending. */
  addresses(): string[] {
    const bytes = this.kv.get(this.key(0x03));
    if (bytes === undefined) return [];
    if (bytes.length % 20 !== 0) throw new ValidatorError("CORRUPT_STATE", "address index is malformed");
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i += 20)
      out.push(Buffer.from(bytes.subarray(i, i + 20)).toString("hex"));
    return out;
  }

  private setAddresses(list: readonly string[]): void {
    if (list.length === 0) this.kv.delete(this.key(0x03));
    else this.kv.put(this.key(0x03), Uint8Array.from(Buffer.concat(list.map((a) => Buffer.from(a, "hex")))));
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Registers `address` with `stake` (already debited from it by the caller) and its BLS key,
   * proven by `proof` (proof of possession, rogue-key protection). Active from
   * {@link firstEpochAfter}(`height`): the next epoch when registered before its freeze point,
   * the one after otherwise (from epoch 0 when `genesis`).
   */
  register(input: {
    address: string;
    stake: bigint;
    blsKey: Uint8Array;
    proof: Uint8Array;
    height: number;
    genesis?: boolean;
  }): ValidatorRecord {
    const { address, stake, blsKey, proof, height } = input;
    checkAddress(address);
    checkHeight(height);
    checkAmount(stake);
    if (!(blsKey instanceof Uint8Array) || blsKey.length !== 48)
      throw new ValidatorError("BAD_KEY", "a BLS public key is 48 bytes");
    if (stake < this.params.minStake)
      throw new ValidatorError(
        "STAKE_TOO_LOW",
        `stake ${stake} is below the minimum ${this.params.minStake}`,
        {
          stake,
          min: this.params.minStake,
        },
      );
    if (this.get(address) !== null)
      throw new ValidatorError("ALREADY_REGISTERED", `${address} is already registered`, { address });
    const keyOwner = this.key(0x02, blsKey);
    if (this.kv.get(keyOwner) !== undefined)
      throw new ValidatorError("KEY_IN_USE", "this BLS key is registered by another validator");
    let valid = false;
    try {
      valid = this.crypto.verifyProofOfPossession(blsKey, proof);
    } catch {
      valid = false;
    }
    if (!valid)
      throw new ValidatorError("BAD_PROOF_OF_POSSESSION", "the proof of possession does not verify");
    const record: ValidatorRecord = {
      address,
      blsKey: Uint8Array.from(blsKey),
      stake,
      status: "bonded",
      registeredHeight: height,
      activationEpoch: input.genesis === true ? 0 : this.firstEpochAfter(height),
      exitHeight: 0,
      jailedUntil: 0,
      jailCount: 0,
      slashed: 0n,
      livenessWindow: Math.floor(height / this.params.downtimeWindow),
      missed: 0,
    };
    this.put(record);
    this.kv.put(keyOwner, Uint8Array.from(Buffer.from(address, "hex")));
    this.setAddresses([...this.addresses(), address].sort());
    return record;
  }

  /** Starts unbonding: the validator leaves the set at the next epoch boundary. */
  beginExit(address: string, height: number): ValidatorRecord {
    checkHeight(height);
    const r = this.must(address);
    if (r.status !== "bonded")
      throw new ValidatorError("NOT_BONDED", `${address} is already exiting`, { address });
    const next: ValidatorRecord = { ...r, status: "exiting", exitHeight: height };
    this.put(next);
    return next;
  }

  /** Height from which an exiting validator can withdraw. */
  unbondedAt(r: ValidatorRecord): number {
    return r.exitHeight + this.params.unbondingBlocks;
  }

  /**
   * Ends an exit after the unbonding period: removes the validator and returns the stake to
   * credit back to its account. The BLS key stays reserved (keys are never reused). Refused
   * (`STILL_UNBONDING`) while the validator is still a member of the set of `height`'s epoch or
   * of the next one (a failed resharing keeps the previous set).
   */
  withdraw(address: string, height: number): bigint {
    checkHeight(height);
    const r = this.must(address);
    if (r.status !== "exiting")
      throw new ValidatorError("NOT_EXITING", `${address} has not begun an exit`, { address });
    if (height < this.unbondedAt(r))
      throw new ValidatorError("STILL_UNBONDING", `${address} unbonds at height ${this.unbondedAt(r)}`, {
        address,
        at: this.unbondedAt(r),
      });
    // a failed resharing re-fixes a set to the previous one (replaceSet), which can keep an
    // exiting validator in the running or next set past its unbonding: its stake stays
    // slashable while it is a member
    const epoch = this.epochOf(height);
    for (const e of [epoch, epoch + 1]) {
      const key = this.key(0x04, u64(e));
      if (this.kv.get(key) !== undefined && this.setOf(e).some((m) => m.address === address))
        throw new ValidatorError(
          "STILL_UNBONDING",
          `${address} is still in the validator set of epoch ${e}`,
          {
            address,
            epoch: e,
          },
        );
    }
    this.kv.delete(this.recordKey(address));
    this.setAddresses(this.addresses().filter((a) => a !== address));
    return r.stake;
  }

  /** Releases a jailed validator whose jail has ended; it rejoins the set at the next epoch. */
  unjail(address: string, height: number): ValidatorRecord {
    checkHeight(height);
    const r = this.must(address);
    if (r.jailedUntil === 0) throw new ValidatorError("NOT_JAILED", `${address} is not jailed`, { address });
    if (height < r.jailedUntil)
      throw new ValidatorError("STILL_JAILED", `${address} is jailed until height ${r.jailedUntil}`, {
        address,
        until: r.jailedUntil,
      });
    const next: ValidatorRecord = {
      ...r,
      jailedUntil: 0,
      livenessWindow: Math.floor(height / this.params.downtimeWindow),
      missed: 0,
    };
    this.put(next);
    return next;
  }

  // ---------------------------------------------------------------- epochs

  /** True if `r` belongs in the set of `epoch`. */
  private eligible(r: ValidatorRecord, epoch: number): boolean {
    return (
      r.status === "bonded" &&
      r.jailedUntil === 0 &&
      r.activationEpoch <= epoch &&
      r.stake >= this.params.minStake
    );
  }

  /**
   * Fixes the set of `epoch` (call once, at the freeze point {@link freezeHeight}(`epoch` − 1)
   * before that block's transactions; at genesis for epoch 0): of the bonded, unjailed
   * validators activated by then with at least the minimum stake, the `maxValidators` with the
   * most stake (equal stakes: the lower address first), ordered by address; its position is its
   * consensus index. An eligible validator left out is not in the set (no vote, no reward, no
   * downtime accounting) and may exit and withdraw as usual. Also forgets the set of `epoch` −
   * {@link keptEpochs} (at least the running epoch and the new one stay).
   */
  beginEpoch(epoch: number): SetMember[] {
    checkHeight(epoch);
    const key = this.key(0x04, u64(epoch));
    if (this.kv.get(key) !== undefined)
      throw new ValidatorError("EPOCH_ALREADY_STARTED", `epoch ${epoch} has already started`, { epoch });
    let members: SetMember[] = [];
    for (const address of this.addresses()) {
      const r = this.must(address);
      if (this.eligible(r, epoch)) members.push({ address, blsKey: r.blsKey, stake: r.stake });
    }
    const cap = Math.max(1, this.params.maxValidators);
    if (members.length > cap) {
      // `members` is in address order: a stable sort by stake (descending) breaks ties by address
      const kept = new Set(
        [...members]
          .sort((a, b) => (a.stake === b.stake ? 0 : a.stake > b.stake ? -1 : 1))
          .slice(0, cap)
          .map((m) => m.address),
      );
      members = members.filter((m) => kept.has(m.address));
    }
    this.writeSet(key, members);
    const old = epoch - keptEpochs(this.params);
    if (old >= 0) this.kv.delete(this.key(0x04, u64(old)));
    return members;
  }

  private writeSet(key: Uint8Array, members: readonly SetMember[]): void {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(members.length);
    this.kv.put(
      key,
      Uint8Array.from(
        Buffer.concat([
          head,
          ...members.flatMap((m) => [Buffer.from(m.address, "hex"), Buffer.from(m.blsKey), u64(m.stake)]),
        ]),
      ),
    );
  }

  /**
   * Re-fixes the already fixed set of `epoch` to `members` (same order: the position is the
   * consensus index). Used by the chain when the resharing ceremony of `epoch` fails: the set
   * of `epoch` becomes the previous epoch's (whose validators still hold the group's shares).
   * Throws `EPOCH_NOT_STARTED` when `epoch` has no set, `BAD_KEY` / `BAD_ADDRESS` for a
   * malformed member.
   */
  replaceSet(epoch: number, members: readonly SetMember[]): void {
    checkHeight(epoch);
    const key = this.key(0x04, u64(epoch));
    if (this.kv.get(key) === undefined)
      throw new ValidatorError("EPOCH_NOT_STARTED", `no validator set for epoch ${epoch}`, { epoch });
    for (const m of members) {
      checkAddress(m.address);
      checkAmount(m.stake);
      if (!(m.blsKey instanceof Uint8Array) || m.blsKey.length !== 48)
        throw new ValidatorError("BAD_KEY", "a BLS public key is 48 bytes");
    }
    this.writeSet(key, members);
  }

  /** The set of `epoch` as fixed by {@link beginEpoch}. */
  setOf(epoch: number): SetMember[] {
    const bytes = this.kv.get(this.key(0x04, u64(epoch)));
    if (bytes === undefined)
      throw new ValidatorError("EPOCH_NOT_STARTED", `no validator set for epoch ${epoch}`, { epoch });
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = b.readUInt32BE(0);
    if (b.length !== 4 + n * 76)
      throw new ValidatorError("CORRUPT_STATE", `set of epoch ${epoch} is malformed`);
    const out: SetMember[] = [];
    for (let i = 0; i < n; i++) {
      const at = 4 + i * 76;
      out.push({
        address: b.subarray(at, at + 20).toString("hex"),
        blsKey: Uint8Array.from(b.subarray(at + 20, at + 68)),
        stake: b.readBigUInt64BE(at + 68),
      });
    }
    return out;
  }

  /**
   * Splits `amount` among the members of `epoch` pro rata to stake (one vote per validator
   * in consensus, stake only for rewards). Each gets floor(amount × stake / total); the
   * remainder goes one unit at a time to members in index order. Sums exactly to `amount`.
   */
  rewardShares(epoch: number, amount: bigint): Array<{ address: string; amount: bigint }> {
    checkAmount(amount);
    const members = this.setOf(epoch);
    const total = members.reduce((s, m) => s + m.stake, 0n);
    if (total === 0n) return [];
    const shares = members.map((m) => ({ address: m.address, amount: (amount * m.stake) / total }));
    let rest = amount - shares.reduce((s, x) => s + x.amount, 0n);
    for (let i = 0; rest > 0n; i = (i + 1) % shares.length, rest--) {
      const s = shares[i] as { address: string; amount: bigint };
      s.amount += 1n;
    }
    return shares;
  }

  // ---------------------------------------------------------------- faults

  private jail(r: ValidatorRecord, height: number, slash: bigint): ValidatorRecord {
    const doublings = Math.min(r.jailCount, MAX_JAIL_DOUBLINGS);
    const until = height + this.params.jailBlocks * 2 ** doublings;
    // a validator already in jail stays at least until its current release
    return {
      ...r,
      stake: r.stake - slash,
      slashed: r.slashed + slash,
      jailCount: r.jailCount + 1,
      jailedUntil: Math.max(until, r.jailedUntil),
    };
  }

  /**
   * Checks equivocation evidence against the signer's key in the evidence's epoch set and
   * punishes it: slash `slashBps` of the current stake and jail. Anyone may submit; the same
   * (validator, epoch, view) is punished once. Evidence whose epoch set is gone (older than
   * `keepEpochs`) is refused, as is evidence against a validator that has already withdrawn.
   */
  submitEvidence(evidence: Evidence, height: number): Punishment {
    checkHeight(height);
    try {
      checkEvidenceShape(evidence);
    } catch (err) {
      throw new ValidatorError("BAD_EVIDENCE", (err as EvidenceError).message);
    }
    let members: SetMember[];
    try {
      members = this.setOf(evidence.epoch);
    } catch {
      throw new ValidatorError("EVIDENCE_TOO_OLD", `no validator set is kept for epoch ${evidence.epoch}`);
    }
    const member = members[evidence.signer];
    if (member === undefined)
      throw new ValidatorError("BAD_EVIDENCE", `epoch ${evidence.epoch} has no validator ${evidence.signer}`);
    for (const s of [evidence.a, evidence.b]) {
      let ok = false;
      try {
        if (s.signers === undefined)
          ok = this.crypto.verifyVote(
            member.blsKey,
            s.kind,
            evidence.epoch,
            evidence.view,
            s.height,
            s.block,
            s.signature,
          );
        else {
          const keys = certificateSigners(s.signers, members);
          ok =
            keys !== null &&
            this.crypto.verifyAggregate(
              keys,
              s.kind,
              evidence.epoch,
              evidence.view,
              s.height,
              s.block,
              s.signature,
            );
        }
      } catch {
        ok = false;
      }
      if (!ok)
        throw new ValidatorError(
          "BAD_EVIDENCE",
          `a ${s.kind} ${s.signers === undefined ? "vote" : "certificate"} does not verify`,
        );
    }
    const seen = this.key(0x05, u64(evidence.epoch), u64(evidence.view), Buffer.from(member.address, "hex"));
    if (this.kv.get(seen) !== undefined)
      throw new ValidatorError("DUPLICATE_EVIDENCE", "this equivocation has already been punished");
    const r = this.get(member.address);
    if (r === null) throw new ValidatorError("EVIDENCE_TOO_OLD", `${member.address} has already withdrawn`);
    const slash = (r.stake * BigInt(this.params.slashBps)) / 10_000n;
    const next = this.jail(r, height, slash);
    this.put(next);
    this.kv.put(seen, Uint8Array.of(1));
    return { address: r.address, slashed: slash, jailedUntil: next.jailedUntil };
  }

  /**
   * Downtime accounting for the finalized block at `height` of `epoch`: `participants` are the
   * indices (in the epoch's set) whose votes for it were seen. Members missing from more than
   * `downtimeMaxMissed` blocks of a `downtimeWindow`-block window are jailed (no slash).
   * Returns the newly jailed. Call once per block, in order.
   */
  recordParticipation(epoch: number, height: number, participants: readonly number[]): Punishment[] {
    checkHeight(height);
    const members = this.setOf(epoch);
    const present = new Set(participants);
    const window = Math.floor(height / this.params.downtimeWindow);
    const jailed: Punishment[] = [];
    for (const [i, m] of members.entries()) {
      const r = this.get(m.address);
      if (r === null || r.jailedUntil !== 0) continue;
      let missed = r.livenessWindow === window ? r.missed : 0;
      if (!present.has(i)) missed++;
      let next: ValidatorRecord = { ...r, livenessWindow: window, missed };
      if (missed > this.params.downtimeMaxMissed) {
        next = { ...this.jail(next, height, 0n), missed: 0 };
        jailed.push({ address: r.address, slashed: 0n, jailedUntil: next.jailedUntil });
      }
      if (
        next.missed !== r.missed ||
        next.livenessWindow !== r.livenessWindow ||
        next.jailedUntil !== r.jailedUntil
      )
        this.put(next);
    }
    return jailed;
  }
}

/** Keys of a certificate's signers, or null unless the bitmap is exact (length, padding) and a quorum. */
function certificateSigners(bitmap: Uint8Array, members: readonly SetMember[]): Uint8Array[] | null {
  const n = members.length;
  if (bitmap.length !== Math.ceil(n / 8)) return null;
  const keys: Uint8Array[] = [];
  for (let i = 0; i < bitmap.length * 8; i++) {
    if ((((bitmap[i >> 3] as number) >> (i & 7)) & 1) === 0) continue;
    if (i >= n) return null;
    keys.push((members[i] as SetMember).blsKey);
  }
  return keys.length >= n - Math.floor((n - 1) / 3) ? keys : null;
}

function checkAddress(address: string): void {
  if (typeof address !== "string" || !ADDRESS.test(address))
    throw new ValidatorError("BAD_ADDRESS", "an address is 20 bytes of lowercase hex", { address });
}

function checkHeight(h: number): void {
  if (!Number.isSafeInteger(h) || h < 0)
    throw new ValidatorError("BAD_HEIGHT", "heights and epochs are non-negative integers", { h });
}

function checkAmount(a: bigint): void {
  if (typeof a !== "bigint" || a < 0n || a > MAX_U64)
    throw new ValidatorError("BAD_AMOUNT", "amounts are u64 bigints");
}

/** {@link ValidatorCrypto} over the native BLS addon for chain `chainId` (docs/bls.md). */
export function nativeValidatorCrypto(chainId: bigint): ValidatorCrypto {
  const n = createRequire(import.meta.url)("@cowboy/native") as typeof import("@cowboy/native");
  const verifyVote: ValidatorCrypto["verifyVote"] = (pk, kind, epoch, view, height, block, signature) => {
    const msg =
      kind === "nullify"
        ? n.blsRoundBytes(BigInt(epoch), BigInt(view))
        : n.blsVoteMessage(Buffer.from(block ?? "", "hex"), BigInt(height), BigInt(epoch), BigInt(view));
    return n.blsVerify(Buffer.from(pk), kind, chainId, msg, Buffer.from(signature));
  };
  return {
    verifyProofOfPossession: (pk, proof) =>
      n.blsVerifyProofOfPossession(Buffer.from(pk), chainId, Buffer.from(proof)),
    verifyVote,
    verifyAggregate: (keys, kind, epoch, view, height, block, signature) =>
      verifyVote(
        n.blsAggregatePublicKeys(keys.map((k) => Buffer.from(k))),
        kind,
        epoch,
        view,
        height,
        block,
        signature,
      ),
  };
}
