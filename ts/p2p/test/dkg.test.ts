/**
 * The DKG channel of the p2p node (`/cowboy/<chain>/dkg/1`): the gossip topic and the direct
 * protocol. Direct DKG frames are accepted from any connected peer (a joining validator is not
 * in the validator set yet), bounded by `maxDkgFrameBytes`; an oversize frame penalizes its
 * sender.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { createNode, dkgProtocol, type P2pNode, type PeerInfo, topics } from "../src/node.ts";
import { waitFor } from "./toy-chain.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cowboy-p2p-dkg-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("DKG channel", () => {
  it("names the topic and protocol per chain", () => {
    expect(dkgProtocol("cowboy-7")).toBe("/cowboy/cowboy-7/dkg/1");
    expect(topics("cowboy-7").dkg).toBe("/cowboy/cowboy-7/dkg/1");
  });

  it("carries gossip and direct frames between a validator and a non-validator, and penalizes oversize frames", async () => {
    const vKey = await loadOrCreateIdentity(join(dir, "v0.key"));
    const validators = [{ index: 0, peerId: peerIdFromPrivateKey(vKey.key).toString() }];
    const common = { chainId: "dkgtest", transports: ["tcp" as const], validators, discoveryIntervalMs: 300 };
    const limits = { maxDkgFrameBytes: 4096 };
    const v = await createNode({ ...common, identityPath: join(dir, "v0.key"), limits });
    const joiner = await createNode({
      ...common,
      identityPath: join(dir, "joiner.key"),
      bootstrap: v.multiaddrs(),
      limits,
    });
    const nodes: P2pNode[] = [v, joiner];
    try {
      const direct: Array<{ at: string; data: string; from: PeerInfo }> = [];
      const gossip: Array<{ at: string; data: string }> = [];
      for (const n of nodes) {
        n.onDkg((frame, from) => direct.push({ at: n.peerId, data: Buffer.from(frame).toString(), from }));
        n.onGossip("dkg", {
          validate: (data) => (data[0] === 0xff ? "reject" : "accept"),
          deliver: (data) => gossip.push({ at: n.peerId, data: Buffer.from(data).toString() }),
        });
      }
      await waitFor("connected", () => v.connectedPeers().includes(joiner.peerId));
      // direct, both ways: the joiner is not a validator and is still heard
      expect(joiner.sendDkg(v.peerId, Buffer.from("deal-1"))).toBe(true);
      expect(v.sendDkg(joiner.peerId, Buffer.from("ack-1"))).toBe(true);
      await waitFor("direct frames", () => direct.length === 2);
      expect(direct).toContainEqual({
        at: v.peerId,
        data: "deal-1",
        from: { peerId: joiner.peerId, validator: null },
      });
      expect(direct).toContainEqual({
        at: joiner.peerId,
        data: "ack-1",
        from: { peerId: v.peerId, validator: 0 },
      });
      expect(v.sendDkg(v.peerId, Buffer.from("self"))).toBe(false);
      // gossip on the DKG topic
      await waitFor("hello published", async () => (await joiner.publish("dkg", Buffer.from("hello"))) >= 1);
      await waitFor("hello delivered", () => gossip.some((g) => g.at === v.peerId && g.data === "hello"));
      // the sender refuses to send an oversize frame; a peer with a larger limit that sends one
      // anyway is penalized by the receiver
      expect(() => joiner.sendDkg(v.peerId, Buffer.alloc(5000))).toThrowError(/FRAME_TOO_LARGE/);
      const big = await createNode({
        ...common,
        identityPath: join(dir, "big.key"),
        bootstrap: v.multiaddrs(),
        limits: { maxDkgFrameBytes: 1 << 20 },
      });
      nodes.push(big);
      await waitFor("big connected", () => v.connectedPeers().includes(big.peerId));
      big.sendDkg(v.peerId, Buffer.alloc(5000, 1));
      await waitFor("oversize sender banned", () => v.isBanned(big.peerId));
      expect(direct.filter((d) => d.from.peerId === big.peerId)).toEqual([]);
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
  });
});
