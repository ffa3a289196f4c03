/**
 * Hashes, signatures and addresses (spec §1.1–§1.2, §2.5; docs/codec.md §4).
 *
 * - signing hash = keccak256(encoding with the primary signature and every
 *   additional signature zeroed); it is also the transaction digest.
 * - signatures: secp256k1 ECDSA over the signing hash (used directly as the
 *   prehash), RFC 6979, low-S, `r ‖ s ‖ v` with v ∈ {0, 1}.
 * - EOA address = last 20 bytes of keccak256(X ‖ Y).
 * - actor address = last 20 bytes of keccak256(creator ‖ salt ‖ code_hash).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesEqual, toHex } from "./bytes.ts";
import { CodecError, SigError } from "./errors.ts";
import { checkCanonicalSource } from "./source.ts";
import {
  ADDRESS_SIZE,
  decodeTransaction,
  HASH_SIZE,
  MAX_TX_SIZE,
  SIGNATURE_SIZE,
  type SignatureOffsets,
  txTooLarge,
  writeTransaction,
} from "./tx.ts";
import type { Address, Hash32, Transaction } from "./types.ts";
import { Writer } from "./writer.ts";

/** secp256k1 group order n. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N >> 1n;

/** Keccak-256 (Ethereum's original Keccak, not NIST SHA3-256). */
export function keccak256(data: Uint8Array): Hash32 {
  return keccak_256(data);
}

/** 65 zero bytes: the signature placeholder of an unsigned transaction. */
export function zeroSignature(): Uint8Array {
  return new Uint8Array(SIGNATURE_SIZE);
}

function zeroSignatures(bytes: Uint8Array, offsets: SignatureOffsets): Uint8Array {
  bytes.fill(0, offsets.signature, offsets.signature + SIGNATURE_SIZE);
  for (const off of offsets.additional) bytes.fill(0, off, off + SIGNATURE_SIZE);
  return bytes;
}

/** The canonical bytes hashed for the signing hash: `tx` with every signature zeroed. */
export function signingPreimage(tx: Transaction): Uint8Array {
  const w = new Writer(256);
  const offsets: SignatureOffsets = { signature: 0, additional: [] };
  writeTransaction(w, tx, offsets);
  if (w.pos > MAX_TX_SIZE) throw txTooLarge(w.pos);
  return zeroSignatures(w.finish(), offsets);
}

/** Signing hash (= transaction digest / identity) of `tx`. */
export function signingHash(tx: Transaction): Hash32 {
  return keccak_256(signingPreimage(tx));
}

/**
 * Signing hash of an encoded transaction. The bytes are strictly decoded first
 * (a {@link CodecError} for non-canonical input), then hashed with the
 * signature regions zeroed.
 */
export function signingHashOfBytes(bytes: Uint8Array): Hash32 {
  return decodeWithSigningHash(bytes).signingHash;
}

/** Transaction digest (identity, Merkle leaf): the signing hash. */
export const txDigest = signingHash;

// ---------------------------------------------------------------------------
// Keys and addresses

function checkSecretKey(secretKey: Uint8Array): void {
  if (
    !(secretKey instanceof Uint8Array) ||
    secretKey.length !== 32 ||
    !secp256k1.utils.isValidSecretKey(secretKey)
  ) {
    throw new SigError(
      "INVALID_SECRET_KEY",
      "secret key",
      "must be 32 bytes, nonzero and below the secp256k1 order",
    );
  }
}

/** Address of an uncompressed (65-byte, 0x04-prefixed) or compressed (33-byte) public key. */
export function addressFromPublicKey(publicKey: Uint8Array): Address {
  const point = secp256k1.Point.fromBytes(publicKey);
  const xy = point.toBytes(false).subarray(1);
  return keccak_256(xy).slice(HASH_SIZE - ADDRESS_SIZE);
}

/** EOA address of a 32-byte secret key. Throws {@link SigError} `INVALID_SECRET_KEY`. */
export function addressFromSecretKey(secretKey: Uint8Array): Address {
  checkSecretKey(secretKey);
  const xy = secp256k1.getPublicKey(secretKey, false).subarray(1);
  return keccak_256(xy).slice(HASH_SIZE - ADDRESS_SIZE);
}

/** A fresh random secret key (CSPRNG). */
export function randomSecretKey(): Uint8Array {
  return secp256k1.utils.randomSecretKey();
}

/** keccak256 of canonical Python source; throws a SourceError if the source is not canonical. */
export function codeHash(source: Uint8Array): Hash32 {
  return keccak_256(checkCanonicalSource(source));
}

/** Actor address from a code hash: last 20 bytes of keccak256(creator ‖ salt ‖ code_hash). */
export function actorAddressFromCodeHash(creator: Address, salt: Hash32, hash: Hash32): Address {
  if (creator.length !== ADDRESS_SIZE)
    throw new CodecError("INVALID_VALUE", "creator", "expected exactly 20 bytes");
  if (salt.length !== HASH_SIZE) throw new CodecError("INVALID_VALUE", "salt", "expected exactly 32 bytes");
  if (hash.length !== HASH_SIZE)
    throw new CodecError("INVALID_VALUE", "code_hash", "expected exactly 32 bytes");
  const pre = new Uint8Array(ADDRESS_SIZE + 2 * HASH_SIZE);
  pre.set(creator, 0);
  pre.set(salt, ADDRESS_SIZE);
  pre.set(hash, ADDRESS_SIZE + HASH_SIZE);
  return keccak_256(pre).slice(HASH_SIZE - ADDRESS_SIZE);
}

/** Address of the actor `creator` deploys with `salt` and canonical `source` (spec §1.2). */
export function actorAddress(creator: Address, salt: Hash32, source: Uint8Array): Address {
  return actorAddressFromCodeHash(creator, salt, codeHash(source));
}

// ---------------------------------------------------------------------------
// Signatures

/** Signs a 32-byte hash: RFC 6979, low-S, returns r ‖ s ‖ v (v ∈ {0, 1}). */
export function signHash(hash: Hash32, secretKey: Uint8Array): Uint8Array {
  checkSecretKey(secretKey);
  const rec = secp256k1.sign(hash, secretKey, { prehash: false, lowS: true, format: "recovered" });
  // noble's "recovered" layout is v ‖ r ‖ s.
  const v = rec[0] as number;
  if (v > 1) {
    // Only possible when R.x ≥ n (probability ~2^-128); such a signature is not representable with v ∈ {0, 1}.
    throw new SigError("INVALID_SIGNATURE", "signature", "recovery id above 1 cannot be encoded");
  }
  const out = new Uint8Array(SIGNATURE_SIZE);
  out.set(rec.subarray(1, 65), 0);
  out[64] = v;
  return out;
}

function bigFromBytes(bytes: Uint8Array): bigint {
  let x = 0n;
  for (let i = 0; i < bytes.length; i++) x = (x << 8n) | BigInt(bytes[i] as number);
  return x;
}

/**
 * Address recovered from a 65-byte signature over `hash`. Throws {@link SigError},
 * checked in this order: `INVALID_RECOVERY_ID` (v ∉ {0,1}), `INVALID_SIGNATURE`
 * (r or s zero, r ≥ n), `HIGH_S` (s > n/2), `INVALID_SIGNATURE` (no key
 * recovers). `field` names the signature.
 */
export function recoverAddress(hash: Hash32, signature: Uint8Array, field = "signature"): Address {
  if (signature.length !== SIGNATURE_SIZE) {
    throw new SigError("INVALID_SIGNATURE", field, "a signature is exactly 65 bytes");
  }
  const r = bigFromBytes(signature.subarray(0, 32));
  const s = bigFromBytes(signature.subarray(32, 64));
  const v = signature[64] as number;
  // Check order as in the Rust crate: v, then r/s range, then low-S (s ≥ n is also high-S).
  if (v > 1) throw new SigError("INVALID_RECOVERY_ID", field, `recovery id v must be 0 or 1, found ${v}`);
  if (r === 0n || s === 0n || r >= SECP256K1_N) {
    throw new SigError(
      "INVALID_SIGNATURE",
      field,
      "invalid secp256k1 signature (r or s out of range, or no key recovers)",
    );
  }
  if (s > HALF_N) throw new SigError("HIGH_S", field, "s is above n/2 (high-S is rejected)");
  let point: ReturnType<typeof secp256k1.Point.fromBytes>;
  try {
    point = new secp256k1.Signature(r, s, v).recoverPublicKey(hash);
  } catch {
    throw new SigError(
      "INVALID_SIGNATURE",
      field,
      "invalid secp256k1 signature (r or s out of range, or no key recovers)",
    );
  }
  return keccak_256(point.toBytes(false).subarray(1)).slice(HASH_SIZE - ADDRESS_SIZE);
}

/**
 * Signs `tx` as its sender: the key's address must be `tx.from` (else
 * {@link SigError} `FROM_MISMATCH`). Returns a copy with `signature` set.
 * Additional signatures already present are kept (the signing hash ignores them).
 */
export function signTransaction(tx: Transaction, secretKey: Uint8Array): Transaction {
  const address = addressFromSecretKey(secretKey);
  if (!bytesEqual(address, tx.from)) {
    throw new SigError(
      "FROM_MISMATCH",
      "from",
      `the signing key's address ${toHex(address)} is not the transaction's from`,
    );
  }
  return { ...tx, signature: signHash(signingHash(tx), secretKey) };
}

/**
 * Adds the co-signature of `secretKey` to the `additional_signers` entry with
 * the key's address (else {@link SigError} `NOT_A_SIGNER`). Returns a copy.
 */
export function signAdditional(tx: Transaction, secretKey: Uint8Array): Transaction {
  const address = addressFromSecretKey(secretKey);
  const index = tx.additionalSigners.findIndex((s) => bytesEqual(s.address, address));
  if (index < 0) {
    throw new SigError(
      "NOT_A_SIGNER",
      "additional_signers",
      `the signing key's address ${toHex(address)} is not listed`,
    );
  }
  const sig = signHash(signingHash(tx), secretKey);
  const additionalSigners = tx.additionalSigners.map((s, i) =>
    i === index ? { address: s.address, signature: sig } : s,
  );
  return { ...tx, additionalSigners };
}

/** Address the primary signature recovers to (throws {@link SigError} on a malformed signature). */
export function recoverSigner(tx: Transaction): Address {
  return recoverAddress(signingHash(tx), tx.signature, "signature");
}

/**
 * Checks every signature of `tx`: the primary one must recover to `from`
 * (`SIGNER_MISMATCH`), each additional one to its listed address
 * (`ADDITIONAL_SIGNER_MISMATCH`). Throws the first {@link SigError}.
 */
export function checkSignatures(tx: Transaction, hash: Hash32 = signingHash(tx)): void {
  const recovered = recoverAddress(hash, tx.signature, "signature");
  if (!bytesEqual(recovered, tx.from)) {
    throw new SigError(
      "SIGNER_MISMATCH",
      "signature",
      `recovers to ${toHex(recovered)}, but from is ${toHex(tx.from)}`,
    );
  }
  tx.additionalSigners.forEach((signer, i) => {
    const field = `additional_signers[${i}].signature`;
    const got = recoverAddress(hash, signer.signature, field);
    if (!bytesEqual(got, signer.address)) {
      throw new SigError(
        "ADDITIONAL_SIGNER_MISMATCH",
        field,
        `recovers to ${toHex(got)}, not the listed address`,
      );
    }
  });
}

/** True if every signature of `tx` is valid (see {@link checkSignatures}). */
export function verifyTransaction(tx: Transaction): boolean {
  try {
    checkSignatures(tx);
    return true;
  } catch (err) {
    if (err instanceof SigError) return false;
    throw err;
  }
}

/** Strictly decodes `bytes` and computes their signing hash in one pass. */
export function decodeWithSigningHash(bytes: Uint8Array): { tx: Transaction; signingHash: Hash32 } {
  const offsets: SignatureOffsets = { signature: 0, additional: [] };
  const tx = decodeTransaction(bytes, offsets);
  // A copy (never `bytes.slice()`: on a Node Buffer that is a view, and zeroing would corrupt the input).
  return { tx, signingHash: keccak_256(zeroSignatures(new Uint8Array(bytes), offsets)) };
}

/** Signer of an encoded transaction (strict decode, then recovery). */
export function recoverSignerOfBytes(bytes: Uint8Array): Address {
  const { tx, signingHash: hash } = decodeWithSigningHash(bytes);
  return recoverAddress(hash, tx.signature, "signature");
}

/** True if `bytes` decode canonically and every signature verifies; false otherwise. */
export function verifyBytes(bytes: Uint8Array): boolean {
  let decoded: { tx: Transaction; signingHash: Hash32 };
  try {
    decoded = decodeWithSigningHash(bytes);
  } catch (err) {
    if (err instanceof CodecError) return false;
    throw err;
  }
  try {
    checkSignatures(decoded.tx, decoded.signingHash);
    return true;
  } catch (err) {
    if (err instanceof SigError) return false;
    throw err;
  }
}
