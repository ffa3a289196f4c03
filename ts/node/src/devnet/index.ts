/**
 * The single-node devnet (`cowboyd`): {@link DevnetNode} drives the state transition
 * function, mempool and ledger and serves JSON-RPC and metrics. docs/devnet.md describes it.
 */
export * from "./accounts.ts";
export * from "./config.ts";
export * from "./genesis-file.ts";
export * from "./logger.ts";
export * from "./metrics.ts";
export * from "./node.ts";
