import type { Command } from "commander";
import { registerActor } from "./actor.ts";
import { registerChain } from "./chain.ts";
import { registerDevnet } from "./devnet.ts";
import { registerInit } from "./init.ts";
import { registerKeys } from "./keys.ts";
import { registerLocalnet } from "./localnet.ts";
import { registerPvm } from "./pvm.ts";
import { registerTest } from "./test.ts";
import { registerTx } from "./tx.ts";
import { registerValidator } from "./validator.ts";

/** Every command family of the CLI, in the order `cowboy --help` lists them. */
const families: ReadonlyArray<(program: Command) => void> = [
  registerInit,
  registerActor,
  registerTest,
  registerChain,
  registerDevnet,
  registerLocalnet,
  registerTx,
  registerValidator,
  registerKeys,
  registerPvm,
];

export function registerCommands(program: Command): void {
  for (const register of families) register(program);
}
