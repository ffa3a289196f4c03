# sorted() is stable; key functions returning tuples; reverse keeps stability.
rec = [("b", 1), ("a", 2), ("b", 0), ("a", 1), ("c", 2), ("a", 0)]
print(sorted(rec, key=lambda r: r[0]))
print(sorted(rec, key=lambda r: r[0], reverse=True))
print(sorted(rec, key=lambda r: r[1]))
print(sorted(rec, key=lambda r: (r[1], r[0])))
print(sorted(sorted(rec, key=lambda r: r[1]), key=lambda r: r[0]))
print(sorted([3, 1, 2], key=None), sorted("bca", key=ord), sorted([-1, 1, -2, 2], key=abs))
