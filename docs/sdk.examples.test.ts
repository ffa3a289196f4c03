/**
 * Runs every ```ts example of docs/sdk.md as a real program (Node 22, type
 * stripping, `@cowboy/sdk` resolved from the workspace) and type-checks them
 * together, so the documentation cannot rot. Examples assert their own results.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DOC = readFileSync(join(ROOT, "docs", "sdk.md"), "utf8");
const BLOCKS = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
// A scratch directory whose node_modules is the workspace's, so `@cowboy/sdk`
// resolves as it does for a user (Node refuses to strip types under node_modules,
// hence not a cache directory inside it).
const DIR = mkdtempSync(join(tmpdir(), "cowboy-sdk-doc-"));
symlinkSync(join(ROOT, "node_modules"), join(DIR, "node_modules"), "dir");
writeFileSync(join(DIR, "package.json"), '{ "type": "module", "private": true }\n');
const FILES = BLOCKS.map((code, i) => {
  const file = join(DIR, `example-${i + 1}.ts`);
  writeFileSync(file, code);
  return file;
});

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe("docs/sdk.md examples", () => {
  it("has examples", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(6);
  });

  FILES.forEach((file, i) => {
    const firstLine =
      (BLOCKS[i] as string).split("\n").find((l) => l.startsWith("const ") || l.startsWith("let ")) ?? "";
    it(`example ${i + 1} runs (${firstLine.slice(0, 50)})`, () => {
      const r = spawnSync(process.execPath, [file], { encoding: "utf8", cwd: ROOT });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    });
  });

  it("the first example prints Appendix A Vector 2", () => {
    const r = spawnSync(process.execPath, [FILES[0] as string], { encoding: "utf8", cwd: ROOT });
    expect(r.stdout.trim()).toBe(
      "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100",
    );
  });

  it("the examples type-check (strict)", () => {
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const args = [
      tsc,
      "--noEmit",
      "--strict",
      "--noUncheckedIndexedAccess",
      "--target",
      "ES2023",
      "--module",
      "NodeNext",
      "--moduleResolution",
      "NodeNext",
      "--allowImportingTsExtensions",
      "--erasableSyntaxOnly",
      "--verbatimModuleSyntax",
      "--skipLibCheck",
      "--types",
      "node",
      ...FILES,
    ];
    const r = spawnSync(process.execPath, args, { encoding: "utf8", cwd: ROOT });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);
});
