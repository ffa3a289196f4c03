/**
 * `cowboy devnet [options]`: starts the single-node devnet in the foreground (the
 * `cowboyd` process of ts/node) — a chain with prefunded development accounts, a faucet,
 * JSON-RPC on 127.0.0.1:8545 and metrics — until Ctrl-C. `cowboy devnet --help` lists
 * the options; docs/devnet.md describes them.
 */
import type { Command } from "commander";
import { CliExit } from "../errors.ts";

export function registerDevnet(program: Command): void {
  program
    .command("devnet")
    .description("start a single-node devnet in the foreground (Ctrl-C stops it; --help for options)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[options...]", "devnet options, see `cowboy devnet --help`")
    .action(async (options: string[]) => {
      // Loaded on use: the node's dependencies (LevelDB, fastify, the state store) are only
      // needed by this command.
      const { runDevnet } = await import("@cowboy/node/cowboyd");
      const code = await runDevnet(
        options,
        { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
        "cowboy devnet",
      );
      if (code !== 0) throw new CliExit(code);
    });
}
