/** Shared helpers of the devnet tests: a raw JSON-RPC client, signed transfers, polling. */
import {
  encodeTransaction,
  type Instruction,
  signTransaction,
  type Transaction,
  toHex,
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
  const ok = async <T = unknown>(method: string, params: unknown[] | Record<string, unknown> = []): Promise<T> => {
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
  opts: { chainId: bigint; nonce: bigint; instruction: Instruction; maxFee?: bigint; tip?: bigint },
): { tx: Transaction; hex: string } {
  const tx = signTransaction(
    {
      chainId: opts.chainId,
      nonce: opts.nonce,
      instruction: opts.instruction,
      cyclesLimit: 200_000n,
      cellsLimit: 10_000n,
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
export async function waitFor<T>(probe: () => Promise<T | null>, ms = 10_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function waitReceipt(c: Client, hash: string, ms = 10_000): Promise<Record<string, unknown>> {
  return waitFor(() => c.ok<Record<string, unknown> | null>("cowboy_getTransactionReceipt", [hash]), ms, `receipt ${hash}`);
}
