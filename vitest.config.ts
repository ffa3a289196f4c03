import { defineConfig } from "vitest/config";

// The native addon is a process-wide resource: run test files in forked
// processes (pool "forks"), never in worker threads.
export default defineConfig({
  test: {
    pool: "forks",
    include: ["ts/**/*.test.ts", "bench/**/*.test.ts", "docs/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
