# range objects: construction, len, indexing, repr, equality.
for r in [range(5), range(2, 8), range(0, 10, 3), range(10, 0, -2), range(5, 5), range(-3, 3), range(0, -10, -4)]:
    print(r, len(r), list(r), r[0] if len(r) else None, r[-1] if len(r) else None, bool(r))
print(range(0, 10, 2)[2:4], range(10)[::-1], range(10)[::3], range(1, 20, 4)[1:-1])
print(range(3) == range(0, 3), range(0) == range(4, 4), range(0, 3, 2) == range(0, 4, 2))
print(5 in range(10), 10 in range(10), 3 in range(0, 10, 3), 4 in range(0, 10, 3), -1 in range(0, -5, -1))
print(range(0, 20, 3).index(9), range(0, 20, 3).count(9), range(10).count(11))
r = range(1, 10, 2)
print(r.start, r.stop, r.step, sum(r), max(r), min(r), sorted(r, reverse=True))
try:
    range(1, 2, 0)
except ValueError as e:
    print("ValueError", e)
try:
    range(5)[5]
except IndexError as e:
    print("IndexError", e)
try:
    range(1.5)
except TypeError as e:
    print("TypeError", e)
