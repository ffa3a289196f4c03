/**
 * `cowboy pvm run FILE.py [--cycles-limit N] [--json]`: runs a Python file as a
 * program in the PVM, through the native addon.
 *
 * Plain mode: the program's `print` output goes to stdout; an uncaught
 * exception prints a traceback whose last line is `ExceptionType: message`
 * (as CPython does) to stderr, and the exit code is 1.
 * `--json`: prints one object `{stdout, error: {type, message} | null, cycles, cells}`;
 * the exit code is still 1 when the program failed.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { CliError, CliExit } from "../errors.ts";
import { loadNative } from "../native.ts";

/** Default cycle budget of `pvm run`: the per-block hard cap (spec 01 §4.3). */
export const DEFAULT_CYCLES_LIMIT = 80_000_000;

export function registerPvm(program: Command): void {
  const pvm = program.command("pvm").description("the Python VM");
  pvm
    .command("run")
    .description("run a Python file in the PVM (deterministic, metered)")
    .argument("<file>", "Python source file")
    .option("--cycles-limit <n>", "cycle budget", String(DEFAULT_CYCLES_LIMIT))
    .option("--json", "print {stdout, error, cycles, cells} as JSON")
    .action((file: string, opts: { cyclesLimit: string; json?: boolean }) => {
      const limit = parseLimit(opts.cyclesLimit);
      let source: string;
      try {
        source = readFileSync(file, "utf8");
      } catch (err) {
        throw new CliError("ERR_FILE", `cannot read ${file}: ${(err as Error).message}`);
      }
      const outcome = loadNative().pvmRun(source, file, { cyclesLimit: limit });
      const failure = outcome.error ?? null; // the addon gives undefined for "no error"
      if (opts.json) {
        const error = failure === null ? null : { type: failure.type, message: failure.message };
        process.stdout.write(
          `${JSON.stringify({ stdout: outcome.stdout, error, cycles: outcome.cycles, cells: outcome.cells })}\n`,
        );
      } else {
        process.stdout.write(outcome.stdout);
        if (failure !== null) {
          const lines = ["Traceback (most recent call last):", ...failure.traceback.map((l) => `  ${l}`)];
          const last = failure.message === "" ? failure.type : `${failure.type}: ${failure.message}`;
          process.stderr.write(`${[...lines, last].join("\n")}\n`);
        }
      }
      if (failure !== null) throw new CliExit(1);
    });
}

function parseLimit(text: string): number {
  if (!/^[0-9]+$/.test(text))
    throw new CliError("ERR_ARG", `--cycles-limit must be a non-negative integer, got '${text}'`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new CliError("ERR_ARG", `--cycles-limit ${text} is too large`);
  return n;
}
