import type { Command } from "commander";
import { registerKeys } from "./keys.ts";
import { registerPvm } from "./pvm.ts";
import { registerTx } from "./tx.ts";

/** Every command family of the CLI, in the order `cowboy --help` lists them. */
const families: ReadonlyArray<(program: Command) => void> = [registerTx, registerKeys, registerPvm];

export function registerCommands(program: Command): void {
  for (const register of families) register(program);
}
