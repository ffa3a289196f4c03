/** `cowboy pvm run` end to end: the real CLI in a child process, through the native addon. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "cowboy.js");

function program(source: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "cowboy-pvm-")), "prog.py");
  writeFileSync(file, source);
  return file;
}

function cowboy(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("cowboy pvm run", () => {
  it("prints the program's output and exits 0", () => {
    const file = program('def greet(n):\n    return f"hello {n}!"\nprint(greet("cowboy"), 6 * 7)\n');
    expect(cowboy(["pvm", "run", file])).toEqual({ code: 0, stdout: "hello cowboy! 42\n", stderr: "" });
  });

  it("ends an uncaught exception like CPython: traceback, last line Type: message, exit 1", () => {
    const file = program("print('before')\nx = {}\nprint(x['missing'])\n");
    const r = cowboy(["pvm", "run", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("before\n");
    expect(r.stderr.trim().split("\n").at(-1)).toBe("KeyError: 'missing'");
    expect(r.stderr).toMatch(/line 3/);
  });

  it("--json reports output, error, cycles and cells; the same program costs the same every time", () => {
    const file = program("total = 0\nfor i in range(1000):\n    total += i\nprint(total)\n");
    const a = JSON.parse(cowboy(["pvm", "run", "--json", file]).stdout);
    const b = JSON.parse(cowboy(["pvm", "run", "--json", file]).stdout);
    expect(a.stdout).toBe("499500\n");
    expect(a.error).toBeNull();
    expect(a.cycles).toBeGreaterThan(1000);
    expect(a.cells).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it("stops a runaway program at the cycle limit with OutOfCycles", () => {
    const file = program("while True:\n    pass\n");
    const r = cowboy(["pvm", "run", "--cycles-limit", "100000", "--json", file]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.error.type).toBe("OutOfCycles");
    expect(out.cycles).toBeLessThanOrEqual(100000);
  });

  it("refuses bad arguments with a typed error", () => {
    expect(cowboy(["pvm", "run", "--cycles-limit", "lots", program("pass\n")]).stderr).toMatch(/ERR_ARG/);
    expect(cowboy(["pvm", "run", "/nonexistent/file.py"]).stderr).toMatch(/ERR_FILE/);
  });
});
