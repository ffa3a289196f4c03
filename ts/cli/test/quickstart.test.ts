/**
 * docs/quickstart.md, followed verbatim on a fresh devnet: the `sh` blocks run in order
 * in one bash session (with `npx cowboy` bound to this checkout's CLI and COWBOY_RPC
 * pointing at the devnet this test starts in place of the "second terminal"), the
 * `python file=…` blocks are written to their files when the shell reaches them, and the
 * `python` block runs with cowboy-py from ./python. The `sh setup` block (npm run setup,
 * pip install) is what the test environment already did.
 *
 * Deploying needs the actor runtime in the native addon (`executeActor`); without it the
 * walk-through cannot succeed and the test is skipped (it says so).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../../sdk/test/devnet-process.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PAGE = readFileSync(join(ROOT, "docs", "quickstart.md"), "utf8");
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

interface Block {
  info: string;
  code: string;
}

const BLOCKS: Block[] = [...PAGE.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
  info: (m[1] as string).trim(),
  code: m[2] as string,
}));

/** The shell script of the page: sh blocks, with python file blocks written via heredocs. */
export function quickstartScript(blocks: readonly Block[]): string {
  const lines = [
    "set -euo pipefail",
    'npx() { if [ "$1" = cowboy ]; then shift; node "$COWBOY_CLI" "$@"; else command npx "$@"; fi; }',
  ];
  for (const b of blocks) {
    if (b.info === "sh") lines.push(b.code);
    const file = /^python file=(\S+)$/.exec(b.info)?.[1];
    if (file !== undefined) lines.push(`cat > ${file} <<'COWBOY_EOF'\n${b.code}COWBOY_EOF`);
    if (b.info === "python") lines.push(`python3 - <<'COWBOY_EOF'\n${b.code}COWBOY_EOF`);
  }
  return `${lines.join("\n")}\n`;
}

describe("docs/quickstart.md", () => {
  it("has the blocks the walk-through needs", () => {
    const infos = BLOCKS.map((b) => b.info);
    expect(infos).toContain("sh setup");
    expect(infos).toContain("sh terminal-2");
    expect(infos).toContain("python file=actor.py");
    expect(infos).toContain("python file=tests/test_actor.py");
    expect(infos.filter((i) => i === "sh").length).toBeGreaterThanOrEqual(4);
    expect(infos).toContain("python");
    // the script is well-formed bash
    const r = spawnSync("bash", ["-n"], { input: quickstartScript(BLOCKS), encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  describe.skipIf(!hasRuntime)("verbatim on a fresh devnet (needs the actor runtime in the addon)", () => {
    let devnet: Devnet;
    beforeAll(async () => {
      devnet = await startDevnet(["--block-time", "300"]);
    }, 90_000);
    afterAll(async () => {
      await devnet?.stop();
    });

    it("deploys the heartbeat actor, its timer fires, calls and Python work", () => {
      const dir = mkdtempSync(join(tmpdir(), "cowboy-quickstart-"));
      const script = join(dir, "quickstart.sh");
      writeFileSync(script, quickstartScript(BLOCKS));
      const r = spawnSync("bash", [script], {
        cwd: dir,
        encoding: "utf8",
        timeout: 240_000,
        env: {
          ...process.env,
          COWBOY_RPC: devnet.http,
          COWBOY_CLI: join(ROOT, "ts", "cli", "bin", "cowboy.js"),
          PYTHONPATH: join(ROOT, "python"),
          NO_COLOR: "1",
        },
      });
      // `cowboy test` names the devnet it started on stderr; nothing else may appear there
      expect(r.stderr.replace(/^cowboy test: fresh devnet at \S+\n/m, "")).toBe("");
      expect(r.status).toBe(0);
      const out = r.stdout;
      expect(out).toMatch(/created heartbeat/);
      expect(out).toMatch(/chain id\s+7777/);
      expect(out).toMatch(/^deployed 0x[0-9a-f]{40}$/m);
      expect(out).toMatch(/^0x[0-9a-f]{40}$/m); // echo "$ACTOR"
      expect(out).toMatch(/beat\s+2 blocks/); // the pending interval timer
      const beats = Number(/^result\s+(\d+)$/m.exec(out)?.[1] ?? "0");
      expect(beats).toBeGreaterThanOrEqual(1); // it fired during `sleep 5`
      expect(out).toMatch(/Beat\s+\d+/); // logs
      expect(out).toMatch(/status\s+success/); // send
      expect(out).toMatch(/^deployed 0x[0-9a-f]{40}$/m); // Python
      expect(out).toMatch(/beats so far: \d+/);
      expect(out).toMatch(/1 passed/); // cowboy test
    }, 300_000);
  });
});
