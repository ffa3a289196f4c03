/**
 * Typed errors of the p2p layer. Every failure carries a stable `code` string and
 * structured `data`; callers switch on `code`, never on the message text.
 */

/** Every error code this package raises. */
export type P2pErrorCode =
  // wire codec (strict decoding of consensus messages)
  | "WIRE_TRUNCATED"
  | "WIRE_TRAILING_BYTES"
  | "WIRE_BAD_VERSION"
  | "WIRE_BAD_TAG"
  | "WIRE_BAD_VALUE"
  | "WIRE_BAD_BLOCK"
  | "WIRE_TOO_LARGE"
  // stream framing
  | "FRAME_TOO_LARGE"
  | "FRAME_TRUNCATED"
  // configuration and identity
  | "CONFIG_INVALID"
  | "IDENTITY_IO"
  | "IDENTITY_INVALID"
  // runtime
  | "NOT_STARTED"
  | "UNKNOWN_VALIDATOR"
  | "PEER_BANNED"
  | "SEND_FAILED"
  | "SYNC_FAILED"
  | "SYNC_NO_HANDLER";

/** An error of the p2p layer: a stable `code` plus structured `data`. */
export class P2pError extends Error {
  readonly code: P2pErrorCode;
  readonly data: Readonly<Record<string, unknown>>;

  constructor(code: P2pErrorCode, message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(`${code}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = "P2pError";
    this.code = code;
    this.data = data;
  }
}

/** True if `e` is a {@link P2pError} (optionally with the given code). */
export function isP2pError(e: unknown, code?: P2pErrorCode): e is P2pError {
  return e instanceof P2pError && (code === undefined || e.code === code);
}
