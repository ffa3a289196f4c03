/**
 * Block sync over `/cowboy/sync/1`: serving the local finalized chain to peers and fetching
 * it from them (the verification rules are in `@cowboy/consensus` `syncBlocks`).
 *
 * A node that starts late calls {@link syncFromPeers} with its current tip, which requests
 * runs of finalized blocks ending in a finalization certificate from its connected peers,
 * verifies each run (certificate under the epoch's validator set, hash chain to our tip),
 * applies it, reports progress, and returns the new tip — from which the node's voter then
 * starts. A peer whose response does not decode or does not verify is penalized.
 */
import {
  type BlockReader,
  type Certificate,
  type FinalizedChain,
  type Proposal,
  type SigningScheme,
  type SyncProgress,
  type SyncSource,
  serveSync,
  syncBlocks,
} from "@cowboy/consensus";
import { isP2pError } from "./errors.ts";
import type { P2pNode } from "./node.ts";
import { PENALTY } from "./scores.ts";
import {
  type BlockCodec,
  decodeSyncRequest,
  decodeSyncResponse,
  encodeSyncRequest,
  encodeSyncResponse,
} from "./wire.ts";

/** Default cap on a response's size, below the node's `maxSyncResponseBytes` (16 MiB). */
const MAX_RESPONSE_BYTES = 15 * 1024 * 1024;

/**
 * Answers peers' sync requests from `chain`. A request that does not decode penalizes the
 * requester; a run too large for one response is halved until it fits.
 */
export function serveBlockSync(node: P2pNode, chain: FinalizedChain, codec: BlockCodec): void {
  node.onSync((bytes, from) => {
    let req: { from: number; max: number };
    try {
      req = decodeSyncRequest(bytes);
    } catch (err) {
      node.penalize(from.peerId, PENALTY.undecodable, "undecodable sync request");
      throw err;
    }
    let max = req.max;
    for (;;) {
      const res = serveSync(chain, req.from, max);
      try {
        return encodeSyncResponse(res, codec, MAX_RESPONSE_BYTES);
      } catch (err) {
        if (!isP2pError(err, "WIRE_TOO_LARGE") || max <= 1) throw err;
        max = Math.floor(Math.min(max, res.blocks.length) / 2);
      }
    }
  });
}

/** A {@link SyncSource} for one peer; undecodable responses penalize it. */
export function peerSyncSource(node: P2pNode, peerId: string, codec: BlockCodec): SyncSource {
  return {
    id: peerId,
    async request(from, max) {
      const bytes = await node.requestSync(peerId, encodeSyncRequest({ from, max }));
      try {
        return decodeSyncResponse(bytes, codec);
      } catch (err) {
        node.penalize(peerId, PENALTY.undecodable, "undecodable sync response");
        throw err;
      }
    },
  };
}

export interface SyncFromPeersOptions {
  readonly node: P2pNode;
  readonly codec: BlockCodec;
  readonly reader: BlockReader;
  readonly schemeFor: (epoch: number) => SigningScheme | null;
  readonly start: { height: number; digest: string; view: number };
  readonly apply: (
    proposal: Proposal,
    block: unknown,
    certificate: Certificate | null,
  ) => void | Promise<void>;
  readonly onProgress?: (p: SyncProgress) => void;
  /** peers to ask (default: every connected peer) */
  readonly peers?: readonly string[];
  readonly batch?: number;
}

/** Syncs the finalized chain from peers; returns the new tip (see `syncBlocks`). */
export function syncFromPeers(
  opts: SyncFromPeersOptions,
): Promise<{ height: number; digest: string; view: number }> {
  const peers = opts.peers ?? opts.node.connectedPeers();
  return syncBlocks({
    sources: peers.map((p) => peerSyncSource(opts.node, p, opts.codec)),
    reader: opts.reader,
    schemeFor: opts.schemeFor,
    start: opts.start,
    apply: opts.apply,
    ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
    ...(opts.batch === undefined ? {} : { batch: opts.batch }),
    onBadSource: (id, reason) =>
      opts.node.penalize(id, PENALTY.invalidSync, `invalid sync response (${reason})`),
  });
}
