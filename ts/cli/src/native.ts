/**
 * Loads the native addon (`@cowboy/native`) on first use, so that commands
 * that do not need it (e.g. `tx decode`, which uses the pure TS codec) work
 * even where the addon has not been built.
 */
import { createRequire } from "node:module";
import { CliError } from "./errors.ts";

type Native = typeof import("@cowboy/native");

let cached: Native | undefined;

export function loadNative(): Native {
  if (cached === undefined) {
    try {
      cached = createRequire(import.meta.url)("@cowboy/native") as Native;
    } catch (err) {
      throw new CliError(
        "ERR_NATIVE_MISSING",
        `the native addon is not built (run \`npm run setup\`): ${(err as Error).message}`,
      );
    }
  }
  return cached;
}
