# Generator expressions: laziness, single use, passing to functions.
g = (x * x for x in range(5))
print(next(g), next(g), list(g), list(g))
print(sum(x for x in range(101)), max(len(w) for w in "a bb ccc".split()), any(x > 3 for x in [1, 5]))
log = []
def noisy(v):
    log.append(v)
    return v
gen = (noisy(i) for i in range(5))
print(log)
first = next(gen)
print(first, log)
print(sorted((i % 3, i) for i in range(6)))
print(tuple(c.upper() for c in "abc"), "-".join(str(i) for i in range(4)), dict((i, i * i) for i in range(3)))
try:
    g2 = (1 / x for x in [1, 0])
    print(next(g2))
    print(next(g2))
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
def outer_iter():
    print("iter evaluated")
    return range(3)
ge = (i for i in outer_iter())
print("created")
print(list(ge))
