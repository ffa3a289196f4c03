/**
 * The chain's threshold-BLS group per epoch and the resharing ceremonies that move it to the
 * next validator set (contract C4, issue 10; docs/execution.md "Validator set", docs/consensus.md
 * "Epoch transitions and resharing").
 *
 * - A chain has a group when its genesis carries `dkgOutput` (a DKG output whose players are
 *   exactly the genesis validators' keys); it is the group of epoch 0 (ceremony 0). Plain devnets
 *   without one have no group: nothing here runs for them.
 * - At the freeze point F(e) = e·E + ⌊E/2⌋ (validators.ts fixes the set of e+1 there), when the
 *   frozen set's keys differ (as a set) from the players of the group of e, ceremony e+1 opens:
 *   dealers = players of group(e)'s output, players = keys of set(e+1), previous output =
 *   group(e)'s. When the keys are the same, group(e+1) = group(e) (carried over).
 * - Dealer logs arrive in `DkgLog` transactions (System sub-type 8) in blocks F(e)..(e+1)·E − 1:
 *   each must authenticate as a log of one of the ceremony's dealers over this ceremony
 *   (`BlsDkgInfo.checkLog`), one per dealer, stored in block order.
 * - At the end of block (e+1)·E − 1 the chain finalizes the ceremony as an observer over the
 *   stored logs (`DkgCeremony.finalize`, the agreedLogs rule of ts/consensus): success → the new
 *   output is group(e+1); failure → set(e+1) is re-fixed to set(e) and group(e+1) = group(e).
 *   The observer's batch-verification randomness is a Fiat–Shamir hash of the chain id, the
 *   ceremony number and the stored logs (see {@link observerRandomness}): every node derives
 *   the same bytes, and no dealer can choose its log after knowing them.
 *
 * State (under `0x03 ‖ 0x00 ‖ 0^20 ‖ 0x07 ‖ 0x02`, {@link DKG_PREFIX}; integers big-endian):
 * | key | value |
 * | --- | --- |
 * | prefix ‖ 0x00 | the open ceremony's number (u64); absent when none is open |
 * | prefix ‖ 0x01 ‖ epoch u64 | group of the epoch: version 1 ‖ ceremony u64 ‖ output bytes |
 * | prefix ‖ 0x02 ‖ ceremony u64 | ceremony record ({@link encodeCeremony}) |
 * | prefix ‖ 0x03 ‖ ceremony u64 ‖ index u32 | the index-th stored dealer log |
 * | prefix ‖ 0x04 ‖ ceremony u64 ‖ dealer key (48) | 0x01: this dealer's log is stored |
 * The group of epoch e+1−K and ceremony e+1−K (K = `keptEpochs`: `keepEpochs`, at least 2) are
 * deleted at F(e), with the set of that epoch.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import {
  DkgCeremony,
  DkgError,
  DkgInfo,
  keptEpochs,
  type SetMember,
  type ValidatorRegistry,
} from "@cowboy/consensus";
import type { KvStore } from "../state/kv.ts";
import { StfError } from "./errors.ts";
import { PROTOCOL_ADDRESS, systemKey, TABLE } from "./state-keys.ts";

/** Key prefix of the DKG records in the state. */
export const DKG_PREFIX: Uint8Array = systemKey(PROTOCOL_ADDRESS, TABLE.validators, Uint8Array.of(0x02));

/** The threshold group of an epoch (contract C4 point 2). */
export interface EpochGroup {
  epoch: number;
  /** 0 = the genesis output; else the DKG ceremony that produced it */
  ceremony: number;
  /** DKG output bytes (the next resharing's previousOutput) */
  output: Uint8Array;
  /** BlsGroup bytes (BlsSchemeConfig.group) */
  group: Uint8Array;
  /** partial signatures needed to recover */
  threshold: number;
  /** 48-byte group public key (unchanged by resharing) */
  groupPublicKey: Uint8Array;
  /**
   * = `chain.validatorSet(epoch)` order (consensus index = position); shareIndex = position of
   * blsKey in the output's players (key-sorted)
   */
  members: Array<{ address: Uint8Array; blsKey: Uint8Array; stake: bigint; shareIndex: number }>;
}

/** What became of a ceremony. */
export type CeremonyStatus = "open" | "succeeded" | "failed";

/** A resharing ceremony as recorded on chain (contract C4 point 3). */
export interface CeremonyRecord {
  ceremony: number;
  /** the epoch whose group it produces (e+1) */
  epoch: number;
  /** players of the previous output, key-sorted */
  dealers: Uint8Array[];
  /** keys of the frozen set of `epoch`, key-sorted (share index = position) */
  players: Uint8Array[];
  previousOutput: Uint8Array;
  /** F(e): the block it opened in (logs are valid from here) */
  firstHeight: number;
  /** (e+1)·E − 1: the last block taking logs; decided at its end */
  lastHeight: number;
  /** stored dealer logs in block order */
  logs: Uint8Array[];
  /** open until the end of `lastHeight`; then succeeded (group(epoch) is its output) or failed */
  status: CeremonyStatus;
}

type Native = typeof import("@cowboy/native");
let nativeAddon: Native | null = null;
function addon(): Native {
  if (nativeAddon === null) {
    try {
      nativeAddon = createRequire(import.meta.url)("@cowboy/native") as Native;
    } catch (err) {
      throw new StfError(
        "ERR_CHAIN_NO_RUNTIME",
        `the native addon (@cowboy/native) is not built; run \`bash scripts/task.sh build-native\`: ${(err as Error).message}`,
      );
    }
  }
  return nativeAddon;
}

const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const hex = (b: Uint8Array) => buf(b).toString("hex");

function u64(n: number | bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

function cat(parts: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts.map(buf)));
}

function key(tag: number, ...parts: Uint8Array[]): Uint8Array {
  return cat([DKG_PREFIX, Uint8Array.of(tag), ...parts]);
}

const OPEN_KEY = key(0x00);
const groupKey = (epoch: number) => key(0x01, u64(epoch));
const ceremonyKey = (n: number) => key(0x02, u64(n));
const logKey = (n: number, i: number) => key(0x03, u64(n), u32(i));
const dealerKey = (n: number, dealer: Uint8Array) => key(0x04, u64(n), dealer);

/** Keys in canonical (byte) order, as `DkgInfo` orders dealers and players. */
export function sortKeys(keys: readonly Uint8Array[]): Uint8Array[] {
  return [...keys].map((k) => Uint8Array.from(k)).sort((a, b) => Buffer.compare(buf(a), buf(b)));
}

/** True if `a` and `b` hold the same keys (as sets). */
function sameKeys(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a.map(hex));
  return s.size === a.length && b.every((k) => s.has(hex(k)));
}

/** The public facts of a DKG output (see {@link outputInfo}). */
export interface OutputInfo {
  readonly group: Uint8Array;
  readonly groupPublicKey: Uint8Array;
  readonly threshold: number;
  /** players in share-index order (key-sorted) */
  readonly players: readonly Uint8Array[];
}

/** Decoded outputs by SHA-256 of their bytes (decoding checks every point: done once per output). */
const outputs = new Map<string, OutputInfo>();
const OUTPUT_CACHE = 16;

/**
 * The public facts of a DKG output; throws StfError `ERR_DKG_OUTPUT` when it does not decode.
 * Cached (a few recent outputs); the returned arrays are copies.
 */
export function outputInfo(output: Uint8Array): OutputInfo {
  const id = createHash("sha256").update(output).digest("hex");
  let info = outputs.get(id);
  if (info === undefined) {
    try {
      const o = addon().blsDkgOutputInfo(buf(output));
      info = {
        group: new Uint8Array(o.group),
        groupPublicKey: new Uint8Array(o.groupPublicKey),
        threshold: o.threshold,
        players: o.players.map((p) => new Uint8Array(p)),
      };
    } catch (e) {
      if (e instanceof StfError) throw e;
      throw new StfError("ERR_DKG_OUTPUT", `a DKG output that does not decode: ${(e as Error).message}`);
    }
    outputs.set(id, info);
    if (outputs.size > OUTPUT_CACHE) outputs.delete(outputs.keys().next().value as string);
  }
  return {
    group: Uint8Array.from(info.group),
    groupPublicKey: Uint8Array.from(info.groupPublicKey),
    threshold: info.threshold,
    players: info.players.map((p) => Uint8Array.from(p)),
  };
}

// ----------------------------------------------------------------- records

/** Group record: version 1 ‖ ceremony u64 ‖ output. */
function encodeGroup(ceremony: number, output: Uint8Array): Uint8Array {
  return cat([Uint8Array.of(1), u64(ceremony), output]);
}

function decodeGroup(b: Uint8Array): { ceremony: number; output: Uint8Array } {
  if (b.length < 10 || b[0] !== 1) throw new StfError("ERR_DKG_CORRUPT", "a malformed group record");
  return {
    ceremony: Number(new DataView(b.buffer, b.byteOffset + 1, 8).getBigUint64(0)),
    output: b.slice(9),
  };
}

const STATUS: readonly CeremonyStatus[] = ["open", "succeeded", "failed"];

/**
 * Ceremony record: version 1 ‖ status u8 (0 open, 1 succeeded, 2 failed) ‖ epoch u64 ‖
 * firstHeight u64 ‖ lastHeight u64 ‖ logCount u32 ‖ dealers u32 ‖ dealer keys (48 each) ‖
 * players u32 ‖ player keys (48 each) ‖ previousOutput (the rest). The logs are stored apart.
 */
export function encodeCeremony(r: Omit<CeremonyRecord, "logs"> & { logCount: number }): Uint8Array {
  return cat([
    Uint8Array.of(1, STATUS.indexOf(r.status)),
    u64(r.epoch),
    u64(r.firstHeight),
    u64(r.lastHeight),
    u32(r.logCount),
    u32(r.dealers.length),
    ...r.dealers,
    u32(r.players.length),
    ...r.players,
    r.previousOutput,
  ]);
}

/** Strict inverse of {@link encodeCeremony} (without the logs). */
export function decodeCeremony(
  ceremony: number,
  b: Uint8Array,
): Omit<CeremonyRecord, "logs"> & { logCount: number } {
  const bad = () => new StfError("ERR_DKG_CORRUPT", `ceremony record ${ceremony} is malformed`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const status = STATUS[b[1] as number];
  if (b.length < 2 + 24 + 12 || b[0] !== 1 || status === undefined) throw bad();
  const num = (at: number) => Number(v.getBigUint64(at));
  let at = 26;
  const logCount = v.getUint32(at);
  at += 4;
  const list = (): Uint8Array[] => {
    if (at + 4 > b.length) throw bad();
    const n = v.getUint32(at);
    at += 4;
    if (at + 48 * n > b.length) throw bad();
    const out: Uint8Array[] = [];
    for (let i = 0; i < n; i++, at += 48) out.push(b.slice(at, at + 48));
    return out;
  };
  const dealers = list();
  const players = list();
  return {
    ceremony,
    status,
    epoch: num(2),
    firstHeight: num(10),
    lastHeight: num(18),
    logCount,
    dealers,
    players,
    previousOutput: b.slice(at),
  };
}

// ----------------------------------------------------------------- reads

/** The group record of `epoch` in `kv`, or null (no group, not decided, or pruned). */
export function readGroupRecord(kv: KvStore, epoch: number): { ceremony: number; output: Uint8Array } | null {
  const raw = kv.get(groupKey(epoch));
  return raw === undefined ? null : decodeGroup(raw);
}

/** The group of `epoch` with its members (`set` = the epoch's validator set), or null. */
export function readEpochGroup(kv: KvStore, epoch: number, set: readonly SetMember[]): EpochGroup | null {
  const g = readGroupRecord(kv, epoch);
  if (g === null) return null;
  const info = outputInfo(g.output);
  const pos = new Map(info.players.map((p, i) => [hex(p), i]));
  return {
    epoch,
    ceremony: g.ceremony,
    output: g.output,
    group: info.group,
    threshold: info.threshold,
    groupPublicKey: info.groupPublicKey,
    members: set.map((m) => {
      const shareIndex = pos.get(hex(m.blsKey));
      if (shareIndex === undefined)
        throw new StfError("ERR_DKG_CORRUPT", `a member of epoch ${epoch} is not a player of its group`);
      return {
        address: Uint8Array.from(Buffer.from(m.address, "hex")),
        blsKey: Uint8Array.from(m.blsKey),
        stake: m.stake,
        shareIndex,
      };
    }),
  };
}

/** Ceremony `n` with its logs, or null (never opened, or pruned). */
export function readCeremony(kv: KvStore, n: number): CeremonyRecord | null {
  if (!Number.isSafeInteger(n) || n < 1) return null;
  const raw = kv.get(ceremonyKey(n));
  if (raw === undefined) return null;
  const { logCount, ...r } = decodeCeremony(n, raw);
  const logs: Uint8Array[] = [];
  for (let i = 0; i < logCount; i++) {
    const log = kv.get(logKey(n, i));
    if (log === undefined) throw new StfError("ERR_DKG_CORRUPT", `log ${i} of ceremony ${n} is missing`);
    logs.push(Uint8Array.from(log));
  }
  return { ...r, logs };
}

/** The number of the open ceremony, or null. */
export function openCeremonyNumber(kv: KvStore): number | null {
  const raw = kv.get(OPEN_KEY);
  return raw === undefined ? null : Number(new DataView(raw.buffer, raw.byteOffset, 8).getBigUint64(0));
}

/** The open ceremony with its logs, or null. */
export function readOpenCeremony(kv: KvStore): CeremonyRecord | null {
  const n = openCeremonyNumber(kv);
  return n === null ? null : readCeremony(kv, n);
}

// ----------------------------------------------------------------- genesis

/**
 * Writes the genesis group (epoch 0, ceremony 0; also epoch 1 when `epochBlocks` is 1, whose set
 * is fixed at genesis too). The output's players must be exactly `keys`. Throws StfError
 * `ERR_CHAIN_GENESIS`.
 */
export function writeGenesisGroup(
  kv: KvStore,
  keys: readonly Uint8Array[],
  output: Uint8Array,
  epochBlocks: number,
): void {
  if (!(output instanceof Uint8Array) || output.length === 0)
    throw new StfError("ERR_CHAIN_GENESIS", "dkgOutput must be the bytes of a DKG output");
  if (keys.length === 0) throw new StfError("ERR_CHAIN_GENESIS", "dkgOutput needs genesis validators");
  let players: readonly Uint8Array[];
  try {
    players = outputInfo(output).players;
  } catch (e) {
    throw new StfError("ERR_CHAIN_GENESIS", `dkgOutput: ${(e as Error).message}`);
  }
  if (!sameKeys(players, keys))
    throw new StfError(
      "ERR_CHAIN_GENESIS",
      `dkgOutput's ${players.length} players are not exactly the ${keys.length} genesis validators' keys`,
    );
  kv.put(groupKey(0), encodeGroup(0, output));
  if (epochBlocks === 1) kv.put(groupKey(1), encodeGroup(0, output));
}

// ----------------------------------------------------------------- per block

/** What the DKG part of a block did (validators.ts puts it in the block report). */
export interface DkgBlockReport {
  /** the ceremony opened at this block's freeze point, or null */
  opened: number | null;
  /** the group of the next epoch fixed this block (carried over, or by a decision), or null */
  decided: { epoch: number; ceremony: number; outcome: "carried" | "succeeded" | "failed" } | null;
}

/**
 * 32 bytes of batch-verification randomness for the chain's observer finalization of ceremony
 * `n`: SHA-256("cowboy-v1/dkg-observer" ‖ chainId u64 ‖ n u64 ‖ count u32 ‖ (len u32 ‖ log)*)
 * over the stored logs in block order (Fiat–Shamir: a dealer's log is fixed before the weights
 * that check it are known). Deterministic: every node derives the same bytes.
 */
export function observerRandomness(chainId: bigint, n: number, logs: readonly Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  h.update("cowboy-v1/dkg-observer");
  h.update(u64(chainId));
  h.update(u64(n));
  h.update(u32(logs.length));
  for (const l of logs) {
    h.update(u32(l.length));
    h.update(l);
  }
  return new Uint8Array(h.digest());
}

/** Ceremony configurations by their defining bytes (building one decodes the previous output). */
const infos = new Map<string, DkgInfo>();
const INFO_CACHE = 4;

/** The `DkgInfo` of ceremony `n` on `chainId` as recorded in `r` (cached). Throws `DkgError`. */
function ceremonyInfo(
  chainId: bigint,
  n: number,
  r: { dealers: readonly Uint8Array[]; players: readonly Uint8Array[]; previousOutput: Uint8Array },
): DkgInfo {
  const h = createHash("sha256");
  h.update(u64(chainId));
  h.update(u64(n));
  h.update(u32(r.dealers.length));
  for (const d of r.dealers) h.update(d);
  h.update(u32(r.players.length));
  for (const p of r.players) h.update(p);
  h.update(r.previousOutput);
  const id = h.digest("hex");
  let info = infos.get(id);
  if (info === undefined) {
    info = new DkgInfo({
      chainId,
      round: BigInt(n),
      previousOutput: r.previousOutput,
      dealers: r.dealers,
      players: r.players,
    });
    infos.set(id, info);
    if (infos.size > INFO_CACHE) infos.delete(infos.keys().next().value as string);
  }
  return info;
}

/**
 * An upper bound on the bytes of a signed dealer log of a ceremony with `players` players:
 * dealer key (48) ‖ commitment (the threshold n − ⌊(n−1)/3⌋ points of 48 bytes) ‖ one result per
 * player (its key, a tag, and an acknowledgement signature of 96 bytes or a revealed 32-byte
 * share) ‖ signature (96), plus generous room for length prefixes. Larger `DkgLog`s are refused
 * before they are decoded (decoding checks every curve point, and a log is at most one
 * transaction's size otherwise).
 */
export function maxLogBytes(players: number): number {
  const threshold = players - Math.floor((players - 1) / 3);
  return 1_024 + 48 * threshold + (48 + 1 + 96 + 16) * players;
}

/** The outcome of a `DkgLog` instruction. */
export type DkgLogOutcome = { ok: true } | { ok: false; error: string };

/**
 * The DKG work of one block over its pending state (created by validators.ts `ValidatorBlock`).
 * Every method is deterministic: the same state and inputs give the same writes on every node.
 */
export class DkgBlock {
  private readonly kv: KvStore;
  private readonly chainId: bigint;
  private readonly height: number;
  readonly report: DkgBlockReport = { opened: null, decided: null };

  constructor(kv: KvStore, chainId: bigint, height: number) {
    this.kv = kv;
    this.chainId = chainId;
    this.height = height;
  }

  /**
   * At the freeze point of epoch `epoch`, after the set of `epoch + 1` (`next`) was fixed: opens
   * ceremony `epoch + 1` when the keys change, else carries the group over. No-op for a chain
   * without a group. An empty next set cannot hold a group: set(e+1) is re-fixed to set(e) at
   * once (the fallback) and the group carried.
   */
  freeze(registry: ValidatorRegistry, epoch: number, next: readonly SetMember[]): void {
    const g = readGroupRecord(this.kv, epoch);
    if (g === null) return;
    const target = epoch + 1;
    this.prune(registry, target);
    const players = outputInfo(g.output).players;
    const keys = next.map((m) => m.blsKey);
    if (sameKeys(players, keys)) {
      this.kv.put(groupKey(target), encodeGroup(g.ceremony, g.output));
      this.report.decided = { epoch: target, ceremony: g.ceremony, outcome: "carried" };
      return;
    }
    if (next.length === 0) {
      registry.replaceSet(target, registry.setOf(epoch));
      this.kv.put(groupKey(target), encodeGroup(g.ceremony, g.output));
      this.report.decided = { epoch: target, ceremony: g.ceremony, outcome: "failed" };
      return;
    }
    const E = registry.params.epochBlocks;
    this.kv.put(
      ceremonyKey(target),
      encodeCeremony({
        ceremony: target,
        epoch: target,
        dealers: sortKeys(players),
        players: sortKeys(keys),
        previousOutput: g.output,
        firstHeight: this.height,
        lastHeight: target * E - 1,
        logCount: 0,
        status: "open",
      }),
    );
    this.kv.put(OPEN_KEY, u64(target));
    this.report.opened = target;
  }

  /** Deletes the group and the ceremony that fell out of the `keepEpochs` window at `target`. */
  private prune(registry: ValidatorRegistry, target: number): void {
    const old = target - keptEpochs(registry.params);
    if (old < 0) return;
    this.kv.delete(groupKey(old));
    if (old < 1) return;
    const raw = this.kv.get(ceremonyKey(old));
    if (raw === undefined) return;
    const r = decodeCeremony(old, raw);
    for (let i = 0; i < r.logCount; i++) this.kv.delete(logKey(old, i));
    for (const d of r.dealers) this.kv.delete(dealerKey(old, d));
    this.kv.delete(ceremonyKey(old));
  }

  /**
   * A `DkgLog` transaction: stores `log` for ceremony `n` if that ceremony is open and this block
   * is within its heights (`ERR_DKG_NO_CEREMONY` otherwise), the log authenticates as a log of
   * one of its dealers over it (`ERR_DKG_LOG_INVALID`), that dealer has no log stored yet
   * (`ERR_DKG_LOG_DUPLICATE`), and the transaction comes from that dealer's own validator
   * account (`ERR_DKG_LOG_SENDER`; `senderKey` is the BLS key registered by the sender, null if
   * it is no validator) — so nobody else can make every node decode and verify a log in a
   * dealer's name. A failure writes nothing.
   */
  submitLog(n: bigint, log: Uint8Array, senderKey: Uint8Array | null): DkgLogOutcome {
    const open = openCeremonyNumber(this.kv);
    if (open === null || BigInt(open) !== n)
      return { ok: false, error: `ERR_DKG_NO_CEREMONY: ceremony ${n} is not open` };
    const raw = this.kv.get(ceremonyKey(open));
    if (raw === undefined) throw new StfError("ERR_DKG_CORRUPT", `the open ceremony ${open} has no record`);
    const r = decodeCeremony(open, raw);
    if (this.height < r.firstHeight || this.height > r.lastHeight)
      return {
        ok: false,
        error: `ERR_DKG_NO_CEREMONY: ceremony ${n} takes logs in blocks ${r.firstHeight}..=${r.lastHeight}`,
      };
    // Cheap refusals first (no decoding, no BLS): a signed log starts with its dealer's key,
    // which must be one of the ceremony's dealers without a log yet and the sender's own key,
    // and a log is never larger than a dealer of this ceremony can make. Only then is it
    // decoded and its signature checked.
    const claimed = log.subarray(0, 48);
    if (log.length < 48 || !r.dealers.some((d) => Buffer.compare(buf(d), buf(claimed)) === 0))
      return {
        ok: false,
        error: `ERR_DKG_LOG_INVALID: not signed by a dealer of ceremony ${n} over this ceremony`,
      };
    if (this.kv.get(dealerKey(open, claimed)) !== undefined)
      return {
        ok: false,
        error: `ERR_DKG_LOG_DUPLICATE: dealer 0x${hex(claimed).slice(0, 16)}… already has a log in ceremony ${n}`,
      };
    if (senderKey === null || Buffer.compare(buf(senderKey), buf(claimed)) !== 0)
      return {
        ok: false,
        error: `ERR_DKG_LOG_SENDER: dealer 0x${hex(claimed).slice(0, 16)}…'s log must come from its own validator account`,
      };
    const most = maxLogBytes(r.players.length);
    if (log.length > most)
      return {
        ok: false,
        error: `ERR_DKG_LOG_INVALID: a log of ${log.length} bytes; ceremony ${n}'s are at most ${most}`,
      };
    let dealer: Uint8Array;
    try {
      const info = ceremonyInfo(this.chainId, open, r);
      const summary = info.native.checkLog(buf(log));
      if (summary === null)
        return {
          ok: false,
          error: `ERR_DKG_LOG_INVALID: not signed by a dealer of ceremony ${n} over this ceremony`,
        };
      dealer = new Uint8Array(summary.dealer);
    } catch (e) {
      // the receipt (hashed into the receipts root) names only the error's code, never the
      // native library's message text, which may differ between builds
      const code = (e as { code?: unknown }).code;
      if (e instanceof DkgError || code !== undefined)
        return {
          ok: false,
          error: `ERR_DKG_LOG_INVALID: the log does not decode or verify (${typeof code === "string" && /^[A-Za-z0-9_]{1,64}$/.test(code) ? code : "malformed"})`,
        };
      throw e;
    }
    if (this.kv.get(dealerKey(open, dealer)) !== undefined)
      return {
        ok: false,
        error: `ERR_DKG_LOG_DUPLICATE: dealer 0x${hex(dealer).slice(0, 16)}… already has a log in ceremony ${n}`,
      };
    this.kv.put(logKey(open, r.logCount), Uint8Array.from(log));
    this.kv.put(dealerKey(open, dealer), Uint8Array.of(1));
    this.kv.put(ceremonyKey(open), encodeCeremony({ ...r, logCount: r.logCount + 1 }));
    return { ok: true };
  }

  /**
   * At the end of the last block of epoch `epoch` (after its transactions): decides ceremony
   * `epoch + 1` if it is open — finalized as an observer over the stored logs; success → its
   * output is the group of `epoch + 1`; failure → the set of `epoch + 1` is re-fixed to the
   * set of `epoch` and the group carried over. Returns the re-fixed set on failure, else null.
   */
  decide(registry: ValidatorRegistry, epoch: number): SetMember[] | null {
    const target = epoch + 1;
    if (openCeremonyNumber(this.kv) !== target) return null;
    const r = readCeremony(this.kv, target);
    if (r === null) throw new StfError("ERR_DKG_CORRUPT", `the open ceremony ${target} has no record`);
    let output: Uint8Array | null = null;
    try {
      const c = new DkgCeremony(
        {
          chainId: this.chainId,
          round: BigInt(target),
          previousOutput: r.previousOutput,
          dealers: r.dealers,
          players: r.players,
          observerRandomness: observerRandomness(this.chainId, target, r.logs),
        },
        {
          broadcast: () => {},
          sendDealing: () => {},
          sendAck: () => {},
          publishLog: () => {},
        },
      );
      output = new Uint8Array(c.finalize(r.logs).output);
    } catch (e) {
      if (!(e instanceof DkgError)) throw e;
      output = null;
    }
    this.kv.delete(OPEN_KEY);
    const logCount = r.logs.length;
    const { logs: _logs, ...rest } = r;
    if (output !== null) {
      this.kv.put(groupKey(target), encodeGroup(target, output));
      this.kv.put(ceremonyKey(target), encodeCeremony({ ...rest, logCount, status: "succeeded" }));
      this.report.decided = { epoch: target, ceremony: target, outcome: "succeeded" };
      return null;
    }
    const g = readGroupRecord(this.kv, epoch);
    if (g === null) throw new StfError("ERR_DKG_CORRUPT", `epoch ${epoch} has no group`);
    const previous = registry.setOf(epoch);
    registry.replaceSet(target, previous);
    this.kv.put(groupKey(target), encodeGroup(g.ceremony, g.output));
    this.kv.put(ceremonyKey(target), encodeCeremony({ ...rest, logCount, status: "failed" }));
    this.report.decided = { epoch: target, ceremony: g.ceremony, outcome: "failed" };
    return previous;
  }
}
