# Scenarios of the `itertools` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import itertools as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

try:
    print('ok', repr(list(M.islice(M.count(5, 3), 4))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.islice(M.count(), 2, 10, 3))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.islice('abcdefg', 2))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.islice('abcdefg', 2, None))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.islice('abcdefg', -1))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.islice(M.cycle('ab'), 5))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.repeat('x', 3)), list(M.repeat(1, -2))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.accumulate([1, 2, 3, 4])), list(M.accumulate([1, 2, 3], initial=10)), list(M.accumulate([3, 1, 4], max))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.accumulate([]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.chain('ab', [1, 2], ())), list(M.chain.from_iterable(['xy', 'z']))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.compress('abcdef', [1, 0, 1, 0, 1, 1]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.dropwhile(lambda x: x < 3, [1, 2, 3, 1, 5])), list(M.takewhile(lambda x: x < 3, [1, 2, 3, 1]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.filterfalse(lambda x: x % 2, range(7))), list(M.filterfalse(None, [0, 1, '', 'a']))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.starmap(pow, [(2, 3), (3, 2)]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.pairwise('abcd')), list(M.pairwise('a'))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.zip_longest('ab', 'xyz', fillvalue='-')), list(M.zip_longest())))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr([(k, list(g)) for k, g in M.groupby('aaabbcaa')]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr([(k, list(g)) for k, g in M.groupby([1, 3, 2, 4, 5], key=lambda x: x % 2)]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr([k for k, g in M.groupby('aabbbc')]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda a, b: (list(a), list(b)))(*M.tee([1, 2, 3]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.product('ab', range(2))), list(M.product('ab', repeat=2)), list(M.product())))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.product('ab', ''))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.permutations('abc')), list(M.permutations(range(4), 2)), list(M.permutations('ab', 3))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.combinations('abcd', 2)), list(M.combinations(range(3), 0)), list(M.combinations('ab', 3))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.combinations_with_replacement('abc', 2)), list(M.combinations_with_replacement('', 0))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.combinations('abc', -1))))
except Exception as e:
    print(type(e).__name__, e)
