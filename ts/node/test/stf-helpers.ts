/**
 * Test fixtures for the STF: keys, signed transactions, and a small scripted actor runtime.
 *
 * The scripted runtime is a test double of the addon's `executeActor` (same request/result
 * contract): an actor's "code" is a JSON object mapping handler names to what the handler
 * does — cycles and cells it uses, storage writes, effects, or a failure. It lets the STF's
 * cascade, fee and timer rules be tested with exact numbers independently of the PVM; the
 * real runtime is exercised by test/stf-actors.test.ts.
 */
import { createRequire } from "node:module";
import {
  actorAddress,
  addressFromSecretKey,
  type Block,
  decodeTransaction,
  encodeTransaction,
  type Instruction,
  signTransaction,
  type Transaction,
  zeroSignature,
} from "@cowboy/sdk";
import { expect } from "vitest";
import {
  type ActorEffect,
  type ActorExecRequest,
  type ActorExecResult,
  type ActorExecutor,
  Chain,
  type ChainParams,
  codeKey,
  DEFAULT_PARAMS,
  type ExecutionReceipt,
  MemoryState,
  type StateBackend,
  storageKey,
  timerId,
  UNITS_PER_CBY,
  VM_NS_PVM,
} from "../src/index.ts";

export function secretKey(n: number): Uint8Array {
  const k = new Uint8Array(32);
  k[31] = n & 0xff;
  k[30] = (n >> 8) & 0xff;
  k[0] = 0x42;
  return k;
}

export const keyA = secretKey(1);
export const keyB = secretKey(2);
export const keyC = secretKey(3);
export const addrA = addressFromSecretKey(keyA);
export const addrB = addressFromSecretKey(keyB);
export const addrC = addressFromSecretKey(keyC);
export const PROPOSER = new Uint8Array(20).fill(0xee);
export const CHAIN_ID = 7n;

export interface TxOpts {
  nonce: bigint;
  cyclesLimit?: bigint;
  cellsLimit?: bigint;
  maxFeePerCycle?: bigint;
  maxFeePerCell?: bigint;
  tipCycle?: bigint;
  tipCell?: bigint;
  chainId?: bigint;
}

/** A signed transaction from the owner of `key`. */
export function signed(key: Uint8Array, instruction: Instruction, o: TxOpts): Uint8Array {
  const tx: Transaction = {
    chainId: o.chainId ?? CHAIN_ID,
    nonce: o.nonce,
    instruction,
    cyclesLimit: o.cyclesLimit ?? 21_000n,
    cellsLimit: o.cellsLimit ?? 0n,
    maxFeePerCycle: o.maxFeePerCycle ?? 20_000n,
    maxFeePerCell: o.maxFeePerCell ?? 20_000n,
    maxPriorityFeePerCycle: o.tipCycle ?? 1_000n,
    maxPriorityFeePerCell: o.tipCell ?? 0n,
    from: addressFromSecretKey(key),
    accessList: null,
    metadata: new Uint8Array(0),
    originTxHash: null,
    originRemainingCycles: null,
    originRemainingCells: null,
    signature: zeroSignature(),
    additionalSigners: [],
  };
  // the addon signs ~20× faster than the pure-TS signer; both give the same RFC 6979 bytes
  return nativeSign
    ? new Uint8Array(nativeSign(Buffer.from(encodeTransaction(tx)), Buffer.from(key)))
    : encodeTransaction(signTransaction(tx, key));
}

const nativeSign = (
  createRequire(import.meta.url)("@cowboy/native") as { txSign?: (tx: Buffer, key: Buffer) => Buffer }
).txSign;

export function transfer(key: Uint8Array, to: Uint8Array, amount: bigint, o: TxOpts): Uint8Array {
  return signed(key, { kind: "transfer", to, amount }, o);
}

/** What a scripted handler does. */
export interface HandlerScript {
  cycles: number;
  cells?: number;
  /** raise after doing the work */
  fail?: boolean;
  /** storage key (utf8) whose u32 counter the handler increments */
  count?: string;
  effects?: EffectScript[];
}

export type EffectScript =
  | { kind: "send"; to: string; handler: string; value?: number; argsLen?: number; times?: number }
  | { kind: "event"; topic: string; data: string }
  | { kind: "setTimer"; inBlocks: number; handler: string; interval?: number }
  | { kind: "cancelTimer"; id: string }
  | { kind: "job" };

export type ActorScript = Record<string, HandlerScript>;

export const script = (s: ActorScript): Uint8Array => new TextEncoder().encode(JSON.stringify(s));

const hexOf = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** The scripted runtime over `state` (see the module comment). Records every request it ran. */
export function scriptedExecutor(state: StateBackend, log: ActorExecRequest[] = []): ActorExecutor {
  return (req: ActorExecRequest): ActorExecResult => {
    log.push(req);
    const cp = state.checkpoint();
    const fail = (type: string, message: string, cycles: bigint, cells: bigint): ActorExecResult => {
      state.revert(cp);
      return {
        ok: false,
        error: { type, message, traceback: [] },
        cyclesUsed: cycles,
        cellsUsed: cells,
        stdout: "",
        effects: [],
      };
    };
    let code: string;
    if (req.kind === "deploy") {
      code = req.code ?? "";
      state.put(codeKey(req.actor), new TextEncoder().encode(code));
    } else {
      const raw = state.get(codeKey(req.actor));
      if (raw === undefined) return fail("ActorNotFound", "no code", 0n, 0n);
      code = new TextDecoder().decode(raw);
    }
    const s = JSON.parse(code) as ActorScript;
    const name = req.kind === "deploy" ? "__init__" : (req.handler as string);
    const h = s[name];
    if (h === undefined) {
      if (req.kind === "deploy") {
        state.release(cp);
        return {
          ok: true,
          result: Uint8Array.of(0xf6),
          cyclesUsed: 0n,
          cellsUsed: 0n,
          stdout: "",
          effects: [],
        };
      }
      return fail("AttributeError", `no handler ${name}`, 10n, 0n);
    }
    const cycles = BigInt(h.cycles);
    const cells = BigInt(h.cells ?? 0);
    if (cycles > req.limits.cycles) return fail("OutOfCycles", "cycles limit reached", req.limits.cycles, 0n);
    if (cells > req.limits.cells) return fail("OutOfCells", "cells limit reached", cycles, req.limits.cells);
    if (h.count !== undefined) {
      const key = storageKey(VM_NS_PVM, req.actor, new TextEncoder().encode(h.count));
      const prev = state.get(key);
      const n = prev === undefined ? 0 : new DataView(prev.buffer, prev.byteOffset).getUint32(0);
      const b = new Uint8Array(4);
      new DataView(b.buffer).setUint32(0, n + 1);
      state.put(key, b);
    }
    if (h.fail) return fail("ValueError", "scripted failure", cycles, cells);
    const effects: ActorEffect[] = [];
    let ti = 0;
    for (const e of h.effects ?? []) {
      if (e.kind === "send") {
        // `to: "self"` sends to the running actor
        const to = e.to === "self" ? req.actor : new Uint8Array(Buffer.from(e.to, "hex"));
        for (let i = 0; i < (e.times ?? 1); i++) {
          effects.push({
            kind: "send",
            to,
            handler: e.handler,
            args: new Uint8Array(Math.max(1, e.argsLen ?? 1)).fill(0x80, 0, 1),
            value: BigInt(e.value ?? 0),
          });
        }
      } else if (e.kind === "event") {
        effects.push({
          kind: "event",
          topics: [new TextEncoder().encode(e.topic)],
          data: new TextEncoder().encode(e.data),
        });
      } else if (e.kind === "setTimer") {
        effects.push({
          kind: "setTimer",
          id: timerId(req.context.invocationId, ti++),
          fireAt: req.context.height + BigInt(e.inBlocks),
          interval: e.interval === undefined ? null : BigInt(e.interval),
          handler: e.handler,
          data: Uint8Array.of(0x01),
        });
      } else if (e.kind === "cancelTimer") {
        effects.push({ kind: "cancelTimer", id: new Uint8Array(Buffer.from(e.id, "hex")) });
      } else {
        effects.push({ kind: "job" });
      }
    }
    state.release(cp);
    return {
      ok: true,
      result: Uint8Array.of(Number(req.context.depth) & 0x17),
      cyclesUsed: cycles,
      cellsUsed: cells,
      stdout: "",
      effects,
    };
  };
}

export { hexOf };

// ---------------------------------------------------------------- a scripted chain

export const CBY = UNITS_PER_CBY;
/** Genesis timestamp of {@link ScriptedChain}; each block adds one second. */
export const T0 = 1_700_000_000_000n;
/** Genesis of {@link ScriptedChain}: accounts A and B with 10,000 CBY each. */
export const SCRIPTED_GENESIS = {
  chainId: CHAIN_ID,
  timestampMs: T0,
  accounts: [
    { address: addrA, balance: 10_000n * CBY },
    { address: addrB, balance: 10_000n * CBY },
  ],
};
/** Fee caps at 1× the minimum basefees and no tips: fees are exactly the basefee part. */
export const FEES = { maxFeePerCycle: 10_000n, maxFeePerCell: 10_000n, tipCycle: 0n, tipCell: 0n };

/**
 * A chain on a {@link MemoryState} running {@link scriptedExecutor} actors, with the
 * bookkeeping a scenario test needs: nonces per key, one block per call (a skipped
 * transaction fails the test), deploys and calls with fixed limits.
 */
export class ScriptedChain {
  readonly state = new MemoryState();
  readonly log: ActorExecRequest[] = [];
  readonly chain: Chain;
  readonly blocks: Block[] = [];
  private readonly nonces = new Map<string, bigint>();
  t = T0;
  constructor(params: ChainParams = DEFAULT_PARAMS) {
    this.chain = Chain.create({
      state: this.state,
      genesis: SCRIPTED_GENESIS,
      params,
      executor: scriptedExecutor(this.state, this.log),
    });
  }
  get height(): bigint {
    return this.chain.head.height;
  }
  /** The next nonce of `key` (and counts it as used). */
  nonce(key: Uint8Array): bigint {
    const n = this.nonces.get(hexOf(key)) ?? 0n;
    this.nonces.set(hexOf(key), n + 1n);
    return n;
  }
  /** Hands out `key`'s last nonce again (for a transaction that was built but never sent). */
  unuseNonce(key: Uint8Array): void {
    const n = this.nonces.get(hexOf(key)) ?? 0n;
    if (n > 0n) this.nonces.set(hexOf(key), n - 1n);
  }
  /** Builds one block of `txs`, one second after the previous; fails the test if any was skipped. */
  block(txs: Uint8Array[] = []) {
    this.t += 1000n;
    const r = this.chain.buildBlock(txs, { timestampMs: this.t, proposer: PROPOSER });
    expect(r.skipped).toEqual([]);
    this.blocks.push(r.block);
    return r;
  }
  /** Deploys `s` from `key` with `value` and salt byte `salt` in its own block. */
  deploy(
    key: Uint8Array,
    s: ActorScript,
    value = 100n * CBY,
    salt = 1,
  ): { addr: Uint8Array; receipt: ExecutionReceipt } {
    const source = script(s);
    const saltB = new Uint8Array(32);
    saltB[31] = salt;
    const tx = signed(
      key,
      { kind: "deploy", source, salt: saltB, initArgs: new Uint8Array(0), value },
      { nonce: this.nonce(key), cyclesLimit: 1_000_000n, cellsLimit: 100_000n, ...FEES },
    );
    const r = this.block([tx]);
    return {
      addr: actorAddress(decodeTransaction(tx).from, saltB, source),
      receipt: r.receipts[0] as ExecutionReceipt,
    };
  }
  /** A signed call of `handler` (no arguments) from `key`. */
  callTx(key: Uint8Array, to: Uint8Array, handler: string, value = 0n, cyclesLimit = 2_000_000n): Uint8Array {
    return signed(
      key,
      { kind: "call", to, handler, args: Uint8Array.of(0x80), value },
      { nonce: this.nonce(key), cyclesLimit, cellsLimit: 10_000n, ...FEES },
    );
  }
  /** Calls `handler` in its own block and returns the receipt. */
  call(
    key: Uint8Array,
    to: Uint8Array,
    handler: string,
    value = 0n,
    cyclesLimit = 2_000_000n,
  ): ExecutionReceipt {
    return this.block([this.callTx(key, to, handler, value, cyclesLimit)]).receipts[0] as ExecutionReceipt;
  }
  /** The u32 counter a scripted handler keeps under storage key `key` (0 when unset). */
  count(actor: Uint8Array, key = "n"): number {
    const v = this.chain.getActorStorage(actor, new TextEncoder().encode(key));
    return v === null ? 0 : new DataView(v.buffer, v.byteOffset).getUint32(0);
  }
  balance(a: Uint8Array): bigint {
    return this.chain.getAccount(a)?.balance ?? 0n;
  }
}
