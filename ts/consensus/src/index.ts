export * from "./leader.ts";
export * from "./scheme.ts";
export * from "./sim/clock.ts";
export * from "./sim/harness.ts";
export * from "./sim/mac-scheme.ts";
export * from "./sim/random.ts";
export * from "./types.ts";
export * from "./voter.ts";
