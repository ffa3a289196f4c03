/**
 * BIP-39 mnemonics (English word list).
 *
 * - {@link generateMnemonic} draws 128 or 256 bits of entropy from the CSPRNG
 *   and returns 12 or 24 words.
 * - {@link checkMnemonic} validates a phrase and names the first problem with a
 *   {@link KeyError}, checked in this order: `MNEMONIC_LENGTH` (word count not
 *   12/15/18/21/24), `MNEMONIC_UNKNOWN_WORD` (first word not in the list, with
 *   its 1-based position), `MNEMONIC_CHECKSUM`.
 * - {@link mnemonicToSeed} is the BIP-39 seed: PBKDF2-HMAC-SHA512, 2048
 *   rounds, salt `"mnemonic" ‖ passphrase`, over the normalized phrase.
 *
 * Normalization: NFKD, lower case, words separated by single spaces (any run
 * of whitespace is accepted on input). The seed is computed from the
 * normalized phrase, so `"Abandon  abandon …"` and `"abandon abandon …"` give
 * the same keys.
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { mnemonicToSeedSync, entropyToMnemonic as scureEntropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { KeyError } from "./errors.ts";
import { cryptoRandom, type RandomSource } from "./secret.ts";

/** Word counts a BIP-39 mnemonic may have. */
export const MNEMONIC_WORD_COUNTS: readonly number[] = [12, 15, 18, 21, 24];

/** Word counts {@link generateMnemonic} produces: 12 (128-bit) or 24 (256-bit). */
export type MnemonicWords = 12 | 24;

const WORD_INDEX: ReadonlyMap<string, number> = new Map(wordlist.map((w, i) => [w, i]));

/** The normalized form of a phrase: NFKD, lower case, single spaces, no outer whitespace. */
export function normalizeMnemonic(phrase: string): string {
  if (typeof phrase !== "string") throw new TypeError("mnemonic: expected a string");
  return phrase.normalize("NFKD").toLowerCase().trim().split(/\s+/u).join(" ");
}

/**
 * Validates `phrase` and returns its normalized form. Throws {@link KeyError}
 * `MNEMONIC_LENGTH`, `MNEMONIC_UNKNOWN_WORD` or `MNEMONIC_CHECKSUM` (in that order).
 */
export function checkMnemonic(phrase: string): string {
  const normalized = normalizeMnemonic(phrase);
  const words = normalized === "" ? [] : normalized.split(" ");
  if (!MNEMONIC_WORD_COUNTS.includes(words.length)) {
    throw new KeyError(
      "MNEMONIC_LENGTH",
      `mnemonic has ${words.length} word${words.length === 1 ? "" : "s"}; expected 12, 15, 18, 21 or 24`,
    );
  }
  const indices: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const index = WORD_INDEX.get(word);
    if (index === undefined) {
      throw new KeyError(
        "MNEMONIC_UNKNOWN_WORD",
        `mnemonic word ${i + 1} "${word}" is not in the BIP-39 English word list`,
      );
    }
    indices.push(index);
  }
  // 11 bits per word = ENT entropy bits followed by ENT/32 checksum bits.
  const totalBits = words.length * 11;
  const checksumBits = totalBits / 33;
  const entropy = new Uint8Array((totalBits - checksumBits) / 8);
  let acc = 0;
  let accBits = 0;
  let out = 0;
  let checksum = 0;
  for (const index of indices) {
    acc = (acc << 11) | index;
    accBits += 11;
    while (accBits >= 8 && out < entropy.length) {
      accBits -= 8;
      entropy[out++] = (acc >>> accBits) & 0xff;
      acc &= (1 << accBits) - 1;
    }
  }
  // Whatever is left after the entropy bytes is exactly the checksum.
  if (accBits !== checksumBits) throw new Error("bip39: internal bit accounting error");
  checksum = acc;
  const expected = ((sha256(entropy)[0] as number) >>> (8 - checksumBits)) & ((1 << checksumBits) - 1);
  entropy.fill(0);
  if (checksum !== expected) {
    throw new KeyError(
      "MNEMONIC_CHECKSUM",
      "mnemonic checksum does not match (a word is wrong or the words are out of order)",
    );
  }
  return normalized;
}

/** True if `phrase` is a valid BIP-39 English mnemonic (see {@link checkMnemonic}). */
export function isValidMnemonic(phrase: string): boolean {
  try {
    checkMnemonic(phrase);
    return true;
  } catch (err) {
    if (err instanceof KeyError) return false;
    throw err;
  }
}

/** The mnemonic encoding `entropy` (16, 20, 24, 28 or 32 bytes). Throws {@link KeyError} `MNEMONIC_STRENGTH`. */
export function entropyToMnemonic(entropy: Uint8Array): string {
  if (!(entropy instanceof Uint8Array) || ![16, 20, 24, 28, 32].includes(entropy.length)) {
    throw new KeyError("MNEMONIC_STRENGTH", "mnemonic entropy must be 16, 20, 24, 28 or 32 bytes");
  }
  return scureEntropyToMnemonic(entropy, wordlist);
}

/**
 * A fresh random mnemonic of 12 (128-bit) or 24 (256-bit, the default) words,
 * entropy from `random` (default `crypto.getRandomValues`). Throws
 * {@link KeyError} `MNEMONIC_STRENGTH` for any other word count.
 */
export function generateMnemonic(words: MnemonicWords = 24, random: RandomSource = cryptoRandom): string {
  if (words !== 12 && words !== 24) {
    throw new KeyError("MNEMONIC_STRENGTH", `cannot generate a ${String(words)}-word mnemonic; use 12 or 24`);
  }
  const entropy = new Uint8Array(words === 12 ? 16 : 32);
  random(entropy);
  const phrase = entropyToMnemonic(entropy);
  entropy.fill(0);
  return phrase;
}

/**
 * The 64-byte BIP-39 seed of a validated mnemonic (throws like {@link checkMnemonic}).
 * `passphrase` is the optional BIP-39 "25th word" (NFKD-normalized, default empty).
 */
export function mnemonicToSeed(phrase: string, passphrase = ""): Uint8Array {
  return mnemonicToSeedSync(checkMnemonic(phrase), passphrase);
}
