/**
 * Every runnable example in the documentation runs as a test, so the docs cannot rot:
 * each ```ts block of docs/*.md (and python/README.md's ```python blocks are run by pytest)
 * is written to a scratch module that resolves `@cowboy/*` packages like a user's project,
 * run with Node 22 (it must exit 0 with nothing on stderr; examples assert their own
 * results), and all blocks are type-checked together in strict mode.
 *
 * A block fenced as "```ts sketch" is an API outline, shown but not run.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DOCS = join(ROOT, "docs");
// Node refuses to strip types under node_modules, so the scratch directory is outside it
// and links the workspace's node_modules.
const DIR = mkdtempSync(join(tmpdir(), "cowboy-doc-examples-"));
symlinkSync(join(ROOT, "node_modules"), join(DIR, "node_modules"), "dir");
writeFileSync(join(DIR, "package.json"), '{ "type": "module", "private": true }\n');

interface Example {
  doc: string;
  index: number;
  file: string;
  code: string;
}

const EXAMPLES: Example[] = readdirSync(DOCS)
  .filter((f) => f.endsWith(".md"))
  .sort()
  .flatMap((doc) =>
    [...readFileSync(join(DOCS, doc), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => {
      const file = join(DIR, `${doc.replace(/\.md$/, "")}-${i + 1}.ts`);
      writeFileSync(file, m[1] as string);
      return { doc, index: i + 1, file, code: m[1] as string };
    }),
  );

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe("documentation examples", () => {
  it("exist", () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(10);
  });

  for (const ex of EXAMPLES) {
    it(`docs/${ex.doc} example ${ex.index} runs`, () => {
      const r = spawnSync(process.execPath, [ex.file], { encoding: "utf8", cwd: ROOT, timeout: 60_000 });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    });
  }

  it("a failing assertion in an example fails its test", () => {
    const file = join(DIR, "broken.ts");
    writeFileSync(file, 'import assert from "node:assert/strict";\nassert.equal(1 + 1, 3);\n');
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", cwd: ROOT });
    expect(r.status).not.toBe(0);
  });

  it("type-check (strict)", () => {
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const flags = [
      "--noEmit",
      "--strict",
      "--noUncheckedIndexedAccess",
      "--target",
      "ES2023",
      "--module",
      "NodeNext",
    ];
    const more = ["--moduleResolution", "NodeNext", "--allowImportingTsExtensions", "--erasableSyntaxOnly"];
    const last = ["--verbatimModuleSyntax", "--skipLibCheck", "--types", "node"];
    const r = spawnSync(process.execPath, [tsc, ...flags, ...more, ...last, ...EXAMPLES.map((e) => e.file)], {
      encoding: "utf8",
      cwd: ROOT,
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 180_000);
});
