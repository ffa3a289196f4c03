/**
 * The `cowboy test` runner: finds `test_*.py` files, collects their `test_*` functions and runs
 * each test as its own PVM program (the addon's `pvmTest`) with the `cowboy_test` harness, the
 * test file and its sibling modules (`conftest.py`, helpers) importable, pytest-style assertion
 * messages on, and a {@link TestHost} serving the harness's chain requests against a fresh
 * {@link SimChain}. Tests run one after another (the addon is synchronous); results are
 * deterministic — the chain's clock is simulated.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SimChain } from "./chain.ts";
import { type Phase, TestHost } from "./host.ts";

/** The harness module (`import cowboy_test`). */
export const HARNESS_SOURCE = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "python", "cowboy_test.py"),
  "utf8",
);
/** File name of the harness in tracebacks (filtered out of reports). */
export const HARNESS_FILE = "<cowboy_test>";
/** File name of the generated driver program (filtered out of reports). */
export const DRIVER_FILE = "<cowboy-test>";

interface PvmOutcome {
  stdout: string;
  /** absent or null when the program completed */
  error?: { type: string; message: string; traceback: string[] } | null;
  cycles: number;
  cells: number;
}
interface PvmModule {
  name: string;
  filename: string;
  source: string;
}
type PvmTest = (
  source: string,
  filename: string,
  options: {
    cyclesLimit?: number;
    heapBytes?: number;
    modules?: PvmModule[];
    assertIntrospection?: boolean;
  } | null,
  serve: (request: Buffer) => Buffer,
) => PvmOutcome;

function loadPvmTest(): PvmTest {
  const native = createRequire(import.meta.url)("@cowboy/native") as { pvmTest?: PvmTest };
  if (typeof native.pvmTest !== "function")
    throw new Error("the native addon has no pvmTest (rebuild it: `npm run build:native`)");
  return native.pvmTest;
}

/** Outcome of one test, pytest's words. */
export type Outcome = "passed" | "failed" | "error";

/** A failure: the PVM error plus where the run got to. */
export interface TestFailure {
  /** Python exception type (e.g. `AssertionError`, `InsufficientFunds`, `OutOfCycles`) */
  type: string;
  message: string;
  /** the test program's traceback (`File "...", line N, in f`), outermost first */
  traceback: string[];
  /** when an actor call failed: the actor's error type and traceback */
  actor: { type: string; traceback: string[] } | null;
  /** `setup` (a fixture failed), `call` (the test), `teardown` */
  when: "setup" | "call" | "teardown" | "collect";
}

/** One test's result. */
export interface TestResult {
  /** `path/to/test_x.py::test_name` */
  nodeid: string;
  file: string;
  name: string;
  outcome: Outcome;
  durationMs: number;
  /** cycles the test program itself used (actors are metered by the chain) */
  cycles: number;
  stdout: string;
  failure: TestFailure | null;
  /** things worth knowing that are not failures (e.g. a timer the chain dropped unfunded) */
  warnings: string[];
}

/** Everything a run did. */
export interface RunSummary {
  results: TestResult[];
  passed: number;
  failed: number;
  errors: number;
  /** tests deselected by `-k` */
  deselected: number;
  durationMs: number;
  /** the directory paths are relative to */
  cwd: string;
}

/** Options of {@link runTests}. */
export interface RunTestsOptions {
  /** project directory (default: `cwd`); deploy paths are relative to it */
  root?: string;
  /** directory reported paths are relative to (default: `process.cwd()`) */
  cwd?: string;
  /** test files or directories (default: `<root>/tests`) */
  paths?: string[];
  /** `-k`: run tests whose node id contains this (case-insensitive); `not X`, `A and B`, `A or B` */
  filter?: string;
  /** called after each test */
  onResult?: (r: TestResult) => void;
  /** called before a file's tests run (all files are collected first) */
  onFile?: (file: string, tests: string[]) => void;
  /** called after a file's tests ran: tests done so far and tests selected in all files */
  onFileDone?: (file: string, progress: { done: number; total: number }) => void;
  /** cycle budget of each test program (default 2,000,000,000) */
  cyclesLimit?: number;
  /** simulated block interval in ms (default 1000) */
  blockTimeMs?: bigint;
  /** `-x`: stop after the first failure or error */
  exitFirst?: boolean;
}

/** `test_*.py` / `*_test.py` files under `p` (or `p` itself), sorted. */
export function findTestFiles(p: string): string[] {
  if (!existsSync(p)) return [];
  if (statSync(p).isFile()) return [p];
  const out: string[] = [];
  for (const e of readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(p, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith(".") && e.name !== "__pycache__" && e.name !== "node_modules")
        out.push(...findTestFiles(full));
    } else if (/^test_.*\.py$|_test\.py$/.test(e.name)) out.push(full);
  }
  return out;
}

/** pytest-like `-k` matching on `nodeid`: substrings joined by `and`/`or`, with `not`. */
export function matchesFilter(nodeid: string, expr: string | undefined): boolean {
  if (expr === undefined || expr.trim() === "") return true;
  const id = nodeid.toLowerCase();
  return expr.split(/\s+or\s+/i).some((alt) =>
    alt.split(/\s+and\s+/i).every((term) => {
      const t = term.trim();
      const neg = /^not\s+/i.test(t);
      const word = (neg ? t.replace(/^not\s+/i, "") : t).trim().toLowerCase();
      return id.includes(word) !== neg;
    }),
  );
}

const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The Python modules of a test file's directory (the file itself, conftest, helpers). */
function siblingModules(file: string, cwd: string): PvmModule[] {
  const dir = dirname(file);
  const mods: PvmModule[] = [{ name: "cowboy_test", filename: HARNESS_FILE, source: HARNESS_SOURCE }];
  for (const e of readdirSync(dir).sort()) {
    if (!e.endsWith(".py")) continue;
    const name = e.slice(0, -3);
    if (!MODULE_NAME.test(name) || name === "cowboy_test") continue;
    const full = join(dir, e);
    mods.push({ name, filename: relative(cwd, full) || full, source: readFileSync(full, "utf8") });
  }
  return mods;
}

function whenOf(phase: Phase): TestFailure["when"] {
  if (phase === "start" || phase === "setup") return "setup";
  if (phase === "teardown" || phase === "done") return "teardown";
  return "call";
}

/** Runs the tests; never throws for test failures (they are results). */
export function runTests(opts: RunTestsOptions = {}): RunSummary {
  const pvmTest = loadPvmTest();
  const cwd = resolve(opts.cwd ?? process.cwd());
  const root = resolve(cwd, opts.root ?? ".");
  const paths = opts.paths?.length ? opts.paths.map((p) => resolve(cwd, p)) : [join(root, "tests")];
  const files = [...new Set(paths.flatMap(findTestFiles))];
  const limits = { cyclesLimit: opts.cyclesLimit ?? 2_000_000_000, heapBytes: 256 * 1024 * 1024 };
  const started = performance.now();
  const results: TestResult[] = [];
  let deselected = 0;
  const makeChain = () =>
    SimChain.create(opts.blockTimeMs === undefined ? {} : { blockTimeMs: opts.blockTimeMs });
  const stop = () => opts.exitFirst === true && results.some((r) => r.outcome !== "passed");
  const push = (r: TestResult) => {
    results.push(r);
    opts.onResult?.(r);
  };
  // collect every file first, so progress can be shown against the total
  type Collected = { file: string; rel: string; mod: string; modules: PvmModule[]; selected: string[] };
  const collected: Array<Collected | { rel: string; error: TestResult }> = [];
  for (const file of files) {
    const rel = relative(cwd, file) || file;
    const mod = basename(file, ".py");
    const modules = siblingModules(file, cwd);
    const t0 = performance.now();
    const host = new TestHost(root, cwd, makeChain);
    let out: PvmOutcome;
    try {
      out = pvmTest(
        `import cowboy_test\nimport ${mod}\ncowboy_test._collect([${mod}])\n`,
        DRIVER_FILE,
        { ...limits, modules, assertIntrospection: true },
        host.serve,
      );
    } finally {
      host.close();
    }
    if (out.error != null || !MODULE_NAME.test(mod)) {
      const e = out.error ?? { type: "ImportError", message: `'${mod}' is not a module name`, traceback: [] };
      collected.push({
        rel,
        error: {
          nodeid: rel,
          file: rel,
          name: "<collect>",
          outcome: "error",
          durationMs: performance.now() - t0,
          cycles: out.cycles,
          stdout: out.stdout,
          failure: { ...e, actor: null, when: "collect" },
          warnings: [],
        },
      });
      continue;
    }
    const names = host.record.collected[0]?.tests ?? [];
    const selected = names.filter((n) => matchesFilter(`${rel}::${n}`, opts.filter));
    deselected += names.length - selected.length;
    collected.push({ file, rel, mod, modules, selected });
  }
  const total = collected.reduce((n, c) => n + ("error" in c ? 1 : c.selected.length), 0);
  for (const c of collected) {
    if (stop()) break;
    const rel = c.rel;
    if ("error" in c) {
      opts.onFile?.(rel, []);
      push(c.error);
      opts.onFileDone?.(rel, { done: results.length, total });
      continue;
    }
    const { mod, modules, selected } = c;
    const hasConftest = modules.some((m) => m.name === "conftest");
    opts.onFile?.(rel, selected);
    for (const name of selected) {
      if (stop()) break;
      const t1 = performance.now();
      const h = new TestHost(root, cwd, makeChain);
      let o: PvmOutcome;
      let warnings: string[] = [];
      try {
        o = pvmTest(
          `import cowboy_test\nimport ${mod}\n${hasConftest ? "import conftest\n" : ""}cowboy_test._run(${mod}, ${JSON.stringify(name)}, ${hasConftest ? "conftest" : "None"})\n`,
          DRIVER_FILE,
          { ...limits, modules, assertIntrospection: true },
          h.serve,
        );
      } finally {
        warnings = h.warnings();
        h.close();
      }
      const failure: TestFailure | null =
        o.error == null ? null : { ...o.error, actor: h.record.actorFailure, when: whenOf(h.record.phase) };
      push({
        nodeid: `${rel}::${name}`,
        file: rel,
        name,
        outcome: failure === null ? "passed" : failure.when === "call" ? "failed" : "error",
        durationMs: performance.now() - t1,
        cycles: o.cycles,
        stdout: o.stdout,
        failure,
        warnings,
      });
    }
    opts.onFileDone?.(rel, { done: results.length, total });
  }
  return {
    results,
    passed: results.filter((r) => r.outcome === "passed").length,
    failed: results.filter((r) => r.outcome === "failed").length,
    errors: results.filter((r) => r.outcome === "error").length,
    deselected,
    durationMs: performance.now() - started,
    cwd,
  };
}
