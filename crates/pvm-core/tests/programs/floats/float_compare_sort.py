# Comparisons and sorting of floats, including -0.0 and mixed types.
vals = [3.5, -0.0, 0.0, -2.25, 1e-300, -1e300, 2, 7, 1.5, True]
print(sorted(vals))
print(sorted(vals, reverse=True))
print(-0.0 == 0.0, 0.1 < 0.2 < 0.30000000000000004, 1.0 < 1 < 1.5)
print(max(vals), min(vals), vals.index(0.0), vals.index(-0.0))
print(sorted([0.1 * i for i in range(5)], key=lambda v: -v))
print(round(sum(sorted([1e16, 1.0, -1e16])), 3))
