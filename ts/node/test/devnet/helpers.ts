/** Shared helpers of the devnet tests: a raw JSON-RPC client, signed transfers, polling. */
import {
  encodeTransaction,
  type Instruction,
  signTransaction,
  type Transaction,
  toHex,
  utf8,
  zeroSignature,
} from "@cowboy/sdk";

export interface RpcAnswer {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** POSTs one request (or a raw body) and returns the parsed answer and the HTTP status. */
export async function post(url: string, body: string): Promise<{ status: number; json: unknown }> {
  const r = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
  const text = await r.text();
  return { status: r.status, json: text === "" ? null : JSON.parse(text) };
}

export function client(url: string) {
  let id = 1;
  const call = async (method: string, params: unknown[] | Record<string, unknown> = []): Promise<RpcAnswer> =>
    (await post(url, JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }))).json as RpcAnswer;
  /** the result, or throws with the error */
  const ok = async <T = unknown>(
    method: string,
    params: unknown[] | Record<string, unknown> = [],
  ): Promise<T> => {
    const a = await call(method, params);
    if (a.error !== undefined) throw new Error(`${method}: ${a.error.code} ${a.error.message}`);
    return a.result as T;
  };
  return { call, ok };
}

export type Client = ReturnType<typeof client>;

/** A signed transaction of `key`'s account with generous limits and fee caps. */
export function signedTx(
  key: { address: Uint8Array; secretKey: Uint8Array },
  opts: {
    chainId: bigint;
    nonce: bigint;
    instruction: Instruction;
    maxFee?: bigint;
    tip?: bigint;
    cyclesLimit?: bigint;
    cellsLimit?: bigint;
  },
): { tx: Transaction; hex: string } {
  const tx = signTransaction(
    {
      chainId: opts.chainId,
      nonce: opts.nonce,
      instruction: opts.instruction,
      cyclesLimit: opts.cyclesLimit ?? 200_000n,
      cellsLimit: opts.cellsLimit ?? 10_000n,
      maxFeePerCycle: opts.maxFee ?? 40_000n,
      maxFeePerCell: opts.maxFee ?? 40_000n,
      maxPriorityFeePerCycle: opts.tip ?? 1n,
      maxPriorityFeePerCell: opts.tip ?? 1n,
      from: key.address,
      accessList: null,
      metadata: new Uint8Array(0),
      originTxHash: null,
      originRemainingCycles: null,
      originRemainingCells: null,
      signature: zeroSignature(),
      additionalSigners: [],
    },
    key.secretKey,
  );
  return { tx, hex: toHex(encodeTransaction(tx)) };
}

/** Polls `probe` every 25 ms until it returns non-null, or fails after `ms`. */
export async function waitFor<T>(
  probe: () => Promise<T | null>,
  ms = 45_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function waitReceipt(c: Client, hash: string, ms = 45_000): Promise<Record<string, unknown>> {
  return waitFor(
    () => c.ok<Record<string, unknown> | null>("cowboy_getTransactionReceipt", [hash]),
    ms,
    `receipt ${hash}`,
  );
}

/** A counter actor with an event per increment and an interval timer (deploy args: none). */
export const COUNTER = `from cowboy_sdk import actor, emit, set_interval

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0
        self.storage["ticks"] = 0

    def increment(self):
        self.storage["count"] += 1
        emit("Counted", "one more")
        return self.storage["count"]

    def start(self, every):
        set_interval(every, "tick")

    def tick(self, data):
        self.storage["ticks"] += 1
        emit("Tick")
`;

/** A topic as the STF encodes it: each part with a 2-byte big-endian length. */
export function topicOf(name: string): string {
  const b = utf8(name);
  return toHex(Uint8Array.of(b.length >> 8, b.length & 0xff, ...b));
}

/**
 * A sender of `key`'s transactions with consecutive nonces from `firstNonce` and actor-sized
 * limits, to the client `rpc()` returns at each call (a test may restart its node); each call
 * resolves with the transaction's receipt.
 */
export function actorSender(
  rpc: () => Client,
  key: { address: Uint8Array; secretKey: Uint8Array },
  chainId: bigint,
  firstNonce = 0n,
): (instruction: Instruction) => Promise<Record<string, unknown>> {
  let nonce = firstNonce;
  return async (instruction) => {
    const { hex } = signedTx(key, {
      chainId,
      nonce: nonce++,
      instruction,
      cyclesLimit: 5_000_000n,
      cellsLimit: 200_000n,
    });
    const c = rpc();
    return waitReceipt(c, await c.ok<string>("cowboy_sendRawTransaction", [hex]));
  };
}

/**
 * Subscribes over the WebSocket at `wsUrl` to `kind` ("events" or "logs") of the actor at
 * `address` and collects the results whose topic is `topic`; resolves once the node has
 * acknowledged the subscription (nothing emitted afterwards is missed).
 */
export async function collectEvents(
  wsUrl: string,
  kind: "events" | "logs",
  address: string,
  topic: string,
): Promise<{ readonly events: Array<Record<string, string>>; close(): void }> {
  const ws = new WebSocket(wsUrl);
  const events: Array<Record<string, string>> = [];
  let acknowledged!: () => void;
  let refused!: (e: Error) => void;
  const subscribed = new Promise<void>((resolve, reject) => {
    acknowledged = resolve;
    refused = reject;
  });
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(String(e.data)) as {
      id?: number;
      error?: { message: string };
      params?: { result?: Record<string, string> };
    };
    if (m.id === 1) {
      if (m.error === undefined) acknowledged();
      else refused(new Error(`cowboy_subscribe: ${m.error.message}`));
    } else if (m.params?.result?.topic === topic) events.push(m.params.result);
  });
  ws.addEventListener("error", () => refused(new Error(`WebSocket ${wsUrl} failed`)));
  await new Promise<void>((resolve) => ws.addEventListener("open", () => resolve()));
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "cowboy_subscribe", params: [kind, { address }] }));
  await subscribed;
  return { events, close: () => ws.close() };
}
