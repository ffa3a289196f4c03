import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_TIMEOUTS, MacScheme, Voter } from "@cowboy/consensus";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConsensusNetwork } from "../src/consensus-network.ts";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { createNode, type P2pNode } from "../src/node.ts";
import { systemClock } from "../src/validator.ts";
import type { ValidatorEntry } from "../src/validators.ts";
import { memoryJournal, TOY_GENESIS, ToyChain, toyBlockCodec, waitFor } from "./toy-chain.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cowboy-p2p-consensus-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Simplex voters over libp2p", () => {
  it("4 validators over QUIC finalize the same chain of 20+ blocks", async () => {
    const n = 4;
    const paths = Array.from({ length: n }, (_, i) => join(dir, `v${i}.key`));
    const validators: ValidatorEntry[] = [];
    for (const [index, path] of paths.entries())
      validators.push({
        index,
        peerId: peerIdFromPrivateKey((await loadOrCreateIdentity(path)).key).toString(),
      });
    const common = { chainId: "e2e", transports: ["quic" as const], validators, discoveryIntervalMs: 300 };
    const first = await createNode({ ...common, identityPath: paths[0] as string });
    const nodes: P2pNode[] = [first];
    for (const p of paths.slice(1))
      nodes.push(await createNode({ ...common, identityPath: p, bootstrap: first.multiaddrs() }));
    const voters: Voter[] = [];
    const apps: ToyChain[] = [];
    try {
      await waitFor("full mesh", () =>
        nodes.every((a) => nodes.every((b) => a === b || a.connectedPeers().includes(b.peerId))),
      );
      for (let i = 0; i < n; i++) {
        const node = nodes[i] as P2pNode;
        const network = new ConsensusNetwork({ node, codec: toyBlockCodec });
        expect(network.me).toBe(i);
        const app = new ToyChain(i);
        const voter = new Voter({
          config: {
            me: i,
            epoch: 0,
            genesisSeed: new Uint8Array(32),
            finalized: TOY_GENESIS,
            ...DEFAULT_TIMEOUTS,
          },
          scheme: new MacScheme(n, "p2p-e2e"),
          app,
          network,
          clock: systemClock,
          journal: memoryJournal(),
        });
        network.onMessage((from, message) => voter.receive(from, message));
        apps.push(app);
        voters.push(voter);
      }
      for (const v of voters) v.start();
      await waitFor("20 finalized blocks everywhere", () => apps.every((a) => a.tip() >= 20));
      for (const v of voters) v.stop();
      // safety: the common prefix is identical on every validator
      const len = Math.min(...apps.map((a) => a.tip()));
      const reference = apps[0]?.digests().slice(0, len);
      for (const a of apps) expect(a.digests().slice(0, len)).toEqual(reference);
    } finally {
      for (const v of voters) v.stop();
      await Promise.all(nodes.map((x) => x.stop()));
    }
  }, 120_000);
});
