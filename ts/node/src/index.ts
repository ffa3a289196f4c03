export * from "./fees/basefee.ts";
export * from "./fees/charge.ts";
export * from "./params.ts";
