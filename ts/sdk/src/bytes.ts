/**
 * Byte helpers: strict hex conversion and comparison. Hex output is always
 * lowercase with a `0x` prefix; input accepts any case.
 */

const HEX = "0123456789abcdef";
const BYTE_TO_HEX: string[] = Array.from(
  { length: 256 },
  (_, i) => (HEX[i >> 4] as string) + (HEX[i & 15] as string),
);

/** Lowercase hex of `bytes`, without a prefix. */
export function toHexRaw(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i] as number] as string;
  return out;
}

/** `0x` + lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  return `0x${toHexRaw(bytes)}`;
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/**
 * Parses hex digits (no prefix handling) into bytes. Returns `null` if the text
 * has an odd length or a character that is not a hex digit.
 */
export function parseHexDigits(text: string): Uint8Array | null {
  if (text.length % 2 !== 0) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(text.charCodeAt(2 * i));
    const lo = nibble(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/**
 * Parses `0x`-prefixed hex (any case) into bytes; `0x` alone is the empty byte
 * string. Throws `TypeError` on anything else. For optional prefixes use
 * {@link parseHexLoose}.
 */
export function fromHex(text: string): Uint8Array {
  if (!text.startsWith("0x")) throw new TypeError("hex: expected a 0x prefix");
  const out = parseHexDigits(text.slice(2));
  if (out === null) throw new TypeError("hex: expected an even number of hex digits");
  return out;
}

/** Parses hex with or without a `0x` prefix (surrounding whitespace ignored). Throws `TypeError`. */
export function parseHexLoose(text: string): Uint8Array {
  let t = text.trim();
  if (t.startsWith("0x") || t.startsWith("0X")) t = t.slice(2);
  const out = parseHexDigits(t);
  if (out === null) throw new TypeError("hex: expected an even number of hex digits");
  return out;
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Byte-wise (lexicographic) comparison: negative, zero or positive. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Concatenation of byte strings. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
