export * from "./fees/basefee.ts";
export * from "./fees/charge.ts";
export * from "./ledger/index.ts";
export * from "./mempool/index.ts";
export * from "./params.ts";
export * from "./state/kv.ts";
export * from "./timers/queue.ts";
