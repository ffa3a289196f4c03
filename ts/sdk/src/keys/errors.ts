/**
 * Typed errors of key management (`keys/`): mnemonics, HD derivation paths and
 * encrypted keystores. Every error has a stable `code`; `errCode` is the
 * `ERR_<CODE>` form the CLI prints (e.g. `ERR_KEYSTORE_PASSWORD`).
 */

/** What went wrong with a key, a mnemonic, a path or a keystore. */
export type KeyErrorCode =
  /** The mnemonic does not have 12, 15, 18, 21 or 24 words. */
  | "MNEMONIC_LENGTH"
  /** A word of the mnemonic is not in the BIP-39 English word list. */
  | "MNEMONIC_UNKNOWN_WORD"
  /** All words are known but the BIP-39 checksum does not match. */
  | "MNEMONIC_CHECKSUM"
  /** A requested mnemonic size other than 12 or 24 words (generation). */
  | "MNEMONIC_STRENGTH"
  /** A BIP-32 derivation path that does not parse, or an index out of range. */
  | "INVALID_PATH"
  /** A derivation produced no usable secret key (BIP-32 says: skip to the next index). */
  | "DERIVATION_FAILED"
  /** The keystore's MAC does not match: the password is wrong (or the file was altered). */
  | "KEYSTORE_PASSWORD"
  /** The keystore is not a well-formed Web3 Secret Storage v3 document this SDK can read. */
  | "KEYSTORE_FORMAT"
  /** Parameters handed to `encryptKeystore` are out of range. */
  | "KEYSTORE_PARAMS";

/** A key-management failure. `message` names the problem; `code` is stable. */
export class KeyError extends Error {
  readonly code: KeyErrorCode;

  constructor(code: KeyErrorCode, message: string) {
    super(message);
    this.name = "KeyError";
    this.code = code;
  }

  /** The code as the CLI prints it: `ERR_<CODE>`. */
  get errCode(): string {
    return `ERR_${this.code}`;
  }
}
