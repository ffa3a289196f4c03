/**
 * Typed errors of the RPC client. Every failure a caller can meet is one of:
 *
 * - {@link RpcRequestError}: the node answered with a JSON-RPC error object
 *   (`code`, `message`, `data`); `reason` is the node's string code from
 *   `data.code` when it gave one (e.g. `ERR_MEMPOOL_NONCE_TOO_LOW`).
 * - {@link TransportError}: no usable answer (network failure, HTTP status
 *   without a JSON-RPC body, closed socket, malformed response, request timeout).
 * - {@link WaitTimeoutError}: `waitForTransactionReceipt` gave up.
 * - {@link ResponseShapeError}: the node answered, but not in the shape this
 *   client expects (wrong field types) — a version mismatch between node and SDK.
 *
 * All of them carry a stable string `errCode` (`ERR_RPC_…`), the CLI's form.
 */

/** The JSON-RPC 2.0 and Cowboy server error codes (docs/rpc.md "Errors"). */
export const RPC_ERROR_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVER_ERROR: -32000,
  RESOURCE_NOT_FOUND: -32001,
  TRANSACTION_REJECTED: -32003,
  LIMIT_EXCEEDED: -32005,
} as const;

const CODE_NAMES: Record<number, string> = {
  [-32700]: "ERR_RPC_PARSE",
  [-32600]: "ERR_RPC_INVALID_REQUEST",
  [-32601]: "ERR_RPC_METHOD_NOT_FOUND",
  [-32602]: "ERR_RPC_INVALID_PARAMS",
  [-32603]: "ERR_RPC_INTERNAL",
  [-32000]: "ERR_RPC_SERVER",
  [-32001]: "ERR_RPC_NOT_FOUND",
  [-32003]: "ERR_RPC_TX_REJECTED",
  [-32005]: "ERR_RPC_LIMIT",
};

/** The node answered a request with a JSON-RPC error. */
export class RpcRequestError extends Error {
  /** JSON-RPC error code (see {@link RPC_ERROR_CODES}). */
  readonly code: number;
  /** The error's `data`, as sent. */
  readonly data: unknown;
  /** The method that failed. */
  readonly method: string;
  /** The node's own reason code (`data.code`, e.g. `ERR_MEMPOOL_NONCE_TOO_LOW`), if any. */
  readonly reason: string | null;

  constructor(method: string, code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcRequestError";
    this.method = method;
    this.code = code;
    this.data = data;
    const reason = (data as { code?: unknown } | null | undefined)?.code;
    this.reason = typeof reason === "string" ? reason : null;
  }

  /** The most specific stable code: the node's reason when given, else `ERR_RPC_<kind>`. */
  get errCode(): string {
    return this.reason ?? CODE_NAMES[this.code] ?? `ERR_RPC_${this.code}`;
  }
}

/** Why a request got no usable answer. */
export type TransportErrorKind = "network" | "http" | "timeout" | "closed" | "bad-response";

/** A request got no usable answer from the node. */
export class TransportError extends Error {
  readonly kind: TransportErrorKind;
  /** HTTP status, for `kind === "http"`. */
  readonly status: number | null;
  readonly url: string;

  constructor(kind: TransportErrorKind, url: string, message: string, status: number | null = null) {
    super(message);
    this.name = "TransportError";
    this.kind = kind;
    this.url = url;
    this.status = status;
  }

  get errCode(): string {
    return `ERR_RPC_${this.kind.toUpperCase().replace("-", "_")}`;
  }
}

/** `waitForTransactionReceipt` saw no receipt within its timeout. */
export class WaitTimeoutError extends Error {
  readonly hash: string;
  readonly timeoutMs: number;

  constructor(hash: string, timeoutMs: number) {
    super(`no receipt for ${hash} after ${timeoutMs} ms (is the node producing blocks?)`);
    this.name = "WaitTimeoutError";
    this.hash = hash;
    this.timeoutMs = timeoutMs;
  }

  get errCode(): string {
    return "ERR_RPC_WAIT_TIMEOUT";
  }
}

/** The node's answer does not have the shape this SDK expects (node and SDK versions differ). */
export class ResponseShapeError extends Error {
  readonly path: string;

  constructor(path: string, detail: string) {
    super(`unexpected RPC response at ${path}: ${detail}`);
    this.name = "ResponseShapeError";
    this.path = path;
  }

  get errCode(): string {
    return "ERR_RPC_RESPONSE_SHAPE";
  }
}

/** Any error of the RPC client. */
export type ClientError = RpcRequestError | TransportError | WaitTimeoutError | ResponseShapeError;

/** Whether `err` is one of the client's typed errors. */
export function isClientError(err: unknown): err is ClientError {
  return (
    err instanceof RpcRequestError ||
    err instanceof TransportError ||
    err instanceof WaitTimeoutError ||
    err instanceof ResponseShapeError
  );
}
