/**
 * A validator process's consensus side in one call: the libp2p node (persistent identity),
 * block sync of the finalized chain from peers, then a Simplex voter with a durable signing
 * journal over {@link ConsensusNetwork}. The application (block building, execution and the
 * finalized chain store) is injected.
 *
 * Start-up order: open the node and serve block sync → wait briefly for peers → sync the
 * finalized chain (verified certificates and hash chain; a stalled sync is logged and the
 * voter catches up by itself) → open the journal → start the voter from the local tip.
 */
import { join } from "node:path";
import {
  type Application,
  type BlockReader,
  type Clock,
  DEFAULT_TIMEOUTS,
  FileJournal,
  type FinalizedChain,
  type Message,
  type Network,
  type SigningScheme,
  type SyncProgress,
  Voter,
  type VoterConfig,
  type VoterMetrics,
} from "@cowboy/consensus";
import { serveBlockSync, syncFromPeers } from "./block-sync.ts";
import { ConsensusNetwork } from "./consensus-network.ts";
import { createNode, type Logger, type NodeConfig, type P2pNode } from "./node.ts";
import type { BlockCodec } from "./wire.ts";

/** What the validator needs from the node's chain: the voter's application plus its finalized store. */
export interface ValidatorApplication extends Application, FinalizedChain, BlockReader {
  /** the latest finalized block (genesis: view 0, height 0, the genesis digest) */
  finalizedTip(): { view: number; height: number; digest: string };
}

export interface ValidatorConfig {
  /** directory for `p2p.key` (network identity) and `votes.journal` (signing journal) */
  readonly dataDir: string;
  /** network settings (identityPath defaults to `<dataDir>/p2p.key`) */
  readonly network: Omit<NodeConfig, "identityPath"> & { identityPath?: string };
  readonly app: ValidatorApplication;
  readonly codec: BlockCodec;
  /** this validator's signing scheme for the epoch (e.g. a `BlsScheme` with its keys) */
  readonly scheme: SigningScheme;
  readonly epoch: number;
  readonly genesisSeed: Uint8Array;
  /** timeouts and pacing (defaults: {@link DEFAULT_TIMEOUTS}, unpaced) */
  readonly timeouts?: Partial<
    Pick<
      VoterConfig,
      "leaderTimeoutMs" | "notarizationTimeoutMs" | "nullifyRetryMs" | "maxViewsAhead" | "minViewMs"
    >
  >;
  /** how long to wait for a first peer before syncing (default 5 s) */
  readonly peerWaitMs?: number;
  readonly onSyncProgress?: (p: SyncProgress) => void;
  readonly onFault?: ConstructorParameters<typeof Voter>[0]["onFault"];
  /** the voter's metrics hooks */
  readonly metrics?: VoterMetrics | null;
  /** observes consensus messages: each one sent (once per broadcast or send) and received */
  readonly tap?: {
    sent?(message: Message): void;
    received?(from: number, message: Message): void;
  };
  /**
   * Rewrites each outgoing consensus message into the messages actually sent (default: itself).
   * For fault-injection tests only (e.g. a validator that equivocates); never on a real network.
   */
  readonly outgoing?: (message: Message) => readonly Message[];
  readonly logger?: Logger | null;
}

/** Real time for the voter. */
export const systemClock: Clock = {
  now: () => performance.now(),
  schedule(at, fn) {
    // setTimeout counts whole milliseconds: round up so a callback never runs before `at`
    const t = setTimeout(fn, Math.max(0, Math.ceil(at - performance.now())));
    return () => clearTimeout(t);
  },
};

export interface RunningValidator {
  readonly node: P2pNode;
  readonly voter: Voter;
  readonly journal: FileJournal;
  /** the tip reached by block sync before the voter started */
  readonly syncedTo: { height: number; digest: string; view: number };
  stop(): Promise<void>;
}

/** Starts a validator (see the module comment). Throws if this node is not in the validator set. */
export async function startValidator(cfg: ValidatorConfig): Promise<RunningValidator> {
  const log = cfg.logger ?? null;
  const node = await createNode({
    ...cfg.network,
    identityPath: cfg.network.identityPath ?? join(cfg.dataDir, "p2p.key"),
  });
  try {
    serveBlockSync(node, cfg.app, cfg.codec);
    const network = new ConsensusNetwork({ node, codec: cfg.codec, logger: log });
    const me = network.me;
    if (me === null || me < 0) throw new Error(`peer ${node.peerId} is not in the validator set`);
    const deadline = Date.now() + (cfg.peerWaitMs ?? 5_000);
    while (node.connectedPeers().length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    let tip = { ...cfg.app.finalizedTip() };
    if (node.connectedPeers().length > 0) {
      try {
        tip = await syncFromPeers({
          node,
          codec: cfg.codec,
          reader: cfg.app,
          schemeFor: (epoch) => (epoch === cfg.epoch ? cfg.scheme : null),
          start: tip,
          apply: (proposal, block, certificate) => cfg.app.finalized(proposal, block, certificate),
          ...(cfg.onSyncProgress === undefined ? {} : { onProgress: cfg.onSyncProgress }),
        });
      } catch (err) {
        log?.warn("block sync stopped; the voter will catch up", { err: String(err), height: tip.height });
        tip = { ...cfg.app.finalizedTip() };
      }
    }
    const journal = new FileJournal(join(cfg.dataDir, "votes.journal"));
    const tap = cfg.tap;
    const rewrite = cfg.outgoing;
    const voterNet: Network =
      tap === undefined && rewrite === undefined
        ? network
        : {
            broadcast(message) {
              for (const m of rewrite === undefined ? [message] : rewrite(message)) {
                tap?.sent?.(m);
                network.broadcast(m);
              }
            },
            send(to, message) {
              for (const m of rewrite === undefined ? [message] : rewrite(message)) {
                tap?.sent?.(m);
                network.send(to, m);
              }
            },
          };
    const voter = new Voter({
      config: {
        me,
        epoch: cfg.epoch,
        genesisSeed: cfg.genesisSeed,
        finalized: { view: tip.view, digest: tip.digest, height: tip.height },
        ...DEFAULT_TIMEOUTS,
        ...cfg.timeouts,
      },
      scheme: cfg.scheme,
      app: cfg.app,
      network: voterNet,
      clock: systemClock,
      journal,
      metrics: cfg.metrics ?? null,
      ...(cfg.onFault === undefined ? {} : { onFault: cfg.onFault }),
    });
    network.onMessage((from, message) => {
      tap?.received?.(from, message);
      voter.receive(from, message);
    });
    voter.start();
    return {
      node,
      voter,
      journal,
      syncedTo: tip,
      async stop() {
        voter.stop();
        await node.stop();
        journal.close();
      },
    };
  } catch (err) {
    await node.stop();
    throw err;
  }
}
