/**
 * The strict canonical reader (docs/codec.md §1). Every read names its field,
 * so a violated rule surfaces as a {@link CodecError} such as
 * `nonce: non-minimal varint (redundant zero group)`.
 *
 * Varint rules are commonware-codec's: a multi-byte varint whose last byte is
 * `0x00` is `NON_MINIMAL_VARINT`; the byte that must be the last one (the 10th
 * of a u64, the 5th of a u32 length) may not carry bits beyond the type
 * (`VARINT_OVERFLOW`); the zero-byte check comes first.
 */
import { CodecError } from "./errors.ts";

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Largest value of a `len` prefix (commonware reads lengths as `u32`). */
export const MAX_LEN = 0xffff_ffff;

/** A cursor over an input that enforces the canonical encoding. */
export class Reader {
  readonly buf: Uint8Array;
  pos: number;

  /**
   * `buf` may be any Uint8Array, including a Node `Buffer`: it is viewed as a
   * plain Uint8Array, so decoded values are independent copies (a `Buffer`'s
   * own `slice` would alias the input).
   */
  constructor(buf: Uint8Array, pos = 0) {
    if (!(buf instanceof Uint8Array)) throw new TypeError("Reader: expected a Uint8Array");
    this.buf =
      buf.constructor === Uint8Array ? buf : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = pos;
  }

  /** Bytes left after the cursor. */
  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private eof(field: string): CodecError {
    return new CodecError("UNEXPECTED_EOF", field, "unexpected end of input");
  }

  /** One byte. */
  u8(field: string): number {
    if (this.pos >= this.buf.length) throw this.eof(field);
    return this.buf[this.pos++] as number;
  }

  /** An unsigned LEB128 `u64`, minimal. */
  varint(field: string): bigint {
    const buf = this.buf;
    if (this.pos >= buf.length) throw this.eof(field);
    let b = buf[this.pos++] as number;
    if (b < 0x80) return BigInt(b);
    // Bytes 0..3 go to `lo` (28 bits), the rest to `hi` (at most 36 bits): both stay exact numbers.
    let lo = 0;
    let hi = 0;
    let shift = 0;
    for (;;) {
      if (b === 0 && shift > 0) {
        throw new CodecError("NON_MINIMAL_VARINT", field, "non-minimal varint (redundant zero group)");
      }
      if (shift === 63 && b > 1)
        throw new CodecError("VARINT_OVERFLOW", field, "varint overflows its integer type");
      const data = b & 0x7f;
      if (shift < 28) lo += data * 2 ** shift;
      else hi += data * 2 ** (shift - 28);
      if (b < 0x80) break;
      shift += 7;
      if (this.pos >= buf.length) throw this.eof(field);
      b = buf[this.pos++] as number;
    }
    return hi === 0 ? BigInt(lo) : (BigInt(hi) << 28n) | BigInt(lo);
  }

  /**
   * A length or element count: a minimal varint of at most 32 bits, not larger
   * than the remaining input divided by `minItemSize` (the smallest encoding
   * of one element; 1 for byte strings).
   */
  len(field: string, minItemSize = 1): number {
    const buf = this.buf;
    if (this.pos >= buf.length) throw this.eof(field);
    let b = buf[this.pos++] as number;
    let n = b & 0x7f;
    if (b >= 0x80) {
      let shift = 0;
      n = 0;
      for (;;) {
        if (b === 0 && shift > 0) {
          throw new CodecError("NON_MINIMAL_VARINT", field, "non-minimal varint (redundant zero group)");
        }
        if (shift === 28 && b > 0x0f) {
          throw new CodecError("VARINT_OVERFLOW", field, "varint overflows its integer type");
        }
        n += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
        shift += 7;
        if (this.pos >= buf.length) throw this.eof(field);
        b = buf[this.pos++] as number;
      }
    }
    const remaining = buf.length - this.pos;
    if (n * minItemSize > remaining) {
      throw new CodecError(
        "LENGTH_OVERFLOW",
        field,
        `length prefix ${n} exceeds the ${remaining} bytes of remaining input`,
      );
    }
    return n;
  }

  /** An 8-byte big-endian `u64`. */
  u64be(field: string): bigint {
    const buf = this.buf;
    const p = this.pos;
    if (p + 8 > buf.length) throw this.eof(field);
    const hi =
      (((buf[p] as number) << 24) |
        ((buf[p + 1] as number) << 16) |
        ((buf[p + 2] as number) << 8) |
        (buf[p + 3] as number)) >>>
      0;
    const lo =
      (((buf[p + 4] as number) << 24) |
        ((buf[p + 5] as number) << 16) |
        ((buf[p + 6] as number) << 8) |
        (buf[p + 7] as number)) >>>
      0;
    this.pos = p + 8;
    if (hi < 0x200000) return BigInt(hi * 0x1_0000_0000 + lo);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** `n` raw bytes (a copy). */
  fixed(n: number, field: string): Uint8Array {
    const p = this.pos;
    if (p + n > this.buf.length) throw this.eof(field);
    this.pos = p + n;
    return this.buf.slice(p, p + n);
  }

  /** A length-prefixed byte string (a copy). */
  bytes(field: string): Uint8Array {
    const n = this.len(field);
    const p = this.pos;
    this.pos = p + n;
    return this.buf.slice(p, p + n);
  }

  /** A length-prefixed byte string, as a view into the input (no copy). */
  bytesView(field: string): Uint8Array {
    const n = this.len(field);
    const p = this.pos;
    this.pos = p + n;
    return this.buf.subarray(p, p + n);
  }

  /** A length-prefixed UTF-8 string. */
  string(field: string): string {
    const view = this.bytesView(field);
    let ascii = view.length <= 256; // short ASCII strings (handlers, names) skip TextDecoder
    for (let i = 0; ascii && i < view.length; i++) {
      if ((view[i] as number) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, view as unknown as number[]);
    try {
      return utf8Decoder.decode(view);
    } catch {
      throw new CodecError("INVALID_UTF8", field, "string is not valid UTF-8");
    }
  }

  /** An option tag: `false` for 0x00, `true` for 0x01. */
  option(field: string): boolean {
    const tag = this.u8(field);
    if (tag === 0) return false;
    if (tag === 1) return true;
    throw new CodecError(
      "INVALID_OPTION_TAG",
      field,
      `option tag must be 0x00 or 0x01, found 0x${tag.toString(16).padStart(2, "0")}`,
    );
  }

  /** Requires that the whole input was consumed. `what` names the decoded value. */
  finish(what: string): void {
    const left = this.buf.length - this.pos;
    if (left !== 0) throw new CodecError("TRAILING_BYTES", what, `${left} trailing bytes after the value`);
  }
}
