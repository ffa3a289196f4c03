/**
 * Declarative parameter validation. A method lists its parameters as `Param`s; the
 * dispatcher checks arity, accepts positional (array) or named (object) params, and
 * parses each one, answering `-32602 invalid params` with the parameter's name and the
 * rule it broke.
 */
import { RpcError } from "./errors.ts";

export interface Param<T> {
  readonly name: string;
  /** absent values are allowed (and parsed as `undefined` unless a default is given) */
  readonly optional: boolean;
  /** what the value must look like, for error messages and generated docs */
  readonly expects: string;
  parse(value: unknown): T;
}

export type ParamValues<P extends readonly Param<unknown>[]> = {
  [K in keyof P]: P[K] extends Param<infer T> ? T : never;
};

function param<T>(name: string, expects: string, parse: (v: unknown) => T): Param<T> {
  return { name, optional: false, expects, parse };
}

function fail(name: string, expects: string, got: unknown): never {
  const shown =
    typeof got === "string" ? `"${got.length > 80 ? `${got.slice(0, 80)}…` : got}"` : JSON.stringify(got);
  throw RpcError.invalidParams(`invalid ${name}: expected ${expects}, got ${shown}`, { param: name });
}

const HEX_QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;
const HEX_DATA = /^0x([0-9a-f]{2})*$/i;

/** Block selector: a named tag or a height. */
export type BlockTag = { tag: "latest" | "finalized" | "earliest" | "pending" | "safe" } | { height: bigint };

export const p = {
  /** `0x`-prefixed hex quantity without leading zeros, up to 64 bits */
  quantity(name: string): Param<bigint> {
    const expects = "a hex quantity like 0x1a (no leading zeros, at most 64 bits)";
    return param(name, expects, (v) => {
      if (typeof v !== "string" || !HEX_QUANTITY.test(v) || v.length > 18) fail(name, expects, v);
      return BigInt(v);
    });
  },

  /** `0x`-prefixed even-length hex, optionally of an exact byte length or a maximum */
  data(name: string, opts: { length?: number; maxLength?: number } = {}): Param<Uint8Array> {
    const expects =
      opts.length !== undefined
        ? `${opts.length} bytes of 0x-prefixed hex`
        : `0x-prefixed hex bytes${opts.maxLength !== undefined ? ` (at most ${opts.maxLength} bytes)` : ""}`;
    return param(name, expects, (v) => {
      if (typeof v !== "string" || !HEX_DATA.test(v)) fail(name, expects, v);
      const len = (v.length - 2) / 2;
      if (opts.length !== undefined && len !== opts.length) fail(name, expects, v);
      if (opts.maxLength !== undefined && len > opts.maxLength) fail(name, expects, `${len} bytes`);
      return new Uint8Array(Buffer.from(v.slice(2), "hex"));
    });
  },

  address(name: string): Param<Uint8Array> {
    return p.data(name, { length: 20 });
  },

  hash(name: string): Param<Uint8Array> {
    return p.data(name, { length: 32 });
  },

  blockTag(name: string): Param<BlockTag> {
    const expects = `"latest", "finalized", "safe", "earliest", "pending" or a hex block number`;
    return param(name, expects, (v) => {
      if (v === "latest" || v === "finalized" || v === "earliest" || v === "pending" || v === "safe") {
        return { tag: v };
      }
      if (typeof v === "string" && HEX_QUANTITY.test(v) && v.length <= 18) return { height: BigInt(v) };
      return fail(name, expects, v);
    });
  },

  /** a string matching `pattern` (anchored by the caller), described by `expects` */
  string(name: string, pattern: RegExp, expects: string): Param<string> {
    return param(name, expects, (v) =>
      typeof v === "string" && pattern.test(v) ? v : fail(name, expects, v),
    );
  },

  /** one value or a non-empty array of at most `max` values of `inner`, always parsed to an array */
  oneOrMany<T>(inner: Param<T>, max: number): Param<T[]> {
    const expects = `${inner.expects}, or an array of 1 to ${max} of them`;
    return param(inner.name, expects, (v) => {
      if (!Array.isArray(v)) return [inner.parse(v)];
      if (v.length === 0 || v.length > max) fail(inner.name, expects, v);
      return v.map((x) => inner.parse(x));
    });
  },

  bool(name: string): Param<boolean> {
    return param(name, "true or false", (v) => (typeof v === "boolean" ? v : fail(name, "true or false", v)));
  },

  /** one of a fixed set of strings */
  oneOf<const S extends string>(name: string, values: readonly S[]): Param<S> {
    const expects = `one of ${values.map((s) => `"${s}"`).join(", ")}`;
    return param(name, expects, (v) => (values.includes(v as S) ? (v as S) : fail(name, expects, v)));
  },

  /** an integer within [min, max] given as a JSON number */
  integer(name: string, min: number, max: number): Param<number> {
    const expects = `an integer from ${min} to ${max}`;
    return param(name, expects, (v) =>
      typeof v === "number" && Number.isInteger(v) && v >= min && v <= max ? v : fail(name, expects, v),
    );
  },

  /** a JSON object whose fields are themselves params (absent optional fields stay absent) */
  object<F extends Record<string, Param<unknown>>>(
    name: string,
    fields: F,
  ): Param<{ [K in keyof F]: F[K] extends Param<infer T> ? T : never }> {
    const expects = `an object with ${Object.keys(fields).join(", ")}`;
    return param(name, expects, (v) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) fail(name, expects, v);
      const input = v as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!(key in fields))
          throw RpcError.invalidParams(`invalid ${name}: unknown field "${key}"`, { param: name });
      }
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(fields)) {
        const value = input[key];
        if (value === undefined || value === null) {
          if (!field.optional)
            throw RpcError.invalidParams(`invalid ${name}: missing field "${key}"`, { param: name });
          continue;
        }
        out[key] = field.parse(value);
      }
      return out as { [K in keyof F]: F[K] extends Param<infer T> ? T : never };
    });
  },

  /** any JSON value, validated later by the handler (e.g. an event filter) */
  json(name: string, expects: string): Param<unknown> {
    return param(name, expects, (v) => v);
  },

  /** makes a param optional; absent (or null) values parse to `fallback` */
  optional<T, D extends T | undefined = undefined>(inner: Param<T>, fallback?: D): Param<T | D> {
    return {
      name: inner.name,
      optional: true,
      expects: `${inner.expects} (optional)`,
      parse: (v) => (v === undefined || v === null ? (fallback as D) : inner.parse(v)),
    };
  },
};

/** Checks arity and parses positional or named params against `specs`. */
export function parseParams<P extends readonly Param<unknown>[]>(specs: P, raw: unknown): ParamValues<P> {
  let values: unknown[];
  if (raw === undefined) {
    values = [];
  } else if (Array.isArray(raw)) {
    values = raw;
  } else if (typeof raw === "object" && raw !== null) {
    const named = raw as Record<string, unknown>;
    for (const key of Object.keys(named)) {
      if (!specs.some((s) => s.name === key)) throw RpcError.invalidParams(`unknown parameter "${key}"`);
    }
    values = specs.map((s) => named[s.name]);
  } else {
    throw RpcError.invalidParams("params must be an array or an object");
  }
  if (values.length > specs.length) {
    throw RpcError.invalidParams(
      `too many parameters: expected at most ${specs.length}, got ${values.length}`,
    );
  }
  return specs.map((spec, i) => {
    const v = values[i];
    if ((v === undefined || v === null) && !spec.optional) {
      throw RpcError.invalidParams(`missing parameter ${i} (${spec.name}): expected ${spec.expects}`, {
        param: spec.name,
      });
    }
    return spec.parse(v);
  }) as ParamValues<P>;
}
