/**
 * Actor argument and result encoding for clients. Handler arguments travel as
 * the canonical CBOR of a positional argument array (docs/values.md); results
 * come back as canonical CBOR. This module converts between those bytes and
 * JavaScript values, and defines the JSON form tools (the CLI, scripts) use:
 *
 * | JSON                      | Python value                    |
 * | ------------------------- | ------------------------------- |
 * | `1`, `-7`, `10000000000000000000000` | int (exact, any size)  |
 * | `1.5`, `1e3`              | float                           |
 * | `"text"`                  | str                             |
 * | `true`, `false`, `null`   | True, False, None               |
 * | `[…]`                     | list                            |
 * | `{"k": …}`                | dict with str keys              |
 * | `{"$bytes": "0x…"}`       | bytes                           |
 * | `{"$set": […]}`           | set                             |
 * | `{"$map": [[k, v], …]}`   | dict with any keys              |
 *
 * Integers never pass through a float: the JSON text is parsed by this module,
 * not by `JSON.parse`, so `2**70` written out in full stays exact.
 */
import { parseHexDigits, toHex } from "../bytes.ts";
import {
  CborFloat,
  type CborInput,
  CborMap,
  CborSet,
  type CborValue,
  decodeCbor,
  encodeCbor,
} from "../cbor.ts";

/** Canonical CBOR of a positional argument list. */
export function encodeArgs(args: readonly CborInput[] = []): Uint8Array {
  return encodeCbor(args);
}

/** A JSON value-text could not be turned into actor values. */
export class ValueJsonError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(position >= 0 ? `${message} at position ${position}` : message);
    this.name = "ValueJsonError";
    this.position = position;
  }
  get errCode(): string {
    return "ERR_VALUE_JSON";
  }
}

/** Parses JSON text into actor values (see the table above). */
export function parseValueJson(text: string): CborInput {
  const p = new JsonParser(text);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.pos !== text.length) throw new ValueJsonError("unexpected text after the value", p.pos);
  return v;
}

/** Parses a JSON array of handler arguments and encodes it (`"[1, \"a\"]"` → CBOR). */
export function argsFromJson(text: string): Uint8Array {
  const v = parseValueJson(text.trim() === "" ? "[]" : text);
  if (!Array.isArray(v))
    throw new ValueJsonError('handler arguments must be a JSON array, e.g. [1, "a"]', -1);
  return encodeArgs(v);
}

class JsonParser {
  pos = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  ws(): void {
    while (this.pos < this.s.length && " \t\r\n".includes(this.s[this.pos] as string)) this.pos++;
  }
  fail(msg: string): never {
    throw new ValueJsonError(msg, this.pos);
  }
  expect(c: string): void {
    if (this.s[this.pos] !== c) this.fail(`expected '${c}'`);
    this.pos++;
  }
  value(depth: number): CborInput {
    if (depth > 64) this.fail("nesting deeper than 64");
    const c = this.s[this.pos];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail(c === undefined ? "unexpected end of input" : `unexpected '${c}'`);
  }
  array(depth: number): CborInput[] {
    this.expect("[");
    const out: CborInput[] = [];
    this.ws();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value(depth + 1));
      this.ws();
      if (this.s[this.pos] === ",") {
        this.pos++;
        continue;
      }
      this.expect("]");
      return out;
    }
  }
  object(depth: number): CborInput {
    const start = this.pos;
    this.expect("{");
    const entries: Array<[string, CborInput]> = [];
    this.ws();
    if (this.s[this.pos] === "}") {
      this.pos++;
    } else {
      for (;;) {
        this.ws();
        if (this.s[this.pos] !== '"') this.fail("expected a string key");
        const k = this.string();
        this.ws();
        this.expect(":");
        this.ws();
        entries.push([k, this.value(depth + 1)]);
        this.ws();
        if (this.s[this.pos] === ",") {
          this.pos++;
          continue;
        }
        this.expect("}");
        break;
      }
    }
    const first = entries[0];
    if (entries.length === 1 && first !== undefined && first[0].startsWith("$")) {
      const [tag, v] = first;
      if (tag === "$bytes") {
        const b = typeof v === "string" && v.startsWith("0x") ? parseHexDigits(v.slice(2)) : null;
        if (b === null) throw new ValueJsonError('"$bytes" takes a 0x-prefixed hex string', start);
        return b;
      }
      if (tag === "$set") {
        if (!Array.isArray(v)) throw new ValueJsonError('"$set" takes an array', start);
        return new CborSet(v);
      }
      if (tag === "$map") {
        if (!Array.isArray(v) || !v.every((e) => Array.isArray(e) && e.length === 2)) {
          throw new ValueJsonError('"$map" takes an array of [key, value] pairs', start);
        }
        return new Map((v as CborInput[][]).map((e) => [e[0] as CborInput, e[1] as CborInput]));
      }
    }
    const keys = new Set<string>();
    for (const [k] of entries) {
      if (keys.has(k)) throw new ValueJsonError(`duplicate key "${k}"`, start);
      keys.add(k);
    }
    return Object.fromEntries(entries);
  }
  string(): string {
    const start = this.pos;
    this.expect('"');
    while (this.pos < this.s.length) {
      const c = this.s[this.pos];
      if (c === "\\") this.pos += 2;
      else if (c === '"') {
        this.pos++;
        try {
          return JSON.parse(this.s.slice(start, this.pos)) as string;
        } catch {
          throw new ValueJsonError("invalid string", start);
        }
      } else this.pos++;
    }
    return this.fail("unterminated string");
  }
  number(): CborInput {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.pos));
    if (m === null) return this.fail("invalid number");
    this.pos += m[0].length;
    if (m[2] === undefined && m[3] === undefined) return BigInt(m[0]);
    return new CborFloat(Number(m[0]));
  }
}

/** A decoded value in the JSON form of the table above (a plain JSON-able value). */
export type ValueJson = null | boolean | number | string | ValueJson[] | { [key: string]: ValueJson };

/**
 * Turns a decoded CBOR value into its JSON form. Integers become JSON numbers
 * when they are safe integers, else decimal strings in `{"$int": "…"}`.
 */
export function valueToJson(v: CborValue): ValueJson {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") {
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(v)
      : { $int: v.toString() };
  }
  if (v instanceof CborFloat) return Number.isFinite(v.value) ? v.value : { $float: String(v.value) };
  if (v instanceof Uint8Array) return { $bytes: toHex(v) };
  if (Array.isArray(v)) return v.map(valueToJson);
  if (v instanceof CborSet) return { $set: (v.items as CborValue[]).map(valueToJson) };
  if (v instanceof CborMap) {
    if (v.entries.every(([k]) => typeof k === "string")) {
      return Object.fromEntries(v.entries.map(([k, val]) => [k as string, valueToJson(val)]));
    }
    return { $map: v.entries.map(([k, val]) => [valueToJson(k), valueToJson(val)]) };
  }
  return null;
}

/** Decodes canonical CBOR result bytes to their JSON form (`null` for empty bytes). */
export function resultToJson(bytes: Uint8Array): ValueJson {
  return bytes.length === 0 ? null : valueToJson(decodeCbor(bytes));
}

/** A Python-like rendering of a decoded value, for people (`{'count': 3}`, `b'\x01'`). */
export function formatValue(v: CborValue): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string") return JSON.stringify(v).replace(/^"|"$/g, "'");
  if (v instanceof CborFloat) {
    if (Number.isNaN(v.value)) return "nan";
    if (!Number.isFinite(v.value)) return v.value > 0 ? "inf" : "-inf";
    return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
  }
  if (v instanceof Uint8Array)
    return `b'${[...v].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x27 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`)).join("")}'`;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(", ")}]`;
  if (v instanceof CborSet)
    return v.items.length === 0 ? "set()" : `{${(v.items as CborValue[]).map(formatValue).join(", ")}}`;
  if (v instanceof CborMap)
    return `{${v.entries.map(([k, val]) => `${formatValue(k)}: ${formatValue(val)}`).join(", ")}}`;
  return String(v);
}
