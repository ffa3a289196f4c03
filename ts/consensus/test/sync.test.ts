import { describe, expect, it } from "vitest";
import {
  type Certificate,
  type FinalizedChain,
  GENESIS_DIGEST,
  type Proposal,
  type SimBlock,
  Simulation,
  SyncError,
  type SyncedBlock,
  type SyncProgress,
  type SyncRejection,
  type SyncSource,
  serveSync,
  simBlockReader,
  syncBlocks,
} from "../src/index.ts";

const sim = new Simulation({ seed: 12, validators: 4 });
sim.start();
sim.run(20_000);
const served = sim.finalizedBlocksOf(0);

const chain: FinalizedChain = {
  tip: () => served.length,
  at: (h) => {
    const f = served[h - 1];
    return f === undefined ? null : { block: f.block, certificate: f.certificate };
  },
};

function source(id: string, tamper: (blocks: SyncedBlock[]) => SyncedBlock[] = (b) => b): SyncSource {
  return {
    id,
    request: async (from, max) => {
      const res = serveSync(chain, from, max);
      return { tip: res.tip, blocks: tamper([...res.blocks]) };
    },
  };
}

async function syncWith(sources: SyncSource[]) {
  const applied: Array<{ proposal: Proposal; cert: Certificate | null }> = [];
  const progress: SyncProgress[] = [];
  const bad: Array<[string, SyncRejection]> = [];
  const tip = await syncBlocks({
    sources,
    reader: simBlockReader,
    schemeFor: (epoch) => (epoch === 0 ? (sim.schemes[0] ?? null) : null),
    start: { height: 0, digest: GENESIS_DIGEST, view: 0 },
    apply: (proposal, _block, cert) => {
      applied.push({ proposal, cert });
    },
    onProgress: (p) => progress.push(p),
    onBadSource: (id, reason) => bad.push([id, reason]),
    batch: 16,
  });
  return { tip, applied, progress, bad };
}

describe("block sync", () => {
  it("serves runs that end in a certified block", () => {
    expect(served.length).toBeGreaterThan(100);
    const res = serveSync(chain, 1, 16);
    expect(res.tip).toBe(served.length);
    expect(res.blocks.length).toBeGreaterThan(0);
    expect(res.blocks.length).toBeLessThanOrEqual(16 + 4 * 256);
    expect(res.blocks[res.blocks.length - 1]?.certificate?.kind).toBe("finalize");
    expect(serveSync(chain, served.length + 1, 16).blocks).toEqual([]);
    expect(serveSync(chain, 0, 16).blocks).toEqual([]);
  });

  it("a late node fetches, verifies and applies the whole finalized chain, reporting progress", async () => {
    const { tip, applied, progress, bad } = await syncWith([source("honest")]);
    expect(bad).toEqual([]);
    expect(tip.height).toBe(served.length);
    expect(applied.map((a) => a.proposal.payload)).toEqual(served.map((s) => s.proposal.payload));
    expect(applied.map((a) => a.proposal.height)).toEqual(served.map((_, i) => i + 1));
    expect(progress.length).toBeGreaterThan(5);
    expect(progress.map((p) => p.height)).toEqual([...progress.map((p) => p.height)].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toMatchObject({ height: served.length, target: served.length });
  });

  it("refuses tampered runs, reports the peer and uses an honest one", async () => {
    const flip = (c: Certificate): Certificate => {
      const signature = Uint8Array.from(c.signature);
      signature[0] = (signature[0] as number) ^ 1;
      return { ...c, signature };
    };
    const lastCert = (blocks: SyncedBlock[], f: (c: Certificate) => Certificate | null) =>
      blocks.map((b, i) =>
        i === blocks.length - 1 && b.certificate ? { ...b, certificate: f(b.certificate) } : b,
      );
    const liars: SyncSource[] = [
      source("forged-cert", (b) => lastCert(b, flip)),
      source("no-cert", (b) => lastCert(b, () => null)),
      source("altered-block", (b) =>
        b.map((x, i) => (i === 0 ? { ...x, block: { ...(x.block as SimBlock), payload: "evil" } } : x)),
      ),
      source("skips-a-block", (b) => (b.length > 2 ? [b[0] as SyncedBlock, ...b.slice(2)] : b.slice(1))),
      source("other-cert", (b) => lastCert(b, () => served[0]?.certificate ?? null)),
    ];
    const { tip, applied, bad } = await syncWith([...liars, source("honest")]);
    expect(tip.height).toBe(served.length);
    expect(applied.map((a) => a.proposal.payload)).toEqual(served.map((s) => s.proposal.payload));
    const reasons = new Map(bad.map(([id, r]) => [id, r]));
    expect(reasons.get("forged-cert")).toBe("bad-certificate");
    expect(reasons.get("no-cert")).toBe("no-certificate");
    expect(["broken-chain", "not-extending", "certificate-mismatch"]).toContain(reasons.get("altered-block"));
    expect(["broken-chain", "not-extending"]).toContain(reasons.get("skips-a-block"));
    expect(reasons.get("other-cert")).toBe("certificate-mismatch");
  });

  it("gives up with SYNC_STALLED when only liars answer", async () => {
    const liar = source("liar", (b) => b.slice(1));
    await expect(syncWith([liar])).rejects.toBeInstanceOf(SyncError);
  });
});
