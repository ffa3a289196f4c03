export * from "./dispatcher.ts";
export * from "./errors.ts";
export * from "./format.ts";
export * from "./module.ts";
export * from "./params.ts";
export * from "./rate-limit.ts";
export * from "./server.ts";
export * from "./subscriptions.ts";
