/**
 * The codec runs outside Node (browsers, bundlers): its modules use no
 * Node-only module or global. (Scoped to the codec's own modules; other SDK
 * modules are checked by their owners.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const CODEC_MODULES = [
  "block.ts",
  "bytes.ts",
  "cbor.ts",
  "crypto.ts",
  "errors.ts",
  "json.ts",
  "reader.ts",
  "source.ts",
  "state-proof.ts",
  "tx.ts",
  "types.ts",
  "writer.ts",
];

describe("portability", () => {
  it("no node: imports, no Buffer, no process, only @noble dependencies", () => {
    const files = CODEC_MODULES;
    const present = new Set(readdirSync(SRC));
    for (const f of files) expect(present.has(f), f).toBe(true);
    for (const f of files) {
      const code = readFileSync(join(SRC, f), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      expect(code, f).not.toMatch(/from "node:/);
      expect(code, f).not.toMatch(/\bBuffer\b/);
      expect(code, f).not.toMatch(/\bprocess\./);
      for (const m of code.matchAll(/from "([^"]+)"/g)) {
        const spec = m[1] as string;
        expect(spec.startsWith("./") || spec.startsWith("@noble/"), `${f} imports ${spec}`).toBe(true);
      }
    }
  });
});
