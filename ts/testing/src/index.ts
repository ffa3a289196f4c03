/**
 * `@cowboy/testing`: the engine of `cowboy test` — Python tests run inside the PVM against a
 * simulated chain (the real state transition function). See docs/testing.md.
 *
 * ```ts
 * const summary = runTests({ root: "my-project", filter: "transfer" });
 * process.stdout.write(finalReport(summary, PLAIN));
 * ```
 */
export * from "./chain.ts";
export * from "./host.ts";
export * from "./report.ts";
export * from "./runner.ts";
