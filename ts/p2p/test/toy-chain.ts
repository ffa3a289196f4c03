/**
 * A toy application for running real voters over the network in tests and benchmarks: the
 * consensus simulator's {@link SimBlock}s (view, height, parent link, proposer, beacon), sent
 * as JSON with a strict shape check, kept in memory with their certificates so the chain can
 * also serve block sync.
 */
import {
  type Application,
  blockDigest,
  type Certificate,
  type FinalizedChain,
  GENESIS_DIGEST,
  type Journal,
  type Proposal,
  type Round,
  type SimBlock,
  type Vote,
} from "@cowboy/consensus";
import type { BlockCodec } from "../src/wire.ts";

/** The finalized tip every toy chain starts from. */
export const TOY_GENESIS = { view: 0, digest: GENESIS_DIGEST, height: 0 } as const;

/** {@link SimBlock}s as JSON; a block of the wrong shape is a codec error. */
export const toyBlockCodec: BlockCodec = {
  encode: (block) => new TextEncoder().encode(JSON.stringify(block)),
  decode: (bytes) => {
    const v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as SimBlock;
    for (const k of ["view", "height", "parentView", "proposer"] as const)
      if (!Number.isSafeInteger(v[k])) throw new Error(`bad block field ${k}`);
    for (const k of ["parent", "payload", "beacon"] as const)
      if (typeof v[k] !== "string") throw new Error(`bad block field ${k}`);
    return v;
  },
};

/** One validator's chain: proposes blocks carrying the beacon, keeps what it finalized. */
export class ToyChain implements Application, FinalizedChain {
  readonly genesis = GENESIS_DIGEST;
  readonly chain: Array<{ proposal: Proposal; block: SimBlock; certificate: Certificate | null }> = [];
  private readonly me: number;
  /** called with each block this validator proposes (e.g. to time finality) */
  onPropose: ((digest: string) => void) | null = null;
  constructor(me: number) {
    this.me = me;
  }
  propose(round: Round, parent: { view: number; digest: string; height: number }, beacon: Uint8Array) {
    const block: SimBlock = {
      view: round.view,
      height: parent.height + 1,
      parentView: parent.view,
      parent: parent.digest,
      proposer: this.me,
      payload: `txs@${round.view}`,
      beacon: Buffer.from(beacon).toString("hex"),
    };
    const digest = blockDigest(block);
    this.onPropose?.(digest);
    return { digest, block };
  }
  digest(block: unknown): string {
    return blockDigest(block as SimBlock);
  }
  link(block: unknown) {
    const b = block as SimBlock;
    return { view: b.view, height: b.height, parentView: b.parentView, parent: b.parent };
  }
  verify(_proposal: Proposal, block: unknown, beacon: Uint8Array): boolean {
    return (block as SimBlock).beacon === Buffer.from(beacon).toString("hex");
  }
  finalizedBlock(digest: string): unknown | null {
    return this.chain.find((c) => c.proposal.payload === digest)?.block ?? null;
  }
  finalized(proposal: Proposal, block: unknown, certificate: Certificate | null): void {
    this.chain.push({ proposal, block: block as SimBlock, certificate });
  }
  /** height of the last finalized block */
  tip(): number {
    return this.chain.length;
  }
  at(height: number) {
    const c = this.chain[height - 1];
    return c === undefined ? null : { block: c.block, certificate: c.certificate };
  }
  /** finalized block digests, by height from 1 */
  digests(): string[] {
    return this.chain.map((c) => c.proposal.payload);
  }
}

/** A vote journal that forgets everything on restart (tests without crashes only). */
export function memoryJournal(): Journal {
  const votes: Vote[] = [];
  return { append: (v) => votes.push(v), load: () => votes };
}

/**
 * Polls `cond` every 25 ms until it holds (no fixed sleeps: the condition is the event we wait
 * for); rejects naming `what` after `timeoutMs`.
 */
export async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
