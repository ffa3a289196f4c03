# Scenarios of the `enum` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import enum as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

def enum_basic(M):
    class Color(M.Enum):
        RED = 1
        GREEN = 2
        BLUE = 3
        CRIMSON = 1

        def describe(self):
            return f"{self.name}={self.value}"

    class Auto(M.Enum):
        A = M.auto()
        B = M.auto()
        C = 10
        D = M.auto()
    return (
        repr(Color.RED), str(Color.GREEN), Color(2), Color['BLUE'], list(Color), len(Color),
        Color.CRIMSON is Color.RED, Color.RED.describe(), Color.RED in Color, [m.value for m in Auto],
        list(Color.__members__), Color.RED == Color.RED, Color.RED == 1, isinstance(Color.RED, Color),
        f"{Color.RED}", {Color.RED: 'r'}[Color.CRIMSON], list(reversed(Color)), repr(Color),
    )

def enum_errors(M):
    class Color(M.Enum):
        RED = 1
    out = []
    for f in (lambda: Color(5), lambda: Color['NOPE'], lambda: setattr(Color, 'RED', 2), lambda: 1 in Color):
        try:
            f()
            out.append('no error')
        except Exception as e:  # noqa: BLE001
            out.append((type(e).__name__, str(e)))
    try:
        @M.unique
        class Dup(M.Enum):
            A = 1
            B = 1
    except ValueError as e:
        out.append(str(e))
    return out

def enum_flags(M):
    class Perm(M.Flag):
        R = 4
        W = 2
        X = 1
    rw = Perm.R | Perm.W
    class Bits(M.IntFlag):
        A = M.auto()
        B = M.auto()
        C = M.auto()
    return (rw.value, Perm.R in rw, Perm.X in rw, [m.name for m in rw], bool(Perm.R & Perm.W), (rw & Perm.W).name,
            [b.value for b in Bits], Bits.A | Bits.C == 5, int(Bits.B), str(Bits.B))

def enum_mixins(M):
    class Num(M.IntEnum):
        ONE = 1
        TWO = 2
    class Word(M.StrEnum):
        HELLO = M.auto()
        WORLD = 'w'
    return (Num.ONE + 1, Num.TWO > Num.ONE, str(Num.TWO), f"{Num.ONE:>3}", sorted([Num.TWO, Num.ONE]),
            Word.HELLO, Word.HELLO == 'hello', str(Word.WORLD), Word.WORLD.upper(), repr(Num.ONE), repr(Word.WORLD))

try:
    print('ok', repr(enum_basic(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(enum_errors(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(enum_flags(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(enum_mixins(M)))
except Exception as e:
    print(type(e).__name__, e)
