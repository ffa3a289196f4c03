/**
 * JSON-RPC value conventions (Ethereum's habits, docs/rpc.md): quantities are
 * `0x`-prefixed hex without leading zeros (`0x0`, `0x1a`), byte strings are
 * `0x`-prefixed even-length hex. Helpers to write them, and a small reader that
 * checks the shape of responses so a mismatch is a {@link ResponseShapeError}
 * naming the field, never an `undefined` deep inside a caller.
 */
import { parseHexDigits, toHex } from "../bytes.ts";
import { ResponseShapeError } from "./errors.ts";

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;

/** `n` as a hex quantity (`0x0`, `0x1a`); `n` must be ≥ 0. */
export function toQuantity(n: bigint | number): string {
  const v = typeof n === "number" ? BigInt(n) : n;
  if (v < 0n) throw new RangeError(`toQuantity: negative value ${v}`);
  return `0x${v.toString(16)}`;
}

/** Parses a hex quantity; null when `text` is not one. */
export function parseQuantity(text: unknown): bigint | null {
  return typeof text === "string" && QUANTITY.test(text) ? BigInt(text) : null;
}

/** Bytes as `0x` hex (the RPC's byte-string form). */
export const toData = toHex;

/** Parses `0x` hex bytes; null when `text` is not even-length `0x` hex. */
export function parseData(text: unknown): Uint8Array | null {
  if (typeof text !== "string" || !text.startsWith("0x")) return null;
  return parseHexDigits(text.slice(2));
}

/** Reads fields of a JSON object from a response, checking each one's form. */
export class Shape {
  readonly value: Record<string, unknown>;
  readonly path: string;

  constructor(value: unknown, path: string) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ResponseShapeError(path, `expected an object, got ${describe(value)}`);
    }
    this.value = value as Record<string, unknown>;
    this.path = path;
  }

  private at(key: string): string {
    return `${this.path}.${key}`;
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  raw(key: string): unknown {
    return this.value[key];
  }

  quantity(key: string): bigint {
    return quantityAt(this.value[key], this.at(key));
  }

  optQuantity(key: string): bigint | null {
    return this.has(key) ? this.quantity(key) : null;
  }

  data(key: string, length?: number): Uint8Array {
    return dataAt(this.value[key], this.at(key), length);
  }

  optData(key: string, length?: number): Uint8Array | null {
    return this.has(key) ? this.data(key, length) : null;
  }

  string(key: string): string {
    const v = this.value[key];
    if (typeof v !== "string")
      throw new ResponseShapeError(this.at(key), `expected a string, got ${describe(v)}`);
    return v;
  }

  optString(key: string): string | null {
    return this.has(key) ? this.string(key) : null;
  }

  bool(key: string): boolean {
    const v = this.value[key];
    if (typeof v !== "boolean")
      throw new ResponseShapeError(this.at(key), `expected a boolean, got ${describe(v)}`);
    return v;
  }

  array(key: string): unknown[] {
    const v = this.value[key];
    if (!Array.isArray(v))
      throw new ResponseShapeError(this.at(key), `expected an array, got ${describe(v)}`);
    return v;
  }

  object(key: string): Shape {
    return new Shape(this.value[key], this.at(key));
  }
}

/** A hex quantity at `path`, or a {@link ResponseShapeError}. */
export function quantityAt(v: unknown, path: string): bigint {
  const n = parseQuantity(v);
  if (n === null) throw new ResponseShapeError(path, `expected a hex quantity, got ${describe(v)}`);
  return n;
}

/** `0x` hex bytes at `path` (of an exact length when given), or a {@link ResponseShapeError}. */
export function dataAt(v: unknown, path: string, length?: number): Uint8Array {
  const b = parseData(v);
  if (b === null) throw new ResponseShapeError(path, `expected 0x-prefixed hex bytes, got ${describe(v)}`);
  if (length !== undefined && b.length !== length) {
    throw new ResponseShapeError(path, `expected ${length} bytes, got ${b.length}`);
  }
  return b;
}

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
