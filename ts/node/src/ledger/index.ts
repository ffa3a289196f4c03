export * from "./ledger.ts";
export * from "./record.ts";
