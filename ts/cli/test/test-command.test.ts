/**
 * `cowboy test` on a project made by `cowboy init`: the scaffolded tests pass in the PVM
 * against a simulated chain; a wrong expectation fails with the compared values and exit
 * status 1, and a failing actor call points at the actor's line; `-k`, `-v`, `--json`.
 * Needs the addon with the actor runtime and `pvmTest`.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { setIo } from "../src/io.ts";
import { main } from "../src/main.ts";

const ready = (() => {
  try {
    const n = createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>;
    return typeof n.executeActor === "function" && typeof n.pvmTest === "function";
  } catch {
    return false;
  }
})();

async function cowboy(
  args: string[],
  cwd: string,
  env: Record<string, string> = { NO_COLOR: "1" },
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
    env: { ...process.env, ...env },
    cwd: () => cwd,
    isTTY: false,
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    restore();
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!ready)("cowboy test", () => {
  it("runs the scaffolded tests in the PVM, and reports failures with values and the actor's line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-test-cmd-"));
    dirs.push(dir);
    expect((await cowboy(["init", "counter"], dir)).code).toBe(0);
    const project = join(dir, "counter");
    const ok = await cowboy(["test"], project);
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toMatch(/^tests\/test_actor\.py \.\.\. {2}\[100%\]\n/);
    expect(ok.stdout).toMatch(/=+ 3 passed in \d+\.\d\ds =+\n$/);
    expect(ok.code).toBe(0);
    // the project directory as an argument, from its parent
    const fromParent = await cowboy(["test", "counter", "-v"], dir);
    expect(fromParent.stdout).toContain("tests/test_actor.py::test_increment_returns_the_new_count PASSED\n");
    expect(fromParent.code).toBe(0);

    appendFileSync(
      join(project, "tests", "test_actor.py"),
      "\n\ndef test_wrong_expectation(counter):\n    assert counter.increment(2).value == 13\n\n\ndef test_actor_failure(counter):\n    counter.increment(-3)\n",
    );
    const bad = await cowboy(["test"], project);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^tests\/test_actor\.py \.\.\.FF {2}\[100%\]\n/);
    expect(bad.stdout).toContain(
      "tests/test_actor.py:28: in test_wrong_expectation\n>   assert counter.increment(2).value == 13\nE   assert 12 == 13\n",
    );
    expect(bad.stdout).toContain(
      'tests/test_actor.py:32: in test_actor_failure\n    counter.increment(-3)\n  (the actor call failed inside the chain:)\nactor.py:13: in increment\n>   raise ValueError("by must be positive")\nE   ValueError: by must be positive\n',
    );
    expect(bad.stdout).toMatch(/=+ 2 failed, 3 passed in \d+\.\d\ds =+\n$/);

    const only = await cowboy(["test", "-k", "wrong"], project);
    expect(only.stdout).toMatch(/1 failed, 4 deselected/);
    expect(only.code).toBe(1);

    const json = await cowboy(["test", "--json", "-k", "actor_failure or starts"], project);
    const parsed = JSON.parse(json.stdout) as {
      passed: number;
      failed: number;
      deselected: number;
      tests: {
        name: string;
        outcome: string;
        error: { actor: { traceback: { file: string; line: number }[] } } | null;
      }[];
    };
    expect([parsed.passed, parsed.failed, parsed.deselected]).toEqual([1, 1, 3]);
    expect(parsed.tests.find((t) => t.name === "test_actor_failure")?.error?.actor.traceback).toEqual([
      { file: "actor.py", line: 13, func: "increment" },
    ]);
    expect(json.code).toBe(1);

    // colours when forced
    const coloured = await cowboy(["test", "-k", "starts"], project, { FORCE_COLOR: "1" });
    expect(coloured.stdout).toContain("\u001b[32m.\u001b[39m");
  }, 180_000);

  it("says what is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "cowboy-test-empty-"));
    dirs.push(empty);
    const r = await cowboy(["test"], empty);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /ERR_NO_TESTS: no tests\/ directory in .* \(make a project with `cowboy init`\)/,
    );
    const missing = await cowboy(["test", "nope.py"], empty);
    expect(missing.stderr).toMatch(/ERR_NO_TESTS: no such file or directory: nope\.py/);
  });

  it("runs the example actors' tests (cowboy test examples)", async () => {
    const root = join(import.meta.dirname, "..", "..", "..");
    const r = await cowboy(["test", "examples"], root);
    expect(r.stdout).toMatch(/=+ \d+ passed in/);
    expect(r.stdout).not.toMatch(/failed|error/);
    expect(r.code).toBe(0);
  }, 120_000);
});
