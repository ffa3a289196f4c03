#!/usr/bin/env python3
"""Sanity-check the hostile suite under CPython 3.11 by emulating each PVM limit.

CPython has none of the PVM's limits, so each category is checked by imposing an
emulation of its rule and confirming the program really trips it:

* OutOfCycles   - counts executed CPython bytecodes (sys.settrace opcode events);
                  the program must still be running after `# cycles:` (default
                  10_000_000) of them. Each PVM instruction costs at least one
                  cycle, so this is a lower-bound argument.
* RecursionError - runs with a recursion limit of 256 + a few frames for the runner;
                  the program must end with RecursionError.
* MemoryError   - caps the address space at the current size + 64 MiB; the program
                  must end with MemoryError (a 10 MiB heap trips far earlier).
* ImportError   - only `math` (and the whitelisted modules of the spec) may be
                  imported; the program must end with ImportError.
* OSError       - /tmp writes are redirected to a private directory whose total
                  size is capped at 256 KiB; the program must end with
                  OSError "No space left on device".
* OverflowError - the program's AST is rewritten so that the result of every
                  binary operation and every call is checked; an int of more than
                  4096 bits raises OverflowError, which the program must end with.
* SandboxError, DeterminismError - not emulated (CPython allows these operations);
                  only the header and syntax are checked (gen_expected.py --hostile).

Usage: python3 verify_hostile.py [NAME ...]
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HOSTILE = Path(__file__).resolve().parent.parent / "hostile"
DEFAULT_CYCLES = 10_000_000

PRELUDE = r'''
import builtins, os, runpy, sys
path, kind, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
tmpdir = sys.argv[4]
def done(tag):
    sys.stdout.flush()
    sys.stderr.write("\nVERIFY:" + tag + "\n")
    sys.stderr.flush()
    os._exit(0)
if kind == "OutOfCycles":
    count = [0]
    def local(frame, event, arg):
        if event == "opcode":
            count[0] += 1
            if count[0] >= limit:
                done("budget-exhausted")
        return local
    def glob(frame, event, arg):
        frame.f_trace_opcodes = True
        return local
    sys.settrace(glob)
elif kind == "RecursionError":
    sys.setrecursionlimit(256 + 12)
elif kind == "MemoryError":
    import resource
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[0])
    cur = pages * os.sysconf("SC_PAGE_SIZE")
    lim = cur + 64 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
elif kind == "ImportError":
    allowed = {"math", "collections", "dataclasses", "enum", "functools", "itertools", "json", "re",
               "struct", "decimal", "typing", "abc", "hashlib", "cowboy_sdk"}
    real_import = builtins.__import__
    def guarded(name, globals=None, locals=None, fromlist=(), level=0):
        if name.split(".")[0] not in allowed and globals is not None and globals.get("__name__") == "__main__":
            raise ImportError(f"import of {name!r} is not allowed")
        return real_import(name, globals, locals, fromlist, level)
    builtins.__import__ = guarded
elif kind == "OverflowError":
    import ast
    class Cap(ast.NodeTransformer):
        def wrap(self, node):
            self.generic_visit(node)
            return ast.copy_location(ast.Call(ast.Name("__pvm_cap__", ast.Load()), [node], []), node)
        visit_BinOp = wrap
        visit_Call = wrap
    def cap(v):
        if isinstance(v, int) and v.bit_length() > 4096:
            raise OverflowError(f"int of {v.bit_length()} bits exceeds the 4096-bit cap")
        return v
    builtins.__pvm_cap__ = cap
    with open(path) as f:
        tree = Cap().visit(ast.parse(f.read(), path))
    ast.fix_missing_locations(tree)
    code = compile(tree, path, "exec")
    try:
        exec(code, {"__name__": "__main__"})
    except BaseException as e:
        done("raised:" + type(e).__name__ + ":" + str(e)[:120])
    done("finished")
elif kind == "OSError":
    real_open = builtins.open
    CAP = 256 * 1024
    def used():
        return sum(os.path.getsize(os.path.join(tmpdir, n)) for n in os.listdir(tmpdir))
    class Capped:
        def __init__(self, f):
            self._f = f
        def write(self, data):
            n = self._f.write(data)
            self._f.flush()
            if used() > CAP:
                raise OSError(28, "No space left on device")
            return n
        def writelines(self, lines):
            for l in lines:
                self.write(l)
        def __enter__(self):
            return self
        def __exit__(self, *a):
            self._f.close()
        def __getattr__(self, n):
            return getattr(self._f, n)
    def capped_open(file, mode="r", *a, **k):
        if not str(file).startswith("/tmp/"):
            raise PermissionError(f"outside /tmp: {file}")
        return Capped(real_open(os.path.join(tmpdir, str(file)[5:]), mode, *a, **k))
    builtins.open = capped_open
try:
    runpy.run_path(path, run_name="__main__")
except BaseException as e:
    sys.settrace(None)
    done("raised:" + type(e).__name__ + ":" + str(e)[:120])
sys.settrace(None)
done("finished")
'''


def header(py: Path) -> tuple[str, int]:
    lines = py.read_text(encoding="utf-8").splitlines()
    kind = re.fullmatch(r"# expect: (\w+)", lines[0]).group(1)
    cycles = DEFAULT_CYCLES
    if len(lines) > 1:
        m = re.fullmatch(r"# cycles: ([0-9_]+)", lines[1])
        if m:
            cycles = int(m.group(1).replace("_", ""))
    return kind, cycles


def verify(py: Path) -> tuple[str, str]:
    kind, cycles = header(py)
    if kind in ("SandboxError", "DeterminismError"):
        return "skip", kind + " is not emulated under CPython"
    with tempfile.TemporaryDirectory(prefix="pvmhostile-") as tmp:
        try:
            proc = subprocess.run([sys.executable, "-I", "-c", PRELUDE, str(py), kind, str(cycles), tmp],
                                  capture_output=True, timeout=300, cwd=tmp)
        except subprocess.TimeoutExpired:
            return "FAIL", "timed out under the emulation"
    tags = [l for l in proc.stderr.decode("utf-8", "replace").splitlines() if l.startswith("VERIFY:")]
    tag = tags[-1][7:] if tags else f"no verdict (rc={proc.returncode})"
    want = {
        "OutOfCycles": lambda t: t == "budget-exhausted",
        "RecursionError": lambda t: t.startswith("raised:RecursionError"),
        "MemoryError": lambda t: t.startswith("raised:MemoryError"),
        "ImportError": lambda t: t.startswith("raised:ImportError"),
        "OverflowError": lambda t: t.startswith("raised:OverflowError"),
        "OSError": lambda t: t.startswith("raised:OSError") and "No space left" in t,
    }[kind]
    return ("ok" if want(tag) else "FAIL"), tag


def main() -> int:
    names = sys.argv[1:]
    files = sorted(HOSTILE.glob("*.py"))
    if names:
        files = [f for f in files if f.stem in names or f.name in names]
    bad = 0
    for py in files:
        status, why = verify(py)
        bad += status == "FAIL"
        print(f"{status:<5} {py.name:<40} {why}")
    print(f"{len(files)} checked, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
