/**
 * Key management for Cowboy accounts: random secret keys, BIP-39 mnemonics,
 * BIP-32 derivation (default path `m/44'/60'/0'/0/{index}`, Ethereum-compatible)
 * and Web3 Secret Storage v3 keystores. See docs/keys.md.
 */
export * from "./errors.ts";
export * from "./hd.ts";
export * from "./keystore.ts";
export * from "./mnemonic.ts";
export * from "./secret.ts";
