export * from "./errors.ts";
export * from "./mempool.ts";
