import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, Vote } from "@cowboy/consensus";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConsensusNetwork } from "../src/consensus-network.ts";
import { isP2pError } from "../src/errors.ts";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { createNode, type Limits, type P2pNode, type Transport } from "../src/node.ts";
import type { ValidatorEntry } from "../src/validators.ts";
import type { BlockCodec } from "../src/wire.ts";
import { waitFor } from "./toy-chain.ts";

const codec: BlockCodec = {
  encode: (b) => new TextEncoder().encode(String(b)),
  decode: (bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
};

function vote(view: number, signer: number): Message {
  const v: Vote = {
    kind: "notarize",
    round: { epoch: 0, view },
    proposal: {
      round: { epoch: 0, view },
      height: view,
      parentView: view - 1,
      parent: "00".repeat(32),
      payload: "ab".repeat(32),
    },
    signer,
    signature: new Uint8Array([signer, view]),
  };
  return { type: "vote", vote: v };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cowboy-p2p-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Identity files and the validator set for `n` validators (created before any node starts). */
async function identities(
  tag: string,
  n: number,
): Promise<{ paths: string[]; validators: ValidatorEntry[] }> {
  const paths: string[] = [];
  const validators: ValidatorEntry[] = [];
  for (let i = 0; i < n; i++) {
    const path = join(dir, `${tag}-${i}.key`);
    const { key } = await loadOrCreateIdentity(path);
    paths.push(path);
    validators.push({ index: i, peerId: peerIdFromPrivateKey(key).toString() });
  }
  return { paths, validators };
}

interface Harness {
  nodes: P2pNode[];
  nets: ConsensusNetwork[];
  inbox: Array<Array<{ from: number; message: Message }>>;
  txs: Array<string[]>;
}

function attach(node: P2pNode, h: Harness): void {
  const i = h.nodes.length;
  h.nodes.push(node);
  const net = new ConsensusNetwork({ node, codec });
  h.nets.push(net);
  h.inbox.push([]);
  h.txs.push([]);
  net.onMessage((from, message) => h.inbox[i]?.push({ from, message }));
  node.onGossip("tx", {
    validate: (data) => (data[0] === 0xff ? "reject" : "accept"),
    deliver: (data) => h.txs[i]?.push(Buffer.from(data).toString()),
  });
}

/** Starts `n` validators; node 0 is the bootstrap node of the others. */
async function network(
  tag: string,
  transport: Transport,
  n: number,
  limits: Partial<Limits> = {},
): Promise<Harness> {
  const { paths, validators } = await identities(tag, n);
  const h: Harness = { nodes: [], nets: [], inbox: [], txs: [] };
  const common = { chainId: "test", transports: [transport], validators, discoveryIntervalMs: 300, limits };
  attach(await createNode({ ...common, identityPath: paths[0] as string }), h);
  const bootstrap = (h.nodes[0] as P2pNode).multiaddrs();
  const rest = await Promise.all(
    paths.slice(1).map((identityPath) => createNode({ ...common, identityPath, bootstrap })),
  );
  for (const node of rest) attach(node, h);
  return h;
}

async function fullMesh(nodes: P2pNode[]): Promise<void> {
  await waitFor("a full mesh", () =>
    nodes.every((a) => nodes.every((b) => a === b || a.connectedPeers().includes(b.peerId))),
  );
}

async function stopAll(nodes: P2pNode[]): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop()));
}

for (const transport of ["quic", "tcp"] as const) {
  describe(`4 validators over ${transport}`, () => {
    it("discover each other through a bootstrap node, gossip, send and broadcast", async () => {
      const h = await network(`mesh-${transport}`, transport, 4);
      const outsider = await createNode({
        chainId: "test",
        identityPath: join(dir, `outsider-${transport}.key`),
        transports: [transport],
        validators: h.nodes[0]?.validators.entries() ?? [],
        bootstrap: h.nodes[0]?.multiaddrs() ?? [],
        discoveryIntervalMs: 300,
      });
      try {
        await fullMesh(h.nodes);
        for (const a of h.nodes)
          for (const addr of a.multiaddrs())
            expect(addr).toContain(transport === "quic" ? "/quic-v1/" : "/tcp/");

        // gossip: a transaction published by node 3 reaches every other node
        const publisher = h.nodes[3] as P2pNode;
        // gossipsub sends only once its outbound stream to a subscriber is open: publish until
        // a copy went to all three (each publish is a distinct message)
        await waitFor(
          "a publish reaching 3 peers",
          async () => (await publisher.publish("tx", Buffer.from("tx-1"))) >= 3,
        );
        await waitFor("tx-1 everywhere", () => [0, 1, 2].every((i) => h.txs[i]?.includes("tx-1")));

        // send(to): only validator 2 gets it; broadcast: every other validator
        h.nets[1]?.send(2, vote(1, 1));
        h.nets[1]?.broadcast(vote(2, 1));
        await waitFor("broadcast everywhere", () =>
          [0, 2, 3].every((i) =>
            h.inbox[i]?.some((m) => m.message.type === "vote" && m.message.vote.round.view === 2),
          ),
        );
        // frames to one peer arrive in order, so the direct vote (sent first) has arrived by now if at all
        const direct = (i: number) =>
          h.inbox[i]?.filter((m) => m.message.type === "vote" && m.message.vote.round.view === 1);
        expect(direct(2)).toEqual([{ from: 1, message: vote(1, 1) }]);
        expect(direct(0)).toEqual([]);
        expect(direct(3)).toEqual([]);
        expect(h.inbox[1]).toEqual([]);
        for (const i of [0, 2, 3]) expect(h.inbox[i]?.filter((m) => m.from !== 1)).toEqual([]);
        expect(() => h.nets[1]?.send(9, vote(3, 1))).toThrowError(/UNKNOWN_VALIDATOR/);

        // a non-validator peer: its consensus frames are dropped (and it is penalized),
        // but it still gossips transactions
        const target = h.nodes[0] as P2pNode;
        await waitFor("outsider connected", () => target.connectedPeers().includes(outsider.peerId));
        const before = h.inbox[0]?.length ?? 0;
        outsider.sendConsensus(target.peerId, new Uint8Array([1, 2, 3]));
        await waitFor("outsider penalized", () => target.score(outsider.peerId) < 0);
        expect(h.inbox[0]?.length).toBe(before);
        await waitFor(
          "outsider publish sent",
          async () => (await outsider.publish("tx", Buffer.from("tx-outsider"))) >= 1,
        );
        await waitFor("outsider tx everywhere", () =>
          [0, 1, 2, 3].every((i) => h.txs[i]?.includes("tx-outsider")),
        );
      } finally {
        await stopAll([...h.nodes, outsider]);
      }
    });
  });
}

describe("misbehaving peers", () => {
  it("garbage consensus bytes get the sender penalized and then disconnected", async () => {
    const { paths, validators } = await identities("garbage", 2);
    const events: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: (msg: string) => events.push(`log:${msg}`),
      error: (msg: string) => events.push(`error:${msg}`),
    };
    const metrics = {
      peers: () => {},
      messageIn: () => {},
      messageOut: () => {},
      penalty: (_p: string, reason: string) => events.push(`penalty:${reason}`),
      banned: () => events.push("banned"),
    };
    const common = { chainId: "test", transports: ["quic" as const], validators, discoveryIntervalMs: 300 };
    const victim = await createNode({ ...common, identityPath: paths[0] as string, logger, metrics });
    const attacker = await createNode({
      ...common,
      identityPath: paths[1] as string,
      bootstrap: victim.multiaddrs(),
    });
    const received: Message[] = [];
    new ConsensusNetwork({ node: victim, codec }).onMessage((_from, m) => received.push(m));
    victim.onSync((req) => req);
    try {
      await fullMesh([victim, attacker]);
      // the sync protocol works while the attacker is in good standing
      expect(await attacker.requestSync(victim.peerId, Uint8Array.from([4]))).toEqual(Uint8Array.from([4]));
      attacker.sendConsensus(victim.peerId, new Uint8Array([9, 9, 9]));
      await waitFor("penalty", () => victim.score(attacker.peerId) < 0);
      expect(victim.isBanned(attacker.peerId)).toBe(false);
      for (let i = 0; i < 3; i++) attacker.sendConsensus(victim.peerId, new Uint8Array([1, 77, i]));
      await waitFor("ban", () => victim.isBanned(attacker.peerId));
      await waitFor("disconnect", () => !victim.connectedPeers().includes(attacker.peerId));
      expect(received).toEqual([]);
      expect(events).toContain("penalty:undecodable consensus message (WIRE_BAD_VERSION)");
      expect(events).toContain("banned");
      expect(events).toContain("log:peer banned");
      // the banned peer is refused while the ban lasts
      const err = await attacker
        .requestSync(victim.peerId, Uint8Array.from([4]), 10_000)
        .catch((e: unknown) => e);
      expect(isP2pError(err, "SYNC_FAILED")).toBe(true);
      expect(victim.connectedPeers()).not.toContain(attacker.peerId);
    } finally {
      await stopAll([victim, attacker]);
    }
  });

  it("an oversize frame gets the sender banned; rejected gossip lowers its score", async () => {
    const { paths, validators } = await identities("oversize", 3);
    const common = { chainId: "test", transports: ["tcp" as const], validators, discoveryIntervalMs: 300 };
    const victim = await createNode({
      ...common,
      identityPath: paths[0] as string,
      limits: { maxConsensusFrameBytes: 64 * 1024 },
    });
    const big = await createNode({
      ...common,
      identityPath: paths[1] as string,
      bootstrap: victim.multiaddrs(),
      limits: { maxConsensusFrameBytes: 1024 * 1024 },
    });
    const gossiper = await createNode({
      ...common,
      identityPath: paths[2] as string,
      bootstrap: victim.multiaddrs(),
    });
    const delivered: string[] = [];
    victim.onGossip("tx", {
      validate: (data) => (data[0] === 0xff ? "reject" : "accept"),
      deliver: (data) => delivered.push(Buffer.from(data).toString()),
    });
    gossiper.onGossip("tx", { validate: () => "accept", deliver: () => {} });
    try {
      await fullMesh([victim, big]);
      expect(big.sendConsensus(victim.peerId, new Uint8Array(100 * 1024))).toBe(true);
      await waitFor("oversize ban", () => victim.isBanned(big.peerId));
      await waitFor("oversize disconnect", () => !victim.connectedPeers().includes(big.peerId));

      await waitFor("gossiper subscribed", () => gossiper.topicPeers("tx").includes(victim.peerId));
      await waitFor(
        "bad tx sent",
        async () => (await gossiper.publish("tx", Uint8Array.from([0xff, 1]))) >= 1,
      );
      await waitFor("reject penalty", () => victim.score(gossiper.peerId) < 0);
      expect(delivered).toEqual([]);
      expect(victim.isBanned(gossiper.peerId)).toBe(false);
    } finally {
      await stopAll([victim, big, gossiper]);
    }
  });
});

describe("validator set changes", () => {
  it("a peer removed from the set can no longer deliver consensus messages", async () => {
    const h = await network("setchange", "tcp", 2);
    const [a, b] = h.nodes as [P2pNode, P2pNode];
    try {
      await fullMesh(h.nodes);
      h.nets[1]?.send(0, vote(1, 1));
      await waitFor("first vote", () => h.inbox[0]?.length === 1);
      expect(h.nets[0]?.me).toBe(0);
      // validator 1 leaves the set (as seen by node 0)
      a.setValidators([{ index: 0, peerId: a.peerId }]);
      expect(a.validators.indexOf(b.peerId)).toBeNull();
      // its open stream is cut (no penalty: leaving the set is not misbehaviour); a new
      // stream it opens is a non-validator's, which is penalized. Keep sending until then.
      let view = 2;
      await waitFor("the former validator penalized", () => {
        h.nets[1]?.send(0, vote(view++, 1));
        return a.score(b.peerId) < 0;
      });
      expect(h.inbox[0]).toEqual([{ from: 1, message: vote(1, 1) }]);
      // it is still a peer: it may gossip transactions
      expect(a.connectedPeers()).toContain(b.peerId);
    } finally {
      await stopAll(h.nodes);
    }
  });
});

describe("block sync", () => {
  it("answers requests, and rejects oversize responses with SYNC_FAILED", async () => {
    const { paths, validators } = await identities("sync", 2);
    const common = { chainId: "test", transports: ["quic" as const], validators, discoveryIntervalMs: 300 };
    const server = await createNode({ ...common, identityPath: paths[0] as string });
    const client = await createNode({
      ...common,
      identityPath: paths[1] as string,
      bootstrap: server.multiaddrs(),
      limits: { maxSyncResponseBytes: 1000 },
    });
    const seen: Array<number | null> = [];
    server.onSync((req, from) => {
      seen.push(from.validator);
      return req[0] === 0 ? new Uint8Array(5000) : Uint8Array.from([...req].reverse());
    });
    try {
      expect(await client.requestSync(server.peerId, Uint8Array.from([1, 2, 3]))).toEqual(
        Uint8Array.from([3, 2, 1]),
      );
      expect(seen).toEqual([1]);
      const err = await client.requestSync(server.peerId, Uint8Array.from([0])).catch((e: unknown) => e);
      expect(isP2pError(err, "SYNC_FAILED")).toBe(true);
      // an oversize response is the worst offence: the responder is banned at once
      expect(client.isBanned(server.peerId)).toBe(true);
    } finally {
      await stopAll([server, client]);
    }
  });
});

describe("identity", () => {
  it("a restarted node keeps its peer id and reconnects", async () => {
    const { paths, validators } = await identities("restart", 2);
    const common = { chainId: "test", transports: ["quic" as const], validators, discoveryIntervalMs: 300 };
    const boot = await createNode({ ...common, identityPath: paths[0] as string });
    const bootNet = new ConsensusNetwork({ node: boot, codec });
    const got: Message[] = [];
    bootNet.onMessage((from, m) => {
      if (from === 1) got.push(m);
    });
    let node = await createNode({
      ...common,
      identityPath: paths[1] as string,
      bootstrap: boot.multiaddrs(),
    });
    const firstId = node.peerId;
    try {
      expect(firstId).toBe(validators[1]?.peerId);
      await fullMesh([boot, node]);
      await node.stop();
      await waitFor("disconnect seen", () => !boot.connectedPeers().includes(firstId));
      node = await createNode({ ...common, identityPath: paths[1] as string, bootstrap: boot.multiaddrs() });
      expect(node.peerId).toBe(firstId);
      await fullMesh([boot, node]);
      new ConsensusNetwork({ node, codec }).send(0, vote(5, 1));
      await waitFor("message after restart", () => got.length === 1);
      expect(got).toEqual([vote(5, 1)]);
    } finally {
      await stopAll([boot, node]);
    }
  });

  it("refuses a corrupt identity file and bad configuration with typed errors", async () => {
    const path = join(dir, "corrupt.key");
    await writeFile(path, "not a key");
    const err = await createNode({ chainId: "test", identityPath: path }).catch((e: unknown) => e);
    expect(isP2pError(err, "IDENTITY_INVALID")).toBe(true);
    const bad = await createNode({ chainId: "bad chain", identityPath: path }).catch((e: unknown) => e);
    expect(isP2pError(bad, "CONFIG_INVALID")).toBe(true);
    const dup = await createNode({
      chainId: "t",
      identityPath: join(dir, "dup.key"),
      validators: [
        { index: 0, peerId: "12D3KooWGpwpCtUryNvSMfNAEvWr6PqCAydsNBDGMdm1zevEs7tZ" },
        { index: 1, peerId: "12D3KooWGpwpCtUryNvSMfNAEvWr6PqCAydsNBDGMdm1zevEs7tZ" },
      ],
    }).catch((e: unknown) => e);
    expect(isP2pError(dup, "CONFIG_INVALID")).toBe(true);
  });
});
