/**
 * `PublicClient`: typed reads of a Cowboy node over JSON-RPC (docs/rpc.md) —
 * chain id, heights, balances and nonces, blocks, transactions, receipts, fee
 * history and estimates, simulated calls, code, storage with verified state
 * proofs, events, timers — plus sending signed bytes, waiting for receipts and
 * subscriptions (WebSocket transports). Pure TypeScript; runs in browsers.
 */
import { bytesEqual, toHex } from "../bytes.ts";
import { type CborValue, decodeCbor, encodeCbor } from "../cbor.ts";
import { verifyStateProof } from "../state-proof.ts";
import { encodeTransaction } from "../tx.ts";
import type { Address, Hash32, Transaction } from "../types.ts";
import { ResponseShapeError, TransportError, WaitTimeoutError } from "./errors.ts";
import {
  type BlockTag,
  type CallResult,
  type FeeEstimate,
  type FeeHistory,
  parseBlock,
  parseCallResult,
  parseEvent,
  parseFeeEstimate,
  parseFeeHistory,
  parseReceipt,
  parseTimer,
  parseTransaction,
  type RpcBlock,
  type RpcEvent,
  type RpcReceipt,
  type RpcTimer,
  type RpcTransaction,
} from "./formats.ts";
import { dataAt, quantityAt, Shape, toData, toQuantity } from "./hex.ts";
import { type AccountRecord, accountKey, actorStorageKey, decodeAccountRecord } from "./state-keys.ts";
import {
  canSubscribe,
  type SubscribingTransport,
  type SubscriptionHandle,
  type Transport,
  transportFor,
} from "./transport.ts";
import { parseValidator, parseValidatorSet, type RpcValidator, type RpcValidatorSet } from "./validators.ts";

/** The RPC form of a block selector. */
export function blockTagParam(tag: BlockTag): string {
  return typeof tag === "bigint" ? toQuantity(tag) : tag;
}

/** A handler call to simulate or estimate (`cowboy_call`, `cowboy_estimateFee`). */
export interface CallRequest {
  /** the caller (the sender of the simulated transaction); default: the zero address */
  from?: Address;
  /** the actor */
  to: Address;
  handler: string;
  /** canonical CBOR of the positional arguments (see `encodeArgs`) */
  args: Uint8Array;
  value?: bigint;
  /** meter limits of the simulation (default: the node's) */
  cyclesLimit?: bigint;
  cellsLimit?: bigint;
}

/** What `estimateFee` accepts: a call object, or a transaction (its instruction and sender are estimated; signature may be zero). */
export type EstimateRequest = CallRequest | Transaction;

/** Chain status (`cowboy_status`). */
export interface ChainStatus {
  chainId: bigint;
  head: { number: bigint; hash: Hash32 };
  finalized: bigint;
  nextCycleBasefee: bigint;
  nextCellBasefee: bigint;
  pendingTransactions: bigint;
}

/** An event filter (`cowboy_getLogs`, `events` subscriptions). */
export interface EventFilter {
  /** emitting actor(s) */
  address?: Address | Address[];
  /** topic(s) to match */
  topics?: Uint8Array[];
  fromBlock?: BlockTag;
  toBlock?: BlockTag;
}

/** A value read from the state with its verified proof. */
export interface ProvenValue {
  key: Uint8Array;
  /** null when the proof shows the key absent */
  value: Uint8Array | null;
  blockNumber: bigint;
  /** the state root the proof was checked against (from the block header) */
  stateRoot: Hash32;
}

/** Options of {@link PublicClient.waitForTransactionReceipt}. */
export interface WaitOptions {
  /** give up after this many ms (default 60 000) */
  timeoutMs?: number;
  /** poll interval in ms (default 250) */
  pollIntervalMs?: number;
}

function callParam(req: CallRequest): Record<string, unknown> {
  const out: Record<string, unknown> = { to: toData(req.to), handler: req.handler, args: toData(req.args) };
  if (req.from !== undefined) out.from = toData(req.from);
  if (req.value !== undefined) out.value = toQuantity(req.value);
  if (req.cyclesLimit !== undefined) out.cyclesLimit = toQuantity(req.cyclesLimit);
  if (req.cellsLimit !== undefined) out.cellsLimit = toQuantity(req.cellsLimit);
  return out;
}

function isTransaction(req: EstimateRequest): req is Transaction {
  return "instruction" in req;
}

/** The RPC form of an event filter. */
export function filterParam(f: EventFilter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (f.address !== undefined) {
    out.address = Array.isArray(f.address) ? f.address.map((a) => toData(a)) : toData(f.address as Address);
  }
  if (f.topics !== undefined) out.topics = f.topics.map((t) => toData(t));
  if (f.fromBlock !== undefined) out.fromBlock = blockTagParam(f.fromBlock);
  if (f.toBlock !== undefined) out.toBlock = blockTagParam(f.toBlock);
  return out;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Options of {@link createPublicClient}. */
export interface ClientOptions {
  /** a transport, or a URL (`http(s)://` → HTTP with batching, `ws(s)://` → WebSocket) */
  transport: Transport | string;
}

/** Typed reads (and raw sends) against one node. */
export class PublicClient {
  readonly transport: Transport;
  private chainIdCache: bigint | null = null;

  constructor(options: ClientOptions) {
    this.transport =
      typeof options.transport === "string" ? transportFor(options.transport) : options.transport;
  }

  /** Sends any method (escape hatch for methods this client has no wrapper for). */
  request(method: string, params?: readonly unknown[]): Promise<unknown> {
    return this.transport.request(method, params);
  }

  /** The chain id (cached after the first call). */
  async getChainId(): Promise<bigint> {
    if (this.chainIdCache === null) {
      this.chainIdCache = quantityAt(await this.request("cowboy_chainId", []), "cowboy_chainId");
    }
    return this.chainIdCache;
  }

  /** The latest block height. */
  async getBlockNumber(): Promise<bigint> {
    return quantityAt(await this.request("cowboy_blockNumber", []), "cowboy_blockNumber");
  }

  /** An account's balance in base units (1 CBY = 10^9). */
  async getBalance(address: Address, block: BlockTag = "latest"): Promise<bigint> {
    return quantityAt(
      await this.request("cowboy_getBalance", [toData(address), blockTagParam(block)]),
      "cowboy_getBalance",
    );
  }

  /** An account's next nonce; `"pending"` counts transactions waiting in the mempool. */
  async getTransactionCount(address: Address, block: BlockTag = "latest"): Promise<bigint> {
    return quantityAt(
      await this.request("cowboy_getTransactionCount", [toData(address), blockTagParam(block)]),
      "cowboy_getTransactionCount",
    );
  }

  /** A block by height, tag or hash; null when it does not exist. */
  async getBlock(
    at: { number: bigint } | { tag: BlockTag } | { hash: Hash32 } = { tag: "latest" },
    options: { includeTransactions?: boolean } = {},
  ): Promise<RpcBlock | null> {
    const full = options.includeTransactions ?? false;
    const raw =
      "hash" in at
        ? await this.request("cowboy_getBlockByHash", [toData(at.hash), full])
        : await this.request("cowboy_getBlockByNumber", [
            blockTagParam("number" in at ? at.number : at.tag),
            full,
          ]);
    return raw === null ? null : parseBlock(raw);
  }

  /** A transaction by hash (mempool or chain); null when unknown. */
  async getTransaction(hash: Hash32): Promise<RpcTransaction | null> {
    const raw = await this.request("cowboy_getTransactionByHash", [toData(hash)]);
    return raw === null ? null : parseTransaction(raw);
  }

  /** A receipt by transaction hash; null until the transaction is in a block. */
  async getTransactionReceipt(hash: Hash32): Promise<RpcReceipt | null> {
    const raw = await this.request("cowboy_getTransactionReceipt", [toData(hash)]);
    return raw === null ? null : parseReceipt(raw);
  }

  /** Both basefees and usage of `blockCount` blocks ending at `newest`. */
  async getFeeHistory(blockCount: number, newest: BlockTag = "latest"): Promise<FeeHistory> {
    return parseFeeHistory(await this.request("cowboy_feeHistory", [blockCount, blockTagParam(newest)]));
  }

  /**
   * Estimates meters, limits and fee caps (spec §17.10) of a handler call, or of
   * any transaction (sent encoded; its signature may be zero).
   */
  async estimateFee(req: EstimateRequest): Promise<FeeEstimate> {
    const param = isTransaction(req) ? toData(encodeTransaction(req)) : callParam(req);
    return parseFeeEstimate(await this.request("cowboy_estimateFee", [param]));
  }

  /** Chain id, head, finalized height, next basefees and the mempool size. */
  async getStatus(): Promise<ChainStatus> {
    const s = new Shape(await this.request("cowboy_status", []), "cowboy_status");
    const head = s.object("head");
    return {
      chainId: s.quantity("chainId"),
      head: { number: head.quantity("number"), hash: head.data("hash", 32) },
      finalized: s.quantity("finalized"),
      nextCycleBasefee: s.quantity("nextCycleBasefee"),
      nextCellBasefee: s.quantity("nextCellBasefee"),
      pendingTransactions: s.quantity("pendingTransactions"),
    };
  }

  /** Asks a development node's faucet for coins; resolves to the faucet transaction's hash. */
  async requestFaucet(address: Address, amount?: bigint): Promise<Hash32> {
    const params = amount === undefined ? [toData(address)] : [toData(address), toQuantity(amount)];
    return dataAt(await this.request("cowboy_faucet", params), "cowboy_faucet", 32);
  }

  /** The prefunded accounts of a development node. */
  async getDevAccounts(): Promise<Array<{ address: Address; balance: bigint }>> {
    const raw = await this.request("cowboy_devAccounts", []);
    if (!Array.isArray(raw)) throw new ResponseShapeError("cowboy_devAccounts", "expected an array");
    return raw.map((a, i) => {
      const s = new Shape(a, `cowboy_devAccounts[${i}]`);
      return { address: s.data("address", 20), balance: s.quantity("balance") };
    });
  }

  /** Simulates a handler call without committing anything. */
  async call(req: CallRequest, block: BlockTag = "latest"): Promise<CallResult> {
    return parseCallResult(await this.request("cowboy_call", [callParam(req), blockTagParam(block)]));
  }

  /** Simulates a call and decodes its CBOR result; throws {@link ActorCallError} when the handler fails. */
  async readActor(req: CallRequest, block: BlockTag = "latest"): Promise<CborValue> {
    const r = await this.call(req, block);
    if (!r.ok) throw ActorCallError.fromCall(req.handler, r);
    return r.returnData.length === 0 ? null : decodeCbor(r.returnData);
  }

  /** An actor's source code; null for a plain account. */
  async getCode(address: Address, block: BlockTag = "latest"): Promise<Uint8Array | null> {
    const raw = await this.request("cowboy_getCode", [toData(address), blockTagParam(block)]);
    return raw === null || raw === "0x" ? null : dataAt(raw, "cowboy_getCode");
  }

  /**
   * One actor storage cell: its canonical CBOR bytes (null when absent), proven.
   * The node answers with a state proof, which is verified against the state
   * root of the block's header (`verifyStateProof`): a wrong proof throws a
   * `StateProofError`, a value that differs from the proven one a
   * {@link ResponseShapeError}.
   */
  async getStorageAt(address: Address, key: Uint8Array, block: BlockTag = "latest"): Promise<ProvenValue> {
    const raw = await this.request("cowboy_getStorageAt", [
      toData(address),
      toData(key),
      blockTagParam(block),
    ]);
    return this.verifyProvenRead(raw, actorStorageKey(address, key), "cowboy_getStorageAt");
  }

  /** An actor storage cell decoded from CBOR (`undefined` when absent), proven as {@link getStorageAt}. */
  async readStorage(
    address: Address,
    key: string | Uint8Array,
    block: BlockTag = "latest",
  ): Promise<CborValue | undefined> {
    const k = typeof key === "string" ? encodeCbor(key) : key;
    const v = await this.getStorageAt(address, k, block);
    return v.value === null ? undefined : decodeCbor(v.value);
  }

  /** An account record (balance, nonce, code hash) proven against the block's state root; null when absent. */
  async getProvenAccount(
    address: Address,
    block: BlockTag = "latest",
  ): Promise<(AccountRecord & ProvenValue) | null> {
    const raw = await this.request("cowboy_getProof", [toData(address), blockTagParam(block)]);
    const proven = await this.verifyProvenRead(raw, accountKey(address), "cowboy_getProof");
    return proven.value === null ? null : { ...decodeAccountRecord(proven.value), ...proven };
  }

  private async verifyProvenRead(raw: unknown, key: Uint8Array, path: string): Promise<ProvenValue> {
    const s = new Shape(raw, path);
    if (s.has("key") && !bytesEqual(s.data("key"), key)) {
      throw new ResponseShapeError(`${path}.key`, "the node proved a different state key");
    }
    const blockNumber = s.quantity("blockNumber");
    const header = await this.getBlock({ number: blockNumber });
    if (header === null)
      throw new ResponseShapeError(`${path}.blockNumber`, `block ${blockNumber} is unknown`);
    if (s.has("stateRoot") && !bytesEqual(s.data("stateRoot", 32), header.stateRoot)) {
      throw new ResponseShapeError(`${path}.stateRoot`, "differs from the block header's state root");
    }
    const result = verifyStateProof(header.stateRoot, key, s.data("proof"));
    const claimed = s.optData("value");
    const proven = result.exists ? result.value : null;
    if (
      (claimed === null) !== (proven === null) ||
      (claimed !== null && proven !== null && !bytesEqual(claimed, proven))
    ) {
      throw new ResponseShapeError(`${path}.value`, "the claimed value differs from the proven one");
    }
    return { key, value: proven, blockNumber, stateRoot: header.stateRoot };
  }

  /** Events of `filter.address` (required by the node) matching the filter; default range: the latest block. */
  async getLogs(filter: EventFilter): Promise<RpcEvent[]> {
    const raw = await this.request("cowboy_getLogs", [filterParam(filter)]);
    if (!Array.isArray(raw)) throw new ResponseShapeError("cowboy_getLogs", "expected an array");
    return raw.map((e, i) => parseEvent(e, `cowboy_getLogs[${i}]`));
  }

  /** Pending timers of an actor. */
  async getTimers(actor: Address): Promise<RpcTimer[]> {
    const raw = await this.request("cowboy_getTimers", [toData(actor)]);
    if (!Array.isArray(raw)) throw new ResponseShapeError("cowboy_getTimers", "expected an array");
    return raw.map((t, i) => parseTimer(t, `cowboy_getTimers[${i}]`));
  }

  /**
   * The validator set of `epoch` (default: the next block's epoch) in consensus-index order,
   * with the members' stakes; empty when the node keeps no set for that epoch.
   */
  async getValidators(epoch?: bigint | number): Promise<RpcValidatorSet> {
    const params = epoch === undefined ? [] : [toQuantity(epoch)];
    return parseValidatorSet(await this.request("cowboy_getValidators", params), "cowboy_getValidators");
  }

  /** A validator's record in the head state (stake, status, activation epoch, jail, slashing); null if not registered. */
  async getValidator(address: Address): Promise<RpcValidator | null> {
    const raw = await this.request("cowboy_getValidator", [toData(address)]);
    return raw === null ? null : parseValidator(raw, "cowboy_getValidator");
  }

  /** Submits signed transaction bytes; resolves to the transaction hash. */
  async sendRawTransaction(bytes: Uint8Array): Promise<Hash32> {
    return dataAt(
      await this.request("cowboy_sendRawTransaction", [toData(bytes)]),
      "cowboy_sendRawTransaction",
      32,
    );
  }

  /**
   * Polls for the receipt of `hash` until it exists or `timeoutMs` passes
   * ({@link WaitTimeoutError}). Transient transport failures are retried.
   */
  async waitForTransactionReceipt(hash: Hash32, options: WaitOptions = {}): Promise<RpcReceipt> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const interval = options.pollIntervalMs ?? 250;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const r = await this.getTransactionReceipt(hash);
        if (r !== null) return r;
      } catch (err) {
        if (!(err instanceof TransportError) || err.kind === "bad-response") throw err;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new WaitTimeoutError(toHex(hash), timeoutMs);
      await sleep(Math.min(interval, left));
    }
  }

  private subscribing(): SubscribingTransport {
    const t = this.transport;
    if (!canSubscribe(t)) {
      throw new TypeError(`subscriptions need a WebSocket transport (ws://…), not ${t.url}`);
    }
    return t;
  }

  /** Calls `onBlock` with each new block header (WebSocket only). */
  watchBlocks(
    onBlock: (block: RpcBlock) => void,
    onError?: (err: Error) => void,
  ): Promise<SubscriptionHandle> {
    return this.subscribing().subscribe("newHeads", undefined, {
      onData: (raw) => {
        try {
          onBlock(parseBlock(withTransactions(raw), "newHeads"));
        } catch (err) {
          onError?.(err as Error);
        }
      },
      ...(onError !== undefined ? { onError } : {}),
    });
  }

  /** Calls `onEvent` with each event matching `filter` (WebSocket only). */
  watchEvents(
    filter: EventFilter,
    onEvent: (event: RpcEvent) => void,
    onError?: (err: Error) => void,
  ): Promise<SubscriptionHandle> {
    const f = filterParam(filter);
    return this.subscribing().subscribe("events", Object.keys(f).length === 0 ? undefined : f, {
      onData: (raw) => {
        try {
          onEvent(parseEvent(raw, "events"));
        } catch (err) {
          onError?.(err as Error);
        }
      },
      ...(onError !== undefined ? { onError } : {}),
    });
  }

  /** Calls `onHash` with the hash of each transaction admitted to the mempool (WebSocket only). */
  watchPendingTransactions(
    onHash: (hash: Hash32) => void,
    onError?: (err: Error) => void,
  ): Promise<SubscriptionHandle> {
    return this.subscribing().subscribe("pendingTransactions", undefined, {
      onData: (raw) => {
        try {
          onHash(
            dataAt(
              typeof raw === "object" && raw !== null ? (raw as { hash?: unknown }).hash : raw,
              "pendingTransactions",
              32,
            ),
          );
        } catch (err) {
          onError?.(err as Error);
        }
      },
      ...(onError !== undefined ? { onError } : {}),
    });
  }

  /** Closes the transport. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

/** newHeads notifications carry headers without a transaction list. */
function withTransactions(raw: unknown): unknown {
  if (typeof raw === "object" && raw !== null && !("transactions" in raw))
    return { ...raw, transactions: [] };
  return raw;
}

/** A failure text split into the node's code, the exception type and its message. */
export interface Failure {
  /** the node's reason, e.g. `ERR_EXEC_HANDLER` (null when the text has none) */
  code: string | null;
  /** the exception type raised in the actor, e.g. `ValueError` (else the code or status) */
  type: string;
  detail: string;
}

/**
 * Parses a receipt's or simulation's error text: `ERR_EXEC_HANDLER: ValueError: by must
 * be positive` → code `ERR_EXEC_HANDLER`, type `ValueError`, detail `by must be positive`;
 * `ERR_EXEC_NOT_ACTOR: 0x… is not an actor` → type `ERR_EXEC_NOT_ACTOR`.
 */
export function parseFailure(text: string, fallbackType = "Error"): Failure {
  let rest = text;
  let code: string | null = null;
  const c = /^(ERR_[A-Z0-9_]+): ?([\s\S]*)$/.exec(rest);
  if (c !== null) {
    code = c[1] as string;
    rest = c[2] as string;
  }
  const t = /^([A-Za-z_][A-Za-z0-9_.]*)(?:: ([\s\S]*))?$/.exec(rest);
  if (
    t !== null &&
    /^[A-Z]/.test(t[1] as string) &&
    !(t[1] as string).startsWith("ERR_") &&
    (t[2] !== undefined || code !== null)
  ) {
    return { code, type: t[1] as string, detail: t[2] ?? "" };
  }
  return { code, type: code ?? fallbackType, detail: rest };
}

/** A simulated or executed handler failed. */
export class ActorCallError extends Error {
  readonly handler: string;
  /** the Python exception type, e.g. `ValueError` (or the node's code when no exception was raised) */
  readonly type: string;
  readonly detail: string;
  /** the node's reason, e.g. `ERR_EXEC_HANDLER`, when it gave one */
  readonly code: string | null;
  readonly result: CallResult | RpcReceipt | null;

  constructor(
    handler: string,
    type: string,
    detail: string,
    result: CallResult | RpcReceipt | null,
    code: string | null = null,
  ) {
    super(`${handler}: ${type}${detail === "" ? "" : `: ${detail}`}`);
    this.name = "ActorCallError";
    this.handler = handler;
    this.type = type;
    this.detail = detail;
    this.code = code;
    this.result = result;
  }

  /** An error from a failed simulation. */
  static fromCall(handler: string, r: CallResult): ActorCallError {
    const e = r.error;
    if (e !== null && /^[A-Z][A-Za-z0-9_]*$/.test(e.type) && !e.type.startsWith("ERR_")) {
      const inner = parseFailure(e.message);
      return new ActorCallError(handler, e.type, e.message, r, inner.code);
    }
    const f = parseFailure(e?.message ?? "", e?.type ?? "Error");
    return new ActorCallError(handler, f.type, f.detail, r, f.code);
  }

  /** An error from a failed transaction's receipt. */
  static fromReceipt(handler: string, receipt: RpcReceipt): ActorCallError {
    const f = parseFailure(receipt.error ?? receipt.status, receipt.status);
    return new ActorCallError(handler, f.type, f.detail, receipt, f.code);
  }

  get errCode(): string {
    return this.code ?? "ERR_ACTOR_CALL";
  }
}

/** A {@link PublicClient} for `transport` (a URL or a transport). */
export function createPublicClient(options: ClientOptions): PublicClient {
  return new PublicClient(options);
}
