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
import { DevJobsModule, JobsModule } from "./jobs.ts";
import { TransactionsModule } from "./transactions.ts";
import { ValidatorsModule } from "./validators.ts";

export * from "./accounts.ts";
export type * from "./backend.ts";
export * from "./chain.ts";
export * from "./dev.ts";
export * from "./events.ts";
export * from "./execution.ts";
export * from "./jobs.ts";
export * from "./json.ts";
export * from "./tags.ts";
export * from "./transactions.ts";
export * from "./validators.ts";

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
  // runner jobs: served when the backend can read them (and, on a dev chain, deliver results)
  modules.push(new JobsModule(backend));
  // the validator set: served when the backend can read it
  modules.push(new ValidatorsModule(backend));
  if (dev !== null) modules.push(new DevModule(dev.backend, dev.options), new DevJobsModule(dev.backend));
  return modules;
}
