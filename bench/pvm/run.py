#!/usr/bin/env python3
"""PVM benchmark suite: run the CPU kernels under CPython and the PVM, compare.

Each kernel in `bench/pvm/kernels/<name>.py` is pure Python 3.11 (only `math` may be
imported), prints one checksum line, and has the expected CPython output beside it
in `<name>.expected` (same format as the differential corpus; regenerate with
`crates/pvm-core/tests/gen/gen_expected.py`).

Both interpreters run every kernel `--runs` times in this same invocation (the peer
is always measured in the same run, see /work/shared/BENCH.md). The time compared is
the child's CPU time (user + sys, from wait4), which is much less noisy than wall
time on a shared machine; wall time is shown too. A run whose stdout differs from
`.expected` is reported as FAIL and excluded from the ratios.

The PVM is driven by a command prefix; the kernel's path is appended as the last
argument and the program's stdout must be exactly what the kernel printed:

    python3 bench/pvm/run.py --pvm "target/release/pvm-run"
    PVM_RUN="cargo run -q --release -p pvm-core --example run --" python3 bench/pvm/run.py

Without a PVM command only CPython is measured and checked (no JSON is written,
because every metric of the `pvm` suite is a ratio against CPython).

Output: a table on stdout and, when the PVM was measured, `bench/results/pvm.json`
with the metrics `geomean_time_ratio_vs_cpython` and `<kernel>_time_ratio_vs_cpython`
(value = PVM time / CPython time, lower is better; `ratio` = CPython / PVM, so >1
would mean the PVM is faster).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "kernels"
REPO = HERE.parent.parent
DEFAULT_OUT = REPO / "bench" / "results" / "pvm.json"


def run_child(argv: list[str], timeout: float) -> tuple[float, int, str]:
    """Runs argv once; returns (wall_seconds, returncode, stdout)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, _err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    return time.perf_counter() - t0, proc.returncode, out.decode("utf-8", "replace")


def measure(argv: list[str], runs: int, timeout: float, expected: str) -> dict:
    """Runs a command `runs` times; CPU time comes from the RUSAGE_CHILDREN delta."""
    import resource

    cpu, wall = [], []
    ok = True
    detail = ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            w, rc, out = run_child(argv, timeout)
        except subprocess.TimeoutExpired:
            return {"ok": False, "detail": f"timeout after {timeout}s"}
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        c = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if rc != 0 or out != expected:
            ok = False
            first = (out.strip().splitlines() or [""])[-1]
            detail = f"rc={rc} output={first[:80]!r}"
            break
        cpu.append(c)
        wall.append(w)
    if not ok:
        return {"ok": False, "detail": detail}
    return {
        "ok": True,
        "cpu": sorted(cpu),
        "wall": sorted(wall),
        "cpu_median": median(cpu),
        "wall_median": median(wall),
        "spread": (max(cpu) - min(cpu)) / median(cpu) if median(cpu) > 0 else 0.0,
    }


def median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def machine_info() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info = {"cores": os.cpu_count(), "cpu": cpu, "python": platform.python_version()}
    try:
        rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True, timeout=20)
        if rustc.returncode == 0:
            info["rustc"] = rustc.stdout.split()[1]
    except (OSError, subprocess.TimeoutExpired):
        pass
    return info


def git_commit() -> str:
    try:
        r = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=20)
        return r.stdout.strip() if r.returncode == 0 else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pvm", default=os.environ.get("PVM_RUN"), help="PVM command prefix (kernel path is appended); default $PVM_RUN")
    ap.add_argument("--python", default=sys.executable, help="CPython 3.11 used as the peer (default: this interpreter)")
    ap.add_argument("--runs", type=int, default=3, help="repetitions per kernel and interpreter (default 3)")
    ap.add_argument("--kernels", default="", help="comma-separated subset of kernel names")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per single run")
    ap.add_argument("--out", default=str(DEFAULT_OUT), help="JSON output path (written only when the PVM ran)")
    args = ap.parse_args()

    names = sorted(p.stem for p in KERNELS.glob("*.py"))
    if args.kernels:
        wanted = [k.strip() for k in args.kernels.split(",") if k.strip()]
        unknown = [k for k in wanted if k not in names]
        if unknown:
            print(f"unknown kernels: {unknown}; available: {names}", file=sys.stderr)
            return 2
        names = wanted
    pvm_prefix = shlex.split(args.pvm) if args.pvm else None

    rows = []
    failures = 0
    for name in names:
        py = KERNELS / f"{name}.py"
        expected = (KERNELS / f"{name}.expected").read_text(encoding="utf-8")
        cpy = measure([args.python, str(py)], args.runs, args.timeout, expected)
        pvm = measure(pvm_prefix + [str(py)], args.runs, args.timeout, expected) if pvm_prefix else None
        if not cpy["ok"] or (pvm is not None and not pvm["ok"]):
            failures += 1
        rows.append((name, cpy, pvm))
        print_row(name, cpy, pvm)

    ratios = [p["cpu_median"] / c["cpu_median"] for _, c, p in rows if p and p["ok"] and c["ok"] and c["cpu_median"] > 0]
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeomean PVM/CPython CPU-time ratio over {len(ratios)} kernels: {geo:.2f}x (lower is better)")
        write_json(Path(args.out), rows, geo, args.runs)
        print(f"wrote {args.out}")
    elif pvm_prefix is None:
        print("\n(no --pvm / $PVM_RUN given: CPython only, checksums checked, no JSON written)")
    if failures:
        print(f"{failures} kernel(s) FAILED", file=sys.stderr)
        return 1
    return 0


def print_row(name: str, cpy: dict, pvm: dict | None) -> None:
    def cell(m: dict | None) -> str:
        if m is None:
            return f"{'-':>22}"
        if not m["ok"]:
            return f"{'FAIL':>22}"
        return f"{m['cpu_median']:8.3f}s cpu {m['wall_median']:6.3f}s"

    ratio = ""
    if pvm and pvm["ok"] and cpy["ok"] and cpy["cpu_median"] > 0:
        ratio = f"{pvm['cpu_median'] / cpy['cpu_median']:8.2f}x"
    if not hasattr(print_row, "header"):
        print(f"{'kernel':<20}{'CPython (median)':>24}{'PVM (median)':>24}{'PVM/CPython':>13}")
        print_row.header = True
    print(f"{name:<20}{cell(cpy):>24}{cell(pvm):>24}{ratio:>13}")
    for m, label in ((cpy, "CPython"), (pvm, "PVM")):
        if m is not None and not m["ok"]:
            print(f"    {label} failed: {m['detail']}")


def write_json(out: Path, rows, geo: float, runs: int) -> None:
    metrics = [{
        "name": "geomean_time_ratio_vs_cpython",
        "value": round(geo, 4),
        "unit": "x",
        "higher_is_better": False,
        "peer": "cpython-" + platform.python_version(),
        "peer_value": 1.0,
        "ratio": round(1 / geo, 4),
        "runs": runs,
        "spread": round(max((p["spread"] for _, c, p in rows if p and p["ok"]), default=0.0), 4),
    }]
    for name, c, p in rows:
        if not (p and p["ok"] and c["ok"]):
            continue
        r = p["cpu_median"] / c["cpu_median"]
        metrics.append({
            "name": f"{name}_time_ratio_vs_cpython",
            "value": round(r, 4),
            "unit": "x",
            "higher_is_better": False,
            "peer": "cpython-" + platform.python_version(),
            "peer_value": 1.0,
            "ratio": round(1 / r, 4),
            "runs": runs,
            "spread": round(max(p["spread"], c["spread"]), 4),
            "pvm_cpu_s": round(p["cpu_median"], 4),
            "cpython_cpu_s": round(c["cpu_median"], 4),
        })
    doc = {
        "suite": "pvm",
        "commit": git_commit(),
        "machine": machine_info(),
        "when": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "metrics": metrics,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
