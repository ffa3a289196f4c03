/**
 * The canonical value encoding of actor data: handler arguments and results, storage values
 * and event payloads (DESIGN.md: "deterministic CBOR"). Every value has exactly one
 * encoding, and the decoder accepts only that one.
 *
 * Data model (Python value ↔ CBOR, RFC 8949 major types):
 * - `None` ↔ null (`f6`); `True`/`False` ↔ `f5`/`f4`
 * - int ↔ major 0/1 with the shortest argument when |n| < 2^64, else tag 2/3 with a
 *   big-endian magnitude without leading zeros (at most 512 bytes: the PVM's 4096-bit cap)
 * - float ↔ always float64 (`fb` + 8 bytes), NaN only as `7ff8000000000000`. (Departure
 *   from RFC 8949 §4.2.2 preferred floats: the bits stay exactly as the PVM computed them.)
 * - str ↔ text string (valid UTF-8); bytes ↔ byte string
 * - list and tuple ↔ array (decoded as a list)
 * - dict ↔ map with keys sorted by their encoded bytes (RFC 8949 §4.2.1), no duplicates
 * - set/frozenset ↔ tag 258 over an array sorted the same way, no duplicates
 *
 * Refused: indefinite lengths, non-shortest arguments, other tags and simple values,
 * float16/float32, trailing bytes, nesting deeper than {@link MAX_DEPTH}.
 */

import { compareBytes, parseHexDigits, toHexRaw } from "./bytes.ts";

/** A decoded value. Integers are bigint; floats are wrapped so 1.0 and 1 stay distinct. */
export type CborValue =
  | null
  | boolean
  | bigint
  | CborFloat
  | string
  | Uint8Array
  | CborValue[]
  | CborMap
  | CborSet;

/** A float64, kept as its exact bits' value. */
export class CborFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

/** A map in canonical key order. */
export class CborMap {
  readonly entries: ReadonlyArray<readonly [CborValue, CborValue]>;
  constructor(entries: ReadonlyArray<readonly [CborValue, CborValue]>) {
    this.entries = entries;
  }
  get(key: CborValue): CborValue | undefined {
    const k = toHexRaw(encodeCbor(key));
    return this.entries.find(([ek]) => toHexRaw(encodeCbor(ek)) === k)?.[1];
  }
}

/** A set (tag 258) in canonical element order. */
export class CborSet {
  readonly items: readonly CborInput[];
  constructor(items: readonly CborInput[]) {
    this.items = items;
  }
}

export const MAX_DEPTH = 64;
/** Largest bignum magnitude: 4096 bits. */
export const MAX_BIGNUM_BYTES = 512;
const SET_TAG = 258n;
const U64_LIMIT = 1n << 64n;

export type CborErrorCode =
  | "CBOR_UNEXPECTED_EOF"
  | "CBOR_TRAILING_BYTES"
  | "CBOR_NON_CANONICAL"
  | "CBOR_INDEFINITE_LENGTH"
  | "CBOR_UNSUPPORTED"
  | "CBOR_INVALID_UTF8"
  | "CBOR_UNSORTED_KEYS"
  | "CBOR_DUPLICATE_KEY"
  | "CBOR_TOO_DEEP"
  | "CBOR_TOO_LARGE"
  | "CBOR_NOT_ENCODABLE";

export class CborError extends Error {
  readonly code: CborErrorCode;
  readonly offset: number;
  constructor(code: CborErrorCode, message: string, offset = -1) {
    super(offset >= 0 ? `${message} (at byte ${offset})` : message);
    this.name = "CborError";
    this.code = code;
    this.offset = offset;
  }
}

class Out {
  private buf = new Uint8Array(64);
  private len = 0;
  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  head(major: number, arg: bigint): void {
    const m = major << 5;
    if (arg < 24n) this.byte(m | Number(arg));
    else if (arg < 0x100n) {
      this.byte(m | 24);
      this.byte(Number(arg));
    } else if (arg < 0x10000n) {
      this.byte(m | 25);
      this.byte(Number(arg >> 8n));
      this.byte(Number(arg & 0xffn));
    } else if (arg < 0x100000000n) {
      this.byte(m | 26);
      for (let s = 24n; s >= 0n; s -= 8n) this.byte(Number((arg >> s) & 0xffn));
    } else {
      this.byte(m | 27);
      for (let s = 56n; s >= 0n; s -= 8n) this.byte(Number((arg >> s) & 0xffn));
    }
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** A JavaScript value that encodes: numbers must be safe integers (use CborFloat for floats). */
export type CborInput =
  | null
  | boolean
  | number
  | bigint
  | CborFloat
  | string
  | Uint8Array
  | readonly CborInput[]
  | CborMap
  | CborSet
  | ReadonlyMap<CborInput, CborInput>
  | { readonly [key: string]: CborInput };

/** Encodes `value` canonically. Plain objects encode as maps with string keys. */
export function encodeCbor(value: CborInput): Uint8Array {
  const out = new Out();
  write(out, value, 0);
  return out.finish();
}

function write(out: Out, v: CborInput, depth: number): void {
  if (depth > MAX_DEPTH) throw new CborError("CBOR_TOO_DEEP", `nesting deeper than ${MAX_DEPTH}`);
  if (v === null || v === true || v === false) {
    out.byte(v === null ? 0xf6 : v ? 0xf5 : 0xf4);
    return;
  }
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) {
      throw new CborError("CBOR_NOT_ENCODABLE", `${v} is not a safe integer; wrap floats in CborFloat`);
    }
    write(out, BigInt(v), depth);
    return;
  }
  if (typeof v === "bigint") {
    const negative = v < 0n;
    const m = negative ? -1n - v : v;
    if (m < U64_LIMIT) out.head(negative ? 1 : 0, m);
    else writeBignum(out, negative ? 3n : 2n, m);
    return;
  }
  if (v instanceof CborFloat) {
    out.byte(0xfb);
    const b = new Uint8Array(8);
    const dv = new DataView(b.buffer);
    if (Number.isNaN(v.value)) dv.setBigUint64(0, 0x7ff8000000000000n);
    else dv.setFloat64(0, v.value);
    out.bytes(b);
    return;
  }
  if (typeof v === "string") {
    const b = new TextEncoder().encode(v);
    out.head(3, BigInt(b.length));
    out.bytes(b);
    return;
  }
  if (v instanceof Uint8Array) {
    out.head(2, BigInt(v.length));
    out.bytes(v);
    return;
  }
  if (Array.isArray(v)) {
    out.head(4, BigInt(v.length));
    for (const item of v) write(out, item as CborInput, depth + 1);
    return;
  }
  if (v instanceof CborSet) {
    out.head(6, SET_TAG);
    const items = sortedUnique(
      v.items.map((item) => encodeNested(item as CborInput, depth + 2)),
      "set element",
    );
    out.head(4, BigInt(items.length));
    for (const item of items) out.bytes(item);
    return;
  }
  const entries: Array<[CborInput, CborInput]> =
    v instanceof CborMap
      ? (v.entries as Array<[CborInput, CborInput]>)
      : v instanceof Map
        ? [...(v as ReadonlyMap<CborInput, CborInput>).entries()]
        : Object.entries(v as { [key: string]: CborInput });
  const encoded = entries.map(([k, val]) => ({ key: encodeNested(k, depth + 1), value: val }));
  encoded.sort((a, b) => compareBytes(a.key, b.key));
  for (let i = 1; i < encoded.length; i++) {
    if (
      compareBytes((encoded[i - 1] as { key: Uint8Array }).key, (encoded[i] as { key: Uint8Array }).key) === 0
    ) {
      throw new CborError("CBOR_DUPLICATE_KEY", "a map has two equal keys");
    }
  }
  out.head(5, BigInt(encoded.length));
  for (const { key, value } of encoded) {
    out.bytes(key);
    write(out, value, depth + 1);
  }
}

function encodeNested(v: CborInput, depth: number): Uint8Array {
  const out = new Out();
  write(out, v, depth);
  return out.finish();
}

function sortedUnique(items: Uint8Array[], what: string): Uint8Array[] {
  items.sort(compareBytes);
  for (let i = 1; i < items.length; i++) {
    if (compareBytes(items[i - 1] as Uint8Array, items[i] as Uint8Array) === 0) {
      throw new CborError("CBOR_DUPLICATE_KEY", `duplicate ${what}`);
    }
  }
  return items;
}

function writeBignum(out: Out, tag: bigint, magnitude: bigint): void {
  const hex = magnitude.toString(16);
  const bytes = parseHexDigits(hex.length % 2 ? `0${hex}` : hex) as Uint8Array;
  if (bytes.length > MAX_BIGNUM_BYTES) throw new CborError("CBOR_TOO_LARGE", "integer over 4096 bits");
  out.head(6, tag);
  out.head(2, BigInt(bytes.length));
  out.bytes(bytes);
}

class In {
  pos = 0;
  readonly buf: Uint8Array;
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }
  need(n: number): void {
    if (this.pos + n > this.buf.length)
      throw new CborError("CBOR_UNEXPECTED_EOF", "input ends early", this.pos);
  }
  byte(): number {
    this.need(1);
    return this.buf[this.pos++] as number;
  }
  take(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/** Reads an item head: major type and argument, refusing non-shortest and indefinite forms. */
function readHead(inp: In): { major: number; arg: bigint; start: number } {
  const start = inp.pos;
  const ib = inp.byte();
  const major = ib >> 5;
  const info = ib & 0x1f;
  if (info < 24) return { major, arg: BigInt(info), start };
  if (info === 31)
    throw new CborError("CBOR_INDEFINITE_LENGTH", "indefinite lengths are not canonical", start);
  if (info > 27) throw new CborError("CBOR_UNSUPPORTED", `reserved additional information ${info}`, start);
  const size = 1 << (info - 24);
  const bytes = inp.take(size);
  let arg = 0n;
  for (const b of bytes) arg = (arg << 8n) | BigInt(b);
  if (major !== 7) {
    const min = info === 24 ? 24n : info === 25 ? 0x100n : info === 26 ? 0x10000n : 0x100000000n;
    if (arg < min) throw new CborError("CBOR_NON_CANONICAL", "argument not in its shortest form", start);
  }
  return { major, arg, start };
}

function length(arg: bigint, inp: In, start: number): number {
  if (arg > BigInt(inp.buf.length - inp.pos)) {
    throw new CborError("CBOR_UNEXPECTED_EOF", "length exceeds the input", start);
  }
  return Number(arg);
}

/** Decodes exactly one canonical item; anything else is a {@link CborError}. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const inp = new In(bytes);
  const v = read(inp, 0);
  if (inp.pos !== bytes.length) throw new CborError("CBOR_TRAILING_BYTES", "bytes after the value", inp.pos);
  return v;
}

function read(inp: In, depth: number): CborValue {
  if (depth > MAX_DEPTH) throw new CborError("CBOR_TOO_DEEP", `nesting deeper than ${MAX_DEPTH}`, inp.pos);
  const { major, arg, start } = readHead(inp);
  switch (major) {
    case 0:
      return arg;
    case 1:
      return -1n - arg;
    case 2:
      return Uint8Array.from(inp.take(length(arg, inp, start)));
    case 3: {
      const raw = inp.take(length(arg, inp, start));
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(raw);
      } catch {
        throw new CborError("CBOR_INVALID_UTF8", "text is not valid UTF-8", start);
      }
    }
    case 4: {
      const n = length(arg, inp, start);
      const items: CborValue[] = [];
      for (let i = 0; i < n; i++) items.push(read(inp, depth + 1));
      return items;
    }
    case 5: {
      const n = length(arg, inp, start);
      const entries: Array<[CborValue, CborValue]> = [];
      let prev: Uint8Array | null = null;
      for (let i = 0; i < n; i++) {
        const keyStart = inp.pos;
        const key = read(inp, depth + 1);
        const keyBytes = inp.buf.subarray(keyStart, inp.pos);
        if (prev !== null) {
          const c = compareBytes(prev, keyBytes);
          if (c === 0) throw new CborError("CBOR_DUPLICATE_KEY", "a map has two equal keys", keyStart);
          if (c > 0)
            throw new CborError("CBOR_UNSORTED_KEYS", "map keys are not in canonical order", keyStart);
        }
        prev = keyBytes;
        entries.push([key, read(inp, depth + 1)]);
      }
      return new CborMap(entries);
    }
    case 6: {
      if (arg === 2n || arg === 3n) {
        const h = readHead(inp);
        if (h.major !== 2)
          throw new CborError("CBOR_UNSUPPORTED", "a bignum tag must wrap a byte string", h.start);
        const n = length(h.arg, inp, h.start);
        if (n > MAX_BIGNUM_BYTES) throw new CborError("CBOR_TOO_LARGE", "integer over 4096 bits", h.start);
        const mag = inp.take(n);
        if (n === 0 || mag[0] === 0)
          throw new CborError("CBOR_NON_CANONICAL", "bignum with leading zeros", h.start);
        const m = BigInt(`0x${toHexRaw(mag)}`);
        if (m < U64_LIMIT)
          throw new CborError("CBOR_NON_CANONICAL", "bignum for a value that fits 64 bits", start);
        return arg === 2n ? m : -1n - m;
      }
      if (arg === SET_TAG) {
        const h = readHead(inp);
        if (h.major !== 4) throw new CborError("CBOR_UNSUPPORTED", "a set tag must wrap an array", h.start);
        const n = length(h.arg, inp, h.start);
        const items: CborValue[] = [];
        let prev: Uint8Array | null = null;
        for (let i = 0; i < n; i++) {
          const s = inp.pos;
          items.push(read(inp, depth + 1));
          const b = inp.buf.subarray(s, inp.pos);
          if (prev !== null) {
            const c = compareBytes(prev, b);
            if (c === 0) throw new CborError("CBOR_DUPLICATE_KEY", "a set has two equal elements", s);
            if (c > 0)
              throw new CborError("CBOR_UNSORTED_KEYS", "set elements are not in canonical order", s);
          }
          prev = b;
        }
        return new CborSet(items);
      }
      throw new CborError("CBOR_UNSUPPORTED", `tag ${arg} is not part of the canonical encoding`, start);
    }
    default: {
      const ib = inp.buf[start] as number;
      if (ib === 0xf4) return false;
      if (ib === 0xf5) return true;
      if (ib === 0xf6) return null;
      if (ib === 0xfb) {
        const dv = new DataView(inp.buf.buffer, inp.buf.byteOffset + start + 1, 8);
        const bits = dv.getBigUint64(0);
        const value = dv.getFloat64(0);
        if (Number.isNaN(value) && bits !== 0x7ff8000000000000n) {
          throw new CborError("CBOR_NON_CANONICAL", "NaN must be 7ff8000000000000", start);
        }
        return new CborFloat(value);
      }
      throw new CborError(
        "CBOR_UNSUPPORTED",
        `simple value or float form 0x${ib.toString(16)} is not canonical`,
        start,
      );
    }
  }
}
