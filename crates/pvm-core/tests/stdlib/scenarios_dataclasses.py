# Scenarios of the `dataclasses` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import dataclasses as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

def dc_basic(M):
    @M.dataclass
    class Point:
        x: int
        y: int = 0
        tags: list = M.field(default_factory=list, repr=False)

    p = Point(1)
    q = Point(1, 0)
    p.tags.append('a')
    return (repr(p), p == q, p != Point(2), p.tags, Point.__match_args__, [f.name for f in M.fields(p)],
            Point.__hash__ is None, Point(y=5, x=2))

def dc_errors(M):
    @M.dataclass
    class P:
        x: int
        y: int = 1
    out = []
    for f in (lambda: P(), lambda: P(1, 2, 3), lambda: P(1, z=2), lambda: P(1, x=2)):
        try:
            f()
            out.append('no error')
        except TypeError as e:
            out.append(str(e))
    try:
        @M.dataclass
        class Bad:
            x: int = 0
            y: int
    except TypeError as e:
        out.append(str(e))
    try:
        @M.dataclass
        class Mut:
            x: list = []
    except ValueError as e:
        out.append(str(e)[:40])
    return out

def dc_frozen_order(M):
    @M.dataclass(frozen=True, order=True)
    class V:
        major: int
        minor: int = 0
    a, b = V(1, 2), V(1, 3)
    try:
        a.major = 5
        err = None
    except Exception as e:  # noqa: BLE001
        err = (type(e).__name__, str(e))
    return (a < b, b >= a, sorted([b, a]), hash(a) == hash(V(1, 2)), err, {a: 1}[V(1, 2)])

def dc_helpers(M):
    @M.dataclass
    class Inner:
        v: int

    @M.dataclass
    class Outer:
        name: str
        inner: Inner
        items: list = M.field(default_factory=list)

    o = Outer('n', Inner(3), [Inner(4)])
    r = M.replace(o, name='m')

    @M.dataclass(kw_only=True)
    class K:
        a: int
        b: int = 2
    try:
        K(1)
        kerr = None
    except TypeError as e:
        kerr = str(e)
    return (M.asdict(o), M.astuple(o), r, M.is_dataclass(o), M.is_dataclass(3), K(a=1), kerr)

try:
    print('ok', repr(dc_basic(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(dc_errors(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(dc_frozen_order(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(dc_helpers(M)))
except Exception as e:
    print(type(e).__name__, e)
