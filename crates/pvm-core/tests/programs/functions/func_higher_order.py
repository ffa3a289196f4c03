# map/filter/sorted with function objects, reduce written by hand.
def reduce(fn, seq, init):
    acc = init
    for v in seq:
        acc = fn(acc, v)
    return acc
print(reduce(lambda a, b: a * b, range(1, 8), 1), reduce(lambda a, b: a + [b * 2], [1, 2], []))
def memoize(fn):
    cache = {}
    def w(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]
    w.cache = cache
    return w
@memoize
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(80), len(fib.cache))
def partial(fn, *a, **k):
    def w(*b, **kk):
        return fn(*a, *b, **{**k, **kk})
    return w
pw = partial(pow, 2)
print(pw(10), partial(print, "pre:", sep="")( "x") is None)
