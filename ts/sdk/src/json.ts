/**
 * The JSON form of a transaction (`TxJson`, docs/codec.md §8), identical to
 * the native addon's: u64 values as decimal strings, bytes as `0x` hex
 * (lowercase on output, any case of the digits on input), `null` for absent
 * options. {@link fromJson} is strict: unknown keys, wrong widths, malformed
 * numbers are {@link TxJsonError}s (`ERR_TX_JSON_FIELD`) naming the path, with
 * the wording of the Rust crate; field rules (handler, library name, interval,
 * canonical source, ascending signers, size) are the codec's {@link CodecError}s.
 */
import {
  type Block,
  type BlockHeader,
  blockHash,
  CERTIFICATE_KINDS,
  type Certificate,
  type CertificateKind,
  RECEIPT_STATUSES,
  type Receipt,
  type ReceiptStatus,
  type Round,
  receiptHash,
} from "./block.ts";
import { parseHexDigits, toHex } from "./bytes.ts";
import { signingHash } from "./crypto.ts";
import { CodecError, inField, TxJsonError } from "./errors.ts";
import {
  ADDRESS_SIZE,
  BLS_PUBLIC_KEY_SIZE,
  BLS_SIGNATURE_SIZE,
  encodeTransaction,
  HASH_SIZE,
  SIGNATURE_SIZE,
} from "./tx.ts";
import type { AccessListEntry, AdditionalSigner, Instruction, Transaction } from "./types.ts";

/** Instruction in JSON form; `kind` selects the variant. */
export type InstructionJson =
  | { kind: "transfer"; to: string; amount: string }
  | { kind: "registerValidator"; blsKey: string; proofOfPossession: string; stake: string }
  | { kind: "exitValidator" }
  | { kind: "withdrawStake" }
  | { kind: "unjailValidator" }
  | { kind: "submitEvidence"; evidence: string }
  | {
      kind: "sysCancelTimer";
      actor: string;
      timerId: string;
      epoch: string;
      signers: string;
      signature: string;
    }
  | { kind: "dkgLog"; ceremony: string; log: string }
  | { kind: "deploy"; source: string; salt: string; initArgs: string; value: string }
  | { kind: "call"; to: string; handler: string; args: string; value: string }
  | {
      kind: "scheduleTimer";
      actor: string;
      fireAtHeight: string;
      handler: string;
      data: string;
      interval: string | null;
    }
  | { kind: "cancelTimer"; actor: string; timerId: string }
  | { kind: "custom"; subType: number; payload: string }
  | { kind: "publishLibrary"; name: string; version: string; source: string };

/** Access-list entry in JSON form. */
export type AccessListEntryJson = {
  address: string;
  storageKeys: string[];
};

/** Additional signer in JSON form. */
export type AdditionalSignerJson = {
  address: string;
  signature: string;
};

/** A transaction in JSON form (docs/codec.md §8). `signingHash` is output only. */
export type TxJson = {
  chainId: string;
  nonce: string;
  instruction: InstructionJson;
  cyclesLimit: string;
  cellsLimit: string;
  maxFeePerCycle: string;
  maxFeePerCell: string;
  maxPriorityFeePerCycle: string;
  maxPriorityFeePerCell: string;
  from: string;
  accessList: AccessListEntryJson[] | null;
  metadata: string;
  originTxHash: string | null;
  originRemainingCycles: string | null;
  originRemainingCells: string | null;
  signature: string;
  additionalSigners: AdditionalSignerJson[];
  signingHash?: string;
};

// ---------------------------------------------------------------------------
// Output

function instructionToJson(ix: Instruction): InstructionJson {
  switch (ix.kind) {
    case "transfer":
      return { kind: "transfer", to: toHex(ix.to), amount: ix.amount.toString() };
    case "registerValidator":
      return {
        kind: "registerValidator",
        blsKey: toHex(ix.blsKey),
        proofOfPossession: toHex(ix.proofOfPossession),
        stake: ix.stake.toString(),
      };
    case "exitValidator":
    case "withdrawStake":
    case "unjailValidator":
      return { kind: ix.kind };
    case "submitEvidence":
      return { kind: "submitEvidence", evidence: toHex(ix.evidence) };
    case "sysCancelTimer":
      return {
        kind: "sysCancelTimer",
        actor: toHex(ix.actor),
        timerId: toHex(ix.timerId),
        epoch: ix.epoch.toString(),
        signers: toHex(ix.signers),
        signature: toHex(ix.signature),
      };
    case "dkgLog":
      return { kind: "dkgLog", ceremony: ix.ceremony.toString(), log: toHex(ix.log) };
    case "deploy":
      return {
        kind: "deploy",
        source: toHex(ix.source),
        salt: toHex(ix.salt),
        initArgs: toHex(ix.initArgs),
        value: ix.value.toString(),
      };
    case "call":
      return {
        kind: "call",
        to: toHex(ix.to),
        handler: ix.handler,
        args: toHex(ix.args),
        value: ix.value.toString(),
      };
    case "scheduleTimer":
      return {
        kind: "scheduleTimer",
        actor: toHex(ix.actor),
        fireAtHeight: ix.fireAtHeight.toString(),
        handler: ix.handler,
        data: toHex(ix.data),
        interval: ix.interval === null ? null : ix.interval.toString(),
      };
    case "cancelTimer":
      return { kind: "cancelTimer", actor: toHex(ix.actor), timerId: toHex(ix.timerId) };
    case "custom":
      return { kind: "custom", subType: ix.subType, payload: toHex(ix.payload) };
    case "publishLibrary":
      return {
        kind: "publishLibrary",
        name: ix.name,
        version: ix.version.toString(),
        source: toHex(ix.source),
      };
  }
}

/**
 * JSON form of `tx` (every key present, in the frozen field order). With
 * `signingHash` given (e.g. from {@link signingHash}), it is added as the last key.
 */
export function toJson(tx: Transaction, signingHash?: Uint8Array): TxJson {
  const out: TxJson = {
    chainId: tx.chainId.toString(),
    nonce: tx.nonce.toString(),
    instruction: instructionToJson(tx.instruction),
    cyclesLimit: tx.cyclesLimit.toString(),
    cellsLimit: tx.cellsLimit.toString(),
    maxFeePerCycle: tx.maxFeePerCycle.toString(),
    maxFeePerCell: tx.maxFeePerCell.toString(),
    maxPriorityFeePerCycle: tx.maxPriorityFeePerCycle.toString(),
    maxPriorityFeePerCell: tx.maxPriorityFeePerCell.toString(),
    from: toHex(tx.from),
    accessList:
      tx.accessList === null
        ? null
        : tx.accessList.map((e) => ({ address: toHex(e.address), storageKeys: e.storageKeys.map(toHex) })),
    metadata: toHex(tx.metadata),
    originTxHash: tx.originTxHash === null ? null : toHex(tx.originTxHash),
    originRemainingCycles: tx.originRemainingCycles === null ? null : tx.originRemainingCycles.toString(),
    originRemainingCells: tx.originRemainingCells === null ? null : tx.originRemainingCells.toString(),
    signature: toHex(tx.signature),
    additionalSigners: tx.additionalSigners.map((s) => ({
      address: toHex(s.address),
      signature: toHex(s.signature),
    })),
  };
  if (signingHash !== undefined) out.signingHash = toHex(signingHash);
  return out;
}

// ---------------------------------------------------------------------------
// Input (checks and messages in the order and wording of the Rust crate's json.rs)

const MAX_U64 = 0xffff_ffff_ffff_ffffn;
const U64_MESSAGE = "expected a decimal u64 string (0..=18446744073709551615, no sign, no leading zeros)";

type Obj = Record<string, unknown>;

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** A JSON object being read at `path`; `null` counts as absent everywhere. */
class Fields {
  readonly o: Obj;
  readonly path: string;

  constructor(value: unknown, path: string) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new TxJsonError(path === "" ? "$" : path, "expected an object");
    }
    this.o = value as Obj;
    this.path = path;
  }

  only(allowed: readonly string[]): void {
    for (const key of Object.keys(this.o)) {
      if (!allowed.includes(key)) throw new TxJsonError(join(this.path, key), "unknown field");
    }
  }

  field(key: string): string {
    return join(this.path, key);
  }

  opt(key: string): unknown {
    const v = Object.hasOwn(this.o, key) ? this.o[key] : undefined;
    return v === undefined ? null : v;
  }

  req(key: string): unknown {
    const v = this.opt(key);
    if (v === null) throw new TxJsonError(this.field(key), "missing required field");
    return v;
  }

  u64(key: string): bigint {
    return parseU64(this.req(key), this.field(key));
  }

  optU64(key: string): bigint | null {
    const v = this.opt(key);
    return v === null ? null : parseU64(v, this.field(key));
  }

  str(key: string): string {
    const v = this.req(key);
    if (typeof v !== "string") throw new TxJsonError(this.field(key), "expected a string");
    return v;
  }

  bytes(key: string): Uint8Array {
    return parseHex(this.req(key), this.field(key));
  }

  fixed(key: string, width: number): Uint8Array {
    return parseHex(this.req(key), this.field(key), width);
  }
}

/** Parses a u64 decimal string: `0` or `[1-9][0-9]*`, at most 2^64-1. Returns `null` otherwise. */
export function parseU64String(text: string): bigint | null {
  if (text.length === 0 || text.length > 20 || !/^[0-9]+$/.test(text)) return null;
  if (text.length > 1 && text[0] === "0") return null;
  const n = BigInt(text);
  return n > MAX_U64 ? null : n;
}

function parseU64(v: unknown, path: string): bigint {
  if (typeof v !== "string") throw new TxJsonError(path, "expected a decimal u64 string");
  const n = parseU64String(v);
  if (n === null) throw new TxJsonError(path, U64_MESSAGE);
  return n;
}

function parseHex(v: unknown, path: string, width?: number): Uint8Array {
  if (typeof v !== "string" || !v.startsWith("0x"))
    throw new TxJsonError(path, "expected a 0x-prefixed hex string");
  const digits = v.slice(2);
  if (digits.length % 2 !== 0) throw new TxJsonError(path, "hex string has an odd number of digits");
  const bytes = parseHexDigits(digits);
  if (bytes === null) {
    const at = [...digits].findIndex((c) => !/[0-9a-fA-F]/.test(c));
    throw new TxJsonError(path, `invalid hex digit at offset ${at}`);
  }
  if (width !== undefined && bytes.length !== width) {
    throw new TxJsonError(path, `expected ${width} bytes, found ${bytes.length}`);
  }
  return bytes;
}

/** Parses an instruction object (strict; see {@link fromJson}). */
export function instructionFromJson(value: unknown, path = "instruction"): Instruction {
  const o = new Fields(value, path);
  const kind = o.str("kind");
  let ix: Instruction;
  switch (kind) {
    case "transfer":
      o.only(["kind", "to", "amount"]);
      ix = { kind, to: o.fixed("to", ADDRESS_SIZE), amount: o.u64("amount") };
      break;
    case "registerValidator":
      o.only(["kind", "blsKey", "proofOfPossession", "stake"]);
      ix = {
        kind,
        blsKey: o.fixed("blsKey", BLS_PUBLIC_KEY_SIZE),
        proofOfPossession: o.fixed("proofOfPossession", BLS_SIGNATURE_SIZE),
        stake: o.u64("stake"),
      };
      break;
    case "exitValidator":
    case "withdrawStake":
    case "unjailValidator":
      o.only(["kind"]);
      ix = { kind };
      break;
    case "submitEvidence":
      o.only(["kind", "evidence"]);
      ix = { kind, evidence: o.bytes("evidence") };
      break;
    case "sysCancelTimer":
      o.only(["kind", "actor", "timerId", "epoch", "signers", "signature"]);
      ix = {
        kind,
        actor: o.fixed("actor", ADDRESS_SIZE),
        timerId: o.fixed("timerId", HASH_SIZE),
        epoch: o.u64("epoch"),
        signers: o.bytes("signers"),
        signature: o.fixed("signature", BLS_SIGNATURE_SIZE),
      };
      break;
    case "dkgLog":
      o.only(["kind", "ceremony", "log"]);
      ix = { kind, ceremony: o.u64("ceremony"), log: o.bytes("log") };
      break;
    case "deploy":
      o.only(["kind", "source", "salt", "initArgs", "value"]);
      ix = {
        kind,
        source: o.bytes("source"),
        salt: o.fixed("salt", HASH_SIZE),
        initArgs: o.bytes("initArgs"),
        value: o.u64("value"),
      };
      break;
    case "call":
      o.only(["kind", "to", "handler", "args", "value"]);
      ix = {
        kind,
        to: o.fixed("to", ADDRESS_SIZE),
        handler: o.str("handler"),
        args: o.bytes("args"),
        value: o.u64("value"),
      };
      break;
    case "scheduleTimer":
      o.only(["kind", "actor", "fireAtHeight", "handler", "data", "interval"]);
      if (!Object.hasOwn(o.o, "interval") || o.o.interval === undefined) {
        throw new TxJsonError(o.field("interval"), "missing required field (use null for a one-shot timer)");
      }
      ix = {
        kind,
        actor: o.fixed("actor", ADDRESS_SIZE),
        fireAtHeight: o.u64("fireAtHeight"),
        handler: o.str("handler"),
        data: o.bytes("data"),
        interval: o.optU64("interval"),
      };
      break;
    case "cancelTimer":
      o.only(["kind", "actor", "timerId"]);
      ix = { kind, actor: o.fixed("actor", ADDRESS_SIZE), timerId: o.fixed("timerId", HASH_SIZE) };
      break;
    case "custom": {
      o.only(["kind", "subType", "payload"]);
      const st = o.req("subType");
      if (typeof st !== "number" || !Number.isInteger(st) || st < 0 || st > 255) {
        throw new TxJsonError(o.field("subType"), "expected a number 0..=255");
      }
      ix = { kind, subType: st, payload: o.bytes("payload") };
      break;
    }
    case "publishLibrary":
      o.only(["kind", "name", "version", "source"]);
      ix = { kind, name: o.str("name"), version: o.u64("version"), source: o.bytes("source") };
      break;
    default:
      throw new TxJsonError(
        o.field("kind"),
        `unknown instruction kind ${JSON.stringify(kind)} (expected transfer, registerValidator, exitValidator, withdrawStake, unjailValidator, submitEvidence, sysCancelTimer, dkgLog, deploy, call, scheduleTimer, cancelTimer, custom or publishLibrary)`,
      );
  }
  return ix;
}

/** The fields of a transaction's JSON form (`signingHash` is computed, never signed). */
export const TX_KEYS = [
  "chainId",
  "nonce",
  "instruction",
  "cyclesLimit",
  "cellsLimit",
  "maxFeePerCycle",
  "maxFeePerCell",
  "maxPriorityFeePerCycle",
  "maxPriorityFeePerCell",
  "from",
  "accessList",
  "metadata",
  "originTxHash",
  "originRemainingCycles",
  "originRemainingCells",
  "signature",
  "additionalSigners",
  "signingHash",
] as const;

/**
 * Parses a `TxJson` value (already `JSON.parse`d) into a {@link Transaction}.
 * Optional on input (absent or `null`): `accessList`, `originTxHash`,
 * `originRemaining*` (= null), `metadata` (= `0x`), `signature` (= 65 zero
 * bytes), `additionalSigners` (= []); `signingHash` is ignored. Everything else
 * is required; unknown keys are rejected ({@link TxJsonError}). Then the codec's
 * field rules apply (handler, library name, interval, canonical source,
 * ascending signers, size) as {@link CodecError}s, so the result always encodes.
 */
export function fromJson(value: unknown): Transaction {
  const o = new Fields(value, "");
  o.only(TX_KEYS);
  const accessRaw = o.opt("accessList");
  let accessList: AccessListEntry[] | null = null;
  if (accessRaw !== null) {
    if (!Array.isArray(accessRaw)) throw new TxJsonError("accessList", "expected an array or null");
    accessList = accessRaw.map((item, i) => {
      const e = new Fields(item, `accessList[${i}]`);
      e.only(["address", "storageKeys"]);
      const keys = e.req("storageKeys");
      if (!Array.isArray(keys))
        throw new TxJsonError(e.field("storageKeys"), "expected an array of hex strings");
      const storageKeys = keys.map((k, j) => parseHex(k, `${e.path}.storageKeys[${j}]`));
      return { address: e.fixed("address", ADDRESS_SIZE), storageKeys };
    });
  }
  const signersRaw = o.opt("additionalSigners");
  let additionalSigners: AdditionalSigner[] = [];
  if (signersRaw !== null) {
    if (!Array.isArray(signersRaw)) throw new TxJsonError("additionalSigners", "expected an array");
    additionalSigners = signersRaw.map((item, i) => {
      const e = new Fields(item, `additionalSigners[${i}]`);
      e.only(["address", "signature"]);
      return { address: e.fixed("address", ADDRESS_SIZE), signature: e.fixed("signature", SIGNATURE_SIZE) };
    });
  }
  const sigRaw = o.opt("signature");
  const signature =
    sigRaw === null ? new Uint8Array(SIGNATURE_SIZE) : parseHex(sigRaw, "signature", SIGNATURE_SIZE);
  const originRaw = o.opt("originTxHash");
  const originTxHash = originRaw === null ? null : parseHex(originRaw, "originTxHash", HASH_SIZE);
  const chainId = o.u64("chainId");
  const nonce = o.u64("nonce");
  const instruction = instructionFromJson(o.req("instruction"), "instruction");
  const cyclesLimit = o.u64("cyclesLimit");
  const cellsLimit = o.u64("cellsLimit");
  const maxFeePerCycle = o.u64("maxFeePerCycle");
  const maxFeePerCell = o.u64("maxFeePerCell");
  const maxPriorityFeePerCycle = o.u64("maxPriorityFeePerCycle");
  const maxPriorityFeePerCell = o.u64("maxPriorityFeePerCell");
  const from = o.fixed("from", ADDRESS_SIZE);
  const metaRaw = o.opt("metadata");
  const metadata = metaRaw === null ? new Uint8Array(0) : parseHex(metaRaw, "metadata");
  const tx: Transaction = {
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
    originRemainingCycles: o.optU64("originRemainingCycles"),
    originRemainingCells: o.optU64("originRemainingCells"),
    signature,
    additionalSigners,
  };
  // The codec's field rules (handler, name, interval, source, signer order, size).
  encodeTransaction(tx);
  return tx;
}

/** Parses JSON text into a {@link Transaction}; invalid JSON is a {@link TxJsonError} at path `transaction`. */
export function parseTxJson(text: string): Transaction {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new TxJsonError("$", `invalid JSON (${(err as Error).message})`);
  }
  return fromJson(value);
}

// ---------------------------------------------------------------------------
// Blocks, receipts, certificates (the addon's JSON forms; `hash` is output only)

/** A round in JSON form. */
export type RoundJson = {
  epoch: string;
  view: string;
};

/** A block header in JSON form; `hash` (block hash) is output only. */
export type BlockHeaderJson = {
  parent: string;
  height: string;
  round: RoundJson;
  proposer: string;
  timestampMs: string;
  stateRoot: string;
  txRoot: string;
  receiptsRoot: string;
  cycleBasefee: string;
  cellBasefee: string;
  cyclesUsed: string;
  cellsUsed: string;
  parentSeed: string;
  hash?: string;
};

/** A block in JSON form: transactions carry their `signingHash`; `hash` is output only. */
export type BlockJson = {
  header: BlockHeaderJson;
  transactions: TxJson[];
  hash?: string;
};

/** A receipt in JSON form; `hash` (receipt hash) is output only. */
export type ReceiptJson = {
  txHash: string;
  status: ReceiptStatus;
  cyclesUsed: string;
  cellsUsed: string;
  feePaid: string;
  returnData: string;
  error: string | null;
  events: Array<{ emitter: string; topic: string; data: string }>;
  hash?: string;
};

/** A certificate in JSON form. */
export type CertificateJson = {
  kind: CertificateKind;
  blockHash: string;
  height: string;
  round: RoundJson;
  aggregatedSignature: string;
  signerBitmap: string;
};

function roundToJson(r: Round): RoundJson {
  return { epoch: r.epoch.toString(), view: r.view.toString() };
}

function roundFromJson(o: Fields, key: string): Round {
  const r = new Fields(o.req(key), o.field(key));
  r.only(["epoch", "view"]);
  return { epoch: r.u64("epoch"), view: r.u64("view") };
}

/** JSON form of a header, with its block hash. */
export function headerToJson(h: BlockHeader): BlockHeaderJson {
  return {
    parent: toHex(h.parent),
    height: h.height.toString(),
    round: roundToJson(h.round),
    proposer: toHex(h.proposer),
    timestampMs: h.timestampMs.toString(),
    stateRoot: toHex(h.stateRoot),
    txRoot: toHex(h.txRoot),
    receiptsRoot: toHex(h.receiptsRoot),
    cycleBasefee: h.cycleBasefee.toString(),
    cellBasefee: h.cellBasefee.toString(),
    cyclesUsed: h.cyclesUsed.toString(),
    cellsUsed: h.cellsUsed.toString(),
    parentSeed: toHex(h.parentSeed),
    hash: toHex(blockHash(h)),
  };
}

/** Parses a header's JSON form (`hash` ignored; every other key required). */
export function headerFromJson(value: unknown, path = ""): BlockHeader {
  const o = new Fields(value, path);
  o.only([
    "parent",
    "height",
    "round",
    "proposer",
    "timestampMs",
    "stateRoot",
    "txRoot",
    "receiptsRoot",
    "cycleBasefee",
    "cellBasefee",
    "cyclesUsed",
    "cellsUsed",
    "parentSeed",
    "hash",
  ]);
  return {
    parent: o.fixed("parent", HASH_SIZE),
    height: o.u64("height"),
    round: roundFromJson(o, "round"),
    proposer: o.fixed("proposer", ADDRESS_SIZE),
    timestampMs: o.u64("timestampMs"),
    stateRoot: o.fixed("stateRoot", HASH_SIZE),
    txRoot: o.fixed("txRoot", HASH_SIZE),
    receiptsRoot: o.fixed("receiptsRoot", HASH_SIZE),
    cycleBasefee: o.u64("cycleBasefee"),
    cellBasefee: o.u64("cellBasefee"),
    cyclesUsed: o.u64("cyclesUsed"),
    cellsUsed: o.u64("cellsUsed"),
    parentSeed: o.bytes("parentSeed"),
  };
}

/** JSON form of a block (transactions with their signing hashes, and the block hash). */
export function blockToJson(b: Block): BlockJson {
  return {
    header: headerToJson(b.header),
    transactions: b.transactions.map((tx) => toJson(tx, signingHash(tx))),
    hash: toHex(blockHash(b.header)),
  };
}

/** Parses a block's JSON form; transaction errors are nested under `transactions[i]`. */
export function blockFromJson(value: unknown): Block {
  const o = new Fields(value, "");
  o.only(["header", "transactions", "hash"]);
  const header = headerFromJson(o.req("header"), "header");
  const items = o.req("transactions");
  if (!Array.isArray(items)) throw new TxJsonError("transactions", "expected an array");
  const transactions = items.map((t, i) => {
    try {
      return fromJson(t);
    } catch (err) {
      if (err instanceof TxJsonError) {
        throw new TxJsonError(
          err.path === "$" ? `transactions[${i}]` : `transactions[${i}].${err.path}`,
          err.detail,
        );
      }
      if (err instanceof CodecError) throw inField(err, `transactions[${i}]`);
      throw err;
    }
  });
  return { header, transactions };
}

/** JSON form of a receipt, with its hash. */
export function receiptToJson(r: Receipt): ReceiptJson {
  return {
    txHash: toHex(r.txHash),
    status: r.status,
    cyclesUsed: r.cyclesUsed.toString(),
    cellsUsed: r.cellsUsed.toString(),
    feePaid: r.feePaid.toString(),
    returnData: toHex(r.returnData),
    error: r.error,
    events: r.events.map((e) => ({ emitter: toHex(e.emitter), topic: toHex(e.topic), data: toHex(e.data) })),
    hash: toHex(receiptHash(r)),
  };
}

/** Parses a receipt's JSON form (`hash` ignored; `error` may be null). */
export function receiptFromJson(value: unknown): Receipt {
  const o = new Fields(value, "");
  o.only(["txHash", "status", "cyclesUsed", "cellsUsed", "feePaid", "returnData", "error", "events", "hash"]);
  const st = o.str("status");
  if (!(RECEIPT_STATUSES as readonly string[]).includes(st)) {
    throw new TxJsonError("status", "expected success, reverted, outOfCycles, outOfCells or invalid");
  }
  const items = o.req("events");
  if (!Array.isArray(items)) throw new TxJsonError("events", "expected an array");
  const events = items.map((item, i) => {
    const e = new Fields(item, `events[${i}]`);
    e.only(["emitter", "topic", "data"]);
    return { emitter: e.fixed("emitter", ADDRESS_SIZE), topic: e.bytes("topic"), data: e.bytes("data") };
  });
  const errorRaw = o.opt("error");
  const txHash = o.fixed("txHash", HASH_SIZE);
  const cyclesUsed = o.u64("cyclesUsed");
  const cellsUsed = o.u64("cellsUsed");
  const feePaid = o.u64("feePaid");
  const returnData = o.bytes("returnData");
  if (errorRaw !== null && typeof errorRaw !== "string") throw new TxJsonError("error", "expected a string");
  return {
    txHash,
    status: st as ReceiptStatus,
    cyclesUsed,
    cellsUsed,
    feePaid,
    returnData,
    error: errorRaw,
    events,
  };
}

/** JSON form of a certificate. */
export function certificateToJson(c: Certificate): CertificateJson {
  return {
    kind: c.kind,
    blockHash: toHex(c.blockHash),
    height: c.height.toString(),
    round: roundToJson(c.round),
    aggregatedSignature: toHex(c.aggregatedSignature),
    signerBitmap: toHex(c.signerBitmap),
  };
}

/** Parses a certificate's JSON form. */
export function certificateFromJson(value: unknown): Certificate {
  const o = new Fields(value, "");
  o.only(["kind", "blockHash", "height", "round", "aggregatedSignature", "signerBitmap"]);
  const k = o.str("kind");
  if (!(CERTIFICATE_KINDS as readonly string[]).includes(k)) {
    throw new TxJsonError("kind", "expected notarize, nullify or finalize");
  }
  return {
    kind: k as CertificateKind,
    blockHash: o.fixed("blockHash", HASH_SIZE),
    height: o.u64("height"),
    round: roundFromJson(o, "round"),
    aggregatedSignature: o.bytes("aggregatedSignature"),
    signerBitmap: o.bytes("signerBitmap"),
  };
}
