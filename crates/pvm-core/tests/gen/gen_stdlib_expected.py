#!/usr/bin/env python3
"""Record the CPython 3.11 expectations of the PVM standard-library suite (tests/stdlib).

Runs every `tests/stdlib/*.py` with CPython 3.11 and writes `<name>.expected` (stdout, plus a
final `!! Type: message` line if the program ends with an uncaught exception), the format
`tests/stdlib.rs` compares the PVM's output with. The `scenarios_<module>.py` programs are also
read by crates/pvm-stdlib/tests/test_against_cpython.py, which checks each scenario under
CPython with our module source and CPython's.

Usage: python3 gen_stdlib_expected.py [--check]
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
STDLIB_TESTS = HERE.parent / "stdlib"

RUNNER = """import sys, runpy
try:
    runpy.run_path(sys.argv[1], run_name='__main__')
except BaseException as e:
    sys.stdout.flush()
    m = str(e)
    print(f'!! {type(e).__name__}: {m}' if m else f'!! {type(e).__name__}')
"""


def main():
    check = "--check" in sys.argv
    if not sys.version.startswith("3.11"):
        sys.exit("CPython 3.11 is required")
    stale = []
    for py in sorted(STDLIB_TESTS.glob("*.py")):
        got = subprocess.run([sys.executable, "-c", RUNNER, str(py)], capture_output=True, text=True).stdout
        exp = py.with_suffix(".expected")
        if check:
            if not exp.exists() or exp.read_text() != got:
                stale.append(str(exp))
        else:
            exp.write_text(got)
    if stale:
        print("stale:\n  " + "\n  ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
