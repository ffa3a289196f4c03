import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BlsScheme,
  blsDevnetKeys,
  blsDevnetSchemes,
  DEFAULT_TIMEOUTS,
  findSafetyViolation,
  type SyncProgress,
  Voter,
} from "@cowboy/consensus";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveBlockSync, syncFromPeers } from "../src/block-sync.ts";
import { ConsensusNetwork } from "../src/consensus-network.ts";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { createNode, type P2pNode } from "../src/node.ts";
import { systemClock } from "../src/validator.ts";
import type { ValidatorEntry } from "../src/validators.ts";
import { memoryJournal, TOY_GENESIS, ToyChain, toyBlockCodec, waitFor } from "./toy-chain.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cowboy-p2p-sync-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("block sync over libp2p, then joining consensus (BLS scheme)", () => {
  it("a validator that starts late syncs the finalized chain with certificates and then votes", async () => {
    const n = 4;
    const LATE = 3;
    const keys = blsDevnetKeys(n, 9n, createHash("sha256").update("p2p-sync").digest());
    const schemes = blsDevnetSchemes(keys);
    const paths = Array.from({ length: n }, (_, i) => join(dir, `v${i}.key`));
    const validators: ValidatorEntry[] = [];
    for (const [index, path] of paths.entries())
      validators.push({
        index,
        peerId: peerIdFromPrivateKey((await loadOrCreateIdentity(path)).key).toString(),
      });
    const common = {
      chainId: "sync-e2e",
      transports: ["quic" as const],
      validators,
      discoveryIntervalMs: 300,
    };
    const nodes: P2pNode[] = [];
    const voters: Voter[] = [];
    const apps: ToyChain[] = Array.from({ length: n }, (_, i) => new ToyChain(i));
    const startVoter = (i: number, finalized: { view: number; digest: string; height: number }) => {
      const node = nodes[i] as P2pNode;
      const network = new ConsensusNetwork({ node, codec: toyBlockCodec });
      const voter = new Voter({
        config: { me: i, epoch: 0, genesisSeed: new Uint8Array(32), finalized, ...DEFAULT_TIMEOUTS },
        scheme: schemes[i] as BlsScheme,
        app: apps[i] as ToyChain,
        network,
        clock: systemClock,
        journal: memoryJournal(),
      });
      network.onMessage((from, message) => voter.receive(from, message));
      voters.push(voter);
      voter.start();
    };
    try {
      nodes.push(await createNode({ ...common, identityPath: paths[0] as string }));
      const bootstrap = (nodes[0] as P2pNode).multiaddrs();
      for (const p of paths.slice(1, LATE))
        nodes.push(await createNode({ ...common, identityPath: p, bootstrap }));
      for (let i = 0; i < LATE; i++) serveBlockSync(nodes[i] as P2pNode, apps[i] as ToyChain, toyBlockCodec);
      await waitFor("mesh of the first three", () =>
        nodes.every((a) => nodes.every((b) => a === b || a.connectedPeers().includes(b.peerId))),
      );
      // three of four validators are a quorum: they finalize without the late one
      for (let i = 0; i < LATE; i++) startVoter(i, TOY_GENESIS);
      await waitFor("40 finalized blocks", () => apps.slice(0, LATE).every((a) => a.tip() >= 40));

      // the late validator: connect, sync, then join
      nodes.push(await createNode({ ...common, identityPath: paths[LATE] as string, bootstrap }));
      const late = nodes[LATE] as P2pNode;
      serveBlockSync(late, apps[LATE] as ToyChain, toyBlockCodec);
      await waitFor("late node connected", () => late.connectedPeers().length >= LATE);
      const progress: SyncProgress[] = [];
      const tip = await syncFromPeers({
        node: late,
        codec: toyBlockCodec,
        reader: apps[LATE] as ToyChain,
        schemeFor: (epoch) => (epoch === 0 ? (schemes[LATE] as BlsScheme) : null),
        start: TOY_GENESIS,
        apply: (proposal, block, certificate) =>
          (apps[LATE] as ToyChain).finalized(proposal, block, certificate),
        onProgress: (p) => progress.push(p),
        batch: 8,
      });
      expect(tip.height).toBeGreaterThanOrEqual(40);
      expect(progress.length).toBeGreaterThanOrEqual(5);
      expect(progress[progress.length - 1]?.height).toBe(tip.height);
      // every synced block ends a run with a verified certificate or is an ancestor of one
      expect(findSafetyViolation(apps.map((a) => a.digests()))).toBeNull();

      startVoter(LATE, { view: tip.view, digest: tip.digest, height: tip.height });
      const joinedAt = tip.height;
      await waitFor(
        "the late validator finalizes new blocks",
        () => (apps[LATE] as ToyChain).tip() >= joinedAt + 15,
      );
      // it votes: with validator 0 stopped, finality needs the late validator's votes
      (voters[0] as Voter).stop();
      const before = Math.max(...apps.slice(1).map((a) => a.tip()));
      await waitFor("finality without validator 0", () => apps.slice(1).every((a) => a.tip() >= before + 10));
      for (const v of voters) v.stop();
      expect(findSafetyViolation(apps.map((a) => a.digests()))).toBeNull();
      const lateHeights = (apps[LATE] as ToyChain).chain.map((c) => c.proposal.height);
      expect(lateHeights).toEqual(lateHeights.map((_, i) => i + 1));
    } finally {
      for (const v of voters) v.stop();
      await Promise.all(nodes.map((x) => x.stop()));
    }
  }, 120_000);
});
