/**
 * The canonical writer (docs/codec.md §1). It refuses values the decoder would
 * never produce (u64 out of range, fixed-width fields of the wrong length) with
 * a {@link CodecError} `INVALID_VALUE`, so every byte string it returns decodes.
 */
import { CodecError } from "./errors.ts";

const MAX_U64 = 0xffff_ffff_ffff_ffffn;
const utf8Encoder = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws `INVALID_VALUE` unless `v` is a bigint in 0..=2^64-1. */
export function checkU64(v: bigint, field: string): void {
  if (typeof v !== "bigint" || v < 0n || v > MAX_U64) {
    throw new CodecError(
      "INVALID_VALUE",
      field,
      `expected a u64 bigint in 0..=18446744073709551615, got ${String(v)}`,
    );
  }
}

/** A growable output buffer. */
export class Writer {
  private buf: Uint8Array;
  private view: DataView;
  pos = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** One byte (0..=255). */
  u8(v: number): void {
    this.reserve(1);
    this.buf[this.pos++] = v;
  }

  /** Minimal unsigned LEB128 of a u64. */
  varint(v: bigint, field: string): void {
    checkU64(v, field);
    this.reserve(10);
    if (v <= 0x1f_ffff_ffff_ffffn) {
      let n = Number(v);
      while (n >= 0x80) {
        this.buf[this.pos++] = (n % 0x80) | 0x80;
        n = Math.floor(n / 0x80);
      }
      this.buf[this.pos++] = n;
      return;
    }
    let x = v;
    while (x >= 0x80n) {
      this.buf[this.pos++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    this.buf[this.pos++] = Number(x);
  }

  /** A length / count prefix (a varint of a non-negative integer ≤ u32::MAX). */
  len(n: number, field: string): void {
    if (!Number.isInteger(n) || n < 0 || n > 0xffff_ffff) {
      throw new CodecError("INVALID_VALUE", field, `length ${n} is not encodable`);
    }
    this.reserve(5);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  /** An 8-byte big-endian u64. */
  u64be(v: bigint, field: string): void {
    checkU64(v, field);
    this.reserve(8);
    this.view.setBigUint64(this.pos, v, false);
    this.pos += 8;
  }

  /** Raw fixed-width bytes; `bytes` must have exactly `n` bytes. */
  fixed(bytes: Uint8Array, n: number, field: string): void {
    if (!(bytes instanceof Uint8Array) || bytes.length !== n) {
      throw new CodecError("INVALID_VALUE", field, `expected exactly ${n} bytes`);
    }
    this.raw(bytes);
  }

  /** Raw bytes without a prefix. */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** A length-prefixed byte string. */
  bytes(bytes: Uint8Array, field: string): void {
    if (!(bytes instanceof Uint8Array)) throw new CodecError("INVALID_VALUE", field, "expected a Uint8Array");
    this.len(bytes.length, field);
    this.raw(bytes);
  }

  /** A length-prefixed UTF-8 string. */
  string(text: string, field: string): void {
    if (typeof text !== "string") throw new CodecError("INVALID_VALUE", field, "expected a string");
    if (LONE_SURROGATE.test(text))
      throw new CodecError("INVALID_UTF8", field, "string is not valid UTF-8 (lone surrogate)");
    this.bytes(utf8Encoder.encode(text), field);
  }

  /** An option tag. */
  option(present: boolean): void {
    this.u8(present ? 1 : 0);
  }

  /** The bytes written so far (a copy). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
