/**
 * Some suites skip themselves when the addon lacks a binding (e.g. on a machine that has not
 * built it). This test does not: after `npm test`'s set-up builds the addon, every binding
 * those suites and the node depend on must be there, so a missing one fails the run instead of
 * silently skipping tests.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const native = createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>;

const FUNCTIONS = [
  "executeActor",
  "pvmRun",
  "pvmTest",
  "txVerifyBatch",
  "txVerifyStart",
  "blsKeygen",
  "blsSignNamespaced",
  "blsAggregateSignatures",
  "blsDkgObserve",
  "blsDkgOutputInfo",
  "blsDkgDerivedRandomness",
] as const;
const CLASSES = ["StateDb", "BlsDkgInfo", "BlsDkgDealer", "BlsDkgPlayer", "BlsGroup"] as const;

describe("@cowboy/native exports", () => {
  it.each(FUNCTIONS)("exports the function %s", (name) => {
    expect(typeof native[name]).toBe("function");
  });
  it.each(CLASSES)("exports the class %s", (name) => {
    expect(typeof native[name]).toBe("function");
    expect((native[name] as { prototype?: unknown }).prototype).toBeTypeOf("object");
  });
});
