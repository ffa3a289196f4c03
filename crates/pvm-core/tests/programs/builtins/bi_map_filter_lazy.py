# map/filter/zip/enumerate are lazy iterators.
log = []
def f(x):
    log.append(x)
    return x * 10
m = map(f, range(5))
print(log)
print(next(m), log)
print(list(m), log)
z = zip(range(3), map(f, "ab"))
print(list(z))
e = enumerate(filter(lambda v: v % 2, range(7)))
print(next(e), list(e))
print(iter(m) is m, list(m))
