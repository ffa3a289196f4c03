/**
 * A validator process for the kill/restart test (journal-kill.test.ts): runs one Simplex
 * voter with a {@link FileJournal}; messages arrive as JSON lines on stdin
 * (`{"from": i, "m": message}`) and leave as JSON lines on stdout (`{"to": i | null, "m": message}`).
 * Its blocks carry the process id, so a restarted leader that re-proposed in a view it had
 * already proposed in would sign a conflicting block.
 *
 * argv: journal path, validator index, validator count, scheme seed
 */
import { createHash } from "node:crypto";
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { FileJournal, MacScheme, type Message, type Proposal, type Round, Voter } from "../src/index.ts";

const [path, meArg, nArg, seed] = process.argv.slice(2) as [string, string, string, string];
const me = Number(meArg);
const n = Number(nArg);
const GENESIS = "00".repeat(32);

interface Block {
  view: number;
  height: number;
  parentView: number;
  parent: string;
  by: string;
}
const digestOf = (b: Block) => createHash("sha256").update(JSON.stringify(b)).digest("hex");

function encodeLine(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    // `this[k]` is the value before Buffer#toJSON ran
    const raw = this[k];
    return raw instanceof Uint8Array ? { $b: Buffer.from(raw).toString("hex") } : v;
  });
}

function decodeLine(line: string): unknown {
  return JSON.parse(line, (_k, v) =>
    v !== null && typeof v === "object" && typeof v.$b === "string"
      ? Uint8Array.from(Buffer.from(v.$b, "hex"))
      : v,
  );
}

const blocks = new Map<string, Block>();
const out = (to: number | null, m: Message) => writeSync(1, `${encodeLine({ to, m })}\n`);

const voter = new Voter({
  config: {
    me,
    epoch: 0,
    genesisSeed: new Uint8Array(32),
    finalized: { view: 0, digest: GENESIS, height: 0 },
    leaderTimeoutMs: 300,
    notarizationTimeoutMs: 600,
    nullifyRetryMs: 1_000,
    maxViewsAhead: 256,
  },
  scheme: new MacScheme(n, seed),
  app: {
    genesis: GENESIS,
    propose(round: Round, parent: { view: number; digest: string; height: number }) {
      const block: Block = {
        view: round.view,
        height: parent.height + 1,
        parentView: parent.view,
        parent: parent.digest,
        by: `pid-${process.pid}`,
      };
      return { digest: digestOf(block), block };
    },
    digest: (b: unknown) => digestOf(b as Block),
    link: (b: unknown) => {
      const x = b as Block;
      return { view: x.view, height: x.height, parentView: x.parentView, parent: x.parent };
    },
    verify: () => true,
    finalizedBlock: (d: string) => blocks.get(d) ?? null,
    finalized: (p: Proposal, b: unknown) => {
      blocks.set(p.payload, b as Block);
    },
  },
  network: { broadcast: (m) => out(null, m), send: (to, m) => out(to, m) },
  clock: {
    now: () => performance.now(),
    schedule(at, fn) {
      const t = setTimeout(fn, Math.max(0, at - performance.now()));
      return () => clearTimeout(t);
    },
  },
  journal: new FileJournal(path),
});

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const { from, m } = decodeLine(line) as { from: number; m: Message };
  voter.receive(from, m);
});
voter.start();
