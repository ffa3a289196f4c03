/** Why the mempool refused a transaction. Codes are stable; messages are for people. */
export type MempoolErrorCode =
  | "ERR_MEMPOOL_DUPLICATE"
  | "ERR_MEMPOOL_NONCE_TOO_LOW"
  | "ERR_MEMPOOL_NONCE_GAP"
  | "ERR_MEMPOOL_FEE_TOO_LOW"
  | "ERR_MEMPOOL_REPLACEMENT_UNDERPRICED"
  | "ERR_MEMPOOL_SENDER_FULL"
  | "ERR_MEMPOOL_FULL"
  | "ERR_MEMPOOL_TX_TOO_LARGE";

export class MempoolError extends Error {
  readonly code: MempoolErrorCode;
  readonly data: Readonly<Record<string, string>>;

  constructor(code: MempoolErrorCode, message: string, data: Record<string, string> = {}) {
    super(message);
    this.name = "MempoolError";
    this.code = code;
    this.data = data;
  }
}
