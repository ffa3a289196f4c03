# Scenarios of the `abc` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import abc as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

def abc_check(M):
    class Base(M.ABC):
        @M.abstractmethod
        def f(self):
            ...

        @M.abstractmethod
        def g(self):
            ...

        def h(self):
            return 'h'

    class Half(Base):
        def f(self):
            return 'f'

    class Full(Half):
        def g(self):
            return 'g'

    out = []
    for cls in (Base, Half):
        try:
            cls()
        except TypeError as e:
            out.append(str(e))
    full = Full()
    out.append((full.f(), full.g(), full.h(), sorted(Base.__abstractmethods__), sorted(Full.__abstractmethods__)))

    class Proto(M.ABC):
        pass
    Proto.register(int)
    out.append((isinstance(3, Proto), issubclass(bool, Proto), isinstance('x', Proto), isinstance(full, Base)))
    return out

try:
    print('ok', repr(abc_check(M)))
except Exception as e:
    print(type(e).__name__, e)
