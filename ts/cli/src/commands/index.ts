import type { Command } from "commander";

/** Every command family of the CLI, in the order `cowboy --help` lists them. */
const families: ReadonlyArray<(program: Command) => void> = [];

export function registerCommands(program: Command): void {
  for (const register of families) register(program);
}
