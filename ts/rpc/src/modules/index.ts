/**
 * The chain RPC modules, one class per namespace of methods, over a {@link ChainBackend}.
 * `chainModules` builds the usual set.
 */
import type { RpcModule } from "../module.ts";
import { AccountsModule } from "./accounts.ts";
import type { ChainBackend } from "./backend.ts";
import { ChainModule, type ChainModuleOptions } from "./chain.ts";
import { type DevBackend, DevModule, type DevModuleOptions } from "./dev.ts";
import { EventsModule } from "./events.ts";
import { ExecutionModule } from "./execution.ts";
import { TransactionsModule } from "./transactions.ts";

export * from "./accounts.ts";
export type * from "./backend.ts";
export * from "./chain.ts";
export * from "./dev.ts";
export * from "./events.ts";
export * from "./execution.ts";
export * from "./json.ts";
export * from "./tags.ts";
export * from "./transactions.ts";

/** Every chain module over `backend`, plus the dev module when `dev` is given. */
export function chainModules(
  backend: ChainBackend,
  options: ChainModuleOptions,
  dev: { backend: DevBackend; options?: Partial<DevModuleOptions> } | null,
): RpcModule[] {
  const modules: RpcModule[] = [
    new ChainModule(backend, options),
    new AccountsModule(backend),
    new TransactionsModule(backend),
    new ExecutionModule(backend),
    new EventsModule(backend),
  ];
  if (dev !== null) modules.push(new DevModule(dev.backend, dev.options));
  return modules;
}
