/**
 * {@link ChainApplication}: the Simplex voter's application backed by the state transition
 * function ({@link Chain} over the validator's own QMDB store).
 *
 * Execution model. The STF executes a block only by committing it (`buildBlock` /
 * `applyBlock` commit the state, because the header's state root exists only after a
 * commit), and the store cannot rewind a commit. So the store runs *speculatively* ahead of
 * finality along one branch:
 *
 * - `propose(parent)`: bring the store to `parent`, build the block from the mempool with
 *   the round's beacon as `parentSeed` (committed, speculative);
 * - `verify(proposal, block)`: bring the store to the block's parent, check the link, the
 *   beacon, the round, the proposer and the timestamp, and re-execute it with `applyBlock`
 *   (every root checked; committed, speculative);
 * - `finalized(block)`: if it is the next speculative block, it is already executed; else the
 *   speculative branch is dead and the store is rewound to the finalized tip and the block
 *   applied. The block, its view and its finalization certificate are appended (fsync) to
 *   `finalized.log` (the source of truth for the consensus chain) before the callback returns.
 *
 * "Bring the store to X" applies the known blocks between the store's head and X when X
 * extends it; when X is on another branch (a proposal that was executed but not certified),
 * the speculative blocks off that branch are dropped by rewinding the store
 * (`Chain.resetHead` → `QmdbState.rewind`) and X's branch is applied. Only when the head is
 * unknown (a failed execution) or the version left the store's history window is the store
 * discarded and rebuilt from genesis by re-executing the finalized blocks.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Certificate, Proposal, Round } from "@cowboy/consensus";
import type { ValidatorApplication } from "@cowboy/p2p";
import { type BlockHeader, blockHash, bytesEqual, type Transaction, toHex } from "@cowboy/sdk";
import type { Logger } from "../devnet/logger.ts";
import type { Chain } from "../stf/chain.ts";
import type { CeremonyRecord } from "../stf/dkg.ts";
import { type ChainHandle, openChain } from "../stf/open.ts";
import type { BlockResult, GenesisConfig } from "../stf/types.ts";
import {
  type ConsensusBlock,
  consensusDigest,
  consensusLink,
  decodeConsensusBlock,
  encodeConsensusBlock,
  type ParentCertificate,
  participantsOf,
} from "./block.ts";

/** One finalized block. */
export interface FinalizedEntry {
  readonly height: number;
  readonly view: number;
  readonly digest: string;
  readonly cb: ConsensusBlock;
  readonly certificate: Certificate | null;
}

export interface ChainAppOptions {
  /** holds `state/` (the QMDB store + head) and `finalized.log` */
  readonly dataDir: string;
  readonly genesis: GenesisConfig;
  /** this validator's address (block proposer: rewards and tips) */
  readonly proposer: Uint8Array;
  /** proposer addresses allowed in blocks (the validator set) */
  readonly validators: readonly Uint8Array[];
  /**
   * signed transactions to try in the next block, in preference order, given the store's head
   * state: encodings, or the `{ tx, bytes }` that `chain.checkTx` returned (not decoded or
   * verified again)
   */
  readonly candidates: (chain: Chain) => ReadonlyArray<Uint8Array | { tx: Transaction; bytes: Uint8Array }>;
  /** a block became final (called in chain order, once, after it is durable in finalized.log) */
  readonly onFinalized: (entry: FinalizedEntry, result: BlockResult) => void;
  readonly logger?: Logger | null;
  /** wall clock (ms) for block timestamps; default Date.now */
  readonly now?: () => number;
  /** how far ahead of our clock a proposed block's timestamp may be (default 10 s) */
  readonly maxFutureMs?: number;
  /**
   * Checks the parent certificate a proposed block carries (the consensus scheme's
   * `verifyCertificate`); null accepts any well-formed one (tests without BLS keys only).
   */
  readonly verifyCertificate: ((cert: Certificate) => boolean) | null;
  /**
   * Optional: true when consensus runs one validator set per epoch (the chain has a group per
   * epoch, `chain.epochGroup`): consensus indices are then positions in the chain's set of the
   * epoch, a block's proposer must be in its epoch's set, and the first block of an epoch (on
   * view 0: the previous epoch's last block) carries no parent certificate. Default false:
   * indices are positions in `validators` (one voter for the network's life).
   */
  readonly epochSets?: () => boolean;
}

interface Speculative {
  readonly digest: string;
  readonly result: BlockResult;
}

const certJson = (c: Certificate | null) =>
  c === null
    ? null
    : {
        kind: c.kind,
        round: c.round,
        proposal: c.proposal,
        signers: Buffer.from(c.signers).toString("hex"),
        signature: Buffer.from(c.signature).toString("hex"),
        seed: c.seed === null ? null : Buffer.from(c.seed).toString("hex"),
      };

type CertJson = NonNullable<ReturnType<typeof certJson>>;

const certFromJson = (c: CertJson | null): Certificate | null =>
  c === null
    ? null
    : {
        kind: c.kind,
        round: c.round,
        proposal: c.proposal,
        signers: Uint8Array.from(Buffer.from(c.signers, "hex")),
        signature: Uint8Array.from(Buffer.from(c.signature, "hex")),
        seed: c.seed === null ? null : Uint8Array.from(Buffer.from(c.seed, "hex")),
      };

/** Error raised when the node cannot continue (a finalized block fails to execute). */
export class ChainAppError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ChainAppError";
    this.code = code;
  }
}

export class ChainApplication implements ValidatorApplication {
  readonly genesis: string;
  private handle: ChainHandle;
  private readonly opts: ChainAppOptions;
  private readonly stateDir: string;
  private readonly logPath: string;
  private readonly logFd: number;
  private readonly final: FinalizedEntry[] = [];
  private readonly byDigest = new Map<string, number>();
  /** blocks seen above the finalized tip (proposed, verified or fetched), by digest */
  private readonly known = new Map<string, ConsensusBlock>();
  /** `pending/`: blocks this node proposed or verified above the finalized tip, one file each */
  private readonly pendingDir: string;
  /** heights of the blocks in `pending/`, by digest */
  private readonly onDisk = new Map<string, number>();
  /** executed blocks above the finalized tip, in chain order (the store's head is the last) */
  private spec: Speculative[] = [];
  /** the store's head is unknown (a failed execution left a commit behind): rebuild before use */
  private dirty = false;
  private readonly genesisHash: Uint8Array;
  /** the blocks re-executed at start-up whose ledger records may be missing */
  readonly replayed: Array<{ entry: FinalizedEntry; result: BlockResult }> = [];
  rebuilds = 0;
  /** speculative branches dropped by rewinding the store (`Chain.resetHead`) instead of a rebuild */
  rewinds = 0;

  /**
   * Opens the store and the finalized chain of `dataDir`. When the store's head is not the
   * finalized tip (speculative blocks before a crash) or `replayFrom` ≤ the tip (the ledger is
   * behind), the store is rebuilt by re-executing the finalized blocks; those at height ≥
   * `replayFrom` are left in {@link replayed}.
   */
  constructor(opts: ChainAppOptions, replayFrom: number) {
    this.opts = opts;
    this.stateDir = join(opts.dataDir, "state");
    this.logPath = join(opts.dataDir, "finalized.log");
    mkdirSync(opts.dataDir, { recursive: true });
    if (existsSync(this.logPath)) {
      for (const line of readFileSync(this.logPath, "utf8").split("\n")) {
        if (line === "") continue;
        let e: { h: number; v: number; b: string; c: CertJson | null };
        try {
          e = JSON.parse(line);
        } catch {
          break; // a torn last line (crash while writing): never acknowledged
        }
        const cb = decodeConsensusBlock(Buffer.from(e.b, "hex"));
        this.pushFinal({
          height: e.h,
          view: e.v,
          digest: consensusDigest(cb),
          cb,
          certificate: certFromJson(e.c),
        });
      }
    }
    this.logFd = openSync(this.logPath, "a");
    this.pendingDir = join(opts.dataDir, "pending");
    this.loadPending();
    try {
      this.handle = openChain(this.stateDir, opts.genesis);
    } catch (err) {
      // the store and its recorded head disagree (a kill in the middle of a commit): the
      // state is derived data — start it afresh and re-execute the finalized blocks below
      if ((err as { code?: string }).code !== "ERR_CHAIN_HEAD") throw err;
      opts.logger?.warn(
        { err: (err as Error).message },
        "the state store does not match its recorded head; rebuilding it from the finalized blocks",
      );
      rmSync(this.stateDir, { recursive: true, force: true });
      this.handle = openChain(this.stateDir, opts.genesis);
    }
    const tip = this.final[this.final.length - 1];
    const headHash = blockHash(this.handle.chain.head);
    const consistent =
      tip === undefined
        ? this.handle.chain.head.height === 0n
        : bytesEqual(headHash, blockHash(tip.cb.block.header));
    if (!consistent || replayFrom <= this.final.length) {
      if (!consistent)
        opts.logger?.warn(
          { stateHeight: String(this.handle.chain.head.height), finalized: this.final.length },
          "the state store is not at the finalized tip; rebuilding it from the finalized blocks",
        );
      this.rebuild(replayFrom);
    }
    const first = this.final[0];
    this.genesisHash = first === undefined ? blockHash(this.handle.chain.head) : first.cb.block.header.parent;
    this.genesis = toHex(this.genesisHash).slice(2);
  }

  /**
   * Reads `pending/` (blocks proposed or verified before a restart that may be notarized: the
   * voter asks for them through {@link pendingBlock}); files at or below the finalized tip and
   * unreadable ones are deleted.
   */
  private loadPending(): void {
    mkdirSync(this.pendingDir, { recursive: true });
    for (const name of readdirSync(this.pendingDir)) {
      const path = join(this.pendingDir, name);
      let cb: ConsensusBlock | null = null;
      try {
        cb = decodeConsensusBlock(readFileSync(path));
      } catch {
        cb = null;
      }
      const digest = cb === null ? null : consensusDigest(cb);
      if (cb === null || `${digest}.cb` !== name || cb.block.header.height <= BigInt(this.final.length)) {
        rmSync(path, { force: true });
        continue;
      }
      this.known.set(digest as string, cb);
      this.onDisk.set(digest as string, Number(cb.block.header.height));
    }
  }

  /** Keeps a proposed or verified block in `pending/` (no fsync: peers hold notarized blocks too). */
  private keepPending(digest: string, cb: ConsensusBlock): void {
    if (this.onDisk.has(digest)) return;
    try {
      writeFileSync(join(this.pendingDir, `${digest}.cb`), encodeConsensusBlock(cb));
      this.onDisk.set(digest, Number(cb.block.header.height));
    } catch (err) {
      this.opts.logger?.warn({ err: (err as Error).message }, "could not keep a pending block");
    }
  }

  /** Deletes kept blocks at or below `height` (final, or on a branch that lost). */
  private dropPending(height: number): void {
    for (const [digest, h] of this.onDisk) {
      if (h > height) continue;
      rmSync(join(this.pendingDir, `${digest}.cb`), { force: true });
      this.onDisk.delete(digest);
    }
  }

  /** The STF over the store (its head may be ahead of the finalized tip). */
  get chain(): Chain {
    return this.handle.chain;
  }

  /** The genesis header (height 0) when the store is at genesis, else null. */
  genesisHeader(): BlockHeader | null {
    return this.handle.chain.head.height === 0n ? this.handle.chain.head : null;
  }

  private pushFinal(e: FinalizedEntry): void {
    this.final.push(e);
    this.byDigest.set(e.digest, e.height);
  }

  /** Discards the store and re-executes every finalized block (from genesis). */
  private rebuild(replayFrom = Number.POSITIVE_INFINITY): void {
    const started = performance.now();
    this.handle.close();
    rmSync(this.stateDir, { recursive: true, force: true });
    this.handle = openChain(this.stateDir, this.opts.genesis);
    for (const entry of this.final) {
      const result = this.handle.chain.applyBlock(entry.cb.block, this.applyOptions(entry.cb));
      if (entry.height >= replayFrom) this.replayed.push({ entry, result });
    }
    this.spec = [];
    this.dirty = false;
    this.rebuilds++;
    this.opts.logger?.info(
      { blocks: this.final.length, ms: Math.round(performance.now() - started) },
      "state store rebuilt from the finalized blocks",
    );
  }

  /**
   * Drops the speculative blocks that are not a prefix of `path` (digests above the finalized
   * tip) by rewinding the store to the last one kept (`Chain.resetHead`), instead of rebuilding
   * it from genesis. False when that is not possible: the head is unknown (`dirty`) or the
   * version left the store's history window; the caller then rebuilds.
   */
  private dropSpeculative(path: readonly string[]): boolean {
    if (this.dirty) return false;
    let keep = 0;
    while (keep < this.spec.length && keep < path.length && this.spec[keep]?.digest === path[keep]) keep++;
    const header =
      keep > 0
        ? (this.spec[keep - 1] as Speculative).result.block.header
        : (this.final[this.final.length - 1]?.cb.block.header ?? this.handle.chain.genesisHeader);
    try {
      this.handle.chain.resetHead(header);
    } catch (err) {
      this.opts.logger?.warn({ err: (err as Error).message }, "could not rewind the state store");
      return false;
    }
    this.spec = this.spec.slice(0, keep);
    this.rewinds++;
    return true;
  }

  private tipDigest(): string {
    return this.final[this.final.length - 1]?.digest ?? this.genesis;
  }

  private hashOfDigest(digest: string): Uint8Array | null {
    if (digest === this.genesis) return this.genesisHash;
    const h = this.byDigest.get(digest);
    if (h !== undefined) return blockHash((this.final[h - 1] as FinalizedEntry).cb.block.header);
    const cb = this.known.get(digest);
    return cb === undefined ? null : blockHash(cb.block.header);
  }

  /** Applies a block on the store's head and records it as speculative; false if invalid. */
  private execute(digest: string, cb: ConsensusBlock): boolean {
    try {
      const result = this.handle.chain.applyBlock(cb.block, this.applyOptions(cb));
      this.spec.push({ digest, result });
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // a state-root mismatch leaves the block's state committed under the old head
      if (code === "ERR_BLOCK_STATE_ROOT" || code === undefined) this.dirty = true;
      this.opts.logger?.warn(
        { height: String(cb.block.header.height), code, err: (err as Error).message },
        "block failed to execute",
      );
      return false;
    }
  }

  /**
   * `participants` for executing `cb` on its parent's state (the store's head): the signers of
   * its parent certificate — consensus indices, i.e. positions in the network's validator list —
   * translated by address to positions in the chain's set of the parent's epoch (members that
   * are not in that set are left out). Absent without a certificate or a set.
   */
  private applyOptions(cb: ConsensusBlock): { participants?: readonly number[] } {
    return this.participantsAt(cb, Number(cb.block.header.height));
  }

  /** {@link applyOptions} for a block at `height` carrying `cb`'s parent certificate. */
  private participantsAt(
    cb: Pick<ConsensusBlock, "parentCertificate">,
    height: number,
  ): { participants?: readonly number[] } {
    const signers = participantsOf(cb);
    if (signers === undefined) return {};
    const chain = this.handle.chain;
    let set: ReturnType<Chain["validatorSet"]>;
    try {
      const parentHeight = height - 1;
      set = chain.validatorSet(Math.floor(parentHeight / chain.validatorParams().epochBlocks));
    } catch {
      return {};
    }
    if (set.length === 0) return {};
    // per-epoch voters: a signer's consensus index is its position in that epoch's set
    if (this.opts.epochSets?.() === true)
      return { participants: [...signers].filter((i) => i < set.length).sort((a, b) => a - b) };
    const position = new Map(set.map((m, i) => [m.address, i]));
    const participants: number[] = [];
    for (const i of signers) {
      const address = this.opts.validators[i];
      const at = address === undefined ? undefined : position.get(Buffer.from(address).toString("hex"));
      if (at !== undefined) participants.push(at);
    }
    return { participants: participants.sort((a, b) => a - b) };
  }

  /** The parent certificate a block at `height` on `parent` must carry: from the voter, else the finalized tip's own. */
  private parentCertificate(
    parent: { view: number; digest: string; height: number },
    fromVoter: Certificate | null,
  ): ParentCertificate | null | "missing" {
    // genesis, or an epoch's genesis (view 0: the previous epoch's last block, final)
    if (parent.height === 0 || parent.view === 0) return null;
    let cert = fromVoter;
    if (cert === null || cert.proposal?.payload !== parent.digest) {
      const tip = this.final[this.final.length - 1];
      cert = tip !== undefined && tip.digest === parent.digest ? tip.certificate : null;
    }
    if (cert === null || cert.kind === "nullify" || cert.proposal?.payload !== parent.digest)
      return "missing";
    return { kind: cert.kind, signers: cert.signers, signature: cert.signature, seed: cert.seed };
  }

  /** Checks the parent certificate of a proposed block (required above height 1). */
  private checkParentCertificate(proposal: Proposal, cb: ConsensusBlock): boolean {
    const pc = cb.parentCertificate ?? null;
    if (cb.version === 1) return false; // legacy blocks are only read from old logs
    if (proposal.height === 1 || cb.parentView === 0) return pc === null;
    if (pc === null) return false;
    const verify = this.opts.verifyCertificate;
    if (verify === null) return true;
    const round = { epoch: proposal.round.epoch, view: cb.parentView };
    return verify({
      kind: pc.kind,
      round,
      proposal: { round, height: proposal.height - 1, parentView: 0, parent: "", payload: cb.parent },
      signers: pc.signers,
      signature: pc.signature,
      seed: pc.seed,
    });
  }

  /** Addresses that may propose in `epoch`: its set (per-epoch voters), else the network's validators. */
  private proposers(epoch: number): readonly Uint8Array[] {
    if (this.opts.epochSets?.() !== true) return this.opts.validators;
    try {
      return this.handle.chain.validatorSet(epoch).map((m) => Buffer.from(m.address, "hex"));
    } catch {
      return [];
    }
  }

  /** Brings the store's head to `target` (the finalized tip or a known descendant of it). */
  private ensureAt(target: string): boolean {
    const path: string[] = [];
    const tip = this.tipDigest();
    for (let d = target; d !== tip; ) {
      const cb = this.known.get(d);
      if (cb === undefined || path.length > 256) return false;
      path.unshift(d);
      d = cb.parent;
    }
    const prefix =
      !this.dirty && this.spec.length <= path.length && this.spec.every((s, i) => s.digest === path[i]);
    if (!prefix && !this.dropSpeculative(path)) this.rebuild();
    for (let i = this.spec.length; i < path.length; i++) {
      const d = path[i] as string;
      if (!this.execute(d, this.known.get(d) as ConsensusBlock)) return false;
    }
    return true;
  }

  // ----- Application -----

  propose(
    round: Round,
    parent: { view: number; digest: string; height: number },
    beacon: Uint8Array,
    parentCertificate?: Certificate | null,
  ): { digest: string; block: unknown } | null {
    const pc = this.parentCertificate(parent, parentCertificate ?? null);
    if (pc === "missing") {
      this.opts.logger?.warn({ parent: parent.height }, "no certificate of the parent block: not proposing");
      return null;
    }
    if (!this.ensureAt(parent.digest)) return null;
    const chain = this.handle.chain;
    const now = BigInt((this.opts.now ?? Date.now)());
    const parentTs = chain.head.timestampMs;
    try {
      const shell = { parentView: parent.view, parent: parent.digest, parentCertificate: pc };
      const built = chain.buildBlock(this.opts.candidates(chain), {
        timestampMs: now > parentTs ? now : parentTs,
        proposer: this.opts.proposer,
        parentSeed: beacon,
        round: { epoch: BigInt(round.epoch), view: BigInt(round.view) },
        ...this.participantsAt(shell, Number(chain.head.height) + 1),
      });
      const cb: ConsensusBlock = { block: built.block, ...shell };
      const digest = consensusDigest(cb);
      this.known.set(digest, cb);
      this.keepPending(digest, cb);
      this.spec.push({ digest, result: built });
      return { digest, block: cb };
    } catch (err) {
      this.dirty = true;
      this.opts.logger?.error({ err: (err as Error).message }, "could not build a block");
      return null;
    }
  }

  digest(block: unknown): string {
    return consensusDigest(block as ConsensusBlock);
  }

  link(block: unknown): { view: number; height: number; parentView: number; parent: string } {
    return consensusLink(block as ConsensusBlock);
  }

  /**
   * The consensus epoch of the block at `height` (block sync's `BlockReader.epochOf`): ⌊height /
   * epochBlocks⌋ with per-epoch voters, else 0 (one voter for the network's life). Sync accepts
   * a certificate only for a block of its own epoch.
   */
  epochOf(height: number): number {
    if (this.opts.epochSets?.() !== true) return 0;
    return Math.floor(height / this.handle.chain.validatorParams().epochBlocks);
  }

  verify(proposal: Proposal, block: unknown, beacon: Uint8Array): boolean {
    const cb = block as ConsensusBlock;
    const h = cb.block.header;
    if (
      cb.parent !== proposal.parent ||
      cb.parentView !== proposal.parentView ||
      h.height !== BigInt(proposal.height) ||
      h.round.epoch !== BigInt(proposal.round.epoch) ||
      h.round.view !== BigInt(proposal.round.view) ||
      !bytesEqual(h.parentSeed, beacon) ||
      !this.proposers(proposal.round.epoch).some((v) => bytesEqual(v, h.proposer))
    )
      return false;
    const now = BigInt((this.opts.now ?? Date.now)());
    if (h.timestampMs > now + BigInt(this.opts.maxFutureMs ?? 10_000)) return false;
    if (!this.checkParentCertificate(proposal, cb)) return false;
    const parentHash = this.hashOfDigest(cb.parent);
    if (parentHash === null || !bytesEqual(parentHash, h.parent)) return false;
    const digest = consensusDigest(cb);
    // already executed on the current branch (our own proposal, or asked twice)
    if (!this.dirty && this.spec.some((x) => x.digest === digest)) return true;
    this.known.set(digest, cb);
    if (!this.ensureAt(cb.parent)) return false;
    if (!this.execute(digest, cb)) return false;
    this.keepPending(digest, cb);
    return true;
  }

  /**
   * A certified block the voter fetched (we never verified it): kept so that its children can
   * be executed on it; it is executed (every root checked) when a child or its finalization
   * needs it.
   */
  certified(proposal: Proposal, block: unknown): void {
    if (proposal.height <= this.final.length) return;
    const cb = block as ConsensusBlock;
    const digest = consensusDigest(cb);
    if (digest === proposal.payload && !this.known.has(digest)) this.known.set(digest, cb);
  }

  /** A block proposed or verified here above the finalized tip (kept across restarts), or null. */
  pendingBlock(digest: string): unknown | null {
    return this.onDisk.has(digest) ? (this.known.get(digest) ?? null) : null;
  }

  finalizedBlock(digest: string): unknown | null {
    const h = this.byDigest.get(digest);
    return h === undefined ? null : (this.final[h - 1] as FinalizedEntry).cb;
  }

  finalized(proposal: Proposal, block: unknown, certificate: Certificate | null): void {
    const height = this.final.length;
    if (proposal.height <= height) return; // already final (a replay after a restart)
    if (proposal.height !== height + 1)
      throw new ChainAppError("ERR_VALIDATOR_GAP", `finalized block ${proposal.height} after ${height}`);
    const cb = block as ConsensusBlock;
    const digest = proposal.payload;
    let result: BlockResult;
    const next = this.spec[0];
    if (!this.dirty && next !== undefined && next.digest === digest) {
      this.spec.shift();
      result = next.result;
    } else {
      if ((this.dirty || this.spec.length > 0) && !this.dropSpeculative([])) this.rebuild();
      try {
        result = this.handle.chain.applyBlock(cb.block, this.applyOptions(cb));
      } catch (err) {
        this.dirty = true;
        throw new ChainAppError(
          "ERR_VALIDATOR_FINALIZED_INVALID",
          `finalized block ${proposal.height} does not execute here: ${(err as Error).message}`,
        );
      }
    }
    const entry: FinalizedEntry = {
      height: proposal.height,
      view: proposal.round.view,
      digest,
      cb,
      certificate,
    };
    appendFileSync(
      this.logFd,
      `${JSON.stringify({ h: entry.height, v: entry.view, b: Buffer.from(encodeConsensusBlock(cb)).toString("hex"), c: certJson(certificate) })}\n`,
    );
    fsyncSync(this.logFd);
    this.pushFinal(entry);
    for (const [d, k] of this.known) if (k.block.header.height <= BigInt(entry.height)) this.known.delete(d);
    this.dropPending(entry.height);
    this.opts.onFinalized(entry, result);
  }

  // ----- FinalizedChain / finalizedTip -----

  tip(): number {
    return this.final.length;
  }

  at(height: number): { block: unknown; certificate: Certificate | null } | null {
    const e = this.final[height - 1];
    return e === undefined ? null : { block: e.cb, certificate: e.certificate };
  }

  finalizedTip(): { view: number; height: number; digest: string } {
    const e = this.final[this.final.length - 1];
    return e === undefined
      ? { view: 0, height: 0, digest: this.genesis }
      : { view: e.view, height: e.height, digest: e.digest };
  }

  /**
   * Resharing ceremony `n` as of the state after finalized block `height` (≤ the finalized
   * tip), read at the store version committed for that block: the store's head may be ahead of
   * finality on a speculative branch, whose logs are not final. Null if the ceremony is not in
   * that state, `height` is not a finalized height executed here, the store's head is unknown
   * (a failed execution, until the next rebuild), or the version left the store's history window.
   */
  finalizedCeremony(n: number, height: number): CeremonyRecord | null {
    if (this.dirty || !Number.isSafeInteger(height) || height < 0 || height > this.final.length) return null;
    const chain = this.handle.chain;
    const h = BigInt(height);
    if (h > chain.head.height) return null;
    try {
      return chain.ceremony(n, h); // the chain's own height → store version rule
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === "ERR_QMDB_VERSION_UNAVAILABLE")
        this.opts.logger?.debug(
          { ceremony: n, height, err: (err as Error).message },
          "a finalized height left the store's history window",
        );
      else
        this.opts.logger?.error(
          { ceremony: n, height, code, err: (err as Error).message },
          "cannot read a ceremony at a finalized height",
        );
      return null;
    }
  }

  /** Finalized entry at `height` (≥ 1), or undefined. */
  entry(height: number): FinalizedEntry | undefined {
    return this.final[height - 1];
  }

  close(): void {
    closeSync(this.logFd);
    this.handle.close();
  }
}
