/**
 * The RPC client runs in browsers: its modules use only web-platform globals
 * (fetch, WebSocket, AbortController, timers) — no node: imports, no Buffer,
 * no process — and import nothing outside the SDK.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "client");

describe("client portability", () => {
  it("no Node-only modules or globals", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      const code = readFileSync(join(DIR, f), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      expect(code, f).not.toMatch(/from "node:/);
      expect(code, f).not.toMatch(/\bBuffer\b/);
      expect(code, f).not.toMatch(/\bprocess\./);
      expect(code, f).not.toMatch(/\brequire\(/);
      for (const m of code.matchAll(/from "([^"]+)"/g)) {
        const spec = m[1] as string;
        expect(spec.startsWith("./") || spec.startsWith("../"), `${f} imports ${spec}`).toBe(true);
      }
    }
  });
});
