export * from "./binary-heap.ts";
