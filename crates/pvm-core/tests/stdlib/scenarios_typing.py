# Scenarios of the `typing` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import typing as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

try:
    print('ok', repr(M.Optional[int], M.Union[int, str], M.Union[int, None], M.Union[int, int], M.List[int], M.Dict[str, int]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Optional[int] == M.Union[int, None], M.cast(int, 'x'), M.get_args(M.Dict[str, int])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.TypeVar('T'), M.TypeVar('T', covariant=True), M.Any, M.Tuple[int, ...]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.List()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(isinstance(3, M.Any)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Optional[int, str]))
except Exception as e:
    print(type(e).__name__, e)
