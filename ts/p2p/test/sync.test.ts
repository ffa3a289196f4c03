import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Application,
  type BlsScheme,
  blsDevnetKeys,
  blsDevnetSchemes,
  type Certificate,
  type Clock,
  DEFAULT_TIMEOUTS,
  type FinalizedChain,
  findSafetyViolation,
  type Journal,
  type Proposal,
  type Round,
  type SyncProgress,
  type Vote,
  Voter,
} from "@cowboy/consensus";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveBlockSync, syncFromPeers } from "../src/block-sync.ts";
import { ConsensusNetwork } from "../src/consensus-network.ts";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { createNode, type P2pNode } from "../src/node.ts";
import type { ValidatorEntry } from "../src/validators.ts";
import type { BlockCodec } from "../src/wire.ts";

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

const blockCodec: BlockCodec = {
  encode: (block) => new TextEncoder().encode(JSON.stringify(block)),
  decode: (bytes) => {
    const v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as Block;
    for (const k of ["view", "height", "parentView", "proposer"] as const)
      if (!Number.isSafeInteger(v[k])) throw new Error(`bad block field ${k}`);
    if (typeof v.parent !== "string" || typeof v.beacon !== "string") throw new Error("bad block");
    return v;
  },
};

/** The chain of one node: finalized blocks by height with their certificates. */
class App implements Application, FinalizedChain {
  readonly genesis = GENESIS;
  readonly chain: Array<{ proposal: Proposal; block: Block; certificate: Certificate | null }> = [];
  private readonly me: number;
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
  verify(_p: Proposal, block: unknown, beacon: Uint8Array): boolean {
    return (block as Block).beacon === Buffer.from(beacon).toString("hex");
  }
  finalizedBlock(digest: string): unknown | null {
    return this.chain.find((c) => c.proposal.payload === digest)?.block ?? null;
  }
  finalized(proposal: Proposal, block: unknown, certificate: Certificate | null): void {
    this.chain.push({ proposal, block: block as Block, certificate });
  }
  tip(): number {
    return this.chain.length;
  }
  at(height: number) {
    const c = this.chain[height - 1];
    return c === undefined ? null : { block: c.block, certificate: c.certificate };
  }
  digests(): string[] {
    return this.chain.map((c) => c.proposal.payload);
  }
}

const clock: Clock = {
  now: () => performance.now(),
  schedule(at, fn) {
    const t = setTimeout(fn, Math.max(0, at - performance.now()));
    return () => clearTimeout(t);
  },
};

const memJournal = (): Journal => {
  const votes: Vote[] = [];
  return { append: (v) => votes.push(v), load: () => votes };
};

async function waitFor(what: string, cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

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
    const apps: App[] = Array.from({ length: n }, (_, i) => new App(i));
    const startVoter = (i: number, finalized: { view: number; digest: string; height: number }) => {
      const node = nodes[i] as P2pNode;
      const network = new ConsensusNetwork({ node, codec: blockCodec });
      const voter = new Voter({
        config: { me: i, epoch: 0, genesisSeed: new Uint8Array(32), finalized, ...DEFAULT_TIMEOUTS },
        scheme: schemes[i] as BlsScheme,
        app: apps[i] as App,
        network,
        clock,
        journal: memJournal(),
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
      for (let i = 0; i < LATE; i++) serveBlockSync(nodes[i] as P2pNode, apps[i] as App, blockCodec);
      await waitFor("mesh of the first three", () =>
        nodes.every((a) => nodes.every((b) => a === b || a.connectedPeers().includes(b.peerId))),
      );
      // three of four validators are a quorum: they finalize without the late one
      for (let i = 0; i < LATE; i++) startVoter(i, { view: 0, digest: GENESIS, height: 0 });
      await waitFor("40 finalized blocks", () => apps.slice(0, LATE).every((a) => a.tip() >= 40));

      // the late validator: connect, sync, then join
      nodes.push(await createNode({ ...common, identityPath: paths[LATE] as string, bootstrap }));
      const late = nodes[LATE] as P2pNode;
      serveBlockSync(late, apps[LATE] as App, blockCodec);
      await waitFor("late node connected", () => late.connectedPeers().length >= LATE);
      const progress: SyncProgress[] = [];
      const tip = await syncFromPeers({
        node: late,
        codec: blockCodec,
        reader: apps[LATE] as App,
        schemeFor: (epoch) => (epoch === 0 ? (schemes[LATE] as BlsScheme) : null),
        start: { height: 0, digest: GENESIS, view: 0 },
        apply: (proposal, block, certificate) => (apps[LATE] as App).finalized(proposal, block, certificate),
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
        () => (apps[LATE] as App).tip() >= joinedAt + 15,
      );
      // it votes: with validator 0 stopped, finality needs the late validator's votes
      (voters[0] as Voter).stop();
      const before = Math.max(...apps.slice(1).map((a) => a.tip()));
      await waitFor("finality without validator 0", () => apps.slice(1).every((a) => a.tip() >= before + 10));
      for (const v of voters) v.stop();
      expect(findSafetyViolation(apps.map((a) => a.digests()))).toBeNull();
      const lateHeights = (apps[LATE] as App).chain.map((c) => c.proposal.height);
      expect(lateHeights).toEqual(lateHeights.map((_, i) => i + 1));
    } finally {
      for (const v of voters) v.stop();
      await Promise.all(nodes.map((x) => x.stop()));
    }
  }, 120_000);
});
