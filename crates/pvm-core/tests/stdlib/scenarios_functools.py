# Scenarios of the `functools` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import functools as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

def total_ordering_check(M):
    @M.total_ordering
    class V:
        def __init__(self, v):
            self.v = v

        def __eq__(self, o):
            return self.v == o.v

        def __lt__(self, o):
            return self.v < o.v
    a, b = V(1), V(2)
    return (a < b, a <= b, a > b, a >= b, b >= a, a <= a)

def cached_property_check(M):
    class C:
        calls = 0

        @M.cached_property
        def value(self):
            C.calls += 1
            return 42
    c = C()
    return (c.value, c.value, C.calls)

try:
    print('ok', repr(M.reduce(lambda a, b: a * b, range(1, 6))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.reduce(lambda a, b: a + b, [], 7)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.reduce(lambda a, b: a + b, [])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.reduce(lambda a, b: a + [b], 'abc', [])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.partial(int, base=2)('1011')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.partial(M.partial(pow, 2), 10)()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda p: (p.args, p.keywords))(M.partial(max, 1, 2, key=abs))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.partial(5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(sorted([3, 1, 2], key=M.cmp_to_key(lambda a, b: b - a))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(sorted(['bb', 'a', 'ccc'], key=M.cmp_to_key(lambda a, b: len(a) - len(b)))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda f: (f(10), f(10), f.cache_info()))(M.lru_cache(maxsize=2)(lambda x: x * 2))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda f: [f(i % 3) for i in range(9)] and f.cache_info())(M.lru_cache(maxsize=2)(lambda x: x))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda f: [f(i) for i in (1, 2, 1, 3, 1)] and f.cache_info())(M.lru_cache(maxsize=2)(lambda x: x))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda f: [f(1), f(1.0), f.cache_info()])(M.lru_cache(typed=True)(lambda x: x))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda f: [f(3), f(3), f.cache_info()])(M.cache(lambda x: x ** 2))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda f: (f.__name__, f.__doc__))(M.wraps(len)(lambda *a: 0))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(total_ordering_check(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(cached_property_check(M)))
except Exception as e:
    print(type(e).__name__, e)
