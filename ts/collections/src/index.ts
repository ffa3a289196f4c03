export * from "./binary-heap.ts";
export * from "./sfc32.ts";
