/**
 * Encrypted key files in the Ethereum **Web3 Secret Storage v3** format, so
 * geth, ethers, MetaMask and other existing tools can read Cowboy key files
 * and Cowboy can read theirs (same curve and address rule, spec §16.1).
 *
 * Encryption (what {@link encryptKeystore} writes):
 * - `DK = scrypt(password, salt, n, r, p, dklen = 32)`, `salt` 32 random bytes;
 * - `ciphertext = AES-128-CTR(key = DK[0..16], iv)`, `iv` 16 random bytes;
 * - `mac = keccak256(DK[16..32] ‖ ciphertext)`.
 *
 * Default scrypt cost n = 2^18, r = 8, p = 1 (geth's "standard" parameters;
 * 256 MiB and a few seconds in pure JS — deliberately slow for an attacker).
 *
 * `encryptKeystoreAsync` / `decryptKeystoreAsync` give the same results
 * without blocking the event loop for the KDF (for servers and UIs).
 *
 * Decryption ({@link decryptKeystore}) also reads the PBKDF2 variant
 * (`kdf: "pbkdf2"`, `prf: "hmac-sha256"`). Errors ({@link KeyError}):
 * `KEYSTORE_FORMAT` for anything malformed or unsupported (checked before any
 * key derivation) and, after a matching MAC, for a plaintext that is not a
 * valid secret key or does not match the `address` field; `KEYSTORE_PASSWORD`
 * when the MAC does not match.
 * KDF costs are bounded on read (scrypt `128·n·r ≤ 1 GiB`, n ≤ 2^20, p ≤ 16;
 * PBKDF2 `c ≤ 10^7`) so a hostile file cannot exhaust memory or time unboundedly.
 * Passwords are UTF-8 encoded as given (no Unicode normalization, as geth).
 */
import { ctr } from "@noble/ciphers/aes.js";
import { pbkdf2, pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { scrypt, scryptAsync } from "@noble/hashes/scrypt.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesEqual, concatBytes, parseHexDigits, toHexRaw, utf8 } from "../bytes.ts";
import { addressFromSecretKey, keccak256 } from "../crypto.ts";
import type { Address } from "../types.ts";
import { KeyError } from "./errors.ts";
import { checkSecretKey, cryptoRandom, isValidSecretKey, type RandomSource } from "./secret.ts";

/** scrypt cost parameters. */
export interface ScryptParams {
  /** CPU/memory cost: a power of two, 2 ≤ n ≤ 2^20. */
  n: number;
  /** Block size, 1 ≤ r ≤ 32 (with 128·n·r ≤ 1 GiB). */
  r: number;
  /** Parallelization, 1 ≤ p ≤ 16. */
  p: number;
}

/** The production default: n = 2^18, r = 8, p = 1. */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = Object.freeze({ n: 2 ** 18, r: 8, p: 1 });

/** `kdfparams` of a scrypt keystore. */
export interface ScryptKdfParams {
  dklen: number;
  n: number;
  r: number;
  p: number;
  salt: string;
}

/** `kdfparams` of a PBKDF2 keystore (read only). */
export interface Pbkdf2KdfParams {
  dklen: number;
  c: number;
  prf: "hmac-sha256";
  salt: string;
}

/** A Web3 Secret Storage v3 document (hex fields without `0x`, lowercase). */
export interface KeystoreV3 {
  version: 3;
  id: string;
  /** The key's address, 40 lowercase hex digits without `0x` (as geth writes it). */
  address: string;
  crypto: {
    cipher: "aes-128-ctr";
    cipherparams: { iv: string };
    ciphertext: string;
    kdf: "scrypt" | "pbkdf2";
    kdfparams: ScryptKdfParams | Pbkdf2KdfParams;
    mac: string;
  };
}

/** Options of {@link encryptKeystore}; every field is optional. */
export interface EncryptKeystoreOptions {
  /** scrypt cost (default {@link DEFAULT_SCRYPT}); tests pass a cheap n. */
  scrypt?: Partial<ScryptParams>;
  /** KDF salt (default 32 random bytes); 16..64 bytes. */
  salt?: Uint8Array;
  /** AES-CTR initial counter (default 16 random bytes); exactly 16 bytes. */
  iv?: Uint8Array;
  /** The document's `id` (default a random UUID v4). */
  id?: string;
  /** Source of salt, iv and id randomness (default `crypto.getRandomValues`). */
  random?: RandomSource;
}

const MAX_MEM = 1024 ** 3;
const MAX_PBKDF2_C = 10_000_000;

function isPow2(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 2 && (n & (n - 1)) === 0;
}

/** The scrypt bounds shared by reading and writing; returns a message or null. */
function scryptProblem(n: number, r: number, p: number): string | null {
  if (!isPow2(n) || n > 2 ** 20) return "scrypt n must be a power of two in [2, 2^20]";
  if (!Number.isSafeInteger(r) || r < 1 || r > 32) return "scrypt r must be an integer in [1, 32]";
  if (!Number.isSafeInteger(p) || p < 1 || p > 16) return "scrypt p must be an integer in [1, 16]";
  if (128 * n * r > MAX_MEM) return "scrypt memory 128·n·r must not exceed 1 GiB";
  return null;
}

function randomBytes(random: RandomSource, n: number): Uint8Array {
  const out = new Uint8Array(n);
  random(out);
  return out;
}

/** A random UUID v4 (RFC 9562) from `random`. */
function uuidV4(random: RandomSource): string {
  const b = randomBytes(random, 16);
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = toHexRaw(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function passwordBytes(password: string | Uint8Array): Uint8Array {
  if (typeof password === "string") return utf8(password);
  if (password instanceof Uint8Array) return password;
  throw new TypeError("password: expected a string or a Uint8Array");
}

/** MAC comparison whose time does not depend on where the bytes differ. */
function macEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

function mac(dk: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return keccak256(concatBytes(dk.subarray(16, 32), ciphertext));
}

/** Everything {@link encryptKeystore} needs besides the derived key. */
interface EncryptPlan {
  secretKey: Uint8Array;
  password: Uint8Array;
  n: number;
  r: number;
  p: number;
  salt: Uint8Array;
  iv: Uint8Array;
  id: string;
}

function planEncryption(
  secretKey: Uint8Array,
  password: string | Uint8Array,
  opts: EncryptKeystoreOptions,
): EncryptPlan {
  checkSecretKey(secretKey);
  const pw = passwordBytes(password);
  const random = opts.random ?? cryptoRandom;
  const { n, r, p } = { ...DEFAULT_SCRYPT, ...opts.scrypt };
  const problem = scryptProblem(n, r, p);
  if (problem !== null) throw new KeyError("KEYSTORE_PARAMS", problem);
  const salt = opts.salt ?? randomBytes(random, 32);
  if (!(salt instanceof Uint8Array) || salt.length < 16 || salt.length > 64) {
    throw new KeyError("KEYSTORE_PARAMS", "salt must be 16 to 64 bytes");
  }
  const iv = opts.iv ?? randomBytes(random, 16);
  if (!(iv instanceof Uint8Array) || iv.length !== 16) {
    throw new KeyError("KEYSTORE_PARAMS", "iv must be exactly 16 bytes");
  }
  const id = opts.id ?? uuidV4(random);
  return { secretKey, password: pw, n, r, p, salt, iv, id };
}

function scryptOpts(n: number, r: number, p: number, dkLen: number) {
  return { N: n, r, p, dkLen, maxmem: MAX_MEM + 1024 * 1024 };
}

function finishEncryption(plan: EncryptPlan, dk: Uint8Array): KeystoreV3 {
  const ciphertext = ctr(dk.slice(0, 16), plan.iv).encrypt(plan.secretKey);
  const tag = mac(dk, ciphertext);
  dk.fill(0);
  const { n, r, p } = plan;
  return {
    version: 3,
    id: plan.id,
    address: toHexRaw(addressFromSecretKey(plan.secretKey)),
    crypto: {
      cipher: "aes-128-ctr",
      cipherparams: { iv: toHexRaw(plan.iv) },
      ciphertext: toHexRaw(ciphertext),
      kdf: "scrypt",
      kdfparams: { dklen: 32, n, r, p, salt: toHexRaw(plan.salt) },
      mac: toHexRaw(tag),
    },
  };
}

/**
 * Encrypts a 32-byte secp256k1 secret key under `password` into a v3 keystore
 * (scrypt + AES-128-CTR + keccak256 MAC). Throws {@link SigError}
 * `INVALID_SECRET_KEY` for a bad key and {@link KeyError} `KEYSTORE_PARAMS`
 * for out-of-range options. The result serializes with `JSON.stringify`.
 * Blocks for the whole scrypt run; see {@link encryptKeystoreAsync}.
 */
export function encryptKeystore(
  secretKey: Uint8Array,
  password: string | Uint8Array,
  opts: EncryptKeystoreOptions = {},
): KeystoreV3 {
  const plan = planEncryption(secretKey, password, opts);
  return finishEncryption(plan, scrypt(plan.password, plan.salt, scryptOpts(plan.n, plan.r, plan.p, 32)));
}

/** {@link encryptKeystore}, yielding to the event loop while scrypt runs (same result, same errors). */
export async function encryptKeystoreAsync(
  secretKey: Uint8Array,
  password: string | Uint8Array,
  opts: EncryptKeystoreOptions = {},
): Promise<KeystoreV3> {
  const plan = planEncryption(secretKey, password, opts);
  const dk = await scryptAsync(plan.password, plan.salt, scryptOpts(plan.n, plan.r, plan.p, 32));
  return finishEncryption(plan, dk);
}

function formatError(message: string): KeyError {
  return new KeyError("KEYSTORE_FORMAT", `keystore: ${message}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hexField(obj: Record<string, unknown>, key: string, path: string, lengths?: number[]): Uint8Array {
  const v = obj[key];
  if (typeof v !== "string") throw formatError(`${path} must be a hex string`);
  const digits = v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v;
  const bytes = parseHexDigits(digits);
  if (bytes === null) throw formatError(`${path} must be a hex string`);
  if (lengths !== undefined && !lengths.includes(bytes.length)) {
    throw formatError(`${path} must be ${lengths.join(" or ")} bytes, found ${bytes.length}`);
  }
  return bytes;
}

function intField(obj: Record<string, unknown>, key: string, path: string): number {
  const v = obj[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw formatError(`${path} must be an integer`);
  return v;
}

/** A keystore validated structurally, ready for key derivation. */
interface ParsedKeystore {
  address: Address | null;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  mac: Uint8Array;
  kdf:
    | { kind: "scrypt"; n: number; r: number; p: number; dklen: number; salt: Uint8Array }
    | { kind: "pbkdf2"; c: number; dklen: number; salt: Uint8Array };
}

function parseKeystore(json: string | unknown): ParsedKeystore {
  let doc: unknown = json;
  if (typeof json === "string") {
    try {
      doc = JSON.parse(json);
    } catch {
      throw formatError("not valid JSON");
    }
  }
  if (!isRecord(doc)) throw formatError("expected a JSON object");
  if (doc.version !== 3)
    throw formatError(`version must be 3, found ${JSON.stringify(doc.version) ?? "nothing"}`);
  // Some older writers capitalize the section as "Crypto".
  const c = doc.crypto ?? doc.Crypto;
  if (!isRecord(c)) throw formatError("crypto section is missing");
  if (c.cipher !== "aes-128-ctr") {
    throw formatError(`unsupported cipher ${JSON.stringify(c.cipher) ?? "nothing"} (only aes-128-ctr)`);
  }
  if (!isRecord(c.cipherparams)) throw formatError("crypto.cipherparams is missing");
  const iv = hexField(c.cipherparams, "iv", "crypto.cipherparams.iv", [16]);
  const ciphertext = hexField(c, "ciphertext", "crypto.ciphertext", [32]);
  const macBytes = hexField(c, "mac", "crypto.mac", [32]);
  let address: Address | null = null;
  if (doc.address !== undefined) address = hexField(doc, "address", "address", [20]);
  const kp = c.kdfparams;
  if (!isRecord(kp)) throw formatError("crypto.kdfparams is missing");
  const dklen = intField(kp, "dklen", "crypto.kdfparams.dklen");
  if (dklen < 32 || dklen > 64) throw formatError("crypto.kdfparams.dklen must be in [32, 64]");
  const salt = hexField(kp, "salt", "crypto.kdfparams.salt");
  if (salt.length === 0) throw formatError("crypto.kdfparams.salt is empty");
  let kdf: ParsedKeystore["kdf"];
  if (c.kdf === "scrypt") {
    const n = intField(kp, "n", "crypto.kdfparams.n");
    const r = intField(kp, "r", "crypto.kdfparams.r");
    const p = intField(kp, "p", "crypto.kdfparams.p");
    const problem = scryptProblem(n, r, p);
    if (problem !== null) throw formatError(`crypto.kdfparams: ${problem}`);
    kdf = { kind: "scrypt", n, r, p, dklen, salt };
  } else if (c.kdf === "pbkdf2") {
    const iterations = intField(kp, "c", "crypto.kdfparams.c");
    if (iterations < 1 || iterations > MAX_PBKDF2_C) {
      throw formatError(`crypto.kdfparams.c must be in [1, ${MAX_PBKDF2_C}]`);
    }
    if (kp.prf !== "hmac-sha256") {
      throw formatError(`unsupported prf ${JSON.stringify(kp.prf) ?? "nothing"} (only hmac-sha256)`);
    }
    kdf = { kind: "pbkdf2", c: iterations, dklen, salt };
  } else {
    throw formatError(`unsupported kdf ${JSON.stringify(c.kdf) ?? "nothing"} (scrypt or pbkdf2)`);
  }
  return { address, iv, ciphertext, mac: macBytes, kdf };
}

/**
 * The address a keystore declares (its `address` field), without decrypting
 * it; `null` if it has none. Validates the document's structure like
 * {@link decryptKeystore} (throws {@link KeyError} `KEYSTORE_FORMAT`). The
 * field is only authenticated by a successful {@link decryptKeystore}.
 */
export function keystoreAddress(json: string | unknown): Address | null {
  return parseKeystore(json).address;
}

function deriveSync(kdf: ParsedKeystore["kdf"], pw: Uint8Array): Uint8Array {
  return kdf.kind === "scrypt"
    ? scrypt(pw, kdf.salt, scryptOpts(kdf.n, kdf.r, kdf.p, kdf.dklen))
    : pbkdf2(sha256, pw, kdf.salt, { c: kdf.c, dkLen: kdf.dklen });
}

function deriveAsync(kdf: ParsedKeystore["kdf"], pw: Uint8Array): Promise<Uint8Array> {
  return kdf.kind === "scrypt"
    ? scryptAsync(pw, kdf.salt, scryptOpts(kdf.n, kdf.r, kdf.p, kdf.dklen))
    : pbkdf2Async(sha256, pw, kdf.salt, { c: kdf.c, dkLen: kdf.dklen });
}

/** Checks the MAC, decrypts, and checks the plaintext against the document. Wipes `dk`. */
function finishDecryption(ks: ParsedKeystore, dk: Uint8Array): Uint8Array {
  const ok = macEqual(mac(dk, ks.ciphertext), ks.mac);
  if (!ok) {
    dk.fill(0);
    throw new KeyError("KEYSTORE_PASSWORD", "keystore: wrong password (MAC mismatch)");
  }
  const secretKey = ctr(dk.slice(0, 16), ks.iv).decrypt(ks.ciphertext);
  dk.fill(0);
  if (!isValidSecretKey(secretKey)) throw formatError("decrypted data is not a valid secp256k1 secret key");
  if (ks.address !== null && !bytesEqual(addressFromSecretKey(secretKey), ks.address)) {
    throw formatError("the address field does not match the decrypted key");
  }
  return secretKey;
}

/**
 * Decrypts a v3 keystore (JSON text or parsed object) and returns the 32-byte
 * secret key. Throws {@link KeyError}: `KEYSTORE_FORMAT` (malformed or
 * unsupported document, or a decrypted key that is invalid or does not match
 * the `address` field), `KEYSTORE_PASSWORD` (MAC mismatch: wrong password).
 * Blocks for the whole KDF run; see {@link decryptKeystoreAsync}.
 */
export function decryptKeystore(json: string | unknown, password: string | Uint8Array): Uint8Array {
  const ks = parseKeystore(json);
  return finishDecryption(ks, deriveSync(ks.kdf, passwordBytes(password)));
}

/** {@link decryptKeystore}, yielding to the event loop while the KDF runs (same result, same errors). */
export async function decryptKeystoreAsync(
  json: string | unknown,
  password: string | Uint8Array,
): Promise<Uint8Array> {
  const ks = parseKeystore(json);
  return finishDecryption(ks, await deriveAsync(ks.kdf, passwordBytes(password)));
}
