/**
 * `npm run bench [suite ...]`: runs the named benchmark suites (all when none
 * is named). Each suite module exports `run(): Promise<Metric[]>` and lives in
 * `bench/<suite>/suite.ts`.
 */
import { type Metric, writeSuite } from "./lib/report.ts";

type Suite = { run: () => Promise<Metric[]> | Metric[] };

/** Registered suites, in the order they run. */
const SUITES: Record<string, () => Promise<Suite>> = {
  actor: () => import("./actor/suite.ts"),
  bls: () => import("./bls/suite.ts"),
  codec: () => import("./codec/suite.ts"),
  consensus: () => import("./consensus/suite.ts"),
  devnet: () => import("./devnet/suite.ts"),
  pvm: () => import("./pvm/suite.ts"),
  qmdb: () => import("./qmdb/suite.ts"),
  stf: () => import("./stf/suite.ts"),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((s) => !(s in SUITES));
if (unknown.length > 0) {
  process.stderr.write(
    `bench: unknown suite(s) ${unknown.join(", ")}; known: ${Object.keys(SUITES).join(", ")}\n`,
  );
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(SUITES)) {
  const load = SUITES[name] as () => Promise<Suite>;
  const suite = await load();
  writeSuite(name, await suite.run());
}
