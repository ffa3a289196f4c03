/**
 * The `cowboy test` engine end to end: Python tests run in the PVM (the addon's `pvmTest`)
 * against the real state transition function. Covers passing and failing projects, failure
 * reports that point at the actor's line, pytest-style assert messages, fixtures (conftest,
 * in-file, yield teardown, errors), timers firing after `chain.advance`, cycle costs,
 * balances, `-k` and the JSON report; and the example actors' own tests.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  finalReport,
  HARNESS_SOURCE,
  jsonReport,
  matchesFilter,
  PLAIN,
  percentDone,
  progress,
  type RunSummary,
  runTests,
} from "./index.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const native = createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>;
const ready = typeof native.pvmTest === "function" && typeof native.executeActor === "function";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project in a temporary directory: `files` maps relative paths to contents. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-testing-"));
  dirs.push(dir);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

const outcomes = (s: RunSummary) => Object.fromEntries(s.results.map((r) => [r.name, r.outcome]));

const COUNTER = `from cowboy_sdk import actor, ctx, emit, set_timer


@actor
class Counter:
    def __init__(self, start=0):
        self.storage["count"] = start

    def add(self, by):
        if by <= 0:
            raise ValueError("by must be positive")
        self.storage["count"] = self.storage["count"] + by
        emit("Added", {"by": by})
        return self.storage["count"]

    def buggy(self):
        total = self.storage["count"]
        return total // 0

    def arm(self, blocks):
        set_timer(ctx.block_height + blocks, "tick")

    def tick(self, data=None):
        self.storage["ticks"] = self.storage.get("ticks", 0) + 1

    def get(self):
        return self.storage["count"]
`;

describe.skipIf(!ready)("cowboy test engine", () => {
  it("runs passing tests with fixtures, timers, balances and cycle costs", () => {
    const dir = project({
      "counter.py": COUNTER,
      "tests/conftest.py": `from cowboy_test import fixture

LOG = []


@fixture
def counter(deploy):
    # funded: an actor pays for its own timer fires
    return deploy("counter.py", 10, value=100 * 10**9)


@fixture
def logged():
    LOG.append("setup")
    yield LOG
    LOG.append("teardown")
`,
      "tests/test_counter.py": `from cowboy_test import fixture, raises, ActorError


@fixture
def doubled(counter):
    counter.add(counter.call("get"))
    return counter


def test_add_returns_the_new_count(counter, alice):
    r = counter.add(5, sender=alice)
    assert r.ok and r.value == 15
    assert r.events == [("Added", {"by": 5})]
    assert counter.storage("count") == 15


def test_in_file_fixture_over_conftest(doubled):
    assert doubled.call("get") == 20


def test_errors_carry_the_actor_type(counter):
    with raises(ActorError, match="positive") as e:
        counter.add(0)
    assert e.value.type == "ValueError"
    with raises("ValueError"):
        counter.add(-1)


def test_timers_fire_after_advance(chain, counter):
    counter.arm(3)
    start = chain.height
    assert chain.advance(2) == []
    fired = chain.advance(1)
    assert chain.height == start + 3
    assert [r.handler for r in fired] == ["tick"]
    assert fired[0].kind == "timer" and fired[0].ok
    assert counter.storage("ticks") == 1


def test_balances_and_fees(chain, alice, bob):
    before = (alice.balance, bob.balance)
    r = chain.transfer(bob, 7, sender=alice)
    assert bob.balance == before[1] + 7
    assert alice.balance == before[0] - 7 - r.fee
    assert r.fee > 0


def test_cycle_costs_are_deterministic(counter):
    a = counter.add(1)
    b = counter.add(1)
    assert a.cycles == b.cycles
    assert 1000 < a.cycles < 5_000_000


def test_cycle_limits(counter):
    from cowboy_test import TransactionRejected
    used = counter.add(1).cycles
    r = counter.send("add", 1, cycles_limit=used - 1, check=False)
    assert r.status == "outOfCycles" and r.error_type == "OutOfCycles"
    assert r.cycles == used - 1 and r.fee > 0
    assert counter.call("get") == 11
    with raises(TransactionRejected):
        counter.send("add", 1, cycles_limit=10)


def test_yield_fixture(logged):
    assert logged == ["setup"]


def test_teardown_ran_before_the_next_test(logged):
    # every test is a fresh PVM program: module state does not leak between tests
    assert logged == ["setup"]
`,
    });
    const s = runTests({ root: dir, cwd: dir });
    expect(s.results.map((r) => [r.name, r.outcome, r.failure?.message ?? ""])).toEqual([
      ["test_add_returns_the_new_count", "passed", ""],
      ["test_in_file_fixture_over_conftest", "passed", ""],
      ["test_errors_carry_the_actor_type", "passed", ""],
      ["test_timers_fire_after_advance", "passed", ""],
      ["test_balances_and_fees", "passed", ""],
      ["test_cycle_costs_are_deterministic", "passed", ""],
      ["test_cycle_limits", "passed", ""],
      ["test_yield_fixture", "passed", ""],
      ["test_teardown_ran_before_the_next_test", "passed", ""],
    ]);
    expect([s.passed, s.failed, s.errors]).toEqual([9, 0, 0]);
    expect(s.results[0]?.nodeid).toBe("tests/test_counter.py::test_add_returns_the_new_count");
    expect(finalReport(s, PLAIN)).toMatch(/=+ 9 passed in \d+\.\d\ds =+\n$/);
    expect(progress(s.results[0] as never, true)).toBe(
      "tests/test_counter.py::test_add_returns_the_new_count PASSED\n",
    );
  });

  it("collects every file first and reports progress against the total", () => {
    const dir = project({
      "tests/test_a.py":
        "def test_one():\n    assert 1\n\ndef test_two():\n    assert 2\n\ndef test_three():\n    assert 3\n",
      "tests/test_b.py": "import no_such_module\n",
      "tests/test_c.py": "def test_four():\n    assert 4\n",
    });
    const marks: string[] = [];
    const s = runTests({
      root: dir,
      cwd: dir,
      onFileDone: (file, p) => marks.push(`${file} ${p.done}/${p.total} ${percentDone(p)}`),
    });
    expect(marks).toEqual([
      "tests/test_a.py 3/5 [ 60%]",
      "tests/test_b.py 4/5 [ 80%]",
      "tests/test_c.py 5/5 [100%]",
    ]);
    expect([s.passed, s.failed, s.errors]).toEqual([4, 0, 1]);
  });

  it("reports failures pytest-style: the assert's values and the actor's line", () => {
    const dir = project({
      "counter.py": COUNTER,
      "tests/test_fail.py": `from cowboy_test import fixture


def test_wrong_expectation(deploy):
    counter = deploy("counter.py", 1)
    assert counter.call("get") + 1 == 3


def test_actor_bug(deploy):
    counter = deploy("counter.py", 1)
    counter.buggy()


def test_passes():
    assert [1, 2] == [1, 2]


@fixture
def broken():
    raise RuntimeError("fixture exploded")


def test_fixture_error(broken):
    pass


def test_unknown_fixture(nobody):
    pass
`,
    });
    const s = runTests({ root: dir, cwd: dir });
    expect(outcomes(s)).toEqual({
      test_wrong_expectation: "failed",
      test_actor_bug: "failed",
      test_passes: "passed",
      test_fixture_error: "error",
      test_unknown_fixture: "error",
    });
    const report = finalReport(s, PLAIN);
    // the assert shows both evaluated operands and points at the test's line
    expect(report).toContain(
      'tests/test_fail.py:6: in test_wrong_expectation\n>   assert counter.call("get") + 1 == 3\nE   assert 2 == 3',
    );
    // the actor failure points at the actor's file and line, with the source
    expect(report).toContain("tests/test_fail.py:11: in test_actor_bug\n    counter.buggy()");
    expect(report).toContain("counter.py:18: in buggy\n>   return total // 0");
    expect(report).toContain("E   ZeroDivisionError: integer division or modulo by zero");
    expect(report).toContain("setup of test_fixture_error");
    expect(report).toContain("E   RuntimeError: fixture exploded");
    expect(report).toMatch(/fixture 'nobody' not found \(available: .*alice.*\)/);
    expect(report).toContain(
      "FAILED tests/test_fail.py::test_actor_bug - ZeroDivisionError: integer division or modulo by zero",
    );
    expect(report).toMatch(/=+ 2 failed, 1 passed, 2 errors in \d+\.\d\ds =+\n$/);
    const json = jsonReport(s) as { failed: number; tests: { name: string; error: unknown }[] };
    expect(json.failed).toBe(2);
    expect(json.tests.find((t) => t.name === "test_actor_bug")?.error).toMatchObject({
      type: "ActorError",
      when: "call",
      actor: { type: "ZeroDivisionError", traceback: [{ file: "counter.py", line: 18, func: "buggy" }] },
    });
  });

  it("keeps the test modules out of reach of actors, even while a test runs", () => {
    const dir = project({
      "sneaky.py": `from cowboy_sdk import actor


@actor
class Sneaky:
    def __init__(self):
        pass

    def peek(self, name):
        if name == "bridge":
            import _cowboy_bridge
        else:
            import cowboy_test
        return True
`,
      "tests/test_sneaky.py": `from cowboy_test import raises


def test_actors_cannot_import_the_test_modules(deploy):
    sneaky = deploy("sneaky.py")
    for name in ["bridge", "harness"]:
        with raises("ImportError", match="not available in the PVM"):
            sneaky.peek(name)
`,
    });
    const s = runTests({ root: dir, cwd: dir });
    expect(s.results.map((r) => [r.outcome, r.failure?.message ?? ""])).toEqual([["passed", ""]]);
  });

  it("warns when the chain drops a timer its actor cannot pay for", () => {
    const dir = project({
      "counter.py": COUNTER,
      "tests/test_timer.py": `def test_unfunded(chain, deploy):
    counter = deploy("counter.py")
    counter.arm(2)
    assert chain.advance(3) == []
    assert counter.storage("ticks") is None
`,
    });
    const s = runTests({ root: dir, cwd: dir });
    expect(s.passed).toBe(1);
    expect(s.results[0]?.warnings).toEqual([
      expect.stringMatching(
        /^timer 'tick' of counter\.py \(due at height \d+\) was dropped at height \d+ without firing/,
      ),
    ]);
    expect(finalReport(s, PLAIN)).toMatch(
      /=+ warnings summary =+\ntests\/test_timer\.py::test_unfunded\n {2}timer 'tick'/,
    );
  });

  it("reports a file that does not import as a collection error", () => {
    const dir = project({ "tests/test_bad.py": "def test_x(:\n    pass\n" });
    const s = runTests({ root: dir, cwd: dir });
    expect(s.errors).toBe(1);
    expect(s.results[0]?.failure?.type).toBe("SyntaxError");
  });

  it("has editor stubs for every public name of the harness", () => {
    const all = /__all__ = \[([\s\S]*?)\]/.exec(HARNESS_SOURCE)?.[1] ?? "";
    const names = [...all.matchAll(/"(\w+)"/g)].map((m) => m[1] as string);
    expect(names.length).toBeGreaterThan(10);
    const stub = readFileSync(join(ROOT, "python", "stubs", "cowboy_test", "__init__.pyi"), "utf8");
    for (const n of names) expect(stub).toMatch(new RegExp(`^(class|def) ${n}\\b|^${n} = `, "m"));
  });

  it("parametrizes tests and stops at the first failure with exitFirst", () => {
    const dir = project({
      "tests/test_params.py": `from cowboy_test import parametrize


@parametrize("a, b, total", [(1, 2, 3), (2, 2, 5), ("x", "y", "xy")])
def test_add(a, b, total):
    assert a + b == total


@parametrize("n", [1, 2])
@parametrize("m", [10, 20])
def test_grid(n, m, chain):
    assert chain.height == 0 and n * m > 0
`,
    });
    const s = runTests({ root: dir, cwd: dir });
    expect(s.results.map((r) => [r.name, r.outcome])).toEqual([
      ["test_add[1-2-3]", "passed"],
      ["test_add[2-2-5]", "failed"],
      ["test_add[x-y-xy]", "passed"],
      ["test_grid[10-1]", "passed"],
      ["test_grid[10-2]", "passed"],
      ["test_grid[20-1]", "passed"],
      ["test_grid[20-2]", "passed"],
    ]);
    expect(s.results[1]?.failure?.message).toBe("assert 4 == 5");
    const first = runTests({ root: dir, cwd: dir, exitFirst: true });
    expect(first.results.map((r) => r.outcome)).toEqual(["passed", "failed"]);
    const k = runTests({ root: dir, cwd: dir, filter: "grid[20" });
    expect(k.passed).toBe(2);
  });

  it("selects tests with -k", () => {
    expect(matchesFilter("t.py::test_transfer", "transfer")).toBe(true);
    expect(matchesFilter("t.py::test_transfer", "not transfer")).toBe(false);
    expect(matchesFilter("t.py::test_approve", "transfer or approve")).toBe(true);
    expect(matchesFilter("t.py::test_approve", "approve and not t.py")).toBe(false);
    const dir = project({
      "tests/test_k.py": "def test_one():\n    pass\n\ndef test_two():\n    assert False\n",
    });
    const s = runTests({ root: dir, cwd: dir, filter: "one" });
    expect([s.passed, s.failed, s.deselected]).toEqual([1, 0, 1]);
  });

  it("passes the example actors' tests (examples/tests)", () => {
    const s = runTests({ root: join(ROOT, "examples"), cwd: ROOT });
    const bad = s.results.filter((r) => r.outcome !== "passed");
    expect(bad.map((r) => `${r.nodeid}\n${finalReport({ ...s, results: [r] })}`)).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(20);
    expect(new Set(s.results.map((r) => r.file.replace(/^.*\//, "")))).toEqual(
      new Set([
        "test_auction.py",
        "test_dca.py",
        "test_escrow.py",
        "test_lottery.py",
        "test_oracle.py",
        "test_token.py",
      ]),
    );
  });
});
