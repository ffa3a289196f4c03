# Scenarios of the `collections` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import collections as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

try:
    print('ok', repr(M.namedtuple('Point', 'x y')(1, 2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('Point', ['x', 'y'], defaults=[0])(5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda P: (P(1, y=2)._asdict(), P._fields, P(1, 2)._replace(x=9), P._make([3, 4])))(M.namedtuple('P', 'x, y'))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda P: P(1, 2).x + P(1, 2)[1])(M.namedtuple('P', 'x y'))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x y')(1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x y')(1, 2, 3)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x y')(1, z=2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x x')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x _y')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x class')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.namedtuple('P', 'x class _z x', rename=True)._fields))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda P: isinstance(P(1, 2), tuple) and P(1, 2) == (1, 2))(M.namedtuple('P', 'x y'))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d.append(1), d.appendleft(0), d.extend([2, 3]), d, d.pop(), d.popleft(), d))(M.deque())))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d.append(4), d, d.maxlen))(M.deque([1, 2, 3], maxlen=3))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d.appendleft(0), d))(M.deque([1, 2, 3], maxlen=3))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d.rotate(2), list(d), d.rotate(-3), list(d)))(M.deque(range(5)))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.deque().pop()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d[0], d[-1], len(d), 3 in d, d.count(2), d.index(3)))(M.deque([1, 2, 3, 2]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.deque([1]) == M.deque([1]), M.deque([1]) < M.deque([2]), M.deque('ab') + M.deque('c')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.deque([1], maxlen=-1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d['a'].append(1), d['b'], d))(M.defaultdict(list))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d['x'], d))(M.defaultdict(int))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.defaultdict(None)['k']))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.defaultdict(5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda d: (d.move_to_end('a'), list(d), d.move_to_end('c', last=False), list(d), d.popitem(), d.popitem(last=False), d))(M.OrderedDict([('a', 1), ('b', 2), ('c', 3)]))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.OrderedDict(a=1) == M.OrderedDict(a=1), M.OrderedDict([('a', 1), ('b', 2)]) == M.OrderedDict([('b', 2), ('a', 1)]), M.OrderedDict()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Counter('abracadabra')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Counter('abracadabra').most_common(2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Counter(a=3, b=1)['zzz'], M.Counter(a=2).total()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(sorted(M.Counter(a=2, b=1).elements())))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda c: (c.update('aab'), c.subtract({'a': 5}), c))(M.Counter('abc'))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Counter(a=3, b=1) + M.Counter(a=1, b=2), M.Counter(a=3, b=1) - M.Counter(a=1, b=2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.Counter(a=3, b=1) | M.Counter(a=1, b=2), M.Counter(a=3, b=1) & M.Counter(a=1, b=2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(+M.Counter(a=2, b=-1), -M.Counter(a=2, b=-1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda c: (c.new_child({'a': 9})['a'], c['a'], len(c), list(c), c.parents))(M.ChainMap({'a': 1}, {'b': 2, 'a': 3}))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.ChainMap({'a': 1})['zz']))
except Exception as e:
    print(type(e).__name__, e)
