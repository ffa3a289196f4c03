/**
 * Runs every ```ts example of docs/keys.md as a real program (Node 22, type
 * stripping) and type-checks them together, so the documentation cannot rot.
 * Examples import `@cowboy/sdk`; here that name is served by a shim that
 * re-exports the package and its `keys/` module (the shim stays correct once
 * the package index re-exports `keys/` itself: re-exporting the same binding
 * twice is allowed). Examples assert their own results.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const DOC = readFileSync(join(ROOT, "docs", "keys.md"), "utf8");
const BLOCKS = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const DIR = mkdtempSync(join(tmpdir(), "cowboy-keys-doc-"));
symlinkSync(join(ROOT, "node_modules"), join(DIR, "node_modules"), "dir");
writeFileSync(join(DIR, "package.json"), '{ "type": "module", "private": true }\n');
const KEYS_PATH = join(ROOT, "ts", "sdk", "src", "keys", "index.ts"); // absolute: Node and tsc both resolve it
writeFileSync(
  join(DIR, "cowboy-sdk.ts"),
  `export * from "@cowboy/sdk";\nexport * from ${JSON.stringify(KEYS_PATH)};\n`,
);
const FILES = BLOCKS.map((code, i) => {
  const file = join(DIR, `example-${i + 1}.ts`);
  writeFileSync(file, code.replaceAll('from "@cowboy/sdk";', 'from "./cowboy-sdk.ts";'));
  return file;
});

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe("docs/keys.md examples", () => {
  it("has examples, all importing @cowboy/sdk", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(4);
    for (const block of BLOCKS) expect(block).toContain('from "@cowboy/sdk";');
  });

  FILES.forEach((file, i) => {
    const first = (BLOCKS[i] as string).split("\n").find((l) => l.startsWith("const ")) ?? "";
    it(`example ${i + 1} runs (${first.slice(0, 50)})`, () => {
      const r = spawnSync(process.execPath, [file], { encoding: "utf8", cwd: ROOT });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    });
  });

  it("a failing assertion in an example would fail the test", () => {
    const file = join(DIR, "broken.ts");
    writeFileSync(
      file,
      'import assert from "node:assert/strict";\nimport { generateSecretKey } from "./cowboy-sdk.ts";\nassert.equal(generateSecretKey().length, 31);\n',
    );
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", cwd: ROOT });
    expect(r.status).not.toBe(0);
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
