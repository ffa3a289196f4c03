# Sorting, min and max with NaN follow CPython's exact comparison sequence.
import math

nan = float("nan")
inf = math.inf
cases = [
    [3.0, nan, 1.0, 2.0],
    [nan, 3.0, 1.0, 2.0],
    [1.0, 2.0, nan, 0.5, -1.0],
    [5.0, 4.0, nan, 3.0, 2.0, 1.0],
    [nan, nan, 2.0, 1.0],
    [2.0, 1.0, nan],
    [1.0, nan],
    [nan, 1.0],
    [nan],
    [0.0, -0.0, nan, 0.0, -inf, inf, nan, 7.5, -2.25, 3.0],
    [4, 2.5, nan, 1, 3, True, 0.0],
    [9.0, 8.0, 7.0, 6.0, nan, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0],
]
for c in cases:
    print(sorted(c), sorted(c, reverse=True))
    d = list(c)
    d.sort()
    e = list(c)
    e.sort(key=lambda v: -v)
    print(d, e, sorted(c, key=abs))
    print(min(c), max(c), min(c, key=lambda v: -v), max(c, default=0.0))

# tuples and lists holding NaN as sort keys
rows = [(2, nan, "b"), (1, 3.0, "a"), (2, 1.0, "c"), (1, nan, "d"), (0, 5.0, "e")]
print(sorted(rows))
print(sorted(rows, key=lambda r: r[1]))
print(sorted(rows, key=lambda r: (r[1], r[0]), reverse=True))
print(min(rows), max(rows), min(rows, key=lambda r: r[1]), max(rows, key=lambda r: r[1]))
print(sorted([[nan, 1], [nan, 0], [1.0, 2]]))

# a longer list: the relative order of the non-NaN items is still sorted around a NaN-free run
ascending = [float(i) for i in range(20)]
print(sorted(ascending + [nan]) == ascending + [nan], sorted([nan] + ascending)[:3])
print(min(nan, 1.0, 2.0), min(1.0, nan, 0.5), max(2.0, nan, 3.0), max(nan, -1.0))
print(min([nan, nan]), max([1.0, nan, nan, 2.0]), min((nan, 1.0), (nan, 0.5)))
