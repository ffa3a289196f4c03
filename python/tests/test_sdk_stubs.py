"""The `cowboy_sdk` type stubs (python/stubs/cowboy_sdk/__init__.pyi) follow the SDK built into
the PVM (crates/pvm-core/src/sdk/cowboy_sdk.py): every exported name is declared, every
function and method has the same parameters (names, kinds, defaults), and every class
the same public methods — so a change to the SDK fails here until the stubs follow."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SDK = ast.parse((ROOT / "crates" / "pvm-core" / "src" / "sdk" / "cowboy_sdk.py").read_text())
STUB = ast.parse((ROOT / "python" / "stubs" / "cowboy_sdk" / "__init__.pyi").read_text())


def exported(tree):
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            return [e.value for e in node.value.elts]
    raise AssertionError("no __all__")


def top(tree):
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


def signature(fn):
    a = fn.args
    defaults = [ast.unparse(d) for d in a.defaults]
    return ([p.arg for p in a.posonlyargs + a.args], a.vararg and a.vararg.arg, [p.arg for p in a.kwonlyargs],
            [ast.unparse(d) if d is not None else None for d in a.kw_defaults], a.kwarg and a.kwarg.arg, defaults)


def methods(cls):
    out = {}
    for n in cls.body:
        if isinstance(n, ast.FunctionDef) and (not n.name.startswith("_") or n.name.startswith("__")):
            if n.name not in out:  # first overload
                out[n.name] = n
    return out


SDK_TOP, STUB_TOP = top(SDK), top(STUB)


def test_every_export_is_declared():
    missing = [name for name in exported(SDK) if name not in STUB_TOP]
    assert missing == []


def compare_classes(name, real, stub):
    real_m, stub_m = methods(real), methods(stub)
    public = {k for k in real_m if not k.startswith("__") or k in ("__init__", "__getitem__", "__setitem__",
                                                                    "__delitem__", "__contains__", "__len__",
                                                                    "__iter__", "__enter__", "__exit__")}
    assert public <= set(stub_m), f"{name}: stubs lack {sorted(public - set(stub_m))}"
    for m in public:
        if any(isinstance(d, ast.Name) and d.id == "overload" for d in stub_m[m].decorator_list):
            continue
        assert signature(stub_m[m])[0] == signature(real_m[m])[0], f"{name}.{m}"


@pytest.mark.parametrize("name", exported(SDK))
def test_same_signatures(name):
    real, stub = SDK_TOP[name], STUB_TOP[name]
    if isinstance(real, ast.Assign) and isinstance(real.value, ast.Call) and isinstance(real.value.func, ast.Name) \
            and real.value.func.id in SDK_TOP and isinstance(SDK_TOP[real.value.func.id], ast.ClassDef):
        # an exported instance (`runner = _Runner()`): the stub types it with the same class
        cls = real.value.func.id
        assert isinstance(stub, ast.AnnAssign) and ast.unparse(stub.annotation) == cls
        compare_classes(cls, SDK_TOP[cls], STUB_TOP[cls])
    elif isinstance(real, ast.FunctionDef):
        assert isinstance(stub, ast.FunctionDef)
        assert signature(stub) == signature(real)
    elif isinstance(real, ast.ClassDef):
        assert isinstance(stub, ast.ClassDef)
        compare_classes(name, real, stub)


def test_stub_parses_as_python():
    compile((ROOT / "python" / "stubs" / "cowboy_sdk" / "__init__.pyi").read_text(), "__init__.pyi", "exec")
