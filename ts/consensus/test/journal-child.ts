/**
 * A validator process for the kill/restart test (journal-kill.test.ts): runs one Simplex
 * voter with a {@link FileJournal}; messages arrive as JSON lines on stdin
 * (`{"from": i, "m": message}`) and leave as JSON lines on stdout (`{"to": i | null, "m": message}`).
 * Its blocks carry the process id, so a restarted leader that re-proposed in a view it had
 * already proposed in would sign a conflicting block.
 *
 * argv: journal path, validator index, validator count, scheme seed
 */
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { FileJournal, MacScheme, type Message, Voter } from "../src/index.ts";
import {
  decodeLine,
  encodeLine,
  genesisVoterConfig,
  signedByApp,
  WALL_CLOCK_TIMEOUTS,
  wallClock,
} from "./voter-doubles.ts";

const [path, meArg, nArg, seed] = process.argv.slice(2) as [string, string, string, string];
const me = Number(meArg);
const n = Number(nArg);

const out = (to: number | null, m: Message) => writeSync(1, `${encodeLine({ to, m })}\n`);

const voter = new Voter({
  config: genesisVoterConfig(me, WALL_CLOCK_TIMEOUTS),
  scheme: new MacScheme(n, seed),
  app: signedByApp(`pid-${process.pid}`),
  network: { broadcast: (m) => out(null, m), send: (to, m) => out(to, m) },
  clock: wallClock,
  journal: new FileJournal(path),
});

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const { from, m } = decodeLine(line) as { from: number; m: Message };
  voter.receive(from, m);
});
voter.start();
