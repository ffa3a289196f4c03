/**
 * Canonical Python source (spec §1.2, docs/codec.md §6): valid UTF-8, no
 * leading byte-order mark, no `\r`, NFC-normalized. The canonical bytes are
 * what is hashed (code_hash) and stored; the codec never fixes them.
 */
import { SourceError } from "./errors.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/**
 * Checks that `bytes` are canonical Python source and returns them unchanged.
 * Rules in order (the first failure is thrown as a {@link SourceError}):
 * `SOURCE_NOT_UTF8`, `SOURCE_HAS_BOM`, `SOURCE_HAS_CR`, `SOURCE_NOT_NFC`.
 * `field` names the field in the error message.
 */
export function checkCanonicalSource(bytes: Uint8Array, field = "source"): Uint8Array {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new SourceError("SOURCE_NOT_UTF8", field);
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new SourceError("SOURCE_HAS_BOM", field);
  }
  if (bytes.includes(0x0d)) throw new SourceError("SOURCE_HAS_CR", field);
  if (!isNfc(text)) throw new SourceError("SOURCE_NOT_NFC", field);
  return bytes;
}

/** True if `bytes` are canonical Python source. */
export function isCanonicalSource(bytes: Uint8Array): boolean {
  try {
    checkCanonicalSource(bytes);
    return true;
  } catch {
    return false;
  }
}

function isNfc(text: string): boolean {
  // Fast path: text below U+0300 is always NFC (no combining marks, no composites to form).
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x300) return text.normalize("NFC") === text;
  }
  return true;
}

/**
 * Rewrites `text` into canonical source bytes, for tools that fix input before
 * submitting (never used by consensus): strips leading BOMs, turns `\r\n` and
 * lone `\r` into `\n`, then NFC-normalizes. The result always passes
 * {@link checkCanonicalSource}.
 */
export function canonicalizeSource(text: string): Uint8Array {
  let t = text;
  while (t.startsWith("\uFEFF")) t = t.slice(1);
  t = t.replace(/\r\n/g, "\n").replace(/\r/g, "\n").normalize("NFC");
  return utf8Encoder.encode(t);
}
