/**
 * JSON-RPC 2.0 errors. Codes -32700..-32600 are the protocol's own; -32000..-32099 are
 * the server-defined range, used as Ethereum clients use them.
 */
export const RpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** generic server error, e.g. a transaction the node refuses */
  SERVER_ERROR: -32000,
  /** the requested resource (block, transaction, subscription) does not exist */
  RESOURCE_NOT_FOUND: -32001,
  /** a transaction was refused by validation or the mempool */
  TRANSACTION_REJECTED: -32003,
  /** a request or rate limit was exceeded */
  LIMIT_EXCEEDED: -32005,
} as const;

export type RpcErrorCodeValue = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

/** An error answered to the client: a JSON-RPC code, a message and optional structured data. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  static invalidParams(message: string, data?: unknown): RpcError {
    return new RpcError(RpcErrorCode.INVALID_PARAMS, message, data);
  }
}
