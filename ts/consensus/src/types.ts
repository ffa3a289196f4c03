/**
 * The objects of Simplex consensus (commonware's rules; DESIGN.md departure 1: a block is
 * final when 2f+1 *finalize* votes form a finalization certificate).
 *
 * Views are numbered from 1 within an epoch; view 0 is the genesis block's. Digests are
 * lowercase hex strings (map keys), signatures opaque bytes of the signing scheme.
 */

/** An absolute round: `Round(epoch, view)` (spec 01 §3.4). */
export interface Round {
  readonly epoch: number;
  readonly view: number;
}

/** What the leader of a view proposes: a payload (block digest) on a certified parent. */
export interface Proposal {
  readonly round: Round;
  /** height of the proposed block (its parent's height + 1; genesis is height 0) */
  readonly height: number;
  /** view of the parent block (0 = genesis) */
  readonly parentView: number;
  /** digest of the parent block */
  readonly parent: string;
  /** digest of the proposed block */
  readonly payload: string;
}

export type VoteKind = "notarize" | "nullify" | "finalize";

/** A signed vote. `proposal` is null exactly for `nullify`. */
export interface Vote {
  readonly kind: VoteKind;
  readonly round: Round;
  readonly proposal: Proposal | null;
  /** index of the signer in the validator set */
  readonly signer: number;
  readonly signature: Uint8Array;
}

/** 2f+1 votes of one kind on one round (and proposal), aggregated by the scheme. */
export interface Certificate {
  readonly kind: VoteKind;
  readonly round: Round;
  readonly proposal: Proposal | null;
  /** one bit per validator, little-endian within bytes */
  readonly signers: Uint8Array;
  readonly signature: Uint8Array;
  /** the round's randomness seed (threshold signature over the round); null for finalizations */
  readonly seed: Uint8Array | null;
}

/** Wire messages between validators. */
export type Message =
  | { readonly type: "propose"; readonly proposal: Proposal; readonly block: unknown; readonly vote: Vote }
  | { readonly type: "vote"; readonly vote: Vote }
  | { readonly type: "certificate"; readonly certificate: Certificate }
  | { readonly type: "fetch"; readonly want: FetchRequest }
  | {
      readonly type: "fetched";
      readonly blocks: ReadonlyArray<{ proposal: Proposal; block: unknown }>;
      readonly certificates: readonly Certificate[];
    };

/** What a node asks a peer for when it is missing data to make progress. */
export type FetchRequest =
  | { readonly kind: "block"; readonly digest: string }
  | { readonly kind: "certificates"; readonly fromView: number; readonly toView: number };

/**
 * Proof that a validator signed two conflicting statements in one view: two votes of one
 * kind for different proposals, or a vote and a certificate its signature is part of.
 */
export interface Equivocation {
  readonly signer: number;
  readonly vote: Vote;
  readonly conflicting: Vote | Certificate;
}

/**
 * Identity of a proposal: exactly the fields a vote signs (round, height, block digest; spec
 * §6.1 `block_hash ‖ height ‖ round`). The parent link is not signed: it is committed to by
 * the block digest and read from the block itself, never trusted from a certificate.
 */
export function proposalKey(p: Proposal): string {
  return `${p.round.epoch}:${p.round.view}:${p.height}:${p.payload}`;
}

/**
 * True if `p` re-proposes its parent block: at the end of an epoch (height bound reached) the
 * leader cannot extend a notarized last block, so it proposes that same block again in its own
 * view (payload = parent = the block's digest, same height); its finalization finalizes the
 * block. No ordinary block is its own parent (the digest commits to the parent link).
 */
export function isReproposal(p: Proposal): boolean {
  return p.payload === p.parent;
}

/** True if both are null or both sign the same statement (see {@link proposalKey}). */
export function sameProposal(a: Proposal | null, b: Proposal | null): boolean {
  return a === b || (a !== null && b !== null && proposalKey(a) === proposalKey(b));
}

/** True if every field, including the (unsigned) parent link, is equal. */
export function sameLink(a: Proposal, b: Proposal): boolean {
  return proposalKey(a) === proposalKey(b) && a.parentView === b.parentView && a.parent === b.parent;
}
