/**
 * Random secp256k1 secret keys.
 *
 * A secret key is 32 big-endian bytes whose value lies in `[1, n-1]` (n = the
 * secp256k1 group order). {@link generateSecretKey} draws 32 bytes from the
 * platform CSPRNG (`crypto.getRandomValues`) and *rejects* draws outside that
 * range rather than reducing them modulo n, so every valid key is equally
 * likely (a rejection happens with probability ≈ 2^-128).
 */

import { SECP256K1_N } from "../crypto.ts";
import { SigError } from "../errors.ts";

/** Fills `out` with random bytes; the default is the platform CSPRNG. */
export type RandomSource = (out: Uint8Array) => void;

/** `crypto.getRandomValues` (Web Crypto; global in Node ≥ 19 and in browsers). */
export const cryptoRandom: RandomSource = (out) => {
  globalThis.crypto.getRandomValues(out);
};

/** Draws above this many are treated as a broken random source (a healthy source fails ~2^-128 per draw). */
const MAX_DRAWS = 64;

function toBig(bytes: Uint8Array): bigint {
  let x = 0n;
  for (const b of bytes) x = (x << 8n) | BigInt(b);
  return x;
}

/** True if `key` is 32 bytes with a value in `[1, n-1]`. */
export function isValidSecretKey(key: Uint8Array): boolean {
  if (!(key instanceof Uint8Array) || key.length !== 32) return false;
  const x = toBig(key);
  return x !== 0n && x < SECP256K1_N;
}

/**
 * `key` if it is a valid secret key (see {@link isValidSecretKey}); otherwise
 * throws {@link SigError} `INVALID_SECRET_KEY` (the SDK's existing code for it).
 */
export function checkSecretKey(key: Uint8Array, field = "secret key"): Uint8Array {
  if (!isValidSecretKey(key)) {
    throw new SigError(
      "INVALID_SECRET_KEY",
      field,
      "must be 32 bytes, nonzero and below the secp256k1 order",
    );
  }
  return key;
}

/**
 * A fresh uniformly random secret key in `[1, n-1]`, by rejection sampling from
 * `random` (default: `crypto.getRandomValues`). Throws an `Error` if the source
 * yields 64 invalid draws in a row (a broken source, not bad luck).
 */
export function generateSecretKey(random: RandomSource = cryptoRandom): Uint8Array {
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const key = new Uint8Array(32);
    random(key);
    if (isValidSecretKey(key)) return key;
    key.fill(0);
  }
  throw new Error("random source is broken: 64 draws in a row outside [1, n-1]");
}
