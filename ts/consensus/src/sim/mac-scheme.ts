/**
 * A signing scheme for the deterministic simulator: each validator authenticates its
 * votes with HMAC-SHA256 under its own key, and every simulated node can verify any vote
 * because the simulation gives all of them the key table. It is a real authenticator
 * (a forged or altered vote fails), fast enough for thousands of simulated views, and
 * NOT a production scheme: outside a single trusted process it would let any verifier
 * sign for anyone. Certificates concatenate the signers' MACs in index order; the round
 * seed is a MAC of the round under a group key, so it is unique per round, as a threshold
 * signature is.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { bitmapHas, bitmapSet, quorum, type SigningScheme, voteMessage } from "../scheme.ts";
import {
  type Certificate,
  type Proposal,
  proposalKey,
  type Round,
  type Vote,
  type VoteKind,
} from "../types.ts";

const NAMESPACE = "cowboy-sim-simplex";
const MAC_LEN = 32;

export class MacScheme implements SigningScheme {
  readonly participants: number;
  private readonly keys: Buffer[];
  private readonly groupKey: Buffer;

  constructor(participants: number, seed: string) {
    this.participants = participants;
    this.keys = Array.from({ length: participants }, (_, i) =>
      createHash("sha256").update(`${seed}|validator|${i}`).digest(),
    );
    this.groupKey = createHash("sha256").update(`${seed}|group`).digest();
  }

  private mac(signer: number, kind: VoteKind, round: Round, proposal: Proposal | null): Buffer {
    const key = this.keys[signer];
    if (key === undefined) throw new RangeError(`no validator ${signer}`);
    return createHmac("sha256", key)
      .update(voteMessage(NAMESPACE, kind, round, proposal))
      .digest();
  }

  seedOf(round: Round): Uint8Array {
    return createHmac("sha256", this.groupKey)
      .update(`${NAMESPACE}|seed|${round.epoch}|${round.view}`)
      .digest();
  }

  sign(signer: number, kind: VoteKind, round: Round, proposal: Proposal | null): Uint8Array {
    return this.mac(signer, kind, round, proposal);
  }

  verifyVote(vote: Vote): boolean {
    if (!Number.isInteger(vote.signer) || vote.signer < 0 || vote.signer >= this.participants) return false;
    if ((vote.kind === "nullify") !== (vote.proposal === null)) return false;
    const want = this.mac(vote.signer, vote.kind, vote.round, vote.proposal);
    return vote.signature.length === MAC_LEN && timingSafeEqual(want, vote.signature);
  }

  /** Checks each vote (HMACs have no batch shortcut); positions of the invalid ones. */
  verifyVotes(votes: readonly Vote[]): number[] {
    return votes.flatMap((v, i) => (this.verifyVote(v) ? [] : [i]));
  }

  assemble(votes: readonly Vote[]): Certificate {
    const first = votes[0];
    if (first === undefined) throw new Error("assemble: no votes");
    const bySigner = new Map<number, Vote>();
    for (const v of votes) {
      if (v.kind !== first.kind || v.round.view !== first.round.view || v.round.epoch !== first.round.epoch) {
        throw new Error("assemble: votes of different kinds or rounds");
      }
      if ((v.proposal === null) !== (first.proposal === null)) throw new Error("assemble: mixed proposals");
      if (v.proposal !== null && proposalKey(v.proposal) !== proposalKey(first.proposal as Proposal)) {
        throw new Error("assemble: votes for different proposals");
      }
      bySigner.set(v.signer, v);
    }
    if (bySigner.size < quorum(this.participants)) throw new Error("assemble: fewer votes than a quorum");
    const signers = new Uint8Array(Math.ceil(this.participants / 8));
    const parts: Uint8Array[] = [];
    for (let i = 0; i < this.participants; i++) {
      const v = bySigner.get(i);
      if (v !== undefined) {
        bitmapSet(signers, i);
        parts.push(v.signature);
      }
    }
    const signature = Buffer.concat(parts);
    const seed = first.kind === "finalize" ? null : this.seedOf(first.round);
    return { kind: first.kind, round: first.round, proposal: first.proposal, signers, signature, seed };
  }

  verifyCertificate(cert: Certificate): boolean {
    if ((cert.kind === "nullify") !== (cert.proposal === null)) return false;
    let offset = 0;
    let count = 0;
    for (let i = 0; i < this.participants; i++) {
      if (!bitmapHas(cert.signers, i)) continue;
      const part = cert.signature.subarray(offset, offset + MAC_LEN);
      offset += MAC_LEN;
      count++;
      const want = this.mac(i, cert.kind, cert.round, cert.proposal);
      if (part.length !== MAC_LEN || !timingSafeEqual(want, part)) return false;
    }
    if (offset !== cert.signature.length || count < quorum(this.participants)) return false;
    if (cert.kind === "finalize") return cert.seed === null;
    return (
      cert.seed !== null && timingSafeEqual(Buffer.from(cert.seed), Buffer.from(this.seedOf(cert.round)))
    );
  }
}
