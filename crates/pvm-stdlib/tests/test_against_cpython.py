"""Runs each scenario with CPython 3.11's module and with ours (loaded from lib/ under CPython)
and requires identical results: same repr, or the same exception type and message.

The scenarios have one source: the PVM programs `crates/pvm-core/tests/stdlib/scenarios_<module>.py`
(helpers, then one `try: print('ok', repr(<expr>)) except Exception as e: ...` block per
scenario). The PVM runs those programs (crates/pvm-core/tests/stdlib.rs, against outputs recorded
from CPython 3.11); this file runs each scenario's expression under CPython with both modules.
These check the modules' semantics; the PVM runs the same module sources (crates/pvm-stdlib/lib).
"""
import ast
import abc
import collections
import dataclasses
import decimal
import enum
import functools
import importlib.util
import itertools
import json
import pathlib
import struct
import typing

import pytest

LIB = pathlib.Path(__file__).resolve().parent.parent / "lib"
SCENARIO_DIR = pathlib.Path(__file__).resolve().parents[2] / "pvm-core" / "tests" / "stdlib"


def load(name):
    spec = importlib.util.spec_from_file_location(f"pvm_{name}", LIB / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OURS = {name: load(name) for name in ("functools", "itertools", "collections", "json", "enum", "abc", "dataclasses", "typing", "decimal", "struct")}
REAL = {"functools": functools, "itertools": itertools, "collections": collections, "json": json, "enum": enum, "abc": abc, "dataclasses": dataclasses, "typing": typing, "decimal": decimal, "struct": struct}

def scenario_file(name):
    """(helpers' globals, scenario expressions) of `scenarios_<name>.py`."""
    path = SCENARIO_DIR / f"scenarios_{name}.py"
    text = path.read_text()
    tree = ast.parse(text)
    prelude, exprs = [], []
    for node in tree.body:
        if isinstance(node, ast.Try):
            # try: print('ok', repr(<expr>))
            call = node.body[0].value
            exprs.append(ast.get_source_segment(text, call.args[1].args[0]))
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            prelude.append(node)
    env = {}
    exec(compile(ast.Module(body=prelude, type_ignores=[]), str(path), "exec"), env)
    return env, exprs


SCENARIO_FILES = {name: scenario_file(name) for name in OURS}


def outcome(name, module, expr):
    env = {**SCENARIO_FILES[name][0], "M": module}
    try:
        return "ok", repr(eval(expr, env))
    except Exception as e:  # noqa: BLE001 - comparing exceptions is the point
        return type(e).__name__, str(e)


CASES = [(name, expr) for name, (_, exprs) in SCENARIO_FILES.items() for expr in exprs]


def test_every_module_has_scenarios():
    assert len(CASES) >= 160
    assert all(SCENARIO_FILES[name][1] for name in OURS)


@pytest.mark.parametrize("name,expr", CASES)
def test_same_as_cpython(name, expr):
    ours, real = outcome(name, OURS[name], expr), outcome(name, REAL[name], expr)
    assert real[0] != "NameError", f"scenario {expr!r} is broken: {real[1]}"
    assert ours == real
