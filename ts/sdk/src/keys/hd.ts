/**
 * BIP-32 hierarchical derivation of secp256k1 keys from a BIP-39 mnemonic.
 *
 * Cowboy's default path is **`m/44'/60'/0'/0/{index}`**: the BIP-44 path with
 * Ethereum's SLIP-44 coin type 60. Cowboy EOAs use the same curve and the same
 * address rule as Ethereum (spec §16.1 "Account Unification"; docs/codec.md §4),
 * so a mnemonic already held in an Ethereum wallet yields the *same* addresses on
 * Cowboy, and a Cowboy mnemonic can be recovered in any Ethereum wallet.
 *
 * Paths are written `m/a/b'/c…`: indices are decimal in `[0, 2^31-1]`, and a
 * trailing `'` (or `h`) marks a hardened index.
 */
import { HDKey } from "@scure/bip32";
import { addressFromSecretKey } from "../crypto.ts";
import type { Address } from "../types.ts";
import { KeyError } from "./errors.ts";
import { mnemonicToSeed } from "./mnemonic.ts";
import { checkSecretKey } from "./secret.ts";

/** The account prefix of Cowboy's default path; the last element is the address index. */
export const DEFAULT_PATH_PREFIX = "m/44'/60'/0'/0";

/** Offset added to an index to make it hardened (2^31). */
export const HARDENED = 0x8000_0000;

/** The default derivation path for address `index`: `m/44'/60'/0'/0/{index}`. */
export function defaultDerivationPath(index = 0): string {
  checkIndex(index, "index");
  return `${DEFAULT_PATH_PREFIX}/${index}`;
}

function checkIndex(index: number, what: string): void {
  if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED) {
    throw new KeyError("INVALID_PATH", `${what} must be an integer in [0, 2^31-1], found ${String(index)}`);
  }
}

/**
 * The child indices of `path` (hardened ones with 2^31 added). Throws
 * {@link KeyError} `INVALID_PATH` naming the bad element.
 */
export function parseDerivationPath(path: string): number[] {
  if (typeof path !== "string") throw new KeyError("INVALID_PATH", "derivation path must be a string");
  const parts = path.split("/");
  if (parts[0] !== "m") {
    throw new KeyError("INVALID_PATH", `derivation path "${path}" must start with "m"`);
  }
  const out: number[] = [];
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i] as string;
    const m = /^(0|[1-9][0-9]{0,9})(['h]?)$/u.exec(part);
    if (m === null) {
      throw new KeyError(
        "INVALID_PATH",
        `derivation path "${path}": element ${i} "${part}" is not a decimal index with an optional ' or h`,
      );
    }
    const index = Number(m[1]);
    if (index >= HARDENED) {
      throw new KeyError("INVALID_PATH", `derivation path "${path}": index ${index} is not below 2^31`);
    }
    out.push(m[2] === "" ? index : index + HARDENED);
  }
  return out;
}

/**
 * The secret key at `path` under a BIP-32 master `seed` (16..64 bytes, e.g. a
 * BIP-39 seed). Throws {@link KeyError} `INVALID_PATH`, or `DERIVATION_FAILED`
 * in the ~2^-127 case where BIP-32 yields no valid key at some step.
 */
export function deriveSecretKey(seed: Uint8Array, path: string): Uint8Array {
  const indices = parseDerivationPath(path);
  if (!(seed instanceof Uint8Array) || seed.length < 16 || seed.length > 64) {
    throw new KeyError("DERIVATION_FAILED", "BIP-32 seed must be 16 to 64 bytes");
  }
  let node: HDKey;
  try {
    node = HDKey.fromMasterSeed(seed);
    for (const index of indices) node = node.deriveChild(index);
  } catch (err) {
    throw new KeyError("DERIVATION_FAILED", `BIP-32 derivation of ${path} failed: ${(err as Error).message}`);
  }
  const key = node.privateKey;
  if (key === null)
    throw new KeyError("DERIVATION_FAILED", `BIP-32 derivation of ${path} gave no secret key`);
  return checkSecretKey(new Uint8Array(key));
}

/** Options of {@link deriveAccount}. */
export interface DeriveOptions {
  /** Address index in the default path (default 0). Ignored when `path` is given. */
  index?: number;
  /** Full derivation path; default `m/44'/60'/0'/0/{index}`. */
  path?: string;
  /** BIP-39 passphrase (default empty). */
  passphrase?: string;
}

/** A key derived from a mnemonic. */
export interface DerivedAccount {
  secretKey: Uint8Array;
  address: Address;
  path: string;
}

/**
 * The account at `opts.path` (default `m/44'/60'/0'/0/{opts.index ?? 0}`) of a
 * BIP-39 mnemonic. Throws {@link KeyError} for a bad mnemonic or path.
 */
export function deriveAccount(mnemonic: string, opts: DeriveOptions = {}): DerivedAccount {
  const path = opts.path ?? defaultDerivationPath(opts.index ?? 0);
  parseDerivationPath(path); // path errors before the (slow) seed computation
  const seed = mnemonicToSeed(mnemonic, opts.passphrase ?? "");
  const secretKey = deriveSecretKey(seed, path);
  seed.fill(0);
  return { secretKey, address: addressFromSecretKey(secretKey), path };
}
