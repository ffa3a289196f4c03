/**
 * Entry point of the `cowboy` command-line program.
 *
 * Each command family lives in `commands/<family>.ts` and registers itself on
 * the root program through `commands/index.ts`. Commands report failures by
 * throwing a {@link CliError}; `main` prints `cowboy: <CODE>: <message>` to
 * stderr and exits with the error's exit code (1 unless stated otherwise).
 */
import { Command, CommanderError } from "commander";
import { registerCommands } from "./commands/index.ts";
import { CliError, CliExit } from "./errors.ts";
import { io } from "./io.ts";

export function buildProgram(): Command {
  const program = new Command("cowboy")
    .description("Cowboy: a Layer-1 chain of Python actors")
    .version("0.1.0", "-V, --version")
    .showHelpAfterError()
    .exitOverride();
  registerCommands(program);
  return program;
}

/** Runs the CLI with `argv` (without the node and script paths); returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version end here with exit code 0; usage errors with 1.
      return err.exitCode;
    }
    if (err instanceof CliExit) return err.exitCode;
    if (err instanceof CliError) {
      io().stderr(`cowboy: ${err.code}: ${err.message}\n`);
      return err.exitCode;
    }
    const code =
      typeof (err as { code?: unknown }).code === "string" ? (err as { code: string }).code : "ERR_INTERNAL";
    io().stderr(`cowboy: ${code}: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
}
