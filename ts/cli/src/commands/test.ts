/**
 * `cowboy test [DIR] [-- pytest args…]`: runs an actor project's Python tests
 * (`tests/test_*.py`, plain `assert`, pytest output) with the fixtures of
 * `cowboy_py.testing` (`cowboy`, `accounts`, `chain`, `deploy`) against a fresh
 * devnet that this command starts (a temporary data directory, a free port, a block
 * every 100 ms) and stops afterwards — or against `--rpc URL`. The tests run in
 * CPython; the actors they deploy run in the real PVM on that chain. Exit status is
 * pytest's (0 all passed, 1 failures).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { CliError, CliExit } from "../errors.ts";
import { io } from "../io.ts";
import { paint } from "../ui.ts";

/** The repository's python/ directory (cowboy-py), for checkouts where it is not pip-installed. */
const PYTHON_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "python");

interface TestOpts {
  rpc?: string;
  python?: string;
  blockTime: string;
}

/** Starts cowboyd on a free port in a fresh directory; resolves once it serves JSON-RPC. */
async function startDevnet(blockTime: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const cowboyd = fileURLToPath(import.meta.resolve("@cowboy/node/cowboyd"));
  const dir = mkdtempSync(join(tmpdir(), "cowboy-test-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [cowboyd, "--data-dir", dir, "--rpc-port", "0", "--block-time", blockTime, "--log-level", "warn"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let out = "";
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(
      () => rej(new CliError("ERR_DEVNET", `the devnet did not start in 60 s:\n${out}`)),
      60_000,
    );
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /JSON-RPC\s+(http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      rej(new CliError("ERR_DEVNET", `the devnet exited (${code}) before serving:\n${out}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });
  return { url, stop };
}

function runPytest(
  python: string,
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<number> {
  return new Promise((res, rej) => {
    const child = spawn(python, ["-m", "pytest", "-p", "cowboy_py.testing", ...args], {
      cwd,
      env: { ...process.env, ...io().env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (c: Buffer) => io().stdout(c.toString()));
    child.stderr?.on("data", (c: Buffer) => io().stderr(c.toString()));
    child.once("error", (err) =>
      rej(
        new CliError(
          "ERR_PYTHON",
          `cannot run ${python}: ${err.message} (install Python 3.10+, or pass --python)`,
        ),
      ),
    );
    child.once("exit", (code) => res(code ?? 1));
  });
}

export function registerTest(program: Command): void {
  program
    .command("test")
    .description("run an actor project's Python tests against a fresh devnet (pytest, cowboy_py fixtures)")
    .argument("[dir]", "the project", ".")
    .argument("[pytest...]", "more pytest arguments, after -- (e.g. -- -k increment -x)")
    .option("--rpc <url>", "use this node instead of starting a fresh devnet")
    .option("--python <exe>", "the Python interpreter", "python3")
    .option("--block-time <ms>", "block interval of the fresh devnet", "100")
    .action(async (dir: string, extra: string[], opts: TestOpts) => {
      const root = resolve(io().cwd(), dir);
      const tests = join(root, "tests");
      if (!existsSync(tests)) {
        throw new CliError(
          "ERR_NO_TESTS",
          `no tests/ directory in ${root} (make a project with \`cowboy init\`)`,
        );
      }
      const node = opts.rpc === undefined ? await startDevnet(opts.blockTime) : null;
      const url = opts.rpc ?? (node as { url: string }).url;
      if (node !== null) io().stderr(`${paint("dim", `cowboy test: fresh devnet at ${url}`)}\n`);
      const pythonPath = [PYTHON_DIR, io().env.PYTHONPATH]
        .filter((p) => p !== undefined && p !== "")
        .join(delimiter);
      let code: number;
      try {
        code = await runPytest(
          opts.python ?? "python3",
          root,
          ["--rootdir", root, "-p", "no:cacheprovider", tests, ...extra],
          {
            COWBOY_RPC: url,
            PYTHONPATH: pythonPath,
          },
        );
      } finally {
        await node?.stop();
      }
      if (code !== 0) throw new CliExit(code);
    });
}
