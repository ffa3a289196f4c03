/**
 * `cowboy test [PATHS...] [-k EXPR] [-v] [-x] [--json]`: runs an actor project's Python tests
 * (`tests/test_*.py`, `test_*` functions, plain `assert`, fixtures by parameter name) inside
 * the PVM against a simulated chain — the real state transition function over a fresh store
 * per test (@cowboy/testing, docs/testing.md). Output is pytest's: progress, a FAILURES
 * section with the test's and the actor's source lines, and `3 passed, 1 failed in 0.42s`.
 * Exit status 0 when everything passed, 1 on any failure or error, 5 when no test ran.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  ANSI,
  finalReport,
  jsonReport,
  PLAIN,
  percentDone,
  progress,
  runTests,
  type TestResult,
} from "@cowboy/testing";
import type { Command } from "commander";
import { CliError, CliExit } from "../errors.ts";
import { io, useColor } from "../io.ts";

interface TestOpts {
  k?: string;
  exitfirst?: boolean;
  verbose?: boolean;
  json?: boolean;
  blockTime: string;
}

const bigJson = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/** The project root and test paths of the command's arguments. */
function locate(cwd: string, args: string[]): { root: string; paths: string[] } {
  if (args.length === 0) return { root: cwd, paths: [] };
  if (args.length === 1) {
    const p = resolve(cwd, args[0] as string);
    if (existsSync(p) && statSync(p).isDirectory() && existsSync(join(p, "tests")))
      return { root: p, paths: [join(p, "tests")] };
  }
  for (const a of args)
    if (!existsSync(resolve(cwd, a))) throw new CliError("ERR_NO_TESTS", `no such file or directory: ${a}`);
  return { root: cwd, paths: args.map((a) => resolve(cwd, a)) };
}

export function registerTest(program: Command): void {
  program
    .command("test")
    .description("run an actor project's Python tests in the PVM against a simulated chain")
    .argument("[paths...]", "the project directory, or test files / directories (default: ./tests)")
    .option("-k <expr>", "only tests whose id contains EXPR (`and`, `or`, `not` combine words)")
    .option("-v, --verbose", "one line per test (`tests/test_x.py::test_y PASSED`)")
    .option("-x, --exitfirst", "stop after the first failure")
    .option("--json", "machine-readable results")
    .option("--block-time <ms>", "simulated block interval in ms", "1000")
    .action((args: string[], opts: TestOpts) => {
      const cwd = io().cwd();
      const { root, paths } = locate(cwd, args);
      if (paths.length === 0 && !existsSync(join(root, "tests")))
        throw new CliError(
          "ERR_NO_TESTS",
          `no tests/ directory in ${root} (make a project with \`cowboy init\`)`,
        );
      if (!/^[1-9][0-9]{0,9}$/.test(opts.blockTime))
        throw new CliError(
          "ERR_INVALID_ARG",
          `--block-time: expected a positive integer, got ${opts.blockTime}`,
        );
      const style = useColor() ? ANSI : PLAIN;
      const verbose = opts.verbose === true;
      const out = (t: string) => {
        if (opts.json !== true) io().stdout(t);
      };
      let lineOpen = false;
      let summary: ReturnType<typeof runTests>;
      try {
        summary = runTests({
          root,
          cwd,
          paths,
          ...(opts.k === undefined ? {} : { filter: opts.k }),
          blockTimeMs: BigInt(opts.blockTime),
          exitFirst: opts.exitfirst === true,
          onFile: (file) => {
            if (verbose) return;
            if (lineOpen) out("\n");
            out(`${file} `);
            lineOpen = true;
          },
          onResult: (r: TestResult) => out(progress(r, verbose, style)),
          onFileDone: (_file, done) => {
            if (!verbose) out(`  ${percentDone(done)}`);
          },
        });
      } catch (e) {
        throw new CliError("ERR_TEST_RUNNER", (e as Error).message);
      }
      if (lineOpen) out("\n");
      if (opts.json === true) io().stdout(`${JSON.stringify(jsonReport(summary), bigJson, 2)}\n`);
      else out(`${verbose ? "" : "\n"}${finalReport(summary, style)}`);
      if (summary.failed + summary.errors > 0) throw new CliExit(1);
      if (summary.results.length === 0) throw new CliExit(5);
    });
}
