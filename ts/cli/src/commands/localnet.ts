/**
 * `cowboy localnet [options]`: starts N validator processes on loopback that run Simplex
 * consensus and execute one shared chain (ts/node/src/localnet.ts), prints each validator's
 * JSON-RPC URL and runs until Ctrl-C, which stops them all. `cowboy localnet --help` lists
 * the options; docs/localnet.md describes them.
 */
import type { Command } from "commander";
import { CliExit } from "../errors.ts";

export function registerLocalnet(program: Command): void {
  program
    .command("localnet")
    .description("start N validators on loopback running one chain (Ctrl-C stops them; --help for options)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[options...]", "localnet options, see `cowboy localnet --help`")
    .action(async (options: string[]) => {
      // Loaded on use: the node's dependencies are only needed by this command.
      const { runLocalnet } = await import("@cowboy/node/localnet");
      const code = await runLocalnet(options, {
        out: (s) => process.stdout.write(s),
        err: (s) => process.stderr.write(s),
      });
      if (code !== 0) throw new CliExit(code);
    });
}
