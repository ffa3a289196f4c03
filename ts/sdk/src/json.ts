/**
 * The JSON form of a transaction (`TxJson`, docs/codec.md §8), identical to
 * the native addon's: u64 values as decimal strings, bytes as `0x` hex
 * (lowercase on output, any case of the digits on input), `null` for absent
 * options. {@link fromJson} is strict: unknown keys, wrong widths, malformed
 * numbers are {@link TxJsonError}s (`ERR_TX_JSON_FIELD`) naming the path;
 * field rules (handler, library name, interval, canonical source, ascending
 * signers) are the codec's {@link CodecError}s.
 */
import { parseHexDigits, toHex } from "./bytes.ts";
import { TxJsonError } from "./errors.ts";
import { ADDRESS_SIZE, HASH_SIZE, SIGNATURE_SIZE, writeInstruction, writeTransaction } from "./tx.ts";
import type { AccessListEntry, AdditionalSigner, Instruction, Transaction } from "./types.ts";
import { Writer } from "./writer.ts";

/** Instruction in JSON form; `kind` selects the variant. */
export type InstructionJson =
  | { kind: "transfer"; to: string; amount: string }
  | { kind: "deploy"; source: string; salt: string; initArgs: string; value: string }
  | { kind: "call"; to: string; handler: string; args: string; value: string }
  | { kind: "scheduleTimer"; actor: string; fireAtHeight: string; handler: string; data: string; interval: string | null }
  | { kind: "cancelTimer"; actor: string; timerId: string }
  | { kind: "custom"; subType: number; payload: string }
  | { kind: "publishLibrary"; name: string; version: string; source: string };

/** Access-list entry in JSON form. */
export interface AccessListEntryJson {
  address: string;
  storageKeys: string[];
}

/** Additional signer in JSON form. */
export interface AdditionalSignerJson {
  address: string;
  signature: string;
}

/** A transaction in JSON form (docs/codec.md §8). `signingHash` is output only. */
export interface TxJson {
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
}

// ---------------------------------------------------------------------------
// Output

function instructionToJson(ix: Instruction): InstructionJson {
  switch (ix.kind) {
    case "transfer":
      return { kind: "transfer", to: toHex(ix.to), amount: ix.amount.toString() };
    case "deploy":
      return {
        kind: "deploy",
        source: toHex(ix.source),
        salt: toHex(ix.salt),
        initArgs: toHex(ix.initArgs),
        value: ix.value.toString(),
      };
    case "call":
      return { kind: "call", to: toHex(ix.to), handler: ix.handler, args: toHex(ix.args), value: ix.value.toString() };
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
      return { kind: "publishLibrary", name: ix.name, version: ix.version.toString(), source: toHex(ix.source) };
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
    additionalSigners: tx.additionalSigners.map((s) => ({ address: toHex(s.address), signature: toHex(s.signature) })),
  };
  if (signingHash !== undefined) out.signingHash = toHex(signingHash);
  return out;
}

// ---------------------------------------------------------------------------
// Input

const U64_RE = /^(0|[1-9][0-9]*)$/;
const MAX_U64 = 0xffff_ffff_ffff_ffffn;

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function expectObject(v: unknown, path: string): Obj {
  if (!isObject(v)) throw new TxJsonError(path, "expected an object");
  return v;
}

function checkKeys(o: Obj, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw new TxJsonError(path === "" ? key : `${path}.${key}`, "unknown key");
  }
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

function required(o: Obj, key: string, path: string): unknown {
  if (!(key in o) || o[key] === undefined) throw new TxJsonError(join(path, key), "missing required key");
  return o[key];
}

function u64(v: unknown, path: string): bigint {
  if (typeof v !== "string" || !U64_RE.test(v) || v.length > 20) {
    throw new TxJsonError(path, "expected a decimal u64 string");
  }
  const n = BigInt(v);
  if (n > MAX_U64) throw new TxJsonError(path, "expected a decimal u64 string");
  return n;
}

function hexBytes(v: unknown, path: string, width?: number): Uint8Array {
  if (typeof v !== "string" || !v.startsWith("0x")) throw new TxJsonError(path, "expected 0x-prefixed hex");
  const bytes = parseHexDigits(v.slice(2));
  if (bytes === null) throw new TxJsonError(path, "expected 0x-prefixed hex");
  if (width !== undefined && bytes.length !== width) {
    throw new TxJsonError(path, `expected exactly ${width} bytes, found ${bytes.length}`);
  }
  return bytes;
}

function str(v: unknown, path: string): string {
  if (typeof v !== "string") throw new TxJsonError(path, "expected a string");
  return v;
}

function array(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new TxJsonError(path, "expected an array");
  return v;
}

const INSTRUCTION_KEYS: Record<InstructionJson["kind"], readonly string[]> = {
  transfer: ["to", "amount"],
  deploy: ["source", "salt", "initArgs", "value"],
  call: ["to", "handler", "args", "value"],
  scheduleTimer: ["actor", "fireAtHeight", "handler", "data", "interval"],
  cancelTimer: ["actor", "timerId"],
  custom: ["subType", "payload"],
  publishLibrary: ["name", "version", "source"],
};

/** Parses an instruction object (strict; see {@link fromJson}). */
export function instructionFromJson(value: unknown, path = "instruction"): Instruction {
  const o = expectObject(value, path);
  const kind = required(o, "kind", path);
  if (typeof kind !== "string" || !Object.hasOwn(INSTRUCTION_KEYS, kind)) {
    throw new TxJsonError(join(path, "kind"), `unknown instruction kind ${JSON.stringify(kind)}`);
  }
  const k = kind as InstructionJson["kind"];
  checkKeys(o, ["kind", ...INSTRUCTION_KEYS[k]], path);
  const get = (key: string) => required(o, key, path);
  const p = (key: string) => join(path, key);
  let ix: Instruction;
  switch (k) {
    case "transfer":
      ix = { kind: k, to: hexBytes(get("to"), p("to"), ADDRESS_SIZE), amount: u64(get("amount"), p("amount")) };
      break;
    case "deploy":
      ix = {
        kind: k,
        source: hexBytes(get("source"), p("source")),
        salt: hexBytes(get("salt"), p("salt"), HASH_SIZE),
        initArgs: hexBytes(get("initArgs"), p("initArgs")),
        value: u64(get("value"), p("value")),
      };
      break;
    case "call":
      ix = {
        kind: k,
        to: hexBytes(get("to"), p("to"), ADDRESS_SIZE),
        handler: str(get("handler"), p("handler")),
        args: hexBytes(get("args"), p("args")),
        value: u64(get("value"), p("value")),
      };
      break;
    case "scheduleTimer": {
      if (o.interval === undefined) throw new TxJsonError(p("interval"), "missing required key");
      const interval = o.interval === null ? null : u64(o.interval, p("interval"));
      ix = {
        kind: k,
        actor: hexBytes(get("actor"), p("actor"), ADDRESS_SIZE),
        fireAtHeight: u64(get("fireAtHeight"), p("fireAtHeight")),
        handler: str(get("handler"), p("handler")),
        data: hexBytes(get("data"), p("data")),
        interval,
      };
      break;
    }
    case "cancelTimer":
      ix = {
        kind: k,
        actor: hexBytes(get("actor"), p("actor"), ADDRESS_SIZE),
        timerId: hexBytes(get("timerId"), p("timerId"), HASH_SIZE),
      };
      break;
    case "custom": {
      const subType = get("subType");
      if (typeof subType !== "number" || !Number.isInteger(subType) || subType < 0 || subType > 255) {
        throw new TxJsonError(p("subType"), "expected an integer 0..=255");
      }
      ix = { kind: k, subType, payload: hexBytes(get("payload"), p("payload")) };
      break;
    }
    case "publishLibrary":
      ix = {
        kind: k,
        name: str(get("name"), p("name")),
        version: u64(get("version"), p("version")),
        source: hexBytes(get("source"), p("source")),
      };
      break;
  }
  // Field rules of docs/codec.md §3 (handler, name, interval, source), as the codec reports them.
  writeInstruction(new Writer(64), ix);
  return ix;
}

const TX_KEYS = [
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
 * Optional on input: `accessList`, `originTxHash`, `originRemaining*` (= null),
 * `metadata` (= `0x`), `signature` (= 65 zero bytes), `additionalSigners` (= []);
 * `signingHash` is ignored. Everything else is required; unknown keys are rejected.
 */
export function fromJson(value: unknown): Transaction {
  const o = expectObject(value, "transaction");
  checkKeys(o, TX_KEYS, "");
  const opt = (key: string): unknown => (o[key] === undefined ? null : o[key]);
  const accessRaw = opt("accessList");
  let accessList: AccessListEntry[] | null = null;
  if (accessRaw !== null) {
    accessList = array(accessRaw, "accessList").map((entry, i) => {
      const path = `accessList[${i}]`;
      const e = expectObject(entry, path);
      checkKeys(e, ["address", "storageKeys"], path);
      return {
        address: hexBytes(required(e, "address", path), `${path}.address`, ADDRESS_SIZE),
        storageKeys: array(required(e, "storageKeys", path), `${path}.storageKeys`).map((k, j) =>
          hexBytes(k, `${path}.storageKeys[${j}]`),
        ),
      };
    });
  }
  const signersRaw = opt("additionalSigners");
  const additionalSigners: AdditionalSigner[] =
    signersRaw === null
      ? []
      : array(signersRaw, "additionalSigners").map((entry, i) => {
          const path = `additionalSigners[${i}]`;
          const e = expectObject(entry, path);
          checkKeys(e, ["address", "signature"], path);
          return {
            address: hexBytes(required(e, "address", path), `${path}.address`, ADDRESS_SIZE),
            signature: hexBytes(required(e, "signature", path), `${path}.signature`, SIGNATURE_SIZE),
          };
        });
  const originTxHash = opt("originTxHash");
  const originCycles = opt("originRemainingCycles");
  const originCells = opt("originRemainingCells");
  const metadata = opt("metadata");
  const signature = opt("signature");
  const tx: Transaction = {
    chainId: u64(required(o, "chainId", ""), "chainId"),
    nonce: u64(required(o, "nonce", ""), "nonce"),
    instruction: instructionFromJson(required(o, "instruction", "")),
    cyclesLimit: u64(required(o, "cyclesLimit", ""), "cyclesLimit"),
    cellsLimit: u64(required(o, "cellsLimit", ""), "cellsLimit"),
    maxFeePerCycle: u64(required(o, "maxFeePerCycle", ""), "maxFeePerCycle"),
    maxFeePerCell: u64(required(o, "maxFeePerCell", ""), "maxFeePerCell"),
    maxPriorityFeePerCycle: u64(required(o, "maxPriorityFeePerCycle", ""), "maxPriorityFeePerCycle"),
    maxPriorityFeePerCell: u64(required(o, "maxPriorityFeePerCell", ""), "maxPriorityFeePerCell"),
    from: hexBytes(required(o, "from", ""), "from", ADDRESS_SIZE),
    accessList,
    metadata: metadata === null ? new Uint8Array(0) : hexBytes(metadata, "metadata"),
    originTxHash: originTxHash === null ? null : hexBytes(originTxHash, "originTxHash", HASH_SIZE),
    originRemainingCycles: originCycles === null ? null : u64(originCycles, "originRemainingCycles"),
    originRemainingCells: originCells === null ? null : u64(originCells, "originRemainingCells"),
    signature: signature === null ? new Uint8Array(SIGNATURE_SIZE) : hexBytes(signature, "signature", SIGNATURE_SIZE),
    additionalSigners,
  };
  // Rules that span fields (ascending signers) are the codec's.
  writeTransaction(new Writer(256), tx);
  return tx;
}

/** Parses JSON text into a {@link Transaction}; invalid JSON is a {@link TxJsonError} at path `transaction`. */
export function parseTxJson(text: string): Transaction {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new TxJsonError("transaction", `invalid JSON (${(err as Error).message})`);
  }
  return fromJson(value);
}
