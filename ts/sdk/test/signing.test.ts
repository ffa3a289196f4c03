/** Signatures, signers, addresses and canonical sources (docs/codec.md §4, §6). */
import { describe, expect, it } from "vitest";
import {
  actorAddress,
  actorAddressFromCodeHash,
  addressFromSecretKey,
  canonicalizeSource,
  checkCanonicalSource,
  checkSignatures,
  codeHash,
  decodeTransaction,
  encodeTransaction,
  keccak256,
  parseHexLoose,
  recoverAddress,
  recoverSignerOfBytes,
  SECP256K1_N,
  SigError,
  SourceError,
  signAdditional,
  signHash,
  signingHash,
  signTransaction,
  type Transaction,
  toHex,
  toHexRaw,
  utf8,
  verifyBytes,
  verifyTransaction,
} from "../src/index.ts";

const VECTOR_2 = parseHexLoose(
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100",
);
const KEY = new Uint8Array(32).fill(0x11);
const KEY_B = new Uint8Array(32).fill(0x22);
const KEY_C = new Uint8Array(32).fill(0x33);

function sigError(fn: () => unknown): SigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SigError) return err;
    throw err;
  }
  throw new Error("expected a SigError");
}

function bigToBytes(x: bigint): Uint8Array {
  return parseHexLoose(x.toString(16).padStart(64, "0"));
}

function signed(): Transaction {
  return decodeTransaction(VECTOR_2);
}

describe("keccak256", () => {
  it("is Ethereum's Keccak, not SHA3", () => {
    expect(toHexRaw(keccak256(new Uint8Array(0)))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
  });
});

describe("signatures", () => {
  it("RFC 6979 is deterministic and always low-S with v in {0,1}", () => {
    for (let i = 0; i < 50; i++) {
      const hash = keccak256(Uint8Array.of(i));
      const sig = signHash(hash, KEY);
      expect(signHash(hash, KEY)).toEqual(sig);
      const s = BigInt(toHex(sig.subarray(32, 64)));
      expect(s <= SECP256K1_N / 2n).toBe(true);
      expect([0, 1]).toContain(sig[64]);
      expect(recoverAddress(hash, sig)).toEqual(addressFromSecretKey(KEY));
    }
  });

  it("rejects malformed signatures in the Rust crate's order", () => {
    const hash = signingHash(signed());
    const good = signed().signature;
    const withV = Uint8Array.from(good);
    withV[64] = 27;
    expect(sigError(() => recoverAddress(hash, withV)).code).toBe("INVALID_RECOVERY_ID");
    const zeroR = Uint8Array.from(good);
    zeroR.fill(0, 0, 32);
    expect(sigError(() => recoverAddress(hash, zeroR)).code).toBe("INVALID_SIGNATURE");
    const bigR = Uint8Array.from(good);
    bigR.set(bigToBytes(SECP256K1_N), 0);
    expect(sigError(() => recoverAddress(hash, bigR)).code).toBe("INVALID_SIGNATURE");
    // The high-S twin of a valid signature recovers the same key but is rejected.
    const highS = Uint8Array.from(good);
    highS.set(bigToBytes(SECP256K1_N - BigInt(toHex(good.subarray(32, 64)))), 32);
    highS[64] = 1 - (good[64] as number);
    const e = sigError(() => recoverAddress(hash, highS, "signature"));
    expect(e.code).toBe("HIGH_S");
    expect(e.message).toBe("signature: s is above n/2 (high-S is rejected)");
    expect(sigError(() => recoverAddress(hash, new Uint8Array(65))).code).toBe("INVALID_SIGNATURE");
  });

  it("verify: the primary signature must recover to from", () => {
    expect(verifyTransaction(signed())).toBe(true);
    expect(verifyBytes(VECTOR_2)).toBe(true);
    expect(toHex(recoverSignerOfBytes(VECTOR_2))).toBe("0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a");
    const other = { ...signed(), nonce: 1n }; // signature no longer matches
    expect(sigError(() => checkSignatures(other)).code).toBe("SIGNER_MISMATCH");
    expect(verifyTransaction(other)).toBe(false);
    expect(verifyBytes(encodeTransaction(other))).toBe(false);
    expect(verifyBytes(Uint8Array.of(1, 2, 3))).toBe(false);
  });

  it("sign refuses a key that is not from", () => {
    const e = sigError(() => signTransaction(signed(), KEY_B));
    expect(e.code).toBe("FROM_MISMATCH");
    expect(sigError(() => signTransaction(signed(), new Uint8Array(32))).code).toBe("INVALID_SECRET_KEY");
    expect(sigError(() => signTransaction(signed(), bigToBytes(SECP256K1_N))).code).toBe(
      "INVALID_SECRET_KEY",
    );
  });

  it("additional signers sign the same hash; each must recover to its address", () => {
    const b = addressFromSecretKey(KEY_B);
    const c = addressFromSecretKey(KEY_C);
    const [lo, hi] = toHex(b) < toHex(c) ? [KEY_B, KEY_C] : [KEY_C, KEY_B];
    const base: Transaction = {
      ...signed(),
      additionalSigners: [
        { address: addressFromSecretKey(lo), signature: new Uint8Array(65) },
        { address: addressFromSecretKey(hi), signature: new Uint8Array(65) },
      ],
    };
    const hash = signingHash(base);
    let tx = signTransaction(base, KEY);
    expect(verifyTransaction(tx)).toBe(false); // co-signatures still zero
    tx = signAdditional(tx, hi);
    tx = signAdditional(tx, lo);
    expect(signingHash(tx)).toEqual(hash); // signatures never enter the hash
    expect(verifyTransaction(tx)).toBe(true);
    expect(verifyBytes(encodeTransaction(tx))).toBe(true);
    // Swap the two co-signatures: each now recovers to the other address.
    const swapped: Transaction = {
      ...tx,
      additionalSigners: [
        {
          address: tx.additionalSigners[0]?.address as Uint8Array,
          signature: tx.additionalSigners[1]?.signature as Uint8Array,
        },
        {
          address: tx.additionalSigners[1]?.address as Uint8Array,
          signature: tx.additionalSigners[0]?.signature as Uint8Array,
        },
      ],
    };
    const e = sigError(() => checkSignatures(swapped));
    expect(e.code).toBe("ADDITIONAL_SIGNER_MISMATCH");
    expect(e.field).toBe("additional_signers[0].signature");
    expect(sigError(() => signAdditional(tx, KEY)).code).toBe("NOT_A_SIGNER");
  });
});

describe("addresses and sources", () => {
  it("actor address = last 20 bytes of keccak256(creator ‖ salt ‖ code_hash)", () => {
    const creator = addressFromSecretKey(KEY);
    const salt = new Uint8Array(32).fill(0x33);
    const source = utf8("x = 1\n");
    const hash = codeHash(source);
    expect(hash).toEqual(keccak256(source));
    const expected = keccak256(Uint8Array.from([...creator, ...salt, ...hash])).slice(12);
    expect(actorAddress(creator, salt, source)).toEqual(expected);
    expect(actorAddressFromCodeHash(creator, salt, hash)).toEqual(expected);
  });

  it("rejects non-canonical sources with typed errors, in rule order", () => {
    const cases: Array<[Uint8Array, string]> = [
      [Uint8Array.of(0xef, 0xbb, 0xbf, 0xff), "SOURCE_NOT_UTF8"],
      [Uint8Array.of(0xef, 0xbb, 0xbf, 0x0d), "SOURCE_HAS_BOM"],
      [utf8("x\r\n"), "SOURCE_HAS_CR"],
      [utf8("e\u0301\r"), "SOURCE_HAS_CR"],
      [utf8("e\u0301"), "SOURCE_NOT_NFC"],
      [utf8("\u212b"), "SOURCE_NOT_NFC"], // ANGSTROM SIGN → U+00C5 under NFC
    ];
    for (const [bytes, code] of cases) {
      let err: unknown;
      try {
        checkCanonicalSource(bytes);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SourceError);
      expect((err as SourceError).code).toBe(code);
    }
    expect(() => codeHash(utf8("x\r\n"))).toThrow(SourceError);
    expect(checkCanonicalSource(utf8("x = 1\n# \ufeff\n"))).toBeTruthy(); // U+FEFF not at the start is not a BOM
  });

  it("canonicalizeSource fixes BOM, CR and NFC", () => {
    const fixed = canonicalizeSource("\ufeff\ufeffa = 'cafe\u0301'\r\nb = 1\rc = 2\n");
    expect(new TextDecoder().decode(fixed)).toBe("a = 'caf\u00e9'\nb = 1\nc = 2\n");
    expect(checkCanonicalSource(fixed)).toBe(fixed);
  });
});

describe("Node Buffers as input", () => {
  it("are never modified, and decoded values are independent plain Uint8Arrays", () => {
    const input = Buffer.from(VECTOR_2);
    const before = Buffer.from(input);
    expect(verifyBytes(input)).toBe(true);
    expect(toHex(recoverSignerOfBytes(input))).toBe("0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a");
    const tx = decodeTransaction(input);
    expect(input.equals(before)).toBe(true);
    expect(tx.signature.constructor).toBe(Uint8Array);
    input.fill(0);
    expect(verifyTransaction(tx)).toBe(true); // the decoded transaction does not alias the input
  });
});
