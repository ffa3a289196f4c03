# Generator expressions as arguments and chained.
print(sum(i * i for i in range(10)), list(x for x in "abc"), max((len(s), s) for s in ["aa", "b", "ccc"]))
evens = (i for i in range(20) if i % 2 == 0)
pairs = ((a, b) for a in evens for b in "xy")
print(next(pairs), next(pairs), next(pairs))
print(list(zip((i for i in range(3)), (c for c in "ABCDE"))))
g = (i for i in range(3))
print(list(g), list(g), sorted(x % 3 for x in range(10)))
