/**
 * Block sync: how a node that starts late (or restarts far behind) obtains the finalized
 * chain from peers before it joins consensus.
 *
 * A response is a run of consecutive finalized blocks starting at the requested height and
 * ending with a block that carries its own finalization certificate. The client accepts a
 * run only if
 *
 * 1. the certificate is a valid `finalize` certificate (2f+1 signatures of the epoch's
 *    validator set) for exactly the last block (digest, height, view), and
 * 2. the blocks form a hash chain: each one's parent is the previous one's digest with the
 *    height one higher, and the first one extends the client's current tip.
 *
 * A finalization certificate finalizes its block and every ancestor, so every block of an
 * accepted run is final; the application then executes them in order (state roots are its
 * check). A peer whose response fails these checks is reported and the next peer is tried.
 *
 * Epochs: each certificate is checked with the set of its own epoch (`schemeFor`). A later
 * epoch's set is known only once the earlier epoch's blocks are applied, so when the run's
 * last certificate belongs to an epoch whose set is not known yet, the run is cut after the
 * last block whose own certificate can be checked (every epoch's last block carries its own
 * finalization: nothing later in its epoch can finalize it) and the rest is asked again.
 * The last block of an epoch may be finalized by the certificate of its re-proposal (same
 * block and height, a later view).
 */
import type { SigningScheme } from "./scheme.ts";
import { type Certificate, isReproposal, type Proposal } from "./types.ts";

/** A finalized block as served by sync: the certificate is present on the last block of a run. */
export interface SyncedBlock {
  readonly block: unknown;
  readonly certificate: Certificate | null;
}

/** What a server answers: its finalized tip height and a run of blocks from the requested height. */
export interface SyncResponse {
  readonly tip: number;
  readonly blocks: readonly SyncedBlock[];
}

/** One peer to sync from. `request` rejects on transport failure. */
export interface SyncSource {
  readonly id: string;
  request(from: number, max: number): Promise<SyncResponse>;
}

/** The finalized chain a node serves to others. */
export interface FinalizedChain {
  /** height of the latest finalized block (0 = genesis only) */
  tip(): number;
  /** the finalized block at `height` (≥ 1) and its own finalization certificate, if it has one */
  at(height: number): SyncedBlock | null;
}

/** Reads chain links from blocks (the voter's {@link Application} provides these). */
export interface BlockReader {
  digest(block: unknown): string;
  link(block: unknown): { view: number; height: number; parentView: number; parent: string };
  /**
   * Optional: the epoch the block at `height` belongs to (the chain's rule, ⌊height / E⌋; 0
   * for a single unbounded epoch). When given, a certificate is accepted only for a block of
   * its own epoch — a quorum of an earlier epoch's keys (validators that have left and can no
   * longer be slashed) cannot finalize later heights — and a re-proposal's certificate only for
   * an epoch's last block. Without it every block is taken to be of its certificate's epoch.
   */
  epochOf?(height: number): number;
}

/** Longest run a server sends (blocks), whatever the request asks. */
export const MAX_SYNC_BATCH = 256;

/**
 * Server side: the run starting at `from` of at most `max` blocks (capped at
 * {@link MAX_SYNC_BATCH}), cut back to its last certified block; if none of those blocks is
 * certified, extended forward to the next certified one (bounded by `4 × MAX_SYNC_BATCH`).
 * Empty when `from` is beyond the tip or no certified block is in reach.
 */
export function serveSync(chain: FinalizedChain, from: number, max: number): SyncResponse {
  const tip = chain.tip();
  const blocks: SyncedBlock[] = [];
  if (!Number.isSafeInteger(from) || from < 1 || from > tip) return { tip, blocks };
  const want = Math.max(1, Math.min(Math.floor(max), MAX_SYNC_BATCH));
  const hardEnd = Math.min(tip, from + 4 * MAX_SYNC_BATCH - 1);
  let lastCertified = -1;
  for (let h = from; h <= hardEnd; h++) {
    const b = chain.at(h);
    if (b === null) break;
    blocks.push(b);
    if (b.certificate !== null) {
      lastCertified = blocks.length;
      if (blocks.length >= want) break;
    }
  }
  return { tip, blocks: lastCertified < 0 ? [] : blocks.slice(0, lastCertified) };
}

/** Why a run was refused. */
export type SyncRejection =
  | "empty"
  | "no-certificate"
  | "bad-certificate"
  | "certificate-mismatch"
  | "broken-chain"
  | "not-extending";

/**
 * Checks a run against the current tip; returns the proposals of its blocks (in order) or
 * the reason it is refused. Pure: nothing is applied.
 */
export function verifyRun(
  run: readonly SyncedBlock[],
  tip: { height: number; digest: string },
  reader: BlockReader,
  schemeFor: (epoch: number) => SigningScheme | null,
): Proposal[] | SyncRejection {
  const last = run[run.length - 1];
  if (last === undefined) return "empty";
  const tail = last.certificate;
  if (tail === null || tail.kind !== "finalize" || tail.proposal === null) return "no-certificate";
  // a certificate counts only for a block of its own epoch (when the reader knows the rule)
  const epochOf = reader.epochOf === undefined ? null : reader.epochOf.bind(reader);
  const ownEpoch = (c: Certificate): boolean =>
    epochOf === null || (c.proposal !== null && epochOf(c.proposal.height) === c.round.epoch);
  if (!ownEpoch(tail)) return "certificate-mismatch";
  // cut after the last block whose own finalization is checkable with a known set
  let end = run.length - 1;
  if (schemeFor(tail.round.epoch) === null) {
    end = -1;
    for (let i = run.length - 2; i >= 0; i--) {
      const c = (run[i] as SyncedBlock).certificate;
      if (c !== null && c.kind === "finalize" && c.proposal !== null && schemeFor(c.round.epoch) !== null) {
        end = i;
        break;
      }
    }
    if (end < 0) return "bad-certificate";
  }
  const cert = (run[end] as SyncedBlock).certificate as Certificate & { proposal: Proposal };
  if (!ownEpoch(cert)) return "certificate-mismatch";
  const scheme = schemeFor(cert.round.epoch);
  if (scheme === null || !scheme.verifyCertificate(cert)) return "bad-certificate";
  const proposals: Proposal[] = [];
  let prev = tip;
  for (const { block } of run.slice(0, end + 1)) {
    let link: ReturnType<BlockReader["link"]>;
    let digest: string;
    try {
      link = reader.link(block);
      digest = reader.digest(block);
    } catch {
      return "broken-chain";
    }
    if (link.parent !== prev.digest || link.height !== prev.height + 1)
      return proposals.length === 0 ? "not-extending" : "broken-chain";
    proposals.push({
      round: { epoch: epochOf === null ? cert.round.epoch : epochOf(link.height), view: link.view },
      height: link.height,
      parentView: link.parentView,
      parent: link.parent,
      payload: digest,
    });
    prev = { height: link.height, digest };
  }
  const tipProposal = proposals[proposals.length - 1] as Proposal;
  // a re-proposal (same block, later view) finalizes only an epoch's last block
  const reproposed =
    isReproposal(cert.proposal) &&
    cert.round.view > tipProposal.round.view &&
    (epochOf === null || epochOf(tipProposal.height + 1) > epochOf(tipProposal.height));
  if (
    tipProposal.payload !== cert.proposal.payload ||
    tipProposal.height !== cert.proposal.height ||
    (tipProposal.round.view !== cert.round.view && !reproposed)
  )
    return "certificate-mismatch";
  return proposals;
}

export interface SyncProgress {
  /** height reached (verified and applied) */
  readonly height: number;
  /** highest finalized height a peer reported */
  readonly target: number;
  /** blocks applied so far in this sync */
  readonly applied: number;
}

export interface SyncOptions {
  readonly sources: readonly SyncSource[];
  readonly reader: BlockReader;
  /** the signing scheme (validator set) that verifies certificates of `epoch`, or null if unknown */
  readonly schemeFor: (epoch: number) => SigningScheme | null;
  /** where the local chain ends now */
  readonly start: { height: number; digest: string; view: number };
  /** applies one verified finalized block (executes it); throwing aborts the sync */
  readonly apply: (
    proposal: Proposal,
    block: unknown,
    certificate: Certificate | null,
  ) => void | Promise<void>;
  readonly onProgress?: (p: SyncProgress) => void;
  /** a source answered with data that failed verification (penalize it) */
  readonly onBadSource?: (id: string, reason: SyncRejection) => void;
  /** blocks asked per request (default {@link MAX_SYNC_BATCH}) */
  readonly batch?: number;
  /** consecutive rounds in which every source failed before giving up (default 3) */
  readonly maxFailedRounds?: number;
}

/** Thrown when no source can help; `code` is stable. */
export class SyncError extends Error {
  readonly code = "SYNC_STALLED";
  constructor(message: string) {
    super(message);
    this.name = "SyncError";
  }
}

/**
 * Fetches, verifies and applies finalized blocks from `sources` until no source that
 * answers reports a finalized tip beyond ours. Throws {@link SyncError} after
 * `maxFailedRounds` rounds in which some source claimed more but none delivered a valid run
 * (or none answered); the caller may then join consensus anyway and catch up there. Returns the new tip (the voter starts from it).
 * Sources are tried in turn; one that fails or sends invalid data is skipped for the rest of
 * the round and reported through `onBadSource`.
 */
export async function syncBlocks(
  opts: SyncOptions,
): Promise<{ height: number; digest: string; view: number }> {
  let tip = { ...opts.start };
  let target = tip.height;
  let applied = 0;
  let failedRounds = 0;
  const batch = opts.batch ?? MAX_SYNC_BATCH;
  const maxFailed = opts.maxFailedRounds ?? 3;
  let next = 0;
  for (;;) {
    let progressed = false;
    let answered = false;
    let ahead = false;
    for (let tried = 0; tried < opts.sources.length && !progressed; tried++) {
      const source = opts.sources[next % opts.sources.length] as SyncSource;
      next++;
      let res: SyncResponse;
      try {
        res = await source.request(tip.height + 1, batch);
      } catch {
        continue;
      }
      answered = true;
      if (Number.isSafeInteger(res.tip)) target = Math.max(target, res.tip);
      if (res.tip > tip.height) ahead = true;
      if (res.blocks.length === 0) continue;
      const verdict = verifyRun(res.blocks, tip, opts.reader, opts.schemeFor);
      if (!Array.isArray(verdict)) {
        opts.onBadSource?.(source.id, verdict);
        continue;
      }
      for (const [i, proposal] of verdict.entries()) {
        const b = res.blocks[i] as SyncedBlock;
        await opts.apply(proposal, b.block, i === verdict.length - 1 ? b.certificate : null);
        tip = { height: proposal.height, digest: proposal.payload, view: proposal.round.view };
        applied++;
      }
      progressed = true;
      opts.onProgress?.({ height: tip.height, target, applied });
    }
    if (progressed) {
      failedRounds = 0;
      continue;
    }
    // every source that answered is at or behind our tip
    if (answered && !ahead) return tip;
    failedRounds++;
    if (failedRounds >= maxFailed)
      throw new SyncError(`block sync stalled at height ${tip.height} (peers report ${target})`);
  }
}
