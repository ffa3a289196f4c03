/**
 * The signing scheme consensus relies on. The production scheme is BLS12-381 with
 * aggregated certificates and a threshold seed (crates/bls through the addon); the
 * simulator uses {@link MacScheme}. Consensus logic never looks inside signatures.
 */
import type { Certificate, Proposal, Round, Vote, VoteKind } from "./types.ts";

export interface SigningScheme {
  /** number of validators, n */
  readonly participants: number;
  /** signs `kind` on `round` (and `proposal`) as validator `signer` (the local one) */
  sign(signer: number, kind: VoteKind, round: Round, proposal: Proposal | null): Uint8Array;
  verifyVote(vote: Vote): boolean;
  /**
   * Optional batch check of votes of one kind, round and proposal (what a certificate
   * aggregates): returns the positions of the invalid ones. When present, the voter buffers
   * votes and verifies them together once a quorum agrees.
   */
  verifyVotes?(votes: readonly Vote[]): number[];
  /** aggregates ≥ quorum distinct valid votes of one kind/round/proposal into a certificate */
  assemble(votes: readonly Vote[]): Certificate;
  verifyCertificate(cert: Certificate): boolean;
}

/** Byzantine fault tolerance: f = floor((n - 1) / 3). */
export function maxFaults(n: number): number {
  return Math.floor((n - 1) / 3);
}

/** Votes needed for a certificate: n - f (2f+1 when n = 3f+1). */
export function quorum(n: number): number {
  return n - maxFaults(n);
}

/** The bytes a {@link MacScheme} vote signs: namespace ‖ kind ‖ epoch ‖ view ‖ height ‖ block digest. */
export function voteMessage(
  namespace: string,
  kind: VoteKind,
  round: Round,
  proposal: Proposal | null,
): Uint8Array {
  const p = proposal === null ? "" : `${proposal.height}|${proposal.payload}`;
  return new TextEncoder().encode(`${namespace}|${kind}|${round.epoch}|${round.view}|${p}`);
}

export function bitmapSet(bits: Uint8Array, i: number): void {
  bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7));
}

export function bitmapHas(bits: Uint8Array, i: number): boolean {
  return (((bits[i >> 3] ?? 0) >> (i & 7)) & 1) === 1;
}

export function bitmapCount(bits: Uint8Array, n: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) if (bitmapHas(bits, i)) c++;
  return c;
}
