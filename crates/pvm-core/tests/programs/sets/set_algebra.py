# Union, intersection, difference, symmetric difference and comparisons.
a = {1, 2, 3, 4}
b = {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(b - a), sorted(a ^ b))
print(sorted(a.union(b, [9])), sorted(a.intersection(b, {4})), sorted(a.difference([1], [2])), sorted(a.symmetric_difference(b)))
print(a <= a, {1, 2} < a, a < a, a >= {1}, a > {1, 2, 3, 4}, {1, 2}.issubset(a), a.issuperset([1, 2]), a.isdisjoint({7, 8}))
c = set(a)
c |= {10}; c &= {1, 2, 10, 11}; c -= {1}; c ^= {2, 99}
print(sorted(c))
d = {1, 2}
d.update([3], (4,)); d.intersection_update({1, 2, 3}); d.difference_update({1}); d.symmetric_difference_update({3, 5})
print(sorted(d))
print(a == {4, 3, 2, 1}, a != b, {1, 2} == frozenset({1, 2}))
