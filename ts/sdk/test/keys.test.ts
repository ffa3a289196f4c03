/** Key management: secret keys, BIP-39 mnemonics, BIP-32 derivation (known-answer vectors and error cases). */
import { describe, expect, it } from "vitest";
import { fromHex, toHex } from "../src/bytes.ts";
import { addressFromSecretKey, SECP256K1_N } from "../src/crypto.ts";
import { SigError } from "../src/errors.ts";
import { KeyError } from "../src/keys/errors.ts";
import {
  DEFAULT_PATH_PREFIX,
  defaultDerivationPath,
  deriveAccount,
  deriveSecretKey,
  HARDENED,
  parseDerivationPath,
} from "../src/keys/hd.ts";
import {
  checkMnemonic,
  entropyToMnemonic,
  generateMnemonic,
  isValidMnemonic,
  mnemonicToSeed,
  normalizeMnemonic,
} from "../src/keys/mnemonic.ts";
import {
  checkSecretKey,
  generateSecretKey,
  isValidSecretKey,
  type RandomSource,
} from "../src/keys/secret.ts";

const ABOUT = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

function bigToBytes(x: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** A random source that replays `draws` in order (then fails the test if asked for more). */
function replay(draws: Uint8Array[]): RandomSource & { calls: number } {
  const source = Object.assign(
    (out: Uint8Array) => {
      const next = draws[source.calls++];
      if (next === undefined) throw new Error("replay source exhausted");
      out.set(next);
    },
    { calls: 0 },
  );
  return source;
}

function keyErr(fn: () => unknown): KeyError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(KeyError);
    return err as KeyError;
  }
  throw new Error("expected a KeyError");
}

describe("secret keys", () => {
  it("validates the range [1, n-1]", () => {
    expect(isValidSecretKey(new Uint8Array(32))).toBe(false);
    expect(isValidSecretKey(bigToBytes(1n))).toBe(true);
    expect(isValidSecretKey(bigToBytes(SECP256K1_N - 1n))).toBe(true);
    expect(isValidSecretKey(bigToBytes(SECP256K1_N))).toBe(false);
    expect(isValidSecretKey(new Uint8Array(32).fill(0xff))).toBe(false);
    expect(isValidSecretKey(new Uint8Array(31).fill(1))).toBe(false);
    expect(isValidSecretKey(new Uint8Array(33).fill(1))).toBe(false);
    expect(() => checkSecretKey(new Uint8Array(32))).toThrow(SigError);
    try {
      checkSecretKey(bigToBytes(SECP256K1_N));
    } catch (err) {
      expect((err as SigError).errCode).toBe("ERR_SIG_INVALID_SECRET_KEY");
    }
  });

  it("rejects (does not reduce) draws outside the valid range", () => {
    const good = bigToBytes(SECP256K1_N - 1n);
    const source = replay([new Uint8Array(32), bigToBytes(SECP256K1_N), new Uint8Array(32).fill(0xff), good]);
    expect(generateSecretKey(source)).toEqual(good);
    expect(source.calls).toBe(4);
  });

  it("gives up on a broken source", () => {
    expect(() => generateSecretKey((out) => out.fill(0))).toThrow(/random source is broken/);
  });

  it("draws distinct valid keys from crypto.getRandomValues", () => {
    const a = generateSecretKey();
    const b = generateSecretKey();
    expect(isValidSecretKey(a)).toBe(true);
    expect(isValidSecretKey(b)).toBe(true);
    expect(a).not.toEqual(b);
  });
});

describe("BIP-39 mnemonics", () => {
  // Known-answer vectors of the BIP-39 reference test set (entropy → words, seed with passphrase "TREZOR").
  const VECTORS = [
    {
      entropy: "0x00000000000000000000000000000000",
      words: ABOUT,
      seed: "0xc55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04",
    },
    {
      entropy: "0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
      words: "legal winner thank year wave sausage worth useful legal winner thank yellow",
      seed: "0x2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607",
    },
    {
      entropy: "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
      words:
        "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo vote",
      seed: "0xdd48c104698c30cfe2b6142103248622fb7bb0ff692eebb00089b32d22484e1613912f0a5b694407be899ffd31ed3992c456cdf60f5d4564b8ba3f05a69890ad",
    },
  ];

  for (const v of VECTORS) {
    it(`encodes and seeds ${v.words.split(" ").length} words starting "${v.words.slice(0, 12)}"`, () => {
      expect(entropyToMnemonic(fromHex(v.entropy))).toBe(v.words);
      expect(checkMnemonic(v.words)).toBe(v.words);
      expect(toHex(mnemonicToSeed(v.words, "TREZOR"))).toBe(v.seed);
    });
  }

  it("generates 12 and 24 words from the random source", () => {
    expect(generateMnemonic(12, (out) => out.fill(0))).toBe(ABOUT);
    expect(generateMnemonic(24, (out) => out.fill(0xff))).toBe(VECTORS[2]?.words);
    const twelve = generateMnemonic(12);
    const twentyFour = generateMnemonic();
    expect(twelve.split(" ")).toHaveLength(12);
    expect(twentyFour.split(" ")).toHaveLength(24);
    expect(isValidMnemonic(twelve)).toBe(true);
    expect(isValidMnemonic(twentyFour)).toBe(true);
    expect(generateMnemonic(12)).not.toBe(twelve);
  });

  it("refuses other generated sizes", () => {
    expect(keyErr(() => generateMnemonic(18 as 12)).code).toBe("MNEMONIC_STRENGTH");
    expect(keyErr(() => entropyToMnemonic(new Uint8Array(15))).code).toBe("MNEMONIC_STRENGTH");
  });

  it("normalizes case and whitespace", () => {
    const messy = `  ${ABOUT.toUpperCase().replaceAll(" ", " \t\n ")}  `;
    expect(normalizeMnemonic(messy)).toBe(ABOUT);
    expect(checkMnemonic(messy)).toBe(ABOUT);
    expect(mnemonicToSeed(messy, "TREZOR")).toEqual(mnemonicToSeed(ABOUT, "TREZOR"));
  });

  it("names a wrong word count", () => {
    const e = keyErr(() => checkMnemonic("abandon abandon about"));
    expect(e.code).toBe("MNEMONIC_LENGTH");
    expect(e.errCode).toBe("ERR_MNEMONIC_LENGTH");
    expect(e.message).toBe("mnemonic has 3 words; expected 12, 15, 18, 21 or 24");
    expect(keyErr(() => checkMnemonic("")).message).toBe(
      "mnemonic has 0 words; expected 12, 15, 18, 21 or 24",
    );
    expect(keyErr(() => checkMnemonic(`${ABOUT} abandon`)).code).toBe("MNEMONIC_LENGTH");
  });

  it("names the first unknown word and its position", () => {
    const e = keyErr(() => checkMnemonic(ABOUT.replace("about", "aboot").replace("abandon", "abandom")));
    expect(e.code).toBe("MNEMONIC_UNKNOWN_WORD");
    expect(e.message).toBe('mnemonic word 1 "abandom" is not in the BIP-39 English word list');
    const e12 = keyErr(() => checkMnemonic(ABOUT.replace("about", "aboot")));
    expect(e12.message).toMatch(/^mnemonic word 12 "aboot"/);
  });

  it("detects a bad checksum", () => {
    const e = keyErr(() => checkMnemonic(ABOUT.replace("about", "abandon")));
    expect(e.code).toBe("MNEMONIC_CHECKSUM");
    expect(isValidMnemonic(ABOUT.replace("about", "abandon"))).toBe(false);
    // Swapping two words of a valid phrase breaks the checksum too.
    const w = VECTORS[1]?.words.split(" ") ?? [];
    [w[0], w[1]] = [w[1] as string, w[0] as string];
    expect(keyErr(() => checkMnemonic(w.join(" "))).code).toBe("MNEMONIC_CHECKSUM");
  });
});

describe("BIP-32 derivation", () => {
  it("uses m/44'/60'/0'/0/i by default", () => {
    expect(DEFAULT_PATH_PREFIX).toBe("m/44'/60'/0'/0");
    expect(defaultDerivationPath()).toBe("m/44'/60'/0'/0/0");
    expect(defaultDerivationPath(7)).toBe("m/44'/60'/0'/0/7");
    expect(keyErr(() => defaultDerivationPath(-1)).code).toBe("INVALID_PATH");
    expect(keyErr(() => defaultDerivationPath(HARDENED)).code).toBe("INVALID_PATH");
  });

  it('derives the well-known Ethereum accounts of "abandon … about"', () => {
    const a0 = deriveAccount(ABOUT);
    expect(a0.path).toBe("m/44'/60'/0'/0/0");
    expect(toHex(a0.secretKey)).toBe("0x1ab42cc412b618bdea3a599e3c9bae199ebf030895b039e9db1e30dafb12b727");
    expect(toHex(a0.address)).toBe("0x9858effd232b4033e47d90003d41ec34ecaeda94");
    expect(addressFromSecretKey(a0.secretKey)).toEqual(a0.address);
    expect(toHex(deriveAccount(ABOUT, { index: 1 }).address)).toBe(
      "0x6fac4d18c912343bf86fa7049364dd4e424ab9c0",
    );
    expect(deriveAccount(ABOUT, { path: "m/44h/60h/0h/0/0" }).secretKey).toEqual(a0.secretKey);
    expect(deriveAccount(ABOUT, { passphrase: "x" }).address).not.toEqual(a0.address);
  });

  it("matches the BIP-32 reference vector 1 (seed 000102…0f)", () => {
    const seed = fromHex("0x000102030405060708090a0b0c0d0e0f");
    expect(toHex(deriveSecretKey(seed, "m"))).toBe(
      "0xe8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35",
    );
    expect(toHex(deriveSecretKey(seed, "m/0'/1/2'/2/1000000000"))).toBe(
      "0x471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8",
    );
  });

  it("parses paths and names the bad element", () => {
    expect(parseDerivationPath("m")).toEqual([]);
    expect(parseDerivationPath("m/44'/60h/0/2147483647")).toEqual([
      44 + HARDENED,
      60 + HARDENED,
      0,
      2 ** 31 - 1,
    ]);
    for (const bad of ["", "44'/60'", "m/", "m//1", "m/01", "m/-1", "m/1''", "m/x", "M/1"]) {
      expect(keyErr(() => parseDerivationPath(bad)).code).toBe("INVALID_PATH");
    }
    expect(keyErr(() => parseDerivationPath("m/44'/abc")).message).toBe(
      `derivation path "m/44'/abc": element 2 "abc" is not a decimal index with an optional ' or h`,
    );
    expect(keyErr(() => parseDerivationPath("m/2147483648")).message).toMatch(/not below 2\^31/);
    expect(keyErr(() => deriveAccount(ABOUT, { path: "m/x" })).code).toBe("INVALID_PATH");
    expect(keyErr(() => deriveSecretKey(new Uint8Array(8), "m")).code).toBe("DERIVATION_FAILED");
  });

  it("reports mnemonic problems from deriveAccount", () => {
    expect(keyErr(() => deriveAccount("abandon")).code).toBe("MNEMONIC_LENGTH");
  });
});
