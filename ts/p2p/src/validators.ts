/**
 * The validator set as the network sees it: validator index ↔ libp2p peer id.
 *
 * Consensus identifies validators by index; the network by peer id. This map binds them
 * (today from configuration, later from on-chain registration). Indices and peer ids are
 * each unique; a peer id not in the set is not a validator.
 */
import { peerIdFromString } from "@libp2p/peer-id";
import { P2pError } from "./errors.ts";

/** One validator's network identity. */
export interface ValidatorEntry {
  readonly index: number;
  /** the validator's libp2p peer id (base58 / CID string) */
  readonly peerId: string;
}

/** Immutable index ↔ peer id binding; replace it as a whole when the set changes. */
export class ValidatorSet {
  private readonly byIndex = new Map<number, string>();
  private readonly byPeer = new Map<string, number>();

  /** Throws `CONFIG_INVALID` for a bad index or peer id, or a duplicate of either. */
  constructor(entries: readonly ValidatorEntry[]) {
    for (const e of entries) {
      if (!Number.isSafeInteger(e.index) || e.index < 0)
        throw new P2pError("CONFIG_INVALID", `validator index ${e.index} is not a non-negative integer`, {
          index: e.index,
        });
      let canonical: string;
      try {
        canonical = peerIdFromString(e.peerId).toString();
      } catch (err) {
        throw new P2pError(
          "CONFIG_INVALID",
          `validator ${e.index} has an invalid peer id`,
          { index: e.index },
          err,
        );
      }
      if (this.byIndex.has(e.index))
        throw new P2pError("CONFIG_INVALID", `validator index ${e.index} appears twice`, { index: e.index });
      if (this.byPeer.has(canonical))
        throw new P2pError("CONFIG_INVALID", `peer id ${canonical} is bound to two validator indices`, {
          peerId: canonical,
        });
      this.byIndex.set(e.index, canonical);
      this.byPeer.set(canonical, e.index);
    }
  }

  get size(): number {
    return this.byIndex.size;
  }

  /** The validator index of `peerId`, or null if it is not a validator. */
  indexOf(peerId: string): number | null {
    return this.byPeer.get(peerId) ?? null;
  }

  /** The peer id of validator `index`, or null if there is none. */
  peerOf(index: number): string | null {
    return this.byIndex.get(index) ?? null;
  }

  /** All entries in index order. */
  entries(): ValidatorEntry[] {
    return [...this.byIndex.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, peerId]) => ({ index, peerId }));
  }
}
