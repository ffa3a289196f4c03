/**
 * The RPC's JSON forms of blocks, transactions, receipts, events, fee history,
 * simulations and timers, and their parsed TypeScript forms (quantities as
 * `bigint`, byte strings as `Uint8Array`). Every parser checks the fields it
 * reads and names the offending one in a {@link ResponseShapeError}; each parsed
 * value also keeps the node's original JSON as `raw`, so fields this SDK
 * version does not know yet stay reachable.
 */
import { fromJson, TX_KEYS } from "../json.ts";
import { decodeTransaction } from "../tx.ts";
import type { Address, Hash32, Transaction } from "../types.ts";
import { ResponseShapeError } from "./errors.ts";
import { dataAt, Shape } from "./hex.ts";

/** A block selector: a tag or a height. */
export type BlockTag = "latest" | "finalized" | "safe" | "earliest" | "pending" | bigint;

/** An event emitted by an actor. */
export interface RpcEvent {
  /** the emitting actor */
  emitter: Address;
  /** the topic field as recorded: the topics, each u16 BE length-prefixed (see {@link decodeTopics}) */
  topic: Uint8Array;
  /** the topics (`emit("Beat", data, *more)` → ["Beat", …more]), or null when `topic` is not such a list */
  topics: Uint8Array[] | null;
  /** the first topic as text (the event's name), when it is UTF-8 */
  name: string | null;
  data: Uint8Array;
  blockNumber: bigint | null;
  blockHash: Hash32 | null;
  transactionHash: Hash32 | null;
  transactionIndex: bigint | null;
  logIndex: bigint | null;
  raw: Record<string, unknown>;
}

/** A transaction as the node returns it, with where it was included. */
export interface RpcTransaction {
  hash: Hash32;
  transaction: Transaction;
  blockNumber: bigint | null;
  blockHash: Hash32 | null;
  transactionIndex: bigint | null;
  raw: Record<string, unknown>;
}

/** A receipt as the node returns it. */
export interface RpcReceipt {
  transactionHash: Hash32;
  blockNumber: bigint;
  blockHash: Hash32;
  transactionIndex: bigint;
  /** `success`, `reverted`, `outOfCycles`, `outOfCells` or `invalid` */
  status: string;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  feePaid: bigint;
  returnData: Uint8Array;
  error: string | null;
  events: RpcEvent[];
  /** the deployed actor's address, for a deploy */
  contractAddress: Address | null;
  from: Address | null;
  /** recipient of a transfer or callee of a call */
  to: Address | null;
  /** basefees of the including block */
  cycleBasefee: bigint | null;
  cellBasefee: bigint | null;
  raw: Record<string, unknown>;
}

/** A block as the node returns it. */
export interface RpcBlock {
  number: bigint;
  hash: Hash32;
  parentHash: Hash32;
  /** milliseconds since the Unix epoch */
  timestamp: bigint;
  proposer: Address | null;
  stateRoot: Hash32;
  cycleBasefee: bigint;
  cellBasefee: bigint;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  /** transaction hashes, or full transactions when requested (empty in `newHeads` notifications) */
  transactions: Hash32[] | RpcTransaction[];
  /** number of transactions in the block */
  transactionCount: number;
  raw: Record<string, unknown>;
}

/** Basefees and usage of a range of blocks (`cowboy_feeHistory`). */
export interface FeeHistory {
  oldestBlock: bigint;
  /** one more entry than blocks: the last is the next block's basefee */
  cycleBasefee: bigint[];
  cellBasefee: bigint[];
  cyclesUsed: bigint[];
  cellsUsed: bigint[];
  cyclesUsedRatio: number[];
  cellsUsedRatio: number[];
  raw: Record<string, unknown>;
}

/** A simulated call (`cowboy_call`): what the handler returned and what it used. */
export interface CallResult {
  ok: boolean;
  /** canonical CBOR of the handler's return value (empty on failure) */
  returnData: Uint8Array;
  error: { type: string; message: string } | null;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  /** events the handler would emit */
  events: RpcEvent[];
  /** the fee estimate of this call (spec §17.10), when the node gives one */
  fee: FeeEstimate | null;
  raw: Record<string, unknown>;
}

/** A fee estimate (`cowboy_estimateFee`, spec §17.10). */
export interface FeeEstimate {
  cyclesUsed: bigint;
  cellsUsed: bigint;
  /** suggested limits (usage plus headroom) */
  cyclesLimit: bigint;
  cellsLimit: bigint;
  cycleBasefee: bigint;
  cellBasefee: bigint;
  maxFeePerCycle: bigint;
  maxFeePerCell: bigint;
  maxPriorityFeePerCycle: bigint;
  maxPriorityFeePerCell: bigint;
  /** expected total fee at the current basefees plus tips */
  fee: bigint;
  /** the most the transaction can be charged with these limits and caps */
  maxCharge: bigint | null;
  raw: Record<string, unknown>;
}

/** A pending timer of an actor. */
export interface RpcTimer {
  id: Hash32;
  actor: Address;
  handler: string;
  fireAt: bigint;
  interval: bigint | null;
  /** canonical CBOR handed to the handler */
  data: Uint8Array;
  raw: Record<string, unknown>;
}

function firstPresent(s: Shape, keys: readonly string[]): string {
  for (const k of keys) if (s.has(k)) return k;
  return keys[0] as string;
}

/**
 * Splits an event's topic field into its topics. The node records an event's topics
 * (`cowboy_sdk.emit(event, data, *topics)` → [event, *topics]) in one field: each topic
 * prefixed by its length as a u16 big-endian. Null when `field` is not such a list.
 */
export function decodeTopics(field: Uint8Array): Uint8Array[] | null {
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < field.length) {
    if (i + 2 > field.length) return null;
    const n = ((field[i] as number) << 8) | (field[i + 1] as number);
    if (i + 2 + n > field.length) return null;
    out.push(field.slice(i + 2, i + 2 + n));
    i += 2 + n;
  }
  return out.length === 0 ? null : out;
}

/** The topic field of an event with `topics` (strings as UTF-8): what event filters match. */
export function encodeTopics(...topics: Array<string | Uint8Array>): Uint8Array {
  const parts = topics.map((t) => (typeof t === "string" ? new TextEncoder().encode(t) : t));
  const out = new Uint8Array(parts.reduce((n, p) => n + 2 + p.length, 0));
  let i = 0;
  for (const p of parts) {
    if (p.length > 0xffff) throw new RangeError("a topic is at most 65535 bytes");
    out[i] = p.length >> 8;
    out[i + 1] = p.length & 0xff;
    out.set(p, i + 2);
    i += 2 + p.length;
  }
  return out;
}

function utf8Text(b: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    return null;
  }
}

/** Parses an event object. */
export function parseEvent(value: unknown, path = "event"): RpcEvent {
  const s = new Shape(value, path);
  const topic = s.data("topic");
  const topics = decodeTopics(topic);
  return {
    emitter: s.data(firstPresent(s, ["emitter", "address"]), 20),
    topic,
    topics,
    name: topics === null ? null : utf8Text(topics[0] as Uint8Array),
    data: s.data("data"),
    blockNumber: s.optQuantity("blockNumber"),
    blockHash: s.optData("blockHash", 32),
    transactionHash: s.optData(firstPresent(s, ["transactionHash", "txHash"]), 32),
    transactionIndex: s.optQuantity("transactionIndex"),
    logIndex: s.optQuantity("logIndex"),
    raw: s.value,
  };
}

/** Parses a transaction object: from its canonical bytes (`raw`) when given, else from its TxJson fields. */
export function parseTransaction(value: unknown, path = "transaction"): RpcTransaction {
  const s = new Shape(value, path);
  let transaction: Transaction;
  try {
    if (s.has("raw")) {
      transaction = decodeTransaction(s.data("raw"));
    } else {
      const json: Record<string, unknown> = {};
      for (const k of TX_KEYS) if (k !== "signingHash" && s.value[k] !== undefined) json[k] = s.value[k];
      transaction = fromJson(json);
    }
  } catch (err) {
    if (err instanceof ResponseShapeError) throw err;
    throw new ResponseShapeError(path, `not a valid transaction: ${(err as Error).message}`);
  }
  return {
    hash: s.data(firstPresent(s, ["hash", "signingHash"]), 32),
    transaction,
    blockNumber: s.optQuantity("blockNumber"),
    blockHash: s.optData("blockHash", 32),
    transactionIndex: s.optQuantity("transactionIndex"),
    raw: s.value,
  };
}

/** Parses a receipt object. */
export function parseReceipt(value: unknown, path = "receipt"): RpcReceipt {
  const s = new Shape(value, path);
  const events = s.has("events") ? s.array("events") : s.has("logs") ? s.array("logs") : [];
  const err = s.raw("error");
  return {
    transactionHash: s.data(firstPresent(s, ["transactionHash", "txHash"]), 32),
    blockNumber: s.quantity("blockNumber"),
    blockHash: s.data("blockHash", 32),
    transactionIndex: s.quantity("transactionIndex"),
    status: s.string("status"),
    cyclesUsed: s.quantity("cyclesUsed"),
    cellsUsed: s.quantity("cellsUsed"),
    feePaid: s.quantity("feePaid"),
    returnData: s.has("returnData") ? s.data("returnData") : new Uint8Array(0),
    error: typeof err === "string" ? err : err === null || err === undefined ? null : JSON.stringify(err),
    events: events.map((e, i) => parseEvent(e, `${path}.events[${i}]`)),
    contractAddress: s.optData(firstPresent(s, ["contractAddress", "actorAddress"]), 20),
    from: s.optData("from", 20),
    to: s.optData("to", 20),
    cycleBasefee: s.optQuantity("cycleBasefee"),
    cellBasefee: s.optQuantity("cellBasefee"),
    raw: s.value,
  };
}

/** Parses a block object. */
export function parseBlock(value: unknown, path = "block"): RpcBlock {
  const s = new Shape(value, path);
  const txs = s.has("transactions") ? s.array("transactions") : [];
  const transactions =
    txs.length > 0 && typeof txs[0] === "object"
      ? txs.map((t, i) => parseTransaction(t, `${path}.transactions[${i}]`))
      : txs.map((t, i) => dataAt(t, `${path}.transactions[${i}]`, 32));
  return {
    number: s.quantity(firstPresent(s, ["number", "height"])),
    hash: s.data("hash", 32),
    parentHash: s.data(firstPresent(s, ["parentHash", "parent"]), 32),
    timestamp: s.quantity(firstPresent(s, ["timestamp", "timestampMs"])),
    proposer: s.optData("proposer", 20),
    stateRoot: s.data("stateRoot", 32),
    cycleBasefee: s.quantity("cycleBasefee"),
    cellBasefee: s.quantity("cellBasefee"),
    cyclesUsed: s.quantity("cyclesUsed"),
    cellsUsed: s.quantity("cellsUsed"),
    transactions: transactions as Hash32[] | RpcTransaction[],
    transactionCount: s.has("transactionCount") ? Number(s.quantity("transactionCount")) : txs.length,
    raw: s.value,
  };
}

function ratios(s: Shape, key: string): number[] {
  if (!s.has(key)) return [];
  return s.array(key).map((v, i) => {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new ResponseShapeError(`${s.path}.${key}[${i}]`, "expected a number");
    }
    return v;
  });
}

/** Parses a fee history. */
export function parseFeeHistory(value: unknown, path = "feeHistory"): FeeHistory {
  const s = new Shape(value, path);
  const q = (key: string) =>
    s.array(key).map((v, i) => new Shape({ v }, `${path}.${key}[${i}]`).quantity("v"));
  return {
    oldestBlock: s.quantity("oldestBlock"),
    cycleBasefee: q(firstPresent(s, ["cycleBasefee", "baseFeePerCycle"])),
    cellBasefee: q(firstPresent(s, ["cellBasefee", "baseFeePerCell"])),
    cyclesUsed: s.has("cyclesUsed") ? q("cyclesUsed") : [],
    cellsUsed: s.has("cellsUsed") ? q("cellsUsed") : [],
    cyclesUsedRatio: ratios(s, "cyclesUsedRatio"),
    cellsUsedRatio: ratios(s, "cellsUsedRatio"),
    raw: s.value,
  };
}

/** Parses a simulation result. */
export function parseCallResult(value: unknown, path = "call"): CallResult {
  const s = new Shape(value, path);
  let error: CallResult["error"] = null;
  if (s.has("error")) {
    const e = s.raw("error");
    if (typeof e === "string") error = { type: "Error", message: e };
    else {
      const es = s.object("error");
      error = { type: es.optString("type") ?? "Error", message: es.optString("message") ?? "" };
    }
  }
  const ok = s.has("ok") ? s.bool("ok") : s.has("status") ? s.string("status") === "success" : error === null;
  return {
    ok,
    returnData: s.has("result")
      ? s.data("result")
      : s.has("returnData")
        ? s.data("returnData")
        : new Uint8Array(0),
    error,
    cyclesUsed: s.quantity("cyclesUsed"),
    cellsUsed: s.quantity("cellsUsed"),
    events: s.has("events") ? s.array("events").map((e, i) => parseEvent(e, `${path}.events[${i}]`)) : [],
    fee: s.has("fee") ? parseFeeEstimate(s.raw("fee"), `${path}.fee`) : null,
    raw: s.value,
  };
}

/** Parses a fee estimate. */
export function parseFeeEstimate(value: unknown, path = "estimateFee"): FeeEstimate {
  const s = new Shape(value, path);
  return {
    cyclesUsed: s.quantity("cyclesUsed"),
    cellsUsed: s.quantity("cellsUsed"),
    cyclesLimit: s.quantity("cyclesLimit"),
    cellsLimit: s.quantity("cellsLimit"),
    cycleBasefee: s.quantity("cycleBasefee"),
    cellBasefee: s.quantity("cellBasefee"),
    maxFeePerCycle: s.quantity("maxFeePerCycle"),
    maxFeePerCell: s.quantity("maxFeePerCell"),
    maxPriorityFeePerCycle: s.quantity("maxPriorityFeePerCycle"),
    maxPriorityFeePerCell: s.quantity("maxPriorityFeePerCell"),
    fee: s.quantity("fee"),
    maxCharge: s.optQuantity("maxCharge"),
    raw: s.value,
  };
}

/** Parses a timer object. */
export function parseTimer(value: unknown, path = "timer"): RpcTimer {
  const s = new Shape(value, path);
  return {
    id: s.data(firstPresent(s, ["id", "timerId"]), 32),
    actor: s.data("actor", 20),
    handler: s.string("handler"),
    fireAt: s.quantity(firstPresent(s, ["fireAt", "fireAtHeight"])),
    interval: s.optQuantity("interval"),
    data: s.has("data") ? s.data("data") : new Uint8Array(0),
    raw: s.value,
  };
}
