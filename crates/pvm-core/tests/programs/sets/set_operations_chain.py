# Chained set operations and in-place operators with multiple operands.
a = set(range(0, 20, 2))
b = set(range(0, 20, 3))
c = set(range(0, 20, 5))
print(sorted(a | b | c), sorted(a & b & c), sorted((a | b) - c), sorted(a ^ b ^ c))
print(sorted(a.intersection(b, c)), sorted(a.union(b, c, [99])), sorted(a.difference(b, c)))
d = a.copy()
d -= b
d |= {1}
d &= set(range(10))
print(sorted(d), len(a), len(b), len(c))
print(a.isdisjoint({1, 3, 5}), c.issubset(set(range(20))), (a & b) < a)
