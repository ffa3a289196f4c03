export * from "./ceremony.ts";
export * from "./info.ts";
export * from "./logs.ts";
