# Result types of mixed set/frozenset operations.
s = {1, 2, 3}
f = frozenset({2, 3, 4})
for name, r in [("s|f", s | f), ("f|s", f | s), ("s&f", s & f), ("f-s", f - s), ("s^f", s ^ f), ("f.union", f.union(s)), ("s.copy", s.copy()), ("f.copy", f.copy())]:
    print(name, type(r).__name__, sorted(r))
print(s == {3, 2, 1}, f == frozenset([4, 3, 2]), {f: 1}[frozenset({2, 3, 4})], f in {f}, s <= f | s)
