/**
 * Leader election: the leader of view v is drawn from the seed of round v-1 (the
 * randomness of the previous round, carried by its notarization or nullification
 * certificate), so it cannot be predicted before that round ends and rotates every view.
 * View 1 of an epoch uses the epoch's genesis seed.
 */
import { createHash } from "node:crypto";

export function electLeader(view: number, previousSeed: Uint8Array, participants: number): number {
  const h = createHash("sha256")
    .update("cowboy-leader-v1|")
    .update(String(view))
    .update("|")
    .update(previousSeed)
    .digest();
  return Number(h.readBigUInt64BE(0) % BigInt(participants));
}
