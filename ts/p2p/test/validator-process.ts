/**
 * One validator process for multiprocess.test.ts: `startValidator` with the BLS scheme (devnet
 * keys from a shared seed), QUIC on a fixed loopback port, and a small application whose
 * finalized chain is an fsynced JSON-lines file in the data directory (so a restarted
 * process resumes from it). Reports on stdout, one JSON object per line:
 * `{"ev":"started","syncedTo":h}`, `{"ev":"final","h":height,"d":digest}`, `{"ev":"sync","h":h}`.
 *
 * argv[2]: JSON { dataDir, me, n, seed, ports: number[], peerIds: string[] }
 */
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  blsDevnetKeys,
  blsDevnetSchemes,
  type Certificate,
  type Proposal,
  type Round,
} from "@cowboy/consensus";
import { startValidator, type ValidatorApplication } from "../src/validator.ts";
import type { BlockCodec } from "../src/wire.ts";

interface Args {
  dataDir: string;
  me: number;
  n: number;
  seed: string;
  ports: number[];
  peerIds: string[];
}
const args = JSON.parse(process.argv[2] as string) as Args;

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
    .update(JSON.stringify([b.view, b.height, b.parentView, b.parent, b.proposer, b.beacon]))
    .digest("hex");
const codec: BlockCodec = {
  encode: (b) => Buffer.from(JSON.stringify(b)),
  decode: (bytes) => {
    const b = JSON.parse(Buffer.from(bytes).toString("utf8")) as Block;
    for (const k of ["view", "height", "parentView", "proposer"] as const)
      if (!Number.isSafeInteger(b[k])) throw new Error("bad block");
    return b;
  },
};
const say = (o: object) => writeSync(1, `${JSON.stringify(o)}\n`);

// the finalized chain, persisted
const chainPath = join(args.dataDir, "chain.jsonl");
interface Entry {
  proposal: Proposal;
  block: Block;
  certificate: Certificate | null;
}
const hex = (u: Uint8Array | null) => (u === null ? null : Buffer.from(u).toString("hex"));
const unhex = (s: string | null) => (s === null ? null : Uint8Array.from(Buffer.from(s, "hex")));
const chain: Entry[] = [];
if (existsSync(chainPath)) {
  for (const line of readFileSync(chainPath, "utf8").split("\n")) {
    if (line === "") continue;
    let e: {
      proposal: Proposal;
      block: Block;
      c: null | {
        kind: "finalize";
        round: Round;
        proposal: Proposal;
        signers: string;
        signature: string;
        seed: string | null;
      };
    };
    try {
      e = JSON.parse(line);
    } catch {
      break; // torn last line
    }
    const certificate =
      e.c === null
        ? null
        : {
            ...e.c,
            signers: unhex(e.c.signers) as Uint8Array,
            signature: unhex(e.c.signature) as Uint8Array,
            seed: unhex(e.c.seed),
          };
    chain.push({ proposal: e.proposal, block: e.block, certificate });
  }
}
const fd = openSync(chainPath, "a");

const app: ValidatorApplication = {
  genesis: GENESIS,
  propose(round, parent, beacon) {
    const block: Block = {
      view: round.view,
      height: parent.height + 1,
      parentView: parent.view,
      parent: parent.digest,
      proposer: args.me,
      beacon: Buffer.from(beacon).toString("hex"),
    };
    return { digest: digestOf(block), block };
  },
  digest: (b) => digestOf(b as Block),
  link: (b) => {
    const x = b as Block;
    return { view: x.view, height: x.height, parentView: x.parentView, parent: x.parent };
  },
  verify: (_p, b, beacon) => (b as Block).beacon === Buffer.from(beacon).toString("hex"),
  finalizedBlock: (d) => chain.find((e) => e.proposal.payload === d)?.block ?? null,
  finalized(proposal, block, certificate) {
    if (proposal.height !== chain.length + 1) return; // already have it (a replay after restart)
    const c =
      certificate === null
        ? null
        : {
            ...certificate,
            signers: hex(certificate.signers),
            signature: hex(certificate.signature),
            seed: hex(certificate.seed),
          };
    appendFileSync(fd, `${JSON.stringify({ proposal, block, c })}\n`);
    fsyncSync(fd);
    chain.push({ proposal, block: block as Block, certificate });
    say({ ev: "final", h: proposal.height, d: proposal.payload });
  },
  tip: () => chain.length,
  at: (h) => {
    const e = chain[h - 1];
    return e === undefined ? null : { block: e.block, certificate: e.certificate };
  },
  finalizedTip() {
    const last = chain[chain.length - 1];
    return last === undefined
      ? { view: 0, height: 0, digest: GENESIS }
      : { view: last.proposal.round.view, height: last.proposal.height, digest: last.proposal.payload };
  },
};

const keys = blsDevnetKeys(args.n, 31n, createHash("sha256").update(args.seed).digest());
const scheme = blsDevnetSchemes(keys)[args.me];
if (scheme === undefined) throw new Error("no scheme");
const addr = (i: number) => `/ip4/127.0.0.1/udp/${args.ports[i]}/quic-v1`;
const running = await startValidator({
  dataDir: args.dataDir,
  network: {
    chainId: "multiprocess",
    transports: ["quic"],
    listen: [addr(args.me)],
    bootstrap: args.peerIds.flatMap((p, i) => (i === args.me ? [] : [`${addr(i)}/p2p/${p}`])),
    validators: args.peerIds.map((peerId, index) => ({ index, peerId })),
    discoveryIntervalMs: 500,
  },
  app,
  codec,
  scheme,
  epoch: 0,
  genesisSeed: new Uint8Array(32),
  timeouts: { leaderTimeoutMs: 500, notarizationTimeoutMs: 1_000, nullifyRetryMs: 1_000 },
  peerWaitMs: 3_000,
  onSyncProgress: (p) => say({ ev: "sync", h: p.height }),
});
say({ ev: "started", syncedTo: running.syncedTo.height });
process.on("SIGTERM", () => {
  void running.stop().then(() => {
    closeSync(fd);
    process.exit(0);
  });
});
