/** Web3 Secret Storage v3 keystores: the published known-answer vectors, round trips and typed errors. */
import { describe, expect, it } from "vitest";
import { fromHex, toHex, toHexRaw } from "../src/bytes.ts";
import { addressFromSecretKey } from "../src/crypto.ts";
import { SigError } from "../src/errors.ts";
import { KeyError } from "../src/keys/errors.ts";
import {
  DEFAULT_SCRYPT,
  decryptKeystore,
  decryptKeystoreAsync,
  encryptKeystore,
  encryptKeystoreAsync,
  keystoreAddress,
} from "../src/keys/keystore.ts";

/** Test vectors of the Web3 Secret Storage Definition (password "testpassword"). */
const SECRET = "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";
const PBKDF2_VECTOR = {
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "6087dab2f9fdbbfaddc31a909735c1e6" },
    ciphertext: "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
    kdf: "pbkdf2",
    kdfparams: {
      c: 262144,
      dklen: 32,
      prf: "hmac-sha256",
      salt: "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd",
    },
    mac: "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
};
const SCRYPT_VECTOR = {
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "83dbcc02d8ccb40e466191a123791e0e" },
    ciphertext: "d172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c",
    kdf: "scrypt",
    kdfparams: {
      dklen: 32,
      n: 262144,
      p: 8,
      r: 1,
      salt: "ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19",
    },
    mac: "2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
};

const CHEAP = { n: 1024, r: 8, p: 1 };
const KEY = fromHex(`0x${"11".repeat(32)}`);

function keyErr(fn: () => unknown): KeyError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(KeyError);
    return err as KeyError;
  }
  throw new Error("expected a KeyError");
}

function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

describe("Web3 Secret Storage known-answer vectors", () => {
  it("decrypts the PBKDF2 vector", () => {
    expect(toHex(decryptKeystore(PBKDF2_VECTOR, "testpassword"))).toBe(SECRET);
  });

  it("decrypts the scrypt vector (also as JSON text, and with an address field)", () => {
    expect(toHex(decryptKeystore(JSON.stringify(SCRYPT_VECTOR), "testpassword"))).toBe(SECRET);
    const withAddress = { ...SCRYPT_VECTOR, address: toHexRaw(addressFromSecretKey(fromHex(SECRET))) };
    expect(withAddress.address).toBe("008aeeda4d805471df9b2a5b0f38a0c3bcba786b");
    expect(toHex(decryptKeystore(withAddress, "testpassword"))).toBe(SECRET);
  });

  it("re-encrypts the scrypt vector byte for byte from its salt and iv", () => {
    const ks = encryptKeystore(fromHex(SECRET), "testpassword", {
      scrypt: { n: 262144, r: 1, p: 8 },
      salt: fromHex(`0x${SCRYPT_VECTOR.crypto.kdfparams.salt}`),
      iv: fromHex(`0x${SCRYPT_VECTOR.crypto.cipherparams.iv}`),
      id: SCRYPT_VECTOR.id,
    });
    expect(ks.crypto.ciphertext).toBe(SCRYPT_VECTOR.crypto.ciphertext);
    expect(ks.crypto.mac).toBe(SCRYPT_VECTOR.crypto.mac);
    expect(ks.crypto.kdfparams).toEqual(SCRYPT_VECTOR.crypto.kdfparams);
  });

  it("rejects the wrong password with ERR_KEYSTORE_PASSWORD", () => {
    const e = keyErr(() => decryptKeystore(PBKDF2_VECTOR, "testpassworD"));
    expect(e.code).toBe("KEYSTORE_PASSWORD");
    expect(e.errCode).toBe("ERR_KEYSTORE_PASSWORD");
  });
});

describe("encryptKeystore / decryptKeystore", () => {
  it("async variants give the same results and errors", async () => {
    const opts = { scrypt: CHEAP, salt: new Uint8Array(32).fill(3), iv: new Uint8Array(16).fill(4), id: "i" };
    const ks = await encryptKeystoreAsync(KEY, "pw", opts);
    expect(ks).toEqual(encryptKeystore(KEY, "pw", opts));
    expect(await decryptKeystoreAsync(JSON.stringify(ks), "pw")).toEqual(KEY);
    expect(toHex(await decryptKeystoreAsync(PBKDF2_VECTOR, "testpassword"))).toBe(SECRET);
    await expect(decryptKeystoreAsync(ks, "nope")).rejects.toMatchObject({ code: "KEYSTORE_PASSWORD" });
    await expect(decryptKeystoreAsync("[", "pw")).rejects.toMatchObject({ code: "KEYSTORE_FORMAT" });
    await expect(encryptKeystoreAsync(KEY, "pw", { scrypt: { n: 3 } })).rejects.toBeInstanceOf(KeyError);
  });

  it("round-trips with cheap parameters and writes the v3 shape", () => {
    const ks = encryptKeystore(KEY, "correct horse", { scrypt: CHEAP });
    expect(ks.version).toBe(3);
    expect(ks.address).toBe("19e7e376e7c213b7e7e7e46cc70a5dd086daff2a");
    expect(ks.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ks.crypto.cipher).toBe("aes-128-ctr");
    expect(ks.crypto.kdf).toBe("scrypt");
    expect(ks.crypto.kdfparams).toMatchObject({ dklen: 32, n: 1024, r: 8, p: 1 });
    expect(ks.crypto.kdfparams.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(ks.crypto.cipherparams.iv).toMatch(/^[0-9a-f]{32}$/);
    expect(ks.crypto.ciphertext).toMatch(/^[0-9a-f]{64}$/);
    expect(ks.crypto.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(decryptKeystore(JSON.stringify(ks), "correct horse")).toEqual(KEY);
    expect(keystoreAddress(ks)).toEqual(addressFromSecretKey(KEY));
    // Fresh salt and iv every time.
    const again = encryptKeystore(KEY, "correct horse", { scrypt: CHEAP });
    expect(again.crypto.kdfparams.salt).not.toBe(ks.crypto.kdfparams.salt);
    expect(again.crypto.ciphertext).not.toBe(ks.crypto.ciphertext);
  });

  it("accepts byte passwords and non-ASCII passwords (UTF-8, not normalized)", () => {
    const ks = encryptKeystore(KEY, "pässwörd", { scrypt: CHEAP });
    expect(decryptKeystore(ks, new TextEncoder().encode("pässwörd"))).toEqual(KEY);
    // The NFD spelling of the same text is a different password.
    expect(keyErr(() => decryptKeystore(ks, "pässwörd".normalize("NFD"))).code).toBe("KEYSTORE_PASSWORD");
  });

  it("defaults to n = 2^18, r = 8, p = 1", () => {
    expect(DEFAULT_SCRYPT).toEqual({ n: 262144, r: 8, p: 1 });
  });

  it("refuses invalid keys and parameters", () => {
    expect(() => encryptKeystore(new Uint8Array(32), "pw", { scrypt: CHEAP })).toThrow(SigError);
    expect(() => encryptKeystore(new Uint8Array(31).fill(1), "pw", { scrypt: CHEAP })).toThrow(SigError);
    for (const scrypt of [{ n: 1000 }, { n: 1 }, { n: 2 ** 21 }, { r: 0 }, { p: 17 }, { n: 2 ** 20, r: 9 }]) {
      expect(keyErr(() => encryptKeystore(KEY, "pw", { scrypt: { ...CHEAP, ...scrypt } })).code).toBe(
        "KEYSTORE_PARAMS",
      );
    }
    expect(keyErr(() => encryptKeystore(KEY, "pw", { scrypt: CHEAP, iv: new Uint8Array(12) })).code).toBe(
      "KEYSTORE_PARAMS",
    );
    expect(keyErr(() => encryptKeystore(KEY, "pw", { scrypt: CHEAP, salt: new Uint8Array(8) })).code).toBe(
      "KEYSTORE_PARAMS",
    );
  });

  it("detects tampering: ciphertext or MAC changed → ERR_KEYSTORE_PASSWORD", () => {
    const ks = encryptKeystore(KEY, "pw", { scrypt: CHEAP });
    const flipped = clone(ks);
    flipped.crypto.ciphertext = `${ks.crypto.ciphertext.slice(0, 63)}${ks.crypto.ciphertext.endsWith("0") ? "1" : "0"}`;
    expect(keyErr(() => decryptKeystore(flipped, "pw")).code).toBe("KEYSTORE_PASSWORD");
    const badMac = clone(ks);
    badMac.crypto.mac = "00".repeat(32);
    expect(keyErr(() => decryptKeystore(badMac, "pw")).code).toBe("KEYSTORE_PASSWORD");
  });

  it("rejects an address field that does not match the key", () => {
    const ks = clone(encryptKeystore(KEY, "pw", { scrypt: CHEAP }));
    ks.address = "22".repeat(20);
    const e = keyErr(() => decryptKeystore(ks, "pw"));
    expect(e.code).toBe("KEYSTORE_FORMAT");
    expect(e.message).toBe("keystore: the address field does not match the decrypted key");
  });

  it("accepts 0x-prefixed hex and a capitalized Crypto section", () => {
    const ks = encryptKeystore(KEY, "pw", { scrypt: CHEAP });
    const { crypto, ...rest } = clone(ks);
    const doc = { ...rest, Crypto: { ...crypto, mac: `0x${crypto.mac}` } };
    expect(decryptKeystore(doc, "pw")).toEqual(KEY);
  });
});

describe("malformed keystores → ERR_KEYSTORE_FORMAT", () => {
  const base = (): Record<string, unknown> =>
    clone(encryptKeystore(KEY, "pw", { scrypt: CHEAP, id: "x" })) as unknown as Record<string, unknown>;
  /** A copy of the base document with the value at a dotted path replaced (`undefined` deletes it). */
  const set = (path: string, value: unknown): unknown => {
    const doc = base();
    const keys = path.split(".");
    let at = doc;
    for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
    at[keys[keys.length - 1] as string] = value;
    return doc;
  };
  const pbkdf2 = (params: Record<string, unknown>): unknown => {
    const doc = set("crypto.kdf", "pbkdf2") as { crypto: Record<string, unknown> };
    doc.crypto.kdfparams = { ...PBKDF2_VECTOR.crypto.kdfparams, ...params };
    return doc;
  };
  const cases: Array<[string, unknown, RegExp]> = [
    ["not JSON", "{", /not valid JSON/],
    ["an array", [], /expected a JSON object/],
    ["null", null, /expected a JSON object/],
    ["version 1", set("version", 1), /version must be 3, found 1/],
    ["version missing", set("version", undefined), /version must be 3, found nothing/],
    ["no crypto", set("crypto", undefined), /crypto section is missing/],
    ["cbc cipher", set("crypto.cipher", "aes-128-cbc"), /unsupported cipher "aes-128-cbc"/],
    ["no cipherparams", set("crypto.cipherparams", 1), /cipherparams is missing/],
    ["short iv", set("crypto.cipherparams.iv", "00"), /iv must be 16 bytes, found 1/],
    ["odd hex", set("crypto.ciphertext", "abc"), /ciphertext must be a hex string/],
    ["non-hex", set("crypto.mac", "zz".repeat(32)), /mac must be a hex string/],
    ["numeric mac", set("crypto.mac", 5), /mac must be a hex string/],
    ["long ciphertext", set("crypto.ciphertext", "00".repeat(33)), /ciphertext must be 32 bytes/],
    ["bad address", set("address", "1234"), /address must be 20 bytes/],
    ["unknown kdf", set("crypto.kdf", "argon2"), /unsupported kdf "argon2"/],
    ["no kdfparams", set("crypto.kdfparams", null), /kdfparams is missing/],
    ["dklen 16", set("crypto.kdfparams.dklen", 16), /dklen must be in \[32, 64\]/],
    ["dklen string", set("crypto.kdfparams.dklen", "32"), /dklen must be an integer/],
    ["empty salt", set("crypto.kdfparams.salt", ""), /salt is empty/],
    ["n not pow2", set("crypto.kdfparams.n", 1000), /scrypt n must be a power of two/],
    ["n huge", set("crypto.kdfparams.n", 2 ** 30), /scrypt n must be a power of two/],
    ["p huge", set("crypto.kdfparams.p", 1000), /scrypt p must be/],
    ["r zero", set("crypto.kdfparams.r", 0), /scrypt r must be/],
    ["pbkdf2 sha512", pbkdf2({ prf: "hmac-sha512" }), /unsupported prf "hmac-sha512"/],
    ["pbkdf2 huge c", pbkdf2({ c: 1e9 }), /c must be in \[1, 10000000\]/],
  ];
  for (const [what, doc, message] of cases) {
    it(what, () => {
      const e = keyErr(() => decryptKeystore(doc, "pw"));
      expect(e.code).toBe("KEYSTORE_FORMAT");
      expect(e.errCode).toBe("ERR_KEYSTORE_FORMAT");
      expect(e.message).toMatch(message);
      // keystoreAddress validates the same structure.
      expect(keyErr(() => keystoreAddress(doc)).code).toBe("KEYSTORE_FORMAT");
    });
  }

  it("rejects a correctly MACed ciphertext that decrypts to an invalid key", async () => {
    // Build a document whose plaintext is all zero (not a valid secp256k1 key) with a correct MAC.
    const { scrypt } = await import("@noble/hashes/scrypt.js");
    const { ctr } = await import("@noble/ciphers/aes.js");
    const { keccak256 } = await import("../src/crypto.ts");
    const salt = new Uint8Array(32).fill(7);
    const iv = new Uint8Array(16).fill(9);
    const dk = scrypt("pw", salt, { N: 1024, r: 8, p: 1, dkLen: 32 });
    const ciphertext = ctr(dk.slice(0, 16), iv).encrypt(new Uint8Array(32));
    const mac = keccak256(new Uint8Array([...dk.subarray(16, 32), ...ciphertext]));
    const doc = {
      version: 3,
      id: "x",
      crypto: {
        cipher: "aes-128-ctr",
        cipherparams: { iv: toHexRaw(iv) },
        ciphertext: toHexRaw(ciphertext),
        kdf: "scrypt",
        kdfparams: { dklen: 32, n: 1024, r: 8, p: 1, salt: toHexRaw(salt) },
        mac: toHexRaw(mac),
      },
    };
    const e = keyErr(() => decryptKeystore(doc, "pw"));
    expect(e.code).toBe("KEYSTORE_FORMAT");
    expect(e.message).toMatch(/not a valid secp256k1 secret key/);
    expect(keystoreAddress(doc)).toBeNull();
  });
});
