/** Typed errors of the state transition function: a stable `code` plus structured data. */

export type StfErrorCode =
  // transaction validity (§2.2); a block containing such a transaction is invalid
  | "ERR_TX_DECODE"
  | "ERR_TX_SIGNATURE"
  | "ERR_TX_CHAIN_ID"
  | "ERR_TX_NONCE"
  | "ERR_TX_BALANCE"
  | "ERR_TX_LIMITS"
  | "ERR_TX_INTRINSIC"
  | "ERR_TX_FEE_BELOW_BASEFEE"
  | "ERR_TX_UNSUPPORTED"
  | "ERR_TX_DEFERRED"
  // a runner-job delivery (deferred transaction) that cannot apply; data.cause = JobErrorCode (jobs.ts)
  | "ERR_TX_JOB"
  // block validity
  | "ERR_BLOCK_PARENT"
  | "ERR_BLOCK_HEIGHT"
  | "ERR_BLOCK_TIMESTAMP"
  | "ERR_BLOCK_BASEFEE"
  | "ERR_BLOCK_TX_ROOT"
  | "ERR_BLOCK_ORDER"
  | "ERR_BLOCK_LANE_BUDGET"
  | "ERR_BLOCK_CELLS_CAP"
  | "ERR_BLOCK_INVALID_TX"
  | "ERR_BLOCK_RECEIPTS_ROOT"
  | "ERR_BLOCK_USAGE"
  | "ERR_BLOCK_STATE_ROOT"
  | "ERR_BLOCK_FIELD"
  // chain set-up
  | "ERR_CHAIN_GENESIS"
  | "ERR_CHAIN_HEAD"
  | "ERR_CHAIN_NO_RUNTIME"
  // threshold group / resharing records (dkg.ts)
  | "ERR_DKG_OUTPUT"
  | "ERR_DKG_CORRUPT";

export class StfError extends Error {
  readonly code: StfErrorCode;
  readonly data: Record<string, unknown>;
  constructor(code: StfErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = "StfError";
    this.code = code;
    this.data = data;
  }
}

/**
 * Why a message or transaction failed during execution (the receipt's `error` starts with it).
 * These never make a block invalid: the transaction is included, reverted, and pays.
 */
export type ExecFailureCode =
  | "ERR_EXEC_HANDLER"
  | "ERR_EXEC_OUT_OF_CYCLES"
  | "ERR_EXEC_OUT_OF_CELLS"
  | "ERR_EXEC_NOT_ACTOR"
  | "ERR_EXEC_ACTOR_EXISTS"
  | "ERR_EXEC_INSUFFICIENT_VALUE"
  | "ERR_EXEC_FANOUT"
  | "ERR_EXEC_DEPTH"
  | "ERR_EXEC_MAILBOX_FULL"
  | "ERR_EXEC_ACTOR_BLOCK_BUDGET"
  | "ERR_EXEC_TIMER"
  | "ERR_EXEC_EFFECT"
  | "ERR_EXEC_DUPLICATE"
  | "ERR_EXEC_NO_RUNTIME"
  // a job effect that could not be applied (escrow), or a job callback its actor cannot pay for
  | "ERR_EXEC_JOB";
