/**
 * Building unsigned transactions: every field of {@link Transaction} that a
 * sender does not choose (reserved access list, `origin_*`, zero signature, no
 * co-signers) filled in once, so callers name only what they mean — chain,
 * nonce, sender, instruction and the meter limits and fee caps. The result is
 * signed with `signTransaction` and encoded with `encodeTransaction`:
 *
 * ```text
 * encodeTransaction(signTransaction(transferTransaction({ chainId, nonce, from, to, amount }), key))
 * ```
 *
 * The builders check their inputs the way the encoder would (a {@link CodecError}
 * `INVALID_VALUE` naming the field), but at build time, so a bad amount or
 * address is reported where it was written rather than when the transaction is
 * signed or encoded.
 */
import { CodecError } from "./errors.ts";
import { ADDRESS_SIZE, SIGNATURE_SIZE } from "./tx.ts";
import type { Address, Instruction, Transaction } from "./types.ts";
import { checkU64 } from "./writer.ts";

/**
 * The meter limits and fee caps of a transaction (spec §2.5, §17): at most
 * `cyclesLimit` cycles and `cellsLimit` cells, paying at most `maxFeePerCycle` /
 * `maxFeePerCell` per unit (basefee + tip), of which at most
 * `maxPriorityFeePerCycle` / `maxPriorityFeePerCell` is the proposer's tip.
 * Every value is a u64 `bigint`.
 */
export type TxLimits = Pick<
  Transaction,
  | "cyclesLimit"
  | "cellsLimit"
  | "maxFeePerCycle"
  | "maxFeePerCell"
  | "maxPriorityFeePerCycle"
  | "maxPriorityFeePerCell"
>;

/** Spec §17.8: the basefee floor of both meters (`MIN_BASEFEE`); a basefee never goes below it. */
export const MIN_BASEFEE = 10_000n;

/** Spec §17.2: the intrinsic cycles of a Transfer (a transfer uses exactly these, and 0 cells). */
export const TRANSFER_CYCLES = 21_000n;

/**
 * The limits {@link transferTransaction} uses for what the caller leaves out:
 * exactly the §17.2 intrinsic cost of a transfer (21,000 cycles, 0 cells — a
 * transfer uses exactly that, so higher limits only reserve more of the balance),
 * fee caps of twice the §17.8 basefee floor (20,000 per unit: admitted while the
 * chain's basefees stay at most twice the floor; on a busy chain read the
 * basefees — `getStatus`, `estimateFee` — and pass higher caps) and no tip.
 * They also fit the other instructions charged the Transfer row of §17.2
 * (`registerValidator`, `exitValidator`, `withdrawStake`, `unjailValidator`).
 * Frozen.
 */
export const DEFAULT_TRANSFER_LIMITS: Readonly<TxLimits> = Object.freeze({
  cyclesLimit: TRANSFER_CYCLES,
  cellsLimit: 0n,
  maxFeePerCycle: 2n * MIN_BASEFEE,
  maxFeePerCell: 2n * MIN_BASEFEE,
  maxPriorityFeePerCycle: 0n,
  maxPriorityFeePerCell: 0n,
});

/** What {@link unsignedTransaction} builds a transaction from. */
export interface UnsignedTransactionFields {
  chainId: bigint;
  nonce: bigint;
  instruction: Instruction;
  /** The sender: the address of the key that will sign (20 bytes). */
  from: Address;
  /** Limits and fee caps; each one left out is 0. */
  limits?: Partial<TxLimits>;
  /** Free-form metadata bytes (default empty). */
  metadata?: Uint8Array;
}

/**
 * The unsigned transaction of `fields`: zero signature, no co-signers, no access
 * list, no `origin_*` (those are only set on system-injected transactions).
 * Limits left out are 0 — with all of them left out this is the shape
 * `cowboy_estimateFee` takes. `instruction` is not checked here (the encoder
 * does, with the same typed errors).
 *
 * Throws {@link CodecError} `INVALID_VALUE` if `chainId`, `nonce` or a limit is
 * not a u64 `bigint` (field `chain_id`, `nonce`, `cycles_limit`, …) or `from` is
 * not exactly 20 bytes (field `from`).
 */
export function unsignedTransaction(fields: UnsignedTransactionFields): Transaction {
  const { chainId, nonce, instruction, from, limits = {}, metadata = new Uint8Array(0) } = fields;
  checkU64(chainId, "chain_id");
  checkU64(nonce, "nonce");
  checkAddress(from, "from");
  const tx: Transaction = {
    chainId,
    nonce,
    instruction,
    cyclesLimit: limits.cyclesLimit ?? 0n,
    cellsLimit: limits.cellsLimit ?? 0n,
    maxFeePerCycle: limits.maxFeePerCycle ?? 0n,
    maxFeePerCell: limits.maxFeePerCell ?? 0n,
    maxPriorityFeePerCycle: limits.maxPriorityFeePerCycle ?? 0n,
    maxPriorityFeePerCell: limits.maxPriorityFeePerCell ?? 0n,
    from,
    accessList: null,
    metadata,
    originTxHash: null,
    originRemainingCycles: null,
    originRemainingCells: null,
    signature: new Uint8Array(SIGNATURE_SIZE),
    additionalSigners: [],
  };
  checkU64(tx.cyclesLimit, "cycles_limit");
  checkU64(tx.cellsLimit, "cells_limit");
  checkU64(tx.maxFeePerCycle, "max_fee_per_cycle");
  checkU64(tx.maxFeePerCell, "max_fee_per_cell");
  checkU64(tx.maxPriorityFeePerCycle, "max_priority_fee_per_cycle");
  checkU64(tx.maxPriorityFeePerCell, "max_priority_fee_per_cell");
  return tx;
}

/** What {@link transferTransaction} builds a transfer from. */
export interface TransferFields {
  chainId: bigint;
  nonce: bigint;
  /** The sender: the address of the key that will sign (20 bytes). */
  from: Address;
  /** The recipient (20 bytes). */
  to: Address;
  /** Base units to move (u64; 1 CBY = 10^9 units). */
  amount: bigint;
  /** Limits and fee caps; each one left out is taken from {@link DEFAULT_TRANSFER_LIMITS}. */
  limits?: Partial<TxLimits>;
  /** Free-form metadata bytes (default empty). */
  metadata?: Uint8Array;
}

/**
 * The unsigned System Transfer of `amount` base units from `from` to `to`
 * (spec §2.1), with {@link DEFAULT_TRANSFER_LIMITS} for every limit not given.
 * Sign it with `signTransaction(tx, key)` (the key must be `from`'s) and encode
 * it with `encodeTransaction`.
 *
 * Throws {@link CodecError} `INVALID_VALUE` if `amount` is not a u64 `bigint`
 * (negative, too large, or a `number`; field `instruction.amount`), `to` is not
 * exactly 20 bytes (field `instruction.to`), or for any rule of
 * {@link unsignedTransaction}.
 */
export function transferTransaction(fields: TransferFields): Transaction {
  const { to, amount, limits, ...rest } = fields;
  checkAddress(to, "instruction.to");
  checkU64(amount, "instruction.amount");
  return unsignedTransaction({
    ...rest,
    instruction: { kind: "transfer", to, amount },
    limits: { ...DEFAULT_TRANSFER_LIMITS, ...definedOnly(limits) },
  });
}

function checkAddress(address: Address, field: string): void {
  if (!(address instanceof Uint8Array) || address.length !== ADDRESS_SIZE) {
    throw new CodecError("INVALID_VALUE", field, `expected exactly ${ADDRESS_SIZE} bytes (an address)`);
  }
}

/** `limits` without the keys whose value is `undefined` (so they do not hide a default). */
function definedOnly(limits: Partial<TxLimits> | undefined): Partial<TxLimits> {
  if (limits === undefined) return {};
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) as Partial<TxLimits>;
}
