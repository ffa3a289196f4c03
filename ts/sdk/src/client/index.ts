/**
 * The JSON-RPC client of `@cowboy/sdk`: transports (HTTP with batching,
 * WebSocket with subscriptions and reconnect), `PublicClient` for reads,
 * `WalletClient` for signed writes, actor value encoding, typed errors.
 */
export * from "./errors.ts";
export * from "./formats.ts";
export * from "./hex.ts";
export * from "./public.ts";
export * from "./state-keys.ts";
export * from "./transport.ts";
export * from "./validators.ts";
export * from "./values.ts";
export * from "./wallet.ts";
