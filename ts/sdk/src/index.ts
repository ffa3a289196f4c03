/**
 * `@cowboy/sdk`: the pure-TypeScript twin of Cowboy's canonical codec
 * (`crates/codec`): transaction types, strict canonical encode/decode, the
 * signing hash, secp256k1 signatures, addresses and the JSON form. Byte-for-byte
 * identical to the Rust crate (docs/codec.md), no native code required.
 */
export * from "./block.ts";
export * from "./bytes.ts";
export * from "./crypto.ts";
export * from "./errors.ts";
export * from "./json.ts";
export { MAX_LEN, Reader } from "./reader.ts";
export * from "./source.ts";
export * from "./tx.ts";
export type * from "./types.ts";
export { checkU64, Writer } from "./writer.ts";
