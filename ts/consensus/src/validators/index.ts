export * from "./evidence.ts";
export * from "./registry.ts";
