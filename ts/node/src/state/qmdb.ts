/**
 * The node's world state: the authenticated store `crates/qmdb` through the addon's
 * `StateDb` (docs/state.md). {@link QmdbState} is the {@link KvStore} the execution layer works
 * against (reads see the pending block overlay), plus nested checkpoints, commit → state root,
 * historical reads, proofs and pruning.
 *
 * Keys and the account record are built and parsed by the addon (`stateKey*`,
 * `accountEncode`/`accountDecode`, re-exported here as {@link stateKeys} and
 * {@link encodeAccount}/{@link decodeAccount}) so TypeScript never re-implements the layout.
 * Errors thrown by the addon carry `code` = `ERR_QMDB_<CODE>` or `ERR_PROOF_<CODE>`.
 */
// A namespace import: loading this module never fails on an addon built without the state
// bindings; only using them does.

import type { StateAccount, StateDb } from "@cowboy/native";
import * as native from "@cowboy/native";
import type { KvStore } from "./kv.ts";

/** Options of {@link QmdbState.open}. */
export interface QmdbOptions {
  /** Committed versions that stay readable and provable, latest included (default 128, ≥ 1). */
  historyWindow?: number;
  /** Target size of one log segment file in bytes (default 64 MiB). */
  segmentBytes?: number;
  /** Prune history older than the window after each commit (default true). */
  autoPrune?: boolean;
}

/** What a commit produced. */
export interface QmdbCommit {
  /** The new version (1 for the first commit; 0 is the empty store). */
  version: bigint;
  /** Its 32-byte blake3 state root. */
  root: Uint8Array;
  /** Operations in the log history. */
  opCount: number;
  /** Inactivity floor. */
  floor: number;
  /** Live keys. */
  activeKeys: number;
}

/** Size and shape of the store. */
export interface QmdbStats {
  version: bigint;
  oldestVersion: bigint;
  opCount: number;
  floor: number;
  activeKeys: number;
  prunedTo: number;
  diskBytes: number;
  segments: number;
  pending: number;
  openCheckpoints: number;
}

/** One live key and its value. */
export interface QmdbEntry {
  key: Uint8Array;
  value: Uint8Array;
}

/** An account record (balance and nonce as bigint; codeHash all zero = no code). */
export interface AccountRecord {
  balance: bigint;
  nonce: bigint;
  codeHash: Uint8Array;
  metadata: Uint8Array;
}

/** A zero-copy Buffer view of `u` (the addon takes Buffers). */
function buf(u: Uint8Array): Buffer {
  return Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}

/**
 * The authenticated world state. One instance owns its directory (an exclusive lock); every
 * method is synchronous. Writes go to the innermost open checkpoint; `commit()` folds all of
 * them into the next version and returns its root.
 */
export class QmdbState implements KvStore {
  /** The addon handle; pass it to `executeActor` so actor storage stays in Rust. */
  readonly db: StateDb;

  private constructor(db: StateDb) {
    this.db = db;
  }

  /** Opens (or creates) the store in `dir`, recovering to the last committed version. */
  static open(dir: string, options: QmdbOptions = {}): QmdbState {
    return new QmdbState(native.StateDb.open(dir, options));
  }

  /** The value of `key` as the pending block sees it, or `undefined`. */
  get(key: Uint8Array): Uint8Array | undefined {
    return this.db.get(buf(key)) ?? undefined;
  }

  /** Writes `key = value` into the innermost open layer. */
  put(key: Uint8Array, value: Uint8Array): void {
    this.db.put(buf(key), buf(value));
  }

  /** Deletes `key` in the innermost open layer (absent keys: no-op). */
  delete(key: Uint8Array): void {
    this.db.delete(buf(key));
  }

  /** The value of `key` in the latest committed version (pending writes ignored). */
  getCommitted(key: Uint8Array): Uint8Array | undefined {
    return this.db.getCommitted(buf(key)) ?? undefined;
  }

  /** The value of `key` at a retained committed version (`ERR_QMDB_VERSION_UNAVAILABLE` otherwise). */
  getAt(version: bigint, key: Uint8Array): Uint8Array | undefined {
    return this.db.getAt(version, buf(key)) ?? undefined;
  }

  /** Live keys with `prefix` as the pending block sees them, ascending, at most `limit`. */
  scanPrefix(prefix: Uint8Array, limit?: number): QmdbEntry[] {
    return this.db.scanPrefix(buf(prefix), limit);
  }

  /** Opens a nested overlay layer (transaction or message scope); returns its handle. */
  checkpoint(): number {
    return this.db.checkpoint();
  }

  /** Discards every write made since `cp` (inner checkpoints included). */
  revert(cp: number): void {
    this.db.revert(cp);
  }

  /** Keeps the writes made since `cp`, folding them into the enclosing layer. */
  release(cp: number): void {
    this.db.release(cp);
  }

  /** Drops every pending write of the block. */
  discardPending(): void {
    this.db.discardPending();
  }

  /** Commits all pending writes as the next version (durable when it returns). */
  commit(): QmdbCommit {
    return this.db.commit();
  }

  /**
   * Drops every committed version newer than `version` and every pending write, so the store is
   * exactly as it was right after `version` was committed (root, contents, proofs; the next
   * commit is `version + 1` again). `version` must be retained (`history()`), else throws
   * `ERR_QMDB_VERSION_UNAVAILABLE`. Crash-safe: a kill at any moment reopens at the old head or
   * at `version`. Returns the commit info of `version`.
   */
  rewind(version: bigint): QmdbCommit {
    return this.db.rewind(version);
  }

  /** State root of the latest committed version. */
  root(): Uint8Array {
    return this.db.root();
  }

  /** Latest committed version (0 = empty store). */
  version(): bigint {
    return this.db.version();
  }

  /** State root of retained `version`, or `undefined` when it is not (or no longer) retained. */
  rootAt(version: bigint): Uint8Array | undefined {
    return this.db.history().find((c) => c.version === version)?.root;
  }

  /** Commit info of every retained version, oldest first. */
  history(): QmdbCommit[] {
    return this.db.history();
  }

  /**
   * Proof bytes for `key` (inclusion or exclusion) against the root of `version` (default:
   * latest). Check them with `verifyStateProof` from `@cowboy/sdk` or {@link verifyProofNative}.
   */
  prove(key: Uint8Array, version?: bigint): Uint8Array {
    return this.db.prove(buf(key), version);
  }

  /** Deletes history older than the window now; returns the bytes freed. */
  prune(): number {
    return this.db.prune();
  }

  /** Size and shape of the store. */
  stats(): QmdbStats {
    return this.db.stats();
  }

  /** Bytes the store occupies on disk. */
  diskBytes(): number {
    return this.db.diskBytes();
  }

  /** Whether {@link close} ran. */
  get closed(): boolean {
    return this.db.closed;
  }

  /** Drops pending writes, writes the reopen snapshot and releases the directory lock. */
  close(): void {
    this.db.close();
  }
}

/** Verifies proof bytes natively (same result and error codes as the TS verifier of `@cowboy/sdk`). */
export function verifyProofNative(
  root: Uint8Array,
  key: Uint8Array,
  proof: Uint8Array,
): { exists: true; value: Uint8Array } | { exists: false } {
  const r = native.verifyStateProof(buf(root), buf(key), buf(proof));
  return r.exists && r.value !== undefined && r.value !== null
    ? { exists: true, value: r.value }
    : { exists: false };
}

/** The state root of the empty store (version 0). */
export function emptyStateRoot(): Uint8Array {
  return native.stateEmptyRoot();
}

/** The namespaced key layout of crates/qmdb/src/keys.rs, built by the addon. */
export const stateKeys = {
  /** `0x01 · address(20)` */
  account: (address: Uint8Array): Uint8Array => native.stateKeyAccount(buf(address)),
  /** `0x02 · address(20)` */
  actorCode: (address: Uint8Array): Uint8Array => native.stateKeyActorCode(buf(address)),
  /** `0x03 · vmNs · address(20) · key(1..512)`; vmNs 1 = PVM. */
  actorStorage: (vmNs: number, address: Uint8Array, key: Uint8Array): Uint8Array =>
    native.stateKeyActorStorage(vmNs, buf(address), buf(key)),
  /** `0x03 · vmNs · address(20)`: prefix of one actor's storage. */
  actorStoragePrefix: (vmNs: number, address: Uint8Array): Uint8Array =>
    native.stateKeyActorStoragePrefix(vmNs, buf(address)),
  /** `0x04 · height u64 BE · seq u64 BE` */
  timer: (height: bigint, seq: bigint): Uint8Array => native.stateKeyTimer(height, seq),
  /** `0x04 · height u64 BE`: prefix of one height's timers (FIFO order). */
  timerHeightPrefix: (height: bigint): Uint8Array => native.stateKeyTimerHeightPrefix(height),
  /** `0x05 · job id(32)` */
  job: (id: Uint8Array): Uint8Array => native.stateKeyJob(buf(id)),
  /** `0x06 · address(20)` */
  runner: (address: Uint8Array): Uint8Array => native.stateKeyRunner(buf(address)),
  /** `0x07 · address(20) · id(1..64)` */
  entitlement: (address: Uint8Array, id: Uint8Array): Uint8Array =>
    native.stateKeyEntitlement(buf(address), buf(id)),
  /** `0x08 · name(1..64)` */
  governance: (name: Uint8Array): Uint8Array => native.stateKeyGovernance(buf(name)),
  /** Parses a full key into its namespace and parts. */
  parse: (key: Uint8Array) => native.stateKeyParse(buf(key)),
} as const;

/** Canonical bytes of an account record. */
export function encodeAccount(account: AccountRecord): Uint8Array {
  const a: StateAccount = {
    balance: account.balance,
    nonce: account.nonce,
    codeHash: buf(account.codeHash),
    metadata: buf(account.metadata),
  };
  return native.accountEncode(a);
}

/** Strict decoding of an account record (`ERR_QMDB_CORRUPT` on malformed bytes). */
export function decodeAccount(bytes: Uint8Array): AccountRecord {
  return native.accountDecode(buf(bytes));
}
