/**
 * Typed errors of the SDK. Every error carries a stable machine-readable
 * `code` (the same code names as the Rust crate `cowboy-codec`, docs/codec.md
 * §7) and a message that names the offending field. `errCode` is the form the
 * native addon throws (`ERR_CODEC_<CODE>`, `ERR_SIG_<CODE>`, `ERR_TX_JSON_FIELD`).
 */

/** Violated rules of the strict canonical decoder (docs/codec.md §7). */
export type CodecErrorCode =
  | "TX_TOO_LARGE"
  | "UNEXPECTED_EOF"
  | "NON_MINIMAL_VARINT"
  | "VARINT_OVERFLOW"
  | "LENGTH_OVERFLOW"
  | "INVALID_OPTION_TAG"
  | "UNKNOWN_CATEGORY"
  | "UNKNOWN_SUB_TYPE"
  | "UNKNOWN_VARIANT"
  | "TRAILING_BYTES"
  | "INVALID_UTF8"
  | "INVALID_HANDLER"
  | "INVALID_LIBRARY_NAME"
  | "INVALID_INTERVAL"
  | "SIGNERS_NOT_ASCENDING"
  | SourceErrorCode
  /**
   * TS only: an in-memory value handed to the encoder is not representable
   * (a u64 outside 0..2^64-1, a fixed-width field of the wrong length, a
   * sub_type outside 0..255). Rust's types make these states unrepresentable.
   */
  | "INVALID_VALUE";

/** Why a Python source is not canonical (spec §1.2); checked in this order. */
export type SourceErrorCode = "SOURCE_NOT_UTF8" | "SOURCE_HAS_BOM" | "SOURCE_HAS_CR" | "SOURCE_NOT_NFC";

/** Signature, key and signer failures (docs/codec.md §7). */
export type SigErrorCode =
  | "INVALID_SIGNATURE"
  | "HIGH_S"
  | "INVALID_RECOVERY_ID"
  | "SIGNER_MISMATCH"
  | "ADDITIONAL_SIGNER_MISMATCH"
  | "INVALID_SECRET_KEY"
  | "FROM_MISMATCH"
  | "NOT_A_SIGNER";

/** A violated rule of the canonical codec. `field` is the dotted path of the field, e.g. `instruction.handler`. */
export class CodecError extends Error {
  readonly code: CodecErrorCode;
  readonly field: string;
  /** The message without the field path. */
  readonly detail: string;

  constructor(code: CodecErrorCode, field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = "CodecError";
    this.code = code;
    this.field = field;
    this.detail = detail;
  }

  /** The code as the native addon throws it: `ERR_CODEC_<CODE>`. */
  get errCode(): string {
    return `ERR_CODEC_${this.code}`;
  }
}

/** Codes whose field path is not nested under an enclosing value (as in the Rust crate's `in_field`). */
const UNNESTED: ReadonlySet<CodecErrorCode> = new Set([
  "TX_TOO_LARGE",
  "UNKNOWN_CATEGORY",
  "UNKNOWN_SUB_TYPE",
  "TRAILING_BYTES",
  "SIGNERS_NOT_ASCENDING",
]);

/** `err` with its field nested under `prefix` (e.g. `header.height`), for errors inside a composite value. */
export function inField(err: CodecError, prefix: string): CodecError {
  if (UNNESTED.has(err.code)) return err;
  return new CodecError(err.code, `${prefix}.${err.field}`, err.detail);
}

/** A Python source that is not canonical (UTF-8, no BOM, LF only, NFC). */
export class SourceError extends CodecError {
  declare readonly code: SourceErrorCode;

  constructor(code: SourceErrorCode, field: string) {
    super(code, field, SOURCE_MESSAGES[code]);
    this.name = "SourceError";
  }
}

const SOURCE_MESSAGES: Record<SourceErrorCode, string> = {
  SOURCE_NOT_UTF8: "source is not valid UTF-8",
  SOURCE_HAS_BOM: "source starts with a byte-order mark",
  SOURCE_HAS_CR: "source contains a carriage return (only LF line endings are canonical)",
  SOURCE_NOT_NFC: "source is not NFC-normalized",
};

/** A signature, key or signer check failed. */
export class SigError extends Error {
  readonly code: SigErrorCode;
  readonly field: string;

  constructor(code: SigErrorCode, field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = "SigError";
    this.code = code;
    this.field = field;
  }

  /** The code as the native addon throws it: `ERR_SIG_<CODE>`. */
  get errCode(): string {
    return `ERR_SIG_${this.code}`;
  }
}

/** A JSON transaction (TxJson, docs/codec.md §8) is malformed. Message: `<path>: <what is wrong>`. */
export class TxJsonError extends Error {
  readonly code = "TX_JSON_FIELD" as const;
  readonly path: string;
  /** The message without the path. */
  readonly detail: string;

  constructor(path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.name = "TxJsonError";
    this.path = path;
    this.detail = detail;
  }

  /** The code as the native addon throws it. */
  get errCode(): string {
    return "ERR_TX_JSON_FIELD";
  }
}

/** Any typed SDK error. */
export type SdkError = CodecError | SigError | TxJsonError;

/** True if `err` is one of the SDK's typed errors. */
export function isSdkError(err: unknown): err is SdkError {
  return err instanceof CodecError || err instanceof SigError || err instanceof TxJsonError;
}
