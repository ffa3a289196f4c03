/**
 * {@link TestHost}: serves the requests of one PVM test run (`_cowboy_bridge.request` in
 * python/cowboy_test.py). A request is the canonical CBOR of `{op, ...fields}`; the reply is
 * `{ok: value}` or `{err: {kind, message}}`. The chain is created on first use, so a test
 * without the `chain` fixture never opens a store.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { type CborInput, CborMap, type CborValue, decodeCbor, encodeCbor, toHex } from "@cowboy/sdk";
import { ACCOUNT_NAMES, RejectedError, type SimChain, type SimEvent, type SimReceipt } from "./chain.ts";

/** Where a test run got to: `setup` (fixtures), `call`, `failed`, `teardown`, `done`. */
export type Phase = "start" | "setup" | "call" | "failed" | "teardown" | "done";

/** What the test host learnt from one run. */
export interface HostRecord {
  phase: Phase;
  /** set when the test failed with an ActorError: the actor's type and traceback */
  actorFailure: { type: string; traceback: string[] } | null;
  /** collection results (`_collect`) */
  collected: { module: string; tests: string[] }[];
}

const get = (m: CborValue, k: string): CborValue | undefined => (m instanceof CborMap ? m.get(k) : undefined);

function bytesField(m: CborValue, k: string): Uint8Array {
  const v = get(m, k);
  if (!(v instanceof Uint8Array)) throw new TypeError(`${k}: expected bytes`);
  return v;
}

function intField(m: CborValue, k: string, dflt?: bigint): bigint {
  const v = get(m, k);
  if ((v === undefined || v === null) && dflt !== undefined) return dflt;
  if (typeof v !== "bigint") throw new TypeError(`${k}: expected an int`);
  return v;
}

function optInt(m: CborValue, k: string): bigint | undefined {
  const v = get(m, k);
  return typeof v === "bigint" ? v : undefined;
}

/** `cycles_limit` / `cells_limit` of a request (absent: the simulated chain's defaults). */
function limitsOf(m: CborValue): { cycles?: bigint; cells?: bigint } {
  const limits: { cycles?: bigint; cells?: bigint } = {};
  const cy = optInt(m, "cycles_limit");
  const ce = optInt(m, "cells_limit");
  if (cy !== undefined) limits.cycles = cy;
  if (ce !== undefined) limits.cells = ce;
  return limits;
}

function strField(m: CborValue, k: string): string {
  const v = get(m, k);
  if (typeof v !== "string") throw new TypeError(`${k}: expected a str`);
  return v;
}

function eventOut(e: SimEvent): CborInput {
  return { emitter: e.emitter, name: e.name, topics: e.topics, data: e.data };
}

/** A receipt as the Python `Receipt` reads it. */
export function receiptOut(r: SimReceipt): CborInput {
  return {
    ok: r.ok,
    status: r.status,
    value: r.value,
    cycles: r.cycles,
    cells: r.cells,
    fee: r.fee,
    events: r.events.map(eventOut),
    error: r.error,
    error_type: r.errorType,
    traceback: r.traceback,
    stdout: r.stdout,
    height: r.height,
    kind: r.kind,
    contract: r.contract,
    tx_hash: r.txHash,
    handler: r.handler,
    jobs: r.jobs.map((j) => ({
      id: j.id,
      type: j.jobType,
      spec: j.spec,
      callback: j.callback,
      max_price: j.maxPrice,
    })),
  };
}

function plain(v: unknown): CborInput {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint" || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : null;
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object") {
    const out: Record<string, CborInput> = {};
    for (const [k, x] of Object.entries(v)) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = plain(x);
    return out;
  }
  return null;
}

/** Serves one test run. */
export class TestHost {
  readonly record: HostRecord = { phase: "start", actorFailure: null, collected: [] };
  private sim: SimChain | null = null;
  private readonly makeChain: () => SimChain;
  private readonly root: string;
  private readonly cwd: string;

  /** `root`: the project directory (deploy paths are relative to it); `cwd`: where reported paths are relative to. */
  constructor(root: string, cwd: string, makeChain: () => SimChain) {
    this.root = root;
    this.cwd = cwd;
    this.makeChain = makeChain;
  }

  /** The chain of this run, created on first use. */
  chain(): SimChain {
    this.sim ??= this.makeChain();
    return this.sim;
  }

  /** Warnings of the run's chain (e.g. dropped timers). */
  warnings(): string[] {
    return this.sim === null ? [] : [...this.sim.warnings];
  }

  /** Releases the chain's store. */
  close(): void {
    this.sim?.close();
    this.sim = null;
  }

  /** The bridge callback: never throws (errors become `{err}` replies). */
  serve = (request: Buffer): Buffer => {
    let reply: CborInput;
    try {
      reply = { ok: this.handle(decodeCbor(request)) };
    } catch (e) {
      const rejected = e instanceof RejectedError;
      reply = {
        err: {
          kind: rejected ? "rejected" : "host",
          message: rejected ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? e),
        },
      };
    }
    return Buffer.from(encodeCbor(reply));
  };

  private handle(m: CborValue): CborInput {
    const op = strField(m, "op");
    switch (op) {
      case "phase": {
        this.record.phase = strField(m, "phase") as Phase;
        const t = get(m, "actor_type");
        if (typeof t === "string") {
          const tb = get(m, "actor_traceback");
          this.record.actorFailure = {
            type: t,
            traceback: Array.isArray(tb) ? tb.filter((x): x is string => typeof x === "string") : [],
          };
        }
        return null;
      }
      case "collected": {
        const mods = get(m, "modules");
        if (!Array.isArray(mods)) throw new TypeError("modules: expected a list");
        this.record.collected = mods.map((x) => ({
          module: strField(x, "module"),
          tests: ((get(x, "tests") as CborValue[]) ?? []).map(String),
        }));
        return null;
      }
      case "accounts":
        return this.chain().accounts.map((a, i) => ({
          name: ACCOUNT_NAMES[i] ?? `account${i}`,
          address: a.address,
        }));
      case "info": {
        const c = this.chain();
        return { height: c.height, timestamp: c.timestampMs, chain_id: c.chain.chainId };
      }
      case "deploy": {
        const src = strField(m, "source");
        const { source, file, name } = this.source(src);
        const args = get(m, "args") ?? [];
        const salt = get(m, "salt");
        const r = this.chain().deploy(
          bytesField(m, "sender"),
          source,
          file,
          encodeCbor(args),
          intField(m, "value", 0n),
          salt instanceof Uint8Array ? salt : undefined,
          limitsOf(m),
        );
        return { address: r.address, receipt: receiptOut(r.receipt), name };
      }
      case "send": {
        const limits = limitsOf(m);
        return receiptOut(
          this.chain().send(
            bytesField(m, "sender"),
            bytesField(m, "to"),
            strField(m, "handler"),
            encodeCbor(get(m, "args") ?? []),
            intField(m, "value", 0n),
            limits,
          ),
        );
      }
      case "call":
        return receiptOut(
          this.chain().call(
            bytesField(m, "sender"),
            bytesField(m, "to"),
            strField(m, "handler"),
            encodeCbor(get(m, "args") ?? []),
            intField(m, "value", 0n),
          ),
        );
      case "transfer":
        return receiptOut(
          this.chain().transfer(bytesField(m, "sender"), bytesField(m, "to"), intField(m, "amount")),
        );
      case "advance": {
        const n = intField(m, "blocks", 1n);
        if (n < 0n || n > 100_000n) throw new RangeError(`advance: blocks must be in 0..=100000, got ${n}`);
        return this.chain().advance(Number(n)).map(receiptOut);
      }
      case "balance":
        return this.chain().balance(bytesField(m, "address"));
      case "nonce":
        return this.chain().nonce(bytesField(m, "address"));
      case "storage": {
        const key = get(m, "key");
        if (key === undefined) throw new TypeError("key: required");
        const v = this.chain().chain.getActorStorage(bytesField(m, "actor"), encodeCbor(key));
        if (v === null) return { found: false, value: null };
        return { found: true, value: decodeCbor(v) };
      }
      case "events": {
        const actor = get(m, "actor");
        const hex = actor instanceof Uint8Array ? toHex(actor) : null;
        return this.chain()
          .receipts.flatMap((r) => r.events)
          .filter((e) => hex === null || toHex(e.emitter) === hex)
          .map(eventOut);
      }
      case "receipts":
        return this.chain().receipts.map(receiptOut);
      case "timer": {
        const t = this.chain().chain.getTimer(bytesField(m, "id"));
        return t === null ? null : plain(t);
      }
      case "inject": {
        const result = get(m, "result");
        if (result === undefined) throw new TypeError("result: required");
        return this.chain().injectResult(bytesField(m, "job_id"), encodeCbor(result)).map(receiptOut);
      }
      default:
        throw new Error(`unknown test host request '${op}'`);
    }
  }

  /** A deploy's source: a `.py` path relative to the project, or the source text itself. */
  private source(s: string): { source: string; file: string; name: string } {
    if (!s.includes("\n") && s.trimEnd().endsWith(".py")) {
      const path = isAbsolute(s) ? s : resolve(this.root, s);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (e) {
        throw new Error(`cannot read actor source ${s}: ${(e as Error).message}`);
      }
      const rel = relative(this.cwd, path) || path;
      return { source: text, file: rel.startsWith("..") ? path : rel, name: s };
    }
    return { source: s, file: "<source>", name: "<source>" };
  }
}
