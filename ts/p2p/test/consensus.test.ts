import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Application,
  type Clock,
  DEFAULT_TIMEOUTS,
  type Journal,
  MacScheme,
  type Proposal,
  type Round,
  type Vote,
  Voter,
} from "@cowboy/consensus";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConsensusNetwork } from "../src/consensus-network.ts";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { createNode, type P2pNode } from "../src/node.ts";
import type { ValidatorEntry } from "../src/validators.ts";
import type { BlockCodec } from "../src/wire.ts";

/** A minimal chain: a block names its view, its parent and its proposer. */
interface Block {
  view: number;
  height: number;
  parentView: number;
  parent: string;
  proposer: number;
  beacon: string;
}

const GENESIS = "00".repeat(32);
const digestOf = (b: Block) =>
  createHash("sha256")
    .update(`${b.view}|${b.height}|${b.parentView}|${b.parent}|${b.proposer}|${b.beacon}`)
    .digest("hex");

/** Blocks as JSON; decoding checks the shape so a malformed block is a codec error. */
const blockCodec: BlockCodec = {
  encode: (block) => new TextEncoder().encode(JSON.stringify(block)),
  decode: (bytes) => {
    const v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as Block;
    for (const k of ["view", "height", "parentView", "proposer"] as const)
      if (!Number.isSafeInteger(v[k])) throw new Error(`bad block field ${k}`);
    if (typeof v.parent !== "string" || typeof v.beacon !== "string") throw new Error("bad parent");
    return v;
  },
};

class App implements Application {
  readonly genesis = GENESIS;
  readonly final: Array<{ view: number; digest: string }> = [];
  private readonly me: number;
  private readonly blocks = new Map<string, Block>();
  constructor(me: number) {
    this.me = me;
  }
  propose(round: Round, parent: { view: number; digest: string; height: number }, beacon: Uint8Array) {
    const block: Block = {
      view: round.view,
      height: parent.height + 1,
      parentView: parent.view,
      parent: parent.digest,
      proposer: this.me,
      beacon: Buffer.from(beacon).toString("hex"),
    };
    return { digest: digestOf(block), block };
  }
  digest(block: unknown): string {
    return digestOf(block as Block);
  }
  link(block: unknown) {
    const b = block as Block;
    return { view: b.view, height: b.height, parentView: b.parentView, parent: b.parent };
  }
  verify(_proposal: Proposal, block: unknown, beacon: Uint8Array): boolean {
    return (block as Block).beacon === Buffer.from(beacon).toString("hex");
  }
  finalizedBlock(digest: string): unknown | null {
    return this.blocks.get(digest) ?? null;
  }
  finalized(proposal: Proposal, block: unknown): void {
    this.blocks.set(proposal.payload, block as Block);
    this.final.push({ view: proposal.round.view, digest: proposal.payload });
  }
}

const clock: Clock = {
  now: () => performance.now(),
  schedule(at, fn) {
    const t = setTimeout(fn, Math.max(0, at - performance.now()));
    return () => clearTimeout(t);
  },
};

class MemJournal implements Journal {
  private readonly votes: Vote[] = [];
  append(vote: Vote): void {
    this.votes.push(vote);
  }
  load(): readonly Vote[] {
    return this.votes;
  }
}

async function waitFor(what: string, cond: () => boolean, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

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
    const apps: App[] = [];
    try {
      await waitFor("full mesh", () =>
        nodes.every((a) => nodes.every((b) => a === b || a.connectedPeers().includes(b.peerId))),
      );
      for (let i = 0; i < n; i++) {
        const node = nodes[i] as P2pNode;
        const network = new ConsensusNetwork({ node, codec: blockCodec });
        expect(network.me).toBe(i);
        const app = new App(i);
        const voter = new Voter({
          config: {
            me: i,
            epoch: 0,
            genesisSeed: new Uint8Array(32),
            finalized: { view: 0, digest: GENESIS, height: 0 },
            ...DEFAULT_TIMEOUTS,
          },
          scheme: new MacScheme(n, "p2p-e2e"),
          app,
          network,
          clock,
          journal: new MemJournal(),
        });
        network.onMessage((from, message) => voter.receive(from, message));
        apps.push(app);
        voters.push(voter);
      }
      for (const v of voters) v.start();
      await waitFor("20 finalized blocks everywhere", () => apps.every((a) => a.final.length >= 20));
      for (const v of voters) v.stop();
      // safety: the common prefix is identical on every validator
      const len = Math.min(...apps.map((a) => a.final.length));
      const reference = apps[0]?.final.slice(0, len);
      for (const a of apps) expect(a.final.slice(0, len)).toEqual(reference);
    } finally {
      for (const v of voters) v.stop();
      await Promise.all(nodes.map((x) => x.stop()));
    }
  });
});
