/**
 * `@cowboy/sdk`: the pure-TypeScript twin of Cowboy's canonical codec
 * (`crates/codec`): transaction types and builders, strict canonical
 * encode/decode, the signing hash, secp256k1 signatures, addresses and the JSON
 * form — plus keys (BIP-39/32, Web3 v3 keystores), the canonical CBOR of actor
 * values and state proof verification. Byte-for-byte identical to the Rust crates (docs/codec.md,
 * docs/values.md, docs/state.md); no native code required.
 */
export * from "./block.ts";
export * from "./build.ts";
export * from "./bytes.ts";
export * from "./cbor.ts";
export * from "./client/index.ts";
export * from "./crypto.ts";
export * from "./errors.ts";
export * from "./json.ts";
export * from "./keys/index.ts";
export { MAX_LEN, Reader } from "./reader.ts";
export * from "./source.ts";
export * from "./state-proof.ts";
export * from "./tx.ts";
export type * from "./types.ts";
export { checkU64, Writer } from "./writer.ts";
