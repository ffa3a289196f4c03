/**
 * The validator set as clients see it (docs/validator.md "Running a validator"):
 * typed forms of `cowboy_getValidators` / `cowboy_getValidator` (docs/rpc.md) and of the
 * receipt errors of the validator System instructions (`ERR_VALIDATOR_<code>: …`,
 * docs/execution.md "Validator set"), each with the fix an operator should apply.
 * Pure TypeScript, like the rest of the client.
 */
import { toHex } from "../bytes.ts";
import type { Address } from "../types.ts";
import { ResponseShapeError } from "./errors.ts";
import type { RpcReceipt } from "./formats.ts";
import { Shape } from "./hex.ts";

/** A validator's lifecycle state: `bonded` (in the set from its activation epoch) or `exiting` (unbonding). */
export type ValidatorStatus = "bonded" | "exiting";

/** One validator's record (`cowboy_getValidator`). Heights and epochs are block heights / epoch numbers. */
export interface RpcValidator {
  /** the operator account (the stake is its own) */
  address: Address;
  /** 48-byte BLS public key */
  blsKey: Uint8Array;
  /** bonded stake, base units (after slashing) */
  stake: bigint;
  status: ValidatorStatus;
  registeredHeight: bigint;
  /** first epoch the validator may be in the set */
  activationEpoch: bigint;
  /** height the exit began (0 while bonded) */
  exitHeight: bigint;
  /** jailed until this height (exclusive); 0 = not jailed */
  jailedUntil: bigint;
  /** times jailed so far (each jail doubles the next one's length) */
  jailCount: number;
  /** total slashed, base units */
  slashed: bigint;
  /** votes missed in the current downtime window */
  missed: number;
  /** the node's JSON */
  raw: Record<string, unknown>;
}

/** One member of an epoch's set; `index` is its consensus index (the position in the set). */
export interface RpcSetMember {
  index: number;
  address: Address;
  blsKey: Uint8Array;
  stake: bigint;
}

/** An epoch's validator set (`cowboy_getValidators`), in consensus-index order. */
export interface RpcValidatorSet {
  epoch: bigint;
  validators: RpcSetMember[];
  /** sum of the members' stakes */
  totalStake: bigint;
  raw: Record<string, unknown>;
}

function smallInt(s: Shape, key: string): number {
  const v = s.raw(key);
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new ResponseShapeError(
      `${s.path}.${key}`,
      `expected a non-negative integer, got ${JSON.stringify(v)}`,
    );
  return v;
}

/** Parses a validator record. */
export function parseValidator(value: unknown, path = "validator"): RpcValidator {
  const s = new Shape(value, path);
  const status = s.string("status");
  if (status !== "bonded" && status !== "exiting")
    throw new ResponseShapeError(
      `${path}.status`,
      `expected "bonded" or "exiting", got ${JSON.stringify(status)}`,
    );
  return {
    address: s.data("address", 20),
    blsKey: s.data("blsKey", 48),
    stake: s.quantity("stake"),
    status,
    registeredHeight: s.quantity("registeredHeight"),
    activationEpoch: s.quantity("activationEpoch"),
    exitHeight: s.quantity("exitHeight"),
    jailedUntil: s.quantity("jailedUntil"),
    jailCount: smallInt(s, "jailCount"),
    slashed: s.quantity("slashed"),
    missed: smallInt(s, "missed"),
    raw: s.value,
  };
}

/** Parses an epoch's set. */
export function parseValidatorSet(value: unknown, path = "validators"): RpcValidatorSet {
  const s = new Shape(value, path);
  let totalStake = 0n;
  const validators = s.array("validators").map((m, i) => {
    const ms = new Shape(m, `${path}.validators[${i}]`);
    const index = smallInt(ms, "index");
    if (index !== i)
      throw new ResponseShapeError(
        `${path}.validators[${i}].index`,
        `expected ${i} (index order), got ${index}`,
      );
    const member = {
      index,
      address: ms.data("address", 20),
      blsKey: ms.data("blsKey", 48),
      stake: ms.quantity("stake"),
    };
    totalStake += member.stake;
    return member;
  });
  return { epoch: s.quantity("epoch"), validators, totalStake, raw: s.value };
}

/** Base units per CBY (for messages). */
const UNITS_PER_CBY = 1_000_000_000n;

function cby(units: bigint): string {
  const whole = units / UNITS_PER_CBY;
  const frac = (units % UNITS_PER_CBY).toString().padStart(9, "0").replace(/0+$/, "");
  return `${whole}${frac === "" ? "" : `.${frac}`} CBY`;
}

/** What a failed validator transaction's receipt error says, with how to fix it. */
export interface ValidatorFailure {
  /** the registry's code, e.g. `STAKE_TOO_LOW`, `STILL_UNBONDING`, `BALANCE` */
  code: string;
  /** `ERR_VALIDATOR_<code>` */
  errCode: string;
  /** the node's message */
  detail: string;
  /** what to do about it */
  fix: string;
  /** numbers the message carries: `minStake`, `stake`, `balance`, `unbondsAt`, `jailedUntil` */
  values: Record<string, bigint>;
}

/**
 * Parses a receipt error of a validator instruction (`ERR_VALIDATOR_<code>: <detail>`);
 * null when `text` is not one.
 */
export function parseValidatorError(text: string | null): ValidatorFailure | null {
  if (text === null) return null;
  const m = /^ERR_VALIDATOR_([A-Z_]+):\s*([\s\S]*)$/.exec(text.trim());
  if (m === null) return null;
  const code = m[1] as string;
  const detail = m[2] as string;
  const values: Record<string, bigint> = {};
  const num = (re: RegExp, ...names: string[]) => {
    const r = re.exec(detail);
    if (r === null) return;
    for (const [i, n] of names.entries()) values[n] = BigInt(r[i + 1] as string);
  };
  let fix: string;
  switch (code) {
    case "STAKE_TOO_LOW":
      num(/stake ([0-9]+) is below the minimum ([0-9]+)/, "stake", "minStake");
      fix =
        values.minStake !== undefined
          ? `stake at least the minimum ${cby(values.minStake)} (${values.minStake} base units)`
          : "stake at least the chain's minimum";
      break;
    case "BALANCE":
      num(/balance ([0-9]+) < stake ([0-9]+)/, "balance", "stake");
      fix = "fund the operator account with the stake plus the fee, or stake less";
      break;
    case "ALREADY_REGISTERED":
      fix = "this account is already a validator: check it with getValidator / `cowboy validator status`";
      break;
    case "KEY_IN_USE":
      fix = "another validator registered this BLS key: generate a fresh one (`cowboy validator keygen`)";
      break;
    case "BAD_PROOF_OF_POSSESSION":
      fix =
        "the proof of possession must sign the BLS key for this chain id: recompute it for the node's chain";
      break;
    case "BAD_KEY":
      fix = "the BLS public key must be 48 bytes";
      break;
    case "UNKNOWN_VALIDATOR":
      fix = "the sender is not a validator: sign with the operator account that registered";
      break;
    case "NOT_BONDED":
      fix = "the validator is already exiting; withdraw its stake once unbonded";
      break;
    case "NOT_EXITING":
      fix = "exit first (exitValidator), then withdraw after the unbonding period";
      break;
    case "STILL_UNBONDING":
      num(/unbonds at height ([0-9]+)/, "unbondsAt");
      fix =
        values.unbondsAt !== undefined
          ? `wait until block ${values.unbondsAt}, then withdraw again`
          : "wait for the unbonding period to end, then withdraw again";
      break;
    case "NOT_JAILED":
      fix = "the validator is not jailed: nothing to do";
      break;
    case "STILL_JAILED":
      num(/jailed until height ([0-9]+)/, "jailedUntil");
      fix =
        values.jailedUntil !== undefined
          ? `wait until block ${values.jailedUntil}, then unjail again`
          : "wait for the jail to end, then unjail again";
      break;
    case "BAD_EVIDENCE":
    case "EVIDENCE_TOO_OLD":
    case "DUPLICATE_EVIDENCE":
      fix = "the evidence is not punishable (malformed, too old or already punished)";
      break;
    default:
      fix = "see docs/validator.md";
  }
  return { code, errCode: `ERR_VALIDATOR_${code}`, detail, fix, values };
}

/** A validator transaction was included but failed; `failure` says why and how to fix it. */
export class ValidatorTxError extends Error {
  readonly failure: ValidatorFailure | null;
  readonly receipt: RpcReceipt;

  constructor(receipt: RpcReceipt) {
    const failure = parseValidatorError(receipt.error);
    super(
      failure !== null
        ? `${failure.detail} (${failure.fix})`
        : `transaction ${toHex(receipt.transactionHash)} failed: ${receipt.error ?? receipt.status}`,
    );
    this.name = "ValidatorTxError";
    this.failure = failure;
    this.receipt = receipt;
  }

  get errCode(): string {
    return this.failure?.errCode ?? "ERR_VALIDATOR_TX_FAILED";
  }
}

/** Throws {@link ValidatorTxError} unless `receipt` succeeded; returns it otherwise. */
export function checkValidatorReceipt(receipt: RpcReceipt): RpcReceipt {
  if (receipt.status !== "success") throw new ValidatorTxError(receipt);
  return receipt;
}
