/**
 * Canonical encoding of {@link Transaction} and {@link Instruction}
 * (spec §2.5, docs/codec.md §2–§3): byte-identical to the Rust crate
 * `cowboy-codec`. Decoding is strict: for every byte string at most one
 * transaction decodes, and `encode(decode(b))` equals `b`.
 */
import { compareBytes } from "./bytes.ts";
import { CodecError } from "./errors.ts";
import { Reader } from "./reader.ts";
import { checkCanonicalSource } from "./source.ts";
import type { AccessListEntry, AdditionalSigner, Instruction, Transaction } from "./types.ts";
import { Writer } from "./writer.ts";

/** Largest transaction encoding in bytes: `max_tx_size = 128 KiB` (spec §12.1). */
export const MAX_TX_SIZE = 131_072;
/** Address size in bytes (spec §1). */
export const ADDRESS_SIZE = 20;
/** Hash / salt / timer id size in bytes. */
export const HASH_SIZE = 32;
/** Signature size: r(32) ‖ s(32) ‖ v(1). */
export const SIGNATURE_SIZE = 65;
/** Largest handler name in bytes. */
export const MAX_HANDLER_LEN = 64;
/** Largest library name in bytes. */
export const MAX_LIBRARY_NAME_LEN = 64;
/** BLS12-381 (MinPk) public key size: compressed G1. */
export const BLS_PUBLIC_KEY_SIZE = 48;
/** BLS12-381 (MinPk) signature size (aggregate, proof of possession): compressed G2. */
export const BLS_SIGNATURE_SIZE = 96;

/** Instruction categories (spec §2.1; numbering docs/codec.md §3). */
export const Category = { System: 0, Actor: 1, Custom: 2, Library: 3 } as const;
/** Sub-types per category. */
export const SubType = {
  Transfer: 1,
  RegisterValidator: 2,
  ExitValidator: 3,
  WithdrawStake: 4,
  UnjailValidator: 5,
  SubmitEvidence: 6,
  SysCancelTimer: 7,
  DkgLog: 8,
  Deploy: 1,
  Call: 2,
  ScheduleTimer: 3,
  CancelTimer: 4,
  Publish: 1,
} as const;

const HANDLER_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LIBRARY_NAME_RE = /^[a-z_][a-z0-9_]*$/;

/** True if `name` is a valid handler name: 1..=64 byte ASCII identifier. */
export function isValidHandler(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_HANDLER_LEN && HANDLER_RE.test(name);
}

/** True if `name` is a valid library name: 1..=64 bytes of `[a-z_][a-z0-9_]*`. */
export function isValidLibraryName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_LIBRARY_NAME_LEN && LIBRARY_NAME_RE.test(name);
}

function checkHandler(name: string, field: string): void {
  if (!isValidHandler(name)) {
    throw new CodecError(
      "INVALID_HANDLER",
      field,
      "handler must be a 1..=64 byte ASCII identifier [A-Za-z_][A-Za-z0-9_]*",
    );
  }
}

function checkLibraryName(name: string, field: string): void {
  if (!isValidLibraryName(name)) {
    throw new CodecError(
      "INVALID_LIBRARY_NAME",
      field,
      "library name must be 1..=64 bytes of [a-z_][a-z0-9_]*",
    );
  }
}

function checkInterval(interval: bigint | null, field: string): void {
  if (interval === 0n) {
    throw new CodecError(
      "INVALID_INTERVAL",
      field,
      "a timer interval must be at least 1 (use none for one-shot)",
    );
  }
}

// ---------------------------------------------------------------------------
// Instruction

/** Writes `[category, sub_type, body]`. */
export function writeInstruction(w: Writer, ix: Instruction): void {
  switch (ix.kind) {
    case "transfer":
      w.u8(Category.System);
      w.u8(SubType.Transfer);
      w.fixed(ix.to, ADDRESS_SIZE, "instruction.to");
      w.u64be(ix.amount, "instruction.amount");
      return;
    case "registerValidator":
      w.u8(Category.System);
      w.u8(SubType.RegisterValidator);
      w.fixed(ix.blsKey, BLS_PUBLIC_KEY_SIZE, "instruction.bls_key");
      w.fixed(ix.proofOfPossession, BLS_SIGNATURE_SIZE, "instruction.proof_of_possession");
      w.u64be(ix.stake, "instruction.stake");
      return;
    case "exitValidator":
      w.u8(Category.System);
      w.u8(SubType.ExitValidator);
      return;
    case "withdrawStake":
      w.u8(Category.System);
      w.u8(SubType.WithdrawStake);
      return;
    case "unjailValidator":
      w.u8(Category.System);
      w.u8(SubType.UnjailValidator);
      return;
    case "submitEvidence":
      w.u8(Category.System);
      w.u8(SubType.SubmitEvidence);
      w.bytes(ix.evidence, "instruction.evidence");
      return;
    case "sysCancelTimer":
      w.u8(Category.System);
      w.u8(SubType.SysCancelTimer);
      w.fixed(ix.actor, ADDRESS_SIZE, "instruction.actor");
      w.fixed(ix.timerId, HASH_SIZE, "instruction.timer_id");
      w.varint(ix.epoch, "instruction.epoch");
      w.bytes(ix.signers, "instruction.signers");
      w.fixed(ix.signature, BLS_SIGNATURE_SIZE, "instruction.signature");
      return;
    case "dkgLog":
      w.u8(Category.System);
      w.u8(SubType.DkgLog);
      w.u64be(ix.ceremony, "instruction.ceremony");
      w.bytes(ix.log, "instruction.log");
      return;
    case "deploy":
      w.u8(Category.Actor);
      w.u8(SubType.Deploy);
      checkCanonicalSource(ix.source, "instruction.source");
      w.bytes(ix.source, "instruction.source");
      w.fixed(ix.salt, HASH_SIZE, "instruction.salt");
      w.bytes(ix.initArgs, "instruction.init_args");
      w.u64be(ix.value, "instruction.value");
      return;
    case "call":
      w.u8(Category.Actor);
      w.u8(SubType.Call);
      w.fixed(ix.to, ADDRESS_SIZE, "instruction.to");
      checkHandler(ix.handler, "instruction.handler");
      w.string(ix.handler, "instruction.handler");
      w.bytes(ix.args, "instruction.args");
      w.u64be(ix.value, "instruction.value");
      return;
    case "scheduleTimer":
      w.u8(Category.Actor);
      w.u8(SubType.ScheduleTimer);
      w.fixed(ix.actor, ADDRESS_SIZE, "instruction.actor");
      w.varint(ix.fireAtHeight, "instruction.fire_at_height");
      checkHandler(ix.handler, "instruction.handler");
      w.string(ix.handler, "instruction.handler");
      w.bytes(ix.data, "instruction.data");
      checkInterval(ix.interval, "instruction.interval");
      w.option(ix.interval !== null);
      if (ix.interval !== null) w.varint(ix.interval, "instruction.interval");
      return;
    case "cancelTimer":
      w.u8(Category.Actor);
      w.u8(SubType.CancelTimer);
      w.fixed(ix.actor, ADDRESS_SIZE, "instruction.actor");
      w.fixed(ix.timerId, HASH_SIZE, "instruction.timer_id");
      return;
    case "custom":
      if (!Number.isInteger(ix.subType) || ix.subType < 0 || ix.subType > 255) {
        throw new CodecError(
          "INVALID_VALUE",
          "instruction.sub_type",
          "custom sub_type must be an integer 0..=255",
        );
      }
      w.u8(Category.Custom);
      w.u8(ix.subType);
      w.bytes(ix.payload, "instruction.payload");
      return;
    case "publishLibrary":
      w.u8(Category.Library);
      w.u8(SubType.Publish);
      checkLibraryName(ix.name, "instruction.name");
      w.string(ix.name, "instruction.name");
      w.varint(ix.version, "instruction.version");
      checkCanonicalSource(ix.source, "instruction.source");
      w.bytes(ix.source, "instruction.source");
      return;
    default: {
      const kind = (ix as { kind?: unknown }).kind;
      throw new CodecError("INVALID_VALUE", "instruction.kind", `unknown instruction kind ${String(kind)}`);
    }
  }
}

/** Reads `[category, sub_type, body]`, enforcing every field rule of docs/codec.md §3. */
export function readInstruction(r: Reader): Instruction {
  const category = r.u8("instruction.category");
  const subType = r.u8("instruction.sub_type");
  if (category > 3) {
    throw new CodecError("UNKNOWN_CATEGORY", "instruction.category", `unknown category ${category}`);
  }
  const unknownSubType = () =>
    new CodecError(
      "UNKNOWN_SUB_TYPE",
      "instruction.sub_type",
      `unknown sub_type ${subType} for category ${category}`,
    );
  switch (category) {
    case Category.System:
      switch (subType) {
        case SubType.Transfer: {
          const to = r.fixed(ADDRESS_SIZE, "instruction.to");
          const amount = r.u64be("instruction.amount");
          return { kind: "transfer", to, amount };
        }
        case SubType.RegisterValidator: {
          const blsKey = r.fixed(BLS_PUBLIC_KEY_SIZE, "instruction.bls_key");
          const proofOfPossession = r.fixed(BLS_SIGNATURE_SIZE, "instruction.proof_of_possession");
          const stake = r.u64be("instruction.stake");
          return { kind: "registerValidator", blsKey, proofOfPossession, stake };
        }
        case SubType.ExitValidator:
          return { kind: "exitValidator" };
        case SubType.WithdrawStake:
          return { kind: "withdrawStake" };
        case SubType.UnjailValidator:
          return { kind: "unjailValidator" };
        case SubType.SubmitEvidence:
          return { kind: "submitEvidence", evidence: r.bytes("instruction.evidence") };
        case SubType.SysCancelTimer: {
          const actor = r.fixed(ADDRESS_SIZE, "instruction.actor");
          const timerId = r.fixed(HASH_SIZE, "instruction.timer_id");
          const epoch = r.varint("instruction.epoch");
          const signers = r.bytes("instruction.signers");
          const signature = r.fixed(BLS_SIGNATURE_SIZE, "instruction.signature");
          return { kind: "sysCancelTimer", actor, timerId, epoch, signers, signature };
        }
        case SubType.DkgLog: {
          const ceremony = r.u64be("instruction.ceremony");
          return { kind: "dkgLog", ceremony, log: r.bytes("instruction.log") };
        }
        default:
          throw unknownSubType();
      }
    case Category.Actor:
      switch (subType) {
        case SubType.Deploy: {
          const source = r.bytes("instruction.source");
          checkCanonicalSource(source, "instruction.source");
          const salt = r.fixed(HASH_SIZE, "instruction.salt");
          const initArgs = r.bytes("instruction.init_args");
          const value = r.u64be("instruction.value");
          return { kind: "deploy", source, salt, initArgs, value };
        }
        case SubType.Call: {
          const to = r.fixed(ADDRESS_SIZE, "instruction.to");
          const handler = r.string("instruction.handler");
          checkHandler(handler, "instruction.handler");
          const args = r.bytes("instruction.args");
          const value = r.u64be("instruction.value");
          return { kind: "call", to, handler, args, value };
        }
        case SubType.ScheduleTimer: {
          const actor = r.fixed(ADDRESS_SIZE, "instruction.actor");
          const fireAtHeight = r.varint("instruction.fire_at_height");
          const handler = r.string("instruction.handler");
          checkHandler(handler, "instruction.handler");
          const data = r.bytes("instruction.data");
          const interval = r.option("instruction.interval") ? r.varint("instruction.interval") : null;
          checkInterval(interval, "instruction.interval");
          return { kind: "scheduleTimer", actor, fireAtHeight, handler, data, interval };
        }
        case SubType.CancelTimer: {
          const actor = r.fixed(ADDRESS_SIZE, "instruction.actor");
          const timerId = r.fixed(HASH_SIZE, "instruction.timer_id");
          return { kind: "cancelTimer", actor, timerId };
        }
        default:
          throw unknownSubType();
      }
    case Category.Custom:
      return { kind: "custom", subType, payload: r.bytes("instruction.payload") };
    default: {
      if (subType !== SubType.Publish) throw unknownSubType();
      const name = r.string("instruction.name");
      checkLibraryName(name, "instruction.name");
      const version = r.varint("instruction.version");
      const source = r.bytes("instruction.source");
      checkCanonicalSource(source, "instruction.source");
      return { kind: "publishLibrary", name, version, source };
    }
  }
}

/** Canonical bytes of an instruction alone. */
export function encodeInstruction(ix: Instruction): Uint8Array {
  const w = new Writer(64);
  writeInstruction(w, ix);
  return w.finish();
}

/** Strictly decodes an instruction alone (no trailing bytes). */
export function decodeInstruction(bytes: Uint8Array): Instruction {
  const r = new Reader(bytes);
  const ix = readInstruction(r);
  r.finish("instruction");
  return ix;
}

// ---------------------------------------------------------------------------
// Transaction

/** Byte offsets of the signature fields inside an encoding (for signing-hash computation). */
export interface SignatureOffsets {
  /** Offset of the primary 65-byte signature. */
  signature: number;
  /** Offsets of each additional signer's 65-byte signature. */
  additional: number[];
}

/** Writes a transaction in the frozen field order (no size check; see {@link encodeTransaction}). */
export function writeTransaction(w: Writer, tx: Transaction, offsets?: SignatureOffsets): void {
  w.varint(tx.chainId, "chain_id");
  w.varint(tx.nonce, "nonce");
  writeInstruction(w, tx.instruction);
  w.varint(tx.cyclesLimit, "cycles_limit");
  w.varint(tx.cellsLimit, "cells_limit");
  w.varint(tx.maxFeePerCycle, "max_fee_per_cycle");
  w.varint(tx.maxFeePerCell, "max_fee_per_cell");
  w.varint(tx.maxPriorityFeePerCycle, "max_priority_fee_per_cycle");
  w.varint(tx.maxPriorityFeePerCell, "max_priority_fee_per_cell");
  w.fixed(tx.from, ADDRESS_SIZE, "from");
  w.option(tx.accessList !== null);
  if (tx.accessList !== null) {
    w.len(tx.accessList.length, "access_list");
    tx.accessList.forEach((entry, i) => {
      w.fixed(entry.address, ADDRESS_SIZE, `access_list[${i}].address`);
      w.len(entry.storageKeys.length, `access_list[${i}].storage_keys`);
      entry.storageKeys.forEach((key, j) => {
        w.bytes(key, `access_list[${i}].storage_keys[${j}]`);
      });
    });
  }
  w.bytes(tx.metadata, "metadata");
  w.option(tx.originTxHash !== null);
  if (tx.originTxHash !== null) w.fixed(tx.originTxHash, HASH_SIZE, "origin_tx_hash");
  w.option(tx.originRemainingCycles !== null);
  if (tx.originRemainingCycles !== null) w.varint(tx.originRemainingCycles, "origin_remaining_cycles");
  w.option(tx.originRemainingCells !== null);
  if (tx.originRemainingCells !== null) w.varint(tx.originRemainingCells, "origin_remaining_cells");
  if (offsets) offsets.signature = w.pos;
  w.fixed(tx.signature, SIGNATURE_SIZE, "signature");
  w.len(tx.additionalSigners.length, "additional_signers");
  let prev: Uint8Array | null = null;
  tx.additionalSigners.forEach((signer, i) => {
    w.fixed(signer.address, ADDRESS_SIZE, `additional_signers[${i}].address`);
    if (prev !== null && compareBytes(prev, signer.address) >= 0) throw notAscending(i);
    prev = signer.address;
    if (offsets) offsets.additional.push(w.pos);
    w.fixed(signer.signature, SIGNATURE_SIZE, `additional_signers[${i}].signature`);
  });
}

function checkAscending(signers: readonly AdditionalSigner[]): void {
  for (let i = 1; i < signers.length; i++) {
    if (
      compareBytes((signers[i - 1] as AdditionalSigner).address, (signers[i] as AdditionalSigner).address) >=
      0
    ) {
      throw notAscending(i);
    }
  }
}

function notAscending(index: number): CodecError {
  return new CodecError(
    "SIGNERS_NOT_ASCENDING",
    `additional_signers[${index}].address`,
    "signers must be strictly ascending by address",
  );
}

/** The `TX_TOO_LARGE` error for an encoding of `size` bytes. */
export function txTooLarge(size: number): CodecError {
  return new CodecError(
    "TX_TOO_LARGE",
    "transaction",
    `encoding is ${size} bytes, more than MAX_TX_SIZE = ${MAX_TX_SIZE}`,
  );
}

/**
 * Canonical bytes of `tx`. Throws {@link CodecError} if a field breaks a rule
 * the decoder enforces (handler, library name, interval, canonical source,
 * ascending signers), if a value is not representable (`INVALID_VALUE`), or if
 * the encoding exceeds {@link MAX_TX_SIZE} (`TX_TOO_LARGE`).
 */
export function encodeTransaction(tx: Transaction): Uint8Array {
  const w = new Writer(256);
  writeTransaction(w, tx);
  if (w.pos > MAX_TX_SIZE) throw txTooLarge(w.pos);
  return w.finish();
}

/** Reads one transaction from `r` (no size or trailing-bytes check). */
export function readTransaction(r: Reader, offsets?: SignatureOffsets): Transaction {
  const chainId = r.varint("chain_id");
  const nonce = r.varint("nonce");
  const instruction = readInstruction(r);
  const cyclesLimit = r.varint("cycles_limit");
  const cellsLimit = r.varint("cells_limit");
  const maxFeePerCycle = r.varint("max_fee_per_cycle");
  const maxFeePerCell = r.varint("max_fee_per_cell");
  const maxPriorityFeePerCycle = r.varint("max_priority_fee_per_cycle");
  const maxPriorityFeePerCell = r.varint("max_priority_fee_per_cell");
  const from = r.fixed(ADDRESS_SIZE, "from");
  let accessList: AccessListEntry[] | null = null;
  if (r.option("access_list")) {
    // Smallest entry: 20-byte address + 1-byte empty key count.
    const n = r.len("access_list", ADDRESS_SIZE + 1);
    accessList = [];
    for (let i = 0; i < n; i++) {
      const address = r.fixed(ADDRESS_SIZE, `access_list[${i}].address`);
      const k = r.len(`access_list[${i}].storage_keys`);
      const storageKeys: Uint8Array[] = [];
      for (let j = 0; j < k; j++) storageKeys.push(r.bytes(`access_list[${i}].storage_keys[${j}]`));
      accessList.push({ address, storageKeys });
    }
  }
  const metadata = r.bytes("metadata");
  const originTxHash = r.option("origin_tx_hash") ? r.fixed(HASH_SIZE, "origin_tx_hash") : null;
  const originRemainingCycles = r.option("origin_remaining_cycles")
    ? r.varint("origin_remaining_cycles")
    : null;
  const originRemainingCells = r.option("origin_remaining_cells") ? r.varint("origin_remaining_cells") : null;
  if (offsets) offsets.signature = r.pos;
  const signature = r.fixed(SIGNATURE_SIZE, "signature");
  const n = r.len("additional_signers", ADDRESS_SIZE + SIGNATURE_SIZE);
  const additionalSigners: AdditionalSigner[] = [];
  for (let i = 0; i < n; i++) {
    const address = r.fixed(ADDRESS_SIZE, `additional_signers[${i}].address`);
    if (offsets) offsets.additional.push(r.pos);
    const sig = r.fixed(SIGNATURE_SIZE, `additional_signers[${i}].signature`);
    additionalSigners.push({ address, signature: sig });
  }
  checkAscending(additionalSigners);
  return {
    chainId,
    nonce,
    instruction,
    cyclesLimit,
    cellsLimit,
    maxFeePerCycle,
    maxFeePerCell,
    maxPriorityFeePerCycle,
    maxPriorityFeePerCell,
    from,
    accessList,
    metadata,
    originTxHash,
    originRemainingCycles,
    originRemainingCells,
    signature,
    additionalSigners,
  };
}

/**
 * Strictly decodes one transaction. Throws {@link CodecError} for any input
 * that is not the canonical encoding of a transaction: `TX_TOO_LARGE` (checked
 * first), then the first violated rule in field order, then `TRAILING_BYTES`.
 */
export function decodeTransaction(bytes: Uint8Array, offsets?: SignatureOffsets): Transaction {
  if (bytes.length > MAX_TX_SIZE) throw txTooLarge(bytes.length);
  const r = new Reader(bytes);
  const tx = readTransaction(r, offsets);
  r.finish("transaction");
  return tx;
}
