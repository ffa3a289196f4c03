# frozenset: immutability, hashing as dict keys, mixing with set.
f = frozenset("hello")
print(len(f), sorted(f), "h" in f)
g = frozenset([1, 2, 3])
h = g | {4}
print(type(h).__name__, sorted(h), type({4} | g).__name__, sorted({4} | g))
d = {frozenset({1, 2}): "a", frozenset({2, 1}): "b"}
print(len(d), d[frozenset([1, 2])])
print(frozenset() == set(), frozenset({1}) < {1, 2}, hash(frozenset()) == hash(frozenset()))
try:
    g.add(5)
except AttributeError as e:
    print("AttributeError", e)
nested = {frozenset({1}), frozenset({1}), frozenset({2, 3})}
print(len(nested), sorted(sorted(x) for x in nested))
print(sorted(g.union([9])), sorted(g.intersection({2, 3, 4})), g.copy() == g)
