/**
 * `cowboy init [DIR] [--name NAME]`: scaffolds an actor project —
 *
 *     DIR/cowboy.json          project config: name, actor file, node URL
 *     DIR/actor.py             a counter actor in the cowboy_sdk style
 *     DIR/tests/test_actor.py  tests that deploy and call it (`cowboy test`: in the PVM, simulated chain)
 *     DIR/tests/conftest.py    the `counter` fixture they share
 *     DIR/README.md            the commands to run
 *     DIR/.gitignore
 *
 * Refuses to overwrite existing files. The actor is canonical source (LF, NFC),
 * so it deploys as written.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { CONFIG_FILE, DEFAULT_RPC } from "../chain/context.ts";
import { CliError } from "../errors.ts";
import { io } from "../io.ts";
import { paint } from "../ui.ts";

/** The scaffolded actor. */
export const ACTOR_TEMPLATE = `from cowboy_sdk import actor


@actor
class Counter:
    """A counter: anyone can add to it; it remembers who added last."""

    def __init__(self, start: int = 0):  # runs once, at deploy
        self.storage["count"] = start

    def increment(self, by: int = 1) -> int:  # a public handler
        if by <= 0:
            raise ValueError("by must be positive")
        self.storage["count"] += by
        return self.storage["count"]

    def get(self) -> int:
        return self.storage["count"]
`;

/** The scaffolded tests: `cowboy test` runs them in the PVM against a simulated chain. */
export const TEST_TEMPLATE = `"""Tests of actor.py: \`npx cowboy test\` runs them inside the PVM against a simulated
chain (the real state transition, a fresh chain per test). See docs/testing.md.

Parameters name fixtures: chain, accounts, alice, bob, carol, dave, eve, deploy, and the
@fixture functions of this file and conftest.py.
"""
from cowboy_test import raises, ActorError


def test_starts_at_the_init_argument(counter):
    assert counter.call("get") == 10


def test_increment_returns_the_new_count(counter, bob):
    receipt = counter.increment(5, sender=bob)  # a transaction in a new block
    assert receipt.value == 15
    assert counter.storage("count") == 15
    assert receipt.cycles > 0 and receipt.fee > 0


def test_rejects_non_positive_steps(counter):
    with raises(ActorError, match="positive") as failure:
        counter.increment(0)
    assert failure.value.type == "ValueError"
`;

/** Shared fixtures of the scaffolded tests. */
export const CONFTEST_TEMPLATE = `from cowboy_test import fixture


@fixture
def counter(deploy, alice):
    """actor.py deployed by alice with __init__(10)."""
    return deploy("actor.py", 10, sender=alice)
`;

function readme(name: string): string {
  return `# ${name}

A Cowboy actor project (made by \`cowboy init\`).

    npx cowboy devnet                      # in another terminal: a local chain
    npx cowboy deploy --dev 0              # deploys actor.py; prints its address
    npx cowboy send ADDRESS increment '[5]' --dev 0
    npx cowboy call ADDRESS get
    npx cowboy test                        # tests/ in the PVM against a simulated chain
`;
}

const GITIGNORE = `__pycache__/
.cowboy/
`;

/** Files of a new project named `name`, by relative path. */
export function projectFiles(name: string): Record<string, string> {
  return {
    [CONFIG_FILE]: `${JSON.stringify({ name, actor: "actor.py", rpc: DEFAULT_RPC }, null, 2)}\n`,
    "actor.py": ACTOR_TEMPLATE,
    "tests/test_actor.py": TEST_TEMPLATE,
    "tests/conftest.py": CONFTEST_TEMPLATE,
    "README.md": readme(name),
    ".gitignore": GITIGNORE,
  };
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function registerInit(program: Command): void {
  program
    .command("init")
    .description("scaffold an actor project: actor.py, tests/test_actor.py, cowboy.json")
    .argument("[dir]", "where to create it", ".")
    .option("--name <name>", "project name (default: the directory's name)")
    .option("--json", "print the created files as JSON")
    .action((dir: string, opts: { name?: string; json?: boolean }) => {
      const root = resolve(io().cwd(), dir);
      const name = opts.name ?? basename(root);
      if (!NAME.test(name)) {
        throw new CliError(
          "ERR_ARG",
          `project name '${name}' must start with a letter and use letters, digits, '_' or '-' (pass --name)`,
        );
      }
      const files = projectFiles(name);
      const clashes = Object.keys(files).filter((f) => existsSync(join(root, f)));
      if (clashes.length > 0) {
        throw new CliError(
          "ERR_EXISTS",
          `${clashes.map((f) => join(dir, f)).join(", ")} already exist${clashes.length === 1 ? "s" : ""}; choose an empty directory (cowboy init my-actor)`,
        );
      }
      for (const [file, text] of Object.entries(files)) {
        const path = join(root, file);
        try {
          mkdirSync(join(path, ".."), { recursive: true });
          writeFileSync(path, text, { flag: "wx" });
        } catch (err) {
          throw new CliError("ERR_FILE", `cannot write ${path}: ${(err as Error).message}`);
        }
      }
      if (opts.json) {
        io().stdout(`${JSON.stringify({ name, dir: root, files: Object.keys(files) }, null, 2)}\n`);
        return;
      }
      const rel = relative(io().cwd(), root) || ".";
      io().stdout(`${paint("green", "created")} ${name} in ${rel}\n`);
      for (const f of Object.keys(files)) io().stdout(`  ${f}\n`);
      io().stdout(
        `\nnext:\n${rel === "." ? "" : `  cd ${rel}\n`}  npx cowboy test              (the tests, on a simulated chain)\n  npx cowboy devnet            (in another terminal)\n  npx cowboy deploy --dev 0\n`,
      );
    });
}
