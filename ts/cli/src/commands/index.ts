import type { Command } from "commander";
import { registerTx } from "./tx.ts";

/** Every command family of the CLI, in the order `cowboy --help` lists them. */
const families: ReadonlyArray<(program: Command) => void> = [registerTx];

export function registerCommands(program: Command): void {
  for (const register of families) register(program);
}
