/**
 * One validator process for multiprocess.test.ts: `startValidator` with the BLS scheme (devnet
 * keys from a shared seed), QUIC on a fixed loopback port, and a small application whose
 * finalized chain is an fsynced JSON-lines file in the data directory (so a restarted
 * process resumes from it). Reports on stdout, one JSON object per line:
 * `{"ev":"started","syncedTo":h}`, `{"ev":"final","h":height,"d":digest}`, `{"ev":"sync","h":h}`,
 * `{"ev":"slashed","address":a,"amount":x,"jailedUntil":h}`.
 *
 * Every process keeps a validator registry (the four genesis validators) and submits the
 * equivocation evidence its voter reports. With `equivocate`, this process is a two-faced
 * leader: whenever it proposes, odd-numbered validators get a different block (both signed).
 *
 * argv[2]: JSON { dataDir, me, n, seed, ports: number[], peerIds: string[], equivocate?: boolean }
 */
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  blsDevnetKeys,
  blsDevnetSchemes,
  type Certificate,
  evidenceFromEquivocation,
  type KvStore,
  type Message,
  nativeValidatorCrypto,
  type Proposal,
  type Round,
  ValidatorRegistry,
  type Vote,
} from "@cowboy/consensus";
import { ConsensusNetwork } from "../src/consensus-network.ts";
import { startValidator, type ValidatorApplication } from "../src/validator.ts";
import type { BlockCodec } from "../src/wire.ts";

interface Args {
  dataDir: string;
  me: number;
  n: number;
  seed: string;
  ports: number[];
  peerIds: string[];
  equivocate?: boolean;
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

// the validator registry every node keeps (in the node it lives in the state; here in memory)
const kvMap = new Map<string, Uint8Array>();
const kv: KvStore = {
  get: (k) => kvMap.get(Buffer.from(k).toString("hex")),
  put: (k, v) => void kvMap.set(Buffer.from(k).toString("hex"), v),
  delete: (k) => void kvMap.delete(Buffer.from(k).toString("hex")),
};
const registry = new ValidatorRegistry({
  kv,
  prefix: Uint8Array.of(0x08),
  crypto: nativeValidatorCrypto(31n),
  params: { minStake: 1_000n },
});
const address = (i: number) => (i + 1).toString(16).padStart(40, "0");
for (let i = 0; i < args.n; i++)
  registry.register({
    address: address(i),
    stake: 100_000n,
    blsKey: keys.publicKeys[i] as Buffer,
    proof: keys.proofs[i] as Buffer,
    height: 0,
    genesis: true,
  });
registry.beginEpoch(0);

if (args.equivocate === true) {
  // a two-faced leader (fault injection for the test): odd validators get a twin proposal
  const broadcast = ConsensusNetwork.prototype.broadcast;
  ConsensusNetwork.prototype.broadcast = function (this: ConsensusNetwork, message: Message) {
    if (message.type !== "propose") return broadcast.call(this, message);
    const twin: Block = { ...(message.block as Block), proposer: args.me + 100 };
    const proposal: Proposal = { ...message.proposal, payload: digestOf(twin) };
    const vote: Vote = {
      kind: "notarize",
      round: proposal.round,
      proposal,
      signer: args.me,
      signature: scheme.sign(args.me, "notarize", proposal.round, proposal),
    };
    for (let to = 0; to < args.n; to++) {
      if (to === args.me) continue;
      this.send(to, to % 2 === 0 ? message : { type: "propose", proposal, block: twin, vote });
    }
  };
}
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
  // generous: a process restarted on a loaded machine may take seconds to reach a peer
  peerWaitMs: 20_000,
  onSyncProgress: (p) => say({ ev: "sync", h: p.height }),
  onFault: (fault) => {
    const evidence = evidenceFromEquivocation(fault);
    if (evidence === null) return;
    try {
      const p = registry.submitEvidence(evidence, chain.length);
      say({ ev: "slashed", address: p.address, amount: String(p.slashed), jailedUntil: p.jailedUntil });
    } catch {
      // already punished (the same equivocation seen twice) or not provable
    }
  },
});
say({ ev: "started", syncedTo: running.syncedTo.height });
process.on("SIGTERM", () => {
  void running.stop().then(() => {
    closeSync(fd);
    process.exit(0);
  });
});
