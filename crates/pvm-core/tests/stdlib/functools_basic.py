import functools
from functools import reduce, partial, wraps, total_ordering, lru_cache, cache, cmp_to_key, cached_property

print(reduce(lambda a, b: a * b, range(1, 6)), reduce(lambda a, b: a + b, [], 7))
try:
    reduce(lambda a, b: a + b, [])
except TypeError as e:
    print("TypeError:", e)
b2 = partial(int, base=2)
print(b2("1011"), b2.func is int, b2.args, b2.keywords)
p = partial(max, 1, 2, key=abs)
print(p(-5), p.args)
print(sorted([3, 1, 2], key=cmp_to_key(lambda a, b: b - a)))

def deco(f):
    @wraps(f)
    def inner(*a, **k):
        """inner doc"""
        return f(*a, **k) + 1
    return inner

@deco
def add(a, b):
    """Add two numbers."""
    return a + b

print(add(1, 2), add.__name__, add.__doc__, add.__wrapped__(1, 2))

calls = []

@lru_cache(maxsize=2)
def sq(x):
    calls.append(x)
    return x * x

print([sq(i % 3) for i in range(6)], calls, sq.cache_info())
sq.cache_clear()
print(sq.cache_info())

@cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

print(fib(80), fib.cache_info().hits)

@total_ordering
class V:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
    def __lt__(self, o):
        return self.v < o.v

print(V(1) < V(2), V(1) <= V(1), V(3) > V(2), V(2) >= V(3), sorted([V(3), V(1)])[0].v)

class C:
    def __init__(self):
        self.n = 0
    @cached_property
    def val(self):
        self.n += 1
        return 42

c = C()
print(c.val, c.val, c.n)
print(functools.reduce(lambda acc, kv: acc + kv[1], {"a": 1, "b": 2}.items(), 0))
