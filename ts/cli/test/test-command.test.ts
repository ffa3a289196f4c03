/**
 * `cowboy test` on a project made by `cowboy init`: the scaffolded tests pass against the
 * fresh devnet the command starts; a wrong expectation fails with pytest's report of the
 * values and exit status 1. Needs the actor runtime in the addon and python3 with pytest.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setIo } from "../src/io.ts";
import { main } from "../src/main.ts";

const hasRuntime = (() => {
  try {
    return (
      typeof (createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>).executeActor ===
      "function"
    );
  } catch {
    return false;
  }
})();
const hasPytest = spawnSync("python3", ["-c", "import pytest, coincurve"], { encoding: "utf8" }).status === 0;

async function cowboy(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const restore = setIo({
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: { ...process.env, NO_COLOR: "1" },
    cwd: () => cwd,
    isTTY: false,
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    restore();
  }
}

describe.skipIf(!hasRuntime || !hasPytest)("cowboy test", () => {
  it("runs the scaffolded tests on a fresh devnet, and reports a failing one with its values", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-test-cmd-"));
    expect((await cowboy(["init", "counter"], dir)).code).toBe(0);
    const project = join(dir, "counter");
    const ok = await cowboy(["test"], project);
    expect(ok.stdout).toMatch(/3 passed/);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/cowboy test: fresh devnet at http:\/\/127\.0\.0\.1:\d+\//);

    appendFileSync(
      join(project, "tests", "test_actor.py"),
      '\n\ndef test_wrong_expectation(deploy):\n    counter = deploy("actor.py", 1)\n    assert counter.send("increment", 2).value == 4\n',
    );
    const bad = await cowboy(["test", ".", "--", "-q"], project);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/assert 3 == 4/);
    expect(bad.stdout).toMatch(/Receipt\(status='success', value=3/);
    expect(bad.stdout).toMatch(/1 failed, 3 passed/);
  }, 180_000);

  it("says what is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "cowboy-test-empty-"));
    const r = await cowboy(["test"], empty);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /ERR_NO_TESTS: no tests\/ directory in .* \(make a project with `cowboy init`\)/,
    );
  });
});
