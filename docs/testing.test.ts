/**
 * docs/testing.md and the `cowboy test` section of docs/cli.md, executed: the page's
 * `python file=PATH` blocks are written to a fresh project in order, and at each
 * `text output` block the preceding `sh` command (`npx cowboy test …`) runs; the first output
 * block must equal the command's output (apart from the time), later ones (excerpts of a
 * failure report) must appear in it verbatim. cli.md's `python cowboy_test` blocks run as
 * test files next to the example actors and must pass.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { setIo } from "../ts/cli/src/io.ts";
import { main } from "../ts/cli/src/main.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ready = (() => {
  const n = createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>;
  return typeof n.pvmTest === "function" && typeof n.executeActor === "function";
})();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function cowboy(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const restore = setIo({
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stdout += t;
    },
    env: { ...process.env, NO_COLOR: "1" },
    cwd: () => cwd,
    isTTY: false,
  });
  try {
    return { code: await main(args), stdout };
  } finally {
    restore();
  }
}

/** `in 0.31s` → `in N.NNs` (same width, so the centred summary line keeps its shape). */
const untimed = (s: string) => s.replace(/ in \d+\.\d\ds /g, " in N.NNs ");

interface Block {
  lang: string;
  info: string;
  body: string;
}
const blocks = (md: string): Block[] =>
  [...md.matchAll(/```(\w+)([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1] as string,
    info: (m[2] as string).trim(),
    body: m[3] as string,
  }));

describe.skipIf(!ready)("docs/testing.md", () => {
  it("runs as written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-docs-testing-"));
    dirs.push(dir);
    let command: string[] | null = null;
    let outputs = 0;
    for (const b of blocks(readFileSync(join(ROOT, "docs", "testing.md"), "utf8"))) {
      if (b.lang === "python" && b.info.startsWith("file=")) {
        const path = join(dir, b.info.slice(5));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, b.body);
      } else if (b.lang === "sh") {
        const words = b.body.trim().split(/\s+/);
        expect(words.slice(0, 3)).toEqual(["npx", "cowboy", "test"]);
        command = words.slice(2);
      } else if (b.lang === "text" && b.info === "output") {
        expect(command).not.toBeNull();
        const r = await cowboy(command as string[], dir);
        if (outputs === 0) {
          expect(untimed(r.stdout)).toBe(untimed(b.body));
          expect(r.code).toBe(0);
        } else {
          expect(r.stdout).toContain(b.body);
          expect(r.code).toBe(1);
        }
        outputs += 1;
      }
    }
    expect(outputs).toBe(2);
  }, 120_000);
});

describe.skipIf(!ready)("docs/cli.md cowboy test examples", () => {
  it("pass against the example actors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-docs-cli-"));
    dirs.push(dir);
    mkdirSync(join(dir, "tests"));
    for (const f of readdirSync(join(ROOT, "examples")))
      if (f.endsWith(".py")) copyFileSync(join(ROOT, "examples", f), join(dir, f));
    const examples = blocks(readFileSync(join(ROOT, "docs", "cli.md"), "utf8")).filter(
      (b) => b.lang === "python" && b.info === "cowboy_test",
    );
    expect(examples.length).toBeGreaterThanOrEqual(1);
    examples.forEach((b, i) => {
      writeFileSync(join(dir, "tests", `test_cli_${i + 1}.py`), b.body);
    });
    const r = await cowboy(["test"], dir);
    expect(r.stdout).not.toMatch(/failed|error/);
    expect(r.code).toBe(0);
  }, 120_000);
});
