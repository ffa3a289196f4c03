#!/usr/bin/env python3
"""(Re)generate the `.expected` files of the PVM differential corpus with CPython 3.11.

Contract with the Rust harness (crates/pvm-core/tests):

* `tests/programs/<area>/<name>.py` is run by the PVM; its stdout must equal
  `<name>.expected` byte for byte.
* `<name>.expected` is the exact CPython 3.11 stdout of the program, followed --
  only if the program ended with an uncaught exception -- by one final line
  `!! <ExceptionType>: <str(exc)>`.

The same format is used for the benchmark kernels in `bench/pvm/kernels/`.

Every program is run twice, with two different PYTHONHASHSEED values; any
difference means the program leaks hash order (set iteration, str hashes) and
is rejected, because the PVM departs from CPython there on purpose. A few
static lints catch the other documented departures (imports other than
`math`, `id()`, address-bearing default reprs).

Usage:
    python3 gen_expected.py              # regenerate every .expected (corpus + kernels)
    python3 gen_expected.py --check      # only compare, exit 1 on any difference
    python3 gen_expected.py PATH...      # only these .py files / directories
    python3 gen_expected.py --hostile    # lint the hostile suite headers (and compile them)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
CRATE_TESTS = HERE.parent
REPO = CRATE_TESTS.parent.parent.parent
PROGRAMS = CRATE_TESTS / "programs"
HOSTILE = CRATE_TESTS / "hostile"
KERNELS = REPO / "bench" / "pvm" / "kernels"

EXC_TAG = "\x00PVMGEN-EXC\x00"

# Runs one program as __main__ and reports an uncaught exception on stderr
# (tagged), so stdout stays exactly what the program printed.
#
# In "limits" mode the program additionally runs under an emulation of two PVM
# limits: every binary operation / call result / augmented assignment to a name is
# checked against the 4096-bit integer cap, and the recursion limit is lowered to
# 200 frames (+ the runner's own). Its output must equal the plain run's output,
# which proves the program never depends on CPython's unbounded ints or deep stacks.
WRAPPER = r"""
import ast, builtins, json, runpy, sys
path, mode = sys.argv[1], sys.argv[2]
sys.argv = [path]
def cap(v):
    if isinstance(v, int) and v.bit_length() > 4096:
        raise OverflowError("PVM-LIMIT: int of %d bits exceeds 4096" % v.bit_length())
    return v
class Cap(ast.NodeTransformer):
    def wrap(self, node):
        self.generic_visit(node)
        return ast.copy_location(ast.Call(ast.Name("__pvm_cap__", ast.Load()), [node], []), node)
    visit_BinOp = wrap
    visit_Call = wrap
    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            chk = ast.Expr(ast.Call(ast.Name("__pvm_cap__", ast.Load()), [ast.Name(node.target.id, ast.Load())], []))
            return [node, ast.copy_location(chk, node)]
        return node
class SetDisplays(ast.NodeTransformer):
    def visit_Set(self, node):
        self.generic_visit(node)
        return ast.copy_location(ast.Call(ast.Name("set", ast.Load()), [ast.List(node.elts, ast.Load())], []), node)
    def visit_SetComp(self, node):
        self.generic_visit(node)
        gen = ast.GeneratorExp(node.elt, node.generators)
        return ast.copy_location(ast.Call(ast.Name("set", ast.Load()), [gen], []), node)
try:
    if mode == "setorder":
        sys.path.insert(0, GEN_DIR)
        import ordered_set_emulation
        ordered_set_emulation.install()
        with open(path, encoding="utf-8") as f:
            tree = ast.fix_missing_locations(SetDisplays().visit(ast.parse(f.read(), path)))
        exec(compile(tree, path, "exec"), {"__name__": "__main__", "__file__": path})
    elif mode == "limits":
        builtins.__pvm_cap__ = cap
        with open(path, encoding="utf-8") as f:
            tree = ast.fix_missing_locations(Cap().visit(ast.parse(f.read(), path)))
        code = compile(tree, path, "exec")
        sys.setrecursionlimit(200 + 8)
        exec(code, {"__name__": "__main__", "__file__": path})
    else:
        runpy.run_path(path, run_name="__main__")
except BaseException as e:  # noqa: BLE001 - we report every uncaught exception
    sys.stdout.flush()
    sys.stderr.write(TAG + json.dumps([type(e).__name__, str(e)]) + "\n")
    sys.exit(3)
""".replace("TAG", repr(EXC_TAG)).replace("GEN_DIR", repr(str(Path(__file__).resolve().parent)))

HOSTILE_ERRORS = {
    "OutOfCycles",
    "RecursionError",
    "MemoryError",
    "OverflowError",
    "ImportError",
    "SandboxError",
    "DeterminismError",
    "OSError",
}

IMPORT_RE = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_][\w.]*)", re.M)
ID_RE = re.compile(r"(?<![\w.])id\(")


class GenError(Exception):
    pass


def need_311() -> None:
    if sys.version_info[:2] != (3, 11):
        raise SystemExit(f"gen_expected.py must run under CPython 3.11 (got {sys.version.split()[0]})")


def run_once(py: Path, seed: str, timeout: float, mode: str = "plain") -> tuple[str, float]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = seed
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory(prefix="pvmgen-") as cwd:
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-I", "-c", WRAPPER, str(py), mode],
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=timeout,
        )
        elapsed = time.perf_counter() - t0
    out = proc.stdout.decode("utf-8")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode == 0:
        return out, elapsed
    tagged = [line for line in err.splitlines() if line.startswith(EXC_TAG)]
    if proc.returncode != 3 or not tagged:
        raise GenError(f"{py}: interpreter failed (rc={proc.returncode}):\n{err}")
    name, msg = json.loads(tagged[-1][len(EXC_TAG):])
    if "\n" in msg:
        raise GenError(f"{py}: uncaught {name} has a multi-line message; the contract needs one line")
    if not msg:
        raise GenError(f"{py}: uncaught {name} has an empty message; give it one (ambiguous '!!' line)")
    if out and not out.endswith("\n"):
        raise GenError(f"{py}: stdout must end with a newline before the uncaught exception line")
    return out + f"!! {name}: {msg}\n", elapsed


def lint(py: Path) -> list[str]:
    src = py.read_text(encoding="utf-8")
    problems = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(src, str(py), "exec", dont_inherit=True)
    except SyntaxError as e:
        problems.append(f"does not compile: {e}")
    first_two = src.splitlines()[:2]
    if any(re.search(r"coding[:=]", line) for line in first_two if line.lstrip().startswith("#")):
        problems.append("a comment on line 1-2 looks like a PEP 263 encoding declaration")
    for mod in IMPORT_RE.findall(src):
        if mod.split(".")[0] != "math" and not mod.startswith("__future__"):
            problems.append(f"imports {mod!r} (only math is allowed in the corpus)")
    if ID_RE.search(src):
        problems.append("calls id() (the PVM raises DeterminismError)")
    return problems


def generate(py: Path, check: bool, slow_ms: float) -> tuple[bool, str]:
    problems = lint(py)
    if problems:
        return False, f"{py}: " + "; ".join(problems)
    timeout = 60.0
    out1, t1 = run_once(py, "0", timeout)
    out2, t2 = run_once(py, "12345", timeout)
    if out1 != out2:
        return False, f"{py}: output depends on PYTHONHASHSEED (set order / str hash leak)"
    out3, _ = run_once(py, "0", timeout, mode="limits")
    if out3 != out1:
        last = out3.strip().splitlines()[-1:] or [""]
        return False, f"{py}: output changes under the PVM limits emulation (4096-bit ints, 200 frames): {last[0][:160]}"
    out4, _ = run_once(py, "0", timeout, mode="setorder")
    if out4 != out1:
        diff = next((f"{a!r} vs {b!r}" for a, b in zip(out1.splitlines(), out4.splitlines()) if a != b), "length differs")
        return False, f"{py}: output depends on set iteration order (PVM sets are insertion-ordered): {diff[:200]}"
    if re.search(r" at 0x[0-9a-fA-F]+", out1):
        return False, f"{py}: output contains a memory address"
    note = ""
    t = min(t1, t2) * 1000
    if t > slow_ms:
        note = f" (slow: {t:.0f} ms incl. interpreter start)"
    exp = py.with_suffix(".expected")
    if check:
        if not exp.exists():
            return False, f"{py}: missing {exp.name}"
        if exp.read_text(encoding="utf-8") != out1:
            return False, f"{py}: {exp.name} differs from CPython output"
        return True, note
    exp.write_text(out1, encoding="utf-8", newline="\n")
    return True, note


def collect(paths: list[str]) -> list[Path]:
    if not paths:
        roots = [PROGRAMS, KERNELS]
    else:
        roots = [Path(p).resolve() for p in paths]
    files: list[Path] = []
    for r in roots:
        if r.is_dir():
            files.extend(sorted(r.rglob("*.py")))
        elif r.suffix == ".py":
            files.append(r)
    return files


def lint_hostile() -> int:
    bad = 0
    files = sorted(HOSTILE.glob("*.py"))
    counts: dict[str, int] = {}
    for py in files:
        lines = py.read_text(encoding="utf-8").splitlines()
        m = re.fullmatch(r"# expect: (\w+)", lines[0]) if lines else None
        if not m or m.group(1) not in HOSTILE_ERRORS:
            print(f"FAIL {py.name}: first line must be '# expect: <one of {sorted(HOSTILE_ERRORS)}>'")
            bad += 1
            continue
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        if len(lines) > 1 and lines[1].startswith("# cycles"):
            if not re.fullmatch(r"# cycles: [0-9_]+", lines[1]):
                print(f"FAIL {py.name}: bad cycles line {lines[1]!r}")
                bad += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile("\n".join(lines), str(py), "exec")
        except SyntaxError as e:
            print(f"FAIL {py.name}: {e}")
            bad += 1
    print(f"hostile: {len(files)} programs, {bad} bad; by error: {dict(sorted(counts.items()))}")
    return 1 if bad else 0


def main() -> int:
    need_311()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--check", action="store_true", help="compare only; do not write")
    ap.add_argument("--hostile", action="store_true", help="lint the hostile suite")
    ap.add_argument("--slow-ms", type=float, default=500.0, help="report programs slower than this (wall, incl. interpreter start)")
    args = ap.parse_args()
    if args.hostile:
        return lint_hostile()
    files = collect(args.paths)
    failed = 0
    per_area: dict[str, int] = {}
    for py in files:
        try:
            ok, msg = generate(py, args.check, args.slow_ms if KERNELS not in py.parents else 1e9)
        except (GenError, subprocess.TimeoutExpired) as e:
            ok, msg = False, str(e)
        if not ok:
            failed += 1
            print("FAIL", msg)
        elif msg:
            print("note", py.relative_to(REPO), msg)
        area = py.parent.name if PROGRAMS in py.parents else "kernels"
        per_area[area] = per_area.get(area, 0) + 1
    total = sum(per_area.values())
    print(f"{total} programs, {failed} failed; per area: {dict(sorted(per_area.items()))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
